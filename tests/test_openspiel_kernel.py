"""The OpenSpiel adapter played in a game's kernel (`load(path, kernel=True)`): the same games as
through the interpreter — legal actions, players, chance outcomes, ends and returns after every
action of random games — OpenSpiel's own conformance test, and its MCTS on top."""

from __future__ import annotations

import copy
import pickle
import random
from pathlib import Path

import pytest
from oracle import require_openspiel

from dsl.errors import GameError
from interpreter.kernel import available

pyspiel = require_openspiel()
openspiel = pytest.importorskip("interpreter.openspiel")
pytestmark = pytest.mark.skipif(not available(), reason="numba (the kernels extra) is not "
                                "installed: pip install -e '.[kernels]'")

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "games"


def side_by_side(path: Path, seed: int, **options: object) -> int:
    """One random game through both adapters, compared after every action; its length."""
    plain = openspiel.load(path, **options).new_initial_state()
    native = openspiel.load(path, kernel=True, **options).new_initial_state()
    rng = random.Random(seed)
    length = 0
    while True:
        assert native.current_player() == plain.current_player()
        assert native.is_terminal() == plain.is_terminal()
        if plain.is_terminal():
            assert native.returns() == plain.returns()
            assert str(native) == str(plain)
            return length
        if plain.is_chance_node():
            outcomes = plain.chance_outcomes()
            assert native.chance_outcomes() == outcomes
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            legal = plain.legal_actions()
            assert native.legal_actions() == legal
            action = rng.choice(legal)
        plain.apply_action(action)
        native.apply_action(action)
        length += 1


@pytest.mark.parametrize("name, options", [
    ("tictactoe", {}), ("connectfour", {}), ("hex", {"size": 5, "pie": True}),
    ("breakthrough", {}), ("../examples/two-dice-race", {})])
def test_the_kernel_plays_the_interpreters_games(name: str, options: dict[str, object]) -> None:
    lengths = [side_by_side(GAMES / f"{name}.game", seed, **options) for seed in range(8)]
    assert sum(lengths) > 8  # (games were played)


def test_the_kernel_passes_openspiels_conformance_test() -> None:
    game = openspiel.load(GAMES / "connectfour.game", kernel=True)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_the_kernel_parameter_round_trips_and_states_copy_and_pickle() -> None:
    game = openspiel.load(GAMES / "tictactoe.game", kernel=True)
    again = pyspiel.load_game(str(game))
    assert str(game).startswith("ludeme_kernel(") and str(again) == str(game)
    state = again.new_initial_state()
    for action in (4, 0, 8):
        state.apply_action(action)
    clone = state.clone()
    clone.apply_action(2)
    assert state.legal_actions() == [1, 2, 3, 5, 6, 7]  # the clone's move is its own
    copied = copy.deepcopy(state)
    back = pickle.loads(pickle.dumps(state))
    for other in (copied, back):
        assert other.legal_actions() == state.legal_actions()
        assert str(other) == str(state)


def test_a_game_without_a_kernel_says_why(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    import interpreter.kernel

    path = tmp_path / "no-kernel.game"
    path.write_text((GAMES / "tictactoe.game").read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.setattr(interpreter.kernel, "kernel_for", lambda game: None)
    with pytest.raises(GameError, match="has no kernel"):
        openspiel.load(path, kernel=True)


def test_openspiels_mcts_searches_in_the_kernel() -> None:
    from open_spiel.python.algorithms import mcts

    game = openspiel.load(GAMES / "tictactoe.game", kernel=True)
    bot = mcts.MCTSBot(game, uct_c=1.4, max_simulations=200,
                       evaluator=mcts.RandomRolloutEvaluator(1, random.Random(1)),
                       random_state=__import__("numpy").random.RandomState(1))
    # X to play with a1 and b1 held, O on b2 and c2: c1 wins at once.
    state = game.new_initial_state()
    for action in (0, 4, 1, 5):
        state.apply_action(action)
    assert bot.step(state) == 2
