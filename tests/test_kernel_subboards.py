"""Boards made of boards in kernels (stdlib/subboards.py's lowerings) against the interpreter:
the sub-boards' results worked out from the board — won, drawn (full without a row) or open —
read by (sites Open ...), (subboards-won ...) and (line-of-subboards ...), and the numbers of
(cell-of ...), (subboard-of ...) and (sites Subboard ...). From position text (a sub-board
won, then closed; a drawn one closed; three won in a row; a drawn one counting for both with
drawn:"both") and in random games of games/ultimate-tictactoe.game's variants and of a game
written here with the ludemes it does not use."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest

from interpreter import load_game, parse_game
from interpreter.kernel import available, kernel_for, why_interpreted

pytestmark = pytest.mark.skipif(not available(), reason="numba (the kernels extra) is not "
                                "installed: pip install -e '.[kernels]'")

GAME = Path(__file__).resolve().parent.parent / "games" / "ultimate-tictactoe.game"
EMPTY_ROW = ". . . . . . . . ."

# Each move must be in the sub-board numbered one more than the last move's (the first in the
# first one; after the ninth, anywhere) if it is open, else anywhere open; the game is won by
# a row of three sub-boards counting drawn ones, or by two sub-boards more than the other.
ROUNDS = """(game "Rounds"
  (players {(player "X") (player "O")})
  (board (boards (square 3) (square 3)))
  (play
    (first-of
      (place (intersection (sites Subboard (+ (subboard-of LastTo) 1)) (sites Open row:3)))
      (place (sites Open row:3))))
  (end
    (if (line-of-subboards 3 row:3 role:Mover drawn:"both") (win Mover))
    (if (> (subboards-won Mover row:3) (+ (subboards-won Next row:3) 1)) (win Mover))
    (if (= (count (sites Open row:3)) 0) (draw))))"""


@cache
def game(drawn: str = "nobody") -> Any:
    return load_game(GAME, drawn=drawn)


@cache
def kernel(drawn: str = "nobody") -> Any:
    g = game(drawn)
    assert why_interpreted(g) is None
    found = kernel_for(g)
    assert found is not None
    return found


def position(rows: dict[int, str], mover: str, last: str | None = None) -> str:
    """A position text: the rows given by their number from the bottom, the rest empty."""
    lines = [rows.get(r, EMPTY_ROW) for r in range(9, 0, -1)]
    lines.append(f"mover: {mover}")
    if last is not None:
        lines.append(f"last to: {last}")
    return "\n".join(lines) + "\n"


def kernel_moves(text: str, drawn: str = "nobody") -> set[str]:
    """The kernel's legal moves in the position, which must be the interpreter's."""
    g, k = game(drawn), kernel(drawn)
    state = g.from_text(text)
    have = k.legal_actions(k.encode(state))
    assert have == sorted(g.actions.encode(m) for m in state.legal_moves())
    return {g.actions.notation(a) for a in have}


def kernel_after(text: str, move: str, drawn: str = "nobody") -> tuple[Any, Any]:
    """The kernel's state after the move from the position, and the interpreter's; their
    boards and results agree."""
    g, k = game(drawn), kernel(drawn)
    state = g.from_text(text)
    st = k.encode(state)
    k.apply(st, {g.actions.notation(a): a for a in k.legal_actions(st)}[move])
    after = state.play(move)
    assert k.board(st) == list(after.board) and k.result(st) == after.result
    return st, after


def test_a_won_sub_board_is_closed() -> None:
    # X has won the top-left board; sent to the top-right board by c6, X plays there.
    text = position({9: "X X X . . . . . .", 8: "O O . . . . . . .",
                     6: ". . O . . . . . ."}, "X", last="c6")
    assert kernel_moves(text) == {f"{c}{r}" for c in "ghi" for r in (7, 8, 9)}
    # Sent to the won board (a6 is cell 1): any open board, none of the won board's cells.
    free = kernel_moves(text.replace("last to: c6", "last to: a6"))
    assert len(free) == 81 - 9 - 1 and not free & {"c8", "a7", "b7", "c7"}


def test_a_sub_board_won_then_closed() -> None:
    # X, sent to the top-left board by a6 (its cell 1), wins it with c9 (a row a9 b9 c9)...
    text = position({9: "X X . . . . . . .", 8: "O O . . . . . . .",
                     6: ". . O . . . . . ."}, "X", last="a6")
    assert "c9" in kernel_moves(text)
    st, after = kernel_after(text, "c9")
    assert not after.is_over
    # ...and no one may play there any more: O, sent to the top-right board by c9 (cell 3),
    # plays there; the won board's empty cells are closed.
    legal = {game().actions.notation(a) for a in kernel().legal_actions(st)}
    assert legal == {f"{c}{r}" for c in "ghi" for r in (7, 8, 9)}


def test_a_full_sub_board_without_a_row_is_drawn_and_closed() -> None:
    drawn = {9: "X O X . . . . . .", 8: "X O O . . . . . .", 7: "O X X . . . . . ."}
    text = position({**drawn, 6: "O . . . . . . . ."}, "X", last="a6")
    assert len(kernel_moves(text)) == 81 - 9 - 1


def test_three_won_sub_boards_in_a_row_win() -> None:
    rows = {9: "X X X X X X X X .", 8: ". . . . . . O O .", 6: ". . . . . . . . O"}
    text = position(rows, "X", last="i6")
    assert kernel_moves(text) == {"i9", "i8", "g7", "h7", "i7"}
    st, _ = kernel_after(text, "g7")
    assert kernel().result(st) is None
    st, _ = kernel_after(text, "i9")
    assert kernel().result(st) == 0 and kernel().reason(st) == "three small boards in a row"


def test_a_drawn_sub_board_counts_for_both_with_the_option() -> None:
    # X has won the top-left and top-middle boards; sent to the top-right one by c6 (cell 3),
    # X fills its last cell, i7, without a row: the board is drawn.
    rows = {9: "X X X X X X X O X", 8: ". . . . . . X O O", 7: ". . . . . . O X .",
            6: ". . O . . . . . ."}
    text = position(rows, "X", last="c6")
    assert kernel_moves(text) == {"i7"}
    st, nobody = kernel_after(text, "i7")
    assert not nobody.is_over and kernel().result(st) is None
    st, both = kernel_after(text, "i7", drawn="both")
    assert both.winner == "X" and kernel("both").result(st) == 0


@pytest.mark.parametrize("drawn", ["nobody", "both"])
def test_random_games_replay_in_the_interpreter(drawn: str) -> None:
    from interpreter.kernel.differential import first_difference

    g, k = game(drawn), kernel(drawn)
    assert [d for s in range(300) if (d := first_difference(g, k, s))] == []


def test_the_other_ludemes_of_sub_boards_replay_in_the_interpreter() -> None:
    """(subboard-of ...), (subboards-won ...) and (line-of-subboards ... role:) in a game
    written with them: random games, compared after every move; wins and draws both
    happen."""
    from interpreter.kernel.differential import first_difference

    g = parse_game(ROUNDS, "rounds.game")
    assert why_interpreted(g) is None
    k = kernel_for(g)
    assert k is not None
    seeds = range(300)
    assert [d for s in seeds if (d := first_difference(g, k, s))] == []
    ends = set()
    for s in seeds:
        st = k.start.copy()
        for a in k.playout_actions(s):
            k.apply(st, a)
        ends.add(k.reason(st))
    assert len(ends) >= 3, ends
