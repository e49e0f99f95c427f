"""Minefield (docs/rules/minefield.md), played from position texts.

The glyphs are generated here from their definitions in every rotation and reflection, with
the colours either way round and the new stone in each role, and an independent scanner
(`glyphs`) says what stands on a board."""

from __future__ import annotations

from pathlib import Path

import pytest
import square_referee

from interpreter import GameError, IllegalMoveError, load_game

ROOT = Path(__file__).resolve().parent.parent
GAME = str(ROOT / "games" / "minefield.game")

_games: dict[int, object] = {}


def minefield(size: int):
    if size not in _games:
        _games[size] = load_game(GAME, size=size)
    return _games[size]


# An independent reading of the rules ---------------------------------------------------------

SYMBOL = {"Black": "B", "White": "W"}
ROLE = {"B": "Black", "W": "White"}


def parse_board(text: str) -> tuple[dict[tuple[int, int], str], int]:
    rows = [line.split() for line in text.strip().splitlines() if ":" not in line]
    n = len(rows)
    assert all(len(r) == n for r in rows)
    return {(x, n - 1 - r): c for r, row in enumerate(rows) for x, c in enumerate(row)}, n


def render(b: dict, n: int, mover: str, extra: str = "") -> str:
    rows = [" ".join(b[(x, y)] for x in range(n)) for y in range(n - 1, -1, -1)]
    return "\n".join(rows) + f"\nmover: {mover}\n" + extra


def site(x: int, y: int) -> str:
    return f"{chr(ord('a') + x)}{y + 1}"


def glyphs(b: dict, n: int) -> list[str]:
    """Names of the prohibited glyphs standing on the board (with repetitions)."""
    found = []
    for x in range(n - 1):
        for y in range(n - 1):
            ring = [b[(x, y)], b[(x + 1, y)], b[(x + 1, y + 1)], b[(x, y + 1)]]
            if ring.count(".") == 1:
                i = ring.index(".")
                lone, pair = ring[(i + 2) % 4], (ring[(i + 1) % 4], ring[(i + 3) % 4])
                if pair[0] == pair[1] and lone != pair[0]:
                    found.append("hard corner")
    for k in (3, 4):
        for w, h in ((k, 2), (2, k)):  # horizontal and vertical areas
            for x in range(n - w + 1):
                for y in range(n - h + 1):
                    bl, br = b[(x, y)], b[(x + w - 1, y)]
                    tl, tr = b[(x, y + h - 1)], b[(x + w - 1, y + h - 1)]
                    inner = [b[(x + i, y + j)] for i in range(w) for j in range(h)
                             if (i, j) not in ((0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1))]
                    if "." not in (bl, br, tl, tr) and tl == br and tr == bl and tl != tr \
                            and all(c == "." for c in inner):
                        found.append("switch")
    return found


def expected_moves(b: dict, n: int, mover: str) -> set[str]:
    me = SYMBOL[mover]
    out = set()
    for p, c in b.items():
        if c == ".":
            after = dict(b)
            after[p] = me
            if not glyphs(after, n):
                out.add(site(*p))
    return out or {"pass"}


def connected(b: dict, n: int, sym: str) -> bool:
    """Orthogonal chain: Black top-bottom, White left-right."""
    return square_referee.connected(b, n, sym, top_bottom=sym == "B")


def names(moves) -> set[str]:
    return {str(m) for m in moves}


def board_lines(text: str) -> list[str]:
    return [" ".join(line.split()) for line in text.strip().splitlines() if ":" not in line]


# Glyphs in every orientation -----------------------------------------------------------------

def shape(rows: list[str]) -> dict[tuple[int, int], str]:
    """Cells of a pattern written top row first: {(x, y): symbol}, y upward."""
    h = len(rows)
    return {(x, h - 1 - r): c for r, row in enumerate(rows) for x, c in enumerate(row.split())}


SYMMETRIES = {
    "identity": lambda x, y: (x, y),
    "rot90": lambda x, y: (-y, x),
    "rot180": lambda x, y: (-x, -y),
    "rot270": lambda x, y: (y, -x),
    "mirror": lambda x, y: (-x, y),
    "mirror-rot90": lambda x, y: (-y, -x),
    "mirror-rot180": lambda x, y: (x, -y),
    "mirror-rot270": lambda x, y: (y, x),
}


def oriented(cells: dict, sym: str, at: tuple[int, int] = (1, 1)) -> dict:
    f = SYMMETRIES[sym]
    moved = {f(x, y): c for (x, y), c in cells.items()}
    mx = min(x for x, _ in moved)
    my = min(y for _, y in moved)
    return {(x - mx + at[0], y - my + at[1]): c for (x, y), c in moved.items()}


