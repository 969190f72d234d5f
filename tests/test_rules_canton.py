"""Rules of `canton` (000 "CANTON") on hand-built deals, the book's three captures included."""

from __future__ import annotations

import io
import json
from itertools import pairwise
from typing import Any

import pytest
from PIL import Image

from core import IllegalMove, OptionError, replay, variants
from core.ai import GreedyPlayer, RandomPlayer
from core.line.canton import CantonMatch, best_capture
from core.moves import LEFT, RIGHT
from render import position_png
from render.board import board_image
from render.canton import BACK, canton_layout
from render.strip import panels


def new(hands: list[list[str]], stock: list[str] | None = None, **options: Any) -> CantonMatch:
    game = variants.get("canton").new(players=len(hands), seed=1,
                                      deal={"hands": hands, "stock": stock or []}, **options)
    assert isinstance(game, CantonMatch)
    return game


def play(game: CantonMatch, *moves: str) -> None:
    for m in moves:
        game.play(m)


def legal(game: CantonMatch) -> list[str]:
    return [str(m) for m in game.legal_moves()]


def scores(game: CantonMatch) -> list[int]:
    return game.view(None)["scores"]


def captured(game: CantonMatch) -> list[dict[str, int]]:
    return game.view(None)["captured"]


# The book's line for its first two examples: ... 6-1, 1-2, 2-5 with the 5 free on the right.
A_HAND = ["6-6", "2-1", "2-0"]
B_HAND = ["6-1", "5-2", "3-0", "4-0"]


def book_line(extra: list[str]) -> CantonMatch:
    """Seat 0 leads 6-6; 6-1, 2-1 and 5-2 follow on the right (no capture on the way)."""
    game = new([A_HAND + extra, B_HAND])
    play(game, "6-6", "6-1 right", "2-1 right", "5-2 right")
    assert game.view(None)["board"] == ["6-6", "6-1", "1-2", "2-5"]
    assert scores(game) == [0, 0]
    return game


# -- the book's three examples -------------------------------------------------------------


def test_book_example_1_five_blank_takes_five_two_for_twelve() -> None:
    game = book_line(["5-0"])
    game.play("5-0 right")
    assert game.to_move == 0 and legal(game) == ["claim", "pass"]  # "il peut ramasser"
    game.play("claim")
    v = game.view(None)
    assert v["board"] == ["6-6", "6-1", "1-2"]
    assert v["ends"] == [6, 2]
    assert scores(game) == [12, 0]
    assert captured(game) == [{"tiles": 2, "points": 12}, {"tiles": 0, "points": 0}]
    assert {"type": "score", "seat": 0} in [{k: e[k] for k in ("type", "seat")} for e in
                                              v["events"]]
    assert game.to_move == 0  # the capturer plays again
    assert legal(game) == ["2-0 right"]


def test_book_example_2_double_five_takes_two_tiles_for_twenty() -> None:
    game = book_line(["5-5", "1-0"])
    play(game, "5-5 right", "claim")
    assert game.view(None)["board"] == ["6-6", "6-1"]
    assert scores(game) == [20, 0]
    assert captured(game)[0] == {"tiles": 3, "points": 20}
    assert game.to_move == 0
    assert legal(game) == ["1-0 right"]


def test_book_example_3_one_blank_on_the_left_takes_two_one_and_two_four_for_ten() -> None:
    game = new([["6-6", "4-2", "1-0", "4-0"], ["6-4", "2-1", "3-0", "5-0"]])
    play(game, "6-6", "6-4 left", "4-2 left", "2-1 left")
    assert game.view(None)["board"] == ["1-2", "2-4", "4-6", "6-6"]
    play(game, "1-0 left", "claim")
    assert game.view(None)["board"] == ["4-6", "6-6"]
    assert scores(game) == [10, 0]
    assert game.to_move == 0
    game.play("4-0 left")  # seat 0 goes out and scores the pips left to seat 1
    result = game.view(None)["last_round"]
    assert result["reason"] == "out" and result["winners"] == [0]
    assert scores(game) == [10 + 8, 0]


