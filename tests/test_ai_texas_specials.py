"""Computer players call Texas 42's specials when the table offers them: the greedy level's
simple rules (plunge with four doubles, nello with a low hand, lay down when decided) and
the searchers' imagined deals (doubles as trumps, nello)."""

from __future__ import annotations

import pytest

from core import variants
from core.ai import make_player
from tests.test_rules_texas_specials import DOUBLES_DEAL
from tests.test_rules_tricks import SEED_DEAL

# seat 0: every double; seat 2: the lowest tiles (a nello hand)
ALL_DOUBLES = {"hands": [
    ["6-6", "5-5", "4-4", "3-3", "2-2", "1-1", "0-0"],
    ["6-5", "6-4", "6-3", "6-2", "6-1", "6-0", "5-4"],
    ["1-0", "2-0", "2-1", "3-0", "3-1", "4-0", "3-2"],
    ["5-3", "5-2", "5-1", "5-0", "4-3", "4-2", "4-1"],
]}


def texas(deal, **options):
    return variants.get("texas-42").new(seed=3, deal=deal, **options)


def test_normal_plunges_with_four_doubles() -> None:
    game = texas(DOUBLES_DEAL, plunge=True)
    assert make_player("normal", 1).choose(game).text == "bid plunge"
    game = texas(DOUBLES_DEAL)
    assert make_player("normal", 1).choose(game).text != "bid plunge"


def test_normal_bids_a_mark_for_nello_with_a_low_hand_and_names_it() -> None:
    game = texas(ALL_DOUBLES, nello=True, nello_doubles="any")
    game.play("pass")
    game.play("pass")
    bot = make_player("normal", 1)
    assert bot.choose(game).text == "bid 1 mark"  # seat 2: the seven lowest tiles
    game.play("bid 1 mark")
    game.play("pass")
    assert game.to_move == 2 and bot.choose(game).text.startswith("trumps nello")


@pytest.mark.parametrize("level", ["hard", "expert"])
def test_the_searchers_name_doubles_when_they_hold_them_all(level: str) -> None:
    game = texas(ALL_DOUBLES, doubles_trumps=True)
    for text in ("bid 2 marks", "pass", "pass", "pass"):
        game.play(text)
    assert make_player(level, 1).choose(game).text == "trumps doubles"


@pytest.mark.parametrize("level", ["hard", "expert"])
def test_the_searchers_name_nello_with_a_hand_that_takes_nothing(level: str) -> None:
    game = texas(ALL_DOUBLES, nello=True)
    for text in ("pass", "pass", "bid 1 mark", "pass"):
        game.play(text)
    assert game.to_move == 2
    assert make_player(level, 1).choose(game).text == "trumps nello"


@pytest.mark.parametrize("level", ["normal", "hard", "expert"])
def test_every_level_but_easy_lays_a_decided_hand_down(level: str) -> None:
    game = texas(SEED_DEAL, lay_down=True)
    for text in ("bid 1 mark", "pass", "pass", "pass", "trumps 0", "4-1", "4-2", "5-4", "6-4",
                 "6-0"):
        game.play(text)
    assert "lay down" in [m.text for m in game.legal_moves()]
    assert make_player(level, 1).choose(game).text == "lay down"


def test_win_chances_count_a_lay_down_as_the_hand_stands() -> None:
    from core.ai.chances import win_chances

    game = texas(SEED_DEAL, lay_down=True)
    for text in ("bid 1 mark", "pass", "pass", "pass", "trumps 0", "4-1", "4-2", "5-4", "6-4",
                 "6-0"):
        game.play(text)
    chances = win_chances(game, 4, seed=1)
    assert chances is not None and chances["lay down"] == 0.0  # set: the hand is lost


@pytest.mark.parametrize("level", ["hard", "expert"])
def test_the_searchers_plunge_with_every_double(level: str) -> None:
    game = texas(ALL_DOUBLES, preset="specials")  # the partner may name doubles
    assert make_player(level, 1).choose(game).text == "bid plunge"
