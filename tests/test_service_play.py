"""The service on a real SQLite file: the lobby, private hands, choosing an end, several
tables, spectators, ratings, export and replay, deadlines across a restart, real pictures."""

from __future__ import annotations

import asyncio
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

import render
from bot import cli
from bot.service.pictures import Pictures
from bot.service.service import Service, User
from core import variants
from tests.service_helpers import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    SCOPE,
    Clock,
    classic_table,
    errors,
    hand_message,
    open_classic,
    play_to_the_end,
    press_a_legal_tile,
    run,
    started_table,
    table_id,
    with_service,
)

DAVE = User("test:dave", "dave")


def deal(service: Service, tid: int, hands: list[list[str]], stock: list[str]) -> None:
    """Give a started table (no move yet) a known deal instead of its shuffled one."""
    table = service.tables[tid]
    assert table.game.turn == 0
    table.game = variants.get(table.row.variant).new(
        players=table.row.players, seed=table.row.seed, deal={"hands": hands, "stock": stock},
        **table.row.options)


def test_the_lobby_host_computers_and_leaving(tmp_path: Path) -> None:
    async def body(service: Service) -> None:
        tid = await open_classic(service, "players=4")
        await service.join(BOB, tid)
        assert "déjà à cette table" in errors(await service.join(BOB, tid))[0]  # bob: French
        # only the host starts before every seat is taken, and manages computer seats
        assert "Seul l'hôte peut lancer" in errors(await service.begin(BOB, tid))[0]
        assert "Seul l'hôte" in errors(await service.add_ai(BOB, tid))[0]
        assert "not at this table" in errors(await service.begin(CAROL, tid))[0]
        lobby = (await service.add_ai(ALICE, tid))[-1]
        assert "CPU 1" in lobby.text
        await service.add_ai(ALICE, tid)
        assert "This table is full" in errors(await service.join(CAROL, tid))[0]
        assert "full" in errors(await service.add_ai(ALICE, tid))[0]
        await service.remove_ai(ALICE, tid)
        lobby = (await service.join(CAROL, tid))[-1]
        assert "carol" in lobby.text and "CPU 2" not in lobby.text
        # the host leaves: the next human hosts; a full table may be started by anyone
        assert "host" not in (await service.leave(ALICE, tid))[-1].text.split("bob")[0]
        assert service.tables[tid].row.host == BOB.id
        await service.join(DAVE, tid)
        started = await service.begin(CAROL, tid)
        assert not errors(started) and service.tables[tid].row.status == "playing"
        assert "already" in errors(await service.join(CAROL, tid))[0]  # she sits there
        left = await service.leave(BOB, tid)  # a game under way: a computer takes the seat
        assert not errors(left) and "computer player takes the seat" in left[0].text
        assert service.tables[tid].row.seats[1].ai == "greedy"
        back = await service.join(BOB, tid)  # and joining again gives it back
        assert not errors(back) and service.tables[tid].row.seats[1].ai is None
        stored = await service.store.get_table(tid)
        assert [(s.user_id, s.ai) for s in stored.seats] == [
            (DAVE.id, None), (BOB.id, None), (None, "greedy"), (CAROL.id, None)]

    run(with_service(tmp_path / "db.sqlite", body))


def test_the_last_player_to_leave_closes_the_lobby(tmp_path: Path) -> None:
    async def body(service: Service) -> None:
        tid = await open_classic(service)
        closed = await service.leave(ALICE, tid)
        assert "closed" in closed[0].text and tid not in service.tables
        assert (await service.store.get_table(tid)).status == "stopped"
        assert "no open table" in errors(await service.join(CAROL, tid))[0]

    run(with_service(tmp_path / "db.sqlite", body))


def test_every_human_gets_an_updated_hand_after_each_move(tmp_path: Path) -> None:
    async def body(service: Service) -> None:
        tid = await open_classic(service, "players=3 draw=block")
        await service.join(BOB, tid)
        started = await service.join(CAROL, tid)
        started = await service.begin(ALICE, tid)
        table = service.tables[tid]
        users = {table.seat_of(u.id): u for u in (ALICE, BOB, CAROL)}
        replies = started
        for _ in range(6):
            game = table.game
            if game.over:
                break
            for seat, user in users.items():
                hand = hand_message(replies, user)
                assert hand is not None and hand.to == user.id and hand.channel == CHANNEL
                view = game.view(seat)
                assert [a.label for a in hand.actions if a.row < 5] == view["hand"]
                enabled = {a.data.split(":", 3)[-1] for a in hand.actions if a.enabled}
                assert enabled == {m if " " not in m or not _both(view, m) else m.split()[0]
                                   for m in view.get("legal", [])}
                assert all(a.data.startswith(f"{tid}:{game.turn}:") for a in hand.actions)
            turn = [m for m in replies if m.kind == "turn"]
            mover = users[game.to_move]
            assert turn[-1].mention == (mover.id,) and mover.name in turn[-1].text
            replies = await press_a_legal_tile(service, tid, mover)

    run(with_service(tmp_path / "db.sqlite", body))


