"""Expressions where numbers go (stdlib/expressions.py) and groups (stdlib/groups.py): a move's
distance computed from the position, the pieces on a line, "not over an enemy", coordinate
arithmetic, the role owning a piece, and whether a role's pieces form one group."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import load_game, parse_game

ROOT = Path(__file__).resolve().parent.parent


def game_with(play: str, end: str = "(if (full) (draw))", size: int = 5) -> object:
    return parse_game(f"""(game "Test"
      (players {{(player "Black" symbol:"B") (player "White" symbol:"W")}})
      (board (square {size}))
      (play {play})
      (end {end}))""")


def moves(game, text: str) -> set[str]:
    return {str(m) for m in game.from_text(text).legal_moves()}


CROSS = """. . . . .
. . W . .
. B B . .
. . . . .
. . . . .
mover: Black
"""


def test_a_fixed_distance_jumps_whatever_lies_between() -> None:
    game = game_with("(move-by 2 Orthogonal)")
    assert moves(game, CROSS) == {"b3-b5", "b3-b1", "b3-d3", "c3-c5", "c3-c1", "c3-e3",
                                  "c3-a3"}


def test_over_says_what_the_sites_passed_may_hold() -> None:
    game = game_with("(move-by 2 Orthogonal over:(not (is Enemy Site)) to:Empty)")
    assert "c3-c5" not in moves(game, CROSS)  # over White's c4
    assert "b3-d3" in moves(game, CROSS)  # over its own c3
    # A condition that is not about what the site holds is judged site by site.
    game = game_with('(move-by 2 Orthogonal over:(not (in Site (sites {"c3"}))))')
    assert moves(game, CROSS) == {"b3-b5", "b3-b1", "c3-c5", "c3-c1", "c3-e3", "c3-a3"}


def test_pieces_on_line_reads_the_line_of_the_move_being_tried() -> None:
    game = game_with("(move-by (pieces-on-line) All)")
    # b3: its row and its diagonal a2-d5 (through c4) hold 2, its column and other diagonal
    # 1. c3: its row and column (c3, c4) hold 2, its diagonals 1.
    assert moves(game, CROSS) == {
        "b3-d3", "b3-d5", "b3-b4", "b3-b2", "b3-a4", "b3-c2",
        "c3-a3", "c3-e3", "c3-c5", "c3-c1", "c3-b4", "c3-d4", "c3-b2", "c3-d2"}
    # The same distance computed without the position's counts (an expression around it).
    plus = game_with("(move-by (+ (pieces-on-line) 0) All)")
    assert moves(plus, CROSS) == moves(game, CROSS)


def test_pieces_on_line_anywhere_with_a_direction_and_a_site() -> None:
    game = game_with('(place (sites Empty) if:(= (pieces-on-line N at:To) 2))')
    # Column b holds b3 and column c c3, c4: a piece put there makes 2 on column b only.
    assert moves(game, CROSS) == {"b5", "b4", "b2", "b1"}
    friends = game_with('(place (sites Empty) if:(= (pieces-on-line E at:To counting:Friend) 3))')
    assert moves(friends, CROSS) == {"a3", "d3", "e3"}  # row 3 holds two of Black's


def test_move_by_in_lines_of_action_agrees_with_the_expression_computed_afresh() -> None:
    # The game file's distance, read from the counts the position keeps, against the same
    # distance evaluated by the generic path, over seeded random games.
    text = (ROOT / "games" / "lines-of-action.game").read_text()
    fast = load_game(ROOT / "games" / "lines-of-action.game")
    slow = parse_game(text.replace("(move-by (pieces-on-line)", "(move-by (+ 0 (pieces-on-line))"))
    for seed in range(3):
        rng = random.Random(seed)
        a, b = fast.initial_state(), slow.initial_state()
        while not a.is_over:
            listed = sorted(map(str, a.legal_moves()))
            assert listed == sorted(map(str, b.legal_moves()))
            move = rng.choice(listed)
            a, b = a.play(move), b.play(move)
        assert b.is_over and a.winner == b.winner


def test_site_at_is_coordinate_arithmetic() -> None:
    game = game_with("(place (sites Empty) if:(is Friend (site-at To 2 0)))")
    assert moves(game, CROSS) == {"a3"}  # two columns west of c3 (b3 is taken)
    game = game_with("(place (sites Empty) if:(is Enemy (site-at To (- 0 1) (+ 1 0))))")
    assert moves(game, CROSS) == {"d3"}  # c4 is one column west and one row north of d3
    # Off the board there is no site, and it holds nothing.
    game = game_with("(place (sites Empty) unless:(is Empty (site-at To 0 4)))")
    assert moves(game, CROSS) == {s for s in moves(game_with("(place (sites Empty))"), CROSS)
                                  if s[1] != "1"}


def test_no_site_is_an_empty_region() -> None:
    """Where a region is wanted, (site-at ...) off the board is no site at all — not the last
    site of the board — and the sites around it are none."""
    everywhere = moves(game_with("(place (sites Empty))"), CROSS)
    not_row_1 = {s for s in everywhere if s[1] != "1"}
    for region in ("(site-at To 0 4)", "(sites Around (site-at To 0 4))"):
        game = game_with(f"(place (sites Empty) unless:(> (count {region}) 0))")
        assert moves(game, CROSS) == not_row_1, region


def test_owner_and_same_role() -> None:
    game = game_with("(place (sites Empty))",
                     end='(if (same-role (owner "c4") Mover) (win Mover))')
    # Position text is judged as if the player before the mover had just moved.
    assert game.from_text(CROSS).winner == "White"  # c4 is White's, and White moved
    state = game.from_text(CROSS.replace("mover: Black", "mover: White"))
    assert not state.is_over  # Black moved
    assert state.play("a1").winner == "White"
    game = game_with("(place (sites Empty))", end='(if (same-role Mover "White") (win Mover))')
    assert game.from_text(CROSS).winner == "White"  # as if White had just moved
    state = game.from_text(CROSS.replace("mover: Black", "mover: White"))
    assert not state.is_over and state.play("a1").winner == "White"


GROUPS = """B . . . .
. B . . .
. . . W W
. . . . .
B . . . W
mover: White
"""


@pytest.mark.parametrize("by, black, white", [("All", 2, 2), ("Orthogonal", 3, 2)])
def test_count_groups(by: str, black: int, white: int) -> None:
    game = game_with("(place (sites Empty))",
                     end=f"(if (= (count-groups Mover by:{by}) {black}) (win Mover))")
    assert game.from_text(GROUPS).winner == "Black"  # Black, who moved, has that many


def test_one_group() -> None:
    game = game_with("(place (sites Empty))", end="(if (one-group Mover) (win Mover))")
    state = game.from_text(GROUPS)
    assert not state.is_over
    assert state.play("e2").winner == "White"  # d3, e3, e2, e1: one group
    assert not state.play("a2").is_over
    # No piece is no group; a single piece is one.
    empty = "\n".join([". . . . ."] * 5) + "\nmover: White\n"
    assert not game.from_text(empty).is_over
    assert game.from_text(empty.replace("mover: White", "mover: Black")).play("c3").winner \
        == "Black"
