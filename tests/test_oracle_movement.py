"""The movement games against OpenSpiel, an independent engine: Clobber.

Clobber is played as random games through ludeme and OpenSpiel in lockstep (`tests/oracle.py`):
at every position the legal moves, the player to move and whether the game is over must agree,
and at the end the winner must match OpenSpiel's returns. The default size and a small one get
several hundred games each, a few other shapes fewer; random positions (not only those reached
from the start) are compared too, through OpenSpiel's board-string constructor.

What OpenSpiel plays, read from open_spiel/games/clobber/clobber.cc and checked below:

- parameters `rows` (default 5) and `columns` (default 6); both must be at least 2, since the
  actions are ranked over the bases (rows, columns, 4) and RankActionMixedBase needs bases above
  1 (a 1-row or 1-column board aborts with a SpielError).
- the start: a checkerboard with White (`o`, player 0) on the bottom-left cell; White moves first.
- action (r * columns + c) * 4 + d moves the stone on row r from the top, column c, one step in
  direction d (0 north, 1 east, 2 south, 3 west) onto an opponent's stone, which is removed.
  `action_to_string` writes it `a5b5`: column letter, row number from the bottom, twice.
- after each move the game ends if no stone of either colour is orthogonally next to the other
  colour (MovesRemaining looks at both players, which is the same as asking about the next
  player, since adjacency is symmetric); the player who just moved wins: returns [1, -1] or
  [-1, 1], never a draw. A board string `<mover digit><cells from top-left>` starts from any
  position and is terminal, won by the player not to move, when nobody can move.
- MaxGameLength is rows * columns - 1.
- the initial state is never judged: on a board where the first player cannot move at the start
  (only 1 x 1, which OpenSpiel cannot build anyway) the state would be non-terminal with no legal
  actions.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from oracle import (
    KING,
    ORTHOGONAL,
    ActionMap,
    OracleMismatch,
    clobber_action_map,
    compare,
    follow,
    game_rng,
    lockstep,
    ludeme_edges,
    random_chooser,
    rectangle_board,
    require_openspiel,
)

from interpreter import load_game

pyspiel = require_openspiel("clobber")

GAMES = Path(__file__).resolve().parent.parent / "games"
ROLES = ("White", "Black")
SYMBOL = {"White": "o", "Black": "x"}
COMPASS = ("N", "E", "S", "W")  # ORTHOGONAL's directions, as ludeme's graph names them


def clobber(rows: int, columns: int) -> Any:
    path = GAMES / "clobber.game"
    return load_game(path, rows=rows, columns=columns)


def spiel_clobber(rows: int, columns: int) -> Any:
    return pyspiel.load_game("clobber", {"rows": rows, "columns": columns})


# The board and the actions, by geometry -------------------------------------------------------


SHAPES = [(2, 2), (2, 7), (4, 4), (5, 6), (7, 3), (8, 8), (26, 26)]


@pytest.mark.parametrize(("rows", "columns"), SHAPES)
def test_board_geometry(rows: int, columns: int) -> None:
    """OpenSpiel's cells, named by geometry, are ludeme's sites; OpenSpiel's four directions are
    the ludeme grid's non-diagonal edges, named N, E, S, W as OpenSpiel orders them; the whole
    ludeme graph is the eight-neighbour grid."""
    game = clobber(rows, columns)
    graph = game.graph
    board = rectangle_board(rows, columns)
    assert set(board.sites.values()) == set(game.sites)
    assert len(board.sites) == len(game.sites)
    assert rectangle_board(rows, columns, KING).edges() == ludeme_edges(game)
    assert board.edges() == {frozenset((u, v)) for u, v, diagonal
                             in graph.edges(data="diagonal") if not diagonal}
    for cell, name in board.sites.items():
        r, c = divmod(cell, columns)
        for d, (dr, dc) in enumerate(ORTHOGONAL):
            if 0 <= r + dr < rows and 0 <= c + dc < columns:
                to = board.sites[(r + dr) * columns + c + dc]
                assert graph.edges[name, to]["directions"][name] == COMPASS[d]


@pytest.mark.parametrize(("rows", "columns"), SHAPES)
def test_actions_read_as_openspiel_writes_them(rows: int, columns: int) -> None:
    """Each action the geometry names is OpenSpiel's own `action_to_string` with a hyphen
    (`a5b5` is `a5-b5`), and the ones it leaves out step off the board."""
    spiel_game = spiel_clobber(rows, columns)
    state = spiel_game.new_initial_state()
    names = clobber_action_map(rows, columns).sites
    assert spiel_game.num_distinct_actions() == rows * columns * 4
    edges = rows * (columns - 1) + columns * (rows - 1)
    assert len(names) == 2 * edges
    for action, name in names.items():
        assert state.action_to_string(0, action) == name.replace("-", "")
    assert len(set(names.values())) == len(names)


def test_a_few_actions() -> None:
    names = clobber_action_map(5, 6).sites
    assert names[1] == "a5-b5"  # (0, 0), the top-left cell, east
    assert names[2] == "a5-a4"  # (0, 0) south
    assert 0 not in names and 3 not in names  # (0, 0) north and west: off the board
    assert names[(4 * 6 + 5) * 4 + 3] == "f1-e1"  # bottom-right cell, west
    assert names[(2 * 6 + 2) * 4 + 0] == "c3-c4"  # row 2 from the top is row 3, north


def test_defaults_and_start_position_agree() -> None:
    spiel_game = pyspiel.load_game("clobber")
    parameters = spiel_game.get_parameters()
    game = clobber(parameters["rows"], parameters["columns"])
    assert load_game(GAMES / "clobber.game").options == game.options
    assert game.options == {"rows": 5, "columns": 6}
    for rows, columns in SHAPES:
        game = clobber(rows, columns)
        spiel_lines = str(spiel_clobber(rows, columns).new_initial_state()).splitlines()
        # OpenSpiel: each row is its label (right-aligned) then the cells, then a column ruler.
        spiel_rows = [line.strip()[len(str(rows - r)):] for r, line in
                      enumerate(spiel_lines[:rows])]
        ours = game.initial_state().to_text().splitlines()
        assert [line.replace(" ", "") for line in ours[:rows]] == spiel_rows
        assert ours[rows] == "mover: White"


# Random games from the start ------------------------------------------------------------------


@pytest.mark.parametrize(("rows", "columns", "games", "seed"), [
    (5, 6, 1000, 1),  # the default
    (4, 4, 1000, 2),
    (2, 2, 50, 3),
    (2, 7, 150, 4),
    (7, 3, 150, 5),
    (8, 8, 100, 6),
])
def test_random_games_agree_with_openspiel(rows: int, columns: int, games: int,
                                           seed: int) -> None:
    game = clobber(rows, columns)
    summary = compare(game, spiel_clobber(rows, columns), clobber_action_map(rows, columns),
                      games=games, seed=seed, label=f"clobber {columns} x {rows}")
    assert summary.games == games
    assert summary.draws == 0
    if games >= 100:  # both colours win some
        assert all(summary.wins.get(role, 0) > games // 10 for role in ROLES), summary
    assert summary.mean_length <= rows * columns - 1


# Random positions -----------------------------------------------------------------------------


def random_position(rng: random.Random, rows: int, columns: int) -> tuple[str, str]:
    """A random board (each cell empty, White or Black, with a random density) and mover: the
    ludeme position text and OpenSpiel's board string."""
    density = rng.random()
    cells = [[rng.choice("ox") if rng.random() < density else "." for _ in range(columns)]
             for _ in range(rows)]
    mover = rng.randrange(2)
    text = "\n".join([*(" ".join(row) for row in cells), f"mover: {ROLES[mover]}"]) + "\n"
    return text, str(mover) + "".join("".join(row) for row in cells)


