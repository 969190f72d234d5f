"""Texas 42's specials as table options, on hand-built deals: doubles as trumps, follow-me,
nello's doubles, plunge and splash, the reshake, the straight preset and laying down."""

from __future__ import annotations

import pytest

from core import IllegalMove, OptionError, replay, variants
from core.tiles import Tile
from core.tricks.calls import MARK
from tests.test_rules_tricks import SEED_DEAL, legal, tiles

# seat 0: four doubles (a plunge); seat 1: three (a splash); seats 2 and 3: none
DOUBLES_DEAL = {"hands": [
    ["6-6", "5-5", "4-4", "3-3", "6-5", "6-4", "5-4"],
    ["2-2", "1-1", "0-0", "6-0", "5-0", "4-0", "3-0"],
    ["6-3", "6-2", "6-1", "5-3", "5-2", "5-1", "4-3"],
    ["4-2", "4-1", "3-2", "3-1", "2-1", "2-0", "1-0"],
]}


def texas(deal=SEED_DEAL, **options):
    return variants.get("texas-42").new(seed=1, deal=deal, **options)


def winner_of_last(game) -> int:
    return game.view(None)["tricks"][-1]["winner"]


def test_doubles_as_trumps_make_a_suit_of_seven_with_6_6_highest() -> None:
    assert "trumps doubles" not in legal(_bid(texas(DOUBLES_DEAL), "bid 30"))
    game = texas(DOUBLES_DEAL, doubles_trumps=True)
    for text in ("bid 30", "pass", "pass", "pass"):
        game.play(text)
    assert "trumps doubles" in legal(game)
    game.play("trumps doubles")
    assert game.view(None)["trumps"] == "doubles"
    game.play("6-5")  # a six: 0-0 and the other doubles do not follow it
    assert legal(game) == tiles("6-0")
    for text in ("6-0", "6-1"):
        game.play(text)
    assert legal(game) == tiles(*DOUBLES_DEAL["hands"][3])  # void in sixes
    game.play("2-1")
    assert winner_of_last(game) == 0
    game.play("3-3")  # a trump led: the doubles must follow
    assert legal(game) == tiles("2-2", "1-1", "0-0")
    game.play("2-2")
    game.play("6-3")
    game.play("4-2")
    assert winner_of_last(game) == 0  # 3-3 beats 2-2
    game.play("6-4")
    game.play("4-0")
    game.play("6-2")
    game.play("4-1")  # 6-4 is a six: a four does not follow it
    assert winner_of_last(game) == 0


def test_follow_me_has_no_trumps_and_the_bidder_says_where_the_doubles_stand() -> None:
    assert not {"trumps follow-me", "trumps follow-me-low"} & legal(
        _bid(texas(), "bid 30"))
    for call, winner in (("follow-me", 0), ("follow-me-low", 3)):
        game = texas(follow_me=True)
        _bid(game, "bid 30")
        assert {"trumps follow-me", "trumps follow-me-low"} <= legal(game)
        game.play(f"trumps {call}")
        assert game.suits.trumps == 0
        game.play("4-4")
        assert legal(game) == tiles("4-2")
        game.play("4-2")
        game.play("5-4")
        assert legal(game) == tiles("6-4")  # 6-4 bears a 4: it follows
        game.play("6-4")
        assert winner_of_last(game) == winner  # doubles low: 6-4 beats 4-4


def _bid(game, bid: str):
    for text in (bid, "pass", "pass", "pass"):
        game.play(text)
    return game


def test_nello_doubles_high_low_or_a_suit_of_their_own() -> None:
    calls = {"trumps nello", "trumps nello-low", "trumps nello-doubles"}
    assert calls & legal(_bid(texas(nello=True), "bid 1 mark")) == {"trumps nello"}
    assert calls & legal(_bid(texas(nello=True, nello_doubles="low"), "bid 1 mark")) == {
        "trumps nello-low"}
    game = _bid(texas(nello=True, nello_doubles="any"), "bid 1 mark")
    assert calls <= legal(game)
    game.play("trumps nello-doubles")
    game.play("4-4")  # the doubles are a suit: a double must follow a double
    assert legal(game) == tiles("6-6")
    game.play("6-6")
    assert game.to_move == 3  # the partner (seat 2) sits out
    assert legal(game) == tiles("2-2", "1-1")
    game.play("1-1")
    assert winner_of_last(game) == 1
    # doubles low: 4-4 led is beaten by any four
    game = _bid(texas(nello=True, nello_doubles="low"), "bid 1 mark")
    game.play("trumps nello-low")
    for text in ("4-4", "4-2", "6-4"):
        game.play(text)
    assert winner_of_last(game) == 3 and game.view(None)["tricks"][0]["points"] == 11


