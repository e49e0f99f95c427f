"""Text → AST. Lark (LALR) does the parsing; everything Lark is caught here and turned into
`RuleError`s that point at the exact character, so nothing downstream sees a Lark type."""

from __future__ import annotations

import functools
import re
from importlib import resources

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

from dsl.ast import Bool, Const, Float, Form, Int, Keyword, ListNode, Node, Param, Span, Str
from dsl.errors import Diagnostic, RuleError, snippet


@functools.lru_cache(maxsize=1)
def _lark() -> Lark:
    grammar = resources.files("dsl").joinpath("grammar.lark").read_text(encoding="utf-8")
    return Lark(grammar, parser="lalr", propagate_positions=True, maybe_placeholders=False)


def _unescape(raw: str) -> str:
    body = raw[1:-1]
    out: list[str] = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            nxt = body[i + 1]
            out.append({"n": "\n", "t": "\t"}.get(nxt, nxt))
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


class _ToAst(Transformer[Token, list[Node]]):
    def __init__(self, path: str) -> None:
        super().__init__()
        self.path = path

    def _span(self, meta_or_token: object) -> Span:
        m = meta_or_token
        return Span(
            self.path,
            getattr(m, "line", 0) or 0,
            getattr(m, "column", 0) or 0,
            getattr(m, "end_line", 0) or 0,
            getattr(m, "end_column", 0) or 0,
        )

    def start(self, items: list[Node]) -> list[Node]:
        return items

    @v_args(meta=True)
    def form(self, meta: object, children: list[object]) -> Form:
        head_tok = children[0]
        assert isinstance(head_tok, Token)
        is_call = head_tok.type == "STRING"
        head = _unescape(str(head_tok)) if is_call else str(head_tok)
        args: list[Node] = []
        kwargs: list[Keyword] = []
        for c in children[1:]:
            if isinstance(c, Keyword):
                kwargs.append(c)
            else:
                assert isinstance(c, Node)
                args.append(c)
        return Form(
            self._span(meta),
            head=head,
            args=tuple(args),
            kwargs=tuple(kwargs),
            is_call=is_call,
            head_span=self._span(head_tok),
        )

    def head(self, children: list[Token]) -> Token:
        return children[0]

    @v_args(meta=True)
    def keyword(self, meta: object, children: list[object]) -> Keyword:
        tok, value = children
        assert isinstance(tok, Token) and isinstance(value, Node)
        return Keyword(self._span(meta), name=str(tok)[:-1], value=value)

    @v_args(meta=True)
    def braces(self, meta: object, children: list[Node]) -> ListNode:
        return ListNode(self._span(meta), items=tuple(children))

    def string_atom(self, children: list[Token]) -> Str:
        return Str(self._span(children[0]), value=_unescape(str(children[0])))

    def int_atom(self, children: list[Token]) -> Int:
        return Int(self._span(children[0]), value=int(children[0]))

    def float_atom(self, children: list[Token]) -> Float:
        return Float(self._span(children[0]), value=float(children[0]))

    def bool_atom(self, children: list[Token]) -> Bool:
        return Bool(self._span(children[0]), value=str(children[0]) == "true")

    def const_atom(self, children: list[Token]) -> Const:
        return Const(self._span(children[0]), name=str(children[0]))

    def param_atom(self, children: list[Token]) -> Param:
        return Param(self._span(children[0]), name=str(children[0])[1:])


# How deep forms and lists may nest (the shipped games nest about ten deep). Every pass over a
# game (building the AST, expanding defines, checking, compiling, and the compiled rules when
# they run) recurses once per level, so a limit keeps a pathological file from exhausting the
# interpreter's stack: it is reported where it is crossed, like any other mistake.
MAX_NESTING = 100


def nesting_message(what: str) -> str:
    """The message for a place crossing the nesting limit; `what` says how it crosses it."""
    return (f"too deeply nested: {what}; forms and lists may be nested at most {MAX_NESTING} "
            "levels deep")


def _bracket_errors(text: str, path: str) -> list[Diagnostic]:
    """Unbalanced or too deeply nested brackets, found by a scan that skips strings and comments.

    Lark would report these at the end of the file; a person wants to see the bracket itself."""
    stack: list[tuple[str, int, int]] = []
    errors: list[Diagnostic] = []
    pairs = {")": "(", "}": "{"}
    line, col, i, n = 1, 1, 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "/" and text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 1
            continue
        if ch == '"':
            j = i + 1
            while j < n and text[j] not in '"\n':
                if text[j] == "\\" and j + 1 < n and text[j + 1] != "\n":
                    j += 2
                else:
                    j += 1
            if j >= n or text[j] != '"':
                msg = "unterminated string: a string must end with '\"' on the same line"
                return [Diagnostic(Span(path, line, col, line, col + 1), msg)]
            col += j - i + 1
            i = j + 1
            continue
        if ch in "({":
            stack.append((ch, line, col))
            if len(stack) > MAX_NESTING:
                what = f"this '{ch}' opens level {MAX_NESTING + 1}"
                return [Diagnostic(Span(path, line, col, line, col + 1), nesting_message(what))]
        elif ch in ")}":
            if stack and stack[-1][0] == pairs[ch]:
                stack.pop()
            else:
                msg = f"unexpected '{ch}'"
                if stack:
                    o, ol, oc = stack[-1]
                    msg += f": the innermost open bracket is '{o}' at line {ol}, column {oc}"
                else:
                    msg += ": nothing is open here"
                errors.append(Diagnostic(Span(path, line, col, line, col + 1), msg))
                return errors
        if ch == "\n":
            line, col = line + 1, 1
        else:
            col += 1
        i += 1
    for o, ol, oc in stack[:1] if not errors else []:
        closer = ")" if o == "(" else "}"
        errors.append(
            Diagnostic(Span(path, ol, oc, ol, oc + 1), f"unclosed '{o}': no matching '{closer}'")
        )
    return errors


