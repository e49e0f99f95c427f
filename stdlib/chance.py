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

from dsl.ast import Bool, Form, Int, Node, Str
from stdlib.lowering import Generator, Lower, keywords, lowers
from stdlib.movekinds import Block, Key, MoveKind, NotationError, SiteOf, Syntax, register
from stdlib.moves import kinded, kinds_named
from stdlib.parts import mark
from stdlib.registry import ludeme
from stdlib.runtime import EMPTY, Ctx, Env, Move, every_move
from stdlib.statefields import Keys, StateField, Turns, declare
from stdlib.steps import Action, ChanceDecision, Turn
from stdlib.tables import BEAR_OFF, ENTER
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


class SetMover(Action):
    """The turn is `role`'s from now on (who won the opening roll)."""

    __slots__ = ("role",)

    def __init__(self, role: int) -> None:
        self.role = role

    def apply(self, turn: Turn) -> None:
        turn.set_mover(self.role)


# Rolling ----------------------------------------------------------------------------------------


class Roll(ChanceDecision):
    """The decision of (roll ...): its outcomes are made once per game (and those of the
    opening roll, on the game's first turn, when it has one)."""

    def __init__(self, outcomes: list[tuple[Move, Fraction]],
                 opening: list[tuple[Move, Fraction]] | None = None) -> None:
        self._outcomes = outcomes
        self._moves = [move for move, _ in outcomes]
        self._opening = opening
        self._opening_moves = [move for move, _ in opening or ()]
        mark(self).kinds = frozenset({"roll"})

    def _first(self, ctx: Ctx) -> bool:
        return self._opening is not None and ctx.state is not None and ctx.state.turn == 0

    def outcomes(self, ctx: Ctx) -> list[tuple[Move, Fraction]]:
        if self._first(ctx):
            return self._opening  # type: ignore[return-value]
        return self._outcomes

    def __call__(self, ctx: Ctx) -> list[Move]:
        return self._opening_moves if self._first(ctx) else self._moves


@ludeme("roll")
def roll(env: Env, dice: int = 1, *, faces: int = 6, doubles: int = 1,
         ordered: bool = False, opening: bool = False) -> Moves:
    """A decision made by chance: `dice` dice of `faces` faces are rolled (each face equally
    likely). The position before it is a chance position; its moves are the outcomes, written
    `roll:` and the values — ascending, since the order of the dice does not matter, unless
    ordered:true — each with its exact probability. The values are kept (position text
    `dice: 3 5`) until moves use them or the turn ends; with doubles:N, a roll whose dice all
    show the same value gives N times as many to use (backgammon's doubles: doubles:2).

    With opening:true the game's first roll decides who starts, as in backgammon: one die
    per role, rolled again until no two are equal; the role with the highest die takes the
    first turn and plays the values rolled. Its outcomes are written in the roles' order
    (`roll:5,3`: the first role 5, the second 3); position text then counts the turns
    (`turns:`).

    (roll 2 faces:6 doubles:2 opening:true)"""
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
    first = None
    if opening:
        if dice != len(env.roles):
            env.error(f"an opening roll rolls one die per role: {len(env.roles)}, not {dice}")
        else:
            env.uses_turns = True
            declare(env, Turns())
            first = _opening(env, dice, faces)
    return Roll(outcomes, first)


