"""Kalah and Oware, rule by rule, from position texts (no other engine needed).

games/kalah.game and games/oware.game, built on the sowing ludemes of stdlib/sowing.py. A pile
is written as its count (`.` for none); Kalah's text has South's pits b1..g1 on the bottom line,
North's b3..g3 on the top line and the stores a2 (North's) and h2 (South's) on the middle line;
Oware's has North's houses a2..f2 above South's a1..f1 and the captured seeds as `score ROLE: N`
lines. Seeds go round counter-clockwise: along the bottom row to the right, back along the top
row to the left. tests/test_oracle_sowing.py compares both games with OpenSpiel.
"""

from __future__ import annotations

import functools
import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from interpreter import GameError, IllegalMoveError, PositionError, load_game

GAMES = Path(__file__).resolve().parent.parent / "games"


@functools.cache
def kalah(**options: Any) -> Any:
    return load_game(GAMES / "kalah.game", **options)


@functools.cache
def oware(**options: Any) -> Any:
    return load_game(GAMES / "oware.game", **options)


def pile(n: int) -> str:
    return str(n) if n else "."


def kalah_text(top: list[int], stores: tuple[int, int], bottom: list[int],
               mover: str = "South") -> str:
    """A Kalah position: North's pits b3..g3, the stores a2 (North's) and h2 (South's), South's
    pits b1..g1."""
    return "\n".join(["  " + " ".join(map(pile, top)),
                      f"{pile(stores[0])}  {pile(stores[1])}",
                      "  " + " ".join(map(pile, bottom)), f"mover: {mover}", ""])


def oware_text(top: list[int], bottom: list[int], mover: str = "South",
               south: int = 0, north: int = 0) -> str:
    """An Oware position: North's houses a2..f2, South's a1..f1, and the scores."""
    lines = [" ".join(map(pile, top)), " ".join(map(pile, bottom)), f"mover: {mover}"]
    lines += [f"score South: {south}"] if south else []
    lines += [f"score North: {north}"] if north else []
    return "\n".join([*lines, ""])


def counts(game: Any, state: Any) -> dict[str, int]:
    """The seeds on each site, read from the position text (the board lines list the sites
    in `game.sites` order)."""
    tokens = [t for line in state.to_text().splitlines() if ":" not in line
              for t in line.split()]
    assert len(tokens) == len(game.sites), state.to_text()
    return {name: 0 if t == "." else int(t) for name, t in zip(game.sites, tokens, strict=True)}


def scores(game: Any, state: Any) -> dict[str, int]:
    """Each role's score, from the `score ROLE: N` lines of the position text (0 if none)."""
    out = dict.fromkeys(game.players, 0)
    for line in state.to_text().splitlines():
        found = re.fullmatch(r"score (\w+): (-?\d+)", line)
        if found:
            out[found[1]] = int(found[2])
    return out


def row(game: Any, state: Any, sites: str, number: int) -> list[int]:
    """The counts on the sites with the given letters in row `number`, left to right."""
    seeds = counts(game, state)
    return [seeds[f"{letter}{number}"] for letter in sites]


KALAH_TOP, KALAH_BOTTOM = "bcdefg", "bcdefg"


def kalah_rows(state: Any) -> tuple[list[int], tuple[int, int], list[int]]:
    """(North's pits b3..g3, the stores (a2, h2), South's pits b1..g1)."""
    seeds = counts(kalah(), state)
    return (row(kalah(), state, KALAH_TOP, 3), (seeds["a2"], seeds["h2"]),
            row(kalah(), state, KALAH_BOTTOM, 1))


def oware_rows(state: Any) -> tuple[list[int], list[int]]:
    """(North's houses a2..f2, South's a1..f1)."""
    return row(oware(), state, "abcdef", 2), row(oware(), state, "abcdef", 1)


# Kalah ------------------------------------------------------------------------------------------


def test_kalah_start() -> None:
    state = kalah().initial_state()
    assert kalah_rows(state) == ([4] * 6, (0, 0), [4] * 6)
    assert state.mover == "South"
    assert [str(m) for m in state.legal_moves()] == ["b1", "c1", "d1", "e1", "f1", "g1"]
    assert kalah_rows(kalah(seeds=6).initial_state()) == ([6] * 6, (0, 0), [6] * 6)


