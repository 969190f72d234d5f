"""Property tests of the grid family ("20" game): random games to the end, checked at every step.

Derandomized like tests/test_properties.py.  Every step: the racks, the grid
and the stock hold the 54 tiles once each; the listed plays are exactly what
the rules' home (`core.grid.board.check_placement`) accepts (single tiles and
lines of two tiles, tried everywhere near the tiles; every listed play is
checked with its markers); illegal moves change nothing; no view names a tile
of another rack or of the stock; notation round-trips; records replay; copies
are independent.
"""

from __future__ import annotations

import itertools
import json
import os
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core import IllegalMove, replay, variants
from core.grid.board import CENTRE, DOWN, EMPTY, RIGHT, WIDTH, check_placement
from core.grid.match import GridMatch
from core.grid.moves import GridMove
from core.moves import PASS, PLAY
from core.tiles import iter_ids, tile_id

EXAMPLES = int(os.environ.get("PROPERTY_EXAMPLES", "5"))
PROPERTY = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow])
MAX_STEPS = 2_000


@st.composite
def games(draw: st.DrawFn) -> tuple[GridMatch, list[int]]:
    players = draw(st.integers(2, 4), label="players")
    target = draw(st.none() | st.integers(5, 25), label="target")
    seed = draw(st.integers(0, 2**32), label="seed")
    picks = draw(st.lists(st.integers(0, 2**16), min_size=10, max_size=60), label="picks")
    game = variants.get("vingt").new(players=players, seed=seed, target=target)
    assert isinstance(game, GridMatch)
    return game, picks


def walk(game: GridMatch, picks: list[int]) -> Any:
    """Yield the game before every move and once over (random legal moves)."""
    for i in range(MAX_STEPS):
        yield game
        if game.over:
            return
        moves = game.legal_moves()
        game.play(moves[(picks[i % len(picks)] + i) % len(moves)])
    raise AssertionError(f"no end: {json.dumps(game.record())}")


def snapshot(game: GridMatch) -> str:
    views = [game.view(s) for s in [None, *range(game.players)]]
    return json.dumps({"record": game.record(), "views": views}, sort_keys=True)


def brute_plays(game: GridMatch) -> dict[str, int]:
    """Every single tile and line of two rack tiles the rules accept near the tiles."""
    rack = game.rack_tiles(game.to_move or 0)
    cells = game.cells
    opening = not game.laid
    if opening:
        starts = [CENTRE]
    else:
        near = {h + dr * WIDTH + dc for h in game.halves for dr in range(-4, 5)
                for dc in range(-4, 5)}  # a play of one or two tiles starts this close
        starts = sorted(c for c in near if 0 < c < len(cells) and cells[c] == EMPTY)
    out: dict[str, int] = {}
    for k in (1, 2):
        if (game.running and k > 1) or (opening and k < 2):
            continue
        for combo in itertools.permutations(rack, k):
            for flips in itertools.product((False, True), repeat=k):
                if any(f and a == b for (a, b), f in zip(combo, flips, strict=True)):
                    continue
                tiles = tuple((b, a) if f else (a, b) for (a, b), f in
                              zip(combo, flips, strict=True))
                for start in starts:
                    for step in (RIGHT, DOWN):
                        try:
                            placed = check_placement(cells, tiles, start, step, opening)
                        except IllegalMove:
                            continue
                        out[GridMove(PLAY, tiles, start, step).text] = len(placed.markers)
    return out


