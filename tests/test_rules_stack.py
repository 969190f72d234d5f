"""The stacking games of 001 (tower, quinconce) on hand-built deals, and the fall model."""

from __future__ import annotations

import random

import pytest

from core import IllegalMove, replay, variants
from core.ai import make_player
from core.stack.geometry import Construction, Placed, cut_risk, fall_risk
from core.stack.match import StackMatch
from core.tiles import tile_id


def tower(players: int = 2, seed: int = 1, **options: object) -> StackMatch:
    g = variants.get("tower").new(players=players, seed=seed, **options)
    assert isinstance(g, StackMatch)
    return g


def dealt(slug: str, hands: list[list[str]], stock: list[str] | None = None, seed: int = 1,
          **options: object) -> StackMatch:
    g = variants.get(slug).new(players=len(hands), seed=seed,
                               deal={"hands": hands, "stock": stock or []}, **options)
    assert isinstance(g, StackMatch)
    return g


def texts(g: StackMatch) -> list[str]:
    return [str(m) for m in g.legal_moves()]


# -- placements -------------------------------------------------------------------------


def test_the_highest_double_opens_and_the_second_tile_lies_in_line_with_it() -> None:
    g = dealt("tower", [["6-4", "5-5", "3-1"], ["6-6", "2-2", "0-0"]], ["6-3", "1-0"])
    assert g.to_move == 1 and texts(g) == ["6-6"]
    g.play("6-6")
    # the book's tip (parallel_start, on by default): in line with the double only
    assert sorted(texts(g)) == ["6-4 on 1e east", "6-4 on 1w west"]
    free = dealt("tower", [["6-4", "5-5", "3-1"], ["6-6", "2-2", "0-0"]], ["6-3"],
                 parallel_start=False)
    free.play("6-6")
    assert sorted(texts(free)) == sorted(f"6-4 on 1{h} {d}" for h, ds in
                                         (("e", ("east", "north", "south")),
                                          ("w", ("west", "north", "south"))) for d in ds)


def test_a_seat_that_cannot_play_draws_one_tile_and_passes_even_if_it_fits() -> None:
    g = dealt("tower", [["6-4", "5-5", "3-1"], ["6-6", "2-2", "0-0"]], ["6-3", "1-0"])
    g.play("6-6")
    g.play("6-4 on 1e east")
    events = g.view(None)["events"]
    assert [(e["type"], e["seat"]) for e in events] == [
        ("draw", 1), ("pass", 1), ("draw", 0), ("pass", 0)]
    assert g.to_move == 1  # 6-3, drawn last turn, now fits
    assert g.view(1)["hand"] == ["6-3", "2-2", "0-0"]
    assert all(m.startswith("6-3 on ") for m in texts(g))


def test_equal_halves_are_superposed_and_every_free_half_takes_a_tile() -> None:
    g = dealt("tower", [["6-4", "4-4", "1-0"], ["6-6", "2-2", "0-0"]], ["3-3"])
    g.play("6-6")
    g.play("6-4 on 1e east")
    assert g.to_move == 0  # seat 1 cannot play: it drew 3-3 and passed
    moves = texts(g)
    # the 4 of 6-4 is free above: 4-4 goes on it, three ways (not back over the 6)
    assert sorted(m for m in moves if m.startswith("4-4 on")) == [
        "4-4 on 2 east", "4-4 on 2 north", "4-4 on 2 south"]
    for m in g.legal_moves():
        placed = g.placement(m)
        target = g.con.tiles[m.target - 1]
        assert placed.values[0] == target.values[m.half]
        assert placed.cells[0] == target.cells[m.half]
        for cell, value in zip(placed.cells, placed.values, strict=True):
            under = g.con.value_at(cell, placed.level - 1)
            assert under is None or under == value
        assert placed.level == (target.level + 1 if m.how == "on" else 0)


def test_a_tile_slides_under_a_half_that_hangs_over_the_table() -> None:
    g = dealt("tower", [["6-4", "4-3", "1-0"], ["6-6", "2-2", "0-0", "5-5"]], ["1-1"])
    g.play("6-6")
    g.play("6-4 on 1e east")  # its 4 hangs over the table at level 1
    assert g.to_move == 0  # seat 1 drew 1-1 and passed
    under = [m for m in texts(g) if " under " in m]
    assert sorted(under) == ["4-3 under 2 east", "4-3 under 2 north", "4-3 under 2 south"]
    g.play("4-3 under 2 east")
    slid = g.con.tiles[-1]
    assert slid.level == 0 and slid.cells == ((2, 0), (3, 0))
    assert g.view(None)["construction"][1]["on"] == [1, 3]  # 6-4 now rests on both


