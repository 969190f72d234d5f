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
first: the callback's answer opens it (its `url`), a command gets a reply with no private
text, and another player whose hand could not be delivered gets one group message with
the link, at once.

Group writes and Telegram's flood limit (about 20 messages a minute in a group): a move
costs ONE group write, the table message edited in place, plus one notification when the
turn passes to another human (the previous one is not deleted: that would be a write).
Writes never hold up an answer: all but those that make the answer (a reply, a first hand)
go through one queue per chat, worked in the background in order, where a table message,
a turn notification or a hand still waiting is replaced by a newer one of the same table
(only the last state matters).  A press is answered first, its hand edited next in the
private chat's queue, while the group waits for its limit (`Outbox.drain` waits for the
queues to empty).
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import logging
from collections import deque
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
from ..service.messages import Action, Message, action_data
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
    url: str | None = None  # the callback's answer opens it: the private chat's deep link

    def tell(self, text: str, alert: bool = True) -> None:
        """Put `text` in the callback answer (errors and warnings as an alert)."""
        self.notes.append(text)
        self.answer = "\n".join(self.notes)
        self.alert = self.alert or alert


@dataclass
class Pace:
    """Telegram's flood limits, kept by the outbox itself: at most `group` writes per
    `window` seconds in a group, and `gap` seconds between two writes in any chat.  (A write
    over them gets 429, and python-telegram-bot's limiter then holds EVERY request, the
    answers to presses too, while it waits: so the queues never send one.)"""

    group: int = 20
    window: float = 60.0
    gap: float = 1.0
    _times: dict[int, deque[float]] = field(default_factory=dict)

    def wait(self, chat: int, now: float) -> float:
        """Seconds until a write to `chat` keeps the limits."""
        times = self._times.setdefault(chat, deque())
        while times and now - times[0] >= self.window:
            times.popleft()
        wait = self.gap - (now - times[-1]) if times else 0.0
        if chat < 0 and len(times) >= self.group:
            wait = max(wait, self.window - (now - times[-self.group]))
        return max(0.0, wait)

    def note(self, chat: int, now: float) -> None:
        self._times.setdefault(chat, deque()).append(now)


class PacedBot:
    """The `Bot`, with every write (``send_*``, ``edit_*``, ``delete_*``) kept within
    `Pace`: it waits its turn in its chat, one write at a time per chat."""

    def __init__(self, bot: Bot, pace: Pace) -> None:
        self._bot = bot
        self._pace = pace
        self._locks: dict[int, asyncio.Lock] = {}

    def __getattr__(self, name: str) -> Any:
        call = getattr(self._bot, name)
        if not name.startswith(("send_", "edit_", "delete_")):
            return call

        async def paced(*args: Any, **kw: Any) -> Any:
            chat = int(kw.get("chat_id", args[0] if args else 0))
            async with self._locks.setdefault(chat, asyncio.Lock()):
                await asyncio.sleep(self._pace.wait(chat, _now()))
                try:
                    return await call(*args, **kw)
                finally:
                    self._pace.note(chat, _now())  # done: the server has seen it

        return paced


