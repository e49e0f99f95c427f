"""What ludemes and the interpreter share at run time: moves, pieces, the compile-time
environment a ludeme is built in, and the evaluation context its closures are called with."""

from __future__ import annotations

import itertools
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from dsl.ast import Span
from dsl.errors import Diagnostic
from stdlib import movekinds
from stdlib.boards import Topology
from stdlib.parts import mark, parts_of

EMPTY = 0  # board value of an empty site
NOBODY = -1  # owner of an empty site
NEUTRAL = -2  # owner of a piece that belongs to no player


class Move:
    """One decision: placing, moving, placing several, exchanging, passing or swapping sides,
    taking a piece off, sowing...

    `kind` and `sites` identify the move (and give its notation); `kind` names an entry of the
    registry of move kinds (stdlib/movekinds.py: notation, integer actions, refusals...).
    `changes` are the (site, new board value) pairs it makes, captures included. Two moves are
    equal when their notation is. (A chance outcome changes no site: its `sites` are the
    values rolled, which its notation writes.)"""

    __slots__ = ("kind", "sites", "changes", "names", "actions", "_changed", "code", "_masks",
                 "_listed")

    def __init__(self, kind: str, sites: tuple[int, ...], changes: tuple[tuple[int, int], ...],
                 names: tuple[str, ...], actions: tuple[Any, ...] = ()) -> None:
        self.kind = kind
        self.sites = sites
        self.changes = changes
        self.names = names
        # Primitive actions besides the site changes (stdlib.steps.Action: setting the dice,
        # using a die...), applied in order after them.
        self.actions = actions
        self._changed: tuple[int, ...] | None = None
        # The move's integer action, once its game's action space has numbered it (a move
        # belongs to one game; see interpreter/actions.py).
        self.code: int | None = None
        self._masks: tuple[int, int] | None = None
        # The listing that last listed it (any-of's token: a move listed twice is one
        # object, told by this mark without a set of ids).
        self._listed: object = None

    def masks(self) -> tuple[int, int]:
        """The sites the move changes and the board values it puts there, each as a bitset
        (worked out once: a screen judging many moves tests them with two ANDs)."""
        masks = self._masks
        if masks is None:
            sites = values = 0
            for s, v in self.changes:
                sites |= 1 << s
                values |= 1 << v
            masks = self._masks = (sites, values)
        return masks

    @property
    def changed(self) -> tuple[int, ...]:
        """The sites the move changes, in the order of `changes`."""
        if self._changed is None:
            self._changed = tuple([s for s, _ in self.changes])
        return self._changed

    @property
    def key(self) -> tuple[str, tuple[int, ...]]:
        return (self.kind, self.sites)

    def __str__(self) -> str:
        return notation(self.kind, self.sites, self.names)

    def __repr__(self) -> str:
        return f"Move({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Move):
            return self.key == other.key
        if isinstance(other, str):
            return str(self) == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.key)


class Listed(Sequence[Move]):
    """Some of a list of moves made once per game (`row`), by their indices in it: the moves
    are shared by every position, so listing them costs no more than listing the indices.
    Used as it is for place-group's moves, one per group of sites."""

    __slots__ = ("indices", "row")

    def __init__(self, indices: Sequence[int], row: list[Move]) -> None:
        self.indices = indices
        self.row = row

    def __len__(self) -> int:
        return len(self.indices)

    def __getitem__(self, i: int) -> Move:  # type: ignore[override]
        return self.row[self.indices[i]]

    def __iter__(self) -> Iterator[Move]:
        return map(self.row.__getitem__, self.indices)


class Placements(Listed):
    """The placements of one board value on each of some sites: `row[site]` is the move
    placing it there (see `Env.placements`), so the indices are the sites."""

    __slots__ = ("value",)

    def __init__(self, sites: Sequence[int], value: int, row: list[Move]) -> None:
        self.indices = sites
        self.row = row
        self.value = value

    @property
    def sites(self) -> Sequence[int]:
        return self.indices


