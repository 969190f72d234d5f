"""A fake Telegram Bot API server on 127.0.0.1 (aiohttp), for offline adapter tests.

The real python-telegram-bot `Application` talks to it over HTTP with
`base_url=server.base_url`: it long-polls `getUpdates`, and calls
`sendMessage`, `sendPhoto` (multipart), `editMessage*`, `answerCallbackQuery`...
The server keeps the chats' messages as Bot API `Message` dicts, records every
call, and lets a test play the users: `command()` types a command in a chat,
`press()` presses an inline button.  Private chats exist only for users who
`start_bot()`: sending to anyone else fails with 403 Forbidden, as on Telegram.
Unknown methods get 400, like the real server, and so do texts, captions and keyboards over
Telegram's limits (`check_limits`: 4096 characters of text, 1024 of caption, callback data
of 64 bytes, 8 buttons a row, 100 in all), with the real server's descriptions.

With `limits=Limits(...)` it also enforces Telegram's flood limits on writes (sending,
editing, deleting): at most 20 in a group per minute, one a second in any chat, and 30 a
second for the whole bot; a write over them gets 429 "Too Many Requests: retry after N"
with ``retry_after``, as the real server answers.  `Limits.scale` shrinks the minute and
the second for fast tests.  Every call keeps the time it arrived (`Call.at`).

Forum topics: a group in `forums` is a forum supergroup (its messages' chat says
`is_forum`, as `getChat` does); `createForumTopic` opens a topic there (a name of 1 to 128
characters; 400 in a group that is not a forum, or where the bot may not manage topics:
`no_topic_rights`), `closeForumTopic` closes it.  A message sent to a topic of a forum must
name one that exists (a topic the bot created, or one a user wrote in): 400 "message thread
not found" otherwise.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

BOT_ID = 777
BOT_USERNAME = "domino_test_bot"
TOKEN = "777:TEST-TOKEN"


@dataclass(frozen=True)
class TgUser:
    id: int
    first_name: str
    language_code: str | None = "en"

    def as_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"id": self.id, "is_bot": False, "first_name": self.first_name}
        if self.language_code:
            d["language_code"] = self.language_code
        return d


@dataclass(frozen=True)
class Call:
    """One Bot API request: the method and its parameters (JSON fields decoded)."""

    method: str
    params: dict[str, Any]
    files: dict[str, bytes] = field(default_factory=dict, repr=False)
    at: float = field(default_factory=time.monotonic, compare=False)  # when it arrived


WRITES = ("send", "edit", "delete")  # the methods the flood limits count (by prefix)


@dataclass(frozen=True)
class Limits:
    """Telegram's flood limits: `group` writes per `minute` in a group chat, one per
    `second` in any chat, `overall` per `second` for the whole bot; `scale` multiplies both
    periods (0.1: a 6-second "minute")."""

    group: int = 20
    minute: float = 60.0
    second: float = 1.0
    scale: float = 1.0
    overall: int = 30

    @property
    def window(self) -> float:
        return self.minute * self.scale

    @property
    def gap(self) -> float:
        return self.second * self.scale


class FakeBotApi:
    """The server: start it, point PTB at `base_url`, drive users, read `calls`."""

    def __init__(self, token: str = TOKEN, limits: Limits | None = None) -> None:
        self.limits = limits
        self.refused: list[Call] = []  # writes answered 429
        self.over_limits: list[Call] = []  # requests answered 400 for a text or keyboard
        self.failed: list[tuple[Call, str]] = []  # requests answered an error, and why
        self._writes: dict[int, list[float]] = {}  # chat -> times of its accepted writes
        self._all: list[float] = []  # times of every accepted write
        self.token = token
        self.calls: list[Call] = []
        self.messages: dict[int, dict[int, dict[str, Any]]] = {}  # chat -> id -> Message
        self.photos: dict[str, bytes] = {}  # file_id -> PNG bytes
        self.started: set[int] = set()  # users who opened the private chat
        # (user id, chat, message id) per notification: a new message of the bot (an edit
        # never notifies) without disable_notification, in the user's private chat or in a
        # group where it mentions them (tg://user?id=...)
        self.notified: list[tuple[int, int, int]] = []
        self.admins: dict[int, set[int]] = {}  # group chat -> admin user ids
        self.outsiders: dict[int, set[int]] = {}  # group chat -> users who left it
        self.forums: set[int] = set()
        self.no_topic_rights: set[int] = set()  # forums where the bot may not manage topics
        self.topics: dict[int, dict[int, dict[str, Any]]] = {}  # chat -> thread -> topic
        self._updates: list[dict[str, Any]] = []
        self._ids = itertools.count(1)
        self._update_ids = itertools.count(1)
        self._changed = asyncio.Condition()
        self._closing = False
        self._runner: web.AppRunner | None = None
        self.port = 0

    # -- life --------------------------------------------------------------------

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/bot"

    async def start(self) -> None:
        app = web.Application(client_max_size=20 * 1024 * 1024)
        app.router.add_post("/bot{token}/{method}", self._handle)
        app.router.add_get("/bot{token}/{method}", self._handle)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def release(self) -> None:
        """Answer every open getUpdates now (else stopping PTB waits for its timeout)."""
        self._closing = True
        async with self._changed:
            self._changed.notify_all()

    async def reopen(self) -> None:
        self._closing = False

    async def close(self) -> None:
        await self.release()
        if self._runner is not None:
            await self._runner.cleanup()

    # -- what users do ---------------------------------------------------------------

    def start_bot(self, user: TgUser) -> None:
        """The user opened the private chat with the bot (sending to them works now)."""
        self.started.add(user.id)

    async def command(self, user: TgUser, chat: int, text: str,
                      thread: int | None = None, reply_to: dict[str, Any] | None = None
                      ) -> dict[str, Any]:
        """`user` types `text` (a /command) in `chat`, in reply to the message `reply_to`
        if given; returns the Message sent."""
        if chat > 0:
            self.started.add(user.id)
        word = text.split()[0]
        if thread is not None and chat in self.forums:  # a topic a user writes in exists
            self.topics.setdefault(chat, {}).setdefault(thread, {"name": f"topic {thread}",
                                                                 "closed": False})
        message = self._new_message(chat, user.as_dict(), text=text, thread=thread)
        message["entities"] = [{"type": "bot_command", "offset": 0, "length": len(word)}]
        if reply_to is not None:
            message["reply_to_message"] = reply_to
        await self._push({"message": message})
        return message

    async def press(self, user: TgUser, message: dict[str, Any], data: str) -> str:
        """`user` presses a callback button with `data` under `message`; the query id."""
        query_id = str(next(self._ids) + 10_000)
        await self._push({"callback_query": {
            "id": query_id, "from": user.as_dict(), "message": message,
            "chat_instance": str(message["chat"]["id"]), "data": data}})
        return query_id

    async def _push(self, update: dict[str, Any]) -> None:
        update["update_id"] = next(self._update_ids)
        async with self._changed:
            self._updates.append(update)
            self._changed.notify_all()

    # -- what tests read ----------------------------------------------------------------

    def called(self, method: str) -> list[Call]:
        return [c for c in self.calls if c.method == method]

    def answer(self, query_id: str) -> Call | None:
        found = [c for c in self.called("answerCallbackQuery")
                 if c.params.get("callback_query_id") == query_id]
        return found[-1] if found else None

    async def answered(self, query_id: str, timeout: float = 15) -> Call:
        await self.wait_until(lambda: self.answer(query_id) is not None, timeout)
        answer = self.answer(query_id)
        assert answer is not None
        return answer

    async def wait_until(self, predicate: Callable[[], Any], timeout: float = 15) -> Any:
        """Wait until `predicate()` is true (checked after each API call)."""
        async with self._changed:
            return await asyncio.wait_for(self._changed.wait_for(predicate), timeout)

    def chat(self, chat: int) -> list[dict[str, Any]]:
        """The messages in `chat` that still exist, oldest first."""
        return [m for _, m in sorted(self.messages.get(chat, {}).items())]

    def buttons(self, message: dict[str, Any]) -> list[dict[str, Any]]:
        rows = message.get("reply_markup", {}).get("inline_keyboard", [])
        return [b for row in rows for b in row]

    # -- the Bot API ----------------------------------------------------------------------

    async def _handle(self, request: web.Request) -> web.Response:
        if request.match_info["token"] != self.token:
            return _error(401, "Unauthorized")
        method = request.match_info["method"]
        try:
            params, files = await _read_params(request)
        except ConnectionResetError:  # the client gave up (a cancelled request)
            return _error(400, "Bad Request: connection lost")
        call = Call(method, params, files)
        handler = getattr(self, "_m_" + method, None)
        if method != "getUpdates":
            self.calls.append(call)
        wait = self._flood_wait(method, params)
        if wait is not None:
            self.refused.append(call)
            return web.json_response({"ok": False, "error_code": 429,
                                      "description": f"Too Many Requests: retry after {wait}",
                                      "parameters": {"retry_after": wait}}, status=429)
        if handler is None:
            result: Any = _error(400, f"Bad Request: method {method} not found")
        else:
            try:
                try:
                    check_limits(params)
                except ApiError:
                    self.over_limits.append(call)
                    raise
                result = await handler(params, files)
            except ApiError as exc:
                self.failed.append((call, exc.description))
                result = _error(exc.code, exc.description)
        async with self._changed:
            self._changed.notify_all()
        if isinstance(result, web.Response):
            return result
        return web.json_response({"ok": True, "result": result})

    def _flood_wait(self, method: str, p: dict[str, Any]) -> int | None:
        """Seconds to wait when a write would break the limits (None: accepted, counted)."""
        limits = self.limits
        if limits is None or not method.lower().startswith(WRITES) or "chat_id" not in p:
            return None
        chat = int(p["chat_id"])
        now = time.monotonic()
        times = [x for x in self._writes.get(chat, []) if now - x < limits.window]
        self._writes[chat] = times
        wait = 0.0
        if times and now - times[-1] < limits.gap:
            wait = limits.gap - (now - times[-1])
        if chat < 0 and len(times) >= limits.group:
            wait = max(wait, limits.window - (now - times[-limits.group]))
        self._all = [x for x in self._all if now - x < limits.gap]
        if len(self._all) >= limits.overall:
            wait = max(wait, limits.gap - (now - self._all[-limits.overall]))
        if wait > 0:
            return max(1, round(wait))
        times.append(now)
        self._all.append(now)
        return None

    async def _m_getMe(self, p: dict[str, Any], f: dict[str, bytes]) -> dict[str, Any]:
        return {"id": BOT_ID, "is_bot": True, "first_name": "Domino",
                "username": BOT_USERNAME, "can_join_groups": True,
                "can_read_all_group_messages": False, "supports_inline_queries": False}

    async def _m_deleteWebhook(self, p: dict[str, Any], f: dict[str, bytes]) -> bool:
        return True

    async def _m_setWebhook(self, p: dict[str, Any], f: dict[str, bytes]) -> bool:
        return True

    async def _m_setMyCommands(self, p: dict[str, Any], f: dict[str, bytes]) -> bool:
        return True

    async def _m_getUpdates(self, p: dict[str, Any], f: dict[str, bytes]) -> list[Any]:
        offset = int(p.get("offset") or 0)
        timeout = float(p.get("timeout") or 0)
        async with self._changed:
            self._updates = [u for u in self._updates if u["update_id"] >= offset]
            if not self._updates and timeout > 0 and not self._closing:
                deadline = time.monotonic() + timeout
                while not self._updates and not self._closing:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        break
                    try:
                        await asyncio.wait_for(self._changed.wait(), left)
                    except TimeoutError:
                        break
            return list(self._updates)

    async def _m_getChatMember(self, p: dict[str, Any], f: dict[str, bytes]) -> dict[str, Any]:
        chat, user = int(p["chat_id"]), int(p["user_id"])
        status = ("administrator" if user in self.admins.get(chat, set()) else
                  "left" if user in self.outsiders.get(chat, set()) else "member")
        member: dict[str, Any] = {"status": status, "user": {
            "id": user, "is_bot": False, "first_name": str(user)}}
        if status == "administrator":
            member.update({k: True for k in _ADMIN_RIGHTS})
            member["can_be_edited"] = False
        return member

    async def _m_getChat(self, p: dict[str, Any], f: dict[str, bytes]) -> dict[str, Any]:
        chat = int(p["chat_id"])
        if chat > 0:
            return {"id": chat, "type": "private", "first_name": str(chat), **_FULL_INFO}
        info = {"id": chat, "type": "supergroup", "title": f"group {chat}", **_FULL_INFO}
        if chat in self.forums:
            info["is_forum"] = True
        return info

    async def _m_createForumTopic(self, p: dict[str, Any], f: dict[str, bytes]
                                  ) -> dict[str, Any]:
        chat, name = int(p["chat_id"]), str(p.get("name", ""))
        if chat not in self.forums:
            raise ApiError(400, "Bad Request: the chat is not a forum")
        if chat in self.no_topic_rights:
            raise ApiError(400, "Bad Request: not enough rights to create a topic")
        if not 1 <= len(name) <= MAX_TOPIC_NAME:
            raise ApiError(400, "Bad Request: TOPIC_NAME_INVALID")
        created = self._new_message(chat, None)  # the topic's first (service) message
        thread = created["message_id"]
        created.update(message_thread_id=thread, is_topic_message=True,
                       forum_topic_created={"name": name, "icon_color": ICON_COLOR})
        self.topics.setdefault(chat, {})[thread] = {"name": name, "closed": False}
        return {"message_thread_id": thread, "name": name, "icon_color": ICON_COLOR}

    async def _m_closeForumTopic(self, p: dict[str, Any], f: dict[str, bytes]) -> bool:
        chat, thread = int(p["chat_id"]), int(p["message_thread_id"])
        topic = self.topics.get(chat, {}).get(thread)
        if topic is None:
            raise ApiError(400, "Bad Request: TOPIC_ID_INVALID")
        if chat in self.no_topic_rights:
            raise ApiError(400, "Bad Request: not enough rights to close the topic")
        if topic["closed"]:
            raise ApiError(400, "Bad Request: TOPIC_NOT_MODIFIED")
        topic["closed"] = True
        return True

    def _thread(self, chat: int, p: dict[str, Any]) -> int | None:
        """The topic a message goes to: in a forum, one that exists."""
        thread = _int(p.get("message_thread_id"))
        if thread is not None and chat in self.forums and thread not in self.topics.get(
                chat, {}):
            raise ApiError(400, "Bad Request: message thread not found")
        return thread

    async def _m_sendMessage(self, p: dict[str, Any], f: dict[str, bytes]) -> dict[str, Any]:
        chat = self._writable(p["chat_id"])
        msg = self._new_message(chat, None, text=p["text"], thread=self._thread(chat, p))
        self._notify(msg, p)
        return self._decorate(msg, p)

    async def _m_sendPhoto(self, p: dict[str, Any], f: dict[str, bytes]) -> dict[str, Any]:
        chat = self._writable(p["chat_id"])
        msg = self._new_message(chat, None, thread=self._thread(chat, p))
        msg["photo"] = self._photo(p.get("photo", "photo"), f)
        if p.get("caption"):
            msg["caption"] = p["caption"]
        self._notify(msg, p)
        return self._decorate(msg, p)

    async def _m_sendDocument(self, p: dict[str, Any], f: dict[str, bytes]) -> dict[str, Any]:
        chat = self._writable(p["chat_id"])
        msg = self._new_message(chat, None, thread=self._thread(chat, p))
        name = _attached(p.get("document", "document"))
        msg["document"] = {"file_id": f"doc{msg['message_id']}", "file_unique_id": "d",
                           "file_name": name, "file_size": len(f.get(name, b""))}
        if p.get("caption"):
            msg["caption"] = p["caption"]
        self._notify(msg, p)
        return self._decorate(msg, p)

    async def _m_editMessageText(self, p: dict[str, Any], f: dict[str, bytes]) -> Any:
        msg = self._existing(p)
        if "photo" in msg:
            raise ApiError(400, "Bad Request: there is no text in the message to edit")
        if msg.get("text") == p["text"] and msg.get("reply_markup") == p.get("reply_markup"):
            raise ApiError(400, "Bad Request: message is not modified")
        msg["text"] = p["text"]
        return self._decorate(msg, p, edited=True)

    async def _m_editMessageCaption(self, p: dict[str, Any], f: dict[str, bytes]) -> Any:
        msg = self._existing(p)
        if "photo" not in msg and "document" not in msg:
            raise ApiError(400, "Bad Request: there is no caption in the message to edit")
        if msg.get("caption", "") == p.get("caption", "") and msg.get(
                "reply_markup") == p.get("reply_markup"):
            raise ApiError(400, "Bad Request: message is not modified")
        msg["caption"] = p.get("caption", "")
        return self._decorate(msg, p, edited=True)

    async def _m_editMessageMedia(self, p: dict[str, Any], f: dict[str, bytes]) -> Any:
        msg = self._existing(p)
        if "photo" not in msg:
            raise ApiError(400, "Bad Request: message can't be edited to media")
        media = p["media"]
        if media.get("type") != "photo":
            raise ApiError(400, "Bad Request: only photos in this fake")
        msg["photo"] = self._photo(media["media"], f)
        msg["caption"] = media.get("caption", "")
        return self._decorate(msg, p, edited=True)

    async def _m_editMessageReplyMarkup(self, p: dict[str, Any], f: dict[str, bytes]) -> Any:
        msg = self._existing(p)
        return self._decorate(msg, p, edited=True)

    async def _m_deleteMessage(self, p: dict[str, Any], f: dict[str, bytes]) -> bool:
        chat = self.messages.get(int(p["chat_id"]), {})
        if chat.pop(int(p["message_id"]), None) is None:
            raise ApiError(400, "Bad Request: message to delete not found")
        return True

    async def _m_answerCallbackQuery(self, p: dict[str, Any], f: dict[str, bytes]) -> bool:
        answered = [c for c in self.called("answerCallbackQuery")
                    if c.params.get("callback_query_id") == p["callback_query_id"]]
        if len(answered) > 1:
            raise ApiError(400, "Bad Request: query is too old or query ID is invalid")
        if len(p.get("text", "")) > 200:
            raise ApiError(400, "Bad Request: MESSAGE_TOO_LONG")
        return True

    # -- helpers -------------------------------------------------------------------------

    def _writable(self, chat_id: Any) -> int:
        chat = int(chat_id)
        if chat > 0 and chat not in self.started:
            raise ApiError(403, "Forbidden: bot can't initiate conversation with a user")
        return chat

    def _new_message(self, chat: int, sender: dict[str, Any] | None, text: str | None = None,
                     thread: int | None = None) -> dict[str, Any]:
        message_id = next(self._ids)
        if chat > 0:
            chat_dict = {"id": chat, "type": "private", "first_name": str(chat)}
        else:
            chat_dict = {"id": chat, "type": "supergroup", "title": f"group {chat}"}
            if chat in self.forums:
                chat_dict["is_forum"] = True
        msg: dict[str, Any] = {
            "message_id": message_id, "date": int(time.time()), "chat": chat_dict,
            "from": sender or {"id": BOT_ID, "is_bot": True, "first_name": "Domino",
                               "username": BOT_USERNAME}}
        if text is not None:
            msg["text"] = text
        if thread is not None:
            msg["message_thread_id"] = thread
            msg["is_topic_message"] = True
        self.messages.setdefault(chat, {})[message_id] = msg
        return msg

    def _notify(self, msg: dict[str, Any], p: dict[str, Any]) -> None:
        if p.get("disable_notification"):
            return
        chat, mid = msg["chat"]["id"], msg["message_id"]
        if chat > 0:
            self.notified.append((chat, chat, mid))
            return
        text = str(p.get("text") or p.get("caption") or "")
        for user in sorted({int(u) for u in re.findall(r"tg://user\?id=(\d+)", text)}):
            self.notified.append((user, chat, mid))

    def notifications(self, user: int) -> int:
        return sum(1 for u, _, _ in self.notified if u == user)

    def _existing(self, p: dict[str, Any]) -> dict[str, Any]:
        if int(p["chat_id"]) > 0 and int(p["chat_id"]) not in self.started:
            raise ApiError(403, "Forbidden: bot was blocked by the user")
        msg = self.messages.get(int(p["chat_id"]), {}).get(int(p["message_id"]))
        if msg is None:
            raise ApiError(400, "Bad Request: message to edit not found")
        return msg

    def _decorate(self, msg: dict[str, Any], p: dict[str, Any], edited: bool = False
                  ) -> dict[str, Any]:
        if "reply_markup" in p or edited:
            if p.get("reply_markup"):
                msg["reply_markup"] = p["reply_markup"]
            else:
                msg.pop("reply_markup", None)
        if edited:
            msg["edit_date"] = int(time.time())
        return msg

    def _photo(self, ref: str, files: dict[str, bytes]) -> list[dict[str, Any]]:
        if ref.startswith("attach://") or ref in files:
            data = files[_attached(ref)]
            if not data.startswith(b"\x89PNG"):
                raise ApiError(400, "Bad Request: IMAGE_PROCESS_FAILED")
            file_id = f"photo{len(self.photos) + 1}"
            self.photos[file_id] = data
        elif ref in self.photos:
            file_id = ref
        else:
            raise ApiError(400, "Bad Request: wrong file identifier")
        return [{"file_id": file_id, "file_unique_id": file_id, "width": 100, "height": 100}]


# Telegram's limits on what a bot sends: a text of 1 to 4096 characters, a caption of 1024,
# callback data of 1 to 64 bytes, a button's text not empty, 8 buttons a row, 100 in all.
MAX_TEXT, MAX_CAPTION, MAX_DATA, MAX_PER_ROW, MAX_BUTTONS = 4096, 1024, 64, 8, 100
MAX_TOPIC_NAME = 128
ICON_COLOR = 7322096
# what getChat answers beside the chat itself (ChatFullInfo's required fields)
_FULL_INFO: dict[str, Any] = {"accent_color_id": 0, "max_reaction_count": 11,
                              "accepted_gift_types": {
                                  "unlimited_gifts": False, "limited_gifts": False,
                                  "unique_gifts": False, "premium_subscription": False,
                                  "gifts_from_channels": False}}


def visible(text: str, parse_mode: str | None) -> str:
    """The text a user sees (an HTML message's tags and entities do not count)."""
    if str(parse_mode).upper() != "HTML":
        return text
    text = re.sub(r"<[^>]*>", "", text)
    return re.sub(r"&(lt|gt|amp|quot|#\d+);", "x", text)


def check_limits(p: dict[str, Any]) -> None:
    """An `ApiError` for what Telegram refuses in a request's text, caption or keyboard,
    with the real server's description."""
    if "text" in p and "callback_query_id" not in p:
        shown = visible(str(p["text"]), p.get("parse_mode"))
        if not shown.strip():
            raise ApiError(400, "Bad Request: message text is empty")
        if len(shown) > MAX_TEXT:
            raise ApiError(400, "Bad Request: message is too long")
    captions = [p.get("caption")]
    if isinstance(p.get("media"), dict):
        captions.append(p["media"].get("caption"))
    for caption in captions:
        if caption and len(visible(str(caption), p.get("parse_mode"))) > MAX_CAPTION:
            raise ApiError(400, "Bad Request: message caption is too long")
    markup = p.get("reply_markup")
    rows = markup.get("inline_keyboard", []) if isinstance(markup, dict) else []
    if sum(len(row) for row in rows) > MAX_BUTTONS:
        raise ApiError(400, "Bad Request: reply markup is too long")
    for row in rows:
        if len(row) > MAX_PER_ROW:
            raise ApiError(400, "Bad Request: too many buttons in a row")
        for button in row:
            if not str(button.get("text", "")).strip():
                raise ApiError(400, "Bad Request: BUTTON_TEXT_EMPTY")
            data = button.get("callback_data")
            if data is not None and not 1 <= len(str(data).encode()) <= MAX_DATA:
                raise ApiError(400, "Bad Request: BUTTON_DATA_INVALID")


class ApiError(Exception):
    def __init__(self, code: int, description: str) -> None:
        super().__init__(description)
        self.code, self.description = code, description


_ADMIN_RIGHTS = ("can_manage_chat", "can_delete_messages", "can_manage_video_chats",
                 "can_restrict_members", "can_promote_members", "can_change_info",
                 "can_invite_users", "is_anonymous", "can_post_stories", "can_edit_stories",
                 "can_delete_stories")


_JSON_FIELDS = {"reply_markup", "media", "commands", "entities", "caption_entities",
                "allowed_updates", "link_preview_options", "reply_parameters", "scope"}

_BOOL_FIELDS = {"show_alert", "disable_notification", "allow_sending_without_reply",
                "protect_content", "drop_pending_updates", "is_anonymous"}


def _error(code: int, description: str) -> web.Response:
    return web.json_response({"ok": False, "error_code": code, "description": description},
                             status=code)


def _attached(ref: str) -> str:
    return ref.removeprefix("attach://")


def _int(value: Any) -> int | None:
    return None if value in (None, "") else int(value)


async def _read_params(request: web.Request) -> tuple[dict[str, Any], dict[str, bytes]]:
    """Form fields (strings raw, structures as JSON) and uploaded files."""
    params: dict[str, Any] = {}
    files: dict[str, bytes] = {}
    if request.content_type == "application/json":
        return dict(await request.json()), files
    form = await request.post()
    for key, value in form.items():
        if isinstance(value, web.FileField):
            files[key] = value.file.read()
            continue
        text = str(value)
        if key in _JSON_FIELDS:
            params[key] = json.loads(text)
        elif key in _BOOL_FIELDS:
            params[key] = {"true": True, "false": False}[text.lower()]
        else:
            params[key] = text
    return params, files
