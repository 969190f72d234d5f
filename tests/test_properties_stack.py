"""Property tests of the stacking games (tower, quinconce): random matches, checked at every step.

As tests/test_properties.py does for the line games: a drawn player count,
options, seed and move choices; every step checks that tiles are conserved,
legal moves are consistent, illegal moves change nothing and views hide what
they must; at the end the record replays the same match and copies stay
independent.  Runs are derandomized (see `PROPERTY`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_properties import EXAMPLES, GARBAGE, MAX_STEPS, PROPERTY, Setup, repro, setups

from core import IllegalMove, replay, variants
from core.stack.match import StackMatch
from core.tiles import iter_ids, tile_id

SLUGS = [s for s in variants.names() if variants.get(s).family == "stack"]
# a stacking game's step costs more (every view weighs each legal move's fall): fewer matches
STACK = settings(PROPERTY, max_examples=max(5, EXAMPLES // 8))


def new(setup: Setup) -> StackMatch:
    g = variants.get(setup.slug).new(players=setup.players, seed=setup.seed, **setup.options)
    assert isinstance(g, StackMatch)
    return g


def walk(setup: Setup) -> Iterator[StackMatch]:
    """The match before every move, and once more when it is over."""
    g = new(setup)
    pick = setup.chooser()
    for _ in range(MAX_STEPS):
        yield g
        if g.over:
            return
        moves = g.legal_moves()
        g.play(moves[pick(len(moves))])
    raise AssertionError(f"no end after {MAX_STEPS} moves: {repro(g)}")  # type: ignore[arg-type]


def record(g: StackMatch) -> str:
    return json.dumps(g.record())


def snapshot(g: StackMatch) -> str:
    return json.dumps({"record": g.record(),
                       "views": [g.view(s) for s in (None, *range(g.players))]}, sort_keys=True)


def tid(text: str) -> int:
    a, b = text.split("-")
    return tile_id(int(a), int(b))


@pytest.mark.parametrize("slug", SLUGS)
@STACK
@given(data=st.data())
def test_tiles_are_conserved_and_the_construction_is_sound(slug: str, data: st.DataObject
                                                          ) -> None:
    """Hands, construction, stock and the tiles left out partition the set; in the
    construction no two halves share a cell, superposed halves are equal, and every
    tile above the table rests on a tile."""
    setup = data.draw(setups(slug), label="setup")
    for g in walk(setup):
        ts = g.ts
        parts = [*g.hands, sum(1 << p.tid for p in g.con.tiles), sum(1 << t for t in g.stock),
                 g.sleeping]
        union = 0
        for mask in parts:
            assert union & mask == 0, record(g)
            union |= mask
        assert union == ts.all_mask, record(g)
        cells: dict[tuple[int, int, int], int] = {}
        for i, p in enumerate(g.con.tiles):
            for (x, y), v in zip(p.cells, p.values, strict=True):
                assert (x, y, p.level) not in cells, record(g)
                cells[(x, y, p.level)] = v
            assert p.level == 0 or g.con.contacts(i), f"tile {i + 1} floats: {record(g)}"
        for (x, y, z), v in cells.items():
            assert cells.get((x, y, z + 1), v) == v, f"unequal halves at {x},{y}: {record(g)}"
        for s in (None, *range(g.players)):
            v = g.view(s)
            total = sum(v["hand_sizes"]) + len(v["board"]) + v["stock"] + v["sleeping"]
            assert total == ts.size, record(g)
            assert sorted(map(tid, v["board"])) == sorted(p.tid for p in g.con.tiles)
            if s is not None:
                assert sorted(map(tid, v["hand"])) == list(iter_ids(g.hands[s]))


@pytest.mark.parametrize("slug", SLUGS)
@STACK
@given(data=st.data())
def test_legal_moves_are_consistent_until_the_end(slug: str, data: st.DataObject) -> None:
    """Non-empty and duplicate-free until the end, what the mover's view lists with a risk
    each, each one playable on a copy and read back from its text; then a result."""
    setup = data.draw(setups(slug), label="setup")
    for g in walk(setup):
        assert (g.to_move is None) == g.over, record(g)
        if g.over:
            break
        moves = g.legal_moves()
        texts = [str(m) for m in moves]
        assert moves and len(set(moves)) == len(moves), record(g)
        assert all(g.hands[g.to_move] >> m.tid & 1 for m in moves), record(g)
        mover = g.view(g.to_move)
        assert mover["legal"] == texts and list(mover["risks"]) == texts, record(g)
        assert all(0.0 <= r <= 1.0 for r in mover["risks"].values()), record(g)
        for s in (None, *range(g.players)):
            if s != g.to_move:
                assert "legal" not in g.view(s) and g.view(s)["risks"] == {}, record(g)
        for m in moves:
            assert g.parse_move(str(m)) == m, record(g)
        for m in moves[:: max(1, len(moves) // 3)]:
            c = g.copy()
            c.play(m)
            assert c.turn == g.turn + 1, record(g)
    result = g.result
    assert result is not None and result["winners"], record(g)
    assert sorted(result["ranking"]) == list(range(g.players)), record(g)


@pytest.mark.parametrize("slug", SLUGS)
@STACK
@given(data=st.data())
def test_illegal_moves_change_nothing(slug: str, data: st.DataObject) -> None:
    """Garbage, tiles of another hand and placements that do not fit raise IllegalMove
    and leave every view and the record as they were."""
    setup = data.draw(setups(slug), label="setup")
    pick = setup.chooser()
    for n, g in enumerate(walk(setup)):
        if g.over or n % 3:
            continue
        before = snapshot(g)
        others = [t for s in range(g.players) if s != g.to_move for t in iter_ids(g.hands[s])]
        names = [g.ts.names[t] for t in others[:2]]
        bad: list[Any] = [*GARBAGE, *(f"{t} on 1 east" for t in names), "6-6 on 99 north"]
        legal = g.legal_moves()
        hand = [g.ts.names[t] for t in iter_ids(g.hands[g.to_move])]
        for t in hand[:2]:
            for where in ("on 1 east", "under 1 west", "next 1 north", "on 2 south"):
                try:
                    fits = g.parse_move(f"{t} {where}") in legal
                except IllegalMove:
                    fits = False
                if not fits:
                    bad.append(f"{t} {where}")
        for text in bad[pick(3)::2]:
            with pytest.raises(IllegalMove):
                g.play(text)
            assert snapshot(g) == before, f"{text!r} changed the game: {record(g)}"


@pytest.mark.parametrize("slug", SLUGS)
@STACK
@given(data=st.data())
def test_views_hide_other_hands_and_the_stock(slug: str, data: st.DataObject) -> None:
    """A seat's view names no tile of another hand or of the stock (the last round's
    summary aside: hands are shown once a round ends); the public view has no hand."""
    setup = data.draw(setups(slug), label="setup")
    for g in walk(setup):
        hidden_from = {s: [g.ts.names[t] for o in range(g.players) if o != s
                           for t in iter_ids(g.hands[o])] + [g.ts.names[t] for t in g.stock]
                       for s in range(g.players)}
        hidden_from[None] = [g.ts.names[t] for h in g.hands for t in iter_ids(h)] + \
            [g.ts.names[t] for t in g.stock]  # type: ignore[index]
        for s, hidden in hidden_from.items():
            v = g.view(s)
            if s is None:
                assert "hand" not in v and "legal" not in v, record(g)
            v = {k: x for k, x in v.items() if k not in ("last_round", "result")}
            text = json.dumps(v)
            for name in hidden:
                a, b = name.split("-")
                assert f'"{name}"' not in text and f'"{b}-{a}"' not in text, (
                    f"{name} in the view of {s}: {record(g)}")


@pytest.mark.parametrize("slug", SLUGS)
@STACK
@given(data=st.data())
def test_records_replay_and_copies_are_independent(slug: str, data: st.DataObject) -> None:
    """`replay(record())` rebuilds the same match (falls included) every 25 steps and
    at the end; playing on a copy leaves the original as it was."""
    setup = data.draw(setups(slug), label="setup")
    pick = setup.chooser()
    for n, g in enumerate(walk(setup)):
        if n % 25 == 0 or g.over:
            again = replay(g.record())
            assert snapshot(again) == snapshot(g), record(g)
        if not g.over and n % 7 == 0:
            before = snapshot(g)
            c = g.copy()
            moves = c.legal_moves()
            c.play(moves[pick(len(moves))])
            assert snapshot(g) == before, record(g)
