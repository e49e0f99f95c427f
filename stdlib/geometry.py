"""Geometry along the board's lines: n in a row, and captures by flanking (custodian
capture)."""

from __future__ import annotations

from collections.abc import Sequence

from dsl.ast import Bool, Const, Form, Int, Node
from stdlib.lowering import Lower, keywords, lowers
from stdlib.parts import mark, parts_of
from stdlib.registry import ludeme
from stdlib.runtime import EMPTY, Ctx, Env, literal, reads_nothing, recent_sites, with_reads
from stdlib.types import (
    Capture,
    Cond,
    Direction,
    IntExpr,
    Region,
    Regions,
    Relation,
    RoleExpr,
    SiteExpr,
)


def _axes(env: Env, directions: Direction = "All") -> list[tuple[str, str]]:
    """Pairs of opposite directions on this board (one per line through a site), those with
    one of the directions in it."""
    from stdlib.boards import OPPOSITE
    dirs = env.topology.directions
    allowed = set(env.absolute_dirs(directions))
    out = []
    for d in dirs:
        o = OPPOSITE.get(d)
        if o in dirs and (o, d) not in out and (d in allowed or o in allowed):
            out.append((d, o))
    return out


def _row_length(steps: dict[str, tuple[int, ...]], board: list[int], owner: tuple[int, ...],
                s: int, r: int, a: str, b: str) -> int:
    """How many of role r's pieces stand in an unbroken row through site s (which holds
    one) along the line of directions a and b."""
    n = 1
    for d in (a, b):
        t = steps[d][s]
        while t != -1 and owner[board[t]] == r:
            n += 1
            t = steps[d][t]
    return n


def _length_counts(env: Env, ludeme: str, length: int) -> bool:
    """Whether `length` is a length a row can have (1 or more); if not, says so where the
    ludeme is written (a row of 0 pieces would stand everywhere, or nowhere)."""
    if length >= 1:
        return True
    env.error(f"{ludeme} needs a length of at least 1, not {length}")
    return False


def _steps_within(env: Env, within: Regions) -> dict[str, tuple[int, ...]]:
    """The board's steps cut to the regions: a step leaving a region (or from a site in
    none) leads nowhere. The regions must not depend on the position."""
    part = [-1] * env.topology.size
    for i, region in enumerate(within):
        fixed = parts_of(region).static
        if fixed is None:
            env.error("within: needs regions that do not depend on the position")
            fixed = frozenset()
        for s in fixed:
            part[s] = i
    return {d: tuple(t if t != -1 and part[s] != -1 and part[t] == part[s] else -1
                     for s, t in enumerate(step))
            for d, step in env.topology.step.items()}


@ludeme("line")
def line(env: Env, length: int, *, role: RoleExpr | None = None,
         directions: Direction = "All", exact: bool = False,
         through: SiteExpr | None = None, within: Regions | None = None) -> Cond:
    """True when `role` (by default the mover) has `length` or more pieces in a row along one
    of the board's lines (all directions, or only the given ones); with exact:true, exactly
    `length` — a longer row (an overline) does not count. With through:, only rows through
    that site count (the piece just moved formed a mill: through:To). With within:, only rows
    inside one of the regions count (a row in one sub-board, or in one quadrant:
    within:(regions Subboards)). For the mover, after a move, only rows through the sites it
    changed are looked at.

    (continue (take (sites Occupied Next)) if:(line 3 through:To))"""
    if not _length_counts(env, "line", length):
        return literal(False)
    axes = _axes(env, directions)
    steps = env.topology.step if within is None else _steps_within(env, within)

    def counts(n: int) -> bool:
        return n == length or (n > length and not exact)

    def test(ctx: Ctx) -> bool:
        board, owner = ctx.board, ctx.owner
        r = role(ctx) if role is not None else ctx.mover
        if through is not None:
            s = through(ctx)
            return s >= 0 and owner[board[s]] == r and any(
                counts(_row_length(steps, board, owner, s, r, a, b)) for a, b in axes)
        # A new row of the mover's passes through a site the move (or the turn) changed; any
        # other role's row may have stood since its own turn: look everywhere.
        recent = recent_sites(ctx)
        candidates = recent if recent is not None and r == ctx.mover else range(len(board))
        for s in candidates:
            if owner[board[s]] != r:
                continue
            for a, b in axes:
                if counts(_row_length(steps, board, owner, s, r, a, b)):
                    return True
        return False
    says = mark(test)
    says.why = f"{'exactly ' if exact else ''}{length} in a row"
    says.why_not = f"not {'exactly ' if exact else ''}{length} in a row"
    return test


