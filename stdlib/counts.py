"""Counts on sites: piece kinds of which one site may hold several (seeds in a pit, declared
`(piece ... pile:true)`).

Such a site holds one board value per count: the kind's own value is its count of 1, and
the values of counts 2 to MAX_PILE follow every other piece, each a PieceType with its
`count` and its count as its symbol. So every reader of the board (empty or occupied,
position text, hashes, pictures, trackers) works on counts unchanged, and games without
them pay nothing. The engine asks the Env about them (`kind_of`, `most_of`, `read_cell`,
`pile_value`) and never about this encoding.
"""

from __future__ import annotations

from dataclasses import replace

from stdlib.runtime import EMPTY, MAX_PILE, NEUTRAL, Env, PieceType


def add_counts(pieces: list[PieceType], kinds: list[int]) -> dict[int, tuple[int, ...]]:
    """Append to `pieces` a board value for each count 2 to MAX_PILE of each kind in `kinds`
    (given by their board values); the table per kind of the board value of each count
    (index 0: empty)."""
    tables: dict[int, tuple[int, ...]] = {}
    for first in kinds:
        kind = pieces[first - 1]
        table = [EMPTY, first]
        for count in range(2, MAX_PILE + 1):
            table.append(len(pieces) + 1)
            pieces.append(PieceType(kind.name, str(count), NEUTRAL, len(pieces) + 1,
                                    count=count))
        tables[first] = tuple(table)
    return tables


def use_counts(env: Env, tables: dict[int, tuple[int, ...]]) -> None:
    """Give the game's environment the tables of add_counts (before it is sealed)."""
    env.piles = tables


def symbol_clash(kind: PieceType, counted: bool) -> str | None:
    """Why a piece's symbol cannot be used in a game with counts (digits are counts)."""
    if counted and kind.count == 1 and kind.symbol.isdigit():
        return (f'piece "{kind.name}" has the symbol {kind.symbol!r}: in a game with piles, '
                "digits are the piles' counts")
    return None


def write_counts(pieces: list[PieceType], kinds: list[int]) -> None:
    """A count of 1 is written 1, like the others: give the kinds that symbol."""
    for first in kinds:
        pieces[first - 1] = replace(pieces[first - 1], symbol="1")
