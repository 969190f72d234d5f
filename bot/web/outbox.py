"""Each socket's state as JSON text (docs/web.md, docs/web-page.md), made from the table as the
service holds it: under the table's lock (`bot.service.live.read`), or at once where the
service tells of a move (the mover's own pages: bot/web/server.py `_changed`).

A state is made once per user and language (`texts`), each seat's from `game.view(seat)`
and the shared parts once per table, version and language (`bot.web.state.SharedStates`).
The move log goes to each socket by parts: a socket's first state (and the state that
answers its "hello") carries the whole log with `"log_from": 0`; the next ones only the
entries after the `n` it has (`"log_from": n`), so a state stays small however long the
game (the page keeps the rest).  A state that did not change since the socket's last one
is not made again for it (None), nor is the state of a table whose key did not change
(`SharedStates.key`: the moves, the seats, the deadline).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..i18n import t
from ..storage import TableRow
from . import state as web_state
from .board import state_payload
from .state import title_of

if TYPE_CHECKING:
    from .host import WebTable

MARK = json.dumps(web_state.LOG_MARK)  # the log's place in a state's JSON text


@dataclass(eq=False)
class Sent:
    """What a socket has of its table: the last state's text (with the log's place marked),
    and the log it holds (the book's entries and how many)."""

    key: str = ""
    entries: list[str] | None = None
    count: int = 0
    made: tuple[Any, ...] | None = None  # the table's key when its last state was made


@dataclass(frozen=True)
class Log:
    """A state's log: its entries as JSON texts (oldest first; the book's own list, which
    grows), how many belong to this state, and the whole of them as one JSON text."""

    entries: list[str]
    count: int
    whole: str


@dataclass
class Made:
    """A state's JSON text with the log's place marked, and its log (None: no game)."""

    text: str
    log: Log | None = None


def seat_of(row: TableRow, user: str) -> int | None:
    """The human seat `user` holds at the table (None: a spectator's view)."""
    if not user:
        return None
    for s in row.seats:
        if s.user_id == user and s.ai is None:
            return s.seat
    return None


def waiting_state(row: TableRow, lang: str) -> dict[str, Any]:
    """The state of a table with no game: a lobby, or a table closed before its game."""
    line = (t(lang, "Waiting for the game to start.") if row.status == "lobby"
            else t(lang, "This table is closed."))
    return {"seat": None, "board_svg": "", "hand": [], "moves": [], "buttons": [],
            "lines": [line], "names": [s.name for s in row.seats], "to_move": None,
            "over": row.status != "lobby"}


def texts(web: WebTable, row: TableRow, game: Any,
          wanted: set[tuple[str, str]]) -> dict[tuple[str, str], Made]:
    """The state of each (user, language) wanted, made once each."""
    names = [s.name for s in row.seats]
    version = game.turn if game is not None else 0
    views: dict[int | None, dict[str, Any]] = {}
    now = web.service.clock()
    out = {}
    for user, lang in wanted:
        seat = seat_of(row, user)
        log = None
        if game is None:
            state = (waiting_state(row, lang) | web_state.waiting(row, lang, seat)
                     | {"log_from": 0})
        else:
            if seat not in views:
                views[seat] = game.view(seat)
            state = state_payload(views[seat], names=names, lang=lang)
            if None not in views:
                views[None] = game.view(None)  # the shared parts' view
            common, whole = web.shared.get(row, game, lang, views[None])
            entries = web.shared.log.said(row, game, lang)
            log = Log(entries, len(entries), whole)
            state |= web_state.personal(common, row, game, views[seat], seat, lang,
                                        local=web.home.local, now=now)
        out[(user, lang)] = Made(json.dumps(
            {"type": "state", "version": version, "table": row.id,
             "title": title_of(row, lang), "state": state}, ensure_ascii=False), log)
    return out


def for_socket(sent: Sent, made: Made) -> str | None:
    """The text to send a socket that has `sent` (None: nothing changed for it); `sent`
    then holds what it will have."""
    log = made.log
    if log is None:
        if made.text == sent.key and sent.entries is None:
            return None
        sent.key, sent.entries, sent.count = made.text, None, 0
        return made.text
    if made.text == sent.key and sent.entries is log.entries and sent.count == log.count:
        return None
    if sent.entries is log.entries and sent.count <= log.count:  # the new entries only
        part = "[" + ",".join(reversed(log.entries[sent.count:log.count])) + "]"
        text = made.text.replace(MARK, f'{part},"log_from":{sent.count}', 1)
    else:
        text = made.text.replace(MARK, f'{log.whole},"log_from":0', 1)
    sent.key, sent.entries, sent.count = made.text, log.entries, log.count
    return text


def each(web: WebTable, row: TableRow, game: Any, watchers: list[Any]) -> list[tuple[Any, str]]:
    """(watcher, text) for each watcher whose state changed (made once per user and
    language; not made again for a watcher that has the table's state as it is: the
    mover's page served first)."""
    key = web.shared.key(row, game) if game is not None else None
    todo = [w for w in watchers if key is None or w.sent.made != key]
    made = texts(web, row, game, {(w.grant.user, w.lang) for w in todo})
    out = []
    for w in todo:
        text = for_socket(w.sent, made[(w.grant.user, w.lang)])
        w.sent.made = key
        if text is not None:
            out.append((w, text))
    return out
