"""Rules of matador, k, muggins, threes, fives-and-threes and bergen, on hand-built deals,
and the shared end-count and join rules of `core.line.end_points`."""

from __future__ import annotations

import pytest

from core import IllegalMove, OptionError, replay, variants
from core.line.end_points import (
    BLANK_ONLY,
    NEEDS_BASE,
    Sum7Join,
    all_fives,
    caps,
    end_count,
    fives,
    fives_and_threes,
    threes,
)
from core.line.match import LineMatch
from core.moves import CLAIM, Move, move_for
from core.tiles import Tile
from core.variants.bergen import blocked_winners
from core.variants.classic import Classic
from tests.test_rules_line import legal, new

# -- core.line.end_points: the counts and what they are worth --------------------------------


def test_a_double_at_an_end_counts_both_halves() -> None:
    # 003: "un double quatre à une extrémité et un simple deux à l'autre comptent pour dix"
    assert end_count([4, 2], [True, False]) == 10
    assert end_count([6, 4], [True, True]) == 20
    assert end_count([3, 5, 0, 2], [False] * 4) == 10


@pytest.mark.parametrize(("count", "muggins", "three", "five", "both"), [
    (5, 1, 0, 5, 1), (10, 2, 0, 10, 2), (15, 3, 5, 15, 8), (20, 4, 0, 20, 4),
    (3, 0, 1, 0, 1), (6, 0, 2, 0, 2), (9, 0, 3, 0, 3), (12, 0, 4, 0, 4),
    (30, 6, 10, 30, 16), (7, 0, 0, 0, 0), (11, 0, 0, 0, 0),
])
def test_what_a_count_is_worth(count: int, muggins: int, three: int, five: int,
                               both: int) -> None:
    assert fives(count) == muggins
    assert threes(count) == three
    assert all_fives(count) == five
    assert fives_and_threes(count) == both


def test_bergen_caps() -> None:
    assert caps([3, 3], [False, False]) == 2  # double cap
    assert caps([3, 3], [True, False]) == 3  # triple cap: a double at one end
    assert caps([3, 3], [False, True]) == 3
    assert caps([3, 4], [True, False]) == 0


# -- the sum-to-7 join ---------------------------------------------------------------------


def test_sum7_join_needs_the_complementary_half() -> None:
    join = Sum7Join()
    assert join.lay(6, 3, 4) == (3, 6, 6)  # 3 against 4, 6 outward
    assert join.lay(6, 3, 3) is None  # 3 + 3 is not 7
    assert join.lay(5, 0, 2) == (5, 0, 0)  # leaves a blank end


def test_a_blank_end_is_closed_to_all_but_a_matador() -> None:
    join = Sum7Join()
    for a in range(7):
        for b in range(a + 1):
            laid = join.lay(a, b, 0)
            assert (laid is not None) == (a + b == 7 or a == b == 0), f"{a}-{b}"
    assert join.lay(4, 3, 0) == (3, 4, BLANK_ONLY)  # crosswise: only a blank may follow
    assert join.lay(3, 0, BLANK_ONLY) == (0, 3, 3)
    assert join.lay(3, 2, BLANK_ONLY) is None


def test_wild_and_inline_matadors() -> None:
    assert Sum7Join().lay(5, 2, 3) is None  # 2 + 3 is 5: no join, and not wild
    assert Sum7Join(wild=True).lay(5, 2, 3) == (2, 5, BLANK_ONLY)
    assert Sum7Join(wild=True).lay(5, 2, 5) == (2, 5, 5)  # an ordinary join comes first
    inline = Sum7Join(inline=True)
    assert inline.lay(5, 2, 0) == (2, 5, NEEDS_BASE + 5)
    assert inline.joins(NEEDS_BASE + 5) == (0, 2)  # a blank or the complement of 5
    assert inline.lay(2, 1, NEEDS_BASE + 5) == (2, 1, 1)
    assert inline.lay(4, 0, NEEDS_BASE + 5) == (0, 4, 4)
    assert inline.lay(4, 1, NEEDS_BASE + 5) is None


# -- helpers --------------------------------------------------------------------------------


