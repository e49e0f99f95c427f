"""Groups of a role's pieces: how many connected groups its pieces form, and whether they form
one (Lines of Action's goal). A position keeps each role's pieces as a bit set (`RoleMasks`),
move by move; a group is found by growing a bit set through the board's adjacency, a few big
integer operations per step whatever the board's size."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from dsl.ast import Const, Form, Node
from stdlib.logic import describe
from stdlib.lowering import Lower, keywords, lowers, padded
from stdlib.parts import parts_of
from stdlib.registry import ludeme
from stdlib.runtime import Ctx, Env, Tracker
from stdlib.types import Cond, Direction, IntExpr, RoleExpr


class RoleMasks(Tracker):
    """Per role, the sites holding its pieces as a bit set (bit s for site s), kept by a
    position."""

    def __init__(self, owner: tuple[int, ...], roles: int) -> None:
        self.owner = owner
        self.roles = roles

    def build(self, board: list[int]) -> list[int]:
        masks = [0] * self.roles
        owner = self.owner
        for s, v in enumerate(board):
            o = owner[v]
            if o >= 0:
                masks[o] |= 1 << s
        return masks

    def update(self, data: list[int], board: list[int], site: int, old: int, new: int
               ) -> list[int]:
        owner = self.owner
        a, b = owner[old], owner[new]
        if a >= 0:
            data[a] &= ~(1 << site)
        if b >= 0:
            data[b] |= 1 << site
        return data

    def copy(self, data: list[int]) -> list[int]:
        return list(data)


def role_masks(env: Env) -> tuple[RoleMasks, Callable[[Ctx], Any]]:
    """The game's RoleMasks tracker and the function giving a position's data (one tracker
    shared by every ludeme of the game that asks)."""
    found = env.shared.get("role masks")
    if found is None:
        tracker = RoleMasks(env.owner, len(env.roles))
        found = env.shared["role masks"] = (tracker, env.track(tracker))
    return found


class GroupCounter:
    """Counts the groups of the pieces in a bit set, joined by an adjacency given per site as
    a bit set of its neighbours."""

    def __init__(self, adjacency: Sequence[Sequence[int]]) -> None:
        self.near = [sum(1 << t for t in ts) for ts in adjacency]

    def group(self, pieces: int) -> int:
        """The group of the lowest piece of the (non-empty) set, as a bit set."""
        near = self.near
        seen = frontier = pieces & -pieces
        while frontier:
            grown = 0
            while frontier:
                low = frontier & -frontier
                grown |= near[low.bit_length() - 1]
                frontier ^= low
            frontier = grown & pieces & ~seen
            seen |= frontier
        return seen

    def count(self, pieces: int, stop: int = -1) -> int:
        """The number of groups (counting stops past `stop`, when it is 0 or more)."""
        n = 0
        while pieces:
            pieces &= ~self.group(pieces)
            n += 1
            if n == stop:
                break
        return n


def _pieces(env: Env) -> Callable[[Ctx, int], int]:
    """A function (ctx, role) -> the role's pieces as a bit set: the position's, or from the
    board while a move is tried out."""
    _, known = role_masks(env)
    owner = env.owner

    def pieces(ctx: Ctx, role: int) -> int:
        data = known(ctx)
        if data is not None:
            return data[role]
        mask = 0
        for s, v in enumerate(ctx.board):
            if owner[v] == role:
                mask |= 1 << s
        return mask
    return pieces


@ludeme("one-group")
def one_group(env: Env, role: RoleExpr, *, by: Direction = "All") -> Cond:
    """True when all of the role's pieces on the board form one group, each joined to the
    next by the `by:` directions (all eight neighbours on a square board by default): a
    single piece is a group; no piece is none.

    (if (one-group Mover) (win Mover))"""
    counter = GroupCounter(env.topology.neighbours(env.absolute_dirs(by)))
    pieces = _pieces(env)
    is_mover = parts_of(role).is_mover

    def test(ctx: Ctx) -> bool:
        mask = pieces(ctx, ctx.mover if is_mover else role(ctx))
        return bool(mask) and counter.group(mask) == mask
    return describe(test, "all the pieces form one group", "the pieces form several groups")


@ludeme("count-groups")
def count_groups(env: Env, role: RoleExpr, *, by: Direction = "All") -> IntExpr:
    """The number of groups the role's pieces on the board form, each piece of a group joined
    to the next by the `by:` directions (all eight neighbours on a square board by default).

    (<= (count-groups Mover by:Orthogonal) 2)"""
    counter = GroupCounter(env.topology.neighbours(env.absolute_dirs(by)))
    pieces = _pieces(env)

    def count(ctx: Ctx) -> int:
        return counter.count(pieces(ctx, role(ctx)))
    return count


# Kernel lowerings (stdlib/lowering.py) ---------------------------------------------------------

@lowers("one-group")
def lower_one_group(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(one-group role [by:]): the role has a piece and its pieces form one group, joined by
    the by: directions: a flood from its first piece reaches them all."""
    given = keywords(node, {"by"}, k)
    env = k.env
    by = given.get("by")
    if by is not None and not isinstance(by, Const):
        k.refuse(node, "no kernel lowering of (one-group) with these directions")
    dirs = env.absolute_dirs(by.name if isinstance(by, Const) else "All")
    near = k.table("neighbours", padded(env.topology.neighbours(tuple(dirs))))
    role = k.lower(args[0], "Role")
    return k.function("one_group", f"""
def {{name}}(st, T, mover, to, frm):
    r = {role}
    total = 0
    first = -1
    for s in range(N):
        if OWNER[st[s]] == r:
            total += 1
            if first < 0:
                first = s
    if total == 0:
        return False
    seen = np.zeros(N, np.uint8)
    stack = np.empty(N, np.int32)
    stack[0] = first
    seen[first] = 1
    top = 1
    found = 1
    while top > 0:
        top -= 1
        s = stack[top]
        j = 0
        while {near}[s, j] != -1:
            t = {near}[s, j]
            j += 1
            if seen[t] == 0 and OWNER[st[t]] == r:
                seen[t] = 1
                found += 1
                stack[top] = t
                top += 1
    return found == total
""") + "(st, T, mover, to, frm)"
