"""The optional parts of a compiled ludeme: the typed side of the contract between ludemes
(and the engine) beyond calling them.

A ludeme compiles to a function of a `Ctx` — a condition, a number, a site, a region, a move
generator. Besides its value, such a function may carry *parts* that other ludemes and the
engine read: what a condition says when it holds, which sites it reads, which kinds of move a
generator makes. They are one typed record, `Parts`, that `mark(fn)` gives (to write) and
`parts_of(fn)` reads (an empty record when the function has none), so that mypy checks every
name and type on both sides:

    >>> from stdlib.parts import mark, parts_of
    >>> def full(ctx): return False
    >>> mark(full).why = "the board is full"
    >>> parts_of(full).why, parts_of(full).kinds
    ('the board is full', None)

Parts come in two sorts:

- **wording** (`why`, `why_not`, `live`, `source`, `description`): what refusals and end
  reasons say. Without it a message is plainer, never wrong.
- **facts** (`static`, `static_site`, `by_mover`): that a region or a site is the same in
  every position (or depends on the mover alone), and which. Where the rules need a fixed
  region (the start position, the regions a connection joins, where a piece is confined) a
  ludeme without the fact is refused with a located error.
- **hints** (every other part): what lets a reader take a shortcut — what a condition reads
  for a candidate site, that a number is a literal, the kinds of move a generator makes, the
  sites its moves can join, how to tell an attack from the attacked site, a screen that
  judges moves without trying them. A function without a hint is judged the general way:
  **slower, never wrong**. `tests/test_parts.py` holds the library to that: it replays every
  golden transcript with all hints withheld (`withheld()`).

A ludeme writer gives a part where the ludeme is made (`mark(test).reads = ...`) and reads
others' with `parts(other)`; `like(fn, *others)` (in `stdlib.runtime`) passes on the locality
that a combination shares with its parts.
"""

from __future__ import annotations

import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from stdlib.moves import Reach
    from stdlib.runtime import Ctx, Move, Reads

ATTRIBUTE = "_ludeme_parts"  # where a function keeps its parts

# A condition on what a site holds, as a table: its verdict for (board value, mover).
CellTest = Callable[[int, int], bool]
# What such a condition says: for (board value, mover, whether it held).
CellSays = Callable[[int, int, bool], str]


@dataclass(slots=True, eq=False)
class Parts:
    """The optional parts of one compiled ludeme (see the module's documentation); every part
    is absent (None, False or empty) unless the ludeme gives it."""

    # Wording -------------------------------------------------------------------------------
    why: str | None = None  # what a condition says when it holds ("5 in a row")
    why_not: str | None = None  # ... and when it does not
    # Which of why / why_not the condition sets each time it is judged (what it found
    # there), so that they must be read right after judging it.
    live: frozenset[str] = frozenset()
    source: str | None = None  # the game file's text of the form it was compiled from
    description: str | None = None  # a name for it in messages (a define's name)

    # Hints: locality ---------------------------------------------------------------------
    reads: Reads | None = None  # the sites it reads when judged for a candidate To
    reads_site: Reads | None = None  # ... with Site bound to a site
    ends_only: bool = False  # reads nothing of the board but the sites bound to To and From
    literal: Any = None  # the value of a literal of the game file (None: not a literal)
    quiet: Callable[[Ctx], Any] | None = None  # the condition judged saying nothing
    static: frozenset[int] | None = None  # a region's sites, the same in every position
    static_site: int | None = None  # a site expression's site, the same in every position
    # A region that depends on nothing but the mover (a region each role owns): its sites
    # for each mover, by role index.
    by_mover: tuple[frozenset[int], ...] | None = None
    single_site: Any = None  # a region of one site: the site expression it is made of
    site_var: str | None = None  # a bound site variable ("to", "frm", "site")
    is_mover: bool = False  # a role expression that is the mover
    placeable: bool = False  # a region of empty sites where a piece may be put
    around_to: Any = None  # a region of the sites around To: its table by site
    # A condition on what the site bound to a variable holds: (variable, verdict by board
    # value and mover), what it says there, and the verdicts as a table by mover and value.
    cell: tuple[str, CellTest] | None = None
    cell_says: CellSays | None = None
    table: list[list[bool]] | None = None
    site_in: tuple[str, frozenset[int]] | None = None  # "the variable's site is in these"
    conjuncts: tuple[Any, ...] | None = None  # an (and ...): its parts, flattened
    placed: Any = None  # a condition on a piece just put: its test by (site, board value)
    # A condition that only edges becoming held can turn false, by cutting the board's sites
    # apart (a path that must stay open): judged on a position, the edges it relies on there
    # as a bitset (bit e: edge e), so that a move holding none of them, or holding edges that
    # split no sites from the others, leaves it true; None when it does not hold there.
    relies: Callable[[Ctx], int | None] | None = None
    occupied: Any = None  # a relation of sites: the part of it that holds pieces

    # Hints: moves ---------------------------------------------------------------------------
    kinds: frozenset[str] | None = None  # the kinds of move a generator makes
    reach: Reach | None = None  # the sites its moves can join (see moves.Reach)
    # Whether its moves, made by a role, attack a site: (ctx, site, role) -> bool (an
    # AttackTest says more: see moves.AttackTest).
    attacks: Callable[[Ctx, int, int], bool] | None = None
    # A test of each move certainly passed (see steps.Step.screen), made per position.
    screen: Callable[[Ctx], Callable[[Move], bool] | None] | None = None


