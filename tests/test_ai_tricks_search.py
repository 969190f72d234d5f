"""The trick games' searcher (`hard`, `expert`): it decides from what its seat may know, its
imagined deals keep what play revealed, its exact endgames agree with the engine, and it
plays whole matches legally."""

from __future__ import annotations

import random

import pytest

from core import IllegalMove, variants
from core.ai import make_player
from core.ai.chances import win_chances
from core.ai.tricks_endgame import values_of_moves
from core.ai.tricks_search import TrickExpertPlayer, TrickHardPlayer
from core.moves import PASS, PLAY
from core.tiles import Tile
from core.tricks.calls import BID, TRUMPS
from core.tricks.knowledge import deal_unseen
from core.tricks.match import PLAYING

SIX = [str(Tile(a, b)) for a in range(7) for b in range(a + 1)]
HAND0 = ["6-6", "6-5", "6-4", "5-5", "4-4", "1-0", "3-3"]
PLAYED = {1: ["6-3", "6-0"], 2: ["6-2", "4-3"], 3: ["6-1", "3-0"]}
# Bids, trumps 6, then two tricks led by seat 0: 6-6 (every seat trumps), 6-5 (seat 1
# trumps, seats 2 and 3 show they hold no trump).
SCRIPT = ["bid 30", "pass", "pass", "pass", "trumps 6",
          "6-6", "6-3", "6-2", "6-1", "6-5", "6-0", "4-3", "3-0"]


def _deal(rng: random.Random) -> dict[str, list[list[str]]]:
    """Seat 0's hand and the tiles the script plays fixed; the other unseen tiles split at
    random among seats 1 to 3."""
    rest = [t for t in SIX if t not in HAND0 and not any(t in p for p in PLAYED.values())]
    rng.shuffle(rest)
    return {"hands": [HAND0, *(PLAYED[s] + rest[(s - 1) * 5:s * 5] for s in (1, 2, 3))]}


def _games(n: int) -> list:
    rng = random.Random(3)
    return [variants.get("forty-two").new(seed=1, deal=_deal(rng)) for _ in range(n)]


@pytest.mark.parametrize("kind", ["hard", "expert"])
def test_the_choice_does_not_depend_on_where_the_unseen_tiles_are(kind: str) -> None:
    a, b = _games(2)
    assert a.hands[1:] != b.hands[1:]
    # bidding: seat 0 (holder of 1-0) speaks first
    assert a.to_move == b.to_move == 0 and a.view(0) == b.view(0)
    assert len({str(make_player(kind, 42).choose(g)) for g in (a, b)}) == 1
    for move in SCRIPT:
        a.play(move)
        b.play(move)
        if a.to_move == 0 and len(a.legal_moves()) > 1:
            assert a.view(0) == b.view(0)
            assert len({str(make_player(kind, 42).choose(g)) for g in (a, b)}) == 1
    assert a.phase == PLAYING and a.to_move == 0


def _resplit(g, seat: int, rng: random.Random):
    """The same round as `g` (round 1, no redeal) from a deal in which the tiles `seat` has
    not seen are split otherwise among the other seats (at random, here, not by the code
    under test), every play of the record still legal; None if the split drawn does not
    replay."""
    others = [s for s in range(4) if s != seat]
    pool = [t for s in others for t in range(28) if (g.hands[s] >> t) & 1]
    rng.shuffle(pool)
    hands = g.hands[:]
    at = 0
    for s in others:
        size = g.hands[s].bit_count()
        hands[s] = sum(1 << t for t in pool[at:at + size])
        at += size
    for s, m in g.played:
        if m.kind == PLAY:
            hands[s] |= 1 << m.tid
    deal = {"hands": [[g.ts.names[t] for t in range(28) if (h >> t) & 1] for h in hands]}
    other = variants.get(g.variant.slug).new(seed=g.seed, deal=deal, **g.options)
    try:
        for _, m in g.played:
            other.play(m.text)
    except IllegalMove:
        return None
    return other


