"""Every message the service returns fits the platforms' limits, in every family.

A property test: for every variant, seeded random playthroughs by buttons (bounded), and
every message of every answer on the way has actions Discord and Telegram accept: data
unique in the message (Discord refuses a repeated custom id), at most 25 buttons in at
most 5 rows of 5 on each page, as the Discord adapter lays them out from `Action.row`
(`bot.discord.views.layout`: a hand of more than 20 tiles is shown a page at a time), and
none left out by that layout,
at most 8 in one `Action.row` (Telegram's row), labels of 1 to 80 characters, data of at
most 64 bytes (Telegram's callback data).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.discord.views import layout
from bot.service.messages import Action, Message, parse_action
from bot.service.service import Service, User
from core import variants
from tests.service_helpers import (
    ALICE,
    CHANNEL,
    SCOPE,
    errors,
    hand_message,
    run,
    table_id,
    with_service,
)

SHORT = {"forty-two": "target=42", "texas-42": "target=2"}
MOVES = 12  # human moves a playthrough makes at most
ROWS, PER_ROW, BUTTONS, LABEL, DATA = 5, 5, 25, 80, 64
TG_ROW = 8  # Telegram: 8 buttons a row (a private keyboard keeps each `Action.row` whole)


def discord_pages(message: Message) -> list[list[list[Action]]]:
    """The rows of buttons of each page of the message on Discord, as the Discord adapter
    lays them out (`bot.discord.views.layout`: a group per `Action.row`, rows of 5, a hand
    of more than 20 tiles a page at a time), with the page arrows on the last row."""
    _, _, pages = layout(message.actions, 0)
    out = []
    for page in range(pages):
        rows, _, _ = layout(message.actions, page)
        if pages > 1:
            arrows = [Action("◀", "arrow")] * (page > 0) + [Action("▶", "arrow")] * (
                page < pages - 1)
            rows = [*rows[:-1], [*rows[-1], *arrows]]
        out.append(rows)
    return out


def misfits(message: Message) -> list[str]:
    """What in `message` a platform would refuse (empty when it fits)."""
    out = []
    data = [a.data for a in message.actions]
    if len(set(data)) != len(data):
        out.append(f"repeated data: {sorted(d for d in set(data) if data.count(d) > 1)}")
    shown: set[str] = set()
    for rows in discord_pages(message):
        if len(rows) > ROWS or any(len(r) > PER_ROW for r in rows):
            out.append(f"rows of {[len(r) for r in rows]} buttons")
        if sum(map(len, rows)) > BUTTONS:
            out.append(f"{sum(map(len, rows))} buttons")
        shown |= {a.data for r in rows for a in r}
    if not set(data) <= shown:
        out.append(f"not shown on Discord: {sorted(set(data) - shown)}")
    groups = [a.row for a in message.actions]
    if any(groups.count(r) > TG_ROW for r in set(groups)):
        out.append(f"over {TG_ROW} buttons in one row")
    for a in message.actions:
        if not 1 <= len(a.label) <= LABEL:
            out.append(f"label of {len(a.label)} characters: {a.label!r}")
        if len(a.data.encode()) > DATA:
            out.append(f"data of {len(a.data.encode())} bytes")
    return out


def check(messages: list[Message], where: str) -> None:
    for m in messages:
        bad = misfits(m)
        assert not bad, (where, m.kind, m.text[:200], bad)


def test_the_check_refuses_what_discord_refuses_and_allows_its_pages() -> None:
    def message(*actions: Action) -> Message:
        return Message("c", "x", actions=actions)

    tiles = [Action(f"{a}-{b}", f"1:0:p:{a}-{b}", row=i // 5)
             for i, (a, b) in enumerate((a, b) for a in range(7) for b in range(a + 1))][:23]
    assert not misfits(message(*tiles, Action("Draw", "1:0:d", row=5)))  # pages of 20
    words = [Action(f"Word {i}", f"1:0:e:w{i}", row=i // 5) for i in range(30)]
    assert misfits(message(*words))  # 6 rows, no tile to page: some would be left out
    assert misfits(message(Action("a", "1:0:p:x"), Action("b", "1:0:p:x")))
    assert misfits(message(Action("x" * 81, "1:0:p:x")))
    assert misfits(message(*[Action(str(i), f"1:0:e:{i}", row=0) for i in range(9)]))


async def playthrough(service: Service, slug: str, user: User, rng: random.Random) -> None:
    """Open a table of `slug` (one human, computers in the other seats) and make up to
    MOVES human moves by random button presses, checking every answer."""
    n = variants.get(slug).default_players
    opened = await service.open_table(user, CHANNEL, SCOPE, slug, players=n, ai=n - 1,
                                      options=SHORT.get(slug, ""))
    check(opened, f"{slug}: open")
    assert not errors(opened), errors(opened)
    tid = table_id(opened)
    for step in range(MOVES * 30):
        table = service.tables.get(tid)
        if table is None or table.game is None:
            return
        hand = hand_message(await service.hand(user, tid), user)
        assert hand is not None
        check([hand], f"{slug}: hand")
        current = hand
        for _ in range(30):  # press buttons until a move is played
            enabled = [a for a in current.actions if a.enabled]
            if not enabled:
                break
            action = rng.choice(enabled)
            replies = await service.press(user, action.data)
            check(replies, f"{slug}: press {action.data}")
            verb, arg = parse_action(action.data)[2:]
            if verb != "e" or arg.startswith("?"):
                break
            nxt = hand_message(replies, user)
            if nxt is None:
                break
            current = nxt
        if step >= MOVES and rng.random() < 0.5:
            return


@pytest.mark.parametrize("slug", variants.names())
def test_every_message_of_a_playthrough_fits_the_platforms(tmp_path: Path, slug: str) -> None:
    async def body(service: Service) -> None:
        await playthrough(service, slug, ALICE, random.Random(slug))

    run(with_service(tmp_path / "db.sqlite", body))


@pytest.mark.parametrize("seed", [3, 5, 6, 10, 13])
def test_vingt_hands_fit_discord_on_the_seeds_it_was_refused(tmp_path: Path, seed: int
                                                             ) -> None:
    """`/domino start variant:vingt players:2 ai:1`: a third of the deals offered the best
    plays twice (as a button and as "Best:"), with the same custom id."""
    async def body(service: Service) -> None:
        opened = await service.open_table(ALICE, CHANNEL, SCOPE, "vingt", players=2, ai=1)
        check(opened, "vingt")
        tid = table_id(opened)
        hand = hand_message(await service.hand(ALICE, tid), ALICE)
        assert hand is not None
        check([hand], "vingt")
        labels = [a.label for a in hand.actions]
        shown = [parse_action(a.data)[3] for a in hand.actions]
        assert len(set(shown)) == len(shown), labels  # no play shown twice

    run(with_service(tmp_path / "db.sqlite", body, seed=seed))


def test_vingt_asks_to_pass_when_pass_is_the_only_play(tmp_path: Path) -> None:
    async def body(service: Service) -> None:
        opened = await service.open_table(ALICE, CHANNEL, SCOPE, "vingt", players=2, ai=1)
        tid = table_id(opened)
        table = service.tables[tid]
        table.game = variants.get("vingt").new(players=2, seed=1, deal={
            "hands": [["8-8"], ["9-8"]], "stock": [], "board": ["1-1 M13 right"],
            "left": [5, 7]})
        hand = hand_message(await service.hand(ALICE, tid), ALICE)
        assert hand is not None
        assert [a.label for a in hand.actions] == ["You cannot make 20: pass"]
        assert "Build a play" not in hand.text
        assert "You cannot make 20 with your rack: pass." in hand.text
        # every play has its button: the best ones are marked there, not offered again
        table.game = variants.get("vingt").new(players=2, seed=1, deal={
            "hands": [["9-5", "4-2", "1-1"], ["8-8"]], "stock": ["3-3", "7-7"]})
        hand = hand_message(await service.hand(ALICE, tid), ALICE)
        assert hand is not None
        plays = [parse_action(a.data)[3] for a in hand.actions]
        assert len(plays) == len(set(plays)) == len(table.game.legal_moves()) <= 20
        assert any(a.label.startswith("Best: ") for a in hand.actions)
        assert "Build a play" not in hand.text and "Choose a play" in hand.text

    run(with_service(tmp_path / "db.sqlite", body))


# -- stale buttons ------------------------------------------------------------------------------

@pytest.mark.parametrize("slug", [s for s in variants.names()
                                  if variants.get(s).family != "line"])
def test_at_the_end_the_hand_has_no_button_left(tmp_path: Path, slug: str) -> None:
    """As in the line games: the move that ends the game edits the player's hand to its
    final state, without a button (the old ones stay pressable otherwise)."""
    async def body(service: Service) -> None:
        n = variants.get(slug).default_players
        opened = await service.open_table(ALICE, CHANNEL, SCOPE, slug, players=n, ai=n - 1,
                                          options=SHORT.get(slug, ""))
        tid = table_id(opened)
        rng = random.Random(slug)
        last: list[Message] = []
        for _ in range(3000):
            table = service.tables.get(tid)
            if table is None:
                break
            game = table.game
            puzzle = variants.get(slug).family == "puzzle"
            move = "give up" if puzzle else str(rng.choice(game.legal_moves()))
            last = await service.play(ALICE, tid, move, turn=game.turn)
            assert not errors(last), errors(last)
        assert tid not in service.tables
        final = hand_message(last, ALICE)
        assert final is not None and not final.actions, final
        assert final.text == f"Game #{tid} is over."

    run(with_service(tmp_path / "db.sqlite", body))


# -- the tower's drill-down -----------------------------------------------------------------

def test_the_tower_drill_down_says_the_risk_each_step_shows(tmp_path: Path) -> None:
    async def body(service: Service) -> None:
        tid = table_id(await service.open_table(ALICE, CHANNEL, SCOPE, "tower", players=2,
                                                ai=1))
        rng = random.Random(1)
        game = service.tables[tid].game
        while len(game.view(0)["legal"]) <= 20 or game.to_move != 0:  # moves need steps
            assert tid in service.tables and game.to_move == 0
            replies = await service.play(ALICE, tid, str(rng.choice(game.legal_moves())))
            assert not errors(replies)
        view = game.view(0)
        risks = view["risks"]
        hand = hand_message(await service.hand(ALICE, tid), ALICE)
        assert hand is not None
        assert "each button says the fall risk." not in hand.text
        assert "each button says the lowest fall risk it leads to" in hand.text
        for a in hand.actions:  # the first step: each tile with the lowest risk on offer
            arg = parse_action(a.data)[3]
            if a.label in ("Next", "Previous") or not arg:
                continue
            low = min(r for m, r in risks.items() if m == arg or m.startswith(arg + " "))
            assert a.label.endswith(f"{round(100 * low)}%"), (a.label, low)
        for _ in range(3):  # every later step: every button says a risk
            step = next(a for a in hand.actions if parse_action(a.data)[2] == "e"
                        and a.label not in ("Back", "Next", "Previous"))
            hand = hand_message(await service.press(ALICE, step.data), ALICE)
            assert hand is not None
            assert "each button says the fall risk." not in hand.text
            assert all("%" in a.label for a in hand.actions
                       if a.label not in ("Back", "Next", "Previous")), hand.actions
            if not any(parse_action(a.data)[2] == "e" and a.label != "Back"
                       for a in hand.actions):
                break

    run(with_service(tmp_path / "db.sqlite", body))


# -- stop asks first ------------------------------------------------------------------------

def test_the_stop_button_asks_first_when_one_press_ends_the_game(tmp_path: Path) -> None:
    from tests.service_helpers import BOB, button

    async def body(service: Service) -> None:
        opened = await service.open_table(ALICE, CHANNEL, SCOPE, "classic", players=2, ai=1)
        tid = table_id(opened)
        table = next(m for m in opened if m.kind == "table")
        stop = button(table, "Stop")
        asked = await service.press(ALICE, stop)
        assert tid in service.tables, "one press did not end the solo game"
        assert [m.to for m in asked] == [ALICE.id] and "cannot be resumed" in asked[0].text
        yes = button(asked[0], "Yes, stop")
        assert yes != stop
        assert errors(await service.press(BOB, yes))  # not at the table: nothing happens
        assert tid in service.tables
        stopped = await service.press(ALICE, yes)
        assert tid not in service.tables and "was stopped" in stopped[0].text
        assert errors(await service.press(ALICE, yes))  # stale: said, changes nothing
        # in French; a typed stop command is deliberate and stops at once
        elsa = User("test:elsa", "elsa", "fr-FR")
        other = table_id(await service.open_table(elsa, CHANNEL, SCOPE, "tower", players=2,
                                                  ai=1))
        asked = await service.press(elsa, f"{other}:0:q")
        assert [a.label for a in asked[0].actions] == ["Oui, arrêter"]
        assert "Arrêter la partie" in asked[0].text and other in service.tables
        await service.stop(elsa, other)
        assert other not in service.tables

    run(with_service(tmp_path / "db.sqlite", body))


def test_a_vote_to_stop_is_not_asked_twice(tmp_path: Path) -> None:
    from tests.service_helpers import BOB, started_table

    async def body(service: Service) -> None:
        tid = await started_table(service, ALICE, (BOB,))
        vote = await service.press(BOB, f"{tid}:0:q")  # bob is not the host: a vote
        assert not [a for m in vote for a in m.actions] and tid in service.tables
        asked = await service.press(ALICE, f"{tid}:0:q")  # the host: asked first
        assert asked[0].actions and tid in service.tables
        await service.press(ALICE, asked[0].actions[0].data)
        assert tid not in service.tables

    run(with_service(tmp_path / "db.sqlite", body))
