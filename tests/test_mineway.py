"""Mineway, tested from its rules (docs/rules/mineway.md), not from the program's output.

Geometry used throughout (worked out from the rules' picture, independently of the program):
a cell of the side-n hexhex board is (x, y) with y = row - n (0 is the centre row, up is +)
and x in half-cell units, x = |y| + 2 * (position in the row, from 0). In position text the
row with ordinate y is indented by |y| spaces, so a cell's x is also its column in the text.
The six neighbours of (x, y) are E (x+2, y), W (x-2, y), NE (x+1, y+1), NW (x-1, y+1),
SE (x+1, y-1), SW (x-1, y-1); the rules' "lines" are these six rays continued. A step such
as (x, y+2) or (x+3, y+1) crosses a cell corner and is not a line.

Site names: the letter is the position in the row from its left end, the number is the row
counted from the bottom. On the side-4 board (used for the crafted positions) that gives

       a7 b7 c7 d7                    (3,3) (5,3) (7,3) (9,3)
     a6 b6 c6 d6 e6
    a5 b5 c5 d5 e5 f5
   a4 b4 c4 d4 e4 f4 g4               d4 = (6,0) is the mine
    a3 b3 c3 d3 e3 f3
     a2 b2 c2 d2 e2
       a1 b1 c1 d1

and the start is Gold c5 e4 c3, Silver d5 c4 d3. The ring at distance 2 from the mine is
b6 c6 d6 b5 e5 b4 f4 b3 e3 b2 c2 d2; the 18 cells at distance 3 are the perimeter.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hexhex_referee import SYM, Hex

from interpreter import GameError, IllegalMoveError, load_game

GAME_FILE = Path(__file__).resolve().parent.parent / "games" / "mineway.game"
game = load_game(GAME_FILE)
game4 = load_game(GAME_FILE, size=4)
game4_border = load_game(GAME_FILE, size=4, border_drops=True)


H4, H6 = Hex(4), Hex(6)


def names(moves) -> set[str]:
    return {str(m) for m in moves}


def position(g, text: str):
    state = g.from_text(text)
    assert state.to_text() == text  # every crafted text is written in to_text's format
    return state


def check_moves_against_model(g, h: Hex, state, border_drops=False) -> None:
    stones, mover = h.parse(state.to_text())
    moves = [str(m) for m in state.legal_moves()]
    assert len(moves) == len(set(moves)), "a move is listed twice"
    assert set(moves) == h.drops(stones, SYM[mover], border_drops)


# ---------------------------------------------------------------------------------------------
# Setup

SETUP_DOC = """\
     . . . . . .
    . . . . . . .
   . . . . . . . .
  . . . . . . . . .
 . . . . G S . . . .
. . . . S * G . . . .
 . . . . G S . . . .
  . . . . . . . . .
   . . . . . . . .
    . . . . . . .
     . . . . . .
