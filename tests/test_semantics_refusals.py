"""Refusals name the part of a condition that failed, judged on the position the move makes;
and degenerate counts (`(line 0)`, ...) are refused when the game is loaded, at their place
in the file.

A move refused by `if:COND` gives what COND says when it does not hold, one refused by
`unless:COND` what it says when it holds. A combination says what its parts say *there*: an
`and` that fails, its first part that fails; an `or` that fails, that none of its alternatives
holds (each named); an `or` that holds, the alternative that held; `not X` what X says."""

from __future__ import annotations

import pytest
from refusals import illegal

from dsl.errors import RuleError
from interpreter import parse_game

ROW1 = "(in To (sites Row 1))"
COL1 = "(in To (sites Column 1))"
ROW3 = "(in To (sites Row 3))"
COL3 = "(in To (sites Column 3))"
COL2 = "(in To (sites Column 2))"


def game_text(play: str, *, end: str = "(if (line 3) (win Mover))", extra: str = "") -> str:
    return ('(game "T"\n  (players {(player "X") (player "O")})\n  (board (square 3))\n'
            f"  {extra}\n  (play {play})\n  (end {end}))\n")


def placing(filter_: str, *, extra: str = "", piece: str = ""):
    return parse_game(game_text(f"(place (sites Empty) {piece}{filter_})", extra=extra),
                      source="t.game")


def reason(filter_: str, move: str, position: str | None = None, **kw: str) -> str:
    """Why `move` is refused under the filtered placement (on `position`, else the start)."""
    game = placing(filter_, **kw)
    state = game.initial_state() if position is None else game.from_text(position)
    return illegal(state, move).removeprefix(f"{move}: ")


def allowed(filter_: str, move: str, position: str | None = None, **kw: str) -> bool:
    game = placing(filter_, **kw)
    state = game.initial_state() if position is None else game.from_text(position)
    return any(str(m) == move for m in state.legal_moves())


# --- the case ------------------------------------------------------------------------

def test_b1_is_in_row_1_so_the_or_allows_it() -> None:
    # (or ROW1 COL1) holds on b1 (row 1, column 2): it is not refused by the filter at all...
    assert allowed(f"if:(or {ROW1} {COL1})", "b1")
    # ...and when it is refused, it is for being occupied, not for the filter.
    assert reason(f"if:(or {ROW1} {COL1})", "b1", ". . .\n. . .\n. O .\nmover: X") == \
        "b1 is occupied"


def test_an_and_that_fails_names_the_part_that_failed_not_one_that_held() -> None:
    # b1 is in row 1: the refusal must not say it is not (it used to say "To is not in
    # (sites Row 1) or To is not in (sites Column 1)").
    assert reason(f"if:(and {ROW1} {COL1})", "b1") == "To is not in (sites Column 1)"
    assert reason(f"if:(and {ROW1} {COL1})", "a2") == "To is not in (sites Row 1)"


# --- and ---------------------------------------------------------------------------------------

def test_an_and_that_fails_names_its_first_failing_part() -> None:
    assert reason(f"if:(and {ROW1} {COL1})", "c3") == "To is not in (sites Row 1)"
    assert reason(f"if:(and {ROW1} {COL2} {COL1})", "a1") == "To is not in (sites Column 2)"
    assert reason(f"if:(and {ROW1} {COL2} {COL1})", "b1") == "To is not in (sites Column 1)"


def test_an_and_that_holds_names_every_part() -> None:
    assert reason(f"unless:(and {ROW1} {COL1})", "a1") == \
        "To is in (sites Row 1) and To is in (sites Column 1)"


def test_a_literal_true_part_is_not_named() -> None:
    assert reason(f"if:(and true {COL1})", "b1") == "To is not in (sites Column 1)"
    assert reason(f"unless:(and true {COL1})", "a1") == "To is in (sites Column 1)"


# --- or ----------------------------------------------------------------------------------------

def test_an_or_that_fails_says_no_alternative_holds_naming_each() -> None:
    assert reason(f"if:(or {ROW1} {COL1})", "c3") == \
        "To is not in (sites Row 1) and To is not in (sites Column 1)"
    assert reason(f"if:(or {ROW1} {COL1} {COL2})", "c3") == \
        "To is not in (sites Row 1), To is not in (sites Column 1) and " \
        "To is not in (sites Column 2)"


