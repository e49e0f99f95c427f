"""What the page marks on the board besides the position the server draws: the sites that
decided a finished game (a row, a connection), the board's sides each role must join, and
which pieces are drawn as chess figures.

All three follow general rules, read from the compiled game through its public parts: the end
rule that fired is found by its name (`Game.end_reasons`), and what it asks for by the ludeme
its source text uses (`line` for a row, `connected` or `ring` for a chain); sides are those
the roles declare (`sides:{N S}`); a game whose pieces include three or more of the six kinds
of chess (by name, or by symbol letter) draws them as figures.
"""

from __future__ import annotations

import re
from typing import Any

from interpreter.game import Game, State
from interpreter.svg import role_colour
from stdlib.boards import OPPOSITE
from stdlib.parts import parts_of
from stdlib.runtime import EMPTY

# The kinds of chess pieces, by name and by symbol letter.
KINDS = {"king": "K", "queen": "Q", "rook": "R", "bishop": "B", "knight": "N", "pawn": "P"}
BY_LETTER = {letter: kind for kind, letter in KINDS.items()}
ROW = re.compile(r"\(line\s+(\d+)")
CHAIN = re.compile(r"\((?:connected|ring)\b")


def decorations(state: State) -> dict[str, Any]:
    """What a view adds for the page: `winning` (site names), `sides` and `figures`."""
    return {"winning": winning_sites(state), "sides": sides(state.game),
            "figures": figures(state.game)}


def winning_sites(state: State) -> list[str]:
    """The sites of the row or chain that won a finished game, by name in board order; none
    when the game is not over, drawn, or ended by a rule that is neither."""
    if not state.is_over or state.winner is None:
        return []
    game = state.game
    role = game.players.index(state.winner)
    sources = [parts_of(rule.condition).source or ""
               for rule, reason in zip(game.end_rules, game.end_reasons(), strict=True)
               if reason == state.reason]
    found: set[int] = set()
    for source in sources:
        row = ROW.search(source)
        if row:
            found = row_sites(state, role, int(row.group(1)), exact="exact:true" in source)
        elif CHAIN.search(source):
            found = chain_sites(state, role)
        if found:
            break
    return [game.sites[s] for s in sorted(found)]


def _owners(state: State) -> list[int]:
    """Each site's owning role (-1: empty, or a piece no role owns)."""
    pieces = state.game.env.pieces
    return [-1 if v == EMPTY else pieces[v - 1].owner for v in state.board]


def row_sites(state: State, role: int, length: int, exact: bool = False) -> set[int]:
    """The sites of `role`'s rows of `length` or more pieces (exactly `length` if `exact`)
    along the board's lines: those through the sites the last turn changed, if any are."""
    topo = state.game.env.topology
    owner = _owners(state)
    axes = [(d, OPPOSITE[d]) for d in topo.directions
            if OPPOSITE.get(d) in topo.directions and d < OPPOSITE[d]]
    through = [s for s in (state.last or ()) if owner[s] == role]
    found: set[int] = set()
    for starts in (through, range(len(owner))):
        for s in starts:
            if owner[s] != role:
                continue
            for a, b in axes:
                run = [s]
                for d in (a, b):
                    t = topo.step[d][s]
                    while t != -1 and owner[t] == role:
                        run.append(t)
                        t = topo.step[d][t]
                if len(run) == length or (len(run) > length and not exact):
                    found.update(run)
        if found:
            break
    return found


def chain_sites(state: State, role: int) -> set[int]:
    """The chain of `role`'s adjacent pieces that won: the one touching every side the role
    declares, else the one through the last turn's sites, else none."""
    env = state.game.env
    topo = env.topology
    owner = _owners(state)
    adjacency = topo.neighbours(env.absolute_dirs("Adjacent"))
    goals = [topo.sides[name] for name in env.sides[role] if name in topo.sides]
    seen: set[int] = set()
    through: set[int] = set()
    last = set(state.last or ())
    for start in range(len(owner)):
        if owner[start] != role or start in seen:
            continue
        chain, todo = {start}, [start]
        while todo:
            s = todo.pop()
            for t in adjacency[s]:
                if owner[t] == role and t not in chain:
                    chain.add(t)
                    todo.append(t)
        seen |= chain
        if len(goals) >= 2 and all(chain & goal for goal in goals):
            return shortest_path(chain, adjacency, goals[0], goals[1]) if len(goals) == 2 \
                else chain
        if chain & last and not through:
            through = chain
    return through


def shortest_path(chain: set[int], adjacency: tuple[tuple[int, ...], ...],
                  source: frozenset[int], target: frozenset[int]) -> set[int]:
    """The sites of a shortest path within `chain` from a site of `source` to one of
    `target` (the chain itself if there is none): the connection without its branches."""
    before: dict[int, int] = {s: -1 for s in chain & source}
    todo = sorted(before)
    for s in todo:  # breadth first: the list grows as it is walked
        if s in target:
            path = set()
            while s != -1:
                path.add(s)
                s = before[s]
            return path
        for t in adjacency[s]:
            if t in chain and t not in before:
                before[t] = s
                todo.append(t)
    return chain


def sides(game: Game) -> list[dict[str, Any]]:
    """The board's sides each role declares: its name and colour, the side's compass name
    and its sites."""
    topo = game.env.topology
    if topo.shape == "graph":
        return []
    out = []
    for r, declared in enumerate(game.env.sides):
        for side in declared:
            if side in topo.sides:
                out.append({"role": game.players[r], "colour": role_colour(game.players[r], r),
                            "side": side, "sites": [topo.names[s] for s in
                                                    sorted(topo.sides[side])]})
    return out


def figures(game: Game) -> dict[str, str]:
    """The pieces drawn as chess figures, by piece name: their kind's letter (K, Q, R, B, N,
    P). Only in a game with three or more of the kinds; a piece is known by its name, else by
    its symbol letter."""
    found: dict[str, str] = {}
    for piece in game.env.pieces:
        kind = KINDS.get(piece.name.lower()) or (
            piece.symbol.upper() if piece.symbol.upper() in BY_LETTER else None)
        if kind is not None:
            found[piece.name] = kind
    return found if len(set(found.values())) >= 3 else {}
