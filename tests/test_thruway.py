"""Thruway, tested from its rules (docs/rules/thruway.md) with hand-built positions.

Positions are written as the contract's position text (top row first, `a1` bottom-left). The
expected values are worked out by hand from the rules; where it helps, an independent checker in
this file (indestructible tiles + breadth-first search) double-checks a position.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from textwrap import dedent

import pytest
from refusals import illegal

from interpreter import GameError, IllegalMoveError, load_game

GAMES = Path(__file__).resolve().parent.parent / "games"
PLAYERS = ("Concrete", "Asphalt")
SYMBOL = {"Concrete": "C", "Asphalt": "A"}


@cache
def thruway(**options: object):
    return load_game(GAMES / "thruway.game", **options)


def pos(text: str) -> str:
    return dedent(text).strip("\n") + "\n"


def moves(state) -> set[str]:
    return {str(m) for m in state.legal_moves()}


def move_sets(state, sep: str) -> set[frozenset[str]]:
    """The legal moves written with `sep` (',' for paving, '<>' for swaps), each as the set of
    its sites, so the order the notation prints them in does not matter."""
    return {frozenset(str(m).split(sep)) for m in state.legal_moves() if sep in str(m)}


def board(state) -> dict[str, str]:
    """{site: symbol} read from the position text."""
    game = state.game
    cells: list[str] = []
    for line in state.to_text().splitlines():
        if ":" in line:
            break
        cells.extend(line.split())
    assert len(cells) == len(game.sites)
    return dict(zip(game.sites, cells, strict=True))


def keys(state) -> dict[str, str]:
    out = {}
    for line in state.to_text().splitlines():
        if ":" in line:
            k, _, v = line.partition(":")
            out[k.strip()] = v.strip()
    return out


def count(state, role: str) -> int:
    return sum(1 for v in board(state).values() if v == SYMBOL[role])


def check_supply(state, supply: int = 60) -> None:
    for role in PLAYERS:
        assert state.in_hand(role) + count(state, role) == supply, (role, state.to_text())


def roundtrip(state) -> None:
    text = state.to_text()
    again = state.game.from_text(text)
    assert again.to_text() == text
    assert moves(again) == moves(state)
    assert again.is_over == state.is_over and again.winner == state.winner


# --- an independent checker: indestructible tiles and thruways ------------------------------------

def grid(text: str) -> list[list[str]]:
    rows = []
    for line in text.splitlines():
        if not line.strip():
            continue
        if ":" in line:
            break
        rows.append(line.split())
    return rows


def disputes(g: list[list[str]]) -> list[set[tuple[int, int]]]:
    """Every 2x2 square (as (row, col) cells) with one colour on each diagonal."""
    n = len(g)
    out = []
    for r in range(n - 1):
        for c in range(n - 1):
            tl, tr, bl, br = g[r][c], g[r][c + 1], g[r + 1][c], g[r + 1][c + 1]
            if "." not in (tl, tr, bl, br) and tl == br and tr == bl and tl != tr:
                out.append({(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)})
    return out


def indestructible(g: list[list[str]]) -> set[tuple[int, int]]:
    n = len(g)
    in_dispute = set().union(*disputes(g))
    out = set()
    for r in range(n):
        for c in range(n):
            if g[r][c] == "." or (r, c) in in_dispute:
                continue
            if all(g[rr][cc] != "." for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                   if 0 <= rr < n and 0 <= cc < n):
                out.add((r, c))
    return out


def has_thruway(text: str, role: str) -> bool:
    g = grid(text)
    n = len(g)
    solid = {rc for rc in indestructible(g) if g[rc[0]][rc[1]] == SYMBOL[role]}
    if role == "Concrete":  # west to east
        start = [rc for rc in solid if rc[1] == 0]
        goal = {rc for rc in solid if rc[1] == n - 1}
    else:  # north to south
        start = [rc for rc in solid if rc[0] == 0]
        goal = {rc for rc in solid if rc[0] == n - 1}
    seen = set(start)
    todo = list(start)
    while todo:
        r, c = todo.pop()
        if (r, c) in goal:
            return True
        for nxt in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if nxt in solid and nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return False


# =============================================================================================
# The game and its defaults
# =============================================================================================

ASPHALT_WINS = pos("""
    A A C . . . A A C . .
    C A C . . . A A C . .
    C A C . . C C A C . .
    C A C A . A C A C . .
    A A A C A A A A C C .
    C C C C C C C A C A .
    A A C A A C A A C . .
    A C . A . C A C . . .
    . . . . . C A A A . .
    . . . . . C C A C C .
    . . . . . . C A C A .
    mover: Concrete
