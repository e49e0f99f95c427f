"""Move generators: what a player may do. Each returns a closure ctx -> list of Move.

Filters: `if:` must hold and `unless:` must not hold *after* the move is made (with To and
From bound to the move's sites), so a filter can look at the position the move creates, e.g.
`unless:(forms Crosscut)`. When a move is refused, the filter's description becomes the
reason an `IllegalMoveError` gives."""

from __future__ import annotations

import bisect
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace
from itertools import compress
from typing import Any

from dsl.ast import Const, Form, Int, Keyword, ListNode, Node, Str
from dsl.errors import GameError
from stdlib.budget import MAX_GROUPS, Budget
from stdlib.lowering import Alternatives, Generator, Lower, keywords, left_behind_table, lowers
from stdlib.movekinds import (
    MOVE,
    SITE,
    Block,
    Key,
    MoveKind,
    NotationError,
    Refused,
    SetBlock,
    SiteOf,
    Sites,
    Syntax,
    kind_of,
    pair_block,
    refuse_piece_move,
    register,
    site_block,
    written_as_site,
)
from stdlib.parts import mark, parts_of
from stdlib.registry import ludeme
from stdlib.runtime import (
    EMPTY,
    NEUTRAL,
    Chain,
    Ctx,
    Env,
    Listed,
    Move,
    Placements,
    Tracker,
    every_move,
    moves_a_piece,
    pass_move,
)
from stdlib.types import Capture, CellKind, Cond, Direction, Moves, Pattern, Region

Filter = Callable[[Ctx], bool] | None


# The kinds of move made here besides placing and moving (see stdlib/movekinds.py) -----------

def _write_sites(kind: str, sites: Sites, names: Sequence[str]) -> str:
    return ",".join(names[s] for s in sites)


def _read_sites(text: str, site_of: SiteOf) -> Key | None:
    if "," not in text:
        return None
    sites = [site_of(p.strip()) for p in text.split(",")]
    if len(set(sites)) != len(sites):
        raise NotationError(f"{text}: the same site is named twice")
    return "multi", tuple(sorted(sites))


def _write_exchange(kind: str, sites: Sites, names: Sequence[str]) -> str:
    return f"{names[sites[0]]}<>{names[sites[1]]}"


def _read_exchange(text: str, site_of: SiteOf) -> Key | None:
    if "<>" not in text:
        return None
    parts = text.split("<>")
    if len(parts) != 2:
        raise NotationError(f"{text}: an exchange is written a<>b")
    a, b = (site_of(p.strip()) for p in parts)
    if a == b:
        raise NotationError(f"{text}: an exchange needs two different sites")
    return "exchange", tuple(sorted((a, b)))


def _write_promotion(kind: str, sites: Sites, names: Sequence[str]) -> str:
    return f"{names[sites[0]]}-{names[sites[1]]}{kind[len(PROMOTION_PREFIX) - 1:]}"


def _read_promotion(text: str, site_of: SiteOf) -> Key | None:
    if "-" not in text or "=" not in text:
        return None
    body, _, promoted = text.partition("=")
    parts = body.split("-")
    if len(parts) != 2:
        raise NotationError(f"{text}: a move is written from-to, e.g. c3-d4")
    a, b = (site_of(p.strip()) for p in parts)
    letter = promoted.strip()  # the piece's letter, either case
    if len(letter) != 1 or not letter.isalpha():
        raise NotationError(f"{text}: a promotion is written with the new piece's letter, "
                            "e.g. e7-e8=Q")
    return f"{PROMOTION_PREFIX}{letter.upper()}", (a, b)


def _refuse_take(q: Refused) -> str | None:
    """A removal is written as its site: why that site may not be taken; written otherwise,
    when removals are all the mover may do, say so."""
    names, role = q.names, q.role
    if q.written is None or q.written.syntax is not SITE:
        if q.moves and all(kind_of(m.kind) is REMOVE for m in q.moves):
            return (f"{role} must take a piece now: write its site "
                    f"(e.g. {names[q.moves[0].sites[0]]})")
        return None
    site = q.sites[0]
    if q.board[site] == EMPTY:
        return f"there is no piece on {names[site]} to take"
    return f"the piece on {names[site]} may not be taken now"


def _refuse_promotion(q: Refused) -> str | None:
    """Written without the new piece where it promotes, or with one where it does not."""
    names, (a, b) = q.names, (q.sites + (-1, -1))[:2]
    if q.written is not PROMOTION:
        if q.kind == MOVE.name and any(kind_of(m.kind) is PROMOTION and m.sites == q.sites
                                       for m in q.moves):
            return f"{names[a]}-{names[b]} promotes: say to what, e.g. {names[a]}-{names[b]}=Q"
        return None
    if q.owner[q.board[a]] == q.mover and any(m.kind == MOVE.name and m.sites == q.sites
                                              for m in q.moves):
        return f"{names[a]}-{names[b]} does not promote"
    return refuse_piece_move(q)


def _multi_block(game: Any, kind: str) -> Block:
    ks = group_sizes(game)
    if not ks:
        raise GameError(f"{game.name}: makes moves of several sites, but the action space "
                        "cannot tell how many sites (no place-group form)")
    return SetBlock(kind, len(game.sites), ks)


def group_sizes(game: Any) -> tuple[int, ...]:
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


def _pair_set_block(game: Any, kind: str) -> Block:
    return SetBlock(kind, len(game.sites), (2,))


def _multi_matches(kind: str, sites: Sites, written: Key) -> bool:
    return written == (kind, sites) or written_as_site(kind, sites, written)


# Several placements in one move (place-group): `c3,c4`, any order; a group of one site is
# written as that site.
MULTI = register(MoveKind("multi", Syntax("sites", 20, _write_sites, _read_sites), "multi", 3,
                          _multi_block, hint="sites joined by ',' (c3,c4)", click="multi",
                          matches=_multi_matches))
# Exchanging the contents of two sites: `e5<>f5`, either order.
EXCHANGE = register(MoveKind("exchange", Syntax("exchange", 10, _write_exchange, _read_exchange),
                             "exchange", 2, _pair_set_block, hint="a<>b (e5<>f5)",
                             click="exchange"))
# A chosen capture (take): written as its site, like a placement.
REMOVE = register(MoveKind("remove", SITE, "remove", 6, site_block, hint="a site (c3)",
                           click="place", clicked=1, matches=written_as_site,
                           refuse=_refuse_take))
# A move that promotes on arrival (promoting), one kind per new piece's letter: `e7-e8=Q`,
# kind "move=Q". Its integer actions come after every other kind's, a from * N + to block
# per letter, in the letters' order.
PROMOTION_PREFIX = "move="
PROMOTION = register(MoveKind(PROMOTION_PREFIX, Syntax("promotion", 30, _write_promotion,
                                                       _read_promotion),
                              "promotion", 1000, pair_block, hint="from-to (c3-d4)",
                              moves_piece=True, click="move", refuse=_refuse_promotion))


def refusal(condition: Callable[[Ctx], bool], held: bool) -> str:
    """Why a filter refused a move: `held` says whether the condition held (for `unless:`)."""
    given = parts_of(condition)
    if held:
        return given.why or f"{given.source or 'a condition'} holds"
    return given.why_not or f"{given.source or 'a condition'} does not hold"


def accept(ctx: Ctx, move: Move, to: int, frm: int, if_: Filter, unless: Filter,
           out: list[Move], from_hand: bool = True) -> None:
    """Append `move` to `out` if the filters allow it, judged on the board after the move, and
    if the mover's hand holds the pieces it puts down (in games that count them). A move that
    takes no piece from hand (from_hand=False: a piece going from one site to another, which
    may at most send a captured piece back to its owner's hand) is not checked."""
    state = ctx.state
    if from_hand and state is not None and state.hands:
        short = ctx.env.shortage(state.hands, ctx.board, move.changes)
        if short is not None:
            if ctx.explain is not None:
                ctx.explain.setdefault(move.key, short)
            return
    if if_ is None and unless is None:
        out.append(move)
        return
    reason = judge(ctx, move.changes, to, frm, if_, unless)
    if reason is None:
        out.append(move)
    elif ctx.explain is not None:
        ctx.explain.setdefault(move.key, reason)


def judge(ctx: Ctx, changes: tuple[tuple[int, int], ...], to: int, frm: int, if_: Filter,
          unless: Filter) -> str | None:
    """Why the filters refuse a move making `changes`, judged on the board after it (with To
    and From bound), or None if they allow it. The board is always restored."""
    board = ctx.board
    undo = [(s, board[s]) for s, _ in changes]
    state = ctx.state
    if state is not None:
        state.trial += 1  # the board is not the position's for now (see Env.track)
    try:
        for s, v in changes:
            board[s] = v
        ctx.to, ctx.frm = to, frm
        ctx.changed = tuple(s for s, _ in changes)
        if if_ is not None and not if_(ctx):
            return refusal(if_, held=False)
        if unless is not None and unless(ctx):
            return refusal(unless, held=True)
        return None
    finally:
        for s, v in reversed(undo):
            board[s] = v
        ctx.changed = None
        if state is not None:
            state.trial -= 1


def kinded(generate: Moves, *kinds: str | Moves) -> Moves:
    """Mark a generator with the kinds of move it can make ("place", "move", ...), given
    directly or as those of other generators; unknown if any of those is unknown. (any-of uses
    this to skip looking for duplicates between alternatives that cannot share a move.)"""
    found: set[str] = set()
    for k in kinds:
        if isinstance(k, str):
            found.add(k)
        else:
            theirs = parts_of(k).kinds
            if theirs is None:
                return generate
            found |= theirs
    mark(generate).kinds = frozenset(found)
    return generate


def placements(ctx: Ctx, sites: Sequence[int], value: int) -> Sequence[Move]:
    """Placements of `value` on each of the sites (all empty), or none if the mover's hand
    lacks the piece (in games that count them)."""
    state = ctx.state
    if sites and state is not None and state.hands:
        # Every placement puts down one piece of the same kind: one check serves all.
        short = ctx.env.shortage(state.hands, ctx.board, ((sites[0], value),))
        if short is not None:
            if ctx.explain is not None:
                for s in sites:
                    ctx.explain.setdefault(("place", (s,)), short)
            return []
    return Placements(sites, value, ctx.env.placements(value))


def allowed_placements(ctx: Ctx, candidates: Sequence[Move], if_: Filter, unless: Filter,
                       at_once: AtOnce | None = None) -> Sequence[Move]:
    """The placements among `candidates` (a Placements) that the filters allow; judge(),
    written out for the one-site change every placement makes. `at_once` (see
    judged_at_once) judges them all at once when no refusal is being explained."""
    if not candidates or (if_ is None and unless is None):
        return candidates
    assert isinstance(candidates, Placements)
    board, value = ctx.board, candidates.value
    explain = ctx.explain
    if explain is None and at_once is not None:
        allowed = at_once(ctx, candidates)
        if allowed is not None:
            return allowed
    # Verdicts kept by the state for filters that say what they read (see runtime.Reads):
    # site -> reason for refusing, "" when allowed.
    state = ctx.state
    known: dict[int, str] | None = None
    if state is not None and ctx.board is state.board and ctx.changed is None \
            and not state.trial and ctx.env.touched((if_, unless)) is not None:
        known = state.verdicts.setdefault((if_, unless, ctx.mover, value), {})
    kept: list[int] = []
    if state is not None:
        state.trial += 1  # the board is not the position's for now (see Env.track)
    try:
        for s in candidates.sites:
            reason = known.get(s) if known is not None else None
            if reason is None:
                board[s] = value
                ctx.to = s
                ctx.changed = (s,)
                if if_ is not None and not if_(ctx):
                    reason = refusal(if_, held=False)
                elif unless is not None and unless(ctx):
                    reason = refusal(unless, held=True)
                else:
                    reason = ""
                board[s] = EMPTY
                if known is not None:
                    known[s] = reason
            if not reason:
                kept.append(s)
                if ctx.probe:
                    break
            elif explain is not None:
                explain.setdefault(("place", (s,)), reason)
    finally:
        ctx.changed = None
        for s in candidates.sites:
            board[s] = EMPTY
        if state is not None:
            state.trial -= 1
    return Placements(kept, value, candidates.row)


AtOnce = Callable[[Ctx, Placements], Placements | None]


def judged_at_once(if_: Filter, unless: Filter) -> AtOnce | None:
    """When every filter given can judge all sites at once (it has `.placed(ctx, value)`,
    the sites where it holds for a piece placed there, or None when it cannot tell now): a
    function giving the placements among some candidates that the filters allow, or None when
    a filter cannot tell now. Otherwise None. Made once, when the rules are compiled."""
    if if_ is None and unless is None:
        return None
    holds = parts_of(if_).placed
    refuses = parts_of(unless).placed
    if (if_ is not None and holds is None) or (unless is not None and refuses is None):
        return None

    def allowed(ctx: Ctx, candidates: Placements) -> Placements | None:
        value, sites = candidates.value, candidates.sites
        if holds is not None:
            wanted = holds(ctx, value)
            if wanted is None:
                return None
            sites = [s for s in sites if s in wanted]
        if refuses is not None:
            refused = refuses(ctx, value)
            if refused is None:
                return None
            if refused:
                sites = [s for s in sites if s not in refused]
        if ctx.probe:
            sites = sites[:1]
        return Placements(sites, value, candidates.row)
    return allowed


def outside(ctx: Ctx, region: Region, sites: Sequence[int]) -> None:
    """Explain the empty sites a placement region leaves out."""
    assert ctx.explain is not None
    name = parts_of(region).description or parts_of(region).source or "the region"
    inside = set(sites)
    for s, v in enumerate(ctx.board):
        if v == EMPTY and s not in inside and s not in ctx.env.no_piece:
            ctx.explain.setdefault(("place", (s,)), f"not one of the sites of {name}")


def piece_value(env: Env, name: str | None) -> Callable[[Ctx], int]:
    """The board value a placement puts down: the mover's own piece, or the named piece — the
    mover's kind of that name if it has one (each role may have its "King"), else the neutral
    piece of that name."""
    if name is None:
        table = [env.piece_of(r) for r in range(len(env.roles))]
        return lambda ctx: table[ctx.mover]
    found = [kind_value(env, r, name) for r in range(len(env.roles))]
    if all(v is None for v in found):
        env.error(f'no piece named "{name}" (pieces: '
                  f'{", ".join(dict.fromkeys(p.name for p in env.pieces))})')
        return lambda ctx: 0
    missing = [env.roles[r] for r, v in enumerate(found) if v is None]
    if missing:
        env.error(f'{", ".join(missing)} has no piece named "{name}"')
    values = [v or 0 for v in found]
    return lambda ctx: values[ctx.mover]


def kinds_named(env: Env, name: str | None) -> frozenset[int] | None:
    """The board values of the pieces named `name`, whoever owns them (None for no name: any
    piece)."""
    if name is None:
        return None
    values = frozenset(p.value for p in env.pieces if p.name == name)
    if not values:
        env.error(f'no piece named "{name}" (pieces: '
                  f'{", ".join(dict.fromkeys(p.name for p in env.pieces))})')
    return values


def kind_value(env: Env, role: int, name: str) -> int | None:
    """The board value of `role`'s piece named `name`, or of the neutral piece of that name;
    None if there is neither."""
    for owner in (role, NEUTRAL):
        for p in env.pieces:
            if p.name == name and p.owner == owner:
                return p.value
    return None


