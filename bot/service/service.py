"""The bot service: tables, lobbies, turns, timers, computer seats, results, ratings.

Platform-neutral and async; adapters (Discord, Telegram, console) call it and deliver what it
returns.  THE CONTRACT adapters rely on (extend it only additively):

* ``Service(store, pictures=Pictures(), ai_delay=1.0, clock=time.time, default_lang="en",
  default_timer=180, miss_limit=3, warn_before=30.0, seed=None)``.
* Every method below is async and returns ``list[Message]`` (see bot/service/messages.py):
  ``start()`` reload unfinished tables and prompt their current players again;
  ``open_table(user, channel, scope, variant, players=None, ai=0, timer=None, options="",
  private=False)``; ``join/leave/add_ai/remove_ai/begin/hand/stop/rematch(user, table_id)``;
  ``press(user, data)`` for any button; ``play(user, table_id, text, turn=None)``;
  ``rules(user, variant)``; ``leaderboard(user, channel, scope, variant=None)`` (scope
  "global" for everywhere); ``stats(user, channel, target=None)``;
  ``history(user, channel, target=None)``; ``export(user, table_id)``;
  ``set_setting(user, scope, key, value, is_admin)``; ``tick()`` plays due computer moves and
  enforces turn timers; ``run(send)`` ticks forever and passes what ticks return to `send`.
  ``find_table(channel, user_id, command, private=False)`` (not a message maker: a table id
  or None) is the table a command typed without a table number means.
* Every message maker also takes ``where=Where(channel, scope, private)`` (bot/service/
  guard.py): where the command or press comes from.  Adapters always pass it; a command on a
  table from another channel is refused with nothing changed.  Every method goes through
  the door (`guard.door`): nothing but messages comes out, whatever the input.
* Ids are platform-prefixed strings: users "discord:<id>", channels "telegram:<chat_id>",
  scopes (a server or group: settings and per-server ratings) "discord:<guild_id>".
* `User(id, name, locale)`: the locale ("fr", "fr-FR", "en-US"...) picks the language of the
  user's private messages; public messages use the server's "lang" setting, else the
  language of the user who opened the table.

Rules the service keeps: one lock per table; every button carries the turn it was offered
for, so a stale, repeated or concurrent press is refused with a clear message and changes
nothing; only the seat to move moves; a user not at a table can do nothing to it.  Every
accepted move is committed (`Store.append_move`) before the reply is returned.  Public
messages are built from the public view only (``game.view(None)``); a player's own view goes
only into a private "hand" message to that player.
"""

from __future__ import annotations

import contextlib
import json
import logging
from typing import Any

from core import DominoError, variants
from core.errors import bad_option
from core.options import parse_pairs

from ..i18n import error_text, t, tn
from ..storage import SeatRow, TableRow
from . import assist, families, levels, stopping
from . import seats as seating
from . import texts as texts  # re-exported (tests read the words through the service)
from .clock import Clock
from .guard import door
from .limits import clip, hosted, solo
from .messages import Message, parse_action
from .numbers import number
from .play import Play
from .results import Results
from .state import COMPUTER, SERVICE, User, missing_row
from .tables import Table, new_game

log = logging.getLogger("domino.service")

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


