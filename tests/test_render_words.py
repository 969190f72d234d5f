"""The pictures' words in French: every label drawn goes through the caller's translator,
a French table gets no English label, English stays the default."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image

import render
from bot.i18n import translator
from bot.service.pictures import NoPictures, Pictures
from core import variants
from render import canvas, palette, strip
from render.words import English
from tests.test_render_pictures import CANTON, position

TILE = r"\d+-\d+"
NAMES = ["Ana", "Bob", "Chloe"]
# a K match just over: seat 2 left it on reaching the target, seat 0 won
OVER = {"players": 3, "hand_sizes": [0, 3, 2], "scores": [12, 31, 52], "gone": [2],
        "over": True, "result": {"winners": [0]}, "target": 50, "target_reach": "loses",
        "board": ["6-6", "6-1"], "stock": 0, "round": 4}


class Tagging:
    """A translator that marks every word it translates with "@"."""

    def gettext(self, message: str, /) -> str:
        return "@" + message

    def ngettext(self, singular: str, plural: str, n: int, /) -> str:
        return "@" + (singular if n == 1 else plural)


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every text `canvas.draw_text` is asked to draw."""
    palette.palette_image()  # its sample sheet ("Ag8") is drawn once per process
    texts: list[str] = []
    real = canvas.draw_text

    def spy(im: Image.Image, xy: tuple[float, float], text: str, *args: Any,
            **kwargs: Any) -> tuple[int, int, int, int]:
        texts.append(text)
        return real(im, xy, text, *args, **kwargs)

    monkeypatch.setattr(canvas, "draw_text", spy)
    yield texts


def pictures_of_every_kind(tr: Any) -> None:
    """Position, hand and board pictures covering every label render draws."""
    g = position(5)
    render.position_png(g.view(None), NAMES[:2], tr=tr)
    render.position_png({**g.view(None), "stock": 0}, None, tr=tr)  # "No stock", "Seat 1"
    render.hand_png(g.view(g.to_move), tr=tr)  # playable tiles
    render.hand_png({"hand": ["6-6", "1-1"], "legal": ["draw"]}, tr=tr)
    render.hand_png({"hand": ["6-6"], "legal": ["pass"]}, tr=tr)
    render.hand_png({"hand": ["6-4", "1-1"], "legal": ["6-4 left", "draw"]}, tr=tr)
    render.board_png({"layout": {"kind": "line", "chain": [], "last": None}}, tr=tr)
    render.position_png(OVER, NAMES, tr=tr)
    render.position_png(variants.get("all-fives").new(players=2, seed=1).view(None), tr=tr)
    render.position_png(variants.get("cent-a-zero").new(players=2, seed=1).view(None), tr=tr)
    render.position_png(variants.get("rubicon").new(players=3, seed=2).view(None), tr=tr)
    render.position_png({**CANTON, "rounds": 3, "target": None}, NAMES, tr=tr)
    cleared = {**CANTON["layout"], "chain": []}  # type: ignore[dict-item]
    render.position_png({**CANTON, "layout": cleared}, NAMES, tr=tr)


def test_every_label_drawn_goes_through_the_translator(drawn: list[str]) -> None:
    pictures_of_every_kind(Tagging())
    assert len(drawn) > 60
    for text in drawn:
        for part in text.split("  ·  "):
            # what is not a word: a name, a score, a tile's notation, a chip count
            raw = part in NAMES or part.isdigit() or re.fullmatch(TILE, part)
            assert raw or part.startswith("@"), f"{part!r} was drawn without the translator"
    words = {p for text in drawn for p in text.split("  ·  ") if p.startswith("@")}
    for label in ("@Stock 7", "@No stock", "@Round 1", "@Seat 1", "@Game over", "@points",
                  "@winner", "@out", "@Captured", "@nothing yet", "@No tiles on the table yet",
                  "@Table cleared: the capturer leads again", "@nothing fits: draw",
                  "@nothing fits: pass", "@you may draw", "@Game of 3 rounds",
                  "@Game to 100 points", "@First down to 0 wins", "@Out at 50 points"):
        assert any(w.startswith(label) for w in words), label


