"""Conditions and numbers: logic, comparison, arithmetic, counting, roles and sites."""

from __future__ import annotations

import operator
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any

from dsl.ast import Const, Form, Node
from stdlib.lowering import Lower, keywords, lowers
from stdlib.parts import mark, parts_of, twin
from stdlib.registry import ludeme
from stdlib.runtime import EMPTY, Ctx, Env, Move, constant, like, literal, with_ends
from stdlib.statefields import Turns, declare
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

# Descriptions -------------------------------------------------------------------------------
# A condition may carry `why`, what it says when it holds ("5 in a row", "the board is full"),
# and `why_not`, what it says when it does not ("not 5 in a row", "the board is not full").
# A move refused by if:COND gives COND's why_not as the reason, one refused by unless:COND its
# why (stdlib.moves.refusal), and a game ended by an end rule is "ended by" the rule
# condition's why: each is read just after the condition was judged. Ludemes that combine
# conditions build theirs from their parts', so every condition reads as a phrase, and no
# phrase says "not not".
#
# What a combination says depends on the position: an `and` that fails names the part that
# failed there, an `or` that holds the alternative that held. Such a condition sets its `why`
# or `why_not` each time it is judged, and lists which in `live` (see `says_when_judged`):
# those of its parts are then read when it is judged too. Before it is first judged, and for
# a condition that wraps it at compile time (some, every), it says what it says of any
# position ("not A or not B").


def negation(phrase: str) -> str:
    """A description negated without a double negative: "X" gives "not X", "not X" gives X."""
    return phrase[4:] if phrase.startswith("not ") else f"not {phrase}"


def describe(condition: Any, why: str | None, why_not: str | None = None) -> Any:
    """Give a condition what it says when it holds and when it does not (either one given
    alone is negated for the other); returns the condition."""
    if why or why_not:
        given = mark(condition)
        given.why = why or negation(why_not)  # type: ignore[arg-type]
        given.why_not = why_not or negation(why)  # type: ignore[arg-type]
    return condition


def says_when_judged(condition: Any, held: bool) -> bool:
    """Whether what the condition says when it holds (held=True), or when it does not, is set
    each time it is judged (what it found there), so that it must be read right after."""
    return ("why" if held else "why_not") in parts_of(condition).live


def judged_live(condition: Any, why: bool = False, why_not: bool = False) -> Any:
    """Mark a condition that sets its `why` (why=True) or `why_not` each time it is judged
    (see says_when_judged); returns the condition."""
    mark(condition).live = frozenset(name for name, on in (("why", why), ("why_not", why_not))
                                     if on)
    return condition


def phrase(condition: Any, held: bool = True) -> str:
    """What a condition says when it holds (held=True) or when it does not: its own `why` or
    `why_not` (the other negated if it has only one); a condition that is the whole body of a
    define is named by the define; otherwise its source text."""
    given = parts_of(condition)
    said = given.why if held else given.why_not
    if said:
        return said
    other = given.why_not if held else given.why
    if other:
        return negation(other)
    value = given.literal
    if isinstance(value, bool):
        return "true" if value == held else "false"
    name = given.description or given.source or "a condition"
    return f"{name} holds" if held else f"{name} does not hold"


def amount(expr: Any) -> str:
    """How a number reads in a description: a literal as itself, else its description, else its
    source text."""
    given = parts_of(expr)
    value = given.literal
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    return given.description or given.source or "a number"


def where(site: Any, env: Env | None = None) -> str:
    """How a site reads in a description: a fixed site by its name, a site variable as the
    language writes it (To, From, Site), else its source text."""
    given = parts_of(site)
    fixed = given.static_site
    if fixed is not None and env is not None:
        return str(env.names[fixed])
    var = given.site_var
    if var is not None:
        return {"to": "To", "frm": "From", "site": "Site"}.get(var, var)
    return given.description or given.source or "the site"


def region_name(region: Any) -> str:
    """How a region reads in a description: its description, else its source text."""
    given = parts_of(region)
    return given.description or given.source or "the region"


def _joined(parts: Sequence[str], word: str) -> str:
    """"a", "a and b", "a, b and c"."""
    if len(parts) <= 2:
        return f" {word} ".join(parts)
    return ", ".join(parts[:-1]) + f" {word} " + parts[-1]


@ludeme("and")
def and_(env: Env, *conditions: Cond) -> Cond:
    """True when every condition holds. When it does not, it says why: what its first part
    that does not hold says; when it does, what every part says.

    (and (is Empty To) (not (full)))"""
    if any(parts_of(c).literal is False for c in conditions):
        return literal(False)  # a part that never holds (e.g. an option that is off)
    # Parts that always hold (an option that is on) are neither judged nor named.
    said = tuple(c for c in conditions if parts_of(c).literal is not True) or conditions
    why = _joined([phrase(c) for c in said], "and")
    why_not = _joined([phrase(c, held=False) for c in said], "or")
    table = combined(env, conditions, all, _says_and, why, why_not)
    if table is not None:
        return table
    test = _all_of(said)
    # The conditions it joins, nested ands flattened (a link judges each part where it is
    # cheapest: see connectivity.link).
    mark(test).conjuncts = tuple(p for c in conditions
                                 for p in parts_of(c).conjuncts or (c,))
    return describe(like(test, *conditions), why, why_not)


