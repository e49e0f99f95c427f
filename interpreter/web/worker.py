"""A small pool of worker processes that run the playground's tasks under deadlines.

A game text is data, but the work it asks for — compiling it, playing random games, searching
for a move — is only bounded by budgets of the interpreter's own. So that one request can never
hold the server, every such task runs in a worker process: the server waits for the answer up
to a deadline and, past it, kills the worker (a new one is started when needed) and refuses the
request. A worker also limits its own memory where the platform allows.

Each worker is a fresh Python interpreter that imports only what the tasks need; there are at
most `size` of them; a task waits a while for a free worker, else the server is busy. Call
`close()` to stop them.
"""

from __future__ import annotations

import multiprocessing
import os
import socket
import subprocess
import sys
import threading
import time
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any

# The address space a worker may use (bytes), where the platform can limit it.
WORKER_MEMORY = 2 << 30


class WorkerError(Exception):
    """A task that did not give an answer: it ran out of time, the pool was busy, the worker
    died, or the task itself failed. The message is for the user."""


class TimedOut(WorkerError):
    """The task ran past its deadline (its worker was killed)."""


class Busy(WorkerError):
    """Every worker was busy for longer than the task would wait."""


def _worker_main(conn: Connection, memory: int | None) -> None:
    """A worker's loop: receive (task name, keyword arguments), send back ("ok", result) or
    ("error", message); None stops it (so does the server's end closing)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is for the server, which stops us
    if memory is not None:
        try:
            import resource

            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
        except (ImportError, ValueError, OSError):  # not on this platform: no limit
            pass
    from interpreter.web.tasks import TASKS

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
            reply: tuple[str, Any] = ("ok", TASKS[name](**kwargs))
        except MemoryError:
            reply = ("error", "the task ran out of memory")
        except Exception as exc:
            reply = ("error", f"{type(exc).__name__}: {exc}")
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
    """At most `size` worker processes, started when first needed."""

    def __init__(self, size: int = 2, memory: int | None = WORKER_MEMORY) -> None:
        self.size = max(1, size)
        self.memory = memory
        self._idle: list[_Worker] = []
        self._all: set[_Worker] = set()
        self._starting = 0
        self._closed = False
        self._cond = threading.Condition()

    def warm(self) -> None:
        """Start one worker now (if none is running), so that the first task need not wait
        for it."""
        with self._cond:
            if self._all or self._starting or self._closed:
                return
            self._starting += 1
        self._add_started()

    def _add_started(self) -> None:
        try:
            worker = _Worker(self.memory)
        finally:
            with self._cond:
                self._starting -= 1
                self._cond.notify_all()
        with self._cond:
            if self._closed:
                worker.stop(kill=True)
                return
            self._all.add(worker)
            self._idle.append(worker)
            self._cond.notify_all()

    def _acquire(self, wait: float) -> _Worker:
        deadline = time.monotonic() + wait
        with self._cond:
            while True:
                if self._closed:
                    raise WorkerError("the server is shutting down")
                if self._idle:
                    return self._idle.pop()
                if len(self._all) + self._starting < self.size:
                    self._starting += 1
                    break
                left = deadline - time.monotonic()
                if left <= 0:
                    raise Busy("the server is busy; try again in a moment")
                self._cond.wait(left)
        self._add_started()
        return self._acquire(max(0.0, deadline - time.monotonic()) + 5.0)

    def _release(self, worker: _Worker, healthy: bool) -> None:
        with self._cond:
            if healthy and not self._closed:
                self._idle.append(worker)
                self._cond.notify_all()
                return
            self._all.discard(worker)
            self._cond.notify_all()
        worker.stop(kill=True)

    def run(self, task: str, kwargs: dict[str, Any], timeout: float, wait: float = 10.0) -> Any:
        """Run a task in a worker and return its result. WorkerError if the task fails (its
        message), TimedOut if it takes more than `timeout` seconds, Busy if no worker is free
        within `wait` seconds. Blocks: call it from a thread, not the event loop."""
        worker = self._acquire(wait)
        healthy = False
        try:
            worker.wait_started()
            worker.conn.send((task, kwargs))
            if not worker.conn.poll(timeout):
                raise TimedOut(f"it took more than {timeout:g} s, and was stopped")
            status, value = worker.conn.recv()
            healthy = True
        except (EOFError, OSError, ValueError) as exc:  # it died, or the pool was closed
            raise WorkerError(f"the worker stopped unexpectedly ({type(exc).__name__})") \
                from None
        finally:
            self._release(worker, healthy)
        if status != "ok":
            raise WorkerError(str(value))
        return value

    def close(self) -> None:
        """Stop every worker (those running a task are killed)."""
        with self._cond:
            self._closed = True
            workers = list(self._all)
            idle = set(self._idle)
            self._all.clear()
            self._idle.clear()
            self._cond.notify_all()
        for worker in workers:
            worker.stop(kill=worker not in idle)
