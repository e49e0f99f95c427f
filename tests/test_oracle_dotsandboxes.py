"""Dots and Boxes against OpenSpiel's `dots_and_boxes`, an independent engine.

Random games are played through ludeme (games/dotsandboxes.game) and OpenSpiel in lockstep
(`tests/oracle.py`): at every position the legal moves, the player to move and whether the
game is over must agree, and at the end the winner must match OpenSpiel's returns. A second
comparison follows the scores box by box.

What OpenSpiel plays, read from open_spiel/games/dots_and_boxes/dots_and_boxes.cc and checked
below:

- Parameters num_rows and num_cols count boxes (default 2 x 2; ours 3 x 3): num_cols is our
  `columns` (boxes across), num_rows our `rows` (boxes up). utility_margin (default false)
  makes the returns the score difference instead of +1 / -1 / 0.
- Lines are actions. Horizontal line (r, c), 0 <= r <= num_rows, 0 <= c < num_cols, is action
  r * num_cols + c; vertical line (r, c), 0 <= r < num_rows, 0 <= c <= num_cols, is action
  (num_rows + 1) * num_cols + r * (num_cols + 1) + c. Row r counts dot rows from the TOP
  (ToString prints row 0 first, with the corners "┌" and "┐"); c counts from the left. So
  horizontal (r, c) joins the dots in column c and c + 1 of dot row r from the top, and
  vertical (r, c) joins the dots in column c of dot rows r and r + 1 from the top. Box (r, c)
  is bounded by h(r, c), h(r + 1, c), v(r, c) and v(r, c + 1) (DoApplyAction).
- Player 0 moves first. A line that completes one or two boxes scores them for the mover
  (points_), and the mover keeps the turn (current_player_ changes only when no box was won),
  also on the very last line.
- The game ends when every line is drawn (IsFull; Wins is only true on a full board), and the
  returns are [1, -1] or [-1, 1] for the higher score, [0, 0] for equal scores.

That is exactly our game, with roles First = player 0 and Second = player 1.
"""

from __future__ import annotations

import random
import re
import time
from pathlib import Path
from typing import Any

import pytest
from oracle import ActionMap, OracleMismatch, compare, follow, game_rng, require_openspiel, site

from interpreter import load_game

pyspiel = require_openspiel()

GAMES = Path(__file__).resolve().parent.parent / "games"
GAME = GAMES / "dotsandboxes.game"
GAMES_PER_CASE = 200


def ludeme(columns: int, rows: int) -> Any:
    """games/dotsandboxes.game, `columns` boxes across and `rows` up."""
    return load_game(GAME, columns=columns, rows=rows)


def spiel(columns: int, rows: int, margin: bool = False) -> Any:
    """OpenSpiel's game of the same size: num_cols boxes across, num_rows boxes down."""
    return pyspiel.load_game("dots_and_boxes", {"num_rows": rows, "num_cols": columns,
                                                "utility_margin": margin})


# The lines: OpenSpiel's actions named by geometry ---------------------------------------------


def dot(column: int, row_from_top: int, rows: int) -> str:
    """Our name of OpenSpiel's dot in `column` (from the left) and dot row `row_from_top`
    (from the top, 0 to `rows`): named like a chess square, rows counted up from 1."""
    return site(column, rows - row_from_top + 1)


def line_names(columns: int, rows: int) -> dict[int, str]:
    """OpenSpiel's action of each line -> our name of the line: its two dots, the left (across)
    or the lower (up) one first."""
    names: dict[int, str] = {}
    horizontal = (rows + 1) * columns
    for r in range(rows + 1):
        for c in range(columns):
            names[r * columns + c] = dot(c, r, rows) + dot(c + 1, r, rows)
    for r in range(rows):
        for c in range(columns + 1):
            # dot row r + 1 from the top is the lower end
            names[horizontal + r * (columns + 1) + c] = dot(c, r + 1, rows) + dot(c, r, rows)
    return names


def action_map(columns: int, rows: int) -> ActionMap:
    return ActionMap(line_names(columns, rows))


def split(name: str) -> tuple[tuple[int, int], tuple[int, int]]:
    """A line's two dots as (column, row) from the bottom-left, both from 0."""
    (c1, r1), (c2, r2) = re.findall(r"([a-z])(\d+)", name)
    return (ord(c1) - ord("a"), int(r1) - 1), (ord(c2) - ord("a"), int(r2) - 1)


SIZES = [(1, 1), (2, 1), (1, 2), (2, 2), (3, 2), (2, 3), (3, 3), (5, 4)]


