"""The PettingZoo adapter played in a game's kernel (`env(path, kernel=True)`): random games
through it and through the interpreter-backed environment, with the same seeds, give the same
agents, observations, action masks, rewards, terminations, truncations and infos at every
step (dice, hands, the pie, a position history and remembered rights included); PettingZoo's
API test passes on it; and its observations are read from the kernel's state, not from an
interpreter State."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from adapter_games import ENDLESS, STUCK
from benchmark_runs import adapter_table

from dsl.errors import GameError
from interpreter import IllegalMoveError
from interpreter.kernel import available

pettingzoo_test = pytest.importorskip(
    "pettingzoo.test", reason="PettingZoo is not installed (pip install -e '.[pettingzoo]'): "
                              "its adapter's tests are skipped")
adapter = pytest.importorskip("interpreter.pettingzoo")
np = pytest.importorskip("numpy")
pytestmark = pytest.mark.skipif(not available(), reason="numba (the kernels extra) is not "
                                "installed: pip install -e '.[kernels]'")

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "games"

Step = tuple[Any, ...]


def trace(env: Any, seed: int) -> list[Step]:
    """A random game through `env` (each legal action as likely, drawn from the mask with a
    generator seeded by `seed`, which also seeds the environment's dice): at every step the
    agent, its observation and mask, and every agent's reward, end and info."""
    rng = random.Random(seed)
    env.reset(seed=seed)
    steps: list[Step] = []
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        mask = observation["action_mask"]
        steps.append((agent, observation["observation"].tolist(), mask.tolist(), reward,
                      terminated, truncated, dict(info), dict(env.rewards),
                      dict(env.terminations), dict(env.truncations)))
        env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(mask))))
    return steps


def first_difference(plain: list[Step], native: list[Step]) -> str | None:
    """Where two traces first differ, in words, or None."""
    names = ("agent", "observation", "action mask", "reward", "termination", "truncation",
             "info", "rewards", "terminations", "truncations")
    for i, (a, b) in enumerate(zip(plain, native, strict=False)):
        for name, x, y in zip(names, a, b, strict=True):
            if x != y:
                return f"step {i}: the {name} differs"
    if len(plain) != len(native):
        return f"the games last {len(plain)} and {len(native)} steps"
    return None


@pytest.mark.parametrize("name, options, seeds", [
    ("tictactoe", {}, 6),
    ("connectfour", {}, 6),
    ("hex", {"size": 5, "pie": True}, 6),  # the pie rule: swap exchanges the agents' roles
    ("ninemensmorris", {}, 3),  # pieces in hand, several decisions a turn
    ("backgammon", {}, 3),  # dice rolled by the environment
    ("maedn", {}, 2),  # four players, dice
    ("go", {"size": 5}, 4),  # passes, the board before the last turn (a position history)
    ("dotsandboxes", {}, 3),  # scores, edges
    ("chess", {}, 2),  # remembered rights (castling, en passant), move counters
    ("thruway", {}, 2),  # the pie, hands, a remembered forbidden move
    ("shogi", {}, 1),  # hands by kind (drops), a position history
])
def test_the_kernel_env_plays_the_interpreters_games(name: str, options: dict[str, object],
                                                     seeds: int) -> None:
    path = GAMES / f"{name}.game"
    plain = adapter.env(path, **options)
    native = adapter.env(path, kernel=True, **options)
    assert native.kernel is not None and plain.kernel is None
    lengths = []
    for seed in range(seeds):
        want, have = trace(plain, seed), trace(native, seed)
        assert first_difference(want, have) is None, \
            f"{name}, seed {seed}: {first_difference(want, have)}"
        lengths.append(len(want))
    assert sum(lengths) > 4 * seeds  # (games were played)


def test_endless_games_are_truncated_and_stuck_ones_terminated_alike(tmp_path: Path) -> None:
    for text in (ENDLESS, STUCK):
        path = tmp_path / "game.game"
        path.write_text(text, encoding="utf-8")
        want, have = trace(adapter.env(path), 2), trace(adapter.env(path, kernel=True), 2)
        assert first_difference(want, have) is None
        assert want[-1][5] is (text == ENDLESS)  # truncated only the endless game


# As in tests/test_pettingzoo.py: api_test warns that observations and their space are dicts.
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning")
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably:UserWarning")
@pytest.mark.parametrize("name, options", [
    ("tictactoe", {}), ("connectfour", {}), ("hex", {"size": 5, "pie": True}),
    ("ninemensmorris", {}), ("backgammon", {}), ("go", {"size": 5}), ("chess", {})])
def test_api_test(name: str, options: dict[str, object]) -> None:
    env = adapter.env(GAMES / f"{name}.game", kernel=True, **options)
    pettingzoo_test.api_test(env, num_cycles=1000)


@pytest.mark.parametrize("name, options", [
    ("connectfour", {}), ("ninemensmorris", {}), ("backgammon", {}), ("go", {"size": 5}),
    ("chess", {}), ("thruway", {})])
