"""Race games: pieces brought in from a yard, moved along their role's way round a shared
circuit by the dice, sent back to the yard when captured, and borne home up a column of their
own — the Ludo and Pachisi family (Mensch ärgere dich nicht, Ludo, Parcheesi, Sorry!), and with
entry by the die's value, games like the Royal Game of Ur.

- `(circuit "Track" {loop} start:SITE home:{...} owner:ROLE)` declares a role's way: the shared
  loop from its start site once round, then its home column. The way ends there, so a piece
  arrives home by an exact count and no other role's piece ever enters that column.
- `(bring-in "Track" from:REGION on:{6})` takes a piece from the yard onto the way's first site
  on a die showing one of those values (without on:, by the die's value, the yard counting as
  the site before the first).
- `(advance "Track")` moves a piece along its way by a die's value; `capture-to:"Yard"` on
  either sends a piece landed on back to its owner's yard; `no-jump:` forbids passing pieces.
- `(rolled 6)`, in a turn's steps, says what the turn's die showed: `(move-again (rolled 6))`.

Each move uses its die (as `(move-by-die ...)` does) and notes the value used, which `(rolled
N)` reads after the decision; a die left unused (the mover passed) still shows in the dice.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from dsl.ast import Form, Int, Node, Str
from stdlib.chance import UseDie
from stdlib.lowering import Generator, Lower, keywords, left_behind_table, lowers
from stdlib.moves import kinded
from stdlib.parts import mark, parts_of
from stdlib.registry import ludeme
from stdlib.runtime import EMPTY, Ctx, Env, Move
from stdlib.sowing import role_tracks
from stdlib.steps import Turn
from stdlib.structure import Section, TrackSection
from stdlib.types import CellKind, Cond, Moves, Region, RoleExpr

MAX_VALUE = 100  # the highest die value a mark is kept for (a die's faces, chance.MAX_FACES)
ROLLED = tuple(f"rolled {v}" for v in range(MAX_VALUE + 1))  # the mark of a die used


class UseRolled(UseDie):
    """One die of `value` used up by the move, noted for the turn's later steps ((rolled N))."""

    __slots__ = ()

    def apply(self, turn: Turn) -> None:
        turn.use_die(self.value)
        if 0 <= self.value <= MAX_VALUE:
            turn.mark(ROLLED[self.value])


# The way round ----------------------------------------------------------------------------------


@ludeme("circuit")
def circuit(env: Env, name: str, loop: list[str], *, start: str, home: list[str],
            owner: RoleExpr, exit: str | None = None) -> Section:
    """A role's track (as (track ...) declares one, not looping) made of a shared circuit and a
    home column: the loop's sites from `start`, once round to `exit` (by default the site just
    before `start`), then the `home` sites. Several (circuit ...) of one name give each role its
    own way round the same loop, as in Ludo, where each colour starts from its own site and
    leaves the loop for its own home column. A piece that would go past the way's end cannot
    move: it arrives home by an exact count.

    (circuit "Track" {"a1" "b1" "c1" "c2" "c3" "b3" "a3" "a2"} start:"a1" home:{"b2"}
      owner:"Red")"""
    sites = list(loop)
    if start not in sites:
        env.error(f'start: {start} is not a site of the circuit')
        return TrackSection(name, tuple(sites) + tuple(home), owner, False)
    i = sites.index(start)
    way = sites[i:] + sites[:i]
    if exit is not None:
        if exit not in way:
            env.error(f"exit: {exit} is not a site of the circuit")
        else:
            way = way[:way.index(exit) + 1]
    return TrackSection(name, tuple(way) + tuple(home), owner, False)


# Moves along the way ----------------------------------------------------------------------------


