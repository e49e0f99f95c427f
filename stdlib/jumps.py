"""Moves that pieces on the way change: a slide that must jump screens to go on (the cannon of
xiangqi and janggi, `(slide ... over:N)`), a leap that a piece on the way blocks (a lame
leaper: the xiangqi horse's leg, the elephant's eye, `(leap ... path:...)`), and pieces
confined to a region each role owns (a palace, one's own side of a river: `within:`).

These are the parameters of `slide` and `leap` (stdlib/moves.py), made here. Each gives
`(attacked ...)` its reverse test (an AttackTest): a cannon's says along which lines a piece
arriving may open an attack (`AttackTest.screened`), a lame leaper's that its path is a line
that a piece leaving may open, so that the check screen of chess.Attacked keeps working."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

from dsl.ast import Const, Form, Int, Node
from stdlib.lowering import Generator, Lower, keywords
from stdlib.moves import (
    AttackTest,
    Line,
    Origins,
    Reach,
    ScreenedLine,
    accept,
    kinded,
    kinds_named,
    own_pieces,
)
from stdlib.parts import mark, parts_of
from stdlib.runtime import EMPTY, Ctx, Env, Move
from stdlib.types import CellKind, Cond, Direction, Moves, Region

Dirs = tuple[str, ...] | Callable[[int], tuple[str, ...]]
Inside = Sequence[frozenset[int]] | None  # per role, the sites a piece is confined to
T = TypeVar("T")


class PerPiece(Generic[T]):
    """What a piece (board value v) on a site s can do, worked out by `make(s, v)` when first
    asked and kept for the game: the moves made once, shared by all positions."""

    def __init__(self, size: int, make: Callable[[int, int], T]) -> None:
        self.size = size
        self.make = make
        self.known: dict[int, T] = {}

    def __call__(self, s: int, v: int) -> T:
        key = v * self.size + s
        found = self.known.get(key)
        if found is None:
            found = self.known[key] = self.make(s, v)
        return found


class Plan:
    """What a move generator of a piece of the `of:` kinds, moving from the `from:` sites onto
    a site holding `to:`, confined `within` a region, works out once: the kinds, the regions,
    where its pieces stand (Origins), and whether it may take the fast way (no filter, a
    simple `to:`) with which sites it lands on."""

    def __init__(self, env: Env, to: CellKind, from_: Region | None, of: str | None,
                 within: Region | None, if_: Cond | None, unless: Cond | None) -> None:
        from stdlib.logic import cell_test

        self.inside = sites_by_mover(env, within, "within:") if within is not None else None
        self.kinds = kinds_named(env, of)
        self.origins = Origins(env, from_, self.kinds)
        self.target = cell_test(env, to)
        self.starting = parts_of(from_).static if from_ is not None else None
        self.take_empty = to in ("Empty", "EmptyOrEnemy")
        self.take_enemy = to in ("Enemy", "EmptyOrEnemy")
        simple = if_ is None and unless is None
        self.fast = simple and to in ("Empty", "Enemy", "EmptyOrEnemy")
        self.takes = simple and from_ is None and to in ("Enemy", "EmptyOrEnemy")

    def finish(self, generate: Moves, scan: Moves,
               pairs: Callable[[int], frozenset[tuple[int, int]]],
               attacks: Callable[[], AttackTest]) -> Moves:
        """The generator to use (the fast one when the position can say where the pieces
        are), with its hints: what it reaches (never a move twice) and its attack test when
        it captures by replacement."""
        chosen = generate if self.fast and self.origins.known is not None else scan
        given = mark(chosen)
        given.reach = Reach(pairs, self.kinds, True, interned=True)
        if self.takes:
            given.attacks = attacks()
        return kinded(chosen, "move")


def sites_by_mover(env: Env, region: Region | None, what: str | None = None
                   ) -> tuple[frozenset[int], ...] | None:
    """The region's sites for each mover (by role index), when it depends on nothing but the
    mover: a static region, or one each role owns, (sites Named "Palace"). Otherwise None,
    and, when `what` names the parameter, an error saying it must not depend on more."""
    if region is None:
        return None
    given = parts_of(region)
    if given.static is not None:
        return (given.static,) * len(env.roles)
    if given.by_mover is not None:
        return given.by_mover
    if what is not None:
        env.error(f"{what} must be a region that depends on nothing but the mover (such as "
                  '(sites Named "Palace"), declared with (region ...))')
    return None


def looking_back(env: Env, dirs: tuple[str, ...], site: int, reach: int | None,
                 inside: frozenset[int] | None) -> list[tuple[int, ...]]:
    """The rays from `site` back against each of the directions (where a piece moving in
    them would come from), `reach` sites at most, each cut short at the first special site;
    for a piece confined `inside` some sites, none when the site is not one of them, and
    each ray ends at its first site outside them (the farthest a piece could start from)."""
    from stdlib.boards import OPPOSITE

    if inside is not None and site not in inside:
        return []
    rays, no_piece = env.topology.rays, env.no_piece
    out = []
    for d in dirs:
        o = OPPOSITE.get(d)
        if o not in rays:
            continue
        ray = rays[o][site][:reach]
        cut = next((i for i, t in enumerate(ray) if t in no_piece), len(ray))
        if inside is not None:
            cut = next((i + 1 for i, t in enumerate(ray[:cut]) if t not in inside), cut)
        if cut:
            out.append(ray[:cut])
    return out


def piece_lines(env: Env, dirs: Dirs, reach: int | None, inside: Inside,
                mover: int, site: int) -> list[tuple[int, ...]]:
    """The lines a piece of `mover` on `site` goes along: in each direction, `reach` sites at
    most, each cut at its first special site and (confined `inside`) its first site outside."""
    rays, no_piece = env.topology.rays, env.no_piece
    mine = inside[mover] if inside is not None else None
    out = []
    for d in (dirs(mover) if callable(dirs) else dirs):
        line = rays[d][site][:reach] if d in rays else ()
        cut = next((i for i, t in enumerate(line)
                    if t in no_piece or (mine is not None and t not in mine)), len(line))
        if cut:
            out.append(line[:cut])
    return out


# Screens: the cannon ----------------------------------------------------------------------------


class ScreenAttacks(AttackTest):
    """Whether a slide that jumps exactly `over` pieces lets a piece of the attacker (of the
    `kinds`) take on a site: looked at from the site, back along each direction, the piece
    just after the first `over` pieces."""

    def __init__(self, env: Env, dirs: Dirs, kinds: frozenset[int] | None, reach: int | None,
                 over: int, inside: Inside) -> None:
        self.over = over
        self.kinds = kinds
        self.looks = [[tuple(looking_back(env, dirs(role) if callable(dirs) else dirs, s,
                                          reach, inside[role] if inside is not None else None))
                       for s in range(env.topology.size)] for role in range(len(env.roles))]

    def __call__(self, ctx: Ctx, site: int, role: int) -> bool:
        board, owner, kinds, over = ctx.board, ctx.owner, self.kinds, self.over
        for ray in self.looks[role][site]:
            seen = 0
            for t in ray:
                v = board[t]
                if v != EMPTY:
                    if seen == over:
                        if owner[v] == role and (kinds is None or v in kinds):
                            return True
                        break
                    seen += 1
        return False

    def lines(self, role: int, site: int) -> tuple[Line, ...] | None:
        return ()  # everything it depends on is on its screened lines

    def screened(self, role: int, site: int) -> tuple[ScreenedLine, ...]:
        return tuple((ray, self.kinds, self.over) for ray in self.looks[role][site]
                     if len(ray) > 1)


def screen_slide(env: Env, directions: Direction, to: CellKind, from_: Region | None,
                 of: str | None, reach: int | None, over: int, within: Region | None,
                 if_: Cond | None, unless: Cond | None) -> Moves:
    """(slide ... over:N): along each line, the sites beyond the first N pieces, up to and
    with the next piece, where `to:` allows (see slide)."""
    dirs = env.resolve_dirs(directions)
    plan = Plan(env, to, from_, of, within, if_, unless)
    inside, kinds, origins, target = plan.inside, plan.kinds, plan.origins, plan.target
    take_empty, take_enemy, fast = plan.take_empty, plan.take_enemy, plan.fast
    size = env.topology.size
    owner_of = env.owner
    rows = PerPiece(size, lambda s, v: tuple(  # along each line, each site and the move there
        tuple((t, env.piece_move(s, t, v)) for t in line)
        for line in piece_lines(env, dirs, reach, inside, owner_of[v], s)))

    def generate(ctx: Ctx) -> list[Move]:
        sites = origins(ctx) if fast and not ctx.probe else None
        if sites is None:
            return scan(ctx)
        board, owner, mover = ctx.board, ctx.owner, ctx.mover
        out: list[Move] = []
        for s in sites:
            for row in rows(s, board[s]):
                seen = 0
                for t, m in row:
                    x = board[t]
                    if x == EMPTY:
                        if seen == over and take_empty:
                            out.append(m)
                        continue
                    if seen == over:
                        if take_enemy:
                            o = owner[x]
                            if o >= 0 and o != mover:
                                out.append(m)
                        break
                    seen += 1
        return out

    def scan(ctx: Ctx) -> list[Move]:
        board = ctx.board
        out: list[Move] = []
        for s, v in own_pieces(ctx, from_, kinds):
            for row in rows(s, v):
                seen = 0
                for t, m in row:
                    if seen == over and target(ctx, t):
                        accept(ctx, m, t, s, if_, unless, out, from_hand=False)
                        if ctx.probe and out:
                            return out
                    if board[t] != EMPTY:
                        if seen == over:
                            break
                        seen += 1
        return out

    def pairs(mover: int) -> frozenset[tuple[int, int]]:
        return frozenset((s, t) for s in range(size)
                         if plan.starting is None or s in plan.starting
                         for line in piece_lines(env, dirs, reach, inside, mover, s)
                         for t in line[over:])

    # Lines from a site never cross (straight lines in different directions): no move twice.
    return plan.finish(generate, scan, pairs,
                       lambda: ScreenAttacks(env, dirs, kinds, reach, over, inside))


# Lame leaps: the horse's leg, the elephant's eye -----------------------------------------------


def leap_paths(env: Env, across: int, up: int, path: Direction | None, inside: Inside,
               role: int) -> list[list[tuple[int, tuple[int, ...]]]]:
    """Per site, for a piece of `role`: each site a leap (across, up) reaches, with the sites
    it goes by (nearest first; none for a jump: path None), turned and mirrored every way.
    A leap whose path leaves the board, or whose end is a special site or outside `inside`,
    is not there."""
    xy = env.topology.xy
    at = {(round(x), round(y)): s for s, (x, y) in enumerate(xy)}
    no_piece = env.no_piece
    mine = inside[role] if inside is not None else None
    offsets = sorted({(sx * a, sy * b) for a, b in ((across, up), (up, across))
                      for sx in (1, -1) for sy in (1, -1)})
    out: list[list[tuple[int, tuple[int, ...]]]] = []
    for x, y in xy:
        here = []
        for dx, dy in offsets:
            t = at.get((round(x) + dx, round(y) + dy), -1)
            if t < 0 or t in no_piece or (mine is not None and t not in mine):
                continue
            steps = [] if path is None else path_steps(dx, dy, path)
            cx, cy, between = round(x), round(y), []
            for sx, sy in steps[:-1]:
                cx, cy = cx + sx, cy + sy
                between.append(at.get((cx, cy), -1))
            if -1 not in between:
                here.append((t, tuple(between)))
        out.append(here)
    return out


def path_steps(dx: int, dy: int, path: Direction) -> list[tuple[int, int]]:
    """The unit steps of a lame leap by (dx, dy): the orthogonal ones along the longer axis
    and the diagonal ones, in the order `path` says (Orthogonal first, or Diagonal first)."""
    sx, sy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
    a, b = sorted((abs(dx), abs(dy)))
    straight = (sx, 0) if abs(dx) > abs(dy) else (0, sy)
    orthogonal, diagonal = [straight] * (b - a), [(sx, sy)] * a
    return orthogonal + diagonal if path == "Orthogonal" else diagonal + orthogonal


class PathLeapAttacks(AttackTest):
    """Whether a leap capturing by replacement lets a piece of the attacker (of the `kinds`)
    take on a site: a piece a leap away whose path, if it has one, is empty. The path is a
    line (from the site outwards, ending at the leaper's site) that a piece leaving opens."""

    def __init__(self, env: Env, across: int, up: int, path: Direction | None,
                 kinds: frozenset[int] | None, inside: Inside) -> None:
        self.kinds = kinds
        size = env.topology.size
        # Per role, per attacked site: (the leaper's site, its path back from the site).
        self.looks: list[list[list[tuple[int, tuple[int, ...]]]]] = []
        for role in range(len(env.roles)):
            per_site: list[list[tuple[int, tuple[int, ...]]]] = [[] for _ in range(size)]
            for s, leaps in enumerate(leap_paths(env, across, up, path, inside, role)):
                for t, between in leaps:
                    per_site[t].append((s, between[::-1]))
            self.looks.append(per_site)
        self._lines = [[tuple(((*between, s), kinds) for s, between in per if between)
                        for per in per_site] for per_site in self.looks]

    def __call__(self, ctx: Ctx, site: int, role: int) -> bool:
        board, owner, kinds = ctx.board, ctx.owner, self.kinds
        for s, between in self.looks[role][site]:
            v = board[s]
            if owner[v] == role and (kinds is None or v in kinds):
                for b in between:
                    if board[b] != EMPTY:
                        break
                else:
                    return True
        return False

    def lines(self, role: int, site: int) -> tuple[Line, ...] | None:
        return self._lines[role][site]


def lame_leap(env: Env, across: int, up: int, to: CellKind, from_: Region | None,
              of: str | None, path: Direction | None, within: Region | None,
              if_: Cond | None, unless: Cond | None) -> Moves:
    """(leap ... path:... within:...): see leap."""
    if path is not None and path not in ("Orthogonal", "Diagonal"):
        env.error(f"path: is Orthogonal (those steps first) or Diagonal, not {path}")
    plan = Plan(env, to, from_, of, within, if_, unless)
    inside, kinds, origins, target = plan.inside, plan.kinds, plan.origins, plan.target
    take_empty, take_enemy, fast = plan.take_empty, plan.take_enemy, plan.fast
    paths = [leap_paths(env, across, up, path, inside, r) for r in range(len(env.roles))]
    size = env.topology.size
    owner_of = env.owner
    row = PerPiece(size, lambda s, v: tuple(  # each end, the sites between, the move
        (t, between, env.piece_move(s, t, v)) for t, between in paths[owner_of[v]][s]))

    def generate(ctx: Ctx) -> list[Move]:
        sites = origins(ctx) if fast and not ctx.probe else None
        if sites is None:
            return scan(ctx)
        board, owner, mover = ctx.board, ctx.owner, ctx.mover
        out: list[Move] = []
        for s in sites:
            for t, between, m in row(s, board[s]):
                for b in between:
                    if board[b] != EMPTY:
                        break
                else:
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
        board = ctx.board
        out: list[Move] = []
        for s, v in own_pieces(ctx, from_, kinds):
            for t, between, m in row(s, v):
                if all(board[b] == EMPTY for b in between) and target(ctx, t):
                    accept(ctx, m, t, s, if_, unless, out, from_hand=False)
                    if ctx.probe and out:
                        return out
        return out

    def pairs(mover: int) -> frozenset[tuple[int, int]]:
        return frozenset((s, t) for s in range(size)
                         if plan.starting is None or s in plan.starting
                         for t, _ in paths[mover][s])

    return plan.finish(generate, scan, pairs,
                       lambda: PathLeapAttacks(env, across, up, path, kinds, inside))


# Kernel lowerings (stdlib/lowering.py) ---------------------------------------------------------


def _allows(k: Lower, given: dict[str, Node]) -> str:
    """Source ` and ...` judging the generator's if: and unless: (moves.move_filters)."""
    from stdlib.moves import move_filters

    return move_filters(k, given)


def _inside(k: Lower, node: Form, given: dict[str, Node]) -> Inside:
    """The within: region's sites per mover (None without within:); refused when it depends
    on more than the mover."""
    if "within" not in given:
        return None
    inside = sites_by_mover(k.env, k.compiled(given["within"]))
    if inside is None:
        k.refuse(node, f"no kernel lowering of ({node.head}) with this within:")
    return inside


def lower_screen_slide(k: Lower, node: Form, args: tuple[Node, ...]) -> Generator:
    """(slide ... over:N) as screen_slide: along each line (cut at its first special site and
    first site outside within:, max: sites at most), the sites beyond exactly N pieces, up to
    and with the next piece, holding to:."""
    from stdlib.moves import _cell, _lower_dirs, _lower_origins, _make_piece_move

    given = keywords(node, {"to", "from", "of", "within", "max", "over", "if", "unless"}, k)
    bounds = []
    for name in ("over", "max"):
        value = given.get(name)
        if value is not None and not isinstance(value, Int):
            k.refuse(node, f"no kernel lowering of (slide) with a computed {name}:")
        bounds.append(value.value if isinstance(value, Int) else None)
    over, reach = bounds
    env = k.env
    size = env.topology.size
    steps, width = _lower_dirs(k, node, args[0] if args else None, "All")
    target = _cell(k, node, given.get("to"), "Empty", "x")
    loop = _lower_origins(k, node, given, steps, width)
    inside = _inside(k, node, given)
    open_ = k.table("open sites", [[0 if s in env.no_piece or (inside is not None
                                                                and s not in inside[r]) else 1
                                    for s in range(size)] for r in range(len(env.roles))])
    start = k.action_start("move", node)
    generate = k.function("screen_slide", f"""
def {{name}}(st, T, mover, acts, tags, n, tag):
{loop}            c = 0
            seen = 0
            while t != -1 and c < {reach if reach is not None else size}:
                if {open_}[mover, t] == 0:
                    break
                x = st[t]
                if seen == {over} and {target}{_allows(k, given)}:
                    acts[n] = {start} + s * N + t
                    tags[n] = tag
                    n += 1
                if x != 0:
                    if seen == {over}:
                        break
                    seen += 1
                t = {steps}[mover, d, t]
                c += 1
    return n
""")
    return Generator(generate, _make_piece_move(k, start), frozenset({"move"}))


def lower_lame_leap(k: Lower, node: Form, args: tuple[Node, ...]) -> Generator:
    """(leap across up path: within: ...) as lame_leap: to each site a leap away (inside
    within:) whose path's sites are all empty, holding to:."""
    from stdlib.moves import _cell, _lower_origins, _make_piece_move

    given = keywords(node, {"to", "from", "of", "path", "within", "if", "unless"}, k)
    path = given.get("path")
    if path is not None and not isinstance(path, Const):
        k.refuse(node, "no kernel lowering of (leap) with a computed path:")
    if not (len(args) == 2 and all(isinstance(a, Int) for a in args)):
        k.refuse(node, "no kernel lowering of (leap) with computed distances")
    across, up = (a.value for a in args)  # type: ignore[attr-defined]
    env = k.env
    inside = _inside(k, node, given)
    name = path.name if isinstance(path, Const) else None
    paths = [leap_paths(env, across, up, name, inside, r)  # type: ignore[arg-type]
             for r in range(len(env.roles))]
    width = max(1, max(len(here) for per in paths for here in per))
    long = max(1, max((len(b) for per in paths for here in per for _, b in here), default=1))
    ends = k.table("lame leap ends", [[[here[d][0] if d < len(here) else -1 for here in per]
                                       for d in range(width)] for per in paths])
    ways = k.table("lame leap paths", [[[list(here[d][1]) + [-1] * (long - len(here[d][1]))
                                         if d < len(here) else [-1] * long for here in per]
                                        for d in range(width)] for per in paths])
    target = _cell(k, node, given.get("to"), "EmptyOrEnemy", "x")
    loop = _lower_origins(k, node, given, ends, width)
    start = k.action_start("move", node)
    generate = k.function("lame_leap", f"""
def {{name}}(st, T, mover, acts, tags, n, tag):
{loop}            if t == -1:
                continue
            clear = True
            for j in range({long}):
                b = {ways}[mover, d, s, j]
                if b == -1:
                    break
                if st[b] != 0:
                    clear = False
                    break
            if not clear:
                continue
            x = st[t]
            if {target}{_allows(k, given)}:
                acts[n] = {start} + s * N + t
                tags[n] = tag
                n += 1
    return n
""")
    return Generator(generate, _make_piece_move(k, start), frozenset({"move"}))


def lower_screen_attacks(k: Lower, test: ScreenAttacks) -> str:
    """A kernel function `(st, T, site, role) -> bool` doing what a ScreenAttacks does: back
    along each ray from the site, the piece just after exactly `over` pieces is the role's,
    of the kinds."""
    env = k.env
    kinds = k.table("attacking kinds", [1 if test.kinds is None or v in test.kinds else 0
                                        for v in range(len(env.owner))])
    looks, rays, length = _ray_table(k, test.looks)
    return k.function("screen_attacks", f"""
def {{name}}(st, T, site, role):
    for i in range({rays}):
        seen = 0
        for j in range({length}):
            t = {looks}[role, site, i, j]
            if t == -1:
                break
            v = st[t]
            if v != 0:
                if seen == {test.over}:
                    if OWNER[v] == role and {kinds}[v] == 1:
                        return True
                    break
                seen += 1
    return False
""")


def lower_path_leap_attacks(k: Lower, test: PathLeapAttacks) -> str:
    """A kernel function `(st, T, site, role) -> bool` doing what a PathLeapAttacks does: a
    piece of the role, of the kinds, a leap away, its path back to the site empty."""
    env = k.env
    kinds = k.table("attacking kinds", [1 if test.kinds is None or v in test.kinds else 0
                                        for v in range(len(env.owner))])
    width = max(1, max(len(per) for by_role in test.looks for per in by_role))
    long = max(1, max((len(b) for by_role in test.looks for per in by_role for _, b in per),
                      default=1))
    table = [[[[s, *between] + [-1] * (long - len(between)) for s, between in per]
              + [[-1] * (long + 1)] * (width - len(per)) for per in by_role]
             for by_role in test.looks]
    looks = k.table("lame leap attacks", table)
    return k.function("lame_leap_attacks", f"""
def {{name}}(st, T, site, role):
    for i in range({width}):
        s = {looks}[role, site, i, 0]
        if s == -1:
            return False
        v = st[s]
        if OWNER[v] == role and {kinds}[v] == 1:
            clear = True
            for j in range(1, {long + 1}):
                b = {looks}[role, site, i, j]
                if b == -1:
                    break
                if st[b] != 0:
                    clear = False
                    break
            if clear:
                return True
    return False
""")


def _ray_table(k: Lower, looks: list[list[tuple[tuple[int, ...], ...]]]
               ) -> tuple[str, int, int]:
    """Rays per role per site as a table (R, N, rays, length) padded with -1, with its two
    widths."""
    rays = max(1, max(len(per) for by_role in looks for per in by_role))
    length = max(1, max((len(ray) for by_role in looks for per in by_role for ray in per),
                        default=1))
    table = [[[list(ray) + [-1] * (length - len(ray)) for ray in per]
              + [[-1] * length] * (rays - len(per)) for per in by_role] for by_role in looks]
    return k.table("attack rays", table), rays, length
