"""Edges as state: declared pairs of sites that hold pieces of their own — TwixT's links
between pegs a knight's move apart, walls between the cells of a square board.

A board declares a set of edges by name, `(with-edges (square 24) "Link" leap:{1 2})`: the
pairs of sites a leap apart (or the board's adjacencies in some directions, `by:Orthogonal`).
Each edge of a position is empty or held by a role. Ludemes read and change them:

- `(link-all "Link")`, a step of a turn: after a placement, every edge from the placed
  piece to a friendly piece is taken by the mover, unless an edge already held crosses it;
- `(connected Mover via:"Link")`: a chain of the role's pieces joined by its edges;
- `(edge-held "Wall" From To)`: is the edge between two sites held (a wall that a step may
  not cross: `(step Orthogonal unless:(edge-held "Wall" From To))`).

Two edges cross when their segments, drawn between the sites' centres, share a point other
than a common end: crossing proper, an end in the other's middle, or overlapping along a
line. The state is one tuple of values per position (0: empty, role + 1: held by the role),
changed through `Turn.set_edge` and undone with the move; it is hashed with the board, written
in position text as `links Red: d5-e7 e7-g8` (the set's name in lower case with an "s"), seen as
observation planes, and drawn in pictures. A game whose board declares no edges pays nothing.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

import networkx as nx

from dsl.ast import Bool, Form, Node, Str
from stdlib.boards import Board
from stdlib.connectivity import any_chain
from stdlib.lowering import Effect as Lowered
from stdlib.lowering import Lower, keywords, lowers
from stdlib.parts import mark
from stdlib.registry import ludeme
from stdlib.runtime import Ctx, Env
from stdlib.statefields import Keys, StateField, declare
from stdlib.steps import Action, Step, Turn
from stdlib.types import Cond, Direction, Effect, RoleExpr, SiteExpr

ATTRIBUTE = "edge sets"  # the board graph's attribute declaring them: [(name, how), ...]
# The board graph's attributes naming sets that position text does not write edge by edge
# (another ludeme's field writes them: walls, stdlib/walls.py), and sets drawn across the gap
# between their sites (a wall between two cells) rather than as a line joining them.
HIDDEN = "edge sets written by others"
ACROSS = "edge sets drawn across"
Pair = tuple[int, int]


@ludeme("with-edges")
def with_edges(board: Board, name: str, *, leap: list[int] | None = None,
               by: Direction = "") -> Board:
    """The board, with a named set of edges that can hold pieces: the pairs of sites a leap
    apart (leap:{1 2}, a knight's move: columns and rows, either way round, either sign), or
    the board's adjacencies in the directions by: names (Orthogonal, Diagonal, Adjacent, or
    one direction). Nest it to declare several sets.

    (board (with-edges (square 8) "Link" leap:{1 2}))"""
    if (leap is None) == (not by):
        raise ValueError(f'(with-edges ... "{name}"): give the pairs as leap:{{a b}} or '
                         "as by:Directions, one of the two")
    if leap is not None and (len(leap) != 2 or not any(leap)):
        raise ValueError(f'(with-edges ... "{name}" leap:...): a leap is two numbers, '
                         "columns and rows, not both 0")
    graph: nx.DiGraph = board
    declared = list(graph.graph.get(ATTRIBUTE, ()))
    if any(known == name for known, _ in declared):
        raise ValueError(f'the edges "{name}" are declared twice')
    declared.append((name, tuple(leap) if leap is not None else by))
    graph.graph[ATTRIBUTE] = declared
    return graph


# The sets, compiled once ---------------------------------------------------------------------


@dataclass
class EdgeSet:
    """One named set of edges: its pairs (each as (lower site, higher site)), numbered from
    `first` in the position's tuple of edge values."""

    name: str
    first: int
    pairs: list[Pair]
    # Per site: (edge, the site at its other end) for each edge of the set at the site.
    incident: list[list[tuple[int, int]]]
    between: dict[Pair, int]  # (a, b), either order -> edge
    crossing: list[tuple[int, ...]]  # per edge of the set (by number - first): those crossing it
    # Per edge: the index of its direction among the set's (an observation plane each).
    slot: list[int]
    slots: int
    hidden: bool = False  # written in position text by another field (see HIDDEN)
    across: bool = False  # drawn across the gap between its sites (see ACROSS)

    @property
    def word(self) -> str:
        """How position text names the set: "Link" -> "links"."""
        return self.name.lower() + "s"

    def edge(self, a: int, b: int) -> int | None:
        return self.between.get((a, b))


