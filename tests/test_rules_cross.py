"""Rules of the cross games (all-fives, sebastopol, cross) on hand-built deals.

Each test deals the tiles itself (`deal=`), plays the moves the rule is about
and checks what the rule books say: who leads, where tiles may go (the
spinner's sides, the cross filled first, double-nine branches), what a play
scores, how rounds and matches end, and the move notation of the arms.
"""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

import render
from core import IllegalMove, OptionError, replay, variants
from core.ai import GreedyPlayer, RandomPlayer
from core.line.cross import UP, end_code, end_name, end_path, parse_end
from core.tiles import Tile


def new(slug: str, hands: list[list[str]], stock: list[str] | None = None,
        **options: Any) -> Any:
    deal: dict[str, Any] = {"hands": hands}
    if stock:
        deal["stock"] = stock
    return variants.get(slug).new(players=len(hands), seed=1, deal=deal, **options)


def play(g: Any, *moves: str) -> None:
    for m in moves:
        g.play(m)


def tiles(g: Any, seat: int) -> list[str]:
    return g.view(seat)["hand"]


SIDES = ["left", "right", "up", "down"]


# -- notation -----------------------------------------------------------------------------


def test_end_names_round_trip() -> None:
    for path in [(0,), (1,), (2,), (3,), (2, 2, 0), (1, 0, 1), (3, 5, 0, 1, 1)]:
        code = end_code(path)
        assert end_path(code) == path
        assert parse_end(end_name(code)) == code
    assert end_name(end_code((UP, 2, 0))) == "up-3-left"
    assert parse_end("haut") == UP
    assert parse_end("UP-3-Gauche") == end_code((UP, 2, 0))
    for bad in ("sideways", "up-3", "up-0-left", "up-x-left", "up-3-middle"):
        with pytest.raises(IllegalMove, match="unknown end"):
            parse_end(bad)


# -- sebastopol ---------------------------------------------------------------------------


def sebastopol_cross() -> Any:
    """The cross of 000's Sebastopol: the double-six, then a tile on each side."""
    g = new("sebastopol", [["6-6", "6-2", "6-4", "1-0", "2-2", "5-3", "4-3"],
                           ["6-1", "6-3", "5-5", "4-0", "3-0", "5-1", "2-1"]],
            stock=["0-0", "5-4", "5-2"])
    play(g, "6-6", "6-1 up", "6-2 right", "6-3 left", "6-4 down")
    return g


def test_the_lead_written_with_an_end_is_refused_and_changes_nothing() -> None:
    # the opening tile has no end: "6-6 up" must not be read as "6-6" (a record would
    # then hold a move nobody wrote)
    g = new("all-fives", [["6-6", "1-0"], ["6-4", "2-0"]])
    for text in ("6-6 up", "6-6 left", "6-6 down-2-left"):
        with pytest.raises(IllegalMove, match="the first tile has no end"):
            g.play(text)
    assert g.moves == [] and g.to_move == 0
    g.play("6-6")
    assert [str(m) for m in g.moves] == ["6-6"]


def test_sebastopol_cross_of_000() -> None:
    g = new("sebastopol", [["6-6", "6-2", "6-4", "1-0", "2-2", "5-3", "4-3"],
                           ["6-1", "6-3", "5-5", "4-0", "3-0", "5-1", "2-1"]],
            stock=["0-0", "5-4", "5-2"])
    assert g.legal_moves() == [g.parse_move("6-6")]  # the double-six opens
    g.play("6-6")
    v = g.view(None)
    assert v["ends"] == [6, 6, 6, 6]  # four sides open at once: "en croix"
    assert v["layout"] == {"kind": "cross", "spinner": "6-6", "arms": [[], [], [], []],
                           "open": [True, True, True, True], "last": []}
    assert [str(m) for m in g.legal_moves()] == [
        f"{t} {side}" for side in SIDES for t in ("6-1", "6-3")]
    g.play("6-1 up")
    play(g, "6-2 right", "6-3 left", "6-4 down")
    v = g.view(None)
    assert v["ends"] == [3, 2, 1, 4]
    assert v["end_names"] == ["left", "right", "up", "down"]
    assert v["board"] == ["6-6", "6-2", "6-3", "6-1", "6-4"]
    assert v["layout"]["arms"] == [["6-2"], ["6-3"], ["6-1"], ["6-4"]]
    assert v["layout"]["last"] == [3, 0]
    # seat 1 now has four ends to play on instead of two
    assert {str(m) for m in g.legal_moves()} == {
        "3-0 left", "2-1 right", "2-1 up", "5-1 up", "4-0 down"}
    g.play("3-0 left")
    assert g.view(None)["layout"]["arms"][1] == ["6-3", "3-0"]
    assert g.view(None)["ends"] == [0, 2, 1, 4]


