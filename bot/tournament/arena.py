"""An arena in the service (issue 31): a time-boxed tournament that pairs its players again
as soon as they are free, as lichess's arenas do.

An arena's round is one pairing (a wave): at the tick after a table's end, the entrants then
free are paired among themselves (`Tournament.pair`: score groups; two who just met wait for
someone else to come free, `WAIT` seconds at most, then may meet again) and the wave's
tables open at once while the other tables play on.  Each wave has its own round clock: a
no-show forfeits, and is not paired again.  At the arena's time no wave is paired any more
and a table still waiting for its players is called off (nobody scores there); the games
under way play on and count, and the last one's end brings the final standings and the
podium.  Meanwhile the standings are posted every `STANDINGS` seconds, with a wave.  Every
change is the rounds' compare-and-set: on several processes a wave is paired once; each
wave's time and the wait are in the tournament's row, so a restart loses nothing.
Stands on the rounds (rounds.py); the commands (commands.py) stand on it.
"""

from __future__ import annotations

import json
from typing import Any

from ..i18n import t, tn
from ..service.messages import Message
from ..storage import TournamentRow
from . import words
from .model import Round, TournamentError
from .rounds import Rounds, paired
from .tournament import Tournament

WAIT = 60.0  # seconds two who just met wait for someone else to come free, then may meet
STANDINGS = 600.0  # seconds between two standings posted while an arena runs


def _wave_at(data: dict[str, Any], k: int) -> float:
    """When wave k opened (the first: when the arena started)."""
    return float(data.get("wave_at", {}).get(str(k), data["round_at"]))


def _free(tour: Tournament) -> tuple[list[str], bool]:
    """The entrants still in and at no table under way; whether a table is under way."""
    busy = {e for r in tour.rounds for tb in r.tables if not tb.done for e in tb.entrants()}
    return [e for e in tour.active() if e not in busy], bool(busy)


