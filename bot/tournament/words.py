"""The words of tournaments (issue 31): the announcement, a round's tables, the standings
with the format's tie-breaks, the podium, and the refusals of `bot.tournament` worded.

Pure: each function takes what it shows (no store, no service); bot/tournament/commands.py
calls them.  Every text goes through `t`/`tn` and has its French in the catalogue.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from babel.numbers import format_decimal

from render.standings import tie_break_label

from ..i18n import LANGUAGES, t, tn, translator
from ..service import texts
from ..service.messages import Action, Message, action_data
from . import teams
from .model import TournamentError
from .standings import Standing

if TYPE_CHECKING:
    from ..service.pictures import Pictures

VERB = "t"  # the button verb: "0:0:t:<j|l|s|v><id>" (register, unregister, start, standings)


def button(sub: str, tournament_id: int) -> str:
    """A tournament button's data (no table: "0:0:t:j12"), well under 64 bytes."""
    return action_data(0, 0, VERB, f"{sub}{tournament_id}")


def format_name(fmt: str, lang: str) -> str:
    names = {"swiss": t(lang, "Swiss"), "round-robin": t(lang, "round-robin"),
             "knockout": t(lang, "knockout"), "arena": t(lang, "arena")}
    return names.get(fmt, fmt)


def listing(lang: str, rows: Sequence[tuple[int, str, Mapping[str, Any]]], now: float
            ) -> str:
    """The tournaments of a server (`rows`: id, status, state), a line each: the game, the
    format, and where it stands (registration and its players, the round under way, an
    arena's minutes left at `now`, over)."""
    if not rows:
        return t(lang, "No tournament here yet. Open one: /tournament swiss classic rounds=3")
    lines = [t(lang, "Tournaments here:")]
    for tid, status, data in rows:
        cfg = data["t"]["config"]
        players = teams.players(data)  # as the registration lines count them
        rounds = len(data["t"]["rounds"])
        if status == "registration":
            where = tn(lang, "registration open, {n} player", "registration open, {n} players",
                       players)
        elif status == "running" and cfg.get("ends_at") is not None:  # an arena
            n = minutes_left(cfg["ends_at"], now)
            where = tn(lang, "under way, {n} minute left", "under way, {n} minutes left", n)
        elif status == "running":
            where = (t(lang, "round {n} of {total}", n=rounds, total=cfg["rounds"])
                     if cfg["format"] == "swiss" else t(lang, "round {n}", n=rounds))
        elif status == "finished":
            where = t(lang, "finished")
        else:
            where = t(lang, "called off")
        lines.append(t(lang, "#{id}: {what}, {format} · {where}", id=tid,
                       what=texts.variant_name(data["variant"], lang),
                       format=format_name(cfg["format"], lang), where=where))
    return "\n".join(lines)


def announcement(tid: int, channel: str, lang: str, data: Mapping[str, Any], count: int,
                 organiser: str) -> Message:
    """The tournament's public message with its buttons (register, unregister, start)."""
    cfg = data["t"]["config"]
    what = texts.variant_name(data["variant"], lang)
    lines = [t(lang, "Tournament #{id}: {what}, {format}, {seats} per table (organiser: "
               "{who}).", id=tid, what=what, format=format_name(cfg["format"], lang),
               seats=cfg["seats"], who=organiser)]
    if cfg["format"] == "swiss":
        lines.append(tn(lang, "{n} round.", "{n} rounds.", cfg["rounds"]))
    if partners := teams.announcement_line(cfg.get("teams"), lang):
        lines.append(partners)
    if cfg["format"] == "arena":
        lines.append(tn(lang, "Lasts {n} minute: players are paired again as soon as they are "
                        "free.", "Lasts {n} minutes: players are paired again as soon as they "
                        "are free.", data.get("minutes", 60)))
    lines.append(tn(lang, "{n} player registered.", "{n} players registered.", count))
    lines.append(tn(lang, "Each round: {n} minute to come to your table.",
                    "Each round: {n} minutes to come to your table.",
                    max(1, round(data["clock"] / 60))))
    actions = (Action(t(lang, "Register"), button("j", tid), "success"),
               Action(t(lang, "Unregister"), button("l", tid)),
               Action(t(lang, "Start"), button("s", tid), "primary"))
    return Message(channel, "\n".join(lines), kind="info", actions=actions)


def round_opened(tid: int, round_no: int, total: int | None, lang: str,
                 tables: Sequence[tuple[int, Sequence[str]]], byes: Sequence[str],
                 clock: float, rooms: Mapping[int, str] | None = None) -> str:
    """Round n: its tables (id and the players' names, and where its room is when it has
    one: `rooms`, by table id), the byes, the time to come."""
    head = (t(lang, "Tournament #{id}, round {n} of {total}:", id=tid, n=round_no, total=total)
            if total else t(lang, "Tournament #{id}, round {n}:", id=tid, n=round_no))
    lines = [head]
    for table, names in tables:
        room = (rooms or {}).get(table)
        lines.append(t(lang, "Table #{table} in {room}: {players}", table=table, room=room,
                       players=", ".join(names)) if room else
                     t(lang, "Table #{table}: {players}", table=table, players=", ".join(names)))
    if byes:
        lines.append(t(lang, "Bye: {players}", players=", ".join(byes)))
    lines.append(tn(lang, "Join your table within {n} minute, or lose that game.",
                    "Join your table within {n} minutes, or lose that game.",
                    max(1, round(clock / 60))))
    return "\n".join(lines)