def test_kalah_sowing_drops_one_seed_in_each_following_pit() -> None:
    after = kalah().initial_state().play("c1")
    assert kalah_rows(after) == ([4] * 6, (0, 0), [4, 0, 5, 5, 5, 5])
    assert after.mover == "North"
    # North sows the other way round the board: from g3 to the left.
    after = after.play("g3")
    assert kalah_rows(after) == ([4, 5, 5, 5, 5, 0], (0, 0), [4, 0, 5, 5, 5, 5])
    assert after.mover == "South"


def test_kalah_the_last_seed_in_the_own_store_moves_again() -> None:
    after = kalah().initial_state().play("d1")  # e1 f1 g1 h2
    assert kalah_rows(after) == ([4] * 6, (0, 1), [4, 4, 0, 5, 5, 5])
    assert after.mover == "South"
    after = after.play("c1").play("e3")  # c1 lands in g1; North's e3: d3 c3 b3 a2
    assert kalah_rows(after) == ([5, 5, 5, 0, 4, 4], (1, 1), [4, 0, 1, 6, 6, 6])
    assert after.mover == "North"


def test_kalah_the_opponents_store_is_passed_over() -> None:
    # South's g1 with 8: h2, g3 f3 e3 d3 c3 b3, (not a2), b1.
    state = kalah().from_text(kalah_text([1] * 6, (5, 0), [2, 1, 1, 1, 1, 8]))
    after = state.play("g1")
    assert kalah_rows(after) == ([2] * 6, (5, 1), [3, 1, 1, 1, 1, 0])
    assert after.mover == "North"
    # North's c3 with 10: b3, a2, b1 c1 d1 e1 f1 g1, (not h2), g3, f3.
    state = kalah().from_text(kalah_text([1, 10, 1, 1, 1, 1], (0, 5), [1] * 6, "North"))
    after = state.play("c3")
    assert kalah_rows(after) == ([2, 0, 1, 1, 2, 2], (1, 5), [2] * 6)
    assert after.mover == "South"


def test_kalah_a_lap_sows_into_the_pit_it_came_from() -> None:
    # 13 seeds from b1: c1..g1, h2, g3..b3, (not a2), b1 itself, emptied: a lone seed facing
    # b3's two, so all three go to the store.
    state = kalah().from_text(kalah_text([1] * 6, (0, 0), [13, 0, 0, 0, 0, 0]))
    after = state.play("b1")
    assert kalah_rows(after) == ([0, 2, 2, 2, 2, 2], (0, 1 + 3), [0, 1, 1, 1, 1, 1])
    assert after.mover == "North"
    # 19 seeds from b1: the 13 of a lap, then c1..g1 and h2 again: the last in the store.
    state = kalah().from_text(kalah_text([1] * 6, (0, 0), [19, 0, 0, 0, 0, 0]))
    after = state.play("b1")
    assert kalah_rows(after) == ([2] * 6, (0, 2), [1, 2, 2, 2, 2, 2])
    assert after.mover == "South"


def test_kalah_capture() -> None:
    # c1 with 2: d1, e1 (empty): the seed and e3's 4 facing it go to South's store.
    state = kalah().from_text(kalah_text([4] * 6, (0, 0), [0, 2, 0, 0, 3, 0]))
    after = state.play("c1")
    assert kalah_rows(after) == ([4, 4, 4, 0, 4, 4], (0, 5), [0, 0, 1, 0, 3, 0])
    assert after.mover == "North"
    # North's b3 with 1 into its store a2 (moves again), then g3 with 3: f3 e3 d3 (empty),
    # taking d1's 2 as well.
    state = kalah().from_text(kalah_text([1, 0, 0, 0, 0, 3], (0, 0), [1, 1, 2, 1, 1, 1],
                                         "North"))
    after = state.play("b3")
    assert kalah_rows(after) == ([0, 0, 0, 0, 0, 3], (1, 0), [1, 1, 2, 1, 1, 1])
    assert after.mover == "North"
    after = after.play("g3")
    assert kalah_rows(after) == ([0, 0, 0, 1, 1, 0], (1 + 3, 0), [1, 1, 0, 1, 1, 1])


