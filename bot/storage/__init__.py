"""Storage: the rows the bot keeps and the versioned schema, with the SQLite `Store` or the
PostgreSQL `PostgresStore` behind them (`open_store` picks one).

rows.py the rows and their columns; schema.py the migrations, one text for both dialects
(pg_schema.py PostgreSQL's words and functions).  A store holds its parts, each made with
what it uses, and opens its public methods onto them (doors.py):

    link      its connection's primitives (links.py: what it gives; sqlite_link.py, pg_link.py)
    queries   the SQL and the methods both stores share, over the link (queries.py)
    outbox    the messages kept with a change until said, over the link (outbox.py)
    notices, locks, pace   PostgreSQL's only: NOTIFY/LISTEN (pg_notify.py), the table
              locks (pg_locks.py), Telegram's shared write budget (pg_pace.py)

sqlite.py and postgres.py hold the stores and what each does its own way (opening and
migrations, upserts, the writes of tables, moves and finished games).
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