def scored(game: LineMatch) -> list[tuple[int, int]]:
    """The (seat, points) of the "score" events of the last move, from the public view."""
    return [(e["seat"], e["points"]) for e in game.view(None)["events"] if e["type"] == "score"]


# -- muggins, threes, fives-and-threes ------------------------------------------------------


def test_the_muggins_sequence_of_the_book() -> None:
    """000's worked example: the 5-5 lead scores 2, then 15 scores 3, 10 scores 2,
    5 scores 1 and 20 (8 + 12, the 4-4 next to the 6-6) scores 4."""
    game = new("muggins", [["5-5", "3-1", "5-0", "3-0", "4-4"],
                           ["5-1", "5-3", "5-2", "6-3", "4-2", "0-0"]], ["6-6"])
    plays = [("5-5", 10, (0, 2)), ("5-1 left", 11, None), ("3-1 left", 13, None),
             ("5-3 left", 15, (1, 3)), ("5-0 left", 10, (0, 2)), ("5-2 right", 2, None),
             ("3-0 left", 5, (0, 1)), ("6-3 left", 8, None)]
    for move, count, points in plays:
        game.play(move)
        assert game.view(None)["count"] == count, move
        assert scored(game) == ([points] if points else []), move
    assert game.to_move == 0 and game.view(0)["hand"] == ["6-6", "4-4"]  # drew the 6-6
    game.play("6-6 left")
    assert game.view(None)["count"] == 14 and scored(game) == []
    game.play("4-2 right")
    assert game.view(None)["count"] == 16 and scored(game) == []
    game.play("4-4 right")  # 12 + 8 = 20: 4; seat 0 is out, seat 1 holds the 0-0 (no bonus)
    last = game.round_results[-1]
    assert last["reason"] == "out" and last["totals"] == [2 + 2 + 1 + 4, 3]
    assert game.round_no == 2 and game.view(None)["scores"] == [9, 3]


def test_threes_and_fives_and_threes_count_the_same_ends() -> None:
    hands = [["6-6", "3-0"], ["6-3", "1-0"]]
    threes, both = new("threes", hands), new("fives-and-threes", hands)
    for game in (threes, both):
        game.play("6-6")
    assert scored(threes) == [(0, 4)] and scored(both) == [(0, 4)]  # 12: 4 threes
    for game in (threes, both):
        game.play("6-3 left")  # 3 + 12 = 15
    assert scored(threes) == [(1, 5)] and scored(both) == [(1, 8)]  # 15: 5 + 3


def test_the_round_winner_scores_the_others_pips_rounded() -> None:
    game = new("muggins", [["6-6", "6-1"], ["5-4", "4-3"]])
    game.play("6-6")  # 12: nothing
    assert game.to_move == 0  # seat 1 cannot play and nothing can be drawn
    game.play("6-1 left")  # out; 1 + 12 = 13: nothing; seat 1 holds 16 pips: 15, 3 points
    assert game.round_results[-1]["totals"] == [3, 0]


def test_the_match_ends_as_soon_as_the_target_is_reached() -> None:
    game = variants.get("muggins").new(players=2, seed=3, target=31)
    while not game.over:
        game.play(game.legal_moves()[0])
    result = game.result
    assert result is not None and max(result["scores"]) >= 31
    assert result["winners"] == [result["scores"].index(max(result["scores"]))]
    last = game.round_results[-1]
    assert last["reason"] == "target"


def test_muggins_refuses_an_unknown_target() -> None:
    with pytest.raises(OptionError, match="target"):
        variants.get("muggins").new(players=2, target=32)


# -- bergen ---------------------------------------------------------------------------------


def test_bergen_lowest_double_leads_and_scores_2_then_double_and_triple_caps() -> None:
    game = new("bergen", [["3-3", "0-0", "5-0", "6-6"], ["3-0", "5-3", "6-5"]])
    assert legal(game) == ["0-0"]  # the lowest double, not the 6-6
    game.play("0-0")
    assert scored(game) == [(0, 2)]
    game.play("3-0 left")  # 3 and the 0-0: nothing
    assert scored(game) == []
    game.play("5-0 right")  # 3 and 5
    game.play("5-3 right")  # 3 and 3, no double: a double cap
    assert scored(game) == [(1, 2)]
    game.play("3-3 left")  # a double matching the other end: a triple cap (+3), and then
    # nobody can play (no stock): blocked; seat 1 (6-5, no double) beats 6-6 and scores 2
    last = game.round_results[-1]
    assert last["reason"] == "blocked" and last["winners"] == [1]
    assert last["totals"] == [2 + 3, 2 + 2]


