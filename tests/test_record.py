"""Game records: written, read, replayed and checked move by move; `ludeme replay`,
`ludeme play --record`, and the REPL's `save` and `load`."""

from __future__ import annotations

import io
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest
from console import LUDEME, ludeme

from interpreter import load_game
from interpreter.game import Game
from interpreter.record import (
    RecordError,
    format_record,
    load_record,
    parse_record,
    read_record,
    replay,
    text_hash,
)
from interpreter.repl import Repl

ROOT = Path(__file__).resolve().parent.parent
TICTACTOE = ROOT / "games" / "tictactoe.game"
X_WINS = ["a1", "b1", "a2", "b2", "a3"]


def write_record(path: Path, game: Game, game_path: Path, moves: list[str]) -> Path:
    final = game.initial_state()
    for m in moves:
        final = final.play(m)
    path.write_text(format_record(game, game_path, path, moves, final), encoding="utf-8")
    return path


@pytest.fixture
def ttt() -> Game:
    return load_game(TICTACTOE)


@pytest.fixture
def local_game(tmp_path: Path) -> Path:
    """A copy of Tic-Tac-Toe beside the records (so that it can be changed)."""
    path = tmp_path / "ttt.game"
    shutil.copy(TICTACTOE, path)
    return path


# The format ----------------------------------------------------------------------------------

def test_round_trip(tmp_path: Path, local_game: Path) -> None:
    game = load_game(local_game)
    rec_path = write_record(tmp_path / "g.rec", game, local_game, X_WINS)
    text = rec_path.read_text(encoding="utf-8")
    assert "game: ttt.game\n" in text  # relative to the record's directory
    assert f"sha256: {text_hash(local_game.read_text(encoding='utf-8'))}\n" in text
    assert text.rstrip().endswith("# result: X wins (3 in a row)")
    again, states, moves = load_record(rec_path)
    assert moves == X_WINS
    assert len(states) == 6 and states[-1].winner == "X"
    expected = game.initial_state()
    for m, s in zip(X_WINS, states[1:], strict=True):
        expected = expected.play(m)
        assert s.to_text() == expected.to_text()


def test_options_are_recorded_and_used(tmp_path: Path) -> None:
    hex_path = tmp_path / "hex.game"
    shutil.copy(ROOT / "games" / "hex.game", hex_path)
    game = load_game(hex_path, size=3, pie=True)
    rec = write_record(tmp_path / "h.rec", game, hex_path, ["b2", "swap", "a1"])
    text = rec.read_text(encoding="utf-8")
    assert "option: size=3\n" in text and "option: pie=true\n" in text
    again, states, moves = load_record(rec)
    assert again.options == {"size": 3, "pie": True}
    assert moves == ["b2", "swap", "a1"] and states[-1].swapped


def test_comments_blank_lines_and_spelling(tmp_path: Path, local_game: Path) -> None:
    digest = text_hash(local_game.read_text(encoding="utf-8"))
    (tmp_path / "c.rec").write_text(
        "# a game typed by hand\n\n"
        "game: ttt.game   # beside this file\n"
        f"SHA256: {digest.upper()}\n"
        "\n  B2  # the centre\n# a thought\nA1\n\n", encoding="utf-8")
    _, states, moves = load_record(tmp_path / "c.rec")
    assert moves == ["b2", "a1"]  # canonical notation
    assert states[-1].mover == "X"


