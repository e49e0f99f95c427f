"""English draughts rule by rule from position texts: compulsory captures, multi-jumps one
decision at a time, crowning (which ends the turn), kings, the loss of the player who cannot
move, and OpenSpiel's draw after 40 moves without a capture."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter import load_game

GAMES = Path(__file__).resolve().parent.parent / "games"


@cache
def checkers(**options: object):
    return load_game(GAMES / "checkers.game", **options)


def board(*rows: str, mover: str = "Black", extra: str = "") -> str:
    return "\n".join(rows) + f"\nmover: {mover}\n" + extra


def moves(state) -> set[str]:
    return {str(m) for m in state.legal_moves()}


EMPTY = ". . . . . . . ."


def test_start_position_and_first_moves():
    state = checkers().initial_state()
    rows = state.to_text().splitlines()
    assert rows[7] == "b . b . b . b ." and rows[0] == ". w . w . w . w"
    assert moves(state) == {"a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"}


def test_capturing_is_compulsory():
    state = checkers().from_text(board(EMPTY, EMPTY, EMPTY, EMPTY, ". . w . . . . .",
                                       ". b . . . . b .", EMPTY, EMPTY))
    assert moves(state) == {"b3-d5"}  # g3 could step, but b3 must jump


def test_a_multi_jump_goes_on_with_the_same_piece():
    state = checkers().from_text(board(EMPTY, EMPTY, EMPTY, ". . . . w . . .", EMPTY,
                                       ". . w . . . . .", ". b . . . . . .", EMPTY))
    middle = state.play("b2-d4")
    assert middle.mover == "Black" and "decision: 2" in middle.to_text()
    assert moves(middle) == {"d4-f6"}
    assert checkers().from_text(middle.to_text()).to_text() == middle.to_text()
    assert middle.play("d4-f6").winner == "Black"  # White has nothing left


def test_men_do_not_capture_backwards_but_kings_do():
    men = checkers().from_text(board(EMPTY, EMPTY, EMPTY, EMPTY, ". b . . . . . .",
                                     ". . w . . . . .", EMPTY, ". . . . . . . w"))
    assert "b4-d2" not in moves(men)
    kings = checkers().from_text(board(EMPTY, EMPTY, EMPTY, EMPTY, ". B . . . . . .",
                                       ". . w . . . . .", EMPTY, ". . . . . . . w"))
    assert moves(kings) == {"b4-d2"}


def test_crowning_ends_the_turn():
    state = checkers().from_text(board(EMPTY, ". . w . w . . .", ". b . . . . . .", EMPTY,
                                       EMPTY, EMPTY, EMPTY, ". . . . . . . w"))
    crowned = state.play("b6-d8")
    assert crowned.to_text().splitlines()[0] == ". . . B . . . ."
    assert crowned.mover == "White"  # a king now, it could jump e7, but the turn is over


def test_the_player_who_cannot_move_loses():
    state = checkers().from_text(board("w . . . . . . .", ". b . . . . . .",
                                       ". . b . . . . .", EMPTY, EMPTY, EMPTY, EMPTY, EMPTY,
                                       mover="White"))
    assert state.is_over and state.winner == "Black"


def test_openspiel_draws_after_40_moves_without_a_capture():
    rows = ("B . . . . . . .", EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, ". . . . . . . W")
    published = checkers().from_text(board(*rows, extra="without capture: 39\n"))
    assert not published.play("a8-b7").is_over  # no such rule in the published game
    spiel = checkers(openspiel=True).from_text(board(*rows, extra="without capture: 39\n"))
    after = spiel.play("a8-b7")
    assert after.is_over and after.winner is None


@settings(derandomize=True, database=None, deadline=None, max_examples=20)
@given(st.integers(0, 2**32 - 1))
def test_random_games_lose_pieces_only_to_jumps(seed: int):
    rng = random.Random(seed)
    game = checkers(openspiel=True)
    state = game.initial_state()
    for _ in range(400):
        if state.is_over:
            break
        before = _count(state)
        move = rng.choice(state.legal_moves())
        a, b = str(move).split("-")
        jump = abs(ord(a[0]) - ord(b[0])) == 2
        state = state.play(move)
        assert _count(state) == before - (1 if jump else 0)
        assert game.from_text(state.to_text()).to_text() == state.to_text()


def _count(state) -> int:
    return sum(ch not in ". \n" for ch in "".join(state.to_text().splitlines()[:8]))
