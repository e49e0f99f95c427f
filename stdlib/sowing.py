"""Piles, tracks and sowing: the ludemes of the mancala family.

A pile is a site holding several pieces of one kind declared with pile:true (seeds in a pit);
each count is a board value of its own (see Env.piles), so everything that reads the board —
empty or occupied, position text, hashing — works on piles unchanged. A track is a named
order of sites (a mancala board's "Loop", or a (track ...) section), per role where the rules
need it; sowing lifts a pile and drops its pieces one by one along the mover's track."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from dsl.ast import Form, Node, Str
from dsl.check import resolve
from dsl.errors import GameError
from stdlib.effects import Changes, Effect
from stdlib.lowering import Effect as Lowered
from stdlib.lowering import Generator, Lower, bound_site, keywords, lowers
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


def region_mask(k: Lower, node: Node) -> tuple[str, Callable[[str], str]]:
    """A region's sites as a membership test inside a generated function: the lines (each
    indented by four) that prepare it at the top of the body, and the test of a site's
    source. A region that depends only on a role is its mask table, read for the role;
    any other is listed once into a mask of the function's own."""
    by_role = sites_by_role(k, node)
    if by_role is not None:
        mask = role_tables(k, by_role[0])[2]
        return f"    r = {by_role[1]}\n", lambda site: f"{mask}[r, {site}] == 1"
    region = k.lower(node, "Region")
    return ("    inside = np.zeros(N, np.bool_)\n    buf = np.empty(N, np.int32)\n"
            f"    for i in range({region}(st, T, mover, -1, -1, buf)):\n"
            "        inside[buf[i]] = True\n"), lambda site: f"inside[{site}]"


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


def _pile_tables(k: Lower) -> tuple[str, str, str]:
    """The tables of piles: (the pieces each board value stands for, the row of its pile kind
    in the next table (-1: not a pile), per pile kind the board value of each count 0 to
    MAX_PILE)."""
    env = k.env
    bases = sorted(env.piles)
    row_of = {b: i for i, b in enumerate(bases)}
    rows = [list(env.piles[b]) for b in bases] or [[0] * (MAX_PILE + 1)]
    kinds = [row_of.get(env.pile_base[v], -1) if v else -1 for v in range(len(env.owner))]
    return (k.table("pieces per value", list(env.count_of)),
            k.table("pile kind per value", kinds), k.table("piles", rows))


def _mask(k: Lower, node: Node | None) -> str:
    """Lines filling `mask` (a fresh N-long boolean array named by the caller) with the
    region's sites, judged on the position with To and From none; a region of none without
    `node`."""
    if node is None:
        return ""
    region = k.lower(node, "Region")
    return f"""
    for i in range({region}(st, T, mover, -1, -1, buf)):
        {{mask}}[buf[i]] = True"""


