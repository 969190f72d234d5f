"""The bot's logging: stderr at DOMINO_LOG level, as text or JSON lines (DOMINO_LOG_FORMAT),
with every secret removed from every record whoever wrote it (tokens, link signatures, launch
data, OAuth2 codes and access tokens), and the libraries that log call parameters held at INFO.
"""

from __future__ import annotations

import logging
import re
import sys
from typing import Any, TextIO
from urllib.parse import unquote

from .config import Settings

# Libraries that log call parameters (a player's hand sent to a private chat) or raw events
# (a Discord interaction's token) at debug level: never below INFO, whatever DOMINO_LOG says.
LIBRARY_LOGGERS = ("telegram", "discord", "httpx", "httpcore", "aiohttp", "websockets",
                   "hpack")
HIDDEN = (
    (re.compile(r"(/(?:interactions|webhooks)/\d+/)[^/\s?'\"]+"), r"\1[token]"),
    (re.compile(r"""(['"](?:token|init_data|start_param|hash|signature|access_token"""
                r"""|refresh_token|client_secret|code)['"]\s*:\s*['"])"""
                r"""[^'"]+"""), r"\1[token]"),
    # web links: a table's (/t/TOKEN) and a finished game's (/g/TABLE.SIGNATURE), whatever
    # follows up to the end of the path (a malformed request line is logged as it came)
    (re.compile(r"(/[tg]/)[^\s/?#'\"<>]+"), r"\1[token]"),
    (re.compile(r"(\b(?:token|init_data|tgWebAppData|startapp|start_param|tgWebAppStartParam"
                r"|hash|signature|access_token|refresh_token|client_secret|code)=)[^&\s'\"]+"),
     r"\1[token]"),
    (re.compile(r"(\b(?:Bearer|Bot) )[^\s'\"]+"), r"\1[token]"),  # Authorization headers
    # anything shaped as a link token or a game's signature, wherever it is
    (re.compile(r"(?<![A-Za-z0-9_-])(?:\d+|[A-Za-z0-9_-]{8,})\.[A-Za-z0-9_-]{22}"
                r"(?![A-Za-z0-9_-])"), "[token]"),
)
# a word holding percent-escapes, read as the server reads it (a link's dot written %2E)
ESCAPED = re.compile(r"\S*%[0-9A-Fa-f]{2}\S*")


class Redact(logging.Filter):
    """Replaces the tokens in every log record (libraries log request URLs, and a Telegram
    URL holds the token)."""

    def __init__(self, secrets: list[str]) -> None:
        super().__init__()
        self.secrets = [s for s in secrets if s]

    def filter(self, record: logging.LogRecord) -> bool:
        """Clean the record; never raises (a malformed call in a library is logged as its
        template and the types of its arguments, not raised into the caller)."""
        try:
            try:
                text = record.getMessage()
            except Exception:
                kinds = ", ".join(type(a).__name__ for a in _args(record.args))
                text = f"{record.msg!s} (bad log arguments: {kinds})"
            record.msg, record.args = self.clean(text), None
            if record.exc_info and not record.exc_text:
                record.exc_text = logging.Formatter().formatException(record.exc_info)
            if record.exc_text:
                record.exc_text = self.clean(record.exc_text)
        except Exception:
            record.msg, record.args, record.exc_info, record.exc_text = (
                "(a log record that could not be cleaned was dropped)", None, None, None)
        return True

    def clean(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, "[token]")
        text = _hidden(text)
        # then as the server reads it: a link written with escapes (its dot as %2E)
        return _hidden(ESCAPED.sub(_unescaped, text)) if ESCAPED.search(text) else text


def _hidden(text: str) -> str:
    for pattern, replacement in HIDDEN:  # tokens in URLs, payloads and request lines
        text = pattern.sub(replacement, text)
    return text


def _unescaped(word: re.Match[str]) -> str:
    """A word's percent-escapes decoded (three times at most: an escape of an escape)."""
    text = word[0]
    for _ in range(3):
        decoded = unquote(text)
        if decoded == text:
            break
        text = decoded
    return text


def _args(args: Any) -> tuple[Any, ...]:
    if args is None:
        return ()
    return args if isinstance(args, tuple) else (args,)


def setup_logging(settings: Settings, stream: TextIO | None = None) -> None:
    """Log to stderr at DOMINO_LOG level, as text or JSON lines (DOMINO_LOG_FORMAT), with the
    tokens redacted from every record."""
    handler = logging.StreamHandler(stream or sys.stderr)
    web = settings.web
    activity = web.activity if web is not None else None
    redact = Redact([settings.discord_token or "", settings.telegram_token or "",
                     web.secret or "" if web else "",
                     activity.secret if activity is not None else ""])
    if settings.log_format == "json":  # one JSON object per line (bot/logformat.py)
        from .logformat import JsonFormatter

        handler.setFormatter(JsonFormatter(redact.clean))
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: "
                                               "%(message)s"))
    handler.addFilter(redact)
    root = logging.getLogger()
    for old in root.handlers[:]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(settings.log_level.upper())
    logging.getLogger("aiosqlite").setLevel(logging.WARNING)  # one line per SQL call
    for name in LIBRARY_LOGGERS:
        library = logging.getLogger(name)
        if library.getEffectiveLevel() < logging.INFO:
            library.setLevel(logging.INFO)