class Ways:
    """Each role's way along a named track, with each site's place on it (-1: not on it)."""

    def __init__(self, env: Env, track: str, what: str) -> None:
        tracks = role_tracks(env, track, what)
        if tracks is None:
            tracks = [((), False)] * len(env.roles)
        self.orders: list[tuple[int, ...]] = [order for order, _ in tracks]
        self.loops: list[bool] = [loop for _, loop in tracks]
        self.places: list[list[int]] = []
        for order in self.orders:
            place = [-1] * env.topology.size
            for i, s in enumerate(order):
                place[s] = i
            self.places.append(place)


class Landing:
    """Where a piece may land (what `to:` says) and what happens to a piece it lands on
    (taken off, or sent to the first empty site of its owner's region named by capture-to:)."""

    def __init__(self, env: Env, to: str, capture_to: str | None) -> None:
        self.env = env
        self.to = to
        self.owner = env.owner
        self.yards: list[tuple[int, ...]] | None = None
        if capture_to is not None:
            owners = env.regions.get(capture_to)
            if owners is None:
                known = ", ".join(f'"{k}"' for k in env.regions) or "none"
                env.error(f'capture-to: no region named "{capture_to}" (regions: {known})')
            elif None in owners:
                self.yards = [owners[None]] * len(env.roles)
            else:
                self.yards = [owners.get(r, ()) for r in range(len(env.roles))]

    def allowed(self, board: list[int], mover: int, t: int) -> bool:
        v = board[t]
        to, owner = self.to, self.owner
        if to == "Empty":
            return v == EMPTY
        if to == "Enemy":
            return v != EMPTY and owner[v] >= 0 and owner[v] != mover
        if to == "Any":
            return True
        if to in ("Friend", "Own"):
            return v != EMPTY and owner[v] == mover
        if to == "Occupied":
            return v != EMPTY
        return v == EMPTY or (owner[v] >= 0 and owner[v] != mover)  # EmptyOrEnemy

    def sent_back(self, board: list[int], t: int, frm: int) -> tuple[tuple[int, int], ...]:
        """The change that sends a piece found on `t` to its yard (none: it is just replaced,
        taken off the board)."""
        v = board[t]
        if v == EMPTY or self.yards is None:
            return ()
        who = self.owner[v]
        if who < 0:
            return ()
        for s in self.yards[who]:
            if board[s] == EMPTY and s != frm:
                return ((s, v),)
        return ()


def unused(ctx: Ctx) -> list[int]:
    """The values of the dice not yet used, each once, lowest first."""
    state = ctx.state
    return sorted(set(state.dice)) if state is not None and state.dice else []


def _move(env: Env, made: dict[tuple[int, int, int, int, tuple[tuple[int, int], ...]], Move],
          s: int, t: int, value: int, v: int, extra: tuple[tuple[int, int], ...]) -> Move:
    """The move of the piece `value` from s to t using a die showing v (made once per game)."""
    key = (s, t, value, v, extra)
    move = made.get(key)
    if move is None:
        changes = ((s, env.left_behind(value)), (t, value)) + extra
        move = made[key] = Move("move", (s, t), changes, env.names, (UseRolled(v),))
    return move


