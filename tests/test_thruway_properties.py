"""Properties of random Thruway games (docs/rules/thruway.md), driven by hypothesis.

Each example plays one random game (board size 5-11, a supply, pie on or off, moves chosen by a
`random.Random` seeded by hypothesis) and checks something at every position. The rule checks
(indestructible tiles, thruways, which moves are legal, what the no-recreation rule forbids) are
computed here from the position text, independently of the interpreter.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interpreter import GameError, IllegalMoveError, load_game

# When a test fails, hypothesis's pytest plugin imports libcst, which imports mypy_extensions,
# which warns; under `-W error` that would hide the failure behind an INTERNALERROR.
pytestmark = pytest.mark.filterwarnings(
    "ignore:mypy_extensions.TypedDict is deprecated:DeprecationWarning")

GAMES = Path(__file__).resolve().parent.parent / "games"
ROLES = ("Concrete", "Asphalt")
SYMBOL = {"Concrete": "C", "Asphalt": "A"}

FAST = settings(max_examples=20, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=50, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow])


@cache
def thruway(size: int, supply: int, pie: bool):
    return load_game(GAMES / "thruway.game", size=size, supply=supply, pie=pie)


@st.composite
def setups(draw: st.DrawFn, small: bool = False) -> tuple[object, int, int]:
    """(game, supply, seed)."""
    size = draw(st.integers(5, 8 if small else 11))
    supply = draw(st.sampled_from([60, 0, 5, 12, 30]))
    pie = draw(st.booleans())
    seed = draw(st.integers(0, 2**32 - 1))
    return thruway(size, supply, pie), supply, seed


def transitions(game, seed: int) -> Iterator[tuple[object, str | None, object | None]]:
    """(state, move, next state) along one random game; the last triple is (final, None, None).
    Fails if the game has not ended after 20 moves per site."""
    rng = random.Random(seed)
    state = game.initial_state()
    bound = 20 * len(game.sites)
    for _ in range(bound):
        if state.is_over:
            yield state, None, None
            return
        legal = state.legal_moves()
        assert legal, f"no legal move and the game is not over:\n{state.to_text()}"
        move = str(rng.choice(legal))
        nxt = state.play(move)
        yield state, move, nxt
        state = nxt
    pytest.fail(f"no end after {bound} moves:\n{state.to_text()}")


# --- reading a position independently ----------------------------------------------------------

Cell = tuple[int, int]  # (row from the top, column)


def read(text: str) -> tuple[list[list[str]], dict[str, str]]:
    rows: list[list[str]] = []
    keys: dict[str, str] = {}
    for line in text.splitlines():
        if not line.strip():
            continue
        if ":" in line:
            k, _, v = line.partition(":")
            keys[k.strip()] = v.strip()
        else:
            rows.append(line.split())
    return rows, keys


def name(cell: Cell, n: int) -> str:
    r, c = cell
    return f"{chr(ord('a') + c)}{n - r}"


def neighbours(cell: Cell, n: int) -> list[Cell]:
    r, c = cell
    return [(rr, cc) for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
            if 0 <= rr < n and 0 <= cc < n]


def squares(n: int) -> list[tuple[Cell, Cell, Cell, Cell]]:
    """Every 2x2 square as (top-left, top-right, bottom-left, bottom-right)."""
    return [((r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1))
            for r in range(n - 1) for c in range(n - 1)]


def is_dispute(g: list[list[str]], sq: tuple[Cell, Cell, Cell, Cell]) -> bool:
    tl, tr, bl, br = (g[r][c] for r, c in sq)
    return "." not in (tl, tr, bl, br) and tl == br and tr == bl and tl != tr


def disputes(g: list[list[str]]) -> list[tuple[Cell, Cell, Cell, Cell]]:
    return [sq for sq in squares(len(g)) if is_dispute(g, sq)]


def indestructible(g: list[list[str]]) -> set[Cell]:
    n = len(g)
    disputed = {cell for sq in disputes(g) for cell in sq}
    return {(r, c) for r in range(n) for c in range(n)
            if g[r][c] != "." and (r, c) not in disputed
            and all(g[rr][cc] != "." for rr, cc in neighbours((r, c), n))}


def has_thruway(g: list[list[str]], role: str) -> bool:
    n = len(g)
    solid = {cell for cell in indestructible(g) if g[cell[0]][cell[1]] == SYMBOL[role]}
    axis = 1 if role == "Concrete" else 0  # Concrete: west (column 0) to east; Asphalt: N to S
    todo = [cell for cell in solid if cell[axis] == 0]
    seen = set(todo)
    while todo:
        cell = todo.pop()
        if cell[axis] == n - 1:
            return True
        for nxt in neighbours(cell, n):
            if nxt in solid and nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return False


def count(g: list[list[str]], symbol: str) -> int:
    return sum(row.count(symbol) for row in g)


Restriction = frozenset[frozenset[tuple[Cell, str]]]


def resolved(before: list[list[str]], after: list[list[str]]) -> Restriction:
    """The 2x2 squares a move resolved (a dispute before, none after), with their old
    contents: what the next move may not bring back."""
    return frozenset(frozenset((cell, before[cell[0]][cell[1]]) for cell in sq)
                     for sq in disputes(before) if not is_dispute(after, sq))


def expected_moves(g: list[list[str]], mover: str, reserve: int | None, ban: Restriction,
                   pie: bool) -> set[str]:
    """The legal moves by the rules, each normalised by `norm`."""
    n = len(g)
    me, other = SYMBOL[mover], SYMBOL[ROLES[1 - ROLES.index(mover)]]
    candidates: list[tuple[str, dict[Cell, str]]] = []
    if reserve is None or reserve >= 2:
        for r in range(n):
            for c in range(n):
                for a, b in (((r, c), (r, c + 1)), ((r, c), (r + 1, c))):
                    if b[0] >= n or b[1] >= n:
                        continue
                    cells = (g[a[0]][a[1]], g[b[0]][b[1]])
                    if sorted(cells) in (sorted(".."), sorted("." + other)):
                        candidates.append((norm(f"{name(a, n)},{name(b, n)}"), {a: me, b: me}))
    for tl, tr, bl, br in disputes(g):
        for a, b in ((tl, tr), (bl, br), (tl, bl), (tr, br)):
            candidates.append((norm(f"{name(a, n)}<>{name(b, n)}"),
                               {a: g[b[0]][b[1]], b: g[a[0]][a[1]]}))
    out = set()
    for move, changes in candidates:
        after = {cell: changes.get(cell, g[cell[0]][cell[1]])
                 for window in ban for cell, _ in window}
        if any(all(after[cell] == old for cell, old in window) for window in ban):
            continue
        out.add(move)
    if not out:
        out.add("pass")
    if pie:
        out.add("swap")
    return out


def norm(move: str) -> str:
    """A move's notation with the sites of a pave or swap sorted, so order does not matter."""
    for sep in ("<>", ","):
        if sep in move:
            return sep.join(sorted(p.strip() for p in move.split(sep)))
    return move


