"""The issue's 64-player Swiss (issue 31): 6 rounds at 4 a table, filled by computer players
and played through the service on a SQLite file (tests/tournament_driver.py, which the
benchmark bench/tournament_service.py runs too), ends with the standings recomputed here
from the stored games; each round's 16 tables open in one go, announced once."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.storage import Store
from tests.tournament_driver import checks, play_swiss


def test_a_64_player_swiss_of_6_rounds_at_4_a_table(tmp_path: Path) -> None:
    async def main() -> dict[str, object]:
        store = await Store.open(tmp_path / "swiss.sqlite")
        try:
            played = await play_swiss(store, players=64, rounds=6, seats=4)
            assert len(played.tour.rounds) == 6
            assert all(len(tables) == 16 for tables in played.tables.values())
            return await checks(store, played, players=64, rounds=6, seats=4)
        finally:
            await store.close()

    found = asyncio.run(main())
    assert found == {key: True for key in found if key != "repeat pairings"} | {
        "repeat pairings": 0}, found
