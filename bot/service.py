"""The bot service: tables, lobbies, turns, timers, computer seats, results.

Platform-neutral and async.  Adapters call its methods with a `User` and get
back a list of `Message` to deliver.  One lock per table; every button
carries the turn it was offered for, so a stale or repeated press changes
nothing.  Every accepted move is committed to the database before the
reply is returned.  Public messages are built from the public view only.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from core import DominoError, IllegalMove, variants
from core.moves import Move
from core.options import parse_pairs

from . import texts
from .i18n import lang_for, t
from .messages import Action, Message, action_data, parse_action
from .pictures import Pictures
from .ratings import rate_game
from .rules_pages import rules_page
from .storage import GamePlayer, RatingRow, SeatRow, Store, TableRow
from .tables import Table, new_game, rebuild, seat_ranks, team_index

MAX_TEXT = 2000
COMPUTER = "greedy"


@dataclass(frozen=True, slots=True)
class User:
    """Who acts: a platform-prefixed id ("discord:123"), a display name, a locale."""

    id: str
    name: str
    locale: str | None = None


class Service:
    """Hosts every table of every channel."""

    def __init__(
        self,
        store: Store,
        *,
        pictures: Pictures | None = None,
        ai_delay: float = 1.0,
        clock: Callable[[], float] = time.time,
        default_lang: str = "en",
        default_timer: int | None = 180,
        miss_limit: int = 3,
        warn_before: float = 30.0,
        seed: int | None = None,
    ) -> None:
        self.store = store
        self.pictures = pictures or Pictures()
        self.ai_delay = ai_delay
        self.clock = clock
        self.default_lang = default_lang
        self.default_timer = default_timer
        self.miss_limit = miss_limit
        self.warn_before = warn_before
        self.tables: dict[int, Table] = {}
        self._finished: dict[int, Table] = {}  # finished this run, for a quick rematch
        self._locks: dict[int, asyncio.Lock] = {}
        self.rng = random.Random(seed)

    # -- start-up ------------------------------------------------------------------

    async def start(self) -> list[Message]:
        """Reload every unfinished table and prompt its current player again."""
        out: list[Message] = []
        for row in await self.store.tables(("lobby", "playing")):
            table = Table(row)
            self.tables[row.id] = table
            if row.status == "playing":
                try:
                    table.game = rebuild(row, await self.store.moves(row.id))
                except DominoError as exc:
                    await self.store.update_table(row.id, status="stopped")
                    row.status = "stopped"
                    out.append(Message(row.channel, t(row.lang, "Table #{id} could not be "
                               "restored and was stopped: {why}", id=row.id, why=exc),
                               table=row.id))
                    continue
                if table.game.to_move is not None and table.is_ai(table.game.to_move):
                    table.ai_due = self.clock() + self.ai_delay
            out += self._table_messages(table, prompt=True)
        return out

    def _lock(self, table_id: int) -> asyncio.Lock:
        lock = self._locks.get(table_id)
        if lock is None:
            lock = self._locks[table_id] = asyncio.Lock()
        return lock

    async def _lang(self, user: User, scope: str | None = None) -> str:
        default = None
        if scope:
            default = await self.store.get_setting(scope, "lang")
        return lang_for(user.locale, default or self.default_lang)

    def _error(self, user: User, channel: str, lang: str, text: str,
               table: int | None = None) -> list[Message]:
        return [Message(channel, text, to=user.id, kind="error", table=table)]

    # -- opening a table -------------------------------------------------------------

    async def open_table(self, user: User, channel: str, scope: str, variant: str,
                         players: int | str | None = None, ai: int | str = 0,
                         timer: int | str | None = None, options: dict[str, Any] | str = "",
                         private: bool = False) -> list[Message]:
        """Open a table in `channel`; the opener takes seat 0 and is the host."""
        lang = await self._lang(user, scope)
        await self.store.upsert_user(user.id, user.name, user.locale)
        try:
            v = variants.get(variant)
            opts = parse_pairs(options.split()) if isinstance(options, str) else dict(options)
            players = opts.pop("players", players)
            ai = opts.pop("ai", ai)
            timer = opts.pop("timer", timer)
            n = v.check_players(v.default_players if players in (None, "") else players)
            n_ai = _whole(ai, "ai", 0, n - 1)
            if timer in (None, ""):
                stored = await self.store.get_setting(scope, "timer")
                seconds = None if private else int(stored) if stored else self.default_timer
            else:
                seconds = _whole(timer, "timer", 0, 86_400) or None
            probe = v.new(players=n, seed=0, **opts)  # checks every option now
        except (DominoError, ValueError) as exc:
            return self._error(user, channel, lang, t(lang, "Cannot open the table: {why}",
                                                      why=exc))
        seats = [SeatRow(0, user.id, user.name)]
        seats += [SeatRow(i, None, t(lang, "Open seat")) for i in range(1, n - n_ai)]
        seats += [SeatRow(i, None, t(lang, "Computer {n}", n=i - (n - n_ai) + 1), ai=COMPUTER)
                  for i in range(n - n_ai, n)]
        row = TableRow(id=0, channel=channel, scope=scope, host=user.id, variant=v.slug,
                       options=dict(probe.options), players=n, timer=seconds, status="lobby",
                       seed=self.rng.getrandbits(62), lang=lang, created_at=self.clock(),
                       seats=seats)
        row.id = await self.store.create_table(row)
        table = Table(row)
        self.tables[row.id] = table
        if not table.open_seats():
            async with self._lock(row.id):
                return await self._start(table)
        return self._table_messages(table)

    # -- the lobby ---------------------------------------------------------------------

    async def join(self, user: User, table_id: int) -> list[Message]:
        async with self._lock(table_id):
            table, err = self._lobby_table(user, table_id)
            if err:
                return err
            lang = table.lang
            if table.seat_of(user.id) is not None:
                return self._error(user, table.row.channel, lang,
                                   t(lang, "You are already at this table."), table_id)
            await self.store.upsert_user(user.id, user.name, user.locale)
            seats = table.row.seats
            free = table.open_seats()
            if free:
                free[0].user_id, free[0].name = user.id, user.name
            elif table.row.players < variants.get(table.row.variant).max_players:
                seats.append(SeatRow(len(seats), user.id, user.name))
                table.row.players += 1
                await self.store.update_table(table_id, players=table.row.players)
            else:
                return self._error(user, table.row.channel, lang,
                                   t(lang, "This table is full."), table_id)
            await self.store.set_seats(table_id, seats)
            return self._table_messages(table)

    async def leave(self, user: User, table_id: int) -> list[Message]:
        async with self._lock(table_id):
            table, err = self._lobby_table(user, table_id)
            if err:
                return err
            seat = table.seat_of(user.id)
            lang = table.lang
            if seat is None:
                return self._error(user, table.row.channel, lang,
                                   t(lang, "You are not at this table."), table_id)
            s = table.row.seats[seat]
            s.user_id, s.name = None, t(lang, "Open seat")
            if not table.humans():
                table.row.status = "stopped"
                await self.store.update_table(table_id, status="stopped")
                await self.store.set_seats(table_id, table.row.seats)
                self.tables.pop(table_id, None)
                return [Message(table.row.channel, t(lang, "Table #{id} is closed: everybody "
                                "left.", id=table_id), kind="table", table=table_id)]
            if table.row.host == user.id:
                table.row.host = table.humans()[0].user_id or ""
                await self.store.update_table(table_id, host=table.row.host)
            await self.store.set_seats(table_id, table.row.seats)
            return self._table_messages(table)

    async def add_ai(self, user: User, table_id: int) -> list[Message]:
        async with self._lock(table_id):
            table, err = self._lobby_table(user, table_id, host=True)
            if err:
                return err
            lang = table.lang
            free = table.open_seats()
            n_ai = sum(1 for s in table.row.seats if s.ai) + 1
            if free:
                free[-1].ai, free[-1].name = COMPUTER, t(lang, "Computer {n}", n=n_ai)
            elif table.row.players < variants.get(table.row.variant).max_players:
                table.row.seats.append(SeatRow(table.row.players, None,
                                               t(lang, "Computer {n}", n=n_ai), ai=COMPUTER))
                table.row.players += 1
                await self.store.update_table(table_id, players=table.row.players)
            else:
                return self._error(user, table.row.channel, lang,
                                   t(lang, "This table is full."), table_id)
            await self.store.set_seats(table_id, table.row.seats)
            return self._table_messages(table)

    async def remove_ai(self, user: User, table_id: int) -> list[Message]:
        async with self._lock(table_id):
            table, err = self._lobby_table(user, table_id, host=True)
            if err:
                return err
            lang = table.lang
            bots = [s for s in table.row.seats if s.ai]
            if not bots:
                return self._error(user, table.row.channel, lang,
                                   t(lang, "There is no computer seat to remove."), table_id)
            bots[-1].ai, bots[-1].name = None, t(lang, "Open seat")
            await self.store.set_seats(table_id, table.row.seats)
            return self._table_messages(table)

    async def begin(self, user: User, table_id: int) -> list[Message]:
        """Start the game: the host at any time (empty seats become computer
        players), anyone at the table once every seat is taken."""
        async with self._lock(table_id):
            table, err = self._lobby_table(user, table_id)
            if err:
                return err
            lang = table.lang
            if table.seat_of(user.id) is None:
                return self._error(user, table.row.channel, lang,
                                   t(lang, "You are not at this table."), table_id)
            if user.id != table.row.host and table.open_seats():
                return self._error(user, table.row.channel, lang,
                                   t(lang, "Only the host can start before every seat is "
                                     "taken."), table_id)
            return await self._start(table)

    async def _start(self, table: Table) -> list[Message]:
        lang = table.lang
        for i, s in enumerate(table.open_seats()):
            s.ai, s.name = COMPUTER, t(lang, "Computer {n}",
                                       n=sum(1 for x in table.row.seats if x.ai) + i + 1)
        table.game = new_game(table.row)
        table.row.status = "playing"
        table.row.deadline = self._deadline(table)
        await self.store.set_seats(table.id, table.row.seats)
        await self.store.update_table(table.id, status="playing", deadline=table.row.deadline,
                                      warned=False)
        out = self._table_messages(table, prompt=True)
        return out + await self._computers(table)

    def _lobby_table(self, user: User, table_id: int, host: bool = False
                     ) -> tuple[Table, list[Message]]:
        table = self.tables.get(table_id)
        if table is None:
            return Table(_missing_row(table_id)), self._no_table(user, table_id)
        lang = table.lang
        if table.row.status != "lobby":
            return table, self._error(user, table.row.channel, lang,
                                      t(lang, "This table has already started."), table_id)
        if host and user.id != table.row.host:
            return table, self._error(user, table.row.channel, lang,
                                      t(lang, "Only the host can do that."), table_id)
        return table, []

    def _no_table(self, user: User, table_id: int) -> list[Message]:
        lang = lang_for(user.locale, self.default_lang)
        return [Message("", t(lang, "There is no open table #{id}.", id=table_id), to=user.id,
                        kind="error")]

    # -- playing -------------------------------------------------------------------------

    async def press(self, user: User, data: str) -> list[Message]:
        """A button press: its data names the table, the turn and what to do."""
        try:
            table_id, turn, verb, arg = parse_action(data)
        except ValueError:
            lang = lang_for(user.locale, self.default_lang)
            return [Message("", t(lang, "This button is not valid any more."), to=user.id,
                            kind="error")]
        lobby = {"j": self.join, "l": self.leave, "a": self.add_ai, "r": self.remove_ai,
                 "s": self.begin}
        if verb in lobby:
            return await lobby[verb](user, table_id)
        if verb == "h":
            return await self.hand(user, table_id)
        if verb == "m":
            return await self.rematch(user, table_id)
        if verb == "q":
            return await self.stop(user, table_id)
        if verb == "e":
            return await self._choose_end(user, table_id, turn, arg)
        text = {"d": "draw", "x": "pass"}.get(verb) or _move_text(arg)
        return await self.play(user, table_id, text, turn=turn)

    async def play(self, user: User, table_id: int, text: str,
                   turn: int | None = None) -> list[Message]:
        """A move by `user`, written as text ("6-4 left") or from a button (with its turn)."""
        async with self._lock(table_id):
            table = self.tables.get(table_id)
            if table is None or table.game is None:
                return self._no_game(user, table_id, table)
            lang = await self._lang(user, table.row.scope)
            channel = table.row.channel
            game = table.game
            if not isinstance(text, str) or len(text) > MAX_TEXT:
                return self._error(user, channel, lang, t(
                    lang, "That text is too long (at most {n} characters).", n=MAX_TEXT),
                    table_id)
            seat = table.seat_of(user.id)
            if seat is None:
                return self._error(user, channel, lang,
                                   t(lang, "You are not playing at this table."), table_id)
            if turn is not None and turn != game.turn:
                return self._error(user, channel, lang, t(
                    lang, "This button is from an earlier turn; the game has moved on."),
                    table_id) + self._hand_messages(table, seat, lang)
            if game.to_move != seat:
                who = texts.seat_label(table.names(), game.to_move)
                return self._error(user, channel, lang,
                                   t(lang, "It is {who}'s turn, not yours.", who=who), table_id)
            try:
                move = game.parse_move(text)
                out = await self._apply(table, seat, move)
            except IllegalMove as exc:
                legal = ", ".join(str(m) for m in game.legal_moves())
                return self._error(user, channel, lang, t(
                    lang, "Not allowed: {why}. You can play: {legal}", why=exc, legal=legal),
                    table_id)
            seat_row = table.row.seats[seat]
            if seat_row.misses:
                seat_row.misses = 0
                await self.store.update_seat(table_id, seat, misses=0)
            return out + await self._computers(table)

    async def _choose_end(self, user: User, table_id: int, turn: int, tile: str
                          ) -> list[Message]:
        """The second step for a tile that fits both ends: offer left and right."""
        table = self.tables.get(table_id)
        if table is None or table.game is None:
            return self._no_game(user, table_id, table)
        lang = await self._lang(user, table.row.scope)
        seat = table.seat_of(user.id)
        if seat is None:
            return self._error(user, table.row.channel, lang,
                               t(lang, "You are not playing at this table."), table_id)
        if turn != table.game.turn or table.game.to_move != seat:
            return self._error(user, table.row.channel, lang, t(
                lang, "This button is from an earlier turn; the game has moved on."), table_id)
        actions = tuple(
            Action(f"{tile} {t(lang, side)}", action_data(table_id, turn, "p", tile + side[0]),
                   style="primary")
            for side in ("left", "right")
        )
        return [Message(table.row.channel, t(lang, "Which end for {tile}?", tile=tile),
                        to=user.id, kind="hand", table=table_id, actions=actions)]

    async def _apply(self, table: Table, seat: int, move: Move) -> list[Message]:
        """Play `move` for `seat`, commit it, and say what happened. Caller holds the lock."""
        game = table.game
        before = game.copy()
        turn = game.turn
        game.play(move)  # IllegalMove leaves the game unchanged
        deadline = self._deadline(table)
        try:
            await self.store.append_move(table.id, turn, seat, str(move), deadline=deadline,
                                         warned=False)
        except BaseException:
            table.game = before
            raise
        table.row.deadline, table.row.warned = deadline, False
        if game.over:
            await self._finish(table)
        return self._table_messages(table, prompt=True, mover=seat, move=move)

    async def _computers(self, table: Table) -> list[Message]:
        """Play the computer seats now (no delay) or schedule the next one."""
        out: list[Message] = []
        game = table.game
        while game is not None and not game.over and table.is_ai(game.to_move):
            if self.ai_delay > 0:
                table.ai_due = self.clock() + self.ai_delay
                return out
            seat = game.to_move
            out += await self._apply(table, seat, table.bot(seat).choose(game))
        table.ai_due = None
        return out

    async def tick(self) -> list[Message]:
        """Play due computer moves and enforce turn timers. Call it often."""
        out: list[Message] = []
        now = self.clock()
        for table in list(self.tables.values()):
            game = table.game
            if game is None or game.over or table.row.status != "playing":
                continue
            due_ai = table.ai_due is not None and now >= table.ai_due
            deadline = table.row.deadline
            due_timer = deadline is not None and now >= deadline - self.warn_before
            if not (due_ai or due_timer):
                continue
            async with self._lock(table.id):
                out += await self._tick_table(table, now)
        return out

    async def _tick_table(self, table: Table, now: float) -> list[Message]:
        game = table.game
        if game is None or game.over:
            return []
        seat = game.to_move
        if table.is_ai(seat):
            if table.ai_due is None or now < table.ai_due:
                return []
            out = await self._apply(table, seat, table.bot(seat).choose(game))
            if not game.over and table.is_ai(game.to_move):
                table.ai_due = now + self.ai_delay
            else:
                table.ai_due = None
            return out
        deadline = table.row.deadline
        if deadline is None:
            return []
        lang = table.lang
        s = table.row.seats[seat]
        if now < deadline:
            if table.row.warned:
                return []
            table.row.warned = True
            await self.store.update_table(table.id, warned=True)
            left = max(1, round(deadline - now))
            return [Message(table.row.channel, t(lang, "{who}, {n} seconds left to play.",
                                                 who=s.name, n=left),
                            kind="turn", table=table.id, mention=(s.user_id or "",))]
        out = [Message(table.row.channel, t(lang, "{who} ran out of time: the bot plays for "
                                            "them.", who=s.name), kind="info", table=table.id)]
        move = table.bot(seat).choose(game)
        out += await self._apply(table, seat, move)
        s.misses += 1
        if s.misses >= self.miss_limit:
            s.ai = COMPUTER
            out.append(Message(table.row.channel, t(
                lang, "{who} missed {n} turns: a computer player takes the seat.", who=s.name,
                n=s.misses), table=table.id))
        await self.store.update_seat(table.id, seat, misses=s.misses, ai=s.ai)
        return out + await self._computers(table)

    def _deadline(self, table: Table) -> float | None:
        game = table.game
        if not table.row.timer or game is None or game.over or table.is_ai(game.to_move):
            return None
        return self.clock() + table.row.timer

    # -- seeing --------------------------------------------------------------------------

    async def hand(self, user: User, table_id: int) -> list[Message]:
        """The user's hand, privately, with their legal moves as buttons."""
        table = self.tables.get(table_id)
        if table is None or table.game is None:
            return self._no_game(user, table_id, table)
        lang = await self._lang(user, table.row.scope)
        seat = table.seat_of(user.id)
        if seat is None:
            return self._error(user, table.row.channel, lang,
                               t(lang, "You are not playing at this table."), table_id)
        return self._hand_messages(table, seat, lang)

    def _hand_messages(self, table: Table, seat: int, lang: str | None = None) -> list[Message]:
        game = table.game
        lang = lang or table.lang
        user = table.row.seats[seat].user_id
        if game is None or user is None or game.over:
            return []
        view = game.view(seat)
        legal = view.get("legal", [])
        turn = view["turn"]
        actions = []
        for tile in view["hand"]:
            placements = [m for m in legal if m.split()[0] == tile]
            if len(placements) > 1:
                data = action_data(table.id, turn, "e", tile)
            elif placements:
                data = action_data(table.id, turn, "p", _move_arg(placements[0]))
            else:
                data = action_data(table.id, turn, "p", tile)
            actions.append(Action(tile, data, style="primary" if placements else "secondary",
                                  enabled=bool(placements), row=1 + len(actions) // 5))
        for word, verb in (("draw", "d"), ("pass", "x")):
            if word in legal:
                actions.append(Action(t(lang, word.capitalize()),
                                      action_data(table.id, turn, verb), style="success",
                                      row=6))
        if legal:
            text = t(lang, "Your hand at table #{id}. Your turn: choose a tile.", id=table.id)
        else:
            text = t(lang, "Your hand at table #{id}.", id=table.id)
        return [Message(table.row.channel, text, to=user, kind="hand", table=table.id,
                        image=self.pictures.hand(view), actions=tuple(actions))]

    def _table_messages(self, table: Table, prompt: bool = False, mover: int | None = None,
                        move: Move | None = None) -> list[Message]:
        """The public table message, and the turn prompt and private hand of the
        player to move (built from the public view and that player's own view)."""
        row = table.row
        lang = row.lang
        names = table.names()
        title = f"#{row.id} · {texts.variant_name(row.variant, lang)}"
        if row.status == "lobby":
            seats = "\n".join(f"{s.seat + 1}. {s.name}" for s in row.seats)
            text = f"{title}\n{t(lang, 'Waiting for players:')}\n{seats}"
            actions = (
                Action(t(lang, "Join"), action_data(row.id, 0, "j"), style="primary"),
                Action(t(lang, "Start"), action_data(row.id, 0, "s"), style="success"),
                Action(t(lang, "Add computer"), action_data(row.id, 0, "a")),
                Action(t(lang, "Remove computer"), action_data(row.id, 0, "r")),
                Action(t(lang, "Leave"), action_data(row.id, 0, "l"), style="danger"),
            )
            return [Message(row.channel, text, kind="table", table=row.id, actions=actions)]
        game = table.game
        view = game.view(None)
        lines = [title]
        if mover is not None and move is not None:
            lines.append(t(lang, "{who} plays {move}.", who=names[mover], move=str(move)))
        lines += texts.events_lines(view, names, lang)
        out: list[Message] = []
        if game.over:
            lines += texts.result_lines(game.result, names, lang)
            actions: tuple[Action, ...] = (
                Action(t(lang, "Rematch"), action_data(row.id, view["turn"], "m"),
                       style="primary"),)
            out.append(Message(row.channel, "\n".join(lines), kind="result", table=row.id,
                               image=self.pictures.public(view, names), actions=actions))
            return out
        lines.append(texts.table_summary(view, names, lang))
        actions = (Action(t(lang, "My hand"), action_data(row.id, view["turn"], "h"),
                          style="primary"),
                   Action(t(lang, "Stop"), action_data(row.id, view["turn"], "q"),
                          style="danger"))
        out.append(Message(row.channel, "\n".join(lines), kind="table", table=row.id,
                           image=self.pictures.public(view, names), actions=actions))
        seat = game.to_move
        human = row.seats[seat].user_id if not table.is_ai(seat) else None
        if prompt and human:
            out.append(Message(row.channel, t(lang, "{who}, your turn.", who=names[seat]),
                               kind="turn", table=row.id, mention=(human,)))
            out += self._hand_messages(table, seat)
        if mover is not None and mover != seat and not table.is_ai(mover):
            out += self._hand_messages(table, mover)
        return out

    def _no_game(self, user: User, table_id: int, table: Table | None) -> list[Message]:
        if table is not None and table.row.status == "lobby":
            lang = table.lang
            return self._error(user, table.row.channel, lang,
                               t(lang, "The game has not started yet."), table_id)
        return self._no_table(user, table_id)

    # -- the end of a game -----------------------------------------------------------------

    async def _finish(self, table: Table) -> None:
        game = table.game
        result = game.result
        row = table.row
        row.status = "finished"
        row.result = result
        ranks = seat_ranks(result)
        humans = [s for s in row.seats if s.user_id and s.ai is None]
        players = [GamePlayer(s.user_id or "", s.seat, s.seat in result["winners"],
                              result["scores"][s.seat], ranks[s.seat]) for s in humans]
        seats = [(s.user_id if s.ai is None else None, team_index(result, s.seat))
                 for s in row.seats]
        ratings: list[RatingRow] = []
        ids = [p.user_id for p in players]
        for scope in dict.fromkeys((row.scope, "global")):
            current = await self.store.ratings(ids, row.variant, scope)
            new = rate_game(seats, ranks, {u: (r.mu, r.sigma) for u, r in current.items()})
            for p in players:
                old = current.get(p.user_id)
                mu, sigma = new[p.user_id]
                ratings.append(RatingRow(p.user_id, row.variant, scope, mu, sigma,
                                         (old.games if old else 0) + 1,
                                         (old.wins if old else 0) + int(p.won)))
        await self.store.finish_game(row.id, game.record(), result, players, ratings)
        self.tables.pop(row.id, None)
        self._finished[row.id] = table

    async def stop(self, user: User, table_id: int) -> list[Message]:
        """Stop a game: the host at once, or when every human player asked."""
        async with self._lock(table_id):
            table = self.tables.get(table_id)
            if table is None:
                return self._no_table(user, table_id)
            lang = table.lang
            if table.seat_of(user.id) is None:
                return self._error(user, table.row.channel, lang,
                                   t(lang, "You are not playing at this table."), table_id)
            table.stop_votes.add(user.id)
            humans = {s.user_id for s in table.humans()}
            if user.id != table.row.host and not humans <= table.stop_votes:
                return [Message(table.row.channel, t(
                    lang, "{who} wants to stop the game ({n} of {total} players agree).",
                    who=user.name, n=len(table.stop_votes & humans), total=len(humans)),
                    table=table_id)]
            table.row.status = "stopped"
            await self.store.update_table(table_id, status="stopped")
            self.tables.pop(table_id, None)
            return [Message(table.row.channel, t(lang, "Table #{id} was stopped.", id=table_id),
                            kind="result", table=table_id)]

    async def rematch(self, user: User, table_id: int) -> list[Message]:
        """A new game with the same seats, variant and options."""
        table = self._finished.get(table_id)
        row = table.row if table else await self.store.get_table(table_id)
        lang = lang_for(user.locale, self.default_lang)
        if row is None or row.status != "finished":
            return [Message("", t(lang, "Only a finished game can be played again."),
                            to=user.id, kind="error")]
        if not any(s.user_id == user.id for s in row.seats):
            return self._error(user, row.channel, row.lang,
                               t(row.lang, "You did not play at this table."), table_id)
        seats = [SeatRow(s.seat, s.user_id, s.name, s.ai) for s in row.seats]
        new = TableRow(id=0, channel=row.channel, scope=row.scope, host=user.id,
                       variant=row.variant, options=dict(row.options), players=row.players,
                       timer=row.timer, status="lobby",
                       seed=self.rng.getrandbits(62), lang=row.lang,
                       created_at=self.clock(), seats=seats)
        new.id = await self.store.create_table(new)
        fresh = Table(new)
        self.tables[new.id] = fresh
        async with self._lock(new.id):
            return await self._start(fresh)

    # -- rules, ratings, history ---------------------------------------------------------------

    async def rules(self, user: User, variant: str) -> list[Message]:
        lang = lang_for(user.locale, self.default_lang)
        try:
            page = rules_page(variant)
        except (DominoError, FileNotFoundError) as exc:
            return [Message("", str(exc), to=user.id, kind="error")]
        english, _, french = page.partition("## Français")
        text = french.strip() if lang == "fr" and french else english.strip()
        return [Message("", text[:MAX_TEXT * 2], to=user.id, kind="rules")]

    async def leaderboard(self, user: User, channel: str, scope: str,
                          variant: str | None = None) -> list[Message]:
        lang = await self._lang(user, scope)
        if variant:
            try:
                variant = variants.get(variant).slug
            except DominoError as exc:
                return self._error(user, channel, lang, str(exc))
        rows = await self.store.leaderboard(variant, scope, 10)
        where = t(lang, "everywhere") if scope == "global" else t(lang, "here")
        what = texts.variant_name(variant, lang) if variant else t(lang, "all games")
        lines = [t(lang, "Leaderboard ({what}, {where})", what=what, where=where)]
        if not rows:
            lines.append(t(lang, "No rated game yet."))
        for i, r in enumerate(rows, 1):
            lines.append(t(lang, "{i}. {name}: {rating:.1f} ({games} games, {rate:.0%} won)",
                           i=i, name=r.name, rating=r.ordinal, games=r.games, rate=r.win_rate))
        return [Message(channel, "\n".join(lines), kind="info")]

    async def stats(self, user: User, channel: str, target: str | None = None) -> list[Message]:
        lang = lang_for(user.locale, self.default_lang)
        who = target or user.id
        name = await self.store.user_name(who) or who
        rows = await self.store.user_stats(who)
        lines = [t(lang, "Statistics of {name}", name=name)]
        if not rows:
            lines.append(t(lang, "No finished game yet."))
        for r in rows:
            lines.append(t(lang, "{variant}: {games} games, {wins} won ({rate:.0%}), rating "
                           "{rating:.1f}", variant=texts.variant_name(r.variant, lang),
                           games=r.games, wins=r.wins, rate=r.win_rate, rating=r.ordinal))
        return [Message(channel, "\n".join(lines), to=user.id, kind="info")]

    async def history(self, user: User, channel: str, target: str | None = None
                      ) -> list[Message]:
        lang = lang_for(user.locale, self.default_lang)
        who = target or user.id
        rows = await self.store.history(who, 10)
        lines = [t(lang, "Last games of {name}", name=await self.store.user_name(who) or who)]
        if not rows:
            lines.append(t(lang, "No finished game yet."))
        for r in rows:
            outcome = t(lang, "won") if r.won else t(lang, "rank {rank}", rank=r.rank)
            lines.append(f"#{r.table_id} · {texts.variant_name(r.variant, lang)} · {outcome} · "
                         f"{r.score}")
        return [Message(channel, "\n".join(lines), to=user.id, kind="info")]

    async def export(self, user: User, table_id: int) -> list[Message]:
        """A finished game's record, as a JSON file that `domino replay` checks."""
        lang = lang_for(user.locale, self.default_lang)
        record = await self.store.game_record(table_id)
        if record is None:
            return [Message("", t(lang, "No finished game #{id}.", id=table_id), to=user.id,
                            kind="error")]
        data = json.dumps(record, indent=1).encode()
        return [Message("", t(lang, "Record of game #{id}.", id=table_id), to=user.id,
                        kind="info", file=(f"domino-{table_id}.json", data))]

    async def set_setting(self, user: User, scope: str, key: str, value: str,
                          is_admin: bool) -> list[Message]:
        lang = await self._lang(user, scope)
        if not is_admin:
            return [Message("", t(lang, "Only server managers can change settings."),
                            to=user.id, kind="error")]
        if key == "lang" and value in ("fr", "en"):
            await self.store.set_setting(scope, key, value)
        elif key == "timer" and value.isdigit() and int(value) <= 86_400:
            await self.store.set_setting(scope, key, value)
        else:
            return [Message("", t(lang, "Settings: lang=fr|en, timer=seconds (0 for none)."),
                            to=user.id, kind="error")]
        return [Message("", t(lang, "Saved: {key} = {value}.", key=key, value=value),
                        to=user.id)]

    async def run(self, send: Callable[[list[Message]], Awaitable[None]],
                  interval: float = 0.25) -> None:
        """Tick forever, delivering what the ticks produce."""
        while True:
            messages = await self.tick()
            if messages:
                await send(messages)
            await asyncio.sleep(interval)


def _whole(value: Any, name: str, lo: int, hi: int) -> int:
    try:
        n = int(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a whole number from {lo} to {hi}") from None
    if not lo <= n <= hi:
        raise ValueError(f"{name} must be a whole number from {lo} to {hi}")
    return n


def _move_arg(move: str) -> str:
    """"6-4 left" -> "6-4l" (button data), "6-4" -> "6-4"."""
    tile, _, end = move.partition(" ")
    return tile + end[:1]


def _move_text(arg: str) -> str:
    """Button data back to move text: "6-4l" -> "6-4 left"."""
    if arg.endswith("l"):
        return arg[:-1] + " left"
    if arg.endswith("r"):
        return arg[:-1] + " right"
    return arg


def _missing_row(table_id: int) -> TableRow:
    return TableRow(id=table_id, channel="", scope="", host="", variant="classic", options={},
                    players=0, timer=None, status="missing", seed=0, lang="en", created_at=0.0)
