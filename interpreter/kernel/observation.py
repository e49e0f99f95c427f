"""The adapters' observation tensor (`interpreter.adapters.Observer`) read from a kernel state.

The tensor is computed from the kernel's int64 state array — the board, the header (the role
to move, the phase and decision, passes, the pie), the hands and the state the game's ludemes
declare (stdlib/statefields.py: scores, turns, decisions without capture, the last sites, the
dice, the edges, hands by kind) — without an interpreter State. Two parts of a position are not
in the kernel's state, and a `Follower` follows them action by action beside it:

- the board before the last turn (games that keep a position history): the kernel keeps only
  hashes of earlier positions; the follower keeps the board at the start of the turn in
  progress and, when the turn's count goes up, the sites the turn changed and what they held;
- what ludemes remember (the game's memories, stdlib.runtime.Memory: rights kept from move to
  move, a move forbidden next): the kernel keeps these in its lowerings' own encodings, which
  nothing decodes; the follower keeps each memory's value as the interpreter does, by the
  memory's `update` on the boards before and after each decision, given the sites whose
  values differ (the interpreter gives the sites the decision wrote: the memories use them
  only to know where to look; tests/test_pettingzoo_kernel.py compares the two).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from interpreter.kernel.layout import HEADER

if TYPE_CHECKING:
    from interpreter.adapters import Observer
    from interpreter.game import Game
    from interpreter.kernel.kernel import Kernel

_H = {name: i for i, name in enumerate(HEADER)}

Before = tuple[tuple[int, int], ...]  # the sites the last turn changed and what they held


class KernelView:
    """What the declared state fields read of a position (StateField.observe), from a kernel
    state: the attributes of State they use, nothing else."""

    __slots__ = ("game", "_kernel", "_st")

    def __init__(self, kernel: Kernel, st: np.ndarray) -> None:
        self.game: Game = kernel.game
        self._kernel = kernel
        self._st = st

    def _header(self, name: str) -> int:
        return int(self._st[self._kernel.sites + _H[name]])

    @property
    def quiet(self) -> int:
        return self._header("H_QUIET")

    @property
    def turn(self) -> int:
        return self._header("H_TURN")

    @property
    def last_to(self) -> int:
        return self._header("H_LAST_TO")

    @property
    def last_from(self) -> int:
        return self._header("H_LAST_FROM")

    @property
    def scores(self) -> list[int]:
        return self._kernel.scores(self._st)

    @property
    def dice(self) -> list[int]:
        return self._kernel.dice(self._st)

    @property
    def edges(self) -> tuple[int, ...]:
        return self._kernel.edges(self._st)

    @property
    def held(self) -> tuple[tuple[int, ...], ...]:
        return self._kernel.held(self._st)


class KernelObserver:
    """`Observer`'s tensor of kernel states (see the module's documentation)."""

    def __init__(self, observer: Observer, kernel: Kernel) -> None:
        self.observer = observer
        self.kernel = kernel
        game = kernel.game
        self.sites = observer.sites
        # Per board value, its marks on the kind planes (as Observer._pieces writes them).
        self._marks = np.zeros((len(observer.marks), observer.kinds), np.float32)
        for v, marks in enumerate(observer.marks):
            for plane, amount in marks:
                self._marks[v, plane] = amount
        self._static = np.array(observer.static, np.float32)
        # Per phase and step: the decisions of the turn before it (the decision plane).
        self._decisions = [[sum(1 for d, _ in steps[:i] if d) for i in range(len(steps) + 1)]
                           for steps in game.turns]
        # Does an observation need a Follower (see the module's documentation)?
        self.follows = observer.before_plane is not None or bool(game.env.memories)

    def follower(self, st: np.ndarray) -> Follower | None:
        """A follower of an episode from `st`, if the observation needs one."""
        return Follower(self.kernel, st, self.observer.before_plane is not None) \
            if self.follows else None

    def tensor(self, st: np.ndarray, follower: Follower | None = None) -> np.ndarray:
        """The observation of kernel state `st`, flat (float32); `follower` has followed the
        episode to `st` (needed where `follows`)."""
        obs = self.observer
        n = self.sites
        h = self.kernel.sites
        out = np.zeros(obs.size, np.float32)
        planes = out.reshape(obs.shape)
        board = st[:n]
        self._pieces(planes, 0, board)
        start = obs.kinds * n
        out[start:start + len(self._static)] = self._static
        planes[obs.mover_plane + int(st[h + _H["H_TO_MOVE"]])] = 1.0
        phase, step = int(st[h + _H["H_PHASE"]]), int(st[h + _H["H_STEP"]])
        if obs.phase_plane is not None:
            planes[obs.phase_plane + phase] = 1.0
        if obs.decision_plane is not None:
            planes[obs.decision_plane] = float(self._decisions[phase][step])
        if obs.passes_plane is not None:
            planes[obs.passes_plane] = float(st[h + _H["H_PASSES"]])
        if obs.pie_plane is not None:
            planes[obs.pie_plane] = float(st[h + _H["H_PIE_OPEN"]])
            planes[obs.pie_plane + 1] = float(st[h + _H["H_SWAPPED"]])
        if obs.hand_planes:
            hands = self.kernel.hands(st)
            for role, plane in obs.hand_planes:
                if hands and hands[role] >= 0:
                    planes[plane] = float(hands[role])
        flat: Any = out  # (a float32 array takes the Observer's slice assignments)
        if self.kernel.game.env.fields:
            obs.mark_fields(flat, KernelView(self.kernel, st))
        if self.follows:
            assert follower is not None, "this game's observation needs a Follower"
            if obs.before_plane is not None:
                earlier = board.copy()
                for s, v in follower.before:
                    earlier[s] = v
                self._pieces(planes, obs.before_plane, earlier)
            if follower.memory:
                obs.mark_memories(flat, follower.memory)
        return out

    def _pieces(self, planes: np.ndarray, first: int, board: np.ndarray) -> None:
        """Mark the pieces of `board` on the kind planes from plane `first`."""
        planes[first:first + self.observer.kinds] = self._marks[board].T


class Follower:
    """What a position holds beyond the kernel's state (see the module's documentation),
    followed action by action on a kernel state: `before`, the sites the last completed turn
    changed and what they held (State.before), in games that keep a position history; and
    `memory`, each of the game's memories' value (State.memory)."""

    __slots__ = ("kernel", "before", "memory", "_history", "_start", "_turn", "_board")

    def __init__(self, kernel: Kernel, st: np.ndarray, history: bool) -> None:
        self.kernel = kernel
        self.before: Before = ()
        self.memory: tuple[Any, ...] = (None,) * len(kernel.game.env.memories)
        self._history = history
        self._start = st[:kernel.sites].copy()  # the board when the turn in progress began
        self._turn = int(st[kernel.sites + _H["H_TURN"]])
        # The board before the next decision (memories), as State.board (of Python ints).
        self._board: list[int] = st[:kernel.sites].tolist()

    def copy(self) -> Follower:
        """A follower of its own from the same point (OpenSpiel clones states, and each clone
        then goes its own way). Cheap: what a follower holds is never changed in place, only
        replaced (`after` makes new tuples and arrays), so the copy shares it until then."""
        other = Follower.__new__(Follower)
        other.kernel, other.before, other.memory = self.kernel, self.before, self.memory
        other._history, other._start = self._history, self._start
        other._turn, other._board = self._turn, self._board
        return other

    def after(self, st: np.ndarray) -> None:
        """Follow an action just made on `st`."""
        if self.memory:
            self._remember(st)
        if not self._history:
            return
        n = self.kernel.sites
        turn = int(st[n + _H["H_TURN"]])
        if turn == self._turn:
            return
        board = st[:n]
        changed = np.flatnonzero(board != self._start)
        self.before = tuple(zip(changed.tolist(), self._start[changed].tolist(), strict=True))
        self._start = board.copy()
        self._turn = turn

    def _remember(self, st: np.ndarray) -> None:
        old, new = self._board, st[:self.kernel.sites].tolist()
        changed = tuple(s for s, (a, b) in enumerate(zip(old, new, strict=True)) if a != b)
        self.memory = tuple([mem.update(old, new, changed, value) for mem, value
                             in zip(self.kernel.game.env.memories, self.memory, strict=True)])
        self._board = new
