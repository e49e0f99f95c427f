"""Kernels of checkers and international draughts against the interpreter, from positions that
exercise one rule each: a jump that goes on, a promotion that ends the sequence, the majority
rule choosing among capture sequences, the flying king's landings, a man crossing the far row
in the middle of a capture, and a sequence that goes on from its landing site while another
piece could capture elsewhere. Each position is checked move by move (every legal move made
both ways, and the boards, the player to move, the decision and the result compared);
tests/test_kernels.py plays whole games."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.game import Game, State
from interpreter.kernel import available, kernel_for, why_interpreted

pytestmark = pytest.mark.skipif(not available(), reason="numba (the kernels extra) is not "
                                "installed: pip install -e '.[kernels]'")

ROOT = Path(__file__).resolve().parent.parent


def _game(name: str, **options: object) -> Game:
    return load_game(str(ROOT / name), **options)


def _agree(game: Game, state: State) -> list[str]:
    """The legal moves of the position, after checking that the kernel lists them and makes
    each of them as the interpreter does."""
    kernel = kernel_for(game)
    assert kernel is not None, why_interpreted(game)
    st = kernel.encode(state)
    legal = sorted(state.legal_actions())
    assert kernel.legal_actions(st) == legal
    for action in legal:
        after = state.apply_action(action)
        made = st.copy()
        kernel.apply(made, action)
        move = game.actions.notation(action)
        assert kernel.board(made) == list(after.board), move
        assert kernel.result(made) == after.result, move
        if after.result is None:
            assert kernel.to_move(made) == after.to_move, move
            assert kernel.turn_step(made) == (after.phase, after.step), move
            assert kernel.legal_actions(made) == sorted(after.legal_actions()), move
    return sorted(str(m) for m in state.legal_moves())


@pytest.mark.parametrize(("name", "options"), [
    ("games/checkers.game", {}), ("games/checkers.game", {"openspiel": True}),
    ("games/checkers.game", {"size": 10}), ("games/international-draughts.game", {})])
def test_the_draughts_games_lower(name: str, options: dict[str, object]) -> None:
    assert why_interpreted(_game(name, **options)) is None


def test_checkers_a_jump_goes_on_from_where_it_lands() -> None:
    game = _game("games/checkers.game")
    state = game.from_text(""". . . . . . . .
. . . . . . . .
. . . w . . . .
. . . . . . . .
. w . . . . . .
b . . . . . . .
. . . . . . . w
. . . . . . . .
mover: Black""")
    assert _agree(game, state) == ["a3-c5"]
    after = state.play("a3-c5")
    assert after.mover == "Black"
    assert _agree(game, after) == ["c5-e7"]
    assert after.play("c5-e7").mover == "White"


def test_checkers_crowning_ends_the_sequence() -> None:
    # b6 jumps c7 onto the far row and becomes a king, which could jump e7 at once: it may
    # not, the crowning ends the move.
    game = _game("games/checkers.game")
    state = game.from_text(""". . . . . . . .
. . w . w . . .
. b . . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . w
b . . . . . . .
mover: Black""")
    assert _agree(game, state) == ["b6-d8"]
    after = state.play("b6-d8")
    assert after.mover == "White"
    assert after.to_text().splitlines()[0] == ". . . B . . . ."
    _agree(game, after)


def _draughts(rows: dict[int, str], mover: str) -> tuple[Game, State]:
    """International draughts with the given rows (10 is the top; the others empty)."""
    game = _game("games/international-draughts.game")
    lines = [rows.get(r, ". . . . . . . . . .") for r in range(10, 0, -1)]
    return game, game.from_text("\n".join([*lines, f"mover: {mover}"]))


def test_draughts_the_majority_rule_chooses_the_longer_sequence() -> None:
    # c3 may take b4 alone, or d4 then f6: only the sequence taking two may be played, and
    # the pieces it jumps stay (as x) until it ends.
    game, state = _draughts({10: "b . . . . . . . . .", 6: ". . . . . b . . . .",
                             4: ". b . b . . . . . .", 3: ". . w . . . . . . ."}, "White")
    assert _agree(game, state) == ["c3-e5"]
    after = state.play("c3-e5")
    assert after.mover == "White" and "x" in after.to_text()
    assert _agree(game, after) == ["e5-g7"]
    done = after.play("e5-g7")
    assert done.mover == "Black" and "x" not in done.to_text()


def test_draughts_sequences_of_equal_worth_are_each_offered() -> None:
    game, state = _draughts({10: "b . . . . . . . . .",
                             4: ". b . b . . . . . .", 3: ". . w . . . . . . ."}, "White")
    assert _agree(game, state) == ["c3-a5", "c3-e5"]


def test_draughts_a_flying_king_lands_on_any_empty_site_beyond() -> None:
    game, state = _draughts({10: ". . . . . . . . . b", 9: "b . . . . . . . . .",
                             4: ". . . b . . . . . .", 1: "W . . . . . . . . ."}, "White")
    assert _agree(game, state) == ["a1-e5", "a1-f6", "a1-g7", "a1-h8", "a1-i9"]


def test_draughts_a_man_crossing_the_far_row_mid_sequence_stays_a_man() -> None:
    game, state = _draughts({9: ". . b . b . . . . .", 8: ". w . . . . . . . .",
                             1: "b . . . . . . . . ."}, "White")
    assert _agree(game, state) == ["b8-d10"]
    middle = state.play("b8-d10")
    assert middle.mover == "White"
    assert middle.to_text().splitlines()[0].split()[3] == "w"
    assert _agree(game, middle) == ["d10-f8"]
    assert middle.play("d10-f8").to_text().splitlines()[2].split()[5] == "w"


def test_draughts_a_sequence_goes_on_though_another_piece_could_capture() -> None:
    # e7 takes f6 and lands on g5, whence it takes h6; j6 could take i5 meanwhile (a
    # capture elsewhere, which must not hide the sequence's own next jump).
    game = _game("games/international-draughts.game")
    state = game.from_text(""". b . b . b . b . b
b . b . b . b . b .
. b . b . b . b . b
b . b . b . . . . .
. . . . . w . w . b
. . . . . . . . w .
. w . w . . . . . .
w . w . w . w . w .
. w . w . w . w . w
w . w . w . w . w .
mover: Black""")
    assert _agree(game, state) == ["e7-g5"]
    after = state.play("e7-g5")
    assert after.mover == "Black"
    assert _agree(game, after) == ["g5-i7"]


@pytest.mark.parametrize("options", [{"openspiel": True}, {"size": 10}])
def test_checkers_options_replay_as_the_interpreter_plays_them(
        options: dict[str, object]) -> None:
    """tests/test_kernels.py plays the file with its default options; these are the others'
    200 random games, compared after every move."""
    from interpreter.kernel.differential import first_difference

    game = _game("games/checkers.game", **options)
    kernel = kernel_for(game)
    assert kernel is not None
    assert [d for s in range(200) if (d := first_difference(game, kernel, s))] == []
