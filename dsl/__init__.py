"""The ludeme language: grammar, parser, AST, define/option expansion and the checker."""

from dsl.ast import Span
from dsl.errors import Diagnostic, GameError, RuleError
from dsl.expand import Expansion, Option, expand
from dsl.parser import parse

__all__ = ["Diagnostic", "Expansion", "GameError", "Option", "RuleError", "Span", "expand", "parse"]
