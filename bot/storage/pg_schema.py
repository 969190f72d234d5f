"""The versioned schema for PostgreSQL: migration n is ``PG_MIGRATIONS[n - 1]``, the tables of
schema.py in PostgreSQL's types (see there), and the functions of the several-process store
(postgres.py); a released one is never edited.
"""

from __future__ import annotations

from .schema import (
    MIGRATION_1,
    MIGRATION_2,
    MIGRATION_3,
    MIGRATION_4,
    MIGRATION_5,
    MIGRATION_6,
    MIGRATION_7,
    POSTGRES,
    SCHEMA_VERSION_TEMPLATE,
    dialect,
)

PG_SCHEMA_VERSION_TABLE = SCHEMA_VERSION_TEMPLATE.format_map(POSTGRES)

# Migration 3: a table's version (schema.py), bumped by every write of the table (its row,
# seats or move log), and the table lock that reads it: `domino_lock_table(id, wait)` takes
# the advisory lock on the table (waiting for it, or NULL at once when another session holds
# it) and then reads the version in a fresh snapshot (a VOLATILE function's statements each
# take one), so it sees every commit of the lock's previous holder: one round trip that
# tells a process whether its copy in memory is current. -1: no such table.
# `domino_append_moves` writes the moves of an action with the table's deadline, COMMITs
# (a procedure may), and then, if asked, lets the table's lock go: the last round trip
# of an action, which lets the lock go only once its moves are durable.
# `domino_finish_game` stores the end of a game (see PostgresStore.finish_game) in one
# statement; 'missing', 'finished' or 'taken' (the last move's turn) when it cannot.
PG_FUNCTIONS = (
        """CREATE FUNCTION domino_lock_table(p_id BIGINT, p_wait BOOLEAN) RETURNS BIGINT
        LANGUAGE plpgsql VOLATILE AS $$
        BEGIN
            IF p_wait THEN
                PERFORM pg_advisory_lock(p_id);
            ELSIF NOT pg_try_advisory_lock(p_id) THEN
                RETURN NULL;
            END IF;
            RETURN coalesce((SELECT t.version FROM tables AS t WHERE t.id = p_id), -1);
        END
        $$""",
        """CREATE PROCEDURE domino_append_moves(p_id BIGINT, p_turns INTEGER[],
            p_seats INTEGER[], p_moves TEXT[], p_at DOUBLE PRECISION[],
            p_deadline DOUBLE PRECISION, p_warned INTEGER, p_unlock BOOLEAN)
        LANGUAGE plpgsql AS $$
        BEGIN
            INSERT INTO moves (table_id, turn, seat, move, at)
                SELECT p_id, * FROM unnest(p_turns, p_seats, p_moves, p_at);
            UPDATE tables SET deadline = p_deadline, warned = p_warned,
                version = version + 1 WHERE id = p_id;
            COMMIT;
            IF p_unlock THEN
                PERFORM pg_advisory_unlock(p_id);
            END IF;
        END
        $$""",
        """CREATE FUNCTION domino_finish_game(p_id BIGINT, p_now DOUBLE PRECISION,
            p_record TEXT, p_result TEXT, p_turn INTEGER, p_seat INTEGER, p_move TEXT,
            p_seats INTEGER[], p_users TEXT[], p_won INTEGER[], p_scores INTEGER[],
            p_ranks INTEGER[], p_r_users TEXT[], p_r_variants TEXT[], p_r_scopes TEXT[],
            p_mu DOUBLE PRECISION[], p_sigma DOUBLE PRECISION[], p_games INTEGER[],
            p_wins INTEGER[]) RETURNS TEXT
        LANGUAGE plpgsql VOLATILE AS $$
        DECLARE
            v_variant TEXT;
            v_scope TEXT;
        BEGIN
            SELECT t.variant, t.scope INTO v_variant, v_scope FROM tables AS t
                WHERE t.id = p_id FOR UPDATE;
            IF NOT FOUND THEN
                RETURN 'missing';
            END IF;
            IF EXISTS (SELECT 1 FROM games AS g WHERE g.table_id = p_id) THEN
                RETURN 'finished';
            END IF;
            IF p_turn IS NOT NULL THEN
                IF EXISTS (SELECT 1 FROM moves AS m WHERE m.table_id = p_id
                           AND m.turn = p_turn) THEN
                    RETURN 'taken';
                END IF;
                INSERT INTO moves (table_id, turn, seat, move, at)
                    VALUES (p_id, p_turn, p_seat, p_move, p_now);
                UPDATE tables SET deadline = NULL, warned = 0 WHERE id = p_id;
            END IF;
            UPDATE tables SET status = 'finished', result = p_result, version = version + 1
                WHERE id = p_id;
            INSERT INTO games (table_id, variant, scope, finished_at, record, result)
                VALUES (p_id, v_variant, v_scope, p_now, p_record, p_result);
            INSERT INTO game_players (table_id, seat, user_id, won, score, rank)
                SELECT p_id, * FROM unnest(p_seats, p_users, p_won, p_scores, p_ranks);
            INSERT INTO ratings (user_id, variant, scope, mu, sigma, games, wins)
                SELECT x.u, x.v, x.s, x.m, x.sg, x.g, x.w
                FROM unnest(p_r_users, p_r_variants, p_r_scopes, p_mu, p_sigma, p_games,
                            p_wins) WITH ORDINALITY AS x (u, v, s, m, sg, g, w, n)
                ORDER BY x.n
                ON CONFLICT (user_id, variant, scope) DO UPDATE SET mu = excluded.mu,
                    sigma = excluded.sigma, games = excluded.games, wins = excluded.wins;
            RETURN 'ok';
        END
        $$""",
)

