"""Opening a table: a new lobby (`open_table`: its variant, options, timer, computer seats,
invitations and the opener's limits), a rematch of a finished game, and the table a command
typed without a table number means (`find_table`).  Holds the state and the lobby
(bot/service/lobby.py), whose start it calls when a new table needs no one else; the facade
(bot/service/service.py) puts `open_table` and `rematch` behind the door.
"""

from __future__ import annotations

import json
from typing import Any

from core import DominoError, variants
from core.errors import bad_option
from core.options import parse_pairs

from ..i18n import error_text, t, tn
from ..storage import OverLimit, SeatRow, TableRow
from ..storage.queries import table_caps
from . import assist, families, levels
from . import seats as seating
from .events import TableOpened
from .limits import KeyLocks, clip, hosted, solo
from .lobby import Lobby, name_computers
from .messages import Message
from .numbers import number
from .state import COMPUTER, SERVICE, State, User
from .tables import Table

MAX_INVITED = 20
# A command typed without a table number -> (the table statuses it applies to, must the user
# sit at the table).  See `Service.find_table`.
TABLE_FOR: dict[str, tuple[tuple[str, ...], bool]] = {
    "join": (("lobby", "playing"), False), "leave": (("lobby", "playing"), True),
    "begin": (("lobby",), True),
    "hand": (("playing",), True), "play": (("playing",), True),
    "stop": (("lobby", "playing"), True), "rematch": (("finished",), True),
    "add-ai": (("lobby",), True), "review": (("finished",), True),
}


