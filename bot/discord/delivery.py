"""Putting the service's messages on Discord.

* Public "table"/"result" messages edit the one table message of the game (its channel and
  message id are kept with `store.adapter_set(table, "discord", "table", ...)`); the first
  one is sent.  So the board picture is uploaded once per move.  "turn" messages are new,
  with no picture: the mention (which notifies the player) and "My hand"; the previous turn
  message of the table is deleted, also when the turn goes to a computer or the game
  ends.  Other public messages are sent.
* A private message for the user of the interaction being answered is ephemeral; a hand
  shown from a click on that user's hand message is edited in place.  A hand shown again
  ("My hand") takes the buttons off the user's older ephemeral copy of it, which would be
  stale (an ephemeral message can be edited only through its interaction's token).
* A hand for another user (the next player) edits that user's last ephemeral hand while
  its interaction token is valid, or their hand by DM if they chose DMs.  When a DM is
  refused (403, code 50007) the choice is reset and the user is told at their next
  interaction; the ephemeral path keeps working.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime
import logging
from dataclasses import dataclass
from typing import Any

import discord

from ..i18n import t
from ..service.messages import Action, Message
from ..storage import Store
from .views import chunks, content_for, files_for, mentions_for, view_for

log = logging.getLogger("domino.discord")

PLATFORM = "discord"
DM_REFUSED = 50007
TOKEN_MARGIN = datetime.timedelta(seconds=30)


def discord_id(prefixed: str) -> int | None:
    """123 for "discord:123"; None for another platform or a malformed id."""
    platform, _, rest = prefixed.partition(":")
    rest = rest.split(":", 1)[0]
    return int(rest) if platform == PLATFORM and rest.isdigit() else None


@dataclass
class Reply:
    """The interaction being answered: private messages for its user are shown there."""

    interaction: discord.Interaction
    user: str  # "discord:<id>"
    lang: str
    in_place: bool = False  # a click on the user's own hand message: edit that message
    original_free: bool = False  # a deferred command: the first private reply fills it
    page: int = 0


@dataclass
class HandSlot:
    """Where a user's ephemeral hand for a table can still be edited."""

    interaction: discord.Interaction
    message_id: int | None  # None: the interaction's original response
    shown: int | None = None  # the id of the message it edits, when known

    def usable(self) -> bool:
        return discord.utils.utcnow() < self.interaction.expires_at - TOKEN_MARGIN

    async def edit(self, **fields: Any) -> None:
        if self.message_id is None:
            await self.interaction.edit_original_response(**fields)
        else:
            await self.interaction.followup.edit_message(self.message_id, **fields)


