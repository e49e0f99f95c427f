"""The checker: resolves every form of an expanded game against the ludeme registry and checks
names, arity, keyword arguments and types, collecting *all* problems with their spans.

It knows the registry only through the signatures (`.params`, `.returns`, family names); it
knows nothing about what a ludeme does.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from dsl.ast import Bool, Broken, Const, Float, Form, Int, ListNode, Node, Param, Span, Str, show
from dsl.errors import Diagnostic
from dsl.suggest import closest
from dsl.types import GAME, DslType, ListOf


class Spec(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def params(self) -> Any: ...

    @property
    def returns(self) -> DslType: ...

    @property
    def head(self) -> str: ...

    @property
    def family(self) -> str | None: ...

    def usage(self) -> str: ...


def _a(t: DslType | ListOf) -> str:
    name = t.name
    if name.startswith("{"):
        return f"a list {name}"
    return ("an " if name[0].lower() in "aeiou" else "a ") + name


def resolve(form: Form, registry: Mapping[str, Spec]) -> tuple[Spec | None, tuple[Node, ...]]:
    """The spec a form names and its arguments after the family constant (if any). A form of
    a family's head whose first argument is a constant naming no member resolves to None."""
    if form.args and isinstance(form.args[0], Const):
        member = registry.get(f"{form.head} {form.args[0].name}")
        if member is not None:
            return member, form.args[1:]
        if any(key.startswith(form.head + " ") for key in registry):
            return None, form.args
    return registry.get(form.head), form.args


class Checker:
    def __init__(self, registry: Mapping[str, Spec]) -> None:
        self.registry = registry
        self.heads = sorted({s.head for s in registry.values()})
        self.family_members: dict[str, list[str]] = {}
        for s in registry.values():
            if s.family is not None:
                self.family_members.setdefault(s.head, []).append(s.family)
        self.errors: list[Diagnostic] = []

    def error(self, where: Node | Span, message: str) -> None:
        span = where if isinstance(where, Span) else where.span
        self.errors.append(Diagnostic(span, message))

    def check(self, node: Node, expected: DslType | ListOf) -> None:
        if isinstance(node, Broken):
            return
        if isinstance(node, Form):
            self.form(node, expected)
        elif isinstance(node, ListNode):
            if isinstance(expected, DslType) and expected.list_of is not None:
                expected = ListOf(expected.list_of)
            if not isinstance(expected, ListOf):
                self.error(node, f"expected {_a(expected)} here, found a list {{...}}")
                return
            for item in node.items:
                self.check(item, expected.item)
        elif isinstance(expected, ListOf):
            self.error(node, f"expected {_a(expected)} here, found {show(node)[:30]} "
                       "(write a list as { ... })")
        elif isinstance(node, Const):
            if node.name not in expected.constants:
                known = sorted(expected.constants)
                hint = closest(node.name, known)
                if known:
                    msg = f"unknown constant {node.name} for {_a(expected)}"
                    msg += (f" (did you mean {hint}?)" if hint
                            else f" (one of: {', '.join(known)})")
                else:
                    msg = f"expected {_a(expected)} here, found the constant {node.name}"
                self.error(node, msg)
        elif isinstance(node, Str | Int | Float | Bool):
            if type(node.value) not in expected.literals:
                kind = {Str: "a string", Int: "a number", Float: "a number", Bool: "true/false"}
                self.error(node, f"expected {_a(expected)} here, found {kind[type(node)]} "
                           f"{show(node)}")
        elif isinstance(node, Param):
            self.error(node, f"#{node.name} was not substituted")

    def form(self, node: Form, expected: DslType | ListOf) -> None:
        spec, args = resolve(node, self.registry)
        if spec is None:
            self.unknown(node)
            return
        if isinstance(expected, ListOf):
            self.error(node.head_span, f"expected {_a(expected)} here, found ({spec.name} ...) "
                       "(write a list as { ... })")
        elif not expected.accepts(spec.returns):
            self.error(node.head_span, f"expected {_a(expected)} here, but ({spec.name} ...) "
                       f"is {_a(spec.returns)}")
        positional = [p for p in spec.params if not p.keyword]
        keywords = {p.name: p for p in spec.params if p.keyword}
        i = 0
        for arg in args:
            if i < len(positional) and positional[i].variadic:
                self.check(arg, positional[i].type)
                continue
            if i >= len(positional):
                self.error(arg, f"too many arguments: ({spec.name} ...) takes "
                           f"{len(positional)}; usage: {spec.usage()}")
                break
            self.check(arg, positional[i].type)
            i += 1
        missing = [p for p in positional[i:] if p.required]
        if missing:
            names = ", ".join(p.type.name for p in missing)
            self.error(node.head_span, f"missing argument{'s' if len(missing) > 1 else ''} "
                       f"{names} for ({spec.name} ...); usage: {spec.usage()}")
        seen: set[str] = set()
        for kw in node.kwargs:
            p = keywords.get(kw.name)
            if p is None:
                hint = closest(kw.name, keywords)
                msg = f"unknown argument '{kw.name}:' for ({spec.name} ...)"
                if hint:
                    msg += f" (did you mean '{hint}:'?)"
                elif keywords:
                    msg += f"; it takes {', '.join(k + ':' for k in keywords)}"
                else:
                    msg += "; it takes no name: arguments"
                self.error(kw, msg)
                continue
            if kw.name in seen:
                self.error(kw, f"'{kw.name}:' given twice")
            seen.add(kw.name)
            self.check(kw.value, p.type)
        for p in keywords.values():
            if p.required and p.name not in seen:
                self.error(node.head_span, f"({spec.name} ...) needs {p.name}:{p.type.name}")

    def unknown(self, node: Form) -> None:
        members = self.family_members.get(node.head)
        if members is not None:
            first = node.args[0] if node.args else None
            written = first.name if isinstance(first, Const) else None
            hint = closest(written, members) if written else None
            where: Node = first if first is not None else node
            msg = f"({node.head} ...) needs one of {', '.join(sorted(members))} first"
            if written:
                msg = f"unknown kind {written} for ({node.head} ...)"
                msg += f" (did you mean {hint}?)" if hint else \
                    f"; one of {', '.join(sorted(members))}"
            self.error(where, msg)
            return
        hint = closest(node.head, self.heads)
        msg = f"unknown ludeme '{node.head}'"
        if hint:
            msg += f' (did you mean "{hint}"?)'
        self.error(node.head_span, msg)


def check(game: Form, registry: Mapping[str, Spec]) -> list[Diagnostic]:
    """Every problem in the expanded `game` form, in source order."""
    checker = Checker(registry)
    checker.check(game, GAME)
    return sorted(checker.errors, key=lambda d: (d.span.line, d.span.column))
