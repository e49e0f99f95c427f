"""The kernel builder: a checked game's AST -> the source of its kernel module.

It walks the game form section by section, asks each ludeme's lowering (stdlib/lowering.py)
for code, and writes one module: the layout constants, the lowerings' functions, and the
fixed driver — `legal` (the moves as action numbers), `apply` (make one, end the turn, judge
the end conditions) and `playouts` (random games, start to end, in native code). A form it
cannot lower raises `Unlowerable`, naming the form.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NoReturn

from dsl.ast import Bool, Const, Form, Int, Node, Str
from dsl.check import resolve
from interpreter.kernel.layout import fixed_size, header_source
from stdlib.lowering import LOWERINGS, Alternatives, Generator, Unlowerable
from stdlib.registry import REGISTRY

if TYPE_CHECKING:
    from interpreter.game import Game

# Sections that the interpreter compiles into the environment and the start position, which
# the kernel reads from there: nothing of theirs runs during play.
STATIC_SECTIONS = frozenset({"board", "pieces", "region", "regions", "track", "circuit",
                             "special", "start"})


@dataclass
class KernelSource:
    """A kernel module's source and what it needs at run time."""

    source: str
    tables: tuple[Any, ...]  # nested lists of ints, int32 arrays in the kernel
    size: int  # of the state array
    max_moves: int  # the most moves `legal` may list
    reasons: tuple[str, ...]
    # The lowerings' slots: (offset, size, encode(state) -> their values).
    slots: list[tuple[int, int, Callable[[Any], Sequence[int]]]] = field(default_factory=list)
    digest: str = field(default="")


class Builder:
    """Collects a kernel's functions and tables while the lowerings run (stdlib.lowering.Lower)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.env = game.env
        self.functions: list[str] = []
        self._names: dict[str, str] = {}  # source -> name (the same function once)
        self.tables: list[Any] = []
        self._table_keys: dict[str, int] = {}
        self.compiled_nodes: dict[int, Any] = game.env.shared.get("compiled nodes", {})
        # The lowerings' own state: name -> (offset constant, size, encode).
        self.slots: dict[str, tuple[str, int, Callable[[Any], Sequence[int]]]] = {}

    # stdlib.lowering.Lower ----------------------------------------------------------------
    def refuse(self, node: Node, reason: str) -> NoReturn:
        raise Unlowerable(node, reason)

    def compiled(self, node: Node) -> Any:
        return self.compiled_nodes.get(id(node))

    def table(self, name: str, values: Any) -> str:
        rows = _nested_lists(values)
        key = repr(rows)
        i = self._table_keys.get(key)
        if i is None:
            i = self._table_keys[key] = len(self.tables)
            self.tables.append(rows)
        return f"T[{i}]"

    def function(self, hint: str, source: str) -> str:
        known = self._names.get(source)
        if known is not None:
            return known
        name = f"{hint}_{len(self.functions)}"
        self._names[source] = name
        self.functions.append("@njit(cache=True)\n" + source.format(name=name).strip() + "\n")
        return name

    def slot(self, name: str, size: int, encode: Callable[[Any], Sequence[int]]) -> str:
        known = self.slots.get(name)
        if known is not None:
            return known[0]
        offset = f"SLOT_{len(self.slots)}"
        self.slots[name] = (offset, size, encode)
        return offset

    def action_start(self, kind: str, node: Node) -> int:
        entry = self.game.actions.by_kind.get(kind)
        if entry is None:
            self.refuse(node, f"the action space has no {kind} moves")
        return entry[0]

    def lower(self, node: Node, what: str) -> Any:
        if isinstance(node, Form):
            spec, args = resolve(node, REGISTRY)
            if spec is None:
                self.refuse(node, f"({node.head} ...) is not a ludeme")
            lowering = LOWERINGS.get(spec.name)
            if lowering is None:
                self.refuse(node, f"({spec.name} ...) has no kernel lowering yet")
            value = lowering(self, node, args)
            if what == "Region" and spec.returns.name == "Site":
                return self._site_region(value)
            return value
        if isinstance(node, Const):
            return self._constant(node, what)
        if isinstance(node, Int | Bool):
            if what in ("Int", "int", "Boolean", "bool"):
                return repr(int(node.value) if isinstance(node, Bool) else node.value)
        if isinstance(node, Str) and what in ("Role", "Roles") \
                and node.value in self.env.roles:
            return repr(self.env.roles.index(node.value))
        if isinstance(node, Str) and what in ("Site", "Region"):
            site = self.env.topology.index.get(node.value)
            if site is not None:
                return self._site_region(repr(site)) if what == "Region" else repr(site)
        self.refuse(node, f"no kernel lowering of this {what} yet")

    # Helpers ------------------------------------------------------------------------------
    def _constant(self, node: Const, what: str) -> str:
        if what in ("Role", "Roles"):
            if node.name == "Mover":
                return "mover"
            if node.name == "Next":
                return "((mover + 1) % R)"
            if node.name == "Prev":
                return "((mover - 1) % R)"
        if what in ("Site", "Region") and node.name in ("To", "From"):
            site = "to" if node.name == "To" else "frm"
            return self._site_region(site) if what == "Region" else site
        if what in ("Site", "Region") and node.name in ("LastTo", "LastFrom"):
            slot = "H_LAST_TO" if node.name == "LastTo" else "H_LAST_FROM"
            return self._site_region(f"st[{slot}]") if what == "Region" else f"st[{slot}]"
        self.refuse(node, f"no kernel lowering of {node.name} as a {what} yet")

    def _site_region(self, site: str) -> str:
        return self.function("site_region", f"""