# -- which tiles a play takes ----------------------------------------------------------------


def test_the_tile_at_the_far_end_counts_with_the_neighbour() -> None:
    line = [(1, 0), (0, 6), (6, 4), (4, 2)]  # 1-0 laid left: 1 + 6 = 7, + 6-0 = 13, + 4-2 = 13
    assert best_capture(line, LEFT) is None
    line = [(1, 2), (2, 6), (6, 4), (4, 2)]  # 1-2 + 2-6 = 11; + 6-4 = 21; far 4-2: 3 + 8 + 6 = 17
    assert best_capture(line, LEFT) is None
    line = [(0, 1), (1, 2), (2, 6), (6, 4)]  # 0-1 laid left: 1 + 3 + far 6-4 (10) = 14; inner 12
    assert best_capture(line, LEFT) is None
    line = [(4, 0), (0, 2), (2, 3), (3, 6)]  # laid right: 3-6 + 2-3 = 14; + far 4-0 = 18
    assert best_capture(line, RIGHT) is None
    line = [(2, 0), (0, 5), (5, 3), (3, 0)]  # laid right: 3-0 + 5-3 = 11; + 0-5 = 16; far 2-0: 13
    assert best_capture(line, RIGHT) is None
    line = [(6, 1), (1, 3), (3, 5), (5, 5)]  # laid right: 5-5 + 3-5 = 18; + far 6-1 = 25
    assert best_capture(line, RIGHT) is None
    line = [(4, 1), (1, 3), (3, 5), (5, 0)]  # laid right: 5-0 + 3-5 = 13; + far 4-1 = 18
    assert best_capture(line, RIGHT) is None
    line = [(2, 1), (1, 6), (6, 3), (3, 0)]  # 3-0 + 6-3 = 12 (a pair); + far 2-1 = 15
    assert best_capture(line, RIGHT) == (12, [3, 2])
    line = [(4, 1), (1, 6), (6, 3), (3, 0)]  # 3-0 + 6-3 = 12; + 1-6 = 19; + far 4-1 = 17
    assert best_capture(line, RIGHT) == (12, [3, 2])
    line = [(5, 3), (3, 6), (6, 0), (0, 1)]  # 0-1 + 6-0 = 7; + 3-6 = 16; + far 5-3 = 15
    assert best_capture(line, RIGHT) is None
    line = [(2, 1), (1, 6), (6, 0), (0, 1)]  # 1 + 6 = 7; + 1-6 = 14; + far 2-1 = 10: taken
    assert best_capture(line, RIGHT) == (10, [3, 2, 0])


def test_the_richest_capture_is_taken_and_a_lone_lead_takes_nothing() -> None:
    # 5-0 laid right: with 2-5 it makes 12 (a pair); with 2-5 and 6-2 it makes 20
    assert best_capture([(6, 2), (2, 5), (5, 0)], RIGHT) == (20, [2, 1, 0])
    # 5-6 laid right: with 2-5 and 0-2, 20; with 2-5 and the far end 6-6, 30
    line = [(6, 6), (6, 0), (0, 2), (2, 5), (5, 6)]
    assert best_capture(line, RIGHT) == (30, [4, 3, 0])
    assert best_capture([(6, 6)], RIGHT) is None
    # on a line of three tiles the far end is the next one inward: one candidate, not two
    assert best_capture([(5, 2), (2, 1), (1, 0)], RIGHT) is None
    assert best_capture([(4, 2), (2, 1), (1, 0)], RIGHT) == (10, [2, 1, 0])


