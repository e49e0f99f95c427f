"""Walls: pieces put on the edges between the cells of a square board, which movement may not
cross — Quoridor's fences, Blockade's walls, the walls of a maze.

A board declares its walls, `(with-walls (square 9) "Wall" length:2 supply:10)`: a wall lies
along the grid line between two rows (or two columns) and covers `length` cell-edges in a
row; two walls may not overlap (share a cell-edge) or cross (meet at a point inside both),
and each role has `supply` of them. The walls are state on the board's edges
(stdlib/edges.py): each cell-edge a wall covers is held by the wall's owner, so that
`(edge-held "Wall" From To)` and the `walls:` option of `step`, `slide` and `hop` see them,
and each wall placed is remembered by its place, so that crossings can be told from walls
that only touch. Ludemes:

- `(place-wall "Wall" if:COND)`: the mover puts one of its walls wherever one fits (a move
  of the kind `wall`, written `e3h` or `e3v`, see below);
- `(walls-left ROLE)`: how many walls the role has not placed yet.

Notation. A wall is named by the cell at its south-west end and its way: `e3h` lies along
the north side of e3 and of the next `length - 1` cells east of it (between rows 3 and 4),
`e3v` along the east side of e3 and of the next cells north of it (between columns e and f).
For two-cell walls this is OpenSpiel's and Glendenning's notation: the wall's middle is the
north-east corner of the cell named. Position text lists each role's walls, `walls White:
e3h f5v`; pictures draw them across the cells' gap.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import networkx as nx

from dsl.ast import Bool, Const, Form, Int, Node, Str
from dsl.errors import GameError
from stdlib.boards import Board, column_letters
from stdlib.edges import ACROSS, ATTRIBUTE, HIDDEN, EdgeSet, edge_set, edge_sets, values_of
from stdlib.lowering import Generator, Lower, keywords, lowers
from stdlib.movekinds import (
    Block,
    Key,
    MoveKind,
    NotationError,
    Refused,
    SiteOf,
    Sites,
    Syntax,
    register,
)
from stdlib.parts import mark, parts_of
from stdlib.registry import ludeme
from stdlib.runtime import Ctx, Env, Move
from stdlib.statefields import Keys, StateField, declare
from stdlib.steps import Action, Turn
from stdlib.types import Cond, IntExpr, Moves, RoleExpr

WALLS = "walls"  # the board graph's attribute: [(name, length, supply), ...]
PLACED = " placed"  # the hidden edge set of the walls placed: the name and this


@ludeme("with-walls")
def with_walls(board: Board, name: str, *, length: int = 1, supply: int = 0) -> Board:
    """The square board, with walls named `name` that may be put between its cells: each
    covers `length` cell-edges in a straight line, none may overlap or cross another, and
    each role has `supply` of them (0: as many as fit). A wall blocks the moves of step,
    slide and hop given walls:NAME, and (edge-held NAME From To).

    (board (with-walls (square 9) "Wall" length:2 supply:10))"""
    if length < 1:
        raise ValueError(f'(with-walls ... "{name}" length:{length}): a wall covers at least '
                         "one cell-edge")
    if supply < 0:
        raise ValueError(f'(with-walls ... "{name}" supply:{supply}): 0 or more walls')
    graph: nx.DiGraph = board
    declared = list(graph.graph.get(ATTRIBUTE, ()))
    if any(known in (name, name + PLACED) for known, _ in declared):
        raise ValueError(f'the edges "{name}" are declared twice')
    # The cell-edges the walls cover, and the walls placed, each by its first cell-edge (the
    # pair of its south-west cell and the cell across the wall's first edge).
    declared += [(name, "Orthogonal"), (name + PLACED, "Orthogonal")]
    graph.graph[ATTRIBUTE] = declared
    graph.graph[HIDDEN] = (*graph.graph.get(HIDDEN, ()), name, name + PLACED)
    graph.graph[ACROSS] = (*graph.graph.get(ACROSS, ()), name)
    graph.graph[WALLS] = (*graph.graph.get(WALLS, ()), (name, length, supply))
    return graph


# The walls of a board, compiled once ------------------------------------------------------------


@dataclass
class Slot:
    """A place where a wall fits: its south-west cell, whether it lies along a row (h) or a
    column (v), the edge recording it in the placed set, the cell-edges it covers, and the
    placed edges of the walls it would overlap or cross (itself included)."""

    cell: int
    across: int  # the cell across the wall's first cell-edge (north for h, east for v)
    h: bool
    edge: int
    covers: tuple[int, ...]
    blockers: tuple[int, ...]  # cell-edges (its own) and placed edges (crossing walls)
    mask: int  # bit e for each cell-edge e it covers
    # Per grid point on the wall (its ends and the points inside it): None when the point is
    # on the board's border, else the other cell-edges that meet there. A wall that meets
    # the border or other walls at one point at most cannot split the board's cells.
    points: tuple[tuple[int, ...] | None, ...] = ()


class WallSet:
    """One kind of wall of a board: its slots and the edge sets holding it."""

    def __init__(self, env: Env, name: str, length: int, supply: int) -> None:
        self.name = name
        self.length = length
        self.supply = supply
        cells = edge_set(env, name, "(with-walls ...)")
        placed = edge_set(env, name + PLACED, "(with-walls ...)")
        assert cells is not None and placed is not None
        self.cells: EdgeSet = cells
        self.placed: EdgeSet = placed
        step = env.topology.step
        none = (-1,) * env.topology.size
        north, east = step.get("N", none), step.get("E", none)
        if north is none or east is none:
            env.error(f'(with-walls ... "{name}"): walls need a square board (N and E)')
        self.slots: list[Slot] = []
        inside: dict[tuple[int, bool], list[int]] = {}  # (point, h) -> slots it is inside
        for c in range(env.topology.size):
            for h in (True, False):
                along, over = (east, north) if h else (north, east)
                run = [c]
                for _ in range(length - 1):
                    if run[-1] >= 0:
                        run.append(along[run[-1]])
                if any(s < 0 or over[s] < 0 for s in run):
                    continue
                covers = tuple(cells.between[(s, over[s])] for s in run)
                edge = placed.between[(c, over[c])]
                i = len(self.slots)
                # The points inside the wall, each named by the cell south-west of it.
                for s in run[:-1]:
                    inside.setdefault((s, h), []).append(i)
                mask = 0
                for e in covers:
                    mask |= 1 << e
                self.slots.append(Slot(c, over[c], h, edge, covers, (), mask))
        crossing: list[set[int]] = [set() for _ in self.slots]
        for (point, h), members in inside.items():
            for i in members:
                crossing[i].update(inside.get((point, not h), ()))
        for i, slot in enumerate(self.slots):
            slot.blockers = slot.covers + tuple(sorted(self.slots[j].edge for j in crossing[i]))
            slot.points = self._points(env, slot)
        self.by_edge = {slot.edge: slot for slot in self.slots}
        self.by_pair = {(slot.cell, slot.across): slot for slot in self.slots}
        self.range = (placed.first, placed.first + len(placed.pairs))

    def _points(self, env: Env, slot: Slot) -> tuple[tuple[int, ...] | None, ...]:
        """The grid points of a wall (see Slot.points), from the cells' coordinates."""
        at = {(round(x), round(y)): s for s, (x, y) in enumerate(env.topology.xy)}
        x, y = (round(v) for v in env.topology.xy[slot.cell])
        out: list[tuple[int, ...] | None] = []
        for k in range(self.length + 1):
            # The point's south-west cell, in cell units.
            px, py = (x - 1 + k, y) if slot.h else (x, y - 1 + k)
            sw, se = at.get((px, py)), at.get((px + 1, py))
            nw, ne = at.get((px, py + 1)), at.get((px + 1, py + 1))
            if sw is None or se is None or nw is None or ne is None:
                out.append(None)
                continue
            pairs = ((sw, nw), (se, ne), (sw, se), (nw, ne))
            out.append(tuple(e for a, b in pairs
                             if (e := self.cells.between[(a, b)]) not in slot.covers))
        return tuple(out)

    @staticmethod
    def may_split(slot: Slot, values: Sequence[int]) -> bool:
        """May the wall split the board's cells in two (does it meet the border or other
        walls at two points or more)?"""
        met = 0
        for point in slot.points:
            if point is None or any(values[e] for e in point):
                met += 1
                if met > 1:
                    return True
        return False

    def left(self, values: Sequence[int], role: int) -> int:
        """How many walls `role` has not placed (a large number without a supply)."""
        if not self.supply:
            return len(self.slots)
        lo, hi = self.range
        placed = list(values[lo:hi]).count(role + 1)
        return self.supply - placed

    def name_of(self, slot: Slot, names: Sequence[str]) -> str:
        return names[slot.cell] + ("h" if slot.h else "v")


