"""Boards: builders that return `networkx` graphs, and the flat topology compiled from them.

A board graph is a `networkx.DiGraph`. Each node carries `name` (what the user types), `row`
(counted from the top, 0-based), `col` (position within its row from the left), and `x`, `y`
(cartesian centre, y upward). Each edge u→v carries `direction` (`"N"`, `"NE"`, ...): the
direction from u to v. The graph's `board` attribute names the shape and `sides` maps each
side's name to its nodes.

`Topology.from_graph` turns a graph into flat per-site arrays once, at compile time: nothing
calls networkx while a game is played.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import networkx as nx

from dsl.types import BOARD
from stdlib.budget import check_board
from stdlib.registry import ludeme
from stdlib.types import Annotated

Board = Annotated[nx.DiGraph, BOARD]

SQUARE_DIRS = {"N": (0, 1), "NE": (1, 1), "E": (1, 0), "SE": (1, -1),
               "S": (0, -1), "SW": (-1, -1), "W": (-1, 0), "NW": (-1, 1)}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E", "NE": "SW", "SW": "NE", "NW": "SE",
            "SE": "NW"}


def column_letters(i: int) -> str:
    """0 → a, 25 → z, 26 → aa (spreadsheet style)."""
    out = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        out = chr(ord("a") + r) + out
    return out


def _add_edges(g: nx.DiGraph, offsets: dict[str, tuple[int, int]],
               key: dict[tuple[int, int], tuple[int, int]]) -> None:
    """Connect nodes whose (i, j) lattice coordinates differ by each direction's offset."""
    for (i, j), node in key.items():
        for d, (di, dj) in offsets.items():
            other = key.get((i + di, j + dj))
            if other is not None:
                g.add_edge(node, other, direction=d)


@ludeme("rectangle")
def rectangle(columns: int, rows: int) -> Board:
    """A rectangle of square cells, `columns` wide and `rows` high. Sites are named like chess
    squares: column letter, then row number, `a1` bottom-left. Directions N, NE, E, SE, S, SW,
    W, NW; sides N, S, E, W; corners NE, NW, SW, SE.

    (board (rectangle 7 6))"""
    if columns < 1 or rows < 1:
        raise ValueError("a rectangle needs at least one row and one column")
    check_board(f"(rectangle {columns} {rows})", columns * rows, max(columns, rows))
    g = nx.DiGraph(board="square", columns=columns, rows=rows, directions=tuple(SQUARE_DIRS))
    key: dict[tuple[int, int], tuple[int, int]] = {}
    for r in range(rows):  # r counts from the top
        y = rows - 1 - r
        for c in range(columns):
            node = (r, c)
            g.add_node(node, name=f"{column_letters(c)}{y + 1}", row=r, col=c, x=float(c),
                       y=float(y))
            key[(c, y)] = node
    _add_edges(g, SQUARE_DIRS, key)
    g.graph["sides"] = {
        "N": [(0, c) for c in range(columns)],
        "S": [(rows - 1, c) for c in range(columns)],
        "W": [(r, 0) for r in range(rows)],
        "E": [(r, columns - 1) for r in range(rows)],
    }
    return g


@ludeme("square")
def square(size: int) -> Board:
    """An n x n board of square cells (see rectangle).

    (board (square 8))"""
    if size >= 1:
        check_board(f"(square {size})", size * size, size)
    return rectangle(size, size)


# Hex lattice in axial coordinates (q along E, r along SE... here: i = column axis, j = row
# upward). A cell (i, j) touches (i±1, j) E/W, (i, j+1) NE, (i-1, j+1) NW, (i+1, j-1) SE,
# (i, j-1) SW: rows are horizontal and each row above sits half a cell to the right.
HEX_DIRS = {"E": (1, 0), "W": (-1, 0), "NE": (0, 1), "NW": (-1, 1), "SE": (1, -1),
            "SW": (0, -1)}


def _hex_graph(cells: list[tuple[int, int]], shape: str) -> nx.DiGraph:
    """A hex-cell graph over axial cells (i, j), j the row counted upward."""
    g = nx.DiGraph(board=shape, directions=tuple(HEX_DIRS))
    rows = sorted({j for _, j in cells}, reverse=True)
    key: dict[tuple[int, int], tuple[int, int]] = {}
    for r, j in enumerate(rows):
        row_cells = sorted(i for i, jj in cells if jj == j)
        for c, i in enumerate(row_cells):
            node = (r, c)
            g.add_node(node, name=f"{column_letters(c)}{len(rows) - r}", row=r, col=c,
                       x=i + j / 2.0, y=j * math.sqrt(3) / 2.0)
            key[(i, j)] = node
    _add_edges(g, HEX_DIRS, key)
    return g


