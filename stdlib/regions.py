"""Regions: sets of sites. Static regions (sides, rows, the centre, ...) are computed once at
compile time; dynamic ones (empty sites, a player's pieces) are computed from the board."""

from __future__ import annotations

import bisect
from collections.abc import Callable, Collection, Sequence

from dsl.ast import Form, Node
from stdlib.logic import AnyRegion, quiet, site_table
from stdlib.lowering import Lower, lowers
from stdlib.parts import mark, parts_of
from stdlib.registry import ludeme
from stdlib.runtime import EMPTY, Ctx, Env, Tracker
from stdlib.types import Cond, Corner, Direction, Region, Regions, RoleExpr, Side, SiteExpr


def static(sites: Collection[int]) -> Region:
    """A region that does not depend on the position (its value is also on `.static`)."""
    frozen = frozenset(sites)
    ordered = tuple(sorted(frozen))

    def region(ctx: Ctx) -> Collection[int]:
        return ordered

    mark(region).static = frozen
    return region


def static_value(region: Region) -> frozenset[int] | None:
    return parts_of(region).static


@ludeme("sites")
def sites_list(env: Env, sites: list[SiteExpr]) -> Region:
    """The sites listed.

    (sites {"d4" "e5"})"""
    values = []
    for s in sites:
        site = parts_of(s).static_site
        if site is not None:
            values.append(site)
        else:
            return lambda ctx: [f(ctx) for f in sites]
    return static(values)


@ludeme("sites Board")
def sites_board(env: Env) -> Region:
    """Every site of the board.

    (sites Board)"""
    return static(range(env.topology.size))


@ludeme("sites Empty")
def sites_empty(env: Env) -> Region:
    """The empty sites where a piece may stand (special sites such as a mine are not among
    them).

    (place (sites Empty))"""
    no_piece = env.no_piece

    def region(ctx: Ctx) -> Sequence[int]:
        state = ctx.state
        if state is not None and ctx.board is state.board and ctx.changed is None \
                and not state.trial:
            return state._empty or state.empty_sites()  # type: ignore[no-any-return]
        return [s for s, v in enumerate(ctx.board) if v == EMPTY and s not in no_piece]
    mark(region).placeable = True
    return region


class RoleSites(Tracker):
    """Each role's pieces' sites, in site order, kept by a position (as it keeps its empty
    sites)."""

    def __init__(self, owner: tuple[int, ...], roles: int) -> None:
        self.owner = owner
        self.roles = roles

    def build(self, board: list[int]) -> list[list[int]]:
        sites: list[list[int]] = [[] for _ in range(self.roles)]
        for s, v in enumerate(board):
            if self.owner[v] >= 0:
                sites[self.owner[v]].append(s)
        return sites

    def update(self, data: list[list[int]], board: list[int], site: int, old: int, new: int
               ) -> list[list[int]]:
        was, now = self.owner[old], self.owner[new]
        if was != now:
            if was >= 0:
                del data[was][bisect.bisect_left(data[was], site)]
            if now >= 0:
                bisect.insort(data[now], site)
        return data

    def copy(self, data: list[list[int]]) -> list[list[int]]:
        return [list(sites) for sites in data]


class KindSites(AnyRegion):
    """The sites holding pieces of some kinds: of one role's (`role`), or of any role's."""

    def __init__(self, by_role: list[list[int]], every: list[int], role: RoleExpr | None,
                 known: Callable[[Ctx], dict[int, tuple[int, ...]] | None] | None = None
                 ) -> None:
        self.by_role = by_role
        self.every = every
        self.role = role
        self.known = known  # the position's sites of each board value (moves.ValueSites)

    def values(self, ctx: Ctx) -> list[int]:
        """The board values whose sites the region is (read by (attacked ...)'s screen)."""
        return self.by_role[self.role(ctx)] if self.role is not None else self.every

    def __call__(self, ctx: Ctx) -> list[int]:
        data = self.known(ctx) if self.known is not None else None
        if data is not None:
            values = self.values(ctx)
            if len(values) == 1:
                return list(data.get(values[0], ()))
            return sorted(s for v in values for s in data.get(v, ()))
        board = ctx.board
        out: list[int] = []
        for v in self.values(ctx):
            i = -1
            try:  # scans at C speed; kinds are usually few on the board
                while True:
                    i = board.index(v, i + 1)
                    out.append(i)
            except ValueError:
                pass
        out.sort()
        return out

    def any(self, ctx: Ctx) -> bool:
        board = ctx.board
        for v in self.values(ctx):
            if v in board:
                return True
        return False


