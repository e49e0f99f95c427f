"""Connectivity: chains of a player's pieces joining regions of the board."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from dsl.ast import Const, Form, Int, Node
from stdlib.chains import Overlay, chains_of
from stdlib.logic import AnyRegion
from stdlib.lowering import Lower, bound_site, keywords, lowers, padded
from stdlib.parts import mark, parts_of
from stdlib.registry import ludeme
from stdlib.runtime import (
    EMPTY,
    Ctx,
    Env,
    Move,
    SiteVerdicts,
    Tracker,
    ends_only,
    reads_of,
    recent_sites,
    with_reads,
)
from stdlib.steps import Changes, MoveScreen, Verdicts
from stdlib.types import Cond, Direction, Link, Region, Regions, Relation, RoleExpr, SiteExpr


@ludeme("connected")
def connected(env: Env, role: RoleExpr, *, regions: Regions | None = None,
              at_least: int | None = None, by: Direction = "Adjacent",
              through: Cond | None = None, via: str | None = None) -> Cond:
    """True when one chain of `role`'s pieces, each adjacent to the next (by the `by:` relation,
    orthogonal on square boards and all six neighbours on hex boards by default), touches
    every one of the regions — or, with at-least:K, K of them (a fork touches three sides, a
    bridge two corners). The regions are by default the sides the role declares with
    sides:{...}. With through:, only pieces on sites where the condition holds (judged with
    Site bound to the site, for the role) count. With via:, each piece is joined to the next
    by an edge of the board's edges of that name that the role holds (a TwixT link), not by
    adjacency (see stdlib/edges.py).

    (if (connected Mover regions:(regions Sides corners:false) at-least:3) (win Mover))"""
    topo = env.topology
    adjacency = topo.neighbours(env.absolute_dirs(by))
    per_role: list[list[frozenset[int]]] = []
    for r, sides in enumerate(env.sides):
        for side in sides:
            if side not in topo.sides:
                env.error(f"role {env.roles[r]} declares side {side}, which this board does "
                          f"not have (its sides: {', '.join(topo.sides)})")
        per_role.append([topo.sides.get(side, frozenset()) for side in sides])
        if regions is None and len(sides) < 2:
            env.error(f"(connected ...) with no regions: needs role {env.roles[r]} to declare "
                      "sides:{...} with two or more sides")
    fixed: list[frozenset[int]] | None = None
    if regions is not None:
        fixed = []
        for reg in regions:
            value = parts_of(reg).static
            if value is None:
                env.error("(connected ... regions:{...}) needs regions that do not change")
                value = frozenset()
            fixed.append(value)
    goal_lists: list[list[frozenset[int]]] = \
        [fixed] * len(env.roles) if fixed is not None else per_role
    if at_least is not None and not 1 <= at_least <= max(len(g) for g in goal_lists):
        env.error(f"at-least:{at_least} needs between 1 and as many regions as are listed")
    masks, needed, starts = connection_goals(goal_lists, at_least, topo.size)

    is_mover = parts_of(role).is_mover
    if via is not None:
        from stdlib.edges import connected_via

        joined = connected_via(env, via, role, is_mover, starts, masks, needed)
        mark(joined).why = "a completed connection"
        return joined

    tracker = groups = kept = None
    if through is None:
        tracker = Groups(adjacency, env.owner, masks, needed, topo.size)
        groups = env.track(tracker)
    elif (site_reads := parts_of(through).reads_site) is not None:
        # The position keeps through:'s verdicts, forgetting them only around changes.
        kept = env.track(SiteVerdicts(site_reads, topo.size, len(env.roles)))

    def test(ctx: Ctx) -> bool:
        r = ctx.mover if is_mover else role(ctx)
        if not needed[r]:
            return False
        board, owner = ctx.board, ctx.owner
        if groups is not None:
            known = groups(ctx)
            if known is not None:
                return tracker.joined(known, board, r)  # type: ignore[union-attr]
            return any_chain(starts[r], adjacency, masks[r], needed[r],
                             lambda s: owner[board[s]] == r)
        saved = ctx.mover, ctx.site
        ctx.mover = r
        verdicts = kept(ctx) if kept is not None else None
        # through:'s verdict per site for r: 1 holds, 0 not, UNKNOWN not judged yet; kept by
        # the position when it can, else only for this test.
        judged = verdicts[r] if verdicts is not None else \
            bytearray([SiteVerdicts.UNKNOWN]) * len(board)
        unknown = SiteVerdicts.UNKNOWN

        def counts(s: int) -> bool:
            if owner[board[s]] != r:
                return False
            verdict = judged[s]
            if verdict == unknown:
                ctx.site = s
                judged[s] = verdict = 1 if through(ctx) else 0  # type: ignore[misc]
            return bool(verdict)

        try:
            return any_chain(starts[r], adjacency, masks[r], needed[r], counts)
        finally:
            ctx.mover, ctx.site = saved
    mark(test).why = "a completed connection"
    return test


def connection_goals(goal_lists: list[list[frozenset[int]]], at_least: int | None, size: int
                     ) -> tuple[list[list[int]], list[int], list[list[int]]]:
    """Per role: for each site, the bit mask of the role's regions it is in; how many of them
    a chain must touch; the sites a search for such a chain starts from."""
    masks = [region_masks(goals, size) for goals in goal_lists]
    needed = [len(goals) if at_least is None else min(at_least, len(goals))
              for goals in goal_lists]
    # Where a search for a chain starts: a chain that must touch every region touches the
    # smallest; otherwise it may start in any of them.
    starts = [sorted(_smallest(goals)) if goals and n == len(goals)
              else [s for s, m in enumerate(role_masks) if m]
              for goals, n, role_masks in zip(goal_lists, needed, masks, strict=True)]
    return masks, needed, starts


def _smallest(regions: list[frozenset[int]]) -> frozenset[int]:
    return min(regions, key=len)


def region_masks(regions: Sequence[Collection[int]], size: int) -> list[int]:
    """For each site, the bit mask of the regions (by their place in the list) it is in."""
    out = [0] * size
    for k, region in enumerate(regions):
        for site in region:
            out[site] |= 1 << k
    return out


def any_chain(starts: Sequence[int], adjacency: Sequence[Sequence[int]], masks: Sequence[int],
               needed: int, counts: Callable[[int], bool]) -> bool:
    """Is there one chain of sites that count (adjacent by the table) touching at least
    `needed` of the regions whose bit masks `masks` gives per site? Each chain is searched
    once, from the first of the `starts` sites it holds (every such chain must hold one)."""
    seen: set[int] = set()
    for start in starts:
        if start in seen or not counts(start):
            continue
        seen.add(start)
        stack = [start]
        touched = 0
        while stack:
            s = stack.pop()
            touched |= masks[s]
            for t in adjacency[s]:
                if t not in seen and counts(t):
                    seen.add(t)
                    stack.append(t)
        if touched.bit_count() >= needed:
            return True
    return False


class Groups(Tracker):
    """Which of each role's pieces are connected (adjacency by the given table), kept by a
    position and brought up to date as pieces are added, with the regions each group touches
    as a bit mask at its root, so that "one chain touches K regions" is known as soon as a
    placement makes it so. A union-find per role; one is dropped, to be built again, when a
    piece of that role leaves the board.

    A role's data is [parent, touched, done]: the union-find parents by site, the regions
    touched by each root's group, and whether some group touches enough of them."""

    def __init__(self, adjacency: Sequence[Sequence[int]], owner: tuple[int, ...],
                 masks: Sequence[Sequence[int]], needed: Sequence[int], size: int) -> None:
        self.adjacency = adjacency
        self.owner = owner
        self.size = size
        self.masks = masks
        self.needed = needed

    def build(self, board: list[int]) -> list[list | None]:
        return [self._build_role(board, r) for r in range(len(self.masks))]

    def _build_role(self, board: list[int], r: int) -> list:
        data: list = [list(range(self.size)), list(self.masks[r]), False]
        owner = self.owner
        for s, v in enumerate(board):
            if owner[v] == r:
                self._add(data, board, r, s)
        return data

    def _add(self, data: list, board: list[int], r: int, site: int) -> None:
        """Join a site holding r's piece to its neighbours' groups, adding up the regions
        they touch at the root. _find is written out: this runs for every piece placed."""
        parent, touched = data[0], data[1]
        owner = self.owner
        root = site
        while parent[root] != root:
            root = parent[root]
        mask = touched[root]
        for t in self.adjacency[site]:
            if owner[board[t]] == r:
                while parent[t] != t:
                    parent[t] = parent[parent[t]]
                    t = parent[t]
                if t != root:
                    parent[t] = root
                    mask |= touched[t]
        touched[root] = mask
        if mask and mask.bit_count() >= self.needed[r]:
            data[2] = True

    def update(self, data: list[list | None], board: list[int], site: int, old: int,
               new: int) -> list[list | None]:
        owner = self.owner
        was, now = owner[old], owner[new]
        if was == now:
            return data
        if was >= 0:
            data[was] = None  # a piece left: rebuild that role's when next asked for
        if now >= 0:
            role_data = data[now]
            if role_data is not None:
                self._add(role_data, board, now, site)
        return data

    def copy(self, data: list[list | None]) -> list[list | None]:
        return [None if d is None else [list(d[0]), list(d[1]), d[2]] for d in data]

    def joined(self, data: list[list | None], board: list[int], r: int) -> bool:
        """Does one group of role r's pieces touch enough of its regions? (`data` is this
        tracker's, for `board`.)"""
        role_data = data[r]
        if role_data is None:
            role_data = data[r] = self._build_role(board, r)
        return bool(role_data[2])