mover: Silver
"""

# Derived by hand from the start: each start station has three rays pointing away from the
# mine (the other three are stopped by an adjacent stone, or by the mine and the stone behind
# it), each ray has four cells on the side-6 board, and the last three of them (at least one
# empty cell between) are drops: 9 rays x 3 = 27.
SILVER_START_DROPS = {
    "h7", "i7", "j7", "f9", "f10", "f11", "d9", "c10", "b11",      # from f7 (E, NE, NW)
    "c6", "b6", "a6", "c8", "b9", "a10", "c4", "b3", "a2",          # from e6 (W, NW, SW)
    "h5", "i5", "j5", "f3", "f2", "f1", "d3", "c2", "b1",           # from f5 (E, SE, SW)
}
GOLD_START_DROPS = {
    "c7", "b7", "a7", "c9", "b10", "a11", "e9", "e10", "e11",       # from e7 (W, NW, NE)
    "i6", "j6", "k6", "g8", "g9", "g10", "g4", "g3", "g2",          # from g6 (E, NE, SE)
    "c5", "b5", "a5", "c3", "b2", "a1", "e3", "e2", "e1",           # from e5 (W, SW, SE)
}


def test_identity_and_options() -> None:
    assert game.name == "Mineway"
    assert game.players == ("Silver", "Gold")
    assert game.options == {"size": 6, "first": "Silver", "border_drops": False}
    assert len(game.sites) == 91
    assert game.sites[:6] == ("a11", "b11", "c11", "d11", "e11", "f11")
    assert game.sites[-6:] == ("a1", "b1", "c1", "d1", "e1", "f1")
    assert list(game.sites) == [H6.name(c) for c in H6.cells]
    assert len(game4.sites) == 37


def test_setup_is_the_rules_diagram() -> None:
    state = game.initial_state()
    assert state.to_text() == SETUP_DOC
    assert state.mover == "Silver"
    assert not state.is_over and state.winner is None
    stones, _ = H6.parse(state.to_text())
    # Gold upper-left, right and lower-left of the mine f6 = (10, 0); Silver the others
    assert stones == {(9, 1): "G", (12, 0): "G", (9, -1): "G",
                      (11, 1): "S", (8, 0): "S", (11, -1): "S"}


def test_start_drops() -> None:
    assert names(game.initial_state().legal_moves()) == SILVER_START_DROPS
    gold_first = load_game(GAME_FILE, first="Gold").initial_state()
    assert names(gold_first.legal_moves()) == GOLD_START_DROPS


def test_first_gold() -> None:
    g = load_game(GAME_FILE, first="Gold")
    assert g.options["first"] == "Gold"
    state = g.initial_state()
    assert state.mover == "Gold"
    assert state.to_text() == SETUP_DOC.replace("mover: Silver", "mover: Gold")
    after = state.play("k6")
    assert after.mover == "Silver"
    assert H6.parse(after.to_text())[0][(20, 0)] == "G"


def test_first_option_rejects_other_values() -> None:
    with pytest.raises(GameError):
        load_game(GAME_FILE, first="Bronze")
    with pytest.raises(GameError):
        load_game(GAME_FILE, size=3)


@pytest.mark.parametrize("size, centre", [(4, "d4"), (5, "e5"), (6, "f6"), (7, "g7")])
def test_mine_is_the_centre(size: int, centre: str) -> None:
    g = load_game(GAME_FILE, size=size)
    h = Hex(size)
    assert h.name(h.mine) == centre
    text = g.initial_state().to_text()
    stones, _ = h.parse(text)  # asserts that '*' is at the centre
    assert len(stones) == 6 and all(c in h.neighbours(h.mine) for c in stones)


# ---------------------------------------------------------------------------------------------
# The mine never holds a stone


@pytest.mark.parametrize("first", ["Silver", "Gold"])
def test_mine_is_not_a_drop(first: str) -> None:
    state = load_game(GAME_FILE, first=first).initial_state()
    assert "f6" not in names(state.legal_moves())
    with pytest.raises(IllegalMoveError) as info:
        state.play("f6")
    assert "f6" in str(info.value)
    assert isinstance(info.value, GameError) and isinstance(info.value, ValueError)


def test_mine_is_not_a_drop_even_with_a_friend_in_sight() -> None:
    # Constructed (cannot arise in play): c4, west of the mine, is empty, so the mine d4 looks
    # west over c4 to Gold's b4 -- were the mine a cell, it would be a Gold drop. c4 itself
    # is a Gold drop only through the mine: east of c4 lie the mine (counts as empty) then
    # Gold's e4; all its other neighbours are Gold stones (adjacent, so no drop from them).
    # Gold's b6 is open (c5 -> b6 -> a7), so Gold can travel and the game is not over.
    text = """\
   . . . .
  . . G G .
 . G G S G .
. G . * G G .
 . G G S G .
  . G G G .
   . . . .
