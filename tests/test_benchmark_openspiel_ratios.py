"""Smoke test of benchmarks/openspiel_ratios.py: it runs on Tic-Tac-Toe with a tiny time budget
and prints its table and notes (no timing is asserted)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from oracle import require_openspiel

require_openspiel("tic_tac_toe")

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "openspiel_ratios.py"
HEAD = ["game", "plies (ours, avg)", "OpenSpiel playouts/s", "public playouts/s (ratio)",
        "fast path (ratio)", "adapter (ratio)", "kernel (ratio)"]
RATE_AND_RATIO = re.compile(r"([\d,]+(?:\.\d+)?) \(([\d,]+(?:\.\d+)?)\)")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)


def number(cell: str) -> float:
    return float(cell.replace(",", ""))


def test_markdown_table_of_tictactoe() -> None:
    r = run("--games", "tictactoe", "--seconds", "0.2", "--runs", "2", "--markdown")
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    table, notes = r.stdout.strip().split("\n\n", 1)
    lines = table.splitlines()
    assert len(lines) == 3, r.stdout  # header, rule, one row
    assert [c.strip() for c in lines[0].strip("|").split("|")] == HEAD
    assert re.fullmatch(r"\|[-:|]+\|", lines[1]), lines[1]
    cells = [c.strip() for c in lines[2].strip("|").split("|")]
    assert len(cells) == len(HEAD)
    assert cells[0] == "Tic-Tac-Toe"
    assert 5 <= number(cells[1]) <= 9  # plies
    assert number(cells[2]) > 0  # OpenSpiel's rate
    for cell in cells[3:]:  # ours: "rate (ratio)"; the kernel's "interpreted" without numba
        if cell == "interpreted" and cell is cells[-1]:
            continue
        m = RATE_AND_RATIO.fullmatch(cell)
        assert m, cell
        assert number(m[1]) > 0 and number(m[2]) > 0, cell
    assert notes.startswith("Notes:")
    assert "- Geometric mean of the ratios over 1 game:" in notes
    assert "OpenSpiel" in notes.splitlines()[-1]


def test_plain_table_by_default() -> None:
    r = run("--games", "tic_tac_toe", "--seconds", "0.1", "--runs", "1")
    assert r.returncode == 0, r.stderr
    header, rule, row, *rest = r.stdout.splitlines()
    assert all(h in header for h in HEAD) and "|" not in header
    assert set(rule) <= {"-", " "}
    assert row.startswith("Tic-Tac-Toe ") and len(RATE_AND_RATIO.findall(row)) in (3, 4)
    assert "Notes:" in rest


def test_unknown_game_is_refused_cleanly() -> None:
    r = run("--games", "no_such_game", "--seconds", "0.1")
    assert r.returncode == 2
    assert "Traceback" not in r.stderr and "no game 'no_such_game'" in r.stderr