def test_ends_only_takes_tiles_at_the_two_ends_of_the_construction() -> None:
    hands = [["6-4", "4-1", "6-2", "0-0"], ["6-6", "1-1", "2-2", "3-3"]]
    free = dealt("tower", hands, ["0-1"])
    ends = dealt("tower", hands, ["0-1"], ends_only=True)
    for g in (free, ends):
        g.play("6-6")
        g.play("6-4 on 1e east")
        assert g.to_move == 0  # seat 1 drew 0-1 and passed
    assert ends.view(None)["ends"] == [6, 4] and ends.view(None)["end_names"] == ["1w", "2"]
    assert {m.split()[2] for m in texts(ends)} == {"1w", "2"}
    assert {m.split()[2] for m in texts(free)} >= {"1w", "2"}
    # the 6 of 6-4 lies on the double's east half: covered, so no tile goes there
    assert not any(" on 1e " in m for m in texts(free))
    with pytest.raises(IllegalMove, match="no tile 9"):
        ends.play("4-1 on 9 east")


def test_first_out_wins_and_rounds_add_what_the_losers_hold() -> None:
    g = dealt("tower", [["6-4"], ["6-6", "5-3", "2-1"]], rounds=2)
    g.play("6-6")
    g.play("6-4 on 1e east")
    assert g.round_results[0]["winners"] == [0]
    assert g.round_results[0]["points"] == [0, 5 + 3 + 2 + 1]
    assert g.round_no == 2 and not g.over


def test_blocked_round_fewest_pips_or_tiles_win() -> None:
    hands = [["6-6", "1-0"], ["5-5", "4-3", "2-0"]]
    g = dealt("tower", hands)
    g.play("6-6")  # nobody holds a 6, the stock is empty
    assert g.over and g.result["reason"] == "blocked"
    assert g.result["winners"] == [0]  # 1 pip against 19
    by_tiles = dealt("tower", [["6-6", "1-0", "2-1", "0-0"], ["5-5", "4-3"]], count="tiles")
    by_tiles.play("6-6")
    assert by_tiles.over and by_tiles.result["winners"] == [1]  # 2 tiles against 3


# -- quinconce ---------------------------------------------------------------------------


def test_quinconce_alternates_flat_and_on_top_across_draws_at_three_players() -> None:
    hands = [["6-4", "4-2", "2-2"], ["6-6", "0-0", "3-1"], ["6-5", "5-1", "4-4"]]
    g = dealt("quinconce", hands, ["0-1", "0-2", "0-3", "0-4"])
    g.play("6-6")
    assert g.mode() == "top"
    assert g.to_move == 2 and all(" on " in m for m in texts(g))
    g.play("6-5 on 1e east")
    assert g.mode() == "flat"
    moves = texts(g)
    assert moves and all(" next " in m or " under " in m for m in moves), moves
    assert "6-4 next 1w west" in moves
    g.play("6-4 next 1w west")
    assert g.mode() == "top" and all(" on " in m for m in texts(g))


def test_drawing_is_not_playing_the_next_player_keeps_the_required_way() -> None:
    # after a flat play, seats that draw leave the next player to play on top
    hands = [["6-6", "3-3", "0-0"], ["1-1", "2-2", "1-0"], ["6-4", "3-1", "2-0"]]
    g = dealt("quinconce", hands, ["5-0", "5-1", "5-2"])
    g.play("6-6")
    assert [e["type"] for e in g.view(None)["events"]] == ["draw", "pass"]  # seat 1
    assert g.to_move == 2 and g.mode() == "top"


def test_at_two_players_each_seat_alternates_its_own_plays() -> None:
    hands = [["6-6", "6-4", "4-4", "0-0"], ["6-5", "5-5", "5-3", "1-1"]]
    g = dealt("quinconce", hands, ["2-0", "2-1", "3-0"])
    g.play("6-6")
    assert g.modes == ["top", "flat"]  # both start flat: seat 1 plays flat too
    assert all(" next " in m or " under " in m for m in texts(g))
    g.play("6-5 next 1e east")
    assert g.modes == ["top", "top"]
    g.play("6-4 on 1w west")
    assert g.modes == ["flat", "top"]
    assert g.to_move == 1 and all(" on " in m for m in texts(g))


