"""Rules of the six line-game variants, each on a hand-built deal (`deal=`)."""

from __future__ import annotations

from typing import Any

import pytest

from core import IllegalMove, OptionError, variants
from core.line.match import LineMatch
from core.moves import LEAD, PLAY, move_for
from core.tiles import Tile


def new(slug: str, hands: list[list[str]], stock: list[str] | None = None,
        **options: Any) -> LineMatch:
    game = variants.get(slug).new(players=len(hands), seed=1,
                                  deal={"hands": hands, "stock": stock or []}, **options)
    assert isinstance(game, LineMatch)
    return game


def legal(game: LineMatch) -> list[str]:
    return [str(m) for m in game.legal_moves()]


def events(game: LineMatch, seat: int | None = None) -> list[dict[str, Any]]:
    return game.view(seat)["events"]


# -- classic: leading -------------------------------------------------------------


def test_highest_double_leads_and_must_be_laid_first() -> None:
    game = new("classic", [["5-5", "6-4", "1-0"], ["6-6", "2-1"], ["3-3", "6-5"]])
    assert game.to_move == 1
    assert legal(game) == ["6-6"]
    with pytest.raises(IllegalMove, match="opened with 6-6"):
        game.play("2-1")


def test_heaviest_tile_leads_when_nobody_holds_a_double() -> None:
    game = new("classic", [["6-4", "1-0"], ["6-5", "3-2"]], draw="block")
    assert game.to_move == 1
    assert legal(game) == ["6-5"]


def test_opening_any_lets_seat_zero_lead_any_tile() -> None:
    game = new("classic", [["1-0", "2-1"], ["6-6", "3-2"]], opening="any", draw="block")
    assert game.to_move == 0
    assert sorted(legal(game)) == ["1-0", "2-1"]


# -- classic: drawing and blocking --------------------------------------------------


def test_draw_until_playable_keeps_the_drawn_tiles_and_shows_them_only_to_the_drawer() -> None:
    game = new("classic", [["6-6", "5-5"], ["1-0", "2-1"]], ["3-0", "6-2", "4-4"])
    game.play("6-6")
    assert game.to_move == 1
    assert legal(game) == ["6-2 left"]  # both ends are 6: one placement is listed
    assert game.view(1)["hand"] == ["6-2", "3-0", "2-1", "1-0"]
    assert events(game, 1)[0] == {"type": "draw", "seat": 1, "count": 2, "tiles": ["3-0", "6-2"]}
    assert events(game, 0)[0] == {"type": "draw", "seat": 1, "count": 2}
    assert game.view(None)["stock"] == 1
    game.play("6-2 left")
    # seat 0 cannot play 5-5 on 2 or 6: draws the last tile (4-4), still cannot, passes
    assert game.to_move == 1
    assert game.view(0)["hand"] == ["5-5", "4-4"]
    assert [e["type"] for e in events(game)] == ["draw", "pass"]
    assert legal(game) == ["2-1 left"]


def test_block_game_passes_and_a_blocked_line_goes_to_the_lowest_pip_count() -> None:
    game = new("classic", [["6-6", "0-0"], ["5-5", "1-1"]], draw="block")
    game.play("6-6")
    assert game.over
    result = game.result
    assert result is not None
    assert result["winners"] == [0]
    assert result["reason"] == "blocked"
    assert result["scores"] == [12, 0]  # the winner scores the loser's pips
    assert result["ranking"] == [0, 1]


def test_blocked_tie_lists_every_tied_seat_and_scores_nothing() -> None:
    game = new("classic", [["6-6", "2-1"], ["3-0"]], draw="block")
    game.play("6-6")
    assert game.result is not None
    assert game.result["winners"] == [0, 1]
    assert game.result["scores"] == [0, 0]


def test_count_tiles_decides_a_blocked_game_by_tiles_in_hand() -> None:
    hands = [["6-6", "1-0", "2-0"], ["5-5"]]
    by_pips = new("classic", hands, draw="block")
    by_tiles = new("classic", hands, draw="block", count="tiles")
    by_pips.play("6-6")
    by_tiles.play("6-6")
    assert by_pips.result is not None and by_tiles.result is not None
    assert by_pips.result["winners"] == [0]  # 3 pips against 10
    assert by_tiles.result["winners"] == [1]  # 1 tile against 2
    assert by_tiles.result["scores"] == [0, 2]  # the winner scores the loser's tiles