class Opening:
    """New tables: opened, or played again; and the table a command means."""

    def __init__(self, state: State, lobby: Lobby) -> None:
        self.state = state
        self.lobby = lobby  # a table whose seats are all taken starts at once
        self._opening_locks = KeyLocks()  # this process's users opening a table

    async def open_table(self, user: User, channel: str, scope: str, variant: str,
                         players: int | str | None = None, ai: int | str = 0,
                         timer: int | str | None = None, options: dict[str, Any] | str = "",
                         private: bool = False, invite: Any = None) -> list[Message]:
        """Open a table in `channel`; the opener takes seat 0 and is the host.

        `options` is text ("players=3 ai=1 timer=60 draw=block") or a dict; players, ai and
        timer may be given there too.  A table that needs no one else starts at once.
        `timer`: seconds per turn (0: none); by default the server's "timer" setting, else
        `default_timer`, and none in a private game.  `invite` (or the option "invite=...",
        comma-separated): only these users may join (ids, "<@id>" mentions or bare numbers
        of the opener's platform); the opener's limits of open tables apply.
        """
        if err := self.state._too_long(user, variant, options):
            return err
        lang = await self.state._lang(user, scope)
        await self.state.store.upsert_user(user.id, user.name, user.locale)
        await self.state._know_pings(user.id)
        try:
            v = variants.get(variant)
            opts = parse_pairs(options.split()) if isinstance(options, str) else dict(options)
            players = opts.pop("players", players)
            ai = opts.pop("ai", ai)
            timer = opts.pop("timer", timer)
            kept = assist.pop_table_options(opts)  # hints=on: the service's own
            level = levels.parse_level(opts.pop("level", None), COMPUTER)
            levels.check_level(level, v)
            invite = opts.pop("invite", invite)
            kept |= families.pop_table_options(v, opts)  # helpers=on: the service's own
            n = v.check_players(v.default_players if players in (None, "") else players)
            n_ai = _whole(ai, "ai", 0, n - 1)
            if timer in (None, ""):
                stored = await self.state.store.get_setting(scope, "timer")
                seconds = None if private else int(stored) if stored else self.state.default_timer
            else:
                seconds = _whole(timer, "timer", 0, 86_400)
            probe = v.new(players=n, seed=0, **opts)  # checks every option now
            invited = invitees(invite, user.id)
        except (DominoError, ValueError) as exc:
            return self.state._error(user, t(lang, "Cannot open the table: {why}",
                                             why=error_text(lang, exc)))
        public_lang = await self.state.store.get_setting(scope, "lang") or lang
        seats = [SeatRow(0, user.id, user.name)]
        seats += [SeatRow(i, None, t(public_lang, "Open seat")) for i in range(1, n - n_ai)]
        seats += [SeatRow(i, None, "", ai=level) for i in range(n - n_ai, n)]
        row = TableRow(id=0, channel=channel, scope=scope, host=user.id, variant=v.slug,
                       options={**probe.options, **kept}, players=n, timer=seconds or None,
                       status="lobby", seed=self.state.rng.getrandbits(62), lang=public_lang,
                       created_at=self.state.clock(), seats=seats)
        table = Table(row)
        name_computers(table)
        lim = self.state.limits
        # the limits' check and the write are one step: the user's tasks one at a time here
        # (the tables in memory: a solo game's limit), the store's count with its write for
        # every process (a user's tables and a channel's)
        async with self._opening_locks.hold(user.id):
            if refused := self._over_limits(user, channel, lang, alone=n - n_ai == 1):
                return refused
            try:
                row.id = await self.state.store.create_table(row, caps=table_caps(
                    row, lim.tables_per_user, lim.tables_per_channel))
            except OverLimit as over:
                return self._limit_refused(user, lang, over.kind, over.count)
            if invited:  # known before the table is seen
                self.state._invited[row.id] = invited
            self.state.tables[row.id] = table
            self.state._changed[row.id] = self.state.clock()
        if invited:
            await self.state.store.adapter_set(row.id, SERVICE, "invited",
                                               json.dumps(sorted(invited)))
        heard = await self.state.events.publish(TableOpened(table))
        if not table.open_seats():
            async with self.state._lock(row.id):
                return heard + await self.lobby._start(table)
        return heard + self.state._table_messages(table)

    def _limit_refused(self, user: User, lang: str, kind: str, n: int) -> list[Message]:
        """The refusal of a table past the user's limit ("host") or the channel's."""
        if kind == "host":
            return self.state._error(user, tn(
                lang, "You already have {n} open table; finish or stop it first.",
                "You already have {n} open tables; finish or stop one first.", n))
        return self.state._error(user, tn(lang, "This channel already has {n} open table; finish "
                                          "or stop it first.", "This channel already has {n} "
                                          "open tables; finish or stop one first.", n))

    def _over_limits(self, user: User, channel: str, lang: str, alone: bool
                     ) -> list[Message]:
        """A refusal when opening one more table would pass a limit (bot/service/limits.py),
        by the tables in memory (the store counts them all again with its write)."""
        lim = self.state.limits
        mine = len(hosted(self.state.tables.values(), user.id))
        if lim.tables_per_user and mine >= lim.tables_per_user:
            return self._limit_refused(user, lang, "host", mine)
        here = len([tb for tb in self.state.tables.in_channel(channel)  # type: ignore[attr-defined]
                    if tb.row.status in ("lobby", "playing")])
        if lim.tables_per_channel and here >= lim.tables_per_channel:
            return self._limit_refused(user, lang, "channel", here)
        games = len(solo(self.state.tables.values(), user.id))
        if alone and lim.solo_tables_per_user and games >= lim.solo_tables_per_user:
            return self.state._error(user, tn(
                lang, "You already play {n} game against the computer; finish or stop it first.",
                "You already play {n} games against the computer; finish or stop one first.",
                games))
        return []

    async def rematch(self, user: User, table_id: int) -> list[Message]:
        """A new table with the same seats, variant, options and timer: a lobby where each
        player of the last game has their seat kept until they join (computer seats stay);
        it starts once they all have, or when the host starts it."""
        async with self.state._lock(table_id):
            row = await self.state.store.get_table(table_id)
            lang = await self.state._lang(user, row.scope if row else None)
            if row is None or row.status != "finished":
                return self.state._error(user, t(lang, "Only a finished game can be played again."))
            if not any(s.user_id == user.id for s in row.seats):
                return self.state._error(user, t(lang, "You did not play at this table."))
            again = await self.state.store.adapter_get(table_id, SERVICE, "rematch")
            if again:
                return self.state._error(user, t(lang, "The rematch is already on: table #{id}.",
                                                 id=again))
            kept = {s.seat: [s.user_id, s.name] for s in row.seats
                    if s.user_id and s.user_id != user.id}
            seats = [SeatRow(s.seat, user.id, user.name) if s.user_id == user.id else
                     SeatRow(s.seat, None, t(row.lang, "Open seat")) if s.user_id else
                     SeatRow(s.seat, None, s.name, s.ai) for s in row.seats]
            new = TableRow(id=0, channel=row.channel, scope=row.scope, host=user.id,
                           variant=row.variant, options=dict(row.options), players=row.players,
                           timer=row.timer, status="lobby", seed=self.state.rng.getrandbits(62),
                           lang=row.lang, created_at=self.state.clock(), seats=seats)
            new.id = await self.state.store.create_table(new)
            await self.state.store.adapter_set(table_id, SERVICE, "rematch", str(new.id))
        fresh = Table(new, reserved=kept)
        await seating.save(self.state.store, fresh)
        self.state.tables[new.id] = fresh
        heard = await self.state.events.publish(TableOpened(fresh))
        async with self.state._lock(new.id):
            if not fresh.open_seats():
                return heard + await self.lobby._start(fresh)
            return heard + self.state._table_messages(fresh)

    async def find_table(self, channel: str, user_id: str, command: str, *,
                         private: bool = False, move: str | None = None) -> int | None:
        """The table that `command` (a key of TABLE_FOR) typed without a table number means:
        the newest table of `channel` in one of the command's statuses (for most commands,
        one where `user_id` has a seat).  In a private chat with the bot (`private`) where
        there is none, the newest such table the user sits at anywhere.  None when there is
        no such table."""
        statuses, seated = TABLE_FOR[command]

        def sits(seats: list[SeatRow]) -> bool:
            return any(s.user_id == user_id and s.ai is None for s in seats)

        def away(seats: list[SeatRow]) -> bool:  # a computer plays the user's seat
            return any(s.user_id == user_id and s.ai is not None for s in seats)

        live = [tb.row for tb in self.state.tables.in_channel(channel)  # type: ignore[attr-defined]
                if tb.row.status in statuses]
        found = [r.id for r in live if (not seated or sits(r.seats))
                 and (command != "join" or r.status != "playing" or away(r.seats))]
        if "finished" in statuses:  # not in memory: the newest one, through the index
            last = await self.state.store.latest_in_channel(channel, ("finished",),
                                                            user_id if seated else None)
            found += [last] if last is not None else []
        if not found and private:
            found = [tb.id for tb in self.state.tables.values()
                     if tb.row.status in statuses and sits(tb.row.seats)]
            if "finished" in statuses:
                found += [h.table_id for h in await self.state.store.history(user_id, 1)]
        if command in ("play", "hand"):  # the tables where the user is to move first
            found = seating.to_move_first(self.state.tables, found, user_id, move)
        return max(found, default=None)


