"""Seasons (issue 31): per-server leaderboards by month or quarter, past seasons kept, and the
player's page (rating with its uncertainty, streaks), on both storage backends."""

from __future__ import annotations

import asyncio
import sqlite3
from calendar import timegm
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.service.seasons import SeasonError, current_season, parse_season, season_of
from bot.service.service import Service
from bot.storage import MIGRATIONS, PG_MIGRATIONS, RatingRow, open_store
from bot.storage.pg_schema import PG_SCHEMA_VERSION_TABLE
from bot.storage.schema import SCHEMA_VERSION_TABLE
from tests.service_helpers import (
    ALICE,
    BOB,
    SCOPE,
    Clock,
    RecordingPictures,
    errors,
    play_to_the_end,
    started_table,
)
from tests.test_storage import table


def utc(year: int, month: int, day: int, hour: int = 0, minute: int = 0, second: int = 0
        ) -> float:
    return float(timegm((year, month, day, hour, minute, second)))


# -- season keys ----------------------------------------------------------------------------


def test_a_season_is_a_utc_month_or_quarter_of_the_finish_time() -> None:
    last = utc(2026, 9, 30, 23, 59, 59)
    first = utc(2026, 10, 1)
    assert season_of(last, "monthly") == "2026-09" and season_of(first, "monthly") == "2026-10"
    assert season_of(last, "quarterly") == "2026-Q3"
    assert season_of(first, "quarterly") == "2026-Q4"
    assert season_of(utc(2026, 12, 31, 23, 59, 59), "quarterly") == "2026-Q4"
    assert season_of(utc(2027, 1, 1), "quarterly") == "2027-Q1"
    assert season_of(first, "never") == ""
    assert current_season(first, None) == "" and current_season(first, "monthly") == "2026-10"


@pytest.mark.parametrize("text", ["2026-10", " 2026-q4 ", "2026-Q1"])
def test_a_season_name_is_read(text: str) -> None:
    assert parse_season(text, utc(2026, 11, 27)) in ("2026-10", "2026-Q4", "2026-Q1")


@pytest.mark.parametrize(("text", "why"), [
    ("2026-13", "malformed"), ("2026-00", "malformed"), ("2026-Q5", "malformed"),
    ("october", "malformed"), ("", "malformed"), ("2026-10-01", "malformed"),
    ("2026-12", "future"), ("2027-Q1", "future")])
def test_a_bad_season_name_is_refused(text: str, why: str) -> None:
    with pytest.raises(SeasonError) as caught:
        parse_season(text, utc(2026, 11, 27))
    assert caught.value.why == why


# -- storage ----------------------------------------------------------------------------------


def _rows(user: str, season: str, mu: float, games: int, wins: int) -> RatingRow:
    return RatingRow(user, "classic", "test:server", mu, 5.0, games, wins, season)


def test_season_rows_are_kept_beside_the_endless_ones(db_target: Path | str) -> None:
    async def main() -> None:
        store = await open_store(db_target)
        try:
            await store.upsert_user("test:alice", "alice")
            ratings = [RatingRow("test:alice", "classic", "test:server", 30.0, 5.0, 1, 1),
                       _rows("test:alice", "2026-10", 40.0, 1, 1),
                       _rows("test:bob", "2026-10", 20.0, 1, 0),
                       _rows("test:alice", "2026-Q4", 25.0, 1, 1)]
            for matador in (False, True):
                row = table(variant="matador" if matador else "classic")
                row.id = await store.create_table(row)
                rows = ratings if not matador else [
                    RatingRow("test:bob", "matador", "test:server", 50.0, 5.0, 1, 1, "2026-10")]
                await store.finish_game(row.id, {}, {}, [], rows)
            endless = await store.leaderboard("classic", "test:server")
            assert [(r.user_id, r.mu) for r in endless] == [("test:alice", 30.0)]
            month = await store.leaderboard("classic", "test:server", season="2026-10")
            assert [(r.user_id, r.name, r.mu, r.games) for r in month] == [
                ("test:alice", "alice", 40.0, 1), ("test:bob", "test:bob", 20.0, 1)]
            quarter = await store.leaderboard("classic", "test:server", season="2026-Q4")
            assert [r.mu for r in quarter] == [25.0]
            assert await store.leaderboard("classic", "test:server", season="2026-09") == []
            both = await store.leaderboard(None, "test:server", season="2026-10")
            assert [(r.user_id, r.variant, r.games, r.wins) for r in both] == [
                ("test:bob", "matador", 2, 1), ("test:alice", "classic", 1, 1)]
            got = await store.ratings(["test:alice", "test:bob"], "classic", "test:server",
                                      season="2026-10")
            assert {u: (r.mu, r.season) for u, r in got.items()} == {
                "test:alice": (40.0, "2026-10"), "test:bob": (20.0, "2026-10")}
            assert (await store.ratings(["test:bob"], "classic", "test:server")) == {}
            assert await store.tournament_places("test:alice") == []
        finally:
            await store.close()

    asyncio.run(main())


