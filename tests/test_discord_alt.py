"""Every picture the bot posts on Discord carries its text alternative: the attachment's
description says the board and the last move in words (`words.board_alt`, the web page's
`alt`), within Discord's 1,024 characters (the fake Discord refuses a longer one, as
Discord does).  The real discord.py client against tests/fake_discord.py, a real SQLite file
and the real service."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.discord.delivery import PLATFORM
from bot.discord.views import MAX_DESCRIPTION, files_for
from bot.service.messages import Message
from bot.service.words import board_alt
from tests.discord_helpers import running_bot
from tests.fake_discord import FakeDiscord, form_errors


def test_a_table_picture_says_the_board_and_the_last_move(monkeypatch: pytest.MonkeyPatch,
                                                          tmp_path: Path) -> None:
    async def main() -> None:
        async with FakeDiscord() as fake:
            fake.patch(monkeypatch)
            alice = fake.add_user("alice")
            async with running_bot(fake, tmp_path / "d.sqlite", seed=6) as bot:
                await bot.slash(alice, "start", variant="classic", players=2, ai=1)
                table = max(bot.service.tables)
                stored = await bot.store.adapter_get(table, PLATFORM, "table")
                mid = int(stored.split(":")[1])
                tb = bot.service.tables[table]
                game = tb.game
                if game.to_move == 0:  # alice plays, so that there is a last move to say
                    await bot.slash(alice, "play", move=str(game.legal_moves()[0]))
                attachment = fake.messages[mid]["attachments"][0]
                said = attachment["description"]
                assert said == board_alt(game.view(None), tb.names(), tb.row.lang)
                assert said.startswith("The line: ") and "Last move: " in said
                assert len(said) <= MAX_DESCRIPTION
    asyncio.run(main())


def test_a_description_is_cut_to_discords_limit() -> None:
    long = Message("c", "x " * 2000, image=b"png", table=1, alt="6-4, " * 400)
    described: Any = files_for(long)[0]
    assert len(described.description) == MAX_DESCRIPTION and described.description.endswith("…")
    plain = files_for(Message("c", "Your tiles: 6-4, 5-5", image=b"png"))[0]
    assert plain.description == "Your tiles: 6-4, 5-5"  # no alt: the text says it
    errors = form_errors({"attachments": [{"id": 0, "description": "x" * 1025}]})
    assert errors["attachments"]["0"]["description"]["_errors"][0]["code"] == \
        "BASE_TYPE_MAX_LENGTH"
