"""Defines and options: the pass between parsing and checking.

`(define "Name" body)` is a macro: `("Name" a b)` is replaced by `body` with `#1`, `#2` replaced by
`a`, `b`. `(match VALUE case result ... [otherwise])` chooses one of its results by an option's
(or a define argument's) value, e.g. `(board (match #short true (hexhex 5) (hexhex 7)))`.
`(option "size" 8 min:3)` declares an option; `#size` anywhere in the game is replaced by its
value in force (the default, or an override given to `load_game`). Both may be written at
the top level of the file or inside `(game ...)`; a library of shared defines (the prelude) is
visible to every game file, and a file's own define of the same name takes precedence.

What values an option allows is part of its declaration (FORMS below); a value given by
`load_game(path, name=value)`, `ludeme ... --option name=value`, a record or the playground is
checked in one place, `checked_override`:

    >>> from interpreter import parse_game
    >>> rules = '''(option "row" "RKR" letters-of:"RKR" pattern:"R[^R]*R" doc:"rook, king, rook")
    ... (game "G" (players {(player "A") (player "B")}) (board (square 3))
    ...   (play (place (sites Empty))) (end (if (full) (draw))))'''
    >>> parse_game(rules, "g.game", row="RRK")
    Traceback (most recent call last):
    ...
    dsl.errors.RuleError: g.game:1:1: option row="RRK" does not match "R[^R]*R" (row: text, \
default "RKR"; the letters of "RKR" in any order; matching "R[^R]*R"; rook, king, rook)
    >>> parse_game(rules, "g.game", row="RKR").options
    {'row': 'RKR'}
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from dsl.ast import Bool, Broken, Float, Form, Int, Keyword, ListNode, Node, Param, Span, Str, show
from dsl.errors import Diagnostic, RuleError
from dsl.parser import MAX_NESTING, nesting_message
from dsl.suggest import closest

MAX_DEPTH = 40  # defines expanded one inside another
# The most nodes (forms, lists and values) a game may expand to: the shipped games expand to a
# few hundred; checking and compiling 50,000 takes a few seconds.
MAX_NODES = 50_000


# The forms a game file may hold besides ludemes, as `ludeme grammar` lists them: usage, and
# what the form does (its last paragraph an example).
FORMS: tuple[tuple[str, str], ...] = (
    ('(define "Name" body)',
     'A macro, used as ("Name" a b): body, with #1, #2 ... in it replaced by a, b ...\n'
     "A file's define of the same name as a library define replaces it.\n\n"
     '(define "Empties" (sites Empty))'),
    ('(option "name" default [min:number] [max:number] [choices:{value ...}] '
     '[letters-of:"text"] [pattern:"regex" | pattern:{"regex" ...}] [doc:"text"])',
     "An option of the game: #name is its value, and what values may be given is declared.\n"
     "#name anywhere in the file is the value in force: the default, or the value given by\n"
     "load_game(path, name=value), --option name=value, a record's option: line or the\n"
     "playground. min: and max: bound a number; choices: lists the values allowed; for text,\n"
     "letters-of: says the value is exactly these letters in any order, and pattern: is a\n"
     "Python regular expression the whole value must match (several in a list must all\n"
     "match). doc: says what the option means; with letters-of: or pattern: it is shown\n"
     "with a refused value. A value refused is a one-line error naming the option, the value\n"
     "and what is allowed. Chess960's back rank (games/chess.game):\n\n"
     '(option "back" "RNBQKBNR" letters-of:"RNBQKBNR"\n'
     '  pattern:{"[^B]*B([^B][^B])*B[^B]*" "[^RK]*R[^RK]*K[^RK]*R[^RK]*"}\n'
     '  doc:"the back rank: bishops on squares of opposite colours, the king between the rooks")'),
    ("(match VALUE case result ... [otherwise])",
     "One of several results, chosen by a value known before the game starts.\n"
     "The result of the first case equal to VALUE (a literal, an option or a define's\n"
     "argument); otherwise, if given, when no case is.\n\n"
     "(board (match #short true (hexhex 5) (hexhex 7)))"),
)


@dataclass(frozen=True)
class Option:
    """A declared option: its name, default value, what values are allowed (a range, choices,
    the letters of a word in any order, patterns to match) and documentation."""

    name: str
    default: object
    span: Span
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[object, ...] | None = None
    doc: str = ""
    letters: str | None = None  # letters-of: the value is these letters, in any order
    patterns: tuple[str, ...] = ()  # pattern: regular expressions the whole value matches

    @property
    def kind(self) -> type:
        return type(self.default)

    def describe(self) -> str:
        kind = {int: "integer", float: "number", bool: "true/false", str: "text"}[self.kind]
        parts = [f"{self.name}: {kind}, default {format_value(self.default)}"]
        if self.minimum is not None:
            parts.append(f"min {format_value(self.minimum)}")
        if self.maximum is not None:
            parts.append(f"max {format_value(self.maximum)}")
        if self.choices is not None:
            parts.append("one of " + ", ".join(format_value(c) for c in self.choices))
        if self.letters is not None:
            parts.append(f"the letters of {format_value(self.letters)} in any order")
        parts.extend(f"matching {format_value(p)}" for p in self.patterns)
        if self.doc and (self.letters is not None or self.patterns):
            parts.append(self.doc)  # what the letters and patterns mean
        return "; ".join(parts)

    def problem(self, value: object) -> str | None:
        """Why `value` is not acceptable for this option, or None if it is."""
        if self.kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if type(value) is not self.kind:
            return (
                f"option {self.name} must be {self.describe().split(': ', 1)[1].split(',')[0]}, "
                f"not {format_value(value)}"
            )
        numeric = isinstance(value, int | float) and not isinstance(value, bool)
        if numeric and self.minimum is not None and value < self.minimum:  # type: ignore[operator]
            return f"option {self.name}={format_value(value)} is below its minimum {self.minimum}"
        if numeric and self.maximum is not None and value > self.maximum:  # type: ignore[operator]
            return f"option {self.name}={format_value(value)} is above its maximum {self.maximum}"
        if self.choices is not None and value not in self.choices:
            return (
                f"option {self.name}={format_value(value)} is not one of "
                + ", ".join(format_value(c) for c in self.choices)
            )
        if isinstance(value, str):
            return self.text_problem(value)
        return None

    def text_problem(self, value: str) -> str | None:
        """Why the text `value` breaks the option's letters-of: or pattern:, or None."""
        shown = f"option {self.name}={format_value(value)}"
        if self.letters is not None and sorted(value) != sorted(self.letters):
            return f"{shown} is not the letters of {format_value(self.letters)} in any order"
        for pattern in self.patterns:
            if re.fullmatch(pattern, value) is None:
                return f"{shown} does not match {format_value(pattern)}"
        return None

    def coerce(self, value: object) -> object:
        """`value`, converted from text when it is a string given for a non-text option."""
        if not isinstance(value, str) or self.kind is str:
            if self.kind is float and isinstance(value, int) and not isinstance(value, bool):
                return float(value)
            return value
        text = value.strip()
        if self.kind is bool:
            low = text.lower()
            if low in ("true", "yes", "on", "1"):
                return True
            if low in ("false", "no", "off", "0"):
                return False
            return text
        try:
            return self.kind(text)
        except ValueError:
            return text


