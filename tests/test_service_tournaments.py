"""Tournaments through the service (issue 31): open, register by button, rounds opened by
themselves, results from the tables' ends, standings, podium, restart, scope, no-shows."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest

from bot.service.guard import Where
from bot.service.messages import Message
from bot.service.service import Service, User
from bot.storage import open_store
from bot.tournament import Tournament
from tests.service_helpers import (
    CHANNEL,
    SCOPE,
    Clock,
    RecordingPictures,
    button,
    errors,
    press_a_legal_tile,
    run,
    with_service,
)

HERE = Where(CHANNEL, SCOPE)
PLAYERS = [User(f"test:p{i}", f"p{i}") for i in range(1, 9)]
ORGANISER = PLAYERS[0]


async def open_swiss(service: Service, text: str = "swiss rounds=3 seats=2 classic fill=on"
                     ) -> tuple[int, Message]:
    out = await service.open_tournament(ORGANISER, CHANNEL, SCOPE, text, is_admin=True,
                                        where=HERE)
    assert not errors(out), errors(out)
    ann = out[0]
    tid = int(ann.text.split("#", 1)[1].split(":", 1)[0])
    return tid, ann


async def register_all(service: Service, ann: Message, users: list[User]) -> None:
    for u in users:
        out = await service.press(u, button(ann, "Register"), where=HERE)
        assert not errors(out), errors(out)


async def final(service: Service, tid: int) -> Tournament:
    """The tournament's state as stored, once finished."""
    row = await service.store.tournament(tid)
    assert row is not None and row.status == "finished"
    return Tournament.from_dict(json.loads(row.state)["t"])


async def round_tables(service: Service, tid: int) -> dict[int, int]:
    row = await service.store.tournament(tid)
    assert row is not None
    n = len(json.loads(row.state)["t"]["rounds"])
    return await service.store.tournament_tables(tid, n)


async def play_round(service: Service, tid: int) -> None:
    """Every player joins their table; at each, the player registered later leaves the game
    at once, without the tournament's drop (and so loses it); the other plays it to its end
    against the computer."""
    for table_id in (await round_tables(service, tid)).values():
        await play_table(service, table_id)


async def seat_all(service: Service, table_id: int) -> list[str]:
    """Every player of a tournament's table joins it (the game starts); their ids."""
    by_id = {u.id: u for u in PLAYERS}
    seated = [uid for uid, _ in service.tables[table_id].reserved.values()]
    for uid in seated:
        assert not errors(await service.join(by_id[uid], table_id, where=HERE))
    assert service.tables[table_id].row.status == "playing"
    return seated


async def play_table(service: Service, table_id: int) -> None:
    """Play a tournament's table (`play_round`'s way): the player registered later loses."""
    by_id = {u.id: u for u in PLAYERS}
    live = service.tables[table_id]
    seated = (await seat_all(service, table_id) if live.row.status == "lobby" else
              [s.user_id for s in live.row.seats if s.user_id and s.ai is None])
    loser = max(seated, key=lambda u: int(u.removeprefix("test:p")))
    # the loser leaves the game as a plain table's player would (a tournament's leaver
    # is dropped from the later rounds: tests/test_tourney_leavers.py)
    await lose_and_play_out(service, table_id, by_id[loser], by_id)


async def lose_and_play_out(service: Service, table_id: int, loser: User,
                            by_id: dict[str, User], moves: int = 2000) -> None:
    """`loser` leaves the game as a plain table's player would (the computer plays their
    seat); the others play it to its end."""
    await service.parts.lobby._leave_game(loser, service.tables[table_id])
    for _ in range(moves):
        live = service.tables.get(table_id)
        if live is None:
            break
        seat = live.game.to_move
        if live.is_ai(seat):
            await service.tick()
        else:
            await press_a_legal_tile(service, table_id, by_id[live.row.seats[seat].user_id])
    assert table_id not in service.tables


def test_a_swiss_of_eight_finishes_with_correct_standings(db_target: str | Path) -> None:
    clock = Clock()

    async def body(service: Service) -> None:
        tid, ann = await open_swiss(service)
        await register_all(service, ann, PLAYERS)
        out = await service.press(ORGANISER, button(ann, "Start"), where=HERE)
        assert not errors(out)
        assert "round 1 of 3" in out[0].text
        said: list[str] = []
        for _ in range(3):
            await play_round(service, tid)
            said += [m.text for m in await service.tick()]
        tour = await final(service, tid)
        points = sorted((s.points for s in tour.standings()), reverse=True)
        assert points == [3, 2, 2, 2, 1, 1, 1, 0]  # the earlier registered always won
        assert tour.standings()[0].entrant == "test:p1"
        assert tour.standings()[-1].entrant == "test:p8"
        last = next(s for s in said if "final standings" in s)
        assert last.splitlines()[1].startswith("1. p1: 3 points (Buchholz")
        assert any("Podium" in s and "🥇 p1" in s for s in said)

    run(with_service(db_target, body, clock=clock, default_timer=None))


