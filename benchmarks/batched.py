"""Random games per second of the game kernels against the JAX simulators pgx and ludax, on
this CPU, for the games they share.

    python benchmarks/batched.py [--seconds S] [--games NAME,...] [--runs R] [--seed N]
                                 [--batches 64,256,1024] [--against pgx,ludax|none]
                                 [--compile-times] [--markdown] [--write]

Each game file is loaded with the options that bring its rules and board closest to the
simulators' (the notes say what still differs), and every side plays random games, every
legal move equally likely, to their end:

- ours: `playouts(game, n, seed, workers, max_plies)` (interpreter/playouts.py, what
  `game.playouts` calls), in the game's kernel when it has one (numba, the `kernels` extra)
  and interpreted otherwise (the table says so). With 1 worker the games are played in
  batches that double until the time is spent (benchmarks/kernels.py's way); with 2 workers
  (the machine's 2 cores) in one call sized from the 1-worker rate, on the warm worker pool
  that `playouts` keeps between calls (started, and handed the game, in a warm-up call
  before the timing, as the simulators' batches are compiled and warmed up first);
- pgx and ludax (JAX, `pip install -e '.[bench-jax]'`): a batch of B games stepped together
  by `jax.vmap(env.step)` inside one `jax.jit`-compiled `lax.scan` of 32 moves, each move
  drawn uniformly from the game's `legal_action_mask`, a game that ends (terminated or
  truncated) started again in its lane at once. A warm-up plays until every lane's first
  game has ended: their mean length over all batch sizes is the simulator's plies; games
  per second are then the moves made per second (B x 32 a call) over that mean length, the
  long-run rate of games ended (counting the games that end within a short window would
  favour the short ones).
  Each batch size of `--batches` is compiled once (the "jit s" column: building the
  environment, tracing and compiling, at the best batch) and timed apart from its
  compilation.

For each game the sides are measured in `--runs` rounds of short runs taken in turn (the order
rotating), so that a machine busy for a while slows every side alike; each rate is the median
of its runs, a simulator's rate that of its best batch size, and each ratio (ours / theirs,
above 1 means ludeme is faster) the median of the per-round ratios. `--seconds` is the
measuring time, shared equally among the games and the sides (one per worker count and per
simulator's batch size); compiling and warming up come on top.

`--compile-times` adds the seconds `kernel_for` takes to compile the game's kernel in a fresh
process with an empty cache (cold), then from that cache (cached), as in
benchmarks/openspiel_ratios.py. `--markdown` prints Markdown; `--write` measures with
compile times and saves the Markdown, with the machine, date and versions, in
docs/includes/batched_ratios.md, which docs/speed.md includes. A simulator that is not
installed is left out and the notes say so.
"""

from __future__ import annotations

import argparse
import datetime
import math
import multiprocessing
import os
import platform
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # runnable from a checkout without installing
    sys.path.insert(0, str(ROOT))

from benchmarks.common import format_rate, markdown_table  # noqa: E402
from benchmarks.kernels import compile_seconds, why  # noqa: E402
from benchmarks.openspiel_ratios import format_ratio, text_table  # noqa: E402
from interpreter import load_game  # noqa: E402
from interpreter.game import Game  # noqa: E402
from interpreter.kernel import kernel_for  # noqa: E402
from interpreter.playouts import playouts  # noqa: E402
from interpreter.progress import progress_bar, terminal  # noqa: E402

GAMES = ROOT / "games"
OUTPUT = ROOT / "docs" / "includes" / "batched_ratios.md"
SIMULATORS = ("pgx", "ludax")
STEPS = 32  # moves each lane makes per call of a compiled batch


@dataclass(frozen=True)
class Match:
    """A ludeme game file with options, and the same game in pgx and in ludax (None: that
    simulator has no such game)."""

    name: str  # what --games takes
    file: str  # in games/
    options: dict[str, Any]
    pgx: str | None  # pgx.make's id
    ludax: str | None  # the game's name in ludax.games
    notes: tuple[str, ...] = ()
    bound: int | None = None  # our games' bound on moves (default 20 a site)


