"""Defines and options: the expansion pass on its own (`dsl.expand`), and through `parse_game`."""

from __future__ import annotations

from pathlib import Path

import pytest

from dsl.ast import Form, Int, show
from dsl.errors import RuleError
from dsl.expand import Expansion, expand
from dsl.parser import parse
from interpreter import load_game, parse_game


def expanded(text: str, **overrides: object) -> Expansion:
    return expand(parse(text, "t.game"), overrides, text=text, path="t.game")


def sections(text: str, **overrides: object) -> list[str]:
    """The arguments of the expanded (game ...) form, written back as text."""
    return [show(a) for a in expanded(text, **overrides).game.args]


def expand_error(text: str, **overrides: object) -> RuleError:
    with pytest.raises(RuleError) as info:
        expanded(text, **overrides)
    return info.value


def messages(err: RuleError) -> list[str]:
    return [d.message for d in err.diagnostics]


def tictactoe(*, before: str = "", board: str = "(square 3)", play: str = "(place (sites Empty))",
              end: str = "(if (line 3) (win Mover))", pie: str = "") -> str:
    return before + (
        '(game "T"\n'
        f'  (players {{(player "X") (player "O")}}{pie})\n'
        f"  (board {board})\n"
        f"  (play {play})\n"
        f"  (end {end}))\n"
    )


# --- defines ------------------------------------------------------------------------------------


def test_define_without_parameters() -> None:
    text = '(define "Empties" (sites Empty))\n(game "T" (place ("Empties")))'
    assert sections(text) == ['"T"', "(place (sites Empty))"]


def test_define_with_parameters() -> None:
    text = '(define "Win" (if (line #1) (win #2)))\n(game "T" (end ("Win" 3 Mover)))'
    assert sections(text) == ['"T"', "(end (if (line 3) (win Mover)))"]


def test_a_parameter_used_twice_and_arguments_that_are_forms_and_lists() -> None:
    text = ('(define "Twice" {#1 #1 #2})\n'
            '(game "T" ("Twice" (sites Empty) {N S}))')
    assert sections(text) == ['"T"', "{(sites Empty) (sites Empty) {N S}}"]


def test_parameters_in_keyword_values() -> None:
    text = '(define "P" (player #1 symbol:#2))\n(game "T" ("P" "Red" "R"))'
    assert sections(text) == ['"T"', '(player "Red" symbol:"R")']


def test_nested_defines_pass_parameters_down() -> None:
    text = ('(define "Outer" (end ("Inner" #1 Mover)))\n'
            '(define "Inner" (if (line #1) (win #2)))\n'
            '(game "T" ("Outer" 4))')
    assert sections(text) == ['"T"', "(end (if (line 4) (win Mover)))"]


def test_a_define_call_as_the_argument_of_a_define_call() -> None:
    text = ('(define "Not" (not #1))\n(define "Full" (full))\n'
            '(game "T" ("Not" ("Not" ("Full"))))')
    assert sections(text) == ['"T"', "(not (not (full)))"]


def test_defines_may_come_after_their_use_and_inside_the_game() -> None:
    text = ('(game "T"\n'
            '  (define "Inside" (pass))\n'
            '  (play ("Inside") ("Outside")))\n'
            '(define "Outside" (skip))\n')
    assert sections(text) == ['"T"', "(play (pass) (skip))"]


def test_expanded_nodes_remember_the_define_and_the_call() -> None:
    text = '(define "Line" (line #1))\n(game "T"\n  (end ("Line" 3)))'
    end = expanded(text).game.args[1]
    assert isinstance(end, Form)
    line = end.args[0]
    assert isinstance(line, Form) and line.head == "line"
    assert (line.span.line, line.span.column) == (1, 16)  # written in the define's body
    assert line.span.expansion_note() == 'in define "Line" used at t.game:3:8'
    three = line.args[0]
    assert three == Int(three.span, 3)
    assert (three.span.line, three.span.column) == (3, 16)  # written at the call site