def test_a_restart_between_rounds_loses_nothing(db_target: str | Path) -> None:
    """On SQLite and on PostgreSQL: a new process on the same database goes on."""
    path = db_target
    clock = Clock()
    saved: dict[str, Any] = {}

    async def first(service: Service) -> None:
        tid, ann = await open_swiss(service, "swiss rounds=2 seats=2 classic")
        await register_all(service, ann, PLAYERS[:4])
        await service.start_tournament(ORGANISER, tid, where=HERE)
        await play_round(service, tid)  # round 1 over; round 2 not opened yet
        row = await service.store.tournament(tid)
        assert row is not None
        saved.update(tid=tid, state=row.state)

    async def second(service: Service) -> None:
        tid = saved["tid"]
        row = await service.store.tournament(tid)
        assert row is not None and row.state == saved["state"]
        out = await service.tick()  # the new process goes on: standings, round 2
        assert any("standings after round 1" in m.text for m in out)
        assert any("round 2 of 2" in m.text for m in out)
        assert len(await round_tables(service, tid)) == 2

    async def third(service: Service) -> None:  # restarted with round 2's lobbies open
        tid = saved["tid"]
        assert len(await round_tables(service, tid)) == 2
        assert all(service.tables[t].reserved for t in (await round_tables(service, tid))
                   .values())
        assert not [m for m in await service.tick() if "round" in m.text]  # opened once
        await play_round(service, tid)
        out = await service.tick()
        assert any("Podium" in m.text for m in out)
        tour = await final(service, tid)
        assert [s.points for s in tour.standings()] == [2, 1, 1, 0]

    for body in (first, second, third):
        run(with_service(path, body, clock=clock, default_timer=None))


def test_commands_from_another_server_are_refused(db_target: str | Path) -> None:
    async def body(service: Service) -> None:
        tid, ann = await open_swiss(service)
        elsewhere = Where("test:other-chan", "test:other-server")
        out = await service.press(PLAYERS[1], button(ann, "Register"), where=elsewhere)
        assert errors(out) == [f"Tournament #{tid} is not run here."]
        out = await service.start_tournament(ORGANISER, tid, where=elsewhere)
        assert errors(out) == [f"Tournament #{tid} is not run here."]
        private = Where("test:dm", SCOPE, private=True)
        assert errors(await service.register(PLAYERS[1], tid, where=private))
        row = await service.store.tournament(tid)
        assert row is not None and '"entrants": []' in row.state

    run(with_service(db_target, body))


def test_who_may_organise_and_the_bounds(db_target: str | Path) -> None:
    async def body(service: Service) -> None:
        out = await service.open_tournament(PLAYERS[1], CHANNEL, SCOPE, "swiss classic",
                                            where=HERE)
        assert errors(out) == ["Only server managers can organise a tournament here."]
        assert not errors(await service.set_setting(ORGANISER, SCOPE, "tournaments",
                                                    "everyone", is_admin=True))
        out = await service.open_tournament(PLAYERS[1], CHANNEL, SCOPE, "swiss classic",
                                            where=HERE)
        assert not errors(out)
        for text, why in (("swiss rounds=0 classic", "rounds=1 to 50"),
                          ("swiss nosuchgame", "Cannot open the tournament"),
                          ("knockout seats=4 classic", "two to a table"),
                          ("swiss classic draw=nonsense", "Cannot open the tournament"),
                          ("swiss patience", "Patience is played alone: a tournament needs "
                           "a game for two or more."),
                          ("arena magic-square", "is played alone")):
            out = await service.open_tournament(ORGANISER, CHANNEL, SCOPE, text,
                                                is_admin=True, where=HERE)
            assert errors(out) and why in errors(out)[0], (text, errors(out))
        await open_swiss(service)
        await open_swiss(service)
        out = await service.open_tournament(ORGANISER, CHANNEL, SCOPE, "swiss classic",
                                            is_admin=True, where=HERE)
        assert errors(out) == ["This server already has 3 tournaments under way; wait for "
                               "one to end."]

    run(with_service(db_target, body))


def test_a_no_show_forfeits_at_the_round_clock(db_target: str | Path) -> None:
    clock = Clock()

    async def body(service: Service) -> None:
        tid, ann = await open_swiss(service, "swiss rounds=1 seats=2 classic clock=120")
        await register_all(service, ann, PLAYERS[:2])
        await service.start_tournament(ORGANISER, tid, where=HERE)
        (table_id,) = (await round_tables(service, tid)).values()
        await service.join(PLAYERS[1], table_id, where=HERE)  # p1 does not come
        clock.now += 119
        assert not await service.tick()
        clock.now += 2
        out = await service.tick()
        assert any("round clock ran out" in m.text for m in out)
        out += await service.tick()
        assert any("Podium" in m.text and "🥇 p2" in m.text for m in out)
        row = await service.store.tournament(tid)
        assert row is not None and row.status == "finished"

    run(with_service(db_target, body, clock=clock, default_timer=None))