@pytest.mark.parametrize(("columns", "rows"), SIZES)
def test_openspiel_lines_are_ours(columns: int, rows: int) -> None:
    """Every OpenSpiel action is a different line of ours and every line of ours is one; each
    joins two neighbouring dots, left or lower first; and each of OpenSpiel's boxes (its four
    sides as DoApplyAction checks them) is a unit square of dots."""
    game, spiel_game = ludeme(columns, rows), spiel(columns, rows)
    names = line_names(columns, rows)
    assert sorted(names) == list(range(spiel_game.num_distinct_actions()))
    assert sorted(names.values()) == sorted(game.sites)
    assert len(set(names.values())) == len(names)
    for name in names.values():
        (x1, y1), (x2, y2) = split(name)
        assert (x2 - x1, y2 - y1) in ((1, 0), (0, 1)), name
    horizontal = (rows + 1) * columns
    for r in range(rows):
        for c in range(columns):
            sides = [names[r * columns + c], names[(r + 1) * columns + c],
                     names[horizontal + r * (columns + 1) + c],
                     names[horizontal + r * (columns + 1) + c + 1]]
            dots = {d for side in sides for d in split(side)}
            xs, ys = {x for x, _ in dots}, {y for _, y in dots}
            assert len(dots) == 4 and len(xs) == 2 and len(ys) == 2, sides
            assert max(xs) - min(xs) == 1 and max(ys) - min(ys) == 1, sides
            assert (c, rows - 1 - r) in dots  # box (r, c) from the top: its lower-left dot


def test_a_few_names() -> None:
    """Spot checks against OpenSpiel's own names of its actions, P1(h|v,row,col)."""
    state = spiel(3, 2).new_initial_state()
    names = line_names(3, 2)
    assert state.action_to_string(0, 0) == "P1(h,0,0)" and names[0] == "a3b3"  # top-left
    assert state.action_to_string(0, 8) == "P1(h,2,2)" and names[8] == "c1d1"  # bottom-right
    assert state.action_to_string(0, 9) == "P1(v,0,0)" and names[9] == "a2a3"  # top-left, up
    assert state.action_to_string(0, 16) == "P1(v,1,3)" and names[16] == "d1d2"


def test_default_sizes() -> None:
    """Our default is 3 x 3 boxes; OpenSpiel's is 2 x 2."""
    game = load_game(GAME)
    assert (game.options["columns"], game.options["rows"]) == (3, 3)
    params = pyspiel.load_game("dots_and_boxes").get_parameters()
    assert (params["num_cols"], params["num_rows"]) == (2, 2)


# Random games --------------------------------------------------------------------------------


CASES = [(3, 3, 1), (2, 2, 2), (3, 2, 3), (2, 3, 4), (1, 1, 5), (4, 1, 6)]
"""(columns, rows, seed): our default size, OpenSpiel's, both non-square shapes, and slivers."""


@pytest.mark.parametrize(("columns", "rows", "seed"), CASES,
                         ids=[f"{c}x{r}" for c, r, _ in CASES])
def test_random_games_agree_with_openspiel(columns: int, rows: int, seed: int) -> None:
    game, spiel_game = ludeme(columns, rows), spiel(columns, rows)
    games = GAMES_PER_CASE if columns * rows > 1 else 20  # 1 x 1 has only 4! orders
    summary = compare(game, spiel_game, action_map(columns, rows), games=games, seed=seed,
                      label=f"dotsandboxes {columns}x{rows}")
    assert summary.games == games
    lines = len(game.sites)
    assert summary.plies == games * lines  # every game draws every line
    if columns * rows % 2 == 0 and columns * rows > 2:
        assert summary.draws > 0
    if columns * rows == 1:  # four lines: Second always draws the last
        assert summary.wins == {"Second": games}
    else:
        assert set(summary.wins) == {"First", "Second"}


# Scores, box by box ------------------------------------------------------------------------


def our_scores(state: Any, roles: tuple[str, ...]) -> list[int]:
    """The scores in the position text (`score ROLE: N`, left out when 0)."""
    found = dict(re.findall(r"^score (\w+): (\d+)$", state.to_text(), re.MULTILINE))
    return [int(found.get(role, 0)) for role in roles]


def spiel_scores(spiel_state: Any) -> list[int]:
    """OpenSpiel's boxes per player: ToString writes " 1 " or " 2 " in each won box and no
    other digit."""
    text = str(spiel_state)
    return [text.count("1"), text.count("2")]


