"""Every variant played through the service to the end, by buttons only (real SQLite file).

A human presses only the buttons of their private hand messages (and the second step that
asks which end), computers fill the other seats; at every decision the buttons offered must
reach exactly the core's legal moves: tiles on any end name, draw, pass, claim, muggins, buy,
give.  Then the result is public and the ratings are stored.  Also: the longest legal move
of every variant fits a button (64 bytes) and reads back as the same move.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from bot.service.messages import Message, parse_action
from bot.service.service import MOVE_TEXT, Service, User, texts
from core import variants
from core.line.cross import end_name, parse_end
from tests.service_helpers import (
    ALICE,
    BOB,
    CHANNEL,
    SCOPE,
    RecordingPictures,
    errors,
    hand_message,
    run,
    table_id,
    with_service,
)

# (variant, players, computers, options): one human everywhere, two humans for a few.
CASES: list[tuple[str, int, int, str]] = [
    (slug, max(2, variants.get(slug).min_players), max(2, variants.get(slug).min_players) - 1,
     "") for slug in variants.names()
    if variants.get(slug).family == "line"  # the others' chat flow comes with their buttons
]
CASES += [
    ("all-fives", 2, 0, "muggins_claim=true"),
    ("all-fives", 3, 1, "muggins_claim=true target=61"),
    ("cross", 2, 1, "set=9 every_double_spins=true"),
    ("nombres", 3, 1, ""),
    ("canton", 2, 0, "target=100"),
]


# The service's seed where seed 1 deals no game that reaches the expected buttons
# (the computer seats' play decides which positions come up)
SEEDS = {("k", ""): 4, ("cross", ""): 4, ("all-fives", "muggins_claim=true target=61"): 4}


def canonical(game: Any, text: str) -> str:
    return str(game.parse_move(text))


async def reachable(service: Service, user: User, tid: int, hand: Message) -> dict[str, str]:
    """Every move the hand message's enabled buttons lead to (through the end step too):
    move text -> the button data that plays it (the end step's own button)."""
    game = service.tables[tid].game
    out: dict[str, str] = {}
    for action in hand.actions:
        if not action.enabled:
            continue
        _, _, verb, arg = parse_action(action.data)
        if verb == "e":
            step = await service.press(user, action.data)
            assert not errors(step), errors(step)
            assert [m.kind for m in step] == ["hand"] and len(step[0].actions) > 1
            for choice in step[0].actions:
                assert choice.label != arg  # the label says where the tile goes
                out[canonical(game, parse_action(choice.data)[3])] = choice.data
        else:
            out[canonical(game, MOVE_TEXT.get(verb, arg))] = action.data
    return out


async def play_by_buttons(service: Service, tid: int, users: dict[int, User], rng: random.Random
                          ) -> tuple[list[Message], set[str]]:
    """Press buttons for whoever's turn it is until the game ends; the messages, and the
    kinds of moves pressed ("tile", "end", "claim", "give"...)."""
    out: list[Message] = []
    kinds: set[str] = set()
    for _ in range(3000):
        table = service.tables.get(tid)
        if table is None:
            return out, kinds
        game = table.game
        user = users[game.to_move]
        hand = hand_message(await service.hand(user, tid), user)
        assert hand is not None
        moves = await reachable(service, user, tid, hand)
        legal = {str(m) for m in game.legal_moves()}
        assert set(moves) == legal, (game.variant.slug, sorted(moves), sorted(legal))
        if any(":e:" in a.data for a in hand.actions):
            kinds.add("end step")
        move = rng.choice(sorted(moves))
        words = move.split()
        kinds.add(words[0] if words[0] in ("give", "claim", "muggins", "buy", "draw", "pass")
                  else "branch" if len(words) > 1 and "-" in words[1] else
                  words[1] if len(words) > 1 else "tile")
        replies = await service.press(user, moves[move])
        assert not errors(replies), (move, errors(replies))
        out += replies
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(("slug", "players", "ai", "options"), CASES,
                         ids=[f"{c[0]}-{c[1]}p-{c[2]}ai-{c[3]}" for c in CASES])
def test_every_variant_is_played_to_the_end_by_buttons(tmp_path: Path, slug: str, players: int,
                                                       ai: int, options: str) -> None:
    async def body(service: Service) -> set[str]:
        opened = await service.open_table(ALICE, CHANNEL, SCOPE, slug, players=players, ai=ai,
                                          options=options)
        tid = table_id(opened)
        if players - ai > 1:
            await service.join(BOB, tid)
            await service.begin(ALICE, tid)
        table = service.tables[tid]
        users = {s.seat: ALICE if s.user_id == ALICE.id else BOB for s in table.humans()}
        messages, kinds = await play_by_buttons(service, tid, users, random.Random(slug))
        result = [m for m in messages if m.kind == "result"]
        assert len(result) == 1 and result[0].to is None
        ranked = "Teams:" if variants.get(slug).new(players=players).view(None)["teams"] else (
            "Ranking:")  # teams are ranked as teams, not partner against partner
        assert "Game over" in result[0].text and ranked in result[0].text
        assert "Ranking:" not in result[0].text or ranked == "Ranking:"
        row = await service.store.get_table(tid)
        assert row is not None and row.status == "finished"
        board = await service.leaderboard(ALICE, CHANNEL, SCOPE, slug)
        assert "alice" in board[0].text
        assert (await service.store.game_record(tid))["variant"] == slug
        return kinds

    kinds = run(with_service(tmp_path / "db.sqlite", body, pictures=RecordingPictures(),
                             seed=SEEDS.get((slug, options), 1)))
    expected = {"nombres": {"give"}, "rubicon": {"buy", "pass"}, "k": {"draw"},
                "sebastopol": {"up", "down"}, "canton": {"end step"},
                "cross": {"branch", "up"} if options else {"up", "down"},
                "all-fives": {"claim", "muggins", "pass"} if options else {"up"}}
    assert kinds and expected.get(slug, set()) <= kinds, kinds
    if "every_double_spins" in options:
        assert "branch" in kinds  # a double-nine branch was played by a button


LONG_CASES = [(slug, {}) for slug in variants.names()
              if variants.get(slug).family != "puzzle"] + [
    ("cross", {"set": 9, "every_double_spins": True}), ("all-fives", {"muggins_claim": True})]


@pytest.mark.parametrize(("slug", "options"), LONG_CASES,
                         ids=[f"{s}-{'-'.join(map(str, o.values()))}" for s, o in LONG_CASES])
def test_the_longest_legal_move_fits_a_button_and_reads_back(slug: str, options: dict[str, Any]
                                                              ) -> None:
    v = variants.get(slug)
    longest: tuple[int, str, Any] = (0, "", None)
    for seed in range(4):
        game = v.new(players=v.max_players, seed=seed, **options)
        rng = random.Random(seed)
        while not game.over:
            legal = game.legal_moves()
            for m in legal:
                if len(str(m)) > longest[0]:
                    longest = (len(str(m)), str(m), game.copy())
            game.play(rng.choice(legal))
    _, move, at = longest
    data = texts.move_data(999_999, 99_999, move)  # a big table id and turn number
    assert len(data.encode()) <= 64
    assert str(at.parse_move(parse_action(data)[3])) == move


def test_a_branch_too_long_for_a_button_is_written_with_short_end_words() -> None:
    move = "9-8 right-12-left-10-right-9-left-8-right-7-left-3-right"
    assert len(texts.action_data(999_999, 99_999, "p", move)) > 64
    data = texts.move_data(999_999, 99_999, move)
    assert len(data.encode()) <= 64
    short = parse_action(data)[3]
    assert short == "9-8 r-12-l-10-r-9-l-8-r-7-l-3-r"
    assert end_name(parse_end(short.split()[1])) == move.split()[1]
