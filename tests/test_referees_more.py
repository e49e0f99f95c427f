"""More ludemes against brute-force referees written independently of `stdlib` (see
tests/referee_lib.py and tests/test_referees.py): patterns (`pattern`, `forms`,
`count-patterns`, `no-restore`), `connected ... through:`, `line` and `connected` judged after
moves against the same positions read from text, `place-group`, `full` during play and
`phases`, on boards of every shape with up to four roles, neutral pieces and special sites.

What the tests take the pattern documentation to promise: `X` is a piece of one role and `O` a
piece of another (any two different roles when there are more than two, either way round);
neutral pieces are nobody's, so they are never `X` or `O`, but they are pieces for `*`; a
special site never holds a piece, so it is empty for `.` (as for `(is Empty ...)` and sight)
and not a piece for `*`; `?` is anything. A pattern stands on the board in every rotation and
reflection of the board's lattice (8 on squares, 12 on hex boards); a *placement* is one
assignment of the pattern's symbols to sites, the two colours swapped counting as the same
placement, and `count-patterns` counts the placements standing."""

from __future__ import annotations

import random

from hypothesis import assume, event, given, settings
from hypothesis import strategies as st
from referee_lib import (
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
    judged,
    longest_runs,
    present,
    sites_list,
)

from interpreter import parse_game
from interpreter.game import Game


def examples(n: int) -> settings:
    return settings(derandomize=True, database=None, deadline=None, max_examples=n)


SHAPES = ("square", "rectangle", "hex-rhombus", "hexhex", "hex-triangle")




# -- positions (as in test_referees.py) ------------------------------------------------------


@st.composite
def boards(draw: st.DrawFn, shapes: tuple[str, ...] = SHAPES, top: int = 6) -> Board:
    shape = draw(st.sampled_from(shapes))
    if shape == "hexhex":
        return Board(shape, draw(st.integers(1, 3 if top < 6 else 4)))
    if shape == "rectangle":
        return Board(shape, draw(st.integers(1, top)), draw(st.integers(1, top)))
    return Board(shape, draw(st.integers(1, top)))


@st.composite
def positions(draw: st.DrawFn, shapes: tuple[str, ...] = SHAPES, roles: tuple[int, int] = (2, 4),
              neutrals: bool = True, specials: bool = True, top: int = 6) -> Position:
    board = draw(boards(shapes, top))
    names = ROLE_NAMES[:draw(st.integers(*roles))]
    kinds = NEUTRALS[:draw(st.integers(0, 2))] if neutrals else ()
    rng = random.Random(draw(st.integers(0, 2**32)))
    special: set[Cell] = set()
    if specials and draw(st.booleans()):
        special = {c for c in board.cells if rng.random() < 0.12}
    empty_weight = draw(st.sampled_from([0.1, 0.3, 0.5, 0.7]))
    symbols = [r[0] for r in names] + [s for _, s in kinds]
    weights = [1.0] * len(names) + [0.3] * len(kinds)
    content: dict[Cell, str] = {c: SPECIAL for c in special}
    for c in board.cells:
        if c not in special and rng.random() >= empty_weight:
            content[c] = rng.choices(symbols, weights)[0]
    return Position(board, tuple(names), tuple(kinds), frozenset(special), content,
                    draw(st.integers(0, len(names) - 1)))


def with_content(pos: Position, content: dict[Cell, str], mover: int | None = None) -> Position:
    return Position(pos.board, pos.roles, pos.neutrals, pos.specials, content,
                    pos.mover if mover is None else mover)


def board_of(pos: Position, text: str) -> dict[Cell, str]:
    """The content of a board read back from position text (the rows' tokens in order)."""
    lines = text.splitlines()[:len(pos.board.rows)]
    out: dict[Cell, str] = {}
    for row, line in zip(pos.board.rows, lines, strict=True):
        tokens = line.split()
        assert len(tokens) == len(row), text
        for c, v in zip(row, tokens, strict=True):
            if v != ".":
                out[c] = v
    return out






# -- patterns --------------------------------------------------------------------------------

PatternCells = list[tuple[int, int, str]]  # (x, y) in the board's coordinates, y up; symbol


