"""Smoke tests of benchmarks/batched.py: our side runs on Tic-Tac-Toe with a tiny time budget
and the table renders (no timing is asserted); pgx's side too where pgx (JAX) is installed;
the ratios are medians of per-round ratios against the best batch size."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # the benchmarks are not an installed package
    sys.path.insert(0, str(ROOT))

from benchmarks.batched import HEAD, Result, Side, report  # noqa: E402

SCRIPT = ROOT / "benchmarks" / "batched.py"
RATE = re.compile(r"[\d,]+(?:\.\d+)?")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)


def number(cell: str) -> float:
    return float(cell.replace(",", ""))


def row(stdout: str) -> list[str]:
    """The cells of the one row of a Markdown table, after checking its head."""
    table, notes = stdout.strip().split("\n\n", 1)
    lines = table.splitlines()
    assert len(lines) == 3, stdout  # header, rule, one row
    assert [c.strip() for c in lines[0].strip("|").split("|")] == HEAD
    assert re.fullmatch(r"\|[-:|]+\|", lines[1]), lines[1]
    assert notes.startswith("Notes:")
    return [c.strip() for c in lines[2].strip("|").split("|")]


def test_our_side_alone_renders_a_row() -> None:
    r = run("--games", "tictactoe", "--against", "none", "--seconds", "0.3", "--runs", "2",
            "--markdown")
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    cells = row(r.stdout)
    assert cells[0] == "Tic-Tac-Toe"
    ours, pgx, ludax = cells[1].split(" / ")
    assert 5 <= number(ours) <= 9 and pgx == ludax == "—"
    for cell in cells[2:4]:  # 1 and 2 workers: kernel rates, or interpreted without numba
        m = re.fullmatch(rf"({RATE.pattern})( \(interpreted\))?", cell)
        assert m and number(m[1]) > 0, cell
    assert cells[4:] == ["—"] * 4
    assert "ludeme is faster" in r.stdout.splitlines()[-1]


def test_pgx_side_on_tictactoe() -> None:
    pytest.importorskip("jax")
    pytest.importorskip("pgx")
    r = run("--games", "tic_tac_toe", "--against", "pgx", "--batches", "8,16",
            "--seconds", "0.4", "--runs", "1", "--markdown")
    assert r.returncode == 0, r.stderr
    cells = row(r.stdout)
    assert 5 <= number(cells[1].split(" / ")[1]) <= 9  # pgx's games, as long as ours
    m = re.fullmatch(rf"({RATE.pattern}) \((8|16)\)", cells[4])
    assert m and number(m[1]) > 0, cells[4]
    assert all(number(x) > 0 for x in cells[5].split(" / ")), cells[5]
    assert "pgx by batch size: 8: " in r.stdout and ", 16: " in r.stdout


def test_unknown_names_are_refused_cleanly() -> None:
    for args, said in ((["--games", "no_such_game"], "no game 'no_such_game'"),
                       (["--against", "openspiel"], "no simulator 'openspiel'"),
                       (["--batches", "64,x"], "comma-separated whole numbers")):
        r = run(*args, "--seconds", "0.1")
        assert r.returncode == 2, r.stderr
        assert "Traceback" not in r.stderr and said in r.stderr


def test_ratio_is_against_the_best_batch_round_by_round() -> None:
    result = Result("Game", native=True)
    result.ours[1] = Side(rates=[100.0, 300.0, 200.0], plies=[10.0, 10.0, 10.0])
    result.ours[2] = Side(rates=[150.0, 450.0, 300.0], plies=[10.0, 10.0, 10.0])
    result.theirs["pgx"] = {
        64: Side(rates=[50.0, 50.0, 50.0], plies=[9.0, 11.0, 10.0], compiled=2.0),
        256: Side(rates=[100.0, 200.0, 400.0], plies=[10.0, 10.0, 10.0], compiled=3.0),
    }
    best = result.best("pgx")
    assert best is not None and best[0] == 256  # the higher median rate
    assert result.ratio(1, "pgx") == 1.0  # median of 100/100, 300/200, 200/400
    assert result.ratio(2, "pgx") == 1.5  # median of 1.5, 2.25, 0.75
    assert result.best("ludax") is None and result.ratio(1, "ludax") is None
    text = report([result], ["ludax is not installed"], "about", markdown=True,
                  compile_times=False)
    cells = row(text)
    assert cells == ["Game", "10.0 / 10.0 / —", "200", "300", "200 (256)", "1.0 / 1.5", "—",
                     "—"]
    assert "- ludax is not installed" in text
    assert "- ours with 1 worker / pgx: geometric mean 1.0 over 1 game" in text
