"""Replay the golden transcripts of tests/golden/transcripts/ against the engine of today.

The transcripts were recorded (by tests/golden/record_transcripts.py) from the engine before
the rewrite of its core: seeded random games of every game file in games/ and examples/,
played through the public API. Each game is replayed here move by move, and at each decision
the mover, the legal moves (their number, a digest of their sorted notations, and the full
sorted list where recorded), the position text after the move, and in the end how the game
ended must be what they were. Every 10th position text (and the last) must also read back
the same through `game.from_text`. The order in which moves are generated is not checked.

A failure names the transcript, the game and the ply, and shows what was expected and what
came. Do not re-record to make it pass unless the rules were meant to change (see the
recorder's docstring). Nothing here draws random numbers: the moves are the recorded ones.
"""

from __future__ import annotations

import difflib
import functools
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from interpreter import load_game

ROOT = Path(__file__).resolve().parent.parent
TRANSCRIPTS = Path(__file__).resolve().parent / "golden" / "transcripts"
FILES = sorted(TRANSCRIPTS.rglob("*.jsonl"))
ROUND_TRIP_EVERY = 10


def digest(notations: list[str]) -> str:
    """As the recorder computes it: sha1 of the sorted notations, one a line, 12 hex digits."""
    return hashlib.sha1("\n".join(notations).encode()).hexdigest()[:12]


@functools.cache
def transcript(path: Path) -> tuple[dict[str, Any], dict[int, list[dict[str, Any]]]]:
    """The header, and the lines of each game (start, plies, end) by game index."""
    with path.open(encoding="utf-8") as lines:
        records = [json.loads(line) for line in lines if line.strip()]
    header = records[0]
    games: dict[int, list[dict[str, Any]]] = {}
    assert header["kind"] == "header", f"{path}: the first line is not the header"
    for record in records[1:]:
        games.setdefault(record["game"], []).append(record)
    return header, games


@functools.cache
def loaded(game_file: str, options: str) -> Any:
    return load_game(ROOT / game_file, **json.loads(options))


def label(path: Path) -> str:
    return path.relative_to(TRANSCRIPTS).with_suffix("").as_posix()


def cases() -> list[Any]:
    return [pytest.param(path, index, id=f"{label(path)}-game{index}")
            for path in FILES for index in range(len(transcript(path)[0]["seeds"]))]


def shown(value: Any) -> str:
    return json.dumps(value)


def text_difference(expected: str, got: str) -> str:
    diff = difflib.unified_diff(expected.splitlines(), got.splitlines(), "expected", "got",
                                lineterm="", n=1)
    return "\n".join(f"    {line}" for line in diff)


def list_difference(expected: list[str], got: list[str], limit: int = 20) -> str:
    missing = [m for m in expected if m not in set(got)]
    extra = [m for m in got if m not in set(expected)]
    parts = []
    for name, moves in (("missing", missing), ("extra", extra)):
        if moves:
            more = f" ... ({len(moves) - limit} more)" if len(moves) > limit else ""
            parts.append(f"  {name} ({len(moves)}): {' '.join(moves[:limit])}{more}")
    if not parts:
        parts.append("  the same moves, but a notation is repeated: "
                     + " ".join(m for m in got if got.count(m) > 1))
    return "\n".join(parts)


def test_there_are_transcripts() -> None:
    assert FILES, f"no transcripts in {TRANSCRIPTS}"
    for path in FILES:
        header, games = transcript(path)
        assert sorted(games) == list(range(len(header["seeds"]))), f"{label(path)}: games"
        for index, lines in games.items():
            assert [lines[0]["kind"], lines[-1]["kind"]] == ["start", "end"], (
                f"{label(path)} game {index}: not a whole game")


def test_the_games_are_the_recorded_ones() -> None:
    """Name, roles and options in force, as when the transcripts were recorded."""
    for path in FILES:
        header, _ = transcript(path)
        game = loaded(header["file"], json.dumps(header["options"]))
        got = {"name": game.name, "players": list(game.players), "game_options": game.options}
        expected = {key: header[key] for key in got}
        assert got == expected, f"{label(path)}: expected {expected}, got {got}"


@pytest.mark.parametrize(("path", "index"), cases())
def test_replay(path: Path, index: int) -> None:
    header, _ = transcript(path)
    replay(path, index, loaded(header["file"], json.dumps(header["options"])))


def replay(path: Path, index: int, game: Any) -> None:
    """Replay game `index` of the transcript at `path` on `game` (its game file, loaded),
    failing at the first difference."""
    _, games = transcript(path)
    lines = games[index]
    start, plies, end = lines[0], lines[1:-1], lines[-1]
    game_name = f"{label(path)} game {index} (seed {start['seed']})"

    def fail(where: str, what: str, detail: str) -> None:
        pytest.fail(f"{game_name}, {where}: {what}\n{detail}", pytrace=False)

    def differ(where: str, what: str, expected: Any, got: Any) -> None:
        fail(where, what, f"  expected: {shown(expected)}\n  got:      {shown(got)}")

    def round_trip(where: str, text: str) -> None:
        again = game.from_text(text).to_text()
        if again != text:
            fail(where, "from_text(text).to_text() is not the text", text_difference(text, again))

    state = game.initial_state()
    if state.to_text() != start["text"]:
        fail("start", "initial position text", text_difference(start["text"], state.to_text()))
    round_trip("start", start["text"])
    before = start["text"]
    for line in plies:
        ply = line["ply"]
        where = f"ply {ply} ({line['mover']} to play {line['move']})"
        if state.is_over:
            differ(where, "the game is over already (outcome)", None, state.outcome)
        if state.mover != line["mover"]:
            differ(where, "mover", line["mover"], state.mover)
        moves = state.legal_moves()
        notations = sorted(str(move) for move in moves)
        if "moves" in line and notations != line["moves"]:
            fail(where, f"legal moves ({line['n']} expected, {len(notations)} got)",
                 list_difference(line["moves"], notations)
                 + f"\n  in the position:\n{indent(before)}")
        if len(notations) != line["n"] or digest(notations) != line["sorted_sha1"]:
            more = f" ... ({len(notations) - 40} more)" if len(notations) > 40 else ""
            fail(where, "legal moves (count, digest of the sorted notations)",
                 f"  expected: {shown([line['n'], line['sorted_sha1']])}\n"
                 f"  got:      {shown([len(notations), digest(notations)])}\n"
                 f"  got moves: {' '.join(notations[:40])}{more}\n"
                 f"  in the position:\n{indent(before)}")
        by_notation = {str(move): move for move in moves}
        if line["move"] not in by_notation:
            fail(where, "the recorded move is not legal", f"  position:\n{indent(before)}")
        state = state.play(by_notation[line["move"]])
        text = state.to_text()
        if text != line["text"]:
            fail(where, "position text after the move",
                 text_difference(line["text"], text) + f"\n  before the move:\n{indent(before)}")
        if (ply + 1) % ROUND_TRIP_EVERY == 0:
            round_trip(f"after {where}", line["text"])
        before = line["text"]
    where = f"the end, after {end['plies']} plies"
    outcome = state.outcome
    got = {"is_over": state.is_over, "winner": state.winner,
           "reason": outcome.reason if outcome else None, "mover": state.mover,
           "n": len(state.legal_moves())}
    expected = {key: end[key] for key in got}
    if got != expected:
        differ(where, "how the game ended", expected, got)
    round_trip(where, before)


def indent(text: str) -> str:
    return "\n".join(f"    {line}" for line in text.splitlines())