def test_plunge_four_doubles_four_marks_the_partner_names_trumps_and_leads() -> None:
    game = texas(DOUBLES_DEAL, plunge=True, splash=True)
    assert {"bid plunge", "bid splash"} <= legal(game)
    game.play("bid plunge")
    assert game.view(None)["bids"][0]["bid"] == "plunge 4 marks" and game.high == 4 * MARK
    assert "bid plunge" not in legal(game) and "bid splash" in legal(game)  # 3 doubles
    for _ in range(3):
        game.play("pass")
    v = game.view(None)
    assert v["phase"] == "trumps" and game.to_move == 2 and v["contract"]["special"] == "plunge"
    assert "trumps nello" not in legal(game)
    game.play("trumps 6")
    assert game.to_move == 2 and game.view(None)["leader"] == 2
    while game.round_no == 1:
        game.play(game.legal_moves()[0])
    last = game.round_results[0]
    took_all = last["tricks_won"] == [7, 0]
    assert last["made"] == took_all and game.totals == ([4, 0] if took_all else [0, 4])


def test_splash_three_doubles_three_marks_or_two_over_the_last_mark_bid() -> None:
    game = texas(DOUBLES_DEAL, splash=True)
    assert "bid plunge" not in legal(game)  # plunge is off at this table
    game.play("bid 2 marks")
    assert "bid splash" in legal(game)
    game.play("bid splash")
    assert game.high == 4 * MARK and game.view(None)["bids"][1]["bid"] == "splash 4 marks"
    with pytest.raises(IllegalMove, match="doubles"):
        game.play("bid splash")  # seat 2 holds no double
    game.play("pass")
    game.play("pass")
    assert game.to_move == 3 and game.view(None)["contract"]["namer"] == 3
    game = texas(DOUBLES_DEAL, splash=True)
    game.play("pass")
    game.play("bid splash")
    assert game.high == 3 * MARK


def test_all_pass_reshake_deals_again_and_the_next_seat_deals() -> None:
    game = texas(all_pass="reshake")
    for _ in range(3):
        game.play("pass")
    assert "pass" in legal(game)  # no forced bid
    game.play("pass")
    v = game.view(None)
    assert v["redeals"] == 1 and v["dealer"] == 0 and v["round"] == 1 and game.to_move == 1
    assert v["phase"] == "bidding" and v["bids"] == []
    assert replay(game.record()).view(None) == v


def test_straight_preset_has_no_specials_and_specials_turns_them_all_on() -> None:
    v = variants.get("texas-42")
    with pytest.raises(OptionError, match="straight"):
        v.new(seed=1, preset="straight", nello=True)
    with pytest.raises(OptionError, match="straight"):
        v.new(seed=1, preset="straight", **{"follow-me": "on"})
    game = v.new(seed=1, deal=SEED_DEAL, preset="straight")
    assert legal(_bid(game, "bid 1 mark")) == {f"trumps {n}" for n in range(7)}
    game = v.new(seed=1, deal=DOUBLES_DEAL, preset="specials")
    assert {"bid plunge", "bid splash"} <= legal(game)
    _bid(game, "bid 1 mark")
    assert {"trumps doubles", "trumps follow-me", "trumps nello", "trumps sevens"} <= legal(game)
    assert replay(game.record()).view(None) == game.view(None)


def test_lay_down_ends_a_set_hand_on_the_bidding_team_turn() -> None:
    game = texas()
    _bid(game, "bid 1 mark")
    game.play("trumps 0")
    assert "lay down" not in legal(game)
    for text in ("4-1", "4-2", "5-4", "6-4"):
        game.play(text)
    assert "lay down" not in legal(game)  # set, but seat 3 does not bid
    with pytest.raises(IllegalMove, match="lay down"):
        game.play("lay down")
    game = texas(lay_down=True)
    _bid(game, "bid 1 mark")
    game.play("trumps 0")
    for text in ("4-1", "4-2", "5-4", "6-4"):
        game.play(text)
    assert game.to_move == 3 and "lay down" not in legal(game)  # an opponent leads
    game.play("6-0")
    assert "lay down" in legal(game)
    game.play("lay down")
    last = game.round_results[0]
    assert not last["made"] and game.totals == [0, 1] and game.round_no == 2
    assert replay(game.record()).view(None) == game.view(None)


def test_lay_down_when_the_bid_is_made_scores_it_made() -> None:
    game = texas(DOUBLES_DEAL, lay_down=True)
    _bid(game, "bid 30")
    game.play("trumps 6")
    while game.decided() is None or "lay down" not in legal(game):
        game.play(game.legal_moves()[0])
    assert game.decided() is True and game.taken[0] >= 30 and len(game.tricks) < 7
    game.play("lay down")
    assert game.round_results[0]["made"] and game.totals == [1, 0] and game.round_no == 2


@pytest.mark.parametrize("text", ["bid plunge", "bid splash", "lay down", "trumps doubles",
                                  "trumps follow-me", "trumps follow-me-low", "trumps nello",
                                  "trumps nello-low", "trumps nello-doubles", "trumps sevens"])
def test_special_calls_round_trip(text: str) -> None:
    game = texas()
    assert str(game.parse_move(text)) == text
    with pytest.raises(IllegalMove):
        game.play(text)


def test_a_tile_is_still_a_tile() -> None:
    assert texas().parse_move("6-4").tid == Tile(6, 4).id
