"""The turn's own ludemes: another turn, continuing a turn, scores, and what the turn did
(passes in succession, captures, promotions)."""

from __future__ import annotations

from collections.abc import Sequence

from dsl.ast import Form, Node
from stdlib.effects import Effect
from stdlib.lowering import Continued, Lower, keywords, lowers
from stdlib.lowering import Effect as Lowered
from stdlib.parts import mark, parts_of
from stdlib.registry import ludeme
from stdlib.runtime import Ctx, Env, Move
from stdlib.statefields import CaptureFree, Scores, declare
from stdlib.steps import Step, Turn
from stdlib.types import Cond, IntExpr, Moves, ResultExpr, RoleExpr


@ludeme("all-passed")
def all_passed(env: Env) -> Cond:
    """True when every player's last turn was a pass, in succession (so no one can do anything).

    (if (all-passed) (draw))"""
    n = len(env.roles)

    def test(ctx: Ctx) -> bool:
        return bool(ctx.state.passes >= n)
    mark(test).why = "every player passed in succession"
    return test


@ludeme("move-again")
def move_again(condition: Cond) -> Effect:
    """A turn step: when the condition holds (after the turn's steps before this one), the
    mover takes another turn instead of passing play on (Dots and Boxes: completing a box).

    (play (place (sites Empty) piece:"Line") (move-again (> (closed-cells To) 0)))"""
    return MoveAgain(condition)


class MoveAgain(Step):
    """The step of (move-again ...)."""

    def __init__(self, condition: Cond) -> None:
        self.condition = condition

    def run(self, ctx: Ctx, turn: Turn) -> None:
        if self.condition(ctx):
            turn.again()


@ludeme("continue")
def continue_(moves: Moves, *, if_: Cond | None = None) -> Moves:
    """The last step of a turn: after the turn's other steps, while the condition holds and
    the moves offer something, the mover makes another decision from the moves, and the
    automatic steps after the turn's first decision run again (a multi-jump: one decision per
    jump, LastTo the piece's site). Position text marks such a position with `decision:`.

    Declining (a pass, as from (optional ...)) ends the turn.

    (continue (hop Diagonal from:LastTo) if:(and (captured) (not (promoted))))"""
    return Continuation(moves, if_)


class Continuation:
    """The decision of (continue ...): its moves, and the condition under which the turn goes
    on with it (None: whenever the moves offer something). The engine resumes the turn's
    steps after such a decision."""

    def __init__(self, moves: Moves, condition: Cond | None) -> None:
        self.moves = moves
        self.condition = condition
        mark(self).kinds = parts_of(moves).kinds

    def __call__(self, ctx: Ctx) -> Sequence[Move]:
        return self.moves(ctx)


@ludeme("captured")
def captured(env: Env) -> Cond:
    """True when a piece of another role was taken off the board: in a turn's steps and in
    (forbid ...), by the turn's last decision or the steps since (a jump, a capture by
    replacement, a (remove ...) step); in end conditions, by the turn just played.

    (continue (hop Diagonal from:LastTo) if:(captured))"""
    env.uses_taken = True
    test = lambda ctx: ctx.taken > 0  # noqa: E731
    mark(test).why = "a piece was just captured"
    return test


@ludeme("count-captured")
def count_captured(env: Env) -> IntExpr:
    """How many pieces of other roles were taken off the board, counted where (captured)
    looks: in a turn's steps, by the turn's last decision and the steps since; in end
    conditions, by the turn just played. A step that keeps count of captures:

    (add-score Mover (count-captured))"""
    env.uses_taken = True
    return lambda ctx: int(ctx.taken)


@ludeme("promoted")
def promoted() -> Cond:
    """In a turn's steps: true when a (promote ...) step changed a piece since the turn's last
    decision (a man just crowned, which ends a draughts move).

    (continue (hop Diagonal from:LastTo) if:(and (captured) (not (promoted))))"""
    test = lambda ctx: "promoted" in ctx.marks  # noqa: E731
    mark(test).why = "a piece was just promoted"
    return test


@ludeme("moves-without-capture")
def moves_without_capture(env: Env) -> IntExpr:
    """How many decisions in a row, up to now, took no piece of another role (a draw rule
    counts them); position text says it as `without capture: N`.

    (if (>= (moves-without-capture) 40) (draw))"""
    env.uses_quiet = True
    declare(env, CaptureFree())
    return lambda ctx: int(ctx.state.quiet) if ctx.state is not None else 0


