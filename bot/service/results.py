"""The results: the end of a table and what is read after it.

A game's end (`_finish`: the result, the ratings and the last move, stored together), a
table stopped (`_close`, and `stop`: the host's stop or every player's vote), and what
players read about games: the rules pages, leaderboards, statistics, history, a record's
export, a game's review; and the server settings.  The lowest part: it holds the shared
state only (bot/service/state.py); the facade (bot/service/service.py) makes it and puts its
public methods behind the door.
"""

from __future__ import annotations

import json

from core import DominoError, variants

from ..i18n import error_text, t, tn
from ..storage import GamePlayer, RatingRow
from . import assist, families, outbox, pings, review, texts, words
from .events import GameFinished, LobbyClosed
from .limits import clip
from .messages import Message
from .numbers import number
from .pictures import NoPictures
from .ratings import rate_game
from .rules_pages import chat_page, rules_page
from .seasons import (
    KINDS,
    SeasonError,
    current_season,
    parse_season,
    record_lines,
    season_error,
    seasons_of,
)
from .shared import vote_stop
from .state import State, User
from .tables import Table, final_ranks, team_index


class Results:
    """The end of a table, and what players read about finished games."""

    def __init__(self, state: State) -> None:
        self.state = state

    async def _finish(self, table: Table, last: tuple[int, int, str] | None = None) -> None:
        """Store the result and rate the human seats, per scope and globally (with `last`,
        the move that ended the game, in the same transaction)."""
        game = table.game
        result = game.result
        row = table.row
        left = [s for s in row.seats if s.user_id in table.leavers and s.ai is not None]
        ranks = final_ranks(result, {s.seat for s in left})  # who left the game lost it
        humans = table.humans()
        players = [GamePlayer(s.user_id or "", s.seat, s.seat in result["winners"],
                              result["scores"][s.seat], ranks[s.seat]) for s in humans]
        players += [GamePlayer(s.user_id or "", s.seat, False, result["scores"][s.seat],
                               ranks[s.seat])
                    for s in left]
        seats = [(s.user_id if s.ai is None or s in left else None, team_index(result, s.seat))
                 for s in row.seats]
        ratings: list[RatingRow] = []
        ids = [p.user_id for p in players]
        rated = bool(players) and assist.rated(row)  # hints=on: a casual game, not rated
        boards = [(row.scope, ""), ("global", "")]  # endless; a server's seasons too
        if row.scope != "global":
            boards[1:1] = [(row.scope, season) for season in seasons_of(self.state.clock())]
        for scope, season in dict.fromkeys(boards) if rated else ():
            current = await self.state.store.ratings(ids, row.variant, scope, season)
            new = rate_game(seats, ranks, {u: (r.mu, r.sigma) for u, r in current.items()})
            for p in players:
                old = current.get(p.user_id)
                mu, sigma = new[p.user_id]
                ratings.append(RatingRow(p.user_id, row.variant, scope, mu, sigma,
                                         (old.games if old else 0) + 1,
                                         (old.wins if old else 0) + int(p.won), season))
        # the end's result message, kept with the result until it is said (outbox.py)
        mover, move = (last[1], game.moves[-1]) if last and game.moves else (None, None)
        end = [m for m in texts.table_messages(table, NoPictures(), mover=mover, move=move)
               if m.kind == "result"]
        await self.state.store.finish_game(row.id, game.record(), result, players, ratings,
                                           last_move=last, outbox=outbox.rows(self.state, end[:1]))
        row.status, row.result, row.deadline = "finished", result, None
        self.state.tables.pop(row.id, None)
        # its listeners (a tournament records it); one that fails does not fail the end
        await self.state.events.publish(GameFinished(table))

    async def _close(self, table: Table, text: str) -> list[Message]:
        """Stop a table (lobby or game) with a public message. Caller holds the lock."""
        await self.state.store.update_table(table.id, status="stopped", deadline=None)
        table.row.status = "stopped"
        self.state.tables.pop(table.id, None)
        self.state._changed.pop(table.id, None)
        self.state._invited.pop(table.id, None)
        said = [Message(table.row.channel, text, kind="result", table=table.id)]
        return said + await self.state.events.publish(LobbyClosed(table))

    async def stop(self, user: User, table_id: int) -> list[Message]:
        """Stop a table: the host at once, or when every human player asked."""
        async with self.state._lock(table_id):
            table = self.state.tables.get(table_id)
            if table is None:
                return await self.state._no_table(user, table_id)
            if table.seat_of(user.id) is None:
                return self.state._error(user, self.state._t(user, table,
                                                             "You are not playing at this "
                                                             "table."), table)
            if table.game is not None and table.game.over:  # its result is not stored yet
                await self._finish(table)
                return self.state._table_messages(table)
            lang = table.lang
            if self.state.store.shared:  # the votes other processes took count too
                await vote_stop(self.state, table, user.id)
            else:
                table.stop_votes.add(user.id)
            humans = {s.user_id for s in table.humans()}
            if user.id != table.row.host and not humans <= table.stop_votes:
                return [Message(table.row.channel, t(
                    lang, "{who} wants to stop the game ({n} of {total} players agree).",
                    who=user.name, n=len(table.stop_votes & humans), total=len(humans)),
                                kind="info", table=table_id)]
            return await self._close(table, t(lang, "Table #{id} was stopped.", id=table_id))

    # -- rules, ratings, history, records ------------------------------------------------------

    async def rules(self, user: User, variant: str, section: str = "") -> list[Message]:
        """The rules of a variant, privately, in the user's language: a short summary with
        the page's sections as buttons, or (`section`, a button's number) that section."""
        if err := self.state._too_long(user, variant + section):
            return err
        lang = await self.state._lang(user)
        try:
            slug = variants.get(variant).slug
            page = chat_page(rules_page(slug), lang)
        except (DominoError, FileNotFoundError) as exc:
            return self.state._error(user, t(lang, "No rules for that: {why}",
                                             why=error_text(lang, exc)))
        return [texts.rules_message(user.id, slug, page, section, lang)]

    async def leaderboard(self, user: User, channel: str, scope: str,
                          variant: str | None = None) -> list[Message]:
        """The top 10 of a server (or "global"), for one variant or all of them: the
        server's current season (its `season` setting; by default one endless season)."""
        return await self._board(user, channel, scope, variant, None)

    async def season_leaderboard(self, user: User, channel: str, scope: str, season: str,
                                 variant: str | None = None) -> list[Message]:
        """The top 10 of a server in one season, current or past ("2026-10", "2026-Q4")."""
        return await self._board(user, channel, scope, variant, season)

    async def _board(self, user: User, channel: str, scope: str, variant: str | None,
                     season: str | None) -> list[Message]:
        """A leaderboard: of `season` if given (checked), else of the current season."""
        if err := self.state._too_long(user, variant, season):
            return err
        lang = await self.state._lang(user, scope)
        if season is not None and scope == "global":
            return self.state._error(user, t(lang, "Seasons are kept per server; the global "
                                             "leaderboard has none."))
        explicit = season is not None
        try:
            if season is not None:
                season = parse_season(season, self.state.clock())
            elif scope != "global":  # the global board is one endless season
                season = current_season(self.state.clock(),
                                        await self.state.store.get_setting(scope,
                                                                           "season"))
        except SeasonError as exc:
            return self.state._error(user, season_error(lang, exc))
        if variant:
            try:
                variant = variants.get(variant).slug
            except DominoError as exc:
                return self.state._error(user, t(lang, "Cannot show the leaderboard: {why}",
                                                 why=error_text(lang, exc)))
        public = await self.state.store.get_setting(scope, "lang") or lang
        if variant and families.puzzle_board(variant) and explicit:
            return self.state._error(user, t(lang, "A puzzle's board has no seasons: it keeps the "
                                             "fastest solves of all time."))
        if variant and families.puzzle_board(variant):  # fastest solves, fewest hints
            return [Message(channel, await families.puzzle_leaderboard(
                self.state.store, variant, scope, public), kind="info")]
        rows = await self.state.store.leaderboard(variant, scope, 10, season or "")
        where = t(public, "everywhere") if scope == "global" else t(public, "here")
        what = texts.variant_name(variant, public) if variant else t(public, "all games")
        lines = [t(public, "Leaderboard ({what}, {where}, season {season})", what=what,
                   where=where, season=season) if season else
                 t(public, "Leaderboard ({what}, {where})", what=what, where=where)]
        if not rows:
            lines.append(t(public, "No rated game yet."))
        for i, r in enumerate(rows, 1):
            lines.append(texts.leader_line(i, r, clip(r.name, self.state.limits.name), not variant,
                                           public))
        return [Message(channel, "\n".join(lines), kind="info")]

    async def stats(self, user: User, channel: str, target: str | None = None) -> list[Message]:
        """A player's page (the user by default): per variant, games, wins and rating with
        its uncertainty (openskill's sigma, as ±); the streaks of won games; tournaments
        played and best place, once any are stored."""
        lang = await self.state._lang(user)
        who = target or user.id
        rows = await self.state.store.user_stats(who)
        name = clip(await self.state.store.user_name(who) or who, self.state.limits.name)
        lines = [t(lang, "Statistics of {name}", name=name)]
        if not rows:
            lines.append(t(lang, "No finished game yet."))
        for r in rows:
            if solo_line := words.solo_stats_line(r, lang):  # solved or won, no rating
                lines.append(solo_line)
                continue
            lines.append(t(lang, "{variant}: {games}, {wins} ({rate:.0%}), rating {rating:.1f} "
                           "(skill {mu:.1f} \u00b1 {sigma:.1f})",
                           variant=texts.variant_name(r.variant, lang),
                           games=tn(lang, "{n} game", "{n} games", r.games),
                           wins=tn(lang, "{n} won", "{n} won", r.wins), rate=r.win_rate,
                           rating=r.ordinal, mu=r.mu, sigma=r.sigma))
        lines += record_lines(*await self.state.store.streaks(who),
                              await self.state.store.tournament_places(who), lang)
        return [Message(channel, "\n".join(lines), to=user.id, kind="info")]

    async def history(self, user: User, channel: str, target: str | None = None
                      ) -> list[Message]:
        """The last 10 finished games of a player (the user by default), then their last 5
        finished tournaments with their place."""
        lang = await self.state._lang(user)
        who = target or user.id
        rows = await self.state.store.history(who, 10)
        name = clip(await self.state.store.user_name(who) or who, self.state.limits.name)
        lines = [t(lang, "Last games of {name}", name=name)]
        if not rows:
            lines.append(t(lang, "No finished game yet."))
        for r in rows:
            if r.players == 1:  # a puzzle or a patience: solved, given up, won or lost
                lines.append(await families.solo_history_line(self.state.store, r, lang))
                continue
            outcome = t(lang, "won") if r.won else t(lang, "rank {rank}", rank=r.rank)
            lines.append(tn(lang, "#{id} · {variant} · {outcome} · {n} point",
                            "#{id} · {variant} · {outcome} · {n} points", r.score, id=r.table_id,
                            variant=texts.variant_name(r.variant, lang), outcome=outcome))
        for p in (await self.state.store.tournament_places(who))[:5]:  # the last finished ones
            row = await self.state.store.tournament(p.tournament_id)
            game = json.loads(row.state).get("variant", "") if row else ""
            lines.append(t(lang, "Tournament #{id} · {variant} · place {place} of {n}",
                           id=p.tournament_id, variant=texts.variant_name(game, lang),
                           place=p.place, n=p.entrants))
        return [Message(channel, "\n".join(lines), to=user.id, kind="info")]

    async def export(self, user: User, table_id: int) -> list[Message]:
        """A finished game's record, as a JSON file that `domino replay` checks."""
        lang = await self.state._lang(user)
        record = await self.state.store.game_record(table_id)
        if record is None:
            return self.state._error(user, t(lang, "No finished game #{id}.", id=table_id))
        data = json.dumps(record, indent=1).encode()
        return [Message("", t(lang, "Record of game #{id}.", id=table_id), to=user.id,
                        kind="info", table=table_id, file=(f"domino-{table_id}.json", data))]

    async def review(self, user: User, table_id: int) -> list[Message]:
        """A finished game reviewed for one of its players, privately: the expert's move and
        the chance of winning at each of their choices, and their biggest mistakes."""
        lang = await self.state._lang(user)
        return await review.review(self.state.store, self.state.pictures, user.id, table_id, lang)

    async def set_setting(self, user: User, scope: str, key: str, value: str,
                          is_admin: bool) -> list[Message]:
        """A server setting (managers only): lang=fr|en, timer=seconds (0: no timer),
        season=monthly|quarterly|never (how often its leaderboard starts again)."""
        if err := self.state._too_long(user, key, value):
            return err
        lang = await self.state._lang(user, scope)
        if not is_admin:
            return self.state._error(user, t(lang, "Only server managers can change settings."))
        key, value = str(key).strip().lower(), str(value).strip().lower()
        if not ((key == "lang" and value in ("fr", "en"))
                or (key == "season" and value in KINDS)
                or (key == "timer" and number(value, 86_400) is not None)
                or (key == "tournaments" and value in ("admins", "everyone"))):
            return self.state._error(user, t(lang, "Settings: lang=fr|en, timer=seconds (0 for "
                                             "none), season=monthly|quarterly|never."))
        if key == "timer":
            value = str(number(value, 86_400))
        await self.state.store.set_setting(scope, key, value)
        lang = await self.state._lang(user, scope)
        return [Message("", t(lang, "Saved: {key} = {value}.", key=key, value=value),
                        to=user.id)]

    async def set_pings(self, user: User, value: str = "") -> list[Message]:
        """A user's turn pings: "on", "off", or "" to be told the current choice."""
        if err := self.state._too_long(user, value):
            return err
        lang = await self.state._lang(user)
        value = str(value).strip().lower()
        if value not in ("", pings.ON, pings.OFF):
            return self.state._error(user, t(lang, "Turn pings: on or off."))
        if value:
            await pings.remember(self.state.store, user.id, value == pings.ON)
            (self.state._quiet.discard if value == pings.ON else self.state._quiet.add)(user.id)
        on = await pings.enabled(self.state.store, user.id)
        return [Message("", pings.state_text(lang, on), to=user.id)]
