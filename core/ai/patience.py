"""Computer players of the solitaires, and the patience's hint.

For the patience (`core.solitaire.patience`) the greedy player, and the
hint, remove the pair lying on the most face-down tiles
(`patience_search.good_pair`), read from the view alone; the random player
removes any pair.  Over 20,000 deals the greedy player wins about 10.9%
(the exhaustive search that peeks, 23.4%; see docs/benchmarks.md, "Patience").  Other
solitaires (puzzles) fall back to the generic players.
"""

from __future__ import annotations

import random
from typing import Any

from ..solitaire.patience import PatienceMatch
from ..solitaire.patience_search import good_pair
from ..tiles import tile_set
from .generic import GreedyPlayer, RandomPlayer, legal_moves_of


def hint(view: dict[str, Any]) -> str | None:
    """The move a good player makes in this patience view (its text), None when over."""
    if view.get("over") or not view.get("legal"):
        return None
    ts = tile_set(6)
    columns = view["columns"]
    tops = [ts.lookup[c["up"]] if c["up"] else None for c in columns]
    pair = good_pair(tops, [c["hidden"] for c in columns])
    if pair is None:
        return None
    i, j = pair
    return next(m for m in view["legal"] if set(m.split()) == {columns[i]["up"], columns[j]["up"]})


class RandomSolitairePlayer:
    """Any legal move (the patience: any pair totalling 12)."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.fallback = RandomPlayer(seed)

    def choose(self, game: Any) -> Any:
        if not isinstance(game, PatienceMatch):
            return self.fallback.choose(game)
        moves = legal_moves_of(game)
        return self.rng.choice(moves)


class GreedySolitairePlayer:
    """The patience's hint: the pair lying on the most face-down tiles."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.fallback = GreedyPlayer(seed)

    def choose(self, game: Any) -> Any:
        if not isinstance(game, PatienceMatch):
            return self.fallback.choose(game)
        text = hint(game.view(game.to_move))
        if text is None:
            raise ValueError("no legal move: the game is over")
        return game.parse_move(text)
