"""A bid's words on the trick games' picture are the reader's (Texas 42's specials and marks
in French were drawn in English before)."""

from __future__ import annotations

from bot.i18n import translator
from bot.service.words.tricks import bid_text
from render.tricks import band_lines, bid_words
from tests.test_rules_texas_specials import DOUBLES_DEAL, texas


def test_a_plunge_contract_is_drawn_in_french() -> None:
    game = texas(DOUBLES_DEAL, plunge=True, splash=True)
    game.play("bid plunge")
    for _ in range(3):
        game.play("pass")
    game.play("trumps 6")
    view = game.view(None)
    assert view["contract"]["text"] == "plunge 4 marks"
    top = " ".join(band_lines(view, translator("fr")))
    assert "4 marques" in top and "marks" not in top


def test_the_chat_and_the_picture_say_bids_alike() -> None:
    fr = translator("fr")
    for bid in ("30", "1 mark", "2 marks", "plunge 4 marks", "splash 3 marks"):
        assert bid_text(bid, "fr") == bid_words(bid, fr)
    assert bid_words("2 marks", fr) == "2 marques"
    assert bid_text("pass", "fr") != "pass"
