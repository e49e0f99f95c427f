"""Hands by kind: a captured piece goes to the captor's hand, as the kind it demotes to, and
comes back onto the board as a drop (`P*e5`, by `(drop-from-hand REGION)`), as in shogi and
crazyhouse.

A game asks for it in its players section, `(players {...} captures:"hand")`; a piece kind
declared with `demotes:"Pawn"` (a promoted pawn) goes to the hand as that kind. The pieces a
role holds are per kind (position text `in hand Black: P2 N1`, by each kind's letter: the
symbol of its first role's piece, upper case). The engine counts captures into hands as it
makes every change (any piece of another role taken off the board by the mover's turn), and a
drop carries the action that takes its piece from the hand: both are undone with the move.
Hands are part of the position's hash, so `(repeated ...)` tells positions apart by them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from dsl.ast import Form, Node
from stdlib.lowering import Generator, Lower, keywords, lowers
from stdlib.movekinds import (
    Key,
    MoveKind,
    NotationError,
    SiteOf,
    Syntax,
    register,
    site_block,
)
from stdlib.moves import accept, kinded, lower_filters
from stdlib.parts import mark
from stdlib.registry import ludeme
from stdlib.runtime import EMPTY, NEUTRAL, Ctx, Env, Move
from stdlib.statefields import Keys, StateField, declare
from stdlib.steps import Action, Turn
from stdlib.types import Cond, Moves, Region

MAX_HELD = 999  # pieces of one kind in one hand, as position text may say

# The move kind of a drop: `P*e5`, one kind per letter ("drop=P"), like promotions.
DROP_PREFIX = "drop="


def _write_drop(kind: str, sites: Sequence[int], names: Sequence[str]) -> str:
    return f"{kind[len(DROP_PREFIX):]}*{names[sites[0]]}"


def _read_drop(text: str, site_of: SiteOf) -> Key | None:
    if "*" not in text:
        return None
    letter, _, site = text.partition("*")
    letter = letter.strip()
    if len(letter) != 1 or not letter.isalpha():
        raise NotationError(f"{text}: a drop is written with the kind's letter, '*' and the "
                            "site, e.g. P*e5")
    return DROP_PREFIX + letter.upper(), (site_of(site.strip()),)


DROP = register(MoveKind(DROP_PREFIX, Syntax("drop", 12, _write_drop, _read_drop), "drop",
                         1001, site_block, hint="a letter, '*' and a site (P*e5)",
                         click="place"))


class HandKinds:
    """What a game with hands by kind knows at compile time: the kinds a hand may hold (by
    name, with their letters), which hand kind each board value goes to when captured (-1:
    none), each role's board value for each hand kind, and the hash keys of hand counts."""

    def __init__(self, env: Env, demotes: dict[str, str]) -> None:
        roles = len(env.roles)
        names: list[str] = []
        for p in env.pieces:
            if p.owner >= 0:
                name = demotes.get(p.name, p.name)
                if name not in names:
                    names.append(name)
        self.names = tuple(names)
        letters = []
        for name in names:
            first = next((p for p in env.pieces if p.name == name and p.owner >= 0), None)
            letters.append((first.symbol if first is not None else name[:1]).upper())
        self.letters = tuple(letters)
        self.kind_of = [-1] * (len(env.pieces) + 1)  # board value -> hand kind when captured
        for p in env.pieces:
            if p.owner >= 0:
                self.kind_of[p.value] = names.index(demotes.get(p.name, p.name))
        # value[r][k]: role r's piece of hand kind k (0: it has none; it cannot drop it).
        self.value = [[next((p.value for p in env.pieces if p.owner == r and p.name == name),
                            0) for name in names] for r in range(roles)]
        rng = random.Random(0x6C75646D)  # fixed: hashes are the same in every process
        self._keys = [[rng.getrandbits(64) for _ in names] for _ in range(roles)]

    def key(self, role: int, kind: int, count: int) -> int:
        """The hash key of `role` holding `count` of hand kind `kind` (0 for none)."""
        if not count:
            return 0
        h = (self._keys[role][kind] * (2 * count + 1)) & 0xFFFFFFFFFFFFFFFF
        return h ^ (h >> 29)

    def hash(self, held: tuple[tuple[int, ...], ...]) -> int:
        """The hash of whole hands."""
        h = 0
        for r, counts in enumerate(held):
            for k, n in enumerate(counts):
                h ^= self.key(r, k, n)
        return h

    def letter_of(self, letter: str) -> int:
        return self.letters.index(letter.upper())


