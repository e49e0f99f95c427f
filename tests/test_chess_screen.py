"""The screen of chess's check test: `(forbid (named ... ("Check" Mover Next)))` passes, without
trying them, the moves that certainly leave the king unattacked (worked out once per position
from the king: checks and pin lines; the king's own moves, castling and the like judged on the
board in place; see stdlib/chess.py, Attacked.screen). A screen may only save work: the legal
moves with it are exactly those without it (every move tried), along random chess and
Chess960 games, from the perft positions, and over positions made to have pins, checks,
discovered checks, en passant exposing the king on its rank, and castling."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any
from unittest.mock import patch

from chess_fen import fen_to_text
from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter import load_game
from stdlib.chess import Attacked
from stdlib.effects import Forbid
from stdlib.parts import parts_of

CHESS = Path(__file__).resolve().parent.parent / "games" / "chess.game"

PERFT_POSITIONS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
]


@cache
def chess(back: str = "RNBQKBNR") -> Any:
    return load_game(CHESS, back=back)


@contextmanager
def screens_off() -> Iterator[None]:
    """Every move of a (forbid ...) decision tried, as if no condition had a screen."""
    with patch.object(Forbid, "screen", lambda self, ctx: None):
        yield


def listed(state: Any) -> list[str]:
    """The mover's moves, generated afresh (not those kept by the end test), even when the
    game is over: the decision's moves as (forbid ...) lets them through."""
    game = state.game
    saved = state._moves, state.result
    state._moves, state.result = None, None
    try:
        return [str(m) for m in game.generate(state)]
    finally:
        state._moves, state.result = saved


def same_with_and_without(state: Any) -> list[str]:
    screened = listed(state)
    with screens_off():
        tried = listed(state)
    assert screened == tried, state.to_text()
    return screened


class Counting:
    """Counts the moves the screen passes and those it leaves to be tried."""

    def __init__(self) -> None:
        self.passed = self.tried = 0
        self.original = Forbid.screen

    def screen(self, forbid: Forbid, ctx: Any) -> Any:
        safe = self.original(forbid, ctx)
        if safe is None:
            return None

        def counted(move: Any) -> bool:
            ok = safe(move)
            if ok:
                self.passed += 1
            else:
                self.tried += 1
            return bool(ok)
        return counted


def random_back(rng: random.Random) -> str:
    """A Chess960 back rank: bishops on squares of both colours, the king between the rooks."""
    back: list[str | None] = [None] * 8
    back[rng.choice(range(0, 8, 2))] = "B"
    back[rng.choice(range(1, 8, 2))] = "B"
    for piece in "QNN":
        back[rng.choice([i for i, p in enumerate(back) if p is None])] = piece
    rest = [i for i, p in enumerate(back) if p is None]
    for i, piece in zip(rest, "RKR", strict=True):
        back[i] = piece
    return "".join(p or "?" for p in back)


def play_randomly(state: Any, rng: random.Random, plies: int) -> int:
    """Plays random moves, comparing the legal moves with and without the screen at each
    position; the number of positions compared."""
    compared = 0
    for _ in range(plies):
        moves = same_with_and_without(state)
        compared += 1
        if state.is_over or not moves:
            break
        state = state.play(rng.choice(moves))
    return compared


def test_the_check_test_has_a_screen_and_named_forwards_it() -> None:
    state = chess().initial_state()
    game = state.game
    forbids = [fn for steps in game.turns for _, fn in steps if isinstance(fn, Forbid)]
    assert len(forbids) == 1
    screen = parts_of(forbids[0].condition).screen
    assert callable(screen)
    # (named ...) forwards its condition's
    assert isinstance(getattr(screen, "__self__", None), Attacked)
    from stdlib.runtime import Ctx

    ctx = Ctx(state.board, state.to_move, state, game.env, game.owner)
    safe = forbids[0].screen(ctx)
    assert safe is not None
    assert all(safe(m) for m in state.legal_moves() if str(m) != "e1-e2")


def test_random_chess_games_list_the_same_moves_with_and_without_the_screen() -> None:
    rng = random.Random(21)
    counting = Counting()
    with patch.object(Forbid, "screen", lambda forbid, ctx: counting.screen(forbid, ctx)):
        compared = sum(play_randomly(chess().initial_state(), rng, 120) for _ in range(6))
    assert compared > 300
    assert counting.passed > 3 * counting.tried  # the screen does save work