mover: Gold
"""
    state = position(game4, text)
    assert not state.is_over
    moves = names(state.legal_moves())
    assert "d4" not in moves
    assert "c4" in moves  # the mine counts as an empty cell along a line
    check_moves_against_model(game4, H4, state)
    with pytest.raises(IllegalMoveError):
        state.play("d4")


def test_stone_on_the_mine_is_not_a_position() -> None:
    text = SETUP_DOC.replace("S * G", "S S G")
    with pytest.raises(GameError):
        game.from_text(text)


# ---------------------------------------------------------------------------------------------
# Drops


def test_adjacent_only_station_does_not_make_a_drop() -> None:
    moves = names(game.initial_state().legal_moves())
    # g7 = (13,1) touches Silver's f7 and nothing else of Silver's is on its lines
    assert "g7" not in moves
    # same for the first cell of every open ray of the start stations
    for cell in ["g7", "f8", "e8", "d6", "d7", "d5", "g5", "f4", "e4"]:
        assert cell not in moves, cell
    with pytest.raises(IllegalMoveError):
        game.initial_state().play("g7")


def test_lines_through_corners_do_not_count() -> None:
    moves = names(game.initial_state().legal_moves())
    # e9 = (11,3) is straight "above" Silver's f7 = (11,1) across the corner between
    # d8 = (10,2) and e8 = (12,2): not a line. (It is a Gold drop: e7 = (9,1) lies SW of it
    # with d8 empty between.)
    assert "e9" not in moves
    # g8 = (14,2) is (3,1) from f7: across the corner between g7 and e8; not a line either.
    assert "g8" not in moves
    gold = names(load_game(GAME_FILE, first="Gold").initial_state().legal_moves())
    assert {"e9", "g8"} <= gold


# Silver to move; Silver dropped c6 = (4,0), Gold dropped h7 = (15,1).
BLOCKED = """\
     . . . . . .
    . . . . . . .
   . . . . . . . .
  . . . . . . . . .
 . . . . G S . G . .
. . S . S * G . . . .
 . . . . G S . . . .
  . . . . . . . . .
   . . . . . . . .
    . . . . . . .
     . . . . . .
mover: Silver
"""


def test_a_stone_in_between_blocks_a_drop() -> None:
    state = position(game, BLOCKED)
    moves = names(state.legal_moves())
    # East of f7: g7 empty, then Gold's h7. i7 and j7 were drops at the start; now h7 stands
    # between them and f7, and no other Silver station is on a line with them.
    assert {"i7", "j7"} & moves == set()
    assert "g7" not in moves
    # West of e6: d6 is empty and touches both e6 and c6 -- no drop; b6 touches c6 only and
    # c6 blocks the view to e6; a6 sees c6 over the empty b6.
    assert "d6" not in moves
    assert "b6" not in moves
    assert "a6" in moves
    check_moves_against_model(game, H6, state)
    with pytest.raises(IllegalMoveError):
        state.play("i7")


def test_drop_with_several_empty_cells_between() -> None:
    moves = names(game.initial_state().legal_moves())
    # j7 = (19,1): f7 is 4 cells west with g7, h7, i7 empty between
    assert "j7" in moves
    after = game.initial_state().play("j7")
    assert H6.parse(after.to_text())[0][(19, 1)] == "S"
    assert after.mover == "Gold" and not after.is_over


def test_start_drops_match_the_model() -> None:
    check_moves_against_model(game, H6, game.initial_state())
    check_moves_against_model(game, H6, load_game(GAME_FILE, first="Gold").initial_state())


# ---------------------------------------------------------------------------------------------
# Travel, probed with "mover: Silver": from_text judges the position as if Gold had just
# moved, so Gold has won exactly when Silver cannot travel or has no drop. Every position
# below gives Silver drops through an unconnected stone on a4 = (0,0) (Gold's b4 shields it):
# a4 looks NE over a5 to a6 and a7 and SE over a3 to a2 and a1. So the result tells
# whether Silver can travel.

SEALED = """\
   . . . .
  . G G G .
 . G G S G .
