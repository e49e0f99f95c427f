"""Promotion a player may choose, and where a piece could never move again.

`(may-promote MOVES to:KIND in:REGION)` offers, beside each move of a piece that enters,
leaves or moves within the region, the same move with the piece promoted; the plain move is
left out where the piece could never move again from where it lands, so promotion is forced
there. Whether a piece could move again is one question, `stranded`, asked of the piece's own
moves on a board empty but for it: a pawn that steps forward is stranded on the last row, a
piece that leaps two rows forward on the last two. `(sites Stranded KIND by:MOVES)` asks it of
every site, for rules that keep pieces off such sites (no drop where a piece could not move).
Nothing here names a game: the moves, kinds and regions are the game file's."""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from dsl.ast import Form, Node, Str
from stdlib.lowering import Alternatives, Generator, Lower, keywords, lowers
from stdlib.moves import PROMOTION_PREFIX, Reach, kind_value
from stdlib.parts import mark, parts_of
from stdlib.registry import ludeme
from stdlib.runtime import EMPTY, Ctx, Env, Move, moves_a_piece
from stdlib.types import Moves, Region


class Stranded:
    """Whether a piece (a board value) on a site could never move again by some moves: none
    of them starts on the site when it stands alone on the board. Asked once per piece and
    site, when first needed."""

    def __init__(self, env: Env, moves: Moves) -> None:
        self.env = env
        self.moves = moves
        self.known: dict[tuple[int, int], bool] = {}

    def __call__(self, value: int, site: int) -> bool:
        key = (value, site)
        found = self.known.get(key)
        if found is None:
            env = self.env
            board = [EMPTY] * env.topology.size
            board[site] = value
            ctx = Ctx(board, env.owner[value], None, env, env.owner)
            found = self.known[key] = not any(
                m.sites and m.sites[0] == site for m in self.moves(ctx))
        return found


def zone_of(region: Region) -> Callable[[Ctx], frozenset[int]]:
    """The region's sites as a set, kept by the tuple the region gives (a region that depends
    on the mover alone gives the same tuple each time)."""
    zones: dict[int, tuple[Any, frozenset[int]]] = {}

    def zone(ctx: Ctx) -> frozenset[int]:
        found = region(ctx)
        kept = zones.get(id(found))
        if kept is not None and kept[0] is found:
            return kept[1]
        sites = frozenset(found)
        if isinstance(found, tuple):
            if len(zones) > 64:
                zones.clear()
            zones[id(found)] = (found, sites)
        return sites
    return zone


@ludeme("may-promote")
def may_promote(env: Env, moves: Moves, *, to: str, in_: Region) -> Moves:
    """The moves, and beside each move of a piece that starts or ends on a site of the region,
    the same move promoting the piece to the mover's kind named by `to:`, written with the new
    piece's letter (`c7-c8=T`): the mover chooses. Where the piece could never move again
    from the site it reaches by these moves (a pawn on the last row), only the promoting move
    is offered. Wrap each kind's moves with its own promoted kind.

    (may-promote (step Forward of:"Pawn" to:EmptyOrEnemy) to:"Tokin" in:(sites Named "Zone"))"""
    values = [kind_value(env, r, to) for r in range(len(env.roles))]
    missing = [env.roles[r] for r, v in enumerate(values) if v is None]
    if missing:
        env.error(f'{", ".join(missing)} has no piece named "{to}" to promote to')
    letter = env.pieces[values[0] - 1].symbol.upper() if values[0] else "?"
    kind = f"{PROMOTION_PREFIX}{letter}"
    names = env.names
    stranded = Stranded(env, moves)
    zone_of_mover = zone_of(in_)
    # Per move (made once per game), what it becomes: itself and its promotion, or only one.
    made: dict[tuple[int, Move, frozenset[int]], tuple[Move, ...]] = {}

    def choices(mover: int, move: Move, zone: frozenset[int], board: list[int]
                ) -> tuple[Move, ...]:
        frm, dest = move.sites[0], move.sites[-1]
        if frm not in zone and dest not in zone:
            return (move,)
        value = values[mover]
        if value is None:
            return (move,)
        promoted = Move(kind, move.sites, tuple((s, value if s == dest else v)
                                               for s, v in move.changes), names)
        if stranded(board[frm], dest):
            return (promoted,)
        return (move, promoted)

    def generate(ctx: Ctx) -> list[Move]:
        listed = moves(ctx)
        if not listed:
            return listed if isinstance(listed, list) else []
        zone = zone_of_mover(ctx)
        mover, board = ctx.mover, ctx.board
        out: list[Move] = []
        for m in listed:
            if not moves_a_piece(m.kind):
                out.append(m)
                continue
            key = (board[m.sites[0]], m, zone)
            found = made.get(key)
            if found is None:
                found = made[key] = choices(mover, m, zone, board)
            out.extend(found)
        return out

    given, theirs = mark(generate), parts_of(moves)
    given.kinds = (theirs.kinds or frozenset()) | {kind}
    given.attacks = theirs.attacks
    inner = theirs.reach
    if inner is not None:  # the same sites; one move may become two of different kinds
        given.reach = Reach(inner.pairs, inner.values, lambda: inner.distinct)
    return generate