# Migration 4: the season ratings (schema.py), and `domino_finish_game` again with one more
# array, each rating row's season ('' for the endless `ratings`, else `season_ratings`).
PG_SEASONS = (
        """DROP FUNCTION domino_finish_game(BIGINT, DOUBLE PRECISION, TEXT, TEXT, INTEGER,
            INTEGER, TEXT, INTEGER[], TEXT[], INTEGER[], INTEGER[], INTEGER[], TEXT[], TEXT[],
            TEXT[], DOUBLE PRECISION[], DOUBLE PRECISION[], INTEGER[], INTEGER[])""",
        """CREATE FUNCTION domino_finish_game(p_id BIGINT, p_now DOUBLE PRECISION,
            p_record TEXT, p_result TEXT, p_turn INTEGER, p_seat INTEGER, p_move TEXT,
            p_seats INTEGER[], p_users TEXT[], p_won INTEGER[], p_scores INTEGER[],
            p_ranks INTEGER[], p_r_users TEXT[], p_r_variants TEXT[], p_r_scopes TEXT[],
            p_mu DOUBLE PRECISION[], p_sigma DOUBLE PRECISION[], p_games INTEGER[],
            p_wins INTEGER[], p_r_seasons TEXT[]) RETURNS TEXT
        LANGUAGE plpgsql VOLATILE AS $$
        DECLARE
            v_variant TEXT;
            v_scope TEXT;
        BEGIN
            SELECT t.variant, t.scope INTO v_variant, v_scope FROM tables AS t
                WHERE t.id = p_id FOR UPDATE;
            IF NOT FOUND THEN
                RETURN 'missing';
            END IF;
            IF EXISTS (SELECT 1 FROM games AS g WHERE g.table_id = p_id) THEN
                RETURN 'finished';
            END IF;
            IF p_turn IS NOT NULL THEN
                IF EXISTS (SELECT 1 FROM moves AS m WHERE m.table_id = p_id
                           AND m.turn = p_turn) THEN
                    RETURN 'taken';
                END IF;
                INSERT INTO moves (table_id, turn, seat, move, at)
                    VALUES (p_id, p_turn, p_seat, p_move, p_now);
                UPDATE tables SET deadline = NULL, warned = 0 WHERE id = p_id;
            END IF;
            UPDATE tables SET status = 'finished', result = p_result, version = version + 1
                WHERE id = p_id;
            INSERT INTO games (table_id, variant, scope, finished_at, record, result)
                VALUES (p_id, v_variant, v_scope, p_now, p_record, p_result);
            INSERT INTO game_players (table_id, seat, user_id, won, score, rank)
                SELECT p_id, * FROM unnest(p_seats, p_users, p_won, p_scores, p_ranks);
            INSERT INTO ratings (user_id, variant, scope, mu, sigma, games, wins)
                SELECT x.u, x.v, x.s, x.m, x.sg, x.g, x.w
                FROM unnest(p_r_users, p_r_variants, p_r_scopes, p_mu, p_sigma, p_games,
                            p_wins, p_r_seasons) WITH ORDINALITY AS x (u, v, s, m, sg, g, w, e, n)
                WHERE x.e = ''
                ORDER BY x.n
                ON CONFLICT (user_id, variant, scope) DO UPDATE SET mu = excluded.mu,
                    sigma = excluded.sigma, games = excluded.games, wins = excluded.wins;
            INSERT INTO season_ratings (scope, season, variant, user_id, mu, sigma, games, wins)
                SELECT x.s, x.e, x.v, x.u, x.m, x.sg, x.g, x.w
                FROM unnest(p_r_users, p_r_variants, p_r_scopes, p_mu, p_sigma, p_games,
                            p_wins, p_r_seasons) WITH ORDINALITY AS x (u, v, s, m, sg, g, w, e, n)
                WHERE x.e <> ''
                ORDER BY x.n
                ON CONFLICT (scope, season, variant, user_id) DO UPDATE SET mu = excluded.mu,
                    sigma = excluded.sigma, games = excluded.games, wins = excluded.wins;
            RETURN 'ok';
        END
        $$""",
)

PG_MIGRATIONS: tuple[tuple[str, ...], ...] = (
    dialect(MIGRATION_1, POSTGRES),
    dialect(MIGRATION_2, POSTGRES),
    (*dialect(MIGRATION_3, POSTGRES), *PG_FUNCTIONS),
    (*dialect(MIGRATION_4, POSTGRES), *PG_SEASONS),
    dialect(MIGRATION_5, POSTGRES),
    dialect(MIGRATION_6, POSTGRES),
    dialect(MIGRATION_7, POSTGRES),
)
