"""Backgammon (games/backgammon.game) and the general ludemes it is written with: stacks of a
role's pieces ((player ... pile:true)), the tables board, (move-by-die ...) with blocks:,
bar: and off:, (max-dice ...), and the opening roll ((roll ... opening:true)). The move-by-move
comparison with OpenSpiel is tests/test_oracle_backgammon.py."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from interpreter import IllegalMoveError, load_game, parse_game
from interpreter.game import Game, State

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "games" / "backgammon.game"
TOP = ["13", "14", "15", "16", "17", "18", "barN", "19", "20", "21", "22", "23", "24"]
BOTTOM = ["12", "11", "10", "9", "8", "7", "barS", "6", "5", "4", "3", "2", "1"]


def backgammon(**options: object) -> Game:
    return load_game(GAME, **options)


def position(game: Game, cells: dict[str, str], mover: str, dice: str) -> State:
    """A position mid-turn (the dice rolled): `cells` maps points to stacks (`W3`, `B`)."""
    rows = [" ".join(cells.get(p, ".") for p in row) for row in (TOP, BOTTOM)]
    return game.from_text("\n".join(rows) + f"\nmover: {mover}\ndecision: 2\nturns: 5\n"
                          f"dice: {dice}\n")


def turns(game: Game, state: State) -> set[tuple[str, ...]]:
    """Every whole turn from a position mid-turn: the sequences of the mover's moves."""
    role, out = state.to_move, set()

    def walk(prefix: tuple[str, ...]) -> None:
        if state.is_over or state.is_chance or state.to_move != role:
            out.add(prefix)
            return
        for move in state.legal_moves():
            made = game.make(state, move)
            walk((*prefix, str(move)))
            game.unmake(state, made)
    walk(())
    return out


# Stacks of a role's pieces ------------------------------------------------------------------------


def test_the_start_position_as_text_round_trips() -> None:
    game = backgammon()
    state = game.initial_state()
    assert state.to_text() == ("W5 . . . B3 . . B5 . . . . W2\n"
                               "B5 . . . W3 . . W5 . . . . B2\nmover: White\n")
    assert game.from_text(state.to_text()).to_text() == state.to_text()
    assert state.piece_at("13") == "White" and state.piece_at("7") is None
    assert game.sites[:7] == ("13", "14", "15", "16", "17", "18", "barN")


def test_stacks_are_any_roles_and_read_as_counts() -> None:
    text = """(game "Stacks"
      (players {(player "A" symbol:"A" pile:true)
                (player "B" symbol:"B" kinds:{(piece "Tower" symbol:"T" pile:true)})})
      (board (square 2))
      (start (put "A" (sites {"a1"}) count:3) (put "B" (sites {"b2"}) count:2 piece:"Tower"))
      (play (pass))
      (end (if (= (pieces-in (sites Occupied Mover)) 9) (win Mover))))"""
    game = parse_game(text)
    state = game.initial_state()
    assert state.to_text().splitlines()[:2] == [". T2", "A3 ."]
    again = game.from_text("A12 .\n. T\nmover: B\n")
    assert again.piece_at("a2") == "A" and again.piece_at("b1") == "Tower"
    with pytest.raises(Exception, match="unknown symbol"):
        game.from_text("Q3 .\n. .\nmover: A\n")


# Moving checkers ----------------------------------------------------------------------------------


def test_the_opening_roll_decides_who_starts_and_is_played() -> None:
    state = backgammon().initial_state()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 30 and {p for _, p in outcomes} == {Fraction(1, 30)}
    assert "roll:3,3" not in [str(m) for m, _ in outcomes]
    white = state.play("roll:6,1")  # White's die is higher
    assert white.mover == "White" and sorted(white.dice) == [1, 6]
    assert {"13-7", "8-7", "24-18", "24-23"} <= {str(m) for m in white.legal_moves()}
    black = state.play("roll:1,6")
    assert black.mover == "Black" and sorted(black.dice) == [1, 6]
    after = black.play("12-18").play("17-18")
    assert after.is_chance and len(after.chance_outcomes()) == 21  # then ordinary rolls
    assert after.play("roll:2,2").dice == (2, 2, 2, 2) and after.play("roll:2,2").mover == "White"


def test_a_blot_is_hit_to_the_bar_and_must_enter_first() -> None:
    game = backgammon()
    state = position(game, {"13": "W2", "10": "B", "6": "W13"}, "White", "3 5")
    hit = state.play("13-10")
    assert hit.to_text().splitlines()[0].split()[6] == "."  # White's half of the bar
    assert hit.to_text().splitlines()[1].split()[2] == "W" and \
        hit.to_text().splitlines()[1].split()[6] == "B"  # the blot on Black's half
    # Black, on the bar, must enter before moving anything else: in White's home (1-6).
    black = position(game, {"barS": "B", "20": "B14", "6": "W2", "3": "W13"}, "Black", "3 6")
    assert [str(m) for m in black.legal_moves()] == []  # 3 and 6 are both made points
    black = position(game, {"barS": "B", "20": "B14", "6": "W2", "4": "W13"}, "Black", "3 6")
    assert [str(m) for m in black.legal_moves()] == ["bar-3"]
    assert black.play("bar-3").to_text() == black.play("barS-3").to_text()  # its site's name
    with pytest.raises(IllegalMoveError):
        black.play("20-23")


