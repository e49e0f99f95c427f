"""What positions keep up to date move by move (trackers: connected groups, bit masks, fitting
groups) never changes a verdict: along random games of every game file, the legal moves and
the end of the game are the same when every ludeme works them out from the board alone."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.game import Game, State

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted(p.name for p in (ROOT / "games").glob("*.game"))


def from_scratch(game: Game, state: State) -> State:
    """A copy of `state` whose ludemes may not use trackers: its board counts as a move being
    tried out (see Env.track), so each ludeme judges from the board itself."""
    copy = game._successor(state)
    copy.result = None
    copy.trial = 1
    copy.verdicts = {}
    return copy


@pytest.mark.parametrize("name", GAMES)
def test_trackers_agree_with_the_board(name: str) -> None:
    game = load_game(str(ROOT / "games" / name))
    rng = random.Random(name)
    games = 3 if name == "mattock.game" else 6
    for _ in range(games):
        state = game.initial_state()
        plies = 0
        while not state.is_over and plies < 400:
            moves = [str(m) for m in state.legal_moves()]
            assert moves == [str(m) for m in game.generate(from_scratch(game, state))]
            if not moves:
                break
            before, text = state, state.to_text()
            state = state.play(rng.choice(moves))
            plies += 1
            # play copied what it changed: the old position still answers as it did
            assert before.to_text() == text
            assert [str(m) for m in game.generate(before)] == moves
            if state.step == 0:  # a turn ended: the end conditions were judged
                again = game.settle(from_scratch(game, state), game.previous(state.to_move))
                assert (again.result, again.reason) == (state.result, state.reason)
