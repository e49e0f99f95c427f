"""Chains and their liberties, kept by a position move by move: the knowledge behind
(sites Surrounded ...) and its screens.

A chain is a largest set of one role's pieces joined by the adjacency (Go's chains, whatever
the kinds of the pieces); its liberties are the empty sites next to it where a piece may
stand. `Chains` is a tracker (stdlib.runtime.Tracker): a position keeps a `ChainData`, brought
up to date on each change of a real move, so that "which chains have a single liberty", "is
this chain left without one" and "which sites does it hold" are answered without flooding the
board. A chain a change breaks (a piece leaving it) is forgotten and found again, by one
flood, only when asked about.

The data also answers for a board that differs from its position's at a few known sites (a
move being tried out on the position's board, a filter judging a placement): `Overlay` reads
the position's chains and looks again only at what the changed sites touch."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from stdlib.bitboards import set_bits
from stdlib.runtime import EMPTY, Ctx, Env, Tracker

NO_CHAIN = -1  # a site holding no role's piece
UNKNOWN = -2  # a role's piece whose chain is to be found again (see ChainData.find)

Chain = tuple[tuple[int, ...], int, int]  # (its sites, the same as a bitset, its liberties)

_new_data = object.__new__


class ChainData:
    """A position's chains: `cells` the board they describe (the position's own board, kept
    as the tracker last saw it), `chain` per site the id of the chain holding it (the id is one
    of its sites) or NO_CHAIN or UNKNOWN, and `chains` by id. A known chain is always a whole
    chain of `cells`; the pieces of a chain that is not known are all UNKNOWN."""

    __slots__ = ("cells", "chain", "chains", "empty", "crowded", "single", "vague")

    def __init__(self, cells: list[int], chain: list[int], chains: dict[int, Chain],
                 empty: int, crowded: int) -> None:
        self.cells = cells
        self.chain = chain
        self.chains = chains
        self.empty = empty  # the empty sites where a piece may stand, as a bitset
        self.crowded = crowded  # those of them with no such site next to them
        # The known chains with exactly one liberty: id -> that liberty's bit (kept with
        # `chains`, so that the chains in atari are found without looking at every chain).
        self.single: dict[int, int] = {c: libs for c, (_, _, libs) in chains.items()
                                       if libs.bit_count() == 1}
        # May some piece's chain be UNKNOWN? (False once find_all has found them all: then
        # no scan of `chain` is needed to know it.)
        self.vague = UNKNOWN in chain

    def set(self, c: int, known: Chain) -> None:
        """Chain `c` is now `known` (its sites, mask and liberties)."""
        self.chains[c] = known
        libs = known[2]
        if libs and not libs & (libs - 1):
            self.single[c] = libs
        else:
            self.single.pop(c, None)

    def forget(self, c: int) -> Chain:
        """Chain `c` is no longer known (its pieces are to be found again, or gone)."""
        self.single.pop(c, None)
        return self.chains.pop(c)


class Chains(Tracker):
    """The tracker of chains and liberties (see the module) for one adjacency; a game has one
    per adjacency, shared by every ludeme that asks (`chains_of`)."""

    def __init__(self, adjacency: Sequence[Sequence[int]], owner: tuple[int, ...],
                 no_piece: frozenset[int], size: int) -> None:
        self.adjacency = adjacency
        self.owner = owner
        self.size = size
        # Per site: its bit when it may be a liberty (a site where a piece may stand), else 0.
        self.liberty_bit = [0 if s in no_piece else 1 << s for s in range(size)]
        # Per site: the bits of its neighbours that may be liberties.
        self.near_liberties = [sum({self.liberty_bit[t] for t in adjacency[s]})
                               for s in range(size)]
        self.slot = -1  # the position's tracker slot (set by chains_of)

    # The tracker ---------------------------------------------------------------------------
    def build(self, board: list[int]) -> ChainData:
        """Every piece's chain is found when first asked about."""
        owner, liberty_bit, near = self.owner, self.liberty_bit, self.near_liberties
        empty = 0
        for s, v in enumerate(board):
            if v == EMPTY:
                empty |= liberty_bit[s]
        crowded = 0
        for s in range(self.size):
            if empty >> s & 1 and not near[s] & empty:
                crowded |= 1 << s
        return ChainData(list(board), [UNKNOWN if owner[v] >= 0 else NO_CHAIN for v in board],
                         {}, empty, crowded)

    def copy(self, data: ChainData) -> ChainData:
        new = _new_data(ChainData)  # (once per move of the public loop: no __init__ call)
        new.cells, new.chain, new.chains = data.cells[:], data.chain[:], data.chains.copy()
        new.empty, new.crowded, new.single = data.empty, data.crowded, data.single.copy()
        new.vague = data.vague
        return new

    def update(self, data: ChainData, board: list[int], site: int, old: int,
               new: int) -> ChainData:
        owner = self.owner
        role = owner[new]
        if old == EMPTY and role >= 0:
            self._placed(data, site, new, role)
            return data
        cells, chain, chains = data.cells, data.chain, data.chains
        cells[site] = new
        if owner[old] >= 0:  # a piece leaves: its chain is to be found again
            c = chain[site]
            if c >= 0:
                for t in data.forget(c)[0]:
                    chain[t] = UNKNOWN
                data.vague = True
            chain[site] = NO_CHAIN
        bit = self.liberty_bit[site]
        if bit and (old == EMPTY) != (new == EMPTY):  # a liberty is taken or made
            for t in self.adjacency[site]:
                c = chain[t]
                if c >= 0:
                    stones, mask, libs = chains[c]
                    data.set(c, (stones, mask, libs & ~bit if new != EMPTY else libs | bit))
            if new == EMPTY:
                self._emptied(data, site)
            else:
                self._filled(data, site)
        if role >= 0:
            self._join(data, site, role, 0)
        return data

    def _placed(self, data: ChainData, site: int, new: int, role: int) -> None:
        """A piece of `role` put on the empty `site`: the liberty it takes from the chains
        next to it, and the chains of its role it joins (the common change, made short)."""
        cells, chain, chains = data.cells, data.chain, data.chains
        cells[site] = new
        bit = self.liberty_bit[site]
        owner, liberty_bit = self.owner, self.liberty_bit
        # The site is no longer empty: an empty neighbour with no other empty neighbour
        # becomes crowded.
        empty = data.empty & ~bit
        crowded = data.crowded & ~bit
        near_liberties = self.near_liberties
        joined: list[int] = []
        libs = 0
        unknown = False
        for t in self.adjacency[site]:
            v = cells[t]
            if v == EMPTY:
                free = liberty_bit[t]
                libs |= free
                if free and not near_liberties[t] & empty:
                    crowded |= free
                continue
            c = chain[t]
            if owner[v] == role:
                if c == UNKNOWN:
                    unknown = True
                elif c not in joined:
                    joined.append(c)
            elif c >= 0 and bit:
                stones, mask, more = chains[c]
                if more & bit:  # (data.set, written out: the commonest change of all)
                    more &= ~bit
                    chains[c] = (stones, mask, more)
                    if not more:
                        data.single.pop(c, None)
                    elif not more & (more - 1):
                        data.single[c] = more
        data.empty, data.crowded = empty, crowded
        if unknown:  # part of a chain not known: the chain it makes is not known either
            for c in joined:
                for u in data.forget(c)[0]:
                    chain[u] = UNKNOWN
            chain[site] = UNKNOWN
            data.vague = True
            return
        if not joined:
            chain[site] = site
            data.set(site, ((site,), 1 << site, libs))
            return
        if len(joined) == 1:
            keep = joined[0]
            stones, mask, more = chains[keep]
            chain[site] = keep
            data.set(keep, (stones + (site,), mask | 1 << site, (libs | more) & ~bit))
            return
        self._merge(data, site, joined, libs & ~bit)

    def _join(self, data: ChainData, site: int, role: int, libs: int) -> None:
        """The piece of `role` now on `site` joins the chains of its role next to it."""
        cells, chain, owner, liberty_bit = data.cells, data.chain, self.owner, self.liberty_bit
        joined: list[int] = []
        unknown = False
        for t in self.adjacency[site]:
            v = cells[t]
            if v == EMPTY:
                libs |= liberty_bit[t]
            elif owner[v] == role:
                c = chain[t]
                if c == UNKNOWN:
                    unknown = True
                elif c not in joined:
                    joined.append(c)
        if unknown:  # part of a chain not known: the chain it makes is not known either
            for c in joined:
                for u in data.forget(c)[0]:
                    chain[u] = UNKNOWN
            chain[site] = UNKNOWN
            data.vague = True
        elif not joined:
            chain[site] = site
            data.set(site, ((site,), 1 << site, libs))
        else:
            self._merge(data, site, joined, libs)

    def _merge(self, data: ChainData, site: int, joined: list[int], libs: int) -> None:
        """Join the chains `joined` and the piece on `site` (whose liberties, besides
        theirs, are `libs`) into one, known by the largest's id."""
        chain, chains = data.chain, data.chains
        keep = joined[0]
        for c in joined:
            if len(chains[c][0]) > len(chains[keep][0]):
                keep = c
        stones, mask, more = chains[keep]
        libs |= more
        for c in joined:
            if c != keep:
                other, other_mask, other_libs = data.forget(c)
                for u in other:
                    chain[u] = keep
                stones += other
                mask |= other_mask
                libs |= other_libs
        chain[site] = keep
        data.set(keep, (stones + (site,), mask | 1 << site, libs & ~(1 << site)))

    def _filled(self, data: ChainData, site: int) -> None:
        """The empty sites and the crowded ones, after `site` (one that may be a liberty) is
        filled."""
        near_liberties = self.near_liberties
        empty = data.empty & ~(1 << site)
        crowded = data.crowded & ~(1 << site)
        for t in self.adjacency[site]:
            if empty >> t & 1 and not near_liberties[t] & empty:
                crowded |= 1 << t
        data.empty, data.crowded = empty, crowded

    def _emptied(self, data: ChainData, site: int) -> None:
        """The same after `site` (one that may be a liberty) is emptied."""
        near_liberties = self.near_liberties
        empty = data.empty | 1 << site
        crowded = data.crowded & ~near_liberties[site]
        if not near_liberties[site] & empty:
            crowded |= 1 << site
        data.empty, data.crowded = empty, crowded

    # Questions -----------------------------------------------------------------------------
    def find(self, data: ChainData, site: int) -> int:
        """The id of the chain holding `site` (a role's piece), found by one flood of the
        position's board if it is not known."""
        c = data.chain[site]
        if c != UNKNOWN:
            return c
        cells, chain = data.cells, data.chain
        owner, adjacency, liberty_bit = self.owner, self.adjacency, self.liberty_bit
        role = owner[cells[site]]
        stones = [site]
        chain[site] = site
        libs = 0
        for s in stones:
            for t in adjacency[s]:
                v = cells[t]
                if v == EMPTY:
                    libs |= liberty_bit[t]
                elif chain[t] == UNKNOWN and owner[v] == role:
                    chain[t] = site
                    stones.append(t)
        mask = 0
        for s in stones:
            mask |= 1 << s
        data.set(site, (tuple(stones), mask, libs))
        return site

    def find_all(self, data: ChainData) -> dict[int, Chain]:
        """Every chain of the position, found where not known."""
        chain = data.chain
        if data.vague:
            while UNKNOWN in chain:
                self.find(data, chain.index(UNKNOWN))
            data.vague = False
        return data.chains

    def single_liberties(self, data: ChainData, role: int,
                         taken: dict[int, list[int]] | None = None) -> int:
        """The sites that are the only liberty of one of `role`'s chains, as a bitset; with
        `taken`, each such site's chains' sites are added to it (by the site)."""
        if data.vague:
            self.find_all(data)
        cells, owner, chains = data.cells, self.owner, data.chains
        out = 0
        for c, libs in data.single.items():
            if owner[cells[c]] == role:
                out |= libs
                if taken is not None:
                    taken.setdefault(libs.bit_length() - 1, []).extend(chains[c][0])
        return out

    def without_liberty(self, data: ChainData, role: int, starts: Iterable[int],
                        first: bool) -> list[int]:
        """The sites of `role`'s chains through the `starts` that have no liberty on the
        position's board (only those of the first found, if `first`), not in order."""
        cells, owner, chain, chains = data.cells, self.owner, data.chain, data.chains
        out: list[int] = []
        found: list[int] = []
        for s in starts:
            if owner[cells[s]] != role:
                continue
            c = chain[s]
            if c < 0:
                c = self.find(data, s)
            stones, _, libs = chains[c]
            if not libs and c not in found:
                found.append(c)
                out.extend(stones)
                if first:
                    break
        return out

    def data(self, ctx: Ctx) -> ChainData | None:
        """The position's chain data when ctx's board is the position's own (perhaps with
        a move being tried out on it, or a placement being judged), else None."""
        state = ctx.state
        if state is None or ctx.board is not state.board:
            return None
        track = state.track
        if self.slot >= len(track):  # a tracker registered after the position was made
            return None
        data = track[self.slot]
        if data is None:
            if state.trial:  # the board is not the position's: its chains cannot be built
                return None
            data = track[self.slot] = self.build(ctx.board)
        return data  # type: ignore[no-any-return]


