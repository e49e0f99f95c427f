"""Quoridor (games/quoridor.game): walls on edges, movement they block, and the rule that a
path must remain; rule by rule from position text, then properties of random games checked
against a small model written here from the rule sheet (walls as blocked cell pairs, a
breadth-first search for the paths)."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter import IllegalMoveError, load_game, parse_game
from interpreter.svg import render_svg

GAME = Path(__file__).resolve().parent.parent / "games" / "quoridor.game"
EMPTY = "\n".join([". . . . . . . . ."] * 9)


@cache
def quoridor(**options: int) -> object:
    return load_game(GAME, **options)


def position(rows: list[str], *extra: str, **options: int):
    """A 9 x 9 position from its rows (top first), with more key lines."""
    game = quoridor(**options)
    return game.from_text("\n".join(rows) + "\n" + "\n".join(extra) + "\n")  # type: ignore


def board(pawns: dict[str, str], size: int = 9) -> list[str]:
    """Rows of a board with the pawns {site: symbol}."""
    rows = []
    for r in range(size, 0, -1):
        rows.append(" ".join(pawns.get(f"{'abcdefghi'[c]}{r}", ".") for c in range(size)))
    return rows


def moves(state) -> set[str]:
    return {str(m) for m in state.legal_moves()}


def pawn_moves(state) -> set[str]:
    return {m for m in moves(state) if m[-1] not in "hv"}


# The start ---------------------------------------------------------------------------------


def test_the_start_position_and_first_moves() -> None:
    state = quoridor().initial_state()
    assert state.to_text().splitlines()[0] == ". . . . W . . . ."
    assert state.to_text().splitlines()[8] == ". . . . B . . . ."
    assert pawn_moves(state) == {"e9-d9", "e9-f9", "e9-e8"}
    assert len(moves(state)) == 3 + 2 * 8 * 8  # every wall fits


def test_four_players_start_on_the_middle_of_each_side() -> None:
    state = quoridor(players=4).initial_state()
    text = state.to_text().splitlines()
    assert text[0][8] == "W" and text[8][8] == "B" and text[4][0] == "R" and text[4][16] == "Y"
    assert quoridor(players=4).players == ("White", "Red", "Black", "Yellow")


# Walls ---------------------------------------------------------------------------------------


def test_a_wall_is_written_and_read_in_position_text() -> None:
    state = quoridor().initial_state().play("e3h").play("c5v")
    text = state.to_text()
    assert "walls White: e3h" in text and "walls Black: c5v" in text
    again = quoridor().from_text(text)
    assert again.to_text() == text and again.zhash == state.zhash


def test_walls_may_not_overlap_or_cross_but_may_touch() -> None:
    state = position(board({"e9": "W", "e1": "B"}), "mover: White", "walls Black: e3h")
    legal = moves(state)
    assert "e3v" not in legal  # crosses it (the same middle)
    assert "d3h" not in legal and "f3h" not in legal  # overlap half of it
    assert {"c3h", "g3h", "e2v", "e4v", "d3v", "f3v"} <= legal  # touch it end to end or in a T
    with pytest.raises(IllegalMoveError, match="e3v: crosses the wall e3h"):
        state.play("e3v")
    with pytest.raises(IllegalMoveError, match="f3h: overlaps the wall e3h"):
        state.play("f3h")


def test_no_wall_fits_on_the_top_row_or_last_column() -> None:
    state = quoridor().initial_state()
    assert not any(m.endswith(("9h", "9v")) or m.startswith("i") for m in moves(state)
                   if m[-1] in "hv")
    with pytest.raises(IllegalMoveError, match="no wall fits there"):
        state.play("e9h")


def test_each_player_has_ten_walls() -> None:
    ten = " ".join(f"{c}{r}h" for c in "ac" for r in range(1, 6))
    state = position(board({"e9": "W", "e1": "B"}), "mover: White", f"walls White: {ten}")
    assert all(m[-1] not in "hv" for m in moves(state))
    with pytest.raises(IllegalMoveError, match="White has no walls left"):
        state.play("g5h")
    black = position(board({"e9": "W", "e1": "B"}), "mover: Black", f"walls White: {ten}")
    assert "g5h" in moves(black)
    assert quoridor(players=4).initial_state().play("a1h").to_text().count("h") >= 1


def test_more_walls_than_the_supply_are_refused_in_text() -> None:
    eleven = " ".join(f"{c}{r}h" for c in "ace" for r in range(1, 5))
    with pytest.raises(Exception, match="only 10 walls"):
        position(board({"e9": "W", "e1": "B"}), "mover: White", f"walls White: {eleven}")


def test_a_wall_may_not_close_the_last_path() -> None:
    # Black on a1 under the wall a1h can only go east along row 1: b1v would shut it in.
    state = position(board({"e9": "W", "a1": "B"}), "mover: White", "walls White: a1h")
    assert "b1v" not in moves(state) and "b2v" in moves(state) and "c1v" in moves(state)
    with pytest.raises(IllegalMoveError, match="b1v: it would leave Black no path"):
        state.play("b1v")


def test_a_wall_across_a_corridor_is_refused_with_the_role_named() -> None:
    # White on a8, in a corridor down column a: walls along its east side from row 1 to 8
    # and over a8. A wall across the corridor would shut White off from row 1.
    rows = board({"a8": "W", "e1": "B"})
    state = position(rows, "mover: Black", "walls Black: a1v a3v a5v a7v a8h")
    with pytest.raises(IllegalMoveError, match="a4h: it would leave White no path"):
        state.play("a4h")
    assert "a4h" not in moves(state) and "b4h" in moves(state)


# Pawn moves ------------------------------------------------------------------------------------


def test_a_wall_blocks_a_step() -> None:
    state = position(board({"e5": "W", "e1": "B"}), "mover: White", "walls Black: d4h e5v")
    assert pawn_moves(state) == {"e5-e6", "e5-d5"}


def test_a_pawn_jumps_straight_over_another() -> None:
    state = position(board({"e5": "W", "e4": "B"}), "mover: White")
    assert pawn_moves(state) == {"e5-e6", "e5-d5", "e5-f5", "e5-e3"}


def test_a_wall_behind_turns_the_jump_aside() -> None:
    state = position(board({"e5": "W", "e4": "B"}), "mover: White", "walls Black: d3h")
    assert pawn_moves(state) == {"e5-e6", "e5-d5", "e5-f5", "e5-d4", "e5-f4"}


def test_the_board_edge_behind_turns_the_jump_aside() -> None:
    state = position(board({"e2": "W", "e1": "B"}), "mover: White")
    assert pawn_moves(state) == {"e2-e3", "e2-d2", "e2-f2", "e2-d1", "e2-f1"}


def test_a_wall_beside_blocks_that_side_of_the_jump() -> None:
    # d1v lies between d1 and e1 (and d2, e2): no landing on d1, no step to d2.
    state = position(board({"e2": "W", "e1": "B"}), "mover: White", "walls Black: d1v")
    assert pawn_moves(state) == {"e2-e3", "e2-f2", "e2-f1"}


def test_no_jump_across_a_wall_between_the_pawns() -> None:
    state = position(board({"e5": "W", "e4": "B"}), "mover: White", "walls Black: e4h")
    assert pawn_moves(state) == {"e5-e6", "e5-d5", "e5-f5"}


def test_a_pawn_behind_blocks_the_jump_with_four_players() -> None:
    rows = board({"e5": "W", "e4": "R", "e3": "B", "i4": "Y"})
    state = quoridor(players=4).from_text("\n".join(rows) + "\nmover: White\n")
    assert pawn_moves(state) == {"e5-e6", "e5-d5", "e5-f5"}


# The end ---------------------------------------------------------------------------------------


def test_reaching_the_goal_side_wins() -> None:
    state = position(board({"e2": "W", "e8": "B"}), "mover: White").play("e2-e1")
    assert state.is_over and state.winner == "White"
    black = position(board({"a2": "W", "c8": "B"}), "mover: Black").play("c8-c9")
    assert black.winner == "Black"


def test_the_turn_limit_draws() -> None:
    state = position(board({"e5": "W", "e6": "B"}), "mover: White", "turns: 323",
                     limit=324).play("e5-d5")
    assert state.is_over and state.winner is None


def test_a_boxed_in_player_passes() -> None:
    # White on a9 above Black on a8: a8v closes a9-b9 and a8-b8, a7h closes a8-a7, so no step
    # or jump is left, and with its path already cut no wall may be placed: White passes.
    state = position(board({"a9": "W", "a8": "B"}), "mover: White", "walls Black: a7h a8v")
    assert moves(state) == {"pass"}
    assert state.play("pass").mover == "Black"


# Pictures ----------------------------------------------------------------------------------------


def test_pictures_draw_walls_across_the_cells_gap() -> None:
    state = quoridor().initial_state().play("e3h")
    picture = render_svg(state)
    assert picture.count('class="link"') == 2  # the wall's two cell-edges
    assert 'data-from="e3"' in picture or 'data-to="e3"' in picture


def test_walls_in_another_game_file() -> None:
    """A maze: walls of one cell-edge each, and a slide that stops before a wall."""
    game = parse_game("""
