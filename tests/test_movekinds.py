"""The registry of move kinds (stdlib/movekinds.py): every kind any game makes is registered,
with its notation (written and read back), its integer actions, its analyze category and its
click; and the interpreter's modules iterate the registry instead of naming kinds."""

from __future__ import annotations

import functools
import inspect
import json
import random
import re
from collections import Counter
from pathlib import Path

import pytest
from console import ludeme

from interpreter import load_game
from interpreter.actions import action_space
from interpreter.analyze import analyze, categories, category
from interpreter.notation import parse_move
from interpreter.web.sessions import clickable
from stdlib.movekinds import kind_of, move_kinds, syntaxes, write

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted([*(ROOT / "games").glob("*.game"), *(ROOT / "examples").glob("*.game")])


@functools.cache
def kinds_made(path: Path) -> dict[str, tuple[str, tuple[int, ...]]]:
    """The kinds of the legal moves met in a few random games of a file: one move (its
    notation and sites) per kind."""
    game = load_game(path)
    rng = random.Random(3)
    found: dict[str, tuple[str, tuple[int, ...]]] = {}
    for _ in range(3):
        state = game.initial_state()
        for _ in range(120):
            if state.is_over:
                break
            moves = state.legal_moves()
            if not moves:
                break
            for m in moves:
                found.setdefault(m.kind, (str(m), m.sites))
            state = state.play(rng.choice(moves))
    return found


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_every_kind_a_game_makes_is_registered(path: Path) -> None:
    """Each kind met has an entry: an analyze category, a click, an action number that decodes
    back to it, and notation that reads back as a key its kind matches."""
    game = load_game(path)
    space = action_space(game)
    for kind, (text, sites) in kinds_made(path).items():
        entry = kind_of(kind)
        assert entry is not None, f"{path.stem}: move kind {kind!r} is not registered"
        assert category(kind) in categories()
        assert entry.click
        assert write(kind, sites, game.sites) == text
        key = parse_move(text, game.env.topology.index)
        assert key == (kind, sites) or entry.matches(kind, sites, key), (kind, text, key)
        assert write(*key, game.sites) == text  # what was read writes the same text
        assert kind in space.by_kind or entry.block is None


def test_every_kind_made_has_an_action_and_a_click() -> None:
    """Across the games, each kind made encodes to an action of its own block, and the click the
    page makes for it is a registered click."""
    clicks = {k.click for k in move_kinds()}
    for path in FILES:
        game = load_game(path)
        space = action_space(game)
        rng = random.Random(5)
        state = game.initial_state()
        for _ in range(80):
            if state.is_over or not state.legal_moves():
                break
            for m in state.legal_moves():
                action = space.encode(m)
                assert space.decode(state, action) == m
                assert clickable(m, game.sites)["k"] in clicks
            state = state.play(rng.choice(state.legal_moves()))


def test_the_kinds_made_include_every_family_of_the_games() -> None:
    """The random games above do meet sowing, removal and promotion (so the test covers them)."""
    made = set().union(*(kinds_made(p) for p in FILES))
    assert {"place", "move", "pass", "multi", "exchange", "remove", "sow", "swap"} <= made, made


# A few sites of each syntax, as the kind of that syntax records them.
SAMPLES: dict[str, list[tuple[int, ...]]] = {
    "word": [()],
    "site": [(0,), (4,), (8,)],
    "from-to": [(0, 1), (8, 0), (3, 5)],
    "sites": [(0, 2), (1, 4, 7), (5,)],
    "exchange": [(0, 1), (2, 7)],
    "promotion": [(0, 1), (7, 6)],
    "roll": [(3,), (1, 6), (2, 2, 5)],  # a chance outcome: the values rolled
    "drop": [(0,), (8,)],  # a piece from the hand, e.g. P*a1
    "enter": [(1,), (8,)],  # from the mover's bar, written with the point entered: bar-b1
    "off": [(0,), (8,)],  # borne off: a1-off
    "transform": [()],  # a region turned: NE:cw (the kind says which)
    "wall": [(0, 3), (4, 5), (1, 2)],  # a wall: its cell and the cell across, a1h b2v b1v
}
# Members of families whose kinds are not named by one letter (move=Q, drop=P).
FAMILY_MEMBERS: dict[str, tuple[str, ...]] = {"transform=": ("NE:cw", "Q1:flip")}


