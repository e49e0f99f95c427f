"""Ludemes against brute-force referees written independently of `stdlib` (tests/referee_lib.py),
over random positions on boards of every shape and size, with up to four roles, neutral pieces
and special sites: the cases the seed games never exercise (issue 12)."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import assume, event, given, settings
from hypothesis import strategies as st
from referee_lib import (
    COMPASS,
    KINDS,
    NEUTRALS,
    ROLE_NAMES,
    SPECIAL,
    Board,
    Cell,
    CondFn,
    Position,
    cell_holds,
    compiled,
    connected,
    game_text,
    has_ring,
    judged,
    longest_runs,
    present,
    sites_list,
)

from interpreter import parse_game
from interpreter.game import Game

SETTINGS = settings(derandomize=True, database=None, deadline=None, max_examples=150)
SHAPES = ("square", "rectangle", "hex-rhombus", "hexhex", "hex-triangle")




@st.composite
def boards(draw: st.DrawFn, shapes: tuple[str, ...] = SHAPES, small: bool = False) -> Board:
    shape = draw(st.sampled_from(shapes))
    top = 4 if small else 7
    if shape == "hexhex":
        return Board(shape, draw(st.integers(1, 3 if small else 4)))
    if shape == "rectangle":
        return Board(shape, draw(st.integers(1, top)), draw(st.integers(1, top)))
    return Board(shape, draw(st.integers(1, top)))


@st.composite
def positions(draw: st.DrawFn, shapes: tuple[str, ...] = SHAPES, roles: tuple[int, int] = (2, 4),
              neutrals: bool = True, specials: bool = True, small: bool = False,
              board: Board | None = None) -> Position:
    """A random fill of a random board with the roles' pieces, neutral pieces, empties and
    special sites."""
    board = board or draw(boards(shapes, small))
    names = ROLE_NAMES[:draw(st.integers(*roles))]
    kinds = NEUTRALS[:draw(st.integers(0, 2))] if neutrals else ()
    rng = random.Random(draw(st.integers(0, 2**32)))
    special: set[Cell] = set()
    if specials and draw(st.booleans()):
        special = {c for c in board.cells if rng.random() < 0.12}
    empty_weight = draw(st.sampled_from([0.1, 0.3, 0.5]))
    symbols = [r[0] for r in names] + [s for _, s in kinds]
    weights = [1.0] * len(names) + [0.3] * len(kinds)
    content: dict[Cell, str] = {c: SPECIAL for c in special}
    for c in board.cells:
        if c not in special and rng.random() >= empty_weight:
            content[c] = rng.choices(symbols, weights)[0]
    return Position(board, tuple(names), tuple(kinds), frozenset(special), content,
                    draw(st.integers(0, len(names) - 1)))






# -- connected -------------------------------------------------------------------------------


@st.composite
def region_specs(draw: st.DrawFn, pos: Position) -> tuple[str, list[set[Cell]]]:
    """A `regions:` argument and the regions it stands for, by the referee."""
    board = pos.board
    kind = draw(st.sampled_from(["sides", "sides-nc", "corners", "list"]))
    if kind == "sides":
        return "(regions Sides)", list(board.sides().values())
    if kind == "sides-nc":
        return ("(regions Sides corners:false)",
                [board.side(s, corners=False) for s in board.sides()])
    if kind == "corners":
        return "(regions Corners)", [{c} for c in board.corner_sites()]
    parts, regions = [], []
    for _ in range(draw(st.integers(1, 5))):
        what = draw(st.sampled_from(["side", "side-nc", "corner", "sites"] if board.regular
                                    else ["side", "side-nc", "sites"]))
        if what.startswith("side"):
            s = draw(st.sampled_from(sorted(board.sides())))
            nc = what == "side-nc"
            parts.append(f"(sites Side {s}{' corners:false' if nc else ''})")
            regions.append(board.side(s, corners=not nc))
        elif what == "corner":
            s = draw(st.sampled_from(sorted(board.corners())))
            parts.append(f"(sites Corner {s})")
            regions.append(board.corners()[s])
        else:
            cells = draw(st.sets(st.sampled_from(board.cells), min_size=1, max_size=4))
            parts.append(sites_list({board.names[c] for c in cells}))
            regions.append(set(cells))
    return "{" + " ".join(parts) + "}", regions


@SETTINGS
@given(st.data())
def test_connected_matches_referee(data: st.DataObject) -> None:
    pos = data.draw(positions())
    spec, regions = data.draw(region_specs(pos))
    at_least = data.draw(st.one_of(st.none(), st.integers(1, len(regions))))
    by = data.draw(st.sampled_from([None, "All"] if not pos.board.hex else [None]))
    role = data.draw(st.sampled_from(["Mover", "Next"]))
    end = (f"(if (connected {role} regions:{spec}"
           f"{f' at-least:{at_least}' if at_least else ''}{f' by:{by}' if by else ''}) "
           "(win Mover))")
    who = pos.last if role == "Mover" else pos.mover
    dirs = pos.board.expand(by or "Adjacent")
    want = connected(pos.board, pos.stones(who), regions,
                     at_least if at_least else len(regions), dirs)
    event(f"connected: {want}")
    assert judged(pos, end) == (pos.roles[pos.last] if want else None), (end, pos.text())


@SETTINGS
@given(st.data())
def test_connected_default_sides_matches_referee(data: st.DataObject) -> None:
    pos = data.draw(positions())
    sides = sorted(pos.board.sides())
    declared = {i: data.draw(st.lists(st.sampled_from(sides), min_size=2, max_size=4,
                                      unique=True))
                for i in range(len(pos.roles))}
    extra = {i: "sides:{" + " ".join(s) + "}" for i, s in declared.items()}
    want = connected(pos.board, pos.stones(pos.last),
                     [pos.board.side(s) for s in declared[pos.last]], len(declared[pos.last]),
                     pos.board.expand("Adjacent"))
    got = judged(pos, "(if (connected Mover) (win Mover))", player_extra=extra)
    assert got == (pos.roles[pos.last] if want else None), (extra, pos.text())


# -- ring ------------------------------------------------------------------------------------


@SETTINGS
@given(st.data())
def test_ring_from_text_matches_referee(data: st.DataObject) -> None:
    pos = data.draw(positions())
    board = pos.board
    # boards with no inner site: see test_ring_on_boards_without_inner_sites
    inner = [c for c in board.cells if c not in board.perimeter()]
    assume(inner)
    by = data.draw(st.sampled_from([None, "All"] if not board.hex else [None]))
    if data.draw(st.booleans()):  # wall in a few sites, to see rings often
        wall = "Adjacent" if board.hex or by else "All"
        for _ in range(data.draw(st.integers(1, 2))):
            c = data.draw(st.sampled_from(inner))
            for t in board.neighbours(c, board.expand(wall)):
                if data.draw(st.integers(0, 9)) > 0 or t not in pos.specials:
                    pos.content[t] = pos.symbol(pos.last)
        pos.specials = frozenset(c for c in pos.specials if pos.content.get(c) == SPECIAL)
    end = f"(if (ring Mover{f' by:{by}' if by else ''}) (win Mover))"
    want = has_ring(pos.board, pos.stones(pos.last), pos.board.expand(by or "Adjacent"))
    event(f"ring: {want}")
    assert judged(pos, end) == (pos.roles[pos.last] if want else None), (end, pos.text())


@settings(derandomize=True, database=None, deadline=None, max_examples=40)
@given(st.data())
def test_ring_after_moves_matches_referee(data: st.DataObject) -> None:
    """Random playouts: the game ends by a ring exactly when the mover's move made one."""
    pos = data.draw(positions(shapes=("hexhex", "hex-rhombus", "hex-triangle", "square"),
                              neutrals=False))
    assume(pos.board.perimeter() != set(pos.board.cells))
    pos.content = {c: v for c, v in pos.content.items() if v == SPECIAL}
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    game = compiled(game_text(pos, end="(if (ring Mover) (win Mover))"))
    state = game.from_text(pos.text())
    board, stones = pos.board, [set[Cell]() for _ in pos.roles]
    mover = pos.mover
    while not state.is_over:
        moves = state.legal_moves()
        if not moves:
            break
        m = rng.choice(moves)
        state = state.play(m)
        stones[mover].add(board.cell_of[str(m)])
        want = has_ring(board, stones[mover], board.expand("Adjacent"))
        assert state.is_over == want and (not want or state.winner == pos.roles[mover]), \
            state.to_text()
        mover = (mover + 1) % len(pos.roles)


