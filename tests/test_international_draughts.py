"""International draughts (games/international-draughts.game), rule by rule from positions, and
its perft counts from the start position.

Perft counts whole turns: the decisions of one capture sequence (`c3-e5`, then `e5-c7`) make a
single move of the count. The published counts are Aart Bik's, for his engine BikDam ("BikDam:
international checkers", aartbik.blogspot.com, perft 1-11 from the start position, duplicate
captures removed); Rein Halbersma gives the same numbers on damforum.nl ("Perft for all
recognized draughts variants", duplicates not removed: none arise this early). By hand: White
has 9 first moves (five men on the fourth row, each with two forward diagonals, but the man on
the j-file only one); Black's nine replies do not interact with them (the two armies are two
rows apart), so depth 2 is 9 * 9 = 81; from depth 3 on, men meet and captures (compulsory)
prune the tree.
"""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest

from interpreter import IllegalMoveError, load_game, parse_game

GAMES = Path(__file__).resolve().parent.parent / "games"


@cache
def draughts():
    return load_game(GAMES / "international-draughts.game")


def position(pieces: dict[str, str], mover: str = "White", extra: str = "") -> str:
    """Position text with the given pieces (site -> symbol) on an empty 10x10 board."""
    rows = [" ".join(pieces.get(f"{c}{r}", ".") for c in "abcdefghij")
            for r in range(10, 0, -1)]
    return "\n".join(rows) + f"\nmover: {mover}\n" + extra


def moves(state) -> list[str]:
    return sorted(str(m) for m in state.legal_moves())


def board(state) -> str:
    """The board rows of the position text."""
    return "\n".join(state.to_text().splitlines()[:10])


def perft(state, depth: int) -> int:
    """Whole turns: a decision that leaves the same player to move is part of the turn."""
    if depth == 0:
        return 1
    if state.is_over:
        return 0
    total = 0
    for move in state.legal_moves():
        after = state.play(move)
        same_turn = after.mover == state.mover and not after.is_over
        total += perft(after, depth if same_turn else depth - 1)
    return total


@pytest.mark.parametrize(("depth", "expected"), [(1, 9), (2, 81), (3, 658), (4, 4265), (5, 27117)])
def test_perft(depth: int, expected: int) -> None:
    assert perft(draughts().initial_state(), depth) == expected


@pytest.mark.slow
@pytest.mark.parametrize(("depth", "expected"), [(6, 167140)])
def test_perft_deeper(depth: int, expected: int) -> None:
    assert perft(draughts().initial_state(), depth) == expected


def test_start_position_and_first_moves() -> None:
    state = draughts().initial_state()
    text = state.to_text()
    assert text.splitlines()[0] == ". b . b . b . b . b"
    assert text.splitlines()[9] == "w . w . w . w . w ."
    assert state.mover == "White"
    assert moves(state) == ["b4-a5", "b4-c5", "d4-c5", "d4-e5", "f4-e5", "f4-g5", "h4-g5",
                            "h4-i5", "j4-i5"]


def test_men_move_forward_only_but_capture_backwards() -> None:
    state = draughts().from_text(position({"e5": "w", "j10": "b"}))
    assert moves(state) == ["e5-d6", "e5-f6"]
    state = draughts().from_text(position({"e5": "w", "d4": "b", "j10": "b"}))
    assert moves(state) == ["e5-c3"]  # backwards, and compulsory


def test_capture_is_compulsory() -> None:
    state = draughts().from_text(position({"c3": "w", "h2": "w", "d4": "b", "j10": "b"}))
    assert moves(state) == ["c3-e5"]
    with pytest.raises(IllegalMoveError):
        state.play("h2-g3")


def test_majority_rule_the_longest_sequence_must_be_taken() -> None:
    # One man on d4 to take at once, or two (b4 then b6) by the other way.
    state = draughts().from_text(position({"c3": "w", "d4": "b", "b4": "b", "b6": "b",
                                           "j10": "b"}))
    assert moves(state) == ["c3-a5"]
    with pytest.raises(IllegalMoveError, match="the most pieces must be taken"):
        state.play("c3-e5")
    state = state.play("c3-a5")
    assert state.mover == "White"  # the sequence goes on
    assert moves(state) == ["a5-c7"]
    state = state.play("a5-c7")
    assert state.mover == "Black"
    assert board(state).count("b") == 2  # d4 and j10 are left


