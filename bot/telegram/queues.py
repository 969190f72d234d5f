"""The outbox's queues: one per chat, worked in the background within Telegram's flood
limits (bot/telegram/pacing.py), where a newer state of a table replaces the one waiting.

Every write but those that make an answer (a reply, a first hand) goes through its chat's
queue: a table message, turn line or hand still waiting there is replaced by a newer one of
its table, in the old one's place, and a worker takes its next write only once the chat may
have it, so a table message is never more than one write behind.  A batch of messages (a
move and the computer moves after it) keeps only each message's last state
(`latest_states`), and `when_written` says when a group's table message goes: a state that
a computer's move replaces at once is written only when someone may need it.  A group's
writes go round its tables (`ChatQueues._fairest`): the next is the first waiting of the
table written longest ago, its turn line and score sheets counting as its writes; and
while another table waits, a table's score sheet and its table message both waiting are ONE
write (`ChatQueues._joined`: the table message shows the sheet until its next edit).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from telegram.error import TelegramError

from .. import metrics
from ..logcontext import detached, table_context
from ..service.messages import Message, fleeting
from .ids import parse_channel
from .pacing import Pace, now

log = logging.getLogger("domino.telegram")

NOW, SPARE, SKIP = 0, 1, 2  # when a queued write goes: at once, with writes to spare, never


@dataclass
class Job:
    """A write waiting in its chat's queue."""

    m: Message
    when: int = NOW  # NOW, SPARE or SKIP (a group's table message)
    acting: bool = False  # a hand: its user must act now
    mine: bool = False  # a hand: the answer to its user's own action (they are looking)
    gone: int | None = None  # not `m` but this message of its chat deleted
    about: str = ""  # a group notice telling this user to open the private chat (kept, to
    # be taken down once they have their hand or the game is over)
    sheet: Message | None = None  # a table message: its round's score sheet, shown in it

    @property
    def slot(self) -> tuple[int, str] | None:
        """What a newer job of the same slot replaces: a table's message, turn line, hand."""
        if self.m.table is None or self.gone is not None:
            return None
        kind = {"table": "table", "result": "table", "turn": "turn", "hand": "hand"}
        return (self.m.table, kind[self.m.kind]) if self.m.kind in kind else None


class ChatQueues:
    """The writes waiting in each chat, and one worker per chat that makes them in order
    with `write`, each when `pace` lets its chat have it."""

    def __init__(self, pace: Pace, write: Callable[[Job], Awaitable[None]]) -> None:
        self.pace = pace
        self._write = write
        self._queues: dict[int, deque[Job]] = {}  # chat -> writes waiting
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._arrived: dict[int, asyncio.Event] = {}  # chat -> a job came (wakes its worker)
        self._last: dict[tuple[int, int], float] = {}  # (group, table) -> its last write
        metrics.telegram_queues(self)  # their depth is a gauge (bot/metrics.py)

    def put(self, job: Job) -> None:
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
                # detached: it outlives the press that starts it, and names each job's table
                self._workers[chat] = detached(self._work(chat), name=f"chat {chat}")

    async def _work(self, chat: int) -> None:
        queue = self._queues[chat]
        while (job := await self._next(chat, queue)) is not None:
            if chat < 0 and job.m.table is not None:
                if len(self._last) > 10_000:
                    self._last.clear()
                self._last[(chat, job.m.table)] = now()
            with table_context(job.m.table, "telegram"):
                try:
                    await self._write(job)
                except TelegramError as exc:
                    log.warning("could not deliver a %s message: %s", job.m.kind, exc)
                except Exception:
                    log.exception("chat %s: a %s message failed", chat, job.m.kind)

    async def _next(self, chat: int, queue: deque[Job]) -> Job | None:
        """The next write of `chat`, taken from its queue once the chat may have it (so that
        it is the newest state); None when only states never to be written are left."""
        arrived = self._arrived.setdefault(chat, asyncio.Event())
        while True:
            at_once = [j for j in queue if j.when == NOW]
            spare = [j for j in queue if j.when == SPARE]
            if not at_once and not spare:
                return None
            wait = self.pace.wait(chat, now(), spare=not at_once)
            if wait <= 0:
                job = self._fairest(chat, at_once or spare)
                queue.remove(job)
                return self._joined(chat, queue, job)
            arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(arrived.wait(), wait)

    def _fairest(self, chat: int, jobs: list[Job]) -> Job:
        """The job to write first of `jobs` (in queue order): in a group, the first of the
        table written longest ago (a message of no table: at once), so that the group's
        writes go round its tables, a table's turn line and score sheet counting as its
        writes: no table waits more than about two rounds of the others."""
        if chat > 0:
            return jobs[0]
        return min(jobs, key=lambda j: (0, 0.0) if j.m.table is None else (
            1, self._last.get((chat, j.m.table), float("-inf"))))

    @staticmethod
    def _joined(chat: int, queue: deque[Job], job: Job) -> Job:
        """`job`, or the ONE write that shows both a table's score sheet and its table message
        when `job` is one of them, the other waits too and so does another table of the group:
        a quarter of a busy group's writes were score sheets, and the table whose round ended
        then waited a whole extra round of the others for its table message.  The table message
        (its latest state: its buttons, its words) shows the sheet's picture and words until
        its next edit.  Alone in its group, or at a game's end, the sheet stays a message."""
        table = job.m.table
        if chat > 0 or table is None or job.gone is not None or job.m.kind not in (
                "table", "board"):
            return job
        if not any(q.m.table not in (None, table) and q.when != SKIP for q in queue):
            return job  # nobody else waits: the sheet keeps its own message
        kind = "board" if job.m.kind == "table" else "table"
        other = next((q for q in queue if q.m.table == table and q.m.kind == kind
                      and q.gone is None and not q.about and q.m.to is None), None)
        if other is None:
            return job
        queue.remove(other)
        shown, sheet = (job, other) if kind == "board" else (other, job)
        return dataclasses.replace(shown, sheet=sheet.m, when=NOW)

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


def when_written(m: Message, batch: list[Message]) -> int:
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


def with_sheet(table: Message, sheet: Message) -> Message:
    """The table message `table` showing its round's score sheet (`ChatQueues._joined`): the
    sheet's picture (the final board, the hands left, the scores) and its words before the
    table's own (a caption too long loses the table's last lines), with the table's buttons."""
    if sheet.image is None:
        return dataclasses.replace(table, text=f"{sheet.text}\n\n{table.text}")
    return dataclasses.replace(table, text=f"{sheet.text}\n\n{table.text}", image=sheet.image,
                               alt=sheet.text)