""")


def test_roles_options_and_start():
    game = thruway()
    assert game.players == PLAYERS
    assert game.options["size"] == 11
    assert game.options["supply"] == 60
    assert game.options["pie"] is True
    assert len(game.sites) == 121
    state = game.initial_state()
    assert state.mover == "Concrete"
    assert not state.is_over
    assert state.in_hand("Concrete") == 60 and state.in_hand("Asphalt") == 60
    assert set(board(state).values()) == {"."}
    assert "reserve" not in state.to_text()  # the default (supply minus tiles) is left out


def test_example_asphalt_wins():
    game = thruway()
    state = game.from_text(ASPHALT_WINS)
    assert state.is_over
    assert state.winner == "Asphalt"
    assert state.mover is None
    assert state.legal_moves() == []
    # The independent checker agrees with the rules doc's commentary.
    assert has_thruway(ASPHALT_WINS, "Asphalt")
    assert not has_thruway(ASPHALT_WINS, "Concrete")
    # The dispute in columns c-d, rows 7-8, is there and does not touch column h.
    g = grid(ASPHALT_WINS)
    found = disputes(g)
    assert {(3, 2), (3, 3), (4, 2), (4, 3)} in found  # c8 d8 / c7 d7
    with pytest.raises(IllegalMoveError):
        state.play("j1,k1")


def test_example_without_the_winning_road_tile_is_not_won():
    # Empty h11 (the top of Asphalt's road): h10 then has an empty neighbour, the road no longer
    # reaches the north edge through indestructible tiles (g11, h11's neighbour, also fails).
    rows = ASPHALT_WINS.splitlines()
    top = rows[0].split()
    top[7] = "."
    text = "\n".join([" ".join(top), *rows[1:]]) + "\n"
    assert not has_thruway(text, "Asphalt")
    state = thruway().from_text(text)
    assert not state.is_over
    assert state.mover == "Concrete"


def test_initial_moves_are_every_domino():
    game = thruway(size=4)
    state = game.initial_state()
    expected = set()
    cols, rows = "abcd", range(1, 5)
    for ci, c in enumerate(cols):
        for r in rows:
            if ci + 1 < 4:
                expected.add(frozenset({f"{c}{r}", f"{cols[ci + 1]}{r}"}))
            if r + 1 <= 4:
                expected.add(frozenset({f"{c}{r}", f"{c}{r + 1}"}))
    assert len(expected) == 24
    assert move_sets(state, ",") == expected
    assert moves(state) == {m for m in moves(state) if "," in m}  # no pass, no swap, nothing else


# =============================================================================================
# Paving
# =============================================================================================

@pytest.mark.parametrize("move", ["c3,c4", "c4,c3", " c3 , c4 "])
def test_pave_two_orthogonally_adjacent_empty_cells(move):
    state = thruway(size=5).initial_state()
    after = state.play(move)
    b = board(after)
    assert b["c3"] == "C" and b["c4"] == "C"
    assert sum(1 for v in b.values() if v != ".") == 2
    assert after.mover == "Asphalt"
    assert after.in_hand("Concrete") == 58
    assert after.in_hand("Asphalt") == 60
    check_supply(after)
    # The original state is untouched.
    assert set(board(state).values()) == {"."}
    assert state.in_hand("Concrete") == 60


def test_pave_horizontal_and_then_asphalt_paves():
    state = thruway(size=5).initial_state().play("b2,c2").play("d4,e4")
    b = board(state)
    assert (b["b2"], b["c2"], b["d4"], b["e4"]) == ("C", "C", "A", "A")
    assert state.mover == "Concrete"
    assert state.in_hand("Asphalt") == 58 and state.in_hand("Concrete") == 58
    check_supply(state)


@pytest.mark.parametrize("move", [
    "c3,d4",      # diagonal
    "d4,c3",      # diagonal, other order
    "b2,c1",      # diagonal
    "c3,c5",      # same column, not adjacent
    "a1,e1",      # same row, not adjacent
    "c3",         # a single tile
    "c3,c4,c5",   # three tiles
])
def test_pave_refuses_anything_but_an_adjacent_pair(move):
    state = thruway(size=5).initial_state()
    illegal(state, move)


@pytest.mark.parametrize("move", ["c3,c3", "c3,z9", "c3,", "c3<>c4", "c3-c4", "hello"])
def test_malformed_or_impossible_moves_raise_game_errors(move):
    state = thruway(size=5).initial_state()
    with pytest.raises(GameError):
        state.play(move)


def test_pave_onto_an_occupied_pair_is_refused():
    game = thruway(size=5)
    state = game.from_text(pos("""
        . . . . .
        . . C . .
        . . C . .
        . . . . .
        . . . . .
        mover: Concrete
    """))
    illegal(state, "c3,c4")  # two own tiles
    illegal(state, "c2,c3")  # own tile + empty: replacing your own tile is not allowed
    illegal(state, "c4,c5")
    assert frozenset({"c2", "c1"}) in move_sets(state, ",")


# =============================================================================================
# Paving with replacement
# =============================================================================================

ONE_ASPHALT = pos("""
    . . . . .
    . . . . .
    . . A . .
    . . . . .
    . . . . .
    mover: Concrete