TWO_ROLES = '(players {(player "A") (player "B")})'


@pytest.mark.parametrize("board, text", [
    ("(square 1)", "B\nmover: A\n"),
    ("(rectangle 3 2)", "B B B\nB . B\nmover: A\n"),
])
def test_ring_on_boards_without_inner_sites(board: str, text: str) -> None:
    game = parse_game(f'(game "t" {TWO_ROLES} (board {board}) (play (place (sites Empty))) '
                      '(end (if (ring Mover) (win Mover))))')
    assert game.from_text(text).winner is None


# -- line ------------------------------------------------------------------------------------


@SETTINGS
@given(st.data())
def test_line_matches_referee(data: st.DataObject) -> None:
    pos = data.draw(positions())
    board = pos.board
    length = data.draw(st.integers(1, 5))
    exact = data.draw(st.booleans())
    axes = board.axes()
    dirs_arg = ""
    if data.draw(st.booleans()):
        names = sorted(board.dirs) + ["Orthogonal", "All"] + ([] if board.hex else ["Diagonal"])
        chosen = data.draw(st.sampled_from(names))
        # a direction names its line: E and W are the same line
        dirs = board.expand(chosen)
        axes = [a for a in axes if a[0] in dirs or a[1] in dirs]
        dirs_arg = " directions:" + chosen
        # a board one cell wide has no E-W direction at all (compile-time refusal)
        assume(any(board.step(c, d) for c in board.cells for d in dirs))
    assume(len(board.cells) > 1)  # a 1x1 board has no directions, hence no lines
    role = data.draw(st.sampled_from(["", " role:Next"]))
    who = pos.mover if role else pos.last
    runs = longest_runs(board, pos.stones(who), axes)
    want = any(r == length if exact else r >= length for r in runs)
    event(f"line: {want}")
    end = f"(if (line {length}{role}{dirs_arg}{' exact:true' if exact else ''}) (win Mover))"
    assert judged(pos, end) == (pos.roles[pos.last] if want else None), (end, pos.text())


