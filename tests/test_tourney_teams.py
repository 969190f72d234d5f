"""Team tournaments through the service (issue 31): fixed pairs registered together (asked
and confirmed, or paired at the start), random partners drawn each round, a side scored by
its team, a pair's no-show and leaver, and the refusals."""

from __future__ import annotations

import json
from pathlib import Path

from bot.service.limits import Limits
from bot.service.service import Service, User
from bot.tournament import Tournament
from tests.service_helpers import Clock, button, errors, run, with_service
from tests.test_service_tournaments import (
    HERE,
    ORGANISER,
    PLAYERS,
    final,
    lose_and_play_out,
    open_swiss,
    register_all,
    round_tables,
)

P1, P2, P3, P4, P5, P6, P7, P8 = PLAYERS
BY_ID = {u.id: u for u in PLAYERS}


def number(user_id: str) -> int:
    return int(user_id.removeprefix("test:p"))


async def play_team_round(service: Service, tid: int) -> list[list[str]]:
    """Every player joins their table; at each, the player with the highest number leaves
    the game at once (without the tournament's drop), so that side loses; the others play
    it to its end.  The seats of each table, in order."""
    seated_at: list[list[str]] = []
    for table_id in (await round_tables(service, tid)).values():
        table = service.tables[table_id]
        seats = [table.reserved[i][0] if i in table.reserved else "" for i in
                 range(len(table.row.seats))]
        seated_at.append(seats)
        for uid in filter(None, seats):
            assert not errors(await service.join(BY_ID[uid], table_id, where=HERE))
        assert service.tables[table_id].row.status == "playing"
        loser = max(filter(None, seats), key=number)
        await lose_and_play_out(service, table_id, BY_ID[loser], BY_ID)
    return seated_at


async def state(service: Service, tid: int) -> dict:
    row = await service.store.tournament(tid)
    assert row is not None
    return json.loads(row.state)


def test_a_fixed_pairs_swiss_of_partnership_is_played_to_the_end(db_target: str | Path) -> None:
    async def body(service: Service) -> None:
        tid, ann = await open_swiss(service, "swiss partnership rounds=2 target=1")
        assert "4 per table" in ann.text and "Fixed partners" in ann.text
        out = await service.register(P1, tid, P2, where=HERE)  # p1 asks p2
        assert out[0].mention == (P2.id,) and "p1 asks p2" in out[0].text
        out = await service.press(P2, button(ann, "Register"), where=HERE)  # p2 accepts
        assert out[0].text == "p1 & p2 are registered as partners in tournament #1 (2 players)."
        await service.register(P3, tid, P4, where=HERE)
        out = await service.register(P4, tid, P3, where=HERE)  # or names the first
        assert "p3 & p4 are registered as partners" in out[0].text
        await register_all(service, ann, [P5, P6, P7, P8])  # alone: paired at the start
        out = await service.start_tournament(ORGANISER, tid, where=HERE)
        assert not errors(out)
        assert out[0].text == ("Tournament #1: partners for those registered alone: "
                               "p5 & p6, p7 & p8.")
        assert "round 1 of 2" in out[1].text
        assert ": p1 & p2, p5 & p6" in out[1].text and ": p7 & p8, p3 & p4" in out[1].text
        said = []
        for _ in range(2):
            tables = await play_team_round(service, tid)
            for seats in tables:  # partners sit opposite
                assert {number(seats[0]), number(seats[2])} in ({1, 2}, {3, 4}, {5, 6}, {7, 8})
            said += [m.text for m in await service.tick()]
        tour = await final(service, tid)
        got = [(s.entrant, s.points) for s in tour.standings()]
        assert got == [("test:p1&test:p2", 2), ("test:p3&test:p4", 1),
                       ("test:p5&test:p6", 1), ("test:p7&test:p8", 0)]
        last = next(s for s in said if "final standings" in s)
        assert last.splitlines()[1].startswith("1. p1 & p2: 2 points (Buchholz")
        assert any("🥇 p1 & p2" in s for s in said)
        for user in (P1, P2):  # both partners have the pair's place
            (place,) = await service.store.tournament_places(user.id)
            assert (place.place, place.entrants) == (1, 4)
            history = (await service.history(user, "test:chan", where=HERE))[0].text
            assert "Tournament #1 · Partnership" in history and "place 1 of 4" in history
        record = json.loads((await service.export_tournament(P1, tid, where=HERE))[0].file[1])
        assert record["standings"][0]["name"] == "p1 & p2"
        assert record["rounds"][0]["tables"][0]["sides"] == [["p1 & p2"], ["p5 & p6"]]
        assert record["rounds"][0]["tables"][0]["seats"] == ["p1", "p5", "p2", "p6"]

    run(with_service(db_target, body, default_timer=None))


