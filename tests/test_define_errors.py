"""A mistake inside a define is reported once, at its place in the define's body, with how
many uses of the define met it and where the defines leading there are used — however many
defines are nested, the report stays small and comes quickly."""

from __future__ import annotations

import re
import time

import pytest

from interpreter import RuleError, parse_game

GAME = ('(game "T" (players {(player "X") (player "O")}) (board (square 3))\n'
        "  (play (place %s)) (end (if (full) (draw))))\n")


def nested(levels: int, mistake: str = "(sitez Empty)") -> str:
    """A file of `levels` + 1 defines, each using the one before twice; the first holds
    `mistake`, the last is used by the game."""
    lines = [f'(define "D0" {mistake})']
    lines += [f'(define "D{i}" (union ("D{i - 1}") ("D{i - 1}")))' for i in range(1, levels + 1)]
    return "\n".join(lines) + "\n" + GAME % f'("D{levels}")'


def report(text: str) -> RuleError:
    with pytest.raises(RuleError) as info:
        parse_game(text, "n.game")
    return info.value


def test_a_mistake_met_through_nested_defines_is_said_once_with_its_count() -> None:
    err = report(nested(5))
    assert str(err) == "\n".join([
        "n.game:1:15: unknown ludeme 'sitez' (did you mean \"sites\"?)",
        '    (define "D0" (sitez Empty))',
        "                  ^^^^^",
        '  note: in 32 uses of define "D0": "D0" is used at n.game:2:21 and n.game:2:28, '
        '"D1" at n.game:3:21 and n.game:3:28, "D2" at n.game:4:21 and n.game:4:28, '
        '2 more defines, "D5" at n.game:8:16',
    ])
    (only,) = err.diagnostics
    assert len(only.uses) == 32


def test_two_levels_name_every_define() -> None:
    err = report(nested(2))
    assert str(err).splitlines()[-1] == (
        '  note: in 4 uses of define "D0": "D0" is used at n.game:2:21 and n.game:2:28, '
        '"D1" at n.game:3:21 and n.game:3:28, "D2" at n.game:5:16')


def test_forty_one_nested_defines_give_a_small_report_quickly() -> None:
    # The case of issue 22: 41 defines in a 1.6 KB file, each using the one before twice,
    # printed 30 MB of notes.
    text = nested(40)
    assert len(text) < 2000
    start = time.process_time()
    err = report(text)
    out = str(err)
    assert time.process_time() - start < 10
    assert len(out) < 3000, out
    lines = out.splitlines()
    assert lines[0] == ('n.game:2:21: define "D0" expands more than 40 levels deep (defines '
                        "used one inside another)")
    assert lines[1:3] == ['    (define "D1" (union ("D0") ("D0")))',
                          "                        ^^^^^^"]
    assert re.fullmatch(r'  note: in \d+ uses of define "D1": "D1" is used at n\.game:3:21 and '
                        r'n\.game:3:28, "D2" at .*, 36 more defines, "D40" at n\.game:43:16',
                        lines[3]), lines[3]
    assert all(len(line) < 400 for line in lines)
    # What the playground sends: each diagnostic's note, as data.
    assert all(len(d.full_note() or "") < 400 for d in err.diagnostics)


def test_a_define_that_uses_itself_is_still_named_so() -> None:
    err = report(GAME % '("Loop")' + '(define "Loop" (union ("Loop") (sites Empty)))\n')
    assert "expands more than 40 levels deep (does it use itself?)" in str(err)
    note = str(err).splitlines()[3]
    assert note.startswith('  note: in define "Loop" used at ') and len(note) < 200


def test_one_use_through_deep_defines_names_the_innermost_and_the_outermost() -> None:
    lines = ['(define "D0" (sitez Empty))']
    lines += [f'(define "D{i}" ("D{i - 1}"))' for i in range(1, 10)]
    err = report("\n".join(lines) + "\n" + GAME % '("D9")')
    assert str(err).splitlines()[-1] == (
        '  note: in define "D0" used at n.game:2:14; in define "D1" used at n.game:3:14; '
        'in define "D2" used at n.game:4:14; 6 more defines; in define "D9" used at n.game:12:16')
