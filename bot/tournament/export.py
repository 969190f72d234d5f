"""A tournament's record as a JSON file (issue 31): the game, the format, each round's
tables (with their game's table number) and byes, the results, and the standings.

Nothing private: who sat where and how each table ended are public in the channel already.
The tournaments' `export_tournament` (commands.py) sends it; the facade puts it behind the
door (bot/service/service.py).
"""

from __future__ import annotations

from typing import Any

from .tournament import Tournament


def record(tid: int, status: str, data: dict[str, Any],
           tables: list[dict[int, int]]) -> dict[str, Any]:
    """The exported record: `data` is the tournament's stored state, `tables` each round's
    table numbers (table_no -> the game's table id)."""
    tour = Tournament.from_dict(data["t"])
    names: dict[str, str] = data.get("names", {})

    def name(e: str | None) -> str | None:
        return names.get(e, e) if e else None
    rounds = [{"round": n, "byes": [name(b) for b in rnd.byes],
               "tables": [{"table_id": tables[n - 1].get(no),
                           "seats": [name(p) for p in tour.seats(tb)],
                           "sides": [[name(e) for e in side] for side in tb.sides],
                           "scores": tb.scores, "no_shows": [name(e) for e in tb.no_shows]}
                          for no, tb in enumerate(rnd.tables, 1)]}
              for n, rnd in enumerate(tour.rounds, 1)]
    standings = [{**s.to_dict(), "name": name(s.entrant)} for s in tour.standings()]
    return {"tournament": tid, "status": status, "game": data.get("variant"),
            "options": data.get("options", {}), "config": data["t"]["config"],
            "rounds": rounds, "standings": standings}
