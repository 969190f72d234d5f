"""A tournament's rounds (issue 31): paired, opened, closed and scored.

A tournament's row (store: `tournaments`) holds its state as JSON: bot/tournament's
`Tournament.to_dict()` under "t", and the service's notes (game, options, round clock,
registration window, public language, names, when the round opened).  Every change is a
compare-and-set on the row's version (`_change`): on several processes a round is paired
and opened once.  Each round's tables are lobbies, each in its room (a Discord thread, a
Telegram forum topic: bot/tournament/rooms.py) or in the tournament's channel, whose human
seats are kept for their players (as a rematch's); computers sit where the organiser allows
(`fill`).  The tournaments are a client of the table service (issue 38): they use it
through its `Desk` (bot/service/desk.py) and hear of it by events (bot/service/events.py):
a table's end (`GameFinished`) records its result, a leaver (`SeatLeft`) is dropped, and
each tick (`TickRan`) opens the next round or announces the podium, starts a tournament
whose registration window closed, and forfeits the no-shows at the round clock.  Everything
is in the store: a restart loses nothing (`Started`: they are all looked at again).  Stands
on no class; the arena (arena.py) and the commands (commands.py) stand on it.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
from collections.abc import Callable
from typing import Any

from ..i18n import t, tn
from ..service import seats as seating
from ..service.desk import Desk
from ..service.events import GameFinished, SeatLeft, Started, TickRan, TournamentNoticed
from ..service.lobby import name_computers
from ..service.messages import Message
from ..service.state import COMPUTER, User
from ..service.tables import Table
from ..storage import SeatRow, TableRow, TournamentRow
from . import teams, words
from .model import Round, TournamentError
from .rooms import RoomRegistry
from .tournament import Tournament

log = logging.getLogger("domino.service")

OPEN = ("registration", "running")
CLAIM = 60.0  # seconds a process's claim to open a round's tables holds
EVERY = 1.0  # seconds between two looks at the tournaments under way
REPAIR = 600.0  # seconds between two looks for finished tournaments without their places
Change = Callable[[TournamentRow, dict[str, Any]], str | None]
Said = Callable[[str, dict[str, Any]], list[Message]]  # what a change says (status, state)


def paired(tour: Tournament, **kw: Any) -> Round:
    """`tour.pair(**kw)`, where any failure of the pairing's code is a TournamentError
    ("cannot-pair", logged), which ends the registration, the round or the arena in words
    instead of failing every tick after."""
    try:
        return tour.pair(**kw)
    except TournamentError:
        raise
    except Exception:
        log.exception("tournament: a round cannot be paired")
        raise TournamentError("cannot-pair") from None


class Rounds:
    """A tournament's rounds: opened, closed and scored by the tick; its state changed by
    compare-and-set."""

    def __init__(self, desk: Desk) -> None:
        self.desk = desk  # the table service, as its clients see it
        self.rooms = RoomRegistry()  # the platforms' rooms for tables: adapters register
        self._tourney_looked = float("-inf")
        self._tourney_due = True
        self._tourney_wrote = False  # whether the last `_change` wrote (else: nothing to do)
        self._places_looked = float("-inf")
        # when this process started alone on the database: a claim older is a dead process's
        self._alone_since: float | None = None

    def subscribe(self) -> None:
        """Hear of the tables' events: the start, the ticks, the ends, the leavers."""
        events = self.desk.events
        events.subscribe(Started, self._on_started)
        events.subscribe(TickRan, self._on_tick)
        events.subscribe(GameFinished, self._on_game_finished)
        events.subscribe(SeatLeft, self._on_seat_left)
        events.subscribe(TournamentNoticed, self._on_noticed)

    async def _on_noticed(self, event: TournamentNoticed) -> None:
        """Another process changed a tournament: look at them at the next tick."""
        self._tourney_due = True

    async def _change(self, tournament_id: int, change: Change, pairs: bool = False,
                      said: Said | None = None) -> tuple[TournamentRow, dict[str, Any]]:
        """Read, change and write the tournament by compare-and-set, again while another
        writer comes first.  `change` returns the new status (None: nothing to write).  A
        change that `pairs` a round runs in a worker thread: the FIDE Dutch of a large Swiss
        takes a tenth of a second or more, which the tables' presses must not wait for.
        What the change `said` (keyed messages) is written with it, in the outbox
        (bot/service/outbox.py)."""
        for _ in range(50):
            row = await self.desk.store.tournament(tournament_id)
            if row is None:
                raise TournamentError("unknown-tournament")
            data = json.loads(row.state)
            status = (await asyncio.to_thread(change, row, data) if pairs else
                      change(row, data))
            if status is None:
                self._tourney_wrote = False
                return row, data
            state = json.dumps(data)
            rows = self.desk.outbox_rows(said(status, data)) if said else ()
            if await self.desk.store.save_tournament(row.id, row.version, status, state,
                                                     outbox=rows):
                row.status, row.state, row.version = status, state, row.version + 1
                self._tourney_due = self._tourney_wrote = True
                return row, data
        raise TournamentError("busy")

    async def _begin_tournament(self, tournament_id: int) -> list[Message]:
        """Pair round 1 (once, by compare-and-set) and open its tables."""
        now = self.desk.clock()
        alone: list[Any] = []  # fixed pairs: those registered alone, paired now

        def change(row: TournamentRow, data: dict[str, Any]) -> str | None:
            if row.status != "registration":
                raise TournamentError("started")
            if data["t"]["config"]["format"] == "arena":  # its time runs from the start
                data["t"]["config"]["ends_at"] = now + data.get("minutes", 60) * 60
            tour = Tournament.from_dict(data["t"])
            alone[:] = teams.pair_leftovers(data, tour, data["lang"])
            if not paired(tour, now=now).tables:
                raise TournamentError("too-few-entrants")
            data["t"], data["round_at"], data["opening_at"] = tour.to_dict(), now, now
            data["announced"] = 0  # round 1's announcement: `_open_round`
            return "running"
        row, data = await self._change(tournament_id, change, pairs=True)
        said = teams.leftovers_said(row.id, data["lang"], data["names"], *alone)
        odd = tuple(alone[1:2]) if alone[1] else ()
        return [*([Message(row.channel, said, kind="info", mention=odd)] if said else []),
                *await self._open_round(row, data)]

    async def _open_round(self, row: TournamentRow, data: dict[str, Any]) -> list[Message]:
        """Open the current round's tables not opened yet (a lobby each, seats kept)."""
        tour = Tournament.from_dict(data["t"])
        n = len(tour.rounds)
        rnd = tour.rounds[-1]
        lang, names = data["lang"], data["names"]
        opened = await self.desk.store.tournament_tables(row.id, n)
        timer = await self.desk.store.get_setting(row.scope, "timer")
        seconds = int(timer) if timer else self.desk.default_timer
        out: list[Message] = []
        shown: list[tuple[int, list[str]]] = []
        places: dict[int, str] = {}  # table id -> where its room is, when it has one
        for no, table in enumerate(rnd.tables, 1):
            players = tour.seats(table)
            if no in opened:
                shown.append((opened[no], [names.get(p, p) if p else "CPU" for p in players]))
                places[opened[no]] = await self._room_link(row, opened[no])
                continue
            room = await self._room(row, lang, n, no, [p for p in players if p])
            kept = {i: [p, names.get(p, p)] for i, p in enumerate(players) if p is not None}
            seats = [SeatRow(i, None, t(lang, "Open seat")) if p else
                     SeatRow(i, None, "", ai=COMPUTER) for i, p in enumerate(players)]
            new = TableRow(id=0, channel=room, scope=row.scope, host="",
                           variant=data["variant"], options=dict(data["options"]),
                           players=len(players), timer=seconds or None, status="lobby",
                           seed=self.desk.rng.getrandbits(62), lang=lang,
                           created_at=self.desk.clock(), seats=seats)
            fresh = Table(new, reserved=kept)
            name_computers(fresh)
            new.id = await self.desk.store.create_table(new, tournament=(row.id, n, no))
            await seating.save(self.desk.store, fresh)
            self.desk.lobby_opened(fresh)
            shown.append((new.id, [names.get(p, p) if p else s.name
                                   for p, s in zip(players, new.seats, strict=True)]))
            places[new.id] = self.rooms.link(room, row.channel)
            out += self.desk.table_messages(fresh)
        text = words.round_opened(row.id, n, tour.total_rounds, lang,
                                  teams.as_sides(shown, tour.config.teams),
                                  [names.get(b, b) for b in rnd.byes], data["clock"], places)
        mention = tuple(e for tb in rnd.tables for e in tour.seats(tb) if e)
        said = Message(row.channel, text, kind="info", mention=mention,
                       outbox=f"t{row.id}:r{n}")

        def announce(r: TournamentRow, d: dict[str, Any]) -> str | None:
            if d.get("announced", 0) >= n:
                return None  # said already (another process), or a later arena wave
            d["announced"] = n
            return r.status
        # the tables are stored: the announcement with the round marked announced, in one
        # transaction (outbox.py); a process that stops before is replaced by `_reopen`
        await self._change(row.id, announce, said=lambda status, d: [said])
        return [said, *out] if self._tourney_wrote else out

    async def _room(self, row: TournamentRow, lang: str, round_no: int, table_no: int,
                    members: list[str]) -> str:
        """The channel of a new table of the round: a room (a thread, a forum topic) where
        the platform opens one, else the tournament's channel.  A process that stops after
        the room is opened and before the table is stored leaves the room empty."""
        title = t(lang, "Tournament #{id} · round {n} · table {table}", id=row.id, n=round_no,
                  table=table_no)
        return await self.rooms.open(row.channel, title, members)

    async def _table_channel(self, table_id: int) -> str:
        stored = await self.desk.table_row(table_id)
        return stored.channel if stored is not None else ""

    async def _room_link(self, row: TournamentRow, table_id: int) -> str:
        return self.rooms.link(await self._table_channel(table_id), row.channel)

    async def _close_rooms(self, row: TournamentRow, round_no: int) -> None:
        """The round is over: its tables' rooms are closed (archived; their messages stay),
        all at once (each waits for its table's last message, not for the others')."""
        try:
            tables = (await self.desk.store.tournament_tables(row.id, round_no)).values()
            await asyncio.gather(*[self.rooms.close(await self._table_channel(tid),
                                                    row.channel, tid) for tid in tables])
        except Exception:  # the rooms stay open: the round goes on
            log.exception("tournament %s: cannot close the rooms of round %s", row.id,
                          round_no)

    async def _on_seat_left(self, event: SeatLeft) -> list[Message]:
        """Leaving a tournament's game under way drops the player from the later rounds
        (as `drop`); the game itself goes on as any left game (the event's publisher holds
        the table's lock)."""
        table, out = event.table, []
        user = User(event.user_id, event.name)
        if user.id not in table.leavers:
            return out
        link = await self.desk.store.table_tournament(table.id)
        if link is None:
            return out
        tid = link[0]

        def change(row: TournamentRow, data: dict[str, Any]) -> str | None:
            tour = Tournament.from_dict(data["t"])
            entrant = tour.entrants.get(teams.entrant_of(tour, user.id) or user.id)
            if row.status != "running" or entrant is None or entrant.dropped is not None:
                return None
            tour.drop(entrant.id)
            data["t"] = tour.to_dict()
            return row.status
        try:
            row, data = await self._change(tid, change)
        except TournamentError:
            log.exception("tournament %s: cannot drop %s", tid, user.id)
            return out
        if not self._tourney_wrote:
            return out
        lang, pair = data["lang"], teams.entrant_of(Tournament.from_dict(data["t"]), user.id)
        text = (t(lang, "{who} left their game: {pair} are dropped from tournament #{id}.",
                  who=user.name, pair=data["names"].get(pair, pair), id=tid)
                if pair and pair != user.id else
                t(lang, "{who} left their game and is dropped from tournament #{id}.",
                  who=user.name, id=tid))
        return [*out, Message(row.channel, text, kind="info")]

    async def _on_game_finished(self, event: GameFinished) -> None:
        """A tournament table's game ended: its result goes into the tournament."""
        table = event.table
        link = await self.desk.store.table_tournament(table.id)
        if link is None:
            return
        tid, round_no, table_no = link
        left = [s.seat for s in table.row.seats
                if s.user_id in table.leavers and s.ai is not None]
        scores = teams.side_scores(table.row.result or {}, left)  # one per side (or team)
        try:
            await self._record(tid, round_no, table_no, scores, [])
        except Exception:  # the game is stored: its end must not fail for the tournament's
            log.exception("tournament %s: cannot record table %s", tid, table.id)

    async def _record(self, tid: int, round_no: int, table_no: int, scores: list[float],
                      no_shows: list[str]) -> None:
        def change(row: TournamentRow, data: dict[str, Any]) -> str | None:
            tour = Tournament.from_dict(data["t"])
            rnd = tour.rounds[round_no - 1] if round_no <= len(tour.rounds) else None
            if rnd is None or rnd.tables[table_no - 1].done:
                return None  # recorded already (another process, or twice)
            tour.record(round_no, table_no, scores, no_shows)
            data["t"] = tour.to_dict()
            return row.status
        await self._change(tid, change)

    async def _on_tick(self, event: TickRan) -> list[Message]:
        """After the tables' tick, the tournaments' (rounds opened, closed, no-shows).  Each
        part is guarded: a part that fails (logged) loses no other part's messages (the
        computers' moves this tick stored are said even when the tournaments cannot be
        read: the tick's own are made before its listeners are told, events.py)."""
        out: list[Message] = []
        now = self.desk.clock()
        if not self._tourney_due and now - self._tourney_looked < EVERY:
            return out
        self._tourney_looked, self._tourney_due = now, False
        more: list[Message] = []
        try:
            rows = await self.desk.store.tournaments(OPEN)
        except Exception:  # looked at again at the next tick
            log.exception("tournaments: cannot read the tournaments under way")
            rows, self._tourney_due = [], True
        for row in rows:
            try:
                more += await self._tournament_tick(row, now)
            except Exception:  # one broken tournament must not stop the others
                log.exception("tournament %s: tick failed", row.id)
        if now - self._places_looked >= REPAIR:
            self._places_looked = now
            await self._repair_places(now)
        try:
            return out + await self.desk.drawn(more)
        except Exception:  # the pictures: the words still go out
            log.exception("tournaments: cannot draw the tick's pictures")
            return out + [dataclasses.replace(m, image=None) for m in more]

    async def _save_places(self, tournament_id: int, tour: Tournament, now: float) -> None:
        """A finished tournament's final places, for the players' pages (once: again, the
        store keeps the first)."""
        ranks = tour.standings()  # both partners of a pair get the pair's place
        await self.desk.store.save_tournament_places(tournament_id, teams.places(tour, ranks), now,
                                                     entrants=len(ranks))

    async def _repair_places(self, now: float) -> None:
        """The places of the finished tournaments that have none: the process that wrote
        "finished" stopped before it wrote them (at a start, then every REPAIR seconds)."""
        try:
            for row in await self.desk.store.unplaced_tournaments():
                log.warning("tournament %s: writing its final places again", row.id)
                await self._save_places(row.id, Tournament.from_dict(json.loads(row.state)["t"]),
                                        now)
        except Exception:
            log.exception("tournaments: cannot write the missing final places")

    async def _on_started(self, event: Started) -> None:
        """The service starts: look at every tournament under way at the next tick."""
        self._tourney_due, self._places_looked = True, float("-inf")
        self._alone_since = self.desk.clock() if event.alone else None

    async def _tournament_tick(self, row: TournamentRow, now: float) -> list[Message]:
        data = json.loads(row.state)
        lang = data["lang"]
        if row.status == "registration":
            starts = data.get("starts_at")
            if starts is None:
                return await self._expire_registration(row, now)
            if now < starts:
                return []
            try:
                return await self._begin_tournament(row.id)
            except TournamentError as exc:  # too few players: the tournament is called off
                await self._change(row.id, lambda r, d: "stopped" if r.status ==
                                   "registration" else None)
                if not self._tourney_wrote:  # another process started it meanwhile
                    return []
                text = (t(lang, "Tournament #{id} is called off: its first round cannot be "
                          "paired.", id=row.id) if exc.code == "cannot-pair" else
                        t(lang, "Tournament #{id} is called off: not enough players.",
                          id=row.id))
                return [Message(row.channel, text, kind="info")]
        tour = Tournament.from_dict(data["t"])
        rnd = tour.rounds[-1]
        reopened = await self._reopen(row, tour, now, data)
        if reopened is not None:
            return reopened
        if rnd.done:
            return await self._next_round(row, now)
        if now >= (data.get("round_at") or now) + data["clock"]:
            opened = await self.desk.store.tournament_tables(row.id, len(tour.rounds))
            return await self._no_shows(row, tour, opened)
        return []

    async def _expire_registration(self, row: TournamentRow, now: float) -> list[Message]:
        """A registration with no start time that its organiser did not start within
        `limits.tournament_registration_ttl` seconds closes (once), its channel told."""
        ttl = self.desk.limits.tournament_registration_ttl
        if ttl <= 0 or now - row.created_at < ttl:
            return []
        row, data = await self._change(row.id, lambda r, d: "stopped" if r.status ==
                                       "registration" else None)
        if not self._tourney_wrote:  # started, cancelled or closed meanwhile
            return []
        hours = max(1, round(ttl / 3600))
        return [Message(row.channel, tn(data["lang"], "Tournament #{id} is closed: nobody "
                                        "started it within {n} hour.", "Tournament #{id} is "
                                        "closed: nobody started it within {n} hours.", hours,
                                        id=row.id), kind="info")]

    async def _reopen(self, row: TournamentRow, tour: Tournament, now: float,
                      data: dict[str, Any] | None = None) -> list[Message] | None:
        """Open the last round's tables a stopped process left unopened, or announce the
        round it left unannounced (once the claim of the process that was at it is old);
        None when they are all open and the round announced (`data`: the row's state, read
        here if not given; a round paired before the outbox counts as announced)."""
        n = len(tour.rounds)
        opened = await self.desk.store.tournament_tables(row.id, n)
        if len(opened) >= len(tour.rounds[-1].tables) and (
                data if data is not None else json.loads(row.state)).get("announced", n) >= n:
            return None

        def claim(r: TournamentRow, d: dict[str, Any]) -> str | None:
            at = d.get("opening_at") or 0
            dead = self._alone_since is not None and at < self._alone_since
            if now - at < CLAIM and not dead:
                return None  # another process is at it
            d["opening_at"] = now
            return r.status
        row, data = await self._change(row.id, claim)
        return await self._open_round(row, data) if self._tourney_wrote else []

    async def _next_round(self, row: TournamentRow, now: float) -> list[Message]:
        """The round is over: the standings, then the next round or the podium."""
        def change(r: TournamentRow, d: dict[str, Any]) -> str | None:
            tour = Tournament.from_dict(d["t"])
            if r.status != "running" or not tour.rounds[-1].done:
                return None
            if tour.finished:
                return "finished"
            try:
                if not paired(tour, now=now).tables:  # nobody left to pair
                    raise TournamentError("arena-closed")
            except TournamentError:  # nobody left to pair: over
                tour.close()
                d["t"] = tour.to_dict()
                return "finished"
            d["t"], d["round_at"], d["opening_at"] = tour.to_dict(), now, now
            d["announced"] = len(tour.rounds) - 1  # the new round's: `_open_round`
            return r.status
        row, data = await self._change(row.id, change, pairs=True,
                                       said=lambda status, d: self._round_said(row, status, d))
        if not self._tourney_wrote:
            return []  # another process did it
        out = await self._announce(row, data, now)
        return out if row.status == "finished" else out + await self._open_round(row, data)

    async def _announce(self, row: TournamentRow, data: dict[str, Any], now: float
                        ) -> list[Message]:
        """The standings after the last round (text and picture), or, once the tournament is
        finished, the final standings, the podium and the places saved (by the process that
        wrote "finished": once)."""
        tour = Tournament.from_dict(data["t"])
        lang, names = data["lang"], data["names"]
        done = row.status == "finished"
        played = len(tour.rounds) - (0 if done else 1)
        await self._close_rooms(row, played)
        ranks = tour.standings()  # the picture: on this round's standings, or on the podium
        image = words.picture(row.id, ranks, names, played, done,
                              self.desk.pictures_for(lang))
        said = self._round_said(row, row.status, data)
        if done:  # the final places (the writer of "finished"; else `_repair_places`)
            await self._save_places(row.id, tour, now)
            return [said[0], dataclasses.replace(said[1], image=image)]
        return [dataclasses.replace(said[0], image=image)]

    def _round_said(self, row: TournamentRow, status: str, data: dict[str, Any]
                    ) -> list[Message]:
        """The words of the standings after the last round (and the podium, once
        `status` is "finished"), keyed for the outbox (`_announce` adds the picture)."""
        tour = Tournament.from_dict(data["t"])
        lang, names = data["lang"], data["names"]
        done = status == "finished"
        played = len(tour.rounds) - (0 if done else 1)
        ranks = tour.standings()
        out = [Message(row.channel, words.standings(row.id, lang, ranks, names, played, done),
                       kind="info", outbox=f"t{row.id}:s{played}")]
        if done:
            top = tour.podium() or [s.entrant for s in ranks[:3]]
            out.append(Message(row.channel, words.podium(row.id, lang, top, names),
                               kind="result", outbox=f"t{row.id}:podium"))
        return out

    async def _no_shows(self, row: TournamentRow, tour: Tournament, opened: dict[int, int],
                        n: int | None = None) -> list[Message]:
        """Round n's clock (the last round's by default) ran out: a table still waiting for
        players is closed, its absent players forfeit (those who came win); a table stopped
        (a lobby closed idle, a game stopped by its players) counts the same: those seated
        at it draw."""
        out: list[Message] = []
        n = n or len(tour.rounds)
        for no, table in enumerate(tour.rounds[n - 1].tables, 1):
            if table.done:
                continue
            tid = opened[no]
            async with self.desk.lock(tid):
                live, stored = self.desk.tables.get(tid), await self.desk.table_row(tid)
                if stored is None or stored.status not in ("lobby", "stopped"):
                    continue
                came = {s.user_id for s in stored.seats if s.user_id and s.ai is None}
                absent = teams.absent(tour, table, came)
                await self._record(row.id, n, no, [0.0] * len(table.sides), absent)
                if live is not None and stored.status == "lobby":
                    out += await self.desk.close(live, t(stored.lang, "Table #{id} is closed: "
                                                         "the round clock ran out.", id=tid))
        return out