(game "Maze"
  (players {(player "White" symbol:"W") (player "Black" symbol:"B")})
  (board (with-walls (square 5) "Wall"))
  (start (put "White" (sites {"a1"})) (put "Black" (sites {"e5"})))
  (play (any-of (slide Orthogonal walls:"Wall") (place-wall "Wall")))
  (end (if (stuck Next) (win Mover))))""")
    state = game.initial_state().play("c1v").play("e5-e4")
    assert "walls White: c1v" in state.to_text()
    assert {"a1-b1", "a1-c1"} <= moves(state) and "a1-d1" not in moves(state)
    assert "c2v" in moves(state)  # one cell-edge long: c2v does not overlap c1v


# Properties over random games ------------------------------------------------------------------


def model_walls(state) -> set[frozenset[str]]:
    """The blocked cell pairs, from the position text's walls (each two cells long)."""
    blocked: set[frozenset[str]] = set()
    for line in state.to_text().splitlines():
        if line.startswith("walls "):
            for word in line.split(":", 1)[1].split():
                col, row, way = "abcdefghi".index(word[0]), int(word[1:-1]), word[-1]
                for i in range(2):
                    if way == "h":
                        a, b = (col + i, row), (col + i, row + 1)
                    else:
                        a, b = (col, row + i), (col + 1, row + i)
                    blocked.add(frozenset((f"{'abcdefghi'[a[0]]}{a[1]}",
                                           f"{'abcdefghi'[b[0]]}{b[1]}")))
    return blocked


