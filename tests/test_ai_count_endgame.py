"""The expert's endgame in the games that score the count of the ends: the value it finds
is the one a search through the engine itself finds, draws, targets and bonuses included."""

from __future__ import annotations

import random
from typing import Any

import pytest

from core import variants
from core.ai.count_endgame import CountEndgame, count_solvable
from core.ai.generic import round_value


def _engine_value(g: Any, unit: int, before: list[int], round_no: int) -> float:
    """Minimax through engine copies to the round's end, valued as the playouts value it."""
    if g.over or g.round_no != round_no:
        return round_value(g, unit, before)
    values = []
    for m in g.legal_moves():
        c = g.copy()
        c.play(m)
        values.append(_engine_value(c, unit, before, round_no))
    return max(values) if g.to_move == unit else min(values)


def _positions(slug: str, tiles: int, seeds: range, near: int = 0) -> list[Any]:
    """Matches played on at random until at most `tiles` are in hand and in the stock (in
    the first round, or with `near`, in the first round where a seat is that near the
    target)."""
    out = []
    for seed in seeds:
        g = variants.get(slug).new(players=2, seed=seed)
        rng = random.Random(seed)
        while not g.over:
            small = g.left >= 0 and sum(h.bit_count() for h in g.hands) + len(g.stock) <= tiles
            close = max(g.totals) >= g.mrules.target - near if near else g.round_no == 1
            if small and close and count_solvable(g, tiles):
                out.append(g)
                break
            if not near and g.round_no > 1:
                break
            g.play(rng.choice(g.legal_moves()))
    return out


@pytest.mark.parametrize("slug", ["muggins", "threes", "fives-and-threes"])
def test_the_count_endgame_agrees_with_the_engine(slug: str) -> None:
    positions = _positions(slug, 10, range(60))
    assert len(positions) >= 20
    with_stock = 0
    for g in positions:
        with_stock += bool(g.stock)
        before = [t - 3 for t in g.totals]  # points already made since the decision count
        for unit in (0, 1):
            solver = CountEndgame(g, unit, before, 10**7)
            assert solver.value_after(g) == _engine_value(g, unit, before, 1), str(g.seed)
    assert with_stock >= 5


def test_the_count_endgame_ends_the_match_at_the_target() -> None:
    # Rounds where a seat is near the target: many end when it reaches it mid-round, and
    # the solver must stop there as the engine does (no pip bonus, no more tiles).
    positions = _positions("muggins", 10, range(40), near=6)
    assert len(positions) >= 10
    ended_mid_round = 0
    for g in positions:
        for unit in (0, 1):
            before = list(g.totals)
            assert CountEndgame(g, unit, before, 10**7).value_after(g) == \
                _engine_value(g, unit, before, g.round_no)
        c = g.copy()
        while not c.over and c.round_no == g.round_no:
            c.play(c.legal_moves()[0])
        ended_mid_round += c.over and c.round_results[-1].get("reason") == "target"
    assert ended_mid_round >= 3


def test_the_count_endgame_is_only_for_the_games_it_knows() -> None:
    classic = variants.get("classic").new(players=2, seed=1)
    muggins4 = variants.get("muggins").new(players=4, seed=1)
    for g in (classic, muggins4):
        rng = random.Random(1)
        for _ in range(4):
            g.play(rng.choice(g.legal_moves()))
        assert not count_solvable(g, 28)
    lead = variants.get("muggins").new(players=2, seed=1)
    assert not count_solvable(lead, 28)  # before the lead
    lead.play(lead.legal_moves()[0])
    assert not count_solvable(lead, 28)  # the lead alone counts its pips
    lead.play(lead.legal_moves()[0])
    assert count_solvable(lead, 28) and not count_solvable(lead, 10)
