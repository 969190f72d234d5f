"""Seats and tables: leaving a game under way and coming back, taking back a seat a
computer took after timeouts, the rematch lobby each player confirms, the table a command
without a number means, and the language of new tables."""

from __future__ import annotations

import io
from pathlib import Path

from bot.console.chat import ConsoleChat
from bot.service.service import Service
from tests.service_helpers import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    SCOPE,
    Clock,
    errors,
    play_to_the_end,
    run,
    started_table,
    table_id,
    with_service,
)


def test_a_player_leaves_a_game_and_comes_back_at_the_next_turn(tmp_path: Path) -> None:
    async def body(service: Service) -> None:
        tid = await started_table(service, ALICE, (BOB,))
        table = service.tables[tid]
        left = await service.leave(BOB, tid)
        assert not errors(left) and "bob left the game" in left[0].text
        assert table.row.seats[1].ai == "greedy" and table.row.seats[1].user_id == BOB.id
        assert table.game.to_move != 1 or table.game.over  # the computer played bob's turn
        back = await service.join(BOB, tid)
        assert not errors(back) and "bob is back" in back[0].text
        assert table.row.seats[1].ai is None
        assert (await service.store.get_table(tid)).seats[1].ai is None
    run(with_service(tmp_path / "db.sqlite", body))


def test_who_left_loses_the_rated_game(tmp_path: Path) -> None:
    async def body(service: Service) -> None:
        tid = await started_table(service, ALICE, (BOB,))
        await service.leave(ALICE, tid)  # the computer plays alice's seat to the end
        await play_to_the_end(service, tid, {1: BOB})
        assert tid not in service.tables
        row = (await service.store.history(ALICE.id, 1))[0]
        assert row.table_id == tid and not row.won and row.rank == 2  # last of two seats
        assert (await service.store.history(BOB.id, 1))[0].rank == 1
    run(with_service(tmp_path / "db.sqlite", body))


def test_a_seat_taken_after_timeouts_is_taken_back_by_joining(tmp_path: Path) -> None:
    clock = Clock()

    async def body(service: Service) -> None:
        tid = await started_table(service, ALICE, (BOB,), options="players=2 timer=60")
        table = service.tables[tid]
        for _ in range(10):
            if any(s.ai is not None for s in table.row.seats):
                break
            clock.now += 61
            await service.tick()
        away = [s for s in table.row.seats if s.ai is not None and s.user_id]
        assert away, "a computer took a seat after missed turns"
        user = ALICE if away[0].user_id == ALICE.id else BOB
        back = await service.join(user, tid)
        assert not errors(back) and table.row.seats[away[0].seat].ai is None
    run(with_service(tmp_path / "db.sqlite", body, clock=clock, miss_limit=1))


def test_rematch_opens_a_lobby_each_player_confirms(tmp_path: Path) -> None:
    async def body(service: Service) -> None:
        tid = table_id(await service.open_table(ALICE, CHANNEL, SCOPE, "classic",
                                                options="players=3 ai=1"))
        await service.join(BOB, tid)
        await service.begin(ALICE, tid)
        await play_to_the_end(service, tid, {0: ALICE, 1: BOB})
        again = await service.rematch(BOB, tid)
        new = table_id(again)
        table = service.tables[new]
        assert table.row.status == "lobby"  # not started without asking
        assert "alice (to confirm: join)" in again[-1].text
        assert [(s.user_id, s.ai) for s in table.row.seats] == [
            (None, None), (BOB.id, None), (None, "greedy")]  # the computer seat stays
        assert "full" in errors(await service.join(CAROL, new))[0]  # kept for alice
        started = await service.join(ALICE, new)  # alice confirms: everyone is in
        assert table.row.status == "playing" and not errors(started)
        assert [s.user_id for s in table.row.seats][:2] == [ALICE.id, BOB.id]
    run(with_service(tmp_path / "db.sqlite", body))


def test_a_command_without_a_table_goes_where_the_player_is_to_move(tmp_path: Path) -> None:
    async def body(service: Service) -> None:
        first = await started_table(service, ALICE, (BOB,))
        second = await started_table(service, ALICE, (CAROL,))
        g1, g2 = service.tables[first].game, service.tables[second].game
        seat1, seat2 = service.tables[first].seat_of(ALICE.id), service.tables[second].seat_of(
            ALICE.id)
        found = await service.find_table(CHANNEL, ALICE.id, "play")
        if (g1.to_move == seat1) != (g2.to_move == seat2):
            assert found == (first if g1.to_move == seat1 else second)
        if g1.to_move == seat1 and g2.to_move == seat2:  # a move that fits only one table
            only = [str(m) for m in g1.legal_moves() if m not in g2.legal_moves()]
            if only:
                assert await service.find_table(CHANNEL, ALICE.id, "play",
                                                move=only[0]) == first
    for seed in range(1, 6):
        run(with_service(tmp_path / f"db{seed}.sqlite", body, seed=seed))


def test_move_typed_for_the_older_table_goes_there(tmp_path: Path) -> None:
    async def body(service: Service) -> None:
        for _ in range(20):  # two tables where alice leads, with different opening tiles
            first = await started_table(service, ALICE, (BOB,))
            second = await started_table(service, ALICE, (CAROL,))
            g1, g2 = service.tables[first].game, service.tables[second].game
            if g1.to_move == 0 and g2.to_move == 0 and g1.legal_moves() != g2.legal_moves():
                move = str(g1.legal_moves()[0])
                assert await service.find_table(CHANNEL, ALICE.id, "play", move=move) == first
                return
            for tid in (first, second):  # within the open tables a user may have
                await service.stop(ALICE, tid)
        raise AssertionError("no pair of tables to try")
    run(with_service(tmp_path / "db.sqlite", body))


def test_domino_lang_applies_to_new_tables_on_an_existing_database(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite"

    async def english(service: Service) -> None:
        await started_table(service, ALICE, (BOB,))

    async def french(service: Service) -> None:
        opened = await service.open_table(ALICE, CHANNEL, SCOPE, "classic", options="players=2")
        assert service.tables[table_id(opened)].row.lang == "fr"
        assert "Open seat" not in opened[0].text

    run(with_service(path, english))
    run(with_service(path, french, default_lang="fr"))


def test_the_console_changes_language_and_settings(tmp_path: Path) -> None:
    async def body(service: Service) -> None:
        out = io.StringIO()
        chat = ConsoleChat(service, out, None)
        await chat.handle("/lang fr")
        await chat.handle("/start classic players=2")
        assert "Place libre" in out.getvalue() or "En attente" in out.getvalue()
        await chat.handle("/settings timer=30")
        assert await service.store.get_setting("console", "timer") == "30"
    run(with_service(tmp_path / "db.sqlite", body))


def test_join_and_leave_without_a_number_find_the_game_under_way(tmp_path: Path) -> None:
    async def body(service: Service) -> None:
        tid = await started_table(service, ALICE, (BOB,))
        assert await service.find_table(CHANNEL, BOB.id, "leave") == tid
        assert await service.find_table(CHANNEL, BOB.id, "join") is None  # he is seated
        await service.leave(BOB, tid)
        assert await service.find_table(CHANNEL, BOB.id, "join") == tid  # to come back
        assert await service.find_table(CHANNEL, CAROL.id, "join") is None
    run(with_service(tmp_path / "db.sqlite", body))