@ludeme("add-score")
def add_score(env: Env, role: RoleExpr, amount: IntExpr, *, if_: Cond | None = None
              ) -> Effect:
    """A turn step: adds the amount (which may be negative) to the role's score, when the
    condition holds (always, without if:). Scores start at 0; conditions read them with
    (score ROLE), and position text writes them as `score ROLE: N` when they are not 0.

    (add-score Mover (pieces-in ("Captures")) if:(not ("GrandSlam")))"""
    env.uses_scores = True
    declare(env, Scores(env.roles))
    return AddScore(role, amount, if_)


class AddScore(Step):
    """The step of (add-score ...)."""

    def __init__(self, role: RoleExpr, amount: IntExpr, condition: Cond | None) -> None:
        self.role = role
        self.amount = amount
        self.condition = condition

    def run(self, ctx: Ctx, turn: Turn) -> None:
        if self.condition is None or self.condition(ctx):
            turn.add_score(self.role(ctx), self.amount(ctx))


@ludeme("score")
def score(env: Env, role: RoleExpr) -> IntExpr:
    """A role's score (see add-score).

    (if (>= (score Mover) 5) (win Mover))"""
    env.uses_scores = True
    declare(env, Scores(env.roles))

    def value(ctx: Ctx) -> int:
        scores = ctx.state.scores if ctx.state is not None else ()
        return int(scores[role(ctx)]) if scores else 0
    return value


@ludeme("most")
def most(env: Env, amount: IntExpr) -> ResultExpr:
    """Result: the amount is worked out for each role, as if it were the mover (Mover and
    Next, and a region's default owner, are that role); the role with the highest wins, and a
    tie for highest is a draw. Kalah: each player's seeds in their pits and store.

    (if (full) (most (pieces-in (union (sites Named "Pits") (sites Named "Store")))))"""
    roles = len(env.roles)

    def result(ctx: Ctx) -> int:
        values = []
        for r in range(roles):
            each = Ctx(ctx.board, r, ctx.state, env, ctx.owner)
            values.append(amount(each))
        best = max(values)
        winners = [r for r, v in enumerate(values) if v == best]
        return winners[0] if len(winners) == 1 else -1  # DRAW
    return result


@ludeme("most-score")
def most_score(env: Env) -> ResultExpr:
    """Result: the role with the highest score wins; a tie for highest is a draw.

    (if (full) (most-score))"""
    env.uses_scores = True
    declare(env, Scores(env.roles))

    def result(ctx: Ctx) -> int:
        scores = list(ctx.state.scores) if ctx.state is not None and ctx.state.scores \
            else [0] * len(env.roles)
        best = max(scores)
        winners = [r for r, s in enumerate(scores) if s == best]
        return winners[0] if len(winners) == 1 else -1  # DRAW
    return result


# Kernel lowerings (stdlib/lowering.py) ---------------------------------------------------------

def _contains(node: Node, part: Node) -> bool:
    """Is `part` (the very node) within `node`?"""
    if node is part:
        return True
    if isinstance(node, Form):
        return any(_contains(a, part) for a in node.args) or \
            any(_contains(kw.value, part) for kw in node.kwargs)
    return False


def _judged_per_turn(k: Lower, node: Form) -> None:
    """Refuse a count of captures in an end condition of a game whose turns have several
    decisions: the kernel counts those of the decision (H_TAKEN, counted from each decision
    on), as the interpreter's steps do, but its end conditions count the whole turn's."""
    game = getattr(k, "game", None)
    if game is None:
        k.refuse(node, f"no kernel lowering of ({node.head}) here yet")
    if all(sum(1 for is_decision, _ in steps if is_decision) <= 1 for steps in game.turns):
        return
    for section in game.expansion.game.args[1:]:
        if isinstance(section, Form) and section.head == "end" and _contains(section, node):
            k.refuse(node, f"no kernel lowering of ({node.head}) in the end conditions of "
                     "turns of several decisions yet")