@pytest.mark.parametrize("kind", ["hard", "expert"])
@pytest.mark.parametrize("slug", ["forty-two", "texas-42"])
def test_the_choice_is_the_same_for_every_split_of_the_unseen_tiles(kind: str, slug: str
                                                                    ) -> None:
    rng = random.Random(11)
    compared = 0
    for seed in range(3):
        g = variants.get(slug).new(seed=seed)
        bots = [make_player("normal", seed * 4 + s) for s in range(4)]
        stop = 6 + 7 * seed  # a decision in the bidding, early play, later play
        while len(g.played) < stop or len(g.legal_moves()) < 2:
            g.play(bots[g.to_move].choose(g))
        if g.redeals or g.round_no != 1:
            continue
        seat = g.to_move
        games = [g]
        for _ in range(300):
            other = _resplit(g, seat, rng)
            if other is not None:
                games.append(other)
            if len(games) == 4:
                break
        games = [x for x in games if x.view(seat) == g.view(seat)]
        assert len({tuple(x.hands) for x in games}) > 1
        assert len({str(make_player(kind, 42).choose(x)) for x in games}) == 1
        compared += 1
    assert compared


def test_the_imagined_deals_keep_the_voids_play_revealed() -> None:
    (g,) = _games(1)
    for move in SCRIPT:
        g.play(move)
    rng = random.Random(8)
    for _ in range(30):
        world = g.redealt(0, rng)
        assert world.hands[0] == g.hands[0]
        assert [h.bit_count() for h in world.hands] == [h.bit_count() for h in g.hands]
        assert sum(world.hands[1:]) == sum(g.hands[1:])  # the same unseen tiles, dealt again
        _consistent(g, world)


@pytest.mark.parametrize("slug,options", [("forty-two", {}),
                                          ("forty-two", {"partner_master": False}),
                                          ("texas-42", {})])
def test_imagined_deals_replay_every_play_of_the_round(slug: str, options: dict) -> None:
    """In random rounds, each imagined deal, hands put back as they were before each play,
    makes every play of the round legal: no seat holds what it showed it lacks."""
    rng = random.Random(5)
    revealed = 0
    for seed in range(4):
        g = variants.get(slug).new(seed=seed, **options)
        bots = [make_player("normal", seed * 4 + s) for s in range(4)]
        while g.phase != PLAYING:
            g.play(bots[g.to_move].choose(g))
        for _ in range(rng.randrange(8, 26)):
            g.play(bots[g.to_move].choose(g))
        seat = g.to_move
        revealed += sum(v.bit_count() for v in g.voids(seat))
        for _ in range(8):
            _consistent(g, g.redealt(seat, rng))
    assert revealed, "some seat showed a void in these rounds"


def _consistent(g, world) -> None:
    """Every play of the round is legal again with `world`'s hands."""
    record = [t for _, t, _ in g.tricks] + ([tuple(g.trick)] if g.trick else [])
    plays = [p for trick in record for p in trick]
    probe = world.copy()
    k = 0
    for trick in record:
        for i, (seat, t) in enumerate(trick):
            later = sum(1 << u for s, u in plays[k:] if s == seat)
            probe.hands[seat] = world.hands[seat] | later
            probe.trick = list(trick[:i])
            assert (probe.playable(seat) >> t) & 1, f"seat {seat} could not have played {t}"
            k += 1


def test_deal_unseen_meets_tight_constraints_exactly() -> None:
    pool = list(range(12))
    sizes = {1: 4, 2: 4, 3: 4}
    notin = [0, 0b1111_1111, 0b1111_0000_1111, 0]  # seat 1 only 8-11, seat 2 only 4-7
    rng = random.Random(1)
    for _ in range(50):
        hands = deal_unseen(pool, sizes, notin, rng)
        assert hands[1] == 0b1111_0000_0000 and hands[2] == 0b1111_0000
        assert hands[3] == 0b1111


def _endgame_position(seed: int, left: int):
    g = variants.get("forty-two").new(seed=seed, target=500)
    bots = [make_player("normal", s) for s in range(4)]
    while g.phase != PLAYING or len(g.tricks) < 7 - left or len(g.trick) != 1:
        g.play(bots[g.to_move].choose(g))
    return g


