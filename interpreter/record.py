"""Game records: a game's moves in a text file, replayed and checked move by move.

A record names the game file, the SHA-256 of its text and every option in force, then lists
the moves, one decision per line, in notation. `#` starts a comment, on a line of its own or
after a move::

    # ludeme record
    game: tictactoe.game
    sha256: 5c1b...e0
    b2
    a1   # O takes a corner
    # result: X wins (...)

The `game:` path is relative to the record's own directory (or absolute); when no file is
there, it is tried relative to the current directory. Records written by ludeme use a relative
path when the game file is inside the record's directory, else an absolute one. A record
whose game file has changed since it was made (another hash) is refused: its moves might
mean something else now.

Every problem is a `RecordError` located as `record:line: message`.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from dsl.errors import MAX_QUOTED, GameError, RuleError, snippet
from interpreter import parse_game
from interpreter.files import read_text
from interpreter.game import Game, State

MAGIC = "# ludeme record"


class RecordError(GameError):
    """A record that cannot be read or replayed; `str()` is `record:line: message`."""

    def __init__(self, source: str, line: int, message: str) -> None:
        self.source = source
        self.line = line
        self.message = message
        super().__init__(f"{source}:{line}: {message}")


def text_hash(text: str) -> str:
    """The SHA-256 (hex) of a game file's text, as UTF-8."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def format_option(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


@dataclass
class Record:
    """A parsed record: where each header value and move came from (line numbers)."""

    source: str
    game: str = ""
    game_line: int = 0
    sha256: str = ""
    sha256_line: int = 0
    options: dict[str, str] = field(default_factory=dict)
    option_lines: dict[str, int] = field(default_factory=dict)
    moves: list[tuple[int, str]] = field(default_factory=list)  # (line number, notation)

    def game_path(self) -> Path:
        """The game file: beside the record, else relative to the current directory."""
        path = Path(self.game)
        if path.is_absolute():
            return path
        beside = Path(self.source).parent / path
        return beside if beside.exists() or not path.exists() else path


def parse_record(text: str, source: str = "<record>") -> Record:
    """The header and moves of a record's text; RecordError for a malformed header."""
    rec = Record(source)
    in_moves = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, colon, value = line.partition(":")
        if colon and not in_moves:
            key, value = key.strip().lower(), value.strip()
            if key == "game":
                if rec.game:
                    raise RecordError(source, number, "'game:' given twice")
                if not value:
                    raise RecordError(source, number, "'game:' needs the game file's path")
                rec.game, rec.game_line = value, number
            elif key == "sha256":
                if rec.sha256:
                    raise RecordError(source, number, "'sha256:' given twice")
                if len(value) != 64 or any(c not in "0123456789abcdef" for c in value.lower()):
                    raise RecordError(source, number, "'sha256:' needs 64 hexadecimal digits")
                rec.sha256, rec.sha256_line = value.lower(), number
            elif key == "option":
                name, eq, val = value.partition("=")
                name, val = name.strip(), val.strip()
                if not eq or not name:
                    raise RecordError(source, number, "an option line is written "
                                      "'option: NAME=VALUE'")
                if name in rec.options:
                    raise RecordError(source, number, f"option {snippet(name)} given twice")
                rec.options[name] = val
                rec.option_lines[name] = number
            else:
                if not (rec.game or rec.sha256 or rec.options):
                    raise RecordError(source, number, "this is not a ludeme record: a record "
                                      "begins with 'game:' and 'sha256:' lines")
                raise RecordError(source, number, f"unknown header key {snippet(key)} (keys: "
                                  "game, sha256, option)")
            continue
        if colon:
            raise RecordError(source, number, "header lines ('key: value') must come before "
                              "the moves")
        if not rec.game:
            raise RecordError(source, number, "the record must begin with 'game:' and "
                              "'sha256:' lines before the moves")
        if len(line.split()) > 1:
            raise RecordError(source, number, f"one move per line, not {len(line.split())}")
        in_moves = True
        rec.moves.append((number, line))
    if not rec.game:
        raise RecordError(source, 1, "no 'game:' line: this is not a ludeme record")
    if not rec.sha256:
        raise RecordError(source, rec.game_line, "no 'sha256:' line (the hash of the game "
                          "file's text)")
    return rec


def load_record_game(rec: Record, game_file: str | Path | None = None) -> Game:
    """Load the game a record names (or `game_file` instead) with the record's options, after
    checking that the file's text has the record's hash."""
    path = Path(game_file) if game_file is not None else rec.game_path()
    line = rec.game_line
    try:
        text = read_text(path)
    except (OSError, UnicodeDecodeError) as exc:
        why = getattr(exc, "strerror", None) or str(exc)
        raise RecordError(rec.source, line, f"cannot read the game file {path}: {why}") \
            from None
    if text_hash(text) != rec.sha256:
        raise RecordError(rec.source, rec.sha256_line, f"the game file {path} has changed "
                          "since this record was made (its sha256 differs)")
    try:
        return parse_game(text, str(path), **rec.options)
    except RuleError as exc:  # an option the game refuses is the record's fault: say where
        for d in exc.diagnostics:
            for name, number in rec.option_lines.items():
                if re.search(rf"\boption '?{re.escape(name)}\b", d.message):
                    raise RecordError(rec.source, number, d.message) from None
        raise


