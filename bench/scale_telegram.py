"""The fake Telegram of bench/scale.py (`--platform telegram`): the bot processes deliver what
the service answers through the Telegram adapter's own outbox (bot/telegram/out.py: its
queues, its pacing, the write budget the processes share through PostgreSQL) to ONE fake Bot
API server (tests/fake_telegram.py), run by the bench's parent process in a thread, which
enforces Telegram's flood limits across every process (one token) with its minute and second
scaled by `--limits-scale` so that they bind in a short run.

Each table's player (one Telegram user, their private chat opened) waits, after each press,
until their private chat has a new or edited message (their hand: what a player waits for
before the next move) or `HAND_WAIT` seconds; the press latency is that wait. The tables are
spread over `--groups` Telegram groups. The server's record gives the writes per committed
move, the private chats' share of them, and the writes it refused (429).

The platform's bound the model of docs/deploy.md adds for N processes: the bot's writes a
second in all (one token, whatever the processes: Telegram's 30, of which the bot's shared
pacing takes 27, bot/telegram/pacing.py) over the writes a move costs, and each private chat's
one write a second over its writes per move.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from telegram import Bot
from telegram.request import HTTPXRequest

from bot.service.service import Service, User
from bot.telegram.ids import channel_of, user_id
from bot.telegram.out import Outbox
from bot.telegram.pacing import MARGIN, Pace

ROOT = Path(__file__).resolve().parent.parent
FIRST_USER = 5000  # table i's player is the Telegram user FIRST_USER + i
FIRST_GROUP = -1001000  # group k is the chat FIRST_GROUP - k
HAND_WAIT = 10.0  # seconds a player waits for their hand before pressing anyway (counted)
WRITES = ("send", "edit", "delete")


def limits(scale: float) -> Any:
    """The fake server's limits (Telegram's, the minute and the second times `scale`; 0:
    none, the delivery's cost alone)."""
    from tests.fake_telegram import Limits

    return Limits(scale=scale) if scale > 0 else None


def _counting_server(scale: float) -> Any:
    """The fake server, noting which limit each refused write broke (chat, group, overall)."""
    from tests.fake_telegram import FakeBotApi

    class Counting(FakeBotApi):
        def __init__(self) -> None:
            super().__init__(limits=limits(scale))
            self.reasons: Counter[str] = Counter()

        def _flood_wait(self, method: str, p: dict[str, Any]) -> int | None:
            lim, why = self.limits, []
            if lim is not None and method.lower().startswith(WRITES) and "chat_id" in p:
                chat, now = int(p["chat_id"]), time.monotonic()
                times = [x for x in self._writes.get(chat, []) if now - x < lim.window]
                why = ["chat"] if times and now - times[-1] < lim.gap else []
                why += ["group"] if chat < 0 and len(times) >= lim.group else []
                if len([x for x in self._all if now - x < lim.gap]) >= lim.overall:
                    why.append("overall")
            wait = super()._flood_wait(method, p)
            if wait is not None:
                self.reasons.update(why)
            return wait

    return Counting()


