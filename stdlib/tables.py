"""Tables: the board of the backgammon family, and how its moves from the bar and off the
board are written.

A tables board is two rows of twelve points, numbered 1 to 24 round the board: the bottom
row holds 12 down to 1 from left to right, the top row 13 up to 24, and each row is split in
the middle by its half of the bar (`barN` in the top row, `barS` in the bottom). Checkers of
a role stand in stacks (`(player ... pile:true)`); `(move-by-die ...)` moves them one at a
time along each role's track, which starts on the role's half of the bar (a checker there
enters the board) and ends at the last point, past which checkers are borne off.

Notation (the contract's `from-to`, with the two words of the game): a checker entering from
the bar is written `bar-20`, a checker borne off `6-off`; every other checker move is
`13-7`.
"""

from __future__ import annotations

from collections.abc import Sequence

import networkx as nx

from stdlib.boards import Board
from stdlib.movekinds import (
    MOVE,
    Key,
    MoveKind,
    NotationError,
    SiteOf,
    Sites,
    Syntax,
    pair_block,
    refuse_piece_move,
    register,
    site_block,
)
from stdlib.registry import ludeme

POINTS = 24  # points of a tables board
BAR = "bar"  # the word for a role's bar in notation (bar-20)
OFF = "off"  # the word for off the board (6-off)


# The board --------------------------------------------------------------------------------------


@ludeme("tables")
def tables() -> Board:
    """The board of backgammon and the other tables games: 24 points in two rows of twelve,
    named 1 to 24 round the board (the bottom row 12 down to 1 from left to right, the top
    row 13 up to 24), each row split in the middle by a half of the bar, the sites `barN`
    (top) and `barS` (bottom). Points side by side in a row are joined E-W; sides N (the top
    row) and S (the bottom row). Declare each role's way round with (track ...), starting on
    its half of the bar.

    (board (tables))"""
    g = nx.DiGraph(board="tables", directions=("E", "W"))
    half = POINTS // 4  # points in a quarter of the board
    top = [str(n) for n in range(2 * half + 1, 3 * half + 1)] + ["barN"] + \
        [str(n) for n in range(3 * half + 1, POINTS + 1)]
    bottom = [str(n) for n in range(2 * half, half, -1)] + ["barS"] + \
        [str(n) for n in range(half, 0, -1)]
    for row, names in enumerate((top, bottom)):
        for col, name in enumerate(names):
            g.add_node((row, col), name=name, row=row, col=col, x=float(col), y=float(1 - row))
        for col in range(len(names) - 1):
            g.add_edge((row, col), (row, col + 1), direction="E")
            g.add_edge((row, col + 1), (row, col), direction="W")
    g.graph["sides"] = {"N": [(0, c) for c in range(len(top))],
                        "S": [(1, c) for c in range(len(bottom))]}
    return g


# Moves from the bar and off the board -----------------------------------------------------------


def _site_or_none(site_of: SiteOf, token: str) -> int | None:
    try:
        return site_of(token)
    except NotationError:
        return None


def _write_enter(kind: str, sites: Sites, names: Sequence[str]) -> str:
    return f"{BAR}-{names[sites[-1]]}"


def _worded(text: str, site_of: SiteOf, word: str, first: bool) -> int | None:
    """The site of `word-site` (first) or `site-word`, or None when the text is not so
    written (or when the board has a site named like the word: then it is a move)."""
    head, dash, tail = text.partition("-") if first else text.rpartition("-")
    said, site = (head, tail) if first else (tail, head)
    if not dash or said.strip().lower() != word or _site_or_none(site_of, said.strip()) \
            is not None:
        return None
    return site_of(site.strip())


def _read_enter(text: str, site_of: SiteOf) -> Key | None:
    site = _worded(text, site_of, BAR, True)
    return None if site is None else (BAR, (site,))  # the mover's bar, whichever site it is


def _enter_matches(kind: str, sites: Sites, written: Key) -> bool:
    """bar-20 names the point entered; the mover's bar is where it comes from. Written with
    the bar's own site name (barN-20), it is a move like any other."""
    return written in ((BAR, sites[-1:]), (kind, sites), (MOVE.name, sites))


def _write_off(kind: str, sites: Sites, names: Sequence[str]) -> str:
    return f"{names[sites[0]]}-{OFF}"


def _read_off(text: str, site_of: SiteOf) -> Key | None:
    site = _worded(text, site_of, OFF, False)
    return None if site is None else (BEAR_OFF.name, (site,))


ENTERING = Syntax("enter", 35, _write_enter, _read_enter)
ENTER = register(MoveKind("enter", ENTERING, "move", 40, pair_block,
                          hint="bar- and the point entered (bar-20)", moves_piece=True,
                          click="move", matches=_enter_matches, refuse=refuse_piece_move))
# An entering move as written (bar-20): the point alone, the bar being the mover's. Only read,
# never made: the legal move it stands for is an "enter" move (see _enter_matches).
WRITTEN_ENTER = register(MoveKind(BAR, ENTERING, "move", 40, None,
                                  hint="bar- and the point entered (bar-20)", click="move"))
BEAR_OFF = register(MoveKind("off", Syntax("off", 36, _write_off, _read_off), "remove", 41,
                             site_block, hint="the point and -off (6-off)", click="place",
                             clicked=1))
