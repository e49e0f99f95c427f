"""Patterns (glyphs): small shapes of pieces, matched anywhere on the board in every rotation
and reflection, with the two colours either way round.

A pattern is written as rows of cells, like position text: cells separated by spaces, and on hex
boards each row indented to show its half-cell offset. Cell symbols:

    X  a piece of one player        O  a piece of another player
    .  an empty site                *  any piece
    ?  anything (the site must exist)

`X` and `O` stand for two different players, whichever way round. The library's shared
patterns (crosscut, hard corner, switches) are defines in `stdlib/patterns.lud`.

Every placement of every orientation on the board is computed once, at compile time, and
indexed by site, so asking "does the move just made form the pattern?" looks only at the
windows containing the sites the move changed.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from dsl import types as t
from dsl.ast import Form, Node
from stdlib.bitboards import anchors, lattice_of, set_bits, site_bits
from stdlib.budget import MAX_PATTERN_CELLS, MAX_PATTERN_INDEX, Budget
from stdlib.logic import judged_live
from stdlib.lowering import Lower, keywords, lowers, padded
from stdlib.parts import mark, parts_of
from stdlib.registry import ludeme
from stdlib.runtime import EMPTY, Ctx, Env, recent_sites, with_reads
from stdlib.types import Annotated, Cond, Region

SYMBOLS = frozenset("XO.*?")


@dataclass(frozen=True)
class PatternSpec:
    """A pattern as written: its name and its cells as (column, row, symbol), column in half
    cells (the character position / 2) and row counted downward."""

    name: str
    cells: tuple[tuple[float, int, str], ...]


PatternT = Annotated[PatternSpec, t.PATTERN]


@ludeme("pattern")
def pattern(rows: list[str], *, name: str = "pattern") -> PatternT:
    """A shape of pieces, written as rows of cells separated by spaces (X and O the two
    colours either way round, . empty, * any piece, ? anything); `name` is how refusals
    describe it ("forms a crosscut").

    (pattern {"X O" "O X"} name:"crosscut")"""
    cells: list[tuple[float, int, str]] = []
    for r, row in enumerate(rows):
        for i, ch in enumerate(row):
            if ch == " ":
                continue
            if ch not in SYMBOLS:
                raise ValueError(f"pattern {name!r}: unknown cell {ch!r} in row {r + 1} (cells "
                                 "are X, O, ., *, ?)")
            cells.append((i / 2.0, r, ch))
    if not cells:
        raise ValueError(f"pattern {name!r} has no cells")
    if not any(c[2] in "XO*" for c in cells):
        raise ValueError(f"pattern {name!r} needs at least one piece (X, O or *)")
    return PatternSpec(name, tuple(cells))


class Window:
    """One placement of a pattern on the board: its sites by the symbol they must match."""

    __slots__ = ("xs", "os", "empties", "pieces", "sites")

    def __init__(self, cells: list[tuple[int, str]]) -> None:
        self.xs = tuple(s for s, c in cells if c == "X")
        self.os = tuple(s for s, c in cells if c == "O")
        self.empties = tuple(s for s, c in cells if c == ".")
        self.pieces = tuple(s for s, c in cells if c == "*")
        self.sites = tuple(sorted(s for s, _ in cells))


def pattern_budget(spec: PatternSpec) -> Budget:
    """The budget of cells looked at while placing the pattern on the board (each orientation
    at each site): patterns with many cells on large boards are refused when they compile."""
    return Budget(MAX_PATTERN_CELLS, f'pattern "{spec.name}" ({len(spec.cells)} cells)',
                  "examine", "board cells placing it", "use a smaller pattern or board")


def _transforms(shape: str) -> list[tuple[float, bool]]:
    """(rotation angle, mirrored) pairs of the board's symmetry group."""
    step = 60 if shape == "hex" else 90
    return [(math.radians(a), m) for a in range(0, 360, step) for m in (False, True)]


def windows(env: Env, spec: PatternSpec) -> list[Window]:
    """Every placement of every orientation of the pattern on the board (deduplicated, with
    X/O swapped counted as the same window). Computed once per game and pattern; do not
    change the list."""
    known: dict[PatternSpec, list[Window]] = env.shared.setdefault("windows", {})
    if spec not in known:
        known[spec] = _windows(env, spec)
    return known[spec]


