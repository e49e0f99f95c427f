"""Nine Men's Morris (games/ninemensmorris.game) rule by rule from position texts: placing while
men are in hand, stepping along the lines, flying with three men, a mill (formed by placing,
moving or flying) letting the mover take an enemy man, the protection of men in a mill unless
all are, taken men gone for good (reuse:false), the two ends (down to two men, unable to move)
and OpenSpiel's draw after 200 turns; then a property over random games checked against an
independent reading of the rules (`expected_moves`, `mills_through`).

The board is the 24 points of `(morris 3)` on a 7 x 7 grid, named like a chessboard:

    a7 ----- d7 ----- g7
    |  b6 -- d6 -- f6  |
    |  |  c5-d5-e5  |  |
    a4-b4-c4    e4-f4-g4
    |  |  c3-d3-e3  |  |
    |  b2 -- d2 -- f2  |
    a1 ----- d1 ----- g1

A mill formed makes a second decision in the same turn (`decision: 2` in the position text):
the mover stays the same and the legal moves are the sites of the enemy men that may be taken.
"""

from __future__ import annotations

import random
import re
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter import IllegalMoveError, load_game

GAMES = Path(__file__).resolve().parent.parent / "games"
ROLES = ("White", "Black")
SYMBOL = {"White": "W", "Black": "B"}
MEN = 9

# The 16 lines of three points, written out here (not read from the engine).
LINES = tuple(tuple(line.split()) for line in (
    "a7 d7 g7", "b6 d6 f6", "c5 d5 e5", "a4 b4 c4", "e4 f4 g4", "c3 d3 e3", "b2 d2 f2",
    "a1 d1 g1", "a7 a4 a1", "b6 b4 b2", "c5 c4 c3", "d7 d6 d5", "d3 d2 d1", "e5 e4 e3",
    "f6 f4 f2", "g7 g4 g1"))
SITES = ("a7 d7 g7 b6 d6 f6 c5 d5 e5 a4 b4 c4 e4 f4 g4 c3 d3 e3 b2 d2 f2 a1 d1 g1").split()
NEIGHBOURS: dict[str, set[str]] = {s: set() for s in SITES}  # the next point along a line
for _line in LINES:
    for _here, _there in zip(_line, _line[1:], strict=False):
        NEIGHBOURS[_here].add(_there)
        NEIGHBOURS[_there].add(_here)


@cache
def morris(openspiel: bool = False):
    return load_game(GAMES / "ninemensmorris.game", openspiel=openspiel)


def position(white: str = "", black: str = "", mover: str = "White", *,
             hands: tuple[int, int] | None = (0, 0), turns: int = 0,
             decision: int | None = None) -> str:
    """A position text: the men of each side (sites separated by spaces), the mover, the men in
    hand (None: leave the keys out, i.e. the supply minus the men on the board), the turns
    played and the decision of the turn."""
    men = {s: "W" for s in white.split()} | {s: "B" for s in black.split()}
    rows = morris().initial_state().to_text().splitlines()[:7]
    symbols = iter(men.get(s, ".") for s in SITES)
    lines = [re.sub(r"\.", lambda _: next(symbols), row) for row in rows]
    lines.append(f"mover: {mover}")
    if decision is not None:
        lines.append(f"decision: {decision}")
    if turns:
        lines.append(f"turns: {turns}")
    if hands is not None:
        lines += [f"in hand {role}: {n}" for role, n in zip(ROLES, hands, strict=True)]
    return "\n".join(lines) + "\n"


def moves(state) -> set[str]:
    return {str(m) for m in state.legal_moves()}


def board_of(state) -> dict[str, str]:
    """{site: `W`, `B` or `.`}: the board rows of the position text, in reading order."""
    symbols = [ch for row in state.to_text().splitlines()[:7] for ch in row.split()]
    return dict(zip(SITES, symbols, strict=True))


def key(state, name: str) -> str | None:
    for line in state.to_text().splitlines():
        if line.startswith(name + ":"):
            return line.split(":", 1)[1].strip()
    return None


def hands_of(state) -> dict[str, int]:
    """The men in hand of each role: the `in hand` keys, or the supply minus the men on the
    board where they are left out."""
    board = board_of(state)
    return {role: int(key(state, f"in hand {role}")
                      or MEN - sum(v == SYMBOL[role] for v in board.values()))
            for role in ROLES}


def men_of(state) -> dict[str, int]:
    """Each role's men: on the board and in hand."""
    board = board_of(state)
    hands = hands_of(state)
    return {role: hands[role] + sum(v == SYMBOL[role] for v in board.values())
            for role in ROLES}


