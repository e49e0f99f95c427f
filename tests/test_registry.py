"""The registry is the language reference: every ludeme is documented with an example, and
every example in the documentation is itself valid."""

from __future__ import annotations

import pytest

import stdlib
from dsl.parser import parse

SPECS = sorted(stdlib.REGISTRY.values(), key=lambda s: s.name)


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.name)
def test_every_ludeme_has_a_summary_and_an_example(spec) -> None:
    assert spec.doc.strip(), f"{spec.name} has no docstring"
    example = spec.doc.strip().split("\n\n")[-1].strip()  # the last paragraph
    assert example.startswith("("), f"{spec.name}: the last line should be a DSL example"
    (node,) = parse(example, f"<{spec.name}>")  # the example parses
    assert spec.head in example


def test_the_grammar_lists_every_ludeme(capsys) -> None:
    from interpreter.cli import main

    assert main(["grammar"]) == 0
    out = capsys.readouterr().out
    for spec in SPECS:
        assert spec.usage() in out
