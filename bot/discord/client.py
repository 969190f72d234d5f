"""The Discord client: the service behind `/domino` slash commands and buttons (discord.py).

It only translates: a command or a click becomes a service call, and the service's
messages are put on Discord by `Delivery` (bot/discord/delivery.py).  Every interaction
is deferred first (within Discord's 3 seconds), then answered with followups.  Buttons
are dynamic items (bot/discord/views.py) and keep working after a restart.  Messages
made outside an interaction (computer moves, timers, re-prompts after a restart) arrive
through the router of bot/app.py, for which this client registers as "discord".
`run_discord` (bot/discord/adapter.py) starts it, or its sharded form (bot/discord/shards.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import discord
from discord import app_commands

from .. import metrics
from ..i18n import lang_for, t
from ..logcontext import table_context
from ..service.guard import Where
from ..service.messages import Message, parse_action
from ..service.service import TABLE_FOR, TOURNAMENT_VERBS, Service, User
from ..service.stopping import answers_question
from ..web.reply import FIND_AS as WEB_FIND
from ..web.reply import table_url, web_reply
from . import activity, views
from .commands import DominoCommands
from .delivery import PLATFORM, Delivery, Reply, discord_id
from .rooms import DiscordRooms
from .text import CommandTranslator
from .views import PageButton, PressButton

log = logging.getLogger("domino.discord")

HAND_VERBS = {"p", "e", "d", "x"}  # buttons of a hand message: its answer replaces it


def user_of(ix: discord.Interaction) -> User:
    return User(f"{PLATFORM}:{ix.user.id}", ix.user.display_name, str(ix.locale.value))


def partner_of(who: discord.User | discord.Member) -> User | str:
    """A tournament partner named by the command's user option: a member of this server
    (Discord resolves one only there), else their name for the service to refuse."""
    if isinstance(who, discord.Member) and not who.bot:
        return User(f"{PLATFORM}:{who.id}", who.display_name)
    return who.display_name


def channel_of(ix: discord.Interaction) -> str:
    return f"{PLATFORM}:{ix.channel_id}"


def where_of(ix: discord.Interaction) -> Where:
    """Where an interaction comes from, for the service's checks (a DM is private)."""
    return Where(channel_of(ix), scope_of(ix), ix.guild_id is None)


def scope_of(ix: discord.Interaction) -> str:
    """The server, or the channel itself for a DM game."""
    return f"{PLATFORM}:{ix.guild_id}" if ix.guild_id else channel_of(ix)


