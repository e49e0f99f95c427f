"""The `ludeme` command: play, validate, playout, grammar, replay, render, analyze, serve."""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING

from dsl.errors import GameError, RuleError
from interpreter import load_game
from interpreter.agents import Agent, make_agent
from interpreter.display import draw, status
from interpreter.files import read_text
from interpreter.game import Game, State
from interpreter.progress import progress_bar, terminal
from interpreter.record import (
    RecordError,
    RecordWriter,
    check_same_game,
    load_record,
    read_record,
    replay,
)

if TYPE_CHECKING:
    from interpreter.kernel.kernel import Kernel


def _count(text: str) -> int:
    n = int(text)
    if n < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {n}")
    return n


def _seconds(text: str) -> float:
    x = float(text)
    if not 0 < x < float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, not {text}")
    return x


def _positive(text: str) -> int:
    n = int(text)
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {n}")
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
    if args.record is None:
        return run(game, agents, seed=args.seed)
    history, moves = _resume(game, args.record)
    if moves:
        print(f"resuming the {len(moves)} moves in {args.record}")
    recorder = RecordWriter(args.record, game, args.file, moves)  # GameError: cannot write
    return run(game, agents, recorder=recorder, history=history, moves=moves, seed=args.seed)


def _resume(game: Game, path: str) -> tuple[list[State] | None, list[str]]:
    """The game so far in an existing record file (for `play --record`), or nothing if the
    file does not exist or is empty. A file that is not a record of this game is refused
    rather than overwritten."""
    p = Path(path)
    if not p.exists() or (p.is_file() and p.stat().st_size == 0):
        return None, []
    rec = read_record(p)
    check_same_game(game, rec)
    states, moves = replay(rec, game)
    return states, moves


def cmd_replay(args: argparse.Namespace) -> int:
    game, states, moves = load_record(args.record, args.game)
    if args.verbose:
        print(draw(game, states[0]))
        for i, (move, state) in enumerate(zip(moves, states[1:], strict=True), start=1):
            print(f"{i}. {states[i - 1].mover} {move}")
            print(draw(game, state))
    else:
        print(draw(game, states[-1]))
    print(f"{len(moves)} moves of {game.name} replayed. {status(game, states[-1])}")
    return 0


def cmd_render(args: argparse.Namespace) -> int:
    from interpreter.svg import render_svg

    game = load_game(args.file, **_options(args.option))
    state = game.initial_state()
    if args.position is not None:
        try:
            text = read_text(args.position)
        except OSError as exc:
            raise GameError(f"--position {args.position}: cannot read it: "
                            f"{exc.strerror or exc}") from None
        except UnicodeDecodeError:
            raise GameError(f"--position {args.position}: cannot read it: it is not UTF-8 "
                            "text") from None
        try:
            state = game.from_text(text)
        except GameError as exc:
            raise GameError(f"{args.position}: {exc}") from None
    elif args.record is not None:
        rec = read_record(args.record)
        check_same_game(game, rec)
        state = replay(rec, game)[0][-1]
    svg = render_svg(state)
    if args.output in (None, "-"):
        sys.stdout.write(svg)
        return 0
    try:
        Path(args.output).write_text(svg, encoding="utf-8")
    except OSError as exc:
        raise GameError(f"-o {args.output}: cannot write it: {exc.strerror or exc}") from None
    print(f"wrote {args.output}")
    return 0


def cmd_analyze(args: argparse.Namespace) -> int:
    from interpreter.analyze import analyze

    game = load_game(args.file, **_options(args.option))
    if args.address is not None and args.backend != "ray":
        raise GameError("--address is for the ray backend: add --backend ray")
    report = analyze(game, args.agents, args.n, seed=args.seed, workers=args.workers,
                     backend=args.backend, address=args.address, progress=terminal())
    if args.json:
        print(json.dumps(report.summary(), indent=2))
    else:
        for line in report.lines():
            print(line)
    return 1 if report.summary()["crashes"] else 0


