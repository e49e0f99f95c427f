"""The interpreter's errors, members of the one family rooted at `dsl.errors.GameError`."""

from __future__ import annotations

from dsl.errors import GameError, RuleError

__all__ = ["GameError", "RuleError", "IllegalMoveError", "PositionError"]


class IllegalMoveError(GameError, ValueError):
    """A move that does not parse, or is not legal in the position; the message names the move
    and says why (`c3: would form a crosscut`)."""


class PositionError(GameError, ValueError):
    """A position text that does not describe a position of the game; the message says where."""
