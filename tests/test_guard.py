"""Issue 11 through the service: a table belongs to its channel, nothing escapes the service's
door, the last move and the result are kept together, and nothing grows without bound."""

from __future__ import annotations

import contextlib
import gc
import logging
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

from bot.service.guard import Where, number, table_number
from bot.service.limits import Limits
from bot.service.pictures import Pictures
from bot.service.service import Service, User
from bot.storage import Store
from tests.service_helpers import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    SCOPE,
    errors,
    hand_message,
    open_classic,
    play_to_the_end,
    press_a_legal_tile,
    run,
    started_table,
    table_id,
    with_service,
)

HERE = Where(CHANNEL, SCOPE)
THERE = Where("test:other-chan", "test:other-server")
BOB_DM = Where("test:dm-bob", "test:dm-bob", private=True)


def dump(path: Path) -> dict[str, list[Any]]:
    """Every row of every table of the database file (committed data)."""
    with sqlite3.connect(path) as db:
        names = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                          "ORDER BY name")]
        return {n: sorted(map(repr, db.execute(f"SELECT * FROM {n}"))) for n in names}


def every_table_command(tid: int | str, turn: int = 0) -> list[tuple[str, tuple[Any, ...]]]:
    calls: list[tuple[str, tuple[Any, ...]]] = [
        (name, (tid,)) for name in ("join", "leave", "add_ai", "remove_ai", "begin", "hand",
                                    "stop", "rematch", "export")]
    calls += [("play", (tid, "6-6")), ("play", (tid, "draw")), ("play", (tid, "pass"))]
    calls += [("press", (f"{tid}:{turn}:{verb}{arg}",)) for verb, arg in
              (("j", ""), ("l", ""), ("a", ""), ("r", ""), ("s", ""), ("h", ""), ("q", ""),
               ("m", ""), ("d", ""), ("x", ""), ("p", ":6-6"), ("e", ":6-6"))]
    return calls


# -- a table belongs to its channel ----------------------------------------------------------


def test_nothing_from_another_channel_reaches_a_table(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite"

    async def body(service: Service) -> None:
        lobby = await open_classic(service, "players=3")
        game = await started_table(service, ALICE, (CAROL,))
        for tid in (lobby, game):
            turn = service.tables[tid].game.turn if service.tables[tid].game else 0
            before = dump(db)
            for name, args in every_table_command(tid, turn):
                for where in (THERE, BOB_DM):
                    out = await getattr(service, name)(BOB, *args, where=where)
                    assert errors(out), (name, args, where)
                    assert not [m for m in out if m.to is None], (name, where)  # nothing public
            assert dump(db) == before
        # from the table's own channel, bob joins; alice plays from her private chat
        assert not errors(await service.join(BOB, lobby, where=HERE))
        mover = service.tables[game].game.to_move
        user = (ALICE, CAROL)[mover]
        dm = Where(f"test:dm-{user.name}", "", private=True)
        assert not errors(await service.hand(user, game, where=dm))
        hand = hand_message(await service.hand(user, game, where=dm), user)
        assert hand is not None
        data = next(a.data for a in hand.actions if a.enabled)
        assert not errors(await service.press(user, data, where=dm))
    run(with_service(db, body))


def test_a_private_chat_table_cannot_be_joined_from_elsewhere(tmp_path: Path) -> None:
    async def body(service: Service) -> None:
        dm = Where("test:dm-alice", "test:dm-alice", private=True)
        tid = table_id(await service.open_table(ALICE, dm.channel, dm.scope, "classic",
                                                options="players=2", private=True, where=dm))
        for where in (BOB_DM, THERE, HERE):
            assert errors(await service.join(BOB, tid, where=where))
            assert errors(await service.press(BOB, f"{tid}:0:j", where=where))
        assert service.tables[tid].open_seats()
    run(with_service(tmp_path / "db.sqlite", body))


def test_a_lobby_for_invited_players_only(tmp_path: Path) -> None:
    async def body(service: Service) -> None:
        tid = table_id(await service.open_table(ALICE, CHANNEL, SCOPE, "classic",
                                                options="players=3 invite=test:bob",
                                                where=HERE))
        assert errors(await service.join(CAROL, tid, where=HERE))
        assert not errors(await service.join(BOB, tid, where=HERE))
        bad = await service.open_table(ALICE, CHANNEL, SCOPE, "classic",
                                       options="invite=@@@", where=HERE)
        assert errors(bad)
    run(with_service(tmp_path / "db.sqlite", body))


# -- nothing escapes ------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["99999999999999999999", str(2**63), "²", "٣", "-1", "0",
                                  "1e3", " ", "#"])