GLYPHS = {
    "hard corner": ["X O", ". X"],
    "switch 2x3": ["X . O", "O . X"],
    "switch 2x4": ["X . . O", "O . . X"],
}

# What the new stone is in each glyph: (x, y) of the stone in the pattern as written.
ROLES = {
    "hard corner": {"lone stone": (1, 1), "diagonal pair, upper": (0, 1),
                    "diagonal pair, lower": (1, 0)},
    "switch 2x3": {"corner top-left": (0, 1), "corner top-right": (2, 1),
                   "corner bottom-left": (0, 0), "corner bottom-right": (2, 0)},
    "switch 2x4": {"corner top-left": (0, 1), "corner top-right": (3, 1),
                   "corner bottom-left": (0, 0), "corner bottom-right": (3, 0)},
}

SIZE = 6


def build(pattern: dict, colours: dict, n: int = SIZE) -> dict:
    b = {(x, y): "." for x in range(n) for y in range(n)}
    for p, c in pattern.items():
        if c in colours:
            b[p] = colours[c]
    return b


def glyph_cases():
    for glyph, roles in ROLES.items():
        for role in roles:
            for colours in ("X=B", "X=W"):
                for sym in SYMMETRIES:
                    yield glyph, role, colours, sym


def stage(cells: dict, stone: tuple[int, int], sym: str, cols: dict, **where):
    """The shape `cells` oriented by `sym` (see oriented) with X and O coloured by `cols`, the
    stone at `stone` not yet placed: the board before and after placing it, its site and
    the player who places it."""
    marked = dict(cells)
    marked[stone] = "new:" + cells[stone]
    placed = oriented(marked, sym, **where)
    new = next(p for p, c in placed.items() if c.startswith("new:"))
    placed[new] = placed[new][4:]
    after = build(placed, cols)
    before = dict(after)
    before[new] = "."
    return before, after, new, ROLE[cols[placed[new]]]


def _position(glyph: str, role: str, colours: str, sym: str):
    cols = {"X": "B", "O": "W"} if colours == "X=B" else {"X": "W", "O": "B"}
    return stage(shape(GLYPHS[glyph]), ROLES[glyph][role], sym, cols)


@pytest.mark.parametrize("glyph,role,colours,sym", list(glyph_cases()))
def test_each_glyph_is_refused_in_every_orientation_and_role(glyph, role, colours, sym):
    before, after, new, mover = _position(glyph, role, colours, sym)
    name = "hard corner" if glyph == "hard corner" else "switch"
    # the independent scanner: no glyph before, exactly this one after
    assert glyphs(before, SIZE) == []
    assert glyphs(after, SIZE) == [name]
    state = minefield(SIZE).from_text(render(before, SIZE, mover))
    assert not state.is_over
    moves = names(state.legal_moves())
    assert site(*new) not in moves
    assert moves == expected_moves(before, SIZE, mover)
    with pytest.raises(IllegalMoveError) as err:
        state.play(site(*new))
    msg = str(err.value)
    assert site(*new) in msg
    assert name in msg
    if name == "switch":
        assert "hard corner" not in msg


@pytest.mark.parametrize("glyph", ["switch 2x3", "switch 2x4"])
@pytest.mark.parametrize("sym", list(SYMMETRIES))
def test_a_switch_area_with_a_stone_inside_is_not_a_switch(glyph, sym):
    # The switch's corners, and one stone of the X colour in the middle: 2x3 gets both
    # middles filled (one alone always makes a hard corner); 2x4 gets one.
    rows = {"switch 2x3": ["X X O", "O X X"], "switch 2x4": ["X X . O", "O . . X"]}[glyph]
    cells = shape(rows)
    corners = [p for p in cells if p[0] in (0, max(x for x, _ in cells))]
    for colours in ({"X": "B", "O": "W"}, {"X": "W", "O": "B"}):
        for corner in corners:
            before, after, new, mover = stage(cells, corner, sym, colours)
            assert glyphs(before, SIZE) == [] and glyphs(after, SIZE) == []
            state = minefield(SIZE).from_text(render(before, SIZE, mover))
            assert site(*new) in names(state.legal_moves())
            played = state.play(site(*new))
            assert played.piece_at(site(*new)) == mover


NOT_GLYPHS = {
    # three stones of one colour and an empty point
    "three alike": (["X X", ". X"], (1, 1)),
    # the pair is on a side, not on a diagonal
    "pair on a side": (["X X", "O ."], (0, 0)),
    # a 2x3 whose columns are alike (not opposite corners)
    "columns alike 2x3": (["X . O", "X . O"], (2, 0)),
    # a 2x3 whose rows are alike
    "rows alike 2x3": (["X . X", "O . O"], (2, 0)),
    # the switch arrangement over a 2x5 area is no glyph
    "switch over 2x5": (["X . . . O", "O . . . X"], (4, 0)),
    # over a 3x3 area neither
    "switch over 3x3": (["X . O", ". . .", "O . X"], (2, 0)),
    # a 2x3 with only three corners taken
    "three corners": (["X . O", ". . X"], (2, 0)),
}