@ludeme("advance")
def advance(env: Env, track: str, *, from_: Region | None = None, of: str | None = None,
            to: CellKind = "EmptyOrEnemy", capture_to: str | None = None,
            no_jump: Region | None = None) -> Moves:
    """Move one of the mover's pieces on its role's named track (from a site of the `from:`
    region only, if given; of the kind `of:` names, if given) forward by the value of an unused
    die, which the move uses up. Past the end of a track that does not loop the piece cannot
    move (a (circuit ...) way: home by an exact count). The site it lands on must hold what
    `to:` says; a piece of another role there is captured — taken off the board, or with
    capture-to:"Yard" put back on an empty site of its owner's region of that name. With
    no-jump:, the piece may not pass over a piece standing on a site of that region (Mensch
    ärgere dich nicht's home column). Dice of the same value give the same moves once.

    (advance "Track" capture-to:"Yard")"""
    from stdlib.moves import kinds_named

    ways = Ways(env, track, "(advance ...)")
    landing = Landing(env, to, capture_to)
    kinds = kinds_named(env, of)
    owner = env.owner
    made: dict[tuple[int, int, int, int, tuple[tuple[int, int], ...]], Move] = {}
    # Per role: the sites to look at, in the order of the way (when from: is fixed, or absent).
    fixed: list[tuple[int, ...]] | None = None
    region = parts_of(from_).static if from_ is not None else None
    if from_ is None:
        fixed = list(ways.orders)
    elif region is not None:
        fixed = [tuple(sorted((s for s in region if place[s] >= 0), key=place.__getitem__))
                 for place in ways.places]

    def generate(ctx: Ctx) -> list[Move]:
        dice = unused(ctx)
        if not dice:
            return []
        mover, board = ctx.mover, ctx.board
        order = ways.orders[mover]
        place = ways.places[mover]
        loop = ways.loops[mover]
        if fixed is not None:
            sites: Sequence[int] = fixed[mover]
        else:
            assert from_ is not None
            sites = sorted((s for s in from_(ctx) if place[s] >= 0), key=place.__getitem__)
        blocks: Collection[int] = no_jump(ctx) if no_jump is not None else ()
        out: list[Move] = []
        for v in dice:
            for s in sites:
                value = board[s]
                if value == EMPTY or owner[value] != mover or \
                        (kinds is not None and value not in kinds):
                    continue
                i = place[s] + v
                if i >= len(order):
                    if not loop:
                        continue
                    i %= len(order)
                t = order[i]
                if t == s or not landing.allowed(board, mover, t):
                    continue
                if blocks and any(board[order[j % len(order)]] != EMPTY and
                                  order[j % len(order)] in blocks
                                  for j in range(place[s] + 1, place[s] + v)):
                    continue
                out.append(_move(env, made, s, t, value, v, landing.sent_back(board, t, s)))
                if ctx.probe:
                    return out
        return out
    return kinded(generate, "move")


@ludeme("bring-in")
def bring_in(env: Env, track: str, *, from_: Region, on: list[int] | None = None,
             of: str | None = None, to: CellKind = "EmptyOrEnemy",
             capture_to: str | None = None) -> Moves:
    """Bring one of the mover's pieces from a site of the `from:` region (its yard) onto its
    role's named track, using an unused die: with on:, a die showing one of those values puts
    it on the track's first site (Ludo: a 6 to come in); without, the die's value counts from
    the yard, as if it were the site just before the track's first (the Royal Game of Ur). The
    site it lands on must hold what `to:` says; a piece of another role there is captured as
    for (advance ...). When several pieces wait in the yard, one move brings one in: the one on
    the yard's last site in reading order.

    (bring-in "Track" from:(sites Named "Yard") on:{6} capture-to:"Yard")"""
    from stdlib.moves import kinds_named

    ways = Ways(env, track, "(bring-in ...)")
    landing = Landing(env, to, capture_to)
    kinds = kinds_named(env, of)
    owner = env.owner
    values = frozenset(on) if on is not None else None
    made: dict[tuple[int, int, int, int, tuple[tuple[int, int], ...]], Move] = {}

    def generate(ctx: Ctx) -> list[Move]:
        dice = unused(ctx)
        if not dice:
            return []
        mover, board = ctx.mover, ctx.board
        order = ways.orders[mover]
        s = -1
        for y in from_(ctx):
            value = board[y]
            if value != EMPTY and owner[value] == mover and ways.places[mover][y] < 0 and \
                    (kinds is None or value in kinds) and y > s:
                s = y
        if s < 0 or not order:
            return []
        value = board[s]
        out: list[Move] = []
        for v in dice:
            if values is not None:
                if v not in values:
                    continue
                i = 0
            else:
                i = v - 1
            if not 0 <= i < len(order):
                continue
            t = order[i]
            if not landing.allowed(board, mover, t):
                continue
            out.append(_move(env, made, s, t, value, v, landing.sent_back(board, t, s)))
            if ctx.probe:
                return out
        return out
    return kinded(generate, "move")


