"""Turn pings: who asked not to be notified when it is their turn, and the half-time reminder.

A user's choice is kept in the store's user preferences (both backends), under the service's
name: ``user_prefs(user, "service", "pings") = "off"``.  The service keeps the users who turned
pings off in memory (loaded when they sit at a table or after a restart; on several
processes, read again when a table is taken under its lock, at most every `PINGS_FRESH`
seconds of bot/service/state.py, so that a choice made through another process counts) and
marks their messages `Message.quiet`: the turn message still names them, the adapters do not
notify.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from ..i18n import t, tn
from ..storage import Store
from .messages import Message

PLATFORM = "service"
KEY = "pings"
ON, OFF = "on", "off"


async def enabled(store: Store, user_id: str) -> bool:
    """Whether the user wants to be notified when it is their turn (yes unless said off)."""
    return await store.user_pref_get(user_id, PLATFORM, KEY) != OFF


async def remember(store: Store, user_id: str, on: bool) -> None:
    await store.user_pref_set(user_id, PLATFORM, KEY, ON if on else OFF)


def hush(messages: Iterable[Message], quiet: set[str]) -> list[Message]:
    """`messages` with `quiet` set to the users among their mentions (or their private
    recipient) who turned pings off."""
    out = []
    for m in messages:
        who = tuple(u for u in (*m.mention, *([m.to] if m.to else [])) if u in quiet)
        out.append(dataclasses.replace(m, quiet=who) if who else m)
    return out


def state_text(lang: str, on: bool) -> str:
    if on:
        return t(lang, "Turn pings are on: you are notified when it is your turn.")
    return t(lang, "Turn pings are off: your turns are shown without notifying you.")


def reminder(lang: str, table: int, left: float, channel: str, user: str) -> Message:
    """The private reminder at half of a turn's time."""
    n = max(1, round(left))
    return Message(channel, tn(lang, "Table #{id}: half of your time to play is gone ({n} "
                               "second left).", "Table #{id}: half of your time to play is "
                               "gone ({n} seconds left).", n, id=table),
                   to=user, kind="info", table=table)
