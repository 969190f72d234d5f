"""A whole Swiss tournament played through the service by computer players, and the checks of
its end recomputed from the stored games: shared by tests/test_tournament_64.py and the
benchmark bench/tournament_service.py.

Each player registers by the button; the organiser starts it; at each round every player
joins the table the round opened for them (the table starts when its last player is in),
then misses their turn (a fake clock, a 10-second timer and `miss_limit=1`: the computer
takes the seat), so the games are played to their end by the computers, tick after tick.
"""

from __future__ import annotations

import json
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from bot.service.guard import Where
from bot.service.messages import Message
from bot.service.pictures import NoPictures
from bot.service.service import Service, User
from bot.service.tables import seat_ranks
from bot.storage import Store, TournamentRow
from bot.tournament import Tournament

HERE = Where("bench:chan", "bench:server")


class Clock:
    """A clock the driver moves by hand."""

    now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Opening:
    """How round n's tables came: the call that opened them, its announcements of the
    round, and how many of the round's tables were stored before and after that call."""

    round_no: int
    announcements: int
    before: int
    after: int


@dataclass
class Played:
    """What the driver saw: the tournament at its end, and each round's opening."""

    tid: int
    row: TournamentRow
    tour: Tournament
    tables: dict[int, dict[int, int]]  # round -> table number -> table id
    openings: list[Opening] = field(default_factory=list)
    announced: Counter[int] = field(default_factory=Counter)  # round -> announcements, all
    ticks: int = 0
    wall: float = 0.0
    first_open: float = 0.0  # seconds the organiser's Start took (pair + tables + messages)


def _announced(messages: list[Message], tid: int) -> Counter[int]:
    head = f"Tournament #{tid}, round "
    return Counter(int(m.text[len(head):].split()[0]) for m in messages
                   if m.text.startswith(head))


async def play_swiss(store: Store, players: int = 64, rounds: int = 6, seats: int = 4,
                     variant: str = "classic") -> Played:
    """Open, fill, start and play a `fill=on` Swiss to its end through the service."""
    clock = Clock()
    service = Service(store, pictures=NoPictures(), ai_delay=0, clock=clock, seed=7,
                      default_timer=10, miss_limit=1, warn_before=0)
    await service.start()
    users = [User(f"bench:{i}", f"p{i}") for i in range(1, players + 1)]
    by_id = {u.id: u for u in users}
    began = time.perf_counter()
    out = await service.open_tournament(
        users[0], HERE.channel, HERE.scope,
        f"swiss {variant} rounds={rounds} seats={seats} fill=on clock=3600",
        is_admin=True, where=HERE)
    tid = int(out[0].text.split("#", 1)[1].split(":", 1)[0])
    register = next(a.data for a in out[0].actions if a.label == "Register")
    for u in users:
        await service.press(u, register, where=HERE)
    start = time.perf_counter()
    said = await service.start_tournament(users[0], tid, where=HERE)
    first_open = time.perf_counter() - start
    openings = [Opening(1, _announced(said, tid)[1], 0,
                        len(await store.tournament_tables(tid, 1)))]
    announced = _announced(said, tid)
    tables: dict[int, dict[int, int]] = {}
    ticks = 0
    for round_no in range(1, rounds + 1):
        tables[round_no] = await store.tournament_tables(tid, round_no)
        for table_id in tables[round_no].values():
            for uid, _ in list(service.tables[table_id].reserved.values()):
                await service.join(by_id[uid], table_id, where=HERE)
        while True:  # tick until the round's end opened the next one (or ended it all)
            before = len(await store.tournament_tables(tid, round_no + 1))
            clock.now += 11
            said = await service.tick()
            ticks += 1
            heard = _announced(said, tid)
            announced += heard
            after = len(await store.tournament_tables(tid, round_no + 1))
            if after != before or heard:
                openings.append(Opening(round_no + 1, heard[round_no + 1], before, after))
            row = await store.tournament(tid)
            assert row is not None
            if after or row.status != "running":
                break
            assert ticks < 10_000, "the tournament does not move on"
    row = await store.tournament(tid)
    assert row is not None
    tour = Tournament.from_dict(json.loads(row.state)["t"])
    return Played(tid, row, tour, tables, openings, announced, ticks,
                  time.perf_counter() - began, first_open)


async def recomputed(store: Store, played: Played) -> dict[str, dict[str, float]]:
    """Points, Buchholz and Sonneborn-Berger per player, from the stored games' results
    (one point per seat beaten, a half per seat tied, computers included; the tie-breaks
    over the human opponents, one term per game)."""
    points: dict[str, float] = defaultdict(float)
    met: dict[str, list[tuple[str, float]]] = defaultdict(list)
    for round_no, rnd in enumerate(played.tour.rounds, 1):
        for no, table in enumerate(rnd.tables, 1):
            row = await store.get_table(played.tables[round_no][no])
            assert row is not None and row.status == "finished" and row.result, row
            ranks = seat_ranks(row.result)
            who = played.tour.seats(table)
            for i, a in enumerate(who):
                if a is None:
                    continue
                for j, b in enumerate(who):
                    if j == i:
                        continue
                    got = 1.0 if ranks[i] < ranks[j] else 0.5 if ranks[i] == ranks[j] else 0.0
                    points[a] += got
                    if b is not None:
                        met[a].append((b, got))
    return {e: {"points": points[e], "buchholz": sum(points[o] for o, _ in met[e]),
                "sonneborn_berger": sum(points[o] * r for o, r in met[e])}
            for e in played.tour.entrants}


def repeats(tour: Tournament) -> int:
    """How many times two players met again."""
    met = Counter(frozenset((a, b)) for r in tour.rounds for t in r.tables
                  for a in t.entrants() for b in t.entrants() if a < b)
    return sum(n - 1 for n in met.values())


async def checks(store: Store, played: Played, players: int, rounds: int, seats: int
                 ) -> dict[str, Any]:
    """The end's checks, each True when it holds (and the count of repeat pairings)."""
    tour, n_tables = played.tour, players // seats
    rows = tour.standings()
    mine = await recomputed(store, played)
    seed = {e.id: e.seed for e in tour.entrants.values()}
    order = sorted(mine, key=lambda e: (-mine[e]["points"], -mine[e]["buchholz"],
                                        -mine[e]["sonneborn_berger"], seed[e]))
    return {
        "finished": played.row.status == "finished",
        "points add up": sum(s.points for s in rows) == seats * (seats - 1) / 2 * n_tables
        * rounds,
        "everyone played every round": all(s.games == rounds for s in rows),
        "points and tie-breaks as recomputed": all(
            {"points": s.points, **s.tie_breaks} == mine[s.entrant] for s in rows),
        "ranked by points then Buchholz then Sonneborn-Berger": [s.entrant for s in rows]
        == order,
        "each round opened whole by one call with one announcement": [
            (o.round_no, o.announcements, o.before, o.after) for o in played.openings]
        == [(r, 1, 0, n_tables) for r in range(1, rounds + 1)]
        and played.announced == Counter(range(1, rounds + 1)),
        "repeat pairings": repeats(tour),
    }