# -- notation ----------------------------------------------------------------------------


def test_notation_round_trips_and_bad_text_is_refused_clearly() -> None:
    g = dealt("tower", [["6-4", "4-4", "1-0"], ["6-6", "2-2", "0-0"]], ["3-3"],
              parallel_start=False)
    g.play("6-6")
    for m in g.legal_moves():
        assert g.parse_move(str(m)) == m
    assert g.parse_move("4-6 sur 1e est") == g.parse_move("6-4 on 1e east")
    before = g.view(0)
    for bad, words in (("6-4 on 1 north", "double: say which half"),
                       ("6-4 on 7e east", "no tile 7"),
                       ("6-4 on 1e up", "unknown direction"),
                       ("1-0 on 1e east", "no half"),
                       ("2-2 on 1e east", "not in your hand"),
                       ("6-4", "say where"), ("x" * 500, "too long"), ("hello", "not a move")):
        with pytest.raises(IllegalMove, match=words):
            g.play(bad)
    with pytest.raises(IllegalMove, match="does not fit"):
        g.play("6-4 on 1e west")  # back over the double's west half: a 4 on a 6
    assert g.view(0) == before


# -- the fall model ------------------------------------------------------------------------


def block(cells: tuple[tuple[int, int], tuple[int, int]], level: int) -> Placed:
    return Placed(0, (1, 1), cells, level)


def wall(levels: int) -> Construction:
    """A brick wall running east-west, one tile wide: two tiles a level, staggered."""
    tiles = []
    for z in range(levels):
        off = z % 2
        tiles += [block(((off, 0), (off + 1, 0)), z), block(((off + 2, 0), (off + 3, 0)), z)]
    return Construction(tiles)


def arm(base: Construction, cells: list[tuple[tuple[int, int], tuple[int, int]]]
        ) -> tuple[Construction, int]:
    """`base` with tiles added one level above each other."""
    con = base.copy()
    level = base.height() + 1
    i = -1
    for c in cells:
        i = con.add(block(c, level))
        level += 1
    return con, i


def test_a_flat_two_tile_tower_never_falls() -> None:
    for cells in (((1, 0), (2, 0)), ((1, 0), (1, 1)), ((1, 0), (1, -1)), ((0, 0), (-1, 0))):
        con = Construction([block(((0, 0), (1, 0)), 0)])
        i = con.add(block(cells, 1))
        assert fall_risk(con, i) == 0.0
    g = dealt("tower", [["6-4", "5-5"], ["6-6", "2-2"]], parallel_start=False)
    g.play("6-6")
    assert set(g.view(0)["risks"].values()) == {0.0}


def test_an_arm_laid_across_a_tall_wall_falls_more_often_than_one_in_line() -> None:
    base = wall(5)  # levels 0-4; its top tiles lie east-west at x 0-3
    across, i = arm(base, [((3, 0), (3, 1)), ((3, 1), (3, 2))])  # 2 tiles pointing north
    in_line, j = arm(base, [((3, 0), (4, 0)), ((4, 0), (5, 0))])  # the same, pointing east
    p_across, p_line = fall_risk(across, i), fall_risk(in_line, j)
    assert 0 < p_line < p_across < 1
    # the narrow wall: across, the block tips off its one-tile width; in line it rests
    assert cut_risk(across, i, 5) > cut_risk(in_line, j, 5)
    assert cut_risk(in_line, j, 4) == 0.0 < cut_risk(across, i, 4)
    rng = random.Random(7)
    draws = [rng.random() for _ in range(4000)]
    assert sum(d < p_across for d in draws) > sum(d < p_line for d in draws)
    # and the same arm on a short wall is safer than on the tall one
    short, k = arm(wall(2), [((3, 0), (3, 1)), ((3, 1), (3, 2))])
    assert fall_risk(short, k) < p_across


def test_an_overhang_grows_the_risk_and_a_support_under_it_takes_it_away() -> None:
    stairs = Construction([block(((0, 0), (1, 0)), 0), block(((1, 0), (2, 0)), 1)])
    i = stairs.add(block(((2, 0), (3, 0)), 2))  # a staircase: the top two hang out
    assert fall_risk(stairs, i) > 0.1
    propped = Construction([block(((0, 0), (1, 0)), 0), block(((1, 0), (2, 0)), 1),
                            block(((2, 0), (3, 0)), 0)])
    j = propped.add(block(((2, 0), (3, 0)), 2))
    assert fall_risk(propped, j) == 0.0