def test_first_out_wins_and_scores_every_other_hand() -> None:
    game = new("classic", [["6-6", "6-1"], ["5-5", "2-0"], ["4-4", "3-3"]], draw="block")
    game.play("6-6")  # seats 1 and 2 cannot play: seat 0 plays again
    assert game.to_move == 0
    game.play("6-1 left")
    assert game.result is not None
    assert game.result["winners"] == [0]
    assert game.result["reason"] == "out"
    assert game.result["scores"] == [10 + 2 + 8 + 6, 0, 0]
    assert game.result["ranking"] == [0, 1, 2]


def test_illegal_moves_say_why() -> None:
    game = new("classic", [["6-6", "6-1", "2-0"], ["5-5", "6-3"]], draw="block")
    game.play("6-6")
    game.play("6-3 left")
    with pytest.raises(IllegalMove, match="not in your hand"):
        game.play("5-5 left")
    with pytest.raises(IllegalMove, match="does not match the left end"):
        game.play("2-0 left")
    with pytest.raises(IllegalMove, match="say which end"):
        game.play(move_for(PLAY, Tile(2, 0).id, LEAD))
    with pytest.raises(IllegalMove, match="not a move"):
        game.play("hello")
    with pytest.raises(IllegalMove, match="too long"):
        game.play("6-1 left" * 100)
    assert game.turn == 2 and game.to_move == 0


def test_a_tile_that_fits_one_end_needs_no_end_and_one_that_fits_both_must_name_it() -> None:
    game = new("classic", [["6-6", "6-3", "0-0"], ["6-5", "5-3", "1-1"]], draw="block")
    game.play("6-6")
    game.play("6-5")  # both ends show 6: a single placement
    assert game.view(None)["board"] == ["5-6", "6-6"]
    assert str(game.parse_move("6-3")) == "6-3 right"
    game.play("6-3")
    assert game.view(None)["ends"] == [5, 3]
    with pytest.raises(IllegalMove, match="fits both ends"):
        game.parse_move("5-3")
    game.play("5-3 right")
    assert game.view(None)["board"] == ["5-6", "6-6", "6-3", "3-5"]


# -- classic: matches over several rounds -------------------------------------------


def test_match_to_a_target_adds_rounds_and_rotates_the_lead() -> None:
    game = new("classic", [["6-6"], ["5-4", "1-0"]], draw="block", target=1000)
    game.play("6-6")
    assert not game.over
    assert game.round_no == 2
    assert game.view(None)["scores"] == [10, 0]
    assert game.round_results[0]["points"] == [10, 0]
    assert game.to_move == 1  # the lead passes to the next seat...
    assert len(game.legal_moves()) == 7  # ...who may lead any tile
    assert game.view(None)["last_round"]["hands"] == [[], ["5-4", "1-0"]]


def test_round_scoring_gives_one_point_a_round_and_ends_at_the_target() -> None:
    game = new("classic", [["6-6"], ["5-4", "1-0"]], draw="block", target=1, scoring="round")
    game.play("6-6")
    assert game.over
    assert game.result is not None
    assert game.result["scores"] == [1, 0]
    assert game.result["winners"] == [0]


def test_bigger_sets() -> None:
    game = variants.get("classic").new(players=4, seed=3, set=9)
    assert game.view(None)["set"] == 9
    assert sum(game.view(None)["hand_sizes"]) + game.view(None)["stock"] == 24 + 31
    with pytest.raises(OptionError, match="set"):
        variants.get("classic").new(players=2, set=7)


