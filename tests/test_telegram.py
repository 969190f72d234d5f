"""The Telegram adapter, offline: the real python-telegram-bot Application long-polls a fake
Bot API server on 127.0.0.1 (tests/fake_telegram.py), with a real Service on a SQLite file."""

from __future__ import annotations

import asyncio
import copy
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from telegram.ext import AIORateLimiter

from bot.app import Router
from bot.i18n import t
from bot.service.messages import Message
from bot.service.service import Service
from bot.storage import Store
from bot.telegram.adapter import TelegramBot, run_telegram
from bot.telegram.format import MAX_TEXT
from bot.telegram.out import Pace
from tests.fake_telegram import TOKEN, FakeBotApi, Limits, TgUser

GROUP = -100500
ALICE = TgUser(1001, "Alice")
BOB = TgUser(1002, "Bob", "fr")
CAROL = TgUser(1003, "Carol")
DAVE = TgUser(1004, "Dave")
RULES = Path(__file__).resolve().parent.parent / "docs" / "rules"


@dataclass
class Rig:
    """A fake server, a store on `db`, a service and the running bot."""

    server: FakeBotApi
    db: Path
    limits: Limits | None = None  # the server's flood limits, which the bot's limiter keeps
    ai_delay: float = 0.0  # above 0: computers play from the service's tick loop, as in the bot
    clock: Callable[[], float] = time.time  # the service's
    store: Store | None = None
    service: Service | None = None
    bot: TelegramBot | None = None
    errors: list[BaseException] = field(default_factory=list)
    _stop: asyncio.Event | None = None
    _task: asyncio.Task[None] | None = None
    _ticker: asyncio.Task[None] | None = None

    async def up(self) -> None:
        """Open the database, the service, and a new PTB Application polling the server."""
        await self.server.reopen()
        self.store = await Store.open(self.db)
        self.service = Service(self.store, ai_delay=self.ai_delay, seed=3, default_timer=None,
                               clock=self.clock)
        router = Router(expect=("telegram",))
        reprompts = await self.service.start()
        limiter = AIORateLimiter(overall_max_rate=0, group_max_rate=0)
        if self.limits is not None:
            limiter = AIORateLimiter(overall_max_rate=30, overall_time_period=1,
                                     group_max_rate=self.limits.group,
                                     group_time_period=self.limits.window, max_retries=5)
        pace = Pace(self.limits.group, self.limits.window, self.limits.gap,
                    self.limits.overall, self.limits.gap) if self.limits else Pace(10**6, 60, 0)
        self.bot = TelegramBot(self.service, TOKEN, self.server.base_url, poll_timeout=5,
                               rate_limiter=limiter, pace=pace)

        async def record(update: object, context: Any) -> None:
            self.errors.append(context.error)

        self.bot.app.add_error_handler(record)
        self._stop = asyncio.Event()
        self._task = asyncio.create_task(self.bot.run(router, self._stop))
        await asyncio.wait_for(self.bot.ready.wait(), 15)
        await router.deliver(reprompts)
        await self.drain()
        if self.ai_delay > 0:
            self._ticker = asyncio.create_task(self.service.run(router.deliver,
                                                                interval=self.ai_delay / 4))

    async def down(self) -> None:
        assert self._stop is not None and self._task is not None and self.store is not None
        if self._ticker is not None:
            self._ticker.cancel()
            await asyncio.gather(self._ticker, return_exceptions=True)
            self._ticker = None
        await self.server.release()
        self._stop.set()
        await asyncio.wait_for(self._task, 15)
        await self.store.close()
        assert not self.errors, self.errors

    # -- acting as users ------------------------------------------------------------------

    async def say(self, user: TgUser, chat: int, text: str, thread: int | None = None
                  ) -> None:
        """Type a command and wait until the bot has handled it."""
        await self.server.command(user, chat, text, thread)
        await self.sync(user)

    async def sync(self, user: TgUser) -> None:
        """Updates are handled in order: once a later button press is answered, the bot is
        done with everything before it."""
        marker = await self.server.press(user, self.server.chat(GROUP)[0] if self.server.chat(
            GROUP) else _dummy(user), "sync")
        await self.server.answered(marker)
        await self.drain()

    async def drain(self) -> None:
        """Wait for the group writes queued in the background (`Outbox.drain`)."""
        assert self.bot is not None and self.bot.outbox is not None
        await asyncio.wait_for(self.bot.outbox.drain(), 30)

    async def press(self, user: TgUser, message: dict[str, Any], data: str) -> dict[str, Any]:
        """Press a button; the parameters of its answerCallbackQuery."""
        query = await self.server.press(user, message, data)
        answer = (await self.server.answered(query)).params
        await self.sync(user)  # the press handled, its queued writes done
        return answer

    async def play(self, user: TgUser, hand: dict[str, Any], data: str) -> dict[str, Any]:
        """Press a tile of `hand`; for a tile that fits both ends, the hand message then
        offers the two ends: press the first."""
        answer = await self.press(user, hand, data)
        if data.split(":")[2] != "e" or answer.get("show_alert"):
            return answer
        hand = self.server.messages[user.id][hand["message_id"]]
        ends = [d for d in data_of(self.server, hand) if d.split(":")[2] == "p"]
        assert len(ends) == 2, hand
        return await self.press(user, hand, ends[0])

    async def open_with_bob(self, options: str) -> dict[str, Any]:
        """Alice opens a table in the group, Bob joins; both have the private chat open."""
        self.server.start_bot(ALICE)
        self.server.start_bot(BOB)
        await self.say(ALICE, GROUP, f"/domino classic {options}")
        lobby = table_message(self.server)
        answer = await self.press(BOB, lobby, button(self.server, lobby, "j"))
        assert not answer.get("show_alert")
        return self.server.messages[GROUP][lobby["message_id"]]