# What the turn rolled ---------------------------------------------------------------------------


@ludeme("rolled")
def rolled(value: int) -> Cond:
    """In a turn's steps after a decision: true when a die showing `value` was used by the
    decision just made ((advance ...) and (bring-in ...) note the die they use) or is still
    unused (the mover passed). In a game of one die: the turn's roll was `value`. Ludo's
    another turn after a 6:

    (move-again (rolled 6))"""
    note = ROLLED[value] if 0 <= value <= MAX_VALUE else ""

    def test(ctx: Ctx) -> bool:
        state = ctx.state
        return note in ctx.marks or (state is not None and value in state.dice)
    mark(test).why = f"a {value} was rolled"
    mark(test).why_not = f"no {value} was rolled"
    return test


# Kernel lowerings (stdlib/lowering.py) ---------------------------------------------------------

_CELLS = {"Empty": "x == 0", "Enemy": "(x != 0 and OWNER[x] >= 0 and OWNER[x] != mover)",
          "Any": "True", "Friend": "(x != 0 and OWNER[x] == mover)",
          "Own": "(x != 0 and OWNER[x] == mover)", "Occupied": "x != 0",
          "EmptyOrEnemy": "(x == 0 or (OWNER[x] >= 0 and OWNER[x] != mover))"}


@dataclass
class _Way:
    """What (advance ...) and (bring-in ...) share in a kernel: the ways' tables, the test of
    a landing site (on `x`, its value), the yards pieces landed on go back to, the dice."""

    order: str
    length: str
    place: str
    loops: str
    landing: str
    yards: str
    movable: str
    left: str
    distinct: str
    rolled: str
    start: int


def _lower_way(k: Lower, node: Form, args: tuple[Node, ...], given: dict[str, Node],
               what: str) -> _Way:
    from stdlib.chance import lower_distinct_dice, lower_tracks

    env = k.env
    to = given.get("to")
    cell = getattr(to, "name", None) if to is not None else "EmptyOrEnemy"
    of, capture_to = given.get("of"), given.get("capture-to")
    if not isinstance(args[0], Str) or cell not in _CELLS \
            or (of is not None and not isinstance(of, Str)) \
            or (capture_to is not None and not isinstance(capture_to, Str)):
        k.refuse(node, f"no kernel lowering of this ({what} ...)")
    ways = Ways(env, args[0].value, f"({what} ...)")
    landing = Landing(env, str(cell), capture_to.value if isinstance(capture_to, Str) else None)
    from stdlib.moves import kinds_named

    kinds = kinds_named(env, of.value if isinstance(of, Str) else None)
    order, length, place, loops = lower_tracks(
        k, node, list(zip(ways.orders, ways.loops, strict=True)))
    yards = landing.yards or [()] * len(env.roles)
    width = max(1, max(len(y) for y in yards))
    return _Way(order, length, place, loops, _CELLS[str(cell)],
                k.table("yards", [list(y) + [-1] * (width - len(y)) for y in yards]),
                k.table("movable kinds", [1 if v and (kinds is None or v in kinds) else 0
                                          for v in range(len(env.owner))]),
                left_behind_table(k),
                lower_distinct_dice(k), _rolled_slot(k), k.action_start("move", node))


def _rolled_slot(k: Lower) -> str:
    """The slots of the die a decision used, noted for (rolled N): its value, and the turn,
    To and From of the decision (the note holds for that decision's steps alone)."""
    return k.slot("rolled", 4, lambda state: [0, -1, -1, -1])


