"""The "20" game (004) on hand-built positions: lines, markers, refusals, single-tile runs,
the two ends of a round, the match, and the notation."""

from __future__ import annotations

from typing import Any

import pytest

from core import IllegalMove, OptionError, replay, variants
from core.ai import make_player
from core.grid.match import GridMatch
from core.moves import PLAY


def new(hands: list[list[str]], stock: list[str] | None = None, **deal: Any) -> GridMatch:
    game = variants.get("vingt").new(players=len(hands), seed=1,
                                     deal={"hands": hands, "stock": stock or [], **deal})
    assert isinstance(game, GridMatch)
    return game


def legal(game: GridMatch) -> list[str]:
    return [str(m) for m in game.legal_moves()]


def markers_at(game: GridMatch) -> dict[str, int]:
    return {m["cell"]: m["seat"] for m in game.view(None)["layout"]["markers"]}


def test_an_opening_line_of_two_tiles_takes_a_marker_at_each_end() -> None:
    game = new([["9-5", "4-2", "1-1"], ["8-8"]], stock=["3-3", "7-7"])
    assert "9-5 4-2 M13 right" in legal(game)
    game.play("9-5 4-2 M13 right")
    assert markers_at(game) == {"L13": 0, "Q13": 0}
    v = game.view(0)
    assert v["markers"] == [20, 22]
    assert v["last_play"]["cells"] == ["M13", "N13", "O13", "P13"]
    assert v["layout"]["last"] == ["M13", "N13", "O13", "P13"]
    assert sorted(v["hand"]) == ["1-1", "3-3", "7-7"]  # refilled from the stock
    assert game.to_move == 1


def test_a_line_of_five_tiles() -> None:
    game = new([["2-1", "1-1", "3-1", "2-2", "4-3"], ["8-8"]])
    game.play("2-1 1-1 1-3 2-2 3-4 M13 down")
    assert markers_at(game) == {"M12": 0, "M23": 0}
    assert game.view(None)["board"] == ["2-1", "1-1", "1-3", "2-2", "3-4"]


def test_the_first_line_starts_on_the_centre_and_totals_20() -> None:
    game = new([["9-5", "4-2", "3-1"], ["8-8"]])
    with pytest.raises(IllegalMove, match="centre cell, M13"):
        game.play("9-5 4-2 C4 right")
    with pytest.raises(IllegalMove, match="total 24, over 20"):
        game.play("9-5 4-2 3-1 M13 right")
    with pytest.raises(IllegalMove, match="2 to 5 tiles"):
        game.play("9-5 M13 right")
    with pytest.raises(IllegalMove, match="not on your rack"):
        game.play("8-8 4-2 M13 right")


def test_a_blank_half_at_an_end_closes_it() -> None:
    game = new([["5-0", "9-6"], ["8-8"]])
    assert game.view(0)["legal"][:1] != ["pass"]
    game.play("0-5 9-6 M13 right")
    assert markers_at(game) == {"Q13": 0}  # L13 stays free: the blank closes that end
    assert game.view(None)["markers"] == [21, 22]


def test_a_blank_half_is_never_inside_a_line() -> None:
    game = new([["5-0", "9-6"], ["8-8"]])
    before = game.record()
    with pytest.raises(IllegalMove, match="blank half would be inside"):
        game.play("5-0 9-6 M13 right")
    assert game.record() == before
    assert "5-0 9-6 M13 right" not in legal(game)


# A vertical 6-2 on M13-M14 and a marker on J13: a line along row 13 through M13.
MARKED = {"board": ["6-2 M13 down"], "markers": ["J13"]}


def test_an_end_already_closed_by_a_marker_takes_no_new_one() -> None:
    game = new([["5-4", "3-2", "1-1"], ["8-8"]], **MARKED)
    assert "5-4 3-2 K13 right" in legal(game)
    game.play("5-4 3-2 K13 right")  # 5 + 4 + 6 (already there) + 3 + 2
    assert markers_at(game) == {"J13": -1, "P13": 0}
    assert game.view(None)["markers"] == [21, 22]


def test_a_new_line_must_use_a_tile_already_on_the_table() -> None:
    game = new([["5-4", "9-2", "1-1"], ["8-8"]], **MARKED)
    with pytest.raises(IllegalMove, match="part of a tile already on the table"):
        game.play("5-4 9-2 C4 right")