def turns_of(state) -> int:
    return int(key(state, "turns") or 0)


def mills_through(board: dict[str, str], site: str) -> list[tuple[str, ...]]:
    """The lines through `site` whose three points hold men of the colour on `site`."""
    if board[site] == ".":
        return []
    return [line for line in LINES if site in line and all(board[s] == board[site]
                                                           for s in line)]


def expected_moves(board: dict[str, str], mover: str, in_hand: int, taking: bool) -> set[str]:
    """The legal moves by the rules as the game file's header states them."""
    me = SYMBOL[mover]
    empty = [s for s in SITES if board[s] == "."]
    if taking:
        enemy = [s for s in SITES if board[s] not in (".", me)]
        free = [s for s in enemy if not mills_through(board, s)]
        return set(free or enemy)
    if in_hand:
        return set(empty)
    mine = [s for s in SITES if board[s] == me]
    if len(mine) == 3:
        return {f"{s}-{t}" for s in mine for t in empty}
    return {f"{s}-{t}" for s in mine for t in NEIGHBOURS[s] if board[t] == "."}


def illegal(state, move: str) -> str:
    with pytest.raises(IllegalMoveError) as caught:
        state.play(move)
    return str(caught.value)


# The board ------------------------------------------------------------------------------------


def test_the_board_is_the_morris_board() -> None:
    game = morris()
    assert game.players == ROLES and game.options == {"openspiel": False}
    assert list(game.sites) == SITES
    edges = {frozenset((a, b)) for a in SITES for b in NEIGHBOURS[a]}
    assert len(edges) == 32
    assert {frozenset(e) for e in game.graph.edges()} == edges
    start = game.initial_state()
    assert start.to_text() == (
        ".     .     .\n"
        "  .   .   .\n"
        "    . . .\n"
        ". . .   . . .\n"
        "    . . .\n"
        "  .   .   .\n"
        ".     .     .\n"
        "mover: White\n")
    assert hands_of(start) == {"White": 9, "Black": 9}
    assert game.from_text(position(hands=None)).to_text() == start.to_text()


# Placing ---------------------------------------------------------------------------------------


def test_the_first_moves_place_on_any_empty_point() -> None:
    state = morris().initial_state()
    assert moves(state) == set(SITES)
    state = state.play("d6").play("d5")
    assert moves(state) == set(SITES) - {"d6", "d5"}
    assert hands_of(state) == {"White": 8, "Black": 8}
    assert "in hand" not in state.to_text()  # the default: the supply minus the men placed


def test_men_in_hand_are_placed_before_any_man_moves() -> None:
    """Black, with a man in hand, places it (on any empty point, whatever the men on the board
    could do); only then do Black's men move. White, with three men on the board and two in
    hand, places too: flying waits until the hand is empty."""
    text = position("a7 d7 b6 f6", "a4 b2 d2 f4", "Black", hands=(0, 1))
    state = morris().from_text(text)
    assert moves(state) == {s for s in SITES if s not in "a7 d7 b6 f6 a4 b2 d2 f4".split()}
    after = state.play("c5")
    assert after.mover == "White" and hands_of(after)["Black"] == 0
    assert all("-" in m for m in moves(after))
    three = morris().from_text(position("a7 d6 c3", "a4 b2 d2 f4", hands=(2, 3)))
    assert moves(three) == {s for s in SITES if s not in "a7 d6 c3 a4 b2 d2 f4".split()}


# Moving ----------------------------------------------------------------------------------------


STEPS = position("a7 d7 d6 e4", "a4 g7 f4 d5")


def test_a_man_steps_along_a_line_to_an_empty_neighbour() -> None:
    """a7 and d7 are hemmed in; d6 steps to b6 or f6 (d5 is taken), e4 to e5 or e3 (f4 is
    taken). No diagonal steps, no steps across the centre."""
    state = morris().from_text(STEPS)
    assert moves(state) == {"d6-b6", "d6-f6", "e4-e5", "e4-e3"}
    assert moves(state) == expected_moves(board_of(state), "White", 0, False)
    after = state.play("d6-b6")
    assert board_of(after)["d6"] == "." and board_of(after)["b6"] == "W"
    assert after.mover == "Black" and key(after, "decision") is None
    for move in ("d6-c5", "d6-d2", "e4-c4", "a7-b6"):
        with pytest.raises(IllegalMoveError):
            state.play(move)