def format_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)


@dataclass(frozen=True)
class Define:
    name: str
    body: Node
    span: Span
    arity: int  # the highest #k used in the body


@dataclass
class Expansion:
    """The result of expansion: the game form with defines and options substituted away."""

    game: Form
    options: dict[str, object]
    declared: dict[str, Option]
    warnings: list[Diagnostic] = field(default_factory=list)
    errors: list[Diagnostic] = field(default_factory=list)  # when expanded with strict=False


def _literal(value: object, span: Span) -> Node:
    if isinstance(value, bool):
        return Bool(span, value=value)
    if isinstance(value, int):
        return Int(span, value=value)
    if isinstance(value, float):
        return Float(span, value=value)
    return Str(span, value=str(value))


def _highest_param(node: Node) -> int:
    if isinstance(node, Param):
        return int(node.name) if node.name.isdigit() else 0
    if isinstance(node, Form):
        inner = [*node.args, *(k.value for k in node.kwargs)]
        return max((_highest_param(n) for n in inner), default=0)
    if isinstance(node, ListNode):
        return max((_highest_param(n) for n in node.items), default=0)
    return 0


def _children(node: Node) -> tuple[Node, ...]:
    if isinstance(node, Form):
        return (*node.args, *(k.value for k in node.kwargs))
    if isinstance(node, ListNode):
        return node.items
    return ()