def model_path(start: str, goal_row: int, blocked: set[frozenset[str]]) -> bool:
    seen, frontier = {start}, [start]
    while frontier:
        cell = frontier.pop()
        if int(cell[1:]) == goal_row:
            return True
        c, r = "abcdefghi".index(cell[0]), int(cell[1:])
        for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            if 0 <= c + dc < 9 and 1 <= r + dr <= 9:
                other = f"{'abcdefghi'[c + dc]}{r + dr}"
                if other not in seen and frozenset((cell, other)) not in blocked:
                    seen.add(other)
                    frontier.append(other)
    return False


def pawns(state) -> dict[str, str]:
    rows = state.to_text().splitlines()[:9]
    return {f"{'abcdefghi'[c]}{9 - r}": ch for r, row in enumerate(rows)
            for c, ch in enumerate(row.split()) if ch != "."}


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000))
def test_random_games_keep_every_path_open(seed: int) -> None:
    """In every position of a random game each pawn has a path to its goal row (the model's
    search), no two walls cross or overlap (the model's blocked pairs are twice the walls),
    no player holds more than 10, and a pawn move never crosses a wall."""
    game = quoridor(limit=200)
    rng = random.Random(seed)
    state = game.initial_state()
    while not state.is_over:
        blocked = model_walls(state)
        text = state.to_text()
        walls = sum(len(line.split(":", 1)[1].split()) for line in text.splitlines()
                    if line.startswith("walls "))
        assert len(blocked) == 2 * walls
        for line in text.splitlines():
            if line.startswith("walls "):
                assert len(line.split(":", 1)[1].split()) <= 10
        where = {v: k for k, v in pawns(state).items()}
        assert model_path(where["W"], 1, blocked) and model_path(where["B"], 9, blocked)
        for m in pawn_moves(state):
            a, b = m.split("-")
            assert frozenset((a, b)) not in blocked
        state = state.play(rng.choice(state.legal_moves()))


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10_000))
def test_every_wall_refused_would_cut_a_path_or_meets_a_wall(seed: int) -> None:
    """Every wall place not offered either meets a wall already there or, by the model,
    would leave a pawn without a path; every wall offered leaves both paths open."""
    game = quoridor()
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(rng.randrange(5, 40)):
        if state.is_over:
            return
        walls = [m for m in state.legal_moves() if str(m)[-1] in "hv"]
        state = state.play(rng.choice(walls or state.legal_moves()))
    if state.is_over:
        return
    blocked = model_walls(state)
    where = {v: k for k, v in pawns(state).items()}
    offered = {m for m in moves(state) if m[-1] in "hv"}
    left = 10 - sum(len(line.split(":", 1)[1].split()) for line in state.to_text().splitlines()
                    if line.startswith(f"walls {state.mover}:"))
    for c in "abcdefgh":
        for r in range(1, 9):
            for way in "hv":
                name = f"{c}{r}{way}"
                alone = game.from_text(f"{EMPTY}\nmover: White\nwalls White: {name}\n")
                pairs = model_walls(alone)
                meets = bool(pairs & blocked)
                cuts = not (model_path(where["W"], 1, blocked | pairs)
                            and model_path(where["B"], 9, blocked | pairs))
                if left <= 0:
                    assert name not in offered
                elif name in offered:
                    assert not meets and not cuts, name
                elif not meets and not cuts:
                    # not offered, though it meets no wall: it must cross one (same middle)
                    other = f"{c}{r}{'v' if way == 'h' else 'h'}"
                    assert other in state.to_text(), name
