"""The registry of move kinds: everything the engine and its tools need to know about a kind
of move, registered in one place, next to the ludeme that makes it.

A move's `kind` is a short string ("place", "move", "pass", ...); the ludeme that makes moves
of a new kind registers a `MoveKind` under that name (`register`), saying

- how it is written: its `Syntax` (notation from sites, and text in that syntax read back;
  several kinds share a syntax: a placement, a removal and a sowing are all written as one
  site, `c3`), and whether a legal move of the kind `matches` what was read;
- whether it takes a piece from its first site to its last (`moves_piece`: From/To), and
  whether it declines (`declines`: pass);
- its integer actions: its place in the action table (`order`, never changed once given, so
  that action numbers stay stable) and the factory of its `Block`;
- how `analyze` counts it (`category`), how the playground clicks it (`click`), and how a
  refusal describes it: the `hint` saying how moves of the kind are written, and a `refuse`
  hook that explains why a move is refused when the kind is written or legal.

A *family* of kinds (a promotion, `move=Q`, one kind per new piece's letter) registers under
its prefix ending in `=`; `kind_of("move=Q")` finds it.

The generic kinds — placing, moving, declining, taking the pie — are registered here; the
others beside their ludemes (see `stdlib/moves.py` and `stdlib/sowing.py`)."""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from dsl.errors import GameError

Sites = tuple[int, ...]
Key = tuple[str, Sites]


class NotationError(ValueError):
    """Text that is not move notation for the board (the interpreter reports it as an
    IllegalMoveError)."""


# Blocks of integer actions ----------------------------------------------------------------------


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
    """Moves written as their first site, though they record more (the first site and where
    the move ended): the first site is the number."""

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


# A block factory: the game (an interpreter Game: `sites`, `expansion`) and the concrete kind
# (for a family, e.g. "move=Q") -> the game's block of that kind.
BlockFactory = Callable[[Any, str], Block]


def site_block(game: Any, kind: str) -> Block:
    return SiteBlock(kind, len(game.sites))


def first_site_block(game: Any, kind: str) -> Block:
    return FirstSiteBlock(kind, len(game.sites))


def pair_block(game: Any, kind: str) -> Block:
    return OrderedPairBlock(kind, len(game.sites))


def single_block(game: Any, kind: str) -> Block:
    return SingleBlock(kind)


# Syntaxes ---------------------------------------------------------------------------------------

SiteOf = Callable[[str], int]  # a site's name -> its number (NotationError if there is none)


@dataclass(frozen=True)
class Syntax:
    """One way moves are written (the contract's notation table).

    `write(kind, sites, names)` is the text; `read(text, site_of)` is the (kind, sites) the text
    stands for — the kind that this syntax writes first (a site reads as a placement) — or None
    when the text is not in this syntax; text that is, but is malformed, is a NotationError.
    Syntaxes are tried by ascending `precedence`."""

    name: str
    precedence: int
    write: Callable[[str, Sites, Sequence[str]], str]
    read: Callable[[str, SiteOf], Key | None]


def _write_site(kind: str, sites: Sites, names: Sequence[str]) -> str:
    return names[sites[0]]


def _read_site(text: str, site_of: SiteOf) -> Key | None:
    return "place", (site_of(text),)


def _write_from_to(kind: str, sites: Sites, names: Sequence[str]) -> str:
    return f"{names[sites[0]]}-{names[sites[1]]}"


def _read_from_to(text: str, site_of: SiteOf) -> Key | None:
    if "-" not in text or "=" in text:
        return None
    parts = text.split("-")
    if len(parts) != 2:
        raise NotationError(f"{text}: a move is written from-to, e.g. c3-d4")
    return "move", (site_of(parts[0].strip()), site_of(parts[1].strip()))


def _write_word(kind: str, sites: Sites, names: Sequence[str]) -> str:
    return kind


def _read_word(text: str, site_of: SiteOf) -> Key | None:
    low = text.lower()
    kind = _KINDS.get(low)
    if kind is not None and kind.syntax is WORD:
        return low, ()
    return None


SITE = Syntax("site", 100, _write_site, _read_site)  # c3: read last, whatever is left
FROM_TO = Syntax("from-to", 40, _write_from_to, _read_from_to)  # c3-d4
WORD = Syntax("word", 0, _write_word, _read_word)  # pass, swap: the kind's name


