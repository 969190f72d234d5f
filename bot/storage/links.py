"""What a store's link gives the parts it holds: the few primitives of one backend's
connection (SQLite: sqlite_link.py; PostgreSQL: pg_link.py), over which the queries both
stores share (queries.py) and the outbox (outbox.py) are written once.

SQL is written with SQLite's ``?`` marks; the PostgreSQL link turns them into ``$n``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

# A limit checked with a write: (kind, the SQL counting the rows under it, its key, the limit;
# 0: none). The backend counts and writes in one transaction, holding a lock per (kind, key)
# across processes (SQLite: BEGIN IMMEDIATE; PostgreSQL: an advisory lock), so that writes at
# once cannot all pass the same count; over the limit it raises `OverLimit`, writing nothing.
Cap = tuple[str, str, str, int]
# An outbox row: (key, owner, created_at, message JSON) (outbox.py)
OutRow = tuple[str, str, float, str]


class Link(Protocol):
    """One backend's connection, as the shared parts use it."""

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """The rows of a query."""

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """The first row of a query, or None."""

    async def fetch_within(self, caps: Sequence[Cap], sql: str, params: Sequence[Any]) -> Any:
        """The first row of a write, made in one transaction with the check of `caps`
        (raises `OverLimit`: nothing written)."""

    async def fetch_many(self, *queries: tuple[str, Sequence[Any]]) -> list[list[Any]]:
        """The rows of several queries run one after the other on one connection (on
        SQLite, under one hold of its lock: none of this process's writes between them)."""

    async def write(self, sql: str, params: Sequence[Any] = ()) -> int:
        """One statement, committed; returns the changed row count."""

    def where_in(self, column: str, values: Sequence[str]) -> tuple[str, list[Any]]:
        """`column` is one of these texts: the condition and its parameters."""

    async def update_row(self, table_id: int, table: str, sql: str, params: Sequence[Any],
                         missing: str) -> None:
        """Run an UPDATE of `table` ("tables" or "seats") at the table `table_id`;
        NotFound(`missing`) if it changed no row (PostgreSQL bumps the table's version)."""

    async def write_then(self, sql: str, params: Sequence[Any],
                         outbox: Sequence[OutRow]) -> int:
        """Run one write and, if it changed a row, add the `outbox` rows, in one
        transaction; the count of rows the write changed."""

    async def claim_outbox(self, owner: str, before: float, now: float,
                           limit: int) -> list[tuple[str, str]]:
        """(key, message) of the unsent outbox rows written before `before` by other
        processes than `owner`, oldest first, marked sent at `now` as they are taken (two
        processes never both take a row)."""