@ludeme("place")
def place(env: Env, region: Region, *, piece: str | None = None, if_: Cond | None = None,
          unless: Cond | None = None, capture: Capture | None = None,
          must_capture: bool = False) -> Moves:
    """Put a piece (the mover's, or the named piece) on an empty site of the region.
    `capture:` changes other pieces as a consequence (e.g. (flank All)); with
    must-capture:true only placements that capture something are allowed.

    (place (sites Empty) unless:(forms ("Crosscut")))"""
    names = env.names
    value_of = piece_value(env, piece)
    no_piece = env.no_piece

    # (sites Empty) gives only sites where a piece may be placed: no need to look again.
    placeable = parts_of(region).placeable

    def unconditional(ctx: Ctx) -> Sequence[Move]:
        board = ctx.board
        found = region(ctx)
        # A placeable region is already a sequence: the empty sites in order.
        sites: Sequence[int] = found if placeable else [  # type: ignore[assignment]
            s for s in found if board[s] == EMPTY and s not in no_piece]
        if ctx.explain is not None:
            outside(ctx, region, sites)
        state = ctx.state
        if state is not None and not state.hands:  # nothing to check in a hand
            value = value_of(ctx)
            row = rows.get(value)
            if row is None:
                row = rows[value] = ctx.env.placements(value)
            return Placements(sites, value, row)
        return placements(ctx, sites, value_of(ctx))

    rows: dict[int, list[Move]] = {}  # Env.placements(value), looked up once per value

    mark(unconditional).kinds = frozenset({"place"})
    if if_ is None and unless is None and capture is None:
        return unconditional

    # A filter that can never allow a placement (e.g. gated by an option that is off): no
    # placement to judge, unless refusals are being explained.
    never = parts_of(if_).literal is False or parts_of(unless).literal is True

    at_once = judged_at_once(if_, unless)

    def filtered(ctx: Ctx) -> Sequence[Move]:
        if never and ctx.explain is None:
            return []
        return allowed_placements(ctx, unconditional(ctx), if_, unless, at_once)

    mark(filtered).kinds = frozenset({"place"})
    if capture is None:
        return filtered

    def generate(ctx: Ctx) -> list[Move]:
        board = ctx.board
        value = value_of(ctx)
        out: list[Move] = []
        for s in region(ctx):
            if board[s] != EMPTY or s in no_piece:
                continue
            changes: tuple[tuple[int, int], ...] = ((s, value),)
            if capture is not None:
                taken = capture(ctx, s, value)
                if must_capture and not taken:
                    if ctx.explain is not None:
                        ctx.explain.setdefault(("place", (s,)), "captures nothing")
                    continue
                changes += taken
            accept(ctx, Move("place", (s,), changes, names), s, -1, if_, unless, out)
            if ctx.probe and out:
                return out
        return out
    return kinded(generate, "place")


@ludeme("drop")
def drop(env: Env, direction: Direction, *, if_: Cond | None = None,
         unless: Cond | None = None) -> Moves:
    """Placement under gravity: the mover's piece enters at the board's edge opposite
    `direction`, falls in `direction` and comes to rest on the last empty site before an
    occupied site or the board's edge. The move is written as its landing site.

    (drop S)"""
    from stdlib.boards import OPPOSITE

    (d,) = env.absolute_dirs(direction)[:1] or ("",)
    if not d:
        return lambda ctx: []
    below = env.topology.step[d]
    # The sites a falling piece passes before it lands on each site: they must be empty.
    above = env.topology.rays.get(OPPOSITE.get(d, ""), ((),) * env.topology.size)
    names = env.names
    value_of = piece_value(env, None)
    no_piece = env.no_piece
    at_once = judged_at_once(if_, unless)

    def generate(ctx: Ctx) -> Sequence[Move]:
        board = ctx.board
        landing = []
        for s, v in enumerate(board):
            if v != EMPTY or s in no_piece:
                continue
            if below[s] == -1 or board[below[s]] != EMPTY:
                if all(board[t] == EMPTY for t in above[s]):
                    landing.append(s)
                elif ctx.explain is not None:
                    ctx.explain.setdefault(("place", (s,)), "a piece cannot fall past "
                                           "the pieces above it")
            elif ctx.explain is not None:
                rest = below[s]
                while below[rest] != -1 and board[below[rest]] == EMPTY:
                    rest = below[rest]
                ctx.explain.setdefault(("place", (s,)), f"a piece dropped there falls to "
                                       f"{names[rest]}")
        return allowed_placements(ctx, placements(ctx, landing, value_of(ctx)), if_, unless,
                                  at_once)
    return kinded(generate, "place")


@ludeme("step")
def step(env: Env, directions: Direction, *, to: CellKind = "Empty", from_: Region | None = None,
         of: str | None = None, within: Region | None = None, walls: str | None = None,
         if_: Cond | None = None, unless: Cond | None = None) -> Moves:
    """Move one of the mover's pieces (or those on the `from:` sites; with of:, only its
    pieces of that kind) one site in one of the directions, to a site holding `to:` (Empty by
    default; Enemy captures by replacement; EmptyOrEnemy either). With within:, the piece
    never leaves the region: only steps onto its sites (a region that depends on nothing but
    the mover, such as a palace each role owns). With walls:, never across a held edge of
    that set (a wall: stdlib/walls.py). Written `from-to`.

    (step Orthogonal to:EmptyOrEnemy within:(sites Centre))"""
    if walls is not None:
        from stdlib.walls import walled_lines

        if within is not None:
            env.error("walls: and within: cannot be given together yet")
        return walled_lines(env, walls, directions, to, from_, of, 1, if_, unless)
    return straight_moves(env, directions, to, from_, if_, unless, reach=1, of=of,
                          within=within)


@ludeme("slide")
def slide(env: Env, directions: Direction = "All", *, to: CellKind = "Empty",
          from_: Region | None = None, of: str | None = None, max: int | None = None,
          over: int = 0, within: Region | None = None, walls: str | None = None,
          if_: Cond | None = None, unless: Cond | None = None) -> Moves:
    """Move one of the mover's pieces (or those on the `from:` sites) any distance in a
    straight line in one of the directions, over empty sites, stopping on one that holds
    `to:` (Empty by default, as an Amazons queen; EmptyOrEnemy also lets it stop on the
    first piece in its way if that is an enemy's, capturing it, as a chess rook). Pieces and
    special sites block the way. With of:, only the mover's pieces of that kind move; with
    max:, at most that many sites (a pawn's first move: max:2); with within:, only along
    the region's sites (see step). Written `from-to`.

    With over:N the piece jumps over exactly N pieces on its way, whoever's (screens), and
    the moves are those beyond the N-th: onto the empty sites before the next piece (with
    to:Empty) or onto that next piece (with to:Enemy, capturing it): the xiangqi cannon
    takes with (slide Orthogonal to:Enemy over:1); with to:EmptyOrEnemy, both, as the
    janggi cannon moves.

    With walls:, the piece never crosses a held edge of that set: it stops before a wall
    (stdlib/walls.py).

    (slide Orthogonal of:"Cannon" to:Enemy over:1)"""
    if max is not None and max < 1:
        env.error("max: needs 1 or more")
    if over < 0:
        env.error("over: needs 0 or more")
    if walls is not None:
        from stdlib.walls import walled_lines

        if within is not None or over:
            env.error("walls: cannot be given with within: or over: yet")
        return walled_lines(env, walls, directions, to, from_, of, max, if_, unless)
    if over > 0:
        from stdlib.jumps import screen_slide

        return screen_slide(env, directions, to, from_, of, max, over, within, if_, unless)
    return straight_moves(env, directions, to, from_, if_, unless, reach=max, of=of,
                          within=within)


def own_pieces(ctx: Ctx, from_: Region | None, kinds: frozenset[int] | None
               ) -> Iterable[tuple[int, int]]:
    """The (site, board value) of each of the mover's pieces that may move: those on the
    `from:` sites (all of them without), of the `of:` kinds (any without)."""
    board, owner, mover = ctx.board, ctx.owner, ctx.mover
    for s in (from_(ctx) if from_ is not None else range(len(board))):
        v = board[s]
        if owner[v] == mover and (kinds is None or v in kinds):
            yield s, v


class ValueSites(Tracker):
    """The sites holding each board value, in site order (a tuple per value present), kept by
    a position: generators of one kind of piece look its sites up instead of scanning the
    board. The tuples are never changed, so a successor position shares them."""

    def build(self, board: list[int]) -> dict[int, tuple[int, ...]]:
        found: dict[int, list[int]] = {}
        for s, v in enumerate(board):
            if v != EMPTY:
                found.setdefault(v, []).append(s)
        return {v: tuple(sites) for v, sites in found.items()}

    def update(self, data: dict[int, tuple[int, ...]], board: list[int], site: int, old: int,
               new: int) -> dict[int, tuple[int, ...]]:
        if old != EMPTY:
            sites = data[old]
            i = sites.index(site)
            data[old] = sites[:i] + sites[i + 1:]
        if new != EMPTY:
            sites = data.get(new, ())
            i = bisect.bisect_left(sites, site)
            data[new] = sites[:i] + (site,) + sites[i:]
        return data

    def copy(self, data: dict[int, tuple[int, ...]]) -> dict[int, tuple[int, ...]]:
        return dict(data)


def value_sites(env: Env) -> Callable[[Ctx], dict[int, tuple[int, ...]] | None]:
    """The position's ValueSites data (None while a move is tried out on the board): one
    tracker shared by every generator of the game that asks."""
    found = env.shared.get("value sites")
    if found is None:
        found = env.shared["value sites"] = env.track(ValueSites())
    return found  # type: ignore[no-any-return]


class Origins:
    """Where the mover's pieces of some kinds stand (those on the `from:` sites, when the
    region does not depend on the position), looked up in the position's ValueSites: the
    sites in order, each holding a piece of the mover of the kinds; or None when the position
    cannot tell now (a move is being tried out) or the generator moves any piece, and the
    caller scans the board (own_pieces)."""

    def __init__(self, env: Env, from_: Region | None, kinds: frozenset[int] | None) -> None:
        within = parts_of(from_).static if from_ is not None else None
        self.within: frozenset[int] | None = within
        # A region that depends on the position (or the mover): its sites as a set, by the
        # tuple it gives (None: not in site order, then the board is scanned).
        self.region = from_ if from_ is not None and within is None else None
        self.regions: dict[int, tuple[tuple[int, ...], frozenset[int] | None]] = {}
        self.known = value_sites(env) if kinds is not None else None
        owner = env.owner
        self.values = [tuple(sorted(v for v in kinds or () if owner[v] == r))
                       for r in range(len(env.roles))]

    def __call__(self, ctx: Ctx) -> Sequence[int] | None:
        known = self.known
        if known is None:
            return None
        data = known(ctx)
        if data is None:
            return None
        values = self.values[ctx.mover]
        if len(values) == 1:
            sites: Sequence[int] = data.get(values[0], ())
        else:
            sites = sorted(s for v in values for s in data.get(v, ()))
        within = self.within
        if self.region is not None:
            found = self.region(ctx)
            if not isinstance(found, tuple):
                return None
            kept = self.regions.get(id(found))
            if kept is not None and kept[0] is found:  # the same tuple as before (kept alive)
                within = kept[1]
            else:
                if len(self.regions) > 64:
                    self.regions.clear()
                within = frozenset(found) if all(
                    a < b for a, b in zip(found, found[1:], strict=False)) else None
                self.regions[id(found)] = (found, within)
            if within is None:
                return None
        if within is not None:
            return [s for s in sites if s in within]
        return sites


class Reach:
    """What a generator's moves can be, whatever the position (any-of reads it to look for
    duplicates only between alternatives that can offer the same move): per mover, the
    (first site, last site) pairs of its moves; the board values of the pieces they move,
    standing on the first site (None: any); and whether it never offers the same move twice
    in one position; `interned`: equal moves it offers are the same object (each made once
    per game by Env.piece_move), so that duplicates may be told by identity."""

    def __init__(self, pairs: Callable[[int], frozenset[tuple[int, int]]],
                 values: frozenset[int] | None, distinct: bool | Callable[[], bool],
                 interned: bool = False) -> None:
        self._pairs = pairs
        self.values = values
        self._distinct = distinct  # or how to tell, when first asked
        self.interned = interned
        self._known: dict[int, frozenset[tuple[int, int]]] = {}

    @property
    def distinct(self) -> bool:
        if not isinstance(self._distinct, bool):
            self._distinct = self._distinct()
        return self._distinct

    def pairs(self, mover: int) -> frozenset[tuple[int, int]]:
        found = self._known.get(mover)
        if found is None:
            found = self._known[mover] = self._pairs(mover)
        return found

    def meets(self, other: Reach, mover: int) -> bool:
        """Can the two offer the same move (same sites) to `mover` in some position?"""
        if self.values is not None and other.values is not None \
                and not self.values & other.values:
            return False
        return not self.pairs(mover).isdisjoint(other.pairs(mover))


def reach_of(generate: Moves) -> Reach | None:
    return parts_of(generate).reach


def straight_moves(env: Env, directions: Direction, to: CellKind, from_: Region | None,
                   if_: Cond | None, unless: Cond | None, reach: int | None,
                   of: str | None = None, within: Region | None = None) -> Moves:
    """The moves of step (reach 1) and slide (any reach): a mover's piece goes in a straight
    line over empty sites and stops on a site holding `to:`; the first piece or special site
    in its way ends the line (a piece there may be taken, if `to:` allows), and so does the
    first site outside `within` (the mover's sites of it)."""
    from stdlib.jumps import sites_by_mover
    from stdlib.logic import cell_test

    dirs = env.resolve_dirs(directions)
    inside = sites_by_mover(env, within, "within:") if within is not None else None
    # Per direction, per site, the sites in reach along the line.
    lines = {d: tuple(ray[:reach] for ray in rays) for d, rays in env.topology.rays.items()}
    target = cell_test(env, to)
    no_piece = env.no_piece
    kinds = kinds_named(env, of)
    origins = Origins(env, from_, kinds)
    size = env.topology.size

    def paths(mover: int, s: int) -> list[tuple[int, ...]]:
        """The lines from s a piece of the mover goes along, each cut at its first special
        site."""
        out = []
        for d in (dirs(mover) if callable(dirs) else dirs):
            line = lines[d][s]
            cut = next((i for i, t in enumerate(line) if t in no_piece
                        or (inside is not None and t not in inside[mover])), len(line))
            if cut:
                out.append(line[:cut])
        return out

    # Without filters, per (board value, site): along each line, each site and the move
    # there (made once per game).
    fast = if_ is None and unless is None and to in ("Empty", "Enemy", "EmptyOrEnemy")
    made: dict[int, tuple[tuple[tuple[int, Move], ...], ...]] = {}
    owner_of = env.owner

    def moves_from(s: int, v: int) -> tuple[tuple[tuple[int, Move], ...], ...]:
        found = made[v * size + s] = tuple(
            tuple((t, env.piece_move(s, t, v)) for t in line)
            for line in paths(owner_of[v], s))
        return found

    take_empty = to in ("Empty", "EmptyOrEnemy")
    take_enemy = to in ("Enemy", "EmptyOrEnemy")

    def generate(ctx: Ctx) -> list[Move]:
        board, owner, mover = ctx.board, ctx.owner, ctx.mover
        sites = origins(ctx) if fast and not ctx.probe else None
        if sites is None:
            return scan(ctx)
        out: list[Move] = []
        for s in sites:
            key = board[s] * size + s
            rows = made[key] if key in made else moves_from(s, board[s])
            for row in rows:
                for t, m in row:
                    x = board[t]
                    if x == EMPTY:
                        if take_empty:
                            out.append(m)
                        continue
                    if take_enemy:
                        o = owner[x]
                        if o >= 0 and o != mover:
                            out.append(m)
                    break
        return out

    steps: dict[int, tuple[tuple[int, Move], ...]] = {}  # reach 1: made's lines as one

    def generate_steps(ctx: Ctx) -> list[Move]:
        """generate, for steps: each line is one site."""
        board, owner, mover = ctx.board, ctx.owner, ctx.mover
        sites = origins(ctx) if fast and not ctx.probe else None
        if sites is None:
            return scan(ctx)
        out: list[Move] = []
        for s in sites:
            key = board[s] * size + s
            row = steps.get(key)
            if row is None:
                row = steps[key] = tuple(step for line in moves_from(s, board[s])
                                         for step in line)
            for t, m in row:
                x = board[t]
                if x == EMPTY:
                    if take_empty:
                        out.append(m)
                elif take_enemy:
                    o = owner[x]
                    if o >= 0 and o != mover:
                        out.append(m)
        return out

    def scan(ctx: Ctx) -> list[Move]:
        board, owner, mover = ctx.board, ctx.owner, ctx.mover
        ds = dirs(mover) if callable(dirs) else dirs
        origins = from_(ctx) if from_ is not None else range(len(board))
        out: list[Move] = []
        for s in origins:  # own_pieces(), inlined: this loop is the hot path of many games
            v = board[s]
            if owner[v] != mover or (kinds is not None and v not in kinds):
                continue
            for d in ds:
                for t in lines[d][s]:
                    if t in no_piece or (inside is not None and t not in inside[mover]):
                        break
                    if target(ctx, t):
                        accept(ctx, env.piece_move(s, t, v), t, s, if_, unless, out,
                               from_hand=False)
                        if ctx.probe and out:
                            return out
                    if board[t] != EMPTY:
                        break
        return out

    starting = parts_of(from_).static if from_ is not None else None

    def pairs(mover: int) -> frozenset[tuple[int, int]]:
        return frozenset((s, t) for s in range(size) if starting is None or s in starting
                         for line in paths(mover, s) for t in line)

    def distinct() -> bool:
        """No two lines from a site share a site (then no move is offered twice)."""
        for r in range(len(env.roles)):
            for s in range(size):
                reached = [t for line in paths(r, s) for t in line]
                if len(set(reached)) != len(reached):
                    return False
        return True

    # Without a tracker to find the pieces, or with filters, the board is scanned.
    chosen = scan if origins.known is None or not fast else \
        generate_steps if reach == 1 else generate
    given = mark(chosen)
    given.reach = Reach(pairs, kinds, distinct, interned=True)
    if if_ is None and unless is None and to in ("Enemy", "EmptyOrEnemy"):
        # From some sites only: known for a step, from sites that depend on the mover alone.
        starts = None if from_ is None or reach != 1 else sites_by_mover(env, from_)
        if from_ is None or starts is not None:
            given.attacks = RayAttacks(env, dirs, kinds, reach, inside, starts)
    return kinded(chosen, "move")


