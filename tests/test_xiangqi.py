"""Xiangqi (games/xiangqi.game) rule by rule, from position texts, with the ludemes it is
written with: (slide ... over:1) for the cannon, (leap ... path:...) for the horse's leg and the
elephant's eye, within: for the palace and the river, from: for a soldier across the river,
and the generals' facing rule as an attack along the file. Also the published perft counts
and the position text read back as written. The comparison with OpenSpiel is in
tests/test_oracle_xiangqi.py."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from interpreter import load_game, parse_game
from interpreter.errors import IllegalMoveError
from tests.test_perft import perft

GAMES = Path(__file__).resolve().parent.parent / "games"
COLUMNS = "abcdefghi"


@cache
def xiangqi(openspiel: bool = False) -> Any:
    return load_game(GAMES / "xiangqi.game", openspiel=openspiel)


def position(pieces: str, mover: str = "Red", openspiel: bool = False, extra: str = "") -> Any:
    """A position from `site:symbol` pairs (`e1:G e10:g`); every other point empty."""
    at = dict(pair.split(":") for pair in pieces.split())
    rows = [" ".join(at.get(f"{c}{r}", ".") for c in COLUMNS) for r in range(10, 0, -1)]
    return xiangqi(openspiel).from_text("\n".join(rows) + f"\nmover: {mover}\n{extra}")


def moves(state: Any, frm: str | None = None) -> set[str]:
    """The legal moves (of the piece on `frm`), as notations."""
    return {str(m) for m in state.legal_moves() if frm is None or str(m).startswith(frm + "-")}


def refusal(state: Any, move: str) -> str:
    with pytest.raises(IllegalMoveError) as refused:
        state.play(move)
    return str(refused.value)


GENERALS = "e1:G d10:g"  # on different files: they do not face each other


# The start and perft -----------------------------------------------------------------------


# The published counts (chessprogramming.org, "Perft Results" of Xiangqi): 44, 1920, 79666.
@pytest.mark.parametrize("depth, expected", [(1, 44), (2, 1920), (3, 79666)])
def test_perft_from_the_start(depth: int, expected: int) -> None:
    assert perft(xiangqi().initial_state(), depth) == expected


@pytest.mark.slow
def test_perft_4_from_the_start() -> None:
    assert perft(xiangqi().initial_state(), 4) == 3290240


def test_the_start_position() -> None:
    text = xiangqi().initial_state().to_text()
    assert text.splitlines()[:4] == ["r h e a g a e h r", ". . . . . . . . .",
                                     ". c . . . . . c .", "s . s . s . s . s"]
    assert text.splitlines()[9:] == ["R H E A G A E H R", "mover: Red"]


# The pieces ----------------------------------------------------------------------------------


def test_a_cannon_moves_like_a_chariot_and_takes_over_exactly_one_screen() -> None:
    state = position(f"{GENERALS} b3:C b5:s b7:h b9:r b1:R")
    # Onto empty points up to the first piece; never onto it (no screen yet); beyond the
    # screen only onto the next piece, an enemy's; not over two screens.
    assert moves(state, "b3") == {"b3-b4", "b3-b2", "b3-a3", "b3-c3", "b3-d3", "b3-e3",
                                  "b3-f3", "b3-g3", "b3-h3", "b3-i3", "b3-b7"}
    assert refusal(state, "b3-b6").startswith("b3-b6:")
    own = position(f"{GENERALS} b3:C b5:s b7:H")
    assert "b3-b7" not in moves(own, "b3")


def test_a_horse_is_blocked_on_its_leg() -> None:
    free = position(f"{GENERALS} e5:H")
    assert moves(free, "e5") == {f"e5-{t}" for t in
                                 ("d7", "f7", "d3", "f3", "c6", "c4", "g6", "g4")}
    blocked = position(f"{GENERALS} e5:H e6:s f5:S")  # legs north (an enemy's) and east
    assert moves(blocked, "e5") == {f"e5-{t}" for t in ("d3", "f3", "c6", "c4")}
    # A piece on a diagonal point next to the horse blocks nothing.
    assert moves(position(f"{GENERALS} e5:H d6:S f4:S"), "e5") == moves(free, "e5")


def test_an_elephant_is_blocked_on_its_eye_and_stays_on_its_side() -> None:
    assert moves(position(f"{GENERALS} c1:E"), "c1") == {"c1-a3", "c1-e3"}
    assert moves(position(f"{GENERALS} c1:E d2:s"), "c1") == {"c1-a3"}
    assert moves(position(f"{GENERALS} c5:E"), "c5") == {"c5-a3", "c5-e3"}  # not a7, e7
    assert moves(position("e1:G d10:g g6:e", mover="Black"), "g6") == {"g6-e8", "g6-i8"}


def test_advisors_and_the_general_stay_in_the_palace() -> None:
    assert moves(position(f"{GENERALS} d1:A"), "d1") == {"d1-e2"}
    assert moves(position(f"{GENERALS} e2:A"), "e2") == {"e2-d1", "e2-f1", "e2-d3", "e2-f3"}
    assert moves(position("d1:G f10:g"), "d1") == {"d1-d2", "d1-e1"}
    assert moves(position("e1:G d10:g", mover="Black"), "d10") == {"d10-d9"}  # not e10


def test_a_soldier_goes_sideways_only_across_the_river() -> None:
    assert moves(position(f"{GENERALS} e4:S"), "e4") == {"e4-e5"}
    assert moves(position(f"{GENERALS} e6:S"), "e6") == {"e6-e7", "e6-d6", "e6-f6"}
    assert moves(position(f"{GENERALS} a10:S"), "a10") == {"a10-b10"}  # never backwards
    assert moves(position("e1:G d10:g e5:s", mover="Black"), "e5") == {"e5-e4", "e5-d5",
                                                                       "e5-f5"}


# Check, the generals, and the cannon's screens -------------------------------------------------


def test_the_generals_may_not_face_each_other() -> None:
    state = position("e1:G e10:g e5:R")
    assert moves(state, "e5") == {f"e5-e{r}" for r in (2, 3, 4, 6, 7, 8, 9)} | {"e5-e10"}
    assert "the general would be attacked, or face the other general" in refusal(state,
                                                                                "e5-d5")
    # Nor may a general step onto the other's open file.
    assert "d1-d2" in moves(position("d1:G e10:g")) and "d1-e1" not in moves(
        position("d1:G e10:g"))


def test_a_cannon_gives_check_over_a_screen() -> None:
    state = position("d1:G e10:g e3:C e6:S a9:R", mover="Black")
    # In check over the soldier on e6, with no piece to put between: the general must leave
    # the file, not to e9 (the chariot's rank) nor d10 (facing the red general).
    assert moves(state) == {"e10-f10"}
    # Without the screen, nothing attacks it, and a piece of its own put between would be
    # the screen that opens the cannon's line.
    quiet = position("d1:G e10:g e3:C h8:h", mover="Black")
    assert "h8-g6" in moves(quiet) and "h8-f7" in moves(quiet)
    opened = position("d1:G e10:g e3:C g9:h", mover="Black")
    assert "g9-e8" not in moves(opened)
    assert "attacked" in refusal(opened, "g9-e8")
    # Two pieces between: taking one of them away lets the cannon through.
    double = position("d1:G e10:g e3:C e5:s e7:h", mover="Black")
    assert not any(m.startswith("e7-") for m in moves(double))
    assert not any(m.startswith("e5-") and m != "e5-e4" for m in moves(double))


def test_a_horse_gives_check_unless_its_leg_is_blocked() -> None:
    checked = position("d1:G e10:g f8:H", mover="Black")
    assert all(m.startswith("e10-") or m.endswith("-f9") or m.endswith("-f8")
               for m in moves(checked))
    blocked = position("d1:G e10:g f8:H f9:a", mover="Black")
    assert "f9-e8" not in moves(blocked)  # the advisor is the leg: it may not step away


# The end -------------------------------------------------------------------------------------


def test_stalemate_loses() -> None:
    state = position("e1:G d10:g a8:R").play("a8-a9")
    assert state.is_over and state.outcome.reason == "stalemate" and state.winner == "Red"


def test_checkmate_loses() -> None:
    state = position("e1:G d10:g a9:R b1:R").play("b1-b10")
    assert state.is_over and state.outcome.reason == "checkmate" and state.winner == "Red"


# Red's chariot checks the black general from a10 and a9 in turn, back and forth.
CHECKS = ["e10-e9", "a10-a9", "e9-e10", "a9-a10"]


def test_perpetual_check_loses_and_other_repetitions_draw() -> None:
    state = position("d1:G e10:g a8:R")
    for move in ["a8-a10"] + CHECKS * 2:  # the position after a8-a10 for the third time
        assert not state.is_over
        state = state.play(move)
    assert state.outcome.reason == "perpetual check" and state.winner == "Black"
    state = xiangqi().initial_state()
    for move in ["h1-g3", "h10-g8", "g3-h1", "g8-h10"] * 2:
        assert not state.is_over
        state = state.play(move)
    assert state.outcome.reason == "repetition" and state.winner is None


def test_openspiel_has_no_repetition_rule_but_a_move_limit() -> None:
    state = position("d1:G e10:g a8:R", openspiel=True)
    for move in ["a8-a10"] + CHECKS * 4:
        state = state.play(move)
    assert not state.is_over
    last = position("d1:G e10:g a8:R", openspiel=True, extra="turns: 499").play("a8-a7")
    assert last.outcome.reason == "the move limit" and last.winner is None
    mate = position("e1:G d10:g a9:R b1:R", openspiel=True, extra="turns: 499")
    assert mate.play("b1-b10").outcome.reason == "checkmate"


# Position text -------------------------------------------------------------------------------


@pytest.mark.parametrize("openspiel", [False, True])
def test_position_text_reads_back_as_written(openspiel: bool) -> None:
    """Along two random games, every position's text read back is the same position: the
    same text and the same legal moves."""
    game = xiangqi(openspiel)
    rng = random.Random(5)
    for _ in range(2):
        state = game.initial_state()
        while not state.is_over:
            text = state.to_text()
            again = game.from_text(text)
            assert again.to_text() == text
            assert moves(again) == moves(state)
            state = state.play(rng.choice(state.legal_moves()))


# The ludemes, in other games -----------------------------------------------------------------

JANGGI_CANNONS = """
(game "Cannons"
  (players {(player "A" symbol:"C" forward:N) (player "B" symbol:"c" forward:S)})
  (board (square 5))
  (start (put "A" (sites {"a1"})) (put "B" (sites {"a5" "c1"})))
  (play (slide Orthogonal to:EmptyOrEnemy over:1))
  (end (if (stuck Next) (win Mover))))
