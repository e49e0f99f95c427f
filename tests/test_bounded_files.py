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
