"""Telegram delivery: the service's `Message`s turned into Bot API calls.

Public messages go to the group (and forum topic) named by their channel
("telegram:<chat>" or "telegram:<chat>:<thread>").  Each table has ONE table
message in its chat, edited as the game goes (text, caption, or the picture
with editMessageMedia, or the caption alone when the picture is the one shown); each
player has ONE hand message per table in their private chat with the bot.  Their ids are
kept with `store.adapter_set`, so they survive a restart.  A batch of messages (a move and
the computer moves after it) edits each of them once, with its last state; the turn line
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

Group writes and Telegram's flood limits (about 20 writes a minute in a group, one a
second in a chat, 30 a second in all): a group gets a write when a human must act or a
round ends, not per computer move.  Every write but those that make an answer (a reply, a
first hand) goes through one queue per chat, worked in the background: a table message,
turn line or hand still waiting there is replaced by a newer one of its table, in the old
one's place, and a worker takes its next write only once the chat may have it, so a table
message is never more than one write behind.  A group table message that a computer's move
replaces at once (`Message.said` and no turn, score sheet or result beside it) is not
written when its players see the moves in their private chats, and written only with writes
to spare at a table of computers alone.  A table has ONE turn line, sent once and edited
when it names another player.  A press is answered first, its hand edited next in the
private chat's queue (`Outbox.drain` waits for the queues to empty).

The private chat shows every move of the player's tables: their hand's caption begins with
what was said at the table since their last move (memory's turned tiles too), and when
they must act, their hand comes as a new message (which notifies them) and the old one is
deleted when nothing else waits in the chat: one hand message per table, edited in place
while the others play.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import html
import logging
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from telegram import (
    Bot,
    CallbackQuery,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    WebAppInfo,
)
from telegram import Message as TgMessage
from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden, TelegramError

from ..i18n import lang_for, t
from ..service.messages import Action, Message, acting, action_data, fleeting
from ..storage import Store
from .format import html_messages

log = logging.getLogger("domino.telegram")

PLATFORM = "telegram"
MAX_TEXT = 4096
MAX_CAPTION = 1024
MAX_ALERT = 200
LEGAL_MARK = "✅ "
MAX_SAID = 40  # lines of a table's moves kept for a player's hand caption
NOW, SPARE, SKIP = 0, 1, 2  # when a queued write goes: at once, with writes to spare, never


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
    `window` seconds in a group, `gap` seconds between two writes in any chat, and `overall`
    writes per `second` in all.  (A write over them gets 429, and python-telegram-bot's
    AIORateLimiter then holds EVERY request, the answers to presses too, while it waits: so
    the outbox never sends one; the limiter stays as the last guard.)  `spare`: the share of
    a group's writes kept for the states that must be shown.  `smooth`: a group gets at most
    that many writes in `smooth` times `window / group` seconds, so that its writes are
    spread over the minute (one every 3 s) rather than 20 in a row and 40 s of silence."""

    group: int = 20
    window: float = 60.0
    gap: float = 1.0
    overall: int = 30
    second: float = 1.0
    spare: float = 0.5
    smooth: int = 3
    _times: dict[int, deque[float]] = field(default_factory=dict)
    _all: deque[float] = field(default_factory=deque)

    def wait(self, chat: int, now: float, spare: bool = False) -> float:
        """Seconds until a write to `chat` keeps the limits (`spare`: and leaves the group
        the share of its writes kept for the states that must be shown)."""
        times = self._times.setdefault(chat, deque())
        while times and now - times[0] >= self.window:
            times.popleft()
        wait = self.gap - (now - times[-1]) if times else 0.0
        limit = self.group - (int(self.group * self.spare) if spare else 0)
        if chat < 0 and len(times) >= max(1, limit):
            wait = max(wait, self.window - (now - times[-max(1, limit)]))
        if chat < 0 and self.smooth and len(times) >= self.smooth:
            span = self.smooth * self.window / self.group
            wait = max(wait, span - (now - times[-self.smooth]))
        while self._all and now - self._all[0] >= self.second:
            self._all.popleft()
        if self.overall and len(self._all) >= self.overall:
            wait = max(wait, self.second - (now - self._all[-self.overall]))
        return max(0.0, wait)

    def note(self, chat: int, now: float) -> None:
        self._times.setdefault(chat, deque()).append(now)
        self._all.append(now)


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
                while (wait := self._pace.wait(chat, _now())) > 0:
                    await asyncio.sleep(wait)
                try:
                    return await call(*args, **kw)
                finally:
                    self._pace.note(chat, _now())  # done: the server has seen it

        return paced


