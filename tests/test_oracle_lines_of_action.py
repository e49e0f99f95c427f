"""games/lines-of-action.game against OpenSpiel's `lines_of_action`, move by move, and its rules
from positions, in both its rule sets.

OpenSpiel (`open_spiel/games/lines_of_action/lines_of_action.cc`) names its cells as ludeme
does: column letter a-h from the left, row 1-8 from the bottom (row 0 of its board is rank 1),
and writes a move `c1-c3`, or `c1xa3` for a capture; ludeme writes both `from-to`. With
openspiel:true the game file plays OpenSpiel's rules (the mover wins when a move joins both
players' pieces, a player who cannot move loses, any repeated board is a draw, and so is the
1000th move); at every position of seeded random games the movers, the legal moves and the
boards must be the same, and at the end the returns.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import IllegalMoveError, load_game
from tests.oracle import require_openspiel

ROOT = Path(__file__).resolve().parent.parent
FILE = ROOT / "games" / "lines-of-action.game"
ROLES = ("Black", "White")  # OpenSpiel's player 0 is Black ("x"), who moves first


@pytest.fixture(scope="module")
def published():
    return load_game(FILE)


@pytest.fixture(scope="module")
def openspiel():
    return load_game(FILE, openspiel=True)


def spiel_move(spiel_state, action: int) -> str:
    return spiel_state.action_to_string(action).replace("x", "-")


def spiel_board(spiel_state) -> list[str]:
    """OpenSpiel's board as ludeme's position text draws it: rows top first, B, W or '.'."""
    rows = str(spiel_state).splitlines()[:8]  # "8.xxxxxx." ... "1.xxxxxx."
    return [" ".join({"x": "B", "o": "W"}.get(c, ".") for c in row[1:]) for row in rows]


def ludeme_board(state) -> list[str]:
    return [line.strip() for line in state.to_text().splitlines()[:8]]


def play_both(game, spiel, seed: int) -> tuple[object, object, list[str]]:
    """One seeded random game through both engines in lockstep, checked at every position."""
    rng = random.Random(seed)
    spiel_state = spiel.new_initial_state()
    state = game.initial_state()
    moves: list[str] = []
    while not spiel_state.is_terminal():
        assert not state.is_over, f"seed {seed}, after {moves}: ludeme says {state.outcome}"
        assert state.mover == ROLES[spiel_state.current_player()], f"seed {seed}: {moves}"
        expected = {spiel_move(spiel_state, a) for a in spiel_state.legal_actions()}
        assert {str(m) for m in state.legal_moves()} == expected, f"seed {seed}: {moves}"
        action = rng.choice(spiel_state.legal_actions())
        move = spiel_move(spiel_state, action)
        spiel_state.apply_action(action)
        state = state.play(move)
        moves.append(move)
        assert ludeme_board(state) == spiel_board(spiel_state), f"seed {seed}: {moves}"
    assert state.is_over, f"seed {seed}: OpenSpiel ended the game after {moves}, ludeme did not"
    returns = spiel_state.returns()
    winner = None if returns[0] == returns[1] else ROLES[returns.index(1.0)]
    assert state.winner == winner, f"seed {seed}: {moves}"
    return state, spiel_state, moves


@pytest.mark.parametrize("seed", range(30))
def test_moves_boards_and_results_match_openspiel(openspiel, seed: int) -> None:
    spiel = require_openspiel("lines_of_action").load_game("lines_of_action")
    play_both(openspiel, spiel, seed)


def test_a_short_game_limit_draws_as_openspiel_does(openspiel) -> None:
    # OpenSpiel's max_game_length, matched by starting the ludeme game 40 moves from the end
    # of its 1000: the 40th move ends both games, a draw even if it joins a group.
    spiel = require_openspiel("lines_of_action").load_game(
        "lines_of_action", {"max_game_length": 40})
    rng = random.Random(3)
    spiel_state = spiel.new_initial_state()
    state = openspiel.from_text(openspiel.initial_state().to_text() + "turns: 960\n")
    while not spiel_state.is_terminal():
        assert {str(m) for m in state.legal_moves()} == \
            {spiel_move(spiel_state, a) for a in spiel_state.legal_actions()}
        action = rng.choice(spiel_state.legal_actions())
        state = state.play(spiel_move(spiel_state, action))
        spiel_state.apply_action(action)
    assert state.is_over and spiel_state.returns() == [0.0, 0.0]
    assert state.winner is None and state.outcome.reason == "the move limit"


# Rules from positions --------------------------------------------------------------------------

EMPTY_ROW = ". . . . . . . ."


def board(*rows: str, mover: str = "Black", extra: str = "") -> str:
    """Position text: the rows given (top first), the rest of the eight empty."""
    lines = [EMPTY_ROW] * (8 - len(rows)) + list(rows) if len(rows) < 8 else list(rows)
    return "\n".join(lines) + f"\nmover: {mover}\n{extra}"


def moves_from(state, site: str) -> set[str]:
    return {str(m) for m in state.legal_moves() if str(m).startswith(site + "-")}


@pytest.mark.parametrize("rules", ["published", "openspiel"])
def test_a_piece_moves_as_far_as_there_are_pieces_on_its_line(request, rules: str) -> None:
    game = request.getfixturevalue(rules)
    start = game.initial_state()
    # b1's column holds 2 pieces, its diagonal b1-g6 2, its row 6: b1-b3, b1-d3, b1-h1.
    assert moves_from(start, "b1") == {"b1-b3", "b1-d3", "b1-h1"}
    assert "c1-a3" in {str(m) for m in start.legal_moves()}  # a capture on the first move
    # Row 5 holds four pieces: White's are blocked by Black's; f5 goes to b5 over its own
    # piece; d5 takes on h5; neither goes over the other's.
    state = game.from_text(board(EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, "W . . B . B . W",
                                 EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, ". B . . . . . W"))
    assert {"f5-b5", "d5-h5"} <= {str(m) for m in state.legal_moves()}
    assert "d5-h5" in moves_from(state, "d5") and not any(
        m.endswith("5") for m in moves_from(state, "d5") - {"d5-h5"})
    white = game.from_text(board(EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, "W . . B . B . W",
                                 EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, ". B . . . . . W",
                                 mover="White"))
    assert not {m for m in moves_from(white, "a5") | moves_from(white, "h5")
                if m.endswith("5")}  # blocked along the row by Black's pieces


@pytest.mark.parametrize("rules", ["published", "openspiel"])
def test_a_piece_may_not_land_on_its_own(request, rules: str) -> None:
    game = request.getfixturevalue(rules)
    state = game.from_text(board("B . B . . . . .", EMPTY_ROW, EMPTY_ROW, EMPTY_ROW,
                                 EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, "W . . . . . . W"))
    # Row 8 holds two pieces, but c8 is Black's own: a8 goes down its column (a8, a1) or
    # its diagonal (a8, h1) only.
    assert moves_from(state, "a8") == {"a8-a6", "a8-c6"}
    with pytest.raises(IllegalMoveError):
        state.play("a8-c8")


# Black's d2 takes White's stray d4 (two pieces on column d): Black's c5, d4 are then one
# group, and so are White's a1, a2.
BOTH = board(EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, ". . B . . . . .", ". . . W . . . .", EMPTY_ROW,
             "W . . B . . . .", "W . . . . . . .")


def test_a_capture_joining_both_draws_or_the_mover_wins(published, openspiel) -> None:
    assert not published.from_text(BOTH).is_over
    after = published.from_text(BOTH).play("d2-d4")
    assert after.is_over and after.winner is None
    assert after.outcome.reason == "both connected"
    after = openspiel.from_text(BOTH).play("d2-d4")
    assert after.winner == "Black" and after.outcome.reason == "one group"


@pytest.mark.parametrize("rules", ["published", "openspiel"])
def test_a_capture_leaving_the_opponent_a_single_piece_makes_them_win(request,
                                                                      rules: str) -> None:
    game = request.getfixturevalue(rules)
    # As above with a third Black piece on g8: Black stays apart; White's a1, alone, is a
    # group.
    text = board(". . . . . . B .", EMPTY_ROW, EMPTY_ROW, ". . B . . . . .",
                 ". . . W . . . .", EMPTY_ROW, ". . . B . . . .", "W . . . . . . .")
    after = game.from_text(text).play("d2-d4")
    assert after.winner == "White" and after.outcome.reason == "one group"


# White's a1 and h1 are hemmed in: along each of their lines the first square holds a Black
# piece, which they may not jump, and every line holds two pieces or more.
HEMMED = (". . . . B . . .", EMPTY_ROW, EMPTY_ROW, "B B . . . . B B", "W B . . . . B W")


def test_a_player_who_cannot_move_passes_or_loses(published, openspiel) -> None:
    state = published.from_text(board(EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, *HEMMED, mover="White"))
    assert not state.is_over
    assert [str(m) for m in state.legal_moves()] == ["pass"]
    assert state.play("pass").mover == "Black"
    state = openspiel.from_text(board(EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, *HEMMED))
    after = state.play("e5-e6")  # Black moves; White is left without a move, and loses
    assert after.winner == "Black" and after.outcome.reason == "no move"
    with pytest.raises(IllegalMoveError):
        state.play("pass")


# Black's a8, h8 and White's a1, h1: each row holds two pieces, so a8-c8, h1-f1, c8-a8,
# f1-h1 brings the board back.
CORNERS = board("B . . . . . . B", EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW,
                EMPTY_ROW, "W . . . . . . W")
SHUTTLE = ["a8-c8", "h1-f1", "c8-a8", "f1-h1"]


def test_a_repeated_board_draws_at_once_in_openspiel(openspiel) -> None:
    state = openspiel.from_text(CORNERS)
    for move in SHUTTLE[:3]:
        state = state.play(move)
        assert not state.is_over
    state = state.play(SHUTTLE[3])
    assert state.winner is None and state.outcome.reason == "a repeated board"


def test_a_position_for_the_third_time_draws_in_the_published_rules(published) -> None:
    state = published.from_text(CORNERS)
    for move in SHUTTLE + SHUTTLE[:3]:
        state = state.play(move)
        assert not state.is_over
    state = state.play(SHUTTLE[3])  # the start, Black to move, for the third time
    assert state.winner is None and state.outcome.reason == "threefold repetition"


def test_the_move_limit_wins_over_a_group_in_openspiel(openspiel) -> None:
    # The 1000th move joins Black's pieces: OpenSpiel calls it a draw, not a win. (A board
    # seen before cannot be one where a player's pieces are joined: the game would have ended
    # there; so the repetition draw never meets a group made by the same move.)
    last = openspiel.from_text(BOTH + "turns: 999\n").play("d2-d4")
    assert last.winner is None and last.outcome.reason == "the move limit"
    assert openspiel.from_text(BOTH + "turns: 998\n").play("d2-d4").winner == "Black"


def test_position_text_round_trips_along_a_game(published) -> None:
    rng = random.Random(7)
    state = published.initial_state()
    for _ in range(60):
        if state.is_over:
            break
        text = state.to_text()
        again = published.from_text(text)
        assert again.to_text() == text
        assert sorted(map(str, again.legal_moves())) == sorted(map(str, state.legal_moves()))
        state = state.play(rng.choice(state.legal_moves()))
