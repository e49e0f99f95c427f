"""The README's tour is run: its Python examples as doctests, its game file parsed and played,
and its `$ ludeme ...` commands run with their output compared."""

from __future__ import annotations

import doctest
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import console
from console import LUDEME, command, shell_command

from interpreter import parse_game

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", README, flags=re.S)


def test_python_examples(monkeypatch):
    monkeypatch.chdir(ROOT)
    result = doctest.testfile(str(ROOT / "README.md"), module_relative=False,
                              optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 8
    assert result.failed == 0


def test_the_five_line_game_plays():
    (text,) = blocks("lisp")
    assert len(text.strip().splitlines()) == 5
    game = parse_game(text, "README.md")
    state, plies = game.playout()
    assert state.is_over and plies <= 15 * 15


def path_without_ludeme() -> str:
    """PATH less every directory that holds a `ludeme`: as for `VENV/bin/python -m pytest` run
    with the virtual environment not activated."""
    dirs = os.environ.get("PATH", "").split(os.pathsep)
    return os.pathsep.join(d for d in dirs if d and not (Path(d) / "ludeme").exists())


def test_shell_examples(monkeypatch):
    """Each `$ ludeme ...` example prints what the README shows. The examples are run with this
    installation's `ludeme` (see console.py), with no `ludeme` on PATH."""
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("PATH", path_without_ludeme())
    ran = 0
    for block in blocks(""):
        lines = block.splitlines()
        if not lines or not lines[0].startswith("$ "):
            continue
        command, expected = shell_command(lines[0][2:]), "\n".join(lines[1:])
        out = subprocess.run(command, shell=True, capture_output=True, text=True)
        assert out.returncode == 0, (command, out.stderr)
        assert out.stdout.strip() == expected.strip()
        ran += 1
    assert ran >= 1


def test_shell_command_runs_this_installation(tmp_path, monkeypatch):
    """`ludeme` in a README command becomes the console script beside this Python; where none is
    installed there, this Python running the CLI module, which works as well."""
    assert shell_command("ludeme validate x.game") == shlex.join(LUDEME) + " validate x.game"
    assert shell_command("pytest -q") == "pytest -q"
    monkeypatch.setattr(console.sysconfig, "get_path", lambda name: str(tmp_path / "nowhere"))
    python = tmp_path / "bin" / "python"
    python.parent.mkdir()
    assert command(str(python)) == [str(python), "-m", "interpreter.cli"]
    script = python.parent / "ludeme"
    script.write_text("#!/bin/sh\n")
    script.chmod(0o755)
    assert command(str(python)) == [str(script)]
    fallback = [sys.executable, "-m", "interpreter.cli", "validate", "games/tictactoe.game"]
    out = subprocess.run(fallback, cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0 and "ok" in out.stdout, out.stderr
