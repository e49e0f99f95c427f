"""`Game` (the compiled rules) and `State` (a position): the public API of the interpreter."""

from __future__ import annotations

import bisect
import functools
import operator
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import repeat
from typing import TYPE_CHECKING, Any

import networkx as nx

from dsl.expand import Expansion
from interpreter.errors import IllegalMoveError
from interpreter.notation import parse_move
from interpreter.text import default_pie, parse_position, render_position
from stdlib.bitboards import set_bits
from stdlib.boards import public_graph
from stdlib.hands import captured_to_hand
from stdlib.history import board_hash, situation
from stdlib.movekinds import Refused, kind_of, move_kinds
from stdlib.parts import mark, parts_of
from stdlib.runtime import (
    EMPTY,
    Chain,
    Ctx,
    Env,
    Move,
    Placements,
    every_move,
    listed,
    moves_a_piece,
)
from stdlib.steps import ChanceDecision, MoveScreen, Step, as_step
from stdlib.structure import DRAW, EndSection, PlayersSection, PlaySection, StartSection
from stdlib.turns import Continuation

if TYPE_CHECKING:
    from interpreter.actions import ActionSpace
    from interpreter.playouts import Playouts



def drawn_index(weights: Sequence[float], total: float, rng: random.Random) -> int:
    """The index of a chance outcome drawn with its weight (`total` their sum), one number
    from `rng`: how Game.draw draws, and the adapters that draw as it does."""
    point = rng.random() * total
    for i, weight in enumerate(weights):
        point -= weight
        if point < 0:
            return i
    return len(weights) - 1

