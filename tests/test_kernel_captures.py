"""Kernels of captures, scores and turned regions against the interpreter, on small games
written only with ludemes that lower (Reversi's, Pente's and Pentago's rules, each without the
form that still keeps the full game interpreted), so that these lowerings are checked whatever
the game files need besides."""

from __future__ import annotations

import pytest

from interpreter import parse_game
from interpreter.kernel import available, kernel_for, why_interpreted

pytestmark = pytest.mark.skipif(not available(), reason="numba (the kernels extra) is not "
                                "installed: pip install -e '.[kernels]'")

FLIPPING = """(game "Flipping"
  (players {(player "Black") (player "White")})
  (board (square 6))
  (start (put "Black" (sites {"c4" "d3"})) (put "White" (sites {"c3" "d4"})))
  (play (first-of (place (sites Empty) capture:(flank All) must-capture:true) (pass)))
  (end (if (or (full) (>= (turns) 40)) (most-pieces))))"""

PAIRS = """(game "Pairs"
  (players {(player "White") (player "Black")})
  (board (square 7))
  (play
    (when (= (count (sites Empty)) (count (sites Board)))
      (place (sites Centre))
      otherwise:(place (sites Empty) capture:(flank Orthogonal remove:true min:1 max:2)))
    (remove (sites Flanked To Diagonal min:2 max:3))
    (add-score Mover (count-captured)))
  (end
    (if (line 4) (win Mover))
    (if (>= (score Mover) 4) (win Mover))
    (if (and (> (turns) 30) (< (centre-distance LastTo) 9)) (draw))
    (if (full) (draw))))"""

TURNING = """(game "Turning"
  (players {(player "White") (player "Black")})
  (board (square 4))
  (region "SW" (intersection (sites Row 1 2) (sites Column 1 2)))
  (region "NE" (intersection (sites Row 3 4) (sites Column 3 4)))
  (play (place (sites Empty)) (transform-region {"SW" "NE"} by:{"cw" "half" "mirror"}))
  (end
    (if (and (line 3) (line 3 role:Next)) (draw))
    (if (line 3) (win Mover))
    (if (not (not (line 3 role:Next))) (win Next))
    (if (full) (draw))))"""

BOXES = """(game "Boxes"
  (players {(player "First") (player "Second")})
  (pieces {(piece "Line" symbol:"-")})
  (board (grid-lines 2 3))
  (play (place (sites Empty) piece:"Line")
        (add-score Mover (closed-cells To) if:(!= (closed-cells To) 2))
        (add-score Mover (+ 1 (- (closed-cells To) 1)) if:(= (closed-cells To) 2))
        (move-again (> (closed-cells To) 0)))
  (end (if (full) (most-score))))"""


@pytest.mark.parametrize("text", [FLIPPING, PAIRS, TURNING, BOXES],
                         ids=["flank", "sites-flanked", "transform-region", "scores"])
def test_kernel_plays_the_interpreters_games(text: str) -> None:
    from interpreter.kernel.differential import first_difference

    game = parse_game(text, "captures.game")
    assert why_interpreted(game) is None
    kernel = kernel_for(game)
    assert kernel is not None
    assert [d for s in range(60) if (d := first_difference(game, kernel, s))] == []
