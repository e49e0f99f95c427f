"""Literals fold: an `and` with a false part (or an `or` with a true part) is a literal, and a
placement whose filter can never allow it makes no moves without judging any site, while an
illegal move still gets the filter's own reason."""

from __future__ import annotations

import pytest

from interpreter import IllegalMoveError, parse_game
from stdlib.logic import and_, or_
from stdlib.parts import parts_of
from stdlib.runtime import literal

GAME = """
(option "extra" false)
(game "Gated"
  (players {(player "A" symbol:"A") (player "B" symbol:"B")})
  (board (square 4))
  (play (any-of
    (place (sites Centre))
    (place (sites Corners) if:(and #extra (is Friend To)))))
  (end (if (stuck Next) (win Mover))))
"""

CENTRE = {"b2", "b3", "c2", "c3"}
CORNERS = {"a1", "a4", "d1", "d4"}


def test_an_option_that_is_off_folds_its_alternative_away() -> None:
    off = parse_game(GAME).initial_state()
    on = parse_game(GAME, extra=True).initial_state()
    assert {str(m) for m in off.legal_moves()} == CENTRE
    assert {str(m) for m in on.legal_moves()} == CENTRE | CORNERS


def test_literal_parts_fold_in_and_and_or() -> None:
    env = parse_game(GAME).env
    other = lambda ctx: True  # noqa: E731
    assert parts_of(and_(env, other, literal(False))).literal is False
    assert parts_of(or_(env, other, literal(True))).literal is True
    assert parts_of(and_(env, other, literal(True))).literal is None
    assert parts_of(or_(env, other, literal(False))).literal is None


def test_a_folded_filter_still_explains_a_refusal() -> None:
    # (With no move at the start, (stuck Next) would end the game before it begins.)
    only_gated = GAME.replace("(place (sites Centre))", "").replace("(stuck Next)", "(full)")
    state = parse_game(only_gated).initial_state()
    assert state.legal_moves() == []
    with pytest.raises(IllegalMoveError, match=r"a1: .*#extra|a1: .*does not hold"):
        state.play("a1")
