"""Discord components from the service's actions: rows, pages of big hands, custom ids,
text limits and mentions (real discord.ui objects, no network)."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.discord.views import (
    PageButton,
    PressButton,
    chunks,
    content_for,
    mentions_for,
    view_for,
)
from bot.service.messages import Action, Message, action_data


def hand(tiles: int, extra: tuple[str, ...] = ("d",)) -> Message:
    actions = [Action(f"{i // 10}-{i % 10}", action_data(7, 3, "p", f"{i // 10}-{i % 10}"),
                      row=i // 5) for i in range(tiles)]
    actions += [Action(verb.upper(), action_data(7, 3, verb), row=tiles // 5 + 1)
                for verb in extra]
    return Message("discord:1", "hand", to="discord:2", kind="hand", table=7,
                   actions=tuple(actions))


def rows_of(message: Message, page: int = 0) -> list[list[dict[str, Any]]]:
    async def build() -> list[list[dict[str, Any]]]:
        view = view_for(message, page)
        assert view is not None
        return [row["components"] for row in view.to_components()]
    return asyncio.run(build())


def test_lobby_buttons_share_one_row() -> None:
    lobby = Message("discord:1", "lobby", kind="table", table=4, actions=tuple(
        Action(label, action_data(4, 0, verb)) for label, verb in
        (("Join", "j"), ("Start", "s"), ("Add computer", "a"), ("Leave", "l"))))
    (row,) = rows_of(lobby)
    assert [b["label"] for b in row] == ["Join", "Start", "Add computer", "Leave"]
    assert [b["custom_id"] for b in row] == ["dom:4:0:j", "dom:4:0:s", "dom:4:0:a", "dom:4:0:l"]


def test_twenty_tiles_fit_and_twenty_three_page() -> None:
    rows = rows_of(hand(20))
    assert len(rows) == 5 and [b["label"] for b in rows[-1]] == ["D"]
    first = rows_of(hand(23))
    second = rows_of(hand(23), page=1)
    for rows in (first, second):
        ids = [b["custom_id"] for row in rows for b in row]
        assert len(rows) <= 5 and all(len(row) <= 5 for row in rows)
        assert len(ids) == len(set(ids)) <= 25
    assert sum(len(r) for r in first[:-1]) == 20
    assert [b["label"] for b in first[-1]] == ["D", "2/2 ▶"]
    assert first[-1][-1]["custom_id"] == "domhp:7:3:1"
    assert [b["label"] for b in second[0]] == ["2-0", "2-1", "2-2"]
    assert [b["label"] for b in second[-1]] == ["D", "◀ 1/2"]
    assert rows_of(hand(23), page=9) == second, "a page past the end shows the last one"


def test_custom_ids_are_recognised_by_the_templates() -> None:
    press = PressButton.__discord_ui_compiled_template__
    data = action_data(12, 7, "p", "6-4 left")
    match = press.fullmatch("dom:" + data)
    assert match and match["data"] == data
    assert press.fullmatch("dom:12:x:p") is None and press.fullmatch("other:12:7:p") is None
    page = PageButton.__discord_ui_compiled_template__.fullmatch("domhp:12:7:2")
    assert page and (page["table"], page["page"]) == ("12", "2")


def test_long_text_is_cut_at_line_ends_and_mentions_only_ping_users() -> None:
    text = "\n".join(f"line {i} " + "x" * 50 for i in range(100))
    pieces = chunks(text)
    assert len(pieces) > 1 and all(len(p) <= 2000 for p in pieces)
    assert "\n".join(pieces) == text
    turn = Message("discord:1", "alice, your turn.", kind="turn",
                   mention=("discord:55", "telegram:9"), named="alice")
    assert content_for(turn) == "<@55>, your turn."  # the mention shows the name: once
    assert content_for(Message("discord:1", "Look.", mention=("discord:55",))) == "<@55> Look."
    allowed = mentions_for(turn).to_dict()
    assert allowed["users"] == [55] and allowed["parse"] == []
