"""Paths as conditions: "each player must still have a way to its goal" — Quoridor's rule
that a wall may not shut a pawn off from the row it races to, and the like in any game whose
walls (edges held, stdlib/edges.py and stdlib/walls.py) cut the board.

`(has-path All to:(sites Side Forward) walls:"Wall")` holds when every piece of each role can
reach a site of its goal by steps between neighbouring sites that cross no held wall. Pieces
on the way do not block (Quoridor's rule: a path past the other pawns counts).

It is made to be judged for every wall a player might put, many times a turn in random play:
a breadth-first search over flat neighbour arrays, and before any search the path found last
time for the same piece and goal is checked edge by edge — a wall that cuts none of its edges
leaves it open, so a search runs only for the few walls that cut it. The condition also tells
`place-wall` which edges its paths use (`Parts.relies`), so that walls away from them are not
even tried.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from dsl.ast import Const, Form, Node, Str
from stdlib.edges import edge_set, edge_sets, values_of
from stdlib.jumps import sites_by_mover
from stdlib.logic import judged_live
from stdlib.lowering import Lower, keywords, lowers, padded
from stdlib.moves import value_sites
from stdlib.parts import mark, parts_of
from stdlib.registry import ludeme
from stdlib.runtime import Ctx, Env
from stdlib.types import Cond, Direction, Region, RolesExpr

Path = tuple[tuple[int, ...], int]  # the edges of a path (numbers), and them as a bitset


@ludeme("has-path")
def has_path(env: Env, roles: RolesExpr, *, to: Region, walls: str,
             by: Direction = "Orthogonal") -> Cond:
    """True when every piece of each of the roles can reach a site of the region `to:` (judged
    with Mover bound to the role, so that (sites Side Forward) is each role's own goal) by
    steps to neighbouring sites in the directions `by:` that cross no held edge of the set
    `walls:` (a wall between two cells), whatever stands on the sites on the way.

    (place-wall "Wall" if:(has-path All to:(sites Side Forward) walls:"Wall"))"""
    found = edge_set(env, walls, "(has-path ...)")
    between = found.between if found is not None else {}
    edges = edge_sets(env)
    size = env.topology.size
    # Per site: (neighbour, the edge between, or -1 when no edge of the set lies there).
    neighbours: list[tuple[tuple[int, int], ...]] = [
        tuple((t, between.get((s, t), -1)) for t in around)
        for s, around in enumerate(env.topology.neighbours(env.absolute_dirs(by)))]
    fixed = sites_by_mover(env, to)
    # The goal's sites by the collection the region gave (a region of the mover keeps its
    # collections alive): a set to test sites against.
    goals: dict[int, tuple[Collection[int], frozenset[int]]] = {}
    known: dict[tuple[int, frozenset[int]], Path] = {}  # (piece's site, goal) -> its path
    owned = [tuple(v for v, o in enumerate(env.owner) if o == r) for r in range(len(env.roles))]
    where = value_sites(env)
    source = parts_of(to).source or "its goal"

    def goal_of(ctx: Ctx, role: int) -> frozenset[int]:
        if fixed is not None:
            return fixed[role]
        saved = ctx.mover
        ctx.mover = role
        try:
            region = to(ctx)
        finally:
            ctx.mover = saved
        kept = goals.get(id(region))
        if kept is not None and kept[0] is region:
            return kept[1]
        if len(goals) > 64:
            goals.clear()
        goal = frozenset(region)
        goals[id(region)] = (region, goal)
        return goal

    def pieces(ctx: Ctx, role: int) -> Sequence[int]:
        data = where(ctx)
        if data is not None:
            values = owned[role]
            if len(values) == 1:
                return data.get(values[0], ())
            return sorted(s for v in values for s in data.get(v, ()))
        board, owner = ctx.board, ctx.owner
        return [s for s in range(size) if owner[board[s]] == role]

    def search(start: int, goal: frozenset[int], values: Sequence[int]) -> Path | None:
        """A shortest path from start to the goal crossing no held edge, or None."""
        if start in goal:
            return (), 0
        came = {start: (-1, -1)}
        frontier = [start]
        while frontier:
            ahead = []
            for s in frontier:
                for t, e in neighbours[s]:
                    if t in came or (e >= 0 and values[e]):
                        continue
                    came[t] = (s, e)
                    if t in goal:
                        path = []
                        mask = 0
                        while t != start:
                            t, e = came[t]
                            if e >= 0:
                                path.append(e)
                                mask |= 1 << e
                        return tuple(path), mask
                    ahead.append(t)
            frontier = ahead
        return None

    def path(ctx: Ctx, role: int, start: int, values: Sequence[int]) -> Path | None:
        goal = goal_of(ctx, role)
        key = (start, goal)
        kept = known.get(key)
        if kept is not None:
            for e in kept[0]:
                if values[e]:
                    break
            else:
                return kept
        made = search(start, goal, values)
        if made is not None:
            if len(known) > 4096:
                known.clear()
            known[key] = made
        return made

    def blocked(ctx: Ctx) -> int | None:
        """The first role (in order) with a piece shut off from its goal, or None."""
        values = values_of(ctx, edges)
        for role in roles(ctx):
            for start in pieces(ctx, role):
                if path(ctx, role, start, values) is None:
                    return role
        return None

    def test(ctx: Ctx) -> bool:
        role = blocked(ctx)
        if role is None:
            return True
        mark(test).why_not = f"it would leave {env.roles[role]} no path to {source}"
        return False

    def relies(ctx: Ctx) -> int | None:
        values = values_of(ctx, edges)
        mask = 0
        for role in roles(ctx):
            for start in pieces(ctx, role):
                found = path(ctx, role, start, values)
                if found is None:
                    return None
                mask |= found[1]
        return mask

    given = mark(test)
    given.why = f"every piece named has a path to {source}"
    given.why_not = f"a piece would have no path to {source}"
    given.relies = relies
    return judged_live(test, why_not=True)


# Kernel lowerings (stdlib/lowering.py) --------------------------------------------------------


@lowers("has-path")
def lower_has_path(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(has-path roles to: walls: [by:]): a breadth-first search from each piece of each role
    (every role for All) over the neighbours by:, crossing no held edge of the set
    (st[EDGES + e]), to a site of its goal (a region that depends on nothing but the mover:
    a table per role). The interpreter's kept paths only spare searches: the answer is the
    same."""
    sites, walls, goal, roles = _path_tables(k, node, args)
    search = _search(k, sites, walls, goal)
    return k.function("has_path", f"""
def {{name}}(st, T, mover, to, frm):
    seen = np.empty(N, np.uint8)
    came = np.empty(N, np.int32)
    via = np.empty(N, np.int32)
    for r in {roles}:
        for s in range(N):
            if OWNER[st[s]] == r and {search}(st, r, s, seen, came, via) < 0:
                return False
    return True
""") + "(st, T, mover, to, frm)"


def lower_path_edges(k: Lower, node: Form) -> str:
    """For (place-wall ... if:(has-path ...)), as the ludeme's Parts.relies: the name of a
    function `(st, T, mover, used) -> bool` marking in `used` (by edge number) the edges of
    one shortest path of each piece the condition judges to its goal; False when some piece
    has none. A wall covering none of them leaves every path open, so the condition holds
    with it as it does without (the interpreter's place-wall does not judge it either)."""
    from dsl.check import resolve
    from stdlib.registry import REGISTRY

    _, args = resolve(node, REGISTRY)
    sites, walls, goal, roles = _path_tables(k, node, args)
    search = _search(k, sites, walls, goal)
    return k.function("path_edges", f"""
def {{name}}(st, T, mover, used):
    seen = np.empty(N, np.uint8)
    came = np.empty(N, np.int32)
    via = np.empty(N, np.int32)
    for r in {roles}:
        for s in range(N):
            if OWNER[st[s]] != r:
                continue
            t = {search}(st, r, s, seen, came, via)
            if t < 0:
                return False
            while t != s:
                w = via[t]
                here = w // {_WAYS}
                e = {walls}[here, w % {_WAYS}]
                if e >= 0:
                    used[e] = 1
                t = here
    return True
""")


_WAYS = 64  # via[t] = s * _WAYS + j: the search reached t from s by s's j-th neighbour


def _search(k: Lower, sites: str, walls: str, goal: str) -> str:
    """`(st, r, start, seen, came, via) -> site`: a breadth-first search from start to a site
    of role r's goal crossing no held edge; the site reached (start itself when it is in
    the goal), each site's way back in `via`, or -1 when there is none."""
    return k.function("path_from", f"""
def {{name}}(st, r, start, seen, came, via):
    if {goal}[r, start] == 1:
        return start
    seen[:] = 0
    seen[start] = 1
    came[0] = start
    head = 0
    tail = 1
    while head < tail:
        s = came[head]
        head += 1
        for j in range({sites}.shape[1]):
            t = {sites}[s, j]
            if t < 0:
                break
            if seen[t] == 1:
                continue
            e = {walls}[s, j]
            if e >= 0 and st[EDGES + e] != 0:
                continue
            via[t] = s * {_WAYS} + j
            if {goal}[r, t] == 1:
                return t
            seen[t] = 1
            came[tail] = t
            tail += 1
    return -1
""")


def _path_tables(k: Lower, node: Form, args: tuple[Node, ...]) -> tuple[str, str, str, str]:
    """has-path's tables: per site its neighbours by: and the edges between (-1: none), per
    role its goal's sites (1), and the roles judged (source of an iterable)."""
    from stdlib.regions import region_by_mover

    given = keywords(node, {"to", "walls", "by"}, k)
    env = k.env
    name = given.get("walls")
    by = given.get("by")
    if not isinstance(name, Str) or (by is not None and not isinstance(by, Const)):
        k.refuse(node, "no kernel lowering of (has-path) with these walls: or by:")
    found = edge_sets(env).sets.get(name.value)
    if found is None:
        k.refuse(node, f'the board declares no edges "{name.value}"')
    target = given["to"]
    goals = region_by_mover(k, target) if isinstance(target, Form) else None
    if goals is None:
        k.refuse(node, "no kernel lowering of (has-path) with a goal that depends on more "
                       "than the mover")
    size = env.topology.size
    around = env.topology.neighbours(env.absolute_dirs(by.name if by is not None
                                                       else "Orthogonal"))
    if max((len(row) for row in around), default=0) >= _WAYS:
        k.refuse(node, "no kernel lowering of (has-path) with so many neighbours")
    sites = k.table("path neighbours", padded(around))
    walls = k.table("path walls", padded([[found.between.get((s, t), -1) for t in row]
                                          for s, row in enumerate(around)]))
    goal = k.table("path goals", [[1 if s in goals[r] else 0 for s in range(size)]
                                  for r in range(len(env.roles))])
    who = args[0]
    roles = "range(R)" if isinstance(who, Const) and who.name == "All" else \
        f"({k.lower(who, 'Role')},)"
    return sites, walls, goal, roles
