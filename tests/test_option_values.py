"""Option values are validated by their declaration: min:/max:, choices:, and for text
letters-of: (the value is these letters in any order) and pattern: (regular expressions the
whole value matches). Chess's `back` must be one of Chess960's 960 start positions. A refused
value is one line naming the option, the value and what is allowed, whichever way it was
given: load_game, `--option`, a record, the playground."""

from __future__ import annotations

import doctest
import sys
from itertools import permutations
from pathlib import Path

import pytest

from dsl.expand import FORMS
from interpreter import RuleError, load_game, parse_game
from interpreter.cli import main
from interpreter.record import RecordError, load_record, text_hash

ROOT = Path(__file__).resolve().parent.parent
CHESS = ROOT / "games" / "chess.game"
HEX = ROOT / "games" / "hex.game"


def refusal(path: Path, **options: object) -> str:
    with pytest.raises(RuleError) as info:
        load_game(path, **options)
    return str(info.value)


def is_chess960(rank: str) -> bool:
    """Chess960's rule, said directly: the eight pieces, the bishops on squares of opposite
    colours, the king between the rooks."""
    if sorted(rank) != sorted("RNBQKBNR"):
        return False
    b1, b2 = (i for i, p in enumerate(rank) if p == "B")
    r1, r2 = (i for i, p in enumerate(rank) if p == "R")
    return (b1 + b2) % 2 == 1 and r1 < rank.index("K") < r2


# --- chess's back rank --------------------------------------------------------------------------

def test_a_back_rank_of_kings_is_refused_in_one_line() -> None:
    said = refusal(CHESS, back="KKKKKKKK")
    assert "\n" not in said
    assert said.startswith(f'{CHESS}:19:1: option back="KKKKKKKK" is not the letters of '
                           '"RNBQKBNR" in any order (back: text, default "RNBQKBNR";')
    assert "bishops on squares of opposite colours" in said


@pytest.mark.parametrize("rank, broken", [
    ("BNBRKRNQ", "[^B]*B([^B][^B])*B[^B]*"),    # both bishops on light squares
    ("KRRBBNNQ", "[^RK]*R[^RK]*K[^RK]*R[^RK]*"),  # the king is not between the rooks
])
def test_a_rank_of_the_right_pieces_that_is_no_chess960_start_is_refused(
        rank: str, broken: str) -> None:
    said = refusal(CHESS, back=rank)
    assert "\n" not in said
    assert f'option back="{rank}" does not match "{broken}"' in said


def test_exactly_the_960_starts_are_accepted() -> None:
    back = load_game(CHESS).expansion.declared["back"]
    ranks = {"".join(p) for p in permutations("RNBQKBNR")}
    accepted = {rank for rank in ranks if back.problem(rank) is None}
    assert len(accepted) == 960
    assert accepted == {rank for rank in ranks if is_chess960(rank)}


def test_wrong_pieces_and_lengths_are_refused_by_the_option() -> None:
    for rank in ("RNBQKBN", "RNBQKBNRR", "RNBQKBNX", "rnbqkbnr", ""):
        assert f'option back="{rank}" is not the letters of' in refusal(CHESS, back=rank)


def test_chess960_starts_still_load() -> None:
    state = load_game(CHESS, back="BBQNNRKR").initial_state()
    assert state.to_text().splitlines()[7] == "B B Q N N R K R"


# --- one check, whichever way the value is given ------------------------------------------------

def test_the_command_line_refuses_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(CHESS), "--option", "back=KKKKKKKK"]) == 1
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and 'option back="KKKKKKKK" is not the letters of' in err
    assert main(["playout", str(HEX), "--option", "size=99", "-n", "1"]) == 1
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "option size=99 is above its maximum" in err


def test_a_record_with_a_refused_option_names_its_line(tmp_path: Path) -> None:
    record = tmp_path / "bad.rec"
    record.write_text(f"game: {CHESS}\nsha256: {text_hash(CHESS.read_text(encoding='utf-8'))}\n"
                      "option: back=KKKKKKKK\ne2-e4\n", encoding="utf-8")
    with pytest.raises(RecordError) as info:
        load_record(record)
    said = str(info.value)
    assert said.startswith(f'{record}:3: option back="KKKKKKKK" is not the letters of')
    assert "\n" not in said


def test_the_playground_refuses_the_same_values() -> None:
    tasks = pytest.importorskip("interpreter.web.tasks")
    text = CHESS.read_text(encoding="utf-8")
    out = tasks.check(text, "chess.game", {"back": "KKKKKKKK"})
    assert not out["ok"]
    (only,) = out["diagnostics"]
    assert only["message"].startswith('option back="KKKKKKKK" is not the letters of')
    out = tasks.check(HEX.read_text(encoding="utf-8"), "hex.game", {"size": 99})
    assert not out["ok"] and "above its maximum" in out["diagnostics"][0]["message"]
    assert tasks.check(text, "chess.game", {"back": "BBQNNRKR"})["ok"]


# --- declarations -------------------------------------------------------------------------------

GAME = ('(game "G" (players {(player "A") (player "B")}) (board (square 3))\n'
        "  (play (place (sites Empty))) (end (if (full) (draw))))\n")


