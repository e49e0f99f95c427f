"""The connection games against OpenSpiel, an independent engine (issue 12, item 4).

Hex, Gomoku, Havannah and Y are played as random games through ludeme and OpenSpiel in
lockstep (`tests/oracle.py`): at every position the legal moves, the player to move and whether
the game is over must agree, and at the end the winner must match OpenSpiel's returns. Each
game is compared at its default size and at a small one, 200 games each.

What OpenSpiel plays, read from its sources (open_spiel/games/*/*.cc) and checked below:

- hex: Black (player 0) moves first and joins the top and bottom rows, like our Red. With
  swap=true the second player may answer the first move with action size*size; OpenSpiel then
  replaces the first stone with the second player's stone on the mirror-image cell (r, c) ->
  (c, r) and the first player moves again. Ours exchanges the players and keeps the board.
  The two are the same game up to that mirror, and the harness compares them so.
- gomoku: size 15, connect 5; a line of `connect` OR MORE wins (FindWinLineFromLastMove counts
  the run through the last stone, capped at `connect`): freestyle gomoku, our overline:true.
  A full board without a line is a draw. No opening rule.
- havannah: board_size cells a side (default 8). A group wins by a fork (3 of the 6 sides; a
  corner is on no side), a bridge (2 corners) or a ring (CheckRingDFS: a loop of the mover's
  stones with no turn sharper than 60 degrees, which is exactly a loop around at least one
  cell, whatever the enclosed cells hold: empty, the opponent's, or the mover's own). A full
  board is a draw. swap=true: the second player may play on the first stone's cell, which
  turns that stone into theirs; the first player moves again.
- y: the regular triangle, board_size 19 by default, apex drawn at the bottom (ours at the top:
  the board is turned over); no swap. The board cannot fill without a winner.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from oracle import (
    ActionMap,
    Board,
    OracleMismatch,
    compare,
    follow,
    havannah_action_map,
    havannah_board,
    hex_action_map,
    hex_board,
    ludeme_edges,
    require_openspiel,
    square_board,
    y_board,
)

from interpreter import load_game, parse_game

pyspiel = require_openspiel()
# Hex's swap option arrived in 1.6.10, Gomoku in 1.6.12, and Gomoku's full-board draw in 1.6.14
# (before it, a full board without a line was not terminal).
NEEDED = (1, 6, 14)
VERSION = tuple(int(p) for p in re.findall(r"\d+", getattr(pyspiel, "__version__", "0"))[:3])
if VERSION < NEEDED:
    pytest.skip(f"OpenSpiel {pyspiel.__version__} is older than 1.6.14, the first release whose "
                "Hex, Gomoku, Havannah and Y these tests compare with", allow_module_level=True)

GAMES = Path(__file__).resolve().parent.parent / "games"
GAMES_PER_CASE = 200


def ludeme(name: str, **options: Any) -> Any:
    """games/NAME.game with options."""
    path = GAMES / f"{name}.game"
    return load_game(path, **options)


# The boards: OpenSpiel's cells, named by geometry, have the ludeme board's adjacency ----------


BOARD_LUDEMES = {"hex": "hex-rhombus", "square": "square", "havannah": "hexhex",
                 "y": "hex-triangle"}
BOARDS = {"hex": hex_board, "square": square_board, "havannah": havannah_board, "y": y_board}


def board_only(kind: str, size: int) -> Any:
    """A game that is nothing but the board, to look at the board ludeme alone."""
    return parse_game(f'(game "Board" (players {{(player "A") (player "B")}}) '
                      f"(board ({BOARD_LUDEMES[kind]} {size})) (play (place (sites Empty))) "
                      f"(end (if (full) (draw))))", source=f"{kind}-board.game")


def assert_same_board(board: Board, game: Any) -> None:
    assert set(board.sites.values()) == set(game.sites)
    assert len(set(board.sites.values())) == len(board.sites)
    assert board.edges() == ludeme_edges(game)


@pytest.mark.parametrize(("kind", "size"), [
    ("hex", 1), ("hex", 2), ("hex", 5), ("hex", 11), ("hex", 14),
    ("square", 5), ("square", 9), ("square", 15), ("square", 19),
    ("havannah", 1), ("havannah", 2), ("havannah", 4), ("havannah", 8), ("havannah", 10),
    ("y", 1), ("y", 2), ("y", 5), ("y", 19), ("y", 26),
])
def test_board_geometry(kind: str, size: int) -> None:
    """OpenSpiel's neighbours (from its own coordinates) are the board ludeme's neighbours."""
    assert_same_board(BOARDS[kind](size), board_only(kind, size))


@pytest.mark.parametrize(("name", "kind", "parameter"), [
    ("hex", "hex", "board_size"), ("gomoku", "square", "size"),
    ("havannah", "havannah", "board_size"), ("y", "y", "board_size"),
])
def test_game_boards_and_default_sizes(name: str, kind: str, parameter: str) -> None:
    """Each game file's board is OpenSpiel's at the default size, and the defaults agree."""
    game = ludeme(name)
    size = pyspiel.load_game(name).get_parameters()[parameter]
    assert game.options["size"] == size
    assert_same_board(BOARDS[kind](size), game)


def test_a_few_names() -> None:
    """Spot checks of the naming against the README's pictures."""
    assert hex_board(3).sites[0] == "a3"  # OpenSpiel's top-left cell, Black's north edge
    assert hex_board(3).sites[8] == "c1"
    assert square_board(15).sites[0] == "a15" and square_board(15).sites[224] == "o1"
    # havannah side 3: the top row is a5 b5 c5, the middle row a3 .. e3, the bottom a1 b1 c1
    d = 5
    assert havannah_board(3).sites[0] == "a5" and havannah_board(3).sites[2] == "c5"
    assert havannah_board(3).sites[0 + 2 * d] == "a3"
    assert havannah_board(3).sites[2 + 4 * d] == "a1"
    # y side 4: OpenSpiel's long top row is our bottom row; its bottom cell is our apex
    assert y_board(4).sites[0] == "a1" and y_board(4).sites[3] == "d1"
    assert y_board(4).sites[0 + 3 * 4] == "a4"