""")


@pytest.mark.parametrize("move", ["c3,c4", "c4,c3"])
def test_pave_with_replacement_returns_the_tile_to_its_owner(move):
    state = thruway(size=5).from_text(ONE_ASPHALT)
    assert state.in_hand("Asphalt") == 59
    assert state.in_hand("Concrete") == 60
    check_supply(state)
    after = state.play(move)
    b = board(after)
    assert b["c3"] == "C" and b["c4"] == "C"
    assert "A" not in b.values()
    assert after.in_hand("Asphalt") == 60  # the replaced tile is back in Asphalt's reserve
    assert after.in_hand("Concrete") == 58
    check_supply(after)
    assert after.mover == "Asphalt"
    # unchanged original
    assert board(state)["c3"] == "A" and state.in_hand("Asphalt") == 59


def test_every_replacement_of_a_lone_tile_is_offered():
    state = thruway(size=5).from_text(ONE_ASPHALT)
    with_c3 = {m for m in move_sets(state, ",") if "c3" in m}
    assert with_c3 == {frozenset({"c3", x}) for x in ("c4", "c2", "b3", "d3")}


def test_replacement_by_asphalt_of_a_concrete_tile():
    state = thruway(size=5).initial_state().play("c3,d3")
    after = state.play("d3,d2")  # d3 holds Concrete, d2 is empty
    b = board(after)
    assert (b["c3"], b["d3"], b["d2"]) == ("C", "A", "A")
    assert after.in_hand("Concrete") == 59
    assert after.in_hand("Asphalt") == 58
    check_supply(after)


def test_two_opponent_tiles_cannot_both_be_replaced():
    state = thruway(size=5).from_text(pos("""
        . . . . .
        . . A . .
        . . A . .
        . . . . .
        . . . . .
        mover: Concrete
    """))
    illegal(state, "c3,c4")
    illegal(state, "c4,c3")
    # Each of them alone, with an empty cell, is fine.
    assert frozenset({"c3", "c2"}) in move_sets(state, ",")
    assert frozenset({"c4", "c5"}) in move_sets(state, ",")


def test_replacing_one_opponent_tile_next_to_your_own_is_refused():
    state = thruway(size=5).from_text(pos("""
        . . . . .
        . . . . .
        . . A C .
        . . . . .
        . . . . .
        mover: Concrete
    """))
    illegal(state, "c3,d3")  # one opponent tile, one own tile: not an empty cell


# =============================================================================================
# Short reserves and passing
# =============================================================================================

def test_fewer_than_two_tiles_in_reserve_means_pass():
    state = thruway(size=5).from_text(pos("""
        . . . . .
        . C C . .
        . A A . .
        . . . . .
        . . . . .
        mover: Concrete
        reserve Concrete: 1
    """))
    assert state.in_hand("Concrete") == 1
    assert state.in_hand("Asphalt") == 58
    assert moves(state) == {"pass"}
    assert "reserve Concrete: 1" in state.to_text()
    roundtrip(state)
    illegal(state, "a1,a2")
    illegal(state, "b3,b2")  # a replacement also needs two tiles
    after = state.play("pass")
    assert after.mover == "Asphalt"
    assert not after.is_over
    assert board(after) == board(state)
    assert after.in_hand("Concrete") == 1
    assert "pass" not in moves(after)  # Asphalt can pave
    roundtrip(after)


def test_two_tiles_in_reserve_is_enough_to_pave():
    state = thruway(size=5).from_text(pos("""
        . . . . .
        . C C . .
        . A A . .
        . . . . .
        . . . . .
        mover: Concrete
        reserve Concrete: 2
    """))
    assert "pass" not in moves(state)
    after = state.play("a1,b1")
    assert after.in_hand("Concrete") == 0
    assert moves(after.play("e1,e2")) == {"pass"}


DISPUTE_6 = """
    . . . . . .
    . . . . C A
    . . . . A C
    . . . . . .
    . . . . . .
    . . . . . .
    mover: Concrete
