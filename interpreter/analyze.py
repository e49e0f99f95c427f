"""`ludeme analyze`: play many games between agents and report how they went.

Each game is played by one task, `play_game(GameTask)`, that needs nothing but its task: the
game file's text, the options, the agents' spellings and the game's own seed, derived from
the base seed and the game's index. So the results are the same whichever way the tasks are
run — in this process, on local worker processes, or on a Ray cluster — and with any number
of workers. The report combines the games in index order.
"""

from __future__ import annotations

import hashlib
import math
import os
import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import IO, Any

from dsl.errors import GameError
from interpreter import parse_game
from interpreter.agents import make_agent
from interpreter.game import Game, State
from interpreter.progress import progress_bar
from interpreter.workers import run as run_on_workers
from stdlib.logic import phrase
from stdlib.movekinds import declines, kind_of, move_kinds
from stdlib.parts import parts_of
from stdlib.runtime import Move


def category(kind: str) -> str:
    """How reports count a move of this kind: its registered category (see
    stdlib/movekinds.py), or the kind itself when no module registered it."""
    found = kind_of(kind)
    return kind if found is None else found.category


def categories() -> list[str]:
    """The categories of move reports count, in the order they list them."""
    return list(dict.fromkeys(k.category for k in move_kinds()))


@dataclass(frozen=True)
class GameTask:
    """Everything needed to play one game, anywhere."""

    text: str
    source: str
    options: tuple[tuple[str, object], ...]
    agents: tuple[str, ...]  # one spelling per role, in role order
    seed: int
    index: int
    max_plies: int | None = None
    kernel: bool = False  # random agents only: the game played in the game's kernel


@dataclass
class GameResult:
    """What one game did."""

    index: int
    winner: str | None  # a role, or None (a draw, or no end)
    ended: bool  # False: the length bound, or a position where nobody could move
    bound_hit: bool
    reason: str  # how the game ended, as reports say it (see ending_names)
    plies: int  # decisions made, forced passes included (what the length bound counts)
    branching: int  # legal moves summed over the positions where a move was chosen
    kinds: dict[str, int] = field(default_factory=dict)
    error: str | None = None
    turns: int = 0  # turns played (see Turns)


def forced_pass(moves: Sequence[Move]) -> bool:
    """Whether a decision among `moves` (the legal moves) is a forced pass: `pass` is the only
    legal move."""
    return len(moves) == 1 and declines(moves[0].kind)


class Turns:
    """Counts the turns of a game as its decisions are made, which is how reports measure a
    game's length.

    A turn is one player's go: the decisions the same player makes until the next player is
    to move — one move in most games, a mine then an optional move in Mattock (`State.turn`
    counts the completed turns) — and taking the pie (`swap`) is a turn of its own. A turn
    whose every decision is a forced pass (`pass` being the only legal move) is not counted:
    the player had nothing to play. Decisions (plies) count every move, forced passes too."""

    def __init__(self) -> None:
        self.count = 0
        self._last: tuple[int, bool] | None = None  # the turn last counted

    def decided(self, state: State, moves: Sequence[Move]) -> None:
        """Note a decision made in `state`, whose legal moves are `moves`."""
        if forced_pass(moves):
            return
        turn = (state.turn, state.swapped)  # a swap leaves `turn` but flips `swapped`
        if turn != self._last:
            self.count += 1
            self._last = turn


def ending_names(game: Game) -> dict[str, str]:
    """How the reasons the game gives for its endings read in reports: each end condition says
    what ended the game ("5 in a row", "the board is full"); the reason of one that has no
    description of its own (only its source text) becomes its define's name or its source
    followed by the rule's place, e.g. '"Thruway" holds (end rule 2)'. Reasons not listed
    read as they are."""
    out = {}
    for i, (reason, rule) in enumerate(zip(game.end_reasons(), game.end_rules, strict=True)):
        if not parts_of(rule.condition).why:
            out[reason] = f"{phrase(rule.condition)} (end rule {i + 1})"
    return out


def ending_name(game: Game, reason: str) -> str:
    """How one reason the game gave for an ending reads in reports (see ending_names)."""
    return ending_names(game).get(reason, reason)