@ludeme("sites Occupied")
def sites_occupied(env: Env, role: RoleExpr | None = None, *, of: list[str] | None = None
                   ) -> Region:
    """The sites holding a piece of `role` (any piece if no role is given); with of:, only
    pieces of the kinds named.

    (count (sites Occupied Mover of:{"Rook" "Queen"}))"""
    if of is not None:
        from stdlib.moves import kinds_named, value_sites

        values: frozenset[int] = frozenset()
        for name in of:
            values |= kinds_named(env, name) or frozenset()
        owner = env.owner
        by_role = [sorted(v for v in values if owner[v] == r) for r in range(len(env.roles))]
        every = sorted(values)

        return KindSites(by_role, every, role, value_sites(env))
    if role is None:
        return lambda ctx: [s for s, v in enumerate(ctx.board) if v != EMPTY]
    pieces = env.shared.get("role sites")
    if pieces is None:  # one tracker for every (sites Occupied <role>) of the game
        pieces = env.shared["role sites"] = env.track(RoleSites(env.owner, len(env.roles)))

    def region(ctx: Ctx) -> list[int]:
        r = role(ctx)
        known = pieces(ctx)
        if known is not None:
            return known[r]  # type: ignore[no-any-return]
        owner = ctx.owner
        return [s for s, v in enumerate(ctx.board) if owner[v] == r]
    return region


@ludeme("sites Side")
def sites_side(env: Env, side: Side, *, corners: bool = True) -> Region:
    """The sites along one side of the board, named by the compass point it faces: N, S, E, W
    on square boards and the Hex rhombus; N, S, NE, SE, SW, NW on a hexhex board; S, NW, NE on
    a triangle. With corners:false, the side's corners (sites it shares with another side) are
    left out. `Forward` is the side the mover advances towards, `Backward` the one behind.

    (sites Side NE corners:false)"""
    topo = env.topology
    corner_sites = topo.corners() if not corners else frozenset()
    if side in ("Forward", "Backward"):
        table = []
        for f in env.forward:
            if f is None:
                env.error(f"(sites Side {side}) needs every player to declare forward:")
                return static(())
            chosen = f if side == "Forward" else _opposite(f)
            table.append(topo.sides.get(chosen, frozenset()) - corner_sites)
        frozen = [tuple(sorted(s)) for s in table]
        return lambda ctx: frozen[ctx.mover]
    if side not in topo.sides:
        env.error(f"this board has no side {side} (its sides: {', '.join(topo.sides)})")
        return static(())
    return static(topo.sides[side] - corner_sites)


@ludeme("sites Corner")
def sites_corner(env: Env, corner: Corner) -> Region:
    """One corner of the board, named by the compass point it faces: NE, NW, SW, SE on square
    boards and the Hex rhombus; E, NE, NW, W, SW, SE on a hexhex board; N, SW, SE on a
    triangle.

    (sites Corner NE)"""
    named = env.topology.named_corners()
    if corner not in named:
        env.error(f"this board has no corner {corner} "
                  f"(its corners: {', '.join(named) or 'none'})")
        return static(())
    return static((named[corner],))


@ludeme("regions Sides")
def regions_sides(env: Env, *, corners: bool = True) -> Regions:
    """Every side of the board, each its own region (for a chain that must touch several of
    them: see connected's at-least:). With corners:false, corners belong to no side.

    (connected Mover regions:(regions Sides corners:false) at-least:3)"""
    topo = env.topology
    cut = topo.corners() if not corners else frozenset()
    return [static(topo.sides[side] - cut) for side in topo.sides]


@ludeme("regions Corners")
def regions_corners(env: Env) -> Regions:
    """Every corner of the board, each its own region.

    (connected Mover regions:(regions Corners) at-least:2)"""
    return [static((s,)) for s in sorted(env.topology.corners())]


def _opposite(d: str) -> str:
    from stdlib.boards import OPPOSITE
    return OPPOSITE[d]