def chains_of(env: Env, adjacency: Sequence[Sequence[int]], key: str) -> Chains:
    """The game's chain tracker for an adjacency (`key` names it), registered when first
    asked for."""
    name = f"chains {key}"
    tracker = env.shared.get(name)
    if tracker is None:
        tracker = Chains(adjacency, env.owner, env.no_piece, env.topology.size)
        tracker.slot = len(env.trackers)
        env.track(tracker)
        env.shared[name] = tracker
    return tracker  # type: ignore[no-any-return]


class Overlay:
    """A board that is a position's (whose chains `data` describes) changed at a few sites:
    the liberties of its chains there, read from the position's chains where a change does not
    touch them."""

    __slots__ = ("tracker", "data", "board", "owner", "changed", "filled", "emptied")

    def __init__(self, tracker: Chains, data: ChainData, board: list[int],
                 changed: Iterable[int]) -> None:
        self.tracker, self.data, self.board = tracker, data, board
        self.owner = tracker.owner
        cells = data.cells
        self.changed = 0  # the sites whose value differs from the position's, as a bitset
        self.filled = 0  # those of them that hold something now
        self.emptied: list[int] = []  # those of them that are empty now and may be liberties
        liberty_bit = tracker.liberty_bit
        for s in changed:
            v = board[s]
            if v == cells[s]:
                continue
            self.changed |= 1 << s
            if v != EMPTY:
                self.filled |= 1 << s
            elif liberty_bit[s]:
                self.emptied.append(s)

    @staticmethod
    def over(tracker: Chains, data: ChainData, board: list[int],
             recent: Sequence[int] | None) -> Overlay | None:
        """The overlay of `board` on the position when the board differs from it only at the
        `recent` sites (None: they are not known), else None."""
        cells = data.cells
        if cells == board:
            return Overlay(tracker, data, board, ())
        if recent is None:
            return None
        patched = list(cells)
        for s in recent:
            patched[s] = board[s]
        if patched != board:
            return None
        return Overlay(tracker, data, board, recent)

    def surrounded(self, role: int, starts: Iterable[int], first: bool) -> list[int]:
        """The sites of `role`'s chains through the `starts` that have no liberty on the
        board (only those of the first found, if `first`), not in order."""
        board, owner = self.board, self.owner
        tracker, data = self.tracker, self.data
        adjacency, liberty_bit = tracker.adjacency, tracker.liberty_bit
        chain, chains = data.chain, data.chains
        changed, filled, emptied = self.changed, self.filled, self.emptied
        find = tracker.find
        placed = [s for s in set_bits(filled) if owner[board[s]] == role] if filled else []
        free = 0  # sites of chains found to have a liberty
        done = 0  # sites of chains found without one
        out: list[int] = []
        for start in starts:
            if (free | done) >> start & 1 or owner[board[start]] != role:
                continue
            here = 1 << start  # the sites of the chain found so far
            taken = 0  # those of them looked at
            parts: list[tuple[int, ...]] = []
            stack = [start]
            liberty = False
            while stack:
                s = stack.pop()
                if taken >> s & 1:
                    continue
                c = chain[s]
                if not changed >> s & 1 and c != NO_CHAIN:
                    if c == UNKNOWN:
                        c = find(data, s)
                    stones, mask, libs = chains[c]
                    if not mask & changed:
                        # A whole chain of the position no change broke: its liberties but
                        # those filled, those made next to it, and the pieces placed next to it.
                        here |= mask
                        taken |= mask
                        parts.append(stones)
                        if libs & ~filled or any(
                                chain[t] == c for x in emptied for t in adjacency[x]):
                            liberty = True
                            break
                        for x in placed:
                            if not here >> x & 1 and any(chain[t] == c for t in adjacency[x]):
                                if free >> x & 1:
                                    liberty = True
                                    break
                                here |= 1 << x
                                stack.append(x)
                        if liberty:
                            break
                        continue
                # A changed site, or a piece of a chain a change broke: its neighbours.
                taken |= 1 << s
                parts.append((s,))
                for t in adjacency[s]:
                    v = board[t]
                    if v == EMPTY:
                        if liberty_bit[t]:
                            liberty = True
                            break
                    elif owner[v] == role and not here >> t & 1:
                        if free >> t & 1:
                            liberty = True
                            break
                        here |= 1 << t
                        stack.append(t)
                if liberty:
                    break
            if liberty:
                free |= here
                continue
            done |= here
            for stones in parts:
                out.extend(stones)
            if first:
                return out
        return out


