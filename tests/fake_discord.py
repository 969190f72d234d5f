"""A fake Discord on 127.0.0.1 (aiohttp): enough REST and gateway for discord.py to log in,
receive READY and GUILD_CREATE, get INTERACTION_CREATE events, and answer them.

The real `discord.Client` is pointed here by `FakeDiscord.patch()` (REST under
`discord.http.Route.BASE`, gateway under `DiscordWebSocket.DEFAULT_GATEWAY`).  The
fake keeps every message the bot creates (channel messages, interaction responses,
followups, DMs) with their components and attachments, so a test can find a button
and click it: the click carries that message, as Discord's does.  Every REST call is
logged in `calls`.  A message Discord would refuse (a repeated custom id, more than 5 rows
or 5 buttons a row, a label over 80 characters, a custom id over 100, content over 2000)
gets its 400 "Invalid Form Body" (code 50035, with the field's errors) and is logged in
`refused`.  Responses carry `Content-Type: application/json` exactly, which
discord.py needs to decode them.

Threads: the bot may start a public thread in the text channel (POST
/channels/{id}/threads: a name of 1 to 100 characters, 400 otherwise; 403 "Missing
Permissions" when `refuse_threads` says the bot may not, as on a server that does not give
it Create Public Threads), add members to it, send and edit messages in it, archive it
(PATCH /channels/{id}); a message sent in an archived thread unarchives it, an edit there is
refused (400, code 50083), as Discord does.  `interact`/`click` from a thread carry the
thread's channel, as Discord's interactions do.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import discord
import yarl
from aiohttp import WSMsgType, web

API = "/api/v10"
MANAGE_GUILD = 1 << 5
USER_OPTIONS = ("user", "partner")  # the commands' options whose type is a user (6)
EVERYONE_PERMISSIONS = (1 << 10) | (1 << 11) | (1 << 15) | (1 << 31)  # view, send, files, cmds
EPHEMERAL = 1 << 6
SILENT = 1 << 12  # SUPPRESS_NOTIFICATIONS: "@silent", the message notifies nobody
TIMESTAMP = "2026-01-01T00:00:00+00:00"
INVALID_FORM_BODY = 50035
# Discord's limits on a message: 2000 characters, 5 action rows of 5 components, a button's
# label of 80 characters and its custom id of 1 to 100, each custom id once in a message.
MAX_CONTENT, MAX_ROWS, MAX_PER_ROW, MAX_LABEL, MAX_CUSTOM_ID = 2000, 5, 5, 80, 100
MAX_THREAD_NAME = 100
MAX_DESCRIPTION = 1024  # characters of an attachment's description (its text alternative)
MISSING_PERMISSIONS, THREAD_ARCHIVED, UNKNOWN_CHANNEL = 50013, 50083, 10003
PUBLIC_THREAD = 11


def user_payload(user_id: int, name: str, bot: bool = False) -> dict[str, Any]:
    return {"id": str(user_id), "username": name, "global_name": name, "discriminator": "0",
            "avatar": None, "bot": bot, "public_flags": 0}


@dataclass
class Call:
    """One REST request the bot made."""

    method: str
    path: str
    json: Any
    files: list[tuple[str, bytes]]


@dataclass
class Interaction:
    """An interaction the fake dispatched, and how the bot answered it."""

    id: int
    token: str
    user_id: int
    message_id: int | None  # the message a clicked button was on
    channel_id: int = 0  # the channel (or thread) it came from
    callback: dict[str, Any] | None = None  # the bot's interaction response
    original_id: int | None = None  # the message its response created (or the clicked one)
    calls_before_callback: int = 0  # REST calls made between the dispatch and the answer
    done: asyncio.Event = field(default_factory=asyncio.Event)


class FakeDiscord:
    """The fake server; `async with FakeDiscord() as fake:` starts it on a free port."""

    def __init__(self) -> None:
        self.ids = _snowflakes()
        self.bot_id = next(self.ids)
        self.app_id = next(self.ids)
        self.guild_id = next(self.ids)
        self.channel_id = next(self.ids)
        self.users: dict[int, dict[str, Any]] = {self.bot_id: user_payload(self.bot_id, "DominoBot",
                                                                           bot=True)}
        self.managers: set[int] = set()
        self.outsiders: set[int] = set()  # users who are not members of the server
        self.refuse_dm: set[int] = set()
        self.dm_channels: dict[int, int] = {}  # DM channel id -> user id
        self.threads: dict[int, dict[str, Any]] = {}  # thread id -> its channel payload
        self.thread_members: dict[int, set[int]] = {}  # thread id -> the users added to it
        self.refuse_threads = False  # the bot lacks Create Public Threads
        self.messages: dict[int, dict[str, Any]] = {}
        self.files: dict[int, list[tuple[str, bytes]]] = {}  # message id -> attachments
        self.calls: list[Call] = []
        # (user id, message id) per notification: a new message (an edit never notifies)
        # that pings a user its allowed_mentions let through, or a DM to its user
        self.notified: list[tuple[int, int]] = []
        self.refused: list[Call] = []  # requests answered 400 "Invalid Form Body"
        self.commands: dict[str, list[dict[str, Any]]] = {}  # "global" / guild id -> commands
        self.interactions: dict[str, Interaction] = {}  # by token
        self.logins = 0
        self.identified: list[Any] = []  # the `shard` of each IDENTIFY
        self._sockets: list[web.WebSocketResponse] = []
        self._seq = 0
        self._connected = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self.port = 0

    # -- running -------------------------------------------------------------------

    async def __aenter__(self) -> FakeDiscord:
        app = web.Application(client_max_size=32 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", API + "/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return self

    async def __aexit__(self, *exc: object) -> None:
        for ws in self._sockets:
            await ws.close()
        if self._runner:
            await self._runner.cleanup()

    def patch(self, monkeypatch: Any) -> None:
        """Point discord.py at this server (undone by pytest's monkeypatch)."""
        base = f"http://127.0.0.1:{self.port}"
        monkeypatch.setattr(discord.http.Route, "BASE", base + API)
        monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY",
                            yarl.URL(base.replace("http", "ws") + "/gateway"))

    def add_user(self, name: str, manager: bool = False, member: bool = True) -> int:
        """A user (by default a member of the server; else known to Discord only)."""
        uid = next(self.ids)
        self.users[uid] = user_payload(uid, name)
        if manager:
            self.managers.add(uid)
        if not member:
            self.outsiders.add(uid)
        return uid

    async def wait_connected(self, timeout: float = 10) -> None:
        await asyncio.wait_for(self._connected.wait(), timeout)

    # -- the gateway -----------------------------------------------------------------------

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self._sockets.append(ws)
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 45000}}))
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                break
            payload = json.loads(msg.data)
            if payload["op"] == 1:
                await ws.send_str(json.dumps({"op": 11}))
            elif payload["op"] == 2:
                self.logins += 1
                self.identified.append(payload["d"].get("shard"))
                await self._send(ws, "READY", self._ready())
                await self._send(ws, "GUILD_CREATE", self._guild())
                self._connected.set()
        return ws

    async def _send(self, ws: web.WebSocketResponse, event: str, data: dict[str, Any]) -> None:
        self._seq += 1
        await ws.send_str(json.dumps({"op": 0, "t": event, "s": self._seq, "d": data}))

    def _ready(self) -> dict[str, Any]:
        return {"v": 10, "user": self.users[self.bot_id], "guilds": [
            {"id": str(self.guild_id), "unavailable": True}], "session_id": "fake-session",
            "resume_gateway_url": f"ws://127.0.0.1:{self.port}/gateway",
            "application": {"id": str(self.app_id), "flags": 0}, "private_channels": [],
            "relationships": [], "shard": [0, 1]}

    def _guild(self) -> dict[str, Any]:
        gid = str(self.guild_id)
        everyone = {"id": gid, "name": "@everyone", "permissions": str(EVERYONE_PERMISSIONS),
                    "position": 0, "color": 0, "hoist": False, "managed": False,
                    "mentionable": False, "flags": 0}
        channel = {"id": str(self.channel_id), "type": 0, "name": "dominoes", "position": 0,
                   "permission_overwrites": [], "guild_id": gid, "nsfw": False, "topic": None,
                   "last_message_id": None, "rate_limit_per_user": 0, "parent_id": None}
        return {"id": gid, "name": "Fake guild", "icon": None, "owner_id": str(next(self.ids)),
                "roles": [everyone], "channels": [channel], "threads": [],
                "members": [self._member(self.bot_id)], "member_count": 2, "emojis": [],
                "stickers": [], "features": [], "large": False, "unavailable": False,
                "joined_at": TIMESTAMP, "verification_level": 0, "default_message_notifications": 0,
                "explicit_content_filter": 0, "mfa_level": 0, "premium_tier": 0,
                "preferred_locale": "en-US", "system_channel_id": None, "afk_channel_id": None,
                "afk_timeout": 300, "voice_states": [], "presences": [],
                "stage_instances": [], "guild_scheduled_events": [], "soundboard_sounds": [],
                "nsfw_level": 0, "premium_progress_bar_enabled": False}

    def _member(self, user_id: int) -> dict[str, Any]:
        perms = EVERYONE_PERMISSIONS | (MANAGE_GUILD if user_id in self.managers else 0)
        return {"user": self.users[user_id], "roles": [], "joined_at": TIMESTAMP, "deaf": False,
                "mute": False, "flags": 0, "nick": None, "avatar": None, "pending": False,
                "permissions": str(perms)}

    # -- sending interactions ----------------------------------------------------------------

    async def interact(self, user_id: int, data: dict[str, Any], *, itype: int = 2,
                       message_id: int | None = None, locale: str = "en-US",
                       dm: bool = False, wait: bool = True,
                       seen: dict[str, Any] | None = None, channel: int | None = None
                       ) -> Interaction:
        """Dispatch an INTERACTION_CREATE from `user_id` (in the server's channel, or the
        thread `channel`); by default wait until it is answered."""
        iid = next(self.ids)
        token = f"tok{iid}"
        payload: dict[str, Any] = {
            "id": str(iid), "application_id": str(self.app_id), "type": itype, "data": data,
            "token": token, "version": 1, "locale": locale, "app_permissions": "0",
            "entitlements": [], "authorizing_integration_owners": {}, "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024}
        if dm:
            channel = await self._dm_channel(user_id)
            payload.update(channel_id=str(channel), user=self.users[user_id], context=1,
                           channel={"id": str(channel), "type": 1})
        else:
            channel = channel or self.channel_id
            where = self.threads.get(channel) or {"id": str(self.channel_id), "type": 0,
                                                  "guild_id": str(self.guild_id)}
            payload.update(guild_id=str(self.guild_id), channel_id=str(channel),
                           guild_locale="en-US", member=self._member(user_id), channel=where)
        if message_id is not None:
            payload["message"] = seen or self.messages[message_id]
        record = Interaction(iid, token, user_id, message_id, channel,
                             calls_before_callback=len(self.calls))
        self.interactions[token] = record
        await self._send(self._sockets[-1], "INTERACTION_CREATE", payload)
        if wait:
            await asyncio.wait_for(record.done.wait(), 10)
        return record

    async def slash(self, user_id: int, sub: str, /, *, locale: str = "en-US", dm: bool = False,
                    channel: int | None = None, **options: Any) -> Interaction:
        """/domino <sub> option=value ... (in the thread `channel`, if given); waits until
        the bot has answered and finished."""
        types = {str: 3, int: 4, bool: 5}
        people = [k for k in options if k in USER_OPTIONS]
        opts = [{"name": k, "type": 6 if k in people else types[type(v)], "value":
                 str(v) if k in people else v} for k, v in options.items()]
        resolved: dict[str, Any] = {}
        for k in people:  # a user option resolves the user, and the member of the server
            uid = int(options[k])
            resolved.setdefault("users", {})[str(uid)] = self.users[uid]
            if uid not in self.outsiders:
                member = {x: y for x, y in self._member(uid).items() if x != "user"}
                resolved.setdefault("members", {})[str(uid)] = member
        data = {"id": str(self.app_id + 1), "name": "domino", "type": 1, "resolved": resolved,
                "options": [{"name": sub, "type": 1, "options": opts}]}
        if dm:
            data.pop("resolved")
        return await self.interact(user_id, data, locale=locale, dm=dm, channel=channel)

    async def autocomplete(self, user_id: int, sub: str, name: str, value: str
                           ) -> list[dict[str, Any]]:
        data = {"id": str(self.app_id + 1), "name": "domino", "type": 1, "options": [
            {"name": sub, "type": 1, "options": [
                {"name": name, "type": 3, "value": value, "focused": True}]}]}
        record = await self.interact(user_id, data, itype=4)
        assert record.callback is not None and record.callback["type"] == 8
        return record.callback["data"]["choices"]

    async def click(self, user_id: int, message_id: int, custom_id: str,
                    seen: dict[str, Any] | None = None) -> Interaction:
        """Press the button `custom_id` of message `message_id` (as the user's client shows
        it: `seen` is an older copy of the message, for a click that raced an edit)."""
        data = {"custom_id": custom_id, "component_type": 2}
        channel = int(self.messages[message_id]["channel_id"])
        dm = channel in self.dm_channels
        return await self.interact(user_id, data, itype=3, message_id=message_id, dm=dm,
                                   seen=seen, channel=None if dm else channel)

    # -- reading what the bot did ---------------------------------------------------------------

    def buttons(self, message_id: int) -> list[dict[str, Any]]:
        return [c for row in self.messages[message_id].get("components", [])
                for c in row.get("components", []) if c.get("type") == 2]

    def button(self, message_id: int, label: str) -> str:
        """The custom id of the button labelled `label` on a message."""
        for b in self.buttons(message_id):
            if b.get("label") == label:
                return str(b["custom_id"])
        labels = [b.get("label") for b in self.buttons(message_id)]
        raise AssertionError(f"no button {label!r} on message {message_id}: {labels}")

    def channel_messages(self, channel_id: int | None = None) -> list[dict[str, Any]]:
        cid = str(channel_id or self.channel_id)
        return [m for m in self.messages.values()
                if m["channel_id"] == cid and not m["flags"] & EPHEMERAL]

    def ephemerals(self, user_id: int) -> list[dict[str, Any]]:
        return [m for m in self.messages.values()
                if m["flags"] & EPHEMERAL and m.get("_for") == user_id]

    def dms(self, user_id: int) -> list[dict[str, Any]]:
        return [m for m in self.messages.values()
                if self.dm_channels.get(int(m["channel_id"])) == user_id]

    # -- REST ------------------------------------------------------------------------------------

    async def _rest(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        body, files = await _read_body(request)
        self.calls.append(Call(request.method, path, body, files))
        parts = path.strip("/").split("/")
        handler = _ROUTES.get((request.method, _shape(parts)))
        if handler is None:
            return _json({"message": f"fake: no route {request.method} {path}", "code": 0},
                         status=404)
        if request.method in ("POST", "PATCH") and isinstance(body, dict):
            callback = _shape(parts) == "interactions/*/*/callback"
            errors = form_errors(body.get("data") or {} if callback else body)
            if errors:
                self.refused.append(self.calls[-1])
                return _json({"message": "Invalid Form Body", "code": INVALID_FORM_BODY,
                              "errors": {"data": errors} if callback else errors}, status=400)
        return await handler(self, parts, body or {}, files, request)

    async def _me(self, parts: list[str], body: Any, files: Any, req: web.Request
                  ) -> web.Response:
        return _json(self.users[self.bot_id])

    async def _app(self, parts: list[str], body: Any, files: Any, req: web.Request
                   ) -> web.Response:
        return _json({"id": str(self.app_id), "name": "Domino", "description": "", "icon": None,
                      "bot_public": True, "bot_require_code_grant": False, "verify_key": "0",
                      "owner": user_payload(next(self.ids), "owner"), "flags": 0, "team": None,
                      "summary": "", "rpc_origins": []})

    async def _sync(self, parts: list[str], body: Any, files: Any, req: web.Request
                    ) -> web.Response:
        where = parts[3] if len(parts) > 4 else "global"
        out = []
        for i, cmd in enumerate(body):
            out.append({**cmd, "id": str(self.app_id + 1 + i), "application_id": str(self.app_id),
                        "version": "1", "default_member_permissions":
                        cmd.get("default_member_permissions"), "dm_permission": True,
                        "nsfw": False})
        self.commands[where] = out
        return _json(out)

    async def _dm_channel(self, user_id: int) -> int:
        for cid, uid in self.dm_channels.items():
            if uid == user_id:
                return cid
        cid = next(self.ids)
        self.dm_channels[cid] = user_id
        return cid

    async def _open_dm(self, parts: list[str], body: Any, files: Any, req: web.Request
                       ) -> web.Response:
        uid = int(body["recipient_id"])
        cid = await self._dm_channel(uid)
        return _json({"id": str(cid), "type": 1, "recipients": [self.users[uid]],
                      "last_message_id": None})

    async def _post_message(self, parts: list[str], body: Any, files: Any, req: web.Request
                            ) -> web.Response:
        cid = int(parts[1])
        uid = self.dm_channels.get(cid)
        if uid is not None and uid in self.refuse_dm:
            return _json({"message": "Cannot send messages to this user", "code": 50007},
                         status=403)
        thread = self.threads.get(cid)
        if thread is not None:  # a message unarchives the thread (unless it is locked)
            meta = thread["thread_metadata"]
            if meta["archived"] and meta["locked"]:
                return _json({"message": "Thread is locked", "code": THREAD_ARCHIVED},
                             status=400)
            meta["archived"] = False
        return _json(self._create(cid, body, files))

    async def _edit_message(self, parts: list[str], body: Any, files: Any, req: web.Request
                            ) -> web.Response:
        mid = int(parts[3])
        if mid not in self.messages:
            return _json({"message": "Unknown Message", "code": 10008}, status=404)
        thread = self.threads.get(int(parts[1]))
        if thread is not None and thread["thread_metadata"]["archived"]:
            return _json({"message": "Thread is archived", "code": THREAD_ARCHIVED},
                         status=400)
        return _json(self._edit(mid, body, files))

    async def _delete_message(self, parts: list[str], body: Any, files: Any, req: web.Request
                              ) -> web.Response:
        self.messages.pop(int(parts[3]), None)
        return web.Response(status=204)

    async def _callback(self, parts: list[str], body: Any, files: Any, req: web.Request
                        ) -> web.Response:
        record = self.interactions.get(parts[2])
        if record is None or record.callback is not None:
            return _json({"message": "Interaction has already been acknowledged.",
                          "code": 40060}, status=400)
        record.callback = body
        record.calls_before_callback = len(self.calls) - 1 - record.calls_before_callback
        kind = body["type"]
        data = body.get("data") or {}
        resource: dict[str, Any] = {"type": kind}
        cid = self._interaction_channel(record)
        if kind in (4, 5):  # a message, or "thinking" that a later edit replaces
            message = self._create(cid, data, files, for_user=record.user_id)
            if kind == 5:
                message["_loading"] = True
            record.original_id = int(message["id"])
            resource["message"] = message
        elif kind in (6, 7):  # deferred update / update of the clicked message
            record.original_id = record.message_id
            if kind == 7 and record.message_id is not None:
                resource["message"] = self._edit(record.message_id, data, files)
        record.done.set()
        return _json({"interaction": {
            "id": str(record.id), "type": 2, "response_message_id":
                str(record.original_id) if record.original_id else None,
            "response_message_loading": kind == 5,
            "response_message_ephemeral": bool(data.get("flags", 0) & EPHEMERAL)},
            "resource": resource})

    def _interaction_channel(self, record: Interaction) -> int:
        if record.message_id is not None:
            return int(self.messages[record.message_id]["channel_id"])
        return record.channel_id or self.channel_id

    async def _webhook(self, parts: list[str], body: Any, files: Any, req: web.Request
                       ) -> web.Response:
        """Followups and the original response: /webhooks/<app>/<token>[/messages/<id>]."""
        record = self.interactions.get(parts[2])
        if record is None or record.callback is None:
            return _json({"message": "Unknown interaction", "code": 10062}, status=404)
        if len(parts) == 3:  # POST: a followup
            message = self._create(self._interaction_channel(record), body, files,
                                   for_user=record.user_id)
            return _json(message)
        target = parts[4]
        mid = record.original_id if target == "@original" else int(target)
        if mid is None or mid not in self.messages:
            return _json({"message": "Unknown Message", "code": 10008}, status=404)
        if req.method == "DELETE":
            self.messages.pop(mid, None)
            return web.Response(status=204)
        if req.method == "GET":
            return _json(self.messages[mid])
        self.messages[mid].pop("_loading", None)
        return _json(self._edit(mid, body, files))

    # -- threads ------------------------------------------------------------------------------

    async def _start_thread(self, parts: list[str], body: Any, files: Any, req: web.Request
                            ) -> web.Response:
        """POST /channels/{id}/threads: a public thread without a starter message."""
        parent = int(parts[1])
        if parent != self.channel_id:
            return _json({"message": "Unknown Channel", "code": UNKNOWN_CHANNEL}, status=404)
        if self.refuse_threads:
            return _json({"message": "Missing Permissions", "code": MISSING_PERMISSIONS},
                         status=403)
        name = body.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= MAX_THREAD_NAME:
            self.refused.append(self.calls[-1])
            return _json({"message": "Invalid Form Body", "code": INVALID_FORM_BODY,
                          "errors": {"name": {"_errors": [{
                              "code": "BASE_TYPE_BAD_LENGTH", "message":
                              f"Must be between 1 and {MAX_THREAD_NAME} in length."}]}}},
                         status=400)
        if body.get("type", PUBLIC_THREAD) != PUBLIC_THREAD:
            return _json({"message": "fake: public threads only", "code": 0}, status=400)
        tid = next(self.ids)
        self.threads[tid] = {
            "id": str(tid), "guild_id": str(self.guild_id), "parent_id": str(parent),
            "owner_id": str(self.bot_id), "name": name, "type": PUBLIC_THREAD,
            "last_message_id": None, "rate_limit_per_user": 0, "message_count": 0,
            "member_count": 1, "total_message_sent": 0, "flags": 0,
            "thread_metadata": {"archived": False, "locked": False, "invitable": True,
                                "auto_archive_duration": body.get("auto_archive_duration",
                                                                  1440),
                                "archive_timestamp": TIMESTAMP, "create_timestamp": TIMESTAMP}}
        self.thread_members[tid] = {self.bot_id}
        return _json(self.threads[tid], status=201)

    async def _add_thread_member(self, parts: list[str], body: Any, files: Any,
                                 req: web.Request) -> web.Response:
        tid, uid = int(parts[1]), int(parts[3])
        if tid not in self.threads or uid not in self.users:
            return _json({"message": "Unknown Channel", "code": UNKNOWN_CHANNEL}, status=404)
        self.thread_members[tid].add(uid)
        return web.Response(status=204)

    async def _get_channel(self, parts: list[str], body: Any, files: Any, req: web.Request
                           ) -> web.Response:
        cid = int(parts[1])
        if cid in self.threads:
            return _json(self.threads[cid])
        if cid == self.channel_id:
            guild = self._guild()
            return _json({**guild["channels"][0], "guild_id": str(self.guild_id)})
        return _json({"message": "Unknown Channel", "code": UNKNOWN_CHANNEL}, status=404)

    async def _edit_channel(self, parts: list[str], body: Any, files: Any, req: web.Request
                            ) -> web.Response:
        """PATCH /channels/{id}: a thread archived, locked or opened again."""
        thread = self.threads.get(int(parts[1]))
        if thread is None:
            return _json({"message": "fake: only threads are edited", "code": 0}, status=400)
        for key in ("archived", "locked"):
            if key in body:
                thread["thread_metadata"][key] = bool(body[key])
        return _json(thread)

    # -- messages -----------------------------------------------------------------------------

    def _create(self, channel_id: int, body: dict[str, Any], files: list[tuple[str, bytes]],
                for_user: int | None = None) -> dict[str, Any]:
        mid = next(self.ids)
        message: dict[str, Any] = {
            "id": str(mid), "channel_id": str(channel_id), "type": 0,
            "author": self.users[self.bot_id], "content": "", "attachments": [], "embeds": [],
            "mentions": [], "mention_roles": [], "pinned": False, "mention_everyone": False,
            "tts": False, "timestamp": TIMESTAMP, "edited_timestamp": None,
            "flags": 0, "components": [], "_for": for_user}
        if channel_id == self.channel_id or channel_id in self.threads:
            message["guild_id"] = str(self.guild_id)
        self.messages[mid] = message
        self.files[mid] = []
        created = self._edit(mid, body, files, new=True)
        self._notify(created, body, for_user)
        return created

    def _notify(self, message: dict[str, Any], body: dict[str, Any], for_user: int | None
                ) -> None:
        """Note whom a new message notifies: nobody when silent or ephemeral; the users it
        mentions that `allowed_mentions` lets through (all of them without it); a DM's user."""
        if message["flags"] & (SILENT | EPHEMERAL):
            return
        mid, cid = int(message["id"]), int(message["channel_id"])
        if cid in self.dm_channels and for_user is None:
            self.notified.append((self.dm_channels[cid], mid))
            return
        allowed = body.get("allowed_mentions")
        users = {int(u["id"]) for u in message["mentions"]}
        if allowed is not None and "users" not in (allowed.get("parse") or []):
            users &= {int(u) for u in allowed.get("users") or []}
        self.notified += [(u, mid) for u in sorted(users)]

    def notifications(self, user: int) -> int:
        return sum(1 for u, _ in self.notified if u == user)

    def _edit(self, mid: int, body: dict[str, Any], files: list[tuple[str, bytes]],
              new: bool = False) -> dict[str, Any]:
        message = self.messages[mid]
        for key in ("content", "components", "embeds"):
            if key in body and body[key] is not None:
                message[key] = body[key]
        if new and body.get("flags"):
            message["flags"] = int(body["flags"])
        if "attachments" in body or files:
            keep = {str(a.get("id")) for a in body.get("attachments") or []}
            old = [(a, f) for a, f in zip(message["attachments"], self.files[mid], strict=True)
                   if a["id"] in keep]
            added = []
            said = {str(a.get("id")): a.get("description") for a in body.get("attachments") or []
                    if str(a.get("id")) not in {x["id"] for x in message["attachments"]}}
            for i, (name, content) in enumerate(files):
                aid = str(next(self.ids))
                added.append(({"id": aid, "filename": name, "size": len(content),
                               "description": said.get(str(i)),
                               "url": f"http://127.0.0.1:{self.port}/a/{aid}/{name}",
                               "proxy_url": f"http://127.0.0.1:{self.port}/a/{aid}/{name}",
                               "content_type": "image/png" if name.endswith(".png") else None},
                              (name, content)))
            message["attachments"] = [a for a, _ in old + added]
            self.files[mid] = [f for _, f in old + added]
        if not new:
            message["edited_timestamp"] = TIMESTAMP
        message["mentions"] = [self.users[int(u)] for u in self.users
                               if f"<@{u}>" in message["content"]]
        return message


def form_errors(body: dict[str, Any]) -> dict[str, Any]:
    """What Discord refuses in a message body, in its own error shape ({} when it is
    accepted): ``{"components": {"1": {"components": {"0": {"custom_id": {"_errors":
    [{"code": ..., "message": ...}]}}}}}}``."""
    errors: dict[str, Any] = {}

    def fail(path: list[str], code: str, message: str) -> None:
        node = errors
        for key in path:
            node = node.setdefault(key, {})
        node.setdefault("_errors", []).append({"code": code, "message": message})

    for i, attachment in enumerate(body.get("attachments") or []):
        said = attachment.get("description") if isinstance(attachment, dict) else None
        if isinstance(said, str) and len(said) > MAX_DESCRIPTION:
            fail(["attachments", str(i), "description"], "BASE_TYPE_MAX_LENGTH",
                 f"Must be {MAX_DESCRIPTION} or fewer in length.")
    content = body.get("content")
    if isinstance(content, str) and len(content) > MAX_CONTENT:
        fail(["content"], "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_CONTENT} or fewer in length.")
    rows = body.get("components") or []
    if len(rows) > MAX_ROWS:
        fail(["components"], "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {MAX_ROWS} in "
             "length.")
    seen: set[str] = set()
    for r, row in enumerate(rows):
        items = row.get("components") or []
        if not 1 <= len(items) <= MAX_PER_ROW:
            fail(["components", str(r), "components"], "BASE_TYPE_BAD_LENGTH",
                 f"Must be between 1 and {MAX_PER_ROW} in length.")
        for c, item in enumerate(items):
            where = ["components", str(r), "components", str(c)]
            label = item.get("label")
            if isinstance(label, str) and len(label) > MAX_LABEL:
                fail([*where, "label"], "BASE_TYPE_MAX_LENGTH",
                     f"Must be {MAX_LABEL} or fewer in length.")
            cid = item.get("custom_id")
            if cid is None:
                continue
            if not 1 <= len(str(cid)) <= MAX_CUSTOM_ID:
                fail([*where, "custom_id"], "BASE_TYPE_BAD_LENGTH",
                     f"Must be between 1 and {MAX_CUSTOM_ID} in length.")
            if cid in seen:
                fail([*where, "custom_id"], "COMPONENT_CUSTOM_ID_DUPLICATED",
                     "Component custom id cannot be duplicated")
            seen.add(cid)
    return errors


def _snowflakes() -> Iterator[int]:
    """Ids dated now, as Discord's are (discord.py reads an interaction's age from its id)."""
    for n in itertools.count():
        yield discord.utils.time_snowflake(datetime.now(UTC)) + n % (1 << 22)


async def _read_body(request: web.Request) -> tuple[Any, list[tuple[str, bytes]]]:
    """The JSON body, or the payload_json and files of a multipart body."""
    if request.content_type.startswith("multipart/"):
        body: Any = None
        files = []
        reader = await request.multipart()
        async for part in reader:
            content = await part.read()  # type: ignore[union-attr]
            if part.name == "payload_json":  # type: ignore[union-attr]
                body = json.loads(content)
            else:
                files.append((part.filename or "file", bytes(content)))  # type: ignore[union-attr]
        return body, files
    raw = await request.read()
    return (json.loads(raw) if raw else None), []


def _json(data: Any, status: int = 200) -> web.Response:
    return web.Response(body=json.dumps(data).encode(), status=status,
                        headers={"Content-Type": "application/json"})


def _shape(parts: list[str]) -> str:
    """The route's shape: ids and tokens replaced by '*' ("channels/*/messages")."""
    keep = {"users", "@me", "channels", "messages", "applications", "commands", "guilds",
            "oauth2", "interactions", "callback", "webhooks", "@original", "threads",
            "thread-members"}
    return "/".join(p if p in keep else "*" for p in parts)


_ROUTES = {
    ("GET", "users/@me"): FakeDiscord._me,
    ("GET", "oauth2/applications/@me"): FakeDiscord._app,
    ("PUT", "applications/*/commands"): FakeDiscord._sync,
    ("PUT", "applications/*/guilds/*/commands"): FakeDiscord._sync,
    ("POST", "users/@me/channels"): FakeDiscord._open_dm,
    ("POST", "channels/*/threads"): FakeDiscord._start_thread,
    ("PUT", "channels/*/thread-members/*"): FakeDiscord._add_thread_member,
    ("GET", "channels/*"): FakeDiscord._get_channel,
    ("PATCH", "channels/*"): FakeDiscord._edit_channel,
    ("POST", "channels/*/messages"): FakeDiscord._post_message,
    ("PATCH", "channels/*/messages/*"): FakeDiscord._edit_message,
    ("DELETE", "channels/*/messages/*"): FakeDiscord._delete_message,
    ("POST", "interactions/*/*/callback"): FakeDiscord._callback,
    ("POST", "webhooks/*/*"): FakeDiscord._webhook,
    ("GET", "webhooks/*/*/messages/*"): FakeDiscord._webhook,
    ("PATCH", "webhooks/*/*/messages/*"): FakeDiscord._webhook,
    ("DELETE", "webhooks/*/*/messages/*"): FakeDiscord._webhook,
    ("GET", "webhooks/*/*/messages/@original"): FakeDiscord._webhook,
    ("PATCH", "webhooks/*/*/messages/@original"): FakeDiscord._webhook,
    ("DELETE", "webhooks/*/*/messages/@original"): FakeDiscord._webhook,
}