@ludeme("sites Perimeter")
def sites_perimeter(env: Env) -> Region:
    """The sites on the edge of the board.

    (sites Perimeter)"""
    return static(env.topology.perimeter())


@ludeme("sites Centre")
def sites_centre(env: Env) -> Region:
    """The site(s) nearest the centre of the board (four on an even square board).

    (sites Centre)"""
    return static(env.topology.centre())


@ludeme("sites Middle")
def sites_middle(env: Env, region: Region) -> Region:
    """The sites of a region nearest its middle (the mean of its sites' positions): the
    middle cell of a side of odd length, the two middle ones of an even side.

    (start (put-each (sites Middle (sites Side Backward))))"""
    xy = env.topology.xy

    def middle(sites: Collection[int]) -> tuple[int, ...]:
        if not sites:
            return ()
        mx = sum(xy[s][0] for s in sites) / len(sites)
        my = sum(xy[s][1] for s in sites) / len(sites)
        far = {s: (xy[s][0] - mx) ** 2 + (xy[s][1] - my) ** 2 for s in sites}
        nearest = min(far.values())
        return tuple(sorted(s for s, d in far.items() if d - nearest < 1e-9))

    fixed = parts_of(region).static
    if fixed is not None:
        return static(middle(fixed))
    return lambda ctx: middle(region(ctx))


@ludeme("sites Corners")
def sites_corners(env: Env) -> Region:
    """The corner sites: those on two sides at once.

    (sites Corners)"""
    return static(env.topology.corners())


@ludeme("sites Row")
def sites_row(env: Env, *rows: int) -> Region:
    """The sites of the given rows, counted from the bottom, starting at 1.

    (sites Row 1 2)"""
    topo = env.topology
    n = len(topo.rows)
    if not rows:
        env.error(f"sites Row needs at least one row (rows 1 to {n})")
    out: list[int] = []
    for r in rows:
        if not 1 <= r <= n:
            env.error(f"row {r} does not exist (rows 1 to {n})")
            continue
        out.extend(topo.rows[n - r])
    return static(out)


@ludeme("sites Column")
def sites_column(env: Env, *columns: int) -> Region:
    """The sites of the given columns (position within the row, from 1 at the left).

    (sites Column 1)"""
    topo = env.topology
    if not columns:
        env.error("sites Column needs at least one column")
    for c in columns:
        if c < 1:  # (a column past the end of some rows, or of all, is empty)
            env.error(f"column {c} does not exist (columns start at 1)")
    return static([s for s in range(topo.size) if topo.col_of[s] + 1 in columns])


@ludeme("sites Slide")
def sites_slide(env: Env, start: SiteExpr, directions: Direction = "All") -> Region:
    """The empty sites in a straight line from the start site in one of the directions, up to
    the first piece, special site or edge in the way: where a piece on the start site could
    slide (see slide), or where it could shoot (an Amazons arrow). None if the start is no
    site (LastTo before any move).

    (place (sites Slide LastTo All) piece:"Arrow")"""
    dirs = env.absolute_dirs(directions)
    rays = [env.topology.rays[d] for d in dirs]
    no_piece = env.no_piece

    def region(ctx: Ctx) -> list[int]:
        s = start(ctx)
        if s < 0:
            return []
        board = ctx.board
        out = []
        for ray in rays:
            for t in ray[s]:
                if board[t] != EMPTY or t in no_piece:
                    break
                out.append(t)
        return out
    return region


@ludeme("sites Phase")
def sites_phase(env: Env, phase: int) -> Region:
    """The sites of one colour of the board's colouring in which neighbours differ: a
    checkerboard on square boards, three colours on hex boards. Phase 0 holds the bottom-left
    site (a1). The Ludii name.

    (start (put "White" (sites Phase 0)) (put "Black" (sites Phase 1)))"""
    topo = env.topology
    colours = 3 if topo.shape == "hex" else 2
    if not 0 <= phase < colours:
        env.error(f"this {topo.shape} board has phases 0 to {colours - 1}")
        return static(())
    colour = [lattice_colour(x, y, colours) for x, y in topo.xy]
    a1 = min(range(topo.size), key=lambda s: (topo.xy[s][1], topo.xy[s][0]))
    return static([s for s in range(topo.size) if (colour[s] - colour[a1]) % colours == phase])