def test_three_men_fly_to_any_empty_point() -> None:
    """White, down to three men with none in hand, may move a man to any empty point; Black,
    with four, still steps."""
    white = "a7 d6 e4"
    black = "a4 g7 f4 d5"
    flying = morris().from_text(position(white, black))
    empty = [s for s in SITES if s not in (white + " " + black).split()]
    assert moves(flying) == {f"{s}-{t}" for s in white.split() for t in empty}
    assert len(moves(flying)) == 3 * 17
    assert "e4-c3" in moves(flying) and "a7-g1" in moves(flying)
    stepping = morris().from_text(position(white, black, "Black"))
    assert moves(stepping) == expected_moves(board_of(stepping), "Black", 0, False)
    assert moves(stepping) == {"a4-a1", "a4-b4", "g7-d7", "g7-g4", "f4-f6", "f4-f2", "f4-g4",
                               "d5-c5", "d5-e5"}


# Mills -----------------------------------------------------------------------------------------


def test_a_mill_formed_by_placing_lets_the_mover_take_a_man() -> None:
    """White's g7 completes a7 d7 g7: White decides again, taking one of Black's men that is
    not in a mill (a4 b4 c4 is one): only d2. The taken man is gone and the turn passes."""
    text = position("a7 d7 e3 g1", "a4 b4 c4 d2", hands=(5, 5), turns=8)
    state = morris().from_text(text)
    mill = state.play("g7")
    assert mill.mover == "White" and key(mill, "decision") == "2"
    assert moves(mill) == {"d2"}
    assert turns_of(mill) == 8  # the turn is not over
    taken = mill.play("d2")
    assert board_of(taken)["d2"] == "." and taken.mover == "Black"
    assert key(taken, "decision") is None and turns_of(taken) == 9
    assert hands_of(taken) == {"White": 4, "Black": 5}
    assert men_of(taken) == {"White": 9, "Black": 8}


def test_the_text_in_the_middle_of_a_turn_round_trips() -> None:
    mill = morris().from_text(position("a7 d7 e3 g1", "a4 b4 c4 d2", hands=(5, 5))).play("g7")
    text = mill.to_text()
    # the hands are the supply minus the men on the board (4 and 5): left out
    assert text.splitlines()[7:] == ["mover: White", "decision: 2"]
    again = morris().from_text(text)
    assert again.to_text() == text and moves(again) == {"d2"}
    assert str(mill.play("d2")) == str(again.play("d2"))


def test_a_man_in_a_mill_is_protected_unless_all_are() -> None:
    some = morris().from_text(position("a7 d7 e3 g1", "a4 b4 c4 d2 f6", hands=(5, 4)))
    assert moves(some.play("g7")) == {"d2", "f6"}
    every = morris().from_text(position("a7 d7 e3", "a4 b4 c4", hands=(6, 6)))
    assert moves(every.play("g7")) == {"a4", "b4", "c4"}
    # two mills sharing no man, every man in one of them
    both = morris().from_text(position("a7 d7 e3 d2", "a4 b4 c4 e4 f4 g4", hands=(5, 3)))
    assert moves(both.play("g7")) == {"a4", "b4", "c4", "e4", "f4", "g4"}


def test_a_taken_man_does_not_come_back_to_the_hand() -> None:
    """Black had five men in hand before losing d2: still five after; Black places them and
    then moves, with eight men in all."""
    state = morris().from_text(position("a7 d7 e3 g1", "a4 b4 c4 d2", hands=(5, 5)))
    state = state.play("g7").play("d2")
    assert hands_of(state)["Black"] == 5 and men_of(state)["Black"] == 8
    assert "in hand Black: 5" in state.to_text()
    rng = random.Random(7)
    while hands_of(state)["Black"] and not state.is_over:
        state = state.play(rng.choice(state.legal_moves()))
    black_men = sum(v == "B" for v in board_of(state).values())
    assert black_men + hands_of(state)["Black"] <= 8


def test_a_mill_formed_by_moving() -> None:
    """g4-g7 completes a7 d7 g7; Black's a4 b4 c4 is a mill, so d2 or f2 may be taken."""
    state = morris().from_text(position("a7 d7 g4 b6", "a4 b4 c4 d2 f2"))
    mill = state.play("g4-g7")
    assert mill.mover == "White" and key(mill, "decision") == "2"
    assert moves(mill) == {"d2", "f2"}
    after = mill.play("f2")
    assert after.mover == "Black" and board_of(after)["f2"] == "."


def test_a_mill_formed_by_flying() -> None:
    state = morris().from_text(position("a7 d7 c3", "a4 b4 e4 f4 d2"))
    mill = state.play("c3-g7")
    assert mill.mover == "White" and moves(mill) == {"a4", "b4", "e4", "f4", "d2"}