def _find(parent: list[int], x: int) -> int:
    """The root of x, halving the path on the way."""
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


@dataclass(frozen=True)
class LinkSpec:
    """One kind of link (see `link`), with its condition taken apart by what each part reads,
    so that every part is judged where it is cheapest."""

    relation: Callable[[Ctx, int], Collection[int]]
    condition: Callable[[Ctx], bool] | None
    # The parts that read only From (judged once per site the link leads from).
    source: Callable[[Ctx], bool] | None
    # The parts on what To holds, as one table: cells[mover][board value].
    cells: tuple[tuple[bool, ...], ...] | None
    # A region that does not change, which To must be in.
    within: frozenset[int] | None
    # The other parts, judged with To bound.
    rest: Callable[[Ctx], bool] | None
    # The relation, or, when the cells never allow an empty site, only its occupied sites.
    targets: Callable[[Ctx, int], Collection[int]]


@ludeme("link")
def link(env: Env, relation: Relation, *, if_: Cond | None = None) -> Link:
    """One kind of step in a chain: from a site (From) to a site related to it (To), when the
    condition holds.

    (link (sight Adjacent gap:1) if:(and (is Friend From) (is Friend To)))"""
    # The condition's parts (those of an `and`) sorted by what they read: tests of From are
    # judged once per site a chain is at, tests of what To holds become one table, a fixed
    # region To must be in a set; only the rest is called for every related site.
    parts = (parts_of(if_).conjuncts or (if_,)) if if_ is not None else ()
    source: list[Cond] = []
    rest: list[Cond] = []
    holds: list[Callable[[int, int], bool]] = []
    within: frozenset[int] | None = None
    for part in parts:
        cell = parts_of(part).cell  # (variable, holds), see logic.cell_table
        region = parts_of(part).site_in  # (variable, sites), see logic.in_
        if (cell or region or ("",))[0] == "frm":
            source.append(part)
        elif cell is not None and cell[0] == "to":
            holds.append(cell[1])
        elif region is not None and region[0] == "to":
            within = region[1] if within is None else within & region[1]
        else:
            rest.append(part)
    cells = None
    targets = relation
    if holds:
        values = range(len(env.pieces) + 1)
        cells = tuple(tuple(all(h(v, m) for h in holds) for v in values)
                      for m in range(len(env.roles)))
        if not any(row[EMPTY] for row in cells):
            targets = parts_of(relation).occupied or relation
    return LinkSpec(relation, if_, _all(source), cells, within, _all(rest), targets)