def game_seed(base: int, index: int) -> int:
    """The seed of game `index`, from the base seed (the same on every machine)."""
    digest = hashlib.sha256(f"ludeme-analyze:{base}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


@lru_cache(maxsize=8)
def _built(text: str, source: str, options: tuple[tuple[str, object], ...]) -> Game:
    return parse_game(text, source, **dict(options))


def play_game(task: GameTask) -> GameResult:
    """Play one game of a task (a pure function of the task)."""
    try:
        game = _built(task.text, task.source, task.options)
        if task.kernel:
            return kernel_results(game, [task])[0]
        agents = [make_agent(spec, game_seed(task.seed, r))
                  for r, spec in enumerate(task.agents)]
        chance = random.Random(game_seed(task.seed, len(task.agents)))  # the dice
        bound = task.max_plies if task.max_plies is not None else 20 * len(game.sites)
        state = game.initial_state()
        plies = branching = 0
        kinds: Counter[str] = Counter()
        turns = Turns()
        two = len(game.players) == 2
        while not state.is_over and plies < bound:
            moves = state.legal_moves()
            if not moves:
                break
            seat = 1 - state.to_move if two and state.swapped else state.to_move
            move = game.draw(state, chance) if state.is_chance else agents[seat].choose(state)
            branching += len(moves)
            kinds[move.kind] += 1
            turns.decided(state, moves)
            state = game.apply(state, move)
            plies += 1
        return GameResult(task.index, state.winner, state.is_over,
                          not state.is_over and plies >= bound,
                          ending_name(game, state.reason) if state.is_over else "", plies,
                          branching, dict(kinds), turns=turns.count)
    except Exception as exc:  # a crash is a finding: report it with the others
        return GameResult(task.index, None, False, False, "", 0, 0, {},
                          f"{type(exc).__name__}: {exc}")


def kernel_results(game: Game, tasks: Sequence[GameTask]) -> list[GameResult]:
    """Games between random agents played in the game's kernel, each from its task's seed
    (interpreter/kernel/stats.py: the kernel draws the moves, one generator per game, so
    they are other games than the interpreter's random agents play from that seed, and the
    same wherever they are played)."""
    from interpreter.kernel import kernel_for
    from interpreter.kernel.stats import count_playouts

    kernel = kernel_for(game)
    if kernel is None:  # the task asked for the kernel: say why there is none here
        from interpreter.playouts import kernel_reason

        raise GameError(f"{game.name} has no kernel here: {kernel_reason(game)}")
    bound = 20 * len(game.sites)
    out = []
    for bounded in sorted({t.max_plies for t in tasks}, key=lambda b: b or 0):
        group = [t for t in tasks if t.max_plies == bounded]
        limit = bounded if bounded is not None else bound
        found = count_playouts(kernel, [t.seed for t in group], limit)
        for i, t in enumerate(group):
            ended = found.ended[i]
            out.append(GameResult(
                t.index, found.winners[i], ended,
                not ended and found.decisions[i] >= limit,
                ending_name(game, found.reasons[i]) if ended else "", found.decisions[i],
                found.branching[i], found.kinds[i], turns=found.turns[i]))
    order = {t.index: i for i, t in enumerate(tasks)}
    return sorted(out, key=lambda r: order[r.index])


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% with the default z)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Report:
    """The games combined."""

    game: str
    players: tuple[str, ...]
    agents: tuple[str, ...]
    seed: int
    results: list[GameResult]

    def summary(self) -> dict[str, Any]:
        """The report as plain data (what --json prints). A game's length is in "turns" (see
        `Turns`: forced passes left out, a turn of several decisions counted once); "length"
        keeps what it always said, the decisions made, every move and forced pass counted."""
        rs = self.results
        played = [r for r in rs if r.error is None]
        n = len(played)
        wins = Counter(r.winner for r in played if r.winner is not None)
        roles = {}
        for role in self.players:
            low, high = wilson(wins[role], n)
            roles[role] = {"wins": wins[role], "rate": wins[role] / n if n else 0.0,
                           "ci95": [low, high]}
        lengths = [r.plies for r in played]
        turns = [r.turns for r in played]
        moves = sum(lengths)
        kinds = Counter[str]()
        for r in played:
            for kind, count in r.kinds.items():
                kinds[category(kind)] += count
        order = [*categories(), *sorted(set(kinds) - set(categories()))]
        return {
            "game": self.game,
            "games": len(rs),
            "agents": dict(zip(self.players, self.agents, strict=True)),
            "seed": self.seed,
            "roles": roles,
            "draws": sum(1 for r in played if r.ended and r.winner is None),
            "length": {"mean": moves / n if n else 0.0, "min": min(lengths, default=0),
                       "max": max(lengths, default=0)},
            "turns": {"mean": sum(turns) / n if n else 0.0, "min": min(turns, default=0),
                      "max": max(turns, default=0)},
            "branching": sum(r.branching for r in played) / moves if moves else 0.0,
            "moves": {k: {"count": kinds[k], "share": kinds[k] / moves if moves else 0.0}
                      for k in order if kinds[k]},
            "bound_hits": sum(1 for r in played if r.bound_hit),
            "stuck": sum(1 for r in played if not r.ended and not r.bound_hit),
            "endings": dict(Counter(r.reason for r in played if r.ended).most_common()),
            "crashes": [{"game": r.index, "error": r.error} for r in rs if r.error],
        }

    def lines(self) -> list[str]:
        """The report for people."""
        s = self.summary()
        versus = " vs ".join(f"{a} ({r})" for r, a in s["agents"].items())
        out = [f"{s['games']} games of {s['game']}, {versus}, seed {s['seed']}:"]
        n = s["games"] - len(s["crashes"])
        width = max(len(r) for r in self.players)
        for role, v in s["roles"].items():
            low, high = v["ci95"]
            out.append(f"  {role + ' wins:':<{width + 7}}{v['wins']:>5}  {v['rate']:6.1%}  "
                       f"(95% CI {low:.1%}-{high:.1%})")
        draws = s["draws"]
        out.append(f"  {'draws:':<{width + 7}}{draws:>5}  {draws / n if n else 0:6.1%}")
        out.append(length_line(s["turns"], s["length"]))
        out.append(f"  branching: {s['branching']:.1f} legal moves per position on average")
        if s["moves"]:
            out.append("  moves: " + ", ".join(f"{k} {_share(v['share'])}"
                                               for k, v in s["moves"].items()))
        for reason, count in s["endings"].items():
            out.append(f"  ended by {reason}: {count}")
        out.append(f"  hit the length bound: {s['bound_hits']}")
        if s["stuck"]:
            out.append(f"  WARNING: {s['stuck']} games reached a position where nobody could "
                       "move and the game was not over")
        if s["crashes"]:
            first = s["crashes"][0]
            out.append(f"  ERROR: {len(s['crashes'])} games crashed; game {first['game']}: "
                       f"{first['error']}")
        return out


