"""Short runs of the benchmark scripts, for the smoke tests that check they print their
tables (no timing is asserted)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def adapter_table(*arguments: str) -> list[list[str]]:
    """The rows of benchmarks/pettingzoo_kernel.py's table, each a list of its cells, after
    the header and its rule, for a run of 0.2 s a game with `arguments` added; the run must
    succeed."""
    run = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "pettingzoo_kernel.py"),
                          *arguments, "--seconds", "0.2", "--runs", "1"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.strip().splitlines()
    assert len(lines) >= 2, run.stdout
    return [[c.strip() for c in line.strip().strip("|").split("|")] for line in lines[2:]]