Attacks = Callable[[Ctx, int, int], bool]  # (ctx, site, attacker role) -> attacked?
Line = tuple[tuple[int, ...], frozenset[int] | None]  # sites from a site outwards, kinds


# A line along which an attack jumps over pieces (see AttackTest.screened): the sites from a
# site outwards, the kinds that take along it (None: any), and how many pieces they jump.
ScreenedLine = tuple[tuple[int, ...], frozenset[int] | None, int]


class AttackTest(ABC):
    """A reverse test of capturing moves: (ctx, site, role) -> can a piece of `role` take on
    the site? Also says what the answer depends on (`lines`, `screened`), so that a check
    test can tell, once per position, which moves cannot change it (see chess.attacked's
    screen)."""

    @abstractmethod
    def __call__(self, ctx: Ctx, site: int, role: int) -> bool:
        """Whether a piece of `role` could take on `site`."""

    def lines(self, role: int, site: int) -> tuple[Line, ...] | None:
        """What else than the pieces of `role` the answer for (role, site) depends on: the
        lines looked along from the site outwards, each with the kinds that take along it
        (None: any), where a site emptied before the first such piece may open an attack. The
        test's promise: after a change of the board that puts no piece of `role` anywhere,
        empties no site of a line before its first piece of `role` of the line's kinds and
        changes no site of a screened line (see `screened`), the answer is no more true than
        before. None: no such promise (unknown)."""
        return None

    def screened(self, role: int, site: int) -> tuple[ScreenedLine, ...]:
        """The lines from the site outwards along which a piece of `role` of the line's
        kinds takes by jumping exactly the line's number of pieces (a cannon's screens):
        along them a piece arriving may open an attack as well as one leaving. Part of the
        promise of `lines`; none by default."""
        return ()


class RayAttacks(AttackTest):
    """Whether a step or slide capturing by replacement (of the `kinds`, `reach` sites at
    most) lets a piece of the attacker take on a site: looked at from the site, back along
    each direction, to the first piece (see (attacked ...))."""

    def __init__(self, env: Env, dirs: tuple[str, ...] | Callable[[int], tuple[str, ...]],
                 kinds: frozenset[int] | None, reach: int | None,
                 inside: Sequence[frozenset[int]] | None = None,
                 starts: Sequence[frozenset[int]] | None = None) -> None:
        from stdlib.jumps import looking_back

        size = env.topology.size
        # Per attacker role, per site: the rays looked along, back against each direction
        # the attacker moves in, each cut short at the first special site (and where a piece
        # confined `inside` its sites could not have come from). A step from some sites only
        # (`starts`): only rays from those.
        looks: list[list[tuple[tuple[int, ...], ...]]] = []
        for role in range(len(env.roles)):
            ds = dirs(role) if callable(dirs) else dirs
            per_site: list[tuple[tuple[int, ...], ...]] = []
            for s in range(size):
                lines = looking_back(env, ds, s, reach,
                                     inside[role] if inside is not None else None)
                if starts is not None:
                    lines = [ray for ray in lines if ray[0] in starts[role]]
                per_site.append(tuple(lines))
            looks.append(per_site)
        self.looks = looks
        self.kinds = kinds
        # A ray of one site is no line: only the piece on it counts.
        self._lines = [[tuple((ray, kinds) for ray in per if len(ray) > 1) for per in sites]
                       for sites in looks]

    def __call__(self, ctx: Ctx, site: int, role: int) -> bool:
        board, owner, kinds = ctx.board, ctx.owner, self.kinds
        for ray in self.looks[role][site]:
            for t in ray:
                v = board[t]
                if v != EMPTY:
                    if owner[v] == role and (kinds is None or v in kinds):
                        return True
                    break
        return False

    def lines(self, role: int, site: int) -> tuple[Line, ...] | None:
        return self._lines[role][site]


class LeapAttacks(AttackTest):
    """Whether a leap capturing by replacement lets a piece of the attacker (of the `kinds`)
    take on a site: a piece on one of the sites a leap away (the leaps are symmetric: back is
    forth). Nothing between counts, so it has no lines."""

    def __init__(self, targets: list[tuple[int, ...]], kinds: frozenset[int] | None) -> None:
        self.targets = targets
        self.kinds = kinds

    def __call__(self, ctx: Ctx, site: int, role: int) -> bool:
        board, owner, kinds = ctx.board, ctx.owner, self.kinds
        for t in self.targets[site]:
            v = board[t]
            if owner[v] == role and (kinds is None or v in kinds):
                return True
        return False

    def lines(self, role: int, site: int) -> tuple[Line, ...] | None:
        return ()


class AnyAttacks(AttackTest):
    """Whether any of several attack tests says yes (the attacks of an any-of)."""

    def __init__(self, tests: list[Attacks]) -> None:
        self.tests = tests
        self._lines: dict[tuple[int, int], tuple[Line, ...] | None] = {}
        self._screened: dict[tuple[int, int], tuple[ScreenedLine, ...]] = {}
        # When every test looks along rays or leaps: per role, per site, the tests' rays
        # merged (rays in one direction are one ray: the board values that attack from each
        # distance along it) and their leaps (site, values), made when first asked.
        flat: list[Attacks] = []
        pending = list(tests)
        while pending:
            test = pending.pop(0)
            if isinstance(test, AnyAttacks):
                pending[:0] = test.tests
            else:
                flat.append(test)
        parts = [t for t in flat if isinstance(t, (RayAttacks, LeapAttacks))]
        self._parts = parts if len(parts) == len(flat) else None
        self._merged: list[list[tuple[tuple[tuple[tuple[int, ...], tuple[frozenset[int], ...]],
                                              ...],
                                        tuple[tuple[int, frozenset[int]], ...]]]] | None = None

    def _merge(self, owner: tuple[int, ...]) -> None:
        roles = max(owner) + 1
        parts = self._parts or []
        size = max(len(t.targets) if isinstance(t, LeapAttacks) else len(t.looks[0])
                   for t in parts)
        merged = []
        for role in range(roles):
            own = frozenset(v for v, o in enumerate(owner) if o == role)
            per_site = []
            for site in range(size):
                rays: dict[int, tuple[tuple[int, ...], list[set[int]]]] = {}
                unmerged: list[tuple[tuple[int, ...], list[set[int]]]] = []
                leaps: dict[int, set[int]] = {}
                for test in parts:
                    values = own if test.kinds is None else own & test.kinds
                    if isinstance(test, LeapAttacks):
                        for t in test.targets[site]:
                            leaps.setdefault(t, set()).update(values)
                        continue
                    for ray in test.looks[role][site]:
                        known = rays.get(ray[0])
                        if known is None:
                            rays[ray[0]] = (ray, [set(values) for _ in ray])
                            continue
                        longer, hits = known
                        if ray[:len(longer)] == longer[:len(ray)]:  # one the other's prefix
                            if len(ray) > len(longer):
                                hits += [set() for _ in ray[len(longer):]]
                                rays[ray[0]] = (ray, hits)
                            for i in range(len(ray)):
                                hits[i] |= values
                        else:
                            unmerged.append((ray, [set(values) for _ in ray]))
                per_site.append((
                    tuple((ray, tuple(frozenset(h) for h in hits))
                          for ray, hits in [*rays.values(), *unmerged]),
                    tuple((t, frozenset(v)) for t, v in leaps.items() if v)))
            merged.append(per_site)
        self._merged = merged

    def __call__(self, ctx: Ctx, site: int, role: int) -> bool:
        merged = self._merged
        if merged is None:
            if self._parts is None:
                for test in self.tests:
                    if test(ctx, site, role):
                        return True
                return False
            self._merge(ctx.owner)
            merged = self._merged
            assert merged is not None
        board = ctx.board
        rays, leaps = merged[role][site]
        for ray, hits in rays:
            i = 0
            for t in ray:
                v = board[t]
                if v != EMPTY:
                    if v in hits[i]:
                        return True
                    break
                i += 1
        for t, values in leaps:
            if board[t] in values:
                return True
        return False

    def lines(self, role: int, site: int) -> tuple[Line, ...] | None:
        key = (role, site)
        if key not in self._lines:
            parts = [test.lines(role, site) if isinstance(test, AttackTest) else None
                     for test in self.tests]
            if any(p is None for p in parts):
                self._lines[key] = None
            else:
                # The same ray of several tests is one line, taken along by any of their
                # kinds: the first piece of any of them ends what each test sees of it.
                merged: dict[tuple[int, ...], frozenset[int] | None] = {}
                for p in parts:
                    for ray, kinds in p or ():
                        if ray in merged:
                            known = merged[ray]
                            merged[ray] = None if known is None or kinds is None \
                                else known | kinds
                        else:
                            merged[ray] = kinds
                self._lines[key] = tuple(merged.items())
        return self._lines[key]

    def screened(self, role: int, site: int) -> tuple[ScreenedLine, ...]:
        key = (role, site)
        found = self._screened.get(key)
        if found is None:
            found = self._screened[key] = tuple(
                line for test in self.tests if isinstance(test, AttackTest)
                for line in test.screened(role, site))
        return found


def leaps(env: Env, targets: Sequence[Sequence[tuple[int, ...]]], to: CellKind,
          from_: Region | None, kinds: frozenset[int] | None, if_: Cond | None,
          unless: Cond | None) -> tuple[Moves, Callable[[int], frozenset[tuple[int, int]]]]:
    """The moves of the mover's pieces (of `kinds`; from the `from_` sites) to the sites
    `targets[mover][site]` lists, whatever lies between, onto a site holding `to:` — what
    (leap ...) and its one-sided variants generate — and, per mover, the (from, to) pairs
    they can make (for Reach). Without filters the pieces are found by the position's
    tracker and each move is made once per game."""
    from stdlib.logic import cell_test

    no_piece = env.no_piece
    target = cell_test(env, to)
    origins = Origins(env, from_, kinds)
    size = env.topology.size
    fast = if_ is None and unless is None and to in ("Empty", "Enemy", "EmptyOrEnemy")
    take_empty = to in ("Empty", "EmptyOrEnemy")
    take_enemy = to in ("Enemy", "EmptyOrEnemy")
    made: dict[int, tuple[tuple[int, Move], ...]] = {}  # per (value, site): (to, move)

    def generate(ctx: Ctx) -> list[Move]:
        sites = origins(ctx) if fast and not ctx.probe else None
        if sites is None:
            return scan(ctx)
        board, owner, mover = ctx.board, ctx.owner, ctx.mover
        ahead = targets[mover]
        out: list[Move] = []
        for s in sites:
            v = board[s]
            key = v * size + s
            row = made.get(key)
            if row is None:
                row = made[key] = tuple((t, env.piece_move(s, t, v)) for t in ahead[s]
                                        if t not in no_piece)
            for t, m in row:
                x = board[t]
                if x == EMPTY:
                    if take_empty:
                        out.append(m)
                elif take_enemy:
                    o = owner[x]
                    if o >= 0 and o != mover:
                        out.append(m)
        return out

    def scan(ctx: Ctx) -> list[Move]:
        out: list[Move] = []
        ahead = targets[ctx.mover]
        for s, v in own_pieces(ctx, from_, kinds):
            for t in ahead[s]:
                if t not in no_piece and target(ctx, t):
                    accept(ctx, env.piece_move(s, t, v), t, s, if_, unless, out,
                           from_hand=False)
                    if ctx.probe and out:
                        return out
        return out

    starting = parts_of(from_).static if from_ is not None else None

    def pairs(mover: int) -> frozenset[tuple[int, int]]:
        return frozenset((s, t) for s in range(size) if starting is None or s in starting
                         for t in targets[mover][s] if t not in no_piece)
    return (scan if origins.known is None or not fast else generate), pairs


def leap_targets(env: Env, across: int, up: int) -> list[tuple[int, ...]]:
    """Per site, the sites `across` columns and `up` rows away, turned and mirrored every
    way (a grid board's (leap ...))."""
    xy = env.topology.xy
    at = {(round(x), round(y)): s for s, (x, y) in enumerate(xy)}
    offsets = sorted({(sx * a, sy * b) for a, b in ((across, up), (up, across))
                      for sx in (1, -1) for sy in (1, -1)})
    return [tuple(t for dx, dy in offsets
                  if (t := at.get((round(x) + dx, round(y) + dy), -1)) >= 0)
            for x, y in xy]