# Random games --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """One comparison: a ludeme game file with options against an OpenSpiel game."""

    name: str
    options: dict[str, Any]
    spiel: str
    params: dict[str, Any]
    seed: int
    swap_probability: float | None = None
    games: int = GAMES_PER_CASE

    def action_map(self) -> ActionMap:
        size = self.options["size"]
        pie = bool(self.options.get("pie"))
        if self.spiel == "hex":
            return hex_action_map(size, pie)
        if self.spiel == "havannah":
            return havannah_action_map(size, pie)
        if self.spiel == "gomoku":
            return ActionMap(square_board(size).sites)
        return ActionMap(y_board(size).sites)


CASES = [
    Case("hex", {"size": 5}, "hex", {"board_size": 5}, seed=1),
    Case("hex", {"size": 5, "pie": True}, "hex", {"board_size": 5, "swap": True}, seed=2,
         swap_probability=0.5),
    Case("hex", {"size": 11}, "hex", {"board_size": 11}, seed=3),
    Case("hex", {"size": 11, "pie": True}, "hex", {"board_size": 11, "swap": True}, seed=4,
         swap_probability=0.5),
    Case("gomoku", {"size": 9, "overline": True}, "gomoku", {"size": 9, "connect": 5}, seed=5),
    Case("gomoku", {"size": 15, "overline": True}, "gomoku", {"size": 15, "connect": 5},
         seed=6),
    Case("havannah", {"size": 4}, "havannah", {"board_size": 4}, seed=7),
    Case("havannah", {"size": 4, "pie": True}, "havannah", {"board_size": 4, "swap": True},
         seed=8, swap_probability=0.5),
    Case("havannah", {"size": 8}, "havannah", {"board_size": 8}, seed=9),
    Case("havannah", {"size": 8, "pie": True}, "havannah", {"board_size": 8, "swap": True},
         seed=10, swap_probability=0.5),
    Case("y", {"size": 5}, "y", {"board_size": 5}, seed=11),
    Case("y", {"size": 19}, "y", {"board_size": 19}, seed=12),
]


def case_id(case: Case) -> str:
    return "-".join([case.name, *(f"{k}={v}" for k, v in case.options.items())])


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_random_games_agree_with_openspiel(case: Case) -> None:
    game = ludeme(case.name, **case.options)
    spiel_game = pyspiel.load_game(case.spiel, case.params)
    summary = compare(game, spiel_game, case.action_map(), games=case.games, seed=case.seed,
                      label=f"{case.name} {case.options}",
                      swap_probability=case.swap_probability)
    assert summary.games == case.games
    if case.swap_probability:
        assert summary.swaps > case.games // 4  # the pie was really exercised


# Chosen lines: the rules where the engines could differ ---------------------------------------


def test_hex_swap_is_openspiel_mirrored_stone() -> None:
    """After `b5 swap` ludeme keeps Red's stone on b5 and Blue moves; OpenSpiel has White's
    stone on the mirror-image cell and Black moves: the same position, mirrored."""
    game = ludeme("hex", size=5, pie=True)
    spiel_game = pyspiel.load_game("hex", {"board_size": 5, "swap": True})
    end = follow(game, spiel_game, hex_action_map(5, True), ["b5", "swap", "c3"])
    assert end.swapped
    assert end.state.piece_at("b5") == "Red" and end.state.piece_at("c3") == "Blue"
    rows = [line.split() for line in str(end.spiel_state).splitlines()]
    assert rows[1][0] == "o"  # (r, c) = (0, 1) mirrored to (1, 0): White's
    assert rows[2][2] == "x"  # c3 is (2, 2), its own mirror image


