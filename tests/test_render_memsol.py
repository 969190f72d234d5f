"""Pictures of the memory game and the patience: real PNGs, drawn from views, that show
nothing of a face-down tile (two deals that differ only under face-down tiles look alike)."""

from __future__ import annotations

import io

from PIL import Image

import render
from core import variants
from core.ai import make_player

TILES = [f"{a}-{b}" for a in range(7) for b in range(a + 1)]


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(data)).size


def test_memory_pictures_hide_face_down_tiles_and_turned_back_ones() -> None:
    # A1 0-0 and A3 1-1 turned up (no pair) then B1 3-1: D6 and D7 are never turned up
    first = variants.get("memory").new(players=3, seed=1, deal={"grid": TILES})
    swapped = [*TILES[:26], TILES[27], TILES[26]]
    second = variants.get("memory").new(players=3, seed=1, deal={"grid": swapped})
    for game in (first, second):
        for cell in ("A1", "A3", "B1"):
            game.play(cell)
    one = render.position_png(first.view(None), ["Ann", "Bob", "Cy"])
    two = render.position_png(second.view(None), ["Ann", "Bob", "Cy"])
    assert one == two
    assert png_size(one)[0] >= 640
    assert render.board_png(first.view(2)) == render.board_png(first.view(None))


def test_patience_pictures_hide_the_tiles_under_the_top_ones_until_the_end() -> None:
    cols = [TILES[k * 4:(k + 1) * 4] for k in range(7)]
    other = [c[:1] + c[1:][::-1] for c in cols]  # the same top tiles, hidden ones reordered
    a = variants.get("patience").new(deal={"columns": cols})
    b = variants.get("patience").new(deal={"columns": other})
    assert render.position_png(a.view(None)) == render.position_png(b.view(None))


def test_whole_games_draw_at_every_step() -> None:
    for slug, players in (("memory", 6), ("patience", 1)):
        game = variants.get(slug).new(players=players, seed=8)
        bots = [make_player("greedy", s) for s in range(players)]
        sizes = set()
        while True:
            sizes.add(png_size(render.position_png(game.view(None))))
            if game.over:
                break
            game.play(bots[game.to_move].choose(game))
        assert sizes


def test_memory_turned_tiles_are_the_largest_thing_a_phone_shows() -> None:
    """A phone shows the picture about 360 px wide: the tiles turned up this turn are the
    largest tiles in it, 40 px wide or more there; nothing kept yet draws no empty panels,
    and the table's line says nothing of a stock memory does not have."""
    from render.memory import memory_layout
    from render.strip import info_line

    game = variants.get("memory").new(players=2, seed=1, deal={"grid": TILES})
    view = game.view(None)
    pic = memory_layout(view)
    assert pic.turned == [] and pic.kept == []
    game.play("A1")
    game.play("A3")  # 0-0 and 1-1: no pair
    view = game.view(None)
    pic = memory_layout(view)
    assert [cell for cell, _, _ in pic.turned] == ["A1", "A3"]
    turned = [r for _, _, r in pic.turned]
    others = [r for r in pic.tiles() if r not in turned]
    assert min(r.width for r in turned) > max(r.width for r in others)
    assert min(r.width for r in turned) * 360 / pic.width >= 40
    assert "stock" not in info_line(view, ["Ann", "Bob"]).lower()
    line = variants.get("classic").new(players=2, seed=1)
    assert "Stock" in info_line(line.view(None), ["Ann", "Bob"])


class Asked:
    """A translator (English) that notes every plural text a picture asks for, with its n."""

    def __init__(self) -> None:
        self.plurals: list[tuple[str, int]] = []

    def gettext(self, message: str) -> str:
        return message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        self.plurals.append((plural, n))
        return singular if n == 1 else plural


def test_the_seats_panels_count_the_tiles_kept_or_left_not_an_empty_hand() -> None:
    memory = variants.get("memory").new(players=3, seed=1, deal={"grid": TILES})
    for cell in ("A2", "A3"):  # 1-0 and 1-1: a pair, kept by the first seat
        memory.play(cell)
    asked = Asked()
    render.position_png(memory.view(None), ["Ann", "Bob", "Cy"], tr=asked)
    assert [n for text, n in asked.plurals if text == "kept {n} tiles"][-3:] == [2, 0, 0]
    assert not [n for text, n in asked.plurals if text == "{n} tiles"]
    cols = [TILES[k * 4:(k + 1) * 4] for k in range(7)]
    patience = variants.get("patience").new(deal={"columns": cols})
    asked = Asked()
    render.position_png(patience.view(None), tr=asked)
    # the patience picture has no seats' strip (its columns show what is left): it never
    # reads an empty hand as "0 tiles"
    assert not [n for text, n in asked.plurals if text == "{n} tiles"]
