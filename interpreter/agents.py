"""Agents: players the computer runs. Each chooses a move for the state it is given."""

from __future__ import annotations

import random
from typing import Protocol

from interpreter.game import State
from stdlib.runtime import Move


class Agent(Protocol):
    name: str

    def choose(self, state: State) -> Move: ...


class RandomAgent:
    """Chooses uniformly among the legal moves; reproducible with a seed."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State) -> Move:
        return self.rng.choice(state.legal_moves())


AGENTS = {"random": RandomAgent}


def make_agent(spec: str, seed: int | None = None) -> Agent:
    """An agent from its command-line spelling, e.g. `random`."""
    name, _, _arg = spec.partition(":")
    cls = AGENTS.get(name)
    if cls is None:
        raise ValueError(f"unknown agent {spec!r} (agents: {', '.join(AGENTS)})")
    return cls(seed)