class Chain(Sequence[Move]):
    """Move sequences one after the other, without copying them."""

    __slots__ = ("parts", "_total")

    def __init__(self, parts: list[Sequence[Move]]) -> None:
        self.parts = parts
        self._total = -1  # counted when first asked (a chain is often only taken apart)

    @property
    def total(self) -> int:
        if self._total < 0:
            self._total = sum(map(len, self.parts))
        return self._total

    def __len__(self) -> int:
        return self.total

    def __getitem__(self, i: int) -> Move:  # type: ignore[override]
        if i < 0:
            i += self.total
        for part in self.parts:
            if i < len(part):
                return part[i]
            i -= len(part)
        raise IndexError(i)

    def __iter__(self) -> Iterator[Move]:
        return itertools.chain.from_iterable(self.parts)


def listed(moves: Sequence[Move]) -> list[Move]:
    """The moves as a new list (the same as list(moves), without Python-level iteration
    of a Chain's or Listed's parts)."""
    kind = type(moves)
    if kind is Chain:
        out: list[Move] = []
        for part in moves.parts:  # type: ignore[attr-defined]
            if type(part) is Placements or type(part) is Listed:
                out += map(part.row.__getitem__, part.indices)  # type: ignore[attr-defined]
            else:
                out += part
        return out
    if kind is Placements or kind is Listed:
        return list(map(moves.row.__getitem__, moves.indices))  # type: ignore[attr-defined]
    return list(moves)


MAX_PILE = 255  # the most pieces a pile may hold on one site


def moves_a_piece(kind: str) -> bool:
    """Does a move of this kind take a piece from one site (its first) to another (its
    last)? Plain moves (`c3-d4`) and moves that promote on arrival (`e7-e8=Q`): each kind says
    so in the registry of move kinds (stdlib/movekinds.py)."""
    known = _MOVING.get(kind)
    if known is None:
        known = _MOVING[kind] = movekinds.moves_a_piece(kind)
    return known


_MOVING: dict[str, bool] = {}  # moves_a_piece's answers, by kind (asked once per move)


def notation(kind: str, sites: tuple[int, ...], names: tuple[str, ...]) -> str:
    """A move's notation, as its kind writes it (see stdlib/movekinds.py)."""
    return movekinds.write(kind, sites, names)


def pass_move(names: tuple[str, ...]) -> Move:
    return Move(movekinds.PASS.name, (), (), names)


@dataclass(frozen=True)
class PieceType:
    """A kind of piece: its name, its one-character symbol, and its owner (a role index, or
    NEUTRAL). Its board value is its position in the game's piece list, counted from 1.

    A piece may stand on a terrain piece (`on`, the terrain's board value; 0 for none): such a
    site holds both, written with the piece's symbol, and a piece leaving it leaves the
    terrain behind (a miner on a tile).

    A pile (seeds in a pit) is a piece of its own for each count: the kind declared with
    pile:true is its pile of 1, and piles of 2 to MAX_PILE follow at the end of the piece
    list, with the count as their symbol (see Env.piles)."""

    name: str
    symbol: str
    owner: int
    value: int
    on: int = 0
    count: int = 1  # how many of the piece the site holds: more than 1 for a pile


@dataclass
class Memory:
    """Something a ludeme remembers from one move to the next, kept in the state and written in
    position text under `key`. After each move `update(old_board, new_board, changed, value)`
    gives the new value; `render` writes a value (None: leave the key out) and `parse` reads
    one (raising ValueError with a message on bad text). The value None means nothing is
    remembered."""

    key: str
    update: Callable[[list[int], list[int], tuple[int, ...], Any], Any]
    render: Callable[[Any], str | None]
    parse: Callable[[str], Any]
    # What a value read from text comes to on the position's board with the given player to
    # move (None: it is kept as read), e.g. an en passant square no pawn can use is dropped.
    settle: Callable[[list[int], int, Any], Any] | None = None


class Tracker(ABC):
    """Knowledge about the board that a position keeps up to date move by move (for example
    which pieces are connected), so that a ludeme need not work it out again in every
    position. A position holds one value per tracker, made by `build` when first asked for,
    then changed site by site by `update`; a successor position gets a `copy`."""

    @abstractmethod
    def build(self, board: list[int]) -> Any:
        """The data for a board."""

    @abstractmethod
    def update(self, data: Any, board: list[int], site: int, old: int, new: int) -> Any:
        """The data after `site` changed from `old` to `new` (`board` already shows the new
        value); it may change `data` in place and return it, or return None to have it built
        again when next asked for."""

    @abstractmethod
    def copy(self, data: Any) -> Any:
        """Data a successor position may change without changing this one's."""


