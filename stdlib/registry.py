"""The ludeme registry: every ludeme is a typed Python function registered under its DSL name.

Its signature is its grammar: positional parameters are positional arguments, keyword-only
parameters are `name:value` arguments (a trailing `_` is dropped, `_` becomes `-`), `*args`
takes any number of arguments, and a parameter named `env` (first) receives the compile-time
environment instead of an argument. Annotations give the language types (see `dsl.types`).
A name of two words, `"sites Empty"`, is a member of a family chosen by an Uppercase constant,
as in Ludii: `(sites Empty)`, `(sites Side N)`.
"""

from __future__ import annotations

import inspect
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from dsl.types import BOOL, FLOAT, INT, STR, DslType, ListOf

REQUIRED = inspect.Parameter.empty

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class ParamSpec:
    name: str  # as written in the DSL
    py_name: str
    type: DslType | ListOf
    keyword: bool
    default: object = REQUIRED
    variadic: bool = False

    @property
    def required(self) -> bool:
        return self.default is REQUIRED and not self.variadic

    def describe(self) -> str:
        t = self.type.name
        if self.variadic:
            return f"{t}..."
        text = f"{self.name}:{t}" if self.keyword else t
        return text if self.required else f"[{text}]"


@dataclass(frozen=True)
class LudemeSpec:
    name: str  # "place" or "sites Empty"
    fn: Callable[..., Any]
    params: tuple[ParamSpec, ...]
    returns: DslType
    doc: str
    needs_env: bool

    @property
    def head(self) -> str:
        return self.name.split(" ")[0]

    @property
    def family(self) -> str | None:
        parts = self.name.split(" ")
        return parts[1] if len(parts) > 1 else None

    @property
    def positional(self) -> tuple[ParamSpec, ...]:
        return tuple(p for p in self.params if not p.keyword)

    @property
    def keywords(self) -> dict[str, ParamSpec]:
        return {p.name: p for p in self.params if p.keyword}

    def usage(self) -> str:
        parts = [self.name, *(p.describe() for p in self.params)]
        return "(" + " ".join(parts) + ")"

    def summary(self) -> str:
        return self.doc.strip().splitlines()[0] if self.doc.strip() else ""


REGISTRY: dict[str, LudemeSpec] = {}


def _dsl_type(annotation: object, where: str) -> DslType | ListOf:
    if typing.get_origin(annotation) is typing.Annotated:
        for meta in annotation.__metadata__:  # type: ignore[attr-defined]
            if isinstance(meta, DslType):
                return meta
    if annotation is int:
        return INT
    if annotation is float:
        return FLOAT
    if annotation is bool:
        return BOOL
    if annotation is str:
        return STR
    origin = typing.get_origin(annotation)
    if origin in (list, tuple):
        (inner, *_) = typing.get_args(annotation)
        item = _dsl_type(inner, where)
        assert isinstance(item, DslType), where
        return ListOf(item)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(args) == 1:
            return _dsl_type(args[0], where)
    raise TypeError(f"{where}: annotation {annotation!r} has no language type")


def ludeme(name: str) -> Callable[[F], F]:
    """Register the decorated function as the ludeme `name`."""

    def register(fn: F) -> F:
        hints = typing.get_type_hints(fn, include_extras=True)
        sig = inspect.signature(fn)
        params: list[ParamSpec] = []
        needs_env = False
        for i, p in enumerate(sig.parameters.values()):
            if i == 0 and p.name == "env":
                needs_env = True
                continue
            dsl_name = p.name.rstrip("_").replace("_", "-")
            t = _dsl_type(hints[p.name], f"{name}.{p.name}")
            if p.kind is inspect.Parameter.VAR_POSITIONAL:
                params.append(ParamSpec(dsl_name, p.name, t, False, variadic=True))
            else:
                params.append(ParamSpec(dsl_name, p.name, t,
                                        p.kind is inspect.Parameter.KEYWORD_ONLY, p.default))
        returns = _dsl_type(hints["return"], f"{name} return")
        assert isinstance(returns, DslType)
        if name in REGISTRY:
            raise ValueError(f"ludeme {name!r} registered twice")
        REGISTRY[name] = LudemeSpec(name, fn, tuple(params), returns, inspect.getdoc(fn) or "",
                                    needs_env)
        return fn

    return register


def families() -> dict[str, dict[str, LudemeSpec]]:
    """Heads that have family members: {"sites": {"Empty": spec, ...}}."""
    out: dict[str, dict[str, LudemeSpec]] = {}
    for spec in REGISTRY.values():
        if spec.family is not None:
            out.setdefault(spec.head, {})[spec.family] = spec
    return out