def _all_of(parts: tuple[Cond, ...]) -> Any:
    """A condition holding when all the parts hold, which says, when judged, what the first
    part that does not hold says (if one does not), or what all of them say."""
    nots = [phrase(c, held=False) for c in parts]
    not_live = [says_when_judged(c, False) for c in parts]
    why_live = [says_when_judged(c, True) for c in parts]
    quiet_parts = [quiet(c) for c in parts]
    if len(parts) == 1 and not not_live[0] and not why_live[0]:
        # One part judged (the others always hold): it says the same every time.
        (a,) = parts

        def test(ctx: Ctx) -> bool:
            return True if a(ctx) else False
    elif len(parts) == 2 and not any(not_live) and not any(why_live):
        (a, b), (na, nb) = parts, nots

        def test(ctx: Ctx) -> bool:
            if not a(ctx):
                says.why_not = na
                return False
            if not b(ctx):
                says.why_not = nb
                return False
            return True
    elif len(parts) == 2 and sum(why_live) < 2:
        (a, b), (na, nb), (la, lb) = parts, nots, not_live
        # The part that says what it found when it holds, if one does: each thing it says is
        # joined to what the other part says once.
        held = a if why_live[0] else b if why_live[1] else None
        held_says = parts_of(held) if held is not None else None
        a_says, b_says = parts_of(a), parts_of(b)
        wa, wb = phrase(a), phrase(b)
        made: dict[str | None, str] = {}

        def test(ctx: Ctx) -> bool:
            if not a(ctx):
                says.why_not = a_says.why_not if la else na
                return False
            if not b(ctx):
                says.why_not = b_says.why_not if lb else nb
                return False
            if held_says is not None:
                found = held_says.why
                joined = made.get(found)
                if joined is None:
                    joined = made[found] = f"{found} and {wb}" if held is a else \
                        f"{wa} and {found}"
                says.why = joined
            return True
    else:
        every = _saying(parts, True, "and")
        failing = [(c, parts_of(c) if live else None, said)
                   for c, live, said in zip(parts, not_live, nots, strict=True)]
        judged_why = any(why_live)

        def test(ctx: Ctx) -> bool:
            for c, live, said in failing:
                if not c(ctx):
                    says.why_not = live.why_not if live is not None else said
                    return False
            if judged_why:
                says.why = every()
            return True
    says = mark(test)
    says.quiet = _quiet_all(quiet_parts)
    return judged_live(test, why=any(why_live), why_not=len(parts) > 1 or any(not_live))


def _quiet_all(parts: list[Cond]) -> Cond:
    """All the parts hold: the verdict alone."""
    if len(parts) == 1:
        (a,) = parts
        return lambda ctx: bool(a(ctx))
    if len(parts) == 2:
        a, b = parts
        return lambda ctx: a(ctx) and b(ctx)
    if len(parts) == 3:
        a, b, c = parts
        return lambda ctx: a(ctx) and b(ctx) and c(ctx)
    return lambda ctx: all(p(ctx) for p in parts)


@ludeme("or")
def or_(env: Env, *conditions: Cond) -> Cond:
    """True when some condition holds. When it does, it says what the first alternative that
    holds says; when it does not, what each says (none holds).

    (or (line 3) (full))"""
    if any(parts_of(c).literal is True for c in conditions):
        return literal(True)  # a part that always holds (e.g. an option that is on)
    # Parts that never hold (an option that is off) are neither judged nor named.
    said = tuple(c for c in conditions if parts_of(c).literal is not False) or conditions
    why = _joined([phrase(c) for c in said], "or")
    why_not = _joined([phrase(c, held=False) for c in said], "and")
    table = combined(env, conditions, any, _says_or, why, why_not)
    if table is not None:
        return table
    return describe(like(_any_of(said), *conditions), why, why_not)


def _any_of(parts: tuple[Cond, ...]) -> Any:
    """A condition holding when some part holds, which says, when judged, what the first part
    that holds says (if one does), or what each of them says."""
    whys = [phrase(c) for c in parts]
    why_live = [says_when_judged(c, True) for c in parts]
    not_live = [says_when_judged(c, False) for c in parts]
    quiet_parts = [quiet(c) for c in parts]
    if len(parts) == 2 and not any(why_live) and not any(not_live):
        (a, b), (wa, wb) = parts, whys

        def test(ctx: Ctx) -> bool:
            if a(ctx):
                says.why = wa
                return True
            if b(ctx):
                says.why = wb
                return True
            return False
    else:
        each = _saying(parts, False, "and")
        holding = [(c, parts_of(c) if live else None, said)
                   for c, live, said in zip(parts, why_live, whys, strict=True)]
        judged_not = any(not_live)

        def test(ctx: Ctx) -> bool:
            for c, live, said in holding:
                if c(ctx):
                    says.why = live.why if live is not None else said
                    return True
            if judged_not:
                says.why_not = each()
            return False
    says = mark(test)
    says.quiet = _quiet_any(quiet_parts)
    return judged_live(test, why=len(parts) > 1 or any(why_live), why_not=any(not_live))


def _quiet_any(parts: list[Cond]) -> Cond:
    """Some part holds: the verdict alone."""
    if len(parts) == 1:
        (a,) = parts
        return lambda ctx: bool(a(ctx))
    if len(parts) == 2:
        a, b = parts
        return lambda ctx: a(ctx) or b(ctx)
    return lambda ctx: any(p(ctx) for p in parts)


def quiet(condition: Cond) -> Cond:
    """The condition judged for its verdict alone, saying nothing: for a ludeme that judges it
    many times and never reads what it says (some, every, named). The condition itself
    unless it sets what it says when judged."""
    return parts_of(condition).quiet or condition


def _saying(parts: tuple[Cond, ...], held: bool, word: str) -> Callable[[], str]:
    """What all the parts say (when they hold, or when they do not), joined by `word`, as they
    were just judged: joined once for each combination of what they said."""
    fixed = [phrase(c, held) for c in parts]
    live = [(i, parts_of(c)) for i, c in enumerate(parts) if says_when_judged(c, held)]
    if not live:
        always = _joined(fixed, word)
        return lambda: always
    made: dict[tuple[str, ...], str] = {}

    def joined() -> str:
        key = tuple([str(c.why if held else c.why_not) for _, c in live])
        said = made.get(key)
        if said is None:
            now = list(fixed)
            for (i, _), part in zip(live, key, strict=True):
                now[i] = part
            said = made[key] = _joined(now, word)
        return said
    return joined


def _says_and(verdicts: list[bool], part: Callable[[int, bool], str], held: bool) -> str:
    """What an `and` of parts judged `verdicts` says (part(i, held) says what part i does)."""
    if held:
        return _joined([part(i, True) for i in range(len(verdicts))], "and")
    return part(verdicts.index(False), False)


def _says_or(verdicts: list[bool], part: Callable[[int, bool], str], held: bool) -> str:
    """What an `or` of parts judged `verdicts` says (see _says_and)."""
    if held:
        return part(verdicts.index(True), True)
    return _joined([part(i, False) for i in range(len(verdicts))], "and")


