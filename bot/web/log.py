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

from dataclasses import dataclass, field
from typing import Any

from ..service import words
from ..service.tables import rebuild
from ..storage import TableRow

MAX_BOOKS = 4096  # tables whose log is kept (the oldest is dropped beyond)


@dataclass
class Entry:
    seat: int | None
    lines: dict[str, list[str]]  # language -> the sentences of this move


@dataclass
class Book:
    """One table's log: the replayed copy, the moves seen, each move's sentences."""

    game: Any
    names: list[str]
    seen: list[str] = field(default_factory=list)
    moves: list[Entry] = field(default_factory=list)
    langs: set[str] = field(default_factory=set)


class LogBook:
    """Every watched table's log, kept as its game goes on."""

    def __init__(self) -> None:
        self._books: dict[int, Book] = {}

    def forget(self, table_id: int) -> None:
        self._books.pop(table_id, None)

    def entries(self, row: TableRow, game: Any, lang: str) -> list[dict[str, Any]]:
        """The log of `game` (the table's game, under its lock) in `lang`, latest first:
        ``[{"n": 12, "seat": 1 | None, "text": "CPU 1 plays 5-5."}, ...]``."""
        book = self._book(row, game, lang)
        out: list[dict[str, Any]] = []
        n = 0
        for entry in book.moves:
            for i, text in enumerate(entry.lines.get(lang, ())):
                n += 1
                out.append({"n": n, "seat": entry.seat if i == 0 else None, "text": text})
        out.reverse()
        return out

    def _book(self, row: TableRow, game: Any, lang: str) -> Book:
        moves = [str(m) for m in game.moves]
        names = [s.name for s in row.seats]
        book = self._books.get(row.id)
        if (book is None or lang not in book.langs or len(moves) < len(book.seen)
                or moves[:len(book.seen)] != book.seen or names != book.names):
            langs = {lang} | (book.langs if book is not None else set())
            book = Book(rebuild(row, []), names, langs=langs)
            if len(self._books) >= MAX_BOOKS:
                self._books.pop(next(iter(self._books)))
            self._books[row.id] = book
        for text in moves[len(book.seen):]:
            self._replay(book, text)
        return book

    @staticmethod
    def _replay(book: Book, text: str) -> None:
        replica = book.game
        mover = replica.to_move
        replica.play(replica.parse_move(text))
        book.seen.append(text)
        view = replica.view(None)
        lines: dict[str, list[str]] = {}
        own = False  # a move with no sentence of its own (a draw, a pass): its events say it
        for lang in book.langs:
            said = words.move_line(view, book.names, lang, mover, text)
            own = own or bool(said)
            lines[lang] = ([said] if said else []) + words.events_lines(view, book.names, lang)
        book.moves.append(Entry(mover if own else None, lines))
