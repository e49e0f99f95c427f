"""Hands in game kernels (interpreter/kernel): pieces in hand are part of the kernel's state.

Counted hands (a supply per role, as in Morris): a placement takes a piece from the hand and
none is listed when the hand is empty; a piece taken off the board goes back to its owner's
hand unless the role has reuse:false, and then a batch of changes (a decision's move, an
automatic step) gives back no more than it puts down. Hands by kind (captures:"hand", as in
shogi): a capture puts the piece in the captor's hand as the kind it demotes to, a drop takes
it out, and the hands are hashed with the board. Positions come from position text, so the
hands go from text to the kernel (Kernel.encode) and back (Kernel.hands, Kernel.held), and
each is compared with what the interpreter makes of the same moves.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import load_game, parse_game
from interpreter.kernel import available, kernel_for, why_interpreted
from interpreter.kernel.layout import HEADER

ROOT = Path(__file__).resolve().parent.parent
MORRIS = (ROOT / "games/ninemensmorris.game").read_text()

pytestmark = pytest.mark.skipif(not available(), reason="numba (the kernels extra) is not "
                                "installed: pip install -e '.[kernels]'")

# White has men on a7 d7 b6 and two in hand (four were taken); Black has just closed the mill
# g7 g4 g1 and takes a man.
TAKING = """
W     W     B
  W   .   .
    . . .
. . .   . . B
    . . .
  .   .   .
.     .     B
mover: Black
decision: 2
turns: 5
in hand White: 2
in hand Black: 6
"""


def _kernel(game):
    kernel = kernel_for(game)
    assert kernel is not None, why_interpreted(game)
    return kernel


def _same(game, kernel, state, st) -> None:
    """The kernel's state says what the interpreter's position says."""
    assert kernel.board(st) == list(state.board)
    assert kernel.hands(st) == tuple(state.hands)
    assert kernel.held(st) == tuple(state.held)
    assert kernel.legal_actions(st) == sorted(state.legal_actions())
    assert kernel.result(st) == state.result


def _play(game, kernel, state, st, *moves: str):
    for move in moves:
        action = next(a for a in state.legal_actions() if game.actions.notation(a) == move)
        state = state.apply_action(action)
        kernel.apply(st, action)
        _same(game, kernel, state, st)
    return state


@pytest.fixture(scope="module")
def morris():
    game = load_game(str(ROOT / "games/ninemensmorris.game"))
    return game, _kernel(game)


def test_hands_from_position_text_go_into_the_kernel_state(morris) -> None:
    game, kernel = morris
    state = game.from_text(TAKING)
    assert state.hands == (2, 6)
    st = kernel.encode(state)
    assert kernel.hands(st) == (2, 6)
    _same(game, kernel, state, st)


def test_a_man_taken_with_reuse_false_does_not_come_back(morris) -> None:
    game, kernel = morris
    state = game.from_text(TAKING)
    st = kernel.encode(state)
    state = _play(game, kernel, state, st, "a7")  # Black takes; White's hand stays at 2
    assert kernel.hands(st) == (2, 6)
    state = _play(game, kernel, state, st, "a4")  # White places one
    assert kernel.hands(st) == (1, 6)


def test_a_man_taken_with_reuse_true_goes_back_to_the_hand() -> None:
    game = parse_game(MORRIS.replace("reuse:false", "reuse:true"), "reuse.game")
    kernel = _kernel(game)
    state = game.from_text(TAKING)
    st = kernel.encode(state)
    _play(game, kernel, state, st, "a7")
    assert kernel.hands(st) == (3, 6)


def test_an_empty_hand_places_nothing(morris) -> None:
    game, kernel = morris
    text = TAKING.replace("decision: 2\n", "").replace("mover: Black", "mover: White") \
        .replace("in hand White: 2", "in hand White: 0")
    state = game.from_text(text)
    st = kernel.encode(state)
    assert kernel.hands(st) == (0, 6)
    _same(game, kernel, state, st)
    notations = [game.actions.notation(a) for a in kernel.legal_actions(st)]
    assert notations and all("-" in n for n in notations)  # moves along lines, no placement


def test_the_clamp_is_per_batch_of_changes_not_per_site(morris) -> None:
    """A man moving from one point to another leaves the hand as it was: clamped site by
    site, the point it leaves would give one back (clamped away) and the point it reaches
    take one, leaving -1."""
    game, kernel = morris
    text = TAKING.replace("decision: 2\n", "").replace("mover: Black", "mover: White") \
        .replace("in hand White: 2", "in hand White: 0")
    state = game.from_text(text)
    st = kernel.encode(state)
    _play(game, kernel, state, st, "b6-b4")
    assert kernel.hands(st) == (0, 6)


def test_a_kernel_that_does_not_clamp_is_found_out(morris) -> None:
    from interpreter.kernel.builder import build
    from interpreter.kernel.differential import first_difference
    from interpreter.kernel.kernel import Kernel

    game, _ = morris
    built = build(game)
    assert "CLAMPS_HANDS = True" in built.source
    built.source = built.source.replace("CLAMPS_HANDS = True", "CLAMPS_HANDS = False")
    built.digest = "noclamp" + built.digest[7:]
    wrong = Kernel(game, built)
    found = [d for s in range(10) if (d := first_difference(game, wrong, s)) is not None]
    assert found and "hands differ" in found[0]


# Hands by kind: the small drop game of tests/test_hands.py, with a win for holding two men.
DROPS = """
(game "Drops"
  (players {(player "White" symbol:"M" piece:"Man" forward:N
                    kinds:{(piece "King" symbol:"K") (piece "Hero" symbol:"H" demotes:"Man")})
            (player "Black" symbol:"m" piece:"Man" forward:S
                    kinds:{(piece "King" symbol:"k") (piece "Hero" symbol:"h" demotes:"Man")})}
           captures:"hand")
  (board (square 4))
  (start (put "White" (sites {"a1" "b1"})) (put "White" (sites {"c1"}) piece:"King")
         (put "Black" (sites {"c4" "d4"})) (put "Black" (sites {"b4"}) piece:"King"))
  (play
    (any-of (step All to:EmptyOrEnemy)
            (drop-from-hand (sites Empty) unless:(in To (sites Row 4)))))
  (end
    (if (repeated times:3) (draw))
    (if (>= (in-hand Mover of:{"Man"}) %d) (win Mover))
    (if (= (count (sites Occupied Next of:{"King"})) 0) (win Mover))))