def test_notation_round_trips_for_each_registered_kind() -> None:
    """parse(notation(kind, sites)) gives back the move, for every registered kind (a sowing,
    recorded with the pit it ends in, reads as its first site and matches it)."""
    names = ("a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3")
    index = {n: i for i, n in enumerate(names)}
    assert {s.name for s in syntaxes()} <= SAMPLES.keys(), "add samples for a new syntax"
    for entry in move_kinds():
        members = FAMILY_MEMBERS.get(entry.name, ("Q", "N"))
        kinds = [entry.name + member for member in members] if entry.family else [entry.name]
        for kind in kinds:
            for sites in SAMPLES[entry.syntax.name]:
                if entry.name == "sow":
                    sites = (sites[0], 5)  # the pit sown from, and the last pit sown into
                text = write(kind, sites, names)
                key = parse_move(text, index)
                assert key == (kind, sites) or (key[0] != kind and entry.matches(kind, sites,
                                                                                 key)), text
                assert write(*key, names) == text
                assert parse_move(text.upper() if entry.syntax.name != "promotion" else text,
                                  index) == key


def test_action_table_places_do_not_move() -> None:
    """The kinds' places in the action table, as they were when the table was a dict."""
    table = [k.name for k in move_kinds() if k.block is not None and not k.family]
    assert table[:8] == ["place", "move", "exchange", "multi", "pass", "swap", "remove", "sow"]


def test_analyze_counts_sowing() -> None:
    """`analyze --json` counts every kind of move: Kalah's are sowings, and every move played
    is counted."""
    result = ludeme("analyze", "games/kalah.game", "-n", "3", "--seed", "2", "--json")
    assert result.returncode == 0, result.stderr
    s = json.loads(result.stdout)
    assert set(s["moves"]) == {"sow"}
    assert s["moves"]["sow"]["count"] == round(s["length"]["mean"] * s["games"])


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_analyze_counts_every_move(path: Path) -> None:
    """In every game, the counts of the kinds of move sum to the moves played."""
    game = load_game(path)
    report = analyze(game, "random", 2, seed=4, workers=1, max_plies=150)
    s = report.summary()
    assert not s["crashes"]
    played = sum(r.plies for r in report.results)
    assert sum(v["count"] for v in s["moves"].values()) == played
    assert set(s["moves"]) <= set(categories())


def test_interpreter_modules_name_no_family() -> None:
    """notation.py, actions.py, analyze.py and Game.find/why_illegal name no family of games:
    they iterate the registry."""
    import interpreter.actions
    import interpreter.analyze
    import interpreter.notation
    from interpreter.game import Game

    family = re.compile(r"sow|pile|castl|chess|mill|draught|\bko\b", re.IGNORECASE)
    sources = [inspect.getsource(m) for m in (interpreter.actions, interpreter.analyze,
                                              interpreter.notation)]
    sources += [inspect.getsource(Game.find), inspect.getsource(Game.why_illegal)]
    for source in sources:
        code = [line.split("#")[0] for line in source.splitlines()]
        assert not [line for line in code if family.search(line)]


def test_kinds_are_counted_by_category() -> None:
    assert category("move=Q") == category("move=N") == "promotion"
    assert category("sow") == "sow" and category("remove") == "remove"
    assert Counter(category(k.name) for k in move_kinds())  # every kind has one


def test_promotions_are_a_registered_family() -> None:
    """A promotion (`h7-h8=Q`, kind "move=Q") is written, read back, numbered after the table
    by letter, counted as a promotion and clicked as a move; written without its piece it is
    refused with a hint."""
    chess = load_game(ROOT / "games" / "chess.game")
    ending = chess.from_text("k . . . . . . .\n. . . . . . . P\n. K . . . . . .\n"
                             + ". . . . . . . .\n" * 5 + "mover: White\n")
    space = action_space(chess)
    promotions = [m for m in ending.legal_moves() if str(m).startswith("h7")]
    assert sorted(m.kind for m in promotions) == ["move=B", "move=N", "move=Q", "move=R"]
    for m in promotions:
        entry = kind_of(m.kind)
        assert entry is not None and entry.family and entry.moves_piece
        assert parse_move(str(m), chess.env.topology.index) == m.key
        assert parse_move(str(m).lower(), chess.env.topology.index) == m.key
        assert space.decode(ending, space.encode(m)) == m
        assert space.encode(m) >= space.by_kind["move"][0] + len(chess.sites) ** 2
        assert category(m.kind) == "promotion"
        assert clickable(m, chess.sites)["k"] == "move"
    with pytest.raises(Exception, match="h7-h8 promotes: say to what"):
        ending.play("h7-h8")
    with pytest.raises(Exception, match="b6-c6 does not promote"):
        ending.play("b6-c6=Q")
