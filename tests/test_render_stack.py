"""The tower and quinconce pictures: every tile drawn from the side and from above, a fall
and the next play's way said under the construction, nothing private in them."""

from __future__ import annotations

import io
import random

from PIL import Image

import render
from core import variants
from core.ai import make_player
from render import theme
from render.geometry import Rect
from render.stack import (
    LABEL,
    OPEN,
    footer,
    plan_cell,
    plan_size,
    stack_extent,
    stack_image,
    stack_layout,
)


def png(data: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(data))
    assert im.format == "PNG"
    return im.convert("RGB")


def played(slug: str, seed: int, steps: int, players: int = 3):  # type: ignore[no-untyped-def]
    g = variants.get(slug).new(players=players, seed=seed)
    bots = [make_player("greedy", s) for s in range(players)]
    for _ in range(steps):
        if g.over:
            break
        g.play(bots[g.to_move].choose(g))
    return g


def test_the_side_view_and_the_plan_grow_with_the_construction() -> None:
    g = played("tower", 8, 0)
    small = stack_extent(g.view(None)["layout"])
    g.play(g.legal_moves()[0])
    while len(g.view(None)["board"]) < 6 and not g.over:
        g.play(g.legal_moves()[0])
    layout = g.view(None)["layout"]
    x0, y0, x1, y1 = stack_extent(layout)
    assert small == (0, 0, 0, 0) and x1 - x0 > 0 and y1 - y0 > 0
    w, h = plan_size(layout)
    cells = {tuple(c) for tl in layout["tiles"] for c in tl["cells"]}
    assert w * h >= 40 * 40 * len(cells)
    im = stack_image(g.view(None))
    assert im.width >= (x1 - x0) + w and im.height >= y1 - y0


def test_pictures_of_random_positions_stay_in_bounds_and_are_public() -> None:
    rng = random.Random(4)
    for slug in ("tower", "quinconce"):
        for seed in range(4):
            g = played(slug, seed, rng.randrange(5, 40))
            public = g.view(None)
            im = png(render.position_png(public, ["Ann", "Bob", "Cy"]))
            assert 420 <= im.width <= 1400 and im.height <= 1000
            assert render.position_png(public, ["Ann", "Bob", "Cy"]) == \
                render.position_png({**public, "risks": {}}, ["Ann", "Bob", "Cy"])
            if g.to_move is not None:
                assert png(render.hand_png(g.view(g.to_move))).width >= 420


def test_the_footer_says_the_height_the_next_way_and_a_fall() -> None:
    g = variants.get("quinconce").new(players=3, seed=1)
    g.play(g.legal_moves()[0])
    text = footer(g.view(None))
    assert text.startswith("1 tile, 1 level") and "next play: on top" in text
    fell = {"layout": {"tiles": [], "fell": {"seat": 1, "tiles": 5, "risk": 0.3}}}
    assert "it fell: Seat 2 took 5 tiles" in footer(fell)
    assert "it fell: Bob took 5 tiles" in footer(fell, names=["Ann", "Bob"])


def big_positions(slug: str):  # type: ignore[no-untyped-def]
    """Positions of seeded games whose construction holds more than ten tiles."""
    for seed in range(6):
        for players in (2, 3, 4):
            g = variants.get(slug).new(players=players, seed=seed)
            bots = [make_player("greedy", s) for s in range(players)]
            for _ in range(120):
                if g.over:
                    break
                if len(g.view(None)["layout"]["tiles"]) > 10:
                    yield g
                g.play(bots[g.to_move].choose(g))


def test_every_tile_a_move_names_is_numbered_where_it_shows_past_ten_tiles() -> None:
    seen = 0
    for slug in ("tower", "quinconce"):
        for g in big_positions(slug):
            view = g.view(g.to_move)
            pic = stack_layout(view, names=["Ann", "Bob", "Cy", "Di"])
            frame = Rect(0, 0, pic.width, pic.height)
            boxes = [box for _, box, _ in pic.labels]
            assert all(box.inside(frame) for box in boxes)
            assert not any(a.overlaps(b) for i, a in enumerate(boxes) for b in boxes[:i])
            named = {int(m.split()[2].rstrip("enws")) for m in view["legal"] if " " in m}
            assert named <= pic.numbered(), (slug, g.turn, named - pic.numbered())
            assert pic.compass.inside(frame) and pic.caption.inside(frame)
            assert not pic.compass.overlaps(pic.caption)
            seen += 1
    assert seen > 100


def test_the_compass_is_drawn_inside_its_box_clear_of_the_caption() -> None:
    for slug, seed in (("quinconce", 1), ("tower", 2)):
        g = played(slug, seed, 12)
        view = g.view(None)
        pic = stack_layout(view)
        im = stack_image(view)
        box, caption = pic.compass, pic.caption
        assert not box.overlaps(caption)
        ink = [(x, y) for y in range(caption.y0, im.height) for x in range(caption.x1, im.width)
               if im.getpixel((x, y)) != theme.FELT]
        assert ink and all(box.x0 <= x < box.x1 and box.y0 <= y < box.y1 for x, y in ink)


def test_plan_numbers_read_on_a_phone_past_ten_tiles() -> None:
    """A phone shows the table picture (never narrower than 640 px) about 360 px wide: the
    plan's numbers keep 11 px there in nine positions out of ten (the plan goes under the
    side view when that makes the picture narrower)."""
    sizes = []
    for slug in ("tower", "quinconce"):
        for g in big_positions(slug):
            pic = stack_layout(g.view(None))
            assert any(where == "plan" for _, _, where in pic.labels)
            sizes.append(LABEL * 360 / max(pic.width, 640))
    assert sum(size >= 11 for size in sizes) >= 0.9 * len(sizes)


def test_quinconce_rings_its_two_open_ends_in_the_plan() -> None:
    g = next(big_positions("quinconce"))
    view = g.view(None)
    ends = view["layout"]["ends"]
    assert len(ends) == 2
    pic = stack_layout(view)
    im = stack_image(view)
    tiles = {tl["n"]: tl for tl in view["layout"]["tiles"]}
    for n, h in ends:
        cell = plan_cell(view["layout"], pic, tiles[n]["cells"][h])
        ring = im.crop((cell.x0, cell.y0, cell.x1, cell.y1)).getcolors(10000)
        assert any(colour == OPEN for _, colour in ring)
    assert "open ends (ringed): " + ", ".join(view["end_names"]) in footer(view)
