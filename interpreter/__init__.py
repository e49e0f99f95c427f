"""The ludeme interpreter: load a game file, and play it.

    >>> from interpreter import load_game
    >>> game = load_game("games/tictactoe.game")
    >>> game.initial_state().play("b2").mover
    'O'
"""

from __future__ import annotations

from pathlib import Path

import stdlib
from dsl.ast import Span
from dsl.check import check
from dsl.errors import Diagnostic, GameError, RuleError
from dsl.expand import expand
from dsl.parser import not_a_game_file, parse
from interpreter.compile import compile_game
from interpreter.errors import IllegalMoveError, PositionError
from interpreter.files import read_text
from interpreter.game import Game, Outcome, State
from stdlib.runtime import Move

__all__ = ["Game", "GameError", "IllegalMoveError", "Move", "Outcome", "PositionError",
           "RuleError", "State", "load_game", "parse_game"]


def parse_game(text: str, source: str = "<string>", **options: object) -> Game:
    """Parse, expand, check and compile a game file's text; options override its defaults.
    A text that is not a game file at all is refused in one line, without quoting it."""
    foreign = not_a_game_file(text, source)
    if foreign is not None:
        raise RuleError([foreign])
    nodes = parse(text, source)
    expansion = expand(nodes, options, prelude=list(stdlib.prelude()), text=text, path=source,
                       strict=False)
    errors = expansion.errors + check(expansion.game, stdlib.REGISTRY)
    if errors:
        raise RuleError(located(errors, source), text)
    try:
        return compile_game(expansion, stdlib.REGISTRY, text)  # type: ignore[no-any-return]
    except RuleError as exc:
        raise RuleError(located(exc.diagnostics, source), text) from None


def located(errors: list[Diagnostic], source: str) -> list[Diagnostic]:
    """The errors in source order, each placed in the game file: one inside a library define
    is reported where the game file uses it, with a note naming the place in the library."""
    out = []
    for d in errors:
        span = d.span
        if span.path != source:
            call = span.via
            while call is not None and call[1].path != source:
                call = call[1].via
            if call is not None:
                d = Diagnostic(call[1], d.message, d.severity,
                               note=f'in define "{call[0]}", at {span.path}:{span.line}:'
                                    f"{span.column}")
        out.append(d)
    return sorted(out, key=lambda d: (d.span.path != source, d.span.line, d.span.column))


def load_game(path: str | Path, **options: object) -> Game:
    """Load a game file; options (e.g. size=6) override the defaults it declares."""
    try:
        text = read_text(path)
    except OSError as exc:
        raise RuleError([Diagnostic(Span(str(path), 1, 1), f"cannot read the file: "
                                    f"{exc.strerror or exc}")]) from None
    except UnicodeDecodeError:
        raise RuleError([Diagnostic(Span(str(path), 1, 1), "the file is not UTF-8 text")]) \
            from None
    return parse_game(text, str(path), **options)