"""

EDGES = {frozenset({"e5", "f5"}), frozenset({"e4", "f4"}), frozenset({"e5", "e4"}),
         frozenset({"f5", "f4"})}


def test_short_reserve_can_only_swap():
    state = thruway(size=6).from_text(pos(DISPUTE_6) + "reserve Concrete: 1\n")
    assert "pass" not in moves(state)
    assert move_sets(state, ",") == set()
    assert move_sets(state, "<>") == EDGES
    illegal(state, "pass")


def test_passing_is_refused_while_there_is_a_move():
    state = thruway(size=5).initial_state()
    message = illegal(state, "pass")
    assert "pass" in message
    state = state.play("c3,c4")
    illegal(state, "pass")


def test_a_player_with_no_legal_action_passes_even_with_a_full_reserve():
    # Every empty cell is walled in by Concrete: no two adjacent empties, no Asphalt tile next to
    # an empty cell, no dispute. Concrete must pass; Asphalt can replace.
    state = thruway(size=4).from_text(pos("""
        C . C C
        C C C .
        C C C C
        A A A A
        mover: Concrete
    """))
    assert not state.is_over
    assert state.in_hand("Concrete") == 60 - 10
    assert moves(state) == {"pass"}
    after = state.play("pass")
    assert after.mover == "Asphalt"
    assert not after.is_over
    assert frozenset({"b4", "b3"}) in move_sets(after, ",")
    assert "pass" not in moves(after)


# =============================================================================================
# The draw after two passes
# =============================================================================================

BOTH_SHORT = pos("""
    C C . .
    A A . .
    . . . .
    . . . .
    mover: Concrete
    reserve Concrete: 1
    reserve Asphalt: 0
""")


def test_two_passes_in_succession_draw():
    # pie=False keeps this test about passing alone (the pie has its own tests below).
    game = thruway(size=4, pie=False)
    state = game.from_text(BOTH_SHORT)
    assert moves(state) == {"pass"}
    once = state.play("pass")
    assert not once.is_over
    assert once.mover == "Asphalt"
    assert moves(once) == {"pass"}
    roundtrip(once)  # the pending pass survives the text
    twice = once.play("pass")
    assert twice.is_over
    assert twice.winner is None
    assert twice.mover is None
    assert twice.legal_moves() == []
    with pytest.raises(IllegalMoveError):
        twice.play("pass")
    # ... and from the text of the position after one pass, too.
    again = game.from_text(once.to_text()).play("pass")
    assert again.is_over and again.winner is None


def test_a_pass_then_a_move_does_not_draw():
    state = thruway(size=4).from_text(pos("""
        C C . .
        A A . .
        . . . .
        . . . .
        mover: Concrete
        reserve Concrete: 1
    """))
    state = state.play("pass").play("a1,b1")
    assert not state.is_over
    assert moves(state) == {"pass"}
    state = state.play("pass")
    assert not state.is_over
    assert state.mover == "Asphalt"
    state = state.play("c1,d1")
    assert not state.is_over


# =============================================================================================
# Swaps along the edges of a dispute
# =============================================================================================

@pytest.mark.parametrize("move, after", [
    ("e5<>f5", {"e5": "A", "f5": "C", "e4": "A", "f4": "C"}),
    ("f5<>e5", {"e5": "A", "f5": "C", "e4": "A", "f4": "C"}),
    ("e4<>f4", {"e5": "C", "f5": "A", "e4": "C", "f4": "A"}),
    ("f4<>e4", {"e5": "C", "f5": "A", "e4": "C", "f4": "A"}),
    ("e5<>e4", {"e5": "A", "f5": "A", "e4": "C", "f4": "C"}),
    ("e4<>e5", {"e5": "A", "f5": "A", "e4": "C", "f4": "C"}),
    ("f5<>f4", {"e5": "C", "f5": "C", "e4": "A", "f4": "A"}),
    ("f4<>f5", {"e5": "C", "f5": "C", "e4": "A", "f4": "A"}),
])
def test_swap_each_edge_of_a_dispute(move, after):
    state = thruway(size=6).from_text(pos(DISPUTE_6))
    assert move_sets(state, "<>") == EDGES
    new = state.play(move)
    b = board(new)
    assert {s: b[s] for s in after} == after
    assert sum(1 for v in b.values() if v != ".") == 4
    assert new.mover == "Asphalt"
    # A swap is the whole turn and uses no tiles.
    assert new.in_hand("Concrete") == state.in_hand("Concrete") == 58
    assert new.in_hand("Asphalt") == state.in_hand("Asphalt") == 58
    # It resolves the dispute: no swap is left for Asphalt.
    assert move_sets(new, "<>") == set()
    assert not disputes(grid(new.to_text()))


def test_asphalt_may_swap_a_dispute_too():
    state = thruway(size=6).from_text(pos(DISPUTE_6.replace("Concrete", "Asphalt")))
    assert move_sets(state, "<>") == EDGES
    b = board(state.play("e5<>e4"))
    assert (b["e5"], b["f5"], b["e4"], b["f4"]) == ("A", "A", "C", "C")


@pytest.mark.parametrize("move", [
    "d5<>e5",   # different colours, adjacent, but d5 is on no dispute with e5
    "e5<>d5",
    "a1<>b1",   # different colours, adjacent, no dispute anywhere near
    "e5<>f4",   # diagonal of the dispute
    "f5<>e4",   # the other diagonal
    "e4<>e3",   # a tile of the dispute and an empty cell
    "e5<>e5",   # the same site
])
def test_swap_refused_off_the_edges_of_a_dispute(move):
    state = thruway(size=6).from_text(pos("""
        . . . . . .
        . . . A C A
        . . . . A C
        . . . . . .
        . . . . . .
        C A . . . .
        mover: Concrete
    """))
    assert move_sets(state, "<>") == EDGES
    with pytest.raises(IllegalMoveError) as info:
        state.play(move)
    assert move.split("<>")[0] in str(info.value)


# =============================================================================================
# No immediate recreation
# =============================================================================================

# Q1 = e5 f5 / e4 f4 is a dispute. Swapping e5<>f5 resolves it and makes Q2 = e6 f6 / e5 f5 a
# dispute, so swapping e5 and f5 back would be an ordinary swap on an edge of Q2 - but it would
# give Q1 back exactly its old contents.
BAN = pos("""
    . . . . C A
    . . . . C A
    . . . . A C
    . . . . . .
    . . . . . .
    . . . . . .
    mover: Concrete
