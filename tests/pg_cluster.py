"""A throwaway PostgreSQL cluster for tests: `initdb` in a temporary folder, `pg_ctl` start on a
unix socket there (no TCP port), a fresh database per test, everything removed at the end.

The binaries are looked up on PATH, then in /usr/lib/postgresql/*/bin. PostgreSQL refuses to
run as root: as root, the cluster runs as the `postgres` user (created with `useradd` if
missing) through `runuser`. `DOMINO_TEST_PG=postgresql://...` uses a running server instead.
"""

from __future__ import annotations

import asyncio
import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import uuid
from dataclasses import dataclass
from pathlib import Path

USER = "postgres"


def find_binaries() -> Path | None:
    """The folder holding initdb, pg_ctl and postgres, or None."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl", path=str(Path(found).parent)):
        return Path(found).parent
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if Path(folder, "initdb").exists() and Path(folder, "pg_ctl").exists():
            return Path(folder)
    return None


def _run_as(user: str | None, argv: list[str]) -> subprocess.CompletedProcess[str]:
    if user is not None:
        argv = ["runuser", "-u", user, "--", *argv]
    return subprocess.run(argv, capture_output=True, text=True, check=False, timeout=120)


def _ensure_user(name: str) -> None:
    try:
        pwd.getpwnam(name)
    except KeyError:
        subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/bin/false",
                        name], check=True, capture_output=True)


@dataclass
class Cluster:
    folder: Path
    user: str | None
    bin: Path

    @property
    def socket_dir(self) -> Path:
        return self.folder / "run"

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://domino@/{database}?host={self.socket_dir}"

    def new_database(self) -> str:
        """A fresh empty database; its URL."""
        return fresh_database(self.url())

    def stop(self) -> None:
        _run_as(self.user, [str(self.bin / "pg_ctl"), "-D", str(self.folder / "data"), "-m",
                            "immediate", "-w", "stop"])
        shutil.rmtree(self.folder, ignore_errors=True)


def start_cluster(durable: bool = False) -> Cluster:
    """Start a cluster (raises RuntimeError with the server's words if it cannot). Tests run
    it without fsync; `durable` keeps PostgreSQL's defaults (for benchmarks)."""
    binaries = find_binaries()
    if binaries is None:
        raise FileNotFoundError("initdb/pg_ctl not found")
    user = None
    folder = Path(tempfile.mkdtemp(prefix="domino-pg-"))
    if os.geteuid() == 0:
        user = USER
        _ensure_user(user)
        shutil.chown(folder, user)
    (folder / "run").mkdir()
    if user is not None:
        shutil.chown(folder / "run", user)
    os.chmod(folder, 0o755)
    data = folder / "data"
    steps = [
        [str(binaries / "initdb"), "-D", str(data), "-U", "domino", "-A", "trust", "-E", "UTF8",
         "--locale=C", "--no-sync"],
        [str(binaries / "pg_ctl"), "-D", str(data), "-l", str(folder / "log"), "-w", "-t", "60",
         "-o", f"-k {folder / 'run'} -c listen_addresses='' -c max_connections=200"
         + ("" if durable else " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"),
         "start"],
    ]
    for argv in steps:
        result = _run_as(user, argv)
        if result.returncode:
            log = (folder / "log").read_text() if (folder / "log").exists() else ""
            shutil.rmtree(folder, ignore_errors=True)
            raise RuntimeError(f"{argv[0]} failed: {result.stdout}{result.stderr}{log}")
    return Cluster(folder, user, binaries)


def fresh_database(url: str) -> str:
    """Create an empty database on the server of `url`; its URL."""
    import asyncpg

    name = f"test_{uuid.uuid4().hex[:12]}"

    async def create() -> None:
        con = await asyncpg.connect(url)
        try:
            await con.execute(f"CREATE DATABASE {name}")
        finally:
            await con.close()

    asyncio.run(create())
    base, _, query = url.partition("?")
    return f"{base.rsplit('/', 1)[0]}/{name}" + (f"?{query}" if query else "")
