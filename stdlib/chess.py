"""The chess family's ludemes: attack tests, castling, en passant and the halfmove clock.

They are written for chess and usable by any variant: the pieces, the attacking moves, the
rook's and the king's kinds are arguments, not built in. `(attacked ...)` answers from each
attacking move's own reverse test where it has one (steps, slides and leaps that capture by
replacement look back from the attacked site), and otherwise by generating the attacker's
moves."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from dsl.ast import Form, Node
from stdlib.lowering import Generator, Lower, keywords, lowers
from stdlib.moves import (
    AttackTest,
    Line,
    Reach,
    accept,
    kind_value,
    kinded,
    kinds_named,
    value_sites,
)
from stdlib.parts import mark, parts_of
from stdlib.regions import KindSites
from stdlib.registry import ludeme
from stdlib.runtime import EMPTY, Ctx, Env, Memory, Move
from stdlib.statefields import MoveCounters, declare
from stdlib.steps import Changes, MoveScreen
from stdlib.types import Cond, IntExpr, Moves, Region, RoleExpr


def attack_test(env: Env, moves: Moves) -> Callable[[Ctx, int, int], bool]:
    """(ctx, site, role) -> can one of `moves`, made by `role`, take a piece on the site? From
    the moves' reverse test if they have one, else by generating them."""
    reverse = parts_of(moves).attacks
    if reverse is not None:
        return reverse

    def by_generating(ctx: Ctx, site: int, role: int) -> bool:
        probe = Ctx(ctx.board, role, ctx.state, env, ctx.owner)
        return any(m.sites and m.sites[-1] == site for m in moves(probe))
    return by_generating


@ludeme("attacked")
def attacked(env: Env, region: Region, *, by: Moves, attacker: RoleExpr | None = None
             ) -> Cond:
    """True when a piece of `attacker` (by default the player after the mover) could take a
    piece on one of the region's sites with one of the `by:` moves, were it its turn: check,
    when the region is the king's site. The moves are those that capture, written as for
    play (`(slide Orthogonal of:"Rook" to:Enemy)`, ...).

    (forbid (named "it leaves the king in check"
              (attacked (sites Occupied Mover of:{"King"}) by:("Attacks"))))"""
    return Attacked(env, region, attack_test(env, by), attacker)


