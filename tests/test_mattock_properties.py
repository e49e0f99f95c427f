"""Properties of random games of Mattock (rules: docs/rules/mattock.md), driven by hypothesis.

Each example plays one random game (seed drawn by hypothesis) on the short or the full board,
with the fixed or the freestyle setup, and checks something at every state. The board is read
back from the position text and the hex geometry is worked out here: in the text each cell of
row r (counted from the bottom) sits at text column x = 2 * (letter index) + |r - side|, so two
cells touch when they are two columns apart in one row or one column apart in neighbouring rows.

`Reference` is an independent reading of the rules over that board (where a player may mine,
move, place during the freestyle setup; which miners a turn removes; who cannot mine).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from interpreter import load_game

GAME = Path(__file__).resolve().parent.parent / "games" / "mattock.game"

# Shrinking a seed does not make a random game clearer (the messages show the position): only
# generate.
PHASES = (Phase.explicit, Phase.reuse, Phase.generate)
SHORT = settings(max_examples=25, deadline=None, database=None, phases=PHASES,
                 suppress_health_check=[HealthCheck.too_slow])
FULL = settings(max_examples=3, deadline=None, database=None, phases=PHASES,
                suppress_health_check=[HealthCheck.too_slow])

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
SETUPS = st.sampled_from(["fixed", "freestyle"])
OTHER = {"R": "B", "B": "R"}
ROLE = {"Red": "R", "Blue": "B"}


@cache
def mattock(short: bool, setup: str):
    return load_game(GAME, short=short, setup=setup)


# Geometry and position text ---------------------------------------------------------------------

@cache
def board(side: int) -> tuple[tuple[str, ...], dict[str, tuple[str, ...]]]:
    """(every site in reading order, {site: its neighbours})."""
    names: list[str] = []
    xy: dict[str, tuple[int, int]] = {}
    for r in range(2 * side - 1, 0, -1):
        for c in range(2 * side - 1 - abs(r - side)):
            name = f"{chr(ord('a') + c)}{r}"
            names.append(name)
            xy[name] = (2 * c + abs(r - side), r)
    where = {p: n for n, p in xy.items()}
    adj = {}
    for n, (x, r) in xy.items():
        around = [(x - 2, r), (x + 2, r), (x - 1, r + 1), (x + 1, r + 1), (x - 1, r - 1),
                  (x + 1, r - 1)]
        adj[n] = tuple(where[p] for p in around if p in where)
    return tuple(names), adj


def side_of(short: bool) -> int:
    return 5 if short else 7


def read(text: str, side: int) -> tuple[dict[str, str], dict[str, str]]:
    """({site: symbol}, {key: value}) from a position text."""
    names, _ = board(side)
    flat: list[str] = []
    keys: dict[str, str] = {}
    for line in text.splitlines():
        if ":" in line:
            k, _, v = line.partition(":")
            keys[k.strip()] = v.strip()
        elif line.strip():
            flat.extend(line.split())
    assert len(flat) == len(names)
    return dict(zip(names, flat, strict=True)), keys


# An independent reading of the rules -----------------------------------------------------------

class Reference:
    def __init__(self, side: int) -> None:
        self.names, self.adj = board(side)

    def touches(self, cells: dict[str, str], s: str) -> int:
        return sum(1 for t in self.adj[s] if cells[t] != ".")

    def mine_sites(self, cells: dict[str, str], me: str) -> set[str]:
        """Open spaces next to a tile connected to one of `me`'s miners (the chain passes
        through empty tiles and `me`'s miners, not the opponent's), where the new tile touches
        at most 3 tiles and no tile it touches would then touch more than 3."""
        region = {s for s in self.names if cells[s] == me}
        stack = list(region)
        while stack:
            s = stack.pop()
            for t in self.adj[s]:
                if t not in region and cells[t] in ("o", me):
                    region.add(t)
                    stack.append(t)
        out = set()
        for s in region:
            for t in self.adj[s]:
                if cells[t] != ".":
                    continue
                if self.touches(cells, t) > 3:
                    continue
                if any(cells[u] != "." and self.touches(cells, u) + 1 > 3 for u in self.adj[t]):
                    continue
                out.add(t)
        return out

    def walk_moves(self, cells: dict[str, str], me: str) -> set[str]:
        """`from-to` for each miner of `me` and each empty tile its chain (through empty tiles
        and `me`'s miners) reaches; plus pass."""
        out = {"pass"}
        for s in self.names:
            if cells[s] != me:
                continue
            seen = {s}
            stack = [s]
            while stack:
                u = stack.pop()
                for t in self.adj[u]:
                    if t not in seen and cells[t] in ("o", me):
                        seen.add(t)
                        stack.append(t)
                        if cells[t] == "o":
                            out.add(f"{s}-{t}")
        return out

    def setup_sites(self, cells: dict[str, str]) -> set[str]:
        return {s for s in self.names
                if cells[s] == "." and all(cells[t] == "." for t in self.adj[s])}

    def removed(self, cells: dict[str, str], me: str) -> set[str]:
        """The opponent miners `me`'s turn removes: tracing across empty tiles from the miner,
        no miner of its colour is reached and at least two of `me`'s are."""
        foe = OTHER[me]
        out = set()
        for s in self.names:
            if cells[s] != foe:
                continue
            traced = {s}
            stack = [s]
            while stack:
                u = stack.pop()
                for t in self.adj[u]:
                    if t not in traced and cells[t] == "o":
                        traced.add(t)
                        stack.append(t)
            reached = {t for u in traced for t in self.adj[u] if t not in traced}
            if any(cells[t] == foe for t in reached):
                continue
            if sum(1 for t in reached if cells[t] == me) >= 2:
                out.add(s)
        return out


# Random games ----------------------------------------------------------------------------------

def random_game(short: bool, setup: str, seed: int) -> Iterator[tuple[object, object, object]]:
    """(state, move, next state) for every move of one random game; the last state is over."""
    game = mattock(short, setup)
    rng = random.Random(seed)
    state = game.initial_state()
    # Every turn adds a tile (every setup placement too): a game can not be longer.
    bound = 2 * len(game.sites) + 2
    for _ in range(bound):
        if state.is_over:
            return
        legal = state.legal_moves()
        assert legal, f"no legal move but the game is not over:\n{state.to_text()}"
        move = rng.choice(legal)
        after = state.play(move)
        yield state, move, after
        state = after
    raise AssertionError(f"game not over after {bound} moves:\n{state.to_text()}")


def states(short: bool, setup: str, seed: int) -> Iterator[object]:
    last = None
    for state, _, after in random_game(short, setup, seed):
        yield state
        last = after
    assert last is not None
    yield last


# Properties ------------------------------------------------------------------------------------

def check_ends_with_a_winner(short: bool, setup: str, seed: int) -> None:
    last = None
    for _, _, after in random_game(short, setup, seed):
        last = after
    assert last is not None and last.is_over
    assert last.winner in ("Red", "Blue")  # no draws
    assert last.mover is None
    assert last.legal_moves() == []
    # The loser is the player to move, and it indeed cannot mine.
    cells, keys = read(last.to_text(), side_of(short))
    loser = keys["mover"]
    assert last.winner != loser
    assert "phase" not in keys and "decision" not in keys
    assert Reference(side_of(short)).mine_sites(cells, ROLE[loser]) == set()


def check_tiles_touch_at_most_three(short: bool, setup: str, seed: int) -> None:
    side = side_of(short)
    _, adj = board(side)
    for state in states(short, setup, seed):
        cells, _ = read(state.to_text(), side)
        for s, c in cells.items():
            if c != ".":
                n = sum(1 for t in adj[s] if cells[t] != ".")
                assert n <= 3, f"{s} touches {n} tiles:\n{state.to_text()}"


def check_miners_conserved(short: bool, setup: str, seed: int) -> None:
    side = side_of(short)
    per = 3 if short else 6
    for state in states(short, setup, seed):
        cells, _ = read(state.to_text(), side)
        for role, sym in ROLE.items():
            on_board = sum(1 for c in cells.values() if c == sym)
            assert on_board + state.in_hand(role) == per, state.to_text()


def snapshot(state: object) -> tuple[object, ...]:
    return (state.to_text(), [str(m) for m in state.legal_moves()], state.mover,
            state.is_over, state.winner, state.in_hand("Red"), state.in_hand("Blue"))


def check_play_never_mutates(short: bool, setup: str, seed: int) -> None:
    for state, move, after in random_game(short, setup, seed):
        before = snapshot(state)
        again = state.play(str(move))  # a second play, by notation, from the same state
        assert snapshot(state) == before
        assert snapshot(again) == snapshot(after)
        assert again is not state and after is not state


def check_round_trip(short: bool, setup: str, seed: int) -> None:
    game = mattock(short, setup)
    for state in states(short, setup, seed):
        text = state.to_text()
        back = game.from_text(text)
        assert back.to_text() == text
        assert (back.mover, back.is_over, back.winner) == \
            (state.mover, state.is_over, state.winner), text
        assert [str(m) for m in back.legal_moves()] == [str(m) for m in state.legal_moves()]
        assert (back.in_hand("Red"), back.in_hand("Blue")) == \
            (state.in_hand("Red"), state.in_hand("Blue"))


def check_against_reference(short: bool, setup: str, seed: int) -> None:
    side = side_of(short)
    ref = Reference(side)
    per = 3 if short else 6
    for state, move, after in random_game(short, setup, seed):
        cells, keys = read(state.to_text(), side)
        new, new_keys = read(after.to_text(), side)
        me = ROLE[state.mover]
        legal = {str(m) for m in state.legal_moves()}
        if keys.get("phase") == "setup":
            assert legal == ref.setup_sites(cells), state.to_text()
            placed = str(move)
            expected = dict(cells, **{placed: me})
            assert new == expected
            assert all(c in ("R", "B", ".") for c in new.values())
            done = sum(1 for c in new.values() if c != ".") == 2 * per
            if done:
                # All placed: whoever placed last (Blue, as Red places first) plays first.
                assert me == "B"
                assert "phase" not in new_keys and after.mover == "Blue"
            else:
                assert new_keys.get("phase") == "setup"
                assert after.mover == ("Blue" if me == "R" else "Red")
        elif "decision" not in keys:
            # Decision 1: mine.
            assert legal == ref.mine_sites(cells, me), state.to_text()
            site = str(move)
            hand = state.in_hand(state.mover)
            assert new[site] == (me if hand > 0 else "o")
            assert {s for s in cells if new[s] != cells[s]} == {site}
            assert after.mover == state.mover and new_keys.get("decision") == "2"
            assert not after.is_over
        else:
            assert keys["decision"] == "2"
            assert legal == ref.walk_moves(cells, me), state.to_text()
            moved = dict(cells)
            if str(move) != "pass":
                a, b = str(move).split("-")
                moved[a], moved[b] = "o", me
            gone = ref.removed(moved, me)
            expected = {s: ("o" if s in gone else c) for s, c in moved.items()}
            assert new == expected, (state.to_text(), str(move))
            assert "decision" not in new_keys and new_keys["mover"] != keys["mover"]
            foe = OTHER[me]
            foe_role = "Blue" if foe == "B" else "Red"
            assert after.in_hand(foe_role) == state.in_hand(foe_role) + len(gone)
            stuck = not ref.mine_sites(new, foe)
            assert after.is_over == stuck, after.to_text()
            if stuck:
                assert after.winner == state.mover


CHECKS = [check_ends_with_a_winner, check_tiles_touch_at_most_three, check_miners_conserved,
          check_play_never_mutates, check_round_trip, check_against_reference]
IDS = ["winner", "touch3", "miners", "no-mutation", "round-trip", "reference"]


@pytest.mark.parametrize("check", CHECKS, ids=IDS)
@SHORT
@given(setup=SETUPS, seed=SEEDS)
def test_short_games(check, setup: str, seed: int) -> None:
    check(True, setup, seed)


@pytest.mark.slow
@pytest.mark.parametrize("check", CHECKS, ids=IDS)
@FULL
@given(setup=SETUPS, seed=SEEDS)
def test_full_games(check, setup: str, seed: int) -> None:
    check(False, setup, seed)


def test_the_round_trip_holds_mid_turn_in_a_known_game() -> None:
    """A fixed, short instance of the round-trip property: every mid-turn state of the short
    game from seed 0 (fixed setup)."""
    game = mattock(True, "fixed")
    for state in states(True, "fixed", 0):
        text = state.to_text()
        if "decision: 2" not in text:
            continue
        back = game.from_text(text)
        assert (back.is_over, back.mover) == (False, state.mover), text
