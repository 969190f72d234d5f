"""Errors raised by the rules core, each with a message a player can read.

Each error can carry its English template and values as well as its message, so that a
front end can show it in the player's language: ``raise illegal("{tile} is not in your hand",
tile="6-4")`` has ``str(exc) == "6-4 is not in your hand"``, ``exc.template`` and
``exc.values``.  A tuple value is a list of alternatives, written "a or b or c".
`illegal`, `bad_option`, `unknown_variant` and `N_` (a template kept for
later) mark literal English templates; the bot extracts them for its catalogues.
"""

from __future__ import annotations

from typing import Any, Self


class DominoError(ValueError):
    """Base of every error the core raises on bad input.

    `template` is the English message with ``{name}`` fields (None for a plain message) and
    `values` fills them: ``str(exc) == template.format(**values)``.
    """

    def __init__(self, message: str = "", template: str | None = None,
                 values: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.template = template
        self.values: dict[str, Any] = dict(values or {})

    @classmethod
    def of(cls, template: str, /, **values: Any) -> Self:
        """The error whose message is `template` filled with `values`."""
        shown = {k: " or ".join(map(str, v)) if isinstance(v, tuple) else v
                 for k, v in values.items()}
        return cls(template.format(**shown), template, values)


class IllegalMove(DominoError):
    """A move that is not legal now; the game is left unchanged."""


class UnknownVariant(DominoError):
    """A variant slug that does not exist."""


class OptionError(DominoError):
    """A bad option name or value, or a bad player count or deal."""


def illegal(template: str, /, **values: Any) -> IllegalMove:
    """An `IllegalMove` from an English template (marked for translation) and its values."""
    return IllegalMove.of(template, **values)


def bad_option(template: str, /, **values: Any) -> OptionError:
    """An `OptionError` from an English template (marked for translation) and its values."""
    return OptionError.of(template, **values)


def unknown_variant(template: str, /, **values: Any) -> UnknownVariant:
    """An `UnknownVariant` from an English template (marked for translation) and its values."""
    return UnknownVariant.of(template, **values)


def N_(template: str) -> str:
    """Mark a template for translation where it is written, to be raised elsewhere."""
    return template