S G S * G G .
 . G G S G .
  . G G G .
   . . . .
mover: Silver
"""


def probe(text: str):
    state = position(game4, text)
    stones, _ = H4.parse(text)
    assert H4.drops(stones, "S")  # Silver has a drop: only travel decides
    return state, stones


def test_sealed_silver_cannot_travel() -> None:
    # The whole ring at distance 2 is filled: every ray from Silver's d5, c4, d3 ends on an
    # adjacent stone (or crosses the mine to a Gold stone).
    state, stones = probe(SEALED)
    assert not H4.can_travel(stones, "S")
    assert state.is_over
    assert state.winner == "Gold"
    assert state.mover is None
    assert state.legal_moves() == []
    with pytest.raises(IllegalMoveError):
        state.play("a6")


def test_crossing_reached_along_a_line_from_a_station_next_to_the_mine() -> None:
    # d6 emptied: mine -> d5 (adjacent) -> d7 (perimeter, over the empty d6).
    text = SEALED.replace("  . G G G .\n ", "  . G G . .\n ", 1)
    state, stones = probe(text)
    assert stones.get(H4.cell("d6")) is None
    assert H4.can_travel(stones, "S")
    assert not state.is_over and state.mover == "Silver"
    check_moves_against_model(game4, H4, state)


def test_adjacent_stations_do_not_travel_directly() -> None:
    # e5 is Silver instead of Gold. e5 looks east to the empty perimeter cell f5, but e5 is
    # only adjacent to d5, and no other line reaches it (d6, f4, e4 are Gold). Silver's only
    # route would be d5 -> e5 -> f5: not allowed.
    text = SEALED.replace(" . G G S G .\nS", " . G G S S .\nS")
    state, stones = probe(text)
    assert stones[H4.cell("e5")] == "S"
    assert not H4.can_travel(stones, "S")
    assert state.winner == "Gold"


def test_station_to_station_over_an_empty_cell_then_adjacent_crossing() -> None:
    # e5 empty, Silver on f5 (perimeter): d5 -> f5 over the empty e5, then f5 -> e6 (an empty
    # perimeter cell next to f5). e5 itself is not on the perimeter.
    text = SEALED.replace(" . G G S G .\nS", " . G G S . S\nS")
    state, stones = probe(text)
    assert H4.cell("e5") not in H4.perimeter
    assert H4.can_travel(stones, "S")
    assert not state.is_over


def test_station_on_the_perimeter_is_not_a_crossing() -> None:
    # As above, but Gold holds f5's empty perimeter neighbours e6 and g4: Silver reaches the
    # perimeter station f5 and no border crossing.
    text = SEALED.replace("  . G G G .\n . G G S G .\nS G S * G G .",
                          "  . G G G G\n . G G S . S\nS G S * G G G")
    state, stones = probe(text)
    assert stones[H4.cell("f5")] == "S" and H4.cell("f5") in H4.perimeter
    assert stones[H4.cell("e6")] == "G" and stones[H4.cell("g4")] == "G"
    assert not H4.can_travel(stones, "S")
    assert state.winner == "Gold"


def test_mine_reaches_a_station_over_an_empty_cell() -> None:
    # Constructed (cannot arise in play): d5 empty, Silver on d6. Mine -> d6 along the NE line
    # over the empty d5, then d6 -> d7 (adjacent crossing). d6 is on no line with c4 or d3.
    text = SEALED.replace("  . G G G .\n . G G S G .", "  . G G S .\n . G G . G .")
    state, stones = probe(text)
    assert H4.can_travel(stones, "S")
    assert not state.is_over and state.mover == "Silver"


def test_gold_probe_mirrors() -> None:
    # Gold to move in SEALED: Gold cannot travel (and has no drop): Silver has won.
    state = position(game4, SEALED.replace("mover: Silver", "mover: Gold"))
    assert state.winner == "Silver"


# ---------------------------------------------------------------------------------------------
# The end of the game

# Gold to move. Silver's only route: d5 -> over d6 -> d7. Gold can drop on d7 (west of it:
# c7 empty, then Gold's b7) but not on d6 (its lines meet Gold's c6 and e5 adjacent, Silver's
# d5, or run off the board). Silver's a4 still has drops afterwards.
CUT = """\
   . G . .
  . . G . .
 . G G S G .
