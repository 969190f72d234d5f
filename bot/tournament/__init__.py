"""Tournaments' pairings and standings: pure, platform- and storage-neutral (issue 31).

`Tournament` holds the entrants, the rounds' tables and their results, and serialises to
plain JSON (`to_dict` / `from_dict`) so that the service can store it. Pairings come from
pairing libraries (`py4swiss` for the FIDE Dutch Swiss, `caissify-pairings` for the Berger
round-robin tables); see `pairing`. No text a player reads lives here.
"""

from bot.tournament.model import (
    FORMATS,
    Config,
    Entrant,
    Round,
    Table,
    TournamentError,
)
from bot.tournament.standings import Standing, standings
from bot.tournament.tournament import Tournament

__all__ = [
    "FORMATS",
    "Config",
    "Entrant",
    "Round",
    "Standing",
    "Table",
    "Tournament",
    "TournamentError",
    "standings",
]