def test_an_or_that_holds_names_the_alternative_that_held() -> None:
    # it used to say "To is in (sites Row 1) or To is in (sites Column 1)" for each
    assert reason(f"unless:(or {ROW1} {COL1})", "b1") == "To is in (sites Row 1)"
    assert reason(f"unless:(or {ROW1} {COL1})", "a2") == "To is in (sites Column 1)"
    assert reason(f"unless:(or {ROW1} {COL1})", "a1") == "To is in (sites Row 1)"
    assert allowed(f"unless:(or {ROW1} {COL1})", "c3")


# --- not ---------------------------------------------------------------------------------------

def test_not_says_what_its_condition_says() -> None:
    assert reason(f"if:(not {ROW1})", "a1") == "To is in (sites Row 1)"
    assert reason(f"unless:(not {ROW1})", "a2") == "To is not in (sites Row 1)"


def test_not_of_an_or_that_held_names_the_alternative() -> None:
    assert reason(f"if:(not (or {ROW1} {COL1}))", "b1") == "To is in (sites Row 1)"
    assert reason(f"if:(not (or {ROW1} {COL1}))", "a2") == "To is in (sites Column 1)"


def test_not_of_an_and_that_failed_names_the_failing_part() -> None:
    assert reason(f"unless:(not (and {ROW1} {COL1}))", "b1") == "To is not in (sites Column 1)"
    assert reason(f"unless:(not (and {ROW1} {COL1}))", "a2") == "To is not in (sites Row 1)"
    assert reason(f"if:(not (and {ROW1} {COL1}))", "a1") == \
        "To is in (sites Row 1) and To is in (sites Column 1)"


def test_not_of_not_says_what_the_condition_says() -> None:
    assert reason(f"if:(not (not (or {ROW1} {COL1})))", "c3") == \
        "To is not in (sites Row 1) and To is not in (sites Column 1)"
    assert reason(f"unless:(not (not (or {ROW1} {COL1})))", "a2") == "To is in (sites Column 1)"


# --- nested ------------------------------------------------------------------------------------

CORNER_A1 = f"(and {ROW1} {COL1})"
CORNER_C3 = f"(and {ROW3} {COL3})"


def test_an_or_of_ands_names_where_each_alternative_failed() -> None:
    filter_ = f"if:(or {CORNER_A1} {CORNER_C3})"
    assert allowed(filter_, "a1") and allowed(filter_, "c3")
    assert reason(filter_, "b1") == \
        "To is not in (sites Column 1) and To is not in (sites Row 3)"
    assert reason(filter_, "a3") == \
        "To is not in (sites Row 1) and To is not in (sites Column 3)"


def test_an_and_of_ors_that_holds_names_the_alternatives_that_held() -> None:
    filter_ = f"unless:(and (or {ROW1} {ROW3}) (or {COL1} {COL2}))"
    assert reason(filter_, "b1") == "To is in (sites Row 1) and To is in (sites Column 2)"
    assert reason(filter_, "a3") == "To is in (sites Row 3) and To is in (sites Column 1)"
    assert allowed(filter_, "b2") and allowed(filter_, "c1")


def test_an_and_of_ors_that_fails_names_the_failing_alternatives() -> None:
    filter_ = f"if:(and (or {ROW1} {ROW3}) (or {COL1} {COL2}))"
    assert reason(filter_, "b2") == "To is not in (sites Row 1) and To is not in (sites Row 3)"
    assert reason(filter_, "c1") == \
        "To is not in (sites Column 1) and To is not in (sites Column 2)"


def test_an_or_that_held_inside_an_unless_or_of_ands() -> None:
    filter_ = f"unless:(or {CORNER_A1} {CORNER_C3})"
    assert reason(filter_, "c3") == "To is in (sites Row 3) and To is in (sites Column 3)"


# --- comparisons, judged on the position --------------------------------------------------------

FEW = "(< (count (sites Occupied Mover)) 3)"


def test_an_and_with_a_comparison_names_the_part_that_failed_there() -> None:
    filter_ = f"if:(and {FEW} {ROW1})"
    # X has two pieces: a third on c1 (row 1) makes three.
    assert reason(filter_, "c1", "O O .\n. . .\nX X .\nmover: X") == \
        "the number of (sites Occupied Mover) is at least 3"
    # O has one piece: a second is fine, but a2 is not in row 1.
    assert reason(filter_, "a2", ". . .\n. . .\nX . .\nmover: O") == \
        "To is not in (sites Row 1)"