# Refusals ---------------------------------------------------------------------------------------


@dataclass
class Refused:
    """A move that is not legal, as a refusal hook sees it: what was written (`kind`, `sites`:
    the kind its syntax reads as, e.g. "place" for `c3`), the legal moves, the reasons the
    rules gave for moves they refused (by key), and the position."""

    kind: str
    sites: Sites
    moves: Sequence[Any]  # the legal moves (Move)
    explain: Mapping[Key, str]
    board: Sequence[int]
    owner: Sequence[int]  # board value -> owning role
    mover: int
    role: str
    names: Sequence[str]
    specials: Mapping[str, frozenset[int]]  # special sites by name ("the store", ...)
    special_symbol: Mapping[int, str]
    pie: bool

    @property
    def written(self) -> MoveKind | None:
        return kind_of(self.kind)


Refusal = Callable[[Refused], str | None]


# Kinds ------------------------------------------------------------------------------------------


def _exact(kind: str, sites: Sites, written: Key) -> bool:
    return written == (kind, sites)


@dataclass(frozen=True)
class MoveKind:
    """One kind of move (or a family of kinds, when `name` ends with `=`): see the module's
    documentation. `block` is None for a kind without integer actions."""

    name: str
    syntax: Syntax
    category: str  # how `analyze` counts it
    order: int  # its place in the action table: fixed once given (see interpreter/actions.py)
    block: BlockFactory | None
    hint: str | None = None  # how moves of the kind are written, for refusals: "a site (c3)"
    moves_piece: bool = False  # takes a piece from its first site to its last (From, To)
    declines: bool = False  # declines the decision (pass)
    # The page's click: the kind of click ("place": one site, "move": from then to, "multi",
    # "exchange", or a button named like the kind) and how many of the sites are clicked.
    click: str = ""
    clicked: int | None = None  # the first n sites; None: all
    # Does a legal move of this kind (kind, sites) match what was read (the key the syntax
    # gave)? By default only the same key.
    matches: Callable[[str, Sites, Key], bool] = _exact
    # Why a move is refused, when the kind is the one written or has legal moves: a reason, or
    # None to leave it to others.
    refuse: Refusal | None = None
    family: bool = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "family", self.name.endswith("="))

    def write(self, kind: str, sites: Sites, names: Sequence[str]) -> str:
        return self.syntax.write(kind, sites, names)


_KINDS: dict[str, MoveKind] = {}  # by name (a family by its prefix)
_FOUND: dict[str, MoveKind | None] = {}  # kind_of's answers, kept
_SYNTAXES: list[Syntax] = []


def register(kind: MoveKind) -> MoveKind:
    """Add a kind of move to the registry (at import of the module of the ludeme making it)."""
    old = _KINDS.get(kind.name)
    if old is not None and old != kind:
        raise ValueError(f"move kind {kind.name!r} registered twice")
    taken = {k.order: k.name for k in _KINDS.values() if k.block is not None}
    if kind.block is not None and taken.get(kind.order, kind.name) != kind.name:
        raise ValueError(f"move kinds {taken[kind.order]!r} and {kind.name!r} share the action "
                         f"table's place {kind.order}")
    _KINDS[kind.name] = kind
    _FOUND.clear()
    if kind.syntax not in _SYNTAXES:
        _SYNTAXES.append(kind.syntax)
        _SYNTAXES.sort(key=lambda s: s.precedence)
    return kind


def kind_of(name: str) -> MoveKind | None:
    """The registered kind of a move's `kind` string (a family's, for `move=Q`), or None."""
    try:
        return _FOUND[name]
    except KeyError:
        pass
    found = _KINDS.get(name)
    if found is None and "=" in name:
        found = _KINDS.get(name[:name.index("=") + 1])
    _FOUND[name] = found
    return found


def move_kinds() -> list[MoveKind]:
    """Every registered kind, in the order of the action table."""
    return sorted(_KINDS.values(), key=lambda k: k.order)


def syntaxes() -> list[Syntax]:
    """Every syntax some registered kind is written in, in the order they are tried."""
    return list(_SYNTAXES)


def write(kind: str, sites: Sites, names: Sequence[str]) -> str:
    """A move's notation; the kind's name for a kind nobody registered."""
    found = kind_of(kind)
    return kind if found is None else found.syntax.write(kind, sites, names)


