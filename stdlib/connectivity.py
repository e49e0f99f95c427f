"""Connectivity: chains of a player's pieces joining regions of the board."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from stdlib.registry import ludeme
from stdlib.runtime import EMPTY, Ctx, Env, SiteVerdicts, Tracker, ends_only, reads_of, with_reads
from stdlib.types import Cond, Direction, Link, Region, Relation, RoleExpr, SiteExpr


@ludeme("connected")
def connected(env: Env, role: RoleExpr, *, regions: list[Region] | None = None,
              by: Direction = "Adjacent", through: Cond | None = None) -> Cond:
    """True when a chain of `role`'s pieces, each adjacent to the next (by the `by:` relation,
    orthogonal on square boards and all six neighbours on hex boards by default), touches
    every one of the regions: by default the sides the role declares with sides:{...}. With
    through:, only pieces on sites where the condition holds (judged with Site bound to the
    site, for the role) count.

    (if (connected Mover) (win Mover))"""
    topo = env.topology
    adjacency = topo.neighbours(env.absolute_dirs(by))
    per_role: list[list[frozenset[int]]] = []
    for r, sides in enumerate(env.sides):
        per_role.append([topo.sides.get(side, frozenset()) for side in sides])
        if regions is None and len(sides) < 2:
            env.error(f"(connected ...) with no regions: needs role {env.roles[r]} to declare "
                      "sides:{...} with two or more sides")
    fixed = None
    if regions is not None:
        fixed = []
        for reg in regions:
            value = getattr(reg, "static", None)
            if value is None:
                env.error("(connected ... regions:{...}) needs regions that do not change")
                value = frozenset()
            fixed.append(value)

    tracker = groups = kept = None
    if through is None:
        goal_lists = [fixed] * len(env.roles) if fixed is not None else per_role
        tracker = Groups(adjacency, env.owner, goal_lists, topo.size)
        groups = env.track(tracker)
    elif getattr(through, "reads_site", None) is not None:
        # The position keeps through:'s verdicts, forgetting them only around changes.
        kept = env.track(SiteVerdicts(through.reads_site, topo.size,  # type: ignore[attr-defined]
                                      len(env.roles)))

    is_mover = getattr(role, "is_mover", False)

    def test(ctx: Ctx) -> bool:
        r = ctx.mover if is_mover else role(ctx)
        goals = fixed if fixed is not None else per_role[r]
        if not goals:
            return False
        board, owner = ctx.board, ctx.owner
        if groups is not None:
            known = groups(ctx)
            if known is not None:
                return tracker.joined(known, board, r)  # type: ignore[union-attr]
        if through is None:  # the plain case, written out
            stack = [s for s in goals[0] if owner[board[s]] == r]
            seen = set(stack)
            while stack:
                for t in adjacency[stack.pop()]:
                    if t not in seen and owner[board[t]] == r:
                        seen.add(t)
                        stack.append(t)
            return all(not seen.isdisjoint(g) for g in goals[1:])
        saved = ctx.mover, ctx.site
        ctx.mover = r
        verdicts = kept(ctx) if kept is not None else None
        # through:'s verdict per site for r: 1 holds, 0 not, UNKNOWN not judged yet; kept by
        # the position when it can, else only for this test.
        judged = verdicts[r] if verdicts is not None else \
            bytearray([SiteVerdicts.UNKNOWN]) * len(board)

        def judge(s: int) -> int:
            ctx.site = s
            judged[s] = verdict = 1 if through(ctx) else 0
            return verdict

        unknown = SiteVerdicts.UNKNOWN
        try:
            stack = [s for s in goals[0] if owner[board[s]] == r
                     and (judged[s] if judged[s] != unknown else judge(s))]
            seen = set(stack)
            while stack:
                for t in adjacency[stack.pop()]:
                    if t in seen or owner[board[t]] != r:
                        continue
                    if judged[t] if judged[t] != unknown else judge(t):
                        seen.add(t)
                        stack.append(t)
            return all(not seen.isdisjoint(g) for g in goals[1:])
        finally:
            ctx.mover, ctx.site = saved
    test.why = "a completed connection"  # type: ignore[attr-defined]
    return test


class Groups(Tracker):
    """Which of each role's pieces are connected (adjacency by the given table), kept by a
    position and brought up to date as pieces are added; with a goal node per region, so that
    "these regions are joined" is a question of two roots. A union-find per role; one is
    dropped, to be built again, when a piece of that role leaves the board."""

    def __init__(self, adjacency: Sequence[Sequence[int]], owner: tuple[int, ...],
                 goals: Sequence[Sequence[Collection[int]]], size: int) -> None:
        self.adjacency = adjacency
        self.owner = owner
        self.size = size
        # Per role: for each site, the goal nodes (size + k) of the regions containing it.
        self.goal_nodes: list[list[tuple[int, ...]]] = []
        self.goal_count = [len(g) for g in goals]
        for regions in goals:
            at: list[list[int]] = [[] for _ in range(size)]
            for k, region in enumerate(regions):
                for site in region:
                    at[site].append(size + k)
            self.goal_nodes.append([tuple(nodes) for nodes in at])

    def build(self, board: list[int]) -> list[list[int] | None]:
        return [self._build_role(board, r) for r in range(len(self.goal_nodes))]

    def _build_role(self, board: list[int], r: int) -> list[int]:
        parent = list(range(self.size + self.goal_count[r]))
        owner = self.owner
        for s, v in enumerate(board):
            if owner[v] == r:
                self._join(parent, board, r, s)
        return parent

    def _join(self, parent: list[int], board: list[int], r: int, s: int) -> None:
        """Union s with its neighbours holding r's pieces and with its goal nodes."""
        owner = self.owner
        root = _find(parent, s)
        for t in self.adjacency[s]:
            if owner[board[t]] == r:
                other = _find(parent, t)
                if other != root:
                    parent[other] = root
        for node in self.goal_nodes[r][s]:
            other = _find(parent, node)
            if other != root:
                parent[other] = root

    def update(self, data: list[list[int] | None], board: list[int], site: int, old: int,
               new: int) -> list[list[int] | None]:
        owner = self.owner
        was, now = owner[old], owner[new]
        if was == now:
            return data
        if was >= 0:
            data[was] = None  # a piece left: rebuild that role's when next asked for
        parent = data[now] if now >= 0 else None
        if parent is not None:
            # The new piece's site is a root of its own (the role's structure is rebuilt
            # whenever one of its pieces leaves): hang its neighbours' groups and its goal
            # nodes under it. This is _join for a root, with _find written out: it runs for
            # every piece placed, and calling them cost Hex's fast path about 4% (A/B).
            for t in self.adjacency[site]:
                if owner[board[t]] == now:
                    while parent[t] != t:
                        parent[t] = parent[parent[t]]
                        t = parent[t]
                    parent[t] = site
            for t in self.goal_nodes[now][site]:
                while parent[t] != t:
                    parent[t] = parent[parent[t]]
                    t = parent[t]
                parent[t] = site
        return data

    def copy(self, data: list[list[int] | None]) -> list[list[int] | None]:
        return [None if parent is None else list(parent) for parent in data]

    def joined(self, data: list[list[int] | None], board: list[int], r: int) -> bool:
        """Do role r's pieces join all its regions? (`data` is this tracker's, for `board`.)"""
        parent = data[r]
        if parent is None:
            parent = data[r] = self._build_role(board, r)
        first = size = self.size
        while parent[first] != first:  # _find written out: asked after every move
            first = parent[first]
        for goal in range(size + 1, size + self.goal_count[r]):
            root = goal
            while parent[root] != root:
                root = parent[root]
            if root != first:
                return False
        return True


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
    parts = getattr(if_, "parts", (if_,)) if if_ is not None else ()
    source: list[Cond] = []
    rest: list[Cond] = []
    holds: list[Callable[[int, int], bool]] = []
    within: frozenset[int] | None = None
    for part in parts:
        cell = getattr(part, "cell", None)  # (variable, holds), see logic.cell_table
        region = getattr(part, "site_in", None)  # (variable, sites), see logic.in_
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
            targets = getattr(relation, "occupied", relation)
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
    test.why = "a chain of links"  # type: ignore[attr-defined]
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
    if getattr(site, "site_var", None) == "to" and all(
            lk.condition is None or ends_only(lk.condition) for lk in chain):
        reads = reads_of(*(lk.relation for lk in chain))
        if reads is not None:
            return with_reads(test, lambda s: reads(s) | {s})
    return test
