"""Chess in a kernel (interpreter/kernel): games/chess.game and examples/los-alamos-chess.game
compiled to native code, checked two ways.

Perft counts the move sequences of a given length through the kernel's step API
(`legal_actions`, `apply` on a copy) and through its native `perft`, against the published
counts (chessprogramming.org's "Perft Results", as tests/test_chess_perft.py). The
differential test replays the kernel's random games in the interpreter and compares the legal
moves, the board, the mover, the result and its reason after every move. The end conditions
(insufficient material, threefold repetition, checkmate, stalemate, the fifty-move rule) are
also pinned down on short positions and lines, the kernel against the interpreter.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from chess_fen import fen_to_text

from interpreter import load_game
from interpreter.kernel import available, kernel_for, why_interpreted

ROOT = Path(__file__).resolve().parent.parent
CHESS = ROOT / "games" / "chess.game"
LOS_ALAMOS = ROOT / "examples" / "los-alamos-chess.game"

pytestmark = pytest.mark.skipif(not available(), reason="numba (the kernels extra) is not "
                                "installed: pip install -e '.[kernels]'")

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
POSITION_3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
POSITION_4 = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"
POSITION_5 = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"


def _kernel(path: Path = CHESS, **options: Any) -> tuple[Any, Any]:
    game = load_game(str(path), **options) if options else load_game(str(path))
    kernel = kernel_for(game)
    assert kernel is not None, why_interpreted(game)
    return game, kernel


def perft(kernel: Any, st: Any, depth: int) -> int:
    """Perft over the step API: each legal action made on a copy of the state."""
    actions = kernel.legal_actions(st)
    if depth == 1:
        return len(actions)
    total = 0
    for a in actions:
        child = st.copy()
        kernel.apply(child, a)
        total += perft(kernel, child, depth - 1)
    return total


def test_chess_lowers_whole() -> None:
    for path in (CHESS, LOS_ALAMOS):
        assert why_interpreted(load_game(str(path))) is None


@pytest.mark.parametrize(("fen", "counts"), [
    (START, [20, 400, 8902]),
    (KIWIPETE, [48, 2039]),
    (POSITION_3, [14, 191, 2812]),
    (POSITION_4, [6, 264]),
    (POSITION_5, [44, 1486]),
], ids=["start", "kiwipete", "position 3", "position 4", "position 5"])
def test_perft_through_the_step_api(fen: str, counts: list[int]) -> None:
    game, kernel = _kernel()
    st = kernel.encode(game.from_text(fen_to_text(fen)))
    assert [perft(kernel, st, d) for d in range(1, len(counts) + 1)] == counts


@pytest.mark.parametrize(("fen", "counts"), [
    (START, [1, 20, 400, 8902, 197281]),
    (KIWIPETE, [1, 48, 2039, 97862]),
], ids=["start", "kiwipete"])
def test_native_perft(fen: str, counts: list[int]) -> None:
    game, kernel = _kernel()
    st = kernel.encode(game.from_text(fen_to_text(fen)))
    before = st.copy()
    assert [kernel.perft(st, d) for d in range(len(counts))] == counts
    assert (st == before).all()


@pytest.mark.slow
def test_native_perft_deeper() -> None:
    game, kernel = _kernel()
    st = kernel.encode(game.from_text(fen_to_text(POSITION_3)))
    assert kernel.perft(st, 5) == 674624
    st = kernel.encode(game.from_text(fen_to_text(POSITION_5)))
    assert kernel.perft(st, 3) == 62379


def _differences(path: Path, seeds: range, **options: Any) -> list[str]:
    from interpreter.kernel.differential import first_difference

    game, kernel = _kernel(path, **options)
    return [d for s in seeds if (d := first_difference(game, kernel, s)) is not None]


@pytest.mark.parametrize("path", [CHESS, LOS_ALAMOS], ids=lambda p: p.name)
def test_kernel_plays_the_interpreters_games(path: Path) -> None:
    assert _differences(path, range(12)) == []


@pytest.mark.slow
@pytest.mark.parametrize("path", [CHESS, LOS_ALAMOS], ids=lambda p: p.name)
def test_kernel_plays_the_interpreters_games_many(path: Path) -> None:
    assert _differences(path, range(100, 400)) == []


@pytest.mark.slow
@pytest.mark.parametrize("back", ["BBQNNRKR", "RKRBBQNN", "NRKBBNRQ"])
def test_chess960_in_a_kernel(back: str) -> None:
    assert _differences(CHESS, range(40), back=back) == []


def _line(game: Any, kernel: Any, text: str, moves: list[str]) -> tuple[Any, Any]:
    """The position after `moves` from `text`, in the interpreter and in the kernel."""
    state = game.from_text(text)
    st = kernel.encode(state)
    for m in moves:
        action = game.actions.encode(next(x for x in state.legal_moves() if str(x) == m))
        state = state.apply_action(action)
        kernel.apply(st, action)
    return state, st


@pytest.mark.parametrize(("fen", "moves", "reason"), [
    (START, ["g1-f3", "g8-f6", "f3-g1", "f6-g8", "g1-f3", "g8-f6", "f3-g1", "f6-g8"],
     "threefold repetition"),
    (START, ["f2-f3", "e7-e5", "g2-g4", "d8-h4"], "checkmate"),
    ("7k/4Q3/6K1/8/8/8/8/8 w - - 0 1", ["e7-f7"], "stalemate"),
    ("8/8/4k3/8/8/3K4/4r3/8 w - - 0 1", ["d3-e2"], "insufficient material"),
    ("8/8/4k3/8/8/3K4/8/R7 w - - 99 80", ["a1-a2"], "the fifty-move rule"),
], ids=["repetition", "checkmate", "stalemate", "insufficient", "fifty moves"])
def test_end_conditions_as_the_interpreter(fen: str, moves: list[str], reason: str) -> None:
    game, kernel = _kernel()
    state, st = _line(game, kernel, fen_to_text(fen), moves)
    assert state.reason == reason
    assert kernel.result(st) == state.result
    assert kernel.reason(st) == reason


def test_castling_rights_make_positions_differ() -> None:
    """The kings going out and back lose castling: the start's board then is not the start's
    situation. The kings' first steps out already lost every right (the board after them
    is then seen three times by the tenth move), the start's board after them only twice."""
    game, kernel = _kernel()
    text = fen_to_text("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    moves = ["e1-f1", "e8-f8", "f1-e1", "f8-e8"] * 2
    state, st = _line(game, kernel, text, moves)
    assert state.result is None and kernel.result(st) is None
    state, st = _line(game, kernel, text, [*moves, "e1-f1", "e8-f8"])
    assert state.reason == kernel.reason(st) == "threefold repetition"


@pytest.mark.parametrize("fen", [  # Black's rook on a8 may move only when not in check
    "r3k3/8/4K3/8/8/8/8/8 b - - 0 1",  # the king two squares off: no attack along the file
    "r3k3/8/4Q3/8/8/8/8/K7 b - - 0 1",  # a queen there: check
    "r3k3/8/8/8/8/8/8/K3R3 b - - 0 1",  # a rook far off on the file: check
    "r3k3/3P4/8/8/8/8/8/K7 b - - 0 1",  # a pawn takes diagonally forward: check
    "r3k3/8/3P4/8/8/8/8/K7 b - - 0 1",  # two rows off: not
    "r3k3/8/2B5/8/8/8/8/K7 b - - 0 1",  # a bishop two squares off on the diagonal: check
], ids=["king", "queen", "rook", "pawn", "pawn-far", "bishop"])
def test_attacks_along_shared_lines(fen: str) -> None:
    """A kernel looks along each line once for every piece that could attack along it (a
    king's step and a queen's slide on the same file), each as far as it reaches: the
    moves left to the king are the interpreter's."""
    game, kernel = _kernel()
    state = game.from_text(fen_to_text(fen))
    assert kernel.legal_actions(kernel.encode(state)) == sorted(state.legal_actions())
    rook = {str(m) for m in state.legal_moves() if str(m).startswith("a8")}
    assert bool(rook) == (fen.startswith("r3k3/8/4K3") or "3P4" in fen.split("/")[2])
