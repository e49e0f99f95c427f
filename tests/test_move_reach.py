"""any-of looks for duplicate moves only between alternatives that can offer the same move
(stdlib.moves.Reach: the sites a generator's moves can start and end on, the pieces that make
them): along random games of every game file, the legal moves, in order, are those of an
any-of that looks for duplicates everywhere. And the sites of each kind of piece that a
position keeps (ValueSites) are those on its board."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.game import Game
from stdlib.moves import Reach, ValueSites
from stdlib.runtime import Ctx

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted(p.name for p in (ROOT / "games").glob("*.game"))


def random_games(game: Game, seed: str, games: int = 3, plies: int = 200
                 ) -> list[list[list[str]]]:
    """The legal moves (as written) at each position of a few random games."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        state = game.initial_state()
        listed: list[list[str]] = []
        while not state.is_over and len(listed) < plies:
            moves = [str(m) for m in state.legal_moves()]
            listed.append(moves)
            if not moves:
                break
            state = state.play(rng.choice(moves))
        out.append(listed)
    return out


@pytest.mark.parametrize("name", [*GAMES, "chess.game:back=BBQNNRKR"])
def test_duplicates_looked_for_where_they_can_be(name: str, monkeypatch: pytest.MonkeyPatch
                                                 ) -> None:
    path, _, option = name.partition(":")
    options = dict([option.split("=")]) if option else {}
    found = random_games(load_game(str(ROOT / "games" / path), **options), name)
    # Every alternative may meet every other: duplicates are looked for everywhere.
    monkeypatch.setattr(Reach, "meets", lambda self, other, mover: True)
    everywhere = random_games(load_game(str(ROOT / "games" / path), **options), name)
    assert found == everywhere


@pytest.mark.parametrize("name", ["chess.game", "checkers.game"])
def test_value_sites_follow_the_board(name: str) -> None:
    game = load_game(str(ROOT / "games" / name))
    sites = game.env.shared["value sites"]
    rng = random.Random(name)
    state = game.initial_state()
    for _ in range(150):
        if state.is_over:
            break
        known = sites(Ctx(state.board, state.to_move, state, game.env, game.owner))
        assert {v: s for v, s in known.items() if s} == ValueSites().build(state.board)
        state = state.play(rng.choice(state.legal_moves()))
