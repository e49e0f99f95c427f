"""Mineway's kernel (games/mineway.game) against the interpreter, from position texts: the
lowerings of (reachable ...) (a search along links from the mine to a border crossing),
(has-link ...) (a drop: an empty cell a friendly station sees), (link ...) and the relations
(sight ... gap:) and (neighbours ...) (stdlib/connectivity.py, stdlib/geometry.py). The
positions are those of tests/test_mineway.py (the side-4 board; its docstring draws it): a
route cut by a drop, a route of one's own cut without losing, the last drop taken."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest
from test_mineway import CUT, NO_DROP, SELF_CUT

from interpreter import load_game
from interpreter.kernel import available, kernel_for, why_interpreted

pytestmark = pytest.mark.skipif(not available(), reason="numba (the kernels extra) is not "
                                "installed: pip install -e '.[kernels]'")

GAME = Path(__file__).resolve().parent.parent / "games" / "mineway.game"


@cache
def game(**options: Any) -> Any:
    return load_game(GAME, size=4, **options)


@cache
def kernel(**options: Any) -> Any:
    g = game(**options)
    assert why_interpreted(g) is None
    found = kernel_for(g)
    assert found is not None
    return found


def every_move(text: str, **options: Any) -> dict[str, Any]:
    """Each legal move of the position made in the kernel and in the interpreter: the legal
    moves agree, and after each move the board, the result and its reason. Returns, per
    move, the kernel's state after it."""
    g, k = game(**options), kernel(**options)
    state = g.from_text(text)
    st = k.encode(state)
    actions = k.legal_actions(st)
    assert actions == sorted(g.actions.encode(m) for m in state.legal_moves())
    out = {}
    for a in actions:
        after_st = st.copy()
        k.apply(after_st, a)
        after = state.apply_action(a)
        assert k.board(after_st) == list(after.board)
        assert k.result(after_st) == after.result
        if after.result is not None:
            assert k.reason(after_st) == after.outcome.reason
        out[g.actions.notation(a)] = after_st
    return out


# The positions of tests/test_mineway.py: Gold to move. CUT: Gold's drop on d7 cuts Silver's
# only route; SELF_CUT: Gold's drop on a7 cuts Gold's own, and the game goes on; NO_DROP: a drop
# on f5 or e6 takes Silver's last drop.


def test_a_drop_that_cuts_the_last_route_wins() -> None:
    after = every_move(CUT)
    k = kernel()
    assert k.result(after["d7"]) == 1 and k.reason(after["d7"]) == "the opponent cannot travel"
    assert all(k.result(st) is None for m, st in after.items() if m != "d7")
    assert "d6" not in after  # no station sees d6 over an empty cell


def test_cutting_ones_own_route_does_not_lose_at_once() -> None:
    after = every_move(SELF_CUT)
    st = after["a7"]
    k = kernel()
    assert k.result(st) is None
    # Whatever Silver drops next, Gold cannot travel: Silver wins.
    for a in k.legal_actions(st):
        final = st.copy()
        k.apply(final, a)
        assert k.result(final) == 0 and k.reason(final) == "the opponent cannot travel"


def test_taking_the_opponents_last_drop_wins() -> None:
    after = every_move(NO_DROP)
    k = kernel()
    for move in ("f5", "e6"):
        assert k.result(after[move]) == 1 and k.reason(after[move]) == "the opponent has no drop"
    assert k.result(after["g4"]) is None


def test_border_drops() -> None:
    plain, border = every_move(NO_DROP), every_move(NO_DROP, border_drops=True)
    assert set(plain) < set(border)


@pytest.mark.parametrize("options", [{"border_drops": True}, {"first": "Gold"}],
                         ids=["border_drops", "first Gold"])
def test_random_games_replay_in_the_interpreter(options: dict[str, Any]) -> None:
    from interpreter.kernel.differential import first_difference

    g, k = game(**options), kernel(**options)
    assert [d for s in range(150) if (d := first_difference(g, k, s))] == []