MATCHES = [
    Match("tictactoe", "tictactoe.game", {}, "tic_tac_toe", "tic_tac_toe"),
    Match("connect_four", "connectfour.game", {}, "connect_four", "connect_four"),
    Match("hex", "hex.game", {"size": 11, "pie": True}, "hex", "hex",
          ("11 x 11 everywhere. pie:true, as pgx offers the swap as the second move (ours "
           "exchanges the players, pgx mirrors the stone); ludax's Hex has no swap.",)),
    Match("othello", "reversi.game", {}, "othello", "reversi",
          ("A player without a move passes in all three; a pass is a move (a ply) in each.",)),
    Match("gomoku", "gomoku.game", {"size": 15, "overline": False}, None, "gomoku",
          ("15 x 15, exactly five in a row wins (ours overline:false, ludax exact:true); "
           "pgx has no Gomoku.",)),
    Match("go", "go.game", {"size": 9, "komi": 7.5, "openspiel": True}, "go_9x9", None,
          ("9 x 9, komi 7.5, area scoring. openspiel:true: simple ko, and the game ends, "
           "scored, after 2 x 9 x 9 = 162 turns, as in pgx; a move that repeats an earlier "
           "position draws the game here and loses it in pgx (positional superko). ludax "
           "has no Go.",)),
    Match("chess", "chess.game", {}, "chess", None,
          ("Checkmate, stalemate, the fifty-move rule, threefold repetition and too little "
           "material in both; pgx ends every game after 512 moves (AlphaZero's cap), so ours "
           "stop at 512 moves here too (the playouts' bound). ludax has no chess.",),
          bound=512),
]


@dataclass
class Side:
    """One way of playing a game's random games: its rates (games per second), one per
    round, and the lengths of the games it played."""

    rates: list[float] = field(default_factory=list)
    # the games' mean length: ours per round, a simulator's once (its lanes' first games)
    plies: list[float] = field(default_factory=list)
    compiled: float | None = None  # a simulator's seconds to build and jit at this batch

    def rate(self) -> float:
        return statistics.median(self.rates)


