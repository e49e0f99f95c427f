"""The turn's side of the contract between ludemes and the engine: what a step of a turn may
do, and what the engine offers it.

A turn is a decision (a move the player chooses), then the automatic steps that follow it in
the game file, then perhaps more decisions. An automatic step is a `Step`: the engine calls
`step.run(ctx, turn)` and the step says what happens through `turn`, a `Turn` — it changes
sites, adds to a score, gives the mover another turn, marks something for later conditions,
or refuses the decision before it. The engine applies each of these the same way whatever
step asked for it, and can undo them: that is how a decision is tried with the steps after it
(`(forbid ...)`) without copying the position.

A step that may refuse says so (`may_refuse`), so that the engine tries the moves of the
decision before it; a step that does not say so is never tried out, which is only slower for
the games that do not use it, never wrong.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import ClassVar, Protocol

from stdlib.runtime import Ctx, Move

Changes = tuple[tuple[int, int], ...]  # (site, new board value) pairs


class Turn(Protocol):
    """The turn in progress, as a step sees it. Each call is a primitive action that the
    engine applies to the position (and undoes, when it is only trying a move)."""

    def change(self, changes: Changes) -> None:
        """Set sites to new board values: put, remove, move or promote pieces, set counts.
        Pieces of other roles that leave the board are the turn's captures."""

    def add_score(self, role: int, amount: int) -> None:
        """Add to a role's score (which may go down)."""

    def again(self) -> None:
        """The mover takes another turn when this one ends."""

    def mark(self, name: str) -> None:
        """Note that something happened since the last decision (conditions of later steps
        read it with `Ctx.marked`), e.g. "promoted"."""

    def refuse(self, reason: str) -> None:
        """The decision this step follows is not a legal move, for `reason`."""


class Step(ABC):
    """An automatic step of a turn. `run` judges the position after the decision and the
    steps before this one (`ctx.to`, `ctx.frm` are the decision's sites, `ctx.last` the sites
    changed so far) and acts through `turn`."""

    may_refuse: ClassVar[bool] = False

    @abstractmethod
    def run(self, ctx: Ctx, turn: Turn) -> None:
        """Do the step's part of the turn."""

    def screen(self, ctx: Ctx) -> Callable[[Move], bool] | None:
        """Called once per position before the decision's moves are tried (`ctx` is the
        position before them), when a later step may refuse them: a test true of each move
        that the step certainly lets through unchanged, judged as if the steps before it had
        changed nothing — a step that may refuse certainly does not refuse it, a step that
        changes sites certainly changes none (and does nothing else) — so that the engine
        need not try a move every step passes; or None, and every move is tried."""
        return None


class Screen(Protocol):
    """A condition that can tell, once per position, which moves certainly leave it false
    afterwards (see Step.screen): `(forbid COND)` uses it to skip trying those moves."""

    def __call__(self, ctx: Ctx) -> bool: ...

    def screen(self, ctx: Ctx) -> Callable[[Move], bool] | None: ...


class Changing(Step):
    """A step that changes sites: a function of the context giving the changes (none: nothing
    happens), and, when it changes something, a mark for later conditions (`marks`)."""

    def __init__(self, changes: Callable[[Ctx], Changes], marks: str | None = None,
                 screen: Callable[[Ctx], Callable[[Move], bool] | None] | None = None
                 ) -> None:
        self.changes = changes
        self.marks = marks
        self._screen = screen  # which moves certainly leave it nothing to change (Step.screen)

    def screen(self, ctx: Ctx) -> Callable[[Move], bool] | None:
        return self._screen(ctx) if self._screen is not None else None

    def run(self, ctx: Ctx, turn: Turn) -> None:
        changes = self.changes(ctx)
        if changes:
            turn.change(changes)
            if self.marks is not None:
                turn.mark(self.marks)

    def __call__(self, ctx: Ctx) -> Changes:
        """The changes the step would make (for code that only wants to know)."""
        return self.changes(ctx)


def as_step(step: object) -> Step:
    """A turn step as a `Step`: a plain function giving site changes (an automatic effect
    written before the protocol existed) becomes a `Changing` step."""
    if isinstance(step, Step):
        return step
    if callable(step):
        return Changing(step)
    raise TypeError(f"not a turn step: {step!r}")