class Kept(NamedTuple):
    """A message the outbox keeps editing: where it is, and how it was left."""

    chat: int
    message_id: int
    photo: bool
    acting: bool = False  # a hand: its user had to act


@dataclass
class Job:
    """A write waiting in its chat's queue."""

    m: Message
    when: int = NOW  # NOW, SPARE or SKIP (a group's table message)
    acting: bool = False  # a hand: its user must act now
    mine: bool = False  # a hand: the answer to its user's own action (they are looking)
    gone: int | None = None  # not `m` but this message of its chat deleted

    @property
    def slot(self) -> tuple[int, str] | None:
        """What a newer job of the same slot replaces: a table's message, turn line, hand."""
        if self.m.table is None or self.gone is not None:
            return None
        kind = {"table": "table", "result": "table", "turn": "turn", "hand": "hand"}
        return (self.m.table, kind[self.m.kind]) if self.m.kind in kind else None


class Outbox:
    """Sends and edits messages for the service; `deliver` is what the router calls."""

    GROUP_ROW = 3  # at most this many buttons in a row in a group (a phone's width)

    def __init__(self, bot: Bot, store: Store, username: str, pace: Pace | None = None
                 ) -> None:
        self.pace = pace or Pace()
        self.bot: Any = PacedBot(bot, self.pace)
        self.store = store
        self.username = username
        self._queues: dict[int, deque[Job]] = {}  # chat -> writes waiting
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._arrived: dict[int, asyncio.Event] = {}  # chat -> a job came (wakes its worker)
        self._busy: dict[int, asyncio.Lock] = {}  # chat -> held while a job writes there
        self._told: set[tuple[int | None, str]] = set()  # (table, user) told to open the chat
        self._said: dict[tuple[int, str], list[str]] = {}  # (table, user) -> moves since theirs
        self._turns: dict[int, str] = {}  # table -> the text its turn line shows
        self._pictures: dict[tuple[int, int], int] = {}  # (chat, message) -> its picture's hash
        # table -> the address of its "Web" button (bot/web/reply.py), or None: no button
        self.web_url: Callable[[int], str | None] = lambda table: None
        self.web_app_url: Callable[[int], str | None] = lambda table: None  # private chats

    async def deliver(self, messages: list[Message], origin: Origin | None = None,
                      hold: bool = False) -> None:
        """What shapes the answer to `origin` now (its user's replies, and a hand that has
        no message yet); everything else queued for its chat (`_enqueue`), and the queues
        started unless `hold` (then `start` starts them: after a button's answer)."""
        self._remember_moves(messages, origin)
        must = acting(messages)
        for m in latest_states(messages):
            if m.to is None:
                self._enqueue(Job(m, when=_when(m, messages)))
                continue
            mine = origin is not None and m.to == origin.user
            job = Job(m, acting=(m.table, m.to) in must, mine=mine)
            if mine and origin is not None and (
                    origin.query is None or not await self.has_message(m)):
                try:
                    await self._one(job, origin)
                except TelegramError as exc:
                    log.warning("could not deliver a %s message: %s", m.kind, exc)
            else:
                self._enqueue(job)
        if not hold:
            self.start()

    def _remember_moves(self, messages: list[Message], origin: Origin | None) -> None:
        """Keep, for each player of a table (who gets a hand in the batch), the sentences of
        the moves made since their own (`_with_moves` puts them in their hand's caption)."""
        players: dict[int, set[str]] = {}
        for m in messages:
            if m.kind == "hand" and m.to is not None and m.table is not None:
                players.setdefault(m.table, set()).add(m.to)
        moved = [m for m in messages if m.to is None and m.said and m.table is not None
                 and m.kind in ("table", "result")]
        if origin is not None:  # the user who acted: what they see starts with their move
            for table in {m.table for m in moved}:
                self._said.pop((table or 0, origin.user), None)
        for m in moved:
            for who in players.get(m.table or 0, ()):
                said = self._said.setdefault((m.table or 0, who), [])
                said += m.said
                del said[:-MAX_SAID]
            if m.kind == "result":
                for key in [k for k in self._said if k[0] == m.table]:
                    del self._said[key]

    async def has_message(self, m: Message) -> bool:
        """Whether `m` is a hand that edits a message already there (no reply to make)."""
        if m.kind != "hand" or m.to is None or m.table is None:
            return False
        return await self._get(m.table, f"hand:{m.to.split(':', 1)[1]}") is not None

    def _enqueue(self, job: Job) -> None:
        """Queue `job` for its chat (a group, or a user's private chat); a table message,
        turn line or hand still waiting there is replaced by a newer one of its table, in
        its place (the oldest wait goes first), and written as soon as the older one was
        to be."""
        m = job.m
        where = parse_channel(m.to if m.to is not None else m.channel)
        if where is None:
            return
        chat = where[0]
        queue = self._queues.setdefault(chat, deque())
        slot = job.slot
        if slot is not None and slot[1] == "table" and m.said:
            for old in [q for q in queue if q.slot == (slot[0], "turn")]:
                queue.remove(old)  # the game moved on: the turn line waiting is stale
        same = [i for i, q in enumerate(queue) if slot is not None and q.slot == slot]
        if same:  # only the last state of the table matters; a write owed stays owed
            queue[same[0]] = dataclasses.replace(job, when=min(job.when, queue[same[0]].when))
        else:
            queue.append(job)
        self._arrived.setdefault(chat, asyncio.Event()).set()

    def start(self) -> None:
        """Work every chat's queue (one task per chat, in order)."""
        for chat, queue in self._queues.items():
            worker = self._workers.get(chat)
            if any(j.when != SKIP for j in queue) and (worker is None or worker.done()):
                self._workers[chat] = asyncio.create_task(self._work(chat), name=f"chat {chat}")

    async def _work(self, chat: int) -> None:
        queue = self._queues[chat]
        while (job := await self._next(chat, queue)) is not None:
            try:
                await self._one(job, None)
            except TelegramError as exc:
                log.warning("could not deliver a %s message: %s", job.m.kind, exc)
            except Exception:
                log.exception("chat %s: a %s message failed", chat, job.m.kind)

    async def _next(self, chat: int, queue: deque[Job]) -> Job | None:
        """The next write of `chat`, taken from its queue once the chat may have it (so that
        it is the newest state); None when only states never to be written are left."""
        arrived = self._arrived.setdefault(chat, asyncio.Event())
        while True:
            now = [j for j in queue if j.when == NOW]
            spare = [j for j in queue if j.when == SPARE]
            if not now and not spare:
                return None
            wait = self.pace.wait(chat, _now(), spare=not now)
            if wait <= 0:
                job = (now or spare)[0]
                queue.remove(job)
                return job
            arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(arrived.wait(), wait)

    async def drain(self) -> None:
        """Wait until every queue is empty (but the states never to be written) and its
        writes are done."""
        self.start()
        while any(not w.done() for w in self._workers.values()):
            await asyncio.gather(*self._workers.values(), return_exceptions=True)
            self.start()

    async def close(self, timeout: float = 5) -> None:
        """Finish the group writes still waiting (for at most `timeout` seconds)."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.drain(), timeout)
        for w in self._workers.values():
            w.cancel()

    async def _one(self, job: Job, origin: Origin | None) -> None:
        """Write `job`, one job at a time per chat (an answer's hand and a queued one would
        both send a first hand message)."""
        where = parse_channel(job.m.to if job.m.to is not None else job.m.channel)
        if where is None:
            return
        async with self._busy.setdefault(where[0], asyncio.Lock()):
            await self._write(job, origin)

    async def _write(self, job: Job, origin: Origin | None) -> None:
        m = job.m
        if job.gone is not None and m.to is not None:
            await self._delete(int(m.to.split(":", 1)[1]), job.gone)
            return
        if m.to is not None:
            if parse_channel(m.to) is None:
                return
            if m.kind == "hand":
                await self._hand(job, origin)
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
        if m.kind == "result":  # the game is over: its turn line goes
            turn = await self._get(m.table, "turn")
            if turn is not None:
                await self._delete(turn.chat, turn.message_id)
                await self.store.adapter_set(m.table or 0, PLATFORM, "turn", "")
                self._turns.pop(m.table or 0, None)
        if old is not None and old.chat == chat:
            if await self._edit(chat, old.message_id, old.photo, m, markup):
                return
            if m.image is not None and not old.photo:
                await self._delete(chat, old.message_id)  # the lobby text makes way for the picture
        sent = await self._send(chat, thread, m, markup)
        await self._put(m.table, key, chat, sent)

    async def _turn(self, m: Message, chat: int, thread: int | None) -> None:
        """The table's one turn line: sent once, with the mention (which notifies), then
        edited when it says something else (the player is notified in the private chat,
        where their hand comes as a new message)."""
        assert m.table is not None
        text = html.escape(m.text) + "".join(
            f' <a href="tg://user?id={who.split(":", 1)[1]}">👤</a>' for who in m.mention
            if parse_channel(who) is not None and who.split(":", 1)[1].isdigit())
        button = InlineKeyboardButton(await self._hand_label(m.table),
                                      url=deep_link(self.username, m.table))
        markup = InlineKeyboardMarkup([[button]])
        old = await self._get(m.table, "turn")
        if old is not None and old.chat == chat:
            if self._turns.get(m.table) == text:
                return
            try:
                await self.bot.edit_message_text(text, chat_id=chat, message_id=old.message_id,
                                                 parse_mode=ParseMode.HTML, reply_markup=markup)
                self._turns[m.table] = text
                return
            except BadRequest as exc:
                if "not modified" in str(exc).lower():
                    self._turns[m.table] = text
                    return
                log.info("could not edit the turn line %s: %s", old.message_id, exc)
        sent = await self.bot.send_message(chat, text, message_thread_id=thread,
                                           parse_mode=ParseMode.HTML, reply_markup=markup)
        self._turns[m.table] = text
        await self._put(m.table, "turn", chat, sent)

    # -- the hand in the private chat -------------------------------------------------------

    async def _hand(self, job: Job, origin: Origin | None) -> None:
        """The user's hand message of the table, its caption beginning with the moves made
        since theirs: edited in place, or sent anew (the old one deleted) when the user
        must act and did not have to before, so that it notifies them."""
        m = self._with_moves(job.m)
        assert m.to is not None
        chat = int(m.to.split(":", 1)[1])
        markup = self.keyboard(m.actions, m.table, private=True)
        key = f"hand:{chat}"
        old = await self._get(m.table, key) if m.table is not None else None
        fresh = job.acting and not job.mine and old is not None and not old.acting
        if old is not None and not fresh and await self._edit(chat, old.message_id, old.photo,
                                                              m, markup):
            if old.acting != job.acting:
                await self._put_kept(m.table, key, old._replace(acting=job.acting))
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
            await self._put(m.table, key, chat, sent, acting=job.acting)
        if old is not None and fresh:  # once nothing else waits in the chat
            self._enqueue(Job(Message("", "", to=m.to), when=SPARE, gone=old.message_id))

    def _with_moves(self, m: Message) -> Message:
        """A hand whose text begins with the moves made at its table since its user's last
        one (as many of the latest as the caption holds)."""
        said = self._said.get((m.table or 0, m.to or ""), [])
        if not said:
            return m
        room = (MAX_CAPTION if m.image is not None else MAX_TEXT) - len(m.text) - 2
        lines: list[str] = []
        for line in reversed(said):
            if sum(len(x) + 1 for x in lines) + len(line) + 2 > room:
                lines.append("…")
                break
            lines.append(line)
        return dataclasses.replace(m, text="\n".join(reversed(lines)) + "\n\n" + m.text)

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
        self._enqueue(Job(Message(m.channel, text, kind="info", table=m.table,
                                  actions=(link,))))
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
            sent = await self.bot.send_photo(chat, m.image, caption=m.text[:MAX_CAPTION], **kw)
            self._shown(chat, sent.message_id, m.image)
            return sent
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
        same = m.image is not None and self._pictures.get((chat, message_id)) == hash(m.image)
        try:
            if m.image is not None and photo and not same:
                media = InputMediaPhoto(m.image, caption=m.text[:MAX_CAPTION])
                await self.bot.edit_message_media(media, chat_id=chat, message_id=message_id,
                                                  reply_markup=markup)
                self._shown(chat, message_id, m.image)
            elif m.image is not None and not photo:
                return False
            elif photo:  # a caption alone, or with the picture already shown: no upload
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
        self._pictures.pop((chat, message_id), None)
        try:
            await self.bot.delete_message(chat, message_id)
        except TelegramError as exc:
            log.info("could not delete message %s: %s", message_id, exc)

    def _shown(self, chat: int, message_id: int, image: bytes) -> None:
        """Remember the picture a message shows (an edit that keeps it uploads nothing)."""
        if len(self._pictures) > 10_000:
            self._pictures.clear()
        self._pictures[(chat, message_id)] = hash(image)

    async def _get(self, table: int | None, key: str) -> Kept | None:
        """The message kept under `key` for `table` ("chat:message:p|t[:a]")."""
        if table is None:
            return None
        value = await self.store.adapter_get(table, PLATFORM, key)
        if not value:
            return None
        chat, message_id, kind, *acting = value.split(":")
        return Kept(int(chat), int(message_id), kind == "p", acting == ["a"])

    async def _put(self, table: int | None, key: str, chat: int, sent: TgMessage,
                   acting: bool = False) -> None:
        if table is not None:
            await self._put_kept(table, key, Kept(chat, sent.message_id, bool(sent.photo),
                                                  acting))

    async def _put_kept(self, table: int | None, key: str, kept: Kept) -> None:
        if table is not None:
            value = f"{kept.chat}:{kept.message_id}:{'p' if kept.photo else 't'}"
            await self.store.adapter_set(table, PLATFORM, key,
                                         value + (":a" if kept.acting else ""))

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
                web = self.web_url(table)  # the web table, beside "my hand" (issue 30)
                if web:
                    rows.setdefault(a.row, []).append(InlineKeyboardButton("Web", url=web))
            else:
                label = LEGAL_MARK + a.label if private and a.style == "primary" and a.enabled \
                    and verb in ("p", "e") else a.label
                button = InlineKeyboardButton(label, callback_data=a.data)
            rows.setdefault(a.row, []).append(button)
        web_app = self.web_app_url(table) if private and rows and table is not None else None
        if web_app:  # the Mini App, on a row of its own under a hand (issue 30)
            rows[max(rows) + 1] = [InlineKeyboardButton("Web", web_app=WebAppInfo(web_app))]
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


def _when(m: Message, batch: list[Message]) -> int:
    """When a public message of `batch` is written: a state that a computer's move replaces
    at once (`fleeting`) never when its players get their hands (they see the moves in their
    private chats: the group is written when a human must act or a round ends), else with
    writes to spare (a table of computers alone); anything else at once."""
    if not fleeting(m, batch):
        return NOW
    if any(o.table == m.table and o.kind == "hand" for o in batch):
        return SKIP
    return SPARE


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