def replay(rec: Record, game: Game) -> tuple[list[State], list[str]]:
    """Every state of the recorded game from the initial one, and the moves in canonical
    notation; RecordError at the first move that does not parse or is not legal."""
    states = [game.initial_state()]
    moves: list[str] = []
    for number, text in rec.moves:
        try:
            move = game.find(states[-1], text)
        except GameError as exc:
            said = str(exc) if len(text) <= MAX_QUOTED else \
                f"the move {snippet(text)} is not a move of this game"
            raise RecordError(rec.source, number, said) from None
        states.append(game.apply(states[-1], move))
        moves.append(str(move))
    return states, moves


def read_record(path: str | Path) -> Record:
    """Read and parse the record in a file (the moves are not checked yet)."""
    source = str(path)
    try:
        text = read_text(path)
    except OSError as exc:
        raise RecordError(source, 1, f"cannot read the record: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise RecordError(source, 1, "cannot read the record: it is not UTF-8 text") from None
    return parse_record(text, source)


def load_record(path: str | Path, game_file: str | Path | None = None
                ) -> tuple[Game, list[State], list[str]]:
    """Read, check and replay the record in a file: the game, its states and its moves."""
    rec = read_record(path)
    game = load_record_game(rec, game_file)
    states, moves = replay(rec, game)
    return game, states, moves


def check_same_game(game: Game, rec: Record) -> None:
    """RecordError unless `game` is the game a record was made for: the same file text and
    the same options (an option the record leaves out has its default)."""
    if text_hash(game.env.text or "") != rec.sha256:
        raise RecordError(rec.source, rec.sha256_line, f"the record is for {rec.game}, not "
                          f"this game (or another version of its file)")
    mine = {k: format_option(v) for k, v in game.options.items()}
    for name, value in rec.options.items():
        if name not in mine:
            raise RecordError(rec.source, rec.option_lines[name], f"this game has no option "
                              f"{name!r}")
        if mine[name] != value:
            raise RecordError(rec.source, rec.option_lines[name], f"the record is for "
                              f"{name}={value}, this game has {name}={mine[name]}")
    missing = [k for k in mine if k not in rec.options]
    if missing:
        defaults = parse_game(game.env.text or "", "<record>").options
        for name in missing:
            if format_option(defaults[name]) != mine[name]:
                raise RecordError(rec.source, rec.game_line, f"the record is for "
                                  f"{name}={format_option(defaults[name])} (the default), "
                                  f"this game has {name}={mine[name]}")


def header(game: Game, game_path: str | Path, record_path: str | Path) -> str:
    """A record's header for `game`, loaded from `game_path`, to be written at
    `record_path`. The game's path is written relative to the record's directory when the
    game file is inside it, else absolute."""
    where = Path(record_path).resolve().parent
    target = Path(game_path).resolve()
    name = target.relative_to(where) if target.is_relative_to(where) else target
    lines = [MAGIC, f"# {game.name}: {' vs '.join(game.players)}",
             f"game: {name.as_posix()}", f"sha256: {text_hash(game.env.text or '')}"]
    lines += [f"option: {k}={format_option(v)}" for k, v in game.options.items()]
    return "\n".join(lines) + "\n"


def result_comment(state: State) -> str:
    """`# result: ...` for a finished game."""
    if state.winner is None:
        return f"# result: a draw ({state.reason})\n"
    return f"# result: {state.winner} wins ({state.reason})\n"


def format_record(game: Game, game_path: str | Path, record_path: str | Path,
                  moves: list[str], final: State | None = None) -> str:
    """A whole record: header, moves, and the result as a comment if the game is over."""
    text = header(game, game_path, record_path) + "".join(m + "\n" for m in moves)
    if final is not None and final.is_over:
        text += result_comment(final)
    return text


def save_record(path: str | Path, game: Game, game_path: str | Path, moves: list[str],
                final: State | None = None) -> None:
    """Write a whole record, replacing the file in one step (a crash leaves the old one)."""
    target = Path(path)
    if "\0" in str(path):
        raise OSError(0, "a file name has no NUL character")
    if not target.name or target.is_dir() or str(path).endswith(("/", os.sep)):
        raise IsADirectoryError(0, "it is a directory: name a file")
    if target.exists() and not target.is_file():  # a device, a pipe: never replaced
        raise OSError(0, "it is not a regular file")
    if not target.parent.is_dir():
        raise FileNotFoundError(0, f"there is no directory {target.parent}")
    tmp = target.with_name(target.name + ".tmp")
    try:
        tmp.write_text(format_record(game, game_path, target, moves, final), encoding="utf-8")
        os.replace(tmp, target)
    except OSError:
        tmp.unlink(missing_ok=True)
        raise


class RecordWriter:
    """Keeps a record file up to date while a game is played: each move is appended and
    flushed as it is made; `rewrite` replaces the moves (after an undo or a load)."""

    def __init__(self, path: str | Path, game: Game, game_path: str | Path,
                 moves: list[str] | None = None) -> None:
        self.path = Path(path)
        self.game = game
        self.game_path = game_path
        self.file: IO[str] | None = None
        self.rewrite(moves or [])

    def append(self, move: str, after: State) -> None:
        assert self.file is not None
        self.file.write(move + "\n")
        if after.is_over:
            self.file.write(result_comment(after))
        self.file.flush()

    def rewrite(self, moves: list[str], final: State | None = None) -> None:
        """Replace the record's moves; GameError (one line) if the file cannot be written."""
        self.close()
        try:
            save_record(self.path, self.game, self.game_path, moves, final)
            self.file = self.path.open("a", encoding="utf-8")
        except OSError as exc:
            raise GameError(f"cannot write {self.path}: {exc.strerror or exc}") from None

    def close(self) -> None:
        if self.file is not None:
            self.file.close()
            self.file = None
