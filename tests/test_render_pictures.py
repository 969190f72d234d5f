"""The pictures themselves: reference PNGs, the hand's legal marks, the table strip.

Reference pictures live in tests/render_ref/ and are compared pixel by pixel
with a small tolerance. After a deliberate change of the look, regenerate them
with ``RENDER_REGEN=1 python -m pytest -p no:cacheprovider tests/test_render_pictures.py``,
open them, and commit them with the change.
"""

from __future__ import annotations

import io
import json
import os
import random
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops

import render
from bot.i18n import translator
from core import variants
from render import canvas, hand, strip, theme

REF = Path(__file__).parent / "render_ref"

# a hand-built classic deal: 6-6 leads, then a few moves to a known position
DEAL = {"hands": [["6-6", "6-4", "4-1", "5-5", "2-0", "3-3", "1-0"],
                  ["6-5", "4-4", "5-2", "6-1", "3-2", "0-0", "2-2"]],
        "stock": ["1-1", "6-3", "5-3", "4-2", "6-0", "5-1", "3-0"]}


def png(data: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(data))
    assert im.format == "PNG"
    return im.convert("RGB")


def position(moves: int) -> Any:
    g = variants.get("classic").new(players=2, seed=1, deal=DEAL)
    for _ in range(moves):
        g.play(g.legal_moves()[0])
    return g


def nine_cross() -> dict[str, Any]:
    return {"layout": {
        "kind": "cross", "spinner": "9-9",
        "arms": [["9-1", {"tile": "1-1", "branches": [["1-2"], ["1-7"]]}, "1-3"],
                 ["9-12"], ["9-0", "0-0"], ["9-5", "5-10", "10-11"]],
        "last": [3, 2]}}


# a double-nine tree met in a game (cross set=9 every_double_spins=true): each branching
# double sits straight in its chain, its two branches leaving its ends
TREE = {"kind": "cross", "spinner": "8-8", "last": [1, 6], "arms": [
    ["8-3", "3-5", "5-7", "7-2", "2-6", "6-3", "3-9", {"tile": "9-9", "branches": [[], []]}],
    ["8-1", {"tile": "1-1", "branches": [[], ["1-5", {"tile": "5-5", "branches": [[], []]}]]},
     "1-6", "6-0", "0-3", "3-7", "7-4"],
    ["8-5", "5-4", "4-9", "9-6"],
    ["8-9", "9-5", "5-2", {"tile": "2-2", "branches": [[], []]}]]}

# Canton: the upright line over the piles each seat captured, in a 3-seat match
CANTON = {"players": 3, "hand_sizes": [3, 4, 2], "scores": [42, 12, 0], "to_move": 1,
          "stock": 5, "round": 2, "target": 300, "target_reach": "wins",
          "layout": {"kind": "canton", "chain": ["6-1", "1-2", "2-5", "5-5", "5-3", "3-0"],
                     "last": 5, "first_top": True,
                     "piles": [{"tiles": 5, "points": 30}, {"tiles": 2, "points": 12},
                               {"tiles": 0, "points": 0}]}}


def pictures() -> dict[str, bytes]:
    g = position(5)
    return {
        "position": render.position_png(g.view(None), ["Ana", "Bob"]),
        "hand": render.hand_png(g.view(g.to_move)),
        "cross": render.board_png(nine_cross()),
        "tree": render.board_png({"layout": TREE}),
        "canton": render.position_png(CANTON, ["Ana", "Bob", "Chloe"]),
        "names": render.position_png(NAMES_VIEW, ["Zoë", "Владимир", "王小明", "محمد 🎲",
                                                  "Jean-Christophe 12"]),
    }


# five seats named in four scripts (and an emoji): the strip draws them as written
NAMES_VIEW = {"players": 5, "hand_sizes": [3, 4, 2, 1, 5], "scores": [42, 1, 0, 7, 3],
              "to_move": 1, "stock": 5, "round": 2, "target": 100,
              "layout": {"kind": "line", "chain": ["6-6", "6-4", "4-1"], "last": 2}}