def _all(conditions: list[Cond]) -> Cond | None:
    """One condition holding when all of them hold (None for none)."""
    if not conditions:
        return None
    if len(conditions) == 1:
        return conditions[0]
    return lambda ctx: all(c(ctx) for c in conditions)


def _linked(ctx: Ctx, s: int, links: list[LinkSpec], first: bool = False) -> list[int]:
    """The sites one link leads to from s (only the first found, if `first`); ctx.frm and
    ctx.to are used, then restored."""
    out: list[int] = []
    saved = ctx.frm, ctx.to
    ctx.frm = s
    board = ctx.board
    try:
        for lk in links:
            if lk.source is not None and not lk.source(ctx):
                continue
            cells = lk.cells[ctx.mover] if lk.cells is not None else None
            within, rest = lk.within, lk.rest
            for t in lk.targets(ctx, s):
                if cells is not None and not cells[board[t]]:
                    continue
                if within is not None and t not in within:
                    continue
                if rest is not None:
                    ctx.to = t
                    if not rest(ctx):
                        continue
                out.append(t)
                if first:
                    return out
    finally:
        ctx.frm, ctx.to = saved
    return out


@ludeme("reachable")
def reachable(links: list[Link], *, from_: Region, to: Region,
              for_: RoleExpr | None = None) -> Cond:
    """True when a chain of links leads from a site of the `from:` region to a site of the
    `to:` region. Inside the links, Friend and Enemy are judged for the `for:` role (the mover
    by default).

    (reachable {(link (sight Adjacent) if:(is Friend To))}
               from:(sites Special "mine") to:(sites Perimeter) for:Next)"""
    def test(ctx: Ctx) -> bool:
        saved = ctx.mover
        if for_ is not None:
            ctx.mover = for_(ctx)
        try:
            goal = set(to(ctx))
            frontier = list(from_(ctx))
            seen = set(frontier)
            while frontier:
                s = frontier.pop()
                if s in goal:
                    return True
                for t in _linked(ctx, s, links):
                    if t not in seen:
                        seen.add(t)
                        frontier.append(t)
            return False
        finally:
            ctx.mover = saved
    mark(test).why = "a chain of links"
    return test


@ludeme("has-link")
def has_link(site: SiteExpr, *links: Link) -> Cond:
    """True when one of the links leads from the site to some other site.

    (place (sites Empty) if:(has-link To (link (sight Adjacent gap:1) if:(is Friend To))))"""
    def test(ctx: Ctx) -> bool:
        return bool(_linked(ctx, site(ctx), chain, first=True))
    chain = list(links)
    # Judged for a candidate site To: it reads the sites the relations read from there, when
    # the links' conditions read only their ends (which are among those sites, or To itself).
    if parts_of(site).site_var == "to" and all(
            lk.condition is None or ends_only(lk.condition) for lk in chain):
        reads = reads_of(*(lk.relation for lk in chain))
        if reads is not None:
            return with_reads(test, lambda s: reads(s) | {s})
    return test


@ludeme("ring")
def ring(env: Env, role: RoleExpr, *, by: Direction = "Adjacent") -> Cond:
    """True when `role`'s pieces form a ring: a closed chain (each piece adjacent to the next by
    the `by:` relation) around at least one site, whatever that site holds — empty, an enemy
    piece or one of the role's own. A ring may run along the edge of the board, but the sites
    it surrounds cannot reach the edge. For the mover, after a move, only rings through the
    sites it changed are looked for (a ring it had before would have been seen then).

    (if (ring Mover) (win Mover))"""
    chain, escape, edge = ring_relations(env, by)
    is_mover = parts_of(role).is_mover

    def surrounded(board: Sequence[int], owner: Sequence[int], r: int, start: int,
                   escaped: set[int]) -> bool:
        """Is `start` (not r's) cut off from the edge by r's pieces? Sites found to reach the
        edge are added to `escaped`."""
        seen = {start}
        stack = [start]
        while stack:
            s = stack.pop()
            if edge[s] or s in escaped:
                escaped.update(seen)
                return False
            for t in escape[s]:
                if t not in seen and owner[board[t]] != r:
                    seen.add(t)
                    stack.append(t)
        return True

    def walled(board: Sequence[int], owner: Sequence[int], r: int, v: int) -> bool:
        """Is v an inner site whose every neighbour (by the dual relation) holds r's piece?"""
        return not edge[v] and all(owner[board[t]] == r for t in escape[v])

    def through_site(board: Sequence[int], owner: Sequence[int], r: int, s: int) -> bool:
        """Does a ring of r's pieces pass through s (which holds r's piece)?"""
        if sum(1 for t in chain[s] if owner[board[t]] == r) < 2:
            return False
        escaped: set[int] = set()
        for t in escape[s]:
            if owner[board[t]] == r:
                if walled(board, owner, r, t):
                    return True
            elif surrounded(board, owner, r, t, escaped):
                return True
        return walled(board, owner, r, s)

    def anywhere(board: Sequence[int], owner: Sequence[int], r: int) -> bool:
        escaped: set[int] = set()
        for s in range(len(board)):
            if owner[board[s]] == r:
                if walled(board, owner, r, s):
                    return True
            elif s not in escaped and surrounded(board, owner, r, s, escaped):
                return True
        return False

    def test(ctx: Ctx) -> bool:
        r = ctx.mover if is_mover else role(ctx)
        board, owner = ctx.board, ctx.owner
        recent = recent_sites(ctx)
        if recent is None or r != ctx.mover:  # another role's ring may stand from before
            return anywhere(board, owner, r)
        return any(owner[board[s]] == r and through_site(board, owner, r, s) for s in recent)
    mark(test).why = "a ring"
    return test


