"""Kernels of step and slide with filters (if:, unless:) against the interpreter: the filters
are judged with the move made on the board, then taken back, as the interpreter's judge()."""

from __future__ import annotations

import pytest

from interpreter import parse_game
from interpreter.kernel import available, kernel_for, why_interpreted

pytestmark = pytest.mark.skipif(not available(), reason="numba (the kernels extra) is not "
                                "installed: pip install -e '.[kernels]'")

# Pieces step or slide towards the centre only, and never so as to stand beside an enemy
# piece (the unless: reads the board after the move: the mover's piece on To).
CENTRED = """(game "Centred"
  (players {(player "White") (player "Black")})
  (board (square 5))
  (start (put "White" (sites {"a1" "e1" "c1"})) (put "Black" (sites {"a5" "e5" "c5"})))
  (play
    (any-of
      (step Diagonal to:Empty
            if:(< (centre-distance To) (centre-distance From))
            unless:(> (count-around To Enemy) 0))
      (slide Orthogonal max:2 to:Empty
             if:(<= (centre-distance To) (centre-distance From)))))
  (end (if (>= (turns) 30) (draw))))"""


def test_filtered_steps_and_slides_play_the_interpreters_games() -> None:
    from interpreter.kernel.differential import first_difference

    game = parse_game(CENTRED, "centred.game")
    assert why_interpreted(game) is None
    kernel = kernel_for(game)
    assert kernel is not None
    assert [d for s in range(40) if (d := first_difference(game, kernel, s))] == []


def test_a_filter_refuses_moves_in_the_kernel_as_in_the_interpreter() -> None:
    game = parse_game(CENTRED, "centred.game")
    kernel = kernel_for(game)
    assert kernel is not None
    # White's b2 may not step to a1 (away from the centre) nor to c3 (beside Black's d3).
    state = game.from_text(". . . . .\n. . . . .\n. . . B .\n. W . . .\n. . . . .\nmover: White")
    legal = {str(m) for m in state.legal_moves()}
    assert "b2-c3" not in legal and "b2-a1" not in legal and "b2-a3" not in legal
    numbered = game.actions
    assert kernel.legal_actions(kernel.encode(state)) == sorted(
        numbered.encode(m) for m in state.legal_moves())
