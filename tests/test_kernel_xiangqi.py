"""Xiangqi's kernel (games/xiangqi.game) against the interpreter, from position texts: the
lowerings of the cannon's screened slide ((slide ... over:1)), the lame leaps of the horse and
the elephant ((leap ... path: within:)), and their reverse attack tests in (attacked ...)
(stdlib/jumps.py): a check through exactly one screen, a horse blocked on its leg, the
generals facing each other, and the ends (checkmate, stalemate, perpetual check, the move
limit). tests/test_kernels.py replays random games; this pins the rules down one by one."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest

from interpreter import load_game
from interpreter.kernel import available, kernel_for, why_interpreted

pytestmark = pytest.mark.skipif(not available(), reason="numba (the kernels extra) is not "
                                "installed: pip install -e '.[kernels]'")

GAMES = Path(__file__).resolve().parent.parent / "games"
COLUMNS = "abcdefghi"


@cache
def xiangqi(openspiel: bool = False) -> Any:
    return load_game(GAMES / "xiangqi.game", openspiel=openspiel)


@cache
def kernel(openspiel: bool = False) -> Any:
    game = xiangqi(openspiel)
    assert why_interpreted(game) is None
    found = kernel_for(game)
    assert found is not None
    return found


def position(pieces: str, mover: str = "Red", openspiel: bool = False, extra: str = "") -> Any:
    """A position from `site:symbol` pairs (`e1:G e10:g`); every other point empty."""
    at = dict(pair.split(":") for pair in pieces.split())
    rows = [" ".join(at.get(f"{c}{r}", ".") for c in COLUMNS) for r in range(10, 0, -1)]
    return xiangqi(openspiel).from_text("\n".join(rows) + f"\nmover: {mover}\n{extra}")


def kernel_moves(state: Any, frm: str | None = None, openspiel: bool = False) -> set[str]:
    """The kernel's legal moves in the position (of the piece on `frm`), as notations; they
    must be the interpreter's."""
    game, k = xiangqi(openspiel), kernel(openspiel)
    have = k.legal_actions(k.encode(state))
    assert have == sorted(game.actions.encode(m) for m in state.legal_moves())
    names = {game.actions.notation(a) for a in have}
    return {n for n in names if frm is None or n.startswith(frm + "-")}


def kernel_play(state: Any, moves: list[str], openspiel: bool = False) -> Any:
    """The moves made in the kernel from the position, and in the interpreter: the boards,
    results and reasons agree after each; returns the kernel's state."""
    game, k = xiangqi(openspiel), kernel(openspiel)
    st = k.encode(state)
    for move in moves:
        actions = {game.actions.notation(a): a for a in k.legal_actions(st)}
        k.apply(st, actions[move])
        state = state.play(move)
        assert k.board(st) == list(state.board)
        assert k.result(st) == state.result
    return st


GENERALS = "e1:G d10:g"  # on different files: they do not face each other


def test_a_cannon_takes_over_exactly_one_screen() -> None:
    state = position(f"{GENERALS} b3:C b5:s b7:h b9:r b1:R")
    assert kernel_moves(state, "b3") == {"b3-b4", "b3-b2", "b3-a3", "b3-c3", "b3-d3", "b3-e3",
                                         "b3-f3", "b3-g3", "b3-h3", "b3-i3", "b3-b7"}
    assert "b3-b7" not in kernel_moves(position(f"{GENERALS} b3:C b5:s b7:H"), "b3")


def test_a_cannon_checks_through_exactly_one_screen() -> None:
    # In check over the soldier on e6: the general must leave the file.
    assert kernel_moves(position("d1:G e10:g e3:C e6:S a9:R", mover="Black")) == {"e10-f10"}
    # No screen, no check; a piece of its own stepping between would be the screen.
    quiet = position("d1:G e10:g e3:C h8:h", mover="Black")
    assert {"h8-g6", "h8-f7"} <= kernel_moves(quiet)
    assert "g9-e8" not in kernel_moves(position("d1:G e10:g e3:C g9:h", mover="Black"))
    # Two screens: neither may leave the file, which would leave exactly one.
    double = kernel_moves(position("d1:G e10:g e3:C e5:s e7:h", mover="Black"))
    assert not any(m.startswith("e7-") for m in double)
    assert not any(m.startswith("e5-") and m != "e5-e4" for m in double)