def lattice_colour(x: float, y: float, colours: int) -> int:
    """A site's colour from its centre, such that neighbours differ: on a square lattice the
    parity of its coordinates; on a hex lattice (rows sqrt(3)/2 apart, cells 1 apart) its
    axial coordinates (i, j) give (i - j) mod 3."""
    if colours == 2:
        return (round(x) + round(y)) % 2
    j = round(2 * y / 3 ** 0.5)
    i = round(x - j / 2)
    return (i - j) % 3


@ludeme("sites Special")
def sites_special(env: Env, name: str) -> Region:
    """The special sites declared under `name` with (special ...).

    (sites Special "mine")"""
    if name not in env.specials:
        known = ", ".join(f'"{k}"' for k in env.specials) or "none"
        env.error(f'no special sites named "{name}" (declared: {known})')
        return static(())
    return static(env.specials[name])


@ludeme("sites Around")
def sites_around(env: Env, region: Region, directions: list[Direction] | None = None) -> Region:
    """The sites next to the region's sites in the given directions (by default Adjacent:
    orthogonal neighbours on a square board, all six on a hex board; {All} for a square's
    eight), the region's own sites excluded.

    (sites Around (sites Centre) {NW E SW})"""
    dirs: list[str] = []
    for d in directions or ["Adjacent"]:
        dirs.extend(env.absolute_dirs(d))
    steps = [env.topology.step[d] for d in dirs]
    # Per site, its neighbours in those directions, in the order of the directions.
    near = [tuple(step[s] for step in steps if step[s] != -1) for s in range(env.topology.size)]

    def around(sites: Collection[int]) -> list[int]:
        seen = set(sites)
        out: list[int] = []
        for s in sites:
            for t in near[s]:
                if t not in seen:
                    seen.add(t)
                    out.append(t)
        return out

    fixed = static_value(region)
    if fixed is not None:
        return static(around(fixed))
    single = parts_of(region).single_site
    if single is not None:  # the sites around one site, e.g. (sites Around To): a table
        table = [around((s,)) for s in range(env.topology.size)]

        def result(ctx: Ctx) -> Collection[int]:
            site = single(ctx)
            return table[site] if site >= 0 else ()  # around no site: nothing
        if parts_of(single).site_var == "to":
            mark(result).around_to = table
        return result
    return lambda ctx: around(region(ctx))


@ludeme("union")
def union(*regions: Region) -> Region:
    """The sites in any of the regions.

    (union (sites Side N) (sites Side S))"""
    values = [static_value(r) for r in regions]
    if all(v is not None for v in values):
        return static(frozenset().union(*values))  # type: ignore[arg-type]
    return lambda ctx: sorted(set().union(*(r(ctx) for r in regions)))


@ludeme("intersection")
def intersection(first: Region, *others: Region) -> Region:
    """The sites in every one of the regions.

    (intersection (sites Perimeter) (sites Empty))"""
    fixed = [static_value(r) for r in others]
    if static_value(first) is not None and all(v is not None for v in fixed):
        out = set(static_value(first) or ())
        for v in fixed:
            out &= v or frozenset()
        return static(out)

    def region(ctx: Ctx) -> list[int]:
        if not others:
            return list(first(ctx))
        keep = set(others[0](ctx))
        for r in others[1:]:
            keep.intersection_update(r(ctx))
        return [s for s in first(ctx) if s in keep]
    return region


@ludeme("difference")
def difference(region: Region, removed: Region) -> Region:
    """The sites of the first region that are not in the second.

    (difference (sites Board) (sites Perimeter))"""
    a, b = static_value(region), static_value(removed)
    if a is not None and b is not None:
        return static(a - b)

    def diff(ctx: Ctx) -> list[int]:
        gone = set(removed(ctx))
        return [s for s in region(ctx) if s not in gone]
    return diff


Tracer = Callable[[Ctx, Collection[int]], set[int]]