class Delivery:
    """Sends, edits and deletes Discord messages for the service's messages."""

    def __init__(self, client: discord.Client, store: Store) -> None:
        self.client = client
        self.store = store
        self.slots: dict[tuple[int, str], HandSlot] = {}

    async def send(self, messages: list[Message], reply: Reply | None = None) -> None:
        prompted = {m.table for m in messages if m.kind == "turn"}
        for m in _with_hand_buttons(messages):
            try:
                await self._one(m, reply, m.table in prompted)
            except discord.HTTPException as exc:
                log.warning("could not deliver a %s message of table %s: %s %s", m.kind,
                            m.table, exc.status, exc.code)

    async def _one(self, m: Message, reply: Reply | None, prompted: bool) -> None:
        if m.to is None:
            await self._public(m, prompted)
        elif discord_id(m.to) is None:
            return
        elif reply is not None and m.to == reply.user:
            if m.kind == "hand":
                await self._hand_reply(m, reply)
            else:
                await self.ephemeral(reply, m)
        elif m.kind == "hand":
            await self._push_hand(m)
        else:
            await self._dm(m, remember=False)

    # -- public -------------------------------------------------------------------------

    async def _public(self, m: Message, prompted: bool = False) -> None:
        """`prompted`: a turn message of this table comes in the same batch."""
        cid = discord_id(m.channel)
        if cid is None:
            return
        channel = self.client.get_partial_messageable(cid)
        fields = _fields(m)
        if m.table is not None and m.kind in ("table", "result"):
            if not prompted:  # the game moved on to a computer, or ended: no one to notify
                old = await self.store.adapter_get(m.table, PLATFORM, "turn")
                if old:
                    await self._delete(old)
                    await self.store.adapter_set(m.table, PLATFORM, "turn", "")
            if await self._edit_stored(m.table, "table", **fields):
                return
            sent = await channel.send(**_send_fields(fields))
            await self.store.adapter_set(m.table, PLATFORM, "table", f"{cid}:{sent.id}")
            return
        if m.table is not None and m.kind == "turn":
            old = await self.store.adapter_get(m.table, PLATFORM, "turn")
            sent = await channel.send(**_send_fields(fields), silent=bool(m.quiet))
            await self.store.adapter_set(m.table, PLATFORM, "turn", f"{cid}:{sent.id}")
            if old:
                await self._delete(old)
            return
        for i, text in enumerate(chunks(m.text)):
            extra = _send_fields(fields) if i == 0 else {}
            # the first piece keeps the mentions (those the message notifies)
            extra["content"] = content_for(dataclasses.replace(m, text=text)) if i == 0 else text
            await channel.send(**extra)

    async def _edit_stored(self, table: int, key: str, **fields: Any) -> bool:
        stored = await self.store.adapter_get(table, PLATFORM, key)
        if not stored:
            return False
        cid, _, mid = stored.partition(":")
        message = self.client.get_partial_messageable(int(cid)).get_partial_message(int(mid))
        try:
            await message.edit(**fields)
        except (discord.NotFound, discord.Forbidden):
            return False
        return True

    async def _delete(self, stored: str) -> None:
        cid, _, mid = stored.partition(":")
        with contextlib.suppress(discord.HTTPException):
            await self.client.get_partial_messageable(int(cid)).get_partial_message(
                int(mid)).delete()

    # -- private: the user of the interaction ------------------------------------------------

    async def ephemeral(self, reply: Reply, m: Message) -> None:
        """A private message shown only to the user of the interaction."""
        fields = _fields(m)
        pieces = chunks(m.text)
        for i, text in enumerate(pieces):
            one = {**fields, "content": text} if i == len(pieces) - 1 else {"content": text}
            if reply.original_free:
                reply.original_free = False
                await reply.interaction.edit_original_response(**one)
            else:
                await reply.interaction.followup.send(ephemeral=True, wait=True,
                                                      **_send_fields(one))

    async def _hand_reply(self, m: Message, reply: Reply) -> None:
        key = (m.table or 0, m.to or "")
        fields = _fields(m, reply.page)
        if reply.in_place:
            await reply.interaction.edit_original_response(**fields)
            clicked = reply.interaction.message
            await self._new_slot(key, HandSlot(reply.interaction, None,
                                               clicked.id if clicked else None))
            return
        pref = await self.store.user_pref_get(reply.user, PLATFORM, "hand")
        if pref == "dm":
            if await self._dm(m, remember=True):
                await self.ephemeral(reply, _note(m, t(reply.lang, "Your hand is in your "
                                                             "direct messages.")))
                return
            pref = "refused"
        if pref == "refused":
            await self.store.user_pref_set(reply.user, PLATFORM, "hand", "here")
            await self.ephemeral(reply, _note(m, t(
                reply.lang, "I cannot send you direct messages (your privacy settings refuse "
                "them), so your hand stays here, visible only to you.")))
        if reply.original_free:
            reply.original_free = False
            shown = await reply.interaction.edit_original_response(**fields)
            await self._new_slot(key, HandSlot(reply.interaction, None, shown.id))
        else:
            sent = await reply.interaction.followup.send(ephemeral=True, wait=True,
                                                         **_send_fields(fields))
            await self._new_slot(key, HandSlot(reply.interaction, sent.id, sent.id))

    async def _new_slot(self, key: tuple[int, str], slot: HandSlot) -> None:
        """Keep `slot` as where the user's hand of a table is edited from now on; an older
        ephemeral copy of the hand loses its buttons (they would be stale), while its
        interaction token lets us edit it."""
        old = self.slots.get(key)
        self.slots[key] = slot
        if old is None or not old.usable() or (old.shown is not None
                                                and old.shown == slot.shown):
            return
        with contextlib.suppress(discord.HTTPException):
            await old.edit(view=None)

    # -- private: anyone else -----------------------------------------------------------------

    async def _push_hand(self, m: Message) -> None:
        """A hand for a user who is not interacting now (the next player)."""
        user = m.to or ""
        if await self.store.user_pref_get(user, PLATFORM, "hand") == "dm":
            if await self._dm(m, remember=True):
                return
            await self.store.user_pref_set(user, PLATFORM, "hand", "refused")
        key = (m.table or 0, user)
        slot = self.slots.get(key)
        if slot is None or not slot.usable():
            self.slots.pop(key, None)
            return  # the turn message mentions them; "My hand" shows it
        try:
            await slot.edit(**_fields(m))
        except discord.HTTPException:
            self.slots.pop(key, None)

    async def _dm(self, m: Message, remember: bool) -> bool:
        """Send (or, for a hand, edit) a direct message; False when the user refuses DMs."""
        uid = discord_id(m.to or "")
        if uid is None:
            return False
        fields = _fields(m)
        key = f"dm:{uid}"
        try:
            if remember and m.table is not None and await self._edit_stored(m.table, key,
                                                                              **fields):
                return True
            channel = await self.client.create_dm(discord.Object(uid))
            sent = await channel.send(**_send_fields(fields), silent=bool(m.quiet))
        except discord.Forbidden as exc:
            if exc.code == DM_REFUSED:
                return False
            raise
        if remember and m.table is not None:
            await self.store.adapter_set(m.table, PLATFORM, key, f"{channel.id}:{sent.id}")
        return True


def _with_hand_buttons(messages: list[Message]) -> list[Message]:
    """A turn message gets the table message's "My hand" button, right under the mention."""
    buttons: dict[int | None, Action] = {}
    out = []
    for m in messages:
        if m.kind == "table":
            buttons.update((m.table, a) for a in m.actions if a.data.endswith(":h"))
        if m.kind == "turn" and not m.actions and m.table in buttons:
            m = dataclasses.replace(m, actions=(buttons[m.table],))
        out.append(m)
    return out


def _note(m: Message, text: str) -> Message:
    return Message(m.channel, text, to=m.to, kind="info", table=m.table)


def _fields(m: Message, page: int = 0) -> dict[str, Any]:
    """Everything a send or an edit sets: text, pictures (replacing the old ones), buttons.
    A turn message is text, the mention and "My hand" only: the board picture is uploaded
    once per move, with the edit of the table message."""
    files = [] if m.kind == "turn" else files_for(m)
    return {"content": content_for(m), "attachments": files,
            "view": view_for(m, page), "allowed_mentions": mentions_for(m)}


def _send_fields(fields: dict[str, Any]) -> dict[str, Any]:
    """The same for a new message (`files`, and no empty view)."""
    out = {k: v for k, v in fields.items() if k not in ("attachments", "view")}
    if fields.get("attachments"):
        out["files"] = fields["attachments"]
    if fields.get("view") is not None:
        out["view"] = fields["view"]
    return out
