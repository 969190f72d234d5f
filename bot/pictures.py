"""Pictures for messages: the public table and a private hand, as PNG bytes.

The service asks this object, never `render` directly, so that a picture for a channel can
only be made from a public view (checked here) and tests or benchmarks can run without
drawing (`NoPictures`).  A picture that cannot be drawn (a view render does not know yet, a
drawing error) is logged and left out: the message goes without it and the game goes on.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

log = logging.getLogger("domino.pictures")


def check_public(view: dict[str, Any]) -> None:
    """Refuse a view that is not the public one (it has a seat, a hand or legal moves)."""
    if view.get("seat") is not None or "hand" in view or "legal" in view:
        raise ValueError("a picture for the channel must be made from the public view")


class Pictures:
    """Draws with `render` (Pillow)."""

    def public(self, view: dict[str, Any], names: list[str] | None = None) -> bytes | None:
        check_public(view)
        return self._draw("position_png", view, names)

    def hand(self, view: dict[str, Any]) -> bytes | None:
        return self._draw("hand_png", view)

    @staticmethod
    def _draw(name: str, *args: Any) -> bytes | None:
        import render

        draw: Callable[..., bytes] | None = getattr(render, name, None)
        if draw is None:
            return None
        try:
            return draw(*args)
        except Exception:
            log.exception("render.%s failed", name)
            return None


class NoPictures(Pictures):
    """No drawing at all (benchmarks, text-only consoles); still checks public views."""

    def public(self, view: dict[str, Any], names: list[str] | None = None) -> bytes | None:
        check_public(view)
        return None

    def hand(self, view: dict[str, Any]) -> bytes | None:
        return None