def ring_relations(env: Env, by: str) -> tuple[tuple[tuple[int, ...], ...],
                                               tuple[tuple[int, ...], ...], list[bool]]:
    """A ring's relations: per site, its neighbours along a ring (by `by`), its neighbours by
    the dual relation (how a surrounded site would escape) and whether it is on the edge."""
    topo = env.topology
    chain_dirs = env.absolute_dirs(by)
    chain = topo.neighbours(chain_dirs)
    # The sites a ring surrounds are cut off from the edge by steps of the dual relation: on
    # a square board a ring of orthogonal steps is crossed diagonally, a ring with diagonal
    # steps only orthogonally; on hex boards both are the six neighbours.
    if topo.diagonal_dirs():
        orthogonal = set(topo.orthogonal_dirs())
        dual = (topo.orthogonal_dirs() + topo.diagonal_dirs()
                if set(chain_dirs) <= orthogonal else topo.orthogonal_dirs())
    else:
        dual = topo.orthogonal_dirs()
    escape = topo.neighbours(dual)
    edge = [len(n) < len(dual) for n in escape]  # a step off the board is possible
    return chain, escape, edge


@ludeme("sites Surrounded")
def sites_surrounded(env: Env, role: RoleExpr, *, by: Direction = "Adjacent") -> Region:
    """The sites of `role`'s pieces in chains (pieces adjacent by the `by:` relation) that
    touch no empty site: chains without a liberty, which Go captures. A special site, where no
    piece ever stands, is no liberty. After a move, only the chains through or next to the
    sites it changed are looked at: only their liberties can have changed.

    (remove (sites Surrounded Next))"""
    return Surrounded(env, role, by)


class Surrounded(AnyRegion):
    """The region of (sites Surrounded ...). On a position's own board, the chains the
    position keeps (stdlib.chains, brought up to date move by move) answer, and its screens
    judge moves from them, also after the changes of the steps before (MoveScreen.then); on a
    board being changed to try a move, a chain is searched only until a liberty is found, the
    sites of chains found free remembered for the rest of the call, so that another start in
    the same chain stops as soon as it reaches one."""

    def __init__(self, env: Env, role: RoleExpr, by: Direction) -> None:
        self.role = role
        dirs = env.absolute_dirs(by)
        self.adjacency = adjacency = env.topology.neighbours(dirs)
        self.no_piece = env.no_piece
        # Per site, the site and its neighbours: where chains a change can affect stand.
        self.near = [(s, *adjacency[s]) for s in range(env.topology.size)]
        # Per site, its neighbours as a bitset.
        self.near_mask = [sum(1 << t for t in set(adjacency[s]))
                          for s in range(env.topology.size)]
        self.tracker = chains_of(env, adjacency, " ".join(dirs))

    def _starts(self, ctx: Ctx) -> Collection[int]:
        recent = recent_sites(ctx)
        if recent is None:
            return range(len(ctx.board))
        if len(recent) == 1:
            return self.near[recent[0]]
        near = self.near
        return {t for s in recent for t in near[s]}  # the chains found do not depend on order

    def _chains(self, ctx: Ctx, first: bool) -> list[int]:
        """The sites of the surrounded chains (only those of the first found, if `first`),
        not in order."""
        tracker = self.tracker
        data = tracker.data(ctx)
        if data is not None and data.cells == ctx.board:  # the position's own board
            return tracker.without_liberty(data, self.role(ctx), self._starts(ctx), first)
        r = self.role(ctx)
        board, owner = ctx.board, ctx.owner
        adjacency, no_piece = self.adjacency, self.no_piece
        seen: set[int] = set()  # sites of r's chains searched so far
        free: set[int] = set()  # sites of those among them found to have a liberty
        out: list[int] = []
        for start in self._starts(ctx):
            if start in seen or owner[board[start]] != r:
                continue
            chain = [start]
            seen.add(start)
            i = 0
            while i < len(chain):
                for t in adjacency[chain[i]]:
                    u = board[t]
                    if u == EMPTY:
                        if t not in no_piece:
                            break  # a liberty
                    elif t in free:
                        break  # part of a chain already found free
                    elif t not in seen and owner[u] == r:
                        seen.add(t)
                        chain.append(t)
                else:
                    i += 1
                    continue
                free.update(chain)
                break
            else:
                out.extend(chain)
                if first:
                    return out
        return out

    def __call__(self, ctx: Ctx) -> list[int]:
        out = self._chains(ctx, False)
        out.sort()
        return out

    def any(self, ctx: Ctx) -> bool:
        return bool(self._chains(ctx, True))

    def screen(self, ctx: Ctx) -> Callable[[Move], bool] | None:
        """Certain for a move that puts one piece on an empty site: the liberties of the
        role's chains before it tell whether a chain next to the site (or through it) is left
        without one. Any other move is not certain (it must be tried)."""
        return _ChainScreen(self, ctx)


