"""Driving the playground in a real headless browser, for the browser tests: `ludeme serve`
in a subprocess, the system's chromium and chromedriver through Selenium (nothing is
downloaded), and `Page`, the page as a person uses it.

Importing it skips the importing test module, with the reason, where the web extra,
Selenium, or Chromium is missing.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
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


@contextmanager
def serving(names: Sequence[str]) -> Iterator[str]:
    """`ludeme serve` of the named files of games/ on a free port; its address."""
    files = [str(GAMES / n) for n in names]
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


@contextmanager
def chromium() -> Iterator[webdriver.Chrome]:
    """Headless Chromium in a throw-away profile (the test is skipped if it cannot start)."""
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
        # A session of its own (the tab keeps its token in sessionStorage), as a new user (no
        # text kept in localStorage), and a new page, not just another #fragment of the same.
        driver.get(f"http://{address}/static/style.css")
        driver.execute_script("sessionStorage.clear(); localStorage.clear()")
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

    def give(self, role: str, agent: str) -> None:
        """Let the computer play `role` with `agent` (a spelling listed in the menu)."""
        version = self.attribute("board", "data-version")
        Select(self.driver.find_element(By.CSS_SELECTOR, f'select[data-role="{role}"]')
               ).select_by_value(agent)
        self.until(lambda d: self.attribute("board", "data-version") != version)

    def set_source(self, text: str) -> None:
        """Replace the editor's text, as typing would (an input event)."""
        self.driver.execute_script(
            "const s = document.getElementById('source'); s.value = arguments[0];"
            "s.dispatchEvent(new Event('input'));", text)


