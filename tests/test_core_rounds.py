"""Between two rounds: the lazily dealt next round, who opens it with opening=any,
and a match's record and result that callers may change without changing the match."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from core import OptionError, replay, variants
from core.line.match import LineMatch
from core.tiles import tile_set

PARTNERSHIP = {"hand": 7, "opening": "any"}


def new(slug: str, hands: list[list[str]], seed: int = 1, **options: Any) -> LineMatch:
    game = variants.get(slug).new(players=len(hands), seed=seed,
                                  deal={"hands": hands, "stock": []}, **options)
    assert isinstance(game, LineMatch)
    return game


def seat_two_goes_out(seed: int = 5) -> LineMatch:
    """Partnership, opening=any: 6-6 is led, seat 1 passes, seat 2 lays 6-5 and is out."""
    game = new("partnership", [["6-6", "0-0"], ["1-0"], ["6-5"], ["2-1"]], seed, **PARTNERSHIP)
    game.play("6-6")
    game.play("6-5 right")
    assert game.round_no == 2 and not game.over
    assert game._hands is None  # round 2 is not dealt yet: the tests below read it first
    return game


def all_views(game: LineMatch) -> list[dict[str, Any]]:
    return [game.view(seat) for seat in (None, 0, 1, 2, 3)]


def shuffled_hands(seed: int, players: int, hand: int) -> list[list[str]]:
    """Round 2's hands worked out apart from the engine: the first shuffle of the
    match's generator (round 1 came from `deal=`), dealt `hand` tiles a seat."""
    ts = tile_set(6)
    tiles = list(ts.ids)
    random.Random(seed).shuffle(tiles)
    return [sorted(ts.names[t] for t in tiles[i * hand:(i + 1) * hand]) for i in range(players)]


# -- the next round, dealt at the first call that needs it ----------------------------


def test_a_round_that_just_ended_shows_the_next_one_at_once() -> None:
    game = seat_two_goes_out()
    assert game.to_move == 2  # the seat that went out opens the next round
    assert game.turn == 2 and [m.text for m in game.moves] == ["6-6", "6-5 right"]
    view = game.view(None)
    assert view["round"] == 2 and view["board"] == [] and view["stock"] == 0
    assert view["hand_sizes"] == [7, 7, 7, 7] and view["sleeping"] == 0
    assert view["events"] == [{"type": "round", "round": 2, "leader": 2}]
    assert view["last_round"]["winners"] == [0, 2] and view["last_round"]["points"] == [4, 0]
    hands = [sorted(game.view(s)["hand"]) for s in range(4)]
    assert hands == shuffled_hands(5, 4, 7)


FIRST_CALLS: dict[str, Callable[[LineMatch], object]] = {
    "view(None)": lambda g: g.view(None),
    "view(3)": lambda g: g.view(3),
    "legal_moves": lambda g: g.legal_moves(),
    "record": lambda g: g.record(),
    "copy": lambda g: g.copy(),
    "hands": lambda g: g.hands,
    "stock": lambda g: g.stock,
    "sleeping": lambda g: g.sleeping,
    "parse_move": lambda g: g.parse_move("pass"),
    "result": lambda g: g.result,
}


@pytest.mark.parametrize("first", sorted(FIRST_CALLS))
def test_the_next_round_is_the_same_whatever_is_asked_first(first: str) -> None:
    reference = seat_two_goes_out()
    expected = all_views(reference)
    game = seat_two_goes_out()
    FIRST_CALLS[first](game)
    assert all_views(game) == expected
    assert game.record() == reference.record()
    assert sorted(game.view(2)["legal"]) == sorted(m.text for m in reference.legal_moves())


def test_a_copy_of_a_match_between_rounds_deals_the_same_round_on_its_own() -> None:
    game = seat_two_goes_out()
    twin = game.copy()  # taken before anything dealt round 2
    move = twin.legal_moves()[0]
    twin.play(move)
    assert game.turn == 2 and game.view(None)["board"] == []  # the original did not move
    assert sorted(game.view(2)["hand"]) == shuffled_hands(5, 4, 7)[2]
    game.play(move)
    assert all_views(game) == all_views(twin)
    twin.play(twin.legal_moves()[0])
    assert game.turn == 3 and twin.turn == 4


def test_the_record_of_a_match_between_rounds_replays_to_the_same_match() -> None:
    game = seat_two_goes_out()
    record = json.loads(json.dumps(game.record()))
    again = replay(record)
    assert all_views(again) == all_views(game)
    rng = random.Random(9)
    while not game.over:  # play the whole match out: both agree at every step
        move = rng.choice(game.legal_moves())
        game.play(move)
        again.play(move)
        assert game.to_move == again.to_move and game.round_no == again.round_no
    assert again.result == game.result and replay(game.record()).result == game.result


def test_tiles_are_conserved_in_a_lazily_dealt_round() -> None:
    game = seat_two_goes_out()
    every = 0
    for hand in game.hands:
        assert every & hand == 0
        every |= hand
    assert every | game.sleeping == tile_set(6).all_mask and game.stock == []


def test_a_leader_known_from_the_hands_still_deals_at_once() -> None:
    game = new("partnership", [["6-6", "0-0"], ["1-0"], ["6-5"], ["2-1"]], hand=7)
    game.play("6-6")
    game.play("6-5 right")
    assert game.round_no == 2
    assert game._hands is not None  # the holder of 6-6 leads: found from the hands
    assert game.legal_moves()[0].text == "6-6"


# -- who opens the next round with opening=any (docs/rules/partnership.md) -----------