def test_a_horse_is_blocked_on_its_leg() -> None:
    free = kernel_moves(position(f"{GENERALS} e5:H"), "e5")
    assert free == {f"e5-{t}" for t in ("d7", "f7", "d3", "f3", "c6", "c4", "g6", "g4")}
    assert kernel_moves(position(f"{GENERALS} e5:H e6:s f5:S"), "e5") == {
        f"e5-{t}" for t in ("d3", "f3", "c6", "c4")}
    assert kernel_moves(position(f"{GENERALS} e5:H d6:S f4:S"), "e5") == free


def test_a_horse_checks_unless_its_leg_is_blocked() -> None:
    checked = kernel_moves(position("d1:G e10:g f8:H", mover="Black"))
    assert all(m.startswith("e10-") or m.endswith("-f9") or m.endswith("-f8") for m in checked)
    # The advisor on f9 is the horse's leg: it may not step away.
    assert "f9-e8" not in kernel_moves(position("d1:G e10:g f8:H f9:a", mover="Black"))


def test_an_elephant_is_blocked_on_its_eye_and_stays_on_its_side() -> None:
    assert kernel_moves(position(f"{GENERALS} c1:E"), "c1") == {"c1-a3", "c1-e3"}
    assert kernel_moves(position(f"{GENERALS} c1:E d2:s"), "c1") == {"c1-a3"}
    assert kernel_moves(position(f"{GENERALS} c5:E"), "c5") == {"c5-a3", "c5-e3"}
    assert kernel_moves(position("e1:G d10:g g6:e", mover="Black"), "g6") == {"g6-e8", "g6-i8"}


def test_the_palace_and_the_river() -> None:
    assert kernel_moves(position(f"{GENERALS} d1:A"), "d1") == {"d1-e2"}
    assert kernel_moves(position("d1:G f10:g"), "d1") == {"d1-d2", "d1-e1"}
    assert kernel_moves(position(f"{GENERALS} e4:S"), "e4") == {"e4-e5"}
    assert kernel_moves(position(f"{GENERALS} e6:S"), "e6") == {"e6-e7", "e6-d6", "e6-f6"}


def test_the_generals_may_not_face_each_other() -> None:
    state = position("e1:G e10:g e5:R")
    assert kernel_moves(state, "e5") == {f"e5-e{r}" for r in (2, 3, 4, 6, 7, 8, 9, 10)}
    assert "d1-e1" not in kernel_moves(position("d1:G e10:g"))
    assert "d1-d2" in kernel_moves(position("d1:G e10:g"))


def test_the_ends() -> None:
    k = kernel()
    st = kernel_play(position("e1:G d10:g a8:R"), ["a8-a9"])
    assert k.reason(st) == "stalemate" and k.result(st) == 0
    st = kernel_play(position("e1:G d10:g a9:R b1:R"), ["b1-b10"])
    assert k.reason(st) == "checkmate" and k.result(st) == 0
    checks = ["e10-e9", "a10-a9", "e9-e10", "a9-a10"]
    st = kernel_play(position("d1:G e10:g a8:R"), ["a8-a10"] + checks * 2)
    assert k.reason(st) == "perpetual check" and k.result(st) == 1
    st = kernel_play(position("d1:G e10:g a8:R", openspiel=True, extra="turns: 499"),
                     ["a8-a7"], openspiel=True)
    assert kernel(True).reason(st) == "the move limit"


def test_perft_from_the_start() -> None:
    k = kernel()
    assert [k.perft(k.start.copy(), depth) for depth in (1, 2, 3)] == [44, 1920, 79666]
