"""Board geometry of `render`: the snake line and the cross, checked on rectangles.

Every tile inside the canvas, no two things overlapping, each tile touching its
neighbour in the line (or arm, or branch) on halves of equal value, the width
limit held for the longest lines of double-6, double-9 and double-12 sets.
"""

from __future__ import annotations

import random
from itertools import pairwise
from typing import Any

import pytest

from core import variants
from render.board import board_geometry, board_image
from render.canton import canton_layout
from render.geometry import Board, PlacedTile, Rect
from render.grid import grid_geometry, grid_image, legend_layout, legend_width
from render.line import MAX_WIDTH, line_layout
from render.spinner import spinner_layout
from render.stack import stack_extent


def walk(n: int, length: int, seed: int) -> list[str]:
    """A line of ``length`` matching tiles of the double-``n`` set, every tile once where it
    can be (an Euler circuit; the double-nine set gets duplicate tiles to even the degrees)."""
    rng = random.Random(seed)
    edges = [(a, b) for a in range(n + 1) for b in range(a, n + 1)]
    if n % 2:  # every value has odd degree: pair them up with extra tiles
        edges += [(v, v + 1) for v in range(0, n, 2)]
    rng.shuffle(edges)
    adj: dict[int, list[int]] = {v: [] for v in range(n + 1)}
    for i, (a, b) in enumerate(edges):
        adj[a].append(i)
        if a != b:
            adj[b].append(i)
    used = [False] * len(edges)
    stack = [rng.randrange(n + 1)]
    circuit: list[int] = []
    while stack:
        v = stack[-1]
        while adj[v] and used[adj[v][-1]]:
            adj[v].pop()
        if adj[v]:
            i = adj[v].pop()
            used[i] = True
            a, b = edges[i]
            stack.append(b if a == v else a)
        else:
            circuit.append(stack.pop())
    line = [f"{a}-{b}" for a, b in pairwise(circuit)]
    assert len(line) >= length
    return line[:length]


def assert_sound(board: Board, max_width: int = MAX_WIDTH) -> None:
    """Inside the canvas, no overlaps, at most ``max_width`` wide."""
    canvas = board.canvas
    assert board.width <= max_width
    things = [t.rect for t in board.tiles] + [m.rect for m in board.markers]
    for r in things:
        assert r.inside(canvas), (r, canvas)
    for i, r in enumerate(things):
        for s in things[i + 1:]:
            assert not r.overlaps(s), (r, s)
    for t in board.tiles:
        # the halves tile the footprint exactly
        h0, h1 = t.halves
        assert h0.rect.inside(t.rect) and h1.rect.inside(t.rect)
        assert h0.rect.width == h0.rect.height == h1.rect.width == board.half
        assert not h0.rect.overlaps(h1.rect)


def is_matador(t: PlacedTile) -> bool:
    """Matador's matadors and the K tiles: 0-0 and the tiles totalling 7."""
    return t.a + t.b == 7 or t.a == t.b == 0


def joined(x: int, y: int, inner: PlacedTile, outer: PlacedTile, join: str) -> bool:
    """Whether touching halves ``x`` (of ``inner``) and ``y`` (of ``outer``) match under the
    layout's join rule (render/line.py): equal, or totalling 7 where a matador may meet a
    blank (or, as a joker, any end)."""
    if join == "equal":
        return x == y
    if join == "sum7":
        return x + y == 7 or is_matador(inner) or is_matador(outer)
    raise AssertionError(f"unknown join rule {join!r}: teach the geometry tests")


def assert_touch(inner: PlacedTile, outer: PlacedTile, join: str = "equal") -> None:
    """``outer`` touches ``inner``, and only on halves that match under ``join``."""
    pairs = [(x, y) for x in inner.halves for y in outer.halves if x.rect.contact(y.rect) > 0]
    assert pairs, f"{inner.a}-{inner.b} does not touch {outer.a}-{outer.b}"
    for x, y in pairs:
        assert joined(x.value, y.value, inner, outer, join), (
            f"{inner.a}-{inner.b} meets {outer.a}-{outer.b} on {x}/{y}")
    assert joined(inner.b, outer.a, inner, outer, join)
    for across in (inner, outer):
        if across.crosswise and across.a != across.b:  # a matador across: both halves touch
            assert {x for pair in pairs for x in pair if x in across.halves} == set(
                across.halves), f"{across.a}-{across.b} touches with one half"


