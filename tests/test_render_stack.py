"""The tower and quinconce pictures: every tile drawn from the side and from above, a fall
and the next play's way said under the construction, nothing private in them."""

from __future__ import annotations

import io
import random

from PIL import Image

import render
from bot.i18n import translator
from core import variants
from core.ai import make_player
from render.stack import footer, plan_size, stack_extent, stack_image


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
    assert "it fell: Bob took 5 tiles" in footer(fell, None, ["Ann", "Bob", "Cy"])
    assert "it fell: Seat 2 took 5 tiles" in footer(fell)  # a seat with no name
    assert "Bob reprend 5" in footer(fell, translator("fr"), ["Ann", "Bob", "Cy"])
