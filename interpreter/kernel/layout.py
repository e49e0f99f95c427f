"""The fixed part of a kernel's state: after the board's N sites, a header of named slots,
then the sites the current turn changed, then the slots lowerings declare.

Every offset is written relative to N in the generated module (`H_RESULT = N + 1`), so the
same names serve every board size.
"""

from __future__ import annotations

# Header slots, in order after the board.
HEADER = (
    "H_TO_MOVE",   # the role to move
    "H_RESULT",    # PLAYING, DRAW or the winner's role
    "H_REASON",    # the index of the end rule that ended the game (-1 while playing)
    "H_TURN",      # completed turns
    "H_PASSES",    # turns in succession that were nothing but passes
    "H_LAST_TO",   # where the last decision put or moved a piece (-1: none)
    "H_LAST_FROM",  # where it moved a piece from (-1: none)
    "H_NCHANGED",  # how many sites the turn in progress changed (-1: too many to list)
)
PLAYING = -2  # H_RESULT while the game goes on
DRAW = -1  # H_RESULT of a draw (as stdlib.structure.DRAW)


def changed_capacity(sites: int) -> int:
    """How many changed sites a turn records before it records only "many"."""
    return 2 * sites + 8


def header_source(sites: int) -> str:
    """The generated module's layout constants."""
    lines = [f"N = {sites}"]
    for i, name in enumerate(HEADER):
        lines.append(f"{name} = N + {i}")
    lines.append(f"CHANGED = N + {len(HEADER)}  # the sites the turn changed, in order")
    lines.append(f"CHANGED_CAP = {changed_capacity(sites)}")
    lines.append(f"PLAYING = {PLAYING}")
    lines.append(f"DRAW = {DRAW}")
    return "\n".join(lines)


def fixed_size(sites: int) -> int:
    """The state's size before the lowerings' own slots."""
    return sites + len(HEADER) + changed_capacity(sites)
