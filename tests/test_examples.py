"""The scripts in examples/ run and say what happened."""

from __future__ import annotations

import subprocess
import sys

from console import ROOT

from interpreter import load_game


def test_random_game_script_plays_a_whole_game() -> None:
    out = subprocess.run([sys.executable, "examples/random_game.py", "games/tictactoe.game",
                          "--seed", "5"], cwd=ROOT, capture_output=True, text=True, check=True,
                         timeout=60).stdout
    moves = [line.split(": ")[1] for line in out.splitlines() if ". " in line and ": " in line]
    state = load_game(ROOT / "games" / "tictactoe.game").initial_state()
    for move in moves:
        state = state.play(move)
    assert state.is_over
    assert state.to_text() in out
    assert out.strip().endswith(f"winner: {state.winner or 'none (a draw)'}")


def test_random_game_script_reports_a_bad_option() -> None:
    out = subprocess.run([sys.executable, "examples/random_game.py", "games/hex.game",
                          "--option", "size=1"], cwd=ROOT, capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 1
    assert "size" in out.stdout and "Traceback" not in out.stderr