def test_moving_out_of_a_mill_and_back_forms_it_again() -> None:
    state = morris().from_text(position("a7 d7 g7 b6", "a1 b2 e3 g1"))
    out = state.play("g7-g4")
    assert out.mover == "Black" and key(out, "decision") is None
    back = out.play("e3-d3").play("g4-g7")
    assert back.mover == "White" and key(back, "decision") == "2"
    assert moves(back) == {"a1", "b2", "d3", "g1"}


def test_a_standing_mill_takes_nothing_more() -> None:
    """Only the mill the last man completes counts: with a7 d7 g7 standing, b6-d6 takes
    nothing."""
    state = morris().from_text(position("a7 d7 g7 b6", "a1 b2 e3 g1"))
    after = state.play("b6-d6")
    assert after.mover == "Black" and key(after, "decision") is None


def test_two_mills_at_once_take_one_man() -> None:
    """g7 completes both a7 d7 g7 and g7 g4 g1: one man is taken, then Black moves."""
    state = morris().from_text(position("a7 d7 g4 g1", "a4 b4 e4 d2", hands=(5, 5)))
    mill = state.play("g7")
    assert moves(mill) == {"a4", "b4", "e4", "d2"}
    after = mill.play("b4")
    assert after.mover == "Black" and key(after, "decision") is None
    assert men_of(after) == {"White": 9, "Black": 8}


# Illegal moves say why -------------------------------------------------------------------------


def can_move_only_to(message: str) -> set[str]:
    """The sites of a message "c3-d4: the piece on c3 can move only to e5, e3" (any order)."""
    move, _, why = message.partition(": ")
    start = move.split("-")[0]
    prefix = f"the piece on {start} can move only to "
    assert why.startswith(prefix), message
    return set(why.removeprefix(prefix).split(", "))


def test_illegal_moves_say_why() -> None:
    placing = morris().from_text(position("a7 d7 e3 g1", "a4 b4 c4 d2", hands=(5, 5)))
    assert illegal(placing, "a4") == "a4: a4 is occupied"
    assert illegal(placing, "a7-a4").startswith("a7-a4: ")
    stepping = morris().from_text(STEPS)
    assert can_move_only_to(illegal(stepping, "d6-d5")) == {"b6", "f6"}  # d5 is taken
    assert can_move_only_to(illegal(stepping, "e4-c3")) == {"e5", "e3"}  # not a neighbour
    assert illegal(stepping, "a7-a4") == "a7-a4: the piece on a7 cannot move now"
    assert illegal(stepping, "a4-a1") == "a4-a1: a4 holds no piece of White's"
    assert illegal(stepping, "b6") == "b6: White has only 0 in hand"
    assert illegal(stepping, "d4") == "d4: no site d4 on this board"
    taking = placing.play("g7")
    assert illegal(taking, "a7") == "a7: the piece on a7 may not be taken now"  # White's own
    assert illegal(taking, "d5") == "d5: there is no piece on d5 to take"
    assert illegal(taking, "b4").startswith("b4: ")  # protected: see the test below
    assert illegal(taking, "pass") == "pass: White must take a piece now: write its site (e.g. d2)"
    assert illegal(taking, "g4-g7") == ("g4-g7: White must take a piece now: write its site "
                                        "(e.g. d2)")
    assert illegal(taking, "e3-d3") == (
        "e3-d3: White must take a piece now: write its site (e.g. d2)")


MESSAGES_WANTED = {
    # b4 stands in the mill a4 b4 c4: the game file's first-of says why it is refused
    "a protected man": ("b4", "^b4: it stands in a mill, and a man outside every mill may be "
                              "taken$"),
}


@pytest.mark.parametrize("case", list(MESSAGES_WANTED))
def test_the_message_names_the_rule(case: str) -> None:
    """While White takes a man after a7 d7 g7: the messages a player would want."""
    move, wanted = MESSAGES_WANTED[case]
    placing = morris().from_text(position("a7 d7 e3 g1", "a4 b4 c4 d2", hands=(5, 5)))
    message = illegal(placing.play("g7"), move)
    assert re.search(wanted, message), message


# The end ---------------------------------------------------------------------------------------


def test_a_player_down_to_two_men_loses() -> None:
    state = morris().from_text(position("a7 d7 g4 b2", "a4 e5 c3"))
    mill = state.play("g4-g7")
    assert moves(mill) == {"a4", "e5", "c3"}
    over = mill.play("c3")
    assert over.is_over and over.winner == "White" and over.mover is None
    assert over.outcome.reason == "the opponent is down to two men"
    assert over.legal_moves() == []
    # the men in hand count: two on the board and one to place is three men
    placing = morris().from_text(position("a7 d7 g7 b2 c3", "a4 e5", "Black", hands=(0, 1)))
    assert not placing.is_over and moves(placing) == expected_moves(
        board_of(placing), "Black", 1, False)
    # from a text: White has moved, Black is left with two men
    two = morris().from_text(position("a7 d7 g7 b2", "a4 e5", "Black"))
    assert two.is_over and two.winner == "White"


