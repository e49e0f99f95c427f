"""The moves an end rule lists, kept for the turn that follows.

An end rule such as (stuck Next) lists the moves of the player about to move, on the position
as it is judged after a turn; the next thing a random game does is list that player's moves
again, on the same position, to choose one. A kernel whose first decisions are cheap to keep
(MAX_MOVES at most `MEMO_CAP`) keeps that listing in a slot of its state and `legal` takes it
from there:

- `end_turn` arms the slot (1) before judging, and disarms it after if nothing used it;
- `can_move` on an armed slot disarms it (calls inside its own listing list as before),
  lists the moves into it, with the player and phase, and marks it kept (2);
- `legal` takes the kept moves when they are of the player to move, in the phase and at the
  first decision of its turn;
- `apply` clears the slot: any move makes the kept listing stale.

The listing kept is the one `legal` would make: the position is the one judged (the end rules
are judged on the state itself, after the turn), and the listing may not depend on being made
inside (stuck ...) (whose guard slot is set meanwhile): a kernel whose first decisions' moves
ask (stuck ...) themselves, reaching `can_move`, keeps nothing, nor one whose end rules never
reach it (`keeps_listing`).
"""

from __future__ import annotations

import re

MEMO_CAP = 128  # the most moves a kept listing holds (2 * MEMO_CAP + 4 ints of the state)

ARMED = 1
KEPT = 2

MEMO_FUNCTIONS = f'''@njit(cache=True)
def memo_keep(st, mover, ph, buf, n):
    """Keep the n moves listed in buf (acts, then tags from MAX_MOVES) as mover's in phase
    ph; has mover one that is not a pass (can_move's answer)?"""
    st[MEMO_AT + 1] = mover
    st[MEMO_AT + 2] = ph
    st[MEMO_AT + 3] = n
    found = False
    for i in range(n):
        st[MEMO_AT + 4 + i] = buf[i]
        st[MEMO_AT + 4 + MAX_MOVES + i] = buf[MAX_MOVES + i]
        if PASS_TAGS[buf[MAX_MOVES + i]] == 0:
            found = True
    st[MEMO_AT] = {KEPT}
    return found


@njit(cache=True)
def memo_take(st, acts, tags):
    """The kept moves, into acts and tags; their count."""
    n = st[MEMO_AT + 3]
    for i in range(n):
        acts[i] = st[MEMO_AT + 4 + i]
        tags[i] = st[MEMO_AT + 4 + MAX_MOVES + i]
    return n'''


def memo_width(max_moves: int) -> int:
    """The ints of the state the kept listing takes (0: the kernel keeps none)."""
    return 4 + 2 * max_moves if max_moves <= MEMO_CAP else 0


def reaches(functions: str, starts: list[str], target: str) -> bool:
    """Does any of the functions `starts`, in the generated source `functions`, call
    `target`, directly or through others?"""
    calls: dict[str, set[str]] = {}
    for body in re.split(r"^def ", functions, flags=re.M)[1:]:
        name = body[:body.index("(")]
        calls[name] = set(re.findall(r"\b(\w+)\(", body[len(name):])) - {name}
    seen: set[str] = set()
    todo = list(starts)
    while todo:
        name = todo.pop()
        if name == target:
            return True
        if name not in seen:
            seen.add(name)
            todo += calls.get(name, ())
    return False


def keeps_listing(functions: str, end_rules: list[tuple[str, str]], listings: list[str]) -> bool:
    """Should a kernel keep the listings named `listings` (its first decisions'): its end
    rules (condition and result sources) reach can_move and those listings do not?"""
    judged = [name for rule in end_rules for text in rule
              for name in re.findall(r"\b(\w+)\(", text)]
    return (bool(listings) and reaches(functions, judged, "can_move")
            and not reaches(functions, listings, "can_move"))
