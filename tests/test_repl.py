"""The REPL (`ludeme play`), fed scripts: in-process through `Repl(..., stdin=, stdout=)` and
`cmdloop()`, and through the console script with the script on stdin. Whatever is typed, the
session survives, answers bad input with a one-line `error: ...` and never a traceback."""

from __future__ import annotations

import io
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from console import ludeme

from interpreter import load_game
from interpreter.agents import RandomAgent
from interpreter.game import Game, State
from interpreter.repl import Repl

ROOT = Path(__file__).resolve().parent.parent
TICTACTOE = ROOT / "games" / "tictactoe.game"

# Input that is neither a command nor a legal move in Tic-Tac-Toe's opening position.
GARBAGE = [
    "(", ")", "( )", "zz9", "c3-", "-", "<>", ",", "a1<>", "a1,,b1", "a1-a1", "a1-b2",
    "a1,b1", "pass", "swap", "a0", "d1", "a4", "1a", "a01", "\x00", "#1", '"a1"', "a1;b1",
    "!", "!ls", "€é✓", "ａ１", "日本語", "a1\u0301", "\u202ea1", "🎲", "a" * 5000,
    "zz9 " * 2000, "x" * 100_000,
]


@pytest.fixture(scope="module")
def game() -> Game:
    return load_game(TICTACTOE)


@dataclass
class Step:
    line: str
    output: str  # what the command printed (the prompt before it is not included)
    history: list[State]


