"""Chinese checkers (games/chinese-checkers.game), rule by rule from position text: the star
board and its points, the start for 2, 3, 4 and 6 players, a step, a hop over any piece, a
chain of hops that may stop after any hop and never lands where it has been, the win, the
pass of a player who cannot move and the turn limit. The comparison with OpenSpiel is in
test_oracle_chinese_checkers.py."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest

from interpreter import GameError, load_game, parse_game
from stdlib.boards import Topology
from stdlib.starboards import star

GAME = Path(__file__).resolve().parent.parent / "games" / "chinese-checkers.game"


@cache
def game(**options: Any) -> Any:
    return load_game(GAME, **options)


def position(g: Any, pieces: dict[str, str], *keys: str, mover: str = "Red") -> Any:
    """The position with the given pieces ({site: symbol}) and key lines."""
    topo = g.env.topology
    rows = [" ".join(pieces.get(topo.names[s], ".") for s in row) for row in topo.rows]
    return g.from_text("\n".join([*rows, f"mover: {mover}", *keys]) + "\n")


def moves(state: Any) -> set[str]:
    return {str(m) for m in state.legal_moves()}


# The board ------------------------------------------------------------------------------------

def test_the_classic_star_has_121_points_in_17_rows() -> None:
    topo = Topology.from_graph(star(4))
    assert topo.size == 121
    assert [len(r) for r in topo.rows] == [1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3,
                                           2, 1]
    assert topo.names[0] == "a17" and topo.names[-1] == "a1"
    assert [topo.names[s] for s in topo.centre()] == ["e9"]


def test_the_points_are_sides_named_by_where_they_lie() -> None:
    topo = Topology.from_graph(star(4))
    names = {side: sorted(topo.names[s] for s in sites) for side, sites in topo.sides.items()}
    assert list(names) == ["N", "NE", "SE", "S", "SW", "NW"]
    assert all(len(sites) == 10 for sites in names.values())
    assert names["N"] == sorted(["a17", "a16", "b16", "a15", "b15", "c15", "a14", "b14",
                                 "c14", "d14"])
    assert names["SE"] == sorted(["j8", "j7", "k7", "j6", "k6", "l6", "j5", "k5", "l5", "m5"])
    corners = {k: topo.names[v] for k, v in topo.named_corners().items()}
    assert corners == {"N": "a17", "NE": "m13", "SE": "m5", "S": "a1", "SW": "a5",
                       "NW": "a13"}


@pytest.mark.parametrize("size", [1, 2, 3, 5])
def test_other_sizes(size: int) -> None:
    topo = Topology.from_graph(star(size))
    hexagon = 3 * size * (size + 1) + 1
    assert topo.size == hexagon + 6 * size * (size + 1) // 2
    assert len(topo.rows) == 4 * size + 1
    assert all(len(s) == size * (size + 1) // 2 for s in topo.sides.values())
    g = game(size=size)
    assert len(g.initial_state().legal_moves()) > 0


def test_a_star_needs_a_size() -> None:
    with pytest.raises(ValueError, match="at least one row"):
        star(0)


# The start ------------------------------------------------------------------------------------

@pytest.mark.parametrize("players,homes", [
    (2, {"Red": "N", "Blue": "S"}),
    (3, {"Red": "N", "Green": "SE", "Yellow": "SW"}),
    (4, {"Red": "N", "Purple": "NE", "Blue": "S", "Yellow": "SW"}),
    (6, {"Red": "N", "Purple": "NE", "Green": "SE", "Blue": "S", "Yellow": "SW",
         "Black": "NW"}),
])
def test_each_player_starts_on_its_point_and_goes_to_the_opposite_one(
        players: int, homes: dict[str, str]) -> None:
    g = game(players=players)
    assert g.players == tuple(homes)
    topo = g.env.topology
    board = g.initial_state().board
    for r, (role, home) in enumerate(homes.items()):
        mine = {s for s, v in enumerate(board) if g.owner[v] == r}
        assert mine == topo.sides[home], role
    assert sum(1 for v in board if v) == 10 * players


# Moves ----------------------------------------------------------------------------------------

def test_a_step_goes_to_an_adjacent_empty_point() -> None:
    state = position(game(), {"e9": "R", "f9": "B"})
    assert moves(state) == {"e9-d9", "e9-e10", "e9-f10", "e9-e8", "e9-f8", "e9-g9"}
    after = state.play("e9-e10")
    assert after.mover == "Blue"


def test_a_hop_goes_over_any_piece_and_takes_nothing() -> None:
    state = position(game(), {"e9": "R", "f9": "R", "e10": "B"})
    assert {"e9-g9", "e9-e11"} <= moves(state)
    after = state.play("e9-e11")
    assert after.board == position(game(), {"e11": "R", "f9": "R", "e10": "B"}).board


def test_no_hop_onto_a_piece_nor_further_than_the_point_beyond() -> None:
    state = position(game(), {"e9": "R", "f9": "B", "g9": "B", "a13": "R", "b13": "B",
                              "c13": "B"})
    assert {m for m in moves(state) if m.startswith("e9-")} == {
        "e9-d9", "e9-e10", "e9-f10", "e9-e8", "e9-f8"}
    assert {m for m in moves(state) if m.startswith("a13-")} == {"a13-a12"}


# The chain ------------------------------------------------------------------------------------

CHAIN = {"e9": "R", "f10": "B", "h11": "B", "h12": "R"}  # e9 hops NE to g11, then E to i11


def test_after_a_hop_the_same_piece_may_hop_on_or_stop() -> None:
    state = position(game(), CHAIN).play("e9-g11")
    assert state.mover == "Red"
    assert moves(state) == {"g11-i11", "g11-i13", "pass"}
    stopped = state.play("pass")
    assert stopped.mover == "Blue"
    assert stopped.board == state.board


def test_the_chain_never_lands_where_it_has_been() -> None:
    state = position(game(), CHAIN).play("e9-g11").play("g11-i11")
    assert "i11-g11" not in moves(state)  # back over h11: visited
    state = position(game(), {"e9": "R", "f9": "B", "h9": "B", "h10": "B",
                              "g10": "B"}).play("e9-g9")
    # from g9: over h9 to i9, g10 to g11, h10 to i11; back over f9 to e9 (its start) is out
    assert moves(state) == {"g9-i9", "g9-g11", "g9-i11", "pass"}


def test_the_chain_stops_by_itself_where_no_hop_is_left() -> None:
    state = position(game(), {"e9": "R", "f10": "B"}).play("e9-g11")
    assert state.mover == "Blue"


def test_a_step_ends_the_turn_even_where_a_hop_could_follow() -> None:
    state = position(game(), {"e9": "R", "f9": "B", "g10": "B"}).play("e9-f10")
    assert state.mover == "Blue"


def test_a_position_in_the_middle_of_a_chain_reads_back() -> None:
    g = game()
    state = position(g, CHAIN).play("e9-g11")
    text = state.to_text()
    assert "decision: 2" in text and "visited: g11 e9" in text and "last to: g11" in text
    again = g.from_text(text)
    assert again.to_text() == text
    assert moves(again) == moves(state)
    # without visited:, the start of the chain is free to land on again
    loop = position(g, {"g11": "R", "f10": "B"}, "decision: 2", "last to: g11",
                    "last from: e9")
    assert "g11-e9" in moves(loop)
    assert "g11-e9" not in moves(g.from_text(text.replace("visited: g11 e9", "visited: e9")))


def test_visited_belongs_to_the_middle_of_a_turn() -> None:
    with pytest.raises(GameError, match="visited"):
        position(game(), CHAIN, "visited: e9")
    with pytest.raises(GameError, match="no site"):
        position(game(), CHAIN, "decision: 2", "last to: e9", "visited: z99")


# The end --------------------------------------------------------------------------------------

SOUTH = ["a1", "a2", "b2", "a3", "b3", "c3", "a4", "b4", "c4", "d4"]


def test_filling_the_opposite_point_wins() -> None:
    g = game()
    pieces = {site: "R" for site in SOUTH[1:]} | {"h5": "R", "a17": "B"}
    assert not position(g, pieces).is_over
    pieces = {site: "R" for site in SOUTH[:-1]} | {"h5": "R", "a17": "B"}
    won = position(g, pieces).play("h5-d4")
    assert won.is_over and won.winner == "Red"


def test_an_enemy_piece_in_the_point_keeps_it_from_being_filled() -> None:
    pieces = {site: "R" for site in SOUTH[:-2]} | {"c4": "B", "h5": "R", "a17": "B"}
    state = position(game(), pieces).play("h5-d4")
    assert not state.is_over


def test_a_player_who_cannot_move_passes() -> None:
    g = game(size=1)  # 13 points: a hexagon of 7 and six points of 1
    topo = g.env.topology
    full = {name: "B" for name in topo.names}
    full["a5"] = "R"  # the top tip, its two neighbours taken and nothing to hop to
    state = position(g, full)
    assert moves(state) == {"pass"}


def test_the_turn_limit_draws() -> None:
    g = game(limit=2)
    state = g.initial_state().play("a14-e13").play("a4-e5")
    assert state.is_over and state.winner is None
    assert not game().initial_state().play("a14-e13").play("a4-e5").is_over


def test_random_games_end_in_a_draw_at_the_limit() -> None:
    result = game(limit=100).playouts(3, seed=1)
    assert all(n >= 100 for n in result.lengths)


def test_the_file_reads_as_a_rule_sheet() -> None:
    text = GAME.read_text(encoding="utf-8")
    assert len(text.splitlines()) < 80
    with pytest.raises(GameError):
        parse_game(text.replace("(star #size)", "(star 0)"))
