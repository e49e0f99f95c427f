"""The error family of ludeme, and the located diagnostics a game file's errors are made of."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from dsl.ast import Span

# How many places a merged diagnostic names before it says "and N more places".
SHOWN_PLACES = 3


class GameError(Exception):
    """Every error ludeme raises for a user's mistake derives from this."""


@dataclass(frozen=True)
class Diagnostic:
    """One located problem in a game file: an error, or a warning that does not stop loading.

    A mistake met several times — inside a define used in several places — is one diagnostic
    (see `merge`): `uses` then holds the span of each time it was met, `span` being the first."""

    span: Span
    message: str
    severity: str = "error"
    note: str | None = None  # e.g. "in define "X" at file:3:5"
    uses: tuple[Span, ...] = ()

    def format(self, text: str | None) -> str:
        """`file:line:col: message`, then the source line and a caret under the offending span."""
        head = f"{self.span.path}:{self.span.line}:{self.span.column}: "
        if self.severity != "error":
            head += f"{self.severity}: "
        out = [head + self.message]
        if text is not None:
            out.extend(source_excerpt(text, self.span))
        note = self.full_note()
        if note:
            if len(note) > MAX_NOTE:  # a mistake met through very many uses of defines
                note = note[:MAX_NOTE].rsplit(" ", 1)[0] + " … (and more)"
            out.append(f"  note: {note}")
        return "\n".join(out)

    def full_note(self) -> str | None:
        """The note line's text: the note given, or where the define the span is in is used;
        for a merged diagnostic, every place it was met."""
        if len(self.uses) <= 1:
            return self.note or self.span.expansion_note()
        if all(_where(u) == _where(self.span) for u in self.uses):
            # The same place in a define's body, met once per use of the define.
            used = _uses_note(self.uses)
            return f"{self.note}; {used}" if self.note else used
        # The same place in a library define, reported at each place the file uses it.
        others = _distinct(str(u) for u in self.uses if _where(u) != _where(self.span))
        also = f"also used at {places(others)}"
        return f"{self.note}; {also}" if self.note else also


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


def places(names: Sequence[str]) -> str:
    """"a", "a and b", "a, b and c"; more than SHOWN_PLACES + 1 end "and N more places"."""
    if len(names) > SHOWN_PLACES + 1:
        rest = len(names) - SHOWN_PLACES
        return ", ".join(names[:SHOWN_PLACES]) + f" and {rest} more places"
    if len(names) <= 2:
        return " and ".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def merge(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """The diagnostics with each mistake said once: those with the same message at the same
    place inside a define's body (one per use of the define), or at the same place in a
    library define (reported where the file uses it, the note naming the place), become one,
    whose `uses` lists where each was met. Exact repeats are dropped. The order is that of
    each mistake's first report."""
    groups: dict[tuple[object, ...], list[Diagnostic]] = {}
    for d in diagnostics:
        groups.setdefault(_mistake(d), []).append(d)
    out = []
    for group in groups.values():
        first = group[0]
        by_chain = {_chain(u): u for d in reversed(group) for u in reversed(d.uses or (d.span,))}
        uses = tuple(reversed(by_chain.values()))  # each place once, in the order reported
        out.append(first if len(uses) <= 1 else replace(first, uses=uses))
    return out


def _where(span: Span) -> tuple[str, int, int, int, int]:
    return (span.path, span.line, span.column, span.end_line, span.end_column)


def _mistake(d: Diagnostic) -> tuple[object, ...]:
    """What makes two diagnostics the same mistake."""
    if d.note is not None and d.note.startswith('in define "') and ", at " in d.note:
        # Located at a use of a library define; the note says where in the define it is.
        return ("library", d.message, d.severity, d.note)
    return (_where(d.span), d.message, d.severity, d.note)


def _links(span: Span) -> list[tuple[str, str]]:
    """The define expansions a span comes through, innermost first: (define, call site)."""
    out = []
    via = span.via
    while via is not None:
        name, call = via
        out.append((name, str(call)))
        via = call.via
    return out


def _chain(span: Span) -> tuple[object, ...]:
    return (_where(span), *_links(span))


def _distinct(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))


def _uses_note(uses: Sequence[Span]) -> str:
    """'in define "X" used at a, b and c' for one place in a define's body met through several
    uses of the define."""
    return _chains_note([_links(u) for u in uses])


def _chains_note(chains: list[list[tuple[str, str]]]) -> str:
    """The expansions all the chains share, named as for one use ('in define "X" used at a'),
    then the uses where they part, each followed in brackets by its own uses when it is
    itself inside a define: 'in define "X" used at a (in define "Y" used at b and c) and d'."""
    shared = 0
    while all(len(c) > shared and c[shared] == chains[0][shared] for c in chains):
        shared += 1
    notes: list[list[object]] = []  # [text, times]: consecutive repeats folded together
    for name, call in chains[0][:shared]:
        text = f'in define "{name}" used at {call}'
        if notes and notes[-1][0] == text:
            notes[-1][1] += 1  # type: ignore[operator]
        else:
            notes.append([text, 1])
    said = [str(t) if n == 1 else f"{t} ({n} times)" for t, n in notes]
    by_define: dict[str, dict[str, list[list[tuple[str, str]]]]] = {}
    for c in chains:
        if len(c) > shared:
            name, call = c[shared]
            by_define.setdefault(name, {}).setdefault(call, []).append(c[shared + 1:])
    for name, calls in by_define.items():
        shown = []
        for call, further in calls.items():
            deeper = [f for f in further if f]
            shown.append(f"{call} ({_chains_note(deeper)})" if deeper else call)
        said.append(f'in define "{name}" used at {places(shown)}')
    return "; ".join(said)


class RuleError(GameError):
    """A game file that does not parse or does not validate.

    Carries every diagnostic found, each mistake once (see `merge`); `path`, `line` and
    `column` are those of the first. `str(error)` shows each as `file:line:col: message` with
    the source line and a caret.
    """

    def __init__(self, diagnostics: list[Diagnostic], text: str | None = None) -> None:
        if not diagnostics:
            raise ValueError("RuleError needs at least one diagnostic")
        self.diagnostics = merge(diagnostics)
        self.text = text
        first = self.diagnostics[0]
        self.path = first.span.path
        self.line = first.span.line
        self.column = first.span.column
        super().__init__(bounded(d.format(text) for d in self.diagnostics))


# Error output is bounded, whatever the file: a note at most MAX_NOTE characters, a whole
# report at most MAX_REPORT (the diagnostics that do not fit are counted, not shown).
MAX_NOTE = 2_000
MAX_REPORT = 64 * 1024


def bounded(reports: Iterable[str]) -> str:
    """The reports one per line, as many as fit in MAX_REPORT characters, then how many more
    there are."""
    shown: list[str] = []
    size = 0
    left = 0
    for report in reports:
        if left or size + len(report) + 1 > MAX_REPORT:
            left += 1
            continue
        shown.append(report)
        size += len(report) + 1
    if left:
        shown.append(f"... and {left} more error{'s' if left > 1 else ''}")
    return "\n".join(shown)