def test_options_and_player_counts_are_checked() -> None:
    classic = variants.get("classic")
    with pytest.raises(OptionError, match="2 to 5 players"):
        classic.new(players=9)
    with pytest.raises(OptionError, match="'draw' must be draw, block"):
        classic.new(players=2, draw="sometimes")
    with pytest.raises(OptionError, match="no option 'colour'"):
        classic.new(players=2, colour="red")
    with pytest.raises(OptionError, match="exactly 2 players"):
        variants.get("tete-a-tete").new(players=3)
    with pytest.raises(OptionError, match="dealt twice"):
        new("classic", [["6-6"], ["6-6"]])
    with pytest.raises(OptionError, match="not a tile"):
        new("classic", [["6-6"], ["x"]])
    with pytest.raises(OptionError, match="need 35 tiles"):
        classic.new(players=5, hand=7)


# -- tete-a-tete ---------------------------------------------------------------------


def test_tete_a_tete_deals_seven_each_with_a_stock() -> None:
    view = variants.get("tete-a-tete").new(seed=5).view(None)
    assert view["players"] == 2
    assert view["hand_sizes"] == [7, 7]
    assert view["stock"] == 14


# -- magnetic -------------------------------------------------------------------------


def test_magnetic_draws_one_and_passes_even_if_it_fits() -> None:
    game = new("magnetic", [["6-6", "0-0"], ["1-1", "2-2"]], ["6-1", "3-3"])
    game.play("6-6")
    # seat 1 draws 6-1 (it fits) but passes; seat 0 draws 3-3 and passes; seat 1 plays
    assert [(e["type"], e.get("seat")) for e in events(game)] == [
        ("draw", 1), ("pass", 1), ("draw", 0), ("pass", 0)]
    assert game.to_move == 1
    assert legal(game) == ["6-1 left"]


def test_magnetic_hand_sizes() -> None:
    magnetic = variants.get("magnetic")
    assert sum(magnetic.new(players=2, seed=1).view(None)["hand_sizes"]) == 14
    assert sum(magnetic.new(players=3, seed=1).view(None)["hand_sizes"]) == 18


def test_magnetic_rounds_add_what_the_losers_hold_and_the_lowest_total_wins() -> None:
    game = new("magnetic", [["6-6"], ["5-4", "1-0"]], rounds=2)
    game.play("6-6")
    assert game.round_no == 2
    assert game.view(None)["scores"] == [0, 10]  # penalty: the loser notes 10
    while not game.over:
        game.play(game.legal_moves()[0])
    result = game.result
    assert result is not None
    best = min(result["scores"])
    assert result["winners"] == [s for s in (0, 1) if result["scores"][s] == best]


# -- school -----------------------------------------------------------------------------


def test_school_one_and_pass_draws_a_single_tile() -> None:
    hands = [["6-6", "0-0"], ["1-1", "2-2"]]
    stock = ["3-3", "6-1", "4-4"]
    one = new("school", hands, stock, draw="one-and-pass")
    until = new("school", hands, stock)
    one.play("6-6")
    until.play("6-6")
    # one-and-pass: 1 draws 3-3, 0 draws 6-1 (it fits, but passes), 1 draws 4-4; 0 plays
    assert [(e["type"], e["seat"]) for e in events(one)] == [
        ("draw", 1), ("pass", 1), ("draw", 0), ("pass", 0), ("draw", 1), ("pass", 1)]
    assert one.to_move == 0 and legal(one) == ["6-1 left"]
    assert one.view(None)["hand_sizes"] == [2, 4]
    # until-playable: 1 draws 3-3 then 6-1, and plays it
    assert until.to_move == 1 and legal(until) == ["6-1 left"]
    assert until.view(None)["stock"] == 1


def test_school_chain_turns_lowest_double_leads_and_lays_as_many_as_it_can() -> None:
    game = new("school", [["1-1", "1-2", "5-5"], ["0-0", "0-4", "4-3"]], ["6-6"],
               chain_turns=True)
    assert game.to_move == 1 and legal(game) == ["0-0"]
    game.play("0-0")
    assert game.to_move == 1  # still seat 1's turn
    game.play("4-0 left")
    assert game.to_move == 1
    game.play("4-3 left")
    assert game.over and game.result is not None and game.result["winners"] == [1]


def test_school_chain_turns_draw_one_and_play_it_if_it_fits() -> None:
    game = new("school", [["1-1", "6-5"], ["0-0", "3-3"]], ["5-0", "4-4"], chain_turns=True)
    game.play("0-0")  # seat 1 cannot go on; seat 0 cannot play: draws 5-0, which fits
    assert game.to_move == 0
    assert events(game, 0)[0]["tiles"] == ["5-0"]
    assert legal(game) == ["5-0 left"]
    game.play("5-0 left")
    assert game.to_move == 0 and legal(game) == ["6-5 left"]  # and goes on laying


