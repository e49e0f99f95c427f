"""The connection family: Havannah, Y and Gomoku rule by rule from position texts, and the
vocabulary under them (chains touching K regions, rings, corners, sides without corners, the
triangle board, the public board graph)."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from textwrap import dedent

import networkx as nx
import pytest

from interpreter import RuleError, load_game, parse_game

GAMES = Path(__file__).resolve().parent.parent / "games"


@cache
def game(name: str, **options: object):
    return load_game(GAMES / f"{name}.game", **options)


def pos(text: str) -> str:
    return dedent(text).strip("\n") + "\n"


def after(name: str, text: str, **options: object):
    """The position, with the end conditions judged as if the player before `mover` moved."""
    return game(name, **options).from_text(pos(text))


# --- Havannah (size 3: 19 cells; corners a5 c5 e3 c1 a1 a3) ------------------------------------


def test_havannah_ring_around_an_empty_cell_wins():
    state = after("havannah", """
            . . .
           . W W .
          . W . W .
           . W . .
            . . .
        mover: White""", size=3)
    assert not state.is_over
    assert state.play("c2").winner == "White"


@pytest.mark.parametrize("inside", ["B", "W"])
def test_havannah_ring_around_any_stone_wins(inside):
    state = after("havannah", f"""
            . . .
           . W W .
          . W {inside} W .
           . W W .
            . . .
        mover: Black""", size=3)
    assert state.winner == "White"


def test_havannah_a_half_ring_against_the_edge_is_no_ring():
    # a3 is on the edge: it is not surrounded, although every neighbour on the board is White.
    state = after("havannah", """
            . . .
           W W . .
          . W . . .
           W W . .
            . . .
        mover: Black""", size=3)
    assert not state.is_over


def test_havannah_a_solid_blob_is_no_ring():
    state = after("havannah", """
            . . .
           . W W .
          . W W . .
           . . . .
            . . .
        mover: Black""", size=3)
    assert not state.is_over


def test_havannah_bridge_joins_two_corners():
    state = after("havannah", """
            W W .
           . . . .
          . . . . .
           . . . .
            . . .
        mover: White""", size=3)
    assert not state.is_over
    assert state.play("c5").winner == "White"


def test_havannah_fork_joins_three_sides():
    # b5 is on the N side, a4 on NW, a2 on SW; a3 (a corner) joins them and is on no side.
    state = after("havannah", """
            . W .
           W W . .
          . . . . .
           W . . .
            . . .
        mover: White""", size=3)
    assert state.play("a3").winner == "White"


def test_havannah_a_corner_is_on_no_side():
    # N (b5) and S (b1) joined, and the SE corner c1: two sides and one corner, no structure.
    state = after("havannah", """
            . W .
           . W . .
          . . W . .
           . W . .
            . W W
        mover: Black""", size=3)
    assert not state.is_over
    assert state.winner is None


def test_havannah_two_chains_are_not_one():
    # Each chain touches a corner; neither touches two.
    state = after("havannah", """
            W . W
           . . . .
          . . . . .
           . . . .
            . . .
        mover: Black""", size=3)
    assert not state.is_over


def test_havannah_defaults():
    g = game("havannah")
    assert g.options == {"size": 8, "pie": False}
    assert len(g.sites) == 3 * 8 * 7 + 1
    assert g.players == ("White", "Black")


def test_havannah_pie():
    state = game("havannah", size=4, pie=True).initial_state().play("d4")
    assert "swap" in {str(m) for m in state.legal_moves()}


# --- Y (size 4: rows of 4, 3, 2, 1 cells, apex a4) ---------------------------------------------


def test_y_board_names_and_sides():
    g = game("y", size=4)
    assert g.sites == ("a4", "a3", "b3", "a2", "b2", "c2", "a1", "b1", "c1", "d1")
    sides = g.graph.graph["sides"]
    assert sides == {"S": ["a1", "b1", "c1", "d1"], "NW": ["a4", "a3", "a2", "a1"],
                     "NE": ["a4", "b3", "c2", "d1"]}


def test_y_a_corner_belongs_to_both_its_sides():
    state = after("y", """
              .
             . .
            . . .
           B B B .
        mover: Blue""", size=4)
    assert not state.is_over
    assert state.play("d1").winner == "Blue"


def test_y_two_chains_are_not_one():
    # a1 touches S and NW, d1 touches S and NE: all three sides, but not by one chain.
    state = after("y", """
              .
             . .
            . . .
           B R R B
        mover: Red""", size=4)
    assert not state.is_over


def test_y_position_text_shows_the_triangle():
    text = game("y", size=3).initial_state().to_text()
    assert text.splitlines()[:3] == ["  .", " . .", ". . ."]


# --- Gomoku ------------------------------------------------------------------------------------


ROW_OF_FOUR_AND_ONE = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    B B B B . B . . .
    . . . . . . . . .
    W W W W . . . W .
    . . . . . . . . .
    W . . . . . . . .
    mover: Black"""


