"""The clock: the bot's start, its ticks and its stop.

`start` reloads the unfinished tables after a restart and prompts their players again (or,
when other processes serve the same database, loads them quietly).  `tick` plays the
computer moves that are due, warns and plays for a player whose turn timer ran out, and
closes idle lobbies and idle solo games; `run` ticks forever and `settle` lets the ticks
under way end when the bot stops.  With several processes on one database, a tick takes a
table only when no other process holds it (bot/service/shared.py).  Holds the state, the
play (bot/service/play.py), whose `_apply` and `_computers` it calls, and the results
(`_close`, `_finish`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import sqlite3
from collections.abc import Awaitable, Callable

from core import DominoError

from ..i18n import error_text, lang_for, t, tn
from ..logcontext import platform_of, table_context
from . import outbox, pings, thinking
from . import seats as seating
from .events import Started, TickRan
from .limits import idle_lobbies, idle_solo_games
from .messages import Message
from .play import Play
from .results import Results
from .shared import adopt, tick_guard
from .state import COMPUTER, SERVICE, State
from .tables import Table, rebuild

log = logging.getLogger("domino.service")
SETTLE = 5.0  # seconds the ticks under way may take to finish when the bot stops
REMINDED = "reminded"  # per-table note: the turn whose player had the half-time reminder


class Clock:
    """The start, the ticks (computer moves, turn timers, idle tables) and the stop."""

    def __init__(self, state: State, play: Play, results: Results) -> None:
        self.state = state
        self.play = play  # the moves a tick plays (`_apply`, `_computers`)
        self.results = results  # a table closed idle, a game's end stored at a start
        self._outbox_looked = float("-inf")  # the last look for a dead peer's messages

    async def start(self) -> list[Message]:
        """Reload every unfinished table and prompt its current player again.

        When other bot processes are serving the same database (`store.peers()`), they have
        prompted their tables' players and keep their timers: this process loads the tables
        quietly (no message, no deadline moved), so that restarting one process of several
        does not prompt every player again."""
        quiet = await self.state.store.peers() > 0
        out = await self.state.events.publish(Started(alone=not quiet))
        out += await outbox.recover(self.state, not quiet)  # what a stopped process left unsaid
        for row in await self.state.store.tables(("lobby", "playing")):
            table = Table(row)
            await seating.load(self.state.store, table)
            for s in table.humans():
                await self.state._know_pings(s.user_id)
                locale = await self.state.store.user_locale(s.user_id or "")
                if locale:  # else the table's language, and DOMINO_LANG for new tables
                    self.state._langs.setdefault(s.user_id or "", lang_for(locale))
            if row.status == "lobby":
                ttl = self.state.limits.lobby_ttl
                changed = await self.state._lobby_changed(row)
                if ttl > 0 and self.state.clock() - changed >= ttl:  # expired meanwhile
                    await self.state.store.update_table(row.id, status="stopped")
                    continue
                self.state.tables[row.id] = table
                self.state._changed[row.id] = changed
                invited = await self.state.store.adapter_get(row.id, SERVICE, "invited")
                if invited:
                    self.state._invited[row.id] = frozenset(json.loads(invited))
                if not quiet:
                    out += self.state._table_messages(table)
                continue
            try:
                table.game = rebuild(row, await self.state.store.moves(row.id))
            except DominoError as exc:
                await self.state.store.update_table(row.id, status="stopped")
                out.append(Message(row.channel, t(
                    row.lang, "Table #{id} could not be restored and was stopped: {why}",
                    id=row.id, why=error_text(row.lang, exc)), kind="result", table=row.id))
                continue
            self.state.tables[row.id] = table
            table.active_at = await self.state.store.last_move_at(row.id) or row.created_at
            reminded = await self.state.store.adapter_get(row.id, SERVICE, REMINDED)
            if reminded and reminded.isdigit():
                table.reminded = int(reminded)
            if table.game.over:  # the last move was stored, the result was not
                try:
                    await self.results._finish(table)
                except (DominoError, ValueError, LookupError, OSError, sqlite3.Error):
                    log.error("table %s: the result cannot be stored yet", row.id)
                    continue  # kept in memory, finished; stored at the next start
                out += self.state._table_messages(table)
                continue
            if table.is_ai(table.game.to_move):
                table.ai_due = self.state.clock() + self.state.ai_delay
            if quiet:  # another process serves it: its players were prompted there
                continue
            if row.deadline is not None:  # time to read the re-prompt before the bot plays
                row.deadline = max(row.deadline, self.state.clock() + self.state.warn_before)
                row.warned = False
                await self.state.store.update_table(row.id, deadline=row.deadline, warned=False)
            out += self.state._table_messages(table, prompt=True, hands=True)
        return await self.state._drawn(out)

    # -- the ticks -----------------------------------------------------------------------------

    async def tick(self, wait: float | None = None) -> list[Message]:
        """Play due computer moves and enforce turn timers. Call it often.

        The due tables are handled concurrently, each under its own lock, so that the store
        commits their moves together (group commit); the messages of each table keep their
        order, and a table whose tick fails (logged) does not stop the others.  With `wait`
        (seconds; `run` gives its interval), a table still at work by then (a computer that
        searches for a second) goes on in the background and its messages come with a later
        tick, so that it holds up no other table's computer or timer; a table is never
        ticked twice at once.  Without it, every due table is waited for."""
        now = self.state.clock()
        out: list[Message] = []
        try:  # each part guarded: one that fails (logged) keeps the others' messages
            if self.state.store.shared:
                await adopt(self.state)
        except Exception:
            log.exception("tick: cannot take up the other processes' games")
        try:
            out += await self._expire(now)
        except Exception:
            log.exception("tick: cannot close the idle tables")
        ticking = self.state._ticking
        for table in list(self.state.tables.values()):
            if table.id not in ticking and self._due(table, now):
                with table_context(table.id, platform_of(table.row.channel)):  # its logs'
                    ticking[table.id] = asyncio.ensure_future(self._tick_one(table, now))
        if ticking:
            await asyncio.wait(list(ticking.values()), timeout=wait)
        for table_id, task in list(ticking.items()):
            if task.done():
                del ticking[table_id]
                if not task.cancelled() and task.exception() is None:
                    out += task.result()
        try:
            out = await self.state._pool.draw(out, background=True)
        except Exception:  # the pictures: the words still go out
            log.exception("tick: cannot draw the pictures")
            out = [dataclasses.replace(m, image=None) for m in out]
        if self.state.store.shared and now - self._outbox_looked >= outbox.SWEEP:
            self._outbox_looked = now  # a peer that died: its messages left unsaid
            out += await outbox.recover(self.state, alone=False)
        # the tick's listeners (tournaments: rounds opened, closed, no-shows); one that fails
        # is logged and loses none of the messages above (events.py)
        return out + await self.state.events.publish(TickRan(now))

    async def _expire(self, now: float) -> list[Message]:
        """Close the lobbies nobody changed for `limits.lobby_ttl` seconds, and the games of
        one human with no turn timer that did not move for `limits.solo_ttl`, with a message."""
        lobby_ttl, solo_ttl = self.state.limits.lobby_ttl, self.state.limits.solo_ttl
        out: list[Message] = []
        for table in idle_lobbies(list(self.state.tables.values()), self.state._changed, now,
                                  lobby_ttl):
            out += await self._close_idle(table, "lobby", lambda tb: tn(
                tb.lang, "Table #{id} is closed: nobody started it for {n} minute.",
                "Table #{id} is closed: nobody started it for {n} minutes.",
                max(1, round(lobby_ttl / 60)), id=tb.id))
        for table in idle_solo_games(list(self.state.tables.values()), now, solo_ttl):
            out += await self._close_idle(table, "playing", lambda tb: tn(
                tb.lang, "Table #{id} is closed: no move for {n} day.",
                "Table #{id} is closed: no move for {n} days.",
                max(1, round(solo_ttl / 86400)), id=tb.id))
        return out

    async def _close_idle(self, table: Table, status: str, text: Callable[[Table], str]
                          ) -> list[Message]:
        """Close an idle table that is still `status` once locked, saying `text(table)`."""
        async with self.state._lock(table.id):
            if self.state.tables.get(table.id) is not table or table.row.status != status:
                return []
            try:
                return await self.results._close(table, text(table))
            except Exception:
                log.error("table %s: cannot close the idle %s", table.id, status)
                return []

    def _due(self, table: Table, now: float) -> bool:
        """A computer seat's move or a turn timer (its warning included) is due."""
        game = table.game
        if game is None or game.over:
            return False
        deadline = table.row.deadline
        return ((table.ai_due is not None and now >= table.ai_due)
                or (deadline is not None and now >= deadline - self.state.warn_before)
                or self._reminder_due(table, now))

    def _reminder_due(self, table: Table, now: float) -> bool:
        """Half of the turn's time is gone and its player was not reminded (nor warned)."""
        row, game = table.row, table.game
        return (row.deadline is not None and bool(row.timer) and not row.warned
                and game is not None and table.reminded != game.turn
                and now >= row.deadline - row.timer / 2)

    async def _remind(self, table: Table, now: float) -> list[Message]:
        """The private half-time reminder, once per turn (noted with the table, so that a
        restart does not send it again), unless the warning comes as soon or pings are off."""
        row, game = table.row, table.game
        assert game is not None and row.deadline is not None
        table.reminded = game.turn
        if await self.state.store.adapter_get(table.id, SERVICE, REMINDED) == str(game.turn):
            return []  # another process that served the table sent it
        await self.state.store.adapter_set(table.id, SERVICE, REMINDED, str(game.turn))
        user = row.seats[game.to_move].user_id
        left = row.deadline - now
        if not user or user in self.state._quiet or left <= self.state.warn_before:
            return []
        return [pings.reminder(self.state._user_lang(user, table), table.id, left, row.channel,
                               user)]

    async def _tick_one(self, table: Table, now: float) -> list[Message]:
        if self.state.store.shared:
            return await self._tick_shared(table, now)
        async with self.state._lock(table.id):
            if self.state.tables.get(table.id) is not table:  # stopped or finished meanwhile
                return []
            try:
                return await self._tick_table(table, now)
            except Exception:  # one broken table must not stop the others
                log.exception("table %s: tick failed", table.id)
                return []

    async def _tick_shared(self, table: Table, now: float) -> list[Message]:
        """`_tick_one` for a table other processes may hold: skipped while they do."""
        async with tick_guard(self.state, table.id) as held:
            table = self.state.tables.get(table.id) if held else None  # refreshed
            if table is None or not self._due(table, now):
                return []
            try:
                return await self._tick_table(table, now)
            except Exception:
                log.exception("table %s: tick failed", table.id)
                return []

    async def _tick_table(self, table: Table, now: float) -> list[Message]:
        game = table.game
        if game is None or game.over:
            return []
        seat = game.to_move
        if table.is_ai(seat):
            if table.ai_due is None or now < table.ai_due:
                return []
            out = await self.play._apply(table, seat, await thinking.choose(table, seat))
            on = not game.over and table.is_ai(game.to_move)
            table.ai_due = now + self.state.ai_delay if on else None
            return out
        row = table.row
        deadline = row.deadline
        if deadline is None:
            return []
        s = row.seats[seat]
        lang = row.lang
        if now < deadline:
            if self._reminder_due(table, now) and (said := await self._remind(table, now)):
                return said
            if row.warned or now < deadline - self.state.warn_before:
                return []
            row.warned = True
            await self.state.store.update_table(table.id, warned=True)
            return pings.hush([Message(
                row.channel, t(lang, "{who}, {n} seconds left to play.", who=s.name,
                               n=max(1, round(deadline - now))),
                kind="turn", table=table.id, mention=(s.user_id or "",), named=s.name)],
                              self.state._quiet)
        out = [Message(row.channel, t(lang, "{who} ran out of time: the bot plays for them.",
                                      who=s.name), kind="info", table=table.id)]
        s.misses += 1
        if s.misses >= self.state.miss_limit:
            s.ai = COMPUTER
        await self.state.store.update_seat(table.id, seat, misses=s.misses, ai=s.ai)
        out += await self.play._apply(table, seat, await thinking.choose(table, seat))
        if s.ai:
            out.append(Message(row.channel, t(
                lang, "{who} missed {n} turns: a computer player takes the seat.", who=s.name,
                n=s.misses), kind="info", table=table.id))
        return out + await self.play._computers(table)

    # -- the tick loop -------------------------------------------------------------------------

    async def run(self, send: Callable[[list[Message]], Awaitable[None]],
                  interval: float = 0.25,
                  tick: Callable[..., Awaitable[list[Message]]] | None = None) -> None:
        """Tick forever (`tick`: this clock's, or the facade's as called from outside, which
        bot/metrics.py times), delivering what the ticks produce; a failing tick is logged.
        When cancelled (the bot stops), it lets the tables still at work finish their move
        (at most `SETTLE` seconds) before it ends, so that the store is not closed under
        them."""
        tick = tick or self.tick
        try:
            while True:
                try:
                    messages = await tick(wait=interval)
                    if messages:
                        await send(messages)
                except Exception:
                    log.exception("tick failed")
                await asyncio.sleep(interval)
        finally:
            await self.settle()

    async def settle(self, timeout: float = SETTLE) -> None:
        """Wait for the ticks under way (at most `timeout` seconds), then cancel the rest;
        their messages are dropped (a restart prompts the players again)."""
        tasks = list(self.state._ticking.values())
        self.state._ticking.clear()
        if tasks:
            _, late = await asyncio.wait(tasks, timeout=timeout)
            for task in late:
                task.cancel()