def _says_not(verdicts: list[bool], part: Callable[[int, bool], str], held: bool) -> str:
    """What a `not` says: what its condition says (see _says_and)."""
    return part(0, not held)


@ludeme("not")
def not_(env: Env, condition: Cond) -> Cond:
    """True when the condition does not hold.

    (not (full))"""
    # It holds when the condition does not: it says what the condition says then (and the
    # reverse), so (not (not X)) says what X says.
    why, why_not = phrase(condition, held=False), phrase(condition)
    table = combined(env, (condition,), lambda verdicts: not verdicts[0], _says_not, why,
                     why_not)
    if table is not None:
        return table
    # What the condition says when judged is what this says: read when it is judged.
    why_live, not_live = says_when_judged(condition, False), says_when_judged(condition, True)
    if not (why_live or not_live):
        def negated(ctx: Ctx) -> bool:
            return not condition(ctx)
    else:
        told = parts_of(condition)

        def negated(ctx: Ctx) -> bool:
            if condition(ctx):
                if not_live:
                    says.why_not = told.why
                return False
            if why_live:
                says.why = told.why_not
            return True
        silent = quiet(condition)
        says = mark(negated)
        says.quiet = lambda ctx: not silent(ctx)
    judged_live(negated, why=why_live, why_not=not_live)
    return describe(like(negated, condition), why, why_not)


@ludeme("=")
def eq(a: IntExpr, b: IntExpr) -> Cond:
    """True when the two numbers are equal.

    (= (count (sites Occupied Next)) 0)"""
    test = like(_nonempty(a, b, "=") or (lambda ctx: a(ctx) == b(ctx)), a, b)
    return _compared(test, a, b, "is", "is not")


@ludeme("!=")
def ne(a: IntExpr, b: IntExpr) -> Cond:
    """True when the two numbers differ.

    (!= (count (sites Empty)) 0)"""
    test = like(_nonempty(a, b, "!=") or (lambda ctx: a(ctx) != b(ctx)), a, b)
    return _compared(test, a, b, "is not", "is")


@ludeme("<")
def lt(a: IntExpr, b: IntExpr) -> Cond:
    """True when a < b.

    (< (count (sites Occupied Mover)) 3)"""
    test = like(_nonempty(a, b, "<") or (lambda ctx: a(ctx) < b(ctx)), a, b)
    return _compared(test, a, b, "is less than", "is at least")


@ludeme("<=")
def le(a: IntExpr, b: IntExpr) -> Cond:
    """True when a <= b.

    (<= (count (sites Empty)) 1)"""
    test = like(_nonempty(a, b, "<=") or (lambda ctx: a(ctx) <= b(ctx)), a, b)
    return _compared(test, a, b, "is at most", "is more than")


@ludeme(">")
def gt(a: IntExpr, b: IntExpr) -> Cond:
    """True when a > b.

    (> (count (sites Occupied Mover)) (count (sites Occupied Next)))"""
    test = like(_nonempty(a, b, ">") or (lambda ctx: a(ctx) > b(ctx)), a, b)
    return _compared(test, a, b, "is more than", "is at most")


@ludeme(">=")
def ge(a: IntExpr, b: IntExpr) -> Cond:
    """True when a >= b.

    (>= (count (sites Occupied Mover)) 5)"""
    test = like(_nonempty(a, b, ">=") or (lambda ctx: a(ctx) >= b(ctx)), a, b)
    return _compared(test, a, b, "is at least", "is less than")


def _compared(test: Any, a: IntExpr, b: IntExpr, yes: str, no: str) -> Any:
    """A comparison described: "a is less than b", or when it does not hold "a is at least
    b"."""
    return describe(test, f"{amount(a)} {yes} {amount(b)}", f"{amount(a)} {no} {amount(b)}")


@ludeme("+")
def add(*terms: IntExpr) -> IntExpr:
    """The sum of the numbers.

    (+ (count (sites Occupied Mover)) 1)"""
    return _folded(terms, sum) or (lambda ctx: sum(t(ctx) for t in terms))


def _folded(terms: Sequence[IntExpr], combine: Callable[[list[Any]], Any]) -> IntExpr | None:
    """Arithmetic on literals only (options, numbers), done once: a closure giving the value,
    which reads nothing (its wording stays the source text, e.g. (* 2 #size #size)); None
    when a term is not a literal."""
    values = [parts_of(t).literal for t in terms]
    if any(v is None or isinstance(v, bool) for v in values):
        return None
    value = combine(values)
    return constant(lambda ctx: value)  # type: ignore[no-any-return]


def _product(values: list[Any]) -> Any:
    out = values[0]
    for v in values[1:]:
        out *= v
    return out


@ludeme("-")
def sub(a: IntExpr, b: IntExpr) -> IntExpr:
    """a minus b.

    (- (count (sites Occupied Mover)) (count (sites Occupied Next)))"""
    return _folded((a, b), lambda v: v[0] - v[1]) or (lambda ctx: a(ctx) - b(ctx))


class AnyRegion(ABC):
    """A region that can also say whether it has any site at all, sooner than by listing
    them (it stops at the first it finds): `(> (count REGION) 0)` and the like ask it that.
    A region that is not one is only listed, which is slower, never wrong."""

    @abstractmethod
    def __call__(self, ctx: Ctx) -> Sequence[int]:
        """The region's sites."""

    @abstractmethod
    def any(self, ctx: Ctx) -> bool:
        """Whether the region has a site (exactly when __call__'s answer is not empty)."""

    def screen(self, ctx: Ctx) -> Callable[[Move], bool] | None:
        """Called once per position (`ctx` judges it) before a decision's moves are tried: a
        test true of each move after which the region, judged right after the move alone
        (with `ctx.last` the sites the move changes), certainly has no site; or None (every
        move must be tried). Optional: a region without it is slower, never wrong."""
        return None


class Count:
    """The number of sites in a region: the value of (count REGION)."""

    def __init__(self, region: Region) -> None:
        self.region = region
        mark(self).description = f"the number of {region_name(region)}"

    def __call__(self, ctx: Ctx) -> int:
        return len(self.region(ctx))


@ludeme("count")
def count(region: Region) -> IntExpr:
    """The number of sites in a region.

    (count (sites Occupied Next))"""
    return Count(region)