def test_the_engine_tries_only_the_moves_it_refuses() -> None:
    """With the screen, a legal move is never tried by the engine (Game._forbidden): only
    those that would leave the king attacked are, to say why."""
    from interpreter.game import Game

    tried: list[bool] = []
    original = Game._forbidden

    def counting(game: Any, ctx: Any, move: Any, after: Any) -> str | None:
        reason = original(game, ctx, move, after)
        tried.append(reason is None)
        return reason

    with patch.object(Game, "_forbidden", counting):
        for fen in PERFT_POSITIONS:
            state = chess().from_text(fen_to_text(fen))
            for move in listed(state):
                listed(state.play(move))
    assert not any(tried)


def test_random_chess960_games_list_the_same_moves_with_and_without_the_screen() -> None:
    rng = random.Random(960)
    for _ in range(6):
        back = random_back(rng)
        play_randomly(chess(back).initial_state(), rng, 100)


def test_the_perft_positions_and_their_successors() -> None:
    for fen in PERFT_POSITIONS:
        state = chess().from_text(fen_to_text(fen))
        for move in same_with_and_without(state):
            same_with_and_without(state.play(move))


def position(rows: list[str], mover: str, **keys: str) -> Any:
    lines = [" ".join(r) for r in rows] + [f"mover: {mover}"]
    lines += [f"{key.replace('_', ' ')}: {value}" for key, value in keys.items()]
    return chess().from_text("\n".join(lines) + "\n")


def test_en_passant_that_would_expose_the_king_on_its_rank_is_refused() -> None:
    state = position(["....k...", "........", "........", "KPp....r", "........",
                      "........", "........", "........"], "White", en_passant="c6")
    moves = same_with_and_without(state)
    assert "b5-c6" not in moves and "b5-b6" in moves


def test_a_pinned_piece_keeps_to_its_line_and_a_checked_king_must_answer() -> None:
    pinned = position(["....k...", "....r...", "........", "........", "........",
                       "........", "....B...", "....K..."], "White")
    moves = same_with_and_without(pinned)
    assert not any(m.startswith("e2-") for m in moves)  # the bishop cannot stay on the file
    checked = position(["....k...", "........", "........", "........", "........",
                        ".....N..", "........", "r...K..."], "White")
    moves = same_with_and_without(checked)
    assert moves and all(m.startswith("e1-") for m in moves)  # the knight cannot help


def test_castling_through_an_attacked_square_is_refused() -> None:
    state = position(["r...k..r", "........", "........", "........", "........",
                      "........", "......b.", "R...K..R"], "White", castling="KQkq")
    moves = same_with_and_without(state)
    assert "e1-c1" in moves and "e1-g1" not in moves  # the bishop on g2 sees f1


# Positions drawn to have pins, checks and discovered checks: both kings, and pieces of both
# sides, many on the kings' lines.

SQUARES = st.tuples(st.integers(0, 7), st.integers(0, 7))
PIECES = st.sampled_from("QRBNPqrbnp")


DIRECTIONS = [(0, 1), (1, 0), (0, -1), (-1, 0), (1, 1), (1, -1), (-1, -1), (-1, 1)]