"""


def test_a_slide_over_one_screen_to_empty_or_enemy() -> None:
    """over:1 with to:EmptyOrEnemy: only beyond the screen (a piece of either side), onto
    the empty points before the next piece and onto that piece if it is an enemy's (the
    janggi cannon); with to:Enemy only onto the piece (the xiangqi cannon's capture)."""
    game = parse_game(JANGGI_CANNONS, "cannons.game")
    state = game.from_text("c . . . .\n. . . . .\nc . . . .\n. . . . .\nC . C . .\nmover: A")
    # North: a3 is the screen, then a4 (empty) and a5 (an enemy); east: c1 (its own) is the
    # screen, then d1 and e1. The cannon on c1 has no screen in any direction.
    assert moves(state) == {"a1-a4", "a1-a5", "a1-d1", "a1-e1"}
    captures = parse_game(JANGGI_CANNONS.replace("EmptyOrEnemy", "Enemy"), "xiangqi-cannons")
    assert moves(captures.from_text(state.to_text())) == {"a1-a5"}


LAME = """
(game "Lame"
  (players {(player "A" symbol:"X") (player "B" symbol:"O")})
  (board (square 7))
  (start (put "A" (sites {"d4"})) (put "B" (sites {"d5" "e5"})))
  (play (leap 1 3 path:Diagonal))
  (end (if (stuck Next) (win Mover))))
"""


def test_a_lame_leap_goes_by_its_path() -> None:
    """(leap 1 3 path:Diagonal): one diagonal step then two straight, blocked by a piece on
    either point between."""
    state = parse_game(LAME, "lame.game").initial_state()
    # d4-e7 goes by e5 (a piece: blocked) and e6, d4-g5 by e5 and f5 (blocked); d4-c7 by c5
    # and c6, free. The piece on d5 is on no path.
    assert moves(state) == {"d4-c7", "d4-a5", "d4-a3", "d4-c1", "d4-e1", "d4-g3"}


@pytest.mark.parametrize("written, said", [
    ("(leap 1 3 path:Diagonal within:(sites Empty))",
     "within: must be a region that depends on nothing but the mover"),
    ("(leap 1 3 path:Forward)", "path: is Orthogonal (those steps first) or Diagonal"),
    ("(slide Orthogonal over:-1)", "over: needs 0 or more"),
])
def test_wrong_parameters_are_refused_where_written(written: str, said: str) -> None:
    from interpreter.errors import RuleError

    with pytest.raises(RuleError) as refused:
        parse_game(LAME.replace("(leap 1 3 path:Diagonal)", written), "bad.game")
    assert said in str(refused.value) and "bad.game:6:" in str(refused.value)