@pytest.mark.parametrize("name", ["position", "hand", "cross", "tree", "canton",
                                  "names"])
def test_pictures_match_the_references(name: str) -> None:
    data = pictures()[name]
    path = REF / f"{name}.png"
    if os.environ.get("RENDER_REGEN"):
        REF.mkdir(exist_ok=True)
        path.write_bytes(data)
    got, want = png(data), png(path.read_bytes())
    assert got.size == want.size
    diff = ImageChops.difference(got, want).convert("L")
    changed = sum(diff.point(lambda v: 255 if v > 40 else 0).histogram()[255:])
    assert changed <= 0.002 * got.width * got.height, f"{changed} pixels differ in {name}.png"


def test_pictures_are_small_pngs_made_from_json_views() -> None:
    g = position(5)
    # a view that went through JSON (as the bot stores and sends it) draws the same
    view = json.loads(json.dumps(g.view(None)))
    assert render.position_png(view) == render.position_png(g.view(None))
    for data in pictures().values():
        assert len(data) < 200_000
        assert png(data).width <= 1280


def colour_share(im: Image.Image, box: tuple[int, int, int, int], colour: theme.RGB) -> float:
    """The share of pixels in ``box`` within 24 of ``colour`` on every channel."""
    crop = im.crop(box)
    near = Image.new("L", crop.size, 255)
    for band, value in zip(crop.split(), colour, strict=True):
        near = ImageChops.darker(near, band.point(lambda v, c=value: 255 * (abs(v - c) <= 24)))
    return near.histogram()[255] / (crop.width * crop.height)


def test_the_hand_rings_exactly_the_playable_tiles() -> None:
    g = position(3)
    view = g.view(g.to_move)
    moves = [str(m) for m in g.legal_moves()]
    playable = {tuple(sorted(int(v) for v in m.split()[0].split("-")))
                for m in moves if m[0].isdigit()}
    tiles, _, _ = hand.hand_layout(view)
    assert [t.text for t in tiles] == view["hand"]
    im = png(render.hand_png(view))
    ringed = []
    for t in tiles:
        r = t.rect
        if colour_share(im, (r.x0, r.y0, r.x1, r.y1), theme.LEGAL) > 0.05:
            ringed.append(t.text)
    assert len(ringed) == len(playable) >= 1
    assert {tuple(sorted(int(v) for v in t.split("-"))) for t in ringed} == playable
    # not to move: nothing ringed, nothing dimmed, and the title says no more than the count
    other = g.view(1 - g.to_move)
    assert {t.style for t in hand.hand_layout(other)[0]} == {"plain"}
    assert hand.title(other) == f"Your hand: {len(other['hand'])} tiles"


def test_hand_title_says_when_to_draw_or_pass() -> None:
    base = {"hand": ["6-4", "2-2"]}
    assert "nothing fits: draw" in hand.title({**base, "legal": ["draw"]})
    assert "nothing fits: pass" in hand.title({**base, "legal": ["pass"]})
    assert "2 playable" in hand.title({**base, "legal": ["4-6 left", "6-4 right", "2-2"]})
    big = {"hand": [f"{a}-{b}" for a in range(8) for b in range(a, 8)][-20:], "legal": ["7-7"]}
    tiles, width, _ = hand.hand_layout(big)
    assert len({t.rect.y0 for t in tiles}) == 2 and width <= 1280
    assert [t.text for t in tiles if t.style == "legal"] == ["7-7"]


def test_strip_names_are_drawable_whatever_the_unicode() -> None:
    names = ["🎲🎲", "李小龙", "Zoë Søren", "\u200d", "A" * 80]
    view = {"players": 5, "hand_sizes": [1, 2, 3, 4, 5], "scores": [0, 5, 10, 0, 2],
            "to_move": 1, "stock": 3, "round": 2, "target": 100}
    # an emoji becomes one neutral mark, a lone joiner leaves nothing and "Seat 4" is shown
    assert strip.seat_names(view, names) == [theme.MISSING, "李小龙", "Zoë Søren", "Seat 4",
                                             "A" * 80]
    assert strip.seat_names(view, None) == [f"Seat {i}" for i in range(1, 6)]
    assert strip.info_line(view, strip.seat_names(view, names)) == (
        "Stock 3  ·  Round 2  ·  Game to 100 points  ·  李小龙 to play")
    im = png(render.position_png(view, names))
    assert 5 * render.MIN_PANEL <= im.width <= 1280
    cut = canvas.fit_text("A" * 80, 30, 200, bold=True)
    assert cut.endswith("…") and canvas.text_mask(cut, 30, True).width <= 200