S G S * G . .
 . G G S G .
  . . G G .
   . . . .
mover: Gold
"""


def test_drop_that_cuts_the_last_route_wins() -> None:
    state = position(game4, CUT)
    assert not state.is_over and state.mover == "Gold"
    moves = names(state.legal_moves())
    assert "d7" in moves and "d6" not in moves
    check_moves_against_model(game4, H4, state)
    after = state.play("d7")
    stones, _ = H4.parse(after.to_text())
    assert not H4.can_travel(stones, "S") and H4.drops(stones, "S")
    assert after.is_over
    assert after.winner == "Gold"
    assert after.mover is None
    assert after.legal_moves() == []
    # d7 is the only drop that wins; any other leaves Silver's route.
    for m in moves - {"d7"}:
        nxt = state.play(m)
        stones, _ = H4.parse(nxt.to_text())
        assert H4.can_travel(stones, "S") and H4.drops(stones, "S"), m
        assert not nxt.is_over and nxt.mover == "Silver", m


# Gold to move. Gold's only route: c5 -> over b6 -> a7. Dropping on a7 itself (legal: c5 lies
# SE of it with b6 empty between) makes a7 a station, not a crossing, and a7's other lines
# end on Silver's b7 and a6 at once: Gold cuts its own route. Silver still travels
# (d5 -> d7 over d6) and has drops, so the game goes on.
SELF_CUT = """\
   . S . .
  S . G . .
 . G G S G .
. . S * G G .
 . G G S G .
  . G G . .
   . . . .
mover: Gold
"""


def test_cutting_your_own_route_does_not_lose_at_once() -> None:
    state = position(game4, SELF_CUT)
    assert not state.is_over
    assert "a7" in names(state.legal_moves())
    after = state.play("a7")
    stones, _ = H4.parse(after.to_text())
    assert not H4.can_travel(stones, "G")
    assert H4.can_travel(stones, "S") and H4.drops(stones, "S")
    assert not after.is_over
    assert after.winner is None
    assert after.mover == "Silver"
    # Whatever Silver drops, Gold still cannot travel: Silver wins.
    replies = names(after.legal_moves())
    assert replies == H4.drops(stones, "S")
    for m in replies:
        final = after.play(m)
        assert final.is_over and final.winner == "Silver", m


# Gold to move. Silver travels (mine -> d5 -> over d6 -> d7, whose neighbours c7 and e6 are
# empty perimeter cells) but every Silver ray is stopped at its first or second cell except
# d7's SE ray: e6, f5, g4, so Silver's drops are exactly f5 and g4. Gold may drop on f5
# (SW of it: f4 empty, then Gold's e3) or on e6 (W of it: d6 empty, then Gold's c6); either
# leaves Silver without a drop. On g4 Gold leaves Silver f5.
NO_DROP = """\
   . G . S
  . . G . .
 . G G S G .
. G S * G . .
 . G G S G .
  . . G G .
   . . . .
