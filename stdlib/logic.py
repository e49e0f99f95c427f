"""Conditions and numbers: logic, comparison, arithmetic, counting, roles and sites."""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

from stdlib.registry import ludeme
from stdlib.runtime import EMPTY, Ctx, Env, like, with_ends, with_reads
from stdlib.types import (
    CellKind,
    Cond,
    Direction,
    IntExpr,
    Region,
    RoleExpr,
    RolesExpr,
    SiteExpr,
)


@ludeme("and")
def and_(*conditions: Cond) -> Cond:
    """True when every condition holds.

    (and (is Empty To) (not (full)))"""
    if len(conditions) == 2:
        a, b = conditions
        return like(lambda ctx: a(ctx) and b(ctx), *conditions)
    if len(conditions) == 3:
        a, b, c = conditions
        return like(lambda ctx: a(ctx) and b(ctx) and c(ctx), *conditions)
    return like(lambda ctx: all(c(ctx) for c in conditions), *conditions)


@ludeme("or")
def or_(*conditions: Cond) -> Cond:
    """True when some condition holds.

    (or (line 3) (full))"""
    if len(conditions) == 2:
        a, b = conditions
        return like(lambda ctx: a(ctx) or b(ctx), *conditions)
    return like(lambda ctx: any(c(ctx) for c in conditions), *conditions)


@ludeme("not")
def not_(condition: Cond) -> Cond:
    """True when the condition does not hold.

    (not (full))"""
    def negated(ctx: Ctx) -> bool:
        return not condition(ctx)
    why = getattr(condition, "why_not", None)
    if why:
        negated.why = why  # type: ignore[attr-defined]
    why_not = getattr(condition, "why", None)
    if why_not:
        negated.why_not = why_not  # type: ignore[attr-defined]
    return like(negated, condition)


@ludeme("=")
def eq(a: IntExpr, b: IntExpr) -> Cond:
    """True when the two numbers are equal.

    (= (count (sites Occupied Next)) 0)"""
    return like(lambda ctx: a(ctx) == b(ctx), a, b)


@ludeme("!=")
def ne(a: IntExpr, b: IntExpr) -> Cond:
    """True when the two numbers differ.

    (!= (count (sites Empty)) 0)"""
    return like(lambda ctx: a(ctx) != b(ctx), a, b)


@ludeme("<")
def lt(a: IntExpr, b: IntExpr) -> Cond:
    """True when a < b.

    (< (count (sites Occupied Mover)) 3)"""
    return like(lambda ctx: a(ctx) < b(ctx), a, b)


@ludeme("<=")
def le(a: IntExpr, b: IntExpr) -> Cond:
    """True when a <= b.

    (<= (count (sites Empty)) 1)"""
    return like(lambda ctx: a(ctx) <= b(ctx), a, b)


@ludeme(">")
def gt(a: IntExpr, b: IntExpr) -> Cond:
    """True when a > b.

    (> (count (sites Occupied Mover)) (count (sites Occupied Next)))"""
    return like(lambda ctx: a(ctx) > b(ctx), a, b)


@ludeme(">=")
def ge(a: IntExpr, b: IntExpr) -> Cond:
    """True when a >= b.

    (>= (count (sites Occupied Mover)) 5)"""
    return like(lambda ctx: a(ctx) >= b(ctx), a, b)


@ludeme("+")
def add(*terms: IntExpr) -> IntExpr:
    """The sum of the numbers.

    (+ (count (sites Occupied Mover)) 1)"""
    return lambda ctx: sum(t(ctx) for t in terms)


@ludeme("-")
def sub(a: IntExpr, b: IntExpr) -> IntExpr:
    """a minus b.

    (- (count (sites Occupied Mover)) (count (sites Occupied Next)))"""
    return lambda ctx: a(ctx) - b(ctx)


@ludeme("count")
def count(region: Region) -> IntExpr:
    """The number of sites in a region.

    (count (sites Occupied Next))"""
    return lambda ctx: len(region(ctx))