class _ChainScreen(MoveScreen):
    """Surrounded's screen on one position: which single placements leave the role's chains
    near the site all with a liberty (and, for all placements at once, which leave one
    without), from the chains of the position (or of the board, when it is no position's)."""

    __slots__ = ("r", "board", "owner", "adjacency", "liberty_bit", "near", "near_mask",
                 "tracker", "data", "taken", "passing")

    def __init__(self, region: Surrounded, ctx: Ctx) -> None:
        self.r = region.role(ctx)
        self.board, self.owner = ctx.board, ctx.owner
        self.adjacency = region.adjacency
        self.near, self.near_mask = region.near, region.near_mask
        self.tracker = tracker = region.tracker
        self.liberty_bit = tracker.liberty_bit
        data = tracker.data(ctx)
        if data is None or data.cells != ctx.board:
            data = tracker.build(ctx.board)  # this board's own chains, found when asked
        self.data = data
        # Once placements of other pieces are judged: per site, the sites of r's chains whose
        # only liberty it is (what a piece put there takes).
        self.taken: dict[int, list[int]] | None = None
        # Once placements of r's pieces are judged: the value, and the empty sites where
        # putting it certainly leaves every chain of r's a liberty (as a bitset).
        self.passing: tuple[int, int] | None = None

    def _liberties(self, site: int) -> int:
        """The liberties of the chain holding `site`, as a bitset."""
        data = self.data
        c = data.chain[site]
        if c < 0:
            c = self.tracker.find(data, site)
        return data.chains[c][2]

    def __call__(self, move: Move) -> bool:
        changes = move.changes
        if len(changes) != 1:
            return False
        site, value = changes[0]
        board, owner, r = self.board, self.owner, self.r
        liberty_bit = self.liberty_bit
        if board[site] != EMPTY or value == EMPTY or not liberty_bit[site]:
            return False
        # Each chain of r's next to the site has it as a liberty. A piece of r joins them
        # into one chain with the site, which has a liberty if the site has an empty
        # neighbour or one of them has another liberty; another piece takes a liberty
        # from each of them, which keeps one only if it had two.
        others = ~(1 << site)
        if owner[value] == r:
            for t in self.adjacency[site]:
                u = board[t]
                if u == EMPTY:
                    if liberty_bit[t]:
                        return True
                elif owner[u] == r and self._liberties(t) & others:
                    return True
            return False
        for t in self.adjacency[site]:
            if owner[board[t]] == r and not self._liberties(t) & others:
                return False
        return True

    def then(self, changes: Changes) -> Changes | None:
        return None if self._after(changes, True) else ()

    def _after(self, changes: Changes, first: bool = False) -> list[int]:
        """The sites_after (below): all of them, or only those of the first chain found."""
        if not changes:
            return []
        board, owner, r = self.board, self.owner, self.r
        site, value = changes[0]
        if board[site] == EMPTY and value != EMPTY:
            # The common shapes: a piece put on an empty site, perhaps with pieces of other
            # roles taken off (a capture).
            if len(changes) == 1 and owner[value] != r:
                taken = self.taken
                if taken is None or not self.liberty_bit[site]:
                    return self._taken(site)
                stones = taken.get(site)
                return sorted(stones) if stones else []
            if owner[value] == r:
                emptied = 0
                liberty_bit = self.liberty_bit
                for s, v in changes[1:]:
                    u = board[s]
                    if v != EMPTY or u == EMPTY or owner[u] == r or s == site:
                        break
                    emptied |= liberty_bit[s]
                else:
                    passing = self.passing
                    if passing is not None and value == passing[0] and passing[1] >> site & 1:
                        # Judged to leave every chain a liberty (placements): taking other
                        # roles' pieces off only frees liberties, so it still does.
                        return []
                    return self._joined(site, emptied)
        after = list(board)
        for s, v in changes:
            after[s] = v
        sites = [s for s, _ in changes]
        near = self.near
        starts = near[sites[0]] if len(sites) == 1 else {t for s in sites for t in near[s]}
        out = Overlay(self.tracker, self.data, after, sites).surrounded(r, starts, first)
        out.sort()
        return out

    # Exact for any changes: the chains of r's through or next to the changed sites that
    # have no liberty after them, from the position's chains and what the changes touch.
    sites_after = _after

    def _joined(self, site: int, emptied: int) -> list[int]:
        """After a piece of r's is put on the empty `site` and pieces of other roles are
        taken off the `emptied` sites (a bitset of those that may be liberties): the sites of
        the chain it joins if that has no liberty (every other chain of r's near the changes
        is next to an emptied site: it has one)."""
        data, board, owner, r = self.data, self.board, self.owner, self.r
        chain, chains, liberty_bit = data.chain, data.chains, self.liberty_bit
        others = ~(1 << site)
        joined: list[int] = []
        for t in self.adjacency[site]:
            u = board[t]
            if u == EMPTY:
                if liberty_bit[t]:
                    return []
            elif emptied >> t & 1:
                return []
            elif owner[u] == r:
                c = chain[t]
                if c < 0:
                    c = self.tracker.find(data, t)
                stones, mask, libs = chains[c]
                if libs & others:
                    return []
                if c not in joined:
                    joined.append(c)
        out = [site]
        if joined:
            if emptied:
                near = self.near_mask
                for c in joined:
                    mask = chains[c][1]
                    e = emptied
                    while e:  # an emptied site next to the chain is a liberty
                        low = e & -e
                        if near[low.bit_length() - 1] & mask:
                            return []
                        e ^= low
            for c in joined:
                out.extend(chains[c][0])
            out.sort()
        return out

    def _taken(self, site: int) -> list[int]:
        """The sites of r's chains next to the empty `site` that have no other liberty."""
        data, board, owner, r = self.data, self.board, self.owner, self.r
        chain, chains = data.chain, data.chains
        others = ~(1 << site)
        out: list[int] = []
        found: list[int] = []
        for t in self.adjacency[site]:
            if owner[board[t]] == r:
                c = chain[t]
                if c < 0:
                    c = self.tracker.find(data, t)
                stones, _, libs = chains[c]
                if not libs & others and c not in found:
                    found.append(c)
                    out.extend(stones)
        out.sort()
        return out

    def placements(self, value: int, sites: Sequence[int]) -> Verdicts | None:
        """Exact for every empty site: as __call__, the region is certainly empty after the
        placement where __call__ is true of it, and certainly not empty elsewhere (a chain
        next to the site, or through it, then has no liberty left)."""
        if value == EMPTY:
            return None
        board, owner, r = self.board, self.owner, self.r
        if owner[value] != r:
            # Another piece leaves a chain of r's next to the site without a liberty exactly
            # when the site is the chain's only liberty.
            self.taken = {}
            some = self.tracker.single_liberties(self.data, r, self.taken)
            return ~some, some
        # A piece of r's on an empty site with an empty neighbour has a liberty; on one
        # without (crowded), it has one if a chain of r's next to it has another (the site
        # is one of its liberties: it has another unless the site is all it has).
        adjacency, data, find = self.adjacency, self.data, self.tracker.find
        chain, chains = data.chain, data.chains
        some = 0
        crowded = data.crowded
        while crowded:
            low = crowded & -crowded
            crowded ^= low
            for t in adjacency[low.bit_length() - 1]:
                u = board[t]
                if u != EMPTY and owner[u] == r:
                    c = chain[t]
                    if c < 0:
                        c = find(data, t)
                    if chains[c][2] != low:
                        break
            else:
                some |= low
        self.passing = (value, ~some)
        return ~some, some