def _sides_missing(g: nx.DiGraph, missing: dict[str, tuple[str, ...]]) -> dict[str, list]:
    out: dict[str, list] = {}
    for side, dirs in missing.items():
        out[side] = [n for n in g.nodes
                     if not any(g.edges[n, m]["direction"] in dirs for m in g.successors(n))]
    return out


@ludeme("hex-rhombus")
def hex_rhombus(size: int) -> Board:
    """An n x n rhombus of hexagonal cells (the Hex board), drawn with horizontal rows, each row
    shifted half a cell right of the row above: cell (row r, col c) touches (r, c±1),
    (r-1, c), (r-1, c+1), (r+1, c-1) and (r+1, c). Sites are named by column letter within the
    row and row number counted from the bottom (`a1` is the bottom-left cell). Directions E, W,
    NE, NW, SE, SW; sides N and S (top and bottom rows), W and E (first and last cells of the
    rows); corners NW, NE, SW, SE.

    (board (hex-rhombus 11))"""
    if size < 1:
        raise ValueError("a rhombus needs a size of at least 1")
    check_board(f"(hex-rhombus {size})", size * size, size)
    # Row r from the top is j = size-1-r upward; axial i = c + r puts each row half a cell
    # right of the row above it (x = i + j/2), as the drawing wants.
    cells = [(c + r, size - 1 - r) for r in range(size) for c in range(size)]
    g = _hex_graph(cells, "hex")
    g.graph["sides"] = _sides_missing(g, {"N": ("NE", "NW"), "S": ("SE", "SW"),
                                          "W": ("W",), "E": ("E",)})
    g.graph["columns"] = size
    g.graph["rows"] = size
    return g


@ludeme("hexhex")
def hexhex(size: int) -> Board:
    """A hexagon of hexagonal cells with `size` cells on each side (3n(n-1)+1 cells), drawn with
    horizontal rows of size, size+1, ..., 2*size-1, ..., size cells. Sites are named by column
    letter within the row and row number counted from the bottom: `a1` is the left end of the
    bottom row, the centre of a side-6 board is `f6`. Directions E, W, NE, NW, SE, SW; sides N,
    S (top and bottom rows), NE, SE, SW, NW (the slanted sides); corners E, NE, NW, W, SW, SE
    (each on two sides).

    (board (hexhex 6))"""
    if size < 1:
        raise ValueError("a hexhex board needs a size of at least 1")
    check_board(f"(hexhex {size})", 3 * size * (size - 1) + 1, 2 * size - 1)
    n = size - 1
    cells = [(i, j) for j in range(-n, n + 1) for i in range(-n, n + 1) if -n <= i + j <= n]
    g = _hex_graph(cells, "hex")
    g.graph["sides"] = _sides_missing(g, {"N": ("NE", "NW"), "S": ("SE", "SW"),
                                          "NE": ("NE", "E"), "SE": ("E", "SE"),
                                          "SW": ("SW", "W"), "NW": ("W", "NW")})
    g.graph["rows"] = 2 * size - 1
    g.graph["columns"] = 2 * size - 1
    return g


