"""The /web command in the chats (issue 30): Telegram sends the link privately, with a Mini
App button in the private chat when the web table is served over https."""

from __future__ import annotations

import re
from pathlib import Path

from bot.web.links import Links, publish
from bot.web.reply import table_url
from tests.test_telegram import ALICE, GROUP, Rig, run_rig


def test_telegram_web_sends_the_link_privately_with_a_mini_app_button(tmp_path: Path) -> None:
    async def body(rig: Rig) -> None:
        server = rig.server
        links = Links("a test link key of 32 characters", "https://domino.example")
        publish(rig.service, links)
        try:
            server.start_bot(ALICE)
            await rig.say(ALICE, GROUP, "/domino classic players=2 ai=1")
            await rig.say(ALICE, GROUP, "/web")
            private = [m for m in server.chat(ALICE.id) if "https://domino.example/t/" in
                       m.get("text", "")]
            assert private, server.chat(ALICE.id)
            token = private[-1]["text"].split("/t/")[1].split()[0]
            grant = links.check(token)
            assert grant is not None and grant.user == f"telegram:{ALICE.id}"
            assert not any("/t/" in m.get("text", "") for m in server.chat(GROUP))
            await rig.say(ALICE, ALICE.id, f"/web {grant.table}")
            apps = [b for m in server.chat(ALICE.id) for b in server.buttons(m) if "web_app" in b]
            assert apps and apps[-1]["web_app"]["url"] == (
                f"https://domino.example/tg?table={grant.table}")
            # the private hand message carries the Mini App too
            await rig.say(ALICE, ALICE.id, f"/hand {grant.table}")
            hands = [m for m in server.chat(ALICE.id) if "photo" in m]
            assert hands and any("web_app" in b for b in server.buttons(hands[-1]))
            # the table message in the group: a "Web" button, the spectators' link (no
            # personal link in a group), or the Mini App's startapp link when it is named
            webs = [b["url"] for m in server.chat(GROUP) for b in server.buttons(m)
                    if b.get("text") == "Web"]
            assert webs and links.check(webs[-1].split("/t/")[1]).user == ""
            links.telegram_app = "table"
            startapp = table_url(rig.service, "dominobot", 7)
            assert startapp is not None
            assert startapp.startswith("https://t.me/dominobot/table?startapp=")
            assert re.fullmatch(r"[A-Za-z0-9_-]{1,512}", startapp.split("=", 1)[1])  # Telegram's
            grant = links.check_compact(startapp.split("=", 1)[1])
            assert grant is not None and (grant.table, grant.user) == (7, "")
            links.base_url = "http://127.0.0.1:8080"  # Telegram wants https: no button
            assert table_url(rig.service, "dominobot", 7) is None
        finally:
            publish(rig.service, None)

    run_rig(tmp_path, body)



def test_discord_table_message_gets_a_web_link_button_over_https() -> None:
    import asyncio

    from bot.discord import views
    from bot.service.messages import Action, Message, action_data

    service = object()
    links = Links("a test link key of 32 characters", "https://domino.example")
    message = Message("discord:1", "board", kind="table", table=4,
                      actions=(Action("Stop", action_data(4, 3, "q")),))

    async def rows() -> list[list[dict[str, object]]]:
        view = views.view_for(message)
        assert view is not None
        return [row["components"] for row in view.to_components()]

    views.WEB_URL[:] = [lambda table: table_url(service, "", table)]  # type: ignore[arg-type]
    try:
        assert len(asyncio.run(rows())) == 1  # the web table is off: no button
        publish(service, links)
        last = asyncio.run(rows())[-1]
        assert last[0]["label"] == "Web"
        assert links.check(str(last[0]["url"]).split("/t/")[1]).user == ""  # spectators'
        private = Message("", "hand", to="discord:9", kind="hand", table=4,
                          actions=message.actions)
        view = views.view_for(private)
        assert view is not None and len(view.children) == 1
    finally:
        publish(service, None)
        views.WEB_URL.clear()
