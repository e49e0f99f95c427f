"""Properties of random Mincut and Minefield games (and of the three example variants),
checked after every move by scanners written here, independently of the interpreter:

- no crosscut ever stands on a Mincut board, no hard corner or switch on a Minefield board;
- every game ends, within a bound that follows from the rules;
- while a game goes on nobody has a connection; a finished game's winner has one (own BFS);
- a draw comes only right after two passes in succession, and two passes always end the game;
- `pass` is offered only when the independent reading finds nothing else.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from square_referee import connected

from interpreter import load_game

ROOT = Path(__file__).resolve().parent.parent

_games: dict[tuple[str, int], object] = {}


def game_of(path: str, size: int):
    key = (path, size)
    if key not in _games:
        _games[key] = load_game(str(ROOT / path), size=size)
    return _games[key]


# Independent scanners ------------------------------------------------------------------------

def read_board(state) -> tuple[dict[tuple[int, int], str], int]:
    """{(x, y): symbol} from the position text; y counts rows from the bottom."""
    rows = [line.split() for line in state.to_text().splitlines() if line and ":" not in line]
    n = len(rows)
    return {(x, n - 1 - r): c for r, row in enumerate(rows) for x, c in enumerate(row)}, n


def crosscuts(b: dict, n: int) -> list[tuple[int, int]]:
    out = []
    for x in range(n - 1):
        for y in range(n - 1):
            p, q, r, s = b[(x, y)], b[(x + 1, y + 1)], b[(x + 1, y)], b[(x, y + 1)]
            if "." not in (p, q, r, s) and p == q and r == s and p != r:
                out.append((x, y))
    return out


def hard_corners(b: dict, n: int) -> list[tuple[int, int]]:
    out = []
    for x in range(n - 1):
        for y in range(n - 1):
            ring = [b[(x, y)], b[(x + 1, y)], b[(x + 1, y + 1)], b[(x, y + 1)]]
            if ring.count(".") == 1:
                i = ring.index(".")
                lone, a, c = ring[(i + 2) % 4], ring[(i + 1) % 4], ring[(i + 3) % 4]
                if a == c and lone != a:
                    out.append((x, y))
    return out


def switches(b: dict, n: int) -> list[tuple[int, int, int, int]]:
    out = []
    for k in (3, 4):
        for w, h in ((k, 2), (2, k)):
            for x in range(n - w + 1):
                for y in range(n - h + 1):
                    bl, br = b[(x, y)], b[(x + w - 1, y)]
                    tl, tr = b[(x, y + h - 1)], b[(x + w - 1, y + h - 1)]
                    if "." in (bl, br, tl, tr) or tl != br or tr != bl or tl == tr:
                        continue
                    corners = {(0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)}
                    if all(b[(x + i, y + j)] == "." for i in range(w) for j in range(h)
                           if (i, j) not in corners):
                        out.append((x, y, w, h))
    return out


def dist(x: int, y: int, n: int) -> int:
    return (2 * x - n + 1) ** 2 + (2 * y - n + 1) ** 2


def site(x: int, y: int) -> str:
    return f"{chr(ord('a') + x)}{y + 1}"


def expected_moves(b: dict, n: int, me: str, forbidden, step_dirs) -> set[str]:
    """The moves of the player with symbol `me`: the placements that leave nothing forbidden;
    if none, the steps in `step_dirs` to an empty site strictly closer to the centre that leave
    nothing forbidden; if none, pass."""
    b = dict(b)
    places = set()
    for p, c in list(b.items()):
        if c == ".":
            b[p] = me
            if not forbidden(b, n):
                places.add(site(*p))
            b[p] = "."
    if places:
        return places
    steps = set()
    for (x, y), c in list(b.items()):
        if c != me:
            continue
        for dx, dy in step_dirs:
            t = (x + dx, y + dy)
            if b.get(t) != "." or dist(*t, n) >= dist(x, y, n):
                continue
            b[(x, y)], b[t] = ".", me
            if not forbidden(b, n):
                steps.add(f"{site(x, y)}-{site(*t)}")
            b[(x, y)], b[t] = me, "."
    return steps or {"pass"}


SYMBOLS = {"Red": "R", "Blue": "B", "Black": "B", "White": "W"}  # as the rules docs list them
DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))
ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))


def minefield_glyphs(b: dict, n: int) -> list:
    return hard_corners(b, n) + switches(b, n)


# A random game, checked after every move -----------------------------------------------------

def play_checked(game, rng: random.Random, *, forbidden, step_dirs=(), max_plies: int,
                 exact: bool = False):
    """Play random legal moves to the end, checking the properties; returns the final state
    and the moves played.  With exact=True every move set is compared with the independent
    reading (otherwise only a lone pass is)."""
    n = int(round(len(game.sites) ** 0.5))
    sides = {game.players[0]: True, game.players[1]: False}  # first role joins top and bottom
    symbols = {role: SYMBOLS[role] for role in game.players}
    state = game.initial_state()
    history: list[str] = []
    while not state.is_over:
        assert len(history) < max_plies, f"no end after {max_plies} moves: {history}"
        b, _ = read_board(state)
        assert forbidden(b, n) == [], (state.to_text(), history)
        for role, tb in sides.items():
            assert not connected(b, n, symbols[role], tb), (role, state.to_text(), history)
        moves = state.legal_moves()
        assert moves, state.to_text()
        notations = [str(m) for m in moves]
        assert len(set(notations)) == len(notations)
        me = symbols[state.mover]
        if exact or notations == ["pass"]:
            assert set(notations) == expected_moves(b, n, me, forbidden, step_dirs), \
                (state.to_text(), history)
        if notations != ["pass"]:
            assert "pass" not in notations, state.to_text()
        mover = state.mover
        move = rng.choice(moves)
        state = state.play(move)
        history.append(str(move))
        if move.kind == "place":
            assert read_board(state)[0][_xy(str(move))] == symbols[mover]
        # two passes in succession end the game, and only they make a draw
        if history[-2:] == ["pass", "pass"]:
            assert state.is_over and state.winner is None, history
    b, _ = read_board(state)
    assert forbidden(b, n) == [], state.to_text()
    if state.winner is None:
        assert history[-2:] == ["pass", "pass"], (state.to_text(), history)
    else:
        assert state.winner == mover  # the player who just moved
        assert history[-1] != "pass"
        sym = symbols[state.winner]
        assert connected(b, n, sym, sides[state.winner]), state.to_text()
        for role, tb in sides.items():
            if role != state.winner:
                assert not connected(b, n, symbols[role], tb), state.to_text()
    assert state.mover is None and state.legal_moves() == []
    assert game.from_text(state.to_text()).to_text() == state.to_text()
    return state, history


def _xy(name: str) -> tuple[int, int]:
    return ord(name[0]) - ord("a"), int(name[1:]) - 1


def mincut_bound(n: int) -> int:
    # at most n*n placements; a diagonal step lowers the stepping stone's integer distance by a
    # multiple of 4, so at most 2 (n - 1)**2 / 4 steps per stone; at most one pass between two
    # other moves (two in succession end the game).
    cells = n * n
    return 2 * (cells + cells * (2 * (n - 1) ** 2) // 4) + 2


def placement_bound(n: int) -> int:
    return 2 * n * n + 2


# Mincut ---------------------------------------------------------------------------------------

@settings(max_examples=100, deadline=None, database=None)
@given(size=st.integers(3, 9), seed=st.integers(0, 2**32 - 1))
def test_mincut_random_games(size, seed):
    game = game_of("games/mincut.game", size)
    state, history = play_checked(game, random.Random(seed), forbidden=crosscuts,
                                  step_dirs=DIAGONAL, max_plies=mincut_bound(size))
    # Mincut cannot be drawn from a crosscut-free board (see test_mincut.py)
    assert state.winner is not None


@pytest.mark.slow
@settings(max_examples=150, deadline=None, database=None)
@given(size=st.integers(3, 6), seed=st.integers(0, 2**32 - 1))
def test_mincut_small_boards_every_move_set(size, seed):
    game = game_of("games/mincut.game", size)
    play_checked(game, random.Random(seed), forbidden=crosscuts, step_dirs=DIAGONAL,
                 max_plies=mincut_bound(size), exact=True)


# Minefield ------------------------------------------------------------------------------------

@settings(max_examples=100, deadline=None, database=None)
@given(size=st.integers(3, 9), seed=st.integers(0, 2**32 - 1))
def test_minefield_random_games(size, seed):
    game = game_of("games/minefield.game", size)
    play_checked(game, random.Random(seed), forbidden=minefield_glyphs,
                 max_plies=placement_bound(size))


@pytest.mark.slow
@settings(max_examples=150, deadline=None, database=None)
@given(size=st.integers(3, 6), seed=st.integers(0, 2**32 - 1))
def test_minefield_small_boards_every_move_set(size, seed):
    game = game_of("games/minefield.game", size)
    play_checked(game, random.Random(seed), forbidden=minefield_glyphs,
                 max_plies=placement_bound(size), exact=True)


# The example variants -------------------------------------------------------------------------

EXAMPLES = ["crosscut-free-hex.game", "minefield-steps.game", "minefield-no-switches.game"]


def test_the_three_examples_are_there():
    assert set(EXAMPLES) <= {p.name for p in (ROOT / "examples").glob("*.game")}


@pytest.mark.parametrize("name", EXAMPLES)
def test_example_loads(name):
    game = load_game(str(ROOT / "examples" / name))
    assert game.players in (("Red", "Blue"), ("Black", "White"))
    n = game.options["size"]
    assert len(game.sites) == n * n
    state = game.initial_state()
    assert {str(m) for m in state.legal_moves()} == set(game.sites)


@settings(max_examples=40, deadline=None, database=None)
@given(size=st.integers(3, 8), seed=st.integers(0, 2**32 - 1))
def test_crosscut_free_hex_random_games(size, seed):
    game = game_of("examples/crosscut-free-hex.game", size)
    play_checked(game, random.Random(seed), forbidden=crosscuts,
                 max_plies=placement_bound(size))


@settings(max_examples=40, deadline=None, database=None)
@given(size=st.integers(3, 8), seed=st.integers(0, 2**32 - 1))
def test_minefield_steps_random_games(size, seed):
    game = game_of("examples/minefield-steps.game", size)
    state, history = play_checked(game, random.Random(seed), forbidden=minefield_glyphs,
                                  step_dirs=DIAGONAL, max_plies=mincut_bound(size))
    for m in history:
        if "-" in m:
            (fx, fy), (tx, ty) = (_xy(s) for s in m.split("-"))
            assert abs(fx - tx) == 1 and abs(fy - ty) == 1, m
            assert dist(tx, ty, size) < dist(fx, fy, size), m


@settings(max_examples=40, deadline=None, database=None)
@given(size=st.integers(3, 8), seed=st.integers(0, 2**32 - 1))
def test_minefield_no_switches_random_games(size, seed):
    game = game_of("examples/minefield-no-switches.game", size)
    play_checked(game, random.Random(seed), forbidden=hard_corners,
                 max_plies=placement_bound(size))


def test_minefield_no_switches_allows_a_switch():
    game = game_of("examples/minefield-no-switches.game", 4)
    text = """\
. . . .
B . W .
W . . .
. . . .
mover: Black
"""
    state = game.from_text(text)
    after = state.play("c2")  # the rules' example: a switch, allowed here
    b, n = read_board(after)
    assert switches(b, n) and not hard_corners(b, n)
    with pytest.raises(Exception, match="hard corner"):
        state.play("b2")
