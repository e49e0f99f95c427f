"""The chains a position keeps move by move (stdlib/chains.py) are the chains a flood of the
board finds, whatever changes a board goes through; the answers (sites Surrounded ...) and its
screens draw from them are those of the board itself; and a move the screens pass after the
changes the steps before certainly make (MoveScreen.then) is legal when tried.

Every example is drawn the same way on every run (hypothesis derandomized, fixed seeds)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter import load_game
from interpreter.game import _passes_after, _placement_verdicts
from stdlib.chains import UNKNOWN, ChainData, Chains
from stdlib.connectivity import Surrounded
from stdlib.runtime import EMPTY, NEUTRAL, NOBODY, Ctx, Placements
from stdlib.steps import MoveScreen

GAMES = Path(__file__).resolve().parent.parent / "games"
OWNER = (NOBODY, 0, 1, NEUTRAL)  # empty, a piece of each role, a piece of nobody's


@cache
def go(size: int, openspiel: bool = True):
    return load_game(GAMES / "go.game", size=size, openspiel=openspiel)


def adjacency(size: int) -> list[tuple[int, ...]]:
    env = go(size).env
    return env.topology.neighbours(env.absolute_dirs("Adjacent"))


def flood(board: Sequence[int], near: Sequence[Sequence[int]], no_piece: frozenset[int],
          site: int) -> tuple[frozenset[int], frozenset[int]]:
    """The chain through `site` (a role's piece) and its liberties, by flooding the board."""
    role = OWNER[board[site]]
    stones, libs = {site}, set()
    todo = [site]
    while todo:
        s = todo.pop()
        for t in near[s]:
            if board[t] == EMPTY:
                if t not in no_piece:
                    libs.add(t)
            elif OWNER[board[t]] == role and t not in stones:
                stones.add(t)
                todo.append(t)
    return frozenset(stones), frozenset(libs)


def check(tracker: Chains, data: ChainData, board: list[int], no_piece: frozenset[int]
          ) -> None:
    """The data describes the board: each piece's chain and liberties, the empty sites and
    the crowded ones, and each role's single liberties."""
    near = tracker.adjacency
    assert data.cells == board
    empty = {s for s, v in enumerate(board) if v == EMPTY and s not in no_piece}
    assert data.empty == sum(1 << s for s in empty)
    assert data.crowded == sum(1 << s for s in empty if not empty & set(near[s]))
    singles = [0, 0]
    for s, v in enumerate(board):
        if OWNER[v] < 0:
            assert data.chain[s] < 0 and data.chain[s] != UNKNOWN
            continue
        stones, libs = flood(board, near, no_piece, s)
        c = tracker.find(data, s)
        found, mask, liberties = data.chains[c]
        assert c in stones and set(found) == stones and len(found) == len(stones)
        assert mask == sum(1 << t for t in stones)
        assert liberties == sum(1 << t for t in libs)
        if len(libs) == 1:
            singles[OWNER[v]] |= liberties
    for role in (0, 1):
        assert tracker.single_liberties(data, role) == singles[role]


@settings(max_examples=120)
@given(st.data())
def test_chains_follow_any_changes(data: st.DataObject) -> None:
    """Pieces put, taken off and replaced anywhere (not only Go's moves), chains joined and
    broken: after each change the tracker's data is the board's, and a copy made before the
    change still describes the board it was made for."""
    size = data.draw(st.sampled_from([3, 4, 5]), label="size")
    near = adjacency(size)
    n = size * size
    no_piece = frozenset(data.draw(st.sets(st.integers(0, n - 1), max_size=3),
                                   label="special sites"))
    values = st.integers(0, len(OWNER) - 1)
    board = [EMPTY if s in no_piece else data.draw(values) for s in range(n)]
    tracker = Chains(near, OWNER, no_piece, n)
    chains = tracker.build(board)
    if data.draw(st.booleans(), label="ask first"):
        check(tracker, chains, board, no_piece)
    for _ in range(data.draw(st.integers(1, 25), label="changes")):
        site = data.draw(st.integers(0, n - 1).filter(lambda s: s not in no_piece))
        value = data.draw(values)
        kept, before = tracker.copy(chains), list(board)
        old, board[site] = board[site], value
        chains = tracker.update(chains, board, site, old, value)
        if data.draw(st.booleans(), label="ask now"):
            check(tracker, chains, board, no_piece)
        if data.draw(st.integers(0, 4), label="ask the copy") == 0:
            check(tracker, kept, before, no_piece)
    check(tracker, chains, board, no_piece)


def positions(game, seeds: range, limit: int = 300):
    for seed in seeds:
        rng = random.Random(seed)
        state = game.initial_state()
        plies = 0
        while not state.is_over and plies < limit:
            yield rng, state
            state = state.play(rng.choice(state.legal_moves()))
            plies += 1


@pytest.mark.parametrize("size", [5, 9])
def test_positions_keep_the_chains_of_their_boards(size: int) -> None:
    """Along random games (states made by play, each from a copy of the last one's data),
    the chains a position keeps are its board's."""
    game = go(size)
    tracker = Surrounded(game.env, lambda ctx: 0, "Adjacent").tracker
    checked = 0
    for _, state in positions(game, range(4)):
        data = state.track[tracker.slot]
        if data is not None:
            check(tracker, data, state.board, game.env.no_piece)
            checked += 1
    assert checked > 100


def surrounded_after(region: Surrounded, env, owner, board: list[int],
                     changes: tuple[tuple[int, int], ...]) -> list[int]:
    """What the region says on the board after the changes, judged as a step after them is."""
    after = list(board)
    for s, v in changes:
        after[s] = v
    ctx = Ctx(after, 0, None, env, owner)
    ctx.last = tuple(s for s, _ in changes)
    return region(ctx)


@pytest.mark.parametrize("size, openspiel", [(5, True), (7, False)])
def test_screens_after_changes_are_the_region_after_them(size: int, openspiel: bool) -> None:
    """On positions of random games, for each role's region and random changes (a piece put
    on an empty site, with pieces taken off or not, or any changes at all): the screen's sites
    after the changes, and its verdict, are the region's on the board after them."""
    game = go(size, openspiel)
    env, owner = game.env, game.owner
    regions = [Surrounded(env, lambda ctx, r=r: r, "Adjacent") for r in range(game.roles)]
    pieces = [env.piece_of(r) for r in range(game.roles)]
    shapes = {"capture": 0, "any": 0}
    for rng, state in positions(game, range(3), 120):
        board = state.board
        empty = [s for s, v in enumerate(board) if v == EMPTY]
        occupied = [s for s, v in enumerate(board) if v != EMPTY]
        ctx = Ctx(board, state.to_move, state, env, owner)
        ctx.last = state.last
        for region in regions:
            screen = region.screen(ctx)
            assert isinstance(screen, MoveScreen)
            for _ in range(6):
                if empty and rng.random() < 0.7:
                    placed = rng.choice(pieces)
                    taken = rng.sample(occupied, min(len(occupied), rng.randint(0, 3)))
                    changes = ((rng.choice(empty), placed), *((s, EMPTY) for s in taken))
                    shapes["capture"] += 1
                else:
                    sites = rng.sample(range(len(board)), rng.randint(0, 4))
                    changes = tuple((s, rng.choice([EMPTY, *pieces])) for s in sites)
                    shapes["any"] += 1
                expected = surrounded_after(region, env, owner, board, changes)
                assert screen.sites_after(changes) == expected, (state.to_text(), changes)
                assert (screen.then(changes) == ()) == (not expected)
    assert min(shapes.values()) > 100


@pytest.mark.parametrize("size, openspiel", [(5, True), (7, False), (9, True)])
def test_moves_passed_after_the_steps_changes_are_legal(size: int, openspiel: bool) -> None:
    """A placement the screens do not decide (a capture) that they pass once the steps
    before each have made their changes (_passes_after) is legal when tried; each one the
    engine would otherwise try is judged so, and most are decided without trying."""
    game = go(size, openspiel)
    after = [step for is_decision, step in game.turns[0][1:] if not is_decision]
    passed = tried = 0
    for _, state in positions(game, range(3)):
        ctx = Ctx(state.board, state.to_move, state, game.env, game.owner)
        ctx.last = state.last
        screens = [step.screen(ctx) for step in after]
        assert all(isinstance(s, MoveScreen) for s in screens)
        value = game.env.piece_of(state.to_move)
        sites = [s for s, v in enumerate(state.board) if v == EMPTY]
        part = Placements(sites, value, game.env.placements(value))
        verdicts = _placement_verdicts(screens, part)  # type: ignore[arg-type]
        assert verdicts is not None
        decided = verdicts[0] | verdicts[1]
        for s in sites:
            move = part.row[s]
            if decided >> s & 1:
                continue
            if _passes_after(screens, move):  # type: ignore[arg-type]
                assert game._forbidden(ctx, move, after) is None, (state.to_text(), s)
                passed += 1
            else:
                tried += 1
    assert passed > 50 and passed > 5 * tried
