"""The web page's state beyond the board (issue 36, docs/web-page.md): the player panels, the
timer, the move log, the result panel, the buttons and their actions, a puzzle's free
placement, sorted hands and the board in words; on the real server (a real socket, a real
SQLite file, the real Service)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from bot.service.words import board_alt
from core.tiles import Tile
from tests.service_helpers import ALICE, BOB, CHANNEL, SCOPE, run, table_id
from tests.web_helpers import Env, play_through_service, serving, state, whole_logs


async def open_table(env: Env, variant: str, options: str) -> int:
    tid = table_id(await env.service.open_table(ALICE, CHANNEL, SCOPE, variant,
                                                options=options))
    table = env.service.tables[tid]
    if table.game is None:
        await env.service.begin(ALICE, tid)
    return tid


def legal(payload: dict[str, Any]) -> list[str]:
    s = payload["state"]
    return [m["move"] for m in s["moves"]] + [b["move"] for b in s["buttons"]]


async def play_by_socket(ws: Any, moves: int = 400, pick: int = 0) -> list[dict[str, Any]]:
    """Alice plays her legal moves (`pick`: which one) until the game ends; every state."""
    seen: list[dict[str, Any]] = []
    played = -1
    await ws.send_json({"type": "hello", "version": 0})  # the current state, at once
    for _ in range(moves):
        s = await state(ws)
        if s["type"] != "state":
            continue
        seen.append(s)
        if s["state"]["over"]:
            return whole_logs(seen)
        if s["state"]["to_move"] == 0 and legal(s) and s["version"] != played:
            played = s["version"]
            options = legal(s)
            await ws.send_json({"type": "move", "move": options[pick % len(options)],
                                "version": s["version"]})
    raise AssertionError("the game did not end")


def test_a_line_game_has_panels_log_alt_and_sorted_hand(tmp_path: Path) -> None:
    async def body(env: Env) -> None:
        tid = await open_table(env, "classic", "players=2 ai=1 level=easy")
        ws = await env.socket(env.links.token(tid, ALICE.id))
        first = (await state(ws))["state"]
        assert first["family"] == "line" and first["variant"] == "classic"
        assert first["name"] == "Classic dominoes" and first["spectator"] is False
        game = env.service.tables[tid].game
        you, cpu = first["seats"]
        assert you["you"] and not cpu["you"] and you["name"] == "alice"
        assert cpu["ai"] == "easy" and you["ai"] is None and not you["away"]
        assert [you["count"], cpu["count"]] == game.view(None)["hand_sizes"]
        assert [you["turn"], cpu["turn"]] == [game.to_move == 0, game.to_move == 1]
        assert you["label"].startswith("alice (you), 7 tiles") or "tiles" in you["label"]
        assert "computer, easy" in cpu["label"]
        tiles = [h["tile"] for h in first["hand"]]
        keys = [tuple(sorted(map(int, x.split("-")), reverse=True)) for x in tiles]
        assert keys == sorted(keys, reverse=True)  # by suit, highest first
        assert first["timer"] is None and first["actions"] == [] and first["result"] is None
        states = await play_by_socket(ws)
        last = states[-1]["state"]
        moves = await env.service.store.moves(tid)
        log = last["log"]
        assert len(log) >= len(moves) // 2 and log[0]["n"] == len(log)
        assert any(e["seat"] == 0 and e["text"].startswith("alice plays ") for e in log)
        assert any(e["seat"] == 1 and " plays " in e["text"] for e in log)
        row = env.service.tables[tid].row if tid in env.service.tables else \
            await env.service.store.get_table(tid)
        names = [s.name for s in row.seats]
        mid = states[len(states) // 2]["state"]
        assert mid["alt"].startswith("The line: ") and "Last move: " in mid["alt"]
        assert last["result"]["key"] == "game" and last["result"]["wait"] is None
        assert last["result"]["lines"] and last["result"]["kind"] == "game"
        assert "<svg" in last["result"]["board_svg"]  # the panel covers the board: it has it
        shown = last["result"]["hands"]  # the line game's hands revealed at the end
        assert [h["seat"] for h in shown] == [0, 1] and shown[0]["name"] == "alice"
        assert sum(len(h["tiles"]) for h in shown) == sum(p["count"] for p in last["seats"])
        assert [a["action"] for a in last["actions"]] == ["rematch", "review"]
        assert last["alt"] == board_alt(env.service.tables[tid].game.view(None), names, "en") \
            if tid in env.service.tables else last["alt"]
    run(serving(tmp_path, body))


def test_a_spectator_page_says_so_in_french(tmp_path: Path) -> None:
    async def body(env: Env) -> None:
        tid = await open_table(env, "classic", "players=2 ai=1")
        ws = await env.http.ws_connect(f"{env.base}/ws?token={env.links.token(tid)}",
                                       headers={"Origin": env.origin,
                                                "Accept-Language": "fr-FR"})
        s = (await state(ws))["state"]
        assert s["spectator"] is True and s["actions"] == [] and s["hand"] == []
        assert not any(p["you"] for p in s["seats"])
        assert s["name"] == "Jeu de dominos classique"
        game = env.service.tables[tid].game
        await env.service.play(ALICE, tid, str(game.legal_moves()[0]), turn=game.turn)
        s = (await state(ws))["state"]
        assert s["log"] and " joue " in s["log"][-1]["text"]  # the chat's French words
        assert "Dernier coup : " in s["alt"]
        await ws.send_json({"type": "action", "action": "hint", "level": 1, "version": 1})
        error = await state(ws)
        assert error["type"] == "error" and "spectat" in error["text"].lower()
    run(serving(tmp_path, body))


def test_a_timer_counts_the_seat_to_move(tmp_path: Path) -> None:
    async def body(env: Env) -> None:
        tid = await open_table(env, "classic", "players=2 ai=1 timer=90")
        ws = await env.socket(env.links.token(tid, ALICE.id))
        s = (await state(ws))["state"]
        game = env.service.tables[tid].game
        assert game.to_move == 0  # the computer played at once if it led
        assert s["timer"]["seat"] == 0 and s["timer"]["total"] == 90
        assert 80 < s["timer"]["left"] <= 90
    run(serving(tmp_path, body))


def test_texas_42_shows_each_hand_end_with_made_or_set(tmp_path: Path) -> None:
    """A hand's end is in the state when the player is next asked to move (the computers
    have begun the next hand by then: their moves do not hide it)."""
    async def body(env: Env) -> None:
        tid = await open_table(env, "texas-42", "ai=3 target=2")
        ws = await env.socket(env.links.token(tid, ALICE.id))
        states = await play_by_socket(ws, 2000)
        ends = [s for s in states if s["state"]["result"]]
        hands = [s["state"]["result"] for s in ends if s["state"]["result"]["kind"] == "hand"]
        assert hands, "no hand's end was shown"
        first = hands[0]
        assert first["key"] == "r1" and first["wait"] == 8 and first["hands"] == []
        assert first["title"] == "Hand 1 is over."
        assert any(re.search(r"\b(made|set)\b", line) for line in first["lines"]), first
        assert "<svg" in first["board_svg"]
        assert "Trick 7: " in first["board_svg"]  # the last trick, taken (not "Trick 8 of 7")
        panel = ends[0]["state"]["seats"]
        assert [p["team"] for p in panel] == [0, 1, 0, 1]
        assert all(p["count"] is not None for p in panel)
        assert states[-1]["state"]["result"]["key"] == "game"
        hand = [h["tile"] for h in states[1]["state"]["hand"]]
        assert hand  # tricks: sorted (trumps first once named)
    run(serving(tmp_path, body))


def test_tower_vingt_memory_and_patience_have_panels_and_logs(tmp_path: Path) -> None:
    async def body(env: Env) -> None:
        for variant, options, family in (("tower", "players=2 ai=1", "stack"),
                                         ("vingt", "players=2 ai=1", "grid"),
                                         ("memory", "players=2 ai=1", "memory"),
                                         ("patience", "", "solitaire")):
            tid = await open_table(env, variant, options)
            ws = await env.socket(env.links.token(tid, ALICE.id))
            states = await play_by_socket(ws, 600)
            last = states[-1]["state"]
            assert last["family"] == family, variant
            assert len(last["seats"]) == (1 if family == "solitaire" else 2)
            assert last["log"] and last["log"][0]["n"] == len(last["log"]), variant
            assert last["result"]["key"] == "game", variant
            assert states[0]["state"]["alt"], variant
            if family == "solitaire":
                assert [a["action"] for a in states[0]["state"]["actions"]] == ["hint"]
            await ws.close()
    run(serving(tmp_path, body))


def test_a_puzzle_places_anywhere_hints_and_gives_up(tmp_path: Path) -> None:
    async def body(env: Env) -> None:
        tid = await open_table(env, "magic-square", "")
        ws = await env.socket(env.links.token(tid, ALICE.id))
        s = await state(ws)
        place = s["state"]["place"]
        assert len(place["tiles"]) == 28 and len(place["free"]) == 36
        assert place["pairs"]["A1"] == ["A2"]  # the square's cells pair in columns
        kinds = {a["action"]: a for a in s["state"]["actions"]}
        assert [lv["level"] for lv in kinds["hint"]["levels"]] == [1, 2, 3, 4]
        assert kinds["give-up"]["confirm"] == "Give up this puzzle?"
        cell = place["free"][-1]  # the last free cell (the legal list offers the first)
        move = f"6-5 {cell} {place['pairs'][cell][0]}"
        assert move not in legal(s)
        await ws.send_json({"type": "move", "move": move, "version": s["version"]})
        s = await state(ws)
        assert s["version"] == 1 and cell not in s["state"]["place"]["free"], s
        assert "6-5" not in s["state"]["place"]["tiles"]
        await ws.send_json({"type": "action", "action": "hint", "level": 1,
                            "version": s["version"]})
        got = [await state(ws), await state(ws)]
        hint = next(g for g in got if g["type"] == "hint")
        assert hint["text"].startswith("Hint: ")
        s = next(g for g in got if g["type"] == "state")
        await ws.send_json({"type": "action", "action": "give-up", "version": s["version"]})
        s = await state(ws)
        assert s["state"]["over"] and s["state"]["result"]["key"] == "game"
        assert "place" not in s["state"] or s["state"]["place"] is None
    run(serving(tmp_path, body))


def test_actions_refused_where_they_do_not_belong(tmp_path: Path) -> None:
    async def body(env: Env) -> None:
        tid = await open_table(env, "classic", "players=2 ai=1")
        ws = await env.socket(env.links.token(tid, ALICE.id))
        s = await state(ws)
        for msg, words in (({"action": "hint", "version": s["version"]}, "Hints are off"),
                           ({"action": "rematch"}, "Only a finished game"),
                           ({"action": "give-up", "version": s["version"]}, "Not allowed"),
                           ({"action": "explode"}, "not understood"),
                           ({"action": "hint"}, "not understood")):
            await ws.send_json({"type": "action", **msg})
            got = await state(ws)
            assert got["type"] == "error" and words in got["text"], (msg, got)
        other = await env.socket(env.links.token(tid, BOB.id))  # Bob does not sit there
        await state(other)
        await other.send_json({"type": "action", "action": "give-up", "version": 0})
        got = await state(other)
        assert got["type"] == "error" and "not played here" in got["text"]
        assert env.service.tables[tid].game.turn == s["version"]  # nothing changed
    run(serving(tmp_path, body))


def test_a_rematch_sends_the_page_to_the_new_table(tmp_path: Path) -> None:
    async def body(env: Env) -> None:
        tid = await open_table(env, "classic", "players=2 ai=1")
        await play_through_service(env, tid)
        ws = await env.socket(env.links.token(tid, ALICE.id))
        assert (await state(ws))["state"]["over"]
        await ws.send_json({"type": "action", "action": "rematch"})
        got = await state(ws)
        assert got["type"] == "goto" and got["url"].startswith("/t/"), got
        async with env.http.get(env.base + got["url"]) as r:
            assert r.status == 200
        fresh = max(env.service.tables)
        assert fresh != tid and env.service.tables[fresh].seat_of(ALICE.id) == 0
        await ws.send_json({"type": "action", "action": "rematch"})
        again = await state(ws)
        assert again["type"] == "error" and "already on" in again["text"]
    run(serving(tmp_path, body))


def test_the_local_home_page_and_its_start(tmp_path: Path) -> None:
    from core import variants

    async def body(env: Env) -> None:
        async with env.http.get(env.base + "/") as r:
            assert r.status == 200
            page = await r.text()
        for slug in variants.names():
            assert f'data-variant="{slug}"' in page
        assert "<script>" not in page and "/static/home.js" in page
        api = env.base + "/api/local/start"
        head = {"Origin": env.origin}
        before = set(env.service.tables)
        for body_, words in (({"variant": "nope"}, "no game named"),
                             ({"variant": "classic", "players": 9}, "2 to 5 players"),
                             ({"variant": "classic", "players": "x"}, "players"),
                             ({"variant": "patience", "players": 1, "level": "expert"},
                              "level"),
                             ({"variant": "classic", "level": "godlike"}, "level")):
            async with env.http.post(api, json=body_, headers=head) as r:
                assert r.status == 400, body_
                assert words in (await r.json())["error"], body_
        async with env.http.post(api, data="not json", headers=head) as r:
            assert r.status == 400
        async with env.http.post(api, json={"variant": "classic"}) as r:  # no Origin
            assert r.status == 403
        assert set(env.service.tables) == before  # nothing was opened
        async with env.http.post(api, json={"variant": "matador", "players": 3,
                                            "level": "easy"}, headers=head) as r:
            assert r.status == 200
            url = (await r.json())["url"]
        tid = max(env.service.tables)
        row = env.service.tables[tid].row
        assert row.variant == "matador" and row.players == 3 and row.status == "playing"
        assert [s.ai for s in row.seats] == [None, "easy", "easy"]
        async with env.http.get(env.base + url) as r:
            assert r.status == 200
        ws = await env.socket(url.rsplit("/", 1)[1])
        s = await state(ws)
        assert s["state"]["seat"] == 0 and s["table"] == tid
        async with env.http.get(env.base + "/", headers={"Accept-Language": "fr"}) as r:
            page = await r.text()
            assert url in page  # the table under way
        async with env.http.post(api, json={"variant": "magic-square"}, headers=head) as r:
            assert r.status == 200  # a one-seat game: no computer
        async with env.http.post(api, json={"variant": "classic"}, headers=head) as r:
            assert r.status == 200  # the third game against the computer
        opened = set(env.service.tables)
        async with env.http.post(api, json={"variant": "classic"}, headers=head) as r:
            assert r.status == 400  # the Service's own limit
            assert "You already play 3 games against the computer" in (await r.json())["error"]
        assert set(env.service.tables) == opened
    run(serving(tmp_path, body, local_user=lambda: ALICE))


def test_no_home_page_outside_the_local_mode_and_a_favicon_everywhere(tmp_path: Path) -> None:
    async def body(env: Env) -> None:
        async with env.http.get(env.base + "/") as r:
            assert r.status == 404
        async with env.http.post(env.base + "/api/local/start", json={"variant": "classic"},
                                 headers={"Origin": env.origin}) as r:
            assert r.status == 404
        assert not env.service.tables
        async with env.http.get(env.base + "/favicon.ico") as r:
            assert r.status == 200 and r.content_type == "image/png"
            assert (await r.read()).startswith(b"\x89PNG")
    run(serving(tmp_path, body))


def test_the_finished_game_page_says_who_played(tmp_path: Path) -> None:
    async def body(env: Env) -> None:
        tid = await open_table(env, "classic", "players=2 ai=1")
        await play_through_service(env, tid)
        moves = await env.service.store.moves(tid)
        path = env.links.game_path(tid)
        async with env.http.get(f"{env.base}{path}?step=1") as r:
            page = await r.text()
        first = Tile.parse(moves[0].split()[0])
        assert re.search(rf"Move 1 of {len(moves)}: (alice|CPU 1) plays {first}", page), page
        assert "/static/game.css" in page
    run(serving(tmp_path, body))


def test_a_lobby_has_its_panels_and_nothing_else(tmp_path: Path) -> None:
    async def body(env: Env) -> None:
        tid = table_id(await env.service.open_table(ALICE, CHANNEL, SCOPE, "classic",
                                                    options="players=3 ai=1"))
        ws = await env.socket(env.links.token(tid, ALICE.id))
        s = (await state(ws))["state"]
        assert s["family"] == "line" and s["spectator"] is False and s["log"] == []
        assert [p["you"] for p in s["seats"]] == [True, False, False]
        assert s["seats"][2]["ai"] == "normal" and s["result"] is None and s["actions"] == []
    run(serving(tmp_path, body))


def test_a_hint_where_the_table_allows_it(tmp_path: Path) -> None:
    async def body(env: Env) -> None:
        tid = await open_table(env, "classic", "players=2 ai=1 hints=on")
        ws = await env.socket(env.links.token(tid, ALICE.id))
        s = await state(ws)
        assert [a["action"] for a in s["state"]["actions"]] == ["hint"]
        assert "levels" not in s["state"]["actions"][0]
        await ws.send_json({"type": "action", "action": "hint", "version": s["version"]})
        got = await state(ws, timeout=20)
        assert got["type"] == "hint" and got["text"].startswith("Hint: the expert would play")
        tid = await open_table(env, "patience", "")
        ws = await env.socket(env.links.token(tid, ALICE.id))
        s = await state(ws)
        await ws.send_json({"type": "action", "action": "hint", "version": s["version"]})
        got = await state(ws, timeout=20)
        assert got["type"] == "hint" and got["text"].startswith(("Hint: remove", "No hint"))
        await ws.send_json({"type": "action", "action": "give-up", "version": s["version"]})
        got = await state(ws)
        assert got["type"] == "error"  # patience has no giving up: the core's refusal
    run(serving(tmp_path, body))


def test_the_log_comes_by_parts_and_whole_on_hello_and_on_a_new_socket(tmp_path: Path) -> None:
    async def body(env: Env) -> None:
        tid = await open_table(env, "classic", "players=2 ai=1 level=easy")
        token = env.links.token(tid, ALICE.id)
        ws = await env.socket(token)
        raw: list[dict[str, Any]] = []
        played = -1
        while len(raw) < 8:
            s = await state(ws)
            raw.append(json.loads(json.dumps(s)))  # as sent (whole_logs changes them)
            if s["state"]["over"]:
                break
            if s["state"]["to_move"] == 0 and legal(s) and s["version"] != played:
                played = s["version"]
                await ws.send_json({"type": "move", "move": legal(s)[0],
                                    "version": s["version"]})
        while True:  # what is still on its way
            try:
                raw.append(await state(ws, timeout=0.3))
            except TimeoutError:
                break
        first, later = raw[0]["state"], [s["state"] for s in raw[1:]]
        assert first["log_from"] == 0 and later
        assert all(s["log_from"] > 0 for s in later)  # the entries after those it has
        assert all(e["n"] > s["log_from"] for s in later for e in s["log"])
        assert max(len(s["log"]) for s in later) < len(whole_logs(raw)[-1]["state"]["log"])
        whole = raw[-1]["state"]["log"]
        assert [e["n"] for e in whole] == list(range(len(whole), 0, -1))
        other = await env.socket(token)  # a reload: the whole log
        fresh = (await state(other))["state"]
        assert fresh["log_from"] == 0 and fresh["log"] == whole
        await ws.send_json({"type": "hello", "version": raw[-1]["version"]})
        again = (await state(ws))["state"]
        assert again["log_from"] == 0 and again["log"] == whole
    run(serving(tmp_path, body))


def test_the_movers_page_gets_its_state_before_the_chat_words_are_made(tmp_path: Path) -> None:
    async def body(env: Env) -> None:
        tid = await open_table(env, "classic", "players=2 ai=1")
        ws = await env.socket(env.links.token(tid, ALICE.id))
        spectator = await env.socket(env.links.token(tid))
        first = await state(ws)
        await state(spectator)
        order: list[str] = []
        words = env.service._table_messages

        def written(w: Any) -> None:  # each socket's state, when it is written out
            send = w.ws.send_str

            async def sent(text: str, *args: Any, **kw: Any) -> None:
                order.append("spectator" if w.grant.spectator else "mover")
                await send(text, *args, **kw)
            w.ws.send_str = sent

        def said(*args: Any, **kw: Any) -> Any:
            order.append("chat")
            return words(*args, **kw)

        for w in env.web.watchers[tid]:
            written(w)
        env.service._table_messages = said  # type: ignore[method-assign]
        assert first["state"]["to_move"] == 0
        await ws.send_json({"type": "move", "move": legal(first)[0],
                            "version": first["version"]})
        got = await state(ws)
        assert got["version"] == first["version"] + 1
        await state(spectator)
        # the mover's state left before the chat's messages were made, the others' after
        assert order[:2] == ["mover", "chat"] and "spectator" in order[2:], order
    run(serving(tmp_path, body))
