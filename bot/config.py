"""Settings from the environment (a `.env` file in the working folder is read too).

| variable | meaning | default |
|---|---|---|
| DOMINO_DB | the SQLite file | domino.sqlite (working folder) |
| DOMINO_LANG | default language of the bot's text (en, fr) | en |
| DOMINO_AI_DELAY | seconds before a computer seat plays | 1.0 |
| DOMINO_PICTURES | folder where the console writes pictures; "off" for none | domino-pictures |
| DOMINO_LOG | log level (debug, info, warning, error) | warning |
| DOMINO_LOG_FORMAT | text, or json: one JSON object per line (bot/logformat.py) | text |
| DOMINO_METRICS | Prometheus' /metrics: off, or host:port to listen on (bot/metrics.py) | off |
| DOMINO_CONSOLE | with no token: on (console chat), tty (only on a terminal), off | on |
| DISCORD_TOKEN | runs the Discord adapter when set | unset |
| TELEGRAM_TOKEN | runs the Telegram adapter when set | unset |
| TELEGRAM_API_URL | another Bot API server (e.g. a local one) | Telegram's |
| DOMINO_MAX_NAME | characters of a player's name shown | 32 |
| DOMINO_TABLES_PER_USER | lobbies and games a user hosts at once (0: no limit) | 10 |
| DOMINO_TABLES_PER_CHANNEL | lobbies and games of one channel at once (0: no limit) | 25 |
| DOMINO_SOLO_TABLES | games a user plays against computers only at once (0: no limit) | 3 |
| DOMINO_LOBBY_TTL | seconds a lobby waits unchanged before it closes (0: never) | 3600 |
| DOMINO_SOLO_TTL | seconds a one-human game with no timer waits for a move (0: never) | 604800 |
| DOMINO_PICTURE_WORKERS | threads drawing pictures off the event loop (0: in the loop) | 2 |
| DOMINO_WATCH | seconds a channel counts as watched after a human acted there | 600 |
| DOMINO_TOURNAMENTS | tournaments registering or running in one server at once (0: no limit) | 3 |
| DOMINO_TOURNAMENT_ENTRANTS | players registered in one tournament (0: no limit) | 256 |
| DOMINO_TOURNAMENT_REGISTRATION_TTL | seconds a registration with no start time lasts | 86400 |
| DOMINO_WEB | the web table: off, or host:port to listen on (docs/web.md) | console: 127.0.0.1:0 |
| DOMINO_WEB_URL | the public base of web links (https behind a proxy) | http://DOMINO_WEB |
| DOMINO_WEB_SECRET | the key of signed web links (16+ characters) | random at each start |
| DOMINO_WEB_TTL | seconds a web link lives | 86400 |
| DOMINO_WEB_AUTH_AGE | seconds a Telegram Mini App launch stays valid | 86400 |
| DOMINO_WEB_TELEGRAM_APP | the Mini App's short name at BotFather (startapp links) | unset |
| DISCORD_CLIENT_ID | the Discord Activity's application id (docs/discord.md) | unset |
| DISCORD_CLIENT_SECRET | its OAuth2 client secret (with the id: the Activity runs) | unset |
| DISCORD_API_URL | another base for Discord's API (tests) | Discord's |

DOMINO_DB may be a ``postgresql://`` URL (several processes on one database, docs/deploy.md);
the settings of several processes (Discord shards, Telegram's webhook) are in bot/scaling.py.

The environment wins over the `.env` file. Tokens are kept out of `repr()` and are never
logged or printed.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .scaling import ScalingError, Shards, Webhook, shards_from, webhook_from
from .service.limits import Limits
from .web.settings import Web, WebSettingError, web_from

LANGS = ("en", "fr")
LOG_LEVELS = ("debug", "info", "warning", "error")
CONSOLE_MODES = ("on", "tty", "off")
LOG_FORMATS = ("text", "json")


class ConfigError(ValueError):
    """A setting with a bad value: the message names the variable and what is allowed."""


def read_dotenv(path: Path) -> dict[str, str]:
    """KEY=VALUE lines of a .env file (blank lines, comments and `export ` prefixes allowed)."""
    values: dict[str, str] = {}
    if not path.is_file():
        return values
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.removeprefix("export ").partition("=")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[key.strip()] = value
    return values


@dataclass(frozen=True)
class Settings:
    """Everything the bot reads from its environment."""

    database: Path | str = Path("domino.sqlite")  # a file, or a postgresql:// URL
    pictures: Path | None = Path("domino-pictures")
    lang: str = "en"
    ai_delay: float = 1.0
    log_level: str = "warning"
    discord_token: str | None = field(default=None, repr=False)
    telegram_token: str | None = field(default=None, repr=False)
    telegram_api_url: str | None = None
    discord_test_guild: int | None = None
    console: str = "on"  # DOMINO_CONSOLE: when the console chat runs without a token
    limits: Limits = field(default_factory=Limits)
    discord_shards: Shards | None = None  # bot/scaling.py
    telegram_webhook: Webhook | None = None
    web: Web | None = None  # the web table (bot/web/settings.py)
    log_format: str = "text"  # DOMINO_LOG_FORMAT
    metrics: tuple[str, int] | None = None  # DOMINO_METRICS: where /metrics listens

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, cwd: Path | None = None) -> Settings:
        """Settings from `env` (default: os.environ) over the `.env` file of `cwd`."""
        folder = cwd or Path.cwd()
        merged = {**read_dotenv(folder / ".env"), **(os.environ if env is None else env)}

        def get(name: str, default: str = "") -> str:
            return (merged.get(name) or default).strip()

        lang = get("DOMINO_LANG", "en").lower()
        if lang not in LANGS:
            raise ConfigError(f"DOMINO_LANG must be one of {', '.join(LANGS)}, got {lang!r}")
        delay_text = get("DOMINO_AI_DELAY", "1.0")
        try:
            delay = float(delay_text)
        except ValueError:
            delay = -1.0
        if not 0 <= delay <= 3600:
            raise ConfigError(f"DOMINO_AI_DELAY must be a number of seconds from 0 to 3600, "
                              f"got {delay_text!r}")
        level = get("DOMINO_LOG", "warning").lower()
        if level not in LOG_LEVELS:
            raise ConfigError(f"DOMINO_LOG must be one of {', '.join(LOG_LEVELS)}, got {level!r}")
        log_format = get("DOMINO_LOG_FORMAT", "text").lower()
        if log_format not in LOG_FORMATS:
            raise ConfigError(f"DOMINO_LOG_FORMAT must be one of {', '.join(LOG_FORMATS)}, "
                              f"got {log_format[:30]!r}")
        console = get("DOMINO_CONSOLE", "on").lower()
        if console not in CONSOLE_MODES:
            raise ConfigError(f"DOMINO_CONSOLE must be one of {', '.join(CONSOLE_MODES)}, "
                              f"got {console[:30]!r}")
        pictures = get("DOMINO_PICTURES", "domino-pictures")
        guild = get("DISCORD_TEST_GUILD")
        if guild and not (guild.isascii() and guild.isdigit() and len(guild) <= 20):
            raise ConfigError(f"DISCORD_TEST_GUILD must be a Discord server id (digits), "
                              f"got {guild[:30]!r}")
        defaults = Limits()

        def count(name: str, default: float, hi: int) -> int:
            """A setting that is a whole number from 0 to `hi`, in ASCII digits."""
            text = get(name, str(int(default)))
            if not (text.isascii() and text.isdigit() and len(text) <= 9 and int(text) <= hi):
                raise ConfigError(f"{name} must be a whole number from 0 to {hi}, "
                                  f"got {text[:30]!r}")
            return int(text)

        limits = Limits(name=max(1, count("DOMINO_MAX_NAME", defaults.name, 200)),
                        tables_per_user=count("DOMINO_TABLES_PER_USER",
                                              defaults.tables_per_user, 100_000),
                        tables_per_channel=count("DOMINO_TABLES_PER_CHANNEL",
                                                 defaults.tables_per_channel, 100_000),
                        solo_tables_per_user=count("DOMINO_SOLO_TABLES",
                                                   defaults.solo_tables_per_user, 100_000),
                        lobby_ttl=count("DOMINO_LOBBY_TTL", defaults.lobby_ttl, 10**7),
                        solo_ttl=count("DOMINO_SOLO_TTL", defaults.solo_ttl, 10**9),
                        picture_workers=count("DOMINO_PICTURE_WORKERS",
                                              defaults.picture_workers, 64),
                        watch=count("DOMINO_WATCH", defaults.watch, 10**7),
                        tournaments_per_scope=count("DOMINO_TOURNAMENTS",
                                                    defaults.tournaments_per_scope, 10_000),
                        tournament_entrants=count("DOMINO_TOURNAMENT_ENTRANTS",
                                                  defaults.tournament_entrants, 1024),
                        tournament_registration_ttl=count(
                            "DOMINO_TOURNAMENT_REGISTRATION_TTL",
                            defaults.tournament_registration_ttl, 10**8))
        return cls(
            limits=limits,
            database=database_setting(folder, get("DOMINO_DB", "domino.sqlite")),
            pictures=None if pictures.lower() in ("off", "none", "no") else folder / pictures,
            lang=lang,
            ai_delay=delay,
            log_level=level,
            log_format=log_format,
            metrics=metrics_setting(get("DOMINO_METRICS", "off")),
            discord_token=get("DISCORD_TOKEN") or None,
            telegram_token=get("TELEGRAM_TOKEN") or None,
            telegram_api_url=get("TELEGRAM_API_URL") or None,
            discord_test_guild=int(guild) if guild else None,
            console=console,
            web=_web(get, console=not (get("DISCORD_TOKEN") or get("TELEGRAM_TOKEN"))),
            **_scaling(get),
        )

    @property
    def platforms(self) -> list[str]:
        """The chat platforms to run (those with a token), in start order."""
        return [name for name, token in (("discord", self.discord_token),
                                         ("telegram", self.telegram_token)) if token]

    def console_refused(self, stdin_is_tty: bool) -> bool:
        """True when no platform has a token and DOMINO_CONSOLE does not let the console run."""
        if self.platforms:
            return False
        return self.console == "off" or (self.console == "tty" and not stdin_is_tty)


def database_setting(folder: Path, value: str) -> Path | str:
    """DOMINO_DB: a ``postgresql://`` URL as it is; a file path (``sqlite:`` before it or not)
    relative to `folder`."""
    if value.startswith(("postgresql://", "postgres://")):
        return value
    return folder / value.removeprefix("sqlite:")


def metrics_setting(value: str) -> tuple[str, int] | None:
    """DOMINO_METRICS: "off" (or unset), else HOST:PORT ([::1]:9100 for IPv6; port 0 picks a
    free one)."""
    if value.lower() in ("", "off", "no", "none"):
        return None
    host, sep, port = value.rpartition(":")
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if not (sep and host and port.isascii() and port.isdigit() and int(port) <= 65535):
        raise ConfigError(f"DOMINO_METRICS must be off or HOST:PORT (e.g. 127.0.0.1:9100), "
                          f"got {value[:60]!r}")
    return host, int(port)


def _scaling(get: Any) -> dict[str, Any]:
    """The Discord shards and Telegram webhook settings (bot/scaling.py)."""
    try:
        return {"discord_shards": shards_from(get), "telegram_webhook": webhook_from(get)}
    except ScalingError as exc:
        raise ConfigError(str(exc)) from None


def _web(get: Any, console: bool) -> Web | None:
    try:
        return web_from(get, console)
    except WebSettingError as exc:
        raise ConfigError(str(exc)) from None
