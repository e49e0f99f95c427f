"""`game.playouts(n, seed=..., workers=...)`: many random games, in bulk.

Every legal move is equally likely and chance outcomes come with their probabilities (the
moves `game.playout` makes). Game i is played with its own generator, seeded from the base
seed and i, so the results are the same whatever the number of workers; workers are local
processes, each building the game again from its text.

When the game has a kernel (interpreter/kernel: its rules compiled to native code, with the
`kernels` extra) the games are played there, each still from its own seed, so again the same
whatever the number of workers (each worker loads the kernel from the disk cache). The
kernel draws its moves with its own generator: a seed gives other games than the interpreter
would play from it, but always the same ones. `kernel=False` plays interpreted; `kernel=True`
requires the kernel (a GameError says why there is none).
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from dsl.errors import GameError
from interpreter.analyze import game_seed, run_local

if TYPE_CHECKING:
    from interpreter.game import Game
    from interpreter.kernel.kernel import Kernel


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


@dataclass(frozen=True)
class _KernelTask:
    text: str
    source: str
    options: tuple[tuple[str, object], ...]
    seeds: tuple[int, ...]
    max_plies: int | None


def _play_kernel(task: _KernelTask) -> Playouts:
    game = _built(task.text, task.source, task.options)
    kernel = chosen_kernel(game, True)
    assert kernel is not None
    return kernel.playouts(list(task.seeds), task.max_plies)


def chosen_kernel(game: Game, kernel: bool | None) -> Kernel | None:
    """The kernel to play `game` in: None for `kernel=False`, or when there is none and
    `kernel` is None; `kernel=True` without one is a GameError saying why (see
    `kernel_reason`)."""
    if kernel is False:
        return None
    from interpreter.kernel import kernel_for

    found = kernel_for(game)
    if found is None and kernel:
        raise GameError(f"{game.name} has no kernel: {kernel_reason(game)}")
    return found


def kernel_reason(game: Game) -> str:
    """Why `game` runs interpreted: numba missing, or the form without a lowering
    (`file:line:col: reason`, from why_interpreted)."""
    from interpreter.kernel import available, why_interpreted

    why = why_interpreted(game)
    if why is not None:
        return why
    if not available():
        return "numba is not installed (pip install 'ludeme[kernels]')"
    return "its kernel could not be loaded"


def playouts(game: Game, n: int, seed: int | None = None, workers: int = 1,
             max_plies: int | None = None, kernel: bool | None = None) -> Playouts:
    """Play `n` random games of `game` (see the module's documentation); `seed` None draws
    one; `kernel` None plays in the game's kernel when it has one."""
    if n < 0:
        raise ValueError(f"playouts: n must be 0 or more, not {n}")
    base = seed if seed is not None else int.from_bytes(os.urandom(4), "big")
    native = chosen_kernel(game, kernel)
    if native is not None:
        seeds = [game_seed(base, i) for i in range(n)]
        if workers <= 1 or n <= 1:
            return native.playouts(seeds, max_plies)
        text, source = game.env.text or "", game.expansion.game.span.path
        options = tuple(sorted(game.options.items()))
        size = -(-n // min(workers, n))
        chunks = [_KernelTask(text, source, options, tuple(seeds[i:i + size]), max_plies)
                  for i in range(0, n, size)]
        out = Playouts()
        for part in run_local(chunks, workers, _play_kernel):
            out.winners += part.winners
            out.lengths += part.lengths
            out.reasons += part.reasons
        return out
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
