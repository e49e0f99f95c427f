"""Dots and Boxes, rule by rule from position texts, and what it is made of: the grid-lines
board, (closed-cells ...), scores (add-score, score, most-score) and move-again."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter import RuleError, load_game, parse_game

GAMES = Path(__file__).resolve().parent.parent / "games"


@cache
def dab(columns: int = 2, rows: int = 2):
    return load_game(GAMES / "dotsandboxes.game", columns=columns, rows=rows)


def moves(state) -> set[str]:
    return {str(m) for m in state.legal_moves()}


def test_lines_are_named_by_their_dots():
    g = dab()
    assert g.sites == ("a3b3", "b3c3", "a2a3", "b2b3", "c2c3", "a2b2", "b2c2", "a1a2", "b1b2",
                       "c1c2", "a1b1", "b1c1")
    assert moves(g.initial_state()) == set(g.sites)
    assert g.initial_state().to_text().splitlines()[:2] == [" . .", ". . ."]


def test_completing_a_box_scores_and_moves_again():
    state = dab().initial_state()
    for line in ("a1b1", "a1a2", "b1b2"):
        state = state.play(line)
    assert state.mover == "Second"
    after = state.play("a2b2")  # the fourth side of the bottom-left box
    assert after.mover == "Second"
    assert "score Second: 1" in after.to_text()
    assert after.play("a3b3").mover == "First"  # no box: play passes on


def test_a_line_closing_two_boxes_scores_two():
    # Two boxes side by side, every line drawn but the one between them.
    state = dab(2, 1).from_text("- -\n- . -\n- -\nmover: First\n")
    two = state.play("b1b2")
    assert "score First: 2" in two.to_text()
    assert two.is_over and two.winner == "First"


def test_the_higher_score_wins_when_every_line_is_drawn():
    g = dab(1, 1)
    state = g.initial_state()
    for line in ("a1b1", "a1a2", "b1b2"):
        state = state.play(line)
    end = state.play("a2b2")
    assert end.is_over and end.winner == "Second"


def test_equal_scores_draw():
    # The left box is Second's; First closes the right one with its last side.
    state = dab(2, 1).from_text("- -\n- - .\n- -\nmover: First\nscore Second: 1\n")
    end = state.play("c1c2")
    assert end.is_over and end.winner is None


def test_scores_round_trip_and_are_refused_where_there_are_none():
    g = dab()
    text = g.initial_state().play("a1b1").to_text()
    bumped = text + "score First: 3\n"
    assert g.from_text(bumped).to_text() == bumped
    hex_game = load_game(GAMES / "hex.game", size=3)
    with pytest.raises(Exception, match="keeps no scores"):
        hex_game.from_text(hex_game.initial_state().to_text() + "score Red: 1\n")


def test_closed_cells_needs_a_board_with_cells():
    with pytest.raises(RuleError, match="needs a board with cells"):
        parse_game('(game "G" (players {(player "A") (player "B")}) (board (square 3)) '
                   '(play (place (sites Empty)) (move-again (> (closed-cells To) 0))) '
                   '(end (if (full) (draw))))', source="g.game")


@settings(derandomize=True, database=None, deadline=None, max_examples=40)
@given(st.integers(1, 4), st.integers(1, 4), st.integers(0, 2**32 - 1))
def test_random_games_score_every_box_once(columns: int, rows: int, seed: int):
    g = dab(columns, rows)
    rng = random.Random(seed)
    state = g.initial_state()
    drawn: set[str] = set()
    scores = {"First": 0, "Second": 0}
    while not state.is_over:
        line = rng.choice(state.legal_moves())
        mover = state.mover
        drawn.add(str(line))
        closed = _boxes_closed_by(str(line), drawn, columns, rows)
        state = state.play(line)
        scores[mover] += closed
        if not state.is_over:
            assert state.mover == (mover if closed else ("Second" if mover == "First"
                                                         else "First"))
    assert sum(scores.values()) == columns * rows
    best = max(scores.values())
    leaders = [r for r, s in scores.items() if s == best]
    assert state.winner == (leaders[0] if len(leaders) == 1 else None)


def _boxes_closed_by(line: str, drawn: set[str], columns: int, rows: int) -> int:
    """Boxes whose four sides are drawn and that have `line` as a side (independently)."""
    def name(i: int, j: int) -> str:
        return f"{chr(ord('a') + i)}{j + 1}"
    count = 0
    for i in range(columns):
        for j in range(rows):
            sides = {name(i, j) + name(i + 1, j), name(i, j + 1) + name(i + 1, j + 1),
                     name(i, j) + name(i, j + 1), name(i + 1, j) + name(i + 1, j + 1)}
            if line in sides and sides <= drawn:
                count += 1
    return count


def test_scores_show_in_the_repl_status_and_the_picture():
    from interpreter.display import status
    from interpreter.svg import render_svg

    g = dab()
    state = g.initial_state()
    for line in ("a1b1", "a1a2", "b1b2", "a2b2"):
        state = state.play(line)
    assert status(g, state) == "Second to move. Scores: First 0, Second 1."
    assert "Scores: First 0, Second 1." in render_svg(state)
