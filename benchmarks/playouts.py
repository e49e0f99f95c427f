"""Random playouts per second for every game, and the time to load each game file.

    python benchmarks/playouts.py [--seconds S] [--games GLOB] [--runs R] [--seed N]

For each game file (default options) it measures random games played two ways:

- public: the loop a user writes with the public API,
  `state = state.play(random.choice(state.legal_moves()))`;
- fast path: `game.playout(rng)`, the interpreter's own loop;
- kernel: where the game has a kernel (interpreter/kernel, the `kernels` extra), its random
  games in native code, as `game.playouts` plays them (benchmarks/kernels.py); "interpreted"
  where it has none.

Both stop at the same bound as `game.playout` (20 moves per site) when a game does not end.
Each rate is the median of `--runs` short runs. `load ms` is the median time of `load_game`
(read, parse, expand, check, compile). The result is a Markdown table on stdout.

A second table compares the interpreter with hand-written programs of the same rules
(`benchmarks/reference/`: Hex 11x11 and Mincut 8x8), measured in the same run: short runs of
the hand-written program and of the fast path taken in turn (four pairs per `--runs`), the
ratio being the median of the per-pair ratios (fast path / hand-written), so that a machine
busy for a while slows both sides of a pair rather than one side of the comparison.

`--seconds` is the measuring time for the first table (default 40, so a run of the default
games stays under a minute); it is shared equally among the games and the two ways, and each
game with a hand-written program takes its share again for the comparison. Every run plays at
least one game, so a very slow game can take longer than its share.
"""

from __future__ import annotations

import argparse
import glob
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # runnable from a checkout without installing
    sys.path.insert(0, str(ROOT))

from benchmarks.common import (  # noqa: E402
    fast_playout,
    format_rate,
    markdown_table,
    public_playout,
)
from benchmarks.kernels import kernel_rate  # noqa: E402
from benchmarks.reference import hex as hex_reference  # noqa: E402
from benchmarks.reference import mincut as mincut_reference  # noqa: E402
from interpreter import load_game  # noqa: E402
from interpreter.game import Game  # noqa: E402
from interpreter.progress import progress_bar, terminal  # noqa: E402

# Hand-written programs of the same rules as a game file, at the file's default size.
REFERENCES: dict[str, tuple[Callable[[int, random.Random], tuple[int, int]], int]] = {
    "hex.game": (hex_reference.playout, 11),
    "mincut.game": (mincut_reference.playout, 8),
}


@dataclass
class Row:
    name: str
    path: str
    sites: int
    avg_plies: float
    public_rate: float
    fast_rate: float
    load_ms: float
    kernel_rate: float | None = None  # None: no kernel


def measure(play: Callable[[Game, random.Random, int], int], game: Game, seconds: float,
            runs: int, seed: int) -> tuple[float, list[int]]:
    """The median playouts per second over `runs` runs of about `seconds / runs` each, and the
    length of every game played."""
    bound = 20 * len(game.sites) if isinstance(game, Game) else 0
    budget = seconds / runs
    rates: list[float] = []
    lengths: list[int] = []
    for r in range(runs):
        rng = random.Random(seed + r)
        count = 0
        start = time.perf_counter()
        while True:
            lengths.append(play(game, rng, bound))
            count += 1
            elapsed = time.perf_counter() - start
            if elapsed >= budget:
                break
        rates.append(count / elapsed)
    return statistics.median(rates), lengths


def load_time_ms(path: str, repeats: int = 5) -> tuple[Game, float]:
    times = []
    game = None
    for _ in range(repeats):
        start = time.perf_counter()
        game = load_game(path)
        times.append((time.perf_counter() - start) * 1000)
    assert game is not None
    return game, statistics.median(times)


