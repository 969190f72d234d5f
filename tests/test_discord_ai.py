"""`/domino add-ai` and `/domino review` with the real discord.py client against the fake
Discord (tests/fake_discord.py)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.discord.delivery import PLATFORM
from tests.discord_helpers import running_bot
from tests.fake_discord import FakeDiscord


def test_add_ai_with_a_level_and_a_review(monkeypatch: pytest.MonkeyPatch,
                                          tmp_path: Path) -> None:
    async def main() -> None:
        async with FakeDiscord() as fake:
            fake.patch(monkeypatch)
            alice = fake.add_user("alice")
            async with running_bot(fake, tmp_path / "domino.sqlite") as bot:
                await bot.slash(alice, "start", variant="classic", players=3)
                table = max(bot.service.tables)
                await bot.slash(alice, "add-ai", level="expert")
                stored = await bot.store.adapter_get(table, PLATFORM, "table")
                assert stored
                lobby = fake.messages[int(stored.split(":")[1])]
                assert "CPU 1 (expert)" in lobby["content"]
                seats = bot.service.tables[table].row.seats
                assert [s.ai for s in seats] == [None, "expert", None]
                await bot.slash(alice, "review", table=table)  # a lobby is not finished
                said = [m["content"] for m in fake.ephemerals(alice)]
                assert any("still under way" in text for text in said), said

    asyncio.run(main())
