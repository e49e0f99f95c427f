"""Smoke test of benchmarks/chess_perft.py: it runs briefly and prints its two Markdown tables
(no timing is asserted). Skipped where python-chess, its reference, is not installed."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "chess_perft.py"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)


def cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def test_benchmark_prints_the_perft_table_and_the_profile() -> None:
    pytest.importorskip("chess", reason="python-chess is the benchmark's reference "
                                        "(pip install -e '.[bench]')")
    r = run("--depth", "2", "--runs", "1", "--positions", "start,kiwipete",
            "--profile-depth", "2", "--top", "5")
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    perft, profile = r.stdout.strip().split("\n\n", 1)
    head, rule, *rows = perft.splitlines()
    assert cells(head) == ["position", "depth", "nodes", "public nodes/s", "fast path nodes/s",
                           "python-chess nodes/s", "python-chess / public",
                           "python-chess / fast path", "kernel nodes/s",
                           "kernel / python-chess"]
    assert re.fullmatch(r"\|[-:|]+\|", rule), rule
    assert [cells(row)[:3] for row in rows] == [["start", "2", "400"],
                                               ["kiwipete", "2", "2,039"]]
    for row in rows:
        assert all(float(c.replace(",", "")) > 0 for c in cells(row)[3:8]), row
        # The kernel's columns: '-' where numba is missing.
        assert all(c == "-" or float(c.replace(",", "")) > 0 for c in cells(row)[8:]), row
    lines = profile.splitlines()
    assert lines[0].startswith("Profile of the public perft(2) from the start (400 nodes")
    assert cells(lines[2]) == ["function", "calls", "own s", "cumulative s", "cumulative %"]
    assert len(lines) == 4 + 5, profile
    assert any("interpreter/game.py" in line for line in lines[4:]), profile


def test_benchmark_with_an_unknown_position_fails_cleanly() -> None:
    r = run("--positions", "nowhere", "--top", "0")
    assert r.returncode == 1
    assert "Traceback" not in r.stderr and "unknown position nowhere" in r.stderr
