"""Pictures for messages: the public table and a private hand, as PNG bytes.

The service asks this object, never `render` directly, so that a picture of
the channel can only be made from a public view (checked here) and tests or
benchmarks can run without drawing (`NoPictures`).
"""

from __future__ import annotations

from typing import Any


class Pictures:
    """Draws with `render` (Pillow)."""

    def public(self, view: dict[str, Any], names: list[str] | None = None) -> bytes | None:
        if view.get("seat") is not None or "hand" in view:
            raise ValueError("a picture for the channel must be made from the public view")
        import render

        return render.position_png(view, names)

    def hand(self, view: dict[str, Any]) -> bytes | None:
        import render

        return render.hand_png(view)


class NoPictures(Pictures):
    """No drawing at all (benchmarks, text-only consoles)."""

    def public(self, view: dict[str, Any], names: list[str] | None = None) -> bytes | None:
        if view.get("seat") is not None or "hand" in view:
            raise ValueError("a picture for the channel must be made from the public view")
        return None

    def hand(self, view: dict[str, Any]) -> bytes | None:
        return None
