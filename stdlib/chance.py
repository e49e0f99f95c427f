"""Dice: chance decisions, the dice rolled as per-position state, and moves that use them.

A turn may begin (or go on) with a roll: `(roll 2 faces:6)` is a decision that chance makes,
not a player. The position before it is a chance position (`state.is_chance`, no mover); its
legal moves are the outcomes, each with its exact probability (`state.chance_outcomes()`),
written `roll:` and the values (`roll:3,5`). The values rolled stay with the position until
moves use them up or the turn ends (position text `dice: 3 5`); a move that uses a die, such
as `(move-by-die "Track")`, carries the action that uses it, so the engine applies and undoes
it with the move like any other.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from stdlib.movekinds import Block, Key, MoveKind, NotationError, SiteOf, Syntax, register
from stdlib.moves import kinded, kinds_named
from stdlib.parts import mark
from stdlib.registry import ludeme
from stdlib.runtime import EMPTY, Ctx, Env, Move
from stdlib.statefields import Keys, StateField, declare
from stdlib.steps import Action, ChanceDecision, Turn
from stdlib.types import CellKind, Cond, Moves

MAX_DICE = 8  # dice in one roll
MAX_FACES = 100  # faces of a die


# The move kind of an outcome: `roll:3,5` ---------------------------------------------------------


def _write_roll(kind: str, values: Sequence[int], names: Sequence[str]) -> str:
    return "roll:" + ",".join(str(v) for v in values)


def _read_roll(text: str, site_of: SiteOf) -> Key | None:
    if not text.lower().startswith("roll:"):
        return None
    try:
        values = tuple(int(v) for v in text[5:].split(","))
    except ValueError:
        raise NotationError(f"{text}: a roll is written roll: and the values, e.g. roll:3,5"
                            ) from None
    return "roll", values


class RollBlock(Block):
    """The outcomes of a game's roll as integer actions: the values as digits of a number in
    base `faces` (the first die the most significant)."""

    def __init__(self, kind: str, dice: int, faces: int) -> None:
        self.kind = kind
        self.dice = dice
        self.faces = faces
        self.size = faces ** dice

    def index(self, sites: tuple[int, ...]) -> int:
        n = 0
        for v in sites:
            n = n * self.faces + (v - 1)
        return n

    def sites(self, index: int) -> tuple[int, ...]:
        out = []
        for _ in range(self.dice):
            index, digit = divmod(index, self.faces)
            out.append(digit + 1)
        return tuple(reversed(out))


def _roll_block(game: Any, kind: str) -> Block:
    dice, faces = game.env.shared.get("dice", (1, 1))
    return RollBlock(kind, dice, faces)


ROLL = register(MoveKind("roll", Syntax("roll", 15, _write_roll, _read_roll), "roll", 20,
                         _roll_block, hint="roll: and the values (roll:3,5)", click="roll"))


# The dice as state ------------------------------------------------------------------------------


class Dice(StateField):
    """The dice rolled and not yet used this turn: `dice: 3 5`."""

    order = 40

    def __init__(self, faces: int) -> None:
        self.faces = faces

    def keys(self, roles: tuple[str, ...]) -> list[str]:
        return ["dice"]

    def render(self, state: Any) -> list[str]:
        return [f"dice: {' '.join(str(v) for v in state.dice)}"] if state.dice else []

    def parse(self, state: Any, keys: Keys) -> None:
        found = keys.take("dice")
        if found is None:
            return
        line, text = found
        try:
            values = tuple(int(v) for v in text.split())
        except ValueError:
            raise keys.error(line, f"dice: {text!r} is not a list of whole numbers") from None
        if len(values) > 4 * MAX_DICE or any(not 1 <= v <= self.faces for v in values):
            raise keys.error(line, f"dice: each value is from 1 to {self.faces}")
        state.dice = values

    def planes(self, roles: tuple[str, ...]) -> list[tuple[str, float, float]]:
        return [(f"dice showing {v}", 0.0, float(4 * MAX_DICE))
                for v in range(1, self.faces + 1)]

    def observe(self, state: Any) -> list[float | dict[int, float]]:
        shown = Counter(state.dice)
        return [float(shown[v]) for v in range(1, self.faces + 1)]


class SetDice(Action):
    """The dice a roll gave (a double counted `doubles` times)."""

    __slots__ = ("values",)

    def __init__(self, values: tuple[int, ...]) -> None:
        self.values = values

    def apply(self, turn: Turn) -> None:
        turn.set_dice(self.values)


class UseDie(Action):
    """One die of `value` used up by the move."""

    __slots__ = ("value",)

    def __init__(self, value: int) -> None:
        self.value = value

    def apply(self, turn: Turn) -> None:
        turn.use_die(self.value)


# Rolling ----------------------------------------------------------------------------------------


class Roll(ChanceDecision):
    """The decision of (roll ...): its outcomes are made once per game."""

    def __init__(self, outcomes: list[tuple[Move, Fraction]]) -> None:
        self._outcomes = outcomes
        self._moves = [move for move, _ in outcomes]
        mark(self).kinds = frozenset({"roll"})

    def outcomes(self, ctx: Ctx) -> list[tuple[Move, Fraction]]:
        return self._outcomes

    def __call__(self, ctx: Ctx) -> list[Move]:
        return self._moves


@ludeme("roll")
def roll(env: Env, dice: int = 1, *, faces: int = 6, doubles: int = 1,
         ordered: bool = False) -> Moves:
    """A decision made by chance: `dice` dice of `faces` faces are rolled (each face equally
    likely). The position before it is a chance position; its moves are the outcomes, written
    `roll:` and the values — ascending, since the order of the dice does not matter, unless
    ordered:true — each with its exact probability. The values are kept (position text
    `dice: 3 5`) until moves use them or the turn ends; with doubles:N, a roll whose dice all
    show the same value gives N times as many to use (backgammon's doubles: doubles:2).

    (roll 2 faces:6 doubles:2)"""
    if not 1 <= dice <= MAX_DICE:
        env.error(f"(roll ...) rolls from 1 to {MAX_DICE} dice, not {dice}")
        dice = 1
    if not 2 <= faces <= MAX_FACES:
        env.error(f"a die has from 2 to {MAX_FACES} faces, not {faces}")
        faces = 6
    if not 1 <= doubles <= 4:
        env.error(f"doubles: counts a double from 1 to 4 times, not {doubles}")
        doubles = 1
    known = env.shared.setdefault("dice", (dice, faces))
    if known != (dice, faces):
        env.error("every (roll ...) of a game rolls the same dice")
    env.uses_dice = True
    declare(env, Dice(faces))
    total = faces ** dice
    found: Counter[tuple[int, ...]] = Counter()
    for values in itertools.product(range(1, faces + 1), repeat=dice):
        found[values if ordered else tuple(sorted(values))] += 1
    outcomes = []
    for values, ways in sorted(found.items()):
        kept = values * doubles if dice > 1 and len(set(values)) == 1 else values
        move = Move("roll", values, (), env.names, (SetDice(kept),))
        outcomes.append((move, Fraction(ways, total)))
    assert sum(p for _, p in outcomes) == 1
    return Roll(outcomes)


# Reading the dice -------------------------------------------------------------------------------


@ludeme("dice-left")
def dice_left() -> Cond:
    """True while dice rolled this turn are not all used.

    (continue (move-by-die "Track") if:(dice-left))"""
    test = lambda ctx: bool(ctx.state is not None and ctx.state.dice)  # noqa: E731
    mark(test).why = "dice are left to use"
    mark(test).why_not = "every die is used"
    return test


# Moving by a die --------------------------------------------------------------------------------


@ludeme("move-by-die")
def move_by_die(env: Env, track: str, *, of: str | None = None,
                to: CellKind = "EmptyOrEnemy") -> Moves:
    """Move one of the mover's pieces (of the kind named by `of:`, or any) along its role's
    named track by the value of one unused die, which the move uses up. The piece must be on
    the track and land on it (past the end of a track that does not loop, it cannot move);
    the site it lands on must hold what `to:` says (an enemy piece there is captured: taken
    off the board). Dice of the same value give the same moves once.

    (move-by-die "Track" to:EmptyOrEnemy)"""
    from stdlib.sowing import role_tracks

    tracks = role_tracks(env, track, "(move-by-die ...)")
    if tracks is None:
        tracks = [((), False)] * len(env.roles)
    kinds = kinds_named(env, of)
    owner = env.owner
    # Per role: each site's place on its track (-1: not on it).
    places = []
    for order, _ in tracks:
        place = [-1] * env.topology.size
        for i, s in enumerate(order):
            place[s] = i
        places.append(place)
    made: dict[tuple[int, int, int, int], Move] = {}

    def allowed(ctx: Ctx, t: int) -> bool:
        v = ctx.board[t]
        if to == "Empty":
            return v == EMPTY
        if to == "Enemy":
            return v != EMPTY and owner[v] >= 0 and owner[v] != ctx.mover
        if to == "Any":
            return True
        return v == EMPTY or (owner[v] >= 0 and owner[v] != ctx.mover)  # EmptyOrEnemy

    def generate(ctx: Ctx) -> list[Move]:
        state = ctx.state
        dice = state.dice if state is not None else ()
        if not dice:
            return []
        mover, board = ctx.mover, ctx.board
        order, loop = tracks[mover]
        place = places[mover]
        out: list[Move] = []
        for v in sorted(set(dice)):
            for s in order:
                value = board[s]
                if value == EMPTY or owner[value] != mover or \
                        (kinds is not None and value not in kinds):
                    continue
                i = place[s] + v
                if i >= len(order):
                    if not loop:
                        continue
                    i %= len(order)
                t = order[i]
                if t == s or not allowed(ctx, t):
                    continue
                key = (s, t, value, v)
                move = made.get(key)
                if move is None:
                    move = made[key] = Move("move", (s, t),
                                            ((s, env.left_behind(value)), (t, value)),
                                            env.names, (UseDie(v),))
                out.append(move)
                if ctx.probe:
                    return out
        return out
    return kinded(generate, "move")

