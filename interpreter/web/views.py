"""What the page draws of a position: the board as SVG, the legal moves as clicks, the status,
the position text. Made in a worker process (see `play`), never in the server's.

A view lists at most MAX_LISTED_MOVES legal moves (the page needs them to know what a click
means; `legal_count` says how many there are).
"""

from __future__ import annotations

from typing import Any

from interpreter.display import status
from interpreter.game import Game, State
from interpreter.record import format_option
from interpreter.svg import render_svg
from interpreter.web.highlight import decorations
from stdlib.movekinds import kind_of
from stdlib.runtime import Move

# The most legal moves a view lists.
MAX_LISTED_MOVES = 20_000


def person_to_move(game: Game, state: State) -> str | None:
    """The role of the person whose turn it is, as the page gives roles to the computer (after
    a pie swap the people hold each other's roles); None when nobody can move."""
    if state.is_over or not state.legal_moves():
        return None
    role = state.to_move
    if state.swapped and len(game.players) == 2:
        role = 1 - role
    return game.players[role]


def game_view(game: Game, state: State) -> dict[str, Any]:
    """The part of a view that depends on the game and the position (the server adds what
    depends on the session: its moves, agents, version)."""
    names = game.sites
    legal = [] if state.is_over else state.legal_moves()
    pressed = buttons(legal)
    return {
        "name": game.name, "players": list(game.players),
        "options": {k: format_option(v) for k, v in game.options.items()},
        "svg": render_svg(state, caption=False), "status": status(game, state),
        "mover": state.mover, "over": state.is_over, "winner": state.winner,
        "dice": list(state.dice),  # the dice rolled and not yet used
        "reason": state.reason if state.is_over else None,
        "legal": [clickable(m, names) for m in legal[:MAX_LISTED_MOVES]],
        "legal_count": len(legal),
        "can_pass": "pass" in pressed, "can_swap": "swap" in pressed,
        "stuck": not state.is_over and not legal,
        "position": state.to_text(),
        **decorations(state),  # the winning sites, the sides, chess figures
    }


def buttons(legal: list[Move]) -> set[str]:
    """The buttons the legal moves need (`pass`, `swap`): the clicks of kinds without sites."""
    out = set()
    for m in legal:
        kind = kind_of(m.kind)
        if kind is not None and kind.clicked is None and not m.sites:
            out.add(kind.click)
    return out


def clickable(move: Move, names: tuple[str, ...]) -> dict[str, Any]:
    """A legal move as the page clicks it: its notation, and the kind and sites of the clicks
    that make it, as the move's kind registers them (stdlib/movekinds.py): a removal (Morris)
    and a sowing are one click on their site, like a placement; a promotion is a move (the
    page offers a button per piece when several moves fit the same clicks)."""
    kind = kind_of(move.kind)
    click, sites = move.kind, move.sites
    if kind is not None:
        click = kind.click or move.kind
        if kind.clicked is not None:
            sites = sites[:kind.clicked]
    return {"n": str(move), "k": click, "s": [names[s] for s in sites]}