def test_kalah_no_capture_without_seeds_facing_or_in_the_opponents_row() -> None:
    # e3 empty: the lone seed stays on e1.
    state = kalah().from_text(kalah_text([4, 4, 4, 0, 4, 4], (0, 0), [0, 2, 0, 0, 3, 0]))
    assert kalah_rows(state.play("c1")) == ([4, 4, 4, 0, 4, 4], (0, 0), [0, 0, 1, 1, 3, 0])
    # The last seed in an empty pit of North's: it stays.
    state = kalah().from_text(kalah_text([4, 4, 4, 4, 4, 0], (0, 0), [4, 4, 4, 4, 4, 2]))
    assert kalah_rows(state.play("g1")) == ([4, 4, 4, 4, 4, 1], (0, 1), [4, 4, 4, 4, 4, 0])
    # The last seed in an own pit that was not empty.
    state = kalah().from_text(kalah_text([4] * 6, (0, 0), [0, 2, 0, 1, 3, 0]))
    assert kalah_rows(state.play("c1")) == ([4] * 6, (0, 0), [0, 0, 1, 2, 3, 0])


def test_kalah_the_end_counts_the_seeds_left_in_each_row() -> None:
    """South's last seed goes to its store (23 against 20 in the stores), but the row is empty:
    the game ends and North's 5 seeds left count for North, 25 to 23."""
    state = kalah().from_text(kalah_text([1, 1, 1, 1, 1, 0], (20, 22), [0, 0, 0, 0, 0, 1]))
    assert not state.is_over
    after = state.play("g1")
    assert kalah_rows(after) == ([1, 1, 1, 1, 1, 0], (20, 23), [0] * 6)
    assert after.is_over and after.winner == "North"
    assert after.mover is None and after.legal_moves() == []
    with pytest.raises(IllegalMoveError):
        after.play("b3")


def test_kalah_a_capture_that_empties_the_opponents_row_ends_the_game() -> None:
    """South's b1 lands on the empty c1 facing North's only seeds: North's row is empty, and
    South's 5 left on d1 count for South, 20 + 4 + 5 = 29 against 19."""
    state = kalah().from_text(kalah_text([0, 3, 0, 0, 0, 0], (19, 20), [1, 0, 5, 0, 0, 0]))
    after = state.play("b1")
    assert kalah_rows(after) == ([0] * 6, (19, 24), [0, 0, 5, 0, 0, 0])
    assert after.is_over and after.winner == "South"


def test_kalah_a_draw() -> None:
    state = kalah().from_text(kalah_text([1, 1, 1, 1, 0, 0], (20, 23), [0, 0, 0, 0, 0, 1]))
    after = state.play("g1")
    assert after.is_over and after.winner is None
    # A position text with a row already empty is over as it is read.
    assert kalah().from_text(after.to_text()).is_over


def test_kalah_position_text_round_trip_with_big_piles() -> None:
    text = kalah_text([12, 0, 0, 0, 0, 1], (25, 3), [0, 0, 1, 0, 13, 0], "North")
    state = kalah().from_text(text)
    assert kalah_rows(state) == ([12, 0, 0, 0, 0, 1], (25, 3), [0, 0, 1, 0, 13, 0])
    assert kalah().from_text(state.to_text()).to_text() == state.to_text()
    assert state.to_text().splitlines()[0].split() == ["12", ".", ".", ".", ".", "1"]
    # 12 from b3: a2, b1..g1, (not h2), g3..c3; the last on the empty c3, facing c1's seed.
    after = state.play("b3")
    assert kalah_rows(after) == ([0, 0, 1, 1, 1, 2], (25 + 1 + 2, 3), [1, 0, 2, 1, 14, 1])


# Oware ------------------------------------------------------------------------------------------


def test_oware_start() -> None:
    game = oware()
    assert game.options == {"seeds": 4, "grandslam": "no capture"}
    state = game.initial_state()
    assert oware_rows(state) == ([4] * 6, [4] * 6)
    assert scores(game, state) == {"South": 0, "North": 0}
    assert [str(m) for m in state.legal_moves()] == ["a1", "b1", "c1", "d1", "e1", "f1"]
    after = state.play("e1")  # f1, f2, e2, d2
    assert oware_rows(after) == ([4, 4, 4, 5, 5, 5], [4, 4, 4, 4, 0, 5])
    after = after.play("b2")  # a2, a1, b1, c1
    assert oware_rows(after) == ([5, 0, 4, 5, 5, 5], [5, 5, 5, 4, 0, 5])


# South's d1 (5 seeds) sows e1, f1, f2, e2, d2: the last seed lands on d2.
CAPTURE_TOP = [5, 0, 0, 1, 2, 1]  # a2..f2: d2 1 -> 2, e2 2 -> 3, f2 1 -> 2
CAPTURE_BOTTOM = [0, 0, 0, 5, 1, 1]  # a1..f1: e1 1 -> 2, f1 1 -> 2