@ludeme("full")
def full() -> Cond:
    """True when no site is empty.

    (if (full) (draw))"""
    def test(ctx: Ctx) -> bool:
        return EMPTY not in ctx.board
    test.why = "the board is full"  # type: ignore[attr-defined]
    return test


def cell_test(env: Env, kind: str) -> Callable[[Ctx, int], bool]:
    """A test of what site s holds, relative to ctx.mover."""
    if kind == "Empty":
        return lambda ctx, s: ctx.board[s] == EMPTY
    if kind == "Occupied":
        return lambda ctx, s: ctx.board[s] != EMPTY
    if kind in ("Friend", "Own"):
        return lambda ctx, s: ctx.owner[ctx.board[s]] == ctx.mover
    if kind == "Enemy":
        return lambda ctx, s: ctx.owner[ctx.board[s]] >= 0 and \
            ctx.owner[ctx.board[s]] != ctx.mover
    if kind == "EmptyOrEnemy":
        return lambda ctx, s: ctx.board[s] == EMPTY or (
            ctx.owner[ctx.board[s]] >= 0 and ctx.owner[ctx.board[s]] != ctx.mover)
    return lambda ctx, s: True  # Any


@ludeme("is")
def is_(env: Env, kind: CellKind, site: SiteExpr) -> Cond:
    """True when the site holds what `kind` says, relative to the mover: Empty, Occupied,
    Friend, Enemy, EmptyOrEnemy or Any.

    (is Empty To)"""
    var = getattr(site, "site_var", None)
    if var is not None and kind in ("Empty", "Occupied", "Friend", "Enemy"):
        # The common cases, written out: a site variable of the context and a simple test.
        get = operator.attrgetter(var)
        # Judged for a candidate site To (or a site bound to Site), it reads just that site.
        reads = (lambda site: frozenset((site,))) if var == "to" else None
        ends = var in ("to", "frm")
        if kind == "Empty":
            test = lambda ctx: ctx.board[get(ctx)] == EMPTY  # noqa: E731
        elif kind == "Occupied":
            test = lambda ctx: ctx.board[get(ctx)] != EMPTY  # noqa: E731
        elif kind == "Friend":
            test = lambda ctx: ctx.owner[ctx.board[get(ctx)]] == ctx.mover  # noqa: E731
        else:
            test = lambda ctx: ctx.owner[ctx.board[get(ctx)]] >= 0 \
                and ctx.owner[ctx.board[get(ctx)]] != ctx.mover  # noqa: E731
        if var == "site":
            test.reads_site = lambda site: frozenset((site,))  # type: ignore[attr-defined]
        return with_ends(with_reads(test, reads), ends)
    cell = cell_test(env, kind)
    return lambda ctx: cell(ctx, site(ctx))


@ludeme("in")
def in_(site: SiteExpr, region: Region) -> Cond:
    """True when the site is in the region.

    (in To (sites Side N))"""
    return lambda ctx: site(ctx) in region(ctx)


@ludeme("stuck")
def stuck(env: Env, roles: RolesExpr) -> Cond:
    """True when every one of the roles has no legal move but `pass` (on its next turn, in
    this position).

    (if (stuck All) (most-pieces))"""
    def test(ctx: Ctx) -> bool:
        return not any(env.can_move(ctx, r) for r in roles(ctx))  # type: ignore[attr-defined]
    test.why = "no one can move"  # type: ignore[attr-defined]
    return test


@ludeme("reached")
def reached(role: RolesExpr, region: Region) -> Cond:
    """True when a piece of the role stands on a site of the region.

    (reached Mover (sites Side Forward))"""
    def test(ctx: Ctx) -> bool:
        owner, board = ctx.owner, ctx.board
        rs = role(ctx)
        return any(owner[board[s]] in rs for s in region(ctx))
    test.why = "reaching the goal"  # type: ignore[attr-defined]
    return test