class SiteVerdicts(Tracker):
    """The verdicts of a condition judged with Site bound to a site, per role as the mover,
    kept by a position (a bytearray per role: 1 holds, 0 does not, 2 not judged yet). The
    condition must say what it reads (`.reads_site`): a change forgets the verdicts of the
    sites whose judgement reads the changed site."""

    UNKNOWN = 2

    def __init__(self, reads_site: Reads, size: int, roles: int) -> None:
        inverse: list[list[int]] = [[] for _ in range(size)]
        for s in range(size):
            for c in reads_site(s) | {s}:
                inverse[c].append(s)
        self.touched = [tuple(sites) for sites in inverse]
        self.size = size
        self.roles = roles

    def build(self, board: list[int]) -> list[bytearray]:
        return [bytearray([self.UNKNOWN]) * self.size for _ in range(self.roles)]

    def update(self, data: list[bytearray], board: list[int], site: int, old: int, new: int
               ) -> list[bytearray]:
        touched = self.touched[site]
        for verdicts in data:
            for s in touched:
                verdicts[s] = self.UNKNOWN
        return data

    def copy(self, data: list[bytearray]) -> list[bytearray]:
        return [bytearray(verdicts) for verdicts in data]


@dataclass
class Env:
    """The compile-time environment: the board's topology, the roles and the pieces. Ludemes
    that need the board (to precompute regions, rays or windows) receive it as `env`."""

    topology: Topology
    roles: tuple[str, ...]
    pieces: list[PieceType]
    forward: tuple[str | None, ...]
    sides: tuple[tuple[str, ...], ...]
    text: str | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    # The AST span of the form currently being compiled, for errors raised by ludemes.
    span: Span | None = None
    # Special sites (e.g. Mineway's mine): name -> sites, and the sites that hold no piece
    # with the symbol position text shows for them.
    specials: dict[str, frozenset[int]] = field(default_factory=dict)
    special_symbol: dict[int, str] = field(default_factory=dict)
    # Pieces in hand: per role, the supply of its own pieces (0: unlimited, not counted).
    supply: tuple[int, ...] = ()
    # Per role: does a piece taken off the board go back to its hand (reuse:)?
    reuse: tuple[bool, ...] = ()
    # Piles: for each kind declared pile:true (by the board value of its pile of 1), the board
    # value of its pile of each count, indexed by the count (piles[v][0] is EMPTY).
    piles: dict[int, tuple[int, ...]] = field(default_factory=dict)
    # Named regions ((region ...)): name -> owning role (None: everyone's) -> sites.
    regions: dict[str, dict[int | None, tuple[int, ...]]] = field(default_factory=dict)
    # Named tracks (the board's and (track ...)'s): name -> owning role (None: everyone's) ->
    # (the sites in order, whether the track loops back to its start).
    tracks: dict[str, dict[int | None, tuple[tuple[int, ...], bool]]] = field(
        default_factory=dict)
    # What ludemes remember from one move to the next (e.g. a ko-like restriction).
    memories: list[Memory] = field(default_factory=list)
    # What positions keep up to date move by move for ludemes (see Tracker).
    trackers: list[Tracker] = field(default_factory=list)
    # Compile-time structures ludemes share, by name (e.g. the bit layout of the board).
    shared: dict[str, Any] = field(default_factory=dict)
    # Has a role a move other than pass at the start of its turn, on ctx's board? (The game
    # gives it once its rules are compiled; (stuck ...) asks it.)
    can_move: Callable[[Ctx, int], bool] = field(default=lambda ctx, role: True)
    # Does the game read where the last decision moved (LastTo, LastFrom)? Then positions
    # keep it, and position text says it.
    uses_last: bool = False
    # Do positions keep the hashes of the boards they come from ((repeated ...))?
    uses_history: bool = False
    # Do roles have scores ((add-score ...), (score ...))?
    uses_scores: bool = False
    # Does the game read the number of turns played ((turns))? Position text then says it.
    uses_turns: bool = False
    # Does a condition ask whether pieces were captured ((captured))? Turns then count them.
    uses_taken: bool = False
    # Are there dice ((roll ...))? Turns then keep the dice rolled and not yet used.
    uses_dice: bool = False
    # Do some moves carry actions besides their site changes (Move.actions: a drop from a
    # hand...)? Then every move takes the engine's general path.
    uses_actions: bool = False
    # Hands by kind (stdlib/hands.py: captured pieces go to the captor's hand), or None.
    hand_kinds: Any = None
    # Does the game count decisions without a capture ((moves-without-capture))? A move of a
    # piece of one of `quiet_resets` starts the count again too; with `fen_counters` (chess's
    # (halfmove-clock ...)) position text writes it as FEN does (see statefields.MoveCounters).
    uses_quiet: bool = False
    quiet_resets: frozenset[int] = frozenset()
    # Per-position state that ludemes declare, which position text writes and reads (see
    # stdlib/statefields.py), in the order it is written.
    fields: list[Any] = field(default_factory=list)

    def track(self, tracker: Tracker) -> Callable[[Ctx], Any]:
        """Register a tracker; returns a function giving its data for the position a context
        judges, or None while a move is being tried out on the board (or with no position)."""
        slot = len(self.trackers)
        self.trackers.append(tracker)

        def data(ctx: Ctx) -> Any:
            state = ctx.state
            if state is None or state.trial or ctx.board is not state.board:
                return None
            track = state.track
            value = track[slot]
            if value is None:
                value = track[slot] = tracker.build(ctx.board)
            return value
        return data

    @property
    def counted(self) -> tuple[bool, ...]:
        """counted[value]: is this board value a piece counted in its owner's hand (a role's
        own piece, when the role has a supply)?"""
        out = [False]
        for p in self.pieces:
            out.append(p.owner >= 0 and bool(self.supply[p.owner])
                       and self.piece_of(p.owner) == p.value)
        return tuple(out)

    def hands_after(self, hands: tuple[int, ...], board: list[int],
                    changes: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
        """Hands after `changes` on `board`: a counted piece put on the board leaves its
        owner's hand, one taken off the board returns to it (unless its role has
        reuse:false: then only as many as the changes put back down, as when a piece moves
        from one site to another)."""
        counted = self._counted
        owner = self._owner
        new = list(hands)
        for s, v in changes:
            old = board[s]
            if old == v:
                continue
            if counted[v]:
                new[owner[v]] -= 1
            if counted[old]:
                new[owner[old]] += 1
        if not self._all_reuse:
            for r, keep in enumerate(self.reuse):
                if not keep and new[r] > hands[r]:
                    new[r] = hands[r]
        return tuple(new)

    def shortage(self, hands: tuple[int, ...], board: list[int],
                 changes: tuple[tuple[int, int], ...]) -> str | None:
        """Why these changes need more pieces than a hand holds, or None if they do not."""
        after = self.hands_after(hands, board, changes)
        for r, n in enumerate(after):
            if n < 0 <= hands[r]:
                return f"{self.roles[r]} has only {hands[r]} in hand"
        return None

    def seal(self) -> None:
        """Freeze the tables derived from the pieces once they are all declared."""
        self._counted = self.counted
        self._owner = self.owner
        self._all_reuse = all(self.reuse)
        # count_of[value]: how many pieces a site with that board value holds (0 empty);
        # pile_base[value]: the pile of 1 of the value's pile kind (0 if not a pile).
        self.count_of: tuple[int, ...] = (0, *(p.count for p in self.pieces))
        base = [0] * (len(self.pieces) + 1)
        for first, table in self.piles.items():
            for v in table[1:]:
                base[v] = first
        self.pile_base: tuple[int, ...] = tuple(base)
        self._placements: dict[int, list[Move]] = {}
        self._piece_moves: dict[tuple[int, int, int], Move] = {}
        self._touched: dict[tuple[Any, Any], list[tuple[int, ...]]] = {}

    def touched(self, filters: tuple[Any, Any]) -> list[tuple[int, ...]] | None:
        """For a pair of placement filters that both say what they read: for each site c, the
        candidate sites whose verdict a change at c may change (None if they do not say)."""
        table = self._touched.get(filters)
        if table is None:
            reads = reads_of(*(f for f in filters if f is not None))
            if reads is None:
                return None
            size = self.topology.size
            inverse: list[list[int]] = [[] for _ in range(size)]
            for s in range(size):
                for c in reads(s) | {s}:
                    inverse[c].append(s)
            table = self._touched[filters] = [tuple(sites) for sites in inverse]
        return table

    def placements(self, value: int) -> list[Move]:
        """The move placing `value` on each site, by site: made once, shared by all positions
        (moves are immutable)."""
        row = self._placements.get(value)
        if row is None:
            names = self.names
            row = self._placements[value] = [Move("place", (s,), ((s, value),), names)
                                             for s in range(self.topology.size)]
        return row

    def piece_move(self, frm: int, to: int, value: int) -> Move:
        """The move of the piece `value` from `frm` to `to` (leaving behind the terrain it
        stood on): made once per game, shared by all positions (like placements)."""
        key = (frm, to, value)
        move = self._piece_moves.get(key)
        if move is None:
            move = self._piece_moves[key] = Move(
                "move", (frm, to), ((frm, self.left_behind(value)), (to, value)), self.names)
        return move

    @property
    def no_piece(self) -> frozenset[int]:
        """Sites that never hold a piece."""
        return frozenset(self.special_symbol)

    @property
    def names(self) -> tuple[str, ...]:
        return self.topology.names

    def piece_of(self, role: int) -> int:
        """The board value of role's default piece (its first declared piece)."""
        for p in self.pieces:
            if p.owner == role:
                return p.value
        raise KeyError(role)

    def fixed_role(self, role: Callable[[Ctx], int]) -> int:
        """The role an expression names outside play (in a section, the start position): it
        is judged on an empty board with the first role to move."""
        return int(role(Ctx([0] * self.topology.size, 0, None, self, self.owner)))

    # Counts on sites (piles), as the engine's readers and writers of positions see them ----
    def kind_of(self, value: int) -> int:
        """The board value of the kind a board value is (a pile of any count: its pile of
        1; any other piece: itself)."""
        return self.pile_base[value] or value

    def most_of(self, value: int) -> int:
        """The most pieces of a kind (given by its board value) one site may hold."""
        table = self.piles.get(value)
        return len(table) - 1 if table is not None else 1

    def read_cell(self, cell: str, site: str) -> int:
        """The board value a cell of position text stands for (`.`, a piece's symbol, a
        count); ValueError saying why it stands for none."""
        symbols = self.__dict__.get("_cells")
        if symbols is None:
            symbols = self.__dict__["_cells"] = {".": EMPTY,
                                                 **{p.symbol: p.value for p in self.pieces}}
        counted = bool(self.piles)
        if cell == "0" and counted:  # an empty pit may be written as its count too
            return EMPTY
        if cell in symbols:
            return symbols[cell]
        if counted and cell.lstrip("-").isdigit():
            raise ValueError(f"{cell!r} at {site}: a pile holds 1 to {MAX_PILE} "
                             "(. or 0 when empty)")
        known = " ".join(k for k in symbols if not (counted and k.isdigit()))
        known += f" 1-{MAX_PILE} (piles)" if counted else ""
        raise ValueError(f"unknown symbol {cell!r} at {site} (symbols: {known})")

    def pile_value(self, value: int, count: int) -> int | None:
        """The board value of a pile of `count` of the pile kind that `value` is a pile of
        (None if it is not a pile kind or the count is out of range)."""
        table = self.piles.get(self.pile_base[value]) if value else None
        if table is None or not 0 <= count < len(table):
            return None
        return table[count]

    def left_behind(self, value: int) -> int:
        """What a site holds once the piece of board value `value` leaves it."""
        return self.pieces[value - 1].on if value > 0 else EMPTY

    def terrain_of(self, value: int) -> int:
        """The terrain under a placed piece (0 if none): the site must hold it first."""
        return self.pieces[value - 1].on if value > 0 else EMPTY

    @property
    def owner(self) -> tuple[int, ...]:
        """owner[value]: the role owning a board value (NOBODY for empty); once the pieces
        are all declared (seal), the same tuple each time."""
        sealed: tuple[int, ...] | None = self.__dict__.get("_owner")
        if sealed is not None:
            return sealed
        return (NOBODY, *(p.owner for p in self.pieces))

    def error(self, message: str, span: Span | None = None) -> None:
        where = span or self.span
        assert where is not None
        self.diagnostics.append(Diagnostic(where, message))

    def resolve_dirs(self, name: str) -> tuple[str, ...] | Callable[[int], tuple[str, ...]]:
        """A direction constant as the tuple of absolute directions it stands for, or, for
        player-relative ones (Forward, ...), a function of the role."""
        topo = self.topology
        if not name:  # an unknown direction, already reported where it was written
            return ()
        if name in topo.directions:
            return (name,)
        if name == "Orthogonal":
            return topo.orthogonal_dirs()
        if name == "Diagonal":
            dirs = topo.diagonal_dirs()
            if not dirs:
                self.error(f"this {topo.shape} board has no diagonal directions")
            return dirs
        if name == "Adjacent" and topo.shape == "graph":
            return topo.directions  # every line of a board of points joins neighbours
        if name in ("Adjacent", "All"):
            return topo.orthogonal_dirs() + topo.diagonal_dirs() if name == "All" \
                else topo.orthogonal_dirs()
        if name in ("Forward", "Backward", "ForwardDiagonal", "Forwards", "Sideways"):
            if any(f is None for f in self.forward):
                self.error(f"{name} needs every player to declare forward:DIRECTION")
                return ()
            table = {r: _relative(name, f or "N", topo.directions)
                     for r, f in enumerate(self.forward)}
            return lambda role: table[role]
        self.error(f"direction {name} does not exist on this {topo.shape} board "
                   f"(it has {', '.join(topo.directions)})")
        return ()

    def absolute_dirs(self, name: str) -> tuple[str, ...]:
        """Like resolve_dirs, for places where a player-relative direction makes no sense."""
        dirs = self.resolve_dirs(name)
        if callable(dirs):
            self.error(f"{name} is relative to a player and cannot be used here")
            return ()
        return dirs


_COMPASS = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]