def _opening(env: Env, dice: int, faces: int) -> list[tuple[Move, Fraction]]:
    """The outcomes of an opening roll: one die per role, all different, each way equally
    likely; the role with the highest die moves."""
    ways = [v for v in itertools.product(range(1, faces + 1), repeat=dice)
            if len(set(v)) == dice]
    out = []
    for values in ways:
        starter = values.index(max(values))
        move = Move("roll", values, (), env.names, (SetDice(values), SetMover(starter)))
        out.append((move, Fraction(1, len(ways))))
    return out


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
                to: CellKind = "EmptyOrEnemy", blocks: int = 0, bar: str | None = None,
                off: Cond | None = None) -> Moves:
    """Move one of the mover's pieces (of the kind named by `of:`, or any) along its role's
    named track by the value of one unused die, which the move uses up. The piece must be on
    the track and land on it (past the end of a track that does not loop, it cannot move,
    unless borne off: see off:); the site it lands on must hold what `to:` says (an enemy
    piece there is captured: taken off the board). Dice of the same value give the same moves
    once.

    Stacks (pieces declared pile:true): one piece of a stack moves, and it may land on a
    stack of its own kind, which grows. With blocks:N an enemy stack of N or more pieces
    blocks the site (backgammon's made point: blocks:2); a smaller one is captured whole.

    With bar:"Bar" (a region naming one site per role, the first site of the role's track),
    captured pieces go to their owner's site of that region, stacked, instead of leaving the
    board; the mover's pieces there must all enter before any other piece moves, and a move
    from there is written `bar-20`. With off:, a piece may be borne off (taken off the board,
    written `6-off`) while the condition holds: by a die that takes it exactly past the end of
    the track, or by a higher one when no piece of the mover's is further back along it (the
    smallest such die is used).

    (move-by-die "Way" blocks:2 bar:"Bar"
      off:(= (count (difference (sites Occupied Mover) (sites Named "Home"))) 0))"""
    from stdlib.sowing import role_tracks

    tracks = role_tracks(env, track, "(move-by-die ...)")
    if tracks is None:
        tracks = [((), False)] * len(env.roles)
    kinds = kinds_named(env, of)
    owner, count_of = env.owner, env.count_of
    # Per role: each site's place on its track (-1: not on it).
    places = []
    for order, _ in tracks:
        place = [-1] * env.topology.size
        for i, s in enumerate(order):
            place[s] = i
        places.append(place)
    bars = _bar_sites(env, bar, tracks) if bar is not None else None
    # The board value of a stack of n of a kind (by the kind's value), and each value's kind.
    piles = env.piles
    kind_of = [env.kind_of(v) for v in range(len(env.pieces) + 1)]

    def stacked(kind: int, n: int) -> int:
        """The board value of n pieces of a kind on one site (-1: more than a site holds)."""
        if n == 0:
            return EMPTY
        table = piles.get(kind)
        if table is None:
            return kind if n == 1 else -1
        return table[n] if n < len(table) else -1

    values = range(len(env.pieces) + 1)
    # What a site holds once one piece of its stack leaves it, and with one more come.
    less = [EMPTY if v == EMPTY else stacked(kind_of[v], count_of[v] - 1)
            if kind_of[v] in piles else env.left_behind(v) for v in values]
    more = [stacked(kind_of[v], count_of[v] + 1) if v and kind_of[v] in piles else -1
            for v in values]
    made: dict[tuple[Any, ...], Move] = {}

    def move_of(kind: str, sites: tuple[int, ...], changes: tuple[tuple[int, int], ...],
                die: int) -> Move:
        key = (kind, changes, die)
        move = made.get(key)
        if move is None:
            move = made[key] = Move(kind, sites, changes, env.names, (UseDie(die),))
        return move

    def generate(ctx: Ctx) -> list[Move]:
        state = ctx.state
        dice = state.dice if state is not None else ()
        if not dice:
            return []
        mover, board = ctx.mover, ctx.board
        order, loop = tracks[mover]
        place = places[mover]
        end = len(order)
        starts: Sequence[int] = order
        entering = -1
        if bars is not None:
            b = bars[mover]
            if board[b] != EMPTY and owner[board[b]] == mover:
                starts, entering = (b,), b
        may_off: bool | None = None  # off:'s verdict, judged when first needed
        rear = -1  # the place along the track of the mover's rearmost piece, when needed
        borne: set[int] = set()  # sites borne off from already (by a smaller die)
        out: list[Move] = []
        for v in sorted(set(dice)):
            for s in starts:
                value = board[s]
                if value == EMPTY or owner[value] != mover or \
                        (kinds is not None and kind_of[value] not in kinds):
                    continue
                kind = kind_of[value]
                left = less[value]
                i = place[s] + v
                if i >= end and not loop:
                    if off is None or s in borne:
                        continue
                    if i > end:  # a higher die bears off only the rearmost piece
                        if rear < 0:
                            rear = next(p for p, r in enumerate(order)
                                        if board[r] != EMPTY and owner[board[r]] == mover)
                        if place[s] > rear:
                            continue
                    if may_off is None:
                        may_off = bool(off(ctx))
                    if not may_off:
                        continue
                    borne.add(s)
                    out.append(move_of(BEAR_OFF.name, (s,), ((s, left),), v))
                    if ctx.probe:
                        return out
                    continue
                t = order[i % end]
                if t == s:
                    continue
                target = board[t]
                changes: tuple[tuple[int, int], ...]
                if target == EMPTY:
                    if to == "Enemy":
                        continue
                    changes = ((s, left), (t, kind))
                elif owner[target] == mover:
                    grown = more[target]
                    if grown < 0 or kind_of[target] != kind or to == "Empty":
                        continue
                    changes = ((s, left), (t, grown))
                elif owner[target] >= 0:  # an enemy's
                    if to == "Empty" or (blocks and count_of[target] >= blocks):
                        continue
                    if bars is None:
                        changes = ((s, left), (t, kind))
                    else:
                        home = bars[owner[target]]
                        there = board[home]
                        n = count_of[target] + (count_of[there] if there != EMPTY else 0)
                        sent = stacked(kind_of[target], n)
                        if sent < 0:
                            continue
                        changes = ((s, left), (t, kind), (home, sent))
                else:
                    if to != "Any":
                        continue
                    changes = ((s, left), (t, kind))
                out.append(move_of(ENTER.name if s == entering else "move", (s, t), changes,
                                   v))
                if ctx.probe:
                    return out
        return out
    return kinded(generate, "move", *((ENTER.name,) if bar is not None else ()),
                  *((BEAR_OFF.name,) if off is not None else ()))


