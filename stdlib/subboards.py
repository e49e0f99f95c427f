"""Boards made of boards: a layout of sub-boards, each a small board of its own (Ultimate
Tic-Tac-Toe's nine Tic-Tac-Toe boards in a 3x3 layout).

`(boards LAYOUT BOARD)` builds the whole board: one grid of square cells, named like any square
board (`a1` at the bottom left), cut into sub-boards. The sub-boards are numbered from 1 in
reading order (the top-left first, as the sites are), and so are the cells of each, so that
cell k of a sub-board corresponds to sub-board k of the layout: `(cell-of LastTo)` is "the
sub-board the last move sends the next player to". `(sites Subboard K)` is a sub-board's sites.

A sub-board's result under the rule "N in a row inside it wins it" — won by a role, drawn (full
without such a row), or open — is kept by each position as it changes (a `Tracker`, derived from
the board, so position text needs no key of its own), and read by `(sites Open row:N)` (where one
may still play), `(subboards-won ROLE row:N)` and `(line-of-subboards LEN row:N)` (a row of won
sub-boards on the layout: the meta board).
"""

from __future__ import annotations

from collections.abc import Sequence

import networkx as nx

from dsl.ast import Form, Int, Node, Str
from stdlib.boards import SQUARE_DIRS, Board, rectangle
from stdlib.budget import check_board
from stdlib.logic import describe
from stdlib.lowering import Lower, keywords, lowers, padded
from stdlib.regions import static
from stdlib.registry import ludeme
from stdlib.runtime import EMPTY, Ctx, Env, Tracker
from stdlib.types import Cond, IntExpr, Region, Regions, RoleExpr, SiteExpr

OPEN = -1  # a sub-board's result: neither won nor full
DRAWN = -2  # full without a winning row (or, off the rules, with rows of several roles)
HALF = ("N", "NE", "E", "SE")  # one direction of each line through a square cell


def _grid(board: nx.DiGraph, what: str) -> tuple[int, int]:
    """The columns and rows of a grid of square cells ((square ...), (rectangle ...))."""
    if board.graph.get("board") != "square" or "columns" not in board.graph \
            or board.number_of_nodes() != board.graph["columns"] * board.graph["rows"]:
        raise ValueError(f"boards needs {what} to be a grid of square cells, "
                         "(square N) or (rectangle C R)")
    return board.graph["columns"], board.graph["rows"]


