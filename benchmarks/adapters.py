"""Random playouts per second through the OpenSpiel adapter, against OpenSpiel's own C++ Hex.

    python benchmarks/adapters.py [--seconds S] [--size N] [--runs R] [--seed N]

Both games are played by the same Python loop, the one an OpenSpiel user writes:

    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))

once with `interpreter.openspiel.load("games/hex.game", size=N)` (the interpreter behind
pyspiel's Python-game bridge) and once with `pyspiel.load_game("hex", {"board_size": N})`
(OpenSpiel's C++ Hex; 11 x 11 is the default of both). A third column plays the same loop on
ludeme's own states (`state.legal_actions()`, `state.apply_action(a)`), without OpenSpiel, to
show what the bridge costs. Short runs of the three are taken in turn and each rate is the
median of its runs, so that a machine busy for a while slows every side alike; the ratio is
the median of the per-run ratios (adapter / C++). The result is a Markdown table on stdout.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # runnable from a checkout without installing
    sys.path.insert(0, str(ROOT))

from benchmarks.common import action_playout, format_rate, rate, spiel_playout  # noqa: E402
from interpreter import load_game  # noqa: E402

HEX = ROOT / "games" / "hex.game"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Random playouts per second through the OpenSpiel "
                                "adapter (Hex) against OpenSpiel's C++ Hex.")
    p.add_argument("--seconds", type=float, default=30.0,
                   help="total measuring time (default 30)")
    p.add_argument("--size", type=int, default=11, help="Hex board size (default 11)")
    p.add_argument("--runs", type=int, default=10,
                   help="runs of each side, taken in turn (default 10)")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    if args.seconds <= 0 or args.runs < 1 or not 2 <= args.size <= 26:
        p.error("--seconds must be positive, --runs at least 1, --size from 2 to 26")
    try:
        import pyspiel

        from interpreter.openspiel import load
    except ImportError:
        print("OpenSpiel is not installed: pip install -e '.[openspiel]'", file=sys.stderr)
        return 1
    adapter = load(HEX, size=args.size, pie=False)
    native = pyspiel.load_game("hex", {"board_size": args.size})
    ludeme = load_game(HEX, size=args.size, pie=False)
    share = args.seconds / (3 * args.runs)
    rates: dict[str, list[float]] = {"native": [], "adapter": [], "ludeme": []}
    lengths: list[int] = []
    for r in range(args.runs):
        seed = args.seed + r
        native_rate, _ = rate(spiel_playout, native, share, seed)
        adapter_rate, played = rate(spiel_playout, adapter, share, seed)
        ludeme_rate, _ = rate(action_playout, ludeme, share, seed)
        rates["native"].append(native_rate)
        rates["adapter"].append(adapter_rate)
        rates["ludeme"].append(ludeme_rate)
        lengths += played
    ratio = statistics.median(a / n for a, n in zip(rates["adapter"], rates["native"],
                                                    strict=True))
    print("| game | avg plies | OpenSpiel C++ playouts/s | through the adapter | ratio | "
          "ludeme actions, no OpenSpiel |")
    print("|------|----------:|-------------------------:|--------------------:|------:|"
          "-----------------------------:|")
    print(f"| Hex {args.size}x{args.size} | {sum(lengths) / len(lengths):.1f} | "
          f"{format_rate(statistics.median(rates['native']))} | "
          f"{format_rate(statistics.median(rates['adapter']))} | {ratio:.3f} | "
          f"{format_rate(statistics.median(rates['ludeme']))} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
