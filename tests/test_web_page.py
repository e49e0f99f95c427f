"""What a designer expects from the playground's page, in headless Chromium: an introduction
and the language reference; the menu, "revert" and error notes naming the game being played;
the editor's text kept across reloads and carried by a link; a new game after the end, the
winning line marked, clicks after the end answered; each side's colour on Hex-like boards and
large boards using the width; chess pieces as figures; moves numbered by turns; the computer's
report with its sample; charts with axes.

Set LUDEME_SCREENSHOT=FILE.png to save the README's picture of the page (a game of chess in
progress, from the unedited file).
"""

from __future__ import annotations

import base64
import os
import re
import struct
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_lib import ROOT, TTT, Page, chromium, serving
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

PICTURE_NOTE = "ludeme-screenshot"  # the PNG text chunk saying how the README's picture was made


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with serving(("tictactoe.game", "hex.game", "chess.game", "mattock.game")) as address:
        yield address


@pytest.fixture(scope="module")
def browser() -> Iterator[webdriver.Chrome]:
    with chromium() as driver:
        yield driver


def reload(page: Page) -> None:
    """Reload the page (the tab keeps its session and its local storage)."""
    page.driver.refresh()
    page.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready")
               == "yes")
    page.until(lambda d: len(page.cells()) > 0)


def selected_game(page: Page) -> str:
    return Select(page.by_id("game-select")).first_selected_option.text


def test_an_introduction_on_first_visit_and_the_reference(browser: webdriver.Chrome,
                                                          server: str) -> None:
    page = Page(browser, server, "tictactoe")
    intro = page.by_id("intro")
    assert intro.is_displayed() and "ludeme playground" in intro.text
    links = browser.find_elements(By.CSS_SELECTOR, 'a[href="/docs"]')
    assert links and page.by_id("reference-link").is_displayed()
    page.by_id("intro-close").click()
    page.until(lambda d: not intro.is_displayed())
    reload(page)
    assert not page.by_id("intro").is_displayed()  # remembered
    browser.get(f"http://{server}/docs")
    assert browser.title == "ludeme language reference"
    body = browser.find_element(By.TAG_NAME, "body").text
    assert "(line int" in body and "(connected" in body


def test_the_menu_revert_and_notes_follow_the_game_played(browser: webdriver.Chrome,
                                                          server: str) -> None:
    page = Page(browser, server, "tictactoe")
    assert selected_game(page) == "Tic-Tac-Toe (tictactoe.game)"
    assert page.text("revert") == "Revert to tictactoe.game"
    page.set_source(TTT.replace("(square 3)", "(square 4)"))
    page.until(lambda d: page.text("check-state") == "✓ no errors")
    page.by_id("play-this").click()
    page.until(lambda d: len(page.cells()) == 16)
    page.until(lambda d: "edited" in selected_game(page))
    assert page.text("game-title").startswith("Tic-Tac-Toe (edited)")
    # An error in a define names the edited text, not the file it came from.
    broken = TTT.replace("(game ", '(define "Three" (lin 3))\n(game ').replace(
        "(line 3)", '("Three")')
    page.set_source(broken)
    note = page.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#diagnostics .diag-note"))
    assert "edited:" in note[0].text and "tictactoe.game" not in note[0].text
    # The file again from the menu: no longer "edited".
    Select(page.by_id("game-select")).select_by_value("tictactoe")
    page.until(lambda d: len(page.cells()) == 9)
    page.until(lambda d: selected_game(page) == "Tic-Tac-Toe (tictactoe.game)")
    assert "(edited)" not in page.text("game-title")


