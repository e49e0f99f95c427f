"""Backgammon against OpenSpiel's `backgammon`, an independent engine, turn by turn.

games/backgammon.game and OpenSpiel's `backgammon` are played in lockstep over random games
(OpenSpiel's legal actions drawn with a seeded `random.Random`, chance outcomes by their
probabilities). At every chance node the outcomes and their probabilities must agree; at
every player's turn the set of whole turns — the sequences of checker moves the mover may
make, in ludeme notation — must equal OpenSpiel's legal actions decoded; after every turn the
boards, bars and borne-off checkers must agree; at the end the winner, and with OpenSpiel's
`full_scoring` the size of the win (1, a gammon 2, a backgammon 3), must agree.

What OpenSpiel plays, read from open_spiel/games/backgammon/backgammon.{h,cc}:

- player 0 (`x`) moves from position 0 up to 23 and bears off past 23; player 1 (`o`) from 23
  down to 0. Position p is ludeme's point 24 - p for both: player 0 is White (24 down to 1),
  player 1 Black (1 up to 24). Both start as the published rules say.
- the first chance node has 30 outcomes (non-doubles, 1/30 each): outcome k gives the dice
  kChanceOutcomeValues[k] ({1,2}, {2,1}, {1,3}, ...) and player 0 starts when k is even.
  In ludeme the opening roll is one die per role, `roll:W,B`: the even outcome {lo, hi} is
  White's high die (roll:hi,lo), the odd one {hi, lo} Black's (roll:lo,hi). Later chance
  nodes have 36 outcomes (ordered dice, 1/36 each); ludeme writes a roll ascending.
- an action is two checker moves: digits (a % 26, a // 26), each a position, 24 the bar or 25
  no move, the first using the high die when a < 676 (else a - 676 and the low die first).
  A double is two actions by the same player, each judged alone: the most dice usable is
  worked out within each pair, where the published rules (and games/backgammon.game, with
  (max-dice ...)) work it out over all four. Only bearing off ties one checker's moves to
  another's, and no game here found a position where the two differ: the turns are compared
  pair by pair, ludeme's first pairs being the first two moves of its whole turns.
- a turn with no legal move is one action (both digits 25), ludeme's turn of no decision.
- the game ends when a player has borne off all 15 (or after 500 turns, which random games
  here never reach); `winloss_scoring` (the default) returns +-1, `full_scoring` +-2 for a
  gammon and +-3 for a backgammon.
"""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from oracle import require_openspiel

from interpreter import load_game
from interpreter.game import Game, State

spiel = require_openspiel("backgammon")

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "games" / "backgammon.game"
BAR, PASS, HALF = 24, 25, 676  # an action's digits for the bar and no move
SPIEL_BAR = 100  # the bar's position in OpenSpiel's board()


def point(pos: int) -> str:
    """OpenSpiel's position as ludeme's point."""
    return str(24 - pos)


