"""Telegram delivery: the service's `Message`s turned into Bot API calls.

Public messages go to the group (and forum topic) named by their channel
("telegram:<chat>" or "telegram:<chat>:<thread>").  Each table has ONE table
message in its chat, edited as the game goes (text, caption, or the picture
with editMessageMedia, or the caption alone when the picture is the one shown); each
player has ONE hand message per table in their private chat with the bot.  Their ids are
kept with `store.adapter_set`, so they survive a restart (bot/telegram/calls.py).  A batch
of messages (a move and the computer moves after it) edits each of them once, with its last
state; the turn line is text and a mention, so a batch uploads the board picture once.

Private messages (hands, errors, statistics) never go to a group: a private
answer to a button press becomes the callback's answer when it fits, else it
goes to the private chat, like the answers to commands.  When the private
chat is not open yet (403 Forbidden), the user is told to open the deep link
first: the callback's answer opens it (its `url`), a command gets a reply with no private
text, and another player whose hand could not be delivered gets one group message with
the link, at once, taken down once their hand reaches them or the game is over.

Group writes and Telegram's flood limits (bot/telegram/pacing.py): a group gets a write
when a human must act or a round ends, not per computer move.  Every write but those that
make an answer (a reply, a first hand) waits in its chat's queue (bot/telegram/queues.py),
where a newer state of a table replaces the one waiting.  A group table message that a
computer's move replaces at once (`Message.said` and no turn, score sheet or result beside
it) is not written when its players see the moves in their private chats, and written only
with writes to spare at a table of computers alone.  A table has ONE turn line, sent once
and edited when it names another player.  A press is answered first, its hand edited next
in the private chat's queue (`Outbox.drain` waits for the queues to empty).

The private chat shows every move of the player's tables: their hand's caption begins with
what was said at the table since their last move (memory's turned tiles too), and when
they must act, their hand comes as a new message (which notifies them) and the old one is
deleted once they have played (not while their move may come: the deletion would take the
chat's one write a second, and their hand would wait for it): one hand message per table,
edited in place while the others play.  An edit that would change nothing is not made
(bot/telegram/calls.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import html
import logging
from dataclasses import dataclass, field
from typing import Any

from telegram import Bot, CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup
from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden, TelegramError

from ..i18n import lang_for, t
from ..service.messages import Action, Message, acting, action_data
from ..storage import Store
from .calls import MAX_CAPTION, Calls
from .format import MAX_TEXT, mention_links
from .ids import channel_of, deep_link, parse_channel
from .keyboards import Address, keyboard, no_address
from .pacing import Pace, PacedBot, shared_budget
from .queues import ChatQueues, Job, latest_states, when_written, with_sheet

log = logging.getLogger("domino.telegram")

MAX_ALERT = 200
HAND_WAIT = 5.0  # seconds the turn line waits for the hand that asks its player to act
MAX_SAID = 40  # lines of a table's moves kept for a player's hand caption


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


class Outbox:
    """Sends and edits messages for the service; `deliver` is what the router calls."""

    def __init__(self, bot: Bot, store: Store, username: str, pace: Pace | None = None
                 ) -> None:
        self.pace = pace or Pace()
        # several processes on one database: a chat's budget shared through it (pacing.py)
        self.bot: Any = PacedBot(bot, self.pace, shared_budget(store, getattr(bot, "token", ""),
                                                                  self.pace))
        self.store = store
        self.username = username
        self.calls = Calls(self.bot, store)
        self.queues = ChatQueues(self.pace, lambda job: self._one(job, None))
        self._busy: dict[int, asyncio.Lock] = {}  # chat -> held while a job writes there
        self._told: set[tuple[int | None, str]] = set()  # (table, user) told to open the chat
        self._stale: dict[tuple[int | None, str], list[int]] = {}  # (table, user) -> hand
        # messages a new one replaced, to delete once the user has acted
        self._said: dict[tuple[int, str], list[str]] = {}  # (table, user) -> moves since theirs
        self._turns: dict[int, str] = {}  # table -> the text its turn line shows
        # (table, user) -> set once the hand that asks the user to act is written: the turn
        # line waits for it (the group and the private chat are two queues), so that it
        # knows whether the hand reached them (then its mention does not notify them again)
        self._hands: dict[tuple[int | None, str], asyncio.Event] = {}
        # table -> the address of its "Web" button (bot/web/reply.py), or None: no button
        self.web_url: Address = no_address
        self.web_app_url: Address = no_address  # the Mini App, in private chats

    async def deliver(self, messages: list[Message], origin: Origin | None = None,
                      hold: bool = False) -> None:
        """What shapes the answer to `origin` now (its user's replies, and a hand that has
        no message yet); everything else queued for its chat (`ChatQueues.put`), and the
        queues started unless `hold` (then `start` starts them: after a button's answer)."""
        self._remember_moves(messages, origin)
        must = acting(messages)
        coming = {(m.table, m.to or "") for m in messages if m.kind == "hand"}
        for who in must:  # before any job runs: the turn line waits for these hands
            if who in coming:
                self._hands[who] = asyncio.Event()
            else:  # no hand of theirs on its way (an older one replaced in its queue)
                self._hands.pop(who, None)
        for m in latest_states(messages):
            if m.to is None:
                self.queues.put(Job(m, when=when_written(m, messages)))
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
                self.queues.put(job)
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
        return await self.calls.get(m.table, f"hand:{m.to.split(':', 1)[1]}") is not None

    def start(self) -> None:
        """Work every chat's queue (one task per chat, in order)."""
        self.queues.start()

    async def drain(self) -> None:
        """Wait until every queue is empty (but the states never to be written) and its
        writes are done."""
        await self.queues.drain()

    async def close(self, timeout: float = 5) -> None:
        """Finish the group writes still waiting (for at most `timeout` seconds)."""
        await self.queues.close(timeout)

    def keyboard(self, actions: tuple[Action, ...], table: int | None, private: bool = False
                 ) -> InlineKeyboardMarkup | None:
        return keyboard(actions, table, self.username, private, self.web_url, self.web_app_url)

    async def _one(self, job: Job, origin: Origin | None) -> None:
        """Write `job`, one job at a time per chat (an answer's hand and a queued one would
        both send a first hand message)."""
        where = parse_channel(job.m.to if job.m.to is not None else job.m.channel)
        if where is None:
            return
        if job.m.kind != "hand":  # a reply, a note: no first message to race for
            await self._write(job, origin)
            return
        async with self._busy.setdefault(where[0], asyncio.Lock()):
            await self._write(job, origin)

    async def _write(self, job: Job, origin: Origin | None) -> None:
        m = job.m
        if job.gone is not None:  # a message of that chat goes
            gone = parse_channel(m.to if m.to is not None else m.channel)
            if gone is not None:
                await self.calls.delete(gone[0], job.gone)
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
            await self._table(m if job.sheet is None else with_sheet(m, job.sheet), chat, thread)
        elif m.kind == "turn" and m.table is not None:
            await self._turn(m, chat, thread)
        elif job.about:
            await self._notice(job, chat, thread)
        else:
            await self.calls.send(chat, thread, m, self.keyboard(m.actions, m.table))

    # -- the table message in the group ---------------------------------------------------

    async def _table(self, m: Message, chat: int, thread: int | None) -> None:
        markup = self.keyboard(m.actions, m.table)
        key = "table"
        old = await self.calls.get(m.table, key)
        if m.kind == "result":  # the game is over: its turn line goes, and its notices
            turn = await self.calls.get(m.table, "turn")
            if turn is not None:
                await self.calls.delete(turn.chat, turn.message_id)
                await self.calls.forget(m.table or 0, "turn")
                self._turns.pop(m.table or 0, None)
            await self._notices_down(m.table or 0)
        if old is not None and old.chat == chat:
            if await self.calls.edit(chat, old.message_id, old.photo, m, markup):
                return
            if m.image is not None and not old.photo:
                # the lobby text makes way for the picture
                await self.calls.delete(chat, old.message_id)
        sent = await self.calls.send(chat, thread, m, markup)
        await self.calls.put(m.table, key, chat, sent)

    async def _turn(self, m: Message, chat: int, thread: int | None) -> None:
        """The table's one turn line: sent once, with the mention (which notifies), then
        edited when it says something else (the player is notified in the private chat,
        where their hand comes as a new message)."""
        assert m.table is not None
        text = html.escape(m.text) + mention_links(m.mention)
        button = InlineKeyboardButton(await self.calls.hand_label(m.table),
                                      url=deep_link(self.username, m.table))
        markup = InlineKeyboardMarkup([[button]])
        old = await self.calls.get(m.table, "turn")
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
        # its mention notifies, but not who turned pings off or gets their hand privately
        for who in m.mention:  # their hand of this turn first, if it is on its way
            written = self._hands.get((m.table, who))
            if written is not None:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(written.wait(), HAND_WAIT)
        silent = bool(m.quiet) or await self._reached(m)
        sent = await self.bot.send_message(chat, text, message_thread_id=thread,
                                           parse_mode=ParseMode.HTML, reply_markup=markup,
                                           disable_notification=silent)
        self._turns[m.table] = text
        await self.calls.put(m.table, "turn", chat, sent)

    async def _reached(self, m: Message) -> bool:
        """Every user `m` mentions has their hand of its table in their private chat (a new
        hand notifies them there when they must act)."""
        users = [who.split(":", 1)[1] for who in m.mention]
        if not users or m.table is None:
            return False
        for u in users:
            if not u.isdigit() or await self.calls.get(m.table, f"hand:{u}") is None:
                return False
        return True

    # -- the hand in the private chat -------------------------------------------------------

    async def _hand(self, job: Job, origin: Origin | None) -> None:
        try:
            await self._write_hand(job, origin)
        finally:
            key = (job.m.table, job.m.to or "")
            written = self._hands.pop(key, None) if job.acting else None
            if written is not None:
                written.set()

    async def _write_hand(self, job: Job, origin: Origin | None) -> None:
        """The user's hand message of the table, its caption beginning with the moves made
        since theirs: edited in place, or sent anew (the old one deleted) when the user
        must act and did not have to before, so that it notifies them."""
        m = self._with_moves(job.m)
        assert m.to is not None
        chat = int(m.to.split(":", 1)[1])
        markup = self.keyboard(m.actions, m.table, private=True)
        key = f"hand:{chat}"
        old = await self.calls.get(m.table, key) if m.table is not None else None
        fresh = job.acting and not job.mine and old is not None and not old.acting
        # asked for from elsewhere than the private chat (/hand in a group): the chat may be
        # closed, and only a call tells (an unchanged hand is not written again otherwise)
        check = origin is not None and origin.user == m.to and origin.chat_id != chat
        if old is not None and not fresh and await self.calls.edit(
                chat, old.message_id, old.photo, m, markup, check=check):
            if old.acting != job.acting:
                await self.calls.put_kept(m.table, key, old._replace(acting=job.acting))
            await self._notice_down(m.table, m.to)
            self._clear(job)
            return
        try:  # a new hand notifies only a user who must act
            sent = await self.calls.send(chat, None, m, markup,
                                         silent=not job.acting)
        except Forbidden:
            if origin is not None and origin.user == m.to:
                await self._open_first(m, origin)
            else:
                await self._tell_to_open(m)
            return
        if m.table is not None:
            await self.calls.put(m.table, key, chat, sent, acting=job.acting)
        await self._notice_down(m.table, m.to)
        if old is not None and fresh:  # it goes once the user has acted (below)
            self._stale.setdefault((m.table, m.to), []).append(old.message_id)
        self._clear(job)

    def _clear(self, job: Job) -> None:
        """The hand messages that a new one replaced go once its user no longer has to act
        (after their move's own hand is written), before the chat's next write: a deletion
        while they must act would take the chat's one write a second just when their move
        comes, and their hand would wait for it."""
        if job.acting:
            return
        for gone in self._stale.pop((job.m.table, job.m.to or ""), []):
            self.queues.put(Job(Message("", "", to=job.m.to, table=job.m.table), gone=gone))

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
        self.queues.put(Job(Message(m.channel, text, kind="info", table=m.table,
                                    actions=(link,)), about=m.to))
        self.start()  # the group's worker may be done already: the hand failed in another queue

    async def _notice(self, job: Job, chat: int, thread: int | None) -> None:
        """The group notice telling a player to open the private chat, kept to be taken
        down; not sent when it already has been (their hand reached them meanwhile)."""
        m = job.m
        if (m.table, job.about) not in self._told:
            return
        sent = await self.calls.send(chat, thread, m, self.keyboard(m.actions, m.table))
        await self.calls.put(m.table, notice_key(job.about), chat, sent)

    async def _notice_down(self, table: int | None, user: str) -> None:
        """`user`'s hand reached them: the group notice telling them to open the private
        chat goes (in the group's queue)."""
        if (table, user) not in self._told:
            return
        self._told.discard((table, user))
        kept = await self.calls.get(table, notice_key(user))
        if kept is None or table is None:
            return
        await self.calls.forget(table, notice_key(user))
        self.queues.put(Job(Message(channel_of(kept.chat), ""), gone=kept.message_id))
        self.start()

    async def _notices_down(self, table: int) -> None:
        """The game is over: every notice of its table telling a player to open the private
        chat goes (also those sent before a restart)."""
        row = await self.store.get_table(table)
        for user in {s.user_id for s in row.seats if s.user_id} if row is not None else ():
            self._told.discard((table, user))
            if not user.startswith("telegram:"):
                continue
            kept = await self.calls.get(table, notice_key(user))
            if kept is not None:
                await self.calls.forget(table, notice_key(user))
                await self.calls.delete(kept.chat, kept.message_id)

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
            await self.calls.send(chat, None, m, self.keyboard(m.actions, m.table, private=True),
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
            await self.calls.send(chat, None, m,
                                  self.keyboard(m.actions, m.table, private=True))
        except Forbidden:
            log.info("a private %s message was not delivered: private chat not open", m.kind)


def notice_key(user: str) -> str:
    """Where the group notice telling `user` to open the private chat is kept."""
    return f"told:{user.split(':', 1)[1]}"