def test_after_a_blocked_round_the_winning_seat_with_fewest_pips_opens() -> None:
    # pairs 0+2 (9 + 6 = 15) and 1+3 (8 + 5 = 13): 1+3 wins, seat 3 holds fewer pips
    game = new("partnership", [["6-6", "5-4"], ["4-4"], ["3-3"], ["2-2", "1-0"]], **PARTNERSHIP)
    game.play("6-6")
    assert game.round_no == 2 and game.view(None)["last_round"]["reason"] == "blocked"
    assert game.view(None)["last_round"]["winners"] == [1, 3]
    assert game.to_move == 3


def test_after_a_tied_round_the_seat_after_the_last_leader_opens() -> None:
    # pairs 0+2 (3 + 2) and 1+3 (4 + 1): nobody can follow 6-6, the round is tied
    game = new("partnership", [["6-6", "3-0"], ["4-0"], ["2-0"], ["1-0"]], **PARTNERSHIP)
    game.play("6-6")
    assert game.view(None)["last_round"]["points"] == [0, 0]
    assert game.round_no == 2 and game.to_move == 1


def test_without_pairs_the_seat_that_went_out_opens() -> None:
    game = new("classic", [["6-6", "0-0"], ["6-5"]], draw="block", opening="any", target=100)
    game.play("6-6")
    game.play("6-5 right")
    assert game.round_no == 2 and game.to_move == 1


# -- a match's own data stays its own -------------------------------------------------


def test_changing_a_record_or_the_given_deal_does_not_change_the_match() -> None:
    hands = [["6-6", "0-0"], ["1-0"], ["6-5"], ["2-1"]]
    deal: dict[str, Any] = {"hands": hands, "stock": []}
    game = variants.get("partnership").new(players=4, seed=3, deal=deal, **PARTNERSHIP)
    before = json.dumps(game.record())
    hands[0].append("5-5")
    deal["stock"] = ["4-4"]
    record = game.record()
    assert json.dumps(record) == before
    record["deal"]["hands"][1].append("3-3")
    record["deal"]["stock"].append("3-2")
    assert json.dumps(game.record()) == before
    assert replay(json.loads(before)).record() == json.loads(before)


def test_changing_a_result_does_not_change_the_match() -> None:
    game = new("partnership", [["6-6"], ["1-0"], ["6-5"], ["2-1"]], hand=6, scoring="round")
    game.play("6-6")
    assert game.over
    result = game.result
    assert result is not None
    frozen = json.dumps(result)
    result["winners"].append(1)
    result["scores"][0] = 99
    result["ranking"].reverse()
    result["team_scores"][1] = 7
    result["teams"][0].append(5)
    assert json.dumps(game.result) == frozen
    assert json.dumps(game.view(None)["result"]) == frozen
    assert json.dumps(game.record()["result"]) == frozen


# -- hand-built deals: the quick reading agrees with the checked one --------------------


@pytest.mark.parametrize(("hands", "stock", "message"), [
    ([["6-6", "6-5"], ["5-6", "1-0"]], [], "6-5 is dealt twice"),
    ([["6-6", "6-6"], ["1-0"]], [], "6-6 is dealt twice"),
    ([["6-6"], ["1-0"]], ["1-0"], "1-0 is dealt twice"),
    ([["6-6"], ["7-1"]], [], "not a tile of the double-6 set"),
    ([["6-6"], ["one"]], [], "not a tile"),
    ([[], []], [], "no tile in any hand"),
])
def test_a_bad_deal_is_refused_with_the_first_bad_tile(
        hands: list[list[str]], stock: list[str], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        variants.get("classic").new(players=2, seed=1, deal={"hands": hands, "stock": stock})


def test_a_deal_reads_tiles_in_either_order_and_as_tile_values() -> None:
    from core.tiles import Tile
    written = new("classic", [["4-6", "0-1"], ["6-6", "3-2"]], draw="block")
    values = variants.get("classic").new(
        players=2, seed=1, draw="block",
        deal={"hands": [[Tile(6, 4), "1-0"], ["6-6", "2:3"]], "stock": []})
    assert written.view(0)["hand"] == values.view(0)["hand"] == ["6-4", "1-0"]
    assert written.view(1)["hand"] == values.view(1)["hand"] == ["6-6", "3-2"]
    assert written.record()["deal"] == {"hands": [["4-6", "0-1"], ["6-6", "3-2"]], "stock": []}


def test_a_refused_option_value_stays_refused_after_an_equal_one_was_accepted() -> None:
    variant = variants.get("partnership")
    variant.new(players=4, seed=1, strict=True, hand=7)  # accepted, and its setup kept
    with pytest.raises(OptionError, match="'strict' must be true or false"):
        variant.new(players=4, seed=1, strict=1, hand=7)  # 1 == True, but not a yes/no
    with pytest.raises(OptionError, match="'hand' must be"):
        variant.new(players=4, seed=1, strict=True, hand=7.0)


def test_a_class_that_changes_the_start_of_a_round_gets_it_dealt_at_once() -> None:
    calls: list[int] = []

    class Counted(LineMatch):
        __slots__ = ()

        def _start_round(self, hands: list[int], stock: list[int], sleeping: int,
                         leader: int | None = None, lead: str | None = None) -> None:
            calls.append(len(hands))
            super()._start_round(hands, stock, sleeping, leader, lead)

    variant = variants.get("partnership")
    opts, rules, mrules = variant._setup(4, dict(PARTNERSHIP))
    deal = {"hands": [["6-6", "0-0"], ["1-0"], ["6-5"], ["2-1"]], "stock": []}
    game = Counted(variant, 4, 5, opts, rules, mrules, deal)
    game.play("6-6")
    game.play("6-5 right")
    assert calls == [4, 4] and game._hands is not None
    assert sorted(game.view(0)["hand"]) == shuffled_hands(5, 4, 7)[0]
    assert game.to_move == 2