@st.composite
def patterns(draw: st.DrawFn, hex_board: bool, max_rows: int = 3,
             max_cols: int = 3) -> tuple[str, PatternCells]:
    """A random pattern: its ludeme text and its cells in referee coordinates."""
    symbols = st.sampled_from("XXXOOO..**??")
    rows = draw(st.integers(1, max_rows))
    texts, cells = [], []
    for r in range(rows):
        n = draw(st.integers(1, max_cols))
        # hex rows: a row's cells sit half a cell off the row above's (odd indentation change)
        indent = (r % 2 + 2 * draw(st.integers(0, 1))) if hex_board else 0
        syms = [draw(symbols) for _ in range(n)]
        texts.append(" " * indent + " ".join(syms))
        for k, s in enumerate(syms):
            x = indent + 2 * k
            cells.append((x if hex_board else x // 2, -r, s))
    if not any(s in "XO*" for _, _, s in cells):
        i = draw(st.integers(0, len(cells) - 1))
        x, y, _ = cells[i]
        cells[i] = (x, y, draw(st.sampled_from("XO*")))
        texts = render_pattern(cells, hex_board)
    return "(pattern {" + " ".join(f'"{t}"' for t in texts) + "})", cells


def render_pattern(cells: PatternCells, hex_board: bool) -> list[str]:
    rows: dict[int, dict[int, str]] = {}
    for x, y, s in cells:
        rows.setdefault(-y, {})[x if hex_board else 2 * x] = s
    out = []
    for r in sorted(rows):
        line = [" "] * (max(rows[r]) + 1)
        for x, s in rows[r].items():
            line[x] = s
        out.append("".join(line).rstrip())
    return out


def orientations(cells: PatternCells, hex_board: bool) -> list[list[tuple[int, int, str]]]:
    """Every rotation and reflection of the pattern (relative to its first cell)."""
    x0, y0, _ = cells[0]
    rel = [(x - x0, y - y0, s) for x, y, s in cells]
    out = []
    if not hex_board:
        for sx in (1, -1):
            for sy in (1, -1):
                for swap in (False, True):
                    out.append([((sy * y, sx * x) if swap else (sx * x, sy * y)) + (s,)
                                for x, y, s in rel])
        return out
    # hex: half-cell x, row y -> cube coordinates, rotate by 60 degrees, reflect
    cube = [((x - y) // 2, y, -((x - y) // 2) - y, s) for x, y, s in rel]
    for mirror in (False, True):
        shape = [(q, s_, r, sym) for q, r, s_, sym in cube] if mirror else list(cube)
        for _ in range(6):
            out.append([(2 * q + r, r, sym) for q, r, _, sym in shape])
            shape = [(-r, -s_, -q, sym) for q, r, s_, sym in shape]
    return out


SWAP = {"X": "O", "O": "X"}


def placements(board: Board, cells: PatternCells) -> list[dict[Cell, str]]:
    """Every placement of the pattern on the board, colours swapped counting once."""
    seen: set[frozenset[tuple[Cell, str]]] = set()
    out = []
    for shape in orientations(cells, board.hex):
        for ax, ay in board.cells:
            window = {(ax + dx, ay + dy): s for dx, dy, s in shape}
            if not all(c in board.cellset for c in window):
                continue
            key = frozenset(window.items())
            if key in seen:
                continue
            seen.add(key)
            seen.add(frozenset((c, SWAP.get(s, s)) for c, s in window.items()))
            out.append(window)
    return out


def stands(pos: Position, window: dict[Cell, str]) -> bool:
    """Does the placement stand on the position: X and O two different roles' pieces?"""
    colour: dict[str, int] = {}
    for c, s in window.items():
        v = pos.content.get(c)
        if s in "XO":
            o = pos.owner(c)
            if o is None or colour.setdefault(s, o) != o:
                return False
        elif s == "." and v is not None and v != SPECIAL:
            return False
        elif s == "*" and (v is None or v == SPECIAL):
            return False
    return len(colour) < 2 or colour["X"] != colour["O"]


@st.composite
def pattern_case(draw: st.DrawFn, top: int = 6
                 ) -> tuple[Position, list[tuple[str, PatternCells]]]:
    pos = draw(positions(top=top))
    assume(len(pos.board.cells) > 1)
    pats = [draw(patterns(pos.board.hex)) for _ in range(draw(st.sampled_from([1, 1, 2])))]
    return pos, pats


@examples(300)
@given(pattern_case())
def test_count_patterns_matches_referee(case: tuple[Position, list[tuple[str,
                                                                        PatternCells]]]) -> None:
    pos, [(text, cells), *_] = case
    want = sum(stands(pos, w) for w in placements(pos.board, cells))
    event(f"count-patterns > 0: {want > 0}")
    end = f"(if (= (count-patterns {text}) {want}) (win Mover))"
    assert judged(pos, end) == pos.roles[pos.last], (end, pos.text())


@examples(300)
@given(st.data())
def test_forms_in_end_conditions_matches_referee(data: st.DataObject) -> None:
    """From a position text, `forms` looks at every window (or those with an at: site)."""
    pos, pats = data.draw(pattern_case())
    at: set[Cell] | None = None
    at_text = ""
    if data.draw(st.booleans()):
        at = data.draw(st.sets(st.sampled_from(pos.board.cells), max_size=4))
        at_text = " at:" + sites_list(pos.names(at))
    want = any(stands(pos, w) for _, cells in pats for w in placements(pos.board, cells)
               if at is None or at & set(w))
    event(f"forms: {want}")
    end = f"(if (forms {' '.join(t for t, _ in pats)}{at_text}) (win Mover))"
    assert judged(pos, end) == (pos.roles[pos.last] if want else None), (end, pos.text())


@examples(300)
@given(st.data())
def test_forms_filters_placements(data: st.DataObject) -> None:
    """`(place ... unless:(forms P))`: a placement is refused when a placement of P stands,
    after it, in a window containing its site (on the bit-mask path and site by site)."""
    pos, pats = data.draw(pattern_case(top=5))
    board = pos.board
    piece = ""
    symbol = pos.symbol(pos.mover)
    if pos.neutrals and data.draw(st.booleans()):
        name, symbol = data.draw(st.sampled_from(pos.neutrals))
        piece = f' piece:"{name}"'
    how = data.draw(st.sampled_from(["unless", "if"]))
    play = f"(place (sites Empty){piece} {how}:(forms {' '.join(t for t, _ in pats)}))"
    want = set()
    windows = [w for _, cells in pats for w in placements(board, cells)]
    for c in pos.empty() - pos.specials:
        after = with_content(pos, {**pos.content, c: symbol})
        formed = any(c in w and stands(after, w) for w in windows)
        if formed == (how == "if"):
            want.add(board.names[c])
    game = compiled(game_text(pos, play=play))
    got = {str(m) for m in game.from_text(pos.text()).legal_moves()}
    assert got == want, (play, pos.text())


@examples(120)
@given(st.data())
def test_forms_after_moves_matches_referee(data: st.DataObject) -> None:
    """Random playouts: the game ends by `forms` exactly when a placement stands in a window
    containing the site just played."""
    pos, pats = data.draw(pattern_case(top=5))
    board = pos.board
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    game = compiled(game_text(pos, end=f"(if (forms {' '.join(t for t, _ in pats)}) "
                                       "(win Mover))"))
    windows = [w for _, cells in pats for w in placements(board, cells)]
    state = game.from_text(pos.text())
    if state.is_over:
        pos = with_content(pos, {c: v for c, v in pos.content.items() if v == SPECIAL})
        state = game.from_text(pos.text())
        assume(not state.is_over)
    mover = pos.mover
    content = dict(pos.content)
    while not state.is_over:
        moves = state.legal_moves()
        if not moves:
            break
        m = rng.choice(moves)
        state = state.play(m)
        c = board.cell_of[str(m)]
        content[c] = pos.symbol(mover)
        after = with_content(pos, content)
        want = any(c in w and stands(after, w) for w in windows)
        assert state.is_over == want, ([t for t, _ in pats], state.to_text())
        assert not want or state.winner == pos.roles[mover]
        mover = (mover + 1) % len(pos.roles)


# -- conditions on sites (a small set, as in test_referees.py) -------------------------------







@st.composite
def site_conditions(draw: st.DrawFn, pos: Position, depth: int = 0) -> tuple[str, CondFn]:
    board = pos.board
    kind = draw(st.sampled_from(["is", "holds", "count-around", "in", "not", "and"][
        :6 if depth < 1 else 4]))
    if kind == "is":
        k = draw(st.sampled_from(KINDS))
        return f"(is {k} Site)", lambda p, me, s: cell_holds(p, k, s, me)
    if kind == "holds" and pos.neutrals:
        name, sym = draw(st.sampled_from(pos.neutrals))
        return f'(holds Site "{name}")', lambda p, me, s: p.content.get(s) == sym
    if kind == "count-around":
        k = draw(st.sampled_from(KINDS))
        dirs = board.expand("Adjacent")
        n = draw(st.integers(0, 3))
        op = draw(st.sampled_from(["=", ">="]))

        def around(p: Position, me: int, s: Cell) -> bool:
            m = sum(cell_holds(p, k, t, me) for t in board.neighbours(s, dirs))
            return m == n if op == "=" else m >= n
        return f"({op} (count-around Site {k}) {n})", around
    if kind == "not":
        text, f = draw(site_conditions(pos, depth + 1))
        return f"(not {text})", lambda p, me, s: not f(p, me, s)
    if kind == "and":
        (ta, fa), (tb, fb) = (draw(site_conditions(pos, depth + 1)),
                              draw(site_conditions(pos, depth + 1)))
        return f"(and {ta} {tb})", lambda p, me, s: fa(p, me, s) and fb(p, me, s)
    cells = draw(st.sets(st.sampled_from(pos.board.cells), max_size=8))
    return f"(in Site {sites_list(pos.names(cells))})", lambda p, me, s: s in cells


@st.composite
def region_specs(draw: st.DrawFn, board: Board) -> tuple[str, list[set[Cell]]]:
    kind = draw(st.sampled_from(["sides", "sides-nc", "list"]))
    if kind == "sides":
        return "(regions Sides)", list(board.sides().values())
    if kind == "sides-nc":
        return ("(regions Sides corners:false)",
                [board.side(s, corners=False) for s in board.sides()])
    parts, regions = [], []
    for _ in range(draw(st.integers(1, 4))):
        if draw(st.booleans()):
            s = draw(st.sampled_from(sorted(board.sides())))
            parts.append(f"(sites Side {s})")
            regions.append(board.side(s))
        else:
            cells = draw(st.sets(st.sampled_from(board.cells), min_size=1, max_size=4))
            parts.append(sites_list({board.names[c] for c in cells}))
            regions.append(set(cells))
    return "{" + " ".join(parts) + "}", regions


@examples(300)
@given(st.data())
def test_connected_through_matches_referee(data: st.DataObject) -> None:
    pos = data.draw(positions())
    spec, regions = data.draw(region_specs(pos.board))
    cond, fn = data.draw(site_conditions(pos))
    at_least = data.draw(st.sampled_from([None, 1, 1, 2, 2, 3]))
    if at_least is not None and at_least > len(regions):
        at_least = None
    by = data.draw(st.sampled_from([None, "All"] if not pos.board.hex else [None]))
    role = data.draw(st.sampled_from(["Mover", "Next"]))
    who = pos.last if role == "Mover" else pos.mover
    counted = {c for c in pos.stones(who) if fn(pos, who, c)}
    want = connected(pos.board, counted, regions, at_least or len(regions),
                     pos.board.expand(by or "Adjacent"))
    event(f"connected: {want}")
    end = (f"(if (connected {role} regions:{spec}{f' at-least:{at_least}' if at_least else ''}"
           f"{f' by:{by}' if by else ''} through:{cond}) (win Mover))")
    assert judged(pos, end) == (pos.roles[pos.last] if want else None), (end, pos.text())


# -- line and connected after moves, against the same positions read from text ---------------


@st.composite
def playout_plays(draw: st.DrawFn, pos: Position, flips: bool = True) -> str:
    """Turns that add, flip and remove pieces."""
    kind = draw(st.sampled_from(["place", "flank", "flank-remove", "remove"] if flips
                                else ["place", "remove"]))
    if kind == "place":
        return "(place (sites Empty))"
    if kind == "flank":
        return "(place (sites Empty) capture:(flank All))"
    if kind == "flank-remove":
        return "(place (sites Empty) capture:(flank All remove:true))"
    return ("(place (sites Empty)) (remove (sites Occupied Next) "
            "if:(>= (count-around Site Friend) 2))")


def quiet(game: Game, pos: Position) -> Position:
    """The position, or if the end condition holds in it for some role, the same without the
    roles' pieces: an end condition is looked for after a move only where the move changed
    the board, so a playout must start where it holds for no one."""
    if any(game.from_text(with_content(pos, pos.content, i).text()).is_over
           for i in range(len(pos.roles))):
        return with_content(pos, {c: v for c, v in pos.content.items() if pos.owner(c) is None})
    return pos


def playout_agrees(game: Game, pos: Position, rng: random.Random, steps: int = 60) -> None:
    """At every step of a random game, the verdict after the move is the one from_text gives
    for the same position."""
    pos = quiet(game, pos)
    state = game.from_text(pos.text())
    for _ in range(steps):
        if state.is_over:
            break
        moves = state.legal_moves()
        if not moves:
            break
        before = state.to_text()
        m = rng.choice(moves)
        state = state.play(m)
        again = game.from_text(state.to_text())
        assert (state.is_over, state.winner) == (again.is_over, again.winner), \
            (before, str(m), state.to_text())


def line_playout(data: st.DataObject, role: str, exact: bool, flips: bool) -> None:
    pos = data.draw(positions(top=5))
    assume(len(pos.board.cells) > 1)
    pos = with_content(pos, {c: v for c, v in pos.content.items()
                             if v == SPECIAL or data.draw(st.booleans())})
    length = data.draw(st.integers(2, 4))
    play = data.draw(playout_plays(pos, flips=flips))
    end = f"(if (line {length}{role}{' exact:true' if exact else ''}) (win Mover))"
    game = compiled(game_text(pos, play=play, end=end))
    playout_agrees(game, pos, random.Random(data.draw(st.integers(0, 2**32))))


@examples(120)
@given(st.data())
def test_line_after_moves_matches_from_text(data: st.DataObject) -> None:
    line_playout(data, data.draw(st.sampled_from(["", " role:Mover"])), data.draw(st.booleans()),
                 flips=False)


@examples(60)
@given(st.data())
def test_line_of_next_after_moves_matches_from_text(data: st.DataObject) -> None:
    line_playout(data, " role:Next", data.draw(st.booleans()), flips=False)


def test_line_of_next_made_on_its_own_turn() -> None:
    game = parse_game('(game "t" (players {(player "A") (player "B")}) (board (square 2)) '
                      '(play (place (sites Empty))) (end (if (line 2 role:Next) (win Mover))))')
    state = game.initial_state().play("a2").play("b2").play("b1")  # A: a2-b1, B: b2
    state = state.play("a1")  # A, to move, has two in a row (a2-b1)
    assert game.from_text(state.to_text()).winner == "B"
    assert state.winner == "B"


@examples(100)
@given(st.data())
def test_line_exact_after_flips_matches_from_text(data: st.DataObject) -> None:
    line_playout(data, "", True, flips=True)


@examples(100)
@given(st.data())
def test_line_after_flips_matches_from_text(data: st.DataObject) -> None:
    """`line N` (not exact) after moves that flip and remove pieces."""
    pos = data.draw(positions(top=5))
    assume(len(pos.board.cells) > 1)
    pos = with_content(pos, {c: v for c, v in pos.content.items()
                             if v == SPECIAL or data.draw(st.booleans())})
    length = data.draw(st.integers(2, 4))
    play = data.draw(playout_plays(pos))
    end = f"(if (line {length}) (win Mover))"
    game = compiled(game_text(pos, play=play, end=end))
    playout_agrees(game, pos, random.Random(data.draw(st.integers(0, 2**32))))


@examples(120)
@given(st.data())
def test_connected_after_moves_matches_from_text(data: st.DataObject) -> None:
    pos = data.draw(positions(top=5))
    pos = with_content(pos, {c: v for c, v in pos.content.items()
                             if v == SPECIAL or data.draw(st.booleans())})
    spec, regions = data.draw(region_specs(pos.board))
    at_least = data.draw(st.one_of(st.none(), st.integers(1, len(regions))))
    role = data.draw(st.sampled_from(["Mover", "Next"]))
    through = ""
    if data.draw(st.integers(0, 3)) == 0:
        through = " through:" + data.draw(site_conditions(pos))[0]
    play = data.draw(playout_plays(pos))
    end = (f"(if (connected {role} regions:{spec}{f' at-least:{at_least}' if at_least else ''}"
           f"{through}) (win Mover))")
    game = compiled(game_text(pos, play=play, end=end))
    playout_agrees(game, pos, random.Random(data.draw(st.integers(0, 2**32))))


@examples(120)
@given(st.data())
def test_line_and_connected_after_moves_match_referee(data: st.DataObject) -> None:
    """The same, against the referees: after each placement, `line` and `connected` for the
    role that moved."""
    pos = data.draw(positions(top=5, neutrals=False))
    assume(len(pos.board.cells) > 1)
    pos = with_content(pos, {c: v for c, v in pos.content.items() if v == SPECIAL})
    board = pos.board
    length = data.draw(st.integers(2, 4))
    spec, regions = data.draw(region_specs(board))
    end = (f"(if (line {length}) (win Mover)) "
           f"(if (connected Mover regions:{spec}) (lose Mover))")
    game = compiled(game_text(pos, end=end))
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    state = game.from_text(pos.text())
    content, mover = dict(pos.content), pos.mover
    while not state.is_over and state.legal_moves():
        m = rng.choice(state.legal_moves())
        state = state.play(m)
        content[board.cell_of[str(m)]] = pos.symbol(mover)
        after = with_content(pos, content)
        mine = after.stones(mover)
        lined = any(r >= length for r in longest_runs(board, mine, board.axes()))
        joined = connected(board, mine, regions, len(regions), board.expand("Adjacent"))
        assert state.is_over == (lined or joined), state.to_text()
        if lined:
            assert state.winner == pos.roles[mover]
        mover = (mover + 1) % len(pos.roles)


# -- place-group -----------------------------------------------------------------------------


def groups_of(board: Board, size: int, dirs: list[str]) -> set[frozenset[Cell]]:
    """Every connected set of `size` sites."""
    found: set[frozenset[Cell]] = {frozenset([c]) for c in board.cells}
    for _ in range(size - 1):
        found = {g | {t} for g in found for c in g for t in board.neighbours(c, dirs)
                 if t not in g}
    return found


@examples(250)
@given(st.data())
def test_place_group_matches_referee(data: st.DataObject) -> None:
    pos = data.draw(positions(top=4))
    board = pos.board
    size = data.draw(st.integers(1, 3))
    by = data.draw(st.sampled_from([None, "Adjacent", "All"] + present(board)))
    onto = data.draw(st.sampled_from([None, "Empty", "EmptyOrEnemy", "Enemy", "Occupied"]))
    limit = data.draw(st.one_of(st.none(), st.integers(0, 3)))
    supply = data.draw(st.sampled_from([0, 0, 2, 4, 8]))
    me = pos.mover
    on_board = [len(pos.stones(i)) for i in range(len(pos.roles))]
    if supply:
        assume(all(n <= supply for n in on_board))
    want = set()
    for g in groups_of(board, size, board.expand(by or "Adjacent")):
        if any(c in pos.specials for c in g):
            continue
        if not all(cell_holds(pos, onto or "Empty", c, me) for c in g):
            continue
        if limit is not None and sum(c in pos.content for c in g) > limit:
            continue
        if supply and supply - on_board[me] < size:
            continue
        want.add(frozenset(board.names[c] for c in g))
    play = (f"(place-group {size}{f' by:{by}' if by else ''}{f' onto:{onto}' if onto else ''}"
            f"{f' max-replaced:{limit}' if limit is not None else ''})")
    extra = {i: f"supply:{supply}" for i in range(len(pos.roles))} if supply else None
    game = compiled(game_text(pos, play=play, player_extra=extra))
    state = game.from_text(pos.text())
    got = {frozenset(str(m).split(",")) for m in state.legal_moves()}
    assert got == want, (play, supply, pos.text())
    if not want:
        return
    move = sorted(sorted(g) for g in want)[data.draw(st.integers(0, len(want) - 1))]
    # the Move itself: a group of one site cannot be played by its notation (see below)
    after = state.play(next(m for m in state.legal_moves() if set(str(m).split(",")) ==
                            set(move)))
    content = dict(pos.content)
    back = [0] * len(pos.roles)
    for name in move:
        c = board.cell_of[name]
        if (o := pos.owner(c)) is not None:
            back[o] += 1
        content[c] = pos.symbol(me)
    nxt = with_content(pos, content, (me + 1) % len(pos.roles))
    assert board_of(pos, after.to_text()) == content, (play, move, pos.text())
    for r in range(len(pos.roles)):  # every hand: supply minus the pieces on the board
        hand = supply - len(nxt.stones(r)) if supply else 0
        probe = compiled(game_text(pos, play=play, player_extra=extra,
                                   end=f'(if (= (in-hand "{pos.roles[r]}") {hand}) '
                                       '(win Mover))'))
        assert probe.from_text(after.to_text()).winner == pos.roles[me], \
            (play, move, r, pos.text(), after.to_text())


def test_place_group_of_one_plays_by_its_notation() -> None:
    game = parse_game('(game "t" (players {(player "A") (player "B")}) (board (square 2)) '
                      '(play (place-group 1)) (end (if (= 1 0) (draw))))')
    state = game.initial_state()
    assert "a2" in {str(m) for m in state.legal_moves()}
    assert state.play("a2").to_text().startswith("A .")


# -- full during play ------------------------------------------------------------------------


@examples(120)
@given(st.data())
def test_full_during_play_matches_referee(data: st.DataObject) -> None:
    pos = data.draw(positions(top=4))
    board = pos.board
    pos = with_content(pos, {c: v for c, v in pos.content.items()
                             if v == SPECIAL or data.draw(st.booleans())})
    play = data.draw(st.sampled_from([
        "(place (sites Empty))", "(place-group 2)",
        "(first-of (place-group 2) (place (sites Empty)))",
        "(place (sites Empty) capture:(flank All remove:true))",
        "(place (sites Empty)) (remove (sites Occupied Next) if:(= (count-around Site Empty) 0))",
    ]))
    game = compiled(game_text(pos, play=play, end="(if (full) (win Mover))"))
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    state = game.from_text(pos.text())
    assert state.is_over == (not (pos.empty() - pos.specials)), pos.text()
    for _ in range(40):
        if state.is_over or not state.legal_moves():
            break
        state = state.play(rng.choice(state.legal_moves()))
        content = board_of(pos, state.to_text())
        want = all(c in content for c in board.cells)
        event(f"full: {want}")
        assert state.is_over == want, (play, state.to_text())


# -- no-restore ------------------------------------------------------------------------------


@examples(100)
@given(st.data())
def test_no_restore_matches_referee(data: st.DataObject) -> None:
    """Random games under (no-restore P MOVES): the legal moves are those of MOVES except the
    ones that would bring back every content of a placement of P the last move broke."""
    pos = data.draw(positions(shapes=("square", "hex-rhombus", "hexhex"), top=4, roles=(2, 3),
                              specials=False))
    board = pos.board
    assume(len(board.cells) > 3)
    pos = with_content(pos, {c: v for c, v in pos.content.items() if data.draw(st.booleans())})
    # HardCorner stands on the same four sites in several orientations, each a placement.
    if board.hex:
        text, cells = '(pattern {"X O" " O X"})', [(0, 0, "X"), (2, 0, "O"), (1, -1, "O"),
                                                   (3, -1, "X")]
    elif data.draw(st.booleans()):
        text, cells = '("Crosscut")', [(0, 0, "X"), (1, 0, "O"), (0, -1, "O"), (1, -1, "X")]
    else:
        text, cells = '("HardCorner")', [(0, 0, "X"), (1, 0, "O"), (0, -1, "."), (1, -1, "X")]
    windows = placements(board, cells)
    moves = data.draw(st.sampled_from([
        "(any-of (place (sites Empty)) (exchange Adjacent))", "(exchange Adjacent)",
        "(any-of (place-group 2) (exchange Adjacent))",
        "(place (sites Empty) capture:(flank All))"]))
    plain = compiled(game_text(pos, play=moves))
    game = compiled(game_text(pos, play=f"(no-restore {text} {moves})"))
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    state = game.from_text(pos.text())
    before = dict(pos.content)
    restriction: list[dict[Cell, str | None]] = []
    for _ in range(12):
        text_now = state.to_text()
        bare = "\n".join(line for line in text_now.splitlines()
                         if not line.startswith("forbidden:")) + "\n"
        base = plain.from_text(bare)
        want = set()
        for m in base.legal_moves():
            after = board_of(pos, base.play(m).to_text())
            if not any(all(after.get(c) == v for c, v in r.items()) for r in restriction):
                want.add(str(m))
        got = {str(m) for m in state.legal_moves()}
        assert got == want, (text, moves, text_now, restriction)
        if not got:
            break
        m = rng.choice(sorted(got))
        state = state.play(m)
        now = board_of(pos, state.to_text())
        old = with_content(pos, before)
        new = with_content(pos, now)
        restriction = [{c: before.get(c) for c in w} for w in windows
                       if stands(old, w) and not stands(new, w)]
        event(f"restricted: {bool(restriction)}")
        before = now
        if state.is_over:
            break


# -- phases ----------------------------------------------------------------------------------


@examples(120)
@given(st.data())
def test_phases_match_referee(data: st.DataObject) -> None:
    """Two or three stages, each ending after a turn in which its until: holds for the player
    who just moved, the next stage starting with the next player or the same one."""
    pos = data.draw(positions(shapes=("square", "hexhex"), top=4, specials=False,
                              neutrals=False))
    board = pos.board
    pos = Position(board, pos.roles, (("Stone", "x"),), frozenset(), {}, 0)
    n = len(pos.roles)
    stages = []
    for _ in range(data.draw(st.integers(2, 3))):
        k = data.draw(st.integers(1, 3))
        nxt = data.draw(st.sampled_from(["", "Next", "Mover"]))
        stone = data.draw(st.booleans())
        stages.append((k, nxt, stone))
    parts = []
    for i, (k, nxt, stone) in enumerate(stages):
        until = (f" until:(>= (count (sites Occupied Mover)) {k})"
                 f"{f' next:{nxt}' if nxt else ''}") if i < len(stages) - 1 else ""
        piece = ' piece:"Stone"' if stone else ""
        parts.append(f'(phase "s{i}" (place (sites Empty){piece}){until})')
    text = game_text(pos, end="(if (= 1 0) (draw))")
    text = text.replace("(play (place (sites Empty)))", f"(phases {' '.join(parts)})")
    game = compiled(text)
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    state = game.initial_state()
    stage, mover, content = 0, 0, {}
    while state.legal_moves():
        assert state.mover == pos.roles[mover], (text, state.to_text())
        lines = state.to_text().splitlines()
        if stage < len(stages) - 1:
            assert f"phase: s{stage}" in lines, (text, state.to_text())
        m = rng.choice(state.legal_moves())
        state = state.play(m)
        k, nxt, stone = stages[stage]
        content[board.cell_of[str(m)]] = "x" if stone else pos.symbol(mover)
        assert board_of(pos, state.to_text()) == content, (text, state.to_text())
        mine = sum(v == pos.symbol(mover) for v in content.values())
        if stage < len(stages) - 1 and mine >= k:
            stage += 1
            if nxt != "Mover":
                mover = (mover + 1) % n
        else:
            mover = (mover + 1) % n
        if stage == len(stages) - 1:
            assert all(not line.startswith("phase:") for line in state.to_text().splitlines()) \
                or f"phase: s{stage}" in state.to_text()


def test_no_restore_with_a_pattern_of_several_orientations_on_the_same_sites() -> None:
    game = parse_game('(game "t" (players {(player "A") (player "B")}) (board (square 2)) '
                      '(play (no-restore ("HardCorner") (exchange Adjacent))) '
                      '(end (if (= 1 0) (draw))))')
    state = game.from_text("B A\nA .\nmover: A\n").play("a2<>b2")  # breaks the hard corner
    assert state.to_text() .startswith("A B\nA .\n")
    # B's only exchange would bring back b2=A a2=B a1=A b1=.
    assert [str(m) for m in state.legal_moves()] == []
