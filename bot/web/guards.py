"""The web table's guards (issue 37): what the server takes from its configuration and never
from a request (the Content-Security-Policy, the socket's Origin check), the bounds on the
sockets of one link and of one user, and a link's expiry while its socket is open.

* The policy's WebSocket sources and the hosts an `Origin` may name come from the configured
  address (`DOMINO_WEB_URL`'s host, else the listening address), never from the `Host`
  header: a forged Host cannot add directives (`;`) nor make a foreign origin look local.
  A loopback address also accepts its other loopback names at the same port (the local mode
  opened as `localhost`).
* `SocketCounts` bounds the sockets open at once with one link (`PER_LINK`) and for one user
  (`PER_USER`, whatever their links); the next is closed at once with `LIMIT_CODE` and a
  message the page shows.
* A socket's link is checked on every message and every `EXPIRY_CHECK` seconds: once it has
  expired the socket is closed with `EXPIRED_CODE` and a message the page shows.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import AsyncIterator, Callable
from urllib.parse import urlsplit

from aiohttp import WSMessage, WSMsgType, web

from .links import Grant
from .pages import TELEGRAM_JS

PER_LINK = 4  # sockets open at once with one link
PER_USER = 8  # sockets open at once for one user (any of their links)
EXPIRY_CHECK = 30.0  # seconds between two checks of an open socket's link
LIMIT_CODE = 4429  # close code: too many sockets for this link or user
EXPIRED_CODE = 4401  # close code: the link has expired
TELEGRAM_FRAMES = "https://web.telegram.org https://*.telegram.org"
HOST = re.compile(r"(?:\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::[0-9]{1,5})?")
LOOPBACK = ("127.0.0.1", "localhost", "[::1]")


def host_of(netloc: str) -> str:
    """`netloc` ("Host:port") in one spelling: lower case, without a default port (80, 443),
    "" when it is not a plain host (a user, a path, a `;`...)."""
    netloc = netloc.strip().lower()
    if not HOST.fullmatch(netloc):
        return ""
    for default in (":80", ":443"):
        if netloc.endswith(default):
            return netloc[:-len(default)]
    return netloc


def allowed_hosts(configured: str) -> frozenset[str]:
    """The hosts a socket's `Origin` may name: the configured one ("" : none), and its other
    loopback names when it is a loopback address."""
    host = host_of(configured)
    if not host:
        return frozenset()
    if host.startswith("["):  # [::1]:8080
        name, _, port = host.partition("]")
        name, port = name + "]", port[1:]
    else:
        name, _, port = host.partition(":")
    if name in LOOPBACK:
        return frozenset(f"{n}:{port}" if port else n for n in LOOPBACK)
    return frozenset({host})


def origin_ok(origin: str | None, configured: str) -> bool:
    """Whether a socket's `Origin` header names the configured address."""
    if not origin or len(origin) > 300:
        return False
    try:
        parts = urlsplit(origin)
    except ValueError:
        return False
    if parts.scheme not in ("http", "https") or parts.path not in ("", "/"):
        return False
    host = host_of(parts.netloc)
    return bool(host) and host in allowed_hosts(configured)


def policy(configured: str, miniapp: bool) -> str:
    """The Content-Security-Policy of every answer: WebSockets to 'self' and the configured
    address only (a host that is not one adds nothing)."""
    host = host_of(configured)
    sockets = f" wss://{host} ws://{host}" if host else ""
    scripts = "'self'" + (f" {TELEGRAM_JS}" if miniapp else "")
    return (f"default-src 'none'; script-src {scripts}; style-src 'self'; "
            f"img-src 'self' data:; connect-src 'self'{sockets}; "
            f"frame-ancestors 'self' {TELEGRAM_FRAMES}; base-uri 'none'; form-action 'none'")


class SocketCounts:
    """The sockets open at once per link and per user."""

    def __init__(self, per_link: int = PER_LINK, per_user: int = PER_USER) -> None:
        self.per_link = per_link
        self.per_user = per_user
        self.interval = EXPIRY_CHECK
        self._links: Counter[str] = Counter()
        self._users: Counter[str] = Counter()

    def take(self, link: str, user: str) -> str | None:
        """Count one more socket of `link` (for `user`, "" : a spectator); None when it may
        open, else which bound it passes ("link" or "user") and nothing is counted."""
        if self._links[link] >= self.per_link:
            return "link"
        if user and self._users[user] >= self.per_user:
            return "user"
        self._links[link] += 1
        if user:
            self._users[user] += 1
        return None

    def give(self, link: str, user: str) -> None:
        """One socket of `link` (taken) is closed."""
        for counts, key in ((self._links, link), (self._users, user)):
            if key and counts[key] > 0:
                counts[key] -= 1
                if not counts[key]:
                    del counts[key]


def expired(grant: Grant, clock: Callable[[], float]) -> bool:
    """Whether the link of `grant` has expired (as `Links.check` tells it)."""
    return grant.expires < clock()


async def received(ws: web.WebSocketResponse, grant: Grant, clock: Callable[[], float],
                   interval: float) -> AsyncIterator[WSMessage | None]:
    """The socket's messages, then None once the link of `grant` has expired: looked at as
    each message arrives and every `interval` seconds at most in between (the links' clock
    may not be the loop's)."""
    while True:
        if expired(grant, clock):
            yield None
            return
        try:
            msg = await ws.receive(timeout=max(0.01, min(interval, grant.expires + 1 - clock())))
        except TimeoutError:
            continue
        yield None if expired(grant, clock) else msg
        if msg.type in (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED,
                        WSMsgType.ERROR):
            return
