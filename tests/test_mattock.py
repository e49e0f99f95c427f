"""Mattock (rules: docs/rules/mattock.md), played through the public API from hand-built
positions.

Every position below is drawn as the position text of the short board (hexhex, 5 cells a
side, 61 spaces). Hex site names: row number from the bottom (1 = bottom row), letter = the
cell's place in its row from the row's left end. In the text each cell of row r sits at text
column x = 2 * (letter index) + |r - 5|, so two cells touch exactly when they are in the same
row two columns apart, or in neighbouring rows one column apart. `neighbours` below works the
adjacency out from that geometry, independently of the interpreter, and the comments next to
each position give the counts by hand.

Interpretation decided in the game file: for mining, the chain of tiles from a miner may pass
through tiles holding the mover's own miners, but not through (nor end at) a tile holding an
opponent miner.
"""

from __future__ import annotations

import io
import random
from functools import cache
from pathlib import Path

import pytest

from interpreter import GameError, IllegalMoveError, load_game
from interpreter.repl import Repl

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "games" / "mattock.game"


@cache
def mattock(short: bool = True, setup: str = "fixed"):
    return load_game(GAME, short=short, setup=setup)


# Independent geometry --------------------------------------------------------------------------

def site_xy(name: str, side: int = 5) -> tuple[int, int]:
    """(text column, row from the bottom) of a site of the hexhex board with `side` cells a side."""
    c, r = ord(name[0]) - ord("a"), int(name[1:])
    return 2 * c + abs(r - side), r


def all_sites(side: int = 5) -> list[str]:
    """Every site in reading order: top row first, left to right."""
    out = []
    for r in range(2 * side - 1, 0, -1):
        length = 2 * side - 1 - abs(r - side)
        out.extend(f"{chr(ord('a') + c)}{r}" for c in range(length))
    return out


def neighbours(name: str, side: int = 5) -> set[str]:
    where = {site_xy(s, side): s for s in all_sites(side)}
    x, r = site_xy(name, side)
    around = [(x - 2, r), (x + 2, r), (x - 1, r + 1), (x + 1, r + 1), (x - 1, r - 1),
              (x + 1, r - 1)]
    return {where[p] for p in around if p in where}


