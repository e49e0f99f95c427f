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

With `env(path, kernel=True, ...)` (the `kernels` extra) the game is played in its kernel
(interpreter/kernel): the same agents, spaces, masks, observations, rewards, ends and infos as
above for the same actions and seed, but the legal actions, the player to move, the end, the
returns and the dice are answered in native code, and the observation is read from the
kernel's state (interpreter/kernel/observation.py; the board before the last turn and the
values of the game's memories, which that state does not hold, are followed beside it). Only
`render()`, `position` and the message of an illegal action come from the interpreter,
replaying the actions when asked (interpreter/kernel/episode.py). A game without a kernel
(or without numba) is a GameError saying why. (A game option named `kernel` cannot be given
to `env`: load the game with `load_game` and pass it to `LudemeEnv`.)
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from interpreter import load_game
from interpreter.actions import ActionSpace, action_space
from interpreter.adapters import Observer, is_stuck, max_length, person, player_to_move, returns
from interpreter.errors import IllegalMoveError
from interpreter.game import Game, State, drawn_index

if TYPE_CHECKING:
    from interpreter.kernel.kernel import Kernel
    from interpreter.kernel.observation import Follower

NAME = "ludeme_v0"


class InterpretedPlay:
    """A game in play in the interpreter: what the environment asks of its position."""

    def __init__(self, game: Game, space: ActionSpace, observer: Observer) -> None:
        self.game = game
        self.space = space
        self.observer = observer
        self.position: State = game.initial_state()

    def start(self, rng: random.Random) -> None:
        """Start a new game (and roll its dice, if chance moves first)."""
        self.position = self._roll(self.game.initial_state(), rng)

    def make(self, action: int, rng: random.Random) -> None:
        """Make a legal action (IllegalMoveError if it is not), then roll any dice."""
        self.position = self._roll(self.position.apply_action(action), rng)

    def _roll(self, state: State, rng: random.Random) -> State:
        """The position after chance's decisions, if it is chance's turn: each outcome drawn
        with its probability."""
        while state.is_chance:
            state = self.game.apply(state, self.game.draw(state, rng))
        return state

    def player(self) -> int:
        """The player (person) to move."""
        return player_to_move(self.position)

    def role(self, player: int) -> int:
        """The role `player` holds now."""
        return person(self.position, player)

    def ended(self) -> bool:
        """Did the rules end the game, or is the player to move stuck?"""
        return self.position.is_over or is_stuck(self.position)

    def returns(self) -> list[float]:
        return returns(self.position)

    def legal(self) -> list[int]:
        return self.space.legal_actions(self.position)

    def tensor(self) -> np.ndarray:
        """The observation, flat."""
        return np.array(self.observer.tensor(self.position), dtype=np.float32)


class KernelPlay:
    """A game in play in its kernel, with InterpretedPlay's interface (see the module's
    documentation)."""

    def __init__(self, kernel: Kernel, observer: Observer, length: int) -> None:
        from interpreter.kernel.episode import Episode
        from interpreter.kernel.observation import KernelObserver

        self.kernel = kernel
        self.length = length
        self.seen = KernelObserver(observer, kernel)
        self.episode = Episode(kernel, length)
        self.follower: Follower | None = self.seen.follower(self.episode.st)
        self._ended: bool | None = None  # (asked several times a step)

    def start(self, rng: random.Random) -> None:
        from interpreter.kernel.episode import Episode

        self.episode = Episode(self.kernel, self.length)
        self._ended = None
        self.follower = self.seen.follower(self.episode.st)
        self._roll(rng)

    def make(self, action: int, rng: random.Random) -> None:
        try:
            self._apply(action)
        except IllegalMoveError:
            self.episode.state.apply_action(action)  # the interpreter's message says why
            raise
        self._roll(rng)

    def _apply(self, action: int) -> None:
        self.episode.apply(action)
        self._ended = None
        if self.follower is not None:
            self.follower.after(self.episode.st)

    def _roll(self, rng: random.Random) -> None:
        """Chance's decisions, if it is chance's turn, drawn as Game.draw draws them (one
        number from `rng` a decision, the outcomes in the rules' order), so that the same
        seed rolls the same dice as in the interpreter."""
        kernel, st = self.kernel, self.episode.st
        while kernel.is_chance(st):
            outcomes = kernel.chance_outcomes(st)
            weights = [float(p) for _, p in outcomes]
            total = float(sum(p for _, p in outcomes))  # (as Game.draw sums them)
            self._apply(outcomes[drawn_index(weights, total, rng)][0])

    def player(self) -> int:
        return self.episode.player()

    def role(self, player: int) -> int:
        return self.episode.person(player)

    def ended(self) -> bool:
        if self._ended is None:
            self._ended = self.kernel.result(self.episode.st) is not None or \
                not self.episode.legal()
        return self._ended

    def returns(self) -> list[float]:
        return self.episode.returns()

    def legal(self) -> list[int]:
        return self.episode.legal()

    def tensor(self) -> np.ndarray:
        return self.seen.tensor(self.episode.st, self.follower)

    @property
    def position(self) -> State:
        """The interpreter's State of the position (replayed from the actions)."""
        return self.episode.state