def test_sebastopol_highest_double_leads_and_tile_goes_on_its_sides() -> None:
    g = new("sebastopol", [["1-0", "5-5", "3-3", "4-2"], ["5-4", "2-1"]], stock=["6-0"])
    assert g.to_move == 0 and [str(m) for m in g.legal_moves()] == ["5-5"]
    g.play("5-5")
    assert [str(m) for m in g.legal_moves()] == [f"5-4 {side}" for side in SIDES]
    with pytest.raises(IllegalMove, match="does not match the up end"):
        g.play("2-1 up")
    g.play("5-4 down")
    assert g.view(None)["layout"]["arms"][3] == ["5-4"]


def test_sebastopol_without_a_double_players_draw_in_turn_for_one() -> None:
    g = new("sebastopol", [["6-5", "4-3", "2-1"], ["6-4", "5-3", "1-0"]],
            stock=["5-1", "2-0", "3-3", "6-6"])
    # seat 0 draws 5-1, seat 1 draws 2-0, seat 0 draws 3-3 and leads with it
    assert g.to_move == 0
    assert [str(m) for m in g.legal_moves()] == ["3-3"]
    assert sorted(tiles(g, 0)) == ["2-1", "3-3", "4-3", "5-1", "6-5"]
    assert sorted(tiles(g, 1)) == ["1-0", "2-0", "5-3", "6-4"]
    draws = [(e["seat"], e.get("tiles")) for e in g.view(1)["events"] if e["type"] == "draw"]
    assert draws == [(0, None), (1, ["2-0"]), (0, None)]
    assert g.view(None)["stock"] == 1


def test_sebastopol_a_player_who_cannot_play_draws_until_a_tile_fits() -> None:
    g = new("sebastopol", [["6-6", "1-0"], ["2-1", "4-0"]], stock=["5-2", "5-0", "6-3", "1-1"])
    g.play("6-6")
    assert g.to_move == 1  # drew 5-2, 5-0, 6-3 and plays
    assert sorted(tiles(g, 1)) == ["2-1", "4-0", "5-0", "5-2", "6-3"]
    assert [str(m) for m in g.legal_moves()] == [f"6-3 {side}" for side in SIDES]


def test_sebastopol_round_end_adds_what_the_others_hold() -> None:
    g = new("sebastopol", [["6-6", "6-5"], ["6-1", "4-3", "2-0"]], stock=["0-0"])
    play(g, "6-6", "6-1 left", "6-5 right")
    assert g.round_no == 2
    last = g.view(None)["last_round"]
    assert last["reason"] == "out" and last["winners"] == [0]
    assert last["points"] == [0, 9] and g.view(None)["scores"] == [0, 9]


def test_sebastopol_50_or_more_eliminates_and_the_last_left_wins() -> None:
    for seed in range(6):
        g = variants.get("sebastopol").new(players=3, seed=seed)
        bots = [GreedyPlayer(seed * 3 + s) for s in range(3)]
        seen_gone: set[int] = set()
        while not g.over:
            gone = set(g.view(None)["gone"])
            seen_gone |= gone
            assert g.to_move not in gone  # a seat out of the match never plays again
            for s in gone:
                assert g.view(None)["hand_sizes"][s] == 0
                assert f"seat {s + 1} out" in g.view(None)["strip_extra"]
            g.play(bots[g.to_move].choose(g))
        scores = g.result["scores"]
        left = [s for s in range(3) if scores[s] < 50]
        assert all(scores[s] >= 50 for s in g.view(None)["gone"])
        if len(left) == 1:
            assert g.result["winners"] == left
        assert g.result["ranking"][0] in g.result["winners"]