def wall_set(env: Env, name: str, who: str) -> WallSet | None:
    """The walls named `name` (compiled on first use), or None with an error naming `who`."""
    known: dict[str, WallSet] = env.shared.setdefault("walls", {})
    if name in known:
        return known[name]
    spec = next((w for w in env.topology.graph.graph.get(WALLS, ()) if w[0] == name), None)
    if spec is None:
        env.error(f'{who}: the board declares no walls "{name}" (declare them with (board '
                  f'(with-walls (square 9) "{name}" length:2)))')
        return None
    edge_sets(env)
    found = known[name] = WallSet(env, *spec)
    declare(env, WallField(env.shared["walls"], env.topology.names))
    return found


# The walls as state ------------------------------------------------------------------------


class WallField(StateField):
    """The walls each role has placed: `walls White: e3h f5v` (left out when none)."""

    order = 26  # after the edges (stdlib/edges.py), which it may add to

    def __init__(self, sets: dict[str, WallSet], names: tuple[str, ...]) -> None:
        self.sets = sets  # every wall set of the game (filled as they are compiled)
        self.names = names

    def keys(self, roles: tuple[str, ...]) -> list[str]:
        return [f"{w.name.lower()}s {role}" for w in self.sets.values() for role in roles]

    def render(self, state: Any) -> list[str]:
        lines = []
        values = state.edges
        for w in self.sets.values():
            for r, role in enumerate(state.game.players):
                held = [self.names[slot.cell] + ("h" if slot.h else "v")
                        for slot in w.slots if values[slot.edge] == r + 1]
                if held:
                    lines.append(f"{w.name.lower()}s {role}: {' '.join(held)}")
        return lines

    def parse(self, state: Any, keys: Keys) -> None:
        values = list(state.edges)
        index = {name: s for s, name in enumerate(self.names)}
        for w in self.sets.values():
            for r, role in enumerate(state.game.players):
                found = keys.take(f"{w.name.lower()}s {role}")
                if found is None:
                    continue
                line, text = found
                for word in text.replace(",", " ").split():
                    slot = _slot_named(w, word, index)
                    if slot is None:
                        raise keys.error(line, f"{w.name.lower()}s {role}: {word!r} is not a "
                                               f"place for a {w.name}, e.g. "
                                               f"{w.name_of(w.slots[0], self.names)}")
                    if any(values[e] for e in slot.blockers):
                        raise keys.error(line, f"{w.name.lower()}s {role}: {word} overlaps "
                                               f"or crosses another {w.name}")
                    for e in (slot.edge, *slot.covers):
                        values[e] = r + 1
                if w.supply and values[w.range[0]:w.range[1]].count(r + 1) > w.supply:
                    raise keys.error(line, f"{role} has only {w.supply} {w.name.lower()}s")
        state.edges = tuple(values)