@ludeme("hex-triangle")
def hex_triangle(size: int) -> Board:
    """A triangle of hexagonal cells with `size` cells on each side (the Y board), its apex at
    the top: the bottom row has `size` cells, each row above one fewer, shifted half a cell
    right. Sites are named by column letter within the row and row number counted from the
    bottom: the bottom row is a1, b1, ...; the apex is a{size}. Directions E, W, NE, NW, SE,
    SW; sides S (the bottom row), NW (the first cell of each row) and NE (the last); corners
    SW, SE and N (the apex).

    (board (hex-triangle 9))"""
    if size < 1:
        raise ValueError("a triangle needs a size of at least 1")
    check_board(f"(hex-triangle {size})", size * (size + 1) // 2, size)
    cells = [(i, j) for j in range(size) for i in range(size - j)]
    g = _hex_graph(cells, "hex")
    g.graph["sides"] = _sides_missing(g, {"S": ("SE", "SW"), "NW": ("W", "NW"),
                                          "NE": ("E", "NE")})
    g.graph["rows"] = size
    g.graph["columns"] = size
    return g


# Compass points by angle (degrees, counter-clockwise from east), for naming corners.
COMPASS = (("E", 0.0), ("NE", 45.0), ("N", 90.0), ("NW", 135.0), ("W", 180.0),
           ("SW", 225.0), ("S", 270.0), ("SE", 315.0))


def compass_point(dx: float, dy: float) -> str:
    """The compass point nearest to the direction (dx, dy)."""
    angle = math.degrees(math.atan2(dy, dx)) % 360.0
    return min(COMPASS, key=lambda c: min(abs(angle - c[1]), 360.0 - abs(angle - c[1])))[0]


def public_graph(graph: nx.DiGraph) -> nx.Graph:
    """The board as users see it: an undirected networkx graph with one node per site, named by
    the site's name, and one edge per adjacency. Nodes keep `row`, `col`, `x` and `y`; an edge
    keeps `directions` (for each of its two sites, the direction leaving it along the edge) and
    `diagonal` (True for a square board's diagonal neighbours, which touch only at a corner)."""
    g = nx.Graph(board=graph.graph.get("board", "square"))
    for _, data in graph.nodes(data=True):
        g.add_node(data["name"], row=data["row"], col=data["col"], x=data["x"], y=data["y"])
    square = graph.graph.get("board", "square") != "hex"
    for u, v, d in graph.edges(data="direction"):
        a, b = graph.nodes[u]["name"], graph.nodes[v]["name"]
        if g.has_edge(a, b):
            g.edges[a, b]["directions"][a] = d
        else:
            g.add_edge(a, b, directions={a: d}, diagonal=square and len(d) == 2)
    g.graph["sides"] = {k: [graph.nodes[n]["name"] for n in v]
                        for k, v in graph.graph.get("sides", {}).items()}
    return g


@dataclass
class Topology:
    """A board compiled to flat arrays, sites numbered in diagram reading order (top row first,
    left to right). `step[d][s]` is the neighbour of `s` in direction `d` or -1; `rays[d][s]`
    the sites from `s` (excluded) outward in direction `d`."""

    shape: str
    names: tuple[str, ...]
    index: dict[str, int]
    rows: tuple[tuple[int, ...], ...]
    row_of: tuple[int, ...]
    col_of: tuple[int, ...]
    xy: tuple[tuple[float, float], ...]
    directions: tuple[str, ...]
    step: dict[str, tuple[int, ...]]
    rays: dict[str, tuple[tuple[int, ...], ...]]
    sides: dict[str, frozenset[int]]
    graph: nx.DiGraph = field(repr=False)
    # Named tracks the board defines (mancala's "Loop"): the sites in the order pieces go.
    tracks: dict[str, tuple[int, ...]] = field(default_factory=dict)

    @property
    def size(self) -> int:
        return len(self.names)

    @staticmethod
    def from_graph(graph: nx.DiGraph) -> Topology:
        nodes = sorted(graph.nodes, key=lambda n: (graph.nodes[n]["row"], graph.nodes[n]["col"]))
        num = {node: i for i, node in enumerate(nodes)}
        names = tuple(graph.nodes[n]["name"] for n in nodes)
        # The lattice's directions, whether or not a small board has a step in each.
        dirs: list[str] = list(graph.graph.get("directions", ()))
        for _, _, d in graph.edges(data="direction"):
            if d not in dirs:
                dirs.append(d)
        order = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
        dirs.sort(key=lambda d: order.index(d) if d in order else len(order))
        step = {d: [-1] * len(nodes) for d in dirs}
        for u, v, d in graph.edges(data="direction"):
            step[d][num[u]] = num[v]
        rays: dict[str, tuple[tuple[int, ...], ...]] = {}
        for d in dirs:
            per_site = []
            for s in range(len(nodes)):
                ray = []
                t = step[d][s]
                while t != -1:
                    ray.append(t)
                    t = step[d][t]
                per_site.append(tuple(ray))
            rays[d] = tuple(per_site)
        row_of = tuple(graph.nodes[n]["row"] for n in nodes)
        rows: dict[int, list[int]] = {}
        for i, r in enumerate(row_of):
            rows.setdefault(r, []).append(i)
        sides = {k: frozenset(num[n] for n in v) for k, v in graph.graph.get("sides", {}).items()}
        return Topology(
            shape=graph.graph.get("board", "square"),
            names=names,
            index={name: i for i, name in enumerate(names)},
            rows=tuple(tuple(rows[r]) for r in sorted(rows)),
            row_of=row_of,
            col_of=tuple(graph.nodes[n]["col"] for n in nodes),
            xy=tuple((graph.nodes[n]["x"], graph.nodes[n]["y"]) for n in nodes),
            directions=tuple(dirs),
            step={d: tuple(v) for d, v in step.items()},
            rays=rays,
            sides=sides,
            graph=graph,
            tracks={k: tuple(num[n] for n in v)
                    for k, v in graph.graph.get("tracks", {}).items()},
        )

    # Relations -----------------------------------------------------------------------------
    def orthogonal_dirs(self) -> tuple[str, ...]:
        if self.shape == "hex":
            return self.directions
        return tuple(d for d in self.directions if len(d) == 1)

    def diagonal_dirs(self) -> tuple[str, ...]:
        if self.shape == "hex":
            return ()
        return tuple(d for d in self.directions if len(d) == 2)

    def neighbours(self, dirs: tuple[str, ...]) -> tuple[tuple[int, ...], ...]:
        """For each site, its neighbours in the given directions (in that order)."""
        return tuple(
            tuple(self.step[d][s] for d in dirs if self.step[d][s] != -1)
            for s in range(self.size)
        )

    def perimeter(self) -> frozenset[int]:
        """Sites missing a neighbour in some direction of the lattice: those on the edge (on
        a board of points, those on its outline)."""
        if self.shape == "graph":
            return frozenset().union(*self.sides.values())
        dirs = self.orthogonal_dirs() if self.shape == "hex" else self.directions
        adj = self.neighbours(dirs)
        return frozenset(s for s in range(self.size) if len(adj[s]) < len(dirs))

    def centre(self) -> frozenset[int]:
        """The sites nearest the board's centre of mass (on a board symmetric about a point,
        that point; on a triangle, the point equally far from its three sides)."""
        cx = sum(p[0] for p in self.xy) / self.size
        cy = sum(p[1] for p in self.xy) / self.size
        dist = [round((x - cx) ** 2 + (y - cy) ** 2, 6) for x, y in self.xy]
        best = min(dist)
        return frozenset(s for s in range(self.size) if dist[s] == best)

    def corners(self) -> frozenset[int]:
        """Sites on two or more sides."""
        out = set()
        for s in range(self.size):
            if sum(s in side for side in self.sides.values()) >= 2:
                out.add(s)
        return frozenset(out)

    def named_corners(self) -> dict[str, int]:
        """Each corner by the compass point it faces: the sum of the directions in which it has
        no neighbour (a square's a1 is SW; a hexhex board has corners E, NE, NW, W, SW, SE; a
        triangle N, SW, SE), listed from E counter-clockwise. Two corners facing the same way
        (a board one cell wide) share no name: the name is left out. A board of points names
        the corners of its outline itself."""
        given = self.graph.graph.get("corners")
        if given is not None:
            return {name: self.index[self.graph.nodes[node]["name"]]
                    for name, node in given.items()}
        vectors: dict[str, tuple[float, float]] = {}
        for d in self.directions:  # each direction's displacement, measured on the board
            pairs = [(s, t) for s, t in enumerate(self.step[d]) if t != -1]
            if pairs:
                s, t = pairs[0]
                vectors[d] = (self.xy[t][0] - self.xy[s][0], self.xy[t][1] - self.xy[s][1])
        found: dict[str, list[int]] = {}
        for s in sorted(self.corners()):
            missing = [vectors[d] for d in vectors if self.step[d][s] == -1]
            dx, dy = sum(v[0] for v in missing), sum(v[1] for v in missing)
            found.setdefault(compass_point(dx, dy), []).append(s)
        order = [name for name, _ in COMPASS]
        return {k: v[0] for k, v in sorted(found.items(), key=lambda kv: order.index(kv[0]))
                if len(v) == 1}

    def side_without_corners(self, side: str) -> frozenset[int]:
        """A side's sites less the corners (the sites it shares with another side)."""
        return self.sides[side] - self.corners()