class Arena(Rounds):
    """The arena's tick: its waves paired and opened, their clocks, its end."""

    async def _tournament_tick(self, row: TournamentRow, now: float) -> list[Message]:
        data = json.loads(row.state)
        if row.status != "running" or data["t"]["config"]["format"] != "arena":
            return await super()._tournament_tick(row, now)
        tour = Tournament.from_dict(data["t"])
        reopened = await self._reopen(row, tour, now)
        if reopened is not None:
            return reopened
        out = await self._wave_clocks(row, tour, data, now)
        ends = tour.config.ends_at
        if not tour.closed and ends is not None and now >= ends:
            out += await self._time_up(row.id)
        fresh = await self.desk.store.tournament(row.id)
        if fresh is None or fresh.status != "running":
            return out
        row, tour = fresh, Tournament.from_dict(json.loads(fresh.state)["t"])
        if not tour.closed:
            return out + await self._next_wave(row.id, now)
        out += await self._call_off(row, tour)
        return out + await self._arena_over(row.id, now)

    async def _wave_clocks(self, row: TournamentRow, tour: Tournament, data: dict[str, Any],
                           now: float) -> list[Message]:
        """Each wave's round clock: its no-shows forfeit (`Rounds._no_shows`), and while the
        arena runs they are not paired again."""
        late = [k for k, rnd in enumerate(tour.rounds, 1)
                if not rnd.done and now >= _wave_at(data, k) + data["clock"]]
        out: list[Message] = []
        for k in late:
            opened = await self.desk.store.tournament_tables(row.id, k)
            out += await self._no_shows(row, tour, opened, k)
        if not late or tour.closed:
            return out
        gone: list[str] = []

        def change(r: TournamentRow, d: dict[str, Any]) -> str | None:
            gone.clear()
            tour = Tournament.from_dict(d["t"])
            if r.status != "running" or tour.closed:
                return None
            for k in late:
                for tb in tour.rounds[k - 1].tables:
                    for e in tb.no_shows:
                        if tour.entrants[e].dropped is None:
                            tour.drop(e)
                            gone.append(e)
            if not gone:
                return None
            d["t"] = tour.to_dict()
            return r.status
        row, data = await self._change(row.id, change)
        if not self._tourney_wrote:
            return out
        who = ", ".join(data["names"].get(e, e) for e in gone)
        return [*out, Message(row.channel, tn(
            data["lang"], "{who} did not come to their table and is no longer paired in "
            "tournament #{id}.", "{who} did not come to their tables and are no longer paired "
            "in tournament #{id}.", len(gone), who=who, id=row.id), kind="info")]

    async def _next_wave(self, tid: int, now: float) -> list[Message]:
        """Pair the free entrants (once, by compare-and-set) and open their tables; note
        when two who just met began to wait; close an arena nobody is left to play in."""
        news: set[str] = set()

        def change(r: TournamentRow, d: dict[str, Any]) -> str | None:
            news.clear()
            tour = Tournament.from_dict(d["t"])
            if r.status != "running" or tour.closed:
                return None
            waiting = d.get("waiting_since")
            free, busy = _free(tour)
            enough = len(free) >= tour.config.per_table
            if not (enough or busy):
                tour.close()  # nobody left to pair: over
                d["t"] = tour.to_dict()
                return r.status
            try:
                rnd = (paired(tour, now=now, rematch=waiting is not None and
                              now - waiting >= WAIT) if enough else Round([]))
            except TournamentError as exc:
                if exc.code != "cannot-pair":
                    raise
                tour.close()  # no wave can be paired: over
                d["t"] = tour.to_dict()
                return r.status
            if not rnd.tables:
                stuck = enough  # those free just met: they wait, `WAIT` at most
                if stuck == (waiting is not None):
                    return None
                d["waiting_since"] = now if stuck else None
                return r.status
            d["t"], d["waiting_since"], d["opening_at"] = tour.to_dict(), None, now
            d.setdefault("wave_at", {})[str(len(tour.rounds))] = now
            news.add("wave")
            if now - d.get("shown_at", d["round_at"]) >= STANDINGS:
                d["shown_at"] = now
                news.add("standings")
            return r.status
        row, data = await self._change(tid, change)
        if not (self._tourney_wrote and "wave" in news):
            return []
        out: list[Message] = []
        if "standings" in news:
            tour = Tournament.from_dict(data["t"])
            lang = data["lang"]
            head = words.time_left(tid, lang, tour.config.ends_at or now, now)
            out.append(Message(row.channel, words.standings(
                tid, lang, tour.standings(), data["names"], len(tour.rounds), False,
                head=head), kind="info"))
        return out + await self._open_round(row, data)

    async def _time_up(self, tid: int) -> list[Message]:
        """The arena's time is up: no wave any more (once, by compare-and-set)."""
        def change(r: TournamentRow, d: dict[str, Any]) -> str | None:
            tour = Tournament.from_dict(d["t"])
            if r.status != "running" or tour.closed:
                return None
            tour.close()
            d["t"] = tour.to_dict()
            return r.status
        row, data = await self._change(tid, change)
        if not self._tourney_wrote:
            return []
        return [Message(row.channel, t(data["lang"], "Tournament #{id}: time is up. No new "
                                       "games; the games under way finish and count.", id=tid),
                        kind="info")]

    async def _call_off(self, row: TournamentRow, tour: Tournament) -> list[Message]:
        """Once the time is up, a table still waiting for its players is closed and counts
        for nobody (every one of its entrants is marked absent: no points)."""
        out: list[Message] = []
        for k, rnd in enumerate(tour.rounds, 1):
            if rnd.done:
                continue
            opened = await self.desk.store.tournament_tables(row.id, k)
            for no, table in enumerate(rnd.tables, 1):
                if table.done or no not in opened:
                    continue
                table_id = opened[no]
                async with self.desk.lock(table_id):
                    live = self.desk.tables.get(table_id)
                    stored = await self.desk.table_row(table_id)
                    if stored is None or stored.status != "lobby":
                        continue
                    await self._record(row.id, k, no, [0.0] * len(table.sides),
                                       table.entrants())
                    if live is not None:
                        out += await self.desk.close(live, t(stored.lang, "Table #{id} is closed: "
                                                             "the tournament's time is up.",
                                                             id=table_id))
        return out

    async def _arena_over(self, tid: int, now: float) -> list[Message]:
        """The time is up and the last game over: the final standings and the podium."""
        def change(r: TournamentRow, d: dict[str, Any]) -> str | None:
            done = Tournament.from_dict(d["t"]).finished
            return "finished" if r.status == "running" and done else None
        row, data = await self._change(tid, change)
        return await self._announce(row, data, now) if self._tourney_wrote else []