def test_defines_do_not_appear_in_the_expanded_game() -> None:
    text = '(game "T" (define "X" (pass)) (play ("X")))'
    assert "define" not in show(expanded(text).game)


def test_a_define_used_as_the_game() -> None:
    text = tictactoe(before='(define "Cells" (sites Empty))\n', play='(place ("Cells"))')
    game = parse_game(text, "t.game")
    assert len(game.initial_state().legal_moves()) == 9


def test_define_errors_are_all_reported() -> None:
    text = ('(define "A" (pass))\n(define "A" (skip))\n(define B (pass))\n'
            '(game "T" (play #1 ("A" 1)))')
    err = expand_error(text)
    assert messages(err) == [
        'define "A" is defined twice',
        'a define is written (define "Name" body)',
        "#1 is a define parameter, used outside a define",
        'define "A" takes 0 arguments, given 1',
    ]
    assert [(d.span.line, d.span.column) for d in err.diagnostics] == \
        [(2, 9), (3, 1), (4, 17), (4, 20)]


# --- options ------------------------------------------------------------------------------------

SIZED = tictactoe(before='(option "size" 3 min:3 max:9 doc:"cells on a side")\n',
                  board="(square #size)")


def test_option_default() -> None:
    ex = expanded(SIZED)
    assert ex.options == {"size": 3}
    assert "(board (square 3))" in [show(a) for a in ex.game.args]
    assert ex.declared["size"].doc == "cells on a side"


def test_option_override() -> None:
    game = parse_game(SIZED, "t.game", size=5)
    assert game.options == {"size": 5}
    assert len(game.sites) == 25
    assert game.sites[0] == "a5" and game.sites[-1] == "e1"


def test_option_overrides_given_as_text_are_converted() -> None:
    text = tictactoe(before='(option "size" 3)\n(option "pie" false)\n',
                     board="(square #size)", pie=" pie:#pie")
    game = parse_game(text, "t.game", size="5", pie="true")
    assert game.options == {"size": 5, "pie": True}
    assert type(game.options["size"]) is int
    assert len(game.sites) == 25
    assert parse_game(text, "t.game", pie="false").options == {"size": 3, "pie": False}


def test_an_int_given_for_a_float_option_becomes_a_float() -> None:
    text = '(option "komi" 0.5)\n(game "T" (f #komi))'
    ex = expanded(text, komi=7)
    assert ex.options == {"komi": 7.0} and type(ex.options["komi"]) is float
    assert sections(text, komi="6.5") == ['"T"', "(f 6.5)"]


def test_a_bool_is_not_an_int() -> None:
    err = expand_error(SIZED, size=True)
    assert messages(err) == [
        'option size must be integer, not true (size: integer, default 3; min 3; max 9)']


def test_text_that_is_not_a_number_is_refused() -> None:
    err = expand_error(SIZED, size="five")
    assert messages(err) == [
        'option size must be integer, not "five" (size: integer, default 3; min 3; max 9)']


def test_option_above_its_maximum() -> None:
    err = expand_error(SIZED, size=10)
    assert messages(err) == [
        "option size=10 is above its maximum 9 (size: integer, default 3; min 3; max 9)"]
    assert (err.line, err.column) == (1, 1)


def test_option_choices() -> None:
    text = tictactoe(before='(option "size" 3 choices:{3 5 7})\n', board="(square #size)")
    assert parse_game(text, "t.game").options == {"size": 3}
    assert len(parse_game(text, "t.game", size=7).sites) == 49
    assert len(parse_game(text, "t.game", size="5").sites) == 25
    err = expand_error(text, size=4)
    assert messages(err) == [
        "option size=4 is not one of 3, 5, 7 (size: integer, default 3; one of 3, 5, 7)"]


