"""The base of the stacking variants: options turned into `StackRules` and `MatchRules`."""

from __future__ import annotations

from typing import Any

from ..options import Option, resolve
from ..scoring import MatchRules
from ..tiles import tile_set
from ..variant import Variant, checked_seed
from .match import StackMatch, StackRules

COUNT = Option("count", "pips", ("pips", "tiles"),
               help="a blocked round is won by the fewest pips, or (with children) tiles")
ROUNDS = Option("rounds", 1, minimum=1, maximum=20, kind=int,
                help="rounds to play; the losers note what they hold, the lowest total wins")


class StackVariant(Variant):
    """A game of the magnetic dominoes built upward (001): 2-4 players, double-six."""

    family = "stack"
    seeds = ("001",)
    min_players, max_players, default_players = 2, 4, 2

    def stack_rules(self, players: int, o: dict[str, Any]) -> StackRules:
        raise NotImplementedError

    def new(self, players: int | None = None, seed: int | None = None,
            deal: dict[str, Any] | None = None, **options: Any) -> StackMatch:
        """A new match; `deal` fixes the first round's hands and stock."""
        n = self.check_players(self.default_players if players is None else players)
        opts = resolve(self.slug, self.options, options)
        seed = checked_seed(seed)
        rules = self.stack_rules(n, opts)
        rounds = opts.get("rounds", 1)
        mrules = MatchRules(scoring="penalty", rounds=rounds if rounds > 1 else None)
        return StackMatch(self, n, seed, opts, rules, mrules, deal)


def hand_size(players: int) -> int:
    """001: 7 tiles each at 2 players, 6 at 3 or 4."""
    return 7 if players == 2 else 6


def double_six() -> Any:
    return tile_set(6)