class Service(Clock):
    """Hosts every table of every channel (the shared state: bot/service/state.py)."""

    # -- the parts' public methods, each behind the door (bot/service/guard.py) ----------------

    play = door("move", table=True)(Play.play)
    hand = door(table=True)(Play.hand)
    hint = door(table=True)(Play.hint)
    stop = door(table=True)(Results.stop)
    rules = door()(Results.rules)
    leaderboard = door()(Results.leaderboard)
    stats = door()(Results.stats)
    history = door()(Results.history)
    export = door(table=True)(Results.export)
    review = door(table=True)(Results.review)
    set_setting = door()(Results.set_setting)

    # -- opening a table -----------------------------------------------------------------------

    @door("open")
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
        if err := self._too_long(user, variant, options):
            return err
        lang = await self._lang(user, scope)
        await self.store.upsert_user(user.id, user.name, user.locale)
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
                stored = await self.store.get_setting(scope, "timer")
                seconds = None if private else int(stored) if stored else self.default_timer
            else:
                seconds = _whole(timer, "timer", 0, 86_400)
            probe = v.new(players=n, seed=0, **opts)  # checks every option now
            invited = invitees(invite, user.id)
        except (DominoError, ValueError) as exc:
            return self._error(user, t(lang, "Cannot open the table: {why}",
                                       why=error_text(lang, exc)))
        if refused := self._over_limits(user, channel, lang, alone=n - n_ai == 1):
            return refused
        public_lang = await self.store.get_setting(scope, "lang") or lang
        seats = [SeatRow(0, user.id, user.name)]
        seats += [SeatRow(i, None, t(public_lang, "Open seat")) for i in range(1, n - n_ai)]
        seats += [SeatRow(i, None, "", ai=level) for i in range(n - n_ai, n)]
        row = TableRow(id=0, channel=channel, scope=scope, host=user.id, variant=v.slug,
                       options={**probe.options, **kept}, players=n, timer=seconds or None,
                       status="lobby", seed=self.rng.getrandbits(62), lang=public_lang,
                       created_at=self.clock(), seats=seats)
        table = Table(row)
        name_computers(table)
        row.id = await self.store.create_table(row)
        if invited:
            await self.store.adapter_set(row.id, SERVICE, "invited", json.dumps(sorted(invited)))
            self._invited[row.id] = invited
        self.tables[row.id] = table
        self._changed[row.id] = self.clock()
        if not table.open_seats():
            async with self._lock(row.id):
                return await self._start(table)
        return self._table_messages(table)

    def _over_limits(self, user: User, channel: str, lang: str, alone: bool
                     ) -> list[Message]:
        """A refusal when opening one more table would pass a limit (bot/service/limits.py)."""
        lim = self.limits
        mine = len(hosted(self.tables.values(), user.id))
        if lim.tables_per_user and mine >= lim.tables_per_user:
            return self._error(user, tn(lang, "You already have {n} open table; finish or stop "
                                        "it first.", "You already have {n} open tables; finish "
                                        "or stop one first.", mine))
        here = len([tb for tb in self.tables.in_channel(channel)  # type: ignore[attr-defined]
                    if tb.row.status in ("lobby", "playing")])
        if lim.tables_per_channel and here >= lim.tables_per_channel:
            return self._error(user, tn(lang, "This channel already has {n} open table; finish "
                                        "or stop it first.", "This channel already has {n} "
                                        "open tables; finish or stop one first.", here))
        games = len(solo(self.tables.values(), user.id))
        if alone and lim.solo_tables_per_user and games >= lim.solo_tables_per_user:
            return self._error(user, tn(lang, "You already play {n} game against the computer; "
                                        "finish or stop it first.", "You already play {n} games "
                                        "against the computer; finish or stop one first.",
                                        games))
        return []

    # -- the lobby -----------------------------------------------------------------------------

    @door(table=True)
    async def join(self, user: User, table_id: int) -> list[Message]:
        """Take a seat in a lobby (the one a rematch keeps for the user, else the first
        open one), or take back one's seat in a game under way from the computer."""
        async with self._lock(table_id):
            table = self.tables.get(table_id)
            if table is not None and table.row.status == "playing":
                return await self._come_back(user, table)
            table, err = await self._lobby_table(user, table_id)
            if err:
                return err
            if table.seat_of(user.id) is not None:
                return self._error(user, self._t(user, table, "You are already at this "
                                                 "table."), table)
            invited = self._invited.get(table_id)
            if invited is not None and user.id not in invited:
                return self._error(user, self._t(user, table, "This table is for invited "
                                                 "players only."), table)
            kept = seating.reserved_seat(table, user.id)
            free = [kept] if kept is not None else seating.free_seats(table)
            if not free:
                return self._error(user, self._t(user, table, "This table is full."), table)
            await self.store.upsert_user(user.id, user.name, user.locale)
            seat = table.row.seats[free[0]]
            seat.user_id, seat.name = user.id, user.name
            await self.store.set_seats(table_id, table.row.seats)
            await self._touch(table_id)
            if table.reserved and not table.open_seats():  # every player of the rematch is in
                return await self._start(table)
            return self._table_messages(table)

    async def _come_back(self, user: User, table: Table) -> list[Message]:
        """A player takes back their seat from the computer (they left, or missed turns).
        Caller holds the lock."""
        seat = seating.away_seat(table, user.id)
        if seat is None:
            text = ("You are already at this table." if table.seat_of(user.id) is not None
                    else "This table has already started.")
            return self._error(user, self._t(user, table, text), table)
        s = table.row.seats[seat]
        s.ai, s.misses = None, 0
        table.leavers.discard(user.id)
        table.bots.pop(seat, None)
        await self.store.update_seat(table.id, seat, ai=None, misses=0)
        await seating.save(self.store, table)
        if table.game.to_move == seat:
            table.ai_due = None
            table.row.deadline, table.row.warned = self._deadline(table), False
            await self.store.update_table(table.id, deadline=table.row.deadline, warned=False)
        await self._lang(user, table.row.scope)
        return [seating.back_message(table, s.name), *self._table_messages(table, prompt=True),
                *self._hand_messages(table, seat)]

    async def _leave_game(self, user: User, table: Table) -> list[Message]:
        """A player leaves a game under way: a computer takes the seat, and the game counts
        as lost for them in the ratings unless they come back. Caller holds the lock."""
        seat = table.seat_of(user.id)
        if seat is None:
            return self._error(user, self._t(user, table, "You are not playing at this "
                                             "table."), table)
        s = table.row.seats[seat]
        s.ai = COMPUTER
        table.leavers.add(user.id)
        await self.store.update_seat(table.id, seat, ai=s.ai)
        await seating.save(self.store, table)
        out = [seating.left_message(table, s.name)]
        if table.game.to_move == seat:
            table.row.deadline = None
            await self.store.update_table(table.id, deadline=None)
            out += await self._computers(table)
        return out

    @door(table=True)
    async def leave(self, user: User, table_id: int) -> list[Message]:
        """Leave a table before it starts (the last human to leave closes it), or a game
        under way (a computer takes the seat; joining again takes it back)."""
        async with self._lock(table_id):
            table = self.tables.get(table_id)
            if table is not None and table.row.status == "playing":
                return await self._leave_game(user, table)
            table, err = await self._lobby_table(user, table_id)
            if err:
                return err
            seat = table.seat_of(user.id)
            if seat is None:
                return self._error(user, self._t(user, table, "You are not at this table."),
                                   table)
            row = table.row
            s = row.seats[seat]
            s.user_id, s.name = None, t(row.lang, "Open seat")
            await self.store.set_seats(table_id, row.seats)
            if not table.humans():
                return await self._close(table, t(row.lang, "Table #{id} is closed: everybody "
                                                  "left.", id=table_id))
            if row.host == user.id:
                row.host = table.humans()[0].user_id or ""
                await self.store.update_table(table_id, host=row.host)
            await self._touch(table_id)
            return self._table_messages(table)

    @door(table=True)
    async def add_ai(self, user: User, table_id: int, level: str | None = None
                     ) -> list[Message]:
        """The host puts a computer player of `level` (easy, normal, hard, expert; normal
        by default) in the last open seat."""
        async with self._lock(table_id):
            table, err = await self._lobby_table(user, table_id, host=True)
            if err:
                return err
            try:
                kind = levels.parse_level(level, COMPUTER)
                levels.check_level(kind, variants.get(table.row.variant))
            except DominoError as exc:
                return self._error(user, self._t(user, table, "Cannot add a computer: {why}",
                                                 why=error_text(self._lang_at(user, table),
                                                                exc)), table)
            free = table.open_seats()
            if not free:
                return self._error(user, self._t(user, table, "This table is full."), table)
            free[0].ai = kind
            name_computers(table)
            await self.store.set_seats(table_id, table.row.seats)
            await self._touch(table_id)
            return self._table_messages(table)

    @door(table=True)
    async def remove_ai(self, user: User, table_id: int) -> list[Message]:
        """The host turns the last computer seat back into an open seat."""
        async with self._lock(table_id):
            table, err = await self._lobby_table(user, table_id, host=True)
            if err:
                return err
            bots = table.computers()
            if not bots:
                return self._error(user, self._t(user, table, "There is no computer seat to "
                                                 "remove."), table)
            bots[-1].ai, bots[-1].name = None, t(table.lang, "Open seat")
            name_computers(table)
            await self.store.set_seats(table_id, table.row.seats)
            await self._touch(table_id)
            return self._table_messages(table)

    @door(table=True)
    async def begin(self, user: User, table_id: int) -> list[Message]:
        """Start the game: the host at any time (open seats get computer players), anyone at
        the table once every seat is taken."""
        async with self._lock(table_id):
            table, err = await self._lobby_table(user, table_id)
            if err:
                return err
            if table.seat_of(user.id) is None:
                return self._error(user, self._t(user, table, "You are not at this table."),
                                   table)
            if user.id != table.row.host and table.open_seats():
                return self._error(user, self._t(user, table, "Only the host can start before "
                                                 "every seat is taken."), table)
            return await self._start(table)

    async def _start(self, table: Table) -> list[Message]:
        """Deal and prompt the first player. Caller holds the lock."""
        row = table.row
        seats = [SeatRow(s.seat, s.user_id, s.name, s.ai, s.misses) for s in row.seats]
        for s in table.open_seats():
            s.ai = COMPUTER
        name_computers(table)
        table.game = new_game(row)
        table.active_at = self.clock()
        row.status = "playing"
        row.deadline, row.warned = self._deadline(table), False
        try:
            await self.store.set_seats(table.id, row.seats)
            await self.store.update_table(table.id, status="playing", deadline=row.deadline,
                                          warned=False)
        except BaseException:  # still a lobby, in memory as on disk
            row.seats, row.status, row.deadline, table.game = seats, "lobby", None, None
            with contextlib.suppress(Exception):
                await self.store.set_seats(table.id, seats)
                await self.store.update_table(table.id, status="lobby", deadline=None)
            raise
        self._changed.pop(table.id, None)
        self._invited.pop(table.id, None)
        if table.game.over:  # over at the deal (a patience with no pair to take): finished
            await self._finish(table)
            return self._table_messages(table)
        out = self._table_messages(table, prompt=True, hands=True)
        return out + await self._computers(table)

    async def _lobby_table(self, user: User, table_id: int, host: bool = False
                           ) -> tuple[Table, list[Message]]:
        table = self.tables.get(table_id)
        if table is None:
            return Table(missing_row(table_id)), await self._no_table(user, table_id)
        if table.row.status != "lobby":
            return table, self._error(user, self._t(user, table, "This table has already "
                                                    "started."), table)
        if host and user.id != table.row.host:
            return table, self._error(user, self._t(user, table, "Only the host can do that."),
                                      table)
        return table, []

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

        live = [tb.row for tb in self.tables.in_channel(channel)  # type: ignore[attr-defined]
                if tb.row.status in statuses]
        found = [r.id for r in live if (not seated or sits(r.seats))
                 and (command != "join" or r.status != "playing" or away(r.seats))]
        if "finished" in statuses:  # not in memory: the newest one, through the index
            last = await self.store.latest_in_channel(channel, ("finished",),
                                                      user_id if seated else None)
            found += [last] if last is not None else []
        if not found and private:
            found = [tb.id for tb in self.tables.values()
                     if tb.row.status in statuses and sits(tb.row.seats)]
            if "finished" in statuses:
                found += [h.table_id for h in await self.store.history(user_id, 1)]
        if command in ("play", "hand"):  # the tables where the user is to move first
            found = seating.to_move_first(self.tables, found, user_id, move)
        return max(found, default=None)

    # -- playing -------------------------------------------------------------------------------

    @door("move")
    async def press(self, user: User, data: str) -> list[Message]:
        """A button press: its data names the table, the turn and what to do."""
        try:
            table_id, turn, verb, arg = parse_action(data)
            if verb not in VERBS:
                raise ValueError(verb)
        except ValueError:
            lang = await self._lang(user)
            return self._error(user, t(lang, "This button is not valid any more."))
        simple = {"j": self.join, "l": self.leave, "a": self.add_ai, "r": self.remove_ai,
                  "s": self.begin, "h": self.hand, "m": self.rematch, "q": self.stop}
        if verb == "a" and arg:  # a computer of a level
            return await self.add_ai(user, table_id, arg)
        if verb == assist.HINT:
            return await self.hint(user, table_id, turn)
        if verb == "q":  # asks first when one press would end the game
            return await stopping.press(self, user, table_id, turn, arg)
        if verb in simple:
            return await simple[verb](user, table_id)
        if verb == "e":
            return await self._choose_end(user, table_id, turn, arg)
        if verb == "u":  # a rules page's section (no table: "0:0:u:<slug>:<section>")
            return await self.rules(user, *arg.split(":", 1)) if ":" in arg else []
        return await self.play(user, table_id, MOVE_TEXT.get(verb, arg), turn=turn)

    # -- a rematch -----------------------------------------------------------------------------

    @door(table=True)
    async def rematch(self, user: User, table_id: int) -> list[Message]:
        """A new table with the same seats, variant, options and timer: a lobby where each
        player of the last game has their seat kept until they join (computer seats stay);
        it starts once they all have, or when the host starts it."""
        async with self._lock(table_id):
            row = await self.store.get_table(table_id)
            lang = await self._lang(user, row.scope if row else None)
            if row is None or row.status != "finished":
                return self._error(user, t(lang, "Only a finished game can be played again."))
            if not any(s.user_id == user.id for s in row.seats):
                return self._error(user, t(lang, "You did not play at this table."))
            again = await self.store.adapter_get(table_id, SERVICE, "rematch")
            if again:
                return self._error(user, t(lang, "The rematch is already on: table #{id}.",
                                           id=again))
            kept = {s.seat: [s.user_id, s.name] for s in row.seats
                    if s.user_id and s.user_id != user.id}
            seats = [SeatRow(s.seat, user.id, user.name) if s.user_id == user.id else
                     SeatRow(s.seat, None, t(row.lang, "Open seat")) if s.user_id else
                     SeatRow(s.seat, None, s.name, s.ai) for s in row.seats]
            new = TableRow(id=0, channel=row.channel, scope=row.scope, host=user.id,
                           variant=row.variant, options=dict(row.options), players=row.players,
                           timer=row.timer, status="lobby", seed=self.rng.getrandbits(62),
                           lang=row.lang, created_at=self.clock(), seats=seats)
            new.id = await self.store.create_table(new)
            await self.store.adapter_set(table_id, SERVICE, "rematch", str(new.id))
        fresh = Table(new, reserved=kept)
        await seating.save(self.store, fresh)
        self.tables[new.id] = fresh
        async with self._lock(new.id):
            if not fresh.open_seats():
                return await self._start(fresh)
            return self._table_messages(fresh)


# Button verbs (see bot/service/messages.py); draw and pass have their own, "p" carries
# the move text.
VERBS = frozenset("jlarshmqepdxu" + assist.HINT)
MOVE_TEXT = {"d": "draw", "x": "pass"}


def name_computers(table: Table) -> None:
    """Number the computer seats of a lobby in seat order: "CPU 1", "CPU 2"... (short: a name
    must fit a seat's panel in the pictures)."""
    for n, s in enumerate(table.computers(), 1):
        s.name = t(table.lang, "CPU {n}", n=n)
    levels.mark_levels(table)


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
