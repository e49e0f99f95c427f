"""Moves and regions oriented by the board's lines and the players' forward directions: a leap
that only goes forward (the shogi knight's, which never turns back or sideways), and the sites
along the lines through a region (the columns where a player has a pawn)."""

from __future__ import annotations

from collections.abc import Collection

from stdlib.moves import AnyAttacks, LeapAttacks, Origins, Reach, kinds_named, own_pieces
from stdlib.parts import mark
from stdlib.registry import ludeme
from stdlib.runtime import EMPTY, Ctx, Env, Move
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
    from stdlib.logic import cell_test

    if across < 0 or up < 1:
        env.error("a leap ahead goes 1 or more rows forward and 0 or more columns across")
    if any(f is None for f in env.forward):
        env.error("leap-ahead needs every player to declare forward:DIRECTION")
        return lambda ctx: []
    targets = forward_leaps(env, across, up)
    no_piece = env.no_piece
    target = cell_test(env, to)
    kinds = kinds_named(env, of)
    origins = Origins(env, None, kinds)
    size = env.topology.size
    fast = if_ is None and unless is None and to in ("Empty", "Enemy", "EmptyOrEnemy")
    take_empty = to in ("Empty", "EmptyOrEnemy")
    take_enemy = to in ("Enemy", "EmptyOrEnemy")
    made: dict[int, tuple[tuple[int, Move], ...]] = {}  # per (value, site): (to, move)

    def generate(ctx: Ctx) -> list[Move]:
        sites = origins(ctx) if fast and not ctx.probe else None
        if sites is None:
            return scan(ctx)
        board, owner, mover = ctx.board, ctx.owner, ctx.mover
        ahead = targets[mover]
        out: list[Move] = []
        for s in sites:
            v = board[s]
            key = v * size + s
            row = made.get(key)
            if row is None:
                row = made[key] = tuple((t, env.piece_move(s, t, v)) for t in ahead[s]
                                        if t not in no_piece)
            for t, m in row:
                x = board[t]
                if x == EMPTY:
                    if take_empty:
                        out.append(m)
                elif take_enemy:
                    o = owner[x]
                    if o >= 0 and o != mover:
                        out.append(m)
        return out

    def scan(ctx: Ctx) -> list[Move]:
        from stdlib.moves import accept

        out: list[Move] = []
        ahead = targets[ctx.mover]
        for s, v in own_pieces(ctx, None, kinds):
            for t in ahead[s]:
                if t not in no_piece and target(ctx, t):
                    accept(ctx, env.piece_move(s, t, v), t, s, if_, unless, out,
                           from_hand=False)
                    if ctx.probe and out:
                        return out
        return out

    def pairs(mover: int) -> frozenset[tuple[int, int]]:
        return frozenset((s, t) for s in range(size) for t in targets[mover][s]
                         if t not in no_piece)
    chosen = scan if origins.known is None or not fast else generate
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

