"""The OpenSpiel adapter (interpreter/openspiel.py): every game file passes OpenSpiel's own
API conformance test, and OpenSpiel's MCTS plays through it."""

from __future__ import annotations

import pickle
import random
from pathlib import Path

import pytest
from adapter_games import ENDLESS, STUCK
from oracle import require_openspiel

from interpreter import load_game

pyspiel = require_openspiel()
openspiel = pytest.importorskip("interpreter.openspiel")

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted((ROOT / "games").glob("*.game"))
HEX = str(ROOT / "games" / "hex.game")


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_random_sim_test(path: Path) -> None:
    """OpenSpiel's checks over random games (seeded inside OpenSpiel): legal actions sorted
    and with distinct strings, clones, serialization, observations, returns, the length bound."""
    game = openspiel.load(path)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_load_game_by_name_and_by_string() -> None:
    game = openspiel.load(HEX, size=5, pie=True)
    assert str(game) == f"ludeme(options=size:5 pie:true,path={HEX})"
    same = pyspiel.load_game("ludeme", {"path": HEX, "options": "size:5 pie:true"})
    again = pyspiel.load_game(str(game))
    for other in (same, again):
        assert str(other) == str(game)
        assert other.num_distinct_actions() == 26  # 25 cells and swap
    default = openspiel.load(HEX)
    assert str(pyspiel.load_game(str(default))) == str(default)
    assert default.num_distinct_actions() == 121
    assert default.max_game_length() == 20 * 121
    assert default.num_players() == 2
    assert default.observation_tensor_shape() == [4, 121]


def test_options_are_typed_as_the_game_file_declares_them() -> None:
    assert openspiel.parse_options(HEX, "size:7 pie:false") == {"size": 7, "pie": False}
    game = pyspiel.load_game("ludeme", {"path": HEX, "options": "size:3 pie:yes"})
    assert game.num_distinct_actions() == 10
    with pytest.raises(Exception, match="key:value"):
        pyspiel.load_game("ludeme", {"path": HEX, "options": "size=3"})
    with pytest.raises(Exception, match="needs a path"):
        pyspiel.load_game("ludeme", {"options": "size:3"})
    with pytest.raises(Exception, match="below its minimum"):
        openspiel.load(HEX, size=1)


def test_states_play_the_game_in_notation() -> None:
    game = openspiel.load(ROOT / "games" / "tictactoe.game")
    state = game.new_initial_state()
    assert state.current_player() == 0 and state.legal_actions() == list(range(9))
    assert [state.action_to_string(0, a) for a in (0, 4, 8)] == ["a3", "b2", "c1"]
    for action in (4, 0, 2, 6, 3, 5, 1, 7, 8):  # a draw
        state.apply_action(action)
    assert state.is_terminal() and state.returns() == [0.0, 0.0]
    won = game.new_initial_state()
    for action in (0, 3, 1, 4, 2):  # X takes the top row
        won.apply_action(action)
    assert won.is_terminal() and won.returns() == [1.0, -1.0]
    assert won.current_player() == pyspiel.PlayerId.TERMINAL
    assert str(won) == load_game(ROOT / "games" / "tictactoe.game").from_text(
        "X X X\nO O .\n. . .\nmover: O").to_text()


def test_observation_is_the_position() -> None:
    game = openspiel.load(HEX, size=3)
    state = game.new_initial_state()
    state.apply_action(4)  # Red on b2, the centre
    tensor = state.observation_tensor(1)
    assert len(tensor) == 4 * 9
    red, blue, red_moves, blue_moves = (tensor[i * 9:(i + 1) * 9] for i in range(4))
    assert red == [0, 0, 0, 0, 1, 0, 0, 0, 0] and blue == [0] * 9
    assert red_moves == [0] * 9 and blue_moves == [1] * 9
    assert state.observation_tensor(0) == tensor
    text = state.ludeme.to_text()
    assert state.observation_string(0) == text == state.information_state_string(1)


def test_players_are_people_after_the_pie_swap() -> None:
    game = openspiel.load(HEX, size=3, pie=True)
    state = game.new_initial_state()
    state.apply_action(4)  # the first person, as Red, takes the centre
    assert state.current_player() == 1
    state.apply_action(9)  # the second person swaps: now Red, owning the centre
    assert state.action_to_string(1, 9) == "swap"
    assert state.ludeme.mover == "Blue" and state.current_player() == 0
    # The second person, Red now, joins the top and bottom through the centre: b3 b2 b1.
    for action in (3, 1, 5, 7):  # a2 (Blue), b3 (Red), c2 (Blue), b1 (Red)
        state.apply_action(action)
    assert state.is_terminal() and state.ludeme.winner == "Red"
    assert state.returns() == [-1.0, 1.0]


def test_states_pickle_and_come_back_equal() -> None:
    game = openspiel.load(ROOT / "games" / "go.game", size=5)
    state = game.new_initial_state()
    rng = random.Random(3)
    for _ in range(12):
        state.apply_action(rng.choice(state.legal_actions()))
    back = pickle.loads(pickle.dumps(state))
    assert str(back) == str(state) and back.history() == state.history()
    assert back.legal_actions() == state.legal_actions()
    assert back.observation_tensor(0) == state.observation_tensor(0)
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert len(clone.history()) == len(state.history()) + 1  # the original is unchanged
    assert pickle.loads(pickle.dumps(game)) == game


def test_mcts_beats_random_at_hex_5x5() -> None:
    """OpenSpiel's MCTS (random rollouts) against a uniform random player, 20 games, each side
    half of them; every random choice is seeded, so the result is the same on every run."""
    np = pytest.importorskip("numpy")
    from open_spiel.python.algorithms import mcts

    game = openspiel.load(HEX, size=5, pie=False)
    wins = 0
    for i in range(20):
        evaluator = mcts.RandomRolloutEvaluator(1, random_state=np.random.RandomState(100 + i))
        bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=50, evaluator=evaluator,
                           random_state=np.random.RandomState(i))
        rng = random.Random(i)
        seat = i % 2
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == seat:
                action = bot.step(state)
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
        wins += state.returns()[seat] > 0
    assert wins >= 15, f"MCTS won only {wins} of 20 games"


def readme_example(section: str) -> str:
    """The Python example of a section of the adapters' page of the docs (once the README's)."""
    text = (ROOT / "docs" / "adapters.md").read_text(encoding="utf-8")
    body = text.split(f"\n## {section}\n", 1)[1].split("\n## ", 1)[0]
    return body.split("```python\n", 1)[1].split("```", 1)[0]


def test_the_readme_example_runs(monkeypatch: pytest.MonkeyPatch,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("numpy")
    monkeypatch.chdir(ROOT)
    exec(compile(readme_example("OpenSpiel"), "docs/adapters.md", "exec"), {})
    assert capsys.readouterr().out.strip().endswith("[1.0, -1.0]")


def test_endless_and_stuck_games_end_as_draws(tmp_path: Path) -> None:
    """A game the rules never end stops after max_game_length actions; a position where the
    player to move has no move, though the rules go on, ends the game: both are draws."""
    endless, stuck = tmp_path / "endless.game", tmp_path / "stuck.game"
    endless.write_text(ENDLESS, encoding="utf-8")
    stuck.write_text(STUCK, encoding="utf-8")
    for path, length in ((endless, 20 * 4), (stuck, 4)):
        game = openspiel.load(path)
        pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(state.legal_actions()[0])
        assert len(state.history()) == length and state.returns() == [0.0, 0.0]
