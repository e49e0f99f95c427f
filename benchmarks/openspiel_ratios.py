"""Random playouts per second of every ludeme game that OpenSpiel also has, against OpenSpiel's
C++ game, side by side in one process.

    python benchmarks/openspiel_ratios.py [--seconds S] [--games NAME,...] [--runs R]
                                          [--seed N] [--markdown]

Each game file is loaded with the options that make its rules and board OpenSpiel's (the same
choices as the tests/test_oracle_*.py comparisons), and OpenSpiel's game with the parameters
that match them. Four loops play random games, every legal move equally likely:

- OpenSpiel: `state.apply_action(rng.choice(state.legal_actions()))` until
  `state.is_terminal()`, on OpenSpiel's C++ game;
- public: `state = state.play(rng.choice(state.legal_moves()))` until `state.is_over`;
- fast path: `game.playout(rng)`, the interpreter's own loop;
- adapter: ludeme's integer actions, `state = state.apply_action(rng.choice(
  state.legal_actions()))`, the loop an OpenSpiel user writes (interpreter/actions.py);
- kernel, where the game has one (interpreter/kernel: its rules compiled by numba, the
  `kernels` extra): random games in native code, `game.playouts` in batches
  (benchmarks/kernels.py). A game without one says "interpreted", and a note says which
  form kept it there.

The ludeme loops stop at `game.playout`'s bound, 20 moves per site, when a game does not end.
For each game the four are measured in `--runs` rounds of short runs taken in turn (the order
rotating from round to round), so that a machine busy for a while slows every side alike;
each rate is the median of its runs and each ratio (ours / OpenSpiel's, above 1 means ludeme
is faster) the median of the per-round ratios. `--seconds` is the measuring time, shared
equally among the games and the four loops; every run plays at least one game, so a slow game
can take longer than its share.

The result is a table and its notes: where the rules could not be matched, where the two
engines' games differ in length (different rules, or a bound), and the geometric mean of each
ratio column. `--markdown` prints them as Markdown. `--compile-times` adds a column: the
seconds `kernel_for` takes to compile the game's kernel in a fresh process with an empty cache
(cold), then again from that cache (cached).
"""

from __future__ import annotations

import argparse
import math
import platform
import statistics
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # runnable from a checkout without installing
    sys.path.insert(0, str(ROOT))

from benchmarks.common import (  # noqa: E402
    action_playout,
    fast_playout,
    format_rate,
    markdown_table,
    public_playout,
    rate,
    spiel_playout,
)
from benchmarks.kernels import compile_seconds, kernel_rate, why  # noqa: E402
from interpreter import load_game  # noqa: E402
from interpreter.game import Game  # noqa: E402
from interpreter.progress import progress_bar, terminal  # noqa: E402

GAMES = ROOT / "games"


@dataclass(frozen=True)
class Pair:
    """A ludeme game file with options, and the OpenSpiel game with parameters of the same
    rules and board."""

    name: str  # what --games takes
    file: str  # in games/
    options: dict[str, Any]
    spiel: str
    params: dict[str, Any]
    notes: tuple[str, ...] = ()
    # OpenSpiel ends its games after max_game_length() actions (ours, with these options, too)
    spiel_cutoff: bool = False
    # The ludeme loops' bound on moves, where a game is longer than 20 moves per site
    bound: int | None = None


