"""Making moves in place and unmaking them (Game.make / Game.unmake), as search does: along
random games of every game file, a line of moves made in place reaches the same positions as
`play`, and unmaking it gives back the position exactly: its text, legal moves, result,
hash and history."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.game import Game, State

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted(str(p.relative_to(ROOT)) for p in [*(ROOT / "games").glob("*.game"),
                                                   *(ROOT / "examples").glob("*.game")])


def snapshot(state: State) -> tuple[object, ...]:
    return (state.to_text(), [str(m) for m in state.legal_moves()],
            [str(m) for m in state.game.generate(state, {})], state.result,
            state.reason, state.zhash, None if state.history is None else list(state.history),
            None if state.seen is None else dict(state.seen),
            None if state.situations is None else dict(state.situations))


def check_lines(game: Game, state: State, rng: random.Random, depth: int) -> None:
    """Make a random line of `depth` moves on a copy, compare each position with play's,
    then unmake it all and compare with the start."""
    mine = game._successor(state)
    start = snapshot(mine)
    made = []
    played = state
    for _ in range(depth):
        moves = mine.legal_moves()
        if mine.is_over or not moves:
            break
        move = rng.choice(moves)
        made.append(game.make(mine, move))
        played = played.play(str(move))
        assert mine.to_text() == played.to_text()
        assert [str(m) for m in mine.legal_moves()] == [str(m) for m in played.legal_moves()]
        assert (mine.result, mine.reason) == (played.result, played.reason)
    for undo in reversed(made):
        game.unmake(mine, undo)
    assert snapshot(mine) == start


@pytest.mark.parametrize("path", FILES)
def test_a_made_line_matches_play_and_unmakes_exactly(path: str) -> None:
    game = load_game(str(ROOT / path))
    rng = random.Random(path)
    for _ in range(2):
        state = game.initial_state()
        plies = 0
        while not state.is_over and plies < 60:
            moves = state.legal_moves()
            if not moves:
                break
            check_lines(game, state, rng, 3)
            state = state.play(rng.choice(moves))
            plies += 1
