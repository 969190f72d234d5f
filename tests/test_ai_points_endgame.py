"""The expert's endgame in the two-seat games scored in points (the count of the ends,
Matador): the value it finds is the one a search through the engine itself finds, draws,
Matador's choice to draw, targets and bonuses included."""

from __future__ import annotations

import random
from typing import Any

import pytest

from core import variants
from core.ai import make_player
from core.ai.generic import round_value
from core.ai.points_endgame import PointsEndgame, points_solvable
from core.moves import DRAW


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


def _positions(slug: str, tiles: int, seeds: range, near: int = 0, **options: Any
               ) -> list[Any]:
    """Matches played on at random until at most `tiles` are in hand and in the stock (in
    the first round, or with `near`, in the first round where a seat is that near the
    target)."""
    out = []
    for seed in seeds:
        g = variants.get(slug).new(players=2, seed=seed, **options)
        rng = random.Random(seed)
        while not g.over:
            small = g.left >= 0 and sum(h.bit_count() for h in g.hands) + len(g.stock) <= tiles
            close = max(g.totals) >= g.mrules.target - near if near else g.round_no == 1
            if small and close and points_solvable(g, tiles):
                out.append(g)
                break
            if not near and g.round_no > 1:
                break
            g.play(rng.choice(g.legal_moves()))
    return out


@pytest.mark.parametrize("slug,options", [
    ("muggins", {}), ("threes", {}), ("fives-and-threes", {}), ("matador", {}),
    ("matador", {"matador_wild": True}), ("matador", {"matador_inline": True})])
def test_the_points_endgame_agrees_with_the_engine(slug: str, options: dict[str, Any]) -> None:
    positions = _positions(slug, 10, range(60), **options)
    assert len(positions) >= 20
    with_stock = 0
    for g in positions:
        with_stock += bool(g.stock)
        before = [t - 3 for t in g.totals]  # points already made since the decision count
        for unit in (0, 1):
            solver = PointsEndgame(g, unit, before, 10**7)
            assert solver.value_after(g) == _engine_value(g, unit, before, 1), str(g.seed)
    assert with_stock >= 5


def test_the_points_endgame_draws_instead_of_a_matador_as_the_engine_does() -> None:
    # Matador: a seat whose only plays are matadors may draw instead; positions where the
    # engine offers that choice, solved both ways
    offered = 0
    for g in _positions("matador", 14, range(200)):
        if not any(m.kind == DRAW for m in g.legal_moves()):
            continue
        offered += 1
        for unit in (0, 1):
            before = list(g.totals)
            assert PointsEndgame(g, unit, before, 10**7).value_after(g) == \
                _engine_value(g, unit, before, 1)
    assert offered >= 3


def test_the_points_endgame_ends_the_match_at_the_target() -> None:
    # Rounds where a seat is near the target: many end when it reaches it mid-round, and
    # the solver must stop there as the engine does (no pip bonus, no more tiles).
    positions = _positions("muggins", 10, range(40), near=6)
    assert len(positions) >= 10
    ended_mid_round = 0
    for g in positions:
        for unit in (0, 1):
            before = list(g.totals)
            assert PointsEndgame(g, unit, before, 10**7).value_after(g) == \
                _engine_value(g, unit, before, g.round_no)
        c = g.copy()
        while not c.over and c.round_no == g.round_no:
            c.play(c.legal_moves()[0])
        ended_mid_round += c.over and c.round_results[-1].get("reason") == "target"
    assert ended_mid_round >= 3


def test_the_points_endgame_is_only_for_the_games_it_knows() -> None:
    classic = variants.get("classic").new(players=2, seed=1)
    muggins4 = variants.get("muggins").new(players=4, seed=1)
    k = variants.get("k").new(players=2, seed=1)  # its rounds go on after a seat goes out
    for g in (classic, muggins4, k):
        rng = random.Random(1)
        for _ in range(4):
            g.play(rng.choice(g.legal_moves()))
        assert not points_solvable(g, 28)
    lead = variants.get("muggins").new(players=2, seed=1)
    assert not points_solvable(lead, 28)  # before the lead
    lead.play(lead.legal_moves()[0])
    assert not points_solvable(lead, 28)  # the lead alone counts its pips
    lead.play(lead.legal_moves()[0])
    assert points_solvable(lead, 28) and not points_solvable(lead, 10)
    matador = variants.get("matador").new(players=2, seed=1)
    assert not points_solvable(matador, 28)
    matador.play(matador.legal_moves()[0])
    assert points_solvable(matador, 28)  # Matador scores nothing on the ends: from its lead


@pytest.mark.parametrize("slug,tiles", [("fives-and-threes", 18), ("matador", 12)])
def test_the_expert_solving_in_points_reads_no_hidden_tile(slug: str, tiles: int) -> None:
    # Positions small enough for the exact endgame, and a twin of each that the seat to move
    # cannot tell apart (the unseen tiles dealt again as it may know them): the expert
    # makes the same choice in both.
    checked = 0
    for g in _positions(slug, tiles, range(30)):
        seat = g.to_move
        if len(g.legal_moves()) < 2:
            continue
        twin = g.determinized(seat, random.Random(g.seed))
        if twin.hands == g.hands and twin.stock == g.stock:
            continue
        assert twin.view(seat) == g.view(seat)
        assert str(make_player("expert", 9).choose(g)) == \
            str(make_player("expert", 9).choose(twin))
        checked += 1
    assert checked >= 5
