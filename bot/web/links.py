"""Signed links: a compact url-safe token naming a table, a user ("" for a spectator) and an
expiry, signed with HMAC-SHA256 under the link key.

A token is ``<payload>.<signature>``: the payload is the url-safe base64 of
``"<table>|<expiry>|<user>"``, the signature the first 16 bytes of HMAC-SHA256(key, payload
text), url-safe base64.  Both are compared as text, so a token changed by any one character
(a padding bit of the base64 included) is refused.  A token is a capability: it is never
logged.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

MAX_TOKEN = 400  # characters: a longer token is refused before any work
MAX_USER = 120
SIGNATURE = 22  # characters of a token's signature (16 bytes, url-safe base64)


@dataclass(frozen=True, slots=True)
class Grant:
    """What a valid token allows: to watch `table`, as `user` ("" : a spectator)."""

    table: int
    user: str
    expires: int

    @property
    def spectator(self) -> bool:
        return not self.user


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Links:
    """Makes and checks signed tokens, and the URLs that carry them."""

    def __init__(self, secret: str | bytes | None, base_url: str, ttl: int = 86_400,
                 clock: Callable[[], float] = time.time) -> None:
        if not secret:
            secret = secrets.token_bytes(32)  # links die at restart (docs/web.md)
        self._key = secret.encode() if isinstance(secret, str) else secret
        self.base_url = base_url.rstrip("/")
        self.ttl = ttl
        self.clock = clock
        self.telegram_app = ""  # the Mini App's short name (BotFather), for startapp links

    def __repr__(self) -> str:  # never the key
        return f"Links({self.base_url!r}, ttl={self.ttl})"

    def _sign(self, payload: str) -> str:
        return _b64(hmac.new(self._key, payload.encode("ascii"), hashlib.sha256).digest()[:16])

    def token(self, table: int, user: str = "", ttl: int | None = None) -> str:
        """A token for `user` (or a spectator) at `table`, valid `ttl` seconds."""
        if not 0 <= table < 2**63 or len(user) > MAX_USER or "|" in user:
            raise ValueError("bad table or user for a link")
        expires = int(self.clock()) + (self.ttl if ttl is None else ttl)
        payload = _b64(f"{table}|{expires}|{user}".encode())
        return f"{payload}.{self._sign(payload)}"

    def check(self, token: str) -> Grant | None:
        """The grant of a valid, unexpired token; None for anything else."""
        if not isinstance(token, str) or not 0 < len(token) <= MAX_TOKEN or token.count(".") != 1:
            return None
        payload, signature = token.split(".")
        try:
            good = hmac.compare_digest(self._sign(payload), signature)
        except (UnicodeEncodeError, TypeError):
            return None
        if not good:
            return None
        try:
            table_text, expires_text, user = _unb64(payload).decode().split("|", 2)
            table, expires = int(table_text), int(expires_text)
        except (ValueError, binascii.Error, UnicodeDecodeError):
            return None
        if expires < self.clock():
            return None
        return Grant(table, user, expires)

    @staticmethod
    def compact(token: str) -> str:
        """The token in Telegram's `startapp` alphabet (A-Z a-z 0-9 _ -): without its dot
        (the signature is always SIGNATURE characters long)."""
        return token.replace(".", "")

    def check_compact(self, text: str) -> Grant | None:
        """`check` of a `compact` token."""
        if not isinstance(text, str) or len(text) <= SIGNATURE:
            return None
        return self.check(f"{text[:-SIGNATURE]}.{text[-SIGNATURE:]}")

    def game_path(self, table: int) -> str:
        """The path of a finished game's page: the table and a signature of it, so that a
        game is shown only to whom its link was given (a table number alone can be guessed).
        It does not expire: a finished game does not change."""
        return f"/g/{table}.{self._sign(f'game|{table}')}"

    def check_game(self, text: str) -> int | None:
        """The table of a game page's ``<table>.<signature>``; None when not signed here."""
        if not isinstance(text, str) or len(text) > 60 or text.count(".") != 1:
            return None
        table_text, signature = text.split(".")
        if not table_text.isascii() or not table_text.isdigit() or table_text != str(
                int(table_text)) or int(table_text) >= 2**63:
            return None
        try:
            good = hmac.compare_digest(self._sign(f"game|{table_text}"), signature)
        except (UnicodeEncodeError, TypeError):
            return None
        return int(table_text) if good else None

    def url(self, table: int, user: str = "") -> str:
        """The table page's link for `user` (a spectator's when "")."""
        return f"{self.base_url}/t/{self.token(table, user)}"


# The links of each running service (set by the app when the web table runs), for the
# adapters' /web commands and "Web" buttons.
_published: dict[int, tuple[object, Links]] = {}


def publish(service: object, links: Links | None) -> None:
    """Make `links` the web links of `service` (None: the web table is off)."""
    if links is None:
        _published.pop(id(service), None)
    else:
        _published[id(service)] = (service, links)


def links_of(service: object) -> Links | None:
    """The web links of `service`, or None when its web table does not run."""
    entry = _published.get(id(service))
    return entry[1] if entry is not None and entry[0] is service else None
