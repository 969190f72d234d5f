"""A fuzz of tournaments through the service (issue 37), shared by the short property run
(tests/test_tournament_fuzz.py) and the long one (bench/tournament_fuzz.py).

Players of several servers act at random, each from their own server's channel: open a
tournament of any format (Swiss, round-robin, knockout, arena; plain, fixed pairs, random
partners; with or without computers, a start time, a short round clock), join, leave,
start, drop, cancel, ask the standings, the record or the list, with the numbers of
tournaments of every server and forged ones (padded, signed, other digits, huge); come to
their tables and play a move; the clock moves on (the service's clock is the driver's)
and the tick runs; now and then the service restarts (a new `Service` on the same SQLite
file).  Then nobody acts any more and the clock runs until every tournament has ended.

Checked all along: no exception escapes a call, no "Something went wrong", no ERROR line
in the log; a command on another server's tournament is refused and changes nothing.  At
the end: every tournament is finished or stopped, each finished one's places are stored,
each player's stored place is their rank in the standings, and each game's recorded result
is the stored game's (`side_scores` of its result).
"""

from __future__ import annotations

import json
import logging
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.service.guard import Where
from bot.service.limits import Limits
from bot.service.messages import Message
from bot.service.pictures import NoPictures
from bot.service.service import Service, User
from bot.storage import open_store
from bot.tournament import Tournament
from bot.tournament.teams import side_scores

SERVERS = 3
USERS_PER_SERVER = 6
FORGED = ["²", "١", "３", "01", "+1", "-1", "1.0", " #1", "##1", "", "0", "9" * 25,
          str(2**62 + 1), "1\u200b", "𝟏", "#", "1 2"]
GAMES = ["classic", "classic", "classic seats=3", "classic seats=4",
         "forty-two partners=random target=1", "partnership target=1"]
BAD = ("Something went wrong", "cannot save")


class Clock:
    now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


