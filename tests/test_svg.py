"""SVG pictures of positions: parsed back with xml.etree and checked element by element."""

from __future__ import annotations

import io
import random
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from console import ludeme

from interpreter import load_game, parse_game
from interpreter.game import Game, State
from interpreter.record import format_record
from interpreter.repl import Repl
from interpreter.svg import NEUTRAL, render_svg

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "games"
NS = "{http://www.w3.org/2000/svg}"

SMALL: dict[str, dict[str, object]] = {  # options that keep the random games quick
    "hex": {"size": 5}, "mincut": {"size": 5}, "minefield": {"size": 5},
    "mineway": {"size": 4}, "mattock": {"short": True}, "thruway": {"size": 5},
}


def game(name: str, **options: object) -> Game:
    return load_game(GAMES / f"{name}.game", **options)


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg"
    return root


def by_class(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def occupied(state: State) -> dict[str, str]:
    return {site: piece for site in state.game.sites
            if (piece := state.piece_at(site)) is not None}


def random_state(g: Game, plies: int, seed: int) -> State:
    rng = random.Random(seed)
    state = g.initial_state()
    for _ in range(plies):
        if state.is_over or not state.legal_moves():
            break
        state = state.play(rng.choice(state.legal_moves()))
    return state


@pytest.mark.parametrize("name", sorted(p.stem for p in GAMES.glob("*.game")))
def test_one_piece_element_per_piece_in_every_game(name: str) -> None:
    g = game(name, **SMALL.get(name, {}))
    for plies in (0, 7, 15):
        state = random_state(g, plies, seed=plies)
        root = parse(render_svg(state))
        pieces = by_class(root, "piece")
        assert {e.get("data-site"): e.get("data-piece") for e in pieces} == occupied(state)
        assert len(pieces) == len(occupied(state))
        cells = by_class(root, "cell")
        assert sorted(e.get("data-site") or "" for e in cells) == sorted(g.sites)
        if g.env.topology.shape == "graph":  # a board of points: each a circle
            assert all(e.tag == f"{NS}circle" for e in cells)
            continue
        corners = 6 if g.env.topology.shape == "hex" else 4
        assert all(len((e.get("points") or "").split()) == corners for e in cells)


@pytest.mark.parametrize("name", ["tictactoe", "hex", "mineway"])
def test_everything_is_inside_the_picture(name: str) -> None:
    g = game(name, **SMALL.get(name, {}))
    root = parse(render_svg(random_state(g, 8, seed=1)))
    left, top, width, height = (float(v) for v in (root.get("viewBox") or "").split())
    points = []
    for e in root.iter():
        if e.get("points"):
            points += [tuple(map(float, p.split(","))) for p in (e.get("points") or "").split()]
        if e.tag == f"{NS}circle":
            r = float(e.get("r") or 0)
            x, y = float(e.get("cx") or 0), float(e.get("cy") or 0)
            points += [(x - r, y - r), (x + r, y + r)]
    assert points
    for x, y in points:
        assert left <= x <= left + width and top <= y <= top + height, (x, y)


def test_colours_of_roles_and_neutral_pieces() -> None:
    hexgame = game("hex", size=3)
    root = parse(render_svg(hexgame.initial_state().play("b2").play("a1")))
    fills = {e.get("data-piece"): e.get("fill") for e in by_class(root, "piece")}
    assert fills["Red"] != fills["Blue"]
    assert fills["Red"] == "#d62728"  # a role named after a colour gets it
    mattock = game("mattock", short=True)
    state = random_state(mattock, 4, seed=2)
    root = parse(render_svg(state))
    tiles = [e for e in by_class(root, "piece") if e.get("data-piece") == "Tile"]
    assert tiles and all(e.get("fill") == NEUTRAL for e in tiles)
    miners = [e for e in by_class(root, "piece") if e.get("data-piece") in ("Red", "Blue")]
    assert len(miners) == 6
    assert len(by_class(root, "terrain")) == 6  # each miner stands on a tile


def test_x_and_o_are_lettered() -> None:
    ttt = game("tictactoe")
    root = parse(render_svg(ttt.initial_state().play("b2").play("a1")))
    assert sorted(e.text or "" for e in by_class(root, "symbol")) == ["O", "X"]


def test_special_site_is_marked() -> None:
    g = game("mineway", size=4)
    root = parse(render_svg(g.initial_state()))
    special = by_class(root, "special")
    assert [e.get("data-site") for e in special] == [g.sites[s] for s in
                                                     sorted(g.env.special_symbol)]
    assert "mine" in "".join(special[0].itertext())


def test_last_move_is_outlined_when_known() -> None:
    ttt = game("tictactoe")
    state = ttt.initial_state().play("b2")
    root = parse(render_svg(state))
    assert [e.get("data-site") for e in by_class(root, "last")] == ["b2"]
    assert by_class(parse(render_svg(ttt.initial_state())), "last") == []
    from_text = ttt.from_text(state.to_text())  # a position text does not say
    assert by_class(parse(render_svg(from_text)), "last") == []
    explicit = parse(render_svg(from_text, last=[ttt.env.topology.index["b2"]]))
    assert [e.get("data-site") for e in by_class(explicit, "last")] == ["b2"]


def test_a_turn_of_several_decisions_outlines_all_it_changed() -> None:
    two = parse_game('(game "Two" (players {(player "X") (player "O")}) (board (square 3))'
                     ' (play (place (sites Empty)) (place (sites Empty)))'
                     ' (end (if (line 3) (win Mover)) (if (full) (draw))))')
    state = two.initial_state().play("a1").play("c3")
    root = parse(render_svg(state))
    assert sorted(e.get("data-site") or "" for e in by_class(root, "last")) == ["a1", "c3"]


def test_coordinates() -> None:
    ttt = game("tictactoe")
    texts = {e.text for e in by_class(parse(render_svg(ttt.initial_state())), "coord")}
    assert {"a", "b", "c", "1", "2", "3"} <= texts
    hexgame = game("hex", size=3)
    texts = {e.text for e in by_class(parse(render_svg(hexgame.initial_state())), "coord")}
    assert {"1", "2", "3"} <= texts and set(hexgame.sites) <= texts  # names in empty cells
    bare = parse(render_svg(ttt.initial_state(), coordinates=False, caption=False))
    assert by_class(bare, "coord") == [] and by_class(bare, "status") == []


def test_status_caption() -> None:
    ttt = game("tictactoe")
    won = ttt.from_text("X X X\nO O .\n. . .\nmover: O")
    (caption,) = by_class(parse(render_svg(won)), "status")
    assert "X wins" in (caption.text or "")


def test_names_are_escaped() -> None:
    g = parse_game('(game "Cats & <Dogs>" (players {(player "Red & Co") (player "O")})'
                   ' (board (square 3)) (play (place (sites Empty)))'
                   ' (end (if (line 3) (win Mover))))')
    root = parse(render_svg(g.initial_state().play("a1")))
    assert root.find(f"{NS}title") is not None
    assert root.find(f"{NS}title").text == "Cats & <Dogs>"  # type: ignore[union-attr]
    assert [e.get("data-piece") for e in by_class(root, "piece")] == ["Red & Co"]


def test_repr_svg_for_jupyter() -> None:
    state = game("hex", size=3).initial_state().play("b2")
    assert state._repr_svg_() == render_svg(state)


# Command line and REPL ------------------------------------------------------------------------

def test_render_command(tmp_path: Path) -> None:
    out = tmp_path / "hex.svg"
    r = ludeme("render", "games/hex.game", "--option", "size=4", "-o", str(out))
    assert r.returncode == 0, r.stderr
    root = parse(out.read_text(encoding="utf-8"))
    assert len(by_class(root, "cell")) == 16 and by_class(root, "piece") == []
    stdout = ludeme("render", "games/tictactoe.game")
    assert stdout.returncode == 0 and len(by_class(parse(stdout.stdout), "cell")) == 9


def test_render_a_position_and_a_record(tmp_path: Path) -> None:
    ttt = game("tictactoe")
    (tmp_path / "pos.txt").write_text("X . .\n. O .\n. . X\nmover: O\n", encoding="utf-8")
    r = ludeme("render", "games/tictactoe.game", "--position", str(tmp_path / "pos.txt"),
               "-o", str(tmp_path / "pos.svg"))
    assert r.returncode == 0, r.stderr
    root = parse((tmp_path / "pos.svg").read_text(encoding="utf-8"))
    assert {e.get("data-site"): e.get("data-piece") for e in by_class(root, "piece")} == \
        {"a3": "X", "b2": "O", "c1": "X"}
    rec = tmp_path / "g.rec"
    moves = ["b2", "a1", "c3"]
    final = ttt.initial_state()
    for m in moves:
        final = final.play(m)
    rec.write_text(format_record(ttt, GAMES / "tictactoe.game", rec, moves, final),
                   encoding="utf-8")
    r = ludeme("render", "games/tictactoe.game", "--record", str(rec), "-o",
               str(tmp_path / "rec.svg"))
    assert r.returncode == 0, r.stderr
    root = parse((tmp_path / "rec.svg").read_text(encoding="utf-8"))
    assert len(by_class(root, "piece")) == 3
    assert [e.get("data-site") for e in by_class(root, "last")] == ["c3"]


@pytest.mark.parametrize("args, needle", [
    (["--position", "missing.txt"], "missing.txt"),
    (["--position", "bad.txt"], "unknown symbol"),
    (["--record", "bad.rec"], "bad.rec:1:"),
    (["-o", "no/such/dir/x.svg"], "no/such/dir/x.svg"),
])
def test_render_errors_are_clean(tmp_path: Path, args: list[str], needle: str) -> None:
    (tmp_path / "bad.txt").write_text("X . Z\n. . .\n. . .\n", encoding="utf-8")
    (tmp_path / "bad.rec").write_text("nonsense\n", encoding="utf-8")
    r = ludeme("render", str(GAMES / "tictactoe.game"), *args, cwd=tmp_path)
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    assert needle in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr


def test_repl_svg_command(tmp_path: Path) -> None:
    out = io.StringIO()
    path = tmp_path / "now.svg"
    repl = Repl(game("tictactoe"), stdin=io.StringIO(f"b2\nsvg {path}\nsvg\nquit\n"),
                stdout=out)
    repl.cmdloop()
    assert f"wrote {path}" in out.getvalue()
    assert "error: svg needs a file name" in out.getvalue()
    root = parse(path.read_text(encoding="utf-8"))
    assert [e.get("data-site") for e in by_class(root, "piece")] == ["b2"]
