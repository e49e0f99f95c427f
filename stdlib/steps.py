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
from collections.abc import Callable, Sequence
from fractions import Fraction
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

    def set_dice(self, values: tuple[int, ...]) -> None:
        """The dice rolled and not yet used are now `values` (what a roll sets)."""

    def use_die(self, value: int) -> None:
        """One die showing `value` is used up."""

    def from_hand(self, kind: int) -> None:
        """One piece of hand kind `kind` leaves the mover's hand (stdlib/hands.py)."""

    def set_edge(self, edge: int, value: int) -> None:
        """Edge number `edge` of the board's edges now holds `value` (0: empty; role + 1:
        held by that role) (stdlib/edges.py)."""

    def set_mover(self, role: int) -> None:
        """The turn is `role`'s from now on: its next decision is that role's, and play goes
        on from that role when the turn ends (a roll that decides who starts)."""


class Action(ABC):
    """One primitive action a move carries besides its site changes (`Move.actions`), applied
    by the engine through the turn when the move is made, and undone with it: e.g. setting
    the dice a roll gave, or using a die."""

    __slots__ = ()

    @abstractmethod
    def apply(self, turn: Turn) -> None:
        """Do the action, through `turn`."""


class ChanceDecision(ABC):
    """A decision made by chance, not by a player (a roll of dice): the position before it is
    a chance position (`state.is_chance`, no mover). Its moves are the possible outcomes, each
    with its exact probability; they sum to 1."""

    @abstractmethod
    def outcomes(self, ctx: Ctx) -> list[tuple[Move, Fraction]]:
        """Each outcome, as a move, with its probability."""

    def __call__(self, ctx: Ctx) -> list[Move]:
        return [move for move, _ in self.outcomes(ctx)]


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
        need not try a move every step passes; or None, and every move is tried. A screen
        that is a MoveScreen may also judge all the placements of a piece at once, and say
        which moves the step certainly refuses: those are not tried either (unless the
        reason is asked for)."""
        return None


Verdicts = tuple[int, int]  # (lets through, refuses): sets of sites, as bitsets (bit s: site s)


class MoveScreen:
    """A screen (see Step.screen) that can also judge every placement of a piece at once.
    Optional: a screen that is a plain function is asked move by move, which is slower for
    decisions with many placements, never wrong.

    At the level of a condition or a region (Screen, AnyRegion.screen), the two verdicts are
    "certainly false / empty right after the move" and "certainly true / not empty"; at the
    level of a step (Step.screen), "certainly lets the move through unchanged" and "certainly
    refuses it" (a step that never refuses certainly refuses nothing: see `unrefusing`).

    (A plain class, not an ABC: the engine asks `isinstance(screen, MoveScreen)` of every
    step's screen in every position, which an ABC's instance check makes several times
    slower. Every subclass defines __call__.)"""

    # A screen made for a step that never refuses, whose verdicts are already the step's
    # (it refuses nothing): `unrefusing` gives it as it is.
    unrefusing: ClassVar[bool] = False

    def __call__(self, move: Move) -> bool:
        """The screen's test of one move (see Step.screen)."""
        raise NotImplementedError

    def judge(self, moves: Sequence[Move]) -> list[bool]:
        """The screen's test of each move of a list, in order (what __call__ says of each;
        a screen may judge a list in one loop, which is faster than a call per move)."""
        return list(map(self, moves))

    def placements(self, value: int, sites: Sequence[int]) -> Verdicts | None:
        """For the moves that put the board value `value` on one of `sites` (empty sites
        where a piece may stand) and change nothing else: the sites where the move certainly
        passes (exactly those where __call__ is true of it) and those where it is certainly
        refused, as bitsets (bits of other sites mean nothing); or None, and each move is
        asked alone. Called once per position and value, instead of once per move."""
        return None

    def then(self, changes: Changes) -> Changes | None:
        """For a move making `changes` on the position the screen was made for (a decision's
        changes, with those the steps before this one certainly make after it): at the level
        of a step, the changes the step then certainly makes (() for none) when it certainly
        refuses nothing; at the level of a condition, () when the condition is then certainly
        false. None when not certain: the move is tried. The engine asks it of a move the
        screens do not let through unchanged (a capture), so that a step's changes need not
        be tried to judge the steps after it. Optional: None is slower, never wrong."""
        return None

    def sites_after(self, changes: Changes) -> list[int] | None:
        """At the level of a region: its sites, in order, right after `changes` on the
        position the screen was made for (with `ctx.last` the sites they change), when
        certain; else None (see `then`)."""
        return None


class Unrefusing(MoveScreen):
    """A condition's or region's screen as the screen of a step that never refuses: what it
    lets through is the same, it refuses nothing."""

    __slots__ = ("inner",)

    def __init__(self, inner: MoveScreen) -> None:
        self.inner = inner

    def __call__(self, move: Move) -> bool:
        return self.inner(move)

    def placements(self, value: int, sites: Sequence[int]) -> Verdicts | None:
        verdicts = self.inner.placements(value, sites)
        return None if verdicts is None else (verdicts[0], 0)

    def then(self, changes: Changes) -> Changes | None:
        # A region certainly empty (a condition certainly false) after the changes: the step
        # has nothing to do; an inner screen of a step says what the step does.
        return self.inner.then(changes)


def unrefusing(screen: Callable[[Move], bool] | None) -> Callable[[Move], bool] | None:
    """The screen of a step that never refuses, from its condition's or region's screen."""
    if isinstance(screen, MoveScreen) and not screen.unrefusing:
        return Unrefusing(screen)
    return screen


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
        # The region's verdict "certainly some site" is no refusal: this step never refuses.
        return unrefusing(self._screen(ctx)) if self._screen is not None else None

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
