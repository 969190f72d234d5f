"""What must be said survives a crash (issue 37, item 17): the outbox.

A change whose messages nobody could make again from the state after a restart writes them
with itself, in its own transaction (the store's `outbox` rows, bot/storage/outbox.py):

* a tournament round's announcement (bot/tournament/rounds.py, `Rounds._open_round`: the
  compare-and-set that marks the round announced), the standings after a round and the
  podium (`Rounds._next_round`'s compare-and-set that closes the round or the tournament);
* a game's end and result (`Results._finish`: with the result, the ratings and the last
  move, in `finish_game`'s transaction).

A turn prompt whose timer runs needs no row: the table in play, with its deadline, is its
record, and a restart prompts every current player again and moves the deadline so that the
prompt can be read first (`Clock.start`).

Each row has a key that names its message ("t12:r3", "t12:s2", "t12:podium", "end:57"): the
message the service returns carries the key (`Message.outbox`; the end of a game is any
public "result" message of its table), and the row is marked sent when the message is handed
to the platform's adapter (`handed`: by the door for an interaction's reply, by the router of
bot/app.py for the ticks' messages).  A process killed after the write and before the hand-
over leaves the row unsent: the next process takes it (`recover`, at its start; with
several processes on one database, the rows of a process that died are taken by the others'
ticks after `GRACE` seconds) and says it.  A row is taken and marked sent in one step, so it
is handed over once: the one message that may be lost is one whose platform call was under
way when the process died (the platform's answer never came); it is not sent again, since
the platforms have no key by which a second copy could be refused, and a player who saw the
round's announcement twice would not know which to believe.

Pictures are not kept: a message said again after a restart has its words and buttons, not
its picture (the standings' table is in the words; the board of a finished game is on the
table message that the restart does not replace).  Private files (an exported record) never
go through the outbox.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .messages import Action, Message

if TYPE_CHECKING:
    from .host import Host

log = logging.getLogger("domino.service")

GRACE = 60.0  # seconds before another process takes a living process's unsent rows
SWEEP = 30.0  # seconds between two looks for a dead peer's rows (several processes)
KEEP = 86_400.0  # seconds a sent row is kept before it is forgotten
FIELDS = ("channel", "text", "to", "kind", "table", "mention", "named", "said", "quiet")


def owner(service: Host) -> str:
    """This process's name on the rows it writes (a new one at every start)."""
    name: str | None = service.__dict__.get("_outbox_owner")
    if name is None:
        name = service.__dict__["_outbox_owner"] = f"{os.getpid()}-{os.urandom(4).hex()}"
    return name


def encode(m: Message) -> str:
    """The message as JSON: its words, buttons and addressees (no picture, no file)."""
    data: dict[str, Any] = {f: getattr(m, f) for f in FIELDS}
    data["actions"] = [[a.label, a.data, a.style, a.enabled, a.row] for a in m.actions]
    return json.dumps(data, ensure_ascii=False)


def decode(key: str, text: str) -> Message:
    """The message of a row (ValueError, KeyError or TypeError: a row this code cannot
    read)."""
    data = json.loads(text)
    actions = tuple(Action(str(a[0]), str(a[1]), a[2], bool(a[3]), int(a[4]))
                    for a in data.get("actions", ()))
    return Message(str(data["channel"]), str(data["text"]), to=data.get("to"),
                   kind=data.get("kind", "info"), table=data.get("table"), actions=actions,
                   mention=tuple(data.get("mention", ())), named=str(data.get("named", "")),
                   said=tuple(data.get("said", ())), quiet=tuple(data.get("quiet", ())),
                   outbox=key)


def end_key(table_id: int) -> str:
    return f"end:{table_id}"


def key_of(m: Message) -> str:
    """The row a message says, if any ("": none)."""
    if m.outbox:
        return m.outbox
    if m.kind == "result" and m.to is None and m.table is not None:
        return end_key(m.table)
    return ""


def keyed(key: str, messages: Sequence[Message]) -> list[Message]:
    """The messages each given its row's key: `key` for one, `key.1`, `key.2`... after."""
    return [dataclasses.replace(m, outbox=key if i == 0 else f"{key}.{i}")
            for i, m in enumerate(messages)]


def rows(service: Host, messages: Sequence[Message]) -> list[tuple[str, str, float, str]]:
    """The store's rows for keyed messages (storage/outbox.py's OutRow)."""
    now, me = service.clock(), owner(service)
    return [(key_of(m), me, now, encode(m)) for m in messages if key_of(m)]


async def handed(service: Host, messages: Sequence[Message]) -> None:
    """The messages are handed to their platform: their rows are said (a failure is
    logged: the row is said again by the next process, which is better than never)."""
    keys = [k for k in map(key_of, messages) if k]
    if not keys:
        return
    try:
        await service.store.outbox_sent(keys, service.clock())
    except Exception:
        log.exception("outbox: cannot mark %d messages sent", len(keys))


async def recover(service: Host, alone: bool) -> list[Message]:
    """The messages of the rows that a dead process wrote and never handed over, taken
    (and marked) now: every unsent row of another process when this one is `alone` on the
    database (at its start), else those older than GRACE seconds."""
    now = service.clock()
    before = float("inf") if alone else now - GRACE
    out: list[Message] = []
    try:
        taken = await service.store.outbox_claim(owner(service), before, now)
        if now - service.__dict__.get("_outbox_purged", float("-inf")) > KEEP / 24:  # hourly
            service.__dict__["_outbox_purged"] = now
            await service.store.outbox_purge(now - KEEP)
    except Exception:
        log.exception("outbox: cannot read the messages left unsaid")
        return []
    for key, text in taken:
        try:
            out.append(decode(key, text))
        except (ValueError, KeyError, TypeError, IndexError):
            log.error("outbox: message %s cannot be read; dropped", key)
    if out:
        log.warning("outbox: saying %d messages a stopped process left unsaid", len(out))
    return out