@st.composite
def crowded_positions(draw: Any) -> tuple[list[str], str, dict[str, str]]:
    """Both kings; on some of their lines a piece of either side with an enemy slider beyond
    it (a pin, or a discovered check in waiting), or the slider alone (a check); and pieces
    anywhere."""
    grid = [["."] * 8 for _ in range(8)]  # grid[row from the top][column]
    wk = draw(SQUARES)
    bk = draw(SQUARES)
    if max(abs(wk[0] - bk[0]), abs(wk[1] - bk[1])) < 2:
        bk = ((wk[0] + 4) % 8, (wk[1] + 3) % 8)
    grid[wk[0]][wk[1]], grid[bk[0]][bk[1]] = "K", "k"

    def put(r: int, c: int, piece: str) -> None:
        if 0 <= r < 8 and 0 <= c < 8 and grid[r][c] == "." and not (
                piece in "Pp" and r in (0, 7)):
            grid[r][c] = piece

    for _ in range(draw(st.integers(1, 4))):
        white = draw(st.booleans())
        king = wk if white else bk
        dr, dc = draw(st.sampled_from(DIRECTIONS))
        near = draw(st.integers(1, 5))
        far = near + draw(st.integers(0, 3))
        slider = draw(st.sampled_from("QR" if dr * dc == 0 else "QB"))
        slider = slider.lower() if white else slider
        if far > near:
            put(king[0] + dr * near, king[1] + dc * near, draw(PIECES))
        put(king[0] + dr * far, king[1] + dc * far, slider)
    for _ in range(draw(st.integers(0, 6))):
        r, c = draw(SQUARES)
        put(r, c, draw(PIECES))
    return ["".join(row) for row in grid], draw(st.sampled_from(["White", "Black"])), {}


@st.composite
def en_passant_positions(draw: Any) -> tuple[list[str], str, dict[str, str]]:
    """White to move, a black pawn just gone two squares beside a white pawn on row 5, the
    white king and a black rook or queen perhaps on that row; or the same mirrored for Black."""
    grid = [["."] * 8 for _ in range(8)]
    column = draw(st.integers(0, 7))
    side = draw(st.sampled_from([-1, 1]))
    if not 0 <= column + side < 8:
        side = -side
    grid[3][column], grid[3][column + side] = "P", "p"
    free = [c for c in range(8) if c not in (column, column + side)]
    king_col = draw(st.sampled_from(free))
    grid[3][king_col] = "K"
    slider_col = draw(st.sampled_from([c for c in free if c != king_col]))
    grid[3][slider_col] = draw(st.sampled_from("rqbn"))
    bk = draw(st.sampled_from([(0, c) for c in range(8)] + [(7, c) for c in range(8)]))
    grid[bk[0]][bk[1]] = "k" if grid[bk[0]][bk[1]] == "." else grid[bk[0]][bk[1]]
    if "k" not in "".join("".join(r) for r in grid):
        grid[0][0] = "k"
    for _ in range(draw(st.integers(0, 4))):
        r, c = draw(st.tuples(st.integers(1, 6), st.integers(0, 7)))
        if grid[r][c] == "." and (r, c) != (2, column + side) and (r, c) != (1, column + side):
            grid[r][c] = draw(PIECES)
    names = "abcdefgh"
    keys = {"en_passant": f"{names[column + side]}6"}
    rows = ["".join(row) for row in grid]
    if draw(st.booleans()):  # mirrored: Black to move, the white pawn passed on row 4
        rows = [row.swapcase() for row in reversed(rows)]
        return rows, "Black", {"en_passant": f"{names[column + side]}3"}
    return rows, "White", keys


@st.composite
def castling_positions(draw: Any) -> tuple[list[str], str, dict[str, str]]:
    grid = [["."] * 8 for _ in range(8)]
    grid[7][4], grid[0][4] = "K", "k"
    for r, c, piece in ((7, 0, "R"), (7, 7, "R"), (0, 0, "r"), (0, 7, "r")):
        grid[r][c] = piece
    for _ in range(draw(st.integers(0, 6))):
        r, c = draw(st.tuples(st.integers(1, 6), st.integers(0, 7)))
        if grid[r][c] == ".":
            grid[r][c] = draw(st.sampled_from("QRBNqrbn"))
    return (["".join(row) for row in grid], draw(st.sampled_from(["White", "Black"])),
            {"castling": "KQkq"})


@settings(max_examples=150)
@given(st.one_of(crowded_positions(), en_passant_positions(), castling_positions()))
def test_drawn_positions_list_the_same_moves_with_and_without_the_screen(
        drawn: tuple[list[str], str, dict[str, str]]) -> None:
    rows, mover, keys = drawn
    try:
        state = position(rows, mover, **keys)
    except Exception:  # a position the text refuses (e.g. a castling right it cannot have)
        return
    moves = same_with_and_without(state)
    if state.is_over:  # (its moves listed all the same, above)
        return
    for move in moves[:: max(1, len(moves) // 6)]:  # and some positions after it
        same_with_and_without(state.play(move))
