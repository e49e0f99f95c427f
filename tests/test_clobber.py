"""Clobber (games/clobber.game), tested rule by rule from position texts.

The rules: the board starts full, a checkerboard of White (`o`, on a1 and every site of its
colour) and Black (`x`); White moves first. A move takes one of your stones onto an orthogonally
adjacent stone of the opponent, which is removed: never diagonally, never onto an empty site or
your own stone. The player who cannot move loses, whether or not they still have stones.
Options: `columns` (default 6) and `rows` (default 5), each 1 to 26.

Positions are the contract's position text (top row first, `a1` bottom-left). The expectations
are worked out by hand, or (the random playouts at the end) from coordinates computed here
independently of the interpreter.
"""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path
from textwrap import dedent
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from refusals import illegal

from interpreter import GameError, load_game

# When a test fails, hypothesis's pytest plugin imports libcst, which imports mypy_extensions,
# which warns; under `-W error` that would hide the failure behind an INTERNALERROR.
pytestmark = pytest.mark.filterwarnings(
    "ignore:mypy_extensions.TypedDict is deprecated:DeprecationWarning")

GAMES = Path(__file__).resolve().parent.parent / "games"
ROLES = ("White", "Black")
SYMBOL = {"White": "o", "Black": "x"}
LETTERS = "abcdefghijklmnopqrstuvwxyz"


@cache
def clobber(**options: int) -> Any:
    return load_game(GAMES / "clobber.game", **options)


def pos(text: str) -> str:
    return dedent(text).strip("\n") + "\n"


def moves(state: Any) -> set[str]:
    return {str(m) for m in state.legal_moves()}


def board(state: Any) -> dict[str, str]:
    """{site: symbol} read from the position text."""
    cells: list[str] = []
    for line in state.to_text().splitlines():
        if ":" in line:
            break
        cells.extend(line.split())
    return dict(zip(state.game.sites, cells, strict=True))


def coordinates(site: str) -> tuple[int, int]:
    """(column, row) of a site name, both from 0 at a1."""
    return LETTERS.index(site[0]), int(site[1:]) - 1


def checkerboard(columns: int, rows: int) -> str:
    """The start position text worked out from the rules: `o` where column + row is even
    (a1 included), `x` elsewhere; White to move."""
    lines = [" ".join("o" if (c + r) % 2 == 0 else "x" for c in range(columns))
             for r in reversed(range(rows))]
    return "\n".join([*lines, "mover: White"]) + "\n"


# The start position and the options ------------------------------------------------------------


def test_default_start_position() -> None:
    game = clobber()
    assert game.name == "Clobber"
    assert game.players == ROLES
    assert game.options == {"columns": 6, "rows": 5}
    state = game.initial_state()
    assert state.to_text() == pos("""
        o x o x o x
        x o x o x o
        o x o x o x
        x o x o x o
        o x o x o x
        mover: White
        """)
    assert state.to_text() == checkerboard(6, 5)
    assert state.mover == "White" and not state.is_over and state.winner is None
    assert state.piece_at("a1") == "White" and state.piece_at("b1") == "Black"
    assert state.piece_at("a5") == "White" and state.piece_at("f5") == "Black"
    # Every orthogonal pair of sites holds one stone of each colour, so White has one move per
    # pair: 5 rows of 5 pairs and 6 columns of 4.
    assert len(state.legal_moves()) == 5 * 5 + 6 * 4


@pytest.mark.parametrize(("columns", "rows"), [(4, 4), (3, 7), (8, 2), (1, 2), (2, 1), (26, 26)])
def test_start_position_of_other_sizes(columns: int, rows: int) -> None:
    game = clobber(columns=columns, rows=rows)
    assert game.options == {"columns": columns, "rows": rows}
    assert len(game.sites) == columns * rows
    assert game.sites[0] == f"a{rows}" and game.sites[-1] == f"{LETTERS[columns - 1]}1"
    state = game.initial_state()
    assert state.to_text() == checkerboard(columns, rows)
    assert state.piece_at("a1") == "White"
    assert len(state.legal_moves()) == rows * (columns - 1) + columns * (rows - 1)
    assert game.from_text(state.to_text()).to_text() == state.to_text()


def test_size_options_are_independent() -> None:
    assert clobber(columns=9).options == {"columns": 9, "rows": 5}
    assert clobber(rows=3).options == {"columns": 6, "rows": 3}
    game = clobber(columns=2, rows=3)
    assert game.sites == ("a3", "b3", "a2", "b2", "a1", "b1")


