"""Turn pings on several processes (issue 31): a player's choice made through one process
is honoured by another serving the same PostgreSQL database, both ways (within
PINGS_FRESH seconds: the choice is read again from the store, as the tables are)."""

from __future__ import annotations

from bot.service.messages import Message
from bot.service.pictures import NoPictures
from bot.service.service import Service
from bot.service.state import PINGS_FRESH
from bot.storage import PostgresStore
from tests.service_helpers import ALICE, BOB, Clock, press_a_legal_tile, run, started_table


def _bob_turn(messages: list[Message]) -> Message:
    return next(m for m in messages if m.kind == "turn" and m.mention == (BOB.id,))


def test_a_pings_choice_made_on_one_process_is_seen_by_the_other(pg_url: str) -> None:
    clock = Clock()

    async def main() -> None:
        stores = [await PostgresStore.open(pg_url) for _ in range(2)]
        try:
            one, two = (Service(s, pictures=NoPictures(), ai_delay=0, seed=1, clock=clock)
                        for s in stores)
            for service in (one, two):
                await service.start()
            tid = await started_table(one, ALICE, (BOB,), "players=2")
            game = one.tables[tid].game
            assert game is not None
            if one.tables[tid].row.seats[game.to_move].user_id == BOB.id:
                await press_a_legal_tile(one, tid, BOB)  # alice to move (draw: no pass)
            await one.set_pings(BOB, "off")  # through process one
            clock.now += PINGS_FRESH
            turn = _bob_turn(await press_a_legal_tile(two, tid, ALICE))  # process two
            assert turn.quiet == (BOB.id,), "process two honours bob's pings off"
            await press_a_legal_tile(two, tid, BOB)
            await one.set_pings(BOB, "on")
            clock.now += PINGS_FRESH
            turn = _bob_turn(await press_a_legal_tile(two, tid, ALICE))
            assert turn.quiet == (), "and bob's pings on again"
        finally:
            for s in stores:
                await s.close()

    run(main())
