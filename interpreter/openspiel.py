"""OpenSpiel adapter: any game file as a `pyspiel.Game` (needs the `openspiel` extra).

    >>> import pyspiel
    >>> from interpreter.openspiel import load
    >>> game = load("games/hex.game", size=5)
    >>> str(game)
    'ludeme(options=size:5,path=games/hex.game)'
    >>> pyspiel.load_game(str(game)).num_distinct_actions()
    25

Importing this module registers the OpenSpiel game type `ludeme`, whose parameters are `path`
(the game file) and `options` (the options as `key:value` words separated by spaces, e.g.
`"size:7 pie:false"`; each value is read as its option declares: an integer, a number,
true/false or text, which may not contain spaces, commas or parentheses).
`pyspiel.load_game("ludeme", {"path": ..., "options": ...})` and `pyspiel.load_game(str(game))`
give the same game.

The game is sequential, with perfect information (and explicit chance nodes when the game
file rolls dice: `current_player()` is CHANCE there, `chance_outcomes()` the outcomes' actions
with their probabilities), zero-sum and rewarded at the
end; players are people, the episode ends as `interpreter.adapters` says (a stuck position or
more than `max_game_length` actions: a draw), returns are +1 / -1 / 0 (more than two players:
+1 to the winner, -1/(n-1) to each other). Actions are those of `interpreter.actions`, their
strings the moves' notation. `current_player()` is the player to move (the same player for
every decision of a turn). The observation tensor is `interpreter.adapters.Observer`'s, of
shape (planes, sites); the observation and information state strings are the position text.

Loaded with `load(path, kernel=True, ...)`, or as the game type `ludeme_kernel` (the same
parameters), the game is played in its kernel (interpreter/kernel, the `kernels` extra):
legal actions, the player to move, the end and the returns are answered in native code, which
is what search (MCTS, minimax) asks of every node; chance outcomes with their probabilities
come from the kernel too (Kernel.chance_outcomes), and the observation tensor is read from the
kernel's state (interpreter.kernel.observation: what that state does not hold, the board before
the last turn and the game's memories, is followed beside it action by action, and copied with
each clone). Only the position text (`str(state)`, the observation and information state
strings, `state.ludeme`) and the reason an illegal action is refused come from the
interpreter's State, replayed from the actions when asked (interpreter.kernel.episode). The
games and their observations are the same (tests/test_openspiel_kernel.py compares the two
action by action). A game without a kernel is a GameError saying why.

A state keeps the actions made so far and the ludeme State they lead to; it pickles (and
serializes) as the game's path and options and those actions, and is rebuilt by replaying them.
Compiled games are kept in a module-level cache keyed by path and options, so a state never
depends on a particular Python wrapper of its game.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pyspiel

from dsl.errors import GameError
from interpreter import load_game
from interpreter.actions import ActionSpace, action_space
from interpreter.adapters import (
    Observer,
    is_stuck,
    max_length,
    player_to_move,
    returns,
)
from interpreter.errors import IllegalMoveError
from interpreter.game import Game, State
from interpreter.record import format_option

if TYPE_CHECKING:
    from interpreter.kernel.episode import Episode
    from interpreter.kernel.kernel import Kernel
    from interpreter.kernel.observation import Follower, KernelObserver

SHORT_NAME = "ludeme"
KERNEL_NAME = "ludeme_kernel"  # the same games, played in their kernels
MAX_PLAYERS = 16  # the most roles a game may have here (OpenSpiel asks for a bound per type)

Key = tuple[str, tuple[tuple[str, object], ...]]


def _game_type(chance: bool = False, name: str = SHORT_NAME) -> pyspiel.GameType:
    """The game type registered (deterministic), or that of a game file with dice; by
    `name`, the one played in the interpreter or in kernels."""
    mode = pyspiel.GameType.ChanceMode
    spec: dict[str, Any] = dict(
        short_name=name,
        long_name="Ludeme game file" if name == SHORT_NAME else "Ludeme game file (kernel)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=mode.EXPLICIT_STOCHASTIC if chance else mode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=MAX_PLAYERS,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"path": "", "options": ""},
    )
    try:  # there is no default game file: loading "ludeme" alone is an error
        return pyspiel.GameType(**spec, default_loadable=False)
    except TypeError:  # an OpenSpiel without default_loadable
        return pyspiel.GameType(**spec)


GAME_TYPE = _game_type()
CHANCE_GAME_TYPE = _game_type(chance=True)
KERNEL_GAME_TYPE = _game_type(name=KERNEL_NAME)
KERNEL_CHANCE_GAME_TYPE = _game_type(chance=True, name=KERNEL_NAME)


# Compiled games, shared by every wrapper ------------------------------------------------------


@dataclass
class Compiled:
    """A compiled game file and what the adapters derive from it, made once per key."""

    game: Game
    space: ActionSpace
    observer: Observer
    max_length: int

    @functools.cached_property
    def kernel(self) -> Kernel:
        """The game's kernel (compiled, or loaded from the disk cache, when first asked)."""
        from interpreter.playouts import chosen_kernel

        found = chosen_kernel(self.game, True)
        assert found is not None  # (kernel=True: a GameError says why there is none)
        return found

    @functools.cached_property
    def seen(self) -> KernelObserver:
        """The observer of the game's kernel states (the same tensor as `observer`)."""
        from interpreter.kernel.observation import KernelObserver

        return KernelObserver(self.observer, self.kernel)

    @functools.cached_property
    def start_tensor(self) -> list[float]:
        """The observation of the start position (OpenSpiel writes it at every observation,
        for the tensor's shape: see `Line.tensor`)."""
        return self.observer.tensor(self.game.initial_state())

    @functools.cached_property
    def kernel_start_tensor(self) -> np.ndarray:
        """The observation of the start position, read from the kernel's start."""
        st = self.kernel.start.copy()
        return self.seen.tensor(st, self.seen.follower(st))


