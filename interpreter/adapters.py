"""What the reinforcement-learning adapters (`interpreter.openspiel`, `interpreter.pettingzoo`)
share: the observation tensor, players as people, the length bound and the returns.

**Players are people.** A role is a colour; with the pie rule (`swap`) the two people exchange
roles and keep the board. Learning libraries want a player to be the same agent for a whole
game, so player p is the person who holds role p (in the order the game file declares the
roles) at the start: player = role, 0 and 1 exchanged once a swap has been made.

**The end.** An episode ends when the rules end the game; also, as a draw, when the player to
move has no legal move though the rules have not ended the game (a stuck position), or when
`max_length` actions have been made (20 per site, the bound of `Game.playout`).

**Returns.** +1 to the winner and -1 to the loser; 0 to everyone in a draw (and a stuck or
too-long game). With more than two players the winner gets +1 and each of the n - 1 others
-1 / (n - 1), so that returns always sum to 0.

**The observation** is a tensor of shape (planes, sites), the sites in `game.sites` order, all
values finite; it is the same whoever observes (it names the role to move). Its planes, in
order (`Observer.planes` names them):

- one per kind of piece (in the order of the game's board values, neutral pieces included):
  1 where such a piece stands (several on one site: their count; a piece standing on a
  terrain also marks the terrain's plane);
- one per special region (Mineway's mine): 1 on its sites;
- one per role: all 1 for the role to move;
- then, only in games where the position text can hold them: the phase (one plane per phase),
  the decision within the turn (0 for the first), the number of turns in succession that were
  passes, whether the pie is open and whether the roles were swapped, each counted role's
  pieces in hand, the state the game's ludemes declare (stdlib/statefields.py: each role's
  score, the number of turns played, the decisions without capture, the sites of the last
  decision...), each with the planes it names, the board before the last turn (one plane
  per kind of piece, for rules that forbid taking a move back), and each thing a ludeme
  remembers (a restriction written as cells: the sites it names and, one plane per kind of
  piece, what they held; anything else only whether something is remembered, as all 1 on its
  first plane).

A plane for a number (in hand, score...) holds the number on every site.
"""

from __future__ import annotations

import math
from collections.abc import MutableSequence, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from interpreter.actions import move_kinds
from stdlib.history import read_cells
from stdlib.runtime import EMPTY, PieceType
from stdlib.structure import DRAW

if TYPE_CHECKING:
    from interpreter.game import Game, State

# Actions per site before an episode is cut short (the default bound of Game.playout).
PLIES_PER_SITE = 20


def max_length(game: Game) -> int:
    """The most actions an episode may take (see the module's documentation)."""
    return PLIES_PER_SITE * len(game.sites)


def person(state: State, role: int) -> int:
    """The player (person) holding `role` in `state`; also the role a player holds."""
    if state.swapped and role < 2:
        return 1 - role
    return role


CHANCE = -1  # the player to move at a chance position (OpenSpiel's PlayerId.CHANCE)


def player_to_move(state: State) -> int:
    """The player (person) to move; CHANCE at a chance position."""
    if state.is_chance:
        return CHANCE
    return person(state, state.to_move)


def is_stuck(state: State) -> bool:
    """Is the game not over, but the player to move has no legal move?"""
    return not state.is_over and not state.legal_moves()


def returns(state: State) -> list[float]:
    """Each player's return at the end of an episode (0 for all while the game goes on)."""
    result = state.result
    winner = None if result is None or result == DRAW else person(state, result)
    return returns_of(len(state.game.players), winner)


def returns_of(players: int, winner: int | None) -> list[float]:
    """The players' returns when player `winner` won (None: nobody, a draw or no end)."""
    if winner is None:
        return [0.0] * players
    out = [-1.0 / (players - 1) if players > 1 else 0.0] * players
    out[winner] = 1.0
    return out


@dataclass(frozen=True)
class Plane:
    """One plane of the observation: what it shows and the bounds of its values."""

    name: str
    low: float = 0.0
    high: float = 1.0


