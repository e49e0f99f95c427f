"""Per-position state that ludemes declare, and how it reads and writes itself in position
text and appears in observation tensors. A ludeme that needs a counter, a score or a
remembered site declares a `StateField` with `declare(env, field)`; position text
(interpreter/text.py) and the adapters' observations (interpreter/adapters.py) handle every
declared field without knowing what it is, so a game pays only for the state it uses and a
new kind of state needs no edit of the engine.

Fields keep their values on the position (the state's slots named in each field); the
engine updates them move by move.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from typing import Any, ClassVar, Protocol

from stdlib.runtime import Env


class Keys(Protocol):
    """The `key: value` lines of a position text being read, as a field sees them."""

    def take(self, key: str) -> tuple[int, str] | None:
        """The line number and value of `key` (removed from those left), or None."""

    def number(self, key: str, default: int, low: int, high: int) -> int:
        """`key`'s value as a whole number in [low, high], or `default` when absent."""

    def error(self, line: int, message: str) -> Exception:
        """The error to raise for a bad value on `line`."""


class StateField(ABC):
    """One declared piece of per-position state. Fields are written in the order of `order`;
    `late` ones after the ludemes' memories (as FEN puts its counters last)."""

    order: ClassVar[int] = 50
    late: ClassVar[bool] = False

    @abstractmethod
    def keys(self, roles: tuple[str, ...]) -> list[str]:
        """The position-text keys the field reads."""

    @abstractmethod
    def render(self, state: Any) -> list[str]:
        """The field's `key: value` lines for a position (none when at its default)."""

    @abstractmethod
    def parse(self, state: Any, keys: Keys) -> None:
        """Read the field's keys (if given) into a position read from text."""

    def planes(self, roles: tuple[str, ...]) -> list[tuple[str, float, float]]:
        """The field's planes in an observation tensor: (name, lowest, highest value)."""
        return []

    def observe(self, state: Any) -> list[float | dict[int, float]]:
        """Per plane: a number that fills it, or values on some sites (the rest 0)."""
        return []


def declare(env: Env, field: StateField) -> StateField:
    """Declare a field for the game (once per kind of field: a second declaration of the
    same class gives back the first)."""
    for known in env.fields:
        if type(known) is type(field):
            return known
    env.fields.append(field)
    env.fields.sort(key=lambda f: f.order)
    return field


class CaptureFree(StateField):
    """Decisions in a row that took no piece of another role: `without capture: N`."""

    order = 10

    def keys(self, roles: tuple[str, ...]) -> list[str]:
        return ["without capture"]

    def render(self, state: Any) -> list[str]:
        return [f"without capture: {state.quiet}"] if state.quiet else []

    def parse(self, state: Any, keys: Keys) -> None:
        state.quiet = keys.number("without capture", 0, 0, 10**9)

    def planes(self, roles: tuple[str, ...]) -> list[tuple[str, float, float]]:
        return [("without capture", 0.0, math.inf)]

    def observe(self, state: Any) -> list[float | dict[int, float]]:
        return [float(state.quiet)]


class MoveCounters(StateField):
    """FEN's counters: `halfmove: N` (decisions without a capture or a move of certain
    pieces) and `fullmove: N` (the number of the full move being played, from 1)."""

    order = 90
    late = True

    def __init__(self, roles: int) -> None:
        self.roles = roles

    def keys(self, roles: tuple[str, ...]) -> list[str]:
        return ["halfmove", "fullmove"]

    def render(self, state: Any) -> list[str]:
        lines = [f"halfmove: {state.quiet}"] if state.quiet else []
        if state.turn // self.roles:
            lines.append(f"fullmove: {state.turn // self.roles + 1}")
        return lines

    def parse(self, state: Any, keys: Keys) -> None:
        state.quiet = keys.number("halfmove", 0, 0, 10**9)
        full = keys.number("fullmove", 1, 1, 10**9)
        first = state.game.first  # the turns played, as far as the full move number says
        state.turn = (full - 1) * self.roles + (state.to_move - first) % self.roles

    def planes(self, roles: tuple[str, ...]) -> list[tuple[str, float, float]]:
        return [("halfmove", 0.0, math.inf), ("turns", 0.0, math.inf)]

    def observe(self, state: Any) -> list[float | dict[int, float]]:
        return [float(state.quiet), float(state.turn)]


class Turns(StateField):
    """The number of turns played: `turns: N`."""

    order = 20

    def keys(self, roles: tuple[str, ...]) -> list[str]:
        return ["turns"]

    def render(self, state: Any) -> list[str]:
        return [f"turns: {state.turn}"] if state.turn else []

    def parse(self, state: Any, keys: Keys) -> None:
        state.turn = keys.number("turns", 0, 0, 10**9)

    def planes(self, roles: tuple[str, ...]) -> list[tuple[str, float, float]]:
        return [("turns", 0.0, math.inf)]

    def observe(self, state: Any) -> list[float | dict[int, float]]:
        return [float(state.turn)]


class Scores(StateField):
    """Each role's score: `score ROLE: N` (left out at 0)."""

    order = 30

    def __init__(self, roles: tuple[str, ...]) -> None:
        self.roles = roles

    def keys(self, roles: tuple[str, ...]) -> list[str]:
        return [f"score {role}" for role in roles]

    def render(self, state: Any) -> list[str]:
        return [f"score {role}: {points}"
                for role, points in zip(self.roles, state.scores, strict=False) if points]

    def parse(self, state: Any, keys: Keys) -> None:
        state.scores = tuple(keys.number(f"score {role}".lower(), 0, -10**9, 10**9)
                             for role in self.roles)

    def planes(self, roles: tuple[str, ...]) -> list[tuple[str, float, float]]:
        return [(f"score {role}", -math.inf, math.inf) for role in self.roles]

    def observe(self, state: Any) -> list[float | dict[int, float]]:
        return [float(points) for points in state.scores]


class LastSites(StateField):
    """Where the last decision put or moved a piece, and where from: `last to:`,
    `last from:`."""

    order = 40

    def __init__(self, names: tuple[str, ...], index: dict[str, int]) -> None:
        self.names = names
        self.index = index

    def keys(self, roles: tuple[str, ...]) -> list[str]:
        return ["last to", "last from"]

    def render(self, state: Any) -> list[str]:
        lines = []
        if state.last_to >= 0:
            lines.append(f"last to: {self.names[state.last_to]}")
        if state.last_from >= 0:
            lines.append(f"last from: {self.names[state.last_from]}")
        return lines

    def parse(self, state: Any, keys: Keys) -> None:
        for key, slot in (("last to", "last_to"), ("last from", "last_from")):
            given = keys.take(key)
            if given is not None:
                number, value = given
                if value not in self.index:
                    raise keys.error(number, f"{key}: no site {value!r} on this board")
                setattr(state, slot, self.index[value])

    def planes(self, roles: tuple[str, ...]) -> list[tuple[str, float, float]]:
        return [("last to", 0.0, 1.0), ("last from", 0.0, 1.0)]

    def observe(self, state: Any) -> list[float | dict[int, float]]:
        return [{state.last_to: 1.0} if state.last_to >= 0 else 0.0,
                {state.last_from: 1.0} if state.last_from >= 0 else 0.0]