class Outbox:
    """Sends and edits messages for the service; `deliver` is what the router calls."""

    GROUP_ROW = 3  # at most this many buttons in a row in a group (a phone's width)

    def __init__(self, bot: Bot, store: Store, username: str, pace: Pace | None = None
                 ) -> None:
        self.pace = pace or Pace()
        self.bot: Any = PacedBot(bot, self.pace)
        self.store = store
        self.username = username
        self._queues: dict[int, deque[Message]] = {}  # group chat -> writes waiting
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._told: set[tuple[int | None, str]] = set()  # (table, user) told to open the chat

    async def deliver(self, messages: list[Message], origin: Origin | None = None,
                      hold: bool = False) -> None:
        """What shapes the answer to `origin` now (its user's replies, and a hand that has
        no message yet); everything else queued for its chat (`_enqueue`), and the queues
        started unless `hold` (then `start` starts them: after a button's answer).  A turn
        notification for the user being answered is dropped: they acted, and see their
        hand."""
        for m in latest_states(messages):
            if m.to is None:
                mine = origin is not None and m.kind == "turn" and set(m.mention) == {
                    origin.user}
                if not mine:
                    self._enqueue(m)
            elif origin is not None and m.to == origin.user and (
                    origin.query is None or not await self.has_message(m)):
                try:
                    await self._one(m, origin)
                except TelegramError as exc:
                    log.warning("could not deliver a %s message: %s", m.kind, exc)
            else:
                self._enqueue(m)
        if not hold:
            self.start()

    async def has_message(self, m: Message) -> bool:
        """Whether `m` is a hand that edits a message already there (no reply to make)."""
        if m.kind != "hand" or m.to is None or m.table is None:
            return False
        return await self._get(m.table, f"hand:{m.to.split(':', 1)[1]}") is not None

    def _enqueue(self, m: Message) -> None:
        """Queue `m` for its chat (a group, or a user's private chat); a table message, turn
        notification or hand still waiting there is replaced by a newer one of its table."""
        where = parse_channel(m.to if m.to is not None else m.channel)
        if where is None:
            return
        chat = where[0]
        queue = self._queues.setdefault(chat, deque())
        if m.table is not None and m.kind in ("table", "result", "turn", "hand"):
            same = {"table": ("table", "result"), "result": ("table", "result"),
                    "turn": ("turn",), "hand": ("hand",)}[m.kind]
            for old in [q for q in queue if q.table == m.table and q.kind in same]:
                queue.remove(old)  # only the last state of the table matters
        queue.append(m)

    def start(self) -> None:
        """Work every chat's queue (one task per chat, in order)."""
        for chat, queue in self._queues.items():
            worker = self._workers.get(chat)
            if queue and (worker is None or worker.done()):
                self._workers[chat] = asyncio.create_task(self._work(chat), name=f"chat {chat}")

    async def _work(self, chat: int) -> None:
        queue = self._queues[chat]
        while queue:
            m = queue.popleft()
            try:
                await self._one(m, None)
            except TelegramError as exc:
                log.warning("could not deliver a %s message: %s", m.kind, exc)
            except Exception:
                log.exception("chat %s: a %s message failed", chat, m.kind)

    async def drain(self) -> None:
        """Wait until every queue is empty and its writes are done."""
        self.start()
        while any(not w.done() for w in self._workers.values()):
            await asyncio.gather(*self._workers.values(), return_exceptions=True)

    async def close(self, timeout: float = 5) -> None:
        """Finish the group writes still waiting (for at most `timeout` seconds)."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.drain(), timeout)
        for w in self._workers.values():
            w.cancel()

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
        """A turn prompt, mentioning the player (one group write: the previous prompt
        stays)."""
        assert m.table is not None
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
                await self._tell_to_open(m)
            return
        if m.table is not None:
            await self._put(m.table, key, chat, sent)

    async def _open_first(self, m: Message, origin: Origin) -> None:
        """Tell the user to open the private chat first: nothing private goes to a group.
        A button's answer opens the chat itself (the callback answer's `url`)."""
        link = deep_link(self.username, m.table)
        text = t(lang_for(origin.locale), "I answer you in your private chat with me: open "
                 "{link} first.", link=link)
        if origin.query is not None:
            origin.tell(text)
            origin.url = link
            return
        await self.bot.send_message(origin.chat_id, text, message_thread_id=origin.thread_id,
                                    reply_to_message_id=origin.reply_to,
                                    allow_sending_without_reply=True)

    async def _tell_to_open(self, m: Message) -> None:
        """Another player's hand could not reach them (private chat not open): one group
        message says so now, with the button that opens the chat, once per table."""
        assert m.to is not None
        if (m.table, m.to) in self._told or parse_channel(m.channel) is None:
            return
        self._told.add((m.table, m.to))
        row = await self.store.get_table(m.table) if m.table is not None else None
        name = next((s.name for s in row.seats if s.user_id == m.to), "") if row else ""
        lang = row.lang if row else "en"
        text = t(lang, "{who}, I cannot send you your hand: open our private chat with the "
                 "button.", who=name)
        # "h" in a group is the deep link to the private chat (see `keyboard`)
        link = Action(t(lang, "My hand"), action_data(m.table or 0, 0, "h"), style="primary")
        self._enqueue(Message(m.channel, text, kind="info", table=m.table, actions=(link,)))
        self.start()  # the group's worker may be done already: the hand failed in another queue

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
        size = len(actions) if private else self.GROUP_ROW  # a group's rows fit a phone
        return InlineKeyboardMarkup([row[i:i + size] for r in sorted(rows)
                                     for row in (rows[r],) for i in range(0, len(row), size)])

    async def _hand_label(self, table: int) -> str:
        row = await self.store.get_table(table)
        return t(row.lang if row else "en", "My hand")


def _now() -> float:
    return asyncio.get_running_loop().time()


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