def test_pair_registration_and_the_leftovers_at_the_start(db_target: str | Path) -> None:
    async def body(service: Service) -> None:
        tid, _ = await open_swiss(service, "swiss partnership rounds=1 target=1")
        await service.register(P3, tid, where=HERE)  # alone
        out = await service.register(P4, tid, P3, where=HERE)
        assert out[0].mention == (P3.id,)  # p3 waits alone but did not name p4: asked
        out = await service.register(P3, tid, P4, where=HERE)
        assert "p4 & p3 are registered as partners in tournament #1 (2 players)" in out[0].text
        for partner, why in ((P3, "Your partner is already registered with someone else."),
                             (P5, "You cannot be your own partner."),
                             ("nobody", "Your partner must be a member here"),
                             (User("other:9", "x"), "Your partner must be a member here")):
            out = await service.register(P5, tid, partner, where=HERE)
            assert errors(out) and errors(out)[0].startswith(why), (partner, errors(out))
        assert errors(await service.register(P4, tid, where=HERE)) == [
            "You are already registered."]
        await service.register(P1, tid, P2, where=HERE)
        await service.register(P2, tid, where=HERE)  # accepts p1's ask
        out = await service.unregister(P2, tid, where=HERE)  # takes the pair off
        assert out[0].text == "p2 is no longer registered in tournament #1 (2 players)."
        assert out[1].mention == (P1.id,) and out[1].text.startswith("p1: your partner p2")
        for u in (P5, P1, P6):  # alone, in this order
            out = await service.register(u, tid, where=HERE)
            assert "waits for a partner" in out[0].text
        out = await service.unregister(P6, tid, where=HERE)  # off the waiting list
        assert "(4 players)" in out[0].text
        await service.register(P7, tid, where=HERE)
        out = await service.start_tournament(ORGANISER, tid, where=HERE)
        assert out[0].text == ("Tournament #1: partners for those registered alone: p5 & p1."
                               "\np7 has no partner and does not play in tournament #1.")
        assert out[0].mention == (P7.id,)
        data = await state(service, tid)
        assert [e["members"] for e in data["t"]["entrants"]] == [[P4.id, P3.id],
                                                                [P5.id, P1.id]]
        assert data["pending"] == []
        out = await service.register(P8, tid, where=HERE)
        assert errors(out) == ["The tournament has already started."]

    run(with_service(db_target, body, default_timer=None))


def test_an_odd_player_gets_a_computer_partner_where_the_organiser_allows(tmp_path: Path
                                                                        ) -> None:
    async def body(service: Service) -> None:
        tid, ann = await open_swiss(service, "swiss whist rounds=1 fill=on")
        await register_all(service, ann, [P1, P2, P3])
        out = await service.start_tournament(ORGANISER, tid, where=HERE)
        assert out[0].text == ("Tournament #1: partners for those registered alone: p1 & p2, "
                               "p3 & a computer.")
        (table_id,) = (await round_tables(service, tid)).values()
        seats = service.tables[table_id].row.seats
        assert [s.ai is not None for s in seats] == [False, False, False, True]

    run(with_service(tmp_path / "db.sqlite", body, default_timer=None))


def test_registrations_count_players_against_the_bound(db_target: str | Path) -> None:
    async def body(service: Service) -> None:
        tid, _ = await open_swiss(service, "swiss partnership rounds=1")
        await service.register(P1, tid, P2, where=HERE)
        await service.register(P2, tid, where=HERE)
        await service.register(P3, tid, where=HERE)
        out = await service.register(P4, tid, where=HERE)
        assert errors(out) == ["The tournament is full."]

    run(with_service(db_target, body, limits=Limits(tournament_entrants=3)))