PAIRS = [
    Pair("tictactoe", "tictactoe.game", {}, "tic_tac_toe", {}),
    Pair("connect_four", "connectfour.game", {}, "connect_four",
         {"rows": 6, "columns": 7, "x_in_row": 4}),
    Pair("hex", "hex.game", {"size": 11, "pie": False}, "hex",
         {"board_size": 11, "swap": False}),
    Pair("havannah", "havannah.game", {"size": 8, "pie": False}, "havannah",
         {"board_size": 8, "swap": False}),
    Pair("y", "y.game", {"size": 19, "pie": False}, "y", {"board_size": 19}),
    Pair("gomoku", "gomoku.game", {"size": 15, "overline": True}, "gomoku",
         {"size": 15, "connect": 5},
         ("overline:true, freestyle gomoku as OpenSpiel plays it (six or more in a row win); "
          "the file's default counts exactly five.",)),
    Pair("breakthrough", "breakthrough.game", {}, "breakthrough", {"rows": 8, "columns": 8},
         ("OpenSpiel has no rule for a player left with pieces but no move (ours: that player "
          "loses; its loop stops there); random games practically never reach it.",)),
    Pair("go", "go.game", {"size": 9, "komi": 7.5, "openspiel": True}, "go",
         {"board_size": 9, "komi": 7.5},
         ("openspiel:true: simple ko, a repeated position draws, and the game ends, scored, "
          "after 2 x 9 x 9 = 162 turns, OpenSpiel's max_game_length; the file's default "
          "forbids any repetition (superko) and has no turn limit.",),
         spiel_cutoff=True),
    Pair("chess", "chess.game", {}, "chess", {"chess960": False}),
    Pair("shogi", "shogi.game", {"openspiel": True}, "shogi", {},
         ("openspiel:true: OpenSpiel's entering-king rules (a king in the enemy zone wins with "
          "28 points, both kings there draw); the file's default, the published rules, has "
          "none.",)),
    Pair("checkers", "checkers.game", {"size": 8, "openspiel": True}, "checkers",
         {"rows": 8, "columns": 8},
         ("openspiel:true: 40 moves in a row without a capture draw, as in OpenSpiel.",)),
    Pair("othello", "reversi.game", {}, "othello", {}),
    Pair("amazons", "amazons.game", {"size": 10}, "amazons", {"board_size": 10},
         ("Same turns, split differently: a turn is 2 decisions in ours (move, shoot) and 3 "
          "actions in OpenSpiel (select, move, shoot), so its plies are 1.5 times ours.",)),
    Pair("clobber", "clobber.game", {"rows": 5, "columns": 6}, "clobber",
         {"rows": 5, "columns": 6}),
    Pair("dots_and_boxes", "dotsandboxes.game", {"columns": 3, "rows": 3}, "dots_and_boxes",
         {"num_rows": 3, "num_cols": 3},
         ("3 x 3 boxes, our default; OpenSpiel's default is 2 x 2.",)),
    Pair("kalah", "kalah.game", {"seeds": 4}, "mancala", {},
         ("OpenSpiel's mancala is Kalah with 4 seeds a pit and no parameters.",)),
    Pair("oware", "oware.game", {"seeds": 4, "grandslam": "no capture"}, "oware",
         {"num_houses_per_player": 6, "num_seeds_per_house": 4}),
    Pair("nine_mens_morris", "ninemensmorris.game", {"openspiel": True}, "nine_mens_morris",
         {},
         ("openspiel:true: a draw after 200 turns, OpenSpiel's rule (its max_game_length, "
          "214, also counts the captures).",)),
    Pair("maedn", "maedn.game", {}, "maedn", {"players": 2, "twoPlayersOpposite": True},
         ("Two players on opposite arms, OpenSpiel's defaults and ours (one roll a turn, "
          "jumping in the home column allowed: OpenSpiel's rules, where the published ones "
          "differ).",)),
    Pair("xiangqi", "xiangqi.game", {"openspiel": True}, "xiangqi", {},
         ("openspiel:true: no repetition rule, and a draw after 500 moves, OpenSpiel's "
          "max_game_length; the file's default loses perpetual check, draws any other third "
          "repetition and has no move limit.",),
         spiel_cutoff=True),
    Pair("backgammon", "backgammon.game", {}, "backgammon", {},
         ("Same turns, split differently: ours are a roll and a decision per die (about 300 "
          "moves a game; the loops' bound is 5000 here), OpenSpiel's a roll and an action per "
          "two dice (about 210).",), bound=5000),
    Pair("lines_of_action", "lines-of-action.game", {"openspiel": True}, "lines_of_action", {},
         ("openspiel:true: the mover wins when a move joins both sides, a player who cannot "
          "move loses, any repeated board draws and so does the 1000th move, OpenSpiel's "
          "max_game_length; the file's default, the Computer Olympiad rules, draws a double "
          "group and a third repetition and passes when stuck.",),
         spiel_cutoff=True),
    Pair("ultimate_tic_tac_toe", "ultimate-tictactoe.game", {}, "ultimate_tic_tac_toe", {},
         ("Same rules; a turn sent to a decided board is one move here (the cell), two "
          "actions in OpenSpiel (the board, then the cell).",)),
    Pair("twixt", "twixt.game", {"size": 8}, "twixt", {"board_size": 8,
                                                        "ansi_color_output": False},
         ("size:8, OpenSpiel's default board (the file's is 24). The swap is offered after "
          "any first peg here, only after one off Red's border rows in OpenSpiel; ours "
          "exchanges the players, OpenSpiel turns the peg a quarter.",)),
    Pair("quoridor", "quoridor.game", {"limit": 324}, "quoridor", {"board_size": 9},
         ("limit:324: a draw on the 4 x 9 x 9 = 324th move, OpenSpiel's rule (the file's "
          "default has none). 10 walls each in both; a wall and a pawn move are one action "
          "each.",), spiel_cutoff=True),
    Pair("chinese_checkers", "chinese-checkers.game", {"limit": 1000}, "chinese_checkers", {},
         ("limit:1000: a draw after 1000 turns, OpenSpiel's max_moves (the file's default has "
          "no limit; random games never finish the race). A hop is a decision in both.",)),
]

