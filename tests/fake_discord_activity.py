"""The Discord Activity's part of the fake Discord (tests/fake_discord.py): OAuth2's token
endpoint, the user of an access token, Activity instances, and the shapes Discord demands of
the LAUNCH_ACTIVITY response and of the Entry Point command.

* `POST /oauth2/token` (form: client_id, client_secret, grant_type=authorization_code, code)
  answers an access token for a code `grant` made, once: a code used again, made up, or
  made for another application gets 400 `invalid_grant`, a wrong client id or secret 401
  `invalid_client`, as Discord's does.  The secret sent is kept nowhere.
* `GET /users/@me` with `Authorization: Bearer <access token>` is that token's user.
* `GET /applications/{app}/activity-instances/{id}` (bot token) is an instance `launch`
  made: its location (channel, server) and users; 404 for any other.
* The LAUNCH_ACTIVITY response (type 12) must be exactly `{"type": 12}`, the Entry Point
  command (type 4) must have handler 1 or 2, a name and a description, and a bulk overwrite
  of the global commands may not leave out the Entry Point command once there is one (code
  50240): each refused with a 400 and logged in the fake's `refused`.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

ENTRY_POINT = 4
ENTRY_POINT_REMOVED = 50240
LAUNCH_ACTIVITY = 12


@dataclass
class Instance:
    id: str
    channel_id: int
    guild_id: int | None
    users: list[int] = field(default_factory=list)


class ActivityFake:
    """The Activity's state in the fake: the application's client id and secret, codes,
    access tokens and instances."""

    def __init__(self, client_id: int) -> None:
        self.client_id = str(client_id)
        self.secret = secrets.token_urlsafe(24)
        self.codes: dict[str, tuple[str, int]] = {}  # code -> (application, user)
        self.tokens: dict[str, int] = {}  # access token -> user
        self.instances: dict[str, Instance] = {}
        self.exchanges = 0  # token requests, good or not

    def grant(self, user_id: int, application: str | None = None) -> str:
        """A fresh authorization code for `user_id` (for another application when given)."""
        code = secrets.token_urlsafe(18)
        self.codes[code] = (application or self.client_id, user_id)
        return code

    def launch(self, channel_id: int, guild_id: int | None, *users: int) -> Instance:
        """An Activity instance launched in `channel_id` of `guild_id`, with `users` in it."""
        inst = Instance(f"i-{secrets.token_hex(8)}", channel_id, guild_id, list(users))
        self.instances[inst.id] = inst
        return inst

    async def token(self, request: web.Request) -> web.Response:
        form = await request.post()
        self.exchanges += 1
        if form.get("client_id") != self.client_id or form.get("client_secret") != self.secret:
            return _json({"error": "invalid_client"}, 401)
        held = self.codes.pop(str(form.get("code", "")), None)
        if (form.get("grant_type") != "authorization_code" or held is None
                or held[0] != self.client_id):
            return _json({"error": "invalid_grant"}, 400)
        access = secrets.token_urlsafe(24)
        self.tokens[access] = held[1]
        return _json({"access_token": access, "token_type": "Bearer", "expires_in": 604800,
                      "refresh_token": secrets.token_urlsafe(24), "scope": "identify guilds"})

    def user_of(self, request: web.Request) -> int | None:
        """The user of a Bearer access token (None: not a Bearer call)."""
        auth = request.headers.get("Authorization", "")
        if not auth.startswith("Bearer "):
            return None
        return self.tokens.get(auth.removeprefix("Bearer "), 0)

    def instance(self, app: str, instance_id: str) -> web.Response:
        inst = self.instances.get(instance_id)
        if app != self.client_id or inst is None:
            return _json({"message": "Unknown Activity Instance", "code": 10000}, 404)
        location: dict[str, Any] = {"id": f"gc-{inst.channel_id}", "kind": "gc",
                                    "channel_id": str(inst.channel_id)}
        if inst.guild_id is not None:
            location["guild_id"] = str(inst.guild_id)
        return _json({"application_id": self.client_id, "instance_id": inst.id,
                      "launch_id": "1", "location": location,
                      "users": [str(u) for u in inst.users]})


def callback_errors(body: Any) -> str:
    """Why Discord would refuse an interaction response's shape ("" : it would not)."""
    if isinstance(body, dict) and body.get("type") == LAUNCH_ACTIVITY and body != {"type": 12}:
        return "LAUNCH_ACTIVITY takes no data"
    return ""


def command_errors(commands: Any, existing: list[dict[str, Any]], bulk: bool) -> str:
    """Why Discord would refuse these commands ("" : it would not)."""
    if not isinstance(commands, list):
        return "commands must be a list"
    for cmd in commands:
        if not isinstance(cmd, dict):
            return "a command must be an object"
        if cmd.get("type") == ENTRY_POINT:
            if cmd.get("handler") not in (1, 2):
                return "an Entry Point command needs a handler (1 or 2)"
            if not cmd.get("name") or not cmd.get("description"):
                return "an Entry Point command needs a name and a description"
    entry = [c for c in commands if c.get("type") == ENTRY_POINT]
    if len(entry) > 1:
        return "one Entry Point command at most"
    if bulk and not entry and any(c.get("type") == ENTRY_POINT for c in existing):
        return "entry point removed"
    return ""


def _json(data: Any, status: int = 200) -> web.Response:
    return web.Response(body=json.dumps(data).encode(), status=status,
                        headers={"Content-Type": "application/json"})
