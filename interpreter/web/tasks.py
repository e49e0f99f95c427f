"""What the playground's worker processes do with a game text: compile and check it, play
random games, make the computer's agent. Each function takes and returns plain data (it
crosses a process boundary), and each is a pure function of its arguments (the seed
included), so it gives the same answer in a worker or in this process. `gamework` does the
rest: a session's game.

A worker keeps the last few games it compiled (a game text and its options), so that checking
the same text again, or the next request about the same game, costs little.
"""

from __future__ import annotations

import math
import random
import time
import traceback
from collections import Counter
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

import stdlib
from dsl.ast import Span
from dsl.errors import Diagnostic, GameError, RuleError
from dsl.expand import Option, expand
from dsl.parser import parse
from interpreter import parse_game
from interpreter.agents import Agent, make_agent
from interpreter.analyze import Turns, ending_names, wilson
from interpreter.game import Game, State
from stdlib.runtime import Move

# The longest game text accepted (the shipped games are at most a few thousand characters).
MAX_TEXT = 100_000
# The computer's search: at most this many seconds a move, whatever its spelling asks for.
MAX_THINK_SECONDS = 5.0
# Random games in one validation request.
MAX_PLAYOUTS = 2000
MAX_PLAYOUT_SECONDS = 15.0

Options = tuple[tuple[str, Any], ...]


def option_key(options: dict[str, Any]) -> Options:
    """Options as a hashable key, in name order."""
    return tuple(sorted(options.items()))


@lru_cache(maxsize=8)
def compiled(text: str, source: str, options: Options) -> Game:
    """The game a text describes with these options (RuleError if it has errors)."""
    if len(text) > MAX_TEXT:
        raise RuleError([Diagnostic(Span(source, 1, 1), f"the game text is too long: {len(text)} "
                                    f"characters, at most {MAX_TEXT}")])
    return parse_game(text, source, **dict(options))


def diagnostic(d: Diagnostic, source: str) -> dict[str, Any]:
    """A diagnostic as data: where (line and column, 1-based; `here` False when the place is
    not in the game text itself, e.g. in the shared library), what, and how serious."""
    span = d.span
    return {"line": span.line, "column": span.column,
            "end_line": span.end_line or span.line,
            "end_column": span.end_column or span.column + 1,
            "message": d.message, "severity": d.severity, "note": d.full_note(),
            "here": span.path == source}


def option_info(o: Option) -> dict[str, Any]:
    """An option's declaration, as the page builds its control from it."""
    kind = {bool: "bool", int: "int", float: "float", str: "str"}.get(o.kind, "str")
    return {"name": o.name, "kind": kind, "default": o.default, "min": o.minimum,
            "max": o.maximum, "choices": None if o.choices is None else list(o.choices),
            "doc": o.doc}


def declared_options(text: str, source: str) -> list[dict[str, Any]] | None:
    """The options a game text declares, or None when its declarations cannot be read (the
    text does not parse, or the declarations themselves are wrong)."""
    if len(text) > MAX_TEXT:
        return None
    try:
        nodes = parse(text, source)
        expansion = expand(nodes, {}, prelude=list(stdlib.prelude()), text=text, path=source,
                           strict=False)
    except GameError:
        return None
    return [option_info(o) for o in expansion.declared.values()]


def check(text: str, source: str, options: dict[str, Any]) -> dict[str, Any]:
    """Check a game text with options (those it does not declare are left out): its
    diagnostics (errors, or the warnings of a valid game), its declared options, and, when it
    compiles, its name, roles and number of sites."""
    declared = declared_options(text, source)
    if declared is not None:
        names = {o["name"] for o in declared}
        options = {k: v for k, v in options.items() if k in names}
    out: dict[str, Any] = {"options": declared, "values": options}
    try:
        game = compiled(text, source, option_key(options))
    except RuleError as exc:
        out.update(ok=False, diagnostics=[diagnostic(d, source) for d in exc.diagnostics])
        return out
    except Exception as exc:  # a bug in the interpreter: say so, at the top of the file
        out.update(ok=False, diagnostics=[{
            "line": 1, "column": 1, "end_line": 1, "end_column": 2, "severity": "error",
            "message": f"internal error while compiling: {type(exc).__name__}: {exc}",
            "note": None, "here": True}])
        return out
    out.update(ok=True, diagnostics=[diagnostic(d, source) for d in game.warnings],
               name=game.name, players=list(game.players), sites=len(game.sites),
               values=dict(game.options))
    return out