def _relative(name: str, forward: str, available: tuple[str, ...]) -> tuple[str, ...]:
    i = _COMPASS.index(forward)

    def turn(k: int) -> str:
        return _COMPASS[(i + k) % 8]

    wanted = {
        "Forward": [turn(0)],
        "Backward": [turn(4)],
        "ForwardDiagonal": [turn(-1), turn(1)],
        "Forwards": [turn(-1), turn(0), turn(1)],
        "Sideways": [turn(-2), turn(2)],
    }[name]
    return tuple(d for d in wanted if d in available)


# Locality. A condition judged for a candidate site (bound to To) may say which sites of the
# board it reads, as `.reads(site) -> frozenset`: its verdict cannot change while those sites
# do not. Placements then keep verdicts from one position to the next and judge again only the
# sites whose reads a move touched. A condition without `.reads` is judged every time.
Reads = Callable[[int], frozenset[int]]
NO_SITES: frozenset[int] = frozenset()


def recent_sites(ctx: Ctx) -> tuple[int, ...] | None:
    """The sites just changed, where a condition judged after a move may look for what is new:
    those of the move being judged (a filter), else those of the last turn (an end condition);
    None when unknown (a position read from text: look everywhere)."""
    return ctx.changed if ctx.changed is not None else ctx.last