def test_game_path_relative_to_the_current_directory(tmp_path: Path, ttt: Game,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    digest = text_hash(TICTACTOE.read_text(encoding="utf-8"))
    (tmp_path / "c.rec").write_text(f"game: games/tictactoe.game\nsha256: {digest}\nb2\n",
                                    encoding="utf-8")
    monkeypatch.chdir(ROOT)
    _, states, _ = load_record(tmp_path / "c.rec")
    assert len(states) == 2


# Corrupted records ---------------------------------------------------------------------------

def corruptions(digest: str) -> dict[str, tuple[str, int, str]]:
    """name: (record text, line of the error, words of the message)."""
    head = f"# ludeme record\ngame: ttt.game\nsha256: {digest}\n"
    return {
        "unknown move": (head + "b2\nzz9\n", 5, "zz9"),
        "unknown site": (head + "b2\nd4\n", 5, "no site d4"),
        "illegal move": (head + "b2\na1\nb2\n", 6, "occupied"),
        "after the end": (head + "\n".join(X_WINS) + "\nc3\n", 9, "over"),
        "two moves on a line": (head + "b2 a1\n", 4, "one move per line"),
        "unknown key": (head + "colour: red\nb2\n", 4, "unknown header key 'colour'"),
        "header after moves": (head + "b2\noption: size=3\n", 5, "before the moves"),
        "no game line": (f"sha256: {digest}\nb2\n", 2, "game:"),
        "no sha256 line": ("game: ttt.game\nb2\n", 1, "sha256"),
        "bad sha256": ("game: ttt.game\nsha256: 12ab\nb2\n", 2, "64 hexadecimal"),
        "wrong hash": (head.replace(digest, "0" * 64) + "b2\n", 3, "changed"),
        "missing game file": (head.replace("ttt.game", "nowhere.game") + "b2\n", 2,
                              "nowhere.game"),
        "unknown option": (head + "option: colour=red\nb2\n", 4, "colour"),
        "bad option line": (head + "option: size\nb2\n", 4, "NAME=VALUE"),
        "game twice": (head + "game: ttt.game\n", 4, "twice"),
        "empty": ("", 1, "not a ludeme record"),
        "not a record": ("hello world\n", 1, "game:"),
    }


CORRUPTIONS = list(corruptions("0" * 64))


@pytest.mark.parametrize("name", CORRUPTIONS)
def test_corrupted_record_is_located(tmp_path: Path, local_game: Path, name: str) -> None:
    text, line, words = corruptions(text_hash(local_game.read_text(encoding="utf-8")))[name]
    rec = tmp_path / "bad.rec"
    rec.write_text(text, encoding="utf-8")
    with pytest.raises(RecordError) as info:
        load_record(rec)
    assert info.value.line == line, str(info.value)
    assert str(info.value).startswith(f"{rec}:{line}: ")
    assert words.lower() in str(info.value).lower()
    # the command line says the same, on one line, with exit status 1
    r = ludeme("replay", "bad.rec", cwd=tmp_path)
    assert r.returncode == 1, r.stdout
    assert "Traceback" not in r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"bad.rec:{line}: "), r.stderr
    assert words.lower() in lines[0].lower()


def test_changed_game_file_is_refused(tmp_path: Path, local_game: Path) -> None:
    game = load_game(local_game)
    rec = write_record(tmp_path / "g.rec", game, local_game, ["b2"])
    assert len(load_record(rec)[1]) == 2
    local_game.write_text(local_game.read_text(encoding="utf-8").replace("(line 3)",
                                                                          "(line 2)"),
                          encoding="utf-8")
    with pytest.raises(RecordError, match="changed"):
        load_record(rec)
    # ... unless another game file is named explicitly and has the right text
    shutil.copy(TICTACTOE, tmp_path / "original.game")
    assert len(load_record(rec, tmp_path / "original.game")[1]) == 2


def test_unreadable_record_and_directory(tmp_path: Path) -> None:
    for name in ("missing.rec", "."):
        r = ludeme("replay", name, cwd=tmp_path)
        assert r.returncode == 1 and "Traceback" not in r.stderr
        assert r.stderr.startswith(f"{name}:1: cannot read the record"), r.stderr


def test_parse_record_keeps_line_numbers() -> None:
    rec = parse_record("game: g.game\nsha256: " + "a" * 64 + "\n\n# c\nb2\n\na1 # x\n", "r")
    assert rec.moves == [(5, "b2"), (7, "a1")]
    assert (rec.game_line, rec.sha256_line) == (1, 2)


# ludeme replay -------------------------------------------------------------------------------

