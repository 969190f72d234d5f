"""The Discord Activity (issue 39, docs/discord.md): the web table inside Discord's iframe.

It only proves who the user is, then hands over to the same page and socket as every other
way in.  `GET /discord` (and `/` opened by Discord's launch, with its `frame_id` and
`instance_id`: the URL mapping's root) is the table page with the Activity's launcher
(static/discord-sdk.js, Discord's Embedded App SDK bundled by tools/build_activity.sh).  The
launcher gets an authorization code from the SDK and posts it to `POST /api/discord/session`
with the instance's ids; the bot then

1. exchanges the code at Discord's OAuth2 token endpoint with the application's client id
   and secret (a bad, reused or foreign code: 401, nothing created);
2. reads the user with that access token (`GET /users/@me`);
3. reads the instance with the bot token (`GET /applications/{app}/activity-instances/{id}`)
   and checks that it runs in the channel and server the request names and that the user is
   in it (403 otherwise: an id changed in the request reaches no other server's tables);
4. picks the channel's table, as the chat's commands see it (`Where` of that channel and
   server): the newest one the user holds a seat at; else the newest open one, where the user
   takes a free seat while its lobby is open (the chat's Join, through the Service's door),
   or watches; else none (the page says to start one from the chat);
5. answers a session as the Mini App's: `{"token", "ws", "user", "table", "lang",
   "access_token", "strings"}` (the access token only for the SDK's `authenticate`; the
   page's words in the user's Discord language).

The client secret and the access tokens are never logged and never stored (the log filter
of bot/app.py hides `access_token`, `client_secret`, `code=` and Authorization values).
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

import aiohttp
from aiohttp import web

from ..i18n import lang_for
from ..service.guard import Where
from ..service.service import User
from . import guards, pages
from .settings import Activity

if TYPE_CHECKING:
    from .host import WebTable

log = logging.getLogger("domino.web.activity")
PLATFORM = "discord"  # the Discord adapter's prefix of users, channels and servers
SNOWFLAKE = re.compile(r"[0-9]{1,20}")
MAX_CODE = 200  # characters of an authorization code
TIMEOUT = 10.0  # seconds for each call to Discord
DISCORD_FRAMES = "https://discord.com https://*.discord.com https://*.discordsays.com"
SEATED_FIRST = ("playing", "lobby")
LAUNCH = frozenset({"frame_id", "instance_id"})  # the query of Discord's launch of the page
FRAMED = web.RequestKey("domino.activity", bool)  # a request answered with the Activity's page


# The Activity of each running service (set by its web table), for the Discord adapter's
# "Play in Discord" button and Entry Point command.
_published: dict[int, tuple[object, Activity]] = {}


def publish(service: object, activity: Activity | None) -> None:
    """Make `activity` the Activity of `service` (None: none runs)."""
    if activity is None:
        _published.pop(id(service), None)
    else:
        _published[id(service)] = (service, activity)


def activity_of(service: object) -> Activity | None:
    """The Activity of `service`, or None when it has none."""
    entry = _published.get(id(service))
    return entry[1] if entry is not None and entry[0] is service else None


class Refused(Exception):
    """A session refused: its HTTP status (401: who the user is is not proven; 403: the
    instance is not where the request says)."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


def policy(configured: str) -> str:
    """The /discord page's Content-Security-Policy: the table's, framed by Discord only."""
    base = guards.policy(configured, miniapp=False)
    kept = [d for d in base.split("; ") if not d.startswith("frame-ancestors")]
    return "; ".join([*kept, f"frame-ancestors {DISCORD_FRAMES}"])


def origin_ok(origin: str | None, activity: Activity | None) -> bool:
    """A socket opened from the Activity's own origin, Discord's proxy
    (``https://<client id>.discordsays.com``)."""
    return (activity is not None and origin is not None
            and origin.lower() == f"https://{activity.client_id}.discordsays.com")


def add_routes(wt: WebTable, app: web.Application) -> None:
    """`GET /discord` and `POST /api/discord/session` of the web table `wt`, and Discord's
    own way in: the URL mapping's root `/` opened with the launch's parameters (`frame_id`,
    `instance_id`) answers the same page (any other `/` is left to the home page)."""
    async def discord_page(request: web.Request) -> web.Response:
        return page(wt, request)

    async def discord_session(request: web.Request) -> web.Response:
        return await session(wt, request)

    @web.middleware
    async def launched(request: web.Request, handler: Any) -> web.StreamResponse:
        if (request.path == "/" and request.method == "GET" and wt.activity is not None
                and LAUNCH.issubset(request.query)):
            request[FRAMED] = True
            return page(wt, request)
        return await handler(request)  # type: ignore[no-any-return]

    app.middlewares.append(launched)
    app.router.add_get("/discord", discord_page)
    app.router.add_post("/api/discord/session", discord_session)


def framed(request: web.Request) -> bool:
    """Whether the answer is the Activity's page (Discord frames it: `policy`)."""
    return request.path == "/discord" or bool(request.get(FRAMED))


def page(wt: WebTable, request: web.Request) -> web.Response:
    """`GET /discord`: the table page with the Activity's launcher (404 when not set up)."""
    if wt.activity is None:
        return web.Response(status=404, text="no Discord Activity here")
    return web.Response(text=pages.activity_page(wt._lang(request), wt.activity.client_id),
                        content_type="text/html")


