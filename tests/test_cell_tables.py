"""The speed-ups behind Mattock's random playouts (cell tables looked up by tracing and walking,
count-around reading a site's neighbours at once, moves not checked against the hand) give
the same answers as judging the rules directly.

Positions come from random Mattock games on the full board; the legal moves are worked out
here again from the board alone, by the rules in docs/rules/mattock.md, and must come in the
same order (the random playout picks a move by its index)."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest

from interpreter import load_game
from stdlib.logic import and_, count_around, holds, is_, not_, site_table, site_verdicts
from stdlib.parts import mark
from stdlib.regions import _trace, tracer
from stdlib.runtime import EMPTY, Ctx

ROOT = Path(__file__).resolve().parent.parent


class SiteVar:
    """The constant Site, as the compiler makes it (a closure whose parts name its variable)."""

    def __init__(self) -> None:
        mark(self).site_var = "site"

    def __call__(self, ctx: Ctx) -> int:
        return ctx.site


SITE = SiteVar()


@cache
def mattock():
    return load_game(ROOT / "games" / "mattock.game")


def positions(seed: int, count: int):
    """The states of a random game of Mattock, up to `count` of them."""
    game = mattock()
    rng = random.Random(seed)
    state = game.initial_state()
    out = [state]
    while not state.is_over and len(out) < count:
        moves = state.legal_moves()
        if not moves:
            break
        state = state.play(rng.choice(moves))
        out.append(state)
    return out


def values(game):
    """Board values of a tile, Red's miner and Blue's miner."""
    by_name = {p.name: p.value for p in game.env.pieces}
    return by_name["Tile"], game.env.piece_of(0), game.env.piece_of(1)


def reference_moves(state) -> list[str]:
    """The legal moves of a Mattock position, from the written rules."""
    game = state.game
    env = game.env
    adjacency = env.topology.neighbours(env.absolute_dirs("Adjacent"))
    names = env.names
    board = state.board
    tile, *miners = values(game)
    mover = state.to_move
    own, enemy = miners[mover], miners[1 - mover]

    def passable(s: int) -> bool:  # a tile with no opponent miner on it
        return board[s] != EMPTY and board[s] != enemy

    def reached(starts: list[int]) -> set[int]:
        seen, stack = set(starts), list(starts)
        while stack:
            for t in adjacency[stack.pop()]:
                if t not in seen and passable(t):
                    seen.add(t)
                    stack.append(t)
        return seen

    def occupied_around(s: int) -> int:
        return sum(1 for t in adjacency[s] if board[t] != EMPTY)

    if state.step == 0:  # mine
        connected = reached([s for s, v in enumerate(board) if v == own])
        out = []
        for s, v in enumerate(board):
            if v != EMPTY or not any(t in connected for t in adjacency[s]):
                continue
            board[s] = tile
            crowded = occupied_around(s) > 3 or any(
                board[t] != EMPTY and occupied_around(t) > 3 for t in adjacency[s])
            board[s] = EMPTY
            if not crowded:
                out.append(names[s])
        return out
    out = []  # move a miner, or pass
    for s, v in enumerate(board):
        if v == own:
            targets = sorted(t for t in reached([s]) if board[t] == tile)
            out.extend(f"{names[s]}-{names[t]}" for t in targets)
    return [*out, "pass"]


@pytest.mark.parametrize("seed", range(4))
def test_legal_moves_follow_the_rules_in_order(seed: int) -> None:
    for state in positions(seed, 80):
        if not state.is_over:
            assert [str(m) for m in state.legal_moves()] == reference_moves(state)


def test_holds_is_a_cell_table_that_combines() -> None:
    game = mattock()
    env = game.env
    tile, red, blue = values(game)
    tile_here = holds(env, SITE, "Tile")
    table = site_table(tile_here)
    assert table is not None
    assert [table[m][v] for m in (0, 1) for v in (EMPTY, tile, red, blue)] == \
        [False, True, False, False] * 2
    # Combined with another cell test of Site: one table again.
    both = and_(env, is_(env, "Occupied", SITE), not_(env, tile_here))
    combined = site_table(both)
    assert combined is not None
    assert [combined[0][v] for v in (EMPTY, tile, red, blue)] == [False, False, True, True]


def test_site_verdicts_and_tracer_agree_with_judging_each_site() -> None:
    game = mattock()
    env = game.env
    adjacency = env.topology.neighbours(env.absolute_dirs("Adjacent"))
    _, red, blue = values(game)
    condition = _passable_condition(game)
    assert site_table(condition) is not None

    def generic(ctx: Ctx) -> bool:  # the same condition, not a table: judged site by site
        return bool(condition(ctx))

    for state in positions(7, 60)[::5]:
        for mover in (0, 1):
            ctx = Ctx(state.board, mover, state, env, env.owner)
            assert site_verdicts(ctx, condition) == site_verdicts(ctx, generic)
            assert site_verdicts(ctx, generic) == [bool(condition_at(ctx, condition, s))
                                                   for s in range(len(state.board))]
            starts = [s for s, v in enumerate(state.board) if v in (red, blue)]
            fast = tracer(adjacency, condition)
            assert fast(ctx, starts) == _trace(ctx, starts, adjacency, generic)
            assert tracer(adjacency, generic)(ctx, starts) == fast(ctx, starts)


def condition_at(ctx: Ctx, condition, site: int) -> bool:
    saved, ctx.site = ctx.site, site
    try:
        return bool(condition(ctx))
    finally:
        ctx.site = saved


def _passable_condition(game):
    """Mattock's "Passable" ((and (is Occupied Site) (not (is Enemy Site)))), built anew."""
    env = game.env
    return and_(env, is_(env, "Occupied", SITE), not_(env, is_(env, "Enemy", SITE)))


def test_count_around_counts_each_neighbour() -> None:
    game = mattock()
    env = game.env
    adjacency = env.topology.neighbours(env.absolute_dirs("Adjacent"))
    occupied = count_around(env, SITE, "Occupied")
    empty = count_around(env, SITE, "Empty")
    for state in positions(3, 40)[::8]:
        ctx = Ctx(state.board, 0, state, env, env.owner)
        for s in range(len(state.board)):
            ctx.site = s
            around = [state.board[t] for t in adjacency[s]]
            assert occupied(ctx) == sum(1 for v in around if v != EMPTY)
            assert empty(ctx) == sum(1 for v in around if v == EMPTY)


def test_fast_playout_is_the_public_game_on_the_full_board() -> None:
    game = mattock()
    for seed in range(2):
        record: list[str] = []
        final, _ = game.playout(random.Random(seed), record=record)
        rng = random.Random(seed)
        state = game.initial_state()
        played: list[str] = []
        while not state.is_over:
            move = rng.choice(state.legal_moves())
            played.append(str(move))
            state = state.play(move)
        assert played == record
        assert final.to_text() == state.to_text()
