"""Game kernels: a game's rules compiled to machine code (numba), for random games and search.

    >>> from interpreter import load_game
    >>> from interpreter.kernel import kernel_for, why_interpreted
    >>> game = load_game("games/tictactoe.game")
    >>> why_interpreted(game) is None     # every form of it has a lowering
    True

`kernel_for(game)` is the game's `Kernel` (built, compiled and cached on disk the first time),
or None when numba is not installed or some form has no lowering — `why_interpreted(game)`
says which. The interpreter remains the reference semantics; a kernel plays the same games
(tests/test_kernels.py compares them move by move).
"""

from __future__ import annotations

import importlib.util
from typing import TYPE_CHECKING

from dsl.errors import GameError
from stdlib.lowering import Unlowerable

if TYPE_CHECKING:
    from interpreter.game import Game
    from interpreter.kernel.kernel import Kernel

__all__ = ["available", "kernel_for", "why_interpreted"]


def available() -> bool:
    """Is numba installed (the `kernels` extra)?"""
    return importlib.util.find_spec("numba") is not None


def why_interpreted(game: Game) -> str | None:
    """Why `game` has no kernel — `file:line:col: reason` for the form that kept it
    interpreted — or None if every form lowers (whether or not numba is installed)."""
    from interpreter.kernel.builder import build

    cached = game.__dict__.get("_kernel_why", False)
    if cached is not False:
        return cached  # type: ignore[no-any-return]
    why: str | None = None
    try:
        game.__dict__["_kernel_source"] = build(game)  # (kernel_for's, built once)
    except Unlowerable as exc:
        span = exc.node.span
        where = span.via[1] if span.via is not None else span  # a define's use in the file
        why = f"{where}: {exc.reason}"
    except GameError as exc:
        why = str(exc)
    except Exception as exc:  # a lowering's own failure: the game runs interpreted, as it can
        why = f"the kernel builder failed ({type(exc).__name__}: {exc}): please report it"
    game.__dict__["_kernel_why"] = why
    return why


def kernel_for(game: Game) -> Kernel | None:
    """The game's kernel, or None (no numba, or a form without a lowering)."""
    if "_kernel" in game.__dict__:
        return game.__dict__["_kernel"]  # type: ignore[no-any-return]
    kernel = None
    if available() and why_interpreted(game) is None:
        from interpreter.kernel.builder import build
        from interpreter.kernel.kernel import Kernel

        built = game.__dict__.pop("_kernel_source", None)
        kernel = Kernel(game, built if built is not None else build(game))
    game.__dict__["_kernel"] = kernel
    return kernel