# Kernel lowerings (stdlib/lowering.py) ---------------------------------------------------------


@lowers("sites Surrounded")
def lower_sites_surrounded(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(sites Surrounded role [by:]): the sites of the role's chains without a liberty, in
    order, searched as `Surrounded` searches them: only from the sites the turn changed and
    their neighbours (the whole board when the kernel lost count of them), each chain flooded
    over a neighbour table until a liberty (or a chain already found free) is met. The chain
    is gathered in the caller's buffer itself; the sites seen are stamped in a scratch table
    (per call a new stamp: no clearing, no allocation)."""
    keywords(node, {"by"}, k)
    region = k.compiled(node)
    if not isinstance(region, Surrounded):
        k.refuse(node, "no kernel lowering of this (sites Surrounded) yet")
    adjacency = region.adjacency
    size = len(adjacency)
    nbr = k.table("neighbours", padded(adjacency))
    holds = k.table("may hold a piece",
                    [0 if s in region.no_piece else 1 for s in range(size)])
    # Marks of the sites seen, then the last mark given: state slots, so that every copy of a
    # state (a move tried, a search's node) has its own.
    scratch = k.slot("chain marks", size + 1, lambda state: [0] * (size + 1))
    role = k.lower(args[0], "Role")
    # (One function, the flood written in: a call passing the tables costs more than a search.)
    return k.function("sites_surrounded", f"""
def {{name}}(st, T, mover, to, frm, buf):
    r = {role}
    nb = {nbr}
    holds = {holds}
    mark = st[{scratch}:{scratch} + {size + 1}]
    stamp = mark[N] + 2
    if stamp > 2000000000:
        mark[:N] = 0
        stamp = 2
    mark[N] = stamp
    free = stamp + 1
    changed = st[H_NCHANGED]
    starts = N if changed < 0 else changed
    width = nb.shape[1]
    count = 0
    for i in range(starts):
        c = i if changed < 0 else st[CHANGED + i]
        for j in range(-1, width if changed >= 0 else 0):
            start = c if j < 0 else nb[c, j]
            if start < 0:
                break
            if mark[start] >= stamp or OWNER[st[start]] != r:
                continue
            # The chain through start, gathered in buf from count until a liberty is met.
            mark[start] = stamp
            buf[count] = start
            end = count + 1
            k = count
            liberty = False
            while k < end and not liberty:
                s = buf[k]
                for q in range(width):
                    t = nb[s, q]
                    if t < 0:
                        break
                    u = st[t]
                    if u == 0:
                        if holds[t] == 1:
                            liberty = True
                            break
                    elif mark[t] == free:
                        liberty = True
                        break
                    elif mark[t] != stamp and OWNER[u] == r:
                        mark[t] = stamp
                        buf[end] = t
                        end += 1
                k += 1
            if liberty:
                for q in range(count, end):
                    mark[buf[q]] = free
            else:
                count = end
    if count > 1:
        buf[:count].sort()
    return count
""")


def scratch(k: Lower, name: str, size: int) -> str:
    """The offset of `size` ints of working space a lowering's searches use (marks and a
    stack), followed by one int: the last mark given. Nothing of a position is kept there;
    a mark newer than those of a search's own start stands for "seen" without clearing."""
    return k.slot(name, size + 1, lambda state: [0] * (size + 1))


# A function marking the start of a search: the first of `count` new marks, the marks of
# `size` sites at `marks` cleared when the counter (at `marks + {last}`) nears its end.
NEW_MARKS = """
def {{name}}(st, marks, count):
    last = st[marks + {last}]
    if last > 1000000000 - count:
        for i in range({size}):
            st[marks + i] = 0
        last = 0
    st[marks + {last}] = last + count
    return last + 1
"""


