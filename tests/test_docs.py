"""The documentation runs: the module doctests of the packages, the Python examples of the
pages in docs/ (doctests, and whole blocks run as scripts), the generated reference covers
every ludeme and direction, and the site builds with `mkdocs build --strict`."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import pytest

import stdlib
from dsl.types import DIRECTION_NAMES

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.rglob("*.md"))
sys.path.insert(0, str(DOCS))
import gen_reference  # noqa: E402

# Modules whose doctests need an optional extra: skipped, with the reason, where it is missing.
OPTIONAL = {"interpreter.openspiel": "pyspiel", "interpreter.pettingzoo": "pettingzoo",
            "interpreter.kernel.episode": "numba"}


def modules() -> list[str]:
    names = []
    for package in ("dsl", "interpreter", "stdlib"):
        names.append(package)
        found = importlib.import_module(package)
        names += [info.name for info in pkgutil.walk_packages(found.__path__, package + ".")]
    return names


@pytest.mark.parametrize("name", modules())
def test_module_doctests(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    if name in OPTIONAL:
        pytest.importorskip(OPTIONAL[name], reason=f"{name} needs {OPTIONAL[name]}")
    try:
        module = importlib.import_module(name)
    except ImportError as exc:  # a module of an optional extra (the playground's server)
        pytest.skip(f"{name} needs an optional extra: {exc}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_the_documented_modules_have_doctests() -> None:
    """The modules whose doctests are the examples of their API are collected here."""
    assert {"interpreter", "stdlib.parts", "interpreter.grammar"} <= set(modules())
    import interpreter
    assert doctest.DocTestFinder().find(interpreter)[0].examples


@pytest.mark.parametrize("page", [p for p in PAGES if ">>> " in p.read_text(encoding="utf-8")],
                         ids=lambda p: str(p.relative_to(DOCS)))
def test_page_doctests(page: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    result = doctest.testfile(str(page), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 1 and result.failed == 0


def script_blocks() -> list[tuple[str, str]]:
    """The ```python blocks of the pages that are scripts rather than doctests."""
    out = []
    for page in PAGES:
        blocks = re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), re.S)
        for i, block in enumerate(b for b in blocks if ">>> " not in b):
            out.append((f"{page.relative_to(DOCS)}#{i + 1}", block))
    return out


NEEDS = {"open_spiel": "pyspiel", "pettingzoo": "pettingzoo", "numpy": "numpy"}


@pytest.mark.parametrize("where, code", script_blocks(), ids=[w for w, _ in script_blocks()])
def test_page_scripts_run(where: str, code: str) -> None:
    for word, module in NEEDS.items():
        if re.search(rf"^\s*(from|import) {word}\b", code, re.M):
            pytest.importorskip(module, reason=f"the example needs {module}")
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0, f"{where}:\n{run.stderr}"


def test_the_reference_documents_every_ludeme() -> None:
    pages = gen_reference.reference_pages()
    text = "\n".join(pages.values())
    for spec in stdlib.REGISTRY.values():
        page = pages[f"reference/{gen_reference.family(spec)}.md"]
        assert spec.usage() in page and gen_reference.example(spec) in page
        assert f'id="{gen_reference.ludeme_id(spec)}"' in text


def test_the_directions_table_lists_every_direction_constant() -> None:
    table = gen_reference.directions_table()
    for name in DIRECTION_NAMES:
        assert f"`{name}`" in table or name in table.splitlines()[-1]
    adjacent = next(line for line in table.splitlines() if line.startswith("| `Adjacent`"))
    assert adjacent.split("|")[2].strip() == "N E S W"  # orthogonal on squares, as in Ludii


def test_the_games_table_names_every_game_file() -> None:
    table = gen_reference.games_table()
    for path in (ROOT / "games").glob("*.game"):
        assert f"`games/{path.name}`" in table
    assert '`size` 7, `miners` 6' in table


def test_the_site_builds_strictly(tmp_path: Path) -> None:
    pytest.importorskip("mkdocs", reason="the docs extra: pip install -e '.[docs]'")
    run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir",
                          str(tmp_path / "site")], cwd=ROOT, capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "site" / "reference" / "moves" / "index.html").exists()
    assert (tmp_path / "site" / "search" / "search_index.json").exists()
