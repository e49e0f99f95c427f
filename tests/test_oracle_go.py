"""Go against OpenSpiel's `go`, an independent engine.

Random games are played through ludeme's games/go.game and OpenSpiel in lockstep
(`tests/oracle.py`): at every position the legal moves, the player to move and whether the game
is over must agree, at the end the winner must match OpenSpiel's returns, and (checked here)
the final boards must be the same; on boards up to 5x5 each game is also replayed to compare
the boards after every move.

What OpenSpiel's go plays (open_spiel/games/go/go.cc, go_board.cc, go.h), read from its sources
and checked below:

- Parameters: board_size (default 19; ours defaults to 9), komi (7.5, like ours), handicap (0;
  ours has none), max_game_length (default 2 * board_size**2).
- Actions: point (row, col), row 0 at the bottom (ToString prints it last, labelled 1) and col 0
  at the left, is action row * board_size + col; action board_size**2 is the pass, legal in
  every position that is not over. So action a is our site: column letter a % size, row
  a // size + 1 (a1 the bottom-left corner, like ours; OpenSpiel's own names skip the letter i,
  as Go boards do, so its j9 is our i9). Neighbours: the four orthogonal points on the board.
- Black (player 0) moves first; White (player 1).
- A placement captures the opponent's chains left without a liberty; a placement is legal only
  on an empty point which has an empty neighbour, or joins a chain of its own that keeps another
  liberty, or captures (suicide is illegal, also of several stones).
- Ko: a placement on a point whose four neighbours are all the opponent's (or off the board)
  that captures exactly one stone makes the captured stone's point illegal for the next move
  only (any move, a pass included, clears it). That recapture would be exactly the move that
  recreates the position before the last move, so this is the simple ko rule.
- Any other repetition: after each placement (never after a pass), if the board (stones only,
  whoever is to move: a Zobrist hash of the board) stood earlier in the game, the start
  included, the game ends at once as a draw ("superko", returns 0, 0).
- The game also ends after two consecutive passes, and after max_game_length actions (passes
  included), whichever comes first; a superko at the last action is still a draw.
- Score (Tromp-Taylor): Black's stones and the empty regions that touch only Black, minus the
  same for White, minus komi (minus the handicap if >= 2): > 0 Black wins, < 0 White wins,
  0 is a draw (possible with an integral komi).

So `go.game` with openspiel:true is OpenSpiel's game with max_game_length left at its default.
Its default rules (positional superko forbids the move instead of drawing, no length limit) are
compared with OpenSpiel's game made to forbid every placement after which OpenSpiel would call
superko, with a length limit far beyond any random game (`PositionalSuperko`).

Timing: a random 9x9 game costs about 65 ms (ludeme's legal moves nearly all of it; about 120
plies), a 5x5 one about 8 ms with the replay; the whole file runs in about 25 s.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from oracle import (
    ActionMap,
    Board,
    OracleMismatch,
    follow,
    game_rng,
    lockstep,
    ludeme_edges,
    random_chooser,
    replay,
    require_openspiel,
    site,
)

from interpreter import load_game

pyspiel = require_openspiel()

GAMES = Path(__file__).resolve().parent.parent / "games"
GO_LETTERS = "abcdefghjklmnopqrst"  # OpenSpiel's column letters (VirtualPointToString): no i


def ludeme_go(**options: Any) -> Any:
    """games/go.game with options."""
    path = GAMES / "go.game"
    return load_game(path, **options)


def spiel_go(size: int, komi: float = 7.5, **params: Any) -> Any:
    return pyspiel.load_game("go", {"board_size": size, "komi": float(komi), **params})


# The board and the actions ------------------------------------------------------------------


def go_board(size: int) -> Board:
    """OpenSpiel's go board (go_board.cc): action row * size + col for the point in row `row`
    from the bottom (VirtualPointFrom2DPoint; ToString prints row size - 1 first, labelled
    `size`) and column `col` from the left; Neighbours() are the four orthogonal points (the
    guard stones around the board are no points). Ludeme names the point by its column letter
    and its row from the bottom, 1 first."""
    cells = {r * size + c: (r, c) for r in range(size) for c in range(size)}
    at = {rc: a for a, rc in cells.items()}
    neighbours = {a: frozenset(at[(r + dr, c + dc)] for dr, dc in ((1, 0), (0, 1), (0, -1), (-1, 0))
                               if (r + dr, c + dc) in at)
                  for a, (r, c) in cells.items()}
    return Board({a: site(c, r + 1) for a, (r, c) in cells.items()}, neighbours)


def go_action_map(size: int) -> ActionMap:
    """Every OpenSpiel go action in ludeme notation: the points, and size * size, the pass."""
    return ActionMap({**go_board(size).sites, size * size: "pass"})


def spiel_point_name(spiel_game: Any, action: int) -> str:
    """OpenSpiel's own name of a point action (`B j9`), in ludeme's letters (`i9`)."""
    name = spiel_game.new_initial_state().action_to_string(0, action)
    colour, point = name.split()
    assert colour == "B"
    return LETTERS_OF_GO[point[0]] + point[1:]


LETTERS_OF_GO = {g: chr(ord("a") + i) for i, g in enumerate(GO_LETTERS)}


def spiel_rows(spiel_state: Any) -> list[str]:
    """OpenSpiel's board (ToString: `  9 +X+O...`, the top row first) in ludeme's symbols, one
    string per row: B, W and . for a black stone, a white stone and an empty point."""
    rows = []
    for line in str(spiel_state).splitlines()[1:]:
        parts = line.split()
        if len(parts) == 2 and parts[0].isdigit():
            rows.append(parts[1].translate(str.maketrans("XO+", "BW.")))
    return rows


def ludeme_rows(state: Any) -> list[str]:
    """Ludeme's board (to_text, the top row first) as one string per row."""
    return ["".join(line.split()) for line in state.to_text().splitlines()
            if line.strip() and ":" not in line]


