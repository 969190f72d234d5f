"""What a tournament killed between rounds (SIGKILL) and restarted must show afterwards, for
the adapters' process tests (tests/test_telegram_sigkill.py, tests/test_discord_sigkill.py):
the state as stored, and the checks that nothing was lost or done twice."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bot.storage import Store
from bot.tournament import Tournament
from tests.tournament_driver import Played, recomputed

ROUND_2 = "Tournament #1, round 2 of 2:"
ONCE = ("Tournament #1, round 1 of 2:", ROUND_2, "Tournament #1: standings after round 1",
        "Tournament #1: final standings", "Tournament #1 is over.")


def stored(db: Path) -> tuple[str, dict[str, Any], dict[int, int]]:
    """The tournament's status and state, and how many tables each round has, as stored."""
    with sqlite3.connect(db) as con:
        status, state = con.execute("SELECT status, state FROM tournaments").fetchone()
        counts = dict(con.execute("SELECT round, count(*) FROM tournament_tables "
                                  "GROUP BY round").fetchall())
    return status, json.loads(state), counts


async def nothing_lost(db: Path, at_kill: dict[str, Any], sent: Callable[[str], list[str]],
                       players: Sequence[str]) -> None:
    """After the restart and the tournament's end: each announcement posted once (`sent`:
    the posted texts that begin so), round 1 as it was at the kill, round 2 the same
    pairing, no table opened twice, the standings those of the stored games, every player
    (`players`: their ids) placed."""
    for head in ONCE:
        assert len(sent(head)) == 1, (head, sent(head))
    status, final, counts = stored(db)
    assert status == "finished" and counts == {1: 2, 2: 2}
    assert final["t"]["rounds"][0] == at_kill["t"]["rounds"][0]
    assert [t["sides"] for t in final["t"]["rounds"][1]["tables"]] == [
        t["sides"] for t in at_kill["t"]["rounds"][1]["tables"]]  # the same pairing
    with sqlite3.connect(db) as con:
        (tables,) = con.execute("SELECT count(*) FROM tables").fetchone()
    assert tables == 4  # no table opened twice
    store = await Store.open(db)
    try:
        tour = Tournament.from_dict(final["t"])
        linked = {n: await store.tournament_tables(1, n) for n in (1, 2)}
        row = await store.tournament(1)
        assert row is not None
        mine = await recomputed(store, Played(1, row, tour, linked))
        rows = tour.standings()
        assert {s.entrant: s.points for s in rows} == {e: v["points"] for e, v in mine.items()}
        assert sum(s.points for s in rows) == 4 and all(s.games == 2 for s in rows)
        places = [await store.tournament_places(p) for p in players]
        assert sorted(p[0].place for p in places) == [1, 2, 3, 4]
    finally:
        await store.close()