def test_an_or_with_a_comparison_names_the_alternative_that_held_there() -> None:
    filter_ = f"unless:(or (= (count (sites Empty)) 0) {COL2})"
    assert reason(filter_, "b1") == "To is in (sites Column 2)"
    # the last empty site, not in column 2: the board is full after it
    assert reason(filter_, "c1", "X O X\nO X O\nO X .\nmover: X") == \
        "the number of (sites Empty) is 0"


@pytest.mark.parametrize("op, wording", [
    (">", "is at most"), (">=", "is less than"), ("<", "is at least"), ("<=", "is more than"),
    ("=", "is not"), ("!=", "is"),
])
def test_each_comparison_that_fails_says_why_inside_an_and(op: str, wording: str) -> None:
    # after X's first piece there are 8 empty sites: pick the bound that makes it fail
    bound = {">": 8, ">=": 9, "<": 8, "<=": 7, "=": 7, "!=": 8}[op]
    filter_ = f"if:(and {COL1} ({op} (count (sites Empty)) {bound}))"
    assert reason(filter_, "a1") == f"the number of (sites Empty) {wording} {bound}"
    assert reason(filter_, "b1") == "To is not in (sites Column 1)"


# --- named -------------------------------------------------------------------------------------

def test_named_parts_are_named_by_their_descriptions() -> None:
    filter_ = f'if:(and (named "on the first row" {ROW1}) (named "on the left" {COL1}))'
    assert reason(filter_, "b1") == "not on the left"
    assert reason(filter_, "a2") == "not on the first row"
    filter_ = f'unless:(or (named "on the first row" {ROW1}) (named "on the left" {COL1}))'
    assert reason(filter_, "a2") == "on the left"
    filter_ = f'if:(or (named "on the first row" {ROW1}) (named "on the left" {COL1}))'
    assert reason(filter_, "c3") == "not on the first row and not on the left"


def test_a_named_combination_is_named_as_a_whole() -> None:
    assert reason(f'if:(named "a corner" (or {CORNER_A1} {CORNER_C3}))', "b1") == \
        "not a corner"
    assert reason(f'unless:(named "a corner" (or {CORNER_A1} {CORNER_C3}))', "c3") == \
        "a corner"
    assert reason(f'if:(not (named "a corner" (or {CORNER_A1} {CORNER_C3})))', "a1") == \
        "a corner"


# --- conditions on what a site holds (judged from one table) ------------------------------------

TILES = '(pieces {(piece "Tile" symbol:"t")})'


def test_an_and_on_what_to_holds_names_the_part_that_failed() -> None:
    # A tile is put on To: it is occupied, but not by the mover's piece.
    assert reason("if:(and (is Occupied To) (is Friend To))", "a1", extra=TILES,
                  piece='piece:"Tile" ') == "To is not the mover's"
    assert reason('if:(and (holds To "Tile") (is Friend To))', "a1", extra=TILES,
                  piece='piece:"Tile" ') == "To is not the mover's"


def test_an_or_on_what_to_holds_names_the_alternative_that_held() -> None:
    assert reason('unless:(or (is Enemy To) (holds To "Tile"))', "a1", extra=TILES,
                  piece='piece:"Tile" ') == 'To holds a "Tile"'
    assert reason('unless:(or (is Friend To) (holds To "Tile"))', "a1", extra=TILES) == \
        "To is the mover's"


def test_an_or_on_what_to_holds_that_fails_names_each() -> None:
    assert reason('if:(or (is Enemy To) (holds To "Tile"))', "a1", extra=TILES) == \
        "To is not an enemy's and To holds no \"Tile\""


# --- patterns, which say which one formed --------------------------------------------------------

def test_not_forms_names_the_pattern_that_formed() -> None:
    filter_ = '(not (forms ("Crosscut") ("HardCorner")))'
    position = ". . .\nX O .\n. X .\nmover: O"
    # O on a1 makes a crosscut of the lower left square (a1 b2 against a2 b1)
    assert reason("if:" + filter_, "a1", position) == "forms a crosscut"
    assert reason("unless:(forms (\"Crosscut\") (\"HardCorner\"))", "a1", position) == \
        "forms a crosscut"


# --- end conditions ------------------------------------------------------------------------------