@ludeme("sites Line")
def sites_line(env: Env, length: int, *, role: RoleExpr | None = None,
               directions: Direction = "All", exact: bool = False) -> Region:
    """The sites of `role`'s pieces (by default the mover's) that stand in a row of `length`
    or more along one of the board's lines (exactly `length` with exact:true): the pieces in
    a mill, in Morris games.

    (take (difference (sites Occupied Next) (sites Line 3 role:Next)))"""
    if not _length_counts(env, "sites Line", length):
        return lambda ctx: []
    axes = _axes(env, directions)
    steps = env.topology.step

    def region(ctx: Ctx) -> list[int]:
        board, owner = ctx.board, ctx.owner
        r = role(ctx) if role is not None else ctx.mover
        out = []
        for s, v in enumerate(board):
            if owner[v] != r:
                continue
            for a, b in axes:
                n = _row_length(steps, board, owner, s, r, a, b)
                if n == length or (n > length and not exact):
                    out.append(s)
                    break
        return out
    return region


def flanked(board: list[int], owner: tuple[int, ...], role: int, s: int,
            rays: list[tuple[tuple[int, ...], ...]], low: int, high: int | None) -> list[int]:
    """The sites of the enemy pieces that a piece of `role` at s flanks: along each ray from
    s, an unbroken run of pieces of other roles (not neutral ones) ended by one of `role`'s,
    of `low` to `high` pieces (no upper bound for None)."""
    out: list[int] = []
    for ray in rays:
        line = ray[s]
        n = 0
        for t in line:
            o = owner[board[t]]
            if o == role:
                if n >= low:
                    out.extend(line[:n])
                break
            if o < 0 or n == high:
                break
            n += 1
    return out


def _run_bounds(env: Env, ludeme: str, low: int, high: int | None) -> bool:
    """Whether min: and max: bound the length of a flanked run sensibly; if not, says so
    where the ludeme is written."""
    if low >= 1 and (high is None or high >= low):
        return True
    env.error(f"{ludeme} needs 1 <= min <= max (a run of pieces between two of the mover's)")
    return False


@ludeme("flank")
def flank(env: Env, directions: Direction, *, remove: bool = False, min: int = 1,
          max: int | None = None) -> Capture:
    """Capture by flanking: a piece placed at s captures every unbroken line of enemy pieces
    running from s in one of the directions up to a friendly piece. Captured pieces change to
    the mover's colour (as in Reversi), or are removed with remove:true. With min: and max:,
    only lines of that many enemy pieces are captured: Pente takes exactly two (min:2 max:2),
    Keryo-Pente two or three. A piece placed between enemies is never taken by this.

    (place (sites Empty) capture:(flank All remove:true min:2 max:2))"""
    if not _run_bounds(env, "flank", min, max):
        return lambda ctx, s, value: ()
    rays = [env.topology.rays[d] for d in env.absolute_dirs(directions)]

    def capture(ctx: Ctx, s: int, value: int) -> tuple[tuple[int, int], ...]:
        new = EMPTY if remove else value
        return tuple((t, new) for t in flanked(ctx.board, ctx.owner, ctx.mover, s, rays,
                                                min, max))
    return capture


