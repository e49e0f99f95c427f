"""Fuzzing the language layer: whatever text `parse_game` is given, it returns a `Game` or raises a
`RuleError` located in that text — never any other exception.

Inputs: arbitrary text; a soup of the language's tokens; games generated from the ludeme
registry's signatures (mostly well typed, so they reach the compiler); and the shipped games
with a token or a character deleted, duplicated or swapped.
"""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, example, find, given, settings
from hypothesis import strategies as st

import stdlib
from dsl.errors import MAX_EXCERPT
from dsl.types import (
    CELL_NAMES,
    DIRECTION_NAMES,
    MOVES,
    ROLES_NAMES,
    SITE_NAMES,
    TURN_STEP,
    DslType,
    ListOf,
)
from interpreter import Game, RuleError, parse_game

GAMES = sorted((Path(__file__).parent.parent / "games").glob("*.game"))
SOURCE = "fuzz.game"


def examples(n: int) -> int:
    """n examples, or more when the loaded profile asks for more (the "long" profile: see
    conftest.py). The examples themselves come from the profile: the same ones on every run by
    default, new ones on each run of the long profile."""
    return max(n, settings.default.max_examples)


FAST = settings(max_examples=examples(150), deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=examples(600), deadline=None, database=None,
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
    # (An error inside a shared define of the library is located in the library's file.)
    assert err.path == source or err.path.startswith("stdlib/"), str(err)
    assert str(err).startswith(f"{err.path}:{err.line}:{err.column}: "), str(err)
    assert err.line >= 1 and err.column >= 1, str(err)
    for d in err.diagnostics:
        assert d.format(text).startswith(f"{d.span.path}:{d.span.line}:{d.span.column}: ")


def assert_errors_point_into_the_text(text: str) -> None:
    """Each error's line exists, its column is on that line (or just after its end), and the
    source line printed under the message is that line."""
    result = load(text)
    if isinstance(result, Game):
        return
    lines = text.split("\n")
    for d in result.diagnostics:
        if d.span.path != SOURCE:
            continue
        line, column = d.span.line, d.span.column
        where = f"{line}:{column} in {text!r}"
        assert 1 <= line <= len(lines), where
        written = lines[line - 1].removesuffix("\r")
        assert 1 <= column <= len(written) + 1, where
        report = d.format(text).split("\n")
        shown = written.expandtabs(1)
        if written.strip() and shown.isprintable() and len(shown) <= MAX_EXCERPT:
            assert report[1] == "    " + shown, where
        elif written.strip():  # a window of a long line, characters that do not print as '?'
            assert report[1].isprintable() and len(report[1]) <= 4 + MAX_EXCERPT + 2, where


# --- arbitrary text -----------------------------------------------------------------------------


@FAST
@given(st.text(max_size=200))
def test_arbitrary_text(text: str) -> None:
    assert_game_or_located_error(text)


@FAST
@given(st.text(alphabet="(){}\"\\:#/ \n\tabz-AZ019.", max_size=80))
@example("(" * 5000 + ")" * 5000)  # nested too deep for a recursive parser
@example("{" * 5000)
def test_text_of_the_language_s_characters(text: str) -> None:
    assert_game_or_located_error(text)


@FAST
@given(st.text(max_size=200))
@example('// a form feed \f in a comment\n(game "T" $)')
@example('// a line separator \u2028 in a comment\n(game "T" $)')
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
JUNK = ["plaec", "(plaec)", "(sites Emtpy)", "Mvoer", '"x"', "3", "{}", "(pass)", "(full)",
        "true", "#1", "#size", '("Nope")', "N", "(square 2)", '"z9"', "k:1"]


class Generator:
    """Writes expressions of a given language type by following the registry's signatures.

    Driven by a `random.Random` that hypothesis controls (so failures shrink). With `junk`,
    about one expression in ten is replaced by a likely mistake."""

    def __init__(self, rng: random.Random, junk: bool) -> None:
        self.rng = rng
        self.junk = junk

    def literals(self, t: DslType) -> list[str]:
        out: list[str] = []
        if int in t.literals:
            out.append(str(self.rng.randint(-1, 6)))
        if float in t.literals and int not in t.literals:
            out.append(self.rng.choice(["0.5", "-1.0"]))
        if bool in t.literals:
            out.append(self.rng.choice(["true", "false"]))
        if str in t.literals:
            if t.name in ("Site", "Region"):
                names = ["a1", "b2", "c3"]
            elif t.name in ("Role", "Roles"):
                names = ["X", "O"]
            else:
                names = ["X", "O", "Stone", "X O", ". *", "c3"]
            out.append('"' + self.rng.choice(names) + '"')
        if t.constants:
            out.append(self.rng.choice(sorted(t.constants)))
        return out

    def expr(self, t: DslType | ListOf, depth: int) -> str:
        if self.junk and self.rng.random() < 0.1:
            return self.rng.choice(JUNK)
        if isinstance(t, ListOf):
            return "{" + " ".join(self.expr(t.item, depth)
                                  for _ in range(self.rng.randint(0, 3))) + "}"
        options = self.literals(t)
        producers = [s for s in SPECS if t.accepts(s.returns)]
        if depth <= 0:  # running out of depth: the ludemes that need no argument, if any
            producers = [s for s in producers if not any(p.required for p in s.params)] or \
                (producers if depth > -2 else [])
        if producers and (not options or self.rng.random() < 0.6):
            return self.form(self.rng.choice(producers), depth - 1)
        return self.rng.choice(options or JUNK)

    def form(self, spec: stdlib.LudemeSpec, depth: int) -> str:
        parts = [spec.name]
        for p in spec.params:
            count = (self.rng.randint(0, 2) if p.variadic else
                     1 if p.required else self.rng.randint(0, 1))
            for _ in range(count):
                value = self.expr(p.type, depth)
                parts.append(f"{p.name}:{value}" if p.keyword else value)
        return "(" + " ".join(parts) + ")"


@st.composite
def generated_game(draw: st.DrawFn, junk: bool) -> str:
    gen = Generator(draw(st.randoms(use_true_random=False)), junk)
    rng = gen.rng
    parts = ['(game "T"']
    parts.append(rng.choice(['(players {(player "X") (player "O")})',
                             '(players {(player "X" forward:N) (player "O" forward:S)})',
                             '(players {(player "X" sides:{N S}) (player "O" sides:{W E})})',
                             gen.form(stdlib.REGISTRY["players"], 2)]))
    parts.append(rng.choice(["(board (square 3))", "(board (rectangle 4 3))",
                             "(board (hexhex 2))", "(board (hex-rhombus 3))",
                             gen.form(stdlib.REGISTRY["board"], 1)]))
    if rng.random() < 0.5:
        parts.append(gen.form(stdlib.REGISTRY["start"], 2))
    steps = [gen.expr(MOVES, 3)] + [gen.expr(TURN_STEP, 3) for _ in range(rng.randint(0, 1))]
    parts.append(f"(play {' '.join(steps)})")
    parts.append(gen.form(stdlib.REGISTRY["end"], 3))
    return "\n  ".join(parts) + ")\n"


def small_game(play: str = "(place (sites Empty))", end: str = "(if (full) (draw))",
               start: str = "") -> str:
    start = f"  {start}\n" if start else ""
    return ('(game "T"\n  (players {(player "X") (player "O")})\n  (board (square 3))\n'
            f"{start}  (play {play})\n  (end {end}))\n")


@FAST
@given(generated_game(junk=False))
@example(small_game())
@example(small_game(end="(if (forms (pattern {})) (draw))"))  # an empty pattern
@example(small_game(start='(start (put Neutral (sites {"a1"})))'))  # no neutral piece
def test_generated_well_typed_games(text: str) -> None:
    assert_game_or_located_error(text)


@FAST
@given(generated_game(junk=True))
def test_generated_games_with_mistakes(text: str) -> None:
    assert_game_or_located_error(text)


def test_the_generator_reaches_the_compiler() -> None:
    """Not a fuzz test: a sanity check that generated games are not all rejected early."""

    def is_a_game(text: str) -> bool:
        try:
            return isinstance(load(text), Game)
        except Exception:  # a crash is for the fuzz tests above to report
            return False

    game_text = find(generated_game(junk=False), is_a_game,
                     settings=settings(max_examples=300, database=None, deadline=None,
                                       phases=[Phase.generate]))
    assert isinstance(load(game_text), Game)


# --- mutations of the shipped games -------------------------------------------------------------

TOKEN_RE = re.compile(r'"(?:[^"\\\n]|\\.)*"|//[^\n]*|\s+|[(){}]|[^\s(){}"]+|.')


def tokens(text: str) -> list[str]:
    return TOKEN_RE.findall(text)


def test_tokenizer() -> None:
    assert tokens('(a "b // c" -1)  // d\n') == \
        ["(", "a", " ", '"b // c"', " ", "-1", ")", "  ", "// d", "\n"]
    for path in GAMES:
        text = path.read_text(encoding="utf-8")
        assert "".join(tokens(text)) == text


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
@example(("games/t.game", small_game(play="(placeplace (sites Empty))")))
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


# --- reproducible runs --------------------------------------------------------------------------


def test_the_default_profile_draws_the_same_examples_on_every_run() -> None:
    """By default (the "ci" profile of conftest.py) a property test draws the same examples each
    time it runs, so that the suite cannot fail or hang at random."""
    if settings.get_current_profile_name() != "ci":
        pytest.skip(f"the {settings.get_current_profile_name()!r} profile is loaded")
    assert settings.default.derandomize and settings.default.database is None
    assert FAST.derandomize and SLOW.derandomize  # the per-test settings keep it

    def draw() -> list[str]:
        drawn: list[str] = []

        @settings(FAST, max_examples=30)
        @given(token_soup())
        def collect(text: str) -> None:
            drawn.append(text)

        collect()
        return drawn

    first = draw()
    assert len(set(first)) > 10 and draw() == first


def test_no_test_module_turns_derandomize_off() -> None:
    """Per-test settings keep the default run reproducible: no test module turns derandomize
    off, sets an example database or asks for true randomness (conftest.py chooses them; a
    module setting derandomize=True keeps its examples fixed even in the long profile)."""
    allowed = {"derandomize": (True,), "database": (None,), "use_true_random": (False,)}
    for path in sorted(Path(__file__).parent.glob("*.py")):
        if path.name == "conftest.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.keyword) and node.arg in allowed:
                value = node.value.value if isinstance(node.value, ast.Constant) else node.value
                assert value in allowed[node.arg], f"{path.name}:{node.lineno}: {node.arg}="
