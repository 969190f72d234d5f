"""Storage: the rows the bot keeps and the versioned schema, with the SQLite `Store` behind them."""

from .rows import (
    ACTIVE,
    STATUSES,
    DuplicateMove,
    GamePlayer,
    HistoryRow,
    LeaderRow,
    NotFound,
    RatingRow,
    SeatRow,
    StatRow,
    TableRow,
)
from .schema import MIGRATIONS
from .sqlite import Store, StoreError

__all__ = [
    "ACTIVE",
    "MIGRATIONS",
    "STATUSES",
    "DuplicateMove",
    "GamePlayer",
    "HistoryRow",
    "LeaderRow",
    "NotFound",
    "RatingRow",
    "SeatRow",
    "StatRow",
    "Store",
    "StoreError",
    "TableRow",
]