def declared(option: str, **options: object) -> RuleError:
    with pytest.raises(RuleError) as info:
        parse_game(option + "\n" + GAME, "o.game", **options)
    return info.value


def test_a_single_pattern_and_letters_of() -> None:
    text = '(option "word" "ab" letters-of:"ab" pattern:"a.*")\n' + GAME
    assert parse_game(text, "o.game", word="ab").options == {"word": "ab"}
    assert parse_game(text + "", "o.game").options == {"word": "ab"}
    with pytest.raises(RuleError, match='option word="ba" does not match "a.\\*"'):
        parse_game(text, "o.game", word="ba")
    with pytest.raises(RuleError, match='option word="abb" is not the letters of "ab"'):
        parse_game(text, "o.game", word="abb")


def test_a_pattern_must_match_the_whole_value() -> None:
    text = '(option "n" "1" pattern:"[0-9]")\n' + GAME
    with pytest.raises(RuleError, match='option n="12" does not match'):
        parse_game(text, "o.game", n="12")


def test_a_default_that_breaks_its_own_rule_is_located() -> None:
    err = declared('(option "w" "abc" letters-of:"abd")')
    assert str(err).splitlines() == [
        'o.game:1:13: default w="abc" is not the letters of "abd" in any order',
        '    (option "w" "abc" letters-of:"abd")',
        "                ^^^^^"]


def test_a_broken_regular_expression_is_located() -> None:
    err = declared('(option "w" "a" pattern:{"a" "(b"})')
    first = str(err).splitlines()[0]
    assert first.startswith("o.game:1:30: option w: this pattern is not a regular expression: ")


def test_letters_of_and_pattern_are_for_text_options() -> None:
    for kw in ('letters-of:"12"', 'pattern:"[0-9]+"'):
        err = declared(f'(option "n" 3 {kw})')
        assert "is only for options whose value is text" in str(err)
    err = declared('(option "w" "a" pattern:3)')
    assert "pattern:\"regex\"" in str(err)


def test_numbers_keep_their_bounds_everywhere(capsys: pytest.CaptureFixture[str]) -> None:
    text = '(option "n" 3 min:2 max:4)\n' + GAME
    for bad, why in ((1, "below its minimum 2"), (5, "above its maximum 4"),
                     ("5", "above its maximum 4")):
        with pytest.raises(RuleError, match=why):
            parse_game(text, "o.game", n=bad)


# --- documentation ------------------------------------------------------------------------------

def test_the_module_documentation_runs() -> None:
    import dsl.expand  # noqa: F401  (dsl exports a function of the same name)

    result = doctest.testmod(sys.modules["dsl.expand"], optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 2 and result.failed == 0


def test_ludeme_grammar_option_shows_the_option_form(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["grammar", "option"]) == 0
    out = capsys.readouterr().out
    assert out.startswith('(option "name" default') and "letters-of:" in out
    assert "pattern:" in out and '(option "back" "RNBQKBNR"' in out


@pytest.mark.parametrize("usage, doc", FORMS, ids=[u.split()[0] for u, _ in FORMS])
def test_each_form_example_works(usage: str, doc: str) -> None:
    example = doc.split("\n\n")[-1]
    if example.startswith("(option"):
        game = parse_game(example + "\n" + GAME, "o.game", back="RKRNNQBB")
        assert game.options == {"back": "RKRNNQBB"}
        with pytest.raises(RuleError, match="does not match"):
            parse_game(example + "\n" + GAME, "o.game", back="RKRNNBQB")
    elif example.startswith("(define"):
        parse_game(example + '\n' + GAME.replace("(sites Empty)", '("Empties")'), "o.game")
    else:
        text = '(option "short" true)\n' + GAME.replace("(square 3)", "(match #short true "
                                                         "(square 3) (square 5))")
        assert len(parse_game(text, "o.game", short=False).sites) == 25


# --- put-row ------------------------------------------------------------------------------------

ROW = ('(option "row" "XOX")\n'
       '(game "G" (players {(player "A" symbol:"X") (player "B" symbol:"O")})\n'
       "  (board (square 3)) (start (put-row (sites Row 1) #row))\n"
       "  (play (place (sites Empty))) (end (if (full) (draw))))\n")


@pytest.mark.parametrize("row, message", [
    ("XQX", "no piece has the symbol 'Q'"),
    ("XO", "2 symbols for 3 sites: write one per site"),
    ("XOXO", "4 symbols for 3 sites: write one per site"),
])
def test_put_row_says_what_is_wrong_at_its_place(row: str, message: str) -> None:
    with pytest.raises(RuleError) as info:
        parse_game(ROW, "r.game", row=row)
    lines = str(info.value).splitlines()
    assert lines[0] == f"r.game:3:29: {message}"
    assert lines[1] == "      (board (square 3)) (start (put-row (sites Row 1) #row))"
    assert "Traceback" not in str(info.value)


def test_put_row_accepts_dots_for_empty_sites() -> None:
    state = parse_game(ROW, "r.game", row="X.O").initial_state()
    assert state.to_text().splitlines()[2].split() == ["X", ".", "O"]