def assert_line(chain: list[str], board: Board, join: str = "equal",
                crosswise: tuple[int, ...] = ()) -> None:
    assert_sound(board)
    assert [f"{t.a}-{t.b}" for t in board.tiles] == chain
    for inner, outer in pairwise(board.tiles):
        assert_touch(inner, outer, join)
    assert [t.path for t in board.tiles if t.crosswise] == sorted(
        {i for i, t in enumerate(board.tiles) if t.a == t.b} | set(crosswise))
    ends = sorted(m.value for m in board.markers)
    assert ends == sorted([int(chain[0].split("-")[0]), int(chain[-1].split("-")[1])])


@pytest.mark.parametrize(("n", "length"), [(6, 28), (9, 55), (12, 91)])
@pytest.mark.parametrize("seed", range(4))
def test_the_longest_lines_fit_1280_px_with_readable_tiles(n: int, length: int, seed: int
                                                          ) -> None:
    chain = walk(n, length, seed)
    board = line_layout(chain, last=length - 1)
    assert_line(chain, board)
    assert board.half >= 40  # a 91-tile line still has tiles of 80 x 40 px
    assert board.height <= 720
    assert [t.path for t in board.tiles if t.last] == [length - 1]


@pytest.mark.parametrize("length", [1, 2, 3, 7, 12, 13, 20])
def test_short_lines_and_doubles(length: int) -> None:
    chain = walk(6, length, 11)
    assert_line(chain, line_layout(chain))
    doubles = ["0-0", "0-1", "1-1", "1-2", "2-2", "2-3", "3-3", "3-4", "4-4", "4-5", "5-5"]
    for k in range(1, len(doubles) + 1):
        board = line_layout(doubles[:k])
        assert_line(doubles[:k], board)
        assert all(t.crosswise == (t.a == t.b) for t in board.tiles)


def test_every_position_of_real_games_is_laid_soundly() -> None:
    for seed in range(3):
        g = variants.get("classic").new(players=2, seed=seed)
        while not g.over:
            view = g.view(None)
            if view["board"]:
                assert_view_line(view)
            g.play(g.legal_moves()[0])


def assert_view_line(view: dict[str, Any]) -> None:
    layout = view["layout"]
    board = board_geometry(view)
    assert_line(layout["chain"], board, layout.get("join", "equal"),
                tuple(layout.get("crosswise") or ()))
    assert [t.path for t in board.tiles if t.last] == (
        [] if layout["last"] is None else [layout["last"]])


@pytest.mark.parametrize("slug", variants.names())
def test_random_games_of_every_variant_are_laid_soundly(slug: str) -> None:
    """Every third position of a random game, whatever its layout: lines match by their
    own join rule (equal; sum-to-7 in Matador and K), crosses touch their parents,
    Canton's upright tiles stay inside the picture without overlaps."""
    v = variants.get(slug)
    rng = random.Random(slug)
    g = v.new(players=v.min_players, seed=3)
    n, kinds = 0, set()
    while not g.over and n < 400:
        view = g.view(None)
        if view["board"] and n % 3 == 0:
            kind = view["layout"]["kind"]
            kinds.add(kind)
            if kind == "line":
                assert_view_line(view)
            elif kind == "cross":
                assert_cross(view["layout"], board_geometry(view))
            elif kind == "puzzle":
                assert_puzzle(view["layout"])
            elif kind == "grid":
                assert_sound(grid_geometry(view["layout"]))
            elif kind == "stack":  # tower, quinconce: blocks in 3D, see tests/test_render_stack.py
                assert stack_extent(view["layout"])[2] > 0
            elif kind in ("memory", "patience"):  # drawn whole: checked in test_render_memsol
                assert board_image(view).width > 0
            elif kind == "tricks":
                assert_trick(view)
            else:
                assert kind == "canton", f"no geometry check for layout kind {kind!r}"
                assert_sound(canton_layout(view["layout"]))
        g.play(rng.choice(g.legal_moves()))
        n += 1
    assert kinds


def assert_puzzle(layout: dict[str, Any]) -> None:
    """A puzzle's tiles lie on two cells of its grid each, no cell under two tiles."""
    cells = layout["cells"]
    assert len(set(cells)) == len(cells)
    covered = [c for tile in layout["tiles"] for c in tile["cells"]]
    assert len(set(covered)) == len(covered) and set(covered) <= set(cells)
    assert all(set(line["cells"]) <= set(cells) for line in layout["lines"])
    assert set(layout["broken_cells"]) <= set(cells)