def test_the_text_survives_a_reload_and_travels_in_a_link(browser: webdriver.Chrome,
                                                          server: str) -> None:
    page = Page(browser, server, "hex")
    size = page.until(lambda d: d.find_element(By.CSS_SELECTOR, 'input[data-option="size"]'))
    size.clear()
    size.send_keys("5\t")
    variant = "// my variant\n" + page.attribute("source", "value")
    page.set_source(variant)
    page.until(lambda d: page.text("check-state") == "✓ no errors")
    page.by_id("play-this").click()
    page.until(lambda d: len(page.cells()) == 25)
    reload(page)
    page.until(lambda d: len(page.cells()) == 25)
    assert page.attribute("source", "value") == variant
    assert browser.find_element(By.CSS_SELECTOR, 'input[data-option="size"]').get_attribute(
        "value") == "5"
    assert "edited" in selected_game(page)
    page.by_id("share").click()
    link = page.until(lambda d: page.attribute("share-link", "value"))
    assert link.startswith(f"http://{server}/#id=hex&game=z")
    # The link, opened by someone else (nothing kept in their browser).
    browser.get(f"http://{server}/static/style.css")
    browser.execute_script("sessionStorage.clear(); localStorage.clear()")
    browser.get(link)
    page.until(lambda d: len(page.cells()) == 25)
    assert page.attribute("source", "value") == variant
    assert "edited" in selected_game(page)
    # A link may carry the text uncompressed ("t" and base64url).
    plain = base64.urlsafe_b64encode(TTT.replace("(square 3)", "(square 4)").encode())
    browser.get(f"http://{server}/static/style.css")
    browser.get(f"http://{server}/#id=tictactoe&game=t{plain.decode().rstrip('=')}&options=%7B%7D")
    page.until(lambda d: len(page.cells()) == 16)


def test_a_new_game_after_the_end_and_the_winning_line(browser: webdriver.Chrome,
                                                       server: str) -> None:
    page = Page(browser, server, "tictactoe")
    page.play("b2", "a1", "a3", "b1", "c1")
    page.until(lambda d: "X wins" in page.text("status"))
    won = browser.find_elements(By.CSS_SELECTOR, "#board .cell.win")
    assert sorted(c.get_attribute("data-site") for c in won) == ["a3", "b2", "c1"]
    page.click_site("a2")
    page.until(lambda d: "the game is over" in page.text("message"))
    assert "after-end" in page.attribute("new-game", "class")
    page.by_id("new-game").click()
    page.until(lambda d: page.moves() == [] and page.text("status") == "X to move.")
    assert browser.find_elements(By.CSS_SELECTOR, "#board .cell.win") == []
    assert len(browser.find_elements(By.CSS_SELECTOR, "#board .cell.target")) == 9


def test_hex_sides_in_colour_a_connection_and_the_width(browser: webdriver.Chrome,
                                                        server: str) -> None:
    page = Page(browser, server, "hex")
    edges = browser.find_elements(By.CSS_SELECTOR, "#board line.side-edge")
    by_side: dict[tuple[str, str, str], int] = {}
    for e in edges:
        key = (e.get_attribute("data-role") or "", e.get_attribute("data-side") or "",
               e.get_attribute("stroke") or "")
        by_side[key] = by_side.get(key, 0) + 1
    assert set(by_side) == {("Red", "N", "#d62728"), ("Red", "S", "#d62728"),
                            ("Blue", "W", "#1f5fb4"), ("Blue", "E", "#1f5fb4")}
    assert min(by_side.values()) >= 11
    # A large board takes the width of the pane (beyond the 640 pixels of small boards).
    width = browser.execute_script(
        "return document.querySelector('#board svg').getBoundingClientRect().width")
    assert width > 680
    size = browser.find_element(By.CSS_SELECTOR, 'input[data-option="size"]')
    size.clear()
    size.send_keys("3\t")
    page.until(lambda d: page.text("check-state") == "✓ no errors")
    page.by_id("play-this").click()
    page.until(lambda d: len(page.cells()) == 9)
    page.play("b3", "a1", "c2", "a2", "b2", "c1", "b1")
    page.until(lambda d: "Red wins" in page.text("status"))
    won = browser.find_elements(By.CSS_SELECTOR, "#board .cell.win")
    assert sorted(c.get_attribute("data-site") for c in won) == ["b1", "b2", "b3"]