# -- full, most-pieces -----------------------------------------------------------------------


@SETTINGS
@given(positions(small=True))
def test_full_matches_referee(pos: Position) -> None:
    want = not pos.empty()
    got = compiled(game_text(pos, end="(if (full) (win Mover))")).from_text(pos.text())
    assert got.winner == (pos.roles[pos.last] if want else None), pos.text()


@SETTINGS
@given(positions())
def test_most_pieces_matches_referee(pos: Position) -> None:
    counts = [len(pos.stones(i)) for i in range(len(pos.roles))]
    best = max(counts)
    want = pos.roles[counts.index(best)] if counts.count(best) == 1 else None
    state = compiled(game_text(pos, end="(if (= 1 1) (most-pieces))")).from_text(pos.text())
    assert state.is_over and state.winner == want, pos.text()



# -- regions that do not depend on the position ----------------------------------------------


@st.composite
def static_regions(draw: st.DrawFn, pos: Position) -> tuple[str, set[Cell]]:
    """A region ludeme that does not read the position, and its sites by the referee."""
    board = pos.board
    kinds = ["side", "side-nc", "corners", "row", "column", "board", "list", "perimeter",
             "centre"]
    kinds += [] + (["corner"] if board.regular else []) + (["special"] if pos.specials
                                                                   else [])
    kind = draw(st.sampled_from(kinds))
    if kind.startswith("side"):
        s = draw(st.sampled_from(sorted(board.sides())))
        nc = kind == "side-nc"
        return f"(sites Side {s}{' corners:false' if nc else ''})", board.side(s, not nc)
    if kind == "corner":
        s = draw(st.sampled_from(sorted(board.corners())))
        return f"(sites Corner {s})", board.corners()[s]
    if kind == "corners":
        return "(sites Corners)", board.corner_sites()
    if kind == "perimeter":
        return "(sites Perimeter)", board.perimeter()
    if kind == "centre":
        return "(sites Centre)", board.centre()
    if kind in ("row", "column"):
        rows = sorted({c[1] for c in board.cells})
        ns = draw(st.lists(st.integers(1, len(rows)), min_size=1, max_size=3, unique=True))
        if kind == "row":
            cells = {c for c in board.cells if c[1] + 1 in ns}
        else:
            cells = {row[i - 1] for row in board.rows for i in ns if i <= len(row)}
        return f"(sites {kind.capitalize()} {' '.join(map(str, ns))})", cells
    if kind == "board":
        return "(sites Board)", set(board.cells)
    if kind == "special":
        return '(sites Special "mine")', set(pos.specials)
    cells = draw(st.sets(st.sampled_from(board.cells), max_size=5))
    return sites_list(pos.names(cells)), cells


def region_verdict(pos: Position, region: str) -> tuple[set[str], int]:
    """The empty sites of the region (as the legal placements of `(place REGION)`) and its
    size (read off `count` by bisection over end conditions)."""
    game = compiled(game_text(pos, play=f"(place {region})"))
    state = game.from_text(pos.text())
    return {str(m) for m in state.legal_moves()}, end_count(pos, region)