class LudemeEnv(AECEnv):  # type: ignore[misc]
    """A game file as a PettingZoo AEC environment (see the module's documentation); played
    in the game's kernel with kernel=True."""

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "name": NAME,
                                "is_parallelizable": False}

    def __init__(self, game: Game, render_mode: str | None = None,
                 kernel: bool = False) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: one of human, ansi, or None")
        self.render_mode = render_mode
        self.game = game
        self.rng = random.Random()
        self.space = action_space(game)
        self.observer = Observer(game)
        self.max_length = max_length(game)
        self.kernel: Kernel | None = None
        self.play: InterpretedPlay | KernelPlay
        if kernel:
            from interpreter.playouts import chosen_kernel

            self.kernel = chosen_kernel(game, True)  # (a GameError says why there is none)
            assert self.kernel is not None
            self.play = KernelPlay(self.kernel, self.observer, self.max_length)
        else:
            self.play = InterpretedPlay(game, self.space, self.observer)
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
        self.plies = 0

    @property
    def position(self) -> State:
        """The ludeme State of the game in play (in a kernel: replayed from the actions)."""
        return self.play.position

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game. In a game with dice, the environment rolls them (inside `reset`
        and `step`, so an agent is only ever asked for its own moves); `seed` seeds the rolls.
        `options` change nothing."""
        self.rng = random.Random(seed)
        self.play.start(self.rng)
        self.plies = 0
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.play.player()]
        self._settle()

    def state(self) -> np.ndarray:
        """The global state: the observation tensor (every agent sees the whole position)."""
        return self.play.tensor().reshape(self.observer.shape)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        observation = self.state()
        mask = np.zeros(self.space.size, dtype=np.int8)
        if agent == self.agent_selection and not self._over():
            mask[self.play.legal()] = 1
        return {"observation": observation, "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self.play.make(int(action), self.rng)
        self.plies += 1
        self.agent_selection = self.possible_agents[self.play.player()]
        self._settle()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _over(self) -> bool:
        return self.play.ended() or self.plies >= self.max_length

    def _settle(self) -> None:
        """Record the roles in the infos, and the end of the game if it has come."""
        for agent in self.agents:
            self.infos[agent]["role"] = self.game.players[
                self.play.role(self.possible_agents.index(agent))]
        if self.play.ended():
            for agent, value in zip(self.possible_agents, self.play.returns(), strict=True):
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


def env(path: str | Path, render_mode: str | None = None, *, kernel: bool = False,
        **options: object) -> LudemeEnv:
    """The game file at `path`, with options (e.g. size=7), as a PettingZoo AEC environment;
    played in the game's kernel with kernel=True (see the module's documentation)."""
    return LudemeEnv(load_game(path, **options), render_mode=render_mode, kernel=kernel)