def benchmark(paths: list[str], seconds: float, runs: int, seed: int) -> list[Row]:
    share = seconds / (2 * len(paths)) if paths else 0.0
    rows = []
    with progress_bar(len(paths), "games", terminal()) as advance:
        for path in paths:
            game, load_ms = load_time_ms(path)
            public_rate, public_lengths = measure(public_playout, game, share, runs, seed)
            fast_rate, fast_lengths = measure(fast_playout, game, share, runs, seed)
            lengths = public_lengths + fast_lengths
            native = None
            if kernel_rate(game, 0.0, seed) is not None:  # (loaded, compiled if need be)
                rates = [kernel_rate(game, share / runs, seed + r) for r in range(runs)]
                native = statistics.median(r[0] for r in rates if r is not None)
            rows.append(Row(game.name, path, len(game.sites), sum(lengths) / len(lengths),
                            public_rate, fast_rate, load_ms, native))
            advance(1)
    return rows


# The comparison takes its time in this many more, shorter, pairs than --runs.
PAIRS_PER_RUN = 4


def reference_playout(name: str, rng: random.Random, _: int) -> int:
    """One random game of the hand-written program for the game file `name`."""
    play, size = REFERENCES[name]
    return play(size, rng)[1]


def comparison(rows: list[Row], seconds: float, runs: int, seed: int) -> str:
    """Interpreted against hand-written, for the games that have a reference program: short
    runs of the two taken in turn, so that both see the same machine, and the median of the
    per-pair ratios (a machine that slows down for a while slows both sides of a pair)."""
    lines = ["| game | hand-written playouts/s | interpreted (fast path) | ratio |",
             "|------|------------------------:|------------------------:|------:|"]
    for row in rows:
        if Path(row.path).name not in REFERENCES:
            continue
        game = load_game(row.path)
        ref_rates, fast_rates, ratios = [], [], []
        pairs = PAIRS_PER_RUN * runs  # short pairs: less time for the machine to change
        for r in range(pairs):
            ref, _ = measure(reference_playout, Path(row.path).name,  # type: ignore[arg-type]
                             seconds / (2 * pairs), 1, seed + r)
            fast, _ = measure(fast_playout, game, seconds / (2 * pairs), 1, seed + r)
            ref_rates.append(ref)
            fast_rates.append(fast)
            ratios.append(fast / ref)
        lines.append(f"| {row.name} | {format_rate(statistics.median(ref_rates))} | "
                     f"{format_rate(statistics.median(fast_rates))} | "
                     f"{statistics.median(ratios):.2f} |")
    return "\n".join(lines) if len(lines) > 2 else ""


def table(rows: list[Row]) -> str:
    head = ["game", "sites", "avg plies", "playouts/s public", "playouts/s fast path",
            "playouts/s kernel", "load ms"]
    body = [[r.name, str(r.sites), f"{r.avg_plies:.1f}", format_rate(r.public_rate),
             format_rate(r.fast_rate),
             "interpreted" if r.kernel_rate is None else format_rate(r.kernel_rate),
             f"{r.load_ms:.1f}"] for r in rows]
    return markdown_table(head, body)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Random playouts per second for every game.")
    p.add_argument("--seconds", type=float, default=40.0,
                   help="total measuring time, shared among the games (default 40)")
    p.add_argument("--games", default=str(ROOT / "games" / "*.game"),
                   help="a glob of game files (default: games/*.game)")
    p.add_argument("--runs", type=int, default=5, help="runs per measurement; the median "
                   "is reported (default 5)")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    if args.seconds <= 0 or args.runs < 1:
        p.error("--seconds must be positive and --runs at least 1")
    paths = sorted(glob.glob(args.games))
    if not paths:
        print(f"no game files match {args.games}", file=sys.stderr)
        return 1
    rows = benchmark(paths, args.seconds, args.runs, args.seed)
    print(table(rows))
    versus = comparison(rows, args.seconds / len(paths), args.runs, args.seed)
    if versus:
        print()
        print(versus)
    return 0


if __name__ == "__main__":
    sys.exit(main())
