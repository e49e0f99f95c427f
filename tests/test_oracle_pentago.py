"""games/pentago.game against OpenSpiel's `pentago`, turn by turn, and its rules from positions.

OpenSpiel makes a whole turn one action — a cell and one of eight quarter turns of a quadrant
(`open_spiel/games/pentago/pentago.cc`: action = (y * 6 + x) * 8 + r, quadrant r >> 1, clockwise
when r is odd) — where ludeme's turn is two decisions, a placement then `NE:cw`. At every
position of seeded random games, the set of whole turns (each placement followed by each
transform) must be OpenSpiel's legal actions, translated by geometry: OpenSpiel's cell (x, y),
with y = 0 its top row, is ludeme's site in column x and row 6 - y; quadrant 0 is the top left
(NW), then NE, SE, SW clockwise; both draw with y down, so a clockwise turn is clockwise in both.
After each turn the boards must be the same, and at the end the returns.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import IllegalMoveError, load_game
from tests.oracle import require_openspiel, site

ROOT = Path(__file__).resolve().parent.parent
QUADRANTS = ("NW", "NE", "SE", "SW")


@pytest.fixture(scope="module")
def pentago():
    return load_game(ROOT / "games" / "pentago.game")


def spiel_turn(action: int) -> tuple[str, str]:
    """An OpenSpiel action as (the site placed on, the transform: `NE:cw`)."""
    cell, r = divmod(action, 8)
    y, x = divmod(cell, 6)
    return site(x, 6 - y), f"{QUADRANTS[r >> 1]}:{'cw' if r & 1 else 'ccw'}"


def whole_turns(state) -> set[tuple[str, str]]:
    turns = set()
    for place in state.legal_moves():
        after = state.play(place)
        turns |= {(str(place), str(t)) for t in after.legal_moves()}
    return turns


def spiel_board(spiel_state) -> list[str]:
    """The cells' contents from player 0's observation: W (first player), B or '.'."""
    tensor = spiel_state.observation_tensor(0)
    cells = []
    for position in range(36):
        if tensor[position]:
            cells.append("W")
        elif tensor[36 + position]:
            cells.append("B")
        else:
            cells.append(".")
    return cells


def ludeme_board(game, state) -> list[str]:
    cells = []
    for position in range(36):
        y, x = divmod(position, 6)
        piece = state.piece_at(site(x, 6 - y))
        cells.append("." if piece is None else piece[0])
    return cells


@pytest.mark.parametrize("seed", range(6))
def test_whole_turns_boards_and_results_match_openspiel(pentago, seed: int) -> None:
    spiel = require_openspiel("pentago")
    rng = random.Random(seed)
    spiel_game = spiel.load_game("pentago")
    spiel_state = spiel_game.new_initial_state()
    state = pentago.initial_state()
    moves: list[str] = []
    while not spiel_state.is_terminal():
        assert not state.is_over, f"seed {seed}, after {moves}: ludeme says {state.outcome}"
        assert state.mover == ("White", "Black")[spiel_state.current_player()]
        expected = {spiel_turn(a) for a in spiel_state.legal_actions()}
        assert whole_turns(state) == expected, f"seed {seed}, after {moves}"
        action = rng.choice(spiel_state.legal_actions())
        place, transform = spiel_turn(action)
        spiel_state.apply_action(action)
        state = state.play(place).play(transform)
        moves += [place, transform]
        assert ludeme_board(pentago, state) == spiel_board(spiel_state), f"seed {seed}: {moves}"
    assert state.is_over, f"seed {seed}: OpenSpiel ended the game after {moves}, ludeme did not"
    returns = spiel_state.returns()
    winner = None if returns[0] == returns[1] else ("White", "Black")[returns.index(1.0)]
    assert state.winner == winner, f"seed {seed}: {moves}"


# Rules from positions ------------------------------------------------------------------------


def test_a_quadrant_turns_both_ways_and_an_empty_one_may_be_turned(pentago) -> None:
    state = pentago.from_text(". . . . . .\n. . . . . .\n. . . . . .\nW . . . . .\n"
                              ". . . . . .\n. . . . . .\nmover: White\ndecision: 2\n")
    assert [str(m) for m in state.legal_moves()] == [
        "NW:cw", "NW:ccw", "NE:cw", "NE:ccw", "SW:cw", "SW:ccw", "SE:cw", "SE:ccw"]
    assert state.play("SW:cw").piece_at("c3") == "White"  # a3 goes to c3, clockwise
    assert state.play("SW:ccw").piece_at("a1") == "White"
    assert state.play("NE:cw").piece_at("a3") == "White"  # nothing moves
    assert state.play("NE:ccw").mover == "Black"


def test_five_in_a_row_counts_after_the_turn(pentago) -> None:
    # White places the fifth marble of a row, then must turn a quadrant: turning the row's
    # own quadrant breaks it; turning another keeps it and wins.
    text = ("W W W W . .\n. . . . . .\n. . . . . .\n. . . . . .\n. . . . . .\n"
            "B B B B . .\nmover: White\n")
    state = pentago.from_text(text).play("e6")
    assert state.play("SE:cw").winner == "White"
    assert not state.play("NE:cw").is_over  # e6 leaves the row


def test_a_turn_giving_both_five_is_a_draw(pentago) -> None:
    # Both rows stand in the northern quadrants; turning an empty southern one keeps both.
    text = ("W W W W W .\nB B B B B .\n. . . . . .\n. . . . . .\n. . . . . .\n"
            ". . . . . .\nmover: White\ndecision: 2\n")
    state = pentago.from_text(text)
    assert not state.is_over  # no end condition is judged in the middle of a turn
    assert state.play("SW:cw").outcome.reason == "both have five in a row"
    assert state.play("SW:cw").winner is None


def test_transform_notation_and_refusals(pentago) -> None:
    state = pentago.initial_state().play("a1")
    assert state.play("SW:CW").to_text() == state.play("SW:cw").to_text()
    with pytest.raises(IllegalMoveError, match="NE:half: not a legal move"):
        state.play("NE:half")  # half turns are not in this game
    with pytest.raises(IllegalMoveError, match="XX:cw"):
        state.play("XX:cw")


def test_a_region_that_does_not_turn_onto_itself_is_refused() -> None:
    from interpreter import parse_game

    with pytest.raises(Exception, match="does not map onto itself"):
        parse_game("""(game "Bad" (players {(player "A") (player "B")}) (board (square 4))
          (region "Strip" (sites Row 1))
          (play (place (sites Empty)) (transform-region {"Strip"}))
          (end (if (full) (draw))))""")