def _bar_sites(env: Env, name: str, tracks: list[tuple[tuple[int, ...], bool]]
               ) -> list[int] | None:
    """Each role's bar: its one site of the named region, the first of its track."""
    owners = env.regions.get(name)
    if owners is None or None in owners:
        env.error(f'bar:"{name}" needs a region "{name}" of one site for each role '
                  "(declared with (region ... owner:))")
        return None
    out = []
    for r, role in enumerate(env.roles):
        sites = owners.get(r, ())
        if len(sites) != 1 or not tracks[r][0] or tracks[r][0][0] != sites[0]:
            env.error(f'bar:"{name}": {role}\'s bar must be one site, the first of its track')
            return None
        out.append(sites[0])
    return out


# Using as many dice as possible -----------------------------------------------------------------


class _Trial:
    """A Turn for trying moves on a position's own board during a search: it makes site
    changes and uses dice, and puts everything back with `undo`."""

    __slots__ = ("board", "state", "log")

    def __init__(self, board: list[int], state: Any) -> None:
        self.board = board
        self.state = state
        self.log: list[tuple[int, int]] = []

    def change(self, changes: tuple[tuple[int, int], ...]) -> None:
        board, log = self.board, self.log
        for s, v in changes:
            log.append((s, board[s]))
            board[s] = v

    def use_die(self, value: int) -> None:
        dice = list(self.state.dice)
        dice.remove(value)
        self.state.dice = tuple(dice)

    def set_dice(self, values: tuple[int, ...]) -> None:
        self.state.dice = values

    def add_score(self, role: int, amount: int) -> None:
        pass

    def again(self) -> None:
        pass

    def mark(self, name: str) -> None:
        pass

    def refuse(self, reason: str) -> None:
        pass

    def from_hand(self, kind: int) -> None:
        pass

    def set_mover(self, role: int) -> None:
        pass

    def undo(self, mark: int) -> None:
        board, log = self.board, self.log
        while len(log) > mark:
            s, old = log.pop()
            board[s] = old


def _die_of(move: Move) -> int:
    for action in move.actions:
        if isinstance(action, UseDie):
            return action.value
    return 0


