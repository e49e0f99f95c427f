"""The OpenSpiel adapter played in a game's kernel (`load(path, kernel=True)`): the same games as
through the interpreter — legal actions, players, chance outcomes, observation tensors, ends and
returns after every action of random games, clones included, without the kernel's states
replaying their actions in the interpreter — OpenSpiel's own conformance test, and its MCTS on
top."""

from __future__ import annotations

import copy
import pickle
import random
from pathlib import Path
from typing import Any

import pytest
from benchmark_runs import adapter_table
from oracle import require_openspiel

from dsl.errors import GameError
from interpreter.kernel import available

pyspiel = require_openspiel()
np = pytest.importorskip("numpy")  # (OpenSpiel's and numba's dependency)
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


def walk(plain: pyspiel.State, native: pyspiel.State, rng: random.Random,
         limit: int) -> int:
    """Play random actions (drawn by `rng`: chance outcomes by their probabilities) on a
    state through the interpreter and the same state through the kernel, for at most `limit`
    actions or to the end, comparing at every position the player, the end, the returns, the
    observation tensor, and the legal actions or chance outcomes; the actions made."""
    made = 0
    while True:
        where = f"after {len(plain.history())} actions"
        assert native.current_player() == plain.current_player(), where
        assert native.is_terminal() == plain.is_terminal(), where
        assert native.returns() == plain.returns(), where
        assert native.observation_tensor(0) == plain.observation_tensor(0), where
        if plain.is_terminal() or made == limit:
            return made
        if plain.is_chance_node():
            outcomes = plain.chance_outcomes()
            assert native.chance_outcomes() == outcomes, where
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            legal = plain.legal_actions()
            assert native.legal_actions() == legal and native.chance_outcomes() == [], where
            action = rng.choice(legal)
        plain.apply_action(action)
        native.apply_action(action)
        made += 1


# (mid: the actions made before a clone; limit: the actions compared per game, for games whose
# random games run long.)
@pytest.mark.parametrize("name, options, seeds, mid, limit", [
    ("tictactoe", {}, 4, 3, 100),
    ("go", {"size": 5}, 6, 15, 400),  # passes, the board before the last turn (history planes)
    ("go", {"size": 9}, 1, 40, 300),
    ("chess", {}, 3, 30, 400),  # memories: castling rights, en passant
    ("backgammon", {}, 3, 40, 2000),  # dice: chance outcomes and their probabilities
    ("ninemensmorris", {}, 3, 30, 400),  # pieces in hand, several decisions a turn
    ("shogi", {}, 2, 40, 200),  # hands by kind, a position history
])
def test_the_kernel_observes_as_the_interpreter(name: str, options: dict[str, object],
                                                seeds: int, mid: int, limit: int) -> None:
    """Random games through `load(path)` and `load(path, kernel=True)` give the same
    observations, legal actions, chance outcomes and returns at every position, and so do
    clones of a mid-game position played on separately after their originals moved on; the
    kernel's states never replay their actions in the interpreter to answer."""
    path = GAMES / f"{name}.game"
    plain_game = openspiel.load(path, **options)
    native_game = openspiel.load(path, kernel=True, **options)
    played = 0
    for seed in range(seeds):
        rng = random.Random(seed)
        plain, native = plain_game.new_initial_state(), native_game.new_initial_state()
        played += walk(plain, native, rng, mid)
        assert not plain.is_terminal()
        clones = plain.clone(), native.clone()
        played += walk(plain, native, rng, limit)  # the originals move on first
        played += walk(*clones, random.Random(seed + 100), limit)
        for state in (native, clones[1]):
            assert state.line.episode._state is None, "the kernel's state replayed its actions"
    assert played > 5 * seeds  # (games were played)


def action_of(space: Any, move: str) -> int:
    """The action whose notation is `move`."""
    return next(a for a in range(space.size) if space.notation(a) == move)


def test_a_clone_follows_on_its_own() -> None:
    """Chess's castling rights and en passant square are followed beside the kernel's state
    (a Follower): a clone observed after its original moved on still sees its own."""
    game = openspiel.load(GAMES / "chess.game", kernel=True)
    space = game.ludeme.space
    state = game.new_initial_state()
    for move in ("e2-e4", "a7-a6", "e4-e5", "d7-d5"):  # d6 may now be taken en passant
        state.apply_action(action_of(space, move))
    planes = {p.name: i for i, p in enumerate(game.ludeme.observer.planes)}
    shape = game.ludeme.observer.shape
    clone = state.clone()
    seen = np.array(clone.observation_tensor(0)).reshape(shape)
    assert seen[planes["en passant: sites"]].any()
    for move in ("e1-e2", "a6-a5"):  # White loses its castling rights; en passant is gone
        state.apply_action(action_of(space, move))
    moved = np.array(state.observation_tensor(0)).reshape(shape)
    assert not moved[planes["en passant: sites"]].any()
    assert not np.array_equal(moved[planes["castling: sites"]],
                              seen[planes["castling: sites"]])
    again = np.array(clone.observation_tensor(0)).reshape(shape)
    assert np.array_equal(again, seen)  # the clone's follower did not follow the original
    plain = openspiel.load(GAMES / "chess.game").new_initial_state()
    for action in clone.history():
        plain.apply_action(action)
    assert clone.observation_tensor(0) == plain.observation_tensor(0)
    back = pickle.loads(pickle.dumps(clone))  # (replayed in the kernel, followed anew)
    assert back.observation_tensor(0) == plain.observation_tensor(0)
    assert clone.observation_string(0) == str(clone)  # (the text: replayed when asked)


def test_an_illegal_action_is_refused_with_the_interpreters_reason() -> None:
    state = openspiel.load(GAMES / "hex.game", kernel=True, size=3).new_initial_state()
    state.apply_action(4)
    with pytest.raises(Exception, match="occupied"):
        state.apply_action(4)


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


def test_the_benchmark_times_openspiel_games() -> None:
    """Smoke test of benchmarks/pettingzoo_kernel.py --adapter openspiel (no timing is
    asserted)."""
    rows = adapter_table("--adapter", "openspiel", "--games", "tictactoe,backgammon")
    assert len(rows) == 2 and rows[1][0] == "backgammon", rows
    cells = [c.replace(",", "") for c in rows[0]]
    assert cells[0] == "tictactoe" and all(float(c) > 0 for c in cells[1:]), cells
