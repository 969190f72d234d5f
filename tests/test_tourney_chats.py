"""Issue 37, items 2 and 4 through the adapters: a tournament's number typed on Telegram
(`/tournament join #1`) and on Discord (`what:join 1`) is passed on as typed and read by
the service; `cancel` is the organiser's or a manager's (a group administrator, a server
manager), on both."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fake_discord import FakeDiscord
from tests.test_discord import last_ephemeral, play, running_bot
from tests.test_telegram import ALICE, BOB, CAROL, GROUP, Rig, run_rig


def test_typed_numbers_and_cancel_on_telegram(tmp_path: Path) -> None:
    async def body(rig: Rig) -> None:
        server = rig.server
        server.admins[GROUP] = {ALICE.id, CAROL.id}
        for user in (ALICE, BOB, CAROL):
            server.start_bot(user)
        await rig.say(ALICE, GROUP, "/tournament swiss classic rounds=1 seats=2")
        await rig.say(BOB, GROUP, "/tournament join #1")
        assert any("Bob is registered in tournament #1 (1 player)." in m.get("text", "")
                   for m in server.chat(GROUP))
        await rig.say(BOB, GROUP, "/tournament join ١")
        assert server.chat(BOB.id)[-1]["text"] == "Il n'y a pas de tournoi #١."  # in French
        await rig.say(BOB, GROUP, "/tournament cancel 1")
        assert server.chat(BOB.id)[-1]["text"] == ("Seul l'organisateur ou un gestionnaire "
                                                   "du serveur peut annuler le tournoi.")
        await rig.say(CAROL, GROUP, "/tournament cancel 1")  # an administrator
        assert any(m.get("text") == "Tournament #1 is cancelled by Carol."
                   for m in server.chat(GROUP))
        row = await rig.service.store.tournament(1)
        assert row is not None and row.status == "stopped"

    run_rig(tmp_path, body)


def test_typed_numbers_and_cancel_on_discord(monkeypatch: pytest.MonkeyPatch,
                                             tmp_path: Path) -> None:
    async def body(fake: FakeDiscord, db: Path) -> None:
        alice, boss = fake.add_user("alice"), fake.add_user("boss", manager=True)
        other = fake.add_user("other", manager=True)
        async with running_bot(fake, db) as bot:
            await bot.slash(boss, "tournament", what="swiss classic rounds=1 seats=2")
            await bot.slash(alice, "tournament", what="join #1")
            assert any("alice is registered in tournament #1" in m["content"]
                       for m in fake.channel_messages())
            await bot.slash(alice, "tournament", what="leave 01")
            assert last_ephemeral(fake, alice)["content"] == "There is no tournament #01."
            await bot.slash(alice, "tournament", what="cancel 1")
            assert "Only the organiser or a server manager" in last_ephemeral(
                fake, alice)["content"]
            await bot.slash(other, "tournament", what="cancel", number=1)
            assert any(m["content"] == "Tournament #1 is cancelled by other."
                       for m in fake.channel_messages())
            row = await bot.service.store.tournament(1)
            assert row is not None and row.status == "stopped"

    play(monkeypatch, tmp_path, body)
