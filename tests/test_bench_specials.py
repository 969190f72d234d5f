"""The hindsight searcher of bench/ai_specials.py: what it says of a special is what an
exact search of the whole round says, on hand-built and on random deals."""

from __future__ import annotations

import random

from bench.ai_specials import contract_world, hindsight, makes
from bench.ai_tricks import SPECIALS_ON
from core import variants
from core.ai.tricks_endgame import values_of_moves
from core.tiles import Tile
from core.tricks.calls import MARK, NELLO, NELLO_LOW, NELLOS, SEVENS

SIX = [str(Tile(a, b)) for a in range(7) for b in range(a + 1)]


def _deal(hands: list[list[str]]):
    return variants.get("texas-42").new(seed=3, deal={"hands": hands}, **SPECIALS_ON)


def test_seven_doubles_make_a_plunge_and_not_a_nello() -> None:
    doubles = [f"{n}-{n}" for n in range(7)]
    rest = [t for t in SIX if t not in doubles]
    start = _deal([doubles, rest[:7], rest[7:14], rest[14:]])
    assert hindsight(start, 0, "plunge", 0) == (True, 4)
    assert hindsight(start, 0, "splash", 0) == (True, 3)
    # after a bid of 2 marks a plunge is worth two more
    assert hindsight(start, 0, "plunge", 2 * MARK) == (True, 4)
    assert hindsight(start, 0, "plunge", 3 * MARK) == (True, 5)
    # no other seat holds a double: no plunge to call
    assert hindsight(start, 1, "plunge", 0) is None
    # nello with the doubles high: the bidder leads first and takes that trick; with the
    # doubles low in their suits it follows low every time and takes none
    assert not makes(contract_world(start, 0, MARK, 0, NELLO))
    assert makes(contract_world(start, 0, MARK, 0, NELLO_LOW))
    assert hindsight(start, 0, "nello", 0) == (True, 1)


def _exact(world) -> bool:
    """The exact search of the whole round (core.ai.tricks_endgame): made when the best
    value for the bidders is positive."""
    team = world.holder % 2
    seat = world.to_move
    values = values_of_moves(world, [m.tid for m in world.legal_moves()], team)
    best = max(values) if (seat == world.holder if world.trump in NELLOS else seat % 2 == team) \
        else min(values)
    return best > 0


def test_makes_agrees_with_the_exact_search_late_in_random_rounds() -> None:
    rng = random.Random(5)
    checked = {True: 0, False: 0}
    for seed in range(300):
        start = variants.get("texas-42").new(seed=seed, **SPECIALS_ON)
        seat = rng.randrange(4)
        trump = rng.choice([*range(7), NELLO, SEVENS])
        world = contract_world(start, seat, MARK, 0, trump)
        # three tricks at random, kept only while the bidders are still making it
        while len(world.tricks) < 4 and world.decided() is None:
            world.play(rng.choice([m for m in world.legal_moves() if m.tile is not None]))
        if world.decided() is not None:
            continue
        got = makes(world)
        assert got == _exact(world), (seed, seat, trump)
        checked[got] += 1
    assert checked[True] >= 5 and checked[False] >= 5  # both answers were met, often
