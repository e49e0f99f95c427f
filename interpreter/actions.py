"""Integer actions: each game's moves numbered 0, 1, ... `size - 1`, for reinforcement-learning
libraries (OpenSpiel, PettingZoo) that want a fixed, finite action space.

The numbers depend only on the game file and its options, never on the order in which the
rules happen to produce moves: a move's number is computed from its kind and its sites.

The action space is a row of *blocks*, one per kind of move the game can make, in the fixed
order of `BLOCKS` (a kind the game cannot make has no block, so Hex has only its placements):

| kind | block size (N sites) | a move's number within the block |
|---|---|---|
| `place` | N | its site |
| `move` | N * N | from * N + to |
| `exchange` | N(N-1)/2 | the rank of its pair of sites (see `rank`) |
| `multi` | C(N, k) per group size k | the rank of its set of k sites (after smaller k) |
| `pass` | 1 | 0 |
| `swap` | 1 | 0 |
| `remove` | N | its site |
| `sow` | N | the site sown from |
| `move=Q`, ... (promotions) | N * N each, after the table, by letter | from * N + to |

So on a board of N sites a placement on site s is action s, and in Go (placements and pass)
`pass` is action N. Which kinds a game makes is read from its compiled rules (each move
generator says which kinds it makes); the group sizes of `multi` from its `place-group` forms.
Where the rules do not say, every block of the table is included.

To add a kind of move, append an entry to `BLOCKS` (a function from the game to its `Block`):
entries are never reordered, so the numbers of the existing kinds do not change. A move of a
kind with no entry is refused with `UnknownMoveKind` (a `GameError`).
"""

from __future__ import annotations

import math
import operator
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from dsl.ast import Form, Int, Keyword, ListNode, Node
from dsl.errors import GameError
from interpreter.errors import IllegalMoveError
from stdlib.runtime import Move, notation

if TYPE_CHECKING:
    from interpreter.game import Game, State

Sites = tuple[int, ...]


class UnknownMoveKind(GameError):
    """A move of a kind that has no block in the action table (see `BLOCKS`)."""


# Blocks ---------------------------------------------------------------------------------------


class Block(ABC):
    """The actions of one kind of move: `size` numbers, each standing for one (kind, sites)."""

    kind: str
    size: int

    @abstractmethod
    def index(self, sites: Sites) -> int:
        """The move's number within the block."""

    @abstractmethod
    def sites(self, index: int) -> Sites:
        """The sites of the move numbered `index` within the block."""


@dataclass
class SiteBlock(Block):
    """Moves named by one site (a placement): the site is the number."""

    kind: str
    size: int

    def index(self, sites: Sites) -> int:
        if len(sites) != 1:
            raise GameError(f"a {self.kind} move has one site, not {len(sites)}")
        return sites[0]

    def sites(self, index: int) -> Sites:
        return (index,)


@dataclass
class FirstSiteBlock(Block):
    """Moves written as their first site, though they record more (a sowing records the pit
    sown from and the last pit sown into): the first site is the number."""

    kind: str
    size: int

    def index(self, sites: Sites) -> int:
        return sites[0]

    def sites(self, index: int) -> Sites:
        return (index,)


@dataclass
class OrderedPairBlock(Block):
    """Moves from one site to another: from * N + to."""

    kind: str
    n: int

    @property
    def size(self) -> int:  # type: ignore[override]
        return self.n * self.n

    def index(self, sites: Sites) -> int:
        if len(sites) != 2:
            raise GameError(f"a {self.kind} move has two sites, not {len(sites)}")
        return sites[0] * self.n + sites[1]

    def sites(self, index: int) -> Sites:
        return divmod(index, self.n)


@dataclass
class SetBlock(Block):
    """Moves named by a set of sites (any order), of the sizes in `ks`: one sub-block per size,
    smallest first, each holding the sets of that size by their `rank`."""

    kind: str
    n: int
    ks: tuple[int, ...]

    def __post_init__(self) -> None:
        self.starts: dict[int, int] = {}
        total = 0
        for k in self.ks:
            self.starts[k] = total
            total += math.comb(self.n, k)
        self.total = total

    @property
    def size(self) -> int:  # type: ignore[override]
        return self.total

    def index(self, sites: Sites) -> int:
        start = self.starts.get(len(sites))
        if start is None:
            raise GameError(f"this game's action space has no {self.kind} move of "
                            f"{len(sites)} sites (sizes: {', '.join(map(str, self.ks))})")
        return start + rank(sorted(sites))

    def sites(self, index: int) -> Sites:
        for k in reversed(self.ks):
            if index >= self.starts[k]:
                return unrank(index - self.starts[k], k, self.n)
        raise IndexError(index)