@SETTINGS
@given(st.data())
def test_static_regions_match_referee(data: st.DataObject) -> None:
    pos = data.draw(positions(neutrals=False))
    pos.content = {c: v for c, v in pos.content.items() if v == SPECIAL}  # an empty board
    expr, cells = data.draw(static_regions(pos))
    placed, size = region_verdict(pos, expr)
    assert (placed, size) == (pos.names(cells - pos.specials), len(cells)), (expr, pos.text())


@pytest.mark.parametrize("board, sites", [("(square 1)", {"a1"}),
                                          ("(rectangle 3 2)", {"a1", "b1", "c1",
                                                               "a2", "b2", "c2"})])
def test_perimeter_on_boards_without_inner_sites(board: str, sites: set[str]) -> None:
    game = parse_game(f'(game "t" {TWO_ROLES} (board {board}) (play (place (sites Perimeter))) '
                      '(end (if (full) (draw))))')
    assert {str(m) for m in game.initial_state().legal_moves()} == sites


@pytest.mark.parametrize("size, sites", [(2, {"a1", "b1", "a2"}),
                                         (5, {"b2", "c2", "b3"})])
def test_centre_of_a_triangle(size: int, sites: set[str]) -> None:
    game = parse_game(f'(game "t" {TWO_ROLES} (board (hex-triangle {size})) '
                      '(play (place (sites Centre))) (end (if (full) (draw))))')
    assert {str(m) for m in game.initial_state().legal_moves()} == sites


@pytest.mark.parametrize("board", ["(square 1)", "(rectangle 1 3)", "(hexhex 1)"])
def test_directions_of_boards_one_cell_wide(board: str) -> None:
    game = parse_game(f'(game "t" {TWO_ROLES} (board {board}) '
                      '(play (place (sites Around (sites Board) {E}))) (end (if (full) (draw))))')
    assert game.initial_state().legal_moves() == []


@SETTINGS
@given(st.data())
def test_forward_sides_match_referee(data: st.DataObject) -> None:
    pos = data.draw(positions(neutrals=False, specials=False))
    pos.content = {}
    board = pos.board
    forward = [data.draw(st.sampled_from(sorted(board.dirs))) for _ in pos.roles]
    which = data.draw(st.sampled_from(["Forward", "Backward"]))
    nc = data.draw(st.booleans())
    face = forward[pos.mover] if which == "Forward" else \
        {"N": "S", "S": "N", "E": "W", "W": "E", "NE": "SW", "SW": "NE", "NW": "SE",
         "SE": "NW"}[forward[pos.mover]]
    want = board.side(face, not nc) if face in board.sides() else set()
    expr = f"(sites Side {which}{' corners:false' if nc else ''})"
    game = compiled(game_text(pos, play=f"(place {expr})",
                              player_extra={i: f"forward:{f}" for i, f in enumerate(forward)}))
    got = {str(m) for m in game.from_text(pos.text()).legal_moves()}
    assert got == pos.names(want), (expr, forward, pos.text())


# -- conditions and regions that read the position -------------------------------------------
#
# Each strategy gives an expression's text and the referee's evaluation of it, as a function of
# the position, the role Mover stands for and (for conditions) the site bound to Site. Move
# filters are judged on the board after the move (stdlib/moves.py), end conditions with Mover
# the role before the one to move.

RegionFn = Callable[[Position, int], set[Cell]]






@st.composite
def site_conditions(draw: st.DrawFn, pos: Position, depth: int = 0) -> tuple[str, CondFn]:
    """A condition on the site bound to Site."""
    board = pos.board
    kind = draw(st.sampled_from(["is", "holds", "count-around", "in", "not", "and"][
        :6 if depth < 1 else 4]))
    if kind == "is":
        k = draw(st.sampled_from(KINDS))
        return f"(is {k} Site)", lambda p, me, s: cell_holds(p, k, s, me)
    if kind == "holds":
        name, sym = draw(st.sampled_from(pos.neutrals or (("", ""),)))
        if not name:
            return "(is Occupied Site)", lambda p, me, s: cell_holds(p, "Occupied", s, me)
        return f'(holds Site "{name}")', lambda p, me, s: p.content.get(s) == sym
    if kind == "count-around":
        k = draw(st.sampled_from(KINDS))
        d = draw(st.sampled_from(["Adjacent", "All"] + present(board)))
        dirs = board.expand(d)
        assume(any(board.step(c, x) for c in board.cells for x in dirs))
        n = draw(st.integers(0, 3))
        op = draw(st.sampled_from(["=", ">="]))

        def around(p: Position, me: int, s: Cell) -> bool:
            m = sum(cell_holds(p, k, t, me) for t in board.neighbours(s, dirs))
            return m == n if op == "=" else m >= n
        return f"({op} (count-around Site {k} {d}) {n})", around
    if kind == "in":
        text, cells = draw(static_regions(pos))
        return f"(in Site {text})", lambda p, me, s: s in cells
    if kind == "not":
        text, f = draw(site_conditions(pos, depth + 1))
        return f"(not {text})", lambda p, me, s: not f(p, me, s)
    (ta, fa), (tb, fb) = (draw(site_conditions(pos, depth + 1)),
                          draw(site_conditions(pos, depth + 1)))
    return f"(and {ta} {tb})", lambda p, me, s: fa(p, me, s) and fb(p, me, s)


