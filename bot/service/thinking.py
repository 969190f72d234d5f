"""Computer moves, hints and reviews worked out in worker threads, off the event loop.

A computer that searches (the `hard` and `expert` levels) takes up to a second a move; run on
the event loop, it would hold every other table up.  The work runs here, in a small pool of
threads, on a copy of the game (the live game may change meanwhile: the caller checks the
turn before using the answer), while the loop goes on answering presses at other tables.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from core.moves import Move

    from .tables import Table

WORKERS = 4
R = TypeVar("R")
_pool: ThreadPoolExecutor | None = None


def pool() -> ThreadPoolExecutor:
    """The threads that think (made at first use)."""
    global _pool
    if _pool is None:
        _pool = ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="domino-think")
    return _pool


async def off_loop(work: Callable[..., R], *args: Any) -> R:
    """`work(*args)` in a worker thread; the event loop goes on meanwhile."""
    return await asyncio.get_running_loop().run_in_executor(pool(), work, *args)


async def choose(table: Table, seat: int) -> Move:
    """The move of the computer player of `seat` (`Table.bot`), chosen on a copy of the game
    in a worker thread."""
    return await off_loop(table.bot(seat).choose, table.game.copy())