def bounded_agent(spec: str, seed: int | None) -> Agent:
    """The agent a spelling names (ValueError if none), its search limited to
    MAX_THINK_SECONDS a move."""
    if len(spec) > 40:
        raise ValueError("an agent's spelling is at most 40 characters")
    agent = make_agent(spec, seed)
    budget = getattr(agent, "budget", None)
    if budget is not None:
        budget.seconds = min(budget.seconds or MAX_THINK_SECONDS, MAX_THINK_SECONDS)
    return agent


def playouts(text: str, source: str, options: dict[str, Any], n: int, seed: int,
             seconds: float = MAX_PLAYOUT_SECONDS) -> dict[str, Any]:
    """Play up to `n` random games (stopping after `seconds`, even within a game) and report
    what they showed: wins per role with 95% Wilson intervals, draws, lengths in turns (with
    a histogram), how games ended and the end conditions that never did, games that hit the
    length bound, and positions where the player to move had no move though the game was not
    over (the first one drawn)."""
    from interpreter.svg import render_svg

    game = compiled(text, source, option_key(options))
    n = max(0, min(n, MAX_PLAYOUTS))
    rng = random.Random(seed)
    bound = 20 * len(game.sites)
    began = time.perf_counter()
    wins: Counter[str] = Counter()
    endings: Counter[str] = Counter()
    lengths: list[int] = []
    draws = bound_hits = played = 0
    stuck: list[State] = []
    crashes: list[str] = []
    while played < n and time.perf_counter() - began < seconds:
        played += 1
        turns = Turns()
        try:
            state, plies = game.playout(rng, bound, observe=timed(turns, began + seconds))
        except OutOfTime:  # the game under way is not counted
            played -= 1
            break
        except Exception:
            crashes.append(traceback.format_exc(limit=6))
            continue
        lengths.append(turns.count)
        if state.is_over:
            endings[state.reason] += 1
            if state.winner is None:
                draws += 1
            else:
                wins[state.winner] += 1
        elif plies >= bound:
            bound_hits += 1
        else:
            stuck.append(state)
    games = played - len(crashes)
    names = ending_names(game)

    def rate(count: int) -> dict[str, Any]:
        low, high = wilson(count, games)
        return {"count": count, "rate": count / games if games else 0.0, "low": low,
                "high": high}

    first = stuck[0] if stuck else None
    return {
        "game": game.name, "requested": n, "games": games, "played": played,
        "stopped_early": played < n, "seconds": time.perf_counter() - began, "seed": seed,
        "roles": [{"role": role, **rate(wins[role])} for role in game.players],
        "draws": rate(draws),
        "length": {"mean": sum(lengths) / len(lengths) if lengths else 0.0,
                   "min": min(lengths, default=0), "max": max(lengths, default=0),
                   "histogram": histogram(lengths)},
        "endings": [{"reason": names.get(r, r), "count": c} for r, c in endings.most_common()],
        "never": [names.get(r, r) for r in dict.fromkeys(game.end_reasons())
                  if r not in endings] if games else [],
        "bound": bound, "bound_hits": bound_hits,
        "stuck": {"count": len(stuck), "text": None if first is None else first.to_text(),
                  "svg": None if first is None else render_svg(first, cell=32)},
        "crashes": {"count": len(crashes), "first": crashes[0] if crashes else None},
    }


class OutOfTime(Exception):
    """Random games ran out of their time (raised inside a game, between two decisions)."""


def timed(turns: Turns, deadline: float) -> Callable[[State, Sequence[Move]], None]:
    """An observer for Game.playout that counts turns and stops the game at `deadline` (a
    time.perf_counter() value): a long game cannot overrun the time random games have."""
    def observe(state: State, moves: Sequence[Move]) -> None:
        if time.perf_counter() > deadline:
            raise OutOfTime
        turns.decided(state, moves)
    return observe


def histogram(values: list[int], bins: int = 12) -> list[dict[str, int]]:
    """Counts of `values` in at most `bins` bins of equal width, each [low, high] inclusive."""
    if not values:
        return []
    low, high = min(values), max(values)
    width = max(1, math.ceil((high - low + 1) / bins))
    counts: Counter[int] = Counter((v - low) // width for v in values)
    return [{"low": low + i * width, "high": min(high, low + (i + 1) * width - 1),
             "count": counts[i]} for i in range((high - low) // width + 1)]