def test_bergen_triple_cap_by_matching_a_double_at_the_other_end() -> None:
    game = new("bergen", [["0-0", "2-2", "4-2", "6-6"], ["2-0", "4-0", "6-5"]])
    game.play("0-0")
    game.play("2-0 left")
    game.play("2-2 left")  # the 2-2 and the 0-0 at the ends: nothing
    assert scored(game) == []
    game.play("4-0 right")  # 2-2 and 4
    game.play("4-2 right")  # leaves a 2 facing the 2-2: a triple cap
    assert game.round_results[-1]["totals"][0] == 2 + 3  # (then blocked: seat 1 wins, +2)


def test_bergen_never_draws_the_last_two_tiles_and_blocked_round() -> None:
    game = new("bergen", [["6-6", "5-1"], ["1-0", "2-0"]], ["4-4", "3-3", "2-2"])
    assert game.view(None)["stock"] == 1  # two of the three are never drawn
    game.play("6-6")
    # "il peut piocher": seat 1 cannot lay and chooses to draw
    assert game.to_move == 1 and legal(game) == ["draw", "pass"]
    game.play("draw")  # the 4-4 does not fit: seat 1 passes; the stock is down to two
    assert game.round_results[-1]["reason"] == "blocked"
    # seat 0 holds 5-1 (no double, 6 pips), seat 1 the 4-4: the seat with no double wins
    assert game.round_results[-1]["winners"] == [0]
    assert game.round_results[-1]["totals"] == [2 + 2, 0]


def test_bergen_blocked_game_winners() -> None:
    hi = [a for a in range(7) for b in range(a + 1)]
    lo = [b for a in range(7) for b in range(a + 1)]
    def mask(*tiles: str) -> int:
        return sum(1 << Tile.parse(t).id for t in tiles)
    assert blocked_winners(hi, lo, [mask("6-5"), mask("1-1")]) == [0]  # no double
    assert blocked_winners(hi, lo, [mask("6-5"), mask("2-1")]) == [1]  # none: fewest pips
    assert blocked_winners(hi, lo, [mask("2-2", "1-1"), mask("6-6")]) == [1]  # fewer doubles
    assert blocked_winners(hi, lo, [mask("2-2", "6-0"), mask("1-1", "6-5")]) == [1]
    assert blocked_winners(hi, lo, [mask("3-3"), mask("3-3")]) == [0, 1]


def test_bergen_a_seat_may_pass_instead_of_drawing() -> None:
    stock = ["4-4", "3-3", "2-2", "4-3"]
    game = new("bergen", [["6-6", "5-1"], ["1-0", "2-0"]], stock)
    game.play("6-6")
    assert game.to_move == 1 and legal(game) == ["draw", "pass"]
    game.play("pass")  # seat 1 keeps the stock's two drawable tiles there
    assert game.view(None)["stock"] == 2 and game.to_move == 0
    assert legal(game) == ["draw", "pass"]  # seat 0 cannot lay on the 6s either
    game.play("pass")  # every seat passed in turn without drawing: blocked
    last = game.round_results[-1]  # no double either side: the fewest pips (3 against 6)
    assert last["reason"] == "blocked" and last["winners"] == [1]


def test_bergen_a_drawn_tile_that_fits_is_played() -> None:
    game = new("bergen", [["6-6", "5-1"], ["1-0", "2-0"]], ["6-2", "3-3", "2-2"])
    game.play("6-6")
    game.play("draw")  # the 6-2 fits: seat 1 keeps the turn
    assert game.to_move == 1 and legal(game) == ["6-2 left"]
    from core.ai import GreedyPlayer
    other = new("bergen", [["6-6", "5-1"], ["1-0", "2-0"]], ["6-2", "3-3", "2-2"])
    other.play("6-6")
    assert str(GreedyPlayer(1).choose(other)) == "draw"  # the computer draws