@ludeme("max-dice")
def max_dice(moves: Moves, *, larger: bool = True) -> Moves:
    """The moves (each using a die, as (move-by-die ...) makes them) after which the turn can
    go on to use the most dice: a player must use as many of the dice as the rules let them,
    and, with larger:true, when only one die of a roll can be used, the larger one if it can.
    Each move is judged by searching the rest of the turn — the same moves, while dice are
    left — on the position itself (made and undone in place).

    (first-of (max-dice (move-by-die "Way" blocks:2 bar:"Bar")) (pass))"""
    def most(ctx: Ctx, trial: _Trial, budget: int) -> int:
        """The most dice the moves can go on to use, up to `budget`, on ctx's board."""
        best = 0
        for move in moves(ctx):
            mark_ = len(trial.log)
            dice = ctx.state.dice
            trial.change(move.changes)
            for action in move.actions:
                action.apply(trial)  # type: ignore[arg-type]
            used = 1 if budget <= 1 else 1 + most(ctx, trial, budget - 1)
            trial.undo(mark_)
            ctx.state.dice = dice
            if used > best:
                best = used
                if best >= budget:
                    break
        return best

    def generate(ctx: Ctx) -> Sequence[Move]:
        found = every_move(moves, ctx) if not ctx.probe else moves(ctx)
        state = ctx.state
        if ctx.probe or len(found) <= 1 or state is None:
            return found  # a first move exists whenever any does
        dice = state.dice
        budget = len(dice)
        if budget <= 1 and not (larger and len(set(dice)) > 1):
            return found
        trial = _Trial(ctx.board, state)
        explain, ctx.explain = ctx.explain, None
        state.trial += 1  # the board is not the position's for now (see Env.track)
        scored = []
        try:
            for move in found:
                trial.change(move.changes)
                for action in move.actions:
                    action.apply(trial)  # type: ignore[arg-type]
                used = 1 if budget <= 1 else 1 + most(ctx, trial, budget - 1)
                trial.undo(0)
                state.dice = dice
                scored.append(used)
        finally:
            trial.undo(0)
            state.dice = dice
            state.trial -= 1
            ctx.explain = explain
        best = max(scored)
        kept = [m for m, used in zip(found, scored, strict=True) if used == best]
        if best == 1 and larger and len(set(dice)) > 1:
            high = max(_die_of(m) for m in kept)
            kept = [m for m in kept if _die_of(m) == high]
        if explain is not None:
            for move in found:
                if move not in kept:
                    explain.setdefault(move.key, "the rest of the turn could then use fewer "
                                       "dice (as many as possible must be used, the larger "
                                       "one if only one can)")
        return kept
    return kinded(generate, moves)


# Kernel lowerings (stdlib/lowering.py) ---------------------------------------------------------

@lowers("roll")
def lower_roll(k: Lower, node: Form, args: tuple[Node, ...]) -> Generator:
    """(roll ...): the outcomes as the interpreter's Roll lists them, each setting the dice
    (and, in an opening roll, who moves), drawn with their probabilities."""
    roll = k.compiled(node)
    if not isinstance(roll, Roll):
        k.refuse(node, "no kernel lowering of this roll")
    start = k.action_start("roll", node)
    dice, faces = k.env.shared["dice"]
    size = faces ** dice
    block = RollBlock("roll", dice, faces)

    def table(outcomes: list[tuple[Move, Fraction]]) -> tuple[list[list[int]], list[float]]:
        """Per action of the block: [listed?, count, mover (-1: unchanged), values...]."""
        rows = [[0, 0, -1] + [0] * (4 * MAX_DICE) for _ in range(size)]
        for move, _ in outcomes:
            row = rows[block.index(move.sites)]
            row[0] = 1
            for action in move.actions:
                if isinstance(action, SetDice):
                    row[1] = len(action.values)
                    row[3:3 + len(action.values)] = action.values
                elif isinstance(action, SetMover):
                    row[2] = action.role
                else:
                    k.refuse(node, "no kernel lowering of this roll's actions")
        order = [block.index(move.sites) for move, _ in outcomes]
        return [rows[i] + [i] for i in order], [float(p) for _, p in outcomes]

    rows, weights = table(roll._outcomes)
    regular = k.table("roll outcomes", rows)
    opening_rows, opening_weights = table(roll._opening) if roll._opening else (rows, weights)
    first = k.table("opening roll outcomes", opening_rows)
    width = 3 + 4 * MAX_DICE
    generate = k.function("roll", f"""
def {{name}}(st, T, mover, acts, tags, n, tag):
    rows = {first} if st[H_TURN] == 0 else {regular}
    for i in range(rows.shape[0]):
        acts[n] = {start} + rows[i, {width}]
        tags[n] = tag
        n += 1
    return n
""")
    make = k.function("make_roll", f"""
def {{name}}(st, T, mover, act):
    rows = {first} if st[H_TURN] == 0 else {regular}
    for i in range(rows.shape[0]):
        if rows[i, {width}] == act - {start}:
            set_dice(st, rows[i, 3:], rows[i, 1])
            if rows[i, 2] >= 0:
                st[H_TO_MOVE] = rows[i, 2]
            return
""")
    return Generator(generate, make, frozenset({"roll"}), sited=False, weights=weights,
                     opening=opening_weights if roll._opening else None)


