"""Telegram: the player to move first at a table that another player's press started is
notified once (issue 31's turn pings), however the group's turn line and their private hand
race: here their private chat answers slowly, so the turn line is written first."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from tests.test_telegram import (
    ALICE,
    BOB,
    GROUP,
    Rig,
    button,
    data_of,
    hand_of,
    playable,
    run_rig,
    table_message,
)


def _slow_in_private(real: Any) -> Any:
    async def slow(p: dict[str, Any], f: dict[str, bytes]) -> Any:
        if int(p["chat_id"]) > 0:
            await asyncio.sleep(0.5)
        return await real(p, f)
    return slow


def test_the_first_mover_who_did_not_start_the_table_is_notified_once(tmp_path: Path
                                                                      ) -> None:
    async def body(rig: Rig) -> None:
        server = rig.server
        server.admins[GROUP] = {ALICE.id}
        server.start_bot(ALICE)
        server.start_bot(BOB)
        await rig.say(ALICE, GROUP, "/tournament swiss classic rounds=1 seats=2")
        ann = next(m for m in server.chat(GROUP) if "Tournament #1" in m.get("text", ""))
        register, _, start = [d for d in data_of(server, ann) if d.split(":")[2] == "t"]
        await rig.press(ALICE, ann, register)
        await rig.press(BOB, ann, register)
        await rig.press(ALICE, ann, start)
        lobby = table_message(server)
        await rig.press(ALICE, lobby, button(server, lobby, "j"))
        lobby = server.messages[GROUP][lobby["message_id"]]

        for method in ("_m_sendMessage", "_m_sendPhoto"):  # private chats answer slowly
            setattr(server, method, _slow_in_private(getattr(server, method)))
        before = {u.id: server.notifications(u.id) for u in (ALICE, BOB)}
        await rig.press(BOB, lobby, button(server, lobby, "j"))  # bob's press starts it
        first = [u for u in (ALICE, BOB) if (h := hand_of(server, u)) and playable(server, h)]
        assert first == [ALICE]  # the deal of this seed: alice moves first, not bob
        assert any(f"tg://user?id={ALICE.id}" in str(c.params.get("text"))
                   for c in server.calls if int(c.params.get("chat_id", 0)) == GROUP)
        after = {u: server.notifications(u) - n for u, n in before.items()}
        assert after == {ALICE.id: 1, BOB.id: 0}

    run_rig(tmp_path, body)