@pytest.mark.parametrize("case", list(NOT_GLYPHS))
@pytest.mark.parametrize("sym", ["identity", "rot90", "mirror", "mirror-rot90"])
def test_near_misses_are_legal(case, sym):
    rows, stone = NOT_GLYPHS[case]
    cells = shape(rows)
    for colours in ({"X": "B", "O": "W"}, {"X": "W", "O": "B"}):
        before, after, new, mover = stage(cells, stone, sym, colours, at=(0, 0))
        assert glyphs(after, SIZE) == []
        state = minefield(SIZE).from_text(render(before, SIZE, mover))
        assert names(state.legal_moves()) == expected_moves(before, SIZE, mover)
        assert state.play(site(*new)).piece_at(site(*new)) == mover


# The rules' example, verbatim ----------------------------------------------------------------

EXAMPLE = """\
. . . .
B . W .
W . . .
. . . .
mover: Black
"""


def test_rules_example():
    state = minefield(4).from_text(EXAMPLE)
    assert state.mover == "Black" and not state.is_over
    with pytest.raises(IllegalMoveError) as err:
        state.play("b2")
    assert "b2" in str(err.value) and "hard corner" in str(err.value)
    with pytest.raises(IllegalMoveError) as err:
        state.play("c2")
    assert "c2" in str(err.value) and "switch" in str(err.value)
    assert "hard corner" not in str(err.value)
    after = state.play("d2")
    assert after.piece_at("d2") == "Black" and after.mover == "White"
    b, n = parse_board(EXAMPLE)
    moves = names(state.legal_moves())
    assert moves == expected_moves(b, n, "Black")
    assert "d2" in moves and "b2" not in moves and "c2" not in moves


def test_errors_are_game_errors():
    state = minefield(4).from_text(EXAMPLE)
    for bad in ("b2", "a3", "z9", "pass", "a3-b3"):
        with pytest.raises(IllegalMoveError) as err:
            state.play(bad)
        assert isinstance(err.value, GameError)
        assert bad in str(err.value)


# The skip and the draw -----------------------------------------------------------------------

# Black has two empty points and both make a hard corner:
#   c2 -> b1 empty, c2 Black, b2/c1 White;  b1 -> c2 empty, b1 Black, b2/c1 White.
# White may take either, and each completes a White row from a to c.
SKIP = """\
W B B
W W .
W . W
mover: Black
"""

# 4x4: Black's three empty points (b4, d4, c3) are all refused.
SKIP4 = """\
B . W .
B W . W
W W B W
W B W B
mover: Black
"""


@pytest.mark.parametrize("text", [SKIP, SKIP4], ids=["3x3", "4x4"])
def test_skip_when_no_placement_is_legal(text):
    b, n = parse_board(text)
    assert glyphs(b, n) == []
    assert not connected(b, n, "B") and not connected(b, n, "W")
    assert expected_moves(b, n, "Black") == {"pass"}
    state = minefield(n).from_text(text)
    assert names(state.legal_moves()) == {"pass"}
    for p, c in b.items():
        if c == ".":
            with pytest.raises(IllegalMoveError) as err:
                state.play(site(*p))
            assert "hard corner" in str(err.value) or "switch" in str(err.value)
    after = state.play("pass")
    assert not after.is_over and after.mover == "White"
    assert board_lines(after.to_text()) == board_lines(text)
    assert names(after.legal_moves()) == expected_moves(b, n, "White")
    assert "pass" not in names(after.legal_moves())


def test_skip_refusals_name_the_glyph():
    state = minefield(3).from_text(SKIP)
    for s in ("c2", "b1"):
        with pytest.raises(IllegalMoveError) as err:
            state.play(s)
        assert "hard corner" in str(err.value)


def test_pass_refused_while_a_placement_exists():
    state = minefield(4).from_text(EXAMPLE)
    with pytest.raises(IllegalMoveError) as err:
        state.play("pass")
    assert "pass" in str(err.value)


def test_after_a_skip_white_wins():
    state = minefield(3).from_text(SKIP).play("pass")
    for s in ("c2", "b1"):
        won = state.play(s)
        assert won.is_over and won.winner == "White" and won.mover is None


# Full, so neither may place; a chequer board has no chain for either (it holds crosscuts, which
# no game reaches: the position before one holds a hard corner).
FULL = """\
B W B
W B W
B W B
mover: Black
"""