# -- cross (003) --------------------------------------------------------------------------


def test_cross_the_four_sides_are_filled_first_drawing_as_needed() -> None:
    g = new("cross", [["6-6", "6-5", "2-0", "5-0"], ["5-1", "2-1", "4-4", "3-1"]],
            stock=["6-2", "6-3", "0-0", "6-4", "1-1"])
    assert g.view(None)["options"]["draw"] == "block"
    g.play("6-6")
    # seat 1 holds no six: even in the block game it draws from the spare tiles
    assert g.to_move == 1 and "6-2" in tiles(g, 1)
    assert [str(m) for m in g.legal_moves()] == [f"6-2 {side}" for side in SIDES]
    g.play("6-2 left")
    # 2-0 matches the left end, but the empty sides come first
    assert [str(m) for m in g.legal_moves()] == ["6-5 right", "6-5 up", "6-5 down"]
    with pytest.raises(IllegalMove, match="four sides come first"):
        g.play("2-0 left")
    assert "Fill the four sides" in g.view(None)["strip_extra"]
    g.play("6-5 right")
    assert g.to_move == 1 and [str(m) for m in g.legal_moves()] == ["6-3 up", "6-3 down"]
    g.play("6-3 up")
    assert g.to_move == 0 and "6-4" in tiles(g, 0) and "0-0" in tiles(g, 0)
    g.play("6-4 down")
    v = g.view(None)
    assert v["ends"] == [2, 5, 3, 4] and "strip_extra" not in v
    assert {str(m) for m in g.legal_moves()} == {"5-1 right", "2-1 left", "3-1 up", "4-4 down"}
    g.play("4-4 down")  # no branches without the option: one end, 4
    assert g.view(None)["layout"]["arms"][3] == ["6-4", "4-4"]
    assert g.view(None)["ends"] == [2, 5, 3, 4]


def test_cross_block_game_once_the_cross_is_filled() -> None:
    g = new("cross", [["6-6", "6-5", "6-4", "1-0"], ["6-3", "6-2", "2-2", "5-5"]],
            stock=["1-1", "0-0"])
    play(g, "6-6", "6-3 left", "6-5 right", "6-2 up", "6-4 down", "5-5 right")
    # seat 0 cannot play: in the block game it passes, drawing nothing
    assert g.to_move == 1 and g.view(None)["stock"] == 2
    assert {"type": "pass", "seat": 0} in g.view(None)["events"]
    g2 = new("cross", [["6-6", "6-5", "6-4", "1-0"], ["6-3", "6-2", "2-2", "5-5"]],
             stock=["1-1", "0-0"], draw="draw")
    play(g2, "6-6", "6-3 left", "6-5 right", "6-2 up", "6-4 down", "5-5 right")
    assert g2.to_move == 1 and g2.view(None)["stock"] == 0  # drew both, none fits


def test_double_nine_cross_every_double_opens_two_branches() -> None:
    g = new("cross", [["9-9", "9-8", "9-7", "3-3", "3-1"],
                      ["9-3", "9-4", "4-0", "3-2", "5-0"]],
            set=9, every_double_spins=True)
    play(g, "9-9", "9-3 left", "9-8 right", "9-4 up", "9-7 down", "4-0 up")
    g.play("3-3 left")
    v = g.view(None)
    assert v["end_names"] == ["left", "right", "up", "down", "left-2-left", "left-2-right"]
    assert v["ends"] == [3, 8, 0, 7, 3, 3]
    assert [str(m) for m in g.legal_moves()] == [
        "3-2 left", "5-0 up", "3-2 left-2-left", "3-2 left-2-right"]
    move = g.parse_move("3-2 left-2-right")
    assert str(move) == "3-2 left-2-right" and g.parse_move(str(move)) == move
    g.play(move)
    layout = g.view(None)["layout"]
    assert layout["arms"][1] == ["9-3", {"tile": "3-3", "branches": [[], ["3-2"]]}]
    assert layout["last"] == [1, 1, 1, 0]
    assert g.view(None)["ends"] == [3, 8, 0, 7, 3, 2]
    g.play("3-1 left")  # the arm goes on past the branching double
    assert g.view(None)["layout"]["arms"][1][2] == "3-1"


