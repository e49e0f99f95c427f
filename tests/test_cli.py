"""The `ludeme` command line, run as a user runs it: the installed console script, in a
subprocess, with exit codes and output checked (see the CLI part of docs/contract.md)."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest
from console import ludeme

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "games").glob("*.game"))


LOCATED = re.compile(r"^(?P<path>\S.*?):(?P<line>\d+):(?P<col>\d+): (?P<msg>.+)$")


def diagnostics(stderr: str) -> list[dict[str, object]]:
    """Each `file:line:col: message` in stderr, with the two lines that follow it."""
    lines = stderr.splitlines()
    out: list[dict[str, object]] = []
    for i, line in enumerate(lines):
        m = LOCATED.match(line)
        if m:
            out.append({"path": m["path"], "line": int(m["line"]), "col": int(m["col"]),
                        "msg": m["msg"], "source": lines[i + 1] if i + 1 < len(lines) else "",
                        "caret": lines[i + 2] if i + 2 < len(lines) else ""})
    return out


def assert_points_at(d: dict[str, object], text: str, needle: str) -> None:
    """`d` is located at the first occurrence of `needle` on its line, and the source line and
    a caret under that column follow the message."""
    line_no = d["line"]
    assert isinstance(line_no, int)
    source_line = text.splitlines()[line_no - 1]
    assert d["col"] == source_line.index(needle) + 1, d
    printed, caret = str(d["source"]), str(d["caret"])
    assert printed.rstrip().endswith(source_line.rstrip()), f"no source line: {d}"
    assert caret.strip() and set(caret.strip()) == {"^"}, f"no caret line: {d}"
    prefix = len(printed.rstrip()) - len(source_line.rstrip())
    assert caret.index("^") - prefix == source_line.index(needle), d


def assert_clean_failure(r: subprocess.CompletedProcess[str], *needles: str) -> None:
    """Exit 1, no traceback, a short message that mentions each needle."""
    assert r.returncode == 1, (r.returncode, r.stdout, r.stderr)
    assert "Traceback" not in r.stderr + r.stdout, r.stderr
    assert r.stderr.strip(), "no message on stderr"
    assert len(r.stderr.strip().splitlines()) <= 4, r.stderr
    for needle in needles:
        assert needle.lower() in r.stderr.lower(), (needle, r.stderr)


# validate ---------------------------------------------------------------------------------

def test_validate_every_shipped_game() -> None:
    assert GAMES, "no games/*.game files"
    r = ludeme("validate", *GAMES)
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    for path in GAMES:
        assert re.search(rf"^{re.escape(path)}: ok \(", r.stdout, re.M), (path, r.stdout)


THREE_MISTAKES = """\
(game "Three Mistakes"
  (players {(player "X") (player "O")})
  (board (square 3))
  (play (plaec (sites Empty)))
  (end
    (if (line "three") (win Mover))
    (if ("Nowhere") (draw))))
"""


def test_validate_reports_every_mistake_with_position_source_and_caret(tmp_path: Path) -> None:
    """An unknown ludeme, a wrong type and an undefined define: three located errors, all of
    them (a compile report, not a stop at the first), in source order."""
    (tmp_path / "bad.game").write_text(THREE_MISTAKES, encoding="utf-8")
    r = ludeme("validate", "bad.game", cwd=tmp_path)
    assert r.returncode == 1, r.stderr
    assert "Traceback" not in r.stderr, r.stderr
    ds = diagnostics(r.stderr)
    assert [(d["path"], d["line"]) for d in ds] == [("bad.game", 4), ("bad.game", 6),
                                                   ("bad.game", 7)], r.stderr
    unknown, wrong_type, undefined = ds
    assert_points_at(unknown, THREE_MISTAKES, "plaec")
    assert "plaec" in str(unknown["msg"]) and "place" in str(unknown["msg"])  # did you mean
    assert_points_at(wrong_type, THREE_MISTAKES, '"three"')
    assert "int" in str(wrong_type["msg"]).lower()
    assert_points_at(undefined, THREE_MISTAKES, '"Nowhere"')
    assert "Nowhere" in str(undefined["msg"])


VALID = """\
(game "One Mistake"
  (players {(player "X") (player "O")})
  (board (square 3))
  (play (place (sites Empty)))
  (end
    (if (line 3) (win Mover))
    (if (full) (draw))))
