"""Compare a ludeme game with an independent engine, OpenSpiel, move by move.

`compare(game, spiel_game, action_map, games=N, seed=S)` plays N random games through both
engines in lockstep. At every position it checks that both agree on whether the game is over,
on who moves, and on the set of legal moves (OpenSpiel's actions translated into ludeme notation
by `action_map`); at the end, that the winner matches OpenSpiel's returns. The first
disagreement raises `OracleMismatch` naming the game, the seed, the moves so far, the moves
only one engine allows, and both positions. The random choices are OpenSpiel's legal actions
drawn with `random.Random`, seeded per game from `seed`, so a run is the same every time and a
failing game can be replayed alone.

Translating moves is the only place where the two engines' conventions meet, and it is derived
from geometry, never from tables: each `*_board` function below takes OpenSpiel's own cell
coordinates (as its C++ sources define them: `open_spiel/games/hex/hex.cc`, `gomoku/gomoku.cc`,
`havannah/havannah.cc`, `y/y.cc`, `clobber/clobber.cc`) and names each cell the way ludeme's
README names sites; it also lists OpenSpiel's adjacency, which a test compares with the ludeme
board's graph. An action that places a stone reads as its cell (`c3`); an action that moves a
stone (Clobber: a cell and a direction) reads `from-to` (`c3-c4`), as the contract writes moves.

Players are compared as *people*: OpenSpiel's player p is the person who moved p-th, for the
whole game. In ludeme a role is a colour; the pie rule (`swap`) exchanges which person holds
which role and leaves the board as it is. OpenSpiel's swap instead keeps the people's colours
and changes the board (Hex: the first stone is replaced by the second player's stone on the
mirror-image cell; Havannah: the first stone becomes the second player's). So once the pie is
taken, ludeme's role index is OpenSpiel's player exchanged (role = player XOR swapped), and
`ActionMap.after_swap` says how OpenSpiel's cells correspond to ludeme's sites from then on
(Hex: the mirror image in the rhombus's short diagonal; Havannah: the same cells).

A game can also be compared from a given position instead of the start (`lockstep` and `follow`
take `start`, a ludeme state and the OpenSpiel state of the same position), to look at positions
random play from the start rarely reaches.

This module does not import pyspiel, so it loads where OpenSpiel is not installed; the tests that
use it skip there.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, NoReturn

LETTERS = "abcdefghijklmnopqrstuvwxyz"


def site(letter_index: int, row: int) -> str:
    """A ludeme site name (README, "Boards and site names"): the cell's position within its row
    from the left as a letter (`a` first), then its row counted from the bottom (`1` first)."""
    if not 0 <= letter_index < len(LETTERS):
        raise ValueError(f"no column letter for position {letter_index} (boards up to 26 wide)")
    return f"{LETTERS[letter_index]}{row}"


# Boards ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Board:
    """An OpenSpiel board: the ludeme site name of each cell (by OpenSpiel action id) and
    OpenSpiel's adjacency between cells, both derived from OpenSpiel's coordinates."""

    sites: dict[int, str]
    neighbours: dict[int, frozenset[int]]

    def edges(self) -> set[frozenset[str]]:
        """OpenSpiel's adjacency as unordered pairs of ludeme site names."""
        return {frozenset((self.sites[a], self.sites[b]))
                for a, ns in self.neighbours.items() for b in ns}


def _board(cells: dict[int, tuple[int, int]], name: Callable[[int, int], str],
           offsets: Iterable[tuple[int, int]]) -> Board:
    """A board from OpenSpiel's cells {action: (u, v)}, a namer of (u, v) and the (du, dv)
    offsets of a cell's neighbours in OpenSpiel's coordinates."""
    at = {uv: a for a, uv in cells.items()}
    offsets = tuple(offsets)
    neighbours = {a: frozenset(at[(u + du, v + dv)] for du, dv in offsets
                               if (u + du, v + dv) in at)
                  for a, (u, v) in cells.items()}
    return Board({a: name(u, v) for a, (u, v) in cells.items()}, neighbours)


