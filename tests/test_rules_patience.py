"""The domino patience (000, "DOMINO PATIENCE") on hand-built columns: pairs totalling 12,
what is uncovered, the end, the hint, and the search that says whether a deal could be won."""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import pytest

from core import IllegalMove, OptionError, replay, variants
from core.ai import make_player
from core.ai.patience import hint
from core.solitaire.patience_search import PIPS, TOTAL, solve

PATIENCE = variants.get("patience")


def deal(*columns: list[str]) -> dict[str, Any]:
    return {"deal": {"columns": [list(c) for c in columns]}}


def test_two_face_up_tiles_totalling_12_go_and_uncover_the_tiles_under_them() -> None:
    g = PATIENCE.new(**deal(["6-4", "0-0"], ["2-0", "6-6"]))
    v = g.view(0)
    assert v["board"] == ["6-4", "2-0"] and v["legal"] == ["6-4 2-0"]
    assert [c["hidden"] for c in v["columns"]] == [1, 1]
    assert "0-0" not in json.dumps(v) and "6-6" not in json.dumps(v)
    g.play("2-0 + 6-4")  # either order, with a plus
    assert g.view(None)["board"] == ["0-0", "6-6"]
    g.play("6-6 0-0")
    assert g.over and g.result is not None
    assert g.result["winners"] == [0] and g.result["reason"] == "cleared"
    assert g.result["winnable"] is True and g.result["scores"] == [4]


def test_no_hand_so_hand_sizes_is_zero_and_the_tiles_left_are_under_left() -> None:
    # the interface: hand_sizes counts each seat's hand; the patience has none
    g = PATIENCE.new(**deal(["6-4", "0-0"], ["2-0", "6-6"], ["1-1"]))
    g.play("6-4 2-0")
    for seat in (None, 0):
        v = g.view(seat)
        assert v["hand_sizes"] == [0] and v["hand"] == [] and v["left"] == 3


def test_stuck_when_no_two_face_up_tiles_total_12() -> None:
    g = PATIENCE.new(**deal(["6-0", "6-6", "0-0"], ["5-1"]))
    g.play("6-0 5-1")
    assert g.over and g.result["winners"] == [] and g.result["reason"] == "stuck"
    assert g.result["winnable"] is False and g.result["solution"] is None
    v = g.view(None)
    assert v["winnable"] is False and v["columns"][0]["tiles"] == ["6-6", "0-0"]  # shown now


@pytest.mark.parametrize(("text", "why"), [
    ("6-6 0-0", "not face up"), ("6-4 4-2", "total 16"), ("6-4 6-4", "two different"),
    ("6-4", "name two tiles"), ("6-4 2-0 1-1", "name two tiles"), ("zz", "name two tiles"),
    ("9-9 1-0", "name two tiles"), ("x" * 100, "too long"),
])
def test_bad_moves_are_refused_and_change_nothing(text: str, why: str) -> None:
    g = PATIENCE.new(**deal(["6-4", "0-0"], ["2-0", "6-6"], ["4-2"]))
    before = json.dumps(g.view(0))
    with pytest.raises(IllegalMove, match=why):
        g.play(text)
    assert json.dumps(g.view(0)) == before and g.turn == 0


@pytest.mark.parametrize("bad", [
    {"columns": []}, {"columns": [["6-4", "6-4"]]}, {"columns": [["7-7"]]}, {"columns": "x"},
    {"columns": [[]]}, {"hands": [["6-4"]]},
])
def test_bad_deals_are_refused(bad: Any) -> None:
    with pytest.raises(OptionError):
        PATIENCE.new(deal=bad)


def test_one_player_only() -> None:
    with pytest.raises(OptionError, match="exactly 1"):
        PATIENCE.new(players=2)


def test_the_hint_takes_the_pair_lying_on_the_most_face_down_tiles() -> None:
    g = PATIENCE.new(**deal(["6-0"], ["5-1", "3-3"], ["4-2", "2-2", "1-1"], ["6-3"]))
    assert sorted(g.view(0)["legal"]) == ["5-1 4-2", "6-0 4-2", "6-0 5-1"]
    assert hint(g.view(0)) == "5-1 4-2"
    assert str(make_player("greedy", 1).choose(g)) == "5-1 4-2"


def naive_winnable(columns: list[list[int]]) -> bool:
    """Every order of moves, no memory: the slow truth for small deals."""
    if not any(columns):
        return True
    for i, j in itertools.combinations(range(len(columns)), 2):
        if columns[i] and columns[j] and PIPS[columns[i][-1]] + PIPS[columns[j][-1]] == TOTAL:
            rest = [c[:] for c in columns]
            rest[i].pop()
            rest[j].pop()
            if naive_winnable(rest):
                return True
    return False


def test_the_search_agrees_with_trying_every_order_on_small_deals() -> None:
    rng = random.Random(7)
    found = {True: 0, False: 0}
    pairs = [(a, b) for a, b in itertools.combinations(range(28), 2) if PIPS[a] + PIPS[b] == TOTAL]
    for _ in range(300):
        tiles: list[int] = []  # six pairs totalling 12, so that some deals can be won
        for a, b in rng.sample(pairs, len(pairs)):
            if a not in tiles and b not in tiles and len(tiles) < 12:
                tiles += [a, b]
        rng.shuffle(tiles)
        cols = [tiles[k * 3:(k + 1) * 3] for k in range(4)]
        line = solve(cols)
        assert (line is not None) == naive_winnable(cols)
        found[line is not None] += 1
        if line is not None:  # the line found is a real win
            stacks = [c[:] for c in cols]
            for i, j in line:
                assert PIPS[stacks[i].pop()] + PIPS[stacks[j].pop()] == TOTAL
            assert not any(stacks)
    assert found[True] and found[False]


def test_the_solution_given_at_the_end_wins_the_same_deal() -> None:
    checked = 0
    for seed in range(40):
        g = PATIENCE.new(seed=seed)
        bot = make_player("random", seed)
        while not g.over:
            g.play(bot.choose(g))
        result = g.result
        assert result is not None
        if result["winners"]:
            assert result["winnable"]
        if result["winnable"]:
            again = PATIENCE.new(seed=seed)
            for text in result["solution"]:
                again.play(text)
            assert again.over and again.result["winners"] == [0]
            checked += 1
    assert checked


def test_the_solution_is_not_told_before_the_end() -> None:
    g = PATIENCE.new(seed=3)
    assert g.view(None)["winnable"] is None
    if not g.over:
        with pytest.raises(IllegalMove, match="not over"):
            g.solution()


def test_a_record_replays_the_same_game() -> None:
    g = PATIENCE.new(seed=21)
    bot = make_player("greedy", 1)
    while not g.over:
        g.play(bot.choose(g))
    again = replay(json.loads(json.dumps(g.record())))
    assert again.view(0) == g.view(0) and again.result == g.result
