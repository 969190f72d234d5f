"""Telegram delivery: the service's `Message`s turned into Bot API calls.

Public messages go to the group (and forum topic) named by their channel
("telegram:<chat>" or "telegram:<chat>:<thread>").  Each table has ONE table
message in its chat, edited as the game goes (text, caption, or the picture
with editMessageMedia); each player has ONE hand message per table in their
private chat with the bot, edited after every move.  Their ids are kept with
`store.adapter_set`, so they survive a restart.  A batch of messages (a move and the
computer moves after it) edits each of them once, with its last state; the turn prompt
is text and a mention, so a batch uploads the board picture once.

A rules page (Markdown) is sent as HTML, in several messages cut at paragraphs when it is
over 4,096 characters (bot/telegram/format.py).

Private messages (hands, errors, statistics) never go to a group: a private
answer to a button press becomes the callback's answer when it fits, else it
goes to the private chat, like the answers to commands.  When the private
chat is not open yet (403 Forbidden), the user is told to open the deep link
first: in a callback alert, or for a command in a reply with no private text.
"""

from __future__ import annotations

import html
import logging
from dataclasses import dataclass, field
from typing import Any

from telegram import (
    Bot,
    CallbackQuery,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
)
from telegram import Message as TgMessage
from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden, TelegramError

from ..i18n import lang_for, t
from ..service.messages import Action, Message
from ..storage import Store
from .format import html_messages

log = logging.getLogger("domino.telegram")

PLATFORM = "telegram"
MAX_TEXT = 4096
MAX_CAPTION = 1024
MAX_ALERT = 200
LEGAL_MARK = "✅ "


def user_id(tg_id: int) -> str:
    return f"{PLATFORM}:{tg_id}"


def channel_of(chat_id: int, thread_id: int | None = None) -> str:
    return f"{PLATFORM}:{chat_id}" + (f":{thread_id}" if thread_id else "")


def parse_channel(channel: str) -> tuple[int, int | None] | None:
    """(chat id, forum topic or None) of a Telegram channel id; None for other platforms."""
    parts = channel.split(":")
    if len(parts) not in (2, 3) or parts[0] != PLATFORM:
        return None
    try:
        return int(parts[1]), int(parts[2]) if len(parts) == 3 else None
    except ValueError:
        return None


def deep_link(username: str, table: int | None) -> str:
    """The link that opens the private chat with the bot (on the hand of `table`)."""
    return f"https://t.me/{username}" + (f"?start=t{table}" if table is not None else "")


@dataclass
class Origin:
    """The update being answered: who acted, where, and the callback to answer."""

    user: str
    chat_id: int
    thread_id: int | None = None
    reply_to: int | None = None  # the command's message
    query: CallbackQuery | None = None
    locale: str | None = None
    answer: str = ""
    alert: bool = False
    notes: list[str] = field(default_factory=list)

    def tell(self, text: str, alert: bool = True) -> None:
        """Put `text` in the callback answer (errors and warnings as an alert)."""
        self.notes.append(text)
        self.answer = "\n".join(self.notes)
        self.alert = self.alert or alert