@pytest.mark.parametrize("options", [
    {"columns": 0}, {"rows": 0}, {"columns": 27}, {"rows": 27}, {"size": 5},
])
def test_options_out_of_range_or_unknown_are_refused(options: dict[str, int]) -> None:
    with pytest.raises(GameError) as caught:
        load_game(GAMES / "clobber.game", **options)
    assert next(iter(options)) in str(caught.value)


# Moves -----------------------------------------------------------------------------------------


def test_a_stone_moves_onto_each_orthogonally_adjacent_enemy() -> None:
    state = clobber().from_text(pos("""
        . . . . . .
        . . x . . .
        . x o x . .
        . . x . . .
        . . . . . .
        mover: White
        """))
    assert not state.is_over
    assert moves(state) == {"c3-c4", "c3-d3", "c3-c2", "c3-b3"}


def test_black_moves_the_same_way() -> None:
    state = clobber().from_text(pos("""
        . . . . . .
        . . o . . .
        . o x o . .
        . . o . . .
        . . . . . .
        mover: Black
        """))
    assert state.mover == "Black"
    assert moves(state) == {"c3-c4", "c3-d3", "c3-c2", "c3-b3"}


def test_never_diagonally() -> None:
    state = clobber().from_text(pos("""
        . . . . o x
        . x . x . .
        . . o . . .
        . x . x . .
        . . . . . .
        mover: White
        """))
    assert moves(state) == {"e5-f5"}
    for to in ("b4", "d4", "b2", "d2"):
        illegal(state, f"c3-{to}")


def test_never_onto_an_empty_site() -> None:
    state = clobber().from_text(pos("""
        . . . . o x
        . . . . . .
        . . o . . .
        . . . . . .
        . . . . . .
        mover: White
        """))
    assert moves(state) == {"e5-f5"}
    for to in ("c4", "d3", "c2", "b3"):
        illegal(state, f"c3-{to}")


def test_never_onto_an_own_stone() -> None:
    state = clobber().from_text(pos("""
        . . . . o x
        . . o . . .
        . o o o . .
        . . o . . .
        . . . . . .
        mover: White
        """))
    assert moves(state) == {"e5-f5"}
    for to in ("c4", "d3", "c2", "b3"):
        illegal(state, f"c3-{to}")


def test_never_further_than_the_next_site_nor_with_an_enemy_stone() -> None:
    state = clobber().from_text(pos("""
        . . . . . .
        . . . . . .
        x . o x . .
        . . . . . .
        . . . . . .
        mover: White
        """))
    assert moves(state) == {"c3-d3"}
    illegal(state, "c3-a3")  # two sites away
    illegal(state, "d3-c3")  # Black's stone, White to move
    illegal(state, "c3")  # a placement


def test_the_clobbered_stone_disappears() -> None:
    state = clobber().initial_state()
    after = state.play("a1-b1")
    assert after.to_text() == pos("""
        o x o x o x
        x o x o x o
        o x o x o x
        x o x o x o
        . o o x o x
        mover: Black
        """)
    assert after.piece_at("b1") == "White" and after.piece_at("a1") is None
    assert list(board(after).values()).count("x") == 14
    assert list(board(after).values()).count("o") == 15
    assert state.piece_at("b1") == "Black"  # the state played from is unchanged
    assert after.mover == "Black" and not after.is_over
    # Black's a2 may take a3 or b2, but not step into the emptied a1.
    assert {m for m in moves(after) if m.startswith("a2-")} == {"a2-a3", "a2-b2"}
    illegal(after, "a2-a1")
    # The stone on b1 now has White's c1 and b2 beside it and the empty a1: safe for now.
    assert not any(m.endswith("-b1") for m in moves(after))
    # Black's a2 takes b2; then White's b1, the stone that moved, can take it back.
    assert {m for m in moves(after.play("a2-b2")) if m.endswith("-b2")} == {"b1-b2"}


# The end ---------------------------------------------------------------------------------------


def test_a_move_that_leaves_the_opponent_without_a_move_wins() -> None:
    """Black keeps three stones, none next to White's only stone: Black cannot move and loses."""
    state = clobber().from_text(pos("""
        . . . . . .
        . . x . . .
        . x o x . .
        . . x . . .
        . . . . . .
        mover: White
        """))
    after = state.play("c3-c4")
    assert after.to_text() == pos("""
        . . . . . .
        . . o . . .
        . x . x . .
        . . x . . .
        . . . . . .
        mover: Black
        """)
    assert after.is_over and after.winner == "White" and after.mover is None
    assert after.legal_moves() == []
    illegal(after, "b3-c3")