def test_draw_after_two_passes():
    state = minefield(3).from_text(FULL)
    assert not state.is_over
    assert names(state.legal_moves()) == {"pass"}
    one = state.play("pass")
    assert not one.is_over and one.mover == "White"
    assert names(one.legal_moves()) == {"pass"}
    two = one.play("pass")
    assert two.is_over and two.winner is None and two.mover is None
    assert two.legal_moves() == []
    with pytest.raises(IllegalMoveError):
        two.play("pass")


def test_draw_when_the_skip_follows_a_pass():
    state = minefield(3).from_text(SKIP.replace("mover: Black", "mover: Black\npasses: 1"))
    assert not state.is_over
    done = state.play("pass")
    assert done.is_over and done.winner is None


def test_a_pass_then_a_placement_resets_the_count():
    state = minefield(4).from_text(SKIP4).play("pass")
    white = sorted(names(state.legal_moves()))[0]
    after = state.play(white)
    if after.is_over:  # a White win, not a draw
        assert after.winner == "White"
        return
    assert "passes" not in after.to_text()


# Connections ---------------------------------------------------------------------------------

def test_black_wins_top_to_bottom():
    text = """\
. B . .
. B W .
. B . .
. . W .
mover: Black
"""
    state = minefield(4).from_text(text)
    won = state.play("b1")
    assert won.is_over and won.winner == "Black"


def test_white_wins_left_to_right():
    text = """\
. . . .
. . . .
W W W .
. . . .
mover: White
"""
    state = minefield(4).from_text(text)
    assert not state.is_over
    won = state.play("d2")
    assert won.is_over and won.winner == "White"


def test_diagonal_contact_does_not_connect():
    # Black stones on a4, b3, c2 and White placing nothing in between: no hard corner (the
    # diagonal neighbours' 2x2 areas hold two stones and two empty points).
    text = """\
B . . .
. B . .
. . B .
. . . .
mover: Black
"""
    state = minefield(4).from_text(text)
    after = state.play("d1")
    assert not after.is_over
    text = """\
. . . .
. . . W
. . W .
. W . .
mover: White
"""
    after = minefield(4).from_text(text).play("a1")
    assert not after.is_over


def test_wrong_edges_do_not_win():
    text = """\
. . . .
B B B .
. . . .
. . . .
mover: Black
"""
    assert not minefield(4).from_text(text).play("d3").is_over
    text = """\
. W . .
. W . .
. W . .
. . . .
mover: White
"""
    assert not minefield(4).from_text(text).play("b1").is_over


def test_won_position_from_text():
    text = """\
. W . .
B W W W
. W . .
. W . .
mover: Black
"""
    # White b4-b1 joins top and bottom (not White's edges); b3-c3-d3 misses the left edge.
    assert not minefield(4).from_text(text).is_over
    text = """\
. . . .
W W W W
. . . .
B . . .
mover: Black
"""
    state = minefield(4).from_text(text)
    assert state.is_over and state.winner == "White"


# Position text -------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [EXAMPLE, SKIP, SKIP4, FULL],
                         ids=["example", "skip", "skip4", "full"])
def test_round_trip(text):
    n = parse_board(text)[1]
    game = minefield(n)
    state = game.from_text(text)
    assert game.from_text(state.to_text()).to_text() == state.to_text()
    for move in state.legal_moves():
        after = state.play(move)
        assert game.from_text(after.to_text()).to_text() == after.to_text()


def test_pie():
    game = load_game(GAME, size=5, pie=True)
    start = game.initial_state()
    assert "swap" not in names(start.legal_moves())
    first = start.play("c3")
    assert "swap" in names(first.legal_moves())
    swapped = first.play("swap")
    assert swapped.mover == "White" and not swapped.is_over
    assert board_lines(swapped.to_text()) == board_lines(first.to_text())
    assert "swap" not in names(swapped.legal_moves())
    assert game.from_text(swapped.to_text()).to_text() == swapped.to_text()
    declined = first.play("b2")
    assert "swap" not in names(declined.legal_moves())
    # resumed from its text, the game does not offer the swap again
    resumed = game.from_text(first.to_text()).play("b2")
    assert "swap" not in names(resumed.legal_moves())
    with pytest.raises(IllegalMoveError):
        resumed.play("swap")


def test_options():
    game = minefield(5)
    assert game.name == "Minefield"
    assert game.players == ("Black", "White")
    assert game.options["size"] == 5 and game.options["pie"] is False
    assert len(game.sites) == 25 and game.sites[0] == "a5" and game.sites[-1] == "e1"
    default = load_game(GAME)
    assert default.options["size"] == 13
    for bad in ({"size": 2}, {"size": 27}, {"pie": "maybe"}):
        with pytest.raises(GameError):
            load_game(GAME, **bad)