def test_strip_shows_an_extra_line_and_the_turn() -> None:
    g = position(2)
    view = g.view(None)
    plain = png(render.position_png(view))
    extra = png(render.position_png({**view, "strip_extra": "Running totals: 12 / 30"}))
    assert extra.height > plain.height and extra.width == plain.width
    turn = strip.strip_image(view, None, 800)
    other = strip.strip_image({**view, "to_move": 1 - view["to_move"]}, None, 800)
    left, right = (0, 0, 400, turn.height), (400, 0, 800, turn.height)
    first = 0 if view["to_move"] == 0 else 1
    boxes = (left, right) if first == 0 else (right, left)
    assert colour_share(turn, boxes[0], theme.PANEL_TURN) > colour_share(turn, boxes[1],
                                                                          theme.PANEL_TURN)
    assert colour_share(other, boxes[1], theme.PANEL_TURN) > colour_share(other, boxes[0],
                                                                           theme.PANEL_TURN)


def test_a_new_layout_kind_plugs_in_with_its_own_drawer() -> None:
    from render import board

    def tower(view: dict[str, Any], tr: render.Translator | None) -> Image.Image:
        return canvas.felt(300, 100 + 20 * len(view["layout"]["stack"]))

    with pytest.raises(ValueError, match="exactly one of"):
        board.register_layout("tower")
    board.register_layout("tower", draw=tower)
    try:
        view = {"players": 2, "hand_sizes": [1, 1], "layout": {"kind": "tower", "stack": [1, 2]}}
        assert png(render.board_png(view)).size == (300, 140)
        assert png(render.position_png(view)).height > 140
    finally:
        del board.DRAWERS["tower"]


def finished(slug: str, players: int, seed: int = 1, **options: Any) -> Any:
    """A match of ``slug`` played to its end with random legal moves."""
    g = variants.get(slug).new(players=players, seed=seed, **options)
    rng = random.Random(seed)
    while not g.over:
        g.play(rng.choice(g.legal_moves()))
    return g


def test_the_strip_says_how_each_match_is_won() -> None:
    assert strip.target_text(position(0).view(None)) is None  # classic: one round
    assert strip.target_text(variants.get("all-fives").new(players=2, seed=1).view(None)) == (
        "Game to 100 points")
    for slug, players in (("k", 2), ("hongrois", 2), ("sebastopol", 3)):
        view = variants.get(slug).new(players=players, seed=1).view(None)
        assert view["target_reach"] == "loses"
        assert strip.target_text(view) == f"Out at {view['target']} points"
        assert "Game to" not in strip.info_line(view, strip.seat_names(view, None))
    countdown = variants.get("cent-a-zero").new(players=2, seed=1, start=60).view(None)
    assert countdown["scores"] == [60, 60]
    assert strip.target_text(countdown) == "First down to 0 wins"


def test_seats_gone_from_the_match_are_greyed_as_out() -> None:
    g = finished("k", 3)
    view = g.view(None)
    assert view["gone"] and not set(view["gone"]) & set(view["result"]["winners"])
    im = strip.strip_image(view, None, 900)
    panels = [(10 + i * 297, 0, 10 + i * 297 + 287, 60) for i in range(3)]
    for seat, box in enumerate(panels):
        grey = colour_share(im, box, theme.PANEL_OUT) > 0.5
        assert grey == (seat in view["gone"]), (seat, view["gone"])


