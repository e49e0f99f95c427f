"""Moves and regions oriented by the board's lines and the players' forward directions: a leap
that only goes forward (the shogi knight's, which never turns back or sideways), and the sites
along the lines through a region (the columns where a player has a pawn)."""

from __future__ import annotations

from collections.abc import Collection

from dsl.ast import Form, Int, Node
from stdlib.lowering import Generator, Lower, keywords, lowers
from stdlib.moves import AnyAttacks, LeapAttacks, Reach, kinds_named, leaps
from stdlib.parts import mark
from stdlib.registry import ludeme
from stdlib.runtime import Ctx, Env
from stdlib.types import CellKind, Cond, Direction, Moves, Region


def forward_leaps(env: Env, across: int, up: int) -> list[list[tuple[int, ...]]]:
    """Per role, per site: the sites `up` rows forward (the role's forward: direction) and
    `across` columns to either side."""
    topo = env.topology
    at = {(round(x), round(y)): s for s, (x, y) in enumerate(topo.xy)}
    out: list[list[tuple[int, ...]]] = []
    for f in env.forward:
        step = topo.step.get(f or "", ())
        start = next((s for s in range(topo.size) if step and step[s] != -1), -1)
        if start < 0:
            out.append([() for _ in range(topo.size)])
            continue
        (x0, y0), (x1, y1) = topo.xy[start], topo.xy[step[start]]
        fx, fy = round(x1 - x0), round(y1 - y0)  # one row forward
        side = (fy, -fx)  # one column to the side
        offsets = sorted({(up * fx + k * across * side[0], up * fy + k * across * side[1])
                          for k in (1, -1)})
        out.append([tuple(t for dx, dy in offsets
                          if (t := at.get((round(x) + dx, round(y) + dy), -1)) >= 0)
                    for x, y in topo.xy])
    return out


@ludeme("leap-ahead")
def leap_ahead(env: Env, across: int, up: int, *, to: CellKind = "EmptyOrEnemy",
               of: str | None = None, if_: Cond | None = None,
               unless: Cond | None = None) -> Moves:
    """Like (leap ...), but only forward: the mover's piece (with of:, only its pieces of that
    kind) goes straight to the site `up` rows ahead, in its player's forward: direction, and
    `across` columns to the left or right, whatever lies between, onto a site holding `to:`
    (empty or an enemy piece, captured, by default). The shogi knight: (leap-ahead 1 2).
    Written `from-to`.

    (leap-ahead 1 2 of:"Knight")"""
    if across < 0 or up < 1:
        env.error("a leap ahead goes 1 or more rows forward and 0 or more columns across")
    if any(f is None for f in env.forward):
        env.error("leap-ahead needs every player to declare forward:DIRECTION")
        return lambda ctx: []
    targets = forward_leaps(env, across, up)
    kinds = kinds_named(env, of)
    size = env.topology.size
    chosen, pairs = leaps(env, targets, to, None, kinds, if_, unless)
    given = mark(chosen)
    given.reach = Reach(pairs, kinds, True, interned=True)
    given.kinds = frozenset({"move"})
    if if_ is None and unless is None and to in ("Enemy", "EmptyOrEnemy"):
        # Looked at from the attacked site: per role, the sites its pieces leap from, each
        # role's test taking only its own pieces of the kinds.
        tests = []
        for r, ahead in enumerate(targets):
            back: list[list[int]] = [[] for _ in range(size)]
            for s in range(size):
                for t in ahead[s]:
                    back[t].append(s)
            mine = frozenset(v for v, o in enumerate(env.owner) if o == r
                             and (kinds is None or v in kinds))
            tests.append(LeapAttacks([tuple(b) for b in back], mine))
        given.attacks = AnyAttacks(list(tests))
    return chosen


@ludeme("sites Along")
def sites_along(env: Env, region: Region, directions: list[Direction]) -> Region:
    """The region's sites and every site in a straight line from them in the directions, to
    the board's edge, whatever stands between: the columns of a region's sites with {N S}.

    (sites Along (sites Occupied Mover of:{"Pawn"}) {N S})"""
    dirs: list[str] = []
    for d in directions:
        dirs.extend(env.absolute_dirs(d))
    rays = [env.topology.rays[d] for d in dirs if d in env.topology.rays]
    lines: list[frozenset[int]] = [
        frozenset({s, *(t for ray in rays for t in ray[s])}) for s in range(env.topology.size)]

    def along(ctx: Ctx) -> Collection[int]:
        found: set[int] = set()
        for s in region(ctx):
            found |= lines[s]
        return found
    return along



# Kernel lowerings (stdlib/lowering.py) ---------------------------------------------------------

@lowers("leap-ahead")
def lower_leap_ahead(k: Lower, node: Form, args: tuple[Node, ...]) -> Generator:
    """(leap-ahead across up [to:] [of:]): to each site the mover's forward leap reaches (a
    table by role), whatever lies between, holding to:."""
    from stdlib.moves import lower_leaps

    given = keywords(node, {"to", "of"}, k)
    if not (len(args) == 2 and all(isinstance(a, Int) for a in args)):
        k.refuse(node, "no kernel lowering of (leap-ahead) with computed distances")
    env = k.env
    if any(f is None for f in env.forward):
        k.refuse(node, "no kernel lowering of (leap-ahead) without forward: directions")
    targets = forward_leaps(env, args[0].value, args[1].value)  # type: ignore[attr-defined]
    return lower_leaps(k, node, given, targets)


@lowers("sites Along")
def lower_sites_along(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(sites Along region directions): the region's sites and those in a straight line from
    them in the directions, in site order."""
    from dsl.ast import Const, ListNode
    from stdlib.lowering import padded

    keywords(node, set(), k)
    env = k.env
    given = args[1]
    names = given.items if isinstance(given, ListNode) else (given,)
    if not all(isinstance(d, Const) for d in names):
        k.refuse(node, "no kernel lowering of (sites Along) with these directions")
    dirs: list[str] = []
    for d in names:
        dirs.extend(env.absolute_dirs(d.name))  # type: ignore[attr-defined]
    rays = [env.topology.rays[d] for d in dirs if d in env.topology.rays]
    lines = k.table("lines along", padded([sorted({s, *(t for ray in rays for t in ray[s])})
                                           for s in range(env.topology.size)]))
    region = k.lower(args[0], "Region")
    return k.function("sites_along", f"""
def {{name}}(st, T, mover, to, frm, buf):
    inner = np.empty(N, np.int32)
    found = np.zeros(N, np.bool_)
    for i in range({region}(st, T, mover, to, frm, inner)):
        j = 0
        while {lines}[inner[i], j] != -1:
            found[{lines}[inner[i], j]] = True
            j += 1
    c = 0
    for s in range(N):
        if found[s]:
            buf[c] = s
            c += 1
    return c
""")