class Discord:
    """Discord's API as the Activity needs it: the code's exchange, the user, the instance."""

    def __init__(self, activity: Activity, bot_token: str | None) -> None:
        self.activity = activity
        self._bot_token = bot_token
        self._session: aiohttp.ClientSession | None = None

    def __repr__(self) -> str:  # never the secret nor the bot token
        return f"Discord({self.activity.api_url!r}, app={self.activity.client_id})"

    def _http(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(
                timeout=aiohttp.ClientTimeout(total=TIMEOUT))
        return self._session

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()

    async def _json(self, method: str, path: str, refused: int, **kw: Any) -> dict[str, Any]:
        """A call's JSON object; `Refused(refused)` for any other answer or failure."""
        try:
            async with self._http().request(method, self.activity.api_url + path, **kw) as r:
                data = await r.json(content_type=None) if r.status == 200 else None
        except (aiohttp.ClientError, TimeoutError, ValueError):
            log.warning("Discord's API could not be reached for %s", path.split("/")[1])
            raise Refused(refused) from None
        if not isinstance(data, dict):
            raise Refused(refused)
        return data

    async def exchange(self, code: str) -> str:
        """The access token of an authorization code (Discord refuses a code used once, of
        another application, or made up: 401)."""
        data = await self._json("POST", "/oauth2/token", 401, data={
            "client_id": self.activity.client_id, "client_secret": self.activity.secret,
            "grant_type": "authorization_code", "code": code})
        token = data.get("access_token")
        if not isinstance(token, str) or not token or len(token) > 400:
            raise Refused(401)
        return token

    async def user(self, access_token: str) -> dict[str, Any]:
        data = await self._json("GET", "/users/@me", 401,
                                headers={"Authorization": f"Bearer {access_token}"})
        if not isinstance(data.get("id"), str) or not SNOWFLAKE.fullmatch(data["id"]):
            raise Refused(401)
        return data

    async def instance(self, instance_id: str) -> dict[str, Any]:
        """The Activity instance, as Discord tells the application (bot token)."""
        if not self._bot_token:
            raise Refused(403)  # nothing can vouch for the instance's place
        return await self._json(
            "GET", f"/applications/{self.activity.client_id}/activity-instances/{instance_id}",
            403, headers={"Authorization": f"Bot {self._bot_token}"})


def _fields(body: Any) -> tuple[str, str, str, str | None]:
    """`code`, `instance_id`, `channel_id` and `guild_id` (null: a DM's Activity), checked."""
    if not isinstance(body, dict):
        raise Refused(401)
    code, instance, channel = body.get("code"), body.get("instance_id"), body.get("channel_id")
    guild = body.get("guild_id")
    if not (isinstance(code, str) and 0 < len(code) <= MAX_CODE and code.isascii()
            and code.isprintable()):
        raise Refused(401)
    if not (isinstance(instance, str) and 0 < len(instance) <= 100
            and re.fullmatch(r"[A-Za-z0-9:_-]+", instance)):
        raise Refused(401)
    if not (isinstance(channel, str) and SNOWFLAKE.fullmatch(channel)):
        raise Refused(401)
    if "guild_id" not in body or not (guild is None or (isinstance(guild, str)
                                                        and SNOWFLAKE.fullmatch(guild))):
        raise Refused(401)
    return code, instance, channel, guild


def _placed(inst: dict[str, Any], channel: str, guild: str | None, user_id: str) -> bool:
    """Whether Discord's instance runs in `channel` of `guild`, with the user in it."""
    location = inst.get("location")
    if not isinstance(location, dict):
        return False
    users = inst.get("users")
    return (str(location.get("channel_id")) == channel
            and (str(location["guild_id"]) if location.get("guild_id") else None) == guild
            and isinstance(users, list) and user_id in [str(u) for u in users])


async def session(wt: WebTable, request: web.Request) -> web.Response:
    """`POST /api/discord/session` (see the module's docstring)."""
    if wt.discord is None:
        return web.json_response({"error": "no Discord Activity here"}, status=404)
    try:
        try:
            body = await request.json()
        except (ValueError, web.HTTPException):
            raise Refused(401) from None
        code, instance_id, channel, guild = _fields(body)
        access = await wt.discord.exchange(code)
        me = await wt.discord.user(access)
        inst = await wt.discord.instance(instance_id)
        if not _placed(inst, channel, guild, me["id"]):
            raise Refused(403)
    except Refused as refused:
        words = "not authorized" if refused.status == 401 else "not this instance's place"
        return web.json_response({"error": words}, status=refused.status)
    name = str(me.get("global_name") or me.get("username") or me["id"])
    lang = lang_for(me.get("locale") if isinstance(me.get("locale"), str) else None,
                    wt.service.default_lang)
    user = User(f"{PLATFORM}:{me['id']}", name, lang)
    await wt.service._lang(user)  # the pages' and the chat's language for this user from now
    where = Where(f"{PLATFORM}:{channel}", f"{PLATFORM}:{guild or channel}", guild is None)
    table = await _table(wt, user, where)
    token = wt.links.token(table or 0, user.id)
    return web.json_response({
        "token": token, "user": user.id, "table": table, "lang": lang,
        "ws": f"/ws?token={token}" if table else None, "access_token": access,
        "strings": pages.activity_strings(lang)})


async def _table(wt: WebTable, user: User, where: Where) -> int | None:
    """The channel's table for `user` (step 4 of the module's docstring)."""
    store = wt.service.store
    seated = await store.latest_in_channel(where.channel, SEATED_FIRST, user.id)
    if seated is not None:
        return seated
    lobby = await store.latest_in_channel(where.channel, ("lobby",))
    if lobby is not None:  # a free seat is taken as the chat's Join takes it
        out = await wt.service.join(user, lobby, where=where)
        if not any(m.kind == "error" and m.to == user.id for m in out):
            await wt.deliver(out)
        return lobby
    return await store.latest_in_channel(where.channel, ("playing",))

