"""The optional parts of the ludeme ↔ engine protocol only make a game faster, never change
it: along random games of every game file, the legal moves are the same when no step offers
a screen (stdlib.steps.Step.screen), so every move of a decision followed by (forbid ...) is
tried on the board."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import load_game
from stdlib.steps import Step

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted(str(p.relative_to(ROOT)) for p in [*(ROOT / "games").glob("*.game"),
                                                   *(ROOT / "examples").glob("*.game")])


def no_screen(self: Step, ctx: object) -> None:
    return None


@pytest.mark.parametrize("path", FILES)
def test_legal_moves_are_the_same_without_screens(path: str,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    game = load_game(str(ROOT / path))
    rng = random.Random(path)
    state = game.initial_state()
    plies = 0
    screened = [type(step) for steps in game.turns for is_decision, step in steps
                if not is_decision and type(step).screen is not Step.screen]
    while not state.is_over and plies < 80:
        moves = [str(m) for m in state.legal_moves()]
        if screened:
            with monkeypatch.context() as m:
                for cls in screened:
                    m.setattr(cls, "screen", no_screen)
                tried = [str(mv) for mv in game.generate(state, {})]  # listed afresh
            assert tried == moves, f"{path}, ply {plies}:\n{state.to_text()}"
        if not moves:
            break
        state = state.play(rng.choice(moves))
        plies += 1