def _whole(value: Any, name: str, lo: int, hi: int) -> int:
    """`value` as a whole number from `lo` to `hi`, else an `OptionError` naming `name`."""
    bad = bad_option("{name} must be a whole number from {lo} to {hi}", name=name, lo=lo, hi=hi)
    n = number(value, hi)
    if n is None or n < lo:
        raise bad
    return n


def invitees(invite: Any, opener: str) -> frozenset[str] | None:
    """The user ids a lobby is limited to (the opener included), or None for anyone.

    `invite`: text ("<@12>, 34, telegram:56") or user ids; a bare number is an id of the
    opener's platform, a Discord mention "<@12>" a Discord id."""
    if invite in (None, "", ()):
        return None
    words = invite.replace(",", " ").split() if isinstance(invite, str) else list(invite)
    platform = opener.split(":", 1)[0]
    ids = {opener}
    for word in words[:MAX_INVITED]:
        word = str(word).strip()
        mention = word.removeprefix("<@").removeprefix("!").removesuffix(">")
        if word.startswith("<@") and number(mention) is not None:
            ids.add(f"discord:{mention}")
        elif number(word) is not None:
            ids.add(f"{platform}:{word}")
        elif ":" in word and len(word) <= 64:
            ids.add(word)
        else:
            raise bad_option("invite: {who} is not a user id or a mention", who=clip(word, 20))
    return frozenset(ids)
