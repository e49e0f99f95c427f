"""Fuzzing the language layer: whatever text `parse_game` is given, it returns a `Game` or raises a
`RuleError` located in that text — never any other exception.

Inputs: arbitrary text; a soup of the language's tokens; games generated from the ludeme
registry's signatures (mostly well typed, so they reach the compiler); and the shipped games
with a token or a character deleted, duplicated or swapped.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import stdlib
from dsl.types import CELL_NAMES, DIRECTION_NAMES, ROLES_NAMES, SITE_NAMES, DslType, ListOf
from interpreter import Game, RuleError, parse_game

# When a test fails, hypothesis's pytest plugin imports libcst (to suggest an @example patch),
# which imports mypy_extensions, which warns; under `-W error` that would turn a failing test
# into a pytest INTERNALERROR that hides the failure.
pytestmark = pytest.mark.filterwarnings(
    "ignore:mypy_extensions.TypedDict is deprecated:DeprecationWarning")

GAMES = sorted((Path(__file__).parent.parent / "games").glob("*.game"))
SOURCE = "fuzz.game"

FAST = settings(max_examples=150, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=600, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow])


# --- the property ------------------------------------------------------------------------------


def load(text: str, source: str = SOURCE) -> Game | RuleError:
    """`parse_game(text)`: a Game, or the RuleError it raised (any other exception propagates)."""
    try:
        return parse_game(text, source)
    except RuleError as err:
        return err


def assert_game_or_located_error(text: str, source: str = SOURCE) -> None:
    result = load(text, source)
    if isinstance(result, Game):
        return
    err = result
    assert err.path == source
    assert str(err).startswith(f"{source}:{err.line}:{err.column}: "), str(err)
    assert err.line >= 1 and err.column >= 1, str(err)
    for d in err.diagnostics:
        assert d.format(text).startswith(f"{source}:{d.span.line}:{d.span.column}: ")


def assert_errors_point_into_the_text(text: str) -> None:
    """Each error's line exists, its column is on that line (or just after its end), and the
    source line printed under the message is that line."""
    result = load(text)
    if isinstance(result, Game):
        return
    lines = text.split("\n")
    for d in result.diagnostics:
        line, column = d.span.line, d.span.column
        where = f"{line}:{column} in {text!r}"
        assert 1 <= line <= len(lines), where
        written = lines[line - 1].removesuffix("\r")
        assert 1 <= column <= len(written) + 1, where
        report = d.format(text).splitlines()
        if written.strip():
            assert report[1] == "    " + written.expandtabs(1), where


# --- arbitrary text -----------------------------------------------------------------------------


@FAST
@given(st.text(max_size=200))
def test_arbitrary_text(text: str) -> None:
    assert_game_or_located_error(text)


@FAST
@given(st.text(alphabet="(){}\"\\:#/ \n\tabz-AZ019.", max_size=80))
def test_text_of_the_language_s_characters(text: str) -> None:
    assert_game_or_located_error(text)


@FAST
@given(st.text(max_size=200))
def test_arbitrary_text_errors_point_into_the_text(text: str) -> None:
    assert_errors_point_into_the_text(text)


# --- token soup ---------------------------------------------------------------------------------

HEADS = sorted({spec.head for spec in stdlib.REGISTRY.values()})
KEYWORDS = sorted({p.name for spec in stdlib.REGISTRY.values() for p in spec.params if p.keyword})
FAMILIES = sorted({spec.family for spec in stdlib.REGISTRY.values() if spec.family})
CONSTANTS = sorted(DIRECTION_NAMES | ROLES_NAMES | SITE_NAMES | CELL_NAMES | set(FAMILIES))

lower_names = st.from_regex(r"[a-z][a-z0-9_-]{0,6}", fullmatch=True)
upper_names = st.from_regex(r"[A-Z][A-Za-z0-9_]{0,6}", fullmatch=True)
string_bodies = st.text(alphabet=st.characters(blacklist_characters='"\\\n'), max_size=8)
escapes = st.sampled_from(["\\\"", "\\\\", "\\n", "\\t", "\\q"])

TOKEN = st.one_of(
    st.sampled_from(["(", ")", "{", "}", "(", ")", '(game "T"']),
    st.sampled_from(HEADS),
    lower_names,
    st.sampled_from(["<", "<=", ">", ">=", "=", "!=", "+", "-", "*", "/"]),
    st.lists(st.one_of(string_bodies, escapes), max_size=3).map(lambda p: '"' + "".join(p) + '"'),
    st.sampled_from(['"', '"unterminated', '"a\\', '"X"', '"O"', '"a1"', '"z9"']),
    st.integers(-20, 20).map(str),
    st.floats(-10, 10, allow_nan=False).map(lambda f: f"{f:.2f}"),
    st.sampled_from(["true", "false", "truex", "True"]),
    st.sampled_from(CONSTANTS),
    upper_names,
    st.sampled_from(KEYWORDS).map(lambda k: k + ":"),
    lower_names.map(lambda k: k + ":"),
    st.sampled_from([":", "#", "#1", "#2", "#size", "#0", "#x"]),
    st.text(max_size=10).map(lambda c: "//" + c.replace("\n", " ") + "\n"),
    st.sampled_from(["\n", "\t", "\r\n", "  "]),
)
SEPARATOR = st.sampled_from([" ", " ", "\n", ""])


@st.composite
def token_soup(draw: st.DrawFn) -> str:
    tokens = draw(st.lists(TOKEN, max_size=40))
    return "".join(t + draw(SEPARATOR) for t in tokens)


@FAST
@given(token_soup())
def test_token_soup(text: str) -> None:
    assert_game_or_located_error(text)


@FAST
@given(token_soup())
def test_token_soup_errors_point_into_the_text(text: str) -> None:
    assert_errors_point_into_the_text(text)


# --- games generated from the registry ----------------------------------------------------------

SPECS = list(stdlib.REGISTRY.values())
STRINGS = ['"a1"', '"c3"', '"z9"', '"X"', '"O"', '"T"', '"R"', '"B"', '""', '"Stone"']
JUNK = st.sampled_from(["plaec", "(plaec)", "(sites Emtpy)", "Mvoer", '"x"', "3", "{}",
                        "(pass)", "(full)", "true", "#1", "#size", '("Nope")', "N", "(square 2)"])


@functools.lru_cache(maxsize=None)
def of_type(t: DslType | ListOf, depth: int, junk: bool) -> st.SearchStrategy[str]:
    """Source text of an expression of type `t` (with `junk`, sometimes of a wrong one)."""
    if isinstance(t, ListOf):
        items = st.lists(of_type(t.item, depth, junk), max_size=3)
        return items.map(lambda xs: "{" + " ".join(xs) + "}")
    options: list[st.SearchStrategy[str]] = []
    if int in t.literals:
        options.append(st.integers(-1, 6).map(str))
    if float in t.literals and int not in t.literals:
        options.append(st.sampled_from(["0.5", "-1.0"]))
    if bool in t.literals:
        options.append(st.sampled_from(["true", "false"]))
    if str in t.literals:
        options.append(st.sampled_from(STRINGS))
    if t.constants:
        options.append(st.sampled_from(sorted(t.constants)))
    producers = [s for s in SPECS if t.accepts(s.returns)]
    if producers and depth > 0:
        options.append(st.sampled_from(producers).flatmap(lambda s: form_of(s, depth - 1, junk)))
    if junk or not options:
        options.append(JUNK)
    return st.one_of(options)


@functools.lru_cache(maxsize=None)
def form_of(spec: stdlib.LudemeSpec, depth: int, junk: bool) -> st.SearchStrategy[str]:
    """Source text of a call of the ludeme `spec`, with arguments of the right types."""
    parts: list[st.SearchStrategy[str]] = [st.just(spec.name)]
    for p in spec.params:
        value = of_type(p.type, depth, junk)
        if p.keyword:
            value = value.map(lambda v, name=p.name: f"{name}:{v}")
        if p.variadic:
            parts.append(st.lists(value, max_size=2).map(" ".join))
        elif p.required:
            parts.append(value)
        else:
            parts.append(st.one_of(st.just(""), value))
    return st.tuples(*parts).map(lambda xs: "(" + " ".join(x for x in xs if x) + ")")


def section(name: str, depth: int, junk: bool) -> st.SearchStrategy[str]:
    return form_of(stdlib.REGISTRY[name], depth, junk)


@st.composite
def generated_game(draw: st.DrawFn, junk: bool) -> str:
    players = draw(st.sampled_from(['(players {(player "X") (player "O")})',
                                    '(players {(player "X" forward:N) (player "O" forward:S)})']))
    if draw(st.booleans()):
        players = draw(section("players", 2, junk))
    board = draw(st.sampled_from(["(board (square 3))", "(board (rectangle 4 3))",
                                  "(board (hexhex 2))", "(board (hex-rhombus 3))"]))
    if draw(st.booleans()):
        board = draw(section("board", 1, junk))
    parts = ['(game "T"', players, board]
    if draw(st.booleans()):
        parts.append(draw(section("start", 2, junk)))
    parts.append(draw(section("play", 3, junk)))
    parts.append(draw(section("end", 3, junk)))
    return "\n  ".join(parts) + ")\n"


@FAST
@given(generated_game(junk=False))
def test_generated_well_typed_games(text: str) -> None:
    assert_game_or_located_error(text)


@FAST
@given(generated_game(junk=True))
def test_generated_games_with_mistakes(text: str) -> None:
    assert_game_or_located_error(text)


def test_the_generator_reaches_the_compiler() -> None:
    """Not a fuzz test: a sanity check that generated games are not all rejected early."""
    from hypothesis import find

    game_text = find(generated_game(junk=False), lambda t: isinstance(load(t), Game),
                     settings=settings(max_examples=300, database=None, deadline=None))
    assert isinstance(load(game_text), Game)


# --- mutations of the shipped games -------------------------------------------------------------

TOKEN_RE = re.compile(r'"(?:[^"\\\n]|\\.)*"|//[^\n]*|\s+|[(){}]|[^\s(){}"]+|.')


def tokens(text: str) -> list[str]:
    return TOKEN_RE.findall(text)


def test_tokenizer_keeps_every_character() -> None:
    for path in GAMES:
        text = path.read_text(encoding="utf-8")
        assert "".join(tokens(text)) == text
        assert '"cells on each side of the rhombus"' in tokens(text) or path.stem != "hex"


def mutate(pieces: list[str], op: str, i: int, j: int) -> list[str]:
    out = list(pieces)
    if op == "delete":
        del out[i]
    elif op == "duplicate":
        out.insert(i, out[i])
    else:
        out[i], out[j] = out[j], out[i]
    return out


@st.composite
def mutated_game(draw: st.DrawFn) -> tuple[str, str]:
    path = draw(st.sampled_from(GAMES))
    text = path.read_text(encoding="utf-8")
    for _ in range(draw(st.integers(1, 3))):
        by_token = draw(st.booleans())
        pieces = tokens(text) if by_token else list(text)
        candidates = [k for k, p in enumerate(pieces) if not p.isspace()] or [0]
        i = draw(st.sampled_from(candidates))
        j = draw(st.sampled_from(candidates))
        op = draw(st.sampled_from(["delete", "duplicate", "swap"]))
        text = "".join(mutate(pieces, op, i, j)) if pieces else text
    return f"games/{path.name}", text


def test_there_are_games_to_mutate() -> None:
    assert len(GAMES) >= 3
    for path in GAMES:
        assert isinstance(load(path.read_text(encoding="utf-8"), f"games/{path.name}"), Game)


@FAST
@given(mutated_game())
def test_mutated_games(case: tuple[str, str]) -> None:
    source, text = case
    assert_game_or_located_error(text, source)


@FAST
@given(mutated_game())
def test_mutated_games_errors_point_into_the_text(case: tuple[str, str]) -> None:
    assert_errors_point_into_the_text(case[1])


# --- longer runs --------------------------------------------------------------------------------


@pytest.mark.slow
@SLOW
@given(st.one_of(token_soup(), mutated_game().map(lambda c: c[1]),
                 generated_game(junk=True), generated_game(junk=False)))
def test_long_run(text: str) -> None:
    assert_game_or_located_error(text)
