"""The doors of a store: the public methods both stores open onto the parts they hold, the
queries (`store.queries`, queries.py) and the outbox (`store.outbox`, outbox.py).  Each
door only passes its call on; what a method does is said on the part.  A store opens
its own ways (connections, moves, finished games) beside these, and may replace a door
(PostgreSQL's settings cache, the notice of a saved tournament).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Self

from .links import OutRow
from .outbox import CLAIM_BATCH, Outbox
from .queries import Queries
from .rows import (
    ACTIVE,
    HistoryRow,
    LeaderRow,
    RatingRow,
    StatRow,
    TableRow,
    TournamentPlace,
    TournamentRow,
)


class Doors:
    """The public methods a store opens onto its `queries` and its `outbox`."""

    queries: Queries
    outbox: Outbox

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        raise NotImplementedError

    # -- the queries (queries.py) -------------------------------------------------------------

    async def schema_version(self) -> int:
        return await self.queries.schema_version()

    async def upsert_user(self, user_id: str, name: str, locale: str | None = None) -> None:
        await self.queries.upsert_user(user_id, name, locale)

    async def user_name(self, user_id: str) -> str | None:
        return await self.queries.user_name(user_id)

    async def user_locale(self, user_id: str) -> str | None:
        return await self.queries.user_locale(user_id)

    async def get_setting(self, scope: str, key: str, default: str | None = None) -> str | None:
        return await self.queries.get_setting(scope, key, default)

    async def set_setting(self, scope: str, key: str, value: str) -> None:
        await self.queries.set_setting(scope, key, value)

    async def update_table(self, table_id: int, **fields: Any) -> None:
        await self.queries.update_table(table_id, **fields)

    async def update_seat(self, table_id: int, seat: int, **fields: Any) -> None:
        await self.queries.update_seat(table_id, seat, **fields)

    async def tables(self, status: str | tuple[str, ...] = ACTIVE) -> list[TableRow]:
        return await self.queries.tables(status)

    async def tables_in_channel(self, channel: str,
                                status: str | tuple[str, ...] = ACTIVE) -> list[TableRow]:
        return await self.queries.tables_in_channel(channel, status)

    async def latest_in_channel(self, channel: str, statuses: Sequence[str],
                                user_id: str | None = None) -> int | None:
        return await self.queries.latest_in_channel(channel, statuses, user_id)

    async def moves(self, table_id: int) -> list[str]:
        return await self.queries.moves(table_id)

    async def last_move_at(self, table_id: int) -> float | None:
        return await self.queries.last_move_at(table_id)

    async def move_count(self, table_id: int) -> int:
        return await self.queries.move_count(table_id)

    async def ratings(self, user_ids: list[str], variant: str, scope: str, season: str = ""
                      ) -> dict[str, RatingRow]:
        return await self.queries.ratings(user_ids, variant, scope, season)

    async def leaderboard(self, variant: str | None, scope: str, limit: int = 10,
                          season: str = "") -> list[LeaderRow]:
        return await self.queries.leaderboard(variant, scope, limit, season)

    async def solves(self, variant: str, scope: str, limit: int = 2000
                     ) -> list[tuple[int, str, str, dict[str, Any]]]:
        return await self.queries.solves(variant, scope, limit)

    async def user_stats(self, user_id: str, scope: str | None = None) -> list[StatRow]:
        return await self.queries.user_stats(user_id, scope)

    async def streaks(self, user_id: str) -> tuple[int, int, int]:
        return await self.queries.streaks(user_id)

    async def tournament_places(self, user_id: str) -> list[TournamentPlace]:
        return await self.queries.tournament_places(user_id)

    async def save_tournament_places(self, tournament_id: int, places: Sequence[tuple[str, int]],
                                     finished_at: float, entrants: int | None = None) -> None:
        await self.queries.save_tournament_places(tournament_id, places, finished_at, entrants)

    async def history(self, user_id: str, limit: int = 10) -> list[HistoryRow]:
        return await self.queries.history(user_id, limit)

    async def game_record(self, table_id: int) -> dict[str, Any] | None:
        return await self.queries.game_record(table_id)

    async def adapter_get(self, table_id: int, platform: str, key: str) -> str | None:
        return await self.queries.adapter_get(table_id, platform, key)

    async def adapter_set(self, table_id: int, platform: str, key: str, value: str) -> None:
        await self.queries.adapter_set(table_id, platform, key, value)

    async def user_pref_get(self, user_id: str, platform: str, key: str) -> str | None:
        return await self.queries.user_pref_get(user_id, platform, key)

    async def user_pref_set(self, user_id: str, platform: str, key: str, value: str) -> None:
        await self.queries.user_pref_set(user_id, platform, key, value)

    async def create_tournament(self, scope: str, channel: str, organiser: str, status: str,
                                state: str, created_at: float, cap: int = 0) -> int:
        return await self.queries.create_tournament(scope, channel, organiser, status, state,
                                                    created_at, cap)

    async def tournament(self, tournament_id: int) -> TournamentRow | None:
        return await self.queries.tournament(tournament_id)

    async def tournaments(self, statuses: Sequence[str], scope: str | None = None
                          ) -> list[TournamentRow]:
        return await self.queries.tournaments(statuses, scope)

    async def unplaced_tournaments(self) -> list[TournamentRow]:
        return await self.queries.unplaced_tournaments()

    async def save_tournament(self, tournament_id: int, version: int, status: str,
                              state: str, outbox: Sequence[OutRow] = ()
                              ) -> bool:
        return await self.queries.save_tournament(tournament_id, version, status, state, outbox)

    async def link_tournament_table(self, tournament_id: int, round_no: int, table_no: int,
                                    table_id: int) -> None:
        await self.queries.link_tournament_table(tournament_id, round_no, table_no, table_id)

    async def tournament_tables(self, tournament_id: int, round_no: int) -> dict[int, int]:
        return await self.queries.tournament_tables(tournament_id, round_no)

    async def table_tournament(self, table_id: int) -> tuple[int, int, int] | None:
        return await self.queries.table_tournament(table_id)

    # -- the outbox (outbox.py) ---------------------------------------------------------------

    async def outbox_claim(self, owner: str, before: float, now: float,
                           limit: int = CLAIM_BATCH) -> list[tuple[str, str]]:
        return await self.outbox.claim(owner, before, now, limit)

    async def outbox_sent(self, keys: Sequence[str], now: float) -> int:
        return await self.outbox.sent(keys, now)

    async def outbox_purge(self, before: float) -> int:
        return await self.outbox.purge(before)

    async def outbox_rows(self) -> list[tuple[str, str, float, float | None, str]]:
        return await self.outbox.rows()
