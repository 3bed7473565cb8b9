"""The PostgreSQL schema: its migrations, in order (run by :mod:`spies_replay.store.migrations`).

The tables hold the same columns and texts as SQLite's (:mod:`spies_replay.store.sqlite_schema`;
JSON as text, not ``jsonb``, so the hashed bytes are the stored bytes); ``m001_initial`` is
SQLite's first three migrations in one (a PostgreSQL database started at that schema).
Triggers abort every UPDATE, DELETE and TRUNCATE of ``events``; the primary key refuses an
insert over a taken seq.

The append is one SQL function, ``spies_append(jsonb)`` (:data:`APPEND_FUNCTIONS`, which
the migrations that change it run): the only implementation of PostgreSQL's append.
In the statement's one transaction it takes the game's row ``FOR UPDATE`` (writers of one
game queue there), refuses a batch whose rows do not follow its version one by one
(SQLSTATE :data:`MALFORMED`), answers ``key-exists`` with the kept record when the
idempotency key was used, ``conflict`` with the current version when the game is not at
the batch's version and head hash, ``finished`` when the game is over and the batch has
rows; else it writes the result, the seat's holder and token (SQLSTATE :data:`SEAT_TAKEN`
when the seat has a token already) and a player's ownership of it (``player_seats``, since
``m010_seat_owners``), the rows, the game row (version, head hash, status,
outcome, ``due_at``), a snapshot, the game's compact head (``heads``, since
``m011_heads``: :mod:`spies_replay.store.heads`), and notifies :data:`NOTIFY_CHANNEL`
with the game's id, version, head hash and due mark after it (a JSON object:
:class:`~spies_replay.store.records.Appended`).
``spies_append_many(jsonb)`` runs several such batches in one transaction, each in a
subtransaction (so one refused batch leaves the others written), locking the games' rows in
game id order (so two such transactions never deadlock). The function's argument is
written by :func:`spies_replay.store.postgres_append.append_document`.
"""

from __future__ import annotations

from typing import Final

from spies_replay.store.commitments import MIGRATION_NAME as COMMITMENTS_MIGRATION
from spies_replay.store.commitments import SEED_COMMITMENTS_INDEX, SEED_COMMITMENTS_SQL
from spies_replay.store.heads import HEADS_SQL
from spies_replay.store.heads import MIGRATION_NAME as HEADS_MIGRATION
from spies_replay.store.keyring import MIGRATION_NAME, SIGNING_KEYS_SQL  # receipts
from spies_replay.store.migrations import APPEND_ONLY_MESSAGE, Migration
from spies_replay.store.players import MIGRATION_NAME as PLAYERS_MIGRATION  # players
from spies_replay.store.players import (  # players
    OWNERS_INDEX_SQL,
    OWNERS_MIGRATION,
    PLAYERS_INDEX_SQL,
    PLAYERS_SQL,
)

__all__ = ["APPEND_FUNCTIONS", "MALFORMED", "MIGRATIONS", "NOTIFY_CHANNEL", "SEAT_TAKEN"]

NOTIFY_CHANNEL: Final = "spies_events"
"""The channel every append notifies with its game's id, version, head and due mark after it
(a wake-up; the table is the truth). Before ``m007_notify_carries_head`` the notice was the
game id alone: a listener reads both."""
SEAT_TAKEN: Final = "SPS01"
"""The SQLSTATE ``spies_append`` raises for a seat whose token is held already."""
MALFORMED: Final = "SPS02"
"""The SQLSTATE ``spies_append`` raises for rows that do not follow the batch's version."""
_SEAT_TAKEN_MESSAGE: Final = "seat taken"

