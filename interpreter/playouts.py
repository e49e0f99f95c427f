"""`game.playouts(n, seed=..., workers=...)`: many random games, in bulk.

Every legal move is equally likely and chance outcomes come with their probabilities (the
moves `game.playout` makes). Game i is played with its own generator, seeded from the base
seed and i, so the results are the same whatever the number of workers. Workers are local
processes of a pool kept between calls (interpreter/workers.py): started by the first call
that asks for them, they keep the games they built, so later calls find them warm.

When the game has a kernel (interpreter/kernel: its rules compiled to native code, with the
`kernels` extra) the games are played there, each still from its own seed, so again the same
whatever the number of workers (a worker has the kernel from this process, forked, or loads
it from the disk cache); each worker gets a few runs of consecutive games and derives their
seeds itself. The
kernel draws its moves with its own generator: a seed gives other games than the interpreter
would play from it, but always the same ones. `kernel=False` plays interpreted; `kernel=True`
requires the kernel (a GameError says why there is none).
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from dsl.errors import GameError
from interpreter.analyze import game_seed
from interpreter.workers import GameKey, game_key, game_of, keep_game
from interpreter.workers import run as run_workers

if TYPE_CHECKING:
    import numpy as np

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


CHUNKS = 4  # tasks per worker of a call in a kernel


def game_seeds(base: int, start: int, count: int) -> np.ndarray:
    """The seeds of games start, ..., start + count - 1 from the base seed (game_seed), in
    native code (the kernel path has numba)."""
    from interpreter.kernel.seeds import game_seeds as native_seeds

    return native_seeds(base, start, count)


@dataclass(frozen=True)
class _Task:
    key: GameKey
    seed: int
    max_plies: int | None


def _one(game: Game, seed: int, max_plies: int | None) -> tuple[str | None, int, str]:
    state, plies = game.playout(random.Random(seed), max_plies)
    return state.winner, plies, state.reason if state.is_over else ""


def _play(task: _Task) -> tuple[str | None, int, str]:
    return _one(game_of(task.key), task.seed, task.max_plies)


@dataclass(frozen=True)
class _KernelTask:
    """Games start, start + 1, ..., start + count - 1 of a call with this base seed."""

    key: GameKey
    base: int
    start: int
    count: int
    max_plies: int | None


def _play_kernel(task: _KernelTask) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    kernel = chosen_kernel(game_of(task.key), True)
    assert kernel is not None
    return kernel.play(game_seeds(task.base, task.start, task.count), task.max_plies)


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
        if workers <= 1 or n <= 1:
            return native.playouts(game_seeds(base, 0, n), max_plies)
        key = game_key(game)
        keep_game(key, game)  # workers forked from here on begin with it and its kernel
        # A few tasks per worker: balanced on a busy machine, each worth its message.
        tasks = min(n, CHUNKS * workers)
        size = -(-n // tasks)
        parts = list(run_workers(_play_kernel, [
            _KernelTask(key, base, i, min(size, n - i), max_plies)
            for i in range(0, n, size)], workers))
        import numpy as np  # (the kernels' extra brings numpy)

        return native.results(*(np.concatenate(a) for a in zip(*parts, strict=True)))
    out = Playouts()
    results: Iterator[tuple[str | None, int, str]]
    if workers <= 1 or n <= 1:
        results = (_one(game, game_seed(base, i), max_plies) for i in range(n))
    else:
        key = game_key(game)
        keep_game(key, game)
        # Small chunks: the work stays balanced, and Ctrl-C waits for a few games at most.
        results = run_workers(_play, [_Task(key, game_seed(base, i), max_plies)
                                      for i in range(n)], workers,
                              max(1, min(4, n // (workers * 8))))
    for winner, plies, reason in results:
        out.winners.append(winner)
        out.lengths.append(plies)
        out.reasons.append(reason)
    return out
