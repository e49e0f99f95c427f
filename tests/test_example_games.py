"""The variants in examples/: written purely as game files with the families' ludemes, each
loads, plays random games without a crash, and keeps the rules it states."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import IllegalMoveError, load_game

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
GAMES = sorted(EXAMPLES.glob("*.game"))


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_every_example_plays(path: Path) -> None:
    """Twenty seeded random games each: every move legal, every game either over or at the
    playout bound, the position text reading back the same at the end."""
    game = load_game(path)
    rng = random.Random(path.stem)
    for _ in range(20):
        state, plies = game.playout(rng)
        assert state.is_over or plies == 20 * len(game.sites) or not state.legal_moves()
        assert game.from_text(state.to_text()).to_text() == state.to_text()


def ayoayo(rows: tuple[str, str], mover: str = "South") -> object:
    return load_game(EXAMPLES / "ayoayo.game").from_text(f"{rows[0]}\n{rows[1]}\nmover: {mover}\n")


def test_ayoayo_relays_until_an_empty_house() -> None:
    """South sows c1's 2 seeds into d1 and e1; e1 held 1, so its 2 are lifted and sown into f1
    and f2; f2 held 3, so its 4 go on into e2, d2, c2 and b2, and b2 was empty: the turn ends
    there, on North's side, with no capture."""
    state = ayoayo((". . . . . 3", ". . 2 . 1 ."))
    after = state.play("c1")
    assert after.to_text().splitlines()[:2] == [". 1 1 1 1 .", ". . . 1 . 1"]
    assert after.mover == "North"


def test_ayoayo_captures_the_house_facing_an_empty_one_of_the_mover() -> None:
    """a1's single seed falls into b1, empty and South's: North's 3 seeds on b2 are taken."""
    state = ayoayo((". 3 . . 1 .", "1 . . . . ."))
    after = state.play("a1")
    assert after.to_text().splitlines()[:2] == [". . . . 1 .", ". 1 . . . ."]
    assert "score South: 3" in after.to_text()


def test_ayoayo_must_feed() -> None:
    state = ayoayo((". . . . . .", "1 . . . . 1"))
    assert [str(m) for m in state.legal_moves()] == ["f1"]
    with pytest.raises(IllegalMoveError, match="the opponent must be given seeds"):
        state.play("a1")


def test_six_mens_morris_takes_after_a_mill() -> None:
    game = load_game(EXAMPLES / "six-mens-morris.game")
    state = game.initial_state()
    for move in ("a1", "b2", "c1", "b4"):
        state = state.play(move)
    taking = state.play("e1")  # a1 c1 e1: a mill along the bottom
    assert taking.mover == "White"
    assert sorted(str(m) for m in taking.legal_moves()) == ["b2", "b4"]
    assert taking.play("b2").mover == "Black"


def test_los_alamos_pawns_step_once_and_promote_without_bishops() -> None:
    game = load_game(EXAMPLES / "los-alamos-chess.game")
    start = game.initial_state()
    moves = {str(m) for m in start.legal_moves()}
    assert "a2-a3" in moves and "a2-a4" not in moves
    assert len(moves) == 10  # six pawn steps and two moves for each knight
    promoting = game.from_text(". . . k . .\nP . . . . .\n. . . . . .\n. . . . . .\n"
                               ". . . . . .\n. . . K . .\nmover: White\n")
    assert sorted(str(m) for m in promoting.legal_moves() if str(m).startswith("a5")) == [
        "a5-a6=N", "a5-a6=Q", "a5-a6=R"]
