"""HTTP guards of the web app: a request body size limit and the security headers of every answer.

- A body over ``MAX_BODY_BYTES`` (one command's ``schemas.limits.MAX_MESSAGE_BYTES``; a team file
  sent to ``.../teams/import``: ``schemas.limits.MAX_TEAM_FILE_BYTES``) is refused
  with 413 before the app reads it: by its ``Content-Length``, or, for a chunked body, as soon as
  the bytes received pass the limit. Nothing of it is parsed, stored or published.
- Every answer carries ``Content-Security-Policy`` (scripts, styles and connections from this
  origin only; no framing), ``X-Frame-Options: DENY``, ``X-Content-Type-Options: nosniff`` and
  ``Referrer-Policy: no-referrer``. The API docs pages (``/docs``, ``/redoc``: FastAPI's pages,
  served offline, with an inline script) get a policy that allows inline scripts and styles.
"""
from __future__ import annotations

import json
from typing import Any, Awaitable, Callable

from schemas.limits import MAX_MESSAGE_BYTES, MAX_TEAM_FILE_BYTES

MAX_BODY_BYTES = MAX_MESSAGE_BYTES
FILE_PATHS = {"/teams/import": MAX_TEAM_FILE_BYTES}  # a path ending so: its body's limit


def body_limit(path: str, default: int) -> int:
    """The body limit of a request to ``path``: a team file's, or ``default``."""
    return next((limit for end, limit in FILE_PATHS.items() if path.endswith(end)), default)
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
DOCS_CSP = ("default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
            "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'")
DOCS_PATHS = ("/docs", "/redoc")

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


def security_headers(path: str) -> list[tuple[bytes, bytes]]:
    """The security headers of every answer to ``path`` (module docstring)."""
    csp = DOCS_CSP if path.startswith(DOCS_PATHS) else CSP
    return [(b"content-security-policy", csp.encode()), (b"x-frame-options", b"DENY"),
            (b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer")]


async def _refuse(send: Send, path: str, size: str, limit: int) -> None:
    body = json.dumps({"detail": f"request body of {size} bytes; at most {limit}", "field": "(body)",
                       "rule": "request body size limit", "event_id": None}).encode()
    await send({"type": "http.response.start", "status": 413, "headers": [
        (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()), *security_headers(path)]})
    await send({"type": "http.response.body", "body": body})


class Guards:
    """ASGI middleware: the body size limit and the security headers (module docstring)."""

    def __init__(self, app: Any, max_body: int = MAX_BODY_BYTES):
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope.get("path", "")
        limit = body_limit(path, self.max_body)
        length = dict(scope.get("headers", ())).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > limit):
            await _refuse(send, path, length.decode("latin-1")[:20], limit)
            return
        if length is None and scope.get("method") in ("POST", "PUT", "PATCH"):
            # A chunked body: read it here (it is small, or refused), then hand it to the app.
            chunks, received, more = [], 0, True
            while more:
                message = await receive()
                if message["type"] != "http.request":
                    return  # the client went away
                chunks.append(message.get("body", b""))
                received += len(chunks[-1])
                more = message.get("more_body", False)
                if received > limit:
                    await _refuse(send, path, f"more than {limit}", limit)
                    return
            body, original = b"".join(chunks), receive

            async def receive() -> dict[str, Any]:  # noqa: F811 - the buffered body first, then the client's events
                nonlocal body
                if body is not None:
                    message, body = {"type": "http.request", "body": body, "more_body": False}, None
                    return message
                return await original()

        async def send_with_headers(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", ()), *security_headers(path)]}
            await send(message)

        await self.app(scope, receive, send_with_headers)
