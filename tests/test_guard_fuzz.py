"""Fuzzing the service's door (issue 11): commands and presses from many users, servers,
platforms and channels never change a table of another channel, and no command, whatever
its text or button data, lets an exception escape.  Seeded and derandomized: CI sees the
same runs every time."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.service.guard import Where, may_act
from bot.service.limits import Limits
from bot.service.messages import Message
from bot.service.pictures import NoPictures
from bot.service.service import Service, User
from bot.storage import Store
from core import variants
from tests.service_helpers import Clock, hand_message

PLATFORMS = ("discord", "telegram", "console")
SLUGS = variants.names()
ARABIC = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")
WIDE = str.maketrans("0123456789", "０１２３４５６７８９")
VERBS = "jlarshmqepdx"
COMMANDS = ("join", "leave", "add_ai", "remove_ai", "begin", "hand", "stop", "rematch",
            "export", "play", "press")


def rows_of(path: Path, table: int) -> list[Any]:
    """Every stored row about one table (the table, its seats, moves, game and players)."""
    with sqlite3.connect(path) as db:
        out: list[Any] = list(db.execute("SELECT * FROM tables WHERE id = ?", (table,)))
        for name in ("seats", "moves", "games", "game_players", "adapter_state"):
            out += list(db.execute(f"SELECT * FROM {name} WHERE table_id = ?", (table,)))
        return out


def places(rng: random.Random) -> list[tuple[str, str]]:
    """(channel, scope) of several servers and groups of every platform."""
    out = []
    for platform in PLATFORMS:
        for server in range(3):
            for channel in range(2):
                out.append((f"{platform}:{server}{channel}", f"{platform}:s{server}"))
    rng.shuffle(out)
    return out


def test_nothing_from_outside_a_tables_channel_changes_it(tmp_path: Path) -> None:
    rng = random.Random(11)
    db = tmp_path / "fuzz.sqlite"
    where = places(rng)
    users = [User(f"{p}:{i}", f"{p}{i}", rng.choice(("fr", "en", None)))
             for p in PLATFORMS for i in range(5)]

    async def body() -> int:
        store = await Store.open(db)
        service = Service(store, pictures=NoPictures(), ai_delay=0, clock=Clock(), seed=3,
                          limits=Limits(tables_per_channel=4, tables_per_user=6))
        refused = 0
        try:
            for step in range(700):
                user = rng.choice(users)
                channel, scope = rng.choice(where)
                private = rng.random() < 0.2
                at = Where(f"{user.id.split(':')[0]}:dm{user.id}" if private else channel,
                           scope, private)
                live = list(service.tables)
                if rng.random() < 0.08 or not live:
                    slug = rng.choice(SLUGS)  # every family, with computers and humans
                    lo, hi = variants.get(slug).describe()["players"]
                    n = rng.randint(lo, hi)
                    ai = rng.randint(0, n - 1)
                    await service.open_table(user, at.channel, at.scope, slug,
                                             options=f"players={n} ai={ai}", where=at)
                    continue
                stored = [r[0] for r in await store.link.fetch("SELECT id FROM tables")]
                tid = rng.choice(live + stored)
                row = service.tables[tid].row if tid in service.tables else \
                    await store.get_table(tid)
                assert row is not None
                if rng.random() < 0.5:  # act from the table's own channel, to move things on
                    at = Where(row.channel, row.scope)
                    seated = [s.user_id for s in row.seats if s.user_id and s.ai is None]
                    if seated and rng.random() < 0.7:
                        pick = rng.choice(seated)  # once: a seated user of the table
                        user = next((u for u in users if u.id == pick), user)
                outsider = not may_act(row, user.id, at)
                before = rows_of(db, tid) if outsider else None
                out = await act(service, user, tid, at, rng)
                assert all(isinstance(m, Message) for m in out)
                if outsider:
                    refused += 1
                    assert rows_of(db, tid) == before, (step, user, at, row.channel)
                    assert all(m.to == user.id for m in out)  # nothing said in public
        finally:
            await store.close()
        return refused

    assert asyncio.run(body()) > 150


async def act(service: Service, user: User, tid: int, at: Where, rng: random.Random
              ) -> list[Message]:
    """One command or press on table `tid` by `user` from `at`."""
    table = service.tables.get(tid)
    game = table.game if table else None
    turn = game.turn if game is not None else rng.randrange(3)
    name = rng.choice(COMMANDS)
    if name == "play" or (name == "press" and rng.random() < 0.5):
        hand = hand_message(await service.hand(user, tid, where=at), user)
        enabled = [a.data for a in hand.actions if a.enabled] if hand else []
        if enabled:
            return await service.press(user, rng.choice(enabled), where=at)
        text = str(rng.choice(game.legal_moves())) if game is not None else "6-6"
        return await service.play(user, tid, text, turn=turn, where=at)
    if name == "press":
        verb = rng.choice(VERBS)
        arg = ":6-6" if verb in "pe" else ""
        return await service.press(user, f"{spelt(tid, rng)}:{spelt(turn, rng)}:{verb}{arg}",
                                   where=at)
    call: Callable[..., Any] = getattr(service, name)
    return await call(user, tid, where=at)  # type: ignore[no-any-return]


def spelt(n: int, rng: random.Random) -> str:
    """`n` as a button carries it, or forged: Unicode digits, padded with zeros (issue 26)."""
    return rng.choice((str(n), str(n), str(n).translate(ARABIC), str(n).translate(WIDE),
                       "0" + str(n), "0" * 19 + str(n), "0" * 30 + str(n)))


# -- nothing escapes: every command with arbitrary text and payloads ---------------------------

PROPERTY = settings(max_examples=80, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.function_scoped_fixture])

TEXT = st.one_of(st.text(max_size=40), st.from_regex(r"#?[0-9²٣]{0,25}", fullmatch=True),
                 st.sampled_from(["give 6-4", "6-4 left", "draw", "pass", "9" * 30, "", " ",
                                  "classic", "all-fives", "cross", "sebastopol", "lang", "timer",
                                  str(2**63), "-1", "0"]))
NUMBER = st.one_of(st.integers(min_value=-(2**70), max_value=2**70), TEXT)
FORGED = st.builds(lambda n, pad, form: ("0" * pad + str(n)).translate(form),
                   st.integers(0, 4), st.integers(0, 25),
                   st.sampled_from([{}, ARABIC, WIDE]))  # the live tables' numbers, forged
NUMBER = st.one_of(NUMBER, FORGED)
PAYLOAD = st.one_of(st.text(max_size=80), st.builds(
    lambda t, n, v, a: f"{t}:{n}:{v}{a}", NUMBER.map(str), NUMBER.map(str),
    st.sampled_from([*VERBS, "zz", ""]),
    st.one_of(st.just(""), TEXT.map(lambda x: ":" + x))))
WHERE = st.one_of(st.none(), st.builds(Where, st.sampled_from(["test:chan", "test:x", "", "a:b"]),
                                       st.sampled_from(["test:server", ""]), st.booleans()))


def test_no_command_lets_anything_escape(tmp_path: Path) -> None:
    loop = asyncio.new_event_loop()
    store = loop.run_until_complete(Store.open(tmp_path / "prop.sqlite"))
    service = Service(store, pictures=NoPictures(), ai_delay=0, seed=5)
    alice, bob = User("test:alice", "alice"), User("test:bob", "bob", "fr")
    loop.run_until_complete(service.open_table(alice, "test:chan", "test:server", "classic",
                                               options="players=2"))
    loop.run_until_complete(service.open_table(alice, "test:chan", "test:server", "cross",
                                               options="ai=3"))
    loop.run_until_complete(service.open_table(bob, "test:chan", "test:server", "all-fives",
                                               options="ai=1"))

    @PROPERTY
    @given(command=st.sampled_from((*COMMANDS, "open_table", "rules", "leaderboard", "stats",
                                    "history", "set_setting", "season_leaderboard",
                                    "set_pings")),
           table=NUMBER, text=TEXT, other=TEXT, payload=PAYLOAD, where=WHERE,
           name=st.text(max_size=300), who=st.sampled_from(["alice", "bob", "x"]))
    def check(command: str, table: Any, text: str, other: str, payload: str,
              where: Where | None, name: str, who: str) -> None:
        user = User(f"test:{who}", name or who, "fr" if who == "bob" else None)
        calls: dict[str, Callable[[], Any]] = {
            "press": lambda: service.press(user, payload, where=where),
            "play": lambda: service.play(user, table, text, where=where),
            "open_table": lambda: service.open_table(user, "test:chan", "test:server", text,
                                                     options=other, where=where),
            "rules": lambda: service.rules(user, text, where=where),
            "leaderboard": lambda: service.leaderboard(user, "test:chan", "test:server",
                                                       text or None, where=where),
            "season_leaderboard": lambda: service.season_leaderboard(
                user, "test:chan", "test:server", text, other or None, where=where),
            "stats": lambda: service.stats(user, "test:chan", text or None, where=where),
            "history": lambda: service.history(user, "test:chan", text or None, where=where),
            "set_setting": lambda: service.set_setting(user, "test:server", text, other,
                                                       who == "alice", where=where),
            "set_pings": lambda: service.set_pings(user, text, where=where),
        }
        call = calls.get(command) or (lambda: getattr(service, command)(user, table,
                                                                         where=where))
        out = loop.run_until_complete(call())
        assert isinstance(out, list) and all(isinstance(m, Message) for m in out)
        assert all(len(m.text) <= 4096 for m in out)
        loop.run_until_complete(service.tick())

    try:
        check()
    finally:
        loop.run_until_complete(store.close())
        loop.close()
