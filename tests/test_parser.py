"""The parser: text → AST, checked against golden files, and the spans the AST keeps.

Each `tests/golden/parser/NAME.game` is parsed and its top-level nodes, written back with
`dsl.ast.show` one per line, are compared with `NAME.ast` beside it. After an intended change of
the output, regenerate the `.ast` files with

    LUDEME_REGEN=1 pytest tests/test_parser.py

and review the diff before committing it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from dsl.ast import (
    Bool,
    Const,
    Float,
    Form,
    Int,
    Keyword,
    ListNode,
    Node,
    Param,
    Span,
    Str,
    show,
)
from dsl.errors import RuleError
from dsl.parser import parse

GOLDEN = Path(__file__).parent / "golden" / "parser"
GOLDEN_INPUTS = sorted(GOLDEN.glob("*.game"))
REGEN = os.environ.get("LUDEME_REGEN") == "1"
NOSPAN = Span("<test>", 0, 0)  # spans are not compared by ==: any span will do in expectations


def read(path: Path) -> str:
    # newline="" keeps the file's characters exactly as written, as load_game's read_text does
    # on a file with "\n" line endings.
    with path.open(encoding="utf-8", newline="") as f:
        return f.read()


def shown(text: str, path: str = "golden.game") -> str:
    """The golden form of a parse: one `show`n top-level node per line."""
    return "".join(show(node) + "\n" for node in parse(text, path))


def children(node: Node) -> list[Node]:
    if isinstance(node, Form):
        return [*node.args, *node.kwargs]
    if isinstance(node, Keyword):
        return [node.value]
    if isinstance(node, ListNode):
        return list(node.items)
    return []


def walk(node: Node) -> list[Node]:
    out = [node]
    for c in children(node):
        out.extend(walk(c))
    return out


def only(text: str) -> Node:
    nodes = parse(text, "t.game")
    assert len(nodes) == 1, nodes
    return nodes[0]


# --- golden files -------------------------------------------------------------------------------


def test_there_are_golden_files() -> None:
    assert len(GOLDEN_INPUTS) >= 10


@pytest.mark.parametrize("game_file", GOLDEN_INPUTS, ids=lambda p: p.stem)
def test_golden(game_file: Path) -> None:
    expected_file = game_file.with_suffix(".ast")
    actual = shown(read(game_file), game_file.name)
    if REGEN:
        expected_file.write_text(actual, encoding="utf-8", newline="")
    assert expected_file.exists(), f"{expected_file.name} is missing: run with LUDEME_REGEN=1"
    assert actual == read(expected_file)


@pytest.mark.parametrize("game_file", GOLDEN_INPUTS, ids=lambda p: p.stem)
def test_golden_output_parses_back_to_the_same_ast(game_file: Path) -> None:
    nodes = parse(read(game_file), game_file.name)
    assert parse(shown(read(game_file)), "again.game") == nodes


# --- what each kind of syntax becomes ----------------------------------------------------------


def test_form_has_head_positional_and_keyword_arguments() -> None:
    node = only('(place (sites Empty) must-capture:true)')
    assert isinstance(node, Form)
    assert (node.head, node.is_call) == ("place", False)
    assert node.args == (Form(NOSPAN, head="sites", args=(Const(NOSPAN, "Empty"),)),)
    assert [k.name for k in node.kwargs] == ["must-capture"]
    assert node.kwarg("must-capture") == Bool(NOSPAN, True)
    assert node.kwarg("capture") is None


def test_keywords_are_collected_apart_from_positional_arguments_in_order() -> None:
    node = only("(f k:1 2 j:3 4)")
    assert isinstance(node, Form)
    assert node.args == (Int(NOSPAN, 2), Int(NOSPAN, 4))
    assert [(k.name, k.value) for k in node.kwargs] == [("k", Int(NOSPAN, 1)),
                                                       ("j", Int(NOSPAN, 3))]


def test_nested_lists() -> None:
    node = only("{1 {2 {}} {N}}")
    assert node == ListNode(NOSPAN, (
        Int(NOSPAN, 1),
        ListNode(NOSPAN, (Int(NOSPAN, 2), ListNode(NOSPAN, ()))),
        ListNode(NOSPAN, (Const(NOSPAN, "N"),)),
    ))


def test_string_escapes_are_decoded() -> None:
    node = only(r'(f "a\"b" "c\\d" "e\nf" "g\th")')
    assert isinstance(node, Form)
    assert [a.value for a in node.args if isinstance(a, Str)] == ['a"b', "c\\d", "e\nf", "g\th"]


def test_numbers() -> None:
    node = only("(f 42 -3 007 0.5 -2.25)")
    assert isinstance(node, Form)
    assert node.args == (Int(NOSPAN, 42), Int(NOSPAN, -3), Int(NOSPAN, 7), Float(NOSPAN, 0.5),
                         Float(NOSPAN, -2.25))
    assert [type(a.value) for a in node.args if isinstance(a, Int | Float)] == \
        [int, int, int, float, float]


def test_true_and_false_are_booleans_not_names() -> None:
    node = only("(f true false)")
    assert isinstance(node, Form)
    assert node.args == (Bool(NOSPAN, True), Bool(NOSPAN, False))
    assert all(type(a.value) is bool for a in node.args if isinstance(a, Bool))


def test_constants_and_params() -> None:
    node = only("(f Mover NE Orthogonal #1 #size)")
    assert isinstance(node, Form)
    assert node.args == (Const(NOSPAN, "Mover"), Const(NOSPAN, "NE"), Const(NOSPAN, "Orthogonal"),
                         Param(NOSPAN, "1"), Param(NOSPAN, "size"))


def test_operator_heads() -> None:
    for op in ["<", "<=", ">", ">=", "=", "!=", "+", "-", "*", "/"]:
        node = only(f"({op} 1 2)")
        assert isinstance(node, Form)
        assert (node.head, node.args) == (op, (Int(NOSPAN, 1), Int(NOSPAN, 2)))


def test_minus_head_followed_by_a_negative_number() -> None:
    node = only("(- -3 1)")
    assert isinstance(node, Form)
    assert (node.head, node.args) == ("-", (Int(NOSPAN, -3), Int(NOSPAN, 1)))


def test_define_call_has_a_string_head() -> None:
    node = only('("Two Words" 1 Mover)')
    assert isinstance(node, Form)
    assert (node.head, node.is_call) == ("Two Words", True)
    assert node.args == (Int(NOSPAN, 1), Const(NOSPAN, "Mover"))
    plain = only("(two 1 Mover)")
    assert isinstance(plain, Form) and not plain.is_call


def test_comments_are_ignored_but_not_inside_strings() -> None:
    node = only('// before\n(f "x // y" // after (\n  1) // end')
    assert node == Form(NOSPAN, head="f", args=(Str(NOSPAN, "x // y"), Int(NOSPAN, 1)))


def test_empty_text_and_only_comments_give_no_nodes() -> None:
    assert parse("", "t.game") == []
    assert parse("  \n// nothing\n\t\n", "t.game") == []


def test_crlf_line_endings() -> None:
    assert parse("(a 1)\r\n(b\r\n  2)\r\n", "t.game") == parse("(a 1)\n(b\n  2)\n", "t.game")


# --- show writes source text that parses back -------------------------------------------------


def assert_round_trips(text: str) -> None:
    node = only(text)
    again = show(node)
    assert "\n" not in again, f"show wrote a line break: {again!r}"
    assert only(again) == node, again


def test_show_canonical_spacing() -> None:
    assert show(only("(  f  {1   2}\n  k:  Mover )")) == "(f {1 2} k:Mover)"


def test_show_round_trips_a_string_with_quote_and_backslash() -> None:
    assert_round_trips(r'(f "say \"hi\" \\ back")')


def test_show_round_trips_a_string_with_an_escaped_newline() -> None:
    # The parser decodes "\n" to a line break; show must write it back as the escape, since
    # a string may not span lines.
    assert_round_trips(r'(game "two\nlines")')


def test_show_round_trips_a_define_call_whose_name_has_a_quote() -> None:
    assert_round_trips(r'("say \"hi\"" 1)')


def test_show_round_trips_small_and_large_floats() -> None:
    # repr() of these is 1e-07 and 1e+20, which the grammar does not accept as numbers.
    assert_round_trips("(f 0.0000001)")
    assert_round_trips("(f 100000000000000000000.0)")


# --- spans --------------------------------------------------------------------------------------

def at(node: Node) -> tuple[int, int, int, int]:
    s = node.span
    return (s.line, s.column, s.end_line, s.end_column)


def test_spans_of_a_multi_line_form() -> None:
    text = (
        '(game "T"\n'         # line 1
        "  (board  (square 3))\n"   # line 2
        "  k:{1 -2} Mover #size)\n"  # line 3
    )
    game = only(text)
    assert isinstance(game, Form)
    assert game.span.path == "t.game"
    assert at(game) == (1, 1, 3, 24)
    assert (game.head_span.line, game.head_span.column, game.head_span.end_column) == (1, 2, 6)
    name, board, mover, size = game.args
    assert at(name) == (1, 7, 1, 10)
    assert at(board) == (2, 3, 2, 22)
    assert isinstance(board, Form)
    assert at(board.args[0]) == (2, 11, 2, 21)
    assert at(mover) == (3, 12, 3, 17)
    assert at(size) == (3, 18, 3, 23)
    (k,) = game.kwargs
    assert at(k) == (3, 3, 3, 11)
    assert at(k.value) == (3, 5, 3, 11)
    assert isinstance(k.value, ListNode)
    assert [at(i) for i in k.value.items] == [(3, 6, 3, 7), (3, 8, 3, 10)]


def test_spans_count_tabs_as_one_column_and_skip_comments() -> None:
    nodes = parse("// comment (\n\t(a\t1)\n", "t.game")
    (form,) = nodes
    assert isinstance(form, Form)
    assert at(form) == (2, 2, 2, 7)
    assert at(form.args[0]) == (2, 5, 2, 6)


def offset(text: str, line: int, column: int) -> int:
    lines = text.splitlines(keepends=True)
    return sum(len(x) for x in lines[: line - 1]) + column - 1


def source_of(text: str, span: Span) -> str:
    return text[offset(text, span.line, span.column): offset(text, span.end_line, span.end_column)]


@pytest.mark.parametrize("game_file", GOLDEN_INPUTS, ids=lambda p: p.stem)
def test_every_span_covers_the_text_of_its_node(game_file: Path) -> None:
    """In every golden input, each node's span is exactly the source text of that node."""
    text = read(game_file)
    for top in parse(text, game_file.name):
        for node in walk(top):
            assert node.span.path == game_file.name
            src = source_of(text, node.span)
            if isinstance(node, Form):
                assert src.startswith("(") and src.endswith(")"), (node, src)
                head = source_of(text, node.head_span)
                assert src[1:].lstrip().startswith(head), (node, src)
                assert only(f"({head})") == Form(NOSPAN, head=node.head, is_call=node.is_call)
            elif isinstance(node, ListNode):
                assert src.startswith("{") and src.endswith("}"), (node, src)
            elif isinstance(node, Keyword):
                assert src.startswith(node.name + ":"), (node, src)
                assert src.endswith(source_of(text, node.value.span))
            elif isinstance(node, Str):
                assert src.startswith('"') and src.endswith('"'), (node, src)
                assert only(f"(f {src})") == Form(NOSPAN, head="f", args=(node,))
            elif isinstance(node, Int | Float):
                assert type(node)(NOSPAN, type(node.value)(src)) == node, (node, src)
            elif isinstance(node, Bool | Const | Param):
                assert src == show(node), (node, src)
            else:  # pragma: no cover
                raise AssertionError(node)


def test_parse_errors_are_rule_errors_with_the_path() -> None:
    with pytest.raises(RuleError) as info:
        parse("(a\n  (b 1)", "my/file.game")
    assert (info.value.path, info.value.line, info.value.column) == ("my/file.game", 1, 1)