def test_an_odd_player_meets_a_computer_where_the_organiser_allows(db_target: str | Path) -> None:
    async def body(service: Service) -> None:
        tid, ann = await open_swiss(service, "swiss rounds=1 seats=2 classic fill=on")
        await register_all(service, ann, PLAYERS[:3])
        out = await service.start_tournament(ORGANISER, tid, where=HERE)
        assert "Bye" not in out[0].text and "CPU 1" in out[0].text
        tables = [service.tables[t] for t in (await round_tables(service, tid)).values()]
        assert sorted(len(tb.computers()) for tb in tables) == [0, 1]
        tid2, ann2 = await open_swiss(service, "swiss rounds=1 seats=2 classic")
        await register_all(service, ann2, PLAYERS[:3])
        out = await service.start_tournament(ORGANISER, tid2, where=HERE)
        assert "Bye: p3" in out[0].text

    run(with_service(db_target, body))


def test_registrations_are_bounded(db_target: str | Path) -> None:
    from bot.service.limits import Limits

    async def body(service: Service) -> None:
        _, ann = await open_swiss(service)
        await register_all(service, ann, PLAYERS[:2])
        out = await service.press(PLAYERS[2], button(ann, "Register"), where=HERE)
        assert errors(out) == ["The tournament is full."]
        out = await service.press(PLAYERS[1], button(ann, "Register"), where=HERE)
        assert errors(out) == ["You are already registered."]

    run(with_service(db_target, body, limits=Limits(tournament_entrants=2)))


def test_two_processes_open_a_round_once(db_target: str | Path) -> None:
    """Two services on one database (SQLite, PostgreSQL): both see round 1 end; round 2 is
    paired and its tables opened by one of them only (the compare-and-set on the
    tournament's version)."""
    path = db_target

    async def body(service: Service) -> None:
        tid, ann = await open_swiss(service, "swiss rounds=2 seats=2 classic")
        await register_all(service, ann, PLAYERS[:4])
        await service.start_tournament(ORGANISER, tid, where=HERE)
        await play_round(service, tid)
        store = await open_store(path)
        try:
            other = Service(store, pictures=RecordingPictures(), ai_delay=0, seed=2)
            await other.start()
            # both read the tournament before either writes (as two ticks at once)
            row = await store.tournament(tid)
            assert row is not None
            first = await service.tournaments._next_round(row, 0.0)
            second = await other.tournaments._next_round(row, 0.0)
            opened = [m for m in (*first, *second) if "round 2 of 2" in m.text]
            assert len(opened) == 1
            assert len(await store.tournament_tables(tid, 2)) == 2
            assert not [m for m in (*await service.tick(), *await other.tick())
                        if "round 2" in m.text]
        finally:
            await store.close()

    run(with_service(path, body, default_timer=None))


def test_a_stale_write_of_a_tournament_is_refused(db_target: str | Path) -> None:
    async def body(service: Service) -> None:
        tid, _ = await open_swiss(service)
        row = await service.store.tournament(tid)
        assert row is not None
        assert await service.store.save_tournament(tid, row.version, "registration", "{}")
        assert not await service.store.save_tournament(tid, row.version, "running", "[]")
        again = await service.store.tournament(tid)
        assert again is not None and (again.state, again.version) == ("{}", row.version + 1)

    run(with_service(db_target, body))


def test_the_bounds_are_settings(tmp_path: Path) -> None:
    from bot.config import Settings

    s = Settings.from_env({"DOMINO_TOURNAMENTS": "5", "DOMINO_TOURNAMENT_ENTRANTS": "64"},
                          cwd=tmp_path)
    assert (s.limits.tournaments_per_scope, s.limits.tournament_entrants) == (5, 64)


def test_an_arena_pairs_again_until_its_time_is_up(db_target: str | Path) -> None:
    clock = Clock()

    async def body(service: Service) -> None:
        tid, ann = await open_swiss(service, "arena seats=2 classic minutes=1")
        await register_all(service, ann, PLAYERS[:4])
        await service.start_tournament(ORGANISER, tid, where=HERE)
        await play_round(service, tid)
        out = await service.tick()
        assert any(f"Tournament #{tid}, round 2:" in m.text for m in out)
        await play_round(service, tid)
        clock.now += 61
        out = await service.tick()
        assert any("Podium" in m.text for m in out)
        tour = await final(service, tid)
        assert len(tour.rounds) == 2 and tour.standings()[0].entrant == "test:p1"

    run(with_service(db_target, body, clock=clock, default_timer=None))


