"""The Telegram adapter (python-telegram-bot 22): commands and buttons in, messages out.

It only translates: a command or a button press becomes a `Service` call, and
the returned messages go out through `bot.telegram.out.Outbox` (which is also what
the router of bot/app.py calls for messages made outside an update: computer
moves, timers, re-prompts after a restart).  Every callback query is
answered, with the service's error as an alert when there is one.

    await run_telegram(service, router, token, base_url=None)

runs until cancelled.  `base_url` points PTB at a self-hosted Bot API server
(TELEGRAM_API_URL, e.g. "http://127.0.0.1:8081/bot").
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from typing import Any

from telegram import BotCommand, InlineKeyboardButton, InlineKeyboardMarkup, Update, WebAppInfo
from telegram import User as TgUser
from telegram.constants import ChatMemberStatus, ChatType
from telegram.error import TelegramError
from telegram.ext import (
    AIORateLimiter,
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    TypeHandler,
    filters,
)

from core import variants

from .. import metrics
from ..i18n import N_, lang_for, t
from ..logcontext import table_context, table_of
from ..service.guard import Where
from ..service.messages import Message
from ..service.numbers import table_number
from ..service.seasons import season_arg
from ..service.service import Service, User
from ..service.stopping import answers_question
from ..suggest import closest
from ..web.reply import FIND_AS as WEB_FIND
from ..web.reply import miniapp_url, table_url, web_reply
from . import tourney
from .ids import PLATFORM, channel_of, user_id
from .out import Origin, Outbox
from .pacing import Pace
from .rooms import TelegramRooms
from .webhook import ALLOWED_UPDATES, Webhook, start_webhook

log = logging.getLogger("domino.telegram")

Context = ContextTypes.DEFAULT_TYPE

# command -> its description for the command menu (translated per language_code)
COMMANDS = {
    "domino": N_("Open a table: /domino <variant> [options]"),
    "join": N_("Join the table"),
    "leave": N_("Leave the table"),
    "begin": N_("Start the game"),
    "hand": N_("Show my hand (in the private chat)"),
    "play": N_("Play a move: /play 6-4 left"),
    "stop": N_("Stop the game"),
    "rematch": N_("Play the last game again"),
    "rules": N_("The rules of a variant"),
    "top": N_("Leaderboard: /top [variant] [global] [season 2026-10]"),
    "stats": N_("My statistics"),
    "history": N_("My last games"),
    "settings": N_("Group settings (admins): /settings lang fr"),
    "pings": N_("Be notified when it is your turn: /pings on, /pings off"),
    "addai": N_("Add a computer: /addai hard (easy, normal, hard, expert)"),
    "review": N_("Review your last finished game against the expert"),
    "web": N_("Your link to the table in a browser (privately)"),
    "tournament": N_("Tournaments: /tournament swiss classic rounds=3, /tournament join 1"),
}
# /domino words that are commands, not variants: /domino add-ai hard, /domino review 12
SUBCOMMANDS = {"add-ai": "addai", "addai": "addai", "review": "review"}


class TelegramBot:
    """The PTB `Application` with its handlers, bound to a `Service`."""

    def __init__(self, service: Service, token: str, base_url: str | None = None,
                 rate_limiter: AIORateLimiter | None = None, poll_timeout: int = 30,
                 pace: Pace | None = None, webhook: Webhook | None = None) -> None:
        self.service = service
        self.pace = pace  # the flood limits the outbox keeps (None: Telegram's)
        self.poll_timeout = poll_timeout
        self.webhook = webhook  # None: long polling
        # a second connection for getUpdates: stopping cancels the open long poll, whose
        # connection is not back in the pool in time for PTB's last getUpdates
        limiter = metrics.counted_limiter(rate_limiter or AIORateLimiter(max_retries=3))
        builder = (ApplicationBuilder().token(token).rate_limiter(limiter)
                   .get_updates_connection_pool_size(2))
        if base_url:
            builder = builder.base_url(base_url)
        self.app: Application[Any, Any, Any, Any, Any, Any] = builder.build()
        self.outbox: Outbox | None = None
        self.rooms = TelegramRooms(self.app.bot)  # a forum topic per tournament table
        self.ready = asyncio.Event()
        self.app.add_handler(TypeHandler(Update, self._saw), group=-1)  # before the rest
        simple = {"join": service.join, "leave": service.leave, "begin": service.begin,
                  "hand": service.hand, "stop": service.stop}
        simple["rematch"] = service.rematch
        for name, call in simple.items():
            self.app.add_handler(CommandHandler(name, self._table_command(name, call)))
        handlers = {"start": self.on_start, "domino": self.on_domino, "play": self.on_play,
                    "rules": self.on_rules, "top": self.on_top, "stats": self.on_stats,
                    "history": self.on_history, "settings": self.on_settings,
                    "addai": self.on_addai, "review": self.on_review, "web": self.on_web,
                    "pings": self.on_pings,
                    "tournament": self.on_tournament}
        for name, handler in handlers.items():
            self.app.add_handler(CommandHandler(name, handler))
        self.app.add_handler(CallbackQueryHandler(self.on_press))
        self.app.add_handler(MessageHandler(filters.COMMAND, self.on_unknown))  # after the rest
        self.app.add_error_handler(self._log_error)

    # -- running ---------------------------------------------------------------------------

    async def run(self, router: Any = None, stop: asyncio.Event | None = None) -> None:
        """Long-poll (or serve the webhook) until `stop` is set or the task is cancelled."""
        async with self.app:
            me = self.app.bot
            self.outbox = Outbox(me, self.service.store, me.username, self.pace)
            self.outbox.web_url = functools.partial(table_url, self.service, me.username)
            self.outbox.web_app_url = functools.partial(miniapp_url, self.service)
            await self.set_commands()
            await self.app.start()
            assert self.app.updater is not None
            if self.webhook is not None:
                await start_webhook(self.app.updater, self.webhook, ALLOWED_UPDATES)
            else:
                await self.app.updater.start_polling(
                    timeout=self.poll_timeout, allowed_updates=["message", "callback_query"])
            try:
                self.service.rooms.register(PLATFORM, self.rooms)
                if router is not None:
                    await router.register(PLATFORM, self.outbox)
                self.ready.set()
                await (stop.wait() if stop is not None else asyncio.Event().wait())
            finally:
                self.service.rooms.unregister(PLATFORM)
                if router is not None and hasattr(router, "unregister"):
                    router.unregister(PLATFORM)
                with contextlib.suppress(Exception):
                    await self.outbox.close()
                with contextlib.suppress(Exception):
                    await self.app.updater.stop()
                with contextlib.suppress(Exception):
                    await self.app.stop()

    async def set_commands(self) -> None:
        for lang in ("en", "fr"):
            commands = [BotCommand(name, t(lang, text)) for name, text in COMMANDS.items()]
            await self.app.bot.set_my_commands(commands,
                                               language_code=None if lang == "en" else lang)

    async def _saw(self, update: Update, context: Context) -> None:
        """Every update's chat tells whether the group is a forum (bot/telegram/rooms.py)."""
        self.rooms.saw(update.effective_chat)

    async def _log_error(self, update: object, context: Context) -> None:
        log.error("error while handling an update: %r", context.error)

    # -- helpers ----------------------------------------------------------------------------

    @staticmethod
    def user(tg: TgUser) -> User:
        name = " ".join(p for p in (tg.first_name, tg.last_name) if p)[:64] or str(tg.id)
        return User(user_id(tg.id), name, tg.language_code)

    @staticmethod
    def where(update: Update) -> tuple[str, str, bool]:
        """(channel, scope, private chat?) of a message update."""
        msg = update.effective_message
        chat = update.effective_chat
        assert msg is not None and chat is not None
        thread = msg.message_thread_id if msg.is_topic_message else None
        return channel_of(chat.id, thread), channel_of(chat.id), chat.type == ChatType.PRIVATE

    def place(self, update: Update) -> Where:
        """Where a command comes from, for the service's checks."""
        channel, scope, private = self.where(update)
        return Where(channel, scope, private)

    @staticmethod
    def press_place(query: Any) -> Where:
        """Where a button was pressed: the chat (and topic) of the message it is under."""
        msg = query.message
        if msg is None:  # an inline message: no chat of ours
            return Where(f"{PLATFORM}:inline")
        thread = getattr(msg, "message_thread_id", None) if getattr(
            msg, "is_topic_message", False) else None
        return Where(channel_of(msg.chat.id, thread), channel_of(msg.chat.id),
                     msg.chat.type == ChatType.PRIVATE)

    def origin(self, update: Update) -> Origin:
        msg = update.effective_message
        tg = update.effective_user
        assert msg is not None and tg is not None
        return Origin(user_id(tg.id), msg.chat_id,
                      msg.message_thread_id if msg.is_topic_message else None,
                      reply_to=msg.message_id, locale=tg.language_code)

    async def send(self, messages: list[Message], origin: Origin) -> None:
        assert self.outbox is not None
        await self.outbox.deliver(messages, origin)

    async def _tell(self, update: Update, text: str) -> None:
        origin = self.origin(update)
        await self.send([Message("", text, to=origin.user, kind="error")], origin)

    async def _find_table(self, update: Update, args: list[str], command: str
                          ) -> tuple[int | str | None, list[str]]:
        """The table named first in `args` ("12" or "#12"; the service checks the number),
        else the one the service says `command` means here (`Service.find_table`); and the
        other arguments."""
        if args and args[0].lstrip("#").isdigit():
            return args[0], args[1:]
        channel, _, private = self.where(update)
        table = await self.service.find_table(channel, self.origin(update).user, command,
                                              private=private)
        return table, args

    def _table_command(self, command: str, call: Any) -> Any:
        async def handler(update: Update, context: Context) -> None:
            assert update.effective_user is not None
            table, _ = await self._find_table(update, list(context.args or []), command)
            if table is None:
                lang = lang_for(update.effective_user.language_code)
                await self._tell(update, t(lang, "No table here: open one with /domino "
                                           "<variant>."))
                return
            await self.send(await call(self.user(update.effective_user), table,
                                       where=self.place(update)), self.origin(update))
        return handler

    # -- commands ---------------------------------------------------------------------------

    async def on_start(self, update: Update, context: Context) -> None:
        """/start in the private chat, maybe with a deep-link payload "t<table>"."""
        assert update.effective_user is not None
        user = self.user(update.effective_user)
        payload = (context.args or [""])[0]
        if payload[:1] == "t" and payload[1:].isdigit():
            await self.send(await self.service.hand(user, payload[1:],
                                                    where=self.place(update)),
                            self.origin(update))
            return
        lang = lang_for(user.locale)
        await self._tell(update, t(lang, "Hello! Add me to a group and type /domino classic to "
                                   "open a table; your hands will appear here."))

    async def on_unknown(self, update: Update, context: Context) -> None:
        """A command none of ours: the closest one ("/plya": /play?).  In a group, only when
        one is close (other bots' commands are not ours to answer), and never for a command
        addressed to another bot."""
        message, tg = update.effective_message, update.effective_user
        if message is None or tg is None or not message.text:
            return
        word, _, to = message.text.split()[0][1:].partition("@")
        if to and to.lower() != str(self.app.bot.username or "").lower():
            return
        lang = lang_for(self.user(tg).locale)
        guess = closest(word, [*COMMANDS, "start"])
        if guess is not None:
            await self._tell(update, t(lang, "Unknown command /{word}. Did you mean /{guess}?",
                                       word=word[:40], guess=guess))
        elif update.effective_chat is not None and update.effective_chat.type == ChatType.PRIVATE:
            await self._tell(update, t(lang, "Unknown command /{word}. The commands: {names}.",
                                       word=word[:40], names=", ".join(
                                           "/" + c for c in COMMANDS)))

    async def on_domino(self, update: Update, context: Context) -> None:
        assert update.effective_user is not None
        user = self.user(update.effective_user)
        args = list(context.args or [])
        if not args:
            lang = lang_for(user.locale)
            await self._tell(update, t(lang, "Open a table with /domino <variant> [options], "
                                       "e.g. /domino classic ai=1. Variants: {names}.",
                                       names=", ".join(variants.names())))
            return
        if args[0].lower() in SUBCOMMANDS:
            await self._subcommand(update, SUBCOMMANDS[args[0].lower()], args[1:])
            return
        channel, scope, private = self.where(update)
        await self.send(await self.service.open_table(user, channel, scope, args[0],
                                                      options=" ".join(args[1:]),
                                                      private=private, where=self.place(update)),
                        self.origin(update))

    async def on_play(self, update: Update, context: Context) -> None:
        assert update.effective_user is not None
        table, args = await self._find_table(update, list(context.args or []), "play")
        user = self.user(update.effective_user)
        if table is None or not args:
            await self._tell(update, t(lang_for(user.locale), "Write the move after the "
                                       "command, e.g. /play 6-4 left."))
            return
        await self.send(await self.service.play(user, table, " ".join(args),
                                                where=self.place(update)), self.origin(update))

    async def on_rules(self, update: Update, context: Context) -> None:
        assert update.effective_user is not None
        variant = (context.args or ["classic"])[0]
        await self.send(await self.service.rules(self.user(update.effective_user), variant,
                                                 where=self.place(update)), self.origin(update))

    async def on_top(self, update: Update, context: Context) -> None:
        assert update.effective_user is not None
        args = list(context.args or [])
        channel, scope, _ = self.where(update)
        if "global" in args:
            scope = "global"
            args.remove("global")
        args, season = season_arg(args)
        user, at = self.user(update.effective_user), self.place(update)
        variant = args[0] if args else None
        await self.send(await (
            self.service.leaderboard(user, channel, scope, variant, where=at) if season is None
            else self.service.season_leaderboard(user, channel, scope, season, variant,
                                                 where=at)), self.origin(update))

    async def on_stats(self, update: Update, context: Context) -> None:
        assert update.effective_user is not None
        channel, _, _ = self.where(update)
        await self.send(await self.service.stats(self.user(update.effective_user), channel,
                                                 where=self.place(update)), self.origin(update))

    async def on_history(self, update: Update, context: Context) -> None:
        assert update.effective_user is not None
        channel, _, _ = self.where(update)
        await self.send(await self.service.history(self.user(update.effective_user), channel,
                                                   where=self.place(update)),
                        self.origin(update))

    async def _admin(self, update: Update, context: Context) -> bool:
        """Whether the user administers the group (anyone in their private chat)."""
        tg, chat = update.effective_user, update.effective_chat
        assert tg is not None and chat is not None
        if self.where(update)[2]:
            return True
        member = await context.bot.get_chat_member(chat.id, tg.id)
        return member.status in (ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER)

    async def on_tournament(self, update: Update, context: Context) -> None:
        """/tournament ...: bot/telegram/tourney.py."""
        await tourney.command(self, update, context)

    async def on_settings(self, update: Update, context: Context) -> None:
        """/settings <key> <value>: group administrators (anyone in their private chat)."""
        tg = update.effective_user
        assert tg is not None
        _, scope, _ = self.where(update)
        admin = await self._admin(update, context)
        args = [*(context.args or []), "", ""]
        await self.send(await self.service.set_setting(self.user(tg), scope, args[0], args[1],
                                                       admin, where=self.place(update)),
                        self.origin(update))

    async def on_pings(self, update: Update, context: Context) -> None:
        """/pings on|off: whether the user's turns notify them (/pings alone: which)."""
        assert update.effective_user is not None
        args = [*(context.args or []), ""]
        await self.send(await self.service.set_pings(self.user(update.effective_user), args[0],
                                                     where=self.place(update)),
                        self.origin(update))

    async def on_addai(self, update: Update, context: Context) -> None:
        """/addai [table] [level]: a computer seat of that level (the host, in the lobby)."""
        await self._subcommand(update, "addai", list(context.args or []))

    async def on_review(self, update: Update, context: Context) -> None:
        """/review [table]: the user's moves in a finished game, against the expert's."""
        await self._subcommand(update, "review", list(context.args or []))

    async def on_web(self, update: Update, context: Context) -> None:
        """/web [table]: the user's link to the web table, privately (bot/web/reply.py); in
        the private chat, when the web table is served over https, a Mini App button too."""
        assert update.effective_user is not None and update.effective_chat is not None
        user = self.user(update.effective_user)
        lang = lang_for(user.locale)
        table, _ = await self._find_table(update, list(context.args or []), WEB_FIND)
        number = table_number(table) if table is not None else None
        url = miniapp_url(self.service, number) if number is not None else None
        playing = self.service.tables.get(number) if number is not None else None
        seated = playing is not None and playing.seat_of(user.id) is not None
        if url and seated and self.where(update)[2]:  # web_app buttons: private chats only
            button = InlineKeyboardButton(t(lang, "Open the table"), web_app=WebAppInfo(url))
            await self.app.bot.send_message(update.effective_chat.id,
                                            t(lang, "The table in Telegram:"),
                                            reply_markup=InlineKeyboardMarkup([[button]]))
        await self.send(await web_reply(self.service, user, number, lang,
                                        self.where(update)[0]), self.origin(update))

    async def _subcommand(self, update: Update, name: str, args: list[str]) -> None:
        assert update.effective_user is not None
        user = self.user(update.effective_user)
        command = "add-ai" if name == "addai" else name
        table, rest = await self._find_table(update, args, command)
        if table is None:
            await self._tell(update, t(lang_for(user.locale), "No table here: open one with "
                                       "/domino <variant>."))
            return
        if name == "addai":
            messages = await self.service.add_ai(user, table, rest[0] if rest else None,
                                                 where=self.place(update))
        else:
            messages = await self.service.review(user, table, where=self.place(update))
        await self.send(messages, self.origin(update))

    # -- buttons ------------------------------------------------------------------------------

    async def on_press(self, update: Update, context: Context) -> None:
        """A button: the service decides; the answer is always sent, errors as an alert."""
        query = update.callback_query
        assert query is not None
        tg = query.from_user
        msg = query.message
        origin = Origin(user_id(tg.id), msg.chat.id if msg else tg.id, query=query,
                        locale=tg.language_code)
        with table_context(table_of(query.data), PLATFORM):  # the logs name its table
            await self._press(query, origin)

    async def _press(self, query: Any, origin: Origin) -> None:
        """The press of `on_press`, answered."""
        tg, msg = query.from_user, query.message
        answered = False
        try:
            messages = await self.service.press(self.user(tg), query.data or "",
                                                where=self.press_place(query))
            # what makes the answer first (a reply, a hand that has no message yet: when it
            # cannot be sent the answer opens the private chat), then the answer, then the
            # queued writes (the presser's hand edit, the group's) in the background: a
            # press never waits for the group's flood limit
            assert self.outbox is not None
            await self.outbox.deliver(messages, origin, hold=True)
            await self._answer(query, origin)
            answered = True
            self.outbox.start()
            if msg is not None and answers_question(query.data or ""):
                with contextlib.suppress(TelegramError):  # its one button goes
                    await query.edit_message_reply_markup(reply_markup=None)
        finally:
            if not answered:
                await self._answer(query, origin)

    @staticmethod
    async def _answer(query: Any, origin: Origin) -> None:
        """The callback's answer: a note (an alert for errors), or the private chat opened
        (`url`, the deep link) when the presser's hand could not be sent there."""
        await query.answer(origin.answer[:200] or None, show_alert=origin.alert,
                           url=origin.url)


async def run_telegram(service: Service, router: Any, token: str, base_url: str | None = None,
                       **kw: Any) -> None:
    """Run the Telegram bot until cancelled; registers its outbox with `router`."""
    httpx = logging.getLogger("httpx")
    level = httpx.level
    httpx.setLevel(logging.WARNING)  # request URLs hold the token (and every poll is logged)
    stop = kw.pop("stop", None)
    try:
        await TelegramBot(service, token, base_url, **kw).run(router, stop)
    finally:
        httpx.setLevel(level)
