"""Expressions where numbers, sites and roles go, computed from the position: how many pieces
stand on a line, a move whose distance is such a number, the site some columns and rows away
from another, and the role that owns a piece.

A move that goes in a direction binds it (`ctx.direction`) with From, so that an expression of
its distance can read along the line being tried: `(move-by (pieces-on-line) All)` moves a
piece as far as there are pieces on its line, whichever line that is. The line counts are kept
by a position move by move (`LineCounts`), so a distance costs one look-up."""

from __future__ import annotations

from dsl.ast import Form, Int, Node
from stdlib.logic import cell_test, describe, site_table
from stdlib.lowering import Generator, Lower, keywords, left_behind_table, lowers
from stdlib.moves import Origins, Reach, accept
from stdlib.parts import mark, parts_of
from stdlib.registry import ludeme
from stdlib.runtime import EMPTY, NEUTRAL, Ctx, Env, Move, Tracker
from stdlib.types import CellKind, Cond, Direction, IntExpr, Moves, Region, RoleExpr, SiteExpr


def opposite(env: Env, d: str) -> str | None:
    """The direction that steps back from `d` on this board (None: there is none)."""
    step = env.topology.step
    forth = step[d]
    for e in env.topology.directions:
        back = step[e]
        if all(back[t] == s for s, t in enumerate(forth) if t != -1) and \
                any(t != -1 for t in forth):
            return e
    return None


class Lines:
    """The board's lines: the directions paired with their opposites into axes, and per axis
    the line each site is on (numbered by the line's first site, the furthest back)."""

    def __init__(self, env: Env) -> None:
        topo = env.topology
        self.size = topo.size
        self.axis: dict[str, int] = {}  # direction -> its axis
        self.line: list[tuple[int, ...]] = []  # axis -> site -> the line's number
        for d in topo.directions:
            if d in self.axis:
                continue
            back = opposite(env, d)
            a = len(self.line)
            self.axis[d] = a
            if back is not None:
                self.axis[back] = a
                behind = topo.rays[back]
                self.line.append(tuple(ray[-1] if ray else s for s, ray in enumerate(behind)))
            else:  # a direction without its opposite: each ray is its own line
                self.line.append(tuple(range(topo.size)))
        self.rays = topo.rays
        self.back = {d: opposite(env, d) for d in topo.directions}

    def index(self, d: str, s: int) -> int:
        """Where the count of site s's line along d is kept in LineCounts' data."""
        a = self.axis[d]
        return a * self.size + self.line[a][s]


def lines_of(env: Env) -> Lines:
    found = env.shared.get("lines")
    if found is None:
        found = env.shared["lines"] = Lines(env)
    return found


class LineCounts(Tracker):
    """The number of pieces on each line of the board (see Lines), kept by a position: a list
    indexed by Lines.index."""

    def __init__(self, lines: Lines) -> None:
        self.lines = lines

    def build(self, board: list[int]) -> list[int]:
        lines = self.lines
        data = [0] * (len(lines.line) * lines.size)
        for s, v in enumerate(board):
            if v != EMPTY:
                for a, line in enumerate(lines.line):
                    data[a * lines.size + line[s]] += 1
        return data

    def update(self, data: list[int], board: list[int], site: int, old: int, new: int
               ) -> list[int]:
        if (old == EMPTY) == (new == EMPTY):
            return data
        delta = 1 if old == EMPTY else -1
        size = self.lines.size
        for a, line in enumerate(self.lines.line):
            data[a * size + line[site]] += delta
        return data

    def copy(self, data: list[int]) -> list[int]:
        return list(data)


class PiecesOnLine:
    """The value of (pieces-on-line ...): the sites holding what `counted` says on the whole
    line through a site along a direction (both ways, the site itself included). With no
    direction given, the direction of the move being tried (ctx.direction); with no site,
    From."""

    def __init__(self, env: Env, direction: str | None, at: SiteExpr | None,
                 counted: CellKind) -> None:
        self.lines = lines_of(env)
        self.direction = direction
        self.at = at
        self.test = cell_test(env, counted)
        # Counting pieces of any owner: the position keeps the counts.
        self.counts = env.track(LineCounts(self.lines)) if counted == "Occupied" else None
        mark(self).description = "the number of pieces on the line"

    def __call__(self, ctx: Ctx) -> int:
        d = self.direction or ctx.direction
        s = self.at(ctx) if self.at is not None else ctx.frm
        if not d or s < 0:
            return 0
        if self.counts is not None:
            known = self.counts(ctx)
            if known is not None:
                return known[self.lines.index(d, s)]
        test = self.test
        found = 1 if test(ctx, s) else 0
        back = self.lines.back[d]
        for way in (d, back) if back is not None else (d,):
            for t in self.lines.rays[way][s]:
                if test(ctx, t):
                    found += 1
        return found


