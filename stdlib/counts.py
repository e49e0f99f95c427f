"""Counts on sites: piece kinds of which one site may hold several (seeds in a pit, declared
`(piece ... pile:true)`; a stack of a role's checkers, `(player ... pile:true)`).

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
            pieces.append(PieceType(kind.name, count_symbol(kind, count), kind.owner,
                                    len(pieces) + 1, count=count))
        tables[first] = tuple(table)
    return tables


def count_symbol(kind: PieceType, count: int) -> str:
    """How position text writes `count` of a kind on one site: a neutral pile as its count
    (`12`), a stack of a role's pieces as their symbol and the count (`W5`)."""
    return str(count) if kind.owner == NEUTRAL else f"{kind.symbol}{count}"


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
    """A neutral pile's count of 1 is written 1, like the others: give the kinds that symbol
    (one piece of a role's stack is written as the piece, `W`)."""
    for first in kinds:
        if pieces[first - 1].owner == NEUTRAL:
            pieces[first - 1] = replace(pieces[first - 1], symbol="1")