def test_a_game_ended_by_an_or_is_ended_by_the_rule_whichever_alternative_held() -> None:
    """An end rule keeps one name (the one `end_reasons` lists and analyses count by), even
    though its condition words itself as judged; name the alternatives with (named ...) to
    tell them apart."""
    game = parse_game(game_text("(place (sites Empty))", end="(if (or (line 3) (full)) (draw))"),
                      source="t.game")
    rule = game.end_reasons()[0]
    assert "3 in a row" in rule and "full" in rule
    lined = game.from_text("X X .\nO O .\n. . .\nmover: X").play("c3")
    assert lined.outcome is not None and lined.outcome.reason == rule
    filled = game.from_text("X O X\nX O O\nO X .\nmover: X").play("c1")
    assert filled.outcome is not None and filled.outcome.reason == rule


# --- degenerate counts are refused when the game is loaded ---------------------------------------

def loaded(*, board: str = "(square 3)", play: str = "(place (sites Empty))",
           end: str = "(if (full) (draw))") -> str:
    """A small game: the board on line 3, the play on line 4, the end on line 5."""
    return ('(game "T"\n  (players {(player "X") (player "O")})\n'
            f"  (board {board})\n  (play {play})\n  (end {end}))\n")


def refused(text: str) -> RuleError:
    with pytest.raises(RuleError) as info:
        parse_game(text, "t.game")
    return info.value


def assert_located(err: RuleError, line: int, column: int, message: str, written: str) -> None:
    """The error's first report is `t.game:line:column: message`, then the source line, then
    a caret line starting under `written`."""
    first, source, carets = str(err).splitlines()[:3]
    assert first == f"t.game:{line}:{column}: {message}"
    assert (err.path, err.line, err.column) == ("t.game", line, column)
    assert source.strip() == loaded_line(err, line).strip()
    assert carets.index("^") == source.index(written)


def loaded_line(err: RuleError, line: int) -> str:
    assert err.text is not None
    return err.text.splitlines()[line - 1]


@pytest.mark.parametrize("length", [0, -1])
def test_line_of_no_length_is_refused(length: int) -> None:
    err = refused(loaded(end=f"(if (line {length}) (win Mover))"))
    assert_located(err, 5, 12, f"line needs a length of at least 1, not {length}",
                   f"(line {length})")


def test_line_of_one_is_a_piece_and_loads() -> None:
    game = parse_game(loaded(end="(if (line 1) (win Mover))"), "t.game")
    assert game.initial_state().play("b2").winner == "X"


@pytest.mark.parametrize("length", [0, -2])
def test_sites_line_of_no_length_is_refused(length: int) -> None:
    err = refused(loaded(play=f"(take (sites Line {length} role:Next))"))
    assert_located(err, 4, 15, f"sites Line needs a length of at least 1, not {length}",
                   f"(sites Line {length}")


def test_sites_row_with_no_row_is_refused() -> None:
    err = refused(loaded(play="(place (sites Row))"))
    assert_located(err, 4, 16, "sites Row needs at least one row (rows 1 to 3)", "(sites Row)")


@pytest.mark.parametrize("column", [0, -1])
def test_sites_column_before_the_first_is_refused(column: int) -> None:
    err = refused(loaded(play=f"(place (sites Column 1 {column}))"))
    assert_located(err, 4, 16, f"column {column} does not exist (columns start at 1)",
                   "(sites Column")


def test_sites_column_past_the_end_of_the_rows_is_empty() -> None:
    # Rows of different lengths (hex boards) have columns that some rows lack: a column no
    # row reaches is empty, as it is for the rows it does not reach.
    game = parse_game(loaded(play="(place (sites Column 2 4))"), "t.game")
    assert sorted(str(m) for m in game.initial_state().legal_moves()) == ["b1", "b2", "b3"]


def test_sites_column_with_no_column_is_refused() -> None:
    err = refused(loaded(play="(place (sites Column))"))
    assert_located(err, 4, 16, "sites Column needs at least one column", "(sites Column)")


@pytest.mark.parametrize("at_least", [0, -1])
def test_connected_at_least_no_region_is_refused(at_least: int) -> None:
    err = refused(loaded(end=f"(if (connected Mover regions:(regions Sides) at-least:{at_least})"
                             " (win Mover))"))
    assert_located(err, 5, 12, f"at-least:{at_least} needs between 1 and as many regions as "
                               "are listed", "(connected")


def test_every_count_error_is_reported_at_once() -> None:
    err = refused(loaded(play="(place (sites Column 0))", end="(if (line 0) (win Mover))"))
    assert [(d.span.line, d.message) for d in err.diagnostics] == [
        (4, "column 0 does not exist (columns start at 1)"),
        (5, "line needs a length of at least 1, not 0")]