@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: the winner (a role name, or None for a draw) and why."""

    winner: str | None
    reason: str


class State:
    """A position. Immutable to its users: `play` returns a new State."""

    __slots__ = ("game", "board", "to_move", "step", "passes", "result", "reason", "pie_open",
                 "swapped", "last", "turn", "turn_all_pass", "hands", "memory", "phase",
                 "verdicts", "track", "trial", "tried", "last_to", "last_from", "zhash", "history",
                 "seen", "situations", "scores", "undo", "before", "quiet", "captures",
                 "dice", "held", "edges", "log", "_moves", "_numbered", "_empty", "_unchanged")

    def __init__(self, game: Game, board: list[int], to_move: int, *, step: int = 0,
                 passes: int = 0, pie_open: bool = False, swapped: bool = False,
                 last: tuple[int, ...] | None = None, turn: int = 0,
                 turn_all_pass: bool = True, hands: tuple[int, ...] = (),
                 memory: tuple[Any, ...] = (), phase: int = 0, last_to: int = -1,
                 last_from: int = -1, scores: tuple[int, ...] = (),
                 dice: tuple[int, ...] = (),
                 held: tuple[tuple[int, ...], ...] | None = None,
                 edges: tuple[int, ...] | None = None) -> None:
        self.game = game
        self.board = board  # never changed after the state is made
        self.to_move = to_move  # role index of the player to move (kept when the game is over)
        self.step = step  # index of the current decision within the turn's steps
        self.passes = passes  # turns in succession that were nothing but passes
        self.result: int | None = None  # winner's role index, DRAW, or None while playing
        self.reason = ""
        self.pie_open = pie_open  # may the mover play `swap` now?
        self.swapped = swapped  # have the two people exchanged roles?
        self.last = last  # sites changed by the last turn (None: unknown)
        self.turn = turn  # completed turns
        self.turn_all_pass = turn_all_pass  # was every decision of this turn so far a pass?
        self.hands = hands  # pieces in hand per role (-1: not counted); () if no role counts
        self.memory = memory  # one value per env.memories entry (None: nothing remembered)
        self.phase = phase  # index of the game's current stage (phases)
        # Where the last decision put or moved a piece, and where from (-1: none); kept only
        # for games that read them (LastTo, LastFrom).
        self.last_to = last_to
        self.last_from = last_from
        # In games that ask whether a position repeats: the board's Zobrist hash, the hashes
        # of the boards after each turn so far (the start's first), and the same as a set.
        self.zhash = 0
        self.scores = scores  # per role, in games that keep scores; () otherwise
        self.dice = dice  # the dice rolled and not yet used, in games with dice
        # In games with hands by kind: per role, the pieces held of each hand kind.
        self.held = held if held is not None else game.no_held
        # In games whose board declares edges (stdlib/edges.py): each edge's value.
        self.edges = edges if edges is not None else game.no_edges
        self.quiet = 0  # decisions in a row that took no piece (moves-without-capture)
        self.captures = 0  # pieces of other roles the turn (so far, or just played) took
        self.history: list[int] | None = None
        self.seen: dict[int, int] | None = None  # hash -> how many times it stood
        # In games that ask whether a situation repeats ((repeated situational:true)): the
        # hashes of the boards after each turn, each with the player to move then.
        self.situations: dict[int, int] | None = None
        # With a history: what the sites the turn in progress changed held before it, and
        # the sites the last turn changed with what they held before it ((site, value), ...).
        self.undo: dict[int, int] = {}
        self.before: tuple[tuple[int, int], ...] = ()
        self._moves: list[Move] | None = None
        # Which of the listed moves the automatic steps after the decision certainly let
        # through unchanged, as their screens judged them when the moves were listed (so
        # _advance need not run those steps for them): see Game._forbidding.
        self._unchanged: list[tuple[Sequence[Move], int | None]] | None = None
        # The legal moves by action number, beside the list they number (interpreter/actions).
        self._numbered: tuple[list[Move] | None, list[int]] | None = None
        self._empty: list[int] | None = None  # see empty_sites()
        # While a move is made to be unmade (Game.make): the (site, old value) of each change.
        self.log: list[tuple[int, int]] | None = None
        # Placement verdicts of filters that say what they read, kept for the next position:
        # (if, unless, mover, value) -> {site: reason, "" if allowed}.
        self.verdicts: dict[tuple[Any, ...], dict[int, str]] = {}
        # One value per tracker (Env.trackers), None until asked for; and how many moves are
        # being tried out on the board right now (trackers do not answer meanwhile).
        self.track: list[Any] = [None] * len(game.env.trackers)
        self.trial = 0
        # How many moves the engine is trying on this position's own board right now (each
        # made in place, then undone): the board is then not a position of the game's history.
        self.tried = 0

    # The contract -------------------------------------------------------------------------
    @property
    def mover(self) -> str | None:
        """The role to move; None once the game is over, and where chance moves next."""
        if self.result is not None or self.game._chance[self.phase][self.step]:
            return None
        return self.game.players[self.to_move]

    @property
    def is_chance(self) -> bool:
        """Is the next decision chance's (a roll of dice), not a player's?"""
        game = self.game
        return game.has_chance and self.result is None and game._chance[self.phase][self.step]

    def chance_outcomes(self) -> list[tuple[Move, Fraction]]:
        """At a chance position, each outcome (a move) with its exact probability; they sum
        to 1. Empty elsewhere."""
        return self.game.chance_outcomes(self)

    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def winner(self) -> str | None:
        """The winning role, or None (game not over, or a draw)."""
        if self.result is None or self.result == DRAW:
            return None
        return self.game.players[self.result]

    @property
    def outcome(self) -> Outcome | None:
        """The result and its reason once the game is over, else None."""
        if self.result is None:
            return None
        return Outcome(self.winner, self.reason)

    def legal_moves(self) -> list[Move]:
        """The moves the mover may make now (empty once the game is over)."""
        moves = self._moves
        if moves is None:
            moves = self._moves = self.game.generate(self)
        return moves[:]

    def play(self, move: Move | str) -> State:
        """The state after `move` (a Move or its notation); this state is unchanged."""
        return self.game.apply(self, self.game.find(self, move))

    def to_text(self) -> str:
        return render_position(self.game, self)

    def empty_sites(self) -> list[int]:
        """The empty sites where a piece may stand, in site order (computed once per state,
        usually from the previous state's; read it, do not change it)."""
        if self._empty is None:
            no_piece = self.game.env.no_piece
            self._empty = [s for s, v in enumerate(self.board)
                           if v == EMPTY and s not in no_piece]
        return self._empty

    # Conveniences -------------------------------------------------------------------------
    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return f"<State of {self.game.name}, {self.mover or 'over'} to move>"

    def _repr_svg_(self) -> str:
        """The position as an SVG picture (Jupyter shows it)."""
        from interpreter.svg import render_svg

        return render_svg(self)

    def in_hand(self, role: str) -> int | None:
        """How many of its pieces `role` has in hand (None when they are not counted)."""
        if not self.hands:
            return None
        n = self.hands[self.game.players.index(role)]
        return None if n < 0 else n

    def piece_at(self, site: str) -> str | None:
        """The name of the piece on a site, or None when it is empty."""
        v = self.board[self.game.env.topology.index[site]]
        return None if v == EMPTY else self.game.env.pieces[v - 1].name

    def legal_actions(self) -> list[int]:
        """The legal moves as integer actions, ascending (see interpreter/actions.py)."""
        return self.game.actions.legal_actions(self)

    def apply_action(self, action: int) -> State:
        """The state after the move numbered `action` (see interpreter/actions.py)."""
        return self.game.apply(self, self.game.actions.decode(self, action))


def _copy_history(old: State, new: State) -> None:
    """Give `new` its own copy of `old`'s position history (games that keep one)."""
    if old.history is not None:
        new.zhash, new.history = old.zhash, list(old.history)
        new.seen = dict(old.seen)  # type: ignore[arg-type]
        if old.situations is not None:
            new.situations = dict(old.situations)
        new.undo, new.before = dict(old.undo), old.before


NO_MARKS: frozenset[str] = frozenset()  # no step has marked anything

_new_state = object.__new__  # a State with no slot set yet (Game._successor sets them all)

# The slots of a State that making a move may replace (each holds a value that is never
# changed in place, so keeping it keeps it); Game.make saves them, Game.unmake restores them.
_SNAPSHOT = ("to_move", "step", "passes", "result", "reason", "pie_open", "swapped", "last",
             "turn", "turn_all_pass", "hands", "memory", "phase", "last_to", "last_from",
             "zhash", "scores", "before", "quiet", "captures", "dice", "held", "edges", "_moves",
             "_unchanged")


_snapshot = operator.attrgetter(*_SNAPSHOT)


class Unmake:
    """What Game.unmake needs to take back a move made by Game.make."""

    __slots__ = ("saved", "log", "undo", "length")

    def __init__(self, saved: tuple[Any, ...], log: list[tuple[int, int]],
                 undo: dict[int, int] | None, length: int) -> None:
        self.saved = saved  # the values of the state's _SNAPSHOT slots
        self.log = log  # (site, old value) of each change, in order
        self.undo = undo
        self.length = length  # the history's length before the move


def _all_of(tests: list[Callable[[Move], bool]]) -> Callable[[Move], bool]:
    """A test of a move that holds when all the tests hold (judged in order)."""
    if len(tests) == 1:
        return tests[0]
    if len(tests) == 2:
        a, b = tests
        return lambda move: a(move) and b(move)
    if len(tests) == 3:
        a, b, c = tests
        return lambda move: a(move) and b(move) and c(move)
    return lambda move: all(test(move) for test in tests)


def _placement_verdicts(tests: list[MoveScreen], part: Placements) -> tuple[int, int] | None:
    """The sites of `part`'s placements that every step's screen certainly lets through, and
    those that a step certainly refuses after the steps before it certainly changed nothing,
    as bitsets; None when a screen cannot judge placements at once."""
    passes, refused = -1, 0
    value, sites = part.value, part.indices
    for test in tests:
        verdicts = test.placements(value, sites)
        if verdicts is None:
            return None
        refused |= passes & verdicts[1]
        passes &= verdicts[0]
    return passes, refused


_FEW = 4  # as many sites as are found faster in a list than by making a set of it


def _among(sites: Iterator[int], indices: Sequence[int]) -> list[int]:
    """Those of `sites` (a few, usually: bits left over) that are in `indices`."""
    found = list(sites)
    if not found:
        return found
    if len(found) <= _FEW:
        return [s for s in found if s in indices]
    members = set(indices)
    return [s for s in found if s in members]


def _let_through(unchanged: list[tuple[Sequence[Move], int | None]], move: Move) -> bool:
    """Is `move` one of those the steps' screens let through unchanged (State._unchanged:
    placements with the sites that pass as a bitset, or a list that passes whole)?"""
    for moves, sites in unchanged:
        if sites is None:
            if any(map(operator.is_, moves, repeat(move))):
                return True
        elif len(move.sites) == 1 and type(moves) is Placements:
            s = move.sites[0]
            if sites >> s & 1 and moves.row[s] is move:
                return True  # (exact on the part's own sites; see _exclusive)
    return False


def _exclusive(parts: list[Sequence[Move]]) -> bool:
    """Are the placements of `parts` offered by one part alone (at most one part places
    pieces, the others offer no move of one site)? Then a placement made is one of that part's
    sites, where its screens' verdicts are exact (not only on its sites: see
    _placement_verdicts), so State._unchanged may answer for it by the bit of its site."""
    placing = 0
    for part in parts:
        if type(part) is Placements:
            placing += 1
            continue
        for m in part:
            if len(m.sites) == 1:
                return False
    return placing <= 1


def _passes_after(tests: list[MoveScreen] | None, move: Move) -> bool:
    """Do the steps certainly let `move` through, each step's screen judging it with the
    changes the steps before it certainly make (MoveScreen.then)? False when not certain
    (or when not every step's screen is a MoveScreen: `tests` None)."""
    changes = move.changes
    if tests is None or move.actions or not changes:
        return False
    for test in tests:
        made = test.then(changes)
        if made is None:
            return False
        if made:
            changes = changes + made
    return True


class TurnInProgress:
    """The engine's side of `steps.Turn`: the actions of one decision and the automatic steps
    after it, applied to a board in place. For a real move the board is the position's and
    everything it keeps (hands, empty sites, trackers, hashes) follows; when only trying a
    move (`trying`), the board may be any, and `undo` puts back everything changed."""

    __slots__ = ("game", "state", "board", "mover", "trying", "changed", "taken", "marks",
                 "again_", "refused", "hands", "_log", "_scores", "_dice", "_held",
                 "_edges", "_zhash")

    def __init__(self, game: Game, state: State | None, board: list[int], mover: int, *,
                 trying: bool) -> None:
        self.game = game
        self.state = state
        self.board = board
        self.mover = mover
        self.trying = trying
        self.changed: list[int] = []  # the sites changed, in order
        self.taken = 0  # pieces of other roles taken off the board (counted if asked for)
        self.marks: set[str] = set()
        self.again_ = False
        self.refused: str | None = None
        # Hands after the changes so far (when trying, the position's are not changed).
        self.hands: tuple[int, ...] | None = state.hands if state is not None else None
        self._log: list[tuple[int, int]] = []  # when trying: (site, old value), in order
        self._scores = state.scores if state is not None else ()
        self._dice = state.dice if state is not None else ()
        self._held = state.held if state is not None else ()
        self._edges = state.edges if state is not None else ()
        # When trying on the position's own board: its hash, kept up to date meanwhile.
        self._zhash = state.zhash if state is not None and board is state.board else None

    def start(self, state: State, mover: int) -> TurnInProgress:
        """This object, made ready for a real move of `mover` on `state` (the engine keeps one
        per game for real moves: no object is made per move)."""
        self.state = state
        self.board = state.board
        self.mover = mover
        self.changed = []
        self.taken = 0
        self.marks = set()
        self.again_ = False
        self.hands = state.hands
        return self

    def change(self, changes: tuple[tuple[int, int], ...]) -> None:
        game, board = self.game, self.board
        env = game.env
        if env.uses_taken or env.uses_quiet:
            self.taken += game._captures(board, changes, self.mover)
        self.changed.extend([s for s, _ in changes])
        if not self.trying:
            assert self.state is not None
            game._make(self.state, changes)
            self.hands = self.state.hands
            return
        if self.hands:
            self.hands = env.hands_after(self.hands, board, changes)
        log = self._log
        zobrist = game._zobrist if self._zhash is not None else None
        state = self.state
        kinds = env.hand_kinds
        for s, v in changes:
            old = board[s]
            if old != v:
                log.append((s, old))
                board[s] = v
                if zobrist is not None:
                    state.zhash ^= zobrist[s][old] ^ zobrist[s][v]  # type: ignore[union-attr]
                if kinds is not None and state is not None:
                    state.held, dz = captured_to_hand(kinds, game.owner, self.mover,
                                                      state.held, old, v)
                    if zobrist is not None:
                        state.zhash ^= dz

    def add_score(self, role: int, amount: int) -> None:
        state = self.state
        if state is not None and amount:
            scores = list(state.scores)
            scores[role] += amount
            state.scores = tuple(scores)

    def again(self) -> None:
        self.again_ = True

    def mark(self, name: str) -> None:
        self.marks.add(name)

    def refuse(self, reason: str) -> None:
        if self.refused is None:
            self.refused = reason

    def set_dice(self, values: tuple[int, ...]) -> None:
        if self.state is not None:
            self.state.dice = values

    def from_hand(self, kind: int) -> None:
        state = self.state
        if state is None or not state.held:
            return
        kinds = self.game.env.hand_kinds
        assert kinds is not None
        counts = list(state.held[self.mover])
        n = counts[kind]
        counts[kind] = n - 1
        held = list(state.held)
        held[self.mover] = tuple(counts)
        state.held = tuple(held)
        if self.game._zobrist is not None:
            state.zhash ^= kinds.key(self.mover, kind, n) ^ kinds.key(self.mover, kind, n - 1)

    def set_mover(self, role: int) -> None:
        if self.state is not None and not self.trying:
            self.state.to_move = role

    def set_edge(self, edge: int, value: int) -> None:
        state = self.state
        if state is None or state.edges[edge] == value:
            return
        if self.game._zobrist is not None and (not self.trying or self._zhash is not None):
            keys = self.game.env.shared["edges"]
            state.zhash ^= keys.key(edge, state.edges[edge]) ^ keys.key(edge, value)
        edges = list(state.edges)
        edges[edge] = value
        state.edges = tuple(edges)

    def use_die(self, value: int) -> None:
        state = self.state
        if state is not None and value in state.dice:
            dice = list(state.dice)
            dice.remove(value)
            state.dice = tuple(dice)

    def undo(self) -> None:
        """Put back everything a tried move changed."""
        board = self.board
        for s, old in reversed(self._log):
            board[s] = old
        self._log.clear()
        state = self.state
        if state is not None:
            state.scores = self._scores
            state.dice = self._dice
            state.held = self._held
            state.edges = self._edges
            if self._zhash is not None:
                state.zhash = self._zhash


class Game:
    """A compiled game: the static description (roles, board, options) and its rules."""

    def __init__(self, name: str, env: Env, players: PlayersSection, start: StartSection | None,
                 play: PlaySection, decisions: list[tuple[bool, ...]], end: EndSection,
                 options: dict[str, object], expansion: Expansion) -> None:
        self.name = name
        self.env = env
        self.players: tuple[str, ...] = env.roles
        self.roles = len(env.roles)
        self._start_state: State | None = None
        # While settle judges a position: its board, and whether each role can move on it.
        self._movers_known: tuple[list[int], dict[int, bool]] | None = None
        self.options = options
        self.sites: tuple[str, ...] = env.topology.names
        self.pie = players.pie
        self.first = env.roles.index(players.first) if players.first else 0
        self.expansion = expansion
        self.owner = env.owner
        self._counted = env.counted  # per board value: a piece counted in its owner's hand?
        # Empty hands by kind, in games that have them (see stdlib/hands.py); () otherwise.
        self.no_held: tuple[tuple[int, ...], ...] = () if env.hand_kinds is None else \
            tuple((0,) * len(env.hand_kinds.names) for _ in env.roles)
        self.hand_word = players.hand
        # Every edge empty, in games whose board declares edges (see stdlib/edges.py).
        edges = env.shared.get("edges")
        self.no_edges: tuple[int, ...] = edges.blank if edges is not None else ()
        self.phases = play.phases
        # Per phase, its turn's steps as (is_decision, closure).
        self.turns: list[list[tuple[bool, Any]]] = [
            list(zip(kinds, phase.steps, strict=True))  # type: ignore[arg-type]
            for kinds, phase in zip(decisions, play.phases, strict=True)]
        self.end_rules = end.rules
        self.start = self._start_board(start)
        env.shared["start board"] = self.start  # for ludemes that look back at the start
        env.can_move = self._can_move
        self.warnings = expansion.warnings
        self.no_piece = env.no_piece
        self._zobrist: list[list[int]] | None = env.shared.get("zobrist")
        # The context the last `apply` made, for listing the moves of the state it made.
        self._spare: Ctx | None = None
        # The last move tried's turn and context, kept to try the next (see _forbidden).
        self._trying: tuple[list[int], State | None, int, TurnInProgress, Ctx] | None = None
        # Per phase and step: the condition of a (continue ...) decision (None: none needed),
        # or False for every other step.
        self._continuation: list[list[Any]] = [
            [fn.condition if is_decision and isinstance(fn, Continuation) else False
             for is_decision, fn in steps] for steps in self.turns]
        # Automatic steps as Steps; decisions followed by steps that may refuse them are
        # tried with the steps after them (see _forbidding).
        for p, phase_steps in enumerate(self.turns):
            for i, (is_decision, fn) in enumerate(phase_steps):
                if not is_decision:
                    phase_steps[i] = (False, as_step(fn))
            for i, (is_decision, fn) in enumerate(phase_steps):
                if is_decision:
                    after: list[Step] = []
                    for later_is_decision, later in phase_steps[i + 1:]:
                        if later_is_decision:
                            break
                        after.append(later)
                    if any(step.may_refuse for step in after):
                        phase_steps[i] = (True, self._forbidding(fn, after, p, i))
        # The actions of real moves' automatic steps, one object made ready for each move.
        self._applying = TurnInProgress(self, None, [], 0, trying=False)
        # Per phase and step: is it the turn's last decision, with nothing after it, in a game
        # that keeps nothing about the turn beyond the board? (_advance makes those short.)
        env = self.env
        keeps = env.uses_quiet or env.uses_taken or env.uses_last or bool(env.memories) \
            or env.uses_dice or env.uses_actions
        # Per phase and step: is the decision chance's (stdlib.steps.ChanceDecision)?
        self._chance: list[list[bool]] = [
            [is_decision and isinstance(fn, ChanceDecision) for is_decision, fn in steps]
            for steps in self.turns]
        self.has_chance = any(any(row) for row in self._chance)
        # The last outcomes drawn from, with their probabilities as floats and their sum.
        self._weights: tuple[list[tuple[Move, Fraction]], list[float], float] | None = None
        self._plain: list[list[bool]] = [
            [not keeps and is_decision and i == len(steps) - 1
             and self._continuation[p][i] is False for i, (is_decision, _) in enumerate(steps)]
            for p, steps in enumerate(self.turns)]
        # Per phase and step, for a step that is automatic: the automatic steps from it on
        # that _advance runs (not the checks, which passed when the move was found legal),
        # and the index of the step after them (the next decision, or past the end).
        self._runs: list[list[tuple[tuple[Step, ...], int]]] = []
        for steps in self.turns:
            runs = []
            for i in range(len(steps)):
                j = i
                while j < len(steps) and not steps[j][0]:
                    j += 1
                runs.append((tuple(fn for _, fn in steps[i:j] if not fn.may_refuse), j))
            self._runs.append(runs)
        # Per phase, where the turn resumes after a (continue ...) decision (the step after
        # the turn's first decision), or None where the turn has no such step.
        self._resume: list[int | None] = [
            next(i for i, (is_decision, _) in enumerate(steps) if is_decision) + 1
            if any(c is not False for c in conts) else None
            for steps, conts in zip(self.turns, self._continuation, strict=True)]

    def __repr__(self) -> str:
        return f"<Game {self.name}>"

    def _forbidding(self, decision: Callable[[Ctx], Any], after: list[Step], at_phase: int,
                    at_step: int) -> Callable[[Ctx], Sequence[Move]]:
        """The decision's moves, less those that a step of `after` refuses: each move is
        made on the board with the steps after it, in order, then undone — unless the steps'
        screens are certain it passes, or (when no reason is asked for) that it is refused.
        Listing the moves of a position's own decision (step `at_step` of phase `at_phase`), it
        keeps on the position which moves the screens let through unchanged
        (State._unchanged), so that making one of them skips the steps."""
        def generate(ctx: Ctx) -> Sequence[Move]:
            # A move that every step certainly lets through unchanged need not be tried.
            safe = None
            tests: list[Callable[[Move], bool]] = []
            for step in after:
                test = step.screen(ctx)
                if test is None:
                    break
                tests.append(test)
            else:
                safe = _all_of(tests)
            # The screens, when each is a MoveScreen (judging placements at once, and moves
            # after the changes of the steps before: see _passes_after).
            screens: list[MoveScreen] | None = None
            if safe is not None:
                screens = [test for test in tests if isinstance(test, MoveScreen)]
                if len(screens) != len(tests):
                    screens = None

            def check(move: Move) -> str | None:
                if safe is not None and (safe(move) or _passes_after(screens, move)):
                    return None
                return self._forbidden(ctx, move, after)

            saved = ctx.admit
            ctx.admit = check
            try:
                moves = every_move(decision, ctx)
            finally:
                ctx.admit = saved
            explain = ctx.explain
            kept: list[Sequence[Move]] = []
            # What the screens let through unchanged, kept when these are the moves of the
            # position's own decision, listed on its own board (not while trying a move).
            state = ctx.state
            keep: list[tuple[Sequence[Move], int | None]] | None = None
            if safe is not None and explain is None and not ctx.probe and state is not None \
                    and ctx.board is state.board and not state.trial and ctx.changed is None \
                    and ctx.mover == state.to_move and state.phase == at_phase \
                    and state.step == at_step:
                keep = state._unchanged = []
            # (Exact types, not isinstance: Chain and Placements are Sequences, whose ABC
            # makes an instance check slow, and neither has subclasses.)
            parts = moves.parts if type(moves) is Chain else (moves,)
            for part in parts:
                verdicts = _placement_verdicts(screens, part) \
                    if screens is not None and type(part) is Placements else None
                if verdicts is not None:
                    assert isinstance(part, Placements)
                    passes, refused = verdicts
                    if keep is not None:
                        keep.append((part, passes))
                    if explain is not None:
                        refused = 0  # tried, to say why
                    row = part.row
                    indices = part.indices
                    if ctx.probe:  # the first legal placement is enough
                        for s in indices:
                            if passes >> s & 1 or not refused >> s & 1 and (
                                    _passes_after(screens, row[s])
                                    or self._forbidden(ctx, row[s], after) is None):
                                return [row[s]]
                        continue
                    # The placements neither certainly passed nor certainly refused are tried.
                    # (Usually few: they are found from the bits, not by testing every site.)
                    decided = passes | refused
                    board_bits = (1 << len(ctx.board)) - 1
                    if explain is not None:
                        undecided = [s for s in indices if not decided >> s & 1]
                    else:
                        rest = ~decided & board_bits
                        undecided = _among(set_bits(rest), indices) if rest else []
                    for s in undecided:
                        move = row[s]
                        reason = None if _passes_after(screens, move) else \
                            self._forbidden(ctx, move, after)
                        if reason is None:
                            passes |= 1 << s
                        elif explain is not None:
                            explain.setdefault(move.key, reason)
                    sites: Sequence[int] = indices
                    rest = ~passes & board_bits
                    dropped = _among(set_bits(rest), indices) if rest else []
                    if dropped:
                        if len(dropped) <= _FEW:  # (the list less a few, in its order)
                            sites = list(indices)
                            for s in dropped:
                                sites.remove(s)
                        else:
                            sites = [s for s in indices if passes >> s & 1]
                    if sites:
                        kept.append(part if sites is indices else
                                    Placements(sites, part.value, row))
                    continue
                if safe is not None and not ctx.probe and len(part) > _FEW:
                    # Every move screened at once (no Python loop): usually all pass.
                    listed_ = part if isinstance(part, list) else listed(part)
                    passed = safe.judge(listed_) if isinstance(safe, MoveScreen) else \
                        list(map(safe, listed_))
                    if all(passed):
                        if listed_:
                            whole = listed_[:] if listed_ is part else listed_
                            kept.append(whole)
                            if keep is not None:
                                keep.append((whole, None))
                        continue
                    out = []
                    for move, ok in zip(listed_, passed, strict=True):
                        reason = None if ok or move.kind == "pass" or _passes_after(
                            screens, move) else self._forbidden(ctx, move, after)
                        if reason is None:
                            out.append(move)
                        elif explain is not None:
                            explain.setdefault(move.key, reason)
                    if out:
                        kept.append(out)
                    continue
                out = []
                for move in part:
                    reason = None if move.kind == "pass" or safe is not None and (
                        safe(move) or _passes_after(screens, move)) else \
                        self._forbidden(ctx, move, after)
                    if reason is None:
                        out.append(move)
                        if ctx.probe:
                            return out
                    elif explain is not None:
                        explain.setdefault(move.key, reason)
                if out:
                    kept.append(out)
            if keep and len(kept) > 1 and not _exclusive(kept):
                state._unchanged = None  # (a placement's verdict is kept for its own part)
            if not kept:
                return []
            return kept[0] if len(kept) == 1 else Chain(kept)

        mark(generate).kinds = parts_of(decision).kinds
        return generate

    def _forbidden(self, ctx: Ctx, move: Move, after: list[Step]) -> str | None:
        """Why a step of `after` refuses `move` (tried on ctx's board, then undone), or
        None. Declining (pass) is never refused."""
        if move.kind == "pass":
            return None
        state = ctx.state
        board, mover = ctx.board, ctx.mover
        # The turn and context of the last move tried, when it was tried on the same board
        # for the same mover (usually: the position's previous move), are used again.
        kept, self._trying = self._trying, None  # (taken while in use: a trial may nest)
        if kept is not None and kept[0] is board and kept[1] is state and kept[2] == mover:
            turn, trial = kept[3], kept[4]
            turn.__init__(self, state, board, mover, trying=True)  # type: ignore[misc]
            trial.site = -1
            trial.changed = None
            trial.probe = False
        else:
            turn = TurnInProgress(self, state, board, mover, trying=True)
            trial = Ctx(board, mover, state, self.env, self.owner)
        trial.to = move.sites[-1] if move.sites else -1
        trial.frm = move.sites[0] if moves_a_piece(move.kind) else -1
        if state is not None:
            state.trial += 1  # the board is not the position's for now (see Env.track)
            state.tried += 1
        try:
            turn.change(move.changes)
            for action in move.actions:
                action.apply(turn)
            for step in after:
                trial.last = tuple(turn.changed)
                trial.taken = turn.taken
                trial.marks = turn.marks
                trial.hands = turn.hands
                step.run(trial, turn)
                if turn.refused is not None:
                    return turn.refused
            return None
        finally:
            turn.undo()
            if state is not None:
                state.trial -= 1
                state.tried -= 1
            self._trying = (board, state, mover, turn, trial)

    @functools.cached_property
    def actions(self) -> ActionSpace:
        """The game's moves as integer actions (see interpreter/actions.py), made once."""
        from interpreter.actions import action_space

        return action_space(self)

    @functools.cached_property
    def graph(self) -> nx.Graph:
        """The board as a networkx graph: one node per site, named by the site's name (with its
        `row`, `col` and `x`, `y` coordinates), one edge per adjacency (with `directions`, for
        each end the direction leaving it along the edge, e.g. {"a1": "NE", "b2": "SW"}, and
        `diagonal`, True for a square board's diagonal neighbours); `graph.graph["sides"]` maps
        each side to its sites. Made for the user: changing it changes nothing in play."""
        return public_graph(self.env.topology.graph)

    def _start_board(self, start: StartSection | None) -> list[int]:
        board = [EMPTY] * len(self.sites)
        if start is None:
            return board
        for setup in start.setups:
            for s in setup.sites:
                board[s] = setup.value
            for s, v in setup.cells:
                board[s] = v
        return board

    # States --------------------------------------------------------------------------------
    def initial_state(self) -> State:
        if self._start_state is None:
            # Made once: its empty sites and trackers' data are copied into every new game.
            start = State(self, list(self.start), self.first,
                          hands=self.default_hands(self.start),
                          memory=(None,) * len(self.env.memories),
                          scores=(0,) * len(self.players) if self.env.uses_scores else ())
            start.empty_sites()
            start.track = [tracker.build(start.board) for tracker in self.env.trackers]
            # Judged as from_text judges a position: as if the role before the first had just
            # moved (a start where the first player cannot move may already be lost).
            self._start_state = self.settle(start, self.previous(self.first))
            self.begin_history(start)
        return self._successor(self._start_state)

    def begin_history(self, state: State,
                      before: tuple[tuple[int, int], ...] = ()) -> None:
        """Start the position history of a state (for games that keep one: see (repeated
        ...)) with its own board, after the board before the last turn when `before` gives
        the sites that turn changed and what they held."""
        if self._zobrist is not None:
            state.zhash = board_hash(self._zobrist, state.board)
            if self.env.hand_kinds is not None:  # hands are part of the position
                state.zhash ^= self.env.hand_kinds.hash(state.held)
            if state.edges:
                state.zhash ^= self.env.shared["edges"].hash(state.edges)
            state.history = [state.zhash]
            if before:
                earlier = list(state.board)
                for s, v in before:
                    earlier[s] = v
                state.history.insert(0, board_hash(self._zobrist, earlier))
            state.seen = {}
            for h in state.history:
                state.seen[h] = state.seen.get(h, 0) + 1
            state.before = before
            keys = self.env.shared.get("zobrist movers")
            if keys is not None:
                state.situations = {situation(keys, state.zhash, state.to_move,
                                              state.memory): 1}
                if before:  # the board before the last turn, with its mover to move
                    back = situation(keys, state.history[0], self.previous(state.to_move),
                                     (None,) * len(state.memory))
                    state.situations[back] = state.situations.get(back, 0) + 1

    def default_hands(self, board: list[int]) -> tuple[int, ...]:
        """Pieces in hand when nothing says otherwise: each role's supply minus its pieces on
        the board (-1 for a role whose pieces are not counted)."""
        supply = self.env.supply
        if not any(supply):
            return ()
        counted, owner = self._counted, self.owner
        on_board = [0] * len(self.players)
        for v in board:
            if counted[v]:
                on_board[owner[v]] += 1
        return tuple(n - on_board[r] if n else -1 for r, n in enumerate(supply))

    def from_text(self, text: str) -> State:
        """The state a position text describes (see the contract). The end conditions are
        evaluated as if the player before the mover had just moved."""
        return parse_position(self, text)

    def previous(self, role: int) -> int:
        """The role that moves before `role`."""
        return (role - 1) % len(self.players)

    def end_reasons(self) -> list[str]:
        """How each end condition is named when it ends a game, in order."""
        return list(self._reasons)

    def _reason(self, i: int) -> str:
        return self._reasons[i]

    @functools.cached_property
    def _reasons(self) -> tuple[str, ...]:
        """Each end rule's name, as the game file gives it, taken before any is judged (a
        condition's wording may change as it is judged, naming the part that decided; a rule
        keeps one name)."""
        return tuple(str(parts_of(rule.condition).why or parts_of(rule.condition).source
                         or f"end rule {i + 1}")
                     for i, rule in enumerate(self.end_rules))

    def settle(self, state: State, just_moved: int, ctx: Ctx | None = None) -> State:
        """Evaluate the end conditions on `state`, `just_moved` being the role that just moved;
        record the result on the state (used once, while the state is being built). `ctx`, if
        given, is a context made for this state, used again (the fast path's)."""
        # The conditions may change the board only for a moment (judging a move); it is
        # always restored, so they work on the state's own board.
        if ctx is None:
            ctx = Ctx(state.board, just_moved, state, self.env, self.owner)
        else:
            ctx.mover = just_moved
            ctx.to = ctx.frm = -1
        ctx.last = state.last
        ctx.taken = state.captures
        ctx.marks = NO_MARKS
        # Whether each role can move is asked once however many end conditions ask it (one
        # may ask for a win by no moves left in check, the next for a draw by no moves).
        self._movers_known = (state.board, {})
        reasons = self._reasons  # named before the first judgement
        try:
            for i, rule in enumerate(self.end_rules):
                if rule.condition(ctx):  # type: ignore[operator]
                    state.result = rule.result(ctx)  # type: ignore[operator]
                    state.reason = reasons[i]
                    break
        finally:
            self._movers_known = None
        if state.result is not None:
            state._moves = []  # what the end conditions listed is no longer legal
        return state

    # Moves ---------------------------------------------------------------------------------
    def _decision(self, phase: int, step: int) -> Callable[[Ctx], list[Move]]:
        is_decision, fn = self.turns[phase][step]
        assert is_decision
        return fn  # type: ignore[no-any-return]

    def generate(self, state: State, explain: dict[Any, str] | None = None) -> list[Move]:
        """The legal moves, in the order the rules produce them."""
        moves = self._moves(state, explain)
        return moves if isinstance(moves, list) else listed(moves)

    def _moves(self, state: State, explain: dict[Any, str] | None = None,
               ctx: Ctx | None = None) -> Sequence[Move]:
        """The legal moves as the generators give them (possibly a lazy sequence). `ctx`, if
        given, is a context made for this state, used again (the fast path's)."""
        if state.result is not None:
            return []
        if explain is None and state._moves is not None:
            return state._moves  # listed already, by the end test (see _can_move)
        # Generators change the board only to judge a move, and always restore it.
        if ctx is None:
            # The context `apply` made for this state, if it is the last one it made (taken:
            # a nested listing makes its own); else a new one.
            spare, self._spare = self._spare, None
            if spare is not None and spare.state is state and explain is None:
                ctx = spare
                ctx.mover = state.to_move
                ctx.to = ctx.frm = ctx.site = -1
                ctx.taken = 0
                ctx.marks = NO_MARKS
                ctx.hands = None
                ctx.changed = None
            else:
                ctx = Ctx(state.board, state.to_move, state, self.env, self.owner)
                ctx.explain = explain
        else:  # (it may have judged the last turn's steps: what they saw is forgotten)
            ctx.mover = state.to_move
            ctx.to = ctx.frm = -1
            ctx.taken = 0
            ctx.marks = NO_MARKS
            ctx.hands = None
        ctx.last = state.last
        moves = self.turns[state.phase][state.step][1](ctx)
        return self._with_swap(state, moves) if state.pie_open else moves

    def _with_swap(self, state: State, moves: Sequence[Move]) -> Sequence[Move]:
        """A decision's moves, with the pie rule's swap when it is open."""
        if state.pie_open and state.step == 0:
            return [*moves, Move("swap", (), (), self.sites)]
        return moves

    def _can_move(self, ctx: Ctx, role: int) -> bool:
        """Has `role` a move other than pass at the start of its turn, on ctx's board?"""
        known = self._movers_known
        state = ctx.state
        settled = known is not None and ctx.board is known[0] and ctx.changed is None and (
            state is None or not state.trial)
        if settled and role in known[1]:  # type: ignore[index]
            return known[1][role]  # type: ignore[index,no-any-return]
        phase = state.phase if state is not None else 0
        if settled and state is not None and role == state.to_move and state.step == 0 \
                and state._moves is None:
            # The player about to move, on the position being judged: its moves are the
            # ones legal_moves will list, so they are listed whole and kept.
            full = Ctx(ctx.board, role, state, self.env, self.owner)
            full.last = ctx.last
            moves = self._with_swap(state, self._decision(phase, 0)(full))
            state._moves = moves if isinstance(moves, list) else listed(moves)
            can = any(m.kind != "pass" and m.kind != "swap" for m in state._moves)
        else:
            probe = Ctx(ctx.board, role, state, self.env, self.owner)
            probe.last = ctx.last
            probe.probe = True
            can = any(m.kind != "pass" for m in self._decision(phase, 0)(probe))
        if settled:
            known[1][role] = can  # type: ignore[index]
        return can

    def find(self, state: State, move: Move | str) -> Move:
        """The legal move `move` stands for, or IllegalMoveError saying why there is none."""
        if state.result is not None:
            raise IllegalMoveError(f"{move}: the game is over")
        if state._moves is None:
            state._moves = self.generate(state)
        legal = state._moves
        if isinstance(move, Move) and any(map(operator.is_, legal, repeat(move))):
            return move  # usually one of this state's own moves
        text = str(move)
        if isinstance(move, Move) and move.names is self.sites:
            key = move.key
        elif isinstance(move, Move):  # made for another board: read it by its notation
            key = parse_move(text, self.env.topology.index)
        elif isinstance(move, str):
            key = parse_move(move, self.env.topology.index)
            text = move.strip()
        else:
            raise IllegalMoveError(f"{move!r}: a move is a Move or its notation (a string)")
        kind, sites = key
        for m in legal:
            if m.sites == sites and m.kind == kind:
                return m
        for m in legal:  # a move of another kind written alike (a group of one site, ...)
            if m.kind != kind:
                other = kind_of(m.kind)
                if other is not None and other.matches(m.kind, m.sites, key):
                    return m
        raise IllegalMoveError(f"{text}: {self.why_illegal(state, key)}")

    def why_illegal(self, state: State, key: tuple[str, tuple[int, ...]]) -> str:
        """Why the move written as `key` (what its notation reads as) is not legal: the reason
        the rules gave, else what the kinds of move concerned say (stdlib/movekinds.py: the
        kinds of the legal moves first, then the kind written), else how moves here are
        written."""
        kind, sites = key
        explain: dict[Any, str] = {}
        moves = self.generate(state, explain)
        if key in explain:
            return explain[key]
        for (other, where), why in explain.items():  # a move written alike, refused
            found = kind_of(other)
            if other != kind and found is not None and found.matches(other, where, key):
                return why
        role = self.players[state.to_move]
        refused = Refused(kind, sites, moves, explain, state.board, self.owner, state.to_move,
                          role, self.sites, self.env.specials, self.env.special_symbol,
                          self.pie)
        written = kind_of(kind)
        legal = {kind_of(m.kind) for m in moves}
        for k in move_kinds():
            if k.refuse is not None and k is not written and k in legal:
                reason = k.refuse(refused)
                if reason is not None:
                    return reason
        if written is not None and written.refuse is not None:
            reason = written.refuse(refused)
            if reason is not None:
                return reason
        hints: dict[str, None] = {}  # how the legal moves are written, but declining
        for name in sorted({m.kind for m in moves}):
            found = kind_of(name)
            if found is not None and found.hint is not None:
                hints.setdefault(found.hint)
        if not hints or (written is not None and written.hint in hints):
            return f"not a legal move for {role} now"
        expected = " or ".join(hints)
        return f"not a legal move for {role} now (moves here are written {expected})"

    def apply(self, state: State, move: Move) -> State:
        """The state after a legal move (`state` is unchanged): the move's changes, then the
        automatic steps that follow it; then either the same player's next decision, or the
        end of the turn (the phase may end, the next player moves, and the end conditions are
        judged)."""
        if move.kind == "swap":
            swapped = State(self, list(state.board), state.to_move, step=0, passes=0,
                            pie_open=False, swapped=not state.swapped, last=(),
                            turn=state.turn, hands=state.hands,
                            memory=(None,) * len(self.env.memories), phase=state.phase,
                            scores=state.scores, edges=state.edges)
            swapped._empty = state._empty
            swapped.verdicts = state.verdicts
            _copy_history(state, swapped)
            return swapped
        new = self._successor(state)
        # One context for the turn's steps, the end conditions and the next listing of
        # moves (as the fast path's).
        ctx = Ctx(new.board, new.to_move, new, self.env, self.owner)
        after = self._advance(new, move, ctx)
        self._spare = ctx if after.board is ctx.board else None
        return after

    def chance_outcomes(self, state: State) -> list[tuple[Move, Fraction]]:
        """At a chance position, each outcome with its probability (see State)."""
        if not state.is_chance:
            return []
        decision = self.turns[state.phase][state.step][1]
        ctx = Ctx(state.board, state.to_move, state, self.env, self.owner)
        ctx.last = state.last
        return decision.outcomes(ctx)  # type: ignore[no-any-return]

    def draw(self, state: State, rng: random.Random) -> Move:
        """A chance outcome drawn with its probability (one number from `rng`)."""
        outcomes = self.chance_outcomes(state)
        kept = self._weights
        if kept is None or kept[0] is not outcomes:  # (a decision's list, usually the same)
            kept = self._weights = (outcomes, [float(p) for _, p in outcomes],
                                    float(sum(p for _, p in outcomes)))
        _, weights, total = kept
        return outcomes[drawn_index(weights, total, rng)][0]

    def _successor(self, state: State) -> State:
        """A copy of `state` that `_advance` may change: everything a move changes in place is
        copied (the board, the empty sites, the kept verdicts and the trackers' data). (Made
        slot by slot, without State.__init__: this is once per move of the public loop.)"""
        new = _new_state(State)
        new.game = self
        new.board = state.board[:]
        new.to_move = state.to_move
        new.step = state.step
        new.passes = state.passes
        new.result = state.result
        new.reason = state.reason
        new.pie_open = state.pie_open
        new.swapped = state.swapped
        new.last = state.last
        new.turn = state.turn
        new.turn_all_pass = state.turn_all_pass
        new.hands = state.hands
        new.memory = state.memory
        new.phase = state.phase
        new.last_to = state.last_to
        new.last_from = state.last_from
        new.scores = state.scores
        new.dice = state.dice
        new.held = state.held
        new.edges = state.edges
        new.quiet = state.quiet
        new.captures = state.captures
        new.situations = None
        if state.history is not None:
            new.zhash, new.history = state.zhash, state.history[:]
            new.seen = state.seen.copy()  # type: ignore[union-attr]
            if state.situations is not None:
                new.situations = state.situations.copy()
            new.undo, new.before = state.undo.copy(), state.before
        else:
            new.zhash, new.history, new.seen, new.undo, new.before = 0, None, None, {}, ()
        new._moves = None
        new._unchanged = state._unchanged  # (read by _advance, about the move made now)
        new._numbered = None
        new._empty = None if state._empty is None else state._empty[:]
        new.log = None
        new.verdicts = {key: kept.copy() for key, kept in state.verdicts.items()} \
            if state.verdicts else {}
        trackers = self.env.trackers
        new.track = [None if data is None else tracker.copy(data)
                     for tracker, data in zip(trackers, state.track, strict=True)] \
            if trackers else []
        new.trial = 0
        new.tried = 0
        return new

    def _advance(self, state: State, move: Move, ctx: Ctx | None = None) -> State:
        """Make a legal move on `state` itself, which nobody else may hold (see apply); `ctx`
        as for settle."""
        mover = state.to_move
        if self._plain[state.phase][state.step]:
            # The turn's last decision, nothing after it, and nothing kept about the turn
            # (captures, the last sites, memories...): the common case, made short.
            state._moves = None
            if state.step == 0 and state.history is not None:
                state.undo = {}
            self._make(state, move.changes)
            changed = move.changed
            # (Unknown before this decision, as read from text in mid-turn: unknown still.)
            state.last = changed if state.step == 0 else \
                None if state.last is None else state.last + changed
            state.turn_all_pass = state.turn_all_pass and move.kind == "pass"
            return self._end_turn(state, mover, False, ctx)
        board = state.board
        before = list(board) if state.memory else board
        state._moves = None
        unchanged, state._unchanged = state._unchanged, None
        if state.step == 0:
            if state.captures:
                state.captures = 0
            if state.history is not None:
                state.undo = {}
        steps = self.turns[state.phase]
        last_step = len(steps) - 1
        env = self.env
        # A chance outcome's sites are the values drawn: it puts nothing on a site.
        sited = not self._chance[state.phase][state.step]
        resets = env.uses_quiet and moves_a_piece(move.kind) and \
            board[move.sites[0]] in env.quiet_resets
        # Pieces of other roles the decision takes (counted where a rule asks).
        taken = self._captures(board, move.changes, mover) \
            if env.uses_taken or env.uses_quiet else 0
        self._make(state, move.changes)
        # The move's other actions (set the dice, use a die...), through the same turn as the
        # steps after it: what they mark, and another turn they give, hold for those steps.
        acting = self._applying.start(state, mover) if move.actions else None
        if acting is not None:
            for action in move.actions:
                action.apply(acting)
        if self.env.uses_last and move.kind != "pass" and sited:
            state.last_to = move.sites[-1] if move.sites else -1
            state.last_from = move.sites[0] if moves_a_piece(move.kind) else -1
        step = state.step + 1
        if self._resume[state.phase] is not None and \
                self._continuation[state.phase][state.step] is not False:
            # After a (continue ...) decision, the turn's steps again; declining ends it.
            step = last_step + 1 if move.kind == "pass" else self._resume[state.phase]  # type: ignore[assignment]
        effects = None
        turn = None  # the automatic steps' actions, when the decision has any
        marks: set[str] | frozenset[str] = NO_MARKS
        changed = move.changed
        if step <= last_step and not steps[step][0]:
            todo, step = self._runs[state.phase][step]
            if todo and unchanged is not None and not move.actions \
                    and _let_through(unchanged, move):
                todo = ()  # the steps' screens were certain: they change nothing
            if todo:
                effects = self._effects_ctx(state, move, mover, ctx, sited)
                turn = acting if acting is not None else self._applying.start(state, mover)
                turn.changed = list(changed)
                turn.taken = taken
                marks = effects.marks = turn.marks
                effects.last = changed
                for automatic in todo:
                    if len(turn.changed) != len(changed):  # the steps so far changed sites
                        changed = effects.last = tuple(turn.changed)
                    effects.hands = state.hands
                    effects.taken = turn.taken
                    automatic.run(effects, turn)
                taken = turn.taken
                if len(turn.changed) != len(changed):
                    changed = tuple(turn.changed)
        if taken:
            state.captures += taken
        if env.uses_quiet:
            state.quiet = 0 if taken or resets else state.quiet + 1
        if state.memory:
            state.memory = tuple([mem.update(before, board, changed, value) for mem, value
                                  in zip(self.env.memories, state.memory, strict=True)])
        state.last = changed if state.step == 0 else \
            None if state.last is None else state.last + changed
        state.turn_all_pass = state.turn_all_pass and move.kind == "pass"
        state.pie_open = False
        if step <= last_step:
            condition = self._continuation[state.phase][step]
            if condition is False or self._continues(
                    state, steps[step][1], condition,
                    effects or self._effects_ctx(state, move, mover, None, sited), taken,
                    marks):
                state.step = step
                return state
        turn = turn if turn is not None else acting
        return self._end_turn(state, mover, turn is not None and turn.again_, ctx)

    def _end_turn(self, state: State, mover: int, again: bool, ctx: Ctx | None) -> State:
        """End the turn `mover` has just played on `state`: the next player (the same one
        `again`), the pie, the phase, the history, then the end conditions."""
        board = state.board
        roles = self.roles
        state.to_move = mover if again else (mover + 1) % roles
        state.step = 0
        if state.dice:  # dice not used by the end of the turn are lost
            state.dice = ()
        state.passes = state.passes + 1 if state.turn_all_pass else 0
        state.turn_all_pass = True
        state.turn += 1
        # The swap is open exactly where position text would say so by default: the second
        # role's first turn (the first role has added pieces, the second none).
        if self.pie:
            state.pie_open = default_pie(self, board, state.to_move, state.swapped)
        phase = self.phases[state.phase]
        if phase.until is not None:
            ending = Ctx(board, mover, state, self.env, self.owner)
            ending.last = state.last
            if phase.until(ending):  # type: ignore[operator]
                state.phase += 1
                if phase.next is not None:
                    state.to_move = phase.next(ending)  # type: ignore[operator]
        if state.history is not None:  # the position joins its history, then is judged
            h = state.zhash
            state.history.append(h)
            seen = state.seen
            assert seen is not None
            seen[h] = seen.get(h, 0) + 1
            if state.situations is not None:
                h = situation(self.env.shared["zobrist movers"], h, state.to_move,
                              state.memory)
                state.situations[h] = state.situations.get(h, 0) + 1
            undo = state.undo
            if len(undo) == 1:  # (the usual turn: one site changed)
                ((s, old),) = undo.items()
                state.before = () if board[s] == old else ((s, old),)
            else:
                state.before = tuple([(s, old) for s, old in sorted(undo.items())
                                      if board[s] != old])
            state.undo = {}
        # End conditions judge the position as if the player before the one to move had just
        # moved (which is who moved, unless a phase handed the turn back to them).
        self.settle(state, (state.to_move - 1) % roles, ctx)
        return state

    def _captures(self, board: list[int], changes: tuple[tuple[int, int], ...],
                  mover: int) -> int:
        """How many pieces of roles other than `mover` the changes take off `board`."""
        owner = self.owner
        taken = 0
        for s, v in changes:
            was = owner[board[s]]
            if was >= 0 and was != mover and owner[v] != was:
                taken += 1
        return taken

    def _effects_ctx(self, state: State, move: Move, mover: int, ctx: Ctx | None = None,
                     sited: bool = True) -> Ctx:
        """The context a turn's automatic steps are judged in, after the decision `move`
        (`ctx`, if given, is one made for this state, used again: the fast path's; `sited`:
        the move's sites are sites, not the values a chance outcome drew)."""
        if ctx is not None and ctx.state is state and ctx.board is state.board:
            effects = ctx
            effects.mover = mover
        else:
            effects = Ctx(state.board, mover, state, self.env, self.owner)
        effects.to = move.sites[-1] if sited and move.sites else -1
        effects.frm = move.sites[0] if sited and moves_a_piece(move.kind) else -1
        return effects

    def _continues(self, state: State, moves: Callable[[Ctx], Any], condition: Any,
                   effects: Ctx, taken: int, marks: set[str] | frozenset[str]) -> bool:
        """Does the turn go on with a (continue ...) decision: its condition holds (judged
        after the turn's steps) and its moves offer something besides declining?"""
        effects.last = state.last
        effects.taken = taken
        effects.marks = marks
        if condition is not None and not condition(effects):
            return False
        probe = Ctx(state.board, state.to_move, state, self.env, self.owner)
        probe.probe = True
        return any(m.kind != "pass" for m in moves(probe))  # declining alone is nothing

    def _make(self, state: State, changes: tuple[tuple[int, int], ...]) -> None:
        """Make `changes` on the state's board, keeping its hands, empty sites and trackers'
        data up to date."""
        board = state.board
        if state.hands:
            state.hands = self.env.hands_after(state.hands, board, changes)
        empty = state._empty
        no_piece = self.no_piece
        track = state.track
        trackers = self.env.trackers
        zobrist = self._zobrist
        kinds = self.env.hand_kinds
        log = state.log
        # What each site held before the turn, in games that keep a position history.
        undo = state.undo if zobrist is not None and state.history is not None else None
        for s, v in changes:
            old = board[s]
            if old == v:
                continue
            board[s] = v
            if log is not None:
                log.append((s, old))
            if zobrist is not None:
                keys = zobrist[s]
                state.zhash ^= keys[old] ^ keys[v]
                if undo is not None and s not in undo:
                    undo[s] = old
            if empty is not None:
                if old == EMPTY:
                    del empty[bisect.bisect_left(empty, s)]  # the list is in site order
                elif v == EMPTY and s not in no_piece:
                    bisect.insort(empty, s)
            if track:
                for i, data in enumerate(track):
                    if data is not None:
                        track[i] = trackers[i].update(data, board, s, old, v)
            if kinds is not None:  # a piece of another role taken goes to the mover's hand
                state.held, dz = captured_to_hand(kinds, self.owner, state.to_move,
                                                  state.held, old, v)
                if zobrist is not None:
                    state.zhash ^= dz
        if state.verdicts:
            self._forget_verdicts(state, [s for s, _ in changes])

    def _forget_verdicts(self, state: State, changed: list[int]) -> None:
        """Drop the kept placement verdicts that a change at `changed` may alter."""
        for key, kept in state.verdicts.items():
            touched = self.env.touched((key[0], key[1]))
            assert touched is not None
            for c in changed:
                for s in touched[c]:
                    kept.pop(s, None)

    # Making and unmaking moves in place ------------------------------------------------------
    def make(self, state: State, move: Move | str) -> Unmake:
        """Make a legal move on `state` itself (which only its owner may hold, e.g. one made
        by `game.initial_state()` or `state.play`), and return what `unmake` needs to put it
        back: search (perft, agents) walks the game tree this way without copying. A move
        given by its notation is looked up (IllegalMoveError if it is not legal); a Move is
        taken to be one of the state's legal moves."""
        if isinstance(move, str):
            move = self.find(state, move)
        saved = _snapshot(state)
        undo = dict(state.undo) if state.history is not None else None
        length = len(state.history) if state.history is not None else 0
        outer, state.log = state.log, []
        try:
            if move.kind == "swap":
                swapped = self.apply(state, move)
                for slot in _SNAPSHOT:
                    setattr(state, slot, getattr(swapped, slot))
            else:
                self._advance(state, move)
            log = state.log
        finally:
            state.log = outer
        if outer is not None:
            outer.extend(log)
        return Unmake(saved, log, undo, length)

    def unmake(self, state: State, made: Unmake) -> None:
        """Put back the move `make` made (the last one made on `state` and not unmade)."""
        history = state.history
        if history is not None and len(history) > made.length:
            h = history.pop()
            seen = state.seen
            assert seen is not None
            if seen[h] == 1:
                del seen[h]
            else:
                seen[h] -= 1
            if state.situations is not None:
                key = situation(self.env.shared["zobrist movers"], h, state.to_move,
                                state.memory)
                if state.situations[key] == 1:
                    del state.situations[key]
                else:
                    state.situations[key] -= 1
        self._make(state, tuple(reversed(made.log)))
        for slot, value in zip(_SNAPSHOT, made.saved, strict=True):
            setattr(state, slot, value)
        if made.undo is not None:
            state.undo = made.undo

    # Random games --------------------------------------------------------------------------
    def playouts(self, n: int, seed: int | None = None, workers: int = 1,
                 kernel: bool | None = None) -> Playouts:
        """Play `n` random games (see interpreter/playouts.py): their winners, lengths and
        end reasons, the same for the same seed whatever the number of workers. They are
        played in the game's kernel when it has one (`kernel` None); `kernel=False` plays
        them interpreted, `kernel=True` requires the kernel."""
        from interpreter.playouts import playouts

        return playouts(self, n, seed, workers, kernel=kernel)

    def playout(self, rng: random.Random | None = None, max_plies: int | None = None,
                state: State | None = None, record: list[str] | None = None,
                observe: Callable[[State, Sequence[Move]], None] | None = None
                ) -> tuple[State, int]:
        """Play random moves until the game ends, no move is possible, or `max_plies` moves
        have been made (default: 20 times the number of sites). Returns the final state and
        the number of moves made; the moves' notation is appended to `record` if given, and
        `observe(state, legal_moves)` is called before each decision (the state is changed in
        place afterwards: read what you need then).

        The moves chosen are exactly those of `rng.choice(state.legal_moves())` at each
        step (and at a chance position, `game.draw(state, rng)`), so a seed gives the same game
        either way; this loop is faster because it never makes the Moves it does not play."""
        rng = rng or random.Random()
        # One position of its own, changed move by move (apply would copy it every time).
        state = self._successor(state) if state is not None else self.initial_state()
        bound = max_plies if max_plies is not None else 20 * len(self.sites)
        plies = 0
        chance = self.has_chance
        ctx = Ctx(state.board, state.to_move, state, self.env, self.owner)
        while state.result is None and plies < bound:
            # The same choices as random.choice(state.legal_moves()), without making a Move
            # for every legal move.
            moves = state._moves if state._moves is not None else self._moves(state, None, ctx)
            if not moves:
                break
            if observe is not None:
                observe(state, moves)
            if chance and self._chance[state.phase][state.step]:
                move = self.draw(state, rng)
            else:
                move = rng.choice(moves)
            if record is not None:
                record.append(str(move))
            if move.kind == "swap":
                state = self._successor(self.apply(state, move))
                ctx = Ctx(state.board, state.to_move, state, self.env, self.owner)
            else:
                state = self._advance(state, move, ctx)
            plies += 1
        return state, plies
