"""The star board: a six-pointed star of points on the triangular grid (Chinese checkers).

Two triangles of points, one pointing up and one down, laid over each other: a hexagon of
points in the middle with a triangle of points, a star point, on each of its six sides. The
board is a hex board (its points have the six neighbours of a hexagon's cell: E, W, NE, NW,
SE, SW), drawn with horizontal rows and named like the other hex boards: column letter within
the row, then row number counted from the bottom. Its sides are its six star points, named by
the compass point they lie towards, so a player declared with `forward:S` goes to the point
`(sites Side Forward)` from the point `(sites Side Backward)` opposite it.
"""

from __future__ import annotations

import math

from stdlib.boards import Board, _hex_graph
from stdlib.budget import check_board
from stdlib.registry import ludeme

POINTS = ("N", "NE", "SE", "S", "SW", "NW")  # the star's points, clockwise from the top


def star_cells(size: int) -> list[tuple[int, int]]:
    """The star's points in axial coordinates (i along E, j the row counted upward, each row
    half a point right of the row below it): the union of the two triangles x, y, z >= -size
    and x, y, z <= size of the cube coordinates x = i, z = j, y = -i - j."""
    n = size
    span = range(-2 * n, 2 * n + 1)
    return [(i, j) for j in span for i in span
            if (i >= -n and j >= -n and i + j <= n) or (i <= n and j <= n and i + j >= -n)]


def star_point(i: int, j: int, size: int) -> str | None:
    """The star point holding the axial cell (i, j), or None for a cell of the hexagon in the
    middle. A cell is in a point when one of its cube coordinates passes `size`: j above is
    N (the top), j below S; i above is SE (x = i + j/2 grows to the right, j is negative
    there), i below NW; i + j above is NE, below SW."""
    n = size
    for value, high, low in ((j, "N", "S"), (i, "SE", "NW"), (i + j, "NE", "SW")):
        if value > n:
            return high
        if value < -n:
            return low
    return None


@ludeme("star")
def star(size: int = 4) -> Board:
    """A six-pointed star of points (Chinese checkers): a hexagon with `size` + 1 points on
    each side, and on each of its sides a triangle of `size` rows of points (1, 2, ...,
    `size`), its star points. `(star 4)` is the classic board of 121 points: 17 rows, of 1, 2,
    3, 4, 13, 12, 11, 10, 9, 10, ..., 13, 4, 3, 2, 1 points. Points are named like hex cells:
    column letter within the row, row number from the bottom (a1 is the bottom tip, a17 the
    top one, the middle point of the classic board is e9). Directions E, W, NE, NW, SE, SW.
    Its sides are the six star points, each of size(size+1)/2 points (10 on the classic
    board), named N, NE, SE, S, SW, NW by where they lie, so `(sites Side Forward)` is the
    point a player declared with `forward:S` goes to; its corners are the tips of the points,
    named alike.

    (board (star 4))"""
    if size < 1:
        raise ValueError("a star board needs points of at least one row")
    cells = star_cells(size)
    check_board(f"(star {size})", len(cells), 4 * size + 1)
    g = _hex_graph(cells, "hex")
    at = {(round(data["x"] * 2), round(data["y"] * 2 / math.sqrt(3))): node
          for node, data in g.nodes(data=True)}  # (2i + j, j) -> node
    sides: dict[str, list[tuple[int, int]]] = {p: [] for p in POINTS}
    for i, j in cells:
        point = star_point(i, j, size)
        if point is not None:
            sides[point].append(at[(2 * i + j, j)])
    g.graph["sides"] = {p: sorted(sides[p]) for p in POINTS}
    tips = {"N": (-size, 2 * size), "NE": (size, size), "SE": (2 * size, -size),
            "S": (size, -2 * size), "SW": (-size, -size), "NW": (-2 * size, size)}
    g.graph["corners"] = {p: at[(2 * i + j, j)] for p, (i, j) in tips.items()}
    g.graph["rows"] = 4 * size + 1
    g.graph["columns"] = 3 * size + 1
    return g