def every_move(moves: Callable[[Ctx], Sequence[Move]], ctx: Ctx) -> Sequence[Move]:
    """All of a generator's moves, even when ctx only asks whether a move exists (probe): a
    wrapper that filters the moves afterwards (no-restore, forbid) must not let the generator
    stop at its first, which the filter may refuse."""
    if not ctx.probe:  # (the usual: nothing to put back)
        return moves(ctx)
    ctx.probe = False
    try:
        return moves(ctx)
    finally:
        ctx.probe = True


def reads_nothing(site: int) -> frozenset[int]:
    """For conditions that do not read the board (literals, distances of To)."""
    return NO_SITES


def with_reads(fn: Any, reads: Reads | None) -> Any:
    """Mark `fn` as reading `reads(site)` when judged for a candidate site (None: unknown)."""
    if reads is not None:
        mark(fn).reads = reads
    return fn


def reads_of(*fns: Any, site: bool = False) -> Reads | None:
    """The union of the functions' reads, or None if any of them does not say. (With
    site=True: what they read when judged with Site bound to a site.)"""
    found = [parts_of(f).reads_site if site else parts_of(f).reads for f in fns]
    if any(r is None for r in found):
        return None
    if len(found) == 1:
        return found[0]  # type: ignore[no-any-return]
    return lambda site: frozenset().union(*(r(site) for r in found))  # type: ignore[misc]


