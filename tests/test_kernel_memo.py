"""The listing an end rule's (stuck ...) makes, kept for the turn after (interpreter/kernel/
memo.py): which kernels keep it, and that the moves taken from it are the moves a fresh
listing gives, position after position of random Oware games."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.kernel import available, kernel_for
from interpreter.kernel.memo import KEPT, keeps_listing

ROOT = Path(__file__).resolve().parent.parent

FUNCTIONS = '''def stuck_1(st, T, mover, to, frm):
    return not can_move(st, T, mover)

def list_0_0(st, T, mover, acts, tags, n):
    return step_2(st, T, mover, acts, tags, n, 0)

def step_2(st, T, mover, acts, tags, n, tag):
    return n

def list_1_0(st, T, mover, acts, tags, n):
    return drop_3(st, T, mover, acts, tags, n, 1)

def drop_3(st, T, mover, acts, tags, n, tag):
    if stuck_1(st, T, mover, -1, -1):
        return n
    return n
'''


def test_kept_where_the_end_rules_ask_stuck_and_the_listing_does_not() -> None:
    stuck = [("stuck_1(st, T, mover, to, frm)", "(mover)")]
    assert keeps_listing(FUNCTIONS, stuck, ["list_0_0"])
    assert not keeps_listing(FUNCTIONS, stuck, ["list_0_0", "list_1_0"])  # drops ask it
    assert not keeps_listing(FUNCTIONS, [("(st[H_TURN] >= 200)", "DRAW")], ["list_0_0"])
    assert not keeps_listing(FUNCTIONS, stuck, [])


@pytest.mark.skipif(not available(), reason="numba (the kernels extra) is not installed")
def test_the_kept_moves_are_the_moves_listed_afresh() -> None:
    game = load_game(ROOT / "games" / "oware.game")
    kernel = kernel_for(game)
    assert kernel is not None
    module = kernel.module
    assert module.MEMO
    rng = random.Random(7)
    taken = 0
    for _ in range(20):
        st = kernel.encode(game.initial_state())
        while not kernel.is_terminal(st):
            fresh = st.copy()
            fresh[module.MEMO_AT] = 0  # nothing kept: listed again
            if st[module.MEMO_AT] == KEPT:
                taken += 1
            legal = kernel.legal_actions(st)
            assert legal == kernel.legal_actions(fresh)
            kernel.apply(st, rng.choice(legal))
    assert taken > 100  # (stuck Next) was judged after every turn but the first