class Attacked:
    """The condition of (attacked ...), and its screen (stdlib.steps.Screen): which moves
    certainly leave the region unattacked, worked out once per position from the region's
    sites (pins and checks, as a chess program finds them from the king), so that (forbid
    ...) need not try them."""

    def __init__(self, env: Env, region: Region, test: Callable[[Ctx, int, int], bool],
                 attacker: RoleExpr | None) -> None:
        says = mark(self)
        says.why = "a piece is attacked"
        says.screen = self.screen
        self.region = region
        self.test = test
        self.attacker = attacker
        self.roles = len(env.roles)
        # The screen needs the region to be the sites holding some board values, and the
        # attacks to say what they depend on (AttackTest.lines).
        self.values = region.values if isinstance(region, KindSites) else None
        self.lines = test.lines if isinstance(test, AttackTest) else None
        self.screened = test.screened if isinstance(test, AttackTest) else None
        # The position's sites of each board value, to look only along the lines where a
        # piece of the attacker of the line's kinds stands.
        self.known = value_sites(env) if self.lines is not None else None
        self.owner = env.owner
        self._near: dict[tuple[int, int], tuple[dict[int, list[int]], tuple[int, ...]]] = {}
        # Per (attacker, region's values): the board values whose putting anywhere needs the
        # exact test, as a bitset.
        self._bad: dict[tuple[int, tuple[int, ...]], int] = {}

    def near(self, role: int, site: int, found: tuple[Line, ...]
             ) -> tuple[dict[int, list[int]], tuple[int, ...]]:
        """For the lines from `site` (found): which lines each site lies on, and the board
        values of `role` that take along one of them."""
        key = (role, site)
        known = self._near.get(key)
        if known is None:
            on: dict[int, list[int]] = {}
            values: set[int] = set()
            mine = [v for v, o in enumerate(self.owner) if o == role]
            for i, (ray, kinds) in enumerate(found):
                for t in ray:
                    on.setdefault(t, []).append(i)
                values.update(v for v in mine if kinds is None or v in kinds)
            known = self._near[key] = (on, tuple(sorted(values)))
        return known

    def __call__(self, ctx: Ctx) -> bool:
        attacker = self.attacker
        role = attacker(ctx) if attacker is not None else (ctx.mover + 1) % self.roles
        test = self.test
        for s in self.region(ctx):
            if test(ctx, s, role):
                return True
        return False

    def screen(self, ctx: Ctx) -> Callable[[Move], bool] | None:
        """A test true of the moves that certainly leave the condition false (ctx: the
        position before them, its mover the one moving; None: try every move).

        Most moves are passed at a glance, soundly because a role expression is a function
        of the mover alone (Mover, Next, Prev), the region is the sites holding its values,
        and each attack's answer can become true only by a piece of the attacker arriving or
        a site of one of its lines being emptied (see AttackTest.lines): when the condition
        is false now, a move that changes no site of the region and puts no value of the
        region, nor a piece of the attacker, anywhere, and does not empty every piece
        between a region's site and the first attacking piece of one of its lines (no pinned
        piece, the only one there, and not two of several) leaves it false; along a line
        where the attack jumps N pieces (a cannon's: AttackTest.screened), neither may it put
        a piece between a region's site and an attacker with fewer than N pieces between
        them, nor empty one of N + 1 (nor two of more). Any other move
        (a king's, castling, en passant emptying two sites of the king's rank, a pinned
        piece's, every move while in check) is judged exactly: its changes made on the board
        in place, the condition judged, the board put back; passed if it is false."""
        lines, values_of = self.lines, self.values
        if lines is None or values_of is None:
            return None
        attacker = self.attacker
        role = attacker(ctx) if attacker is not None else (ctx.mover + 1) % self.roles
        sites = self.region(ctx)
        values = values_of(ctx)
        board, owner, test, state = ctx.board, ctx.owner, self.test, ctx.state

        def exact(move: Move) -> bool:
            """The condition is false after the move (judged on the board, then undone)."""
            changes = move.changes
            if len(changes) == 2 and changes[0][0] != changes[1][0]:
                # The usual move (a piece leaving one site for another), without building
                # a dict of its changes.
                (a, x), (b, y) = changes
                undo: Changes = ((b, board[b]), (a, board[a]))
                after = [s for s in sites if s != a and s != b]
                if x in values:
                    after.append(a)
                if y in values:
                    after.append(b)
            else:
                undo = tuple([(s, board[s]) for s, _ in reversed(changes)])
                final = dict(changes)
                # The region after the move: the sites holding its values (see KindSites).
                after = [s for s in sites if s not in final]
                after += [s for s, v in final.items() if v in values]
            if state is not None:
                state.trial += 1  # the board is not the position's for now (see Env.track)
            try:
                for s, v in changes:
                    board[s] = v
                for s in after:
                    if test(ctx, s, role):
                        return False
                return True
            finally:
                for s, v in undo:
                    board[s] = v
                if state is not None:
                    state.trial -= 1

        pinned: set[int] = set()  # the one piece between a site and an attacker on a line
        guarded: set[int] = set()  # one of several pieces between them
        screened = self.screened
        for k in sites:
            if test(ctx, k, role):
                return exact  # in check
            found = lines(role, k)
            if found is None:
                return None
            if screened is not None:
                for ray, kinds, over in screened(role, k):
                    met: list[int] = []  # the pieces met so far
                    for i, t in enumerate(ray):
                        v = board[t]
                        if v == EMPTY:
                            continue
                        if owner[v] == role and (kinds is None or v in kinds):
                            if len(met) == over:
                                return exact  # (the test would have said check)
                            if len(met) < over:  # a piece arriving on the way opens it
                                pinned.update(ray[:i])
                            elif len(met) == over + 1:
                                pinned.update(met)
                            else:
                                guarded.update(met)
                        met.append(t)
            data = self.known(ctx) if self.known is not None else None
            if data is not None:  # only the lines where an attacker of their kinds stands
                on, takers = self.near(role, k, found)
                hit: set[int] = set()
                for v in takers:
                    for s in data.get(v, ()):
                        for i in on.get(s, ()):
                            kinds_i = found[i][1]
                            if kinds_i is None or v in kinds_i:
                                hit.add(i)
                found = tuple(found[i] for i in sorted(hit))
            for ray, kinds in found:
                between: list[int] = []
                for t in ray:
                    v = board[t]
                    if v != EMPTY:
                        if owner[v] == role and (kinds is None or v in kinds):
                            if not between:
                                return exact  # (the test would have said check)
                            if len(between) == 1:
                                pinned.add(between[0])
                            else:
                                guarded.update(between)
                            break
                        between.append(t)
        key = (role, tuple(values))
        bad = self._bad.get(key)
        if bad is None:  # the board values whose putting anywhere needs the exact test
            bad = self._bad[key] = sum(1 << v for v, o in enumerate(owner)
                                       if o == role or v in values)
        # Sites where any change needs the exact test (the region's; a pinned piece's, which
        # only ever leaves its site).
        danger = 0
        for s in sites:
            danger |= 1 << s
        for s in pinned:
            danger |= 1 << s
        if not guarded:
            return _Unpinned(danger, bad, exact)

        def safe_guarded(move: Move) -> bool:
            changed, put = move._masks or move.masks()
            if changed & danger or put & bad:
                return exact(move)
            emptied = 0  # sites of `guarded` the move empties: a line opens only if all do
            for s, v in move.changes:
                if v == EMPTY and s in guarded:
                    emptied += 1
            return emptied < 2 or exact(move)
        return safe_guarded