def test_cross_move_text_is_checked() -> None:
    g = new("cross", [["6-6", "6-5"], ["6-1", "6-2"]])
    g.play("6-6")
    for text, message in [("6-1 sideways", "unknown end"), ("6-1 up-2-left", "cannot go up-2-left"),
                          ("6-1 left right", "not a move"), ("pass", "not allowed"),
                          ("claim", "not allowed"), ("muggins", "no unclaimed"),
                          ("6-5 left", "not in your")]:
        with pytest.raises(IllegalMove, match=message):
            g.play(text)
    assert g.turn == 1


# -- all-fives ----------------------------------------------------------------------------


def scores(g: Any) -> list[int]:
    return g.view(None)["scores"]


def test_all_fives_scores_the_count_and_the_spinner_opens_after_its_sides() -> None:
    g = new("all-fives", [["5-5", "5-4", "4-4", "2-0"], ["5-0", "5-1", "6-1", "3-2"]],
            stock=["6-6", "6-5"])
    g.play("5-5")
    assert scores(g) == [10, 0]  # 5-5 alone counts 10
    g.play("5-0 left")  # the spinner (its right side empty) 10, plus 0
    assert scores(g) == [10, 10]
    assert g.view(None)["end_names"] == ["left", "right"]  # up and down not open yet
    g.play("5-4 right")  # 0 + 4: nothing
    assert scores(g) == [10, 10]
    assert g.view(None)["end_names"] == ["left", "right", "up", "down"]
    g.play("5-1 up")  # 0 + 4 + 1 = 5
    assert scores(g) == [10, 15]
    g.play("4-4 right")  # a double at an end counts both halves: 0 + 8 + 1 = 9
    assert scores(g) == [10, 15]
    assert g.view(None)["end_count"] == 9 and "Ends count 9" in g.view(None)["strip_extra"]
    g.play("6-1 up")  # 0 + 8 + 6 = 14
    assert scores(g) == [10, 15]
    g.play("2-0 left")  # 2 + 8 + 6 = 16; seat 0 is out and scores seat 1's 3-2: 5
    assert g.view(None)["last_round"]["points"] == [5, 0]
    assert scores(g) == [15, 15]


def test_all_fives_without_a_double_the_first_double_laid_spins() -> None:
    g = new("all-fives", [["6-4", "3-1"], ["6-2", "5-3", "2-0"]], stock=["4-4", "0-0"])
    g.play("6-4")  # nobody holds a double: the heaviest tile leads, 10
    assert scores(g) == [10, 0] and g.view(None)["layout"]["kind"] == "line"
    g.play("6-2 left")  # 2 + 4
    assert g.view(None)["layout"] == {"kind": "line", "chain": ["2-6", "6-4"], "last": 0}
    assert g.to_move == 0 and [str(m) for m in g.legal_moves()] == ["4-4 right"]  # drawn
    g.play("4-4 right")  # the spinner: the line is now its left arm; 2 + 8 = 10
    v = g.view(None)
    assert v["layout"] == {"kind": "cross", "spinner": "4-4",
                           "arms": [[], ["4-6", "6-2"], [], []],
                           "open": [True, True, False, False], "last": []}
    assert v["ends"] == [2, 4] and v["end_count"] == 10 and scores(g) == [20, 0]
    assert v["board"] == ["4-4", "4-6", "6-2"]
    g.play("2-0 left")  # 0 + 8
    assert g.view(None)["end_names"] == ["left", "right"]  # the right side is still empty


def test_all_fives_going_out_scores_the_others_pips_rounded_to_5() -> None:
    g = new("all-fives", [["5-5", "5-0"], ["6-4", "6-3"]], draw="block")
    play(g, "5-5", "5-0 left")  # 10, then 10 + 0; seat 1 could not play
    result = g.view(None)["last_round"]
    assert result["winners"] == [0] and result["points"] == [20, 0]  # 19 pips: 20
    assert scores(g) == [40, 0]


def test_all_fives_blocked_round_scores_rounded_difference() -> None:
    g = new("all-fives", [["5-5", "6-2", "1-0"], ["6-4", "3-1"]], draw="block")
    g.play("5-5")  # blocked at once: seat 0 holds 9, seat 1 holds 14
    last = g.view(None)["last_round"]
    assert last["reason"] == "blocked" and last["winners"] == [0]
    assert last["points"] == [5, 0]  # 14 - 9 = 5