def declare_hands(env: Env, captures: str, demotes: Sequence[tuple[str, str]],
                  word: str = "in hand") -> None:
    """Set up hands by kind for a game whose players section says captures:"hand": `demotes`
    are the (kind, kind it demotes to) that the pieces declare; `word` is how position text
    names hands."""
    if captures != "hand":
        if captures:
            env.error(f'captures:"{captures}": the only choice is captures:"hand" (captured '
                      "pieces go to the captor's hand)")
        return
    table: dict[str, str] = {}
    for name, into in demotes:
        if not any(p.name == into for p in env.pieces):
            env.error(f'demotes:"{into}": no piece named "{into}"')
        elif table.setdefault(name, into) != into:
            env.error(f'"{name}" demotes to "{table[name]}" for one role and to "{into}" for '
                      "another")
    env.hand_kinds = HandKinds(env, table)
    env.uses_actions = True
    declare(env, KindHands(env.hand_kinds, word))


# The hands as state ------------------------------------------------------------------------------


class KindHands(StateField):
    """The pieces each role holds, by kind: `in hand Black: P2 N1` (left out when empty)."""

    order = 20

    def __init__(self, kinds: HandKinds, word: str = "in hand") -> None:
        self.kinds = kinds
        self.word = word

    def keys(self, roles: tuple[str, ...]) -> list[str]:
        return [f"{self.word} {role}" for role in roles]

    def render(self, state: Any) -> list[str]:
        lines = []
        for role, counts in zip(state.game.players, state.held, strict=True):
            held = [f"{self.kinds.letters[k]}{n}" for k, n in enumerate(counts) if n]
            if held:
                lines.append(f"{self.word} {role}: {' '.join(held)}")
        return lines

    def parse(self, state: Any, keys: Keys) -> None:
        held = [list(counts) for counts in state.held]
        for r, role in enumerate(state.game.players):
            found = keys.take(f"{self.word} {role}")
            if found is None:
                continue
            line, text = found
            for word in text.replace(",", " ").split():
                if word == "-":
                    continue
                letter, digits = word[:1], word[1:] or "1"
                if letter.upper() not in self.kinds.letters or not digits.isdigit() \
                        or not 0 <= int(digits) <= MAX_HELD:
                    known = " ".join(self.kinds.letters)
                    raise keys.error(line, f"{self.word} {role}: {word!r} is not a kind's "
                                           f"letter ({known}) with a count, e.g. P2")
                held[r][self.kinds.letter_of(letter)] += int(digits)
        state.held = tuple(tuple(counts) for counts in held)

    def planes(self, roles: tuple[str, ...]) -> list[tuple[str, float, float]]:
        return [(f"{role} holds {name}", 0.0, float(MAX_HELD))
                for role in roles for name in self.kinds.names]

    def observe(self, state: Any) -> list[float | dict[int, float]]:
        return [float(n) for counts in state.held for n in counts]


class FromHand(Action):
    """One piece of hand kind `kind` leaves the mover's hand (a drop)."""

    __slots__ = ("kind",)

    def __init__(self, kind: int) -> None:
        self.kind = kind

    def apply(self, turn: Turn) -> None:
        turn.from_hand(self.kind)


# Drops -------------------------------------------------------------------------------------------


@ludeme("drop-from-hand")
def drop_from_hand(env: Env, region: Region, *, of: list[str] | None = None,
                   if_: Cond | None = None, unless: Cond | None = None) -> Moves:
    """Put a piece from the mover's hand on an empty site of the region: one move per kind it
    holds (of the kinds named by `of:`, or any), written with the kind's letter, `*` and the
    site (`P*e5`). `if:` and `unless:` judge the board after the drop, with To its site. Needs
    hands by kind: (players {...} captures:"hand").

    (drop-from-hand (sites Empty) unless:(in To (sites Row 9)))"""
    kinds = env.hand_kinds
    if kinds is None:
        env.error('(drop-from-hand ...) needs hands by kind: (players {...} captures:"hand")')
        return kinded(lambda ctx: [], "pass")
    wanted = list(range(len(kinds.names)))
    if of is not None:
        unknown = [name for name in of if name not in kinds.names]
        if unknown:
            env.error(f'(drop-from-hand of:...): no kind "{unknown[0]}" can be in hand (kinds: '
                      f'{", ".join(kinds.names)})')
        wanted = [k for k in wanted if kinds.names[k] in of]
    made: dict[tuple[int, int, int], Move] = {}
    no_piece = env.no_piece

    def generate(ctx: Ctx) -> list[Move]:
        state = ctx.state
        if state is None or not state.held:
            return []
        mover, board = ctx.mover, ctx.board
        counts = state.held[mover]
        out: list[Move] = []
        sites = [s for s in region(ctx) if board[s] == EMPTY and s not in no_piece]
        for k in wanted:
            value = kinds.value[mover][k]
            if not counts[k] or not value:
                continue
            for s in sites:
                key = (mover, k, s)
                move = made.get(key)
                if move is None:
                    move = made[key] = Move(DROP_PREFIX + kinds.letters[k], (s,), ((s, value),),
                                            env.names, (FromHand(k),))
                accept(ctx, move, s, -1, if_, unless, out, from_hand=False)
                if ctx.probe and out:
                    return out
        return out

    mark(generate).kinds = frozenset(DROP_PREFIX + kinds.letters[k] for k in wanted)
    return generate