class Errors(logging.Handler):
    """The ERROR lines of the service's log."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage()[:300])


@dataclass
class Figures:
    """What a run did, and what it found wrong (`failures` must stay empty)."""

    calls: Counter[str] = field(default_factory=Counter)
    tournaments: Counter[str] = field(default_factory=Counter)  # by final status
    formats: Counter[str] = field(default_factory=Counter)
    restarts: int = 0
    ticks: int = 0
    games_checked: int = 0
    failures: list[str] = field(default_factory=list)

    def total(self) -> int:
        return sum(self.calls.values())


def server(k: int) -> Where:
    return Where(f"fz:chan{k}", f"fz:server{k}")


def tournament_text(rng: random.Random) -> str:
    fmt = rng.choice(["swiss", "swiss", "round-robin", "knockout", "arena"])
    game = rng.choice(GAMES)
    if fmt in ("round-robin", "knockout"):
        game = "classic"  # two a table
    words = [fmt, game, f"clock={rng.choice([30, 60, 300])}"]
    if fmt == "swiss":
        words.append(f"rounds={rng.randint(1, 3)}")
    if fmt == "arena":
        words.append(f"minutes={rng.randint(1, 4)}")
    if rng.random() < 0.5:
        words.append("fill=on")
    if rng.random() < 0.3:
        words.append(f"start={rng.randint(1, 3)}")
    return " ".join(words)


class Fuzz:
    """One run: `await Fuzz(path, seed).run(steps)` (or `seconds=`); its `figures`."""

    def __init__(self, path: Path, seed: int) -> None:
        self.path, self.rng = path, random.Random(seed)
        self.clock = Clock()
        self.users = [(k, User(f"fz:{k}-{i}", f"s{k}p{i}")) for k in range(SERVERS)
                      for i in range(USERS_PER_SERVER)]
        self.by_id = {u.id: u for _, u in self.users}
        self.home = {u.id: k for k, u in self.users}
        self.figures = Figures()
        self.known: dict[int, int] = {}  # tournament id -> its server
        self.errors = Errors()
        self.service: Service | None = None
        self.store: Any = None

    async def _boot(self) -> None:
        self.store = await open_store(self.path)
        self.service = Service(self.store, pictures=NoPictures(), ai_delay=0,
                               clock=self.clock, seed=self.rng.getrandbits(30),
                               default_timer=20, miss_limit=1, warn_before=0,
                               limits=Limits(tournament_registration_ttl=3600))
        await self._call("boot", self.service.start())

    async def _close(self) -> None:
        if self.store is not None:
            await self.store.close()
        self.store = self.service = None

    async def _call(self, name: str, coro: Any) -> list[Message]:
        self.figures.calls[name] += 1
        try:
            out = await coro
        except Exception as exc:  # nothing may escape the service
            self.figures.failures.append(f"{name}: {type(exc).__name__}: {exc}"[:300])
            return []
        for m in out:
            if any(b in m.text for b in BAD):
                self.figures.failures.append(f"{name}: {m.text[:200]}")
        return out

    # -- the operations ----------------------------------------------------------------------

    async def step(self) -> None:
        op = self.rng.choices([self._open_one, self._verb, self._play, self._tick,
                               self._restart], [1, 10, 8, 4, 0.15])[0]
        await op()

    async def _restart(self) -> None:
        await self._close()
        self.figures.restarts += 1
        await self._boot()

    async def _tick(self) -> None:
        assert self.service is not None
        self.clock.now += self.rng.choices([0, 1, 5, 21, 61, 301], [3, 3, 3, 3, 2, 1])[0]
        self.figures.ticks += 1
        await self._call("tick", self.service.tick())

    async def _open_one(self) -> None:
        assert self.service is not None
        k, user = self.rng.choice(self.users)
        at = server(k)
        out = await self._call("open", self.service.open_tournament(
            user, at.channel, at.scope, tournament_text(self.rng),
            is_admin=self.rng.random() < 0.8, where=at))
        for m in out:
            if m.kind != "error" and m.text.startswith("Tournament #"):
                tid = int(m.text.split("#", 1)[1].split(":", 1)[0])
                self.known[tid] = k

    async def _verb(self) -> None:
        service = self.service
        assert service is not None
        k, user = self.rng.choice(self.users)
        verb = self.rng.choices(["join", "leave", "start", "drop", "standings", "export",
                                 "cancel", "list", "nonsense"],
                                [10, 2, 4, 1, 2, 1, 0.4, 0.5, 0.3])[0]
        mine = [t for t, at in self.known.items() if at == k]
        draw = self.rng.random()
        tid: int | None = None
        number: Any = self.rng.choice(FORGED)
        if mine and draw < 0.8:  # a tournament of the user's server (the latest, mostly)
            tid = mine[-1] if self.rng.random() < 0.6 else self.rng.choice(mine)
        elif self.known and draw < 0.9:  # another server's, mostly
            tid = self.rng.choice(list(self.known))
        before = await self.store.tournament(tid) if tid is not None else None
        if tid is not None:
            number = self.rng.choice([tid, str(tid), f"#{tid}", f" {tid} "])
            if verb in ("start", "cancel") and before is not None and self.rng.random() < 0.7:
                user = self.by_id.get(before.organiser, user)  # the organiser, mostly
                k = self.home[user.id]
        at = server(k)
        elsewhere = (tid is not None and self.known[tid] != k
                     and verb not in ("list", "nonsense"))
        button = {"join": "j", "leave": "l", "start": "s", "standings": "v"}.get(verb)
        if button and self.rng.random() < 0.3:  # its button instead ("0:0:t:j12")
            out = await self._call(f"press {verb}", service.press(
                user, f"0:0:t:{button}{str(number).strip()}", where=at))
        else:
            out = await self._call(verb, service.tournament_action(
                user, at.scope, verb, number, is_admin=self.rng.random() < 0.3, where=at))
        if elsewhere:
            after = await self.store.tournament(tid)
            if not any(m.kind == "error" for m in out) or (
                    before is not None and after is not None and
                    after.version != before.version):
                self.figures.failures.append(f"{verb} from server {k} acted on #{tid} of "
                                             f"server {self.known[tid]}")

    async def _play(self) -> None:
        """A player comes to their table, or plays a move where it is their turn."""
        service = self.service
        assert service is not None
        tables = [tb for tb in service.tables.values() if tb.row.host == ""]
        if not tables:
            return await self._tick()
        table = self.rng.choice(tables)
        at = Where(table.row.channel, table.row.scope)
        if table.row.status == "lobby":
            waiting = [uid for uid, _ in table.reserved.values()
                       if not any(s.user_id == uid for s in table.row.seats)]
            if waiting:
                user = self.by_id[self.rng.choice(waiting)]
                await self._call("come", service.join(user, table.id, where=at))
            return None
        game = table.game
        if game is None or game.over or table.is_ai(game.to_move):
            return None
        uid = table.row.seats[game.to_move].user_id
        if uid not in self.by_id:
            return None
        user = self.by_id[uid]
        hand = [m for m in await self._call("hand", service.hand(user, table.id, where=at))
                if m.kind == "hand" and m.to == uid]
        moves = [a.data for m in hand[-1:] for a in m.actions if a.enabled]
        if moves:
            out = await self._call("move", service.press(user, self.rng.choice(moves),
                                                         where=at))
            if out and out[0].actions and ":e:" in out[0].actions[0].data:
                await self._call("move", service.press(user, out[0].actions[0].data,
                                                       where=at))
        return None

    # -- the run -----------------------------------------------------------------------------

    async def run(self, steps: int = 0, seconds: float = 0.0) -> Figures:
        log = logging.getLogger("domino")
        log.addHandler(self.errors)
        try:
            await self._boot()
            began = time.perf_counter()
            n = 0
            while (n < steps) if steps else (time.perf_counter() - began < seconds):
                await self.step()
                n += 1
            await self._drain()
            await self._final_checks()
        finally:
            log.removeHandler(self.errors)
            await self._close()
        self.figures.failures += [f"ERROR logged: {line}" for line in self.errors.lines]
        return self.figures

    async def _drain(self) -> None:
        """Nobody acts any more: the clock runs (round clocks, turn timers, arenas' ends,
        the registrations' time to live) until every tournament has ended."""
        assert self.service is not None
        for _ in range(3000):
            rows = await self.store.tournaments(("registration", "running"))
            if not rows:
                return
            self.clock.now += 31
            self.figures.ticks += 1
            await self._call("tick", self.service.tick())
        rows = await self.store.tournaments(("registration", "running"))
        self.figures.failures += [f"tournament #{r.id} never ends ({r.status})" for r in rows]

    async def _final_checks(self) -> None:
        store = self.store
        for tid in sorted(self.known):
            row = await store.tournament(tid)
            assert row is not None
            self.figures.tournaments[row.status] += 1
            data = json.loads(row.state)
            tour = Tournament.from_dict(data["t"])
            self.figures.formats[tour.config.format] += 1
            if row.status == "finished" and tour.entrants:  # each one's place, as ranked
                for s in tour.standings():
                    for member in filter(None, tour.entrants[s.entrant].members):
                        places = [p.place for p in await store.tournament_places(member)
                                  if p.tournament_id == tid]
                        if places != [s.rank]:
                            self.figures.failures.append(
                                f"#{tid}: {member} placed {places}, ranked {s.rank}")
            for n, rnd in enumerate(tour.rounds, 1):
                linked = await store.tournament_tables(tid, n)
                for no, table in enumerate(rnd.tables, 1):
                    stored = await store.get_table(linked[no]) if no in linked else None
                    if stored is None or stored.status != "finished" or not stored.result:
                        continue
                    self.figures.games_checked += 1
                    if not table.done or table.no_shows:
                        self.figures.failures.append(f"#{tid} round {n} table {no}: the game "
                                                     "ended, the tournament did not record it")
                    elif table.scores != side_scores(stored.result, []):
                        self.figures.failures.append(
                            f"#{tid} round {n} table {no}: recorded {table.scores}, the game "
                            f"says {side_scores(stored.result, [])}")