def _both(view: dict[str, Any], move: str) -> bool:
    """Does the tile of `move` have more than one legal placement?"""
    tile = move.split()[0]
    return sum(1 for m in view["legal"] if m.split()[0] == tile) > 1


def test_a_tile_that_fits_both_ends_asks_which_end(tmp_path: Path) -> None:
    async def body(service: Service) -> None:
        tid = await started_table(service, ALICE, (BOB,), "players=2")
        deal(service, tid, [["6-6", "1-4", "0-0"], ["6-1", "6-4", "2-2"]],
             ["3-3", "4-2", "5-5", "2-3"])
        await service.play(ALICE, tid, "6-6")
        await service.play(BOB, tid, "6-1")
        replies = await service.play(ALICE, tid, "1-4")
        hand = hand_message(replies, BOB)
        assert hand is not None
        six_four = next(a for a in hand.actions if a.label == "6-4")
        assert six_four.enabled and six_four.data == f"{tid}:3:e:6-4"
        assert not next(a for a in hand.actions if a.label == "2-2").enabled
        # a disabled tile pressed anyway is refused and changes nothing
        bad = next(a for a in hand.actions if a.label == "2-2").data
        assert "Coup refusé" in errors(await service.press(BOB, bad))[0]  # bob reads French
        ends = await service.press(BOB, six_four.data)
        assert ends[0].kind == "hand" and ends[0].to == BOB.id
        # bob reads French in private, whatever the table's language
        assert [a.label for a in ends[0].actions] == ["6-4 à gauche", "6-4 à droite"]
        # a waiting player pressing a tile is told whose turn it is, not "earlier turn"
        assert errors(await service.press(ALICE, six_four.data)) == ["It is bob's turn, not "
                                                                     "yours."]
        assert "tour précédent" in errors(await service.press(BOB, f"{tid}:2:e:6-4"))[0]
        await service.press(BOB, ends[0].actions[1].data)
        assert service.tables[tid].game.view(None)["ends"] == [4, 4]
        assert "6-4 right" in (await service.store.moves(tid))[-1]
        # the other end button is now stale: bob waits, and is told whose turn it is
        assert "au tour de alice" in errors(await service.press(BOB, ends[0].actions[0].data))[0]

    run(with_service(tmp_path / "db.sqlite", body))


def test_several_tables_per_channel_and_channels_per_player(tmp_path: Path) -> None:
    async def body(service: Service) -> None:
        one = await open_classic(service, "ai=1")
        two = table_id(await service.open_table(BOB, CHANNEL, SCOPE, "tete-a-tete"))
        three = table_id(await service.open_table(ALICE, "test:other", SCOPE, "classic",
                                                  options="ai=1"))
        assert len({one, two, three}) == 3
        joined = await service.join(ALICE, two)
        assert all(m.table == two for m in joined)
        await service.begin(BOB, two)
        before = {tid: service.tables[tid].game.turn for tid in (one, two, three)}
        replies = await press_a_legal_tile(service, one, ALICE)
        assert {m.table for m in replies} == {one}
        assert all(m.channel == CHANNEL for m in replies)
        assert service.tables[three].game.turn == before[three]
        assert service.tables[two].game.turn == before[two]
        assert service.tables[one].game.turn > before[one]

    run(with_service(tmp_path / "db.sqlite", body))


def test_a_spectator_can_do_nothing_and_gets_nothing_private(tmp_path: Path) -> None:
    async def body(service: Service) -> None:
        replies = await service.open_table(ALICE, CHANNEL, SCOPE, "classic",
                                           options="players=2")
        tid = table_id(replies)
        replies += await service.join(BOB, tid)
        replies += await service.begin(ALICE, tid)
        table = service.tables[tid]
        data = [a.data for m in replies for a in m.actions]
        turn = table.game.turn
        for d in data:
            got = await service.press(CAROL, d)
            assert all(m.kind == "error" and m.to == CAROL.id for m in got), (d, got)
        assert errors(await service.hand(CAROL, tid))
        assert errors(await service.play(CAROL, tid, "6-6"))
        assert errors(await service.stop(CAROL, tid))
        assert table.game.turn == turn and tid in service.tables
        assert {m.to for m in replies if m.private} == {ALICE.id, BOB.id}

    run(with_service(tmp_path / "db.sqlite", body))