def _version_3(target: Path | str) -> None:
    """A database written by schema version 3 (before seasons), with one rating."""
    rating = ("INSERT INTO ratings VALUES ('test:alice', 'classic', 'test:server', 30.0, 5.0, "
              "2, 1)")
    if isinstance(target, Path):
        with sqlite3.connect(target) as db:
            db.execute(SCHEMA_VERSION_TABLE)
            for version, statements in enumerate(MIGRATIONS[:3], 1):
                for statement in statements:
                    db.execute(statement)
                db.execute("INSERT INTO schema_version VALUES (?, 0)", (version,))
            db.execute(rating)
        db.close()
        return

    async def main() -> None:
        con = await asyncpg.connect(target)
        try:
            await con.execute(PG_SCHEMA_VERSION_TABLE)
            for version, statements in enumerate(PG_MIGRATIONS[:3], 1):
                for statement in statements:
                    await con.execute(statement)
                await con.execute("INSERT INTO schema_version VALUES ($1, 0)", version)
            await con.execute(rating)
        finally:
            await con.close()

    asyncio.run(main())


def test_a_version_3_database_gets_seasons_keeping_its_ratings(db_target: Path | str) -> None:
    _version_3(db_target)

    async def main() -> None:
        store = await open_store(db_target)
        try:
            assert await store.schema_version() == len(MIGRATIONS)  # 4: seasons, and later
            [old] = await store.leaderboard("classic", "test:server")
            assert (old.user_id, old.mu, old.games) == ("test:alice", 30.0, 2)
            row = table()
            row.id = await store.create_table(row)
            await store.finish_game(row.id, {}, {}, [], [
                RatingRow("test:alice", "classic", "test:server", 31.0, 4.0, 3, 2),
                _rows("test:alice", "2026-11", 28.0, 1, 1)])
            [endless] = await store.leaderboard("classic", "test:server")
            [month] = await store.leaderboard("classic", "test:server", season="2026-11")
            assert (endless.mu, endless.games, month.mu, month.games) == (31.0, 3, 28.0, 1)
        finally:
            await store.close()

    asyncio.run(main())


# -- the service --------------------------------------------------------------------------------


async def _service(target: Path | str, clock: Clock, body: Any) -> Any:
    store = await open_store(target)
    try:
        service = Service(store, pictures=RecordingPictures(), ai_delay=0, seed=1, clock=clock)
        await service.start()
        return await body(service)
    finally:
        await store.close()


async def _game(service: Service) -> None:
    tid = await started_table(service, ALICE, (BOB,), options="players=2")
    await play_to_the_end(service, tid, {0: ALICE, 1: BOB})