class _Unpinned(MoveScreen):
    """Attacked's screen on a position with no line opened by emptying one of several sites
    (see Attacked.screen): a move changing none of the `danger` sites and putting no `bad`
    value (both bitsets) passes; any other is judged `exact`ly. Judges a whole list in one
    loop, each move by its bitsets (Move.masks)."""

    __slots__ = ("danger", "bad", "exact")

    def __init__(self, danger: int, bad: int, exact: Callable[[Move], bool]) -> None:
        self.danger, self.bad, self.exact = danger, bad, exact

    def __call__(self, move: Move) -> bool:
        sites, values = move._masks or move.masks()
        return not (sites & self.danger or values & self.bad) or self.exact(move)

    def judge(self, moves: Sequence[Move]) -> list[bool]:
        danger, bad, exact = self.danger, self.bad, self.exact
        out = []
        for move in moves:
            sites, values = move._masks or move.masks()
            out.append(True if not (sites & danger or values & bad) else exact(move))
        return out


# Castling --------------------------------------------------------------------------------------

Right = tuple[int, int, int]  # (role, the king's start site, the rook's start site)


@dataclass(frozen=True)
class Castling:
    """Castling by one right, worked out once: its letter in position text, the move (None
    when the board has no site for the king or the rook to end on), the sites that must be
    empty, and those the king stands on or crosses, none of which may be attacked."""

    right: Right
    letter: str
    move: Move | None
    between: tuple[int, ...]
    path: tuple[int, ...]


def castling_rights(env: Env, king: str, rook: str, start: Sequence[int]) -> list[Right]:
    """Each role's castling rights at the start: its king with each of its rooks on the
    king's row, in the start position."""
    topo = env.topology
    rights: list[Right] = []
    for r in range(len(env.roles)):
        k, rk = kind_value(env, r, king), kind_value(env, r, rook)
        kings = [s for s, v in enumerate(start) if v == k]
        if k is None or rk is None or len(kings) != 1:
            continue
        row = topo.row_of[kings[0]]
        rights += [(r, kings[0], s) for s, v in enumerate(start)
                   if v == rk and topo.row_of[s] == row]
    return rights


def castling_ends(env: Env, king_to: list[str] | None, rook_to: list[str] | None
                  ) -> list[tuple[int, int]]:
    """Per side (column a's first), the king's and the rook's columns after castling, as
    king-to: and rook-to: give them (Chess960); none without them."""
    ends: list[tuple[int, int]] = []
    if (king_to is None) != (rook_to is None):
        env.error("king-to: and rook-to: go together")
    elif king_to is not None and rook_to is not None:
        if len(king_to) != 2 or len(rook_to) != 2:
            env.error("king-to: and rook-to: name two columns each, the side of column a "
                      "first")
        else:
            from stdlib.graphboards import column_number

            ends = [(column_number(k), column_number(r))
                    for k, r in zip(king_to, rook_to, strict=True)]
    return ends


def castling_values(env: Env, king: str, rook: str) -> list[tuple[int, int]]:
    """Per role: its king's and rook's board values (-1: the role has no such piece, never
    castles)."""
    values: list[tuple[int, int]] = []
    for r in range(len(env.roles)):
        k, rk = kind_value(env, r, king), kind_value(env, r, rook)
        values.append((k or -1, rk or -1))
    return values


def castling_plans(env: Env, king: str, rook: str, ends: list[tuple[int, int]],
                   values: list[tuple[int, int]], start: Sequence[int]) -> list[Castling]:
    """What castling by each right of the start position needs and does."""
    topo = env.topology
    names = env.names

    def plan(right: Right) -> Castling:
        r, k, rk = right
        kc, rc = topo.col_of[k], topo.col_of[rk]
        symbol = env.pieces[env.piece_of(r) - 1].symbol
        letter = "K" if rc > kc else "Q"
        letter = letter if r == 0 or symbol.isupper() else letter.lower()
        by_col = {topo.col_of[s]: s for s in topo.rows[topo.row_of[k]]}
        step = 1 if rc > kc else -1
        kd, rd = ends[0 if rc < kc else 1] if ends else (kc + 2 * step, kc + step)
        if kd not in by_col or rd not in by_col:
            return Castling(right, letter, None, (), ())
        crossed = set(range(min(kc, kd), max(kc, kd) + 1)) | set(
            range(min(rc, rd), max(rc, rd) + 1))
        if not crossed <= by_col.keys():
            return Castling(right, letter, None, (), ())
        king_value, rook_value = values[r]
        changes = ((k, EMPTY), (rk, EMPTY), (by_col[kd], king_value), (by_col[rd], rook_value))
        written = (k, rk) if ends else (k, by_col[kd])
        return Castling(right, letter, Move("move", written, changes, names),
                        tuple(by_col[c] for c in sorted(crossed) if by_col[c] not in (k, rk)),
                        tuple(by_col[c] for c in range(min(kc, kd), max(kc, kd) + 1)))
    return [plan(right) for right in castling_rights(env, king, rook, start)]