@lowers("sow")
def lower_sow(k: Lower, node: Form, args: tuple[Node, ...]) -> Generator:
    """(sow region [track:] [skip:] [origin:] [relay:] [if:] [unless:]): each pile of the
    region sown along the mover's way round the track, as `sow` sows it, relays included (a
    relay that comes back to a lift it made before is found by Brent's cycle search, on the
    pit and the counts at each lift, and is no move, as in the interpreter); the filters
    judged on the board after the sowing with To the last site sown and From the site sown
    from. A count past MAX_PILE, which the interpreter refuses with an error, is no move."""
    from dsl.ast import Bool

    given = keywords(node, {"track", "skip", "origin", "relay", "if", "unless"}, k)
    track = given.get("track")
    origin = given.get("origin")
    if track is not None and not isinstance(track, Str) or \
            origin is not None and not isinstance(origin, Bool):
        k.refuse(node, "no kernel lowering of (sow) with a computed track: or origin:")
    env = k.env
    size = env.topology.size
    ways = role_tracks(env, track.value if isinstance(track, Str) else "Loop", "sow")
    if not ways or not all(loop for _, loop in ways):
        k.refuse(node, "no kernel lowering of (sow) without a looping track")
    after = k.table("sowing order", [following(size, order, loop) for order, loop in ways])
    counts, kinds, piles = _pile_tables(k)
    base = k.table("pile base", list(env.pile_base))
    keeps_origin = origin is None or bool(origin.value)
    region = k.lower(args[0], "Region")
    skip = _mask(k, given.get("skip")).format(mask="skipped")
    relay = _mask(k, given.get("relay")).format(mask="relays")
    # One int64 scratch array per call, `work`, N sites a part: the skip: and relay: masks
    # (parts 0 and 1), the counts of the board (2), of the sowing (3), at the cycle search's
    # last lift (4), the board and changed sites the filters put back (5 and 6), the region
    # (7). Each array a function takes costs a reference count kept: one is cheapest.
    run = k.function("sow_run", f"""
def {{name}}(st, T, mover, s, work):
    row = {kinds}[st[s]]
    if row < 0:
        return -1
    kind = {piles}[row, 1]
    for u in range(N):
        work[3 * N + u] = work[2 * N + u]
    over = False
    lifted = s
    t = s
    seeds = work[3 * N + s]
    work[3 * N + s] = 0
    rounds = 0
    power = 1
    lam = 0
    seen_t = -1
    while True:
        idle = 0
        while seeds > 0:
            t = {after}[mover, t]
            if t == -1:
                return -1
            if (t == lifted and not {keeps_origin}) or work[t] != 0 or (
                    st[t] != 0 and {base}[st[t]] != kind):
                idle += 1
                if idle > N:
                    return -1
                continue
            idle = 0
            c = work[3 * N + t] + 1
            work[3 * N + t] = c
            if c > {MAX_PILE}:
                over = True
            seeds -= 1
        if work[N + t] == 0 or work[3 * N + t] <= 1:
            break
        rounds += 1
        if t == seen_t:
            same = True
            for u in range(N):
                if work[3 * N + u] != work[4 * N + u]:
                    same = False
                    break
            if same:
                return -1
        if lam == power:
            seen_t = t
            for u in range(N):
                work[4 * N + u] = work[3 * N + u]
            power *= 2
            lam = 0
        lam += 1
        if rounds > {MAX_RELAYS}:
            return -1
        lifted = t
        seeds = work[3 * N + t]
        work[3 * N + t] = 0
    if over:  # (only a count sown past MAX_PILE may be past it: the board's are not)
        for u in range(N):
            if work[3 * N + u] > {MAX_PILE}:
                return -1
    return t
""")
    masks = k.function("sow_masks", f"""
def {{name}}(st, T, mover, buf, skipped, relays):{skip}{relay}
    return
""")
    judge = _lower_sow_filters(k, given, piles, kinds)
    start = k.action_start("sow", node)
    generate = k.function("sow", f"""
def {{name}}(st, T, mover, acts, tags, n, tag):
    buf = np.empty(N, np.int32)
    work = np.zeros(8 * N, np.int64)
    {masks}(st, T, mover, buf, work[:N], work[N:2 * N])
    for i in range({region}(st, T, mover, -1, -1, buf)):
        work[7 * N + buf[i]] = 1
    for u in range(N):
        work[2 * N + u] = {counts}[st[u]]
    for s in range(N):
        if work[7 * N + s] == 0 or st[s] == 0:
            continue
        t = {run}(st, T, mover, s, work)
        if t < 0:
            continue
        if {judge}(st, T, mover, s, t, work):
            acts[n] = {start} + s
            tags[n] = tag
            n += 1
    return n
""")
    make = k.function("make_sow", f"""
def {{name}}(st, T, mover, act):
    s = act - {start}
    buf = np.empty(N, np.int32)
    work = np.zeros(5 * N, np.int64)
    {masks}(st, T, mover, buf, work[:N], work[N:2 * N])
    for u in range(N):
        work[2 * N + u] = {counts}[st[u]]
    t = {run}(st, T, mover, s, work)
    row = {kinds}[st[s]]
    for u in range(N):
        if u == s or work[3 * N + u] != work[2 * N + u]:
            change(st, u, {piles}[row, work[3 * N + u]])
    st[H_TO] = t
    st[H_FROM] = s
""")
    return Generator(generate, make, frozenset({"sow"}))


def _lower_sow_filters(k: Lower, given: dict[str, Node], piles: str, kinds: str) -> str:
    """`(st, T, mover, s, t, work) -> bool`: the sowing from s (its counts in work's part 3,
    the board's in part 2, its last site t) passes the if: and unless: filters, judged on the
    board after it (as stdlib.moves.judge: To the last site, From the site sown from, the
    sites it changes as the changed sites); the board is put back from work's parts 5 and 6."""
    tests = []
    if "if" in given:
        tests.append(f"({k.lower(given['if'], 'Boolean')})")
    if "unless" in given:
        tests.append(f"not ({k.lower(given['unless'], 'Boolean')})")
    if not tests:
        return k.function("sow_unfiltered", """
def {name}(st, T, mover, s, t, work):
    return True
""")
    return k.function("sow_filters", f"""
def {{name}}(st, T, mover, s, t, work):
    row = {kinds}[st[s]]
    saved = st[H_NCHANGED]
    for u in range(N):
        work[5 * N + u] = st[u]
        work[6 * N + u] = st[CHANGED + u]
    m = 0
    for u in range(N):
        if u == s or work[3 * N + u] != work[2 * N + u]:
            put(st, u, {piles}[row, work[3 * N + u]])
            st[CHANGED + m] = u
            m += 1
    st[H_NCHANGED] = m
    to = t
    frm = s
    ok = {" and ".join(tests)}
    for u in range(N):
        put(st, u, work[5 * N + u])
        st[CHANGED + u] = work[6 * N + u]
    st[H_NCHANGED] = saved
    return ok
""")