"""


@pytest.fixture(scope="module")
def drops():
    game = parse_game(DROPS % 3, "drops.game")
    return game, _kernel(game)


def _hash(kernel, st) -> int:
    h = int(st[kernel.sites + HEADER.index("H_HASH")])
    return h + (1 << 64) if h < 0 else h


def test_a_capture_goes_to_the_captors_hand_demoted_and_comes_back_as_a_drop(drops) -> None:
    game, kernel = drops
    state = game.from_text(". k . .\n. . h .\n. M . .\nK . . .\nmover: White\n")
    st = kernel.encode(state)
    _same(game, kernel, state, st)
    state = _play(game, kernel, state, st, "b2-c3")  # takes Black's hero: a man in hand
    assert kernel.held(st) == ((1, 0), (0, 0))
    state = _play(game, kernel, state, st, "b4-b3")
    state = _play(game, kernel, state, st, "M*a3")
    assert kernel.held(st) == ((0, 0), (0, 0))
    assert _hash(kernel, st) == state.zhash


def test_held_pieces_from_position_text(drops) -> None:
    game, kernel = drops
    state = game.from_text(". k . .\n. . . .\n. . . .\nK . . .\nmover: Black\n"
                           "in hand White: M2 K1\nin hand Black: M\n")
    st = kernel.encode(state)
    assert kernel.held(st) == ((2, 1), (1, 0))
    _same(game, kernel, state, st)  # Black may drop its man (not on row 4)
    assert "M*a3" in [game.actions.notation(a) for a in kernel.legal_actions(st)]


def test_in_hand_of_a_kind_ends_the_game() -> None:
    game = parse_game(DROPS % 1, "drops1.game")
    kernel = _kernel(game)
    state = game.from_text(". k . .\n. . h .\n. M . .\nK . . .\nmover: White\n")
    st = kernel.encode(state)
    state = _play(game, kernel, state, st, "b2-c3")
    assert kernel.result(st) == state.result == 0


def test_the_hash_of_board_and_hands_is_the_interpreters_after_every_move(drops) -> None:
    game, kernel = drops
    for seed in range(20):
        state = game.initial_state()
        st = kernel.start.copy()
        for action in kernel.playout_actions(seed, 60):
            state = state.apply_action(action)
            kernel.apply(st, action)
            assert _hash(kernel, st) == state.zhash, (seed, game.actions.notation(action))


def test_drop_games_replay_as_the_interpreter_plays_them(drops) -> None:
    from interpreter.kernel.differential import first_difference

    game, kernel = drops
    assert [d for s in range(150) if (d := first_difference(game, kernel, s))] == []


# Mattock: a turn mines a tile, then (enter To) puts a miner from the hand on it, if the hand
# holds one; the freestyle setup places the miners from the hands, phase by phase.
MATTOCK = str(ROOT / "games/mattock.game")


def test_a_miner_enters_from_the_hand_onto_the_tile_just_mined() -> None:
    game = load_game(MATTOCK, short=True)
    kernel = _kernel(game)
    start = game.initial_state().to_text()
    b9 = game.sites.index("b9")
    for held, after in ((1, 0), (0, 0)):
        state = game.from_text(start.replace("mover: Red", f"mover: Red\nin hand Red: {held}"))
        st = kernel.encode(state)
        assert kernel.hands(st) == (held, 0)
        state = _play(game, kernel, state, st, "b9")
        assert kernel.hands(st) == (after, 0)
        assert game.env.pieces[kernel.board(st)[b9] - 1].name == ("Red" if held else "Tile")


@pytest.mark.parametrize("options", [{"setup": "freestyle"}, {"short": True}],
                         ids=["freestyle", "short"])
def test_mattocks_options_replay_as_the_interpreter_plays_them(options) -> None:
    from interpreter.kernel.differential import first_difference

    game = load_game(MATTOCK, **options)
    kernel = _kernel(game)
    assert [d for s in range(20) if (d := first_difference(game, kernel, s))] == []


# Thruway: a turn paves two tiles at once from the reserve (a hand), replacing at most one
# opponent tile, which goes back to its owner's reserve; (no-restore ...) forbids the next
# move to put back a crossroads dispute the last move broke.
THRUWAY = str(ROOT / "games/thruway.game")
DISPUTE = """
. . . .
. C A .
. A C .
. . . .
mover: Concrete
"""


def test_a_group_takes_as_many_tiles_from_the_reserve_and_a_replaced_one_goes_back() -> None:
    game = load_game(THRUWAY, size=4, pie=False, supply=3)
    kernel = _kernel(game)
    state = game.from_text(DISPUTE)
    st = kernel.encode(state)
    assert kernel.hands(st) == (1, 1)  # 3 each, 2 on the board
    _same(game, kernel, state, st)
    assert not any("," in game.actions.notation(a) for a in kernel.legal_actions(st))
    state = game.from_text(DISPUTE + "reserve Concrete: 2\n")
    st = kernel.encode(state)
    _play(game, kernel, state, st, "a2,b2")  # replaces Asphalt's b2
    assert kernel.hands(st) == (0, 2)


def test_a_broken_dispute_may_not_be_put_back_at_once() -> None:
    game = load_game(THRUWAY, size=4, pie=False)
    kernel = _kernel(game)
    state = game.from_text(DISPUTE)
    st = kernel.encode(state)
    state = _play(game, kernel, state, st, "a2,b2")
    notations = [game.actions.notation(a) for a in kernel.legal_actions(st)]
    assert "b2,b1" not in notations and "a3,a2" in notations
    # The restriction read from position text, and forgotten without it.
    text = state.to_text()
    assert "forbidden: b3=C c3=A b2=A c2=C" in text
    back = next(a for a in range(game.actions.size) if game.actions.notation(a) == "b2,b1")
    for given, allowed in ((text, False), (text.split("forbidden:")[0], True)):
        again = game.from_text(given)
        st = kernel.encode(again)
        _same(game, kernel, again, st)
        assert (back in kernel.legal_actions(st)) == allowed


@pytest.mark.parametrize("options", [{"size": 5}, {"size": 6, "pie": False, "supply": 8}],
                         ids=["size5", "short-supply"])
def test_thruways_options_replay_as_the_interpreter_plays_them(options) -> None:
    from interpreter.kernel.differential import first_difference

    game = load_game(THRUWAY, **options)
    kernel = _kernel(game)
    assert [d for s in range(40) if (d := first_difference(game, kernel, s))] == []


# Shogi: hands by kind with drops restricted by rules of the game file (no pawn on a column
# holding the player's unpromoted pawn, none where a piece could never move, no pawn that
# mates), promotion a player may choose in the zone (forced where the piece would be
# stranded), and captured pieces to the captor's hand unpromoted.
SHOGI = """
. . . . k . . . .
. . . . . . . . .
. . P . . . . . .
. . . . . . P . .
. . . . . . . . .
. . . . t . . . .
. . . . P . . . .
. . . . . . . . .
. . . . K . . . .
mover: Black
in hand Black: P1 N1
"""

# A pawn dropped on a8 checks the king on a9, which cannot take it (the gold on b7 guards
# it), step to b8 (guarded) or b9 (its knight): the drop would mate, so it is no move.
# White's pawn in hand could check Black's king from e2: while asking whether White could
# answer the check, the rule asks whether such a drop mates Black in turn.
DROP_MATE = """
k n . . . . . . .
. . . . . . . . .
. G . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . K . . . .
mover: Black
in hand Black: P1
in hand White: P1
"""


@pytest.fixture(scope="module")
def shogi():
    game = load_game(str(ROOT / "games/shogi.game"))
    return game, _kernel(game)


@pytest.mark.parametrize("mates", [True, False], ids=["guarded", "unguarded"])
def test_shogi_pawn_drop_that_mates_is_no_move(shogi, mates: bool) -> None:
    """The rule's condition asks for the opponent's moves after the drop, whose own pawn
    drops ask for the mover's: the kernel makes that search a function calling itself."""
    game, kernel = shogi
    row7, row6 = ". G . . . . . . .\n", ". . . . . . . . .\n"
    text = DROP_MATE if mates else DROP_MATE.replace(row7 + row6, row6 + row7)  # gold b6
    state = game.from_text(text)
    st = kernel.encode(state)
    _same(game, kernel, state, st)
    moves = {game.actions.notation(a) for a in kernel.legal_actions(st)}
    assert ("P*a8" in moves) is not mates and "P*a7" in moves
    state = _play(game, kernel, state, st, "P*a7")  # not check: White may answer with a drop
    assert "P*e2" in {game.actions.notation(a) for a in kernel.legal_actions(st)}