def hex_board(size: int) -> Board:
    """OpenSpiel `hex` (hex.cc, square board, num_cols = num_rows = size): action
    r * size + c is the cell in row r from the top (Black's "north" edge, row 0) and column c
    from the left (White's "west" edge); ToString indents each row one more space than the row
    above, so each row sits half a cell right of the row above: the same rhombus as ludeme's
    `hex-rhombus`. AdjacentCells: (r-1, c), (r-1, c+1), (r, c+1), (r+1, c), (r+1, c-1), (r, c-1).
    Ludeme names the cell by c (letter) and row size - r from the bottom."""
    cells = {r * size + c: (r, c) for r in range(size) for c in range(size)}
    return _board(cells, lambda r, c: site(c, size - r),
                  [(-1, 0), (-1, 1), (0, 1), (1, 0), (1, -1), (0, -1)])


def hex_mirror(size: int) -> Callable[[int], int]:
    """The action of the mirror-image cell, (r, c) -> (c, r): what OpenSpiel's Hex swap does to
    the first stone (a symmetry of the rhombus that exchanges north-south with west-east)."""
    return lambda a: (a % size) * size + a // size


def square_board(size: int) -> Board:
    """OpenSpiel `gomoku` with dims 2 (gomoku.cc): action coord[0] * size + coord[1];
    ToString prints coord[0] as the row (top first) and coord[1] as the column. A line runs
    along any of the 8 king-move directions. Ludeme's square boards name the cell like chess:
    column letter, row number from the bottom."""
    cells = {r * size + c: (r, c) for r in range(size) for c in range(size)}
    return _board(cells, lambda r, c: site(c, size - r),
                  [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc])


def havannah_board(size: int) -> Board:
    """OpenSpiel `havannah` (havannah.cc, board_size = cells a side): action x + y * d with
    d = 2 * size - 1, a cell when |x - y| < size; ToString prints row y (top first) with x from
    max(0, y - size + 1), so the top row has `size` cells. Neighbours: (x-1, y-1), (x, y-1),
    (x+1, y), (x+1, y+1), (x, y+1), (x-1, y). Ludeme's `hexhex` names the cell by its position
    in its row from the left and its row d - y from the bottom."""
    d = 2 * size - 1
    cells = {x + y * d: (x, y) for y in range(d) for x in range(d) if abs(x - y) < size}
    return _board(cells, lambda x, y: site(x - max(0, y - size + 1), d - y),
                  [(-1, -1), (0, -1), (1, 0), (1, 1), (0, 1), (-1, 0)])


def y_board(size: int) -> Board:
    """OpenSpiel `y` (y.cc, board_size = cells a side): action x + y * size, a cell when
    x + y < size; ToString prints row y = 0 (size cells) at the top and each shorter row below,
    indented half a cell more: the triangle with its apex at the bottom. Neighbours: (x, y-1),
    (x+1, y-1), (x+1, y), (x, y+1), (x-1, y+1), (x-1, y). Ludeme's `hex-triangle` has its apex
    at the top, so OpenSpiel's row y is ludeme's row y + 1 from the bottom (the triangle turned
    over), the cell x-th from the left in both. The three edges match: x = 0 is the first cell
    of each row (NW), y = 0 the long row (S), x + y = size - 1 the last cell of each row (NE)."""
    cells = {x + y * size: (x, y) for y in range(size) for x in range(size) if x + y < size}
    return _board(cells, lambda x, y: site(x, y + 1),
                  [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)])


ORTHOGONAL = ((-1, 0), (0, 1), (1, 0), (0, -1))
"""Clobber's directions 0 to 3 as (row, column) offsets, row 0 at the top: north, east, south,
west (clobber.cc, kDirRowOffsets and kDirColumnOffsets)."""

KING = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)
"""The eight neighbours of a square cell, orthogonal and diagonal."""


