"""DOMINO_LOG_FORMAT=json: one JSON object per log line, for a log collector.

Each line has ``time`` (UTC, ISO 8601), ``level``, ``logger``, ``table``, ``platform`` and
``message`` (and ``exc``, the traceback, when there is one). ``table`` and ``platform`` come
from the record when a call passes them (``extra={"table": 12, "platform": "telegram"})``),
else from the work under way (bot/logcontext.py: set where a press, a web page's message or
the tick's work on one table begins); the platform, else, is the prefix of the channel of the
command under way (the service's ``ORIGIN``); otherwise null: never guessed. The record
has already passed the handler's `Redact` filter (bot/app.py), so the message and the
traceback are scrubbed as in the text log; every text field is passed through the same
cleaning once more (the fields, not the line: the cleaning decodes percent-escapes, which
must not break the JSON).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from .logcontext import current

FORMATS = ("text", "json")


def _origin_platform() -> str | None:
    """The platform of the command under way, if the service is handling one."""
    from .service.origin import ORIGIN

    where = ORIGIN.get()
    if where is None or ":" not in where.channel:
        return None
    return where.channel.split(":", 1)[0]


class JsonFormatter(logging.Formatter):
    """One JSON object per record; `clean` (the Redact filter's) is applied to each text."""

    def __init__(self, clean: Callable[[str], str] = lambda text: text) -> None:
        super().__init__()
        self.clean = clean

    def format(self, record: logging.LogRecord) -> str:
        table = getattr(record, "table", None)
        platform = getattr(record, "platform", None)
        if table is None or platform is None:
            here_table, here_platform = current()
            table = here_table if table is None else table
            platform = platform or here_platform or _origin_platform()
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(
                timespec="milliseconds").replace("+00:00", "Z"),
            "level": record.levelname,
            "logger": record.name,
            "table": table if isinstance(table, int) and not isinstance(table, bool) else None,
            "platform": self.clean(platform) if isinstance(platform, str) else None,
            "message": self.clean(record.getMessage()),
        }
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            line["exc"] = self.clean(record.exc_text)
        if record.stack_info:
            line["stack"] = self.clean(self.formatStack(record.stack_info))
        return json.dumps(line, ensure_ascii=False, default=str)
