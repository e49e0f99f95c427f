"""The playground end to end, in a real headless browser: `ludeme serve` in a subprocess, the
page in Chromium driven by Selenium (the system's chromium and chromedriver, so nothing is
downloaded). Play a whole game of Tic-Tac-Toe by clicks, see a refused move's reason, break
the rules in the editor and see the error at its line, fix them and play the variant, let the
computer play, and look at the random-game report.

Skipped, with the reason, where the web extra, Selenium, or Chromium is missing (see
browser_lib.py). The page's features for designers are tested in test_web_page.py.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from browser_lib import TTT, Page, chromium, serving
from selenium import webdriver
from selenium.webdriver.common.by import By


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """`ludeme serve` on a free port; its address."""
    with serving(("tictactoe.game", "hex.game")) as address:
        yield address


@pytest.fixture(scope="module")
def browser() -> Iterator[webdriver.Chrome]:
    with chromium() as driver:
        yield driver


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
    page.give("O", "mcts:300")
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