def test_a_line_that_makes_another_line_exceed_20_is_refused() -> None:
    # a vertical 9-9 on N11-N12: a 3 laid on N13 would make that column 21
    game = new([["5-4", "3-2", "1-1"], ["8-8"]], board=["6-2 M13 down", "9-9 N11 down"],
               markers=["J13"])
    before = game.record()
    with pytest.raises(IllegalMove, match="N11 to N13 would total 21"):
        game.play("5-4 3-2 K13 right")
    assert game.record() == before
    assert "5-4 3-2 K13 right" not in legal(game)
    assert "5-4 2-3 K13 right" in legal(game)  # the 2 on N13 makes the column 20


def test_a_line_of_20_across_the_play_takes_its_markers_too() -> None:
    game = new([["5-4", "3-2", "1-1"], ["8-8"]], board=["6-2 M13 down", "9-9 N11 down"],
               markers=["J13"])
    moves = {str(m): m.markers for m in game.legal_moves()}
    assert moves["5-4 2-3 K13 right"] == 3  # P13, and N10 and N14 of the column
    game.play("5-4 2-3 K13 right")
    assert set(markers_at(game)) == {"J13", "P13", "N10", "N14"}
    assert [line["total"] for line in game.view(None)["last_play"]["lines"]] == [20, 20]


# Two lines waiting for a tile: 9-5 on M13-N13 (14) and 8-4 on M16-N16 (12).
WAITING = {"board": ["9-5 M13 right", "8-4 M16 right"]}


def test_single_tiles_making_20_are_played_again_and_again() -> None:
    game = new([["4-2", "5-3", "1-1"], ["8-8"]], stock=["7-7", "6-6", "9-7"], **WAITING)
    assert "4-2 O13 right" in legal(game)
    game.play("4-2 O13 right")
    assert game.to_move == 0 and game.view(0)["running"]
    assert "pass" in legal(game)  # the seat may stop
    with pytest.raises(IllegalMove, match="only single tiles"):
        game.play("5-3 1-1 O16 right")
    game.play("5-3 O16 right")
    # no single tile of the rack (1-1) makes 20 any more: the turn ends, the rack is refilled
    assert game.to_move == 1
    assert sorted(game.view(0)["hand"]) == ["1-1", "6-6", "7-7", "9-7"]
    assert game.view(None)["markers"] == [18, 22]
    assert [m["seat"] for m in game.view(None)["events"] if m["type"] == "draw"] == [0]


def test_a_player_may_stop_a_run_of_single_tiles() -> None:
    game = new([["4-2", "5-3", "1-1"], ["8-8"]], **WAITING)
    game.play("4-2 O13 right")
    game.play("pass")
    assert game.to_move == 1


def test_a_pass_is_only_for_a_player_who_cannot_make_20() -> None:
    game = new([["4-2", "1-1"], ["8-8"]], stock=["7-7"], **WAITING)
    with pytest.raises(IllegalMove, match="pass only when"):
        game.play("pass")
    game.play("4-2 O13 right")
    assert legal(game) == ["pass"] or game.to_move == 1


def test_the_round_ends_when_a_seat_places_its_last_markers() -> None:
    game = new([["9-5", "4-2"], ["8-8"]], left=[2, 9])
    game.play("9-5 4-2 M13 right")
    assert game.over and game.to_move is None
    result = game.result
    assert result is not None
    assert result["winners"] == [0] and result["reason"] == "markers"
    assert result["scores"] == [9, 0]  # the others' markers left, minus its own (none)


def test_a_play_needing_more_markers_than_left_places_the_last_one_and_wins() -> None:
    game = new([["9-5", "4-2"], ["8-8"]], left=[1, 9])
    game.play("9-5 4-2 M13 right")
    assert game.over and len(markers_at(game)) == 1


def test_the_round_ends_when_nobody_can_play_and_the_stock_is_empty() -> None:
    game = new([["8-8"], ["9-8"]], board=["1-1 M13 right"], left=[5, 7])
    assert legal(game) == ["pass"]
    game.play("pass")
    assert not game.over
    game.play("pass")
    result = game.result
    assert result is not None
    assert result["reason"] == "tiles" and result["winners"] == [0]
    assert result["scores"] == [2, 0]  # 7 - 5


def test_a_match_to_a_target_deals_new_rounds() -> None:
    game = variants.get("vingt").new(players=2, seed=3, target=30)
    bots = [make_player("random", 1), make_player("random", 2)]
    while not game.over:
        game.play(bots[game.to_move].choose(game))
    result = game.result
    assert result is not None and max(result["scores"]) >= 30
    assert result["rounds"] > 1
    assert replay(game.record()).view(None) == game.view(None)


def test_four_computers_finish() -> None:
    for seed in range(3):
        game = variants.get("vingt").new(players=4, seed=seed)
        bots = [make_player("greedy" if s % 2 else "random", seed + s) for s in range(4)]
        for _ in range(400):
            if game.over:
                break
            game.play(bots[game.to_move].choose(game))
        assert game.over


