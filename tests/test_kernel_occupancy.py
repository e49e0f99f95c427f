"""The kernel's occupancy (Lower.occupancy: per role a mask of its pieces' sites and their
count, kept by change and put) and the generators' variants that stop at their first move
(Builder.first_move, for can_move)."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.kernel import available, kernel_for, why_interpreted
from interpreter.kernel.builder import Builder, build

ROOT = Path(__file__).resolve().parent.parent
needs_numba = pytest.mark.skipif(not available(), reason="numba (the kernels extra) is not "
                                 "installed: pip install -e '.[kernels]'")

# Games whose kernels keep the occupancy: steps found by shifting masks (Breakthrough),
# flanks judged from them (Reversi), and moves tried on the board with put to judge filters
# while the pieces are walked by their masks (the others).
KEPT = ["games/breakthrough.game", "games/reversi.game", "examples/minefield-steps.game",
        "games/mincut.game"]


@needs_numba
@pytest.mark.parametrize("path", KEPT)
def test_the_occupancy_follows_the_board_through_random_games(path: str) -> None:
    game = load_game(str(ROOT / path))
    kernel = kernel_for(game)
    assert kernel is not None, why_interpreted(game)
    module = kernel.module
    assert module.OCCUPANCY
    at = module.OCC
    width = game.roles * module.OCC_WORDS + game.roles
    for seed in range(12):
        state = game.initial_state()
        st = kernel.start.copy()
        for ply, action in enumerate(kernel.playout_actions(seed)):
            state = state.apply_action(action)
            kernel.apply(st, action)
            want = kernel.encode(state)[at:at + width].tolist()
            assert st[at:at + width].tolist() == want, (seed, ply)


def test_a_kernel_whose_lowerings_never_ask_keeps_no_occupancy() -> None:
    source = build(load_game(str(ROOT / "games/tictactoe.game"))).source
    assert "OCCUPANCY = False" in source


_SCAN = """def {name}(st, T, mover, acts, tags, n, tag):
    for s in range(N):
        if st[s] == 0:
            acts[n] = s
            tags[n] = tag
            n += 1
    return n
"""


def test_a_generator_stops_at_its_first_move_where_its_text_shows_it_sound() -> None:
    b = Builder(load_game(str(ROOT / "games/tictactoe.game")))
    scan = b.function("scan", _SCAN)
    first = b.first_move(scan)
    assert first is not None and first != scan
    variant = next(f for f in b.functions if f"def {first}(" in f)
    assert "return n + 1" in variant and "n += 1" not in variant
    tail = b.function("tail", f"""def {{name}}(st, T, mover, acts, tags, n, tag):
    if st[H_TURN] > 0:
        return {scan}(st, T, mover, acts, tags, n, tag)
    return n
""")
    assert b.first_move(tail) is not None


@pytest.mark.parametrize("body", [
    "    st[SLOT_0] = 1\n" + _SCAN.split("\n", 1)[1].replace("    return n\n",
                                                           "    st[SLOT_0] = 0\n    return n\n"),
    _SCAN.split("\n", 1)[1].replace("    return n\n", "    n = dedupe(acts, n)\n    return n\n"),
    "    put(st, 0, 1)\n" + _SCAN.split("\n", 1)[1],
])
def test_a_generator_that_changes_the_state_or_drops_moves_is_listed_whole(body: str) -> None:
    b = Builder(load_game(str(ROOT / "games/tictactoe.game")))
    name = b.function("odd", "def {name}(st, T, mover, acts, tags, n, tag):\n" + body)
    assert b.first_move(name) is None


@needs_numba
def test_a_filter_judged_on_a_move_tried_on_the_board_reads_the_occupancy_of_that_board(
        ) -> None:
    """A placement's if: is judged with the piece put down (put, then taken back): the
    count it reads from the occupancy (kept for the steps' walk of the pieces) must count
    that piece too, as the interpreter's board does: at most two pieces each."""
    from interpreter import parse_game
    from interpreter.kernel.differential import first_difference

    game = parse_game("""(game "Two Each"
      (players {(player "X") (player "O")})
      (board (square 3))
      (play (any-of (place (sites Empty) if:(< (count (sites Occupied Mover)) 3))
                    (step Adjacent to:Empty)))
      (end (if (stuck Next) (win Mover))))""", "two-each.game")
    kernel = kernel_for(game)
    assert kernel is not None, why_interpreted(game)
    assert kernel.module.OCCUPANCY
    assert [first_difference(game, kernel, seed, 40) for seed in range(5)] == [None] * 5
