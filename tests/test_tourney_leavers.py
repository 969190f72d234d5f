"""Tournaments (issue 31): a player who leaves a tournament game under way is dropped from
the later rounds; the places of finished tournaments reach the player's page."""

from __future__ import annotations

import json
from pathlib import Path

from bot.service.guard import Where
from bot.service.service import Service
from bot.storage import TournamentPlace
from bot.tournament import Tournament
from tests.service_helpers import CHANNEL, Clock, errors, run, with_service
from tests.test_service_tournaments import (
    HERE,
    ORGANISER,
    PLAYERS,
    open_swiss,
    play_round,
    register_all,
    round_tables,
)


async def stored(service: Service, tid: int) -> Tournament:
    row = await service.store.tournament(tid)
    assert row is not None
    return Tournament.from_dict(json.loads(row.state)["t"])


def test_a_player_who_leaves_a_tournament_game_is_dropped(db_target: str | Path) -> None:
    async def body(service: Service) -> None:
        tid, ann = await open_swiss(service, "swiss rounds=2 seats=2 classic")
        await register_all(service, ann, PLAYERS[:4])
        await service.start_tournament(ORGANISER, tid, where=HERE)
        table_id = min((await round_tables(service, tid)).values())
        table = service.tables[table_id]
        by_id = {u.id: u for u in PLAYERS}
        seated = [by_id[uid] for uid, _ in table.reserved.values()]
        for u in seated:
            assert not errors(await service.join(u, table_id, where=HERE))
        leaver = seated[-1]
        out = await service.leave(leaver, table_id, where=HERE)
        assert not errors(out)
        assert any(f"{leaver.name} left their game and is dropped from tournament #{tid}"
                   in m.text for m in out), [m.text for m in out]
        tour = await stored(service, tid)
        assert tour.entrants[leaver.id].dropped is not None
        assert leaver.id not in tour.active()
        others = [u for u in PLAYERS[:4] if u != leaver]
        assert all(tour.entrants[u.id].dropped is None for u in others)

    run(with_service(db_target, body, clock=Clock(), default_timer=None))


def test_the_places_of_a_finished_tournament_reach_the_players_page(db_target: str | Path) -> None:
    async def body(service: Service) -> None:
        assert await service.store.tournament_places(PLAYERS[0].id) == []
        tid, ann = await open_swiss(service, "swiss rounds=1 seats=2 classic")
        await register_all(service, ann, PLAYERS[:2])
        await service.start_tournament(ORGANISER, tid, where=HERE)
        await play_round(service, tid)
        assert await service.store.tournament_places(PLAYERS[0].id) == []  # not over yet
        out = await service.tick()
        assert any("Podium" in m.text for m in out)
        assert await service.store.tournament_places(PLAYERS[0].id) == [
            TournamentPlace(tid, 1, 2)]
        assert await service.store.tournament_places(PLAYERS[1].id) == [
            TournamentPlace(tid, 2, 2)]
        assert not await service.tick()  # stored once
        page = (await service.stats(PLAYERS[1], CHANNEL, where=HERE))[0].text
        assert "1 tournament played, best place: 2" in page, page
        lines = (await service.history(PLAYERS[1], CHANNEL, where=HERE))[0].text.splitlines()
        assert f"Tournament #{tid} · Classic dominoes · place 2 of 2" in lines, lines

    run(with_service(db_target, body, clock=Clock(), default_timer=None))


def test_a_tournament_is_exported_as_json(db_target: str | Path) -> None:
    async def body(service: Service) -> None:
        tid, ann = await open_swiss(service, "swiss rounds=1 seats=2 classic")
        await register_all(service, ann, PLAYERS[:2])
        await service.start_tournament(ORGANISER, tid, where=HERE)
        await play_round(service, tid)
        await service.tick()
        (msg,) = await service.export_tournament(PLAYERS[1], tid, where=HERE)
        assert msg.file is not None and msg.file[0] == f"tournament-{tid}.json"
        assert msg.to == PLAYERS[1].id
        record = json.loads(msg.file[1])
        assert (record["tournament"], record["status"], record["game"]) == (
            tid, "finished", "classic")
        assert [(s["rank"], s["name"]) for s in record["standings"]] == [(1, "p1"), (2, "p2")]
        (table,) = record["rounds"][0]["tables"]
        assert table["table_id"] in (await round_tables(service, tid)).values()
        elsewhere = Where("test:other-chan", "test:other-server")
        out = await service.export_tournament(PLAYERS[1], tid, where=elsewhere)
        assert errors(out) == [f"Tournament #{tid} is not run here."]
        assert errors(await service.export_tournament(PLAYERS[1], 999, where=HERE)) == [
            "There is no tournament #999."]

    run(with_service(db_target, body, clock=Clock(), default_timer=None))
