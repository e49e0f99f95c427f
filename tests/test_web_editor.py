"""The playground's editor in headless Chromium: the game text highlighted (heads, strings,
comments), ludeme names and keywords completed from the registry, a ludeme's reference shown
on hover and on Ctrl+I — while the textarea stays what is typed into (undo included)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from browser_lib import TTT, Page, chromium, serving
from selenium import webdriver
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

START = '(game "T"\n  (play '  # a text to type after


@pytest.fixture(scope="module")
def site() -> Iterator[tuple[webdriver.Chrome, str]]:
    """Headless Chromium, and the playground serving Tic-Tac-Toe."""
    with serving(("tictactoe.game",)) as address, chromium() as driver:
        yield driver, address


@pytest.fixture
def page(site: tuple[webdriver.Chrome, str]) -> Page:
    """The page on Tic-Tac-Toe, once the editor has the language."""
    page = Page(*site, "tictactoe")
    page.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-grammar")
               == "yes")
    return page


def type_at_end(page: Page, text: str, keys: str) -> None:
    """Put `text` in the editor, the caret at its end, and type `keys` there."""
    page.set_source(text)
    page.driver.execute_script(
        "const s = document.getElementById('source'); s.focus();"
        "s.setSelectionRange(s.value.length, s.value.length);")
    ActionChains(page.driver).send_keys(keys).perform()


def offered_after(page: Page, keys: str) -> list[str]:
    """What the completion list offers once `keys` are typed after START."""
    type_at_end(page, START, keys)
    page.until(lambda d: completions(page), f"the completion list after {keys!r}")
    return completions(page)


def spans(page: Page, cls: str) -> list[str]:
    found: list[str] = page.driver.execute_script(
        "return [...document.querySelectorAll('#highlight .' + arguments[0])]"
        ".map(s => s.textContent)", cls)
    return found


def completions(page: Page) -> list[str]:
    """The completion list's entries while it is shown."""
    found: list[str] = page.driver.execute_script(
        "const m = document.getElementById('completions');"
        "return m.hidden ? [] : [...m.querySelectorAll('li')].map(li => li.dataset.value)")
    return found


def test_heads_strings_comments_and_constants_are_highlighted(page: Page) -> None:
    page.until(lambda d: "place" in spans(page, "tok-head"))
    heads = spans(page, "tok-head")
    assert {"game", "players", "player", "board", "square", "play", "place", "sites", "end",
            "if", "line", "win", "full", "draw"} <= set(heads)
    assert '"Tic-Tac-Toe"' in spans(page, "tok-string")
    assert spans(page, "tok-comment")[0].startswith("// Tic-Tac-Toe")
    assert {"Empty", "Mover"} <= set(spans(page, "tok-const"))
    # The copy is the text: the same characters, line for line, under the textarea.
    copy = page.driver.execute_script("return document.getElementById('highlight').textContent")
    assert copy == TTT + "\n"
    # It follows typing: a keyword, an option's value, a number, a name no ludeme has.
    page.set_source('(option "size" 3)\n(game "T" (board (square #size)) (foo 1 exact:true))')
    page.until(lambda d: "foo" in spans(page, "tok-unknown"))
    assert spans(page, "tok-keyword") == ["exact:"]
    assert spans(page, "tok-param") == ["#size"]
    assert spans(page, "tok-number") == ["3", "1"]
    assert spans(page, "tok-bool") == ["true"]


def test_typing_a_head_offers_ludeme_names_and_tab_completes_it(page: Page) -> None:
    browser, start = page.driver, START
    offered = offered_after(page, "(pla")
    assert offered[0] == "place" and {"place-group", "play", "players"} <= set(offered)
    assert all(name.startswith("pla") for name in offered)
    ActionChains(browser).send_keys(Keys.TAB).perform()
    page.until(lambda d: page.attribute("source", "value") == start + "(place")
    assert completions(page) == []
    # Undo takes the completion back, as it would a word typed.
    ActionChains(browser).key_down(Keys.CONTROL).send_keys("z").key_up(Keys.CONTROL).perform()
    page.until(lambda d: page.attribute("source", "value") == start + "(pla")
    # Escape closes the list and leaves the text as it is.
    type_at_end(page, start, "(sit")
    page.until(lambda d: completions(page) == ["site-at", "sites"])
    ActionChains(browser).send_keys(Keys.ESCAPE).perform()
    page.until(lambda d: completions(page) == [])
    assert page.attribute("source", "value") == start + "(sit"


def test_inside_a_form_its_keywords_are_offered(page: Page) -> None:
    browser, start = page.driver, START
    assert {"if:", "unless:", "piece:", "capture:"} <= set(
        offered_after(page, "(place (sites Empty) "))
    # Enter with nothing chosen is a new line, not a completion.
    ActionChains(browser).send_keys(Keys.ENTER).perform()
    page.until(lambda d: page.attribute("source", "value").endswith("Empty) \n"))
    # A family's members after its head; keywords by their first letters, once each.
    type_at_end(page, start, "(sites E")
    page.until(lambda d: completions(page) == ["Empty"])
    type_at_end(page, start, "(place (sites Empty) if:true u")
    page.until(lambda d: completions(page) == ["unless:"])
    ActionChains(browser).send_keys(Keys.ENTER).perform()
    page.until(lambda d: page.attribute("source", "value").endswith("if:true unless:"))
    type_at_end(page, start, "(place (sites Empty) if:true i")
    page.until(lambda d: "checking" not in page.text("check-state"))
    assert completions(page) == []


def test_hovering_a_ludeme_shows_its_reference(page: Page) -> None:
    browser = page.driver
    page.until(lambda d: "line" in spans(page, "tok-head"))
    line = browser.find_element(By.CSS_SELECTOR, '#highlight [data-ludeme="line"]')
    ActionChains(browser).move_to_element(line).perform()
    tip = page.by_id("ludeme-tip")
    page.until(lambda d: tip.is_displayed(), "the reference of line")
    assert tip.find_element(By.CSS_SELECTOR, ".usage").text.startswith("(line int [role:Role]")
    assert "in a row" in tip.text
    # A family's member is its own ludeme: (sites Empty).
    empty = browser.find_element(By.CSS_SELECTOR, '#highlight .tok-const[data-ludeme]')
    ActionChains(browser).move_to_element(empty).perform()
    page.until(lambda d: tip.find_element(By.CSS_SELECTOR, ".usage").text
               .startswith("(sites Empty)"))
    # Ctrl+I: the ludeme at the caret.
    ActionChains(browser).move_by_offset(0, 400).perform()
    page.until(lambda d: not tip.is_displayed())
    offset = TTT.index("(win Mover)") + 2
    browser.execute_script("const s = document.getElementById('source'); s.focus();"
                           "s.setSelectionRange(arguments[0], arguments[0]);", offset)
    ActionChains(browser).key_down(Keys.CONTROL).send_keys("i").key_up(Keys.CONTROL).perform()
    page.until(lambda d: tip.is_displayed(), "the reference of win")
    assert tip.find_element(By.CSS_SELECTOR, ".usage").text.startswith("(win")
