"""Perft: the number of move sequences of length d from the start position.

A finished game is not expanded (it has no legal moves), so it contributes nothing to deeper
counts. Every expected number below is derived by hand in the comment next to it (or is the
well-known published value for the game, which the derivation agrees with); none was obtained by
running this interpreter.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from interpreter import load_game

GAMES = Path(__file__).resolve().parent.parent / "games"


@cache
def game(name: str, **options: object):
    return load_game(GAMES / f"{name}.game", **options)


def perft(state, depth: int) -> int:
    if depth == 0:
        return 1
    if state.is_over:
        return 0
    moves = state.legal_moves()
    if depth == 1:
        return len(moves)
    return sum(perft(state.play(m), depth - 1) for m in moves)


# Tic-Tac-Toe. No line is possible before X's third stone (ply 5), so the first five plies are
# plain permutations: 9, 9*8, 9*8*7, 9*8*7*6, 9*8*7*6*5. At ply 5 X has completed one of the 8
# lines in 8 * 3! (order of X's stones) * 6*5 (O's two stones on the other six cells) = 1440
# ways; the other 15120 - 1440 = 13680 sequences each have 4 replies: 54720.
@pytest.mark.parametrize("depth, expected", [
    (1, 9), (2, 72), (3, 504), (4, 3024), (5, 15120), (6, 54720),
])
def test_tictactoe(depth: int, expected: int) -> None:
    assert perft(game("tictactoe").initial_state(), depth) == expected


# Connect Four: every column accepts a disc until it holds 6, and no four in a row exists
# before ply 7, so perft(d) = 7**d for d <= 5 (no column can be full before ply 6).
@pytest.mark.parametrize("depth, expected", [(1, 7), (2, 49), (3, 343), (4, 2401), (5, 16807)])
def test_connectfour(depth: int, expected: int) -> None:
    assert perft(game("connectfour").initial_state(), depth) == expected


# Reversi: the start is the mirror image (files d <-> e) of the standard Othello start, so the
# counts are Othello's: 4 (c5, d6, e3, f4), 12, 56, 244, 1396.
@pytest.mark.parametrize("depth, expected", [(1, 4), (2, 12), (3, 56), (4, 244), (5, 1396)])
def test_reversi(depth: int, expected: int) -> None:
    assert perft(game("reversi").initial_state(), depth) == expected


def test_reversi_first_moves() -> None:
    moves = {str(m) for m in game("reversi").initial_state().legal_moves()}
    assert moves == {"c5", "d6", "e3", "f4"}


# Breakthrough. Ply 1: only Black's row-7 pieces can move (row 8 is blocked by row 7); each
# steps to row 6 straight or diagonally: 2 (a7, h7) + 6 * 3 = 22. Ply 2: White likewise has 22,
# and Black's advanced piece (row 6) is too far away to matter: 22 * 22 = 484.
# Ply 3: after Black's x7 -> y6, Black has: the row-8 pieces that can enter x7 (deg x, where
# deg c = number of files within one of c: 2 at the edge, 3 inside), the other row-7 pieces
# (22 - deg x, minus the deg y - 1 of them that could have entered y6), and the piece on y6
# (deg y onto an empty row 5): deg x + 22 - deg x - (deg y - 1) + deg y = 23 whatever the move.
# White's piece on row 3 touches nothing of Black's. 22 * 22 * 23 = 11132.
@pytest.mark.parametrize("depth, expected", [(1, 22), (2, 484), (3, 11132)])
def test_breakthrough(depth: int, expected: int) -> None:
    assert perft(game("breakthrough").initial_state(), depth) == expected


# Hex on a 3x3 rhombus: a connection needs at least 3 stones of one colour, so nothing ends
# before ply 5: 9, 9*8, 9*8*7, 9*8*7*6.
@pytest.mark.parametrize("depth, expected", [(1, 9), (2, 72), (3, 504), (4, 3024)])
def test_hex3(depth: int, expected: int) -> None:
    assert perft(game("hex", size=3).initial_state(), depth) == expected


# Hex 3x3 with the pie rule: Blue's first move may also be `swap` (board unchanged, Blue moves
# again, on the 8 empty cells). Ply 2: 9 * (8 + 1) = 81. Ply 3: 9*8*7 after a placement, plus
# 9 * 8 after a swap = 504 + 72 = 576. Ply 4: 9*8*7*6 + 9*1*8*7 = 3024 + 504 = 3528.
@pytest.mark.parametrize("depth, expected", [(1, 9), (2, 81), (3, 576), (4, 3528)])
def test_hex3_pie(depth: int, expected: int) -> None:
    assert perft(game("hex", size=3, pie=True).initial_state(), depth) == expected


# Hex on a 2x2 rhombus (a2 b2 / a1 b1, the bottom row shifted right): a2-a1, b2-a1, b2-b1 touch,
# a2-b1 do not. Red wins at ply 3 when its two stones are one of the 3 touching top-bottom
# pairs: 3 pairs * 2 orders * 2 Blue cells = 12 of the 4*3*2 = 24 sequences. The other 12 have
# one reply each (ply 4 fills the board) and every full board is a win for Blue: Red's
# non-touching pairs {a2,b2}, {a1,b1}, {a2,b1} leave Blue {a1,b1}, {a2,b2}, {a1,b2}, each
# joining the left and right sides. So 4, 12, 24, 12, 0.
@pytest.mark.parametrize("depth, expected", [(1, 4), (2, 12), (3, 24), (4, 12), (5, 0)])
def test_hex2(depth: int, expected: int) -> None:
    assert perft(game("hex", size=2).initial_state(), depth) == expected


def test_hex2_results() -> None:
    """The finished games of the 2x2 Hex tree: 12 won by Red at ply 3, 12 by Blue at ply 4."""
    results: dict[tuple[str | None, int], int] = {}

    def walk(state, ply: int) -> None:
        if state.is_over:
            key = (state.winner, ply)
            results[key] = results.get(key, 0) + 1
            return
        for m in state.legal_moves():
            walk(state.play(m), ply + 1)

    walk(game("hex", size=2).initial_state(), 0)
    assert results == {("Red", 3): 12, ("Blue", 4): 12}


@pytest.mark.slow
def test_tictactoe_whole_tree() -> None:
    """The complete game tree: 255168 games; X wins 131184, O wins 77904, 46080 draws."""
    counts = {"X": 0, "O": 0, None: 0}

    def walk(state) -> None:
        if state.is_over:
            counts[state.winner] += 1
            return
        for m in state.legal_moves():
            walk(state.play(m))

    walk(game("tictactoe").initial_state())
    assert counts == {"X": 131184, "O": 77904, None: 46080}