def _windows(env: Env, spec: PatternSpec) -> list[Window]:
    topo = env.topology
    row_height = math.sqrt(3) / 2 if topo.shape == "hex" else 1.0
    # Pattern cells in board coordinates (y up), relative to the first cell.
    base = [(x, -r * row_height, sym) for x, r, sym in spec.cells]
    x0, y0, _ = base[0]
    rel = [(x - x0, y - y0, sym) for x, y, sym in base]
    at = {(round(x, 3), round(y, 3)): s for s, (x, y) in enumerate(topo.xy)}
    seen: set[frozenset[tuple[int, str]]] = set()
    out: list[Window] = []
    budget = pattern_budget(spec)
    for angle, mirrored in _transforms(topo.shape):
        cos, sin = math.cos(angle), math.sin(angle)
        shape = []
        for x, y, sym in rel:
            if mirrored:
                x = -x
            shape.append((x * cos - y * sin, x * sin + y * cos, sym))
        for ax, ay in topo.xy:
            window = []
            for dx, dy, sym in shape:
                site = at.get((round(ax + dx, 3), round(ay + dy, 3)))
                if site is None:
                    break
                window.append((site, sym))
            budget.spend(len(window) + 1)
            if len(window) == len(shape):
                key = frozenset(window)
                swapped = frozenset((s, {"X": "O", "O": "X"}.get(c, c)) for s, c in window)
                if key not in seen and swapped not in seen:
                    seen.add(key)
                    out.append(Window(window))
    return out


def matches(w: Window, board: list[int], owner: tuple[int, ...]) -> bool:
    """Does the window hold the pattern, X and O bound to two different players? Colour cells
    are judged first: on a sparse board they fail fastest."""
    x = -3
    if w.xs:
        x = owner[board[w.xs[0]]]
        if x < 0:
            return False
        for s in w.xs:
            if owner[board[s]] != x:
                return False
    if w.os:
        o = owner[board[w.os[0]]]
        if o < 0 or o == x:
            return False
        for s in w.os:
            if owner[board[s]] != o:
                return False
    for s in w.empties:
        if board[s] != EMPTY:
            return False
    for s in w.pieces:
        if board[s] == EMPTY:
            return False
    return True


def index_budget(patterns: tuple[PatternSpec, ...], found: list[list[Window]]) -> None:
    """Indexing windows by site costs, per window, its size for each of its sites: refuse
    patterns so large that it would take minutes (a window of n cells costs n * n)."""
    names = " and ".join(f'"{spec.name}"' for spec in patterns)
    budget = Budget(MAX_PATTERN_INDEX, f"(forms ...) with pattern {names}", "index",
                    "cells of placements by site", "use a smaller pattern or board")
    budget.check(sum(len(w.sites) ** 2 for ws in found for w in ws))


