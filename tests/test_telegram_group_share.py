"""A busy group's writes shared between its tables (issue 37 item 16): a table's round-end
score sheet rides its table message's edit while another table of the group waits (one write
instead of two), through the real outbox, python-telegram-bot's `Bot` and the fake Bot API
(which refuses any write over the flood limits, scaled down), on a SQLite store; alone in its
group, or at a game's end, the score sheet stays a message of its own."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path
from typing import Any

from PIL import Image
from telegram import Bot

from bot.service.messages import Action, Message, action_data
from bot.storage import Store
from bot.telegram.out import Outbox
from bot.telegram.pacing import Pace
from bot.telegram.queues import ChatQueues, Job, with_sheet
from tests.fake_telegram import TOKEN, FakeBotApi, Limits

GROUP = -100900
CHANNEL = f"telegram:{GROUP}"
LIMITS = Limits(scale=0.05)  # 20 writes in 3 s in a group, 0.05 s between two in a chat
SHEET = "Score sheet, round 1\nAlice 12, Bob 30"


def png(colour: tuple[int, int, int]) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (4, 4), colour).save(out, "PNG")
    return out.getvalue()


BOARD = {n: png((n * 40, 0, 0)) for n in range(1, 6)}
SHEET_PICTURE = png((0, 200, 0))


def table(n: int, turn: int, colour: int, text: str = "", said: tuple[str, ...] = ()
          ) -> Message:
    """Table `n`'s table message at `turn`, showing the picture BOARD[colour]."""
    buttons = (Action("My hand", action_data(n, turn, "h")),
               Action("Stop", action_data(n, turn, "q")))
    return Message(CHANNEL, text or f"Table {n}, turn {turn}", kind="table", table=n,
                   image=BOARD[colour], actions=buttons, said=said)


def sheet(n: int) -> Message:
    return Message(CHANNEL, SHEET, kind="board", table=n, image=SHEET_PICTURE)


async def with_outbox(tmp_path: Path, body: Any, servers: list[FakeBotApi] | None = None
                      ) -> FakeBotApi:
    """Run `body` with an outbox writing to a fresh fake server (put in `servers`)."""
    server = FakeBotApi(limits=LIMITS)
    await server.start()
    if servers is not None:
        servers.append(server)
    store = await Store.open(tmp_path / "domino.sqlite")
    bot = Bot(TOKEN, base_url=server.base_url)
    await bot.initialize()
    pace = Pace(LIMITS.group, LIMITS.window, LIMITS.gap, LIMITS.overall, LIMITS.gap)
    try:
        await body(Outbox(bot, store, "bot", pace))
    finally:
        await bot.shutdown()
        await store.close()
        await server.close()
    return server


def group_writes(server: FakeBotApi, since: int) -> list[Any]:
    return [c for c in server.calls[since:] if str(c.params.get("chat_id")) == str(GROUP)
            and c.method.startswith(("send", "edit", "delete"))]


def shown(server: FakeBotApi, n: int) -> dict[str, Any]:
    """Table `n`'s table message as the group shows it now."""
    return next(m for m in server.chat(GROUP) if any(
        b.get("callback_data", "").startswith(f"{n}:") for b in server.buttons(m)))


def picture(server: FakeBotApi, message: dict[str, Any]) -> bytes:
    return server.photos[message["photo"][-1]["file_id"]]


def test_the_score_sheet_rides_the_table_message_while_another_table_waits(tmp_path: Path
                                                                            ) -> None:
    async def body(out: Outbox) -> None:
        await out.deliver([table(1, 3, 1), table(2, 3, 2)])
        await out.drain()
        # table 1's round ends (its last move, its score sheet, the next round's first
        # state), and table 2 has a state waiting too
        await out.deliver([table(1, 7, 3, said=("Alice played 6-6",)), sheet(1),
                           table(1, 8, 4, text="Table 1, round 2")], hold=True)
        await out.deliver([table(2, 5, 5, said=("Bob played 4-4",))])
        await out.drain()

    server = asyncio.run(with_outbox(tmp_path, body))
    first = next(i for i, c in enumerate(server.calls) if c.method == "editMessageMedia")
    writes = group_writes(server, first)
    assert [c.method for c in writes] == ["editMessageMedia"] * 2, writes  # no new message
    one = shown(server, 1)
    assert picture(server, one) == SHEET_PICTURE  # the round's end: the sheet's picture
    assert one["caption"].startswith(SHEET) and "Table 1, round 2" in one["caption"]
    assert {b["callback_data"].split(":")[1] for b in server.buttons(one)
            if "callback_data" in b} == {"8"}  # the latest state's buttons: they still work
    assert picture(server, shown(server, 2)) == BOARD[5]
    assert not server.refused and not server.over_limits
    assert len([m for m in server.chat(GROUP) if "photo" in m]) == 2  # the two tables