def _slot_named(w: WallSet, word: str, index: dict[str, int]) -> Slot | None:
    found = WALL_NAME.fullmatch(word.strip())
    if found is None:
        return None
    letters, digits, way = found.groups()
    c = index.get(f"{letters.lower()}{digits}", -1)
    for slot in w.slots:
        if slot.cell == c and slot.h == (way.lower() == "h"):
            return slot
    return None


class PlaceWall(Action):
    """A wall is put: its place and the cell-edges it covers are held by its owner (`value`:
    the role + 1)."""

    __slots__ = ("edges", "value")

    def __init__(self, edges: tuple[int, ...], value: int) -> None:
        self.edges = edges
        self.value = value

    def apply(self, turn: Turn) -> None:
        for e in self.edges:
            turn.set_edge(e, self.value)


# The kind of move: notation, integer actions, refusals -----------------------------------------

WALL_NAME = re.compile(r"([A-Za-z]+)([0-9]+)([hvHV])")


def _letters(name: str) -> str:
    return name.rstrip("0123456789")


def _write_wall(kind: str, sites: Sites, names: Sequence[str]) -> str:
    cell, across = names[sites[0]], names[sites[1]]
    return cell + ("h" if _letters(cell) == _letters(across) else "v")


def _next_letters(letters: str) -> str:
    n = 0
    for ch in letters.lower():
        n = n * 26 + ord(ch) - ord("a") + 1
    return column_letters(n)


def _read_wall(text: str, site_of: SiteOf) -> Key | None:
    found = WALL_NAME.fullmatch(text)
    if found is None:
        return None
    letters, digits, way = found.groups()
    cell = site_of(f"{letters}{digits}")
    h = way.lower() == "h"
    across = f"{letters}{int(digits) + 1}" if h else f"{_next_letters(letters)}{digits}"
    try:
        other = site_of(across)
    except NotationError:
        raise NotationError(f"{text}: no wall fits there ({letters}{digits} is on the "
                            f"board's {'top row' if h else 'last column'})") from None
    return WALL.name, (cell, other)


@dataclass
class WallBlock(Block):
    """Walls by their south-west cell and way: each orthogonal pair (cell, the cell north of
    it: a wall along a row; the cell east of it: along a column), by cell then way."""

    kind: str
    pairs: list[tuple[int, int]]

    def __post_init__(self) -> None:
        self.index_of = {pair: i for i, pair in enumerate(self.pairs)}

    @property
    def size(self) -> int:  # type: ignore[override]
        return len(self.pairs)

    def index(self, sites: Sites) -> int:
        found = self.index_of.get((sites[0], sites[1])) if len(sites) == 2 else None
        if found is None:
            raise GameError(f"{sites}: not a place for a wall")
        return found

    def sites(self, index: int) -> Sites:
        return self.pairs[index]


def _wall_block(game: Any, kind: str) -> Block:
    return WallBlock(kind, wall_pairs(game.env))


def wall_pairs(env: Env) -> list[tuple[int, int]]:
    """The places of walls as the action space numbers them (WallBlock): each cell with the
    cell north of it, then with the cell east of it."""
    step = env.topology.step
    north, east = step.get("N", ()), step.get("E", ())
    return [(s, t[s]) for s in range(env.topology.size) for t in (north, east)
            if t and t[s] >= 0]


def _refuse_wall(q: Refused) -> str | None:
    if q.kind != WALL.name:
        return None
    if not any(m.kind == WALL.name for m in q.moves) and not any(
            k == WALL.name for k, _ in q.explain):
        return "there are no walls to place in this game now"
    return None