def length_line(turns: dict[str, float], decisions: dict[str, float]) -> str:
    """The report's line on the games' length: in turns, and in decisions too where they
    differ (several decisions in a turn, forced passes)."""
    line = (f"  length: mean {turns['mean']:.1f}, min {turns['min']}, max {turns['max']} "
            "turns")
    if decisions != turns:
        line += (f" ({decisions['mean']:.1f} decisions on average, forced passes "
                 "included)")
    return line


def _share(x: float) -> str:
    """A percentage, with `<0.1%` for what is there but rounds to nothing."""
    return "<0.1%" if 0 < x < 0.0005 else f"{x:.1%}"


def agent_specs(spec: str, players: Sequence[str]) -> tuple[str, ...]:
    """One agent spelling per role: `mcts:100` for all, or `mcts:100,random` in role order."""
    parts = [p.strip() for p in spec.split(",")]
    if len(parts) == 1:
        parts *= len(players)
    if len(parts) != len(players) or not all(parts):
        raise GameError(f"--agents {spec!r}: give one agent for all roles, or one per role "
                        f"separated by commas ({len(players)}: {', '.join(players)})")
    for p in parts:
        try:
            make_agent(p, 0)
        except ValueError as exc:
            raise GameError(f"--agents {spec!r}: {exc}") from None
    return tuple(parts)


