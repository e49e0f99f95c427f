"""Kernels of the sowing family (Kalah, Oware, Ayoayo) against the interpreter, from positions
that exercise one rule each: a sowing that laps the pit it came from, a capture by the last
seed, another turn from the store, Oware's grand slam under each option, a pile too big for
one lap passing over its own house, relay sowing, a relay that would go round for ever, and
a sowing past the biggest pile.
Each position is checked move by move (every legal move made both ways, and the boards,
scores, player to move and result compared); tests/test_kernels.py plays whole games."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import load_game, parse_game
from interpreter.game import Game, State
from interpreter.kernel import available, kernel_for, why_interpreted

pytestmark = pytest.mark.skipif(not available(), reason="numba (the kernels extra) is not "
                                "installed: pip install -e '.[kernels]'")

ROOT = Path(__file__).resolve().parent.parent


def _game(name: str, **options: object) -> Game:
    return load_game(str(ROOT / name), **options)


def _agree(game: Game, text: str) -> State:
    """The position read from text, after checking that the kernel lists its legal moves and
    makes each of them as the interpreter does."""
    kernel = kernel_for(game)
    assert kernel is not None, why_interpreted(game)
    state = game.from_text(text)
    st = kernel.encode(state)
    legal = sorted(state.legal_actions())
    assert kernel.legal_actions(st) == legal
    for action in legal:
        after = state.apply_action(action)
        made = st.copy()
        kernel.apply(made, action)
        move = game.actions.notation(action)
        assert kernel.board(made) == list(after.board), move
        assert kernel.scores(made) == list(after.scores or [0] * game.roles), move
        assert kernel.result(made) == after.result, move
        if after.result is None:
            assert kernel.to_move(made) == after.to_move, move
            assert kernel.legal_actions(made) == sorted(after.legal_actions()), move
    return state


@pytest.mark.parametrize(("name", "options"), [
    ("games/kalah.game", {}), ("games/oware.game", {}),
    ("games/oware.game", {"grandslam": "capture"}),
    ("games/oware.game", {"grandslam": "forbidden"}), ("examples/ayoayo.game", {})])
def test_the_sowing_games_lower(name: str, options: dict[str, object]) -> None:
    assert why_interpreted(_game(name, **options)) is None


def test_kalah_a_sowing_that_laps_its_pit_captures_there() -> None:
    # 13 seeds from b1: c1-g1, South's store, North's six pits, past North's store, and the
    # last into b1, emptied when lifted: it takes itself and the seed just sown into b3.
    game = _game("games/kalah.game")
    text = """  . 2 . . . 1
.             .
  13 . . . . 1
mover: South"""
    state = _agree(game, text)
    after = state.play("b1")
    assert after.to_text().splitlines()[:3] == [
        "  . 3 1 1 1 2", ".             3", "  . 1 1 1 1 2"]


def test_kalah_the_last_seed_in_the_store_gives_another_turn() -> None:
    game = _game("games/kalah.game")
    state = _agree(game, """  1 1 1 1 1 1
.             .
  . . . . 2 .
mover: South""")
    assert state.play("f1").mover == "South"


def test_kalah_the_game_ends_when_a_row_is_empty_and_the_fuller_store_wins() -> None:
    game = _game("games/kalah.game")
    state = _agree(game, """  . . . . . 1
10            12
  . . . . . 1
mover: South""")
    assert state.play("g1").winner == "South"  # 13 against 11, North's seed counted


GRAND_SLAM = """. . . . 1 1
1 . . . . 2
mover: South"""


@pytest.mark.parametrize(("option", "taken"), [("no capture", 0), ("capture", 4),
                                                ("forbidden", None)])
def test_oware_grand_slam(option: str, taken: int | None) -> None:
    # f1's two seeds make f2 and e2 hold 2 each: all of North's seeds.
    game = _game("games/oware.game", grandslam=option)
    state = _agree(game, GRAND_SLAM)
    moves = [str(m) for m in state.legal_moves()]
    if taken is None:
        assert moves == ["a1"]
    else:
        assert "f1" in moves
        assert state.play("f1").scores[0] == taken


def test_oware_a_big_pile_passes_over_its_house() -> None:
    game = _game("games/oware.game")
    state = _agree(game, """1 1 2 1 . 1