def test_rubicon_panels_show_each_seats_chips() -> None:
    g = variants.get("rubicon").new(players=3, seed=2)
    view = g.view(None)
    chips = view["chips"]
    assert len(chips) == 3
    im = strip.strip_image(view, None, 900)
    plain = strip.strip_image({**view, "chips": None}, None, 900)
    width = (900 - 4 * strip.GAP) // 3
    for seat in range(3):
        x0 = strip.GAP + seat * (width + strip.GAP)
        box = (x0, 0, x0 + width, im.height // 2)
        assert colour_share(im, box, theme.CHIP) > 0.003
        assert colour_share(plain, box, theme.CHIP) == 0


WORLD = ["Zoë", "Élodie", "Søren", "Ζωή", "Владимир", "王小明", "さくら", "김민준", "محمد"]


@pytest.mark.parametrize("name", WORLD)
def test_names_in_every_script_are_drawn_as_written(name: str) -> None:
    assert theme.safe_text(name) == name  # no accent folded, no letter left out
    for ch in name:
        assert theme.drawable(ch), ch
    # each letter is inked (not the font's empty box): no two different letters look alike
    masks = {bytes(canvas.text_mask(ch, 24, bold).tobytes()) for ch in set(name)
             for bold in (False,)}
    assert len(masks) == len(set(name))
    assert canvas.text_mask(name, 24).width > 8 * len(name) // 2


def test_emoji_and_missing_glyphs_become_one_neutral_mark() -> None:
    assert theme.safe_text("alice 🎲") == "alice " + theme.MISSING
    assert theme.safe_text("👨‍👩‍👧") == theme.MISSING  # one family, one mark
    assert theme.safe_text("émile") == "émile"  # decomposed accents composed


def test_names_are_bold_in_a_real_bold_weight() -> None:
    assert theme.font(30, bold=True).getname()[1] == "Bold"
    assert theme.font(30).getname()[1] == "Regular"
    # the bold "alice" is no stroked regular one: its "l" and "i" stay apart
    assert canvas.text_mask("alice", 30, True).tobytes() != canvas.text_mask("alice", 30).tobytes()


def test_long_names_are_cut_with_care() -> None:
    short = canvas.fit_text("Jean-Christophe 12", 30, 160, bold=True)
    assert short.endswith("… 12") and canvas.text_mask(short, 30, True).width <= 160
    cuts = {canvas.fit_text("Jean- Christophe", 30, w) for w in range(40, 200, 4)}
    assert len(cuts) > 5 and not [c for c in cuts if c.endswith((" …", "-…"))]


# -- the trick games ------------------------------------------------------------------------

TRICK_DEAL = {"hands": [
    ["4-1", "4-4", "4-3", "1-0", "0-0", "2-0", "4-0"],
    ["4-2", "6-6", "6-5", "6-3", "6-2", "6-1", "5-0"],
    ["5-4", "5-5", "5-3", "5-2", "5-1", "3-3", "3-2"],
    ["3-0", "6-4", "6-0", "3-1", "2-2", "2-1", "1-1"],
]}
PLAYERS = ["alice", "Łucja", "bob", "山田"]


def trick_game(slug: str = "forty-two", plays: int = 4) -> Any:
    """A hand-built hand of `slug`: seat 0 bids 30, names blanks, then `plays` tiles."""
    g = variants.get(slug).new(seed=1, deal=TRICK_DEAL)
    for text in ("bid 30", "pass", "pass", "pass", "trumps 0"):
        g.play(text)
    for _ in range(plays):
        g.play(g.legal_moves()[0])
    return g


def ivory_at(im: Image.Image, rects: dict[int, tuple[int, int, int, int]]) -> list[float]:
    """How much of each rectangle is a tile's face (ivory, or the warm face of the winner)."""
    return [max(colour_share(im, r, theme.IVORY), colour_share(im, r, theme.LAST_FACE))
            for r in rects.values()]


def test_the_trick_is_the_largest_thing_a_phone_shows() -> None:
    from render.tricks import trick_rects

    g = trick_game(plays=2)
    view = g.view(None)
    im = png(render.position_png(view, PLAYERS))
    rects = trick_rects(view["trick"])
    phone = 360 / im.width  # a phone shows the picture about 360 px wide
    for x0, y0, x1, y1 in rects.values():
        assert min(x1 - x0, y1 - y0) * phone >= 30, (im.size, rects)
    assert all(share > 0.3 for share in ivory_at(im, rects))
    assert im.height <= 1.1 * im.width  # no strip of seats under the table


def test_the_move_that_completes_a_trick_shows_it_with_its_winner() -> None:
    from render.tricks import band_lines, trick_rects

    g = trick_game(plays=4)
    view = g.view(None)
    assert view["trick"] == [] and len(view["tricks"]) == 1  # the core cleared the table
    im = png(render.position_png(view, PLAYERS))
    done = view["tricks"][0]
    assert all(share > 0.3 for share in ivory_at(im, trick_rects(done["tiles"])))
    for seat, rect in trick_rects(done["tiles"]).items():  # the winning tile glows
        assert (colour_share(im, rect, theme.LAST_FACE) > 0.3) == (seat == done["winner"])
    assert f"Trick 1: {PLAYERS[done['winner']]} takes" in band_lines(view, None, PLAYERS)[1]
    g.play(g.legal_moves()[0])  # the next lead: the new trick only
    after = png(render.position_png(g.view(None), PLAYERS))
    assert sum(share > 0.3 for share in ivory_at(after, trick_rects(done["tiles"]))) == 1


def test_texas_says_its_trumps_and_marks_in_words() -> None:
    from render.tricks import band_lines, info_line

    view = trick_game("texas-42", plays=1).view(None)
    assert "trumps: blanks" in band_lines(view, None, PLAYERS)[0]
    assert "Game to 7 marks" in info_line(view, PLAYERS, None)
    french = band_lines(view, translator("fr"), PLAYERS)[0]
    assert "atout" in french.lower() and "0" not in french.split("·")[-1]


def test_a_forced_bid_says_why_in_the_pictures() -> None:
    from render.tricks import band_lines

    g = variants.get("texas-42").new(seed=1, deal=TRICK_DEAL)
    for _ in range(3):
        g.play("pass")
    assert band_lines(g.view(None), None, PLAYERS)[1] == \
        f"{PLAYERS[3]} must bid: the three others passed"
    forced = png(render.hand_png(g.view(3)))
    g2 = variants.get("texas-42").new(seed=1, deal=TRICK_DEAL)
    for _ in range(2):
        g2.play("pass")
    free = png(render.hand_png(g2.view(2)))
    heading = (0, 0, 400, 40)  # "Your hand: 7 tiles · you must bid", not "· your bid"
    assert ImageChops.difference(forced.crop(heading), free.crop(heading)).getbbox()


def test_the_end_of_a_hand_shows_that_hand_with_its_last_trick_and_names() -> None:
    from render.tricks import band_lines, finished_hand, trick_rects

    g = trick_game(plays=0)
    while g.round_no == 1:
        g.play(g.legal_moves()[0])
    view = g.view(None)
    hand = finished_hand(view)
    assert hand is not None and view["phase"] == "bidding"
    lines = ["Score sheet of round 1:", "alice & bob: contract made +30"]
    im = png(render.scoresheet_png(view, PLAYERS, lines))
    last = hand["tricks"][-1]
    assert all(share > 0.3 for share in ivory_at(im, trick_rects(last["tiles"])))
    band = band_lines({**hand, "trick": [], "phase": "over"}, None, PLAYERS)
    assert band[0].startswith("Contract 30 by alice") and "trumps: blanks" in band[0]
    assert band[1].startswith("Trick 7: ")
    nameless = png(render.scoresheet_png(view, [], lines))
    assert ImageChops.difference(im.crop((0, 0, im.width, 120)),
                                 nameless.crop((0, 0, im.width, 120))).getbbox()


def test_the_last_trick_picture_names_the_players_and_outlives_its_hand() -> None:
    from render.tricks import last_trick_png

    g = trick_game(plays=0)
    while g.round_no == 1:
        g.play(g.legal_moves()[0])
    view = g.view(None)  # the next hand's bidding: its last trick is the last hand's
    named = png(last_trick_png(view, names=PLAYERS))
    seats = png(last_trick_png(view))
    assert named.size == seats.size and ImageChops.difference(named, seats).getbbox()
    from render.tricks import trick_rects
    last = view["last_round"]["board"]["tricks"][-1]
    assert all(share > 0.3 for share in ivory_at(named, trick_rects(last["tiles"])))


def test_texas_tallies_its_marks() -> None:
    from render.tricks import tally

    im = canvas.felt(300, 60)
    left = tally(im, 290, 30, 3, 7, theme.TEXT)
    assert left < 290 and colour_share(im, (int(left), 10, 290, 50), theme.TEXT) > 0.02
    empty = canvas.felt(300, 60)
    assert tally(empty, 290, 30, 0, 7, theme.TEXT) == 290


def test_the_vingt_legend_and_the_tower_fall_name_the_players() -> None:
    from render.board import board_image
    from render.grid import legend_layout
    from render.stack import caption_lines

    view = variants.get("vingt").new(players=3, seed=3).view(None)
    names = ["Ann", "Bob", "山田"]
    named = board_image(view, None, names)
    seats = board_image(view, None, None)
    legend = (0, named.height - 40, min(named.width, seats.width), named.height)
    assert ImageChops.difference(named.crop(legend), seats.crop(legend)).getbbox()
    labels = [text for _, _, text in legend_layout(view, named.width, 0, None, names)]
    assert [label.split(":")[0] for label in labels] == names
    fell = {"layout": {"tiles": [], "fell": {"seat": 2, "tiles": 3, "risk": 0.2}}}
    assert any("it fell: 山田 took 3 tiles" in line
               for line in caption_lines(fell, None, ["Ann", "Bob", "山田"]))


def test_north_bid_line_stays_clear_of_north_tile() -> None:
    """The bidder's "bid 42" under north's name was drawn over north's tile of the trick."""
    from render.tricks import trick_rects

    game = variants.get("forty-two").new(players=4, seed=3)
    rng = random.Random(3)
    for _ in range(8):
        game.play(rng.choice(game.legal_moves()))
    view = game.view(None)
    assert view["contract"]["seat"] == 2 and any(p["seat"] == 2 for p in view["trick"])
    im = Image.open(io.BytesIO(render.position_png(view, ["Ann", "Bob", "Cy", "Di"]))).convert(
        "RGB")
    x0, y0, x1, _ = trick_rects(view["trick"])[2]
    above = im.crop((x0, y0 - 6, x1, y0))  # the six rows just above north's tile
    felt = im.getpixel((5, im.height // 2))
    inked = [y for y in range(above.height)
             if any(above.getpixel((x, y)) != felt for x in range(above.width))]
    assert len(inked) < above.height, "text runs down into the tile"


def test_a_round_sheet_says_who_made_the_tower_fall_by_name() -> None:
    """The sheet's board is drawn with the players' names: a fall said "Seat 2" there."""
    from render.board import board_image
    from render.scoresheet import scoresheet_image

    g = variants.get("tower").new(players=2, seed=1)
    rng = random.Random(1)
    while g.round_no == 1 and not g.over:
        g.play(rng.choice(g.legal_moves()))
    view = g.view(None)
    last = view["last_round"]
    last["board"]["layout"]["fell"] = {"type": "fall", "seat": 1, "tiles": 3}
    names = ["Ann", "Bob"]
    sheet = scoresheet_image(view, names, ["Score sheet of round 1:"])
    board = board_image({**view, **last["board"], "last_move": None}, None, names=names)
    nameless = board_image({**view, **last["board"], "last_move": None}, None)
    x = (sheet.width - board.width) // 2
    top = sheet.crop((x, 0, x + board.width, board.height))
    assert ImageChops.difference(board, nameless).getbbox()  # the names show on that board
    assert not ImageChops.difference(top.convert("RGB"), board.convert("RGB")).getbbox()