def test_shogi_drops_promotions_and_captures_to_hand(shogi) -> None:
    game, kernel = shogi
    state = game.from_text(SHOGI)
    st = kernel.encode(state)
    _same(game, kernel, state, st)
    moves = {game.actions.notation(a) for a in kernel.legal_actions(st)}
    assert "P*e5" not in moves and "P*a9" not in moves and "P*a5" in moves  # nifu, stranded
    assert "N*a8" not in moves and "N*a7" in moves  # a knight needs two rows ahead
    assert {"g6-g7", "g6-g7=T"} <= moves  # into the zone: the player chooses
    assert "c7-c8=T" in moves and "c7-c8" in moves
    state = _play(game, kernel, state, st, "e3-e4")  # takes a tokin: a pawn in hand
    assert kernel.held(st)[0][game.env.hand_kinds.names.index("Pawn")] == 2
    state = _play(game, kernel, state, st, "e9-d9", "c7-c8", "d9-e9")
    moves = {game.actions.notation(a) for a in kernel.legal_actions(st)}
    assert "c8-c9=T" in moves and "c8-c9" not in moves  # a pawn on the last row: promoted


def test_shogi_replays_as_the_interpreter_plays_it(shogi) -> None:
    from interpreter.kernel.differential import first_difference

    game, kernel = shogi
    assert [d for s in range(12) if (d := first_difference(game, kernel, s, 150))] == []