def test_majority_counts_kings_as_men() -> None:
    # Taking a king alone or two men: the two men.
    state = draughts().from_text(position({"c3": "w", "d4": "B", "b4": "b", "b6": "b",
                                           "j10": "b"}))
    assert moves(state) == ["c3-a5"]


def test_turkish_strike_pieces_come_off_when_the_sequence_ends() -> None:
    # A square of four men round c5: the man on c3 takes all four either way round, back to
    # c3. Until the last jump they stay on the board (x), so none is jumped twice.
    start = draughts().from_text(position({"c3": "w", "d4": "b", "d6": "b", "b6": "b",
                                           "b4": "b", "j10": "b"}))
    assert moves(start) == ["c3-a5", "c3-e5"]
    state = start.play("c3-e5")
    rows = state.to_text().splitlines()
    assert rows[6] == ". b . x . . . . . ."  # d4 taken, still standing
    assert state.mover == "White"
    # The position text in the middle of a sequence round-trips, and plays the same.
    again = draughts().from_text(state.to_text())
    assert again.to_text() == state.to_text()
    assert moves(again) == moves(state) == ["e5-c7"]
    state = state.play("e5-c7").play("c7-a5")
    assert board(state).count("x") == 3
    assert moves(state) == ["a5-c3"]  # back to c3, beside d4: taken, it cannot be jumped again
    state = state.play("a5-c3")
    assert state.mover == "Black"
    assert board(state).count("x") == 0
    assert board(state).count("b") == 1  # only j10 is left


def test_a_taken_piece_still_blocks() -> None:
    # In the middle of a sequence (a king on e5 has just taken d4, still standing as x), the
    # man beyond the x on the king's diagonal cannot be reached; the man on g7 can.
    text = position({"e5": "W", "d4": "x", "b2": "b", "g7": "b", "j10": "b"},
                    extra="decision: 2\nlast to: e5\nlast from: c3\n")
    state = draughts().from_text(text)
    assert moves(state) == ["e5-h8", "e5-i9"]
    done = draughts().from_text(position({"e5": "W", "b2": "b", "g7": "b", "j10": "b"}))
    assert "e5-a1" in moves(done)  # with d4 empty, b2 is within reach


def test_flying_king_moves_and_captures_at_a_distance() -> None:
    state = draughts().from_text(position({"a1": "W", "j10": "b", "a9": "b"}))
    assert moves(state) == ["a1-b2", "a1-c3", "a1-d4", "a1-e5", "a1-f6", "a1-g7", "a1-h8",
                            "a1-i9"]
    state = draughts().from_text(position({"a1": "W", "d4": "b", "a9": "b"}))
    assert moves(state) == ["a1-e5", "a1-f6", "a1-g7", "a1-h8", "a1-i9", "a1-j10"]
    # With a second man on c7, only the landing from which the king goes on to take it.
    state = draughts().from_text(position({"a1": "W", "d4": "b", "c7": "b", "a9": "b"}))
    assert moves(state) == ["a1-e5"]
    state = state.play("a1-e5")
    assert moves(state) == ["e5-b8"]
    assert board(state.play("e5-b8")).count("b") == 1
    # A second man on h8, on the same diagonal: every landing before it goes on taking it.
    state = draughts().from_text(position({"a1": "W", "d4": "b", "h8": "b", "a9": "b"}))
    assert moves(state) == ["a1-e5", "a1-f6", "a1-g7"]
    assert moves(state.play("a1-e5")) == ["e5-i9", "e5-j10"]


