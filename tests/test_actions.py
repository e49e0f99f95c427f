"""Integer actions (interpreter/actions.py): every game's moves as stable numbers 0..size-1."""

from __future__ import annotations

import itertools
import math
import random
from pathlib import Path

import pytest
from adapter_games import ENDLESS, STUCK

from interpreter import GameError, IllegalMoveError, load_game, parse_game
from interpreter.actions import (
    BLOCKS,
    UnknownMoveKind,
    action_space,
    rank,
    unrank,
)
from stdlib.runtime import Move

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted((ROOT / "games").glob("*.game"))

# Two games the adapters must end themselves: one the rules never end (only passes), one that
# gets stuck (the board fills up, the rules go on, the player to move has no move).


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_actions_of_random_games_round_trip(path: Path) -> None:
    """At every position of a few random games: the legal actions are sorted and distinct, one
    per legal move; each decodes to its move, whose notation the space also gives; and the
    numbers do not depend on the order the rules list the moves in."""
    game = load_game(path)
    space = action_space(game)
    rng = random.Random(7)
    for _ in range(2):
        state = game.initial_state()
        for _ in range(60):
            moves = state.legal_moves()
            if state.is_over or not moves:
                break
            actions = state.legal_actions()
            assert actions == sorted(set(actions)) and len(actions) == len(moves)
            assert all(0 <= a < space.size for a in actions)
            assert sorted(space.encode(m) for m in reversed(moves)) == actions
            for a in rng.sample(actions, min(len(actions), 20)):
                move = space.decode(state, a)
                assert space.encode(move) == a
                assert space.notation(a) == str(move)
            state = state.apply_action(rng.choice(actions))


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_the_same_game_and_options_give_the_same_numbers(path: Path) -> None:
    first, second = load_game(path), load_game(path)
    a, b = action_space(first), action_space(second)
    assert repr(a) == repr(b) and a.size == b.size
    state_a, state_b = first.initial_state(), second.initial_state()
    assert state_a.legal_actions() == state_b.legal_actions()
    assert action_space(first) is a  # made once per game


def test_hex_placements_are_site_numbers() -> None:
    hex5 = load_game(ROOT / "games" / "hex.game", size=5)
    space = action_space(hex5)
    assert space.size == 25 and space.kinds == {"place"}
    assert hex5.initial_state().legal_actions() == list(range(25))
    assert space.notation(0) == hex5.sites[0]
    state = hex5.initial_state().apply_action(hex5.sites.index("c3"))
    assert state.piece_at("c3") == "Red"


def test_pie_adds_swap_after_the_placements() -> None:
    hex3 = load_game(ROOT / "games" / "hex.game", size=3, pie=True)
    space = action_space(hex3)
    assert space.size == 10 and space.notation(9) == "swap"
    state = hex3.initial_state().apply_action(4)
    assert 9 in state.legal_actions()
    assert state.apply_action(9).swapped


def test_go_pass_is_the_last_action() -> None:
    go = load_game(ROOT / "games" / "go.game", size=5)
    space = action_space(go)
    assert space.size == 26 and space.notation(25) == "pass"
    assert go.initial_state().legal_actions()[-1] == 25


def test_blocks_keep_the_table_order() -> None:
    """A game's blocks follow BLOCKS: Thruway's exchanges come before its pairs of tiles."""
    thruway = load_game(ROOT / "games" / "thruway.game", size=5)
    space = action_space(thruway)
    assert [b.kind for b in space.blocks] == ["exchange", "multi", "pass", "swap"]
    pairs = math.comb(25, 2)
    assert space.starts == [0, pairs, 2 * pairs, 2 * pairs + 1]
    assert space.size == 2 * pairs + 2
    assert list(BLOCKS)[:6] == ["place", "move", "exchange", "multi", "pass", "swap"]


def test_moves_from_to() -> None:
    clobber = load_game(ROOT / "games" / "clobber.game", columns=4, rows=4)
    space = action_space(clobber)
    assert space.size == 16 * 16
    state = clobber.initial_state()
    move = state.legal_moves()[0]
    a, b = move.sites
    assert space.encode(move) == a * 16 + b


@pytest.mark.parametrize("n,k", [(6, 1), (6, 2), (6, 3), (7, 4)])
def test_rank_numbers_the_sets_of_k_sites_0_to_c_n_k(n: int, k: int) -> None:
    ranks = [rank(c) for c in itertools.combinations(range(n), k)]
    assert sorted(ranks) == list(range(math.comb(n, k)))
    for c in itertools.combinations(range(n), k):
        assert unrank(rank(c), k, n) == c


def test_a_move_of_an_unknown_kind_is_a_clear_error() -> None:
    ttt = load_game(ROOT / "games" / "tictactoe.game")
    space = action_space(ttt)
    promotion = Move("promote", (0, 1), (), ttt.sites)
    with pytest.raises(UnknownMoveKind, match="no integer actions for moves of kind 'promote'"):
        space.encode(promotion)
    assert issubclass(UnknownMoveKind, GameError)
    with pytest.raises(GameError, match="has no move moves"):
        space.encode(Move("move", (0, 1), (), ttt.sites))


def test_illegal_and_out_of_range_actions_are_refused() -> None:
    ttt = load_game(ROOT / "games" / "tictactoe.game")
    state = ttt.initial_state().apply_action(4)
    with pytest.raises(IllegalMoveError, match=r"action 4 \(b2\): b2 is occupied"):
        state.apply_action(4)
    with pytest.raises(IllegalMoveError, match="actions of Tic-Tac-Toe are 0 to 8"):
        state.apply_action(9)
    with pytest.raises(IllegalMoveError, match="an action is an integer"):
        state.apply_action("b2")  # type: ignore[arg-type]
    won = ttt.from_text("X X X\nO O .\n. . .\nmover: O")
    assert won.legal_actions() == []
    with pytest.raises(IllegalMoveError, match="the game is over"):
        won.apply_action(5)


def test_apply_action_leaves_the_state_unchanged() -> None:
    ttt = load_game(ROOT / "games" / "tictactoe.game")
    start = ttt.initial_state()
    after = start.apply_action(0)
    assert start.to_text() != after.to_text()
    assert start.legal_actions() == list(range(9))
    assert after.legal_actions() == list(range(1, 9))


def test_multi_placements_have_a_sub_block_per_group_size() -> None:
    """Groups of 1 then groups of 3 sites: C(16, 1) + C(16, 3) actions, each set by its rank."""
    game = parse_game("""(game "Triples" (players {(player "A") (player "B")}) (board (square 4))
      (play (any-of (place-group 3 by:Orthogonal) (place-group 1)))
      (end (if (full) (draw))))""")
    space = action_space(game)
    assert space.size == 16 + 560 and [b.kind for b in space.blocks] == ["multi"]
    state = game.initial_state()
    for move in state.legal_moves():
        a = space.encode(move)
        expected = rank(move.sites) if len(move.sites) == 1 else 16 + rank(move.sites)
        assert a == expected and space.decode(state, a) is move


def test_a_stuck_position_has_no_legal_actions() -> None:
    state = parse_game(STUCK).initial_state()
    for action in (0, 1, 2, 3):
        state = state.apply_action(action)
    assert not state.is_over and state.legal_actions() == []
    endless = parse_game(ENDLESS)
    assert endless.initial_state().legal_actions() == [0]  # pass, the only block