@dataclass
class PlayoutReport:
    """What random games of a game showed. A game's length is counted in turns (`lengths`,
    see analyze.Turns: forced passes left out, a turn of several decisions counted once) and
    in decisions (`decisions`: every move, forced passes included)."""

    games: int = 0
    wins: Counter[str] = field(default_factory=Counter)
    draws: int = 0
    lengths: list[int] = field(default_factory=list)  # turns per game
    decisions: list[int] = field(default_factory=list)  # decisions per game
    bound_hits: int = 0
    dead_ends: list[str] = field(default_factory=list)  # position texts where no one can move
    crashes: list[str] = field(default_factory=list)
    endings: Counter[str] = field(default_factory=Counter)
    first_draw: str | None = None
    asked: int = 0  # games asked for (more than `games` when the time ran out first)
    seconds: float = 0.0  # time taken
    budget: float | None = None  # the time allowed
    kernel: str = ""  # where the games ran: "native (compiled in 2.1 s)", or "interpreted..."

    def lines(self, game: Game) -> list[str]:
        from interpreter.analyze import ending_names, length_line

        out = [f"{self.games} random games of {game.name}:"]
        rate = self.games / self.seconds if self.seconds > 0 else 0.0
        out.append(f"  played in {self.seconds:.1f} s ({rate:,.1f} games per second)")
        if self.kernel:
            out.append(f"  kernel: {self.kernel}")
        if self.asked > self.games:
            out.append(f"  WARNING: the time allowed ({self.budget:g} s) ran out after "
                       f"{self.games} of the {self.asked} games asked for (--seconds sets it)")
        for role in game.players:
            share = self.wins[role] / self.games if self.games else 0.0
            out.append(f"  {role} wins: {self.wins[role]} ({share:.1%})")
        out.append(f"  draws: {self.draws}")
        if self.lengths:
            out.append(length_line(_spread(self.lengths), _spread(self.decisions)))
        names = ending_names(game)
        for reason, n in self.endings.most_common():
            out.append(f"  ended by {names.get(reason, reason)}: {n}")
        for reason in dict.fromkeys(game.end_reasons()):
            if reason not in self.endings and self.games:
                out.append(f"  never ended a game: {names.get(reason, reason)}")
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


def _spread(values: list[int]) -> dict[str, float]:
    return {"mean": sum(values) / len(values), "min": min(values), "max": max(values)}


class _OutOfTime(Exception):
    """The time allowed for random games ran out in the middle of one."""


def random_games(game: Game, n: int, seed: int | None, max_plies: int | None = None,
                 seconds: float | None = None, progress: IO[str] | None = None,
                 kernel: bool | None = None) -> PlayoutReport:
    """Play `n` random games (Game.playout: each move chosen as
    `rng.choice(state.legal_moves())`, so a seed gives the same games) and report what they
    showed, lengths in turns. The length bound counts decisions. With `seconds`, no game goes
    on once that time has passed (the report says how many finished). `progress` gets a
    progress bar (interpreter.progress).

    When the game has a kernel (`kernel` None; False: interpreted, True: required) the games
    are played natively, game i from its own seed (analyze.game_seed), and report the same
    things: the kernel counts turns, decisions and endings itself, and the positions shown
    (the first with no legal move, the first draw) are its game replayed in the
    interpreter. The report's `kernel` line says which way the games ran."""
    from interpreter.playouts import chosen_kernel, kernel_reason

    native = chosen_kernel(game, kernel)
    with progress_bar(n, "games", progress) as advance:
        if native is not None:
            from interpreter.kernel.stats import prepare

            compiled = native.load_seconds + prepare(native)
            report = _kernel_games(game, native, n, seed, max_plies, seconds, advance)
            report.kernel = f"native (compiled in {compiled:.1f} s)"
            return report
        report = _random_games(game, n, seed, max_plies, seconds, advance)
        report.kernel = "interpreted (kernel=False)" if kernel is False else \
            f"interpreted: {kernel_reason(game)}"
        return report


