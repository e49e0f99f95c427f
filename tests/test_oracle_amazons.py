"""Amazons against OpenSpiel, an independent engine, turn by turn.

games/amazons.game plays a turn as two decisions: move an amazon (`a4-a7`), then shoot an arrow
from where it landed (`c5`). OpenSpiel's `amazons` splits the same turn into three actions:
select an amazon, select its destination, select the shot. So the games are compared at the turn
level: at every turn start, the set of (from, to) pairs ludeme offers must be the set OpenSpiel
reaches through select-amazon then select-destination; at the shot, ludeme's shot sites must be
OpenSpiel's shot actions; the player to move, the board, whether the game is over and the winner
must agree throughout. Random games, seeded: 500 each at sizes 10 and 6, 200 at 8 (about 6 s
in all; ludeme picks each decision at random and OpenSpiel replays it).

What OpenSpiel plays, read from open_spiel/games/amazons/amazons.{h,cc} and checked below:

- parameter `board_size`, 6, 8 or 10 (default 10; anything else is a SpielCheck failure).
- cell (action) r * board_size + c is row r from the top (ToString prints row 0 first) and
  column c from the left; the constructor's comments name cells like chess ("Player 0 (Cross,
  'X') - a4, j4, d1, g1" for cells 60, 69, 93, 96 at size 10), which is this naming.
- player 0 is Cross (`X`), at the bottom, and moves first (`current_player_ = 0`); player 1 is
  Nought (`O`) at the top; an arrow prints `#` (amazons.h's comment says '@'). So player 0 is
  our White, player 1 our Black.
- the start: 10x10 the standard a4 d1 g1 j4 / a7 d10 g10 j7; 8x8 a3 c1 f1 h3 / a6 c8 f8 h6; 6x6
  a2 b1 e1 f2 / a5 b6 e6 f5 (the 8 and 6 layouts are OpenSpiel's own scaling of the 10x10
  one, per its constructor comment; games/amazons.game uses the same).
- select-amazon offers only amazons with an empty neighbour (HasAnyMoveFromCell); destination
  and shot are queen moves over empty cells (GetAllMoves: 8 rays, stop at the first non-empty
  cell). The amazon's square is emptied when it is selected, so the arrow may be shot back
  onto or across it. Every selectable amazon therefore has a destination, and every
  destination a shot: no dead ends inside a turn.
- the end is judged only after a shot: if the next player has no amazon with an empty
  neighbour, the game is over and the player who just moved wins (returns [1, -1] or [-1, 1],
  never a draw). That is the published rule (the player who cannot move loses).
- MaxGameLength is 3 * board_size ** 2 actions.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from oracle import KING, OracleMismatch, ludeme_edges, require_openspiel, site

from interpreter import load_game, parse_game

pyspiel = require_openspiel("amazons")
if "board_size" not in pyspiel.load_game("amazons").get_parameters():
    pytest.skip(f"OpenSpiel {getattr(pyspiel, '__version__', '?')}'s amazons has no board_size "
                "parameter (it arrived with the 6/8/10 boards these tests compare)",
                allow_module_level=True)

GAMES = Path(__file__).resolve().parent.parent / "games"
SIZES = (10, 8, 6)

# OpenSpiel's ToString symbols (StateToString) and ours (games/amazons.game).
SYMBOLS = {".": ".", "X": "W", "O": "B", "#": "x"}


def amazons(size: int) -> Any:
    path = GAMES / "amazons.game"
    return load_game(path, size=size)


def spiel_amazons(size: int) -> Any:
    return pyspiel.load_game("amazons", {"board_size": size})


def cell_names(size: int) -> dict[int, str]:
    """OpenSpiel's cell r * size + c (row r from the top, column c from the left, as ToString
    and BoardAt(row, column) read it) named like a chess square: column letter, row size - r
    counted from the bottom."""
    return {r * size + c: site(c, size - r) for r in range(size) for c in range(size)}


def spiel_neighbours(size: int) -> set[frozenset[str]]:
    """The cells one step apart along OpenSpiel's eight directions (kDirRow, kDirCol in
    GetAllMoves), as unordered pairs of ludeme names."""
    names = cell_names(size)
    return {frozenset((names[r * size + c], names[(r + dr) * size + c + dc]))
            for r in range(size) for c in range(size) for dr, dc in KING
            if 0 <= r + dr < size and 0 <= c + dc < size}


def spiel_rows(spiel_state: Any) -> list[list[str]]:
    """OpenSpiel's board in ludeme's symbols, top row first."""
    return [[SYMBOLS[ch] for ch in line] for line in str(spiel_state).splitlines()]


def ludeme_rows(state: Any, size: int) -> list[list[str]]:
    """The board lines of ludeme's position text (the `key: value` lines follow them)."""
    return [line.split() for line in state.to_text().splitlines()[:size]]


