"""A compiled game kernel: its module loaded from the disk cache, random games in bulk, and a
step API (legal actions, apply, undo) over a state array."""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

import numpy as np

from interpreter.errors import IllegalMoveError
from interpreter.kernel import refcounts
from interpreter.kernel.layout import (
    DICE_CAP,
    DRAW,
    HEADER,
    PLAYING,
    edges_offset,
    hands_offset,
)
from stdlib.structure import DRAW as INTERPRETED_DRAW

if TYPE_CHECKING:
    from interpreter.game import Game, State
    from interpreter.kernel.builder import KernelSource
    from interpreter.playouts import Playouts

_H = {name: i for i, name in enumerate(HEADER)}


def cache_dir() -> Path:
    """Where generated kernel modules (and numba's compiled code beside them) are kept:
    $LUDEME_KERNEL_CACHE, else $XDG_CACHE_HOME/ludeme/kernels, else ~/.cache/ludeme/kernels."""
    given = os.environ.get("LUDEME_KERNEL_CACHE")
    if given:
        return Path(given)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "ludeme" / "kernels"


def load_module(source: str, digest: str) -> ModuleType:
    """The generated module, written to the cache (once per source) and imported from there,
    so numba's own cache (cache=True) finds its machine code on the next load."""
    name = f"ludeme_kernel_{digest}"
    if name in sys.modules:
        return sys.modules[name]
    folder = cache_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.py"
    if not path.exists() or hashlib.sha256(path.read_bytes()).hexdigest() != \
            hashlib.sha256(source.encode()).hexdigest():
        fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
        with os.fdopen(fd, "w") as f:
            f.write(source)
        os.replace(tmp, path)  # whole or not at all, whoever writes it at the same time
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def seed_array(seeds: Sequence[int] | np.ndarray) -> np.ndarray:
    """Seeds as the kernel's generators take them (rng_seed): their low 64 bits, uint64."""
    if isinstance(seeds, np.ndarray) and seeds.dtype == np.uint64:
        return seeds
    return np.array([s & 0xFFFF_FFFF_FFFF_FFFF for s in seeds], np.uint64)


def _signed(key: int) -> int:
    """A 64-bit key as the int64 with the same bits."""
    return key - (1 << 64) if key >= 1 << 63 else key


