"""The playground's API (`ludeme serve`), through Starlette's TestClient: playing, the editor's
checks, the computer, positions and records, the random-game report, and the limits that keep
one server safe for several users. Skipped where the web extra is not installed."""

from __future__ import annotations

import re
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install -e "
                    "'.[web]'): the playground's API is not tested")

with warnings.catch_warnings():  # Starlette may prefer httpx2 to httpx, and say so
    warnings.simplefilter("ignore")
    try:
        from starlette.testclient import TestClient
    except (ImportError, RuntimeError):  # neither httpx2 nor httpx
        pytest.skip("Starlette's TestClient needs httpx2 or httpx: "
                    "pip install -e '.[web-test]'",
                    allow_module_level=True)

from interpreter.web import INSTALL_HINT, serve_command  # noqa: E402
from interpreter.web.server import Limits, create_app, load_files  # noqa: E402
from interpreter.web.sessions import SessionStore  # noqa: E402
from interpreter.web.tasks import histogram, playouts  # noqa: E402
from interpreter.web.worker import WorkerPool  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "games"
FILES = [GAMES / n for n in ("tictactoe.game", "hex.game", "mattock.game", "amazons.game")]
TTT = (GAMES / "tictactoe.game").read_text(encoding="utf-8")
# Tic-Tac-Toe without its draw rule, and with a win no 3 x 3 board allows: games get stuck
# on a full board, and the five-in-a-row rule never fires.
# What the page's requests carry (see interpreter/web/origin.py).
PAGE = {"X-Ludeme": "1"}
STUCK = TTT.replace("(if (full) (draw))", "(if (line 5) (win Next))")


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    app = create_app(load_files(FILES), Limits(workers=2))
    with TestClient(app, headers=PAGE) as c:
        yield c