def test_all_fives_each_losers_pips_are_rounded_to_5_before_they_are_added() -> None:
    # 003: "chaque joueur perdant [...] l'arrondit à cinq": 12 -> 10 twice, 20 (not 24 -> 25)
    g = new("all-fives", [["5-5", "5-0"], ["6-4", "1-1"], ["6-3", "2-1"]], draw="block")
    play(g, "5-5", "5-0 left")  # seats 1 and 2 cannot play: seat 0 goes out
    last = g.view(None)["last_round"]
    assert last["winners"] == [0] and last["points"] == [20, 0, 0]
    assert scores(g) == [40, 0, 0]


def test_all_fives_blocked_each_difference_is_rounded_before_they_are_added() -> None:
    # seat 0 holds 9, seats 1 and 2 hold 16 each: 7 -> 5 twice, 10 (not 14 -> 15)
    g = new("all-fives", [["5-5", "6-2", "1-0"], ["6-4", "4-2"], ["6-3", "4-3"]],
            draw="block")
    g.play("5-5")
    last = g.view(None)["last_round"]
    assert last["reason"] == "blocked" and last["winners"] == [0]
    assert last["points"] == [10, 0, 0]


def test_all_fives_reaching_the_target_ends_the_match_mid_round() -> None:
    g = new("all-fives", [["5-5", "5-0", "1-1"], ["6-4", "3-2"]], target=10, draw="block")
    g.play("5-5")
    assert g.over and g.result["winners"] == [0] and g.result["scores"] == [10, 0]


def test_all_fives_target_option() -> None:
    v = variants.get("all-fives")
    assert v.new(players=2, seed=3).view(None)["target"] == 100
    assert v.new(players=2, seed=3, target=61).view(None)["target"] == 61
    with pytest.raises(OptionError, match="target"):
        v.new(players=2, seed=3, target="lots")


def test_muggins_claim_the_scorer_must_claim() -> None:
    g = new("all-fives", [["5-5", "5-0", "1-1"], ["6-4", "5-2", "3-2"]], muggins_claim=True)
    g.play("5-5")
    assert g.to_move == 0 and [str(m) for m in g.legal_moves()] == ["claim", "pass"]
    assert scores(g) == [0, 0]
    assert g.view(None)["unclaimed"] == {"seat": 0, "points": 10}
    with pytest.raises(IllegalMove, match="claim"):
        g.play("5-0 left")
    g.play("claim")
    assert scores(g) == [10, 0] and g.to_move == 1
    assert "muggins" not in [str(m) for m in g.legal_moves()]


def test_muggins_the_next_player_takes_unclaimed_points() -> None:
    g = new("all-fives", [["5-5", "5-0", "1-1"], ["6-4", "5-2", "3-2"]], muggins_claim=True)
    play(g, "5-5", "pass")
    assert g.to_move == 1
    assert [str(m) for m in g.legal_moves()] == ["5-2 left", "5-2 right", "muggins"]
    g.play("muggins")
    assert scores(g) == [0, 10] and g.to_move == 1
    assert [str(m) for m in g.legal_moves()] == ["5-2 left", "5-2 right"]
    with pytest.raises(IllegalMove, match="no unclaimed points"):
        g.play("muggins")
    g.play("5-2 left")  # 10 + 2: no score
    assert g.to_move == 0


MUGGINS3 = [["5-5", "1-1", "0-0"], ["6-4", "3-1"], ["5-2", "2-1"]]


def test_muggins_the_immediate_next_player_is_asked_even_when_they_cannot_play() -> None:
    # 003: "le joueur suivant immédiat peut revendiquer les points en déclarant muggins"
    g = new("all-fives", MUGGINS3, muggins_claim=True, draw="block")
    play(g, "5-5", "pass")
    assert g.to_move == 1 and [str(m) for m in g.legal_moves()] == ["muggins", "pass"]
    g.play("muggins")
    assert scores(g) == [0, 10, 0]
    assert g.to_move == 2 and "muggins" not in [str(m) for m in g.legal_moves()]