""")
Q1_OLD = ("e5=C", "f5=A", "e4=A", "f4=C")


def test_swap_creating_a_dispute_above():
    state = thruway(size=6).from_text(BAN)
    assert move_sets(state, "<>") == EDGES  # Q2 is no dispute yet (two columns)
    after = state.play("e5<>f5")
    assert move_sets(after, "<>") == {frozenset({"e6", "f6"}), frozenset({"e5", "f5"}),
                                      frozenset({"e6", "e5"}), frozenset({"f6", "f5"})} - \
        {frozenset({"e5", "f5"})}  # the swap back is forbidden this turn


@pytest.mark.parametrize("back", ["e5<>f5", "f5<>e5"])
def test_immediate_swap_back_is_forbidden(back):
    state = thruway(size=6).from_text(BAN).play("e5<>f5")
    assert state.mover == "Asphalt"
    message = illegal(state, back)
    assert "recreat" in message or "restore" in message, message
    # Resolving the other dispute (Q2) some other way is allowed.
    for other in ("e6<>f6", "e6<>e5", "f6<>f5"):
        state.play(other)


def test_forbidden_key_is_written_and_round_trips():
    state = thruway(size=6).from_text(BAN).play("e5<>f5")
    k = keys(state)
    assert "forbidden" in k
    assert set(k["forbidden"].split()) == set(Q1_OLD)
    text = state.to_text()
    again = thruway(size=6).from_text(text)
    assert again.to_text() == text
    illegal(again, "e5<>f5")
    assert moves(again) == moves(state)
    # Once a move is made that resolves nothing, the restriction is gone.
    later = state.play("a1,a2")
    assert "forbidden" not in keys(later)


def test_hand_written_forbidden_key():
    after_swap = pos("""
        . . . . C A
        . . . . A C
        . . . . A C
        . . . . . .
        . . . . . .
        . . . . . .
        mover: Asphalt
    """)
    free = thruway(size=6).from_text(after_swap)
    assert frozenset({"e5", "f5"}) in move_sets(free, "<>")  # nothing forbidden without the key
    banned = thruway(size=6).from_text(after_swap + "forbidden: e5=C f5=A e4=A f4=C\n")
    illegal(banned, "e5<>f5")
    # the order the cells are written in does not matter
    banned2 = thruway(size=6).from_text(after_swap + "forbidden: f4=C e4=A f5=A e5=C\n")
    illegal(banned2, "f5<>e5")
    assert moves(banned2) == moves(banned)


@pytest.mark.parametrize("value", ["e5=X", "e5", "z9=C", "e5:C f5=A"])
def test_bad_forbidden_key_is_a_game_error(value):
    with pytest.raises(GameError):
        thruway(size=6).from_text(pos(BAN) + f"forbidden: {value}\n")


def test_a_turn_later_the_restoration_is_legal_again():
    state = thruway(size=6).from_text(BAN).play("e5<>f5")
    state = state.play("a1,a2")  # Asphalt, elsewhere
    assert "forbidden" not in keys(state)
    state = state.play("c1,c2")  # Concrete, elsewhere
    assert state.mover == "Asphalt"
    back = state.play("f5<>e5")
    b = board(back)
    assert (b["e5"], b["f5"], b["e4"], b["f4"]) == ("C", "A", "A", "C")  # Q1 is back
    # and now Q2 (e6 f6 / e5 f5) has been resolved: Concrete may not recreate it at once.
    assert set(keys(back)["forbidden"].split()) == {"e6=C", "f6=A", "e5=A", "f5=C"}
    illegal(back, "e5<>f5")


def test_one_swap_resolving_two_disputes_forbids_both():
    state = thruway(size=6).from_text(pos("""
        . . . . . .
        . . . . A C
        . . . . C A
        . . . . A C
        . . . . . .
        . . . . . .
        mover: Concrete
    """))
    after = state.play("e4<>f4")
    b = board(after)
    assert [b[s] for s in ("e5", "e4", "e3")] == ["A", "A", "A"]
    assert [b[s] for s in ("f5", "f4", "f3")] == ["C", "C", "C"]
    assert not disputes(grid(after.to_text()))
    windows = [set(w.split()) for w in keys(after)["forbidden"].split(";")]
    assert sorted(map(sorted, windows)) == sorted(map(sorted, [
        {"e5=A", "f5=C", "e4=C", "f4=A"}, {"e4=C", "f4=A", "e3=A", "f3=C"}]))
    roundtrip(after)


REPLACE = pos("""
    . . . . . .
    . . . . C A
    . . . . A C
    . . . . . .
    . . . . . .
    . . . . . .
    mover: Concrete