def checker_moves(ospiel: Any, action: int) -> list[str]:
    """An OpenSpiel action (at its state) as ludeme moves, in the order made."""
    player = ospiel.current_player()
    dice = [int(ch) for ch in ospiel.to_string().split("Dice: ")[1].split("\n")[0]
            if ch.isdigit()]
    high, low = max(dice), min(dice)
    first_high = action < HALF
    digits = [action % 26, (action % HALF) // 26] if first_high else \
        [(action - HALF) % 26, (action - HALF) // 26]
    nums = [high, low] if first_high else [low, high]
    out = []
    for digit, num in zip(digits, nums, strict=True):
        if digit == PASS:
            continue
        step = num if player == 0 else -num
        start = (-1 if player == 0 else 24) if digit == BAR else digit
        to = start + step
        frm = "bar" if digit == BAR else point(digit)
        out.append(f"{frm}-off" if not 0 <= to <= 23 else f"{frm}-{point(to)}")
    return out


def spiel_turns(ospiel: Any) -> set[tuple[str, ...]]:
    """OpenSpiel's legal actions at a player node, decoded."""
    return {tuple(checker_moves(ospiel, a)) for a in ospiel.legal_actions()}


def ludeme_turns(game: Game, state: State, dice: int) -> set[tuple[str, ...]]:
    """Every sequence of the mover's decisions from `state` until the turn ends or `dice`
    dice are used (a pair of a double, as OpenSpiel judges it), made and unmade in place."""
    if state.is_chance:
        return {()}
    role = state.to_move
    out: set[tuple[str, ...]] = set()
    start = len(state.dice)

    def walk(prefix: tuple[str, ...]) -> None:
        if state.is_over or state.is_chance or state.to_move != role or \
                start - len(state.dice) >= dice:
            out.add(prefix)
            return
        moves = state.legal_moves()
        if not moves:
            out.add(prefix)
            return
        for move in moves:
            made = game.make(state, move)
            walk((*prefix, str(move)))
            game.unmake(state, made)
    walk(())
    return out


def ludeme_board(state: State) -> dict[str, tuple[int, int]]:
    """Each point, bar and role's borne-off count as (owner, count): what OpenSpiel shows."""
    env = state.game.env
    out = {}
    on_board = [0, 0]
    for s, name in enumerate(state.game.sites):
        v = state.board[s]
        owner, n = (env.owner[v], env.count_of[v]) if v else (-1, 0)
        if n:
            on_board[owner] += n
        out[name] = (owner, n) if n else (-1, 0)
    out["off White"] = (0, 15 - on_board[0])
    out["off Black"] = (1, 15 - on_board[1])
    return out


def spiel_board(ospiel: Any) -> dict[str, tuple[int, int]]:
    out: dict[str, tuple[int, int]] = {}
    for pos in range(24):
        x, o = ospiel.board(0, pos), ospiel.board(1, pos)
        assert not (x and o)
        out[point(pos)] = (0, x) if x else (1, o) if o else (-1, 0)
    bars = [ospiel.board(p, SPIEL_BAR) for p in (0, 1)]
    out["barN"] = (0, bars[0]) if bars[0] else (-1, 0)
    out["barS"] = (1, bars[1]) if bars[1] else (-1, 0)
    for p, key in enumerate(("off White", "off Black")):
        out[key] = (p, 15 - bars[p] - sum(ospiel.board(p, pos) for pos in range(24)))
    return out


def roll_of(ospiel: Any, outcome: int) -> str:
    """A chance outcome as ludeme's roll."""
    text = ospiel.action_to_string(spiel.PlayerId.CHANCE, outcome)
    a, b = (int(ch) for ch in text.split("(roll: ")[1][:2])
    if "starts" in text:  # the opening: (a, b) with X (White) starting when a < b
        high, low = max(a, b), min(a, b)
        return f"roll:{high},{low}" if outcome % 2 == 0 else f"roll:{low},{high}"
    return f"roll:{min(a, b)},{max(a, b)}"


SIZE = {"all checkers borne off": 1, "gammon": 2, "backgammon": 3}


def play_both(seed: int, *, max_turns: int = 400) -> int:
    """One random game in lockstep; returns the number of player actions compared."""
    game = load_game(GAME)
    ospiel_game = spiel.load_game("backgammon", {"scoring_type": "full_scoring"})
    ostate = ospiel_game.new_initial_state()
    state = game.initial_state()
    rng = random.Random(seed)
    turns = 0
    history: list[str] = []

    def where() -> str:
        return f"seed {seed}, after {' '.join(history)}\n{state.to_text()}\n{ostate}"

    while not ostate.is_terminal() and turns < max_turns:
        if ostate.is_chance_node():
            assert state.is_chance, where()
            expected: Counter[str] = Counter()
            for outcome, p in ostate.chance_outcomes():
                expected[roll_of(ostate, outcome)] += Fraction(p).limit_denominator(100)
            ours = {str(m): p for m, p in state.chance_outcomes()}
            assert ours == dict(expected), where()
            outcomes = ostate.chance_outcomes()
            outcome = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
            roll = roll_of(ostate, outcome)
            ostate.apply_action(outcome)
            state = state.play(roll)
            history.append(roll)
            continue
        # A turn without a legal move is no decision in ludeme: the next roll follows at once.
        assert state.is_chance or state.mover == game.players[ostate.current_player()], where()
        expected_turns = spiel_turns(ostate)
        assert ludeme_turns(game, state, 2) == expected_turns, where()
        action = rng.choice(ostate.legal_actions())
        chosen = checker_moves(ostate, action)
        ostate.apply_action(action)
        for move in chosen:
            state = state.play(move)
        history.append(" ".join(chosen) or "(no move)")
        turns += 1
        if not ostate.is_chance_node() and not ostate.is_terminal():
            continue  # the second pair of a double: the same player moves on
        assert ludeme_board(state) == spiel_board(ostate), where()
    if ostate.is_terminal():
        assert state.is_over, where()
        returns = ostate.returns()
        winner = 0 if returns[0] > 0 else 1
        assert state.winner == game.players[winner], where()
        assert SIZE[state.outcome.reason] == abs(returns[0]), where()  # type: ignore[union-attr]
    return turns


@pytest.mark.parametrize("seed", range(4))
def test_random_games_agree_turn_by_turn(seed: int) -> None:
    assert play_both(seed) > 0


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(4, 40))
def test_more_random_games_agree(seed: int) -> None:
    assert play_both(seed) > 0
