"""Computer players: the generic ones, the searcher, each family's own, `make_player` by name.

A player decides from its seat's view and the legal moves, never from another
hand or the stock's order.  The levels are `easy` (random among legal moves,
taking points on offer), `normal` (greedy), `hard` and `expert` (the searcher,
`core.ai.search`, with more imagined deals for `expert`); `random` and
`greedy` are the older names of the first two.  `make_player(kind, seed)`
returns a seat player that, for each game, uses the family's own player of
that kind when the family registered one (`register`), else the generic one;
a family without imagined deals (`determinized`) plays its greedy player at
the search levels.
"""

from __future__ import annotations

from typing import Any

from .generic import Game, GreedyPlayer, Player, RandomPlayer, claim_of
from .registry import FAMILY_PLAYERS, register
from .search import ExpertPlayer, HardPlayer

PLAYERS: dict[str, type[Any]] = {"random": RandomPlayer, "greedy": GreedyPlayer,
                                 "hard": HardPlayer, "expert": ExpertPlayer}
LEVELS = ("easy", "normal", "hard", "expert")
ALIASES = {"easy": "random", "normal": "greedy"}
SEARCH_KINDS = ("hard", "expert")


class SeatPlayer:
    """A computer seat of a given kind: the family's own player of that kind, else the generic."""

    def __init__(self, kind: str, seed: int | None = None) -> None:
        self.name = kind
        self.kind = ALIASES.get(kind, kind)
        self.seed = seed
        self._by_family: dict[str, Player] = {}

    def choose(self, game: Game) -> Any:
        family = getattr(getattr(game, "variant", None), "family", "line")
        player = self._by_family.get(family)
        if player is None:
            player = self._by_family[family] = self._player_for(family, game)(self.seed)
        return player.choose(game)

    def _player_for(self, family: str, game: Game) -> type[Any]:
        own = FAMILY_PLAYERS.get(family, {})
        if self.kind in own:
            return own[self.kind]
        if self.kind in SEARCH_KINDS and not hasattr(game, "determinized"):
            return own.get("greedy") or GreedyPlayer
        return PLAYERS[self.kind]


def levels_for(variant: Any) -> tuple[str, ...]:
    """The levels a computer seat may have in `variant`'s games: all four where a searcher
    plays them (the line games' imagined deals, `determinized`; a family that registered
    its own `hard` and `expert`), else `easy` and `normal` only (there, a search level
    would play as `normal`)."""
    own = FAMILY_PLAYERS.get(getattr(variant, "family", ""), {})
    if hasattr(getattr(variant, "match_class", None), "determinized") or \
            all(kind in own for kind in SEARCH_KINDS):
        return LEVELS
    return tuple(level for level in LEVELS if ALIASES.get(level, level) not in SEARCH_KINDS)


def make_player(kind: str, seed: int | None = None) -> Player:
    """A computer player by level ("easy", "normal", "hard", "expert") or older name
    ("random", "greedy")."""
    if ALIASES.get(kind, kind) not in PLAYERS:
        raise ValueError(
            f"unknown computer player {kind!r}; choose one of: {', '.join(KINDS)}"
        )
    return SeatPlayer(kind, seed)


KINDS = (*LEVELS, "random", "greedy")


__all__ = ["FAMILY_PLAYERS", "KINDS", "LEVELS", "PLAYERS", "ExpertPlayer", "Game",
           "GreedyPlayer", "HardPlayer", "Player", "RandomPlayer", "SeatPlayer", "claim_of",
           "levels_for", "make_player", "register"]

# Each family module below registers its own players (core/ai/registry.py), or is
# registered here.
from . import grid as _grid  # noqa: E402  (the grid family's players)
from . import memory as _memory  # noqa: E402
from . import patience as _patience  # noqa: E402
from . import puzzle as _puzzle  # noqa: E402, F401  (registers the puzzles' player)
from . import stack as _stack  # noqa: E402, F401  (registers the stacking games' players)
from . import tricks as _tricks  # noqa: E402, F401  (registers the trick games' players)
from . import tricks_search as _tricks_search  # noqa: E402, F401  (their hard and expert)

register("grid", "greedy", _grid.GridGreedy)
register("grid", "random", _grid.GridRandom)
register("memory", "random", _memory.RandomMemoryPlayer)
register("memory", "greedy", _memory.GreedyMemoryPlayer)
register("memory", "hard", _memory.HardMemoryPlayer)
register("memory", "expert", _memory.ExpertMemoryPlayer)
register("solitaire", "random", _patience.RandomSolitairePlayer)
register("solitaire", "greedy", _patience.GreedySolitairePlayer)