def tracer(adjacency: tuple[tuple[int, ...], ...], through: Cond) -> Tracer:
    """A function giving the sites reached from some start sites by neighbouring steps onto
    sites where `through` holds (Site bound to each); the starts themselves are included.
    A condition on what the site holds alone (a cell table) is looked up, not called."""
    table = site_table(through)
    if table is None:
        judge = quiet(through)  # what it says of a site is not read
        return lambda ctx, starts: _trace(ctx, starts, adjacency, judge)

    def trace(ctx: Ctx, starts: Collection[int]) -> set[int]:
        passable, board = table[ctx.mover], ctx.board
        seen = set(starts)
        stack = list(seen)
        while stack:
            for t in adjacency[stack.pop()]:
                if t not in seen and passable[board[t]]:
                    seen.add(t)
                    stack.append(t)
        return seen
    return trace


def _trace(ctx: Ctx, starts: Collection[int], adjacency: tuple[tuple[int, ...], ...],
           through: Cond) -> set[int]:
    """The sites reached from `starts` by neighbouring steps onto sites where `through` holds
    (Site bound to each); the starts themselves are included."""
    saved = ctx.site
    seen = set(starts)
    refused: set[int] = set()  # judged once: a site is refused from every side alike
    stack = list(starts)
    while stack:
        s = stack.pop()
        for t in adjacency[s]:
            if t not in seen and t not in refused:
                ctx.site = t
                if through(ctx):
                    seen.add(t)
                    stack.append(t)
                else:
                    refused.add(t)
    ctx.site = saved
    return seen


@ludeme("sites Reach")
def sites_reach(env: Env, start: Region, *, through: Cond, by: Direction = "Adjacent") -> Region:
    """The sites reached from the start sites by a chain of neighbouring sites (by the `by:`
    directions) where `through:` holds (Site bound to each); the start sites are included.

    (sites Reach (sites Occupied Mover) through:(holds Site "Tile"))"""
    trace = tracer(env.topology.neighbours(env.absolute_dirs(by)), through)
    return lambda ctx: sorted(trace(ctx, start(ctx)))


@ludeme("sites Beyond")
def sites_beyond(env: Env, start: Region, *, through: Cond, by: Direction = "Adjacent"
                 ) -> Region:
    """The sites just beyond what (sites Reach ...) reaches: the neighbours of the traced
    region (start sites included) that are not in it. "Trace outward across empty tiles; the
    miners reached are those next to the traced region."

    (sites Beyond Site through:(holds Site "Tile"))"""
    adjacency = env.topology.neighbours(env.absolute_dirs(by))
    trace = tracer(adjacency, through)

    def region(ctx: Ctx) -> list[int]:
        traced = trace(ctx, start(ctx))
        out = {t for s in traced for t in adjacency[s] if t not in traced}
        return sorted(out)
    return region


# Kernel lowerings (stdlib/lowering.py) ---------------------------------------------------------