def captured_to_hand(kinds: HandKinds, owner: Sequence[int], mover: int,
                     held: tuple[tuple[int, ...], ...], old: int, new: int
                     ) -> tuple[tuple[tuple[int, ...], ...], int]:
    """The hands after a site changed from `old` to `new` in `mover`'s turn, and the change of
    the hands' hash: a piece of another role taken off the board goes to the mover's hand."""
    was = owner[old]
    if was < 0 or was == mover or old == new or was == NEUTRAL:
        return held, 0
    k = kinds.kind_of[old]
    if k < 0:
        return held, 0
    counts = list(held[mover])
    n = counts[k]
    counts[k] = n + 1
    out = list(held)
    out[mover] = tuple(counts)
    return tuple(out), kinds.key(mover, k, n) ^ kinds.key(mover, k, n + 1)


# Kernel lowerings (stdlib/lowering.py) ---------------------------------------------------------

@lowers("drop-from-hand")
def lower_drop_from_hand(k: Lower, node: Form, args: tuple[Node, ...]) -> Generator:
    """(drop-from-hand region [of:] [if:] [unless:]): for each hand kind wanted that the mover
    holds and has a piece of, a drop on each empty site of the region (once each) where a
    piece may stand and the filters allow it (judged with the piece put down, To its site);
    the hands live in the state's HELD region (interpreter/kernel/layout.py)."""
    from stdlib.logic import _names

    given = keywords(node, {"of", "if", "unless"}, k)
    env = k.env
    kinds = env.hand_kinds
    if kinds is None:
        k.refuse(node, "no kernel lowering of (drop-from-hand) without hands by kind")
    wanted = list(range(len(kinds.names)))
    if "of" in given:
        names = _names(given["of"])
        if names is None:
            k.refuse(node, "no kernel lowering of (drop-from-hand) with a computed of:")
        wanted = [i for i in wanted if kinds.names[i] in names]
    size = env.topology.size
    allowed = k.table("may hold a piece", [0 if s in env.no_piece else 1 for s in range(size)])
    values = k.table("held values", kinds.value)
    starts = [k.action_start(DROP_PREFIX + kinds.letters[i], node) for i in wanted]
    region = k.lower(args[0], "Region")
    judge = lower_filters(k, given)
    admits = "True" if judge is None else k.function("drop_allowed", f"""
def {{name}}(st, T, mover, s, v):
    put(st, s, v)
    ok = {judge}(st, T, mover, s, -1, s, -1)
    put(st, s, 0)
    return ok
""") + "(st, T, mover, s, v)"
    loops = "".join(f"""
    v = {values}[mover, {i}]
    if st[HELD + mover * HELD_KINDS + {i}] > 0 and v != 0:
        for j in range(m):
            s = buf[j]
            if {admits}:
                acts[n] = {start} + s
                tags[n] = tag
                n += 1""" for i, start in zip(wanted, starts, strict=True))
    holds = " or ".join(f"st[HELD + mover * HELD_KINDS + {i}] > 0" for i in wanted) or "False"
    generate = k.function("drop_from_hand", f"""
def {{name}}(st, T, mover, acts, tags, n, tag):
    if not ({holds}):  # nothing to drop: the region is not worked out
        return n
    buf = np.empty(N, np.int32)
    seen = np.zeros(N, np.bool_)
    m = 0
    for i in range({region}(st, T, mover, -1, -1, buf)):
        s = buf[i]
        if st[s] == 0 and {allowed}[s] and not seen[s]:
            seen[s] = True
            buf[m] = s
            m += 1{loops}
    return n
""")
    blocks = "".join(f"""
    if {start} <= act < {start + size}:
        kind = {i}
        s = act - {start}""" for i, start in zip(wanted, starts, strict=True))
    make = k.function("make_drop_from_hand", f"""
def {{name}}(st, T, mover, act):
    kind = -1
    s = -1{blocks}
    change(st, s, {values}[mover, kind])
    hold(st, mover, kind, -1)
    st[H_TO] = s
    st[H_FROM] = -1
""")
    return Generator(generate, make,
                     frozenset(DROP_PREFIX + kinds.letters[i] for i in wanted))
