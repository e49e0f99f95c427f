"""The playground end to end, in a real headless browser: `ludeme serve` in a subprocess, the
page in Chromium driven by Selenium (the system's chromium and chromedriver, so nothing is
downloaded). Play a whole game of Tic-Tac-Toe by clicks, see a refused move's reason, break
the rules in the editor and see the error at its line, fix them and play the variant, let the
computer play, and look at the random-game report.

Skipped, with the reason, where the web extra, Selenium, or Chromium is missing. Set
LUDEME_SCREENSHOT=FILE.png to save a picture of the page (the README's comes from here).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install -e "
                    "'.[web]'): the playground is not tested in a browser")
pytest.importorskip("uvicorn", reason="uvicorn (the web extra) is not installed")
pytest.importorskip("selenium", reason="selenium is not installed (pip install -e "
                    "'.[web-test]'): "
                    "the playground is not tested in a browser")

from console import command  # noqa: E402
from selenium import webdriver  # noqa: E402
from selenium.common.exceptions import WebDriverException  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.remote.webelement import WebElement  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "games"
TTT = (GAMES / "tictactoe.game").read_text(encoding="utf-8")


def _find(*candidates: str) -> str | None:
    for c in candidates:
        path = shutil.which(c)
        if path is not None:
            return path
    return None


CHROMIUM = _find("/usr/bin/chromium", "chromium", "chromium-browser")
CHROMEDRIVER = _find("/usr/bin/chromedriver", "chromedriver")
if CHROMIUM is None or CHROMEDRIVER is None:
    pytest.skip("no chromium and chromedriver here (apt-get install chromium chromium-driver): "
                "the playground is not tested in a browser", allow_module_level=True)

WAIT = 15.0  # seconds any one expected change may take


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """`ludeme serve` on a free port; its address."""
    files = [str(GAMES / n) for n in ("tictactoe.game", "hex.game")]
    proc = subprocess.Popen([*command(), "serve", *files, "--port", "0"], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        if "http://" not in line:
            proc.kill()
            _, err = proc.communicate(timeout=10)
            pytest.fail(f"ludeme serve did not start: {line}{err}")
        yield line.split("http://", 1)[1].split()[0].rstrip("/")
    finally:
        proc.terminate()
        try:
            proc.communicate(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()


@pytest.fixture(scope="module")
def browser() -> Iterator[webdriver.Chrome]:
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    profile = tempfile.mkdtemp(prefix="ludeme-chromium-")
    for arg in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
                f"--user-data-dir={profile}", "--window-size=1300,1000"):
        options.add_argument(arg)
    # A saved record is a download: into the throw-away profile, not the user's directory.
    options.add_experimental_option("prefs", {"download.default_directory": profile,
                                              "download.prompt_for_download": False})
    try:
        driver = webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)),
                                  options=options)
    except WebDriverException as exc:
        shutil.rmtree(profile, ignore_errors=True)
        pytest.skip(f"chromium could not be started: {exc.msg}")
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


class Page:
    """The playground page, as a person uses it."""

    def __init__(self, driver: webdriver.Chrome, address: str, game: str) -> None:
        self.driver = driver
        # A session of its own (the tab keeps its token in sessionStorage), and a new page,
        # not just another #fragment of the same one.
        driver.get(f"http://{address}/static/style.css")
        driver.execute_script("sessionStorage.clear()")
        driver.get(f"http://{address}/#{game}")
        self.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready")
                   == "yes")
        self.until(lambda d: len(self.cells()) > 0)

    def until(self, condition: Callable[[Any], Any], what: str = "") -> Any:
        return WebDriverWait(self.driver, WAIT, poll_frequency=0.05).until(condition, what)

    def by_id(self, ident: str) -> WebElement:
        return self.driver.find_element(By.ID, ident)

    def attribute(self, ident: str, name: str) -> str:
        return self.by_id(ident).get_attribute(name) or ""

    def text(self, ident: str) -> str:
        return self.by_id(ident).text

    def cells(self) -> list[WebElement]:
        return self.driver.find_elements(By.CSS_SELECTOR, "#board .cell")

    def moves(self) -> list[str]:
        """The move list's entries (read at once: the list is redrawn after every move)."""
        moves: list[str] = self.driver.execute_script(
            "return [...document.querySelectorAll('#moves li')].map(li => li.textContent)")
        return moves

    def click_site(self, site: str) -> None:
        """Click a site: its piece if it has one (it lies on top), else its cell."""
        found = self.driver.find_elements(By.CSS_SELECTOR, f'#board .piece[data-site="{site}"]')
        found = found or self.driver.find_elements(By.CSS_SELECTOR,
                                                   f'#board .cell[data-site="{site}"]')
        assert found, f"no site {site} on the board"
        found[0].click()

    def play(self, *sites: str) -> None:
        """Click each site in turn, waiting for each move to be made."""
        for site in sites:
            self.click_once(site)

    def click_once(self, site: str) -> None:
        """Click a site and wait for the move it makes."""
        before = len(self.moves())
        self.click_site(site)
        self.until(lambda d: len(self.moves()) > before, f"the move {site}")

    def set_source(self, text: str) -> None:
        """Replace the editor's text, as typing would (an input event)."""
        self.driver.execute_script(
            "const s = document.getElementById('source'); s.value = arguments[0];"
            "s.dispatchEvent(new Event('input'));", text)


