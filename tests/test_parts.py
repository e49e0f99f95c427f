"""The optional parts of compiled ludemes (stdlib/parts.py) are typed, and the hints among them
only make a game faster, never change it.

Every golden transcript (tests/golden/, recorded from the engine before its core was rebuilt)
is replayed on its game file compiled with every hint withheld — no ludeme says what it
reads, which kinds of move it makes, what its moves can reach, how to test an attack
backwards, or offers a screen — so every shortcut falls back to the general way: the legal
moves, the positions and the endings must be exactly the recorded ones.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from interpreter import load_game
from stdlib.parts import FACTS, HINTS, WORDING, Parts, mark, parts_of, withheld
from tests.test_golden_transcripts import ROOT, cases, replay, transcript

_games: dict[tuple[str, str], Any] = {}


def without_hints(game_file: str, options: dict[str, Any]) -> Any:
    key = (game_file, json.dumps(options, sort_keys=True))
    if key not in _games:
        with withheld():
            _games[key] = load_game(ROOT / game_file, **options)
    return _games[key]


@pytest.mark.parametrize(("path", "index"), cases())
def test_replay_without_hints(path: Path, index: int) -> None:
    header, _ = transcript(path)
    game = without_hints(header["file"], header["options"])
    with withheld():
        replay(path, index, game)


def test_withheld_hints_are_really_withheld() -> None:
    """A game compiled under withheld() carries wording but none of the hints that the same
    game carries otherwise (so the replay above does take the general paths)."""
    def given(game: Any) -> set[str]:
        """The hints given by the turns' decisions and the conditions of their steps."""
        found: set[str] = set()
        for steps in game.turns:
            for _, fn in steps:
                for part in (fn, getattr(fn, "condition", None)):
                    found |= {name for name in HINTS if getattr(parts_of(part), name)
                              not in (None, False, frozenset())}
        return found
    chess = load_game(ROOT / "games" / "chess.game")
    plain = without_hints("games/chess.game", {})
    assert given(chess) >= {"kinds", "screen"}  # the check test's screen
    assert given(plain) == set()
    assert plain.end_reasons() == chess.end_reasons()  # wording is kept


def test_parts_are_one_typed_record() -> None:
    assert WORDING | FACTS | HINTS == {f for f in Parts.__dataclass_fields__}
    assert not (WORDING & HINTS or FACTS & HINTS or WORDING & FACTS)

    def condition(ctx: object) -> bool:
        return True
    assert parts_of(condition).why is None  # nothing given: every part absent
    with pytest.raises(AttributeError, match="read-only"):
        parts_of(condition).why = "x"  # a function without parts is not written through
    mark(condition).why = "it holds"
    with pytest.raises(AttributeError):
        mark(condition).wy = "a misspelt part"  # type: ignore[attr-defined]
    assert parts_of(condition).why == "it holds"