def test_text_option_choices() -> None:
    text = ('(option "first" "Red" choices:{"Red" "Blue"})\n'
            '(game "T" (players {(player #first)}))')
    assert sections(text) == ['"T"', '(players {(player "Red")})']
    assert sections(text, first="Blue") == ['"T"', '(players {(player "Blue")})']
    assert messages(expand_error(text, first="Green")) == [
        'option first="Green" is not one of "Red", "Blue" '
        '(first: text, default "Red"; one of "Red", "Blue")']


def test_options_declared_inside_the_game() -> None:
    text = '(game "T" (option "n" 4) (board (square #n)))'
    assert sections(text) == ['"T"', "(board (square 4))"]
    assert sections(text, n=6) == ['"T"', "(board (square 6))"]


def test_an_option_inside_a_define_body() -> None:
    text = '(option "n" 4)\n(define "Board" (board (square #n)))\n(game "T" ("Board"))'
    assert sections(text, n=5) == ['"T"', "(board (square 5))"]


def test_a_default_outside_its_own_range_is_an_error() -> None:
    err = expand_error('(option "size" 2 min:3)\n(game "T" (board (square #size)))')
    assert messages(err) == ["default size=2 is below its minimum 3"]
    assert (err.line, err.column) == (1, 16)


def test_unknown_option_in_the_text() -> None:
    err = expand_error('(option "size" 3)\n(game "T" (board (square #sise)))')
    assert messages(err) == ['unknown option #sise (did you mean "size"?)']
    assert (err.line, err.column) == (2, 26)


def test_unknown_override_lists_the_options() -> None:
    err = expand_error('(game "T" (board (square 3)))', size=3)
    assert messages(err) == ["unknown option 'size' (this game's options: none)"]


# --- warnings -----------------------------------------------------------------------------------


def test_unused_define_and_option_are_warnings() -> None:
    text = tictactoe(before='(option "size" 3)\n(define "Unused" (pass))\n'
                            '(define "Used" (sites Empty))\n',
                     play='(place ("Used"))')
    game = parse_game(text, "t.game")
    assert [(w.severity, w.message, w.span.line, w.span.column) for w in game.warnings] == [
        ("warning", 'define "Unused" is never used', 2, 1),
        ("warning", 'option "size" is never used', 1, 1),
    ]
    assert game.warnings[0].format(text) == (
        't.game:2:1: warning: define "Unused" is never used\n'
        '    (define "Unused" (pass))\n'
        "    ^^^^^^^^^^^^^^^^^^^^^^^^"
    )


def test_no_warnings_when_everything_is_used() -> None:
    text = tictactoe(before='(option "size" 3)\n(define "Inner" (sites Empty))\n'
                            '(define "Outer" (place ("Inner")))\n',
                     board="(square #size)", play='("Outer")')
    assert parse_game(text, "t.game").warnings == []


def test_a_define_used_only_by_an_unused_define_is_unused() -> None:
    text = tictactoe(before='(define "Inner" (sites Empty))\n(define "Outer" (place ("Inner")))\n')
    game = parse_game(text, "t.game")
    assert sorted(w.message for w in game.warnings) == [
        'define "Inner" is never used', 'define "Outer" is never used']


def test_the_shipped_games_have_no_warnings() -> None:
    games = sorted((Path(__file__).parent.parent / "games").glob("*.game"))
    assert games
    for path in games:
        assert load_game(path).warnings == [], path


def test_a_range_on_a_text_option_is_an_error_not_a_crash() -> None:
    # Found by fuzzing: min:/max: on an option whose default is text compared "A" < 4.
    text = ('(option "size" "A" min:4)\n(game "G" (players {(player "X") (player "O")}) '
            '(board (square 3)) (play (place (sites Empty))) (end (if (line 3) (win Mover))))')
    with pytest.raises(RuleError) as info:
        parse_game(text, "t.game")
    assert "only for options whose value is a number" in str(info.value)
    assert info.value.line == 1 and info.value.column == 20
