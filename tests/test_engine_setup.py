"""A new line match made from its set-up's blank match, and a one-round match scored when
first read (issue 41), give what the general way gives: the same states, views, totals and
results; options that only compare equal (True and 1) are still told apart."""

from __future__ import annotations

import random

import pytest

from core import OptionError, replay, variants
from core.copying import all_slots
from core.line.match import LineMatch
from core.scoring import round_points

CASES = [("classic", 2, {"draw": "block", "opening": "any"}),
         ("classic", 3, {}),
         ("classic", 2, {"target": 50}),
         ("partnership", 4, {"hand": 7, "opening": "any"}),
         ("partnership", 4, {"strict": True}),
         ("school", 2, {})]


def _deal(players: int, seed: int) -> dict[str, list[list[str]]]:
    tiles = [f"{a}-{b}" for a in range(7) for b in range(a + 1)]
    random.Random(seed).shuffle(tiles)
    return {"hands": [tiles[i * 6:(i + 1) * 6] for i in range(players)]}


def _state(game: LineMatch) -> dict[str, object]:
    """Every slot but the variant object, as plain values (lists compared by content)."""
    return {name: getattr(game, name) for name in all_slots(type(game))
            if name not in ("variant", "_rng") and hasattr(game, name)}


@pytest.mark.parametrize("slug,players,options", CASES)
@pytest.mark.parametrize("dealt", [False, True])
def test_a_match_from_the_blank_is_the_one_the_constructor_builds(
        slug: str, players: int, options: dict[str, object], dealt: bool) -> None:
    variant = variants.get(slug)
    for seed in range(6):
        deal = _deal(players, seed) if dealt else None
        made = variant.new(players=players, seed=seed, deal=deal, **options)
        opts, rules, mrules = variant._setup(players, dict(options))
        built = type(made)(variant, players, seed, dict(opts), rules, mrules, deal)
        assert _state(made) == _state(built)
        rng = random.Random(seed)
        while not made.over:
            assert made.view(made.to_move) == built.view(built.to_move)
            move = rng.choice(made.legal_moves())
            made.play(move)
            built.play(move)
        assert made.result == built.result and made.record() == built.record()


def test_a_caller_changing_its_deal_changes_nothing_in_the_match() -> None:
    deal = _deal(2, 1)
    game = variants.get("classic").new(players=2, seed=1, deal=deal)
    kept = game.record()["deal"]
    deal["hands"][0].append("9-9")
    deal["hands"].append(["6-6"])
    assert game.deal == kept == game.record()["deal"]
    assert game.deal["hands"] is not deal["hands"]


@pytest.mark.parametrize("first,then", [(True, 1), (1, True)])
def test_equal_options_of_another_type_are_checked_again(first: object, then: object) -> None:
    variant = variants.get("partnership")
    if first is True:
        variant.new(players=4, seed=1, strict=first)
        with pytest.raises(OptionError):
            variant.new(players=4, seed=1, strict=then)
    else:
        with pytest.raises(OptionError):
            variant.new(players=4, seed=1, strict=first)
        assert variant.new(players=4, seed=1, strict=then).rules.strict is True


@pytest.mark.parametrize("seed", range(30))
def test_a_one_round_match_is_scored_when_first_read_as_at_its_end(seed: int) -> None:
    variant = variants.get("classic")
    rng = random.Random(seed)
    lazy = variant.new(players=3, seed=seed, draw="block")
    while not lazy.over:
        lazy.play(rng.choice(lazy.legal_moves()))
    assert lazy._unscored  # nothing scored yet
    copied = lazy.copy()  # a copy scores it first: both hold it once
    assert not lazy._unscored and not copied._unscored
    assert copied.totals == lazy.totals and len(lazy.round_results) == 1
    last = lazy.round_results[0]
    points = round_points(last["reason"], last["winners"], last["counts"], lazy.mrules,
                          lazy.scorers)
    assert lazy.totals == points == last["points"] == last["totals"]
    again = replay(lazy.record())
    assert again.view(None) == lazy.view(None) and again.result == lazy.result


def test_a_one_round_match_read_through_its_view_scores_once() -> None:
    game = variants.get("classic").new(players=2, seed=4, draw="block")
    rng = random.Random(4)
    while not game.over:
        game.play(rng.choice(game.legal_moves()))
    first = game.view(None)  # the view reads the totals and the round: scored here
    assert game.view(None) == first and game.totals == game.round_results[0]["totals"]
    assert first["scores"] == game.result["scores"] and len(game.round_results) == 1
