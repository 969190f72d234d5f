"""Team tournaments in the service (issue 31): the games played by partners, fixed pairs
and their registration, a side's score from the game's team result, the pairs' names.

Pure: functions of the tournament's stored state (`data`, the JSON the rounds keep) and of
bot/tournament's `Tournament`; the commands (tournaments.py) and the rounds (rounds.py)
call them.  A fixed pair is one entrant whose id is "A&B" (the two user ids; "A&cpu" with a
computer partner) and whose name is "Ann & Bob".  Those who registered without a partner
confirmed wait in `data["pending"]`, in order of registration: [user, partner asked or
None]; at the start they are paired with each other in that order.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any

from core import variants

from ..i18n import t, tn
from ..service.tables import seat_ranks
from .model import Table, TournamentError
from .standings import Standing
from .tournament import Tournament

MODES = ("fixed", "random")
COMPUTER = "cpu"  # a fixed pair's computer partner, in its id
PAIR = " & "  # between partners' names (render/standings.py cuts a pair's name around it)


def is_team_game(game: Any) -> bool:
    """Whether a match is played by teams (partners opposite): its public view says so."""
    return bool(game.view(None).get("teams"))


@cache
def team_games() -> tuple[str, ...]:
    """The slugs of the games played by partners (probed once)."""
    out = []
    for v in variants.all_variants():
        try:
            if is_team_game(v.new(players=v.default_players, seed=0)):
                out.append(v.slug)
        except Exception:  # a variant that cannot start alone is not a team game here
            continue
    return tuple(out)


def pair_id(a: str, b: str | None) -> str:
    return f"{a}&{b or COMPUTER}"


def pair_name(names: dict[str, str], a: str, b: str | None, lang: str) -> str:
    first = names.get(a, a)
    if b is None:
        return t(lang, "{who} & a computer", who=first)
    return PAIR.join((first, names.get(b, b)))


def entrant_of(tour: Tournament, user: str) -> str | None:
    """The entrant a user plays for: themselves, or their fixed pair."""
    if user in tour.entrants:
        return user
    return next((e.id for e in tour.entrants.values() if user in e.members), None)


def partner_of(tour: Tournament, entrant: str, user: str) -> str | None:
    """The other member of `user`'s pair (None: alone, or a computer partner)."""
    members = tour.entrants[entrant].members
    return next((m for m in members if m is not None and m != user), None)


def players(data: dict[str, Any]) -> int:
    """Players registered: every member of every entrant, and those waiting for a partner
    (DOMINO_TOURNAMENT_ENTRANTS bounds this count)."""
    return (sum(sum(m is not None for m in e["members"]) for e in data["t"]["entrants"])
            + len(data.get("pending", [])))


def register(data: dict[str, Any], tour: Tournament, user: str, partner: str | None,
             cap: int, lang: str) -> tuple[str, str | None]:
    """A player registers in a fixed-pairs tournament, naming a partner or not.

    Returns ("paired", the pair's entrant id): the partner had named them (or, with no
    partner named, someone had asked them); ("asked", partner): waiting for the partner to
    confirm; ("alone", None): waiting to be paired at the start.  Changes `data` (not its
    "t": the caller stores `tour`)."""
    pending: list[list[str | None]] = data.setdefault("pending", [])
    asked = {u: p for u, p in pending}
    if entrant_of(tour, user) is not None:
        raise TournamentError("already-registered")
    if partner == user:
        raise TournamentError("own-partner")
    if partner is not None and entrant_of(tour, partner) is not None:
        raise TournamentError("partner-registered")
    if partner is None:  # accepts the first who asked them, if anyone did
        inviter = next((u for u, p in pending if p == user), None)
    else:  # names the one who asked them: accepts
        inviter = partner if asked.get(partner) == user else None
    if cap and user not in asked and players(data) + 1 > cap:
        raise TournamentError("full")
    if inviter is not None:
        return "paired", add_pair(data, tour, inviter, user, lang)
    if partner is None and user in asked:
        raise TournamentError("already-registered")
    if user in asked:
        next(p for p in pending if p[0] == user)[1] = partner
    else:
        pending.append([user, partner])
    return ("asked", partner) if partner is not None else ("alone", None)


def add_pair(data: dict[str, Any], tour: Tournament, a: str, b: str | None, lang: str) -> str:
    """Enter the pair (a, b) (b None: a computer partner); both leave the waiting list."""
    data["pending"] = [p for p in data.get("pending", []) if p[0] not in (a, b)]
    entrant = pair_id(a, b)
    tour.add(entrant, (a, b))  # type: ignore[arg-type]  # None: a computer partner
    data["names"][entrant] = pair_name(data["names"], a, b, lang)
    return entrant


def unregister(data: dict[str, Any], tour: Tournament, user: str) -> str | None:
    """Take a player's registration back: their pair's (the partner returned), or their
    place on the waiting list (None returned)."""
    entrant = entrant_of(tour, user)
    if entrant is not None:
        partner = partner_of(tour, entrant, user)
        tour.remove(entrant)
        return partner
    pending = data.get("pending", [])
    if not any(p[0] == user for p in pending):
        raise TournamentError("unknown-entrant")
    data["pending"] = [p for p in pending if p[0] != user]
    return None


