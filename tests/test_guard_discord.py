"""Issue 11 through the real discord.py client on the fake Discord: with DOMINO_LOG=debug,
no interaction token (valid 15 minutes) and no private hand reaches any log record."""

from __future__ import annotations

import io
import logging
from pathlib import Path

import pytest

from bot.config import Settings
from bot.logs import LIBRARY_LOGGERS, setup_logging
from tests.discord_helpers import running_bot
from tests.fake_discord import FakeDiscord
from tests.test_discord import open_two_player_table, play


def test_debug_logs_hold_no_interaction_token(monkeypatch: pytest.MonkeyPatch,
                                               tmp_path: Path) -> None:
    stream = io.StringIO()
    root = logging.getLogger()
    saved = (root.handlers[:], root.level,
             {name: logging.getLogger(name).level for name in LIBRARY_LOGGERS})
    setup_logging(Settings(log_level="debug", discord_token="fake-token"), stream)
    tokens: list[str] = []
    hands: list[str] = []

    async def body(fake: FakeDiscord, db: Path) -> None:
        alice, bob = fake.add_user("alice"), fake.add_user("bob")
        async with running_bot(fake, db) as bot:
            await open_two_player_table(bot, alice, bob)
            await bot.slash(alice, "hand")
            await bot.slash(bob, "hand")
            tokens.extend(fake.interactions)
            for user in (alice, bob):
                for m in fake.ephemerals(user):
                    hands.extend(b["custom_id"] for row in m.get("components", [])
                                 for b in row.get("components", [])
                                 if ":p:" in b.get("custom_id", ""))

    try:
        play(monkeypatch, tmp_path, body)
    finally:
        root.handlers[:] = saved[0]
        root.setLevel(saved[1])
        for name, level in saved[2].items():
            logging.getLogger(name).setLevel(level)
    log = stream.getvalue()
    assert "DEBUG" in log and tokens
    assert not [tok for tok in tokens if f"{tok}'" in log or f"{tok}/" in log
                or f'{tok}"' in log]
    assert not [h for h in hands if h in log]
    assert "fake-token" not in log


def test_the_clients_locks_are_not_kept_per_table_number(tmp_path: Path) -> None:
    import asyncio
    import gc

    from bot.discord.adapter import DominoClient
    from bot.service.service import Service
    from bot.storage import Store

    async def body() -> int:
        store = await Store.open(tmp_path / "db.sqlite")
        try:
            client = DominoClient(Service(store), sync=False)
            for n in range(5000):  # forged presses naming every number
                async with client._lock(n):
                    pass
            held = client._lock(7)
            async with held:
                assert client._lock(7) is held  # one lock per table while it is in use
            gc.collect()
            count = len(client._locks)
            await client.close()
            return count
        finally:
            await store.close()

    assert asyncio.run(body()) < 10
