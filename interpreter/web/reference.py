"""The language reference as a page (`GET /docs`): every ludeme of the registry with its
parameters, types and documentation, grouped by the library module that defines it — what
`ludeme grammar -v` prints, made once and kept."""

from __future__ import annotations

import functools
from html import escape

from starlette.requests import Request
from starlette.responses import HTMLResponse


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