def measure(root: Node) -> tuple[int, int]:
    """(height, size) of an expanded node: how many forms and lists deep it is, and how many
    nodes its tree has, a subtree used in several places (a define's argument) counted at
    each. Without recursion, and visiting each shared subtree once."""
    memo: dict[int, tuple[int, int]] = {}
    stack: list[tuple[Node, bool]] = [(root, False)]
    while stack:
        n, ready = stack.pop()
        if id(n) in memo:
            continue
        kids = _children(n)
        if kids and not ready:
            stack.append((n, True))
            stack.extend((k, False) for k in kids if id(k) not in memo)
            continue
        measured = [memo[id(k)] for k in kids]
        height = 1 + max((h for h, _ in measured), default=0) if isinstance(
            n, Form | ListNode) else 0
        memo[id(n)] = (height, 1 + sum(size for _, size in measured))
    return memo[id(root)]


class _Expander:
    """Expands a game form. It keeps the result within MAX_NESTING levels (counting a define
    call as a level, so that its own recursion is bounded too) and MAX_NODES nodes (defines
    that use their arguments or each other several times multiply them), reporting where a
    limit is crossed."""

    def __init__(self, defines: dict[str, Define], options: dict[str, object]) -> None:
        self.defines = defines
        self.options = options
        self.errors: list[Diagnostic] = []
        self.used_defines: set[str] = set()
        self.used_options: set[str] = set()
        self.level = 0  # forms, lists and define calls being expanded, one inside another
        self.produced = 0  # nodes made so far (an argument counted each time it is put in)
        self.exhausted = False  # over MAX_NODES: reported once, the rest left unexpanded
        self.measures: dict[int, tuple[tuple[int, int], ...]] = {}  # id(call args) -> each's

    def spend(self, nodes: int, span: Span) -> bool:
        """Count `nodes` more nodes made; False (reported once) when that is over MAX_NODES."""
        self.produced += nodes
        if self.produced > MAX_NODES:
            self.exhausted = True
            self.errors.append(Diagnostic(span, f"the game grows to more than {MAX_NODES} "
                                          "forms and values when its defines are expanded "
                                          "(here, in the define calls noted); a define that "
                                          "uses its arguments or other defines several times "
                                          "multiplies them"))
            return False
        return True

    def node(self, n: Node, args: tuple[Node, ...] | None, via: tuple[str, Span] | None,
             depth: int) -> Node:
        span = n.span if via is None else replace(n.span, via=via)
        if self.exhausted or not self.spend(1, span):
            return Broken(span)
        if isinstance(n, Param) and n.name.isdigit() and args is not None and \
                1 <= int(n.name) <= len(args):
            return self.argument(int(n.name) - 1, args, span)
        if isinstance(n, Form | ListNode):
            if self.level >= MAX_NESTING:
                what = f"with defines expanded, this opens level {MAX_NESTING + 1} (a define " \
                    "call counts as a level)"
                self.errors.append(Diagnostic(span, nesting_message(what)))
                return Broken(span)
            self.level += 1
            try:
                return self.nested(n, span, args, via, depth)
            finally:
                self.level -= 1
        return self.value(n, span, args, via)

    def argument(self, i: int, args: tuple[Node, ...], span: Span) -> Node:
        """The expanded argument i of the define call being expanded, put in for #(i+1)."""
        height, size = self.measures[id(args)][i]
        if self.level + height > MAX_NESTING:
            what = f"with defines expanded, the argument given for #{i + 1} here reaches " \
                f"past level {MAX_NESTING}"
            self.errors.append(Diagnostic(span, nesting_message(what)))
            return Broken(span)
        if not self.spend(size - 1, span):
            return Broken(span)
        return args[i]

    def value(self, n: Node, span: Span, args: tuple[Node, ...] | None,
              via: tuple[str, Span] | None) -> Node:
        """A node that is neither a form nor a list, expanded: a #parameter is replaced."""
        if isinstance(n, Param):
            if n.name.isdigit():
                k = int(n.name)
                if args is None:
                    self.errors.append(
                        Diagnostic(n.span, f"#{k} is a define parameter, used outside a define")
                    )
                    return Broken(span)
                self.errors.append(Diagnostic(span, f"#{k} has no argument"))
                return Broken(span)
            if n.name in self.options:
                self.used_options.add(n.name)
                return _literal(self.options[n.name], span)
            hint = _did_you_mean(n.name, self.options)
            self.errors.append(Diagnostic(span, f"unknown option #{n.name}{hint}"))
            return Broken(span)
        if via is None:
            return n
        return replace(n, span=span)

    def nested(self, n: Form | ListNode, span: Span, args: tuple[Node, ...] | None,
               via: tuple[str, Span] | None, depth: int) -> Node:
        """A form or a list, expanded."""
        if isinstance(n, Form):
            if n.is_call:
                return self.call(n, args, via, depth)
            if n.head == "match":
                return self.match(n, args, via, depth)
            return Form(
                span,
                head=n.head,
                args=tuple(self.node(a, args, via, depth) for a in n.args),
                kwargs=tuple(
                    Keyword(k.span if via is None else replace(k.span, via=via), name=k.name,
                            value=self.node(k.value, args, via, depth))
                    for k in n.kwargs
                ),
                is_call=False,
                head_span=n.head_span if via is None else replace(n.head_span, via=via),
            )
        items: list[Node] = []
        for item in n.items:
            items.append(self.node(item, args, via, depth))
        return ListNode(span, items=tuple(items))

    def match(self, n: Form, args: tuple[Node, ...] | None, via: tuple[str, Span] | None,
              depth: int) -> Node:
        """`(match VALUE case result case result ... [otherwise])`: the result of the first case
        equal to VALUE (a literal once options and define arguments are substituted)."""
        if n.kwargs or len(n.args) < 3:
            self.errors.append(Diagnostic(n.head_span, "a match is written (match VALUE case "
                                          "result ... [otherwise])"))
            return Broken(n.span)
        value = self.node(n.args[0], args, via, depth)
        if not isinstance(value, Int | Float | Bool | Str):
            self.errors.append(Diagnostic(n.args[0].span, "match needs a value known before the "
                                          "game starts (a literal, an option or a define "
                                          "argument)"))
            return Broken(n.span)
        rest = n.args[1:]
        chosen: Node | None = None
        for i in range(0, len(rest) - 1, 2):
            case = self.node(rest[i], args, via, depth)
            if not isinstance(case, Int | Float | Bool | Str):
                self.errors.append(Diagnostic(rest[i].span, "a match case must be a literal"))
                continue
            if type(case.value) is type(value.value) and case.value == value.value:
                chosen = rest[i + 1]
                break
        if chosen is None and len(rest) % 2 == 1:
            chosen = rest[-1]
        if chosen is not None:
            # Defines used by the branches not taken are still used by the file.
            for branch in rest:
                if branch is not chosen:
                    self.used_defines.update(_calls(branch))
            return self.node(chosen, args, via, depth)
        cases = ", ".join(show(rest[i]) for i in range(0, len(rest) - 1, 2))
        self.errors.append(Diagnostic(n.args[0].span, f"no case of this match is "
                                      f"{show(value)} (cases: {cases})"))
        return Broken(n.span)

    def call(self, n: Form, args: tuple[Node, ...] | None, via: tuple[str, Span] | None,
             depth: int) -> Node:
        call_span = n.span if via is None else replace(n.span, via=via)
        head_span = n.head_span if via is None else replace(n.head_span, via=via)
        d = self.defines.get(n.head)
        if d is None:
            hint = _did_you_mean(n.head, self.defines)
            self.errors.append(Diagnostic(head_span, f'undefined define "{n.head}"{hint}'))
            return Broken(call_span)
        if depth >= MAX_DEPTH:
            why = "does it use itself?" if _uses_itself(n.head, via) else \
                "defines used one inside another"
            self.errors.append(
                Diagnostic(call_span, f'define "{n.head}" expands more than {MAX_DEPTH} levels '
                           f"deep ({why})")
            )
            return Broken(call_span)
        if n.kwargs:
            self.errors.append(
                Diagnostic(n.kwargs[0].span, f'define "{n.head}" takes no name: arguments')
            )
        call_args = tuple(self.node(a, args, via, depth) for a in n.args)
        if len(call_args) != d.arity:
            self.errors.append(
                Diagnostic(
                    call_span,
                    f'define "{n.head}" takes {d.arity} argument{"s" if d.arity != 1 else ""}, '
                    f"given {len(call_args)}",
                    note=f"the define is at {d.span}",
                )
            )
            return Broken(call_span)
        self.used_defines.add(n.head)
        key = id(call_args)  # (the empty tuple is shared, but no #k looks it up)
        self.measures[key] = tuple(measure(a) for a in call_args)
        try:
            body = self.node(d.body, call_args, (n.head, call_span), depth + 1)
        finally:
            self.measures.pop(key, None)
        if isinstance(body, Form) and not body.define:
            body = replace(body, define=n.head)
        return body