@lowers("count-captured")
def lower_count_captured(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(count-captured): the pieces of other roles taken by the turn's last decision and the
    steps since (st[H_TAKEN], as the interpreter's ctx.taken in a turn's steps, and in end
    conditions where a turn is one decision)."""
    keywords(node, set(), k)
    _judged_per_turn(k, node)
    return "st[H_TAKEN]"


@lowers("captured")
def lower_captured(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(captured): a piece of another role was taken (see count-captured)."""
    keywords(node, set(), k)
    _judged_per_turn(k, node)
    return "(st[H_TAKEN] > 0)"


@lowers("promoted")
def lower_promoted(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(promoted): the turn's (promote ...) step, run after the decision, changed a piece (its
    note in the slot "promoted"); only in a step after that one, where the note is the
    decision's own."""
    from stdlib.effects import promote_steps

    keywords(node, set(), k)
    for steps in promote_steps(k):
        for i, step in enumerate(steps):
            if not _contains(step, node):
                continue
            earlier = [s for s in steps[:i] if isinstance(s, Form) and s.head == "promote"]
            if len(earlier) == 1:
                return f"(st[{k.slot('promoted', 1, lambda state: (0,))}] == 1)"
    k.refuse(node, "no kernel lowering of (promoted) but in a step after the turn's one "
             "(promote ...) step yet")


@lowers("moves-without-capture")
def lower_moves_without_capture(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(moves-without-capture): the builder's count of quiet decisions (H_QUIET)."""
    keywords(node, set(), k)
    return "st[H_QUIET]"


@lowers("add-score")
def lower_add_score(k: Lower, node: Form, args: tuple[Node, ...]) -> Lowered:
    """(add-score role amount [if:]): a step adding to the role's score."""
    given = keywords(node, {"if"}, k)
    condition = k.lower(given["if"], "Boolean") if "if" in given else "True"
    role = k.lower(args[0], "Role")
    amount = k.lower(args[1], "Int")
    return Lowered(k.function("add_score", f"""
def {{name}}(st, T, mover, to, frm):
    if {condition}:
        r = {role}
        st[H_SCORES + r] += {amount}
"""))


@lowers("move-again")
def lower_move_again(k: Lower, node: Form, args: tuple[Node, ...]) -> Lowered:
    """(move-again condition): a step giving the mover another turn when it holds."""
    keywords(node, set(), k)
    condition = k.lower(args[0], "Boolean")
    return Lowered(k.function("move_again", f"""
def {{name}}(st, T, mover, to, frm):
    if {condition}:
        st[H_AGAIN] = 1
"""))


@lowers("score")
def lower_score(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(score role): the role's score."""
    keywords(node, set(), k)
    return f"st[H_SCORES + {k.lower(args[0], 'Role')}]"


@lowers("most-score")
def lower_most_score(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(most-score): the role with the highest score; DRAW on a tie for highest."""
    keywords(node, set(), k)
    return k.function("most_score", """
def {name}(st, T, mover, to, frm):
    best = st[H_SCORES]
    who = 0
    tie = False
    for r in range(1, R):
        v = st[H_SCORES + r]
        if v > best:
            best = v
            who = r
            tie = False
        elif v == best:
            tie = True
    return DRAW if tie else who
""") + "(st, T, mover, to, frm)"


@lowers("all-passed")
def lower_all_passed(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """Every role passed in its last turn, in succession (the state's count of such turns)."""
    keywords(node, set(), k)
    return "(st[H_PASSES] >= R)"


@lowers("continue")
def lower_continue(k: Lower, node: Form, args: tuple[Node, ...]) -> Continued:
    """(continue moves [if:]): the moves as a decision the turn goes on with while the
    condition holds (judged after the turn's steps) and they offer something but a pass."""
    given = keywords(node, {"if"}, k)
    condition = k.lower(given["if"], "Boolean") if "if" in given else None
    return Continued(k.lower(args[0], "Moves"), condition)


@lowers("most")
def lower_most(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(most amount): the amount worked out with each role as the mover (To and From none,
    as in the interpreter's fresh context); the highest wins, a tie for highest draws."""
    from stdlib.structure import best_of

    keywords(node, set(), k)
    amount = k.lower(args[0], "Int")
    return k.function("most", f"""
def {{name}}(st, T, player, to, frm):
    values = np.zeros(R, np.int64)
    to = -1
    frm = -1
    for mover in range(R):
        values[mover] = {amount}
    return {best_of(k)}(values)
""") + "(st, T, mover, to, frm)"
