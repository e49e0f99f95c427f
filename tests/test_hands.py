"""Hands by kind (stdlib/hands.py): captured pieces go to the captor's hand as the kind they
demote to, hands are counted per role and kind in position text, and drops (`M*d3`) bring
them back, with filters; all of it made and undone in place, hashed, and numbered as actions.
The game here is a small one written for the purpose: men and a king each on a 4x4 board,
every piece stepping to any neighbour, a "Hero" (a promoted man) demoting when captured.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from interpreter import IllegalMoveError, parse_game

GAME = """
(game "Drops"
  (players {(player "White" symbol:"M" piece:"Man" forward:N
                    kinds:{(piece "King" symbol:"K") (piece "Hero" symbol:"H" demotes:"Man")})
            (player "Black" symbol:"m" piece:"Man" forward:S
                    kinds:{(piece "King" symbol:"k") (piece "Hero" symbol:"h" demotes:"Man")})}
           captures:"hand")
  (board (square 4))
  (start (put "White" (sites {"a1" "b1"})) (put "White" (sites {"c1"}) piece:"King")
         (put "Black" (sites {"c4" "d4"})) (put "Black" (sites {"b4"}) piece:"King"))
  (play
    (any-of (step All to:EmptyOrEnemy)
            (drop-from-hand (sites Empty) unless:(in To (sites Row 4))))) // not on the far row
  (end
    (if (repeated times:3) (draw))
    (if (= (count (sites Occupied Next of:{"King"})) 0) (win Mover))))
"""


@pytest.fixture(scope="module")
def game():
    return parse_game(GAME)


def position(game, rows: str, keys: str):
    return game.from_text(rows.strip().replace("|", "\n") + "\n" + keys)


def test_a_capture_goes_to_the_captors_hand_demoted(game) -> None:
    state = position(game, ". k . .|. . h .|. M . .|K . . .", "mover: White\n")
    assert state.held == ((0, 0), (0, 0))
    after = state.play("b2-c3")  # takes Black's hero, which demotes to a man
    assert after.held == ((1, 0), (0, 0))
    assert "in hand White: M1" in after.to_text()


def test_hands_by_kind_read_and_write_themselves(game) -> None:
    state = position(game, ". k . .|. . . .|. . . .|K . . .",
                     "mover: Black\nin hand White: M2 K1\nin hand Black: M\n")
    assert state.held == ((2, 1), (1, 0))
    assert game.from_text(state.to_text()).to_text() == state.to_text()
    for bad in ("in hand White: X2", "in hand White: M-1", "in hand White: M2x"):
        with pytest.raises(Exception, match="in hand White"):
            position(game, ". k . .|. . . .|. . . .|K . . .", f"mover: White\n{bad}\n")


def test_drops_are_written_with_the_kinds_letter_and_obey_their_filter(game) -> None:
    state = position(game, ". k . .|. . . .|. . . .|K . . .", "mover: White\nin hand White: M1\n")
    drops = sorted(str(m) for m in state.legal_moves() if "*" in str(m))
    assert drops == sorted(f"M*{c}{r}" for c in "abcd" for r in "123" if f"{c}{r}" != "a1")
    after = state.play("m*c3")  # the letter in either case
    assert after.held == ((0, 0), (0, 0)) and after.piece_at("c3") == "Man"
    with pytest.raises(IllegalMoveError, match=r"To is in \(sites Row 4\)"):
        state.play("M*c4")  # the far row: refused by the filter, which says so
    with pytest.raises(IllegalMoveError):
        state.play("K*c3")  # no king in hand
    with pytest.raises(IllegalMoveError, match=r"\*"):
        state.play("MM*c3")


def test_a_role_without_pieces_in_hand_has_no_drop(game) -> None:
    state = game.initial_state()
    assert not any("*" in str(m) for m in state.legal_moves())


def test_make_and_unmake_restore_hands_and_hash(game) -> None:
    state = position(game, ". k . .|. . h .|. M . .|K . . .", "mover: White\nin hand Black: M1\n")
    before, held, zhash = state.to_text(), state.held, state.zhash
    made = [game.make(state, "b2-c3")]
    made.append(game.make(state, "m*d2"))
    assert state.held == ((1, 0), (0, 0))
    for m in reversed(made):
        game.unmake(state, m)
    assert (state.to_text(), state.held, state.zhash) == (before, held, zhash)


def test_hands_are_part_of_the_position_hash(game) -> None:
    rows = ". k . .|. . . .|. . . .|K . . ."
    empty = position(game, rows, "mover: White\n")
    holding = position(game, rows, "mover: White\nin hand White: M1\n")
    assert empty.zhash != holding.zhash


def test_drops_are_integer_actions_like_other_moves(game) -> None:
    state = position(game, ". k . .|. . . .|. . . .|K . . .", "mover: White\nin hand White: M1\n")
    actions = state.legal_actions()
    moves = {str(m) for m in state.legal_moves()}
    assert {game.actions.notation(a) for a in actions} == moves
    assert str(state.apply_action(actions[-1]).to_text()) != state.to_text()


@given(st.integers(0, 10_000))
def test_pieces_are_conserved_between_board_and_hands(seed: int) -> None:
    game = parse_game(GAME)
    rng = random.Random(seed)
    state = game.initial_state()
    total = sum(1 for v in state.board if v)
    for _ in range(60):
        if state.is_over or not state.legal_moves():
            break
        state = state.play(rng.choice(state.legal_moves()))
        assert sum(1 for v in state.board if v) + sum(map(sum, state.held)) == total
        text = state.to_text()
        assert game.from_text(text).to_text() == text


def test_captures_to_hand_is_checked(game) -> None:
    with pytest.raises(Exception, match='captures:"hand"'):
        parse_game(GAME.replace('captures:"hand"', 'captures:"box"'))
    with pytest.raises(Exception, match="needs hands by kind"):
        parse_game(GAME.replace('captures:"hand"', ""))
    with pytest.raises(Exception, match='no piece named "Pawn"'):
        parse_game(GAME.replace('demotes:"Man")})\n            (player "Black"',
                                'demotes:"Pawn")})\n            (player "Black"'))