@lowers("dice-left")
def lower_dice_left(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """Some die is not used yet."""
    return "(st[H_NDICE] > 0)"


def lower_tracks(k: Lower, node: Form, tracks: list[tuple[tuple[int, ...], bool]]
                 ) -> tuple[str, str, str, str]:
    """The tables of each role's way along a track: (its sites in order, padded with -1; its
    length; each site's place on it, -1 off it; 1 where it loops)."""
    size = k.env.topology.size
    width = max(1, max(len(order) for order, _ in tracks))
    places = []
    for order, _ in tracks:
        place = [-1] * size
        for i, s in enumerate(order):
            place[s] = i
        places.append(place)
    return (k.table("track order", [list(o) + [-1] * (width - len(o)) for o, _ in tracks]),
            k.table("track length", [len(o) for o, _ in tracks]),
            k.table("track place", places),
            k.table("track loops", [int(loop) for _, loop in tracks]))


def lower_distinct_dice(k: Lower) -> str:
    """A function `(st, out) -> m`: the values of the dice not used, each once, lowest first,
    in out[:m]."""
    return k.function("distinct_dice", """
def {name}(st, out):
    m = 0
    for i in range(st[H_NDICE]):
        v = st[DICE + i]
        j = 0
        while j < m and out[j] < v:
            j += 1
        if j < m and out[j] == v:
            continue
        for x in range(m, j, -1):
            out[x] = out[x - 1]
        out[j] = v
        m += 1
    return m
""")


_LANDING = ("Empty", "Enemy", "Any", "EmptyOrEnemy")


@lowers("move-by-die")
def lower_move_by_die(k: Lower, node: Form, args: tuple[Node, ...]) -> Generator:
    """(move-by-die track [of:] [to:] [blocks:] [bar:] [off:]): a piece of the mover's along
    its track by an unused die, as the interpreter's generator lists them (the dice lowest
    first, each value once; the track's sites in order, or the bar alone while it holds the
    mover's pieces); the move found again from its action: the lowest die that makes it."""
    from stdlib.sowing import role_tracks

    given = keywords(node, {"of", "to", "blocks", "bar", "off"}, k)
    env = k.env
    if not isinstance(args[0], Str):
        k.refuse(node, "no kernel lowering of (move-by-die) with a computed track")
    tracks = role_tracks(env, args[0].value, "(move-by-die ...)")
    of = given.get("of")
    to_node = given.get("to")
    to = getattr(to_node, "name", None) if to_node is not None else "EmptyOrEnemy"
    blocks_node = given.get("blocks")
    bar_node = given.get("bar")
    if tracks is None or (of is not None and not isinstance(of, Str)) or to not in _LANDING \
            or (blocks_node is not None and not isinstance(blocks_node, Int)) \
            or (bar_node is not None and not isinstance(bar_node, Str)):
        k.refuse(node, "no kernel lowering of this (move-by-die)")
    blocks = blocks_node.value if isinstance(blocks_node, Int) else 0
    bars = _bar_sites(env, bar_node.value, tracks) if isinstance(bar_node, Str) else None
    if bar_node is not None and bars is None:
        k.refuse(node, "no kernel lowering of (move-by-die) without its bar")
    kinds = kinds_named(env, of.value if isinstance(of, Str) else None)
    values = range(len(env.owner))
    kind_of = [env.kind_of(v) for v in values]
    count_of = env.count_of
    piles = env.piles
    top = max(kind_of)
    most = 2 * max([len(t) for t in piles.values()] + [2])

    def stacked(kind: int, n: int) -> int:
        if n == 0:
            return EMPTY
        table = piles.get(kind)
        if table is None:
            return kind if n == 1 else -1
        return table[n] if n < len(table) else -1

    less = [EMPTY if v == EMPTY else stacked(kind_of[v], count_of[v] - 1)
            if kind_of[v] in piles else env.left_behind(v) for v in values]
    more = [stacked(kind_of[v], count_of[v] + 1) if v and kind_of[v] in piles else -1
            for v in values]
    order, length, place, loops = lower_tracks(k, node, tracks)
    kind = k.table("kind of", kind_of)
    count = k.table("pieces per value", list(count_of))
    left = k.table("one fewer", less)
    grown = k.table("one more", more)
    stack = k.table("stacked", [[stacked(c, n) for n in range(most)] for c in range(top + 1)])
    bar = k.table("bars", bars if bars is not None else [-1] * len(env.roles))
    movable = k.table("movable kinds", [1 if v and (kinds is None or kind_of[v] in kinds)
                                        else 0 for v in values])
    distinct = lower_distinct_dice(k)
    moving = k.action_start("move", node)
    entering = k.action_start(ENTER.name, node) if bars is not None else -1
    off = k.lower(given["off"], "Boolean") if "off" in given else None
    bearing = k.action_start(BEAR_OFF.name, node) if off is not None else -1
    condition = off if off is not None else "False"
    generate = k.function("move_by_die", f"""
def {{name}}(st, T, mover, acts, tags, n, tag):
    if st[H_NDICE] == 0:
        return n
    to = -1
    frm = -1
    dice = np.empty(DICE_CAP, np.int32)
    m = {distinct}(st, dice)
    end = {length}[mover]
    loop = {loops}[mover] == 1
    b = {bar}[mover]
    entering = -1
    if b >= 0 and st[b] != 0 and OWNER[st[b]] == mover:
        entering = b
    may_off = -1
    rear = -1
    borne = np.zeros(N if {bearing} >= 0 else 1, np.bool_)
    for j in range(m):
        v = dice[j]
        for x in range(1 if entering >= 0 else end):
            s = entering if entering >= 0 else {order}[mover, x]
            value = st[s]
            if value == 0 or OWNER[value] != mover or {movable}[value] == 0:
                continue
            i = {place}[mover, s] + v
            if i >= end and not loop:
                if {bearing} < 0 or borne[s]:
                    continue
                if i > end:
                    if rear < 0:
                        for p in range(end):
                            r = {order}[mover, p]
                            if st[r] != 0 and OWNER[st[r]] == mover:
                                rear = p
                                break
                    if {place}[mover, s] > rear:
                        continue
                if may_off < 0:
                    may_off = 1 if {condition} else 0
                if may_off == 0:
                    continue
                borne[s] = True
                acts[n] = {bearing} + s
                tags[n] = tag
                n += 1
                continue
            t = {order}[mover, i % end]
            if t == s:
                continue
            target = st[t]
            if target == 0:
                if {to == "Enemy"}:
                    continue
            elif OWNER[target] == mover:
                if {grown}[target] < 0 or {kind}[target] != {kind}[value] or {to == "Empty"}:
                    continue
            elif OWNER[target] >= 0:
                if {to == "Empty"} or ({blocks} > 0 and {count}[target] >= {blocks}):
                    continue
                if b >= 0:
                    there = st[{bar}[OWNER[target]]]
                    if {stack}[{kind}[target], {count}[target] + {count}[there]] < 0:
                        continue
            elif {to != "Any"}:
                continue
            acts[n] = ({entering} if s == entering else {moving}) + s * N + t
            tags[n] = tag
            n += 1
    return n
""")
    make = k.function("make_move_by_die", f"""
def {{name}}(st, T, mover, act):
    dice = np.empty(DICE_CAP, np.int32)
    m = {distinct}(st, dice)
    end = {length}[mover]
    if {bearing} >= 0 and {bearing} <= act < {bearing} + N:
        s = act - {bearing}
        rear = end
        for p in range(end):
            r = {order}[mover, p]
            if st[r] != 0 and OWNER[st[r]] == mover:
                rear = p
                break
        for j in range(m):
            i = {place}[mover, s] + dice[j]
            if i == end or (i > end and {place}[mover, s] <= rear):
                change(st, s, {left}[st[s]])
                use_die(st, dice[j])
                st[H_TO] = s
                st[H_FROM] = -1
                return
        return
    a = act - ({entering} if {entering} >= 0 and act >= {entering} else {moving})
    s = a // N
    t = a % N
    v = -1
    for j in range(m):
        if {place}[mover, s] + dice[j] == {place}[mover, t] or ({loops}[mover] == 1 and
                ({place}[mover, s] + dice[j]) % end == {place}[mover, t]):
            v = dice[j]
            break
    value = st[s]
    target = st[t]
    change(st, s, {left}[value])
    if target == 0 or OWNER[target] < 0:
        change(st, t, {kind}[value])
    elif OWNER[target] == mover:
        change(st, t, {grown}[target])
    elif {bar}[mover] >= 0:
        home = {bar}[OWNER[target]]
        there = st[home]
        change(st, t, {kind}[value])
        change(st, home, {stack}[{kind}[target], {count}[target] + {count}[there]])
    else:
        change(st, t, {kind}[value])
    use_die(st, v)
    st[H_TO] = t
    st[H_FROM] = s
""")
    kinds_made = {"move"} | ({ENTER.name} if bars is not None else set()) \
        | ({BEAR_OFF.name} if off is not None else set())
    return Generator(generate, make, frozenset(kinds_made))


@lowers("max-dice")
def lower_max_dice(k: Lower, node: Form, args: tuple[Node, ...]) -> Generator:
    """(max-dice moves [larger:]): the moves after which the turn can go on to use the most
    dice (and when only one can be used, the larger), each judged by trying the rest of the
    turn — the same moves while dice are left — on copies of the state. The moves found are
    kept in slots with the position they were found for (the board, header and dice, the
    decision's index aside): a turn's next decision is listed twice, once to see whether the
    turn goes on, then for the move, and the search is made once."""
    from interpreter.kernel.layout import changed_capacity, fixed_size

    given = keywords(node, {"larger"}, k)
    larger = given.get("larger")
    if larger is not None and not isinstance(larger, Bool):
        k.refuse(node, "no kernel lowering of (max-dice) with a computed larger:")
    bigger = larger.value if isinstance(larger, Bool) else True
    inner = k.lower(args[0], "Moves")
    if not isinstance(inner, Generator):
        k.refuse(node, "no kernel lowering of (max-dice) over alternatives yet")
    size = k.env.topology.size
    roles = len(k.env.roles)
    key = fixed_size(size, roles) - changed_capacity(size)  # the board, header, dice
    room = 4 * size  # the moves kept, at most
    cache = k.slot(f"max-dice {id(node)}", 1 + key + 1 + room,
                   lambda state: [0] * (1 + key + 1 + room))
    most = k.function("most_dice", f"""
def {{name}}(st, T, mover, budget):
    acts = np.empty(MAX_MOVES, np.int32)
    tags = np.empty(MAX_MOVES, np.int32)
    n = {inner.generate}(st, T, mover, acts, tags, 0, 0)
    if n == 0 or budget <= 1:
        return min(n, 1)
    best = 1
    trial = st.copy()
    for i in range(n):
        copy_into(trial, st, st.shape[0])
        {inner.make}(trial, T, mover, acts[i])
        used = 1 + {{name}}(trial, T, mover, budget - 1)
        if used > best:
            best = used
            if best >= budget:
                break
    return best
""")
    generate = k.function("max_dice", f"""
def {{name}}(st, T, mover, acts, tags, n, tag):
    c = {cache}
    if st[c] == 1:
        same = True
        for i in range({key}):
            if i != H_STEP and st[c + 1 + i] != st[i]:
                same = False
                break
        if same:
            for i in range(st[c + 1 + {key}]):
                acts[n] = st[c + 2 + {key} + i]
                tags[n] = tag
                n += 1
            return n
    start = n
    n = {inner.generate}(st, T, mover, acts, tags, n, tag)
    found = n - start
    budget = st[H_NDICE]
    several = False
    for i in range(1, budget):
        if st[DICE + i] != st[DICE]:
            several = True
    if found > 1 and (budget > 1 or ({bigger} and several)):
        used = np.empty(found, np.int64)
        die = np.empty(found, np.int64)
        trial = st.copy()
        best = 0
        for i in range(found):
            copy_into(trial, st, st.shape[0])
            {inner.make}(trial, T, mover, acts[start + i])
            die[i] = st[DICE + budget - 1]
            for j in range(budget - 1):
                if trial[DICE + j] != st[DICE + j]:
                    die[i] = st[DICE + j]
                    break
            used[i] = 1 if budget <= 1 else 1 + {most}(trial, T, mover, budget - 1)
            best = max(best, used[i])
        high = 0
        if best == 1 and {bigger} and several:
            for i in range(found):
                if used[i] == best:
                    high = max(high, die[i])
        n = start
        for i in range(found):
            if used[i] == best and (high == 0 or die[i] == high):
                acts[n] = acts[start + i]
                tags[n] = tags[start + i]
                n += 1
    if n - start <= {room}:
        st[c] = 1
        copy_into(st[c + 1:], st, {key})
        st[c + 1 + {key}] = n - start
        for i in range(n - start):
            st[c + 2 + {key} + i] = acts[start + i]
    return n
""")
    return Generator(generate, inner.make, inner.kinds)