@ludeme("pieces-on-line")
def pieces_on_line(env: Env, direction: Direction | None = None, *,
                   at: SiteExpr | None = None, counting: CellKind = "Occupied") -> IntExpr:
    """The number of pieces on the whole line through a site (From, or the `at:` site) along
    a direction, both ways, the site's own piece included. Without a direction, the direction
    of the move being tried: a move that goes in a direction ((move-by ...)) binds it, so
    that its distance can be the pieces on its line (Lines of Action). With counting:, only
    the sites holding that (Friend, Enemy, Empty...), judged for the mover.

    (move-by (pieces-on-line) All over:(not (is Enemy Site)))"""
    if direction is not None:
        dirs = env.absolute_dirs(direction)
        if len(dirs) != 1:
            env.error(f"(pieces-on-line {direction}) needs one direction, such as N or NE")
        direction = dirs[0] if dirs else None
    return PiecesOnLine(env, direction, at, counting)


def _holds(kind: str, value: int, owner: int, mover: int) -> bool:
    """Whether a site holding `value` (owned by `owner`) holds `kind`, for `mover`."""
    enemy = owner >= 0 and owner != mover
    return {"Empty": value == EMPTY, "Occupied": value != EMPTY, "Friend": owner == mover,
            "Own": owner == mover, "Enemy": enemy, "EmptyOrEnemy": value == EMPTY or enemy,
            "Any": True}.get(kind, False)


@ludeme("move-by")
def move_by(env: Env, distance: IntExpr, directions: Direction = "All", *,
            over: Cond | None = None, to: CellKind = "EmptyOrEnemy",
            from_: Region | None = None, of: str | None = None, if_: Cond | None = None,
            unless: Cond | None = None) -> Moves:
    """Move one of the mover's pieces (or those on the `from:` sites; with of:, only its
    pieces of that kind) in a straight line in one of the directions, exactly `distance`
    sites: a number computed for each piece and direction, with From bound to the piece's
    site and the direction bound for (pieces-on-line). The sites passed over must each
    satisfy `over:` (judged with Site bound to each; anything without it: the piece jumps),
    and the site it lands on must hold `to:` (empty, or an enemy piece, captured, by
    default). A distance below 1, or past the board's edge, gives no move. Written `from-to`.

    (move-by (pieces-on-line) All over:(not (is Enemy Site)) to:EmptyOrEnemy)"""
    from stdlib.moves import kinded, kinds_named

    dirs = env.resolve_dirs(directions)
    lines = lines_of(env)
    rays = env.topology.rays
    no_piece = env.no_piece
    kinds = kinds_named(env, of)
    size = env.topology.size
    owner = env.owner
    values = range(len(env.pieces) + 1)
    lands = [[_holds(to, v, owner[v], m) for v in values] for m in range(len(env.roles))]
    passes = site_table(over) if over is not None else None
    # Where the pieces stand, from the position's ValueSites when no from: region is given
    # (any kind of the mover's when of: is not).
    origins = Origins(env, from_, kinds if kinds is not None else
                      frozenset(p.value for p in env.pieces if p.owner >= 0))
    on_line = distance if isinstance(distance, PiecesOnLine) and distance.at is None \
        and distance.direction is None and distance.counts is not None else None
    counts = on_line.counts if on_line is not None else None
    index = [{d: lines.index(d, s) for d in env.topology.directions} for s in range(size)]
    fixed = parts_of(distance).literal
    filtered = if_ is not None or unless is not None

    def generate(ctx: Ctx) -> list[Move]:
        board, mover = ctx.board, ctx.mover
        found = origins(ctx)
        if found is None:  # the position cannot tell now: the board is scanned
            starts = from_(ctx) if from_ is not None else range(size)
            found = [s for s in starts if owner[board[s]] == mover
                     and (kinds is None or board[s] in kinds)]
        known = counts(ctx) if counts is not None else None
        ds = dirs(mover) if callable(dirs) else dirs
        land = lands[mover]
        passable = passes[mover] if passes is not None else None
        out: list[Move] = []
        saved = ctx.frm, ctx.direction, ctx.site
        try:
            for s in found:
                v = board[s]
                if owner[v] != mover or (kinds is not None and v not in kinds):
                    continue
                where = index[s]
                for d in ds:
                    if known is not None:
                        n = known[where[d]]
                    elif isinstance(fixed, int):
                        n = fixed
                    else:
                        ctx.frm, ctx.direction = s, d
                        n = distance(ctx)
                    ray = rays[d][s]
                    if n < 1 or n > len(ray):
                        continue
                    t = ray[n - 1]
                    if t in no_piece or not land[board[t]]:
                        continue
                    if passable is not None:
                        if not all(passable[board[x]] for x in ray[:n - 1]):
                            continue
                    elif over is not None:
                        ctx.frm, ctx.direction = s, d
                        blocked = False
                        for x in ray[:n - 1]:
                            ctx.site = x
                            if not over(ctx):
                                blocked = True
                                break
                        if blocked:
                            continue
                    move = env.piece_move(s, t, v)
                    if filtered:
                        ctx.direction = d
                        accept(ctx, move, t, s, if_, unless, out, from_hand=False)
                    else:
                        out.append(move)
                    if ctx.probe and out:
                        return out
        finally:
            ctx.frm, ctx.direction, ctx.site = saved
        return out

    starting = parts_of(from_).static if from_ is not None else None

    def pairs(mover: int) -> frozenset[tuple[int, int]]:
        ds = dirs(mover) if callable(dirs) else dirs
        return frozenset((s, t) for s in range(size) if starting is None or s in starting
                         for d in ds for t in rays[d][s] if t not in no_piece)

    # One distance per direction: each direction gives one move at most, to its own site.
    mark(generate).reach = Reach(pairs, kinds, True, interned=True)
    return kinded(generate, "move")