@lowers("sites Empty")
def lower_sites_empty(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """The empty sites where a piece may stand, in site order."""
    allowed = k.table("may hold a piece",
                      [0 if s in k.env.no_piece else 1 for s in range(k.env.topology.size)])
    return k.function("sites_empty", f"""
def {{name}}(st, T, mover, to, frm, buf):
    c = 0
    for s in range(N):
        if st[s] == 0 and {allowed}[s]:
            buf[c] = s
            c += 1
    return c
""")


@lowers("sites Board")
def lower_sites_board(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """Every site."""
    return k.function("sites_board", """
def {name}(st, T, mover, to, frm, buf):
    for s in range(N):
        buf[s] = s
    return N
""")


@lowers("sites Centre")
def lower_sites_centre(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """The site(s) nearest the centre: a table, in site order."""
    sites = sorted(k.env.topology.centre())
    table = k.table("sites", sites or [-1])
    return k.function("static_sites", f"""
def {{name}}(st, T, mover, to, frm, buf):
    for i in range({len(sites)}):
        buf[i] = {table}[i]
    return {len(sites)}
""")


def region_by_mover(k: Lower, node: Form) -> list[tuple[int, ...]] | None:
    """The region's sites for each mover, in order, when they depend on nothing but the mover
    (static sites, or a side relative to the player); None otherwise."""
    compiled = k.compiled(node)
    fixed = parts_of(compiled).static if callable(compiled) else None
    env = k.env
    if fixed is not None:
        return [tuple(sorted(fixed))] * len(env.roles)
    if isinstance(node, Form) and node.head == "sites" and node.args \
            and getattr(node.args[0], "name", None) == "Side" and callable(compiled):
        size = env.topology.size
        return [tuple(compiled(Ctx([EMPTY] * size, r, None, env, env.owner)))
                for r in range(len(env.roles))]
    return None


def _lower_by_mover(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """A region that depends on nothing but the mover: its sites copied from a table."""
    sites = region_by_mover(k, node)
    if sites is None:
        k.refuse(node, f"no kernel lowering of ({node.head} ...) that depends on the position")
    width = max(1, max(len(s) for s in sites))
    table = k.table("region by mover", [list(s) + [-1] * (width - len(s)) for s in sites])
    counts = k.table("region sizes", [len(s) for s in sites])
    return k.function("region_by_mover", f"""
def {{name}}(st, T, mover, to, frm, buf):
    c = {counts}[mover]
    for i in range(c):
        buf[i] = {table}[mover, i]
    return c
""")


for _name in ("sites Side", "sites Row", "sites Column", "sites Phase", "sites Corner",
              "sites Corners", "sites Perimeter", "sites Centre", "sites Special"):
    lowers(_name)(_lower_by_mover)


@lowers("sites")
def lower_sites_list(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(sites {site...}): the sites listed, from a table when they depend only on the mover,
    else each worked out in turn, in the order given (a site that is none is left out)."""
    from dsl.ast import ListNode

    if region_by_mover(k, node) is not None:
        return _lower_by_mover(k, node, args)
    items = args[0].items if isinstance(args[0], ListNode) else args
    sites = [k.lower(item, "Site") for item in items]
    body = "".join(f"""
    s = {site}
    if s >= 0:
        buf[c] = s
        c += 1""" for site in sites)
    return k.function("sites_listed", f"""
def {{name}}(st, T, mover, to, frm, buf):
    c = 0{body}
    return c
""")


@lowers("sites Occupied")
def lower_sites_occupied(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(sites Occupied [role] [of:]): the sites holding a piece (of the role; of the kinds),
    in site order."""
    from dsl.ast import ListNode, Str
    from stdlib.lowering import keywords
    from stdlib.moves import kinds_named

    given = keywords(node, {"of"}, k)
    env = k.env
    kinds: frozenset[int] | None = None
    if "of" in given:
        names = given["of"]
        items = names.items if isinstance(names, ListNode) else (names,)
        if not all(isinstance(i, Str) for i in items):
            k.refuse(node, "no kernel lowering of (sites Occupied) with a computed of:")
        kinds = frozenset()
        for i in items:
            kinds |= kinds_named(env, i.value) or frozenset()  # type: ignore[attr-defined]
    values = k.table("occupied kinds", [1 if v != EMPTY and (kinds is None or v in kinds)
                                        else 0 for v in range(len(env.owner))])
    role = k.lower(args[0], "Role") if args else None
    test = f"{values}[v] == 1" + (" and OWNER[v] == r" if role is not None else "")
    return k.function("sites_occupied", f"""
def {{name}}(st, T, mover, to, frm, buf):
    r = {role if role is not None else -1}
    c = 0
    for s in range(N):
        v = st[s]
        if {test}:
            buf[c] = s
            c += 1
    return c
""")


def occupied_count(k: Lower, node: Node) -> str | None:
    """For (sites Occupied role) (of any kind): how many sites it lists, read from the
    occupancy's counts in a kernel that keeps it for other lowerings (Lower.occupancy;
    OCCUPANCY is a constant, the other branch compiled out) — not a reason to keep it, whose
    upkeep costs more than a count now and then saves; None for any other region."""
    from dsl.ast import Const

    if not (isinstance(node, Form) and node.head == "sites" and len(node.args) == 2
            and isinstance(node.args[0], Const) and node.args[0].name == "Occupied"
            and not node.kwargs):
        return None
    return f"st[PIECES + {k.lower(node.args[1], 'Role')}]"


@lowers("sites Slide")
def lower_sites_slide(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(sites Slide start [directions]): the empty sites along each direction from the start,
    up to the first piece, special site or edge."""
    from stdlib.lowering import keywords

    keywords(node, set(), k)
    env = k.env
    name = getattr(args[1], "name", None) if len(args) > 1 else "All"
    if not isinstance(name, str):
        k.refuse(node, "no kernel lowering of (sites Slide) with these directions")
    dirs = env.absolute_dirs(name)
    steps = k.table("steps", [list(env.topology.step[d]) for d in dirs] or [[-1]])
    open_ = k.table("may hold a piece",
                    [0 if s in env.no_piece else 1 for s in range(env.topology.size)])
    start = k.lower(args[0], "Site")
    return k.function("sites_slide", f"""
def {{name}}(st, T, mover, to, frm, buf):
    s = {start}
    c = 0
    if s < 0:
        return 0
    for d in range({len(dirs)}):
        t = {steps}[d, s]
        while t != -1 and st[t] == 0 and {open_}[t] == 1:
            buf[c] = t
            c += 1
            t = {steps}[d, t]
    return c
""")


@lowers("union")
def lower_union(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(union regions...): the sites in any of them, in site order."""
    from stdlib.lowering import keywords
    from stdlib.sowing import lower_region_by_role

    keywords(node, set(), k)
    fixed = lower_region_by_role(k, node)
    if fixed is not None:
        return fixed
    parts = [k.lower(a, "Region") for a in args]
    marking = "".join(f"""
    for i in range({p}(st, T, mover, to, frm, tmp)):
        inside[tmp[i]] = True""" for p in parts)
    return k.function("union", f"""
def {{name}}(st, T, mover, to, frm, buf):
    inside = np.zeros(N, np.bool_)
    tmp = np.empty(N, np.int32){marking}
    c = 0
    for s in range(N):
        if inside[s]:
            buf[c] = s
            c += 1
    return c
""")


def _lower_filtered(k: Lower, node: Form, args: tuple[Node, ...], keep: bool) -> str:
    """The first region's sites, in its order, that are (keep) or are not in the others."""
    from stdlib.lowering import keywords
    from stdlib.sowing import lower_region_by_role

    keywords(node, set(), k)
    fixed = lower_region_by_role(k, node)
    if fixed is not None:
        return fixed
    first = k.lower(args[0], "Region")
    others = [k.lower(a, "Region") for a in args[1:]]
    if not others:
        return first
    test = "count[s] == " + str(len(others)) if keep else "count[s] == 0"
    marking = "".join(f"""
    for i in range({p}(st, T, mover, to, frm, tmp)):
        count[tmp[i]] += 1""" for p in others)
    # (A region lists a site once: a count per site says in how many of the others it is.)
    return k.function("intersection" if keep else "difference", f"""
def {{name}}(st, T, mover, to, frm, buf):
    count = np.zeros(N, np.int32)
    tmp = np.empty(N, np.int32){marking}
    c = 0
    for i in range({first}(st, T, mover, to, frm, buf)):
        s = buf[i]
        if {test}:
            buf[c] = s
            c += 1
    return c
""")


@lowers("intersection")
def lower_intersection(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(intersection first others...): the first's sites in every other, in its order."""
    return _lower_filtered(k, node, args, True)


@lowers("difference")
def lower_difference(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(difference region removed): the region's sites not in the removed, in its order."""
    return _lower_filtered(k, node, args, False)


@lowers("sites Around")
def lower_sites_around(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(sites Around site-or-region [directions]): around one site, its neighbours in the
    directions, in their order, from a table; around a region that depends only on the mover,
    a table by mover; around any other region, each of its sites' neighbours in turn that is
    neither in it nor found before (as the interpreter's around)."""
    from dsl.ast import Const, ListNode
    from stdlib.lowering import keywords, padded

    keywords(node, set(), k)
    env = k.env
    given = args[1] if len(args) > 1 else None
    names = given.items if isinstance(given, ListNode) else (given,) if given else ()
    if not all(isinstance(d, Const) for d in names):
        k.refuse(node, "no kernel lowering of (sites Around) with these directions")
    dirs: list[str] = []
    for d in names or (None,):
        dirs.extend(env.absolute_dirs(d.name if isinstance(d, Const) else "Adjacent"))
    one = args[0]
    if isinstance(one, Const) and one.name in ("To", "From", "LastTo", "LastFrom"):
        size = env.topology.size
        steps = [env.topology.step[d] for d in dirs]
        rows = []
        for s in range(size):
            row: list[int] = []
            for step in steps:
                t = step[s]
                if t != -1 and t != s and t not in row:
                    row.append(t)
            rows.append(row)
        table = k.table("sites around", padded(rows))
        site = k.lower(one, "Site")
        return k.function("sites_around", f"""
def {{name}}(st, T, mover, to, frm, buf):
    s = {site}
    c = 0
    if s < 0:
        return 0
    while {table}[s, c] != -1:
        buf[c] = {table}[s, c]
        c += 1
    return c
""")
    if region_by_mover(k, node) is not None:
        return _lower_by_mover(k, node, args)
    steps = [env.topology.step[d] for d in dirs]
    near = k.table("neighbours in order", padded(
        [[step[s] for step in steps if step[s] != -1] for s in range(env.topology.size)]))
    region = k.lower(one, "Region")
    return k.function("sites_around_region", f"""
def {{name}}(st, T, mover, to, frm, buf):
    inner = np.empty(N, np.int32)
    seen = np.zeros(N, np.bool_)
    m = {region}(st, T, mover, to, frm, inner)
    for i in range(m):
        seen[inner[i]] = True
    c = 0
    for i in range(m):
        s = inner[i]
        j = 0
        while {near}[s, j] != -1:
            t = {near}[s, j]
            if not seen[t]:
                seen[t] = True
                buf[c] = t
                c += 1
            j += 1
    return c
""")


def _lower_trace(k: Lower, node: Form, args: tuple[Node, ...]) -> tuple[str, str]:
    """The neighbour table of (sites Reach ...) and (sites Beyond ...) (by: directions) and a
    function `(st, T, mover, to, frm, seen)` marking in `seen` the sites traced from the start
    region over sites where through: holds (a condition on what Site holds, looked up by
    board value), the start sites included (as the interpreter's tracer)."""
    from dsl.ast import Const
    from stdlib.lowering import keywords, padded

    given = keywords(node, {"through", "by"}, k)
    by = given.get("by")
    if by is not None and not isinstance(by, Const):
        k.refuse(node, f"no kernel lowering of ({node.head}) with these directions")
    env = k.env
    verdicts = site_table(k.compiled(given["through"]))
    if verdicts is None:
        k.refuse(given["through"], f"no kernel lowering of ({node.head}) with a through: "
                                   "that reads more than what Site holds yet")
    passable = k.table("site verdicts", [[int(b) for b in row] for row in verdicts])
    near = k.table("neighbours", padded(env.topology.neighbours(
        env.absolute_dirs(by.name if isinstance(by, Const) else "Adjacent"))))
    start = k.lower(args[0], "Region")
    trace = k.function("trace", f"""
def {{name}}(st, T, mover, to, frm, seen):
    stack = np.empty(N, np.int32)
    top = 0
    for i in range({start}(st, T, mover, to, frm, stack)):
        if not seen[stack[i]]:
            seen[stack[i]] = True
            stack[top] = stack[i]
            top += 1
    while top > 0:
        top -= 1
        s = stack[top]
        j = 0
        while {near}[s, j] != -1:
            t = {near}[s, j]
            if not seen[t] and {passable}[mover, st[t]] == 1:
                seen[t] = True
                stack[top] = t
                top += 1
            j += 1
""")
    return near, trace


@lowers("sites Reach")
def lower_sites_reach(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(sites Reach start through: [by:]): the sites traced, in site order."""
    _, trace = _lower_trace(k, node, args)
    return k.function("sites_reach", f"""
def {{name}}(st, T, mover, to, frm, buf):
    seen = np.zeros(N, np.bool_)
    {trace}(st, T, mover, to, frm, seen)
    c = 0
    for s in range(N):
        if seen[s]:
            buf[c] = s
            c += 1
    return c
""")


@lowers("sites Beyond")
def lower_sites_beyond(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(sites Beyond start through: [by:]): the neighbours of the sites traced that are not
    traced themselves, in site order."""
    near, trace = _lower_trace(k, node, args)
    return k.function("sites_beyond", f"""
def {{name}}(st, T, mover, to, frm, buf):
    seen = np.zeros(N, np.bool_)
    {trace}(st, T, mover, to, frm, seen)
    beyond = np.zeros(N, np.bool_)
    for s in range(N):
        if seen[s]:
            j = 0
            while {near}[s, j] != -1:
                t = {near}[s, j]
                if not seen[t]:
                    beyond[t] = True
                j += 1
    c = 0
    for s in range(N):
        if beyond[s]:
            buf[c] = s
            c += 1
    return c
""")
