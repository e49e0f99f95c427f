"""Properties of random games of every classic, driven by hypothesis.

Each example plays one random game (moves chosen by a hypothesis-provided `random.Random`) and
checks something at every position of it. The rule checks (who may move where, when the game is
over and who won) are computed here independently of the interpreter, from the position text
and the rules as the product owner stated them.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from interpreter import GameError, IllegalMoveError, load_game

GAMES = Path(__file__).resolve().parent.parent / "games"

# Shrinking a random game is slow and rarely makes it clearer (the assertion messages show the
# position), so these tests only generate.
PHASES = (Phase.explicit, Phase.reuse, Phase.generate)
FAST = settings(max_examples=25, deadline=None, database=None, phases=PHASES,
                suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=60, deadline=None, database=None, phases=PHASES,
                suppress_health_check=[HealthCheck.too_slow])


@cache
def game(name: str, **options: object):
    return load_game(GAMES / f"{name}.game", **options)


# Which games, with which options. Hex is played on small boards (2 to 6), with and without pie.
CLASSICS = ["tictactoe", "connectfour", "hex", "reversi", "breakthrough"]
# The same, with the games whose every-move checks take seconds marked slow.
CLASSICS_HEAVY = ["tictactoe", "connectfour", "hex",
                  pytest.param("reversi", marks=pytest.mark.slow),
                  pytest.param("breakthrough", marks=pytest.mark.slow)]


@st.composite
def configs(draw: st.DrawFn, name: str) -> tuple[str, dict[str, object]]:
    if name == "hex":
        return name, {"size": draw(st.integers(2, 6)), "pie": draw(st.booleans())}
    return name, {}


# ---------------------------------------------------------------------------------------------
# Reading a position independently: the board from the position text, sites by name
# ---------------------------------------------------------------------------------------------

def board_of(g, state) -> dict[str, str]:
    """{site name: symbol} from the state's position text ('.' for empty)."""
    rows = []
    for line in state.to_text().splitlines():
        if ":" in line:
            break
        rows.extend(line.split())
    assert len(rows) == len(g.sites)
    return dict(zip(g.sites, rows, strict=True))


def square_xy(name: str) -> tuple[int, int]:
    """(column 0.., row 1..) of a square-board site."""
    return ord(name[0]) - ord("a"), int(name[1:])


def square_name(x: int, y: int) -> str:
    return f"{chr(ord('a') + x)}{y}"


def hex_rc(name: str, n: int) -> tuple[int, int]:
    """(row from the top, column within the row) of a rhombus site: the number counts rows from
    the bottom, the letter is the position within the row."""
    return n - int(name[1:]), ord(name[0]) - ord("a")


def hex_name(r: int, c: int, n: int) -> str:
    return f"{chr(ord('a') + c)}{n - r}"


HEX_NEIGHBOURS = ((0, -1), (0, 1), (-1, 0), (-1, 1), (1, -1), (1, 0))


def n_in_a_row(board: dict[str, str], symbol: str, n: int, width: int, height: int) -> bool:
    for x in range(width):
        for y in range(1, height + 1):
            for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = [(x + k * dx, y + k * dy) for k in range(n)]
                if all(0 <= cx < width and 1 <= cy <= height
                       and board[square_name(cx, cy)] == symbol for cx, cy in cells):
                    return True
    return False


def hex_connected(board: dict[str, str], symbol: str, n: int, top_bottom: bool) -> bool:
    """A chain of `symbol` stones from the top row to the bottom row (top_bottom) or from the
    first to the last cell of the rows, with the rhombus adjacency of the specification."""
    stones = {hex_rc(s, n) for s, v in board.items() if v == symbol}
    start = [p for p in stones if (p[0] if top_bottom else p[1]) == 0]
    seen = set(start)
    stack = list(start)
    while stack:
        r, c = stack.pop()
        if (r if top_bottom else c) == n - 1:
            return True
        for dr, dc in HEX_NEIGHBOURS:
            q = (r + dr, c + dc)
            if q in stones and q not in seen:
                seen.add(q)
                stack.append(q)
    return False


