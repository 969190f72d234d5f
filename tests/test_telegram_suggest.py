"""A mistyped command or variant on Telegram, through python-telegram-bot and the fake Bot
API: the closest one is suggested ("/plya": did you mean /play?)."""

from __future__ import annotations

from pathlib import Path

from tests.test_telegram import ALICE, BOB, GROUP, Rig, run_rig


def test_a_mistyped_command_or_variant_gets_the_closest(tmp_path: Path) -> None:
    async def body(rig: Rig) -> None:
        server = rig.server
        server.start_bot(ALICE)
        server.start_bot(BOB)
        await rig.say(ALICE, GROUP, "/plya 6-4")
        assert server.chat(ALICE.id)[-1]["text"] == "Unknown command /plya. Did you mean /play?"
        await rig.say(BOB, GROUP, "/domnio classic")  # Bob reads French
        assert server.chat(BOB.id)[-1]["text"] == ("Commande inconnue /domnio. Vouliez-vous "
                                                   "dire /domino ?")
        sent = len(server.chat(ALICE.id))
        await rig.say(ALICE, GROUP, "/weather")  # nothing like ours: another bot's, maybe
        await rig.say(ALICE, GROUP, "/plya@other_bot")  # addressed to another bot
        assert len(server.chat(ALICE.id)) == sent
        await rig.say(ALICE, ALICE.id, "/weather")  # in the private chat: the commands
        assert server.chat(ALICE.id)[-1]["text"].startswith("Unknown command /weather. The "
                                                            "commands: /domino, /join")
        await rig.say(ALICE, GROUP, "/domino fourty-two")
        assert "did you mean forty-two?" in server.chat(ALICE.id)[-1]["text"]

    run_rig(tmp_path, body)