def test_taking_the_last_enemy_stone_wins() -> None:
    state = clobber().from_text(pos("""
        . . . . . .
        . . . . . .
        . . . . . .
        x . . . . .
        x o . . . .
        mover: Black
        """))
    assert moves(state) == {"a1-b1"}
    after = state.play("a1-b1")
    assert after.is_over and after.winner == "Black"
    assert "o" not in board(after).values()


@pytest.mark.parametrize(("mover", "winner"), [("White", "Black"), ("Black", "White")])
def test_the_player_to_move_without_a_move_has_lost(mover: str, winner: str) -> None:
    """From a position text the end is judged as if the other player had just moved: a mover
    with stones but no move has lost. (Then neither player can move, as adjacency is symmetric;
    what counts is whose turn it is.)"""
    state = clobber().from_text(pos(f"""
        o . x . o .
        . . . . . .
        x . o . x .
        . . . . . .
        o . x . o x
        mover: {mover}
        """))
    # e1-f1 is the only touching pair: either player can move there.
    assert not state.is_over and moves(state) == {"e1-f1" if mover == "White" else "f1-e1"}
    stuck = clobber().from_text(pos(f"""
        o . x . o .
        . . . . . .
        x . o . x .
        . . . . . .
        o . x . o .
        mover: {mover}
        """))
    assert stuck.is_over and stuck.winner == winner and stuck.mover is None
    assert stuck.legal_moves() == []


def test_a_player_without_stones_has_lost() -> None:
    state = clobber().from_text(pos("""
        . . . . . .
        . . . . . .
        . . o . . .
        . . . . . .
        . . . . . .
        mover: Black
        """))
    assert state.is_over and state.winner == "White"


def test_the_smallest_boards() -> None:
    """Two sites: White takes Black's only stone and wins at once."""
    for options in ({"columns": 2, "rows": 1}, {"columns": 1, "rows": 2}):
        state = clobber(**options).initial_state()
        [move] = state.legal_moves()
        assert str(move) in ("a1-b1", "a1-a2")
        after = state.play(move)
        assert after.is_over and after.winner == "White"


def test_one_site_board_white_cannot_move_and_loses() -> None:
    state = clobber(columns=1, rows=1).initial_state()
    assert state.legal_moves() == []
    assert state.is_over and state.winner == "Black"


# Random playouts -------------------------------------------------------------------------------


@settings(derandomize=True, database=None, deadline=None, max_examples=150)
@given(columns=st.integers(1, 8), rows=st.integers(1, 7), seed=st.integers(0, 2**32 - 1))
def test_random_playouts_follow_the_rules(columns: int, rows: int, seed: int) -> None:
    """Every move takes the mover's stone one orthogonal step onto an enemy stone, and the
    number of stones drops by one; the game ends (within columns * rows - 1 moves) with the
    loser to move and no stone of either colour orthogonally next to the other's."""
    if columns * rows < 2:
        return  # the 1 x 1 board: see test_one_site_board_white_cannot_move_and_loses
    game = clobber(columns=columns, rows=rows)
    rng = random.Random(seed)
    state = game.initial_state()
    stones = columns * rows
    mover = "White"
    plies = 0
    while not state.is_over:
        assert state.mover == mover
        legal = state.legal_moves()
        assert legal, state.to_text()
        move = str(rng.choice(legal))
        frm, _, to = move.partition("-")
        (fc, fr), (tc, tr) = coordinates(frm), coordinates(to)
        assert abs(fc - tc) + abs(fr - tr) == 1, move
        before = board(state)
        assert before[frm] == SYMBOL[mover] and before[to] == SYMBOL[other(mover)], move
        state = state.play(move)
        after = board(state)
        assert after[frm] == "." and after[to] == SYMBOL[mover]
        assert {s: v for s, v in after.items() if s not in (frm, to)} == \
            {s: v for s, v in before.items() if s not in (frm, to)}
        assert sum(v != "." for v in after.values()) == stones - 1
        stones -= 1
        plies += 1
        mover = other(mover)
    assert plies <= columns * rows - 1
    loser = mover
    assert state.winner == other(loser) and state.mover is None and state.legal_moves() == []
    assert state.to_text().endswith(f"mover: {loser}\n")
    cells = board(state)
    for site, symbol in cells.items():
        if symbol == ".":
            continue
        c, r = coordinates(site)
        for dc, dr in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            if 0 <= c + dc < columns and 0 <= r + dr < rows:
                neighbour = cells[f"{LETTERS[c + dc]}{r + dr + 1}"]
                assert neighbour in (".", symbol), state.to_text()
    again = game.from_text(state.to_text())
    assert again.is_over and again.winner == state.winner


def other(role: str) -> str:
    return ROLES[1 - ROLES.index(role)]