@pytest.mark.parametrize(("rows", "columns", "positions", "seed"), [
    (5, 6, 500, 7), (4, 4, 500, 8), (3, 9, 200, 9), (2, 2, 100, 10),
])
def test_random_positions_agree_with_openspiel(rows: int, columns: int, positions: int,
                                               seed: int) -> None:
    """From random positions (a mover with stones but no move, no stones at all, one colour
    alone...), both engines agree at once and along a random game from there."""
    game = clobber(rows, columns)
    spiel_game = spiel_clobber(rows, columns)
    action_map = clobber_action_map(rows, columns)
    over = 0
    for number in range(positions):
        rng = game_rng(seed, number)
        text, board_string = random_position(rng, rows, columns)
        state = game.from_text(text)
        assert state.to_text() == text
        end = lockstep(game, spiel_game, action_map, random_chooser(rng),
                       label=f"clobber {columns} x {rows}",
                       where=f"random position {number} (seed {seed}):\n{text}",
                       max_plies=rows * columns, start=(state, spiel_game.new_initial_state(
                           board_string)))
        over += not end.moves
    assert 0 < over < positions  # some positions were over already, most were not


# Chosen lines and the harness itself ---------------------------------------------------------


def test_a_scripted_game_to_its_end() -> None:
    """2 x 2: White's a1 takes b1, Black's a2 takes b2, White's b1 takes b2, the last Black
    stone."""
    game = clobber(2, 2)
    end = follow(game, spiel_clobber(2, 2), clobber_action_map(2, 2),
                 ["a1-b1", "a2-b2", "b1-b2"])
    assert end.state.is_over and end.state.winner == "White"
    assert end.spiel_state.returns() == [1.0, -1.0]


def upside_down(name: str, rows: int) -> str:
    """A move's notation with the rows counted from the top: the classic mistake."""
    return "-".join(f"{site[0]}{rows + 1 - int(site[1:])}" for site in name.split("-"))


def test_harness_reports_a_disagreement() -> None:
    """A mapping that counts OpenSpiel's rows from the bottom is caught at once, with the
    moves only one engine allows."""
    game = clobber(2, 2)
    wrong = ActionMap({a: upside_down(name, 2)
                       for a, name in clobber_action_map(2, 2).sites.items()})
    with pytest.raises(OracleMismatch) as caught:
        follow(game, spiel_clobber(2, 2), wrong, [])
    message = str(caught.value)
    assert "after 0 moves: the legal moves differ" in message
    assert "only OpenSpiel allows: a2-a1 a2-b2 b1-a1 b1-b2" in message
    assert "only ludeme allows:    a1-a2 a1-b1 b2-a2 b2-b1" in message
