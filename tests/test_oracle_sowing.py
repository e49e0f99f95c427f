"""Kalah and Oware against OpenSpiel, an independent engine, decision by decision.

games/kalah.game is played through ludeme and OpenSpiel's `mancala`, games/oware.game through
OpenSpiel's `oware`, in lockstep (`tests/oracle.py`): at every decision the legal moves, the
player to move, whether the game is over and, at the end, the winner must agree; along the same
games the pits, stores and scores must agree after every move. About 9 s in all.

What OpenSpiel plays, read from open_spiel/games/mancala/mancala.{h,cc} and
open_spiel/games/oware/{oware,oware_board}.{h,cc} (the mirror's HEAD; the installed wheel is
checked against them by the tests below):

`mancala` is Kalah with six pits a side and four seeds a pit; it takes no parameters (so the
`seeds` option of kalah.game is compared only at 4).

- `board_` has 14 entries, counter-clockwise in the order seeds are sown: 0 is player 1's
  store, 1..6 player 0's pits, 7 player 0's store, 8..13 player 1's pits. ToString prints
  board[13], board[12], ..., board[8] as the top line, then board[0] (left) and board[7]
  (right), then board[1..6] as the bottom line, then "Current player:". An action is the pit's
  index (ActionToString: the number). So player 0 is South (moves first, `current_player_ =
  0`): pits 1..6 are b1..g1, its store 7 is h2; player 1 is North: pits 8..13 run right to
  left along the top, 8 = g3 ... 13 = b3, its store 0 is a2 (`kalah_sites`, checked against
  the printed boards in `test_kalah_pits_are_where_openspiel_prints_them`).
- sowing (GetNextPit) passes over the opponent's store only; a lap of 13 or more seeds sows
  into the pit it came from. If the last seed lands in the mover's store (GetPlayerHomePit) the
  mover moves again. If it lands in one of the mover's pits that now holds 1 seed and the pit
  facing it (14 - pit) holds seeds, both go to the mover's store.
- IsTerminal: either row of pits is empty (or more than MaxGameLength = 1000 moves, which
  random games never reach). The seeds left in the rows are not moved into the stores;
  Returns compares each player's pits plus store: +1 / -1, or 0 / 0 when equal.

`oware` (parameters `num_houses_per_player` 6, `num_seeds_per_house` 4) is abapa:

- OwareBoard.seeds has 2 * 6 houses in sowing order, player 0's houses 0..5 then player 1's
  6..11; an action is 0..5, relative to the mover's first house (ActionToHouse: player * 6 +
  action; ActionToString 'A' + action for player 0, 'a' + action for player 1). ToString
  prints player 1's score line, player 1's labels and houses 11, 10, ..., 6 (so the top row
  reads "f e d c b a"), then houses 0..5 and the labels A..F, then player 0's score line.
  Player 0 moves first and is South: its action i is house i, a1..f1; player 1 (North)'s
  action i is house 6 + i, printed in column 5 - i: house 6 is f2 ... house 11 a2. The map
  needs the player, so `HouseActionMap` overrides `ActionMap.notations` (checked against the
  printed labels and boards in `test_oware_houses_are_where_openspiel_prints_them`).
- sowing (DistributeSeeds) never drops a seed in the house it was lifted from (a lap of 12
  or more passes over it). If the last house is the opponent's, it and the houses before it in
  the opponent's row are captured while each holds 2 or 3 (DoCaptureFrom), unless that would
  leave the opponent without seeds (IsGrandSlam): then nothing is captured and the move is
  still legal. When the opponent has no seeds only moves that reach their row are legal.
- after every move, a position (player to move, scores, houses) seen before since the last
  capture ends the game, and so does a player to move without a legal move (no seeds, or none
  that feed an empty opponent): CollectAndTerminate puts each row's seeds into its owner's
  score. IsTerminal: a score over half the seeds, or both exactly half. OpenSpiel also collects
  the rows when a score passes half (LegalActions is empty once terminal), so after the last
  move OpenSpiel's scores are ludeme's scores plus each player's row, with the board empty.
  Returns compares the scores.

OpenSpiel offers only "no capture" for a grand slam; the `grandslam` options "capture" and
"forbidden" are tested on a constructed position here. Python cannot set up an OpenSpiel
position (SetBoard / the OwareBoard constructor are C++ only), so every comparison starts from
the start position; the rules random play rarely reaches are pinned down from position texts
(and in tests/test_sowing.py). Each rule changed on its own in a game file is caught by the
random games (`test_a_wrong_kalah_rule_is_caught`, `test_a_wrong_oware_rule_is_caught`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from oracle import (
    ActionMap,
    OracleMismatch,
    compare,
    follow,
    game_rng,
    lockstep,
    random_chooser,
    require_openspiel,
    site,
)

from interpreter import IllegalMoveError, load_game, parse_game

pyspiel = require_openspiel("mancala", "oware")

GAMES = Path(__file__).resolve().parent.parent / "games"
ROLES = ("South", "North")  # ludeme's roles, in the order of OpenSpiel's players 0 and 1
PITS = 6  # pits (houses) a side, in both games


@functools.cache
def kalah(**options: Any) -> Any:
    return load_game(GAMES / "kalah.game", **options)


@functools.cache
def oware(**options: Any) -> Any:
    return load_game(GAMES / "oware.game", **options)


def spiel_kalah() -> Any:
    return pyspiel.load_game("mancala")


def spiel_oware(seeds: int = 4) -> Any:
    return pyspiel.load_game("oware", {"num_seeds_per_house": seeds})


# The boards and the actions, by geometry ------------------------------------------------------


KALAH_PITS = 2 * PITS + 2  # mancala.h, kTotalPits
SOUTH_STORE, NORTH_STORE = PITS + 1, 0  # GetPlayerHomePit(0), GetPlayerHomePit(1)


def kalah_sites() -> dict[int, str]:
    """OpenSpiel mancala's board index -> ludeme site, from where ToString prints it: the top
    line is board[13] ... board[8] from the left, in ludeme's columns b..g of row 3; the middle
    line board[0] in column a and board[7] in column h of row 2; the bottom line board[1..6]
    in columns b..g of row 1."""
    sites = {NORTH_STORE: site(0, 2), SOUTH_STORE: site(PITS + 1, 2)}
    for column in range(PITS):
        sites[1 + column] = site(1 + column, 1)
        sites[KALAH_PITS - 1 - column] = site(1 + column, 3)
    return sites


KALAH_SITES = kalah_sites()
KALAH_MAP = ActionMap(KALAH_SITES)  # a sowing action is the pit's index


def oware_sites() -> dict[int, str]:
    """OpenSpiel oware's house -> ludeme site, from where ToString prints it: houses 0..5 on the
    bottom line from the left (row 1), houses 11 down to 6 on the top line from the left
    (row 2)."""
    sites = {house: site(house, 1) for house in range(PITS)}
    sites.update({house: site(2 * PITS - 1 - house, 2) for house in range(PITS, 2 * PITS)})
    return sites


@dataclass(frozen=True)
class HouseActionMap(ActionMap):
    """OpenSpiel oware's actions, relative to the mover's first house: player p's action a is
    house p * houses + a (ActionToHouse); `sites` names each house."""

    houses: int = PITS

    def notations(self, spiel_state: Any, actions: Iterable[int], swapped: bool) -> list[str]:
        player = spiel_state.current_player()
        return [self.sites[player * self.houses + a] for a in actions]


OWARE_SITES = oware_sites()
OWARE_MAP = HouseActionMap(OWARE_SITES)


# Reading the positions ------------------------------------------------------------------------


def ludeme_counts(game: Any, state: Any) -> tuple[dict[str, int], dict[str, int]]:
    """The seeds on each site and each role's score, read from ludeme's position text: the
    board lines list the sites in `game.sites` order (a pile is its count, `.` none); a role's
    score is its `score ROLE: N` line (left out when 0)."""
    lines = state.to_text().splitlines()
    tokens = [t for line in lines if ":" not in line for t in line.split()]
    assert len(tokens) == len(game.sites), state.to_text()
    counts = {name: 0 if t == "." else int(t) for name, t in zip(game.sites, tokens, strict=True)}
    scores = dict.fromkeys(game.players, 0)
    for line in lines:
        found = re.fullmatch(r"score (\w+): (\d+)", line)
        if found:
            scores[found[1]] = int(found[2])
    return counts, scores


def spiel_kalah_counts(spiel_state: Any) -> dict[str, int]:
    """The seeds on each site by where OpenSpiel's ToString prints them (the three lines of
    `-`-separated numbers: top pits, the two stores, bottom pits)."""
    top, middle, bottom = ([int(t) for t in line.split("-") if t]
                           for line in str(spiel_state).splitlines()[:3])
    counts = {site(1 + column, 3): n for column, n in enumerate(top)}
    counts[site(0, 2)], counts[site(PITS + 1, 2)] = middle
    counts.update({site(1 + column, 1): n for column, n in enumerate(bottom)})
    return counts


def spiel_oware_counts(spiel_state: Any) -> tuple[dict[str, int], dict[str, int]]:
    """The seeds on each site by where OpenSpiel's ToString prints them (the top and bottom
    lines of numbers), and the scores ("Player P score = N")."""
    text = str(spiel_state)
    top, bottom = ([int(t) for t in line.split()] for line in text.splitlines()
                   if line.split() and line.split()[0].isdigit())
    counts = {site(column, 2): n for column, n in enumerate(top)}
    counts.update({site(column, 1): n for column, n in enumerate(bottom)})
    scores = {ROLES[int(p)]: int(n) for p, n in re.findall(r"Player (\d) score = (\d+)", text)}
    return counts, scores


def spiel_oware_labels(spiel_state: Any) -> tuple[list[str], list[str]]:
    """The two label lines of OpenSpiel's oware ToString (top, bottom): the action names."""
    top, bottom = (line.split() for line in str(spiel_state).splitlines()
                   if line.split() and all(t.isalpha() and len(t) == 1 for t in line.split()))
    return top, bottom