def _nonempty(a: IntExpr, b: IntExpr, op: str) -> Cond | None:
    """For `a OP b` that only asks whether a region is empty — (> (count R) 0), (= (count R)
    0) and the like — a test asking the region just that, when it can answer (AnyRegion);
    else None."""
    counted, bound = (a, b) if isinstance(a, Count) else (b, a)
    if not isinstance(counted, Count) or not isinstance(counted.region, AnyRegion):
        return None
    n = parts_of(bound).literal
    if not isinstance(n, int) or isinstance(n, bool):
        return None
    if counted is b:  # n OP count: as count OP' n
        op = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "=": "=", "!=": "!="}[op]
    nonempty = {(">", 0): True, (">=", 1): True, ("!=", 0): True,
                ("=", 0): False, ("<", 1): False, ("<=", 0): False}.get((op, n))
    if nonempty is None:
        return None
    if nonempty:
        return Nonempty(counted.region)
    has = counted.region.any
    return lambda ctx: not has(ctx)


class Nonempty:
    """The condition that a region has a site, e.g. (> (count REGION) 0). Before a decision's
    moves are tried, it can tell which certainly leave it false (see steps.Screen)."""

    def __init__(self, region: AnyRegion) -> None:
        self.region = region
        mark(self).screen = self.screen

    def __call__(self, ctx: Ctx) -> bool:
        return self.region.any(ctx)

    def screen(self, ctx: Ctx) -> Callable[[Move], bool] | None:
        return self.region.screen(ctx)


@ludeme("full")
def full(env: Env, *, within: Region | None = None) -> Cond:
    """True when no site where a piece may stand is empty (special sites, which never hold a
    piece, do not count); with within:, no such site of that region (a sub-board:
    within:(sites Subboard (subboard-of LastTo))).

    (if (full) (draw))"""
    no_piece = env.no_piece  # the special sites are declared before any rule is compiled
    if within is not None:
        def inside(ctx: Ctx) -> bool:
            board = ctx.board
            return all(board[s] != EMPTY for s in within(ctx) if s not in no_piece)
        return describe(inside, "the region is full", "the region is not full")
    if not no_piece:
        def test(ctx: Ctx) -> bool:
            return EMPTY not in ctx.board
    else:
        sites = [s for s in range(env.topology.size) if s not in no_piece]
        if not sites:
            test = literal(True)  # nowhere to put a piece: always full
        elif len(sites) == 1:
            (only,) = sites

            def test(ctx: Ctx) -> bool:
                return ctx.board[only] != EMPTY
        else:
            read = operator.itemgetter(*sites)

            def test(ctx: Ctx) -> bool:
                return EMPTY not in read(ctx.board)
    return describe(test, "the board is full", "the board is not full")


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
    var = parts_of(site).site_var
    if var is not None:
        # A test of one site variable: a table by mover and board value (see cell_table).
        owner = env.owner

        def holds(value: int, mover: int) -> bool:
            o = owner[value]
            return {"Empty": value == EMPTY, "Occupied": value != EMPTY,
                    "Friend": o == mover, "Own": o == mover, "Enemy": o >= 0 and o != mover,
                    "EmptyOrEnemy": value == EMPTY or (o >= 0 and o != mover),
                    "Any": True}[kind]

        return _is_described(cell_table(env, var, holds), kind, where(site, env))
    cell = cell_test(env, kind)

    def test(ctx: Ctx) -> bool:
        s = site(ctx)
        return s >= 0 and cell(ctx, s)  # no site (off the board: -1) holds nothing
    return _is_described(test, kind, where(site, env))


_WHAT = {"Empty": "empty", "Occupied": "occupied", "Friend": "the mover's",
         "Own": "the mover's", "Enemy": "an enemy's", "EmptyOrEnemy": "empty or an enemy's"}


def _is_described(test: Any, kind: str, site: str) -> Any:
    """(is KIND SITE) described: "c3 is empty", "To is not an enemy's"."""
    if kind not in _WHAT:  # Any
        return describe(test, f"{site} is anything", f"{site} is nothing")
    return describe(test, f"{site} is {_WHAT[kind]}", f"{site} is not {_WHAT[kind]}")


def cell_table(env: Env, var: str, holds: Callable[[int, int], bool],
               says: Callable[[int, int, bool], str] | None = None) -> Any:
    """A condition on what the site in context variable `var` (to, frm, site) holds: judged by
    looking up `holds(value, mover)` in a table made once. Conditions of this kind combined by
    and/or/not make one table again (see `combined`), so "a tile with no enemy on it" costs one
    lookup. `says(value, mover, held)`, if given, is what it says judged there: where that
    differs from one board value to another, it is set each time it is judged (see
    says_when_judged)."""
    roles = range(len(env.roles))
    values = range(len(env.pieces) + 1)
    table = [[holds(v, m) for v in values] for m in roles]
    get = operator.attrgetter(var)
    whys = [[says(v, m, True) if table[m][v] else "" for v in values] for m in roles] \
        if says is not None else []
    nots = [[says(v, m, False) if not table[m][v] else "" for v in values] for m in roles] \
        if says is not None else []
    said_why = {w for row in whys for w in row if w}
    said_not = {w for row in nots for w in row if w}
    live = len(said_why) > 1 or len(said_not) > 1

    if not live:
        def test(ctx: Ctx) -> bool:
            return table[ctx.mover][ctx.board[get(ctx)]]
    else:
        def test(ctx: Ctx) -> bool:
            mover, value = ctx.mover, ctx.board[get(ctx)]
            if table[mover][value]:
                given.why = whys[mover][value]
                return True
            given.why_not = nots[mover][value]
            return False
        judged_live(test, why=len(said_why) > 1, why_not=len(said_not) > 1)
        mark(test).quiet = lambda ctx: table[ctx.mover][ctx.board[get(ctx)]]
    given = mark(test)
    if says is not None:
        # What it says where it is judged the same everywhere, said once.
        if len(said_why) == 1:
            given.why = said_why.pop()
        if len(said_not) == 1:
            given.why_not = said_not.pop()
        given.cell_says = says

    given.cell = (var, holds)
    given.table = table
    one = lambda site: frozenset((site,))  # noqa: E731
    if var == "to":
        given.reads = one
    elif var == "site":
        given.reads_site = one
    return with_ends(test, var in ("to", "frm"))