APPEND_FUNCTIONS: Final = f"""
        CREATE OR REPLACE FUNCTION spies_append(p_batch jsonb) RETURNS TABLE (
            result TEXT, current_version BIGINT, fingerprint TEXT, response TEXT,
            created_at TEXT
        ) LANGUAGE plpgsql AS $$
        DECLARE
            v_game TEXT := p_batch->>'game_id';
            v_expected BIGINT := (p_batch->>'version')::bigint;
            v_key TEXT := p_batch->>'key';
            v_updated TEXT := p_batch->>'updated_at';
            v_seat INTEGER := (p_batch->>'seat')::integer;
            v_count INTEGER := jsonb_array_length(p_batch->'rows');
            v_version BIGINT;
            v_head TEXT;
            v_status TEXT;
            v_new BIGINT;
        BEGIN
            IF EXISTS (SELECT 1 FROM jsonb_array_elements(p_batch->'rows')
                    WITH ORDINALITY AS r(item, n)
                    WHERE (r.item->>'seq')::bigint IS DISTINCT FROM v_expected + r.n) THEN
                RAISE EXCEPTION 'the rows of a batch must follow its version one by one'
                    USING ERRCODE = '{MALFORMED}';
            END IF;
            PERFORM set_config('lock_timeout', p_batch->>'lock_timeout_ms', true);
            SELECT g.version, g.head_hash, g.status INTO v_version, v_head, v_status
                FROM games g WHERE g.id = v_game FOR UPDATE;
            IF NOT FOUND THEN
                RETURN QUERY SELECT 'not-found'::text, NULL::bigint, NULL::text, NULL::text,
                    NULL::text;
                RETURN;
            END IF;
            IF v_key IS NOT NULL THEN
                RETURN QUERY SELECT 'key-exists'::text, v_version, i.request_fingerprint,
                    i.response, i.created_at
                    FROM idempotency i WHERE i.game_id = v_game AND i.key = v_key;
                IF FOUND THEN
                    RETURN;
                END IF;
            END IF;
            IF v_version <> v_expected OR v_head <> p_batch->>'head_hash' THEN
                RETURN QUERY SELECT 'conflict'::text, v_version, NULL::text, NULL::text,
                    NULL::text;
                RETURN;
            END IF;
            IF v_status = 'finished' AND v_count > 0 THEN
                RETURN QUERY SELECT 'finished'::text, v_version, NULL::text, NULL::text,
                    NULL::text;
                RETURN;
            END IF;
            IF v_key IS NOT NULL THEN
                INSERT INTO idempotency (game_id, key, request_fingerprint, response, created_at)
                    VALUES (v_game, v_key, p_batch->>'fingerprint', p_batch->>'response',
                    v_updated);
            END IF;
            IF v_seat IS NOT NULL THEN
                IF p_batch->>'token_hash' IS NOT NULL THEN
                    INSERT INTO seats (game_id, seat, token_hash)
                        VALUES (v_game, v_seat, p_batch->>'token_hash') ON CONFLICT DO NOTHING;
                    IF NOT FOUND THEN
                        RAISE EXCEPTION '{_SEAT_TAKEN_MESSAGE}' USING ERRCODE = '{SEAT_TAKEN}';
                    END IF;
                END IF;
                INSERT INTO seat_states (game_id, seat, type, name, bot)
                    VALUES (v_game, v_seat, p_batch->>'seat_type', p_batch->>'seat_name',
                    p_batch->>'seat_bot')
                    ON CONFLICT (game_id, seat) DO UPDATE SET type = excluded.type,
                    name = excluded.name, bot = excluded.bot;
                IF p_batch->>'owner_id' IS NOT NULL THEN  -- a player's seat, with its token
                    INSERT INTO player_seats (player_id, game_id, seat, token_salt, owned_at)
                        VALUES (p_batch->>'owner_id', v_game, v_seat,
                        p_batch->>'owner_salt', v_updated) ON CONFLICT DO NOTHING;
                END IF;
            END IF;
            IF v_count = 0 THEN
                RETURN QUERY SELECT 'ok'::text, v_version, NULL::text, NULL::text, NULL::text;
                RETURN;
            END IF;
            INSERT INTO events (game_id, seq, type, payload, recorded_at, actor, command,
                hash, bot)
                SELECT v_game, r.seq, r.type, r.payload, r.recorded_at, r.actor, r.command,
                    r.hash, r.bot
                FROM jsonb_to_recordset(p_batch->'rows') AS r(seq BIGINT, type TEXT,
                    payload TEXT, recorded_at TEXT, actor INTEGER, command TEXT, hash TEXT,
                    bot TEXT);
            v_new := v_expected + v_count;
            -- what other processes need to keep in step without a query of their own
            PERFORM pg_notify('{NOTIFY_CHANNEL}', json_build_object('game_id', v_game,
                'version', v_new, 'head_hash', p_batch->>'new_head_hash',
                'due_at', CASE WHEN p_batch->>'outcome' IS NULL THEN p_batch->>'due_at' END,
                'finished', p_batch->>'outcome' IS NOT NULL)::text);
            IF p_batch->>'outcome' IS NOT NULL THEN
                UPDATE games SET version = v_new, head_hash = p_batch->>'new_head_hash',
                    updated_at = v_updated, status = 'finished',
                    outcome = p_batch->>'outcome', due_at = NULL WHERE id = v_game;
            ELSE
                UPDATE games SET version = v_new, head_hash = p_batch->>'new_head_hash',
                    updated_at = v_updated, due_at = p_batch->>'due_at' WHERE id = v_game;
            END IF;
            IF p_batch->>'snapshot' IS NOT NULL THEN
                INSERT INTO snapshots (game_id, seq, state)
                    VALUES (v_game, v_new, p_batch->>'snapshot')
                    ON CONFLICT (game_id, seq) DO UPDATE SET state = excluded.state;
            END IF;
            IF p_batch->>'head' IS NOT NULL THEN  -- the compact head after the batch
                INSERT INTO heads (game_id, version, head)
                    VALUES (v_game, v_new, p_batch->>'head')
                    ON CONFLICT (game_id) DO UPDATE SET version = excluded.version,
                    head = excluded.head;
            END IF;
            RETURN QUERY SELECT 'ok'::text, v_new, NULL::text, NULL::text, NULL::text;
        END $$;
        CREATE OR REPLACE FUNCTION spies_append_many(p_batches jsonb) RETURNS TABLE (
            item INTEGER, result TEXT, current_version BIGINT, fingerprint TEXT,
            response TEXT, created_at TEXT
        ) LANGUAGE plpgsql AS $$
        DECLARE
            v_batch jsonb;
            v_item INTEGER;
            r RECORD;
        BEGIN
            -- rows locked in game id order, so that two such transactions never deadlock
            FOR v_batch, v_item IN SELECT b.value, b.ordinality::integer
                FROM jsonb_array_elements(p_batches) WITH ORDINALITY AS b
                ORDER BY b.value->>'game_id', b.ordinality
            LOOP
                BEGIN  -- each batch in a subtransaction: its failure undoes it alone
                    FOR r IN SELECT * FROM spies_append(v_batch) LOOP
                        item := v_item;
                        result := r.result;
                        current_version := r.current_version;
                        fingerprint := r.fingerprint;
                        response := r.response;
                        created_at := r.created_at;
                        RETURN NEXT;
                    END LOOP;
                EXCEPTION
                    WHEN unique_violation OR SQLSTATE '{SEAT_TAKEN}'
                        OR SQLSTATE '{MALFORMED}' THEN
                        item := v_item;
                        result := CASE SQLSTATE
                            WHEN '{SEAT_TAKEN}' THEN 'seat-taken'
                            WHEN '{MALFORMED}' THEN 'malformed'
                            ELSE 'seq-taken' END;
                        current_version := NULL;
                        fingerprint := NULL;
                        response := NULL;
                        created_at := NULL;
                        RETURN NEXT;
                END;
            END LOOP;
        END $$;
        """