def test_markers_by_player_count() -> None:
    for players, count in ((2, 22), (3, 15), (4, 11)):
        game = variants.get("vingt").new(players=players, seed=1)
        assert game.view(None)["markers"] == [count] * players
        assert game.view(None)["stock"] == 54 - 5 * players
    with pytest.raises(OptionError):
        variants.get("vingt").new(players=5)


def test_notation_round_trips_and_reads_left_and_up() -> None:
    game = new([["5-3", "4-4", "2-2"], ["8-8"]], board=["1-1 M13 right"])
    move = game.parse_move("5-3 4-4 2-2 c4 RIGHT")
    assert str(move) == "5-3 4-4 2-2 C4 right"
    assert game.parse_move(str(move)) == move
    assert str(game.parse_move("2-2 L13 left")) == "2-2 K13 right"
    assert str(game.parse_move("3-5 M12 up")) == "5-3 M11 down"
    # from R13 going left: 4-4 on R13-Q13, 3-5 on P13-O13
    assert str(game.parse_move("4-4 3-5 R13 gauche")) == "5-3 4-4 O13 right"
    for bad in ("5-3 Z9 right", "5-3 C4 sideways", "10-3 C4 right", "x" * 200, "", None):
        with pytest.raises(IllegalMove):
            game.parse_move(bad)  # type: ignore[arg-type]


def test_bad_deals_are_refused() -> None:
    for deal in ({"hands": [["0-0"], ["8-8"]]}, {"hands": [["8-8"], ["8-8"]]},
                 {"hands": [["8-8"]]}, {"hands": [["8-8"], []], "markers": ["Z99"]},
                 {"hands": [["8-8"], []], "board": ["7-7 Y25 right"]}):
        with pytest.raises(OptionError):
            variants.get("vingt").new(players=2, deal=deal)


def test_preview_gives_a_builder_the_total_so_far() -> None:
    game = new([["5-4", "3-2", "1-1"], ["8-8"]], **MARKED)
    part = game.preview("5-4 K13 right")
    assert part["total"] == 15 and not part["legal"] and part["cells"] == ["K13", "L13"]
    whole = game.preview("5-4 3-2 K13 right")
    assert whole["legal"] and whole["total"] == 20 and whole["markers"] == ["P13"]
    wrong = game.preview("5-4 C4 right")
    assert wrong["why_template"] == "{a}-{b} there makes no line of 20"
    assert "5-4 3-2 K13 right" in [str(m) for m in game.legal_with(["3-2", "5-4"])]
    assert all(len(m.tiles) == 2 for m in game.legal_with(["3-2", "5-4"]))


def test_the_greedy_player_places_the_most_markers() -> None:
    from core.ai.grid import GridGreedy, best_plays, run_value

    game = new([["5-4", "3-2", "1-1"], ["8-8"]], board=["6-2 M13 down", "9-9 N11 down"],
               markers=["J13"])
    # 2-3 5-4 from N13: 6 + 2 + 3 + 5 + 4 along row 13 (L13, R13) and 9 + 9 + 2 down N (N10, N14)
    most = max(m.markers for m in game.legal_moves())
    assert most == 4
    plays = [m for m in game.legal_moves() if m.kind == PLAY]
    top = max(run_value(game, m) for m in plays)  # a single tile counts with its run
    assert top >= 4
    for seed in range(3):
        assert run_value(game, GridGreedy(seed).choose(game)) == top
    best = best_plays(game, 2)
    assert best[0]["value"] == top and best[0]["legal"]
    # a single tile is worth its run: 4-2 then 5-3 close both waiting lines (4 markers)
    game = new([["4-2", "5-3", "1-1"], ["8-8"]], **WAITING)
    choice = GridGreedy(1).choose(game)
    assert len(choice.tiles) == 1 and run_value(game, choice) == 4


def test_a_line_of_20_whose_open_end_is_off_the_grid_is_refused() -> None:
    game = new([["4-2", "1-1"], ["8-8"]], board=["9-5 X13 right"])  # 5 on Y13, the last column
    assert not any(str(m).startswith("4-2 V13") for m in game.legal_moves())
    with pytest.raises(IllegalMove, match="marker off the grid"):
        game.play("4-2 V13 right")
    # a blank half on the edge closes that end: 6 + 5 + 9 + 0, one marker on U13
    game = new([["6-5", "1-1"], ["8-8"]], board=["9-0 X13 right"])
    assert {str(m): m.markers for m in game.legal_moves()}["6-5 V13 right"] == 1
    game.play("6-5 V13 right")
    assert markers_at(game) == {"U13": 0}