class Tab:
    """One browser tab: a session of its own."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        r = client.post("/api/session", json={})
        assert r.status_code == 200
        self.headers = {"X-Session": r.json()["token"]}

    def post(self, path: str, status: int = 200, **body: Any) -> dict[str, Any]:
        r = self.client.post(path, json=body, headers=self.headers)
        assert r.status_code == status, r.text
        data: dict[str, Any] = r.json()
        return data

    def open(self, ident: str, **options: Any) -> dict[str, Any]:
        return self.post("/api/open", id=ident, options=options)

    def play(self, move: str, status: int = 200) -> dict[str, Any]:
        return self.post("/api/play", status, move=move)


@pytest.fixture
def tab(client: TestClient) -> Tab:
    return Tab(client)


def test_the_page_and_its_files_are_served_with_a_strict_policy(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert "script-src 'self'" in page.headers["content-security-policy"]
    for asset, kind in (("app.js", "javascript"), ("editor.js", "javascript"),
                        ("style.css", "css")):
        assert f"/static/{asset}" in page.text
        r = client.get(f"/static/{asset}")
        assert r.status_code == 200 and kind in r.headers["content-type"]
    # Nothing else is reachable: no static directory, no path into the file system.
    for path in ("/static/../server.py", "/static/index.html/..", "/static/tasks.py",
                 "/games/tictactoe.game", "/api/games/..%2F..%2Fpyproject.toml"):
        assert client.get(path).status_code == 404


def test_the_editor_has_the_language_from_the_registry(client: TestClient) -> None:
    import stdlib

    r = client.get("/api/grammar")  # no session: the same for every page
    assert r.status_code == 200 and r.headers["content-type"] == "application/json"
    data = r.json()
    ludemes = data["ludemes"]
    assert set(stdlib.REGISTRY) <= set(ludemes)
    for name, spec in stdlib.REGISTRY.items():
        entry = ludemes[name]
        assert entry["usage"] == spec.usage() and entry["returns"] == spec.returns.name
        assert entry["keywords"] == list(spec.keywords), name
        assert entry["summary"] and entry["example"].startswith("("), name
    assert ludemes["place"]["keywords"][:3] == ["piece", "if", "unless"]
    assert ludemes["line"]["summary"].startswith("True when `role` (by default the mover) has")
    assert ludemes["sites Empty"]["example"] == "(place (sites Empty))"
    # Heads with Uppercase members; the file's other forms; the constants of the types.
    assert {"Empty", "Side", "Occupied"} <= set(data["families"]["sites"])
    assert data["forms"] == ["define", "option", "match"]
    assert ludemes["option"]["keywords"] == ["min", "max", "choices", "letters-of", "pattern",
                                             "doc"]
    assert {"Mover", "Next", "Orthogonal", "NE", "To", "Friend"} <= set(data["constants"])


def test_only_the_listed_games_are_offered(client: TestClient, tab: Tab) -> None:
    games = client.get("/api/games").json()["games"]
    assert [g["id"] for g in games] == ["tictactoe", "hex", "mattock", "amazons"]
    assert games[0] == {"id": "tictactoe", "file": "tictactoe.game", "title": "Tic-Tac-Toe"}
    for ident in ("../pyproject", "/etc/passwd", "games/go", "go", None, 3):
        assert "no game" in tab.post("/api/open", 404, id=ident)["error"]


def test_a_whole_game_of_tictactoe(tab: Tab) -> None:
    data = tab.open("tictactoe")
    view = data["view"]
    assert data["rules"]["text"] == TTT and data["rules"]["options"] == []
    assert view["name"] == "Tic-Tac-Toe" and view["mover"] == "X"
    assert sorted(m["n"] for m in view["legal"]) == sorted(
        f"{c}{r}" for c in "abc" for r in "123")
    assert len(re.findall(r'class="cell" data-site="', view["svg"])) == 9
    for move in ("b2", "a1", "a3", "b1"):
        view = tab.play(move)["view"]
    assert [m["move"] for m in view["moves"]] == ["b2", "a1", "a3", "b1"]
    assert [m["role"] for m in view["moves"]] == ["X", "O", "X", "O"]
    assert "a1" not in {m["n"] for m in view["legal"]}
    view = tab.play("c1")["view"]
    assert view["over"] and view["winner"] == "X" and view["legal"] == []
    assert view["status"].startswith("Game over: X wins")
    assert 'class="last"' in view["svg"]
    assert "game is over" in tab.play("c2", 422)["error"]


def test_a_refused_move_says_why(tab: Tab) -> None:
    tab.open("tictactoe")
    tab.play("b2")
    assert tab.play("b2", 422)["error"] == "b2: b2 is occupied"
    assert "z9" in tab.play("z9", 422)["error"]
    assert tab.post("/api/view")["view"]["moves"] == [{"role": "X", "move": "b2"}]


def test_undo_takes_back_one_decision(tab: Tab) -> None:
    tab.open("tictactoe")
    assert "nothing to undo" in tab.post("/api/undo", 422)["error"]
    tab.play("b2")
    tab.play("a1")
    view = tab.post("/api/undo")["view"]
    assert [m["move"] for m in view["moves"]] == ["b2"] and view["mover"] == "O"


def test_swap_is_offered_when_the_pie_rule_allows_it(tab: Tab) -> None:
    view = tab.open("hex", size=5, pie=True)["view"]
    assert view["options"] == {"size": "5", "pie": "true"} and not view["can_swap"]
    view = tab.play("a1")["view"]
    assert view["can_swap"] and not view["can_pass"]
    view = tab.play("swap")["view"]
    assert "sides swapped" in view["status"]
    assert [m["move"] for m in view["moves"]] == ["a1", "swap"]


def test_a_turn_of_several_decisions(tab: Tab) -> None:
    view = tab.open("mattock", short=True)["view"]
    mover = view["mover"]
    first = view["legal"][0]["n"]
    view = tab.play(first)["view"]
    assert view["mover"] == mover and "decision 2 of this turn" in view["status"]
    assert view["can_pass"]
    view = tab.play("pass")["view"]
    assert view["mover"] != mover
    assert [m["role"] for m in view["moves"]] == [mover, mover]
    # A whole turn at once, as in the REPL.
    tab.post("/api/undo")
    tab.post("/api/undo")
    view = tab.play(f"{first} pass")["view"]
    assert view["mover"] != mover and len(view["moves"]) == 2


def test_moves_from_one_site_to_another(tab: Tab) -> None:
    view = tab.open("amazons", size=6)["view"]
    steps = [m for m in view["legal"] if m["k"] == "move"]
    assert steps and all(len(m["s"]) == 2 for m in steps)
    view = tab.play(steps[0]["n"])["view"]
    assert view["legal"] and all(m["k"] == "place" for m in view["legal"])  # the arrow
    refused = tab.play(f"{steps[0]['s'][1]}-{steps[0]['s'][0]}", 422)["error"]
    assert refused.startswith(f"{steps[0]['s'][1]}-{steps[0]['s'][0]}: ")


def test_the_computer_plays_a_role(tab: Tab) -> None:
    tab.open("tictactoe")
    assert "unknown agent" in tab.post("/api/agent", 422, role="O", agent="genius")["error"]
    assert "no role" in tab.post("/api/agent", 422, role="Z", agent="random")["error"]
    view = tab.post("/api/agent", role="O", agent="mcts:200")["view"]
    assert view["agents"] == {"O": "mcts:200"} and not view["ai_to_move"]
    view = tab.play("a1")["view"]
    assert view["ai_to_move"] and view["mover"] == "O"
    data = tab.post("/api/think")
    assert data["said"].startswith("O (mcts:200) plays ")
    assert "playouts" in data["said"]
    view = data["view"]
    assert view["mover"] == "X" and len(view["moves"]) == 2 and not view["ai_to_move"]
    # The person's undo takes back the computer's reply too.
    view = tab.post("/api/undo")["view"]
    assert view["moves"] == [] and view["mover"] == "X"
    # Nothing to do when the person is to move.
    assert tab.post("/api/think")["said"] is None


def test_the_editor_is_checked_with_lines_and_columns(tab: Tab) -> None:
    tab.open("tictactoe")
    broken = TTT.replace("(line 3)", "(lin 3)")
    data = tab.post("/api/check", text=broken, options={})
    assert not data["ok"]
    [d] = data["diagnostics"]
    assert (d["line"], d["column"], d["severity"], d["here"]) == (7, 10, "error", True)
    assert "unknown ludeme 'lin'" in d["message"]
    unclosed = tab.post("/api/check", text=TTT.replace("(square 3)", "(square 3"))
    assert not unclosed["ok"] and unclosed["options"] is None  # the declarations are unread
    assert unclosed["diagnostics"][0]["line"] == 2  # the "(game" left open
    assert "unclosed" in unclosed["diagnostics"][0]["message"]
    good = tab.post("/api/check", text=TTT)
    assert good["ok"] and good["diagnostics"] == [] and good["name"] == "Tic-Tac-Toe"
    # Checking changes nothing in play.
    assert tab.post("/api/view")["view"]["name"] == "Tic-Tac-Toe"


def test_options_are_read_from_the_declarations(tab: Tab) -> None:
    rules = tab.open("hex", size=4)["rules"]
    assert [o["name"] for o in rules["options"]] == ["size", "pie"]
    size = rules["options"][0]
    assert (size["kind"], size["default"], size["min"], size["max"]) == ("int", 11, 2, 26)
    assert rules["values"] == {"size": 4, "pie": False}
    text = rules["text"]
    out_of_range = tab.post("/api/check", text=text, options={"size": 99})
    assert not out_of_range["ok"] and "above its maximum" in \
        out_of_range["diagnostics"][0]["message"]
    assert out_of_range["diagnostics"][0]["line"] == 3  # where the option is declared
    # An option the text no longer declares is left out, not refused.
    assert tab.post("/api/check", text=TTT, options={"size": 5})["ok"]
    added = '(option "side" 4 min:3 max:6)\n' + TTT.replace("(square 3)", "(square #side)")
    data = tab.post("/api/check", text=added, options={"side": 5})
    assert data["ok"] and data["options"][0]["name"] == "side" and data["values"] == {"side": 5}


def test_play_this_restarts_with_the_edited_rules(tab: Tab) -> None:
    tab.open("tictactoe")
    tab.play("b2")
    bad = tab.post("/api/restart", 422, text=TTT.replace("(line 3)", "(lin 3)"))
    assert bad["diagnostics"][0]["line"] == 7
    assert len(tab.post("/api/view")["view"]["moves"]) == 1  # still the old game
    variant = '(option "side" 4 min:3 max:6)\n' + TTT.replace("(square 3)", "(square #side)")
    data = tab.post("/api/restart", text=variant, options={"side": 4})
    view = data["view"]
    assert view["moves"] == [] and len(view["legal"]) == 16 and view["options"] == {"side": "4"}
    assert data["rules"]["text"] == variant
    for move in ("a1", "d4", "b1", "d3", "c1"):
        view = tab.play(move)["view"]
    assert view["winner"] == "X"


def test_positions_load_and_copy(tab: Tab) -> None:
    tab.open("tictactoe")
    view = tab.post("/api/position", text="X X .\nO O .\n. . .\nmover: X")["view"]
    assert view["from_position"] and view["mover"] == "X" and view["moves"] == []
    view = tab.play("c3")["view"]
    assert view["winner"] == "X"
    assert view["position"].startswith("X X X\nO O .")
    error = tab.post("/api/position", 422, text="X X\nmover: X")["error"]
    assert error
    assert "initial position" in tab.post("/api/record/save", 422)["error"]


def test_records_save_and_load(client: TestClient, tab: Tab) -> None:
    tab.open("tictactoe")
    for move in ("b2", "a1", "a3"):
        tab.play(move)
    saved = tab.post("/api/record/save")
    assert saved["name"] == "tictactoe.rec"
    text = saved["text"]
    assert "game: tictactoe.game" in text and "b2\na1\na3\n" in text
    other = Tab(client)
    other.open("hex", size=3)
    data = other.post("/api/record/load", text=text)  # recognised by its hash: switches game
    assert data["view"]["name"] == "Tic-Tac-Toe" and data["rules"]["text"] == TTT
    assert [m["move"] for m in data["view"]["moves"]] == ["b2", "a1", "a3"]
    wrong = text.replace("a3\n", "a1\n")
    assert other.post("/api/record/load", 422, text=wrong)["error"].startswith(
        "record:7: a1: a1 is occupied")
    foreign = text.replace(text.split("sha256: ")[1][:64], "0" * 64)
    assert "sha256 differs" in other.post("/api/record/load", 422, text=foreign)["error"]
    assert "must begin with 'game:'" in other.post("/api/record/load", 422, text="hi")["error"]
    # A record of edited rules is recognised while they are played.
    variant = TTT.replace("(square 3)", "(square 4)")
    tab.post("/api/restart", text=variant)
    tab.play("d4")
    edited = tab.post("/api/record/save")["text"]
    assert "sha256 differs" in other.post("/api/record/load", 422, text=edited)["error"]
    assert tab.post("/api/record/load", text=edited)["view"]["moves"][0]["move"] == "d4"


def test_the_report_of_random_games(tab: Tab) -> None:
    tab.open("tictactoe")
    report = tab.post("/api/validate", text=STUCK, n=60, seed=3)["report"]
    assert report["games"] == 60 and not report["stopped_early"] and not report["capped"]
    for role in report["roles"]:
        assert 0 <= role["low"] <= role["rate"] <= role["high"] <= 1
    assert sum(r["count"] for r in report["roles"]) + report["stuck"]["count"] == 60
    assert report["never"] == ["5 in a row"]
    assert sum(b["count"] for b in report["length"]["histogram"]) == 60
    assert report["stuck"]["count"] > 0
    assert report["stuck"]["svg"].startswith("<svg") and "mover:" in report["stuck"]["text"]
    # The same seed, the same games.
    assert tab.post("/api/validate", text=STUCK, n=60, seed=3)["report"]["roles"] == \
        report["roles"]
    # Broken rules are reported as in the editor.
    bad = tab.post("/api/validate", 422, text=TTT.replace("(line 3)", "(lin 3)"), n=5)
    assert bad["diagnostics"][0]["line"] == 7
    assert "'n'" in tab.post("/api/validate", 400, text=TTT, n=0)["error"]


def test_random_games_are_capped_in_number_and_time() -> None:
    hex_text = (GAMES / "hex.game").read_text(encoding="utf-8")
    many = playouts(hex_text, "hex.game", {"size": 11}, 10 ** 6, seed=1, seconds=0.05)
    assert many["requested"] == 2000 and many["stopped_early"]
    assert 0 < many["games"] < 2000
    assert histogram([3, 3, 4, 9]) == [{"low": 3, "high": 3, "count": 2},
                                       {"low": 4, "high": 4, "count": 1},
                                       {"low": 5, "high": 5, "count": 0},
                                       {"low": 6, "high": 6, "count": 0},
                                       {"low": 7, "high": 7, "count": 0},
                                       {"low": 8, "high": 8, "count": 0},
                                       {"low": 9, "high": 9, "count": 1}]
    assert len(histogram(list(range(100)))) <= 12


def test_requests_are_bounded_in_size(client: TestClient, tab: Tab) -> None:
    tab.open("tictactoe")
    huge = "x" * (300 * 1024)
    r = client.post("/api/check", content=f'{{"text": "{huge}"}}', headers=tab.headers)
    assert r.status_code == 413 and "too large" in r.json()["error"]
    long_text = "// " + "y" * 120_000 + "\n" + TTT
    assert "too long" in tab.post("/api/check", 413, text=long_text)["error"]
    assert "not JSON" in client.post("/api/play", content="{", headers=tab.headers).json()[
        "error"]
    assert tab.post("/api/check", 400, text=TTT, options={"size": [1]})["error"]
    assert tab.post("/api/check", 400, text=5)["error"] == "'text' must be text"


def test_sessions_are_private_and_bounded(client: TestClient) -> None:
    alice, bob = Tab(client), Tab(client)
    alice.open("tictactoe")
    bob.open("hex", size=3)
    alice.play("b2")
    assert bob.post("/api/view")["view"]["moves"] == []
    assert bob.post("/api/view")["view"]["name"] == "Hex"
    assert alice.post("/api/view")["view"]["moves"] == [{"role": "X", "move": "b2"}]
    for headers in ({}, {"X-Session": "guess"}):
        r = client.post("/api/view", json={}, headers=headers)
        assert r.status_code == 401 and r.json()["expired"]
    store = SessionStore(limit=2)
    first, second = store.create(), store.create()
    assert store.get(first.token) is first  # first is now the most recently used
    third = store.create()
    assert store.get(second.token) is None and len(store) == 2
    assert store.get(first.token) is first and store.get(third.token) is third
    assert len({first.token, second.token, third.token}) == 3 and len(first.token) >= 32
    idle = SessionStore(limit=5, idle=0.0)
    assert idle.get(idle.create().token) is None


def test_a_text_that_compiles_slowly_is_refused() -> None:
    # Four patterns over a 64 x 64 board: more than a second to compile on an idle machine
    # (one pattern alone took about the 0.3 s allowed, so the test depended on the load).
    forms = " ".join(f'(forms ("{name}"))'
                     for name in ("Crosscut", "HardCorner", "Switch2x3", "Switch2x4"))
    big = ('(game "Big" (players {(player "A") (player "B")}) (board (square 64))\n'
           f'  (play (place (sites Empty) unless:(or {forms})))\n'
           '  (end (if (line 5) (win Mover))))')
    pool = WorkerPool(1)
    app = create_app(load_files(FILES[:1]), Limits(check_seconds=0.3), pool=pool)
    with TestClient(app, headers=PAGE) as c:
        tab = Tab(c)
        tab.open("tictactoe")  # a quick one passes (and the worker is started)
        data = tab.post("/api/check", text=big)
        assert not data["ok"] and "took too long" in data["diagnostics"][0]["message"]
        assert "took too long" in tab.post("/api/restart", 422, text=big)["diagnostics"][0][
            "message"]
        assert tab.post("/api/check", text=TTT)["ok"]  # a new worker took the killed one's place


def test_requests_must_name_this_server_when_it_listens_on_loopback() -> None:
    app = create_app(load_files(FILES[:1]), allowed_hosts=["localhost", "127.0.0.1"])
    with TestClient(app, base_url="http://127.0.0.1:8000") as c:
        assert c.get("/api/games").status_code == 200
    with TestClient(app, base_url="http://evil.example") as c:
        assert c.get("/api/games").status_code == 400


def test_serve_without_the_web_extra_says_how_to_install_it(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import interpreter.web as web

    monkeypatch.setattr(web, "web_available", lambda: False)
    assert serve_command([], "127.0.0.1", 0) == 1
    err = capsys.readouterr().err
    assert err.strip() == INSTALL_HINT and ".[web]" in err and "\n" not in err.strip()


def test_load_files_names_each_game_once(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "tictactoe.game").write_text(TTT, encoding="utf-8")
    files = load_files([GAMES / "tictactoe.game", tmp_path / "a" / "tictactoe.game"])
    assert [f.id for f in files] == ["tictactoe", "tictactoe-2"]
    from dsl.errors import GameError

    with pytest.raises(GameError, match="cannot read it"):
        load_files([tmp_path / "missing.game"])


def test_moves_of_every_kind_are_clicked_on_their_sites() -> None:
    """A sowing and a removal are one click on their site; a promotion is a move, one per
    piece (the page offers a button for each)."""
    from interpreter import load_game
    from interpreter.web.sessions import clickable

    kalah = load_game(GAMES / "kalah.game")
    sows = [clickable(m, kalah.sites) for m in kalah.initial_state().legal_moves()]
    assert sows[0] == {"n": "b1", "k": "place", "s": ["b1"]}
    chess = load_game(GAMES / "chess.game")
    ending = chess.from_text("k . . . . . . .\n. . . . . . . P\n. K . . . . . .\n"
                             + ". . . . . . . .\n" * 5 + "mover: White\n")
    promotions = [clickable(m, chess.sites) for m in ending.legal_moves()
                  if str(m).startswith("h7")]
    assert sorted(p["n"] for p in promotions) == ["h7-h8=B", "h7-h8=N", "h7-h8=Q", "h7-h8=R"]
    assert all(p["k"] == "move" and p["s"] == ["h7", "h8"] for p in promotions)
    morris = load_game(GAMES / "ninemensmorris.game")
    state = morris.initial_state()
    for move in ("a7", "a1", "d7", "g1"):
        state = state.play(move)
    taking = [clickable(m, morris.sites) for m in state.play("g7").legal_moves()]
    assert {"n": "a1", "k": "place", "s": ["a1"]} in taking


def test_state_changing_requests_come_only_from_the_page(client: TestClient) -> None:
    """Another site's page cannot create sessions or play (a form cannot send X-Ludeme, and
    the browser names the other origin); the page's own requests are served."""
    r = client.post("/api/session", json={}, headers={"X-Ludeme": "1"})
    assert r.status_code == 200
    token = r.json()["token"]
    for headers in ({"X-Ludeme": "0"},  # a form, or a script of another site without consent
                    {"Origin": "http://127.0.0.1:9999"},
                    {"Origin": "http://evil.example"},
                    {"Sec-Fetch-Site": "cross-site"}):
        other = TestClient(client.app, headers=headers)  # refused before the app: no lifespan
        r = other.post("/api/session", json={})
        error = r.json()["error"]
        assert r.status_code == 403 and ("refused" in error or "X-Ludeme" in error), error
        r = other.post("/api/open", json={"id": "tictactoe"}, headers={"X-Session": token})
        assert r.status_code == 403
    page = {"X-Ludeme": "1", "Origin": "http://testserver", "Sec-Fetch-Site": "same-origin",
            "X-Session": token}
    r = client.post("/api/open", json={"id": "tictactoe"}, headers=page)
    assert r.status_code == 200 and r.json()["view"]["name"] == "Tic-Tac-Toe"
    assert client.get("/api/games", headers={"X-Ludeme": "0"}).status_code == 200  # a read


