"""Which backend a database setting names: ``postgresql://...`` (or ``postgres://``) opens the
PostgreSQL store, anything else (a file path, ``sqlite:PATH``) the SQLite one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .postgres import PostgresStore
from .sqlite import Store

PG_SCHEMES = ("postgresql://", "postgres://")


def is_postgres(target: str | Path) -> bool:
    return isinstance(target, str) and target.startswith(PG_SCHEMES)


def sqlite_path(target: str | Path) -> str | Path:
    """The file of a SQLite setting: ``sqlite:PATH`` or ``sqlite:///PATH`` or a plain path."""
    if isinstance(target, str) and target.startswith("sqlite:"):
        rest = target.removeprefix("sqlite:")
        return rest.removeprefix("//") if rest.startswith("///") else rest
    return target


async def open_store(target: str | Path, **options: Any) -> Store | PostgresStore:
    """Open the store `target` names (see the module docstring) with the backend's options."""
    if is_postgres(target):
        return await PostgresStore.open(str(target), **options)
    return await Store.open(sqlite_path(target), **options)