def test_a_capture_that_empties_the_line_lets_the_capturer_lead_any_tile() -> None:
    game = new([["5-2", "3-1"], ["5-0", "4-0", "2-0"]])
    assert game.to_move == 0  # no double: the heaviest tile leads
    play(game, "5-2", "5-0 left", "claim")
    v = game.view(None)
    assert v["board"] == [] and v["ends"] == []
    assert scores(game) == [0, 12]
    assert game.to_move == 1
    assert sorted(legal(game)) == ["2-0", "4-0"]
    with pytest.raises(IllegalMove, match="not in your hand"):
        game.play("5-2")  # taken
    game.play("4-0")
    assert game.view(None)["board"] == ["4-0"]


def test_a_capture_with_the_last_tile_scores_then_goes_out() -> None:
    game = new([["5-2", "3-1"], ["5-0"]])
    play(game, "5-2", "5-0 left", "claim")  # 12 taken, and seat 1 has no tile left
    last = game.view(None)["last_round"]
    assert last["reason"] == "out" and last["winners"] == [1]
    assert last["points"] == [0, 4]  # the 3-1 left in seat 0's hand
    assert scores(game) == [0, 12 + 4]
    assert game.round_no == 2


def test_a_capturer_who_cannot_play_again_draws_until_able() -> None:
    game = new([["5-2", "6-1", "1-1"], ["2-1", "5-0", "4-0"]], stock=["3-0", "6-4", "1-0"])
    assert game.to_move == 0 and legal(game) == ["1-1"]  # the only double leads
    play(game, "1-1", "2-1 left", "6-1 right")  # 6-1 + 1-1 + 2-1 = 12: no triple
    assert game.view(None)["board"] == ["2-1", "1-1", "1-6"]
    assert scores(game) == [0, 0]
    # seat 1's 5-0 and 4-0 fit neither 2 nor 6: it draws 3-0, then 6-4, which fits
    assert game.to_move == 1 and legal(game) == ["6-4 right"]
    play(game, "6-4 right", "claim")  # 6-4 + 1-6 = 17; + 1-1 = 19; with the far end 2-1: 20
    assert scores(game) == [0, 20]
    assert game.view(None)["board"] == ["1-1"]
    # to play again on 1-1 seat 1 (5-0, 4-0, 3-0) draws the last tile, 1-0, and may lay it
    assert game.to_move == 1 and legal(game) == ["1-0 left"]
    assert [e["type"] for e in game.view(None)["events"]] == ["score", "draw"]


def test_a_capture_may_be_left_and_the_turn_goes_on() -> None:
    game = book_line(["5-0"])
    game.play("5-0 right")
    v = game.view(None)
    assert v["capture"] == {"seat": 0, "points": 12, "tiles": ["5-0", "2-5"]}
    with pytest.raises(IllegalMove, match="claim"):
        game.play("2-0 right")  # a tile while the capture is on offer
    game.play("pass")
    v = game.view(None)
    assert v["board"] == ["6-6", "6-1", "1-2", "2-5", "5-0"] and v["capture"] is None
    assert scores(game) == [0, 0] and game.to_move == 1
    assert {"type": "decline", "seat": 0} in v["events"]


def test_a_capture_left_with_the_last_tile_still_goes_out() -> None:
    game = new([["5-2", "3-1"], ["5-0"]])
    play(game, "5-2", "5-0 left", "pass")
    last = game.view(None)["last_round"]
    assert last["reason"] == "out" and last["winners"] == [1] and scores(game) == [0, 4]


def test_computer_players_take_the_capture() -> None:
    game = book_line(["5-0"])
    game.play("5-0 right")
    assert str(GreedyPlayer(1).choose(game)) == "claim"
    assert str(RandomPlayer(1).choose(game)) == "claim"


