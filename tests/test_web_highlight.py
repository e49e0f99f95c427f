"""What the playground marks beyond the position (interpreter/web/highlight.py): the row or
chain that won, each role's sides, and which pieces are chess figures — by general rules, for
every game that fits them."""

from __future__ import annotations

from pathlib import Path

from interpreter import load_game
from interpreter.game import State
from interpreter.web.highlight import decorations, figures, sides, winning_sites

GAMES = Path(__file__).resolve().parent.parent / "games"


def played(name: str, moves: list[str], **options: object) -> State:
    state = load_game(GAMES / f"{name}.game", **options).initial_state()
    for move in moves:
        state = state.play(move)
    return state


def test_a_row_of_three_is_the_winning_line() -> None:
    state = played("tictactoe", ["b2", "a1", "a3", "b1", "c1"])
    assert state.winner == "X"
    assert winning_sites(state) == ["a3", "b2", "c1"]


def test_nothing_is_marked_before_the_end_or_in_a_draw() -> None:
    assert winning_sites(played("tictactoe", ["b2", "a1"])) == []
    draw = played("tictactoe", ["a1", "b2", "c3", "b1", "b3", "a3", "c1", "c2", "a2"])
    assert draw.is_over and draw.winner is None
    assert winning_sites(draw) == []


def test_a_hex_connection_without_its_branches() -> None:
    # Red joins N and S on a 3 x 3 rhombus; b2's neighbour c2 is a branch off the path.
    state = played("hex", ["b3", "a1", "c2", "a2", "b2", "c1", "b1"], size=3)
    assert state.winner == "Red"
    assert winning_sites(state) == ["b3", "b2", "b1"]


def test_sides_and_their_colours() -> None:
    game = load_game(GAMES / "hex.game", size=3)
    got = {(s["role"], s["side"]): (s["colour"], s["sites"]) for s in sides(game)}
    assert got[("Red", "N")] == ("#d62728", ["a3", "b3", "c3"])
    assert got[("Blue", "W")][1] == ["a3", "a2", "a1"]
    assert sides(load_game(GAMES / "tictactoe.game")) == []


def test_chess_kinds_are_figures_and_other_pieces_are_not() -> None:
    assert figures(load_game(GAMES / "chess.game")) == {
        "Pawn": "P", "Knight": "N", "Bishop": "B", "Rook": "R", "Queen": "Q", "King": "K"}
    # Checkers' king, and Hex's R and B, are not enough to make a game chess-like.
    for name in ("checkers", "hex", "tictactoe"):
        assert figures(load_game(GAMES / f"{name}.game")) == {}
    assert set(decorations(played("tictactoe", []))) == {"winning", "sides", "figures"}