def cells(state) -> dict[str, str]:
    """{site: symbol} read back from the position text."""
    rows = [line.split() for line in state.to_text().splitlines() if ":" not in line]
    names = all_sites((len(rows) + 1) // 2)
    flat = [c for row in rows for c in row]
    assert len(flat) == len(names)
    return dict(zip(names, flat, strict=True))


def moves(state) -> set[str]:
    return {str(m) for m in state.legal_moves()}


def test_geometry_agrees_with_the_board() -> None:
    assert mattock().sites == tuple(all_sites(5))
    assert mattock(short=False).sites == tuple(all_sites(7))
    assert neighbours("e5") == {"d5", "f5", "d6", "e6", "d4", "e4"}
    assert neighbours("a9") == {"b9", "a8", "b8"}
    assert neighbours("b8") == {"a8", "c8", "a9", "b9", "b7", "c7"}
    assert neighbours("a5") == {"b5", "a6", "a4"}


# Setups ------------------------------------------------------------------------------------------

FULL_START = """\
      . . B . . . .
     . . . . . . . .
    . . . . . . . . R
   . . . . R . . . . .
  R . . . . . . B . . .
 . . . B . . . . . . . .
. . . . . . . . . . . . .
 . . . . . . . . R . . .
  . . . R . . . . . . B
   . . . . . B . . . .
    B . . . . . . . .
     . . . . . . . .
      . . . . R . .
mover: Red
"""

SHORT_START = """\
    . . . . .
   . . R . . .
  . . . . . B .
 . B . . . . . .
. . . . . . . . .
 . . . . . . R .
  . R . . . . .
   . . . B . .
    . . . . .
mover: Red
"""


def test_full_fixed_setup_is_the_rules_diagram() -> None:
    game = mattock(short=False)
    assert game.players == ("Red", "Blue")
    assert len(game.sites) == 127
    state = game.initial_state()
    assert state.to_text() == FULL_START
    assert state.mover == "Red"
    assert state.in_hand("Red") == 0 and state.in_hand("Blue") == 0


def test_short_fixed_setup_is_the_rules_diagram() -> None:
    game = mattock()
    assert len(game.sites) == 61
    state = game.initial_state()
    assert state.to_text() == SHORT_START
    assert state.mover == "Red"
    assert state.in_hand("Red") == 0 and state.in_hand("Blue") == 0
    assert game.from_text(SHORT_START).to_text() == SHORT_START


def test_options() -> None:
    assert mattock().options == {"size": 7, "miners": 6, "short": True, "setup": "fixed"}
    assert mattock(short=False, setup="freestyle").options == {
        "size": 7, "miners": 6, "short": False, "setup": "freestyle"}
    with pytest.raises(GameError):
        load_game(GAME, setup="random")


def test_the_short_game_is_size_5_with_3_miners() -> None:
    game = load_game(GAME, size=5, miners=3)
    assert len(game.sites) == 61
    assert game.initial_state().to_text() == SHORT_START


@pytest.mark.parametrize("size, miners", [(6, 4), (7, 3), (9, 6), (5, 6)])
def test_a_size_and_miners_without_a_fixed_start_are_placed_freestyle(size: int,
                                                                       miners: int) -> None:
    game = load_game(GAME, size=size, miners=miners)
    assert len(game.sites) == 3 * size * (size - 1) + 1
    state = game.initial_state()
    assert "phase: setup" in state.to_text() and state.in_hand("Red") == miners
    assert len(state.legal_moves()) == len(game.sites)  # any space, to begin with
    end, _ = game.playout(random.Random(size))
    assert end.is_over


def test_the_default_is_the_full_game_with_its_fixed_start() -> None:
    default = load_game(GAME).initial_state()
    assert default.to_text() == load_game(GAME, size=7, miners=6).initial_state().to_text()
    cells = default.to_text().split()
    assert cells.count("R") == 6 and cells.count("B") == 6


# Mining: where -----------------------------------------------------------------------------------

def connect_position(middle: str) -> str:
    # Row 5: Red miner d5, then `middle` on e5, then an empty tile f5; a Blue miner in the corner
    # a9, far from everything.
    return f"""\
    B . . . .
   . . . . . .
  . . . . . . .
 . . . . . . . .
. . . R {middle} o . . .
 . . . . . . . .
  . . . . . . .
   . . . . . .
    . . . . .
mover: Red
"""


def test_mining_is_next_to_a_tile_connected_to_a_miner() -> None:
    state = mattock().from_text(connect_position("R"))
    # d5 touches c5 e5 c6 d6 c4 d4; e5 touches d5 f5 d6 e6 d4 e4; f5 touches e5 g5 e6 f6 e4 f4.
    # The chain d5-e5-f5 is Red's (e5 is Red's own miner, which does not block). Every open
    # neighbour touches at most 2 tiles.
    assert moves(state) == {"c5", "c6", "d6", "c4", "d4", "e6", "e4", "g5", "f6", "f4"}


def test_an_opponent_miner_blocks_the_chain_and_its_tile_is_not_a_start() -> None:
    state = mattock().from_text(connect_position("B"))
    # Only d5's own open neighbours: e6 and e4 touch only e5 (Blue) and f5; g5, f6, f4 touch
    # only f5, which is reached from d5 only through Blue's e5.
    assert moves(state) == {"c5", "c6", "d6", "c4", "d4"}
    for site in ("e6", "e4", "g5", "f6", "f4"):
        with pytest.raises(IllegalMoveError) as info:
            state.play(site)
        assert str(info.value).startswith(f"{site}:")
    # Blue, to move in the same position, mines around its miners e5 and a9 and the tile f5
    # beyond e5, but not around Red's d5 alone (c5, c6, c4).
    blue = mattock().from_text(connect_position("B").replace("mover: Red", "mover: Blue"))
    assert moves(blue) == {"d6", "e6", "d4", "e4", "g5", "f6", "f4", "b9", "a8", "b8"}


def test_mining_an_occupied_or_unconnected_site_is_refused() -> None:
    state = mattock().initial_state()
    with pytest.raises(IllegalMoveError, match=r"^c8: .*occupied"):
        state.play("c8")  # Red's own miner
    with pytest.raises(IllegalMoveError, match=r"^e5: "):
        state.play("e5")  # the centre: next to no tile at all
    with pytest.raises(IllegalMoveError, match=r"^zz9: "):
        state.play("zz9")
    # From the start, Red's choices are the open neighbours of its three miners.
    red = {"c8", "g4", "b3"}
    expected = set().union(*(neighbours(s) for s in red)) - red
    assert moves(state) == expected


# Mining: the touch-at-most-3 rule ----------------------------------------------------------------

TOUCH_FOUR = """\
    B . B . B
   . . . . . .
  . . . . . . .
 . . . o o . . .
. . . R . o . . .
 . . . . . . . .
  . . . . . . .
   . . . . . .
    R . . . R
mover: Red
"""


def test_a_new_tile_may_not_touch_four_tiles() -> None:
    state = mattock().from_text(TOUCH_FOUR)
    # e5 would touch d5 (Red), d6, e6 and f5: 4 tiles. (d6 and e6 would touch 3 each.)
    assert "e5" not in moves(state)
    with pytest.raises(IllegalMoveError) as info:
        state.play("e5")
    message = str(info.value)
    assert message.startswith("e5: ")
    assert "touch" in message and "tiles" in message
    # e4 touches only f5, which is connected to d5 through e6 and d6: legal.
    assert "e4" in moves(state)


TOUCHED_THREE = """\
    B . B . B
   . . . . . .
  . . . . . . .
 . . . . . . . .
. . . o R o . . .
 . . . o . . . .
  . . . . . . .
   . . . . . .
    R . . . R
mover: Red
"""


def test_a_new_tile_may_not_touch_a_tile_that_already_touches_three() -> None:
    state = mattock().from_text(TOUCHED_THREE)
    # e5 already touches d5, f5 and d4. e6 would touch only e5 and f5 (2 tiles), but e5 would
    # then touch 4; the same for d6 (touches d5, e5) and e4 (touches e5, f5, d4).
    for site in ("e6", "d6", "e4"):
        assert site not in moves(state)
        with pytest.raises(IllegalMoveError) as info:
            state.play(site)
        message = str(info.value)
        assert message.startswith(f"{site}: ")
        assert "touch" in message and "tiles" in message
    # Around the other tiles it is fine: c5 touches d5 only; c4 touches d5 and d4 (each of
    # which then touches 3); g5 touches f5.
    assert {"c5", "c4", "g5", "c3", "d3", "f6", "f4"} <= moves(state)


TOUCH_THREE_OK = """\
    B . B . B
   . . . . . .
  . . . . . . .
 . . . o . . . .
. . . . R o . . .
 . . . . . . . .
  . . . . . . .
   . . . . . .
    R . . . R
mover: Red
"""


def test_a_new_tile_may_touch_exactly_three() -> None:
    state = mattock().from_text(TOUCH_THREE_OK)
    # e6 touches e5, f5 and d6: 3 tiles; e5 then touches f5, d6, e6: 3 as well.
    assert sum(1 for n in neighbours("e6") if cells(state)[n] != ".") == 3
    after = state.play("e6")
    assert cells(after)["e6"] == "o"  # all of Red's miners are on the board: a bare tile
    assert after.mover == "Red"
    assert "decision: 2" in after.to_text()


# Mining: a miner from hand -----------------------------------------------------------------------

HAND = """\
    B . B . B
   . . . . . .
  . . . . . . .
 . . . . . . . .
. . . . R . . . .
 . . . . . . . .
  . . . . . . .
   . . . . . .
    R . . . .
mover: Red
"""


def test_a_miner_in_hand_comes_back_on_the_mined_tile() -> None:
    game = mattock()
    for text in (HAND, HAND + "in hand Red: 1\n"):
        state = game.from_text(text)
        assert state.in_hand("Red") == 1
        after = state.play("d5")
        assert cells(after)["d5"] == "R"
        assert after.piece_at("d5") == "Red"
        assert after.in_hand("Red") == 0
        assert after.mover == "Red"  # the optional move comes next


def test_without_miners_in_hand_the_mined_tile_stays_bare() -> None:
    game = mattock()
    state = game.from_text(HAND + "in hand Red: 0\n")
    assert state.in_hand("Red") == 0
    assert "in hand Red: 0" in state.to_text()
    after = state.play("d5")
    assert cells(after)["d5"] == "o"
    assert after.piece_at("d5") == "Tile"
    assert after.in_hand("Red") == 0
    # With all three Red miners on the board (hand 0 by default), the same.
    full = game.from_text(HAND.replace("    R . . . .", "    R . . . R"))
    assert full.in_hand("Red") == 0
    assert cells(full.play("d5"))["d5"] == "o"


# The optional move -------------------------------------------------------------------------------

def move_position(middle: str) -> str:
    # Row 5: Red c5, tile d5, `middle` on e5, tiles f5 g5; Red a1, Blue a9 far away. Red has
    # mined already: the optional move is next.
    return f"""\
    B . . . .
   . . . . . .
  . . . . . . .
 . . . . . . . .
. . R o {middle} o o . .
 . . . . . . . .
  . . . . . . .
   . . . . . .
    R . . . .
mover: Red
decision: 2
"""


def test_a_move_may_pass_through_own_miners() -> None:
    state = mattock().from_text(move_position("R"))
    assert state.mover == "Red"
    assert moves(state) == {"c5-d5", "c5-f5", "c5-g5", "e5-d5", "e5-f5", "e5-g5", "pass"}
    after = state.play("c5-g5")
    row = cells(after)
    assert (row["c5"], row["d5"], row["e5"], row["f5"], row["g5"]) == ("o", "o", "R", "o", "R")
    assert after.mover == "Blue"


def test_a_move_is_blocked_by_opponent_miners_and_needs_a_bare_tile() -> None:
    state = mattock().from_text(move_position("B"))
    assert moves(state) == {"c5-d5", "pass"}
    for move in ("c5-f5", "c5-g5", "c5-e5", "c5-b5", "a1-b1", "e5-f5"):
        with pytest.raises(IllegalMoveError) as info:
            state.play(move)
        assert str(info.value).startswith(f"{move}: ")
    own = mattock().from_text(move_position("R"))
    for move in ("c5-e5", "e5-c5", "c5-b5", "c5-c6"):  # onto a miner, or onto an open space
        with pytest.raises(IllegalMoveError):
            own.play(move)


def test_the_move_may_be_declined_with_pass() -> None:
    state = mattock().from_text(move_position("R"))
    after = state.play("pass")
    assert after.mover == "Blue"
    assert cells(after) == cells(state)
    assert "decision" not in after.to_text()
    # A placement is not a move of the second decision.
    with pytest.raises(IllegalMoveError):
        state.play("b5")


def test_a_whole_turn_through_the_api() -> None:
    start = mattock().initial_state()
    mined = start.play("c7")  # c7 touches Red's c8
    assert mined.mover == "Red"
    assert mined.to_text().endswith("mover: Red\ndecision: 2\n")
    assert cells(mined)["c7"] == "o"
    done = mined.play("c8-c7")
    assert done.mover == "Blue"
    assert (cells(done)["c8"], cells(done)["c7"]) == ("o", "R")
    assert "decision" not in done.to_text()
    # The same, in the brief's example style, chained.
    assert start.play("c7").play("c8-c7").to_text() == done.to_text()
    # The states along the way are unchanged.
    assert start.to_text() == SHORT_START
    assert mined.mover == "Red" and cells(mined)["c8"] == "R"


# Removal -----------------------------------------------------------------------------------------

REMOVAL = """\
    . . . . .
   . . . . . .
  . . . . . . .
 . . . R . . . .
. B R B o B R . .
 . . . . . . . .
  . . . . . . .
   . . . . . .
    . . . . .
mover: Red
decision: 2
"""
# Red c5 d6 g5, Blue b5 d5 f5, an empty tile e5. Tiles touched: b5 1, c5 2, d5 3 (c5 e5 d6),
# e5 3 (d5 f5 d6), f5 2, g5 1, d6 2. Before the move Blue's d5 and f5 see each other across
# the empty tile e5. Red moves d6-e5: then d5 traces {d5, d6} and reaches Red's c5 and e5 and
# no Blue; f5 traces {f5} and reaches Red's e5 and g5 and no Blue: both are removed. Blue's b5
# traces {b5} and reaches Red's c5 only: it stays.


def test_a_move_removes_two_cut_off_miners_and_not_one_that_reaches_only_one() -> None:
    state = mattock().from_text(REMOVAL)
    assert moves(state) == {"d6-e5", "pass"}
    after = state.play("d6-e5")
    assert after.to_text() == """\
    . . . . .
   . . . . . .
  . . . . . . .
 . . . o . . . .
. B R o R o R . .
 . . . . . . . .
  . . . . . . .
   . . . . . .
    . . . . .
mover: Blue
"""
    assert after.in_hand("Blue") == 2
    assert after.in_hand("Red") == 0
    assert not after.is_over


def test_miners_connected_through_an_empty_tile_are_not_removed() -> None:
    state = mattock().from_text(REMOVAL)
    after = state.play("pass")
    # d5 and f5 each reach two Red miners, but also each other across e5.
    assert cells(after) == cells(state)
    assert after.in_hand("Blue") == 0


def friend_position(d6: str, d7: str) -> str:
    # Blue d5 sits between Red c5 and e5 (Red a1 and Blue a9 far away); d6 and d7 as given.
    return f"""\
    B . . . .
   . . . . . .
  . . . {d7} . . .
 . . . {d6} . . . .
. . R B R . . . .
 . . . . . . . .
  . . . . . . .
   . . . . . .
    R . . . .
mover: Red
decision: 2
"""


@pytest.mark.parametrize("friend, alone", [
    # Blue d6 touches d5 (and Red e5): adjacent friends. Alone: d6 open.
    (("B", "."), (".", ".")),
    # The empty tile d6 leads from d5 to Blue d7. Alone: d7 open, d6 still an empty tile, so
    # d5 traces {d5, d6} and reaches Red c5 and e5.
    (("o", "B"), ("o", ".")),
], ids=["adjacent", "across-an-empty-tile"])
def test_a_miner_connected_to_a_friend_is_not_removed(friend: tuple[str, str],
                                                     alone: tuple[str, str]) -> None:
    game = mattock()
    state = game.from_text(friend_position(*friend))
    after = state.play("pass")
    assert cells(after) == cells(state)
    assert after.in_hand("Blue") == 0  # a9, d5 and the friend are all on the board
    # Without the friend, the same miner is removed: it reaches c5 and e5 and no Blue.
    lonely = game.from_text(friend_position(*alone))
    gone = lonely.play("pass")
    assert cells(gone)["d5"] == "o"
    assert cells(gone)["c5"] == "R" and cells(gone)["e5"] == "R"
    assert lonely.in_hand("Blue") == 1
    assert gone.in_hand("Blue") == 2


OWN_TRAPPED = """\
    B . . . .
   . . . . . .
  . . . . . . .
 . . . . . . . .
. . . B R B . . .
 . . . . . . . .
  . . . . . . .
   . . . . . .
    R . . . R
mover: Red
decision: 2
"""
# Red's e5 sits between Blue's d5 and f5 and reaches no Red miner.


def test_you_never_remove_your_own_miners() -> None:
    state = mattock().from_text(OWN_TRAPPED)
    after = state.play("pass")  # the end of Red's turn: Red's e5 stays
    assert cells(after)["e5"] == "R"
    assert after.in_hand("Red") == 0
    assert after.mover == "Blue"
    # Blue's turn: mine c5 (touches d5 only; Blue has no miner in hand), pass; now Red's e5
    # is removed at the end of Blue's turn, back to Red's hand.
    blue = after.play("c5")
    assert cells(blue)["c5"] == "o"
    done = blue.play("pass")
    assert cells(done)["e5"] == "o"
    assert cells(done)["d5"] == "B" and cells(done)["f5"] == "B"
    assert done.in_hand("Red") == 1
    assert done.in_hand("Blue") == 0


# The end -----------------------------------------------------------------------------------------

LOSS = """\
    B B . . .
   R . R . . .
  . . . . . . .
 . . . . . . . .
. . . . . . . . .
 . . . . . . . .
  . . . . . . .
   . . . . . .
    . . . . .
mover: Red
"""
# Blue a9 b9 in the corner; Red a8 c8 (one miner each in hand). Blue's tiles are a9 and b9
# (a8, c8 are Red miners: Blue's chain stops there). Their open neighbours: b8, which would
# touch a8 c8 a9 b9 (4 tiles), and c9 (touches b9 and c8). Red mines c9, its miner in hand
# comes onto it, and Blue is left with no site to mine.

LOSS_AFTER = """\
    B B R . .
   R . R . . .
  . . . . . . .
 . . . . . . . .
. . . . . . . . .
 . . . . . . . .
  . . . . . . .
   . . . . . .
    . . . . .
mover: Blue
"""


def test_the_player_who_cannot_mine_loses() -> None:
    game = mattock()
    state = game.from_text(LOSS)
    assert not state.is_over
    assert "c9" in moves(state) and "b8" not in moves(state)
    mined = state.play("c9")
    assert cells(mined)["c9"] == "R" and mined.in_hand("Red") == 0
    assert not mined.is_over and mined.mover == "Red"
    assert moves(mined) == {"pass"}
    over = mined.play("pass")
    assert over.is_over
    assert over.winner == "Red"
    assert over.mover is None
    assert over.legal_moves() == []
    assert over.outcome is not None and "cannot mine" in over.outcome.reason
    assert over.to_text() == LOSS_AFTER
    with pytest.raises(IllegalMoveError, match="over"):
        over.play("c7")


def test_from_text_of_a_lost_position_sets_the_winner() -> None:
    state = mattock().from_text(LOSS_AFTER)
    assert state.is_over
    assert state.winner == "Red"
    assert state.mover is None
    # Blue to move with its miners able to mine is not over.
    assert not mattock().from_text(LOSS.replace("mover: Red", "mover: Blue")).is_over


def test_the_loser_can_be_red() -> None:
    state = mattock().from_text("""\
    R R B . .
   B . B . . .
  . . . . . . .
 . . . . . . . .
. . . . . . . . .
 . . . . . . . .
  . . . . . . .
   . . . . . .
    . . . . .
mover: Red
""")
    assert state.is_over
    assert state.winner == "Blue"


STUCK_MID_TURN = """\
    R . B . .
   B . B . . .
  . . . . . . .
 . . . . . . . .
. . . . . . . . .
 . . . . . . . .
  . . . . . . .
   . . . . . .
    . . . . .
mover: Red
"""
# Red a9 with Blue a8 c8 c9 around. Red mines b9 (touches a9, c9 and c8; each of them then
# touches 2), and its miner in hand comes onto b9. Mid-turn, Red's tiles a9 b9 have a single
# open neighbour, b8, which would touch 4 tiles: Red could not mine again, but it has mined
# this turn; the turn goes on with the optional move.


def test_a_mid_turn_position_is_not_judged_as_a_loss() -> None:
    game = mattock()
    mined = game.from_text(STUCK_MID_TURN).play("b9")
    assert not mined.is_over
    assert mined.mover == "Red"
    assert moves(mined) == {"pass"}
    text = mined.to_text()
    assert "decision: 2" in text
    again = game.from_text(text)
    assert again.to_text() == text
    assert not again.is_over, f"from_text of a mid-turn position ended the game:\n{text}"
    assert again.mover == "Red"
    assert moves(again) == {"pass"}


# Freestyle setup ---------------------------------------------------------------------------------

def test_freestyle_setup() -> None:
    game = mattock(setup="freestyle")
    state = game.initial_state()
    assert state.to_text().endswith("mover: Red\nphase: setup\n")
    assert all(c == "." for c in cells(state).values())
    assert state.in_hand("Red") == 3 and state.in_hand("Blue") == 3
    assert moves(state) == set(game.sites)  # any open space at first
    placed: list[str] = []
    order = [("Red", "e5"), ("Blue", "c5"), ("Red", "a9"), ("Blue", "e1"), ("Red", "i5"),
             ("Blue", "g7")]
    for i, (who, site) in enumerate(order):
        assert state.mover == who
        assert "phase: setup" in state.to_text()
        # Legal: every open space not next to a placed tile.
        near = set(placed).union(*(neighbours(s) for s in placed))
        assert moves(state) == set(game.sites) - near
        for bad in sorted(set().union(*(neighbours(s) for s in placed)) - set(placed))[:3]:
            with pytest.raises(IllegalMoveError) as info:
                state.play(bad)
            assert str(info.value).startswith(f"{bad}: ")
            assert "next to" in str(info.value) or "adjacent" in str(info.value)
        if placed:
            with pytest.raises(IllegalMoveError):
                state.play(placed[0])
        state = state.play(site)
        placed.append(site)
        assert cells(state)[site] == who[0]
        assert state.in_hand(who) == 3 - (i // 2 + 1)
    # All placed: Blue placed last and takes the first turn of play.
    assert "phase" not in state.to_text()
    assert state.mover == "Blue"
    assert not state.is_over
    assert state.in_hand("Red") == 0 and state.in_hand("Blue") == 0
    # Blue mines next to its own miners only (no tiles between anyone yet).
    blue = {"c5", "e1", "g7"}
    assert moves(state) == set().union(*(neighbours(s) for s in blue)) - set(placed)
    after = state.play("c4").play("pass")
    assert after.mover == "Red"


def test_freestyle_refuses_a_placement_next_to_a_tile() -> None:
    state = mattock(setup="freestyle").initial_state().play("e5")
    with pytest.raises(IllegalMoveError, match=r"^d5: .*next to a placed tile"):
        state.play("d5")
    with pytest.raises(IllegalMoveError):
        state.play("e5")
    assert cells(state.play("c5"))["c5"] == "B"


def test_freestyle_on_the_full_board() -> None:
    game = mattock(short=False, setup="freestyle")
    state = game.initial_state()
    assert len(moves(state)) == 127
    picks = ["a1", "c1", "e1", "g1", "a3", "c3", "e3", "g3", "a5", "c5", "e5", "g5"]
    for i, site in enumerate(picks):
        assert state.mover == ("Red" if i % 2 == 0 else "Blue")
        state = state.play(site)
    assert state.mover == "Blue"
    assert "phase" not in state.to_text()


# Position text round trips -----------------------------------------------------------------------

def test_round_trip_mid_turn() -> None:
    game = mattock()
    mid = game.initial_state().play("c7")
    text = mid.to_text()
    assert text.endswith("mover: Red\ndecision: 2\n")
    back = game.from_text(text)
    assert back.to_text() == text
    assert back.mover == "Red"
    assert moves(back) == moves(mid)
    assert back.play("c8-c7").to_text() == mid.play("c8-c7").to_text()


def test_round_trip_during_setup() -> None:
    game = mattock(setup="freestyle")
    state = game.initial_state()
    for site in ("e5", "c5", "a9"):
        text = state.to_text()
        assert "phase: setup" in text
        back = game.from_text(text)
        assert back.to_text() == text
        assert back.mover == state.mover
        assert moves(back) == moves(state)
        assert back.in_hand("Red") == state.in_hand("Red")
        state = state.play(site)
    # Without the phase key, a position is in the play phase: the same board with Blue to
    # move asks Blue to mine, not to place.
    text = state.to_text()
    play = game.from_text(text.replace("phase: setup\n", ""))
    assert "phase" not in play.to_text()
    assert moves(play) != moves(state)


def test_bad_position_texts_are_game_errors() -> None:
    game = mattock()
    for text in (SHORT_START + "decision: 3\n", SHORT_START + "phase: nowhere\n",
                 SHORT_START.replace("R", "X", 1), SHORT_START + "in hand Red: -1\n",
                 "\n".join(SHORT_START.splitlines()[1:])):
        with pytest.raises(GameError):
            game.from_text(text)


# The REPL ----------------------------------------------------------------------------------------

def repl_session(script: str) -> Repl:
    repl = Repl(mattock(), stdin=io.StringIO(script), stdout=io.StringIO())
    repl.cmdloop()
    return repl


def test_repl_takes_a_whole_turn_on_one_line() -> None:
    repl = repl_session("c7 c8-c7\nf6 pass\nquit\n")
    out = repl.stdout.getvalue()  # type: ignore[attr-defined]
    assert "error" not in out and "Traceback" not in out
    expected = mattock().initial_state().play("c7").play("c8-c7").play("f6").play("pass")
    assert repl.state.to_text() == expected.to_text()
    assert repl.state.mover == "Red"


def test_repl_refuses_a_line_that_runs_past_the_turn() -> None:
    repl = repl_session("c7 c8-c7 f6\nquit\n")
    out = repl.stdout.getvalue()  # type: ignore[attr-defined]
    assert "error: f6" in out
    assert repl.state.to_text() == SHORT_START  # nothing was played


def test_repl_status_names_the_second_decision() -> None:
    repl = repl_session("c7\nquit\n")
    out = repl.stdout.getvalue()  # type: ignore[attr-defined]
    assert repl.state.to_text().endswith("decision: 2\n")
    # The status line after the mine must agree with the position text's `decision: 2`.
    status = [line for line in out.splitlines() if "to move" in line][-1]
    assert "decision 2" in status, status
