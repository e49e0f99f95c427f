"""The fast ways links are judged (connectivity.link takes its condition apart; sight and
neighbours list their occupied sites) give exactly what judging the whole condition at every
related site gives.

A condition wrapped in (named ...) keeps what it reads but hides its parts, so a link with it
is judged the plain way: each game below is played with its links both ways, and the two must
make the same games."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import load_game, parse_game
from stdlib.parts import parts_of
from stdlib.runtime import EMPTY, Ctx

GAME = """
(game "Links"
  (players {(player "Silver" symbol:"S") (player "Gold" symbol:"G")})
  (board (hexhex 5))
  (special "mine" (sites Centre) symbol:"*")
  (start
    (put "Gold" (sites Around (sites Centre) {NW E SW}))
    (put "Silver" (sites Around (sites Centre) {NE W SE})))
  (play (place (sites Empty) if:(has-link To DROP)))
  (end
    (if (not (reachable {TRAVEL} from:(sites Special "mine")
                        to:(intersection (sites Perimeter) (sites Empty)) for:Next))
        (win Mover))
    (if (stuck Next) (win Mover))))
"""

MINEWAY_TRAVEL = [
    "(link (sight Adjacent gap:1) if:(and (is Friend From) (is Friend To)))",
    '(link (sight Adjacent) if:(and (in From (sites Special "mine")) (is Friend To)))',
    "(link (sight Adjacent) if:(and (is Friend From) (is Empty To) (in To (sites Perimeter))))",
]

DROPS = [
    "(link (sight Adjacent gap:1) if:(is Friend To))",
    "(link (sight Adjacent max-gap:1) if:(and (is Friend To) (not (in To (sites Perimeter)))))",
    "(link (neighbours Adjacent) if:(or (is Enemy To) (is Friend To)))",
    "(link (sight Adjacent gap:2) if:(and (is Friend From) (is Enemy To)))",
    "(link (sight Adjacent) if:(and (and (is Friend From) (is Empty To)) "
    "(in To (sites Perimeter))))",
]

TRAVELS = [
    MINEWAY_TRAVEL,
    ["(link (neighbours Adjacent) if:(and (is Friend From) (not (is Enemy To))))",
     "(link (sight Adjacent gap:1 max-gap:2) if:(is Friend To))"],
    ["(link (sight Adjacent) if:(and (is Friend To) (in To (sites Perimeter)) "
     "(in To (sites Board))))",
     "(link (sight Adjacent))"],
]


def plain(link: str) -> str:
    """The link with its condition judged whole (its parts hidden by named)."""
    head, _, condition = link.partition(" if:")
    if not condition:
        return link
    return f'{head} if:(named "as written" {condition[:-1]}))'


def games(drop: str, travel: list[str]) -> tuple[object, object]:
    def text(wrap):  # type: ignore[no-untyped-def]
        return GAME.replace("DROP", wrap(drop)).replace(
            "TRAVEL", " ".join(wrap(t) for t in travel))
    return parse_game(text(lambda x: x)), parse_game(text(plain))


def record(g, seed: int) -> list[tuple[list[str], str | None]]:  # type: ignore[no-untyped-def]
    """Random games: their moves and winners (the reasons quote the rules as written)."""
    rng = random.Random(seed)
    out = []
    for _ in range(15):
        moves: list[str] = []
        state, _ = g.playout(rng, record=moves)
        out.append((moves, state.winner))
    return out


@pytest.mark.parametrize("drop", DROPS)
@pytest.mark.parametrize("travel", TRAVELS)
def test_taken_apart_links_make_the_same_games(drop: str, travel: list[str]) -> None:
    fast, slow = games(drop, travel)
    assert record(fast, 3) == record(slow, 3)


def test_mineway_links_make_the_same_games_as_judged_whole() -> None:
    path = Path(__file__).resolve().parent.parent / "games" / "mineway.game"
    text = path.read_text(encoding="utf-8")
    # Wrap each link condition of the file in named: the same rules, judged the plain way.
    slow_text = text
    for condition in ["(and (is Friend From) (is Friend To))",
                      '(and (in From (sites Special "mine")) (is Friend To))',
                      "(and (is Friend From) (is Empty To) (in To (sites Perimeter)))",
                      "(is Friend To))))"]:
        assert f"if:{condition}" in slow_text
        slow_text = slow_text.replace(f"if:{condition}", f'if:(named "as written" {condition})')
    for options in [{}, {"size": 4, "border_drops": True}]:
        fast = load_game(path, **options)
        slow = parse_game(slow_text, **options)
        assert record(fast, 11) == record(slow, 11)


def test_sight_lists_its_occupied_sites_in_order() -> None:
    fast, _ = games(DROPS[0], MINEWAY_TRAVEL)
    env = fast.env  # type: ignore[attr-defined]
    from stdlib.geometry import neighbours, sight

    relations = [sight(env), sight(env, gap=1), sight(env, gap=2, max_gap=3),
                 sight(env, max_gap=0), neighbours(env)]
    rng = random.Random(5)
    for _ in range(30):
        state, _ = fast.playout(rng, max_plies=rng.randrange(20))  # type: ignore[attr-defined]
        ctx = Ctx(state.board, 0, None, env, env.owner)
        for relation in relations:
            for s in range(env.topology.size):
                seen = list(relation(ctx, s))
                given = parts_of(relation)
                assert given.occupied(ctx, s) == [t for t in seen if state.board[t] != EMPTY]
                assert given.reads is not None and set(seen) <= given.reads(s)


def test_sight_with_a_gap_sees_past_empty_sites_only() -> None:
    fast, _ = games(DROPS[0], MINEWAY_TRAVEL)
    env = fast.env  # type: ignore[attr-defined]
    from stdlib.geometry import sight

    topo = env.topology
    board = [EMPTY] * topo.size
    s = topo.index[topo.names[0]]
    (d,) = [d for d in topo.directions if len(topo.rays[d][s]) >= 4][:1]
    ray = topo.rays[d][s]
    board[ray[2]] = 1
    ctx = Ctx(board, 0, None, env, env.owner)
    on_ray = lambda found: [t for t in found if t in ray]  # noqa: E731
    assert on_ray(sight(env, gap=1)(ctx, s)) == list(ray[1:3])
    assert on_ray(sight(env, gap=1, max_gap=1)(ctx, s)) == [ray[1]]
    assert on_ray(sight(env, gap=3)(ctx, s)) == []
    board[ray[0]] = 1
    assert on_ray(sight(env, gap=1)(ctx, s)) == []
    assert on_ray(sight(env)(ctx, s)) == [ray[0]]