def test_json_of_any_depth_gets_a_400_with_a_message(client: TestClient, tab: Tab) -> None:
    for body in ("[" * 100_000, '{"a":' * 50_000, "[" * 10_000 + "]" * 10_000):
        r = client.post("/api/play", content=body, headers=tab.headers)
        assert r.status_code == 400 and "JSON" in r.json()["error"], body[:20]


def test_validation_keeps_to_its_time() -> None:
    """A validation with a budget of 2 s answers within it, even when one random game alone
    takes longer (here, 12 s): the games stop between two decisions."""
    flood = ('(game "Flood" (players {(player "A") (player "B")}) (board (square 16))\n'
             '  (play (place (sites Empty) if:(reachable {(link (sight Adjacent) '
             'if:(is Empty To))} from:(sites Empty) to:(sites Side N))))\n'
             '  (end (if (line 5) (win Mover))))')
    app = create_app(load_files(FILES[:1]), Limits(playout_seconds=2.0, workers=1))
    with TestClient(app, headers=PAGE) as c:
        tab = Tab(c)
        tab.open("tictactoe")
        began = time.perf_counter()
        report = tab.post("/api/validate", text=flood, n=10)["report"]
        elapsed = time.perf_counter() - began
    assert elapsed < 2.3
    assert report["stopped_early"] and report["games"] == 0 and report["seconds"] < 2.0
