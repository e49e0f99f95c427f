"""Turn-level conditions: passes in succession."""

from __future__ import annotations

from stdlib.registry import ludeme
from stdlib.runtime import Ctx, Env
from stdlib.types import Cond


@ludeme("all-passed")
def all_passed(env: Env) -> Cond:
    """True when every player's last turn was a pass, in succession (so no one can do anything).

    (if (all-passed) (draw))"""
    n = len(env.roles)

    def test(ctx: Ctx) -> bool:
        return bool(ctx.state.passes >= n)
    test.why = "every player passed in succession"  # type: ignore[attr-defined]
    return test
