"""Piles, tracks and sowing: the ludemes of the mancala family.

A pile is a site holding several pieces of one kind declared with pile:true (seeds in a pit);
each count is a board value of its own (see Env.piles), so everything that reads the board —
empty or occupied, position text, hashing — works on piles unchanged. A track is a named
order of sites (a mancala board's "Loop", or a (track ...) section), per role where the rules
need it; sowing lifts a pile and drops its pieces one by one along the mover's track."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from dsl.ast import Form, Node, Str
from dsl.check import resolve
from dsl.errors import GameError
from stdlib.effects import Changes, Effect
from stdlib.lowering import Lower, keywords, lowers
from stdlib.movekinds import (
    SITE,
    MoveKind,
    Refused,
    first_site_block,
    register,
    written_as_first_site,
)
from stdlib.moves import accept, kinded
from stdlib.parts import mark, parts_of
from stdlib.regions import static
from stdlib.registry import REGISTRY, ludeme
from stdlib.runtime import EMPTY, MAX_PILE, Ctx, Env, Move
from stdlib.steps import Changing
from stdlib.types import Cond, IntExpr, Moves, Region, RoleExpr, SiteExpr


def _refuse_sow(q: Refused) -> str | None:
    """A sowing is written as the pit sown from: why that pit may not be sown now."""
    if q.written is None or q.written.syntax is not SITE:
        return None
    site = q.sites[0]
    if q.board[site] == EMPTY:
        return f"{q.names[site]} is empty: there is nothing to sow"
    return f"{q.names[site]} is not a pit {q.role} may sow from now"


# Sowing: recorded as (the pit sown from, the last pit sown into), written as the pit sown
# from, like a placement, and clicked there.
SOW = register(MoveKind("sow", SITE, "sow", 7, first_site_block, hint="a site (c3)",
                        click="place", clicked=1, matches=written_as_first_site,
                        refuse=_refuse_sow))


@ludeme("sites Named")
def sites_named(env: Env, name: str, role: RoleExpr | None = None) -> Region:
    """The sites of a region declared with (region "name" ...). When each role has its own
    region of that name (owner:), the mover's, or the given role's.

    (sow (sites Named "Pits") skip:(sites Named "Store" Next))"""
    owners = env.regions.get(name)
    if owners is None:
        known = ", ".join(f'"{k}"' for k in env.regions) or "none"
        env.error(f'no region named "{name}" (declared with (region ...): {known})')
        return static(())
    if None in owners:
        if role is not None:
            env.error(f'the region "{name}" belongs to no role: leave the role out')
        return static(owners[None])
    per_role = [owners.get(r, ()) for r in range(len(env.roles))]

    def region(ctx: Ctx) -> Collection[int]:
        return per_role[role(ctx) if role is not None else ctx.mover]
    if role is None:  # the mover's: the same in every position for a given mover
        mark(region).by_mover = tuple(frozenset(sites) for sites in per_role)
    return region


@ludeme("pieces-on")
def pieces_on(env: Env, site: SiteExpr) -> IntExpr:
    """The number of pieces on a site: the count of a pile (the seeds in a pit), 1 for a
    single piece, 0 when it is empty.

    (= (pieces-on To) 1)"""
    def value(ctx: Ctx) -> int:
        s = site(ctx)
        return env.count_of[ctx.board[s]] if s >= 0 else 0
    return value


@ludeme("pieces-in")
def pieces_in(env: Env, region: Region) -> IntExpr:
    """The number of pieces on the region's sites, piles counted whole (the seeds in a row of
    pits).

    (= (pieces-in (sites Named "Pits" Next)) 0)"""
    def value(ctx: Ctx) -> int:
        board, count = ctx.board, env.count_of
        return sum(count[board[s]] for s in region(ctx))
    return value


@ludeme("opposite")
def opposite(env: Env, site: SiteExpr) -> SiteExpr:
    """The site across the board from the site: in the same column, as far from the top as
    the site is from the bottom (on a mancala board, the pit facing it; a store faces itself).
    No site (nothing) where the board has no point there.

    (pieces-on (opposite To))"""
    xy = env.topology.xy
    at = {p: s for s, p in enumerate(xy)}
    ys = [y for _, y in xy]
    low, high = min(ys), max(ys)
    across = [at.get((x, low + high - y), -1) for x, y in xy]

    def value(ctx: Ctx) -> int:
        s = site(ctx)
        return across[s] if s >= 0 else -1
    return value


def pile(table: tuple[int, ...], count: int, where: str) -> int:
    """The board value of a pile of `count` (by its kind's table of values, see Env.piles);
    GameError when a site would hold more than a pile may."""
    if count > MAX_PILE:
        raise GameError(f"a pile on {where} would hold {count} pieces, more than {MAX_PILE}")
    return table[count]


def role_tracks(env: Env, name: str, what: str) -> list[tuple[tuple[int, ...], bool]] | None:
    """Each role's way along the named track (the same for all when it has no owner); None,
    with an error, when there is no such track or a role has none."""
    owners = env.tracks.get(name)
    if owners is None:
        known = ", ".join(f'"{k}"' for k in env.tracks) or "none"
        env.error(f'{what}: no track named "{name}" (tracks: {known})')
        return None
    if None in owners:
        return [owners[None]] * len(env.roles)
    missing = [env.roles[r] for r in range(len(env.roles)) if r not in owners]
    if missing:
        env.error(f'{what}: {missing[0]} has no track "{name}" (declare one with owner:)')
        return None
    return [owners[r] for r in range(len(env.roles))]


def following(size: int, order: tuple[int, ...], loop: bool) -> list[int]:
    """next[s]: the site after s along the track (-1 off the track or past its end)."""
    after = [-1] * size
    for a, b in zip(order, order[1:], strict=False):
        after[a] = b
    if loop:
        after[order[-1]] = order[0]
    return after


MAX_RELAYS = 10_000  # relay sowing that goes on longer than this is refused as endless


@ludeme("sow")
def sow(env: Env, region: Region, *, track: str = "Loop", skip: Region | None = None,
        origin: bool = True, relay: Region | None = None, if_: Cond | None = None,
        unless: Cond | None = None) -> Moves:
    """Sowing: the mover lifts the whole pile on one of the region's sites and drops its pieces
    one at a time on the sites that follow along the mover's way round the track (a looping
    track), passing over the `skip:` sites (the opponent's store) and, with origin:false, the
    site sown from when a lap comes back to it (Oware's rule for big piles). With relay:, when
    the last piece lands on a site of that region that was not empty, the whole pile there is
    lifted and sown on in the same way, until the last piece lands on an empty site (or off
    the region): relay sowing, as in Ayoayo or Congkak; a sowing that would relay for ever
    (the same pile lifted again from the same board) is not a move. Written as the site sown
    from: `c1`.
    In the filters and in the turn's later steps, To is the last site sown into and From the
    site sown from.

    (sow (sites Named "Pits") skip:(sites Named "Store" Next))"""
    ways = role_tracks(env, track, "sow")
    size = env.topology.size
    nexts: list[list[int]] = []
    for order, loop in ways or []:
        if not loop:
            env.error(f'sow: the track "{track}" does not loop back to its start')
        nexts.append(following(size, order, loop))
    count_of, piles, names = env.count_of, env.piles, env.names
    base_of = env.pile_base

    def sown(ctx: Ctx, s: int, after: list[int], skipped: Collection[int],
             relays: Collection[int]) -> Move | None:
        board = ctx.board
        table = piles.get(base_of[board[s]])
        if table is None:
            return None
        counts: dict[int, int] = {}  # the sites sown so far -> their counts now

        def holds(u: int) -> int:
            return counts[u] if u in counts else count_of[board[u]]

        lifted, t, rounds = s, s, 0
        lifts: set[tuple[int, tuple[tuple[int, int], ...]]] = set()
        seeds, counts[s] = holds(s), 0
        while True:
            idle = 0
            while seeds:
                t = after[t]
                if t == -1:
                    return None  # the site sown from is not on the track
                if (t == lifted and not origin) or t in skipped or (
                        board[t] != EMPTY and base_of[board[t]] != table[1]):
                    idle += 1
                    if idle > size:  # a whole lap with nowhere to sow
                        return None
                    continue
                idle = 0
                counts[t] = holds(t) + 1
                seeds -= 1
            if t not in relays or counts[t] <= 1:
                break
            rounds += 1
            here = (t, tuple(sorted(counts.items())))
            if here in lifts:  # the same pile lifted from the same board: it never ends
                return None
            lifts.add(here)
            if rounds > MAX_RELAYS:
                raise GameError(f"sowing from {names[s]} relays more than {MAX_RELAYS} times")
            lifted, seeds, counts[t] = t, counts[t], 0
        out = []
        for site in sorted(counts):
            value = pile(table, counts[site], names[site])
            if site == s or value != board[site]:
                out.append((site, value))
        return Move(SOW.name, (s, t), tuple(out), names)

    def generate(ctx: Ctx) -> list[Move]:
        if not nexts:
            return []
        after = nexts[ctx.mover]
        skipped = frozenset(skip(ctx)) if skip is not None else frozenset()
        relays = frozenset(relay(ctx)) if relay is not None else frozenset()
        board = ctx.board
        out: list[Move] = []
        for s in sorted(region(ctx)):
            if board[s] == EMPTY:
                continue
            move = sown(ctx, s, after, skipped, relays)
            if move is not None:
                accept(ctx, move, move.sites[-1], s, if_, unless, out, from_hand=False)
                if ctx.probe and out:
                    return out
        return out
    return kinded(generate, "sow")


@ludeme("sites Behind")
def sites_behind(env: Env, site: SiteExpr, *, while_: Cond, track: str = "Loop") -> Region:
    """The site and the sites before it along the mover's way round the track (back the way
    the pieces were sown), as long as the condition holds for each (Site bound to it): the
    first where it does not ends the run. Oware's capture: the last house sown and those
    before it holding 2 or 3 seeds, in the opponent's row.

    (sites Behind To while:(and (in Site (sites Named "Houses" Next))
                                (or (= (pieces-on Site) 2) (= (pieces-on Site) 3))))"""
    ways = role_tracks(env, track, "sites Behind")
    size = env.topology.size
    befores: list[list[int]] = []
    for order, loop in ways or []:
        befores.append(following(size, tuple(reversed(order)), loop))

    def region(ctx: Ctx) -> Sequence[int]:
        if not befores:
            return ()
        before = befores[ctx.mover]
        saved = ctx.site
        out: list[int] = []
        s = site(ctx)
        try:
            while s >= 0 and len(out) < size:
                ctx.site = s
                if not while_(ctx):
                    break
                out.append(s)
                s = before[s]
        finally:
            ctx.site = saved
        return out
    return region


@ludeme("transfer")
def transfer(env: Env, region: Region, *, into: Region, if_: Cond | None = None) -> Effect:
    """A turn step: when the condition holds (always, without if:), every pile on the region's
    sites is moved whole onto the site of `into:` (a region of one site, such as a store),
    the counts adding up. Kalah's capture: the last seed and the pit facing it into the
    mover's store.

    (transfer (sites {To (opposite To)}) into:(sites Named "Store")
              if:(and (in To (sites Named "Pits")) (= (pieces-on To) 1)))"""
    count_of, piles, base_of = env.count_of, env.piles, env.pile_base
    names = env.names

    def effect(ctx: Ctx) -> Changes:
        if if_ is not None and not if_(ctx):
            return ()
        targets = list(into(ctx))
        if len(targets) != 1:
            raise GameError(f"transfer: into: must be one site, not {len(targets)}")
        target = targets[0]
        board = ctx.board
        table = piles.get(base_of[board[target]]) if board[target] != EMPTY else None
        total = count_of[board[target]]
        out: list[tuple[int, int]] = []
        for s in sorted(set(region(ctx)) - {target}):
            v = board[s]
            kind = piles.get(base_of[v]) if v != EMPTY else None
            if kind is None or (table is not None and kind is not table):
                continue
            table = kind
            total += count_of[v]
            out.append((s, EMPTY))
        if table is None or not out:
            return ()
        out.append((target, pile(table, total, names[target])))
        return tuple(out)
    return Changing(effect)


# Kernel lowerings (stdlib/lowering.py) ---------------------------------------------------------

def sites_by_role(k: Lower, node: Node) -> tuple[list[tuple[int, ...]], str] | None:
    """A region that depends on nothing but a role, as its sites for each role (in the order
    the interpreter lists them) and the source of the role read: a static region, one marked
    by_mover (the mover's), or (sites Named name role). None for any other region."""
    env = k.env
    roles = len(env.roles)
    compiled = k.compiled(node)
    told = parts_of(compiled) if callable(compiled) else None
    if told is not None and told.static is not None:
        return [tuple(sorted(told.static))] * roles, "mover"
    if told is not None and told.by_mover is not None:
        return [tuple(sorted(sites)) for sites in told.by_mover], "mover"
    if isinstance(node, Form):
        spec, args = resolve(node, REGISTRY)
        if spec is not None and spec.name == "sites Named" and len(args) == 2 \
                and isinstance(args[0], Str) and not node.kwargs:
            owners = env.regions.get(args[0].value)
            if owners is None or None in owners:
                return None
            return ([tuple(owners.get(r, ())) for r in range(roles)],
                    k.lower(args[1], "Role"))
    return None


def role_tables(k: Lower, sites: list[tuple[int, ...]]) -> tuple[str, str, str]:
    """The tables of sites_by_role's sites: (sites by role padded with -1, their counts, a
    0/1 mask by role and site)."""
    width = max(1, max(len(s) for s in sites))
    size = k.env.topology.size
    return (k.table("sites by role", [list(s) + [-1] * (width - len(s)) for s in sites]),
            k.table("sizes by role", [len(s) for s in sites]),
            k.table("mask by role", [[1 if x in s else 0 for x in range(size)]
                                     for s in sites]))


def lower_region_by_role(k: Lower, node: Node) -> str | None:
    """A region that depends only on a role (sites_by_role) as a region function copying its
    sites from a table; None for any other region."""
    by_role = sites_by_role(k, node)
    if by_role is None:
        return None
    sites, role = by_role
    table, counts, _ = role_tables(k, sites)
    return k.function("region_by_role", f"""
def {{name}}(st, T, mover, to, frm, buf):
    r = {role}
    c = {counts}[r]
    for i in range(c):
        buf[i] = {table}[r, i]
    return c
""")


@lowers("sites Named")
def lower_sites_named(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(sites Named name [role]): the region's sites (the role's, or the mover's), copied from
    a table."""
    keywords(node, set(), k)
    lowered = lower_region_by_role(k, node)
    if lowered is None:
        k.refuse(node, "no kernel lowering of this (sites Named ...)")
    return lowered


@lowers("pieces-in")
def lower_pieces_in(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(pieces-in region): the pieces on the region's sites, piles counted whole."""
    keywords(node, set(), k)
    counts = k.table("pieces per value", list(k.env.count_of))
    by_role = sites_by_role(k, args[0])
    if by_role is not None:
        sites, role = by_role
        table, sizes, _ = role_tables(k, sites)
        return k.function("pieces_in", f"""
def {{name}}(st, T, mover, to, frm):
    r = {role}
    c = 0
    for i in range({sizes}[r]):
        c += {counts}[st[{table}[r, i]]]
    return c
""") + "(st, T, mover, to, frm)"
    region = k.lower(args[0], "Region")
    return k.function("pieces_in", f"""
def {{name}}(st, T, mover, to, frm):
    buf = np.empty(N, np.int32)
    c = 0
    for i in range({region}(st, T, mover, to, frm, buf)):
        c += {counts}[st[buf[i]]]
    return c
""") + "(st, T, mover, to, frm)"
