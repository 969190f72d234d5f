"""The table and the platform a log line is about, set once where work on one table begins
(an adapter's press, the web page's message, the tick's work on one table) and read by the
JSON log formatter (bot/logformat.py), so that no log call has to pass them.

Context variables: an asyncio task starts with a copy of its creator's, so a task made for one
table's work names that table, and a task that outlives the work it was made in (a chat's
write queue, the database's listener) must be made with `detached()`: it names no table
unless it sets one for each piece of its own work.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Awaitable, Coroutine, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

T = TypeVar("T")

TABLE: contextvars.ContextVar[int | None] = contextvars.ContextVar("domino_log_table",
                                                                  default=None)
PLATFORM: contextvars.ContextVar[str | None] = contextvars.ContextVar("domino_log_platform",
                                                                     default=None)


@contextmanager
def table_context(table: int | None, platform: str | None = None) -> Iterator[None]:
    """Log lines written inside are about `table` (None: about no table) and, when given,
    come from `platform` ("telegram", "discord", "web", "console")."""
    table_token = TABLE.set(table if isinstance(table, int) else None)
    platform_token = PLATFORM.set(platform) if platform is not None else None
    try:
        yield
    finally:
        TABLE.reset(table_token)
        if platform_token is not None:
            PLATFORM.reset(platform_token)


async def within(table: int | None, platform: str | None, work: Awaitable[T]) -> T:
    """`await work` with its log lines about `table` (and `platform`)."""
    with table_context(table, platform):
        return await work


def table_of(data: Any) -> int | None:
    """The table a button's data names, or None when the data is malformed."""
    from .service.messages import parse_action  # (the storage imports this module too)

    try:
        return parse_action(data)[0]
    except ValueError:
        return None


def platform_of(channel: str) -> str | None:
    """The platform a table's channel belongs to (its prefix: "telegram:-100..."), or None."""
    return channel.split(":", 1)[0] or None if ":" in channel else None


def current() -> tuple[int | None, str | None]:
    """(table, platform) of the work under way."""
    return TABLE.get(), PLATFORM.get()


def detached(coroutine: Coroutine[Any, Any, Any], name: str | None = None) -> Any:
    """A task for `coroutine` that names no table nor platform, whoever creates it (with no
    running loop: RuntimeError, the coroutine closed)."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        coroutine.close()
        raise
    context = contextvars.copy_context()
    context.run(TABLE.set, None)
    context.run(PLATFORM.set, None)
    return loop.create_task(coroutine, name=name, context=context)
