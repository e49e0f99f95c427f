"""Boards whose sites are the lines of a grid: Dots and Boxes and its relatives.

A grid of `columns` x `rows` boxes has (columns + 1) x (rows + 1) dots, named like chess squares
(a1 the bottom-left dot). A site is the line between two neighbouring dots, named by the two
dots, left or lower one first: `a1b1` is the bottom line of the bottom-left box, `a1a2` its left
side. Each box is a cell of the board: the four lines around it (see closed-cells).
"""

from __future__ import annotations

import networkx as nx

from dsl.ast import Form, Node
from stdlib.boards import Board, column_letters
from stdlib.budget import check_board
from stdlib.lowering import Lower, keywords, lowers
from stdlib.registry import ludeme
from stdlib.runtime import Ctx, Env
from stdlib.types import IntExpr, SiteExpr


def dot(column: int, row: int) -> str:
    """The name of a dot (both from 0 at the bottom-left)."""
    return f"{column_letters(column)}{row + 1}"


@ludeme("grid-lines")
def grid_lines(columns: int, rows: int) -> Board:
    """The lines of a grid of `columns` x `rows` boxes, as sites: each line joins two
    neighbouring dots and is named by them, left or lower dot first (`a1b1` across, `a1a2` up).
    Position text writes the lines where they lie: a row of lines across, then a row of lines
    up, and so on from the top. The boxes are the board's cells (see closed-cells). No two
    lines are neighbours: pieces on this board do not move.

    (board (grid-lines 3 3))"""
    if columns < 1 or rows < 1:
        raise ValueError("a grid of lines needs at least one box")
    sites = (columns * (rows + 1)) + ((columns + 1) * rows)
    check_board(f"(grid-lines {columns} {rows})", sites, 2 * max(columns, rows) + 1)
    g = nx.DiGraph(board="graph", directions=())
    top = 2 * rows  # rows of text: lines across at even y (in half units), up at odd
    # Half units: a dot (i, j) is at (2i, 2j); a line at the midpoint of its two dots.
    for y2 in range(2 * rows + 1):
        across = y2 % 2 == 0
        j = y2 // 2
        ends = range(columns) if across else range(columns + 1)
        for c, i in enumerate(ends):
            a = dot(i, j)
            b = dot(i + 1, j) if across else dot(i, j + 1)
            x2 = 2 * i + 1 if across else 2 * i
            g.add_node(a + b, name=a + b, row=top - y2, col=c, x=x2 / 2, y=y2 / 2)
    g.graph["cells"] = [
        (dot(i, j) + dot(i + 1, j), dot(i, j + 1) + dot(i + 1, j + 1),
         dot(i, j) + dot(i, j + 1), dot(i + 1, j) + dot(i + 1, j + 1))
        for j in range(rows) for i in range(columns)]
    g.graph["sides"] = {}
    g.graph["columns"] = columns
    g.graph["rows"] = rows
    return g


@ludeme("closed-cells")
def closed_cells(env: Env, site: SiteExpr) -> IntExpr:
    """How many of the board's cells around the site have every one of their sites occupied
    (on a grid of lines: the boxes a line just drawn completes, 0, 1 or 2).

    (move-again (> (closed-cells To) 0))"""
    topo = env.topology
    cells = topo.graph.graph.get("cells")
    if cells is None:
        env.error("(closed-cells ...) needs a board with cells, such as (grid-lines ...)")
        cells = []
    around: list[list[tuple[int, ...]]] = [[] for _ in range(topo.size)]
    for cell in cells:
        members = tuple(topo.index[name] for name in cell)
        for s in members:
            around[s].append(members)

    def count(ctx: Ctx) -> int:
        s = site(ctx)
        if s < 0:
            return 0
        board = ctx.board
        return sum(1 for cell in around[s] if all(board[t] for t in cell))
    return count


# Kernel lowerings (stdlib/lowering.py) ---------------------------------------------------------

@lowers("closed-cells")
def lower_closed_cells(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(closed-cells site): how many cells around the site have every site occupied, over a
    table of each site's cells (their sites, -1 past a cell's last)."""
    keywords(node, set(), k)
    topo = k.env.topology
    cells = [tuple(topo.index[name] for name in cell)
             for cell in topo.graph.graph.get("cells") or []]
    around: list[list[tuple[int, ...]]] = [[] for _ in range(topo.size)]
    for cell in cells:
        for s in cell:
            around[s].append(cell)
    most = max((len(a) for a in around), default=0) or 1
    width = max((len(c) for c in cells), default=0) or 1
    table = k.table("cells around", [[list(c) + [-1] * (width - len(c)) for c in a]
                                     + [[-1] * width] * (most - len(a)) for a in around])
    counts = k.table("cells around count", [len(a) for a in around])
    site = k.lower(args[0], "Site")
    return k.function("closed_cells", f"""
def {{name}}(st, T, mover, to, frm):
    s = {site}
    if s < 0:
        return 0
    c = 0
    for j in range({counts}[s]):
        closed = True
        for m in range({width}):
            t = {table}[s, j, m]
            if t == -1:
                break
            if st[t] == 0:
                closed = False
                break
        if closed:
            c += 1
    return c
""") + "(st, T, mover, to, frm)"