# -- sans-pioche ------------------------------------------------------------------------


def test_sans_pioche_hand_sizes_and_no_stock() -> None:
    for players, size in ((2, 12), (3, 8), (4, 6), (5, 5)):
        view = variants.get("sans-pioche").new(players=players, seed=2).view(None)
        assert view["stock"] == 0
        assert sum(view["hand_sizes"]) == players * size
        assert view["sleeping"] == 28 - players * size


def test_sans_pioche_eliminates_who_cannot_play_and_the_last_one_left_wins() -> None:
    game = new("sans-pioche", [["6-6", "6-5", "0-0"], ["1-1"], ["2-2"]])
    game.play("6-6")
    assert game.over
    result = game.result
    assert result is not None
    assert result["winners"] == [0] and result["reason"] == "last"
    assert result["ranking"] == [0, 2, 1]  # seat 2 was eliminated last


def test_sans_pioche_first_out_still_wins() -> None:
    game = new("sans-pioche", [["6-6", "6-1"], ["2-2", "3-3"], ["6-2", "4-4"]])
    game.play("6-6")
    assert game.view(None)["eliminated"] == [1]
    game.play("6-2 left")
    game.play("6-1 right")
    assert game.result is not None
    assert game.result["winners"] == [0] and game.result["reason"] == "out"


# -- partnership --------------------------------------------------------------------------


BLOCKED = [["6-6", "0-0"], ["1-1", "1-0"], ["2-2"], ["3-3"]]


@pytest.mark.parametrize(("scoring", "points"), [("pips", 9), ("round", 1), ("difference", 5)])
def test_partnership_blocked_round_goes_to_the_pair_with_fewer_pips(scoring: str,
                                                                      points: int) -> None:
    game = new("partnership", BLOCKED, scoring=scoring, target=50)
    game.play("6-6")
    first = game.round_results[0]
    assert first["reason"] == "blocked"
    assert first["winners"] == [0, 2]  # 0 + 4 pips against 3 + 6
    assert first["points"] == [points, 0]
    assert game.view(None)["team_scores"] == [points, 0]
    assert game.view(None)["scores"] == [points, 0, points, 0]


def test_partnership_deals_six_with_four_sleeping_or_all_seven() -> None:
    six = variants.get("partnership").new(seed=4).view(None)
    seven = variants.get("partnership").new(seed=4, hand=7).view(None)
    assert six["sleeping"] == 4 and sum(six["hand_sizes"]) == 24
    assert seven["sleeping"] == 0 and sum(seven["hand_sizes"]) == 28
    assert six["teams"] == [[0, 2], [1, 3]]


def test_partnership_strict_goes_on_until_both_partners_are_out() -> None:
    hands = [["6-6"], ["6-1", "1-1"], ["1-0", "5-5"], ["0-3", "3-3"]]
    loose = new("partnership", hands)
    loose.play("6-6")
    assert loose.round_results[0]["winners"] == [0, 2]
    strict = new("partnership", hands, strict=True)
    strict.play("6-6")
    assert strict.round_no == 1 and strict.to_move == 1
    assert strict.view(None)["out"] == [0]
    while strict.round_no == 1 and not strict.over:
        assert strict.to_move != 0
        strict.play(strict.legal_moves()[0])
    assert strict.round_results[0]["reason"] in {"out", "blocked"}


def test_partnership_target_defaults_to_100_and_the_first_pair_there_wins() -> None:
    game = variants.get("partnership").new(seed=11)
    assert game.view(None)["target"] == 100
    while not game.over:
        game.play(game.legal_moves()[0])
    result = game.result
    assert result is not None
    assert max(result["team_scores"]) >= 100
    best = result["team_scores"].index(max(result["team_scores"]))
    assert result["winners"] == [[0, 2], [1, 3]][best]
    assert sum(r["points"][best] for r in game.round_results) == result["team_scores"][best]
