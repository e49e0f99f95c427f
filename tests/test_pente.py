"""Pente (games/pente.game) and Keryo-Pente (examples/keryo-pente.game): the rules one by one
from positions, and random games compared move by move with a little referee written here
from the rule sheet (it calls nothing of stdlib). Also the custodian-capture ludemes on their
own: (flank ... min: max:) as a placement's capture gives the same games as
(remove (sites Flanked To ...)) after it, and (sites Flanked ...) after a move."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter import IllegalMoveError, RuleError, load_game, parse_game

ROOT = Path(__file__).resolve().parent.parent
PENTE = ROOT / "games" / "pente.game"
KERYO = ROOT / "examples" / "keryo-pente.game"
N = 19
LETTERS = "abcdefghijklmnopqrstuvwxyz"
SYMBOL = {"White": "W", "Black": "B"}
ROLE = {v: k for k, v in SYMBOL.items()}
LINES = [(1, 0), (0, 1), (1, 1), (1, -1)]
RAYS = [(dx * s, dy * s) for dx, dy in LINES for s in (1, -1)]

Cell = tuple[int, int]


@cache
def pente(tournament: bool = False):
    return load_game(PENTE, tournament=tournament)


@cache
def keryo():
    return load_game(KERYO)


def name(c: Cell) -> str:
    return f"{LETTERS[c[0]]}{c[1] + 1}"


def cell(site: str) -> Cell:
    return LETTERS.index(site[0]), int(site[1:]) - 1


def position(stones: dict[str, str], mover: str = "White", extra: str = "") -> str:
    """Position text of a 19 x 19 board with the given stones ({"c3": "W"})."""
    rows = [["."] * N for _ in range(N)]
    for site, symbol in stones.items():
        x, y = cell(site)
        rows[N - 1 - y][x] = symbol
    return "\n".join(" ".join(r) for r in rows) + f"\nmover: {mover}\n" + extra


def row(text: str, y: int = 1, x: int = 0) -> dict[str, str]:
    """Stones written as a row of symbols (`W B B .`) from column x on row y."""
    return {f"{LETTERS[x + i]}{y}": s for i, s in enumerate(text.split()) if s != "."}


def stones_of(state) -> dict[str, str]:
    out = {}
    for y, line in enumerate(state.to_text().splitlines()[:N]):
        for x, s in enumerate(line.split()):
            if s != ".":
                out[name((x, N - 1 - y))] = s
    return out


# -- the rules, one by one -------------------------------------------------------------------

def test_the_first_stone_goes_on_the_centre() -> None:
    start = pente().initial_state()
    assert [str(m) for m in start.legal_moves()] == ["j10"]
    with pytest.raises(IllegalMoveError):
        start.play("a1")
    after = start.play("j10")
    assert after.mover == "Black" and len(after.legal_moves()) == N * N - 1


def test_exactly_two_flanked_stones_are_taken() -> None:
    state = pente().from_text(position(row("W B B .")))
    after = state.play("d1")
    assert stones_of(after) == {"a1": "W", "d1": "W"}
    assert "score White: 2" in after.to_text()
    assert not after.is_over and after.mover == "Black"


@pytest.mark.parametrize("line", ["W B .", "W B B B .", "W B W B .", "W . B B ."])
def test_one_or_three_or_a_broken_line_is_not_taken(line: str) -> None:
    stones = row(line)
    empty = len(line.split()) - 1
    after = pente().from_text(position(stones)).play(f"{LETTERS[empty]}1")
    assert stones_of(after) == {**stones, f"{LETTERS[empty]}1": "W"}
    assert "score" not in after.to_text()


def test_captures_along_every_line_at_once() -> None:
    """The stone placed on e5 flanks pairs to the west, south, south-west and north-east."""
    stones = {"c5": "B", "d5": "B", "b5": "W",          # west
              "e4": "B", "e3": "B", "e2": "W",          # south
              "d4": "B", "c3": "B", "b2": "W",          # south-west
              "f6": "B", "g7": "B", "h8": "W",          # north-east
              "f5": "B", "g5": "W"}                     # east: one stone only, kept
    after = pente().from_text(position(stones)).play("e5")
    assert stones_of(after) == {"b5": "W", "e2": "W", "b2": "W", "h8": "W", "f5": "B",
                                "g5": "W", "e5": "W"}
    assert "score White: 8" in after.to_text()


def test_a_stone_placed_between_two_enemies_is_safe() -> None:
    """Black plays into W . B W -> W B B W: its own two stones are flanked, and stay."""
    state = pente().from_text(position(row("W . B W"), mover="Black"))
    after = state.play("b1")
    assert stones_of(after) == {"a1": "W", "b1": "B", "c1": "B", "d1": "W"}
    # ...and they stay when White plays anywhere else later.
    later = after.play("j10")
    assert stones_of(later)["b1"] == "B" and stones_of(later)["c1"] == "B"


def test_only_the_placed_stone_captures() -> None:
    """A pair flanked by two white stones already on the board is not taken by a white
    stone placed elsewhere."""
    stones = {**row("W B B W"), "a3": "W"}
    after = pente().from_text(position(stones)).play("k10")
    assert all(stones_of(after)[s] == "B" for s in ("b1", "c1"))


def test_five_captured_pairs_win() -> None:
    state = pente().from_text(position(row("W B B ."), extra="score White: 8\n"))
    after = state.play("d1")
    assert after.is_over and after.winner == "White"
    assert after.reason == "five captured pairs"
    # Four pairs is not yet a win.
    early = pente().from_text(position(row("W B B ."), extra="score White: 6\n")).play("d1")
    assert not early.is_over


def test_the_opponents_captures_do_not_win_for_the_mover() -> None:
    state = pente().from_text(position(row("W B B ."), extra="score Black: 8\n"))
    after = state.play("d1")
    assert not after.is_over


@pytest.mark.parametrize("line, site", [("W W W W .", "e1"), ("W W . W W W", "c1"),
                                        ("W W W W . W", "e1")])
def test_five_or_more_in_a_row_win(line: str, site: str) -> None:
    after = pente().from_text(position({**row(line), "k10": "B"})).play(site)
    assert after.is_over and after.winner == "White"
    assert after.reason == "five in a row"


def test_five_in_a_row_diagonally() -> None:
    stones = {"a1": "W", "b2": "W", "c3": "W", "e5": "W", "k10": "B"}
    after = pente().from_text(position(stones)).play("d4")
    assert after.winner == "White"


def test_a_full_board_is_a_draw() -> None:
    """A full board where no line holds more than two stones of one colour."""
    stones = {name((x, y)): "WB"[((x + 2 * y) // 2) % 2] for x in range(N) for y in range(N)}
    state = pente().from_text(position(stones))
    assert state.is_over and state.winner is None


def test_tournament_rule_keeps_the_second_stone_away_from_the_centre() -> None:
    game = pente(tournament=True)
    state = game.initial_state().play("j10").play("a1")
    moves = {str(m) for m in state.legal_moves()}
    near = {name((x, y)) for x in range(7, 12) for y in range(7, 12)}
    assert moves == {name((x, y)) for x in range(N) for y in range(N)} - near - {"a1"}
    with pytest.raises(IllegalMoveError, match="tournament rule"):
        state.play("l12")
    # Black's stones, and White's third, may go anywhere.
    assert "k11" in {str(m) for m in game.initial_state().play("j10").legal_moves()}
    later = state.play("m10").play("a2")
    assert "k11" in {str(m) for m in later.legal_moves()}
    # Without the option, the second stone is free.
    assert "k11" in {str(m) for m in pente().initial_state().play("j10").play("a1")
                     .legal_moves()}


def test_keryo_takes_two_or_three_but_not_four() -> None:
    game = keryo()
    for line, taken in (("W B B .", 2), ("W B B B .", 3), ("W B B B B .", 0), ("W B .", 0)):
        stones = row(line)
        site = f"{LETTERS[len(line.split()) - 1]}1"
        after = game.from_text(position(stones)).play(site)
        assert len(stones_of(after)) == len(stones) + 1 - taken, line
    win = game.from_text(position(row("W B B B ."), extra="score White: 12\n")).play("e1")
    assert win.winner == "White"
    assert not game.from_text(position(row("W B B ."), extra="score White: 12\n")) \
        .play("d1").is_over


def test_position_text_round_trips() -> None:
    state = pente().from_text(position(row("W B B ."), extra="turns: 7\nscore Black: 4\n"))
    assert pente().from_text(state.to_text()).to_text() == state.to_text()


# -- a referee from the rule sheet -----------------------------------------------------------

@dataclass
class Referee:
    """Pente's rules (low..high stones taken per line, `target` captured stones win), on
    stones held as a dict of cells."""

    low: int = 2
    high: int = 2
    target: int = 10
    tournament: bool = False
    rays: list[Cell] = field(default_factory=lambda: RAYS)

    def legal(self, board: dict[Cell, str], turns: int) -> set[Cell]:
        if not board:
            return {(N // 2, N // 2)}
        out = {(x, y) for x in range(N) for y in range(N) if (x, y) not in board}
        if self.tournament and turns == 2:
            out = {c for c in out if max(abs(c[0] - N // 2), abs(c[1] - N // 2)) >= 3}
        return out

    def place(self, board: dict[Cell, str], c: Cell, me: str) -> int:
        """Put a stone of `me` on c, take what it flanks; how many it took."""
        board[c] = me
        taken = 0
        for dx, dy in self.rays:
            run = []
            x, y = c[0] + dx, c[1] + dy
            while (x, y) in board and board[(x, y)] != me:
                run.append((x, y))
                x, y = x + dx, y + dy
            if (x, y) in board and self.low <= len(run) <= self.high:
                for r in run:
                    del board[r]
                taken += len(run)
        return taken

    def five(self, board: dict[Cell, str], me: str) -> bool:
        for (x, y), s in board.items():
            if s != me:
                continue
            for dx, dy in LINES:
                if all(board.get((x + i * dx, y + i * dy)) == me for i in range(5)):
                    return True
        return False


@dataclass
class Game:
    """A game in progress as the referee keeps it."""

    referee: Referee
    board: dict[Cell, str] = field(default_factory=dict)
    mover: str = "White"
    turns: int = 0
    score: dict[str, int] = field(default_factory=lambda: {"White": 0, "Black": 0})
    winner: str | None = None
    over: bool = False

    def play(self, c: Cell) -> None:
        me = SYMBOL[self.mover]
        self.score[self.mover] += self.referee.place(self.board, c, me)
        self.turns += 1
        if self.referee.five(self.board, me) or self.score[self.mover] >= self.referee.target:
            self.winner, self.over = self.mover, True
        elif len(self.board) == N * N:
            self.over = True
        self.mover = "Black" if self.mover == "White" else "White"


def compare(game, referee: Referee, seed: int, plies: int = 400) -> None:
    """One random game, the engine's and the referee's moves, boards, scores and results
    compared at every turn."""
    rng = random.Random(seed)
    state = game.initial_state()
    mine = Game(referee)
    for _ in range(plies):
        assert state.is_over == mine.over
        if mine.over:
            assert state.winner == mine.winner
            return
        assert state.mover == mine.mover
        moves = sorted(str(m) for m in state.legal_moves())
        assert moves == sorted(name(c) for c in referee.legal(mine.board, mine.turns))
        # Play a capture when there is one, now and then, so that games reach five pairs.
        move = rng.choice(moves)
        if rng.random() < 0.3:
            for m in rng.sample(moves, min(len(moves), 60)):
                trial = dict(mine.board)
                if referee.place(trial, cell(m), SYMBOL[mine.mover]):
                    move = m
                    break
        state = state.play(move)
        mine.play(cell(move))
        assert stones_of(state) == {name(c): s for c, s in mine.board.items()}
        text = state.to_text()
        for role, points in mine.score.items():
            assert (f"score {role}: {points}" in text) == (points > 0), text
    raise AssertionError("the game did not end")


@settings(max_examples=12)
@given(seed=st.integers(0, 2**32 - 1), tournament=st.booleans())
def test_random_games_follow_the_rule_sheet(seed: int, tournament: bool) -> None:
    compare(pente(tournament), Referee(tournament=tournament), seed)


@settings(max_examples=6)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_keryo_games_follow_the_rule_sheet(seed: int) -> None:
    compare(keryo(), Referee(low=2, high=3, target=15), seed)


@settings(max_examples=20)
@given(seed=st.integers(0, 2**32 - 1))
def test_every_game_ends_with_a_winner_who_moved_last(seed: int) -> None:
    state, plies = pente().playout(random.Random(seed))
    assert state.is_over and plies <= N * N
    text = state.to_text()
    scores = {line.split()[1].rstrip(":"): int(line.split()[2]) for line in text.splitlines()
              if line.startswith("score ")}
    if state.reason == "five captured pairs":
        assert scores[state.winner] >= 10
    else:
        assert all(points < 10 for points in scores.values())
    if state.winner is not None:
        assert state.mover is None and state.legal_moves() == []
        stones = {cell(s): v for s, v in stones_of(state).items()}
        assert Referee().five(stones, SYMBOL[state.winner]) or state.reason != "five in a row"


# -- the ludemes on other boards -------------------------------------------------------------

def small(play: str, size: int = 7) -> str:
    return f"""(game "Test"
      (players {{(player "White" symbol:"W") (player "Black" symbol:"B")}})
      (board (square {size}))
      (play {play})
      (end (if (full) (draw))))"""


DIRECTIONS = {"All": RAYS, "Orthogonal": [(1, 0), (-1, 0), (0, 1), (0, -1)],
              "Diagonal": [(1, 1), (-1, -1), (1, -1), (-1, 1)]}


def cells_of(text: str) -> dict[Cell, str]:
    """The stones of a position text, by cell (any square board)."""
    rows = [line.split() for line in text.splitlines() if ":" not in line]
    return {(x, len(rows) - 1 - y): v for y, r in enumerate(rows) for x, v in enumerate(r)
            if v != "."}


@settings(max_examples=25)
@given(seed=st.integers(0, 2**32 - 1), low=st.integers(1, 3), extra=st.integers(0, 2),
       unbounded=st.booleans(), dirs=st.sampled_from(["All", "Orthogonal", "Diagonal"]))
def test_flank_with_bounds_and_sites_flanked_follow_the_referee(
        seed: int, low: int, extra: int, unbounded: bool, dirs: str) -> None:
    """(place ... capture:(flank D remove:true min: max:)), and (place ...) followed by
    (remove (sites Flanked To D min: max:)), take what the referee takes, on a 7 x 7 board."""
    bounds = f"min:{low}" + ("" if unbounded else f" max:{low + extra}")
    a = parse_game(small(f"(place (sites Empty) capture:(flank {dirs} remove:true {bounds}))"))
    b = parse_game(small(f"(place (sites Empty)) (remove (sites Flanked To {dirs} {bounds}))"))
    referee = Referee(low=low, high=99 if unbounded else low + extra, rays=DIRECTIONS[dirs])
    rng = random.Random(seed)
    sa, sb = a.initial_state(), b.initial_state()
    board: dict[Cell, str] = {}
    for _ in range(150):  # captures may keep the board from ever filling
        if sa.is_over:
            break
        moves = sorted(str(m) for m in sa.legal_moves())
        assert moves == sorted(str(m) for m in sb.legal_moves())
        move = rng.choice(moves)
        referee.place(board, cell(move), SYMBOL[sa.mover])
        sa, sb = sa.play(move), sb.play(move)
        assert sa.to_text() == sb.to_text()
        assert cells_of(sa.to_text()) == board
    assert sb.is_over == sa.is_over


def test_sites_flanked_after_a_move() -> None:
    """Hasami Shogi's custodian capture: a piece moved so that it flanks enemies along a
    line (any number of them) takes them; a piece moved in between two enemies is safe."""
    game = parse_game(small("(slide Orthogonal) (remove (sites Flanked To Orthogonal))", 5))
    state = game.from_text(". . . . .\n. . . . .\nW B B . W\n. . . . .\n. . . . .\n"
                           "mover: White\n")
    after = state.play("e3-d3")
    assert after.to_text().splitlines()[2] == "W . . W ."
    safe = game.from_text(". . . . .\n. . B . .\nW . . B .\n. . . . .\n. . W . .\n"
                          "mover: Black\n")
    after = safe.play("c4-c3")
    assert after.to_text().splitlines()[2] == "W . B B ."


@pytest.mark.parametrize("bounds", ["min:0", "min:3 max:2"])
def test_bounds_that_make_no_sense_are_refused(bounds: str) -> None:
    for play in (f"(place (sites Empty) capture:(flank All {bounds}))",
                 f"(place (sites Empty)) (remove (sites Flanked To All {bounds}))"):
        with pytest.raises(RuleError, match="min <= max"):
            parse_game(small(play))