def _make_along(k: Lower, way: _Way, die: str) -> str:
    """make: the piece on s to t using the die found by `die` (source setting v from s, t and
    the distinct dice), the piece landed on sent to its yard, the die used and noted."""
    return k.function("make_along", f"""
def {{name}}(st, T, mover, act):
    a = act - {way.start}
    s = a // N
    t = a % N
    dice = np.empty(DICE_CAP, np.int32)
    m = {way.distinct}(st, dice)
    end = {way.length}[mover]
    v = -1
{die}
    value = st[s]
    target = st[t]
    y = -1
    if target != 0 and OWNER[target] >= 0:
        who = OWNER[target]
        for i in range({way.yards}.shape[1]):
            u = {way.yards}[who, i]
            if u >= 0 and st[u] == 0 and u != s:
                y = u
                break
    change(st, s, {way.left}[value])
    change(st, t, value)
    if y >= 0:
        change(st, y, target)
    use_die(st, v)
    st[{way.rolled}] = v
    st[{way.rolled} + 1] = st[H_TURN]
    st[{way.rolled} + 2] = t
    st[{way.rolled} + 3] = s
    st[H_TO] = t
    st[H_FROM] = s
""")


def _region_mask(k: Lower, node: Node, name: str) -> tuple[str, str]:
    """Source lines (indent 4) making `name` an array of N sites whose items test true at the
    region's sites, and whether it may hold any ("False" when the region is always empty)."""
    from stdlib.sowing import role_tables, sites_by_role

    by_role = sites_by_role(k, node)
    if by_role is not None:
        sites, role = by_role
        if not any(sites):
            return f"    {name} = np.zeros(1, np.bool_)\n", "False"
        _, _, mask = role_tables(k, sites)
        return f"    {name} = {mask}[{role}]\n", "True"  # (its row: 0/1, a view)
    region = k.lower(node, "Region")
    return (f"    {name} = np.zeros(N, np.bool_)\n"
            f"    buf = np.empty(N, np.int32)\n"
            f"    for i in range({region}(st, T, mover, -1, -1, buf)):\n"
            f"        {name}[buf[i]] = True\n"), "True"


@lowers("advance")
def lower_advance(k: Lower, node: Form, args: tuple[Node, ...]) -> Generator:
    """(advance track [from:] [of:] [to:] [capture-to:] [no-jump:]): as the interpreter lists
    them, the dice lowest first, each value once, the pieces in the order of the way; the move
    found again from its action by the lowest die that makes it."""
    given = keywords(node, {"from", "of", "to", "capture-to", "no-jump"}, k)
    way = _lower_way(k, node, args, given, "advance")
    sites = f"    count = {way.length}[mover]\n    sites = {way.order}[mover]\n"
    if "from" in given:
        fill, _ = _region_mask(k, given["from"], "origin")
        sites = fill + f"""    sites = np.empty(N, np.int32)
    count = 0
    for p in range({way.length}[mover]):
        s = {way.order}[mover, p]
        if origin[s]:
            sites[count] = s
            count += 1
"""
    jump = ""
    if "no-jump" in given:
        fill, any_ = _region_mask(k, given["no-jump"], "blocks")
        if any_ == "True":
            sites += fill
            jump = f"""
            blocked = False
            for q in range({way.place}[mover, s] + 1, {way.place}[mover, s] + v):
                u = {way.order}[mover, q % end]
                if st[u] != 0 and blocks[u]:
                    blocked = True
                    break
            if blocked:
                continue"""
    generate = k.function("advance", f"""
def {{name}}(st, T, mover, acts, tags, n, tag):
    if st[H_NDICE] == 0:
        return n
    to = -1
    frm = -1
    dice = np.empty(DICE_CAP, np.int32)
    m = {way.distinct}(st, dice)
    end = {way.length}[mover]
    loop = {way.loops}[mover] == 1
{sites}    for j in range(m):
        v = dice[j]
        for c in range(count):
            s = sites[c]
            value = st[s]
            if value == 0 or OWNER[value] != mover or {way.movable}[value] == 0:
                continue
            i = {way.place}[mover, s] + v
            if i >= end:
                if not loop:
                    continue
                i %= end
            t = {way.order}[mover, i]
            x = st[t]
            if t == s or not {way.landing}:
                continue{jump}
            acts[n] = {way.start} + s * N + t
            tags[n] = tag
            n += 1
    return n
""")
    die = f"""    for j in range(m):
        i = {way.place}[mover, s] + dice[j]
        if i == {way.place}[mover, t] or ({way.loops}[mover] == 1 and
                                          i % end == {way.place}[mover, t]):
            v = dice[j]
            break"""
    return Generator(generate, _make_along(k, way, die), frozenset({"move"}))