def test_bad_input_everywhere_gets_a_clear_message(tmp_path: Path) -> None:
    async def body(service: Service) -> None:
        long = "x" * 2001
        for call in (service.open_table(ALICE, CHANNEL, SCOPE, long),
                     service.open_table(ALICE, CHANNEL, SCOPE, "classic", options=long),
                     service.rules(ALICE, long), service.leaderboard(ALICE, CHANNEL, SCOPE, long),
                     service.set_setting(ALICE, SCOPE, "lang", long, True)):
            assert "too long" in errors(await call)[0]
        assert "unknown variant" in errors(await service.rules(ALICE, "nope"))[0]
        assert "unknown variant" in errors(await service.leaderboard(ALICE, CHANNEL, SCOPE,
                                                                     "nope"))[0]
        assert "ai must be" in errors(await service.open_table(ALICE, CHANNEL, SCOPE, "classic",
                                                               options="ai=5"))[0]
        assert "timer must be" in errors(await service.open_table(
            ALICE, CHANNEL, SCOPE, "classic", timer="soon"))[0]
        assert "not valid" in errors(await service.press(ALICE, "1:0:zz"))[0]
        assert "No finished game #5" in errors(await service.export(ALICE, 5))[0]
        assert "finished game" in errors(await service.rematch(ALICE, 5))[0]
        assert "managers" in errors(await service.set_setting(ALICE, SCOPE, "lang", "fr",
                                                              False))[0]
        assert "lang=fr|en" in errors(await service.set_setting(ALICE, SCOPE, "lang", "de",
                                                                True))[0]
        tid = await open_classic(service)
        assert "not started" in errors(await service.play(ALICE, tid, "6-6"))[0]
        assert "not started" in errors(await service.hand(ALICE, tid))[0]
        assert await service.store.moves(tid) == []

    run(with_service(tmp_path / "db.sqlite", body))


def test_rules_in_the_users_language(tmp_path: Path) -> None:
    async def body(service: Service) -> None:
        english = (await service.rules(ALICE, "classic"))[0]
        french = (await service.rules(BOB, "classic"))[0]
        assert english.kind == french.kind == "rules" and english.to == ALICE.id
        assert english.text != french.text and "Français" not in english.text

    run(with_service(tmp_path / "db.sqlite", body))


def test_rules_are_a_short_summary_then_sections_without_paths(tmp_path: Path) -> None:
    async def body(service: Service) -> None:
        for slug in variants.names():
            for user in (ALICE, BOB):  # English, French
                (summary,) = await service.rules(user, slug)
                assert summary.kind == "rules" and len(summary.text) < 1500, slug
                assert len(summary.actions) >= 2, slug  # how to play, options, choices...
                for action in summary.actions:
                    (section,) = await service.press(user, action.data)
                    text = section.text
                    assert section.kind == "rules" and section.to == user.id
                    assert "|---" not in text and "shared/" not in text, (slug, text)
                    assert not re.search(r"\w+/\w+\.(txt|md|py)\b", text), (slug, text)
                    assert "domino play" not in text, (slug, text)

    run(with_service(tmp_path / "db.sqlite", body))


def test_ratings_per_scope_and_global_and_computers_earn_nothing(tmp_path: Path) -> None:
    async def body(service: Service) -> None:
        for scope in (SCOPE, "test:elsewhere"):
            tid = table_id(await service.open_table(ALICE, CHANNEL, scope, "classic",
                                                    options="players=3 ai=1 draw=block"))
            await service.join(BOB, tid)
            await service.begin(BOB, tid)
            table = service.tables[tid]
            users = {table.seat_of(u.id): u for u in (ALICE, BOB)}
            end = await play_to_the_end(service, tid, users)
            assert any(m.kind == "result" for m in end)
            result = (await service.store.get_table(tid)).result
            assert result is not None and result["winners"]
        for scope, games in ((SCOPE, 1), ("test:elsewhere", 1), ("global", 2)):
            rated = await service.store.ratings([ALICE.id, BOB.id, "None", ""], "classic", scope)
            assert sorted(rated) == [ALICE.id, BOB.id]
            assert all(r.games == games for r in rated.values())
            board = await service.leaderboard(CAROL, CHANNEL, scope, "classic")
            lines = board[0].text.splitlines()
            assert len(lines) == 3 and f"({games} game{'s' if games > 1 else ''}," in board[0].text
            assert "CPU" not in board[0].text
        stats = await service.stats(CAROL, CHANNEL, ALICE.id)
        assert "Classic dominoes: 2 games" in stats[0].text
        history = await service.history(ALICE, CHANNEL)
        assert len(history[0].text.splitlines()) == 3

    run(with_service(tmp_path / "db.sqlite", body))