@ludeme("boards")
def boards(layout: Board, board: Board, *, joined: bool = False) -> Board:
    """A board made of boards: a copy of `board` (a grid of square cells) on each cell of
    `layout` (another), side by side, as one grid named like a square board (`a1` bottom
    left). The sub-boards are numbered from 1 in reading order, top-left first, and so are the
    cells within each: cell k of a sub-board corresponds to sub-board k. Each sub-board is a
    board of its own — steps, rows and slides stop at its edge — unless joined:true, which
    makes the whole one grid.

    (board (boards (square 3) (square 3)))"""
    lc, lr = _grid(layout, "the layout")
    bc, br = _grid(board, "each sub-board")
    columns, rows = lc * bc, lr * br
    check_board(f"(boards {lc}x{lr} of {bc}x{br})", columns * rows, max(columns, rows))
    g = rectangle(columns, rows)  # its nodes are (row from the top, column)
    parts: list[list[tuple[int, int]]] = [[] for _ in range(lc * lr)]
    for r, c in sorted(g.nodes):  # in reading order within each sub-board
        parts[(r // br) * lc + c // bc].append((r, c))
    if not joined:
        g.remove_edges_from([(u, v) for u, v in g.edges
                             if (u[0] // br, u[1] // bc) != (v[0] // br, v[1] // bc)])
    g.graph["subboards"] = tuple(tuple(nodes) for nodes in parts)
    g.graph["layout"] = layout
    return g


class Partition:
    """A board's sub-boards, compiled: per site its sub-board and its cell (numbers from 1),
    per sub-board its sites, and the layout's lines (for rows of sub-boards)."""

    def __init__(self, env: Env) -> None:
        topo = env.topology
        graph = topo.graph.graph
        index = {node: topo.index[topo.graph.nodes[node]["name"]] for node in topo.graph}
        parts: tuple[tuple[object, ...], ...] = graph["subboards"]
        self.count = len(parts)
        self.sites: list[tuple[int, ...]] = [()] + [tuple(index[n] for n in nodes)
                                                     for nodes in parts]
        self.board_of = [0] * topo.size
        self.cell_of = [0] * topo.size
        for k, sites in enumerate(self.sites):
            for c, s in enumerate(sites):
                self.board_of[s], self.cell_of[s] = k, c + 1
        layout: nx.DiGraph = graph["layout"]
        lc, lr = layout.graph["columns"], layout.graph["rows"]
        self.layout = (lc, lr)
        # The sub-board k's neighbour in each direction on the layout (0: none).
        self.next: dict[str, list[int]] = {}
        for d in HALF:
            dc, dy = SQUARE_DIRS[d]
            row = [0]
            for k in range(1, self.count + 1):
                r, c = divmod(k - 1, lc)
                r2, c2 = r - dy, c + dc
                row.append(r2 * lc + c2 + 1 if 0 <= r2 < lr and 0 <= c2 < lc else 0)
            self.next[d] = row

    def windows(self, env: Env, length: int) -> list[tuple[tuple[int, ...], ...]]:
        """Per sub-board, every row of `length` cells inside it (along its lines)."""
        step = env.topology.step
        out: list[tuple[tuple[int, ...], ...]] = [()]
        for k in range(1, self.count + 1):
            found = []
            for s in self.sites[k]:
                for d in HALF:
                    row = [s]
                    while len(row) < length:
                        t = step[d][row[-1]]
                        if t == -1 or self.board_of[t] != k:
                            break
                        row.append(t)
                    if len(row) == length:
                        found.append(tuple(row))
            out.append(tuple(found))
        return out

    def rows(self, length: int) -> list[tuple[int, ...]]:
        """Every row of `length` sub-boards on the layout."""
        out = []
        for k in range(1, self.count + 1):
            for d in HALF:
                row = [k]
                while len(row) < length and self.next[d][row[-1]]:
                    row.append(self.next[d][row[-1]])
                if len(row) == length:
                    out.append(tuple(row))
        return out


def partition(env: Env, ludeme: str) -> Partition | None:
    """The board's sub-boards (None, with an error where `ludeme` is written, if the board is
    not made of boards)."""
    found = env.shared.get("subboards")
    if found is None:
        if "subboards" not in env.topology.graph.graph:
            env.error(f"({ludeme} ...) needs a board made of boards: "
                      "(board (boards (square 3) (square 3)))")
            return None
        found = env.shared["subboards"] = Partition(env)
    return found  # type: ignore[no-any-return]


def _number(env: Env, site: SiteExpr, ludeme: str, of_cell: bool) -> IntExpr:
    """A site's sub-board (or, with of_cell, its cell): a number from 1, 0 for no site."""
    found = partition(env, ludeme)
    table = (found.cell_of if of_cell else found.board_of) if found is not None else []

    def number(ctx: Ctx) -> int:
        s = site(ctx)
        return table[s] if s >= 0 else 0
    return number


@ludeme("subboard-of")
def subboard_of(env: Env, site: SiteExpr) -> IntExpr:
    """The number of the sub-board holding a site (from 1, in reading order: top-left first);
    0 for no site (LastTo before any move).

    (= (subboard-of LastTo) 5)"""
    return _number(env, site, "subboard-of", False)


@ludeme("cell-of")
def cell_of(env: Env, site: SiteExpr) -> IntExpr:
    """The number of a site's cell within its sub-board (from 1, in reading order, as the
    sub-boards are numbered on the layout): the sub-board a move on that site sends the next
    player to. 0 for no site (LastTo before any move).

    (sites Subboard (cell-of LastTo))"""
    return _number(env, site, "cell-of", True)


@ludeme("sites Subboard")
def sites_subboard(env: Env, number: IntExpr) -> Region:
    """The sites of the sub-board with that number (see subboard-of); none for a number that
    names no sub-board (0: LastTo before any move).

    (place (sites Subboard (cell-of LastTo)))"""
    found = partition(env, "sites Subboard")
    table = found.sites if found is not None else [()]

    def region(ctx: Ctx) -> Sequence[int]:
        k = number(ctx)
        return table[k] if 0 < k < len(table) else ()
    return region


@ludeme("regions Subboards")
def regions_subboards(env: Env) -> Regions:
    """Every sub-board, each its own region, in the order of their numbers: for rows that must
    stay inside one sub-board on joined sub-boards, (line 3 within:(regions Subboards)).

    (line 3 through:LastTo within:(regions Subboards))"""
    found = partition(env, "regions Subboards")
    return [static(sites) for sites in found.sites[1:]] if found is not None else []


class Results(Tracker):
    """Each sub-board's result under "`length` in a row inside it wins it": the winning
    role, DRAWN or OPEN. Kept by a position as a list indexed by the sub-board's number, whose
    item 0 holds the sites of the open sub-boards once asked for (None until then), and
    updated one sub-board at a time."""

    def __init__(self, env: Env, parts: Partition, length: int) -> None:
        self.parts = parts
        self.windows = parts.windows(env, length)
        # Per site, the rows of its sub-board through it.
        self.through: list[tuple[tuple[int, ...], ...]] = [()] * env.topology.size
        for k in range(1, parts.count + 1):
            for s in parts.sites[k]:
                self.through[s] = tuple(row for row in self.windows[k] if s in row)
        self.owner = env.owner

    def result(self, board: list[int], k: int) -> int:
        owner = self.owner
        winner = OPEN
        for row in self.windows[k]:
            r = owner[board[row[0]]]
            if r >= 0 and all(owner[board[s]] == r for s in row):
                if winner not in (OPEN, r):
                    return DRAWN  # rows of two roles: no position of the rules has that
                winner = r
        if winner != OPEN:
            return winner
        return OPEN if EMPTY in [board[s] for s in self.parts.sites[k]] else DRAWN

    def build(self, board: list[int]) -> list[object]:
        return [None] + [self.result(board, k) for k in range(1, self.parts.count + 1)]

    def update(self, data: list[object], board: list[int], site: int, old: int, new: int
               ) -> list[object]:
        k = self.parts.board_of[site]
        was = data[k]
        if was == OPEN and old == EMPTY:  # a piece put on an open sub-board
            owner = self.owner
            r = owner[new]
            if r >= 0 and any(all(owner[board[s]] == r for s in row)
                              for row in self.through[site]):
                now = r
            elif EMPTY in [board[s] for s in self.parts.sites[k]]:
                return data
            else:
                now = DRAWN
        else:
            now = self.result(board, k)
        if now != was:
            data[k] = now
            data[0] = None
        return data

    def copy(self, data: list[object]) -> list[object]:
        return list(data)

    def open_sites(self, data: list[object]) -> tuple[int, ...]:
        """The sites of the open sub-boards, in order (kept in data[0])."""
        found = data[0]
        if found is None:
            sites = self.parts.sites
            found = data[0] = tuple(sorted(s for k in range(1, len(data)) if data[k] == OPEN
                                           for s in sites[k]))
        return found  # type: ignore[return-value]


class Kept:
    """The sub-boards' results for a context's position: the position's, or worked out from
    the board while a move is tried out."""

    def __init__(self, env: Env, parts: Partition, row: int) -> None:
        self.tracker = Results(env, parts, row)
        self.kept = env.track(self.tracker)

    def results(self, ctx: Ctx) -> list[object]:
        data = self.kept(ctx)
        return data if data is not None else self.tracker.build(ctx.board)

    def open_sites(self, ctx: Ctx) -> tuple[int, ...]:
        return self.tracker.open_sites(self.results(ctx))


def _results(env: Env, ludeme: str, row: int) -> Kept | None:
    """The sub-boards' results when `row` in a row wins one (None, with an error, if the
    board has no sub-boards). One tracker per row length, shared by the ludemes."""
    parts = partition(env, ludeme)
    if parts is None:
        return None
    if row < 1:
        env.error(f"({ludeme} ...) needs row: of at least 1, not {row}")
        return None
    key = f"subboard results {row}"
    shared = env.shared.get(key)
    if shared is None:
        shared = env.shared[key] = Kept(env, parts, row)
    return shared  # type: ignore[no-any-return]


@ludeme("sites Open")
def sites_open(env: Env, *, row: int) -> Region:
    """The sites of the sub-boards still open: those neither won — `row` in a row of one role
    inside the sub-board wins it — nor full (drawn). Where one may still play, in Ultimate
    Tic-Tac-Toe; none when every sub-board is decided.

    (place (intersection (sites Subboard (cell-of LastTo)) (sites Open row:3)))"""
    results = _results(env, "sites Open", row)
    if results is None:
        return lambda ctx: ()
    kept = results

    def region(ctx: Ctx) -> tuple[int, ...]:
        return kept.open_sites(ctx)
    return region


@ludeme("subboards-won")
def subboards_won(env: Env, role: RoleExpr | None = None, *, row: int) -> IntExpr:
    """The number of sub-boards `role` (by default the mover) has won: `row` in a row of its
    pieces inside the sub-board.

    (> (subboards-won Mover row:3) (subboards-won Next row:3))"""
    results = _results(env, "subboards-won", row)

    def number(ctx: Ctx) -> int:
        if results is None:
            return 0
        r = role(ctx) if role is not None else ctx.mover
        return results.results(ctx).count(r)
    return number


@ludeme("line-of-subboards")
def line_of_subboards(env: Env, length: int, *, row: int, role: RoleExpr | None = None,
                      drawn: str = "nobody") -> Cond:
    """True when `role` (by default the mover) has won `length` sub-boards in a row on the
    layout (the meta board), a sub-board being won by `row` in a row of the role's pieces
    inside it. A drawn sub-board counts for nobody, or with drawn:"both" for every role.

    (if (line-of-subboards 3 row:3) (win Mover))"""
    results = _results(env, "line-of-subboards", row)
    if drawn not in ("nobody", "both"):
        env.error(f'drawn: is "nobody" or "both", not "{drawn}"')
    parts = env.shared.get("subboards")
    lines = parts.rows(length) if parts is not None and length >= 1 else []
    both = drawn == "both"

    def test(ctx: Ctx) -> bool:
        if results is None:
            return False
        r = role(ctx) if role is not None else ctx.mover
        found = results.results(ctx)
        for line in lines:
            for k in line:
                got = found[k]
                if got != r and not (both and got == DRAWN):
                    break
            else:
                return True
        return False
    return describe(test, f"{length} sub-boards in a row", f"not {length} sub-boards in a row")


# Kernel lowerings (stdlib/lowering.py) ---------------------------------------------------------
#
# The sub-boards' results are worked out from the board when asked (the interpreter keeps them
# as a Tracker derived from the board, which gives the same values): no state of their own.


def _lowered_parts(k: Lower, node: Form) -> Partition:
    """The board's sub-boards (refused on a board not made of boards)."""
    found = partition(k.env, str(node.head))
    if found is None:
        k.refuse(node, f"no kernel lowering of ({node.head} ...) on this board")
    return found


def _row_length(k: Lower, node: Form, given: dict[str, Node]) -> int:
    """The constant row: of a ludeme over the sub-boards' results."""
    row = given.get("row")
    if not isinstance(row, Int) or row.value < 1:
        k.refuse(node, f"no kernel lowering of ({node.head} ...) with this row:")
    return row.value


def lower_results(k: Lower, node: Form, row: int) -> str:
    """The name of a kernel function `(st, res)` writing each sub-board's result when `row`
    in a row wins it at res[k] (the winner's role, DRAWN or OPEN), as Results.result does;
    res has one item per sub-board and one more (res[0], unused)."""
    parts = _lowered_parts(k, node)
    windows = parts.windows(k.env, row)
    wide = max(1, max(len(w) for w in windows))
    rows = k.table("sub-board rows", [[list(w) for w in per] + [[-1] * row] * (wide - len(per))
                                      for per in windows])
    sites = k.table("sub-board sites", padded(parts.sites))
    return k.function("subboard_results", f"""
def {{name}}(st, res):
    for k in range(1, {parts.count + 1}):
        winner = {OPEN}
        two = False
        for i in range({wide}):
            a = {rows}[k, i, 0]
            if a == -1:
                break
            r = OWNER[st[a]]
            if r < 0:
                continue
            whole = True
            for j in range(1, {row}):
                if OWNER[st[{rows}[k, i, j]]] != r:
                    whole = False
                    break
            if whole:
                if winner != {OPEN} and winner != r:
                    two = True
                    break
                winner = r
        if two:
            res[k] = {DRAWN}
        elif winner != {OPEN}:
            res[k] = winner
        else:
            res[k] = {DRAWN}
            for i in range({len(padded(parts.sites)[0])}):
                s = {sites}[k, i]
                if s == -1:
                    break
                if st[s] == 0:
                    res[k] = {OPEN}
                    break
""")


def _lower_number(k: Lower, node: Form, args: tuple[Node, ...], of_cell: bool) -> str:
    """(subboard-of site), (cell-of site): a number from 1 from a table, 0 for no site."""
    keywords(node, set(), k)
    parts = _lowered_parts(k, node)
    table = k.table("cell of site" if of_cell else "sub-board of site",
                    parts.cell_of if of_cell else parts.board_of)
    site = k.lower(args[0], "Site")
    return k.function("cell_of" if of_cell else "subboard_of", f"""
def {{name}}(st, T, mover, to, frm):
    s = {site}
    return {table}[s] if s >= 0 else 0
""") + "(st, T, mover, to, frm)"


@lowers("subboard-of")
def lower_subboard_of(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(subboard-of site): the site's sub-board's number, from a table."""
    return _lower_number(k, node, args, False)


@lowers("cell-of")
def lower_cell_of(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(cell-of site): the site's cell's number within its sub-board, from a table."""
    return _lower_number(k, node, args, True)


@lowers("sites Subboard")
def lower_sites_subboard(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(sites Subboard number): the sub-board's sites, copied from a table (none for a number
    naming no sub-board)."""
    keywords(node, set(), k)
    parts = _lowered_parts(k, node)
    rows = padded(parts.sites)
    sites = k.table("sub-board sites", rows)
    number = k.lower(args[0], "Int")
    return k.function("sites_subboard", f"""
def {{name}}(st, T, mover, to, frm, buf):
    b = {number}
    c = 0
    if b < 1 or b > {parts.count}:
        return 0
    for i in range({len(rows[0])}):
        s = {sites}[b, i]
        if s == -1:
            break
        buf[c] = s
        c += 1
    return c
""")


@lowers("sites Open")
def lower_sites_open(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(sites Open row:N): the sites of the open sub-boards, in site order."""
    given = keywords(node, {"row"}, k)
    parts = _lowered_parts(k, node)
    results = lower_results(k, node, _row_length(k, node, given))
    board_of = k.table("sub-board of site", parts.board_of)
    return k.function("sites_open", f"""
def {{name}}(st, T, mover, to, frm, buf):
    res = np.empty({parts.count + 1}, np.int64)
    {results}(st, res)
    c = 0
    for s in range(N):
        b = {board_of}[s]
        if b > 0 and res[b] == {OPEN}:
            buf[c] = s
            c += 1
    return c
""")


def _lower_role(k: Lower, role: Node | None) -> str:
    """A role expression's source, the mover's by default."""
    return "mover" if role is None else k.lower(role, "Role")


@lowers("subboards-won")
def lower_subboards_won(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(subboards-won [role] row:N): how many sub-boards the role has won."""
    given = keywords(node, {"row"}, k)
    parts = _lowered_parts(k, node)
    results = lower_results(k, node, _row_length(k, node, given))
    return k.function("subboards_won", f"""
def {{name}}(st, T, mover, to, frm):
    r = {_lower_role(k, args[0] if args else None)}
    res = np.empty({parts.count + 1}, np.int64)
    {results}(st, res)
    c = 0
    for b in range(1, {parts.count + 1}):
        if res[b] == r:
            c += 1
    return c
""") + "(st, T, mover, to, frm)"


@lowers("line-of-subboards")
def lower_line_of_subboards(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(line-of-subboards length row:N [role:] [drawn:]): a row of the layout's sub-boards
    all won by the role (drawn ones too with drawn:"both"), from a table of the rows."""
    given = keywords(node, {"row", "role", "drawn"}, k)
    parts = _lowered_parts(k, node)
    length = args[0]
    drawn = given.get("drawn")
    if not isinstance(length, Int) or drawn is not None and not isinstance(drawn, Str):
        k.refuse(node, "no kernel lowering of (line-of-subboards ...) with computed arguments")
    lines = parts.rows(length.value) if length.value >= 1 else []
    if not lines:
        return "False"
    both = isinstance(drawn, Str) and drawn.value == "both"
    results = lower_results(k, node, _row_length(k, node, given))
    table = k.table("rows of sub-boards", [list(line) for line in lines])
    counts = f"(got != r and not ({both} and got == {DRAWN}))"
    return k.function("line_of_subboards", f"""
def {{name}}(st, T, mover, to, frm):
    r = {_lower_role(k, given.get("role"))}
    res = np.empty({parts.count + 1}, np.int64)
    {results}(st, res)
    for i in range({len(lines)}):
        whole = True
        for j in range({length.value}):
            got = res[{table}[i, j]]
            if {counts}:
                whole = False
                break
        if whole:
            return True
    return False
""") + "(st, T, mover, to, frm)"
