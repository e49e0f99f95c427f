"""Files users name are read only when they are regular files of a bounded size, and written
only where a file can go: `/dev/zero`, a directory or a pipe gives a one-line reason, never a
MemoryError, a stray temporary file or a traceback."""

from __future__ import annotations

import io
import subprocess
from pathlib import Path

import pytest
from console import command

from interpreter import RuleError, load_game
from interpreter.files import read_text
from interpreter.repl import Repl

ROOT = Path(__file__).resolve().parent.parent
TICTACTOE = ROOT / "games" / "tictactoe.game"


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
def test_a_device_is_not_read_as_a_game_file() -> None:
    with pytest.raises(RuleError, match="not a regular file"):
        load_game("/dev/zero")


def test_a_directory_is_not_read_as_a_game_file(tmp_path: Path) -> None:
    with pytest.raises(RuleError, match="(?i)is a directory"):
        load_game(tmp_path)


def test_a_file_past_the_limit_is_not_read(tmp_path: Path) -> None:
    big = tmp_path / "big.game"
    big.write_bytes(b"(" * 2048)
    with pytest.raises(OSError, match="larger than"):
        read_text(big, limit=1024)
    assert read_text(big, limit=4096).startswith("((")


def repl_says(script: str) -> str:
    out = io.StringIO()
    Repl(load_game(TICTACTOE), {}, stdin=io.StringIO(script), stdout=out).cmdloop()
    return out.getvalue()


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
def test_the_repl_refuses_to_load_a_device() -> None:
    said = repl_says("load /dev/zero\nquit\n")
    assert "not a regular file" in said and "Traceback" not in said


def test_the_repl_saves_nowhere_odd(tmp_path: Path) -> None:
    said = repl_says(f"b2\nsave {tmp_path}/\nsave /\nsave {tmp_path}/game.rec\nquit\n")
    assert "internal error" not in said and "Traceback" not in said
    assert said.count("it is a directory") == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.rec"]  # no stray .tmp


def test_a_closed_pipe_ends_quietly() -> None:
    cmd = " ".join([*command(), "grammar", "-v"])
    done = subprocess.run(f"{cmd} | head -1", shell=True, capture_output=True, text=True,
                          timeout=60, cwd=ROOT, executable="/bin/bash")
    assert len(done.stdout.splitlines()) == 1
    assert "Traceback" not in done.stderr and "BrokenPipe" not in done.stderr, done.stderr


def test_random_games_stop_when_their_time_is_up(tmp_path: Path) -> None:
    endless = tmp_path / "endless.game"  # one stone each, then passes for ever on 64x64
    endless.write_text('(game "Endless" (players {(player "A") (player "B")}) '
                       "(board (square 64)) (play (any-of (place (sites Empty) "
                       "if:(= (count (sites Occupied Mover)) 0)) (pass))) "
                       "(end (if (full) (draw))))\n", encoding="utf-8")
    done = subprocess.run([*command(), "validate", str(endless), "--playouts", "50",
                           "--seconds", "1"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "ran out after" in done.stdout and "of the 50 games asked for" in done.stdout
    quick = subprocess.run([*command(), "validate", str(TICTACTOE), "--playouts", "10"],
                           capture_output=True, text=True, timeout=60)
    assert "games per second" in quick.stdout and "ran out" not in quick.stdout
