"""Piece kinds a role owns besides its own piece, and promotion: `kinds:` on a player,
`piece:` and `of:` resolved per role, `(holds ...)` of any role's kind, `(promote ...)`."""

from __future__ import annotations

from textwrap import dedent

import pytest

from interpreter import RuleError, parse_game

KINGS = """
(game "Kings"
  (players {(player "White" symbol:"w" forward:N kinds:{(piece "King" symbol:"W")})
            (player "Black" symbol:"b" forward:S kinds:{(piece "King" symbol:"B")})})
  (board (square 4))
  (start (put "White" (sites {"a1"})) (put "Black" (sites {"d4"})))
  (play
    (any-of (step ForwardDiagonal of:"White") (step ForwardDiagonal of:"Black")
            (step Diagonal of:"King"))
    (promote To "King" if:(in Site (sites Side Forward))))
  (end (if (stuck Next) (win Mover))))
"""


def pos(text: str) -> str:
    return dedent(text).strip("\n") + "\n"


def moves(state) -> set[str]:
    return {str(m) for m in state.legal_moves()}


def game():
    return parse_game(KINGS, source="kings.game")


def test_men_move_forward_and_kings_any_diagonal():
    state = game().from_text(pos("""
        . . . .
        . . . .
        . w . .
        . . W .
        mover: White"""))
    assert moves(state) == {"b2-a3", "b2-c3", "c1-d2"}  # c1-b2: b2 holds a White man


def test_reaching_the_far_side_promotes_to_the_mover_s_king():
    state = game().from_text(pos("""
        . . . .
        . w . .
        . . . .
        . . . b
        mover: White"""))
    after = state.play("b3-c4")
    assert after.to_text().splitlines()[0] == ". . W ."
    black = game().from_text(pos("""
        . . . .
        . . . .
        . . b .
        w . . .
        mover: Black"""))
    assert black.play("c2-d1").to_text().splitlines()[3] == "w . . B"


def test_a_king_is_not_promoted_again_and_kinds_round_trip():
    state = game().from_text(pos("""
        . W . .
        . . . .
        . . . .
        . . . b
        mover: White"""))
    after = state.play("b4-c3")
    assert game().from_text(after.to_text()).to_text() == after.to_text()


def test_holds_names_any_role_s_kind():
    text = KINGS.replace("(end (if (stuck Next) (win Mover)))",
                         '(end (if (holds (sites {"c4"}) "King") (win Mover)))') \
        .replace('(holds (sites {"c4"}) "King")', '(holds "c4" "King")')
    g = parse_game(text, source="kings.game")
    assert g.from_text(". . W .\n. . . .\n. . . .\n. . . b\nmover: Black").winner == "White"
    assert g.from_text(". . B .\n. . . .\n. . . .\nw . . .\nmover: White").winner == "Black"


def test_unknown_kinds_are_refused():
    with pytest.raises(RuleError, match='no piece named "Queen"'):
        parse_game(KINGS.replace('of:"King"', 'of:"Queen"'), source="kings.game")
    with pytest.raises(RuleError, match='no role owns a piece named "Queen"'):
        parse_game(KINGS.replace('(promote To "King"', '(promote To "Queen"'),
                   source="kings.game")