def rectangle_board(rows: int, columns: int,
                    offsets: Iterable[tuple[int, int]] = ORTHOGONAL) -> Board:
    """OpenSpiel `clobber` (clobber.cc): the cell in row r from the top (ToString labels it
    rows - r) and column c from the left (labelled 'a' + c) is numbered r * columns + c, the
    leading digits of its actions (see `clobber_action_map`); a stone moves to the four
    orthogonal neighbours (`ORTHOGONAL`; pass `KING` for the eight neighbours of the ludeme
    square grid). Ludeme's `rectangle` names the cell like chess: column letter, row number
    from the bottom."""
    cells = {r * columns + c: (r, c) for r in range(rows) for c in range(columns)}
    return _board(cells, lambda r, c: site(c, rows - r), offsets)


def clobber_action_map(rows: int, columns: int) -> ActionMap:
    """OpenSpiel Clobber: action a moves the stone on cell (r, c) one step in direction d
    (`ORTHOGONAL[d]`) onto an enemy stone, where (r, c, d) = UnrankActionMixedBase(a,
    {rows, columns, 4}), i.e. a = (r * columns + c) * 4 + d (the last digit varies fastest).
    In ludeme notation `from-to`. A step off the board names nothing (OpenSpiel never offers
    it). OpenSpiel ranks actions over bases that must exceed 1: rows and columns >= 2."""
    if rows < 2 or columns < 2:
        raise ValueError(f"OpenSpiel's clobber needs at least 2 rows and 2 columns, "
                         f"not {rows} x {columns}")
    names = rectangle_board(rows, columns).sites
    moves: dict[int, str] = {}
    for cell, name in names.items():
        r, c = divmod(cell, columns)
        for d, (dr, dc) in enumerate(ORTHOGONAL):
            if 0 <= r + dr < rows and 0 <= c + dc < columns:
                moves[cell * len(ORTHOGONAL) + d] = f"{name}-{names[(r + dr) * columns + c + dc]}"
    return ActionMap(moves)


def ludeme_edges(game: Any) -> set[frozenset[str]]:
    """The adjacency of a ludeme game's board as unordered pairs of site names: `game.graph`
    (the public contract: site names as nodes or in a `name` attribute), or the compiled
    topology's graph where `game.graph` is not there yet."""
    graph = getattr(game, "graph", None)
    if graph is None:
        graph = game.env.topology.graph
    names = {node: data.get("name", node) for node, data in graph.nodes(data=True)}
    return {frozenset((names[u], names[v])) for u, v in graph.edges()}


# Moves ----------------------------------------------------------------------------------------


def _no_swap(spiel_state: Any) -> int | None:
    return None


def _same(action: int) -> int:
    return action


@dataclass(frozen=True)
class ActionMap:
    """How OpenSpiel's actions read in ludeme notation.

    `sites` is the notation of each action: the cell of a placement, `from-to` for an action
    that moves a stone (the name is historical). `swap_action(spiel_state)` is OpenSpiel's
    pie-rule action in a position (ludeme `swap`), or None where there is none. Once the pie
    has been taken, `after_swap(action)` is the action whose cell in OpenSpiel's position
    corresponds to the site ludeme names for `action` (see the module docstring)."""

    sites: Mapping[int, str]
    swap_action: Callable[[Any], int | None] = _no_swap
    after_swap: Callable[[int], int] = _same

    def notations(self, spiel_state: Any, actions: Iterable[int], swapped: bool) -> list[str]:
        """The ludeme notation of each of `actions` in `spiel_state`."""
        swap = self.swap_action(spiel_state)
        sites, turn = self.sites, self.after_swap
        return ["swap" if a == swap else sites[turn(a)] if swapped else sites[a]
                for a in actions]