def _dummy(user: TgUser) -> dict[str, Any]:
    return {"message_id": 1, "date": 0, "chat": {"id": user.id, "type": "private"}}


def run_rig(tmp_path: Path, body: Callable[[Rig], Awaitable[None]],
            limits: Limits | None = None, ai_delay: float = 0.0,
            clock: Callable[[], float] = time.time) -> None:
    async def main() -> None:
        server = FakeBotApi(limits=limits)
        await server.start()
        rig = Rig(server, tmp_path / "domino.sqlite", limits, ai_delay, clock=clock)
        try:
            await rig.up()
            try:
                await body(rig)
            finally:
                await rig.down()
        finally:
            await server.close()

    asyncio.run(main())


# -- finders ---------------------------------------------------------------------------------

def photos(server: FakeBotApi, chat: int) -> list[dict[str, Any]]:
    return [m for m in server.chat(chat) if "photo" in m]


def data_of(server: FakeBotApi, message: dict[str, Any]) -> list[str]:
    return [b["callback_data"] for b in server.buttons(message) if "callback_data" in b]


def button(server: FakeBotApi, message: dict[str, Any], verb: str) -> str:
    return next(d for d in data_of(server, message) if d.split(":")[2] == verb)


def table_message(server: FakeBotApi, chat: int = GROUP) -> dict[str, Any]:
    """The group's table message: the one with the lobby or game buttons."""
    found = [m for m in server.chat(chat) if any(
        d.split(":")[2] in "jsmq" for d in data_of(server, m))]
    assert found, server.chat(chat)
    return found[-1]


def hand_of_any(server: FakeBotApi, user: TgUser) -> dict[str, Any]:
    """The user's last hand message (a picture), with or without buttons."""
    return [m for m in server.chat(user.id) if "photo" in m][-1]


def hand_of(server: FakeBotApi, user: TgUser) -> dict[str, Any] | None:
    found = [m for m in server.chat(user.id) if any(
        d.split(":")[2] in "pedx" for d in data_of(server, m))]
    return found[-1] if found else None


def playable(server: FakeBotApi, hand: dict[str, Any]) -> str | None:
    """A button of the hand that plays now: a marked tile, or draw / pass."""
    for b in server.buttons(hand):
        verb = b["callback_data"].split(":")[2]
        if b["text"].startswith("✅") or verb in "dx":
            return str(b["callback_data"])
    return None


# -- the smoke test ---------------------------------------------------------------------------

