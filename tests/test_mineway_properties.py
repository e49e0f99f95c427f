"""Mineway properties over random games, checked against an independent model of the rules
(docs/rules/mineway.md). The model's geometry: cell (x, y), y = row - n, x = |y| + 2 * index
in the row (half-cell units, also the cell's column in position text); lines are the rays
E (2,0), W (-2,0), NE (1,1), NW (-1,1), SE (1,-1), SW (-1,-1)."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest
from hexhex_referee import OTHER, SYM, Hex
from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter import load_game

GAME_FILE = Path(__file__).resolve().parent.parent / "games" / "mineway.game"

@cache
def model(n: int) -> Hex:
    return Hex(n)


@cache
def mineway(size: int, border_drops: bool, first: str):
    return load_game(GAME_FILE, size=size, border_drops=border_drops, first=first)


def random_game(size: int, border_drops: bool, first: str, seed: int):
    """The states of one random game, first to last."""
    g = mineway(size, border_drops, first)
    rng = random.Random(seed)
    state = g.initial_state()
    states = [state]
    # every turn fills an empty cell, so a game has at most (cells - 1 - 6) turns
    for _ in range(len(g.sites) - 7):
        if state.is_over:
            break
        moves = state.legal_moves()
        assert moves, f"the game is not over, yet {state.mover} has no move:\n{state.to_text()}"
        state = state.play(rng.choice(moves))
        states.append(state)
    return g, states


sizes = st.integers(min_value=4, max_value=6)
seeds = st.integers(min_value=0, max_value=2**32 - 1)
firsts = st.sampled_from(["Silver", "Gold"])


@settings(max_examples=50, deadline=None, database=None)
@given(size=sizes, border_drops=st.booleans(), first=firsts, seed=seeds)
def test_games_end_and_someone_wins(size, border_drops, first, seed) -> None:
    g, states = random_game(size, border_drops, first, seed)
    last = states[-1]
    assert last.is_over
    assert last.winner in g.players  # no draws: someone always wins
    assert last.mover is None and last.legal_moves() == []
    for s in states[:-1]:
        assert not s.is_over and s.winner is None and s.mover in g.players


@settings(max_examples=40, deadline=None, database=None)
@given(size=sizes, border_drops=st.booleans(), first=firsts, seed=seeds)
def test_no_stone_ever_on_the_mine(size, border_drops, first, seed) -> None:
    g, states = random_game(size, border_drops, first, seed)
    h = model(size)
    mine = h.name(h.mine)
    for s in states:
        h.parse(s.to_text())  # asserts '*' at the centre
        assert mine not in {str(m) for m in s.legal_moves()}


@pytest.mark.slow
@settings(max_examples=100, deadline=None, database=None)
@given(size=sizes, border_drops=st.booleans(), first=firsts, seed=seeds)
def test_moves_and_results_follow_the_rules(size, border_drops, first, seed) -> None:
    """Every legal-move list is the rules' set of drops, and after every move the game is over
    exactly when the mover's opponent cannot travel or has no drop; then the mover has won."""
    g, states = random_game(size, border_drops, first, seed)
    h = model(size)
    for before, after in zip(states, states[1:], strict=False):
        stones, mover = h.parse(before.to_text())
        assert mover == before.mover
        moves = [str(m) for m in before.legal_moves()]
        assert len(moves) == len(set(moves))
        assert set(moves) == h.drops(stones, SYM[mover], border_drops)
        stones, _ = h.parse(after.to_text())
        opponent = OTHER[mover]
        cut = not h.can_travel(stones, SYM[opponent])
        stuck = not h.drops(stones, SYM[opponent], border_drops)
        assert after.is_over == (cut or stuck)
        if after.is_over:
            assert after.winner == mover
        else:
            assert after.mover == opponent


@settings(max_examples=50, deadline=None, database=None)
@given(size=sizes, border_drops=st.booleans(), first=firsts, seed=seeds)
def test_winners_opponent_is_really_beaten(size, border_drops, first, seed) -> None:
    g, states = random_game(size, border_drops, first, seed)
    h = model(size)
    last = states[-1]
    stones, _ = h.parse(last.to_text())
    loser = OTHER[last.winner]
    assert (not h.can_travel(stones, SYM[loser])
            or not h.drops(stones, SYM[loser], border_drops))
    # the winner made the last move: it has one more stone than at the start of its turn
    prev, _ = h.parse(states[-2].to_text())
    added = {c for c in stones if c not in prev}
    assert len(added) == 1 and stones[added.pop()] == SYM[last.winner]


@settings(max_examples=30, deadline=None, database=None)
@given(size=sizes, border_drops=st.booleans(), first=firsts, seed=seeds,
       data=st.data())
def test_play_never_mutates(size, border_drops, first, seed, data) -> None:
    g, states = random_game(size, border_drops, first, seed)
    live = [s for s in states if not s.is_over]
    state = live[data.draw(st.integers(0, len(live) - 1), label="ply")]
    text = state.to_text()
    moves = [str(m) for m in state.legal_moves()]
    facts = (state.mover, state.is_over, state.winner)
    for m in data.draw(st.lists(st.sampled_from(moves), min_size=1, max_size=5), label="moves"):
        after = state.play(m)
        assert after.to_text() != text
        assert state.to_text() == text
        assert [str(x) for x in state.legal_moves()] == moves
        assert (state.mover, state.is_over, state.winner) == facts
    # a state's own legal-move list is a copy, too
    state.legal_moves().clear()
    assert [str(x) for x in state.legal_moves()] == moves


@settings(max_examples=40, deadline=None, database=None)
@given(size=sizes, border_drops=st.booleans(), first=firsts, seed=seeds)
def test_position_text_round_trips(size, border_drops, first, seed) -> None:
    g, states = random_game(size, border_drops, first, seed)
    for s in states:
        text = s.to_text()
        back = g.from_text(text)
        assert back.to_text() == text
        assert (back.mover, back.is_over, back.winner) == (s.mover, s.is_over, s.winner)
        assert sorted(map(str, back.legal_moves())) == sorted(map(str, s.legal_moves()))
