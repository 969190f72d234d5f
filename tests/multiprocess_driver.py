"""One bot process for the multi-process tests: a `Service` on a PostgreSQL database.

    python tests/multiprocess_driver.py URL presses FILE
        Print "ready", wait for a line on stdin (so that every process starts at once), then
        send the presses of FILE (JSON: [[user_id, data], ...] per table id) to the service,
        the tables concurrently and each table's presses in order; print a JSON summary.
    python tests/multiprocess_driver.py URL ticks SECONDS [AI_DELAY]
        start(), print "ready", wait for a line on stdin, then tick for SECONDS; print one
        JSON line per committed move ({"move": [table, turn, seat]}) as soon as it is
        committed, then the summary.

The summary: {"errors": refusals sent to users, "exceptions": [...], "said": {text: count}}.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from collections import Counter
from typing import Any

from bot.service.pictures import NoPictures
from bot.service.service import Service, User
from bot.storage import PostgresStore

SAID = ("ran out of time", "seconds left to play")


async def main(url: str, mode: str, arg: str, ai_delay: float) -> int:
    store = await PostgresStore.open(url)
    summary: dict[str, Any] = {"errors": 0, "exceptions": [], "said": Counter()}

    def committed(table_id: int, moves: list[tuple[int, int]]) -> None:
        for turn, seat in moves:  # printed once the store has committed them
            print(json.dumps({"move": [table_id, turn, seat]}), flush=True)

    store.on_moves = committed
    service = Service(store, pictures=NoPictures(), ai_delay=ai_delay, seed=1,
                      warn_before=0.5, miss_limit=1000)

    def note(messages: list[Any]) -> None:
        for m in messages:
            summary["errors"] += m.kind == "error"
            for text in SAID:
                if text in m.text:
                    summary["said"][f"{m.table}:{text}"] += 1

    try:
        if mode == "presses":
            with open(arg) as f:
                streams: dict[str, list[list[str]]] = json.load(f)
            print("ready", flush=True)
            await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)

            part = int(os.environ.get("DOMINO_TEST_PART", "0"))

            async def table(i: int, presses: list[list[str]]) -> None:
                if i % 2 != part % 2:  # each process leads at half of the tables, so that
                    await asyncio.sleep(0.05)  # neither only ever comes second
                for user_id, data in presses:
                    note(await service.press(User(user_id, user_id.split(":")[-1]), data))

            await asyncio.gather(*(table(i, p) for i, p in enumerate(streams.values())))
        else:
            note(await service.start())
            print("ready", flush=True)
            await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
            end = time.time() + float(arg)
            while time.time() < end:
                note(await service.tick())
                await asyncio.sleep(0.02)
    except Exception as exc:  # reported, and the exit status says so
        summary["exceptions"].append(repr(exc))
    finally:
        await store.close()
    print(json.dumps({"summary": summary}), flush=True)
    return 1 if summary["exceptions"] else 0


if __name__ == "__main__":
    delay = float(sys.argv[4]) if len(sys.argv) > 4 else 0.0
    sys.exit(asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3], delay)))
