"""An episode played in a game's kernel, as the adapters (interpreter/openspiel.py,
interpreter/pettingzoo.py) see it.

The kernel holds the position (an int64 array, changed in place by each action), so what
search asks of every node — the legal actions, the player to move, whether the episode is
over, the returns — is answered natively; the adapters read the observation tensor from the
kernel state too (interpreter/kernel/observation.py) and chance outcomes from
`Kernel.chance_outcomes`. What only the interpreter knows how to show — the position text, an
illegal action's reason — comes from the interpreter's State of the same position, replayed
from the actions when first asked (each action is replayed once, however often it is asked).

The episode ends as `interpreter.adapters` says: when the rules end the game, when the player
to move has no legal move (a draw), or after `max_length` actions (a draw); players are people
(with the pie rule, player 0 is whoever held the first role at the start).

    >>> from interpreter import load_game
    >>> from interpreter.kernel import kernel_for
    >>> game = load_game("games/tictactoe.game")
    >>> kernel = kernel_for(game)
    >>> episode = Episode(kernel, max_length=180)
    >>> for action in (0, 3, 1, 4, 2):   # X takes a1, b1 and c1; O a2 and b2
    ...     episode.apply(action)
    >>> episode.ended(), episode.returns()
    (True, [1.0, -1.0])
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from interpreter.adapters import CHANCE, returns_of
from interpreter.kernel.layout import HEADER

if TYPE_CHECKING:
    import numpy as np

    from interpreter.game import State
    from interpreter.kernel.kernel import Kernel

_SWAPPED = HEADER.index("H_SWAPPED")


class Episode:
    """The actions made from the start of a game and the kernel state they lead to."""

    __slots__ = ("kernel", "st", "actions", "max_length", "_legal", "_ended", "_player",
                 "_state", "_replayed")

    def __init__(self, kernel: Kernel, max_length: int) -> None:
        self.kernel = kernel
        self.st: np.ndarray = kernel.start.copy()
        self.actions: list[int] = []
        self.max_length = max_length
        # What the position answers, once asked (OpenSpiel asks the player to move several
        # times an action).
        self._legal: list[int] | None = None
        self._ended: bool | None = None
        self._player: int | None = None
        self._state: State | None = None  # the interpreter's position after _replayed actions
        self._replayed = 0

    def copy(self) -> Episode:
        """An episode of its own from the same position (the interpreter's states are
        shared: they never change)."""
        other = Episode.__new__(Episode)
        other.kernel, other.max_length = self.kernel, self.max_length
        other.st = self.st.copy()
        other.actions = list(self.actions)
        other._legal, other._ended, other._player = self._legal, self._ended, self._player
        other._state, other._replayed = self._state, self._replayed
        return other

    def legal(self) -> list[int]:
        """The legal actions, sorted (none once the rules ended the game)."""
        if self._legal is None:
            self._legal = self.kernel.legal_actions(self.st)
        return self._legal

    def ended(self) -> bool:
        """Is the episode over (the rules ended it, nobody can move, or it is too long)?"""
        if self._ended is None:
            self._ended = (self.kernel.result(self.st) is not None
                           or len(self.actions) >= self.max_length or not self.legal())
        return self._ended

    def person(self, role: int) -> int:
        """The player holding `role` (the two first roles exchanged once swapped)."""
        if role < 2 and self.st[self.kernel.sites + _SWAPPED]:
            return 1 - role
        return role

    def player(self) -> int:
        """The player to move; CHANCE where chance decides next."""
        if self._player is None:
            self._player = CHANCE if self.kernel.is_chance(self.st) else \
                self.person(self.kernel.to_move(self.st))
        return self._player

    def returns(self) -> list[float]:
        """Each player's return: +1 to the winner, -1 / (n - 1) to each other player; 0 to
        all in a draw and while the game goes on (or when it was cut short or got stuck)."""
        n = self.kernel.game.roles
        winner = self.kernel.result(self.st)
        return returns_of(n, self.person(winner) if winner is not None and 0 <= winner < n
                          else None)

    def apply(self, action: int) -> None:
        """Make the legal action `action` (IllegalMoveError if it is not legal)."""
        self.kernel.apply(self.st, action)
        self.actions.append(action)
        self._legal = self._ended = self._player = None

    @property
    def state(self) -> State:
        """The interpreter's State of the position (replayed from the actions)."""
        state = self._state
        if state is None:
            state = self.kernel.game.initial_state()
        for action in self.actions[self._replayed:]:
            state = state.apply_action(action)
        self._state, self._replayed = state, len(self.actions)
        return state