def site_table(condition: Any) -> list[list[bool]] | None:
    """The verdicts of a condition on what the site bound to Site holds, by mover and board
    value (`table[mover][value]`), or None if it is not such a condition (see cell_table).
    Ludemes that judge a condition for many sites may look these up directly."""
    given = parts_of(condition)
    if given.cell is None or given.cell[0] != "site":
        return None
    return given.table


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


def combined(env: Env, parts: tuple[Cond, ...], join: Callable[[list[bool]], bool],
             say: Callable[[list[bool], Callable[[int, bool], str], bool], str],
             why: str, why_not: str) -> Any:
    """One cell table for a combination of cell conditions on the same variable, or None.
    `join` gives its verdict from its parts', `say` what it says from their verdicts and what
    each says there (see _says_and); `why` and `why_not` are what it says of any position."""
    found = [parts_of(p).cell for p in parts]
    cells = [c for c in found if c is not None]
    if not parts or len(cells) != len(parts) or len({var for var, _ in cells}) != 1:
        return None
    holds = [h for _, h in cells]
    tells = [parts_of(p).cell_says or _said_alike(p) for p in parts]

    def says(value: int, mover: int, held: bool) -> str:
        return say([h(value, mover) for h in holds],
                   lambda i, part_held: tells[i](value, mover, part_held), held)

    table = cell_table(env, cells[0][0], lambda v, m: join([h(v, m) for h in holds]), says)
    # Before it is judged (and where it never holds, or never fails), it says what it says of
    # any position.
    given = mark(table)
    if says_when_judged(table, True) or not given.why:
        given.why = why
    if says_when_judged(table, False) or not given.why_not:
        given.why_not = why_not
    return table


def _said_alike(condition: Any) -> Callable[[int, int, bool], str]:
    """What a cell condition that says the same whatever the site holds says."""
    said = {True: phrase(condition), False: phrase(condition, held=False)}
    return lambda value, mover, held: said[held]


@ludeme("in")
def in_(site: SiteExpr, region: Region) -> Cond:
    """True when the site is in the region.

    (in To (sites Side N))"""
    fixed = parts_of(region).static
    var = parts_of(site).site_var
    said = (f"{where(site)} is in {region_name(region)}",
            f"{where(site)} is not in {region_name(region)}")
    if fixed is None:
        return describe(lambda ctx: site(ctx) in region(ctx), *said)
    if var is None:
        return describe(lambda ctx: site(ctx) in fixed, *said)
    # A site variable in a region that does not change: it reads nothing of the board, and
    # says which variable and which sites (a link judges it without calling it).
    get = operator.attrgetter(var)

    def test(ctx: Ctx) -> bool:
        return get(ctx) in fixed

    mark(test).site_in = (var, fixed)
    return describe(constant(test), *said)


@ludeme("stuck")
def stuck(env: Env, roles: RolesExpr) -> Cond:
    """True when every one of the roles has no legal move but `pass` (on its next turn, in
    this position). A role's moves are judged by their filters, but a (stuck ...) met while
    judging them counts as false: `unless:(stuck Next)` looks one turn ahead, not forever.

    (if (stuck All) (most-pieces))"""
    asking = [False]  # is a (stuck ...) of this game being judged already?

    def test(ctx: Ctx) -> bool:
        if asking[0]:
            return False
        asking[0] = True
        try:
            for r in roles(ctx):
                if env.can_move(ctx, r):
                    return False
            return True
        finally:
            asking[0] = False
    who = who_of(env, roles)
    if who is None:
        return describe(test, "the players named cannot move", "one of the players named can "
                        "move")
    name, several = who
    if several:  # every one of them is stuck
        if len(env.roles) == 2 and name == "the players":
            return describe(test, "neither player can move", "a player can move")
        if name == "the players":
            return describe(test, "no player can move", "a player can move")
        return describe(test, f"{name} cannot move", f"{name.replace(' and ', ' or ')} can "
                        "move")
    return describe(test, f"{name} cannot move", f"{name} can move")


def who_of(env: Env, roles: Callable[[Ctx], Sequence[int]]) -> tuple[str, bool] | None:
    """How the roles an expression stands for read in a description, and whether they are
    several: a role name where it is fixed ("White", "White and Red"), "the players" for every
    role, and for roles relative to the mover "the mover", "the opponent" (the next role of
    two), "the next player" or "the previous player". None when it cannot be told (the roles
    depend on the position). Found by evaluating the expression for each mover in turn."""
    n = len(env.roles)
    seen = []
    for mover in range(n):
        probe = Ctx([EMPTY] * env.topology.size, mover, None, env, env.owner)
        try:
            got = roles(probe)
            seen.append(tuple(got) if isinstance(got, Sequence) else (int(got),))
        except Exception:  # it reads the position: it cannot be told beforehand
            return None
    if all(r == seen[0] for r in seen):
        fixed = seen[0]
        if len(fixed) == n > 1 and set(fixed) == set(range(n)):
            return "the players", True
        if not fixed or not all(isinstance(r, int) and 0 <= r < n for r in fixed):
            return None
        return _joined([env.roles[r] for r in fixed], "and"), len(fixed) > 1
    relative = {"the mover": 0, "the next player": 1, "the previous player": -1}
    if n == 2:
        relative = {"the mover": 0, "the opponent": 1}
    for name, offset in relative.items():
        if all(r == ((m + offset) % n,) for m, r in enumerate(seen)):
            return name, False
    return None


@ludeme("reached")
def reached(role: RolesExpr, region: Region) -> Cond:
    """True when a piece of the role stands on a site of the region.

    (reached Mover (sites Side Forward))"""
    def test(ctx: Ctx) -> bool:
        owner, board = ctx.owner, ctx.board
        rs = role(ctx)
        return any(owner[board[s]] in rs for s in region(ctx))
    return describe(test, "reaching the goal")


