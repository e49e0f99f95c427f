"""Boards given as points and lines (stdlib/graphboards.py): Morris boards, Alquerque, and any
board written as `(points {...} lines:{...})` — their sites, adjacency, directions, sides, mills,
position text, pictures, errors, and games played on them."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from collections.abc import Collection, Sequence
from pathlib import Path

import networkx as nx
import pytest

from interpreter import RuleError, load_game, parse_game
from interpreter.game import Game, State
from interpreter.svg import render_svg

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
NS = "{http://www.w3.org/2000/svg}"

NINE = ["a1", "d1", "g1", "b2", "d2", "f2", "c3", "d3", "e3", "a4", "b4", "c4", "e4", "f4",
        "g4", "c5", "d5", "e5", "b6", "d6", "f6", "a7", "d7", "g7"]
# The Nine Men's Morris board written out point by point: the three squares, then the four
# lines joining their mid-points.
NINE_BY_HAND = """{"a1" "d1" "g1" "b2" "d2" "f2" "c3" "d3" "e3" "a4" "b4" "c4" "e4" "f4" "g4"
                   "c5" "d5" "e5" "b6" "d6" "f6" "a7" "d7" "g7"}
  lines:{{"a1" "g1" "g7" "a7" "a1"} {"b2" "f2" "f6" "b6" "b2"} {"c3" "e3" "e5" "c5" "c3"}
         {"d1" "d3"} {"d5" "d7"} {"a4" "c4"} {"e4" "g4"}}"""


def game_on(board: str, end: str = "(if (line 3) (win Mover)) (if (full) (draw))") -> Game:
    return parse_game(f"""(game "Test"
  (players {{(player "White" symbol:"W") (player "Black" symbol:"B")}})
  (board {board})
  (play (place (sites Empty)))
  (end {end}))""", source="test.game")


def edges(game: Game) -> set[frozenset[str]]:
    return {frozenset(e) for e in game.graph.edges}


def reference(points: Sequence[tuple[int, int]],
              joined: Sequence[tuple[tuple[int, int], tuple[int, int]]]) -> nx.Graph:
    """A graph made directly from coordinates: nodes named like chess squares, an edge between
    the (column, row) pairs given."""
    def name(p: tuple[int, int]) -> str:
        return f"{chr(ord('a') + p[0])}{p[1] + 1}"
    g = nx.Graph()
    g.add_nodes_from(name(p) for p in points)
    g.add_edges_from((name(a), name(b)) for a, b in joined)
    return g


# Sites and adjacency ------------------------------------------------------------------------


def test_nine_mens_morris_sites_are_named_as_usual_in_reading_order() -> None:
    game = game_on("(morris 3)")
    assert sorted(game.sites) == sorted(NINE)
    assert game.sites == ("a7", "d7", "g7", "b6", "d6", "f6", "c5", "d5", "e5", "a4", "b4",
                          "c4", "e4", "f4", "g4", "c3", "d3", "e3", "b2", "d2", "f2", "a1",
                          "d1", "g1")


def test_nine_mens_morris_adjacency() -> None:
    graph = game_on("(morris)").graph
    assert sorted(graph["d2"]) == ["b2", "d1", "d3", "f2"]
    assert sorted(graph["a1"]) == ["a4", "d1"]
    assert sorted(graph["d3"]) == ["c3", "d2", "e3"]
    assert sorted(graph["b4"]) == ["a4", "b2", "b6", "c4"]
    assert graph.number_of_edges() == 32
    assert graph.edges["a1", "d1"]["directions"] == {"a1": "E", "d1": "W"}
    assert not graph.edges["a1", "d1"]["diagonal"]
    assert nx.shortest_path_length(graph, "a1", "e5") == 6


def test_the_morris_builder_is_the_board_written_by_hand() -> None:
    built = game_on("(morris 3)")
    by_hand = game_on(f"(points {NINE_BY_HAND})")
    assert built.sites == by_hand.sites
    assert edges(built) == edges(by_hand)
    assert nx.is_isomorphic(built.graph, by_hand.graph)


def test_morris_family() -> None:
    six = game_on("(morris 2)")
    assert sorted(six.sites) == sorted(["a1", "c1", "e1", "b2", "c2", "d2", "a3", "b3", "d3",
                                        "e3", "b4", "c4", "d4", "a5", "c5", "e5"])
    assert six.graph.number_of_edges() == 20
    twelve = game_on("(morris 3 diagonals:true)")
    assert twelve.graph.number_of_edges() == 40
    assert sorted(twelve.graph["b2"]) == ["a1", "b4", "c3", "d2"]
    assert twelve.graph.edges["a1", "b2"]["diagonal"]
    three = game_on("(morris 1 centre:true diagonals:true)")
    assert sorted(three.sites) == sorted(f"{c}{r}" for c in "abc" for r in "123")
    assert sorted(three.graph["b2"]) == sorted(s for s in three.sites if s != "b2")
    assert sorted(three.graph["a2"]) == ["a1", "a3", "b2"]  # no diagonal off the main two
    centred = game_on("(morris 3 centre:true)")
    assert sorted(centred.graph["d4"]) == ["c4", "d3", "d5", "e4"]


def test_alquerque_and_fanorona_boards() -> None:
    for columns, rows in ((5, 5), (9, 5)):
        game = game_on(f"(alquerque {columns} {rows})")
        points = [(c, r) for c in range(columns) for r in range(rows)]
        joined = [((c, r), (c + dc, r + dr)) for c, r in points
                  for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1))
                  if (dc == 0 or dr == 0 or (c + r) % 2 == 0)
                  and 0 <= c + dc < columns and 0 <= r + dr < rows]
        assert edges(game) == {frozenset(e) for e in reference(points, joined).edges}
    assert game_on("(alquerque)").graph.number_of_edges() == 56


def test_a_line_joins_every_point_it_passes() -> None:
    game = game_on('(points {"a1" "b1" "d1" "d2"} lines:{{"a1" "d1" "d2"}})')
    assert edges(game) == {frozenset(("a1", "b1")), frozenset(("b1", "d1")),
                           frozenset(("d1", "d2"))}
    assert game.graph.edges["b1", "d1"]["directions"] == {"b1": "E", "d1": "W"}
    # Listing a line twice, or both ways, joins the points once.
    again = game_on('(points {"a1" "b1"} lines:{{"a1" "b1"} {"b1" "a1"}})')
    assert again.graph.number_of_edges() == 1


def test_pong_hau_ki_points_without_a_row_of_their_own() -> None:
    game = game_on('(points {"a1" "c1" "b2" "a3" "c3"} '
                   'lines:{{"a1" "a3"} {"c1" "c3"} {"a1" "c3"} {"a3" "c1"}})')
    assert game.sites == ("a3", "c3", "b2", "a1", "c1")
    assert sorted(game.graph["b2"]) == ["a1", "a3", "c1", "c3"]
    assert sorted(game.graph["a1"]) == ["a3", "b2"]
    assert game.env.topology.directions == ("N", "NE", "SE", "S", "SW", "NW")


# Directions, rays, lines and sides -------------------------------------------------------------


def test_rays_follow_the_lines_only() -> None:
    topo = game_on("(morris 3)").env.topology
    name = topo.names

    def ray(site: str, d: str) -> list[str]:
        return [name[s] for s in topo.rays[d][topo.index[site]]]

    assert ray("a1", "E") == ["d1", "g1"]
    assert ray("d1", "N") == ["d2", "d3"]  # the centre is not a point: the line stops
    assert ray("d3", "N") == []
    assert ray("c4", "E") == []  # e4 is in the same row, but no line joins them
    assert ray("b4", "W") == ["a4"]
    assert topo.directions == ("N", "E", "S", "W")
    centred = game_on("(morris 3 centre:true)").env.topology
    assert [centred.names[s] for s in centred.rays["N"][centred.index["d1"]]] == \
        ["d2", "d3", "d4", "d5", "d6", "d7"]


def test_a_mill_is_three_in_a_row_along_a_line() -> None:
    game = game_on("(morris 3)")

    def board(white: Collection[str], black: Collection[str] = ()) -> str:
        rows = []
        for row in game.env.topology.rows:
            names = [game.sites[s] for s in row]
            rows.append(" ".join("W" if n in white else "B" if n in black else "." for n in names))
        return "\n".join(rows) + "\nmover: Black\n"

    for mill in ({"a7", "d7", "g7"}, {"d1", "d2", "d3"}, {"a1", "a4", "a7"}, {"c3", "c4", "c5"},
                 {"e4", "f4", "g4"}):
        assert game.from_text(board(mill, {"b2", "f6"})).winner == "White", mill
    for bent in ({"a7", "d7", "d6"}, {"c4", "e4", "f4"}, {"b4", "c4", "e4"}, {"d3", "d5", "d6"},
                 {"a1", "b2", "c3"}):
        state = game.from_text(board(bent, {"b6", "f6"}))
        assert not state.is_over, bent
    # With diagonals, the corners' lines make mills too.
    twelve = game_on("(morris 3 diagonals:true)")
    text = board({"a1", "b2", "c3"}, {"d1", "g1"})
    assert twelve.from_text(text).winner == "White"


def test_sides_and_corners() -> None:
    game = game_on("(morris 3)")
    sides = game.graph.graph["sides"]
    assert {k: sorted(v) for k, v in sides.items()} == {
        "N": ["a7", "d7", "g7"], "E": ["g1", "g4", "g7"], "S": ["a1", "d1", "g1"],
        "W": ["a1", "a4", "a7"]}
    topo = game.env.topology
    assert sorted(topo.names[s] for s in topo.corners()) == ["a1", "a7", "g1", "g7"]
    triangle = game_on('(points {"a1" "c1" "e1" "b2" "d2" "c3"} lines:{{"a1" "e1" "c3" "a1"}})')
    assert {k: sorted(v) for k, v in triangle.graph.graph["sides"].items()} == {
        "NE": ["c3", "d2", "e1"], "S": ["a1", "c1", "e1"], "NW": ["a1", "b2", "c3"]}
    assert triangle.graph.graph["board"] == "graph"


def test_sides_as_regions_in_a_game_file() -> None:
    game = game_on("(morris 3)", end="(if (reached Mover (sites Side N)) (win Mover))")
    state = game.initial_state().play("d6")
    assert not state.is_over
    assert state.play("a1").play("d7").winner == "White"


def test_step_follows_the_lines() -> None:
    game = load_game(EXAMPLES / "three-mens-morris.game")
    state = game.initial_state()
    for move in ("a1", "b1", "c3", "a3", "c2", "c1"):
        state = state.play(move)
    assert state.hands == (0, 0)
    moves = sorted(str(m) for m in state.legal_moves())
    assert moves == ["a1-a2", "a1-b2", "c2-b2", "c3-b2", "c3-b3"]


# Position text and pictures ----------------------------------------------------------------------


def test_position_text_keeps_the_grid_and_round_trips() -> None:
    game = game_on("(morris 3)")
    state = game.initial_state()
    for move in ("a1", "d2", "g7", "e4", "c5"):
        state = state.play(move)
    text = state.to_text()
    assert text == (".     .     W\n"
                    "  .   .   .\n"
                    "    W . .\n"
                    ". . .   B . .\n"
                    "    . . .\n"
                    "  .   B   .\n"
                    "W     .     .\n"
                    "mover: Black\n")
    again = game.from_text(text)
    assert again.to_text() == text
    assert again.board == state.board
    # Reading, only the order of the points in a row counts.
    squeezed = "\n".join(" ".join(line.split()) for line in text.splitlines()) + "\n"
    assert game.from_text(squeezed).to_text() == text


def test_position_text_of_other_boards_is_unchanged() -> None:
    hexgame = parse_game("""(game "H" (players {(player "Red") (player "Blue")})
      (board (hexhex 2)) (play (place (sites Empty))) (end (if (full) (draw))))""")
    assert hexgame.initial_state().to_text() == " . .\n. . .\n . .\nmover: Red\n"
    square = game_on("(square 3)")
    assert square.initial_state().play("b2").to_text() == ". . .\n. W .\n. . .\nmover: Black\n"


def test_position_text_errors_name_the_row() -> None:
    game = game_on("(morris 3)")
    text = game.initial_state().to_text().replace("  .   .   .\n", "  . .\n", 1)
    with pytest.raises(ValueError, match="line 2: this row has 3 cells, the text has 2"):
        game.from_text(text)


def svg_of(state: State) -> ET.Element:
    return ET.fromstring(render_svg(state))


def by_class(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


@pytest.mark.parametrize("board", ["(morris 3)", "(morris 3 diagonals:true)", "(alquerque 9 5)",
                                   "(morris 1 centre:true diagonals:true)"])
def test_the_picture_draws_every_point_and_line(board: str) -> None:
    game = game_on(board)
    state = game.initial_state().play(game.sites[0]).play(game.sites[-1])
    root = svg_of(state)
    points = by_class(root, "point")
    assert all(e.tag == f"{NS}circle" for e in points)
    assert sorted(e.get("data-site") or "" for e in points) == sorted(game.sites)
    assert by_class(root, "cell") == points
    lines = by_class(root, "edge")
    assert all(e.tag == f"{NS}line" for e in lines)
    assert len(lines) == game.graph.number_of_edges()
    assert {frozenset((e.get("data-from"), e.get("data-to"))) for e in lines} == edges(game)
    pieces = by_class(root, "piece")
    assert {e.get("data-site"): e.get("data-piece") for e in pieces} == {
        game.sites[0]: "White", game.sites[-1]: "Black"}
    assert [e.get("data-site") for e in by_class(root, "last")] == [game.sites[-1]]
    # Lines end at their points' centres.
    centre = {e.get("data-site"): (e.get("cx"), e.get("cy")) for e in points}
    for e in lines:
        assert (e.get("x1"), e.get("y1")) == centre[e.get("data-from")]
        assert (e.get("x2"), e.get("y2")) == centre[e.get("data-to")]
    letters = [e.text for e in by_class(root, "coord") if e.text and e.text.isalpha()]
    assert letters == sorted({s.rstrip("0123456789") for s in game.sites})


# Errors -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("board", "message"), [
    ("(points {})", "a board of points needs at least one point"),
    ('(points {"a1" "b1" "a1"})', 'the point "a1" is listed twice'),
    ('(points {"A1"})', '"A1" is not a point name'),
    ('(points {"a0"})', '"a0" is not a point name'),
    ('(points {"a1" "b1"} lines:{{"a1" "c1"}})',
     'the line {"a1" "c1"} names "c1", which is not one of the points'),
    ('(points {"a1" "b1" "a2"} lines:{{"a1" "a22"}})', '(did you mean "a2"?)'),
    ('(points {"a1" "c2"} lines:{{"a1" "c2"}})',
     'goes from "a1" to "c2", which is not along a row, column or diagonal'),
    ('(points {"a1" "b1"} lines:{{"a1"}})', "a line needs at least two points"),
    ('(points {"a1" "b1"} lines:{{"a1" "a1"}})', 'goes from "a1" to itself'),
    ('(points {"a1" "a3"})', "row 2 has no point"),
    ('(points {"a1" "b99"})', "would span 99 rows or columns of its grid"),
    ("(morris 0)", "a morris board needs at least one ring"),
    ("(morris 1 diagonals:true)", "add centre:true"),
    ("(morris 40)", "(morris 40) would have 81 sites along a line"),
    ("(alquerque 0)", "needs at least one row and one column"),
    ("(alquerque 70 3)", "(alquerque 70 3) would have 70 sites along a line"),
])
def test_bad_boards_are_located_errors(board: str, message: str) -> None:
    with pytest.raises(RuleError) as caught:
        game_on(board)
    error = caught.value
    assert message in str(error)
    assert (error.line, error.column) == (3, 10)  # where (board ...)'s builder is written
    assert str(error).startswith("test.game:3:10: ")


def test_a_line_must_be_a_list() -> None:
    with pytest.raises(RuleError, match=r"test.game:3:37: expected a Line here, found a string"):
        game_on('(points {"a1" "b1"} lines:{"a1" "b1"})')


# Games on these boards ------------------------------------------------------------------------


@pytest.mark.parametrize("options", [{}, {"rings": 2}, {"rings": 1},
                                     {"rings": 3, "diagonals": True}])
def test_morris_placement_plays_to_the_end(options: dict[str, object]) -> None:
    game = load_game(EXAMPLES / "morris-placement.game", **options)
    results = set()
    for seed in range(30):
        rng = random.Random(seed)
        state = game.initial_state()
        while not state.is_over:
            state = state.play(rng.choice(state.legal_moves()))
        assert state.is_over
        results.add(state.winner)
        again = game.from_text(state.to_text())
        assert (again.is_over, again.winner) == (True, state.winner)
    assert {"White", "Black"} <= results


@pytest.mark.parametrize("name", ["morris-placement", "three-mens-morris"])
def test_fast_path_plays_the_public_game(name: str) -> None:
    game = load_game(EXAMPLES / f"{name}.game")
    for seed in range(5):
        rng = random.Random(seed)
        state = game.initial_state()
        expected: list[str] = []
        while not state.is_over and len(expected) < 200:
            move = rng.choice(state.legal_moves())
            expected.append(str(move))
            state = state.play(move)
        record: list[str] = []
        final, _ = game.playout(random.Random(seed), 200, record=record)
        assert record == expected
        assert final.to_text() == state.to_text()
        assert final.winner == state.winner


def test_morris_perimeter_and_corners_are_its_outline():
    game = parse_game('(game "M" (players {(player "A") (player "B")}) (board (morris)) '
                      '(play (place (sites Perimeter))) (end (if (line 3) (win Mover))))',
                      source="m.game")
    placed = sorted(str(m) for m in game.initial_state().legal_moves())
    assert placed == ["a1", "a4", "a7", "d1", "d7", "g1", "g4", "g7"]
    corners = game.env.topology.named_corners()
    assert {k: game.sites[v] for k, v in corners.items()} == {
        "NE": "g7", "NW": "a7", "SW": "a1", "SE": "g1"}
