"""Same origin only: the API's state-changing requests (every POST) are served only when they
come from the playground's own page.

Another site's page can make a browser send a form or a "simple" request to this server, but
not one with a header of its own choosing (that needs the server's consent, which is never
given: there is no CORS here). So a POST must carry `X-Ludeme: 1`, which the page's script
sends and no form can; and, as a second line, when the browser says where a request comes from
(`Origin`, `Sec-Fetch-Site`), that must be this server itself.
"""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Receive, Scope, Send

HEADER = "x-ludeme"


def refusal(scope: Scope) -> str | None:
    """Why a request must be refused as not coming from the page (None: it may be served)."""
    if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
        return None
    headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
    site = headers.get("sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        return f"a request from another site ({site}) is refused"
    origin = headers.get("origin")
    if origin is not None:
        host = headers.get("host", "")
        if origin not in (f"http://{host}", f"https://{host}"):
            return f"a request from another origin ({origin[:100]}) is refused"
    if headers.get(HEADER) != "1":
        return "only the playground's page may call this (the X-Ludeme header is missing)"
    return None


class SameOrigin:
    """Answers 403 with `{"error": why}` to a state-changing request not from the page."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        why = refusal(scope)
        if why is None:
            await self.app(scope, receive, send)
            return
        body = json.dumps({"error": why}).encode()
        await send({"type": "http.response.start", "status": 403,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