@ludeme("sites Flanked")
def sites_flanked(env: Env, site: SiteExpr, directions: Direction = "All", *, min: int = 1,
                  max: int | None = None) -> Region:
    """The enemy pieces that the mover's piece on the site encloses (custodian capture): each
    unbroken line of other roles' pieces running from the site in one of the directions up
    to another of the mover's pieces, of min: to max: pieces (any number from 1 without).
    Nothing if the site holds no piece of the mover's. As a step after a move or a
    placement, (remove (sites Flanked To ...)) takes them: Hasami Shogi's custodian capture
    is (sites Flanked To Orthogonal), Pente's (sites Flanked To All min:2 max:2); a piece
    that moves in between two enemies is safe.

    (play (place (sites Empty)) (remove (sites Flanked To All min:2 max:2)))"""
    if not _run_bounds(env, "sites Flanked", min, max):
        return lambda ctx: []
    rays = [env.topology.rays[d] for d in env.absolute_dirs(directions)]

    def region(ctx: Ctx) -> list[int]:
        s = site(ctx)
        if s < 0 or ctx.owner[ctx.board[s]] != ctx.mover:
            return []
        return flanked(ctx.board, ctx.owner, ctx.mover, s, rays, min, max)
    return region


@ludeme("centre-distance")
def centre_distance(env: Env, site: SiteExpr) -> IntExpr:
    """How far a site is from the centre of the board, as an integer that orders sites exactly
    by Euclidean distance: four times the squared distance between the cell's centre and the
    board's centre. On an n x n square board this is (2x - n + 1)**2 + (2y - n + 1)**2 for
    0-based column x and row y.

    (step Diagonal if:(< (centre-distance To) (centre-distance From)))"""
    xy = env.topology.xy
    xs = [p[0] for p in xy]
    ys = [p[1] for p in xy]
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    table = tuple(round(4 * ((x - cx) ** 2 + (y - cy) ** 2)) for x, y in xy)
    # A distance depends on no site's contents.
    distance = lambda ctx: table[site(ctx)]  # noqa: E731
    var = parts_of(site).site_var
    if var == "to":
        mark(distance).reads = reads_nothing
    elif var == "site":
        mark(distance).reads_site = reads_nothing
    return distance


@ludeme("sight")
def sight(env: Env, directions: Direction = "Adjacent", *, gap: int = 0,
          max_gap: int | None = None) -> Relation:
    """Line of sight: from a site, the sites along each of the directions' lines with only
    empty sites between (special sites such as a mine count as empty), and at least `gap`
    (at most `max-gap`) of them. The first occupied site on a line is seen, nothing beyond it.

    (link (sight Adjacent gap:1) if:(and (is Friend From) (is Friend To)))"""
    dirs = env.absolute_dirs(directions)
    if gap < 0 or (max_gap is not None and max_gap < gap):
        env.error("sight needs 0 <= gap <= max-gap")
    # Per site, its lines cut to what can be seen: each as (near, far), the `gap` sites that
    # must be empty and the sites that can be seen beyond them (up to max-gap + 1 away).
    reach = (max_gap + 1) if max_gap is not None else None
    lines = [tuple((ray[:gap], ray[gap:reach]) for d in dirs
                   if len(ray := env.topology.rays[d][s]) > gap)
             for s in range(env.topology.size)]
    # A site's line of sight depends on the sites along its lines (up to max-gap + 1 away).
    along = [frozenset(t for near, far in line for t in (*near, *far)) for line in lines]

    def seen(board: list[int], s: int, empty_too: bool) -> list[int]:
        """The sites seen from s: each line's occupied end, and with `empty_too` the empty
        sites before it."""
        out: list[int] = []
        for near, far in lines[s]:
            for t in near:
                if board[t] != EMPTY:
                    break
            else:
                for t in far:
                    if board[t] != EMPTY:
                        out.append(t)
                        break
                    if empty_too:
                        out.append(t)
        return out

    def related(ctx: Ctx, s: int) -> list[int]:
        return seen(ctx.board, s, True)

    def occupied(ctx: Ctx, s: int) -> list[int]:
        """The occupied sites seen: at most one per line, where the line of sight ends."""
        return seen(ctx.board, s, False)

    mark(related).occupied = occupied
    return with_reads(related, lambda s: along[s])


@ludeme("neighbours")
def neighbours(env: Env, directions: Direction = "Adjacent") -> Relation:
    """The relation between a site and its neighbours in the directions.

    (link (neighbours Adjacent) if:(is Friend From))"""
    table = env.topology.neighbours(env.absolute_dirs(directions))

    def related(ctx: Ctx, s: int) -> tuple[int, ...]:
        return table[s]

    def occupied(ctx: Ctx, s: int) -> list[int]:
        """The occupied neighbours."""
        board = ctx.board
        return [t for t in table[s] if board[t] != EMPTY]

    mark(related).occupied = occupied
    # It reads no site, but a link's condition reads the neighbours it leads to.
    return with_reads(related, lambda s: frozenset(table[s]))