WALL = register(MoveKind("wall", Syntax("wall", 50, _write_wall, _read_wall), "wall", 42,
                         _wall_block, hint="a cell and h or v (e3h)", refuse=_refuse_wall,
                         # The page: the wall's cell, then the cell across its first edge.
                         click="move"))


# Ludemes -------------------------------------------------------------------------------------


@ludeme("place-wall")
def place_wall(env: Env, name: str, *, if_: Cond | None = None,
               unless: Cond | None = None) -> Moves:
    """The mover puts one of its walls `name` wherever one fits: not overlapping or crossing
    a wall already placed (touching is allowed), while the role has walls left. The filters
    are judged with the wall in place (To is its south-west cell). Written as the cell and
    the wall's way: `e3h` along the north side of e3, `e3v` along its east side.

    (place-wall "Wall" if:(has-path All to:(sites Side Forward) walls:"Wall"))"""
    walls = wall_set(env, name, "(place-wall ...)")
    if walls is None:
        return lambda ctx: []
    edges = edge_sets(env)
    names = env.names
    # Per role, each wall's move (made once per game).
    by_role = [list(zip(walls.slots, [
        Move(WALL.name, (slot.cell, slot.across), (), names,
             (PlaceWall((slot.edge, *slot.covers), r + 1),)) for slot in walls.slots],
        strict=True)) for r in range(len(env.roles))]
    # A condition that says which cell-edges it relies on (see has-path): walls covering
    # none of them keep it as it is, and need not be tried.
    relies = parts_of(if_).relies if unless is None else None

    def generate(ctx: Ctx) -> list[Move]:
        values = values_of(ctx, edges)
        mover = ctx.mover
        explain = ctx.explain
        slots = by_role[mover]
        if walls.left(values, mover) <= 0:
            if explain is not None:
                for _, m in slots:
                    explain.setdefault(m.key, f"{env.roles[mover]} has no {name.lower()}s "
                                              "left")
            return []
        free: list[tuple[Slot, Move]] = []
        for slot, m in slots:
            for e in slot.blockers:
                if values[e]:
                    if explain is not None:
                        explain.setdefault(m.key, _clash(walls, slot, values, names))
                    break
            else:
                free.append((slot, m))
                if ctx.probe and if_ is None and unless is None:
                    break
        if if_ is None and unless is None:
            return [m for _, m in free]
        state = ctx.state
        out: list[Move] = []
        safe = relies(ctx) if relies is not None and explain is None else None
        work = list(values)
        try:
            if state is not None:
                state.edges = work
            for slot, m in free:
                if safe is not None and (not slot.mask & safe
                                         or not walls.may_split(slot, values)):
                    out.append(m)
                    continue
                for e in slot.covers:
                    work[e] = mover + 1
                ctx.to = slot.cell
                if if_ is not None and not if_(ctx):
                    reason: str | None = _refusal(if_, False)
                elif unless is not None and unless(ctx):
                    reason = _refusal(unless, True)
                else:
                    reason = None
                for e in slot.covers:
                    work[e] = 0
                if reason is None:
                    out.append(m)
                    if ctx.probe:
                        break
                elif explain is not None:
                    explain.setdefault(m.key, reason)
        finally:
            ctx.to = -1
            if state is not None:
                state.edges = values
        return out

    mark(generate).kinds = frozenset({WALL.name})
    return generate


def _refusal(condition: Cond, held: bool) -> str:
    from stdlib.moves import refusal

    return refusal(condition, held)


def _clash(walls: WallSet, slot: Slot, values: Sequence[int], names: Sequence[str]) -> str:
    """Why a wall does not fit: the wall it overlaps or crosses."""
    for other in walls.slots:
        if other is not slot and values[other.edge] and (
                set(other.covers) & set(slot.covers) or other.edge in slot.blockers):
            way = "overlaps" if set(other.covers) & set(slot.covers) else "crosses"
            return f"{way} the {walls.name.lower()} {walls.name_of(other, names)}"
    return f"a {walls.name.lower()} is in the way"


@ludeme("walls-left")
def walls_left(env: Env, role: RoleExpr, name: str = "Wall") -> IntExpr:
    """How many walls `name` the role has not placed yet.

    (if (= (walls-left Mover) 0) (lose Mover))"""
    walls = wall_set(env, name, "(walls-left ...)")
    edges = edge_sets(env)

    def count(ctx: Ctx) -> int:
        if walls is None:
            return 0
        return walls.left(values_of(ctx, edges), role(ctx))
    return count


# Movement that walls block (the walls: option of step, slide and hop) ----------------------

_COMPASS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")


def crossings(env: Env, name: str, who: str) -> dict[str, list[int]]:
    """Per direction, per site: the edge of the set `name` between the site and its
    neighbour that way (-1: none, or no neighbour): what a move that way must find empty."""
    found = edge_set(env, name, who)
    between = found.between if found is not None else {}
    return {d: [between.get((s, t), -1) if t >= 0 else -1 for s, t in enumerate(row)]
            for d, row in env.topology.step.items()}