def test_chess_figures_and_moves_numbered_by_turns(browser: webdriver.Chrome,
                                                   server: str) -> None:
    page = Page(browser, server, "chess")
    figures = browser.execute_script(
        "return [...document.querySelectorAll('#board text.figure')].map(t => t.textContent)")
    assert len(figures) == 32
    assert figures.count("♟\ufe0e") == 16 and figures.count("♚\ufe0e") == 2
    assert figures.count("♞\ufe0e") == 4 and figures.count("♛\ufe0e") == 2
    assert browser.find_elements(By.CSS_SELECTOR, "#board text.symbol") == []
    assert len(browser.find_elements(By.CSS_SELECTOR, "#board .piece.figure-disc")) == 32
    page.click_site("e2")
    page.click_once("e4")
    page.click_site("e7")
    page.click_once("e5")
    assert page.moves() == ["White e2-e4", "Black e7-e5"]
    shot = os.environ.get("LUDEME_SCREENSHOT")
    if shot:
        save_screenshot(page, Path(shot), ("g1", "f3"), ("b8", "c6"), ("f1", "c4"))
    # A turn of two decisions (Mattock: mine, then decline the move) is one numbered entry.
    page = Page(browser, server, "mattock")
    page.by_id("move-input").send_keys("h12 pass\n")
    page.until(lambda d: page.moves() == ["Red h12 pass"])


def save_screenshot(page: Page, path: Path, *moves: tuple[str, str]) -> None:
    """The README's picture: the game played on by clicks, the introduction dismissed; a note
    in the PNG says how it was made."""
    for frm, to in moves:
        page.click_site(frm)
        page.click_once(to)
    if page.by_id("intro").is_displayed():
        page.by_id("intro-close").click()
    page.driver.set_window_size(1300, 1150)
    png = page.driver.get_screenshot_as_png()
    note = f"tests/test_web_page.py, games/chess.game unedited, {len(page.moves())} moves"
    chunk = PICTURE_NOTE.encode() + b"\0" + note.encode()
    text = (struct.pack(">I", len(chunk)) + b"tEXt" + chunk
            + struct.pack(">I", zlib.crc32(b"tEXt" + chunk)))
    path.write_bytes(png[:33] + text + png[33:])  # after the signature and the IHDR chunk


def test_the_computer_says_how_many_games_its_score_rests_on(browser: webdriver.Chrome,
                                                             server: str) -> None:
    page = Page(browser, server, "tictactoe")
    page.give("O", "flat:200")
    page.click_site("b2")
    page.until(lambda d: page.text("message").startswith("O (flat:200) plays "))
    said = page.text("message")
    assert re.search(r"200 playouts; the move chosen scored \d+% in 25 of them, "
                     r"95% interval \d+%–\d+%", said), said
    assert "expected score" not in said


def test_charts_with_axes_and_labels(browser: webdriver.Chrome, server: str) -> None:
    page = Page(browser, server, "tictactoe")
    count = page.by_id("playouts")
    count.clear()
    count.send_keys("100")
    page.by_id("validate").click()
    page.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#report svg.rates-chart"))

    def texts(selector: str) -> list[str]:
        found: list[str] = browser.execute_script(
            "return [...document.querySelectorAll(arguments[0])].map(t => t.textContent)",
            selector)
        return found

    assert browser.find_elements(By.CSS_SELECTOR, "#report svg.histogram line.x-axis")
    assert browser.find_elements(By.CSS_SELECTOR, "#report svg.histogram line.y-axis")
    assert texts("#report svg.histogram text.axis-title") == ["game length (turns)", "games"]
    assert texts("#report svg.histogram text.y-label")[0] == "0"
    assert texts("#report svg.rates-chart text.y-label") == ["X wins", "O wins", "draws"]
    assert texts("#report svg.rates-chart text.x-label") == ["0%", "25%", "50%", "75%", "100%"]
    assert len(browser.find_elements(By.CSS_SELECTOR, "#report svg.rates-chart rect.bar")) == 3
    assert len(browser.find_elements(By.CSS_SELECTOR,
                                     "#report svg.rates-chart line.interval")) == 9


def test_the_readme_picture_is_a_real_session_and_small() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    (name,) = re.findall(r"!\[[^\]]*\]\((examples/[^)]+\.png)\)", readme)
    data = (ROOT / name).read_bytes()
    assert len(data) < 200_000
    notes = [data[i + 4:i + 4 + struct.unpack(">I", data[i - 4:i])[0]]
             for i in (m.start() for m in re.finditer(b"tEXt", data))]
    made = [n.split(b"\0", 1)[1].decode() for n in notes if n.startswith(PICTURE_NOTE.encode())]
    assert made and "unedited" in made[0], "regenerate it: LUDEME_SCREENSHOT=" + name
    game = re.search(r"games/\w+\.game", made[0])
    assert game and (ROOT / game.group(0)).is_file()