def pair_leftovers(data: dict[str, Any], tour: Tournament, lang: str
                   ) -> tuple[list[str], str | None]:
    """At the start: those still waiting for a partner are paired in order of registration;
    an odd one out plays with a computer partner where the organiser allows computers
    (`fill`), else does not play.  The pairs formed, and who is left out."""
    if tour.config.teams != "fixed":
        return [], None
    waiting = [p[0] for p in data.get("pending", [])]
    formed = [add_pair(data, tour, a, b, lang) for a, b in zip(waiting[::2], waiting[1::2],
                                                               strict=False)]
    odd = waiting[-1] if len(waiting) % 2 else None
    if odd is not None and tour.config.fill:
        formed.append(add_pair(data, tour, odd, None, lang))
        odd = None
    data["pending"] = []
    return formed, odd


def leftovers_said(tid: int, lang: str, names: dict[str, str], formed: Sequence[str],
                   odd: str | None) -> str:
    """The channel's line on the pairs formed at the start, and the odd one out."""
    lines = []
    if formed:
        lines.append(t(lang, "Tournament #{id}: partners for those registered alone: {pairs}.",
                       id=tid, pairs=", ".join(names.get(e, e) for e in formed)))
    if odd is not None:
        lines.append(t(lang, "{who} has no partner and does not play in tournament #{id}.",
                       who=names.get(odd, odd), id=tid))
    return "\n".join(lines)


def side_scores(result: dict[str, Any], left: Iterable[int]) -> list[float]:
    """One score per side of a finished game (higher is better), in the tournament table's
    side order: side i is the game's team holding seat i (partners opposite), or seat i
    alone in a game without teams.  A side with a seat whose player left ranks last."""
    ranks = seat_ranks(result)
    worst = max(ranks) + 1
    gone = set(left)
    teams = result.get("teams") or [[s] for s in range(len(ranks))]
    sides = [next(team for team in teams if i in team) for i in range(len(teams))]
    side_ranks = [worst if gone & set(team) else min(ranks[s] for s in team)
                  for team in sides]
    return [float(len(ranks) - r) for r in side_ranks]


def as_sides(tables: Sequence[tuple[int, Sequence[str]]], mode: str | None
             ) -> list[tuple[int, list[str]]]:
    """A round's tables as the channel reads them: with partners (`mode`), each side's
    partners together ("Ann & Bob"; seat i and seat i + sides sit opposite), else the
    players in seat order."""
    if mode is None:
        return [(tid, list(seats)) for tid, seats in tables]
    out = []
    for tid, seats in tables:
        n = len(seats) // 2
        out.append((tid, [PAIR.join(seats[i::n]) for i in range(n)]))
    return out


def absent(tour: Tournament, table: Table, came: set[str]) -> list[str]:
    """The entrants of a table whose players did not all come (a pair with one missing
    partner forfeits)."""
    return [e for e in table.entrants()
            if not {m for m in tour.entrants[e].members if m is not None} <= came]


def places(tour: Tournament, ranks: Sequence[Standing]) -> list[tuple[str, int]]:
    """Each player's final place: both partners of a pair get the pair's."""
    return [(m, s.rank) for s in ranks for m in tour.entrants[s.entrant].members
            if m is not None]


def announcement_line(mode: str | None, lang: str) -> str | None:
    """The announcement's line on partners (None: not a team tournament)."""
    if mode == "fixed":
        return t(lang, "Fixed partners: register with yours (join, naming your partner), or "
                 "alone to be paired with another player at the start.")
    if mode == "random":
        return t(lang, "Random partners: drawn again each round.")
    return None


def registered_said(lang: str, kind: str, tid: int, who: str, other: str, count: int) -> str:
    """The channel's line on a registration in a fixed-pairs tournament."""
    if kind == "paired":
        return tn(lang, "{pair} are registered as partners in tournament #{id} ({n} player).",
                  "{pair} are registered as partners in tournament #{id} ({n} players).",
                  count, pair=other, id=tid)
    if kind == "asked":
        return t(lang, "{who} asks {partner} to be their partner in tournament #{id}: "
                 "{partner}, press Register (or join naming {who}) to accept.", who=who,
                 partner=other, id=tid)
    return t(lang, "{who} is registered in tournament #{id} and waits for a partner (those "
             "alone at the start are paired in order of registration).", who=who, id=tid)


def refusal(code: str, lang: str) -> str | None:
    """The words of the team refusals (None: not one of them)."""
    words = {
        "own-partner": lambda: t(lang, "You cannot be your own partner."),
        "partner-registered": lambda: t(lang, "Your partner is already registered with "
                                        "someone else."),
        "partner-elsewhere": lambda: t(lang, "Your partner must be a member here: name them "
                                       "by a mention of a member, or reply to one of their "
                                       "messages."),
        "no-partners": lambda: t(lang, "This tournament's partners are drawn each round: "
                                 "register alone."),
        "solo": lambda: t(lang, "This tournament is not played by partners: register "
                          "alone."),
    }
    word = words.get(code)
    return word() if word else None