def test_random_partners_are_drawn_again_each_round(db_target: str | Path) -> None:
    async def body(service: Service) -> None:
        tid, ann = await open_swiss(service, "swiss texas-42 rounds=3 partners=random "
                                    "target=1")
        assert "Random partners: drawn again each round." in ann.text
        await register_all(service, ann, PLAYERS[:4])
        out = await service.register(P5, tid, P6, where=HERE)
        assert errors(out) == ["This tournament's partners are drawn each round: register "
                               "alone."]
        await service.start_tournament(ORGANISER, tid, where=HERE)
        partners = []
        for _ in range(3):
            (seats,) = await play_team_round(service, tid)
            partners += [frozenset(seats[0::2]), frozenset(seats[1::2])]
            await service.tick()
        assert len(set(partners)) == 6  # never the same partner twice
        tour = await final(service, tid)
        # p4's side always lost (p4 left each game): each of the others lost once, with p4
        assert {s.entrant: s.points for s in tour.standings()} == {
            P1.id: 2, P2.id: 2, P3.id: 2, P4.id: 0}

    run(with_service(db_target, body, default_timer=None))


def test_team_refusals_at_the_opening(db_target: str | Path) -> None:
    async def body(service: Service) -> None:
        for text, why in (
                ("swiss classic partners=fixed", "classic is not played by partners "
                 "(partners= is for partnership, whist, qui-perd-gagne, forty-two, texas-42)."),
                ("knockout partnership partners=random", "Random partners are for Swiss and "
                 "arena only."),
                ("round-robin forty-two teams=random", "Random partners are for Swiss and "
                 "arena only."),
                ("swiss partnership partners=maybe", "Partners must be fixed or random."),
                ("swiss partnership seats=2", "partnership is played by exactly 4 players "
                 "(got 2)")):
            out = await service.open_tournament(ORGANISER, "test:chan", "test:server", text,
                                                is_admin=True, where=HERE)
            assert errors(out) and errors(out)[0].endswith(why), (text, errors(out))
        tid, _ = await open_swiss(service, "swiss classic")
        assert errors(await service.register(P2, tid, P3, where=HERE)) == [
            "This tournament is not played by partners: register alone."]
        _, ann = await open_swiss(service, "knockout whist teams=fixed")
        assert "Fixed partners" in ann.text
        _, ann = await open_swiss(service, "arena forty-two partners=random")
        assert "Random partners" in ann.text

    run(with_service(db_target, body))


def test_a_pair_missing_a_partner_forfeits_and_a_leaver_drops_the_pair(tmp_path: Path
                                                                       ) -> None:
    clock = Clock()

    async def body(service: Service) -> None:
        tid, ann = await open_swiss(service, "swiss partnership rounds=2 clock=60 target=1")
        await register_all(service, ann, PLAYERS[:8])
        await service.start_tournament(ORGANISER, tid, where=HERE)
        first, second = (await round_tables(service, tid)).values()  # p1 & p2 v p5 & p6
        for u in (P1, P2, P5):  # p6, p5's partner, does not come
            await service.join(u, first, where=HERE)
        for u in (P3, P4, P7, P8):
            await service.join(u, second, where=HERE)
        out = await service.leave(P8, second, where=HERE)  # a game under way: p7 & p8 out
        assert "p8 left their game: p7 & p8 are dropped from tournament #1." in [
            m.text for m in out]
        clock.now += 61
        await service.tick()
        tour = Tournament.from_dict((await state(service, tid))["t"])
        table = tour.rounds[0].tables[0]
        assert table.no_shows == ["test:p5&test:p6"] and table.points("test:p1&test:p2") == 1
        assert tour.entrants["test:p7&test:p8"].dropped == 1
        out = await service.drop(P3, tid, where=HERE)  # a partner drops: the pair is out
        assert out[0].text == "p3 leaves tournament #1: p3 & p4 are dropped."
        tour = Tournament.from_dict((await state(service, tid))["t"])
        assert tour.entrants["test:p3&test:p4"].dropped == 1

    run(with_service(tmp_path / "db.sqlite", body, clock=clock, default_timer=None))


def test_waiting_partners_survive_a_restart(db_target: str | Path) -> None:
    path = db_target

    async def first(service: Service) -> None:
        tid, _ = await open_swiss(service, "swiss forty-two rounds=1 target=1")
        await service.register(P1, tid, P2, where=HERE)  # asks p2
        await service.register(P3, tid, where=HERE)  # alone

    async def second(service: Service) -> None:
        out = await service.register(P2, 1, where=HERE)  # accepts, after the restart
        assert out[0].text.startswith("p1 & p2 are registered as partners")
        await service.register(P4, 1, where=HERE)
        out = await service.start_tournament(ORGANISER, 1, where=HERE)
        assert out[0].text.endswith("partners for those registered alone: p3 & p4.")

    for body in (first, second):
        run(with_service(path, body, default_timer=None))
