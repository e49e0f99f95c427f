"""Placement filters judged for every site at once on bit masks (stdlib/bitboards.py) give the
same verdicts as judging site by site: the legal moves are compared with those found while
explaining refusals, which always judges each site on its own."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter import parse_game
from interpreter.game import State

PATTERNS = ('("Crosscut") ("HardCorner") ("Switch2x3") ("Switch2x4") '
            '(pattern {"X * X"} name:"pinch") (pattern {"X ? O" ". X ."} name:"odd")')
HEX_PATTERNS = ('("Crosscut") (pattern {"X O" " . X"} name:"bend") '
                '(pattern {"X * X"} name:"pinch") (pattern {" X ?" "O . X"} name:"odd")')


def game(board: str, patterns: str, kind: str):
    text = f"""
    (game "Filtered"
      (players {{(player "A" symbol:"A") (player "B" symbol:"B")}})
      (board {board})
      (play (place (sites Empty) {kind}:(forms {patterns})))
      (end (if (stuck Next) (draw))))"""
    return parse_game(text)


GAMES = {
    (board, kind): game(board, HEX_PATTERNS if "hex" in board else PATTERNS, kind)
    for board in ("(square 6)", "(rectangle 7 4)", "(hex-rhombus 5)", "(hexhex 3)")
    for kind in ("unless", "if")
}


@settings(max_examples=60, deadline=None)
@given(which=st.sampled_from(sorted(GAMES)), data=st.data())
def test_all_at_once_agrees_with_site_by_site(which, data) -> None:
    g = GAMES[which]
    n = len(g.sites)
    board = data.draw(st.lists(st.sampled_from([0, 0, 1, 2]), min_size=n, max_size=n))
    mover = data.draw(st.sampled_from([0, 1]))
    state = State(g, board, mover)
    at_once = [str(m) for m in g.generate(state)]
    assert state.track != [None] * len(state.track), "the masks were not used"
    one_by_one = [str(m) for m in g.generate(state, explain={})]
    assert at_once == one_by_one


def test_a_board_whose_sites_are_not_a_lattice_is_not_judged_on_bit_masks() -> None:
    import copy
    import random

    from stdlib.bitboards import lattice_of
    from stdlib.patterns import lattice_shapes, pattern

    env = GAMES[("(square 6)", "unless")].env
    crosscut = pattern(["X O", "O X"], name="crosscut")
    assert lattice_shapes(env, (crosscut,)) is not None
    regular = lattice_of(env)
    scrambled = copy.copy(regular)
    scrambled.bit = random.Random(1).sample(regular.bit, len(regular.bit))
    scrambled.site_of = {b: s for s, b in enumerate(scrambled.bit)}
    env.shared["lattice"] = scrambled
    try:
        assert lattice_shapes(env, (crosscut,)) is None
    finally:
        env.shared["lattice"] = regular