class FakeTelegram:
    """The fake Bot API server, served from a thread of the bench's parent process, for one
    column's run (a fresh server: fresh flood counters)."""

    def __init__(self, scale: float, tables: int) -> None:
        from tests.fake_telegram import TgUser

        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.server = _counting_server(scale)
        self._call(self.server.start())
        for i in range(tables):  # every player opened their private chat with the bot
            self.server.start_bot(TgUser(FIRST_USER + i, f"player{i}"))
        self._mark = (0, 0)

    def _call(self, coroutine: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(30)

    @property
    def url(self) -> str:
        return self.server.base_url

    def mark(self) -> None:
        """The run starts now: count the calls from here."""
        self._mark = (len(self.server.calls), len(self.server.refused))

    def counts(self) -> dict[str, int]:
        """Writes accepted since `mark` (all, and in the private chats) and refused (429)."""
        calls = self.server.calls[self._mark[0]:]
        refused = self.server.refused[self._mark[1]:]
        failed = {id(c) for c, _ in self.server.failed}
        writes = [c for c in calls if c.method.lower().startswith(WRITES)
                  and id(c) not in failed and all(c is not r for r in refused)]
        private = [c for c in writes if int(c.params.get("chat_id", 0)) > 0]
        return {"writes": len(writes), "private": len(private), "refused": len(refused),
                "refused_private": len([c for c in refused
                                        if int(c.params.get("chat_id", 0)) > 0]),
                "failed": len(failed), **{f"refused_{k}": n
                                          for k, n in self.server.reasons.items()}}

    def close(self) -> None:
        self._call(self.server.close())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


class Watched:
    """The outbox's paced bot, telling `written` the chat of each send or edit done."""

    def __init__(self, bot: Any, written: Callable[[int], None]) -> None:
        self._bot = bot
        self._written = written

    def __getattr__(self, name: str) -> Any:
        call = getattr(self._bot, name)
        if not name.startswith(("send_", "edit_")):
            return call

        async def watched(*args: Any, **kw: Any) -> Any:
            result = await call(*args, **kw)
            self._written(int(kw.get("chat_id", args[0] if args else 0)))
            return result

        return watched


class TelegramPlayers:
    """One bot process's side: its outbox to the fake server, and the `drive` of bench/scale.py
    that plays a table through it."""

    def __init__(self, store: Any, url: str, scale: float) -> None:
        self.store = store
        self.url = url
        self.pace = (Pace(window=60.0 * scale, gap=1.0 * scale, second=1.0 * scale) if scale > 0
                     else Pace(group=10**9, gap=0.0, overall=0, smooth=0))  # no limits
        self.bot = Bot("777:TEST-TOKEN", base_url=url,
                       request=HTTPXRequest(connection_pool_size=64, pool_timeout=30))
        self.outbox: Outbox | None = None
        self.hands: dict[int, asyncio.Event] = {}
        self.waited_out = 0

    async def start(self) -> None:
        await self.bot.initialize()
        outbox = Outbox(self.bot, self.store, self.bot.username, self.pace)
        outbox.bot = Watched(outbox.bot, self._written)
        outbox.calls.bot = outbox.bot
        self.outbox = outbox

    async def close(self) -> None:
        if self.outbox is not None:
            await self.outbox.close(timeout=2)
        await self.bot.shutdown()

    def _written(self, chat: int) -> None:
        if chat in self.hands:
            self.hands[chat].set()

    async def shown(self, tg: int, messages: list[Any]) -> None:
        """Deliver `messages` and wait until the player's private chat was written."""
        assert self.outbox is not None
        event = self.hands.setdefault(tg, asyncio.Event())
        event.clear()
        await self.outbox.deliver(messages)
        try:
            await asyncio.wait_for(event.wait(), HAND_WAIT)
        except TimeoutError:
            self.waited_out += 1

    async def drive(self, service: Service, i: int, args: Any, counts: Any,
                    latencies: list[float] | None = None) -> None:
        """Table i as bench/service.py's `drive` plays it (the same presses), each answer
        delivered to Telegram and the next press made once the player's hand is shown."""
        from service import next_press  # bench/service.py

        tg = FIRST_USER + i
        user = User(user_id(tg), f"player{i}")
        channel = channel_of(FIRST_GROUP - i % args.groups)
        out = await service.open_table(user, channel, channel, args.variant,
                                       players=args.players, ai=args.players - 1, timer=0,
                                       options=args.options)
        await self.shown(tg, out)
        presses = 0
        while presses < args.presses or any(m.kind == "result" for m in out):
            data = next_press(out, user.id)
            if data is None:
                counts.errors.append("no button to press: " + " | ".join(m.text for m in out))
                return
            pressed = time.perf_counter()
            out = await service.press(user, data)
            await self.shown(tg, out)
            if latencies is not None:
                latencies.append(time.perf_counter() - pressed)
            counts.errors += [m.text for m in out if m.kind == "error"]
            if data.split(":")[2] in ("p", "d", "x"):
                presses += 1
        counts.presses += presses


def platform_bound(one: dict[str, Any], scale: float, tables: int) -> float:
    """Moves a second the fake Telegram allows, from the writes per move of the one-process
    column: 27 writes a (scaled) second in all (Telegram's 30, less the shared pacing's
    margin), one write a (scaled) second in each player's private chat."""
    if not one.get("writes") or scale <= 0:
        return float("inf")
    overall = 30 / MARGIN / scale / (one["writes"] / one["moves"])
    private = (tables / scale / (one["private"] / one["moves"]) if one.get("private")
               else float("inf"))
    return min(overall, private)