def test_polls_and_answers_a_command(tmp_path: Path) -> None:
    async def body(rig: Rig) -> None:
        server = rig.server
        assert any(c.params.get("language_code") == "fr" for c in server.called("setMyCommands"))
        english = next(c for c in server.called("setMyCommands")
                       if "language_code" not in c.params)
        assert {c["command"] for c in english.params["commands"]} >= {
            "domino", "join", "leave", "begin", "hand", "play", "stop", "rematch", "rules",
            "top", "stats", "history", "settings"}
        await rig.say(ALICE, GROUP, "/domino classic hand=4")
        lobby = table_message(server)
        assert "Alice" in lobby["text"]
        assert {d.split(":")[2] for d in data_of(server, lobby)} >= {"j", "s", "a", "l"}
        # a bad command: the error is private; Alice has no private chat yet, so the group
        # only gets the link to it
        await rig.say(ALICE, GROUP, "/domino nosuchgame")
        reply = server.chat(GROUP)[-1]
        assert reply["from"]["is_bot"] and "nosuchgame" not in reply["text"]
        assert "https://t.me/domino_test_bot" in reply["text"]
        server.start_bot(ALICE)
        await rig.say(ALICE, GROUP, "/domino nosuchgame")
        assert server.chat(GROUP)[-1]["text"] == "/domino nosuchgame"
        assert "nosuchgame" in server.chat(ALICE.id)[-1]["text"]

    run_rig(tmp_path, body)


# -- a whole game in a group -------------------------------------------------------------------

async def play_out(rig: Rig, players: list[TgUser], table: dict[str, Any]) -> int:
    """Whoever holds a playable hand presses it until the table shows Rematch; the presses."""
    server = rig.server
    for presses in range(120):
        if any(d.split(":")[2] == "m" for d in data_of(server, table)):
            return presses
        mover = next((u for u in players if (h := hand_of(server, u)) and playable(server, h)),
                     None)
        assert mover is not None, "nobody can play and the game is not over"
        hand = hand_of(server, mover)
        assert hand is not None
        data = playable(server, hand)
        assert data is not None
        calls = len(server.calls)
        answer = await rig.play(mover, hand, data)
        assert not answer.get("show_alert"), answer
        check_group_budget(server.calls[calls:], mover)
        table = server.messages[GROUP][table["message_id"]]
    raise AssertionError("the game did not end")


def check_group_budget(calls: list[Any], presser: TgUser) -> None:
    """What one press (a move and the computer moves after it) costs in the group, against
    Telegram's flood limit: the table message edited in place (one picture upload), and the
    table's one turn line (text and a mention, no picture) edited when it names another
    player (sent the first time, deleted at the game's end).  A round's end adds its score
    sheet (one picture with its caption)."""
    group = [c for c in calls if _int_or_none(c.params.get("chat_id")) == GROUP]
    sheets = [c for c in group if str(c.params.get("caption", "")).startswith(
        ("Score sheet", "Feuille de marque"))]
    assert len(sheets) <= 1, [c.method for c in group]
    group = [c for c in group if c not in sheets]
    edits = [c for c in group if c.method.startswith("edit")]
    sent = [c for c in group if c.method.startswith("send")]
    gone = [c for c in group if c.method == "deleteMessage"]
    assert len(group) <= 2 and len(group) == len(edits) + len(sent) + len(gone), [
        c.method for c in group]
    assert not gone or any(d.endswith(":m") for c in edits for row in c.params.get(
        "reply_markup", {}).get("inline_keyboard", []) for d in (
        b.get("callback_data", "") for b in row))
    assert len([c for c in group if c.files]) <= 1, [c.method for c in group]
    assert not [c for c in sent if c.files]
    assert len(sent) <= 1 and not [c for c in group if f"id={presser.id}\"" in str(
        c.params.get("text", ""))]