def hex_action_map(size: int, swap: bool = False) -> ActionMap:
    """OpenSpiel Hex: the swap is action size * size (legal only as the second move); it
    mirrors the first stone (DoApplyAction), so the cells correspond mirrored from then on."""
    sites = hex_board(size).sites
    if not swap:
        return ActionMap(sites)
    return ActionMap(sites, swap_action=lambda s: size * size, after_swap=hex_mirror(size))


def havannah_action_map(size: int, swap: bool = False) -> ActionMap:
    """OpenSpiel Havannah: the swap is playing on the first stone's own cell (legal only as the
    second move, LegalActions/AllowSwap); the stone changes colour and stays where it is."""
    sites = havannah_board(size).sites
    if not swap:
        return ActionMap(sites)

    def swap_action(spiel_state: Any) -> int | None:
        if spiel_state.move_number() != 1:
            return None
        history = spiel_state.history()
        return history[0] if len(history) == 1 else None

    return ActionMap(sites, swap_action=swap_action)


# The comparison -------------------------------------------------------------------------------


class OracleMismatch(AssertionError):
    """The two engines disagree; the message says where and how."""


@dataclass
class Summary:
    """What the compared games did: wins per ludeme role (the role that won, whoever held it),
    draws, plies and pie swaps."""

    games: int = 0
    wins: dict[str, int] = field(default_factory=dict)
    draws: int = 0
    plies: int = 0
    swaps: int = 0

    @property
    def mean_length(self) -> float:
        return self.plies / self.games if self.games else 0.0

    def __str__(self) -> str:
        wins = ", ".join(f"{role} {n}" for role, n in sorted(self.wins.items()))
        return (f"{self.games} games: wins {wins or 'none'}, draws {self.draws}, "
                f"mean length {self.mean_length:.1f}, swaps {self.swaps}")


@dataclass
class Lockstep:
    """Where a game played through both engines stopped: the ludeme state, the OpenSpiel
    state, the moves in ludeme notation, and whether the pie was taken."""

    state: Any
    spiel_state: Any
    moves: list[str]
    swapped: bool


# A chooser picks the next move from the legal ones: given OpenSpiel's legal actions and their
# ludeme notations (in the same order), the index of the one to play, or None to stop here.
Chooser = Callable[[list[int], list[str]], int | None]


def game_rng(seed: int, number: int) -> random.Random:
    """The random source of game `number` of a run seeded `seed`."""
    return random.Random(seed * 1_000_003 + number)


def random_chooser(rng: random.Random, swap_probability: float | None = None) -> Chooser:
    """Uniformly random moves; with `swap_probability`, the pie (`swap`) is taken with that
    probability whenever it is offered (random play rarely takes it on a large board)."""

    def choose(actions: list[int], names: list[str]) -> int:
        if swap_probability is not None and "swap" in names:
            if rng.random() < swap_probability:
                return names.index("swap")
            others = [i for i, name in enumerate(names) if name != "swap"]
            return others[rng.randrange(len(others))]
        return rng.randrange(len(actions))

    return choose


class KernelState:
    """A game kernel's state (interpreter/kernel) seen as a ludeme State, as far as `lockstep`
    reads one: the mover, the end, the winner, the legal moves in notation, `play` (on a copy
    of the state array), the position as text (the board's values, for a failure's report).
    So the same lockstep compares a kernel with OpenSpiel."""

    def __init__(self, game: Any, kernel: Any, st: Any = None) -> None:
        self.game, self.kernel = game, kernel
        self.st = kernel.start.copy() if st is None else st

    @property
    def is_over(self) -> bool:
        return self.kernel.result(self.st) is not None

    @property
    def mover(self) -> str | None:
        return None if self.is_over else self.game.players[self.kernel.to_move(self.st)]

    @property
    def winner(self) -> str | None:
        result = self.kernel.result(self.st)
        return self.game.players[result] if result is not None and result >= 0 else None

    def _actions(self) -> dict[str, int]:
        return {self.game.actions.notation(a): a for a in self.kernel.legal_actions(self.st)}

    def legal_moves(self) -> list[str]:
        return list(self._actions())

    def play(self, move: str) -> KernelState:
        st = self.st.copy()
        self.kernel.apply(st, self._actions()[move])
        return KernelState(self.game, self.kernel, st)

    def to_text(self) -> str:
        return f"(a kernel's state) board {self.kernel.board(self.st)}"