def walled_lines(env: Env, name: str, directions: str, to: str, from_: Any, of: str | None,
                 reach: int | None, if_: Cond | None, unless: Cond | None) -> Moves:
    """The moves of (step ...) (reach 1) and (slide ...) given walls:NAME: as without it,
    except that a piece never crosses a held edge of the set: a wall ends its line."""
    from stdlib.logic import cell_test
    from stdlib.moves import Reach, accept, kinds_named, own_pieces

    dirs = env.resolve_dirs(directions)
    cross = crossings(env, name, "(step/slide ... walls:)")
    step = env.topology.step
    edges = edge_sets(env)
    target = cell_test(env, to)
    kinds = kinds_named(env, of)
    no_piece = env.no_piece
    size = env.topology.size
    limit = reach if reach is not None else size
    simple = if_ is None and unless is None and to in ("Empty", "Enemy", "EmptyOrEnemy")
    take_empty = to in ("Empty", "EmptyOrEnemy")
    take_enemy = to in ("Enemy", "EmptyOrEnemy")

    def generate(ctx: Ctx) -> list[Move]:
        board, owner, mover = ctx.board, ctx.owner, ctx.mover
        values = values_of(ctx, edges)
        ds = dirs(mover) if callable(dirs) else dirs
        out: list[Move] = []
        for s, v in own_pieces(ctx, from_, kinds):
            for d in ds:
                row, walls = step[d], cross[d]
                here, n = s, 0
                while n < limit:
                    t, e = row[here], walls[here]
                    if t < 0 or t in no_piece or (e >= 0 and values[e]):
                        break
                    x = board[t]
                    if simple:
                        if x == 0:
                            if take_empty:
                                out.append(env.piece_move(s, t, v))
                        else:
                            o = owner[x]
                            if take_enemy and o >= 0 and o != mover:
                                out.append(env.piece_move(s, t, v))
                            break
                    else:
                        if target(ctx, t):
                            accept(ctx, env.piece_move(s, t, v), t, s, if_, unless, out,
                                   from_hand=False)
                        if x != 0:
                            break
                    here, n = t, n + 1
                if ctx.probe and out:
                    return out
        return out

    def pairs(mover: int) -> frozenset[tuple[int, int]]:
        out = set()
        for s in range(size):
            for d in (dirs(mover) if callable(dirs) else dirs):
                here, n = s, 0
                while n < limit and step[d][here] >= 0:
                    here, n = step[d][here], n + 1
                    out.add((s, here))
        return frozenset(out)

    mark(generate).kinds = frozenset({"move"})
    mark(generate).reach = Reach(pairs, kinds, reach == 1, interned=True)
    return generate


def _turned(d: str, quarter: int) -> str:
    return _COMPASS[(_COMPASS.index(d) + 2 * quarter) % 8] if d in _COMPASS else ""


def walled_hop(env: Env, name: str | None, directions: str, over: str, from_: Any,
               of: str | None, capture: bool, aside: bool, if_: Cond | None,
               unless: Cond | None) -> Moves:
    """The moves of (hop ...) given walls:, capture:false or aside:true: over the neighbouring
    site when it holds `over:`, to the empty site beyond; no held edge of the set `name` may
    lie on the way (between the piece and the site jumped, or between that and the landing).
    With aside:true, when a wall or the board's edge is right behind the site jumped, the
    piece lands beside it instead, on either side (Quoridor's diagonal jump); a piece behind
    it blocks the hop. With capture:false the piece jumped stays."""
    from stdlib.logic import cell_test
    from stdlib.moves import Reach, accept, kinds_named, own_pieces

    dirs = env.resolve_dirs(directions)
    cross = crossings(env, name, "(hop ... walls:)") if name is not None else {
        d: [-1] * len(row) for d, row in env.topology.step.items()}
    step = env.topology.step
    edges = edge_sets(env) if name is not None else None
    jumped = cell_test(env, over)
    kinds = kinds_named(env, of)
    no_piece = env.no_piece
    names = env.names
    size = env.topology.size
    made: dict[tuple[int, int, int, int], Move] = {}

    def jump(s: int, t: int, u: int, v: int, taken: int) -> Move:
        if not capture:
            return env.piece_move(s, u, v)
        key = (s, t, u, v)
        move = made.get(key)
        if move is None:
            changes = ((s, env.left_behind(v)), (t, env.left_behind(taken)), (u, v))
            move = made[key] = Move("move", (s, u), changes, names)
        return move

    def generate(ctx: Ctx) -> list[Move]:
        board, mover = ctx.board, ctx.mover
        values = values_of(ctx, edges) if edges is not None else ()
        ds = dirs(mover) if callable(dirs) else dirs
        out: list[Move] = []
        for s, v in own_pieces(ctx, from_, kinds):
            landed: set[int] = set()
            for d in ds:
                t, e = step[d][s], cross[d][s]
                if t < 0 or board[t] == 0 or (e >= 0 and values[e]) or not jumped(ctx, t):
                    continue
                u, e = step[d][t], cross[d][t]
                walled = u < 0 or u in no_piece or (e >= 0 and values[e])
                if not walled:
                    landings = [u] if board[u] == 0 else []
                elif aside:
                    landings = []
                    for side in (_turned(d, -1), _turned(d, 1)):
                        w = step[side][t] if side in step else -1
                        e = cross[side][t] if side in cross else -1
                        if w >= 0 and w not in no_piece and board[w] == 0 and not (
                                e >= 0 and values[e]):
                            landings.append(w)
                else:
                    continue
                for w in landings:
                    if w not in landed:
                        landed.add(w)
                        accept(ctx, jump(s, t, w, v, board[t]), w, s, if_, unless, out,
                               from_hand=False)
            if ctx.probe and out:
                return out
        return out

    def pairs(mover: int) -> frozenset[tuple[int, int]]:
        out = set()
        for s in range(size):
            for d in (dirs(mover) if callable(dirs) else dirs):
                t = step[d][s]
                if t < 0:
                    continue
                if step[d][t] >= 0:
                    out.add((s, step[d][t]))
                if aside:
                    for side in (_turned(d, -1), _turned(d, 1)):
                        w = step[side][t] if side in step else -1
                        if w >= 0:
                            out.add((s, w))
        return frozenset(out)

    mark(generate).kinds = frozenset({"move"})
    mark(generate).reach = Reach(pairs, kinds, True, interned=not capture)
    return generate


