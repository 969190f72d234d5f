"""Discord's limits, enforced by the fake Discord as the real one does (400 "Invalid Form
Body"), and every family's messages within them through the real discord.py client."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from core import variants
from tests.discord_helpers import running_bot
from tests.fake_discord import API, FakeDiscord, form_errors


def play(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, body: Any) -> Any:
    async def main() -> Any:
        async with FakeDiscord() as fake:
            fake.patch(monkeypatch)
            return await body(fake, tmp_path / "domino.sqlite")
    return asyncio.run(main())


def buttons(*custom_ids: str, label: str = "b") -> dict[str, Any]:
    return {"type": 1, "components": [{"type": 2, "style": 2, "label": label,
                                       "custom_id": c} for c in custom_ids]}


def test_the_fake_refuses_what_discord_refuses(monkeypatch: pytest.MonkeyPatch,
                                               tmp_path: Path) -> None:
    async def body(fake: FakeDiscord, db: Path) -> None:
        url = f"http://127.0.0.1:{fake.port}{API}/channels/{fake.channel_id}/messages"
        async with aiohttp.ClientSession() as http:
            async def post(components: list[dict[str, Any]], content: str = "x"
                           ) -> tuple[int, dict[str, Any]]:
                async with http.post(url, json={"content": content,
                                                "components": components}) as r:
                    return r.status, await r.json()

            status, answer = await post([buttons("dom:1"), buttons("dom:2", "dom:1")])
            assert status == 400 and answer["code"] == 50035
            error = answer["errors"]["components"]["1"]["components"]["1"]["custom_id"]
            assert error["_errors"][0]["code"] == "COMPONENT_CUSTOM_ID_DUPLICATED"
            assert (await post([buttons(f"dom:{i}") for i in range(6)]))[0] == 400
            assert (await post([buttons(*[f"dom:{i}" for i in range(6)])]))[0] == 400
            assert (await post([buttons("dom:1", label="x" * 81)]))[0] == 400
            assert (await post([buttons("d" * 101)]))[0] == 400
            assert (await post([], content="x" * 2001))[0] == 400
            assert len(fake.refused) == 6 and not fake.channel_messages()
            fine = [buttons(*[f"dom:{r}:{i}" for i in range(5)], label="x" * 80)
                    for r in range(5)]
            assert (await post(fine, content="x" * 2000))[0] == 200
    play(monkeypatch, tmp_path, body)


def test_form_errors_of_an_interaction_answer_are_under_data() -> None:
    assert form_errors({"components": [buttons("a", "a")]})
    assert not form_errors({"components": [buttons("a", "b")], "content": "fine"})


@pytest.mark.parametrize("seed", [3, 13])
def test_a_vingt_hand_reaches_discord(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                      seed: int) -> None:
    """`/domino start variant:vingt players:2 ai:1`: the hand offered its best plays twice,
    with the same custom id, and Discord refused the whole message."""
    async def body(fake: FakeDiscord, db: Path) -> None:
        alice = fake.add_user("alice")
        async with running_bot(fake, db, seed=seed) as bot:
            await bot.slash(alice, "start", variant="vingt", players=2, ai=1)
            table = max(bot.service.tables)
            turn = next(m for m in fake.channel_messages() if m["mentions"])
            await bot.click(alice, int(turn["id"]), "My hand")
            assert not fake.refused, [c.json for c in fake.refused]
            hand = fake.ephemerals(alice)[-1]
            assert f"#{table}" in hand["content"] and fake.buttons(int(hand["id"]))
    play(monkeypatch, tmp_path, body)


def test_my_hand_again_takes_the_buttons_off_the_older_copy(monkeypatch: pytest.MonkeyPatch,
                                                            tmp_path: Path) -> None:
    async def body(fake: FakeDiscord, db: Path) -> None:
        alice = fake.add_user("alice")
        async with running_bot(fake, db) as bot:
            await bot.slash(alice, "start", variant="classic", players=2, ai=1)
            table = max(bot.service.tables)
            stored = await bot.store.adapter_get(table, "discord", "table")
            lobby = int(stored.split(":")[1])
            await bot.click(alice, lobby, "My hand")
            first = int(fake.ephemerals(alice)[-1]["id"])
            assert fake.buttons(first)
            await bot.click(alice, lobby, "My hand")
            second = int(fake.ephemerals(alice)[-1]["id"])
            assert second != first and fake.buttons(second)
            assert not fake.buttons(first), "the older copy's buttons were stale"
            assert f"#{table}" in fake.messages[first]["content"]  # the hand stays readable
            await bot.slash(alice, "hand")
            third = int(fake.ephemerals(alice)[-1]["id"])
            assert third != second and fake.buttons(third) and not fake.buttons(second)
            shown = [int(m["id"]) for m in fake.ephemerals(alice)]
            assert [m for m in shown if fake.buttons(m)] == [third]  # the start's copy too
            playable = [b for b in fake.buttons(third) if not b.get("disabled")]
            await fake.click(alice, third, playable[0]["custom_id"])  # in place: kept
            await bot.settle()
            assert third in fake.messages and not fake.refused
            if table in bot.service.tables:  # the game goes on: the hand edited in place
                assert [int(m["id"]) for m in fake.ephemerals(alice)] == shown
                assert [m for m in shown if fake.buttons(m)] == [third]
    play(monkeypatch, tmp_path, body)


def test_stop_in_a_solo_game_asks_first(monkeypatch: pytest.MonkeyPatch, tmp_path: Path
                                        ) -> None:
    async def body(fake: FakeDiscord, db: Path) -> None:
        alice = fake.add_user("alice")
        async with running_bot(fake, db) as bot:
            await bot.slash(alice, "start", variant="memory", players=2, ai=1)
            table = max(bot.service.tables)
            stored = await bot.store.adapter_get(table, "discord", "table")
            lobby = int(stored.split(":")[1])
            await bot.click(alice, lobby, "Stop")
            assert table in bot.service.tables, "one press next to My hand ended the game"
            question = fake.ephemerals(alice)[-1]
            assert "cannot be resumed" in question["content"]
            await bot.click(alice, int(question["id"]), "Yes, stop")
            assert table not in bot.service.tables
            assert not fake.buttons(int(question["id"])), "'Yes, stop' stayed after the stop"
            assert "was stopped" in fake.messages[lobby]["content"]
            assert not fake.refused
    play(monkeypatch, tmp_path, body)


def test_a_finished_game_leaves_no_button_on_the_hand(monkeypatch: pytest.MonkeyPatch,
                                                      tmp_path: Path) -> None:
    async def body(fake: FakeDiscord, db: Path) -> None:
        alice = fake.add_user("alice")
        async with running_bot(fake, db) as bot:
            await bot.slash(alice, "start", variant="quadrille")
            table = max(bot.service.tables)
            hand = int(fake.ephemerals(alice)[-1]["id"])
            for _ in range(10):  # the first step's pages: "Give up" is on the last
                if "Give up" in [b["label"] for b in fake.buttons(hand)]:
                    break
                await bot.click(alice, hand, "Next")
            for _ in range(2):  # "Give up", then "Give up" (a move built a word at a time)
                if table in bot.service.tables:
                    await bot.click(alice, hand, "Give up")
            assert table not in bot.service.tables
            assert not fake.buttons(hand), "the finished puzzle's hand kept its buttons"
            assert f"Game #{table} is over." in fake.messages[hand]["content"]
    play(monkeypatch, tmp_path, body)


@pytest.mark.parametrize("slug", [s for s in variants.names()
                                  if variants.get(s).family != "line"])
def test_every_family_plays_on_discord_within_its_limits(monkeypatch: pytest.MonkeyPatch,
                                                         tmp_path: Path, slug: str) -> None:
    """A few random presses of the hand's buttons in every family, through discord.py:
    Discord refuses none of the messages (the fake enforces its limits)."""
    async def body(fake: FakeDiscord, db: Path) -> None:
        alice = fake.add_user("alice")
        rng = random.Random(slug)
        async with running_bot(fake, db) as bot:
            n = variants.get(slug).default_players
            options = {"players": n, "ai": n - 1} if n > 1 else {}
            if slug in ("forty-two", "texas-42"):
                options["options"] = "target=2" if slug == "texas-42" else "target=42"
            await bot.slash(alice, "start", variant=slug, **options)
            table = max(bot.service.tables)
            assert not fake.refused, [c.json for c in fake.refused]
            for _ in range(12):
                if table not in bot.service.tables:
                    break
                shown = [m for m in fake.ephemerals(alice) if any(
                    not b.get("disabled") for b in fake.buttons(int(m["id"])))]
                if not shown:
                    stored = await bot.store.adapter_get(table, "discord", "table")
                    await bot.click(alice, int(stored.split(":")[1]), "My hand")
                    continue
                hand = int(shown[-1]["id"])
                press = rng.choice([b for b in fake.buttons(hand) if not b.get("disabled")])
                await fake.click(alice, hand, press["custom_id"])
                await bot.settle()
                assert not fake.refused, (press, [c.json for c in fake.refused])
    play(monkeypatch, tmp_path, body)