def reversi_moves(board: dict[str, str], me: str) -> set[str]:
    other = "W" if me == "B" else "B"
    out = set()
    for site, v in board.items():
        if v != ".":
            continue
        x, y = square_xy(site)
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                if dx == dy == 0:
                    continue
                cx, cy, run = x + dx, y + dy, 0
                while 0 <= cx < 8 and 1 <= cy <= 8 and board[square_name(cx, cy)] == other:
                    cx, cy, run = cx + dx, cy + dy, run + 1
                if run and 0 <= cx < 8 and 1 <= cy <= 8 and board[square_name(cx, cy)] == me:
                    out.add(site)
    return out


def breakthrough_moves(board: dict[str, str], me: str) -> set[str]:
    other = "W" if me == "B" else "B"
    dy = -1 if me == "B" else 1
    out = set()
    for site, v in board.items():
        if v != me:
            continue
        x, y = square_xy(site)
        for dx in (-1, 0, 1):
            tx, ty = x + dx, y + dy
            if not (0 <= tx < 8 and 1 <= ty <= 8):
                continue
            target = board[square_name(tx, ty)]
            if target == "." or (dx != 0 and target == other):
                out.add(f"{site}-{square_name(tx, ty)}")
    return out


class Referee:
    """The rules of one classic, written independently of the interpreter: the legal moves and
    the result of a position, given who is to move (or who just moved)."""

    def __init__(self, name: str, options: dict[str, object]) -> None:
        self.name = name
        self.options = options
        self.g = game(name, **options)

    def symbol(self, role: str) -> str:
        return {"X": "X", "O": "O", "Red": "R", "Yellow": "Y", "Blue": "B", "Black": "B",
                "White": "W"}[role]

    def role(self, symbol: str) -> str:
        return {self.symbol(r): r for r in self.g.players}[symbol]

    def bound(self) -> int:
        """The most moves a game can last."""
        return {"tictactoe": 9, "connectfour": 42, "reversi": 120,
                "breakthrough": 4 * 64}.get(self.name, len(self.g.sites) + 1)

    def result(self, board: dict[str, str], just_moved: str, to_move: str
               ) -> tuple[bool, str | None]:
        """(is the game over, winner) after `just_moved` moved, `to_move` being next."""
        if self.name in ("tictactoe", "connectfour"):
            n, w, h = (3, 3, 3) if self.name == "tictactoe" else (4, 7, 6)
            winners = [r for r in self.g.players
                       if n_in_a_row(board, self.symbol(r), n, w, h)]
            assert len(winners) <= 1, winners
            if winners:
                return True, winners[0]
            return "." not in board.values(), None
        if self.name == "hex":
            n = self.options["size"]
            red = hex_connected(board, "R", n, top_bottom=True)
            blue = hex_connected(board, "B", n, top_bottom=False)
            assert not (red and blue)
            if red or blue:
                return True, "Red" if red else "Blue"
            assert "." in board.values(), "a full Hex board always has a winner"
            return False, None
        if self.name == "reversi":
            if reversi_moves(board, "B") or reversi_moves(board, "W"):
                return False, None
            b = sum(v == "B" for v in board.values())
            w = sum(v == "W" for v in board.values())
            return True, None if b == w else ("Black" if b > w else "White")
        # breakthrough
        me, other = self.symbol(just_moved), self.symbol(to_move)
        far = "1" if me == "B" else "8"
        if any(v == me and s[1:] == far for s, v in board.items()):
            return True, just_moved
        if other not in board.values():
            return True, just_moved
        if not breakthrough_moves(board, other):
            return True, just_moved  # the file's convention: no move loses
        return False, None

    def moves(self, board: dict[str, str], to_move: str, ply: int) -> set[str]:
        """The legal moves of `to_move` at ply `ply` (0 = the first move) of a game from the
        start."""
        empties = {s for s, v in board.items() if v == "."}
        if self.name == "tictactoe":
            return empties
        if self.name == "connectfour":
            return {s for s in empties
                    if s[1:] == "1" or board[f"{s[0]}{int(s[1:]) - 1}"] != "."}
        if self.name == "hex":
            return empties | ({"swap"} if self.options["pie"] and ply == 1 else set())
        if self.name == "reversi":
            return reversi_moves(board, self.symbol(to_move)) or {"pass"}
        return breakthrough_moves(board, self.symbol(to_move))