def test_gomoku_five_in_a_row_wins():
    state = after("gomoku", ROW_OF_FOUR_AND_ONE.replace("B B B B . B", "B B B . . B"), size=9)
    assert state.play("d5").winner is None  # four: d5 makes a-d, and f5 is apart
    state = after("gomoku", """
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        B B B B . . . . .
        . . . . . . . . .
        W W W W . . . W .
        . . . . . . . . .
        W . . . . . . . .
        mover: Black""", size=9)
    assert state.play("e5").winner == "Black"


def test_gomoku_six_or_more_does_not_win_by_default():
    state = after("gomoku", ROW_OF_FOUR_AND_ONE, size=9)
    assert not state.play("e5").is_over  # a-f: six in a row, an overline


def test_gomoku_freestyle_counts_six():
    state = after("gomoku", ROW_OF_FOUR_AND_ONE, size=9, overline=True)
    assert state.play("e5").winner == "Black"


def test_gomoku_defaults():
    g = game("gomoku")
    assert g.options == {"size": 15, "overline": False}
    assert len(g.sites) == 225


# --- The vocabulary ----------------------------------------------------------------------------

CHAINS = """
(game "Chains"
  (players {{(player "Blue" symbol:"B") (player "Red" symbol:"R")}})
  (board {board})
  (play (place (sites Empty)))
  (end (if {goal} (win Mover))))
"""


def chains(board: str, goal: str):
    return parse_game(CHAINS.format(board=board, goal=goal), source="chains.game")


def test_three_regions_need_one_chain():
    # The reported case: a9 touches N and W, i9 touches N and the third region; not a chain.
    g = chains("(hex-rhombus 9)",
               '(connected Mover regions:{(sites Side N) (sites Side W) (sites {"i9" "i8"})})')
    state = g.initial_state().play("a9").play("b2").play("i9")
    assert not state.is_over
    for move in ["b3", "b9", "c3", "c9", "d3", "d9", "e3", "e9", "f3", "f9", "g3", "g9",
                 "h3"]:
        state = state.play(move)
    assert not state.is_over
    assert state.play("h9").winner == "Blue"


def test_at_least_counts_regions_of_one_chain():
    goal = "(connected Mover regions:(regions Corners) at-least:2)"
    g = chains("(square 3)", goal)
    state = g.initial_state().play("a1").play("b2").play("c3")
    assert not state.is_over  # two corners, two chains
    assert g.from_text("B B B\n. R .\n. . R\nmover: Red").winner == "Blue"


def test_at_least_out_of_range_is_refused():
    with pytest.raises(RuleError, match="at-least:5"):
        chains("(square 3)", "(connected Mover regions:(regions Corners) at-least:5)")


@pytest.mark.parametrize("board, corners", [
    ("(square 3)", {"NE": "c3", "NW": "a3", "SW": "a1", "SE": "c1"}),
    ("(hex-rhombus 4)", {"NE": "d4", "NW": "a4", "SW": "a1", "SE": "d1"}),
    ("(hexhex 3)", {"E": "e3", "NE": "c5", "NW": "a5", "W": "a3", "SW": "a1", "SE": "c1"}),
    ("(hex-triangle 4)", {"N": "a4", "SW": "a1", "SE": "d1"}),
])
def test_corners_are_named_by_the_way_they_face(board, corners):
    for name, site in corners.items():
        text = CHAINS.format(board=board, goal="(full)").replace(
            "(place (sites Empty))", f"(place (sites Corner {name}))")
        g = parse_game(text, source="corner.game")
        assert [str(m) for m in g.initial_state().legal_moves()] == [site]