# Kernel lowerings (stdlib/lowering.py) ---------------------------------------------------------

@lowers("line")
def lower_line(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(line n [role:] [directions:] [exact:] [through:]): as `line`, rows through the sites
    the turn changed when the role is the mover (the interpreter's `recent_sites`), through
    every site otherwise or when the turn changed too many to list."""
    given = keywords(node, {"role", "directions", "exact", "through"}, k)
    row = _lower_row(k, node, args, given)
    role = k.lower(given["role"], "Role") if "role" in given else "mover"
    if "through" in given:
        site = k.lower(given["through"], "Site")
        return k.function("line_through", f"""
def {{name}}(st, T, mover, to, frm):
    r = {role}
    s = {site}
    return s >= 0 and OWNER[st[s]] == r and {row}(st, T, s, r)
""") + "(st, T, mover, to, frm)"
    return k.function("line", f"""
def {{name}}(st, T, mover, to, frm):
    r = {role}
    k = st[H_NCHANGED]
    if r == mover and k >= 0:
        for i in range(k):
            s = st[CHANGED + i]
            if OWNER[st[s]] == r and {row}(st, T, s, r):
                return True
        return False
    for s in range(N):
        if OWNER[st[s]] == r and {row}(st, T, s, r):
            return True
    return False
""") + "(st, T, mover, to, frm)"


@lowers("sites Line")
def lower_sites_line(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(sites Line n [role:] [directions:] [exact:]): the sites of the role's pieces that
    stand in such a row (the pieces in a mill), in site order."""
    given = keywords(node, {"role", "directions", "exact"}, k)
    row = _lower_row(k, node, args, given)
    role = k.lower(given["role"], "Role") if "role" in given else "mover"
    return k.function("sites_line", f"""
def {{name}}(st, T, mover, to, frm, buf):
    r = {role}
    n = 0
    for s in range(N):
        if OWNER[st[s]] == r and {row}(st, T, s, r):
            buf[n] = s
            n += 1
    return n
""")


def _lower_row(k: Lower, node: Form, args: tuple[Node, ...], given: dict[str, Node]) -> str:
    """The function `(st, T, s, r) -> bool` of (line ...) and (sites Line ...): does role r's
    piece at s stand in a row of the length (exactly, with exact:true) along one of the
    directions' lines?"""
    env = k.env
    length = args[0].value if isinstance(args[0], Int) else 0
    if length < 1:
        k.refuse(node, f"no kernel lowering of ({node.head}) without a literal length")
    exact_node = given.get("exact")
    exact = isinstance(exact_node, Bool) and exact_node.value
    if exact_node is not None and not isinstance(exact_node, Bool):
        k.refuse(node, f"no kernel lowering of ({node.head}) with a computed exact:")
    dirs = given.get("directions")
    axes = _axes(env, dirs.name if isinstance(dirs, Const) else "All")
    if dirs is not None and not isinstance(dirs, Const):
        k.refuse(node, f"no kernel lowering of ({node.head}) with these directions")
    steps = env.topology.step
    table = k.table("line steps", [steps[d] for a, b in axes for d in (a, b)] or [[-1]])
    counts = f"c == {length}" if exact else f"c >= {length}"
    return k.function("row_through", f"""
def {{name}}(st, T, s, r):
    for a in range({len(axes)}):
        c = 1
        for d in range(2):
            t = {table}[2 * a + d, s]
            while t != -1 and OWNER[st[t]] == r:
                c += 1
                t = {table}[2 * a + d, t]
        if {counts}:
            return True
    return False
""")


def _flank_rays(k: Lower, node: Form, directions: Node | None) -> tuple[str, int]:
    """The table (D, N, W) of the rays from each site in the directions (-1 past a ray's
    end), and D."""
    if directions is not None and not isinstance(directions, Const):
        k.refuse(node, f"no kernel lowering of ({node.head}) with these directions")
    env = k.env
    name = directions.name if isinstance(directions, Const) else "All"
    rays = [env.topology.rays[d] for d in env.absolute_dirs(name)]
    width = max((len(r) for ray in rays for r in ray), default=0) or 1
    table = [[list(r) + [-1] * (width - len(r)) for r in ray] for ray in rays] \
        or [[[-1] * width] * env.topology.size]
    return k.table("rays", table), len(rays)


def _flank_masks(k: Lower, node: Form, directions: Node | None) -> str:
    """On a board of at most 64 sites whose rays run in site order (each up or down), the
    lines that judge whether a piece of the mover's at s would enclose any enemy (make
    false) from the occupancy's masks (Lower.occupancy), without walking the rays: along a
    ray, the first site not an enemy's is the nearest bit of the ray's mask left by the
    enemies' (the lowest on a ray up, the highest down), and the ray encloses pieces when
    that site is the mover's and not the ray's first. A site with no enemy next to it in
    any of the directions encloses nothing. Empty where the board is larger or some ray
    turns back."""
    env = k.env
    name = directions.name if isinstance(directions, Const) else "All"
    rays = [env.topology.rays[d] for d in env.absolute_dirs(name)]
    size = env.topology.size
    if size > 64 or not rays:
        return ""
    ups = []
    for ray in rays:
        row = []
        for s, sites in enumerate(ray):
            line = [s, *sites]
            if all(a < b for a, b in zip(line, line[1:], strict=False)):
                row.append(1)
            elif all(a > b for a, b in zip(line, line[1:], strict=False)):
                row.append(0)
            else:
                return ""
        ups.append(row)

    def mask(sites: Sequence[int]) -> int:
        m = sum(1 << t for t in sites)
        return m - (1 << 64) if m >= 1 << 63 else m
    along = k.table("ray masks", [[mask(sites) for sites in ray] for ray in rays], wide=True)
    first = k.table("rays' first sites", [[mask(sites[:1]) for sites in ray] for ray in rays],
                    wide=True)
    near = k.table("next to a site along the rays",
                   [mask([ray[s][0] for ray in rays if ray[s]]) for s in range(size)], wide=True)
    up = k.table("rays up", ups)
    occ = k.occupancy()
    return f"""    if not make:
        enemy = 0
        for r in range(R):
            if r != mover:
                enemy |= st[{occ} + r]
        if enemy & {near}[s] == 0:
            return 0
        own = st[{occ} + mover]
        for d in range({len(rays)}):
            x = {along}[d, s] & ~enemy
            if x == 0:
                continue
            if {up}[d, s] == 1:
                b = x & -x
            else:
                b = np.int64(1) << (63 - leading_zeros(x))
            if b & own != 0 and b != {first}[d, s]:
                return 1
        return 0
"""


def flank_candidates(k: Lower, capture: Node) -> str | None:
    """Where the capture is a (flank ...) on a board of at most 64 sites: the name of a
    function `(st, T, mover) -> mask` of the sites from which a piece of the mover's could
    enclose anything (each has an enemy's piece next to it along one of the directions,
    which every enclosed run begins with), from the occupancy (Lower.occupancy); a
    placement that must capture need not look elsewhere. None otherwise."""
    if not (isinstance(capture, Form) and capture.head == "flank"):
        return None
    directions = capture.args[0] if capture.args else None
    if directions is not None and not isinstance(directions, Const):
        return None
    env = k.env
    name = directions.name if isinstance(directions, Const) else "All"
    rays = [env.topology.rays[d] for d in env.absolute_dirs(name)]
    size = env.topology.size
    if size > 64:
        return None
    occ = k.occupancy()
    shifts = _uniform_steps(rays)
    if shifts is not None:  # each direction one difference of site numbers: the enemies'
        by = k.table("ray steps", [d for d, _ in shifts])  # mask shifted back, per direction
        sources = k.table("sites with a ray", [m for _, m in shifts], wide=True)
        return k.function("flank_candidates", f"""
def {{name}}(st, T, mover):
    enemy = 0
    for r in range(R):
        if r != mover:
            enemy |= st[{occ} + r]
    near = 0
    for d in range({len(shifts)}):
        by = {by}[d]
        if by >= 0:
            near |= {sources}[d] & (enemy >> by)
        else:
            near |= {sources}[d] & (enemy << -by)
    return near
""")
    back = [0] * size  # p -> the sites whose first site along some ray is p
    for ray in rays:
        for s, sites in enumerate(ray):
            if sites:
                back[sites[0]] |= 1 << s
    table = k.table("sites behind a site along the rays",
                    [m - (1 << 64) if m >= 1 << 63 else m for m in back], wide=True)
    return k.function("flank_candidates", f"""
def {{name}}(st, T, mover):
    near = 0
    for r in range(R):
        if r != mover:
            m = st[{occ} + r]
            while m != 0:
                near |= {table}[trailing_zeros(m)]
                m &= m - 1
    return near
""")


def _uniform_steps(rays: Sequence[Sequence[Sequence[int]]]) -> list[tuple[int, int]] | None:
    """Per direction (a ray from each site), the one difference between a site's number and
    its ray's first site's, and the mask (int64) of the sites with a ray; None where some
    direction's differences vary."""
    out = []
    for ray in rays:
        steps = {sites[0] - s for s, sites in enumerate(ray) if sites}
        if len(steps) > 1:
            return None
        m = sum(1 << s for s, sites in enumerate(ray) if sites)
        out.append((steps.pop() if steps else 0, m - (1 << 64) if m >= 1 << 63 else m))
    return out


def _run_bound(k: Lower, node: Form, given: dict[str, Node], name: str, default: int) -> int:
    value = given.get(name)
    if value is None:
        return default
    if not isinstance(value, Int):
        k.refuse(node, f"no kernel lowering of ({node.head}) with a computed {name}:")
    return value.value


def _flanked_source(k: Lower, node: Form, directions: Node | None, given: dict[str, Node],
                    new: str) -> str:
    """The function `(st, T, mover, s, value, make) -> count` of `flanked`: the enemy pieces
    a piece of the mover's at s encloses, changed to `new` when `make` (else it only says
    whether there is any: 1 or 0)."""
    rays, count = _flank_rays(k, node, directions)
    low = _run_bound(k, node, given, "min", 1)
    high = _run_bound(k, node, given, "max", -1)
    if low < 1 or (high != -1 and high < low):
        k.refuse(node, f"no kernel lowering of ({node.head}) with these bounds")
    masks = _flank_masks(k, node, directions) if (low, high) == (1, -1) else ""
    return k.function("flanked", f"""
def {{name}}(st, T, mover, s, value, make):
{masks}    total = 0
    for d in range({count}):
        n = 0
        j = 0
        while True:
            t = {rays}[d, s, j]
            if t == -1:
                break
            o = OWNER[st[t]]
            if o == mover:
                if n >= {low}:
                    if not make:
                        return 1
                    for i in range(n):
                        change(st, {rays}[d, s, i], {new})
                    total += n
                break
            if o < 0 or n == {high}:
                break
            n += 1
            j += 1
            if j == {rays}.shape[2]:
                break
    return total
""")


@lowers("flank")
def lower_flank(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(flank directions [remove:] [min:] [max:]): a capture (see place's lowering): the
    enclosed pieces turn to the placed piece's value, or are removed with remove:true."""
    given = keywords(node, {"remove", "min", "max"}, k)
    remove = given.get("remove")
    if remove is not None and not isinstance(remove, Bool):
        k.refuse(node, "no kernel lowering of (flank) with a computed remove:")
    new = "0" if remove is not None and remove.value else "value"
    return _flanked_source(k, node, args[0] if args else None, given, new)


@lowers("sites Flanked")
def lower_sites_flanked(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(sites Flanked site [directions] [min:] [max:]): the enemy pieces the mover's piece on
    the site encloses (nothing if it holds none of the mover's), by the scan of flank."""
    given = keywords(node, {"min", "max"}, k)
    rays, count = _flank_rays(k, node, args[1] if len(args) > 1 else None)
    low = _run_bound(k, node, given, "min", 1)
    high = _run_bound(k, node, given, "max", -1)
    if low < 1 or (high != -1 and high < low):
        k.refuse(node, f"no kernel lowering of ({node.head}) with these bounds")
    site = k.lower(args[0], "Site")
    return k.function("sites_flanked", f"""
def {{name}}(st, T, mover, to, frm, buf):
    s = {site}
    if s < 0 or OWNER[st[s]] != mover:
        return 0
    c = 0
    for d in range({count}):
        n = 0
        j = 0
        while True:
            t = {rays}[d, s, j]
            if t == -1:
                break
            o = OWNER[st[t]]
            if o == mover:
                if n >= {low}:
                    for i in range(n):
                        buf[c] = {rays}[d, s, i]
                        c += 1
                break
            if o < 0 or n == {high}:
                break
            n += 1
            j += 1
            if j == {rays}.shape[2]:
                break
    return c
""")


@lowers("centre-distance")
def lower_centre_distance(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(centre-distance site): a table of each site's distance, as the ludeme works it out."""
    keywords(node, set(), k)
    xy = k.env.topology.xy
    xs = [p[0] for p in xy]
    ys = [p[1] for p in xy]
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    table = k.table("centre distance", [round(4 * ((x - cx) ** 2 + (y - cy) ** 2))
                                        for x, y in xy])
    return f"{table}[{k.lower(args[0], 'Site')}]"


# Relations (sight, neighbours) lower to a function `(st, T, s, out) -> n` writing the sites
# related to s at out[0:n], as the interpreter's relation gives them (for (link ...)).

def _relation_dirs(k: Lower, node: Form, args: tuple[Node, ...]) -> tuple[str, ...]:
    """A relation's directions (Adjacent by default), made absolute."""
    direction = args[0] if args else None
    if direction is not None and not isinstance(direction, Const):
        k.refuse(node, f"no kernel lowering of ({node.head}) with these directions")
    return tuple(k.env.absolute_dirs(direction.name if direction is not None else "Adjacent"))


@lowers("sight")
def lower_sight(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(sight [directions] [gap:] [max-gap:]): along each line longer than gap, when its first
    gap sites are empty, the sites beyond up to max-gap + 1 away, to the first occupied one
    (with it)."""
    given = keywords(node, {"gap", "max-gap"}, k)
    bounds = []
    for name in ("gap", "max-gap"):
        value = given.get(name)
        if value is not None and not isinstance(value, Int):
            k.refuse(node, f"no kernel lowering of (sight) with a computed {name}:")
        bounds.append(value.value if isinstance(value, Int) else None)
    gap, max_gap = bounds[0] or 0, bounds[1]
    env = k.env
    dirs = _relation_dirs(k, node, args)
    rays = [[env.topology.rays[d][s] for d in dirs] for s in range(env.topology.size)]
    width = max(gap + 1, max((len(r) for per in rays for r in per), default=0))
    reach = width if max_gap is None else min(width, max_gap + 1)
    table = k.table("sight rays", [[list(r) + [-1] * (width - len(r)) for r in per]
                                   or [[-1] * width] for per in rays])
    return k.function("sight", f"""
def {{name}}(st, T, s, out):
    c = 0
    for d in range({len(dirs)}):
        if {table}[s, d, {gap}] == -1:
            continue
        clear = True
        for j in range({gap}):
            if st[{table}[s, d, j]] != 0:
                clear = False
                break
        if not clear:
            continue
        for j in range({gap}, {reach}):
            t = {table}[s, d, j]
            if t == -1:
                break
            out[c] = t
            c += 1
            if st[t] != 0:
                break
    return c
""")


@lowers("neighbours")
def lower_neighbours(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(neighbours [directions]): the site's neighbours in the directions, from a table."""
    from stdlib.lowering import padded

    keywords(node, set(), k)
    rows = padded(k.env.topology.neighbours(_relation_dirs(k, node, args)))
    table = k.table("neighbours", rows)
    return k.function("neighbours", f"""
def {{name}}(st, T, s, out):
    c = 0
    for j in range({len(rows[0])}):
        t = {table}[s, j]
        if t == -1:
            break
        out[c] = t
        c += 1
    return c
""")
