"""The "20" game when nobody can open: a new deal, not a 0-0 tie; and why a seat passes.

About one 2-player deal in eight (24 of seeds 1-200) used to end at once in a 0-0 tie
because nobody could make the first line. Now, once every seat has passed on the empty grid,
the tiles are dealt again from the match's shuffler (a record replays it) and the same seat
starts (docs/rules/vingt.md, "Choices we made"). A seat whose only move is ``pass`` is told
why: ``view["pass_reason"]``, and the words of its button and of its hand.
"""

from __future__ import annotations

from bot.service import words
from core import replay, variants
from core.grid.match import GridMatch

VINGT = variants.get("vingt")
# seeds whose 2-player first deal nobody could open (found with the rules before the redeal):
# seeds 17 and 166 need three deals
NO_OPENING = (9, 17, 24, 166)
# racks that cannot open: 11 pips; 22 pips but no 2 to 5 of them total 20
LOW = {"hands": [["1-1", "2-1", "1-0", "2-0", "3-0"], ["3-1", "4-0", "2-2", "3-2", "4-1"]]}


def passes_on_empty_grid(game: GridMatch) -> int:
    """Play the passes of seats that cannot open, while the grid is empty; the deals seen."""
    redeals = 0
    while not game.over and not game.laid and [str(m) for m in game.legal_moves()] == ["pass"]:
        mover = game.to_move
        assert game.view(mover)["pass_reason"] == "cannot_make_20"
        game.play("pass")
        if any(e["type"] == "redeal" for e in game.view(None)["events"]):
            redeals += 1
            assert game.to_move == game.leader == 0  # the same seat starts the new deal
    return redeals


def test_nobody_can_open_a_hand_built_deal_the_tiles_are_dealt_again() -> None:
    game = VINGT.new(players=2, seed=7, deal=LOW)
    assert [str(m) for m in game.legal_moves()] == ["pass"]
    game.play("pass")
    assert not game.over and game.to_move == 1
    game.play("pass")
    view = game.view(None)
    assert not game.over and view["events"] == [{"type": "pass", "seat": 1},
                                                {"type": "redeal", "seat": 0}]
    assert game.to_move == 0 and view["board"] == [] and view["markers"] == [22, 22]
    assert view["hand_sizes"] == [5, 5] and view["stock"] == 54 - 10  # every tile dealt again
    hands = [set(game.view(s)["hand"]) for s in (0, 1)]
    assert hands != [set(h) for h in LOW["hands"]] and not hands[0] & hands[1]
    again = replay(game.record())  # the new deal comes from the seed: the record replays it
    assert [again.view(s) for s in (None, 0, 1)] == [game.view(s) for s in (None, 0, 1)]


def test_seeds_that_ended_0_0_at_once_are_dealt_again_and_replay() -> None:
    for seed in NO_OPENING:
        game = VINGT.new(players=2, seed=seed)
        redeals = passes_on_empty_grid(game)
        assert redeals >= 1 and not game.over, seed
        assert any(str(m) != "pass" for m in game.legal_moves()), seed
        assert "pass_reason" not in game.view(game.to_move)
        again = replay(game.record())
        assert again.view(0) == game.view(0) and again.view(None) == game.view(None), seed
    game = VINGT.new(players=2, seed=17)
    assert passes_on_empty_grid(game) == 3


def test_no_2_player_game_of_seeds_1_to_200_ends_0_0_at_once() -> None:
    for seed in range(1, 201):
        game = VINGT.new(players=2, seed=seed)
        passes_on_empty_grid(game)
        assert not game.over and not game.laid, seed
        assert any(str(m) != "pass" for m in game.legal_moves()), seed


def test_a_seat_that_must_pass_is_told_why_in_english_and_french() -> None:
    game = VINGT.new(players=2, seed=1, deal={"hands": [["8-8"], ["9-8"]], "stock": [],
                                              "board": ["1-1 M13 right"], "left": [5, 7]})
    mover = game.view(0)
    assert mover["legal"] == ["pass"] and mover["pass_reason"] == "cannot_make_20"
    assert "pass_reason" not in game.view(1) and "pass_reason" not in game.view(None)
    assert words.move_label("grid", "pass", mover, "en") == "You cannot make 20: pass"
    assert words.move_label("grid", "pass", mover, "fr") == \
        "Vous ne pouvez pas faire 20 : passer"
    assert words.grid.ask(mover, "", "en") == "You cannot make 20 with your rack: pass."
    assert words.grid.ask(mover, "", "fr") == \
        "Vous ne pouvez pas faire 20 avec votre réglette : passez."
    opening = VINGT.new(players=2, seed=7, deal=LOW).view(0)  # nothing on the grid yet
    assert "dealt again" in words.grid.ask(opening, "", "en")
    assert "redistribués" in words.grid.ask(opening, "", "fr")


def test_a_run_of_single_tiles_stops_with_a_plain_pass_and_no_reason() -> None:
    # two lines waiting for a tile: 9-5 on M13-N13 (14) and 8-4 on M16-N16 (12)
    game = VINGT.new(players=2, seed=1, deal={"hands": [["4-2", "5-3", "1-1"], ["8-8"]],
                                              "stock": [],
                                              "board": ["9-5 M13 right", "8-4 M16 right"]})
    game.play("4-2 O13 right")
    view = game.view(0)
    assert view["running"] and "5-3 O16 right" in view["legal"] and "pass" in view["legal"]
    assert "pass_reason" not in view  # pass stops the run: it is a choice, not forced
    assert words.move_label("grid", "pass", view, "en") == "Pass"


def test_the_redeal_is_told_in_words() -> None:
    game = VINGT.new(players=2, seed=7, deal=LOW)
    game.play("pass")
    game.play("pass")
    names = ["alice", "bob"]
    view = game.view(None)
    assert ("Nobody can make 20 to open: the tiles are dealt again, and alice starts."
            in words.events_lines(view, names, "en"))
    assert ("Personne ne peut faire 20 pour ouvrir : les dominos sont redistribués, et alice "
            "commence." in words.events_lines(view, names, "fr"))


def test_forty_two_all_pass_redeal_is_told_in_words() -> None:
    game = variants.get("forty-two").new(seed=3)
    for _ in range(4):
        game.play("pass")
    view = game.view(None)
    first = ["alice", "bob", "carol", "dan"][view["to_move"]]
    said = words.events_lines(view, ["alice", "bob", "carol", "dan"], "en")
    assert f"Everyone passed: the tiles are dealt again, and {first} bids first." in said
    assert not any("make 20" in line for line in said)
