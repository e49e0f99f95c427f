"""Amazons and what it is made of: slide (a queen's move), (sites Slide ...) and turn memory
(LastTo, LastFrom), rule by rule from position texts."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from textwrap import dedent

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter import IllegalMoveError, load_game, parse_game

GAMES = Path(__file__).resolve().parent.parent / "games"


@cache
def amazons(size: int = 6):
    return load_game(GAMES / "amazons.game", size=size)


def pos(text: str) -> str:
    return dedent(text).strip("\n") + "\n"


def moves(state) -> set[str]:
    return {str(m) for m in state.legal_moves()}


def test_start_positions():
    assert amazons(10).initial_state().to_text().splitlines()[6] == "W . . . . . . . . W"
    six = amazons(6).initial_state()
    assert six.to_text() == pos("""
        . B . . B .
        B . . . . B
        . . . . . .
        . . . . . .
        W . . . . W
        . W . . W .
        mover: White""")
    with pytest.raises(Exception, match="size"):
        load_game(GAMES / "amazons.game", size=7)


def test_an_amazon_moves_like_a_queen_and_is_blocked():
    state = amazons().from_text(pos("""
        . . . . . .
        . . . . . .
        . . x . . .
        . . . . . .
        W B . . . .
        . . . . . .
        mover: White"""))
    # From a2: up the a-file to a6, right along the second row is blocked by B at once,
    # diagonals b3 then c4 is an arrow (x), b1, and down a1.
    assert moves(state) == {"a2-a3", "a2-a4", "a2-a5", "a2-a6", "a2-b3", "a2-a1", "a2-b1"}


def test_the_arrow_is_shot_from_the_amazon_just_moved():
    state = amazons().from_text(pos("""
        . . . B . .
        . . . . . .
        . . . . . .
        . . . . . .
        W . . . . W
        . . . . . .
        mover: White"""))
    moved = state.play("f2-f1")
    assert moved.mover == "White"  # the same turn: now the arrow
    shots = moves(moved)
    assert "f2" in shots and "e1" in shots and "a1" in shots
    assert "a3" not in shots  # a3 is in reach of the other amazon only
    after = moved.play("f2")
    assert after.mover == "Black" and after.to_text().splitlines()[4] == "W . . . . x"


def test_a_mid_turn_position_says_where_the_amazon_went():
    state = amazons().initial_state().play("a2-a4")
    text = state.to_text()
    assert "decision: 2" in text and "last to: a4" in text and "last from: a2" in text
    again = amazons().from_text(text)
    assert again.to_text() == text and moves(again) == moves(state)
    with pytest.raises(IllegalMoveError):
        again.play("c3")  # not in line with a4 (c3 is a knight's move away)


def test_the_player_who_cannot_move_loses():
    state = amazons().from_text(pos("""
        B . . . . .
        x x . . . .
        . . . . . .
        . . . . . .
        . . . . . W
        . . . . . .
        mover: White"""))
    assert not state.is_over
    done = state.play("f2-f6").play("b6")  # the arrow closes Black's last way out
    assert done.winner == "White"


SLIDES = """(game "Rooks" (players {{(player "A") (player "B")}}) (board (square 5))
  (play (slide Orthogonal to:{to})) (end (if (stuck Next) (win Mover))))"""


def test_slide_to_empty_or_enemy_captures_the_first_piece_in_the_way():
    game = parse_game(SLIDES.format(to="EmptyOrEnemy"), source="rooks.game")
    state = game.from_text(pos("""
        . . . . .
        . . B . .
        . . . . .
        . . A . B
        . . A . .
        mover: A"""))
    assert moves(state) == {"c2-b2", "c2-a2", "c2-d2", "c2-e2", "c2-c3", "c2-c4",
                            "c1-b1", "c1-a1", "c1-d1", "c1-e1"}
    # c2-c4 captures B; c2-c5 is not a move: B is in the way
    assert "c2-c5" not in moves(state)
    assert state.play("c2-c4").to_text().splitlines()[1] == ". . A . ."


@settings(derandomize=True, database=None, deadline=None, max_examples=20)
@given(st.integers(0, 2**32 - 1))
def test_random_games_keep_the_rules(seed: int):
    import random

    rng = random.Random(seed)
    game = amazons()
    state = game.initial_state()
    while not state.is_over:
        legal = state.legal_moves()
        assert legal, state.to_text()
        move = rng.choice(legal)
        before = state
        state = state.play(move)
        text = state.to_text()
        board = "".join(text.splitlines()[:6])
        if "decision: 2" in text:  # an amazon moved: four amazons each, still
            assert board.count("W") == board.count("B") == 4
            assert state.mover == before.mover
        else:  # an arrow was shot: one more arrow
            assert board.count("x") == "".join(before.to_text().splitlines()[:6]).count("x") + 1
        assert game.from_text(text).to_text() == text
    assert moves(game.from_text(state.to_text())) == set()