def spiel_turns(spiel_state: Any, names: dict[int, str]) -> dict[str, tuple[int, int]]:
    """Every complete first part of a turn OpenSpiel allows, select-amazon then
    select-destination, as `from-to` -> (select action, destination action)."""
    turns: dict[str, tuple[int, int]] = {}
    for select in spiel_state.legal_actions():
        chosen = spiel_state.child(select)
        for to in chosen.legal_actions():
            turns[f"{names[select]}-{names[to]}"] = (select, to)
    return turns


def _order(name: str) -> list[tuple[int, str]]:
    return [(int(n), letters) for letters, n in re.findall(r"([a-z]+)(\d+)", name)]


# The boards ---------------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_board_geometry(size: int) -> None:
    """OpenSpiel's cells, named by geometry, are ludeme's sites, and its eight directions are
    the ludeme board's adjacency."""
    game = amazons(size)
    names = cell_names(size)
    assert sorted(names.values()) == sorted(game.sites)
    assert spiel_neighbours(size) == ludeme_edges(game)


@pytest.mark.parametrize("size", SIZES)
def test_start_position_maps_onto_ours(size: int) -> None:
    """OpenSpiel's start, read through the naming, is ours: X (player 0, who moves first) is our
    White at the bottom, O our Black at the top."""
    game, spiel_game = amazons(size), spiel_amazons(size)
    state, spiel_state = game.initial_state(), spiel_game.new_initial_state()
    assert spiel_rows(spiel_state) == ludeme_rows(state, size)
    assert spiel_state.current_player() == 0 and state.mover == game.players[0] == "White"
    names = cell_names(size)
    board = str(spiel_state).replace("\n", "")
    crosses = {names[cell] for cell, ch in enumerate(board) if ch == "X"}
    noughts = {names[cell] for cell, ch in enumerate(board) if ch == "O"}
    assert len(crosses) == len(noughts) == 4
    assert all(int(name[1:]) <= size // 2 for name in crosses)  # the bottom half
    assert all(int(name[1:]) > size // 2 for name in noughts)
    assert {name for name in game.sites if state.piece_at(name) == "White"} == crosses


def test_start_names_match_openspiel_comments() -> None:
    """amazons.cc's constructor names its 10x10 start cells (60, 69, 93, 96 for player 0;
    3, 6, 30, 39 for player 1) as a4, j4, d1, g1 and d10, g10, a7, j7: our naming."""
    names = cell_names(10)
    assert [names[c] for c in (60, 69, 93, 96)] == ["a4", "j4", "d1", "g1"]
    assert [names[c] for c in (3, 6, 30, 39)] == ["d10", "g10", "a7", "j7"]
    assert [cell_names(8)[c] for c in (40, 47, 58, 61)] == ["a3", "h3", "c1", "f1"]
    assert [cell_names(6)[c] for c in (1, 4, 6, 11)] == ["b6", "e6", "a5", "f5"]


def test_default_sizes_agree() -> None:
    assert amazons(10).options["size"] == spiel_amazons(10).get_parameters()["board_size"]
    assert load_game(GAMES / "amazons.game").options["size"] == \
        pyspiel.load_game("amazons").get_parameters()["board_size"]


# Random games, turn by turn -------------------------------------------------------------------


@dataclass
class Summary:
    games: int = 0
    turns: int = 0
    wins: dict[str, int] = field(default_factory=dict)


@dataclass
class Turn:
    """Where a compared game is: both engines' states and the turns so far (ludeme notation,
    `from-to shot`)."""

    state: Any
    spiel_state: Any
    played: list[str] = field(default_factory=list)


class Comparison:
    """One game played through both engines in lockstep, a turn at a time."""

    def __init__(self, game: Any, spiel_game: Any, label: str) -> None:
        self.game, self.spiel_game, self.label = game, spiel_game, label
        self.size: int = game.options["size"]
        self.names = cell_names(self.size)
        self.cells = {name: cell for cell, name in self.names.items()}
        self.roles = tuple(game.players)

    def fail(self, at: Turn, what: str, details: str = "") -> OracleMismatch:
        lines = [f"{self.label}: OpenSpiel disagrees after {len(at.played)} turns: {what}",
                 f"  turns: {' / '.join(at.played) or '(none)'}"]
        if details:
            lines.append(details)
        lines.append("ludeme position:")
        lines.extend("  " + line for line in at.state.to_text().splitlines())
        lines.append(f"OpenSpiel position (X = White, O = Black, # = arrow; "
                     f"history {at.spiel_state.history()}):")
        lines.extend("  " + line for line in str(at.spiel_state).splitlines())
        return OracleMismatch("\n".join(lines))

    def same_moves(self, at: Turn, decision: str, ours: set[str], theirs: set[str]) -> None:
        if ours != theirs:
            raise self.fail(
                at, f"the {decision} differ",
                f"  only OpenSpiel allows: {' '.join(sorted(theirs - ours, key=_order)) or '-'}\n"
                f"  only ludeme allows:    {' '.join(sorted(ours - theirs, key=_order)) or '-'}")

    def same_mover(self, at: Turn) -> None:
        player = at.spiel_state.current_player()
        if at.state.mover != self.roles[player]:
            raise self.fail(at, f"ludeme's mover is {at.state.mover}, OpenSpiel's player "
                                f"{player} is {self.roles[player]}")

    def same_end(self, at: Turn) -> bool:
        over = at.spiel_state.is_terminal()
        if at.state.is_over != over:
            raise self.fail(at, f"ludeme says the game is {'' if at.state.is_over else 'not '}"
                                f"over, OpenSpiel says it is {'' if over else 'not '}over",
                            f"  ludeme winner: {at.state.winner}; "
                            f"OpenSpiel returns: {at.spiel_state.returns()}")
        return over

    def play(self, rng: random.Random) -> Turn:
        """A random game to its end; raise OracleMismatch at the first disagreement."""
        at = Turn(self.game.initial_state(), self.spiel_game.new_initial_state())
        bound = self.spiel_game.max_game_length() // 3 + 1
        while not self.same_end(at):
            if len(at.played) > bound:
                raise self.fail(at, f"no end after {bound} turns")
            # A turn starts: the mover, the board, and every (from, to).
            self.same_mover(at)
            if ludeme_rows(at.state, self.size) != spiel_rows(at.spiel_state):
                raise self.fail(at, "the boards differ")
            turns = spiel_turns(at.spiel_state, self.names)
            ours = {str(m) for m in at.state.legal_moves()}
            self.same_moves(at, "amazon moves (from-to)", ours, set(turns))
            move = rng.choice(sorted(ours))
            select, to = turns[move]
            at.state = at.state.play(move)
            at.spiel_state.apply_action(select)
            at.spiel_state.apply_action(to)
            # The second decision: the same player shoots from where the amazon landed.
            if self.same_end(at):
                raise self.fail(at, "the game ended in the middle of a turn")
            self.same_mover(at)
            theirs = {self.names[a] for a in at.spiel_state.legal_actions()}
            ours = {str(m) for m in at.state.legal_moves()}
            self.same_moves(at, f"shots after {move}", ours, theirs)
            shot = rng.choice(sorted(ours))
            at.state = at.state.play(shot)
            at.spiel_state.apply_action(self.cells[shot])
            at.played.append(f"{move} {shot}")
        returns = list(at.spiel_state.returns())
        expected = ([0.0, 0.0] if at.state.winner is None else
                    [1.0 if role == at.state.winner else -1.0 for role in self.roles])
        if returns != expected:
            raise self.fail(at, f"ludeme's winner is {at.state.winner}, so OpenSpiel's returns "
                                f"should be {expected}, but they are {returns}")
        return at


def compare(size: int, games: int, seed: int) -> Summary:
    comparison = Comparison(amazons(size), spiel_amazons(size), f"amazons size {size}")
    summary = Summary()
    for number in range(games):
        comparison.label = f"amazons size {size}, game {number} (seed {seed})"
        end = comparison.play(random.Random(seed * 1_000_003 + number))
        summary.games += 1
        summary.turns += len(end.played)
        winner = end.state.winner
        summary.wins[winner] = summary.wins.get(winner, 0) + 1
    return summary


@pytest.mark.parametrize(("size", "games", "seed"), [(10, 500, 1), (8, 200, 2), (6, 500, 3)])
def test_random_games_agree_with_openspiel(size: int, games: int, seed: int) -> None:
    started = time.perf_counter()
    summary = compare(size, games, seed)
    assert summary.games == games
    assert set(summary.wins) == {"White", "Black"}  # both sides win some; never a draw
    # a loose guard that the games were real games, not stopped early
    assert summary.turns / games > size * size // 4
    print(f"size {size}: {games} games, {summary.turns} turns, wins {summary.wins}, "
          f"{time.perf_counter() - started:.1f} s")


# The harness itself ---------------------------------------------------------------------------


def turns_of(text: str) -> Iterator[tuple[str, str]]:
    for turn in text.split("/"):
        move, shot = turn.split()
        yield move, shot


def test_harness_reports_a_disagreement() -> None:
    """A naming that counts rows from the top, not the bottom (OpenSpiel's row numbers taken
    as ours), is caught at the first turn, with both positions."""
    comparison = Comparison(amazons(6), spiel_amazons(6), "amazons upside down")
    comparison.names = {r * 6 + c: site(c, r + 1) for r in range(6) for c in range(6)}
    comparison.cells = {name: cell for cell, name in comparison.names.items()}
    with pytest.raises(OracleMismatch) as caught:
        comparison.play(random.Random(0))
    message = str(caught.value)
    assert "after 0 turns: the amazon moves (from-to) differ" in message
    only_ours = next(line for line in message.splitlines() if "only ludeme allows" in line)
    assert "b1-b2" in only_ours.split()
    assert "ludeme position:" in message and "OpenSpiel position" in message


@pytest.mark.parametrize(("rule", "ours", "changed", "caught"), [
    ("the arrow shot from where the amazon started", "(sites Slide LastTo All)",
     "(sites Slide LastFrom All)", "the shots after"),
    ("the stuck player wins", "(win Mover)", "(win Next)", "so OpenSpiel's returns should be"),
])
def test_harness_catches_a_changed_rule(rule: str, ours: str, changed: str, caught: str) -> None:
    """The game file with one rule changed disagrees with OpenSpiel, and the harness says so
    at the decision where it shows: the shot, or the end."""
    text = (GAMES / "amazons.game").read_text()
    if ours not in text:
        pytest.skip(f"games/amazons.game no longer says {ours}")
    game = parse_game(text.replace(ours, changed), source="changed.game", size=6)
    comparison = Comparison(game, spiel_amazons(6), rule)
    with pytest.raises(OracleMismatch, match=re.escape(caught)):
        for number in range(20):
            comparison.play(random.Random(number))


def test_a_short_game_through_both() -> None:
    """A scripted line played through both engines at size 6: moves, shots and the board
    agree turn by turn (and the amazon may shoot back across the square it left)."""
    game, spiel_game = amazons(6), spiel_amazons(6)
    comparison = Comparison(game, spiel_game, "amazons scripted")
    at = Turn(game.initial_state(), spiel_game.new_initial_state())
    for move, shot in turns_of("b1-b4 b1 / b6-b5 c6 / e1-e4 e1"):
        turns = spiel_turns(at.spiel_state, comparison.names)
        assert move in turns and move in {str(m) for m in at.state.legal_moves()}
        at.state = at.state.play(move)
        for action in turns[move]:
            at.spiel_state.apply_action(action)
        assert shot in {comparison.names[a] for a in at.spiel_state.legal_actions()}
        assert shot in {str(m) for m in at.state.legal_moves()}
        at.state = at.state.play(shot)
        at.spiel_state.apply_action(comparison.cells[shot])
        assert ludeme_rows(at.state, 6) == spiel_rows(at.spiel_state)
        comparison.same_mover(at)
    assert at.state.piece_at("b1") == "Arrow"