@ludeme("leap")
def leap(env: Env, across: int, up: int, *, to: CellKind = "EmptyOrEnemy",
         from_: Region | None = None, of: str | None = None, path: Direction | None = None,
         within: Region | None = None, if_: Cond | None = None,
         unless: Cond | None = None) -> Moves:
    """Move one of the mover's pieces (with of:, only its pieces of that kind) straight to the
    site `across` columns and `up` rows away, in any of the eight ways those can be turned
    and mirrored, whatever lies between, onto a site holding `to:` (empty or an enemy piece,
    captured, by default): a knight's move is (leap 1 2). Boards whose sites lie on a grid
    only. With within:, only onto the region's sites (see step). Written `from-to`.

    With path:, the piece does not jump: it goes by the sites between, the orthogonal
    steps first then the diagonal ones (path:Orthogonal) or the other way round
    (path:Diagonal), and a piece on any of them blocks it (a lame leaper): the xiangqi horse,
    (leap 1 2 path:Orthogonal), is blocked by a piece next to it, on its leg; the elephant,
    (leap 2 2 path:Diagonal), by one on the point between, its eye.

    (leap 1 2 of:"Horse" path:Orthogonal)"""
    if across < 0 or up < 0 or across + up == 0:
        env.error("a leap goes some distance: two numbers, 0 or more, not both 0")
    if path is not None or within is not None:
        from stdlib.jumps import lame_leap

        return lame_leap(env, across, up, to, from_, of, path, within, if_, unless)
    targets = leap_targets(env, across, up)
    kinds = kinds_named(env, of)
    chosen, pairs = leaps(env, [targets] * len(env.roles), to, from_, kinds, if_, unless)
    given = mark(chosen)
    given.reach = Reach(pairs, kinds, True, interned=True)
    if from_ is None and if_ is None and unless is None and to in ("Enemy", "EmptyOrEnemy"):
        given.attacks = LeapAttacks(targets, kinds)
    return kinded(chosen, "move")


@ludeme("promoting")
def promoting(env: Env, moves: Moves, *, to: list[str], in_: Region,
              of: str | None = None) -> Moves:
    """The moves, except that a piece (of the `of:` kind, any without) arriving on a site of
    the region becomes one of the mover's kinds named in `to:`, the mover's choice: each
    choice is a move of its own, written with the new piece's letter, `e7-e8=Q`.

    (promoting ("PawnMoves") to:{"Queen" "Rook" "Bishop" "Knight"} in:(sites Side Forward))"""
    roles = range(len(env.roles))
    choices: list[list[tuple[str, int]]] = []  # per role: (letter, board value)
    for r in roles:
        here = []
        for name in to:
            value = kind_value(env, r, name)
            if value is None:
                env.error(f'{env.roles[r]} has no piece named "{name}" to promote to')
                continue
            here.append((env.pieces[value - 1].symbol.upper(), value))
        choices.append(here)
    kinds = kinds_named(env, of)
    names = env.names
    made: dict[tuple[str, int, int, tuple[tuple[int, int], ...]], Move] = {}

    # The region's sites as a set, by the tuple the region gives (kept alive, so that its id
    # is not another's).
    zones: dict[int, tuple[Any, frozenset[int]]] = {}

    def generate(ctx: Ctx) -> list[Move]:
        found = in_(ctx)
        kept = zones.get(id(found))
        if kept is not None and kept[0] is found:
            zone = kept[1]
        else:
            zone = frozenset(found)
            if isinstance(found, tuple):
                if len(zones) > 64:
                    zones.clear()
                zones[id(found)] = (found, zone)
        listed = moves(ctx)
        if zone.isdisjoint([m.sites[-1] for m in listed if m.sites]):
            return listed if isinstance(listed, list) else list(listed)  # none arrives there
        board = ctx.board
        out: list[Move] = []
        for m in listed:
            if not moves_a_piece(m.kind) or m.sites[-1] not in zone or (
                    kinds is not None and board[m.sites[0]] not in kinds):
                out.append(m)
                continue
            to_site = m.sites[-1]
            for letter, value in choices[ctx.mover]:
                kind = f"{PROMOTION_PREFIX}{letter}"
                changes = tuple((s, value if s == to_site else v) for s, v in m.changes)
                key = (kind, m.sites[0], to_site, changes)
                promoted = made.get(key)
                if promoted is None:
                    promoted = made[key] = Move(kind, m.sites, changes, names)
                out.append(promoted)
        return out
    promotions = frozenset(f"{PROMOTION_PREFIX}{letter}" for here in choices for letter, _ in here)
    given, theirs = mark(generate), parts_of(moves)
    given.kinds = (theirs.kinds or frozenset()) | promotions
    given.attacks = theirs.attacks
    inner = theirs.reach
    if inner is not None:  # the same sites; one move becomes several of different kinds
        given.reach = Reach(inner.pairs, inner.values, lambda: inner.distinct)
    return generate


@ludeme("hop")
def hop(env: Env, directions: Direction = "Adjacent", *, over: CellKind = "Enemy",
        from_: Region | None = None, of: str | None = None, capture: bool = True,
        walls: str | None = None, aside: bool = False, if_: Cond | None = None,
        unless: Cond | None = None) -> Moves:
    """Jump one of the mover's pieces (or those on the `from:` sites; with of:, only its pieces
    of that kind) over the neighbouring site in one of the directions, when that site holds
    `over:` (an enemy piece by default), to the empty site just beyond; a piece jumped over is
    taken off the board (the draughts capture), unless capture:false. With walls:, no held
    edge of that set may lie on the way (stdlib/walls.py); with aside:true, when a wall or
    the board's edge is right behind the site jumped, the piece lands beside that site
    instead, either side (Quoridor's diagonal jump). Written `from-to`, from the start to the
    landing site.

    (hop Orthogonal over:Occupied capture:false walls:"Wall" aside:true)"""
    if walls is not None or aside or not capture:
        from stdlib.walls import walled_hop

        return walled_hop(env, walls, directions, over, from_, of, capture, aside, if_,
                          unless)
    from stdlib.logic import cell_test

    dirs = env.resolve_dirs(directions)
    steps = env.topology.step
    jumped = cell_test(env, over)
    no_piece = env.no_piece
    kinds = kinds_named(env, of)
    names = env.names
    made: dict[tuple[int, int, int, int, int], Move] = {}  # each jump made once per game

    def jump(s: int, t: int, u: int, v: int, taken: int) -> Move:
        key = (s, t, u, v, taken)
        move = made.get(key)
        if move is None:
            changes = ((s, env.left_behind(v)), (t, env.left_behind(taken)), (u, v))
            move = made[key] = Move("move", (s, u), changes, names)
        return move

    def generate(ctx: Ctx) -> list[Move]:
        board, owner, mover = ctx.board, ctx.owner, ctx.mover
        ds = dirs(mover) if callable(dirs) else dirs
        origins = from_(ctx) if from_ is not None else range(len(board))
        out: list[Move] = []
        for s in origins:
            if s < 0:
                continue
            v = board[s]
            if owner[v] != mover or (kinds is not None and v not in kinds):
                continue
            for d in ds:
                t = steps[d][s]
                if t == -1 or board[t] == EMPTY or not jumped(ctx, t):
                    continue
                u = steps[d][t]
                if u == -1 or board[u] != EMPTY or u in no_piece:
                    continue
                accept(ctx, jump(s, t, u, v, board[t]), u, s, if_, unless, out,
                       from_hand=False)
                if ctx.probe and out:
                    return out
        return out
    return kinded(generate, "move")


@ludeme("pass")
def pass_(env: Env) -> Moves:
    """The single move `pass`: the mover does nothing. Usually last in a (first-of ...), so a
    player passes only when nothing else is possible.

    (first-of (place (sites Empty) unless:(forms ("HardCorner"))) (pass))"""
    move = pass_move(env.names)
    return kinded(lambda ctx: [move], "pass")


@ludeme("first-of")
def first_of(*alternatives: Moves, why: str = "") -> Moves:
    """Ordered alternatives: the moves of the first alternative that has any; if it has none,
    those of the next; and so on. An alternative whose every move a later (forbid ...) step
    refuses has none. why: says why a move of a later alternative is refused
    while an earlier one has moves (without it, the refusal names a move that comes first).

    (first-of ("Jumps") (step ForwardDiagonal) why:"capturing is compulsory")"""
    def generate(ctx: Ctx) -> Sequence[Move]:
        admit = ctx.admit  # later (forbid ...) steps may refuse every move of an alternative
        for i, alt in enumerate(alternatives):
            moves = alt(ctx) if admit is None else every_move(alt, ctx)
            if moves and (admit is None or any(admit(m) is None for m in moves)):
                if ctx.explain is not None:
                    _explain_later(ctx, alternatives[i + 1:], moves, why)
                return moves
        return []
    return kinded(generate, *alternatives)


def _explain_later(ctx: Ctx, later: tuple[Moves, ...], chosen: Sequence[Move],
                   why: str = "") -> None:
    """Record why moves of later alternatives are not allowed now."""
    assert ctx.explain is not None
    example = str(chosen[0])
    kind = "pass" if chosen[0].kind == "pass" else f"a move such as {example}"
    for alt in later:
        saved, ctx.explain = ctx.explain, None
        try:
            moves = alt(ctx)
        finally:
            ctx.explain = saved
        for m in moves:
            ctx.explain.setdefault(m.key, why or f"{kind} is available, and it comes first")


def _listed_once(plan: list[tuple[Moves, bool, bool]], last_maybe: Moves | None,
                 ctx: Ctx) -> list[Move]:
    """any-of's moves when the alternatives that may meet make each move once per game (a
    duplicate is the same object): every alternative listed first (a generator may list
    moves within its own work, e.g. judging a condition), then each move that may be a
    duplicate kept only if not marked by this listing's token (Move._listed). When only
    asked whether a move exists (probe), the alternatives are listed one by one until one
    has moves: no other is then looked at for duplicates."""
    probe = ctx.probe
    lists: Iterable[Sequence[Move]] = (alt(ctx) for alt, _, _ in plan) if probe \
        else [alt(ctx) for alt, _, _ in plan]
    token = object()
    out: list[Move] = []
    first = True  # no move marked yet
    for (alt, maybe, alone), moves in zip(plan, lists, strict=True):
        if not moves:
            continue
        if not maybe:
            out.extend(moves)
        elif alone:  # no move twice in its own list: only those listed already go
            fresh = moves if first else [m for m in moves if m._listed is not token]
            out.extend(fresh)
            if alt is not last_maybe:  # (a later one may meet them)
                for m in fresh:
                    m._listed = token
            first = False
        else:
            for m in moves:
                if m._listed is not token:
                    m._listed = token
                    out.append(m)
            first = False
        if probe and out:
            break
    return out


@ludeme("any-of")
def any_of(*alternatives: Moves) -> Moves:
    """All the moves of all the alternatives: the mover chooses any one.

    (any-of (step Forwards to:Empty) (step ForwardDiagonal to:Enemy))"""
    kinds: list[frozenset[str]] = [parts_of(alt).kinds or frozenset({"?"})
                                   for alt in alternatives]
    known = all(parts_of(alt).kinds is not None for alt in alternatives)
    disjoint = known and sum(len(k) for k in kinds) == len(frozenset().union(*kinds))
    reaches = [reach_of(alt) for alt in alternatives]

    def chain(ctx: Ctx) -> Sequence[Move]:
        parts: list[Sequence[Move]] = []
        for alt in alternatives:
            moves = alt(ctx)
            if moves:
                parts.append(moves)
                if ctx.probe:
                    break
        return Chain(parts)

    def sharing(mover: int) -> list[bool]:
        """Per alternative: may it offer a move that it or another alternative also offers
        (then its moves are looked for among those already listed)?"""
        out = []
        for i, mine in enumerate(reaches):
            if mine is None or not known or not mine.distinct:
                out.append(True)
                continue
            meets = False
            for j, theirs in enumerate(reaches):
                if j == i or kinds[i].isdisjoint(kinds[j]):
                    continue
                if theirs is None or mine.meets(theirs, mover):
                    meets = True
                    break
            out.append(meets)
        return out

    # Per mover: do the alternatives that may offer the same move all offer distinct moves
    # made once per game (then a duplicate is the same object)?
    by_identity: dict[int, bool] = {}
    # Per mover: each alternative, whether it may meet another, whether it alone never
    # offers a move twice.
    plans: dict[int, list[tuple[Moves, bool, bool]]] = {}
    # Per mover: the last alternative that may meet another (after it, none need be seen).
    last_maybe: dict[int, Moves | None] = {}

    def generate(ctx: Ctx) -> list[Move]:
        out: list[Move] = []
        mover = ctx.mover
        plan = plans.get(mover)
        if plan is None:
            flags = sharing(mover)
            plan = plans[mover] = [(alt, maybe, r is not None and r.distinct) for alt, maybe, r
                                   in zip(alternatives, flags, reaches, strict=True)]
            by_identity[mover] = all(r is not None and r.distinct and r.interned
                                     for r, maybe in zip(reaches, flags, strict=True) if maybe)
            last_maybe[mover] = next((alt for alt, maybe, _ in reversed(plan) if maybe), None)
        if by_identity[mover]:
            return _listed_once(plan, last_maybe[mover], ctx)
        seen: set[Any] | None = None
        held: list[Sequence[Move]] = []  # moves listed that may be offered again, not in seen
        for alt, maybe, alone in plan:
            moves = alt(ctx)
            if not moves:
                continue
            if not maybe:
                out.extend(moves)
            elif seen is None and not held and alone:
                out.extend(moves)
                held.append(moves)
            else:
                if seen is None:
                    seen = {m.key for part in held for m in part}
                for m in moves:
                    key = m.key
                    if key not in seen:  # two alternatives may offer the same move
                        seen.add(key)
                        out.append(m)
            if ctx.probe and out:
                break
        return out

    result: Moves = chain if disjoint else generate
    if disjoint:  # moves of different kinds can never be the same move
        mark(chain).kinds = frozenset().union(*kinds)
    else:
        kinded(generate, *alternatives)  # its kinds too, for interpreter/actions.py
    if all(r is not None for r in reaches) and reaches:
        def pairs(mover: int) -> frozenset[tuple[int, int]]:
            return frozenset().union(*(r.pairs(mover) for r in reaches if r is not None))
        values: frozenset[int] | None = frozenset()
        for r in reaches:
            assert r is not None
            values = None if values is None or r.values is None else values | r.values
        def distinct() -> bool:
            return not disjoint or all(r is not None and r.distinct for r in reaches)
        interned = all(r is not None and r.interned for r in reaches)
        mark(result).reach = Reach(pairs, values, distinct, interned)
    attacks = [parts_of(alt).attacks for alt in alternatives]
    if all(a is not None for a in attacks):
        mark(result).attacks = AnyAttacks(attacks)  # type: ignore[arg-type]
    return result


def connected_groups(env: Env, size: int, dirs: tuple[str, ...],
                     budget: Budget | None = None) -> list[tuple[int, ...]]:
    """Every connected set of `size` sites (by the directions), each as a sorted tuple. Each
    group found (of every size up to `size`) is spent from `budget`, if one is given."""
    adjacency = env.topology.neighbours(dirs)
    groups: set[tuple[int, ...]] = {(s,) for s in range(env.topology.size)}
    for _ in range(size - 1):
        grown: set[tuple[int, ...]] = set()
        for g in groups:
            for s in g:
                for t in adjacency[s]:
                    if t not in g:
                        grown.add(tuple(sorted((*g, t))))
            if budget is not None:
                budget.check(budget.used + len(grown))
        if budget is not None:
            budget.spend(len(grown))
        groups = grown
    return sorted(groups)


