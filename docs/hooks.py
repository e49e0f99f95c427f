"""MkDocs hooks (mkdocs.yml `hooks:`): the reference pages are generated from the registry, and
a page may ask for a generated part or a saved file with a one-line marker:

- `<!-- include: PATH -->`: the file at PATH (relative to the repository), e.g. the speed
  table that `docs/update_speed.py` saved from the benchmark;
- `<!-- directions -->`: what each direction constant means on each kind of board;
- `<!-- games -->`: the game files with their roles and options;
- `<!-- vocabulary: FILE ... -->`: the ludemes those game files use.

Nothing here reaches the network; the generators are in `docs/gen_reference.py`.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
if str(DOCS) not in sys.path:
    sys.path.insert(0, str(DOCS))

import gen_reference  # noqa: E402
from mkdocs.structure.files import File, Files  # noqa: E402

MARKER = re.compile(r"^<!-- (include|directions|games|vocabulary)(?::\s*(.*?))? -->$", re.M)


def on_config(config: Any) -> Any:
    """List the reference's pages in the navigation: its index, then one page per family."""
    pages = list(gen_reference.reference_pages())
    for i, item in enumerate(config.nav or []):
        if isinstance(item, dict) and "Ludeme reference" in item:
            config.nav[i] = {"Ludeme reference": pages}
    return config


def on_files(files: Files, config: Any) -> Files:
    """Add the reference pages, generated from the registry."""
    for rel, text in gen_reference.reference_pages().items():
        files.append(File.generated(config, rel, content=text))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    """Replace each marker by what it asks for."""
    here = page.file.src_uri.rsplit("/", 1)[0] + "/" if "/" in page.file.src_uri else ""

    def replace(m: re.Match[str]) -> str:
        what, arg = m.group(1), (m.group(2) or "").strip()
        if what == "include":
            return (ROOT / arg).read_text(encoding="utf-8")
        if what == "directions":
            return gen_reference.directions_table()
        if what == "games":
            return gen_reference.games_table()
        return gen_reference.vocabulary(arg.split(), here)

    return MARKER.sub(replace, markdown)