_CACHE: dict[Key, Compiled] = {}


def parse_options(path: str, text: str) -> dict[str, object]:
    """The options of a `key:value key:value` string, each value typed as the game file
    declares its option (an unknown option stays text, for load_game to refuse)."""
    declared = compiled(path, {}).game.expansion.declared if text.strip() else {}
    out: dict[str, object] = {}
    for word in text.split():
        key, colon, value = word.partition(":")
        if not colon or not key:
            raise GameError(f"options {text!r}: write each option as key:value, e.g. size:7")
        option = declared.get(key)
        out[key] = option.coerce(value) if option is not None else value
    return out


def format_options(options: dict[str, object]) -> str:
    """Options as the `options` parameter writes them: `size:7 pie:false`."""
    words = []
    for key, value in options.items():
        text = format_option(value)
        if not text or any(c in text for c in " \t\n,()=:"):
            raise GameError(f"option {key}={value!r}: the OpenSpiel adapter cannot pass a value "
                            "that is empty or holds spaces, commas, parentheses, '=' or ':'")
        words.append(f"{key}:{text}")
    return " ".join(words)


def compiled(path: str, options: dict[str, object]) -> Compiled:
    """The compiled game of a path and options (typed), from the cache or made now."""
    key: Key = (path, tuple(sorted(options.items())))
    entry = _CACHE.get(key)
    if entry is None:
        game = load_game(path, **options)
        entry = _CACHE[key] = Compiled(game, action_space(game), Observer(game),
                                       max_length(game))
    return entry


def _entry_of(params: dict[str, Any]) -> Compiled:
    path = str(params.get("path", ""))
    if not path:
        raise GameError("the OpenSpiel game 'ludeme' needs a path: "
                        "pyspiel.load_game('ludeme', {'path': 'games/hex.game'})")
    return compiled(path, parse_options(path, str(params.get("options", ""))))


# The game -------------------------------------------------------------------------------------


class LudemeGame(pyspiel.Game):  # type: ignore[misc]
    """A game file as an OpenSpiel game (see the module's documentation)."""

    kernel = False  # played in the game's kernel?

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        entry = _entry_of(params)
        game = entry.game
        # Chance outcomes are numbered in the same action table as the players' moves.
        info = pyspiel.GameInfo(
            num_distinct_actions=entry.space.size,
            max_chance_outcomes=entry.space.size if game.has_chance else 0,
            num_players=len(game.players),
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=entry.max_length)
        if self.kernel:
            entry.kernel  # noqa: B018 (made now: a game without one is an error here)
            kind = KERNEL_CHANCE_GAME_TYPE if game.has_chance else KERNEL_GAME_TYPE
        else:
            kind = CHANCE_GAME_TYPE if game.has_chance else GAME_TYPE
        super().__init__(kind, info, params)
        self.ludeme = entry
        self.path = str(params.get("path", ""))
        self.options = str(params.get("options", ""))

    def new_initial_state(self) -> LudemeState:
        return LudemeState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> PositionObserver:
        """The observer of every observation type: the game has perfect information, so the
        observation and the information state are both the position."""
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        return PositionObserver(self.ludeme)


