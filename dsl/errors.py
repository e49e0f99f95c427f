"""The error family of ludeme, and the located diagnostics a game file's errors are made of."""

from __future__ import annotations

from dataclasses import dataclass

from dsl.ast import Span


class GameError(Exception):
    """Every error ludeme raises for a user's mistake derives from this."""


@dataclass(frozen=True)
class Diagnostic:
    """One located problem in a game file: an error, or a warning that does not stop loading."""

    span: Span
    message: str
    severity: str = "error"
    note: str | None = None  # e.g. "in define "X" at file:3:5"

    def format(self, text: str | None) -> str:
        """`file:line:col: message`, then the source line and a caret under the offending span."""
        head = f"{self.span.path}:{self.span.line}:{self.span.column}: "
        if self.severity != "error":
            head += f"{self.severity}: "
        out = [head + self.message]
        if text is not None:
            out.extend(source_excerpt(text, self.span))
        note = self.note or self.span.expansion_note()
        if note:
            out.append(f"  note: {note}")
        return "\n".join(out)


def source_excerpt(text: str, span: Span) -> list[str]:
    """The source line of `span` and a caret line marking its columns (on one line)."""
    lines = text.split("\n")  # the lexer counts lines by "\n" only
    if not 1 <= span.line <= len(lines):
        return []
    line = lines[span.line - 1].removesuffix("\r").expandtabs(1)
    start = max(span.column - 1, 0)
    if span.end_line == span.line and span.end_column > span.column:
        width = span.end_column - span.column
    else:
        width = 1
    width = max(1, min(width, len(line) - start)) if start < len(line) else 1
    return ["    " + line, "    " + " " * start + "^" * width]


class RuleError(GameError):
    """A game file that does not parse or does not validate.

    Carries every diagnostic found; `path`, `line` and `column` are those of the first.
    `str(error)` shows each as `file:line:col: message` with the source line and a caret.
    """

    def __init__(self, diagnostics: list[Diagnostic], text: str | None = None) -> None:
        if not diagnostics:
            raise ValueError("RuleError needs at least one diagnostic")
        self.diagnostics = diagnostics
        self.text = text
        first = diagnostics[0]
        self.path = first.span.path
        self.line = first.span.line
        self.column = first.span.column
        super().__init__("\n".join(d.format(text) for d in diagnostics))