def ends_only(*fns: Any) -> bool:
    """Do all these conditions read nothing of the board but the sites bound to To and From?
    (Their parts' `ends_only`; such a condition, used in a link, reads only the link's ends.)"""
    return all(parts_of(f).ends_only for f in fns)


def with_ends(fn: Any, flag: bool) -> Any:
    if flag:
        mark(fn).ends_only = True
    return fn


def like(fn: Any, *others: Any) -> Any:
    """Give a combination of conditions (or numbers) the locality its parts (`others`) share:
    what it reads for a candidate To, what it reads for a site bound to Site, and whether it
    reads only the ends of a link."""
    with_reads(fn, reads_of(*others))
    site_reads = reads_of(*others, site=True)
    if site_reads is not None:
        mark(fn).reads_site = site_reads
    return with_ends(fn, ends_only(*others))


def literal(value: Any) -> Any:
    """A closure giving a fixed value (a literal of the game file, options included), marked
    with the value as its `literal` part so that ludemes can fold it (e.g. an `and` with a
    false part)."""
    fn = constant(lambda ctx: value)
    mark(fn).literal = value
    return fn


def constant(fn: Any) -> Any:
    """Mark a closure that reads nothing of the board (a literal)."""
    given = mark(fn)
    given.reads = given.reads_site = reads_nothing
    given.ends_only = True
    return fn


