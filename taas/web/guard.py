"""What keeps one client from knocking the web table over, and the page from being framed.

:class:`Limits` holds the operator's numbers; :func:`guard` wraps the app in one small ASGI
middleware that, before the app sees a request, refuses

- a body over ``max_body`` bytes (``max_replay`` for ``POST /api/replays``): 413,
- JSON nested deeper than ``max_depth`` (a parser would recurse on it): 400,
- more than ``burst`` requests in a row from one client faster than ``rate`` a second: 429,

and adds the security headers to every answer (:class:`Guard`). A middleware rather than
slowapi: the limit is one token bucket per client address, a few lines with no dependency, and
the same middleware has to buffer and measure the body, which a rate limiter does not do.
"""

from __future__ import annotations

import json
import re
import threading
import time
from dataclasses import dataclass

SECURITY_HEADERS = {
    "content-security-policy": (
        "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
        "form-action 'self'; frame-ancestors 'none'"
    ),
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
}
_TOKENS = re.compile(rb'"(?:[^"\\]|\\.)*"|[\[\]{}]')


@dataclass(frozen=True)
class Limits:
    """The web table's limits (the defaults suit a table on the open internet)."""

    max_body: int = 1_000_000  # bytes of a request body
    max_replay: int = 4_000_000  # bytes of an uploaded replay file
    max_depth: int = 32  # nesting of JSON arrays and objects
    rate: float = 20.0  # requests a second per client, sustained
    burst: int = 200  # requests in a row per client
    games_per_client: int = 20
    max_games: int = 2000
    idle_expiry: float = 6 * 3600.0  # seconds without a move before a game is deleted
    workers: int = 2  # agent moves thinking at once
    queue: int = 16  # agent moves waiting for a worker (more: 503)

    def __post_init__(self):
        for name in ("max_body", "max_replay", "max_depth", "burst", "games_per_client",
                     "max_games", "workers"):
            if getattr(self, name) < 1:
                raise ValueError(f"limit {name}={getattr(self, name)}: expected 1 or more")
        if self.rate <= 0 or self.idle_expiry <= 0 or self.queue < 0:
            raise ValueError("limits rate and idle_expiry must be > 0, queue >= 0")


def too_deep(body: bytes, limit: int) -> bool:
    """Whether the JSON text ``body`` nests arrays/objects deeper than ``limit`` (strings
    skipped; malformed text is the parser's to refuse)."""
    depth = 0
    for m in _TOKENS.finditer(body):
        c = m.group()
        if c in (b"[", b"{"):
            depth += 1
            if depth > limit:
                return True
        elif c in (b"]", b"}"):
            depth -= 1
    return False


class _Buckets:
    """A token bucket per client: ``rate`` tokens a second, at most ``burst`` saved."""

    def __init__(self, rate: float, burst: int):
        self.rate, self.burst = rate, burst
        self._level: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def take(self, client: str) -> bool:
        now = time.monotonic()
        with self._lock:
            level, then = self._level.get(client, (self.burst, now))
            level = min(self.burst, level + (now - then) * self.rate)
            if len(self._level) > 10_000:  # forget clients that are full again
                self._level = {c: v for c, v in self._level.items()
                               if v[0] + (now - v[1]) * self.rate < self.burst}
            ok = level >= 1
            self._level[client] = (level - ok, now)
            return ok


def client_of(scope) -> str:
    """The client's address (the rate limit's and the game cap's notion of one client)."""
    return (scope.get("client") or ("unknown",))[0]


class Guard:
    """ASGI middleware: ``app`` behind ``limits`` and with the security headers
    (``fastapi_app.add_middleware(Guard, limits=...)``)."""

    def __init__(self, app, limits: Limits):
        self.app, self.limits = app, limits
        self.buckets = _Buckets(limits.rate, limits.burst)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        limits = self.limits
        if not self.buckets.take(client_of(scope)):
            return await _refuse(send, 429, f"too many requests: at most {limits.rate:g} a "
                                 "second from one client", [(b"retry-after", b"1")])
        cap = limits.max_replay if scope["path"] == "/api/replays" else limits.max_body
        declared = dict(scope["headers"]).get(b"content-length", b"0")
        if declared.isdigit() and int(declared) > cap:
            return await _refuse(send, 413, f"request body over {cap} bytes")
        body, more = b"", True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return None
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > cap:
                return await _refuse(send, 413, f"request body over {cap} bytes")
        if too_deep(body, limits.max_depth):
            return await _refuse(send, 400, f"JSON nested deeper than {limits.max_depth} levels")
        sent = False

        async def replay():
            nonlocal sent
            if sent:
                return await receive()  # a disconnect, when the app listens for one
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        async def with_headers(message):
            if message["type"] == "http.response.start":
                names = {k.lower() for k, _ in message.get("headers", [])}
                extra = [(k.encode(), v.encode()) for k, v in SECURITY_HEADERS.items()
                         if k.encode() not in names]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        return await self.app(scope, replay, with_headers)


async def _refuse(send, status: int, detail: str, headers=()) -> None:
    body = json.dumps({"detail": detail}).encode()
    head = [(b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()), *headers]
    head += [(k.encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]
    await send({"type": "http.response.start", "status": status, "headers": head})
    await send({"type": "http.response.body", "body": body})