""")


def test_replacement_that_resolves_a_dispute_triggers_the_ban():
    state = thruway(size=6).from_text(REPLACE)
    # Concrete replaces e4 (Asphalt) and paves d4: Q1 becomes C A / C C, resolved.
    after = state.play("d4,e4")
    b = board(after)
    assert (b["e5"], b["f5"], b["e4"], b["f4"], b["d4"]) == ("C", "A", "C", "C", "C")
    assert after.in_hand("Asphalt") == 59
    check_supply(after)
    assert set(keys(after)["forbidden"].split()) == set(Q1_OLD)
    # Asphalt replacing e4 again (with e3) would give Q1 its old contents back.
    message = illegal(after, "e4,e3")
    assert "recreat" in message or "restore" in message, message
    illegal(after, "e3,e4")
    # Other replacements of the same tile are fine when they leave Q1 different... there are
    # none (e4's only empty neighbour is e3), but Asphalt can replace f4 with f3: Q1 becomes
    # C A / C A, not its old contents.
    ok = after.play("f4,f3")
    assert board(ok)["f4"] == "A"
    roundtrip(after)
    # A turn later the same replacement is legal.
    later = after.play("a1,a2").play("a6,b6")
    assert later.mover == "Asphalt"
    restored = later.play("e4,e3")
    b = board(restored)
    assert (b["e5"], b["f5"], b["e4"], b["f4"]) == ("C", "A", "A", "C")
    check_supply(restored)


def test_swap_is_not_a_recreation_of_a_square_it_did_not_resolve():
    # Concrete's pave far away resolves nothing: no forbidden key, every swap remains.
    state = thruway(size=6).from_text(REPLACE).play("a1,b1")
    assert "forbidden" not in keys(state)
    assert move_sets(state, "<>") == EDGES


# =============================================================================================
# Indestructible tiles and thruways
# =============================================================================================

# Asphalt's road: b5 b4 b3 c3 c2 c1 (it turns at b3 and c3). West of it, Concrete; the road
# blocks any Concrete west-east chain. Every road tile has all its neighbours filled except b5,
# whose east neighbour c5 is empty. No dispute anywhere.
ROAD = pos("""
    C A . . .
    C A A A .
    C A A C .
    . C A C .
    . C A C .
    mover: Concrete