SIDES = ("openspiel", "public", "fast", "adapter")
OURS = SIDES[1:]
KERNEL = "kernel"  # a side of the games that have a kernel


@dataclass
class Result:
    label: str
    rates: dict[str, list[float]] = field(
        default_factory=lambda: {s: [] for s in (*SIDES, KERNEL)})
    ratios: dict[str, list[float]] = field(
        default_factory=lambda: {s: [] for s in (*OURS, KERNEL)})
    lengths: dict[str, list[int]] = field(
        default_factory=lambda: {s: [] for s in (*SIDES, KERNEL)})
    notes: list[str] = field(default_factory=list)
    compiled: tuple[float, float] | None = None  # the kernel's (cold, cached) seconds

    @property
    def native(self) -> bool:
        """Did the game run in a kernel?"""
        return bool(self.rates[KERNEL])

    def rate(self, side: str) -> float:
        return statistics.median(self.rates[side])

    def ratio(self, side: str) -> float:
        return statistics.median(self.ratios[side])

    def ours(self) -> list[int]:
        return [n for side in (*OURS, KERNEL) for n in self.lengths[side]]


def select(names: str | None) -> list[Pair]:
    """The pairs named (by our name, the game file's stem or OpenSpiel's name), or all."""
    if names is None:
        return list(PAIRS)
    chosen = []
    for name in (n.strip() for n in names.split(",") if n.strip()):
        found = [p for p in PAIRS if name in (p.name, Path(p.file).stem, p.spiel)]
        if not found:
            raise ValueError(f"no game {name!r}; the games are "
                             f"{', '.join(p.name for p in PAIRS)}")
        chosen += [p for p in found if p not in chosen]
    return chosen


def load_spiel(pyspiel: Any, pair: Pair) -> tuple[Any, list[str]]:
    """OpenSpiel's game of the pair, with the pair's parameters that this OpenSpiel knows, and
    a note for each it does not."""
    known = pyspiel.load_game(pair.spiel).get_parameters()
    params = {k: v for k, v in pair.params.items() if k in known}
    notes = [f"OpenSpiel's {pair.spiel} has no parameter {k}: its default is played, which "
             f"may not match." for k in pair.params if k not in known]
    return pyspiel.load_game(pair.spiel, params), notes


def label(name: str, spiel: str) -> str:
    """Our game's name, and OpenSpiel's where it is another ("Reversi (othello)")."""
    def letters(s: str) -> str:
        return "".join(c for c in s.lower() if c.isalnum())

    return name if letters(name) == letters(spiel) else f"{name} ({spiel})"


