"""Issue 26: the holes an independent fuzz found, each closed at its depth.

A press's table number is read once, strictly (`bot/service/numbers.py`: ASCII digits, no
padding, in range), and every call a press makes is checked against the press's origin; a
game over at its deal is finished; a table stays in memory when a failed write is followed by
a failed read; a restart counts a lobby's idle time from its last change; a helper's hint goes
to the helper; the service's memory of users and of abandoned solo games is bounded.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.service.assist import HINT
from bot.service.guard import ORIGIN, Where
from bot.service.limits import Limits, Recent
from bot.service.messages import parse_action
from bot.service.pictures import NoPictures
from bot.service.service import Service, User
from bot.storage import Store
from tests.service_helpers import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    SCOPE,
    Clock,
    errors,
    hand_message,
    open_classic,
    run,
    started_table,
    table_id,
    with_service,
)
from tests.test_guard import dump

HERE = Where(CHANNEL, SCOPE)
THERE = Where("test:other-chan", "test:other-server")

ARABIC = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")
FULLWIDTH = str.maketrans("0123456789", "０１２３４５６７８９")


def forged(n: int) -> list[str]:
    """Ways of writing the number `n` that are not its one spelling."""
    text = str(n)
    return [text.translate(ARABIC), text.translate(FULLWIDTH), "0" + text, "0" * 19 + text,
            "0" * 25 + text, "+" + text, text + " 0", "²" if n == 2 else text + "²"]


@pytest.mark.parametrize("data", ["١:0:j", "00000000000000000001:0:j", "01:0:j", "1:00:j",
                                  "1:٠:j", "99999999999999999999:0:e:6-4", "1:-0:j",
                                  "1:0", ":0:j", "1::j"])
def test_a_press_reads_its_numbers_one_way(data: str) -> None:
    with pytest.raises(ValueError):
        parse_action(data)


def test_forged_numbers_in_a_press_from_another_server_touch_nothing(tmp_path: Path) -> None:
    """A stranger in another server wrote the lobby's number in Unicode digits or padded with
    zeros: the press was not checked against its origin, and joined the lobby."""
    db = tmp_path / "db.sqlite"

    async def body(service: Service) -> None:
        lobby = await open_classic(service, "players=3")
        game = await started_table(service, ALICE, (CAROL,))
        for tid in (lobby, game):
            turn = service.tables[tid].game.turn if service.tables[tid].game else 0
            before = dump(db)
            for number in forged(tid):
                for verb in ("j", "l", "a", "r", "s", "h", "q", "m", "d", "x", "p:6-6", "e:6-6"):
                    for data in (f"{number}:{turn}:{verb}", f"{tid}:{'0' + str(turn)}:{verb}"):
                        for where in (THERE, HERE):
                            out = await service.press(BOB, data, where=where)
                            assert errors(out), (data, where)
                            assert not [m for m in out if m.to is None], data
            assert dump(db) == before
            assert BOB.id not in [s.user_id for s in service.tables[tid].row.seats]
    run(with_service(db, body))


def test_a_huge_number_through_the_choose_an_end_path_is_refused_politely(
        tmp_path: Path) -> None:
    async def body(service: Service) -> None:
        tid = await started_table(service, ALICE, (BOB,))
        for data in ("99999999999999999999:0:e:6-4", f"{tid}:99999999999999999999:e:6-4",
                     f"{2**63}:0:e:6-4", f"{tid}:{2**63}:p:6-4"):
            out = await service.press(ALICE, data, where=HERE)
            assert errors(out) == ["This button is not valid any more."], data
    run(with_service(tmp_path / "db.sqlite", body))


def test_a_call_made_under_a_press_is_checked_against_the_press_origin(tmp_path: Path) -> None:
    """Whatever path a press takes inside the service, the methods it calls see its origin."""
    async def body(service: Service) -> None:
        lobby = await open_classic(service, "players=3")
        token = ORIGIN.set(THERE)  # as if a press from elsewhere had reached `join` directly
        try:
            out = await service.join(CAROL, lobby)
        finally:
            ORIGIN.reset(token)
        assert errors(out) == [f"Table #{lobby} is not played here."]
        assert CAROL.id not in [s.user_id for s in service.tables[lobby].row.seats]
        assert not errors(await service.join(CAROL, lobby))  # no origin: an internal call
    run(with_service(tmp_path / "db.sqlite", body))


def test_a_patience_over_at_its_deal_is_finished(tmp_path: Path) -> None:
    """A deal with no pair totalling 12 (table seed of service seed 13) is over at once."""
    async def body(service: Service) -> None:
        out = await service.open_table(ALICE, CHANNEL, SCOPE, "patience", where=HERE)
        tid = table_id(out)
        assert not errors(out)
        assert tid not in service.tables  # finished: not kept as a game under way
        row = await service.store.get_table(tid)
        assert row.status == "finished" and row.result is not None
        assert await service.store.game_record(tid) is not None
        assert any(m.kind in ("table", "result") and m.to is None for m in out)
        out = await service.play(ALICE, tid, "pass", where=HERE)
        assert errors(out) == [f"Game #{tid} is over."]
        for _ in range(3):  # the finished table does not count against the solo tables
            assert not errors(await service.open_table(ALICE, CHANNEL, SCOPE, "classic",
                                                       options="ai=1", where=HERE))
    run(with_service(tmp_path / "db.sqlite", body, seed=13))


def test_a_failed_write_then_a_failed_read_keeps_the_table(tmp_path: Path,
                                                           monkeypatch: Any) -> None:
    async def body(service: Service) -> None:
        tid = await started_table(service, ALICE, (BOB,))
        table = service.tables[tid]
        turn = table.game.turn
        user = (ALICE, BOB)[table.game.to_move]
        move = str(table.game.legal_moves()[0])
        store = service.store

        async def broken(*args: Any, **kwargs: Any) -> Any:
            raise sqlite3.OperationalError("disk I/O error")

        with monkeypatch.context() as patch:
            for name in ("append_move", "moves", "get_table", "finish_game"):
                patch.setattr(store, name, broken)
            out = await service.play(user, tid, move, where=HERE)
        assert errors(out) in (["The bot cannot save right now; your move was not played."],
                               ["Le bot ne peut pas enregistrer pour l'instant ; votre coup "
                                "n'a pas été joué."])
        assert tid in service.tables and service.tables[tid].game.turn == turn
        assert len(await store.moves(tid)) == turn
        out = await service.play(user, tid, move, where=HERE)  # the disk is back
        assert not errors(out)
        assert len(await store.moves(tid)) == turn + 1
    run(with_service(tmp_path / "db.sqlite", body))


def test_a_lobby_kept_open_by_activity_survives_a_restart(tmp_path: Path) -> None:
    clock = Clock()
    db = tmp_path / "db.sqlite"

    async def body(service: Service) -> int:
        tid = await open_classic(service, "players=3")
        clock.now += 3000
        assert not errors(await service.join(BOB, tid, where=HERE))  # the wait starts again
        return tid

    tid = run(with_service(db, body, clock=clock))
    clock.now += 1000  # 4000 s after its creation, 1000 s after its last change

    async def restart(service: Service) -> None:
        assert tid in service.tables
        assert (await service.store.get_table(tid)).status == "lobby"
        clock.now += 2000
        assert not await service.tick()
        clock.now += 700  # an hour after the last change: closed, with its message
        out = await service.tick()
        assert [m.table for m in out] == [tid]
    run(with_service(db, restart, clock=clock))


def test_a_hint_asked_by_a_helper_goes_to_the_helper(tmp_path: Path) -> None:
    async def body(service: Service) -> None:
        out = await service.open_table(ALICE, CHANNEL, SCOPE, "patience",
                                       options="helpers=on hints=on", where=HERE)
        tid = table_id(out)
        game = service.tables[tid].game
        assert not game.over
        out = await service.press(CAROL, f"{tid}:{game.turn}:{HINT}", where=HERE)
        assert not errors(out)
        hints = [m for m in out if m.text.startswith("Hint")]
        assert hints and all(m.to == CAROL.id for m in hints)
    run(with_service(tmp_path / "db.sqlite", body))


def test_the_languages_kept_in_memory_are_bounded() -> None:
    langs: Recent[str, str] = Recent(3)
    for i in range(10):
        langs[f"user{i}"] = "fr"
    assert list(langs) == ["user7", "user8", "user9"]
    langs["user8"] = "en"  # written again: the latest
    langs.setdefault("user10", "fr")
    assert list(langs) == ["user9", "user8", "user10"]


def test_the_service_remembers_a_bounded_number_of_users(tmp_path: Path) -> None:
    async def body(service: Service) -> None:
        service._langs.size = 50
        for i in range(200):
            await service.rules(User(f"test:u{i}", f"u{i}", "fr"), "classic", where=HERE)
        assert len(service._langs) == 50 and "test:u199" in service._langs
    run(with_service(tmp_path / "db.sqlite", body))


def test_an_abandoned_solo_game_closes_after_a_week_even_across_a_restart(
        tmp_path: Path) -> None:
    clock = Clock()
    db = tmp_path / "db.sqlite"
    week = Limits().solo_ttl

    async def body(service: Service) -> tuple[int, int]:
        solo = table_id(await service.open_table(ALICE, CHANNEL, SCOPE, "reussite",
                                                 options="puzzle=frame", where=HERE))
        two = await started_table(service, ALICE, (BOB,), options="players=2")
        service.tables[two].row.deadline = None  # a table of two humans: never closed
        clock.now += week / 2
        hand = hand_message(await service.hand(ALICE, solo, where=HERE), ALICE)
        assert hand is not None
        move = str(service.tables[solo].game.legal_moves()[0])
        assert not errors(await service.play(ALICE, solo, move, where=HERE))
        return solo, two

    async def on_clock(body: Any) -> Any:  # the store logs moves on the same clock
        store = await Store.open(db, clock=clock)
        try:
            service = Service(store, pictures=NoPictures(), ai_delay=0, seed=1, clock=clock)
            await service.start()
            return await body(service)
        finally:
            await store.close()

    solo, two = run(on_clock(body))
    clock.now += week - 100  # a week after the start, less than a week after the move

    async def restart(service: Service) -> None:
        assert not [m for m in await service.tick() if m.table == solo]
        clock.now += 200
        out = await service.tick()
        assert [m.table for m in out if m.table == solo] == [solo]
        assert "7 days" in next(m.text for m in out if m.table == solo)
        assert solo not in service.tables
        assert (await service.store.get_table(solo)).status == "stopped"
        assert two in service.tables
    run(on_clock(restart))