mover: Gold
"""


def test_taking_the_opponents_last_drop_wins() -> None:
    state = position(game4, NO_DROP)
    assert not state.is_over
    before, _ = H4.parse(NO_DROP)
    assert H4.drops(before, "S") == {"f5", "g4"}
    moves = names(state.legal_moves())
    assert {"f5", "e6", "g4"} <= moves
    check_moves_against_model(game4, H4, state)
    for m in moves:
        after = state.play(m)
        stones, _ = H4.parse(after.to_text())
        assert H4.can_travel(stones, "S"), m  # Silver is never cut off here
        if m in ("f5", "e6"):
            assert after.is_over and after.winner == "Gold", m
        else:
            assert not after.is_over and after.mover == "Silver", m


def test_no_drop_position_from_text_is_won() -> None:
    # NO_DROP after Gold's f5, Silver to move
    text = NO_DROP.replace(" . G G S G .\n. G S", " . G G S G G\n. G S", 1).replace(
        "mover: Gold", "mover: Silver")
    state = position(game4, text)
    stones, _ = H4.parse(text)
    assert H4.can_travel(stones, "S") and not H4.drops(stones, "S")
    assert state.is_over and state.winner == "Gold" and state.legal_moves() == []


# ---------------------------------------------------------------------------------------------
# border_drops

# Silver to move; Silver travels through d6 to d7. Silver's a4 touches the empty perimeter
# cell a5 (whose lines meet Gold's b5 and b4 adjacent, a4 adjacent, or nothing) and Gold's
# a3. d6 touches d5 but is not on the perimeter.
BORDER = """\
   . . . .
  . G G . .
 . G G S G .
S G S * G G .
 G G G S G .
  . G G G .
   . . . .
mover: Silver
"""


def test_border_drops_off() -> None:
    assert game4.options["border_drops"] is False
    state = position(game4, BORDER)
    moves = names(state.legal_moves())
    assert "a5" not in moves and "a3" not in moves and "d6" not in moves
    assert {"d7", "a6", "a7"} <= moves
    check_moves_against_model(game4, H4, state, border_drops=False)
    with pytest.raises(IllegalMoveError):
        state.play("a5")


def test_border_drops_on() -> None:
    assert game4_border.options["border_drops"] is True
    state = position(game4_border, BORDER)
    off = names(position(game4, BORDER).legal_moves())
    moves = names(state.legal_moves())
    assert moves - off == {"a5"}  # a3 is occupied, d6 is not on the perimeter
    assert "d6" not in moves and "a3" not in moves
    check_moves_against_model(game4_border, H4, state, border_drops=True)
    after = state.play("a5")
    assert H4.parse(after.to_text())[0][H4.cell("a5")] == "S"


def test_border_drops_keep_a_player_from_being_stuck() -> None:
    # NO_DROP after Gold's f5: without border drops Silver is stuck and Gold wins; with them
    # Silver may drop on c7 or e6, the empty perimeter cells next to its d7.
    state = position(game4_border, NO_DROP)
    after = state.play("f5")
    assert not after.is_over and after.mover == "Silver"
    assert names(after.legal_moves()) == {"c7", "e6"}
    assert position(game4, NO_DROP).play("f5").winner == "Gold"


# ---------------------------------------------------------------------------------------------
# Position text


@pytest.mark.parametrize("g, text", [
    (game, SETUP_DOC), (game, BLOCKED), (game4, SEALED), (game4, CUT), (game4, SELF_CUT),
    (game4, NO_DROP), (game4, BORDER),
    (game4, CUT.replace("   . G . .", "   . G . G").replace("mover: Gold", "mover: Silver")),
])
def test_round_trip(g, text: str) -> None:
    state = g.from_text(text)
    assert state.to_text() == text
    again = g.from_text(state.to_text())
    assert again.to_text() == text
    assert (again.is_over, again.winner, again.mover) == (state.is_over, state.winner,
                                                          state.mover)


def test_won_position_from_text() -> None:
    text = CUT.replace("   . G . .", "   . G . G").replace("mover: Gold", "mover: Silver")
    state = game4.from_text(text)
    assert state.is_over and state.winner == "Gold" and state.mover is None
    played = game4.from_text(CUT).play("d7")
    assert played.to_text() == text


def test_play_does_not_mutate() -> None:
    state = position(game4, CUT)
    moves = names(state.legal_moves())
    state.play("d7")
    state.play("a6")
    assert state.to_text() == CUT
    assert names(state.legal_moves()) == moves
    assert not state.is_over and state.mover == "Gold"