def test_oware_capture_goes_back_while_2_or_3_and_stops_at_the_own_row() -> None:
    """d2 (2), e2 (3) and f2 (2) are captured; f1 holds 2 too but is South's own."""
    game = oware()
    after = game.from_text(oware_text(CAPTURE_TOP, CAPTURE_BOTTOM)).play("d1")
    assert oware_rows(after) == ([5, 0, 0, 0, 0, 0], [0, 0, 0, 0, 2, 2])
    assert scores(game, after) == {"South": 7, "North": 0}
    assert after.mover == "North"


def test_oware_capture_stops_at_the_first_other_count() -> None:
    game = oware()
    # e2 3 -> 4: only d2 is taken, f2's 2 beyond it stays.
    after = game.from_text(oware_text([5, 0, 0, 1, 3, 1], CAPTURE_BOTTOM)).play("d1")
    assert oware_rows(after) == ([5, 0, 0, 0, 4, 2], [0, 0, 0, 0, 2, 2])
    assert scores(game, after)["South"] == 2
    # d2 2 -> 3 is taken, e2 0 -> 1 stops the run.
    after = game.from_text(oware_text([5, 0, 0, 2, 0, 2], CAPTURE_BOTTOM)).play("d1")
    assert oware_rows(after) == ([5, 0, 0, 0, 1, 3], [0, 0, 0, 0, 2, 2])
    assert scores(game, after)["South"] == 3


def test_oware_no_capture_unless_the_last_house_holds_2_or_3() -> None:
    game = oware()
    # d2 0 -> 1: nothing, though e2 and f2 now hold 3 and 2.
    after = game.from_text(oware_text([5, 0, 0, 0, 2, 1], CAPTURE_BOTTOM)).play("d1")
    assert oware_rows(after) == ([5, 0, 0, 1, 3, 2], [0, 0, 0, 0, 2, 2])
    assert scores(game, after)["South"] == 0
    # d2 3 -> 4: nothing.
    after = game.from_text(oware_text([5, 0, 0, 3, 2, 1], CAPTURE_BOTTOM)).play("d1")
    assert scores(game, after)["South"] == 0
    # The last seed in South's own row (c1 1 -> 2): nothing.
    state = game.from_text(oware_text([4] * 6, [2, 1, 1, 0, 0, 0]))
    after = state.play("a1")  # b1, c1
    assert oware_rows(after) == ([4] * 6, [0, 2, 2, 0, 0, 0])
    assert scores(game, after) == {"South": 0, "North": 0}


def test_oware_north_captures_in_souths_row() -> None:
    """North's b2 with 4 sows a2, a1, b1, c1: c1 (3), b1 (2) and a1 (2) are taken."""
    game = oware()
    state = game.from_text(oware_text([0, 4, 1, 1, 1, 1], [1, 1, 2, 0, 0, 6], "North"))
    after = state.play("b2")
    assert oware_rows(after) == ([1, 0, 1, 1, 1, 1], [0, 0, 0, 0, 0, 6])
    assert scores(game, after) == {"South": 0, "North": 7}


GRAND_SLAM = oware_text([0, 0, 0, 0, 2, 1], [1, 0, 0, 0, 0, 2], south=19, north=23)


def test_oware_a_grand_slam_captures_nothing() -> None:
    """f1's two seeds make f2 2 and e2 3: all North has, so nothing is captured."""
    game = oware()
    after = game.from_text(GRAND_SLAM).play("f1")
    assert oware_rows(after) == ([0, 0, 0, 0, 3, 2], [1, 0, 0, 0, 0, 0])
    assert scores(game, after) == {"South": 19, "North": 23}
    # With a seed left elsewhere in North's row it is no grand slam: both houses are taken.
    state = game.from_text(GRAND_SLAM.replace(". . . . 2 1", "1 . . . 2 1")
                           .replace("North: 23", "North: 22"))
    after = state.play("f1")
    assert oware_rows(after) == ([1, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0])
    assert scores(game, after) == {"South": 24, "North": 22}


def test_oware_grandslam_options() -> None:
    """"capture": the grand slam takes the 5 seeds and North, left with none, cannot move:
    South 24 + a1's seed = 25 against 23. "forbidden": the move is not legal."""
    game = oware(grandslam="capture")
    after = game.from_text(GRAND_SLAM).play("f1")
    assert oware_rows(after) == ([0] * 6, [1, 0, 0, 0, 0, 0])
    assert scores(game, after) == {"South": 24, "North": 23}
    assert after.is_over and after.winner == "South"
    game = oware(grandslam="forbidden")
    state = game.from_text(GRAND_SLAM)
    assert [str(m) for m in state.legal_moves()] == ["a1"]
    with pytest.raises(IllegalMoveError, match=r"^f1: .*grand slam"):
        state.play("f1")