def test_a_knockout_and_a_round_robin_through_the_service(db_target: str | Path) -> None:
    async def body(service: Service) -> None:
        for text, rounds, points in (("knockout classic seats=2", 2, [2, 1, 0, 0]),
                                     ("round-robin classic seats=2", 3, [3, 2, 1, 0])):
            tid, ann = await open_swiss(service, text)
            await register_all(service, ann, PLAYERS[:4])
            await service.start_tournament(ORGANISER, tid, where=HERE)
            out: list[Message] = []
            for _ in range(rounds):
                await play_round(service, tid)
                out += await service.tick()
            assert any("Podium" in m.text and "🥇 p1" in m.text for m in out), text
            tour = await final(service, tid)
            assert [s.points for s in tour.standings()] == points, text

    run(with_service(db_target, body, default_timer=None))


def test_a_table_stopped_by_its_players_is_a_draw_at_the_round_clock(db_target: str | Path) -> None:
    clock = Clock()

    async def body(service: Service) -> None:
        tid, ann = await open_swiss(service, "swiss rounds=1 seats=2 classic clock=60")
        await register_all(service, ann, PLAYERS[:2])
        await service.start_tournament(ORGANISER, tid, where=HERE)
        (table_id,) = (await round_tables(service, tid)).values()
        for u in PLAYERS[:2]:
            await service.join(u, table_id, where=HERE)
        for u in PLAYERS[:2]:
            await service.stop(u, table_id, where=HERE)
        assert table_id not in service.tables
        clock.now += 61
        await service.tick()
        await service.tick()
        tour = await final(service, tid)
        assert [s.points for s in tour.standings()] == [0.5, 0.5]

    run(with_service(db_target, body, clock=clock, default_timer=None))


def test_a_round_is_paired_off_the_event_loop(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The pairing (the FIDE Dutch takes ~0.1 s for 64 players) runs in a worker thread, so
    that the presses of the tables under way do not wait for it."""
    threads: list[int] = []
    pair = Tournament.pair

    def spied(self: Tournament, *args: Any, **kw: Any) -> Any:
        threads.append(threading.get_ident())
        return pair(self, *args, **kw)

    monkeypatch.setattr(Tournament, "pair", spied)

    async def body(service: Service) -> None:
        loop = threading.get_ident()
        tid, ann = await open_swiss(service, "swiss rounds=2 seats=2 classic")
        await register_all(service, ann, PLAYERS[:4])
        assert not errors(await service.start_tournament(ORGANISER, tid, where=HERE))
        await play_round(service, tid)
        assert any("round 2 of 2" in m.text for m in await service.tick())
        assert len(threads) == 2 and loop not in threads

    run(with_service(tmp_path / "db.sqlite", body, default_timer=None))


def test_the_tournaments_of_a_server_are_listed(db_target: str | Path) -> None:
    """/tournament list: each tournament of this server with its game, its format and where
    it stands; none of another server's; an unknown verb is refused with the verbs."""
    clock = Clock()

    async def body(service: Service) -> None:
        empty = await service.tournament_action(ORGANISER, SCOPE, "list", where=HERE)
        assert empty[0].text.startswith("No tournament here yet.") and empty[0].to
        first, ann = await open_swiss(service, "swiss rounds=2 seats=2 classic")
        await register_all(service, ann, PLAYERS[:3])
        second, arena = await open_swiss(service, "arena muggins minutes=30 seats=2")
        await register_all(service, arena, PLAYERS[4:6])
        elsewhere = Where("test:other", "test:otherserver")
        await service.open_tournament(ORGANISER, "test:other", "test:otherserver",
                                      "knockout classic", is_admin=True, where=elsewhere)
        assert not errors(await service.start_tournament(ORGANISER, second, where=HERE))
        clock.now += 600
        out = await service.tournament_action(ORGANISER, SCOPE, "LIST", where=HERE)
        assert out[0].to == ORGANISER.id
        assert out[0].text.splitlines() == [
            "Tournaments here:",
            f"#{first}: Classic dominoes, Swiss · registration open, 3 players",
            f"#{second}: Muggins (fives), arena · under way, 20 minutes left"]
        fr = await service.tournament_action(User("test:fr", "fr", "fr"), SCOPE, "list",
                                             where=HERE)
        assert "inscriptions ouvertes, 3 joueurs" in fr[0].text
        bad = await service.tournament_action(ORGANISER, SCOPE, "dance", 1, where=HERE)
        assert errors(bad) == ["Unknown tournament command dance: join, leave, start, standings, "
                               "drop, export, cancel, list."]
        joined = await service.tournament_action(PLAYERS[3], SCOPE, "join", first, where=HERE)
        assert not errors(joined) and "(4 players)" in joined[0].text

    run(with_service(db_target, body, clock=clock))