class Kernel:
    """A game's rules in native code. States are int64 arrays (`encode` makes one from a
    State); the step API changes them in place."""

    def __init__(self, game: Game, built: KernelSource) -> None:
        from numba.core.errors import NumbaError

        self.game = game
        self.sites = len(game.sites)
        began = time.perf_counter()
        self.tables = tuple(np.ascontiguousarray(np.array(t, dtype=np.int32))
                            for t in built.tables)
        self._acts = np.empty(built.max_moves, np.int32)
        self._tags = np.empty(built.max_moves, np.int32)
        # Every function keeps numba's reference counts: one that the rewrite compiles without
        # them made an array after all, in a way it does not see (interpreter/kernel/refcounts.py).
        self.all_counted = False
        try:
            self._load(built)
        except NumbaError:
            if refcounts.FLAG not in built.source:
                raise
            source = refcounts.counted(built.source)
            self.all_counted = True
            self._load(replace(built, source=source,
                               digest=hashlib.sha256(source.encode()).hexdigest()[:24]))
        self.load_seconds = time.perf_counter() - began

    def _load(self, built: KernelSource) -> None:
        """Load the module (compiling it, or from numba's cache) and every entry point now,
        not in the first game."""
        from numba.core.errors import NumbaError

        self.built = built
        self.module = load_module(built.source, built.digest)
        self.start = self.encode(self.game.initial_state())
        self.module.playouts(self.tables, self.start, np.zeros(0, np.uint64), 0,
                             np.zeros(0, np.int32), np.zeros(0, np.int32),
                             np.zeros(0, np.int32))
        st = self.start.copy()
        self.module.find(st, self.tables, -1, self._acts, self._tags)
        self.module.apply(st, self.tables, 0, -1)  # tag -1: no move, just the turn's end
        self.module.playout_actions(self.tables, self.start, np.uint64(0), 0,
                                    np.zeros(1, np.int32))
        wrong = refcounts.unsound(self.module, built.source)
        if wrong:
            raise NumbaError(f"{', '.join(wrong)}: compiled without reference counts, "
                             "returning or taking an array")

    # States -------------------------------------------------------------------------------
    def encode(self, state: State) -> np.ndarray:
        """The kernel state of an interpreter position."""
        n = self.sites
        st = np.zeros(self.built.size, np.int64)
        st[:n] = state.board
        h = n
        st[h + _H["H_TO_MOVE"]] = state.to_move
        if state.result is None:
            st[h + _H["H_RESULT"]] = PLAYING
            st[h + _H["H_REASON"]] = -1
        else:
            st[h + _H["H_RESULT"]] = DRAW if state.result == INTERPRETED_DRAW else state.result
            st[h + _H["H_REASON"]] = self.built.reasons.index(state.reason) \
                if state.reason in self.built.reasons else -1
        st[h + _H["H_TURN"]] = state.turn
        st[h + _H["H_PASSES"]] = state.passes
        st[h + _H["H_LAST_TO"]] = state.last_to
        st[h + _H["H_LAST_FROM"]] = state.last_from
        for name, value in (("H_PHASE", state.phase), ("H_STEP", state.step),
                            ("H_TO", -1), ("H_FROM", -1), ("H_AGAIN", 0), ("H_REFUSED", 0),
                            ("H_TAKEN", state.captures), ("H_ALLPASS", state.turn_all_pass),
                            ("H_PIE_OPEN", state.pie_open), ("H_SWAPPED", state.swapped),
                            ("H_QUIET", state.quiet)):
            st[h + _H[name]] = int(value)
        roles = self.game.roles
        scores = h + len(HEADER)
        st[scores:scores + roles] = state.scores or (0,) * roles
        dice = scores + roles
        st[h + _H["H_NDICE"]] = len(state.dice)
        st[dice:dice + len(state.dice)] = state.dice
        last = state.last
        changed = dice + DICE_CAP
        if last is None or len(last) > 2 * n + 8:
            st[h + _H["H_NCHANGED"]] = -1
        else:
            st[h + _H["H_NCHANGED"]] = len(last)
            st[changed:changed + len(last)] = last
        at = hands_offset(n, self.game.roles)
        if state.hands:
            st[at:at + len(state.hands)] = state.hands
            at += 2 * len(state.hands)  # and the hands before a batch (scratch)
        for counts in state.held:  # hands by kind: role by role
            st[at:at + len(counts)] = counts
            at += len(counts)
        if state.edges:
            at = self._edges_at()
            st[at:at + len(state.edges)] = state.edges
        if self.built.history:
            history = state.history or []
            if len(history) > self.built.history:
                raise ValueError(f"the position's history is longer than the kernel keeps "
                                 f"({self.built.history} positions)")
            st[h + _H["H_HASH"]] = _signed(state.zhash)
            st[h + _H["H_HISTORY"]] = len(history)
            at = self.built.size - self.built.history * (2 if self.built.situations else 1)
            st[at:at + len(history)] = [_signed(x) for x in history]
        for offset, width, encode in self.built.slots:
            values = list(encode(state))
            assert len(values) == width, (offset, width, len(values))
            st[offset:offset + width] = values
        if self.built.situations:
            # The situations of the positions of the history: each with its mover (the roles
            # in turn, back from the player to move) and the memories as they are now (a
            # position read from text has no more history than itself).
            history = state.history or []
            at = self.built.size - self.built.history
            roles = self.game.roles
            for i, x in enumerate(history):
                mover = (state.to_move - (len(history) - 1 - i)) % roles
                st[at + i] = self.module.situation_hash(st, _signed(x), mover)
        return st

    def board(self, st: np.ndarray) -> list[int]:
        return [int(v) for v in st[:self.sites]]

    def to_move(self, st: np.ndarray) -> int:
        return int(st[self.sites + _H["H_TO_MOVE"]])

    def turn_step(self, st: np.ndarray) -> tuple[int, int]:
        """The phase and the decision within the turn the state is at."""
        return int(st[self.sites + _H["H_PHASE"]]), int(st[self.sites + _H["H_STEP"]])

    def dice(self, st: np.ndarray) -> list[int]:
        """The dice rolled and not used yet."""
        at = self.sites + len(HEADER) + self.game.roles
        return [int(v) for v in st[at:at + int(st[self.sites + _H["H_NDICE"]])]]

    def hands(self, st: np.ndarray) -> tuple[int, ...]:
        """The pieces each role has in hand (-1: not counted), as State.hands: () in a game
        whose roles do not count them."""
        if not any(self.game.env.supply):
            return ()
        at = hands_offset(self.sites, self.game.roles)
        return tuple(int(v) for v in st[at:at + self.game.roles])

    def held(self, st: np.ndarray) -> tuple[tuple[int, ...], ...]:
        """The pieces each role holds of each hand kind, as State.held: () in a game without
        hands by kind."""
        kinds = self.game.env.hand_kinds
        if kinds is None:
            return ()
        roles = self.game.roles
        at = hands_offset(self.sites, roles) + (2 * roles if any(self.game.env.supply) else 0)
        k = len(kinds.names)
        return tuple(tuple(int(v) for v in st[at + r * k:at + (r + 1) * k])
                     for r in range(roles))

    def edges(self, st: np.ndarray) -> tuple[int, ...]:
        """Each edge's value (0 empty, role + 1 held), as State.edges: () in a game whose
        board declares no edges."""
        count = len(self.game.no_edges)
        at = self._edges_at()
        return tuple(int(v) for v in st[at:at + count])

    def _edges_at(self) -> int:
        env = self.game.env
        kinds = len(env.hand_kinds.names) if env.hand_kinds is not None else 0
        return edges_offset(self.sites, self.game.roles, any(env.supply), kinds)

    def is_chance(self, st: np.ndarray) -> bool:
        """Is the next decision chance's?"""
        return self.result(st) is None and bool(self.module.is_chance(st))

    def chance_outcomes(self, st: np.ndarray) -> list[tuple[int, float]]:
        """At a chance decision, its outcomes' actions in the order the rules list them (the
        order of Game.chance_outcomes), each with its probability as a float (the opening
        roll's on the first turn, as `chance_pick` draws them); [] elsewhere."""
        if not self.is_chance(st):
            return []
        phase, step = self.turn_step(st)
        weights = getattr(self.module, f"W_{phase}_{step}")
        if st[self.sites + _H["H_TURN"]] == 0:
            weights = getattr(self.module, f"WO_{phase}_{step}", weights)
        n = self.module.legal(st, self.tables, self._acts, self._tags)
        return list(zip(self._acts[:n].tolist(), weights.tolist(), strict=True))

    def scores(self, st: np.ndarray) -> list[int]:
        at = self.sites + len(HEADER)
        return [int(v) for v in st[at:at + self.game.roles]]

    def result(self, st: np.ndarray) -> int | None:
        """None while playing; the winner's role index, or stdlib.structure.DRAW."""
        r = int(st[self.sites + _H["H_RESULT"]])
        return None if r == PLAYING else INTERPRETED_DRAW if r == DRAW else r

    def reason(self, st: np.ndarray) -> str:
        i = int(st[self.sites + _H["H_REASON"]])
        return self.built.reasons[i] if i >= 0 else ""

    def is_terminal(self, st: np.ndarray) -> bool:
        return self.result(st) is not None or not self.legal_actions(st)

    def returns(self, st: np.ndarray) -> list[float]:
        """Per role: 1 for the winner, -1 for the others; 0 each for a draw or no result."""
        r = self.result(st)
        roles = self.game.roles
        if r is None or r == INTERPRETED_DRAW:
            return [0.0] * roles
        return [1.0 if i == r else -1.0 for i in range(roles)]

    # Step API -----------------------------------------------------------------------------
    def legal_actions(self, st: np.ndarray) -> list[int]:
        """The legal moves as action numbers (interpreter/actions.py), sorted."""
        if self.result(st) is not None:
            return []
        n = self.module.legal(st, self.tables, self._acts, self._tags)
        return sorted(set(self._acts[:n].tolist()))

    def apply(self, st: np.ndarray, action: int) -> None:
        """Make the legal move numbered `action` on `st`, in place."""
        if self.result(st) is not None:
            raise IllegalMoveError(f"action {action}: the game is over")
        tag = self.module.find(st, self.tables, action, self._acts, self._tags)
        if tag < 0:
            raise IllegalMoveError(f"action {action}: not a legal move now")
        self.module.apply(st, self.tables, action, tag)

    def perft(self, st: np.ndarray, depth: int) -> int:
        """How many sequences of `depth` legal decisions there are from `st` (perft: each
        legal action once, none after the game's end), counted in native code; st is left
        as it was."""
        return int(self.module.perft(st, self.tables, depth))

    # Random games -------------------------------------------------------------------------
    def playouts(self, seeds: Sequence[int] | np.ndarray, max_plies: int | None = None
                 ) -> Playouts:
        """One random game per seed, in native code (see Game.playouts)."""
        return self.results(*self.play(seeds, max_plies))

    def play(self, seeds: Sequence[int] | np.ndarray, max_plies: int | None = None
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """One random game per seed, in native code: the games' results as the kernel keeps
        them (`results` reads them), one int32 array each of winners, lengths and reasons."""
        count = len(seeds)
        bound = self._bound(max_plies)
        winners = np.zeros(count, np.int32)
        lengths = np.zeros(count, np.int32)
        reasons = np.zeros(count, np.int32)
        self.module.playouts(self.tables, self.start, seed_array(seeds), bound, winners,
                             lengths, reasons)
        return winners, lengths, reasons

    def results(self, winners: np.ndarray, lengths: np.ndarray, reasons: np.ndarray
                ) -> Playouts:
        """The Playouts of the arrays `play` filled."""
        from interpreter.playouts import Playouts

        players, names = self.game.players, self.built.reasons
        won = winners.tolist()
        return Playouts([players[w] if w >= 0 else None for w in won], lengths.tolist(),
                        [names[r] if w != PLAYING and r >= 0 else ""
                         for w, r in zip(won, reasons.tolist(), strict=True)])

    def _bound(self, max_plies: int | None) -> int:
        bound = max_plies if max_plies is not None else 20 * self.sites
        if self.built.history and bound >= self.built.history:
            raise ValueError(f"max_plies: this kernel keeps a history of "
                             f"{self.built.history} positions: at most "
                             f"{self.built.history - 1} moves")
        return bound

    def random_result(self, st: np.ndarray, seed: int, max_plies: int | None = None
                      ) -> int | None:
        """The result (as `result` says it) of one random game played natively on from `st`,
        which is left as it was; None when it did not end within `max_plies` (default
        20 x sites) decisions or where nobody could move. For search (MCTS rollouts)."""
        bound = self._bound(max_plies)
        out = self.__dict__.get("_one")
        if out is None:
            out = self.__dict__["_one"] = tuple(np.zeros(1, np.int32) for _ in range(3))
        seeds = seed_array([seed])
        self.module.playouts(self.tables, st, seeds, bound, *out)
        r = int(out[0][0])
        return None if r == PLAYING else INTERPRETED_DRAW if r == DRAW else r

    def playout_actions(self, seed: int, max_plies: int | None = None) -> list[int]:
        """The actions of one random game played by the kernel."""
        bound = self._bound(max_plies)
        record = np.zeros(max(bound, 1), np.int32)
        n = self.module.playout_actions(self.tables, self.start, seed_array([seed])[0], bound,
                                        record)
        return record[:n].tolist()
