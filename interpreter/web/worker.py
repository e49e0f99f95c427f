"""A small pool of worker processes that do all the playground's work on games, each task
under a deadline and every worker under a memory cap.

A game text is data, but the work it asks for — compiling it, listing legal moves, replaying a
record, playing random games, searching for a move — is bounded only by budgets of the
interpreter's own, and may take minutes or gigabytes. So all of it runs in worker processes,
never in the server's: the server awaits the answer (its event loop stays free: a task waits
for a worker without holding a thread, and the thread that waits for the answer is one of a
few) and, past the task's deadline, kills the worker and says the task took too long. A worker
limits its own address space (`WORKER_MEMORY`, where the platform allows): a task that needs
more gets a MemoryError and the worker is replaced; a worker whose resident memory has grown
past `WORKER_RECYCLE` after a task is replaced too, so memory is given back.

There are at most `size` workers, and while there may be more, one is kept ready. A task names
the session it is for (`key`): it goes to the worker that served that session last if that
one is free (its caches know the session's game), else to any free one. A task waits a while
for a free worker, else the server is busy. Each worker is a fresh Python interpreter that
imports only what the tasks need. Call `close()` to stop them.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import socket
import subprocess
import sys
import threading
from collections import OrderedDict
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any

# The address space a worker may use (bytes), where the platform can limit it.
WORKER_MEMORY = 2 << 30
# A worker whose resident memory exceeds this after a task is replaced by a fresh one.
WORKER_RECYCLE = 512 << 20


class WorkerError(Exception):
    """A task that did not give an answer: it ran out of time or memory, the pool was busy,
    the worker died, or the task itself failed. The message is for the user."""


class TimedOut(WorkerError):
    """The task ran past its deadline (its worker was killed)."""


class OutOfMemory(WorkerError):
    """The task needed more memory than a worker may have (its worker was replaced)."""


class Busy(WorkerError):
    """Every worker was busy for longer than the task would wait."""


def resident_bytes() -> int:
    """This process's resident memory (bytes), from /proc; 0 where that cannot be read."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


