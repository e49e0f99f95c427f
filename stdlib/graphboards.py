"""Boards given as points and the lines joining them: Morris boards, Alquerque, Fanorona, ...

A point is named like a chess square on an implicit grid — column letter, then row number
counted from the bottom — and the name gives it its coordinates: `d7` is in the fourth column,
seventh row. A line is a list of points; it runs straight from each listed point to the next
and joins every point it passes on the way, so `{"a1" "g1"}` on a Nine Men's Morris board
joins a1-d1 and d1-g1. Each step of a line must run along a row, a column or a diagonal of the
grid, so every edge has a compass direction (a step to the right is E, up and to the right NE)
and the direction-based ludemes — `(line 3)`, `step`, rays, `(sites Side N)` — follow the
lines: a ray goes on from a point only along a line leaving it in the same direction.

The graph's `board` attribute is "graph". Its sides are the edges of the points' convex hull,
each named by the compass point it faces (a Morris board's sides are N, E, S, W, the three
points of each outer side; a triangle of points has S, NE and NW); `corners` names the hull's
corners by the compass point they lie towards from the board's centre; its directions are
those in which some line runs (`Diagonal` is refused on a board with no diagonal line).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from itertools import pairwise

import networkx as nx

from dsl.suggest import closest
from dsl.types import STR, DslType
from stdlib.boards import COMPASS, OPPOSITE, SQUARE_DIRS, Board, column_letters, compass_point
from stdlib.budget import MAX_LINE, BudgetExceeded, check_board
from stdlib.registry import ludeme
from stdlib.types import Annotated

# A line of a board of points: the names of the points it runs through, `{"a1" "d1" "g1"}`.
LINE = DslType("Line", list_of=STR)
Line = Annotated[list[str], LINE]

POINT_NAME = re.compile(r"([a-z]+)([1-9][0-9]*)")
UNIT_DIRS = {delta: d for d, delta in SQUARE_DIRS.items()}  # a unit step (dx, dy) -> direction
COMPASS_ORDER = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")

Point = tuple[int, int]  # (column, row), both from 0 at the bottom-left


def column_number(letters: str) -> int:
    """a → 0, z → 25, aa → 26: the inverse of `boards.column_letters`."""
    n = 0
    for ch in letters:
        n = n * 26 + ord(ch) - ord("a") + 1
    return n - 1


def point_name(column: int, row: int) -> str:
    """The name of the point in the given column and row (both from 0): (3, 6) → d7."""
    return f"{column_letters(column)}{row + 1}"


def _quoted(names: Sequence[str]) -> str:
    return "{" + " ".join(f'"{n}"' for n in names) + "}"


def _sign(v: int) -> int:
    return (v > 0) - (v < 0)


def _cross(o: Point, a: Point, b: Point) -> int:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def convex_hull(points: Sequence[Point]) -> list[Point]:
    """The corners of the points' convex hull, counter-clockwise from the lowest-leftmost (no
    point in the middle of a hull edge). Collinear points give the two ends; one point, itself."""
    pts = sorted(set(points))
    if len(pts) <= 2:
        return pts
    chain: list[Point] = []
    for sweep in (pts, pts[::-1]):  # the lower hull, then the upper
        half: list[Point] = []
        for p in sweep:
            while len(half) >= 2 and _cross(half[-2], half[-1], p) <= 0:
                half.pop()
            half.append(p)
        chain.extend(half[:-1])
    return chain


def hull_sides(points: Sequence[Point]) -> dict[str, list[Point]]:
    """The board's sides: each edge of the convex hull with every point on it, named by the
    compass point its outward normal is nearest to (edges of one name are one side). When the
    points are all on one line, that line is a side facing both ways and each end is a side
    facing along it; a single point has no side."""
    hull = convex_hull(points)
    if len(hull) < 2:
        return {}
    found: dict[str, set[Point]] = {}
    for p, q in zip(hull, hull[1:] + hull[:1], strict=True):
        facing = compass_point(q[1] - p[1], p[0] - q[0])  # the outward normal of a ccw edge
        found.setdefault(facing, set()).update(r for r in points if _cross(p, q, r) == 0)
    if len(hull) == 2:
        a, b = hull
        found.setdefault(compass_point(b[0] - a[0], b[1] - a[1]), set()).add(b)
        found.setdefault(compass_point(a[0] - b[0], a[1] - b[1]), set()).add(a)
    return {d: sorted(found[d], key=lambda p: (-p[1], p[0])) for d in COMPASS_ORDER
            if d in found}


def hull_corners(points: Sequence[Point]) -> dict[str, Point]:
    """The corners of the points' convex hull, each named by the compass point nearest to its
    direction from the centre of the points' bounding box (a square's a1 is SW, a triangle's
    apex N and the ends of its base SW and SE), listed from E counter-clockwise; two corners of
    one name are left unnamed."""
    hull = convex_hull(points)
    if len(hull) < 2:
        return {}
    cx = (min(p[0] for p in points) + max(p[0] for p in points)) / 2
    cy = (min(p[1] for p in points) + max(p[1] for p in points)) / 2
    found: dict[str, list[Point]] = {}
    for p in hull:
        found.setdefault(compass_point(p[0] - cx, p[1] - cy), []).append(p)
    return {name: found[name][0] for name, _ in COMPASS if len(found.get(name, ())) == 1}


def graph_board(points: Sequence[str], lines: Iterable[Sequence[str]], what: str) -> nx.DiGraph:
    """The board graph of the named points joined by the lines (see the module's docstring).
    Raises ValueError for a malformed or repeated point name, a row with no point below the
    top one, a line naming an unknown point, a line of fewer than two points or one that
    leaves the compass directions, and a grid larger than the budget allows."""
    if not points:
        raise ValueError("a board of points needs at least one point")
    check_board(what, len(points), 1)
    where: dict[str, Point] = {}
    for name in points:
        m = POINT_NAME.fullmatch(name)
        if m is None:
            raise ValueError(f'"{name}" is not a point name: a column letter and a row '
                             'number, as "a1" or "d7"')
        if name in where:
            raise ValueError(f'the point "{name}" is listed twice')
        where[name] = (column_number(m[1]), int(m[2]) - 1)
    xs = [x for x, _ in where.values()]
    ys = [y for _, y in where.values()]
    span = max(max(xs) - min(xs), max(ys)) + 1
    if span > MAX_LINE:
        raise BudgetExceeded(f"{what} would span {span} rows or columns of its grid; a board "
                             f"may be at most {MAX_LINE} wide and high")
    empty = sorted(set(range(max(ys) + 1)) - set(ys))
    if empty:
        raise ValueError(f"row {empty[0] + 1} has no point: number the rows of points 1, 2, "
                         "3, ... from the bottom, with no row left empty")
    at = {p: name for name, p in where.items()}
    edges: dict[tuple[str, str], str] = {}  # (from, to) -> the direction from -> to
    for line in lines:
        if len(line) < 2:
            raise ValueError(f"a line needs at least two points, not {_quoted(line)}")
        for name in line:
            if name not in where:
                hint = closest(name, where)
                raise ValueError(f'the line {_quoted(line)} names "{name}", which is not one '
                                 "of the points" + (f' (did you mean "{hint}"?)' if hint else ""))
        for a, b in pairwise(line):
            (ax, ay), (bx, by) = where[a], where[b]
            dx, dy = bx - ax, by - ay
            if dx == 0 and dy == 0:
                raise ValueError(f'the line {_quoted(line)} goes from "{a}" to itself')
            if dx and dy and abs(dx) != abs(dy):
                raise ValueError(f'the line {_quoted(line)} goes from "{a}" to "{b}", which '
                                 "is not along a row, column or diagonal of the grid: lines "
                                 "run in the eight compass directions")
            ux, uy = _sign(dx), _sign(dy)
            direction = UNIT_DIRS[(ux, uy)]
            previous = a
            for k in range(1, max(abs(dx), abs(dy)) + 1):
                passed = at.get((ax + k * ux, ay + k * uy))
                if passed is not None:  # every point on the way is joined to the one before
                    edges[(previous, passed)] = direction
                    edges[(passed, previous)] = OPPOSITE[direction]
                    previous = passed
    top = max(ys)
    g = nx.DiGraph(board="graph", columns=max(xs) + 1, rows=top + 1)
    node: dict[str, tuple[int, int]] = {}
    for name, (x, y) in where.items():
        node[name] = (top - y, x)
        g.add_node(node[name], name=name, row=top - y, col=x, x=float(x), y=float(y))
    for (a, b), direction in edges.items():
        g.add_edge(node[a], node[b], direction=direction)
    used = set(edges.values())
    g.graph["directions"] = tuple(d for d in COMPASS_ORDER if d in used)
    g.graph["sides"] = {side: [node[at[p]] for p in members]
                        for side, members in hull_sides(list(where.values())).items()}
    g.graph["corners"] = {corner: node[at[p]]
                          for corner, p in hull_corners(list(where.values())).items()}
    return g


@ludeme("points")
def points(names: list[str], *, lines: list[Line] | None = None) -> Board:
    """A board of points joined by lines, as Morris and Alquerque boards are drawn. Points are
    named like chess squares on an implicit grid (column letter, row number from the bottom),
    which places them; every row from 1 to the top must hold a point. Each line lists points:
    it runs straight from each to the next along a row, column or diagonal of the grid and
    joins every point it passes, so `{"a1" "g1"}` joins a1-d1-g1 when d1 is a point. A step to
    the right is E, up-right NE, and so on: `(line 3)`, `step` and rays follow the lines.
    Sides are the edges of the points' convex hull, named by the compass point they face.

    (board (points {"a1" "c1" "b2" "a3" "c3"} lines:{{"a1" "a3"} {"c1" "c3"} {"a1" "c3"}
      {"a3" "c1"}}))"""
    return graph_board(names, lines or [], "(points ...)")


@ludeme("morris")
def morris(rings: int = 3, *, centre: bool = False, diagonals: bool = False) -> Board:
    """A Morris board: `rings` concentric squares of eight points each (corners and
    mid-points), the mid-points of neighbouring squares joined by lines; with centre:true a
    point in the middle joined to the innermost mid-points; with diagonals:true the corners
    joined too. On the grid of 2*rings+1 columns the outer square's corners are a1, a7, g7, g1
    for three rings; `(morris 3)` is Nine Men's Morris (a1 d1 g1 / b2 d2 f2 / c3 d3 e3 / a4 b4
    c4 e4 f4 g4 / ...), `(morris 2)` Six Men's Morris, `(morris 3 diagonals:true)` Twelve Men's
    Morris, and `(morris 1 centre:true diagonals:true)` the 3 x 3 board of Three Men's Morris.

    (board (morris 3 diagonals:true))"""
    if rings < 1:
        raise ValueError("a morris board needs at least one ring")
    if rings == 1 and diagonals and not centre:
        raise ValueError("one ring without a centre has no diagonals to join: add centre:true")
    what = f"(morris {rings})"
    check_board(what, 8 * rings + 1, 2 * rings + 1)
    n, m = 2 * rings + 1, rings  # grid size, middle column and row
    names: list[str] = []
    lines: list[list[str]] = []
    for k in range(rings):  # ring k, from the outside in
        lo, hi = k, n - 1 - k
        square = [(lo, lo), (m, lo), (hi, lo), (hi, m), (hi, hi), (m, hi), (lo, hi), (lo, m)]
        names.extend(point_name(x, y) for x, y in square)
        corners = [(lo, lo), (hi, lo), (hi, hi), (lo, hi), (lo, lo)]
        lines.append([point_name(x, y) for x, y in corners])
    if centre:
        names.append(point_name(m, m))
    inner = m if centre else rings - 1  # how far in the cross and diagonal lines go
    for ex, ey in ((m, 0), (n - 1, m), (m, n - 1), (0, m)):  # the mid-points of the outside
        end = (ex + (inner if ex == 0 else -inner if ex == n - 1 else 0),
               ey + (inner if ey == 0 else -inner if ey == n - 1 else 0))
        if end != (ex, ey):
            lines.append([point_name(ex, ey), point_name(*end)])
    if diagonals:
        for cx, cy in ((0, 0), (n - 1, 0), (n - 1, n - 1), (0, n - 1)):
            end = (cx + (inner if cx == 0 else -inner), cy + (inner if cy == 0 else -inner))
            if end != (cx, cy):
                lines.append([point_name(cx, cy), point_name(*end)])
    return graph_board(names, lines, what)


@ludeme("alquerque")
def alquerque(columns: int = 5, rows: int | None = None) -> Board:
    """A rectangle of points, `columns` wide and `rows` high (as wide as it is high unless
    given), joined along every row and column, and diagonally through every other point:
    those whose column and row numbers are both odd or both even (a1, c1, b2, ...), as on
    Alquerque's board `(alquerque)` (5 x 5) and Fanorona's `(alquerque 9 5)`.

    (board (alquerque 9 5))"""
    height = columns if rows is None else rows
    if columns < 1 or height < 1:
        raise ValueError("an alquerque board needs at least one row and one column")
    what = f"(alquerque {columns} {height})"
    check_board(what, columns * height, max(columns, height))
    names = [point_name(x, y) for y in range(height) for x in range(columns)]
    lines: list[list[str]] = []
    lines.extend([point_name(0, y), point_name(columns - 1, y)] for y in range(height))
    lines.extend([point_name(x, 0), point_name(x, height - 1)] for x in range(columns))
    for dx in (1, -1):  # the diagonals going up-right, then up-left
        for x0, y0 in {(x, 0) for x in range(columns)} | {
                (0 if dx == 1 else columns - 1, y) for y in range(height)}:
            if (x0 + y0) % 2:
                continue
            k = min(height - 1 - y0, (columns - 1 - x0) if dx == 1 else x0)
            if k > 0:
                lines.append([point_name(x0, y0), point_name(x0 + dx * k, y0 + k)])
    lines = [line for line in lines if line[0] != line[1]]
    return graph_board(names, sorted(lines), what)


@ludeme("mancala")
def mancala(pits: int = 6, *, stores: bool = True) -> Board:
    """A mancala board: two rows of `pits` pits facing each other, the first player's row at
    the bottom, and with stores:true a store at each end. Pits are points on a grid, named by
    column and row: with stores, the bottom row is b1..g1 for 6 pits, the top row b3..g3, and
    the stores are a2 (left) and h2 (right); without, the rows are a1..f1 and a2..f2. The
    track "Loop" runs counter-clockwise through every pit and store: along the bottom row to
    the right, into the right-hand store, back along the top row, into the left-hand store.
    Facing pits are joined N-S (so `(opposite Site)` and the N and S steps reach across).

    (board (mancala 6 stores:false))"""
    if pits < 1:
        raise ValueError("a mancala board needs at least one pit in each row")
    what = f"(mancala {pits})"
    check_board(what, 2 * pits + 2, pits + 2)
    first = 1 if stores else 0  # the column of the first pit
    top = 2 if stores else 1  # the row of the top pits
    bottom_row = [point_name(first + i, 0) for i in range(pits)]
    top_row = [point_name(first + i, top) for i in range(pits)]
    names = bottom_row + top_row
    lines: list[list[str]] = [[a, b] for a, b in zip(bottom_row, top_row, strict=True)]
    if pits > 1:
        lines += [[bottom_row[0], bottom_row[-1]], [top_row[0], top_row[-1]]]
    loop = bottom_row[:]
    if stores:
        left, right = point_name(0, 1), point_name(pits + 1, 1)
        names += [left, right]
        lines += [[bottom_row[-1], right], [right, top_row[-1]], [top_row[0], left],
                  [left, bottom_row[0]]]
        loop += [right, *reversed(top_row), left]
    else:
        loop += list(reversed(top_row))
    board = graph_board(names, lines, what)
    node = {board.nodes[n]["name"]: n for n in board.nodes}
    board.graph["tracks"] = {"Loop": [node[name] for name in loop]}
    return board