def test_a_player_who_cannot_move_loses() -> None:
    """d1-g1 shuts in Black's last free man: a7 d7 g7 g4 have no empty neighbour."""
    state = morris().from_text(position("a4 d6 f4 d1", "a7 d7 g7 g4"))
    over = state.play("d1-g1")
    assert over.is_over and over.winner == "White"
    assert over.outcome.reason == "the opponent cannot move"
    # with three men Black would fly: never shut in
    flying = morris().from_text(position("a4 d6 f4 d1", "a7 d7 g4")).play("d1-g1")
    assert not flying.is_over and len(moves(flying)) == 3 * (24 - 7)


def test_openspiel_draws_after_200_turns() -> None:
    """With openspiel:true, the 200th turn ends the game in a draw (without it, play goes on);
    a 200th turn that shuts the opponent in or leaves them two men is still a win."""
    text = position("a4 d6 f4 d1", "a7 d7 g7 g4 b2", turns=199)
    for openspiel in (False, True):
        after = morris(openspiel).from_text(text).play("a4-a1")
        assert turns_of(after) == 200
        assert after.is_over == openspiel and after.winner is None
    assert morris(True).from_text(text).play("d1-g1").winner is None  # b2 can still move
    blocked = position("a4 d6 f4 d1", "a7 d7 g7 g4", turns=199)
    assert morris(True).from_text(blocked).play("d1-g1").winner == "White"
    two = morris(True).from_text(position("a7 d7 g4 b2", "a4 e5 c3", turns=199))
    mill = two.play("g4-g7")
    assert not mill.is_over and turns_of(mill) == 199
    assert mill.play("c3").winner == "White"


# Random games ----------------------------------------------------------------------------------


@settings(max_examples=30)
@given(st.integers(0, 2**32 - 1), st.booleans())
def test_random_games_keep_the_rules(seed: int, openspiel: bool) -> None:
    """Along a random game, at every decision: the legal moves are those of the rules as
    written in the game file's header (`expected_moves`); men (on the board and in hand) and
    men in hand never increase; each side has nine men minus the captures made against it; a
    mill just formed (by `mills_through` the man that moved) is what makes a second decision,
    which keeps the mover; a take empties the taken site and changes nothing else; a turn
    counts once, when it ends; the text round-trips; the game ends only by the rules."""
    game = morris(openspiel)
    rng = random.Random(seed)
    state = game.initial_state()
    captured = {role: 0 for role in ROLES}
    while not state.is_over:
        mover = state.mover
        board, hands, men = board_of(state), hands_of(state), men_of(state)
        taking = key(state, "decision") == "2"
        legal = moves(state)
        assert legal == expected_moves(board, mover, hands[mover], taking), state.to_text()
        move = rng.choice(sorted(legal))
        after = state.play(move)
        new_board, new_hands, new_men = board_of(after), hands_of(after), men_of(after)
        changed = {s for s in SITES if board[s] != new_board[s]}
        enemy = ROLES[1 - ROLES.index(mover)]
        if taking:
            captured[enemy] += 1
            assert changed == {move} and new_board[move] == "."
            assert board[move] == SYMBOL[enemy]
            assert new_hands == hands
        else:
            to = move.split("-")[-1]
            assert new_board[to] == SYMBOL[mover]
            assert changed == set(move.split("-"))
            formed = bool(mills_through(new_board, to))
            assert (key(after, "decision") == "2") == formed
            if formed:
                assert after.mover == mover
        for role in ROLES:
            assert new_men[role] <= men[role] and new_hands[role] <= hands[role]
            assert new_men[role] == MEN - captured[role]
        turn_ended = key(after, "decision") is None
        assert turns_of(after) == turns_of(state) + turn_ended
        if not after.is_over:
            assert (after.mover == mover) != turn_ended
        assert game.from_text(after.to_text()).to_text() == after.to_text()
        state = after
    loser = None if state.winner is None else ROLES[1 - ROLES.index(state.winner)]
    if loser is None:
        assert openspiel and turns_of(state) == 200
    else:
        assert state.winner == mover
        board = board_of(state)
        shut_in = not expected_moves(board, loser, hands_of(state)[loser], False)
        assert men_of(state)[loser] == 2 or shut_in
