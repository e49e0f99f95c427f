"""The OpenSpiel adapter makes actions on its own position in place, yet a clone, or a ludeme
State it has handed out, never changes when the game goes on."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

pytest.importorskip("pyspiel", reason="open_spiel is not installed (pip install -e '.[openspiel]')")

import interpreter.openspiel as ospiel  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("name", ["chess.game", "go.game", "hex.game", "kalah.game"])
def test_clones_and_handed_out_states_do_not_change(name: str) -> None:
    game = ospiel.load(str(ROOT / "games" / name))
    rng = random.Random(name)
    state = game.new_initial_state()
    for _ in range(6):
        state.apply_action(rng.choice(state.legal_actions()))
    clone = state.clone()
    held = state.ludeme
    text, clone_text = held.to_text(), str(clone)
    for _ in range(6):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    assert held.to_text() == text
    assert str(clone) == clone_text
    replay = game.new_initial_state()
    for action in state.history():
        replay.apply_action(action)
    assert str(replay) == str(state)