def test_top_shows_the_current_season_and_past_ones_on_request(db_target: Path | str) -> None:
    clock = Clock(utc(2026, 10, 31, 23, 0))

    async def body(service: Service) -> dict[str, str]:
        out: dict[str, str] = {}
        await _game(service)  # in October
        clock.now = utc(2026, 11, 1, 0, 30)
        await _game(service)  # in November
        await _game(service)
        out["never"] = (await service.leaderboard(ALICE, "c", SCOPE, "classic"))[0].text
        saved = await service.set_setting(ALICE, SCOPE, "season", "Monthly", True)
        out["saved"] = saved[0].text
        out["month"] = (await service.leaderboard(ALICE, "c", SCOPE, "classic"))[0].text
        out["all"] = (await service.leaderboard(ALICE, "c", SCOPE))[0].text
        out["october"] = (await service.season_leaderboard(ALICE, "c", SCOPE, "2026-10",
                                                           "classic"))[0].text
        out["september"] = (await service.season_leaderboard(ALICE, "c", SCOPE,
                                                             "2026-09"))[0].text
        await service.set_setting(ALICE, SCOPE, "season", "quarterly", True)
        out["quarter"] = (await service.leaderboard(ALICE, "c", SCOPE, "classic"))[0].text
        out["bad"] = "\n".join(errors(await service.season_leaderboard(
            ALICE, "c", SCOPE, "2026-13")))
        out["future"] = "\n".join(errors(await service.season_leaderboard(
            BOB, "c", SCOPE, "2027-01")))
        out["global"] = "\n".join(errors(await service.season_leaderboard(
            ALICE, "c", "global", "2026-10")))
        out["puzzle"] = "\n".join(errors(await service.season_leaderboard(
            ALICE, "c", SCOPE, "2026-10", "quadrille")))
        await service.set_setting(ALICE, "global", "season", "monthly", True)
        out["everywhere"] = (await service.leaderboard(ALICE, "c", "global", "classic"))[0].text
        out["setting"] = "\n".join(errors(await service.set_setting(
            ALICE, SCOPE, "season", "weekly", True)))
        return out

    out = asyncio.run(_service(db_target, clock, body))
    assert "3 games" in out["never"], out["never"]
    assert "season" in out["saved"] and "monthly" in out["saved"], out["saved"]
    assert "2026-11" in out["month"] and "2 games" in out["month"], out["month"]
    assert "3 games" not in out["month"], out["month"]
    assert "2026-11" in out["all"] and "2 games" in out["all"], out["all"]
    assert "2026-10" in out["october"] and "1 game" in out["october"], out["october"]
    assert "No rated game" in out["september"], out["september"]
    assert "2026-Q4" in out["quarter"] and "3 games" in out["quarter"], out["quarter"]
    assert "2026-10" in out["bad"] and "2026-Q4" in out["bad"], out["bad"]
    assert "pas encore commencé" in out["future"], out["future"]  # bob reads French
    assert "server" in out["global"], out["global"]
    assert "puzzle" in out["puzzle"] and "no seasons" in out["puzzle"], out["puzzle"]
    assert "3 games" in out["everywhere"] and "season" not in out["everywhere"]
    assert "monthly" in out["setting"] and "quarterly" in out["setting"], out["setting"]


def test_the_players_page_shows_uncertainty_and_streaks(tmp_path: Path) -> None:
    clock = Clock(utc(2026, 11, 2))

    async def body(service: Service) -> tuple[str, str, list[bool]]:
        for _ in range(3):
            await _game(service)
        won = [h.won for h in await service.store.history(ALICE.id)]
        return ((await service.stats(ALICE, "c"))[0].text,
                (await service.stats(BOB, "c"))[0].text, won)

    alice, bob, won = asyncio.run(_service(tmp_path / "db.sqlite", clock, body))
    won.reverse()  # oldest first
    best = current = 0
    for w in won:
        current = current + 1 if w else 0
        best = max(best, current)
    assert "±" in alice and "±" in bob, alice
    wins = "win" if current == 1 else "wins"
    assert f"Current streak: {current} {wins} in a row" in alice, (alice, won)
    assert f"Best streak: {best} " in alice, (alice, won)
    assert "Série en cours" in bob and "Meilleure série" in bob, bob
    assert "ournament" not in alice and "ournoi" not in bob  # none are stored yet


# -- the adapters -------------------------------------------------------------------------------


