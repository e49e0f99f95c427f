"""Move notation: text ↔ (kind, sites), as the contract defines it.

Each kind of move says how it is written, and how text in its syntax is read back, in the
registry of move kinds (stdlib/movekinds.py); this module reads text with it.

| place | `c3` | move | `c3-d4` | several placements | `c3,c4` | exchange | `e5<>f5` |
| pass | `pass` | swap sides | `swap` | a move that promotes | `e7-e8=Q` |
"""

from __future__ import annotations

from interpreter.errors import IllegalMoveError
from stdlib.movekinds import NotationError, read


def parse_move(text: str, index: dict[str, int]) -> tuple[str, tuple[int, ...]]:
    """The (kind, sites) key of a move written in notation — the kind its syntax reads as (a
    site reads as a placement; other kinds written alike match it, see MoveKind.matches);
    IllegalMoveError if it is not notation for this board. Sites of several placements and of
    an exchange are sorted, so any order is accepted."""
    if not text.strip():
        raise IllegalMoveError("empty move: type a site (c3), a move (c3-d4), 'pass' or 'swap'")
    try:
        return read(text, index)
    except NotationError as exc:
        raise IllegalMoveError(str(exc)) from None
