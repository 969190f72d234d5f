"""Computer levels at a table, thinking off the event loop, hints and game reviews, through
the service (bot/service/levels.py, thinking.py, assist.py, review.py)."""

from __future__ import annotations

import asyncio
import io
import threading
from pathlib import Path
from typing import Any

from service_helpers import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    SCOPE,
    button,
    errors,
    hand_message,
    open_classic,
    play_to_the_end,
    press_a_legal_tile,
    run,
    table_id,
    with_service,
)

from bot.service import review
from bot.service.pictures import Pictures
from bot.service.service import Service
from core import variants
from core.ai import make_player
from core.ai.chances import win_chances


def test_a_computer_seat_has_the_level_the_host_asks(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite"

    async def first(service: Service) -> int:
        tid = await open_classic(service, "players=4")
        lobby = (await service.add_ai(ALICE, tid, "hard"))[-1]
        assert "CPU 1 (hard)" in lobby.text
        # the lobby offers the levels as buttons
        lobby = (await service.press(ALICE, button(lobby, "+ Computer (expert)")))[-1]
        assert "CPU 2 (expert)" in lobby.text
        # bad levels are refused with the levels named, in the user's language
        bad = errors(await service.add_ai(ALICE, tid, "godlike"))
        assert bad and "unknown computer level godlike" in bad[0] and "expert" in bad[0]
        await service.join(BOB, tid)
        assert "Seul l'hôte" in errors(await service.add_ai(BOB, tid, "easy"))[0]
        stored = await service.store.get_table(tid)
        assert [s.ai for s in stored.seats] == [None, "hard", "expert", None]
        return tid

    async def second(service: Service, tid: int) -> None:
        table = service.tables[tid]  # a restart keeps the levels and their names
        assert [s.ai for s in table.row.seats] == [None, "hard", "expert", None]
        assert table.names()[1:3] == ["CPU 1 (hard)", "CPU 2 (expert)"]
        assert table.bot(1).name == "hard" and table.bot(2).name == "expert"
        # French names say the level in French
        fr = await service.open_table(BOB, CHANNEL, SCOPE, "classic",
                                      options="players=3 ai=1 level=difficile")
        assert "Ordi 1 (fort)" in fr[-1].text

    tid = run(with_service(path, first))
    run(with_service(path, lambda s: second(s, tid)))


def test_a_game_without_a_searcher_offers_no_hard_or_expert_computer(tmp_path: Path) -> None:
    # the tower has no searcher: a "hard" computer there would play as "normal", so the
    # lobby does not offer it and the host's request is refused, the seat left open
    async def body(service: Service) -> None:
        out = await service.open_table(ALICE, CHANNEL, SCOPE, "tower", options="players=3")
        tid = table_id(out)
        labels = [a.label for a in out[-1].actions]
        assert "+ Computer (easy)" in labels and "+ Computer (hard)" not in labels
        assert "+ Computer (expert)" not in labels
        for level in ("hard", "expert", "fort"):
            bad = errors(await service.add_ai(ALICE, tid, level))
            assert bad and "no hard or expert computer" in bad[0]
        stored = await service.store.get_table(tid)
        assert [s.ai for s in stored.seats] == [None, None, None]
        lobby = (await service.add_ai(ALICE, tid, "easy"))[-1]
        assert "CPU 1 (easy)" in lobby.text
        refused = await service.open_table(BOB, CHANNEL, SCOPE, "quinconce",
                                           options="players=2 ai=1 level=expert")
        assert "pas encore d'ordinateur fort ou expert" in errors(refused)[0]
        # a line game keeps the four levels
        line = await service.open_table(CAROL, CHANNEL, SCOPE, "classic", options="players=3")
        assert "+ Computer (expert)" in [a.label for a in line[-1].actions]

    run(with_service(tmp_path / "db.sqlite", body))


def test_a_level_at_opening_and_a_bad_one(tmp_path: Path) -> None:
    async def body(service: Service) -> None:
        out = await service.open_table(ALICE, CHANNEL, SCOPE, "classic",
                                       options="players=2 ai=1 level=expert")
        table = service.tables[table_id(out)]
        assert table.row.seats[1].ai == "expert" and table.game is not None
        bad = await service.open_table(ALICE, CHANNEL, SCOPE, "classic",
                                       options="players=2 ai=1 level=wizard")
        assert "Cannot open the table" in errors(bad)[0] and "wizard" in errors(bad)[0]

    run(with_service(tmp_path / "db.sqlite", body))


class SlowPlayer:
    """A computer that thinks until it is let go (in the worker thread)."""

    name = "slow"

    def __init__(self) -> None:
        self.thinking = threading.Event()
        self.go = threading.Event()

    def choose(self, game: Any) -> Any:
        self.thinking.set()
        assert self.go.wait(10), "never let go"
        return game.legal_moves()[0]


def test_a_thinking_computer_does_not_hold_up_other_tables(tmp_path: Path) -> None:
    async def body(service: Service) -> None:
        slow_tid = await open_classic(service, "players=2 ai=1")
        busy = service.tables[slow_tid]
        while busy.game.to_move != 0:  # let its computer move first if it leads
            await asyncio.sleep(0)
        slow = SlowPlayer()
        busy.bots[1] = slow
        other = await open_classic(service, "players=2 ai=1", user=BOB)
        # alice plays: her table's computer now thinks in a worker thread, for as long as
        # it takes
        alice = asyncio.create_task(press_a_legal_tile(service, slow_tid, ALICE))
        assert await asyncio.to_thread(slow.thinking.wait, 10)
        # meanwhile bob plays at the other table and is answered
        answered = await press_a_legal_tile(service, other, BOB)
        assert answered and not alice.done()
        assert busy.game.to_move == 1  # still thinking: the game waits for its move
        slow.go.set()
        await alice
        assert busy.game.turn >= 2 and not errors(await service.hand(ALICE, slow_tid))

    run(with_service(tmp_path / "db.sqlite", body))


def test_hints_at_a_casual_table(tmp_path: Path) -> None:
    async def body(service: Service) -> None:
        tid = await open_classic(service, "players=2 ai=1 hints=on")
        table = service.tables[tid]
        assert table.row.options["hints"] is True
        hand = hand_message(await service.hand(ALICE, tid), ALICE)
        assert hand is not None and "Hint" in [a.label for a in hand.actions]
        asked = table.game.turn
        answer = await service.press(ALICE, button(hand, "Hint"))
        assert [m.to for m in answer] == [ALICE.id] and answer[0].kind == "info"
        expert = str(make_player("expert", table.row.seed * 31 + asked).choose(table.game))
        assert answer[0].text.startswith("Hint: the expert would play")
        assert table.game.turn == asked  # asking changes nothing
        played = await service.press(ALICE, answer[0].actions[0].data)  # "Play ..." plays it
        assert not errors(played)
        assert (await service.store.moves(tid))[asked] == expert
        # the old hint button is refused; a French player gets French words
        assert "earlier turn" in errors(await service.press(ALICE, button(hand, "Hint")))[0]
        fr = await open_classic(service, "players=2 ai=1 hints=on", user=BOB)
        bob_hand = hand_message(await service.hand(BOB, fr), BOB)
        assert bob_hand is not None
        said = await service.press(BOB, button(bob_hand, "Indice"))
        assert said[0].text.startswith("Conseil : l'expert jouerait")
        # a table with hints is casual: its result changes no rating
        await play_to_the_end(service, tid, {0: ALICE})
        assert await service.store.ratings([ALICE.id], "classic", SCOPE) == {}

    run(with_service(tmp_path / "db.sqlite", body))


def test_no_hints_in_a_rated_game(tmp_path: Path) -> None:
    async def body(service: Service) -> None:
        tid = await open_classic(service, "players=2 ai=1")
        hand = hand_message(await service.hand(ALICE, tid), ALICE)
        assert hand is not None and "Hint" not in [a.label for a in hand.actions]
        turn = service.tables[tid].game.turn
        refused = errors(await service.press(ALICE, f"{tid}:{turn}:i"))
        assert refused and "Hints are off at this table" in refused[0]
        assert "not playing" in errors(await service.hint(CAROL, tid))[0]
        bad = await service.open_table(ALICE, CHANNEL, SCOPE, "classic", options="hints=maybe")
        assert "hints must be on or off" in errors(bad)[0]
        await play_to_the_end(service, tid, {0: ALICE})  # a rated game is rated
        assert ALICE.id in await service.store.ratings([ALICE.id], "classic", SCOPE)

    run(with_service(tmp_path / "db.sqlite", body))


def test_a_hint_is_for_the_seat_to_move(tmp_path: Path) -> None:
    async def body(service: Service) -> None:
        tid = table_id(await service.open_table(ALICE, CHANNEL, SCOPE, "classic",
                                                options="players=2 hints=on"))
        await service.join(BOB, tid)
        await service.begin(ALICE, tid)
        game = service.tables[tid].game
        waiting = [BOB, ALICE][game.to_move]
        hand = hand_message(await service.hand(waiting, tid), waiting)
        assert hand is not None and not [a for a in hand.actions if a.data.endswith(":i")]
        refused = errors(await service.hint(waiting, tid))
        assert refused and ("your turn" in refused[0] or "votre tour" in refused[0])

    run(with_service(tmp_path / "db.sqlite", body))


def test_review_of_a_finished_game(tmp_path: Path) -> None:
    async def body(service: Service) -> None:
        tid = await open_classic(service, "players=2 ai=1")
        under_way = errors(await service.review(ALICE, tid))
        assert under_way and "still under way" in under_way[0]
        await play_to_the_end(service, tid, {0: ALICE})
        out = await service.review(ALICE, tid)
        assert out and all(m.to == ALICE.id for m in out)  # private
        assert out[0].text.startswith(f"Review of game #{tid} for alice")
        record = await service.store.game_record(tid)
        seed = (await service.store.get_table(tid)).seed % 1_000_003
        decisions = review.analyse(record, 0, review.WORLDS, seed)
        assert len(out[0].text.splitlines()) == 2 + min(len(decisions), review.MAX_LINES)
        # every decision is one of alice's moves, with chances between 0 and 1
        moves = record["moves"]
        game = variants.get("classic").new(players=2, seed=record["seed"],
                                           **record["options"])
        seats = []
        for text in moves:
            seats.append(game.to_move)
            game.play(text)
        for d in decisions:
            assert seats[d.number - 1] == 0 and moves[d.number - 1] == d.played
            assert 0 <= d.chance_played <= 1 and 0 <= d.chance_expert <= 1
        worst = review.mistakes(decisions)
        assert len(worst) <= 3 and worst == sorted(worst, key=lambda d: -d.loss)
        if worst:
            assert f"Move {worst[0].number}:" in out[-1].text
        # bob did not play it; a table that never was; French words for bob
        assert "You did not play game" in errors(await service.review(CAROL, tid))[0]
        assert "Vous n'avez pas joué" in errors(await service.review(BOB, tid))[0]
        assert "No finished game #999" in errors(await service.review(CAROL, 999))[0]

    run(with_service(tmp_path / "db.sqlite", body))


def test_review_of_a_finished_forty_two_game(tmp_path: Path) -> None:
    async def body(service: Service) -> None:
        tid = table_id(await service.open_table(ALICE, CHANNEL, SCOPE, "forty-two",
                                                options="ai=3 level=normal target=42"))
        careless = make_player("easy", 5)  # alice plays any legal move: mistakes to find
        for _ in range(600):
            table = service.tables.get(tid)
            if table is None:
                break
            move = str(careless.choose(table.game))
            assert not errors(await service.play(ALICE, tid, move))
        assert tid not in service.tables
        out = await service.review(ALICE, tid)
        assert out and all(m.to == ALICE.id and m.kind == "info" for m in out)  # private
        assert out[0].text.startswith(f"Review of game #{tid} for alice")
        record = await service.store.game_record(tid)
        seed = (await service.store.get_table(tid)).seed % 1_000_003
        decisions = review.analyse(record, 0, review.WORLDS, seed)
        assert decisions and len(out[0].text.splitlines()) == 2 + min(len(decisions),
                                                                       review.MAX_LINES)
        game = variants.get("forty-two").new(seed=record["seed"], **record["options"])
        seats = []
        for text in record["moves"]:
            seats.append(game.to_move)
            game.play(text)
        assert game.over
        for d in decisions:  # alice's choices (bids, trumps and tiles), chances in [0, 1]
            assert seats[d.number - 1] == 0 and record["moves"][d.number - 1] == d.played
            assert 0 <= d.chance_played <= 1 and 0 <= d.chance_expert <= 1
        assert any(d.played.startswith(("bid", "pass")) for d in decisions)
        for d in decisions[:review.MAX_LINES]:  # the calls in words: "Bid 30", "Trumps: fives"
            said = {"bid": "Bid ", "pass": "Pass", "trumps": "Trumps: "}.get(d.played.split()[0])
            assert f"Move {d.number}: {said or d.played}" in out[0].text
        worst = review.mistakes(decisions)
        assert worst and worst == sorted(worst, key=lambda d: -d.loss)
        assert all(f"Move {d.number}:" in out[-1].text for d in worst)
        assert "chance of winning the round" in out[-1].text
        image = out[-1].image  # the biggest mistake's position: the table and alice's hand
        assert image is not None and image.startswith(b"\x89PNG")
        from PIL import Image

        picture = Image.open(io.BytesIO(image))
        assert picture.width > 200 and picture.height > 200

    run(with_service(tmp_path / "db.sqlite", body, pictures=Pictures()))


def test_a_review_lists_mistakes_biggest_first() -> None:
    decisions = [review.Decision(3, "6-4 left", "6-4 left", 0.5, 0.5),
                 review.Decision(5, "5-5 left", "5-1 right", 0.2, 0.6),
                 review.Decision(7, "3-3 left", "3-1 right", 0.4, 0.5),
                 review.Decision(9, "2-2 left", "2-1 right", 0.1, 0.15),
                 review.Decision(11, "1-1 left", "1-0 right", 0.1, 0.7),
                 review.Decision(13, "0-0 left", "0-1 right", 0.6, 0.5)]
    assert [d.number for d in review.mistakes(decisions)] == [11, 5, 7]


def _game(seat1: list[str], stock: list[str]) -> Any:
    hand0 = ["6-6", "6-5", "5-5", "4-2", "3-1", "2-0", "1-1"]
    return variants.get("classic").new(players=2, seed=3, opening="any",
                                       deal={"hands": [hand0, seat1], "stock": stock})


def test_win_chances_use_only_the_seats_view() -> None:
    six = [f"{a}-{b}" for a in range(7) for b in range(a + 1)]
    known = {"6-6", "6-5", "5-5", "4-2", "3-1", "2-0", "1-1", "6-3"}
    rest = [t for t in six if t not in known]
    a = _game(["6-3", *rest[:6]], rest[6:])
    b = _game(["6-3", *rest[-6:]], rest[:-6])
    for g in (a, b):
        g.play("6-6")
        g.play("6-3 right")
    assert a.view(0) == b.view(0) and a.hands[1] != b.hands[1]
    chances = [win_chances(g, 16, seed=5) for g in (a, b)]
    assert chances[0] == chances[1]
    assert chances[0] is not None and set(chances[0]) == {str(m) for m in a.legal_moves()}
    assert all(0 <= v <= 1 for v in chances[0].values())
