"""The bot service on a real SQLite file: lobby, turns, buttons, timers, restarts."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.service.service import Service
from tests.service_helpers import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    SCOPE,
    Clock,
    button,
    classic_table,
    errors,
    hand_message,
    open_classic,
    play_to_the_end,
    run,
    started_table,
    table_id,
    with_service,
)


def test_a_full_game_of_two_humans_and_a_computer(tmp_path: Path) -> None:
    async def body(service: Service) -> None:
        opened = await service.open_table(ALICE, CHANNEL, SCOPE, "classic",
                                          options="players=3 ai=1 draw=block")
        tid = table_id(opened)
        lobby = opened[-1]
        assert lobby.kind == "table" and lobby.to is None
        assert "alice" in lobby.text and "CPU 1" in lobby.text
        joined = await service.press(BOB, button(lobby, "Join"))
        assert "bob" in joined[-1].text
        assert errors(await service.press(CAROL, button(lobby, "Join"))) == [
            "This table is full."]
        started = await service.press(ALICE, button(lobby, "Start"))
        assert any(m.kind == "table" and m.image is None for m in started)
        table = service.tables[tid]
        users = {s.seat: ALICE if s.user_id == ALICE.id else BOB
                 for s in table.row.seats if s.ai is None}
        end = await play_to_the_end(service, tid, users)
        result = next(m for m in end if m.kind == "result")
        assert "Game over" in result.text or "Partie terminée" in result.text
        board = await service.leaderboard(ALICE, CHANNEL, SCOPE, "classic")
        assert "alice" in board[0].text and "bob" in board[0].text
        assert "CPU" not in board[0].text
        assert "(1 game," in board[0].text and "1 games" not in board[0].text  # one game each
        every = (await service.leaderboard(ALICE, CHANNEL, SCOPE))[0].text
        assert "(Classic dominoes; 1 game in all," in every  # whose rating it is
        stats = await service.stats(BOB, CHANNEL)  # bob reads French
        assert "1 partie," in stats[0].text and "parties" not in stats[0].text
        history = await service.history(BOB, CHANNEL)
        assert f"#{tid}" in history[0].text
        record = (await service.export(ALICE, tid))[0].file
        assert record is not None and b'"variant": "classic"' in record[1]

    run(with_service(tmp_path / "db.sqlite", body))


def test_stale_and_foreign_presses_change_nothing(tmp_path: Path) -> None:
    async def body(service: Service) -> None:
        opened = await service.open_table(ALICE, CHANNEL, SCOPE, "classic",
                                          options="players=2 draw=block")
        tid = table_id(opened)
        await service.join(BOB, tid)
        await service.begin(ALICE, tid)
        game = service.tables[tid].game
        mover = ALICE if service.tables[tid].seat_of(ALICE.id) == game.to_move else BOB
        other = BOB if mover is ALICE else ALICE
        hand = hand_message(await service.hand(mover, tid), mover)
        assert hand is not None
        data = next(a.data for a in hand.actions if a.enabled)
        # someone not at the table, and the other player, cannot use it
        assert "not playing at this table" in errors(await service.press(CAROL, data))[0]
        not_yours = {ALICE: "turn, not yours", BOB: "pas au vôtre"}  # bob reads French
        assert not_yours[other] in errors(await service.press(other, data))[0]
        turn = game.turn
        # two presses at once: one is accepted, the other is refused as stale
        first, second = await asyncio.gather(service.press(mover, data),
                                             service.press(mover, data))
        assert (not errors(first)) != (not errors(second))
        stale = {ALICE: "earlier turn", BOB: "tour précédent"}[mover]
        assert stale in (errors(first) + errors(second))[0]
        assert service.tables[tid].game.turn == turn + 1
        assert len(await service.store.moves(tid)) == turn + 1

    run(with_service(tmp_path / "db.sqlite", body))


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        (lambda s: s.open_table(ALICE, CHANNEL, SCOPE, "matadore"), "unknown variant"),
        (lambda s: s.open_table(ALICE, CHANNEL, SCOPE, "classic", options="players=9"),
         "2 to 5 players"),
        (lambda s: s.open_table(ALICE, CHANNEL, SCOPE, "classic", options="draw=never"),
         "'draw' must be"),
        (lambda s: s.open_table(ALICE, CHANNEL, SCOPE, "classic", options="draw"),
         "name=value"),
        (lambda s: s.join(ALICE, 999), "no open table #999"),
        (lambda s: s.play(ALICE, 999, "6-6"), "no open table #999"),
        (lambda s: s.press(ALICE, "garbage"), "not valid"),
        (lambda s: s.press(ALICE, "1:2"), "not valid"),
    ],
)
def test_bad_input_gets_a_clear_private_message(tmp_path: Path, call: Any, expected: str
                                                 ) -> None:
    async def body(service: Service) -> None:
        replies = await call(service)
        assert len(replies) == 1 and replies[0].to == ALICE.id and replies[0].kind == "error"
        assert expected in replies[0].text

    run(with_service(tmp_path / "db.sqlite", body))


def test_bad_moves_are_refused_with_the_legal_ones(tmp_path: Path) -> None:
    async def body(service: Service) -> None:
        tid = table_id(await service.open_table(ALICE, CHANNEL, SCOPE, "tete-a-tete",
                                                options="ai=1"))
        game = service.tables[tid].game
        assert game.to_move == 0  # the computer seat has played already (no delay)
        turn = game.turn
        for text in ["hello", "9-9 left", "x" * 3000]:
            replies = await service.play(ALICE, tid, text)
            assert errors(replies), text
        assert "too long" in errors(await service.play(ALICE, tid, "x" * 3000))[0]
        assert "You can play" in errors(await service.play(ALICE, tid, "hello"))[0]
        assert game.turn == turn and len(await service.store.moves(tid)) == turn

    run(with_service(tmp_path / "db.sqlite", body, seed=3))


def test_french_players_read_french(tmp_path: Path) -> None:
    async def body(service: Service) -> None:
        replies = await service.open_table(BOB, CHANNEL, SCOPE, "classic",
                                           options="players=2 ai=1")
        assert any("Ordi" in m.text or "Votre main" in m.text for m in replies)

    run(with_service(tmp_path / "db.sqlite", body))


def test_timer_warns_then_plays_then_hands_the_seat_to_a_computer(tmp_path: Path) -> None:
    clock = Clock()

    async def body(service: Service) -> None:
        table = await classic_table(service, "players=2 ai=1 timer=60 draw=block")
        tid = table.id
        human = table.seat_of(ALICE.id)
        for miss in range(1, 4):
            while table.game and table.game.to_move != human and not table.game.over:
                await service.tick()
            if tid not in service.tables:
                return
            clock.now += 31
            warned = await service.tick()
            assert any("seconds left" in m.text for m in warned)
            clock.now += 30
            played = await service.tick()
            assert any("ran out of time" in m.text for m in played)
            if tid not in service.tables:
                return
            assert table.row.seats[human].misses == miss
        assert table.row.seats[human].ai == "greedy"

    run(with_service(tmp_path / "db.sqlite", body, clock=clock))


def test_a_restart_reloads_the_table_and_old_buttons_still_work(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite"
    saved: dict[str, Any] = {}

    async def first(service: Service) -> None:
        tid = await started_table(service, ALICE, (BOB,), "players=2 draw=block")
        game = service.tables[tid].game
        users = {service.tables[tid].seat_of(u.id): u for u in (ALICE, BOB)}
        for _ in range(3):
            user = users[game.to_move]
            hand = hand_message(await service.hand(user, tid), user)
            assert hand is not None
            data = next(a.data for a in hand.actions if a.enabled)
            if ":e:" in data:
                data = (await service.press(user, data))[0].actions[0].data
            await service.press(user, data)
        user = users[game.to_move]
        hand = hand_message(await service.hand(user, tid), user)
        assert hand is not None
        saved.update(tid=tid, turn=game.turn, user=user, board=game.view(None)["board"],
                     button=next(a.data for a in hand.actions if a.enabled))

    async def second(service: Service) -> None:
        game = service.tables[saved["tid"]].game
        assert game.turn == saved["turn"]
        assert game.view(None)["board"] == saved["board"]
        data = saved["button"]
        if ":e:" in data:
            data = (await service.press(saved["user"], data))[0].actions[0].data
        assert not errors(await service.press(saved["user"], data))
        assert game.turn == saved["turn"] + 1

    run(with_service(path, first))
    run(with_service(path, second))


def test_stop_by_the_host_or_by_every_player(tmp_path: Path) -> None:
    async def body(service: Service) -> None:
        tid = await open_classic(service, "players=2")
        await service.join(BOB, tid)
        await service.begin(BOB, tid)  # full: anyone at the table may start
        asked = await service.stop(BOB, tid)
        assert "1 of 2" in asked[0].text and tid in service.tables
        stopped = await service.stop(ALICE, tid)
        assert stopped[0].kind == "result" and tid not in service.tables
        assert (await service.store.get_table(tid)).status == "stopped"

    run(with_service(tmp_path / "db.sqlite", body))


def test_rematch_seats_the_same_players(tmp_path: Path) -> None:
    async def body(service: Service) -> None:
        tid = await open_classic(service, "players=2 ai=1 draw=block")
        await play_to_the_end(service, tid, {0: ALICE})
        again = await service.rematch(ALICE, tid)
        new = table_id(again)
        assert new != tid and service.tables[new].row.status == "playing"
        old_seats = [(s.user_id, s.ai) for s in (await service.store.get_table(tid)).seats]
        assert [(s.user_id, s.ai) for s in service.tables[new].row.seats] == old_seats
        assert "already on" in errors(await service.rematch(ALICE, tid))[0]

    run(with_service(tmp_path / "db.sqlite", body))


def test_at_the_end_every_hand_shows_the_final_state_and_old_presses_say_it_is_over(
        tmp_path: Path) -> None:
    async def body(service: Service) -> None:
        opened = await service.open_table(ALICE, CHANNEL, SCOPE, "classic",
                                          options="players=2 draw=block")
        tid = table_id(opened)
        await service.join(BOB, tid)
        started = await service.begin(ALICE, tid)
        old = {m.to: m for m in started if m.kind == "hand"}
        end = await play_to_the_end(service, tid, {0: ALICE, 1: BOB})
        finals = {m.to: m for m in end if m.kind == "hand"}
        assert set(finals) == {ALICE.id, BOB.id}  # every hand edited to the final state
        assert all(not m.actions for m in finals.values())  # no tile left to press
        assert finals[ALICE.id].text == f"Game #{tid} is over."
        assert finals[BOB.id].text == f"La partie #{tid} est terminée."  # bob reads French
        stale = next(a.data for m in old.values() for a in m.actions if a.enabled)
        assert errors(await service.press(ALICE, stale)) == [f"Game #{tid} is over."]
        assert errors(await service.press(BOB, stale)) == [f"La partie #{tid} est terminée."]

    run(with_service(tmp_path / "db.sqlite", body))