def test_numbers_are_parsed_strictly(tmp_path: Path, text: str) -> None:
    assert table_number(text) is None  # not even "٣": ASCII digits only
    assert number("²") is None and number(str(2**62)) == 2**62 and number(2**63) is None

    async def body(service: Service) -> None:
        tid = await open_classic(service, "players=2")
        for name, args in every_table_command(text):
            out = await getattr(service, name)(ALICE, *args, where=HERE)
            assert errors(out), (name, args)
        if text != "0":  # 0: no timer, no computer
            assert errors(await service.set_setting(ALICE, SCOPE, "timer", text, True))
            assert errors(await service.open_table(ALICE, CHANNEL, SCOPE, "classic",
                                                   options=f"ai={text}"))
        assert service.tables[tid].open_seats()
    run(with_service(tmp_path / "db.sqlite", body))


def test_an_unexpected_error_is_a_polite_reply_and_a_quiet_log(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def body(service: Service) -> None:
        async def broken(*args: Any, **kw: Any) -> Any:
            raise RuntimeError("bob holds 6-4 and 5-5")

        monkeypatch.setattr(service.store, "leaderboard", broken)
        with caplog.at_level(logging.DEBUG):
            out = await service.leaderboard(BOB, CHANNEL, SCOPE)
        assert [m.kind for m in out] == ["error"] and out[0].to == BOB.id
        assert "Réessayez" in out[0].text  # bob's language
        assert "leaderboard failed: RuntimeError" in caplog.text
        assert "6-4" not in caplog.text
    run(with_service(tmp_path / "db.sqlite", body))


FILLERS = {  # a row of each table a move or an opening writes, with a blob of a given size
    "tables": "INSERT INTO tables (channel, scope, host, variant, options, players, status, "
              "seed, lang, created_at) VALUES (?, '', '', '', '{}', 0, 'stopped', 0, '', 0)",
    "seats": "INSERT INTO seats (table_id, seat, name) VALUES (-?, 0, ?)",
    "moves": "INSERT INTO moves (table_id, turn, seat, move, at) VALUES (-?, 0, 0, ?, 0)",
    "games": "INSERT INTO games VALUES (-?, '', '', 0, ?, '{}')",
}


async def freeze(store: Store) -> None:
    """The disk is full: no page can be added, and the pages of the tables a move or an
    opening writes are full (big rows first, then ever smaller ones)."""
    async with store.link.lock:
        db = store.link.db
        await db.execute("PRAGMA foreign_keys = OFF")
        [(pages,)] = await db.execute_fetchall("PRAGMA page_count")
        await db.execute(f"PRAGMA max_page_count = {pages}")
        n = 0
        for name, sql in FILLERS.items():
            size = 4000
            while size >= 1:
                n += 1
                params = ("x" * size,) if name == "tables" else (n, "x" * size)
                try:
                    await db.execute(sql, params)
                except sqlite3.OperationalError:
                    size //= 2
        await db.execute("PRAGMA foreign_keys = ON")


async def thaw(store: Store) -> None:
    async with store.link.lock:
        await store.link.db.execute("PRAGMA max_page_count = 1000000")


def test_a_full_disk_at_the_last_move_loses_nothing(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite"

    async def body(service: Service) -> None:
        tid = await started_table(service, ALICE, (BOB,))
        users = {0: ALICE, 1: BOB}
        for _ in range(500):  # play until one move is left
            table = service.tables[tid]
            probe = table.game.copy()
            probe.play(probe.legal_moves()[0])
            if probe.over:
                break
            await press_a_legal_tile(service, tid, users[table.game.to_move])
        table = service.tables[tid]
        moves_before, turn = len(await service.store.moves(tid)), table.game.turn
        await freeze(service.store)
        user = users[table.game.to_move]
        hand = hand_message(await service.hand(user, tid, where=HERE), user)
        assert hand is not None
        move = table.game.legal_moves()[0]
        out = await service.play(user, tid, str(move), where=HERE)
        assert errors(out) == ["The bot cannot save right now; your move was not played."] \
            or errors(out) == ["Le bot ne peut pas enregistrer pour l'instant ; votre coup "
                               "n'a pas été joué."]
        assert service.tables[tid].game.turn == turn and not service.tables[tid].game.over
        assert len(await service.store.moves(tid)) == moves_before
        assert (await service.store.get_table(tid)).status == "playing"
        await thaw(service.store)
        out = await service.play(user, tid, str(move), where=HERE)
        assert not errors(out)
        row = await service.store.get_table(tid)
        assert row.status == "finished" and row.result is not None
        assert await service.store.game_record(tid) is not None
    run(with_service(db, body))


def test_a_full_disk_at_an_opening_or_a_move_keeps_the_bot_running(tmp_path: Path) -> None:
    async def body(service: Service) -> None:
        tid = await started_table(service, ALICE, (BOB,))
        await freeze(service.store)
        before = service.tables[tid].game.turn
        mover = (ALICE, BOB)[service.tables[tid].game.to_move]
        out = await service.play(mover, tid, str(service.tables[tid].game.legal_moves()[0]),
                                 where=HERE)
        assert len(errors(out)) == 1
        assert "cannot save" in errors(out)[0] or "enregistrer" in errors(out)[0]
        assert service.tables[tid].game.turn == before
        out = await service.open_table(CAROL, CHANNEL, SCOPE, "classic", options="ai=1")
        assert errors(out) == ["The bot cannot save right now; nothing was changed. Please try "
                               "again later."]
        await thaw(service.store)
        await press_a_legal_tile(service, tid, mover)
    run(with_service(tmp_path / "db.sqlite", body))


def test_a_game_finished_in_the_log_gets_its_result_at_the_next_start(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite"

    async def body(service: Service) -> int:
        tid = await started_table(service, ALICE, (BOB,))
        game = service.tables[tid].game
        while True:  # all moves but the result, as an older version could leave it
            probe = game.copy()
            probe.play(probe.legal_moves()[0])
            if probe.over:
                break
            game.play(game.legal_moves()[0])
        for i, move in enumerate(game.record()["moves"]):
            if i >= len(await service.store.moves(tid)):
                await service.store.append_move(tid, i, 0, move)
        await service.store.append_move(tid, game.turn, 0, str(game.legal_moves()[0]))
        return tid

    tid = run(with_service(db, body))

    async def after(service: Service) -> None:
        row = await service.store.get_table(tid)
        assert row.status == "finished" and await service.store.game_record(tid)
    run(with_service(db, after))


# -- limits -----------------------------------------------------------------------------------


def test_long_names_are_cut_wherever_they_are_shown(tmp_path: Path) -> None:
    long = User("test:long", "L" * 10_000)

    async def body(service: Service) -> None:
        out = await service.open_table(long, CHANNEL, SCOPE, "classic", options="players=2")
        tid = table_id(out)
        out += await service.join(BOB, tid, where=HERE)
        out += await service.begin(long, tid, where=HERE)
        assert max(len(m.text) for m in out) < 2000
        assert max(len(s.name) for s in service.tables[tid].row.seats) <= 32
        assert len(await service.store.user_name(long.id)) <= 32
    run(with_service(tmp_path / "db.sqlite", body))


def test_open_tables_are_limited_per_user_channel_and_computer_games(tmp_path: Path) -> None:
    limits = Limits(tables_per_user=3, tables_per_channel=4, solo_tables_per_user=2)

    async def body(service: Service) -> None:
        async def opens(user: User, options: str, channel: str = CHANNEL) -> bool:
            out = await service.open_table(user, channel, SCOPE, "classic", options=options)
            return not errors(out)

        assert await opens(ALICE, "ai=1") and await opens(ALICE, "ai=1")
        assert not await opens(ALICE, "ai=1")  # a third game against the computer
        assert await opens(ALICE, "players=2")
        assert not await opens(ALICE, "players=2", "test:elsewhere")  # 3 tables per user
        assert await opens(BOB, "players=2")
        assert not await opens(CAROL, "players=2")  # 4 tables in this channel
        assert await opens(CAROL, "players=2", "test:elsewhere")
    run(with_service(tmp_path / "db.sqlite", body, limits=limits))


def test_idle_lobbies_close_with_a_message(tmp_path: Path) -> None:
    from tests.service_helpers import Clock

    clock = Clock()
    db = tmp_path / "db.sqlite"

    async def body(service: Service) -> int:
        tid = await open_classic(service, "players=2")
        clock.now += 3000
        await service.join(BOB, tid, where=HERE)  # a change: the wait starts again
        clock.now += 3000
        assert not await service.tick()
        clock.now += 700
        out = await service.tick()
        assert [m.table for m in out] == [tid] and "60 minutes" in out[0].text
        assert tid not in service.tables
        assert (await service.store.get_table(tid)).status == "stopped"
        return await open_classic(service, "players=2")

    old = run(with_service(db, body, clock=clock))
    clock.now += 4000

    async def restart(service: Service) -> None:  # expired while the bot was down: no message
        assert old not in service.tables
        assert (await service.store.get_table(old)).status == "stopped"
    run(with_service(db, restart, clock=clock))


def test_locks_are_not_kept_for_forged_table_numbers(tmp_path: Path) -> None:
    async def body(service: Service) -> None:
        for n in range(1, 2001):
            await service.press(BOB, f"{n}:0:j", where=HERE)
            await service.join(BOB, n + 5000, where=HERE)
        gc.collect()
        assert len(service._locks) < 10
    run(with_service(tmp_path / "db.sqlite", body))


def test_find_table_looks_at_the_channel_only(tmp_path: Path) -> None:
    async def body(service: Service) -> None:
        for i in range(30):
            await service.open_table(User(f"test:u{i}", f"u{i}"), f"test:c{i}", SCOPE,
                                     "classic", options="players=2")
        mine = await open_classic(service, "players=2")

        async def no_scan(*args: Any, **kw: Any) -> Any:
            raise AssertionError("find_table loaded every table of the channel")

        service.store.tables_in_channel = no_scan  # type: ignore[method-assign]
        assert await service.find_table(CHANNEL, BOB.id, "join") == mine
        assert await service.find_table("test:c3", BOB.id, "join") != mine
        game = await started_table(service, ALICE, (BOB,))
        await play_to_the_end(service, game, {0: ALICE, 1: BOB})
        assert await service.find_table(CHANNEL, BOB.id, "rematch") == game
    run(with_service(tmp_path / "db.sqlite", body))


class ThreadedPictures(Pictures):
    """Records the thread each picture is drawn in."""

    def __init__(self) -> None:
        super().__init__()
        self.threads: list[int] = []

    def public(self, view: dict[str, Any], names: list[str] | None = None) -> bytes | None:
        self.threads.append(threading.get_ident())
        return b"\x89PNG public"

    def hand(self, view: dict[str, Any]) -> bytes | None:
        self.threads.append(threading.get_ident())
        return b"\x89PNG hand"


def test_pictures_are_drawn_off_the_event_loop_and_only_for_someone(tmp_path: Path) -> None:
    pictures = ThreadedPictures()

    async def body(service: Service) -> None:
        out = await service.open_table(ALICE, CHANNEL, SCOPE, "classic", options="ai=1")
        assert {m.image for m in out if m.image} == {b"\x89PNG public", b"\x89PNG hand"}
        assert pictures.threads and threading.get_ident() not in pictures.threads
        # a table where nobody plays any more, in a channel nobody watched lately
        tid = table_id(out)
        table = service.tables[tid]
        for s in table.row.seats:
            s.ai = s.ai or "greedy"
        service._watched.clear()
        pictures.threads.clear()
        turn = table.game.turn
        table.ai_due = service.clock()
        out = await service.tick()
        assert table.game.turn > turn  # the computers play on, unseen: nothing drawn
        assert not any(m.image for m in out) and not pictures.threads
        service._seen_in(CHANNEL)  # somebody acted in the channel: it is shown again
        table.ai_due = service.clock()
        out = await service.tick()
        assert any(m.image for m in out) and pictures.threads
    run(with_service(tmp_path / "db.sqlite", body, pictures=pictures))


def test_a_malformed_log_call_never_raises_through_the_token_filter() -> None:
    import io

    from bot.logs import Redact

    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(Redact(["SECRET"]))
    logger = logging.getLogger("test.guard.malformed")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        logger.warning("%d items for SECRET", "not a number")
        logger.warning("%s and %s", "one")
        logger.warning("fine SECRET %s", "SECRET")
    finally:
        logger.removeHandler(handler)
    assert "SECRET" not in stream.getvalue() and "fine [token] [token]" in stream.getvalue()


def test_a_real_full_disk_at_the_last_move(tmp_path: Path) -> None:
    """The same on a small tmpfs filled up (as root; skipped where it cannot be mounted)."""
    import os
    import subprocess

    disk = tmp_path / "disk"
    disk.mkdir()
    if os.geteuid() != 0 or subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(disk)],
            capture_output=True).returncode != 0:
        pytest.skip("cannot mount a small tmpfs here")

    async def body(service: Service) -> None:
        tid = await started_table(service, ALICE, (CAROL,))
        users = {0: ALICE, 1: CAROL}
        while True:
            table = service.tables[tid]
            probe = table.game.copy()
            probe.play(probe.legal_moves()[0])
            if probe.over:
                break
            await press_a_legal_tile(service, tid, users[table.game.to_move])
        table = service.tables[tid]
        user, move = users[table.game.to_move], str(table.game.legal_moves()[0])
        filler = disk / "filler"
        with contextlib.suppress(OSError), filler.open("wb") as f:  # closing may fail too
            while True:
                f.write(b"\0" * 65536)
                f.flush()
        out = await service.play(user, tid, move, where=HERE)
        assert errors(out) == ["The bot cannot save right now; your move was not played."]
        assert (await service.store.get_table(tid)).status == "playing"
        assert not service.tables[tid].game.over
        filler.unlink()
        assert not errors(await service.play(user, tid, move, where=HERE))
        assert (await service.store.get_table(tid)).status == "finished"
        assert await service.store.game_record(tid) is not None

    try:
        run(with_service(disk / "db.sqlite", body))
    finally:
        subprocess.run(["umount", str(disk)], capture_output=True)
