"""Error output is bounded whatever the game file: a report of many mistakes shows as many
as fit in 64 KB and counts the rest; a note naming very many uses of defines is cut short."""

from __future__ import annotations

import pytest

from dsl.errors import MAX_NOTE, MAX_REPORT
from interpreter import RuleError, parse_game


def test_many_mistakes_are_counted_past_the_bound() -> None:
    ends = "\n".join(f"    (if (nosuch{i} {i}) (draw))" for i in range(5000))
    text = ('(game "G" (players {(player "A") (player "B")}) (board (square 3))\n'
            f"  (play (place (sites Empty)))\n  (end\n{ends}))\n")
    with pytest.raises(RuleError) as info:
        parse_game(text, source="many.game")
    report = str(info.value)
    assert len(report) <= MAX_REPORT + 100
    assert report.startswith("many.game:4:")
    last = report.splitlines()[-1]
    assert last.startswith("... and ") and last.endswith(" more errors")
    shown = report.count("unknown ludeme") + report.count("nosuch") // 2
    assert shown > 10


def test_a_mistake_met_through_many_defines_has_a_short_note() -> None:
    # A mistake inside a define used through a chain of defines, each used twice.
    defines = ['(define "D0" (nosuch 1))']
    defines += [f'(define "D{i}" (any-of ("D{i - 1}") ("D{i - 1}")))' for i in range(1, 12)]
    text = "\n".join(defines) + ('\n(game "G" (players {(player "A") (player "B")}) '
                                 '(board (square 3)) (play ("D11")) (end (if (full) (draw))))\n')
    with pytest.raises(RuleError) as info:
        parse_game(text, source="deep.game")
    report = str(info.value)
    notes = [line for line in report.splitlines() if line.startswith("  note: ")]
    assert notes and all(len(n) <= MAX_NOTE + 40 for n in notes)
    assert len(report) <= MAX_REPORT + 100