"""``spies_append`` and ``spies_append_many`` as they are now (``CREATE OR REPLACE``): the one
text of PostgreSQL's append. Each migration that changes them runs this text, so an earlier
such migration (``m003_append_function``) makes the functions as they are now on a new
database, and the later ones (``m005_append_checks_seqs``, ``m007_notify_carries_head``,
``m010_seat_owners``, ``m011_heads``) replace what an older version made: every database
ends with this one definition."""

MIGRATIONS: Final[tuple[Migration, ...]] = (
    Migration(
        "m001_initial",
        (
            f"""
        CREATE TABLE games (
            id TEXT PRIMARY KEY, game TEXT NOT NULL, players INTEGER NOT NULL,
            options TEXT NOT NULL, status TEXT NOT NULL, version BIGINT NOT NULL,
            head_hash TEXT NOT NULL, seed_commitment TEXT NOT NULL, seed_source TEXT NOT NULL,
            rng TEXT NOT NULL, outcome TEXT, created_at TEXT NOT NULL, updated_at TEXT NOT NULL
        );
        CREATE INDEX games_game_status ON games (game, status);
        CREATE INDEX games_created_at_id ON games (created_at, id);
        CREATE TABLE seeds (game_id TEXT PRIMARY KEY, seed TEXT NOT NULL, deal TEXT);
        CREATE TABLE seats (
            game_id TEXT, seat INTEGER, token_hash TEXT NOT NULL, PRIMARY KEY (game_id, seat)
        );
        CREATE TABLE events (
            game_id TEXT, seq BIGINT, type TEXT NOT NULL, payload TEXT NOT NULL,
            recorded_at TEXT NOT NULL, actor INTEGER, command TEXT, hash TEXT NOT NULL,
            bot TEXT, PRIMARY KEY (game_id, seq)
        );
        CREATE FUNCTION spies_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            RAISE EXCEPTION '{APPEND_ONLY_MESSAGE}' USING ERRCODE = 'restrict_violation';
        END $$;
        CREATE TRIGGER events_no_update BEFORE UPDATE ON events
            FOR EACH ROW EXECUTE FUNCTION spies_events_append_only();
        CREATE TRIGGER events_no_delete BEFORE DELETE ON events
            FOR EACH ROW EXECUTE FUNCTION spies_events_append_only();
        CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
            FOR EACH STATEMENT EXECUTE FUNCTION spies_events_append_only();
        CREATE TABLE idempotency (
            game_id TEXT, key TEXT, request_fingerprint TEXT NOT NULL, response TEXT NOT NULL,
            created_at TEXT NOT NULL, PRIMARY KEY (game_id, key)
        );
        CREATE TABLE snapshots (
            game_id TEXT, seq BIGINT, state TEXT NOT NULL, PRIMARY KEY (game_id, seq)
        );
        CREATE TABLE seat_states (
            game_id TEXT, seat INTEGER, type TEXT NOT NULL, name TEXT, bot TEXT,
            PRIMARY KEY (game_id, seat)
        );
        CREATE TABLE rematches (game_id TEXT PRIMARY KEY, next_id TEXT NOT NULL UNIQUE);
        """,
        ),
    ),
    Migration(
        "m002_due_work",
        (
            """
        ALTER TABLE games ADD COLUMN due_at TEXT;
        CREATE INDEX games_due ON games (due_at) WHERE due_at IS NOT NULL;
        UPDATE games SET due_at = updated_at WHERE status = 'active' AND EXISTS
            (SELECT 1 FROM seat_states s WHERE s.game_id = games.id AND s.bot IS NOT NULL);
        """,
        ),
    ),
    Migration("m003_append_function", (APPEND_FUNCTIONS,)),
    Migration(
        "m004_token_index",
        ("CREATE INDEX seats_token_hash ON seats (token_hash)",),
    ),
    Migration("m005_append_checks_seqs", (APPEND_FUNCTIONS,)),
    Migration(MIGRATION_NAME, (SIGNING_KEYS_SQL,)),  # receipts: the signing keys' table
    Migration("m007_notify_carries_head", (APPEND_FUNCTIONS,)),
    Migration(  # players' entropy: the server seeds committed before a game uses them
        COMMITMENTS_MIGRATION, (SEED_COMMITMENTS_SQL, SEED_COMMITMENTS_INDEX)
    ),
    Migration(PLAYERS_MIGRATION, (*PLAYERS_SQL, PLAYERS_INDEX_SQL)),  # players
    # players: a seat's owner written by the append that gives the seat its token
    Migration(OWNERS_MIGRATION, (APPEND_FUNCTIONS, OWNERS_INDEX_SQL)),
    # the compact heads, written by the append: a cold load reads one row
    Migration(HEADS_MIGRATION, (HEADS_SQL, APPEND_FUNCTIONS)),
)
"""PostgreSQL's migrations, in order: append new ones at the end; never edit an applied one
(the append's functions change by a new migration that runs :data:`APPEND_FUNCTIONS`)."""

MIGRATION_NAMES: Final = frozenset(migration.name for migration in MIGRATIONS)
"""The names of every migration this code knows."""
