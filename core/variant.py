"""What a variant is: its names, player counts, options, and how it builds a match.

Every family gives its variants a base class on top of `Variant` (the line
games' is `core.line.variant.LineVariant`); a variant module declares its
slug, names, player counts and options and builds its family's match.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any, ClassVar

from .errors import bad_option
from .options import Option

if TYPE_CHECKING:
    from .match import MatchBase


class Variant:
    """Base of every variant: metadata and option checking."""

    slug: ClassVar[str]
    names: ClassVar[dict[str, str]]  # {"fr": ..., "en": ...}
    seeds: ClassVar[tuple[str, ...]] = ()
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    default_players: ClassVar[int] = 2
    options: ClassVar[tuple[Option, ...]] = ()
    family: ClassVar[str] = ""  # the package of core that plays it: "line", "tricks"...

    def check_players(self, players: Any) -> int:
        if isinstance(players, str) and players.strip().isdigit():
            players = int(players)
        if isinstance(players, bool) or not isinstance(players, int):
            raise bad_option("{variant}: players must be a whole number (got {got!r})",
                             variant=self.slug, got=players)
        lo, hi = self.min_players, self.max_players
        if not lo <= players <= hi:
            if lo == hi:
                raise bad_option("{variant} is played by exactly {lo} players (got {got})",
                                 variant=self.slug, lo=lo, got=players)
            raise bad_option("{variant} is played by {lo} to {hi} players (got {got})",
                             variant=self.slug, lo=lo, hi=hi, got=players)
        return players

    def describe(self) -> dict[str, Any]:
        """Slug, names, player counts and options, as JSON data."""
        return {
            "slug": self.slug,
            "names": dict(self.names),
            "players": [self.min_players, self.max_players],
            "options": [
                {"name": o.name, "default": o.default, "allowed": o.allowed(), "help": o.help}
                for o in self.options
            ],
        }

    def new(self, players: int | None = None, seed: int | None = None,
            deal: dict[str, Any] | None = None, **options: Any) -> MatchBase:
        raise NotImplementedError


def checked_seed(seed: Any) -> int:
    """A match's seed: a whole number as given, or a random one when None."""
    if seed is None:
        return secrets.randbits(63)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise bad_option("seed must be a whole number (got {got!r})", got=seed)
    return seed