@dataclass
class Result:
    label: str
    native: bool
    ours: dict[int, Side] = field(default_factory=lambda: {1: Side(), 2: Side()})
    # simulator -> batch size -> side
    theirs: dict[str, dict[int, Side]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    compiled: tuple[float, float] | None = None  # our kernel's (cold, cached) seconds

    def best(self, simulator: str) -> tuple[int, Side] | None:
        """A simulator's best batch size and its side, or None where it was not measured."""
        found = self.theirs.get(simulator)
        if not found:
            return None
        return max(found.items(), key=lambda item: item[1].rate())

    def ratio(self, workers: int, simulator: str) -> float | None:
        """The median per-round ratio of ours with `workers` to the simulator's best batch."""
        best = self.best(simulator)
        if best is None:
            return None
        return statistics.median(o / t for o, t in zip(self.ours[workers].rates,
                                                       best[1].rates, strict=True))


# -- ours ------------------------------------------------------------------------------------

def ours_rate(game: Game, workers: int, seconds: float, seed: int, bound: int | None,
              sized: float) -> tuple[float, float]:
    """Random games per second through `playouts` with `workers`, and their mean length.
    One worker: batches doubling until `seconds` are spent; more: one call of about
    `sized` x `seconds` games (`sized`: the 1-worker rate)."""
    if workers <= 1:
        lengths: list[int] = []
        batch = 1
        start = time.perf_counter()
        while True:
            lengths += playouts(game, batch, seed * 1_000_003 + len(lengths), 1,
                                max_plies=bound).lengths
            elapsed = time.perf_counter() - start
            if elapsed >= seconds:
                return len(lengths) / elapsed, statistics.fmean(lengths)
            batch = min(batch * 2, 65536)
    n = max(2 * workers, round(sized * seconds))
    start = time.perf_counter()
    lengths = playouts(game, n, seed, workers, max_plies=bound).lengths
    return n / (time.perf_counter() - start), statistics.fmean(lengths)


# -- pgx and ludax ---------------------------------------------------------------------------

def simulator_version(simulator: str) -> str | None:
    """The simulator's version, or None when it (or JAX) is not installed; neither is
    imported here (see `Remote`)."""
    from importlib import metadata, util

    if util.find_spec(simulator) is None or util.find_spec("jax") is None:
        return None
    try:
        return metadata.version(simulator)
    except metadata.PackageNotFoundError:
        return None


def environment(simulator: str, game: str) -> Any:
    """The simulator's environment of the game: an object with `init(key)` and
    `step(state, action)`, states carrying `legal_action_mask`, `terminated`, `truncated`."""
    if simulator == "pgx":
        import pgx

        return pgx.make(game)
    from ludax import LudaxEnvironment, games

    return LudaxEnvironment(game_str=getattr(games, game))


class Remote:
    """The simulators, in a process of their own: JAX runs threads, and a process running
    them must not fork, as `playouts` with 2 workers does. Each request is a method of
    `Batches` and its arguments; the answer is its result (an exception is raised here)."""

    def __init__(self) -> None:
        context = multiprocessing.get_context("spawn")
        self._conn, theirs = context.Pipe()
        self._process = context.Process(target=serve, args=(theirs,), daemon=True)
        self._process.start()

    def __call__(self, method: str, *args: Any) -> Any:
        self._conn.send((method, args))
        answer = self._conn.recv()
        if isinstance(answer, BaseException):
            raise answer
        return answer

    def close(self) -> None:
        self._conn.send(None)
        self._process.join(timeout=30)


def serve(conn: Any) -> None:
    """The simulators' process: answers `Remote`'s requests until it sends None. JAX and the
    simulators are imported, and a first function compiled, before any request, so that no
    game's jit time includes them."""
    import jax

    for simulator in SIMULATORS:
        if simulator_version(simulator):
            __import__(simulator)
    jax.jit(lambda x: x + 1)(0).block_until_ready()
    batches = Batches()
    while (request := conn.recv()) is not None:
        method, args = request
        try:
            conn.send(getattr(batches, method)(*args))
        except Exception as e:  # sent back, raised in the measuring process
            conn.send(e)


class Batches:
    """The compiled batches of the simulators' process, by simulator, game and size."""

    def __init__(self) -> None:
        self._found: dict[tuple[str, str, int], Batch] = {}

    def build(self, simulator: str, game: str, batch: int, seed: int
              ) -> tuple[float, float]:
        """Compile a batch and warm it up: its seconds to build and compile, and the mean
        length of its lanes' first games."""
        made = Batch(simulator, game, batch, seed)
        made.warm_up()
        self._found[simulator, game, batch] = made
        return made.compiled, made.plies

    def rate(self, simulator: str, game: str, batch: int, seconds: float) -> float:
        return self._found[simulator, game, batch].rate(seconds)

    def drop(self) -> None:
        """Forget every batch (their memory), once a game is measured."""
        self._found.clear()


class Batch:
    """B games of a JAX environment stepped together, compiled once: each call makes STEPS
    moves in every lane, a game that ends started again in its lane.

    Games per second are moves per second (B x STEPS a call) over the mean length of a game,
    the long-run rate of games ended. The mean length is measured on every lane's first game,
    played to its end in `warm_up`: counting the games that end within a timed window would
    favour the short ones (and, with lanes started together, count few or none of a long
    game)."""

    def __init__(self, simulator: str, game: str, batch: int, seed: int) -> None:
        import jax
        import jax.numpy as jnp

        began = time.perf_counter()
        env = environment(simulator, game)
        key = jax.random.PRNGKey(seed)
        fresh = jax.jit(jax.vmap(env.init))(jax.random.split(key, batch))
        step = jax.vmap(env.step)

        def restart(ended: Any, new: Any, old: Any) -> Any:
            return jnp.where(ended.reshape(ended.shape + (1,) * (old.ndim - 1)), new, old)

        def move(carry: Any, _: Any) -> tuple[Any, None]:
            state, plies, first, key, fresh = carry
            key, draw = jax.random.split(key)
            logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
            state = step(state, jax.random.categorical(draw, logits, axis=-1))
            plies = plies + 1
            ended = state.terminated | state.truncated
            state = jax.tree_util.tree_map(lambda n, o: restart(ended, n, o), fresh, state)
            first = jnp.where(ended & (first == 0), plies, first)
            return (state, jnp.where(ended, 0, plies), first, key, fresh), None

        def run(state: Any, plies: Any, first: Any, key: Any, fresh: Any) -> Any:
            out, _ = jax.lax.scan(move, (state, plies, first, key, fresh), None,
                                  length=STEPS)
            return out[:4]

        self._fresh = fresh
        zeros = jnp.zeros(batch, jnp.int32)
        # (state, plies of the game in each lane, length of each lane's first game, key)
        self._carry = (fresh, zeros, zeros, jax.random.fold_in(key, 1))
        self._run = jax.jit(run).lower(*self._carry, fresh).compile()
        self.compiled = time.perf_counter() - began
        self.batch = batch
        self.plies = math.nan  # the mean length of a game, once warmed up

    def run(self) -> Any:
        """One call: STEPS moves in every lane; the lengths of the lanes' first games (0 for
        a lane whose first game goes on), waited for."""
        self._carry = self._run(*self._carry, self._fresh)
        return self._carry[2].block_until_ready()

    def warm_up(self) -> None:
        """Play until every lane's first game has ended; their mean length."""
        while not (first := self.run()).all():
            pass
        self.plies = float(first.mean())

    def rate(self, seconds: float) -> float:
        """Moves per second over about `seconds` (at least one call)."""
        calls = 0
        start = time.perf_counter()
        while True:
            self.run()
            calls += 1
            elapsed = time.perf_counter() - start
            if elapsed >= seconds:
                return calls * STEPS * self.batch / elapsed


# -- measuring -------------------------------------------------------------------------------

def label(game: Game, match: Match) -> str:
    """Our game's name, and the simulators' where it is another ("Reversi (othello)")."""
    def letters(s: str) -> str:
        return "".join(c for c in s.lower() if c.isalnum())

    other = match.pgx or match.ludax or game.name
    base = other.replace("_9x9", "")
    return game.name if letters(base) in letters(game.name) else f"{game.name} ({base})"


def measure(match: Match, game: Game, remote: Remote | None, simulators: list[str],
            batches: list[int], seconds: float, runs: int, seed: int) -> Result:
    """`runs` rounds of short runs of every side, taken in turn."""
    native = kernel_for(game) is not None  # (loads or compiles it before any timing)
    result = Result(label(game, match), native)
    sides: list[tuple[str, int]] = [("ours", 1), ("ours", 2)]
    length: dict[str, float] = {}
    for simulator in simulators:
        name = getattr(match, simulator)
        if name is None or remote is None:
            continue
        result.theirs[simulator] = {}
        for b in batches:
            took, plies = remote("build", simulator, name, b, seed)
            result.theirs[simulator][b] = Side(plies=[plies], compiled=took)
            sides.append((simulator, b))
        found = result.theirs[simulator]  # the mean length over every batch's first games
        length[simulator] = sum(b * side.plies[0] for b, side in found.items()) / sum(found)
    share = seconds / (len(sides) * runs)
    # Warm-up: the kernel's loop, and the worker pool started (once per process) and handed
    # the game, as the simulators' batches are compiled and warmed up before timing.
    sized = ours_rate(game, 1, min(share, 0.2), seed, match.bound, 0.0)[0]
    ours_rate(game, 2, min(share, 0.2), seed, match.bound, sized)
    for r in range(runs):
        order = sides[r % len(sides):] + sides[:r % len(sides)]
        for who, n in order:
            if who == "ours":
                side = result.ours[n]
                rate, plies = ours_rate(game, n, share, seed + r, match.bound, sized)
                if n == 1:
                    sized = rate
                side.plies.append(plies)
            else:
                side = result.theirs[who][n]
                assert remote is not None
                rate = remote("rate", who, getattr(match, who), n, share) / length[who]
            side.rates.append(rate)
    if remote is not None:
        remote("drop")
    if not native:
        result.notes.append(f"interpreted: {why(game)}")
    result.notes += match.notes
    for simulator, found in result.theirs.items():
        result.notes.append(f"{simulator} by batch size: " + ", ".join(
            f"{b}: {format_rate(side.rate())} games/s, {side.plies[0]:.1f} plies (jit "
            f"{side.compiled:.1f} s)"
            for b, side in found.items()) + ".")
    return result


# -- the report ------------------------------------------------------------------------------

HEAD = ["game", "plies (ours / pgx / ludax)", "kernel games/s (1 worker)",
        "kernel games/s (2 workers)", "pgx games/s (batch)", "ours / pgx (1 / 2 workers)",
        "ludax games/s (batch)", "ours / ludax (1 / 2 workers)"]
COMPILE = ["compile s: kernel cold / cached", "jit s: pgx / ludax"]
NONE = "—"


def plies(sides: dict[int, Side]) -> str:
    """The mean length of the games of some sides (ours: one; a simulator's: its batch
    sizes', weighted by the games each counted), or a dash for none."""
    found = [(n, p) for n, side in sides.items() for p in side.plies if not math.isnan(p)]
    if not found:
        return NONE
    return f"{sum(n * p for n, p in found) / sum(n for n, _ in found):.1f}"


def rows(results: list[Result], compile_times: bool) -> list[list[str]]:
    body = []
    for r in results:
        best = {s: r.best(s) for s in SIMULATORS}
        ours = [format_rate(r.ours[n].rate()) + ("" if r.native else " (interpreted)")
                for n in (1, 2)]
        row = [r.label,
               " / ".join([plies({1: r.ours[1]}),
                           *(plies(r.theirs.get(s, {})) for s in SIMULATORS)]),
               *ours]
        for s in SIMULATORS:
            found = best[s]
            if found is None:
                row += [NONE, NONE]
                continue
            row.append(f"{format_rate(found[1].rate())} ({found[0]})")
            row.append(" / ".join(format_ratio(r.ratio(n, s) or 0.0) for n in (1, 2)))
        if compile_times:
            row.append(f"{r.compiled[0]:.1f} / {r.compiled[1]:.2f}" if r.compiled else NONE)
            row.append(" / ".join(f"{b[1].compiled:.1f}" if b and b[1].compiled is not None
                                  else NONE for b in best.values()))
        body.append(row)
    return body


def means(results: list[Result]) -> list[str]:
    """The geometric mean of each ratio column, and the lowest ratio, per simulator."""
    out = []
    for s in SIMULATORS:
        for n in (1, 2):
            found = [(r.ratio(n, s), r.label) for r in results if r.best(s) is not None]
            if not found:
                continue
            mean = math.exp(statistics.fmean(math.log(x) for x, _ in found if x))
            low = min(found)
            out.append(f"ours with {n} worker{'s' if n > 1 else ''} / {s}: geometric mean "
                       f"{format_ratio(mean)} over {len(found)} game"
                       f"{'s' if len(found) > 1 else ''}, lowest {format_ratio(low[0] or 0)} "
                       f"({low[1]})")
    return out


def report(results: list[Result], skipped: list[str], about: str, markdown: bool,
           compile_times: bool) -> str:
    head = [*HEAD, *COMPILE] if compile_times else HEAD
    body = rows(results, compile_times)
    out = [markdown_table(head, body) if markdown else text_table(head, body), ""]
    bullet = "- " if markdown else "  "
    out.append("Notes:\n" if markdown else "Notes:")
    for r in results:
        out += [f"{bullet}{r.label}: {note}" for note in r.notes]
    out += [f"{bullet}{s}" for s in skipped]
    out += [f"{bullet}{line}." for line in means(results)]
    out.append(f"{bullet}{about}")
    return "\n".join(out)


def select(names: str | None) -> list[Match]:
    """The games named (by our name, the game file's stem, pgx's or ludax's name), or all."""
    if names is None:
        return list(MATCHES)
    chosen = []
    for name in (n.strip() for n in names.split(",") if n.strip()):
        found = [m for m in MATCHES if name in (m.name, Path(m.file).stem, m.pgx, m.ludax)]
        if not found:
            raise ValueError(f"no game {name!r}; the games are "
                             f"{', '.join(m.name for m in MATCHES)}")
        chosen += [m for m in found if m not in chosen]
    return chosen


def numbers(text: str, what: str) -> list[int]:
    try:
        found = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise ValueError(f"{what}: comma-separated whole numbers, not {text!r}") from None
    if not found or min(found) < 1:
        raise ValueError(f"{what}: at least one number, each 1 or more")
    return found


def about(simulators: dict[str, str | None], args: argparse.Namespace) -> str:
    """The line saying what was measured where: machine, date, versions, timing."""
    versions = [f"{s} {v}" for s, v in simulators.items() if v]
    if versions:
        from importlib import metadata

        versions.insert(0, f"JAX {metadata.version('jax')}")
    try:
        import numba

        versions.insert(0, f"numba {numba.__version__}")
    except ImportError:
        pass
    load = " / ".join(f"{x:.1f}" for x in os.getloadavg())
    return (f"{platform.machine()} {platform.system()}, {os.cpu_count()} cores (load average "
            f"{load} at the end: other work shared them), "
            f"{datetime.date.today().isoformat()}; Python {platform.python_version()}, "
            f"{', '.join(versions)}; {args.runs} rounds per game, batch sizes "
            f"{args.batches}; a ratio is ours / the simulator's best batch, the median of "
            f"the per-round ratios (above 1: ludeme is faster).")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Random games per second of ludeme's kernels "
                                "against pgx and ludax (JAX), for the games they share.")
    p.add_argument("--seconds", type=float, default=60.0,
                   help="total measuring time, shared among the games (default 60)")
    p.add_argument("--games", default=None,
                   help="comma-separated games (default: all): "
                        + ",".join(m.name for m in MATCHES))
    p.add_argument("--runs", type=int, default=5,
                   help="rounds of short runs of every side, taken in turn (default 5)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--batches", default="64,256,1024",
                   help="the simulators' batch sizes (default 64,256,1024)")
    p.add_argument("--against", default="pgx,ludax",
                   help="the simulators to measure, or none (default pgx,ludax)")
    p.add_argument("--markdown", action="store_true", help="print Markdown")
    p.add_argument("--compile-times", action="store_true",
                   help="time each kernel's compilation, cold and cached (fresh processes)")
    p.add_argument("--write", action="store_true",
                   help=f"with compile times, save the Markdown in {OUTPUT.relative_to(ROOT)}")
    args = p.parse_args(argv)
    if args.seconds <= 0 or args.runs < 1:
        p.error("--seconds must be positive and --runs at least 1")
    try:
        matches = select(args.games)
        batches = numbers(args.batches, "--batches")
    except ValueError as e:
        p.error(str(e))
    wanted = [] if args.against.strip() == "none" else \
        [s.strip() for s in args.against.split(",") if s.strip()]
    unknown = [s for s in wanted if s not in SIMULATORS]
    if unknown:
        p.error(f"--against: no simulator {unknown[0]!r}; they are {', '.join(SIMULATORS)}")
    if not matches:
        p.error("--games names no game")
    versions = {s: simulator_version(s) for s in wanted}
    skipped = [f"{s} is not installed (pip install -e '.[bench-jax]'): not measured."
               for s, v in versions.items() if v is None]
    simulators = [s for s, v in versions.items() if v]
    compile_times = args.compile_times or args.write
    share = args.seconds / len(matches)
    results = []
    bar = terminal()
    remote = Remote() if simulators else None
    try:
        with progress_bar(len(matches), "games", bar) as advance:
            for match in matches:
                if bar is None:  # a log where no bar is drawn
                    print(f"{match.name}: {args.runs} rounds", file=sys.stderr, flush=True)
                game = load_game(GAMES / match.file, **match.options)
                result = measure(match, game, remote, simulators, batches, share, args.runs,
                                 args.seed)
                if compile_times and result.native:
                    result.compiled = compile_seconds(GAMES / match.file, match.options)
                results.append(result)
                advance(1)
    finally:
        if remote is not None:
            remote.close()
    line = about(versions, args)
    text = report(results, skipped, line, args.markdown or args.write, compile_times)
    print(text)
    if args.write:
        command = " ".join(["python benchmarks/batched.py",
                            *(argv if argv is not None else sys.argv[1:])])
        OUTPUT.parent.mkdir(parents=True, exist_ok=True)
        OUTPUT.write_text(f"<!-- written by {command} -->\n\n{text}\n", encoding="utf-8")
        print(f"wrote {OUTPUT.relative_to(ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
