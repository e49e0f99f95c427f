"""Where the turn has been: the sites its decisions so far have changed, for a turn of several
decisions that may not come back to a site (a chain of hops in Chinese checkers may not land
where it has already been). Position text writes them, in the middle of a turn, as
`visited: e5 g7`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dsl.ast import Form, ListNode, Node
from stdlib.lowering import Lower, keywords, lowers
from stdlib.parts import mark
from stdlib.registry import ludeme
from stdlib.runtime import Ctx, Env
from stdlib.statefields import Keys, StateField, declare
from stdlib.types import Region

NONE: tuple[int, ...] = ()


class Visited(StateField):
    """The sites the turn in progress has changed: `visited: e5 g7` (left out at a turn's
    first decision). The engine keeps them on the position as `last` (the sites changed by the
    turn so far); a position read from text in the middle of a turn gets them from this key."""

    order = 45

    def __init__(self, names: tuple[str, ...], index: dict[str, int]) -> None:
        self.names = names
        self.index = index

    def keys(self, roles: tuple[str, ...]) -> list[str]:
        return ["visited"]

    def render(self, state: Any) -> list[str]:
        if not state.step or not state.last:
            return []
        return ["visited: " + " ".join(self.names[s] for s in sorted(set(state.last)))]

    def parse(self, state: Any, keys: Keys) -> None:
        given = keys.take("visited")
        if given is None:
            return
        number, value = given
        if not state.step:
            raise keys.error(number, "visited: is only for the middle of a turn (with "
                                     "decision: 2 or later)")
        sites = []
        for name in value.split():
            if name not in self.index:
                raise keys.error(number, f"visited: no site {name!r} on this board")
            sites.append(self.index[name])
        state.last = tuple(sites)


@ludeme("sites Visited")
def sites_visited(env: Env) -> Region:
    """In a turn's later decisions (a (continue ...)), the sites the turn has changed so far:
    where its moving piece started and each site it has landed on (and any site a capture
    emptied); empty at a turn's first decision. A chain of hops that may not come back to a
    point says `unless:(in To (sites Visited))`.

    (continue (optional (move-by 2 Adjacent from:LastTo over:(is Occupied Site) to:Empty
      unless:(in To (sites Visited)))))"""
    topo = env.topology
    declare(env, Visited(topo.names, topo.index))

    def region(ctx: Ctx) -> Sequence[int]:
        state = ctx.state
        if state is None or state.last is None:
            return NONE
        # At the first decision `last` is the previous turn's; but when the engine probes
        # whether a (continue ...) has moves, the decision just made is not yet counted in
        # `step` while `last` already holds this turn's sites.
        if not state.step and not ctx.probe:
            return NONE
        return state.last  # type: ignore[no-any-return]
    mark(region).description = "the sites visited this turn"
    return region


# Kernel lowerings (stdlib/lowering.py) ---------------------------------------------------------

@lowers("sites Visited")
def lower_sites_visited(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(sites Visited): the sites the turn so far changed, as the kernel records them (each
    once). Only in the moves of a (continue ...): elsewhere the interpreter's region is empty
    at a turn's first decision, which the kernel's record cannot tell (it holds the last
    turn's sites then, and this turn's while a continuation is probed)."""
    keywords(node, set(), k)
    game = getattr(k, "game", None)
    if game is None or not _continued_only(game.expansion.game, node):
        k.refuse(node, "no kernel lowering of (sites Visited) outside a (continue ...)'s "
                       "moves yet")
    return k.function("sites_visited", """
def {name}(st, T, mover, to, frm, buf):
    k = st[H_NCHANGED]
    c = 0
    for i in range(k):
        s = st[CHANGED + i]
        seen = False
        for j in range(c):
            if buf[j] == s:
                seen = True
                break
        if not seen:
            buf[c] = s
            c += 1
    return c
""")


def _continued_only(root: Node, node: Node) -> bool:
    """Whether `node` lies in the moves of some (continue ...) of `root`."""
    def walk(n: Node, inside: bool) -> bool | None:
        if n is node:
            return inside
        if isinstance(n, Form):
            for i, a in enumerate(n.args):
                found = walk(a, inside or (n.head == "continue" and i == 0))
                if found is not None:
                    return found
            for kw in n.kwargs:
                found = walk(kw.value, inside)
                if found is not None:
                    return found
        elif isinstance(n, ListNode):
            for item in n.items:
                found = walk(item, inside)
                if found is not None:
                    return found
        return None
    return bool(walk(root, False))