def _uses_itself(name: str, via: tuple[str, Span] | None) -> bool:
    """Whether the define `name` is among the defines being expanded, one inside another."""
    while via is not None:
        if via[0] == name:
            return True
        via = via[1].via
    return False


def _calls(node: Node) -> set[str]:
    """The names of the defines a node calls (without expanding anything)."""
    if isinstance(node, Form):
        inner = [*node.args, *(k.value for k in node.kwargs)]
        found = {node.head} if node.is_call else set()
        return found.union(*(_calls(n) for n in inner))
    if isinstance(node, ListNode):
        return set().union(*(_calls(n) for n in node.items))
    return set()


def _did_you_mean(name: str, known: object) -> str:
    close = closest(name, known)  # type: ignore[arg-type]
    return f' (did you mean "{close}"?)' if close else ""


def _collect(nodes: list[Node], errors: list[Diagnostic], defines: dict[str, Define],
             options: dict[str, Option], rest: list[Node]) -> None:
    for n in nodes:
        if isinstance(n, Form) and not n.is_call and n.head == "define":
            if len(n.args) != 2 or not isinstance(n.args[0], Str):
                errors.append(Diagnostic(n.span, 'a define is written (define "Name" body)'))
                continue
            name = n.args[0].value
            if name in defines and defines[name].span.path == n.span.path:
                errors.append(Diagnostic(n.args[0].span, f'define "{name}" is defined twice',
                                         note=f"first at {defines[name].span}"))
            defines[name] = Define(name, n.args[1], n.span, _highest_param(n.args[1]))
        elif isinstance(n, Form) and not n.is_call and n.head == "option":
            opt = _option(n, errors)
            if opt is not None:
                if opt.name in options:
                    errors.append(Diagnostic(n.args[0].span, f'option "{opt.name}" is declared '
                                             "twice", note=f"first at {options[opt.name].span}"))
                options[opt.name] = opt
        else:
            rest.append(n)


