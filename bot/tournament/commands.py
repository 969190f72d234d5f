"""Tournaments (issue 31): the commands: open, register, unregister, start, standings, drop,
export, and a tournament's buttons.  Every change goes through the rounds' compare-and-set
(`Rounds._change`, rounds.py), which also pairs, opens and scores the rounds (an arena's:
arena.py).  Stands on the arena, which stands on the rounds; the table service's facade
(bot/service/service.py) holds one and puts its methods behind the door.
"""

from __future__ import annotations

import dataclasses
import json
import logging
from collections.abc import Callable
from typing import Any

from core import DominoError, variants
from core.options import parse_pairs

from ..i18n import error_text, t, tn
from ..service import texts
from ..service.limits import clip
from ..service.messages import Message
from ..service.numbers import number, table_number
from ..service.origin import ORIGIN
from ..service.state import User
from ..storage import OverLimit, TournamentRow
from . import export, teams, words
from .arena import Arena
from .model import FORMATS, Config, TournamentError
from .rounds import OPEN, Change
from .tournament import Tournament

log = logging.getLogger("domino.service")

CLOCK = 600  # seconds to come to one's table, by default
VERBS = ("join", "leave", "start", "standings", "drop", "export", "cancel",
         "list")  # /tournament VERB


class Refused(Exception):
    """A tournament command refused, in words."""