def _minimax(g, team: int) -> float:
    """The exact value through the engine's own play and scoring (the round ends)."""
    if g.round_no != 1 or g.over:
        points = g.round_results[0]["points"]
        return float(points[team] - points[1 - team])
    values = []
    for m in g.legal_moves():
        c = g.copy()
        c.play(m)
        values.append(_minimax(c, team))
    return max(values) if g.to_move % 2 == team else min(values)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_exact_endgame_agrees_with_the_engine(seed: int) -> None:
    g = _endgame_position(seed, 2)
    seat = g.to_move
    moves = g.legal_moves()
    got = values_of_moves(g, [m.tid for m in moves], seat % 2)
    want = []
    for m in moves:
        c = g.copy()
        c.play(m)
        want.append(_minimax(c, seat % 2))
    assert got == want


def _bidder(hand: list[str], slug: str = "forty-two", **options):
    rest = [t for t in SIX if t not in hand]
    hands = [hand, rest[:7], rest[7:14], rest[14:]]  # seat 0 holds 1-0: it speaks first
    return variants.get(slug).new(seed=2, deal={"hands": hands}, **options)


def test_a_sure_hand_bids_high_and_names_its_trumps() -> None:
    g = _bidder(["6-6", "6-5", "6-4", "6-3", "6-2", "6-1", "1-0"])
    assert g.to_move == 0
    bid = TrickHardPlayer(1).choose(g)
    # an opponent speaks next: more than the lowest bid, to keep the contract
    assert bid.kind == BID and bid.end > g.rules.min_bid
    g.play(bid)
    for _ in range(3):
        g.play("pass")
    named = TrickHardPlayer(1).choose(g)
    assert named.kind == TRUMPS and named.end == 6


def test_a_weak_hand_passes() -> None:
    g = _bidder(["1-0", "2-0", "3-1", "4-2", "5-3", "4-0", "6-2"])
    assert g.to_move == 0
    assert TrickHardPlayer(1).choose(g).kind == PASS


def test_expert_bids_a_contract_that_hard_leaves() -> None:
    # With fives for trumps, this hand makes the lowest bid in about two deals of three
    # (0.665 over 400 imagined deals): under `hard`'s trust, above `expert`'s.  (Measured
    # with the double highest in trumps: under the book's order 5-5 ranks under 6-5.)
    g = _bidder(["6-2", "1-0", "5-2", "5-4", "5-5", "4-1", "6-0"], doubles="high")
    assert g.to_move == 0
    seeds = range(1, 7)
    assert sum(TrickHardPlayer(s).choose(g).kind == BID for s in seeds) <= 1
    bids = [TrickExpertPlayer(s).choose(g) for s in seeds]
    assert all(b.kind == BID and b.end == g.rules.min_bid for b in bids)
    g.play(bids[0])
    for _ in range(3):
        g.play("pass")
    named = TrickExpertPlayer(1).choose(g)
    assert named.kind == TRUMPS and named.end == 5


def test_the_search_levels_of_a_trick_table_are_the_searchers() -> None:
    g = variants.get("forty-two").new(seed=1)
    assert make_player("hard", 1)._player_for("tricks", g) is TrickHardPlayer
    assert make_player("expert", 1)._player_for("tricks", g) is TrickExpertPlayer
    # win chances (review) imagine a trick game's deals its own way (core/ai/tricks_chances)
    chances = win_chances(g, 2)
    assert chances is not None and set(chances) == {str(m) for m in g.legal_moves()}
    assert all(0 <= v <= 1 for v in chances.values())


@pytest.mark.parametrize("slug,options", [("forty-two", {"target": 40}),
                                          ("texas-42", {"target": 1})])
def test_hard_and_expert_play_whole_matches(slug: str, options: dict) -> None:
    g = variants.get(slug).new(seed=4, **options)
    bots = [make_player("expert" if s % 2 else "hard", s) for s in range(4)]
    for _ in range(2000):
        if g.over:
            break
        g.play(bots[g.to_move].choose(g))  # an illegal choice would raise here
    assert g.over and g.result["winners"]