class Ctx:
    """The context a compiled closure is evaluated in: the board (a list of board values, which
    move generators may change temporarily and restore), the mover, the sites of the move being
    considered (`to`, `frm`), the state it came from, and the environment.

    `explain`, when not None, collects why candidate moves were refused: {move key: reason}.
    `changed` holds the sites a candidate move changes while its filters are judged; `last`
    the sites the previous turn changed (None when unknown, e.g. after `from_text`)."""

    __slots__ = ("board", "mover", "to", "frm", "site", "state", "env", "owner", "explain",
                 "last", "changed", "hands", "probe", "taken", "marks", "admit", "direction")

    def __init__(self, board: list[int], mover: int, state: Any, env: Env,
                 owner: tuple[int, ...]) -> None:
        self.board = board
        self.mover = mover
        self.to = -1
        self.frm = -1
        self.site = -1  # the site a per-site condition is judging (the constant Site)
        # The direction of the move being tried, for expressions that read along it
        # ((pieces-on-line)): "" when none.
        self.direction = ""
        self.state = state
        self.env = env
        self.owner = owner
        self.explain: dict[tuple[str, tuple[int, ...]], str] | None = None
        self.last: tuple[int, ...] | None = None  # sites changed by the last move, if known
        self.changed: tuple[int, ...] | None = None  # sites the move being judged changes
        self.hands: tuple[int, ...] | None = None  # hands, when they differ from state.hands
        # Only asking whether some move exists: generators may stop at the first they find.
        self.probe = False
        # Pieces of other roles taken off the board: in a turn's automatic steps, by the
        # last decision and the steps since; in end conditions, by the turn just played.
        self.taken = 0
        # What the turn's steps have marked since its last decision (see steps.Turn.mark).
        self.marks: frozenset[str] | set[str] = frozenset()
        # While a decision's moves are subject to later (forbid ...) steps: why the engine
        # refuses a move (None: it does not), for generators that choose among alternatives
        # by whether they offer a legal move (first-of).
        self.admit: Callable[[Move], str | None] | None = None
