"""`whist` and `qui-perd-gagne` (000): two teams, the lighter (or heavier) team wins.

Four players, partners facing each other (seats 0+2 against 1+3), 6 tiles
each and 4 sleeping tiles, no drawing.  A round ends when a player is out or
the line is blocked; then the team holding fewer pips wins the round,
whoever went out, and scores the other team's pips.  "Qui perd gagne" is
"joué comme au Domino Whist", but the team holding more pips wins the round;
it scores the other team's pips too (the option `score_kept` scores the pips
it kept instead, an older reading of ours).  Match to 150;
the result names a "grande" or "petite bredouille".
"""

from __future__ import annotations

from typing import Any, ClassVar

from ..line.engine import BLOCK, LineRules
from ..line.match import LineMatch
from ..line.variant import LineVariant
from ..options import Option
from ..scoring import MatchRules

TEAMS = ((0, 2), (1, 3))


class WhistMatch(LineMatch):
    """The round's winning team is chosen by the pips it holds, not by who went out."""

    __slots__ = ()
    most_wins: ClassVar[bool] = False  # qui-perd-gagne: the heavier team wins

    def _finish(self, reason: str, winners: list[int]) -> None:
        counts = self.counts()
        held = [sum(counts[s] for s in team) for team in TEAMS]
        best = max(held) if self.most_wins else min(held)
        winners = sorted(s for i, team in enumerate(TEAMS) if held[i] == best for s in team)
        super()._finish(reason, winners)

    def _make_result(self) -> dict[str, Any]:
        result = super()._make_result()
        result["bredouille"] = bredouille(self.totals, [r["points"] for r in self.round_results])
        return result


def bredouille(totals: list[int], points: list[list[int]]) -> str | None:
    """"grande" when a losing team scored nothing, "petite" when it scored in one
    round only, else None (000, "LE DOMINO WHIST")."""
    best = max(totals)
    losers = [i for i, t in enumerate(totals) if t < best]
    if not losers:
        return None
    if any(totals[i] == 0 for i in losers):
        return "grande"
    if any(sum(1 for p in points if p[i] > 0) == 1 for i in losers):
        return "petite"
    return None


class Whist(LineVariant):
    slug = "whist"
    names = {"fr": "Le domino whist", "en": "Domino whist"}
    seeds = ("000",)
    min_players, max_players, default_players = 4, 4, 4
    options = (
        Option("target", 150, minimum=1, maximum=10_000, kind=int,
               help="the score a team must reach to win the match"),
    )
    match_class = WhistMatch

    def line_rules(self, players: int, o: dict[str, Any]) -> LineRules:
        # 000 is silent on the lead: the general rule opens, then the glossary's
        # "MANCHE": "pour les manches suivantes, chacun des autres joueurs, à son tour"
        return LineRules(hand=6, stock=False, draw=BLOCK, teams=TEAMS,
                         lead="highest", later_lead="rotate")

    def match_rules(self, players: int, o: dict[str, Any]) -> MatchRules:
        return MatchRules(scoring="pips", target=o["target"])


class QuiPerdGagneMatch(WhistMatch):
    __slots__ = ()
    most_wins = True


class QuiPerdGagne(Whist):
    slug = "qui-perd-gagne"
    names = {"fr": "Domino qui perd gagne", "en": "Loser wins (domino whist)"}
    options = (
        *Whist.options,
        Option("score_kept", False, kind=bool,
               help="the winning team scores the pips it kept, not the other team's"),
    )
    match_class = QuiPerdGagneMatch

    def match_rules(self, players: int, o: dict[str, Any]) -> MatchRules:
        return MatchRules(scoring="kept" if o["score_kept"] else "pips", target=o["target"])
