"""`game.playouts(n, seed=..., workers=...)`: many random games, in bulk.

Every legal move is equally likely and chance outcomes come with their probabilities (the
moves `game.playout` makes). Game i is played with its own generator, seeded from the base
seed and i, so the results are the same whatever the number of workers; workers are local
processes, each building the game again from its text.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from interpreter.analyze import game_seed, run_local

if TYPE_CHECKING:
    from interpreter.game import Game


@dataclass
class Playouts:
    """What n random games did, one entry per game in order: the winner (a role name, or None
    for a draw or a game that did not end), the decisions made, and the reason the game ended
    ("" when it did not: no legal move, or the length bound)."""

    winners: list[str | None] = field(default_factory=list)
    lengths: list[int] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.winners)


@dataclass(frozen=True)
class _Task:
    text: str
    source: str
    options: tuple[tuple[str, object], ...]
    seed: int
    index: int
    max_plies: int | None


@lru_cache(maxsize=4)
def _built(text: str, source: str, options: tuple[tuple[str, object], ...]) -> Game:
    from interpreter import parse_game

    return parse_game(text, source, **dict(options))


def _one(game: Game, seed: int, max_plies: int | None) -> tuple[str | None, int, str]:
    state, plies = game.playout(random.Random(seed), max_plies)
    return state.winner, plies, state.reason if state.is_over else ""


def _play(task: _Task) -> tuple[str | None, int, str]:
    return _one(_built(task.text, task.source, task.options), task.seed, task.max_plies)


def playouts(game: Game, n: int, seed: int | None = None, workers: int = 1,
             max_plies: int | None = None) -> Playouts:
    """Play `n` random games of `game` (see the module's documentation); `seed` None draws
    one."""
    if n < 0:
        raise ValueError(f"playouts: n must be 0 or more, not {n}")
    base = seed if seed is not None else int.from_bytes(os.urandom(4), "big")
    out = Playouts()
    results: Iterator[tuple[str | None, int, str]]
    if workers <= 1 or n <= 1:
        results = (_one(game, game_seed(base, i), max_plies) for i in range(n))
    else:
        text, source = game.env.text or "", game.expansion.game.span.path
        options = tuple(sorted(game.options.items()))
        tasks = [_Task(text, source, options, game_seed(base, i), i, max_plies)
                 for i in range(n)]
        results = run_local(tasks, workers, _play)
    for winner, plies, reason in results:
        out.winners.append(winner)
        out.lengths.append(plies)
        out.reasons.append(reason)
    return out