@ludeme("site-at")
def site_at(env: Env, site: SiteExpr, across: IntExpr, up: IntExpr) -> SiteExpr:
    """The site `across` columns east (west when negative) and `up` rows north (south when
    negative) of a site, on boards whose sites lie on a grid: coordinate arithmetic, "the
    site two columns east". Off the board it is no site (-1), which holds nothing: (is ...)
    of it is false.

    (is Empty (site-at From 2 0))"""
    xy = env.topology.xy
    at = {(round(x), round(y)): s for s, (x, y) in enumerate(xy)}
    grid = [(round(x), round(y)) for x, y in xy]
    a, b = parts_of(across).literal, parts_of(up).literal
    if isinstance(a, int) and isinstance(b, int):
        # Fixed offsets: a table by site, made once.
        table = [at.get((x + a, y + b), -1) for x, y in grid]

        def fixed(ctx: Ctx) -> int:
            s = site(ctx)
            return table[s] if s >= 0 else -1
        return fixed

    def offset(ctx: Ctx) -> int:
        s = site(ctx)
        if s < 0:
            return -1
        x, y = grid[s]
        return at.get((x + across(ctx), y + up(ctx)), -1)
    return offset


@ludeme("owner")
def owner_of(env: Env, site: SiteExpr) -> RoleExpr:
    """The role that owns the piece on a site (Neutral when it is empty, holds a neutral
    piece, or is no site).

    (win (owner LastTo))"""
    owner = env.owner

    def role(ctx: Ctx) -> int:
        s = site(ctx)
        return owner[ctx.board[s]] if s >= 0 and ctx.board[s] != EMPTY else NEUTRAL
    return role


@ludeme("same-role")
def same_role(env: Env, a: RoleExpr, b: RoleExpr) -> Cond:
    """True when the two roles are the same: which role is moving, whose piece stands on a
    site.

    (same-role Mover "Black")"""
    def test(ctx: Ctx) -> bool:
        return a(ctx) == b(ctx)
    return describe(test, "the roles are the same", "the roles differ")


# Kernel lowerings (stdlib/lowering.py) ---------------------------------------------------------