@lowers("pieces-on")
def lower_pieces_on(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(pieces-on site): the count on the site (0 where there is none)."""
    keywords(node, set(), k)
    counts = k.table("pieces per value", list(k.env.count_of))
    site = k.lower(args[0], "Site")
    return k.function("pieces_on", f"""
def {{name}}(st, T, mover, to, frm):
    s = {site}
    return {counts}[st[s]] if s >= 0 else 0
""") + "(st, T, mover, to, frm)"


@lowers("opposite")
def lower_opposite(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(opposite site): the site across the board, from a table (-1: none)."""
    keywords(node, set(), k)
    xy = k.env.topology.xy
    at = {p: s for s, p in enumerate(xy)}
    ys = [y for _, y in xy]
    low, high = min(ys), max(ys)
    across = k.table("opposite", [at.get((x, low + high - y), -1) for x, y in xy])
    site = k.lower(args[0], "Site")
    return k.function("opposite", f"""
def {{name}}(st, T, mover, to, frm):
    s = {site}
    return {across}[s] if s >= 0 else -1
""") + "(st, T, mover, to, frm)"


@lowers("transfer")
def lower_transfer(k: Lower, node: Form, args: tuple[Node, ...]) -> Lowered:
    """(transfer region into: [if:]): when the condition holds, the piles on the region's
    sites (but the target) of the target's kind (the first met, if the target is empty)
    emptied onto the one site of into:, as `transfer` does; into: of another size than one
    site (an error in the interpreter) and a count past MAX_PILE change nothing."""
    given = keywords(node, {"into", "if"}, k)
    condition = k.lower(given["if"], "Boolean") if "if" in given else "True"
    counts, kinds, piles = _pile_tables(k)
    region = k.lower(args[0], "Region")
    into = k.lower(given["into"], "Region")
    return Lowered(k.function("transfer", f"""
def {{name}}(st, T, mover, to, frm):
    if not ({condition}):
        return
    buf = np.empty(N, np.int32)
    if {into}(st, T, mover, to, frm, buf) != 1:
        return
    target = buf[0]
    row = {kinds}[st[target]] if st[target] != 0 else -1
    total = {counts}[st[target]]
    inside = np.zeros(N, np.bool_)
    for i in range({region}(st, T, mover, to, frm, buf)):
        if buf[i] >= 0:
            inside[buf[i]] = True
    m = 0
    for s in range(N):
        if not inside[s] or s == target:
            continue
        v = st[s]
        kind = {kinds}[v] if v != 0 else -1
        if kind < 0 or (row >= 0 and kind != row):
            continue
        row = kind
        total += {counts}[v]
        buf[m] = s
        m += 1
    if row < 0 or m == 0 or total > {MAX_PILE}:
        return
    for i in range(m):
        change(st, buf[i], 0)
    change(st, target, {piles}[row, total])
"""))


@lowers("sites Behind")
def lower_sites_behind(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(sites Behind site while: [track:]): from the site back along the mover's way round
    the track while the condition holds (Site bound to each), at most a lap."""
    given = keywords(node, {"while", "track"}, k)
    track = given.get("track")
    if track is not None and not isinstance(track, Str):
        k.refuse(node, "no kernel lowering of (sites Behind) with a computed track:")
    env = k.env
    size = env.topology.size
    ways = role_tracks(env, track.value if isinstance(track, Str) else "Loop", "sites Behind")
    if not ways:
        k.refuse(node, "no kernel lowering of (sites Behind) without its track")
    before = k.table("order back", [following(size, tuple(reversed(order)), loop)
                                    for order, loop in ways])
    bound = bound_site(k)
    site = k.lower(args[0], "Site")
    condition = k.lower(given["while"], "Boolean")
    return k.function("sites_behind", f"""
def {{name}}(st, T, mover, to, frm, buf):
    saved = {bound}
    s = {site}
    c = 0
    while s >= 0 and c < N:
        {bound} = s
        if not ({condition}):
            break
        buf[c] = s
        c += 1
        s = {before}[mover, s]
    {bound} = saved
    return c
""")