def minutes_left(ends_at: float, now: float) -> int:
    """An arena's minutes left at `now`, rounded up."""
    return math.ceil(max(0.0, ends_at - now) / 60)


def time_left(tid: int, lang: str, ends_at: float, now: float) -> str:
    """An arena's standings heading while it runs: the minutes left."""
    n = minutes_left(ends_at, now)
    return tn(lang, "Tournament #{id}: standings, {n} minute left",
              "Tournament #{id}: standings, {n} minutes left", n, id=tid)


def tie_break_name(key: str, lang: str) -> str:
    """A tie-break's name in `lang`: the picture's words (`render.standings`)."""
    return tie_break_label(key, translator(lang))


def number(x: float, lang: str = "en") -> str:
    """A score as `lang` writes it ("1.5", "1,5"; "2", not "2.0")."""
    return format_decimal(x, locale=lang if lang in LANGUAGES else "en")


def standings(tid: int, lang: str, rows: Sequence[Standing], names: Mapping[str, str],
              round_no: int, final: bool, limit: int = 20, head: str | None = None) -> str:
    """The standings: rank, name, points, then the format's tie-breaks (under `head`, else
    the round's or the final heading)."""
    head = head or (t(lang, "Tournament #{id}: final standings", id=tid) if final else
                    t(lang, "Tournament #{id}: standings after round {n}", id=tid, n=round_no))
    lines = [head]
    for s in rows[:limit]:
        breaks = ", ".join(f"{tie_break_name(k, lang)} {number(v, lang)}"
                           for k, v in s.tie_breaks.items())
        whole = s.points == int(s.points)  # a half point is read as plural ("1.5 points")
        pts = tn(lang, "{points} point", "{points} points", int(s.points) if whole else 2,
                 points=number(s.points, lang))
        gone = t(lang, " (dropped)") if s.dropped else ""
        lines.append(f"{s.rank}. {names.get(s.entrant, s.entrant)}{gone}: {pts}"
                     + (f" ({breaks})" if breaks else ""))
    if len(rows) > limit:
        lines.append(tn(lang, "… and {n} more.", "… and {n} more.", len(rows) - limit))
    return "\n".join(lines)


def picture(tid: int, rows: Sequence[Standing], names: Mapping[str, str], round_no: int,
            final: bool, pictures: Pictures | None) -> bytes | None:
    """The standings as a picture (`Pictures.standings`, already in the channel's language),
    or None without pictures.  Plain data only: the entrants' names, never their ids."""
    if pictures is None:
        return None
    plain = [{"rank": s.rank, "name": names.get(s.entrant, s.entrant), "points": s.points,
              "tie_breaks": dict(s.tie_breaks), "dropped": s.dropped} for s in rows]
    keys = list(rows[0].tie_breaks) if rows else []
    return pictures.standings(tid, plain, keys, round_no, final)


def podium(tid: int, lang: str, winners: Sequence[str], names: Mapping[str, str]) -> str:
    medals = ("🥇", "🥈", "🥉")
    lines = [t(lang, "Tournament #{id} is over. Podium:", id=tid)]
    lines += [f"{m} {names.get(w, w)}" for m, w in zip(medals, winners, strict=False)]
    return "\n".join(lines)


def refusal(exc: TournamentError, lang: str) -> str:
    """A `TournamentError` in words."""
    words = {
        "bad-format": lambda: t(lang, "The format must be swiss, round-robin, knockout or "
                                "arena."),
        "bad-seats": lambda: t(lang, "Seats per table: from 2 to 8."),
        "bad-rounds": lambda: t(lang, "A Swiss needs rounds=1 to 50."),
        "bad-teams": lambda: t(lang, "Partners must be fixed or random."),
        "two-sides-only": lambda: t(lang, "Round-robin and knockout are played two to a "
                                    "table."),
        "random-partners-format": lambda: t(lang, "Random partners are for Swiss and arena "
                                            "only."),
        "started": lambda: t(lang, "The tournament has already started."),
        "over": lambda: t(lang, "This tournament is over."),
        "already-registered": lambda: t(lang, "You are already registered."),
        "full": lambda: t(lang, "The tournament is full."),
        "too-few-entrants": lambda: t(lang, "Not enough players to pair a round."),
        "cannot-pair": lambda: t(lang, "This round cannot be paired."),
        "unknown-entrant": lambda: t(lang, "You are not registered in this tournament."),
    }
    word = words.get(exc.code)
    if word:
        return word()
    return teams.refusal(exc.code, lang) or t(lang, "This cannot be done now ({code}).",
                                                code=exc.code)