def test_oware_the_house_sown_from_is_passed_over() -> None:
    """12 seeds from a1: b1..f1, f2..a2 (11 houses), not a1, then b1 again."""
    state = oware().from_text(oware_text([1] * 6, [12, 0, 0, 0, 0, 0]))
    after = state.play("a1")
    assert oware_rows(after) == ([2] * 6, [0, 2, 1, 1, 1, 1])
    # 23 seeds: two laps of 11, the 23rd on b1 (0 + 3).
    state = oware().from_text(oware_text([1] * 6, [23, 0, 0, 0, 0, 0]))
    assert oware_rows(state.play("a1")) == ([3] * 6, [0, 3, 2, 2, 2, 2])


def test_oware_must_feed() -> None:
    """North has no seeds: South must sow into North's row, so a1's single seed may not move;
    the refusal says why."""
    state = oware().from_text(oware_text([0] * 6, [1, 0, 0, 0, 3, 1], south=20, north=23))
    assert [str(m) for m in state.legal_moves()] == ["e1", "f1"]
    with pytest.raises(IllegalMoveError) as refused:
        state.play("a1")
    assert str(refused.value) == "a1: the opponent must be given seeds"
    assert isinstance(refused.value, GameError)


def test_oware_unable_to_feed_ends_the_game() -> None:
    """North has no seeds and none of South's reaches North's row: the game is over, and each
    side takes the seeds in its own row: South 22 + 3 = 25 against North 23."""
    state = oware().from_text(oware_text([0] * 6, [1, 1, 1, 0, 0, 0], south=22, north=23))
    assert state.is_over and state.winner == "South"
    assert state.legal_moves() == []


def test_oware_more_than_half_wins_at_once() -> None:
    """South's capture of 2 takes it to 25 of 48: it wins, whatever is left on the board."""
    state = oware().from_text(oware_text([1, 1, 1, 1, 1, 1], [4, 4, 1, 0, 0, 1],
                                         south=23, north=9))
    after = state.play("f1")  # f2 1 -> 2
    assert scores(oware(), after)["South"] == 25
    assert after.is_over and after.winner == "South"


# South f1 -> f2, North a2 -> a1 (feeding South), and the two seeds chase each other round
# until, after 12 moves, the start position is back with South to move.
CYCLE_START = oware_text([1, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 1], south=22, north=24)
CYCLE = "f1 a2 a1 f2 b1 e2 c1 d2 d1 c2 e1 b2".split()


def test_oware_a_position_coming_back_ends_the_game() -> None:
    """The 12th move brings back the position the game started from, South to move: the game
    ends and each side takes its own row, South 22 + 1 against North 24 + 1."""
    state = oware().from_text(CYCLE_START)
    for move in CYCLE[:-1]:
        state = state.play(move)
        assert not state.is_over
    end = state.play(CYCLE[-1])
    start = oware().from_text(CYCLE_START)
    assert counts(oware(), end) == counts(oware(), start)
    assert scores(oware(), end) == scores(oware(), start)
    assert end.is_over and end.winner == "North"
    assert end.legal_moves() == []


def test_oware_a_position_read_from_text_starts_a_new_history() -> None:
    """Read one move before the repetition, the position has no past: the same move does not
    end the game, and neither does the position read again."""
    state = oware().from_text(CYCLE_START)
    for move in CYCLE[:-1]:
        state = state.play(move)
    fresh = oware().from_text(state.to_text())
    after = fresh.play(CYCLE[-1])
    assert not after.is_over
    assert not oware().from_text(after.to_text()).is_over


# From this position a line of 21 moves brings back the same board with North to move (found
# by a search over the positions with these four seeds): not a repetition, since the player to
# move differs (situational:true). The line is long because seeds only go forward round the
# board: a board can come back with the other player to move only after an odd number of
# moves whose sown seeds add up to whole laps.
OTHER_MOVER = oware_text([0, 0, 0, 0, 0, 1], [2, 0, 1, 0, 0, 0], south=22, north=22)
OTHER_MOVER_LINE = "a1 f2 c1 e2 d1 d2 e1 f2 f1 f2 b1 e2 c1 d2 d1 c2 e1 b2 f1 a2 b1".split()


