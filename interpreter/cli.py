"""The `ludeme` command: play, validate, playout, grammar."""

from __future__ import annotations

import argparse
import random
import sys
import traceback
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from dsl.errors import GameError, RuleError
from interpreter import load_game
from interpreter.agents import Agent, make_agent
from interpreter.game import Game


def _count(text: str) -> int:
    n = int(text)
    if n < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {n}")
    return n


def _options(pairs: Sequence[str]) -> dict[str, object]:
    out: dict[str, object] = {}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        if not eq or not key:
            raise GameError(f"--option {pair!r}: write it as NAME=VALUE, e.g. size=6")
        out[key.strip()] = value.strip()  # typed by the option's declaration
    return out


def cmd_play(args: argparse.Namespace) -> int:
    from interpreter.repl import run

    game = load_game(args.file, **_options(args.option))
    agents: dict[str, Agent] = {}
    for i, spec in enumerate(args.ai):
        role, eq, name = spec.partition("=")
        if not eq:
            raise GameError(f"--ai {spec!r}: write it as ROLE=AGENT, e.g. O=random")
        if role not in game.players:
            raise GameError(f"--ai {spec!r}: no role {role!r} (roles: {', '.join(game.players)})")
        try:
            seed = None if args.seed is None else args.seed + i
            agents[role] = make_agent(name, seed)
        except ValueError as exc:
            raise GameError(f"--ai {spec!r}: {exc}") from None
    return run(game, agents)


@dataclass
class PlayoutReport:
    """What random games of a game showed."""

    games: int = 0
    wins: Counter[str] = field(default_factory=Counter)
    draws: int = 0
    lengths: list[int] = field(default_factory=list)
    bound_hits: int = 0
    dead_ends: list[str] = field(default_factory=list)  # position texts where no one can move
    crashes: list[str] = field(default_factory=list)
    endings: Counter[str] = field(default_factory=Counter)
    first_draw: str | None = None

    def lines(self, game: Game) -> list[str]:
        out = [f"{self.games} random games of {game.name}:"]
        for role in game.players:
            share = self.wins[role] / self.games if self.games else 0.0
            out.append(f"  {role} wins: {self.wins[role]} ({share:.1%})")
        out.append(f"  draws: {self.draws}")
        if self.lengths:
            mean = sum(self.lengths) / len(self.lengths)
            out.append(f"  length: mean {mean:.1f}, min {min(self.lengths)}, "
                       f"max {max(self.lengths)} moves")
        for reason, n in self.endings.most_common():
            out.append(f"  ended by {reason}: {n}")
        if self.bound_hits:
            out.append(f"  WARNING: {self.bound_hits} games hit the length bound without ending")
        if self.dead_ends:
            out.append(f"  WARNING: {len(self.dead_ends)} games reached a position where the "
                       "player to move has no legal move and the game is not over; the first:")
            out.extend("    " + line for line in self.dead_ends[0].splitlines())
        if self.crashes:
            out.append(f"  ERROR: {len(self.crashes)} games crashed; the first:")
            out.extend("    " + line for line in self.crashes[0].splitlines())
        return out


def random_games(game: Game, n: int, seed: int | None, max_plies: int | None = None
                 ) -> PlayoutReport:
    rng = random.Random(seed)
    report = PlayoutReport()
    bound = max_plies if max_plies is not None else 20 * len(game.sites)
    for _ in range(n):
        report.games += 1
        try:
            state, plies = game.playout(rng, bound)
        except Exception:
            report.crashes.append(traceback.format_exc(limit=6))
            continue
        report.lengths.append(plies)
        if state.is_over:
            report.endings[state.reason] += 1
            if state.winner is None:
                report.draws += 1
                if report.first_draw is None:
                    report.first_draw = state.to_text()
            else:
                report.wins[state.winner] += 1
        elif plies >= bound:
            report.bound_hits += 1
        else:
            report.dead_ends.append(state.to_text())
    return report


def cmd_validate(args: argparse.Namespace) -> int:
    status = 0
    for path in args.files:
        try:
            game = load_game(path, **_options(args.option))
        except RuleError as exc:
            print(exc, file=sys.stderr)
            status = 1
            continue
        for w in game.warnings:
            print(w.format(game.expansion and game.env.text), file=sys.stderr)
        print(f"{path}: ok ({game.name}, {len(game.sites)} sites, roles "
              f"{', '.join(game.players)})")
        if args.playouts:
            report = random_games(game, args.playouts, args.seed)
            for line in report.lines(game):
                print(line)
            if report.crashes:
                status = 1
    return status


def cmd_playout(args: argparse.Namespace) -> int:
    game = load_game(args.file, **_options(args.option))
    report = random_games(game, args.n, args.seed)
    for line in report.lines(game):
        print(line)
    return 1 if report.crashes else 0


def cmd_grammar(args: argparse.Namespace) -> int:
    import stdlib

    by_module: dict[str, list[stdlib.LudemeSpec]] = {}
    for spec in stdlib.REGISTRY.values():
        by_module.setdefault(spec.fn.__module__.split(".")[-1], []).append(spec)
    for module, specs in by_module.items():
        print(f"// {module}")
        for spec in specs:
            print(f"{spec.usage()}  -> {spec.returns.name}")
            if args.verbose:
                for line in spec.doc.splitlines():
                    print("    " + line)
            elif spec.summary():
                print(f"    {spec.summary()}")
        print()
    return 0


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="ludeme", description="Play and check games written in the "
                                "ludeme language.")
    sub = p.add_subparsers(dest="command", required=True)
    play = sub.add_parser("play", help="play a game in the REPL")
    play.add_argument("file")
    play.add_argument("--option", action="append", default=[], metavar="K=V")
    play.add_argument("--ai", action="append", default=[], metavar="ROLE=AGENT")
    play.add_argument("--seed", type=int, default=None)
    play.set_defaults(run=cmd_play)
    val = sub.add_parser("validate", help="check game files (and play random games)")
    val.add_argument("files", nargs="+")
    val.add_argument("--option", action="append", default=[], metavar="K=V")
    val.add_argument("--playouts", type=_count, default=0, metavar="N")
    val.add_argument("--seed", type=int, default=0)
    val.set_defaults(run=cmd_validate)
    po = sub.add_parser("playout", help="play random games and report the results")
    po.add_argument("file")
    po.add_argument("-n", type=_count, default=100)
    po.add_argument("--option", action="append", default=[], metavar="K=V")
    po.add_argument("--seed", type=int, default=None)
    po.set_defaults(run=cmd_playout)
    gr = sub.add_parser("grammar", help="list every ludeme with its parameters")
    gr.add_argument("-v", "--verbose", action="store_true", help="full documentation")
    gr.set_defaults(run=cmd_grammar)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return int(args.run(args))
    except GameError as exc:
        print(f"ludeme: {exc}" if not isinstance(exc, RuleError) else str(exc), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
