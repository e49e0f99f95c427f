"""Every kind of mistake in a game file gives a `RuleError` located at the mistake.

Each test checks the whole report a user sees: `file:line:col: message`, the source line, and the
caret line under the offending text (and a `note:` line where there is one).
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

import stdlib
from dsl.errors import GameError, RuleError
from interpreter import Game, load_game, parse_game
from interpreter import RuleError as InterpreterRuleError


def tictactoe(*, before: str = "", players: str = '(player "X") (player "O")',
              board: str = "(square 3)", play: str = "(place (sites Empty))",
              end: str = "(if (line 3) (win Mover))") -> str:
    """A small valid game; each keyword replaces one part of it. Without `before`, the parts
    are on lines 2 (players), 3 (board), 4 (play) and 5 (end)."""
    return before + (
        '(game "T"\n'
        f"  (players {{{players}}})\n"
        f"  (board {board})\n"
        f"  (play {play})\n"
        f"  (end {end}))\n"
    )


def rule_error(text: str, **options: object) -> RuleError:
    with pytest.raises(RuleError) as info:
        parse_game(text, "t.game", **options)
    return info.value


def assert_report(err: RuleError, expected: str) -> None:
    """`str(err)` is exactly `expected` (dedented), and the error's path, line and column are
    those of its first line."""
    expected = textwrap.dedent(expected).strip("\n")
    assert str(err) == expected
    path, line, column = re.match(r"(.*?):(\d+):(\d+): ", expected).groups()  # type: ignore[union-attr]
    assert (err.path, err.line, err.column) == (path, int(line), int(column))


def test_the_template_game_is_valid() -> None:
    game = parse_game(tictactoe(), "t.game")
    assert isinstance(game, Game)
    assert game.players == ("X", "O")


def test_rule_error_is_the_one_family() -> None:
    assert InterpreterRuleError is RuleError
    assert issubclass(RuleError, GameError)


# --- syntax -------------------------------------------------------------------------------------


def test_unclosed_paren() -> None:
    text = tictactoe(end="(if (line 3) (win Mover))").removesuffix(")\n")
    assert_report(rule_error(text), """
        t.game:1:1: unclosed '(': no matching ')'
            (game "T"
            ^
    """)


def test_unexpected_closing_paren() -> None:
    err = rule_error(tictactoe(players='(player "X") (player "O")) '))
    assert_report(err, """
        t.game:2:38: unexpected ')': the innermost open bracket is '{' at line 2, column 12
              (players {(player "X") (player "O")) })
                                                 ^
    """)


def test_unterminated_string() -> None:
    err = rule_error(tictactoe(players='(player "X) (player "O")'))
    # The first string is "X) (player ", so the one left open is the one after O.
    assert_report(err, """
        t.game:2:35: unterminated string: a string must end with '"' on the same line
              (players {(player "X) (player "O")})
                                              ^
    """)


def test_unterminated_string_ending_in_a_backslash() -> None:
    # A backslash at the end of a line does not continue a string onto the next line.
    err = rule_error('(game "T\\\n  (players {(player "X") (player "O")})\n')
    assert_report(err, """
        t.game:1:7: unterminated string: a string must end with '"' on the same line
            (game "T\\
                  ^
    """)


def test_unexpected_character() -> None:
    err = rule_error(tictactoe(board="(square 3) $"))
    assert_report(err, """
        t.game:3:21: unexpected character '$'
              (board (square 3) $)
                                ^
    """)


def test_keyword_with_no_value() -> None:
    err = rule_error(tictactoe(players='(player "X" symbol:) (player "O")'))
    assert_report(err, """
        t.game:2:32: unexpected ')': a keyword argument needs a value after the ':'
              (players {(player "X" symbol:) (player "O")})
                                           ^
    """)


# --- names, arity and types (the checker) -------------------------------------------------------


def test_unknown_ludeme_with_did_you_mean() -> None:
    err = rule_error(tictactoe(play="(plaec (sites Empty))"))
    assert_report(err, """
        t.game:4:10: unknown ludeme 'plaec' (did you mean "place"?)
              (play (plaec (sites Empty)))
                     ^^^^^
    """)


def test_unknown_member_of_a_family_with_did_you_mean() -> None:
    err = rule_error(tictactoe(play="(place (sites Emtpy))"))
    assert_report(err, """
        t.game:4:23: unknown kind Emtpy for (sites ...) (did you mean Empty?)
              (play (place (sites Emtpy)))
                                  ^^^^^
    """)


def test_too_many_arguments() -> None:
    err = rule_error(tictactoe(board="(square 3 4)"))
    assert_report(err, """
        t.game:3:20: too many arguments: (square ...) takes 1; usage: (square int)
              (board (square 3 4))
                               ^
    """)


def test_missing_argument() -> None:
    err = rule_error(tictactoe(board="(square)"))
    assert_report(err, """
        t.game:3:11: missing argument int for (square ...); usage: (square int)
              (board (square))
                      ^^^^^^
    """)


def test_string_where_a_board_is_wanted() -> None:
    # (A string where a Region is wanted is a site name: see test_unknown_site_name.)
    err = rule_error(tictactoe(board='"square"'))
    assert_report(err, """
        t.game:3:10: expected a Board here, found a string "square"
              (board "square")
                     ^^^^^^^^
    """)


def test_number_where_a_region_is_wanted() -> None:
    err = rule_error(tictactoe(play="(place 3)"))
    assert_report(err, """
        t.game:4:16: expected a Region here, found a number 3
              (play (place 3))
                           ^
    """)


def test_moves_where_a_boolean_is_wanted() -> None:
    err = rule_error(tictactoe(end="(if (pass) (win Mover))"))
    assert_report(err, """
        t.game:5:13: expected a Boolean here, but (pass ...) is a Moves
              (end (if (pass) (win Mover))))
                        ^^^^
    """)


def test_unknown_keyword_argument_with_did_you_mean() -> None:
    err = rule_error(tictactoe(play="(place (sites Empty) unles:(full))"))
    assert_report(err, """
        t.game:4:30: unknown argument 'unles:' for (place ...) (did you mean 'unless:'?)
              (play (place (sites Empty) unles:(full)))
                                         ^^^^^^^^^^^^
    """)


def test_unknown_constant() -> None:
    err = rule_error(tictactoe(end="(if (line 3) (win Mvoer))"))
    assert_report(err, """
        t.game:5:26: unknown constant Mvoer for a Role (did you mean Mover?)
              (end (if (line 3) (win Mvoer))))
                                     ^^^^^
    """)


# --- defines ------------------------------------------------------------------------------------


def test_undefined_define_with_did_you_mean() -> None:
    err = rule_error(tictactoe(before='(define "Empties" (sites Empty))\n',
                               play='(place ("Emptys"))'))
    assert_report(err, """
        t.game:5:17: undefined define "Emptys" (did you mean "Empties"?)
              (play (place ("Emptys")))
                            ^^^^^^^^
    """)


def test_define_called_with_the_wrong_number_of_arguments() -> None:
    err = rule_error(tictactoe(before='(define "Board" (square #1))\n', board='("Board" 3 4)'))
    assert_report(err, """
        t.game:4:10: define "Board" takes 1 argument, given 2
              (board ("Board" 3 4))
                     ^^^^^^^^^^^^^
          note: the define is at t.game:1:1
    """)


def test_recursive_define_stops_with_an_error() -> None:
    err = rule_error(tictactoe(before='(define "Loop" (not ("Loop")))\n',
                               end='(if ("Loop") (draw))'))
    assert_report(err, """
    t.game:1:21: define "Loop" expands more than 40 levels deep (does it use itself?)
        (define "Loop" (not ("Loop")))
                            ^^^^^^^^
      note: in define "Loop" used at t.game:1:21 (39 times); in define "Loop" used at t.game:6:12
    """)


def test_error_inside_a_define_body_cites_the_call_site() -> None:
    err = rule_error(tictactoe(before='(define "Win" (if (line #1) (win Mvoer)))\n',
                               end='("Win" 3)'))
    assert_report(err, """
        t.game:1:34: unknown constant Mvoer for a Role (did you mean Mover?)
            (define "Win" (if (line #1) (win Mvoer)))
                                             ^^^^^
          note: in define "Win" used at t.game:6:8
    """)


def test_error_inside_nested_defines_cites_every_call_site() -> None:
    before = '(define "Outer" ("Inner" #1))\n(define "Inner" (plac (sites #1)))\n'
    err = rule_error(tictactoe(before=before, play='("Outer" Empty)'))
    assert_report(err, """
        t.game:2:18: unknown ludeme 'plac' (did you mean "place"?)
            (define "Inner" (plac (sites #1)))
                             ^^^^
          note: in define "Inner" used at t.game:1:17; in define "Outer" used at t.game:6:9
    """)


def test_undefined_define_inside_a_define_body_cites_the_call_site() -> None:
    err = rule_error(tictactoe(before='(define "Win" ("Nope"))\n', end='("Win")'))
    assert_report(err, """
        t.game:1:16: undefined define "Nope"
            (define "Win" ("Nope"))
                           ^^^^^^
          note: in define "Win" used at t.game:6:8
    """)


def test_a_mistake_in_a_define_used_many_times_is_said_once() -> None:
    uses = " ".join(['("Bad")'] * 40)
    err = rule_error(tictactoe(before='(define "Bad" (plac (sites Empty)))\n',
                               play=f"(any-of {uses})"))
    assert_report(err, """
        t.game:1:16: unknown ludeme 'plac' (did you mean "place"?)
            (define "Bad" (plac (sites Empty)))
                           ^^^^
          note: in define "Bad" used at t.game:5:17, t.game:5:25, t.game:5:33 and 37 more places
    """)
    (only,) = err.diagnostics
    assert len(only.uses) == 40 and {u.via[0] for u in only.uses if u.via} == {"Bad"}


def test_a_compile_error_in_a_define_used_twice_lists_both_uses() -> None:
    err = rule_error(tictactoe(before='(define "Bad" (place (sites {"z9"})))\n',
                               play='(any-of ("Bad") ("Bad"))'))
    assert_report(err, """
        t.game:1:30: no site "z9" on this board
            (define "Bad" (place (sites {"z9"})))
                                         ^^^^
          note: in define "Bad" used at t.game:5:17 and t.game:5:25
    """)


def test_uses_through_nested_defines_are_counted_and_listed_by_define() -> None:
    before = '(define "Outer" ("Inner" #1))\n(define "Inner" (plac (sites #1)))\n'
    err = rule_error(tictactoe(before=before, play='(any-of ("Outer" Empty) ("Outer" Empty))'))
    assert len(err.diagnostics) == 1
    assert str(err).split("\n")[-1] == ('  note: in 2 uses of define "Inner": "Inner" is used at '
                                        't.game:1:17, "Outer" at t.game:6:17 and t.game:6:33')
    err = rule_error(tictactoe(before=before,
                               play='(any-of ("Outer" Empty) ("Outer" Empty) ("Inner" Empty))'))
    assert len(err.diagnostics) == 1
    assert str(err).split("\n")[-1] == ('  note: in 3 uses of define "Inner": "Inner" is used at '
                                        't.game:1:17 and t.game:6:49, "Outer" at t.game:6:17 '
                                        "and t.game:6:33")


def test_misusing_a_library_define_twice_is_said_once() -> None:
    err = rule_error(tictactoe(play='(any-of (place ("Crosscut")) (place ("Crosscut")))'))
    (only,) = [d for d in err.diagnostics if d.span.path == "t.game"]
    assert str(only.span) == "t.game:4:24"
    note = only.full_note()
    assert note is not None and note.startswith('in define "Crosscut", at stdlib/')
    assert note.endswith("; also used at t.game:4:45")


def test_the_same_mistake_at_different_places_is_not_merged() -> None:
    # Each call gives the define the wrong number of arguments: two mistakes, two reports.
    err = rule_error(tictactoe(before='(define "P" (place (sites #3)))\n',
                               play='(any-of ("P" Empty) ("P" Empty))'))
    assert [str(d.span) for d in err.diagnostics] == ["t.game:5:17", "t.game:5:29"]


def test_merge_drops_exact_repeats_and_keeps_the_order() -> None:
    from dsl.ast import Span
    from dsl.errors import Diagnostic, merge

    a = Diagnostic(Span("t.game", 3, 1, 3, 4), "first")
    b = Diagnostic(Span("t.game", 1, 1, 1, 2), "second")
    assert merge([a, b, a, b, a]) == [a, b]
    assert merge([a, b])[0].uses == ()


# --- options ------------------------------------------------------------------------------------

SIZED = tictactoe(before='(option "size" 3 min:3 max:9)\n', board="(square #size)")


def test_the_sized_game_is_valid() -> None:
    assert len(parse_game(SIZED, "t.game", size=4).sites) == 16


def test_unknown_option_override() -> None:
    err = rule_error(SIZED, sise=5)
    assert_report(err, """
        t.game:2:2: unknown option 'sise' (this game's options: size) (did you mean "size"?)
    """)


def test_option_out_of_range(tmp_path: Path) -> None:
    path = tmp_path / "sized.game"
    path.write_text(SIZED, encoding="utf-8")
    with pytest.raises(RuleError) as info:
        load_game(path, size=2)
    assert_report(info.value, f"""
        {path}:1:1: option size=2 is below its minimum 3 (size: integer, default 3; min 3; max 9)
    """)


def test_option_of_the_wrong_type() -> None:
    err = rule_error(SIZED, size="big")
    assert_report(err, """
        t.game:1:1: option size must be integer, not "big" (size: integer, default 3; min 3; max 9)
    """)


# --- names that only the board and the players give meaning to (the compiler) -------------------


def test_unknown_site_name() -> None:
    err = rule_error(tictactoe(play='(place (sites {"z9"}))'))
    assert_report(err, """
        t.game:4:24: no site "z9" on this board
              (play (place (sites {"z9"})))
                                   ^^^^
    """)


def test_unknown_role_name() -> None:
    err = rule_error(tictactoe(end='(if (line 3) (win "Z"))'))
    assert_report(err, """
        t.game:5:26: no role "Z" (roles: X, O)
              (end (if (line 3) (win "Z"))))
                                     ^^^
    """)


def test_direction_not_on_the_board() -> None:
    err = rule_error(tictactoe(board="(hexhex 3)", play="(step N)"))
    assert_report(err, """
        t.game:4:15: direction N does not exist on this hex board (it has NE, E, SE, SW, W, NW)
              (play (step N))
                          ^
    """)


# --- all errors at once, and the error object ---------------------------------------------------


def test_three_mistakes_give_three_located_errors() -> None:
    text = tictactoe(
        play="(place (sites Empty) unles:(full))",  # line 4: unknown keyword
        end='(if (line "3") (win Mvoer))',  # line 5: a string for an int, an unknown constant
    )
    err = rule_error(text)
    assert len(err.diagnostics) == 3
    assert [(d.span.line, d.span.column) for d in err.diagnostics] == [(4, 30), (5, 18), (5, 28)]
    assert [d.message.split(" ")[:2] for d in err.diagnostics] == [
        ["unknown", "argument"], ["expected", "an"], ["unknown", "constant"]]
    assert (err.path, err.line, err.column) == ("t.game", 4, 30)
    report = str(err).splitlines()
    assert [line for line in report if line.startswith("t.game:")] == [
        "t.game:4:30: unknown argument 'unles:' for (place ...) (did you mean 'unless:'?)",
        't.game:5:18: expected an int here, found a string "3"',
        "t.game:5:28: unknown constant Mvoer for a Role (did you mean Mover?)",
    ]
    assert len(report) == 9  # each error: header, source line, caret


def test_errors_of_expansion_and_of_checking_are_reported_together() -> None:
    err = rule_error(tictactoe(play='(place ("Nope"))', end="(if (lnie 3) (win Mover))"))
    assert_report(err, """
        t.game:4:17: undefined define "Nope"
              (play (place ("Nope")))
                            ^^^^^^
        t.game:5:13: unknown ludeme 'lnie' (did you mean "line"?)
              (end (if (lnie 3) (win Mover))))
                        ^^^^
    """)


def test_the_source_line_shown_is_the_line_reported() -> None:
    # Only "\n" ends a line for the parser; a form feed or a Unicode line separator in a
    # comment must not shift the source line printed under the message.
    for odd in ["\f", "\u2028"]:
        err = rule_error(f"// odd {odd} character\n" + tictactoe(board="(square 3) $"))
        assert str(err).split("\n")[:2] == [
            "t.game:4:21: unexpected character '$'",
            "      (board (square 3) $)",
        ], repr(odd)


def test_misusing_a_shared_define_shows_the_lines_of_the_right_files() -> None:
    # "Crosscut" is a define of the library (stdlib/patterns.lud): a Pattern, not a Region.
    text = tictactoe(play='(place ("Crosscut"))')
    err = rule_error(text)
    assert "t.game:4:16" in str(err)  # where the mistake is: the use of the define
    for d in err.diagnostics:
        shown = d.format(text).split("\n")[1]
        assert shown == "    " + line_of(d.span.path, d.span.line, text), d.format(text)


def line_of(path: str, line: int, text: str) -> str:
    """Line `line` of the file `path`: the game's own text ("t.game") or a library file."""
    if path == "t.game":
        source = text
    else:
        assert path.startswith("stdlib/"), path
        source = (Path(stdlib.__file__).parent / path.removeprefix("stdlib/")).read_text()
    return source.split("\n")[line - 1]


def test_load_game_on_a_missing_file_is_a_rule_error(tmp_path: Path) -> None:
    path = tmp_path / "nope.game"
    with pytest.raises(RuleError) as info:
        load_game(path)
    err = info.value
    assert not isinstance(err, OSError)
    assert (err.path, err.line, err.column) == (str(path), 1, 1)
    assert str(err) == f"{path}:1:1: cannot read the file: No such file or directory"


def test_load_game_reports_errors_with_the_file_path(tmp_path: Path) -> None:
    path = tmp_path / "broken.game"
    path.write_text(tictactoe(board="(square 3 4)"), encoding="utf-8")
    with pytest.raises(RuleError) as info:
        load_game(path)
    assert (info.value.path, info.value.line, info.value.column) == (str(path), 3, 20)
    assert str(info.value).startswith(f"{path}:3:20: too many arguments")


def test_a_suggestion_prefers_the_fewest_edits() -> None:
    # difflib scores 'line' and 'link' the same for 'lien'; a swap of two letters is one edit.
    err = rule_error(tictactoe(end="(if (lien 3) (win Mover))"))
    assert "unknown ludeme 'lien' (did you mean \"line\"?)" in str(err)
    from dsl.suggest import closest, edits

    assert edits("lien", "line") == 1 and edits("lien", "link") == 2
    assert closest("Mvoer", ["Mover", "Next"]) == "Mover"
    assert closest("zzz", ["Mover", "Next"]) is None