def test_discord_season_option_and_setting(monkeypatch: pytest.MonkeyPatch,
                                           tmp_path: Path) -> None:
    from tests.discord_helpers import running_bot
    from tests.test_discord import last_ephemeral, play

    async def body(fake: Any, db: Path) -> None:
        alice, boss = fake.add_user("alice"), fake.add_user("boss", manager=True)
        async with running_bot(fake, db) as bot:
            await bot.slash(boss, "settings", season="quarterly")
            assert "Saved: season = quarterly" in last_ephemeral(fake, boss)["content"]
            assert await bot.store.get_setting(f"discord:{fake.guild_id}", "season") \
                == "quarterly"
            await bot.slash(alice, "leaderboard")
            assert ", season 20" in fake.channel_messages()[-1]["content"]
            await bot.slash(alice, "leaderboard", season="2020-01")
            board = fake.channel_messages()[-1]["content"]
            assert board.startswith("Leaderboard (all games, here, season 2020-01)"), board
            await bot.slash(alice, "leaderboard", season="2026-13")
            assert "Unknown season" in last_ephemeral(fake, alice)["content"]

    play(monkeypatch, tmp_path, body)


def test_telegram_top_season(tmp_path: Path) -> None:
    from tests.test_telegram import ALICE as TG_ALICE
    from tests.test_telegram import GROUP, Rig, run_rig

    async def body(rig: Rig) -> None:
        server = rig.server
        server.start_bot(TG_ALICE)
        await rig.say(TG_ALICE, GROUP, "/top classic season 2020-q1")
        board = server.chat(GROUP)[-1]["text"]
        assert "Leaderboard (Classic dominoes, here, season 2020-Q1)" in board, board
        await rig.say(TG_ALICE, GROUP, "/top season")
        assert "Unknown season" in server.chat(TG_ALICE.id)[-1]["text"]
        await rig.say(TG_ALICE, TG_ALICE.id, "/settings season monthly")
        assert "Saved: season = monthly" in server.chat(TG_ALICE.id)[-1]["text"]

    run_rig(tmp_path, body)


def test_console_top_season(tmp_path: Path) -> None:
    from tests.console_helpers import ConsoleBot

    bot = ConsoleBot(tmp_path)
    try:
        shown = "\n".join(bot.send("/domino top season 2026-13"))
        assert "Unknown season" in shown and "2026-Q4" in shown, shown
        shown = "\n".join(bot.send("/domino top season 2020-Q1"))
        assert "season 2020-Q1" in shown, shown
    finally:
        bot.close()


def test_streaks_count_games_against_others_only(db_target: Path | str) -> None:
    from bot.storage import GamePlayer, SeatRow, TableRow

    async def main() -> tuple[tuple[int, int, int], tuple[int, int, int]]:
        store = await open_store(db_target, clock=iter(range(1, 100)).__next__)
        try:
            for won in (True, True, True, False, True, True):
                row = table()
                row.id = await store.create_table(row)
                await store.finish_game(row.id, {}, {}, [
                    GamePlayer("test:alice", 0, won, 0, 1 if won else 2),
                    GamePlayer("test:bob", 1, not won, 0, 2 if won else 1)], [])
            # a solved puzzle (one seat) is no win against anyone; the run goes on
            solo = TableRow(id=0, channel="c", scope="s", host="test:alice", variant="quadrille",
                            options={}, players=1, timer=None, status="playing", seed=1,
                            lang="en", created_at=0.0, seats=[SeatRow(0, "test:alice", "a")])
            solo.id = await store.create_table(solo)
            await store.finish_game(solo.id, {}, {}, [GamePlayer("test:alice", 0, True, 1, 1)],
                                    [])
            return await store.streaks("test:alice"), await store.streaks("test:bob")
        finally:
            await store.close()

    alice, bob = asyncio.run(main())
    assert alice == (6, 2, 3)  # games, current run, best run
    assert bob == (6, 0, 1)


def test_the_tournament_line_shows_once_places_are_stored() -> None:
    from bot.service.seasons import record_lines
    from bot.storage import TournamentPlace

    places = [TournamentPlace(1, 4, 16), TournamentPlace(2, 2, 8)]
    assert record_lines(0, 0, 0, [], "en") == []
    assert record_lines(3, 1, 2, places, "en") == [
        "Current streak: 1 win in a row", "Best streak: 2 wins in a row",
        "2 tournaments played, best place: 2"]
    assert record_lines(1, 0, 1, places[:1], "fr") == [
        "Série en cours : 0 victoire d’affilée", "Meilleure série : 1 victoire d’affilée",
        "1 tournoi joué, meilleure place : 4"]