def test_blocked_points_and_stacking() -> None:
    game = backgammon()
    state = position(game, {"13": "W", "10": "B2", "8": "W", "6": "W13"}, "White", "3 5")
    moves = {str(m) for m in state.legal_moves()}
    assert "13-10" not in moves and "13-8" in moves and "8-3" in moves
    assert state.play("13-8").to_text().splitlines()[1].split()[4] == "W2"


def test_both_dice_must_be_used_when_they_can() -> None:
    game = backgammon()
    # 6-5 with one checker free: 24-18 then 18-13 uses both; 24-19 first leaves 19-13 blocked
    # (B2 on 13) but 19-14 open... so both orders are legal here.
    state = position(game, {"24": "W", "13": "B2", "18": "B2", "1": "W14"}, "White", "5 6")
    # 24-18 is blocked, 24-19 then 19-13 is blocked too: only the 5 can be used.
    assert turns(game, state) == {("24-19",)}
    # With 20 blocked instead, 24-18-13 is the only way to use both dice.
    state = position(game, {"24": "W", "19": "B2", "1": "W14"}, "White", "5 6")
    assert turns(game, state) == {("24-18", "18-13")}


def test_the_larger_die_when_only_one_can_be_used() -> None:
    game = backgammon()
    # 6-2: either die alone can be played (24-18 or 24-22), but not both: the 6 must be.
    state = position(game, {"24": "W", "16": "B2", "20": "B2", "1": "W14"}, "White", "2 6")
    assert turns(game, state) == {("24-18",)}
    assert "the larger one" in str(pytest.raises(IllegalMoveError, state.play, "24-22").value)
    variant = parse_game(GAME.read_text().replace(
        '(move-by-die "Way" blocks:2 bar:"Bar" off:(= (count ("Outside" Mover)) 0))',
        '(move-by-die "Way" blocks:2 bar:"Bar" off:(= (count ("Outside" Mover)) 0)) '
        'larger:false'))
    assert turns(variant, position(variant, {"24": "W", "16": "B2", "20": "B2", "1": "W14"},
                                   "White", "2 6")) == {("24-18",), ("24-22",)}


def test_a_double_is_four_moves_and_as_many_as_possible() -> None:
    game = backgammon()
    state = position(game, {"24": "W", "8": "B2", "1": "W14"}, "White", "4 4 4 4")
    # 24-20-16-12: the fourth 4 would land on 8 (blocked); 1 can't move 4 (off needs home).
    assert turns(game, state) == {("24-20", "20-16", "16-12")}


def test_bearing_off_exact_and_higher() -> None:
    game = backgammon()
    state = position(game, {"5": "W2", "2": "W13", "20": "B15"}, "White", "3 6")
    whole = turns(game, state)
    assert ("5-off", "5-2") in whole and ("5-off", "5-off") not in whole
    assert ("5-2", "5-off") in whole  # after 5-2, the 6 bears off the rearmost, 5
    outside = position(game, {"7": "W", "5": "W", "2": "W13", "20": "B15"}, "White", "5 6")
    assert "5-off" not in {str(m) for m in outside.legal_moves()}  # 7 is outside home


def test_bearing_off_the_last_checker_wins_and_scores_the_loser() -> None:
    game = backgammon()
    win = position(game, {"1": "W", "20": "B15"}, "White", "1 2")
    done = win.play("1-off")
    assert done.winner == "White" and done.outcome.reason == "gammon"  # type: ignore[union-attr]
    back = position(game, {"1": "W", "5": "B", "20": "B14"}, "White", "1 2").play("1-off")
    assert back.outcome.reason == "backgammon"  # type: ignore[union-attr]
    single = position(game, {"1": "W", "20": "B14"}, "White", "1 2").play("1-off")
    assert single.outcome.reason == "all checkers borne off"  # type: ignore[union-attr]


def test_notation_reads_back_and_bad_moves_say_why() -> None:
    game = backgammon()
    state = position(game, {"5": "W2", "2": "W13", "barS": "B", "20": "B14"}, "White", "3 6")
    for move in state.legal_moves():
        assert game.find(state, str(move)) is move
    with pytest.raises(IllegalMoveError):
        state.play("bar-22")  # White has nobody on the bar
    with pytest.raises(IllegalMoveError, match="no site 30"):
        state.play("30-off")


def test_a_double_is_judged_over_all_four_dice() -> None:
    game = backgammon()
    # 2-2-2-2: 10-8-6 brings the last checker home; then 2s bear off (6-4 is not off).
    state = position(game, {"10": "W", "2": "W2", "20": "B15"}, "White", "2 2 2 2")
    whole = turns(game, state)
    assert all(len(t) == 4 for t in whole)
    assert ("10-8", "8-6", "2-off", "2-off") in whole and ("10-8", "8-6", "6-4", "4-2") in whole


def test_random_games_end() -> None:
    found = backgammon().playouts(6, seed=3)
    assert all(w is not None for w in found.winners[:3]) or found.reasons


def test_max_dice_and_opening_refuse_what_does_not_fit() -> None:
    bad = GAME.read_text().replace("(roll 2 faces:6 doubles:2 opening:true)",
                                   "(roll 3 faces:6 doubles:2 opening:true)")
    with pytest.raises(Exception, match="one die per role"):
        parse_game(bad)
    bad = GAME.read_text().replace('(region "Bar" (sites {"barN"}) owner:"White")',
                                   '(region "Bar" (sites {"13"}) owner:"White")')
    with pytest.raises(Exception, match="first of its track"):
        parse_game(bad)