def test_the_next_edit_shows_the_next_round_board(tmp_path: Path) -> None:
    async def body(out: Outbox) -> None:
        await out.deliver([table(1, 3, 1), table(2, 3, 2)])
        await out.drain()
        await out.deliver([table(1, 7, 3), sheet(1), table(2, 5, 5)])
        await out.drain()
        assert picture(out_server[0], shown(out_server[0], 1)) == SHEET_PICTURE
        await out.deliver([table(1, 9, 4, text="Table 1, round 2, turn 9")])
        await out.drain()

    out_server: list[FakeBotApi] = []
    server = asyncio.run(with_outbox(tmp_path, body, out_server))
    one = shown(server, 1)
    assert picture(server, one) == BOARD[4] and one["caption"] == "Table 1, round 2, turn 9"
    assert not [m for m in server.chat(GROUP) if m.get("caption", "").startswith(SHEET)]
    assert not server.refused


def test_alone_in_its_group_the_score_sheet_keeps_its_own_message(tmp_path: Path) -> None:
    async def body(out: Outbox) -> None:
        await out.deliver([table(1, 3, 1)])
        await out.drain()
        await out.deliver([table(1, 7, 3), sheet(1)])
        await out.drain()

    server = asyncio.run(with_outbox(tmp_path, body))
    sheets = [m for m in server.chat(GROUP) if m.get("caption") == SHEET]
    assert len(sheets) == 1 and picture(server, sheets[0]) == SHEET_PICTURE
    one = shown(server, 1)
    assert picture(server, one) == BOARD[3] and SHEET not in one["caption"]
    assert not server.refused


def test_a_game_end_keeps_its_score_sheet_message(tmp_path: Path) -> None:
    """The game's result is its table message's last state: the sheet stays apart from it,
    other tables waiting or not."""
    async def body(out: Outbox) -> None:
        await out.deliver([table(1, 3, 1), table(2, 3, 2)])
        await out.drain()
        over = Message(CHANNEL, "Alice wins", kind="result", table=1, image=BOARD[3],
                       actions=(Action("Rematch", action_data(1, 9, "m")),))
        await out.deliver([over, sheet(1)], hold=True)
        await out.deliver([table(2, 5, 5)])
        await out.drain()

    server = asyncio.run(with_outbox(tmp_path, body))
    assert len([m for m in server.chat(GROUP) if m.get("caption") == SHEET]) == 1
    result = next(m for m in server.chat(GROUP) if m.get("caption") == "Alice wins")
    assert picture(server, result) == BOARD[3]


def test_a_joined_write_counts_once_in_the_round_of_the_tables() -> None:
    """The sheet waiting before its table message (queue order) joins it too, and the
    group's writes still go round the tables: 1 (sheet and table), 2, 3, then 1's turn line;
    a second sheet of table 1 is not folded into a write that already holds one."""
    async def main() -> list[tuple[int | None, str, str]]:
        written: list[tuple[int | None, str, str]] = []

        async def write(job: Job) -> None:
            written.append((job.m.table, job.m.kind, job.sheet.text if job.sheet else ""))
            await asyncio.sleep(0.001)

        queues = ChatQueues(Pace(group=10**6, gap=0, smooth=0), write)
        for m in (sheet(1), table(1, 7, 3), Message(CHANNEL, "1, your turn", kind="turn",
                                                    table=1),
                  table(2, 3, 2), table(3, 3, 1)):
            queues.put(Job(m))
        queues.start()
        await queues.drain()
        return written

    written = asyncio.run(main())
    assert written == [(1, "table", SHEET), (2, "table", ""), (3, "table", ""),
                       (1, "turn", "")], written


def test_with_sheet_puts_the_sheet_words_first_and_keeps_the_buttons() -> None:
    joined = with_sheet(table(1, 8, 4, text="Table 1, round 2"), sheet(1))
    assert joined.text == SHEET + "\n\nTable 1, round 2"
    assert joined.image == SHEET_PICTURE and joined.kind == "table" and joined.table == 1
    assert joined.actions == table(1, 8, 4).actions and joined.alt == SHEET