@ludeme("forms")
def forms(env: Env, *patterns: PatternT, at: Region | None = None) -> Cond:
    """True when one of the patterns stands on the board in a window that contains a site the
    move being judged changes (or, with at:, one of those sites; in end conditions, a site the
    last turn changed).

    (place (sites Empty) unless:(forms ("Crosscut")))"""
    size = env.topology.size
    # Per site, the windows containing it: those that can hold when the site is empty; those
    # where it is a colour cell, seen from that site: (name, cells of its colour, cells of the
    # other colour, empty cells, piece cells), the site itself left out; and the others.
    if_empty: list[list[tuple[str, Window]]] = [[] for _ in range(size)]
    if_coloured: list[list[tuple[str, tuple[int, ...], tuple[int, ...], tuple[int, ...],
                                 tuple[int, ...]]]] = [[] for _ in range(size)]
    if_piece: list[list[tuple[str, Window]]] = [[] for _ in range(size)]
    index_budget(patterns, [windows(env, spec) for spec in patterns])
    for spec in patterns:
        for w in windows(env, spec):
            for site in w.sites:
                if site in w.empties:
                    if_empty[site].append((spec.name, w))
                elif site in w.xs or site in w.os:
                    same, other = (w.xs, w.os) if site in w.xs else (w.os, w.xs)
                    if_coloured[site].append((spec.name, tuple(t for t in same if t != site),
                                              other, w.empties, w.pieces))
                elif site in w.pieces:
                    if_piece[site].append((spec.name, w))
                else:  # a "?" cell
                    if_empty[site].append((spec.name, w))
                    if_piece[site].append((spec.name, w))
    everywhere = tuple(range(size))

    def coloured_match(s: int, board: list[int], owner: tuple[int, ...]) -> str | None:
        """The name of a pattern standing in a window where s (holding a piece) is a colour
        cell; the loop is written out, as it is the hot path of pattern rules."""
        me = owner[board[s]]
        if me < 0:
            return None
        for name, same, other, empties, pieces in if_coloured[s]:
            for c in same:
                if owner[board[c]] != me:
                    break
            else:
                o = owner[board[other[0]]] if other else -3
                if other and (o < 0 or o == me):
                    continue
                for c in other:
                    if owner[board[c]] != o:
                        break
                else:
                    for c in empties:
                        if board[c] != EMPTY:
                            break
                    else:
                        for c in pieces:
                            if board[c] == EMPTY:
                                break
                        else:
                            return name
        return None

    def test(ctx: Ctx) -> bool:
        if at is not None:
            sites = at(ctx)
        else:
            recent = recent_sites(ctx)
            sites = recent if recent is not None else everywhere
        board, owner = ctx.board, ctx.owner
        for s in sites:
            if board[s] != EMPTY:
                found = coloured_match(s, board, owner)
                if found is not None:
                    says.why = f"forms a {found}"
                    return True
                candidates = if_piece[s]
            else:
                candidates = if_empty[s]
            for name, w in candidates:
                if matches(w, board, owner):
                    says.why = f"forms a {name}"
                    return True
        return False

    names = " or ".join(p.name for p in patterns)
    says = mark(test)
    says.why = f"forms a {names}"
    says.why_not = f"does not form a {names}"
    if len({p.name for p in patterns}) > 1:
        judged_live(test, why=True)  # it says which one it found
    # Judged at a site, it reads the windows containing that site.
    around = [frozenset().union(*(w.sites for _, w in if_empty[s]),
                                *(w.sites for _, w in if_piece[s]),
                                *((*same, *other, *empties, *pieces)
                                  for _, same, other, empties, pieces in if_coloured[s]))
              for s in range(size)]
    if at is not None:
        if parts_of(parts_of(at).single_site).site_var == "site":  # at:Site
            says.reads_site = around.__getitem__
        return test
    placed = placed_forms(env, patterns)
    if placed is not None:
        says.placed = placed
    return with_reads(test, around.__getitem__)


# A shape: one orientation of a pattern, as (bit offset from its lowest cell, symbol) per cell.
Shape = tuple[tuple[int, str], ...]
# A cell of a shape on the masks: (bit offset, index of the mask it must be in).
Cell = tuple[int, int]
# A plan: for one shape with X and O bound to roles, the cells a placed piece cannot stand on,
# and for each cell it can stand on, that cell's offset and the other such cells.
Plan = tuple[tuple[Cell, ...], tuple[tuple[int, tuple[Cell, ...]], ...]]


def lattice_shapes(env: Env, patterns: tuple[PatternSpec, ...]) -> list[Shape] | None:
    """The distinct orientations of the patterns, as shapes on the game's lattice; None if the
    board is not regular enough for them (a shape moved to some site would cover sites that
    are not a window of the pattern), so that nothing may judge it on bit masks."""
    lattice = lattice_of(env)
    shapes: set[Shape] = set()
    actual: set[frozenset[int]] = set()
    for spec in patterns:
        for w in windows(env, spec):
            actual.add(frozenset(w.sites))
            symbol = dict.fromkeys(w.sites, "?")
            for group, sym in ((w.xs, "X"), (w.os, "O"), (w.empties, "."), (w.pieces, "*")):
                symbol.update(dict.fromkeys(group, sym))
            cells = [(lattice.bit[site], sym) for site, sym in symbol.items()]
            low = min(b for b, _ in cells)
            shapes.add(tuple(sorted((b - low, sym) for b, sym in cells)))
    site_of = lattice.site_of
    names = " and ".join(f'"{spec.name}"' for spec in patterns)
    budget = Budget(MAX_PATTERN_CELLS, f"the bit-mask shapes of pattern {names}", "examine",
                    "board cells", "use a smaller pattern or board")
    for shape in shapes:
        for anchor in site_of:
            covered: list[int] = []
            for offset, _ in shape:
                site = site_of.get(anchor + offset)
                if site is None:
                    break
                covered.append(site)
            budget.spend(len(covered) + 1)
            if len(covered) == len(shape) and frozenset(covered) not in actual:
                return None
    return sorted(shapes)