def playout(g, rng: random.Random, bound: int) -> Iterator[tuple[int, object]]:
    """The positions of one random game (ply number, state), at most `bound` moves."""
    state = g.initial_state()
    ply = 0
    yield ply, state
    while not state.is_over and ply < bound + 1:
        state = state.play(rng.choice(state.legal_moves()))
        ply += 1
        yield ply, state


def names(state) -> list[str]:
    return sorted(str(m) for m in state.legal_moves())


# ---------------------------------------------------------------------------------------------
# The properties
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", CLASSICS)
@FAST
@given(data=st.data(), rng=st.randoms(use_true_random=False))
def test_play_never_mutates_the_old_state(name: str, data: st.DataObject,
                                          rng: random.Random) -> None:
    _, options = data.draw(configs(name))
    g = game(name, **options)
    for _, state in playout(g, rng, Referee(name, options).bound()):
        if state.is_over:
            break
        text, legal, mover = state.to_text(), names(state), state.mover
        child = state.play(rng.choice(state.legal_moves()))
        assert state.to_text() == text
        assert names(state) == legal
        assert state.mover == mover and not state.is_over
        assert child is not state


@pytest.mark.parametrize("name", CLASSICS)
@FAST
@given(data=st.data(), rng=st.randoms(use_true_random=False))
def test_position_text_round_trips(name: str, data: st.DataObject, rng: random.Random) -> None:
    _, options = data.draw(configs(name))
    g = game(name, **options)
    for _, state in playout(g, rng, Referee(name, options).bound()):
        text = state.to_text()
        again = g.from_text(text)
        assert again.to_text() == text
        assert names(again) == names(state)
        assert again.mover == state.mover
        assert again.is_over == state.is_over
        assert again.winner == state.winner


@pytest.mark.parametrize("name", CLASSICS)
@FAST
@given(data=st.data(), rng=st.randoms(use_true_random=False))
def test_random_games_end(name: str, data: st.DataObject, rng: random.Random) -> None:
    _, options = data.draw(configs(name))
    g = game(name, **options)
    bound = Referee(name, options).bound()
    assert bound <= 4 * len(g.sites) + 1
    last_ply, last = max(playout(g, rng, bound), key=lambda p: p[0])
    assert last.is_over, f"not over after {last_ply} moves:\n{last.to_text()}"
    assert last_ply <= bound
    assert last.mover is None and last.legal_moves() == []
    with pytest.raises(IllegalMoveError):
        last.play("pass")


@pytest.mark.parametrize("name", CLASSICS)
@SLOW
@given(data=st.data(), rng=st.randoms(use_true_random=False))
def test_results_match_an_independent_referee(name: str, data: st.DataObject,
                                              rng: random.Random) -> None:
    """At every position: over exactly when the rules say so, and the winner really has a
    winning configuration (n in a row, a connection, more discs, the far row reached or the
    opponent wiped out)."""
    _, options = data.draw(configs(name))
    ref = Referee(name, options)
    g = ref.g
    previous = None
    for ply, state in playout(g, rng, ref.bound()):
        if previous is not None:
            board = board_of(g, state)
            just_moved = previous.mover
            to_move = g.players[(g.players.index(just_moved) + 1) % 2]
            over, winner = ref.result(board, just_moved, to_move)
            assert state.is_over == over, f"ply {ply}, is_over {state.is_over}:\n" \
                f"{state.to_text()}"
            assert state.winner == winner, f"ply {ply}:\n{state.to_text()}"
            if winner is not None and name != "reversi":
                assert winner == just_moved  # only the player who just moved can win
        previous = state


@pytest.mark.parametrize("name", CLASSICS)
@SLOW
@given(data=st.data(), rng=st.randoms(use_true_random=False))
def test_legal_moves_match_an_independent_referee(name: str, data: st.DataObject,
                                                  rng: random.Random) -> None:
    """At every position: the mover alternates (a swap keeps Blue to move) and the legal moves
    are exactly those the rules allow."""
    _, options = data.draw(configs(name))
    ref = Referee(name, options)
    g = ref.g
    state = g.initial_state()
    mover = g.players[0]
    for ply in range(ref.bound() + 1):
        if state.is_over:
            assert state.legal_moves() == [] and state.mover is None
            break
        assert state.mover == mover, f"ply {ply}:\n{state.to_text()}"
        legal = names(state)
        assert len(legal) == len(set(legal)), f"a move is listed twice: {legal}"
        assert set(legal) == ref.moves(board_of(g, state), mover, ply), \
            f"ply {ply}:\n{state.to_text()}"
        move = rng.choice(state.legal_moves())
        state = state.play(move)
        if str(move) != "swap":
            mover = g.players[1 - g.players.index(mover)]
    else:
        raise AssertionError(f"no end after {ref.bound()} moves")