def test_oware_the_same_board_with_the_other_player_to_move_is_no_repetition() -> None:
    state = oware().from_text(OTHER_MOVER)
    for move in OTHER_MOVER_LINE:
        state = state.play(move)
        assert not state.is_over, move
    assert state.to_text() == OTHER_MOVER.replace("mover: South", "mover: North")


def test_oware_position_text_round_trip_with_big_piles() -> None:
    text = oware_text([12, 0, 0, 0, 0, 1], [0, 0, 1, 0, 13, 0], "North", south=10, north=11)
    state = oware().from_text(text)
    assert state.to_text() == text
    assert oware_rows(state) == ([12, 0, 0, 0, 0, 1], [0, 0, 1, 0, 13, 0])
    assert scores(oware(), state) == {"South": 10, "North": 11}
    # 12 from a2 goes round once, not into a2, and the 12th seed on a1 makes 2: captured.
    after = state.play("a2")
    assert oware_rows(after) == ([0, 1, 1, 1, 1, 2], [0, 1, 2, 1, 14, 1])
    assert scores(oware(), after) == {"South": 10, "North": 13}


@pytest.mark.parametrize("options", [{"seeds": 0}, {"seeds": 11}, {"grandslam": "sometimes"}])
def test_options_out_of_range_are_refused(options: dict[str, Any]) -> None:
    with pytest.raises(GameError, match=next(iter(options))):
        oware(**options)


@pytest.mark.parametrize("game", ["kalah", "oware"])
@pytest.mark.parametrize("bad", ["300", "256", "-1", "1.5", "x"])
def test_a_malformed_pile_is_a_position_error(game: str, bad: str) -> None:
    """A pile that is no count a site can hold (MAX_PILE is 255) is refused with a
    PositionError that names the text and the site."""
    if game == "kalah":
        text, where = kalah_text([4] * 6, (0, 0), [4] * 6), "b3"
    else:
        text, where = oware_text([4] * 6, [4] * 6), "a2"
    text = text.replace("4", bad, 1)
    with pytest.raises(PositionError) as refused:
        (kalah() if game == "kalah" else oware()).from_text(text)
    message = str(refused.value)
    assert f"'{bad}'" in message and where in message, message


def test_the_largest_pile_reads_back() -> None:
    text = oware_text([255, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0])
    assert oware().from_text(text).to_text() == text


# Properties over random playouts ----------------------------------------------------------------


@given(seeds=st.integers(1, 6), choices=st.randoms(use_true_random=False))
def test_kalah_seeds_are_conserved(seeds: int, choices: random.Random) -> None:
    """Along a random game the pits and stores always hold all 12 x seeds, none negative; at
    the end the winner is the side with more seeds in its row and store."""
    game = kalah(seeds=seeds)
    state = game.initial_state()
    while not state.is_over:
        state = state.play(choices.choice(state.legal_moves()))
        board = counts(game, state)
        assert sum(board.values()) == 12 * seeds and min(board.values()) >= 0, state.to_text()
    board = counts(game, state)
    south = sum(board[f"{c}1"] for c in KALAH_BOTTOM) + board["h2"]
    north = sum(board[f"{c}3"] for c in KALAH_TOP) + board["a2"]
    assert state.winner == ("South" if south > north else "North" if north > south else None)


@given(seeds=st.integers(1, 6), grandslam=st.sampled_from(["no capture", "capture", "forbidden"]),
       choices=st.randoms(use_true_random=False))
def test_oware_seeds_are_conserved(seeds: int, grandslam: str, choices: random.Random) -> None:
    """Along a random game the houses and the two scores always add up to 12 x seeds, none
    negative; at the end the winner is the side with more seeds captured plus left in its
    row."""
    game = oware(seeds=seeds, grandslam=grandslam)
    state = game.initial_state()
    while not state.is_over:
        state = state.play(choices.choice(state.legal_moves()))
        board, score = counts(game, state), scores(game, state)
        assert sum(board.values()) + sum(score.values()) == 12 * seeds, state.to_text()
        assert min(board.values()) >= 0 and min(score.values()) >= 0, state.to_text()
    board, score = counts(game, state), scores(game, state)
    south = score["South"] + sum(board[f"{c}1"] for c in "abcdef")
    north = score["North"] + sum(board[f"{c}2"] for c in "abcdef")
    assert state.winner == ("South" if south > north else "North" if north > south else None)