def reach(pos: Position, me: int, start: set[Cell], through: CondFn,
          dirs: list[str]) -> set[Cell]:
    """The start sites and every site reached from them through sites where `through` holds."""
    seen, todo = set(start), list(start)
    while todo:
        x = todo.pop()
        for t in pos.board.neighbours(x, dirs):
            if t not in seen and through(pos, me, t):
                seen.add(t)
                todo.append(t)
    return seen


@st.composite
def dynamic_regions(draw: st.DrawFn, pos: Position, depth: int = 0) -> tuple[str, RegionFn]:
    board = pos.board
    kinds = ["static", "empty", "occupied", "around", "reach", "beyond", "set"]
    kind = draw(st.sampled_from(kinds if depth < 2 else kinds[:3]))
    if kind == "static":
        text, cells = draw(static_regions(pos))
        return text, lambda p, me: cells
    if kind == "empty":
        return "(sites Empty)", lambda p, me: p.empty() - p.specials
    if kind == "occupied":
        role = draw(st.sampled_from(["", "Mover", "Next", "name"]))
        if role == "":
            return "(sites Occupied)", lambda p, me: {c for c, v in p.content.items()
                                                      if v != SPECIAL}
        if role == "name":
            who = draw(st.integers(0, len(pos.roles) - 1))
            return f'(sites Occupied "{pos.roles[who]}")', lambda p, me: p.stones(who)
        if role == "Mover":
            return "(sites Occupied Mover)", lambda p, me: p.stones(me)
        return "(sites Occupied Next)", lambda p, me: p.stones((me + 1) % len(p.roles))
    if kind == "set":
        op = draw(st.sampled_from(["union", "intersection", "difference"]))
        (ta, a), (tb, b) = (draw(dynamic_regions(pos, depth + 1)),
                            draw(dynamic_regions(pos, depth + 1)))
        combine = {"union": set.union, "intersection": set.intersection,
                   "difference": set.difference}[op]
        return f"({op} {ta} {tb})", lambda p, me: combine(a(p, me), b(p, me))
    text, inner = draw(dynamic_regions(pos, depth + 1))
    if kind == "around":
        if draw(st.booleans()):
            ds = board.expand("Adjacent")
            arg = text
        else:
            ds = draw(st.lists(st.sampled_from(present(board)), min_size=1, max_size=3,
                               unique=True))
            arg = f"{text} {{{' '.join(ds)}}}"

        def around(p: Position, me: int) -> set[Cell]:
            got = inner(p, me)
            return {t for c in got for t in board.neighbours(c, ds)} - got
        return f"(sites Around {arg})", around
    cond, through = draw(site_conditions(pos))
    by = draw(st.sampled_from([None, "All"] if not board.hex else [None]))
    dirs = board.expand(by or "Adjacent")
    arg = f"{text} through:{cond}{f' by:{by}' if by else ''}"
    if kind == "reach":
        return f"(sites Reach {arg})", lambda p, me: reach(p, me, inner(p, me), through, dirs)

    def beyond(p: Position, me: int) -> set[Cell]:
        traced = reach(p, me, inner(p, me), through, dirs)
        return {t for c in traced for t in board.neighbours(c, dirs)} - traced
    return f"(sites Beyond {arg})", beyond


def placed(pos: Position, c: Cell) -> Position:
    """The position after the mover puts its piece on c (the mover unchanged)."""
    return Position(pos.board, pos.roles, pos.neutrals, pos.specials,
                    {**pos.content, c: pos.symbol(pos.mover)}, pos.mover)


def end_count(pos: Position, expr: str) -> int:
    """`(count expr)` as end conditions see it, by bisection."""
    lo, hi = 0, len(pos.board.cells)
    while lo < hi:  # the smallest k with count <= k
        mid = (lo + hi) // 2
        if judged(pos, f"(if (<= (count {expr}) {mid}) (win Mover))") is not None:
            hi = mid
        else:
            lo = mid + 1
    return lo


