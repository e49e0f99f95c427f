"""Turn-level conditions: passes in succession."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from stdlib.effects import Effect
from stdlib.registry import ludeme
from stdlib.runtime import Ctx, Env
from stdlib.types import Cond, IntExpr, Moves, ResultExpr, RoleExpr


@ludeme("all-passed")
def all_passed(env: Env) -> Cond:
    """True when every player's last turn was a pass, in succession (so no one can do anything).

    (if (all-passed) (draw))"""
    n = len(env.roles)

    def test(ctx: Ctx) -> bool:
        return bool(ctx.state.passes >= n)
    test.why = "every player passed in succession"  # type: ignore[attr-defined]
    return test


@ludeme("move-again")
def move_again(condition: Cond) -> Effect:
    """A turn step: when the condition holds (after the turn's steps before this one), the
    mover takes another turn instead of passing play on (Dots and Boxes: completing a box).

    (play (place (sites Empty) piece:"Line") (move-again (> (closed-cells To) 0)))"""
    def effect(ctx: Ctx) -> tuple[tuple[int, int], ...]:
        return ()
    effect.again = condition  # type: ignore[attr-defined]
    return effect


@ludeme("continue")
def continue_(moves: Moves, *, if_: Cond | None = None) -> Moves:
    """The last step of a turn: after the turn's other steps, while the condition holds and
    the moves offer something, the mover makes another decision from the moves, and the
    automatic steps after the turn's first decision run again (a multi-jump: one decision per
    jump, LastTo the piece's site). Position text marks such a position with `decision:`.

    (continue (hop Diagonal from:LastTo) if:(and (captured) (not (promoted))))"""
    def generate(ctx: Ctx) -> Sequence[Any]:
        return moves(ctx)
    generate.continues = if_  # type: ignore[attr-defined]
    generate.kinds = getattr(moves, "kinds", None)  # type: ignore[attr-defined]
    return generate


@ludeme("captured")
def captured(env: Env) -> Cond:
    """In a turn's steps: true when the turn's last decision took a piece of another role off
    the board (a jump, or a capture by replacement).

    (continue (hop Diagonal from:LastTo) if:(captured))"""
    env.uses_taken = True
    test = lambda ctx: ctx.taken > 0  # noqa: E731
    test.why = "a piece was just captured"  # type: ignore[attr-defined]
    return test


@ludeme("promoted")
def promoted() -> Cond:
    """In a turn's steps: true when a (promote ...) step changed a piece since the turn's last
    decision (a man just crowned, which ends a draughts move).

    (continue (hop Diagonal from:LastTo) if:(and (captured) (not (promoted))))"""
    test = lambda ctx: bool(ctx.promoted)  # noqa: E731
    test.why = "a piece was just promoted"  # type: ignore[attr-defined]
    return test


@ludeme("moves-without-capture")
def moves_without_capture(env: Env) -> IntExpr:
    """How many decisions in a row, up to now, took no piece of another role (a draw rule
    counts them); position text says it as `without capture: N`.

    (if (>= (moves-without-capture) 40) (draw))"""
    env.uses_quiet = True
    return lambda ctx: int(ctx.state.quiet) if ctx.state is not None else 0


@ludeme("add-score")
def add_score(env: Env, role: RoleExpr, amount: IntExpr, *, if_: Cond | None = None
              ) -> Effect:
    """A turn step: adds the amount (which may be negative) to the role's score, when the
    condition holds (always, without if:). Scores start at 0; conditions read them with
    (score ROLE), and position text writes them as `score ROLE: N` when they are not 0.

    (add-score Mover (pieces-in ("Captures")) if:(not ("GrandSlam")))"""
    env.uses_scores = True
    if if_ is not None:
        condition, unconditional = if_, amount
        amount = lambda ctx: unconditional(ctx) if condition(ctx) else 0  # noqa: E731

    def effect(ctx: Ctx) -> tuple[tuple[int, int], ...]:
        return ()
    effect.score = (role, amount)  # type: ignore[attr-defined]
    return effect


@ludeme("score")
def score(env: Env, role: RoleExpr) -> IntExpr:
    """A role's score (see add-score).

    (if (>= (score Mover) 5) (win Mover))"""
    env.uses_scores = True

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

    def result(ctx: Ctx) -> int:
        scores = list(ctx.state.scores) if ctx.state is not None and ctx.state.scores \
            else [0] * len(env.roles)
        best = max(scores)
        winners = [r for r, s in enumerate(scores) if s == best]
        return winners[0] if len(winners) == 1 else -1  # DRAW
    return result