def _worker_main(conn: Connection, memory: int | None) -> None:
    """A worker's loop: receive (task name, keyword arguments), send back ("ok", result,
    retire) or ("error" or "memory", message, retire), `retire` saying the worker should be
    replaced; None stops it (so does the server's end closing)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is for the server, which stops us
    if memory is not None:
        try:
            import resource

            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
        except (ImportError, ValueError, OSError):  # not on this platform: no limit
            pass
    from interpreter.web.gamework import TASKS

    conn.send("ready")  # deadlines count from here: start-up is not a task's time
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        name, kwargs = message
        try:
            reply: tuple[str, Any, bool] = ("ok", TASKS[name](**kwargs), False)
        except MemoryError:
            reply = ("memory", "it needed too much memory", True)
        except RecursionError:
            reply = ("error", "it nests too deeply", True)
        except Exception as exc:
            reply = ("error", f"{type(exc).__name__}: {exc}", False)
        if resident_bytes() > WORKER_RECYCLE:
            reply = (reply[0], reply[1], True)
        try:
            conn.send(reply)
        except (OSError, ValueError):
            return


class _Worker:
    """One worker process and our end of the socket (a pipe on Windows) to it.

    On POSIX the worker is a fresh `python -c` that imports this module from where this
    process did, talking over a socket pair: unlike multiprocessing's spawn, it never imports
    the server's main module (a script, a notebook, stdin). On Windows, multiprocessing's
    spawn it is."""

    def __init__(self, memory: int | None) -> None:
        self.process: subprocess.Popen[bytes] | None = None
        self.spawned: BaseProcess | None = None
        if os.name == "nt":  # pragma: no cover - no socket passing there
            context = multiprocessing.get_context("spawn")
            ours, theirs = context.Pipe()
            self.spawned = context.Process(target=_worker_main, args=(theirs, memory),
                                           daemon=True, name="ludeme-web-worker")
            self.spawned.start()
            theirs.close()
            self.conn = ours
        else:
            mine, child = socket.socketpair()
            root = str(Path(__file__).resolve().parents[2])
            code = (f"import sys; sys.path.insert(0, {root!r}); "
                    "from interpreter.web.worker import main; main()")
            try:
                self.process = subprocess.Popen(
                    [sys.executable, "-c", code, str(child.fileno()), str(memory or 0)],
                    pass_fds=(child.fileno(),), stdin=subprocess.DEVNULL)
            except BaseException:
                mine.close()
                raise
            finally:
                child.close()
            self.conn = Connection(mine.detach())
        self.stopped = False
        self.started = False
        self.lock = threading.Lock()

    def wait_started(self, timeout: float = 60.0) -> None:
        """Wait until the process has imported what the tasks need (WorkerError if it does
        not within `timeout` seconds)."""
        if self.started:
            return
        if not self.conn.poll(timeout) or self.conn.recv() != "ready":
            raise WorkerError("a worker process did not start")
        self.started = True

    def call(self, task: str, kwargs: dict[str, Any], timeout: float) -> tuple[str, Any, bool]:
        """Send a task and wait for its reply (blocks: call it from a thread). TimedOut after
        `timeout` seconds (the caller then stops this worker), WorkerError if it died."""
        try:
            self.conn.send((task, kwargs))
            if not self.conn.poll(timeout):
                raise TimedOut(f"more than {timeout:g} s")
            reply: tuple[str, Any, bool] = self.conn.recv()
        except (EOFError, OSError, ValueError) as exc:  # it died (out of memory?) or was closed
            raise WorkerError(f"the worker stopped unexpectedly ({type(exc).__name__}); it may "
                              "have run out of memory") from None
        return reply

    def alive(self) -> bool:
        if self.process is not None:
            return self.process.poll() is None
        return self.spawned is not None and self.spawned.is_alive()

    def join(self, timeout: float) -> None:
        if self.process is not None:
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                pass
        elif self.spawned is not None:
            self.spawned.join(timeout)

    def stop(self, kill: bool = False) -> None:
        """Stop the process: ask it to leave (or kill it), wait for it, and close the
        connection (once; later calls do nothing)."""
        with self.lock:
            if self.stopped:
                return
            self.stopped = True
            self._stop(kill)

    def _stop(self, kill: bool) -> None:
        if not kill and self.alive():
            try:
                self.conn.send(None)
            except (OSError, ValueError):
                kill = True
            self.join(2)
        if self.alive():
            if self.process is not None:
                self.process.kill()
            elif self.spawned is not None:
                self.spawned.kill()
        self.join(5)
        self.conn.close()
        if self.spawned is not None:
            self.spawned.close()


def main() -> None:
    """A worker process's entry point (see _Worker): argv is the socket's descriptor and the
    memory limit in bytes (0: none)."""
    fd, memory = int(sys.argv[1]), int(sys.argv[2])
    _worker_main(Connection(fd), memory or None)




class WorkerPool:
    """At most `size` worker processes; tasks are run with `await pool.run(...)` on one event
    loop (the server's), which is also where the pool's bookkeeping happens."""

    def __init__(self, size: int = 4, memory: int | None = WORKER_MEMORY) -> None:
        self.size = max(1, size)
        self.memory = memory
        self._idle: list[_Worker] = []
        self._all: set[_Worker] = set()
        self._starting = 0
        self._closed = False
        self._served: OrderedDict[str, _Worker] = OrderedDict()  # session -> worker, lately
        self._changed: asyncio.Condition | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._background: set[asyncio.Task[_Worker | None]] = set()

    def _condition(self) -> asyncio.Condition:
        loop = asyncio.get_running_loop()
        if self._changed is None or self._loop is not loop:
            self._changed, self._loop = asyncio.Condition(), loop
        return self._changed

    async def warm(self, count: int = 1) -> None:
        """Start workers now, up to `count`, so that the first tasks need not wait."""
        await asyncio.gather(*(self._start() for _ in
                               range(max(0, min(count, self.size) - len(self._all)))))

    async def _start(self) -> _Worker | None:
        """Start a worker and add it to the idle ones (None if the pool closed meanwhile)."""
        self._starting += 1
        try:
            worker = await asyncio.to_thread(_started, self.memory)
        finally:
            self._starting -= 1
        changed = self._condition()
        async with changed:
            if self._closed:
                worker.stop(kill=True)
                return None
            self._all.add(worker)
            self._idle.append(worker)
            changed.notify_all()
        return worker

    def _spare(self) -> None:
        """Start a worker in the background, so that the next task finds one ready."""
        task = asyncio.get_running_loop().create_task(self._start())
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _acquire(self, key: str | None, wait: float) -> _Worker:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + wait
        changed = self._condition()
        while True:
            async with changed:
                if self._closed:
                    raise WorkerError("the server is shutting down")
                if self._idle:
                    mine = self._served.get(key) if key is not None else None
                    worker = mine if mine in self._idle else self._idle[-1]
                    self._idle.remove(worker)
                    if not self._idle and len(self._all) + self._starting < self.size:
                        self._spare()
                    return worker
                if len(self._all) + self._starting >= self.size:
                    left = deadline - loop.time()
                    if left <= 0:
                        raise Busy("the server is busy; try again in a moment")
                    try:
                        await asyncio.wait_for(changed.wait(), left)
                    except TimeoutError:
                        pass
                    continue
            await self._start()

    async def _release(self, worker: _Worker, healthy: bool, key: str | None) -> None:
        changed = self._condition()
        async with changed:
            if key is not None:
                self._served[key] = worker
                self._served.move_to_end(key)
                while len(self._served) > 1000:
                    self._served.popitem(last=False)
            if healthy and not self._closed:
                self._idle.append(worker)
            else:
                self._all.discard(worker)
            changed.notify_all()
        if not healthy:
            await asyncio.to_thread(worker.stop, True)
            if not self._closed and not self._idle and len(self._all) + self._starting < \
                    self.size:
                self._spare()  # replace it now, before the next task waits for it

    async def run(self, task: str, kwargs: dict[str, Any], timeout: float,
                  key: str | None = None, wait: float = 10.0) -> Any:
        """Run a task in a worker (the one that last served `key`, if free) and return its
        result. TimedOut if it takes more than `timeout` seconds, OutOfMemory if it needs more
        than a worker may have, Busy if no worker is free within `wait` seconds, WorkerError
        if the task fails (its message)."""
        worker = await self._acquire(key, wait)
        healthy = False
        try:
            status, value, retire = await asyncio.to_thread(worker.call, task, kwargs, timeout)
            healthy = not retire
        finally:
            await self._release(worker, healthy, key)
        if status == "memory":
            raise OutOfMemory(str(value))
        if status != "ok":
            raise WorkerError(str(value))
        return value

    def close(self) -> None:
        """Stop every worker (those running a task are killed)."""
        self._closed = True
        workers, idle = list(self._all), set(self._idle)
        self._all.clear()
        self._idle.clear()
        for worker in workers:
            worker.stop(kill=worker not in idle)


def _started(memory: int | None) -> _Worker:
    """A new worker, once it is ready for tasks."""
    worker = _Worker(memory)
    try:
        worker.wait_started()
    except BaseException:
        worker.stop(kill=True)
        raise
    return worker