@pytest.mark.parametrize("size", [2, 3, 5, 9, 13, 19])
def test_mapping_is_openspiel_geometry(size: int) -> None:
    """Each action's site is OpenSpiel's own name of the point, and a stone played there is
    printed where ludeme would print it."""
    spiel_game = spiel_go(size)
    board = go_board(size)
    assert spiel_game.num_distinct_actions() == size * size + 1
    assert spiel_game.new_initial_state().action_to_string(0, size * size) == "B PASS"
    assert sorted(board.sites) == list(range(size * size))
    assert len(set(board.sites.values())) == size * size
    for action, name in board.sites.items():
        assert spiel_point_name(spiel_game, action) == name
    for action in (0, size - 1, size * size - size, size * size - 1, (size * size) // 2):
        state = spiel_game.new_initial_state()
        state.apply_action(action)
        rows = spiel_rows(state)
        name = board.sites[action]
        column, row = ord(name[0]) - ord("a"), int(name[1:])
        assert len(rows) == size
        assert rows[size - row][column] == "B"
        assert "".join(rows).count("B") == 1


def test_mapping_corners() -> None:
    board = go_board(9)
    assert board.sites[0] == "a1" and board.sites[8] == "i1"
    assert board.sites[72] == "a9" and board.sites[80] == "i9"
    assert board.neighbours[0] == {1, 9}
    assert board.neighbours[40] == {31, 39, 41, 49}


def graph_edges(game: Any, diagonal: bool) -> set[frozenset[str]]:
    """The edges of `game.graph` (site names as nodes) whose `diagonal` attribute is `diagonal`."""
    return {frozenset((u, v)) for u, v, d in game.graph.edges(data=True)
            if bool(d.get("diagonal")) == diagonal}


@pytest.mark.parametrize("size", [2, 5, 9, 13, 19])
def test_board_is_openspiel_board(size: int) -> None:
    """OpenSpiel's neighbours (the points that share liberties) are the orthogonal edges of
    `game.graph`, with the same compass directions; the square board's graph also has the
    diagonal steps, which no Go rule uses (and the random games confirm that)."""
    game = ludeme_go(size=size)
    board = go_board(size)
    assert set(board.sites.values()) == set(game.sites)
    assert board.edges() == graph_edges(game, diagonal=False)
    assert board.edges() | graph_edges(game, diagonal=True) == ludeme_edges(game)
    compass = {(1, 0): "N", (-1, 0): "S", (0, 1): "E", (0, -1): "W"}
    for a, ns in board.neighbours.items():
        for b in ns:
            step = (b // size - a // size, b % size - a % size)
            u, v = board.sites[a], board.sites[b]
            assert game.graph.edges[u, v]["directions"][u] == compass[step]


def test_defaults() -> None:
    """Ours: 9x9, komi 7.5, published rules. OpenSpiel: 19x19, komi 7.5, 2 * size**2 actions."""
    game = ludeme_go()
    assert game.players == ("Black", "White")
    assert game.options == {"size": 9, "komi": 7.5, "openspiel": False}
    params = pyspiel.load_game("go").get_parameters()
    assert params["komi"] == game.options["komi"]
    assert params["handicap"] == 0
    assert spiel_go(9).max_game_length() == 2 * 9 * 9


# Positional superko as a prohibition, from OpenSpiel's engine ----------------------------------


class PositionalSuperko:
    """OpenSpiel's go turned into the published rules: a placement after which OpenSpiel would
    call superko (its board stood earlier) is not legal, and the length limit is far away. The
    harness sees it through the few methods of a pyspiel game and state that it calls."""

    def __init__(self, size: int, komi: float, max_length: int) -> None:
        self.size = size
        self.game = spiel_go(size, komi, max_game_length=max_length)
        self.forbidden = 0  # placements forbidden so far (as often as legal_actions was asked)

    def new_initial_state(self) -> SuperkoState:
        return SuperkoState(self, self.game.new_initial_state())

    def max_game_length(self) -> int:
        return int(self.game.max_game_length())

    def __str__(self) -> str:
        return f"{self.game} with positional superko forbidden"


class SuperkoState:
    def __init__(self, owner: PositionalSuperko, state: Any) -> None:
        self.owner = owner
        self.state = state

    def legal_actions(self) -> list[int]:
        passing = self.owner.size ** 2
        legal = []
        for action in self.state.legal_actions():
            if action != passing:
                child = self.state.clone()
                child.apply_action(action)
                if child.is_terminal():  # after a placement, short of the limit: superko
                    assert len(child.history()) < self.owner.max_game_length()
                    self.owner.forbidden += 1
                    continue
            legal.append(action)
        return legal

    def apply_action(self, action: int) -> None:
        self.state.apply_action(action)

    def clone(self) -> SuperkoState:
        return SuperkoState(self.owner, self.state.clone())

    def is_terminal(self) -> bool:
        return bool(self.state.is_terminal())

    def returns(self) -> list[float]:
        return list(self.state.returns())

    def current_player(self) -> int:
        return int(self.state.current_player())

    def history(self) -> list[int]:
        return list(self.state.history())

    def is_chance_node(self) -> bool:
        return False

    def is_simultaneous_node(self) -> bool:
        return False

    def __str__(self) -> str:
        return str(self.state)


def test_superko_wrapper_forbids_exactly_the_repeating_placements() -> None:
    """The wrapper on a line where OpenSpiel calls superko (see SUPERKO_2X2)."""
    wrapped = PositionalSuperko(2, 0.0, 1000).new_initial_state()
    names = go_action_map(2).sites
    for move in SUPERKO_2X2[:-1]:
        wrapped.apply_action(next(a for a, n in names.items() if n == move))
    inner = wrapped.state.legal_actions()
    assert {names[a] for a in inner} - {names[a] for a in wrapped.legal_actions()} == {"b2"}


# Random games -------------------------------------------------------------------------------


def end_reason(spiel_state: Any, size: int, max_length: int) -> str:
    history = spiel_state.history()
    if len(history) >= 2 and history[-1] == history[-2] == size * size:
        return "passes"
    if len(history) >= max_length:
        return "length"
    return "superko"


def play_random(game: Any, spiel_game: Any, size: int, *, games: int, seed: int,
                label: str, max_plies: int) -> Counter[str]:
    """`games` random games in lockstep (oracle.lockstep); then the final boards are compared,
    and on boards up to 5x5 each game is replayed to compare the boards after every move (on 9x9
    that would double the time). Counts the ends: why (passes, length, superko), who won."""
    action_map = go_action_map(size)
    every_ply = size <= 5
    counts: Counter[str] = Counter()
    for number in range(games):
        where = f"game {number} (seed {seed})"
        end = lockstep(game, spiel_game, action_map, random_chooser(game_rng(seed, number)),
                       label=label, where=where, max_plies=max_plies)
        if every_ply:
            compare_boards(game, spiel_game, action_map, end.moves, label, where)
        elif ludeme_rows(end.state) != spiel_rows(end.spiel_state):
            raise OracleMismatch(
                f"{label}: the final boards differ in {where}\n  moves: {' '.join(end.moves)}\n"
                f"ludeme position:\n{end.state.to_text()}OpenSpiel position:\n{end.spiel_state}")
        counts[end_reason(end.spiel_state, size, spiel_game.max_game_length())] += 1
        counts[end.state.winner or "draw"] += 1
        counts["plies"] += len(end.moves)
    return counts


def compare_boards(game: Any, spiel_game: Any, action_map: ActionMap, moves: list[str],
                   label: str, where: str) -> None:
    actions = {name: a for a, name in action_map.sites.items()}
    state, spiel_state = game.initial_state(), spiel_game.new_initial_state()
    for i, move in enumerate(moves):
        state = state.play(move)
        spiel_state.apply_action(actions[move])
        if ludeme_rows(state) != spiel_rows(spiel_state):
            raise OracleMismatch(
                f"{label}: the boards differ in {where} after {i + 1} moves\n"
                f"  moves: {' '.join(moves[:i + 1])}\nludeme position:\n{state.to_text()}"
                f"OpenSpiel position:\n{spiel_state}")


GAMES_9 = 200
GAMES_5 = 200


@pytest.mark.parametrize(("size", "komi", "games", "seed"), [
    (9, 7.5, GAMES_9, 1),
    (5, 7.5, GAMES_5, 2),
    (9, 0, 20, 3),
    (5, 0, 100, 4),
    (3, 0, 200, 5),
    (2, 0, 200, 6),
])
def test_openspiel_variant_agrees(size: int, komi: float, games: int, seed: int) -> None:
    game = ludeme_go(size=size, komi=komi, openspiel=True)
    spiel_game = spiel_go(size, komi)
    counts = play_random(game, spiel_game, size, games=games, seed=seed,
                         label=f"go size {size} komi {komi} openspiel",
                         max_plies=spiel_game.max_game_length() + 10)
    assert counts["passes"] + counts["length"] + counts["superko"] == games
    assert counts["passes"] > 0 and counts["length"] > 0  # both ends were exercised
    if komi == 0 and size <= 5:
        assert counts["draw"] > counts["superko"]  # equal scores were exercised


@pytest.mark.parametrize(("size", "games", "seed"), [(9, 60, 11), (5, 200, 12), (3, 300, 13)])
def test_published_rules_agree_with_openspiel_made_superko(size: int, games: int,
                                                           seed: int) -> None:
    """The default rules: positional superko forbids, two passes end, no length limit."""
    game = ludeme_go(size=size, komi=0 if size == 3 else 7.5)
    spiel_game = PositionalSuperko(size, 0 if size == 3 else 7.5, 20 * size * size)
    counts = play_random(game, spiel_game, size, games=games, seed=seed,
                         label=f"go size {size} published rules", max_plies=10 * size * size)
    assert counts["passes"] == games
    assert spiel_game.forbidden > 0  # superko beyond the simple ko was exercised


# Chosen lines --------------------------------------------------------------------------------

# 2x2, Black b2, White a1, Black b1, White passes, Black a2 takes a1, White a1 takes the three
# black stones, and Black b2 brings back the board after White's a1 (move 2), White to move
# now, Black then: a repetition of the board alone, with the other side to move.
SUPERKO_2X2 = ["b2", "a1", "b1", "pass", "a2", "a1", "b2"]
SUPERKO_3X3 = ["a2", "b3", "b2", "c2", "b1", "c1", "c3", "c2"]


@pytest.mark.parametrize("line", [SUPERKO_2X2, SUPERKO_3X3], ids=["2x2", "3x3"])
def test_repeated_board_is_an_openspiel_draw(line: list[str]) -> None:
    size = 2 if line is SUPERKO_2X2 else 3
    game = ludeme_go(size=size, komi=0, openspiel=True)
    end = follow(game, spiel_go(size, 0), go_action_map(size), line)
    assert end.spiel_state.is_terminal() and end.spiel_state.returns() == [0.0, 0.0]
    assert end.state.is_over and end.state.winner is None


@pytest.mark.parametrize("line", [SUPERKO_2X2, SUPERKO_3X3], ids=["2x2", "3x3"])
def test_repeated_board_is_forbidden_by_default(line: list[str]) -> None:
    size = 2 if line is SUPERKO_2X2 else 3
    game = ludeme_go(size=size, komi=0)
    end = follow(game, PositionalSuperko(size, 0, 1000), go_action_map(size), line[:-1])
    assert line[-1] not in {str(m) for m in end.state.legal_moves()}
    assert line[-1] in {go_action_map(size).sites[a] for a in end.spiel_state.state.legal_actions()}


# 5x5: Black d4 sits in White's mouth (d3, e4, d5); White c4, played into Black's eye (b4, c5,
# c3, d4), takes it: a ko. The position after the last move:
#   5 . . B W .
#   4 . B W . W
#   3 . . B W .
KO = ["c3", "d3", "b4", "e4", "c5", "d5", "d4", "c4"]


def test_simple_ko() -> None:
    """After White's c4 takes the black stone d4, Black may not retake at d4 at once (in both
    variants), but may after an exchange elsewhere (openspiel:true) or not at all if that
    recreates an earlier board (default)."""
    spiel_game = spiel_go(5)
    for openspiel in (True, False):
        game = ludeme_go(size=5, openspiel=openspiel)
        end = follow(game, spiel_game, go_action_map(5), KO)
        rows = spiel_rows(end.spiel_state)
        assert rows[5 - 4][3] == "." and rows[5 - 4][2] == "W"  # d4 taken, c4 White's
        assert "d4" not in {str(m) for m in end.state.legal_moves()}
        assert 3 * 5 + 3 not in end.spiel_state.legal_actions()
    # an exchange elsewhere, then the retake is legal in OpenSpiel and ours
    game = ludeme_go(size=5, openspiel=True)
    end = follow(game, spiel_game, go_action_map(5), [*KO, "a1", "e1", "d4"])
    assert not end.state.is_over
    rows = spiel_rows(end.spiel_state)
    assert rows[5 - 4][3] == "B" and rows[5 - 4][2] == "."  # d4 back, c4 taken


def test_repetition_at_the_length_limit_is_a_draw() -> None:
    """2x2, komi 0.5 (no equal scores): the eighth action, the last one allowed, repeats a
    board; OpenSpiel calls that a draw rather than scoring it, and so does openspiel:true."""
    spiel_game = spiel_go(2, 0.5)
    game = ludeme_go(size=2, komi=0.5, openspiel=True)
    line = ["a2", "a1", "b2", "b1", "a2", "pass", "b2", "a1"]
    end = follow(game, spiel_game, go_action_map(2), line)
    assert len(end.spiel_state.history()) == spiel_game.max_game_length()
    assert end.spiel_state.returns() == [0.0, 0.0]
    assert end.state.is_over and end.state.winner is None


def test_suicide_is_illegal() -> None:
    """a1 in White's corner (b1, a2) is suicide for Black; for White it is legal."""
    spiel_game = spiel_go(5)
    game = ludeme_go(size=5, openspiel=True)
    end = follow(game, spiel_game, go_action_map(5), ["e5", "b1", "e4", "a2"])
    assert "a1" not in {str(m) for m in end.state.legal_moves()}
    end = follow(game, spiel_game, go_action_map(5), ["e5", "b1", "e4", "a2", "e3"])
    assert "a1" in {str(m) for m in end.state.legal_moves()}


def test_length_limit_ends_and_scores() -> None:
    """2x2: eight actions end the game in OpenSpiel and openspiel:true, scored as usual."""
    spiel_game = spiel_go(2, 0)
    assert spiel_game.max_game_length() == 8
    game = ludeme_go(size=2, komi=0, openspiel=True)
    line = ["a1", "pass", "b2", "pass", "a2", "b1", "pass", "a1"]
    end = follow(game, spiel_game, go_action_map(2), line)
    assert end.spiel_state.is_terminal() and end.state.is_over
    # the default rules go on
    state = replay(ludeme_go(size=2, komi=0), line)
    assert not state.is_over


# Positions read from text (the contract: from_text(to_text()) round-trips, "a ko-style
# restriction" included) continue like OpenSpiel's game from the same point.


@pytest.mark.parametrize("openspiel", [True, False])
def test_ko_survives_the_position_text(openspiel: bool) -> None:
    game = ludeme_go(size=5, openspiel=openspiel)
    spiel_game = spiel_go(5)
    end = follow(game, spiel_game, go_action_map(5), KO)
    again = game.from_text(end.state.to_text())
    follow(game, spiel_game, go_action_map(5), [], start=(again, end.spiel_state))


def test_turn_count_survives_the_position_text() -> None:
    game = ludeme_go(size=2, komi=0, openspiel=True)
    spiel_game = spiel_go(2, 0)
    end = follow(game, spiel_game, go_action_map(2), ["a1", "pass", "b2", "pass", "a2", "b1",
                                                      "pass"])
    again = game.from_text(end.state.to_text())
    follow(game, spiel_game, go_action_map(2), ["a1"], start=(again, end.spiel_state))


def test_harness_catches_a_wrong_mapping() -> None:
    """Rows counted from the top instead of the bottom are caught at once."""
    game = ludeme_go(size=5, openspiel=True)
    wrong = ActionMap({**{r * 5 + c: site(c, 5 - r) for r in range(5) for c in range(5)},
                       25: "pass"})
    with pytest.raises(OracleMismatch, match="the legal moves differ|boards differ"):
        end = follow(game, spiel_go(5), wrong, ["a1"])
        compare_boards(game, spiel_go(5), wrong, end.moves, "go", "a scripted game")