def measure(pair: Pair, game: Game, spiel_game: Any, seconds: float, runs: int,
            seed: int) -> Result:
    """`runs` rounds of short runs of the four loops (five with a kernel), taken in turn."""
    bound = pair.bound or 20 * len(game.sites)
    plays: dict[str, tuple[Callable[[Any, Any], int], Any]] = {
        "openspiel": (spiel_playout, spiel_game),
        "public": (partial(public_playout, bound=bound), game),
        "fast": (partial(fast_playout, bound=bound), game),
        "adapter": (partial(action_playout, bound=bound), game),
    }
    for play, subject in plays.values():  # warm up: tables built on first use, caches
        rate(play, subject, 0.0, seed)
    native = kernel_rate(game, 0.0, seed, bound) is not None  # (and loaded)
    sides = (*SIDES, KERNEL) if native else SIDES
    result = Result(label(game.name, pair.spiel))
    share = seconds / (len(sides) * runs)
    for r in range(runs):
        order = sides[r % len(sides):] + sides[:r % len(sides)]
        got = {}
        for side in order:
            if side == KERNEL:
                measured = kernel_rate(game, share, seed + r, bound)
                assert measured is not None
                got[side], lengths = measured
            else:
                play, subject = plays[side]
                got[side], lengths = rate(play, subject, share, seed + r)
            result.rates[side].append(got[side])
            result.lengths[side] += lengths
        for side in sides[1:]:
            result.ratios[side].append(got[side] / got["openspiel"])
    if not native:
        result.notes.append(f"interpreted: {why(game)}")
    result.notes += pair.notes
    result.notes += length_notes(pair, result, bound, spiel_game.max_game_length())
    return result


def length_notes(pair: Pair, result: Result, bound: int, spiel_max: int) -> list[str]:
    """What the games' lengths say: the two engines' games differ in length (beyond chance),
    ours stopped at the bound, OpenSpiel's at its own limit."""
    notes = []
    ours, theirs = result.ours(), result.lengths["openspiel"]
    mean_o, mean_t = statistics.fmean(ours), statistics.fmean(theirs)
    if len(ours) > 1 and len(theirs) > 1:
        error = math.sqrt(statistics.variance(ours) / len(ours)
                          + statistics.variance(theirs) / len(theirs))
    else:
        error = 0.0
    if abs(mean_o - mean_t) > max(0.1 * mean_t, 3 * error):
        notes.append(f"Plies differ: ours {mean_o:.1f} on average, OpenSpiel's {mean_t:.1f}.")
    stopped = sum(n >= bound for n in ours)
    if stopped:
        notes.append(f"{stopped} of our {len(ours)} games stopped at the bound of {bound} "
                     f"plies (20 a site); OpenSpiel's longest here: {max(theirs)}.")
    if pair.spiel_cutoff:
        cut = sum(n >= spiel_max for n in theirs)
        notes.append(f"{cut} of OpenSpiel's {len(theirs)} games ended at its max_game_length "
                     f"({spiel_max}).")
    return notes


def format_ratio(x: float) -> str:
    """Two significant digits (run-to-run noise is larger than the third): 0.058, 0.10, 1.5,
    12."""
    return f"{x:,.0f}" if x >= 10 else f"{x:#.2g}".rstrip(".")


HEAD = ["game", "plies (ours, avg)", "OpenSpiel playouts/s", "public playouts/s (ratio)",
        "fast path (ratio)", "adapter (ratio)", "kernel (ratio)"]
COMPILE = "kernel compile s (cold / cached)"


def rows(results: list[Result], compile_times: bool = False) -> list[list[str]]:
    body = []
    for r in results:
        row = [r.label, f"{statistics.fmean(r.ours()):.1f}", format_rate(r.rate("openspiel")),
               *(f"{format_rate(r.rate(s))} ({format_ratio(r.ratio(s))})" for s in OURS),
               f"{format_rate(r.rate(KERNEL))} ({format_ratio(r.ratio(KERNEL))})"
               if r.native else "interpreted"]
        if compile_times:
            row.append(f"{r.compiled[0]:.1f} / {r.compiled[1]:.2f}" if r.compiled else "")
        body.append(row)
    return body


def text_table(head: list[str], body: list[list[str]]) -> str:
    """The table for a terminal: columns padded, separated by two spaces."""
    widths = [max(len(h), *(len(b[i]) for b in body)) if body else len(h)
              for i, h in enumerate(head)]

    def line(cells: list[str]) -> str:
        return "  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                         for i, (c, w) in enumerate(zip(cells, widths, strict=True))).rstrip()

    return "\n".join([line(head), "  ".join("-" * w for w in widths), *map(line, body)])


