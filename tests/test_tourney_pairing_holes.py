"""Issue 37, item 1: any count of players pairs (computers fill what is missing where the
organiser allows them, byes where not), and a pairing that cannot be made ends the
registration or the tournament with a message, never a stuck state nor an error each tick."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest

from bot.service.service import Service
from bot.tournament import Config, Tournament, TournamentError
from bot.tournament.pairing import table_sizes
from tests.service_helpers import Clock, errors, run, with_service
from tests.test_service_tournaments import (
    HERE,
    ORGANISER,
    PLAYERS,
    open_swiss,
    register_all,
    round_tables,
)
from tests.test_tourney_teams import play_team_round


@pytest.mark.parametrize("size", range(2, 9))
def test_table_sizes_seat_every_entrant(size: int) -> None:
    for count in range(1, 40):
        sizes, odd = table_sizes(count, size, fill=True)
        assert (sum(sizes), odd) == (count, 0), (count, size, sizes)
        assert all(1 <= s <= size for s in sizes) and max(sizes) - min(sizes) <= 1
        assert len(sizes) == -(-count // size)  # as few tables as hold them all
        sizes, odd = table_sizes(count, size, fill=False)
        assert sum(sizes) + odd == count and set(sizes) <= {size}


@pytest.mark.parametrize("teams", [None, "random", "fixed"])
@pytest.mark.parametrize("seats", [2, 4, 6, 8])
def test_every_count_pairs_with_fill_or_byes(teams: str | None, seats: int) -> None:
    """Three rounds of a Swiss of 2 to 13 entrants, with and without fill, at every table
    size: every active entrant plays or has a bye, nobody twice, no table over its seats."""
    if teams and seats < 4:  # partners need two sides of two
        with pytest.raises(TournamentError):
            Config("swiss", seats=seats, rounds=3, teams=teams)
        return
    for fill in (True, False):
        for count in range(2, 14):
            cfg = Config("swiss", seats=seats, rounds=3, fill=fill, teams=teams, seed=count)
            tour = Tournament(cfg)
            for i in range(count):
                tour.add(f"e{i}", (f"a{i}", f"b{i}") if teams == "fixed" else ())
            for r in range(1, 4):
                try:
                    rnd = tour.pair()
                except TournamentError as exc:  # too few for one table, and no computers
                    assert exc.code == "too-few-entrants" and not fill
                    break
                seated = [e for tb in rnd.tables for e in tb.entrants()]
                assert sorted(seated + rnd.byes) == sorted(tour.active()), (count, r)
                assert all(sum(map(len, tb.sides)) == cfg.per_table for tb in rnd.tables)
                for no in range(1, len(rnd.tables) + 1):
                    tour.record(r, no, [float(k) for k in range(len(rnd.tables[no - 1].sides))])
                if r == 1 and count > 2:
                    tour.drop(f"e{count - 1}")  # drops leave any count behind


@pytest.mark.parametrize("count", [2, 5])
def test_a_random_partners_swiss_with_computers_starts_and_ends(tmp_path: Path,
                                                                 count: int) -> None:
    """The issue's case: forty-two by random partners, four seats, fill=on, 2 or 5 players:
    the start pairs them (computers fill the seats), and the Swiss is played to its end."""
    async def body(service: Service) -> None:
        tid, ann = await open_swiss(service, "swiss forty-two partners=random rounds=2 "
                                    "fill=on target=1")
        await register_all(service, ann, PLAYERS[:count])
        out = await service.start_tournament(ORGANISER, tid, where=HERE)
        assert not errors(out), errors(out)
        assert "round 1 of 2" in out[0].text
        tables = await round_tables(service, tid)
        assert len(tables) == -(-count // 4)
        said = []
        for _ in range(2):
            await play_team_round(service, tid)
            said += [m.text for m in await service.tick()]
        row = await service.store.tournament(tid)
        assert row is not None and row.status == "finished"
        assert any("Podium" in s for s in said)

    run(with_service(tmp_path / "db.sqlite", body, default_timer=None))


def test_a_registration_window_with_two_players_at_four_seats_starts(tmp_path: Path,
                                                                       caplog: Any) -> None:
    """The window closes: the tick starts the tournament (it used to fail every second)."""
    clock = Clock()

    async def body(service: Service) -> None:
        tid, ann = await open_swiss(service, "swiss forty-two partners=random rounds=1 "
                                    "fill=on start=1")
        await register_all(service, ann, PLAYERS[:2])
        clock.now += 61
        with caplog.at_level(logging.ERROR):
            out = await service.tick()
        assert any("round 1 of 1" in m.text for m in out), [m.text for m in out]
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
        row = await service.store.tournament(tid)
        assert row is not None and row.status == "running"

    run(with_service(tmp_path / "db.sqlite", body, clock=clock, default_timer=None))


def test_a_pairing_that_cannot_be_made_calls_off_or_ends(tmp_path: Path, caplog: Any,
                                                         monkeypatch: Any) -> None:
    """A pairing that fails (any exception of the pairing's code): the window's close calls
    the tournament off with a message, the organiser's start is refused in words, and a
    running Swiss ends with its standings, once each: no error at every tick after."""
    clock = Clock()

    async def body(service: Service) -> None:
        tid, ann = await open_swiss(service, "swiss rounds=3 seats=2 classic start=1")
        await register_all(service, ann, PLAYERS[:4])
        tid2, ann2 = await open_swiss(service, "swiss rounds=3 seats=2 classic")
        await register_all(service, ann2, PLAYERS[:4])
        assert not errors(await service.start_tournament(ORGANISER, tid2, where=HERE))
        real = Tournament.pair

        def broken(self: Tournament, *args: Any, **kw: Any) -> Any:
            raise ValueError("min() arg is an empty sequence")
        monkeypatch.setattr(Tournament, "pair", broken)
        tid3, ann3 = await open_swiss(service, "swiss rounds=3 seats=2 classic")
        await register_all(service, ann3, PLAYERS[:2])
        out = await service.start_tournament(ORGANISER, tid3, where=HERE)
        assert errors(out) == ["This round cannot be paired."]
        # round 1 of tid2 ends (by forfeits at the round clock)
        clock.now += 61
        said = [m.text for m in await service.tick()]
        assert any(f"#{tid} is called off" in s for s in said), said
        clock.now += 700
        for _ in range(4):
            said += [m.text for m in await service.tick()]
            clock.now += 2
        assert any(f"Tournament #{tid2}" in s and "final standings" in s for s in said), said
        statuses = {n: (await service.store.tournament(n)).status  # type: ignore[union-attr]
                    for n in (tid, tid2, tid3)}
        assert statuses == {tid: "stopped", tid2: "finished", tid3: "registration"}
        caplog.clear()
        for _ in range(3):
            clock.now += 2
            assert not await service.tick()
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
        monkeypatch.setattr(Tournament, "pair", real)
        data = json.loads((await service.store.tournament(tid2)).state)  # type: ignore[union-attr]
        assert len(data["t"]["rounds"]) == 1

    run(with_service(tmp_path / "db.sqlite", body, clock=clock, default_timer=None))


def test_a_forfeit_is_not_a_game_played(tmp_path: Path) -> None:
    """Item 7, kept and documented (docs/tournaments.md): at two a table, two players whose
    game was a forfeit may meet again; a game played is never repeated."""
    tour = Tournament(Config("swiss", seats=2, rounds=4, seed=1))
    for e in "ABCD":
        tour.add(e)
    met: set[frozenset[str]] = set()
    for r in range(1, 4):
        for no, tb in enumerate(tour.pair().tables, 1):
            a, b = tb.entrants()
            if r < 3:
                tour.record(r, no, [1, 0])
                met.add(frozenset((a, b)))
            else:  # round 3: both tables forfeit (a no-show each)
                tour.record(r, no, [0, 0], no_shows=[b])
    last = {frozenset(tb.entrants()) for tb in tour.pair().tables}
    assert not last & met  # no game played twice
    assert last == {frozenset(tb.entrants()) for tb in tour.rounds[2].tables}
    doc = (Path(__file__).resolve().parents[1] / "docs" / "tournaments.md").read_text()
    assert "A forfeit is not a game played" in doc
