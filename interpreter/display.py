"""Boards drawn for people: the position text's rows with coordinates around them."""

from __future__ import annotations

import re

from interpreter.game import Game, State
from interpreter.text import decision_number, render_board

NAME = re.compile(r"[a-z]+[0-9]+")  # a site named by column letters and row number


def draw(game: Game, state: State) -> str:
    """The board with row numbers on the left; column letters below a square board, and on a
    hex board each row's letters on its right (a hex site is its row's letter and number)."""
    topo = game.env.topology
    rows = render_board(game, state.board)
    nrows = len(topo.rows)
    width = len(str(nrows))
    longest = max(len(r) for r in rows)
    lines = []
    named_by_dots = not all(NAME.fullmatch(n) for n in topo.names)  # a grid of lines: a1b1
    for r, text in enumerate(rows):
        line = f"{nrows - r:>{width}} {text}" if not named_by_dots else text
        if named_by_dots:  # each row's first and last site, by name
            first, last = (topo.names[s] for s in (topo.rows[r][0], topo.rows[r][-1]))
            line = f"{line:<{longest}}   {first} … {last}"
        elif topo.shape != "square":
            first, last = (_letters(topo.names[s]) for s in (topo.rows[r][0], topo.rows[r][-1]))
            line = f"{line:<{longest + width + 1}}   {first}-{last}"
        lines.append(line.rstrip())
    if topo.shape == "square":
        letters = " ".join(_letters(topo.names[s]) for s in topo.rows[-1])
        lines.append(" " * (width + 1) + letters)
    return "\n".join(lines)


def _letters(name: str) -> str:
    return name.rstrip("0123456789")


def status(game: Game, state: State) -> str:
    """What a person needs to know besides the board: who moves (or how the game ended), and
    the scores in games that keep them."""
    scores = ""
    if state.scores:
        scores = " Scores: " + ", ".join(f"{role} {points}" for role, points
                                         in zip(game.players, state.scores, strict=True)) + "."
    return _status(game, state) + scores


def _status(game: Game, state: State) -> str:
    if state.is_over:
        if state.winner is None:
            return f"Game over: a draw ({state.reason})."
        return f"Game over: {state.winner} wins ({state.reason})."
    if state.is_chance:
        return f"{game.players[state.to_move]} to roll."
    extra = []
    if state.dice:
        extra.append(f"dice {' '.join(str(v) for v in state.dice)}")
    if state.step:
        extra.append(f"decision {decision_number(game, state)} of this turn")
    if state.swapped:
        extra.append("sides swapped")
    tail = f" ({', '.join(extra)})" if extra else ""
    return f"{state.mover} to move{tail}."