class Edges:
    """Every edge set a board declares, numbered together, with the hash keys of their
    values (the engine reads `blank`, `key` and `hash`)."""

    def __init__(self, sets: list[EdgeSet], roles: int) -> None:
        self.sets = {s.name: s for s in sets}
        self.count = sum(len(s.pairs) for s in sets)
        self.blank: tuple[int, ...] = (0,) * self.count
        rng = random.Random(0x65646765)  # fixed: hashes are the same in every process
        self._keys = [[0] + [rng.getrandbits(64) for _ in range(roles)]
                      for _ in range(self.count)]

    def key(self, edge: int, value: int) -> int:
        """The hash key of `edge` holding `value` (0 when empty)."""
        return self._keys[edge][value]

    def hash(self, values: Sequence[int]) -> int:
        h = 0
        for e, v in enumerate(values):
            if v:
                h ^= self._keys[e][v]
        return h


def edge_sets(env: Env) -> Edges:
    """The board's edge sets, compiled on first use (and then declared as position state)."""
    known = env.shared.get("edges")
    if known is not None:
        return known  # type: ignore[no-any-return]
    topo = env.topology
    sets: list[EdgeSet] = []
    first = 0
    for name, how in topo.graph.graph.get(ATTRIBUTE, ()):
        pairs = _leap_pairs(topo.xy, how) if isinstance(how, tuple) else \
            _step_pairs(env, how)
        made = _edge_set(name, first, sorted(pairs), topo.xy, topo.size)
        made.hidden = name in topo.graph.graph.get(HIDDEN, ())
        made.across = name in topo.graph.graph.get(ACROSS, ())
        sets.append(made)
        first += len(pairs)
    edges = Edges(sets, len(env.roles))
    env.shared["edges"] = edges
    if edges.count:
        env.uses_actions = True
        declare(env, EdgeField(edges, topo.names))
    return edges


def edge_set(env: Env, name: str, who: str) -> EdgeSet | None:
    """The set named `name`, or None with an error naming the ludeme `who` that asked."""
    found = edge_sets(env).sets.get(name)
    if found is None:
        known = ", ".join(f'"{n}"' for n in edge_sets(env).sets) or "none"
        env.error(f'{who}: the board declares no edges "{name}" (declared: {known}; declare '
                  f'them with (board (with-edges ... "{name}" leap:{{1 2}})))')
    return found


def _leap_pairs(xy: Sequence[tuple[float, float]], leap: tuple[int, ...]) -> set[Pair]:
    at = {(round(x), round(y)): s for s, (x, y) in enumerate(xy)}
    a, b = leap
    offsets = {(sa * a, sb * b) for sa in (1, -1) for sb in (1, -1)}
    offsets |= {(dy, dx) for dx, dy in offsets}
    out = set()
    for (x, y), s in at.items():
        for dx, dy in offsets:
            t = at.get((x + dx, y + dy))
            if t is not None:
                out.add((min(s, t), max(s, t)))
    return out


def _step_pairs(env: Env, by: str) -> set[Pair]:
    topo = env.topology
    dirs = topo.directions if by == "Adjacent" else topo.orthogonal_dirs() \
        if by == "Orthogonal" else topo.diagonal_dirs() if by == "Diagonal" else \
        (by,) if by in topo.directions else None
    if dirs is None:
        env.error(f"(with-edges ... by:{by}): this board has no direction {by} (Adjacent, "
                  f"Orthogonal, Diagonal or one of {', '.join(topo.directions)})")
        return set()
    return {(min(s, t), max(s, t)) for d in dirs for s, t in enumerate(topo.step[d])
            if t >= 0}


def _edge_set(name: str, first: int, pairs: list[Pair], xy: Sequence[tuple[float, float]],
              size: int) -> EdgeSet:
    incident: list[list[tuple[int, int]]] = [[] for _ in range(size)]
    between: dict[Pair, int] = {}
    directions: dict[tuple[float, float], int] = {}
    slot = []
    for i, (a, b) in enumerate(pairs):
        e = first + i
        incident[a].append((e, b))
        incident[b].append((e, a))
        between[(a, b)] = between[(b, a)] = e
        dx, dy = xy[b][0] - xy[a][0], xy[b][1] - xy[a][1]
        if dx < 0 or (dx == 0 and dy < 0):
            dx, dy = -dx, -dy
        slot.append(directions.setdefault((round(dx, 6), round(dy, 6)), len(directions)))
    return EdgeSet(name, first, pairs, incident, between, _crossings(pairs, xy, first), slot,
                   len(directions))


