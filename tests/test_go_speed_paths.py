"""The fast paths Go's rules take agree with the plain computations: (sites Surrounded ...)
searching a chain only until it finds a liberty, and (> (count REGION) 0) and the like asking
the region only whether it has a site."""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from pathlib import Path

import pytest

from interpreter import load_game
from stdlib.connectivity import Surrounded
from stdlib.logic import AnyRegion, count, eq, ge, gt, le, lt, ne
from stdlib.runtime import EMPTY, Ctx, Move, literal

GAMES = Path(__file__).resolve().parent.parent / "games"


@cache
def go(size: int):
    return load_game(GAMES / "go.game", size=size, openspiel=True)


def plain_surrounded(board: Sequence[int], owner: Sequence[int], adjacency, no_piece,
                     role: int, recent: Sequence[int] | None) -> list[int]:
    """The sites of role's chains through or next to `recent` (all, for None) with no empty
    neighbour that may hold a piece: every chain flooded whole."""
    starts = range(len(board)) if recent is None else \
        sorted({t for s in recent for t in (s, *adjacency[s])})
    seen: set[int] = set()
    out: list[int] = []
    for start in starts:
        if owner[board[start]] != role or start in seen:
            continue
        chain, free = [start], False
        seen.add(start)
        for s in chain:
            for t in adjacency[s]:
                if board[t] == EMPTY:
                    free = free or t not in no_piece
                elif owner[board[t]] == role and t not in seen:
                    seen.add(t)
                    chain.append(t)
        if not free:
            out.extend(chain)
    return sorted(out)


def boards(game, rng: random.Random, n: int):
    """Random boards (legal Go or not: dead chains stand too), with random recent sites."""
    size = len(game.sites)
    values = [EMPTY, *(game.env.piece_of(r) for r in range(game.roles))]
    for _ in range(n):
        fill = rng.random()
        board = [rng.choice(values[1:]) if rng.random() < fill else EMPTY
                 for _ in range(size)]
        recent = None if rng.random() < 0.2 else \
            tuple(rng.sample(range(size), rng.randint(0, 4)))
        yield board, recent


@pytest.mark.parametrize("size", [3, 5, 9])
def test_surrounded_agrees_with_flooding_every_chain(size: int) -> None:
    game = go(size)
    env = game.env
    adjacency = env.topology.neighbours(env.absolute_dirs("Adjacent"))
    rng = random.Random(size)
    for role in range(game.roles):
        region = Surrounded(env, lambda ctx, r=role: r, "Adjacent")
        assert isinstance(region, AnyRegion)
        for board, recent in boards(game, rng, 400):
            ctx = Ctx(board, 0, None, env, game.owner)
            ctx.last = recent
            expected = plain_surrounded(board, game.owner, adjacency, env.no_piece, role,
                                        recent)
            assert region(ctx) == expected
            assert region.any(ctx) == bool(expected)


def test_surrounded_agrees_along_random_games() -> None:
    """After every move of random 7x7 games: the chains each role has without a liberty,
    near the move and anywhere."""
    game = go(7)
    env = game.env
    adjacency = env.topology.neighbours(env.absolute_dirs("Adjacent"))
    regions = [Surrounded(env, lambda ctx, r=r: r, "Adjacent") for r in range(game.roles)]
    for seed in range(6):
        state = game.initial_state()
        rng = random.Random(seed)
        while not state.is_over:
            state = state.play(rng.choice(state.legal_moves()))
            for recent in (state.last, None):
                for role, region in enumerate(regions):
                    ctx = Ctx(state.board, state.to_move, state, env, game.owner)
                    ctx.last = recent
                    expected = plain_surrounded(state.board, game.owner, adjacency,
                                                env.no_piece, role, recent)
                    assert region(ctx) == expected
                    assert region.any(ctx) == bool(expected)


class Listed(AnyRegion):
    def __init__(self, sites: list[int]) -> None:
        self.sites = sites
        self.asked = 0

    def __call__(self, ctx: Ctx) -> list[int]:
        return self.sites

    def any(self, ctx: Ctx) -> bool:
        self.asked += 1
        return bool(self.sites)