def test_replay_command(tmp_path: Path, local_game: Path) -> None:
    game = load_game(local_game)
    write_record(tmp_path / "g.rec", game, local_game, X_WINS)
    r = ludeme("replay", "g.rec", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == [
        "3 X . .", "2 X O .", "1 X O .", "  a b c",
        "5 moves of Tic-Tac-Toe replayed. Game over: X wins (3 in a row).",
    ]
    verbose = ludeme("replay", "-v", "g.rec", cwd=tmp_path)
    assert verbose.returncode == 0
    assert "1. X a1" in verbose.stdout and "5. X a3" in verbose.stdout
    assert verbose.stdout.count("  a b c") == 6


# ludeme play --record ------------------------------------------------------------------------

def test_play_records_every_move_and_undo(tmp_path: Path) -> None:
    rec = tmp_path / "live.rec"
    r = ludeme("play", str(TICTACTOE), "--record", str(rec),
               stdin="b2\na1\nzz9\nc3\nundo\nc1\nquit\n")
    assert r.returncode == 0, r.stderr
    _, states, moves = load_record(rec)
    assert moves == ["b2", "a1", "c1"]
    # a new session with the same file resumes the game
    r = ludeme("play", str(TICTACTOE), "--record", str(rec), stdin="moves\nc3\nquit\n")
    assert r.returncode == 0, r.stderr
    assert "resuming the 3 moves" in r.stdout
    assert "6 legal" in r.stdout
    assert load_record(rec)[2] == ["b2", "a1", "c1", "c3"]


def test_play_with_the_computer_records_its_moves_and_the_result(tmp_path: Path) -> None:
    rec = tmp_path / "ai.rec"
    r = ludeme("play", str(TICTACTOE), "--ai", "X=random", "--ai", "O=mcts:30", "--seed", "4",
               "--record", str(rec), stdin="")
    assert r.returncode == 0, r.stderr
    game, states, moves = load_record(rec)
    assert states[-1].is_over and len(moves) >= 5
    assert rec.read_text(encoding="utf-8").rstrip().splitlines()[-1].startswith("# result: ")


def test_play_refuses_to_overwrite_another_file(tmp_path: Path) -> None:
    other = tmp_path / "notes.txt"
    other.write_text("my notes\n", encoding="utf-8")
    r = ludeme("play", str(TICTACTOE), "--record", str(other), stdin="b2\nquit\n")
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "notes.txt:1:" in r.stderr
    assert other.read_text(encoding="utf-8") == "my notes\n"
    hexrec = tmp_path / "hex.rec"
    hex_game = load_game(ROOT / "games" / "hex.game", size=3)
    write_record(hexrec, hex_game, ROOT / "games" / "hex.game", ["b2"])
    r = ludeme("play", str(TICTACTOE), "--record", str(hexrec), stdin="quit\n")
    assert r.returncode == 1 and "not this game" in r.stderr, r.stderr
    r = ludeme("play", "games/hex.game", "--option", "size=4", "--record", str(hexrec),
               stdin="quit\n")
    assert r.returncode == 1 and "size=3" in r.stderr, r.stderr


def test_a_crash_loses_no_move(tmp_path: Path) -> None:
    """Each move reaches the file as it is made: kill the session mid-game and read it."""
    rec = tmp_path / "crash.rec"
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    proc = subprocess.Popen([*LUDEME, "play", str(TICTACTOE), "--record", str(rec)], cwd=ROOT,
                            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, text=True, env=env)
    try:
        assert proc.stdin is not None
        proc.stdin.write("b2\na1\n")
        proc.stdin.flush()
        deadline = time.monotonic() + 60  # a limit on waiting, not a timing assertion
        while time.monotonic() < deadline:
            if rec.exists() and rec.read_text(encoding="utf-8").split()[-1:] == ["a1"]:
                break
            time.sleep(0.05)
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.kill()
        proc.wait()
        if proc.stdin is not None:
            proc.stdin.close()
    assert load_record(rec)[2] == ["b2", "a1"]


# The REPL's save and load --------------------------------------------------------------------

def session(game: Game, script: str) -> tuple[Repl, str]:
    out = io.StringIO()
    repl = Repl(game, stdin=io.StringIO(script), stdout=out)
    repl.cmdloop()
    return repl, out.getvalue()


def test_save_and_load(tmp_path: Path, ttt: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    path = tmp_path / "s.rec"
    first, out = session(ttt, f"b2\na1\nsave {path}\nquit\n")
    assert "saved 2 moves" in out
    assert read_record(path).moves == [(5, "b2"), (6, "a1")]
    second, out = session(ttt, f"c3\nload {path}\nmoves\nquit\n")
    assert "loaded 2 moves" in out
    assert second.moves == ["b2", "a1"]
    assert [s.to_text() for s in second.history] == [s.to_text() for s in first.history]
    assert "7 legal" in out


@pytest.mark.parametrize("content, words", [
    ("game: x\nsha256: " + "0" * 64 + "\n", "not this game"),
    ("hello\n", ":1:"),
    (None, "cannot read"),
])
def test_load_errors_are_one_line(tmp_path: Path, ttt: Game, content: str | None,
                                  words: str) -> None:
    path = tmp_path / "bad.rec"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    repl, out = session(ttt, f"b2\nload {path}\nquit\n")
    errors = [ln for ln in out.splitlines() if "error" in ln]
    assert len(errors) == 1 and errors[0].startswith("> error: ") and words in errors[0], out
    assert repl.moves == ["b2"]


def test_load_checks_every_move_before_replacing_the_game(tmp_path: Path, ttt: Game) -> None:
    digest = text_hash(TICTACTOE.read_text(encoding="utf-8"))
    path = tmp_path / "bad.rec"
    path.write_text(f"game: {TICTACTOE}\nsha256: {digest}\nc3\nc3\n", encoding="utf-8")
    repl, out = session(ttt, f"b2\nload {path}\nquit\n")
    assert f"error: {path}:4: c3: c3 is occupied" in out
    assert repl.moves == ["b2"]


def test_save_needs_a_file_and_a_game_file(tmp_path: Path) -> None:
    from interpreter import parse_game

    game = parse_game(TICTACTOE.read_text(encoding="utf-8"), "<typed>")
    _, out = session(game, f"b2\nsave\nsave {tmp_path / 'x.rec'}\nquit\n")
    assert "error: save needs a file name" in out
    assert "error: the game was not loaded from a file" in out


def test_replay_helper_reports_the_line(ttt: Game) -> None:
    rec = parse_record("game: g\nsha256: " + "0" * 64 + "\nb2\nb2\n", "mem")
    with pytest.raises(RecordError, match=r"^mem:4: b2: b2 is occupied$"):
        replay(rec, ttt)
