"""The README's tour is run: its Python examples as doctests, its game file parsed and played,
and its `$ ludeme ...` commands run with their output compared."""

from __future__ import annotations

import doctest
import re
import subprocess
from pathlib import Path

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


def test_shell_examples(monkeypatch):
    monkeypatch.chdir(ROOT)
    ran = 0
    for block in blocks(""):
        lines = block.splitlines()
        if not lines or not lines[0].startswith("$ "):
            continue
        command, expected = lines[0][2:], "\n".join(lines[1:])
        out = subprocess.run(command, shell=True, capture_output=True, text=True, check=True)
        assert out.stdout.strip() == expected.strip()
        ran += 1
    assert ran >= 1
