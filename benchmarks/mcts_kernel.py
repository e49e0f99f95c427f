"""MCTS in a game's kernel against MCTS in the interpreter (issue 26, item 6).

    python benchmarks/mcts_kernel.py [--seconds S] [--games N] [--move-seconds T] [--seed N]
                                     [--against interpreted,kernel-tree] [--only NAME,...]

Two tables, Markdown on stdout:

1. Iterations per second of `mcts` from the start position of each game (Tic-Tac-Toe,
   Connect Four, Hex 9x9, Gomoku, Chess, Go 9x9; those without a kernel are listed as such),
   three ways: the whole search native in the kernel (`MCTSAgent(kernel=True)`, the default,
   interpreter/kernel/search.py), the search's tree in Python over kernel states with the
   random games native (`native=False`, the kernel agent before the native search), and
   interpreted (`kernel=False`); each searching for `--seconds` (default 3) at a time, the
   median of three searches.
2. The native MCTS (as the REPL's `mcts:5s` plays: its tree kept between moves) against
   the interpreted MCTS, the agent before the kernels (issue 26: "today's agent"), at equal
   time per move (`--move-seconds`, default 0.2) on Connect Four and Hex 9x9: `--games`
   games (default 20), the two taking each side in turn; the native agent's wins, draws,
   losses, its score (a draw is half a win) with its 95% Wilson interval, and the mean
   iterations per move of each side. `--against kernel-tree` (or both, comma-separated)
   plays it against the Python tree over kernel states instead (`native=False`), which
   has the native random games and so many more iterations than the interpreter.

`--only` keeps the games whose label contains one of the names (case-insensitive).
A benchmark, not a test: the numbers depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # runnable from a checkout without installing
    sys.path.insert(0, str(ROOT))

from benchmarks.common import markdown_table  # noqa: E402
from interpreter import load_game  # noqa: E402
from interpreter.agents import MCTSAgent  # noqa: E402
from interpreter.analyze import wilson  # noqa: E402
from interpreter.game import Game  # noqa: E402
from interpreter.kernel import kernel_for, why_interpreted  # noqa: E402

# (file, options, label): the games of the issue; those without a kernel are listed as such.
Spec = tuple[str, dict[str, object], str]
GAMES: list[Spec] = [("tictactoe.game", {}, "Tic-Tac-Toe"),
                     ("connectfour.game", {}, "Connect Four"),
                     ("hex.game", {"size": 9}, "Hex 9x9"), ("gomoku.game", {}, "Gomoku"),
                     ("chess.game", {}, "Chess"), ("go.game", {"size": 9}, "Go 9x9")]
# The three searches: (label, MCTSAgent's keywords).
WAYS: list[tuple[str, dict[str, bool]]] = [
    ("native", {"kernel": True}), ("kernel tree", {"kernel": True, "native": False}),
    ("interpreted", {"kernel": False})]
DUELS: list[Spec] = [("connectfour.game", {}, "Connect Four"), ("hex.game", {"size": 9}, "Hex 9x9")]
# The opponents of the duels: (label, MCTSAgent's keywords).
OPPONENTS: dict[str, dict[str, bool]] = {"interpreted": {"kernel": False},
                                         "kernel-tree": {"kernel": True, "native": False}}


@dataclass
class Duel:
    """The native agent's results in a duel, and each side's iterations per move."""

    won: int = 0
    drawn: int = 0
    lost: int = 0
    native: list[int] = field(default_factory=list)
    other: list[int] = field(default_factory=list)

    @property
    def games(self) -> int:
        return self.won + self.drawn + self.lost

    def row(self, label: str, against: str) -> list[str]:
        score = self.won + self.drawn / 2
        low, high = wilson(score, self.games)  # type: ignore[arg-type]
        return [label, against, str(self.games), str(self.won), str(self.drawn), str(self.lost),
                f"{score / self.games:.0%}", f"{low:.0%}–{high:.0%}",
                f"{statistics.mean(self.native):,.0f}", f"{statistics.mean(self.other):,.0f}"]


def why(game: Game) -> str:
    """Why the game has no kernel, its file named from the checkout."""
    return f"no kernel: {why_interpreted(game)}".replace(f"{ROOT}/", "")


def load(name: str, options: dict[str, object]) -> Game:
    return load_game(ROOT / "games" / name, **options)


def rate(game: Game, way: dict[str, bool], seconds: float, seed: int) -> float:
    """Median iterations per second of a search from the start, over three searches."""
    rates = []
    for i in range(3):
        agent = MCTSAgent(None, seconds, seed=seed + i, **way)
        agent.choose(game.initial_state())
        assert agent.report is not None
        rates.append(agent.report.iterations / agent.report.seconds)
    return statistics.median(rates)


def duel(game: Game, games: int, move_seconds: float, seed: int,
         against: dict[str, bool]) -> Duel:
    """Native MCTS against MCTS searching the `against` way, sides alternating."""
    out = Duel()
    for i in range(games):
        side = i % 2  # the native agent's role
        agents = [MCTSAgent(None, move_seconds, seed=seed + 2 * i + 1, **against)
                  for _ in range(2)]
        agents[side] = MCTSAgent(None, move_seconds, seed=seed + 2 * i, kernel=True)
        state = game.initial_state()
        while not state.is_over and state.legal_moves():
            agent = agents[state.to_move]
            state = state.play(agent.choose(state))
            assert agent.report is not None
            (out.native if agent is agents[side] else out.other).append(agent.report.iterations)
        if state.winner is None:
            out.drawn += 1
        elif game.players.index(state.winner) == side:
            out.won += 1
        else:
            out.lost += 1
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--move-seconds", type=float, default=0.2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--against", default="interpreted",
                        help="the duels' opponents, comma-separated: " + ", ".join(OPPONENTS))
    parser.add_argument("--only", default="", help="comma-separated parts of game labels")
    args = parser.parse_args(argv)
    only = [w.strip().lower() for w in args.only.split(",") if w.strip()]
    opponents = [w.strip() for w in args.against.split(",") if w.strip()]
    if any(w not in OPPONENTS for w in opponents):
        parser.error(f"--against: one of {', '.join(OPPONENTS)}, not {args.against!r}")

    def chosen(specs: list[Spec]) -> list[Spec]:
        return [s for s in specs if not only or any(w in s[2].lower() for w in only)]

    body = []
    for name, options, label in chosen(GAMES):
        game = load(name, options)
        if kernel_for(game) is None:
            body.append([label, "interpreted", "", "", "", "", why(game)])
            continue
        rates = [rate(game, way, args.seconds, args.seed) for _, way in WAYS]
        body.append([label, *(f"{r:,.1f}" if r < 100 else f"{r:,.0f}" for r in rates),
                     f"{rates[0] / rates[1]:.1f}x", f"{rates[0] / rates[2]:.0f}x", ""])
    print("MCTS iterations per second from the start position "
          f"({args.seconds:g} s searches, median of 3):\n")
    print(markdown_table(["game", *(label for label, _ in WAYS), "native / kernel tree",
                          "native / interpreted", "note"], body))

    if not chosen(DUELS):
        return 0
    body = []
    for name, options, label in chosen(DUELS):
        game = load(name, options)
        if kernel_for(game) is None:
            body.append([label, "", "", "", "", "", "", "", "", "", why(game)])
            continue
        for against in opponents:
            result = duel(game, args.games, args.move_seconds, args.seed, OPPONENTS[against])
            body.append([*result.row(label, against), ""])
    print(f"\nNative MCTS against {' and '.join(opponents)} MCTS, {args.move_seconds:g} s a "
          "move each, sides alternating (score: a draw is half a win; its 95% Wilson "
          "interval; the mean iterations per move of each side):\n")
    print(markdown_table(["game", "opponent", "games", "native wins", "draws", "losses",
                          "native score", "95% interval", "native its/move",
                          "opponent its/move", "note"], body))
    return 0


if __name__ == "__main__":
    sys.exit(main())