def load(path: str | Path, *, kernel: bool = False, **options: object) -> pyspiel.Game:
    """The game file at `path`, with options (e.g. size=7), as a pyspiel.Game; played in
    its kernel with kernel=True (see the module's documentation). (A game option named
    `kernel` is given in the `options` parameter of pyspiel.load_game.)"""
    params: dict[str, str] = {"path": str(path)}
    text = format_options(options)
    if text:
        params["options"] = text
    return pyspiel.load_game(KERNEL_NAME if kernel else SHORT_NAME, params)


# States ---------------------------------------------------------------------------------------


class Line:
    """The actions made from the start of a game and the ludeme state they lead to (made when
    first asked for). It pickles as the game's key and the actions. An action is made on the
    state in place while the line alone holds it; once the state is shared (a deep copy of
    the line, or handed out as `LudemeState.ludeme`), the next action copies it first, so a
    state anyone else holds never changes."""

    __slots__ = ("path", "options", "actions", "_state", "_entry", "_ended", "_owned")

    def __init__(self, path: str, options: str, actions: list[int],
                 state: State | None = None, entry: Compiled | None = None) -> None:
        self.path = path
        self.options = options
        self.actions = actions
        self._state = state
        self._entry = entry
        self._ended: bool | None = None
        # Is the state this line's alone (made by it, not shared with a copy)? Then an action
        # is made on it in place; a shared state is copied once, by the first action.
        self._owned = False

    @property
    def entry(self) -> Compiled:
        """The compiled game (from the module's cache)."""
        if self._entry is None:
            self._entry = _entry_of({"path": self.path, "options": self.options})
        return self._entry

    @property
    def state(self) -> State:
        if self._state is None:
            state = self.entry.game.initial_state()
            for action in self.actions:
                state = state.apply_action(action)
            self._state = state
            self._owned = True
        return self._state

    @property
    def ended(self) -> bool:
        """Is the episode over (see interpreter.adapters)?"""
        if self._ended is None:
            state = self.state
            self._ended = (state.is_over or len(self.actions) >= self.entry.max_length
                           or is_stuck(state))
        return self._ended

    def then(self, action: int) -> None:
        """Make `action`."""
        state = self.state
        move = action_space(state.game).decode(state, action)
        if self._owned:
            state.game.make(state, move)
        else:
            self._state = state.game.apply(state, move)
            self._owned = True
        self.actions.append(action)
        self._ended = None

    def player(self) -> int:
        """The player to move (CHANCE at a chance position)."""
        return player_to_move(self.state)

    def legal(self) -> list[int]:
        return self.entry.space.legal_actions(self.state)

    def returns(self) -> list[float]:
        return returns(self.state)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """At a chance position, each outcome's action with its probability, by action."""
        state = self.state
        if self.ended or not state.is_chance:
            return []
        space = self.entry.space
        return sorted((space.encode(move), float(p)) for move, p in state.chance_outcomes())

    def tensor(self) -> list[float]:
        """The observation tensor, flat. (OpenSpiel's Python games learn the tensor's shape
        from a new initial state's observation, at every observation: the start's is kept.)"""
        if not self.actions:
            return self.entry.start_tensor
        return self.entry.observer.tensor(self.state)

    def __deepcopy__(self, memo: dict[int, Any]) -> Line:
        line = Line(self.path, self.options, list(self.actions), self._state, self._entry)
        line._ended = self._ended
        self._owned = False  # the two lines now share the state: the next action copies it
        return line

    def __reduce__(self) -> tuple[Any, ...]:
        return (Line, (self.path, self.options, list(self.actions)))


