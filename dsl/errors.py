"""The error family of ludeme, and the located diagnostics a game file's errors are made of."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from dsl.ast import FOLDED_AFTER, Span

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
            out.append(f"  note: {note}")
        return "\n".join(out)

    def full_note(self) -> str | None:
        """The note line's text (at most MAX_NOTE characters): the note given, or where the
        define the span is in is used; for a merged diagnostic, how many times it was met and
        through which uses of which defines."""
        note = self._note()
        if note is not None and len(note) > MAX_NOTE:
            note = note[:MAX_NOTE].rsplit(" ", 1)[0] + " … (and more)"
        return note

    def _note(self) -> str | None:
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


# The most characters of a source line an error shows (a window around the caret), and of a
# word or value it quotes from what a user gave.
MAX_EXCERPT = 100
MAX_QUOTED = 24


def source_excerpt(text: str, span: Span) -> list[str]:
    """The source line of `span` and a caret line marking its columns (on one line). A long
    line is shown as a window of at most MAX_EXCERPT characters around the caret, '…' marking
    what is left out."""
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
    if len(line) > MAX_EXCERPT:
        first = max(0, min(start - MAX_EXCERPT // 4, len(line) - MAX_EXCERPT))
        shown = line[first:first + MAX_EXCERPT]
        width = min(width, MAX_EXCERPT - (start - first))
        before = "…" if first else ""
        line = before + shown + ("…" if first + MAX_EXCERPT < len(line) else "")
        start = start - first + len(before)
    line = "".join(ch if ch.isprintable() else "?" for ch in line)
    return ["    " + line, "    " + " " * start + "^" * width]


def bounded_reason(exc: Exception, limit: int = 4 * MAX_QUOTED + 40) -> str:
    """An exception's message for a one-line error, at most about `limit` characters: a
    reason given by another layer, which may quote what it was given."""
    said = " ".join(str(exc).split())
    return said if len(said) <= limit else said[:limit].rsplit(" ", 1)[0] + " …"


def snippet(value: str, limit: int = MAX_QUOTED) -> str:
    """`value` quoted for a message, at most `limit` characters of it (then '…' and its
    length), characters that do not print escaped: what a user gave, never a whole line of a
    file."""
    if len(value) <= limit:
        return repr(value)
    return repr(value[:limit]) + f"… ({len(value)} characters)"


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
    chains: dict[int, tuple[object, ...]] = {}  # id(span.via) -> the expansions it stands for
    out = []
    for group in groups.values():
        first = group[0]
        met: dict[tuple[object, ...], Span] = {}
        for d in group:
            for u in d.uses or (d.span,):
                met.setdefault((_where(u), _chain(u.via, chains)), u)
        uses = tuple(met.values())  # each place once, in the order reported
        out.append(first if len(uses) <= 1 else replace(first, uses=uses))
    return out


Via = tuple[str, Span] | None


def _where(span: Span) -> tuple[str, int, int, int, int]:
    return (span.path, span.line, span.column, span.end_line, span.end_column)


def _mistake(d: Diagnostic) -> tuple[object, ...]:
    """What makes two diagnostics the same mistake."""
    if d.note is not None and d.note.startswith('in define "') and ", at " in d.note:
        # Located at a use of a library define; the note says where in the define it is.
        return ("library", d.message, d.severity, d.note)
    return (_where(d.span), d.message, d.severity, d.note)


def _chain(via: Via, known: dict[int, tuple[object, ...]]) -> tuple[object, ...]:
    """The define expansions `via` stands for, innermost first, as (define, call place)
    pairs flattened into one tuple. Expansions share their outer links, so each link's chain
    is worked out once (`known`, by the link's identity, lives as long as the spans do)."""
    links: list[tuple[str, Span]] = []
    while via is not None and id(via) not in known:
        links.append(via)
        via = via[1].via
    chain = known[id(via)] if via is not None else ()
    for link in reversed(links):
        chain = (link[0], _where(link[1]), *chain)
        known[id(link)] = chain
    return chain


def _distinct(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))


def _uses_note(uses: Sequence[Span]) -> str:
    """For one place in a define's body met through several uses of the define: the places
    where it was used, 'in define "X" used at a, b and c'; when defines used inside other
    defines lead there, how many uses and each define's places, innermost first: 'in 4 uses
    of define "X": "X" is used at a and b, "Y" at c and d'."""
    calls: dict[str, dict[tuple[str, int, int, int, int], Span]] = {}  # define -> its uses
    seen: set[int] = set()  # the links already followed (expansions share their outer links)
    nested = False
    for u in uses:
        via = u.via
        nested = nested or (via is not None and via[1].via is not None)
        while via is not None and id(via) not in seen:
            seen.add(id(via))
            name, call = via
            calls.setdefault(name, {}).setdefault(_where(call), call)
            via = call.via
    if not calls:
        return f"met {len(uses)} times"
    said = [(name, places([str(c) for c in by_place.values()])) for name, by_place in
            calls.items()]
    if not nested:
        return "; ".join(f'in define "{name}" used at {where}' for name, where in said)
    innermost = said[0][0]
    parts = [f'"{name}" is used at {where}' if i == 0 else f'"{name}" at {where}'
             for i, (name, where) in enumerate(said)]
    if len(parts) > FOLDED_AFTER + 1:
        hidden = len(parts) - FOLDED_AFTER
        parts = [*parts[:FOLDED_AFTER - 1], f"{hidden} more defines", parts[-1]]
    return f'in {len(uses)} uses of define "{innermost}": ' + ", ".join(parts)


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
