"""Board edges in game kernels (interpreter/kernel): links and walls are part of the kernel's
state.

Each edge of the board's edge sets (stdlib/edges.py) has a value in the kernel's state, as in
State.edges; the lowerings read and set them: TwixT's links laid by (link-all ...) unless a
held link crosses them, chains joined by links for (connected ... via:), Quoridor's walls put
by (place-wall ...) while the player has some left and only where every pawn keeps a path
(has-path), and steps and jumps that walls block. Positions come from position text, so the
edges go from text into the kernel (Kernel.encode) and back (Kernel.edges), and each is
compared with what the interpreter makes of the same moves.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import load_game, parse_game
from interpreter.kernel import available, kernel_for, why_interpreted
from interpreter.kernel.layout import HEADER

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(not available(), reason="numba (the kernels extra) is not "
                                "installed: pip install -e '.[kernels]'")


def _kernel(game):
    kernel = kernel_for(game)
    assert kernel is not None, why_interpreted(game)
    return kernel


def _same(game, kernel, state, st) -> None:
    """The kernel's state says what the interpreter's position says."""
    assert kernel.board(st) == list(state.board)
    assert kernel.edges(st) == tuple(state.edges)
    assert kernel.result(st) == state.result
    assert kernel.legal_actions(st) == sorted(state.legal_actions())


def _play(game, kernel, state, st, move: str):
    """Make the move (in notation) in both; the interpreter's new position."""
    action = next(a for a in state.legal_actions() if game.actions.notation(a) == move)
    kernel.apply(st, action)
    state = state.apply_action(action)
    _same(game, kernel, state, st)
    return state


def _notations(game, kernel, st) -> set[str]:
    return {game.actions.notation(a) for a in kernel.legal_actions(st)}


def _links(game, kernel, st, role: int) -> set[str]:
    """The links the role holds in the kernel's state, as `a-b`."""
    from stdlib.edges import edge_sets

    links = edge_sets(game.env).sets["Link"]
    values = kernel.edges(st)
    return {f"{game.sites[a]}-{game.sites[b]}" for i, (a, b) in enumerate(links.pairs)
            if values[links.first + i] == role + 1}


# TwixT ----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def twixt8():
    game = load_game(ROOT / "games/twixt.game", size=8)
    return game, _kernel(game)


@pytest.fixture(scope="module")
def twixt5():
    game = load_game(ROOT / "games/twixt.game", size=5)
    return game, _kernel(game)


def test_a_peg_is_linked_to_friendly_pegs_a_knight_away(twixt8) -> None:
    game, kernel = twixt8
    state = game.from_text("\n".join([
        "# . . . . . . #", ". . . . . . . .", ". . . . . . . .", ". . . . . . . .",
        ". . . R . . . .", ". . . . . . . .", ". . . . . . . .", "# . . . . . . #",
        "mover: Red"]))
    st = kernel.encode(state)
    _same(game, kernel, state, st)
    state = _play(game, kernel, state, st, "e6")
    assert _links(game, kernel, st, 0) == {"e6-d4"}
    state = _play(game, kernel, state, st, "c6")  # Blue's peg: no friend a knight away
    assert _links(game, kernel, st, 1) == set()


def test_a_link_crossing_a_held_link_is_not_laid(twixt8) -> None:
    game, kernel = twixt8
    # Blue holds c5-e4; Red's link d4-e6 would cross it, d4-e2 would not.
    text = "\n".join([
        "# . . . . . . #", ". . . . . . . .", ". . . . . . . .", ". . B . . . . .",
        ". . . R B . . .", ". . . . . . . .", ". . . . . . . .", "# . . . . . . #",
        "mover: Red", "links Blue: c5-e4"])
    state = game.from_text(text)
    st = kernel.encode(state)
    assert _links(game, kernel, st, 1) == {"c5-e4"}  # read from the text
    _play(game, kernel, state, st, "e6")
    assert _links(game, kernel, st, 0) == set()
    st = kernel.encode(state)
    _play(game, kernel, state, st, "e2")
    assert _links(game, kernel, st, 0) == {"d4-e2"}


def test_a_chain_of_links_joining_the_rows_wins(twixt5) -> None:
    game, kernel = twixt5
    # Red's d3 links to c5 and c1: a chain from the top row to the bottom row.
    state = game.from_text("# . R . #\n. . . . .\n. . . . .\n. . . . .\n# . R . #\n"
                           "mover: Red\n")
    st = kernel.encode(state)
    state = _play(game, kernel, state, st, "d3")
    assert _links(game, kernel, st, 0) == {"c5-d3", "d3-c1"}
    assert kernel.result(st) == state.result == 0
    assert kernel.reason(st) == state.reason == "a completed connection"


def test_pegs_whose_link_is_refused_do_not_win(twixt5) -> None:
    game, kernel = twixt5
    # Blue's c3-e2 crosses d3-c1: Red's d3 is linked to c5 only, and the game goes on.
    state = game.from_text("# . R . #\n. . . . .\n. . B . .\n. . . . B\n# . R . #\n"
                           "mover: Red\nlinks Blue: c3-e2\n")
    st = kernel.encode(state)
    state = _play(game, kernel, state, st, "d3")
    assert _links(game, kernel, st, 0) == {"c5-d3"}
    assert kernel.result(st) is None and state.result is None


# Quoridor -------------------------------------------------------------------------------------


def _rows(pawns: dict[str, str], size: int = 9) -> str:
    return "\n".join(" ".join(pawns.get(f"{'abcdefghi'[c]}{r}", ".") for c in range(size))
                     for r in range(size, 0, -1))


@pytest.fixture(scope="module")
def quoridor():
    game = load_game(ROOT / "games/quoridor.game")
    return game, _kernel(game)