def test_matadors_laid_on_a_blank_lie_crosswise_between_blanks() -> None:
    """Matador (000): a matador closing a blank end lies across the line; only a blank
    follows it, so both its neighbours touch it with a blank half."""
    found = 0
    for seed in range(30):
        g = variants.get("matador").new(players=2, seed=seed)
        rng = random.Random(seed)
        while not g.over and found < 6:
            view = g.view(None)
            layout = view["layout"]
            if layout.get("crosswise"):
                assert layout["join"] == "sum7"
                board = board_geometry(view)
                assert_view_line(view)
                for i in layout["crosswise"]:
                    tile = board.tiles[i]
                    assert tile.crosswise and is_matador(tile)
                    across = tile.rect.height if tile.direction[1] == 0 else tile.rect.width
                    assert across == 2 * board.half
                    for j in (i - 1, i + 1):
                        if 0 <= j < len(board.tiles):
                            other = board.tiles[j]
                            touching = {y.value for y in other.halves for x in tile.halves
                                        if x.rect.contact(y.rect) > 0}
                            assert touching == {0}, (layout, i, j)
                found += 1
            g.play(rng.choice(g.legal_moves()))
    assert found >= 6


def test_a_crosswise_tile_in_line_and_at_a_corner() -> None:
    chain = ["1-0", "3-4", "0-5", "2-2", "5-6"] * 4  # touching halves total 7
    crosswise = tuple(range(1, 20, 5))
    for width in (1280, 700, 420):
        board = line_layout(chain, 19, max_width=width, crosswise=crosswise)
        assert len({t.rect.y0 for t in board.tiles}) > (1 if width < 1280 else 0)
        assert_line(chain, board, "sum7", crosswise)
    with pytest.raises(ValueError, match="bad 'crosswise'"):
        board_geometry({"layout": {"kind": "line", "chain": chain, "crosswise": ["1"]}})


def cross_tiles(board: Board) -> dict[tuple[int, ...], PlacedTile]:
    tiles = {t.path: t for t in board.tiles}
    assert len(tiles) == len(board.tiles)
    return tiles  # type: ignore[return-value]


def assert_cross(layout: dict[str, Any], board: Board) -> None:
    """Every tile touches its parent (the previous tile, the double or the spinner)."""
    assert_sound(board)
    tiles = cross_tiles(board)
    spinner = tiles[()]
    assert spinner.spinner and spinner.crosswise

    def walk_chain(items: list[Any], prefix: tuple[int, ...], parent: PlacedTile) -> int:
        count = 0
        for i, entry in enumerate(items):
            path = (*prefix, i)
            tile = tiles[path]
            assert_touch(parent, tile) if i else _touch_start(parent, tile)
            count += 1
            if isinstance(entry, dict):
                for b, branch in enumerate(entry["branches"]):
                    count += walk_chain(branch, (*path, b), tile)
            parent = tile
        return count

    total = 1
    for k, arm in enumerate(layout.get("arms") or []):
        total += walk_chain(arm, (k,), spinner)
    assert total == len(board.tiles)


def _touch_start(parent: PlacedTile, tile: PlacedTile) -> None:
    """The first tile of an arm or branch touches a double (all its halves are equal)."""
    assert parent.a == parent.b == tile.a
    assert any(x.rect.contact(y.rect) > 0 for x in parent.halves for y in tile.halves)
    assert not any(x.rect.contact(y.rect) > 0 for x in parent.halves for y in tile.halves
                   if y.value != parent.a)


FULL_CROSS = {
    "kind": "cross",
    "spinner": "6-6",
    "arms": [
        ["6-1", "1-2", "2-3", "3-4", "4-5", "5-0", "0-0", "0-2"],
        ["6-2", "2-2", "2-5", "5-5", "5-3", "3-3", "3-0"],
        ["6-3", "3-1", "1-1", "1-4", "4-4", "4-0"],
        ["6-4", "4-2", "2-0", "0-1", "1-5", "5-4"],
    ],
    "last": [0, 3],
}

NINE_CROSS = {
    "kind": "cross",
    "spinner": "9-9",
    "arms": [
        ["9-1",
         {"tile": "1-1",
          "branches": [["1-2", "2-3"], ["1-4", {"tile": "4-4", "branches": [["4-5"], []]}]]},
         "1-7", "7-8"],
        ["9-2", "2-6", {"tile": "6-6", "branches": [["6-0", "0-8", "8-8"], ["6-5"]]}],
        ["9-3", {"tile": "3-3", "branches": [[], ["3-8", "8-4"]]}, "3-0"],
        ["9-4", "4-7", "7-7", "7-0", {"tile": "0-0", "branches": [["0-5"], ["0-3"]]}],
    ],
    "last": [0, 1, 1, 1, 0, 0],
}


