"""The abstract syntax of game files: frozen dataclasses, every node with its source span.

Nothing here knows about Lark or about games; the parser builds these, the expander rewrites
them, the checker and the compiler read them.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Span:
    """Where a node is written: file, 1-based line and column, and the end (exclusive column)."""

    path: str
    line: int
    column: int
    end_line: int = 0
    end_column: int = 0
    # When the node was copied out of a define's body: the define's name and the call's span.
    via: tuple[str, Span] | None = field(default=None, compare=False)

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"

    def expansion_note(self) -> str | None:
        """'in define "X" used at file:l:c' (and further up), for a span inside a define body."""
        notes: list[list] = []  # [text, times], consecutive repeats folded together
        via = self.via
        while via is not None:
            name, call = via
            text = f'in define "{name}" used at {call}'
            if notes and notes[-1][0] == text:
                notes[-1][1] += 1
            else:
                notes.append([text, 1])
            via = call.via
        said = [t if n == 1 else f"{t} ({n} times)" for t, n in notes]
        if len(said) > FOLDED_AFTER + 1:  # defines used one inside another, very deep
            said = [*said[:FOLDED_AFTER - 1], f"{len(said) - FOLDED_AFTER} more defines",
                    said[-1]]
        return "; ".join(said) or None


# A note on where a define is used names at most this many defines used one inside another
# (the innermost ones and the outermost), and how many more there are.
FOLDED_AFTER = 4


NOWHERE = Span("<generated>", 0, 0)


@dataclass(frozen=True)
class Node:
    span: Span = field(compare=False, repr=False)


@dataclass(frozen=True)
class Form(Node):
    """`(head arg ... name:value ...)`; `is_call` marks a define call `("Define" ...)`."""

    head: str = ""
    args: tuple[Node, ...] = ()
    kwargs: tuple[Keyword, ...] = ()
    is_call: bool = False
    head_span: Span = field(default=NOWHERE, compare=False, repr=False)
    # The define this form is the whole body of, once expanded (for messages).
    define: str = field(default="", compare=False, repr=False)

    def kwarg(self, name: str) -> Node | None:
        for k in self.kwargs:
            if k.name == name:
                return k.value
        return None


@dataclass(frozen=True)
class Keyword(Node):
    """`name:value` inside a form."""

    name: str = ""
    value: Node = None  # type: ignore[assignment]


@dataclass(frozen=True)
class ListNode(Node):
    """`{ item ... }`."""

    items: tuple[Node, ...] = ()


@dataclass(frozen=True)
class Str(Node):
    value: str = ""


@dataclass(frozen=True)
class Int(Node):
    value: int = 0


@dataclass(frozen=True)
class Float(Node):
    value: float = 0.0


@dataclass(frozen=True)
class Bool(Node):
    value: bool = False


@dataclass(frozen=True)
class Const(Node):
    """An Uppercase constant such as `Mover`, `N` or `Orthogonal`."""

    name: str = ""


@dataclass(frozen=True)
class Broken(Node):
    """Stands where expansion failed (an undefined define, a bad #parameter): the error is
    already reported, so later passes accept it anywhere and say nothing more about it."""


@dataclass(frozen=True)
class Param(Node):
    """`#1` (a define's parameter) or `#size` (an option's value)."""

    name: str = ""


def quote(text: str) -> str:
    """A string literal as the language writes it (escapes for \\, ", line breaks, tabs)."""
    escaped = (text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
               .replace("\t", "\\t"))
    return f'"{escaped}"'


def show(node: Node) -> str:
    """The node written back as source text (canonical spacing)."""
    if isinstance(node, Form):
        head = quote(node.head) if node.is_call else node.head
        parts = [head, *(show(a) for a in node.args), *(show(k) for k in node.kwargs)]
        return "(" + " ".join(parts) + ")"
    if isinstance(node, Keyword):
        return f"{node.name}:{show(node.value)}"
    if isinstance(node, ListNode):
        return "{" + " ".join(show(i) for i in node.items) + "}"
    if isinstance(node, Str):
        return quote(node.value)
    if isinstance(node, Bool):
        return "true" if node.value else "false"
    if isinstance(node, Int):
        return str(node.value)
    if isinstance(node, Float):
        text = repr(node.value)
        if "e" in text or "E" in text:  # the language writes no exponents
            from decimal import Decimal
            text = format(Decimal(text), "f")
            if "." not in text:
                text += ".0"
        return text
    if isinstance(node, Const):
        return node.name
    if isinstance(node, Param):
        return "#" + node.name
    if isinstance(node, Broken):
        return "<error>"
    raise TypeError(node)