# The mappings, checked against OpenSpiel's strings --------------------------------------------


def test_kalah_pits_are_where_openspiel_prints_them() -> None:
    """After every first move, and every reply to each, OpenSpiel's printed board (read by
    position) is ludeme's board after the move `KALAH_MAP` names; the actions are the pit
    numbers (ActionToString), player 0's 1..6 and player 1's 8..13."""
    game, spiel_game = kalah(), spiel_kalah()
    start, spiel_start = game.initial_state(), spiel_game.new_initial_state()
    assert spiel_game.num_distinct_actions() == KALAH_PITS
    assert spiel_game.get_parameters() == {}  # no seeds option to compare with
    assert spiel_kalah_counts(spiel_start) == ludeme_counts(game, start)[0]
    assert spiel_start.legal_actions() == [1, 2, 3, 4, 5, 6]
    replies = 0
    for first in spiel_start.legal_actions():
        assert spiel_start.action_to_string(0, first) == str(first)
        state, spiel_state = start.play(KALAH_SITES[first]), spiel_start.child(first)
        assert spiel_kalah_counts(spiel_state) == ludeme_counts(game, state)[0]
        for reply in spiel_state.legal_actions():
            if spiel_state.current_player() == 1:
                assert 8 <= reply <= 13
                replies += 1
            after = state.play(KALAH_SITES[reply])
            assert spiel_kalah_counts(spiel_state.child(reply)) == ludeme_counts(game, after)[0]
    assert replies  # some first moves hand the turn to North