@SETTINGS
@given(st.data())
def test_dynamic_regions_match_referee(data: st.DataObject) -> None:
    pos = data.draw(positions(small=True))
    expr, region = data.draw(dynamic_regions(pos))
    game = compiled(game_text(pos, play=f"(place (sites Empty) if:(in To {expr}))"))
    got = {str(m) for m in game.from_text(pos.text()).legal_moves()}
    want = {c for c in pos.empty() - pos.specials if c in region(placed(pos, c), pos.mover)}
    assert got == pos.names(want), (expr, pos.text())
    assert end_count(pos, expr) == len(region(pos, pos.last)), (expr, pos.text())


@SETTINGS
@given(st.data())
def test_site_conditions_match_referee(data: st.DataObject) -> None:
    """Conditions judged over a region with some and every, in end conditions."""
    pos = data.draw(positions(small=True))
    cond, fn = data.draw(site_conditions(pos))
    text, cells = data.draw(static_regions(pos))
    quantifier = data.draw(st.sampled_from(["some", "every"]))
    verdicts = [fn(pos, pos.last, c) for c in cells]
    want = any(verdicts) if quantifier == "some" else all(verdicts)
    got = judged(pos, f"(if ({quantifier} {text} {cond}) (win Mover))")
    assert got == (pos.roles[pos.last] if want else None), (quantifier, text, cond, pos.text())


# -- sight, links, reachable -----------------------------------------------------------------


def sight(pos: Position, s: Cell, dirs: list[str], gap: int, max_gap: int | None) -> set[Cell]:
    """Sites seen from s: only empty (or special) sites between, `gap` to `max_gap` of them."""
    out = set()
    for d in dirs:
        between = 0
        for t in pos.board.ray(s, d):
            if between >= gap and (max_gap is None or between <= max_gap):
                out.add(t)
            v = pos.content.get(t)
            if v is not None and v != SPECIAL:
                break
            between += 1
    return out


@st.composite
def links(draw: st.DrawFn, pos: Position) -> tuple[str, Callable[[Position, int, Cell],
                                                                   set[Cell]]]:
    """A (link ...) and the referee's function from a site to the sites it links to."""
    board = pos.board
    d = draw(st.sampled_from(["Adjacent", "All"] + present(board)))
    dirs = board.expand(d)
    if draw(st.booleans()):
        gap = draw(st.integers(0, 2))
        max_gap = draw(st.one_of(st.none(), st.integers(gap, 3)))
        rel = f"(sight {d}{f' gap:{gap}' if gap else ''}" \
              f"{f' max-gap:{max_gap}' if max_gap is not None else ''})"

        def related(p: Position, s: Cell) -> set[Cell]:
            return sight(p, s, dirs, gap, max_gap)
    else:
        rel = f"(neighbours {d})"

        def related(p: Position, s: Cell) -> set[Cell]:
            return set(board.neighbours(s, dirs))
    end = draw(st.sampled_from(["To", "From"]))
    kind = draw(st.sampled_from(["Friend", "Enemy", "Occupied", "EmptyOrEnemy", None]))
    cond = f" if:(is {kind} {end})" if kind else ""

    def linked(p: Position, me: int, s: Cell) -> set[Cell]:
        return {t for t in related(p, s)
                if kind is None or cell_holds(p, kind, t if end == "To" else s, me)}
    return f"(link {rel}{cond})", linked


@SETTINGS
@given(st.data())
def test_has_link_matches_referee(data: st.DataObject) -> None:
    pos = data.draw(positions(small=True))
    text, linked = data.draw(links(pos))
    game = compiled(game_text(pos, play=f"(place (sites Empty) if:(has-link To {text}))"))
    got = {str(m) for m in game.from_text(pos.text()).legal_moves()}
    want = {c for c in pos.empty() - pos.specials if linked(placed(pos, c), pos.mover, c)}
    assert got == pos.names(want), (text, pos.text())


@SETTINGS
@given(st.data())
def test_reachable_matches_referee(data: st.DataObject) -> None:
    pos = data.draw(positions(small=True))
    chain = [data.draw(links(pos)) for _ in range(data.draw(st.integers(1, 2)))]
    (tf, start), (tt, goal) = data.draw(static_regions(pos)), data.draw(static_regions(pos))
    role = data.draw(st.sampled_from(["", " for:Next", " for:Mover"]))
    me = pos.mover if role == " for:Next" else pos.last
    seen, todo = set(start), list(start)
    while todo:
        x = todo.pop()
        for _, fn in chain:
            for t in fn(pos, me, x):
                if t not in seen:
                    seen.add(t)
                    todo.append(t)
    want = bool(seen & goal)  # a chain of no links when the regions meet
    event(f"reachable: {want}")
    end = (f"(if (reachable {{{' '.join(t for t, _ in chain)}}} from:{tf} to:{tt}{role}) "
           "(win Mover))")
    assert judged(pos, end) == (pos.roles[pos.last] if want else None), (end, pos.text())