class Outbox:
    """Sends and edits messages for the service; `deliver` is what the router calls."""

    def __init__(self, bot: Bot, store: Store, username: str) -> None:
        self.bot = bot
        self.store = store
        self.username = username

    async def deliver(self, messages: list[Message], origin: Origin | None = None) -> None:
        for m in latest_states(messages):
            try:
                await self._one(m, origin)
            except TelegramError as exc:
                log.warning("could not deliver a %s message: %s", m.kind, exc)

    async def _one(self, m: Message, origin: Origin | None) -> None:
        if m.to is not None:
            if parse_channel(m.to) is None:
                return
            if m.kind == "hand":
                await self._hand(m, origin)
            elif origin is not None and origin.user == m.to:
                await self._reply(m, origin)
            else:
                await self._private(m)
            return
        where = parse_channel(m.channel)
        if where is None:
            return
        chat, thread = where
        if m.kind in ("table", "result") and m.table is not None:
            await self._table(m, chat, thread)
        elif m.kind == "turn" and m.table is not None:
            await self._turn(m, chat, thread)
        else:
            await self._send(chat, thread, m, self.keyboard(m.actions, m.table))

    # -- the table message in the group ---------------------------------------------------

    async def _table(self, m: Message, chat: int, thread: int | None) -> None:
        markup = self.keyboard(m.actions, m.table)
        key = "table"
        if m.kind == "result":  # the game is over: no more turn prompt
            turn = await self._get(m.table, "turn")
            if turn is not None:
                await self._delete(turn[0], turn[1])
        old = await self._get(m.table, key)
        if old is not None and old[0] == chat:
            _, message_id, photo = old
            if await self._edit(chat, message_id, photo, m, markup):
                return
            if m.image is not None and not photo:
                await self._delete(chat, message_id)  # the lobby text makes way for the picture
        sent = await self._send(chat, thread, m, markup)
        await self._put(m.table, key, chat, sent)

    async def _turn(self, m: Message, chat: int, thread: int | None) -> None:
        """A turn prompt, mentioning the player; the previous prompt of the table goes."""
        assert m.table is not None
        old = await self._get(m.table, "turn")
        if old is not None:
            await self._delete(old[0], old[1])
        text = html.escape(m.text) + "".join(
            f' <a href="tg://user?id={who.split(":", 1)[1]}">👤</a>' for who in m.mention
            if parse_channel(who) is not None and who.split(":", 1)[1].isdigit())
        button = InlineKeyboardButton(await self._hand_label(m.table),
                                      url=deep_link(self.username, m.table))
        sent = await self.bot.send_message(chat, text, message_thread_id=thread,
                                           parse_mode=ParseMode.HTML,
                                           reply_markup=InlineKeyboardMarkup([[button]]))
        await self._put(m.table, "turn", chat, sent)

    # -- the hand in the private chat -------------------------------------------------------

    async def _hand(self, m: Message, origin: Origin | None) -> None:
        assert m.to is not None
        chat = int(m.to.split(":", 1)[1])
        markup = self.keyboard(m.actions, m.table, private=True)
        key = f"hand:{chat}"
        old = await self._get(m.table, key) if m.table is not None else None
        if old is not None:
            _, message_id, photo = old
            if await self._edit(chat, message_id, photo, m, markup):
                return
        try:
            sent = await self._send(chat, None, m, markup)
        except Forbidden:
            if origin is not None and origin.user == m.to:
                await self._open_first(m, origin)
            else:
                log.info("a player has not opened the private chat yet")
            return
        if m.table is not None:
            await self._put(m.table, key, chat, sent)

    async def _open_first(self, m: Message, origin: Origin) -> None:
        """Tell the user to open the private chat first: nothing private goes to a group."""
        link = deep_link(self.username, m.table)
        text = t(lang_for(origin.locale), "I answer you in your private chat with me: open "
                 "{link} first.", link=link)
        if origin.query is not None:
            origin.tell(text)
            return
        await self.bot.send_message(origin.chat_id, text, message_thread_id=origin.thread_id,
                                    reply_to_message_id=origin.reply_to,
                                    allow_sending_without_reply=True)

    # -- private answers -----------------------------------------------------------------------

    async def _reply(self, m: Message, origin: Origin) -> None:
        """A private answer to the user being served: the callback's answer when it fits, else
        the private chat (also for a command typed in a group)."""
        assert m.to is not None
        popup = origin.query is not None and not (m.image or m.file or m.actions)
        if popup and len(origin.answer) + len(m.text) < MAX_ALERT:
            origin.tell(m.text, alert=m.kind == "error" or len(m.text) > 60)
            return
        chat = int(m.to.split(":", 1)[1])
        here = origin.query is None and origin.chat_id == chat  # typed in the private chat
        try:
            await self._send(chat, None, m, self.keyboard(m.actions, m.table, private=True),
                             reply_to=origin.reply_to if here else None)
        except Forbidden:
            if popup:
                origin.tell(m.text[:MAX_ALERT - 1 - len(origin.answer)])
            else:
                await self._open_first(m, origin)

    async def _private(self, m: Message) -> None:
        assert m.to is not None
        chat = int(m.to.split(":", 1)[1])
        try:
            await self._send(chat, None, m, self.keyboard(m.actions, m.table, private=True))
        except Forbidden:
            log.info("a private %s message was not delivered: private chat not open", m.kind)

    # -- Bot API calls ------------------------------------------------------------------------

    async def _send(self, chat: int, thread: int | None, m: Message,
                    markup: InlineKeyboardMarkup | None, reply_to: int | None = None
                    ) -> TgMessage:
        kw: dict[str, Any] = {"message_thread_id": thread, "reply_markup": markup}
        if reply_to is not None:
            kw["reply_to_message_id"] = reply_to
            kw["allow_sending_without_reply"] = True
        if m.image is not None:
            return await self.bot.send_photo(chat, m.image, caption=m.text[:MAX_CAPTION], **kw)
        if m.file is not None:
            name, data = m.file
            return await self.bot.send_document(chat, data, filename=name,
                                                caption=m.text[:MAX_CAPTION], **kw)
        if m.kind == "rules":  # Markdown: as HTML, in several messages when long
            *first, last = html_messages(m.text, MAX_TEXT)
            for piece in first:
                await self.bot.send_message(chat, piece, message_thread_id=thread,
                                            parse_mode=ParseMode.HTML)
            return await self.bot.send_message(chat, last, parse_mode=ParseMode.HTML, **kw)
        return await self.bot.send_message(chat, m.text[:MAX_TEXT] or "·", **kw)

    async def _edit(self, chat: int, message_id: int, photo: bool, m: Message,
                    markup: InlineKeyboardMarkup | None) -> bool:
        """Edit a kept message into `m`; False when it cannot be (gone, text to picture)."""
        try:
            if m.image is not None and photo:
                media = InputMediaPhoto(m.image, caption=m.text[:MAX_CAPTION])
                await self.bot.edit_message_media(media, chat_id=chat, message_id=message_id,
                                                  reply_markup=markup)
            elif m.image is not None:
                return False
            elif photo:
                await self.bot.edit_message_caption(chat_id=chat, message_id=message_id,
                                                    caption=m.text[:MAX_CAPTION],
                                                    reply_markup=markup)
            else:
                await self.bot.edit_message_text(m.text[:MAX_TEXT] or "·", chat_id=chat,
                                                 message_id=message_id, reply_markup=markup)
        except Forbidden:
            return False  # the user blocked the bot: sending tells who asked
        except BadRequest as exc:
            if "not modified" in str(exc).lower():
                return True
            log.info("could not edit message %s: %s; sending a new one", message_id, exc)
            return False
        return True

    async def _delete(self, chat: int, message_id: int) -> None:
        try:
            await self.bot.delete_message(chat, message_id)
        except TelegramError as exc:
            log.info("could not delete message %s: %s", message_id, exc)

    async def _get(self, table: int | None, key: str) -> tuple[int, int, bool] | None:
        if table is None:
            return None
        value = await self.store.adapter_get(table, PLATFORM, key)
        if not value:
            return None
        chat, message_id, kind = value.split(":")
        return int(chat), int(message_id), kind == "p"

    async def _put(self, table: int | None, key: str, chat: int, sent: TgMessage) -> None:
        if table is not None:
            kind = "p" if sent.photo else "t"
            await self.store.adapter_set(table, PLATFORM, key,
                                         f"{chat}:{sent.message_id}:{kind}")

    # -- keyboards -------------------------------------------------------------------------------

    def keyboard(self, actions: tuple[Action, ...], table: int | None, private: bool = False
                 ) -> InlineKeyboardMarkup | None:
        """Inline buttons by row; "show my hand" in a group is a deep link to the private chat;
        in a hand, the tiles that can be played are marked."""
        rows: dict[int, list[InlineKeyboardButton]] = {}
        for a in actions:
            verb = a.data.split(":")[2] if a.data.count(":") >= 2 else ""
            if verb == "h" and not private and table is not None:
                button = InlineKeyboardButton(a.label, url=deep_link(self.username, table))
            else:
                label = LEGAL_MARK + a.label if private and a.style == "primary" and a.enabled \
                    and verb in ("p", "e") else a.label
                button = InlineKeyboardButton(label, callback_data=a.data)
            rows.setdefault(a.row, []).append(button)
        if not rows:
            return None
        return InlineKeyboardMarkup([rows[r] for r in sorted(rows)])

    async def _hand_label(self, table: int) -> str:
        row = await self.store.get_table(table)
        return t(row.lang if row else "en", "My hand")


def latest_states(messages: list[Message]) -> list[Message]:
    """`messages` without the table messages and hands that a later one of the same batch
    replaces (a move and the computer moves answering it): only the last state stays on
    screen, and every edit in a group counts against Telegram's flood limit (about 20
    messages a minute), so a batch edits the table message (one photo upload) once."""
    def key(m: Message) -> tuple[str, int, str] | None:
        if m.table is None:
            return None
        if m.to is None and m.kind in ("table", "result"):
            return ("table", m.table, "")
        if m.to is not None and m.kind == "hand":
            return ("hand", m.table, m.to)
        return None

    last = {key(m): i for i, m in enumerate(messages)}
    return [m for i, m in enumerate(messages) if key(m) is None or last[key(m)] == i]