def test_a_whole_game_of_tictactoe_by_clicks(browser: webdriver.Chrome, server: str) -> None:
    page = Page(browser, server, "tictactoe")
    assert len(page.cells()) == 9
    assert page.text("status") == "X to move."
    assert len(browser.find_elements(By.CSS_SELECTOR, "#board .cell.target")) == 9
    page.play("b2", "a1")
    assert page.moves() == ["X b2", "O a1"]
    # A refused move: the interpreter's reason, and nothing played.
    page.click_site("b2")
    page.until(lambda d: page.text("message") == "b2: b2 is occupied")
    assert "error" in page.attribute("message", "class")
    assert len(page.moves()) == 2
    # Undo, and play on.
    page.by_id("undo").click()
    page.until(lambda d: page.moves() == ["X b2"])
    page.play("a1", "a3", "b1", "c1")
    page.until(lambda d: "X wins" in page.text("status"))
    assert page.moves() == ["X b2", "O a1", "X a3", "O b1", "X c1"]
    assert browser.find_elements(By.CSS_SELECTOR, "#board .cell.target") == []
    assert page.attribute("position", "value").startswith("X . .\n. X .\nO O X")


def test_an_error_in_the_editor_and_the_variant_played(browser: webdriver.Chrome,
                                                       server: str) -> None:
    page = Page(browser, server, "tictactoe")
    page.until(lambda d: "no errors" in page.text("check-state"))
    page.set_source(TTT.replace("(line 3)", "(lin 3)"))
    item = page.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#diagnostics li.error"))[0]
    assert item.text.startswith("line 7, column 10:")
    assert "unknown ludeme 'lin'" in item.text
    gutter = browser.find_element(By.CSS_SELECTOR, '#gutter span[data-line="7"]')
    assert "error" in (gutter.get_attribute("class") or "")
    assert page.text("check-state") == "1 error"
    # "Play this" refuses rules with errors, and play goes on as it was.
    page.by_id("play-this").click()
    page.until(lambda d: page.text("message") == "the rules have errors")
    assert len(page.cells()) == 9
    # Clicking the error (listed again by the refusal) puts the caret there.
    browser.find_element(By.CSS_SELECTOR, "#diagnostics li.error").click()
    caret = browser.execute_script("return document.getElementById('source').selectionStart")
    assert TTT.replace("(line 3)", "(lin 3)")[caret:].startswith("lin")
    # The fix: a 4 x 4 board, still three in a row.
    page.set_source(TTT.replace("(square 3)", "(square 4)"))
    page.until(lambda d: page.text("check-state") == "✓ no errors")
    assert browser.find_elements(By.CSS_SELECTOR, "#gutter span.error") == []
    page.by_id("play-this").click()
    page.until(lambda d: len(page.cells()) == 16)
    page.play("a1", "d4", "b1", "d3", "c1")
    page.until(lambda d: "X wins" in page.text("status"))