def test_observations_come_from_the_kernel(name: str, options: dict[str, object]) -> None:
    """A whole game observed at every step without an interpreter State: the episode never
    replays its actions in the interpreter."""
    env = adapter.env(GAMES / f"{name}.game", kernel=True, **options)
    steps = trace(env, 3)
    assert len(steps) > 4
    assert env.play.episode._state is None and env.play.episode._replayed == 0


def test_the_board_before_the_last_turn() -> None:
    """Go keeps a position history: the observation shows the board before the last turn,
    which the kernel's state does not hold (a Follower follows it)."""
    env = adapter.env(GAMES / "go.game", kernel=True, size=5)
    env.reset()
    first, kinds = env.observer.before_plane, env.observer.kinds
    assert first is not None and kinds == 2  # black and white stones

    def play(site: str) -> None:
        env.step(next(a for a in range(env.space.size) if env.space.notation(a) == site))

    c3, d4 = env.game.sites.index("c3"), env.game.sites.index("d4")
    play("c3")  # Black
    play("d4")  # White
    planes = env.state()
    assert planes[:kinds, c3].tolist() == [1.0, 0.0] and planes[:kinds, d4].tolist() == [0, 1]
    before = planes[first:first + kinds]
    assert before[:, c3].tolist() == [1.0, 0.0]  # Black's stone was there before White moved
    assert before[:, d4].tolist() == [0.0, 0.0]  # White's was not


def test_memories_are_followed_beside_the_kernel() -> None:
    """Chess remembers its castling rights and the en passant square in the kernel's own
    encoding; the observation's planes for them are followed beside it (Follower)."""
    plain = adapter.env(GAMES / "chess.game")
    native = adapter.env(GAMES / "chess.game", kernel=True)
    for env in (plain, native):
        env.reset()
        for move in ("e2-e4", "a7-a6", "e1-e2", "a6-a5", "e4-e5", "d7-d5"):
            env.step(next(a for a in range(env.space.size) if env.space.notation(a) == move))
    planes = {p.name: i for i, p in enumerate(native.observer.planes)}
    observed = native.state()
    assert observed[planes["en passant: sites"]].all()  # d6 may be taken en passant
    assert observed[planes["castling: sites"]].all()  # White's rights are lost: remembered
    assert np.array_equal(observed, plain.state())
    assert native.play.episode._state is None  # (no interpreter State was made)


def test_an_illegal_action_is_refused_with_the_interpreters_reason() -> None:
    env = adapter.env(GAMES / "hex.game", kernel=True, size=3)
    env.reset()
    env.step(4)
    with pytest.raises(IllegalMoveError, match="occupied"):
        env.step(4)
    for outside in (-1, 9):
        with pytest.raises(IllegalMoveError, match="actions of Hex are 0 to 8"):
            env.step(outside)
    assert env.play.episode.actions == [4]  # nothing was made


def test_render_and_position_come_from_the_interpreter() -> None:
    env = adapter.env(GAMES / "tictactoe.game", kernel=True, render_mode="ansi")
    env.reset()
    env.step(4)
    assert env.position.board[4] != 0
    assert env.render() == env.position.to_text()


def test_a_game_without_a_kernel_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    import interpreter.kernel

    monkeypatch.setattr(interpreter.kernel, "kernel_for", lambda game: None)
    with pytest.raises(GameError, match="has no kernel"):
        adapter.env(GAMES / "tictactoe.game", kernel=True)


@pytest.mark.parametrize("name", ["backgammon", "maedn"])
def test_the_kernels_chance_outcomes_are_the_interpreters(name: str) -> None:
    """Kernel.chance_outcomes: the outcomes in the interpreter's order, with its
    probabilities (the opening roll's first), which is what makes the dice the same."""
    from interpreter import load_game
    from interpreter.kernel import kernel_for

    game = load_game(GAMES / f"{name}.game")
    kernel = kernel_for(game)
    assert kernel is not None
    rng = random.Random(7)
    state, st, seen = game.initial_state(), kernel.start.copy(), 0
    while not state.is_over and state.legal_actions() and seen < 60:
        want = [(game.actions.encode(m), float(p)) for m, p in state.chance_outcomes()]
        assert kernel.chance_outcomes(st) == want
        seen += bool(want)
        action = rng.choice(state.legal_actions())
        state = state.apply_action(action)
        kernel.apply(st, action)
    assert seen >= 10


def test_the_benchmark_prints_a_table() -> None:
    """Smoke test of benchmarks/pettingzoo_kernel.py (no timing is asserted)."""
    rows = adapter_table("--games", "tictactoe,hex:size=3")
    assert len(rows) == 2 and rows[1][0] == "hex size=3", rows
    cells = [c.replace(",", "") for c in rows[0]]
    assert cells[0] == "tictactoe" and all(float(c) > 0 for c in cells[1:]), cells