def test_oware_houses_are_where_openspiel_prints_them() -> None:
    """OpenSpiel's labels put player 0's action i (`A` + i) under column i of the bottom row
    and player 1's action i (`a` + i) over column 5 - i of the top row, as `OWARE_MAP` has
    them; after every first move and every reply, OpenSpiel's printed board is ludeme's."""
    game, spiel_game = oware(), spiel_oware()
    start, spiel_start = game.initial_state(), spiel_game.new_initial_state()
    top, bottom = spiel_oware_labels(spiel_start)
    assert spiel_game.num_distinct_actions() == PITS
    for a in range(PITS):
        assert site(bottom.index(spiel_start.action_to_string(0, a)), 1) == OWARE_SITES[a]
        assert site(top.index(spiel_start.action_to_string(1, a)), 2) == OWARE_SITES[PITS + a]
    assert spiel_oware_counts(spiel_start) == ludeme_counts(game, start)
    for first in spiel_start.legal_actions():
        state = start.play(OWARE_SITES[first])
        spiel_state = spiel_start.child(first)
        assert spiel_oware_counts(spiel_state) == ludeme_counts(game, state)
        assert spiel_state.current_player() == 1 and state.mover == "North"
        for reply in spiel_state.legal_actions():
            after = state.play(OWARE_SITES[PITS + reply])
            assert spiel_oware_counts(spiel_state.child(reply)) == ludeme_counts(game, after)


