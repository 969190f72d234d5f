"""Issue 11 through the real Telegram adapter (python-telegram-bot on the fake Bot API): a
table of group A cannot be reached from group B, typed or by a forged button, strange
numbers do not escape, and with DOMINO_LOG=debug no private hand and no token is logged."""

from __future__ import annotations

import io
import json
import logging
from pathlib import Path

from bot.config import Settings
from bot.logs import LIBRARY_LOGGERS, setup_logging
from tests.fake_telegram import TOKEN, TgUser
from tests.test_telegram import (
    ALICE,
    BOB,
    Rig,
    button,
    play_out,
    run_rig,
    table_message,
)

GROUP_B = -100777
MALLORY = TgUser(1666, "Mallory")


def test_a_table_of_group_a_cannot_be_reached_from_group_b(tmp_path: Path) -> None:
    async def body(rig: Rig) -> None:
        server = rig.server
        assert rig.service is not None
        lobby = await rig.open_with_bob("players=3")
        table = int(button(server, lobby, "j").split(":")[0])
        seats = [s.user_id for s in rig.service.tables[table].row.seats]
        server.start_bot(MALLORY)
        await rig.say(MALLORY, GROUP_B, "/domino classic players=2")
        own = table_message(server, GROUP_B)
        arabic = str(table).translate(str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩"))
        for verb in "jsaqlm":  # forged buttons pressed under a message of group B
            for number in (str(table), arabic, "0" * 20 + str(table), "0" + str(table)):
                answer = await rig.press(MALLORY, own, f"{number}:0:{verb}")  # issue 26
                assert answer.get("show_alert") or answer.get("text"), (verb, number)
        for command in ("/join", "/begin", "/stop", "/leave", "/hand", "/rematch"):
            await rig.say(MALLORY, GROUP_B, f"{command} {table}")
            await rig.say(MALLORY, MALLORY.id, f"{command} {table}")  # the private chat too
        await rig.say(MALLORY, MALLORY.id, f"/start t{table}")
        assert [s.user_id for s in rig.service.tables[table].row.seats] == seats
        assert rig.service.tables[table].row.status == "lobby"
        # numbers that are not numbers, or too big for the database
        for text in ("/join ²", "/rematch 99999999999999999999", "/settings timer ²",
                     f"/play {2**63} 6-4"):
            await rig.say(MALLORY, GROUP_B, text)
        answer = await rig.press(MALLORY, own, "99999999999999999999:0:m")
        assert answer.get("show_alert") or answer.get("text")
        # from its own group, the table still works
        answer = await rig.press(ALICE, lobby, button(server, lobby, "s"))
        assert not answer.get("show_alert")

    run_rig(tmp_path, body)


def test_debug_logs_hold_no_private_hand_and_no_token(tmp_path: Path) -> None:
    stream = io.StringIO()
    root = logging.getLogger()
    saved = (root.handlers[:], root.level,
             {name: logging.getLogger(name).level for name in LIBRARY_LOGGERS})
    setup_logging(Settings(log_level="debug", telegram_token=TOKEN), stream)
    hands: set[str] = set()

    async def body(rig: Rig) -> None:
        server = rig.server
        table = await rig.open_with_bob("players=2")
        await rig.press(ALICE, table, button(server, table, "s"))
        await play_out(rig, [ALICE, BOB], table_message(server))
        # every tile button ever offered in a private hand (hands end without buttons)
        private = {ALICE.id, BOB.id}
        for call in server.calls:
            if call.params.get("chat_id") in private or str(call.params.get("chat_id")) in {
                    str(x) for x in private}:
                markup = call.params.get("reply_markup") or {}
                if isinstance(markup, str):
                    markup = json.loads(markup)
                for row in markup.get("inline_keyboard", []):
                    hands.update(b["callback_data"] for b in row if "callback_data" in b
                                 and b["callback_data"].split(":")[2] in "pe")

    try:
        run_rig(tmp_path, body)
    finally:
        root.handlers[:] = saved[0]
        root.setLevel(saved[1])
        for name, level in saved[2].items():
            logging.getLogger(name).setLevel(level)
    log = stream.getvalue()
    assert "DEBUG" in log  # debug logging was on
    assert hands and not [d for d in hands if d in log]
    assert TOKEN not in log and TOKEN.split(":")[1] not in log
