"""Telegram's /tournament command (issue 31): open a tournament (group administrators, or
anyone where the group's setting says so), or act on one (join, leave, start, standings,
drop, export, cancel); a partner for a fixed pair is the author of the message the command replies
to, or a member named by a text mention.  The adapter (bot/telegram/adapter.py) routes the
command here."""

from __future__ import annotations

from typing import Any, Protocol

from telegram import Update
from telegram.constants import ChatMemberStatus
from telegram.ext import ContextTypes

from ..service.service import TOURNAMENT_VERBS, Service, User

Context = ContextTypes.DEFAULT_TYPE


class TelegramBot(Protocol):
    """What the command uses of the adapter (bot/telegram/adapter.py), typed here rather
    than imported: the adapter imports this module (no circle, issue 38)."""

    service: Service

    def where(self, update: Update) -> Any: ...

    def user(self, tg: Any) -> User: ...

    def place(self, update: Update) -> Any: ...

    def origin(self, update: Update) -> Any: ...

    async def send(self, out: Any, origin: Any = None) -> Any: ...

    async def _admin(self, update: Update, context: Context) -> bool: ...


async def command(bot: TelegramBot, update: Update, context: Context) -> None:
    """/tournament FORMAT VARIANT [key=value ...] opens one (group administrators, or
    anyone where the group's setting says so); /tournament list shows the group's;
    /tournament join|leave|start|standings|drop|export|cancel NUMBER acts on one (cancel: the
    organiser or a group administrator)."""
    tg = update.effective_user
    assert tg is not None
    channel, scope, _ = bot.where(update)
    args, user, s = list(context.args or []), bot.user(tg), bot.service
    verb = args[0].lower() if args else ""
    mate = await partner(bot, update, context, args[2:]) if verb == "join" else None
    if verb in TOURNAMENT_VERBS:
        number = args[1] if len(args) > 1 else ""  # as typed: the service reads it
        admin = verb == "cancel" and await bot._admin(update, context)
        out = await s.tournament_action(user, scope, verb, number, mate, admin,
                                        where=bot.place(update))
    else:
        out = await s.open_tournament(user, channel, scope, " ".join(args),
                                      await bot._admin(update, context),
                                      where=bot.place(update))
    await bot.send(out, bot.origin(update))


async def partner(bot: TelegramBot, update: Update, context: Context, words: list[str]
                  ) -> User | str | None:
    """The partner a /tournament join names: the author of the message it replies to,
    or a member named by a text mention, if a member of this group; else the words
    (a @name the Bot API cannot look up) for the service to refuse; None: nobody."""
    msg, chat = update.effective_message, update.effective_chat
    if msg is None or chat is None:
        return None
    named = [e.user for e in msg.entities if e.type == "text_mention" and e.user]
    reply = msg.reply_to_message
    who = named[0] if named else (reply.from_user if reply and reply.from_user and
                                  not reply.from_user.is_bot else None)
    if who is None:
        return " ".join(words)[:64] or None
    member = await context.bot.get_chat_member(chat.id, who.id)
    if who.is_bot or member.status in (ChatMemberStatus.LEFT, ChatMemberStatus.BANNED):
        return bot.user(who).name
    return bot.user(who)