def {{name}}(st, T, mover, to, frm, buf):
    s = {site}
    if s < 0:
        return 0
    buf[0] = s
    return 1
""")


def build(game: Game) -> KernelSource:
    """The kernel source of `game`; Unlowerable if some form of it has no lowering."""
    b = Builder(game)
    form = game.expansion.game
    _refuse_state(b, game, form)
    moves: Generator | Alternatives = Alternatives([])
    end_rules: list[tuple[str, str]] = []
    for section in form.args[1:]:
        assert isinstance(section, Form)
        if section.head in STATIC_SECTIONS:
            continue
        if section.head == "players":
            if game.pie:
                b.refuse(section, "no kernel lowering of the pie rule yet")
            continue
        if section.head == "play":
            if len(section.args) != 1:
                b.refuse(section, "no kernel lowering of a turn of several steps yet")
            moves = b.lower(section.args[0], "Moves")
            continue
        if section.head == "end":
            for rule in section.args:
                end_rules.append(_end_rule(b, rule))
            continue
        b.refuse(section, f"no kernel lowering of ({section.head} ...) yet")
    return _module(b, game, moves, end_rules)


def _refuse_state(b: Builder, game: Game, form: Form) -> None:
    """Refuse games that keep per-position state the kernel does not lay out yet."""
    env = game.env
    start = game.initial_state()
    kept = [("hands", bool(start.hands)), ("memories", bool(env.memories)),
            ("dice", env.uses_dice), ("hands by kind", bool(game.no_held)),
            ("edges", bool(game.no_edges)), ("scores", bool(start.scores)),
            ("position history", start.history is not None), ("phases", len(game.phases) > 1),
            ("counts of captures", env.uses_taken or env.uses_quiet)]
    for what, used in kept:
        if used:
            b.refuse(form, f"no kernel layout of {what} yet")


def _listing(moves: Generator | Alternatives, generators: list[Generator],
             indent: str) -> list[str]:
    """The lines of `legal` that list `moves`, each leaf generator tagged by its index in
    `generators` (which this fills)."""
    if isinstance(moves, Generator):
        generators.append(moves)
        return [f"{indent}n = {moves.generate}(st, T, mover, acts, tags, n, "
                f"{len(generators) - 1})"]
    lines: list[str] = []
    first = f"first{len(generators)}_{len(indent)}"
    for i, part in enumerate(moves.parts):
        if moves.ordered and i > 0:  # only when the alternatives before had no move
            lines.append(f"{indent}if n == {first}:")
            indent += "    "
        elif moves.ordered:
            lines.append(f"{indent}{first} = n")
        lines += _listing(part, generators, indent)
    return lines


def _end_rule(b: Builder, rule: Node) -> tuple[str, str]:
    if not (isinstance(rule, Form) and rule.head == "if" and len(rule.args) == 2
            and not rule.kwargs):
        b.refuse(rule, "no kernel lowering of this end rule yet")
    condition, result = rule.args
    return b.lower(condition, "Boolean"), b.lower(result, "Result")


def _module(b: Builder, game: Game, moves: Generator | Alternatives,
            end_rules: list[tuple[str, str]]) -> KernelSource:
    n = len(game.sites)
    lines = [DRIVER_HEAD, header_source(n), f"R = {game.roles}"]
    owner = b.table("owner", list(game.owner))
    size = fixed_size(n)
    slots: list[tuple[int, int, Callable[[Any], Sequence[int]]]] = []
    for offset, width, encode in b.slots.values():
        lines.append(f"{offset} = {size}")
        slots.append((size, width, encode))
        size += width
    generators: list[Generator] = []
    listing = _listing(moves, generators, "    ")
    max_moves = max(1, game.actions.size) * max(1, len(generators)) + 1
    lines.append(f"STATE_SIZE = {size}")
    lines.append(f"MAX_MOVES = {max_moves}")
    lines.append(DRIVER_CHANGE)
    lines += b.functions
    legal = ["@njit(cache=True)", "def legal(st, T, acts, tags):",
             "    mover = st[H_TO_MOVE]", "    n = 0", *listing, "    return n"]
    apply = ["@njit(cache=True)", "def apply(st, T, act, tag):",
             "    mover = st[H_TO_MOVE]", "    st[H_NCHANGED] = 0", "    passed = False"]
    for tag, g in enumerate(generators):
        apply.append(f"    {'if' if tag == 0 else 'elif'} tag == {tag}:")
        apply.append(f"        {g.make}(st, T, mover, act)")
        if g.passes:
            apply.append("        passed = True")
    apply += ["    end_turn(st, T, mover, passed)"]
    judge = ["@njit(cache=True)", "def judge(st, T):",
             "    mover = (st[H_TO_MOVE] - 1) % R", "    to = -1", "    frm = -1"]
    for i, (condition, result) in enumerate(end_rules):
        judge += [f"    if {condition}:", f"        st[H_RESULT] = {result}",
                  f"        st[H_REASON] = {i}", "        return"]
    judge.append("    return")
    lines += ["\n".join(legal), "\n".join(apply), "\n".join(judge), DRIVER_TAIL]
    source = "\n\n\n".join(lines).replace("OWNER", owner) + "\n"
    digest = hashlib.sha256((source + repr(b.tables)).encode()).hexdigest()
    return KernelSource(source, tuple(b.tables), size, max_moves, game._reasons, slots,
                        digest[:24])


def _nested_lists(values: Any) -> Any:
    """A table as nested lists of ints (rows of a 2-d table must have one length)."""
    if isinstance(values, int):
        return int(values)
    rows = [_nested_lists(v) for v in values]
    if rows and isinstance(rows[0], list) and len({len(r) for r in rows}) > 1:
        raise ValueError("a kernel table's rows must have one length")
    return rows


DRIVER_HEAD = '''"""A game kernel, generated by interpreter/kernel/builder.py: do not edit."""

import numpy as np
from numba import njit'''

DRIVER_CHANGE = '''@njit(cache=True)
def change(st, s, v):
    """Set site s to v, recording it among the sites the turn changed."""
    st[s] = v
    k = st[H_NCHANGED]
    if k >= 0:
        if k < CHANGED_CAP:
            st[CHANGED + k] = s
            st[H_NCHANGED] = k + 1
        else:
            st[H_NCHANGED] = -1'''

DRIVER_TAIL = '''@njit(cache=True)
def end_turn(st, T, mover, passed):
    st[H_TO_MOVE] = (mover + 1) % R
    if passed:
        st[H_PASSES] += 1
    else:
        st[H_PASSES] = 0
    st[H_TURN] += 1
    judge(st, T)


@njit(cache=True)
def find(st, T, action, acts, tags):
    """The tag of the legal move numbered action, or -1 if it is not legal."""
    n = legal(st, T, acts, tags)
    for i in range(n):
        if acts[i] == action:
            return tags[i]
    return -1


@njit(cache=True)
def playouts(T, start, seeds, bound, winners, lengths, reasons):
    st = start.copy()
    acts = np.empty(MAX_MOVES, np.int32)
    tags = np.empty(MAX_MOVES, np.int32)
    for g in range(seeds.shape[0]):
        np.random.seed(seeds[g])
        st[:] = start
        plies = 0
        while st[H_RESULT] == PLAYING and plies < bound:
            n = legal(st, T, acts, tags)
            if n == 0:
                break
            i = np.random.randint(0, n)
            apply(st, T, acts[i], tags[i])
            plies += 1
        winners[g] = st[H_RESULT]
        reasons[g] = st[H_REASON]
        lengths[g] = plies


@njit(cache=True)
def playout_actions(T, start, seed, bound, record):
    """One random game; its actions in record; returns how many."""
    st = start.copy()
    acts = np.empty(MAX_MOVES, np.int32)
    tags = np.empty(MAX_MOVES, np.int32)
    np.random.seed(seed)
    plies = 0
    while st[H_RESULT] == PLAYING and plies < bound:
        n = legal(st, T, acts, tags)
        if n == 0:
            break
        i = np.random.randint(0, n)
        record[plies] = acts[i]
        apply(st, T, acts[i], tags[i])
        plies += 1
    return plies'''
