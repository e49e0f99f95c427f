"""What the benchmark scripts share: the random-game loops they time, the timing loop, and how
rates and tables are printed.

Every loop returns the number of moves (plies) it made; chance outcomes (dice) count as
moves and are drawn with their probabilities, as `game.playout` draws them. The ludeme loops
stop at `bound` moves when a game does not end (the scripts pass `game.playout`'s bound, 20
moves per site, unless a game needs more), and when no move is possible; an OpenSpiel game
ends by its own rules.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from interpreter.game import Game


def public_playout(game: Game, rng: random.Random, bound: int) -> int:
    """One random game through the public API only; the number of moves made."""
    state = game.initial_state()
    plies = 0
    while not state.is_over and plies < bound:
        if state.is_chance:  # dice: an outcome drawn by its probability
            state = state.play(game.draw(state, rng))
            plies += 1
            continue
        moves = state.legal_moves()
        if not moves:
            break
        state = state.play(rng.choice(moves))
        plies += 1
    return plies


def fast_playout(game: Game, rng: random.Random, bound: int) -> int:
    """One random game by `game.playout`, the interpreter's own loop (the same choices as
    `public_playout` for the same generator)."""
    _, plies = game.playout(rng, bound)
    return plies


def action_playout(game: Game, rng: random.Random, bound: int | None = None) -> int:
    """One random game through ludeme's integer actions (`state.legal_actions()`,
    `state.apply_action(a)`), the loop an OpenSpiel user writes, on ludeme's own states."""
    state = game.initial_state()
    plies = 0
    while not state.is_over and (bound is None or plies < bound):
        if state.is_chance:  # dice: an outcome drawn by its probability
            state = state.play(game.draw(state, rng))
            plies += 1
            continue
        actions = state.legal_actions()
        if not actions:
            break
        state = state.apply_action(rng.choice(actions))
        plies += 1
    return plies


def spiel_playout(game: Any, rng: random.Random) -> int:
    """One random game through OpenSpiel's API (a `pyspiel.Game`, or ludeme's through the
    adapter); the number of actions made."""
    state = game.new_initial_state()
    plies = 0
    while not state.is_terminal():
        if state.is_chance_node():  # dice: an outcome drawn by its probability
            outcomes = state.chance_outcomes()
            point, chosen = rng.random(), outcomes[-1][0]
            for outcome, probability in outcomes:
                point -= probability
                if point < 0:
                    chosen = outcome
                    break
            state.apply_action(chosen)
            plies += 1
            continue
        actions = state.legal_actions()
        if not actions:  # a rule the game leaves out (Breakthrough: a player who cannot move)
            break
        state.apply_action(rng.choice(actions))
        plies += 1
    return plies


def rate(play: Callable[[Any, random.Random], int], game: Any, seconds: float,
         seed: int) -> tuple[float, list[int]]:
    """Playouts per second over about `seconds` (at least one game), and the games' lengths."""
    rng = random.Random(seed)
    lengths = []
    start = time.perf_counter()
    while True:
        lengths.append(play(game, rng))
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return len(lengths) / elapsed, lengths


def format_rate(x: float) -> str:
    """A rate for a table: whole numbers from 100 up, one decimal below."""
    return f"{x:,.0f}" if x >= 100 else f"{x:,.1f}"


def markdown_table(head: list[str], body: list[list[str]]) -> str:
    """A Markdown table with its columns padded to one width: the first column left-aligned,
    the others right-aligned."""
    widths = [max(len(h), *(len(b[i]) for b in body)) if body else len(h)
              for i, h in enumerate(head)]

    def line(cells: list[str]) -> str:
        out = []
        for i, (cell, w) in enumerate(zip(cells, widths, strict=True)):
            out.append(cell.ljust(w) if i == 0 else cell.rjust(w))
        return "| " + " | ".join(out) + " |"

    rule = "|" + "|".join("-" * (w + 1) + (":" if i else "-") for i, w in enumerate(widths)) \
        + "|"
    return "\n".join([line(head), rule, *(line(b) for b in body)])
