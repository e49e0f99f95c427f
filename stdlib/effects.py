"""Automatic effects: steps of a turn that happen without a decision (see stdlib/steps.py).
Most change sites, as (site, new board value) pairs that the engine applies, keeping the
hands; `forbid` refuses the decision before it."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from dsl import types as t
from dsl.ast import Form, Node, Str
from stdlib.logic import AnyRegion
from stdlib.lowering import Effect as Lowered
from stdlib.lowering import Lower, bound_site, keywords, left_behind_table, lowers
from stdlib.parts import parts_of
from stdlib.registry import ludeme
from stdlib.runtime import Ctx, Env, Move
from stdlib.steps import Changing, MoveScreen, Step, Turn, Verdicts
from stdlib.types import Annotated, Cond, Region, SiteExpr

Changes = tuple[tuple[int, int], ...]
Effect = Annotated[object, t.EFFECT]


@ludeme("enter")
def enter(env: Env, site: SiteExpr) -> Effect:
    """If the mover has pieces in hand, one of them is put on the site (on the terrain it
    stands on, which the site must hold). In an automatic step, To is the site the turn's last
    decision played.

    (play (place (sites Empty) piece:"Tile") (enter To))"""
    own = [env.piece_of(r) for r in range(len(env.roles))]

    def effect(ctx: Ctx) -> Changes:
        state = ctx.state
        r = ctx.mover
        if not state.hands or state_hand(ctx, r) <= 0:
            return ()
        s = site(ctx)
        value = own[r]
        if s < 0 or ctx.board[s] != env.terrain_of(value):
            return ()
        return ((s, value),)
    return Changing(effect)


def state_hand(ctx: Ctx, role: int) -> int:
    """Pieces in hand of `role` in the position being evaluated (the hand changes a turn's
    earlier steps made are included)."""
    hands = ctx.hands if ctx.hands is not None else ctx.state.hands
    return int(hands[role])


@ludeme("promote")
def promote(env: Env, site: SiteExpr, kind: str, *, if_: Cond | None = None) -> Effect:
    """A turn step: the piece on the site becomes its owner's piece of the named kind (a man
    becomes a king), when the condition holds (judged with Site bound to the site). A site
    that is empty, or holds a piece whose owner has no such kind, is left as it is.

    (promote To "King" if:(in Site (sites Side Forward)))"""
    owner = env.owner
    target = []
    for r in range(len(env.roles)):
        values = [p.value for p in env.pieces if p.owner == r and p.name == kind]
        target.append(values[0] if values else 0)
    if not any(target):
        env.error(f'no role owns a piece named "{kind}" (declare it with kinds:{{...}})')

    def effect(ctx: Ctx) -> Changes:
        s = site(ctx)
        if s < 0:
            return ()
        o = owner[ctx.board[s]]
        if o < 0 or not target[o] or ctx.board[s] == target[o]:
            return ()
        if if_ is not None:
            saved, ctx.site = ctx.site, s
            try:
                if not if_(ctx):
                    return ()
            finally:
                ctx.site = saved
        return ((s, target[o]),)
    return Changing(effect, marks="promoted")


@ludeme("forbid")
def forbid(condition: Cond) -> Effect:
    """A turn step that changes nothing but forbids the turn's last decision when the
    condition holds after it and the automatic steps before this one: "a move is illegal if
    afterwards ...". The decision's moves are tried with those steps; a move after which the
    condition holds is not legal, and the condition's description is the reason. Declining
    (pass) is never forbidden.

    (play (place (sites Empty)) (remove (sites Surrounded Next))
          (forbid (named "suicide" (> (count (sites Surrounded Mover)) 0))))"""
    return Forbid(condition)


class Forbid(Step):
    """The step of (forbid ...): refuses the decision before it when the condition holds,
    with the condition's description as the reason."""

    may_refuse = True

    def __init__(self, condition: Cond) -> None:
        self.condition = condition
        # The condition's screen maker (a hint given when the condition was made).
        self._screen = parts_of(condition).screen

    def run(self, ctx: Ctx, turn: Turn) -> None:
        if self.condition(ctx):
            from stdlib.moves import refusal

            turn.refuse(refusal(self.condition, held=True))

    def screen(self, ctx: Ctx) -> Callable[[Move], bool] | None:
        screen = self._screen
        return screen(ctx) if screen is not None else None