@lowers("connected")
def lower_connected(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(connected role [regions:] [at-least:] [by:] [via:]): as the Groups tracker, a union-find per
    role kept in the state, with the regions each group touches at its root. The state also
    keeps the board the groups were made from; each test brings them up to date with the
    sites that differ from it (pieces added are joined, a piece gone has its role's groups
    made again), so the answer is the board's whatever happened since. With through:, a
    search over the role's pieces where it holds (_lower_connected_through)."""
    given = keywords(node, {"regions", "at-least", "by", "via", "through"}, k)
    env = k.env
    topo = env.topology
    size = topo.size
    by = given.get("by")
    if by is not None and not isinstance(by, Const):
        k.refuse(node, "no kernel lowering of (connected) with this by:")
    adjacency = topo.neighbours(env.absolute_dirs(by.name if by is not None else "Adjacent"))
    at_least_node = given.get("at-least")
    if at_least_node is not None and not isinstance(at_least_node, Int):
        k.refuse(node, "no kernel lowering of (connected) with a computed at-least:")
    at_least = at_least_node.value if isinstance(at_least_node, Int) else None
    if "regions" in given:
        compiled = k.compiled(given["regions"])
        fixed = [parts_of(r).static for r in compiled] if isinstance(compiled, list) else [None]
        goals = [frozenset(f) for f in fixed if f is not None]
        if len(goals) != len(fixed):
            k.refuse(node, "no kernel lowering of (connected) with these regions:")
        goal_lists = [goals] * len(env.roles)
    else:
        goal_lists = [[topo.sides.get(side, frozenset()) for side in sides]
                      for sides in env.sides]
    if max(len(g) for g in goal_lists) > 30:
        k.refuse(node, "no kernel lowering of (connected) with more than 30 regions")
    masks, needed, starts = connection_goals(goal_lists, at_least, size)
    role = k.lower(args[0], "Role")
    if "via" in given:  # chains joined by the role's edges (stdlib/edges.py)
        from stdlib.edges import lower_connected_via

        return lower_connected_via(k, node, given["via"], role, masks, needed, starts)
    if "through" in given:
        return _lower_connected_through(k, given["through"], role, adjacency, masks, needed,
                                        starts)
    adj = k.table("adjacent", padded(adjacency))
    width = max((len(a) for a in adjacency), default=0)
    mask = k.table("region masks", masks)
    need = k.table("regions needed", needed)
    roles = len(env.roles)
    # The board the groups are of (empty at first: the first test adds every piece), then
    # per role: the parents, the regions touched at each root, and 1 if some group touches
    # enough of them (0 not, -1 to be made again).
    per_role = 2 * size + 1

    def encode(state: object) -> list[int]:
        out = [0] * size
        for r in range(roles):
            out += [*range(size), *masks[r], 0]
        return out
    groups = k.slot(f"connected groups {adj} {mask} {need}", size + roles * per_role, encode)
    add = k.function("groups_add", f"""
def {{name}}(st, T, q, site):
    parent = {groups} + {size} + q * {per_role}
    touched = parent + {size}
    root = site
    while st[parent + root] != root:
        root = st[parent + root]
    m = st[touched + root]
    for j in range({width}):
        t = {adj}[site, j]
        if t < 0:
            break
        if OWNER[st[t]] == q:
            while st[parent + t] != t:
                st[parent + t] = st[parent + st[parent + t]]
                t = st[parent + t]
            if t != root:
                st[parent + t] = root
                m |= st[touched + t]
    st[touched + root] = m
    c = 0
    while m:
        m &= m - 1
        c += 1
    if c and c >= {need}[q]:
        st[touched + {size}] = 1
""")
    # Bring site s of the groups' board up to date.
    sync = k.function("groups_sync", f"""
def {{name}}(st, T, s):
    v = st[s]
    old = st[{groups} + s]
    if v == old:
        return
    st[{groups} + s] = v
    was = OWNER[old]
    now = OWNER[v]
    if was == now:
        return
    if was >= 0:
        st[{groups} + {size} + was * {per_role} + {2 * size}] = -1
    if now >= 0 and st[{groups} + {size} + now * {per_role} + {2 * size}] != -1:
        {add}(st, T, now, s)
""")
    return k.function("connected", f"""
def {{name}}(st, T, mover, to, frm):
    r = {role}
    if {need}[r] == 0:
        return False
    # The sites the turn changed first (usually all that differ), then any others.
    k = st[H_NCHANGED]
    for i in range(k):
        {sync}(st, T, st[CHANGED + i])
    d = 0
    for s in range(N):
        d |= st[s] ^ st[{groups} + s]
    if d:
        for s in range(N):
            {sync}(st, T, s)
    data = {groups} + {size} + r * {per_role}
    if st[data + {2 * size}] == -1:
        for s in range({size}):
            st[data + s] = s
            st[data + {size} + s] = {mask}[r, s]
        st[data + {2 * size}] = 0
        for s in range(N):
            if OWNER[st[s]] == r:
                {add}(st, T, r, s)
    return st[data + {2 * size}] == 1
""") + "(st, T, mover, to, frm)"


@lowers("ring")
def lower_ring(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(ring role [by:]): as ring's test — through the sites the turn (or the move being
    judged) changed when the role is the mover's and they are known, anywhere otherwise;
    each search of a site's surroundings gets a mark of its own, and meeting a site marked
    by an earlier search of the same call means reaching the edge (that search failed)."""
    given = keywords(node, {"by"}, k)
    by = given.get("by")
    if by is not None and not isinstance(by, Const):
        k.refuse(node, "no kernel lowering of (ring) with this by:")
    env = k.env
    size = env.topology.size
    chain, escape, edge = ring_relations(env, by.name if by is not None else "Adjacent")
    role = k.lower(args[0], "Role")
    along = k.table("ring steps", padded(chain))
    out = k.table("ring escapes", padded(escape))
    rim = k.table("ring edge", [int(e) for e in edge])
    work = scratch(k, "search", 2 * size)
    new_marks = k.function("new_marks", NEW_MARKS.format(size=size, last=2 * size))
    surrounded = k.function("ring_surrounded", f"""
def {{name}}(st, T, r, start, base, stamp):
    marks = {work}
    stack = {work} + {size}
    if st[marks + start] > base:
        return False
    st[marks + start] = stamp
    st[stack] = start
    top = 1
    while top > 0:
        top -= 1
        s = st[stack + top]
        if {rim}[s]:
            return False
        for j in range({out}.shape[1]):
            t = {out}[s, j]
            if t < 0:
                break
            if OWNER[st[t]] == r:
                continue
            m = st[marks + t]
            if m == stamp:
                continue
            if m > base:
                return False
            st[marks + t] = stamp
            st[stack + top] = t
            top += 1
    return True
""")
    walled = k.function("ring_walled", f"""
def {{name}}(st, T, r, v):
    if {rim}[v]:
        return False
    for j in range({out}.shape[1]):
        t = {out}[v, j]
        if t < 0:
            break
        if OWNER[st[t]] != r:
            return False
    return True
""")
    through = k.function("ring_through", f"""
def {{name}}(st, T, r, s):
    c = 0
    for j in range({along}.shape[1]):
        t = {along}[s, j]
        if t < 0:
            break
        if OWNER[st[t]] == r:
            c += 1
    if c < 2:
        return False
    stamp = {new_marks}(st, {work}, {out}.shape[1])
    base = stamp - 1
    for j in range({out}.shape[1]):
        t = {out}[s, j]
        if t < 0:
            break
        if OWNER[st[t]] == r:
            if {walled}(st, T, r, t):
                return True
        elif {surrounded}(st, T, r, t, base, stamp + j):
            return True
    return {walled}(st, T, r, s)
""")
    return k.function("ring", f"""
def {{name}}(st, T, mover, to, frm):
    r = {role}
    n = st[H_NCHANGED]
    if n >= 0 and r == mover:
        for i in range(n):
            s = st[CHANGED + i]
            if OWNER[st[s]] == r and {through}(st, T, r, s):
                return True
        return False
    stamp = {new_marks}(st, {work}, N)
    base = stamp - 1
    for s in range(N):
        if OWNER[st[s]] == r:
            if {walled}(st, T, r, s):
                return True
        elif {surrounded}(st, T, r, s, base, stamp + s):
            return True
    return False
""") + "(st, T, mover, to, frm)"


def _lower_connected_through(k: Lower, through_node: Node, role: str,
                             adjacency: Sequence[Sequence[int]], masks: list[list[int]],
                             needed: list[int], starts: list[list[int]]) -> str:
    """(connected role through: ...): as the interpreter's any_chain, from each start site
    in turn, over the role's pieces where through: holds (judged with the role as the mover
    and Site bound to the site, each site once per test)."""
    adj = k.table("adjacent", padded(adjacency))
    mask = k.table("region masks", masks)
    need = k.table("regions needed", needed)
    first = k.table("chain starts", padded(starts))
    bound = bound_site(k)
    through = k.lower(through_node, "Boolean")
    counts = k.function("chain_counts", f"""
