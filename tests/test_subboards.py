"""Boards made of boards (stdlib/subboards.py) beyond Ultimate Tic-Tac-Toe: other layouts and
sub-board sizes, joined sub-boards, the numbers of sub-boards and cells, the results kept move
by move against the results worked out afresh, and the errors."""

from __future__ import annotations

import random

import pytest

from interpreter import RuleError, parse_game
from stdlib.runtime import Ctx
from stdlib.subboards import DRAWN, OPEN

# Ultimate Tic-Tac-Toe's rules on a 4x4 layout of 4x4 boards: three in a row wins a board,
# four won boards in a row win the game.
FOUR = """
(option "joined" false)
(game "Ultimate 4x4"
  (players {(player "X") (player "O")})
  (board (boards (square 4) (square 4) joined:#joined))
  (play
    (first-of
      (place (intersection (sites Subboard (cell-of LastTo)) (sites Open row:3)))
      (place (sites Open row:3))))
  (end
    (if (line-of-subboards 4 row:3) (win Mover))
    (if (> (subboards-won Mover row:3) 7) (win Mover))
    (if (= (count (sites Open row:3)) 0) (draw))))
"""


def ctx(state) -> Ctx:
    """A context judging the state's own position (so that its kept results are read)."""
    env = state.game.env
    return Ctx(state.board, state.to_move, state, env, env.owner)


@pytest.fixture(scope="module")
def four():
    return parse_game(FOUR, source="four.game")


def test_a_layout_of_larger_boards_numbers_sub_boards_and_cells(four) -> None:
    assert len(four.sites) == 256
    state = four.initial_state()
    assert len(state.legal_moves()) == 256
    # a16 is cell 1 of sub-board 1 (top left): the next move goes to sub-board 1.
    top_left = {f"{c}{r}" for c in "abcd" for r in (13, 14, 15, 16)}
    assert {str(m) for m in state.play("a16").legal_moves()} == top_left - {"a16"}
    # p1 is the last cell (16) of the last sub-board: the next goes to sub-board 16.
    bottom_right = {f"{c}{r}" for c in "mnop" for r in (1, 2, 3, 4)}
    assert {str(m) for m in state.play("p1").legal_moves()} == bottom_right - {"p1"}
    # e13 is the bottom-left cell (13) of sub-board 2: sub-board 13 is the bottom-left one.
    assert {str(m) for m in state.play("e13").legal_moves()} == {
        f"{c}{r}" for c in "abcd" for r in (1, 2, 3, 4)}


def test_separate_sub_boards_have_no_rows_across_their_edges(four) -> None:
    # X's c16 d16 e16 run across the edge of sub-boards 1 and 2: no board is won there.
    rows = [". " * 16] * 16
    rows[0] = ". . X X X " + ". " * 11
    text = "\n".join(r.strip() for r in rows) + "\nmover: O\nlast to: a1\n"
    state = four.from_text(text)
    kept = four.env.shared["subboard results 3"]
    assert kept.results(ctx(state))[1:3] == [OPEN, OPEN]
    assert four.graph.has_edge("d16", "e16") is False
    joined = parse_game(FOUR, source="four.game", joined=True)
    assert joined.graph.has_edge("d16", "e16")


def test_results_kept_move_by_move_match_results_worked_out_afresh(four) -> None:
    kept = four.env.shared["subboard results 3"]
    rng = random.Random(7)
    for _ in range(3):
        state = four.initial_state()
        while not state.is_over:
            judged = ctx(state)
            assert kept.results(judged)[1:] == kept.tracker.build(state.board)[1:]
            state = state.play(rng.choice(state.legal_moves()))
        assert state.winner in ("X", "O", None)


def test_a_full_sub_board_without_a_row_is_drawn() -> None:
    game = parse_game(FOUR.replace("row:3", "row:4"), source="four.game")
    kept = game.env.shared["subboard results 4"]
    rows = [". " * 16] * 16
    rows[:4] = ["X O X O " + ". " * 12, "X O X O " + ". " * 12,
                "O X O X " + ". " * 12, "O X O X " + ". " * 12]
    text = "\n".join(r.strip() for r in rows) + "\nmover: O\n"
    state = game.from_text(text)
    assert kept.results(ctx(state))[1] == DRAWN


@pytest.mark.parametrize("form", ["(sites Subboard 1)", "(sites Open row:3)"])
def test_sub_board_ludemes_need_a_board_made_of_boards(form: str) -> None:
    with pytest.raises(RuleError, match="needs a board made of boards"):
        parse_game(f"""(game "Bad" (players {{(player "A") (player "B")}}) (board (square 9))
          (play (place {form})) (end (if (full) (draw))))""")


def test_boards_needs_grids_of_square_cells() -> None:
    with pytest.raises(RuleError, match="grid of square cells"):
        parse_game("""(game "Bad" (players {(player "A") (player "B")})
          (board (boards (hexhex 2) (square 3)))
          (play (place (sites Empty))) (end (if (full) (draw))))""")


# Joined sub-boards: one grid, where rows and fullness inside one sub-board are asked for.
JOINED = """
(game "Joined"
  (players {(player "X") (player "O")})
  (board (boards (square 2) (square 3) joined:true))
  (play (place (sites Empty)))
  (end
    (if (line 3 within:(regions Subboards)) (win Mover))
    (if (full within:(sites Subboard (subboard-of LastTo))) (draw))))
"""


def test_rows_and_fullness_inside_one_of_joined_sub_boards() -> None:
    game = parse_game(JOINED, source="joined.game")
    # c6 d6 e6 is a row of the whole grid, across sub-boards 1 and 2: it does not count.
    across = game.from_text("\n".join([". . X X X .", ". . . . . .", ". . . . . .",
                                       ". . . . . .", ". . . . . .", ". . . . . ."])
                            + "\nmover: O\nlast to: e6\n")
    assert not across.is_over
    inside = game.from_text("\n".join(["X X X . . .", ". . . . . .", ". . . . . .",
                                       ". . . . . .", ". . . . . .", ". . . . . ."])
                            + "\nmover: O\nlast to: a6\n")
    assert inside.winner == "X"
    # Sub-board 4 (bottom right) full without a row, its last cell just played: a draw.
    full = game.from_text("\n".join([". . . . . .", ". . . . . .", ". . . . . .",
                                     ". . . X O X", ". . . X O O", ". . . O X X"])
                          + "\nmover: X\nlast to: f1\n")
    assert full.is_over and full.winner is None
    assert not game.from_text(full.to_text().replace("last to: f1", "last to: a1")).is_over
