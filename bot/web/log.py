"""The web page's move log (`state["log"]`): the whole game's moves in the chat's words.

A view keeps only the current round's events, so each table's log is made by replaying its
moves on a copy of the game (`bot.service.tables.rebuild`): after each move, the public
view (`view(None)`) gives its sentences as the chat says them (`words.move_line` and
`words.events_lines`, as `texts.table_messages` writes a move).  A table's book advances
with the game (each move is replayed once, and said once per language asked), so a state
sent to many pages costs nothing more; a game replaced (rebuilt, a restart) starts a new
book.  Built from public views only: nothing hidden is named.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ..service import words
from ..service.tables import rebuild
from ..storage import TableRow

MAX_BOOKS = 1024  # tables whose log is kept (the oldest is dropped beyond)


@dataclass
class Book:
    """One table's log: the replayed copy, the moves seen, each line said (as JSON, in the
    order they were said) per language."""

    game: Any
    names: list[str]
    source: Any = None  # the table's game this book follows
    seen: list[str] = field(default_factory=list)
    said: dict[str, list[str]] = field(default_factory=dict)  # language -> JSON entries
    joined: dict[str, tuple[int, str]] = field(default_factory=dict)  # the last text made
    humans: set[int] = field(default_factory=set)  # the seats players hold (not computers)
    ended: bool = False  # a hand or round ended, and no player has moved since


class LogBook:
    """Every watched table's log, kept as its game goes on."""

    def __init__(self) -> None:
        self._books: dict[int, Book] = {}

    def forget(self, table_id: int) -> None:
        self._books.pop(table_id, None)

    def ended(self, row: TableRow, game: Any, lang: str) -> bool:
        """Did a hand or round end with no move of a player since (the computers may have
        begun the next one: its result still waits for the players)?"""
        return self._book(row, game, lang).ended

    def json(self, row: TableRow, game: Any, lang: str,
             public: dict[str, Any] | None = None) -> str:
        """The log of `game` (the table's game, under its lock) in `lang`, latest first, as
        JSON text: ``[{"n": 12, "seat": 1 | null, "text": "CPU 1 plays 5-5."}, ...]``.
        `public`: the game's public view now, if the caller has it (not made again)."""
        book = self._book(row, game, lang, public)
        said = book.said[lang]
        made = book.joined.get(lang)
        if made is None or made[0] != len(said):
            made = book.joined[lang] = (len(said), "[" + ",".join(reversed(said)) + "]")
        return made[1]

    def said(self, row: TableRow, game: Any, lang: str) -> list[str]:
        """The log's entries as JSON texts, oldest first: the book's own list (it grows as
        the game goes on; a new book, a new list)."""
        return self._book(row, game, lang).said[lang]

    def entries(self, row: TableRow, game: Any, lang: str) -> list[dict[str, Any]]:
        """The log as a list (latest first)."""
        return json.loads(self.json(row, game, lang))  # type: ignore[no-any-return]

    def _book(self, row: TableRow, game: Any, lang: str,
              public: dict[str, Any] | None = None) -> Book:
        moves = game.moves
        names = [s.name for s in row.seats]
        book = self._books.get(row.id)
        if book is not None and book.source is not game:  # a game rebuilt: the same moves?
            texts = [str(m) for m in moves[:len(book.seen)]]
            book.source = game if texts == book.seen else None
        if (book is None or book.source is not game or lang not in book.said
                or len(moves) < len(book.seen) or names != book.names):
            langs = {lang} | (set(book.said) if book is not None else set())
            book = Book(rebuild(row, []), names, source=game,
                        said={x: [] for x in langs})
            if len(self._books) >= MAX_BOOKS:
                self._books.pop(next(iter(self._books)))
            self._books[row.id] = book
        book.humans = {s.seat for s in row.seats if s.ai is None}
        last = len(moves) - 1
        for i in range(len(book.seen), len(moves)):
            self._replay(book, str(moves[i]), public if i == last else None)
        return book

    @staticmethod
    def _replay(book: Book, text: str, public: dict[str, Any] | None) -> None:
        replica = book.game
        mover = replica.to_move
        replica.play(replica.parse_move(text))
        book.seen.append(text)
        view = public if public is not None else replica.view(None)
        lines: dict[str, list[str]] = {}
        own = False  # a move with no sentence of its own (a draw, a pass): its events say it
        for lang in book.said:
            said = words.move_line(view, book.names, lang, mover, text)
            own = own or bool(said)
            lines[lang] = ([said] if said else []) + words.events_lines(view, book.names, lang)
        for lang, texts in lines.items():
            entries = book.said[lang]
            for i, line in enumerate(texts):
                entries.append(json.dumps({"n": len(entries) + 1,
                                           "seat": mover if own and i == 0 else None,
                                           "text": line}, ensure_ascii=False,
                                          separators=(",", ":")))
        if words.round_just_ended(view):
            book.ended = True
        elif mover in book.humans:
            book.ended = False
