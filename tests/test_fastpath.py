"""The fast playout path chooses exactly the moves of the public API loop: speed can never
change the rules."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import load_game

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted((ROOT / "games").glob("*.game"))
SMALL = {"hex": {"size": 7}, "minefield": {"size": 7}, "thruway": {"size": 7},
         "mattock": {"short": True}}


def public_game(game, seed: int, bound: int) -> tuple[list[str], str, str | None]:
    rng = random.Random(seed)
    state = game.initial_state()
    record: list[str] = []
    while not state.is_over and len(record) < bound:
        moves = state.legal_moves()
        if not moves:
            break
        # Chance outcomes (dice) drawn by their probabilities, as the fast path draws them.
        move = game.draw(state, rng) if state.is_chance else rng.choice(moves)
        record.append(str(move))
        state = state.play(move)
    return record, state.to_text(), state.winner


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_fast_path_plays_the_public_game(path: Path) -> None:
    game = load_game(path, **SMALL.get(path.stem, {}))
    bound = 20 * len(game.sites)
    for seed in range(3):
        record: list[str] = []
        state, plies = game.playout(random.Random(seed), bound, record=record)
        expected_record, expected_text, expected_winner = public_game(game, seed, bound)
        assert record == expected_record
        assert plies == len(record)
        assert state.to_text() == expected_text
        assert state.winner == expected_winner


def test_the_record_replays_to_the_same_position() -> None:
    game = load_game(ROOT / "games" / "mattock.game", short=True, setup="freestyle")
    record: list[str] = []
    final, _ = game.playout(random.Random(7), record=record)
    state = game.initial_state()
    for move in record:
        state = state.play(move)
    assert state.to_text() == final.to_text()