class Observer:
    """The observation tensor of a game's positions (see the module's documentation)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        env = game.env
        self.sites = n = len(game.sites)
        self.planes: list[Plane] = []
        roles = game.players

        def kind_name(p: PieceType) -> str:
            if p.owner < 0:
                return f"{p.name} ({p.symbol})"
            if p.name == roles[p.owner]:
                return f"{p.name} ({p.symbol})"
            return f"{roles[p.owner]} {p.name} ({p.symbol})"

        # Kinds of piece: the board values that are kinds (a site holding several of a kind
        # has a board value of its own, marked on its kind's plane with the count).
        kind_values = [v for v in range(1, len(env.pieces) + 1) if env.kind_of(v) == v]
        self.kinds = len(kind_values)
        kind_plane = {v: i for i, v in enumerate(kind_values)}
        for v in kind_values:
            p = env.pieces[v - 1]
            self._add(kind_name(p), env.most_of(v))
        # Per board value: (kind plane, amount) pairs, relative to the first kind plane.
        self.marks: list[tuple[tuple[int, float], ...]] = [()]
        for v, p in enumerate(env.pieces, start=1):
            marks = [(kind_plane[env.kind_of(v)], float(p.count))]
            if p.on:
                marks.append((kind_plane[env.kind_of(p.on)], 1.0))
            self.marks.append(tuple(marks))
        self.static: list[float] = [0.0] * (len(env.specials) * n)
        for i, (name, where) in enumerate(env.specials.items()):
            self._add(f"special: {name}")
            for s in where:
                self.static[i * n + s] = 1.0
        self.mover_plane = self._count()
        for role in roles:
            self._add(f"to move: {role}")
        self.phase_plane = self._count() if len(game.phases) > 1 else None
        if self.phase_plane is not None:
            for phase in game.phases:
                self._add(f"phase: {phase.name}")
        decisions = max(sum(1 for d, _ in steps if d) for steps in game.turns)
        self.decision_plane = self._add("decision", decisions - 1) if decisions > 1 else None
        kinds = move_kinds(game)
        can_pass = kinds is None or "pass" in kinds
        self.passes_plane = self._add("passes", math.inf) if can_pass else None
        self.pie_plane = self._add("pie open") if game.pie else None
        if game.pie:
            self._add("swapped")
        self.hand_planes = [(r, self._add(f"{game.hand_word} {role}", supply))
                            for r, (role, supply) in enumerate(zip(roles, env.supply,
                                                                   strict=False)) if supply]
        # The state the ludemes declared (scores, counters, last sites...), each its planes.
        self.field_planes: list[int] = []
        for field in env.fields:
            self.field_planes.append(self._count())
            for name, low, high in field.planes(roles):
                self._add(name, high, low)
        self.before_plane = self._count() if env.uses_history else None
        if env.uses_history:
            for v in kind_values:
                self._add(f"before the last turn: {self.planes[kind_plane[v]].name}",
                          self.planes[kind_plane[v]].high)
        self.memory_planes: list[int] = []
        symbols = [".", *(p.symbol for p in env.pieces)]
        self._symbols = symbols
        for mem in env.memories:
            self.memory_planes.append(self._add(f"{mem.key}: sites"))
            for v in kind_values:
                self._add(f"{mem.key}: {self.planes[kind_plane[v]].name}",
                          self.planes[kind_plane[v]].high)
        self.shape = (len(self.planes), n)
        self.size = len(self.planes) * n

    def _count(self) -> int:
        return len(self.planes)

    def _add(self, name: str, high: float = 1.0, low: float = 0.0) -> int:
        """Add a plane with values from `low` to `high`; its index."""
        self.planes.append(Plane(name, float(low), float(high)))
        return len(self.planes) - 1

    def tensor(self, state: State) -> list[float]:
        """The observation of `state`, flat: plane after plane, each in site order."""
        n = self.sites
        out = [0.0] * self.size
        self._pieces(out, 0, state.board)
        start = self.kinds * n
        out[start:start + len(self.static)] = self.static
        self._fill(out, self.mover_plane + state.to_move, 1.0)
        if self.phase_plane is not None:
            self._fill(out, self.phase_plane + state.phase, 1.0)
        if self.decision_plane is not None:
            steps = self.game.turns[state.phase][:state.step]
            self._fill(out, self.decision_plane, float(sum(1 for d, _ in steps if d)))
        if self.passes_plane is not None:
            self._fill(out, self.passes_plane, float(state.passes))
        if self.pie_plane is not None:
            self._fill(out, self.pie_plane, float(state.pie_open))
            self._fill(out, self.pie_plane + 1, float(state.swapped))
        for role, plane in self.hand_planes:
            if state.hands and state.hands[role] >= 0:
                self._fill(out, plane, float(state.hands[role]))
        self.mark_fields(out, state)
        if self.before_plane is not None:
            board = state.board
            if state.before:
                board = list(board)
                for s, v in state.before:
                    board[s] = v
            self._pieces(out, self.before_plane, board)
        self.mark_memories(out, state.memory)
        return out

    def mark_fields(self, out: MutableSequence[float], position: Any) -> None:
        """Mark on `out` (flat) the planes of the state the game's ludemes declare
        (stdlib/statefields.py), as each field observes `position` (a State, or what reads
        the same attributes of another engine's position)."""
        n = self.sites
        for field, first in zip(self.game.env.fields, self.field_planes, strict=True):
            for plane, value in enumerate(field.observe(position), start=first):
                if isinstance(value, dict):
                    for site, amount in value.items():
                        out[plane * n + site] = amount
                elif value:
                    self._fill(out, plane, value)

    def mark_memories(self, out: MutableSequence[float], memory: Sequence[Any]) -> None:
        """Mark on `out` (flat) the planes of what the ludemes remember: `memory` holds the
        value of each of the game's memories (State.memory)."""
        for mem, value, plane in zip(self.game.env.memories, memory, self.memory_planes,
                                     strict=True):
            if value is not None:
                self._memory(out, plane, mem.render(value))

    def _fill(self, out: MutableSequence[float], plane: int, value: float) -> None:
        n = self.sites
        out[plane * n:(plane + 1) * n] = [value] * n

    def _pieces(self, out: MutableSequence[float], first: int, board: list[int]) -> None:
        """Mark the pieces of `board` on the kind planes starting at plane `first`."""
        n = self.sites
        marks = self.marks
        for s, v in enumerate(board):
            if v != EMPTY:
                for plane, amount in marks[v]:
                    out[(first + plane) * n + s] = amount

    def _memory(self, out: MutableSequence[float], plane: int, text: str | None) -> None:
        """Mark a remembered restriction written as cells (`c7=A d7=.; ...`): the sites it
        names, and what they held; anything else marks every site of its first plane."""
        if text is None:
            return
        n = self.sites
        try:
            cells = [c for part in text.split(";")
                     for c in read_cells(part, self.game.env.topology.index, self._symbols)]
        except ValueError:
            self._fill(out, plane, 1.0)
            return
        board = [EMPTY] * n
        for s, v in cells:
            out[plane * n + s] = 1.0
            board[s] = v
        self._pieces(out, plane + 1, board)