def {{name}}(st, T, mover, to, frm, s, verdict):
    if OWNER[st[s]] != mover:
        return False
    if verdict[s] < 0:
        {bound} = s
        verdict[s] = 1 if {through} else 0
    return verdict[s] == 1
""")
    return k.function("connected_through", f"""
def {{name}}(st, T, mover, to, frm):
    r = {role}
    if {need}[r] == 0:
        return False
    saved = {bound}
    verdict = np.full(N, -1, np.int8)
    seen = np.zeros(N, np.bool_)
    stack = np.empty(N, np.int32)
    found = False
    i = 0
    while {first}[r, i] != -1 and not found:
        start = {first}[r, i]
        i += 1
        if seen[start] or not {counts}(st, T, r, to, frm, start, verdict):
            continue
        seen[start] = True
        stack[0] = start
        top = 1
        touched = 0
        while top > 0:
            top -= 1
            s = stack[top]
            touched |= {mask}[r, s]
            j = 0
            while {adj}[s, j] != -1:
                t = {adj}[s, j]
                if not seen[t] and {counts}(st, T, r, to, frm, t, verdict):
                    seen[t] = True
                    stack[top] = t
                    top += 1
                j += 1
        bits = 0
        while touched:
            bits += touched & 1
            touched >>= 1
        found = bits >= {need}[r]
    {bound} = saved
    return found
""") + "(st, T, mover, to, frm)"


# Links: (link ...) lowers to a pair, the relation's function `(st, T, s, out) -> n` (see
# stdlib/geometry.py) and the condition's `(st, T, mover, to, frm) -> bool` (None: none),
# judged with From the site a link leads from and To each related site.

@lowers("link")
def lower_link(k: Lower, node: Form, args: tuple[Node, ...]) -> tuple[str, str | None]:
    """(link relation [if:]): the relation's function and the condition's."""
    given = keywords(node, {"if"}, k)
    relation = k.lower(args[0], "Relation")
    if "if" not in given:
        return relation, None
    return relation, k.function("link_allows", f"""
def {{name}}(st, T, mover, to, frm):
    return {k.lower(given["if"], "Boolean")}
""")


def _lower_links(k: Lower, node: Form, links: Sequence[Node]) -> str:
    """Source lines, indented by eight, that push (onto `stack`, marking `seen`) each site
    one of the links leads to from `s` not yet seen, for role `m`; the buffer `out` holds the
    related sites."""
    lines = []
    for link in links:
        if not (isinstance(link, Form) and link.head == "link"):
            k.refuse(node, f"no kernel lowering of ({node.head} ...) with these links")
        relation, allows = k.lower(link, "Link")
        test = "" if allows is None else f" and {allows}(st, T, m, t, s)"
        lines.append(f"""        for i in range({relation}(st, T, s, out)):
            t = out[i]
            if not seen[t]{test}:
                seen[t] = True
                stack[top] = t
                top += 1
""")
    return "".join(lines)


@lowers("reachable")
def lower_reachable(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(reachable {links} from: to: [for:]): a search from the from: sites along the links
    (judged, like the regions, for the for: role) until a to: site is met."""
    from dsl.ast import ListNode

    given = keywords(node, {"from", "to", "for"}, k)
    links = args[0].items if isinstance(args[0], ListNode) else args
    role = k.lower(given["for"], "Role") if "for" in given else "mover"
    start = k.lower(given["from"], "Region")
    goal = k.lower(given["to"], "Region")
    push = _lower_links(k, node, links)
    return k.function("reachable", f"""
def {{name}}(st, T, mover, to, frm):
    m = {role}
    buf = np.empty(N, np.int32)
    goal = np.zeros(N, np.bool_)
    for i in range({goal}(st, T, m, to, frm, buf)):
        goal[buf[i]] = True
    seen = np.zeros(N, np.bool_)
    stack = np.empty(2 * N, np.int32)
    top = 0
    for i in range({start}(st, T, m, to, frm, buf)):
        seen[buf[i]] = True
        stack[top] = buf[i]
        top += 1
    out = np.empty(N, np.int32)
    while top > 0:
        top -= 1
        s = stack[top]
        if goal[s]:
            return True
{push}    return False
""") + "(st, T, mover, to, frm)"


@lowers("has-link")
def lower_has_link(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(has-link site links...): one of the links leads from the site to another."""
    keywords(node, set(), k)
    site = k.lower(args[0], "Site")
    tests = []
    for link in args[1:]:
        relation, allows = k.lower(link, "Link")
        ok = "True" if allows is None else f"{allows}(st, T, mover, out[i], s)"
        tests.append(f"""    for i in range({relation}(st, T, s, out)):
        if {ok}:
            return True
""")
    return k.function("has_link", f"""
def {{name}}(st, T, mover, to, frm):
    s = {site}
    if s < 0:
        return False
    out = np.empty(N, np.int32)
{"".join(tests)}    return False
""") + "(st, T, mover, to, frm)"