def _int_or_none(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def test_group_game_two_humans_and_a_computer(tmp_path: Path) -> None:
    async def body(rig: Rig) -> None:
        server = rig.server
        lobby = await rig.open_with_bob("players=3 hand=5")  # the lobby edited, not re-sent
        assert "Bob" in lobby["text"] and "Alice" in lobby["text"]
        rows = lobby["reply_markup"]["inline_keyboard"]  # five buttons: two rows on a phone,
        assert len(rows) == 3 and all(len(r) <= 3 for r in rows)  # then the computer levels
        await rig.press(ALICE, lobby, button(server, lobby, "a"))
        assert "CPU" in server.messages[GROUP][lobby["message_id"]]["text"]
        await rig.press(ALICE, lobby, button(server, lobby, "s"))
        # the lobby text made way for ONE table message with the board picture
        assert lobby["message_id"] not in server.messages[GROUP]
        table = table_message(server)
        assert "photo" in table and len(photos(server, GROUP)) == 1
        hand_link = next(b for b in server.buttons(table) if "url" in b)
        assert hand_link["url"].startswith("https://t.me/domino_test_bot?start=t")
        early = {u.id: copy.deepcopy(hand_of(server, u)) for u in (ALICE, BOB)}
        presses = await play_out(rig, [ALICE, BOB], table)
        assert presses >= 2
        for user in (ALICE, BOB):  # every hand shows the end, with nothing left to press
            hand = hand_of_any(server, user)
            assert not data_of(server, hand) and hand.get("caption", "").endswith(
                ("is over.", "est terminée."))
        old_hand = early[ALICE.id]
        assert old_hand is not None and data_of(server, old_hand)
        answer = await rig.press(ALICE, old_hand, data_of(server, old_hand)[0])
        assert answer["text"].endswith("is over.")
        table = server.messages[GROUP][table["message_id"]]
        sheets = [m for m in photos(server, GROUP)
                  if m.get("caption", "").startswith("Score sheet")]
        assert sheets  # every round's end: its final board and score sheet
        assert len(photos(server, GROUP)) == 1 + len(sheets)  # the table: edited all along
        assert server.called("editMessageMedia")
        assert all(c.files for c in server.called("sendPhoto"))  # pictures go as multipart
        # hands went to the private chats only: no tile button, no hand picture in the group
        for m in server.chat(GROUP):
            assert not any(d.split(":")[2] in "ped" for d in data_of(server, m))
        hand_uploads = [c for c in server.called("sendPhoto") if int(c.params["chat_id"]) > 0]
        assert {int(c.params["chat_id"]) for c in hand_uploads} <= {ALICE.id, BOB.id}
        for user in (ALICE, BOB):  # one hand message per player, edited while others play;
            assert len(photos(server, user.id)) == 1  # a new one (the old one deleted)...
            later = [c for c in hand_uploads if int(c.params["chat_id"]) == user.id][1:]
            assert all(any(b["text"].startswith("✅") or b["callback_data"].split(":")[2] in "dx"
                           for row in c.params["reply_markup"]["inline_keyboard"] for b in row)
                       for c in later)  # ...only when the player must act: it notifies them
        # every callback query was answered exactly once
        queries = [c.params["callback_query_id"] for c in server.called("answerCallbackQuery")]
        assert len(queries) == len(set(queries))
        png = server.photos[table["photo"][0]["file_id"]]
        (tmp_path / "table.png").write_bytes(png)
        assert png.startswith(b"\x89PNG")

        await rig.say(ALICE, GROUP, "/top")
        top = server.chat(GROUP)[-1]["text"]
        assert "Alice" in top and "Bob" in top and "CPU" not in top
        await rig.say(BOB, GROUP, "/stats")
        assert "classique" in server.chat(BOB.id)[-1]["text"].lower()  # in French, privately

    run_rig(tmp_path, body)


# -- the private chat: deep link, a user who never started the bot, refused presses ------------

def test_deep_link_private_hand_and_refused_presses(tmp_path: Path) -> None:
    async def body(rig: Rig) -> None:
        server = rig.server
        await rig.say(CAROL, GROUP, "/domino classic hand=4")
        lobby = table_message(server)
        await rig.press(CAROL, lobby, button(server, lobby, "a"))
        # Carol never opened the private chat: starting deals her hand (the computer
        # plays first or she does), which cannot reach her; she is told in an alert
        answer = await rig.press(CAROL, lobby, button(server, lobby, "s"))
        table = table_message(server)
        link = next(b["url"] for b in server.buttons(table) if "url" in b)
        assert answer["show_alert"] is True and link in answer["text"]
        assert answer["url"] == link  # the answer opens the private chat itself
        assert not server.chat(CAROL.id)
        assert not any(d.split(":")[2] in "ped" for m in server.chat(GROUP)
                       for d in data_of(server, m))
        # she follows the deep link: /start t<table> in the private chat shows her hand
        payload = link.split("?start=")[1]
        await rig.say(CAROL, CAROL.id, f"/start {payload}")
        hand = hand_of(server, CAROL)
        assert hand is not None and "photo" in hand
        (tmp_path / "hand.png").write_bytes(server.photos[hand["photo"][0]["file_id"]])
        data = playable(server, hand)
        assert data is not None
        caption_before = table["caption"]
        answer = await rig.play(CAROL, hand, data)
        assert not answer.get("show_alert"), answer
        # the same hand message and the same table message were edited
        assert hand_of(server, CAROL)["message_id"] == hand["message_id"]  # type: ignore[index]
        table = server.messages[GROUP][table["message_id"]]
        assert table["caption"] != caption_before
        edits = len(server.called("editMessageMedia"))
        # the old button again: refused (earlier turn), nothing changes
        answer = await rig.press(CAROL, hand, data)
        assert answer["show_alert"] is True
        assert answer["text"] == t("en", "This button is from an earlier turn; the game has "
                                   "moved on.")
        assert server.messages[GROUP][table["message_id"]]["caption"] == table["caption"]
        # someone who is not at the table presses its Stop button: refused, game goes on
        answer = await rig.press(DAVE, table, button(server, table, "q"))
        assert answer["show_alert"] is True
        assert answer["text"] == t("en", "You are not playing at this table.")
        assert any(d.split(":")[2] == "q" for d in data_of(server, table_message(server)))
        assert len([c for c in server.called("editMessageMedia")
                    if int(c.params["chat_id"]) == GROUP]) <= edits
        # a move typed with /play that is not allowed: a clear answer, the game unchanged
        await rig.say(CAROL, GROUP, "/play 9-9")
        assert server.chat(GROUP)[-1]["text"] == "/play 9-9"  # legal moves are private
        assert "9-9" in server.chat(CAROL.id)[-1]["text"]
        assert server.messages[GROUP][table["message_id"]]["caption"] == table["caption"]
        # /hand typed in the group by a player without a private chat: a link, no hand
        server.started.discard(CAROL.id)
        await rig.say(CAROL, GROUP, "/hand")
        reply = server.chat(GROUP)[-1]
        assert link in reply["text"] and "photo" not in reply

    run_rig(tmp_path, body)


# -- a restart in the middle of a game ------------------------------------------------------------

def test_restart_keeps_the_messages_and_old_buttons_work(tmp_path: Path) -> None:
    async def body(rig: Rig) -> None:
        server = rig.server
        lobby = await rig.open_with_bob("hand=6")
        await rig.press(ALICE, lobby, button(server, lobby, "s"))
        table = table_message(server)
        mover = next(u for u in (ALICE, BOB) if (h := hand_of(server, u)) and playable(server, h))
        hand = hand_of(server, mover)
        assert hand is not None
        uploads = len(server.called("sendPhoto"))
        calls = len(server.calls)

        await rig.down()  # the process stops...
        await rig.up()  # ...and a new one starts on the same database file
        # the re-prompt edited the kept messages instead of sending new pictures
        assert len(server.called("sendPhoto")) == uploads
        assert any(c.method == "editMessageMedia" and c.params["chat_id"] == str(mover.id)
                   and c.params["message_id"] == str(hand["message_id"])
                   for c in server.calls[calls:])
        assert photos(server, GROUP) == [server.messages[GROUP][table["message_id"]]]
        assert hand_of(server, mover)["message_id"] == hand["message_id"]  # type: ignore[index]
        data = playable(server, hand)  # a button of the message shown before the restart
        assert data is not None
        answer = await rig.play(mover, hand, data)
        assert not answer.get("show_alert"), answer
        other = BOB if mover == ALICE else ALICE
        assert playable(server, hand_of(server, other)) is not None  # type: ignore[arg-type]
        assert photos(server, GROUP) == [server.messages[GROUP][table["message_id"]]]

    run_rig(tmp_path, body)


# -- forum topics and group settings ------------------------------------------------------------

def test_forum_topic_and_admin_settings(tmp_path: Path) -> None:
    async def body(rig: Rig) -> None:
        server = rig.server
        server.forums.add(GROUP)
        server.admins[GROUP] = {ALICE.id}
        await rig.say(BOB, GROUP, "/domino classic", thread=42)
        lobby = table_message(server)
        assert lobby["message_thread_id"] == 42
        assert server.called("sendMessage")[-1].params["message_thread_id"] == "42"
        server.start_bot(BOB)
        await rig.say(BOB, GROUP, "/settings lang fr")
        assert server.chat(BOB.id)[-1]["text"] == t("fr", "Only server managers can change "
                                                    "settings.")
        await rig.say(ALICE, GROUP, "/settings lang fr")
        assert rig.store is not None
        assert await rig.store.get_setting(f"telegram:{GROUP}", "lang") == "fr"

    run_rig(tmp_path, body)


# -- run_telegram, as bot/app.py runs it ------------------------------------------------------

def test_run_telegram_registers_with_the_router_and_stops_when_cancelled(tmp_path: Path) -> None:
    async def main() -> None:
        server = FakeBotApi()
        await server.start()
        store = await Store.open(tmp_path / "domino.sqlite")
        try:
            router = Router(expect=("telegram",))
            await router.deliver([Message(f"telegram:{GROUP}", "held until the bot is up")])
            service = Service(store, ai_delay=0)
            task = asyncio.create_task(run_telegram(service, router, TOKEN, server.base_url,
                                                    poll_timeout=5))
            await server.wait_until(lambda: server.chat(GROUP))
            assert server.chat(GROUP)[0]["text"] == "held until the bot is up"
            assert "telegram" in router.prefixes
            task.cancel()  # how bot/app.py stops the adapters
            done, _ = await asyncio.wait([task], timeout=15)
            assert done and task.cancelled()
            assert "telegram" not in router.prefixes
        finally:
            await store.close()
            await server.close()

    asyncio.run(main())


# -- a long rules page ------------------------------------------------------------------------

class TagCheck(HTMLParser):
    """Telegram HTML: only its tags, each closed in the same message."""

    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        assert tag in ("b", "i", "code", "pre", "a"), tag
        self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        assert self.open and self.open.pop() == tag, tag


def test_rules_come_as_a_summary_then_each_section_as_html(tmp_path: Path) -> None:
    page = max(RULES.glob("*.md"), key=lambda p: len(p.read_text(encoding="utf-8")))

    async def body(rig: Rig) -> None:
        server = rig.server
        before = len(server.called("sendMessage"))
        await rig.say(ALICE, ALICE.id, f"/rules {page.stem}")
        sent = [c.params for c in server.called("sendMessage")[before:]]
        assert len(sent) == 1 and len(sent[0]["text"]) < 1200  # a short summary...
        summary = server.chat(ALICE.id)[-1]
        labels = [b["text"] for b in server.buttons(summary)]
        english = page.read_text(encoding="utf-8").split("\n## ")[1]
        headings = [h.split("\n", 1)[0] for h in english.split("\n### ")[1:]]
        assert labels[0] == "How to play" and "Sources" not in labels  # ...and
        assert labels[1:3] == [h for h in headings if h != "Sources"][:2]
        sections = data_of(server, summary)  # the page's sections as buttons
        for data in sections:
            before = len(server.called("sendMessage"))
            await rig.press(ALICE, summary, data)
            pieces = [c.params for c in server.called("sendMessage")[before:]]
            assert pieces and all(p.get("parse_mode") == "HTML" for p in pieces)
            for piece in (p["text"] for p in pieces):
                assert len(piece) <= MAX_TEXT and "**" not in piece and "`" not in piece
                assert "|" not in piece and "shared/" not in piece and ".txt" not in piece
                check = TagCheck()
                check.feed(piece)
                check.close()
                assert not check.open, piece[-200:]
        assert "<b>" in pieces[0]["text"]

    run_rig(tmp_path, body)


def test_a_player_whose_hand_cannot_be_sent_is_told_at_once(tmp_path: Path) -> None:
    async def body(rig: Rig) -> None:
        server = rig.server
        server.start_bot(ALICE)
        await rig.say(ALICE, GROUP, "/domino classic players=2")
        lobby = table_message(server)
        await rig.press(BOB, lobby, button(server, lobby, "j"))  # Bob never opened the chat
        await rig.press(ALICE, lobby, button(server, lobby, "s"))

        def told_bob() -> list[dict[str, Any]]:
            return [m for m in server.chat(GROUP) if "Bob" in m.get("text", "")
                    and "private chat" in m.get("text", "")]

        # Bob's hand goes out in his private chat's own queue: the group hears of its
        # failure once that send is refused, which may come after the press's answer
        await server.wait_until(told_bob)
        await rig.drain()
        told = told_bob()
        assert len(told) == 1, [m.get("text") for m in server.chat(GROUP)]
        (link,) = [b["url"] for b in server.buttons(told[0]) if "url" in b]
        assert link.startswith("https://t.me/domino_test_bot?start=t")

    run_rig(tmp_path, body)


async def press_now(rig: Rig, user: TgUser, hand: dict[str, Any], data: str) -> float:
    """Press a tile (and the first end when asked which); the seconds until answered."""
    server = rig.server
    start = time.monotonic()
    await server.answered(await server.press(user, hand, data))
    took = time.monotonic() - start
    if data.split(":")[2] == "e":
        def two_ends() -> list[str] | None:
            shown = server.messages[user.id][hand["message_id"]]
            ends = [d for d in data_of(server, shown) if ":p:" in d]
            return ends if len(ends) == 2 else None

        ends = await server.wait_until(two_ends)
        start = time.monotonic()
        await server.answered(await server.press(user, hand, ends[0]))
        took = max(took, time.monotonic() - start)
        data = ends[0]
    # the hand is edited after the answer (it waits its turn in the private chat)
    await server.wait_until(lambda: data not in data_of(
        server, server.messages[user.id][hand["message_id"]]))
    return took


def test_presses_are_answered_at_once_while_the_group_is_at_its_write_limit(
        tmp_path: Path) -> None:
    # a group allowed 8 writes per 3 s (one a second in a chat, 0.05 s here): a quick game
    # keeps it at its limit
    limits = Limits(group=8, scale=0.05)

    async def body(rig: Rig) -> None:
        server = rig.server
        table = await rig.open_with_bob("players=2 draw=block")
        await rig.press(ALICE, table, button(server, table, "s"))
        latencies: list[float] = []
        begun = time.monotonic()
        def movable() -> TgUser | bool | None:
            return table_over(server) or next(
                (u for u in (ALICE, BOB) if (h := hand_of(server, u)) and playable(server, h)),
                None)

        for _ in range(40):
            mover = await server.wait_until(movable, 10)
            if mover is True:
                break
            assert isinstance(mover, TgUser)
            hand = hand_of(server, mover)
            assert hand is not None
            latencies.append(await press_now(rig, mover, hand, playable(server, hand) or ""))
        played = time.monotonic() - begun
        # the moves wanted more group writes than the limit lets through meanwhile...
        assert 2 * len(latencies) > limits.group * (1 + played / limits.window)
        # ...yet every press was answered within a second
        assert not server.refused, "the outbox keeps the limits: no write is refused"
        assert max(latencies) < 1.0, latencies
        await rig.drain()  # the group catches up: the table shows the end of the game
        assert table_over(server)

    run_rig(tmp_path, body, limits)


def table_over(server: FakeBotApi) -> bool:
    return any(d.split(":")[2] == "m" for m in server.chat(GROUP) for d in data_of(server, m))


def test_the_stop_question_loses_its_button_once_answered(tmp_path: Path) -> None:
    async def body(rig: Rig) -> None:
        server = rig.server
        server.start_bot(ALICE)
        await rig.say(ALICE, GROUP, "/domino memory players=2")
        await rig.press(ALICE, table_message(server), button(server, table_message(server), "a"))
        await rig.press(ALICE, table_message(server), button(server, table_message(server), "s"))
        table = table_message(server)
        await rig.press(ALICE, table, button(server, table, "q"))
        question = server.chat(ALICE.id)[-1]
        assert "cannot be resumed" in question["text"]
        yes = button(server, question, "q")
        assert yes.endswith(":yes")
        assert rig.service is not None and len(rig.service.tables) == 1
        await rig.press(ALICE, question, yes)
        assert not rig.service.tables  # stopped
        assert not server.buttons(server.messages[ALICE.id][question["message_id"]]), \
            "'Yes, stop' stayed after the stop"

    run_rig(tmp_path, body)
