"""Race games (stdlib/race.py): a role's way round a circuit to its home column, bringing
pieces in from the yard, moving them by the die, captures that send pieces back to the yard,
no jumping where forbidden, and another turn on a given roll. Games: games/maedn.game (whose
comparison with OpenSpiel is tests/test_oracle_maedn.py) and small ones written here.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import load_game, parse_game

ROOT = Path(__file__).resolve().parent.parent
MAEDN = ROOT / "games" / "maedn.game"

EMPTY_BOARD = """\
. .     . . .     . .
. .     . . .     . .
        . . .
        . . .
. . . . . . . . . . .
. . . . .   . . . . .
. . . . . . . . . . .
        . . .
        . . .
. .     . . .     . .
. .     . . .     . ."""


def board(pieces: dict[str, str]) -> str:
    """The MÄDN board with the given pieces ({site: symbol}), as position text rows."""
    game = load_game(MAEDN)
    rows = [row.split() for row in EMPTY_BOARD.splitlines()]
    names = iter(game.sites)
    cells: dict[str, tuple[int, int]] = {}
    for r, row in enumerate(rows):
        for c in range(len(row)):
            cells[next(names)] = (r, c)
    for site, symbol in pieces.items():
        r, c = cells[site]
        rows[r][c] = symbol
    lines = EMPTY_BOARD.splitlines()
    out = []
    for line, row in zip(lines, rows, strict=True):
        it = iter(row)
        out.append("".join(next(it) if ch == "." else ch for ch in line))
    return "\n".join(out) + "\n"


def position(pieces: dict[str, str], die: int, mover: str = "Red", **options: object) -> object:
    game = load_game(MAEDN, **options)
    return game.from_text(board(pieces) + f"mover: {mover}\ndecision: 2\ndice: {die}\n")


RED_YARD = {"a11": "R", "b11": "R", "a10": "R", "b10": "R"}
BLUE_YARD = {"j1": "B", "k1": "B", "j2": "B", "k2": "B"}


def moves(state: object) -> list[str]:
    return [str(m) for m in state.legal_moves()]  # type: ignore[attr-defined]


def test_the_way_round_is_the_circuit_from_the_start_then_the_home_column() -> None:
    game = load_game(MAEDN)
    red, blue = (game.env.tracks["Track"][r][0] for r in range(2))
    assert [game.sites[s] for s in red[:3]] == ["a7", "b7", "c7"]
    assert [game.sites[s] for s in red[38:]] == ["a5", "a6", "b6", "c6", "d6", "e6"]
    assert [game.sites[s] for s in blue[:2]] == ["k5", "j5"]
    assert [game.sites[s] for s in blue[38:]] == ["k7", "k6", "j6", "i6", "h6", "g6"]
    north = load_game(MAEDN, opposite=False).env.tracks["Track"][1][0]
    assert game.sites[north[0]] == "g11"


def test_only_a_six_brings_a_piece_in_and_it_must() -> None:
    assert moves(position({**RED_YARD, **BLUE_YARD}, 5)) == ["pass"]
    assert moves(position({**RED_YARD, **BLUE_YARD}, 6)) == ["b10-a7"]
    # With a piece out on the circuit, a 6 still must bring another in.
    yard = {"a11": "R", "b11": "R", "a10": "R", "e9": "R"}
    assert moves(position({**yard, **BLUE_YARD}, 6)) == ["a10-a7"]


def test_the_start_field_is_cleared_first_unless_its_way_is_blocked() -> None:
    yard = {"a11": "R", "b11": "R", "a10": "R", "a7": "R", "e9": "R"}
    assert moves(position({**yard, **BLUE_YARD}, 3)) == ["a7-d7"]
    assert moves(position({**yard, **BLUE_YARD}, 2)) == ["a7-c7"]
    # A 6 would take it onto e9, its own: then no piece comes in, and any piece moves.
    assert moves(position({**yard, **BLUE_YARD}, 6)) == ["e9-g9"]
    blocked = {**yard, "d7": "R"}
    del blocked["e9"]
    assert moves(position({**blocked, **BLUE_YARD}, 3)) == ["d7-e9"]


def test_landing_on_an_enemy_sends_it_back_to_its_yard() -> None:
    blue_yard = {"j1": "B", "k1": "B", "j2": "B"}
    state = position({**RED_YARD, "a7": "R", **blue_yard, "d7": "B"}, 3)
    assert moves(state) == ["a7-d7"]
    after = state.play("a7-d7")  # type: ignore[attr-defined]
    rows = after.to_text().splitlines()
    assert rows[4].split()[:4] == [".", ".", ".", "R"]  # d7 is Red's now
    assert rows[9].split()[-2:] == ["B", "B"] and rows[10].split()[-2:] == ["B", "B"]
    assert after.game.from_text(after.to_text()).to_text() == after.to_text()


def test_home_by_an_exact_count_and_own_pieces_are_not_landed_on() -> None:
    pieces = {"a5": "R", "e6": "R", "d6": "R", **BLUE_YARD}
    # a5 is 38 along Red's way; its home is 40-43: a 6 would go past it, a 5 lands on d6.
    assert moves(position(pieces, 6)) == ["pass"]
    assert moves(position(pieces, 5)) == ["pass"]  # e6 is its own
    assert moves(position(pieces, 4)) == ["pass"]
    assert moves(position(pieces, 3)) == ["a5-c6"]


def test_jumping_in_the_home_column_follows_the_option() -> None:
    pieces = {"b6": "R", "d6": "R", "e9": "R", "e10": "R", **BLUE_YARD}
    assert "b6-e6" in moves(position(pieces, 3))
    assert "b6-e6" not in moves(position(pieces, 3, jump=False))
    assert "b6-c6" in moves(position(pieces, 1, jump=False))


def test_a_six_gives_another_turn_even_after_a_pass() -> None:
    pieces = {"e6": "R", "d6": "R", "c6": "R", "a6": "R", **BLUE_YARD}
    state = position(pieces, 6)
    assert moves(state) == ["pass"]
    after = state.play("pass")  # type: ignore[attr-defined]
    assert after.is_chance and after.play("roll:2").mover == "Red"
    moved = position({**RED_YARD, "a7": "R", **BLUE_YARD}, 6).play("a7-e9")  # type: ignore[attr-defined]
    assert moved.play("roll:1").mover == "Red"
    other = position({**RED_YARD, "a7": "R", **BLUE_YARD}, 5).play("a7-e8")  # type: ignore[attr-defined]
    assert other.play("roll:1").mover == "Blue"


def test_the_first_to_fill_their_home_wins() -> None:
    pieces = {"e6": "R", "d6": "R", "c6": "R", "a6": "R", **BLUE_YARD}
    won = position(pieces, 1).play("a6-b6")  # type: ignore[attr-defined]
    assert won.winner == "Red"


def test_random_games_end_with_a_winner() -> None:
    game = load_game(MAEDN)
    found = game.playouts(20, seed=5)
    assert all(w in ("Red", "Blue") for w in found.winners)
    rng = random.Random(3)
    state = load_game(MAEDN, jump=False).initial_state()
    while not state.is_over:
        state = state.play(rng.choice(state.legal_moves()))


SMALL = """(game "Small race"
  (players {(player "A" symbol:"A") (player "B" symbol:"B")})
  (board (square 4))
  (circuit "Way" {"a1" "b1" "c1" "d1" "d2" "d3" "d4" "c4" "b4" "a4" "a3" "a2"} start:"b1"
           exit:"b4" home:{"b2" "c2"} owner:"A")
  (circuit "Way" {"a1" "b1" "c1" "d1" "d2" "d3" "d4" "c4" "b4" "a4" "a3" "a2"} start:"c4"
           home:{"c3" "b3"} owner:"B")
  (region "Yard" (sites {"a1"}) owner:"A")
  (region "Yard" (sites {"d4"}) owner:"B")
  (start (put "A" (sites {"a1"})) (put "B" (sites {"d4"})))
  (play (roll 1 faces:6)
        (first-of (bring-in "Way" from:(sites Named "Yard") capture-to:"Yard")
                  (advance "Way" capture-to:"Yard") (pass)))
  (end (if (reached "A" (sites {"c2"})) (win "A")) (if (reached "B" (sites {"b3"})) (win "B"))))
