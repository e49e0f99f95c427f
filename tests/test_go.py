"""Go, rule by rule from position texts: captures, suicide, superko and simple ko, passing,
area scoring with komi; and the mechanisms under it — (sites Surrounded ...), (forbid ...),
(repeated ...), (most-area ...)."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path
from textwrap import dedent

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter import IllegalMoveError, load_game

GAMES = Path(__file__).resolve().parent.parent / "games"


@cache
def go(size: int = 5, **options: object):
    return load_game(GAMES / "go.game", size=size, **options)


def pos(text: str) -> str:
    return dedent(text).strip("\n") + "\n"


def moves(state) -> set[str]:
    return {str(m) for m in state.legal_moves()}


def test_a_chain_without_liberties_is_captured():
    state = go().from_text(pos("""
        . . . . .
        . . B . .
        . B W . .
        . . B . .
        . . . . .
        mover: Black"""))
    after = state.play("d3")
    assert after.to_text().splitlines()[2] == ". B . B ."


def test_a_larger_chain_is_captured_whole():
    state = go().from_text(pos("""
        . B B . .
        B W W B .
        . B . . .
        . . . . .
        . . . . .
        mover: Black"""))
    assert state.play("c3").to_text().splitlines()[1] == "B . . B ."


def test_suicide_is_illegal_but_capturing_first_is_not():
    state = go().from_text(pos("""
        . B . . .
        B . B . .
        . B . . .
        . . . . .
        . . . . .
        mover: White"""))
    assert "b4" not in moves(state)
    with pytest.raises(IllegalMoveError, match="b4: suicide"):
        state.play("b4")
    # With a White stone in atari next to it, the same point captures and is legal.
    state = go().from_text(pos("""
        W B W . .
        B . B W .
        W B W . .
        . W . . .
        . . . . .
        mover: White"""))
    assert "b4" in moves(state)


KO = """
    . B W . .
    B W . W .
    . B W . .
    . . . . .
    . . . . .
    mover: Black"""


@pytest.mark.parametrize("openspiel", [False, True])
def test_ko_cannot_be_taken_back_at_once(openspiel):
    game = go(openspiel=openspiel)
    taken = game.from_text(pos(KO)).play("c4")  # Black captures the White stone on b4
    assert taken.to_text().splitlines()[1] == "B . B W ."
    with pytest.raises(IllegalMoveError, match="b4: .*(ko|superko)"):
        taken.play("b4")
    # After a move elsewhere by each, the ko may be taken back.
    later = taken.play("e1").play("d1")
    assert "b4" in moves(later)


def test_superko_forbids_any_earlier_position_but_the_simple_ko_option_does_not():
    # Recreate a position from several turns ago without an immediate ko: a stone is captured
    # and the same shape is played again.
    published = go()
    state = published.from_text(pos(KO)).play("c4").play("e1").play("d1")
    retake = state.play("b4")  # a new board (e1 and d1 are on it): allowed
    assert retake.mover == "Black"


def test_passing_twice_ends_and_area_decides():
    state = go(komi=0.5).from_text(pos("""
        . B W . .
        . B W . .
        . B W . .
        . B W . .
        . B W . .
        mover: Black"""))
    end = state.play("pass").play("pass")
    # Black: 5 stones + 5 empty = 10; White: 5 + 10 = 15, plus komi.
    assert end.is_over and end.winner == "White"
    bigger = go(komi=0.0).from_text(pos("""
        . . B W .
        . . B W .
        . . B W .
        . . B W .
        . . B W .
        mover: Black"""))
    assert bigger.play("pass").play("pass").winner == "Black"  # 15 against 10
    # The middle column touches both colours: it is nobody's. 10 against 10 draws.
    tie = go(komi=0.0).from_text(pos("""
        . B . W .
        . B . W .
        . B . W .
        . B . W .
        . B . W .
        mover: Black"""))
    draw = tie.play("pass").play("pass")
    assert draw.is_over and draw.winner is None
    assert go(komi=0.5).from_text(tie.to_text()).play("pass").play("pass").winner == "White"


def test_openspiel_turn_limit_and_repetition_draw():
    game = go(size=2, openspiel=True)
    state = game.initial_state()
    rng = random.Random(3)
    while not state.is_over:
        state = state.play(rng.choice(state.legal_moves()))
    assert state.is_over


@settings(derandomize=True, database=None, deadline=None, max_examples=15)
@given(st.integers(0, 2**32 - 1), st.booleans())
def test_random_games_leave_every_chain_a_liberty(seed: int, openspiel: bool):
    game = go(openspiel=openspiel)
    rng = random.Random(seed)
    state = game.initial_state()
    seen = {state.to_text().split("mover")[0]}
    while not state.is_over:
        move = rng.choice(state.legal_moves())
        state = state.play(move)
        board = state.to_text().split("mover")[0]
        rows = [r.split() for r in board.strip().splitlines()]
        n = len(rows)
        for y in range(n):
            for x in range(n):
                if rows[y][x] != ".":
                    assert _liberties(rows, x, y), (str(move), board)
        if not openspiel and str(move) != "pass":
            assert board not in seen  # positional superko
        seen.add(board)


def _liberties(rows: list[list[str]], x: int, y: int) -> bool:
    """Does the chain through (x, y) touch an empty point? (An independent flood fill.)"""
    colour, n = rows[y][x], len(rows)
    stack, chain = [(x, y)], {(x, y)}
    while stack:
        cx, cy = stack.pop()
        for nx, ny in ((cx + 1, cy), (cx - 1, cy), (cx, cy + 1), (cx, cy - 1)):
            if 0 <= nx < n and 0 <= ny < n:
                if rows[ny][nx] == ".":
                    return True
                if rows[ny][nx] == colour and (nx, ny) not in chain:
                    chain.add((nx, ny))
                    stack.append((nx, ny))
    return False


SHUTTLE = """(game "Shuttle" (players {{(player "A") (player "B")}}) (board (rectangle 4 1))
  (start (put "A" (sites {{"a1"}})) (put "B" (sites {{"d1"}})))
  (play (step Orthogonal) (forbid {rule}))
  (end (if (stuck Next) (win Mover))))"""


@pytest.mark.parametrize("rule, back_allowed", [("(repeated)", False),
                                                 ("(repeated last:2)", True)])
def test_repeated_sees_every_earlier_board_or_only_the_last(rule, back_allowed):
    from interpreter import parse_game

    game = parse_game(SHUTTLE.format(rule=rule), source="shuttle.game")
    state = game.initial_state().play("a1-b1").play("d1-c1").play("b1-a1")
    assert ("c1-d1" in moves(state)) is back_allowed  # d1 again: the start position
    assert "c1-b1" in moves(state)


def test_the_ko_survives_the_position_text():
    game = go()
    taken = game.from_text(pos(KO)).play("c4")
    text = taken.to_text()
    assert "before: b4=W c4=." in text  # the board before the capture, as far as it differed
    again = game.from_text(text)
    assert again.to_text() == text
    assert "b4" not in moves(again)


def test_the_turn_count_survives_the_position_text():
    game = go(size=2, openspiel=True)
    state = game.initial_state().play("a1").play("pass")
    assert "turns: 2" in state.to_text()
    assert game.from_text(state.to_text()).to_text() == state.to_text()
