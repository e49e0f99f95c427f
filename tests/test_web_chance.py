"""The playground with dice (examples/dice-race.game): the server rolls for chance — at the
start, after each decision that ends a turn and after the computer's move — with each
session's dice seeded, shows the roll in the moves and the view's `dice`, and an undo goes
back to the person's decision with the same roll. Skipped where the web extra is missing."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    try:
        from starlette.testclient import TestClient
    except (ImportError, RuntimeError):
        pytest.skip("Starlette's TestClient needs httpx2 or httpx", allow_module_level=True)

from interpreter.web.server import Limits, create_app, load_files  # noqa: E402
from tests.test_web import Tab  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
RACE = ROOT / "examples" / "dice-race.game"


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    app = create_app(load_files([RACE]), Limits(workers=1))
    with TestClient(app, headers={"X-Ludeme": "1"}) as c:
        yield c


def rolls(view: dict) -> list[str]:
    return [m["move"] for m in view["moves"] if m["move"].startswith("roll:")]


def test_the_server_rolls_and_the_view_shows_the_dice(client: TestClient) -> None:
    tab = Tab(client)
    view = tab.open("dice-race")["view"]
    assert [m["role"] for m in view["moves"]] == ["White"] and len(rolls(view)) == 1
    assert view["mover"] == "White" and len(view["dice"]) == 1
    assert all(not m["n"].startswith("roll:") for m in view["legal"])
    move = view["legal"][0]["n"]
    view = tab.play(move)["view"]
    moves = [m["move"] for m in view["moves"]]
    assert moves[1] == move and moves[2].startswith("roll:") and view["mover"] == "Black"
    assert view["dice"] == [int(moves[2][5:])]
    # Undo goes back to White's decision, with White's roll kept.
    back = tab.post("/api/undo")["view"]
    assert [m["move"] for m in back["moves"]] == moves[:1] and back["mover"] == "White"


def test_the_computers_move_is_followed_by_the_next_roll(client: TestClient) -> None:
    tab = Tab(client)
    tab.open("dice-race")
    tab.post("/api/agent", role="Black", agent="random")
    view = tab.play(tab.post("/api/view")["view"]["legal"][0]["n"])["view"]
    assert view["ai_to_move"]
    data = tab.post("/api/think")
    view = data["view"]
    assert data["said"].startswith("Black (random) plays ")
    assert view["mover"] == "White" and view["moves"][-1]["move"].startswith("roll:")
    assert view["moves"][-1]["role"] == "White"


def test_the_page_shows_the_roll_as_die_faces(tmp_path: Path) -> None:
    pytest.importorskip("selenium", reason="the browser tests need selenium")
    from browser_lib import Page, chromium, serving
    from selenium.webdriver.common.by import By

    with serving(("../examples/dice-race.game",)) as address, chromium() as driver:
        page = Page(driver, address, "dice-race")
        page.until(lambda d: not d.find_element(By.ID, "dice").get_attribute("hidden"))
        dice = page.text("dice")
        assert len(dice) == 1 and "\u2680" <= dice <= "\u2685"
        assert "rolled" in page.attribute("dice", "class")
        assert page.attribute("dice", "title").startswith("White rolled ")
        assert "dice" in page.text("status")