def report(results: list[Result], skipped: list[str], about: str, markdown: bool,
           compile_times: bool = False) -> str:
    body = rows(results, compile_times)
    head = [*HEAD, COMPILE] if compile_times else HEAD
    out = [markdown_table(head, body) if markdown else text_table(head, body), ""]
    bullet = "- " if markdown else "  "
    out.append("Notes:" if not markdown else "Notes:\n")
    for r in results:
        out += [f"{bullet}{r.label}: {note}" for note in r.notes]
    out += [f"{bullet}{s}" for s in skipped]
    means = {s: math.exp(statistics.fmean(math.log(r.ratio(s)) for r in results))
             for s in OURS}
    out.append(f"{bullet}Geometric mean of the ratios over {len(results)} "
               f"game{'s' if len(results) > 1 else ''}: public "
               f"{format_ratio(means['public'])}, fast path {format_ratio(means['fast'])}, "
               f"adapter {format_ratio(means['adapter'])}.")
    native = [r for r in results if r.native]
    if native:
        mean = math.exp(statistics.fmean(math.log(r.ratio(KERNEL)) for r in native))
        low = min(native, key=lambda r: r.ratio(KERNEL))
        out.append(f"{bullet}Kernel: {len(native)} of the {len(results)} games run natively; "
                   f"geometric mean of their ratios {format_ratio(mean)}, lowest "
                   f"{format_ratio(low.ratio(KERNEL))} ({low.label}).")
    out.append(f"{bullet}{about}")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Random playouts per second of ludeme's games "
                                "against OpenSpiel's C++ games, side by side.")
    p.add_argument("--seconds", type=float, default=60.0,
                   help="total measuring time, shared among the games (default 60)")
    p.add_argument("--games", default=None,
                   help="comma-separated games (default: all): "
                        + ",".join(pair.name for pair in PAIRS))
    p.add_argument("--runs", type=int, default=10,
                   help="rounds of short runs of the four loops, taken in turn (default 10)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--markdown", action="store_true", help="print Markdown")
    p.add_argument("--compile-times", action="store_true",
                   help="time each kernel's compilation, cold and cached (fresh processes)")
    args = p.parse_args(argv)
    if args.seconds <= 0 or args.runs < 1:
        p.error("--seconds must be positive and --runs at least 1")
    try:
        pairs = select(args.games)
    except ValueError as e:
        p.error(str(e))
    if not pairs:
        p.error("--games names no game")
    try:
        import pyspiel
    except ImportError:
        print("OpenSpiel is not installed: pip install -e '.[openspiel]'", file=sys.stderr)
        return 1
    registered = set(pyspiel.registered_names())
    skipped = [f"{pair.name}: OpenSpiel {pyspiel.__version__} has no {pair.spiel}; not measured."
               for pair in pairs if pair.spiel not in registered]
    pairs = [pair for pair in pairs if pair.spiel in registered]
    if not pairs:
        print("\n".join(skipped), file=sys.stderr)
        return 1
    share = args.seconds / len(pairs)
    results = []
    bar = terminal()
    with progress_bar(len(pairs), "games", bar) as advance:
        for pair in pairs:
            if bar is None:  # a log where no bar is drawn
                print(f"{pair.name}: {args.runs} rounds of "
                      f"{share / len(SIDES) / args.runs:.2g} s a loop", file=sys.stderr,
                      flush=True)
            game = load_game(GAMES / pair.file, **pair.options)
            spiel_game, notes = load_spiel(pyspiel, pair)
            result = measure(pair, game, spiel_game, share, args.runs, args.seed)
            result.notes[:0] = notes
            if args.compile_times and result.native:
                result.compiled = compile_seconds(GAMES / pair.file, pair.options)
            results.append(result)
            advance(1)
    about = (f"OpenSpiel {pyspiel.__version__}, Python {platform.python_version()}; "
             f"{args.runs} rounds of about {args.seconds / len(pairs) / len(SIDES) / args.runs:.2g}"
             f" s a loop per game; a ratio is ours / OpenSpiel's, the median of the "
             f"per-round ratios (above 1: ludeme is faster).")
    print(report(results, skipped, about, args.markdown, args.compile_times))
    return 0


if __name__ == "__main__":
    sys.exit(main())