class Tournaments(Arena):
    """Tournaments: their commands (the rounds and the arena's are the parts below)."""

    # -- commands ------------------------------------------------------------------------------

    async def open_tournament(self, user: User, channel: str, scope: str, text: str,
                              is_admin: bool = False) -> list[Message]:
        """Open a tournament in `channel`: `text` names the format, the game and options, e.g.
        "swiss rounds=3 seats=2 classic fill=on clock=300 start=10" (start: minutes of
        registration, none: the organiser starts it)."""
        if err := self.desk.too_long(user, text):
            return err
        lang = await self.desk.lang(user, scope)
        where = ORIGIN.get()
        if where is not None and where.private:
            return self.desk.error(user, t(lang, "Tournaments are run in a group or a server, not "
                                           "in a private chat."))
        if not is_admin and await self.desk.store.get_setting(scope, "tournaments") != "everyone":
            return self.desk.error(user, t(lang, "Only server managers can organise a tournament "
                                           "here."))
        try:
            data = await self._new_state(text, scope, lang)
        except (TournamentError, DominoError, ValueError, Refused) as exc:
            why = (words.refusal(exc, lang) if isinstance(exc, TournamentError) else
                   str(exc) if isinstance(exc, Refused) else error_text(lang, exc))
            return self.desk.error(user, t(lang, "Cannot open the tournament: {why}", why=why))
        await self.desk.store.upsert_user(user.id, user.name, user.locale)
        try:  # the server's count and the write are one step (storage/queries.py `Cap`)
            cap = self.desk.limits.tournaments_per_scope
            tid = await self.desk.store.create_tournament(scope, channel, user.id, "registration",
                                                          json.dumps(data), self.desk.clock(),
                                                          cap=cap)
        except OverLimit as over:
            return self.desk.error(user, tn(lang, "This server already has {n} tournament under "
                                            "way; wait for it to end.", "This server already has "
                                            "{n} tournaments under way; wait for one to end.",
                                            over.count))
        self._tourney_due = True
        return [words.announcement(tid, channel, data["lang"], data, 0, user.name)]

    async def _new_state(self, text: str, scope: str, lang: str) -> dict[str, Any]:
        fmt, variant, pairs = "swiss", "", []
        for word in str(text).split():
            if "=" in word:
                pairs.append(word)
            elif word.lower() in FORMATS:
                fmt = word.lower()
            elif not variant:
                variant = word
            else:
                raise Refused(t(lang, "one game only ({word}?)", word=word[:20]))
        opts = parse_pairs(pairs)
        v = variants.get(variant or "classic")

        def whole(key: str, default: int, lo: int, hi: int) -> int:
            value = opts.pop(key, default)
            n = number(value, hi)
            if n is None or n < lo:
                raise Refused(t(lang, "{key} must be a whole number from {lo} to {hi}",
                                key=key, lo=lo, hi=hi))
            return n

        if v.max_players < 2:
            raise Refused(t(lang, "{game} is played alone: a tournament needs a game for two "
                            "or more.", game=texts.variant_name(v.slug, lang)))
        seats = whole("seats", max(2, v.default_players), 2, 8)
        rounds = whole("rounds", 3 if fmt == "swiss" else 0, 0, 50)
        clock = whole("clock", CLOCK, 30, 86_400)
        start = whole("start", 0, 0, 7 * 1440)
        minutes = whole("minutes", 60, 1, 7 * 1440)  # an arena's length
        fill = str(opts.pop("fill", "off")).lower() in ("on", "yes", "1", "true")
        partners = opts.pop("partners", opts.pop("teams", None))  # teams=: a synonym
        v.check_players(seats)
        probe = v.new(players=seats, seed=0, **opts)  # checks every game option now
        mode = self._partners(partners, teams.is_team_game(probe), v.slug, lang)
        config = Config(fmt, seats=seats, rounds=rounds, fill=fill, teams=mode,
                        seed=self.desk.rng.getrandbits(31))
        public = await self.desk.store.get_setting(scope, "lang") or lang
        return {"t": Tournament(config).to_dict(), "variant": v.slug, "options": probe.options,
                "clock": clock, "minutes": minutes,
                "starts_at": self.desk.clock() + start * 60 if start else None, "lang": public,
                "names": {}, "round_at": None, "opening_at": None, "pending": []}

    @staticmethod
    def _partners(word: object, team_game: bool, slug: str, lang: str) -> str | None:
        """A tournament's partners: "fixed" (the default) or "random" in a team game, none
        in any other."""
        if not team_game:
            if word is not None:
                games = ", ".join(teams.team_games())
                raise Refused(t(lang, "{game} is not played by partners (partners= is for "
                                "{games}).", game=slug, games=games))
            return None
        mode = str(word or "fixed").lower()
        if mode not in teams.MODES:
            raise Refused(t(lang, "Partners must be fixed or random."))
        return mode

    async def register(self, user: User, tournament_id: int, partner: User | str | None = None
                       ) -> list[Message]:
        """Register for a tournament still taking registrations.  In a fixed-pairs one,
        with a `partner` (a member the platform found here; a bare name: one it did not)
        or alone (a partner who had asked, or one drawn at the start)."""
        cap = self.desk.limits.tournament_entrants
        said: list[Any] = []  # a fixed pair's news: its text, and who it notifies

        def change(row: TournamentRow, data: dict[str, Any]) -> str | None:
            tour = Tournament.from_dict(data["t"])
            if row.status != "registration":
                raise TournamentError("started")
            if isinstance(partner, str) or (partner is not None and (
                    partner.id.split(":", 1)[0] != user.id.split(":", 1)[0])):
                raise TournamentError("partner-elsewhere")
            data["names"][user.id] = user.name
            if tour.config.teams == "fixed":
                if partner is not None:
                    data["names"].setdefault(partner.id, clip(partner.name, self.desk.limits.name)
                                             or partner.id[-12:])
                kind, other = teams.register(data, tour, user.id, partner and partner.id, cap,
                                             data["lang"])
                data["t"] = tour.to_dict()
                said[:] = [teams.registered_said(data["lang"], kind, row.id, user.name,
                                                 data["names"].get(other, other),
                                                 teams.players(data)),
                           (other,) if kind == "asked" else ()]
            elif partner is not None:
                raise TournamentError("no-partners" if tour.config.teams else "solo")
            else:
                if user.id in tour.entrants:
                    raise TournamentError("already-registered")
                if cap and len(tour.entrants) >= cap:
                    raise TournamentError("full")
                tour.add(user.id)
            data["t"] = tour.to_dict()
            return row.status
        await self.desk.store.upsert_user(user.id, user.name, user.locale)
        out = await self._command(user, tournament_id, change, lambda n, lang: tn(
            lang, "{who} is registered in tournament #{id} ({n} player).", "{who} is "
            "registered in tournament #{id} ({n} players).", n, who=user.name,
            id=tournament_id))
        if said and not errors_in(out):
            out = [dataclasses.replace(out[0], text=said[0], mention=said[1])]
        return out

    async def unregister(self, user: User, tournament_id: int) -> list[Message]:
        """Take one's name off a tournament before it starts (a fixed pair's partner takes
        the pair off: the other is told)."""
        told: list[Message] = []  # a fixed pair's other partner, told

        def change(row: TournamentRow, data: dict[str, Any]) -> str | None:
            tour = Tournament.from_dict(data["t"])
            if row.status != "registration":
                raise TournamentError("started")
            if tour.config.teams == "fixed":
                partner = teams.unregister(data, tour, user.id)
                name = data["names"].get(partner, partner)
                told[:] = [Message(row.channel, t(
                    data["lang"], "{partner}: your partner {who} took your pair off "
                    "tournament #{id}; register again to play.", partner=name, who=user.name,
                    id=row.id), kind="info", mention=(partner,), named=name)] if partner else []
            else:
                tour.remove(user.id)
            data["t"] = tour.to_dict()
            return row.status
        out = await self._command(user, tournament_id, change, lambda n, lang: tn(
            lang, "{who} is no longer registered in tournament #{id} ({n} player).", "{who} "
            "is no longer registered in tournament #{id} ({n} players).", n, who=user.name,
            id=tournament_id))
        return out + told if not errors_in(out) else out

    async def drop(self, user: User, tournament_id: int) -> list[Message]:
        """Leave a tournament under way: never paired again (a fixed pair: both partners)."""
        pair: list[str] = []

        def change(row: TournamentRow, data: dict[str, Any]) -> str | None:
            tour = Tournament.from_dict(data["t"])
            if row.status != "running":
                raise TournamentError("not-running")
            entrant = teams.entrant_of(tour, user.id) or user.id
            tour.drop(entrant)
            pair[:] = [data["names"].get(entrant, entrant)] if entrant != user.id else []
            data["t"] = tour.to_dict()
            return row.status
        return await self._command(user, tournament_id, change, lambda n, lang: t(
            lang, "{who} leaves tournament #{id}: {pair} are dropped.", who=user.name,
            id=tournament_id, pair=pair[0]) if pair else t(
            lang, "{who} leaves tournament #{id}.", who=user.name, id=tournament_id))

    async def start_tournament(self, user: User, tournament_id: int) -> list[Message]:
        """The organiser starts the tournament: its first round opens."""
        row = await self._tournament_here(user, tournament_id)
        if isinstance(row, list):
            return row
        lang = await self.desk.lang(user, row.scope)
        if user.id != row.organiser:
            return self.desk.error(user, t(lang, "Only the organiser can start the tournament."))
        try:
            return await self._begin_tournament(row.id)
        except TournamentError as exc:
            return self.desk.error(user, words.refusal(exc, lang))

    async def cancel_tournament(self, user: User, tournament_id: int, is_admin: bool = False
                                ) -> list[Message]:
        """The organiser (or a server manager) calls off a tournament still taking
        registrations; its channel is told.  One under way is not cancelled: its players
        drop, and it ends when its rounds do."""
        row = await self._tournament_here(user, tournament_id)
        if isinstance(row, list):
            return row
        lang = await self.desk.lang(user, row.scope)
        if user.id != row.organiser and not is_admin:
            return self.desk.error(user, t(lang, "Only the organiser or a server manager can "
                                           "cancel the tournament."))

        def change(r: TournamentRow, data: dict[str, Any]) -> str | None:
            if r.status == "running":
                raise TournamentError("started")
            if r.status != "registration":
                raise TournamentError("over")
            return "stopped"
        try:
            row, data = await self._change(row.id, change)
        except TournamentError as exc:
            return self.desk.error(user, words.refusal(exc, lang))
        return [Message(row.channel, t(data["lang"], "Tournament #{id} is cancelled by {who}.",
                                       id=row.id, who=user.name), kind="info")]

    async def tournament_standings(self, user: User, tournament_id: int) -> list[Message]:
        """The standings so far, privately."""
        row = await self._tournament_here(user, tournament_id)
        if isinstance(row, list):
            return row
        data = json.loads(row.state)
        tour = Tournament.from_dict(data["t"])
        lang = await self.desk.lang(user, row.scope)
        ends = tour.config.ends_at  # an arena under way: the minutes left, text only
        if row.status == "running" and ends is not None and not tour.closed:
            ranks, n = tour.standings(), len(tour.rounds)
            head, image = words.time_left(row.id, lang, ends, self.desk.clock()), None
        else:
            n = len(tour.rounds)  # the rounds over: a round under way does not count yet
            if n and not tour.finished and not tour.rounds[-1].done:
                n -= 1
            if not n:
                return [Message("", t(lang, "Tournament #{id}: no round is over yet.",
                                      id=row.id), to=user.id)]
            ranks, head = tour.standings(n), None
            image = words.picture(row.id, ranks, data["names"], n, tour.finished,
                                  self.desk.pictures_for(lang))
        return [Message("", words.standings(row.id, lang, ranks, data["names"], n,
                                            tour.finished, head=head), to=user.id,
                        image=image)]

    async def tournament_action(self, user: User, scope: str, verb: str,
                                tournament_id: Any = "", partner: User | str | None = None,
                                is_admin: bool = False) -> list[Message]:
        """A tournament command's verb (VERBS), as every chat types it: "list" (the
        server's tournaments), or one acting on tournament `tournament_id` as typed ("12"
        or "#12", read here once, strictly: bot/service/numbers.py); "join" with a
        `partner` registers a fixed pair; `is_admin` (a manager of the server) may cancel
        a tournament they do not organise."""
        verb = str(verb).lower()
        if verb == "list":
            return await self.list_tournaments(user, scope)
        acts: dict[str, Any] = {
            "join": lambda u, n: self.register(u, n, partner), "leave": self.unregister,
            "start": self.start_tournament, "standings": self.tournament_standings,
            "drop": self.drop,
            "export": self.export_tournament,
            "cancel": lambda u, n: self.cancel_tournament(u, n, is_admin)}
        act = acts.get(verb)
        lang = await self.desk.lang(user, scope)
        if act is None:
            return self.desk.error(user, t(lang, "Unknown tournament command {word}: {verbs}.",
                                           word=clip(verb, 20), verbs=", ".join(VERBS)))
        n = table_number(tournament_id)
        if n is None and not str(tournament_id).strip():
            return self.desk.error(user, t(lang, "Which tournament? Give its number after "
                                           "{verb}.", verb=verb))
        if n is None:
            return self.desk.error(user, t(lang, "There is no tournament #{id}.",
                                           id=clip(str(tournament_id), 20)))
        return await act(user, n)  # type: ignore[no-any-return]

    async def list_tournaments(self, user: User, scope: str) -> list[Message]:
        """The server's tournaments under way and its last five finished, privately."""
        lang = await self.desk.lang(user, scope)
        rows = [*await self.desk.store.tournaments(OPEN, scope),
                *(await self.desk.store.tournaments(("finished",), scope))[-5:]]
        rows.sort(key=lambda r: r.id)
        states = [(r.id, r.status, json.loads(r.state)) for r in rows]
        return [Message("", words.listing(lang, states, self.desk.clock()), to=user.id)]

    async def export_tournament(self, user: User, tournament_id: int) -> list[Message]:
        """A tournament's record, privately, as a JSON file (finished or under way)."""
        row = await self._tournament_here(user, tournament_id)
        if isinstance(row, list):
            return row
        data = json.loads(row.state)
        tables = [await self.desk.store.tournament_tables(row.id, n)
                  for n in range(1, len(data["t"]["rounds"]) + 1)]
        body = json.dumps(export.record(row.id, row.status, data, tables), indent=1).encode()
        lang = await self.desk.lang(user, row.scope)
        return [Message("", t(lang, "Record of tournament #{id}.", id=row.id), to=user.id,
                        kind="info", file=(f"tournament-{row.id}.json", body))]

    async def press(self, user: User, arg: str) -> list[Message]:
        """A tournament's button: "j12" register, "l12" unregister, "s12" start, "v12" look."""
        tid = number(arg[1:]) if arg else None
        act = {"j": self.register, "l": self.unregister, "s": self.start_tournament,
               "v": self.tournament_standings}.get(arg[:1])
        if tid is None or act is None:
            lang = await self.desk.lang(user)
            return self.desk.error(user, t(lang, "This button is not valid any more."))
        return await act(user, tid)

    async def _tournament_here(self, user: User, tournament_id: int
                               ) -> TournamentRow | list[Message]:
        """The tournament's row, or the refusal: no such tournament, or not from here."""
        n = number(tournament_id, 2**62)
        row = await self.desk.store.tournament(n) if n is not None else None
        tournament_id = clip(str(tournament_id), 20)  # type: ignore[assignment]
        where = ORIGIN.get()
        lang = await self.desk.lang(user, row.scope if row else None)
        if row is None:
            return self.desk.error(user, t(lang, "There is no tournament #{id}.", id=tournament_id))
        if where is not None and (where.scope != row.scope or where.private):
            return self.desk.error(user, t(lang, "Tournament #{id} is not run here.",
                                           id=tournament_id))
        return row

    async def _command(self, user: User, tournament_id: int, change: Change,
                       said: Callable[[int, str], str]) -> list[Message]:
        row = await self._tournament_here(user, tournament_id)
        if isinstance(row, list):
            return row
        lang = await self.desk.lang(user, row.scope)
        try:
            row, data = await self._change(row.id, change)
        except TournamentError as exc:
            return self.desk.error(user, words.refusal(exc, lang))
        count = teams.players(data)
        return [Message(row.channel, said(count, data["lang"]), kind="info")]


def errors_in(out: list[Message]) -> bool:
    return any(m.kind == "error" for m in out)