class Recording(Repl):
    """A Repl that keeps, for every line it read, what it printed and the history after it."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.log: list[Step] = []
        self._mark = 0

    def precmd(self, line: str) -> str:
        self._mark = len(self.stdout.getvalue())  # type: ignore[attr-defined]
        return line

    def postcmd(self, stop: bool, line: str) -> bool:
        out = self.stdout.getvalue()[self._mark:]  # type: ignore[attr-defined]
        self.log.append(Step(line, out, list(self.history)))
        return stop


def session(game: Game, script: str, agents: dict[str, object] | None = None) -> Recording:
    repl = Recording(game, agents or {}, stdin=io.StringIO(script), stdout=io.StringIO())  # type: ignore[arg-type]
    repl.cmdloop()
    return repl


def output(repl: Repl) -> str:
    return repl.stdout.getvalue()  # type: ignore[attr-defined,no-any-return]


def assert_no_crash(repl: Repl) -> None:
    out = output(repl)
    assert "Traceback" not in out
    assert "internal error" not in out, [ln for ln in out.splitlines() if "internal" in ln]


def assert_one_line_error(step: Step) -> None:
    lines = step.output.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), (step.line[:40], step.output[:300])


class Scripted:
    """An agent that plays the moves it is given, in order."""

    name = "scripted"

    def __init__(self, moves: list[str]) -> None:
        self.moves = iter(moves)

    def choose(self, state: State) -> object:
        wanted = next(self.moves)
        return next(m for m in state.legal_moves() if str(m) == wanted)


class Driver:
    """A stdin that decides each line when the REPL asks for it, looking at the REPL."""

    def __init__(self, decide: Callable[[Repl], str | None]) -> None:
        self.decide = decide
        self.repl: Repl | None = None

    def readline(self) -> str:
        assert self.repl is not None
        line = self.decide(self.repl)
        return "" if line is None else line + "\n"


# Garbage and commands ------------------------------------------------------------------------

def test_garbage_gets_a_one_line_error_and_changes_nothing(game: Game) -> None:
    script = "\n".join(GARBAGE) + "\nquit\n"
    repl = session(game, script)
    assert_no_crash(repl)
    steps = repl.log
    assert [s.line for s in steps] == [*GARBAGE, "quit"]
    for step in steps[:-1]:
        assert_one_line_error(step)
        assert len(step.history) == 1, step.line[:40]
    assert repl.state.to_text() == game.initial_state().to_text()


def test_commands(game: Game) -> None:
    script = "undo\n\n   \nmoves\nshow\nshow text\nhelp\n?\nb2\nmoves\nshow text\nquit\n"
    repl = session(game, script)
    assert_no_crash(repl)
    by_line = {s.line: s for s in repl.log}
    log = repl.log
    assert log[0].line == "undo" and "nothing to undo" in log[0].output
    assert len(log[0].history) == 1
    # empty lines: nothing printed, nothing played
    assert log[1].output == "" and log[2].output == ""
    assert len(log[2].history) == 1
    moves = log[3].output
    assert "9" in moves and all(str(m) in moves for m in game.initial_state().legal_moves())
    assert "X to move" in by_line["show"].output and "a b c" in by_line["show"].output
    text = log[5].output
    assert text.endswith("\n")
    assert game.from_text(text).to_text() == game.initial_state().to_text()
    for word in ("moves", "undo", "show", "help", "quit"):
        assert word in by_line["help"].output
    assert log[7].output == by_line["help"].output  # '?' is help
    assert "8" in log[9].output and "b2" not in log[9].output.split(":", 1)[1].split()
    after = log[10].output
    assert game.from_text(after).to_text() == game.initial_state().play("b2").to_text()
    assert log[-1].line == "quit"


def test_quit_stops_reading(game: Game) -> None:
    repl = session(game, "quit\nb2\n")
    assert [s.line for s in repl.log] == ["quit"]
    assert len(repl.history) == 1


def test_eof_ends_the_session(game: Game) -> None:
    repl = session(game, "b2\nzz9\n")  # no quit
    assert_no_crash(repl)
    assert [s.line for s in repl.log] == ["b2", "zz9", "EOF"]
    assert output(repl).endswith("\n")
    assert repl.state.mover == "O"


# Whole games -------------------------------------------------------------------------------

def test_scripted_game_between_two_people(game: Game) -> None:
    script = "\n".join([
        "a1", "(", "b1", "zz9", "", "a2", "b2", "moves", "show", "a3",  # X wins with a column
        "b3", "moves", "c3-", "show text", "help", "undo", "show", "a3", "quit",
    ]) + "\n"
    repl = session(game, script)
    assert_no_crash(repl)
    log = {i: s for i, s in enumerate(repl.log)}
    assert [len(log[i].history) for i in range(10)] == [2, 2, 3, 3, 3, 4, 5, 5, 5, 6]
    assert_one_line_error(log[1])
    assert_one_line_error(log[3])
    over = log[9]
    assert over.history[-1].is_over and over.history[-1].winner == "X"
    assert "Game over" in over.output and "X wins" in over.output
    assert_one_line_error(log[10])
    assert "over" in log[10].output
    assert len(log[10].history) == 6
    assert "no legal moves" in log[11].output
    assert_one_line_error(log[12])
    assert game.from_text(log[13].output).is_over
    assert len(log[15].history) == 5 and log[15].history[-1].mover == "X"  # undo after the end
    assert len(log[17].history) == 6 and repl.state.winner == "X"
    assert repl.log[-1].line == "quit"


@pytest.mark.parametrize("seed", range(6))
def test_whole_game_against_the_random_ai_with_garbage_between_moves(game: Game, seed: int
                                                                    ) -> None:
    junk: Iterator[str] = iter(GARBAGE * 2)
    tail = ["b2", "moves", "undo", "quit"]  # once the game is over
    progress: dict[str, object] = {"lines": 0, "tail": None}

    def decide(repl: Repl) -> str | None:
        progress["lines"] = int(progress["lines"]) + 1  # type: ignore[call-overload]
        left = progress["tail"]
        if isinstance(left, list):
            return left.pop(0) if left else None
        state: State = repl.state  # type: ignore[attr-defined]
        if int(progress["lines"]) % 2:  # type: ignore[call-overload]
            return next(junk)  # every other line is garbage
        if state.is_over:
            progress["tail"] = tail[1:]
            return tail[0]
        assert state.mover == "X", "the person is asked for a line on the AI's turn"
        return str(state.legal_moves()[-1])

    driver = Driver(decide)
    repl = Recording(game, {"O": RandomAgent(seed)}, stdin=driver, stdout=io.StringIO())  # type: ignore[arg-type]
    driver.repl = repl
    repl.cmdloop()
    assert_no_crash(repl)
    assert repl.log[-1].line == "quit"
    out = output(repl)
    assert "Game over" in out
    assert "O (random) plays" in out
    for step in repl.log:
        if step.line in GARBAGE:
            assert_one_line_error(step)
    # after the game: a move is refused, moves says so, undo takes back the last exchange
    after = repl.log[-4:]
    assert [s.line for s in after] == tail
    assert_one_line_error(after[0])
    assert "over" in after[0].output
    assert "no legal moves" in after[1].output
    assert not after[2].history[-1].is_over and after[2].history[-1].mover == "X"
    # every human move was answered by exactly one AI move, or ended the game
    for before, step in zip(repl.log, repl.log[1:], strict=False):
        grew = len(step.history) - len(before.history)
        if step.line not in GARBAGE and grew > 0:
            assert grew == 2 or step.history[-1].is_over and grew == 1


# Several decisions on one line -----------------------------------------------------------------

def test_a_line_spanning_two_turns_is_refused_with_nothing_played(game: Game) -> None:
    repl = session(game, "a1 b1\na1 b1 c1\n" + "a1 " * 3000 + "\nb2 zz9\nb2 b2\nquit\n")
    assert_no_crash(repl)
    for step in repl.log[:-1]:
        assert_one_line_error(step)
        assert len(step.history) == 1, step.line[:30]
    assert "nothing was played" in repl.log[0].output
    assert repl.state.to_text() == game.initial_state().to_text()


def test_a_line_spanning_the_ai_turn_is_refused(game: Game) -> None:
    repl = session(game, "a1 b1\nquit\n", {"O": RandomAgent(1)})
    assert_one_line_error(repl.log[0])
    assert len(repl.log[0].history) == 1
    assert "plays" not in repl.log[0].output  # the AI was not asked to move either


# undo with an AI ---------------------------------------------------------------------------

def test_undo_takes_back_the_ai_reply_too(game: Game) -> None:
    repl = session(game, "b2\nundo\nb2\na1\nundo\nquit\n", {"O": RandomAgent(7)})
    assert_no_crash(repl)
    b2, undo1, _, a1, undo2, _ = repl.log
    assert len(b2.history) == 3 and "O (random) plays" in b2.output
    assert len(undo1.history) == 1
    assert undo1.history[-1].to_text() == game.initial_state().to_text()
    # a1 was played and answered, or refused because O had taken it; either way undo goes
    # back to X's turn before it
    assert len(a1.history) in (3, 5)
    assert len(undo2.history) == len(a1.history) - 2 and undo2.history[-1].mover == "X"


def test_undo_after_the_ai_won(game: Game) -> None:
    agents = {"O": Scripted(["a3", "b3", "c3"])}
    repl = session(game, "a1\na2\nc1\nundo\nquit\n", agents)
    assert_no_crash(repl)
    won = repl.log[2].history[-1]
    assert won.is_over and won.winner == "O", won.to_text()
    undone = repl.log[3].history
    assert len(undone) == 5 and undone[-1].mover == "X"
    assert undone[-1].to_text() == game.initial_state().play("a1").play("a3").play("a2") \
        .play("b3").to_text()


def test_undo_never_leaves_the_ai_to_move(game: Game) -> None:
    """The AI moves first; undo at the person's first turn must not hand the person the AI's
    side (it should say there is nothing to undo, or let the AI move again)."""
    repl = session(game, "undo\nmoves\nundo\nquit\n", {"X": RandomAgent(1)})
    assert_no_crash(repl)
    for step in repl.log:
        assert step.history[-1].mover == "O", (step.line, step.history[-1].to_text())


def test_both_sides_ai_plays_the_whole_game(game: Game) -> None:
    repl = session(game, "", {"X": RandomAgent(1), "O": RandomAgent(2)})
    assert_no_crash(repl)
    assert repl.state.is_over
    assert "Game over" in output(repl)


# Through the console script -------------------------------------------------------------------

def play(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    return ludeme("play", "games/tictactoe.game", *args, stdin=script, timeout=60)


# X tries every site in turn: each try either plays (and O answers) or is refused as occupied,
# so after the ninth the board is full or someone has won, whatever O does.
EVERY_SITE = ["b2", "a1", "a2", "a3", "b1", "b3", "c1", "c2", "c3"]
CONSOLE_GARBAGE = ["undo", "(", "zz9", "c3-", "", "moves", "show", "show text", "help",
                   "a1 b1 c1", "€é✓", "a" * 3000]


def test_console_game_against_the_random_ai() -> None:
    lines = CONSOLE_GARBAGE + [x for site in EVERY_SITE for x in (site, "zz9")] \
        + ["b2", "moves", "undo", "show", "quit", "b2"]
    script = "\n".join(lines) + "\n"
    r = play(script, "--ai", "O=random", "--seed", "1")
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stdout + r.stderr
    assert "internal error" not in r.stdout
    assert r.stderr == ""
    assert "Game over" in r.stdout
    assert "O (random) plays" in r.stdout
    assert "nothing to undo" in r.stdout
    assert "commands:" in r.stdout and "mover: X" in r.stdout
    assert "the game is over" in r.stdout
    errors = [ln for ln in r.stdout.splitlines() if "error: " in ln]
    assert len(errors) >= len(EVERY_SITE) + 7
    again = play(script, "--ai", "O=random", "--seed", "1")
    assert again.stdout == r.stdout  # the seed makes the AI reproducible


def test_console_session_ends_at_eof() -> None:
    r = play("zz9\n(\n\n\u00e9\nb2\n")
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stdout + r.stderr
    assert r.stdout.count("error: ") == 3
    assert "O to move" in r.stdout


def test_console_two_ais() -> None:
    r = play("moves\n", "--ai", "X=random", "--ai", "O=random", "--seed", "5")
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stdout + r.stderr
    assert "Game over" in r.stdout
    assert "no legal moves" in r.stdout


# --- save and load say what went wrong in one line ----------------------------------------------

def said_by(game: Game, script: str) -> list[str]:
    """The lines the REPL printed for a script, without the boards and the status lines."""
    out = io.StringIO()
    Repl(game, {}, stdin=io.StringIO(script), stdout=out).cmdloop()
    return [line.removeprefix("> ") for line in out.getvalue().splitlines()
            if "error" in line or "saved" in line or "loaded" in line]


def test_save_and_load_say_what_is_wrong_in_one_line(game: Game, tmp_path: Path) -> None:
    import os

    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "bin.rec").write_bytes(b"\xff\xfe\x00\x01")
    (tmp_path / "nul.rec").write_bytes(b"game: x\x00\n")
    script = "\n".join([
        "save /", f"save {tmp_path}", f"save {tmp_path}/", f"save {tmp_path}/no/such/dir.rec",
        f"save {tmp_path}/pipe",
        "load /dev/zero", f"load {tmp_path}", f"load {tmp_path}/none.rec", f"load {tmp_path}/pipe",
        f"load {tmp_path}/bin.rec", "load /etc/passwd", "quit"]) + "\n"
    said = said_by(game, script)
    assert said == [
        "error: cannot write /: it is a directory: name a file",
        f"error: cannot write {tmp_path}: it is a directory: name a file",
        f"error: cannot write {tmp_path}/: it is a directory: name a file",
        f"error: cannot write {tmp_path}/no/such/dir.rec: there is no directory "
        f"{tmp_path}/no/such",
        f"error: cannot write {tmp_path}/pipe: it is not a regular file",
        "error: /dev/zero:1: cannot read the record: it is not a regular file",
        f"error: {tmp_path}:1: cannot read the record: it is a directory",
        f"error: {tmp_path}/none.rec:1: cannot read the record: No such file or directory",
        f"error: {tmp_path}/pipe:1: cannot read the record: it is not a regular file",
        f"error: {tmp_path}/bin.rec:1: cannot read the record: it is not UTF-8 text",
        "error: /etc/passwd:1: this is not a ludeme record: a record begins with 'game:' and "
        "'sha256:' lines",
    ]
    assert (tmp_path / "pipe").is_fifo() and not list(tmp_path.glob("*.tmp"))


def test_a_file_the_repl_keeps_that_cannot_be_written_is_one_line(game: Game,
                                                                    tmp_path: Path) -> None:
    from interpreter.record import RecordWriter

    target = tmp_path / "kept.rec"
    recorder = RecordWriter(target, game, TICTACTOE)
    target.unlink()
    (tmp_path / "kept.rec").mkdir()  # the record being kept becomes a directory
    out = io.StringIO()
    Repl(game, {}, stdin=io.StringIO(f"b2\nsave {tmp_path}/ok.rec\nload {tmp_path}/ok.rec\n"
                                     "quit\n"), stdout=out, recorder=recorder).cmdloop()
    recorder.close()
    errors = [line for line in out.getvalue().splitlines() if "error" in line]
    assert errors == [f"> error: cannot write {target}: it is a directory: name a file"]
