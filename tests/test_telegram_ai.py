"""`/domino add-ai LEVEL`, `/addai` and `/review` through the real Telegram Application and the
fake Bot API server (tests/fake_telegram.py)."""

from __future__ import annotations

from pathlib import Path

from tests.test_telegram import ALICE, GROUP, Rig, run_rig


def test_add_ai_levels_and_review_in_telegram(tmp_path: Path) -> None:
    async def body(rig: Rig) -> None:
        assert rig.service is not None
        rig.server.start_bot(ALICE)
        await rig.say(ALICE, GROUP, "/domino classic players=4")
        table = max(rig.service.tables)
        await rig.say(ALICE, GROUP, "/domino add-ai hard")
        await rig.say(ALICE, GROUP, f"/addai {table} expert")
        await rig.say(ALICE, GROUP, "/addai wizard")
        seats = rig.service.tables[table].row.seats
        assert [s.ai for s in seats] == [None, "hard", "expert", None]
        assert [s.name for s in seats][1:3] == ["CPU 1 (hard)", "CPU 2 (expert)"]
        said = [m.get("text", "") for m in rig.server.chat(ALICE.id)]
        assert any("unknown computer level wizard" in text for text in said), said
        await rig.say(ALICE, GROUP, f"/review {table}")
        said = [m.get("text", "") for m in rig.server.chat(ALICE.id)]
        assert any("still under way" in text for text in said), said

    run_rig(tmp_path, body)