@ludeme("castle")
def castle(env: Env, king: str, rook: str, *, attacks: Moves,
           king_to: list[str] | None = None, rook_to: list[str] | None = None) -> Moves:
    """Castling: the mover's king, and a rook of the king's row, neither of which has left
    its start site (nor been taken there), with only empty sites between them: the king goes
    two sites towards the rook and the rook to the site the king crossed, unless the king
    stands on, crosses or lands on a site the other player `attacks:`. Written as the king's
    move (`e1-g1`). Position text keeps the rights still held as `castling: KQkq` (K and Q
    the king's and queen's sides, capitals for the first player) when some are lost.

    With king-to: and rook-to: (columns, the side of column a first), the king and rook end
    on those columns wherever they started, as in Chess960: every site either crosses must
    be empty but for the two of them, and none the king stands on or crosses attacked. Then
    castling is written as the king moving onto its rook (`b1-a1`), as UCI writes Chess960,
    since the king may move one site or none.

    (castle "King" "Rook" attacks:("Attacks") king-to:{"c" "g"} rook-to:{"d" "f"})"""
    test = attack_test(env, attacks)
    ends = castling_ends(env, king_to, rook_to)
    values = castling_values(env, king, rook)
    roles = len(env.roles)
    plans: list[Castling] = []  # made once, when the start position is first asked for
    slot = len(env.memories)

    def rights() -> list[Castling]:
        if not plans:
            start = env.shared.get("start board") or []
            plans.extend(castling_plans(env, king, rook, ends, values, start))
        return plans

    watched: list[frozenset[int]] = []  # the kings' and rooks' start sites

    def update(old: list[int], new: list[int], changed: tuple[int, ...], lost: Any) -> Any:
        if not watched:
            watched.append(frozenset(s for c in rights() for s in c.right[1:]))
        if watched[0].isdisjoint(changed):
            return lost or None
        gone = [c.right for c in rights() if (c.right[1] in changed or c.right[2] in changed)
                and not (lost and c.right in lost)]
        if not gone:
            return lost or None
        return frozenset(lost or ()) | frozenset(gone)

    def render(lost: Any) -> str:
        held = "".join(c.letter for c in sorted(rights(), key=lambda c: (c.right[0], c.letter))
                       if c.right not in lost)
        return held or "-"

    def parse(text: str) -> Any:
        text = text.strip()
        by_letter = {c.letter: c.right for c in rights()}
        if text != "-" and (not text or any(ch not in by_letter for ch in text)):
            known = "".join(by_letter) or "none"
            raise ValueError(f"write the castling rights held as letters of {known}, or -")
        held = {by_letter[ch] for ch in text if ch != "-"}
        return frozenset({c.right for c in rights()} - held) or None

    env.memories.append(Memory("castling", update, render, parse))

    def refuse(ctx: Ctx, move: Move, why: str) -> None:
        if ctx.explain is not None:
            ctx.explain.setdefault(move.key, why)

    def generate(ctx: Ctx) -> list[Move]:
        state = ctx.state
        lost = state.memory[slot] if state is not None else None
        board, mover = ctx.board, ctx.mover
        out: list[Move] = []
        for c in rights():
            r, k, rk = c.right
            if r != mover or c.move is None:
                continue
            king_value, rook_value = values[r]
            if board[k] != king_value:
                continue
            if (lost and c.right in lost) or board[rk] != rook_value:
                refuse(ctx, c.move, "castling is no longer allowed on that side: the king or "
                       "that rook has moved")
                continue
            if not all(board[s] == EMPTY for s in c.between):
                refuse(ctx, c.move, "to castle, the squares the king and rook cross must be "
                       "empty")
                continue
            if any(test(ctx, s, (mover + 1) % roles) for s in c.path):
                refuse(ctx, c.move, "the king may not castle out of, through or into check")
                continue
            accept(ctx, c.move, c.move.sites[1], k, None, None, out, from_hand=False)
        return out

    def pairs(mover: int) -> frozenset[tuple[int, int]]:
        return frozenset((c.move.sites[0], c.move.sites[-1]) for c in rights()
                         if c.right[0] == mover and c.move is not None)
    mark(generate).reach = Reach(pairs, frozenset(k for k, _ in values if k >= 0), True)
    return kinded(generate, "move")


# En passant ------------------------------------------------------------------------------------


