"""Boards drawn for people: the position text's rows with coordinates around them."""

from __future__ import annotations

from interpreter.game import Game, State
from interpreter.text import decision_number, render_board, row_indents


def draw(game: Game, state: State) -> str:
    """The board with row numbers on the left and column letters (square boards) below."""
    topo = game.env.topology
    rows = render_board(game, state.board)
    nrows = len(topo.rows)
    width = len(str(nrows))
    lines = []
    for r, text in enumerate(rows):
        lines.append(f"{nrows - r:>{width}} {text}")
    if topo.shape == "square":
        letters = " ".join(topo.names[s].rstrip("0123456789") for s in topo.rows[-1])
        lines.append(" " * (width + 1) + letters)
    else:
        indent = row_indents(game)[-1]
        letters = " ".join(topo.names[s].rstrip("0123456789") for s in topo.rows[-1])
        lines.append(" " * (width + 1 + indent) + letters
                     + "   (letters count cells from the left end of each row)")
    return "\n".join(lines)


def status(game: Game, state: State) -> str:
    if state.is_over:
        if state.winner is None:
            return f"Game over: a draw ({state.reason})."
        return f"Game over: {state.winner} wins ({state.reason})."
    extra = []
    if state.step:
        extra.append(f"decision {decision_number(game, state)} of this turn")
    if state.swapped:
        extra.append("sides swapped")
    tail = f" ({', '.join(extra)})" if extra else ""
    return f"{state.mover} to move{tail}."
