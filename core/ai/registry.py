"""Each family's own computer players, by kind: a family module registers them here
(`register`), and `core.ai` (`make_player`) reads them.  Below both, so that neither imports
the other back."""

from __future__ import annotations

from typing import Any

# family -> kind -> player class, for families whose games need more than the generic players
FAMILY_PLAYERS: dict[str, dict[str, type[Any]]] = {}


def register(family: str, kind: str, cls: type[Any]) -> None:
    """Make `cls` the player of `kind` for the games of `family`."""
    FAMILY_PLAYERS.setdefault(family, {})[kind] = cls
