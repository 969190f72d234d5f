"""The game families beyond the line games, played through the service by buttons only.

For every slug whose family is not "line": a table of computer seats finishes; a human
plays a whole game pressing only the buttons the service returns (a move built a word at a
time, pages, the best plays of vingt, the hints of a puzzle), in French and in English; no
tile of a hidden hand ever shows in a public message; a forged or stale builder press
changes nothing.  Also the one-seat tables (started at once, helpers, no timer, the time a
solve took) and the puzzles' leaderboard.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from bot.service.messages import Message, parse_action
from bot.service.service import Service, User
from core import variants
from tests.service_helpers import (
    ALICE,
    BOB,
    CHANNEL,
    SCOPE,
    Clock,
    RecordingPictures,
    errors,
    hand_message,
    run,
    table_id,
    with_service,
)

SLUGS = [s for s in variants.names() if variants.get(s).family != "line"]
PUZZLES = [s for s in SLUGS if variants.get(s).family == "puzzle"]
OTHERS = [s for s in SLUGS if s not in PUZZLES]
SHORT = {"forty-two": "target=42", "texas-42": "target=2"}  # a short match keeps it fast
ELSA = User("test:elsa", "elsa", "fr-FR")
TILE = re.compile(r"(?<![\w-])(\d-\d)(?![\w-])")
NAV = {"Back", "Previous", "Next", "Retour", "Précédent", "Suivant"}


def options(slug: str) -> str:
    return SHORT.get(slug, "")


def seats_of(slug: str) -> int:
    v = variants.get(slug)
    return v.default_players


def hidden_tiles(game: Any) -> set[str]:
    """The tiles no public message may name after one move: every hand (each is seen by its
    seat only), but the tiles of the move just played (a round may have ended with it and
    the tiles been dealt again)."""
    out: set[str] = set()
    for seat in range(game.players):
        out |= set(game.view(seat).get("hand") or [])
    last = (game.record().get("moves") or [""])[-1]
    return out - set(TILE.findall(str(last)))


def check_public(messages: list[Message], game: Any, round_before: int) -> None:
    """No public message names a hidden tile (messages of one move at a time; not at the
    move that ends a round, whose score sheet shows the hands the round was played with)."""
    if game is None or game.over or game.players == 1 or game.variant.family == "memory":
        return  # nothing hidden in a one-seat game; memory: its grid, checked by the core
    if game.view(None)["round"] != round_before:
        return
    hidden = hidden_tiles(game)
    for m in messages:
        if m.to is None:
            named = set(TILE.findall(m.text))
            assert not named & hidden, (m.text, named & hidden)


async def step_to_a_move(service: Service, user: User, tid: int, hand: Message,
                         rng: random.Random) -> list[Message]:
    """Press the hand's buttons (choosing at random among the move's words, never the
    navigation or "?" buttons unless nothing else) until a move is played."""
    current = hand
    for _ in range(30):
        choices = [a for a in current.actions if a.enabled and a.label not in NAV
                   and not parse_action(a.data)[3].startswith("?")]
        if not choices:
            choices = [a for a in current.actions if a.label in NAV and "Back" not in a.label]
        assert choices, current
        action = rng.choice(choices)
        replies = await service.press(user, action.data)
        assert not errors(replies), (action, errors(replies))
        if parse_action(action.data)[2] != "e":
            return replies
        step = [m for m in replies if m.kind == "hand"]
        assert len(step) == 1 and step[0].to == user.id
        current = step[0]
    raise AssertionError("no move after 30 presses")


async def play_by_buttons(service: Service, tid: int, user: User, rng: random.Random,
                          pressed: set[str], clock: Clock) -> list[Message]:
    out: list[Message] = []
    for _ in range(3000):
        table = service.tables.get(tid)
        while table is not None and table.is_ai(table.game.to_move):  # a computer move a tick
            clock.now += service.ai_delay
            before = table.game.view(None)["round"]
            replies = await service.tick()
            check_public(replies, table.game, before)
            out += replies
            table = service.tables.get(tid)
        if table is None:
            return out
        game = table.game
        hand = hand_message(await service.hand(user, tid), user)
        assert hand is not None and hand.kind == "hand"
        for a in hand.actions:  # the "?" buttons answer, change nothing
            arg = parse_action(a.data)[3]
            if arg.startswith("?") and arg not in pressed:
                pressed.add(arg)
                turn = game.turn
                seen = await service.press(user, a.data)
                assert not errors(seen) and seen[0].to == user.id and game.turn == turn
        if rng.random() < 0.05:
            await forged_presses_change_nothing(service, tid, user, hand)
        before = game.view(None)["round"]
        replies = await step_to_a_move(service, user, tid, hand, rng)
        check_public(replies, game, before)
        out += replies
    raise AssertionError("the game did not end")


async def forged_presses_change_nothing(service: Service, tid: int, user: User,
                                        hand: Message) -> None:
    game = service.tables[tid].game
    turn, record = game.turn, game.record()
    forged = [f"{tid}:{turn}:e:9-9 Z99 nowhere", f"{tid}:{turn}:e:bid 99",
              f"{tid}:{turn + 5}:e:", f"{tid}:{max(0, turn - 1)}:p:" + "x" * 20,
              f"{tid}:{turn}:e:?nothing", f"{tid}:{turn}:p:nonsense move"]
    for data in forged:
        replies = await service.press(user, data)
        if data.endswith(":e:") or data.endswith("nonsense move") or "Z99" in data \
                or "?nothing" in data:
            assert errors(replies), data
        assert all(m.to == user.id for m in replies if m.kind in ("error", "hand"))
    assert game.turn == turn and game.record() == record


@pytest.mark.parametrize("slug", SLUGS)
def test_a_table_of_computers_finishes(tmp_path: Path, slug: str) -> None:
    async def body(service: Service) -> None:
        n = seats_of(slug)
        opened = await service.open_table(ALICE, CHANNEL, SCOPE, slug, players=n, ai=n - 1,
                                          options=options(slug))
        tid = table_id(opened)
        table = service.tables[tid]
        table.row.seats[0].ai = "greedy"  # the opener's seat goes to a computer too
        table.ai_due = 0.0
        out: list[Message] = []
        for _ in range(5000):
            if tid not in service.tables:
                break
            service.tables[tid].ai_due = 0.0
            out += await service.tick()
        row = await service.store.get_table(tid)
        assert row is not None and row.status == "finished"
        assert [m for m in out if m.kind == "result" and m.to is None]

    run(with_service(tmp_path / "db.sqlite", body))


@pytest.mark.parametrize("slug", OTHERS)
@pytest.mark.parametrize("user", [ALICE, ELSA], ids=["en", "fr"])
def test_a_human_plays_a_whole_game_by_buttons(tmp_path: Path, slug: str, user: User) -> None:
    async def body(service: Service) -> list[Message]:
        n = seats_of(slug)
        opened = await service.open_table(user, CHANNEL, SCOPE, slug, players=n, ai=n - 1,
                                          options=options(slug))
        tid = table_id(opened)
        pressed: set[str] = set()
        out = opened + await play_by_buttons(service, tid, user, random.Random(slug), pressed,
                                             clock)
        if variants.get(slug).family == "tricks":
            assert "?last" in pressed
        if slug == "patience":
            assert "?hint" in pressed
        row = await service.store.get_table(tid)
        assert row is not None and row.status == "finished"
        return out

    clock = Clock()
    out = run(with_service(tmp_path / "db.sqlite", body, pictures=RecordingPictures(),
                           clock=clock, ai_delay=1.0))
    result = [m for m in out if m.kind == "result" and m.to is None]
    assert len(result) == 1
    hands = [m for m in out if m.kind == "hand"]
    assert hands and all(m.to == user.id for m in hands)
    if user is ELSA:  # private messages in French, the table's in French too (its opener's)
        assert any("Votre" in m.text for m in hands)
        assert "Partie terminée" in result[0].text or "Gagné" in result[0].text \
            or "Perdu" in result[0].text, result[0].text
    else:
        assert any("Your" in m.text for m in hands)
    public = "\n".join(m.text for m in out if m.to is None)
    if slug == "patience":  # whether the deal could have been won, said at the end
        assert "could" in result[0].text or "pouvait" in result[0].text, result[0].text
    if slug == "texas-42":
        assert "Marks (game to" in public or "Marques (partie en" in public
    if variants.get(slug).family == "tricks":
        assert ("Bid" in public or "Enchères" in public) and ("trumps" in public
                                                              or "atout" in public)


def solution_moves(game: Any) -> list[str]:
    from core.solitaire.puzzles import solver

    fixed = {m.text for m in game.puzzle.fixed}
    return [m.text for m in solver.stored_solution(game.puzzle) if m.text not in fixed]


async def build(service: Service, user: User, tid: int, move: str) -> list[Message]:
    """Press the buttons that build `move` a word at a time (pages included), then play it."""
    hand = hand_message(await service.hand(user, tid), user)
    assert hand is not None
    words = move.split()
    for _ in range(40):
        play = [a for a in hand.actions if parse_action(a.data)[2:] == ("p", move)]
        if play:
            return await service.press(user, play[0].data)
        steps = [a for a in hand.actions if a.label not in NAV
                 and parse_action(a.data)[2] == "e"
                 and words[:len(parse_action(a.data)[3].split())]
                 == parse_action(a.data)[3].split()]
        pages = [a for a in hand.actions if a.label in ("Next", "Suivant")]
        target = (steps or pages or [None])[0]
        assert target is not None, (move, [a.data for a in hand.actions])
        replies = await service.press(user, target.data)
        assert not errors(replies), errors(replies)
        hand = next(m for m in replies if m.kind == "hand")
    raise AssertionError(f"could not build {move}")


@pytest.mark.parametrize("slug", PUZZLES)
def test_a_puzzle_is_solved_by_buttons_with_hints_and_makes_the_leaderboard(
        tmp_path: Path, slug: str) -> None:
    clock = Clock()
    user = ELSA if PUZZLES.index(slug) % 2 else ALICE

    async def body(service: Service) -> tuple[list[Message], str]:
        opened = await service.open_table(user, CHANNEL, SCOPE, slug)
        tid = table_id(opened)
        assert any(m.kind == "hand" and m.to == user.id for m in opened)  # started at once
        table = service.tables[tid]
        assert table.row.deadline is None  # no turn timer on a puzzle
        hand = hand_message(opened, user)
        assert hand is not None
        out = list(opened)
        for level in ("1", "2"):  # hints through the builder: "Hints…", then the level
            replies = await build(service, user, tid, f"hint {level}")
            assert not errors(replies)
            answers = [m for m in replies if m.kind == "info" and m.to == user.id]
            assert answers, [m.text for m in replies]
            out += replies
        game = table.game
        for move in solution_moves(game):
            clock.now += 5
            replies = await build(service, user, tid, move)
            assert not errors(replies), (move, errors(replies))
            out += replies
        row = await service.store.get_table(tid)
        assert row is not None and row.status == "finished"
        assert row.result["seconds"] == pytest.approx(clock.now - table.row.created_at)
        assert row.result["hints"] == 2
        board = await service.leaderboard(user, CHANNEL, SCOPE, slug)
        return out, board[0].text

    out, board = run(with_service(tmp_path / "db.sqlite", body, clock=clock))
    result = next(m for m in out if m.kind == "result")
    assert ("Solved in" in result.text) or ("Résolu en" in result.text), result.text
    assert user.name in board and ("2 hints" in board or "2 indices" in board), board


def test_one_seat_tables_helpers_and_privacy(tmp_path: Path) -> None:
    async def body(service: Service) -> None:
        # a private chat: a one-seat game starts at once, without a timer
        solitaire = "patience" if "patience" in variants.names() else "magic-square"
        opened = await service.open_table(ALICE, "test:dm", "test:dm", solitaire,
                                          private=True)
        tid = table_id(opened)
        assert service.tables[tid].game is not None
        assert hand_message(opened, ALICE) is not None
        # a puzzle in a channel: the opener only, unless helpers=on
        solo = table_id(await service.open_table(ALICE, CHANNEL, SCOPE, "quadrille"))
        replies = await service.hand(BOB, solo)
        assert errors(replies)
        helped = table_id(await service.open_table(ALICE, CHANNEL, SCOPE, "quadrille",
                                                   options="helpers=on puzzle=q1"))
        assert service.tables[helped].row.options["helpers"] is True
        hand = hand_message(await service.hand(BOB, helped), BOB)
        assert hand is not None and hand.to == BOB.id and "Votre" in hand.text
        move = solution_moves(service.tables[helped].game)[0]
        replies = await build(service, BOB, helped, move)
        assert not errors(replies) and service.tables[helped].game.turn == 1
        hint = await build(service, BOB, helped, "hint 1")
        assert [m for m in hint if m.kind == "info" and m.to is None]  # said to the channel
        # helpers is refused where it means nothing, and when malformed
        for variant, opts in (("classic", "helpers=on"), ("quadrille", "helpers=maybe")):
            assert errors(await service.open_table(ALICE, CHANNEL, SCOPE, variant,
                                                   options=opts))

    run(with_service(tmp_path / "db.sqlite", body))


def test_a_stale_builder_press_changes_nothing(tmp_path: Path) -> None:
    async def body(service: Service) -> None:
        tid = table_id(await service.open_table(ALICE, CHANNEL, SCOPE, "quadrille",
                                                options="puzzle=q1"))
        game = service.tables[tid].game
        hand = hand_message(await service.hand(ALICE, tid), ALICE)
        assert hand is not None
        first = solution_moves(game)[0]
        await build(service, ALICE, tid, first)
        record = game.record()
        for action in hand.actions:  # every button of turn 0 is stale now
            replies = await service.press(ALICE, action.data)
            assert errors(replies), action
        assert game.record() == record
        # a forged prefix that is no move's start offers nothing
        replies = await service.press(ALICE, f"{tid}:{game.turn}:e:6-6 Z9")
        assert errors(replies) and game.record() == record
        # someone not at the table can do nothing
        replies = await service.press(BOB, f"{tid}:{game.turn}:e:6-6")
        assert errors(replies) and game.record() == record

    run(with_service(tmp_path / "db.sqlite", body))


def test_a_puzzle_hint_leaves_the_buttons_and_a_refusal_is_one_line(tmp_path: Path) -> None:
    # issue 27: asking for a hint made every earlier button stale; a refused placement
    # listed every legal move
    async def body(service: Service) -> None:
        opened = await service.open_table(ELSA, CHANNEL, SCOPE, "quadrille",
                                          options="puzzle=q1")
        tid = table_id(opened)
        game = service.tables[tid].game
        hand = hand_message(opened, ELSA)
        assert hand is not None
        for level in ("2", "1"):  # two hints in a row, both stored
            replies = await build(service, ELSA, tid, f"hint {level}")
            assert not errors(replies)
        for action in hand.actions:  # the steps of the hand of before the hints still work
            if parse_action(action.data)[2] == "e":
                assert not errors(await service.press(ELSA, action.data)), action
        first = solution_moves(game)[0]
        replies = await service.press(ELSA, f"{tid}:0:p:{first}")  # offered before the hints
        assert not errors(replies) and game.record()["moves"] == ["hint 2", "hint 1", first]
        assert await service.store.moves(tid) == game.record()["moves"]
        from bot.service.tables import rebuild
        row = await service.store.get_table(tid)
        assert row is not None
        assert rebuild(row, await service.store.moves(tid)).record() == game.record()
        for move, why in (("5-5 C1 E1", "C1 et E1 ne sont pas voisines"),
                          (first, "est prise : retirez d'abord son domino")):
            said = errors(await service.play(ELSA, tid, move))
            assert len(said) == 1 and why in said[0] and "\n" not in said[0], said
            assert "jouer" not in said[0] and "play" not in said[0], said

    run(with_service(tmp_path / "db.sqlite", body))


def test_a_given_up_puzzle_shows_its_solution(tmp_path: Path) -> None:
    # issue 27: giving up never showed the solution
    pictures = RecordingPictures()

    async def body(service: Service) -> list[Message]:
        tid = table_id(await service.open_table(ALICE, CHANNEL, SCOPE, "quadrille",
                                                options="puzzle=q1"))
        game = service.tables[tid].game
        await build(service, ALICE, tid, solution_moves(game)[0])
        return await build(service, ALICE, tid, "give up")

    out = run(with_service(tmp_path / "db.sqlite", body, pictures=pictures))
    result = next(m for m in out if m.kind == "result")
    assert "Given up" in result.text and "solution" in result.text, result.text
    shown = pictures.public_views[-1]
    assert shown["shows"] == "solution" and not shown["to_place"]
    covered = {c for tile in shown["layout"]["tiles"] for c in tile["cells"]}
    assert covered == set(shown["layout"]["cells"]) and not shown["broken"]


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "A winning line: 6-0 + 3-3, 5-1 + 4-2, 5-0 + 4-3."),
    ("fr", "Une suite gagnante : 6-0 + 3-3, 5-1 + 4-2, 5-0 + 4-3.")])
def test_a_lost_patience_that_could_be_won_shows_the_winning_line(lang: str, said: str
                                                                  ) -> None:
    # issue 27: "this deal could have been won" and no line
    from bot.service.words import result_lines

    game = variants.get("patience").new(deal={"columns": [
        ["6-0", "5-0"], ["3-3", "4-2"], ["5-1", "4-3"]]})
    game.play("6-0 5-1")  # then 5-0 + 4-3 leaves 3-3 on 4-2: stuck
    game.play("5-0 4-3")
    assert game.over and not game.result["winners"] and game.result["winnable"]
    assert said in result_lines(game.result, ["alice"], lang)


def test_solo_results_read_as_solved_given_up_won_or_lost(tmp_path: Path) -> None:
    # issue 27: a puzzle showed as "rank 2 · 0 points" in history and "rating 0.0" in stats
    clock = Clock()

    async def body(service: Service) -> tuple[str, str, str]:
        solved = table_id(await service.open_table(ALICE, CHANNEL, SCOPE, "quadrille",
                                                   options="puzzle=q1"))
        for move in solution_moves(service.tables[solved].game):
            clock.now += 10
            await service.play(ALICE, solved, move)
        given = table_id(await service.open_table(ALICE, CHANNEL, SCOPE, "quadrille",
                                                  options="puzzle=q1"))
        clock.now += 65
        await service.play(ALICE, given, "give up")
        patience = table_id(await service.open_table(ALICE, CHANNEL, SCOPE, "patience"))
        game = service.tables[patience].game
        moves = 0
        while not game.over:
            await service.play(ALICE, patience, str(game.legal_moves()[0]))
            moves += 1
        outcome = (f"won in {moves} moves" if game.result["winners"]
                   else f"lost after {moves} moves")
        history = (await service.history(ALICE, CHANNEL))[0].text
        stats = (await service.stats(ALICE, CHANNEL))[0].text
        return history, stats, outcome

    history, stats, outcome = run(with_service(tmp_path / "db.sqlite", body, clock=clock))
    assert "rank" not in history and "point" not in history, history
    assert "Quadrille · solved in" in history and "Quadrille · given up after 1 min 5 s" \
        in history, history
    assert f"Patience · {outcome}" in history, history
    assert "rating" not in stats, stats
    assert "Quadrille: 2 games, 1 solved (50%)" in stats, stats


def test_the_puzzle_leaderboard_on_both_backends(db_target: Path | str) -> None:
    from bot.service.families import puzzle_leaderboard
    from bot.storage import GamePlayer, SeatRow, TableRow, open_store

    async def main() -> tuple[str, str, str]:
        store = await open_store(db_target)
        try:
            solves = [("test:alice", "alice", "here", 61.0, 3, "solved"),
                      ("test:bob", "bob", "here", 300.0, 0, "solved"),
                      ("test:carol", "carol", "elsewhere", 10.0, 1, "solved"),
                      ("test:dan", "dan", "here", 5.0, 0, "gave up")]
            for user, name, scope, seconds, hints, reason in solves:
                await store.upsert_user(user, name)
                row = TableRow(id=0, channel="c", scope=scope, host=user, variant="quadrille",
                               options={}, players=1, timer=None, status="playing", seed=1,
                               lang="en", created_at=0.0, seats=[SeatRow(0, user, name)])
                row.id = await store.create_table(row)
                won = reason == "solved"
                result = {"winners": [0] if won else [], "scores": [int(won)], "ranking": [0],
                          "reason": reason, "puzzle": "q1", "hints": hints,
                          "hint_levels": [1] * hints, "seconds": seconds}
                await store.finish_game(row.id, {"variant": "quadrille"}, result,
                                        [GamePlayer(user, 0, won, int(won), 1)], [])
            return (await puzzle_leaderboard(store, "quadrille", "here", "en"),
                    await puzzle_leaderboard(store, "quadrille", "global", "fr"),
                    await puzzle_leaderboard(store, "magic-star", "here", "en"))
        finally:
            await store.close()

    here, everywhere, none = run(main())
    fastest, fewest = here.split("Fewest hints:")
    assert fastest.index("alice: 1 min 1 s") < fastest.index("bob: 5 min 0 s")
    assert fewest.index("bob: 0 hints") < fewest.index("alice: 3 hints")
    assert "carol" not in here and "dan" not in here  # another server; given up
    assert "carol" in everywhere and "Résolutions les plus rapides" in everywhere
    assert "No solve yet." in none


def test_memory_hand_messages_have_no_empty_hand_picture(tmp_path: Path) -> None:
    """Nobody holds tiles in memory: the private message is the words and the buttons, with
    no picture of an empty hand ("Your hand: 0 tiles")."""
    async def body(service: Service) -> list[Message]:
        opened = await service.open_table(ALICE, CHANNEL, SCOPE, "memory", players=2, ai=1)
        tid = table_id(opened)
        return opened + await play_by_buttons(service, tid, ALICE, random.Random(3), set(),
                                              clock)

    clock = Clock()
    pictures = RecordingPictures()
    out = run(with_service(tmp_path / "db.sqlite", body, pictures=pictures, clock=clock,
                           ai_delay=1.0))
    assert [m for m in out if m.kind == "hand" and m.to == ALICE.id]
    assert pictures.public_views and not pictures.hand_views