@dataclass
class SingleBlock(Block):
    """A move without sites (pass, swap): one number."""

    kind: str
    size: int = 1

    def index(self, sites: Sites) -> int:
        return 0

    def sites(self, index: int) -> Sites:
        return ()


def rank(sites: Sequence[int]) -> int:
    """The rank of a set of k sites (ascending c0 < c1 < ...) among all sets of k sites, in
    colexicographic order: the sum of C(c_i, i + 1). {0, 1} is 0, {0, 2} is 1, {1, 2} is 2..."""
    return sum(math.comb(c, i + 1) for i, c in enumerate(sites))


def unrank(r: int, k: int, n: int) -> Sites:
    """The set of k sites (of n) with rank r: the inverse of `rank`."""
    out: list[int] = []
    c = n
    for i in range(k, 0, -1):
        c -= 1
        while math.comb(c, i) > r:
            c -= 1
        out.append(c)
        r -= math.comb(c, i)
    return tuple(reversed(out))


def group_sizes(game: Game) -> tuple[int, ...]:
    """The numbers of sites of the `multi` moves a game can make: the sizes of its place-group
    forms (read from the game as expanded with its options)."""
    sizes: set[int] = set()
    for node in _nodes(game.expansion.game):
        if isinstance(node, Form) and node.head == "place-group" and node.args \
                and isinstance(node.args[0], Int):
            sizes.add(node.args[0].value)
    return tuple(sorted(k for k in sizes if 1 <= k <= len(game.sites)))


def _nodes(node: Node) -> Iterator[Node]:
    yield node
    if isinstance(node, Form):
        for child in (*node.args, *node.kwargs):
            yield from _nodes(child)
    elif isinstance(node, ListNode):
        for child in node.items:
            yield from _nodes(child)
    elif isinstance(node, Keyword):
        yield from _nodes(node.value)


def _multi(game: Game) -> Block:
    ks = group_sizes(game)
    return SetBlock("multi", len(game.sites), ks)


# The table: kind -> the game's block of that kind. Append new kinds at the end; never reorder.
BLOCKS: dict[str, Callable[[Game], Block]] = {
    "place": lambda game: SiteBlock("place", len(game.sites)),
    "move": lambda game: OrderedPairBlock("move", len(game.sites)),
    "exchange": lambda game: SetBlock("exchange", len(game.sites), (2,)),
    "multi": _multi,
    "pass": lambda game: SingleBlock("pass"),
    "swap": lambda game: SingleBlock("swap"),
    "remove": lambda game: SiteBlock("remove", len(game.sites)),
    "sow": lambda game: FirstSiteBlock("sow", len(game.sites)),
}
# Moves that promote (`e7-e8=Q`, kind "move=Q"): after the table, a from * N + to block per
# new piece's letter, in the letters' order.
PROMOTION = "move="


def move_kinds(game: Game) -> frozenset[str] | None:
    """The kinds of move a game can make, from its compiled rules (every decision of every
    phase, and `swap` with the pie rule); None when some decision does not say."""
    kinds: set[str] = set()
    for steps in game.turns:
        for is_decision, fn in steps:
            if is_decision:
                theirs = getattr(fn, "kinds", None)
                if theirs is None:
                    return None
                kinds |= theirs
    if game.pie:
        kinds.add("swap")
    return frozenset(kinds)


# The action space -----------------------------------------------------------------------------