@ludeme("remove")
def remove(env: Env, region: Region, *, if_: Cond | None = None) -> Effect:
    """Take off the board every piece on the region's sites where the condition holds (judged
    for all of them on the same position, with Site bound to the site); a piece standing on
    a terrain leaves it behind, and a counted piece returns to its owner's hand.

    (remove (sites Occupied Next) if:(= (count-around Site Empty) 0))"""
    def effect(ctx: Ctx) -> Changes:
        board = ctx.board
        saved = ctx.site
        out: list[tuple[int, int]] = []
        for s in region(ctx):
            if board[s] == 0:
                continue
            ctx.site = s
            if if_ is None or if_(ctx):
                out.append((s, env.left_behind(board[s])))
        ctx.site = saved
        return tuple(out)
    # A move after which the region certainly has no site leaves nothing to remove.
    if not isinstance(region, AnyRegion):
        return Changing(effect)
    screen_region = region.screen

    behind: list[tuple[int, ...]] = []  # per board value, what its removal leaves (when asked)

    def screen(ctx: Ctx) -> Callable[[Move], bool] | None:
        inner = screen_region(ctx)
        if if_ is not None or not isinstance(inner, MoveScreen):
            return inner
        if not behind:
            behind.append(tuple(env.left_behind(v) for v in range(len(env.pieces) + 1)))
        return Removal(inner, ctx.board, behind[0])
    return Changing(effect, screen=screen)


class Removal(MoveScreen):
    """The screen of (remove REGION) on one position: the region's screen, which also says
    what the step removes after a move when the region's screen knows its sites then. It is
    the screen of a step that never refuses (placements certainly refuse none)."""

    __slots__ = ("region", "board", "left_behind")
    unrefusing = True

    def __init__(self, region: MoveScreen, board: list[int],
                 left_behind: tuple[int, ...]) -> None:
        self.region, self.board = region, board
        self.left_behind = left_behind  # per board value, what a removal leaves

    def __call__(self, move: Move) -> bool:
        return self.region(move)

    def placements(self, value: int, sites: Sequence[int]) -> Verdicts | None:
        verdicts = self.region.placements(value, sites)
        return None if verdicts is None else (verdicts[0], 0)

    def then(self, changes: Changes) -> Changes | None:
        sites = self.region.sites_after(changes)
        if sites is None:
            return None
        if not sites:
            return ()
        board, left_behind = self.board, self.left_behind
        if len(changes) == 1:
            site, value = changes[0]
            if site not in sites:  # (the usual: a piece put beside the pieces taken)
                return tuple([(s, left_behind[v]) for s in sites if (v := board[s])])
            values = [value if s == site else board[s] for s in sites]
        else:
            after = dict(changes)
            values = [after.get(s, board[s]) for s in sites]
        return tuple([(s, left_behind[v]) for s, v in zip(sites, values, strict=True) if v])


# Kernel lowerings (stdlib/lowering.py) ---------------------------------------------------------

@lowers("remove")
def lower_remove(k: Lower, node: Form, args: tuple[Node, ...]) -> Lowered:
    """(remove region [if:]): a step taking off every piece on the region's sites (the region
    listed first, on the position before any is taken), leaving what the piece stood on;
    with if:, those where the condition holds, Site bound to each, all judged before any is
    taken."""
    given = keywords(node, {"if"}, k)
    left = left_behind_table(k)
    region = k.lower(args[0], "Region")
    if "if" in given:
        return _lower_remove_if(k, given["if"], region, left)
    return Lowered(k.function("remove", f"""
def {{name}}(st, T, mover, to, frm):
    buf = np.empty(N, np.int32)
    for i in range({region}(st, T, mover, to, frm, buf)):
        s = buf[i]
        v = st[s]
        if v != 0:
            change(st, s, {left}[v])
"""))


@lowers("forbid")
def lower_forbid(k: Lower, node: Form, args: tuple[Node, ...]) -> Lowered:
    """(forbid condition): a step that refuses the decision before it when the condition
    holds (the builder tries each move of that decision with it, and skips it when the move
    is made)."""
    keywords(node, set(), k)
    condition = k.lower(args[0], "Boolean")
    return Lowered(k.function("forbid", f"""
def {{name}}(st, T, mover, to, frm):
    if {condition}:
        st[H_REFUSED] = 1
"""), may_refuse=True)


