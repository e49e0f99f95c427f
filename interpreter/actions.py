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
| (place 7) | N | the first site: a kind written as its first site, recording more |
| `move=Q`, ... (families) | N * N each, after the table, by letter | from * N + to |

So on a board of N sites a placement on site s is action s, and in Go (placements and pass)
`pass` is action N. Which kinds a game makes is read from the rules the game was built with
(each move generator says which kinds it makes); the group sizes of `multi` from its
`place-group` forms.
Where the rules do not say, every block of the table is included.

Each kind registers its block (a factory from the game) and its place in this table with the
kind itself, in the registry of move kinds (stdlib/movekinds.py); `BLOCKS` is the table read
from it. A new kind takes the next free place: places are never changed, so the numbers of the
existing kinds do not change. A family of kinds (promotions: `move=Q`, `move=R`...) comes after
the table, a block per member, in the members' order. A move of a kind with no block is
refused with `UnknownMoveKind` (a `GameError`).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from dsl.errors import GameError
from interpreter.errors import IllegalMoveError
from stdlib.movekinds import (  # noqa: F401  (the blocks, and rank/unrank, are used from here)
    MOVE,
    PLACE,
    Block,
    FirstSiteBlock,
    MoveKind,
    OrderedPairBlock,
    SetBlock,
    SingleBlock,
    SiteBlock,
    kind_of,
    rank,
    unrank,
)
from stdlib.movekinds import (
    move_kinds as registered_kinds,
)
from stdlib.parts import parts_of
from stdlib.runtime import Move, notation

if TYPE_CHECKING:
    from interpreter.game import Game, State

Sites = tuple[int, ...]


class UnknownMoveKind(GameError):
    """A move of a kind that has no block in the action table (see `BLOCKS`)."""


def _factory(kind: MoveKind) -> Callable[[Game], Block]:
    block = kind.block
    assert block is not None
    return lambda game: block(game, kind.name)


# The table: kind -> the game's block of that kind, in the order of the kinds' places (fixed).
BLOCKS: dict[str, Callable[[Game], Block]] = {
    k.name: _factory(k) for k in registered_kinds() if k.block is not None and not k.family}
# The families (a kind per member, `move=Q`), after the table.
FAMILIES: tuple[MoveKind, ...] = tuple(
    k for k in registered_kinds() if k.block is not None and k.family)


def _member(kind: str) -> MoveKind | None:
    """The family a kind belongs to (`move=Q`: promotions), or None."""
    found = kind_of(kind)
    return found if found is not None and found.family and found.block is not None else None


def move_kinds(game: Game) -> frozenset[str] | None:
    """The kinds of move a game can make, from the rules it was built with (every decision of
    every phase, and `swap` with the pie rule); None when some decision does not say."""
    kinds: set[str] = set()
    for steps in game.turns:
        for is_decision, fn in steps:
            if is_decision:
                theirs = parts_of(fn).kinds
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
            unknown = sorted(k for k in kinds - BLOCKS.keys() if _member(k) is None)
            if unknown:
                raise UnknownMoveKind(
                    f"{game.name}: no integer actions for moves of kind "
                    f"{', '.join(repr(k) for k in unknown)} yet (register its block: "
                    "stdlib/movekinds.py)")
        self.kinds = frozenset(BLOCKS) if kinds is None else kinds
        self.blocks: list[Block] = []
        self.starts: list[int] = []  # the first action of each block
        self.by_kind: dict[str, tuple[int, Block]] = {}
        total = 0
        members = [k for family in FAMILIES
                   for k in sorted(k for k in self.kinds if _member(k) is family)]
        for kind in [*BLOCKS, *members]:
            if kind in self.kinds:
                family = _member(kind)
                try:
                    block = BLOCKS[kind](game) if family is None else \
                        family.block(game, kind)  # type: ignore[misc]
                except GameError:
                    if kinds is not None:  # the rules make the kind, and it has no block
                        raise
                    continue  # only perhaps made: no block
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
                if move.kind not in BLOCKS and _member(move.kind) is None:
                    raise UnknownMoveKind(f"{move}: no integer actions for moves of kind "
                                          f"{move.kind!r} yet (register its block: "
                                          "stdlib/movekinds.py)")
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
        moves, codes = self._numbered(state)
        try:
            return moves[codes.index(action)]
        except ValueError:
            pass
        kind, sites = self.key(action)
        text = notation(kind, sites, self.game.sites)
        if state.is_over:
            raise IllegalMoveError(f"action {action} ({text}): the game is over")
        raise IllegalMoveError(f"action {action} ({text}): "
                               f"{self.game.why_illegal(state, (kind, sites))}")

    def legal_actions(self, state: State) -> list[int]:
        """The legal moves of `state` as actions, ascending."""
        return sorted(self._numbered(state)[1])

    def _numbered(self, state: State) -> tuple[Sequence[Move], list[int]]:
        """The legal moves of `state` and their action numbers, in the same order; made once
        per list of legal moves (the state keeps the numbers beside the list, so the
        adapters' legal_actions and apply_action number the moves once). A move keeps its
        number (moves are shared by positions), so it is worked out once per game."""
        if state._moves is None:  # the state's own list, made if need be
            state._moves = state.game.generate(state)
        moves: Sequence[Move] = state._moves
        kept = state._numbered
        if kept is not None and kept[0] is state._moves:
            return moves, kept[1]
        codes = [m.code for m in moves]
        if None in codes:
            codes = [self._number(m) for m in moves]
        state._numbered = (state._moves, codes)  # type: ignore[assignment]
        return moves, codes  # type: ignore[return-value]

    def _number(self, m: Move) -> int:
        """A move's action number, kept on the move."""
        if m.code is None:
            kind = m.kind
            place = self.by_kind.get(PLACE.name)
            move = self.by_kind.get(MOVE.name)
            if kind == PLACE.name and place is not None:
                m.code = place[0] + m.sites[0]
            elif kind == MOVE.name and move is not None:
                a, b = m.sites
                m.code = move[0] + a * len(self.game.sites) + b
            else:
                m.code = self.encode(m)
        return m.code


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
