"""Conditions and numbers: logic, comparison, arithmetic, counting, roles and sites."""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any

from stdlib.registry import ludeme
from stdlib.runtime import EMPTY, Ctx, Env, constant, like, literal, with_ends
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
def and_(env: Env, *conditions: Cond) -> Cond:
    """True when every condition holds.

    (and (is Empty To) (not (full)))"""
    if any(getattr(c, "literal", None) is False for c in conditions):
        return literal(False)  # a part that never holds (e.g. an option that is off)
    table = combined(env, conditions, all)
    if table is not None:
        return table  # type: ignore[no-any-return]
    if len(conditions) == 2:
        a, b = conditions
        test = lambda ctx: a(ctx) and b(ctx)  # noqa: E731
    elif len(conditions) == 3:
        a, b, c = conditions
        test = lambda ctx: a(ctx) and b(ctx) and c(ctx)  # noqa: E731
    else:
        test = lambda ctx: all(c(ctx) for c in conditions)  # noqa: E731
    # The conditions it joins, nested ands flattened (a link judges each part where it is
    # cheapest: see connectivity.link).
    test.parts = tuple(p for c in conditions  # type: ignore[attr-defined]
                       for p in getattr(c, "parts", (c,)))
    return like(test, *conditions)


@ludeme("or")
def or_(env: Env, *conditions: Cond) -> Cond:
    """True when some condition holds.

    (or (line 3) (full))"""
    if any(getattr(c, "literal", None) is True for c in conditions):
        return literal(True)  # a part that always holds (e.g. an option that is on)
    table = combined(env, conditions, any)
    if table is not None:
        return table  # type: ignore[no-any-return]
    if len(conditions) == 2:
        a, b = conditions
        return like(lambda ctx: a(ctx) or b(ctx), *conditions)
    return like(lambda ctx: any(c(ctx) for c in conditions), *conditions)


@ludeme("not")
def not_(env: Env, condition: Cond) -> Cond:
    """True when the condition does not hold.

    (not (full))"""
    table = combined(env, (condition,), lambda verdicts: not verdicts[0])
    if table is not None:
        return table  # type: ignore[no-any-return]
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
    if var is not None:
        # A test of one site variable: a table by mover and board value (see cell_table).
        owner = env.owner

        def holds(value: int, mover: int) -> bool:
            o = owner[value]
            return {"Empty": value == EMPTY, "Occupied": value != EMPTY,
                    "Friend": o == mover, "Own": o == mover, "Enemy": o >= 0 and o != mover,
                    "EmptyOrEnemy": value == EMPTY or (o >= 0 and o != mover),
                    "Any": True}[kind]

        return cell_table(env, var, holds)
    cell = cell_test(env, kind)
    return lambda ctx: cell(ctx, site(ctx))


def cell_table(env: Env, var: str, holds: Callable[[int, int], bool]) -> Any:
    """A condition on what the site in context variable `var` (to, frm, site) holds: judged by
    looking up `holds(value, mover)` in a table made once. Conditions of this kind combined by
    and/or/not make one table again (see `combined`), so "a tile with no enemy on it" costs one
    lookup."""
    roles = range(len(env.roles))
    values = range(len(env.pieces) + 1)
    table = [[holds(v, m) for v in values] for m in roles]
    get = operator.attrgetter(var)

    def test(ctx: Ctx) -> bool:
        return table[ctx.mover][ctx.board[get(ctx)]]

    test.cell = (var, holds)  # type: ignore[attr-defined]
    test.table = table  # type: ignore[attr-defined]
    one = lambda site: frozenset((site,))  # noqa: E731
    if var == "to":
        test.reads = one  # type: ignore[attr-defined]
    elif var == "site":
        test.reads_site = one  # type: ignore[attr-defined]
    return with_ends(test, var in ("to", "frm"))


def site_table(condition: Any) -> list[list[bool]] | None:
    """The verdicts of a condition on what the site bound to Site holds, by mover and board
    value (`table[mover][value]`), or None if it is not such a condition (see cell_table).
    Ludemes that judge a condition for many sites may look these up directly."""
    cell = getattr(condition, "cell", None)
    if cell is None or cell[0] != "site":
        return None
    return getattr(condition, "table", None)


def site_verdicts(ctx: Ctx, condition: Cond) -> list[bool]:
    """The condition judged with Site bound to each site of the board, in site order (looked
    up for a condition on what the site holds alone, see site_table)."""
    table = site_table(condition)
    if table is not None:
        row = table[ctx.mover]
        return [row[v] for v in ctx.board]
    saved = ctx.site
    out: list[bool] = []
    for s in range(len(ctx.board)):
        ctx.site = s
        out.append(bool(condition(ctx)))
    ctx.site = saved
    return out


def combined(env: Env, parts: tuple[Cond, ...], join: Callable[[list[bool]], bool]) -> Any:
    """One cell table for a combination of cell conditions on the same variable, or None."""
    found = [getattr(p, "cell", None) for p in parts]
    cells = [c for c in found if c is not None]
    if not parts or len(cells) != len(parts) or len({var for var, _ in cells}) != 1:
        return None
    holds = [h for _, h in cells]
    return cell_table(env, cells[0][0], lambda v, m: join([h(v, m) for h in holds]))


@ludeme("in")
def in_(site: SiteExpr, region: Region) -> Cond:
    """True when the site is in the region.

    (in To (sites Side N))"""
    fixed: frozenset[int] | None = getattr(region, "static", None)
    var = getattr(site, "site_var", None)
    if fixed is None:
        return lambda ctx: site(ctx) in region(ctx)
    if var is None:
        return lambda ctx: site(ctx) in fixed
    # A site variable in a region that does not change: it reads nothing of the board, and
    # says which variable and which sites (a link judges it without calling it).
    get = operator.attrgetter(var)

    def test(ctx: Ctx) -> bool:
        return get(ctx) in fixed

    test.site_in = (var, fixed)  # type: ignore[attr-defined]
    return constant(test)


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

    # Per site, a function reading its neighbours' board values at once (as a tuple).
    values = [_reader(n) for n in table]

    def occupied(ctx: Ctx) -> int:
        around = values[site(ctx)](ctx.board)
        return len(around) - around.count(EMPTY)

    if kind == "Occupied":
        return local(occupied)
    if kind == "Empty":
        return local(lambda ctx: values[site(ctx)](ctx.board).count(EMPTY))
    test = cell_test(env, kind)
    return local(lambda ctx: sum(1 for t in table[site(ctx)] if test(ctx, t)))


def _reader(sites: Sequence[int]) -> Callable[[list[int]], tuple[int, ...]]:
    """A function giving the board values on `sites`, as a tuple."""
    if len(sites) == 1:
        (only,) = sites
        return lambda board: (board[only],)
    if not sites:
        return lambda board: ()
    return operator.itemgetter(*sites)


@ludeme("holds")
def holds(env: Env, site: SiteExpr, piece: str) -> Cond:
    """True when the site holds the named piece (and nothing on it).

    (holds Site "Tile")"""
    values = [p.value for p in env.pieces if p.name == piece]
    if not values:
        env.error(f'no piece named "{piece}" (pieces: {", ".join(p.name for p in env.pieces)})')
        return lambda ctx: False
    (value,) = values
    var = getattr(site, "site_var", None)
    if var is not None:  # a table, like (is ...): it combines with other cell tests
        return cell_table(env, var, lambda v, mover: v == value)
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