@pytest.mark.parametrize("name", CLASSICS_HEAVY)
@settings(FAST, max_examples=12)
@given(data=st.data(), rng=st.randoms(use_true_random=False))
def test_every_legal_move_can_be_played(name: str, data: st.DataObject,
                                        rng: random.Random) -> None:
    _, options = data.draw(configs(name))
    g = game(name, **options)
    for _, state in playout(g, rng, Referee(name, options).bound()):
        for move in state.legal_moves():
            child = state.play(move)
            assert state.play(str(move)).to_text() == child.to_text()
            assert child.is_over or child.legal_moves(), "a live state with no moves"


# ---------------------------------------------------------------------------------------------
# Fuzzing the text inputs: errors are always GameErrors
# ---------------------------------------------------------------------------------------------

MOVE_TOKENS = st.sampled_from(["a1", "b2", "c3", "d4", "h8", "z9", "a", "1", "0", "-", ",",
                               "<>", " ", "pass", "swap", "A1", "a10", "aa1", "é", ""])


@pytest.mark.parametrize("name", CLASSICS)
@FAST
@given(data=st.data(), rng=st.randoms(use_true_random=False))
def test_any_move_text_is_played_or_refused(name: str, data: st.DataObject,
                                            rng: random.Random) -> None:
    _, options = data.draw(configs(name))
    g = game(name, **options)
    state = g.initial_state()
    for _ in range(rng.randrange(0, 6)):
        if state.is_over:
            break
        state = state.play(rng.choice(state.legal_moves()))
    text = "".join(data.draw(st.lists(MOVE_TOKENS, max_size=5)))
    legal = set(names(state))
    try:
        child = state.play(text)
    except IllegalMoveError as exc:
        assert str(exc)
    else:
        # only the notation of a legal move is played (case and spaces aside)
        assert "".join(text.split()).lower() in legal, text
        assert child.to_text() != state.to_text() or text.strip().lower() == "swap"


POSITION_TOKENS = st.sampled_from([".", " ", "\n", "X", "O", "R", "Y", "B", "W", "Q", ":",
                                   "mover", "mover: ", "X", "Red", "Black", "step", "passes",
                                   "pie", "swapped", "yes", "2", "-1", "\t", ". . .\n"])


@pytest.mark.parametrize("name", CLASSICS)
@FAST
@given(data=st.data())
def test_any_position_text_is_read_or_refused(name: str, data: st.DataObject) -> None:
    _, options = data.draw(configs(name))
    g = game(name, **options)
    base = g.initial_state().to_text()
    tokens = data.draw(st.lists(POSITION_TOKENS, max_size=12))
    cut = data.draw(st.integers(0, len(base)))
    text = base[:cut] + "".join(tokens) + base[cut:]
    try:
        state = g.from_text(text)
    except GameError as exc:
        assert str(exc)
    else:
        assert g.from_text(state.to_text()).to_text() == state.to_text()


@pytest.mark.slow
@pytest.mark.parametrize("size", [7, 11])
@settings(FAST, max_examples=10)
@given(rng=st.randoms(use_true_random=False), pie=st.booleans())
def test_big_hex_games_have_a_connected_winner(size: int, rng: random.Random,
                                               pie: bool) -> None:
    ref = Referee("hex", {"size": size, "pie": pie})
    g = ref.g
    last_ply, last = max(playout(g, rng, ref.bound()), key=lambda p: p[0])
    assert last.is_over and last_ply <= size * size + 1
    board = board_of(g, last)
    symbol = ref.symbol(last.winner)
    assert hex_connected(board, symbol, size, top_bottom=last.winner == "Red")
    other = "B" if symbol == "R" else "R"
    assert not hex_connected(board, other, size, top_bottom=last.winner != "Red")
