"""Smoke test of benchmarks/playouts.py: it runs and prints a Markdown table (no timing is
asserted)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "playouts.py"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)


def test_benchmark_prints_a_table_row() -> None:
    r = run("--seconds", "0.2", "--runs", "2", "--games", "games/tictactoe.game")
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    lines = r.stdout.strip().splitlines()
    assert len(lines) == 3, r.stdout  # header, rule, one row
    header = [c.strip() for c in lines[0].strip("|").split("|")]
    assert header == ["game", "sites", "avg plies", "playouts/s public",
                      "playouts/s fast path", "playouts/s kernel", "load ms"]
    assert re.fullmatch(r"\|[-:|]+\|", lines[1]), lines[1]
    cells = [c.strip() for c in lines[2].strip("|").split("|")]
    assert cells[0] == "Tic-Tac-Toe" and cells[1] == "9"
    assert 5 <= float(cells[2]) <= 9
    for cell in cells[3:]:
        # the kernel's rate, or "interpreted" where numba (the kernels extra) is missing
        assert cell == "interpreted" or float(cell.replace(",", "")) > 0, cells


def test_benchmark_with_no_matching_game_fails_cleanly() -> None:
    r = run("--seconds", "0.1", "--games", "games/no-such-*.game")
    assert r.returncode == 1
    assert "Traceback" not in r.stderr and "no game files" in r.stderr


def test_benchmark_compares_with_the_hand_written_program() -> None:
    r = run("--seconds", "0.4", "--runs", "2", "--games", "games/mincut.game")
    assert r.returncode == 0, r.stderr
    tables = r.stdout.strip().split("\n\n")
    assert len(tables) == 2, r.stdout
    head, rule, row = tables[1].splitlines()
    assert [c.strip() for c in head.strip("|").split("|")] == [
        "game", "hand-written playouts/s", "interpreted (fast path)", "ratio"]
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[0] == "Mincut"
    assert all(float(c.replace(",", "")) > 0 for c in cells[1:]), cells