def test_a_french_table_gets_no_english_label(drawn: list[str]) -> None:
    pictures_of_every_kind(translator("fr"))
    text = "\n".join(drawn)
    for english in ("Stock", "stock", "Round", "Seat", "to play", "Game", "tile", "Your hand",
                    "playable", "nothing", "draw", "winner", "Out at", "Captured", "chip",
                    "wins", "cleared"):
        assert english not in text, english
    for french in ("Pioche 7", "Pioche vide", "Manche 1", "Au tour de", "Votre main : 2 dominos",
                   "1 jouable (cercle bleu)", "rien ne va : piochez", "gagnant", "hors jeu",
                   "Partie finie", "Partie en 100 points", "Qui atteint", "Prises",
                   "Le premier à 0 gagne",
                    "jetons", "Place 1", "Aucun domino sur la table"):
        assert french in text, french
    # longer French titles widen the hand picture instead of being cut
    assert not [t for t in drawn if t.endswith("…")]


def test_english_is_the_default_and_english_translators_draw_the_same() -> None:
    g = position(5)
    for tr in (English(), translator("en")):
        assert render.position_png(g.view(None), NAMES[:2], tr=tr) == render.position_png(
            g.view(None), NAMES[:2])
        assert render.hand_png(g.view(g.to_move), tr=tr) == render.hand_png(g.view(g.to_move))


def test_a_variants_english_strip_line_is_drawn_only_in_english_or_when_translated() -> None:
    view = {**position(2).view(None), "strip_extra": "Total laid: 20"}
    assert strip.extra_line(view, None) == "Total laid: 20"
    assert strip.extra_line(view, translator("fr")) is None  # no French for it: left out
    assert strip.extra_line(view, Tagging()) == "@Total laid: 20"
    tall = Image.open(io.BytesIO(render.position_png(view))).height
    short = Image.open(io.BytesIO(render.position_png(view, tr=translator("fr")))).height
    assert short < tall


def test_the_pictures_object_draws_in_its_language(drawn: list[str]) -> None:
    g = position(5)
    french = Pictures().for_lang("fr")
    assert french.lang == "fr" and Pictures().lang == "en"
    assert french.for_lang("fr") is french
    assert french.public(g.view(None), NAMES[:2]) and french.hand(g.view(g.to_move))
    assert any(t.startswith("Pioche") for t in drawn)
    assert any(t.startswith("Votre main") for t in drawn)
    drawn.clear()
    assert Pictures().public(g.view(None), NAMES[:2])
    assert any(t.startswith("Stock") for t in drawn) and not any("Pioche" in t for t in drawn)
    nothing = NoPictures()
    assert nothing.for_lang("fr") is nothing
    with pytest.raises(ValueError, match="public view"):
        french.public(g.view(g.to_move))


def matador_after(moves: list[str]) -> dict[str, Any]:
    g = variants.get("matador").new(players=2, seed=1, deal={
        "hands": [["6-6", "1-3", "5-2", "4-4"], ["1-5", "6-3", "2-2", "0-0"]],
        "stock": ["3-3", "2-1", "4-0"]})
    for m in moves:
        g.play(m)
    return g.view(None)


def test_matador_says_what_each_end_takes_in_french(drawn: list[str]) -> None:
    view = matador_after(["6-6", "1-5 right"])
    render.position_png(view, NAMES[:2], tr=translator("fr"))
    assert "Le bout gauche prend un 1 ; le bout droit prend un 2." in drawn
    render.position_png(view, NAMES[:2])
    assert "The left end takes a 1; the right end takes a 2." in drawn


def test_matador_end_markers_show_what_a_player_needs_to_lay() -> None:
    from render import board

    view = matador_after(["6-6", "1-5 right"])
    geo = board.board_geometry(view)
    assert [m.value for m in geo.markers] == [6, 5]  # the outer halves...
    assert [m.text() for m in board.label_ends(view, geo).markers] == ["1", "2"]  # ...take 1, 2
    plain = variants.get("classic").new(players=2, seed=1).view(None)
    assert board.label_ends(plain, board.board_geometry(plain)).markers == \
        board.board_geometry(plain).markers


def test_a_space_after_a_chinese_name_is_a_word_space() -> None:
    """The CJK font's space is a full em: "山田 to play" drew a wide gap after the name."""
    from render.canvas import text_mask

    size = 20
    gap = text_mask("山田 x", size).width - text_mask("山田x", size).width
    assert gap <= 0.4 * size
    assert text_mask("محمد علي", size).width > text_mask("محمدعلي", size).width  # one run
