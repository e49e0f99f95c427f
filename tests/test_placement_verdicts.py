"""Screens that judge all the placements of a piece at once (stdlib.steps.MoveScreen) say
what trying each placement says: the sites they let through are legal, the sites they refuse
are refused (with the reason trying gives, which is what a refusal asked for names), and the
legal moves are the same when every placement is tried."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.game import _placement_verdicts
from stdlib.connectivity import Surrounded
from stdlib.runtime import EMPTY, Ctx, Move, Placements
from stdlib.steps import MoveScreen

GAMES = Path(__file__).resolve().parent.parent / "games"


@cache
def go(size: int, openspiel: bool):
    return load_game(GAMES / "go.game", size=size, openspiel=openspiel)


def decision_steps(game):
    """The steps after the first decision of the first phase."""
    steps = [step for is_decision, step in game.turns[0][1:] if not is_decision]
    assert steps
    return steps


def positions(game, seeds: range, limit: int = 400):
    for seed in seeds:
        rng = random.Random(seed)
        state = game.initial_state()
        plies = 0
        while not state.is_over and plies < limit:
            yield state
            state = state.play(rng.choice(state.legal_moves()))
            plies += 1


@pytest.mark.parametrize("size, openspiel", [(5, True), (7, False), (9, True)])
def test_placement_verdicts_agree_with_trying_each_placement(size: int,
                                                             openspiel: bool) -> None:
    game = go(size, openspiel)
    after = decision_steps(game)
    sure = refused_sure = tried = 0
    for state in positions(game, range(3)):
        ctx = Ctx(state.board, state.to_move, state, game.env, game.owner)
        ctx.last = state.last
        tests = [step.screen(ctx) for step in after]
        assert all(isinstance(t, MoveScreen) for t in tests)
        value = game.env.piece_of(state.to_move)
        sites = [s for s, v in enumerate(state.board) if v == EMPTY]
        part = Placements(sites, value, game.env.placements(value))
        verdicts = _placement_verdicts(tests, part)  # type: ignore[arg-type]
        assert verdicts is not None
        passes, refused = verdicts
        for s in sites:
            move = part.row[s]
            reason = game._forbidden(ctx, move, after)
            one_by_one = all(t(move) for t in tests)
            assert bool(passes >> s & 1) == one_by_one, (state.to_text(), s)
            if passes >> s & 1:
                assert reason is None, (state.to_text(), s)
                sure += 1
            elif refused >> s & 1:
                assert reason is not None, (state.to_text(), s)
                refused_sure += 1
            else:
                tried += 1
    assert sure > 1000 and refused_sure > 20 and tried > 20


@pytest.mark.parametrize("size, openspiel", [(5, False), (7, True)])
def test_refusals_explained_are_those_of_trying(size: int, openspiel: bool) -> None:
    """A refused placement asked about (why_illegal) is tried: the reason is the step's own."""
    game = go(size, openspiel)
    after = decision_steps(game)
    checked = 0
    for state in positions(game, range(2)):
        explain: dict = {}
        legal = {m.key for m in game.generate(state, explain)}
        ctx = Ctx(state.board, state.to_move, state, game.env, game.owner)
        ctx.last = state.last
        value = game.env.piece_of(state.to_move)
        for s, v in enumerate(state.board):
            if v != EMPTY:
                continue
            move = game.env.placements(value)[s]
            reason = game._forbidden(ctx, move, after)
            assert (move.key in legal) == (reason is None)
            if reason is not None:
                assert explain[move.key] == reason
                assert game.why_illegal(state, move.key) == reason
                checked += 1
    assert checked > 5


@pytest.mark.parametrize("size, openspiel", [(5, False), (9, True)])
def test_legal_moves_are_the_same_when_every_placement_is_tried(
        size: int, openspiel: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the placements' verdicts (each move is screened alone), and without any screen
    (each move is tried): the same legal moves, in the same order."""
    game = go(size, openspiel)
    for state in positions(game, range(2), 200):
        moves = [str(m) for m in state.legal_moves()]
        with monkeypatch.context() as m:
            m.setattr(MoveScreen, "placements", lambda self, value, sites: None)
            assert [str(mv) for mv in game.generate(state, {})] == moves
        with monkeypatch.context() as m:
            for cls in {type(step) for step in decision_steps(game)}:
                m.setattr(cls, "screen", lambda self, ctx: None)
            assert [str(mv) for mv in game.generate(state, {})] == moves


def test_surrounded_placements_agree_with_its_move_test() -> None:
    """On random boards, for either role's pieces and regions: the region's verdicts for all
    placements are its test of each (certainly empty), and the rest certainly not empty."""
    game = go(7, True)
    env = game.env
    regions = [Surrounded(env, lambda ctx, r=r: r, "Adjacent") for r in range(game.roles)]
    pieces = [env.piece_of(r) for r in range(game.roles)]
    rng = random.Random(11)
    for _ in range(300):
        fill = rng.random()
        board = [rng.choice(pieces) if rng.random() < fill else EMPTY
                 for _ in range(len(game.sites))]
        empties = [s for s, v in enumerate(board) if v == EMPTY]
        for region in regions:
            for value in pieces:
                ctx = Ctx(board, 0, None, env, game.owner)
                screen = region.screen(ctx)
                assert isinstance(screen, MoveScreen)
                verdicts = screen.placements(value, empties)
                assert verdicts is not None
                none, some = verdicts
                fresh = region.screen(Ctx(board, 0, None, env, game.owner))
                assert fresh is not None
                for s in empties:
                    move = Move("place", (s,), ((s, value),), ())
                    after = list(board)
                    after[s] = value
                    judged = Ctx(after, 0, None, env, game.owner)
                    judged.last = (s,)
                    empty_after = not region(judged)
                    assert bool(none >> s & 1) == fresh(move) == empty_after
                    assert bool(some >> s & 1) == (not empty_after)