def bindings(shape: Shape, roles: int) -> list[dict[str, int]]:
    """Each way of binding the shape's X and O to two different roles, as the index of the
    mask (see bitboards.SiteBits) each symbol's cells must be in."""
    symbols = {sym for _, sym in shape}
    out = []
    for x in range(roles) if "X" in symbols else (-1,):
        for o in range(roles) if "O" in symbols else (-1,):
            if "X" in symbols and "O" in symbols and x == o:
                continue
            out.append({"X": x, "O": o, ".": roles, "*": roles + 1, "?": roles + 2})
    return out


def standing_windows(env: Env, patterns: tuple[PatternSpec, ...]
                     ) -> Callable[[Ctx], list[tuple[int, ...]] | None] | None:
    """A function giving the windows (each its sites, sorted) where one of the patterns stands
    on the position's board, found on the bit masks; the function gives None when the masks
    are not available (a move is being tried out). None instead of a function when the board
    is not regular enough for bit masks."""
    shapes = lattice_shapes(env, patterns)
    if shapes is None:
        return None
    lattice, masks_of = site_bits(env)
    roles = len(env.roles)
    plans = []
    for shape in shapes:
        offsets = tuple(offset for offset, _ in shape)
        for kind in bindings(shape, roles):
            cells = sorted(((offset, kind[sym]) for offset, sym in shape),
                           key=lambda cell: cell[1] >= roles)
            plans.append((tuple(cells), offsets))
    site_of = lattice.site_of

    def standing(ctx: Ctx) -> list[tuple[int, ...]] | None:
        masks = masks_of(ctx)
        if masks is None:
            return None
        return [tuple(sorted(site_of[anchor + o] for o in offsets))
                for cells, offsets in plans for anchor in set_bits(anchors(masks, cells))]
    return standing


def placed_forms(env: Env, patterns: tuple[PatternSpec, ...]
                 ) -> Callable[[Ctx, int], set[int] | None] | None:
    """For `forms` judging placements: a function giving, for a board value, every empty site
    where placing it would form one of the patterns in a window containing that site (the
    verdict `forms` gives for each placement), computed for all sites at once on the board's
    bit masks (see stdlib/bitboards.py); the function gives None when the position's masks
    are not available (a move is being tried out), so the caller judges site by site. None
    instead of a function when the board is not regular enough for bit masks."""
    shapes = lattice_shapes(env, patterns)
    if shapes is None:
        return None
    lattice, masks_of = site_bits(env)
    roles = len(env.roles)
    empty = roles
    plans: dict[int, list[Plan]] = {}

    def plans_for(placer: int) -> list[Plan]:
        """The plans for a piece of role `placer` (-1: a piece of nobody's)."""
        out = []
        for shape in shapes:
            for kind in bindings(shape, roles):
                rest: list[tuple[int, int]] = []
                can: list[tuple[int, int]] = []
                for offset, sym in shape:
                    takes = sym in "*?" or (sym in "XO" and kind[sym] == placer >= 0)
                    (can if takes else rest).append((offset, kind[sym]))
                if can:  # colours first: on a sparse board they fail fastest
                    rest.sort(key=lambda cell: cell[1] >= roles)
                    # For each cell the piece may take: its offset, and the others of those.
                    choices = tuple((offset, tuple(can[:i] + can[i + 1:]))
                                    for i, (offset, _) in enumerate(can))
                    out.append((tuple(rest), choices))
        return out

    owner = env.owner

    def placed(ctx: Ctx, value: int) -> set[int] | None:
        masks = masks_of(ctx)
        if masks is None:
            return None
        placer = owner[value]
        table = plans.get(placer)
        if table is None:
            table = plans[placer] = plans_for(placer)
        found = 0
        for rest, can in table:
            # Anchors (lowest cells) of the windows whose other cells all match ...
            fits = anchors(masks, rest)
            if fits:
                # ... and, for each cell the piece may take, the others of those too.
                for offset, others in can:
                    found |= (anchors(masks, others) & fits) << offset
        return set(lattice.sites(found & masks[empty]))
    return placed


@ludeme("count-patterns")
def count_patterns(env: Env, spec: PatternT) -> Annotated[object, t.INT_EXPR]:
    """The number of placements of the pattern standing on the whole board.

    (= (count-patterns ("Crosscut")) 0)"""
    all_windows = windows(env, spec)

    def count(ctx: Ctx) -> int:
        return sum(1 for w in all_windows if matches(w, ctx.board, ctx.owner))
    return count


# Kernel lowerings (stdlib/lowering.py) ---------------------------------------------------------

# A window's cells in a kernel table: the symbol's code, by SYMBOLS' order.
CODES = {"X": 0, "O": 1, ".": 2, "*": 3, "?": 4}


