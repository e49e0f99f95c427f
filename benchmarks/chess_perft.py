"""Chess perft: nodes per second of games/chess.game against python-chess, and where the time
goes.

    python benchmarks/chess_perft.py [--depth D] [--positions NAME,...] [--runs R]
                                     [--profile-depth D] [--top N]

Perft counts the move sequences of length D from a position (the leaves); nodes per second
here is that count over the time taken. The same perft is run four ways:

- public: the loop a user writes, `len(state.legal_moves())` at depth 1 and otherwise
  `state.play(m)` for each `m` in `state.legal_moves()`;
- in place: as search walks a game tree, one position of its own on which each move is made
  and unmade (`game.make(state, m)` / `game.unmake(state, made)`), like python-chess's
  `push`/`pop` (the table calls it the fast path);
- python-chess: `board.legal_moves` with `push`/`pop`, counting the last ply with
  `board.legal_moves.count()` (ludeme counts its last ply with `len` likewise);
- kernel: the game's kernel (interpreter/kernel, with numba) counting natively,
  `Kernel.perft` (its compile, or load from the disk cache, is not timed).

Each time is the best of `--runs` runs, the three ways taken in turn. The positions are those
of chessprogramming.org's "Perft Results" page (`start`, `kiwipete`, `position3` to
`position6`); every count is checked against the page. The result is a Markdown table on
stdout, with the ratio python-chess / ludeme, followed by a second table: cProfile's top
functions by cumulative time for the public perft to `--profile-depth` from the start
position (`--top 0` leaves it out).

python-chess (`pip install -e '.[bench]'`) is needed for its column; without it the column
says `-` and the script says so on stderr.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # runnable from a checkout without installing
    sys.path.insert(0, str(ROOT))

from interpreter import load_game  # noqa: E402
from interpreter.game import Game, State  # noqa: E402
from interpreter.progress import progress_bar, terminal  # noqa: E402

CHESS = ROOT / "games" / "chess.game"

# FEN and the published perft counts at depth 1, 2, 3, 4.
POSITIONS: dict[str, tuple[str, tuple[int, ...]]] = {
    "start": ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
              (20, 400, 8902, 197281)),
    "kiwipete": ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                 (48, 2039, 97862, 4085603)),
    "position3": ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", (14, 191, 2812, 43238)),
    "position4": ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
                  (6, 264, 9467, 422333)),
    "position5": ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
                  (44, 1486, 62379, 2103487)),
    "position6": ("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
                  (46, 2079, 89890, 3894594)),
}


def fen_to_text(fen: str) -> str:
    """A FEN as ludeme's position text (contract: "Position text", chess)."""
    placement, side, castling, en_passant, halfmove, fullmove = fen.split()
    rows = []
    for rank in placement.split("/"):
        cells: list[str] = []
        for ch in rank:
            cells += ["."] * int(ch) if ch.isdigit() else [ch]
        rows.append(" ".join(cells))
    keys = [f"mover: {'White' if side == 'w' else 'Black'}", f"castling: {castling}",
            f"en passant: {en_passant}", f"halfmove: {halfmove}", f"fullmove: {fullmove}"]
    return "\n".join(rows + keys) + "\n"


def public_perft(state: State, depth: int) -> int:
    legal = state.legal_moves()
    if depth == 1:
        return len(legal)
    total = 0
    for m in legal:
        total += public_perft(state.play(m), depth - 1)
    return total


def fast_perft(game: Game, state: State, depth: int) -> int:
    """Perft in place: one position of its own, each move made and unmade on it."""
    return _in_place(game, game._successor(state), depth)


def _in_place(game: Game, state: State, depth: int) -> int:
    moves = state._moves if state._moves is not None else game.generate(state)
    if depth == 1:
        return len(moves)
    total = 0
    for m in moves:
        made = game.make(state, m)
        total += _in_place(game, state, depth - 1)
        game.unmake(state, made)
    return total


def chess_perft(board: Any, depth: int) -> int:
    if depth == 1:
        return int(board.legal_moves.count())
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += chess_perft(board, depth - 1)
        board.pop()
    return total


@dataclass
class Row:
    position: str
    depth: int
    nodes: int
    public: float  # nodes per second
    fast: float
    python_chess: float | None
    kernel: float | None = None


def timed(expected: int, what: str, run: Callable[..., int], *args: Any) -> float:
    """The seconds `run(*args)` takes; it must count `expected` nodes."""
    start = time.perf_counter()
    nodes = run(*args)
    elapsed = time.perf_counter() - start
    if nodes != expected:
        raise SystemExit(f"{what}: perft gave {nodes}, the published count is {expected}")
    return elapsed


def measure(names: list[str], depth: int, runs: int, chess: Any) -> list[Row]:
    game = load_game(CHESS)
    from interpreter.kernel import kernel_for

    kernel = kernel_for(game)  # compiled (or loaded) before any timing
    if kernel is not None:
        kernel.perft(kernel.start, 1)  # (its native perft too)
    rows = []
    with progress_bar(len(names) * runs, "runs", terminal()) as advance:
        for name in names:
            rows.append(measure_one(game, name, depth, runs, chess, advance))
    return rows