@ludeme("en-passant")
def en_passant(env: Env, piece: str) -> Moves:
    """En passant: when a piece of the named kind has just gone two sites straight ahead,
    with an enemy piece of that kind standing beside where it landed, that enemy may take it
    by moving diagonally forward onto the site it passed over, as if it had gone only one.
    Written as that move (`e5-d6`). Position text keeps the site passed over as `en passant:
    d6` while the capture is possible.

    (en-passant "Pawn")"""
    topo = env.topology
    step = topo.step
    kinds = kinds_named(env, piece) or frozenset()
    owner = env.owner
    names = env.names
    beside = [tuple(t for d in ("E", "W") if d in step and (t := step[d][s]) != -1)
              for s in range(topo.size)]
    at = {(c, r): s for s, (c, r) in enumerate(zip(topo.col_of, topo.row_of, strict=True))}
    slot = len(env.memories)

    # (site left, site reached) of a two-site straight move -> the site passed over.
    double: dict[tuple[int, int], int] = {}
    for (c, r), s in at.items():
        for dr in (2, -2):
            reached, middle = at.get((c, r + dr), -1), at.get((c, r + dr // 2), -1)
            if reached >= 0 and middle >= 0:
                double[(s, reached)] = middle

    def update(old: list[int], new: list[int], changed: tuple[int, ...], _: Any) -> Any:
        # The one piece of the kind that left a site for an empty one, if one did.
        gone = landed = -1
        for x in changed:
            if new[x] == EMPTY:
                if old[x] in kinds:
                    if gone >= 0:
                        return None
                    gone = x
            elif old[x] == EMPTY and new[x] in kinds:
                if landed >= 0:
                    return None
                landed = x
        site = double.get((gone, landed))
        if site is None:
            return None
        them = owner[new[landed]]
        if any(new[b] in kinds and owner[new[b]] != them for b in beside[landed]):
            return (site, landed)  # threatened: the capture is possible
        return None

    def render(value: Any) -> str:
        return names[value[0]]

    def parse(text: str) -> Any:
        text = text.strip()
        if text == "-":
            return None
        if text not in topo.index:
            raise ValueError(f"no site {text!r} on this board (write a site, or -)")
        return (topo.index[text], -1)  # where the piece that passed stands: found by settle

    def passer(board: list[int], to_move: int, site: int) -> int:
        """The piece that passed over `site` (read from text): beyond it, an enemy of the
        player to move; -1 if there is none."""
        column, row = topo.col_of[site], topo.row_of[site]
        return next((t for dr in (1, -1) if (t := at.get((column, row + dr), -1)) >= 0
                     and board[t] in kinds and owner[board[t]] != to_move), -1)

    def settle(board: list[int], to_move: int, value: Any) -> Any:
        """A square read from text is kept only while the capture is possible, as for a
        double step played: an enemy piece of the kind beside the one that passed."""
        site = value[0]
        landed = passer(board, to_move, site)
        if landed < 0 or board[site] != EMPTY or not any(
                board[b] in kinds and owner[board[b]] == to_move for b in beside[landed]):
            return None
        return (site, landed)

    env.memories.append(Memory("en passant", update, render, parse, settle))
    forward = env.resolve_dirs("ForwardDiagonal")

    def generate(ctx: Ctx) -> list[Move]:
        state = ctx.state
        value = state.memory[slot] if state is not None else None
        if value is None:
            return []
        board, mover = ctx.board, ctx.mover
        site, landed = value  # (a value read from text was settled: see settle)
        dirs = forward(mover) if callable(forward) else forward
        out: list[Move] = []
        for b in beside[landed]:
            v = board[b]
            if v not in kinds or owner[v] != mover or board[site] != EMPTY:
                continue
            if not any(d in step and step[d][b] == site for d in dirs):
                continue
            changes = ((b, EMPTY), (landed, EMPTY), (site, v))
            accept(ctx, Move("move", (b, site), changes, names), site, b, None, None, out,
                   from_hand=False)
        return out

    def pairs(mover: int) -> frozenset[tuple[int, int]]:
        dirs = forward(mover) if callable(forward) else forward
        return frozenset((b, step[d][b]) for b in range(topo.size) for d in dirs
                         if d in step and step[d][b] != -1)
    mark(generate).reach = Reach(pairs, kinds, True)
    return kinded(generate, "move")


@ludeme("halfmove-clock")
def halfmove_clock(env: Env, piece: str) -> IntExpr:
    """The halfmove clock of chess: how many decisions in a row took no piece and moved no
    piece of the named kind (the fifty-move rule draws at 100). Position text writes it as
    `halfmove: N`, and beside it `fullmove: N`, the number of the full move being played
    (1 at the start, one more after each second player's turn), as FEN does.

    (if (>= (halfmove-clock "Pawn") 100) (draw))"""
    env.uses_quiet = True
    env.quiet_resets = kinds_named(env, piece) or frozenset()
    declare(env, MoveCounters(len(env.roles)))
    return lambda ctx: int(ctx.state.quiet) if ctx.state is not None else 0



# Kernel lowerings (stdlib/lowering.py) ---------------------------------------------------------

def lower_attacks(k: Lower, node: Node, test: Any) -> str:
    """The name of a kernel function `(st, T, site, role) -> bool` doing what the attack test
    `test` (attack_test's: a reverse test of steps, slides and leaps) does: can a piece of
    `role` take on the site? `node` is the by: moves, for a refusal."""
    from stdlib.jumps import (
        PathLeapAttacks,
        ScreenAttacks,
        lower_path_leap_attacks,
        lower_screen_attacks,
    )
    from stdlib.moves import AnyAttacks, LeapAttacks, RayAttacks

    parts: list[Any] = []
    calls = []
    pending = [test]
    while pending:
        t = pending.pop(0)
        if isinstance(t, AnyAttacks):
            pending[:0] = t.tests
        elif isinstance(t, RayAttacks | LeapAttacks):
            parts.append(t)
        elif isinstance(t, ScreenAttacks):
            calls.append(lower_screen_attacks(k, t))
        elif isinstance(t, PathLeapAttacks):
            calls.append(lower_path_leap_attacks(k, t))
        else:
            k.refuse(node, "no kernel lowering of these attacks (only steps, slides and leaps "
                     "that take by replacement, screened slides and lame leaps)")
    env = k.env
    values = len(env.owner)
    size = env.topology.size
    roles = len(env.roles)
    # Leaps to the same sites (a knight's and a promoted knight's) are looked at once, for
    # the kinds of all of them.
    leaps: dict[tuple[tuple[int, ...], ...], set[int] | None] = {}
    for t in parts:
        if isinstance(t, LeapAttacks):
            key = tuple(t.targets)
            if key in leaps and leaps[key] is None:
                continue  # every kind already
            leaps[key] = None if t.kinds is None else (leaps.get(key) or set()) | set(t.kinds)
    for targets_of, attacking in leaps.items():
        kinds = k.table("attacking kinds", [1 if attacking is None or v in attacking else 0
                                            for v in range(values)])
        width = max(1, max(len(x) for x in targets_of))
        targets = k.table("leap targets", [list(x) + [-1] * (width - len(x))
                                           for x in targets_of])
        calls.append(k.function("leap_attacks", f"""
def {{name}}(st, T, site, role):
    for i in range({width}):
        t = {targets}[site, i]
        if t == -1:
            return False
        v = st[t]
        if OWNER[v] == role and {kinds}[v] == 1:
            return True
    return False
"""))
    steps_and_slides = [t for t in parts if isinstance(t, RayAttacks)]
    if steps_and_slides:
        calls.insert(0, _lower_rays(k, steps_and_slides, values, size, roles))
    body = "\n".join(f"    if {c}(st, T, site, role):\n        return True" for c in calls)
    return k.function("attacks", f"""
def {{name}}(st, T, site, role):
{body}
    return False
""")


def _lower_rays(k: Lower, tests: list[Any], values: int, size: int, roles: int) -> str:
    """One kernel function `(st, T, site, role) -> bool` for all the steps' and slides'
    reverse tests (RayAttacks): each line from the site is walked once, to its first piece,
    which attacks if its role's and if one of the tests whose line reaches that far has
    its kind. Lines of several tests in one direction (a rook's slide, a gold's step) are
    one line, the longest (the others are its beginnings); `REACH[role, site, line, v]` is
    how far along it a piece of board value v attacks from (0: not at all)."""
    lines: list[list[list[list[int]]]] = []  # per role, site: the lines
    reach: list[list[list[list[int]]]] = []  # per role, site, line: per value
    for r in range(roles):
        lines.append([])
        reach.append([])
        for s in range(size):
            here: list[list[int]] = []
            far: list[list[int]] = []
            for t in tests:
                for ray in t.looks[r][s]:
                    ray = list(ray)
                    i = next((i for i, line in enumerate(here)
                              if line[:len(ray)] == ray[:len(line)]), None)
                    if i is None:
                        here.append(ray)
                        far.append([0] * values)
                        i = len(here) - 1
                    elif len(ray) > len(here[i]):
                        here[i] = ray
                    for v in range(values):
                        if t.kinds is None or v in t.kinds:
                            far[i][v] = max(far[i][v], len(ray))
            lines[r].append(here)
            reach[r].append(far)
    rays = max(1, max(len(here) for by_role in lines for here in by_role))
    length = max(1, max((len(line) for by_role in lines for here in by_role for line in here),
                        default=1))
    looks = k.table("attack lines", [[[line + [-1] * (length - len(line)) for line in here]
                                      + [[-1] * length] * (rays - len(here)) for here in by_role]
                                     for by_role in lines])
    reaches = k.table("attack reach", [[far + [[0] * values] * (rays - len(far))
                                        for far in by_role] for by_role in reach])
    return k.function("ray_attacks", f"""
def {{name}}(st, T, site, role):
    for i in range({rays}):
        for j in range({length}):
            t = {looks}[role, site, i, j]
            if t == -1:
                break
            v = st[t]
            if v != 0:
                if OWNER[v] == role and j < {reaches}[role, site, i, v]:
                    return True
                break
    return False
""")


@lowers("attacked")
def lower_attacked(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(attacked region by: [attacker:]): a piece of the attacker (the player after the mover
    by default) could take on one of the region's sites, by the by: moves' reverse test."""
    given = keywords(node, {"by", "attacker"}, k)
    compiled = k.compiled(node)
    if not isinstance(compiled, Attacked):
        k.refuse(node, "no kernel lowering of this (attacked)")
    test = lower_attacks(k, given["by"], compiled.test)
    region = k.lower(args[0], "Region")
    role = k.lower(given["attacker"], "Role") if "attacker" in given else "((mover + 1) % R)"
    return k.function("attacked", f"""
def {{name}}(st, T, mover, to, frm):
    role = {role}
    buf = np.empty(N, np.int32)
    for i in range({region}(st, T, mover, to, frm, buf)):
        if {test}(st, T, buf[i], role):
            return True
    return False
""") + "(st, T, mover, to, frm)"


def _memory_index(k: Lower, node: Form, key: str) -> int:
    """The index of the game's one memory `key` (its value in State.memory)."""
    found = [i for i, m in enumerate(k.env.memories) if m.key == key]
    if len(found) != 1:
        k.refuse(node, f"no kernel lowering of ({node.head}) where the game keeps "
                 f"{len(found)} memories {key!r}")
    return found[0]


@lowers("castle")
def lower_castle(k: Lower, node: Form, args: tuple[Node, ...]) -> Generator:
    """(castle king rook attacks: [king-to: rook-to:]): per right of the start position, the
    castling move while the right is held (its lost rights kept as the memory 'castling',
    one slot per right, 1 when lost), the sites between empty and none the king stands on or
    crosses attacked."""
    from dsl.ast import ListNode, Str

    given = keywords(node, {"attacks", "king-to", "rook-to"}, k)
    if not all(isinstance(a, Str) for a in args[:2]):
        k.refuse(node, "no kernel lowering of (castle) with computed kinds")
    king, rook = (a.value for a in args[:2])  # type: ignore[attr-defined]
    columns: list[list[str] | None] = []
    for name in ("king-to", "rook-to"):
        given_cols = given.get(name)
        if given_cols is None:
            columns.append(None)
            continue
        items = given_cols.items if isinstance(given_cols, ListNode) else ()
        if not items or not all(isinstance(i, Str) for i in items):
            k.refuse(node, f"no kernel lowering of (castle) with this {name}:")
        columns.append([i.value for i in items])  # type: ignore[attr-defined]
    env = k.env
    ends = castling_ends(env, columns[0], columns[1])
    values = castling_values(env, king, rook)
    start = env.shared.get("start board") or []
    plans = castling_plans(env, king, rook, ends, values, start)
    memory = _memory_index(k, node, "castling")
    rights = [c.right for c in plans]
    width = max(1, len(plans))

    def encode(state: Any) -> list[int]:
        lost = state.memory[memory] if state.memory else None
        return [1 if lost and r in lost else 0 for r in rights] + [0] * (width - len(rights))
    slot = k.slot("castling", width, encode)
    test = lower_attacks(k, given["attacks"], attack_test(env, k.compiled(given["attacks"])))
    move_start = k.action_start("move", node)
    cross = max(1, max((len(c.between) for c in plans), default=1))
    path = max(1, max((len(c.path) for c in plans), default=1))
    # Per right: role, king's site, rook's site, the sites written (from, to), the king's and
    # the rook's sites after (-1: no move), then the sites between and the king's path.
    rows = []
    for c in plans:
        r, ks, rs = c.right
        if c.move is None:
            rows.append([r, ks, rs, -1, -1, -1, -1])
            continue
        ch = c.move.changes
        rows.append([r, ks, rs, c.move.sites[0], c.move.sites[-1], ch[2][0], ch[3][0]])
    rows = rows or [[-1] * 7]
    table = k.table("castling rights", rows)
    between = k.table("castling between", [list(c.between) + [-1] * (cross - len(c.between))
                                           for c in plans] or [[-1] * cross])
    crossed = k.table("castling path", [list(c.path) + [-1] * (path - len(c.path))
                                        for c in plans] or [[-1] * path])
    pieces = k.table("castling pieces", [list(v) for v in values])
    count = len(plans)
    generate = k.function("castle", f"""
def {{name}}(st, T, mover, acts, tags, n, tag):
    for c in range({count}):
        if {table}[c, 0] != mover or {table}[c, 3] < 0:
            continue
        if st[{table}[c, 1]] != {pieces}[mover, 0] or st[{slot} + c] == 1 \\
                or st[{table}[c, 2]] != {pieces}[mover, 1]:
            continue
        clear = True
        for j in range({cross}):
            s = {between}[c, j]
            if s == -1:
                break
            if st[s] != 0:
                clear = False
                break
        if not clear:
            continue
        for j in range({path}):
            s = {crossed}[c, j]
            if s == -1:
                break
            if {test}(st, T, s, (mover + 1) % R):
                clear = False
                break
        if clear:
            acts[n] = {move_start} + {table}[c, 3] * N + {table}[c, 4]
            tags[n] = tag
            n += 1
    return n
""")
    make = k.function("make_castle", f"""
def {{name}}(st, T, mover, act):
    for c in range({count}):
        if {table}[c, 0] == mover and {table}[c, 3] >= 0 and \\
                act == {move_start} + {table}[c, 3] * N + {table}[c, 4]:
            change(st, {table}[c, 1], 0)
            change(st, {table}[c, 2], 0)
            change(st, {table}[c, 5], {pieces}[mover, 0])
            change(st, {table}[c, 6], {pieces}[mover, 1])
            st[H_TO] = {table}[c, 4]
            st[H_FROM] = {table}[c, 1]
            return
""")
    # The rights lost: those whose king's or rook's site the turn changed (a right once lost
    # stays lost, so the turn's changes serve as well as the decision's).
    update = k.function("remember_castling", f"""
def {{name}}(st, T, mover, before):
    changed = st[H_NCHANGED]
    for c in range({count}):
        if st[{slot} + c] == 1:
            continue
        ks = {table}[c, 1]
        rs = {table}[c, 2]
        if changed < 0:
            if before[ks] != st[ks] or before[rs] != st[rs]:
                st[{slot} + c] = 1
            continue
        for i in range(changed):
            x = st[CHANGED + i]
            if x == ks or x == rs:
                st[{slot} + c] = 1
                break
""")
    k.remember("castling", update, "castling")
    return Generator(generate, make, frozenset({"move"}))


@lowers("en-passant")
def lower_en_passant(k: Lower, node: Form, args: tuple[Node, ...]) -> Generator:
    """(en-passant piece): the capture while the memory 'en passant' holds (the site passed
    over, the site of the piece that passed; two slots, -1 for none), kept after each
    decision as the interpreter's update does (the sites whose contents changed)."""
    from dsl.ast import Str

    keywords(node, set(), k)
    if not isinstance(args[0], Str):
        k.refuse(node, "no kernel lowering of (en-passant) with a computed kind")
    env = k.env
    topo = env.topology
    size = topo.size
    kinds = kinds_named(env, args[0].value) or frozenset()
    memory = _memory_index(k, node, "en passant")

    def encode(state: Any) -> list[int]:
        value = state.memory[memory] if state.memory else None
        return [-1, -1] if value is None else [int(value[0]), int(value[1])]
    slot = k.slot("en passant", 2, encode)
    step = topo.step
    beside = [[t for d in ("E", "W") if d in step and (t := step[d][s]) != -1]
              for s in range(size)]
    beside_table = k.table("beside", [b + [-1] * (2 - len(b)) for b in beside])
    at = {(c, r): s for s, (c, r) in enumerate(zip(topo.col_of, topo.row_of, strict=True))}
    double = [[-1] * size for _ in range(size)]
    for (c, r), s in at.items():
        for dr in (2, -2):
            reached, middle = at.get((c, r + dr), -1), at.get((c, r + dr // 2), -1)
            if reached >= 0 and middle >= 0:
                double[s][reached] = middle
    doubles = k.table("double steps", double)
    forward = env.resolve_dirs("ForwardDiagonal")
    ahead = []
    for r in range(len(env.roles)):
        dirs = forward(r) if callable(forward) else forward
        ahead.append([[step[d][b] for d in dirs if d in step] for b in range(size)])
    width = max(1, max(len(x) for per in ahead for x in per))
    ahead_table = k.table("forward diagonal", [[x + [-1] * (width - len(x)) for x in per]
                                               for per in ahead])
    kind = k.table("en passant kinds", [1 if v in kinds else 0 for v in range(len(env.owner))])
    start = k.action_start("move", node)
    generate = k.function("en_passant", f"""
def {{name}}(st, T, mover, acts, tags, n, tag):
    site = st[{slot}]
    if site < 0:
        return n
    landed = st[{slot} + 1]
    for i in range(2):
        b = {beside_table}[landed, i]
        if b == -1:
            continue
        v = st[b]
        if {kind}[v] == 0 or OWNER[v] != mover or st[site] != 0:
            continue
        for j in range({width}):
            if {ahead_table}[mover, b, j] == site:
                acts[n] = {start} + b * N + site
                tags[n] = tag
                n += 1
                break
    return n
""")
    make = k.function("make_en_passant", f"""
def {{name}}(st, T, mover, act):
    a = act - {start}
    b = a // N
    site = a % N
    v = st[b]
    change(st, b, 0)
    change(st, st[{slot} + 1], 0)
    change(st, site, v)
    st[H_TO] = site
    st[H_FROM] = b
""")
    update = k.function("remember_en_passant", f"""
def {{name}}(st, T, mover, before):
    gone = -1
    landed = -1
    st[{slot}] = -1
    st[{slot} + 1] = -1
    for x in range(N):
        old = before[x]
        new = st[x]
        if old == new:
            continue
        if new == 0:
            if {kind}[old] == 1:
                if gone >= 0:
                    return
                gone = x
        elif old == 0 and {kind}[new] == 1:
            if landed >= 0:
                return
            landed = x
    if gone < 0 or landed < 0:
        return
    site = {doubles}[gone, landed]
    if site < 0:
        return
    them = OWNER[st[landed]]
    for i in range(2):
        b = {beside_table}[landed, i]
        if b != -1 and {kind}[st[b]] == 1 and OWNER[st[b]] != them:
            st[{slot}] = site
            st[{slot} + 1] = landed
            return
""")
    k.remember("en passant", update, "en passant")
    return Generator(generate, make, frozenset({"move"}))


@lowers("halfmove-clock")
def lower_halfmove_clock(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(halfmove-clock piece): the builder's count of quiet decisions (H_QUIET)."""
    keywords(node, set(), k)
    return "st[H_QUIET]"