# Kernel lowerings (stdlib/lowering.py) --------------------------------------------------------
# The walls are edges (st[EDGES + e], set through set_edge: see stdlib/edges.py's lowerings).


def _lowered_walls(k: Lower, node: Form, name_node: Node | str) -> WallSet:
    """The walls a lowered form names (a literal name), or refuse."""
    if isinstance(name_node, Str):
        name_node = name_node.value
    if not isinstance(name_node, str):
        k.refuse(node, f"no kernel lowering of ({node.head} ...) with a computed wall name")
    found = wall_set(k.env, name_node, f"({node.head} ...)")
    if found is None:
        k.refuse(node, f'the board declares no walls "{name_node}"')
    return found


@lowers("place-wall")
def lower_place_wall(k: Lower, node: Form, args: tuple[Node, ...]) -> Generator:
    """(place-wall name [if:] [unless:]): while the mover has walls left (its placed edges
    counted), each place where no wall it would overlap or cross is held (the slots'
    blockers); the filters judged with the wall's cell-edges held by the mover and To its
    south-west cell, as place_wall judges them. The move holds the wall's placed edge and
    cell-edges; To is the cell across its first edge (the move's last site)."""
    given = keywords(node, {"if", "unless"}, k)
    walls = _lowered_walls(k, node, args[0])
    env = k.env
    start = k.action_start(WALL.name, node)
    index = {pair: i for i, pair in enumerate(wall_pairs(env))}
    slots = walls.slots
    if not slots:
        k.refuse(node, f"no place on this board for a {walls.name}")
    width = max(len(slot.blockers) for slot in slots) + 1
    blockers = k.table("wall blockers", [list(slot.blockers) + [-1] * (width - len(
        slot.blockers)) for slot in slots])
    covers = k.table("wall covers", [list(slot.covers) for slot in slots])
    acts = [start + index[(slot.cell, slot.across)] for slot in slots]
    numbers = k.table("wall actions", acts)
    by_action = [-1] * (max(acts) - start + 1)
    for i, a in enumerate(acts):
        by_action[a - start] = i
    slot_of = k.table("wall of action", by_action)
    cells = k.table("wall cells", [[slot.cell, slot.across, slot.edge] for slot in slots])
    lo, hi = walls.range
    tests = []
    if "if" in given:
        tests.append(f"({k.lower(given['if'], 'Boolean')})")
    if "unless" in given:
        tests.append(f"not ({k.lower(given['unless'], 'Boolean')})")
    length = walls.length
    judged = ""
    if tests:
        allowed = k.function("wall_allowed", f"""
def {{name}}(st, T, mover, to, frm):
    return {" and ".join(tests)}
""")
        judged = f"""
        if {_spared(k, walls, given, covers)}:
            acts[n] = {numbers}[i]
            tags[n] = tag
            n += 1
            continue
        for j in range({length}):
            st[EDGES + {covers}[i, j]] = mover + 1
        ok = {allowed}(st, T, mover, {cells}[i, 0], -1)
        for j in range({length}):
            st[EDGES + {covers}[i, j]] = 0
        if not ok:
            continue"""
    generate = k.function("place_wall", f"""
def {{name}}(st, T, mover, acts, tags, n, tag):
    if {walls.supply} > 0:
        placed = 0
        for e in range({lo}, {hi}):
            if st[EDGES + e] == mover + 1:
                placed += 1
        if placed >= {walls.supply}:
            return n
    used = np.zeros(EDGE_COUNT, np.uint8)
    safe = {"False" if not tests else _relies(k, given)}
    for i in range({len(slots)}):
        free = True
        for j in range({width}):
            e = {blockers}[i, j]
            if e < 0:
                break
            if st[EDGES + e] != 0:
                free = False
                break
        if not free:
            continue{judged}
        acts[n] = {numbers}[i]
        tags[n] = tag
        n += 1
    return n
""")
    make = k.function("make_wall", f"""
def {{name}}(st, T, mover, act):
    i = {slot_of}[act - {start}]
    set_edge(st, {cells}[i, 2], mover + 1)
    for j in range({length}):
        set_edge(st, {covers}[i, j], mover + 1)
    st[H_TO] = {cells}[i, 1]
    st[H_FROM] = -1
""")
    return Generator(generate, make, frozenset({WALL.name}))


