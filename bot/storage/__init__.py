"""Storage: the rows the bot keeps and the versioned schema, with the SQLite `Store` or the
PostgreSQL `PostgresStore` behind them (`open_store` picks one).

rows.py the rows and their columns; schema.py the migrations, one text for both dialects
(pg_schema.py PostgreSQL's words and functions); queries.py the SQL and the methods both
stores share; sqlite.py and postgres.py what each does its own way (connections,
transactions, upserts, the writes of moves and games), pg_locks.py PostgreSQL's table locks.
"""

from .backends import is_postgres, open_store
from .pg_schema import PG_MIGRATIONS
from .postgres import PostgresStore
from .rows import (
    ACTIVE,
    STATUSES,
    DuplicateMove,
    GamePlayer,
    HistoryRow,
    LeaderRow,
    NotFound,
    OverLimit,
    RatingRow,
    SeatRow,
    StatRow,
    TableRow,
    TournamentPlace,
    TournamentRow,
)
from .schema import MIGRATIONS
from .sqlite import Store, StoreError

__all__ = [
    "ACTIVE",
    "MIGRATIONS",
    "PG_MIGRATIONS",
    "STATUSES",
    "DuplicateMove",
    "GamePlayer",
    "HistoryRow",
    "LeaderRow",
    "NotFound",
    "OverLimit",
    "PostgresStore",
    "RatingRow",
    "SeatRow",
    "StatRow",
    "Store",
    "StoreError",
    "TableRow",
    "TournamentPlace",
    "TournamentRow",
    "is_postgres",
    "open_store",
]
