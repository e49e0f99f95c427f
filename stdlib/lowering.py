"""Lowerings: how a ludeme runs in a game kernel (interpreter/kernel), beside how it runs
interpreted.

A game kernel is the game's rules as Python source over a fixed-shape state, compiled to
machine code by numba. The kernel builder walks the game's checked AST; for each form it calls
the lowering registered under the form's ludeme name (`@lowers("line")`, written next to the
`@ludeme("line")` it lowers), which returns source code. A form whose ludeme has no lowering,
or whose arguments its lowering does not handle, raises `Unlowerable` naming the form: the
game then runs interpreted, and `ludeme validate` says which ludeme kept it there.

What a lowering returns depends on the ludeme's language type:

| type | a lowering returns |
|---|---|
| Cond, Int, Role, Site, Result | an expression (source text) over `st T mover to frm` |
| Region | the name of a function `(st, T, mover, to, frm, buf) -> count` filling `buf` |
| Moves | a `Generator` (see below), `Alternatives` of them, or `Continued` |
| Effect (a step of a turn) | an `Effect` |

`st` is the state (an int64 array: the board, one value per site, then the header and the
slots lowerings declare), `T` an argument kept in the signatures (the tables are module
constants, named as `table` says),
`mover` the role whose view the rule takes (the player to move while moves are listed; the
player who just moved while end conditions are judged), `to` and `frm` the sites `To` and
`From` stand for (the move being judged; -1 where there is none, as in end conditions).
A lowering that needs state of its own beyond the board asks for slots (`Lower.slot`).
The generated module defines `N` (the
number of sites), `R` (roles), `OWNER` (a table: board value -> owner role, -1 empty, -2
neutral) and the header offsets of `interpreter.kernel.layout`.

Hands (layout.hands_width) follow every `change(st, site, value)`: in games with a supply,
`st[HANDS + role]` counts the role's pieces in hand (-1: not counted; `COUNTS_HANDS` says
whether any are), and a generator that puts a piece down from the hand lists nothing when
`short_of(st, value)`; a role with reuse:false gets back no more than a batch of changes puts
down, the builder clamping after a decision's make and after each automatic step (a step
whose interpreter counterpart makes several `Turn.change` batches calls
`hands_close(st)` and `hands_open(st)` between them). With hands by kind, a piece of
another role taken off goes to the mover's hand by itself; a drop takes one out with
`hold(st, role, kind, -1)` (counts at `HELD + role * HELD_KINDS + kind`, hashed).

The interpreter stays the reference semantics: a lowering must do exactly what the ludeme's
closure does, and tests/test_kernels.py plays thousands of games both ways to check it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NoReturn, Protocol

from dsl.ast import Form, Node

if TYPE_CHECKING:
    from stdlib.runtime import Env


class Unlowerable(Exception):
    """A form the kernel cannot run: the ludeme has no lowering, or not for these arguments."""

    def __init__(self, node: Node, reason: str) -> None:
        super().__init__(reason)
        self.node = node
        self.reason = reason


@dataclass
class Generator:
    """A lowered move generator.

    `generate` names a function `(st, T, mover, acts, tags, n, tag) -> n` that appends each
    legal move's public action number (interpreter/actions.py) to `acts` and `tag` to `tags`
    from index `n` on, and returns the new count. `make` names a function
    `(st, T, mover, act)` that makes the move numbered `act` (one this generator listed) on
    `st`, writing every site it changes through `change(st, site, value)` and the move's
    sites as To and From see them at `st[H_TO]` and `st[H_FROM]`. `kinds` are the
    kinds of move it makes (stdlib/movekinds.py); `passes` says its moves are passes (a turn of
    nothing but passes counts towards (all-passed)). A chance decision's generator (a roll)
    lists the outcomes, with their probabilities in `weights` in the order it lists them
    (`opening`: those of the game's first turn, if its outcomes differ then), and is
    not `sited`: its outcomes put nothing on a site (To and From stay -1, LastTo unchanged).
    A move uses a die through `use_die(st, value)`; the dice not used are `st[DICE + i]` for
    i below `st[H_NDICE]`."""

    generate: str
    make: str
    kinds: frozenset[str] = field(default_factory=frozenset)
    passes: bool = False
    sited: bool = True
    weights: list[float] | None = None
    opening: list[float] | None = None


@dataclass
class Effect:
    """A lowered automatic step of a turn: `run` names a function `(st, T, mover, to, frm)`
    that acts on `st` — sites through `change(st, site, value)`, another turn for the mover
    by `st[H_AGAIN] = 1`, scores at `st[H_SCORES + role]` — and, if `may_refuse`, refuses the
    decision before it by `st[H_REFUSED] = 1` (the kernel then tries each move of that
    decision on a copy of the state, as the interpreter's (forbid ...) does)."""

    run: str
    may_refuse: bool = False


@dataclass
class Continued:
    """A (continue ...) decision: its moves, and the condition (an expression; None for none)
    under which the turn goes on with it."""

    moves: Generator | Alternatives
    condition: str | None


@dataclass
class Alternatives:
    """Lowered move generators listed together: all of them (any-of), or only the first that
    has a move (first-of, `ordered`)."""

    parts: list[Generator | Alternatives]
    ordered: bool = False


class Lower(Protocol):
    """What a lowering may ask of the kernel builder."""

    env: Env

    def lower(self, node: Node, what: str) -> Any:
        """The lowering of a child node; `what` is the language type expected ("Cond",
        "Region", "Moves", "RoleExpr", "Int", "SiteExpr", "ResultExpr")."""

    def table(self, name: str, values: Any, wide: bool = False) -> str:
        """Source text reading the table `values` (an int32 NumPy array, any shape; int64
        if `wide`, as masks of sites are) in generated code (`TABLE_3`, a module constant:
        read only — working space goes in slots); equal tables are stored once."""

    def function(self, hint: str, source: str) -> str:
        """Add a function to the generated module; `source` defines it under the name `{name}`
        (formatted in); returns the name given. Functions are compiled with numba.njit."""

    def slot(self, name: str, size: int, encode: Callable[[Any], Sequence[int]]) -> str:
        """Source text of the offset, in the state, of `size` ints of the lowering's own
        (declared once per name: asking again gives the same); `encode(state)` gives their
        values in an interpreter position (stdlib State)."""

    def occupancy(self) -> str:
        """Source text of the offset (`OCC`) of the board's occupancy, kept in the state
        from then on: per role, a mask of the sites its pieces stand on, bit s % 64 of
        `st[OCC + role * OCC_WORDS + s // 64]` (`trailing_zeros(m)` and `m &= m - 1` walk
        one in site order), and at `st[PIECES + role]` how many there are. `change` and
        `put` keep them; a lowering that writes a site for a while (a move tried on the
        board) writes it with `put(st, s, v)`, never directly. A kernel whose lowerings
        never ask keeps none (OCCUPANCY is False) and pays nothing."""

    def remember(self, key: str, update: str, slot: str = "") -> None:
        """Keep the interpreter's memory `key` (stdlib.runtime.Memory, e.g. castling rights):
        `update` names a function `(st, T, mover, before)` called after each decision and its
        automatic steps (as the interpreter updates memories), `before` being the board
        before the decision; the memory's value lives in the lowering's slots, those
        declared under the name `slot` (a situation hashes them: keep_situations)."""

    def keep_situations(self) -> None:
        """Keep the history of situations beside the positions': after each turn, at
        SITUATIONS + i for the i-th position of the history, `situation_hash(st, h,
        to_move)` of the board's hash h, the player to move and the memories' values (the
        slots `remember` was given), as (repeated situational:true) compares them."""

    def action_start(self, kind: str, node: Node) -> int:
        """The first action number of the move kind's block in the game's action space."""

    def action_of(self, kind: str, sites: tuple[int, ...], node: Node) -> int:
        """The action number of the move of that kind on those sites (a group placed, two
        sites exchanged: numbered by the set of sites, interpreter/actions.py)."""

    def compiled(self, node: Node) -> Any:
        """What the interpreter compiled `node` to (its closure, or a constant)."""

    def refuse(self, node: Node, reason: str) -> NoReturn:
        """Give up on the form: the game runs interpreted (raises Unlowerable)."""


Lowering = Callable[[Lower, Form, tuple[Node, ...]], Any]

# The lowerings, by ludeme name ("sites Empty" for a family member); filled by `lowers`.
LOWERINGS: dict[str, Lowering] = {}


def lowers(name: str) -> Callable[[Lowering], Lowering]:
    """Register the decorated function as the lowering of the ludeme `name`."""

    def register(fn: Lowering) -> Lowering:
        LOWERINGS[name] = fn
        return fn
    return register


def keywords(node: Form, allowed: set[str], k: Lower) -> dict[str, Node]:
    """The form's keyword arguments, refusing any a lowering does not handle."""
    out = {}
    for kw in node.kwargs:
        if kw.name not in allowed:
            k.refuse(node, f"no kernel lowering of ({node.head} ...) with {kw.name}: yet")
        out[kw.name] = kw.value
    return out


def left_behind_table(k: Lower) -> str:
    """The table of what each board value leaves on its site when its piece goes (a piece
    standing on a terrain leaves the terrain; Env.left_behind), for lowerings that move or
    take pieces."""
    env = k.env
    return k.table("left behind", [env.left_behind(v) for v in range(len(env.owner))])


def padded(rows: Sequence[Sequence[int]]) -> list[list[int]]:
    """Rows of sites (neighbours, windows...) as a table of one width for `Lower.table`, each
    row ended, and filled out, by -1."""
    width = max((len(r) for r in rows), default=0) + 1
    return [list(r) + [-1] * (width - len(r)) for r in rows]


def bound_site(k: Lower) -> str:
    """Source text of the site the constant Site stands for (the state slot that holds it, -1
    where nothing binds it, as the interpreter's Ctx.site). A lowering that judges a condition
    with Site bound to a site writes the slot, lowers the condition, and puts the slot back
    as it found it (bindings nest)."""
    return f"st[{k.slot('Site', 1, lambda state: (-1,))}]"
