"""Texas 42's specials called with buttons only, through the service, in French and English:
doubles as trumps, follow-me, nello, plunge and splash."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.service.messages import parse_action
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
from tests.test_rules_texas_specials import DOUBLES_DEAL
from tests.test_rules_tricks import SEED_DEAL
from tests.test_service_families import ELSA, build

CALLS = {  # the call -> (the deal, the bid made first, the trumps named after it)
    "plunge": (DOUBLES_DEAL, "bid plunge", None),
    "splash": (DOUBLES_DEAL, "bid splash", None),
    "doubles": (SEED_DEAL, "bid 2 marks", "trumps doubles"),
    "follow-me": (SEED_DEAL, "bid 2 marks", "trumps follow-me-low"),
    "nello": (SEED_DEAL, "bid 2 marks", "trumps nello-doubles"),
}
LABELS = {  # a word each button of the call shows, per language
    "en": {"plunge": "plunge", "splash": "splash", "doubles": "doubles",
           "follow-me": "follow-me", "nello": "nello"},
    "fr": {"plunge": "plunge", "splash": "splash", "doubles": "doubles",
           "follow-me": "sans atout", "nello": "nello"},
}


async def labels_pressed(service: Service, user: User, tid: int, move: str) -> list[str]:
    """The labels of the buttons that build `move` (as `build` presses them), then play it."""
    seen = []
    hand = hand_message(await service.hand(user, tid), user)
    assert hand is not None
    for a in hand.actions:
        if parse_action(a.data)[3] == move or move.startswith(parse_action(a.data)[3] + " "):
            seen.append(a.label)
    replies = await build(service, user, tid, move)
    assert not errors(replies), errors(replies)
    return seen


@pytest.mark.parametrize("call", sorted(CALLS))
@pytest.mark.parametrize("user", [ALICE, ELSA], ids=["en", "fr"])
def test_a_player_calls_each_special_by_buttons(tmp_path: Path, call: str, user: User) -> None:
    deal, bid, trumps = CALLS[call]
    lang = "fr" if user is ELSA else "en"

    async def body(service: Service) -> None:
        opened = await service.open_table(user, CHANNEL, SCOPE, "texas-42", players=4, ai=3,
                                          options="preset=specials nello_doubles=any")
        tid = table_id(opened)
        table = service.tables[tid]
        assert table.game.turn == 0 and table.game.to_move == 0
        table.game = variants.get("texas-42").new(
            players=4, seed=table.row.seed, deal=deal, **table.row.options)
        labels = await labels_pressed(service, user, tid, bid)
        game = service.tables[tid].game
        if trumps is None:
            assert game.bids[0][0] == 0 and game.bids[0][2]  # seat 0's bid is the special
            assert game.view(None)["bids"][0]["bid"].startswith(call)
        else:
            assert game.holder == 0 and game.to_move == 0 and game.phase == "trumps"
            labels += await labels_pressed(service, user, tid, trumps)
            assert game.trumps_word() == trumps.split()[1]
        assert any(LABELS[lang][call] in label.lower() for label in labels), labels
        assert all(len(a.data.encode()) <= 64 for m in [hand_message(
            await service.hand(user, tid), user)] if m for a in m.actions)

    run(with_service(tmp_path / "db.sqlite", body))


@pytest.mark.parametrize(("lang", "move", "words"), [
    ("en", "bid plunge", "Bid plunge"), ("fr", "bid splash", "Enchère splash"),
    ("en", "trumps follow-me", "Trumps: follow-me, doubles high"),
    ("fr", "trumps nello-low", "Atout : nello, doubles bas"), ("fr", "lay down", "Abattre"),
    ("en", "trumps doubles", "Trumps: doubles")])
def test_a_hint_names_the_special_in_the_player_language(lang: str, move: str, words: str
                                                         ) -> None:
    from bot.service.words import move_words

    assert move_words(lang, move) == words