def test_options_from_the_declarations(browser: webdriver.Chrome, server: str) -> None:
    page = Page(browser, server, "hex")
    size = page.until(lambda d: d.find_element(By.CSS_SELECTOR, 'input[data-option="size"]'))
    assert size.get_attribute("value") == "11" and size.get_attribute("max") == "26"
    assert len(page.cells()) == 121
    size.clear()
    size.send_keys("4\t")
    pie = browser.find_element(By.CSS_SELECTOR, 'input[data-option="pie"]')
    pie.click()
    page.until(lambda d: page.text("check-state") == "✓ no errors")
    page.by_id("play-this").click()
    page.until(lambda d: len(page.cells()) == 16)
    page.play("a1")
    swap = page.by_id("swap")
    page.until(lambda d: swap.is_displayed())
    swap.click()
    page.until(lambda d: "sides swapped" in page.text("status"))


def test_the_computer_plays(browser: webdriver.Chrome, server: str) -> None:
    page = Page(browser, server, "tictactoe")
    version = page.attribute("board", "data-version")
    Select(browser.find_element(By.CSS_SELECTOR, 'select[data-role="O"]')).select_by_value(
        "mcts:300")
    page.until(lambda d: page.attribute("board", "data-version") != version)
    page.click_site("b2")
    page.until(lambda d: len(page.moves()) == 2, "the computer's move")
    assert page.moves()[1].startswith("O ")
    page.until(lambda d: page.text("message").startswith("O (mcts:300) plays "))
    assert not page.by_id("thinking").is_displayed()
    # Undo takes back the computer's reply with the person's move.
    page.by_id("undo").click()
    page.until(lambda d: page.moves() == [])


def test_records_and_positions(browser: webdriver.Chrome, server: str) -> None:
    page = Page(browser, server, "tictactoe")
    page.play("b2", "a1")
    browser.find_element(By.CSS_SELECTOR, "#record-box summary").click()
    page.by_id("save-record").click()
    page.until(lambda d: page.text("message") == "record saved as tictactoe.rec")
    record = page.attribute("record-text", "value")
    assert "game: tictactoe.game" in record and record.endswith("b2\na1\n")
    for n in (1, 0):
        page.by_id("undo").click()
        page.until(lambda d: len(page.moves()) == n)  # noqa: B023 (called at once)
    page.by_id("load-record").click()
    page.until(lambda d: page.moves() == ["X b2", "O a1"])
    assert page.text("message") == "record loaded: 2 moves"
    browser.find_element(By.CSS_SELECTOR, "#position-box summary").click()
    assert page.attribute("position", "value") == ". . .\n. X .\nO . .\nmover: X\n"
    browser.execute_script("document.getElementById('position').value = arguments[0]",
                           "X X .\nO O .\n. . .\nmover: X\n")
    page.by_id("load-position").click()
    page.until(lambda d: page.moves() == [] and len(
        d.find_elements(By.CSS_SELECTOR, "#board .piece")) == 4)
    page.play("c3")
    page.until(lambda d: "X wins" in page.text("status"))


def test_the_report_of_random_games(browser: webdriver.Chrome, server: str) -> None:
    page = Page(browser, server, "tictactoe")
    stuck = TTT.replace("(if (full) (draw))", "(if (line 5) (win Next))")
    page.set_source(stuck)
    page.until(lambda d: page.text("check-state") == "✓ no errors")
    count = page.by_id("playouts")
    count.clear()
    count.send_keys("100")
    page.by_id("validate").click()
    report = page.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#report table.rates"))
    text = page.text("report")
    assert "100 random games of Tic-Tac-Toe" in text
    assert "X wins" in report[0].text and "95% interval" in report[0].text
    assert "never ended a game: 5 in a row" in text
    assert browser.find_elements(By.CSS_SELECTOR, "#report svg.histogram rect.bar")
    assert "the player to move had no legal move" in text
    assert browser.find_elements(By.CSS_SELECTOR, "#report .stuck svg .piece")
    shot = os.environ.get("LUDEME_SCREENSHOT")
    if shot:
        page.set_source(TTT)
        page.until(lambda d: page.text("check-state") == "✓ no errors")
        page.play("b2", "a1", "c3")
        browser.set_window_size(1300, 1060)
        browser.save_screenshot(shot)
