"""Property tests of the memory game and the patience: random games to the end.

As tests/test_properties.py does for the line games (whose drawing helpers it
reuses): tiles are conserved, illegal moves change nothing, no view names a
tile nobody may see, records replay, notation round-trips, copies are
independent.  Memory's views are the same for every seat but for ``seat``.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_properties import EXAMPLES, GARBAGE, PROPERTY, Setup, setups

from core import IllegalMove, replay, variants
from core.memory.match import EMPTY, MemoryMatch
from core.solitaire.patience import PatienceMatch

SLUGS = ["memory", "patience"]
SOME = settings(PROPERTY, max_examples=max(1, EXAMPLES // 3))  # the games are long: fewer
MAX_STEPS = 2_000
_TILE_RE = re.compile(r"(?<!\d)(\d)-(\d)(?!\d)")


def new(setup: Setup) -> Any:
    return variants.get(setup.slug).new(players=setup.players, seed=setup.seed,
                                        **setup.options)


def walk(setup: Setup) -> Iterator[Any]:
    """The game before every move, and once more at the end."""
    g = new(setup)
    pick = setup.chooser()
    for _ in range(MAX_STEPS):
        yield g
        if g.over:
            return
        moves = g.legal_moves()
        assert moves, json.dumps(g.record())
        g.play(moves[pick(len(moves))])
    raise AssertionError(f"no end after {MAX_STEPS} moves: {json.dumps(g.record())}")


def named(obj: Any) -> set[str]:
    """Every tile written in a JSON value, as "hi-lo"."""
    out = set()
    for a, b in _TILE_RE.findall(json.dumps(obj)):
        hi, lo = max(int(a), int(b)), min(int(a), int(b))
        out.add(f"{hi}-{lo}")
    return out


def visible(g: Any) -> set[str]:
    """The tiles anyone may see now."""
    names = g.ts.names
    if isinstance(g, MemoryMatch):
        seen = {names[t] for _, t in g.turned}
        for mask in [*g.kept, g.left_over]:
            seen |= set(g.ts.mask_names(mask))
        return seen
    assert isinstance(g, PatienceMatch)
    if g.over:
        return set(names[t] for t in g.ts.ids)
    seen = {names[t] for t in g.tops() if t is not None}
    return seen | {names[t] for pair in g.removed for t in pair}


def snapshot(g: Any) -> str:
    """The record and the views (memory's are one view: the public one and seat 0's)."""
    return json.dumps({"record": g.record(), "views": [g.view(None), g.view(0)]},
                      sort_keys=True)


@pytest.mark.parametrize("slug", SLUGS)
@SOME
@given(data=st.data())
def test_tiles_are_conserved_and_views_hide_what_they_must(slug: str, data: st.DataObject
                                                            ) -> None:
    setup = data.draw(setups(slug))
    for g in walk(setup):
        if isinstance(g, MemoryMatch):
            on_grid = [t for t in g.grid if t != EMPTY]
            kept = [t for m in g.kept for t in range(28) if (m >> t) & 1]
            assert sorted(on_grid + kept) == list(range(28))
            assert sum(g.view(None)["scores"]) == g.ts.mask_pips(sum(g.kept))
            public = g.view(None)
            for s in range(g.players):  # one view for all: it helps nobody's memory
                v = g.view(s)  # but the legal moves, in the view of the seat to move only
                assert ("legal" in v) == (s == g.to_move)
                assert {**v, "seat": None, "legal": None} == {**public, "legal": None}
            for c, t in enumerate(g.grid):  # a tile not up this turn is face down
                if t != EMPTY and c not in g.up and not g.over:
                    assert public["cells"][c] == "down"
        else:
            left = [t for s in g.stacks for t in s]
            gone = [t for pair in g.removed for t in pair]
            assert sorted(left + gone) == list(range(28))
        for s in range(g.players):  # hand_sizes counts hands, and these games have none
            view = g.view(s)
            assert view["hand"] == [] and view["hand_sizes"] == [0] * g.players
        public = g.view(None)
        if isinstance(g, MemoryMatch):
            assert [len(k) for k in public["kept"]] == [m.bit_count() for m in g.kept]
        else:
            assert public["left"] == sum(map(len, g.stacks))
        allowed = visible(g)
        for s in [None, *range(g.players)]:
            shown = named(g.view(s))
            assert shown <= allowed, (shown - allowed, json.dumps(g.record()))


@pytest.mark.parametrize("slug", SLUGS)
@SOME
@given(data=st.data())
def test_illegal_moves_raise_and_change_nothing(slug: str, data: st.DataObject) -> None:
    setup = data.draw(setups(slug))
    for step, g in enumerate(walk(setup)):
        if step % 9:
            continue
        before = snapshot(g)
        legal = {str(m) for m in g.legal_moves()}
        wrong: list[Any] = list(GARBAGE)
        if isinstance(g, MemoryMatch):
            wrong += [f"{r}{c}" for r in "ABCD" for c in range(1, 8)
                      if f"{r}{c}" not in legal][:6]
        else:
            names = g.ts.names
            wrong += [f"{names[a]} {names[b]}" for a in range(0, 28, 3) for b in range(1, 28, 5)
                      if a != b and f"{names[a]} {names[b]}" not in legal
                      and f"{names[b]} {names[a]}" not in legal][:8]
        for attempt in wrong:
            with pytest.raises(IllegalMove):
                g.play(attempt)
            assert snapshot(g) == before, attempt


@pytest.mark.parametrize("slug", SLUGS)
@SOME
@given(data=st.data())
def test_records_replay_notation_round_trips_and_copies_are_independent(
        slug: str, data: st.DataObject) -> None:
    setup = data.draw(setups(slug))
    rng = random.Random(setup.seed)
    last = None
    for step, g in enumerate(walk(setup)):
        for m in g.legal_moves():
            assert g.parse_move(str(m)) == m
        if step % 7 == 3 and not g.over:
            before = snapshot(g)
            twin = g.copy()
            while not twin.over:
                twin.play(rng.choice(twin.legal_moves()))
            assert snapshot(g) == before
        last = g
    assert last is not None and last.over
    again = replay(json.loads(json.dumps(last.record())))
    assert snapshot(again) == snapshot(last)
    assert again.result == last.result