def test_a_wall_that_would_cut_the_last_path_is_not_listed(quoridor) -> None:
    game, kernel = quoridor
    # Black on a1 under the wall a1h can only go east along row 1: b1v would shut it in.
    state = game.from_text(_rows({"e9": "W", "a1": "B"}) + "\nmover: White\nwalls White: a1h\n")
    st = kernel.encode(state)
    _same(game, kernel, state, st)
    legal = _notations(game, kernel, st)
    assert "b1v" not in legal and {"b2v", "c1v"} <= legal
    # Walls overlapping or crossing a1h are not listed either; touching it is allowed.
    assert "a1v" not in legal and "b1h" not in legal and "c1h" in legal


def test_a_player_with_no_walls_left_places_none(quoridor) -> None:
    game, kernel = quoridor
    ten = " ".join(f"{c}{r}h" for c in "ac" for r in range(1, 6))
    for mover, expected in (("White", False), ("Black", True)):
        state = game.from_text(_rows({"e9": "W", "e1": "B"}) + f"\nmover: {mover}\n"
                               f"walls White: {ten}\n")
        st = kernel.encode(state)
        _same(game, kernel, state, st)
        assert ("g5h" in _notations(game, kernel, st)) == expected


def test_walls_are_counted_as_they_are_placed() -> None:
    game = load_game(ROOT / "games/quoridor.game", size=5, walls=2)
    kernel = _kernel(game)
    state = game.initial_state()
    st = kernel.start.copy()
    for move in ("a1h", "d4v", "c2v", "b3h"):  # two walls each
        state = _play(game, kernel, state, st, move)
    assert not any(m.endswith(("h", "v")) for m in _notations(game, kernel, st))
    assert sum(1 for v in kernel.edges(st) if v) == sum(1 for v in state.edges if v) == 12


def test_walls_block_steps_and_turn_a_jump_aside(quoridor) -> None:
    game, kernel = quoridor
    # White on e5 faces Black on e4 with a wall behind Black (d3h, along the north sides of
    # d3 and e3): the straight jump is blocked, White jumps to d4 or f4 instead; e5v (along
    # the east sides of e5 and e6) blocks the step to f5.
    state = game.from_text(_rows({"e5": "W", "e4": "B"}) + "\nmover: White\n"
                           "walls Black: d3h e5v\n")
    st = kernel.encode(state)
    _same(game, kernel, state, st)
    pawn = {m for m in _notations(game, kernel, st) if "-" in m}
    assert pawn == {"e5-e6", "e5-d5", "e5-d4", "e5-f4"}
    state = _play(game, kernel, state, st, "e5-d4")
    assert kernel.board(st)[game.sites.index("d4")] != 0


# Bridges, and the hash ------------------------------------------------------------------------


BRIDGES = (ROOT / "examples/bridges.game").read_text()


def test_a_crossed_bridge_burns_and_blocks_the_way_back() -> None:
    game = load_game(ROOT / "examples/bridges.game", size=3)
    kernel = _kernel(game)
    state = game.initial_state()
    st = kernel.start.copy()
    state = _play(game, kernel, state, st, "a1-b1")
    state = _play(game, kernel, state, st, "c3-c2")
    assert "b1-a1" not in _notations(game, kernel, st)  # the bridge a1-b1 burnt
    assert {"b1-c1", "b1-b2"} <= _notations(game, kernel, st)
    state = _play(game, kernel, state, st, "b1-b2")
    state = _play(game, kernel, state, st, "c2-c1")
    legal = _notations(game, kernel, st)
    assert "b2-b1" not in legal and "b2-a2" in legal


def test_the_hash_of_board_and_edges_is_the_interpreters_after_every_move() -> None:
    # Bridges with a repetition rule, so that its kernel keeps the position's hash.
    text = BRIDGES.replace("(end (if (stuck Next) (win Mover)))",
                           "(end (if (repeated) (draw)) (if (stuck Next) (win Mover)))")
    assert text != BRIDGES
    game = parse_game(text, "bridges-repeated.game")
    kernel = _kernel(game)
    for seed in range(20):
        state = game.initial_state()
        st = kernel.start.copy()
        for action in kernel.playout_actions(seed, 60):
            state = state.apply_action(action)
            kernel.apply(st, action)
            h = int(st[kernel.sites + HEADER.index("H_HASH")])
            assert (h + (1 << 64) if h < 0 else h) == state.zhash, seed
            _same(game, kernel, state, st)


# Variants: the arguments no game file of the collection uses ------------------------------------

VARIANTS = {
    # Links laid even across held links.
    "twixt-crossing": ((ROOT / "games/twixt.game").read_text().replace(
        '(link-all "Link")', '(link-all "Link" crossing:true)'), {"size": 8}),
    # Only a bridge the mover burnt blocks it.
    "bridges-own": (BRIDGES.replace('(edge-held "Bridge" From To)',
                                    '(edge-held "Bridge" From To by:Mover)'), {}),
    # Pawns slide any distance, bridges stopping them as walls.
    "bridges-slide": (BRIDGES.replace('(step Orthogonal unless:(edge-held "Bridge" From To))',
                                      '(slide Orthogonal walls:"Bridge")'), {}),
}


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_variants_replay_as_the_interpreter_plays_them(name: str) -> None:
    from interpreter.kernel.differential import first_difference

    text, options = VARIANTS[name]
    assert text not in ((ROOT / "games/twixt.game").read_text(), BRIDGES)  # the variant took
    game = parse_game(text, f"{name}.game", **options)
    kernel = _kernel(game)
    assert [d for s in range(40) if (d := first_difference(game, kernel, s)) is not None] == []