def _option(n: Form, errors: list[Diagnostic]) -> Option | None:
    if len(n.args) != 2 or not isinstance(n.args[0], Str) or not isinstance(
        n.args[1], Int | Float | Bool | Str
    ):
        errors.append(Diagnostic(n.span, 'an option is written (option "name" default-value '
                                 "min:.. max:.. choices:{..} letters-of:\"..\" pattern:\"..\" "
                                 "doc:\"..\")"))
        return None
    name = n.args[0].value
    default = n.args[1].value
    fields: dict[str, object] = {}
    for k in n.kwargs:
        v = k.value
        if k.name in ("min", "max") and isinstance(v, Int | Float) and \
                not isinstance(n.args[1], Int | Float):
            errors.append(Diagnostic(k.span, f"option {name}: '{k.name}:' is only for options "
                                     "whose value is a number"))
        elif k.name in ("min", "max") and isinstance(v, Int | Float):
            fields["minimum" if k.name == "min" else "maximum"] = v.value
        elif k.name == "choices" and isinstance(v, ListNode) and all(
            isinstance(i, Int | Float | Bool | Str) for i in v.items
        ):
            fields["choices"] = tuple(i.value for i in v.items)  # type: ignore[attr-defined]
        elif k.name == "doc" and isinstance(v, Str):
            fields["doc"] = v.value
        elif k.name in ("letters-of", "pattern") and not isinstance(n.args[1], Str):
            errors.append(Diagnostic(k.span, f"option {name}: '{k.name}:' is only for options "
                                     "whose value is text"))
        elif k.name == "letters-of" and isinstance(v, Str):
            fields["letters"] = v.value
        elif k.name == "pattern" and _patterns(v) is not None:
            good = []
            for p in _patterns(v) or ():
                why = _regex_problem(p.value)
                if why is None:
                    good.append(p.value)
                else:
                    errors.append(Diagnostic(p.span, f"option {name}: this pattern is not a "
                                             f"regular expression: {why}"))
            fields["patterns"] = tuple(good)
        else:
            errors.append(Diagnostic(k.span, f"option {name}: '{k.name}:' must be min:number, "
                                     "max:number, choices:{...}, letters-of:\"text\", "
                                     "pattern:\"regex\" (or {\"regex\" ...}) or doc:\"text\""))
    opt = Option(name, default, n.span, **fields)  # type: ignore[arg-type]
    problem = opt.problem(default)
    if problem:
        errors.append(Diagnostic(n.args[1].span, "default " + problem.replace("option ", "", 1)))
    return opt