@lowers("forms")
def lower_forms(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(forms patterns... [at:]): as forms' test, the windows containing a site the move being
    judged (or the last turn) changed — every site when they are not known — or with at:, a
    site of that region, each matched cell by cell from tables of every window's sites and
    symbols."""
    given = keywords(node, {"at"}, k)
    env = k.env
    specs = [k.compiled(a) for a in args]
    if not all(isinstance(spec, PatternSpec) for spec in specs):
        k.refuse(node, "no kernel lowering of (forms) with these patterns")
    found = [w for spec in specs for w in windows(env, spec)]
    cells: list[list[tuple[int, int]]] = []
    for w in found:
        row = [(s, CODES["X"]) for s in w.xs] + [(s, CODES["O"]) for s in w.os] + \
            [(s, CODES["."]) for s in w.empties] + [(s, CODES["*"]) for s in w.pieces]
        cells.append(row)
    width = max((len(c) for c in cells), default=0) + 1
    sites = k.table("window sites", [[s for s, _ in c] + [-1] * (width - len(c))
                                     for c in cells] or [[-1]])
    codes = k.table("window symbols", [[code for _, code in c] + [-1] * (width - len(c))
                                       for c in cells] or [[-1]])
    by_site: list[list[int]] = [[] for _ in range(env.topology.size)]
    for i, w in enumerate(found):
        for s in w.sites:
            by_site[s].append(i)
    windows_at = k.table("windows by site", padded(by_site))
    loop = ("    n = st[H_NCHANGED]\n"
            "    count = n if n >= 0 else N\n"
            "    for i in range(count):\n"
            "        s = st[CHANGED + i] if n >= 0 else i\n")
    if "at" in given:
        loop = ("    buf = np.empty(N, np.int32)\n"
                f"    for i in range({k.lower(given['at'], 'Region')}(st, T, mover, to, frm, "
                "buf)):\n"
                "        s = buf[i]\n")
    # One function, its loops written out: the tables are read once per call (a call
    # passing the tables costs more than a window's cells).
    return k.function("forms", f"""
def {{name}}(st, T, mover, to, frm):
    cells = {sites}
    codes = {codes}
    at = {windows_at}
{loop}        for wi in range(at.shape[1]):
            w = at[s, wi]
            if w < 0:
                break
            x = -3
            o = -3
            ok = True
            for j in range({width}):
                c = cells[w, j]
                if c < 0:
                    break
                code = codes[w, j]
                v = st[c]
                if code == 0:
                    who = OWNER[v]
                    if who < 0 or (x != -3 and who != x):
                        ok = False
                        break
                    x = who
                elif code == 1:
                    who = OWNER[v]
                    if who < 0 or who == x or (o != -3 and who != o):
                        ok = False
                        break
                    o = who
                elif code == 2:
                    if v != 0:
                        ok = False
                        break
                elif v == 0:
                    ok = False
                    break
            if ok:
                return True
    return False
""") + "(st, T, mover, to, frm)"


def lower_windows(k: Lower, found: Sequence[Window]) -> tuple[str, str]:
    """The windows' sites as a table (a row per window, -1 ended) and the function
    `(b, w) -> bool`: does window w hold the pattern on the board values b (the state, or
    any array of a board), X and O bound to two different roles (as `matches`)?"""
    cells = [[(s, CODES["X"]) for s in w.xs] + [(s, CODES["O"]) for s in w.os]
             + [(s, CODES["."]) for s in w.empties] + [(s, CODES["*"]) for s in w.pieces]
             for w in found]
    width = max((len(c) for c in cells), default=0) + 1
    sites = k.table("window sites", [[s for s, _ in c] + [-1] * (width - len(c))
                                     for c in cells] or [[-1]])
    codes = k.table("window symbols", [[code for _, code in c] + [-1] * (width - len(c))
                                       for c in cells] or [[-1]])
    return sites, k.function("window_holds", f"""
def {{name}}(b, w):
    x = -3
    o = -3
    for j in range({width}):
        c = {sites}[w, j]
        if c < 0:
            break
        code = {codes}[w, j]
        v = b[c]
        if code == 0:
            who = OWNER[v]
            if who < 0 or (x != -3 and who != x):
                return False
            x = who
        elif code == 1:
            who = OWNER[v]
            if who < 0 or who == x or (o != -3 and who != o):
                return False
            o = who
        elif code == 2:
            if v != 0:
                return False
        elif v == 0:
            return False
    return True
""")
