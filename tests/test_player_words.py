"""What players read: seats by name (else "Seat 2", counted from 1 everywhere), end words and
plurals in the reader's language."""

from __future__ import annotations

import re

import pytest

from bot.console import textboard
from bot.i18n import error_text, translator
from bot.service import words as event_texts
from core import IllegalMove, variants
from render import strip, words


def test_a_seat_without_a_name_is_counted_from_1_in_every_text() -> None:
    view = variants.get("classic").new(players=3, seed=1).view(None)
    assert event_texts.seat_label([], 0) == "Seat 1"
    assert event_texts.seat_label([], 1, "fr") == "Place 2"
    assert textboard.seat_name(view, 0) == "Seat 1"  # the console and `domino replay`
    assert strip.seat_names(view, None)[0] == "Seat 1"  # the pictures
    assert words.seat_label(["Ana", ""], 1) == "Seat 2"


def test_unclaimed_points_name_the_player_in_the_picture_and_the_text() -> None:
    view = {"unclaimed": {"seat": 1, "points": 1}, "strip_extra": "Unclaimed: 1 (seat 2)"}
    line = strip.extra_line(view, None, ["Ana", "Zoë"])
    assert line == "Unclaimed: 1 point of Zoë." and "seat" not in line
    french = event_texts.status_lines(view, ["Ana", "Zoë"], "fr")
    assert french and "Zoë" in french[0] and "seat" not in french[0]


def matador_error(move: str) -> IllegalMove:
    g = variants.get("matador").new(players=2, seed=1, deal={
        "hands": [["6-6", "1-3", "5-2"], ["1-5", "6-3", "2-2"]], "stock": ["3-3", "2-1"]})
    g.play("6-6")
    with pytest.raises(IllegalMove) as info:
        g.play(move)
    return info.value


def test_french_errors_and_moves_name_the_ends_in_french() -> None:
    text = error_text("fr", matador_error("6-3 left"))
    assert "gauche" in text and "left" not in text
    assert "left" in error_text("en", matador_error("6-3 left"))
    view = variants.get("classic").new(players=2, seed=1).view(None)
    line = event_texts.move_line(view, ["Ana", "Zoë"], "fr", 0, "6-4 right")
    assert line is not None and "6-4 droite" in line and "right" not in line
    assert event_texts.move_line(view, ["Ana", "Zoë"], "en", 0, "6-4 right") == (
        "Ana plays 6-4 right.")


def test_french_hints_write_moves_the_french_way() -> None:
    fr = translator("fr")
    for english in ("say which end: '{tile} left' or '{tile} right'",
                    "a move is text, like '6-4 left', 'draw' or 'pass'"):
        french = fr.gettext(english)
        assert french != english and not re.search(r"\b(left|right|draw|pass)\b", french)


@pytest.mark.parametrize(("lang", "one", "two"), [("en", "1 point", "2 points"),
                                                   ("fr", "1 point", "2 points")])
def test_points_in_the_table_text_agree_with_their_number(lang: str, one: str, two: str
                                                          ) -> None:
    view = {"hand_sizes": [1, 2], "scores": [1, 2]}
    first = event_texts.seat_line(view, ["Ana", "Zoë"], lang, 0)
    second = event_texts.seat_line(view, ["Ana", "Zoë"], lang, 1)
    assert first.endswith(one) and second.endswith(two)
    assert "1 points" not in first


def test_in_k_a_blank_end_takes_a_k_tile_not_a_matador() -> None:
    g = variants.get("k").new(players=2, seed=0)
    while [] not in (g.view(None).get("needs") or [[1]]):
        g.play(g.legal_moves()[0])
    view = g.view(None)
    assert "a K tile" in words.status_lines(view, ["Ana", "Zoë"])[0]
    assert "un domino K" in event_texts.status_lines(view, ["Ana", "Zoë"], "fr")[0]
    assert "matador" not in (strip.extra_line(view, None, ["Ana", "Zoë"]) or "")


def test_memory_and_patience_seats_read_their_own_counts_not_a_hand() -> None:
    # memory: A1 6-4 and A2 4-1 kept by seat 0; the patience: 6-4 and 2-0 removed, 3 left
    memory = variants.get("memory").new(players=2, seed=1, deal={"grid": [
        "6-4", "4-1", *[None] * 5, "3-2", "2-0", *[None] * 19]})
    memory.play("A1")
    memory.play("A2")
    patience = variants.get("patience").new(deal={"columns": [["6-4", "0-0"], ["2-0", "6-6"],
                                                              ["1-1"]]})
    patience.play("6-4 2-0")
    m, p = memory.view(None), patience.view(None)
    assert event_texts.seat_line(m, ["Ana", "Zoë"], "en", 0) == "Ana: kept 2 tiles, 15 points"
    assert event_texts.seat_line(m, ["Ana", "Zoë"], "fr", 1) == "Zoë : 0 domino gagné, 0 point"
    assert event_texts.seat_line(p, ["Ana"], "en", 0) == "Ana: 3 tiles left, 2 points"
    assert event_texts.seat_line(p, ["Ana"], "fr", 0).startswith("Ana : 3 dominos restants")
    assert "kept 2 tiles" in textboard.table_text(m, ["Ana", "Zoë"])
    assert "3 tiles left" in textboard.table_text(p, ["Ana"])