class KernelLine:
    """A line played in the game's kernel (see the module's documentation), with Line's
    interface: what search asks, chance outcomes and the observation tensor are answered from
    the kernel's state by an Episode and a Follower (interpreter.kernel.observation); the
    interpreter's state is replayed only when asked. It pickles as the game's key and the
    actions, replayed in the kernel."""

    __slots__ = ("path", "options", "entry", "episode", "follower")

    def __init__(self, path: str, options: str, actions: list[int],
                 entry: Compiled | None = None) -> None:
        from interpreter.kernel.episode import Episode

        self.path = path
        self.options = options
        self.entry = entry or _entry_of({"path": path, "options": options})
        self.episode: Episode = Episode(self.entry.kernel, self.entry.max_length)
        # What the observation needs beyond the kernel's state (None: nothing).
        self.follower: Follower | None = self.entry.seen.follower(self.episode.st)
        for action in actions:
            self.then(action)

    @property
    def actions(self) -> list[int]:
        return self.episode.actions

    @property
    def state(self) -> State:
        return self.episode.state

    @property
    def ended(self) -> bool:
        return self.episode.ended()

    def then(self, action: int) -> None:
        """Make `action` (IllegalMoveError, with the interpreter's reason, if it is not
        legal)."""
        try:
            self.episode.apply(action)
        except IllegalMoveError:
            self.episode.state.apply_action(action)  # the interpreter's message says why
            raise
        if self.follower is not None:
            self.follower.after(self.episode.st)

    def player(self) -> int:
        return self.episode.player()

    def legal(self) -> list[int]:
        return self.episode.legal()

    def returns(self) -> list[float]:
        return self.episode.returns()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """At a chance position, each outcome's action with its probability, by action
        (from the kernel: the interpreter's outcomes and probabilities)."""
        if self.ended:
            return []
        return sorted(self.entry.kernel.chance_outcomes(self.episode.st))

    def tensor(self) -> np.ndarray:
        """The observation tensor, flat, read from the kernel's state (the start's is kept,
        as in Line.tensor)."""
        if not self.episode.actions:
            return self.entry.kernel_start_tensor
        return self.entry.seen.tensor(self.episode.st, self.follower)

    def __deepcopy__(self, memo: dict[int, Any]) -> KernelLine:
        line = KernelLine.__new__(KernelLine)
        line.path, line.options, line.entry = self.path, self.options, self.entry
        line.episode = self.episode.copy()
        line.follower = self.follower.copy() if self.follower is not None else None
        return line

    def __reduce__(self) -> tuple[Any, ...]:
        return (KernelLine, (self.path, self.options, list(self.actions)))


class LudemeState(pyspiel.State):  # type: ignore[misc]
    """A position of a ludeme game, as OpenSpiel sees it."""

    def __init__(self, game: pyspiel.Game) -> None:
        super().__init__(game)
        entry: Compiled | None = getattr(game, "ludeme", None)
        self.line: Line | KernelLine
        if entry is not None:
            self.line = KernelLine(game.path, game.options, [], entry) if game.kernel else \
                Line(game.path, game.options, [], None, entry)
        else:  # a wrapper of the game made by OpenSpiel: its parameters say which game
            params = game.get_parameters()
            path, options = str(params.get("path", "")), str(params.get("options", ""))
            self.line = KernelLine(path, options, []) if game.get_type().short_name == \
                KERNEL_NAME else Line(path, options, [])

    @property
    def ludeme(self) -> State:
        """The ludeme State of this position (it does not change when the game goes on)."""
        state = self.line.state
        if isinstance(self.line, Line):
            self.line._owned = False  # handed out: the next action copies it
        return state

    def current_player(self) -> int:
        if self.line.ended:
            return int(pyspiel.PlayerId.TERMINAL)
        return self.line.player()

    def _legal_actions(self, player: int) -> list[int]:
        if self.line.ended or player != self.line.player():
            return []
        return self.line.legal()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """At a chance node, each outcome's action with its probability."""
        return self.line.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self.line.then(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self.line.entry.space.notation(int(action))

    def is_terminal(self) -> bool:
        return self.line.ended

    def returns(self) -> list[float]:
        return self.line.returns()

    def __str__(self) -> str:
        return self.line.state.to_text()


class PositionObserver:
    """OpenSpiel's Python observer: the tensor and the position text (see the module)."""

    def __init__(self, entry: Compiled) -> None:
        self.observer = entry.observer
        shape = entry.observer.shape
        self.tensor = np.zeros(entry.observer.size, np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: LudemeState, player: int) -> None:
        self.tensor[:] = state.line.tensor()

    def string_from(self, state: LudemeState, player: int) -> str:
        return state.line.state.to_text()


class LudemeKernelGame(LudemeGame):
    """A game file as an OpenSpiel game played in its kernel (see the module's
    documentation)."""

    kernel = True


pyspiel.register_game(GAME_TYPE, LudemeGame)
pyspiel.register_game(KERNEL_GAME_TYPE, LudemeKernelGame)

__all__ = ["GAME_TYPE", "KERNEL_GAME_TYPE", "LudemeGame", "LudemeKernelGame", "LudemeState",
           "load"]