def forbidden_key(value: str | None, n: int) -> Restriction:
    """The `forbidden:` key read back as cells and symbols."""
    if not value:
        return frozenset()
    out = set()
    for part in value.split(";"):
        cells = set()
        for item in part.split():
            site, _, sym = item.partition("=")
            c, r = ord(site[0]) - ord("a"), n - int(site[1:])
            cells.add(((r, c), sym))
        out.add(frozenset(cells))
    return frozenset(out)


# =============================================================================================
# Properties
# =============================================================================================

@FAST
@given(setups())
def test_reserve_plus_board_is_the_supply(setup):
    game, supply, seed = setup
    for state, _, _ in transitions(game, seed):
        g, keys = read(state.to_text())
        for role in ROLES:
            if supply == 0:
                assert state.in_hand(role) is None
                assert not any(k.startswith("reserve") for k in keys)
            else:
                assert state.in_hand(role) is not None
                assert 0 <= state.in_hand(role) <= supply
                assert state.in_hand(role) + count(g, SYMBOL[role]) == supply, state.to_text()


@pytest.mark.slow
@SLOW
@given(setups())
def test_winner_has_a_locked_in_road_and_no_one_else_ever_does(setup):
    # (A road through a disputed tile shows up at the end of about one random game in 15, so
    # this property gets more examples than the others.)
    game, _, seed = setup
    history: list[str] = []
    for state, move, _ in transitions(game, seed):
        g, _ = read(state.to_text())
        roads = {role for role in ROLES if has_thruway(g, role)}
        if not state.is_over:
            assert not roads, f"{roads} hold a thruway but the game goes on:\n{state.to_text()}"
            assert state.mover in ROLES
            history.append(move)
            continue
        assert state.mover is None
        assert state.legal_moves() == []
        if state.winner is not None:
            assert roads == {state.winner}, state.to_text()
        else:
            assert not roads
            assert history[-2:] == ["pass", "pass"], history[-4:]