def _lower_remove_if(k: Lower, condition: Node, region: str, left: str) -> Lowered:
    """(remove region if:): the sites whose pieces go, judged on the position before the
    step (Site bound to each), then taken off in the region's order."""
    bound = bound_site(k)
    test = k.lower(condition, "Boolean")
    return Lowered(k.function("remove_if", f"""
def {{name}}(st, T, mover, to, frm):
    buf = np.empty(N, np.int32)
    values = np.empty(N, np.int64)
    saved = {bound}
    m = 0
    for i in range({region}(st, T, mover, to, frm, buf)):
        s = buf[i]
        v = st[s]
        if v == 0:
            continue
        {bound} = s
        if {test}:
            buf[m] = s
            values[m] = {left}[v]
            m += 1
    {bound} = saved
    for i in range(m):
        change(st, buf[i], values[i])
"""))


@lowers("enter")
def lower_enter(k: Lower, node: Form, args: tuple[Node, ...]) -> Lowered:
    """(enter site): a step putting one of the mover's pieces from its hand (the hands'
    region of the state) on the site, if the hand holds one and the site holds the terrain
    the piece stands on."""
    keywords(node, set(), k)
    env = k.env
    own = [env.piece_of(r) for r in range(len(env.roles))]
    values = k.table("own pieces", own)
    terrain = k.table("terrain of", [env.terrain_of(v) for v in range(len(env.owner))])
    site = k.lower(args[0], "Site")
    return Lowered(k.function("enter", f"""
def {{name}}(st, T, mover, to, frm):
    if not COUNTS_HANDS or st[HANDS + mover] <= 0:
        return
    s = {site}
    v = {values}[mover]
    if s < 0 or st[s] != {terrain}[v]:
        return
    change(st, s, v)
"""))


def promote_steps(k: Lower) -> list[tuple[Node, ...]]:
    """The steps of each turn the game's phases play (the (play ...) section's, or each
    phase's), as written."""
    game = getattr(k, "game", None)
    out: list[tuple[Node, ...]] = []
    if game is None:
        return out
    for section in game.expansion.game.args[1:]:
        if isinstance(section, Form) and section.head == "play":
            out.append(section.args)
        elif isinstance(section, Form) and section.head == "phases":
            out += [p.args[1:] for p in section.args if isinstance(p, Form)]
    return out


@lowers("promote")
def lower_promote(k: Lower, node: Form, args: tuple[Node, ...]) -> Lowered:
    """(promote site kind [if:]): the piece on the site becomes its owner's piece of the kind
    when the condition holds (Site bound to the site); the step notes in the slot "promoted"
    whether it changed the piece, for (promoted) in the steps after it (one (promote ...)
    step a turn: the note is the decision's)."""
    given = keywords(node, {"if"}, k)
    if not isinstance(args[1], Str):
        k.refuse(node, "no kernel lowering of (promote) with a computed kind")
    if any(sum(1 for s in steps if isinstance(s, Form) and s.head == "promote") > 1
           for steps in promote_steps(k)):
        k.refuse(node, "no kernel lowering of several (promote ...) steps in a turn yet")
    env = k.env
    name = args[1].value
    target = []
    for r in range(len(env.roles)):
        values = [p.value for p in env.pieces if p.owner == r and p.name == name]
        target.append(values[0] if values else 0)
    targets = k.table("promoted to", target)
    noted = k.slot("promoted", 1, lambda state: (0,))
    bound = bound_site(k)
    condition = k.lower(given["if"], "Boolean") if "if" in given else "True"
    site = k.lower(args[0], "Site")
    return Lowered(k.function("promote", f"""
def {{name}}(st, T, mover, to, frm):
    st[{noted}] = 0
    s = {site}
    if s < 0:
        return
    o = OWNER[st[s]]
    if o < 0 or {targets}[o] == 0 or st[s] == {targets}[o]:
        return
    saved = {bound}
    {bound} = s
    ok = {condition}
    {bound} = saved
    if ok:
        change(st, s, {targets}[o])
        st[{noted}] = 1
"""))
