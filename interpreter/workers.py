"""Local worker processes kept for the life of the process, for `game.playouts(...,
workers=k)`.

The first call that asks for workers starts the pool (forked, so the workers begin with what
this process had loaded: numba, the kernels, the games handed over with `keep_game`); later
calls reuse the same warm processes, each keeping the last games it built (and their
kernels), so a call pays neither the processes' start nor a kernel's load again. A call that
asks for another number of workers replaces the pool with one of that size. The pool is shut
down at exit (or by `shutdown`); a pool whose worker died is replaced on the next call.

Tasks name their game by its key (text, source path, options) and a worker builds the game
from that (`game_of`), so the game may differ from call to call.
"""

from __future__ import annotations

import atexit
import os
import signal
import threading
from collections import OrderedDict
from collections.abc import Callable, Generator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from interpreter.game import Game

GameKey = tuple[str, str, tuple[tuple[str, object], ...]]  # text, source, sorted options
T = TypeVar("T")
R = TypeVar("R")

KEPT = 4  # games each process keeps built (with their kernels)

_lock = threading.Lock()
_pool: ProcessPoolExecutor | None = None
_size = 0
_games: OrderedDict[GameKey, Game] = OrderedDict()


def game_key(game: Game) -> GameKey:
    """What a worker builds `game` again from: its text, source path and options."""
    return (game.env.text or "", game.expansion.game.span.path,
            tuple(sorted(game.options.items())))


def keep_game(key: GameKey, game: Game) -> None:
    """Keep `game` under its key in this process (the last KEPT games), where `game_of`
    finds it: workers forked after this begin with it (and its kernel, once loaded)."""
    _games[key] = game
    _games.move_to_end(key)
    while len(_games) > KEPT:
        _games.popitem(last=False)


def game_of(key: GameKey) -> Game:
    """The game of a key: the one kept in this process, else built from its text (and kept)."""
    found = _games.get(key)
    if found is None:
        from interpreter import parse_game

        text, source, options = key
        found = parse_game(text, source, **dict(options))
    keep_game(key, found)
    return found


def pool(workers: int) -> ProcessPoolExecutor:
    """The process-wide pool of `workers` processes: started on first use, and replaced
    when another number is asked for."""
    global _pool, _size
    with _lock:
        if _pool is not None and _size != workers:
            _pool.shutdown(wait=True, cancel_futures=True)
            _pool = None
        if _pool is None:
            _pool = ProcessPoolExecutor(max_workers=workers, initializer=_worker_init)
            _size = workers
        return _pool


def shutdown(wait: bool = True) -> None:
    """Stop the pool's processes (a later call starts a new pool)."""
    global _pool, _size
    with _lock:
        found, _pool, _size = _pool, None, 0
    if found is not None:
        found.shutdown(wait=wait, cancel_futures=True)


def run(play: Callable[[T], R], tasks: Sequence[T], workers: int, chunksize: int = 1
        ) -> Generator[R, None, None]:
    """`play(task)` for every task on the pool's `workers` processes, the results in the
    tasks' order. `play` is a module-level function. A task's error is raised here, the
    tasks not started dropped; a pool found broken (a worker died) is replaced once before
    the tasks are handed out, and dropped after; an interruption (Ctrl-C, or the consumer
    giving up) drops the tasks not started and the pool with them (its workers end once
    their task is done), so that the next call does not wait for them."""
    try:
        results = pool(workers).map(play, tasks, chunksize=chunksize)
    except BrokenProcessPool:
        shutdown(wait=False)
        results = pool(workers).map(play, tasks, chunksize=chunksize)
    try:
        yield from results
    except BrokenProcessPool:
        shutdown(wait=False)
        raise
    except Exception:  # a task's own error: the pool is as good as before
        raise
    except BaseException:  # Ctrl-C, or the consumer gave up
        shutdown(wait=False)
        raise


def processes() -> list[int]:
    """The process ids of the pool's workers (none before the first use or after shutdown)."""
    with _lock:
        found = _pool
    if found is None:
        return []
    return sorted(p.pid for p in getattr(found, "_processes", {}).values()
                  if p.pid is not None)


def _worker_init() -> None:
    """Workers leave Ctrl-C to the main process, which stops the run."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _forget() -> None:
    """In a forked child: the parent's pool is not this process's."""
    global _pool, _size, _lock
    _pool, _size, _lock = None, 0, threading.Lock()


def _at_exit(*_: Any) -> None:
    shutdown(wait=True)


os.register_at_fork(after_in_child=_forget)
atexit.register(_at_exit)