def read(text: str, index: Mapping[str, int]) -> Key:
    """The (kind, sites) that text in notation stands for: the kind its syntax reads as (a site
    reads as a placement; see MoveKind.matches for the others written alike). NotationError if
    it is no notation for this board. The text is stripped."""
    whole = text.strip()

    def site_of(token: str) -> int:
        site = index.get(token)
        if site is None:
            site = index.get(token.lower())
        if site is None:
            if not token:
                raise NotationError(f"{whole}: a site name is missing")
            raise NotationError(f"{whole}: no site {token} on this board")
        return site

    for syntax in _SYNTAXES:
        key = syntax.read(whole, site_of)
        if key is not None:
            return key
    raise NotationError(f"{whole}: not move notation")  # pragma: no cover (SITE reads all)


def moves_a_piece(kind: str) -> bool:
    found = kind_of(kind)
    return found is not None and found.moves_piece


def declines(kind: str) -> bool:
    found = kind_of(kind)
    return found is not None and found.declines


# The generic kinds ------------------------------------------------------------------------------


def _special(q: Refused) -> str | None:
    """A piece put on a special site (a store, where no piece ever stands)."""
    last = q.sites[-1]
    if last in q.special_symbol:
        special = [k for k, v in q.specials.items() if last in v]
        return f"{q.names[last]} is the {special[0]}, where no piece ever stands"
    return None


def _refuse_place(q: Refused) -> str | None:
    if q.kind != PLACE.name:
        return None
    if (why := _special(q)) is not None:
        return why
    if q.board[q.sites[0]] != 0:
        return f"{q.names[q.sites[0]]} is occupied"
    return None


def refuse_piece_move(q: Refused) -> str | None:
    """Why a piece may not go from the first written site to the last: not the mover's, or it
    can go elsewhere only. (For every kind that moves a piece.)"""
    names, sites = q.names, q.sites
    frm = sites[0]
    if q.owner[q.board[frm]] != q.mover:
        return f"{names[frm]} holds no piece of {q.role}'s"
    moving = [m for m in q.moves if moves_a_piece(m.kind)]
    if not moving:
        return None
    targets = list(dict.fromkeys(names[m.sites[1]] for m in moving if m.sites[0] == frm))
    if not targets:
        return f"the piece on {names[frm]} cannot move now"
    if sites[1] in [m.sites[1] for m in q.moves if m.sites[:1] == (frm,)]:
        return f"not a promotion {q.role} may choose here"
    return f"the piece on {names[frm]} can move only to {', '.join(targets)}"


def _refuse_move(q: Refused) -> str | None:
    if q.kind != MOVE.name:
        return None
    return _special(q) or refuse_piece_move(q)


def _refuse_pass(q: Refused) -> str | None:
    if q.kind != PASS.name:
        return None
    return f"passing is not allowed while there are other moves ({len(q.moves)} legal)"


def _refuse_swap(q: Refused) -> str | None:
    if q.kind != SWAP.name:
        return None
    if not q.pie:
        return "this game has no pie rule"
    return "swap is allowed only as the second player's first move"


# The action table's places: 0 place, 1 move, 2 exchange, 3 multi, 4 pass, 5 swap, 6 remove,
# 7 sow; families (promotions) after every kind, at 1000 and on. A new kind takes the next
# free place; a place once given never changes.
PLACE = register(MoveKind("place", SITE, "place", 0, site_block, hint="a site (c3)",
                          click="place", refuse=_refuse_place))
MOVE = register(MoveKind("move", FROM_TO, "move", 1, pair_block, hint="from-to (c3-d4)",
                         moves_piece=True, click="move", refuse=_refuse_move))
PASS = register(MoveKind("pass", WORD, "pass", 4, single_block, declines=True, click="pass",
                         refuse=_refuse_pass))
SWAP = register(MoveKind("swap", WORD, "swap", 5, single_block, click="swap",
                         refuse=_refuse_swap))


def written_as_site(kind: str, sites: Sites, written: Key) -> bool:
    """A move of one site written as that site (a placement's syntax): a removal, a group of
    one site."""
    return written == (PLACE.name, sites)


def written_as_first_site(kind: str, sites: Sites, written: Key) -> bool:
    """A move written as its first site (a placement's syntax), though it records more; or
    given by its kind and first site (as an integer action gives it)."""
    return written[0] in (PLACE.name, kind) and sites[:1] == written[1][:1]