class ActionSpace:
    """A game's moves as the integers 0 to `size - 1` (see the module's documentation)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        kinds = move_kinds(game)
        if kinds is not None:
            unknown = sorted(k for k in kinds - BLOCKS.keys() if not k.startswith(PROMOTION))
            if unknown:
                raise UnknownMoveKind(
                    f"{game.name}: no integer actions for moves of kind "
                    f"{', '.join(repr(k) for k in unknown)} yet (interpreter/actions.py, BLOCKS)")
            if "multi" in kinds and not group_sizes(game):
                raise GameError(f"{game.name}: makes moves of several sites, but the action "
                                "space cannot tell how many sites (no place-group form)")
        self.kinds = frozenset(BLOCKS) if kinds is None else kinds
        self.blocks: list[Block] = []
        self.starts: list[int] = []  # the first action of each block
        self.by_kind: dict[str, tuple[int, Block]] = {}
        total = 0
        promotions = sorted(k for k in self.kinds if k.startswith(PROMOTION))
        for kind in [*BLOCKS, *promotions]:
            if kind in self.kinds:
                block = BLOCKS[kind](game) if kind in BLOCKS else \
                    OrderedPairBlock(kind, len(game.sites))
                if block.size:
                    self.blocks.append(block)
                    self.starts.append(total)
                    self.by_kind[kind] = (total, block)
                    total += block.size
        self.size = total
        self._codes: dict[tuple[str, Sites], int] = {}  # move key -> action, as met

    def __repr__(self) -> str:
        parts = ", ".join(f"{b.kind} {start}-{start + b.size - 1}"
                          for start, b in zip(self.starts, self.blocks, strict=True))
        return f"<ActionSpace of {self.game.name}: {self.size} actions ({parts})>"

    def encode(self, move: Move) -> int:
        """The action number of a move (of this game)."""
        key = (move.kind, move.sites)
        code = self._codes.get(key)
        if code is None:
            entry = self.by_kind.get(move.kind)
            if entry is None:
                if move.kind not in BLOCKS:
                    raise UnknownMoveKind(f"{move}: no integer actions for moves of kind "
                                          f"{move.kind!r} yet (interpreter/actions.py, BLOCKS)")
                raise GameError(f"{move}: {self.game.name}'s action space has no {move.kind} "
                                "moves (its rules did not say they make them)")
            start, block = entry
            code = self._codes[key] = start + block.index(move.sites)
        return code

    def key(self, action: int) -> tuple[str, Sites]:
        """The (kind, sites) of the move numbered `action`; IllegalMoveError if there is none."""
        try:
            action = operator.index(action)  # an int, or a NumPy integer
        except TypeError:
            raise IllegalMoveError(f"action {action!r}: an action is an integer") from None
        if not 0 <= action < self.size:
            raise IllegalMoveError(f"action {action}: actions of {self.game.name} are 0 to "
                                   f"{self.size - 1}")
        i = _last_at_most(self.starts, action)
        block = self.blocks[i]
        return block.kind, block.sites(action - self.starts[i])

    def notation(self, action: int) -> str:
        """The move numbered `action` in move notation (`c3`, `c3-d4`, `pass`...)."""
        kind, sites = self.key(action)
        return notation(kind, sites, self.game.sites)

    def decode(self, state: State, action: int) -> Move:
        """The legal move of `state` numbered `action`; IllegalMoveError if it is not legal."""
        kind, sites = self.key(action)
        for move in state.legal_moves():
            if move.kind == kind and self.encode(move) == action:
                return move
        text = notation(kind, sites, self.game.sites)
        if state.is_over:
            raise IllegalMoveError(f"action {action} ({text}): the game is over")
        raise IllegalMoveError(f"action {action} ({text}): "
                               f"{self.game.why_illegal(state, (kind, sites))}")

    def legal_actions(self, state: State) -> list[int]:
        """The legal moves of `state` as actions, ascending."""
        # Placements and moves, the common kinds, are numbered here directly; others by encode.
        place = self.by_kind.get("place", (None,))[0]
        move = self.by_kind.get("move", (None,))[0]
        n = len(self.game.sites)
        encode = self.encode
        out = []
        for m in state.legal_moves():
            kind = m.kind
            if kind == "place" and place is not None:
                out.append(place + m.sites[0])
            elif kind == "move" and move is not None:
                a, b = m.sites
                out.append(move + a * n + b)
            else:
                out.append(encode(m))
        out.sort()
        return out


def _last_at_most(starts: list[int], action: int) -> int:
    """The index of the last block starting at or before `action`."""
    i = len(starts) - 1
    while starts[i] > action:
        i -= 1
    return i


def action_space(game: Game) -> ActionSpace:
    """The game's action space, made once and kept on the game."""
    space: ActionSpace | None = getattr(game, "_action_space", None)
    if space is None:
        space = ActionSpace(game)
        game._action_space = space  # type: ignore[attr-defined]
    return space


def legal_actions(state: State) -> list[int]:
    """`state.legal_actions()`: the legal moves as actions, ascending."""
    return action_space(state.game).legal_actions(state)


def apply_action(state: State, action: int) -> State:
    """`state.apply_action(a)`: the state after the move numbered `action`."""
    return state.game.apply(state, action_space(state.game).decode(state, action))