@pytest.mark.parametrize(("columns", "rows", "seed"), [(3, 3, 11), (3, 2, 12)])
def test_scores_and_margins_agree_with_openspiel(columns: int, rows: int, seed: int) -> None:
    """At every position both engines have the same boxes scored for each player; at the end,
    OpenSpiel's utility_margin returns are our score difference."""
    game, spiel_game = ludeme(columns, rows), spiel(columns, rows, margin=True)
    names = line_names(columns, rows)
    roles = tuple(game.players)
    for number in range(100):
        rng = game_rng(seed, number)
        state, spiel_state = game.initial_state(), spiel_game.new_initial_state()
        moves: list[str] = []
        while not spiel_state.is_terminal():
            action = rng.choice(spiel_state.legal_actions())
            state = state.play(names[action])
            spiel_state.apply_action(action)
            moves.append(names[action])
            ours, theirs = our_scores(state, roles), spiel_scores(spiel_state)
            if ours != theirs:
                raise OracleMismatch(
                    f"dotsandboxes {columns}x{rows}, game {number} (seed {seed}): scores "
                    f"{ours} (ours) and {theirs} (OpenSpiel) after {' '.join(moves)}\n"
                    f"{state.to_text()}\n{spiel_state}")
        assert state.is_over
        first, second = our_scores(state, roles)
        assert spiel_state.returns() == [first - second, second - first], moves


# Chosen lines ---------------------------------------------------------------------------------


def test_closing_a_box_moves_again_in_both() -> None:
    """1 x 1: three lines, then the fourth scores and the same player would move again."""
    end = follow(ludeme(1, 1), spiel(1, 1), action_map(1, 1), ["a1b1", "a1a2", "b1b2", "a2b2"])
    assert end.state.winner == "Second" and end.spiel_state.returns() == [-1.0, 1.0]


def test_two_boxes_at_once_in_both() -> None:
    """2 x 1: every line but the middle one alternately, then First's middle line closes both
    boxes at once and scores two."""
    lines = ["a1b1", "b1c1", "a2b2", "a1a2", "c1c2", "b2c2", "b1b2"]
    end = follow(ludeme(2, 1), spiel(2, 1), action_map(2, 1), lines)
    assert end.state.winner == "First" and end.spiel_state.returns() == [1.0, -1.0]
    assert our_scores(end.state, ("First", "Second")) == [2, 0]


def test_a_drawn_game_in_both() -> None:
    """2 x 1, one box each: First closes the left box with its fifth line and moves again,
    Second closes the right one; equal scores are a draw, [0, 0] in OpenSpiel."""
    lines = ["a1b1", "a1a2", "b1c1", "b1b2", "a2b2", "c1c2", "b2c2"]
    end = follow(ludeme(2, 1), spiel(2, 1), action_map(2, 1), lines)
    assert end.state.is_over and end.state.winner is None
    assert end.spiel_state.returns() == [0.0, 0.0]
    assert our_scores(end.state, ("First", "Second")) == [1, 1]


def flipped(names: dict[int, str], rows: int, which: str) -> dict[int, str]:
    """`names` with the lines of kind `which` ("across", "up" or both: "") turned upside down,
    as if OpenSpiel's rows were read from the bottom."""
    out: dict[int, str] = {}
    for action, name in names.items():
        (x1, y1), (x2, y2) = split(name)
        kind = "across" if y1 == y2 else "up"
        if which in ("", kind):
            (x1, y1), (x2, y2) = sorted([(x1, rows - y1), (x2, rows - y2)], key=lambda d: d[1])
        out[action] = site(x1, y1 + 1) + site(x2, y2 + 1)
    return out


def test_harness_sees_geometry_only_up_to_symmetry() -> None:
    """Any one-to-one naming of the lines agrees on the legal moves; only the boxes tell
    geometry apart, and only up to the board's symmetries: reading every one of OpenSpiel's
    rows from the bottom (the board upside down) plays the same game, which is why the tests
    above pin the names themselves. Turning only the lines across upside down is caught."""
    game, spiel_game, names = ludeme(3, 3), spiel(3, 3), line_names(3, 3)
    upside_down = flipped(names, 3, "")
    assert upside_down != names and sorted(upside_down.values()) == sorted(game.sites)
    compare(game, spiel_game, ActionMap(upside_down), games=20, seed=98)
    half = flipped(names, 3, "across")
    assert sorted(half.values()) == sorted(game.sites)
    with pytest.raises(OracleMismatch, match="mover|the legal moves differ"):
        compare(game, spiel_game, ActionMap(half), games=20, seed=99)


def test_speed_budget() -> None:
    """A random game at the default size costs milliseconds (the comparison runs 200)."""
    game = ludeme(3, 3)
    rng = random.Random(0)
    start = time.perf_counter()
    for _ in range(20):
        state = game.initial_state()
        while not state.is_over:
            state = state.play(rng.choice(state.legal_moves()))
    assert time.perf_counter() - start < 5