def _replayed(game: Game, actions: list[int]) -> State:
    """The interpreter's position after a kernel's game (its actions)."""
    state = game.initial_state()
    for action in actions:
        state = state.apply_action(action)
    return state


def _kernel_games(game: Game, kernel: Kernel, n: int, seed: int | None,
                  max_plies: int | None, seconds: float | None,
                  advance: Callable[[int], None]) -> PlayoutReport:
    from interpreter.analyze import game_seed
    from interpreter.kernel.stats import count_playouts

    base = seed if seed is not None else int.from_bytes(os.urandom(4), "big")
    report = PlayoutReport(asked=n, budget=seconds)
    bound = max_plies if max_plies is not None else 20 * len(game.sites)
    start = time.monotonic()
    deadline = None if seconds is None else start + seconds
    done, chunk = 0, 16
    while done < n:
        if deadline is not None and time.monotonic() >= deadline:
            break
        seeds = [game_seed(base, i) for i in range(done, min(n, done + chunk))]
        found = count_playouts(kernel, seeds, bound)
        for i, s in enumerate(seeds):
            report.games += 1
            report.lengths.append(found.turns[i])
            report.decisions.append(found.decisions[i])
            if found.ended[i]:
                report.endings[found.reasons[i]] += 1
                winner = found.winners[i]
                if winner is None:
                    report.draws += 1
                    if report.first_draw is None:
                        report.first_draw = _shown(game, kernel, s, bound, report)
                else:
                    report.wins[winner] += 1
            elif found.decisions[i] >= bound:
                report.bound_hits += 1
            elif report.dead_ends:  # only the first is shown: the others are not replayed
                report.dead_ends.append(report.dead_ends[0])
            else:
                report.dead_ends.append(_shown(game, kernel, s, bound, report) or "")
        advance(len(seeds))
        done += len(seeds)
        chunk = min(chunk * 2, 4096)
    report.seconds = time.monotonic() - start
    return report


def _shown(game: Game, kernel: Kernel, seed: int, bound: int, report: PlayoutReport
           ) -> str | None:
    """The text of the position a kernel's game (from `seed`) ended in, replayed in the
    interpreter; a replay the interpreter refuses is a crash (the kernel and the rules
    disagree)."""
    try:
        return _replayed(game, kernel.playout_actions(seed, bound)).to_text()
    except Exception:
        report.crashes.append("the kernel's game could not be replayed in the interpreter "
                              f"(seed {seed}):\n" + traceback.format_exc(limit=6))
        return None


def _random_games(game: Game, n: int, seed: int | None, max_plies: int | None,
                  seconds: float | None, advance: Callable[[int], None]) -> PlayoutReport:
    from interpreter.analyze import Turns

    rng = random.Random(seed)
    report = PlayoutReport(asked=n, budget=seconds)
    bound = max_plies if max_plies is not None else 20 * len(game.sites)
    start = time.monotonic()
    deadline = None if seconds is None else start + seconds
    for _ in range(n):
        if deadline is not None and time.monotonic() >= deadline:
            break
        advance(1)
        report.games += 1
        turns = Turns()

        def decided(state: State, moves: Sequence[object], turns: Turns = turns) -> None:
            turns.decided(state, moves)  # type: ignore[arg-type]
            if deadline is not None and time.monotonic() >= deadline:
                raise _OutOfTime

        try:
            state, plies = game.playout(rng, bound, observe=decided)
        except _OutOfTime:  # the game cut short is not reported
            report.games -= 1
            break
        except GameError as exc:  # a limit of the rules met in play (a count too high...)
            report.crashes.append(f"the rules went beyond a limit: {exc}")
            continue
        except Exception:
            report.crashes.append(traceback.format_exc(limit=6))
            continue
        report.lengths.append(turns.count)
        report.decisions.append(plies)
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
    report.seconds = time.monotonic() - start
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
            print(w.format(game.env.text), file=sys.stderr)
        print(f"{path}: ok ({game.name}, {len(game.sites)} sites, roles "
              f"{', '.join(game.players)})")
        if args.playouts:
            report = _timed_games(game, args.playouts, args)
            for line in report.lines(game):
                print(line)
            if report.crashes:
                status = 1
    return status