def _relies(k: Lower, given: dict[str, Node]) -> str:
    """Source marking in `used` the edges the filter relies on and saying whether it may be
    spared for walls covering none of them (only an if: that is (has-path ...): the
    interpreter's Parts.relies); "False" otherwise."""
    condition = given.get("if")
    if "unless" in given or not (isinstance(condition, Form) and condition.head == "has-path"):
        return "False"
    from stdlib.paths import lower_path_edges

    return f"{lower_path_edges(k, condition)}(st, T, mover, used)"


def _spared(k: Lower, walls: WallSet, given: dict[str, Node], covers: str) -> str:
    """The test (source, slot i) that a wall need not be judged, as place_wall spares it:
    the paths the filter relies on are known (`safe`) and the wall covers none of their
    edges, or it cannot split the board's cells (WallSet.may_split: it meets the border or
    other walls at one point at most)."""
    if _relies(k, given) == "False":
        return "False"
    width = 5  # a point's other cell-edges (at most 4), ended by -1; -2 for the border
    points = [[[-2] + [-1] * (width - 1) if point is None else
               list(point) + [-1] * (width - len(point)) for point in slot.points]
              for slot in walls.slots]
    table = k.table("wall points", points)
    spared = k.function("wall_spared", f"""
def {{name}}(st, used, i):
    cuts = False
    for j in range({walls.length}):
        if used[{covers}[i, j]] == 1:
            cuts = True
    if not cuts:
        return True
    met = 0
    for p in range({walls.length + 1}):
        if {table}[i, p, 0] == -2:
            met += 1
        else:
            for j in range({width}):
                e = {table}[i, p, j]
                if e < 0:
                    break
                if st[EDGES + e] != 0:
                    met += 1
                    break
        if met > 1:
            return False
    return True
""")
    return f"safe and {spared}(st, used, i)"


@lowers("walls-left")
def lower_walls_left(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(walls-left role [name]): the role's supply less the placed edges it holds (the
    number of places without a supply, as WallSet.left)."""
    keywords(node, set(), k)
    walls = _lowered_walls(k, node, args[1] if len(args) > 1 else "Wall")
    role = k.lower(args[0], "Role")
    lo, hi = walls.range
    if not walls.supply:
        return repr(len(walls.slots))
    return k.function("walls_left", f"""
def {{name}}(st, T, mover, to, frm):
    r = {role}
    placed = 0
    for e in range({lo}, {hi}):
        if st[EDGES + e] == r + 1:
            placed += 1
    return {walls.supply} - placed
""") + "(st, T, mover, to, frm)"


def _role_dirs(k: Lower, node: Form, direction: Node | None, default: str
               ) -> list[tuple[str, ...]]:
    """Per role, the directions it moves in, as the movement lowerings' tables order them
    (stdlib.moves._lower_dirs)."""
    env = k.env
    name = default if direction is None else getattr(direction, "name", None)
    if not isinstance(name, str) or not isinstance(direction, Const | type(None)):
        k.refuse(node, f"no kernel lowering of ({node.head}) with these directions")
    dirs = env.resolve_dirs(name)
    return [tuple(dirs(r)) if callable(dirs) else tuple(dirs) for r in range(len(env.roles))]


def _wall_table(k: Lower, per_role: list[tuple[str, ...]], cross: dict[str, list[int]],
                width: int) -> str:
    """Per role, direction and site: the edge a step that way crosses (-1: none)."""
    size = k.env.topology.size
    none = [-1] * size
    return k.table("walls by role", [[list(cross.get(d, none)) for d in ds]
                                     + [none] * (width - len(ds)) for ds in per_role])


def lower_walled_line(k: Lower, node: Form, args: tuple[Node, ...], default_dir: str,
                      reach: int | None) -> Generator:
    """(step ... walls:) and (slide ... walls:), as walled_lines: along each direction over
    empty sites to a site holding to:, a held edge of the set (a wall), a piece or a
    special site ending the line; the filters judged with the move made (then taken back)."""
    from stdlib.moves import _cell, _lower_dirs, _lower_origins, _make_piece_move, move_filters

    allowed = {"to", "from", "of", "walls", "if", "unless"} | ({"max"} if reach is None
                                                                else set())
    given = keywords(node, allowed, k)
    if "max" in given:
        bound = given["max"]
        if not isinstance(bound, Int):
            k.refuse(node, f"no kernel lowering of ({node.head}) with a computed max:")
        reach = bound.value
    name = given["walls"]
    if not isinstance(name, Str):
        k.refuse(node, f"no kernel lowering of ({node.head}) with a computed walls:")
    env = k.env
    direction = args[0] if args else None
    steps, width = _lower_dirs(k, node, direction, default_dir)
    walled = _wall_table(k, _role_dirs(k, node, direction, default_dir),
                         crossings(env, name.value, f"({node.head} ... walls:)"), width)
    target = _cell(k, node, given.get("to"), "Empty", "x")
    loop = _lower_origins(k, node, given, steps, width)
    size = env.topology.size
    open_ = k.table("may hold a piece", [0 if s in env.no_piece else 1 for s in range(size)])
    start = k.action_start("move", node)
    admits = move_filters(k, given)
    generate = k.function("walled_line", f"""
