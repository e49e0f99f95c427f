"""The fixed part of a kernel's state: after the board's N sites, a header of named slots,
the roles' scores, the sites the current turn changed, the hands (only in games that have
them), the edges (only in games whose board declares them), then the slots lowerings
declare, and last (in games that keep one) the position history.

The state is an int64 array (a Zobrist hash fits a slot). Every offset is written relative
to N in the generated module (`H_RESULT = N + 1`), so the same names serve every board size.
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
    "H_PHASE",     # the index of the game's current stage
    "H_STEP",      # the index of the current decision within the phase's turn
    "H_TO",        # the last decision's sites, as To and From see them (-1: none)
    "H_FROM",
    "H_AGAIN",     # 1: a step of this decision gave the mover another turn
    "H_REFUSED",   # 1: a step after the decision refused it (only while trying a move)
    "H_TAKEN",     # pieces of other roles the decision (and its steps so far) took
    "H_ALLPASS",   # 1: every decision of the turn so far was a pass
    "H_PIE_OPEN",  # 1: the mover may play swap
    "H_SWAPPED",   # 1: the people have exchanged roles
    "H_TRYING",    # 1: a copy on which a move is tried with the steps after it
    "H_HASH",      # in games with a position history: the board's Zobrist hash
    "H_HISTORY",   # ... and how many hashes the history holds (at HISTORY, last in the state)
    "H_NDICE",     # how many dice are rolled and not used (their values at DICE)
    "H_QUIET",     # decisions in a row that took no piece (and moved none that resets it)
    "H_RESETS",    # 1: the last decision moved a piece that resets H_QUIET
)
DICE_CAP = 32  # dice kept at once (stdlib.chance: 8 dice, a double counted up to 4 times)
PLAYING = -2  # H_RESULT while the game goes on
DRAW = -1  # H_RESULT of a draw (as stdlib.structure.DRAW)


def changed_capacity(sites: int) -> int:
    """How many changed sites a turn records before it records only "many"."""
    return 2 * sites + 8


def hands_width(roles: int, counted: bool, kinds: int) -> int:
    """The hands' region: with counted hands (a supply), per role the pieces in hand (-1:
    not counted) at HANDS and, at HANDS_BEFORE, what they were when the batch of changes in
    progress began (a role with reuse:false gets back no more than a batch puts down); with
    hands by kind, per role and kind the pieces held at HELD + role * HELD_KINDS + kind.
    Nothing for a game without hands."""
    return (2 * roles if counted else 0) + roles * kinds


def header_source(sites: int, roles: int, counted: bool = False, kinds: int = 0,
                  edges: int = 0) -> str:
    """The generated module's layout constants."""
    lines = [f"N = {sites}"]
    for i, name in enumerate(HEADER):
        lines.append(f"{name} = N + {i}")
    lines.append(f"H_SCORES = N + {len(HEADER)}  # one score per role")
    lines.append(f"DICE = N + {len(HEADER) + roles}  # the dice not used yet")
    lines.append(f"DICE_CAP = {DICE_CAP}")
    lines.append(f"CHANGED = N + {len(HEADER) + roles + DICE_CAP}  # the sites the turn "
                 "changed, in order")
    lines.append(f"CHANGED_CAP = {changed_capacity(sites)}")
    lines.append("HANDS = CHANGED + CHANGED_CAP  # the hands (hands_width), if any")
    lines.append(f"HANDS_BEFORE = HANDS + {roles if counted else 0}")
    lines.append(f"HELD = HANDS + {2 * roles if counted else 0}")
    lines.append(f"HELD_KINDS = {kinds}")
    if edges:  # (a game without edges has the module it had before they were laid out)
        lines.append(f"EDGES = HELD + {roles * kinds}  # the edges' values (edges_offset)")
        lines.append(f"EDGE_COUNT = {edges}")
    lines.append(f"PLAYING = {PLAYING}")
    lines.append(f"DRAW = {DRAW}")
    return "\n".join(lines)


def hands_offset(sites: int, roles: int) -> int:
    """Where the hands begin (HANDS)."""
    return sites + len(HEADER) + roles + DICE_CAP + changed_capacity(sites)


def edges_offset(sites: int, roles: int, counted: bool = False, kinds: int = 0) -> int:
    """Where the edges begin (EDGES): after the hands, one value per edge of the board's
    edge sets (stdlib/edges.py: 0 empty, role + 1 held), numbered as the interpreter's
    State.edges; nothing in a game whose board declares none."""
    return hands_offset(sites, roles) + hands_width(roles, counted, kinds)


def fixed_size(sites: int, roles: int, counted: bool = False, kinds: int = 0,
               edges: int = 0) -> int:
    """The state's size before the lowerings' own slots."""
    return edges_offset(sites, roles, counted, kinds) + edges