class GroupFits(Tracker):
    """For place-group onto Empty or EmptyOrEnemy: per role, a flag per group saying whether
    the role may put its pieces on all of the group's sites (each empty, or holding another
    role's piece when replacing is allowed, at most `limit` of them replaced)."""

    def __init__(self, groups: list[tuple[int, ...]], size: int, roles: int,
                 owner: tuple[int, ...], no_piece: frozenset[int], replace_enemy: bool,
                 limit: int) -> None:
        self.groups = groups
        self.roles = roles
        self.owner = owner
        self.no_piece = no_piece
        self.replace_enemy = replace_enemy
        self.limit = limit
        self.at: list[list[int]] = [[] for _ in range(size)]  # site -> groups containing it
        for g, group in enumerate(groups):
            for s in group:
                self.at[s].append(g)

    def fits(self, board: list[int], role: int, group: tuple[int, ...]) -> bool:
        """May `role` put its pieces on all the group's sites?"""
        replaced = 0
        for s in group:
            v = board[s]
            if v == EMPTY:
                if s in self.no_piece:
                    return False
                continue
            who = self.owner[v]
            if not self.replace_enemy or who < 0 or who == role:
                return False
            replaced += 1
        return replaced <= self.limit

    def build(self, board: list[int]) -> list[bytearray]:
        return [bytearray(self.fits(board, r, group) for group in self.groups)
                for r in range(self.roles)]

    def update(self, data: list[bytearray], board: list[int], site: int, old: int, new: int
               ) -> list[bytearray]:
        groups = self.groups
        for r, flags in enumerate(data):
            for g in self.at[site]:
                flags[g] = self.fits(board, r, groups[g])
        return data

    def copy(self, data: list[bytearray]) -> list[bytearray]:
        return [bytearray(flags) for flags in data]


@ludeme("place-group")
def place_group(env: Env, size: int, *, by: Direction = "Adjacent", onto: CellKind = "Empty",
                max_replaced: int | None = None, if_: Cond | None = None,
                unless: Cond | None = None) -> Moves:
    """Put `size` of the mover's pieces at once on a connected set of sites (connected by the
    `by:` directions): a domino for size 2. Each site must hold what `onto:` says (Empty by
    default; EmptyOrEnemy lets a piece replace an opponent's, which goes back to its owner's
    hand), with at most `max-replaced:` replacements. Written as the sites joined by ','.

    (place-group 2 by:Orthogonal onto:EmptyOrEnemy max-replaced:1)"""
    from stdlib.logic import cell_test

    if size < 1:
        env.error("place-group needs a size of at least 1")
        return lambda ctx: []
    budget = Budget(MAX_GROUPS, f"(place-group {size} ...)", "enumerate", "groups",
                    "use a smaller group size or board")
    groups = connected_groups(env, size, env.absolute_dirs(by), budget)
    target = cell_test(env, onto)
    names = env.names
    no_piece = env.no_piece
    value_of = piece_value(env, None)
    limit = size if max_replaced is None else max_replaced
    simple = onto in ("Empty", "EmptyOrEnemy")
    replace_enemy = onto == "EmptyOrEnemy"
    # Whether a group fits (its contents allow it, before the filters) depends only on the
    # group's own sites: positions keep the answers up to date.
    checker = GroupFits(groups, env.topology.size, len(env.roles), env.owner, no_piece,
                        replace_enemy, limit) if simple else None
    fitting = env.track(checker) if checker is not None else None

    rows: dict[int, list[Move]] = {}  # per board value: the move putting it on each group

    def generate(ctx: Ctx) -> Sequence[Move]:
        value = value_of(ctx)
        state = ctx.state
        if state is not None and state.hands and 0 <= state.hands[ctx.mover] < size:
            # Every group puts `size` of the mover's pieces down (replaced pieces go back to
            # their owners' hands): one check serves all.
            if ctx.explain is not None:
                short = f"{env.roles[ctx.mover]} has only {state.hands[ctx.mover]} in hand"
                for group in groups:
                    ctx.explain.setdefault(("multi", group), short)
            return []
        row = rows.get(value)
        if row is None:  # the moves are made once per game and value, like placements
            row = rows[value] = [Move("multi", g, tuple((s, value) for s in g), names)
                                 for g in groups]
        known = fitting(ctx) if fitting is not None else None
        if known is not None:  # the position knows which groups fit
            candidates: Iterable[int] = compress(range(len(groups)), known[ctx.mover])
            if if_ is None and unless is None and not ctx.probe:
                return Listed(list(candidates), row)
        else:
            candidates = (g for g, group in enumerate(groups) if fits(ctx, group))
        kept: list[int] = []
        for g in candidates:
            if if_ is not None or unless is not None:
                move = row[g]
                reason = judge(ctx, move.changes, move.sites[0], -1, if_, unless)
                if reason is not None:
                    if ctx.explain is not None:
                        ctx.explain.setdefault(move.key, reason)
                    continue
            kept.append(g)
            if ctx.probe:
                break
        return Listed(kept, row)

    def fits(ctx: Ctx, group: tuple[int, ...]) -> bool:
        """May the mover put its pieces on all the group's sites (before the filters)?"""
        if checker is not None:
            return checker.fits(ctx.board, ctx.mover, group)
        board = ctx.board
        replaced = 0
        for s in group:  # each site must hold what onto: says; a piece there is replaced
            if not target(ctx, s) or (board[s] == EMPTY and s in no_piece):
                return False
            replaced += board[s] != EMPTY
        return replaced <= limit

    mark(generate).kinds = frozenset({"multi"})
    return generate


@ludeme("exchange")
def exchange(env: Env, directions: Direction = "Adjacent", *, within: Pattern | None = None,
             if_: Cond | None = None, unless: Cond | None = None) -> Moves:
    """Exchange the contents of two neighbouring sites (in the directions) holding different
    pieces. With within:, both sites must lie in one placement of the pattern that stands on
    the board before the exchange (e.g. on one edge of a crosscut). Written `a<>b`.

    (exchange Orthogonal within:("Crosscut"))"""
    from stdlib.patterns import Window, matches, standing_windows, windows

    pairs: list[tuple[int, int]] = []
    steps = env.topology.step
    for d in env.absolute_dirs(directions):
        for s in range(env.topology.size):
            t = steps[d][s]
            if t != -1:
                pairs.append((min(s, t), max(s, t)))
    pairs = sorted(set(pairs))
    per_pair: dict[tuple[int, int], list[Window]] = {}
    # The pairs inside each window (by its sorted sites), and where the pattern stands now.
    per_window: dict[tuple[int, ...], list[tuple[int, int]]] = {}
    standing = None
    if within is not None:
        # Each window's pairs, found from its sites' partners (not by trying every pair of the
        # board against every window, which takes minutes on a large board).
        partners: dict[int, list[int]] = {}
        for a, b in pairs:
            partners.setdefault(a, []).append(b)
        for w in windows(env, within):
            sites = set(w.sites)
            inside = sorted((a, b) for a in w.sites for b in partners.get(a, ()) if b in sites)
            for pair in inside:
                per_pair.setdefault(pair, []).append(w)
                per_window.setdefault(w.sites, []).append(pair)
        pairs = [p for p in pairs if p in per_pair]
        standing = standing_windows(env, (within,))
    names = env.names

    def generate(ctx: Ctx) -> list[Move]:
        board, owner = ctx.board, ctx.owner
        out: list[Move] = []
        candidates, known = pairs, False
        if standing is not None:
            found = standing(ctx)
            if found is not None:  # only pairs inside a window where the pattern stands
                candidates = sorted({p for w in found for p in per_window.get(w, ())})
                known = True
        for a, b in candidates:
            va, vb = board[a], board[b]
            if va == vb or va == EMPTY or vb == EMPTY:
                continue
            if within is not None and not known and not any(matches(w, board, owner)
                                                            for w in per_pair[(a, b)]):
                continue
            move = Move("exchange", (a, b), ((a, vb), (b, va)), names)
            accept(ctx, move, b, a, if_, unless, out)
            if ctx.probe and out:
                return out
        return out
    return kinded(generate, "exchange")


@ludeme("walk")
def walk(env: Env, *, through: Cond, to: Cond, by: Direction = "Adjacent",
         if_: Cond | None = None, unless: Cond | None = None) -> Moves:
    """Move one of the mover's pieces any distance along a chain of neighbouring sites (by the
    `by:` directions) where `through:` holds, to a site of the chain where `to:` holds (both
    judged with Site bound to the site; the piece's own site is where the chain starts). A
    piece standing on a terrain leaves it behind. Written `from-to`.

    (walk through:(not (is Enemy Site)) to:(holds Site "Tile"))"""
    adjacency = env.topology.neighbours(env.absolute_dirs(by))
    no_piece = env.no_piece  # a piece walks by standing on each site: never on these

    def generate(ctx: Ctx) -> list[Move]:
        from stdlib.logic import site_verdicts

        board, owner, mover = ctx.board, ctx.owner, ctx.mover
        out: list[Move] = []
        # The sites where through: holds fall into connected areas; a piece can reach the
        # areas next to it. Each area is traced once.
        passes, ends = site_verdicts(ctx, through), site_verdicts(ctx, to)
        if no_piece:
            passes = [p and s not in no_piece for s, p in enumerate(passes)]
            ends = [e and s not in no_piece for s, e in enumerate(ends)]
        area = [-1] * len(board)  # passable site -> its area's number (-1: not yet traced)
        members: list[list[int]] = []  # area -> its sites where to: holds

        def area_of(t: int) -> int:
            if area[t] >= 0 or not passes[t]:
                return area[t]
            number = area[t] = len(members)
            found: list[int] = []
            stack = [t]
            while stack:
                u = stack.pop()
                if ends[u]:
                    found.append(u)
                for w in adjacency[u]:
                    if area[w] < 0 and passes[w]:
                        area[w] = number
                        stack.append(w)
            members.append(found)
            return number

        for s, v in enumerate(board):
            if owner[v] != mover:
                continue
            near = {area_of(t) for t in adjacency[s]} - {-1}
            targets = sorted({t for a in near for t in members[a] if t != s})
            for t in targets:
                accept(ctx, env.piece_move(s, t, v), t, s, if_, unless, out, from_hand=False)
                if ctx.probe and out:
                    return out
        return out
    return kinded(generate, "move")


@ludeme("take")
def take(env: Env, region: Region, *, if_: Cond | None = None,
         unless: Cond | None = None) -> Moves:
    """The mover chooses a piece on one of the region's sites and takes it off the board: a
    chosen capture, as after a mill in Morris (a piece standing on a terrain leaves it
    behind). The filters are judged with To bound to the site, on the board after the piece
    is gone. Written as the site, like a placement: `d7`.

    (continue (take (sites Occupied Next)) if:(line 3 through:To))"""
    names = env.names
    no_piece = env.no_piece
    made: dict[tuple[int, int], Move] = {}  # each removal made once per game

    def removal(s: int, v: int) -> Move:
        move = made.get((s, v))
        if move is None:
            move = made[(s, v)] = Move("remove", (s,), ((s, env.left_behind(v)),), names)
        return move

    def generate(ctx: Ctx) -> list[Move]:
        board = ctx.board
        out: list[Move] = []
        for s in sorted(set(region(ctx))):
            v = board[s]
            if v == EMPTY or s in no_piece:
                continue
            accept(ctx, removal(s, v), s, -1, if_, unless, out, from_hand=False)
            if ctx.probe and out:
                return out
        return out
    return kinded(generate, "remove")


@ludeme("fly")
def fly(env: Env, region: Region | None = None, *, from_: Region | None = None,
        of: str | None = None, if_: Cond | None = None, unless: Cond | None = None) -> Moves:
    """Move one of the mover's pieces (or those on the `from:` sites; with of:, only its
    pieces of that kind) to any empty site of the region (by default, any empty site),
    however far and whatever lies between: flying, as a Morris player reduced to three
    pieces does. Written `from-to`.

    (fly (sites Empty) of:"Man")"""
    kinds = kinds_named(env, of)
    no_piece = env.no_piece

    def generate(ctx: Ctx) -> list[Move]:
        board = ctx.board
        targets = sorted({t for t in (region(ctx) if region is not None else range(len(board)))
                          if board[t] == EMPTY and t not in no_piece})
        out: list[Move] = []
        for s, v in own_pieces(ctx, from_, kinds):
            for t in targets:
                if t != s:
                    accept(ctx, env.piece_move(s, t, v), t, s, if_, unless, out,
                           from_hand=False)
                    if ctx.probe and out:
                        return out
        return out
    return kinded(generate, "move")


@ludeme("when")
def when(env: Env, condition: Cond, moves: Moves, *, otherwise: Moves | None = None) -> Moves:
    """The moves while the condition holds on the position (judged once, before any move is
    tried), else the `otherwise:` moves (none without): a rule that depends on the state of
    the game rather than on the move, such as a Morris player flying once down to three men.

    (when (> (count (sites Occupied Mover)) 3) (step All to:Empty) otherwise:(fly))"""
    def generate(ctx: Ctx) -> Sequence[Move]:
        if condition(ctx):
            return moves(ctx)
        return otherwise(ctx) if otherwise is not None else []
    return kinded(generate, moves, *((otherwise,) if otherwise is not None else ()))


@ludeme("optional")
def optional(env: Env, moves: Moves) -> Moves:
    """The moves, or `pass` to decline them (an optional step of a turn).

    (optional (walk through:(not (is Enemy Site)) to:(holds Site "Tile")))"""
    decline = pass_move(env.names)
    return kinded(lambda ctx: [*moves(ctx), decline], "pass", moves)


# Kernel lowerings (stdlib/lowering.py) ---------------------------------------------------------

@lowers("place")
def lower_place(k: Lower, node: Form, args: tuple[Node, ...]) -> Generator:
    """(place region [piece:...]): each empty site of the region where a piece may stand."""
    if any(kw.name in ("capture", "must-capture") for kw in node.kwargs):
        return _lower_capturing_place(k, node, args)
    given = keywords(node, {"piece", "if", "unless"}, k)
    piece = given.get("piece")
    name = piece.value if isinstance(piece, Str) else None
    env = k.env
    values = k.table("placed", [_placed(env, name, r) for r in range(len(env.roles))])
    start = k.action_start("place", node)
    allowed = k.table("may hold a piece",
                      [0 if s in env.no_piece else 1 for s in range(env.topology.size)])
    judge = lower_filters(k, given)
    if judge is None and _every_site(args[0]):
        return Generator(_place_anywhere(k, values, allowed, start),
                         _make_placement(k, start, values), frozenset({"place"}))
    region = k.lower(args[0], "Region")
    admits = "True" if judge is None else k.function("placement_allowed", f"""
def {{name}}(st, T, mover, s):
    put(st, s, {values}[mover])
    ok = {judge}(st, T, mover, s, -1, s, -1)
    put(st, s, 0)
    return ok
""") + "(st, T, mover, s)"
    generate = k.function("place", f"""
def {{name}}(st, T, mover, acts, tags, n, tag):
    if short_of(st, {values}[mover]):  # no piece left in hand
        return n
    buf = np.empty(N, np.int32)
    for i in range({region}(st, T, mover, -1, -1, buf)):
        s = buf[i]
        if st[s] == 0 and {allowed}[s] and {admits}:
            acts[n] = {start} + s
            tags[n] = tag
            n += 1
    return n
""")
    return Generator(generate, _make_placement(k, start, values), frozenset({"place"}))


def _every_site(region: Node) -> bool:
    """Is the region (sites Empty) or (sites Board)? A placement's own test (an empty site
    where a piece may stand) then leaves the same sites as the region."""
    from dsl.check import resolve
    from stdlib.registry import REGISTRY

    if not isinstance(region, Form):
        return False
    spec, _ = resolve(region, REGISTRY)
    return spec is not None and spec.name in ("sites Empty", "sites Board")


def _place_anywhere(k: Lower, values: str, allowed: str, start: int) -> str:
    """The generator of placements on every empty site where a piece may stand, tested in
    one pass over the board. Where the buffer has room for a move per site, each site's
    move is written and counted only if the site is free (no branch to mispredict on a
    board half full at random); else only the free sites' moves are written."""
    free = f"(st[s] == 0) & ({allowed}[s] != 0)" if k.env.no_piece else "st[s] == 0"
    return k.function("place_anywhere", f"""
def {{name}}(st, T, mover, acts, tags, n, tag):
    if short_of(st, {values}[mover]):  # no piece left in hand
        return n
    if n + N <= acts.shape[0] and n + N <= tags.shape[0]:
        for s in range(N):
            acts[n] = {start} + s
            tags[n] = tag
            n += {free}
        return n
    for s in range(N):
        if {free}:
            acts[n] = {start} + s
            tags[n] = tag
            n += 1
    return n
""")


