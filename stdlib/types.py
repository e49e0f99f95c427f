"""Python-side aliases for the language types: what a ludeme's parameters and result are at
compile time. Dynamic values are closures over an evaluation context `Ctx`."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Annotated, Any

from dsl import types as t

__all__ = ["Annotated", "Cond", "IntExpr", "Region", "SiteExpr", "RoleExpr", "RolesExpr",
           "Direction", "Side", "Corner", "Regions", "CellKind", "Moves", "Effect",
           "ResultExpr", "Capture", "Pattern", "Relation", "Link"]

Ctx = Any  # stdlib.runtime.Ctx; Any here to keep this module import-light

Cond = Annotated[Callable[[Ctx], bool], t.COND]
IntExpr = Annotated[Callable[[Ctx], int], t.INT_EXPR]
Region = Annotated[Callable[[Ctx], Collection[int]], t.REGION]
SiteExpr = Annotated[Callable[[Ctx], int], t.SITE]
RoleExpr = Annotated[Callable[[Ctx], int], t.ROLE]
RolesExpr = Annotated[Callable[[Ctx], tuple[int, ...]], t.ROLES]
Direction = Annotated[str, t.DIRECTION]
Side = Annotated[str, t.SIDE]
Corner = Annotated[str, t.CORNER]
Regions = Annotated[list[Callable[[Ctx], Collection[int]]], t.REGIONS]
CellKind = Annotated[str, t.CELL]
Moves = Annotated[Callable[[Ctx], Sequence[Any]], t.MOVES]
Effect = Annotated[Callable[[Ctx], None], t.EFFECT]
ResultExpr = Annotated[Callable[[Ctx], int], t.RESULT]
Capture = Annotated[Any, t.CAPTURE]
Pattern = Annotated[Any, t.PATTERN]
# A relation: for a site, the sites it relates to (e.g. those in line of sight).
Relation = Annotated[Callable[[Ctx, int], Collection[int]], t.RELATION]
# A link: a relation with a condition on its ends (From, To), one kind of step in a chain.
Link = Annotated[Any, t.LINK]
