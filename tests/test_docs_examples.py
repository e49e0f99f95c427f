"""Every example runs: each ludeme's docstring example (the last paragraph of its docstring, what
`ludeme grammar NAME` and the reference in docs/ show) compiles inside a small game, checked
against the registry like any game file.

An example is a fragment — a move generator, a condition, a section — so it is put where its
type belongs (a condition in an end rule, moves in the play section, a section in place of the
game's own...) in a game that gives it what it names: the game files in games/ and examples/
(those that use the ludeme first, for their pieces, regions and defines) and small games made
here.
The first that compiles passes; when none does, the test shows why on each."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

import stdlib
from dsl.ast import Form, Span
from dsl.errors import GameError
from dsl.parser import parse
from interpreter import parse_game
from interpreter.grammar import example

ROOT = Path(__file__).resolve().parent.parent
SPECS = sorted(stdlib.REGISTRY.values(), key=lambda s: s.name)

MINIMAL = """(game "Example"
  (players {(player "White" symbol:"W" forward:N) (player "Black" symbol:"B" forward:S)})
  (board (square 8))
  (play (place (sites Empty)))
  (end (if (full) (draw))))
"""

# The same with other roles, on a small board.
SMALL = MINIMAL.replace('"White" symbol:"W"', '"Red" symbol:"R"').replace(
    '"Black" symbol:"B"', '"Blue" symbol:"B"').replace("(square 8)", "(square 3)")

# A game with what the examples name: pieces of many kinds, a terrain piece, regions, defines.
KITCHEN = """(define "Jumps" (hop Diagonal))
(define "Attacks" (step All))
(define "PawnMoves" (step Forward of:"Pawn"))
(define "Captures" (sites Occupied Next))
(define "GrandSlam" (full))
(define "Moves" (step All))
(game "Kitchen"
  (players {(player "White" symbol:"M" piece:"Man" forward:N supply:40
                    kinds:{(piece "King" symbol:"K") (piece "Pawn" symbol:"P")
                           (piece "Horse" symbol:"H") (piece "Cannon" symbol:"C")
                           (piece "Rook" symbol:"R") (piece "Queen" symbol:"Q")
                           (piece "Bishop" symbol:"I") (piece "Knight" symbol:"N")})
            (player "Black" symbol:"m" piece:"Man" forward:S supply:40
                    kinds:{(piece "King" symbol:"k") (piece "Pawn" symbol:"p")
                           (piece "Horse" symbol:"h") (piece "Cannon" symbol:"c")
                           (piece "Rook" symbol:"r") (piece "Queen" symbol:"q")
                           (piece "Bishop" symbol:"i") (piece "Knight" symbol:"n")})})
  (pieces {(piece "Tile" symbol:"o") (piece "Arrow" symbol:"x") (piece "Line" symbol:"-")})
  (board (square 9))
  (special "mine" (sites {"e5"}) symbol:"*")
  (region "Home" (sites Row 1) owner:"White")
  (region "Home" (sites Row 9) owner:"Black")
  (play (place (sites Empty)))
  (end (if (full) (draw))))