def test_an_exported_record_replays_with_the_domino_command(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]
                                                            ) -> None:
    async def body(service: Service) -> tuple[int, Any]:
        tid = await open_classic(service, "players=2 ai=1 target=50")
        await play_to_the_end(service, tid, {0: ALICE})
        exported = await service.export(BOB, tid)
        return tid, exported[0].file

    tid, file = run(with_service(tmp_path / "db.sqlite", body))
    assert file is not None and file[0] == f"domino-{tid}.json"
    path = tmp_path / file[0]
    path.write_bytes(file[1])
    record = json.loads(file[1])
    assert record["variant"] == "classic" and record["options"]["target"] == 50
    assert cli.main(["replay", str(path)]) == 0
    assert "winner" in capsys.readouterr().out.lower()
    record["moves"][3] = "0-0 left" if record["moves"][3] != "0-0 left" else "6-6"
    path.write_text(json.dumps(record))
    assert cli.main(["replay", str(path)]) == 2


def test_a_deadline_survives_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite"
    clock = Clock()
    saved: dict[str, Any] = {}

    async def first(service: Service) -> None:
        tid = await started_table(service, ALICE, (BOB,), "players=2 timer=100")
        saved.update(tid=tid, deadline=service.tables[tid].row.deadline,
                     turn=service.tables[tid].game.turn)
        assert saved["deadline"] == clock.now + 100

    async def second(service: Service) -> None:
        table = service.tables[saved["tid"]]
        assert table.row.deadline == saved["deadline"]
        clock.now = saved["deadline"] + 1  # the player did not come back in time
        played = await service.tick()
        assert any("ran out of time" in m.text for m in played)
        assert table.game.turn == saved["turn"] + 1

    run(with_service(path, first, clock=clock))
    clock.now += 10  # restarted well before the deadline: it is kept as it was
    run(with_service(path, second, clock=clock))


def test_timer_off_by_default_in_private_games_and_server_setting(tmp_path: Path) -> None:
    async def body(service: Service) -> None:
        private = table_id(await service.open_table(ALICE, "test:dm", "test:dm", "classic",
                                                    private=True))
        assert service.tables[private].row.timer is None
        await service.set_setting(ALICE, SCOPE, "timer", "45", True)
        public = await open_classic(service)
        assert service.tables[public].row.timer == 45
        await service.set_setting(ALICE, SCOPE, "timer", "0", True)
        none = await open_classic(service)
        assert service.tables[none].row.timer is None
        await service.set_setting(ALICE, SCOPE, "lang", "fr", True)
        french = await service.open_table(CAROL, CHANNEL, SCOPE, "classic")
        assert "En attente de joueurs" in french[-1].text

    run(with_service(tmp_path / "db.sqlite", body))


def test_computer_seats_wait_for_the_delay(tmp_path: Path) -> None:
    clock = Clock()

    async def body(service: Service) -> None:
        table = await classic_table(service, "players=3 ai=2")
        tid = table.id
        moves = len(await service.store.moves(tid))
        while table.game.to_move != 0:
            assert await service.tick() == []  # not yet due
            clock.now += 2
            ticked = await service.tick()
            assert len(await service.store.moves(tid)) == moves + 1
            moves += 1
            assert any(m.kind == "table" for m in ticked)
        assert hand_message(ticked, ALICE) is not None

    run(with_service(tmp_path / "db.sqlite", body, clock=clock, ai_delay=2))


