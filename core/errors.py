"""Errors raised by the rules core, each with a message a player can read."""

from __future__ import annotations


class DominoError(ValueError):
    """Base of every error the core raises on bad input."""


class IllegalMove(DominoError):
    """A move that is not legal now; the game is left unchanged."""


class UnknownVariant(DominoError):
    """A variant slug that does not exist."""


class OptionError(DominoError):
    """A bad option name or value, or a bad player count or deal."""
