"""The Bot API calls that put one service `Message` on Telegram: send it (a picture, a
document, a rules page as HTML in several messages, text), edit a kept message into it
(uploading the picture only when it changed, the caption alone otherwise), delete one;
and where each kept message is (its chat and id, saved with `store.adapter_set`, so that
it survives a restart)."""

from __future__ import annotations

import html
import logging
from typing import Any, NamedTuple

from telegram import InlineKeyboardMarkup, InputMediaPhoto
from telegram import Message as TgMessage
from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden, TelegramError

from ..i18n import t
from ..service.messages import Message
from ..storage import Store
from .format import MAX_TEXT, html_messages, mention_links
from .ids import PLATFORM

log = logging.getLogger("domino.telegram")

MAX_CAPTION = 1024
NOTIFYING = ("info", "result")  # public kinds whose mentions notify (the turn line: out.py)


class Kept(NamedTuple):
    """A message the outbox keeps editing: where it is, and how it was left."""

    chat: int
    message_id: int
    photo: bool
    acting: bool = False  # a hand: its user had to act


class Calls:
    """Writes through `bot` (a `PacedBot`), and the kept messages of each table in `store`."""

    def __init__(self, bot: Any, store: Store) -> None:
        self.bot = bot
        self.store = store
        self._pictures: dict[tuple[int, int], int] = {}  # (chat, message) -> its picture's hash
        # (chat, message) -> its text (or caption) and buttons as last written: an edit that
        # changes nothing is not made (Telegram refuses it: 400 "message is not modified")
        self._written: dict[tuple[int, int], tuple[str, str]] = {}

    async def send(self, chat: int, thread: int | None, m: Message,
                   markup: InlineKeyboardMarkup | None, reply_to: int | None = None,
                   silent: bool = False) -> TgMessage:
        """Send `m`; `silent` (or a user of `m` who turned turn pings off): no notification."""
        kw: dict[str, Any] = {"message_thread_id": thread, "reply_markup": markup}
        if silent or m.quiet:
            kw["disable_notification"] = True
        if reply_to is not None:
            kw["reply_to_message_id"] = reply_to
            kw["allow_sending_without_reply"] = True
        if m.image is not None:
            sent = await self.bot.send_photo(chat, m.image, caption=m.text[:MAX_CAPTION], **kw)
            self._shown(chat, sent.message_id, m.image)
            self._wrote(chat, sent.message_id, m.text[:MAX_CAPTION], markup)
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
        links = (mention_links([u for u in m.mention if u not in m.quiet])
                 if m.to is None and m.kind in NOTIFYING else "")
        if links:  # a round's line, a partner asked: the users it names are notified
            raw = m.text[:MAX_TEXT]
            while len(html.escape(raw)) + len(links) > MAX_TEXT:
                raw = raw[:-100]
            return await self.bot.send_message(chat, html.escape(raw) + links,
                                               parse_mode=ParseMode.HTML, **kw)
        sent = await self.bot.send_message(chat, m.text[:MAX_TEXT] or "·", **kw)
        self._wrote(chat, sent.message_id, m.text[:MAX_TEXT] or "·", markup)
        return sent

    async def edit(self, chat: int, message_id: int, photo: bool, m: Message,
                   markup: InlineKeyboardMarkup | None, check: bool = False) -> bool:
        """Edit a kept message into `m`; False when it cannot be (gone, text to picture).
        An edit that would change nothing is not made, unless `check` (a call tells whether
        the chat is still open: asked from elsewhere by a user who may have blocked the
        bot)."""
        same = m.image is not None and self._pictures.get((chat, message_id)) == hash(m.image)
        text = m.text[:MAX_CAPTION] if photo else m.text[:MAX_TEXT] or "·"
        if not check and (same or m.image is None) and self._written.get(
                (chat, message_id)) == (text, _buttons(markup)):
            return True  # shown as it is already
        try:
            if m.image is not None and photo and not same:
                media = InputMediaPhoto(m.image, caption=text)
                await self.bot.edit_message_media(media, chat_id=chat, message_id=message_id,
                                                  reply_markup=markup)
                self._shown(chat, message_id, m.image)
            elif m.image is not None and not photo:
                return False
            elif photo:  # a caption alone, or with the picture already shown: no upload
                await self.bot.edit_message_caption(chat_id=chat, message_id=message_id,
                                                    caption=text, reply_markup=markup)
            else:
                await self.bot.edit_message_text(text, chat_id=chat, message_id=message_id,
                                                 reply_markup=markup)
            self._wrote(chat, message_id, text, markup)
        except Forbidden:
            return False  # the user blocked the bot: sending tells who asked
        except BadRequest as exc:
            if "not modified" in str(exc).lower():
                self._wrote(chat, message_id, text, markup)
                return True
            log.info("could not edit message %s: %s; sending a new one", message_id, exc)
            return False
        return True

    async def delete(self, chat: int, message_id: int) -> None:
        self._pictures.pop((chat, message_id), None)
        self._written.pop((chat, message_id), None)
        try:
            await self.bot.delete_message(chat, message_id)
        except TelegramError as exc:
            log.info("could not delete message %s: %s", message_id, exc)

    def _wrote(self, chat: int, message_id: int, text: str,
               markup: InlineKeyboardMarkup | None) -> None:
        """Remember the text and buttons a message shows (an edit to the same is not made)."""
        if len(self._written) > 10_000:
            self._written.clear()
        self._written[(chat, message_id)] = (text, _buttons(markup))

    def _shown(self, chat: int, message_id: int, image: bytes) -> None:
        """Remember the picture a message shows (an edit that keeps it uploads nothing)."""
        if len(self._pictures) > 10_000:
            self._pictures.clear()
        self._pictures[(chat, message_id)] = hash(image)

    async def get(self, table: int | None, key: str) -> Kept | None:
        """The message kept under `key` for `table` ("chat:message:p|t[:a]")."""
        if table is None:
            return None
        value = await self.store.adapter_get(table, PLATFORM, key)
        if not value:
            return None
        chat, message_id, kind, *acting = value.split(":")
        return Kept(int(chat), int(message_id), kind == "p", acting == ["a"])

    async def put(self, table: int | None, key: str, chat: int, sent: TgMessage,
                  acting: bool = False) -> None:
        if table is not None:
            await self.put_kept(table, key, Kept(chat, sent.message_id, bool(sent.photo),
                                                 acting))

    async def put_kept(self, table: int | None, key: str, kept: Kept) -> None:
        if table is not None:
            value = f"{kept.chat}:{kept.message_id}:{'p' if kept.photo else 't'}"
            await self.store.adapter_set(table, PLATFORM, key,
                                         value + (":a" if kept.acting else ""))

    async def forget(self, table: int, key: str) -> None:
        """No message kept under `key` for `table` any more."""
        await self.store.adapter_set(table, PLATFORM, key, "")

    async def hand_label(self, table: int) -> str:
        """"My hand" in the language of `table`."""
        row = await self.store.get_table(table)
        return t(row.lang if row else "en", "My hand")


def _buttons(markup: InlineKeyboardMarkup | None) -> str:
    return markup.to_json() if markup is not None else ""