""")


def test_road_position_is_not_won_yet():
    assert not has_thruway(ROAD, "Asphalt")
    assert not has_thruway(ROAD, "Concrete")
    state = thruway(size=5).from_text(ROAD)
    assert not state.is_over
    assert state.mover == "Concrete"


def test_a_move_that_completes_the_opponents_thruway_loses():
    state = thruway(size=5).from_text(ROAD)
    after = state.play("c5,d5")  # Concrete fills b5's last empty neighbour
    assert has_thruway(after.to_text(), "Asphalt")
    assert not has_thruway(after.to_text(), "Concrete")
    assert after.is_over
    assert after.winner == "Asphalt"
    assert after.mover is None


def test_a_dispute_forming_next_to_the_road_makes_it_destructible():
    state = thruway(size=5).from_text(ROAD)
    # Concrete replaces c4 (Asphalt) and paves c5: b5 is now surrounded, but c4 d4 / c3 d3 reads
    # C A / A C - a dispute that includes c3, a road tile that was indestructible a move ago.
    after = state.play("c4,c5")
    g = grid(after.to_text())
    assert {(1, 2), (1, 3), (2, 2), (2, 3)} in disputes(g)
    assert (2, 2) not in indestructible(g)
    assert (2, 2) in indestructible(grid(ROAD))
    assert not has_thruway(after.to_text(), "Asphalt")
    assert not after.is_over
    assert after.mover == "Asphalt"
    assert after.in_hand("Asphalt") == 60 - 8 + 1
    # Asphalt swaps c4<>d4: c4 is Asphalt again, the dispute is resolved, the road is whole
    # and locked in again, so Asphalt wins with its own move.
    won = after.play("c4<>d4")
    assert has_thruway(won.to_text(), "Asphalt")
    assert won.is_over and won.winner == "Asphalt"


def test_a_won_road_with_a_dispute_on_it_is_not_won():
    won = pos("""
        C A C C .
        C A A A .
        C A A C .
        . C A C .
        . C A C .
        mover: Concrete
    """)
    disputed = pos("""
        C A C C .
        C A C A .
        C A A C .
        . C A C .
        . C A C .
        mover: Concrete
    """)
    assert has_thruway(won, "Asphalt") and not has_thruway(disputed, "Asphalt")
    assert thruway(size=5).from_text(won).winner == "Asphalt"
    state = thruway(size=5).from_text(disputed)
    assert not state.is_over and state.winner is None


def test_a_tile_with_an_empty_neighbour_does_not_count():
    # Full column of Asphalt, but c1 has an empty neighbour (d1).
    text = pos("""
        C C A C
        C C A C
        C C A C
        C C A .
        mover: Concrete
    """)
    assert not has_thruway(text, "Asphalt")
    state = thruway(size=4).from_text(text)
    assert not state.is_over
    # One empty cell, no adjacent empty pair: replacing c1 (with d1) is Concrete's only move.
    # It breaks Asphalt's column and completes Concrete's row 1, every tile of it surrounded.
    assert moves(state) == {"c1,d1"}
    after = state.play("d1,c1")
    assert has_thruway(after.to_text(), "Concrete")
    assert after.is_over
    assert after.winner == "Concrete"


def test_completing_your_own_thruway_wins():
    state = thruway(size=4).from_text(pos("""
        A A A A
        C C C C
        A A . .
        A A A A
        mover: Concrete
    """))
    assert not state.is_over
    after = state.play("c2,d2")
    assert after.is_over
    assert after.winner == "Concrete"
    assert has_thruway(after.to_text(), "Concrete")


# =============================================================================================
# The pie
# =============================================================================================

def test_pie_swap_on_asphalts_first_turn():
    game = thruway(size=5)
    start = game.initial_state()
    illegal(start, "swap")  # not for Concrete's first move
    first = start.play("c3,c4")
    assert "swap" in moves(first)
    swapped = first.play("swap")
    assert board(swapped) == board(first)  # no tile moves
    assert swapped.mover == "Asphalt"  # Asphalt (now the other person) takes a turn
    assert not swapped.is_over
    assert keys(swapped).get("swapped") == "yes"
    assert swapped.in_hand("Concrete") == 58 and swapped.in_hand("Asphalt") == 60
    assert "swap" not in moves(swapped)
    illegal(swapped, "swap")
    roundtrip(swapped)
    nxt = swapped.play("a1,a2")
    assert board(nxt)["a1"] == "A" and nxt.mover == "Concrete"
    assert "swap" not in moves(nxt)
    assert keys(nxt).get("swapped") == "yes"
    assert "swap" not in moves(nxt.play("e1,e2"))


def test_pie_not_taken_is_gone_for_good():
    game = thruway(size=5)
    state = game.initial_state().play("c3,c4").play("a1,a2")
    assert "swap" not in moves(state)
    illegal(state, "swap")
    state = state.play("e1,e2")
    assert state.mover == "Asphalt"
    assert "swap" not in moves(state)
    illegal(state, "swap")


def test_no_pie_option():
    game = thruway(size=5, pie=False)
    state = game.initial_state().play("c3,c4")
    assert "swap" not in moves(state)
    illegal(state, "swap")
    with pytest.raises(GameError):
        game.from_text(state.to_text() + "pie: yes\n")


def test_pie_from_text():
    game = thruway(size=5)
    one = pos("""
        . . . . .
        . . C . .
        . . C . .
        . . . . .
        . . . . .
        mover: Asphalt
    """)
    assert "swap" in moves(game.from_text(one))
    closed = game.from_text(one + "pie: no\n")
    assert "swap" not in moves(closed)
    assert "pie: no" in closed.to_text()
    roundtrip(closed)


def test_no_pie_in_the_middle_of_a_game_read_from_text():
    # Both players have paved already: Asphalt's first turn is long gone, so after Concrete's
    # move Asphalt must not be offered the swap.
    game = thruway(size=5)
    state = game.from_text(pos("""
        . . . . .
        . C C . .
        . A A . .
        . . . . .
        . . . . .
        mover: Concrete
    """))
    assert "swap" not in moves(state)
    after = state.play("a1,b1")
    assert after.mover == "Asphalt"
    assert "swap" not in moves(after)
    illegal(after, "swap")


# =============================================================================================
# Unlimited supply, and reserve keys
# =============================================================================================

def test_unlimited_supply_has_no_reserve():
    game = thruway(size=5, supply=0)
    state = game.initial_state()
    assert state.in_hand("Concrete") is None and state.in_hand("Asphalt") is None
    for move in ("a5,b5", "a1,b1", "d5,e5", "d1,e1"):
        state = state.play(move)
        assert "reserve" not in state.to_text()
    roundtrip(state)
    with pytest.raises(GameError):
        game.from_text(state.to_text() + "reserve Concrete: 3\n")


def test_unlimited_supply_never_runs_out():
    # 77 Concrete tiles, more than any limited default reserve: Concrete can still pave.
    rows = ["C C C C C C C . . . ."] * 11
    text = "\n".join(rows) + "\nmover: Concrete\n"
    game = thruway(size=11, supply=0)
    state = game.from_text(text)
    assert not state.is_over
    paves = move_sets(state, ",")
    assert len(paves) == 3 * 11 + 4 * 10  # every domino in the empty 4x11 strip
    after = state.play("h11,h10")
    assert after.in_hand("Concrete") is None
    assert "reserve" not in after.to_text()
    assert move_sets(after.play("k1,k2"), ",")


def test_more_tiles_than_the_supply_is_not_a_position():
    # Supply 3: four Concrete tiles leave a default reserve of -1, which is no reserve at all.
    game = thruway(size=4, supply=3)
    with pytest.raises(GameError):
        game.from_text(pos("""
            C C . .
            C C . .
            . . . .
            . . . .
            mover: Asphalt
        """))


def test_small_supply_runs_out():
    game = thruway(size=5, supply=3)
    state = game.initial_state()
    assert state.in_hand("Concrete") == 3
    state = state.play("a5,b5")
    assert state.in_hand("Concrete") == 1
    check_supply(state, 3)
    state = state.play("a1,b1")  # Asphalt: 1 left
    check_supply(state, 3)
    assert moves(state) == {"pass"}  # no dispute, Concrete has 1 tile
    state = state.play("pass")
    assert moves(state) == {"pass"}
    state = state.play("pass")
    assert state.is_over and state.winner is None


def test_reserve_keys_round_trip_and_reject_nonsense():
    game = thruway(size=5)
    text = pos("""
        . . . . .
        . C C . .
        . A A . .
        . . . . .
        . . . . .
        mover: Concrete
        reserve Concrete: 7
        reserve Asphalt: 5
    """)
    state = game.from_text(text)
    assert state.in_hand("Concrete") == 7 and state.in_hand("Asphalt") == 5
    assert state.to_text() == text
    after = state.play("a1,b1")
    assert after.in_hand("Concrete") == 5
    for bad in ("reserve Concrete: -1", "reserve Concrete: many", "reserve Nobody: 3"):
        with pytest.raises(GameError):
            game.from_text(pos("""
                . . . . .
                . . . . .
                . . . . .
                . . . . .
                . . . . .
                mover: Concrete
            """) + bad + "\n")