WORDING = frozenset({"why", "why_not", "live", "source", "description"})
FACTS = frozenset({"static", "static_site", "by_mover"})
HINTS = frozenset(f.name for f in fields(Parts)) - WORDING - FACTS

class _Withheld(Parts):
    """Parts that keep no hint: one written to them is dropped (see withheld)."""

    __slots__ = ()

    def __setattr__(self, name: str, value: Any) -> None:
        if name not in HINTS:
            object.__setattr__(self, name, value)


class _Empty(Parts):
    """The parts of a function that has none: read-only."""

    __slots__ = ()

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"parts_of(fn).{name} is read-only: write it with mark(fn)")


def _blank(cls: type[Parts]) -> Parts:
    """An empty record of `cls`, made without its __setattr__."""
    made = cls.__new__(cls)
    for f in fields(Parts):
        object.__setattr__(made, f.name, f.default)
    return made


_NONE = _blank(_Empty)  # what parts_of() gives for a function without any
_withholding = False


def parts_of(fn: object) -> Parts:
    """The parts `fn` carries (to read; a shared empty record when it carries none)."""
    return getattr(fn, ATTRIBUTE, _NONE)  # type: ignore[no-any-return]


def twin(fn: Callable[..., Any]) -> Callable[..., Any] | None:
    """A new function object running `fn`'s own code (its globals, defaults and closure), with
    no parts yet; None when `fn` is not a plain function. A ludeme that only gives a part of
    its own to what it wraps (a description, say) marks the twin instead of calling through a
    wrapper: the same work, one call fewer each time it is judged."""
    if type(fn) is not types.FunctionType:
        return None
    made = types.FunctionType(fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__,
                              fn.__closure__)
    made.__kwdefaults__ = fn.__kwdefaults__
    made.__qualname__ = fn.__qualname__
    return made


def mark(fn: object) -> Parts:
    """The parts of `fn`, to write: made (empty) and attached the first time."""
    found = getattr(fn, ATTRIBUTE, None)
    if found is None:
        found = _blank(_Withheld) if _withholding else Parts()
        setattr(fn, ATTRIBUTE, found)
    return found  # type: ignore[no-any-return]


@contextmanager
def withheld() -> Iterator[None]:
    """Within this block, ludemes compiled keep their wording and facts but no hint: a game
    loaded here is played the general way (for tests that hints change no result). Parts
    given when a module is imported (the compiler's To, From, Site and Mover) are kept."""
    global _withholding
    saved, _withholding = _withholding, True
    try:
        yield
    finally:
        _withholding = saved