_EXPECTED_NAMES = {
    "RPAR": "')'",
    "LPAR": "'('",
    "RBRACE": "'}'",
    "LBRACE": "'{'",
    "NAME": "a ludeme name",
    "OPERATOR": "an operator",
    "STRING": "a string",
    "INT": "a number",
    "FLOAT": "a number",
    "BOOL": "true or false",
    "CONST": "a constant",
    "PARAM": "a #parameter",
    "KEYWORD": "name:",
}


def _describe_expected(expected: set[str] | frozenset[str]) -> str:
    names = sorted({_EXPECTED_NAMES.get(e, e) for e in expected})
    if len(names) > 4:
        return ""
    return " (expected " + " or ".join(names) + ")"


def _lark_error(exc: LarkError, text: str, path: str) -> Diagnostic:
    if isinstance(exc, UnexpectedCharacters):
        pos = exc.pos_in_stream or 0
        ch = text[pos] if pos < len(text) else "?"
        hint = ""
        if ch == '"':
            hint = ": unterminated string (strings end on the same line)"
        elif ch.isupper() or ch.isalpha():
            hint = ": names of ludemes are lowercase, constants start with a capital"
        elif ch == ":":
            hint = ": a keyword argument is written name:value with no space before ':'"
        msg = f"unexpected character {ch!r}{hint}"
        return Diagnostic(Span(path, exc.line, exc.column, exc.line, exc.column + 1), msg)
    if isinstance(exc, UnexpectedToken):
        tok = exc.token
        if tok.type == "$END":
            return Diagnostic(Span(path, exc.line or 1, exc.column or 1), "unexpected end of file")
        value = str(tok)
        quoted = snippet(value)
        if tok.type == "KEYWORD":
            msg = f"unexpected keyword argument {quoted} outside a form"
        elif tok.type in ("NAME", "OPERATOR") and exc.expected - {"NAME", "OPERATOR", "STRING"}:
            msg = f"unexpected name {quoted}: a ludeme name must follow '('"
        elif tok.type in ("RPAR", "RBRACE") and "RPAR" not in exc.expected:
            msg = f"unexpected {quoted}: a keyword argument needs a value after the ':'"
        elif exc.expected and exc.expected <= {"NAME", "OPERATOR", "STRING"}:
            msg = f"expected a ludeme name after '(', found {quoted}"
        else:
            msg = f"unexpected {quoted}" + _describe_expected(exc.expected)
        end = (tok.end_column or tok.column + len(value)) if tok.column else 0
        return Diagnostic(Span(path, tok.line or 1, tok.column or 1, tok.line or 1, end), msg)
    if isinstance(exc, UnexpectedEOF):
        return Diagnostic(Span(path, 1, 1), "unexpected end of file")
    return Diagnostic(Span(path, 1, 1), f"cannot parse: {exc}")


# Characters that no game file holds: control characters other than tab, newline, carriage
# return and form feed.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f]")


def not_a_game_file(text: str, path: str) -> Diagnostic | None:
    """Why `text` is not a game file at all, or None: text holding characters no game file
    has (NUL and other control characters), or whose first word is not a form, a list or a
    comment.
    The diagnostic is said without the file's text: what is in it is not the user's."""
    bad = _CONTROL.search(text)
    if bad is not None:
        line = text.count("\n", 0, bad.start()) + 1
        return Diagnostic(Span(path, line, 1), "this is not a game file: it holds control "
                          f"characters ({bad.group()!r}) that no text of the language has")
    line = 1
    for raw in text.split("\n"):
        stripped = raw.strip()
        if stripped and not stripped.startswith("//"):
            if stripped.startswith(("(", "{")):  # forms and lists: the parser says more
                return None
            column = len(raw) - len(raw.lstrip()) + 1
            return Diagnostic(Span(path, line, column), "this is not a game file: a game "
                              "file's text begins (after any // comments) with a form such as "
                              "(game ...), (define ...) or (option ...)")
        line += 1
    return None


def parse(text: str, path: str = "<string>") -> list[Node]:
    """Parse game-file text into its top-level AST nodes; raise `RuleError` if it does not parse."""
    errors = _bracket_errors(text, path)
    if errors:
        raise RuleError(errors, text)
    try:
        tree: Tree[Token] = _lark().parse(text)
    except LarkError as exc:
        raise RuleError([_lark_error(exc, text, path)], text) from None
    result = _ToAst(path).transform(tree)
    assert isinstance(result, list)
    return result