12 . . . . .
mover: South""")
    after = state.play("a1")
    assert after.board[game.sites.index("a1")] == 0  # passed over, never sown into


def test_a_sowing_past_the_biggest_pile_is_no_move_in_the_kernel() -> None:
    # a1's seed would make b1's 255 (MAX_PILE) 256, which the interpreter refuses with an
    # error (so no position of it can be read): the kernel lists no such move. a1's single
    # seed is put into the encoded state by hand, from a position that has one there.
    game = _game("games/oware.game")
    kernel = kernel_for(game)
    assert kernel is not None
    st = kernel.encode(game.from_text("""2 . . . . .
. 255 . . . .
mover: South"""))
    one = kernel.encode(game.from_text("""2 . . . . .
1 1 . . . .
mover: South"""))
    a1 = game.sites.index("a1")
    st[a1] = one[a1]
    assert [game.actions.notation(a) for a in kernel.legal_actions(st)] == ["b1"]


def test_oware_the_opponent_must_be_given_seeds() -> None:
    game = _game("games/oware.game")
    state = _agree(game, """. . . . . .
3 . . . . 1
mover: South""")
    assert [str(m) for m in state.legal_moves()] == ["f1"]


def test_ayoayo_relay_sowing_ends_in_an_empty_house_and_captures_across() -> None:
    game = _game("examples/ayoayo.game")
    state = _agree(game, """2 2 2 2 2 2
1 3 . . . .
mover: South""")
    after = state.play("a1")  # a1 into b1 (4 seeds, lifted again), c1-f1: f1 takes f2's 2
    assert after.scores[0] == 2


LOOP = """(game "Loop"
  (players {(player "South") (player "North")})
  (pieces {(piece "Seed" symbol:"o" pile:true)})
  (board (mancala %d stores:false))
  (region "Houses" (sites Row 1) owner:"South")
  (region "Houses" (sites Row 2) owner:"North")
  (start (put Neutral (sites Board) count:1))
  (play (sow (sites Named "Houses") origin:false relay:(sites Board)))
  (end (if (stuck Next) (win Mover))))"""


def test_a_relay_that_would_go_round_for_ever_is_no_move() -> None:
    # Two pits of one seed: a1 into a2 (2), lifted: a1 (passing a2) twice, lifted, ... for
    # ever. Three pits a side do end; both ways agree on each.
    endless = parse_game(LOOP % 1, "loop.game")
    state = _agree(endless, endless.initial_state().to_text())
    assert state.legal_moves() == []
    ending = parse_game(LOOP % 3, "loop3.game")
    assert _agree(ending, ending.initial_state().to_text()).legal_moves()
    kernel = kernel_for(ending)
    assert kernel is not None
    games = kernel.playouts(list(range(50)))
    assert set(games.winners) <= {"South", "North", None}


@pytest.mark.parametrize(("name", "options"), [
    ("games/oware.game", {"grandslam": "capture"}),
    ("games/oware.game", {"grandslam": "forbidden"}), ("games/oware.game", {"seeds": 2}),
    ("games/kalah.game", {"seeds": 6})])
def test_options_the_file_tests_skip_replay_as_the_interpreter_plays_them(
        name: str, options: dict[str, object]) -> None:
    """tests/test_kernels.py plays each file with its default options; these are the others'
    200 random games, compared after every move."""
    from interpreter.kernel.differential import first_difference

    game = _game(name, **options)
    kernel = kernel_for(game)
    assert kernel is not None
    assert [d for s in range(200) if (d := first_difference(game, kernel, s))] == []
