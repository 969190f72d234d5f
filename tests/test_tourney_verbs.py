"""Issue 37, items 2, 4 and 6: a tournament's number as every chat types it (text, read
once and strictly, on SQLite and PostgreSQL), the `cancel` verb of the organiser and the
server's managers, a registration nobody starts closed after a bounded time, and the
console's number."""

from __future__ import annotations

import json
from pathlib import Path

from console_helpers import ConsoleBot, messages

from bot.service.limits import Limits
from bot.service.service import Service
from tests.service_helpers import SCOPE, Clock, errors, run, with_service
from tests.test_service_tournaments import (
    HERE,
    ORGANISER,
    PLAYERS,
    open_swiss,
    play_round,
)

WENT_WRONG = "Something went wrong"


async def status(service: Service, tid: int) -> str:
    row = await service.store.tournament(tid)
    assert row is not None
    return row.status


def test_typed_numbers_act_on_both_backends(db_target: str | Path) -> None:
    """join, leave, start, drop, standings, export and cancel with the number typed (text,
    "#N" too), as Telegram always and Discord's what:VERB N pass it on."""
    async def body(service: Service) -> None:
        tid, _ = await open_swiss(service, "swiss rounds=1 seats=2 classic")
        act = service.tournament_action
        for user in PLAYERS[:4]:
            out = await act(user, SCOPE, "join", str(tid), where=HERE)
            assert not errors(out), errors(out)
        out = await act(PLAYERS[3], SCOPE, "leave", f"#{tid}", where=HERE)
        assert not errors(out) and "no longer registered" in out[0].text
        out = await act(ORGANISER, SCOPE, "start", f" {tid} ", where=HERE)
        assert not errors(out) and "round 1 of 1" in out[0].text
        out = await act(PLAYERS[2], SCOPE, "drop", str(tid), where=HERE)
        assert not errors(out) and "leaves tournament" in out[0].text
        out = await act(PLAYERS[1], SCOPE, "standings", str(tid), where=HERE)
        assert not errors(out) and "no round is over yet" in out[0].text
        out = await act(PLAYERS[1], SCOPE, "export", str(tid), where=HERE)
        assert not errors(out) and out[0].file is not None
        other, _ = await open_swiss(service, "swiss rounds=1 seats=2 classic")
        out = await act(ORGANISER, SCOPE, "cancel", str(other), where=HERE)
        assert not errors(out) and await status(service, other) == "stopped"

    run(with_service(db_target, body, default_timer=None))


FORGED = ["²", "١", "３", "01", "+1", "-1", "1.0", "1e0", "0x1", "1 1", "##1", "#",
          "9" * 30, "١٢", "1\x00", str(2**63), "𝟏"]


def test_forged_numbers_are_refused_in_words(db_target: str | Path) -> None:
    """A number in other digits, padded, signed or out of range is no tournament's: a
    clear refusal, never an error of the database, never tournament #1 acted on."""
    async def body(service: Service) -> None:
        tid, _ = await open_swiss(service, "swiss rounds=1 seats=2 classic")
        assert tid == 1
        for verb in ("join", "leave", "start", "drop", "standings", "export", "cancel"):
            for text in FORGED:
                out = await service.tournament_action(PLAYERS[1], SCOPE, verb, text,
                                                      where=HERE)
                said = errors(out)
                assert said and not any(WENT_WRONG in s for s in said), (verb, text, out)
        row = await service.store.tournament(tid)
        assert row is not None and row.status == "registration"
        assert json.loads(row.state)["t"]["entrants"] == []
        out = await service.tournament_action(PLAYERS[1], SCOPE, "join", " ", where=HERE)
        assert errors(out) == ["Which tournament? Give its number after join."]

    run(with_service(db_target, body, default_timer=None))


def test_cancel_is_the_organisers_or_a_managers(tmp_path: Path) -> None:
    async def body(service: Service) -> None:
        tid, _ = await open_swiss(service, "swiss rounds=1 seats=2 classic")
        out = await service.tournament_action(PLAYERS[1], SCOPE, "join", tid, where=HERE)
        out = await service.tournament_action(PLAYERS[1], SCOPE, "cancel", tid, where=HERE)
        assert errors(out) == ["Only the organiser or a server manager can cancel the "
                               "tournament."]
        out = await service.tournament_action(PLAYERS[2], SCOPE, "cancel", tid,
                                              is_admin=True, where=HERE)
        assert not errors(out)
        assert out[0].text == "Tournament #1 is cancelled by p3."
        assert await status(service, tid) == "stopped"
        out = await service.tournament_action(ORGANISER, SCOPE, "cancel", tid, where=HERE)
        assert errors(out) == ["This tournament is over."]
        # a place of the server is free again: three more open
        for _ in range(3):
            await open_swiss(service, "swiss rounds=1 seats=2 classic")
        # under way: the players drop, nobody cancels
        t2 = 2
        for user in PLAYERS[:2]:
            await service.tournament_action(user, SCOPE, "join", t2, where=HERE)
        await service.start_tournament(ORGANISER, t2, where=HERE)
        out = await service.tournament_action(ORGANISER, SCOPE, "cancel", t2, where=HERE)
        assert errors(out) == ["The tournament has already started."]
        await play_round(service, t2)

    run(with_service(tmp_path / "db.sqlite", body, default_timer=None))


def test_a_registration_nobody_starts_closes(tmp_path: Path) -> None:
    """No start time and nobody starts it: closed after the registration's time to live,
    its channel told, once; one with a start time waits for it."""
    clock = Clock()

    async def body(service: Service) -> None:
        tid, _ = await open_swiss(service, "swiss rounds=1 seats=2 classic")
        timed, _ = await open_swiss(service, "swiss rounds=1 seats=2 classic start=180")
        await service.tournament_action(PLAYERS[1], SCOPE, "join", tid, where=HERE)
        clock.now += 7199
        assert not await service.tick()
        clock.now += 2
        out = await service.tick()
        assert [m.text for m in out] == ["Tournament #1 is closed: nobody started it within "
                                         "2 hours."]
        assert out[0].channel == "test:chan"
        assert (await status(service, tid), await status(service, timed)) == (
            "stopped", "registration")
        clock.now += 2
        assert not await service.tick()

    run(with_service(tmp_path / "db.sqlite", body, clock=clock, default_timer=None,
                     limits=Limits(tournament_registration_ttl=7200)))


def test_the_registration_ttl_is_a_setting(tmp_path: Path) -> None:
    from bot.config import Settings

    s = Settings.from_env({"DOMINO_TOURNAMENT_REGISTRATION_TTL": "600"}, cwd=tmp_path)
    assert s.limits.tournament_registration_ttl == 600
    assert Settings.from_env({}, cwd=tmp_path).limits.tournament_registration_ttl == 86400


def test_the_console_reads_the_number_strictly(tmp_path: Path) -> None:
    """`/tournament join ²` used to end the console; `١` was read as 1."""
    bot = ConsoleBot(tmp_path)
    bot.start()
    ann = messages(bot.send("/tournament swiss rounds=1 seats=2 classic"))[0]
    assert ann.head.startswith("[#main] Tournament #1:")
    out = bot.send("/as bob", "/tournament join ²")
    assert any("There is no tournament #²." in line for line in out), out
    out = bot.send("/tournament join ١")
    assert any("There is no tournament #١." in line for line in out), out
    out = bot.send("/tournament join #1")
    assert any("bob is registered in tournament #1 (1 player)." in line for line in out), out
    out = bot.send("/as alice", "/tournament cancel 1")
    assert any("Tournament #1 is cancelled by alice." in line for line in out), out
    assert bot.close()[0] == 0
