"""Edges as state (stdlib/edges.py): declared pairs of sites holding links or walls, placed
by steps, crossing, connectivity along them, blocking steps, position text, hashing, undo,
observations and pictures; TwixT's rules one by one from position text."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import IllegalMoveError, load_game, parse_game
from interpreter.svg import render_svg
from stdlib.edges import _cross, edge_sets

GAMES = Path(__file__).resolve().parent.parent / "games"


def twixt(size: int = 8) -> object:
    return load_game(GAMES / "twixt.game", size=size)


def board(rows: list[str], *extra: str) -> str:
    return "\n".join(rows + list(extra))


EMPTY8 = ["# . . . . . . #"] + [". . . . . . . ."] * 6 + ["# . . . . . . #"]


# Geometry -----------------------------------------------------------------------------------


def test_crossing_is_geometric() -> None:
    xy = [(0.0, 0.0), (1.0, 2.0), (0.0, 1.0), (1.0, 0.0), (2.0, 1.0), (2.0, 2.0), (0.0, 2.0)]
    assert _cross((0, 1), (2, 3), xy)  # an X
    assert not _cross((0, 1), (0, 4), xy)  # a common end, nothing else
    assert not _cross((0, 1), (4, 5), xy)  # apart
    assert not _cross((2, 1), (0, 5), xy)  # parallel
    tee = [(0.0, 0.0), (2.0, 0.0), (1.0, 0.0), (1.0, 2.0)]
    assert _cross((0, 1), (2, 3), tee)  # an end in the other's middle
    # Collinear: overlapping beyond a point is a crossing; end to end is not.
    line = [(0.0, 0.0), (2.0, 0.0), (1.0, 0.0), (3.0, 0.0), (4.0, 0.0)]
    assert _cross((0, 1), (2, 3), line)
    assert not _cross((0, 1), (1, 4), line)


def test_knight_links_and_their_crossings() -> None:
    game = twixt(8)
    links = edge_sets(game.env).sets["Link"]  # type: ignore[attr-defined]
    index = game.env.topology.index  # type: ignore[attr-defined]
    # Each hole of a big enough board has 8 knight neighbours in the middle.
    assert len(links.incident[index["d4"]]) == 8
    # Every knight link crosses exactly 9 others on an open board (OpenSpiel's table).
    middle = links.edge(index["d4"], index["e6"])
    assert len(links.crossing[middle - links.first]) == 9
    assert links.edge(index["e6"], index["d4"]) == middle
    assert links.edge(index["d4"], index["d5"]) is None


# TwixT's rules, from position text ----------------------------------------------------------


def test_a_peg_links_to_friendly_pegs_a_knight_away() -> None:
    state = twixt().from_text(board(
        ["# . . . . . . #", ". . . . . . . .", ". . . . . . . .", ". . . . . . . .",
         ". . . R . . . .", ". . . . . . . .", ". . . . . . . .", "# . . . . . . #"],
        "mover: Red"))
    after = state.play("e6")
    assert "links Red: e6-d4" in after.to_text()
    assert "links Blue" not in after.play("c6").to_text()  # Blue's peg: no friend near


def test_a_link_is_not_laid_across_another() -> None:
    # Blue holds c5-e4; Red's d4 then e6 would cross it: no link.
    text = board(
        ["# . . . . . . #", ". . . . . . . .", ". . . . . . . .", ". . B . . . . .",
         ". . . R B . . .", ". . . . . . . .", ". . . . . . . .", "# . . . . . . #"],
        "mover: Red", "links Blue: c5-e4")
    state = twixt().from_text(text)
    assert "links Red" not in state.play("e6").to_text()
    assert "links Red: d4-e2" in state.play("e2").to_text()


def test_closed_rows_and_corners() -> None:
    state = twixt().initial_state()
    red = {str(m) for m in state.legal_moves()}
    assert "c8" in red and "a4" not in red and "h1" not in red and "a1" not in red
    with pytest.raises(IllegalMoveError):
        state.play("a4")
    blue = {str(m) for m in state.play("d4").legal_moves()}
    assert "a4" in blue and "c8" not in blue and "swap" in blue


def test_a_chain_of_links_wins_and_pegs_alone_do_not() -> None:
    game = twixt(5)
    # Red's c5-d3 and d3-c1 join the top and bottom rows: a win.
    won = game.from_text(board(
        ["# . R . #", ". . . . .", ". . . R .", ". . . . .", "# . R . #"],
        "mover: Blue", "links Red: c5-d3 d3-c1"))
    assert won.winner == "Red"
    # The same pegs without the links: no win.
    assert game.from_text(board(
        ["# . R . #", ". . . . .", ". . . R .", ". . . . .", "# . R . #"],
        "mover: Blue")).winner is None
    # Placing the last peg lays the links and wins.
    state = game.from_text(board(
        ["# . R . #", ". . . . .", ". . . . .", ". . . . .", "# . R . #"], "mover: Red"))
    assert state.play("d3").winner == "Red"


def test_no_move_for_the_next_player_is_a_draw() -> None:
    # Red fills the last hole (d1, on its own row); Blue can then place nowhere: a draw.
    game = twixt(5)
    state = game.from_text(board(
        ["# B B B #", "B B B B B", "B B B B B", "B B B B B", "# B B . #"], "mover: Red"))
    assert not state.is_over
    end = state.play("d1")
    assert end.is_over and end.winner is None


def test_position_text_round_trips_and_rejects_bad_links() -> None:
    game = twixt()
    rng = random.Random(3)
    state = game.initial_state()
    for _ in range(30):
        if state.is_over:
            break
        state = state.play(rng.choice(state.legal_moves()))
    text = state.to_text()
    assert "links" in text
    assert game.from_text(text).to_text() == text
    with pytest.raises(Exception, match="not two sites"):
        game.from_text(board(EMPTY8, "mover: Red", "links Red: d4-d5"))


def test_links_are_undone_with_their_move() -> None:
    game = twixt()
    state = game.initial_state()
    for move in ("d4", "c6", "e2"):
        state = state.play(move)
    before, text = state.edges, state.to_text()
    made = game.make(state, "e5")  # Blue: links to c6
    assert state.edges != before and "links Blue: c6-e5" in state.to_text()
    game.unmake(state, made)
    assert state.edges == before and state.to_text() == text


def test_observation_planes_show_links() -> None:
    state = twixt().initial_state().play("d4").play("c6").play("e6")
    field = next(f for f in state.game.env.fields if "links Red" in f.keys(state.game.players))
    names = [p[0] for p in field.planes(state.game.players)]
    assert len(names) == 2 * 4  # two roles, four directions
    planes = field.observe(state)
    assert sum(len(p) for p in planes if isinstance(p, dict)) == 1


def test_pictures_draw_links() -> None:
    state = twixt().initial_state().play("d4").play("c6").play("e6")
    picture = render_svg(state)
    assert picture.count('class="link"') == 1


# Walls: edges between cells that block steps -------------------------------------------------

WALLS = """
(game "Walled"
  (players {(player "White" symbol:"W") (player "Black" symbol:"K")})
  (board (with-edges (square 3) "Wall" by:Orthogonal))
  (start (put "White" (sites {"b2"})) (put "Black" (sites {"a3"})))
  (play (step Orthogonal unless:(edge-held "Wall" From To)))
  (end (if (stuck Next) (win Mover))))
"""


def test_a_wall_blocks_a_step_across_it() -> None:
    game = parse_game(WALLS)
    free = game.initial_state()
    assert {str(m) for m in free.legal_moves()} == {"b2-b3", "b2-b1", "b2-a2", "b2-c2"}
    walled = game.from_text("K . .\n. W .\n. . .\nmover: White\nwalls Black: b2-b3 b2-c2")
    assert {str(m) for m in walled.legal_moves()} == {"b2-b1", "b2-a2"}
    assert "walls Black: b3-b2 b2-c2" in walled.to_text()


def test_a_game_without_edges_keeps_none() -> None:
    game = load_game(GAMES / "hex.game", size=3)
    assert game.initial_state().edges == ()
    assert "edges" not in game.env.shared


def test_bridges_burn_behind_a_step() -> None:
    """examples/bridges.game: the bridge a pawn crosses becomes a wall (placed by a step)."""
    game = load_game(GAMES.parent / "examples" / "bridges.game")
    state = game.initial_state().play("a1-a2").play("e5-d5")
    assert "bridges White: a2-a1" in state.to_text()
    with pytest.raises(IllegalMoveError, match="a Bridge in the way"):
        state.play("a2-a1")
    assert len(game.playouts(10, seed=1).winners) == 10