# -- move generators -------------------------------------------------------------------------


def relative(board: Board, name: str, forward: str) -> list[str]:
    """A player-relative direction group for a role advancing towards `forward`."""
    i = COMPASS.index(forward)
    turns = {"Forward": [0], "Backward": [4], "ForwardDiagonal": [-1, 1],
             "Forwards": [-1, 0, 1], "Sideways": [-2, 2]}[name]
    return [d for k in turns if (d := COMPASS[(i + k) % 8]) in board.dirs]


def moves_of(game: Game, pos: Position) -> set[str]:
    return {str(m) for m in game.from_text(pos.text()).legal_moves()}


@st.composite
def step_moves(draw: st.DrawFn, pos: Position,
               forward: list[str]) -> tuple[str, Callable[[Position, int], set[str]]]:
    """A (step ...) and the referee's moves of it for a role."""
    board = pos.board
    d = draw(st.sampled_from(["Adjacent", "All", "Forwards", "ForwardDiagonal", "Sideways",
                              "Backward"] + present(board)))
    to = draw(st.sampled_from([None, "Empty", "Enemy", "EmptyOrEnemy"]))
    frm = draw(st.one_of(st.none(), static_regions(pos)))
    text = f"(step {d}{f' to:{to}' if to else ''}{f' from:{frm[0]}' if frm else ''})"

    def moves(p: Position, who: int) -> set[str]:
        dirs = relative(board, d, forward[who]) if d[0:4] in ("Forw", "Side", "Back") \
            else board.expand(d)
        out = set()
        for s in p.stones(who):
            if frm and s not in frm[1]:
                continue
            for t in board.neighbours(s, dirs):
                if cell_holds(p, to or "Empty", t, who) and p.content.get(t) != SPECIAL:
                    out.add(f"{board.names[s]}-{board.names[t]}")
        return out
    return text, moves


@SETTINGS
@given(st.data())
def test_step_and_stuck_match_referee(data: st.DataObject) -> None:
    pos = data.draw(positions(small=True))
    board = pos.board
    compass = [d for d in COMPASS if d in board.dirs]
    forward = [data.draw(st.sampled_from(compass)) for _ in pos.roles]
    extra = {i: f"forward:{f}" for i, f in enumerate(forward)}
    parts = [data.draw(step_moves(pos, forward)) for _ in range(data.draw(st.integers(1, 2)))]
    play = parts[0][0] if len(parts) == 1 else f"(any-of {' '.join(t for t, _ in parts)})"
    game = compiled(game_text(pos, play=play, player_extra=extra,
                              end="(if (stuck Next) (win Mover))"))
    state = game.from_text(pos.text())
    want = set().union(*(fn(pos, pos.mover) for _, fn in parts))
    event(f"stuck: {not want}")
    assert state.is_over == (not want), (play, forward, pos.text())
    if want:
        assert {str(m) for m in state.legal_moves()} == want, (play, forward, pos.text())
        move = sorted(want)[data.draw(st.integers(0, len(want) - 1))]
        a, b = (board.cell_of[x] for x in move.split("-"))
        after = dict(pos.content)
        after[b] = after.pop(a)
        nxt = Position(board, pos.roles, pos.neutrals, pos.specials, after,
                       (pos.mover + 1) % len(pos.roles))
        stuck = not set().union(*(fn(nxt, nxt.mover) for _, fn in parts))
        result = state.play(move)
        assert result.to_text().splitlines()[:len(board.rows)] == \
            nxt.text().splitlines()[:len(board.rows)], (move, pos.text())
        assert result.is_over == stuck, (play, move, pos.text())


@SETTINGS
@given(st.data())
def test_drop_matches_referee(data: st.DataObject) -> None:
    pos = data.draw(positions(small=True, specials=False))
    board = pos.board
    assume(len(board.cells) > 1)
    d = data.draw(st.sampled_from(present(board)))
    back = {"N": "S", "S": "N", "E": "W", "W": "E", "NE": "SW", "SW": "NE", "NW": "SE",
            "SE": "NW"}[d]
    want, open_above = set(), set()
    for c in pos.empty():
        below = board.step(c, d)
        if all(t not in pos.content for t in board.ray(c, back)):
            open_above.add(board.names[c])
            if below is None or below in pos.content:
                want.add(board.names[c])
    got = moves_of(compiled(game_text(pos, play=f"(drop {d})")), pos)
    assert got == want, (d, pos.text())