@lowers("move-by")
def lower_move_by(k: Lower, node: Form, args: tuple[Node, ...]) -> Generator:
    """(move-by distance [directions] [over:] [to:] [from:] [of:] [if:] [unless:]): each of the
    mover's pieces (on the from: sites, of the of: kind) exactly `distance` sites along each
    direction (a literal, (pieces-on-line) of the line through From along that direction, or
    a number judged with From bound), passing over sites that hold over: (a condition on what
    Site holds, looked up by board value), onto a site holding to:; the filters are judged on
    the board after the move with To and From bound."""
    from stdlib.moves import _cell, _lower_dirs, _lower_origins, _make_piece_move

    given = keywords(node, {"over", "to", "from", "of", "if", "unless"}, k)
    env = k.env
    direction = args[1] if len(args) > 1 else None
    steps, width = _lower_dirs(k, node, direction, "All")
    loop = _lower_origins(k, node, given, steps, width)
    target = _cell(k, node, given.get("to"), "EmptyOrEnemy", "x")
    size = env.topology.size
    open_ = k.table("may hold a piece", [0 if s in env.no_piece else 1 for s in range(size)])
    distance = args[0]
    if isinstance(distance, Form) and distance.head == "pieces-on-line" and not distance.args \
            and not distance.kwargs:
        # Both ways along the line of the direction, the piece itself counted.
        name = getattr(direction, "name", "All")
        dirs = env.resolve_dirs(name)
        per_role = [tuple(dirs(r)) if callable(dirs) else tuple(dirs)
                    for r in range(len(env.roles))]
        lines = lines_of(env)
        if any(lines.back[d] is None for ds in per_role for d in ds):
            k.refuse(distance, "no kernel lowering of (pieces-on-line) along a direction "
                               "without its opposite")
        none = [-1] * size
        back = k.table("steps back by role", [
            [list(env.topology.step[str(lines.back[d])]) for d in ds] + [none] * (width - len(ds))
            for ds in per_role])
        distance_lines = (f"            m = 1\n"
                          f"            u = {steps}[mover, d, s]\n"
                          f"            while u != -1:\n"
                          f"                if st[u] != 0:\n"
                          f"                    m += 1\n"
                          f"                u = {steps}[mover, d, u]\n"
                          f"            u = {back}[mover, d, s]\n"
                          f"            while u != -1:\n"
                          f"                if st[u] != 0:\n"
                          f"                    m += 1\n"
                          f"                u = {back}[mover, d, u]\n")
    elif isinstance(distance, Int):
        distance_lines = f"            m = {distance.value}\n"
    else:
        value = k.lower(distance, "Int")
        distance_lines = ("            to = -1\n"
                          "            frm = s\n"
                          f"            m = {value}\n")
    passes = "True"
    if "over" in given:
        verdicts = site_table(k.compiled(given["over"]))
        if verdicts is None:
            k.refuse(given["over"], "no kernel lowering of (move-by) with an over: that "
                                    "reads more than what Site holds")
        over = k.table("site verdicts", [[int(b) for b in row] for row in verdicts])
        passes = f"{over}[mover, st[u]] == 1"
    filters = []
    if "if" in given:
        filters.append(f"({k.lower(given['if'], 'Boolean')})")
    if "unless" in given:
        filters.append(f"not ({k.lower(given['unless'], 'Boolean')})")
    left = left_behind_table(k)
    check = ""
    if filters:  # judged on the board after the move, To and From bound
        check = (f"            was = st[u]\n"
                 f"            put(st, s, {left}[v])\n"
                 f"            put(st, u, v)\n"
                 f"            to = u\n"
                 f"            frm = s\n"
                 f"            ok = {' and '.join(filters)}\n"
                 f"            put(st, u, was)\n"
                 f"            put(st, s, v)\n"
                 f"            if not ok:\n"
                 f"                continue\n")
    start = k.action_start("move", node)
    generate = k.function("move_by", f"""
def {{name}}(st, T, mover, acts, tags, n, tag):
    to = -1
    frm = -1
{loop}{distance_lines}            if m < 1:
                continue
            u = s
            ok = True
            for i in range(m):
                u = {steps}[mover, d, u]
                if u == -1:
                    ok = False
                    break
                if i < m - 1 and not ({passes}):
                    ok = False
                    break
            if not ok or {open_}[u] == 0:
                continue
            x = st[u]
            if not ({target}):
                continue
{check}            acts[n] = {start} + s * N + u
            tags[n] = tag
            n += 1
    return n
""")
    return Generator(generate, _make_piece_move(k, start), frozenset({"move"}))