def test_an_unknown_corner_is_refused_with_the_board_s_corners():
    text = CHAINS.format(board="(hex-triangle 4)", goal="(full)").replace(
        "(place (sites Empty))", "(place (sites Corner NE))")
    with pytest.raises(RuleError, match=r"no corner NE \(its corners: N, SW, SE\)"):
        parse_game(text, source="corner.game")


@pytest.mark.parametrize("board, side, sites", [
    ("(hexhex 3)", "N", {"a5", "b5", "c5"}),
    ("(hex-rhombus 3)", "S", {"a1", "b1", "c1"}),
    ("(hex-triangle 3)", "NE", {"a3", "b2", "c1"}),
    ("(square 3)", "W", {"a1", "a2", "a3"}),
])
@pytest.mark.parametrize("corners", [True, False])
def test_sides_of_every_board(board, side, sites, corners):
    text = CHAINS.format(board=board, goal="(full)").replace(
        "(place (sites Empty))",
        f"(place (sites Side {side}{'' if corners else ' corners:false'}))")
    g = parse_game(text, source="side.game")
    placed = {str(m) for m in g.initial_state().legal_moves()}
    expected = sites if corners else {s for s in sites if s not in _corner_sites(g)}
    assert placed == expected


def _corner_sites(g) -> set[str]:
    sides = g.graph.graph["sides"]
    return {s for s in g.sites if sum(s in v for v in sides.values()) >= 2}


def test_a_player_side_the_board_lacks_is_refused():
    text = """(game "G" (players {(player "A" sides:{N E}) (player "B" sides:{W S})})
      (board (hex-triangle 4)) (play (place (sites Empty)))
      (end (if (connected Mover) (win Mover))))"""
    with pytest.raises(RuleError, match="side N, which this board does not have"):
        parse_game(text, source="g.game")


def test_ring_on_a_square_board_is_crossed_diagonally():
    # An orthogonal ring around b2 with a gap at a corner: b2 escapes diagonally to a1.
    g = chains("(square 4)", "(ring Mover)")
    open_corner = g.from_text(". . . .\nB B B .\n. . B .\n. B B .\nmover: Red")
    assert not open_corner.is_over
    along_edge = g.from_text(". . . .\nB B B .\nB . B .\nB B B .\nmover: Red")
    assert along_edge.winner == "Blue"  # a ring may run along the edge; b2 is surrounded
    inner = chains("(square 5)", "(ring Mover)").from_text(
        ". . . . .\n. B B B .\n. B . B .\n. B B B .\n. . . . .\nmover: Red")
    assert inner.winner == "Blue"


def test_ring_with_diagonal_steps_is_crossed_orthogonally():
    g = chains("(square 5)", "(ring Mover by:All)")
    diamond = ". . . . .\n. . B . .\n. B . B .\n. . B . .\n. . . . .\nmover: Red"
    assert g.from_text(diamond).winner == "Blue"
    assert not chains("(square 5)", "(ring Mover)").from_text(diamond).is_over


def test_public_board_graph():
    g = game("hex", size=3)
    graph = g.graph
    assert isinstance(graph, nx.Graph) and not graph.is_directed()
    assert set(graph.nodes) == set(g.sites)
    assert sorted(graph["b2"]) == ["a1", "a2", "b1", "b3", "c2", "c3"]
    assert graph.edges["a1", "b2"]["directions"] == {"a1": "NE", "b2": "SW"}
    assert nx.shortest_path_length(graph, "a1", "c3") == 2
    square = game("tictactoe").graph
    assert square.number_of_edges() == 12 + 8
    assert square.edges["a1", "b2"]["diagonal"] and not square.edges["a1", "a2"]["diagonal"]
