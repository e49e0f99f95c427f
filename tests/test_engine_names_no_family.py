"""The engine names no family: what chess, sowing, Morris, draughts or Go mean lives in
stdlib/ and the game files, so a new family never edits interpreter/ (outside the
playground's web/, where a click may differ)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Words of families the engine must not know (as the core's issue words the check).
FAMILY = re.compile(r"chess|castl|sow|(?<!com)pile|mill|draught|\bko\b|\bfen\b|fen_|quoridor",
                    re.IGNORECASE)


def test_no_module_of_the_interpreter_names_a_family() -> None:
    found = []
    for path in sorted((ROOT / "interpreter").glob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if FAMILY.search(line):
                found.append(f"{path.name}:{number}: {line.strip()}")
    assert not found, "\n".join(found)
