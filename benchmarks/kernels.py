"""Measuring game kernels (interpreter/kernel) for the benchmarks: random playouts per second
in native code, and the time a kernel takes to compile, cold and cached.

- `kernel_rate`: games played by `Kernel.playouts` (one native random game per seed) in
  batches that double until the time is spent, so the Python call's cost is spread over
  many games as `game.playouts` spreads it;
- `compile_seconds`: `kernel_for(game)` timed in a fresh process (numba keeps what it
  compiled in the process), twice over one empty cache folder ($LUDEME_KERNEL_CACHE): the
  first is cold (the module generated and compiled to machine code), the second cached (the
  module and numba's machine code read from the folder).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from interpreter.game import Game
from interpreter.kernel import available, kernel_for, why_interpreted

ROOT = Path(__file__).resolve().parent.parent

_TIMED = """
import json, sys, time
from interpreter import load_game
from interpreter.kernel import kernel_for
game = load_game(sys.argv[1], **json.loads(sys.argv[2]))
began = time.perf_counter()
kernel = kernel_for(game)
seconds = time.perf_counter() - began
print(json.dumps(None if kernel is None else [seconds, kernel.built.digest]))
"""


def kernel_rate(game: Game, seconds: float, seed: int, bound: int | None = None
                ) -> tuple[float, list[int]] | None:
    """Random playouts per second in the game's kernel over about `seconds` (at least one
    game), each stopped after `bound` moves (default: 20 a site, as game.playout), and the
    games' lengths; None when the game has no kernel."""
    kernel = kernel_for(game)
    if kernel is None:
        return None
    lengths: list[int] = []
    batch = 1
    start = time.perf_counter()
    while True:
        first = seed * 1_000_003 + len(lengths)
        lengths += kernel.playouts(list(range(first, first + batch)), bound).lengths
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return len(lengths) / elapsed, lengths
        batch = min(batch * 2, 65536)


def compile_seconds(path: str | Path, options: dict[str, object], tries: int = 3
                    ) -> tuple[float, float] | None:
    """(cold, cached) seconds of `kernel_for` for the game file with options, each in a fresh
    process over one cache folder that starts empty; None without a kernel. A pair whose two
    kernels differ (the code changed in between: another module, compiled cold again) is
    measured again, `tries` times at most."""
    for _ in range(tries):
        with tempfile.TemporaryDirectory(prefix="ludeme-kernels-") as folder:
            env = {**os.environ, "LUDEME_KERNEL_CACHE": folder,
                   "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT),
                                                               os.environ.get("PYTHONPATH")]))}
            found = []
            for _ in range(2):
                run = subprocess.run([sys.executable, "-c", _TIMED, str(path),
                                      json.dumps(options)],
                                     cwd=ROOT, env=env, capture_output=True, text=True,
                                     check=True)
                timed = json.loads(run.stdout.strip().splitlines()[-1])
                if timed is None:
                    return None
                found.append((float(timed[0]), str(timed[1])))
        if found[0][1] == found[1][1]:
            break
    return found[0][0], found[1][0]


def why(game: Game) -> str:
    """Why a game runs interpreted, its file named from the checkout."""
    if not available():
        return "numba is not installed"
    return str(why_interpreted(game) or "its kernel did not load").replace(f"{ROOT}/", "")