@PROPERTY
@given(setup=games())
def test_tiles_are_conserved_and_views_hide_what_they_must(setup: tuple[GridMatch, list[int]]
                                                           ) -> None:
    game, picks = setup
    for g in walk(game, picks):
        on_grid = [tile_id(a, b) for a, b, *_ in g.laid]
        parts = [*on_grid, *g.stock, *(t for r in g.racks for t in iter_ids(r))]
        assert sorted(parts) == sorted(g.ts.ids), json.dumps(g.record())
        for seat in [None, *range(g.players)]:
            v = g.view(seat)
            assert sum(v["hand_sizes"]) + len(v["board"]) + v["stock"] == 54
            assert ("hand" in v) == (seat is not None)
            assert ("legal" in v) == (seat is not None and seat == g.to_move)
            for key in ("seat", "to_move", "hand_sizes", "board", "ends", "stock", "scores",
                        "round"):
                assert key in v
            v.pop("last_round")
            text = json.dumps({k: x for k, x in v.items() if k != "events"})
            own = set(v.get("hand", []))
            for s, rack in enumerate(g.racks):
                if s == seat:
                    continue
                for t in iter_ids(rack):
                    name = g.ts.names[t]
                    a, b = name.split("-")
                    if name in own or f'"{name}"' in json.dumps(v["board"]):
                        continue
                    assert f'"{name}"' not in text and f'"{b}-{a}"' not in text
            for e in v["events"]:
                if e["type"] == "draw":
                    assert ("tiles" in e) == (e["seat"] == seat)


@PROPERTY
@given(setup=games())
def test_listed_plays_are_what_the_rules_accept(setup: tuple[GridMatch, list[int]]) -> None:
    game, picks = setup
    checked = 0
    for n, g in enumerate(walk(game, picks)):
        if g.over:
            break
        moves = g.legal_moves()
        assert moves and len(set(moves)) == len(moves)
        assert g.view(g.to_move)["legal"] == [str(m) for m in moves]
        plays = {m.text: m.markers for m in moves if m.kind == PLAY}
        assert (PASS in [m.kind for m in moves]) == (g.running or not plays)
        for m in moves:
            assert g.parse_move(str(m)) == m
            if m.kind == PLAY:
                placed = check_placement(g.cells, m.tiles, m.start, m.step, not g.laid)
                assert len(placed.markers) == m.markers, m
        if n % 4 == 0 and checked < 2:
            checked += 1
            short = {t: k for t, k in plays.items() if len(t.split()) <= 4}
            assert short == brute_plays(g), json.dumps(g.record())


@PROPERTY
@given(setup=games())
def test_illegal_moves_change_nothing(setup: tuple[GridMatch, list[int]]) -> None:
    game, picks = setup
    for n, g in enumerate(walk(game, picks)):
        if g.over or n % 6:
            continue
        before = snapshot(g)
        rack = g.rack_tiles(g.to_move or 0)
        listed = {str(m) for m in g.legal_moves()}
        tries: list[Any] = ["zz", "", "pass", "9-9 9-9 M13 right", "5-3 C4 sideways", None, 42,
                            "x" * 500, "1-2 3-4 5-6 7-8 9-9 1-1 A1 right"]
        tries += [f"{a}-{b} {c}{r} {d}" for (a, b) in rack[:1] for c in "AM"
                  for r in (1, 13) for d in ("right", "down")]
        for attempt in tries:
            if attempt in listed:
                continue
            with pytest.raises(IllegalMove):
                g.play(attempt)
            assert snapshot(g) == before


@PROPERTY
@given(setup=games())
def test_records_replay_and_copies_are_independent(setup: tuple[GridMatch, list[int]]) -> None:
    game, picks = setup
    kept = []
    for n, g in enumerate(walk(game, picks)):
        if g.over:
            break
        if n % 7 == 3 and len(kept) < 2:
            before = snapshot(g)
            c = g.copy()
            assert snapshot(c) == before
            for _ in range(10):
                if c.over:
                    break
                c.play(c.legal_moves()[-1])
            assert snapshot(g) == before
            kept.append((g.copy(), before))
            other = replay(json.loads(json.dumps(g.record())))
            assert snapshot(other) == before
    for c, snap in kept:
        assert snapshot(c) == snap
    final = replay(json.loads(json.dumps(game.record())))
    assert snapshot(final) == snapshot(game)
