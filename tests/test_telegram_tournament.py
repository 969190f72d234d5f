"""A tournament through the Telegram adapter against the fake Bot API (issue 31): the
group's administrator opens it, players register by the button, the round's table opens in
the group; a member who is not an administrator may not organise."""

from __future__ import annotations

from pathlib import Path

from tests.test_telegram import ALICE, BOB, CAROL, DAVE, GROUP, Rig, data_of, run_rig


def test_a_tournament_in_a_telegram_group(tmp_path: Path) -> None:
    async def body(rig: Rig) -> None:
        server = rig.server
        server.admins[GROUP] = {ALICE.id}
        server.start_bot(BOB)
        await rig.say(BOB, GROUP, "/tournament swiss classic rounds=1 seats=2")
        assert server.chat(BOB.id)[-1]["text"] == ("Seuls les gestionnaires du serveur "
                                                   "peuvent organiser un tournoi ici.")
        await rig.say(ALICE, GROUP, "/tournament swiss classic rounds=1 seats=2")
        ann = next(m for m in server.chat(GROUP) if "Tournament #1" in m.get("text", ""))
        register, _, start = [d for d in data_of(server, ann) if d.split(":")[2] == "t"]
        assert register == "0:0:t:j1" and start == "0:0:t:s1"
        await rig.press(ALICE, ann, register)
        await rig.press(BOB, ann, register)
        assert any("(2 players)" in m.get("text", "") for m in server.chat(GROUP))
        await rig.press(ALICE, ann, start)
        texts = [m.get("text", m.get("caption", "")) for m in server.chat(GROUP)]
        assert any(x.startswith("Tournament #1, round 1 of 1:") for x in texts)
        assert any("Table #1: Alice, Bob" in x for x in texts)

    run_rig(tmp_path, body)


def test_fixed_pairs_register_by_a_reply_in_a_telegram_group(tmp_path: Path) -> None:
    async def body(rig: Rig) -> None:
        server = rig.server
        server.admins[GROUP] = {ALICE.id}
        await rig.say(ALICE, GROUP, "/tournament swiss partnership rounds=1")
        ann = next(m for m in server.chat(GROUP) if "Tournament #1" in m.get("text", ""))
        assert "Fixed partners" in ann["text"]
        said = await server.command(BOB, GROUP, "hello")  # a message of Bob's
        await server.command(ALICE, GROUP, "/tournament join 1", reply_to=said)
        await rig.sync(ALICE)
        assert any("Alice asks Bob to be their partner in tournament #1" in m.get("text", "")
                   for m in server.chat(GROUP))
        await rig.say(BOB, GROUP, "/tournament join 1")  # Bob accepts
        assert any("Alice & Bob are registered as partners in tournament #1 (2 players)."
                   in m.get("text", "") for m in server.chat(GROUP))
        server.outsiders[GROUP] = {CAROL.id}
        gone = await server.command(CAROL, GROUP, "bye")
        server.start_bot(DAVE)
        await server.command(DAVE, GROUP, "/tournament join 1", reply_to=gone)
        await rig.sync(DAVE)
        assert "Your partner must be a member here" in server.chat(DAVE.id)[-1]["text"]
        await rig.say(DAVE, GROUP, "/tournament join 1 @carol")  # a name: not looked up
        assert "Your partner must be a member here" in server.chat(DAVE.id)[-1]["text"]

    run_rig(tmp_path, body)
