"""`ludeme grammar`: every ludeme, one ludeme with its example, or those a word finds; and the
progress bars of long commands, drawn on a terminal only."""

from __future__ import annotations

import io

import pytest
from console import ludeme

import stdlib
from interpreter.cli import main
from interpreter.grammar import example, find, search
from interpreter.progress import progress_bar


def test_one_ludeme_with_its_documentation_and_example() -> None:
    r = ludeme("grammar", "line")
    assert r.returncode == 0, r.stderr
    spec = stdlib.REGISTRY["line"]
    assert r.stdout.startswith(spec.usage() + "  -> Boolean  [geometry]\n")
    assert example(spec) in r.stdout
    assert r.stdout.count("\n(") == 0  # that ludeme only


def test_a_family_member_and_a_whole_family(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["grammar", "sites", "Empty"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("(sites Empty)  -> Region  [regions]")
    assert main(["grammar", "sites"]) == 0
    out = capsys.readouterr().out
    members = [s for s in stdlib.REGISTRY.values() if s.head == "sites"]
    assert len(members) > 10
    assert all(spec.usage() in out for spec in members)


def test_an_unknown_name_is_refused_with_the_closest() -> None:
    r = ludeme("grammar", "lien")
    assert r.returncode == 1
    assert "no ludeme is called 'lien'; did you mean line?" in r.stderr
    assert r.stdout == ""


def test_search_by_word(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["grammar", "--search", "Checkerboard"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("// regions\n(sites Phase int)  -> Region")
    assert [s.name for s in search("checkerboard")] == ["sites Phase"]
    assert main(["grammar", "--search", "zzzz"]) == 1
    assert "no ludeme mentions 'zzzz'" in capsys.readouterr().err


def test_every_ludeme_is_found_by_its_name() -> None:
    for name, spec in stdlib.REGISTRY.items():
        assert spec in find(name)
        assert spec in search(name)


def test_validate_reports_the_rate_of_random_games_and_draws_no_bar_when_piped() -> None:
    r = ludeme("validate", "games/tictactoe.game", "--playouts", "20")
    assert r.returncode == 0, r.stderr
    assert "20 random games of Tic-Tac-Toe:" in r.stdout
    assert "games per second)" in r.stdout and "played in" in r.stdout
    assert r.stderr == ""  # stderr is a pipe: no progress bar


def test_a_bar_is_drawn_only_on_a_stream_given() -> None:
    pytest.importorskip("tqdm", reason="the progress bars need tqdm (the progress extra)")
    out = io.StringIO()
    with progress_bar(4, "games", out) as advance:
        for _ in range(4):
            advance(1)
    assert "4/4 games" in out.getvalue()
    with progress_bar(4, "games", None) as advance:
        advance(4)  # nowhere to draw: nothing happens
