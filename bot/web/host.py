"""What the web table's route modules see of it (issue 38): protocols, not the classes.

finished.py, activity.py, home.py, actions.py and outbox.py are handed the `WebTable` and a socket's
`Watcher` (bot/web/server.py) and use a few of their names.  They type them with these
protocols rather than import server.py, which imports them (an import for types only still
points back and closes a circle: tests/test_import_cycles.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from aiohttp import web

    from ..service.guard import Where
    from ..service.service import Service, User


class Watcher(Protocol):
    """One open socket (server.Watcher)."""

    ws: web.WebSocketResponse
    grant: Any
    lang: str


class WebTable(Protocol):
    """The web adapter (server.WebTable)."""

    service: Service
    links: Any
    deliver: Any
    public_host: str
    activity: Any
    discord: Any
    shared: Any  # the states' shared parts (bot.web.state.SharedStates): outbox.py
    home: Any  # the local mode's home page (bot/web/home.py): outbox.py

    def _lang(self, request: web.Request, user: str = "") -> str: ...

    def _refuse(self, request: web.Request, status: int = 403) -> web.Response: ...

    async def _error(self, w: Watcher, text: str) -> None: ...

    def _acting(self, w: Watcher) -> tuple[User, Where]: ...