def test_k_the_round_goes_on_until_nobody_can_play() -> None:
    # "La partie se poursuit jusqu'au moment où personne ne peut plus jouer"
    hands = [["6-6"], ["3-3", "1-4", "5-5"]]
    game = new("k", hands)
    game.play("6-6")  # seat 0 is out, seat 1 plays on
    assert game.round_no == 1 and game.to_move == 1 and legal(game) == ["4-1 left"]
    game.play("4-1 left")  # the 4 is out: a 3 follows
    game.play("3-3 left")  # then a 4: seat 1 holds 5-5 only; nobody can play
    last = game.round_results[-1]
    assert last["reason"] == "blocked" and last["winners"] == [0]
    assert last["points"] == [0, 10]
    old = new("k", hands, first_out_ends=True)
    old.play("6-6")  # the general rule: the first one out ends the round
    assert old.round_results[-1]["reason"] == "out"
    assert old.round_results[-1]["points"] == [0, 6 + 5 + 10]


def test_k_a_player_who_reached_the_total_is_dealt_no_more() -> None:
    hands = [["6-6"], ["6-5", "5-5"], ["6-4", "2-0"]]
    game = new("k", hands, target=15)
    game.play("6-6")  # nobody else can play: seat 1 holds 21 and leaves, seat 2 holds 12
    assert game.round_results[-1]["gone"] == [1] and not game.over
    v = game.view(None)
    assert v["round"] == 2 and v["hand_sizes"] == [13, 0, 13]  # 13 each: two players left
    assert game.to_move in (0, 2)
    seen = set()
    while not game.over and game.round_no == 2:
        seen.add(game.to_move)
        game.play(game.legal_moves()[0])
    assert 1 not in seen


# -- matador and k --------------------------------------------------------------------------


def test_matador_joins_total_7_and_a_blank_end_takes_only_a_matador() -> None:
    game = new("matador", [["6-6", "4-3", "3-0", "2-2"], ["1-0", "6-1", "5-4"]], ["4-1"])
    game.play("6-6")
    assert legal(game) == ["1-0 left", "6-1 left"]  # a 1 against the 6; 5-4 does not join
    game.play("1-0 left")  # a blank end now
    # the left end takes only the matador 4-3; the right end (6) takes a 1: none in hand
    assert "draw" in legal(game) and [m for m in legal(game) if m != "draw"] == ["4-3 left"]
    with pytest.raises(IllegalMove, match="left end, which takes a matador"):
        game.play("3-0 left")
    game.play("4-3 left")  # crosswise: only a blank may follow it
    view = game.view(None)
    assert view["needs"] == [[0], [1]] and "takes a 0" in view["strip_extra"]
    assert view["board"] == ["4-3", "0-1", "6-6"] and view["ends"] == [4, 6]
    assert legal(game) == ["6-1 right"]


def test_matador_draw_instead_of_laying_a_matador() -> None:
    game = new("matador", [["6-6", "4-3", "2-2"], ["1-0", "6-5", "5-4"]], ["5-3", "1-1", "2-0"])
    game.play("6-6")
    game.play("1-0 left")
    assert legal(game) == ["4-3 left", "draw"]
    game.play("draw")  # draws the 5-3 (no), the 1-1 (joins the 6) and stops
    assert game.to_move == 0 and game.view(0)["hand"] == ["5-3", "4-3", "2-2", "1-1"]
    assert "1-1 right" in legal(game) and "draw" not in legal(game)
    assert game.view(1)["events"] == [{"type": "draw", "seat": 0, "count": 2}]
    assert game.record()["moves"] == ["6-6", "1-0 left", "draw"]
    assert replay(game.record()).view(0) == game.view(0)


