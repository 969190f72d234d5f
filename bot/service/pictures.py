"""Pictures for messages: the public table and a private hand, as PNG bytes.

The service asks this object, never `render` directly, so that a picture for a channel can
only be made from a public view (checked here) and tests or benchmarks can run without
drawing (`NoPictures`).  A picture that cannot be drawn (a view render does not know yet, a
drawing error) is logged and left out: the message goes without it and the game goes on.

The words drawn (stock, round, "Your hand: 3 tiles"...) are in the object's language:
``pictures.for_lang("fr")`` gives the same pictures in French (the table's language for the
public picture, the player's for a hand), through the catalogue of `bot.i18n`.
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Callable
from typing import Any

from bot.i18n import translator

log = logging.getLogger("domino.pictures")


def check_public(view: dict[str, Any]) -> None:
    """Refuse a view that is not the public one (it has a seat, a hand or legal moves)."""
    if view.get("seat") is not None or "hand" in view or "legal" in view:
        raise ValueError("a picture for the channel must be made from the public view")


class Pictures:
    """Draws with `render` (Pillow), its words in ``lang`` ("en" or "fr")."""

    lang = "en"  # also for subclasses that do not call __init__ (dataclasses)

    def __init__(self, lang: str = "en") -> None:
        self.lang = lang

    def for_lang(self, lang: str) -> Pictures:
        """These pictures with their words in ``lang``."""
        if lang == self.lang:
            return self
        other = copy.copy(self)
        other.lang = lang
        return other

    def public(self, view: dict[str, Any], names: list[str] | None = None) -> bytes | None:
        check_public(view)
        return self._draw("position_png", view, names, tr=self._translator())

    def hand(self, view: dict[str, Any]) -> bytes | None:
        return self._draw("hand_png", view, tr=self._translator())

    def scoresheet(self, view: dict[str, Any], names: list[str], lines: list[str]
                   ) -> bytes | None:
        """The round that just ended: its final board, the hands, the sheet's `lines`."""
        check_public(view)
        return self._draw("scoresheet_png", view, names, lines, tr=self._translator())

    def _translator(self) -> Any:
        """None for English (render's own words, and a variant's English strip line)."""
        return None if self.lang == "en" else translator(self.lang)

    @staticmethod
    def _draw(name: str, *args: Any, **kwargs: Any) -> bytes | None:
        import render

        draw: Callable[..., bytes] | None = getattr(render, name, None)
        if draw is None:
            return None
        try:
            return draw(*args, **kwargs)
        except Exception:
            log.exception("render.%s failed", name)
            return None


class NoPictures(Pictures):
    """No drawing at all (benchmarks, text-only consoles); still checks public views."""

    def for_lang(self, lang: str) -> Pictures:
        return self  # nothing is drawn: the language changes nothing

    def public(self, view: dict[str, Any], names: list[str] | None = None) -> bytes | None:
        check_public(view)
        return None

    def hand(self, view: dict[str, Any]) -> bytes | None:
        return None

    def scoresheet(self, view: dict[str, Any], names: list[str], lines: list[str]
                   ) -> bytes | None:
        check_public(view)
        return None
