"""The README's speed table is the one docs/update_speed.py writes from the saved benchmark
tables (docs/includes): regenerating those without the README fails here."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _update_speed():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("update_speed", ROOT / "docs" / "update_speed.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_readme_speed_table_is_the_saved_tables() -> None:
    update = _update_speed()
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index(update.BEGIN) + len(update.BEGIN)
    end = text.index(update.END)
    assert text[start:end].strip() == update.speed_table().strip()


def test_the_table_has_every_game_openspiel_shares_and_chess_perft() -> None:
    update = _update_speed()
    table = update.speed_table()
    games = [row[0] for row in update.table_rows(update.OUTPUT)[1:]]
    assert len(games) >= 20
    for game in games:
        assert f"| {game} |" in table
    assert "chess perft(3), start" in table and "chess perft(3), kiwipete" in table