def test_matador_wild_and_inline() -> None:
    hands = [["6-6", "5-2", "3-0"], ["1-0", "6-5", "4-4"]]
    plain = new("matador", hands)
    plain.play("6-6")
    assert legal(plain) == ["1-0 left"]
    wild = new("matador", hands, matador_wild=True)
    wild.play("6-6")
    assert legal(wild) == ["1-0 left"]  # seat 1 holds no matador
    wild.play("1-0 left")
    assert legal(wild) == ["5-2 left", "5-2 right"]  # on the blank, and as a joker on the 6
    wild.play("5-2 right")
    assert wild.view(None)["needs"] == [[], [0]]  # crosswise on the 6: a blank follows
    inline = new("matador", hands, matador_inline=True)
    inline.play("6-6")
    inline.play("1-0 left")
    inline.play("5-2 left")  # in line, the 5 out: a blank or a 2 may follow
    assert inline.view(None)["needs"][0] == [0, 2]
    assert inline.view(None)["board"][0] == "5-2"


def test_k_first_draw_leads_and_k_tiles_go_anywhere() -> None:
    # the first tile of each hand is its first draw: 6-4 (10) beats 5-5 (10, lower half)
    game = new("k", [["4-4", "6-6", "3-1"], ["6-4", "2-5", "0-0"]])
    assert game.to_move == 1 and legal(game) == ["6-4"]  # 10 pips beats 8, doubles or not
    game.play("6-4")
    assert game.to_move == 0 and legal(game) == ["3-1 left", "3-1 right"]  # 1 + 6, 3 + 4
    game.play("3-1 right")  # 3 against 4: the 1 is the end
    game.play("2-5 left")  # a K tile on the 6 (2 + 6 is not 7): crosswise, a blank follows
    assert game.view(None)["needs"] == [[0], [6]]


def test_k_everyone_adds_what_they_hold_and_reaching_50_loses() -> None:
    game = new("k", [["6-6", "6-5", "1-0"], ["6-4", "2-0"]], target=12)
    game.play("6-6")  # seat 1 has no 1 and no K tile, and nothing to draw: it passes
    game.play("1-0 left")  # the blank end now takes only a K tile: nobody can play
    summary = game.round_results[-1]
    assert summary["reason"] == "blocked" and summary["points"] == [11, 12]
    assert summary["gone"] == [1]  # 12 reaches 12: seat 1 loses, seat 0 is left and wins
    assert game.over and game.result is not None and game.result["winners"] == [0]


# -- the engine's hooks, on a small test variant ----------------------------------------------


class ClaimMatch(LineMatch):
    """Classic, where each seat may once say "claim", even with no tile to lay."""

    hooked = True

    def _wants_turn(self, seat: int) -> bool:
        return seat not in self.__dict__.setdefault("claimed", [])

    def _extra_moves(self) -> list[Move]:
        return [] if not self._wants_turn(self.to_move or 0) else [move_for(CLAIM)]

    def _play_extra(self, move: Move) -> None:
        seat = self.to_move or 0
        self.__dict__["claimed"] = [*self.__dict__["claimed"], seat]
        if not self.hands[seat] & (self.vmask[self.left] | self.vmask[self.right]):
            self._advance(seat - 1)  # nothing to lay: pass (or draw) as usual


class ClaimClassic(Classic):
    match_class = ClaimMatch


def test_hooks_extra_moves_and_a_turn_for_a_seat_with_no_tile() -> None:
    game = ClaimClassic().new(players=2, seed=1, draw="block",
                              deal={"hands": [["6-6", "6-1", "2-2"], ["5-0", "4-0"]]})
    assert legal(game) == ["6-6", "claim"] and str(game.parse_move("claim")) == "claim"
    game.play("6-6")
    assert game.to_move == 1 and legal(game) == ["claim"]  # no 6, but it may claim
    with pytest.raises(IllegalMove, match="not allowed"):
        game.play("muggins")
    copy = game.copy()
    assert type(copy) is ClaimMatch
    game.play("claim")  # then seat 1 passes: seat 0 again, who claimed nothing yet
    assert game.to_move == 0 and legal(game) == ["6-1 left", "claim"]
    assert copy.to_move == 1 and copy.__dict__["claimed"] == []  # the copy did not change
    assert [m.text for m in game.moves] == ["6-6", "claim"]