@pytest.mark.parametrize("compare, n, flipped", [
    (gt, 0, False), (ge, 1, False), (ne, 0, False), (eq, 0, False), (lt, 1, False),
    (le, 0, False), (lt, 0, True), (le, 1, True), (eq, 0, True), (ne, 0, True),
    (gt, 1, True), (ge, 0, True), (gt, 1, False), (eq, 2, False), (ge, 2, False)])
def test_comparing_a_count_with_zero_asks_the_region_whether_it_has_a_site(
        compare, n: int, flipped: bool) -> None:
    for sites in ([], [4], [1, 2, 3]):
        region = Listed(sites)
        number = count(region)
        test = compare(literal(n), number) if flipped else compare(number, literal(n))
        a, b = (n, len(sites)) if flipped else (len(sites), n)
        expected = {eq: a == b, ne: a != b, lt: a < b, le: a <= b, gt: a > b,
                    ge: a >= b}[compare]
        assert test(None) == expected
        # Comparisons that only ask whether the region is empty do not list it.
        asks = {gt: 0, ge: 1, ne: 0, eq: 0, lt: 1, le: 0} if not flipped else \
            {lt: 0, le: 1, ne: 0, eq: 0, gt: 1, ge: 0}
        assert (region.asked > 0) == (asks[compare] == n)


def test_surrounded_screen_is_exact_for_single_placements() -> None:
    """Before each move of random 7x7 games (and on random boards), for every placement of
    either role's piece on an empty site: the screen is sure the region is empty right after
    it exactly when it is; a move that changes more than one site is never certain."""
    game = go(7)
    env = game.env
    adjacency = env.topology.neighbours(env.absolute_dirs("Adjacent"))
    regions = [Surrounded(env, lambda ctx, r=r: r, "Adjacent") for r in range(game.roles)]
    pieces = [env.piece_of(r) for r in range(game.roles)]
    rng = random.Random(7)

    def positions():
        for seed in range(4):
            state = game.initial_state()
            play = random.Random(seed)
            while not state.is_over:
                yield state.board
                state = state.play(play.choice(state.legal_moves()))
        for board, _ in boards(game, rng, 300):
            yield board

    checked = 0
    for board in positions():
        for role, region in enumerate(regions):
            ctx = Ctx(board, role, None, env, game.owner)
            screen = region.screen(ctx)
            assert screen is not None
            empties = [s for s, v in enumerate(board) if v == EMPTY]
            for site in empties:
                for value in pieces:
                    move = Move("place", (site,), ((site, value),), ())
                    after = list(board)
                    after[site] = value
                    expected = plain_surrounded(after, game.owner, adjacency, env.no_piece,
                                                role, (site,))
                    assert screen(move) == (not expected), (board, site, value, role)
                    checked += 1
            if len(empties) >= 2:
                a, b = empties[:2]
                assert not screen(Move("place", (a, b), ((a, pieces[0]), (b, pieces[0])), ()))
    assert checked > 10_000


@pytest.mark.parametrize("size, options", [(9, {"openspiel": True}), (5, {}),
                                           (7, {"openspiel": True})])
def test_go_lists_the_same_moves_when_every_move_is_tried(size: int, options: dict,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    """Along whole random games: the legal moves are the same when no step of the turn offers
    a screen (Step.screen), so that every placement is tried with the captures and the
    forbids after it."""
    game = load_game(GAMES / "go.game", size=size, **options)
    steps = {type(step) for phase in game.turns for is_decision, step in phase
             if not is_decision}
    for seed in range(3):
        rng = random.Random(seed)
        state = game.initial_state()
        while not state.is_over:
            # Listed afresh (with explain: a position keeps the moves it listed before).
            moves = [str(m) for m in game.generate(state, {})]
            assert moves == [str(m) for m in state.legal_moves()]
            with monkeypatch.context() as m:
                for cls in steps:
                    m.setattr(cls, "screen", lambda self, ctx: None)
                tried = [str(mv) for mv in game.generate(state, {})]
            assert tried == moves, state.to_text()
            state = state.play(rng.choice(moves))