def test_both_ends_showing_one_value_are_both_listed() -> None:
    game = new([["6-6", "6-3", "3-0", "6-1"], ["6-4", "4-3", "5-0"]])
    play(game, "6-6")
    assert sorted(legal(game)) == ["6-4 left"]  # one tile on the table: one placement
    play(game, "6-4 left", "6-3 right", "4-3 left")  # no capture on the way
    assert game.view(None)["board"] == ["3-4", "4-6", "6-6", "6-3"]
    assert [m for m in legal(game) if m.startswith("3-0")] == ["3-0 left", "3-0 right"]
    with pytest.raises(IllegalMove, match="both ends"):
        game.parse_move("3-0")
    other = game.copy()
    play(other, "3-0 right", "claim")  # with 6-3: 3 + 9 = 12
    assert scores(other) == [12, 0]
    assert other.view(None)["board"] == ["3-4", "4-6", "6-6"]
    play(game, "3-0 left", "claim")  # with 3-4 and 4-6: 3 + 7 + 10 = 20
    assert scores(game) == [20, 0]
    assert game.view(None)["board"] == ["6-6", "6-3"]
    assert game.to_move == 0 and legal(game) == ["6-1 left"]


# -- rounds, scoring, match -----------------------------------------------------------------


def test_hands_are_seven_six_and_five() -> None:
    for players, hand in ((2, 7), (3, 6), (4, 5)):
        g = variants.get("canton").new(players=players, seed=3)
        assert g.view(None)["hand_sizes"] == [hand] * players
        assert g.view(None)["stock"] == 28 - players * hand


def test_going_out_scores_the_pips_left_in_the_other_hands() -> None:
    game = new([["6-6", "6-3"], ["6-5", "5-5", "4-1"], ["0-0", "2-1"]])
    play(game, "6-6", "6-5 left")  # 11 + 12 = 23: nothing taken
    assert game.to_move == 0  # seat 2 cannot play 0-0 or 2-1 on 5 or 6 and passes (no stock)
    game.play("6-3 right")  # 6-3 + 6-6 = 21; + 6-5 = 32: nothing. Seat 0 is out.
    last = game.view(None)["last_round"]
    assert last["winners"] == [0] and last["reason"] == "out"
    assert scores(game) == [(10 + 5) + (0 + 3), 0, 0]
    assert game.round_no == 2 and game.to_move == 1  # the lead passes to the next seat


def test_a_blocked_round_goes_to_the_lightest_hand_who_scores_the_others() -> None:
    game = new([["6-6", "1-0"], ["6-5", "3-3"]])
    play(game, "6-6", "6-5 left")  # ends 5 and 6; nobody holds a 5 or a 6
    last = game.view(None)["last_round"]
    assert last["reason"] == "blocked" and last["winners"] == [0]
    assert scores(game) == [6, 0]


def test_the_first_to_reach_the_target_wins_even_in_the_middle_of_a_round() -> None:
    assert book_line(["5-5", "1-0"]).view(None)["target"] == 300  # the book's target
    game = new([[*A_HAND, "5-5", "1-0"], B_HAND], target=20)
    play(game, "6-6", "6-1 right", "2-1 right", "5-2 right", "5-5 right", "claim")
    assert game.over and game.to_move is None
    result = game.result
    assert result is not None
    assert result["winners"] == [0] and result["scores"] == [20, 0]
    with pytest.raises(IllegalMove):
        game.play("1-0 right")


def test_target_option_is_checked() -> None:
    with pytest.raises(OptionError, match="target"):
        variants.get("canton").new(players=2, target=0)
    with pytest.raises(OptionError, match="2 to 4"):
        variants.get("canton").new(players=5)


# -- views, records, computer players -------------------------------------------------------