def test_muggins_only_the_immediate_next_player_may_take_the_points() -> None:
    g = new("all-fives", MUGGINS3, muggins_claim=True, draw="block")
    play(g, "5-5", "pass", "pass")  # seat 1 lets them go (and passes: no tile fits)
    assert g.to_move == 2 and "unclaimed" not in g.view(None)
    assert [str(m) for m in g.legal_moves()] == ["5-2 left", "5-2 right"]
    with pytest.raises(IllegalMove, match="no unclaimed points"):
        g.play("muggins")
    assert replay(g.record()).view(None) == g.view(None)


def test_muggins_a_player_who_can_play_may_not_pass_the_points() -> None:
    g = new("all-fives", [["5-5", "5-0", "1-1"], ["6-4", "5-2", "3-2"]], muggins_claim=True)
    play(g, "5-5", "pass")
    with pytest.raises(IllegalMove, match="you can play a tile"):
        g.play("pass")
    assert g.to_move == 1 and g.view(None)["unclaimed"] == {"seat": 0, "points": 10}


def test_muggins_points_are_lost_once_the_next_player_lays_a_tile() -> None:
    g = new("all-fives", [["5-5", "5-0", "1-1"], ["6-4", "5-2", "3-2"]], muggins_claim=True)
    play(g, "5-5", "pass", "5-2 left")
    assert scores(g) == [0, 0] and "unclaimed" not in g.view(None)
    assert "muggins" not in [str(m) for m in g.legal_moves()]


def test_computer_players_claim() -> None:
    for player in (GreedyPlayer(1), RandomPlayer(1)):
        g = new("all-fives", [["5-5", "5-0", "1-1"], ["6-4", "5-2", "3-2"]],
                muggins_claim=True)
        g.play("5-5")
        assert str(player.choose(g)) == "claim"
        g.play("pass")
        assert str(player.choose(g)) == "muggins"


# -- records, copies, pictures ------------------------------------------------------------


@pytest.mark.parametrize("slug,options", [
    ("all-fives", {"muggins_claim": True}), ("sebastopol", {}),
    ("cross", {"set": 9, "every_double_spins": True}), ("cross", {"draw": "draw"}),
])
def test_whole_matches_replay_and_copies_are_independent(slug: str,
                                                         options: dict[str, Any]) -> None:
    for seed in range(4):
        g = variants.get(slug).new(players=2 + seed % 2, seed=seed, **options)
        bot = GreedyPlayer(seed)
        steps = 0
        while not g.over:
            moves = g.legal_moves()
            for m in moves:
                assert g.parse_move(str(m)) == m
            if steps == 10:
                c = g.copy()
                before = g.view(None)
                c.play(c.legal_moves()[-1])
                assert g.view(None) == before
            g.play(bot.choose(g))
            steps += 1
        again = replay(g.record())
        assert again.view(None) == g.view(None) and again.result == g.result


def test_pictures_show_the_arms_and_the_count(tmp_path: Any) -> None:
    g = sebastopol_cross()
    g.play("3-0 left")
    a = new("all-fives", [["5-5", "5-4", "4-4", "2-0"], ["5-0", "5-1", "6-1", "3-2"]],
            stock=["6-6", "6-5"])
    play(a, "5-5", "5-0 left", "5-4 right", "5-1 up")
    d = new("cross", [["9-9", "9-8", "9-7", "3-3", "3-1"],
                      ["9-3", "9-4", "4-0", "3-2", "5-0"]], set=9, every_double_spins=True)
    play(d, "9-9", "9-3 left", "9-8 right", "9-4 up", "9-7 down", "4-0 up", "3-3 left",
         "3-2 left-2-right")
    for name, game in (("sebastopol", g), ("all-fives", a), ("cross9", d)):
        data = render.position_png(game.view(None))
        (tmp_path / f"{name}.png").write_bytes(data)
        image = Image.open(io.BytesIO(data))
        assert image.width >= 640 and image.height > 200
    plain = dict(a.view(None))  # the strip says the ends' count (from "end_count")
    plain.pop("strip_extra")
    plain.pop("end_count")
    assert render.position_png(plain) != render.position_png(a.view(None))


def test_tile_of_a_move() -> None:
    g = sebastopol_cross()
    assert g.parse_move("3-0 left").tile == Tile(3, 0)
