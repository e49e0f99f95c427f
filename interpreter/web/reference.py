"""The language reference as a page (`GET /docs`): every ludeme of the registry with its
parameters, types and documentation, grouped by the library module that defines it — what
`ludeme grammar -v` prints, made once and kept; and the same reference as data for the
editor's highlighting, completion and hover notes (`GET /api/grammar`)."""

from __future__ import annotations

import functools
import json
from html import escape
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response


@functools.lru_cache(maxsize=1)
def reference_html() -> str:
    """The reference page's HTML (no script; inline style only)."""
    import stdlib

    groups: dict[str, list[stdlib.LudemeSpec]] = {}
    for spec in stdlib.REGISTRY.values():
        groups.setdefault(spec.fn.__module__.split(".")[-1], []).append(spec)
    parts = ["<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">",
             "<title>ludeme language reference</title><style>",
             "body{font:15px/1.45 system-ui,sans-serif;max-width:60em;margin:1em auto;"
             "padding:0 1em;color:#222}code,pre{font-family:ui-monospace,monospace}"
             "pre{background:#f6f3ea;padding:.4em;white-space:pre-wrap}"
             "h2{border-bottom:1px solid #ddd;margin-top:1.5em}</style></head><body>",
             "<h1>The ludeme language</h1>",
             "<p>A game is one <code>(game \"Name\" (players ...) (board ...) (play ...) "
             "(end ...))</code> form; each ludeme below is one form, its parameters in order "
             "and <code>name:</code> for the named ones. The same text as "
             "<code>ludeme grammar -v</code> prints.</p><nav><p>",
             " · ".join(f'<a href="#{escape(m)}">{escape(m)}</a>' for m in groups),
             "</p></nav>"]
    for module, specs in groups.items():
        parts.append(f'<h2 id="{escape(module)}">{escape(module)}</h2>')
        for spec in specs:
            parts.append(f"<h3><code>{escape(spec.usage())}</code> → "
                         f"{escape(spec.returns.name)}</h3><pre>{escape(spec.doc)}</pre>")
    parts.append("</body></html>")
    return "".join(parts)


async def reference_page(request: Request) -> HTMLResponse:
    """GET /docs: the language reference."""
    return HTMLResponse(reference_html())


def _paragraphs(doc: str) -> list[str]:
    return [p.strip() for p in doc.strip().split("\n\n") if p.strip()]


def _entry(usage: str, returns: str, doc: str, keywords: list[str]) -> dict[str, Any]:
    """One ludeme (or form) as the editor shows it: its signature, what it yields, the first
    paragraph of its documentation (lines joined), its example (the last paragraph, when it is
    a form) and its `name:` parameters."""
    paragraphs = _paragraphs(doc)
    example = paragraphs[-1] if len(paragraphs) > 1 and paragraphs[-1].startswith("(") else ""
    summary = " ".join(paragraphs[0].split()) if paragraphs and paragraphs[0] != example else ""
    return {"usage": usage, "returns": returns, "summary": summary, "example": example,
            "keywords": keywords}


@functools.lru_cache(maxsize=1)
def grammar_data() -> dict[str, Any]:
    """The language as the editor needs it, from the registry: `ludemes` by name (`"place"`,
    `"sites Empty"`: signature, summary, example, keyword names), the `families` of the heads
    that take an Uppercase member (`{"sites": ["Board", "Empty", ...]}`), the `forms` a file may
    hold besides ludemes (`define`, `option`, `match`) and the language's `constants`."""
    import stdlib
    from dsl import types
    from dsl.expand import FORMS

    ludemes: dict[str, dict[str, Any]] = {}
    families: dict[str, list[str]] = {}
    for spec in stdlib.REGISTRY.values():
        ludemes[spec.name] = _entry(spec.usage(), spec.returns.name, spec.doc,
                                    list(spec.keywords))
        if spec.family is not None:
            families.setdefault(spec.head, []).append(spec.family)
    for usage, doc in FORMS:
        head = usage[1:].split()[0]
        keywords = [k.split(":")[0].lstrip("[") for k in usage.split() if ":" in k]
        ludemes.setdefault(head, _entry(usage, "", doc, list(dict.fromkeys(keywords))))
    constants: set[str] = set()
    for value in vars(types).values():
        if isinstance(value, types.DslType):
            constants |= value.constants
    return {"ludemes": ludemes, "families": {h: sorted(f) for h, f in families.items()},
            "forms": [usage[1:].split()[0] for usage, _ in FORMS],
            "constants": sorted(constants)}


@functools.lru_cache(maxsize=1)
def grammar_json() -> bytes:
    """`grammar_data` as JSON, made once."""
    return json.dumps(grammar_data(), separators=(",", ":")).encode()


async def grammar_endpoint(request: Request) -> Response:
    """GET /api/grammar: the language for the editor (see `grammar_data`)."""
    return Response(grammar_json(), media_type="application/json")