class DominoClient(discord.Client):
    """A discord.py client with the `/domino` commands and the game's buttons."""

    def __init__(self, service: Service, router: Any = None, *, test_guild: int | None = None,
                 sync: bool = True, **options: Any) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # channels of the servers; no privileged intent is needed
        super().__init__(intents=intents, **{"http_trace": metrics.http_trace("discord"),
                                             **options})  # 429s, refusals: bot/metrics.py
        self.service = service
        self.router = router
        self.test_guild = test_guild
        self.sync_commands = sync
        self.tree = app_commands.CommandTree(self)
        self.tree.add_command(DominoCommands(self))
        self.delivery = Delivery(self, service.store)
        views.WEB_URL[:] = [functools.partial(table_url, service, "")]
        views.ACTIVITY[:] = [functools.partial(activity.label_for, service)]
        # a lock lives while a call holds or awaits it: no entry per table number ever named
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = (
            weakref.WeakValueDictionary())
        self._active = 0
        self._quiet = asyncio.Event()
        self._quiet.set()
        self._registered = False

    async def setup_hook(self) -> None:
        # logged in: the REST calls a thread needs work from now on (not only once the
        # gateway is ready), so that a round opened meanwhile gets its threads too
        self.service.rooms.register(PLATFORM, DiscordRooms(self))  # a thread per tournament table
        self.add_dynamic_items(PressButton, PageButton, activity.ActivityButton)
        await self.tree.set_translator(CommandTranslator())
        if self.sync_commands:  # with the Activity's Entry Point command, when it is set up
            await activity.sync(self)

    async def on_ready(self) -> None:
        if self.router is not None and not self._registered:
            self._registered = True
            await self.router.register(PLATFORM, self)

    async def close(self) -> None:
        self.service.rooms.unregister(PLATFORM)
        if self.router is not None and self._registered:
            self.router.unregister(PLATFORM)
        await super().close()

    # -- bookkeeping ----------------------------------------------------------------------

    def _lock(self, table: int | None) -> asyncio.Lock | contextlib.nullcontext[None]:
        """Service call and delivery for one table run one at a time, so that the table
        message is never edited back to an older state."""
        if table is None:
            return contextlib.nullcontext()
        lock = self._locks.get(table)
        if lock is None:
            lock = self._locks[table] = asyncio.Lock()
        return lock

    def table_lock(self, table: int) -> asyncio.Lock | contextlib.nullcontext[None]:
        """The lock under which a table's calls and deliveries run (a thread is archived
        under it, after the table's last message: bot/discord/rooms.py)."""
        return self._lock(table)

    @contextlib.asynccontextmanager
    async def _working(self) -> AsyncIterator[None]:
        self._active += 1
        self._quiet.clear()
        try:
            yield
        finally:
            self._active -= 1
            if not self._active:
                self._quiet.set()

    async def idle(self) -> None:
        """Wait until no interaction is being handled (for tests and shutdown)."""
        await self._quiet.wait()

    async def deliver(self, messages: list[Message]) -> None:
        """Messages made outside an interaction (the router calls this)."""
        async with self._working():
            await self.wait_until_ready()
            groups: dict[int | None, list[Message]] = {}
            for m in messages:
                groups.setdefault(m.table, []).append(m)
            for table, group in groups.items():
                with table_context(table, PLATFORM):
                    async with self._lock(table):
                        await self.delivery.send(group)

    # -- interactions -----------------------------------------------------------------------

    async def on_press(self, ix: discord.Interaction, data: str) -> None:
        """A click on one of the service's buttons."""
        async with self._working():
            await ix.response.defer()  # within 3 s, before any database work
            try:
                table, _, verb, _ = parse_action(data)
            except ValueError:
                table, verb = None, ""
            user = user_of(ix)
            reply = Reply(ix, user.id, lang_for(user.locale), in_place=verb in HAND_VERBS)
            with table_context(table, PLATFORM):
                await self._answer(reply, table, lambda: self.service.press(
                    user, data, where=where_of(ix)))
                if answers_question(data):  # the question is answered: its button goes
                    with contextlib.suppress(discord.HTTPException):
                        await ix.edit_original_response(view=None)

    async def on_page(self, ix: discord.Interaction, table: int, page: int) -> None:
        """Another page of a hand of more than 20 tiles."""
        async with self._working():
            await ix.response.defer()
            user = user_of(ix)
            reply = Reply(ix, user.id, lang_for(user.locale), in_place=True, page=page)
            await self._answer(reply, table, lambda: self.service.hand(user, table,
                                                                       where=where_of(ix)))

    async def command(self, ix: discord.Interaction, name: str, **options: Any) -> None:
        """A /domino sub-command: defer (only the user sees the answer), then ask."""
        async with self._working():
            await ix.response.defer(ephemeral=True, thinking=True)
            user = user_of(ix)
            reply = Reply(ix, user.id, lang_for(user.locale), original_free=True)
            try:
                await self._command(ix, user, reply, name, options)
            finally:
                if reply.original_free:  # nothing private to say: remove "thinking..."
                    with contextlib.suppress(discord.HTTPException):
                        await ix.delete_original_response()

    async def _command(self, ix: discord.Interaction, user: User, reply: Reply, name: str,
                       options: dict[str, Any]) -> None:
        table = options.pop("table", None)
        if name == "hand" and options["where"]:  # where hands go from now on
            await self.service.store.user_pref_set(user.id, PLATFORM, "hand", options["where"])
        if name in TABLE_FOR or name == "web":  # /domino web: bot/web/reply.py
            table = table or await self.service.find_table(
                channel_of(ix), user.id, WEB_FIND if name == "web" else name,
                private=ix.guild_id is None)
            if table is None:
                await self.delivery.ephemeral(reply, Message(
                    "", _no_table(reply.lang, name, options), to=user.id, kind="error"))
                return
        await self._answer(reply, table, lambda: self._call(ix, user, name, table, options))

    async def _answer(self, reply: Reply, table: int | None,
                      call: Callable[[], Awaitable[list[Message]]]) -> None:
        async with self._lock(table):
            try:
                messages = await call()
            except Exception:
                log.exception("a Discord interaction failed")
                messages = [Message("", t(reply.lang, "Something went wrong; nothing was "
                                          "changed. Please try again."), to=reply.user,
                                    kind="error")]
            await self.delivery.send(messages, reply)

    async def _call(self, ix: discord.Interaction, user: User, name: str, table: int | None,
                    o: dict[str, Any]) -> list[Message]:
        s = self.service
        at = where_of(ix)
        if name == "start":
            return await s.open_table(user, channel_of(ix), scope_of(ix), o["variant"],
                                      players=o["players"], ai=o["ai"] or 0, timer=o["timer"],
                                      options=o["options"] or "", where=at)
        if table is not None and name in ("join", "leave", "stop", "rematch"):
            return await getattr(s, name)(user, table, where=at)
        if name == "add-ai" and table is not None:
            return await s.add_ai(user, table, o["level"], where=at)
        if name == "review" and table is not None:
            return await s.review(user, table, where=at)
        if name == "hand" and table is not None:
            return await s.hand(user, table, where=at)
        if name == "play" and table is not None:
            return await s.play(user, table, o["move"], where=at)
        if name == "web" and table is not None:
            return await web_reply(s, user, table, lang_for(user.locale), channel_of(ix))
        if name == "rules":
            return await s.rules(user, o["variant"], where=at)
        if name == "leaderboard":
            scope = "global" if o["scope"] == "global" else scope_of(ix)
            if o.get("season") is not None:
                return await s.season_leaderboard(user, channel_of(ix), scope, o["season"],
                                                  o["variant"], where=at)
            return await s.leaderboard(user, channel_of(ix), scope, o["variant"], where=at)
        if name in ("stats", "history"):
            target = f"{PLATFORM}:{o['user'].id}" if o["user"] else None
            return await getattr(s, name)(user, channel_of(ix), target, where=at)
        if name == "settings":
            return await self._settings(ix, user, o)
        if name == "pings":
            return await s.set_pings(user, o["state"] or "", where=at)
        if name == "tournament":
            return await self._tournament(ix, user, o)
        raise ValueError(f"unknown command {name}")

    async def _tournament(self, ix: discord.Interaction, user: User, o: dict[str, Any]
                          ) -> list[Message]:
        """/domino tournament what:<format game options> (server managers, or anyone where
        the server's setting says so), what:list, or
        what:join|leave|start|standings|drop|export|cancel number:N (cancel: the organiser
        or a server manager)."""
        s, at = self.service, where_of(ix)
        words = str(o["what"]).split()
        admin = ix.guild_id is None or ix.permissions.manage_guild
        if words and words[0].lower() in TOURNAMENT_VERBS and len(words) <= 2:
            number = o["number"] if o["number"] is not None else (  # the service reads it
                words[1] if len(words) > 1 else "")
            mate = partner_of(o["partner"]) if o.get("partner") is not None else None
            return await s.tournament_action(user, scope_of(ix), words[0], number, mate,
                                             admin, where=at)
        return await s.open_tournament(user, channel_of(ix), scope_of(ix), o["what"], admin,
                                       where=at)

    async def _settings(self, ix: discord.Interaction, user: User, o: dict[str, Any]
                        ) -> list[Message]:
        admin = ix.guild_id is None or ix.permissions.manage_guild
        out: list[Message] = []
        for key in ("lang", "timer", "season"):
            if o.get(key) is not None:
                out += await self.service.set_setting(user, scope_of(ix), key, str(o[key]),
                                                      admin, where=where_of(ix))
        if not out:
            out = [Message("", t(lang_for(user.locale), "Give a language or a timer: /domino "
                                 "settings lang:fr timer:120."), to=user.id, kind="error")]
        return out


def _no_table(lang: str, name: str, options: dict[str, Any]) -> str:
    """The answer to a command that found no table here (`/domino hand where:` still saved
    where hands go)."""
    if name == "hand" and options["where"] == "dm":
        return t(lang, "From now on, your hands come by direct message.")
    if name == "hand" and options["where"] == "here":
        return t(lang, "From now on, your hands are shown here, only to you.")
    return t(lang, "There is no table for that here. Open one with /domino start.")


__all__ = ["DominoClient", "discord_id"]
