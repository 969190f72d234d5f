"""Turn pings: the per-user choice (kept in the store, honoured after a restart), the quiet
turn messages and hands it makes, and the private reminder at half of a turn's time."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.service.messages import Message
from bot.service.pictures import NoPictures
from bot.service.service import Service
from bot.storage.backends import open_store
from tests.service_helpers import (
    ALICE,
    BOB,
    CHANNEL,
    SCOPE,
    Clock,
    errors,
    run,
    started_table,
    table_id,
    with_service,
)


def turns(messages: list[Message]) -> list[Message]:
    return [m for m in messages if m.kind == "turn"]


def reminders(messages: list[Message]) -> list[Message]:
    return [m for m in messages if "half of" in m.text or "moitié" in m.text]


def test_pings_off_is_kept_and_makes_turns_and_hands_quiet(db_target: str | Path) -> None:
    path: Any = db_target  # SQLite and PostgreSQL
    saved: dict[str, int] = {}

    async def first(service: Service) -> None:
        assert errors(await service.set_pings(BOB, "maybe")) == ["Ping de tour : on ou off."]
        told = await service.set_pings(BOB, "off")
        assert told[0].to == BOB.id and "désactivé" in told[0].text
        tid = table_id(await service.open_table(ALICE, CHANNEL, SCOPE, "classic",
                                                options="players=2 draw=block"))
        await service.join(BOB, tid)
        out = await service.begin(ALICE, tid)
        saved["tid"] = tid
        (turn,) = turns(out)
        who = turn.mention[0]
        assert turn.quiet == ((BOB.id,) if who == BOB.id else ())
        hands = {m.to: m for m in out if m.kind == "hand"}
        assert hands[BOB.id].quiet == (BOB.id,) and hands[ALICE.id].quiet == ()

    async def second(service: Service) -> None:  # after a restart: still off for bob
        tid = saved["tid"]
        out = await service.start()
        hands = {m.to: m for m in out if m.kind == "hand" and m.table == tid}
        assert hands[BOB.id].quiet == (BOB.id,) and hands[ALICE.id].quiet == ()
        assert "désactivé" in (await service.set_pings(BOB))[0].text
        await service.set_pings(BOB, "on")
        hand = [m for m in await service.hand(BOB, tid) if m.kind == "hand"]
        assert hand and hand[0].quiet == ()
        assert "activé" in (await service.set_pings(BOB, ""))[0].text

    run(_on(path, first))
    run(_on(path, second))


async def _on(target: Any, body: Any) -> None:
    """`with_service` on either backend (open_store picks it from `target`)."""
    store = await open_store(target)
    try:
        service = Service(store, pictures=NoPictures(), ai_delay=0, seed=1)
        await service.start()
        await body(service)
    finally:
        await store.close()


def test_half_time_reminder_once_per_turn_even_after_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite"
    clock = Clock()
    saved: dict[str, int] = {}

    async def first(service: Service) -> None:
        tid = await started_table(service, BOB, (ALICE,), "players=2 timer=120 draw=block")
        saved["tid"] = tid
        table = service.tables[tid]
        user = table.row.seats[table.game.to_move].user_id
        saved["turn"] = table.game.turn
        clock.now += 59
        assert not reminders(await service.tick()), "not yet: less than half is gone"
        clock.now += 2
        (said,) = reminders(await service.tick())
        assert said.to == user and said.private and said.table == tid
        assert "59" in said.text
        if user == BOB.id:
            assert said.text.startswith("Table #")  and "moitié" in said.text
        clock.now += 5
        assert not reminders(await service.tick()), "once per turn"

    async def second(service: Service) -> None:
        tid = saved["tid"]
        assert service.tables[tid].game.turn == saved["turn"]
        clock.now += 5
        assert not reminders(await service.tick()), "not again after a restart"
        clock.now += 100
        out = await service.tick()
        assert any(m.kind == "turn" for m in out)

    run(with_service(path, first, clock=clock))
    run(with_service(path, second, clock=clock))


def test_no_half_time_reminder_when_pings_are_off(tmp_path: Path) -> None:
    clock = Clock()

    async def body(service: Service) -> None:
        await service.set_pings(ALICE, "off")
        await service.set_pings(BOB, "off")
        await started_table(service, ALICE, (BOB,), "players=2 timer=120 draw=block")
        clock.now += 61
        assert not reminders(await service.tick())
        clock.now += 30
        (warning,) = turns(await service.tick())
        assert warning.quiet == warning.mention

    run(with_service(tmp_path / "db.sqlite", body, clock=clock))


# -- the adapters against the fake servers ---------------------------------------------------

def test_discord_notifies_once_per_turn_and_not_who_turned_pings_off(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from tests.discord_helpers import running_bot
    from tests.fake_discord import FakeDiscord
    from tests.test_discord import (
        last_ephemeral,
        play_one_tile,
        player_to_move,
        table_message,
        turn_messages,
    )

    async def body(fake: FakeDiscord, db: Path) -> None:
        alice, bob = fake.add_user("alice"), fake.add_user("bob")
        async with running_bot(fake, db, seed=6) as bot:
            await bot.slash(bob, "pings", state="off")
            assert "off" in last_ephemeral(fake, bob)["content"]
            await bot.slash(alice, "start", variant="classic", players=3, ai=1,
                            options="draw=block")
            table = max(bot.service.tables)
            lobby = await table_message(bot, table)
            await bot.click(bob, lobby, "Join")
            await bot.click(alice, lobby, "Start")
            hands: dict[int, int] = {}
            moved = {alice: 0, bob: 0}
            while "Rematch" not in [b["label"] for b in fake.buttons(lobby)]:
                player = player_to_move(fake)
                assert f"<@{player}>" in turn_messages(fake)[0]["content"], \
                    "the turn message names the player, pings on or off"
                if player not in hands:
                    await bot.click(player, int(turn_messages(fake)[0]["id"]), "My hand")
                    hands[player] = int(last_ephemeral(fake, player)["id"])
                await play_one_tile(bot, player, hands[player])
                moved[player] += 1
                assert sum(moved.values()) < 100
            assert moved[alice] > 2 and moved[bob] > 2
            assert fake.notifications(alice) == moved[alice], \
                "one notification each time the turn passed to alice, none in between"
            assert fake.notifications(bob) == 0, "bob turned pings off"
    _discord(monkeypatch, tmp_path, body)


def _discord(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, body: Any) -> None:
    from tests.fake_discord import FakeDiscord

    async def main() -> None:
        async with FakeDiscord() as fake:
            fake.patch(monkeypatch)
            await body(fake, tmp_path / "domino.sqlite")
    asyncio.run(main())


def test_telegram_notifies_once_per_turn_and_not_who_turned_pings_off(tmp_path: Path) -> None:
    _telegram_game(tmp_path, bob_quiet=True)


def test_telegram_notifies_each_player_once_per_turn(tmp_path: Path) -> None:
    """Bob, who did not press Start, may move first: his first hand and the group's first
    turn line must not both notify him."""
    _telegram_game(tmp_path, bob_quiet=False)


def _telegram_game(tmp_path: Path, bob_quiet: bool) -> None:
    from tests.test_telegram import (
        ALICE as TG_ALICE,
    )
    from tests.test_telegram import (
        BOB as TG_BOB,
    )
    from tests.test_telegram import (
        GROUP,
        Rig,
        button,
        data_of,
        hand_of,
        playable,
        run_rig,
        table_message,
    )

    async def body(rig: Rig) -> None:
        server = rig.server
        lobby = await rig.open_with_bob("players=3 draw=block")
        await rig.say(TG_BOB, TG_BOB.id, "/pings off" if bob_quiet else "/pings")
        assert ("désactivé" in server.chat(TG_BOB.id)[-1]["text"]) == bob_quiet
        await rig.press(TG_ALICE, lobby, button(server, lobby, "a"))
        before_game = {u.id: server.notifications(u.id) for u in (TG_ALICE, TG_BOB)}
        await rig.press(TG_ALICE, lobby, button(server, lobby, "s"))
        table = table_message(server)
        players = (TG_ALICE, TG_BOB)

        def acting() -> set[int]:
            return {u.id for u in players if (h := hand_of(server, u)) and playable(server, h)}

        # the turn passed to a player (at the start, or by another's press: a turn coming
        # back to the presser within their own press finds them looking at their hand)
        passed = dict.fromkeys((u.id for u in players), 0)
        for who in acting():
            passed[who] += 1
        moves = 0
        while not any(d.split(":")[2] == "m" for d in data_of(server, table)):
            mover = next(u for u in players if u.id in acting())
            before = acting()
            hand = hand_of(server, mover)
            assert hand is not None
            data = playable(server, hand)
            assert data is not None
            await rig.play(mover, hand, data)
            for who in acting() - before - {mover.id}:
                passed[who] += 1
            moves += 1
            assert moves < 100
            table = server.messages[GROUP][table["message_id"]]
        assert passed[TG_ALICE.id] > 2 and passed[TG_BOB.id] > 2
        after = {u: server.notifications(u) - n for u, n in before_game.items()}
        assert after[TG_ALICE.id] == passed[TG_ALICE.id], \
            "one notification each time the turn passed to alice, none in between"
        assert after[TG_BOB.id] == (0 if bob_quiet else passed[TG_BOB.id]), "bob's pings"
        assert any(f"tg://user?id={TG_BOB.id}" in str(c.params.get("text"))
                   for c in server.calls if int(c.params.get("chat_id", 0)) == GROUP), \
            "the turn line still names bob"

    run_rig(tmp_path, body)


def test_console_shows_the_turn_without_notifying_who_turned_pings_off(tmp_path: Path) -> None:
    from console_helpers import ConsoleBot, play_first_legal

    bot = ConsoleBot(tmp_path)
    bot.start()
    assert bot.send("/pings") == [
        "[private to alice] Turn pings are on: you are notified when it is your turn."]
    assert bot.send("/pings off") == [
        "[private to alice] Turn pings are off: your turns are shown without notifying you."]
    assert "error: Turn pings: on or off." in bot.send("/pings loud")[0]
    out = bot.send("/start classic players=2 ai=1 draw=block")
    out += bot.send("/hand")
    for _ in range(10):  # the computer may play first
        if any("alice, your turn." in line for line in out):
            break
        out += bot.send("/wait 1")
    assert any("alice, your turn." in line for line in out), out
    assert not any("(notifies" in line for line in out), out
    bot.send("/pings on")
    moved = play_first_legal(bot, "alice", out)
    text = "\n".join(moved)
    if "alice, your turn." in text:  # the computer played and it is alice's turn again
        assert "(notifies alice)" in text
    assert bot.close()[0] == 0