def test_views_show_the_line_and_piles_and_replay_the_same() -> None:
    game = book_line(["5-0"])
    play(game, "5-0 right", "claim")
    v = game.view(1)
    assert v["layout"]["kind"] == "canton"
    assert v["layout"]["chain"] == v["board"] == ["6-6", "6-1", "1-2"]
    assert v["layout"]["piles"] == v["captured"]
    assert v["layout"]["last"] is None  # the tile laid was taken with its neighbour
    assert v["sleeping"] == 28 - 8 + 2  # out of play: the undealt and the captured tiles
    assert "hand" not in game.view(None)
    assert "2-0" not in json.dumps(game.view(1))  # seat 0's last tile stays hidden
    again = replay(json.loads(json.dumps(game.record())))
    assert again.view(None) == game.view(None)
    copy = game.copy()
    copy.play("2-0 right")  # out: the copy deals round 2
    assert copy.round_no == 2 and copy.view(None)["captured"][0]["tiles"] == 0
    assert game.round_no == 1 and game.view(None)["board"] == ["6-6", "6-1", "1-2"]
    assert game.view(None)["captured"][0] == {"tiles": 2, "points": 12}


@pytest.mark.parametrize("kind", [GreedyPlayer, RandomPlayer])
def test_computer_players_finish_matches(kind: type) -> None:
    for seed in range(6):
        game = variants.get("canton").new(players=2 + seed % 3, seed=seed, target=120)
        player = kind(seed)
        for _ in range(5000):
            if game.over:
                break
            move = player.choose(game)
            assert move in game.legal_moves()
            game.play(move)
        assert game.over
        assert max(game.view(None)["scores"]) >= 120


# -- the picture --------------------------------------------------------------------------


def test_the_picture_stands_tiles_side_by_side_with_equal_halves_touching() -> None:
    chain = ["4-0", "0-6", "6-6", "6-5", "5-4", "4-3"]
    for first_top in (True, False):
        board = canton_layout({"kind": "canton", "chain": chain, "last": 2,
                               "first_top": first_top})
        tiles = board.tiles
        assert [f"{t.a}-{t.b}" for t in tiles] == chain
        assert [t.last for t in tiles] == [i == 2 for i in range(len(chain))]
        inner0 = tiles[0].halves[0].rect
        assert (inner0.y0 == tiles[0].rect.y0) == first_top  # the first left half on top
        for t in tiles:
            assert not t.horizontal and t.rect.height == 2 * t.rect.width
            assert t.rect.inside(board.canvas)
        for t, u in pairwise(tiles):
            assert u.rect.x0 == t.rect.x1 and u.rect.y0 == t.rect.y0  # long sides touch
            outer, inner = t.halves[1], u.halves[0]
            assert outer.rect.y0 == inner.rect.y0 and outer.value == inner.value
        left, right = board.markers
        assert left.value == 4 and left.rect.x1 <= tiles[0].rect.x0
        assert left.rect.center[1] == inner0.center[1]
        assert right.value == 3 and right.rect.x0 >= tiles[-1].rect.x1
        assert right.rect.center[1] == tiles[-1].halves[1].rect.center[1]


def test_a_long_line_goes_on_in_rows_within_the_width() -> None:
    chain = [f"{i % 7}-{(i + 1) % 7}" for i in range(28)]  # as long as a line can be
    board = canton_layout({"kind": "canton", "chain": chain, "last": None})
    assert board.width <= 1280 and len({t.rect.y0 for t in board.tiles}) == 2
    assert all(t.rect.inside(board.canvas) for t in board.tiles)


def test_the_picture_shows_each_seats_pile_over_its_panel() -> None:
    game = book_line(["5-0"])
    play(game, "5-0 right", "claim")
    view = game.view(None)
    im = board_image(view)
    line = canton_layout(view["layout"])
    assert im.height > line.height
    backs = []
    for x, w in panels(2, im.width):
        box = im.crop((x, line.height, x + w, im.height))
        colours = {c: k for k, c in box.getcolors(maxcolors=1 << 20) or []}
        backs.append(colours.get(BACK, 0))
    assert backs[0] > 0 and backs[1] == 0  # seat 0 took two tiles, seat 1 nothing
    png = position_png(view, ["Ann", "Bob"])
    assert Image.open(io.BytesIO(png)).size[0] == im.width