OVERLINE = ["a1", "a9", "b1", "b9", "c1", "c9", "e1", "e9", "f1", "g9", "d1"]  # d1: six in a row


def test_gomoku_overline_wins_in_openspiel() -> None:
    game = ludeme("gomoku", size=9, overline=True)
    spiel_game = pyspiel.load_game("gomoku", {"size": 9, "connect": 5})
    end = follow(game, spiel_game, ActionMap(square_board(9).sites), OVERLINE)
    assert end.state.winner == "Black"
    assert end.spiel_state.returns() == [1.0, -1.0]


def test_gomoku_standard_rules_differ_from_openspiel_at_an_overline() -> None:
    """Our default (standard gomoku: exactly five) is not OpenSpiel's game, and the harness says
    where: the overline ends OpenSpiel's game and not ours."""
    game = ludeme("gomoku", size=9)
    if game.options.get("overline") is not False:
        pytest.skip("games/gomoku.game does not default to standard gomoku")
    spiel_game = pyspiel.load_game("gomoku", {"size": 9, "connect": 5})
    with pytest.raises(OracleMismatch, match="after 11 moves: ludeme says the game is not over"):
        follow(game, spiel_game, ActionMap(square_board(9).sites), OVERLINE)


# Havannah side 4 (README naming):          White's rings around d4 use its six neighbours;
#        a7 b7 c7 d7                        Black's stones b7 d6 a5 f3 b2 c1 are scattered so
#      a6 b6 c6 d6 e6                       that they make nothing.
#    a5 b5 c5 d5 e5 f5
#  a4 b4 c4 d4 e4 f4 g4
#    a3 b3 c3 d3 e3 f3
#      a2 b2 c2 d2 e2
#        a1 b1 c1 d1
RING = ["c4", "e4", "c5", "d5", "c3", "d3"]
BLACK = ["b7", "d6", "a5", "f3", "b2", "c1"]


def interleave(white: list[str], black: list[str]) -> list[str]:
    out: list[str] = []
    for i, w in enumerate(white):
        out.append(w)
        if i < len(white) - 1:
            out.append(black[i])
    return out


@pytest.mark.parametrize(("inside", "lines"), [
    ("empty", interleave(RING, BLACK)),
    ("own stone", interleave(["d4", *RING], BLACK)),
    ("enemy stone", interleave(RING, ["d4", *BLACK[:4]])),
])
def test_havannah_ring_around_any_cell_wins(inside: str, lines: list[str]) -> None:
    """OpenSpiel's ring is a loop around a cell whatever that cell holds, and so is ours."""
    game = ludeme("havannah", size=4)
    spiel_game = pyspiel.load_game("havannah", {"board_size": 4})
    end = follow(game, spiel_game, havannah_action_map(4), lines)
    assert end.state.winner == "White", inside
    assert end.spiel_state.returns() == [1.0, -1.0]


def test_havannah_swap_recolours_the_first_stone() -> None:
    game = ludeme("havannah", size=4, pie=True)
    spiel_game = pyspiel.load_game("havannah", {"board_size": 4, "swap": True})
    end = follow(game, spiel_game, havannah_action_map(4, True), ["d4", "swap", "c4"])
    assert end.swapped
    assert end.state.piece_at("d4") == "White" and end.state.piece_at("c4") == "Black"
    # OpenSpiel: the first stone is now the second player's ("@"), the third move the first's
    # ("O"); the people kept their colours.
    assert "@" in str(end.spiel_state) and "O" in str(end.spiel_state)
    assert end.spiel_state.current_player() == 1


# The harness itself ----------------------------------------------------------------------------


def test_harness_reports_a_disagreement() -> None:
    """A mapping that forgets OpenSpiel's mirrored swap is caught, with the position."""
    game = load_game(GAMES / "hex.game", size=3, pie=True)
    spiel_game = pyspiel.load_game("hex", {"board_size": 3, "swap": True})
    unmirrored = ActionMap(hex_board(3).sites, swap_action=lambda s: 9)
    with pytest.raises(OracleMismatch) as caught:
        follow(game, spiel_game, unmirrored, ["b3", "swap"])
    message = str(caught.value)
    assert "after 2 moves: the legal moves differ" in message
    assert "moves: b3 swap" in message
    assert "only OpenSpiel allows: b3" in message
    assert "only ludeme allows:    a2" in message
    assert "swapped: yes" in message  # the ludeme position text