def cmd_playout(args: argparse.Namespace) -> int:
    game = load_game(args.file, **_options(args.option))
    report = _timed_games(game, args.n, args)
    for line in report.lines(game):
        print(line)
    return 1 if report.crashes else 0


def _timed_games(game: Game, n: int, args: argparse.Namespace) -> PlayoutReport:
    """validate's and playout's random games. A --seconds given is kept move by move, which
    only the interpreter can do (a native game runs to its end once started, and compiling a
    kernel is not bounded by it); by default the games run in the kernel when the game has
    one, and the 60 s allowed are checked between batches of games."""
    if args.seconds is None:
        return random_games(game, n, args.seed, seconds=DEFAULT_SECONDS, progress=terminal())
    report = random_games(game, n, args.seed, seconds=args.seconds, progress=terminal(),
                          kernel=False)
    report.kernel = "interpreted (--seconds is kept move by move)"
    return report


DEFAULT_SECONDS = 60.0  # validate's and playout's time for random games


def cmd_serve(args: argparse.Namespace) -> int:
    from interpreter.web import serve_command

    return serve_command(args.files, args.host, args.port)


def cmd_grammar(args: argparse.Namespace) -> int:
    import stdlib
    from dsl.expand import FORMS
    from interpreter.grammar import describe, find, listing, search

    forms = {usage.split()[0].strip("("): (usage, doc) for usage, doc in FORMS}
    if args.name:
        name = " ".join(args.name)
        if name in forms:  # define, option, match: forms of the file, not ludemes
            usage, doc = forms[name]
            print("\n".join([usage, *("    " + line if line else "" for line in
                                      doc.splitlines())]))
            return 0
        print("\n\n".join(describe(spec) for spec in find(name)))
        return 0
    if args.search is not None:
        found = search(args.search)
        if not found:
            print(f"no ludeme mentions {args.search!r}", file=sys.stderr)
            return 1
        print("\n".join(listing(found, args.verbose)).rstrip())
        return 0
    print("// the forms of a game file besides ludemes (ludeme grammar option: one in full)")
    for usage, doc in FORMS:
        print(usage)
        lines = doc.splitlines() if args.verbose else doc.splitlines()[:1]
        print("\n".join("    " + line if line else "" for line in lines))
    print()
    print("\n".join(listing(stdlib.REGISTRY.values(), args.verbose)).rstrip())
    return 0


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="ludeme", description="Play and check games written in the "
                                "ludeme language.")
    sub = p.add_subparsers(dest="command", required=True)
    play = sub.add_parser("play", help="play a game in the REPL")
    play.add_argument("file")
    play.add_argument("--option", action="append", default=[], metavar="K=V")
    play.add_argument("--ai", action="append", default=[], metavar="ROLE=AGENT",
                      help="the computer plays ROLE; AGENT is random, flat:K or mcts:K (K "
                      "iterations; also mcts:5s, mcts:K:5s)")
    play.add_argument("--seed", type=int, default=None)
    play.add_argument("--record", metavar="FILE", default=None,
                      help="write the game to a record file as it is played (and resume the "
                      "game in it if the file exists)")
    play.set_defaults(run=cmd_play)
    val = sub.add_parser("validate", help="check game files (and play random games)")
    val.add_argument("files", nargs="+")
    val.add_argument("--option", action="append", default=[], metavar="K=V")
    val.add_argument("--playouts", type=_count, default=0, metavar="N")
    val.add_argument("--seed", type=int, default=0)
    val.add_argument("--seconds", type=_seconds, default=None, metavar="S",
                     help="time allowed for the random games, kept move by move (they then "
                          "run interpreted); default 60, checked between batches of games")
    val.set_defaults(run=cmd_validate)
    po = sub.add_parser("playout", help="play random games and report the results")
    po.add_argument("file")
    po.add_argument("-n", type=_count, default=100)
    po.add_argument("--option", action="append", default=[], metavar="K=V")
    po.add_argument("--seed", type=int, default=None)
    po.add_argument("--seconds", type=_seconds, default=None, metavar="S",
                    help="time allowed for the random games, kept move by move (they then "
                         "run interpreted); default 60, checked between batches of games")
    po.set_defaults(run=cmd_playout)
    rp = sub.add_parser("replay", help="replay a game record, checking every move")
    rp.add_argument("record")
    rp.add_argument("--game", metavar="FILE", default=None,
                    help="the game file (default: the one the record names)")
    rp.add_argument("-v", "--verbose", action="store_true", help="show every position")
    rp.set_defaults(run=cmd_replay)
    rd = sub.add_parser("render", help="draw a position as an SVG picture")
    rd.add_argument("file")
    rd.add_argument("--option", action="append", default=[], metavar="K=V")
    where = rd.add_mutually_exclusive_group()
    where.add_argument("--position", metavar="POS.txt", default=None,
                       help="a position text (default: the initial position)")
    where.add_argument("--record", metavar="REC", default=None,
                       help="the last position of a game record")
    rd.add_argument("-o", "--output", metavar="OUT.svg", default=None,
                    help="where to write the picture (default: stdout)")
    rd.set_defaults(run=cmd_render)
    an = sub.add_parser("analyze", help="play many games between agents and report")
    an.add_argument("file")
    an.add_argument("-n", type=_count, default=100, help="games to play (default 100)")
    an.add_argument("--option", action="append", default=[], metavar="K=V")
    an.add_argument("--agents", default="random", metavar="AGENT[,AGENT...]",
                    help="one agent for every role, or one per role in role order: random, "
                    "flat:K, mcts:K (default random)")
    an.add_argument("--seed", type=int, default=None,
                    help="base seed (default: a random one, printed with the report)")
    an.add_argument("--workers", type=_positive, default=None,
                    help="local worker processes (default: one per CPU)")
    an.add_argument("--backend", choices=("local", "ray"), default="local")
    an.add_argument("--address", default=None, help="the Ray cluster to use (--backend ray; "
                    "default: start a local Ray instance)")
    an.add_argument("--json", action="store_true", help="the report as JSON")
    an.set_defaults(run=cmd_analyze)
    sv = sub.add_parser("serve", help="the playground: write, check and play games in a "
                        "browser (needs the web extra)")
    sv.add_argument("files", nargs="*", metavar="FILE",
                    help="the game files to offer (default: those in games/)")
    sv.add_argument("--port", type=_count, default=8000, help="default 8000; 0: any free port")
    sv.add_argument("--host", default="127.0.0.1",
                    help="the address to listen on (default 127.0.0.1: this machine only)")
    sv.set_defaults(run=cmd_serve)
    gr = sub.add_parser("grammar", help="list every ludeme with its parameters (or one, or "
                        "those matching a word)")
    gr.add_argument("name", nargs="*", metavar="NAME",
                    help="one ludeme, with its documentation and example (line, 'sites "
                    "Empty'), or a family of them (sites)")
    gr.add_argument("--search", metavar="WORD", default=None,
                    help="the ludemes whose name or documentation mentions WORD")
    gr.add_argument("-v", "--verbose", action="store_true", help="full documentation")
    gr.set_defaults(run=cmd_grammar)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return int(args.run(args))
    except GameError as exc:
        located = isinstance(exc, RuleError | RecordError)  # already says file:line:
        print(str(exc) if located else f"ludeme: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader went away (`ludeme validate ... | head`): end quietly
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except OSError:
            pass
        return 141


if __name__ == "__main__":
    sys.exit(main())