def test_exchange_in_one_direction() -> None:
    game = parse_game(f'(game "t" {TWO_ROLES} (board (square 2)) (play (exchange N)) '
                      '(end (if (= 1 0) (draw))))')
    assert [str(m) for m in game.from_text("B .\nA .\nmover: A\n").legal_moves()] == \
        ["a2<>a1"]


def test_walk_onto_a_special_site() -> None:
    game = parse_game(f'(game "t" {TWO_ROLES} (board (square 3)) '
                      '(special "mine" (sites {"b2"}) symbol:"*") '
                      '(play (walk through:(not (is Friend Site)) to:(= 1 1))) '
                      '(end (if (= 1 0) (draw))))')
    moves = {str(m) for m in game.from_text("A . .\n. * .\n. . .\nmover: A\n").legal_moves()}
    assert "a3-b2" not in moves


def test_drop_does_not_fall_through_pieces() -> None:
    game = parse_game(f'(game "t" {TWO_ROLES} (board (square 2)) (play (drop E)) '
                      '(end (if (= 1 0) (draw))))')
    assert {str(m) for m in game.from_text("B .\n. A\nmover: A\n").legal_moves()} == {"a1"}


@SETTINGS
@given(st.data())
def test_exchange_matches_referee(data: st.DataObject) -> None:
    pos = data.draw(positions(small=True))
    board = pos.board
    d = data.draw(st.sampled_from(["Adjacent", "All", "Orthogonal", *present(board)] + (
        ["Diagonal"] if not board.hex and "NE" in present(board) else [])))
    want = set()
    for c in board.cells:
        for t in board.neighbours(c, board.expand(d)):
            a, b = pos.content.get(c), pos.content.get(t)
            if a != b and SPECIAL not in (a, b) and a and b:  # two pieces
                want.add(frozenset((board.names[c], board.names[t])))
    got = {frozenset(m.split("<>")) for m in moves_of(compiled(game_text(
        pos, play=f"(exchange {d})")), pos)}
    assert got == want, (d, pos.text())


@SETTINGS
@given(st.data())
def test_walk_matches_referee(data: st.DataObject) -> None:
    pos = data.draw(positions(small=True))
    board = pos.board
    (tt, through), (tg, goal) = data.draw(site_conditions(pos)), data.draw(site_conditions(pos))
    by = data.draw(st.sampled_from([None, "All"] if not board.hex else [None]))
    dirs = board.expand(by or "Adjacent")
    want = set()
    def passable(p: Position, me: int, t: Cell) -> bool:  # a walker stands on every site
        return through(p, me, t) and t not in p.specials

    for s in pos.stones(pos.mover):
        for t in reach(pos, pos.mover, {s}, passable, dirs) - {s}:
            if goal(pos, pos.mover, t) and t not in pos.specials:
                want.add(f"{board.names[s]}-{board.names[t]}")
    play = f"(walk through:{tt} to:{tg}{f' by:{by}' if by else ''})"
    assert moves_of(compiled(game_text(pos, play=play)), pos) == want, (play, pos.text())


# -- flank -----------------------------------------------------------------------------------


@SETTINGS
@given(st.data())
def test_flank_matches_referee(data: st.DataObject) -> None:
    pos = data.draw(positions(small=True))
    board, me = pos.board, pos.mover
    d = data.draw(st.sampled_from(["Adjacent", "All"] + present(board)))
    remove = data.draw(st.booleans())
    must = data.draw(st.booleans())

    def captures(c: Cell) -> set[Cell]:
        out: set[Cell] = set()
        for x in board.expand(d):
            run = []
            for t in board.ray(c, x):
                o = pos.owner(t)
                if o is None:
                    break
                if o == me:
                    out.update(run)
                    break
                run.append(t)
        return out
    free = pos.empty() - pos.specials
    want = {board.names[c] for c in free if captures(c) or not must}
    play = (f"(place (sites Empty) capture:(flank {d}{' remove:true' if remove else ''})"
            f"{' must-capture:true' if must else ''})")
    game = compiled(game_text(pos, play=play))
    state = game.from_text(pos.text())
    assert {str(m) for m in state.legal_moves()} == want, (play, pos.text())
    if want:
        move = sorted(want)[data.draw(st.integers(0, len(want) - 1))]
        c = board.cell_of[move]
        after = dict(pos.content)
        for t in captures(c):
            if remove:
                del after[t]
            else:
                after[t] = pos.symbol(me)
        after[c] = pos.symbol(me)
        nxt = board.render(after).splitlines()
        assert state.play(move).to_text().splitlines()[:len(nxt)] == nxt, (play, move,
                                                                            pos.text())