@ludeme("named")
def named(description: str, condition: Cond) -> Cond:
    """The condition, with a description for messages: a move refused by if:(named "closer to
    the centre" ...) is reported as "not closer to the centre", one refused by unless: as
    "closer to the centre"; a game it ends is "ended by closer to the centre". A description
    that starts with "not" loses it rather than gaining another: if:(named "not suicide" ...)
    refuses a move as "suicide".

    (named "closer to the centre" (< (centre-distance To) (centre-distance From)))"""
    silent = quiet(condition)  # what it says is its own

    def test(ctx: Ctx) -> bool:
        return silent(ctx)
    # (The same judgement without the call through: end conditions are judged every move.)
    test = twin(silent) or test
    told = parts_of(condition)
    if told.placed is not None:  # it still judges all placements at once (judged_at_once)
        mark(test).placed = told.placed
    if told.screen is not None:  # the same verdicts: the condition's screen holds for it
        mark(test).screen = told.screen
    return describe(like(test, condition), description)


@ludeme("count-around")
def count_around(env: Env, site: SiteExpr, kind: CellKind = "Occupied",
                 directions: Direction = "Adjacent") -> IntExpr:
    """The number of the site's neighbours (in the directions) that hold what `kind` says.

    (= (count-around Site Empty) 0)"""
    table = env.topology.neighbours(env.absolute_dirs(directions))
    # Judged for a candidate site To (or a site bound to Site), it reads that site's neighbours.
    var = parts_of(site).site_var
    neighbours = [frozenset(n) for n in table]

    def local(fn: Any) -> Any:
        if var == "to":
            mark(fn).reads = neighbours.__getitem__
        elif var == "site":
            mark(fn).reads_site = neighbours.__getitem__
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
    """True when the site holds the named piece (and nothing on it); a kind several roles own
    (each its "King") is any of them.

    (holds Site "Tile")"""
    values = frozenset(p.value for p in env.pieces if p.name == piece)  # every role's kind
    if not values:
        env.error(f'no piece named "{piece}" (pieces: {", ".join(p.name for p in env.pieces)})')
        return lambda ctx: False
    said = (f'{where(site, env)} holds a "{piece}"', f'{where(site, env)} holds no "{piece}"')
    var = parts_of(site).site_var
    if var is not None:  # a table, like (is ...): it combines with other cell tests
        return describe(cell_table(env, var, lambda v, mover: v in values), *said)
    return describe(lambda ctx: ctx.board[site(ctx)] in values, *said)


@ludeme("some")
def some(region: Region, condition: Cond) -> Cond:
    """True when the condition holds for some site of the region (Site bound to it).

    (some (sites Around To) (> (count-around Site Occupied) 3))"""
    judge = quiet(condition)  # what it says of a site is not read

    def test(ctx: Ctx) -> bool:
        saved = ctx.site
        try:
            for s in region(ctx):
                ctx.site = s
                if judge(ctx):
                    return True
            return False
        finally:
            ctx.site = saved
    return describe(_over_region(test, region, condition),
                    f"{phrase(condition)} for some site of {region_name(region)}",
                    f"{phrase(condition)} for no site of {region_name(region)}")


def _over_region(test: Any, region: Region, condition: Cond) -> Any:
    """Locality of a quantifier: over the sites around To (a table), judging a condition that
    says what it reads for Site, it reads those sites' reads."""
    table = parts_of(region).around_to
    site_reads = parts_of(condition).reads_site
    if table is not None and site_reads is not None:
        mark(test).reads = lambda s: frozenset().union(*(site_reads(t) for t in table[s]))
    return test


@ludeme("every")
def every(region: Region, condition: Cond) -> Cond:
    """True when the condition holds for every site of the region (Site bound to it).

    (every (sites Around To) (is Occupied Site))"""
    judge = quiet(condition)  # what it says of a site is not read

    def test(ctx: Ctx) -> bool:
        saved = ctx.site
        try:
            for s in region(ctx):
                ctx.site = s
                if not judge(ctx):
                    return False
            return True
        finally:
            ctx.site = saved
    return describe(_over_region(test, region, condition),
                    f"{phrase(condition)} for every site of {region_name(region)}",
                    f"{phrase(condition, held=False)} for some site of {region_name(region)}")


@ludeme("in-hand")
def in_hand(env: Env, role: RoleExpr, *, of: list[str] | None = None) -> IntExpr:
    """The number of the role's pieces in hand (0 when its pieces are not counted); in a game
    with hands by kind (captures:"hand"), of: counts only the kinds named.

    (= (in-hand Mover of:{"Rook" "Bishop"}) 0)"""
    kinds = env.hand_kinds
    if of is not None and kinds is None:
        env.error('in-hand of: needs hands by kind: (players {...} captures:"hand")')
    wanted = None if of is None or kinds is None else \
        [k for k, name in enumerate(kinds.names) if name in of]
    if of is not None and kinds is not None:
        for name in of:
            if name not in kinds.names:
                env.error(f'in-hand of: no kind "{name}" can be in hand (kinds: '
                          f'{", ".join(kinds.names)})')

    def count(ctx: Ctx) -> int:
        state = ctx.state
        if state is not None and state.held:
            held = state.held[role(ctx)]
            return sum(held) if wanted is None else sum(held[k] for k in wanted)
        hands = ctx.hands if ctx.hands is not None else state.hands
        if not hands:
            return 0
        return max(0, int(hands[role(ctx)]))
    return count


@ludeme("*")
def mul(first: IntExpr, *others: IntExpr) -> IntExpr:
    """The product of the numbers.

    (* 2 #size #size)"""
    folded = _folded((first, *others), _product)
    if folded is not None:
        return folded

    def product(ctx: Ctx) -> int:
        out = first(ctx)
        for o in others:
            out *= o(ctx)
        return out
    return product


@ludeme("turns")
def turns(env: Env) -> IntExpr:
    """The number of turns played so far in the game (passes included; read after a turn, that
    turn included).

    (if (>= (turns) 200) (draw))"""
    env.uses_turns = True
    declare(env, Turns())
    return lambda ctx: int(ctx.state.turn) if ctx.state is not None else 0


# Kernel lowerings (stdlib/lowering.py) ---------------------------------------------------------