def test_a_man_is_crowned_only_when_its_move_ends_on_the_far_row() -> None:
    state = draughts().from_text(position({"d8": "w", "e9": "b", "a1": "b"}))
    assert "W" in state.play("d8-f10").to_text().splitlines()[0]
    # Passing the far row in the middle of a sequence: still a man at its end.
    state = draughts().from_text(position({"d8": "w", "e9": "b", "g9": "b", "a1": "b"}))
    state = state.play("d8-f10")
    assert state.to_text().splitlines()[0] == ". . . . . w . . . ."
    state = state.play("f10-h8")
    assert state.to_text().splitlines()[2] == ". . . . . . . w . ."
    # A simple move onto the far row crowns.
    state = draughts().from_text(position({"e9": "w", "a1": "b"}))
    assert state.play("e9-d10").to_text().splitlines()[0] == ". . . W . . . . . ."


def test_the_player_who_cannot_move_loses() -> None:
    state = draughts().from_text(position({"c3": "w", "d4": "b"}, mover="White"))
    after = state.play("c3-e5")
    assert after.is_over and after.winner == "White"  # Black has no piece left
    blocked = draughts().from_text(position({"a1": "w", "b2": "b", "c3": "b", "j10": "b"}))
    assert blocked.is_over and blocked.winner == "Black"  # White is blocked


def test_draw_after_25_king_moves_each_without_capture() -> None:
    text = position({"a1": "W", "j10": "B"}, extra="halfmove: 49\n")
    state = draughts().from_text(text)
    assert not state.is_over
    after = state.play("a1-b2")
    assert after.is_over and after.winner is None
    # A man's move starts the count again.
    text = position({"a1": "W", "c1": "w", "j10": "B"}, extra="halfmove: 49\n")
    assert not draughts().from_text(text).play("c1-d2").is_over


def test_draw_by_threefold_repetition() -> None:
    state = draughts().from_text(position({"a1": "W", "j2": "B"}))
    for _ in range(2):
        for move in ("a1-b2", "j2-i1", "b2-a1", "i1-j2"):
            assert not state.is_over
            state = state.play(move)
    assert state.is_over and state.winner is None


def test_random_games_round_trip_and_make_unmake_in_place() -> None:
    """At every position of seeded random games: the position text reads back the same, with
    the same moves; each move made in place and unmade leaves the position as it was."""
    game = draughts()
    for seed in (3, 7):
        rng = random.Random(seed)
        state = game.initial_state()
        while not state.is_over:
            text, listed = state.to_text(), moves(state)
            assert game.from_text(text).to_text() == text
            assert moves(game.from_text(text)) == listed
            for move in state.legal_moves():
                game.unmake(state, game.make(state, move))
                assert state.to_text() == text
            assert moves(state) == listed
            state = state.play(rng.choice(sorted(state.legal_moves(), key=str)))


def variant(old: str, new: str):
    """The game with its capture rule's text changed (a one-line edit of the file)."""
    text = (GAMES / "international-draughts.game").read_text(encoding="utf-8")
    assert old in text
    return parse_game(text.replace(old, new), source="variant.game")


def test_rank_prefers_the_most_valuable_sequence() -> None:
    # Two ways to take two pieces: two men (via b4), or a man and a king (via d4).
    pieces = {"c3": "w", "b4": "b", "b6": "b", "d4": "B", "f6": "b", "j10": "b"}
    assert moves(draughts().from_text(position(pieces))) == ["c3-a5", "c3-e5"]
    italian = variant('(capture-sequence ("Jumps") taken:"Taken")',
                      '(capture-sequence ("Jumps") taken:"Taken" rank:{"pieces" "King"})')
    assert moves(italian.from_text(position(pieces))) == ["c3-e5"]


def test_without_the_majority_rule_any_sequence_but_played_to_its_end() -> None:
    free = variant('(capture-sequence ("Jumps") taken:"Taken")',
                   '(capture-sequence ("Jumps") taken:"Taken" most:false)')
    state = free.from_text(position({"c3": "w", "d4": "b", "b4": "b", "b6": "b", "j10": "b"}))
    assert moves(state) == ["c3-a5", "c3-e5"]
    state = state.play("c3-a5")
    assert state.mover == "White" and moves(state) == ["a5-c7"]  # it must go on
