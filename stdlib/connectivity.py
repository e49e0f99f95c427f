"""Connectivity: chains of a player's pieces joining regions of the board."""

from __future__ import annotations

from stdlib.registry import ludeme
from stdlib.runtime import Ctx, Env
from stdlib.types import Cond, Direction, Region, RoleExpr


@ludeme("connected")
def connected(env: Env, role: RoleExpr, *, regions: list[Region] | None = None,
              by: Direction = "Adjacent") -> Cond:
    """True when a chain of `role`'s pieces, each adjacent to the next (by the `by:` relation,
    orthogonal on square boards and all six neighbours on hex boards by default), touches
    every one of the regions: by default the sides the role declares with sides:{...}.

    (if (connected Mover) (win Mover))"""
    topo = env.topology
    adjacency = topo.neighbours(env.absolute_dirs(by))
    per_role: list[list[frozenset[int]]] = []
    for r, sides in enumerate(env.sides):
        per_role.append([topo.sides.get(side, frozenset()) for side in sides])
        if regions is None and len(sides) < 2:
            env.error(f"(connected ...) with no regions: needs role {env.roles[r]} to declare "
                      "sides:{...} with two or more sides")
    fixed = None
    if regions is not None:
        fixed = []
        for reg in regions:
            value = getattr(reg, "static", None)
            if value is None:
                env.error("(connected ... regions:{...}) needs regions that do not change")
                value = frozenset()
            fixed.append(value)

    def test(ctx: Ctx) -> bool:
        r = role(ctx)
        goals = fixed if fixed is not None else per_role[r]
        if not goals:
            return False
        board, owner = ctx.board, ctx.owner
        start = [s for s in goals[0] if owner[board[s]] == r]
        seen = set(start)
        stack = start
        while stack:
            s = stack.pop()
            for t in adjacency[s]:
                if t not in seen and owner[board[t]] == r:
                    seen.add(t)
                    stack.append(t)
        return all(not seen.isdisjoint(g) for g in goals[1:])
    test.why = "a completed connection"  # type: ignore[attr-defined]
    return test