def compare(game: Any, spiel_game: Any, action_map: ActionMap, *, games: int, seed: int = 0,
            label: str = "", first: int = 0, swap_probability: float | None = None,
            max_plies: int | None = None, kernel: Any = None) -> Summary:
    """Play `games` random games (numbered `first`, `first + 1`, ...) of the ludeme `game` and
    the OpenSpiel `spiel_game` in lockstep, checking at every position that the engines agree
    (see the module docstring); raise `OracleMismatch` at the first disagreement. The roles of
    `game` correspond in order to OpenSpiel's players 0, 1. `swap_probability`: see
    `random_chooser`. `max_plies` bounds a game, a guard against endless games (default: a
    little over OpenSpiel's max_game_length(), which for Hex does not count the swap).
    `kernel`: the game's kernel, to play the ludeme side in it (`KernelState`) rather than
    in the interpreter."""
    label = label or game.name
    bound = max_plies if max_plies is not None else spiel_game.max_game_length() + 10
    summary = Summary()
    for number in range(first, first + games):
        choose = random_chooser(game_rng(seed, number), swap_probability)
        start = None if kernel is None else (KernelState(game, kernel),
                                             spiel_game.new_initial_state())
        end = lockstep(game, spiel_game, action_map, choose, label=label,
                       where=f"game {number} (seed {seed})", max_plies=bound, start=start)
        state = end.state
        summary.games += 1
        summary.plies += len(end.moves)
        summary.swaps += end.moves.count("swap")
        if state.winner is None:
            summary.draws += 1
        else:
            summary.wins[state.winner] = summary.wins.get(state.winner, 0) + 1
    return summary


def follow(game: Any, spiel_game: Any, action_map: ActionMap, moves: Iterable[str], *,
           label: str = "", start: tuple[Any, Any] | None = None) -> Lockstep:
    """Play the given moves (ludeme notation) through both engines, with the same checks as
    `compare` at every position, and return where they stopped: to pin down a chosen line.
    `start`: see `lockstep`."""
    script = list(moves)

    def choose(actions: list[int], names: list[str]) -> int | None:
        if not script:
            return None
        move = script.pop(0)
        if move not in names:
            raise OracleMismatch(f"{label or game.name}: scripted move {move} is not legal "
                                 f"in either engine")
        return names.index(move)

    end = lockstep(game, spiel_game, action_map, choose, label=label or game.name,
                   where="a scripted game", max_plies=len(script) + 1, start=start)
    if script:
        raise OracleMismatch(f"{label or game.name}: the game ended before the scripted moves "
                             f"{' '.join(script)}")
    return end