# Random games from the start ------------------------------------------------------------------


def test_kalah_random_games_agree_with_openspiel() -> None:
    """600 random games of Kalah agree on the legal moves, the mover, the end and the winner
    at every decision (tests/oracle.py); both players win some and some are drawn."""
    games = 600
    summary = compare(kalah(), spiel_kalah(), KALAH_MAP, games=games, seed=21, label="kalah")
    assert summary.games == games
    assert all(summary.wins.get(role, 0) > games // 4 for role in ROLES), summary
    assert summary.draws > games // 50, summary


def test_oware_random_games_agree_with_openspiel() -> None:
    """400 random games of Oware agree on the legal moves, the mover, the end and the winner
    at every decision; both players win some and some are drawn."""
    games = 400
    summary = compare(oware(), spiel_oware(), OWARE_MAP, games=games, seed=31, label="oware")
    assert summary.games == games
    assert all(summary.wins.get(role, 0) > games // 4 for role in ROLES), summary
    assert summary.draws > games // 50, summary


@pytest.mark.parametrize("name", ["kalah", "oware"])
def test_the_kernels_random_games_agree_with_openspiel(name: str) -> None:
    """The games' kernels (interpreter/kernel), played through their step API, agree with
    OpenSpiel in 300 random games each, as the interpreter does."""
    from interpreter.kernel import available, kernel_for

    if not available():
        pytest.skip("numba (the kernels extra) is not installed: pip install -e '.[kernels]'")
    game, spiel, action_map = ((kalah(), spiel_kalah(), KALAH_MAP) if name == "kalah"
                               else (oware(), spiel_oware(), OWARE_MAP))
    kernel = kernel_for(game)
    assert kernel is not None
    summary = compare(game, spiel, action_map, games=300, seed=51, label=f"{name} kernel",
                      kernel=kernel)
    assert summary.games == 300 and len(summary.wins) == 2, summary


@pytest.mark.parametrize("seeds", [1, 3, 5])
def test_oware_other_seed_counts(seeds: int) -> None:
    """The `seeds` option is OpenSpiel's `num_seeds_per_house`: 100 random games agree."""
    summary = compare(oware(seeds=seeds), spiel_oware(seeds), OWARE_MAP, games=100,
                      seed=40 + seeds, label=f"oware seeds:{seeds}")
    assert summary.games == 100


# Along random games: the boards, and what the games did -----------------------------------------


def kalah_sow(board: list[int], pit: int, player: int) -> tuple[list[int], int, int]:
    """Kalah's sowing in OpenSpiel's indices (a third reading of the rule, to tell what a move
    did): the board after the seeds are sown (before any capture), the last pit sown, and how
    many times the opponent's store was passed over."""
    board = list(board)
    seeds, board[pit], at, skipped = board[pit], 0, pit, 0
    theirs = NORTH_STORE if player == 0 else SOUTH_STORE
    while seeds:
        at = (at + 1) % KALAH_PITS
        if at == theirs:
            skipped += 1
            continue
        board[at] += 1
        seeds -= 1
    return board, at, skipped


def own_pits(player: int) -> range:
    return range(1, 1 + PITS) if player == 0 else range(PITS + 2, KALAH_PITS)


@dataclass
class KalahSeen:
    """What the random games of Kalah did, to show that they exercised each rule."""

    moves: int = 0
    extra_turns: int = 0  # the last seed in the mover's store: the mover moves again
    captures: int = 0  # the last seed in an empty pit of the mover's, seeds facing it
    lone_seeds: int = 0  # the same, but the pit facing it empty: no capture
    laps: int = 0  # 13 or more seeds: the sowing comes back to the pit it started from
    lap_captures: int = 0  # exactly 13: the last seed in the emptied pit itself, a capture
    skips: int = 0  # sowings that passed over the opponent's store
    draws: int = 0
    games: int = 0


def kalah_play_along(moves: list[str], seen: KalahSeen, where: str) -> None:
    """Replay a compared game of Kalah through both engines, checking the pits and stores
    after every move, and note what each move did."""
    game, spiel_game = kalah(), spiel_kalah()
    index = {name: i for i, name in KALAH_SITES.items()}
    state, spiel_state = game.initial_state(), spiel_game.new_initial_state()
    for number, move in enumerate(moves):
        player = ROLES.index(state.mover)
        before = [spiel_kalah_counts(spiel_state)[KALAH_SITES[i]] for i in range(KALAH_PITS)]
        pit = index[move]
        sown, last, skipped = kalah_sow(before, pit, player)
        state = state.play(move)
        spiel_state.apply_action(pit)
        counts = ludeme_counts(game, state)[0]
        if counts != spiel_kalah_counts(spiel_state):
            raise OracleMismatch(
                f"kalah: the boards differ in {where} after {number + 1} moves\n"
                f"  moves: {' '.join(moves[:number + 1])}\n"
                f"ludeme position:\n{state.to_text()}\nOpenSpiel position:\n{spiel_state}")
        seen.moves += 1
        seen.extra_turns += state.mover == ROLES[player]
        seen.laps += before[pit] >= KALAH_PITS - 1
        seen.skips += skipped > 0
        if last in own_pits(player) and sown[last] == 1:
            facing = KALAH_PITS - last
            if sown[facing]:
                seen.captures += 1
                seen.lap_captures += last == pit
                assert counts[KALAH_SITES[last]] == counts[KALAH_SITES[facing]] == 0
            else:
                seen.lone_seeds += 1
                assert counts[KALAH_SITES[last]] == 1
    assert state.is_over and spiel_state.is_terminal()
    seen.games += 1
    seen.draws += state.winner is None


def test_kalah_boards_agree_along_random_games() -> None:
    """Along 150 random games the pits and stores agree after every move; the games include
    extra turns, captures (and lone seeds with nothing facing them), sowings that pass over the
    opponent's store, laps of 13 or more seeds (some of exactly 13, capturing from the emptied
    pit itself) and draws."""
    spiel_game = spiel_kalah()
    seen = KalahSeen()
    for number in range(150):
        end = lockstep(kalah(), spiel_game, KALAH_MAP, random_chooser(game_rng(22, number)),
                       label="kalah", where=f"game {number} (seed 22)", max_plies=1000)
        kalah_play_along(end.moves, seen, f"game {number} (seed 22)")
    assert seen.extra_turns and seen.captures and seen.lone_seeds, seen
    assert seen.skips and seen.laps and seen.draws, seen
    assert seen.lap_captures, seen


def oware_sow(board: list[int], house: int) -> tuple[list[int], int]:
    """Oware's sowing in OpenSpiel's houses: the board after the seeds are sown, passing over
    the house they came from, and the last house sown."""
    board = list(board)
    seeds, board[house], at = board[house], 0, house
    while seeds:
        at = (at + 1) % (2 * PITS)
        if at != house:
            board[at] += 1
            seeds -= 1
    return board, at


def houses_of(player: int) -> range:
    return range(player * PITS, (player + 1) * PITS)


def can_move(board: list[int], player: int) -> bool:
    """Whether `player` has a legal move: a house with seeds, which must reach the opponent's
    row when the opponent has none."""
    starving = not any(board[h] for h in houses_of(1 - player))
    last = houses_of(player)[-1]
    return any(board[h] > (last - h if starving else 0) for h in houses_of(player))


@dataclass
class OwareSeen:
    """What the random games of Oware did, to show that they exercised each rule."""

    moves: int = 0
    captures: int = 0
    multiple_captures: int = 0  # captures of two or more houses
    grand_slams: int = 0  # moves that would have captured every seed the opponent has
    must_feed: int = 0  # positions where the opponent has no seeds and some move does not feed
    laps: int = 0  # 12 or more seeds: the sowing passes over the house it came from
    more_than_half: int = 0  # ended by a score over half the seeds
    stuck: int = 0  # ended by the player to move having no legal move
    repetition: int = 0  # ended by a position coming back
    draws: int = 0
    games: int = 0


def oware_play_along(moves: list[str], seen: OwareSeen, where: str) -> None:
    """Replay a compared game of Oware through both engines, checking the houses and the
    scores after every move (at the end, against OpenSpiel's collected scores), and note what
    each move did and how the game ended."""
    game, spiel_game = oware(), spiel_oware()
    index = {name: house for house, name in OWARE_SITES.items()}
    half = 6 * game.options["seeds"]
    state, spiel_state = game.initial_state(), spiel_game.new_initial_state()
    board = [game.options["seeds"]] * (2 * PITS)
    situations = {(tuple(board), 0)}
    for number, move in enumerate(moves):
        player = ROLES.index(state.mover)
        house = index[move]
        if not any(board[h] for h in houses_of(1 - player)) and any(
                0 < board[h] <= houses_of(player)[-1] - h for h in houses_of(player)):
            seen.must_feed += 1
        seen.laps += board[house] >= 2 * PITS
        sown, last = oware_sow(board, house)
        state = state.play(move)
        spiel_state.apply_action(house - player * PITS)
        counts, scores = ludeme_counts(game, state)
        board = [counts[OWARE_SITES[h]] for h in range(2 * PITS)]
        spiel_counts, spiel_scores = spiel_oware_counts(spiel_state)
        if spiel_state.is_terminal():  # OpenSpiel has collected the rows
            for role in ROLES:
                scores[role] += sum(board[h] for h in houses_of(ROLES.index(role)))
            counts = dict.fromkeys(counts, 0)
        if (counts, scores) != (spiel_counts, spiel_scores):
            raise OracleMismatch(
                f"oware: the positions differ in {where} after {number + 1} moves\n"
                f"  moves: {' '.join(moves[:number + 1])}\n"
                f"ludeme position:\n{state.to_text()}\nOpenSpiel position:\n{spiel_state}")
        seen.moves += 1
        theirs = houses_of(1 - player)
        taken = [h for h in theirs if sown[h] and not board[h]]
        run = []  # the houses the capture rule names: back from the last while 2 or 3
        h = last
        while h in theirs and sown[h] in (2, 3):
            run.append(h)
            h -= 1
        slam = bool(run) and sum(sown[h] for h in run) == sum(sown[h] for h in theirs)
        seen.grand_slams += slam
        assert sorted(taken) == ([] if slam else sorted(run)), f"{where}, move {number + 1}"
        seen.captures += bool(taken)
        seen.multiple_captures += len(taken) > 1
        situation = (tuple(board), 1 - player)
        repeated = situation in situations
        situations.add(situation)
    assert state.is_over and spiel_state.is_terminal()
    seen.games += 1
    seen.draws += state.winner is None
    _, scores = ludeme_counts(game, state)
    # Half the seeds each by captures alone cannot happen here: the capture of the last
    # seeds on the board would leave the opponent none, a grand slam, which captures nothing
    # (see `test_half_the_seeds_each_is_a_draw` for grandslam:"capture").
    assert min(scores.values()) < half
    if max(scores.values()) > half:
        seen.more_than_half += 1
    elif not can_move(board, 1 - player):
        seen.stuck += 1
    else:
        assert repeated, f"{where}: the game ended for no reason this test knows"
        seen.repetition += 1


def test_oware_boards_and_scores_agree_along_random_games() -> None:
    """Along 150 random games the houses and both scores agree after every move; the games
    include captures of several houses, grand slams (nothing captured), must-feed positions,
    laps of 12 or more seeds, and every end: a score over half the seeds, a player unable to
    move, and a position coming back; and draws, 24-24 once the rows are collected."""
    spiel_game = spiel_oware()
    seen = OwareSeen()
    for number in range(150):
        end = lockstep(oware(), spiel_game, OWARE_MAP, random_chooser(game_rng(32, number)),
                       label="oware", where=f"game {number} (seed 32)", max_plies=1000)
        oware_play_along(end.moves, seen, f"game {number} (seed 32)")
    assert seen.captures and seen.multiple_captures and seen.grand_slams, seen
    assert seen.must_feed and seen.laps, seen
    assert seen.more_than_half and seen.stuck and seen.repetition, seen
    assert seen.draws, seen


# The grand slam options (OpenSpiel has only "no capture") --------------------------------------


# South's f1 sows its two seeds into f2 (1 -> 2) and e2 (2 -> 3): the last house and the one
# before it hold 2 and 3, and they are all North has: a grand slam. 6 seeds on the board, 42
# captured.
GRAND_SLAM = "\n".join([". . . . 2 1", "1 . . . . 2", "mover: South",
                        "score South: 19", "score North: 23", ""])


def test_a_grand_slam_captures_nothing_by_default() -> None:
    game = oware()
    assert game.options["grandslam"] == "no capture"
    state = game.from_text(GRAND_SLAM)
    assert {str(m) for m in state.legal_moves()} == {"a1", "f1"}
    after = state.play("f1")
    assert not after.is_over and after.mover == "North"
    assert ludeme_counts(game, after) == ludeme_counts(game, game.from_text(
        "\n".join([". . . . 3 2", "1 . . . . .", "mover: North",
                   "score South: 19", "score North: 23", ""])))


def test_a_grand_slam_captures_everything_with_grandslam_capture() -> None:
    """North is left without seeds, cannot move, and the game ends: South 19 + 5 + the seed on
    a1 = 25 against 23."""
    game = oware(grandslam="capture")
    after = game.from_text(GRAND_SLAM).play("f1")
    counts, scores = ludeme_counts(game, after)
    assert scores == {"South": 24, "North": 23}
    assert counts["a1"] == 1 and sum(counts.values()) == 1
    assert after.is_over and after.winner == "South"


def test_a_grand_slam_may_not_be_made_with_grandslam_forbidden() -> None:
    game = oware(grandslam="forbidden")
    state = game.from_text(GRAND_SLAM)
    assert [str(m) for m in state.legal_moves()] == ["a1"]
    with pytest.raises(IllegalMoveError, match="grand slam"):
        state.play("f1")
    # Where the grand slam is the only move, the player cannot move: the game is over, and
    # each side takes its own row: South 20 + 2, North 23 + 3.
    only = GRAND_SLAM.replace("1 . . . . 2", ". . . . . 2").replace("South: 19", "South: 20")
    assert game.from_text(only).is_over and game.from_text(only).winner == "North"
    assert not oware().from_text(only).is_over


def test_half_the_seeds_each_is_a_draw() -> None:
    """With grandslam:"capture" South's grand slam takes North's last 5 seeds: 24-24 with the
    board empty, the end "both exactly half" (OpenSpiel's IsTerminal has it too, but under its
    rule the capture of the last seeds is a grand slam, so random games never reach it)."""
    game = oware(grandslam="capture")
    text = GRAND_SLAM.replace("1 . . . . 2", ". . . . . 2").replace("North: 23", "North: 24")
    state = game.from_text(text)
    after = state.play("f1")
    assert ludeme_counts(game, after)[1] == {"South": 24, "North": 24}
    assert after.is_over and after.winner is None


def test_the_grand_slam_options_disagree_with_openspiel() -> None:
    """OpenSpiel plays "no capture": with either other option the random games disagree."""
    for option in ("capture", "forbidden"):
        with pytest.raises(OracleMismatch):
            compare(oware(grandslam=option), spiel_oware(), OWARE_MAP, games=400, seed=31)


# A line to a repetition, in both engines ---------------------------------------------------------


def first_repetition(games: int, seed: int) -> list[str]:
    """The moves of the first of the random games (compared on the way) that ends by a
    position coming back, found by replaying each with `oware_play_along`."""
    for number in range(games):
        end = lockstep(oware(), spiel_oware(), OWARE_MAP, random_chooser(game_rng(seed, number)),
                       label="oware", where=f"game {number} (seed {seed})", max_plies=1000)
        seen = OwareSeen()
        oware_play_along(end.moves, seen, f"game {number} (seed {seed})")
        if seen.repetition:
            return end.moves
    raise AssertionError(f"no repetition in {games} games (seed {seed})")


def test_the_repetition_ends_the_game_in_both_exactly_then() -> None:
    """One move before the repetition neither engine has ended the game; the repeating move
    ends it in both, with the same winner (`follow` checks every decision)."""
    moves = first_repetition(100, 32)
    before = follow(oware(), spiel_oware(), OWARE_MAP, moves[:-1])
    assert not before.state.is_over and not before.spiel_state.is_terminal()
    end = follow(oware(), spiel_oware(), OWARE_MAP, moves)
    assert end.state.is_over and end.spiel_state.is_terminal()


# Wrong rules are caught ------------------------------------------------------------------------


KALAH_MUTANTS = {
    "sowing into the opponent's store": (' skip:(sites Named "Store" Next)', ""),
    "a capture with nothing facing": ("\n                      (> (pieces-on (opposite To)) 0)",
                                      ""),
    "no extra turn": ('(move-again (in To (sites Named "Store")))', ""),
    "the end when both rows are empty": ('(or (= (pieces-in (sites Named "Pits" Mover)) 0)',
                                         '(and (= (pieces-in (sites Named "Pits" Mover)) 0)'),
    "the stores alone are counted": ('(most (pieces-in (union (sites Named "Pits") '
                                     '(sites Named "Store"))))',
                                     '(most (pieces-in (sites Named "Store")))'),
}

OWARE_MUTANTS = {
    "the house sown from is sown into": ("origin:false", "origin:true"),
    "no must-feed": ('(or (named "the opponent must be given seeds"\n'
                     '                           (= (pieces-in (sites Named "Houses" Next)) 0))',
                     "(or false"),
    "only 2s are captured": ("(or (= (pieces-on Site) 2) (= (pieces-on Site) 3))",
                             "(= (pieces-on Site) 2)"),
    "captures go on into the mover's row": ('(in Site (sites Named "Houses" Next))',
                                            "(in Site (sites Board))"),
    "no end by repetition": ("(or (stuck Next) (repeated situational:true))", "(stuck Next)"),
    "repetition whoever is to move": ("(repeated situational:true)", "(repeated)"),
}


def mutant(path: Path, name: str, changes: tuple[str, ...], **options: Any) -> Any:
    source = path.read_text()
    for old, new in zip(changes[::2], changes[1::2], strict=True):
        if old not in source:
            pytest.skip(f"{path.name} no longer contains {old!r}")
        source = source.replace(old, new)
    return parse_game(source, source=name, **options)


@pytest.mark.parametrize("name", list(KALAH_MUTANTS))
def test_a_wrong_kalah_rule_is_caught(name: str) -> None:
    """The comparison notices kalah.game with one rule changed, within the random games of
    `test_kalah_random_games_agree_with_openspiel`."""
    wrong = mutant(GAMES / "kalah.game", name, KALAH_MUTANTS[name])
    with pytest.raises(OracleMismatch):
        compare(wrong, spiel_kalah(), KALAH_MAP, games=600, seed=21, max_plies=1000)


@pytest.mark.parametrize("name", list(OWARE_MUTANTS))
def test_a_wrong_oware_rule_is_caught(name: str) -> None:
    """The comparison notices oware.game with one rule changed, within the random games of
    `test_oware_random_games_agree_with_openspiel`."""
    wrong = mutant(GAMES / "oware.game", name, OWARE_MUTANTS[name])
    with pytest.raises(OracleMismatch):
        compare(wrong, spiel_oware(), OWARE_MAP, games=400, seed=31, max_plies=1000)


# The harness itself ---------------------------------------------------------------------------


def test_a_wrong_mapping_is_caught() -> None:
    """Reading North's pits or houses left to right (the way South's run) instead of right to
    left is caught by a few random games: the names match as a set only while every pit holds
    seeds."""
    north = own_pits(1)  # 8..13
    mirrored = dict(KALAH_SITES)
    mirrored.update({a: KALAH_SITES[north[0] + north[-1] - a] for a in north})
    with pytest.raises(OracleMismatch):
        compare(kalah(), spiel_kalah(), ActionMap(mirrored), games=20, seed=21)
    houses = dict(OWARE_SITES)
    houses.update({house: site(house - PITS, 2) for house in range(PITS, 2 * PITS)})
    with pytest.raises(OracleMismatch):
        compare(oware(), spiel_oware(), HouseActionMap(houses), games=20, seed=31)