def {{name}}(st, T, mover, acts, tags, n, tag):
{loop}            here = s
            c = 0
            while t != -1 and c < {reach if reach is not None else size}:
                e = {walled}[mover, d, here]
                if {open_}[t] == 0 or (e >= 0 and st[EDGES + e] != 0):
                    break
                x = st[t]
                if {target}{admits}:
                    acts[n] = {start} + s * N + t
                    tags[n] = tag
                    n += 1
                if x != 0:
                    break
                here = t
                t = {steps}[mover, d, t]
                c += 1
    return n
""")
    return Generator(generate, _make_piece_move(k, start), frozenset({"move"}))


def lower_walled_hop(k: Lower, node: Form, args: tuple[Node, ...]) -> Generator:
    """(hop ... walls: capture:false [aside:]), as walled_hop: over a neighbour holding
    over: to the empty site beyond, no held edge of the set on the way; with aside:true,
    when a wall, a special site or the board's edge is behind the site jumped, to either
    side of it instead (the sides as the compass turns the direction); each landing once
    per piece. The piece jumped stays."""
    from stdlib.moves import _cell, _lower_dirs, _lower_origins, _make_piece_move

    given = keywords(node, {"over", "from", "of", "walls", "capture", "aside"}, k)
    capture, aside = given.get("capture"), given.get("aside")
    if not (isinstance(capture, Bool) and not capture.value):
        k.refuse(node, "no kernel lowering of (hop ... walls:) that captures yet")
    if aside is not None and not isinstance(aside, Bool):
        k.refuse(node, "no kernel lowering of (hop) with a computed aside:")
    name = given["walls"]
    if not isinstance(name, Str):
        k.refuse(node, "no kernel lowering of (hop) with a computed walls:")
    env = k.env
    direction = args[0] if args else None
    per_role = _role_dirs(k, node, direction, "Adjacent")
    steps, width = _lower_dirs(k, node, direction, "Adjacent")
    cross = crossings(env, name.value, "(hop ... walls:)")
    walled = _wall_table(k, per_role, cross, width)
    jumped = _cell(k, node, given.get("over"), "Enemy", "x")
    loop = _lower_origins(k, node, given, steps, width)
    size = env.topology.size
    step = env.topology.step
    open_ = k.table("may hold a piece", [0 if s in env.no_piece else 1 for s in range(size)])
    none = [-1] * size
    # Per role, direction, side (turned left, right) and site: the site beside it that way
    # and the edge between them.
    beside = [[[[step[side][t] if side in step else -1 for t in range(size)]
                for side in (_turned(d, -1), _turned(d, 1))] for d in ds]
              + [[none, none]] * (width - len(ds)) for ds in per_role]
    across = [[[[cross[side][t] if side in cross else -1 for t in range(size)]
                for side in (_turned(d, -1), _turned(d, 1))] for d in ds]
              + [[none, none]] * (width - len(ds)) for ds in per_role]
    sides = k.table("sites beside", beside)
    side_walls = k.table("walls beside", across)
    start = k.action_start("move", node)
    listed = _listed(k)
    aside_lines = "" if not (isinstance(aside, Bool) and aside.value) else f"""
            else:
                for q in range(2):
                    w = {sides}[mover, d, q, t]
                    e = {side_walls}[mover, d, q, t]
                    if w >= 0 and {open_}[w] == 1 and st[w] == 0 and not (
                            e >= 0 and st[EDGES + e] != 0):
                        n = {listed}(acts, tags, n, tag, first, {start} + s * N + w)"""
    generate = k.function("walled_hop", f"""
def {{name}}(st, T, mover, acts, tags, n, tag):
    first = n
{loop}            if t == -1:
                continue
            x = st[t]
            e = {walled}[mover, d, s]
            if x == 0 or (e >= 0 and st[EDGES + e] != 0) or not ({jumped}):
                continue
            u = {steps}[mover, d, t]
            e = {walled}[mover, d, t]
            if not (u == -1 or {open_}[u] == 0 or (e >= 0 and st[EDGES + e] != 0)):
                if st[u] == 0:
                    n = {listed}(acts, tags, n, tag, first, {start} + s * N + u){aside_lines}
    return n
""")
    return Generator(generate, _make_piece_move(k, start), frozenset({"move"}))


def _listed(k: Lower) -> str:
    """A function adding an action to those listed from `first` on unless it is there
    already (a landing reached two ways is one move)."""
    return k.function("listed_once", """
def {name}(acts, tags, n, tag, first, act):
    for i in range(first, n):
        if acts[i] == act:
            return n
    acts[n] = act
    tags[n] = tag
    return n + 1
""")
