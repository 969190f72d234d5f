"""The versioned schema: migration n is ``MIGRATIONS[n - 1]``; a released one is never edited."""

from __future__ import annotations

SCHEMA_VERSION_TABLE = """
CREATE TABLE IF NOT EXISTS schema_version (
    version INTEGER PRIMARY KEY,
    applied_at REAL NOT NULL
)"""

MIGRATIONS: tuple[tuple[str, ...], ...] = (
    # 1: users, settings, tables with their seats, and the move log.
    (
        """CREATE TABLE users (
            id TEXT PRIMARY KEY,  -- "platform:id"
            name TEXT NOT NULL,
            locale TEXT
        )""",
        """CREATE TABLE settings (
            scope TEXT NOT NULL,  -- a server or group id, or "global"
            key TEXT NOT NULL,
            value TEXT NOT NULL,
            PRIMARY KEY (scope, key)
        ) WITHOUT ROWID""",
        # AUTOINCREMENT: a table id is never reused, since players refer to games by id.
        """CREATE TABLE tables (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            channel TEXT NOT NULL,
            scope TEXT NOT NULL,
            host TEXT NOT NULL,
            variant TEXT NOT NULL,
            options TEXT NOT NULL,  -- JSON
            players INTEGER NOT NULL,
            timer INTEGER,
            status TEXT NOT NULL,  -- one of STATUSES, checked in Python
            seed INTEGER NOT NULL,
            lang TEXT NOT NULL,
            created_at REAL NOT NULL,
            deadline REAL,
            warned INTEGER NOT NULL DEFAULT 0,
            result TEXT  -- JSON
        )""",
        "CREATE INDEX tables_status ON tables (status)",
        "CREATE INDEX tables_channel ON tables (channel, status)",
        """CREATE TABLE seats (
            table_id INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
            seat INTEGER NOT NULL,
            user_id TEXT,
            name TEXT NOT NULL,
            ai TEXT,
            misses INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (table_id, seat)
        ) WITHOUT ROWID""",
        """CREATE TABLE moves (
            table_id INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
            turn INTEGER NOT NULL,
            seat INTEGER NOT NULL,
            move TEXT NOT NULL,
            at REAL NOT NULL,
            PRIMARY KEY (table_id, turn)
        ) WITHOUT ROWID""",
    ),
    # 2: finished games and their players, ratings, and the adapters' per-table state.
    (
        """CREATE TABLE games (
            table_id INTEGER PRIMARY KEY REFERENCES tables (id),
            variant TEXT NOT NULL,
            scope TEXT NOT NULL,
            finished_at REAL NOT NULL,
            record TEXT NOT NULL,  -- JSON: core.replay(record) rebuilds the game
            result TEXT NOT NULL  -- JSON
        )""",
        """CREATE TABLE game_players (
            table_id INTEGER NOT NULL REFERENCES games (table_id) ON DELETE CASCADE,
            seat INTEGER NOT NULL,
            user_id TEXT NOT NULL,
            won INTEGER NOT NULL,
            score INTEGER NOT NULL,
            rank INTEGER NOT NULL,
            PRIMARY KEY (table_id, seat)
        ) WITHOUT ROWID""",
        "CREATE INDEX game_players_user ON game_players (user_id)",
        """CREATE TABLE ratings (
            user_id TEXT NOT NULL,
            variant TEXT NOT NULL,
            scope TEXT NOT NULL,
            mu REAL NOT NULL,
            sigma REAL NOT NULL,
            games INTEGER NOT NULL,
            wins INTEGER NOT NULL,
            PRIMARY KEY (user_id, variant, scope)
        )""",
        "CREATE INDEX ratings_board ON ratings (scope, variant)",
        """CREATE TABLE adapter_state (
            table_id INTEGER NOT NULL,
            platform TEXT NOT NULL,
            key TEXT NOT NULL,
            value TEXT NOT NULL,
            PRIMARY KEY (table_id, platform, key)
        ) WITHOUT ROWID""",
        """CREATE TABLE user_prefs (
            user_id TEXT NOT NULL,
            platform TEXT NOT NULL,
            key TEXT NOT NULL,
            value TEXT NOT NULL,
            PRIMARY KEY (user_id, platform, key)
        ) WITHOUT ROWID""",
    ),
    # 3: a table's version, which the PostgreSQL store bumps at every write of the table so
    # that a process knows at once whether its copy in memory is current (see
    # pg_schema.py). One process on SQLite has nothing to check: it stays 0 here.
    (
        "ALTER TABLE tables ADD COLUMN version INTEGER NOT NULL DEFAULT 0",
    ),
)

# -- SQL: the queries ----------------------------------------------------------------------------
