"""Smoke test of benchmarks/adapters.py: it runs and prints its table (no timing is asserted)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from oracle import require_openspiel

require_openspiel("hex")

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "adapters.py"


def test_adapter_benchmark_prints_a_table_row() -> None:
    r = subprocess.run([sys.executable, str(SCRIPT), "--seconds", "0.3", "--size", "3",
                        "--runs", "1"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.strip().splitlines()
    assert len(lines) == 3, r.stdout
    header = [c.strip() for c in lines[0].strip("|").split("|")]
    assert header[:5] == ["game", "avg plies", "OpenSpiel C++ playouts/s",
                          "through the adapter", "ratio"]
    cells = [c.strip() for c in lines[2].strip("|").split("|")]
    assert cells[0] == "Hex 3x3"
    assert all(float(c.replace(",", "")) > 0 for c in cells[1:]), cells
