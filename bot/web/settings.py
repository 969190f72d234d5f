"""The web table's settings (DOMINO_WEB, DOMINO_WEB_URL, DOMINO_WEB_SECRET, DOMINO_WEB_TTL,
DOMINO_WEB_AUTH_AGE), read by bot/config.py.

DOMINO_WEB is "off" or the address to listen on, ``host:port`` (port 0: a free port, which
the console prints).  Unset, the web table runs only with the console chat (no token), on
127.0.0.1 and a free port.  DOMINO_WEB_URL is the public base of links (the https address a
reverse proxy serves, docs/web.md); by default ``http://`` + the listening address.
DOMINO_WEB_SECRET keys the signed links: without it a random key is made at each start, so
links die when the bot restarts.  DOMINO_WEB_TELEGRAM_APP is the Mini App's short name given
to BotFather (/newapp): the table message's "Web" button in a Telegram group is then its
``startapp`` link, else the spectators' link.

The Discord Activity (bot/web/activity.py, docs/discord.md) runs when DISCORD_CLIENT_ID and
DISCORD_CLIENT_SECRET (the application's OAuth2 client id and secret) are both set;
DISCORD_API_URL is another base for Discord's API (tests: a fake on 127.0.0.1).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import urlsplit

OFF = ("off", "no", "none", "0", "false")
CONSOLE_ADDRESS = "127.0.0.1:0"


DISCORD_API = "https://discord.com/api/v10"


class WebSettingError(ValueError):
    """A web setting with a bad value (the message names it)."""


@dataclass(frozen=True)
class Activity:
    """The Discord Activity's application: its client id and secret, and Discord's API."""

    client_id: str
    secret: str = field(repr=False)
    api_url: str = DISCORD_API


@dataclass(frozen=True)
class Web:
    """Where the web table listens, its public base URL and its link key."""

    host: str = "127.0.0.1"
    port: int = 0
    url: str = ""  # public base, no trailing slash ("" -> from the listening address)
    secret: str | None = field(default=None, repr=False)
    ttl: int = 86_400  # seconds a personal or public link lives
    auth_age: int = 86_400  # seconds Telegram launch data stays acceptable
    telegram_app: str = ""  # the Mini App's short name at BotFather (startapp links)
    activity: Activity | None = None  # the Discord Activity (bot/web/activity.py)

    @property
    def https(self) -> bool:
        """Whether the public base is https (Telegram's Mini App buttons need it)."""
        return self.url.startswith("https://")


def web_from(get: Callable[[str], str], console: bool) -> Web | None:
    """The web settings, or None when the web table does not run (DOMINO_WEB=off, or unset
    with a chat platform to run).  `console`: no platform token is set."""
    address = get("DOMINO_WEB")
    if address.lower() in OFF or (not address and not console):
        return None
    address = address or CONSOLE_ADDRESS
    host, sep, port_text = address.rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not (port_text.isascii() and port_text.isdigit()
                                   and int(port_text) <= 65_535):
        raise WebSettingError(f"DOMINO_WEB must be off or host:port (e.g. 127.0.0.1:8080), "
                              f"got {address[:40]!r}")
    url = get("DOMINO_WEB_URL").rstrip("/")
    if url:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise WebSettingError(f"DOMINO_WEB_URL must be an http(s):// address, "
                                  f"got {url[:60]!r}")
    secret = get("DOMINO_WEB_SECRET") or None
    if secret is not None and len(secret) < 16:
        raise WebSettingError("DOMINO_WEB_SECRET must be at least 16 characters long")
    app = get("DOMINO_WEB_TELEGRAM_APP")
    if app and not re.fullmatch(r"[A-Za-z0-9_]{3,30}", app):
        raise WebSettingError(f"DOMINO_WEB_TELEGRAM_APP must be the Mini App's short name "
                              f"(3 to 30 letters, digits or _), got {app[:40]!r}")
    return Web(host=host, port=int(port_text), url=url, secret=secret, telegram_app=app,
               activity=activity_from(get),
               ttl=_seconds(get, "DOMINO_WEB_TTL", 86_400),
               auth_age=_seconds(get, "DOMINO_WEB_AUTH_AGE", 86_400))


def activity_from(get: Callable[[str], str]) -> Activity | None:
    """The Discord Activity's settings, or None when its client id and secret are not both
    set."""
    client_id, secret = get("DISCORD_CLIENT_ID"), get("DISCORD_CLIENT_SECRET")
    if not client_id and not secret:
        return None
    if not (client_id.isascii() and client_id.isdigit() and len(client_id) <= 20):
        raise WebSettingError(f"DISCORD_CLIENT_ID must be the application's id (digits), "
                              f"got {client_id[:30]!r}")
    if not secret:
        raise WebSettingError("DISCORD_CLIENT_SECRET must be set with DISCORD_CLIENT_ID")
    api = (get("DISCORD_API_URL") or DISCORD_API).rstrip("/")
    if urlsplit(api).scheme not in ("http", "https") or not urlsplit(api).hostname:
        raise WebSettingError(f"DISCORD_API_URL must be an http(s):// address, "
                              f"got {api[:60]!r}")
    return Activity(client_id, secret, api)


def _seconds(get: Callable[[str], str], name: str, default: int) -> int:
    text = get(name) or str(default)
    if not (text.isascii() and text.isdigit() and 60 <= int(text) <= 10**8):
        raise WebSettingError(f"{name} must be a number of seconds from 60 to 100000000, "
                              f"got {text[:30]!r}")
    return int(text)