def checked_override(options: dict[str, Option], name: str, value: object,
                     game_span: Span) -> object:
    """The value given for the option `name` (by load_game, `--option`, a record or the
    playground), converted from text to the option's type; a RuleError of one line, located
    at the declaration (or at the game for an unknown option), when the game refuses it. The
    file's text is not shown: the mistake is in the value given, not in the file."""
    opt = options.get(name)
    if opt is None:
        known = ", ".join(options) or "none"
        raise RuleError([Diagnostic(game_span, f"unknown option '{name}' (this game's "
                                    f"options: {known}){_did_you_mean(name, options)}")])
    value = opt.coerce(value)
    problem = opt.problem(value)
    if problem:
        raise RuleError([Diagnostic(opt.span, f"{problem} ({opt.describe()})")])
    return value


def _patterns(v: Node) -> tuple[Str, ...] | None:
    """The patterns a pattern: gives, one "regex" or a list {"regex" ...}; None if neither."""
    if isinstance(v, Str):
        return (v,)
    if isinstance(v, ListNode) and v.items and all(isinstance(i, Str) for i in v.items):
        return tuple(i for i in v.items if isinstance(i, Str))
    return None


def _regex_problem(pattern: str) -> str | None:
    """Why `pattern` is not a regular expression (Python's syntax), or None."""
    try:
        re.compile(pattern)
    except re.error as exc:
        return str(exc)
    return None


def expand(nodes: list[Node], overrides: dict[str, object] | None = None,
           prelude: list[Node] | None = None, text: str | None = None,
           path: str = "<string>", strict: bool = True) -> Expansion:
    """Substitute defines and options; raise `RuleError` listing every problem found. With
    strict=False, problems inside the game form are returned in `errors` instead (the parts
    that failed become `Broken` nodes), so that the checker can report its own as well."""
    errors: list[Diagnostic] = []
    prelude_defines: dict[str, Define] = {}
    ignored: list[Node] = []
    _collect(prelude or [], errors, prelude_defines, {}, ignored)
    defines: dict[str, Define] = {}
    options: dict[str, Option] = {}
    rest: list[Node] = []
    _collect(nodes, errors, defines, options, rest)
    games = [n for n in rest if isinstance(n, Form) and n.head == "game" and not n.is_call]
    for n in rest:
        if n not in games:
            errors.append(Diagnostic(getattr(n, "head_span", n.span) if isinstance(n, Form)
                                     else n.span,
                                     f"unexpected {show(n)[:40]} at the top level: a game file "
                                     "holds (game ...), and (define ...) and (option ...) forms"))
    if not games:
        if not errors:
            errors.append(Diagnostic(Span(path, 1, 1), "no (game ...) form in this file"))
        raise RuleError(errors, text)
    game = games[0]
    for extra in games[1:]:
        errors.append(Diagnostic(extra.head_span, "a file holds one (game ...) form",
                                 note=f"the first is at {game.span}"))
    inner: list[Node] = []
    _collect(list(game.args), errors, defines, options, inner)
    game = replace(game, args=tuple(inner))
    values = {name: opt.default for name, opt in options.items()}
    for name, value in (overrides or {}).items():
        values[name] = checked_override(options, name, value, game.head_span)
    all_defines = {**prelude_defines, **defines}
    ex = _Expander(all_defines, values)
    expanded = ex.node(game, None, None, 0)
    if errors or (strict and ex.errors):
        raise RuleError(errors + ex.errors, text)
    assert isinstance(expanded, Form)
    warnings = [
        Diagnostic(d.span, f'define "{name}" is never used', severity="warning")
        for name, d in defines.items() if name not in ex.used_defines
    ] + [
        Diagnostic(o.span, f'option "{name}" is never used', severity="warning")
        for name, o in options.items() if name not in ex.used_options
    ]
    return Expansion(expanded, values, options, warnings, list(ex.errors))
