"""The kernel builder: a checked game's AST -> the source of its kernel module.

It walks the game form section by section, asks each ludeme's lowering (stdlib/lowering.py)
for code, and writes one module: the layout constants, the lowerings' functions, and the
fixed driver — `legal` (the moves as action numbers), `apply` (make one, end the turn, judge
the end conditions) and `playouts` (random games, start to end, in native code). A form it
cannot lower raises `Unlowerable`, naming the form.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NoReturn

import networkx as nx

from dsl.ast import Bool, Const, Form, Int, Node, Str
from dsl.check import resolve
from interpreter.kernel.layout import fixed_size, header_source
from interpreter.kernel.memo import ARMED, KEPT, MEMO_FUNCTIONS, keeps_listing, memo_width
from interpreter.kernel.refcounts import without_refcounts
from interpreter.kernel.search import SEARCH_DRIVER
from interpreter.kernel.stack import on_stack
from stdlib.lowering import (
    LOWERINGS,
    Alternatives,
    Continued,
    Effect,
    Generator,
    Unlowerable,
    bound_site,
)
from stdlib.registry import REGISTRY
from stdlib.runtime import moves_a_piece

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
    history: int = 0  # how many positions' hashes the state keeps (0: no history)
    situations: bool = False  # ... and as many situations' hashes after them (see situations)
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
        self._wide: list[bool] = []  # per table: int64 (Lower.table's wide), not int32
        self.compiled_nodes: dict[int, Any] = game.env.shared.get("compiled nodes", {})
        # The lowerings' own state: name -> (offset constant, size, encode).
        self.slots: dict[str, tuple[str, int, Callable[[Any], Sequence[int]]]] = {}
        self.memories: dict[str, str] = {}  # memory key -> its update function
        self.memory_slots: list[str] = []  # the names of the slots that hold memories' values
        self.situational = False  # keep the situations' history (keep_situations)
        self._firsts: dict[str, str | None] = {}  # generator -> first_move's variant

    # stdlib.lowering.Lower ----------------------------------------------------------------
    def refuse(self, node: Node, reason: str) -> NoReturn:
        raise Unlowerable(node, reason)

    def compiled(self, node: Node) -> Any:
        return self.compiled_nodes.get(id(node))

    def table(self, name: str, values: Any, wide: bool = False) -> str:
        rows = _nested_lists(values)
        key = repr(rows) + (" wide" if wide else "")
        i = self._table_keys.get(key)
        if i is None:
            i = self._table_keys[key] = len(self.tables)
            self.tables.append(rows)
            self._wide.append(wide)
        return f"TABLE_{i}"

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

    def first_move(self, name: str) -> str | None:
        """The name of a variant of the generator function `name` that returns as soon as it
        has listed one move (the moves it lists are a prefix of the full listing's, at least
        one when that lists any): what `can_move` needs to answer "has the mover a move?".
        None where the function's text does not show that stopping early is sound: each
        move it lists must be final when it counts it (`n += 1`, no other change of n, no
        call that lists moves for it but one whose own variant it returns), and it must
        leave the state as it found it at every point (it writes nothing of st, itself or
        through change, put and the like: what it calls returns with st as it was)."""
        known = self._firsts.get(name, False)
        if known is not False:
            return known  # type: ignore[return-value]
        self._firsts[name] = None  # (a generator that reaches itself has no variant)
        head = f"@njit(cache=True)\ndef {name}(st, T, mover, acts, tags, n, tag):\n"
        source = next((f for f in self.functions if f.startswith(head)), None)
        if source is None:
            return None
        lines = source[len(head):].splitlines()
        out = []
        for line in lines:
            code = line.strip()
            call = _RETURN_CALL.fullmatch(code)
            if code == "n += 1":
                line = line.replace("n += 1", "return n + 1")
            elif call is not None:
                callee = self.first_move(call.group(1))
                if callee is None:
                    return None
                line = line.replace(call.group(1) + "(", callee + "(", 1)
            elif _WRITES_N.match(code) or _WRITES_ST.match(code) or _CHANGES.search(code) \
                    or (code.startswith("return ") and code not in ("return n",
                                                                   "return n + 1")):
                return None
            out.append(line)
        found = self.function(f"{name}_first", "def {name}(st, T, mover, acts, tags, n, tag):\n"
                              + "\n".join(out).replace("{", "{{").replace("}", "}}"))
        self._firsts[name] = found
        return found

    def occupancy(self) -> str:
        """Lower.occupancy: the masks and counts are a slot of the lowerings' (declared
        once), which _occupancy names for change and put."""
        n = len(self.game.sites)
        words = (n + 63) // 64
        roles = self.game.roles
        owner = self.game.owner

        def encode(state: Any) -> list[int]:
            masks = [0] * (roles * words)
            counts = [0] * roles
            for site, v in enumerate(state.board):
                if owner[v] >= 0:
                    masks[owner[v] * words + site // 64] |= 1 << (site % 64)
                    counts[owner[v]] += 1
            return [m - (1 << 64) if m >= 1 << 63 else m for m in masks] + counts
        return self.slot(OCCUPANCY_SLOT, roles * words + roles, encode)

    def remember(self, key: str, update: str, slot: str = "") -> None:
        self.memories[key] = update
        if slot and slot not in self.memory_slots:
            self.memory_slots.append(slot)

    def keep_situations(self) -> None:
        self.situational = True

    def action_start(self, kind: str, node: Node) -> int:
        entry = self.game.actions.by_kind.get(kind)
        if entry is None:
            self.refuse(node, f"the action space has no {kind} moves")
        return entry[0]

    def action_of(self, kind: str, sites: tuple[int, ...], node: Node) -> int:
        entry = self.game.actions.by_kind.get(kind)
        if entry is None:
            self.refuse(node, f"the action space has no {kind} moves")
        return entry[0] + entry[1].index(sites)

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
        if what in ("Site", "Region") and node.name == "Site":  # as a lowering binds it
            site = bound_site(self)
            return self._site_region(site) if what == "Region" else site
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


OCCUPANCY_SLOT = "occupancy"  # the slots' name of Lower.occupancy's masks and counts


def _occupancy(b: Builder, game: Game) -> list[str]:
    """The constants of the occupancy (Lower.occupancy): OCCUPANCY, whether the kernel keeps
    it; OCC_WORDS, the 64-site words of a role's mask; OCC and PIECES, where the masks and
    the counts begin (0 where it keeps none)."""
    kept = b.slots.get(OCCUPANCY_SLOT)
    words = (len(game.sites) + 63) // 64
    return [f"OCCUPANCY = {kept is not None}", f"OCC_WORDS = {words}",
            f"OCC = {kept[0] if kept is not None else 0}",
            f"PIECES = {f'OCC + {game.roles * words}' if kept is not None else 0}"]


# Lines of a generator's body that first_move reads: a tail call to another generator, an
# assignment to the count other than `n += 1`, a write to the state, a call that changes it.
_RETURN_CALL = re.compile(r"return (\w+)\(st, T, mover, acts, tags, n, tag\)")
_WRITES_N = re.compile(r"(for n in |n\s*([-+*/%|&^]|//)?=(?!=))")
_WRITES_ST = re.compile(r"st\[.*\]\s*([-+*/%|&^]|//|<<|>>)?=(?!=)")
_CHANGES = re.compile(r"\b(change|put|hold|set_edge|use_die|set_dice|swap|copy_into)\(st\b")


@dataclass
class Decision:
    """One decision of a phase's turn, lowered: its moves, the automatic steps after it, and
    what the builder knows of how the turn goes on after it."""

    phase: int
    index: int  # in the phase's steps
    moves: Generator | Alternatives
    condition: str | None = None  # of a (continue ...) decision ("" when it has none)
    continued: bool = False
    refusing: bool = False  # do steps after it refuse some of its moves (forbid)?
    # The most moves some_P_I lists (each generator stopping at its first: Builder.first_move);
    # 0 where it lists them all.
    some_cap: int = 0
    leaves: list[tuple[int, Generator]] = field(default_factory=list)  # (tag, generator)


def build(game: Game) -> KernelSource:
    """The kernel source of `game`; Unlowerable if some form of it has no lowering."""
    b = Builder(game)
    form = game.expansion.game
    _refuse_state(b, game, form)
    end_rules: list[tuple[str, str]] = []
    turns: list[tuple[Form | None, tuple[Node, ...]]] = []
    for section in form.args[1:]:
        assert isinstance(section, Form)
        if section.head in STATIC_SECTIONS or section.head == "players":
            continue
        if section.head == "play":
            turns = [(None, section.args)]
        elif section.head == "phases":
            turns = [(p, p.args[1:]) for p in section.args if isinstance(p, Form)]
        elif section.head == "end":
            end_rules = [_end_rule(b, rule) for rule in section.args]
        else:
            b.refuse(section, f"no kernel lowering of ({section.head} ...) yet")
    phases = [_phase(b, game, p, phase_form, steps) for p, (phase_form, steps)
              in enumerate(turns)]
    for memory in game.env.memories:
        if memory.key not in b.memories:
            b.refuse(form, f"no kernel lowering keeps the memory {memory.key!r} yet")
    return _module(b, game, phases, end_rules)


@dataclass
class Phase:
    steps: list[Decision | Effect]
    until: str | None
    next: str | None


def _phase(b: Builder, game: Game, p: int, form: Form | None,
           steps: tuple[Node, ...]) -> Phase:
    kinds = [is_decision for is_decision, _ in game.turns[p]]
    if len(kinds) != len(steps):
        b.refuse(form or steps[0], "no kernel lowering of this turn's steps yet")
    lowered: list[Decision | Effect] = []
    for i, (node, is_decision) in enumerate(zip(steps, kinds, strict=True)):
        if not is_decision:
            effect = b.lower(node, "Effect")
            if not isinstance(effect, Effect):
                b.refuse(node, "no kernel lowering of this step yet")
            lowered.append(effect)
            continue
        moves = b.lower(node, "Moves")
        if isinstance(moves, Continued):
            lowered.append(Decision(p, i, moves.moves, moves.condition or "", True))
        else:
            lowered.append(Decision(p, i, moves))
    for i, step in enumerate(lowered):
        if isinstance(step, Decision):
            after = []
            for later in lowered[i + 1:]:
                if isinstance(later, Decision):
                    break
                after.append(later)
            step.refusing = any(e.may_refuse for e in after)
    until = nxt = None
    if form is not None:
        for kw in form.kwargs:
            if kw.name == "until":
                until = b.lower(kw.value, "Boolean")
            elif kw.name == "next":
                nxt = b.lower(kw.value, "Role")
            else:
                b.refuse(form, f"no kernel lowering of (phase ...) with {kw.name}: yet")
    return Phase(lowered, until, nxt)


def _refuse_state(b: Builder, game: Game, form: Form) -> None:
    """Refuse games that keep per-position state the kernel does not lay out yet."""
    kept: list[tuple[str, bool]] = []  # (none left: edges are laid out since issue 26)
    for what, used in kept:
        if used:
            b.refuse(form, f"no kernel layout of {what} yet")


def _listing(moves: Generator | Alternatives, leaves: list[tuple[int, Generator]],
             tags: list[Generator], indent: str) -> list[str]:
    """The lines that list `moves` (into acts, tags from n), each leaf generator tagged by
    its index in `tags` (which this fills, as it does the decision's `leaves`)."""
    if isinstance(moves, Generator):
        tags.append(moves)
        leaves.append((len(tags) - 1, moves))
        return [f"{indent}n = {moves.generate}(st, T, mover, acts, tags, n, {len(tags) - 1})"]
    lines: list[str] = []
    first = f"first{len(tags)}_{len(indent)}"
    for i, part in enumerate(moves.parts):
        if moves.ordered and i > 0:  # only when the alternatives before had no move
            lines.append(f"{indent}if n == {first}:")
            indent += "    "
        elif moves.ordered:
            lines.append(f"{indent}{first} = n")
        lines += _listing(part, leaves, tags, indent)
    return lines


def _end_rule(b: Builder, rule: Node) -> tuple[str, str]:
    if not (isinstance(rule, Form) and rule.head == "if" and len(rule.args) == 2
            and not rule.kwargs):
        b.refuse(rule, "no kernel lowering of this end rule yet")
    condition, result = rule.args
    return b.lower(condition, "Boolean"), b.lower(result, "Result")


def _module(b: Builder, game: Game, phases: list[Phase],
            end_rules: list[tuple[str, str]]) -> KernelSource:
    n = len(game.sites)
    counted = any(game.env.supply)
    kinds = len(game.env.hand_kinds.names) if game.env.hand_kinds is not None else 0
    edges = len(game.no_edges)
    lines = [DRIVER_HEAD, header_source(n, game.roles, counted, kinds, edges),
             f"R = {game.roles}", f"OWNER = np.array({list(game.owner)!r}, dtype=np.int32)",
             *_hands(game), *_edges(game)]
    size = fixed_size(n, game.roles, counted, kinds, edges)
    slots: list[tuple[int, int, Callable[[Any], Sequence[int]]]] = []
    tags: list[Generator] = []
    code: list[str] = []
    for phase in phases:
        for step in phase.steps:
            if isinstance(step, Decision):
                code.append(_decision_listing(b, step, phase, tags))
    max_moves = max(1, game.actions.size) * max(1, len(tags)) + 1
    kept = _kept_steps(phases) if memo_width(max_moves) else {}
    if not keeps_listing("\n".join([*b.functions, *code]), end_rules,
                         [f"list_{p}_{i}" for p, i in kept.items()]):
        kept = {}
    memo = b.slot("kept listing", memo_width(max_moves),
                  lambda state: [0] * memo_width(max_moves)) if kept else "0"
    code.append(_first_listing(phases, kept))
    for phase in phases:
        for step in phase.steps:
            if isinstance(step, Decision):
                code.append(_advance(step, phase))
    for offset, width, encode in b.slots.values():
        lines.append(f"{offset} = {size}")
        slots.append((size, width, encode))
        size += width
    history = 0
    if game.initial_state().history is not None:  # the last region: trials copy up to it
        history = 2 * 20 * n + 2  # the default bound's moves, and turns of several moves
        lines += [f"HISTORY = {size}", f"HISTORY_CAP = {history}"]
        size += history
        zobrist = game.env.shared["zobrist"]
        keys = [[k - (1 << 64) if k >= 1 << 63 else k for k in row] for row in zobrist]
        lines.append(f"ZOBRIST = np.array({keys!r}, dtype=np.int64)")
    else:
        lines += ["HISTORY = 0", "HISTORY_CAP = 0", "ZOBRIST = np.zeros((1, 1), np.int64)"]
    lines.append(f"KEEPS_HISTORY = {bool(history)}")
    lines += _occupancy(b, game)
    lines += _situations(b, game, history)
    if b.situational and history:
        size += history
    swap_tag = len(tags)
    swap = b.action_start("swap", game.expansion.game) if game.pie else -1
    start_counts = [sum(1 for v in game.start if game.owner[v] == r) for r in range(game.roles)]
    lines += [f"STATE_SIZE = {size}", f"MAX_MOVES = {max_moves}", f"SWAP_TAG = {swap_tag}",
              f"SWAP = {swap}", f"PIE = {bool(game.pie)}",
              f"START_COUNTS = np.array({start_counts!r}, dtype=np.int32)",
              "PASS_TAGS = np.array(" + repr([int(g.passes) for g in tags] + [0])
              + ", dtype=np.int32)",
              "SITED_TAGS = np.array(" + repr([int(g.sited) for g in tags] + [0])
              + ", dtype=np.int32)",
              "MOVING_TAGS = np.array(" + repr([int(any(moves_a_piece(k) for k in g.kinds))
                                                for g in tags] + [0]) + ", dtype=np.int32)",
              f"QUIET = {bool(game.env.uses_quiet)}",
              "QUIET_RESETS = np.array(" + repr([int(v in game.env.quiet_resets) for v in
                                                 range(len(game.owner))]) + ", dtype=np.int32)",
              DRIVER_CHANGE]
    # The tables as module constants (numba freezes them into the machine code): a call then
    # passes no tuple of arrays, which cost more than many of the functions themselves.
    lines += [f"TABLE_{i} = np.array({rows!r}, dtype=np.{'int64' if wide else 'int32'})"
              for i, (rows, wide) in enumerate(zip(b.tables, b._wide, strict=True))]
    lines += b.functions
    updates = [f"    {update}(st, T, mover, before)" for update in b.memories.values()]
    lines.append("\n".join(["@njit(cache=True)", "def remember(st, T, mover, before):",
                            *updates, "    return"]))
    lines.append(f"MEMORIES = {bool(updates)}")
    legal = ["@njit(cache=True)", "def legal(st, T, acts, tags):",
             "    mover = st[H_TO_MOVE]", "    ph = st[H_PHASE]", "    step = st[H_STEP]",
             "    n = 0", f"    if MEMO and st[MEMO_AT] == {KEPT} and st[MEMO_AT + 1] == mover "
             "and st[MEMO_AT + 2] == ph and step == MEMO_STEP[ph]:",
             "        n = memo_take(st, acts, tags)"]
    apply = ["@njit(cache=True)", "def apply(st, T, act, tag):",
             "    mover = st[H_TO_MOVE]", "    if MEMO:", "        st[MEMO_AT] = 0",
             "    if tag == SWAP_TAG:", "        swap(st)",
             "        return", "    ph = st[H_PHASE]", "    step = st[H_STEP]",
             # the board before the decision, for the memories' updates and the quiet
             # count (on the stack: interpreter/kernel/stack.py), else an empty view
             *(["    before = np.empty(N, np.int64)", "    copy_into(before, st, N)"]
               if updates or game.env.uses_quiet else ["    before = st[:0]"]),
             "    if step == 0:", "        st[H_NCHANGED] = 0",
             "    st[H_TAKEN] = 0  # (counted per decision, as a turn's steps see captures)",
             "    st[H_AGAIN] = 0", "    st[H_TO] = -1", "    st[H_FROM] = -1"]
    make = ["@njit(cache=True)", "def make_tagged(st, T, mover, act, tag):"]
    for tag, g in enumerate(tags):
        make.append(f"    {'if' if tag == 0 else 'elif'} tag == {tag}:")
        make.append(f"        {g.make}(st, T, mover, act)")
    make.append("    return")
    code.append("\n".join(make))
    apply += ["    taken_before = st[H_TAKEN]", "    hands_open(st)",
              "    make_tagged(st, T, mover, act, tag)", "    hands_close(st)",
              "    passed = PASS_TAGS[tag] == 1",
              "    if tag >= 0 and not passed and SITED_TAGS[tag] == 1:",
              "        st[H_LAST_TO] = st[H_TO]", "        st[H_LAST_FROM] = st[H_FROM]",
              "    if not passed:", "        st[H_ALLPASS] = 0", "    st[H_PIE_OPEN] = 0",
              "    if QUIET:",
              "        st[H_RESETS] = 1 if MOVING_TAGS[tag] == 1 and st[H_FROM] >= 0 and "
              "QUIET_RESETS[before[st[H_FROM]]] == 1 else 0"]
    first = True
    for p, phase in enumerate(phases):
        for step in phase.steps:
            if isinstance(step, Decision):
                test = f"ph == {p} and step == {step.index}"
                legal += [f"    elif {test}:",
                          f"        n = list_{p}_{step.index}(st, T, mover, acts, tags, 0)"]
                apply += [f"    {'if' if first else 'elif'} {test}:",
                          f"        advance_{p}_{step.index}(st, T, mover, passed, before,"
                          " taken_before)"]
                first = False
    apply += ["    else:", "        end_turn(st, T, mover, False)"]
    code.append(_draw(phases))
    lines.append(_chance(game, phases))
    legal += ["    if st[H_PIE_OPEN] == 1 and step == 0:", "        acts[n] = SWAP",
              "        tags[n] = SWAP_TAG", "        n += 1", "    return n"]
    end_turn = ["@njit(cache=True)", "def end_turn(st, T, mover, again):",
                "    st[H_TO_MOVE] = mover if again else (mover + 1) % R",
                "    st[H_STEP] = 0",
                "    st[H_PASSES] = st[H_PASSES] + 1 if st[H_ALLPASS] == 1 else 0",
                "    st[H_ALLPASS] = 1", "    st[H_TURN] += 1", "    st[H_NDICE] = 0",
                "    if PIE:", "        st[H_PIE_OPEN] = 1 if pie_open(st) else 0",
                "    pushed = False",
                "    if KEEPS_HISTORY and st[H_HISTORY] < HISTORY_CAP:",
                "        st[HISTORY + st[H_HISTORY]] = st[H_HASH]", "        st[H_HISTORY] += 1",
                "        pushed = True",
                "    ph = st[H_PHASE]", "    to = -1", "    frm = -1"]
    for p, phase in enumerate(phases):
        if phase.until is None:
            continue
        end_turn += [f"    if ph == {p} and {phase.until}:", f"        st[H_PHASE] = {p + 1}"]
        if phase.next is not None:
            end_turn.append(f"        st[H_TO_MOVE] = {phase.next}")
    end_turn += ["    if KEEPS_SITUATIONS and pushed:",
                 "        st[SITUATIONS + st[H_HISTORY] - 1] = situation_hash(st, st[H_HASH], "
                 "st[H_TO_MOVE])", "    if MEMO:", f"        st[MEMO_AT] = {ARMED}",
                 "    judge(st, T)", f"    if MEMO and st[MEMO_AT] == {ARMED}:",
                 "        st[MEMO_AT] = 0"]
    judge = ["@njit(cache=True)", "def judge(st, T):",
             "    mover = (st[H_TO_MOVE] - 1) % R", "    to = -1", "    frm = -1"]
    for i, (hoisted, condition, result) in enumerate(_shared_calls(end_rules)):
        judge += [*(f"    {name} = {call}" for name, call in hoisted),
                  f"    if {condition}:", f"        st[H_RESULT] = {result}",
                  f"        st[H_REASON] = {i}", "        return"]
    judge.append("    return")
    lines += [f"MEMO = {bool(kept)}", f"MEMO_AT = {memo}", "MEMO_STEP = np.array("
              + repr([kept.get(p, -1) for p in range(len(phases))] or [-1])
              + ", dtype=np.int32)", MEMO_FUNCTIONS]
    lines += code
    lines += ["\n".join(legal), "\n".join(apply), "\n".join(end_turn), "\n".join(judge),
              DRIVER_TAIL, SEARCH_DRIVER]
    source = "\n\n\n".join(lines) + "\n"
    source = without_refcounts(on_stack(_break_cycles(b, game, source)))
    digest = hashlib.sha256((source + repr(b.tables)).encode()).hexdigest()
    return KernelSource(source, (), size, max_moves, game._reasons, slots,
                        history, bool(b.situational and history), digest[:24])


_CALL = re.compile(r"\b[A-Za-z_]\w*\(st, T, mover, to, frm\)")


def _shared_calls(end_rules: list[tuple[str, str]]
                  ) -> list[tuple[list[tuple[str, str]], str, str]]:
    """The end rules with each lowered call that two of them make (as chess's checkmate and
    stalemate both ask (stuck Next)) made once: in a local (`shared_0`) the rules then read,
    computed before the first rule that makes it — only where that rule's condition begins
    with it (evaluated first anyway: never computed where it was not). A call judges the
    position, which no rule changes, so the value is the same. Per rule: (the locals it
    computes first, its condition, its result)."""
    counts: dict[str, int] = {}
    for condition, result in end_rules:
        for call in set(_CALL.findall(condition + "\n" + result)):
            counts[call] = counts.get(call, 0) + 1
    names: dict[str, str] = {}
    seen: set[str] = set()
    out = []
    for condition, result in end_rules:
        hoisted = []
        for call in _CALL.findall(condition + "\n" + result):
            if counts[call] > 1 and call not in seen \
                    and condition.lstrip("( ").startswith(call):
                names[call] = f"shared_{len(names)}"
                hoisted.append((names[call], call))
            seen.add(call)
        for call, name in names.items():
            condition = re.sub(r"\b" + re.escape(call), name, condition)
            result = re.sub(r"\b" + re.escape(call), name, result)
        out.append((hoisted, condition, result))
    return out


def _situations(b: Builder, game: Game, history: int) -> list[str]:
    """The situations' history (Lower.keep_situations), after the positions' (SITUATIONS,
    as many entries, counted by H_HISTORY too), and `situation_hash(st, h, to_move)`: the
    situation of the board hashed h with to_move to move and the memories' values in the
    state (the kernel's own hash: only equality matters)."""
    import random

    kept = b.situational and history > 0
    rng = random.Random(0x5_1DE)
    signed = [(x - (1 << 64) if x >= 1 << 63 else x)
              for x in (rng.getrandbits(64) for _ in range(game.roles))]
    widths = [(name, b.slots[name][0], b.slots[name][1]) for name in b.memory_slots]
    keys = [(x - (1 << 64) if x >= 1 << 63 else x)
            for x in (rng.getrandbits(64) for _ in range(max(1, sum(w for *_, w in widths))))]
    body = ["@njit(cache=True)", "def situation_hash(st, h, to_move):",
            "    h ^= MOVER_KEYS[to_move]"]
    j = 0
    for _, offset, width in widths:
        body += [f"    for i in range({width}):",
                 f"        h ^= (st[{offset} + i] + 3) * SITUATION_KEYS[{j} + i]"]
        j += width
    body.append("    return h")
    return [f"SITUATIONS = {'HISTORY + HISTORY_CAP' if kept else 0}",
            f"KEEPS_SITUATIONS = {kept}",
            f"MOVER_KEYS = np.array({signed!r}, dtype=np.int64)",
            f"SITUATION_KEYS = np.array({keys!r}, dtype=np.int64)", "\n".join(body)]


def _chance(game: Game, phases: list[Phase]) -> str:
    """`is_chance(st)` and `chance_pick(st, n, rng)`: at a chance decision, the index of the
    outcome drawn among the n listed, with their probabilities (as Game.draw); else -1."""
    weights: list[str] = []
    tests: list[str] = []
    for p, phase in enumerate(phases):
        for step in phase.steps:
            if not (isinstance(step, Decision) and game._chance[p][step.index]):
                continue
            g = step.moves
            if not isinstance(g, Generator) or g.weights is None:
                raise Unlowerable(game.expansion.game, "no kernel lowering of this chance "
                                  "decision yet")
            name = f"W_{p}_{step.index}"
            weights.append(f"{name} = np.array({g.weights!r}, dtype=np.float64)")
            opening = name
            if g.opening is not None:
                opening = f"WO_{p}_{step.index}"
                weights.append(f"{opening} = np.array({g.opening!r}, dtype=np.float64)")
            tests.append(f"ph == {p} and step == {step.index}")
            weights += ["", "@njit(cache=True)", f"def pick_{p}_{step.index}(st, n, rng):",
                        f"    w = {opening} if st[H_TURN] == 0 else {name}",
                        "    point = rng_unit(rng) * w.sum()", "    for i in range(n):",
                        "        point -= w[i]", "        if point < 0:", "            return i",
                        "    return n - 1"]
    body = ["@njit(cache=True)", "def is_chance(st):", "    ph = st[H_PHASE]",
            "    step = st[H_STEP]",
            f"    return {' or '.join(f'({t})' for t in tests) if tests else 'False'}", "", "",
            "@njit(cache=True)", "def chance_pick(st, n, rng):", "    ph = st[H_PHASE]",
            "    step = st[H_STEP]"]
    for t in tests:
        p, i = (int(x) for x in re.findall(r"\d+", t))
        body += [f"    if {t}:", f"        return pick_{p}_{i}(st, n, rng)"]
    body.append("    return -1")
    return "\n".join([*weights, "", "", *body])


def _decision_listing(b: Builder, d: Decision, phase: Phase, tags: list[Generator]) -> str:
    """`list_P_I(st, T, mover, acts, tags, n) -> n`: the decision's legal moves, and
    `some_P_I(st, T, mover, acts, tags)`: has the mover one that is not a pass (the first
    found is enough)? Where steps after the decision may refuse a move, its candidates are
    listed by `cands_P_I` and each is judged by `kept_P_I` (tried on a copy of the state
    with those steps), and `draw_P_I` draws a legal move at random by trying candidates
    drawn at random until one is kept (each legal move as likely as in the full listing,
    without trying them all)."""
    body = _listing(d.moves, d.leaves, tags, "    ")
    name = f"{d.phase}_{d.index}"
    head = ["@njit(cache=True)", f"def list_{name}(st, T, mover, acts, tags, n):"]
    if not d.refusing:
        firsts = {g.generate: b.first_move(g.generate) for _, g in d.leaves}
        if all(firsts.values()):  # each generator stops at its first move: none listed in vain
            d.some_cap = len(d.leaves)
            some = ["@njit(cache=True)", f"def some_{name}(st, T, mover, acts, tags):",
                    "    n = 0", "    judged = 0",
                    *_judged(body, firsts, "PASS_TAGS[tags[i]] == 0"),
                    "    return False"]
        else:
            some = ["@njit(cache=True)", f"def some_{name}(st, T, mover, acts, tags):",
                    f"    n = list_{name}(st, T, mover, acts, tags, 0)",
                    "    for i in range(n):", "        if PASS_TAGS[tags[i]] == 0:",
                    "            return True", "    return False"]
        return "\n".join([*head, *body, "    return n", "", "", *some])
    after = _after(d, phase)
    cands = ["@njit(cache=True)", f"def cands_{name}(st, T, mover, acts, tags, n):", *body,
             "    return n"]
    kept = [
        "@njit(cache=True)", f"def kept_{name}(st, T, mover, act, tag, trial):",
        "    if tag == SWAP_TAG or PASS_TAGS[tag] == 1:  # declining is never refused",
        "        return True",
        "    copy_prefix(trial, st)  # (the history is not changed by a trial)",
        "    trial[H_AGAIN] = 0", "    trial[H_REFUSED] = 0", "    trial[H_TO] = -1",
        "    trial[H_FROM] = -1", "    trial[H_NCHANGED] = 0", "    trial[H_TAKEN] = 0",
        "    trial[H_TRYING] = 1",
        "    hands_open(trial)", "    make_tagged(trial, T, mover, act, tag)",
        "    hands_close(trial)", "    to = trial[H_TO]", "    frm = trial[H_FROM]",
        *[line for e in after for line in (
            "    hands_open(trial)", f"    {e.run}(trial, T, mover, to, frm)",
            "    hands_close(trial)")],
        "    return trial[H_REFUSED] == 0"]
    listing = [
        *head, f"    m = cands_{name}(st, T, mover, acts, tags, n)",
        "    trial = trial_state(st)", "    kept = n", "    for i in range(n, m):",
        f"        if kept_{name}(st, T, mover, acts[i], tags[i], trial):",
        "            acts[kept] = acts[i]", "            tags[kept] = tags[i]",
        "            kept += 1", "    return kept"]
    # Each generator's moves judged as soon as it has listed them: the first kept is enough.
    some = ["@njit(cache=True)", f"def some_{name}(st, T, mover, acts, tags):",
            "    n = 0", "    judged = 0", "    trial = st[:0]",
            *_judged(body, {}, f"PASS_TAGS[tags[i]] == 0 and kept_{name}(st, T, mover, "
                     "acts[i], tags[i], trial)", "if judged < n and trial.shape[0] == 0:",
                     "    trial = trial_state(st)"),
            "    return False"]
    draw = [
        "@njit(cache=True)", f"def draw_{name}(st, T, mover, acts, tags, pie, rng):",
        f"    n = cands_{name}(st, T, mover, acts, tags, 0)", "    if pie:",
        "        acts[n] = SWAP", "        tags[n] = SWAP_TAG", "        n += 1",
        "    trial = trial_state(st)", "    while n > 0:", "        i = rng_below(rng, n)",
        f"        if kept_{name}(st, T, mover, acts[i], tags[i], trial):",
        "            return i",
        "        n -= 1  # refused: drawn again from the others",
        "        act = acts[i]", "        acts[i] = acts[n]", "        acts[n] = act",
        "        tag = tags[i]", "        tags[i] = tags[n]", "        tags[n] = tag",
        "    return -1"]
    return "\n\n\n".join("\n".join(f) for f in (cands, kept, listing, some, draw))


def _judged(body: list[str], firsts: dict[str, str | None], found: str, *before: str
            ) -> list[str]:
    """The listing lines `body` with each generator's moves judged as soon as it has listed
    them (`found`, on move i: True is returned at the first), after the lines `before`;
    each generator named in `firsts` replaced by its variant there (Builder.first_move)."""
    out = []
    for line in body:
        call = re.search(r"n = (\w+)\(st, T, mover, acts, tags, n, ", line)
        if call is None:
            out.append(line)
            continue
        first = firsts.get(call.group(1))
        out.append(line.replace(call.group(1) + "(", first + "(", 1) if first else line)
        indent = line[:len(line) - len(line.lstrip())]
        out += [*(indent + b for b in before), f"{indent}for i in range(judged, n):",
                f"{indent}    if {found}:", f"{indent}        return True",
                f"{indent}judged = n"]
    return out


def _kept_steps(phases: list[Phase]) -> dict[int, int]:
    """Phase -> its first decision's index, for the phases whose first decision lists all its
    moves to answer can_move (not one whose moves steps after it may refuse): the listings a
    kernel may keep for the turn after (interpreter/kernel/memo.py)."""
    firsts = {p: next((s for s in phase.steps if isinstance(s, Decision)), None)
              for p, phase in enumerate(phases)}
    return {p: d.index for p, d in firsts.items() if d is not None and not d.refusing}


def _first_listing(phases: list[Phase], kept: dict[int, int]) -> str:
    """`list_first(st, T, mover, acts, tags, n) -> n`: the moves of the first decision of the
    current phase's turn for `mover` (what Game._can_move lists: lowerings such as (stuck ...)
    call it for any role). can_move keeps the listing of a phase in `kept` when end_turn
    armed it (interpreter/kernel/memo.py)."""
    lines = ["@njit(cache=True)", "def list_first(st, T, mover, acts, tags, n):",
             "    ph = st[H_PHASE]"]
    firsts = [next((s for s in phase.steps if isinstance(s, Decision)), None)
              for phase in phases]
    caps = [first.some_cap for first in firsts if first is not None]
    for p, first in enumerate(firsts):
        if first is not None:
            lines += [f"    if ph == {p}:",
                      f"        return list_{p}_{first.index}(st, T, mover, acts, tags, n)"]
    lines += ["    return n", "", "", "@njit(cache=True)", "def can_move(st, T, mover):",
              '    """Has `mover` a move other than a pass at the start of its turn (as',
              "    Game._can_move)? Its moves are listed until the first such is found.\"\"\"",
              _buffer(0 if kept or 0 in caps else max(caps, default=1)),
              "    ph = st[H_PHASE]"]
    for p, first in enumerate(firsts):
        if first is not None:
            lines.append(f"    if ph == {p}:")
            if p in kept:
                lines += [f"        if MEMO and st[MEMO_AT] == {ARMED}:",
                          "            st[MEMO_AT] = 0",
                          f"            n = list_{p}_{first.index}(st, T, mover, "
                          "buf[:MAX_MOVES], buf[MAX_MOVES:], 0)",
                          "            return memo_keep(st, mover, ph, buf, n)"]
            lines.append(f"        return some_{p}_{first.index}(st, T, mover, "
                         "buf[:BUF], buf[BUF:])")
    return "\n".join([*lines, "    return False"])


def _buffer(cap: int) -> str:
    """The line making can_move's (or can_continue's) buffer of acts and tags, `BUF` each:
    `cap` (some_P_I lists no more, each generator stopping at its first move), or MAX_MOVES
    where cap is 0 (some listing is whole, or kept: memo_keep reads the tags at MAX_MOVES)."""
    if cap:
        return f"    BUF = {cap}\n    buf = np.empty({2 * cap}, np.int32)"
    return "    BUF = MAX_MOVES\n    buf = np.empty(2 * MAX_MOVES, np.int32)"


def _draw(phases: list[Phase]) -> str:
    """`draw(st, T, acts, tags, rng) -> i`: a legal move drawn at random with the generator
    rng (rng_seed), at acts[i] and tags[i]
    (-1: there is none) — each listed move as likely as the rest, a chance outcome with its
    probability (as `choose` draws from the listing); the decisions whose moves steps after
    them may refuse draw without judging every move (draw_P_I). DRAWS: does any (where none
    does, the random games list and choose inline, saving a call per move)."""
    refusing = [(p, step.index) for p, phase in enumerate(phases) for step in phase.steps
                if isinstance(step, Decision) and step.refusing]
    lines = ["@njit(cache=True)", "def draw(st, T, acts, tags, rng):"]
    if refusing:
        lines += ["    mover = st[H_TO_MOVE]", "    ph = st[H_PHASE]", "    step = st[H_STEP]",
                  "    if not is_chance(st):"]
        for p, i in refusing:
            lines += [f"        if ph == {p} and step == {i}:",
                      f"            return draw_{p}_{i}(st, T, mover, acts, tags, "
                      "st[H_PIE_OPEN] == 1 and step == 0, rng)"]
    lines += ["    n = legal(st, T, acts, tags)", "    if n == 0:", "        return -1",
              "    return choose(st, n, rng)", "", "", f"DRAWS = {bool(refusing)}"]
    return "\n".join(lines)


def _after(d: Decision, phase: Phase) -> list[Effect]:
    out: list[Effect] = []
    for later in phase.steps[d.index + 1:]:
        if isinstance(later, Decision):
            break
        out.append(later)
    return out


def _advance(d: Decision, phase: Phase) -> str:
    """`advance_P_I(st, T, mover, passed)`: after decision I of phase P was made, its
    automatic steps, then the turn's next decision (the same mover) or its end — as
    Game._advance."""
    steps = phase.steps
    last = len(steps) - 1
    resume = next((i for i, s in enumerate(steps) if isinstance(s, Decision)), 0) + 1
    has_resume = any(isinstance(s, Decision) and s.continued for s in steps)
    lines = ["@njit(cache=True)",
             f"def advance_{d.phase}_{d.index}(st, T, mover, passed, before, taken_before):",
             "    to = st[H_TO]", "    frm = st[H_FROM]"]

    def from_step(start: int, indent: str) -> list[str]:
        out = []
        i = start
        while i <= last and not isinstance(steps[i], Decision):
            effect = steps[i]
            assert isinstance(effect, Effect)
            if not effect.may_refuse:  # a check, passed when the move was found legal
                out += [f"{indent}hands_open(st)", f"{indent}{effect.run}(st, T, mover, to, frm)",
                        f"{indent}hands_close(st)"]
            i += 1
        out += [f"{indent}if MEMORIES:", f"{indent}    remember(st, T, mover, before)",
                f"{indent}if QUIET:", f"{indent}    quiet(st, before, taken_before)"]
        if i > last:
            return [*out, f"{indent}end_turn(st, T, mover, st[H_AGAIN] == 1)", f"{indent}return"]
        nxt = steps[i]
        assert isinstance(nxt, Decision)
        if not nxt.continued:
            return [*out, f"{indent}st[H_STEP] = {i}", f"{indent}return"]
        condition = nxt.condition or "True"
        return [*out, f"{indent}if ({condition}) and "
                      f"can_continue_{nxt.phase}_{nxt.index}(st, T, st[H_TO_MOVE]):",
                f"{indent}    st[H_STEP] = {i}", f"{indent}    return",
                f"{indent}end_turn(st, T, mover, st[H_AGAIN] == 1)", f"{indent}return"]

    if has_resume and d.continued:
        lines += ["    if passed:", "        if MEMORIES:",
                  "            remember(st, T, mover, before)", "        if QUIET:",
                  "            quiet(st, before, taken_before)",
                  "        end_turn(st, T, mover, st[H_AGAIN] == 1)",
                  "        return", *from_step(resume, "    ")]
    else:
        lines += from_step(d.index + 1, "    ")
    source = "\n".join(lines)
    if d.continued:
        source += "\n\n\n" + "\n".join([
            "@njit(cache=True)", f"def can_continue_{d.phase}_{d.index}(st, T, mover):",
            _buffer(d.some_cap),
            f"    return some_{d.phase}_{d.index}(st, T, mover, buf[:BUF], buf[BUF:])"])
    return source


def _break_cycles(b: Builder, game: Game, source: str) -> str:
    """The source with the functions that call themselves through others (a move's filter
    that asks whether a player can move, whose moves have that filter: shogi's pawn-drop
    mate) made into one function calling itself: numba loads mutual recursion badly from
    its cache (a segfault) but a function calling itself directly (as max-dice's search)
    compiles and loads. Every function of such a cycle but one is inlined into its callers
    (numba's inline='always'), which works when one function lies on every cycle among
    them (can_move, whose last line returns False, is preferred: numba types a function
    calling itself from a return that does not); other cycles are refused."""
    bodies = re.split(r"^def ", source, flags=re.M)[1:]
    calls: dict[str, set[str]] = {}
    for body in bodies:
        name = body[:body.index("(")]
        calls[name] = set(re.findall(r"\b(\w+)\(", body[len(name):])) - {name}
    graph = nx.DiGraph((name, callee) for name, callees in calls.items()
                       for callee in callees if callee in calls)
    inlined: set[str] = set()
    for cycle in nx.strongly_connected_components(graph):
        if len(cycle) < 2:
            continue
        kept = next((k for k in sorted(cycle, key=lambda f: (not f.startswith("can_"), f))
                     if nx.is_directed_acyclic_graph(graph.subgraph(cycle - {k}))), None)
        if kept is None:
            b.refuse(game.expansion.game, "no kernel for rules that call themselves (a "
                     "move's condition asks for the moves of a position) in more than one "
                     "way yet")
        inlined |= cycle - {kept}
    for name in inlined:
        source = source.replace(f"@njit(cache=True)\ndef {name}(",
                                f"@njit(cache=True, inline='always')\ndef {name}(")
    return source


def _hands(game: Game) -> list[str]:
    """The constants of the hands (layout.hands_width): COUNTS_HANDS, whether roles count the
    pieces in their hands; COUNTED[v], whether board value v is such a piece; CLAMPS_HANDS
    and REUSES[r], whether some role, and role r, gets a piece taken off the board back
    (reuse:)."""
    env = game.env
    counted = any(env.supply)
    values = [int(c) for c in env.counted] if counted else [0] * len(game.owner)
    reuses = [int(r) for r in env.reuse] or [1] * game.roles
    kinds = env.hand_kinds
    kind_of = list(kinds.kind_of) if kinds is not None else [-1] * len(game.owner)
    keys = [[k - (1 << 64) if k >= 1 << 63 else k for k in row]
            for row in kinds._keys] if kinds is not None else [[0]]
    return [f"COUNTS_HANDS = {counted}",
            f"COUNTED = np.array({values!r}, dtype=np.int32)",
            f"CLAMPS_HANDS = {counted and not all(reuses)}",
            f"REUSES = np.array({reuses!r}, dtype=np.int32)",
            f"HOLDS_KINDS = {kinds is not None}",
            f"KIND_OF = np.array({kind_of!r}, dtype=np.int32)",
            f"HELD_KEYS = np.array({keys!r}, dtype=np.int64)"]


def _edges(game: Game) -> list[str]:
    """In a game whose board declares edges (stdlib/edges.py): EDGE_KEYS[e, v], the hash
    key of edge e holding v (Edges.key: 0 for empty), and `set_edge(st, e, v)`, which gives
    an edge its value keeping the position's hash, as Turn.set_edge does. Nothing
    otherwise."""
    if not game.no_edges:
        return []
    edges = game.env.shared["edges"]
    keys = [[k - (1 << 64) if k >= 1 << 63 else k
             for k in (edges.key(e, v) for v in range(game.roles + 1))]
            for e in range(edges.count)]
    return [f"EDGE_KEYS = np.array({keys!r}, dtype=np.int64)", DRIVER_EDGES]


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
from numba import njit
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros'''

DRIVER_EDGES = '''@njit(cache=True)
def set_edge(st, e, v):
    """Edge e takes the value v (0: empty, role + 1: held by the role), the position's
    hash kept (edges are part of the position)."""
    if KEEPS_HISTORY:
        st[H_HASH] ^= EDGE_KEYS[e, st[EDGES + e]] ^ EDGE_KEYS[e, v]
    st[EDGES + e] = v'''

DRIVER_CHANGE = '''@njit(cache=True)
def copy_into(dst, src, n):
    """dst[:n] = src[:n], as a loop: an array assigned to a slice makes numba compile its
    shape check, about a third of a small kernel's first compilation. Lowerings copy
    states with it."""
    for i in range(n):
        dst[i] = src[i]


@njit(cache=True)
def change(st, s, v):
    """Set site s to v, recording it among the sites the turn changed, counting a piece
    of another role than the mover's taken off (as Game._captures), and keeping the hands:
    a counted piece put down leaves its owner's hand, one taken off returns to it (as
    Env.hands_after; hands_close clamps the batch); by kind, a piece of another role taken
    off goes to the mover's hand as the kind it demotes to (stdlib.hands.captured_to_hand)."""
    if COUNTS_HANDS and st[s] != v:
        if COUNTED[v] == 1:
            st[HANDS + OWNER[v]] -= 1
        if COUNTED[st[s]] == 1:
            st[HANDS + OWNER[st[s]]] += 1
    if HOLDS_KINDS and st[s] != v:
        o = OWNER[st[s]]
        if o >= 0 and o != st[H_TO_MOVE] and KIND_OF[st[s]] >= 0:
            hold(st, st[H_TO_MOVE], KIND_OF[st[s]], 1)
    was = OWNER[st[s]]
    if was >= 0 and was != st[H_TO_MOVE] and OWNER[v] != was:
        st[H_TAKEN] += 1
    if KEEPS_HISTORY:
        st[H_HASH] ^= ZOBRIST[s, st[s]] ^ ZOBRIST[s, v]
    if OCCUPANCY:
        occupy(st, s, v)
    st[s] = v
    k = st[H_NCHANGED]
    if k >= 0:
        if k < CHANGED_CAP:
            st[CHANGED + k] = s
            st[H_NCHANGED] = k + 1
        else:
            st[H_NCHANGED] = -1


@njit(cache=True)
def occupy(st, s, v):
    """The occupancy (Lower.occupancy) as site s comes to hold v: its bit moved from the
    mask of the role that owned it to the new owner's, and their counts of pieces."""
    was = OWNER[st[s]]
    now = OWNER[v]
    if was != now:
        bit = np.int64(1) << (s & 63)
        w = s >> 6
        if was >= 0:
            st[OCC + was * OCC_WORDS + w] &= ~bit
            st[PIECES + was] -= 1
        if now >= 0:
            st[OCC + now * OCC_WORDS + w] |= bit
            st[PIECES + now] += 1


@njit(cache=True)
def put(st, s, v):
    """Site s holds v, nothing recorded: a lowering trying a move on the board, which it
    takes back by putting the old values back (the occupancy follows, so that conditions
    judged meanwhile read it right)."""
    if OCCUPANCY:
        occupy(st, s, v)
    st[s] = v


@njit(cache=True)
def held_key(role, kind, count):
    """The hash key of role holding count of hand kind `kind` (HandKinds.key)."""
    if count == 0:
        return 0
    h = np.uint64(HELD_KEYS[role, kind]) * np.uint64(2 * count + 1)
    return np.int64(h ^ (h >> np.uint64(29)))


@njit(cache=True)
def hold(st, role, kind, more):
    """role holds `more` (1 or -1) more of hand kind `kind`, its hash kept (hands are part
    of the position)."""
    at = HELD + role * HELD_KINDS + kind
    n = st[at]
    st[at] = n + more
    if KEEPS_HISTORY:
        st[H_HASH] ^= held_key(role, kind, n) ^ held_key(role, kind, n + more)


@njit(cache=True)
def hands_open(st):
    """A batch of changes begins (a decision's make, an automatic step): the hands as they
    are, for hands_close."""
    if CLAMPS_HANDS:
        for r in range(R):
            st[HANDS_BEFORE + r] = st[HANDS + r]


@njit(cache=True)
def hands_close(st):
    """A batch of changes ends: a role with reuse:false has no more in hand than before it
    (as Env.hands_after: pieces taken off the board are out of play)."""
    if CLAMPS_HANDS:
        for r in range(R):
            if REUSES[r] == 0 and st[HANDS + r] > st[HANDS_BEFORE + r]:
                st[HANDS + r] = st[HANDS_BEFORE + r]


@njit(cache=True)
def short_of(st, v):
    """Does putting down a piece of board value v need one more than its owner's hand holds
    (the owner counts its pieces and has none left: Env.shortage)?"""
    return COUNTS_HANDS and COUNTED[v] == 1 and st[HANDS + OWNER[v]] == 0


@njit(cache=True)
def quiet(st, before, taken_before):
    """After a decision and its steps: no piece taken (by the decision or its steps) and
    none moved that resets the count (Env.quiet_resets) counts one more quiet decision."""
    if st[H_TAKEN] > taken_before or st[H_RESETS] == 1:
        st[H_QUIET] = 0
    else:
        st[H_QUIET] += 1


@njit(cache=True)
def use_die(st, value):
    """One die showing value is used up (the first of them, as the interpreter's use_die)."""
    k = st[H_NDICE]
    for i in range(k):
        if st[DICE + i] == value:
            for j in range(i, k - 1):
                st[DICE + j] = st[DICE + j + 1]
            st[H_NDICE] = k - 1
            return


@njit(cache=True)
def set_dice(st, values, count):
    """The dice not used are now the first count of values."""
    for i in range(count):
        st[DICE + i] = values[i]
    st[H_NDICE] = count


@njit(cache=True)
def swap(st):
    """The pie rule's swap: the people exchange roles; the same role is still to move."""
    st[H_SWAPPED] = 1 - st[H_SWAPPED]
    st[H_PIE_OPEN] = 0
    st[H_NCHANGED] = 0
    st[H_PASSES] = 0
    st[H_STEP] = 0
    st[H_ALLPASS] = 1
    st[H_TAKEN] = 0
    st[H_LAST_TO] = -1
    st[H_LAST_FROM] = -1


@njit(cache=True)
def pie_open(st):
    """As interpreter.text.default_pie: no swap yet, the second role to move, it has added
    no piece to the start position and the first role has."""
    if st[H_SWAPPED] == 1 or st[H_TO_MOVE] != 1 or R < 2:
        return False
    first = 0
    second = 0
    for s in range(N):
        o = OWNER[st[s]]
        if o == 0:
            first += 1
        elif o == 1:
            second += 1
    return second - START_COUNTS[1] == 0 and first - START_COUNTS[0] > 0'''

DRIVER_TAIL = '''@njit(cache=True)
def rng_seed(rng, seed):
    """Start the random generator rng (a uint64 array of one word: SplitMix64's state) from
    seed, any 64-bit number: a game's generator costs one store, where seeding numba's
    Mersenne Twister (624 words, then regenerated) cost some 2 microseconds a game."""
    rng[0] = np.uint64(seed)


@njit(cache=True)
def rng_next(rng):
    """The next 64 random bits of rng (SplitMix64)."""
    z = rng[0] + np.uint64(0x9E3779B97F4A7C15)
    rng[0] = z
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def rng_below(rng, n):
    """A number of 0 ... n - 1, each as likely (0 < n < 2 ** 32): the high 32 bits of a draw
    scaled by n, the few draws that would favour some numbers drawn again (Lemire's
    method)."""
    bound = np.uint64(n)
    m = (rng_next(rng) >> np.uint64(32)) * bound
    low = m & np.uint64(0xFFFFFFFF)
    if low < bound:
        least = (np.uint64(0x100000000) - bound) % bound
        while low < least:
            m = (rng_next(rng) >> np.uint64(32)) * bound
            low = m & np.uint64(0xFFFFFFFF)
    return np.int64(m >> np.uint64(32))


@njit(cache=True)
def rng_unit(rng):
    """A float in [0, 1): 53 random bits."""
    return np.float64(rng_next(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def choose(st, n, rng):
    """The index of the move drawn among the n listed: a chance outcome with its probability,
    any other move as likely as the rest (as Game.playout chooses)."""
    i = chance_pick(st, n, rng)
    if i < 0:
        i = rng_below(rng, n)
    return i


@njit(cache=True)
def copy_prefix(trial, st):
    """The state up to the history (all but it), copied from st to trial (a loop: faster in
    numba than a slice assignment)."""
    for i in range(HISTORY if KEEPS_HISTORY else st.shape[0]):
        trial[i] = st[i]


@njit(cache=True)
def trial_state(st):
    """A state to try moves of st on (kept_P_I copies st's prefix into it each time): the
    history so far as st's (a trial reads it but never changes it)."""
    trial = np.empty_like(st)
    if KEEPS_HISTORY:
        count = st[H_HISTORY]
        for i in range(count):
            trial[HISTORY + i] = st[HISTORY + i]
        if KEEPS_SITUATIONS:
            for i in range(count):
                trial[SITUATIONS + i] = st[SITUATIONS + i]
    return trial


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
    rng = np.zeros(1, np.uint64)
    for g in range(seeds.shape[0]):
        rng_seed(rng, seeds[g])
        copy_into(st, start, st.shape[0])
        plies = 0
        while st[H_RESULT] == PLAYING and plies < bound:
            if DRAWS:
                i = draw(st, T, acts, tags, rng)
            else:  # (draw's own lines: a call less)
                n = legal(st, T, acts, tags)
                i = choose(st, n, rng) if n > 0 else -1
            if i < 0:
                break
            apply(st, T, acts[i], tags[i])
            plies += 1
        winners[g] = st[H_RESULT]
        reasons[g] = st[H_REASON]
        lengths[g] = plies


@njit(cache=True)
def perft(st, T, depth):
    """The move sequences of `depth` decisions from st (perft; 1 at depth 0): each legal
    action once (two generators may list the same move), none after the game's end; st is
    left as it was. Each level makes its moves on a state of its own, copied up to the
    history and the history so far (all that apply reads or adds to). Not recursive (numba
    may not load a recursive function from its cache)."""
    if depth <= 0:
        return 1
    levels = np.empty((depth, st.shape[0]), st.dtype)
    acts = np.empty((depth, MAX_MOVES), np.int32)
    tags = np.empty((depth, MAX_MOVES), np.int32)
    counts = np.zeros(depth, np.int64)
    next_move = np.zeros(depth, np.int64)
    copy_into(levels[0], st, st.shape[0])
    counts[0] = perft_moves(levels[0], T, acts[0], tags[0])
    prefix = HISTORY if KEEPS_HISTORY else st.shape[0]
    total = 0
    level = 0
    while level >= 0:
        if level == depth - 1:
            total += counts[level]
            level -= 1
            continue
        i = next_move[level]
        if i >= counts[level]:
            level -= 1
            continue
        next_move[level] = i + 1
        here = levels[level]
        child = levels[level + 1]
        copy_into(child, here, prefix)
        if KEEPS_HISTORY:
            count = here[H_HISTORY]
            copy_into(child[HISTORY:], here[HISTORY:], count)
            if KEEPS_SITUATIONS:
                copy_into(child[SITUATIONS:], here[SITUATIONS:], count)
        apply(child, T, acts[level, i], tags[level, i])
        level += 1
        counts[level] = perft_moves(child, T, acts[level], tags[level])
        next_move[level] = 0
    return total


@njit(cache=True)
def perft_moves(st, T, acts, tags):
    """The legal actions of st, each once (in acts and tags, sorted); none once it is over."""
    if st[H_RESULT] != PLAYING:
        return 0
    n = legal(st, T, acts, tags)
    order = np.argsort(acts[:n], kind="mergesort")
    found = acts[:n][order]
    kinds = tags[:n][order]
    m = 0
    for k in range(n):
        if m > 0 and found[k] == acts[m - 1]:
            continue
        acts[m] = found[k]
        tags[m] = kinds[k]
        m += 1
    return m


@njit(cache=True)
def playout_actions(T, start, seed, bound, record):
    """One random game; its actions in record; returns how many."""
    st = start.copy()
    acts = np.empty(MAX_MOVES, np.int32)
    tags = np.empty(MAX_MOVES, np.int32)
    rng = np.zeros(1, np.uint64)
    rng_seed(rng, seed)
    plies = 0
    while st[H_RESULT] == PLAYING and plies < bound:
        if DRAWS:
            i = draw(st, T, acts, tags, rng)
        else:  # (draw's own lines: a call less)
            n = legal(st, T, acts, tags)
            i = choose(st, n, rng) if n > 0 else -1
        if i < 0:
            break
        record[plies] = acts[i]
        apply(st, T, acts[i], tags[i])
        plies += 1
    return plies'''
