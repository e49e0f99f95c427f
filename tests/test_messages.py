"""The messages a designer reads: why a move is refused, how an end condition is named when it
ends a game, what `(stuck ...)` says, how long games are in reports (turns, not forced passes),
and `(full)` on a board with special sites."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from console import ludeme

from interpreter import IllegalMoveError, load_game, parse_game
from interpreter.analyze import Turns, analyze, ending_name, ending_names
from interpreter.cli import random_games
from stdlib.parts import mark


def game_text(*, players: str = '(player "X") (player "O")', board: str = "(square 3)",
              special: str = "", play: str = "(place (sites Empty))",
              end: str = "(if (line 3) (win Mover))") -> str:
    return (f'(game "T"\n  (players {{{players}}})\n  (board {board})\n  {special}\n'
            f"  (play {play})\n  (end {end}))\n")


# Judged after the move is made: the site just placed on is occupied.
HOLDS = "(is Occupied To)"
FAILS = "(is Empty To)"


def refusal(filter_: str, move: str = "a1") -> str | None:
    """The message of the IllegalMoveError that playing `move` with a filtered placement
    raises (None if the move is allowed)."""
    game = parse_game(game_text(play=f"(place (sites Empty) {filter_})"), "t.game")
    try:
        game.initial_state().play(move)
    except IllegalMoveError as exc:
        return str(exc)
    return None


# --- refusals: named, not, and every combination ---------------------------------------------

@pytest.mark.parametrize("filter_, message", [
    # named under if: (the condition fails) and under unless: (it holds)
    (f'if:(named "suicide" {FAILS})', "a1: not suicide"),
    (f'unless:(named "suicide" {HOLDS})', "a1: suicide"),
    # named inside not
    (f'if:(not (named "suicide" {HOLDS}))', "a1: suicide"),
    (f'unless:(not (named "suicide" {FAILS}))', "a1: not suicide"),
    # nested not: says what the condition itself says
    (f'if:(not (not (named "suicide" {FAILS})))', "a1: not suicide"),
    (f'unless:(not (not (named "suicide" {HOLDS})))', "a1: suicide"),
    (f'if:(not (not (not (named "suicide" {HOLDS}))))', "a1: suicide"),
    # a description that is itself negative never gets a second "not"
    (f'if:(named "not suicide" {FAILS})', "a1: suicide"),
    (f'unless:(named "not suicide" {HOLDS})', "a1: not suicide"),
    (f'if:(not (named "not suicide" {HOLDS}))', "a1: not suicide"),
    (f'unless:(not (named "not suicide" {FAILS}))', "a1: suicide"),
    # a named negation is named
    (f'if:(named "suicide" (not {HOLDS}))', "a1: not suicide"),
    # and / or say the parts that decided: a failing and its part that failed (not one that
    # held), a holding or its alternative that held, a holding and each part
    (f'if:(and (named "safe" {HOLDS}) (named "quiet" {FAILS}))', "a1: not quiet"),
    (f'unless:(or (named "loud" {FAILS}) (named "suicide" {HOLDS}))', "a1: suicide"),
    (f'unless:(and (named "loud" {HOLDS}) (not (named "safe" {FAILS})))',
     "a1: loud and not safe"),
    # unnamed conditions say what they test
    ("if:(full)", "a1: the board is not full"),
    ("unless:(not (full))", "a1: the board is not full"),
    (f"unless:{HOLDS}", "a1: To is occupied"),
    (f"unless:(not {FAILS})", "a1: To is not empty"),
    ("if:(> (count (sites Empty)) 8)", "a1: the number of (sites Empty) is at most 8"),
])
def test_refusals_read_naturally(filter_: str, message: str) -> None:
    assert refusal(filter_) == message


def test_no_refusal_says_not_not() -> None:
    for inner in ('(named "suicide" X)', '(named "not suicide" X)', "(full)", "(line 3)"):
        for cond in (inner, f"(not {inner})", f"(not (not {inner}))"):
            for truth in (HOLDS, FAILS):
                text = cond.replace("X", truth)
                for kw in ("if:", "unless:"):
                    message = refusal(kw + text)
                    assert message is None or "not not" not in message, (kw, text, message)


# --- (stuck ...) ---------------------------------------------------------------------------

def end_reasons(players: str, end: str) -> list[str]:
    return parse_game(game_text(players=players, end=end), "t.game").end_reasons()


def test_stuck_is_described_by_its_roles_with_two_players() -> None:
    rules = " ".join(f"(if (stuck {r}) (draw))" for r in ("Next", "Mover", "All", '"O"'))
    assert end_reasons('(player "X") (player "O")', rules) == [
        "the opponent cannot move", "the mover cannot move", "neither player can move",
        "O cannot move"]


def test_stuck_is_described_by_its_roles_with_three_players() -> None:
    rules = " ".join(f"(if (stuck {r}) (draw))" for r in ("Next", "Prev", "Mover", "All",
                                                           '"B"'))
    assert end_reasons('(player "A") (player "B") (player "C")', rules) == [
        "the next player cannot move", "the previous player cannot move",
        "the mover cannot move", "no player can move", "B cannot move"]


def test_stuck_with_one_player_names_it() -> None:
    assert end_reasons('(player "Solo")', "(if (stuck Next) (draw)) (if (stuck All) (draw))") \
        == ["Solo cannot move", "Solo cannot move"]


def test_a_game_ended_by_stuck_says_who_cannot_move() -> None:
    game = parse_game(game_text(board="(square 1)", end="(if (stuck Next) (win Mover))"))
    state = game.initial_state().play("a1")
    assert state.outcome is not None
    assert (state.winner, state.outcome.reason) == ("X", "the opponent cannot move")


# --- end conditions in reports ---------------------------------------------------------------

def test_unnamed_end_conditions_are_described() -> None:
    game = parse_game(game_text(end="(if (line 3) (win Mover)) "
                                    "(if (and (full) (not (line 3))) (draw)) "
                                    "(if (= (count (sites Empty)) 0) (draw))"))
    assert game.end_reasons() == ["3 in a row", "the board is full and not 3 in a row",
                                  "the number of (sites Empty) is 0"]
    assert ending_names(game) == {}  # every one says what it is


def test_an_end_condition_without_a_description_is_named_with_its_rule() -> None:
    game = parse_game(game_text(end="(if (line 3) (win Mover)) (if (full) (draw))"))
    condition = game.end_rules[1].condition
    given = mark(condition)  # as a ludeme with no description would be:
    given.why = given.why_not = None
    raw = game.end_reasons()[1]
    assert raw == "(full)"
    assert ending_name(game, raw) == "(full) holds (end rule 2)"
    assert ending_name(game, "3 in a row") == "3 in a row"


def write(tmp_path: Path, text: str, name: str = "t.game") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_validate_and_analyze_name_end_conditions_by_their_descriptions(tmp_path: Path) -> None:
    path = write(tmp_path, game_text(end="(if (line 3) (win Mover)) "
                                          "(if (and (full) (not (line 3))) (draw))"))
    out = ludeme("validate", str(path), "--playouts", "40", "--seed", "1")
    assert out.returncode == 0, out.stderr
    assert "ended by 3 in a row: " in out.stdout
    assert "ended by the board is full and not 3 in a row: " in out.stdout
    assert "(line" not in out.stdout and "(and" not in out.stdout, out.stdout
    out = ludeme("analyze", str(path), "-n", "40", "--seed", "1", "--workers", "1")
    assert out.returncode == 0, out.stderr
    assert "ended by the board is full and not 3 in a row: " in out.stdout
    assert "(and" not in out.stdout, out.stdout


def test_never_ended_lists_each_description_once(tmp_path: Path) -> None:
    path = write(tmp_path, game_text(end="(if (line 3) (win Mover)) (if (line 3) (win Next)) "
                                          "(if (line 9) (draw))"))
    out = ludeme("validate", str(path), "--playouts", "10", "--seed", "1")
    assert out.stdout.count("never ended a game: 9 in a row") == 1, out.stdout


# --- lengths in turns ----------------------------------------------------------------------

# O can never place (a piece of O's anywhere refuses the move): each of O's turns is a
# forced pass, until X fills the 2x2 board: 4 turns, 7 decisions.
FORCED = game_text(board="(square 2)",
                   play='(first-of (place (sites Empty) unless:(reached "O" (sites Board))) '
                        "(pass))",
                   end="(if (full) (draw))")
# Two placements per turn (the second may be passed when no site is left).
TWO_STEPS = game_text(board="(square 2)",
                      play="(place (sites Empty)) (first-of (place (sites Empty)) (pass))",
                      end="(if (full) (draw))")


def turns_of(text: str) -> tuple[int, int]:
    """(turns, decisions) of one random game."""
    game = parse_game(text, "t.game")
    state, decisions, turns = game.initial_state(), 0, Turns()
    rng = random.Random(1)
    while not state.is_over:
        moves = state.legal_moves()
        turns.decided(state, moves)
        state = state.play(rng.choice(moves))
        decisions += 1
    return turns.count, decisions


def test_forced_passes_are_not_turns() -> None:
    assert turns_of(FORCED) == (4, 7)


def test_a_turn_of_several_decisions_is_one_turn() -> None:
    assert turns_of(TWO_STEPS) == (2, 4)


def test_a_swap_is_a_turn() -> None:
    hex3 = load_game(Path(__file__).resolve().parent.parent / "games" / "hex.game", size=3,
                     pie=True)
    state, turns = hex3.initial_state(), Turns()
    for move in ("a1", "swap", "b2"):
        turns.decided(state, state.legal_moves())
        state = state.play(move)
    assert turns.count == 3


def test_playout_report_counts_turns() -> None:
    report = random_games(parse_game(FORCED, "t.game"), 5, seed=1)
    assert report.lengths == [4] * 5 and report.decisions == [7] * 5
    line = [x for x in report.lines(parse_game(FORCED, "t.game")) if "length" in x]
    assert line == ["  length: mean 4.0, min 4, max 4 turns (7.0 decisions on average, "
                    "forced passes included)"]


def test_playout_report_without_forced_passes_says_turns_only(tmp_path: Path) -> None:
    out = ludeme("playout", str(write(tmp_path, game_text())), "-n", "10", "--seed", "2")
    assert out.returncode == 0, out.stderr
    assert re.search(r"^  length: mean [\d.]+, min \d+, max \d+ turns$", out.stdout, re.M), \
        out.stdout


def test_analyze_reports_turns_and_keeps_length_in_decisions(tmp_path: Path) -> None:
    s = analyze(parse_game(FORCED, "t.game"), "random", 4, seed=1, workers=1).summary()
    assert s["turns"] == {"mean": 4.0, "min": 4, "max": 4}
    assert s["length"] == {"mean": 7.0, "min": 7, "max": 7}  # as before: decisions
    out = ludeme("analyze", str(write(tmp_path, FORCED)), "-n", "4", "--seed", "1",
                 "--workers", "1")
    assert "length: mean 4.0, min 4, max 4 turns (7.0 decisions" in out.stdout, out.stdout
    data = json.loads(ludeme("analyze", str(tmp_path / "t.game"), "-n", "4", "--seed", "1",
                             "--workers", "1", "--json").stdout)
    assert data["length"]["mean"] == 7.0 and data["turns"]["mean"] == 4.0


# --- (full) and special sites ----------------------------------------------------------------

HOLED = game_text(special='(special "hole" (sites {"b2"}) symbol:"*")',
                  end="(if (line 4) (win Mover)) (if (full) (draw))")


def test_full_ignores_special_sites() -> None:
    game = parse_game(HOLED, "t.game")
    state = game.initial_state()
    for move in ("a1", "b1", "c1", "a2", "c2", "a3", "b3"):
        state = state.play(move)
    assert not state.is_over
    state = state.play("c3")
    assert state.outcome is not None
    assert (state.winner, state.outcome.reason) == (None, "the board is full")
    assert game.from_text("X O X\nX * O\nO X .\nmover: X").outcome is None


def test_a_game_with_special_sites_draws_instead_of_getting_stuck() -> None:
    report = random_games(parse_game(HOLED, "t.game"), 20, seed=3)
    assert report.draws == 20 and not report.dead_ends


def test_full_with_specials_everywhere_but_one_site() -> None:
    text = game_text(board="(square 2)",
                     special='(special "hole" (sites {"a1" "b1" "a2"}) symbol:"*")',
                     end="(if (full) (draw))")
    state = parse_game(text, "t.game").initial_state().play("b2")
    assert state.outcome is not None and state.outcome.reason == "the board is full"


STUCK_FILTER = """(game "S" (players {(player "A") (player "B")}) (board (square 3))
  (play (place (sites Empty) unless:(stuck Next))) (end (if (full) (draw))))"""


def test_stuck_under_a_filter_looks_one_turn_ahead():
    # Judging B's moves would judge B's own filter, which asks whether A is stuck, and so on:
    # a (stuck ...) met while judging another counts as false, so this ends.
    game = parse_game(STUCK_FILTER, source="s.game")
    assert len(game.initial_state().legal_moves()) == 9


def test_stuck_under_a_filter_sees_the_board_after_the_move():
    game = parse_game(STUCK_FILTER, source="s.game")
    last = game.from_text("A B A\nB A B\nA B .\nmover: A")
    assert last.legal_moves() == []  # c1 would leave B no empty site
    with pytest.raises(IllegalMoveError, match="c1: the opponent cannot move"):
        last.play("c1")
