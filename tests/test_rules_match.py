"""Rules of the match variants (rubicon, nombres, poule, hongrois, cent-a-zero,
whist, qui-perd-gagne) on hand-built deals, and the match rules they share
(`core.scoring.MatchRules`, `MatchBase.add_points`)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from core import IllegalMove, OptionError, replay, variants
from core.ai import GreedyPlayer, make_player
from core.line.match import LineMatch
from core.scoring import MatchRules, match_over, nearest, round_points
from core.variants.whist import bredouille
from tests.test_rules_line import events, legal, new


def last_round(game: LineMatch) -> dict[str, Any]:
    summary = game.view(None)["last_round"]
    assert summary is not None
    return summary


def play_to_end(game: LineMatch, seed: int = 3) -> None:
    player = GreedyPlayer(seed)
    for _ in range(5000):
        if game.over:
            return
        game.play(player.choose(game))
    raise AssertionError("the match did not end")


# -- shared match rules ------------------------------------------------------------


SOLO = [(0,), (1,), (2,)]


def test_held_scoring_adds_every_hand_even_when_all_tie() -> None:
    rules = MatchRules(scoring="held", target=50, reach="loses")
    assert round_points("turns", [1], [5, 0, 9], rules, SOLO) == [5, 0, 9]
    assert round_points("blocked", [0, 1, 2], [4, 4, 4], rules, SOLO) == [4, 4, 4]


def test_others_scoring_gives_each_what_the_others_hold() -> None:
    rules = MatchRules(scoring="others", start=100, countdown=True, target=0)
    assert round_points("out", [0], [0, 17], rules, SOLO[:2]) == [17, 0]


def test_worst_scoring_gives_the_winners_what_the_worst_holds() -> None:
    rules = MatchRules(scoring="worst", rounds=5)
    assert round_points("blocked", [2], [8, 3, 0], rules, SOLO, worst=1) == [0, 0, 3]
    assert round_points("blocked", [0, 1, 2], [8, 3, 0], rules, SOLO, worst=1) == [0, 0, 0]


def test_kept_scoring_gives_the_winners_what_they_hold() -> None:
    rules = MatchRules(scoring="kept", target=150)
    assert round_points("out", [0, 2], [0, 3, 20, 0], rules, [(0, 2), (1, 3)]) == [20, 0]
    assert round_points("out", [0, 1], [5, 5], rules, SOLO[:2]) == [0, 0]  # a tie


def test_none_scoring_and_rounding_to_five() -> None:
    assert round_points("out", [0], [0, 9], MatchRules(scoring="none"), SOLO[:2]) == [0, 0]
    # 003: each loser's count is rounded to 5 on its own, then they are added up
    fives = MatchRules(scoring="pips", target=100, round_to=5)
    assert round_points("out", [0], [0, 12, 1], fives, SOLO) == [10, 0, 0]  # 10 + 0
    assert round_points("out", [0], [0, 13, 13], fives, SOLO) == [30, 0, 0]  # not 26 -> 25
    assert round_points("out", [0], [0, 11, 2], fives, SOLO) == [10, 0, 0]
    diff = MatchRules(scoring="difference", target=100, round_to=5)
    assert round_points("out", [0], [0, 12, 12], diff, SOLO) == [20, 0, 0]  # not 24 -> 25
    assert round_points("blocked", [0], [2, 10, 10], diff, SOLO) == [20, 0, 0]  # 8 -> 10 twice
    assert round_points("blocked", [0, 1], [3, 3, 11], diff, SOLO) == [10, 10, 0]


def test_rounding_to_the_nearest_five() -> None:
    assert [nearest(n, 5) for n in (15, 12, 13, 2, 3, 0, 27, 28)] == [15, 10, 15, 0, 5, 0, 25, 30]
    assert nearest(1, 2) == 2 and nearest(3, 2) == 4  # a half (never met with fives) goes up
    assert nearest(7, 1) == 7


def test_countdown_ends_at_or_below_the_target_and_the_lowest_wins() -> None:
    rules = MatchRules(scoring="others", start=100, countdown=True, target=0)
    assert rules.lowest_wins
    assert not match_over([3, 50], 4, rules)
    assert match_over([0, 50], 4, rules)
    assert match_over([-6, 50], 4, rules)


# -- rubicon -------------------------------------------------------------------------


def test_rubicon_laid_pips_add_up_and_exactly_the_goal_wins_the_pot() -> None:
    game = new("rubicon", [["6-6", "6-2", "0-0"], ["6-5", "5-1", "1-1"]], ["3-0"], goal=20)
    view = game.view(None)
    assert view["chips"] == [4, 4] and view["pot"] == 2  # one chip each into the pot
    assert "pot 2" in view["strip_extra"]
    game.play("6-6")
    assert {"type": "score", "seat": 0, "points": 12, "why": "laid"} in events(game)
    assert game.view(None)["scores"] == [12, 0]
    game.play("6-5 left")
    game.play("6-2 right")  # 12 + 8 = 20
    assert game.over
    result = game.result
    assert result is not None
    assert result["winners"] == [0] and result["scores"] == [20, 11]
    assert result["chips"] == [6, 4]
    assert game.view(None)["chips"] == [6, 4] and game.view(None)["pot"] == 0


def test_rubicon_overshooting_costs_a_chip_scores_nothing_and_play_goes_on() -> None:
    hands = [["6-6", "6-5", "0-0"], ["6-4", "4-4", "1-0"]]
    game = new("rubicon", hands, ["2-1"], goal=20)
    game.play("6-6")
    game.play("6-4 left")
    game.play("6-5 right")  # 12 + 11 = 23 > 20
    assert {"type": "over", "seat": 0} in events(game)
    assert game.round_no == 1 and game.to_move == 1
    view = game.view(None)
    assert view["scores"] == [12, 10]
    assert view["chips"] == [3, 4] and view["pot"] == 3
    game.play("4-4 left")  # 10 + 8 = 18: seat 1 still counts
    assert game.view(None)["scores"] == [12, 18]


def test_rubicon_overshoot_new_round_ends_the_round_at_once() -> None:
    hands = [["6-6", "6-5", "0-0"], ["6-4", "4-4", "1-0"]]
    game = new("rubicon", hands, ["2-1"], goal=20, overshoot="new-round")
    for move in ("6-6", "6-4 left", "6-5 right"):
        game.play(move)
    assert game.round_no == 2
    assert last_round(game)["reason"] == "over"
    assert game.view(None)["scores"] == [12, 10] and game.view(None)["chips"] == [3, 4]


def test_rubicon_overshoot_new_round_with_no_chip_to_pay_puts_the_player_out() -> None:
    """Issue 26: with new-round and no chip left, the match used to go on forever."""
    hands = [["6-6", "6-5", "0-0"], ["6-4", "4-4", "1-0"]]
    game = new("rubicon", hands, ["2-1"], goal=20, overshoot="new-round", chips=1)
    assert game.view(None)["chips"] == [0, 0]
    for move in ("6-6", "6-4 left", "6-5 right"):  # 12 + 11 > 20, and seat 0 cannot pay
        game.play(move)
    assert game.over
    result = game.result
    assert result is not None
    assert result["winners"] == [1] and result["ranking"] == [1, 0]
    assert result["scores"] == [12, 10] and result["chips"] == [0, 2]


def test_rubicon_overshoot_new_round_every_match_ends() -> None:
    """Two-player seeds where `normal` computers used to play for ever (totals near the goal,
    nobody able to pay, every round's heavy lead going past it) now end."""
    for seed in (3, 4, 11):
        game = variants.get("rubicon").new(players=2, seed=seed, overshoot="new-round")
        player = make_player("normal", seed)
        for _ in range(1000):
            if game.over:
                break
            game.play(player.choose(game))
        assert game.over, seed


def test_rubicon_a_stuck_player_may_buy_a_tile_for_a_chip() -> None:
    game = new("rubicon", [["6-6", "5-5"], ["1-0", "2-1"]], ["6-1", "3-3"])
    with pytest.raises(IllegalMove, match="no tile of yours fits"):
        game.play("buy")
    game.play("6-6")
    assert game.to_move == 1
    assert legal(game) == ["buy", "pass"]
    with pytest.raises(IllegalMove):
        game.play("1-0 left")
    game.play("buy")
    assert game.view(None)["chips"] == [4, 3] and game.view(None)["pot"] == 3
    assert events(game, 1)[-1] == {"type": "draw", "seat": 1, "count": 1, "tiles": ["6-1"]}
    assert events(game, 0)[-1] == {"type": "draw", "seat": 1, "count": 1}
    assert game.to_move == 1
    assert legal(game) == ["6-1 left"]
    game.play("6-1 left")
    assert game.view(None)["scores"] == [12, 7]


def test_rubicon_who_passed_is_not_asked_again_and_nobody_able_blocks_the_round() -> None:
    game = new("rubicon", [["6-6", "5-5"], ["1-0", "2-1"]], ["3-3", "4-4"])
    game.play("6-6")
    game.play("pass")
    assert game.to_move == 0 and legal(game) == ["buy", "pass"]  # 5-5 does not fit
    game.play("pass")
    assert game.round_no == 2
    assert last_round(game)["reason"] == "blocked"
    assert game.view(None)["chips"] == [4, 4]


def test_rubicon_without_chips_a_stuck_player_passes() -> None:
    game = new("rubicon", [["6-6", "5-5"], ["1-0", "2-1"]], ["3-3", "4-4"], chips=1)
    game.play("6-6")
    assert game.round_no == 2  # nobody could buy: the round was blocked at once
    assert game.view(None)["chips"] == [0, 0]


def test_rubicon_a_bought_tile_that_does_not_fit_with_no_chip_left_passes() -> None:
    game = new("rubicon", [["6-6", "5-5"], ["1-0", "2-1"]], ["3-3", "6-1"], chips=2)
    game.play("6-6")
    game.play("buy")  # 3-3 does not fit and seat 1 has no chip left
    assert game.view(None)["chips"] == [1, 0]
    assert {"type": "pass", "seat": 1} in events(game)
    assert game.to_move == 0 and legal(game) == ["buy", "pass"]


def test_rubicon_replays_with_bought_tiles() -> None:
    game = new("rubicon", [["6-6", "5-5"], ["1-0", "2-1"]], ["6-1", "3-3"])
    for move in ("6-6", "buy", "6-1 left"):
        game.play(move)
    again = replay(json.loads(json.dumps(game.record())))
    assert again.view(1) == game.view(1)


@pytest.mark.parametrize("slug", ["rubicon", "hongrois", "poule"])
def test_the_double_six_or_else_the_heaviest_tile_leads(slug: str) -> None:
    # 000: "le double-six ou le domino qui totalise le plus de points": 6-5 (11) before
    # 5-5 (10); on equal pips the double goes first (5-5 before 6-4)
    game = new(slug, [["5-5", "1-0"], ["6-5", "2-0"]], ["3-0"] if slug == "rubicon" else None)
    assert game.to_move == 1 and legal(game) == ["6-5"]
    game = new(slug, [["6-4", "1-0"], ["5-5", "2-0"]], ["3-0"] if slug == "rubicon" else None)
    assert game.to_move == 1 and legal(game) == ["5-5"]


# -- nombres ---------------------------------------------------------------------------


def test_nombres_each_gives_a_tile_back_before_the_heaviest_tile_leads() -> None:
    game = new("nombres", [["6-6", "1-0", "2-0"], ["5-5", "3-0", "4-0"],
                           ["6-5", "2-1", "3-1"]], ["4-4", "3-3"])
    assert game.to_move == 0
    assert sorted(legal(game)) == ["give 1-0", "give 2-0", "give 6-6"]
    with pytest.raises(IllegalMove, match="give"):
        game.play("6-6")
    with pytest.raises(IllegalMove, match="5-5 is not in your hand"):
        game.play("give 5-5")
    game.play("give 6-6")
    assert game.view(None)["stock"] == 3
    assert game.view(0)["hand"] == ["2-0", "1-0"]
    for seat in (None, 1, 2):  # nobody else learns which tile went back
        assert "6-6" not in json.dumps(game.view(seat))
    game.play("give 3-0")
    game.play("give 2-1")
    # 6-6 went back: "à défaut, le domino totalisant le plus de points": 6-5 (11), not 5-5
    assert game.to_move == 2
    assert legal(game) == ["6-5"]
    with pytest.raises(IllegalMove, match="before the first tile"):
        game.play("give 4-0")


def test_nombres_a_round_total_draws_a_tile() -> None:
    game = new("nombres", [["6-6", "6-4", "0-0"], ["6-2", "4-1", "1-1"],
                           ["2-2", "5-5", "3-2"]], ["3-3", "4-4", "5-0"])
    for move in ("give 0-0", "give 1-1", "give 5-5", "6-6"):
        game.play(move)
    assert game.view(None)["total"] == 12
    game.play("6-2 right")  # 12 + 8 = 20: seat 1 draws one tile
    assert game.view(None)["total"] == 20
    assert game.view(None)["strip_extra"] == "Total laid: 20"
    draws = [e for e in events(game, 1) if e["type"] == "draw"]
    assert len(draws) == 1 and draws[0]["seat"] == 1 and len(draws[0]["tiles"]) == 1
    assert game.view(None)["hand_sizes"] == [1, 2, 2]
    assert game.view(None)["stock"] == 5


def test_nombres_the_most_tiles_in_hand_wins_even_against_who_went_out() -> None:
    game = new("nombres", [["6-6", "1-0"], ["6-3", "2-2", "2-1"],
                           ["6-1", "3-3", "4-0", "5-0"]])
    for move in ("give 1-0", "give 2-1", "give 5-0", "6-6"):
        game.play(move)
    assert game.over
    result = game.result
    assert result is not None
    assert result["winners"] == [2]
    assert result["scores"] == [0, 2, 3]  # tiles kept
    assert result["ranking"] == [2, 1, 0]


def test_nombres_an_empty_stock_ends_the_round_with_the_most_tiles_winning() -> None:
    ended = 0
    for seed in range(40):
        game = variants.get("nombres").new(players=3, seed=seed)
        play_to_end(game, seed)
        summary = game.round_results[-1]
        sizes = summary["counts"]
        assert summary["winners"] == [s for s in range(3) if sizes[s] == max(sizes)]
        if summary["reason"] == "stock":
            ended += 1
            assert game.view(None)["stock"] == 0
    assert ended  # some games end on the empty stock


def test_nombres_player_counts() -> None:
    with pytest.raises(OptionError, match="3 to 5"):
        variants.get("nombres").new(players=2)
    for players, hand in ((3, 8), (4, 6), (5, 5)):
        assert variants.get("nombres").new(players=players, seed=2).view(None)[
            "hand_sizes"] == [hand] * players


# -- poule -------------------------------------------------------------------------------


def test_poule_scores_laid_pips_and_goes_on_after_a_player_is_out() -> None:
    game = new("poule", [["6-6", "6-5"], ["6-1", "5-4", "4-4", "3-2"]], rounds=1)
    game.play("6-6")
    assert game.view(None)["scores"] == [12, 0]
    game.play("6-1 left")
    game.play("6-5 right")  # seat 0 is out, the round goes on
    assert not game.over and game.to_move == 1
    game.play("5-4 right")
    game.play("4-4 right")  # 3-2 fits nowhere: nobody can play
    assert game.over
    result = game.result
    assert result is not None
    assert game.round_results[-1]["laid"] == [23, 24]
    assert result["winners"] == [1]
    assert result["scores"] == [23, 24]  # the worst (seat 0) holds nothing


def test_poule_the_round_winner_takes_the_worst_players_pips() -> None:
    game = new("poule", [["6-6", "6-5", "5-5"], ["6-1", "3-2", "4-3"]], rounds=1)
    for move in ("6-6", "6-1 left", "6-5 right", "5-5 right"):
        game.play(move)
    assert game.over
    result = game.result
    assert result is not None
    assert result["scores"] == [33 + 12, 7]  # 3-2 and 4-3 were left in seat 1's hand
    assert result["winners"] == [0]


def test_poule_plays_five_rounds_by_default() -> None:
    game = variants.get("poule").new(players=3, seed=5)
    assert game.view(None)["rounds"] == 5
    play_to_end(game)
    assert game.round_no == 5


# -- hongrois ----------------------------------------------------------------------------


def test_hongrois_a_turn_lays_as_many_tiles_as_it_can_and_the_round_is_one_turn_each() -> None:
    game = new("hongrois", [["6-6", "6-5", "5-4", "1-1"], ["4-2", "2-2", "0-0"]])
    game.play("6-6")
    assert game.to_move == 0
    game.play("6-5 left")
    game.play("5-4 left")
    assert game.to_move == 1  # 1-1 fits nowhere: the turn is over
    game.play("4-2 left")
    assert game.to_move == 1
    game.play("2-2 left")
    assert game.round_no == 2
    assert last_round(game)["reason"] == "turns"
    assert game.view(None)["scores"] == [2, 0]


def test_hongrois_an_empty_turn_counts_and_reaching_the_target_loses() -> None:
    game = new("hongrois", [["6-6", "1-1"], ["2-2", "3-0"]], target=7)
    game.play("6-6")
    assert game.over  # seat 1 could not play: its turn was empty, the round is over
    result = game.result
    assert result is not None
    assert result["scores"] == [2, 7]
    assert result["winners"] == [0] and result["ranking"] == [0, 1]


def test_hongrois_at_three_the_loser_leaves_and_the_others_play_on() -> None:
    game = new("hongrois", [["6-6", "1-1"], ["2-2", "3-0"], ["6-0", "5-5"]], target=9)
    game.play("6-6")
    assert game.to_move == 2
    game.play("6-0 left")
    assert game.round_no == 2
    view = game.view(None)
    assert view["scores"] == [2, 7, 10]
    assert view["gone"] == [2]
    assert view["hand_sizes"][2] == 0 and view["hand_sizes"][0] == 8
    while not game.over:
        assert game.to_move != 2
        game.play(game.legal_moves()[0])
    result = game.result
    assert result is not None
    assert result["ranking"][-1] == 2
    assert set(result["winners"]) <= {0, 1}


def test_hongrois_when_all_cross_together_the_lowest_total_wins() -> None:
    game = new("hongrois", [["6-6", "1-1"], ["2-2", "3-0"], ["6-0", "5-5"]], target=1)
    game.play("6-6")
    game.play("6-0 left")
    assert game.over
    result = game.result
    assert result is not None
    assert result["winners"] == [0] and result["ranking"] == [0, 1, 2]


# -- cent-a-zero -------------------------------------------------------------------------


def test_cent_a_zero_takes_each_hand_off_the_opponents_total() -> None:
    hands = [["6-6", "6-1"], ["5-5", "4-3"]]
    game = new("cent-a-zero", hands)
    assert game.view(None)["scores"] == [100, 100]
    assert "count down from 100" in game.view(None)["strip_extra"]
    game.play("6-6")
    game.play("6-1 left")  # seat 1 could not play (empty stock): seat 0 is out
    assert game.round_no == 2
    assert game.view(None)["scores"] == [83, 100]
    short = new("cent-a-zero", hands, start=17)
    short.play("6-6")
    short.play("6-1 left")
    assert short.over
    result = short.result
    assert result is not None
    assert result["winners"] == [0] and result["scores"] == [0, 17]


# -- whist and qui-perd-gagne -----------------------------------------------------------------


WHIST = [["6-6"], ["1-0"], ["5-5", "6-4"], ["2-0"]]


def test_whist_the_lighter_team_wins_the_round_even_if_the_other_went_out() -> None:
    game = new("whist", WHIST)
    game.play("6-6")  # seat 0 is out, but its partner holds 20 pips against 3
    assert game.round_no == 2
    assert last_round(game)["winners"] == [1, 3]
    assert game.view(None)["team_scores"] == [0, 20]


@pytest.mark.parametrize("slug", ["whist", "qui-perd-gagne"])
def test_whist_later_rounds_are_led_in_turn_with_any_tile(slug: str) -> None:
    # the book is silent: the glossary's "MANCHE" passes the lead to the next player
    game = new(slug, WHIST)
    game.play("6-6")  # round 1 ends at once
    assert game.round_no == 2 and game.to_move == 1
    assert len(legal(game)) == 6  # any of the six tiles dealt


def test_qui_perd_gagne_the_heavier_team_wins_and_scores_the_others_pips() -> None:
    # "On joue comme au Domino Whist": the winning team scores the other team's pips
    game = new("qui-perd-gagne", WHIST)
    game.play("6-6")
    assert last_round(game)["winners"] == [0, 2]
    assert game.view(None)["team_scores"] == [3, 0]
    kept = new("qui-perd-gagne", WHIST, score_kept=True)  # our older reading, as an option
    kept.play("6-6")
    assert kept.view(None)["team_scores"] == [20, 0]


def test_whist_deals_six_with_four_sleeping_and_plays_to_150() -> None:
    view = variants.get("whist").new(seed=3).view(None)
    assert view["hand_sizes"] == [6, 6, 6, 6] and view["sleeping"] == 4 and view["stock"] == 0
    assert view["teams"] == [[0, 2], [1, 3]] and view["target"] == 150


def test_whist_grande_bredouille() -> None:
    game = new("whist", WHIST, target=20)
    game.play("6-6")
    result = game.result
    assert result is not None
    assert result["winners"] == [1, 3] and result["bredouille"] == "grande"


def test_bredouille_names() -> None:
    assert bredouille([150, 0], [[30, 0], [120, 0]]) == "grande"
    assert bredouille([160, 12], [[30, 0], [0, 12], [130, 0]]) == "petite"
    assert bredouille([160, 30], [[30, 0], [0, 12], [130, 0], [0, 18]]) is None


# -- all of them ---------------------------------------------------------------------------


MINE = ("rubicon", "nombres", "hongrois", "cent-a-zero", "poule", "whist", "qui-perd-gagne")


@pytest.mark.parametrize("slug", MINE)
def test_computer_players_finish_a_match_and_it_replays(slug: str) -> None:
    v = variants.get(slug)
    for seed in range(3):
        game = v.new(players=v.max_players, seed=seed)
        play_to_end(game, seed)
        result = game.result
        assert result is not None and result["winners"]
        again = replay(json.loads(json.dumps(game.record())))
        assert again.result == result