@lowers("full")
def lower_full(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """No site where a piece may stand is empty."""
    keywords(node, set(), k)
    allowed = k.table("may hold a piece",
                      [0 if s in k.env.no_piece else 1 for s in range(k.env.topology.size)])
    return k.function("full", f"""
def {{name}}(st, T, mover, to, frm):
    for s in range(N):
        if st[s] == 0 and {allowed}[s]:
            return False
    return True
""") + "(st, T, mover, to, frm)"


_COMPARED = {"=": "==", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}


def _lower_compared(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(OP a b): the two numbers compared (both worked out, as the interpreted closure does)."""
    keywords(node, set(), k)
    op = _COMPARED[str(node.head)]
    return f"({k.lower(args[0], 'Int')} {op} {k.lower(args[1], 'Int')})"


for _op in _COMPARED:
    lowers(_op)(_lower_compared)


@lowers("+")
def lower_add(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(+ terms...): their sum."""
    keywords(node, set(), k)
    return "(" + " + ".join(k.lower(a, "Int") for a in args) + ")" if args else "0"


@lowers("-")
def lower_sub(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(- a b): a minus b."""
    keywords(node, set(), k)
    return f"({k.lower(args[0], 'Int')} - {k.lower(args[1], 'Int')})"


@lowers("count")
def lower_count(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(count region): how many sites the region lists; a number for a region the same in
    every position (the interpreter's static sites)."""
    keywords(node, set(), k)
    from stdlib.regions import occupied_count

    static = parts_of(k.compiled(args[0])).static
    if static is not None:
        return repr(len(static))
    region = k.lower(args[0], "Region")
    count = k.function("count", f"""
def {{name}}(st, T, mover, to, frm):
    buf = np.empty(N, np.int32)
    return {region}(st, T, mover, to, frm, buf)
""") + "(st, T, mover, to, frm)"
    counted = occupied_count(k, args[0])
    # (the call first: end rules that make it both compute it once, builder._shared_calls)
    return count if counted is None else f"({count} if not OCCUPANCY else {counted})"


@lowers("turns")
def lower_turns(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(turns): the turns played so far."""
    keywords(node, set(), k)
    return "st[H_TURN]"


def _lowered_conditions(k: Lower, node: Form, args: tuple[Node, ...]) -> list[str]:
    """The conditions of (and ...), (or ...), (not ...) as boolean expressions (a literal,
    such as an option, as True or False)."""
    keywords(node, set(), k)
    out = []
    for a in args:
        fixed = parts_of(k.compiled(a)).literal
        if isinstance(fixed, bool):
            out.append(repr(fixed))
        else:
            text = k.lower(a, "Boolean")
            out.append({"0": "False", "1": "True"}.get(text, f"({text})"))
    return out


@lowers("and")
def lower_and(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(and conditions...): every one holds (judged in order, the first false one last)."""
    literal_value = parts_of(k.compiled(node)).literal
    if isinstance(literal_value, bool):
        return repr(literal_value)
    return "(" + " and ".join(_lowered_conditions(k, node, args) or ["True"]) + ")"


@lowers("or")
def lower_or(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(or conditions...): some one holds (judged in order, the first true one last)."""
    literal_value = parts_of(k.compiled(node)).literal
    if isinstance(literal_value, bool):
        return repr(literal_value)
    return "(" + " or ".join(_lowered_conditions(k, node, args) or ["False"]) + ")"


@lowers("not")
def lower_not(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(not condition): the condition does not hold."""
    (condition,) = _lowered_conditions(k, node, args)
    return f"(not {condition})"


@lowers("named")
def lower_named(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(named description condition): the condition (the description only words messages)."""
    keywords(node, set(), k)
    return k.lower(args[1], "Boolean")


@lowers("reached")
def lower_reached(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(reached role region): a piece of the role stands on a site of the region (read from a
    table when the region depends only on the mover)."""
    from stdlib.regions import region_by_mover

    keywords(node, set(), k)
    role = k.lower(args[0], "Role")
    by_mover = region_by_mover(k, args[1]) if isinstance(args[1], Form) else None
    if by_mover is not None:
        width = max(1, max(len(sites) for sites in by_mover))
        table = k.table("region by mover", [list(sites) + [-1] * (width - len(sites))
                                             for sites in by_mover])
        counts = k.table("region sizes", [len(sites) for sites in by_mover])
        return k.function("reached", f"""
def {{name}}(st, T, mover, to, frm):
    r = {role}
    for i in range({counts}[mover]):
        if OWNER[st[{table}[mover, i]]] == r:
            return True
    return False
""") + "(st, T, mover, to, frm)"
    region = k.lower(args[1], "Region")
    return k.function("reached", f"""
def {{name}}(st, T, mover, to, frm):
    r = {role}
    buf = np.empty(N, np.int32)
    for i in range({region}(st, T, mover, to, frm, buf)):
        if OWNER[st[buf[i]]] == r:
            return True
    return False
""") + "(st, T, mover, to, frm)"


@lowers("stuck")
def lower_stuck(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(stuck role), (stuck All): the role (every role) has no move but pass at the start of
    its turn — the first decision of the current phase's turn, with the role as mover
    (Game._can_move, through the builder's can_move, which stops at the first such move).
    As in the interpreter, the same (stuck ...) met again while it is being judged counts as
    false: a slot of the state says it is being judged (trials copy it with the position)."""
    keywords(node, set(), k)
    every = isinstance(args[0], Const) and args[0].name == "All"
    roles = "range(R)" if every else f"({k.lower(args[0], 'Role')},)"
    asking = k.slot(f"(stuck ...) being judged {id(node)}", 1, lambda state: [0])
    return k.function("stuck", f"""
def {{name}}(st, T, mover, to, frm):
    if st[{asking}] == 1:
        return False
    st[{asking}] = 1
    stuck = True
    for role in {roles}:
        if can_move(st, T, role):
            stuck = False
            break
    st[{asking}] = 0
    return stuck
""") + "(st, T, mover, to, frm)"


@lowers("in")
def lower_in(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(in site region): the site (none: never) is one of the region's; a region that depends
    only on a role is a mask read for that role."""
    from stdlib.sowing import role_tables, sites_by_role

    keywords(node, set(), k)
    site = k.lower(args[0], "Site")
    by_role = sites_by_role(k, args[1])
    if by_role is not None:
        sites, role = by_role
        _, _, mask = role_tables(k, sites)
        return k.function("in_region", f"""
def {{name}}(st, T, mover, to, frm):
    s = {site}
    return s >= 0 and {mask}[{role}, s] == 1
""") + "(st, T, mover, to, frm)"
    region = k.lower(args[1], "Region")
    return k.function("in_region", f"""
def {{name}}(st, T, mover, to, frm):
    s = {site}
    if s < 0:
        return False
    buf = np.empty(N, np.int32)
    for i in range({region}(st, T, mover, to, frm, buf)):
        if buf[i] == s:
            return True
    return False
""") + "(st, T, mover, to, frm)"


@lowers("*")
def lower_mul(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(* numbers...): their product."""
    keywords(node, set(), k)
    return "(" + " * ".join(k.lower(a, "Int") for a in args) + ")"


@lowers("is")
def lower_is(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(is kind site): the site (none: never) holds what the kind says, for the mover (Site
    as a lowering binds it: stdlib.lowering.bound_site)."""
    from stdlib.moves import _cell

    keywords(node, set(), k)
    site = k.lower(args[1], "Site")
    test = _cell(k, node, args[0], "Any", "x")
    return k.function("is_cell", f"""
def {{name}}(st, T, mover, to, frm):
    s = {site}
    if s < 0:
        return False
    x = st[s]
    return {test}
""") + "(st, T, mover, to, frm)"


@lowers("every")
def lower_every(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(every region condition): the condition, one on what Site holds (looked up by board
    value, as site_table gives it), holds on every site of the region."""
    keywords(node, set(), k)
    verdicts = site_table(k.compiled(args[1]))
    if verdicts is None:
        k.refuse(args[1], "no kernel lowering of (every ...) with a condition that reads more "
                          "than what Site holds yet")
    holds = k.table("site verdicts", [[int(b) for b in row] for row in verdicts])
    region = k.lower(args[0], "Region")
    return k.function("every", f"""
def {{name}}(st, T, mover, to, frm):
    buf = np.empty(N, np.int32)
    for i in range({region}(st, T, mover, to, frm, buf)):
        if {holds}[mover, st[buf[i]]] == 0:
            return False
    return True
""") + "(st, T, mover, to, frm)"


@lowers("in-hand")
def lower_in_hand(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(in-hand role [of:]): the role's pieces in hand (the hands' region of the state,
    interpreter/kernel/layout.py), 0 where they are not counted; by kind, the kinds of:
    names (all without it)."""
    given = keywords(node, {"of"}, k)
    role = k.lower(args[0], "Role")
    kinds = k.env.hand_kinds
    if kinds is not None:
        of = given.get("of")
        names = _names(of) if of is not None else list(kinds.names)
        if names is None:
            k.refuse(node, "no kernel lowering of (in-hand) with a computed of:")
        wanted = [i for i, name in enumerate(kinds.names) if name in names]
        terms = [f"st[HELD + ({role}) * HELD_KINDS + {i}]" for i in wanted]
        return f"({' + '.join(terms) or '0'})"
    if "of" in given or not any(k.env.supply):
        return "0"
    return f"max(0, st[HANDS + ({role})])"


def _names(node: Node) -> list[str] | None:
    """The strings of a literal list of names ({"Rook" "Bishop"}), or None."""
    from dsl.ast import ListNode, Str

    if isinstance(node, Str):
        return [node.value]
    if isinstance(node, ListNode):
        names = [i.value for i in node.items if isinstance(i, Str)]
        return names if len(names) == len(node.items) else None
    return None


@lowers("count-around")
def lower_count_around(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(count-around site [kind] [directions]): the site's neighbours in the directions that
    hold what the kind says (Occupied without), for the mover. A site of -1 reads the last
    site's, as the interpreter's table lookup does."""
    from stdlib.lowering import padded
    from stdlib.moves import _cell

    keywords(node, set(), k)
    env = k.env
    kind = args[1] if len(args) > 1 else None
    dirs = args[2] if len(args) > 2 else None
    if dirs is not None and not isinstance(dirs, Const):
        k.refuse(node, "no kernel lowering of (count-around) with these directions")
    near = k.table("neighbours", padded(env.topology.neighbours(
        env.absolute_dirs(dirs.name if isinstance(dirs, Const) else "Adjacent"))))
    test = _cell(k, node, kind, "Occupied", "x")
    site = k.lower(args[0], "Site")
    return k.function("count_around", f"""
def {{name}}(st, T, mover, to, frm):
    s = {site}
    if s < 0:
        s += N
    c = 0
    j = 0
    while {near}[s, j] != -1:
        x = st[{near}[s, j]]
        if {test}:
            c += 1
        j += 1
    return c
""") + "(st, T, mover, to, frm)"


@lowers("holds")
def lower_holds(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(holds site piece): the site holds the named piece (any role's kind of that name). A
    site of -1 reads the last site, as the interpreter's lookup does."""
    from dsl.ast import Str

    keywords(node, set(), k)
    if not isinstance(args[1], Str):
        k.refuse(node, "no kernel lowering of (holds) with a computed piece")
    env = k.env
    values = k.table("piece named", [int(v > 0 and env.pieces[v - 1].name == args[1].value)
                                     for v in range(len(env.owner))])
    site = k.lower(args[0], "Site")
    return k.function("holds", f"""
def {{name}}(st, T, mover, to, frm):
    s = {site}
    return {values}[st[s if s >= 0 else s + N]] == 1
""") + "(st, T, mover, to, frm)"


@lowers("some")
def lower_some(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(some region condition): the condition holds with Site bound to some site of the
    region (listed before Site is bound, judged in the region's order)."""
    from stdlib.lowering import bound_site

    keywords(node, set(), k)
    bound = bound_site(k)
    region = k.lower(args[0], "Region")
    test = k.lower(args[1], "Boolean")
    return k.function("some", f"""
def {{name}}(st, T, mover, to, frm):
    buf = np.empty(N, np.int32)
    saved = {bound}
    found = False
    for i in range({region}(st, T, mover, to, frm, buf)):
        {bound} = buf[i]
        if {test}:
            found = True
            break
    {bound} = saved
    return found
""") + "(st, T, mover, to, frm)"