def measure_one(game: Game, name: str, depth: int, runs: int, chess: Any,
                advance: Callable[[int], None]) -> Row:
    """Perft of one position at `depth`, `runs` times each way (the best run counts)."""
    fen, counts = POSITIONS[name]
    expected = counts[depth - 1]
    times: dict[str, list[float]] = {"public": [], "fast": [], "python-chess": [],
                                     "kernel": []}
    from interpreter.kernel import kernel_for

    kernel = kernel_for(game)
    for _ in range(runs):
        # A fresh state each time: a State keeps its legal moves once asked.
        fresh = game.from_text(fen_to_text(fen))
        times["public"].append(timed(expected, f"{name} public", public_perft, fresh,
                                     depth))
        fresh = game.from_text(fen_to_text(fen))
        times["fast"].append(timed(expected, f"{name} fast path", fast_perft, game, fresh,
                                   depth))
        if chess is not None:
            times["python-chess"].append(timed(expected, f"{name} python-chess",
                                               chess_perft, chess.Board(fen), depth))
        if kernel is not None:
            st = kernel.encode(game.from_text(fen_to_text(fen)))
            times["kernel"].append(timed(expected, f"{name} kernel", kernel.perft, st, depth))
        advance(1)
    ref = expected / min(times["python-chess"]) if times["python-chess"] else None
    native = expected / min(times["kernel"]) if times["kernel"] else None
    return Row(name, depth, expected, expected / min(times["public"]),
               expected / min(times["fast"]), ref, native)


def number(x: float) -> str:
    return f"{x:,.0f}"


def table(rows: list[Row]) -> str:
    lines = ["| position | depth | nodes | public nodes/s | fast path nodes/s "
             "| python-chess nodes/s | python-chess / public | python-chess / fast path "
             "| kernel nodes/s | kernel / python-chess |",
             "|----------|------:|------:|---------------:|------------------:"
             "|---------------------:|----------------------:|-------------------------:"
             "|---------------:|----------------------:|"]
    for r in rows:
        ref = number(r.python_chess) if r.python_chess else "-"
        ratio_public = f"{r.python_chess / r.public:.1f}" if r.python_chess else "-"
        ratio_fast = f"{r.python_chess / r.fast:.1f}" if r.python_chess else "-"
        native = number(r.kernel) if r.kernel else "-"
        ratio_kernel = f"{r.kernel / r.python_chess:.2f}" if r.kernel and r.python_chess \
            else "-"
        lines.append(f"| {r.position} | {r.depth} | {number(r.nodes)} | {number(r.public)} "
                     f"| {number(r.fast)} | {ref} | {ratio_public} | {ratio_fast} "
                     f"| {native} | {ratio_kernel} |")
    return "\n".join(lines)


def where(key: tuple[str, int, str]) -> str:
    """A profiled function as `path:line(name)`, the path relative to the checkout."""
    filename, line, name = key
    path = Path(filename)
    try:
        filename = str(path.resolve().relative_to(ROOT))
    except (ValueError, OSError):
        filename = path.name or filename
    return f"{filename}:{line}({name})" if line else name


def profile(depth: int, top: int) -> str:
    """cProfile's `top` functions by cumulative time, for the public perft from the start."""
    game = load_game(CHESS)
    state = game.from_text(fen_to_text(POSITIONS["start"][0]))
    profiler = cProfile.Profile()
    profiler.enable()
    nodes = public_perft(state, depth)
    profiler.disable()
    stats = pstats.Stats(profiler)
    entries = stats.stats  # type: ignore[attr-defined]
    total = stats.total_tt  # type: ignore[attr-defined]
    ranked = sorted(entries.items(), key=lambda item: item[1][3], reverse=True)
    lines = [f"Profile of the public perft({depth}) from the start ({nodes:,} nodes, "
             f"{total:.2f} s under the profiler), top {top} by cumulative time:", "",
             "| function | calls | own s | cumulative s | cumulative % |",
             "|----------|------:|------:|-------------:|-------------:|"]
    shown = 0
    for key, (_, calls, own, cumulative, _) in ranked:
        if key[0] == "~" and key[2].startswith("<built-in method builtins.exec"):
            continue
        if key[2] == "public_perft":  # the benchmark's own loop
            continue
        lines.append(f"| `{where(key)}` | {calls:,} | {own:.3f} | {cumulative:.3f} "
                     f"| {100 * cumulative / total:.0f} |")
        shown += 1
        if shown == top:
            break
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--depth", type=int, default=3, choices=(1, 2, 3, 4))
    parser.add_argument("--positions", default="start,kiwipete",
                        help=f"comma-separated, of {', '.join(POSITIONS)}")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--profile-depth", type=int, default=3, choices=(1, 2, 3, 4))
    parser.add_argument("--top", type=int, default=15)
    args = parser.parse_args(argv)
    names = [n.strip() for n in args.positions.split(",") if n.strip()]
    unknown = [n for n in names if n not in POSITIONS]
    if unknown or not names:
        print(f"unknown position {', '.join(unknown) or '(none given)'}: choose from "
              f"{', '.join(POSITIONS)}", file=sys.stderr)
        return 1
    chess: Any
    try:
        import chess
    except ImportError:
        chess = None
        print("python-chess is not installed (pip install -e '.[bench]'): its column is left "
              "empty", file=sys.stderr)
    print(table(measure(names, args.depth, max(1, args.runs), chess)))
    if args.top > 0:
        print()
        print(profile(args.profile_depth, args.top))
    return 0


if __name__ == "__main__":
    sys.exit(main())