@ludeme("named")
def named(description: str, condition: Cond) -> Cond:
    """The condition, with a description for messages: a move refused by if:(named "closer to
    the centre" ...) is reported as "not closer to the centre", one refused by unless: as
    "closer to the centre".

    (named "closer to the centre" (< (centre-distance To) (centre-distance From)))"""
    def test(ctx: Ctx) -> bool:
        return condition(ctx)
    test.why = description  # type: ignore[attr-defined]
    test.why_not = f"not {description}"  # type: ignore[attr-defined]
    return like(test, condition)


@ludeme("count-around")
def count_around(env: Env, site: SiteExpr, kind: CellKind = "Occupied",
                 directions: Direction = "Adjacent") -> IntExpr:
    """The number of the site's neighbours (in the directions) that hold what `kind` says.

    (= (count-around Site Empty) 0)"""
    table = env.topology.neighbours(env.absolute_dirs(directions))
    # Judged for a candidate site To (or a site bound to Site), it reads that site's neighbours.
    var = getattr(site, "site_var", None)
    neighbours = [frozenset(n) for n in table]

    def local(fn: Any) -> Any:
        if var == "to":
            fn.reads = neighbours.__getitem__
        elif var == "site":
            fn.reads_site = neighbours.__getitem__
        return fn

    if kind == "Occupied":
        return local(lambda ctx: sum(1 for t in table[site(ctx)] if ctx.board[t] != EMPTY))
    if kind == "Empty":
        return local(lambda ctx: sum(1 for t in table[site(ctx)] if ctx.board[t] == EMPTY))
    test = cell_test(env, kind)
    return local(lambda ctx: sum(1 for t in table[site(ctx)] if test(ctx, t)))


@ludeme("holds")
def holds(env: Env, site: SiteExpr, piece: str) -> Cond:
    """True when the site holds the named piece (and nothing on it).

    (holds Site "Tile")"""
    values = [p.value for p in env.pieces if p.name == piece]
    if not values:
        env.error(f'no piece named "{piece}" (pieces: {", ".join(p.name for p in env.pieces)})')
        return lambda ctx: False
    (value,) = values
    return lambda ctx: ctx.board[site(ctx)] == value


@ludeme("some")
def some(region: Region, condition: Cond) -> Cond:
    """True when the condition holds for some site of the region (Site bound to it).

    (some (sites Around To) (> (count-around Site Occupied) 3))"""
    def test(ctx: Ctx) -> bool:
        saved = ctx.site
        try:
            for s in region(ctx):
                ctx.site = s
                if condition(ctx):
                    return True
            return False
        finally:
            ctx.site = saved
    return _over_region(test, region, condition)


def _over_region(test: Any, region: Region, condition: Cond) -> Any:
    """Locality of a quantifier: over the sites around To (a table), judging a condition that
    says what it reads for Site, it reads those sites' reads."""
    table = getattr(region, "around_to", None)
    site_reads = getattr(condition, "reads_site", None)
    if table is not None and site_reads is not None:
        test.reads = lambda s: frozenset().union(*(site_reads(t) for t in table[s]))
    return test


@ludeme("every")
def every(region: Region, condition: Cond) -> Cond:
    """True when the condition holds for every site of the region (Site bound to it).

    (every (sites Around To) (is Occupied Site))"""
    def test(ctx: Ctx) -> bool:
        saved = ctx.site
        try:
            for s in region(ctx):
                ctx.site = s
                if not condition(ctx):
                    return False
            return True
        finally:
            ctx.site = saved
    return _over_region(test, region, condition)


@ludeme("in-hand")
def in_hand(role: RoleExpr) -> IntExpr:
    """The number of the role's pieces in hand (0 when its pieces are not counted).

    (= (in-hand Mover) 0)"""
    def count(ctx: Ctx) -> int:
        hands = ctx.hands if ctx.hands is not None else ctx.state.hands
        if not hands:
            return 0
        return max(0, int(hands[role(ctx)]))
    return count
