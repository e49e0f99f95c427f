"""PettingZoo adapter: any game file as an AEC environment (needs the `pettingzoo` extra).

    >>> from interpreter.pettingzoo import env
    >>> hex5 = env("games/hex.game", size=5)
    >>> hex5.reset(seed=1)
    >>> hex5.agent_selection
    'player_0'
    >>> observation, reward, terminated, truncated, info = hex5.last()
    >>> observation["observation"].shape, observation["action_mask"].sum()
    ((4, 25), np.int64(25))

The agents are `player_0`, `player_1`, ... : players are people, as in `interpreter.adapters`
(with the pie rule, `swap` exchanges the roles the people hold; `infos[agent]["role"]` says
which role an agent holds now). An agent's observation is a dict, as in PettingZoo's classic
environments: `"observation"`, the tensor of `interpreter.adapters.Observer` (float32, shape
(planes, sites)), the same for every agent; and `"action_mask"`, an int8 vector over the
actions of `interpreter.actions`, 1 for the legal actions of the agent to move (all 0 for the
other agents and once the game is over). Actions are `Discrete(size)`; an illegal action
raises `IllegalMoveError` (a ValueError).

Rewards come only at the end: +1 / -1 / 0 (see `interpreter.adapters.returns`). A game the
rules end, and a stuck position (a draw), terminate every agent; reaching `max_length` actions
truncates them (also a draw). `render()` returns (mode "ansi") or prints (mode "human") the
position text.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from interpreter import load_game
from interpreter.actions import action_space
from interpreter.adapters import Observer, is_stuck, max_length, person, player_to_move, returns
from interpreter.game import Game, State

NAME = "ludeme_v0"


class LudemeEnv(AECEnv):  # type: ignore[misc]
    """A game file as a PettingZoo AEC environment (see the module's documentation)."""

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "name": NAME,
                                "is_parallelizable": False}

    def __init__(self, game: Game, render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: one of human, ansi, or None")
        self.render_mode = render_mode
        self.game = game
        self.rng = random.Random()
        self.space = action_space(game)
        self.observer = Observer(game)
        self.max_length = max_length(game)
        self.possible_agents = [f"player_{i}" for i in range(len(game.players))]
        low = np.array([[p.low] * self.observer.sites for p in self.observer.planes],
                       dtype=np.float32)
        high = np.array([[p.high] * self.observer.sites for p in self.observer.planes],
                        dtype=np.float32)
        self.observation_spaces = {
            agent: spaces.Dict({
                "observation": spaces.Box(low=low, high=high, dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(self.space.size,),
                                          dtype=np.int8),
            }) for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(self.space.size)
                              for agent in self.possible_agents}
        self.position: State = game.initial_state()  # the ludeme State of the game in play
        self.plies = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game. In a game with dice, the environment rolls them (inside `reset`
        and `step`, so an agent is only ever asked for its own moves); `seed` seeds the rolls.
        `options` change nothing."""
        self.rng = random.Random(seed)
        self.position = self._roll(self.game.initial_state())
        self.plies = 0
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[player_to_move(self.position)]
        self._settle()

    def state(self) -> np.ndarray:
        """The global state: the observation tensor (every agent sees the whole position)."""
        return np.array(self.observer.tensor(self.position),
                        dtype=np.float32).reshape(self.observer.shape)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        observation = self.state()
        mask = np.zeros(self.space.size, dtype=np.int8)
        if agent == self.agent_selection and not self._over():
            mask[self.space.legal_actions(self.position)] = 1
        return {"observation": observation, "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self.position = self._roll(self.position.apply_action(int(action)))
        self.plies += 1
        self.agent_selection = self.possible_agents[player_to_move(self.position)]
        self._settle()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _roll(self, state: State) -> State:
        """The position after chance's decisions, if it is chance's turn: each outcome drawn
        with its probability."""
        while state.is_chance:
            state = self.game.apply(state, self.game.draw(state, self.rng))
        return state

    def _over(self) -> bool:
        return self.position.is_over or is_stuck(self.position) or self.plies >= self.max_length

    def _settle(self) -> None:
        """Record the roles in the infos, and the end of the game if it has come."""
        for agent in self.agents:
            self.infos[agent]["role"] = self.game.players[
                person(self.position, self.possible_agents.index(agent))]
        if self.position.is_over or is_stuck(self.position):
            for agent, value in zip(self.possible_agents, returns(self.position), strict=True):
                self.rewards[agent] = value
                self.terminations[agent] = True
        elif self.plies >= self.max_length:
            self.truncations = dict.fromkeys(self.agents, True)

    def render(self) -> str | None:
        """The position text: returned in mode "ansi", printed in mode "human"."""
        if self.render_mode is None:
            return None
        text = self.position.to_text()
        if self.render_mode == "human":
            print(text, end="")
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def env(path: str | Path, render_mode: str | None = None, **options: object) -> LudemeEnv:
    """The game file at `path`, with options (e.g. size=7), as a PettingZoo AEC environment."""
    return LudemeEnv(load_game(path, **options), render_mode=render_mode)