"""

# Where a fragment of each type goes, as a section of the game: `{}` is the example.
SLOTS: dict[str, tuple[str, ...]] = {
    "Moves": ("(play {})",),
    "Effect": ("(play (place (sites Empty)) {})", "(play PLAY {})"),
    "TurnStep": ("(play (place (sites Empty)) {})",),
    "Boolean": ("(end (if {} (win Mover)))", "(play (place (sites Empty) if:{}))",
                "(end (if (some (sites Board) {}) (win Mover)))"),
    "Int": ("(end (if (> {} 0) (win Mover)))", "(play (place (sites Empty) if:(> {} 0)))",
            "(end (if (some (sites Board) (> {} 0)) (win Mover)))"),
    "Region": ("(play (place {}))", "(end (if (> (count {}) 0) (win Mover)))",
               "(play (place (sites Empty) if:(> (count {}) 0)))",
               "(end (if (some (sites Board) (> (count {}) 0)) (win Mover)))"),
    "Site": ("(play (place (sites Empty) if:(> (pieces-on {}) 0)))",
             "(end (if (> (pieces-on {}) 0) (win Mover)))"),
    "Result": ("(end (if (full) {}))",),
    "EndRule": ("(end {})",),
    "Pattern": ("(play (place (sites Empty) unless:(forms {})))",),
    "Relation": ("(play (place (sites Empty) if:(has-link To (link {}))))",),
    "Link": ("(play (place (sites Empty) if:(has-link To {})))",),
    "Capture": ("(play (place (sites Empty) capture:{}))",),
    "Regions": ("(end (if (connected Mover regions:{}) (win Mover)))",),
    "Board": ("(board {})",),
    "Setup": ("(start {})",),
    "Phase": ("(phases {} (phase \"play\" (place (sites Empty))))",),
    "Piece": ("(pieces {{{}}})",),
    "Player": ("(players {{{} (player \"Other\")}})",),
}


def offset(text: str, line: int, column: int) -> int:
    """The index in `text` of a 1-based line and column."""
    starts = [0]
    for i, ch in enumerate(text):
        if ch == "\n":
            starts.append(i + 1)
    return starts[line - 1] + column - 1


def extent(text: str, span: Span) -> tuple[int, int]:
    return offset(text, span.line, span.column), offset(text, span.end_line, span.end_column)


@cache
def harnesses() -> tuple[tuple[str, str], ...]:
    """(name, text) of every game file, then the minimal game."""
    files = sorted((ROOT / "games").glob("*.game")) + sorted((ROOT / "examples").glob("*.game"))
    return (*((str(p.relative_to(ROOT)), p.read_text(encoding="utf-8")) for p in files),
            ("<kitchen>", KITCHEN), ("<minimal>", MINIMAL), ("<small>", SMALL))


def with_section(name: str, text: str, section: str) -> str | None:
    """The game `text` with `section` (a form such as `(play ...)`) in place of its own section
    of that head, or added to the game when it has none (None when the game's section is not
    written plainly in the game form, e.g. chosen by a match)."""
    head = section[1:].split(None, 1)[0].rstrip(")")
    try:
        nodes = parse(text, name)
    except GameError:
        return None
    games = [n for n in nodes if isinstance(n, Form) and n.head == "game"]
    if len(games) != 1:
        return None
    game = games[0]
    own = [a for a in game.args if isinstance(a, Form) and a.head == head]
    if "PLAY" in section:  # the game's own turn, with a step added
        if not own:
            return None
        start, end = extent(text, own[0].span)
        inner = text[start:end].strip()[len("(play"):-1]
        section = section.replace("(play PLAY", "(play" + inner)
    if own:
        start, end = extent(text, own[0].span)
        return text[:start] + section + text[end:]
    if head in ("board", "players"):
        return None
    if head == "phases":
        plays = [a for a in game.args if isinstance(a, Form) and a.head == "play"]
        if not plays:
            return None
        start, end = extent(text, plays[0].span)
        return text[:start] + section + text[end:]
    start, end = extent(text, game.span)  # another section: added to the game
    return text[:end - 1] + "\n  " + section + ")" + text[end:]


def candidates(spec: stdlib.LudemeSpec) -> Iterator[tuple[str, str]]:
    """(where, game text) for the example of `spec`: the games that use the ludeme first."""
    ex = example(spec)
    (node,) = parse(ex, f"<{spec.name}>")
    assert isinstance(node, Form)
    outer = outer_spec(node)
    kind = outer.returns.name if outer is not None else "Moves"
    if kind == "Game":
        yield "the example itself", ex
        return
    slots = ("{}",) if kind in ("Section",) else SLOTS.get(kind, ())
    made = [h for h in harnesses() if h[0].startswith("<")]
    users = [h for h in harnesses() if f"({spec.name}" in h[1] and h not in made]
    others = [h for h in harnesses() if h not in users and h not in made]
    for name, text in [*users, *made, *others]:
        for slot in slots:
            section = slot.replace("{}", ex) if "{{" not in slot else slot.format(ex)
            game = with_section(name, text, section)
            if game is not None:
                yield f"{name} with {section}", game


def outer_spec(node: Form) -> stdlib.LudemeSpec | None:
    """The registered ludeme a form calls (`(sites Empty)` is `sites Empty`)."""
    if node.args:
        first = node.args[0]
        name = getattr(first, "name", None)
        if isinstance(name, str) and f"{node.head} {name}" in stdlib.REGISTRY:
            return stdlib.REGISTRY[f"{node.head} {name}"]
    return stdlib.REGISTRY.get(node.head)


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.name)
def test_the_example_compiles_in_a_game(spec: stdlib.LudemeSpec) -> None:
    tried: list[str] = []
    for where, text in candidates(spec):
        try:
            parse_game(text, f"<example of {spec.name}>")
        except GameError as exc:
            tried.append(f"{where}:\n{exc}")
            continue
        return
    shown = "\n\n".join(tried[:3] + tried[-1:])
    pytest.fail(f"the example of {spec.name}, {example(spec)!r}, compiles in no game "
                f"({len(tried)} tried); for instance:\n{shown}")
