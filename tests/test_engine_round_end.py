"""The round's end and the set-up written out for the common case (issue 41) give what the
rules say: `pips` scoring, a target match's end, the next leader after a blocked round, a
hands-only deal's copy, and a lead laid without the checking path still refused when wrong."""

from __future__ import annotations

import random

import pytest

from core import IllegalMove, variants
from core.copying import copy_deal
from core.moves import LEAD, move_for
from core.scoring import MatchRules, match_over, round_points, units


@pytest.mark.parametrize("seed", range(40))
def test_pips_scoring_gives_each_winning_scorer_what_the_losers_hold(seed: int) -> None:
    rng = random.Random(seed)
    players = rng.choice((2, 3, 4))
    teams = ((0, 2), (1, 3)) if players == 4 and rng.random() < 0.5 else None
    scorers = units(players, teams)
    counts = [rng.randrange(0, 40) for _ in range(players)]
    winners = sorted(rng.sample(range(players), rng.randint(1, players)))
    won = [any(s in winners for s in unit) for unit in scorers]
    lost = sum(counts[s] for unit, w in zip(scorers, won, strict=True) if not w for s in unit)
    expected = [0] * len(scorers) if all(won) else [lost if w else 0 for w in won]
    assert round_points("out", winners, counts, MatchRules(), scorers) == expected


@pytest.mark.parametrize("countdown", [False, True])
def test_a_target_match_ends_when_a_total_reaches_the_target(countdown: bool) -> None:
    rules = MatchRules(target=100, countdown=countdown, start=200 if countdown else 0)
    far, near = ([150, 180], [100, 180]) if countdown else ([50, 99], [100, 3])
    assert not match_over(far, 1, rules)
    assert match_over(near, 1, rules)
    assert not match_over([0, 0], 50, MatchRules(target=100))  # no fixed number of rounds
    assert match_over([0, 0], 3, MatchRules(target=100, rounds=3))  # the general way still


def test_a_hands_only_deal_is_copied_list_by_list() -> None:
    deal = {"hands": [["6-6", "6-5"], ["5-5"]]}
    copied = copy_deal(deal)
    deal["hands"][0].append("4-4")
    deal["hands"].append(["3-3"])
    assert copied == {"hands": [["6-6", "6-5"], ["5-5"]]}
    mixed = {"hands": [["6-6"], ("5-5",)], "stock": ["1-1"]}
    assert copy_deal(mixed) == {"hands": [["6-6"], ["5-5"]], "stock": ["1-1"]}


def test_after_a_blocked_round_the_lower_of_two_tied_winners_leads() -> None:
    deal = {"hands": [["6-6", "5-5"], ["2-0"], ["1-1"]]}  # nobody can follow 6-6
    game = variants.get("classic").new(players=3, seed=1, deal=deal, draw="block",
                                       opening="any", target=500)
    game.play("6-6")
    last = game.round_results[-1]
    assert (last["reason"], last["winners"], last["counts"]) == ("blocked", [1, 2], [10, 2, 2])
    assert game.round_no == 2 and game.leader == 1 and game.to_move == 1


def test_a_lead_is_still_refused_when_it_is_not_the_tile_the_rules_name() -> None:
    deal = {"hands": [["6-6", "1-0"], ["5-5", "2-1"]]}
    game = variants.get("classic").new(players=2, seed=1, deal=deal, draw="block")
    wrong = move_for(0, game.ts.lookup["1-0"], LEAD)  # kind 0: a tile (PLAY)
    with pytest.raises(IllegalMove, match="opened with 6-6"):
        game.play(wrong)
    assert game.left < 0 and game.to_move == 0
    game.play(move_for(0, game.ts.lookup["6-6"], LEAD))
    assert (game.left, game.right) == (6, 6)
