"""Shared fixtures: a throwaway PostgreSQL cluster per session (tests/pg_cluster.py), a fresh
database per test that asks for one, and `db_target` that runs a test on SQLite and PostgreSQL."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.pg_cluster import Cluster, find_binaries, fresh_database, start_cluster
from tests.prerequisites import missing


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster | str]:
    """The running cluster (or the URL of DOMINO_TEST_PG); skips where PostgreSQL is absent
    (fails on CI: tests/prerequisites.py)."""
    given = os.environ.get("DOMINO_TEST_PG")
    if given:
        yield given
        return
    if find_binaries() is None:
        missing("PostgreSQL is not installed here (no initdb/pg_ctl on PATH or in "
                "/usr/lib/postgresql/*/bin)")
    cluster = start_cluster()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def pg_url(pg_cluster: Cluster | str) -> str:
    """The URL of a fresh, empty PostgreSQL database."""
    if isinstance(pg_cluster, str):
        return fresh_database(pg_cluster)
    return pg_cluster.new_database()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_target(request: pytest.FixtureRequest, tmp_path: Path) -> str | Path:
    """Where a store opens, once per backend: a SQLite file, then a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return tmp_path / "bot.db"
    return request.getfixturevalue("pg_url")