@pytest.mark.parametrize("layout", [FULL_CROSS, NINE_CROSS], ids=["cross", "double-nine"])
def test_cross_arms_and_branches_never_overlap(layout: dict[str, Any]) -> None:
    board = spinner_layout(layout)
    assert_cross(layout, board)
    assert [t.path for t in board.tiles if t.last] == [tuple(layout["last"])]
    assert board.height <= 1100


def test_long_arms_snake_and_empty_arms_get_markers() -> None:
    arms = [walk(6, 16, 1), walk(6, 14, 2), walk(6, 12, 3), walk(6, 12, 4)]
    arms = [[f"6-{arm[0].split('-')[0]}", *arm] for arm in arms]
    layout = {"kind": "cross", "spinner": "6-6", "arms": arms, "last": None}
    board = spinner_layout(layout)
    assert_cross(layout, board)
    assert sorted(m.value for m in board.markers) == sorted(int(a[-1][-1]) for a in arms)

    layout = {"kind": "cross", "spinner": "5-5", "arms": [["5-1"]], "last": []}
    board = spinner_layout(layout)
    assert_cross({**layout, "arms": [["5-1"], [], [], []]}, board)
    assert sorted(m.value for m in board.markers) == [1, 5, 5, 5]
    closed = spinner_layout({**layout, "open": [True, True, False, False]})
    assert sorted(m.value for m in closed.markers) == [1, 5]
    assert [t.path for t in board.tiles if t.last] == [()]


@pytest.mark.parametrize(
    ("layout", "message"),
    [
        ({"kind": "cross", "arms": []}, 'needs its "spinner"'),
        ({"kind": "cross", "spinner": "6-5"}, "must be a double"),
        ({"kind": "cross", "spinner": "6-6", "arms": [["6-x"]]}, "bad tile '6-x'"),
        ({"kind": "cross", "spinner": "6-6", "arms": [[{"tile": "6-1", "branches": []}]]},
         "only a double opens branches"),
        ({"kind": "cross", "spinner": "6-6", "arms": [[]] * 5}, "at most four arms"),
        ({"kind": "tower"}, "cannot draw layout kind 'tower'; known: (.+, )?cross, (.+, )?line"),
        ({"kind": "line", "chain": ["13-1"]}, "values from 0 to 12"),
    ],
)
def test_bad_layouts_get_a_clear_message(layout: dict[str, Any], message: str) -> None:
    from render.board import board_image

    with pytest.raises(ValueError, match=message):
        board_image({"layout": layout})


def assert_trick(view: dict[str, Any]) -> None:
    """The trick's tiles lie inside the picture, below the band, and do not overlap."""
    from render.tricks import BAND, HEIGHT, WIDTH, trick_rects

    rects = list(trick_rects(view["trick"]).values())
    assert len(rects) == len(view["trick"])
    for x0, y0, x1, y1 in rects:
        assert 0 <= x0 < x1 <= WIDTH and BAND <= y0 < y1 <= HEIGHT
    for i, a in enumerate(rects):
        for b in rects[i + 1:]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_vingt_legend_names_the_seats_and_overlaps_nothing(players: int) -> None:
    """Under the grid, each seat's marker and "NAME: n markers left" stand apart from the
    other seats' (at the start, and with long names that need more rows)."""
    for names in (["Ann", "Bob", "Cy", "Di"], ["Alexandra-Maria", "Bartholomew", "Cyrille",
                                               "Dominique-Jean"]):
        view = variants.get("vingt").new(players=players, seed=3).view(None)
        im = grid_image(view, names=names[:players])
        width = max(grid_geometry(view["layout"]).width, min(640, legend_width(
            view, names=names[:players])))
        assert im.width == width
        legend = legend_layout(view, width, grid_geometry(view["layout"]).height,
                               names=names[:players])
        assert len(legend) == players
        boxes = [box for disc, label, _ in legend for box in (disc, label)]
        assert all(box.inside(Rect(0, 0, im.width, im.height)) for box in boxes)
        assert not any(a.overlaps(b, 4) for i, a in enumerate(boxes) for b in boxes[:i])
        for (_, _, text), name in zip(legend, names, strict=False):
            assert text.startswith(name[:3]) and "Seat" not in text