def _make_placement(k: Lower, start: int, values: str) -> str:
    """The make function of placements numbered from `start`: the mover's value from the
    table `values` put on the site."""
    return k.function("make_place", f"""
def {{name}}(st, T, mover, act):
    s = act - {start}
    change(st, s, {values}[mover])
    st[H_TO] = s
    st[H_FROM] = -1
""")


def lower_filters(k: Lower, given: dict[str, Node]) -> str | None:
    """The if: and unless: of a move generator (judge() in the interpreter) as a function
    `(st, T, mover, to, frm, a, b) -> bool`, judged on `st` as the move leaves it (the caller
    makes the move and takes it back), the sites the move changed being a (and b, unless -1)
    while judged; None when neither is given."""
    tests = []
    if "if" in given:
        tests.append(f"({k.lower(given['if'], 'Boolean')})")
    if "unless" in given:
        tests.append(f"not ({k.lower(given['unless'], 'Boolean')})")
    if not tests:
        return None
    return k.function("filters", f"""
def {{name}}(st, T, mover, to, frm, a, b):
    saved = st[H_NCHANGED]
    first = st[CHANGED]
    second = st[CHANGED + 1]
    st[CHANGED] = a
    st[CHANGED + 1] = b
    st[H_NCHANGED] = 1 if b < 0 else 2
    ok = {" and ".join(tests)}
    st[H_NCHANGED] = saved
    st[CHANGED] = first
    st[CHANGED + 1] = second
    return ok
""")


def _placed(env: Env, name: str | None, role: int) -> int:
    """The board value a placement by `role` puts down (as piece_value)."""
    if name is None:
        return env.piece_of(role)
    return kind_value(env, role, name) or 0


@lowers("drop")
def lower_drop(k: Lower, node: Form, args: tuple[Node, ...]) -> Generator:
    """(drop direction): the landing sites of pieces falling in the direction."""
    from stdlib.boards import OPPOSITE

    keywords(node, set(), k)
    env = k.env
    direction = args[0]
    (d,) = env.absolute_dirs(direction.name)[:1] if isinstance(direction, Const) else ("",)
    if not d:
        k.refuse(node, "no kernel lowering of (drop) without a direction")
    size = env.topology.size
    below = k.table("below", env.topology.step[d])
    rays = env.topology.rays.get(OPPOSITE.get(d, ""), ((),) * size)
    width = max((len(r) for r in rays), default=0)
    above = k.table("above", [list(r) + [-1] * (width - len(r)) for r in rays] or [[-1]])
    allowed = k.table("may hold a piece", [0 if s in env.no_piece else 1 for s in range(size)])
    values = k.table("placed", [env.piece_of(r) for r in range(len(env.roles))])
    start = k.action_start("place", node)
    entries = _columns(env.topology.step[d], env.topology.step.get(OPPOSITE.get(d, "")))
    if entries:
        # Each column from its entry down: the piece lands on the last empty site before an
        # occupied one or the edge, the column's only landing site (none if the entry is
        # taken): a walk over the column's empty sites instead of a test of every site.
        generate = k.function("drop_columns", f"""
def {{name}}(st, T, mover, acts, tags, n, tag):
    if short_of(st, {values}[mover]):  # no piece left in hand
        return n
    for c in range({len(entries)}):
        s = {k.table("column entries", entries)}[c]
        if st[s] != 0:
            continue
        b = {below}[s]
        while b != -1 and st[b] == 0:
            s = b
            b = {below}[s]
        if {allowed}[s]:
            acts[n] = {start} + s
            tags[n] = tag
            n += 1
    return n
""")
        return Generator(generate, _make_placement(k, start, values), frozenset({"place"}))
    generate = k.function("drop", f"""
def {{name}}(st, T, mover, acts, tags, n, tag):
    if short_of(st, {values}[mover]):  # no piece left in hand
        return n
    for s in range(N):
        if st[s] != 0 or not {allowed}[s]:
            continue
        b = {below}[s]
        if b == -1 or st[b] != 0:
            clear = True
            for j in range({width}):
                t = {above}[s, j]
                if t == -1:
                    break
                if st[t] != 0:
                    clear = False
                    break
            if clear:
                acts[n] = {start} + s
                tags[n] = tag
                n += 1
    return n
""")
    return Generator(generate, _make_placement(k, start, values), frozenset({"place"}))


def _columns(down: Sequence[int], up: Sequence[int] | None) -> list[int]:
    """The first site of each column of a falling piece's direction (`down[s]`: the next
    site in it, `up[s]`: in the opposite one), when the board is made of such columns: the
    two directions undo each other and every site lies on the column down from a site with
    nothing above it. Then a site's sites above (the ray up, which a piece falls through)
    are its column's before it. [] otherwise (the lowering tests every site)."""
    if up is None or len(up) != len(down):
        return []
    if any(t != -1 and up[t] != s for s, t in enumerate(down)) or \
            any(t != -1 and down[t] != s for s, t in enumerate(up)):
        return []
    entries = [s for s in range(len(down)) if up[s] == -1]
    covered = 0
    for s in entries:
        while s != -1:
            covered += 1
            s = down[s]
    return entries if covered == len(down) else []


@lowers("pass")
def lower_pass(k: Lower, node: Form, args: tuple[Node, ...]) -> Generator:
    """(pass): the one move that changes nothing."""
    start = k.action_start("pass", node)
    generate = k.function("pass", f"""
def {{name}}(st, T, mover, acts, tags, n, tag):
    acts[n] = {start}
    tags[n] = tag
    return n + 1
""")
    make = k.function("make_pass", """
def {name}(st, T, mover, act):
    return
""")
    return Generator(generate, make, frozenset({"pass"}), passes=True)


@lowers("any-of")
def lower_any_of(k: Lower, node: Form, args: tuple[Node, ...]) -> Alternatives:
    """(any-of moves...): every alternative's moves."""
    keywords(node, set(), k)
    return Alternatives([k.lower(a, "Moves") for a in args])


@lowers("first-of")
def lower_first_of(k: Lower, node: Form, args: tuple[Node, ...]) -> Alternatives:
    """(first-of moves...): the moves of the first alternative that has any (why: only words
    a refusal, which a kernel never gives)."""
    keywords(node, {"why"}, k)
    return Alternatives([k.lower(a, "Moves") for a in args], ordered=True)



# Placements that capture (place ... capture: must-capture:).

def _lower_capturing_place(k: Lower, node: Form, args: tuple[Node, ...]) -> Generator:
    """(place region capture:CAPTURE [must-capture:] [piece:]): each empty site of the region
    where a piece may stand (with must-capture:true, only those where the capture takes
    something); the move puts the piece, then makes the capture. The capture lowers to a
    function `(st, T, mover, s, value, make) -> count` (make=False: only whether it takes
    anything, without changing st)."""
    from dsl.ast import Bool
    from stdlib.geometry import flank_candidates

    given = keywords(node, {"piece", "capture", "must-capture"}, k)
    piece = given.get("piece")
    name = piece.value if isinstance(piece, Str) else None
    if piece is not None and name is None:
        k.refuse(node, "no kernel lowering of (place) with a computed piece:")
    must = given.get("must-capture")
    if must is not None and not isinstance(must, Bool):
        k.refuse(node, "no kernel lowering of (place) with a computed must-capture:")
    env = k.env
    if any(env.supply):  # the capture's pieces may count against the hand too (shortage)
        k.refuse(node, "no kernel lowering of (place ... capture:) with pieces in hand yet")
    values = k.table("placed", [_placed(env, name, r) for r in range(len(env.roles))])
    start = k.action_start("place", node)
    allowed = k.table("may hold a piece",
                      [0 if s in env.no_piece else 1 for s in range(env.topology.size)])
    region = k.lower(args[0], "Region")
    capture = k.lower(given["capture"], "Capture")
    test = f"{capture}(st, T, mover, s, {values}[mover], False) > 0" \
        if must is not None and must.value else "True"
    # Every empty site (sites Empty): the board itself is the list, no buffer filled.
    every = isinstance(args[0], Form) and args[0].head == "sites" and len(args[0].args) == 1 \
        and isinstance(args[0].args[0], Const) and args[0].args[0].name == "Empty" \
        and not args[0].kwargs
    loop = "    for s in range(N):\n" if every else (
        "    buf = np.empty(N, np.int32)\n"
        f"    for i in range({region}(st, T, mover, -1, -1, buf)):\n"
        "        s = buf[i]\n")
    near = flank_candidates(k, given["capture"]) if every and test != "True" else None
    if near is not None:  # only where the capture may take something, in site order
        loop = (f"    near = {near}(st, T, mover)\n    while near != 0:\n"
                "        s = trailing_zeros(near)\n        near &= near - 1\n")
    generate = k.function("place_capturing", f"""
def {{name}}(st, T, mover, acts, tags, n, tag):
{loop}        if st[s] == 0 and {allowed}[s] and {test}:
            acts[n] = {start} + s
            tags[n] = tag
            n += 1
    return n
""")
    make = k.function("make_place_capturing", f"""
def {{name}}(st, T, mover, act):
    s = act - {start}
    v = {values}[mover]
    change(st, s, v)
    {capture}(st, T, mover, s, v, True)
    st[H_TO] = s
    st[H_FROM] = -1
""")
    return Generator(generate, make, frozenset({"place"}))


@lowers("when")
def lower_when(k: Lower, node: Form, args: tuple[Node, ...]) -> Generator | Alternatives:
    """(when condition moves [otherwise:]): the moves while the condition holds (judged on the
    position, To and From none), else the otherwise: moves; each must lower to one generator.
    A move is made by the generator whose moves it was: the condition, judged again before
    the move, tells which."""
    given = keywords(node, {"otherwise"}, k)
    condition = k.lower(args[0], "Boolean")
    parts = [k.lower(args[1], "Moves")]
    if "otherwise" in given:
        parts.append(k.lower(given["otherwise"], "Moves"))
    if not all(isinstance(g, Generator) for g in parts):
        return _when_alternatives(k, condition, parts)
    yes, no = parts[0], parts[1] if len(parts) > 1 else None
    assert isinstance(yes, Generator) and (no is None or isinstance(no, Generator))
    if no is not None and yes.passes != no.passes:
        k.refuse(node, "no kernel lowering of (when) between passes and other moves yet")
    other = f"{no.generate}(st, T, mover, acts, tags, n, tag)" if no is not None else "n"
    generate = k.function("when", f"""
def {{name}}(st, T, mover, acts, tags, n, tag):
    to = -1
    frm = -1
    if {condition}:
        return {yes.generate}(st, T, mover, acts, tags, n, tag)
    return {other}
""")
    otherwise = f"{no.make}(st, T, mover, act)" if no is not None else "return"
    make = k.function("make_when", f"""
def {{name}}(st, T, mover, act):
    to = -1
    frm = -1
    if {condition}:
        {yes.make}(st, T, mover, act)
    else:
        {otherwise}
""")
    kinds = yes.kinds | (no.kinds if no is not None else frozenset())
    return Generator(generate, make, kinds, yes.passes)


# Movement (step, slide, hop): per role, per direction, per site, the next site (-1: none).

def _lower_dirs(k: Lower, node: Form, direction: Node | None, default: str) -> tuple[str, int]:
    """The direction table (R, D, N) of the directions each role moves in (as resolve_dirs
    gives them; a role with fewer than D has rows of -1), and D."""
    env = k.env
    name = default if direction is None else getattr(direction, "name", None)
    if not isinstance(name, str) or not isinstance(direction, Const | type(None)):
        k.refuse(node, f"no kernel lowering of ({node.head}) with these directions")
    dirs = env.resolve_dirs(name)
    per_role = [tuple(dirs(r)) if callable(dirs) else tuple(dirs)
                for r in range(len(env.roles))]
    width = max(1, max(len(ds) for ds in per_role))
    size = env.topology.size
    none = [-1] * size
    table = [[list(env.topology.step[d]) for d in ds] + [none] * (width - len(ds))
             for ds in per_role]
    return k.table("steps by role", table), width


def _cell(k: Lower, node: Form, kind: Node | None, default: str, v: str) -> str:
    """The test (source) that board value `v` holds what the cell kind says, for the mover
    (stdlib.logic.cell_test)."""
    name = default if kind is None else getattr(kind, "name", None)
    tests = {"Empty": f"{v} == 0", "Occupied": f"{v} != 0",
             "Friend": f"OWNER[{v}] == mover", "Own": f"OWNER[{v}] == mover",
             "Enemy": f"(OWNER[{v}] >= 0 and OWNER[{v}] != mover)",
             "EmptyOrEnemy": f"({v} == 0 or (OWNER[{v}] >= 0 and OWNER[{v}] != mover))",
             "Any": "True"}
    if not isinstance(kind, Const | type(None)) or name not in tests:
        k.refuse(node, f"no kernel lowering of ({node.head}) with this cell kind")
    return tests[str(name)]


def mover_pieces(k: Lower) -> str:
    """The head of a loop (indented by four, its body by eight) over the sites of the
    mover's pieces, `s`, in site order: the bits of the mover's occupancy masks
    (Lower.occupancy), not every site of the board."""
    occ = k.occupancy()
    return (f"    occ_w = 0\n"
            f"    occ_m = st[{occ} + mover * OCC_WORDS]\n"
            "    while True:\n"
            "        if occ_m == 0:\n"
            "            occ_w += 1\n"
            "            if occ_w == OCC_WORDS:\n"
            "                break\n"
            f"            occ_m = st[{occ} + mover * OCC_WORDS + occ_w]\n"
            "            continue\n"
            "        s = occ_w * 64 + trailing_zeros(occ_m)\n"
            "        occ_m &= occ_m - 1\n")


def _lower_origins(k: Lower, node: Form, given: dict[str, Node], steps: str, width: int
                   ) -> str:
    """The loops over the mover's pieces that may move (on `s`, of the of: kinds, holding
    `v`) and the directions (to the next site `t`), as source lines before a body indented
    by twelve. A from: site is read directly and a region that depends only on the mover
    from a table: neither needs a buffer."""
    from dsl.check import resolve
    from stdlib.regions import region_by_mover
    from stdlib.registry import REGISTRY

    env = k.env
    of = given.get("of")
    if of is not None and not isinstance(of, Str):
        k.refuse(node, f"no kernel lowering of ({node.head}) with a computed of:")
    kinds = kinds_named(env, of.value if isinstance(of, Str) else None)
    movable = k.table("movable kinds", [1 if kinds is None or v in kinds else 0
                                        for v in range(len(env.owner))])
    pieces = ("        v = st[s]\n"
              f"        if OWNER[v] != mover or {movable}[v] == 0:\n"
              "            continue\n"
              f"        for d in range({width}):\n"
              f"            t = {steps}[mover, d, s]\n")
    every = mover_pieces(k) + "        v = st[s]\n" + (
        f"        if {movable}[v] == 0:\n            continue\n" if kinds is not None else "") \
        + f"        for d in range({width}):\n            t = {steps}[mover, d, s]\n"
    origin = given.get("from")
    if origin is None:
        return every
    if isinstance(origin, Const) and origin.name in ("To", "From", "LastTo", "LastFrom") or \
            isinstance(origin, Form) and getattr(resolve(origin, REGISTRY)[0], "returns",
                                                 None) is not None \
            and resolve(origin, REGISTRY)[0].returns.name == "Site":  # type: ignore[union-attr]
        site = k.lower(origin, "Site")
        return (f"    for s in range({site}, {site} + 1):\n"
                "        if s < 0:\n"
                "            continue\n") + pieces
    by_mover = region_by_mover(k, origin) if isinstance(origin, Form) else None
    if by_mover is not None:
        if all(len(sites) == env.topology.size for sites in by_mover):
            return every
        width = max(1, max(len(sites) for sites in by_mover))
        table = k.table("region by mover", [list(sites) + [-1] * (width - len(sites))
                                             for sites in by_mover])
        counts = k.table("region sizes", [len(sites) for sites in by_mover])
        return (f"    for i in range({counts}[mover]):\n"
                f"        s = {table}[mover, i]\n") + pieces
    region = k.lower(origin, "Region")
    return ("    buf = np.empty(N, np.int32)\n"
            f"    for i in range({region}(st, T, mover, -1, -1, buf)):\n"
            "        s = buf[i]\n"
            "        if s < 0:\n"
            "            continue\n") + pieces