@FAST
@given(setups())
def test_every_game_ends_by_a_thruway_or_two_passes(setup):
    game, _, seed = setup
    history: list[str] = []
    final = None
    for state, move, nxt in transitions(game, seed):
        if move is None:
            final = state
        else:
            history.append(move)
            # Two passes in succession end the game at once.
            if history[-2:] == ["pass", "pass"]:
                assert nxt.is_over and nxt.winner is None
    assert final is not None and final.is_over
    if final.winner is None:
        assert history[-2:] == ["pass", "pass"]
    else:
        assert final.winner in ROLES
        assert history[-1] not in ("pass", "swap")  # they change no tile: they complete nothing


@FAST
@given(setups(small=True))
def test_play_never_mutates(setup):
    game, _, seed = setup
    for state, move, nxt in transitions(game, seed):
        if move is None:
            with pytest.raises(GameError):
                state.play("a1,a2")
            continue
        text = state.to_text()
        legal = [str(m) for m in state.legal_moves()]
        hands = [state.in_hand(r) for r in ROLES]
        with pytest.raises(IllegalMoveError):
            state.play("a1,c3")  # never adjacent
        again = state.play(move)
        assert again.to_text() == nxt.to_text()  # playing is deterministic
        assert state.to_text() == text
        assert [str(m) for m in state.legal_moves()] == legal
        assert [state.in_hand(r) for r in ROLES] == hands
        assert not state.is_over and state.mover in ROLES


@FAST
@given(setups())
def test_position_text_round_trips(setup):
    game, _, seed = setup
    for state, _, _ in transitions(game, seed):
        text = state.to_text()
        back = game.from_text(text)
        assert back.to_text() == text
        assert back.mover == state.mover
        assert back.is_over == state.is_over
        assert back.winner == state.winner
        assert {str(m) for m in back.legal_moves()} == {str(m) for m in state.legal_moves()}
        for role in ROLES:
            assert back.in_hand(role) == state.in_hand(role)


@pytest.mark.slow
@SLOW
@given(setups(small=True))
def test_a_position_read_back_plays_on_like_the_original(setup):
    # Whatever the text leaves out must not matter: the state read from it and the original
    # must agree after the next move too (and on its legal moves).
    game, _, seed = setup
    for state, move, nxt in transitions(game, seed):
        if move is None:
            continue
        back = game.from_text(state.to_text()).play(move)
        assert back.to_text() == nxt.to_text(), (state.to_text(), move)
        assert {str(m) for m in back.legal_moves()} == {str(m) for m in nxt.legal_moves()}


@pytest.mark.slow
@SLOW
@given(setups())
def test_legal_moves_follow_the_rules(setup):
    game, _, seed = setup
    ban: Restriction = frozenset()
    previous = None
    plies = 0
    swapped = False
    for state, move, nxt in transitions(game, seed):
        if move is None:
            break
        text = state.to_text()
        g, keys = read(text)
        n = len(g)
        # The no-recreation memory, from the previous and current boards alone.
        ban = resolved(previous, g) if previous is not None else frozenset()
        assert forbidden_key(keys.get("forbidden"), n) == ban, text
        pie = game.options["pie"] and plies == 1 and not swapped
        expected = expected_moves(g, state.mover, state.in_hand(state.mover), ban, pie)
        actual = {norm(str(m)) for m in state.legal_moves()}
        assert actual == expected, (text, actual ^ expected)
        previous = g
        plies += 1
        if move == "swap":
            swapped = True
            assert read(nxt.to_text())[0] == g
            assert nxt.mover == state.mover == "Asphalt"