"""

ONE_MISTAKE = {  # kind: (valid text, replaced by, error located at, message mentions)
    "unknown ludeme": ("(place (sites", "(plaec (sites", "plaec", "plaec"),
    "wrong literal type": ("(line 3)", '(line "three")', '"three"', "int"),
    "wrong ludeme type": ("(if (line 3)", "(if (square 3)", "square", "Boolean"),
    "undefined define": ("(if (full)", '(if ("Nowhere")', '"Nowhere"', "Nowhere"),
    "unknown constant": ("(win Mover)", "(win Moover)", "Moover", "Mover"),
    "too many arguments": ("(full)", "(full 3)", "3", "full"),
}


def test_the_valid_base_file_is_valid(tmp_path: Path) -> None:
    (tmp_path / "ok.game").write_text(VALID, encoding="utf-8")
    r = ludeme("validate", "ok.game", cwd=tmp_path)
    assert r.returncode == 0, r.stderr


@pytest.mark.parametrize("kind", list(ONE_MISTAKE))
def test_validate_one_mistake(tmp_path: Path, kind: str) -> None:
    old, new, at, mentioned = ONE_MISTAKE[kind]
    assert VALID.count(old) == 1
    text = VALID.replace(old, new)
    (tmp_path / "one.game").write_text(text, encoding="utf-8")
    r = ludeme("validate", "one.game", cwd=tmp_path)
    assert r.returncode == 1, (text, r.stdout, r.stderr)
    assert "Traceback" not in r.stderr, r.stderr
    ds = diagnostics(r.stderr)
    assert len(ds) == 1, r.stderr
    assert ds[0]["path"] == "one.game"
    assert_points_at(ds[0], text, at)
    assert mentioned.lower() in str(ds[0]["msg"]).lower(), r.stderr


def test_validate_misspelt_family_member_suggests_the_right_one(tmp_path: Path) -> None:
    """`(sites Emty)` is a typo of `(sites Empty)`; the message should say so, not talk about
    lists."""
    text = VALID.replace("(sites Empty)", "(sites Emty)")
    (tmp_path / "typo.game").write_text(text, encoding="utf-8")
    r = ludeme("validate", "typo.game", cwd=tmp_path)
    assert r.returncode == 1
    assert "Traceback" not in r.stderr
    ds = diagnostics(r.stderr)
    assert len(ds) == 1, r.stderr
    assert_points_at(ds[0], text, "Emty")
    assert "Empty" in str(ds[0]["msg"]), r.stderr


def test_validate_syntax_error_is_located(tmp_path: Path) -> None:
    text = '(game "Unclosed"\n  (players {(player "X") (player "O")})\n  (board (square 3)\n'
    (tmp_path / "unclosed.game").write_text(text, encoding="utf-8")
    r = ludeme("validate", "unclosed.game", cwd=tmp_path)
    assert r.returncode == 1
    assert "Traceback" not in r.stderr
    ds = diagnostics(r.stderr)
    assert ds and ds[0]["path"] == "unclosed.game", r.stderr
    assert "(" in str(ds[0]["msg"])


def deeply_nested(levels: int) -> str:
    """VALID with its draw condition inside `levels` nested (not (not ...)) forms."""
    return VALID.replace("(if (full)", "(if " + "(not " * levels + "(full)" + ")" * levels)


@pytest.mark.parametrize("text", [deeply_nested(5000), "(" * 5000 + ")" * 5000],
                         ids=["nested nots", "nested parentheses"])
def test_validate_too_deep_a_nesting_is_located(tmp_path: Path, text: str) -> None:
    """Forms nested 5,000 deep: a located error where the nesting limit is crossed, not a
    RecursionError traceback."""
    (tmp_path / "deep.game").write_text(text, encoding="utf-8")
    r = ludeme("validate", "deep.game", cwd=tmp_path)
    assert r.returncode == 1, r.stderr
    assert "Traceback" not in r.stderr + r.stdout, r.stderr[-2000:]
    ds = diagnostics(r.stderr)
    assert len(ds) == 1, r.stderr[:2000]
    assert "nested" in str(ds[0]["msg"]), ds[0]["msg"]
    lines = text.splitlines(keepends=True)
    line, column = int(str(ds[0]["line"])), int(str(ds[0]["col"]))
    before = "".join(lines[:line - 1]) + lines[line - 1][:column]  # up to the bracket
    assert before[-1] == "(" and before.count("(") - before.count(")") == 101, (line, column)
    assert set(str(ds[0]["caret"]).strip()) == {"^"}, r.stderr[:2000]


def test_validate_a_precomputation_over_its_budget_is_located(tmp_path: Path) -> None:
    """A compile-time precomputation over its budget is a located error, not a hang."""
    text = VALID.replace("(square 3)", "(square 19)").replace("(place (sites Empty))",
                                                              "(place-group 9)")
    (tmp_path / "groups.game").write_text(text, encoding="utf-8")
    r = ludeme("validate", "groups.game", cwd=tmp_path, timeout=60)
    assert r.returncode == 1, r.stderr
    assert "Traceback" not in r.stderr, r.stderr
    (d,) = diagnostics(r.stderr)
    assert_points_at(d, text, "(place-group 9)")
    assert "more than 200000 groups" in str(d["msg"]), d["msg"]


def test_ludeme_runs_without_being_on_path() -> None:
    """The tests run the `ludeme` of this installation, whatever PATH holds (as when pytest is
    run as VENV/bin/python -m pytest without activating the environment)."""
    r = ludeme("validate", "games/tictactoe.game", env={"PATH": os.defpath})
    assert r.returncode == 0, r.stderr
    assert "games/tictactoe.game: ok" in r.stdout


def test_validate_checks_every_file_and_fails_if_one_is_bad(tmp_path: Path) -> None:
    (tmp_path / "bad.game").write_text(THREE_MISTAKES.replace("(plaec ", "(place "),
                                       encoding="utf-8")
    good = str(ROOT / "games" / "tictactoe.game")
    r = ludeme("validate", good, "bad.game", good, cwd=tmp_path)
    assert r.returncode == 1
    assert "Traceback" not in r.stderr
    assert r.stdout.count(": ok (Tic-Tac-Toe") == 2, r.stdout
    assert "bad.game:" in r.stderr


def untimed(out: str) -> str:
    """A report without its timing lines (how fast the games ran, and how long the kernel
    took to compile or load, differ from run to run)."""
    return "\n".join(line for line in out.splitlines()
                     if "games per second" not in line and "kernel: native" not in line)


def test_validate_with_playouts_reports_results() -> None:
    r = ludeme("validate", "--playouts", "20", "--seed", "1", "games/tictactoe.game")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "games/tictactoe.game: ok" in out
    assert re.search(r"\b20 random games\b", out), out
    wins = {role: int(n) for role, n in re.findall(r"^\s*(X|O) wins: (\d+)", out, re.M)}
    assert set(wins) == {"X", "O"}, out
    draws = re.search(r"^\s*draws: (\d+)", out, re.M)
    assert draws, out
    assert wins["X"] + wins["O"] + int(draws[1]) == 20
    mean = re.search(r"length: mean (\d+(?:\.\d+)?)", out)
    assert mean and 5 <= float(mean[1]) <= 9, out
    # reproducible
    assert untimed(ludeme("validate", "--playouts", "20", "--seed", "1",
                          "games/tictactoe.game").stdout) == untimed(out)


def test_validate_playouts_warn_about_positions_with_no_move(tmp_path: Path) -> None:
    """A game whose end rule can never fire: the board fills and no one can move."""
    text = ('(game "Never Ends"\n  (players {(player "X") (player "O")})\n'
            '  (board (square 2))\n  (play (place (sites Empty)))\n'
            '  (end (if (line 5) (win Mover))))\n')
    (tmp_path / "never.game").write_text(text, encoding="utf-8")
    r = ludeme("validate", "--playouts", "5", "never.game", cwd=tmp_path)
    assert "Traceback" not in r.stderr
    assert "WARNING" in r.stdout and "no legal move" in r.stdout, r.stdout


# playout ----------------------------------------------------------------------------------

def test_playout_reports_and_is_reproducible() -> None:
    r = ludeme("playout", "games/tictactoe.game", "-n", "30", "--seed", "3")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    wins = {role: int(n) for role, n in re.findall(r"^\s*(X|O) wins: (\d+)", out, re.M)}
    draws = re.search(r"^\s*draws: (\d+)", out, re.M)
    assert set(wins) == {"X", "O"} and draws, out
    assert wins["X"] + wins["O"] + int(draws[1]) == 30
    assert re.search(r"length: mean \d", out), out
    again = ludeme("playout", "games/tictactoe.game", "-n", "30", "--seed", "3")
    assert untimed(again.stdout) == untimed(out)
    other = ludeme("playout", "games/tictactoe.game", "-n", "30", "--seed", "4")
    assert other.returncode == 0
    # the seed matters (30 games: a collision is very unlikely)
    assert untimed(other.stdout) != untimed(out)


def test_playout_with_an_option() -> None:
    r = ludeme("playout", "games/hex.game", "--option", "size=3", "-n", "10", "--seed", "1")
    assert r.returncode == 0, r.stderr
    assert re.search(r"Red wins: \d+", r.stdout) and "draws: 0" in r.stdout, r.stdout


# grammar ----------------------------------------------------------------------------------

def test_grammar_lists_ludemes() -> None:
    r = ludeme("grammar")
    assert r.returncode == 0, r.stderr
    assert "(place Region" in r.stdout
    assert "(sites Empty)" in r.stdout
    assert "(line int" in r.stdout
    assert len(re.findall(r"^\(", r.stdout, re.M)) >= 20


# bad arguments ----------------------------------------------------------------------------

BAD_ARGUMENTS = [
    (["playout", "games/hex.game", "--option", "colour=red", "-n", "1"], ["colour"]),
    (["playout", "games/hex.game", "--option", "size=99", "-n", "1"], ["size", "99"]),
    (["playout", "games/hex.game", "--option", "size=1", "-n", "1"], ["size"]),
    (["playout", "games/hex.game", "--option", "size=big", "-n", "1"], ["size", "big"]),
    (["playout", "games/hex.game", "--option", "pie=maybe", "-n", "1"], ["pie", "maybe"]),
    (["playout", "games/hex.game", "--option", "size", "-n", "1"], ["size"]),
    (["playout", "games/hex.game", "--option", "=5", "-n", "1"], ["=5"]),
    (["validate", "games/tictactoe.game", "--option", "size=5"], ["size"]),
    (["play", "games/hex.game", "--option", "size=0"], ["size"]),
    (["play", "games/tictactoe.game", "--ai", "Z=random"], ["Z", "X, O"]),
    (["play", "games/tictactoe.game", "--ai", "O=alphazero"], ["alphazero", "random"]),
    (["play", "games/tictactoe.game", "--ai", "O"], ["O"]),
    (["play", "games/tictactoe.game", "--ai", "=random"], ["random"]),
]


@pytest.mark.parametrize("args, needles", BAD_ARGUMENTS,
                         ids=[" ".join(a[2:]) for a, _ in BAD_ARGUMENTS])
def test_bad_option_or_agent_is_a_clean_error(args: list[str], needles: list[str]) -> None:
    r = ludeme(*args, stdin="quit\n")
    assert_clean_failure(r, *needles)
    assert "> " not in r.stdout  # the REPL never started


@pytest.mark.parametrize("command", [["validate"], ["playout"], ["play"],
                                     ["validate", "--playouts", "3"]])
def test_missing_file_is_a_clean_error(command: list[str]) -> None:
    r = ludeme(*command, "no/such/file.game", stdin="quit\n")
    assert_clean_failure(r, "no/such/file.game")


def test_directory_and_non_utf8_files_are_clean_errors(tmp_path: Path) -> None:
    (tmp_path / "dir.game").mkdir()
    (tmp_path / "bin.game").write_bytes(b"\xff\xfe\x00(game")
    for name in ("dir.game", "bin.game"):
        assert_clean_failure(ludeme("validate", name, cwd=tmp_path), name)


def test_validate_names_end_conditions_that_never_fired() -> None:
    out = ludeme("validate", "games/mincut.game", "--option", "size=4", "--playouts", "20",
                 "--seed", "2")
    assert out.returncode == 0, out.stderr
    assert "ended by a completed connection: 20" in out.stdout
    assert "never ended a game: every player passed in succession" in out.stdout


# messages never echo a file's contents ----------------------------------------------------

SECRET = "root:x:0:0:SECRET-4711:/root:/bin/bash"


def said(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """What `ludeme ARGV` prints on stderr, run in-process; it must fail."""
    from interpreter.cli import main

    assert main(list(argv)) == 1
    return capsys.readouterr().err


@pytest.mark.parametrize("content", [
    SECRET + "\ndaemon:x:1:1\n",                       # a password file
    "SECRET-4711 is not a game\n",                      # words
    "// a comment first\n  SECRET-4711 (game)\n",      # after a comment
    "(game SECRET-4711\x00\x01)\n",                    # control characters
    "SECRET-4711 {}\n",                                # a word before a list
])
def test_a_file_that_is_not_a_game_file_is_refused_without_quoting_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str) -> None:
    path = tmp_path / "not.game"
    path.write_text(content, encoding="utf-8")
    for command in (["validate", str(path)], ["playout", str(path), "-n", "1"],
                    ["render", str(path)], ["analyze", str(path), "-n", "1"]):
        err = said(capsys, *command)
        assert "SECRET" not in err and err.count("\n") == 1, err
        assert "this is not a game file" in err, err


def test_a_record_or_position_that_is_not_one_is_refused_without_quoting_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "passwd"
    path.write_text(SECRET + "\n" + "SECRET-4711 " * 3 + "\n", encoding="utf-8")
    err = said(capsys, "replay", str(path))
    assert err == f"{path}:1: this is not a ludeme record: a record begins with 'game:' and " \
        "'sha256:' lines\n"
    err = said(capsys, "render", "games/tictactoe.game", "--position", str(path))
    assert "SECRET" not in err and err.count("\n") == 1, err
    grid = tmp_path / "grid.txt"
    grid.write_text(". . .\n. SECRET-4711-" + "z" * 5000 + " .\n. . .\nmover: " + "y" * 5000 +
                    "\n", encoding="utf-8")
    err = said(capsys, "render", "games/tictactoe.game", "--position", str(grid))
    assert len(err) < 200 and "(5012 characters)" in err and "no symbol" in err, err


def test_a_record_quotes_at_most_a_bounded_move(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    from interpreter.record import text_hash

    game = ROOT / "games" / "tictactoe.game"
    head = f"game: {game}\nsha256: {text_hash(game.read_text(encoding='utf-8'))}\n"
    rec = tmp_path / "long.rec"
    rec.write_text(head + "b2\n" + "SECRET" * 2000 + "\n", encoding="utf-8")
    err = said(capsys, "replay", str(rec))
    assert err == f"{rec}:4: the move 'SECRETSECRETSECRETSECRET'… (12000 characters) is not " \
        "a move of this game\n"
    rec.write_text(head + "b2 SECRET-4711\n", encoding="utf-8")
    assert said(capsys, "replay", str(rec)) == f"{rec}:3: one move per line, not 2\n"
    rec.write_text(head + "b2\nSECRET: 4711\n", encoding="utf-8")
    err = said(capsys, "replay", str(rec))
    assert err == f"{rec}:4: header lines ('key: value') must come before the moves\n"


def test_a_game_file_error_shows_a_bounded_window_of_its_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "long.game"
    path.write_text('(game "T" (players {(player "X") (player "O")}) (board (square 3)) '
                    "(play (place (sites Empty))) (end (if (full) (draw))) " + "zz" * 50_000 +
                    ")\n", encoding="utf-8")
    err = said(capsys, "validate", str(path))
    first, source, caret = err.splitlines()
    assert first == (f"{path}:1:122: unexpected name 'zzzzzzzzzzzzzzzzzzzzzzzz'… "
                     "(100000 characters): a ludeme name must follow '('")
    assert source.startswith("    …") and source.endswith("…") and len(source) <= 4 + 102
    assert caret.index("^") == source.index("z") and len(caret) == len(source) - 1
