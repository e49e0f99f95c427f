"""Checking that a move is refused properly, shared by the rules tests."""

from __future__ import annotations

import pytest

from interpreter import IllegalMoveError


def illegal(state, move: str) -> str:
    """`move` must be refused with IllegalMoveError naming it, and the state must not change;
    the error's message is returned."""
    before = state.to_text()
    with pytest.raises(IllegalMoveError) as info:
        state.play(move)
    assert state.to_text() == before
    message = str(info.value)
    assert move.strip() in message, message
    return message