@ludeme("sites Stranded")
def sites_stranded(env: Env, piece: str, *, by: Moves) -> Region:
    """The sites where the mover's piece of the named kind could never move again by the `by:`
    moves: standing alone on the board, none of them would take it anywhere (for a piece that
    steps forward, the last row). A rule keeps pieces off them, e.g. no drop there.

    (drop-from-hand (difference (sites Empty) (sites Stranded "Knight" by:("Moves")))
                    of:{"Knight"})"""
    stranded = Stranded(env, by)
    values = [kind_value(env, r, piece) for r in range(len(env.roles))]
    missing = [env.roles[r] for r, v in enumerate(values) if v is None]
    if missing:
        env.error(f'{", ".join(missing)} has no piece named "{piece}"')
    per_role: list[tuple[int, ...]] = []

    def region(ctx: Ctx) -> Collection[int]:
        if not per_role:
            per_role.extend(tuple(s for s in range(env.topology.size)
                                  if v is not None and stranded(v, s)) for v in values)
        return per_role[ctx.mover]
    return region



# Kernel lowerings (stdlib/lowering.py) ---------------------------------------------------------

@lowers("may-promote")
def lower_may_promote(k: Lower, node: Form, args: tuple[Node, ...]) -> Generator | Alternatives:
    """(may-promote moves to: in:): each moving generator of the moves, and beside each move
    starting or ending in the region (listed once per listing) the same move
    promoting the piece, numbered in the promoted kind's block; the plain move left out
    where the piece would be stranded (a table by board value and site, asked of the moves
    as the interpreter asks them)."""
    from stdlib.sowing import region_mask

    given = keywords(node, {"to", "in"}, k)
    env = k.env
    kind = given["to"]
    if not isinstance(kind, Str):
        k.refuse(node, "no kernel lowering of (may-promote) with a computed kind")
    values = [kind_value(env, r, kind.value) for r in range(len(env.roles))]
    if any(v is None for v in values):
        k.refuse(node, "no kernel lowering of (may-promote) where a role has no such kind")
    letter = env.pieces[values[0] - 1].symbol.upper()  # type: ignore[operator]
    promo_start = k.action_start(f"{PROMOTION_PREFIX}{letter}", node)
    move_start = k.action_start("move", node)
    size = env.topology.size
    stranded = Stranded(env, k.compiled(args[0]))
    prepare, zone_has = region_mask(k, given["in"])
    value_table = k.table("promoted values", values)
    # By board value and site (read only for the pieces these moves move).
    stuck = k.table("stranded", [[int(env.owner[v] >= 0 and stranded(v, s))
                                  for s in range(size)] for v in range(len(env.owner))])

    def wrap(moves: Generator | Alternatives) -> Generator | Alternatives:
        if isinstance(moves, Alternatives):
            return Alternatives([wrap(p) for p in moves.parts], moves.ordered)
        if not isinstance(moves, Generator) or moves.kinds != {"move"}:
            k.refuse(node, "no kernel lowering of (may-promote) over moves other than a "
                     "piece's")
        generate = k.function("may_promote", f"""
def {{name}}(st, T, mover, acts, tags, n, tag):
    m = {moves.generate}(st, T, mover, acts, tags, n, tag)
    if m == n:
        return m
{prepare}    end = m
    for i in range(n, m):
        a = acts[i] - {move_start}
        s = a // N
        t = a % N
        if not {zone_has("s")} and not {zone_has("t")}:
            continue
        if {stuck}[st[s], t] == 1:
            acts[i] = {promo_start} + a
        else:
            acts[end] = {promo_start} + a
            tags[end] = tag
            end += 1
    return end
""")
        make = k.function("make_may_promote", f"""
def {{name}}(st, T, mover, act):
    if {move_start} <= act < {move_start} + N * N:
        {moves.make}(st, T, mover, act)
        return
    a = act - {promo_start}
    {moves.make}(st, T, mover, {move_start} + a)
    change(st, a % N, {value_table}[mover])
""")
        return Generator(generate, make, moves.kinds | {f"{PROMOTION_PREFIX}{letter}"},
                         moves.passes)
    return wrap(k.lower(args[0], "Moves"))


@lowers("sites Stranded")
def lower_sites_stranded(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(sites Stranded piece by:): the sites where the mover's piece of that kind could never
    move again by the by: moves (a table by mover, asked of the moves at build time)."""
    from stdlib.lowering import padded

    given = keywords(node, {"by"}, k)
    if not isinstance(args[0], Str):
        k.refuse(node, "no kernel lowering of (sites Stranded) with a computed kind")
    env = k.env
    stranded = Stranded(env, k.compiled(given["by"]))
    values = [kind_value(env, r, args[0].value) for r in range(len(env.roles))]
    rows = [[s for s in range(env.topology.size) if v is not None and stranded(v, s)]
            for v in values]
    table = k.table("stranded sites", padded(rows))
    return k.function("sites_stranded", f"""
def {{name}}(st, T, mover, to, frm, buf):
    c = 0
    while {table}[mover, c] != -1:
        buf[c] = {table}[mover, c]
        c += 1
    return c
""")