def test_real_pictures_open_with_pillow(tmp_path: Path) -> None:
    if not (hasattr(render, "position_png") and hasattr(render, "hand_png")):
        pytest.skip("render has no position_png/hand_png yet")

    async def body(service: Service) -> None:
        replies = await service.open_table(ALICE, CHANNEL, SCOPE, "classic",
                                           options="players=2 ai=1")
        replies += await press_a_legal_tile(service, table_id(replies), ALICE)
        table = [m for m in replies if m.kind == "table"][-1]
        turn = [m for m in replies if m.kind == "turn"][-1]
        hand = hand_message(replies, ALICE)
        assert hand is not None and table.image and hand.image
        assert turn.image is None  # one picture per state: the table message has it
        for name, data in (("table.png", table.image), ("hand.png", hand.image)):
            (tmp_path / name).write_bytes(data)
            with Image.open(io.BytesIO(data)) as im:
                assert im.format == "PNG" and im.width > 100 and im.height > 50

    run(with_service(tmp_path / "db.sqlite", body, pictures=Pictures()))


def test_a_restart_prompts_the_current_player_again(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite"
    saved: dict[str, Any] = {}

    async def first(service: Service) -> None:
        tid = await started_table(service, ALICE, (CAROL,), "players=2")
        table = service.tables[tid]
        users = {table.seat_of(u.id): u for u in (ALICE, CAROL)}
        await press_a_legal_tile(service, tid, users[table.game.to_move])
        saved.update(tid=tid, mover=users[table.game.to_move], turn=table.game.turn)

    async def second(service: Service) -> None:
        again = await service.start()  # a second start on the same store: what a restart says
        tid = saved["tid"]
        turn = [m for m in again if m.kind == "turn" and m.table == tid]
        assert turn and turn[0].mention == (saved["mover"].id,)
        hand = hand_message(again, saved["mover"])
        assert hand is not None and any(a.enabled for a in hand.actions)
        assert all(a.data.startswith(f"{tid}:{saved['turn']}:") for a in hand.actions)

    run(with_service(path, first))
    run(with_service(path, second))


def test_two_players_racing_for_the_last_seat(tmp_path: Path) -> None:
    async def body(service: Service) -> None:
        tid = await open_classic(service, "players=2")
        first, second = await asyncio.gather(service.join(CAROL, tid), service.join(DAVE, tid))
        assert sorted([bool(errors(first)), bool(errors(second))]) == [False, True]
        assert "full" in (errors(first) + errors(second))[0]
        seats = (await service.store.get_table(tid)).seats
        ids = [s.user_id for s in seats]
        assert ids[0] == ALICE.id and ids[1] in (CAROL.id, DAVE.id)

    run(with_service(tmp_path / "db.sqlite", body))


class _SlowThinker:
    """A real computer player that takes `seconds` longer over each move (in the worker
    thread, as a searching level does on a big position)."""

    def __init__(self, player: Any, seconds: float) -> None:
        self.player, self.seconds, self.name = player, seconds, player.name

    def choose(self, game: Any) -> Any:
        import time

        time.sleep(self.seconds)
        return self.player.choose(game)


def test_a_computer_that_thinks_long_holds_up_no_other_table(tmp_path: Path) -> None:
    clock = Clock()

    async def body(service: Service) -> None:
        slow = await classic_table(service, "players=3 ai=2")
        quick = service.tables[await open_classic(service, "players=3 ai=2", user=BOB)]
        while slow.game.to_move == 0 or quick.game.to_move == 0:  # both computers to move
            for table, user in ((slow, ALICE), (quick, BOB)):
                if table.game.to_move == 0:
                    hand = hand_message(await service.hand(user, table.id), user)
                    assert hand is not None
                    await service.press(user, next(a for a in hand.actions if a.enabled).data)
        seat = slow.game.to_move
        slow.bots[seat] = _SlowThinker(slow.bot(seat), 0.6)
        slow_moves = len(await service.store.moves(slow.id))
        quick_moves = len(await service.store.moves(quick.id))
        clock.now += 5
        first = await service.tick(wait=0.05)  # the quick table's computer has played
        assert len(await service.store.moves(quick.id)) > quick_moves
        assert any(m.table == quick.id for m in first)
        assert not any(m.table == slow.id for m in first)
        assert len(await service.store.moves(slow.id)) == slow_moves  # still thinking
        assert not any(m.table == slow.id for m in await service.tick(wait=0.05))  # once
        await asyncio.sleep(0.8)
        later = await service.tick(wait=0.05)
        assert any(m.table == slow.id for m in later)  # its messages come with a later tick
        assert len(await service.store.moves(slow.id)) == slow_moves + 1  # played once

    run(with_service(tmp_path / "db.sqlite", body, clock=clock, ai_delay=2))
