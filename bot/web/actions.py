"""The page's buttons beside the moves (docs/web-page.md, "What the page sends"): a hint, giving
up, a rematch.  Each goes through the Service's own method, with its checks, as the chat's
button does: a puzzle's hint is its `hint N` move and giving up its `give up` move
(`Service.play`), a patience's hint is its "?hint" button (`Service.press`), another game's
hint is `Service.hint` (tables with hints on), a rematch is `Service.rematch`.  The answer
goes to the asking page only: `{"type": "hint", "text"}`, `{"type": "goto", "url"}` for the
rematch's table, or the Service's own error.  A spectator's page is refused.
"""

from __future__ import annotations

import contextlib
import json
from typing import TYPE_CHECKING, Any

from ..i18n import t
from ..service import families
from ..service.messages import Message, action_data

if TYPE_CHECKING:
    from .host import Watcher, WebTable

ACTIONS = ("hint", "give-up", "rematch")


async def act(web: WebTable, w: Watcher, msg: dict[str, Any]) -> None:
    """A page's action message."""
    action, version = msg.get("action"), msg.get("version")
    if action not in ACTIONS:
        await web._error(w, t(w.lang, "This message is not understood."))
        return
    if w.grant.spectator:
        await web._error(w, t(w.lang, "Spectators cannot play. Ask the bot for your own "
                              "link (the /web command)."))
        return
    turn = version if isinstance(version, int) and not isinstance(version, bool) else None
    user, where = web._acting(w)
    service, tid = web.service, w.grant.table
    if action == "rematch":
        out = await service.rematch(user, tid, where=where)
        fresh = [m.table for m in out if m.table is not None and m.table != tid]
        if _errors(out, user.id) or not fresh:
            await _refused(web, w, out, user.id)
            return
        await web.deliver(out)
        await _send(w, {"type": "goto", "url": f"/t/{web.links.token(fresh[0], user.id)}"})
        return
    if turn is None:
        await web._error(w, t(w.lang, "This message is not understood."))
        return
    table = service.tables.get(tid)
    family = families.family(table.game) if table is not None and table.game else ""
    if action == "give-up":
        out = await service.play(user, tid, "give up", turn=turn, where=where)
    elif family == "puzzle":
        level = msg.get("level", 1)
        if not isinstance(level, int) or isinstance(level, bool) or not 1 <= level <= 4:
            await web._error(w, t(w.lang, "This message is not understood."))
            return
        out = await service.play(user, tid, f"hint {level}", turn=turn, where=where)
    elif family == "solitaire":
        out = await service.press(user, action_data(tid, turn, "e", families.SEE + "hint"),
                                  where=where)
    else:
        out = await service.hint(user, tid, turn, where=where)
    if _errors(out, user.id):
        await _refused(web, w, out, user.id)
        return
    said = [m for m in out if m.kind == "info" and m.to == user.id][:1]  # the hint's answer
    if action == "hint":
        for m in said:
            await _send(w, {"type": "hint", "text": m.text})
        out = [m for m in out if m not in said]
    await web.deliver(out)  # the chat's table message, hands and prompts


def _errors(out: list[Message], user: str) -> list[Message]:
    return [m for m in out if m.kind == "error" and m.to == user]


async def _refused(web: WebTable, w: Watcher, out: list[Message], user: str) -> None:
    errors = _errors(out, user) or [Message("", t(w.lang, "This is not possible now."))]
    for m in errors:
        await web._error(w, m.text)


async def _send(w: Watcher, payload: dict[str, Any]) -> None:
    with contextlib.suppress(Exception):
        await w.ws.send_str(json.dumps(payload, ensure_ascii=False))