Runner = Callable[[list[GameTask]], Iterator[GameResult]]


def run_local(tasks: list[Any], workers: int, play: Callable[[Any], Any] | None = None
              ) -> Iterator[Any]:
    """The tasks' results in order: in this process (1 worker) or on the process-wide pool
    of worker processes that game.playouts keeps too (interpreter/workers.py: started once,
    Ctrl-C left to this process, which stops the run). Each task is done by `play` (default:
    play_game), a module-level function of the task alone."""
    play = play or play_game
    if workers <= 1 or len(tasks) <= 1:
        yield from map(play, tasks)
        return
    # Small chunks: the work stays balanced, and Ctrl-C waits for a few games at most.
    chunk = max(1, min(4, len(tasks) // (workers * 8)))
    yield from run_on_workers(play, tasks, workers, chunksize=chunk)


def run_ray(tasks: list[GameTask], address: str | None) -> Iterator[GameResult]:
    """The tasks' results in order, computed on Ray (`address` None: a local Ray instance)."""
    try:
        import ray
    except ImportError:
        raise GameError("the ray backend needs Ray, which is not installed: "
                        "pip install 'ludeme[ray]' (or pip install ray)") from None
    started = not ray.is_initialized()
    if started:
        try:
            ray.init(address=address, include_dashboard=False, log_to_driver=False,
                     configure_logging=False)
        except Exception as exc:  # Ray says what went wrong; keep it to its message
            where = f"the Ray cluster at {address}" if address else "a local Ray instance"
            raise GameError(f"cannot start or reach {where}: {type(exc).__name__}: {exc}") \
                from None
    try:
        remote = ray.remote(play_game)
        refs = [remote.remote(t) for t in tasks]
        for ref in refs:
            yield ray.get(ref)
    finally:
        if started:
            ray.shutdown()


def _kernel_stream(game: Game, tasks: list[GameTask]) -> Iterator[GameResult]:
    """The tasks' results, played in the kernel in this process, in batches (a progress bar
    moves between them)."""
    start, chunk = 0, 64
    while start < len(tasks):
        yield from kernel_results(game, tasks[start:start + chunk])
        start += chunk
        chunk = min(chunk * 2, 8192)


def analyze(game: Game, agents: str, n: int, seed: int | None = None,
            workers: int | None = None, backend: str = "local", address: str | None = None,
            max_plies: int | None = None, progress: IO[str] | None = None,
            kernel: bool | None = None) -> Report:
    """Play `n` games of `game` between `agents` (see `agent_specs`) and combine them.
    `seed` None picks one (the report names it, so the run can be repeated); `workers` is the
    number of local processes (default: one per CPU); `progress` gets a progress bar
    (interpreter.progress). Games between random agents are played in the game's kernel
    when it has one (`kernel` None; False: interpreted; True: required): locally in this
    process, in batches (native code needs no workers), on Ray a task per game as always."""
    specs = agent_specs(agents, game.players)
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "big")
    native = False
    if all(s.strip().lower() == "random" for s in specs) or kernel:
        from interpreter.playouts import chosen_kernel

        if kernel and not all(s.strip().lower() == "random" for s in specs):
            raise GameError("kernel: only games between random agents are played in a "
                            "kernel by analyze")
        native = chosen_kernel(game, kernel) is not None
    text = game.env.text or ""
    source = game.expansion.game.span.path
    options = tuple(sorted(game.options.items()))
    tasks = [GameTask(text, source, options, specs, game_seed(seed, i), i, max_plies, native)
             for i in range(n)]
    if backend == "ray":
        stream = run_ray(tasks, address)
    elif backend == "local":
        stream = _kernel_stream(game, tasks) if native else \
            run_local(tasks, workers or os.cpu_count() or 1)
    else:
        raise GameError(f"unknown backend {backend!r} (backends: local, ray)")
    results = []
    with progress_bar(n, "games", progress) as advance:
        for result in stream:
            results.append(result)
            advance(1)
    return Report(game.name, game.players, specs, seed, results)
