"""The settings of a bot run as several processes: which Discord shards this process runs
(DISCORD_SHARDS, DISCORD_SHARD_IDS) and Telegram's webhook (TELEGRAM_WEBHOOK_URL,
TELEGRAM_LISTEN, TELEGRAM_PORT, TELEGRAM_WEBHOOK_SECRET). See docs/deploy.md.

| variable | meaning | default |
|---|---|---|
| DISCORD_SHARDS | the total number of Discord shards (every process gives the same) | unset: one |
| DISCORD_SHARD_IDS | the shards this process runs: "0,1" or "0-3" | all of them |
| TELEGRAM_WEBHOOK_URL | the public https URL Telegram posts updates to; unset: polling | unset |
| TELEGRAM_LISTEN | the address the webhook server listens on | 0.0.0.0 |
| TELEGRAM_PORT | its port | 8443 |
| TELEGRAM_WEBHOOK_SECRET | the secret Telegram sends with each update (A-Z a-z 0-9 _ -) | unset |
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import urlsplit

SECRET = re.compile(r"[A-Za-z0-9_-]{1,256}")


class ScalingError(ValueError):
    """A bad scaling setting: the message names the variable and what is allowed."""


@dataclass(frozen=True)
class Shards:
    """The Discord shards of this process: `count` in all, `ids` here (None: all)."""

    count: int
    ids: tuple[int, ...] | None = None

    def client_options(self) -> dict[str, object]:
        options: dict[str, object] = {"shard_count": self.count}
        if self.ids is not None:
            options["shard_ids"] = list(self.ids)
        return options


@dataclass(frozen=True)
class Webhook:
    """PTB's webhook server: Telegram posts to `url`; this process listens on listen:port."""

    url: str
    listen: str = "0.0.0.0"
    port: int = 8443
    secret: str | None = field(default=None, repr=False)

    @property
    def path(self) -> str:
        """The path part of the URL, which the local server answers on."""
        return urlsplit(self.url).path.lstrip("/")


def shards_from(get: Callable[[str], str]) -> Shards | None:
    count_text, ids_text = get("DISCORD_SHARDS"), get("DISCORD_SHARD_IDS")
    if not count_text:
        if ids_text:
            raise ScalingError("DISCORD_SHARD_IDS needs DISCORD_SHARDS (the total number of "
                               "shards)")
        return None
    if not count_text.isdigit() or not 1 <= int(count_text) <= 100_000:
        raise ScalingError(f"DISCORD_SHARDS must be a whole number of shards from 1, got "
                           f"{count_text[:30]!r}")
    count = int(count_text)
    if not ids_text:
        return Shards(count)
    ids: list[int] = []
    for part in ids_text.replace(" ", "").split(","):
        low, dash, high = part.partition("-")
        if not low.isdigit() or (dash and not high.isdigit()):
            raise ScalingError(f"DISCORD_SHARD_IDS must be shard numbers like 0,1 or 0-3, got "
                               f"{ids_text[:30]!r}")
        ids += range(int(low), int(high if dash else low) + 1)
    if not ids or any(i >= count for i in ids):
        raise ScalingError(f"DISCORD_SHARD_IDS must be shard numbers from 0 to {count - 1}, "
                           f"got {ids_text[:30]!r}")
    return Shards(count, tuple(sorted(set(ids))))


def webhook_from(get: Callable[[str], str]) -> Webhook | None:
    url = get("TELEGRAM_WEBHOOK_URL")
    if not url:
        return None
    parts = urlsplit(url)
    if parts.scheme not in ("https", "http") or not parts.hostname:
        raise ScalingError(f"TELEGRAM_WEBHOOK_URL must be an https:// URL, got {url[:60]!r}")
    port_text = get("TELEGRAM_PORT") or "8443"
    if not port_text.isdigit() or not 1 <= int(port_text) <= 65_535:
        raise ScalingError(f"TELEGRAM_PORT must be a port number, got {port_text[:30]!r}")
    secret = get("TELEGRAM_WEBHOOK_SECRET") or None
    if secret is not None and not SECRET.fullmatch(secret):
        raise ScalingError("TELEGRAM_WEBHOOK_SECRET may hold only A-Z, a-z, 0-9, _ and - "
                           "(1 to 256 characters)")
    return Webhook(url, get("TELEGRAM_LISTEN") or "0.0.0.0", int(port_text), secret)
