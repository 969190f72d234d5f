"""Computer players: the generic ones, each family's own, and `make_player` by name.

A player decides from its seat's view and the legal moves, never from another
hand or the stock's order.  `make_player(kind, seed)` returns a seat player
that, for each game, uses the family's own player of that kind when the
family registered one (`register`), else the generic player (`core.ai.generic`).
"""

from __future__ import annotations

from typing import Any

from .generic import Game, GreedyPlayer, Player, RandomPlayer, claim_of

PLAYERS: dict[str, type[Any]] = {"random": RandomPlayer, "greedy": GreedyPlayer}
# family -> kind -> player class, for families whose games need more than the generic players
FAMILY_PLAYERS: dict[str, dict[str, type[Any]]] = {}


def register(family: str, kind: str, cls: type[Any]) -> None:
    """Make `cls` the player of `kind` for the games of `family`."""
    FAMILY_PLAYERS.setdefault(family, {})[kind] = cls


class SeatPlayer:
    """A computer seat of a given kind: the family's own player of that kind, else the generic."""

    def __init__(self, kind: str, seed: int | None = None) -> None:
        self.name = kind
        self.seed = seed
        self._by_family: dict[str, Player] = {}

    def choose(self, game: Game) -> Any:
        family = getattr(getattr(game, "variant", None), "family", "line")
        player = self._by_family.get(family)
        if player is None:
            cls = FAMILY_PLAYERS.get(family, {}).get(self.name) or PLAYERS[self.name]
            player = self._by_family[family] = cls(self.seed)
        return player.choose(game)


def make_player(kind: str, seed: int | None = None) -> Player:
    """A computer player by name ("random" or "greedy")."""
    if kind not in PLAYERS:
        raise ValueError(
            f"unknown computer player {kind!r}; choose one of: {', '.join(PLAYERS)}"
        )
    return SeatPlayer(kind, seed)


__all__ = ["FAMILY_PLAYERS", "PLAYERS", "Game", "GreedyPlayer", "Player", "RandomPlayer",
           "SeatPlayer", "claim_of", "make_player", "register"]

from . import tricks as _tricks  # noqa: E402, F401  (registers the trick games' players)
