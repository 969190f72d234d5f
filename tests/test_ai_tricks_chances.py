"""Win chances in the trick games (core/ai/tricks_chances.py through `win_chances`): a move
that decides the hand either way is counted so, a strong or a hopeless hand bids as it
should, and the figures depend only on what the seat may know."""

from __future__ import annotations

import random

from core import variants
from core.ai.chances import imaginable, win_chances
from core.tiles import Tile

SIX = [str(Tile(a, b)) for a in range(7) for b in range(a + 1)]

# Forty-two, trumps 1.  Seat 0 (it holds 1-0: it speaks first) bids 30 and names ones, draws
# the trumps with 1-1 (4-1 falls: 6 points), takes three more tricks with 6-1, 5-1, 1-0
# (team 0: 9 points), loses 6-0 to 6-6 with 3-2 in it (team 1: 6 points).  Seat 1 leads 5-3,
# seat 2 (no five) throws 6-4, seat 3 plays 5-4: seat 0 holds 5-5 and 5-0.  With 5-5 it
# takes 21 more points (30: the contract is made whatever follows); with 5-0 team 1 takes 16
# points (22 > 42 - 30: the contract is set whatever follows).
HANDS = [["1-1", "6-1", "5-1", "1-0", "6-0", "5-5", "5-0"],
         ["3-1", "0-0", "2-0", "6-5", "6-6", "5-3", "5-2"],
         ["4-1", "3-0", "4-0", "2-2", "6-2", "6-4", "3-3"],
         ["2-1", "6-3", "4-2", "4-3", "3-2", "5-4", "4-4"]]
BIDDING = ["bid 30", "pass", "pass", "pass", "trumps 1"]
TRICKS = [["1-1", "3-1", "4-1", "2-1"], ["6-1", "0-0", "3-0", "6-3"],
          ["5-1", "2-0", "4-0", "4-2"], ["1-0", "6-5", "2-2", "4-3"],
          ["6-0", "6-6", "6-2", "3-2"], ["5-3", "6-4", "5-4"]]


def _game(hands: list[list[str]], moves: list[str]):
    # the script above draws trumps with 1-1: the double highest (option doubles=high)
    g = variants.get("forty-two").new(seed=1, deal={"hands": hands}, doubles="high")
    for move in moves:
        g.play(move)
    return g


def _script(tricks: int) -> list[str]:
    return BIDDING + [t for trick in TRICKS[:tricks] for t in trick]


def test_a_move_that_makes_the_contract_and_one_that_sets_it() -> None:
    g = _game(HANDS, _script(6))
    assert g.to_move == 0 and {str(m) for m in g.legal_moves()} == {"5-5", "5-0"}
    chances = win_chances(g, 16, seed=3)
    assert chances == {"5-5": 1.0, "5-0": 0.0}
    # a defender's seat: seat 1, leading the sixth trick, holds 5-3 and 5-2
    g = _game(HANDS, _script(5))
    assert g.to_move == 1 and len(g.legal_moves()) == 2
    chances = win_chances(g, 16, seed=3)
    assert chances is not None and set(chances) == {"5-3", "5-2"}
    assert all(0 <= v <= 1 for v in chances.values())


def _bidder_last(hand0: list[str], seed: int) -> object:
    """A forty-two deal where seat 1 holds 1-0 (it speaks first), seat 0 holds `hand0`, the
    rest at random; the three others pass: seat 0 speaks last."""
    rng = random.Random(seed)
    rest = [t for t in SIX if t not in hand0 and t != "1-0"]
    rng.shuffle(rest)
    hands = [hand0, ["1-0", *rest[:6]], rest[6:13], rest[13:]]
    return _game(hands, ["pass", "pass", "pass"])


def test_a_strong_hand_wins_by_bidding_a_hopeless_one_loses_by_bidding_high() -> None:
    sixes = [f"6-{b}" for b in range(7)]  # every trump of sixes: any bid is made
    g = _bidder_last(sixes, 1)
    assert g.to_move == 0 and g.phase == "bidding"
    chances = win_chances(g, 12, seed=2)
    assert chances is not None and chances["bid 25"] == chances["bid 42"] == 1.0
    assert chances["pass"] < 1.0  # a pass deals the hand again: anyone's
    weak = ["2-0", "3-0", "4-0", "3-1", "4-2", "4-3", "5-2"]
    g = _bidder_last(weak, 1)
    chances = win_chances(g, 12, seed=2)
    assert chances is not None and chances["bid 42"] <= 0.1 < chances["pass"]
    assert all(0 <= v <= 1 for v in chances.values())


def test_naming_trumps() -> None:
    sixes = [f"6-{b}" for b in range(7)]
    g = _bidder_last(sixes, 4)
    g.play("bid 30")
    assert g.phase == "trumps" and g.to_move == 0
    chances = win_chances(g, 8, seed=1)
    assert chances is not None and chances["trumps 6"] == 1.0
    assert min(chances.values()) < 1.0  # another trump leaves the sixes to be trumped


def test_the_chances_use_only_the_seats_view() -> None:
    # the same seat-0 hand, the other tiles split otherwise: the same chances in the bidding
    rng = random.Random(9)
    rest = [t for t in SIX if t not in HANDS[0]]
    rng.shuffle(rest)
    other = [HANDS[0], rest[:7], rest[7:14], rest[14:]]
    a, b = _game(HANDS, []), _game(other, [])
    assert a.to_move == b.to_move == 0 and a.view(0) == b.view(0) and a.hands != b.hands
    assert win_chances(a, 6, seed=5) == win_chances(b, 6, seed=5)
    # in play: 3-3 and 4-4 (never played before the last trick) change hands
    swapped = [h[:] for h in HANDS]
    swapped[2][-1], swapped[3][-1] = "4-4", "3-3"
    a, b = _game(HANDS, _script(1)), _game(swapped, _script(1))
    assert a.to_move == 0 and a.view(0) == b.view(0) and a.hands != b.hands
    chances = [win_chances(g, 16, seed=5) for g in (a, b)]
    assert chances[0] == chances[1]
    assert chances[0] is not None and set(chances[0]) == {str(m) for m in a.legal_moves()}


def test_families_that_cannot_imagine_have_no_chances() -> None:
    g = variants.get("forty-two").new(seed=1)
    assert imaginable(g) and win_chances(g, 2) is not None
    for slug in variants.names():
        game = variants.get(slug).new(seed=1)
        if not imaginable(game) and not game.over:
            assert win_chances(game, 2) is None