@lowers("bring-in")
def lower_bring_in(k: Lower, node: Form, args: tuple[Node, ...]) -> Generator:
    """(bring-in track from: [on:] [of:] [to:] [capture-to:]): the piece on the yard's last
    site onto the way, by each die value once, lowest first."""
    from dsl.ast import ListNode

    given = keywords(node, {"from", "on", "of", "to", "capture-to"}, k)
    if "from" not in given:
        k.refuse(node, "no kernel lowering of (bring-in) without from:")
    way = _lower_way(k, node, args, given, "bring-in")
    on = given.get("on")
    values: list[int] | None = None
    if on is not None:
        items = on.items if isinstance(on, ListNode) else (on,)
        if not all(isinstance(i, Int) for i in items):
            k.refuse(node, "no kernel lowering of (bring-in) with a computed on:")
        values = [i.value for i in items]  # type: ignore[attr-defined]
    allowed = k.table("die values", [1 if values is None or v in values else 0
                                     for v in range(MAX_VALUE + 1)])
    fill, _ = _region_mask(k, given["from"], "yard")
    generate = k.function("bring_in", f"""
def {{name}}(st, T, mover, acts, tags, n, tag):
    if st[H_NDICE] == 0:
        return n
    to = -1
    frm = -1
{fill}    s = -1
    for y in range(N - 1, -1, -1):
        value = st[y]
        if yard[y] and value != 0 and OWNER[value] == mover and {way.place}[mover, y] < 0 \\
                and {way.movable}[value] == 1:
            s = y
            break
    end = {way.length}[mover]
    if s < 0 or end == 0:
        return n
    dice = np.empty(DICE_CAP, np.int32)
    m = {way.distinct}(st, dice)
    for j in range(m):
        v = dice[j]
        if v > {MAX_VALUE} or {allowed}[v] == 0:
            continue
        i = {0 if values is not None else "v - 1"}
        if i < 0 or i >= end:
            continue
        t = {way.order}[mover, i]
        x = st[t]
        if not {way.landing}:
            continue
        acts[n] = {way.start} + s * N + t
        tags[n] = tag
        n += 1
    return n
""")
    reach = "0" if values is not None else "dice[j] - 1"
    die = f"""    for j in range(m):
        if dice[j] <= {MAX_VALUE} and {allowed}[dice[j]] == 1 and {reach} == \\
                {way.place}[mover, t]:
            v = dice[j]
            break"""
    return Generator(generate, _make_along(k, way, die), frozenset({"move"}))


@lowers("rolled")
def lower_rolled(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(rolled N): the decision just made used a die showing N (noted by advance and bring-in
    for that decision), or one is still unused."""
    keywords(node, set(), k)
    if not isinstance(args[0], Int):
        k.refuse(node, "no kernel lowering of (rolled) with a computed value")
    value = args[0].value
    slot = _rolled_slot(k)
    return k.function("rolled", f"""
def {{name}}(st, T, mover, to, frm):
    if st[{slot}] == {value} and st[{slot} + 1] == st[H_TURN] and st[{slot} + 2] == to \\
            and st[{slot} + 3] == frm:
        return True
    for i in range(st[H_NDICE]):
        if st[DICE + i] == {value}:
            return True
    return False
""") + "(st, T, mover, to, frm)"