def lockstep(game: Any, spiel_game: Any, action_map: ActionMap, choose: Chooser, *,
             label: str, where: str, max_plies: int,
             start: tuple[Any, Any] | None = None) -> Lockstep:
    """Play one game through both engines with `choose` picking the moves, checking at every
    position that they agree: whether the game is over, who moves, the legal moves; at the end,
    the winner against OpenSpiel's returns. `start`, if given, is where to begin instead of
    the start position: a ludeme state and the OpenSpiel state of the same position (not
    after a pie swap; neither is changed)."""
    if start is None:
        state, spiel_state = game.initial_state(), spiel_game.new_initial_state()
    else:
        state, spiel_state = start[0], start[1].clone()
    moves: list[str] = []
    swapped = False
    roles = tuple(game.players)

    def fail(what: str, details: str = "") -> NoReturn:
        lines = [f"{label}: OpenSpiel disagrees in {where} after {len(moves)} moves: {what}",
                 f"  moves: {' '.join(moves) or '(none)'}"]
        if details:
            lines.append(details)
        lines.append("ludeme position:")
        lines.extend("  " + line for line in state.to_text().splitlines())
        lines.append(f"OpenSpiel position ({spiel_game}, history {spiel_state.history()}):")
        lines.extend("  " + line for line in str(spiel_state).splitlines())
        raise OracleMismatch("\n".join(lines))

    while True:
        if spiel_state.is_chance_node() or spiel_state.is_simultaneous_node():
            fail("OpenSpiel is at a chance or simultaneous node, which this harness does not play")
        over = spiel_state.is_terminal()
        if state.is_over != over:
            fail(f"ludeme says the game is {'over' if state.is_over else 'not over'}, "
                 f"OpenSpiel says it is {'over' if over else 'not over'}",
                 f"  ludeme winner: {state.winner}; OpenSpiel returns: {spiel_state.returns()}")
        if over:
            break
        if len(moves) >= max_plies:
            fail(f"no end after {max_plies} moves")
        player = spiel_state.current_player()
        expected_role = roles[player ^ 1] if swapped else roles[player]
        if state.mover != expected_role:
            fail(f"ludeme's mover is {state.mover}, OpenSpiel's player {player} "
                 f"corresponds to {expected_role}" + (" (the pie was taken)" if swapped else ""))
        actions = spiel_state.legal_actions()
        names = action_map.notations(spiel_state, actions, swapped)
        theirs = set(names)
        if len(theirs) != len(names):
            fail(f"two OpenSpiel actions read the same: {names}")
        ours = {str(m) for m in state.legal_moves()}
        if ours != theirs:
            only_spiel = sorted(theirs - ours, key=_site_order)
            only_ours = sorted(ours - theirs, key=_site_order)
            fail("the legal moves differ",
                 f"  only OpenSpiel allows: {' '.join(only_spiel) or '(none)'}\n"
                 f"  only ludeme allows:    {' '.join(only_ours) or '(none)'}")
        index = choose(actions, names)
        if index is None:
            return Lockstep(state, spiel_state, moves, swapped)
        move = names[index]
        state = state.play(move)
        spiel_state.apply_action(actions[index])
        moves.append(move)
        if move == "swap":
            swapped = not swapped

    returns = list(spiel_state.returns())
    if state.winner is None:
        expected = [0.0] * len(returns)
    else:
        person = roles.index(state.winner) ^ (1 if swapped else 0)
        expected = [1.0 if p == person else -1.0 for p in range(len(returns))]
    if returns != expected:
        fail(f"ludeme's winner is {state.winner or 'nobody (a draw)'}"
             + (" (the pie was taken)" if swapped else "")
             + f", so OpenSpiel's returns should be {expected}, but they are {returns}")
    return Lockstep(state, spiel_state, moves, swapped)


def _site_order(name: str) -> tuple[int, str]:
    """Sort key for notations: by row number, then letters (`swap`, `pass` first)."""
    digits = name.lstrip(LETTERS)
    return (int(digits), name) if digits.isdigit() else (-1, name)


def replay(game: Any, moves: Iterable[str]) -> Any:
    """The ludeme state after `moves` (notations) from the start: to reproduce a mismatch."""
    state = game.initial_state()
    for move in moves:
        state = state.play(move)
    return state


def require_openspiel(*games: str) -> Any:
    """The pyspiel module, for a test module comparing with OpenSpiel's `games`; the whole
    module is skipped, with the reason, where OpenSpiel or one of the games is missing."""
    import pytest

    spiel = pytest.importorskip(
        "pyspiel", reason="OpenSpiel is not installed (pip install -e '.[openspiel]'): "
                          "the comparison with it is skipped")
    for name in games:
        if name not in spiel.registered_names():
            pytest.skip(f"OpenSpiel {getattr(spiel, '__version__', '?')} has no {name}",
                        allow_module_level=True)
    return spiel
