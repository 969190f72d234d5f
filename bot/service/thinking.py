"""Computer moves, hints and reviews worked out in worker threads, off the event loop.

A computer that searches (the `hard` and `expert` levels) takes up to a second a move; run on
the event loop, it would hold every other table up.  The work runs here, in a small pool of
threads, on a copy of the game (the live game may change meanwhile: the caller checks the
turn before using the answer), while the loop goes on answering presses at other tables.
Reviews (many searches in a row) have their own threads, so that they never keep a
computer's move waiting.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from core.moves import Move

    from .tables import Table

WORKERS = {"move": 4, "review": 2}  # threads for moves and hints, and for reviews
R = TypeVar("R")
_pools: dict[str, ThreadPoolExecutor] = {}


def pool(kind: str = "move") -> ThreadPoolExecutor:
    """The threads that think, of one kind (made at first use)."""
    found = _pools.get(kind)
    if found is None:
        found = _pools[kind] = ThreadPoolExecutor(max_workers=WORKERS[kind],
                                                  thread_name_prefix=f"domino-{kind}")
    return found


async def off_loop(work: Callable[..., R], *args: Any, kind: str = "move") -> R:
    """`work(*args)` in a worker thread of `kind` ("move": computer moves and hints,
    "review"); the event loop goes on meanwhile."""
    return await asyncio.get_running_loop().run_in_executor(pool(kind), work, *args)


async def choose(table: Table, seat: int) -> Move:
    """The move of the computer player of `seat` (`Table.bot`), chosen on a copy of the game
    in a worker thread."""
    return await off_loop(table.bot(seat).choose, table.game.copy())