def test_the_same_seed_gives_the_same_fall() -> None:
    def risky_game(seed: int) -> StackMatch:
        g = tower(players=2, seed=seed)
        bots = [make_player("random", 5), make_player("random", 6)]
        while not g.over and not g.falls:
            g.play(bots[g.to_move].choose(g))
        return g

    fell = [s for s in range(40) if risky_game(s).falls]
    assert fell, "no fall in 40 random games"
    for s in fell[:3]:
        a, b = risky_game(s), risky_game(s)
        assert a.record() == b.record() and a.view(None) == b.view(None)
        again = replay(a.record())
        assert again.view(None) == a.view(None) and again.falls == a.falls


def test_a_fall_gives_the_mover_the_construction_and_the_highest_double_restarts() -> None:
    found = 0
    for seed in range(300):
        g = tower(players=3, seed=seed)
        rng = random.Random(seed)
        while not g.over:
            seat = g.to_move
            risks = g.view(seat)["risks"]
            move = max(g.legal_moves(), key=lambda m: (risks[str(m)], rng.random()))
            built = {tile_id(*map(int, t.split("-"))) for t in g.view(None)["board"]}
            before = g.hands[seat]
            falls = g.falls
            g.play(move)
            if g.falls > falls:
                found += 1
                taken = before
                for t in (*built, move.tid):
                    taken |= 1 << t
                assert g.hands[seat] == taken  # the mover took every tile, none drawn since
                public = g.view(None)
                assert public["board"] == [] and public["layout"]["fell"]["seat"] == seat
                lead = texts(g)
                assert len(lead) == 1
                a, b = map(int, lead[0].split("-"))
                doubles = [v for s in range(3) for v in range(7)
                           if (g.hands[s] >> tile_id(v, v)) & 1]
                assert a == b == max(doubles) and (g.hands[g.to_move] >> tile_id(a, a)) & 1
                break
        if found >= 3:
            break
    assert found >= 3


# -- views and computer players ------------------------------------------------------------


def test_views_show_the_construction_and_the_movers_risks_only() -> None:
    g = dealt("tower", [["6-4", "5-5", "3-1"], ["6-6", "2-2", "0-0"]], ["6-3", "1-0"])
    g.play("6-6")
    public, mover, other = g.view(None), g.view(0), g.view(1)
    for v in (public, mover, other):
        assert {"seat", "to_move", "hand_sizes", "board", "ends", "stock", "scores", "round",
                "construction", "risks", "layout"} <= set(v)
    assert "hand" not in public and "legal" not in public and public["risks"] == {}
    assert other["risks"] == {} and "legal" not in other
    assert set(mover["risks"]) == set(mover["legal"])
    assert public["construction"] == [{"n": 1, "tile": "6-6", "cells": [[0, 0], [1, 0]],
                                       "level": 0, "axis": "ew", "on": []}]


@pytest.mark.parametrize("slug", ["tower", "quinconce"])
def test_a_table_of_computer_seats_finishes(slug: str) -> None:
    for players in (2, 3, 4):
        g = variants.get(slug).new(players=players, seed=players)
        bots = [make_player("greedy" if s % 2 else "random", s) for s in range(players)]
        for _ in range(3000):
            if g.over:
                break
            move = bots[g.to_move].choose(g)
            assert move in g.legal_moves()
            g.play(move)
        assert g.over and g.result["winners"]


def test_greedy_shuns_a_likely_fall_when_a_safe_move_exists() -> None:
    """A move with a half chance of a fall is worth less than nothing (the mover would
    take the construction back): greedy lays a safe tile instead, even a lighter one."""
    greedy, chooser = make_player("greedy", 3), random.Random(3)
    found = 0
    for seed in range(30):
        g = tower(players=2, seed=seed)
        while not g.over and found < 6:
            risks = g.view(g.to_move)["risks"]
            risky = {m for m, r in risks.items() if r >= 0.5}
            if risky and min(risks.values()) == 0.0:
                found += 1
                assert str(greedy.choose(g)) not in risky
            g.play(chooser.choice(g.legal_moves()))
    assert found >= 6
