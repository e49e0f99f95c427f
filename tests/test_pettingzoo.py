"""The PettingZoo adapter (interpreter/pettingzoo.py): every game file passes PettingZoo's API
test, with action masks and the same observations as the OpenSpiel adapter."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from adapter_games import ENDLESS, STUCK

pettingzoo_test = pytest.importorskip(
    "pettingzoo.test", reason="PettingZoo is not installed (pip install -e '.[pettingzoo]'): "
                              "its adapter's tests are skipped")
adapter = pytest.importorskip("interpreter.pettingzoo")
np = pytest.importorskip("numpy")

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted((ROOT / "games").glob("*.game"))
HEX = ROOT / "games" / "hex.game"


# api_test warns that an observation is a dict rather than an array, and that the observation
# space is a Dict rather than a Box, for every environment but PettingZoo's own classic games
# (it exempts those by name); observations with action masks are dicts in the classic games too.
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning")
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably:UserWarning")
@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_api_test(path: Path) -> None:
    env = adapter.env(path)
    pettingzoo_test.api_test(env, num_cycles=1000)


def play_random(env: object, seed: int) -> dict[str, float]:
    """Play a random game with the action masks; each agent's total reward."""
    rng = random.Random(seed)
    env.reset(seed=seed)
    totals: dict[str, float] = {}
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        totals[agent] = totals.get(agent, 0.0) + reward
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(rng.choice(legal)))
    return totals


def test_a_random_game_ends_with_a_winner_and_a_loser() -> None:
    env = adapter.env(HEX, size=4)
    totals = play_random(env, 1)
    assert sorted(totals.values()) == [-1.0, 1.0]
    assert env.agents == []
    winner = max(totals, key=lambda agent: totals[agent])
    assert env.position.winner == env.game.players[env.possible_agents.index(winner)]


def test_observations_and_masks() -> None:
    env = adapter.env(HEX, size=3, render_mode="ansi")
    env.reset()
    assert env.possible_agents == ["player_0", "player_1"]
    env.step(4)  # Red on b2
    mine = env.observe("player_1")
    theirs = env.observe("player_0")
    assert mine["observation"].shape == (4, 9) and mine["observation"].dtype == np.float32
    assert np.array_equal(mine["observation"], theirs["observation"])
    assert mine["action_mask"].tolist() == [1, 1, 1, 1, 0, 1, 1, 1, 1]
    assert theirs["action_mask"].tolist() == [0] * 9  # not the agent to move
    assert env.render() == env.position.to_text()
    assert env.infos["player_1"]["role"] == "Blue"


def test_same_observation_as_openspiel() -> None:
    openspiel = pytest.importorskip("interpreter.openspiel")
    spiel_game = openspiel.load(ROOT / "games" / "go.game", size=5)
    state = spiel_game.new_initial_state()
    env = adapter.env(ROOT / "games" / "go.game", size=5)
    env.reset()
    rng = random.Random(5)
    for _ in range(15):
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        env.step(action)
        observed = env.observe(env.agent_selection)["observation"]
        assert observed.ravel().tolist() == state.observation_tensor(0)


def test_the_pie_swap_keeps_agents_as_people() -> None:
    env = adapter.env(HEX, size=3, pie=True)
    env.reset()
    env.step(4)  # player_0, as Red
    assert env.agent_selection == "player_1"
    env.step(9)  # player_1 swaps: now Red
    assert env.agent_selection == "player_0"
    assert env.infos["player_0"]["role"] == "Blue" and env.infos["player_1"]["role"] == "Red"


def test_an_illegal_action_is_refused() -> None:
    env = adapter.env(HEX, size=3)
    env.reset()
    env.step(4)
    with pytest.raises(ValueError, match="occupied"):
        env.step(4)


def test_the_readme_example_runs(monkeypatch: pytest.MonkeyPatch,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    text = (ROOT / "docs" / "adapters.md").read_text(encoding="utf-8")
    body = text.split("\n## PettingZoo\n", 1)[1].split("\n## ", 1)[0]
    code = body.split("```python\n", 1)[1].split("```", 1)[0]
    monkeypatch.chdir(ROOT)
    exec(compile(code, "docs/adapters.md", "exec"), {})
    out = capsys.readouterr().out
    assert "Red 1.0" in out or "Blue 1.0" in out
    assert "mover:" in out


def test_endless_games_are_truncated_and_stuck_ones_terminated(tmp_path: Path) -> None:
    for text, cut in ((ENDLESS, True), (STUCK, False)):
        path = tmp_path / "game.game"
        path.write_text(text, encoding="utf-8")
        env = adapter.env(path)
        totals = play_random(env, 2)
        assert totals == {"player_0": 0.0, "player_1": 0.0}
        assert (env.plies == 20 * 4) is cut