def move_filters(k: Lower, given: dict[str, Node]) -> str:
    """Source ` and ...` judging a piece move's if: and unless: with the move from s to t
    made on the board and taken back (judge() in the interpreter); empty without filters."""
    judge = lower_filters(k, given)
    if judge is None:
        return ""
    return " and " + k.function("move_allowed", f"""
def {{name}}(st, T, mover, s, t):
    v = st[s]
    x = st[t]
    put(st, s, {left_behind_table(k)}[v])
    put(st, t, v)
    ok = {judge}(st, T, mover, t, s, s, t)
    put(st, t, x)
    put(st, s, v)
    return ok
""") + "(st, T, mover, s, t)"


def _make_piece_move(k: Lower, start: int) -> str:
    """make: the piece on `from` goes to `to`, leaving behind what it stood on."""
    left = left_behind_table(k)
    return k.function("make_move", f"""
def {{name}}(st, T, mover, act):
    a = act - {start}
    s = a // N
    t = a % N
    v = st[s]
    change(st, s, {left}[v])
    change(st, t, v)
    st[H_TO] = t
    st[H_FROM] = s
""")


# What a step's target must hold, as a mask of sites from the occupancy: own (the mover's
# pieces), enemy (the other roles'), taken (anyone's).
_STEP_TARGETS = {"Empty": "~taken", "Occupied": "taken", "Friend": "own", "Own": "own",
                 "Enemy": "enemy", "EmptyOrEnemy": "~taken | enemy", "Any": "~0"}


def _shifted_steps(k: Lower, node: Form, direction: Node | None, default: str,
                   kind: Node | None, inside: Sequence[frozenset[int]] | None, start: int
                   ) -> str | None:
    """A step generator of every piece of the mover's (no from:, of: or filters) on a board
    of at most 64 sites where each direction moves a role's pieces by one difference of site
    numbers: per direction, the pieces whose next site holds what to: asks are the bits of
    the mover's mask (Lower.occupancy) and of the targets' mask shifted back by that
    difference, both cut to the sites whose step lands on the board (and within:). No
    piece is looked at that has no move. The moves come direction by direction (each in
    site order), not piece by piece. None where that does not apply: more sites, a step
    whose difference varies, a to: with no mask, or values on the board owned by nobody
    (an empty mask would not be the empty sites)."""
    env = k.env
    size = env.topology.size
    name = default if kind is None else getattr(kind, "name", None)
    if size > 64 or not isinstance(kind, Const | type(None)) or name not in _STEP_TARGETS \
            or any(o < 0 for o in env.owner[1:]):
        return None
    label = default if direction is None else getattr(direction, "name", None)
    if not isinstance(label, str) or not isinstance(direction, Const | type(None)):
        return None
    dirs = env.resolve_dirs(label)
    per_role = [tuple(dirs(r)) if callable(dirs) else tuple(dirs) for r in range(len(env.roles))]
    width = max(1, max(len(ds) for ds in per_role))
    shifts = []
    sources = []
    for r, ds in enumerate(per_role):
        row_shift = [0] * width
        row_mask = [0] * width
        for i, d in enumerate(ds):
            pairs = [(s, t) for s, t in enumerate(env.topology.step[d]) if t != -1
                     and t not in env.no_piece and (inside is None or t in inside[r])]
            if len({t - s for s, t in pairs}) > 1:
                return None
            row_shift[i] = pairs[0][1] - pairs[0][0] if pairs else 0
            m = sum(1 << s for s, _ in pairs)
            row_mask[i] = m - (1 << 64) if m >= 1 << 63 else m
        shifts.append(row_shift)
        sources.append(row_mask)
    shift = k.table("step differences", shifts)
    source = k.table("sites a step leaves", sources, wide=True)
    occ = k.occupancy()
    return k.function("steps", f"""
def {{name}}(st, T, mover, acts, tags, n, tag):
    own = st[{occ} + mover]
    taken = own
    for r in range(R):
        if r != mover:
            taken |= st[{occ} + r]
    enemy = taken & ~own
    wanted = {_STEP_TARGETS[str(name)]}
    for d in range({width}):
        by = {shift}[mover, d]
        if by >= 0:
            m = own & {source}[mover, d] & (wanted >> by)
        else:
            m = own & {source}[mover, d] & (wanted << -by)
        while m != 0:
            s = trailing_zeros(m)
            m &= m - 1
            acts[n] = {start} + s * N + s + by
            tags[n] = tag
            n += 1
    return n
""")


def _lower_straight(k: Lower, node: Form, args: tuple[Node, ...], default_dir: str,
                    allowed: set[str], reach: int | None) -> Generator:
    """step and slide (straight_moves): along each direction, over empty sites, onto a site
    holding to:; the first piece or special site ends the line, and so does the first site
    outside within:. The filters if: and unless: are judged with the move made on the
    board (as judge() does), then taken back."""
    from stdlib.jumps import sites_by_mover

    given = keywords(node, allowed, k)
    env = k.env
    if "max" in given:
        bound = given["max"]
        if not isinstance(bound, Int):
            k.refuse(node, f"no kernel lowering of ({node.head}) with a computed max:")
        reach = bound.value
    steps, width = _lower_dirs(k, node, args[0] if args else None, default_dir)
    target = _cell(k, node, given.get("to"), "Empty", "x")
    loop = _lower_origins(k, node, given, steps, width)
    size = env.topology.size
    no_piece = env.no_piece
    inside = None
    if "within" in given:
        inside = sites_by_mover(env, k.compiled(given["within"]))
        if inside is None:
            k.refuse(node, f"no kernel lowering of ({node.head}) with this within:")
    open_ = k.table("open sites", [[0 if s in no_piece or (inside is not None
                                                            and s not in inside[r]) else 1
                                    for s in range(size)] for r in range(len(env.roles))])
    start = k.action_start("move", node)
    limit = reach if reach is not None else size
    admits = move_filters(k, given)
    if limit == 1 and not admits and not ({"from", "of"} & given.keys()):
        shifted = _shifted_steps(k, node, args[0] if args else None, default_dir,
                                 given.get("to"), inside, start)
        if shifted is not None:
            return Generator(shifted, _make_piece_move(k, start), frozenset({"move"}))
    if limit == 1:  # a step: one site, no walk along the line
        closed = f" or {open_}[mover, t] == 0" if no_piece or inside is not None else ""
        # Without filters the move is written first and counted if it is one (no branch
        # to mispredict; the room after the moves listed takes it otherwise).
        listed = (f"            acts[n] = {start} + s * N + t\n"
                  "            tags[n] = tag\n"
                  f"            if {target}:\n"
                  "                n += 1\n") if not admits else (
                  f"            if {target}{admits}:\n"
                  f"                acts[n] = {start} + s * N + t\n"
                  "                tags[n] = tag\n"
                  "                n += 1\n")
        generate = k.function("step", f"""
def {{name}}(st, T, mover, acts, tags, n, tag):
{loop}            if t == -1{closed}:
                continue
            x = st[t]
{listed}    return n
""")
        return Generator(generate, _make_piece_move(k, start), frozenset({"move"}))
    generate = k.function("straight", f"""
def {{name}}(st, T, mover, acts, tags, n, tag):
{loop}            c = 0
            while t != -1 and c < {limit}:
                if {open_}[mover, t] == 0:
                    break
                x = st[t]
                if {target}{admits}:
                    acts[n] = {start} + s * N + t
                    tags[n] = tag
                    n += 1
                if x != 0:
                    break
                t = {steps}[mover, d, t]
                c += 1
    return n
""")
    return Generator(generate, _make_piece_move(k, start), frozenset({"move"}))


@lowers("step")
def lower_step(k: Lower, node: Form, args: tuple[Node, ...]) -> Generator:
    """(step directions [to:] [from:] [of:] [within:] [if:] [unless:]): one site along a
    direction."""
    if any(kw.name == "walls" for kw in node.kwargs):
        from stdlib.walls import lower_walled_line

        return lower_walled_line(k, node, args, "Adjacent", 1)
    return _lower_straight(k, node, args, "Adjacent",
                           {"to", "from", "of", "within", "if", "unless"}, 1)


@lowers("slide")
def lower_slide(k: Lower, node: Form, args: tuple[Node, ...]) -> Generator:
    """(slide [directions] [to:] [from:] [of:] [max:] [within:] [if:] [unless:]): any
    distance along a direction; with over:, beyond screens (stdlib/jumps.py), with walls:,
    stopped by walls (stdlib/walls.py)."""
    if any(kw.name == "walls" for kw in node.kwargs):
        from stdlib.walls import lower_walled_line

        return lower_walled_line(k, node, args, "All", None)
    if any(kw.name == "over" for kw in node.kwargs):
        from stdlib.jumps import lower_screen_slide

        return lower_screen_slide(k, node, args)
    return _lower_straight(k, node, args, "All",
                           {"to", "from", "of", "within", "max", "if", "unless"}, None)


@lowers("hop")
def lower_hop(k: Lower, node: Form, args: tuple[Node, ...]) -> Generator:
    """(hop [directions] [over:] [from:] [of:]): over the neighbouring site, when it holds
    over:, to the empty site just beyond; the piece jumped is taken off."""
    if any(kw.name == "walls" for kw in node.kwargs):
        from stdlib.walls import lower_walled_hop

        return lower_walled_hop(k, node, args)
    given = keywords(node, {"over", "from", "of"}, k)
    env = k.env
    steps, width = _lower_dirs(k, node, args[0] if args else None, "Adjacent")
    jumped = _cell(k, node, given.get("over"), "Enemy", "x")
    loop = _lower_origins(k, node, given, steps, width)
    size = env.topology.size
    open_ = k.table("may hold a piece", [0 if s in env.no_piece else 1 for s in range(size)])
    left = left_behind_table(k)
    start = k.action_start("move", node)
    generate = k.function("hop", f"""
def {{name}}(st, T, mover, acts, tags, n, tag):
{loop}            if t == -1:
                continue
            x = st[t]
            if x == 0 or not ({jumped}):
                continue
            u = {steps}[mover, d, t]
            if u == -1 or st[u] != 0 or {open_}[u] == 0:
                continue
            acts[n] = {start} + s * N + u
            tags[n] = tag
            n += 1
    return n
""")
    make = k.function("make_hop", f"""
def {{name}}(st, T, mover, act):
    a = act - {start}
    s = a // N
    u = a % N
    v = st[s]
    t = -1
    for d in range({width}):
        m = {steps}[mover, d, s]
        if m != -1 and {steps}[mover, d, m] == u:
            x = st[m]
            if x != 0 and ({jumped}):
                t = m
                break
    change(st, s, {left}[v])
    if t != -1:
        change(st, t, {left}[st[t]])
    change(st, u, v)
    st[H_TO] = u
    st[H_FROM] = s
""")
    return Generator(generate, make, frozenset({"move"}))


def _when_alternatives(k: Lower, condition: str, parts: list[Any]) -> Alternatives:
    """(when) over alternatives: each of their generators lists its moves only while the
    condition holds (those of otherwise: only while it does not); a move is made by the
    generator that listed it."""
    def guard(moves: Generator | Alternatives, test: str) -> Generator | Alternatives:
        if isinstance(moves, Alternatives):
            return Alternatives([guard(p, test) for p in moves.parts], moves.ordered)
        generate = k.function("when_part", f"""
def {{name}}(st, T, mover, acts, tags, n, tag):
    to = -1
    frm = -1
    if {test}:
        return {moves.generate}(st, T, mover, acts, tags, n, tag)
    return n
""")
        return replace(moves, generate=generate)
    out = [guard(parts[0], condition)]
    if len(parts) > 1:
        out.append(guard(parts[1], f"not ({condition})"))
    return Alternatives(out)


# Leaps and promotions (the chess family's moves).

@lowers("leap")
def lower_leap(k: Lower, node: Form, args: tuple[Node, ...]) -> Generator:
    """(leap across up [to:] [from:] [of:]): to each site a leap away, whatever lies between,
    holding to: (with path: or within:, a lame leap: stdlib/jumps.py; filters stay
    interpreted otherwise)."""
    if any(kw.name in ("path", "within") for kw in node.kwargs):
        from stdlib.jumps import lower_lame_leap

        return lower_lame_leap(k, node, args)
    given = keywords(node, {"to", "from", "of"}, k)
    if not (len(args) == 2 and all(isinstance(a, Int) for a in args)):
        k.refuse(node, "no kernel lowering of (leap) with computed distances")
    env = k.env
    targets = leap_targets(env, args[0].value, args[1].value)  # type: ignore[attr-defined]
    return lower_leaps(k, node, given, [targets] * len(env.roles))


def lower_leaps(k: Lower, node: Form, given: dict[str, Node],
                by_role: Sequence[Sequence[Sequence[int]]]) -> Generator:
    """A generator of leaps: from each origin (from:, of:) to the sites `by_role[mover][s]`
    lists, whatever lies between, holding to: (by default empty or an enemy's) — (leap ...)
    with the same targets for every role, (leap-ahead ...) with each role's forward ones."""
    width = max(1, max(len(t) for per_role in by_role for t in per_role))
    steps = k.table("leaps by role", [[[t[d] if d < len(t) else -1 for t in per_role]
                                       for d in range(width)] for per_role in by_role])
    target = _cell(k, node, given.get("to"), "EmptyOrEnemy", "x")
    loop = _lower_origins(k, node, given, steps, width)
    env = k.env
    open_ = k.table("may hold a piece",
                    [0 if s in env.no_piece else 1 for s in range(env.topology.size)])
    start = k.action_start("move", node)
    generate = k.function("leap", f"""
def {{name}}(st, T, mover, acts, tags, n, tag):
{loop}            if t == -1 or {open_}[t] == 0:
                continue
            x = st[t]
            if {target}:
                acts[n] = {start} + s * N + t
                tags[n] = tag
                n += 1
    return n
""")
    return Generator(generate, _make_piece_move(k, start), frozenset({"move"}))