"""


def test_a_circuit_may_leave_the_loop_early_and_entry_may_count_from_the_yard() -> None:
    game = parse_game(SMALL)
    way = [game.sites[s] for s in game.env.tracks["Way"][0][0]]
    assert way == ["b1", "c1", "d1", "d2", "d3", "d4", "c4", "b4", "b2", "c2"]
    state = game.initial_state().play("roll:3")
    assert moves(state) == ["a1-d1"]  # the yard counts as the site before b1
    assert game.playouts(10, seed=1).winners


@pytest.mark.parametrize(("text", "message"), [
    ('start:"z9"', "start: z9 is not a site of the circuit"),
    ('exit:"z9"', "exit: z9 is not a site of the circuit"),
])
def test_a_circuit_names_its_sites(text: str, message: str) -> None:
    bad = SMALL.replace('exit:"b4"', text) if "exit" in text else \
        SMALL.replace('start:"b1"', text)
    with pytest.raises(Exception, match=message):
        parse_game(bad)


def test_capture_to_names_a_region() -> None:
    with pytest.raises(Exception, match='capture-to: no region named "Pen"'):
        parse_game(SMALL.replace('(advance "Way" capture-to:"Yard")',
                                 '(advance "Way" capture-to:"Pen")'))


def test_the_two_dice_example_uses_each_die_in_turn() -> None:
    game = load_game(ROOT / "examples" / "two-dice-race.game")
    state = game.initial_state().play("roll:1,3")
    assert moves(state) == ["a1-b1", "a1-d1"]  # a 1 enters on the start, a 3 two sites on
    after = state.play("a1-b1")
    assert after.mover == "A" and after.dice == (3,)
    assert moves(after) == ["a2-d1", "b1-d2"]
    assert after.play("b1-d2").is_chance
    found = game.playouts(30, seed=2)
    assert sum(w is not None for w in found.winners) >= 25
