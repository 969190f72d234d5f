"""`patience`: the domino patience of 000 ("DOMINO PATIENCE"), one player, by `core.solitaire`."""

from __future__ import annotations

from typing import Any

from ..options import resolve
from ..solitaire.patience import PatienceMatch, PatienceRules
from ..variant import Variant, checked_seed


class Patience(Variant):
    slug = "patience"
    names = {"fr": "Patience", "en": "Patience"}
    seeds = ("000",)
    family = "solitaire"
    min_players = max_players = default_players = 1

    def new(self, players: int | None = None, seed: int | None = None,
            deal: dict[str, Any] | None = None, **options: Any) -> PatienceMatch:
        n = self.check_players(self.default_players if players is None else players)
        opts = resolve(self.slug, self.options, options)
        return PatienceMatch(self, n, checked_seed(seed), opts, PatienceRules(), deal)