@lowers("promoting")
def lower_promoting(k: Lower, node: Form, args: tuple[Node, ...]) -> Generator | Alternatives:
    """(promoting moves to: in: [of:]): each moving generator of the moves, except that a
    move of a piece (of the of: kind) onto a site of the region (one that depends only on
    the mover) becomes one move per kind named in to:, numbered in that kind's block."""
    from dsl.ast import ListNode
    from stdlib.regions import region_by_mover

    given = keywords(node, {"to", "in", "of"}, k)
    env = k.env
    names = given["to"]
    items = names.items if isinstance(names, ListNode) else (names,)
    if not all(isinstance(i, Str) for i in items):
        k.refuse(node, "no kernel lowering of (promoting) with computed kinds")
    zone = region_by_mover(k, given["in"]) if isinstance(given["in"], Form) else None
    if zone is None:
        k.refuse(node, "no kernel lowering of (promoting) in a region that depends on the "
                 "position")
    of = given.get("of")
    if of is not None and not isinstance(of, Str):
        k.refuse(node, "no kernel lowering of (promoting) with a computed of:")
    kinds = kinds_named(env, of.value if isinstance(of, Str) else None)
    roles = range(len(env.roles))
    size = env.topology.size
    starts, values = [], []
    for r in roles:
        here_starts, here_values = [], []
        for i in items:
            value = kind_value(env, r, i.value)  # type: ignore[attr-defined]
            if value is None:
                k.refuse(node, "a role has no piece to promote to")
            letter = env.pieces[value - 1].symbol.upper()
            here_starts.append(k.action_start(f"{PROMOTION_PREFIX}{letter}", node))
            here_values.append(value)
        starts.append(here_starts)
        values.append(here_values)
    choices = len(items)
    start_table = k.table("promotion blocks", starts)
    value_table = k.table("promotion values", values)
    mask = k.table("promotion zone", [[1 if s in z else 0 for s in range(size)] for z in zone])
    promoted = k.table("promoted kinds", [1 if kinds is None or v in kinds else 0
                                          for v in range(len(env.owner))])
    move_start = k.action_start("move", node)
    kinds_made = frozenset(f"{PROMOTION_PREFIX}{env.pieces[v - 1].symbol.upper()}"
                           for here in values for v in here)

    def wrap(moves: Generator | Alternatives) -> Generator | Alternatives:
        if isinstance(moves, Alternatives):
            return Alternatives([wrap(p) for p in moves.parts], moves.ordered)
        if not isinstance(moves, Generator) or moves.kinds != {"move"}:
            k.refuse(node, "no kernel lowering of (promoting) over moves other than a "
                     "piece's")
        generate = k.function("promoting", f"""
def {{name}}(st, T, mover, acts, tags, n, tag):
    m = {moves.generate}(st, T, mover, acts, tags, n, tag)
    end = m
    for i in range(n, m):
        a = acts[i] - {move_start}
        s = a // N
        t = a % N
        if {mask}[mover, t] == 0 or {promoted}[st[s]] == 0:
            continue
        acts[i] = {start_table}[mover, 0] + a
        for j in range(1, {choices}):
            acts[end] = {start_table}[mover, j] + a
            tags[end] = tag
            end += 1
    return end
""")
        make = k.function("make_promoting", f"""
def {{name}}(st, T, mover, act):
    if {move_start} <= act < {move_start} + N * N:
        {moves.make}(st, T, mover, act)
        return
    for j in range({choices}):
        a = act - {start_table}[mover, j]
        if 0 <= a < N * N:
            {moves.make}(st, T, mover, {move_start} + a)
            change(st, a % N, {value_table}[mover, j])
            return
""")
        return Generator(generate, make, moves.kinds | kinds_made, moves.passes)
    return wrap(k.lower(args[0], "Moves"))


@lowers("optional")
def lower_optional(k: Lower, node: Form, args: tuple[Node, ...]) -> Alternatives:
    """(optional moves): the moves, and a pass to decline them."""
    keywords(node, set(), k)
    return Alternatives([k.lower(args[0], "Moves"), lower_pass(k, node, ())])


@lowers("take")
def lower_take(k: Lower, node: Form, args: tuple[Node, ...]) -> Generator:
    """(take region [if:] [unless:]): each piece on a site of the region (once, whatever
    the region repeats) taken off the board, leaving behind what it stood on; the filters
    judged on the board after it is gone, To its site."""
    given = keywords(node, {"if", "unless"}, k)
    env = k.env
    start = k.action_start("remove", node)
    left = left_behind_table(k)
    allowed = k.table("may hold a piece",
                      [0 if s in env.no_piece else 1 for s in range(env.topology.size)])
    region = k.lower(args[0], "Region")
    judge = lower_filters(k, given)
    admits = "True" if judge is None else k.function("removal_allowed", f"""
def {{name}}(st, T, mover, s):
    v = st[s]
    put(st, s, {left}[v])
    ok = {judge}(st, T, mover, s, -1, s, -1)
    put(st, s, v)
    return ok
""") + "(st, T, mover, s)"
    generate = k.function("take", f"""
def {{name}}(st, T, mover, acts, tags, n, tag):
    buf = np.empty(N, np.int32)
    seen = np.zeros(N, np.bool_)
    for i in range({region}(st, T, mover, -1, -1, buf)):
        s = buf[i]
        if seen[s]:
            continue
        seen[s] = True
        if st[s] != 0 and {allowed}[s] and {admits}:
            acts[n] = {start} + s
            tags[n] = tag
            n += 1
    return n
""")
    make = k.function("make_take", f"""
def {{name}}(st, T, mover, act):
    s = act - {start}
    change(st, s, {left}[st[s]])
    st[H_TO] = s
    st[H_FROM] = -1
""")
    return Generator(generate, make, frozenset({"remove"}))


@lowers("fly")
def lower_fly(k: Lower, node: Form, args: tuple[Node, ...]) -> Generator:
    """(fly [region] [of:] [if:] [unless:]): each of the mover's pieces (of the of: kind) to
    each empty site of the region (any without) where a piece may stand; the filters judged
    on the board after the move, To and From bound."""
    from stdlib.sowing import region_mask

    given = keywords(node, {"of", "if", "unless"}, k)
    env = k.env
    of = given.get("of")
    if of is not None and not isinstance(of, Str):
        k.refuse(node, "no kernel lowering of (fly) with a computed of:")
    kinds = kinds_named(env, of.value if isinstance(of, Str) else None)
    movable = k.table("movable kinds", [1 if kinds is None or v in kinds else 0
                                        for v in range(len(env.owner))])
    allowed = k.table("may hold a piece",
                      [0 if s in env.no_piece else 1 for s in range(env.topology.size)])
    left = left_behind_table(k)
    start = k.action_start("move", node)
    prepare, inside = region_mask(k, args[0]) if args else ("", lambda t: "True")
    judge = lower_filters(k, given)
    admits = "True" if judge is None else k.function("flight_allowed", f"""
def {{name}}(st, T, mover, s, t):
    v = st[s]
    put(st, s, {left}[v])
    put(st, t, v)
    ok = {judge}(st, T, mover, t, s, s, t)
    put(st, t, 0)
    put(st, s, v)
    return ok
""") + "(st, T, mover, s, t)"
    generate = k.function("fly", f"""
def {{name}}(st, T, mover, acts, tags, n, tag):
{prepare}    for s in range(N):
        v = st[s]
        if OWNER[v] != mover or {movable}[v] == 0:
            continue
        for t in range(N):
            if t != s and {inside("t")} and st[t] == 0 and {allowed}[t] and {admits}:
                acts[n] = {start} + s * N + t
                tags[n] = tag
                n += 1
    return n
""")
    return Generator(generate, _make_piece_move(k, start), frozenset({"move"}))


@lowers("walk")
def lower_walk(k: Lower, node: Form, args: tuple[Node, ...]) -> Generator:
    """(walk through: to: [by:] [if:] [unless:]): each of the mover's pieces to each site
    where to: holds in the areas of sites where through: holds next to it (both conditions
    on what Site holds, looked up by board value), in site order; the filters judged on the
    board after the move, To and From bound."""
    from stdlib.logic import site_table
    from stdlib.lowering import padded

    given = keywords(node, {"through", "to", "by", "if", "unless"}, k)
    env = k.env
    by = given.get("by")
    if by is not None and not isinstance(by, Const):
        k.refuse(node, "no kernel lowering of (walk) with these directions")
    tables = []
    for name in ("through", "to"):
        verdicts = site_table(k.compiled(given[name]))
        if verdicts is None:
            k.refuse(given[name], f"no kernel lowering of (walk) with a {name}: that reads "
                                  "more than what Site holds yet")
        tables.append(k.table("site verdicts", [[int(b) for b in row] for row in verdicts]))
    passes, ends = tables
    near = k.table("neighbours", padded(env.topology.neighbours(
        env.absolute_dirs(by.name if isinstance(by, Const) else "Adjacent"))))
    allowed = k.table("may hold a piece",
                      [0 if s in env.no_piece else 1 for s in range(env.topology.size)])
    start = k.action_start("move", node)
    admits = "True" + move_filters(k, given)
    generate = k.function("walk", f"""
def {{name}}(st, T, mover, acts, tags, n, tag):
    area = np.full(N, -1, np.int32)
    stack = np.empty(N, np.int32)
    areas = 0
    for s in range(N):  # the areas of sites where through: holds
        if area[s] >= 0 or {passes}[mover, st[s]] == 0 or {allowed}[s] == 0:
            continue
        area[s] = areas
        stack[0] = s
        top = 1
        while top > 0:
            top -= 1
            u = stack[top]
            j = 0
            while {near}[u, j] != -1:
                w = {near}[u, j]
                if area[w] < 0 and {passes}[mover, st[w]] == 1 and {allowed}[w] == 1:
                    area[w] = areas
                    stack[top] = w
                    top += 1
                j += 1
        areas += 1
    mark = np.full(max(areas, 1), -1, np.int32)
    for s in range(N):
        if OWNER[st[s]] != mover:
            continue
        j = 0
        while {near}[s, j] != -1:
            a = area[{near}[s, j]]
            if a >= 0:
                mark[a] = s
            j += 1
        for t in range(N):
            if t != s and area[t] >= 0 and mark[area[t]] == s and {ends}[mover, st[t]] == 1 \\
                    and {allowed}[t] == 1 and {admits}:
                acts[n] = {start} + s * N + t
                tags[n] = tag
                n += 1
    return n
""")
    return Generator(generate, _make_piece_move(k, start), frozenset({"move"}))


@lowers("place-group")
def lower_place_group(k: Lower, node: Form, args: tuple[Node, ...]) -> Generator:
    """(place-group size [by:] [onto:] [max-replaced:]): the mover's piece on every site of
    each connected group of sites that fits (each empty where a piece may stand, or with
    onto:EmptyOrEnemy an enemy's piece, replaced, at most max-replaced: of them), none when
    the mover's hand holds fewer than size pieces; in the order of the groups."""
    from stdlib.lowering import padded

    given = keywords(node, {"by", "onto", "max-replaced"}, k)
    size = args[0].value if isinstance(args[0], Int) else 0
    if size < 1:
        k.refuse(node, "no kernel lowering of (place-group) without a literal size")
    by, onto, limit = given.get("by"), given.get("onto"), given.get("max-replaced")
    if by is not None and not isinstance(by, Const) or \
            onto is not None and not (isinstance(onto, Const)
                                      and onto.name in ("Empty", "EmptyOrEnemy")) or \
            limit is not None and not isinstance(limit, Int):
        k.refuse(node, "no kernel lowering of (place-group) with these arguments")
    env = k.env
    groups = connected_groups(env, size, env.absolute_dirs(
        by.name if isinstance(by, Const) else "Adjacent"),
        Budget(MAX_GROUPS, f"(place-group {size} ...)", "enumerate", "groups",
               "use a smaller group size or board"))
    replace = isinstance(onto, Const) and onto.name == "EmptyOrEnemy"
    most = limit.value if isinstance(limit, Int) else size
    sites = k.table("groups", padded(groups) or [[-1]])
    numbers = k.table("group actions", [k.action_of("multi", g, node) for g in groups] or [0])
    values = k.table("placed", [_placed(env, None, r) for r in range(len(env.roles))])
    allowed = k.table("may hold a piece",
                      [0 if s in env.no_piece else 1 for s in range(env.topology.size)])
    generate = k.function("place_group", f"""
def {{name}}(st, T, mover, acts, tags, n, tag):
    if COUNTS_HANDS and 0 <= st[HANDS + mover] < {size}:
        return n
    for g in range({len(groups)}):
        replaced = 0
        fits = True
        for j in range({size}):
            s = {sites}[g, j]
            v = st[s]
            if v == 0:
                if {allowed}[s] == 0:
                    fits = False
                    break
                continue
            who = OWNER[v]
            if not {replace} or who < 0 or who == mover:
                fits = False
                break
            replaced += 1
        if fits and replaced <= {most}:
            acts[n] = {numbers}[g]
            tags[n] = tag
            n += 1
    return n
""")
    make = k.function("make_place_group", f"""
def {{name}}(st, T, mover, act):
    g = 0
    while {numbers}[g] != act:
        g += 1
    for j in range({size}):
        change(st, {sites}[g, j], {values}[mover])
    st[H_TO] = {sites}[g, {size - 1}]
    st[H_FROM] = -1
""")
    return Generator(generate, make, frozenset({"multi"}))


@lowers("exchange")
def lower_exchange(k: Lower, node: Form, args: tuple[Node, ...]) -> Generator:
    """(exchange [directions] [within:]): the contents of two neighbouring sites holding
    different pieces swapped, with within: only inside a window where the pattern stands
    before the exchange; in the order of the pairs (an exchange puts down as many of each
    role's pieces as it takes up: no hand is short of one)."""
    from stdlib.lowering import padded
    from stdlib.patterns import PatternSpec, lower_windows, windows

    given = keywords(node, {"within"}, k)
    direction = args[0] if args else None
    if direction is not None and not isinstance(direction, Const):
        k.refuse(node, "no kernel lowering of (exchange) with these directions")
    env = k.env
    steps = env.topology.step
    pairs = sorted({(min(s, t), max(s, t))
                    for d in env.absolute_dirs(direction.name if direction else "Adjacent")
                    for s in range(env.topology.size) if (t := steps[d][s]) != -1})
    per_pair: list[list[int]] = [[] for _ in pairs]
    holds = "window_none"
    if "within" in given:
        spec = k.compiled(given["within"])
        if not isinstance(spec, PatternSpec):
            k.refuse(node, "no kernel lowering of (exchange) with this within:")
        found = windows(env, spec)
        index = {p: i for i, p in enumerate(pairs)}
        for w, window in enumerate(found):
            cells = set(window.sites)
            for i in sorted({index[(a, b)] for a in cells for b in cells
                             if (a, b) in index}):
                per_pair[i].append(w)
        kept = [i for i in range(len(pairs)) if per_pair[i]]
        pairs = [pairs[i] for i in kept]
        per_pair = [per_pair[i] for i in kept]
        _, holds = lower_windows(k, found)
    within = "within" in given
    ends = k.table("pairs", [list(p) for p in pairs] or [[0, 0]])
    numbers = k.table("pair actions", [k.action_of("exchange", p, node) for p in pairs] or [0])
    inside = k.table("windows by pair", padded(per_pair) or [[-1]])
    test = f"""
        ok = False
        j = 0
        while {inside}[p, j] != -1:
            if {holds}(st, {inside}[p, j]):
                ok = True
                break
            j += 1
        if not ok:
            continue""" if within else ""
    generate = k.function("exchange", f"""
def {{name}}(st, T, mover, acts, tags, n, tag):
    for p in range({len(pairs)}):
        a = {ends}[p, 0]
        b = {ends}[p, 1]
        va = st[a]
        vb = st[b]
        if va == vb or va == 0 or vb == 0:
            continue{test}
        acts[n] = {numbers}[p]
        tags[n] = tag
        n += 1
    return n
""")
    make = k.function("make_exchange", f"""
def {{name}}(st, T, mover, act):
    p = 0
    while {numbers}[p] != act:
        p += 1
    a = {ends}[p, 0]
    b = {ends}[p, 1]
    va = st[a]
    vb = st[b]
    change(st, a, vb)
    change(st, b, va)
    st[H_TO] = b
    st[H_FROM] = -1
""")
    return Generator(generate, make, frozenset({"exchange"}))