def _crossings(pairs: list[Pair], xy: Sequence[tuple[float, float]], first: int
               ) -> list[tuple[int, ...]]:
    """For each edge, the edges whose segments share a point with its own other than a
    common end. Only edges whose bounding boxes meet one grid cell are compared."""
    buckets: dict[tuple[int, int], list[int]] = {}
    boxes = []
    for i, (a, b) in enumerate(pairs):
        (x1, y1), (x2, y2) = xy[a], xy[b]
        box = (int(min(x1, x2) // 1), int(max(x1, x2) // 1), int(min(y1, y2) // 1),
               int(max(y1, y2) // 1))
        boxes.append(box)
        for cx in range(box[0], box[1] + 1):
            for cy in range(box[2], box[3] + 1):
                buckets.setdefault((cx, cy), []).append(i)
    out: list[set[int]] = [set() for _ in pairs]
    for members in buckets.values():
        for k, i in enumerate(members):
            for j in members[k + 1:]:
                if j not in out[i] and _cross(pairs[i], pairs[j], xy):
                    out[i].add(j)
                    out[j].add(i)
    return [tuple(sorted(first + j for j in found)) for found in out]


def _cross(p: Pair, q: Pair, xy: Sequence[tuple[float, float]]) -> bool:
    """Do the segments of two pairs share a point other than an end they have in common?"""
    shared = set(p) & set(q)
    a, b = xy[p[0]], xy[p[1]]
    c, d = xy[q[0]], xy[q[1]]

    def orient(o: tuple[float, float], u: tuple[float, float], v: tuple[float, float]) -> int:
        z = (u[0] - o[0]) * (v[1] - o[1]) - (u[1] - o[1]) * (v[0] - o[0])
        return 0 if abs(z) < 1e-9 else 1 if z > 0 else -1

    o1, o2, o3, o4 = orient(a, b, c), orient(a, b, d), orient(c, d, a), orient(c, d, b)
    if o1 == o2 == o3 == o4 == 0:  # on one line: do they overlap beyond a point?
        axis = 0 if abs(b[0] - a[0]) > abs(b[1] - a[1]) else 1
        lo = max(min(a[axis], b[axis]), min(c[axis], d[axis]))
        hi = min(max(a[axis], b[axis]), max(c[axis], d[axis]))
        return hi - lo > 1e-9
    if shared:  # a common end, not on one line: they meet only there
        return False
    if o1 * o2 < 0 and o3 * o4 < 0:
        return True

    def on(o: tuple[float, float], u: tuple[float, float], v: tuple[float, float]) -> bool:
        return min(o[0], u[0]) - 1e-9 <= v[0] <= max(o[0], u[0]) + 1e-9 and \
            min(o[1], u[1]) - 1e-9 <= v[1] <= max(o[1], u[1]) + 1e-9
    # An end of one in the other's middle.
    return (o1 == 0 and on(a, b, c)) or (o2 == 0 and on(a, b, d)) or \
        (o3 == 0 and on(c, d, a)) or (o4 == 0 and on(c, d, b))


# The edges as state ------------------------------------------------------------------------------


def values_of(ctx: Ctx, edges: Edges) -> Sequence[int]:
    """The edge values of the position a context judges (none held without a position)."""
    state = ctx.state
    return state.edges if state is not None else edges.blank  # type: ignore[no-any-return]


class EdgeField(StateField):
    """The edges each role holds, per set: `links Red: d5-e7 e7-g8` (left out when none)."""

    order = 25

    def __init__(self, edges: Edges, names: tuple[str, ...]) -> None:
        self.edges = edges
        self.names = names
        self.index = {name: s for s, name in enumerate(names)}

    def keys(self, roles: tuple[str, ...]) -> list[str]:
        return [f"{s.word} {role}" for s in self.written() for role in roles]

    def written(self) -> list[EdgeSet]:
        """The sets this field writes (not those another field writes, see HIDDEN)."""
        return [s for s in self.edges.sets.values() if not s.hidden]

    def render(self, state: Any) -> list[str]:
        lines = []
        values, names = state.edges, self.names
        for s in self.written():
            for r, role in enumerate(state.game.players):
                held = [f"{names[a]}-{names[b]}" for i, (a, b) in enumerate(s.pairs)
                        if values[s.first + i] == r + 1]
                if held:
                    lines.append(f"{s.word} {role}: {' '.join(held)}")
        return lines

    def parse(self, state: Any, keys: Keys) -> None:
        values = list(state.edges)
        for s in self.written():
            for r, role in enumerate(state.game.players):
                found = keys.take(f"{s.word} {role}")
                if found is None:
                    continue
                line, text = found
                for word in text.replace(",", " ").split():
                    a, dash, b = word.partition("-")
                    e = s.edge(self.index.get(a, -1), self.index.get(b, -1)) if dash else None
                    if e is None:
                        raise keys.error(line, f"{s.word} {role}: {word!r} is not two sites "
                                               f"of one of the {s.name} edges, e.g. "
                                               f"{self._example(s)}")
                    values[e] = r + 1
        state.edges = tuple(values)

    def _example(self, s: EdgeSet) -> str:
        a, b = s.pairs[0] if s.pairs else (0, 0)
        return f"{self.names[a]}-{self.names[b]}"

    def planes(self, roles: tuple[str, ...]) -> list[tuple[str, float, float]]:
        return [(f"{s.name} {role} {k}", 0.0, 1.0) for s in self.edges.sets.values()
                for role in roles for k in range(s.slots)]

    def observe(self, state: Any) -> list[float | dict[int, float]]:
        """Per set, role and direction: 1 on the lower-numbered end of each edge held."""
        out: list[float | dict[int, float]] = []
        values = state.edges
        for s in self.edges.sets.values():
            for r in range(len(state.game.players)):
                planes: list[dict[int, float]] = [{} for _ in range(s.slots)]
                for i, (a, _) in enumerate(s.pairs):
                    if values[s.first + i] == r + 1:
                        planes[s.slot[i]][a] = 1.0
                out.extend(planes)
        return out


class SetEdge(Action):
    """An edge takes a value (0: emptied; role + 1: held by the role)."""

    __slots__ = ("edge", "value")

    def __init__(self, edge: int, value: int) -> None:
        self.edge = edge
        self.value = value

    def apply(self, turn: Turn) -> None:
        turn.set_edge(self.edge, self.value)


# Ludemes -----------------------------------------------------------------------------------------


class LinkAll(Step):
    """See `link_all`."""

    def __init__(self, edges: EdgeSet, if_: Cond | None, crossing: bool) -> None:
        self.edges = edges
        self.if_ = if_
        self.crossing = crossing

    def run(self, ctx: Ctx, turn: Turn) -> None:
        s = ctx.to
        state = ctx.state
        if s < 0 or state is None:
            return
        mover, board, owner = ctx.mover, ctx.board, ctx.owner
        crossing = self.edges.crossing
        first = self.edges.first
        condition = self.if_
        for e, t in self.edges.incident[s]:
            values = state.edges
            if values[e]:
                continue
            if condition is None:
                if owner[board[t]] != mover:
                    continue
            else:
                saved = ctx.frm, ctx.to
                ctx.frm, ctx.to = s, t
                try:
                    allowed = condition(ctx)
                finally:
                    ctx.frm, ctx.to = saved
                if not allowed:
                    continue
            if not self.crossing and any(values[c] for c in crossing[e - first]):
                continue
            turn.set_edge(e, mover + 1)


@ludeme("link-all")
def link_all(env: Env, name: str, *, if_: Cond | None = None,
             crossing: bool = False) -> Effect:
    """A step of a turn: every empty edge of the set `name` from the site the decision put a
    piece on (From, while judging) to a site holding a piece of the mover (or, with if:, a
    site To where the condition holds) is taken by the mover — unless an edge already held,
    by anyone, crosses it (with crossing:true, even then). Edges taken by this step are held
    when the next is judged, so two new edges never cross.

    (play (place (sites Empty)) (link-all "Link"))"""
    found = edge_set(env, name, "(link-all ...)")
    if found is None:
        found = EdgeSet(name, 0, [], [[] for _ in range(env.topology.size)], {}, [], [], 0)
    return LinkAll(found, if_, crossing)  # type: ignore[return-value]


@ludeme("edge-held")
def edge_held(env: Env, name: str, a: SiteExpr, b: SiteExpr, *,
              by: RoleExpr | None = None) -> Cond:
    """True when the two sites are the ends of an edge of the set `name` that is held (by
    the role `by:`, or by anyone): a wall between two cells, a link between two pegs. False
    when the sites are not the ends of an edge of the set.

    (step Orthogonal unless:(edge-held "Bridge" From To))"""
    found = edge_set(env, name, "(edge-held ...)")
    between = found.between if found is not None else {}
    edges = edge_sets(env)

    def test(ctx: Ctx) -> bool:
        e = between.get((a(ctx), b(ctx)))
        if e is None:
            return False
        value = values_of(ctx, edges)[e]
        return value != 0 if by is None else value == by(ctx) + 1
    mark(test).why = f"a {name} in the way"
    return test


def connected_via(env: Env, name: str, role: RoleExpr, is_mover: bool,
                  starts: Sequence[Sequence[int]], masks: Sequence[Sequence[int]],
                  needed: Sequence[int]) -> Cond:
    """`(connected ROLE via:NAME)`'s test: a chain of the role's pieces, each joined to the
    next by an edge of the set `name` the role holds, touches enough of its regions."""
    found = edge_set(env, name, "(connected ... via:)")
    incident = found.incident if found is not None else [[] for _ in range(env.topology.size)]
    edges = edge_sets(env)

    def test(ctx: Ctx) -> bool:
        r = ctx.mover if is_mover else role(ctx)
        if not needed[r]:
            return False
        board, owner = ctx.board, ctx.owner
        values = values_of(ctx, edges)
        joined = cast(Sequence[Sequence[int]], _Joined(incident, values, r + 1))
        return any_chain(starts[r], joined, masks[r], needed[r],
                         lambda s: owner[board[s]] == r)
    return test


class _Joined:
    """The sites joined to each site by the edges a role holds (worked out when asked)."""

    __slots__ = ("incident", "values", "value")

    def __init__(self, incident: list[list[tuple[int, int]]], values: Sequence[int],
                 value: int) -> None:
        self.incident = incident
        self.values = values
        self.value = value

    def __getitem__(self, s: int) -> list[int]:
        values, value = self.values, self.value
        return [t for e, t in self.incident[s] if values[e] == value]


def edges_of(env: Env) -> Callable[[Any], list[tuple[int, int, int, bool]]] | None:
    """For pictures: a function giving a position's held edges as (site, site, value,
    whether the edge is drawn across the gap between the sites: a wall)."""
    edges = env.shared.get("edges")
    if not isinstance(edges, Edges) or not edges.count:
        return None
    drawn = [(s.first + i, a, b, s.across) for s in edges.sets.values() if not s.hidden
             or s.across for i, (a, b) in enumerate(s.pairs)]

    def held(state: Any) -> list[tuple[int, int, int, bool]]:
        values = state.edges
        return [(a, b, values[e], across) for e, a, b, across in drawn if values[e]]
    return held


# Kernel lowerings (stdlib/lowering.py) ------------------------------------------------------------
# A kernel keeps each edge's value at st[EDGES + e] (interpreter/kernel/layout.py), numbered as
# State.edges, and changes them through the driver's set_edge(st, e, v), which keeps the hash.


def lowered_set(k: Lower, node: Form, name_node: Node) -> EdgeSet:
    """The edge set a lowered form names (a literal name), or refuse."""
    if not isinstance(name_node, Str):
        k.refuse(node, f"no kernel lowering of ({node.head} ...) with a computed set name")
    found = edge_sets(k.env).sets.get(name_node.value)
    if found is None:
        k.refuse(node, f'the board declares no edges "{name_node.value}"')
    return found


def incidence_tables(k: Lower, edges: EdgeSet) -> tuple[str, str, int]:
    """Per site, the set's edges there and the sites at their other ends, in the order of
    EdgeSet.incident (rows ended by -1), and the widest row's length."""
    width = max((len(row) for row in edges.incident), default=0) + 1
    numbers = [[e for e, _ in row] + [-1] * (width - len(row)) for row in edges.incident]
    others = [[t for _, t in row] + [-1] * (width - len(row)) for row in edges.incident]
    return (k.table(f"{edges.name} edges at", numbers), k.table(f"{edges.name} ends", others),
            width)


@lowers("edge-held")
def lower_edge_held(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(edge-held name a b [by:]): the edge between the two sites, looked up among a's
    edges, is held (by the role by:, or by anyone); False where there is none."""
    given = keywords(node, {"by"}, k)
    edges = lowered_set(k, node, args[0])
    numbers, others, width = incidence_tables(k, edges)
    a, b = k.lower(args[1], "Site"), k.lower(args[2], "Site")
    held = "v != 0" if "by" not in given else f"v == ({k.lower(given['by'], 'Role')}) + 1"
    return k.function("edge_held", f"""
def {{name}}(st, T, mover, to, frm):
    a = {a}
    b = {b}
    if a < 0 or b < 0:
        return False
    for j in range({width}):
        e = {numbers}[a, j]
        if e < 0:
            return False
        if {others}[a, j] == b:
            v = st[EDGES + e]
            return {held}
    return False
""") + "(st, T, mover, to, frm)"


@lowers("link-all")
def lower_link_all(k: Lower, node: Form, args: tuple[Node, ...]) -> Lowered:
    """(link-all name [if:] [crossing:]): a step: from the decision's site To, each empty
    edge of the set, in the order of LinkAll.run, to a friendly piece (with if:, to a site
    where the condition holds, judged with From the decision's site and To the other end)
    is taken by the mover, unless a held edge crosses it (a table of the crossing pairs)."""
    given = keywords(node, {"if", "crossing"}, k)
    edges = lowered_set(k, node, args[0])
    numbers, others, width = incidence_tables(k, edges)
    crossing = given.get("crossing")
    if crossing is not None and not isinstance(crossing, Bool):
        k.refuse(node, "no kernel lowering of (link-all) with a computed crossing:")
    if "if" in given:
        condition = k.function("link_allowed", f"""
def {{name}}(st, T, mover, to, frm):
    return {k.lower(given["if"], "Boolean")}
""")
        allowed = f"{condition}(st, T, mover, t, s)"
    else:
        allowed = "OWNER[st[t]] == mover"
    crosses = "False"
    if not (isinstance(crossing, Bool) and crossing.value):
        across = k.table(f"{edges.name} crossings",
                         [list(c) + [-1] for c in padded_rows(edges.crossing)])
        crosses = k.function("crossed", f"""
def {{name}}(st, e):
    for j in range({across}.shape[1]):
        c = {across}[e - {edges.first}, j]
        if c < 0:
            return False
        if st[EDGES + c] != 0:
            return True
    return False
""") + "(st, e)"
    return Lowered(k.function("link_all", f"""
def {{name}}(st, T, mover, to, frm):
    s = to
    if s < 0:
        return
    for j in range({width}):
        e = {numbers}[s, j]
        if e < 0:
            return
        if st[EDGES + e] != 0:
            continue
        t = {others}[s, j]
        if not ({allowed}):
            continue
        if {crosses}:
            continue
        set_edge(st, e, mover + 1)
"""))


def padded_rows(rows: Sequence[Sequence[int]]) -> list[list[int]]:
    """Rows of numbers filled out by -1 to one width (at least one row, one column)."""
    width = max((len(r) for r in rows), default=0)
    return [list(r) + [-1] * (width - len(r)) for r in rows] or [[]]


def lower_connected_via(k: Lower, node: Form, name_node: Node, role: str,
                        masks: Sequence[Sequence[int]], needed: Sequence[int],
                        starts: Sequence[Sequence[int]]) -> str:
    """(connected role via:name): as connected_via, a search from each start site the role
    holds over the edges of the set it holds, the regions each chain touches as a bit mask
    (connection_goals' tables); true when one chain touches enough of them."""
    edges = lowered_set(k, node, name_node)
    numbers, others, width = incidence_tables(k, edges)
    mask = k.table("region masks", [list(m) for m in masks])
    need = k.table("regions needed", list(needed))
    first = k.table("chain starts", padded_rows([[*s, -1] for s in starts]))
    return k.function("connected_via", f"""
def {{name}}(st, T, mover, to, frm):
    r = {role}
    if {need}[r] == 0:
        return False
    seen = np.zeros(N, np.uint8)
    stack = np.empty(N, np.int32)
    for i in range({first}.shape[1]):
        start = {first}[r, i]
        if start < 0:
            break
        if seen[start] == 1 or OWNER[st[start]] != r:
            continue
        seen[start] = 1
        stack[0] = start
        top = 1
        touched = 0
        while top > 0:
            top -= 1
            s = stack[top]
            touched |= {mask}[r, s]
            for j in range({width}):
                e = {numbers}[s, j]
                if e < 0:
                    break
                t = {others}[s, j]
                if st[EDGES + e] == r + 1 and seen[t] == 0 and OWNER[st[t]] == r:
                    seen[t] = 1
                    stack[top] = t
                    top += 1
        c = 0
        while touched:
            touched &= touched - 1
            c += 1
        if c >= {need}[r]:
            return True
    return False
""") + "(st, T, mover, to, frm)"
