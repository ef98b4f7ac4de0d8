/**
 * The POS clients file: one SQLite file shared by every Pinbridge process on the machine, holding
 * the paired clients, their pairing requests and the blocked origins (client-store.ts), and which
 * client started which payment until it heard the result (pos/server/ownership-store.ts). Its
 * tables and their history live here, in one list, because PRAGMA user_version counts the file's
 * history, not one store's. The programs the cashier blocked are here too (version 4).
 */
import { openDatabase, type SqliteDatabase } from '../../storage/sqlite.js';

/**
 * Version 1. `clients_by_origin` serves isPairedOrigin (asked on every upgrade); the partial index
 * on pending requests serves the per-origin count and the window's list.
 */
const V1 = `
CREATE TABLE clients (
  id           TEXT PRIMARY KEY,
  name         TEXT NOT NULL,
  origin       TEXT,
  token_hash   TEXT NOT NULL UNIQUE,
  created_at   TEXT NOT NULL,
  last_seen_at TEXT,
  revoked_at   TEXT
);
CREATE INDEX clients_by_origin ON clients (origin) WHERE revoked_at IS NULL;

CREATE TABLE pairings (
  id         TEXT PRIMARY KEY,
  name       TEXT NOT NULL,
  origin     TEXT,
  code_hash  TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  attempts   INTEGER NOT NULL DEFAULT 0,
  state      TEXT NOT NULL CHECK (state IN ('pending', 'completed', 'expired', 'failed', 'rejected')),
  client_id  TEXT REFERENCES clients (id)
);
CREATE INDEX pairings_pending ON pairings (origin, expires_at) WHERE state = 'pending';
CREATE INDEX pairings_by_created ON pairings (created_at);

CREATE TABLE blocked_origins (
  origin     TEXT PRIMARY KEY,
  blocked_at TEXT NOT NULL
) WITHOUT ROWID;
`;

/**
 * Version 2: which client started which payment, until that client has heard its result. A row
 * outlives the agent, so a POS that was away when its payment ended — even across a restart —
 * gets the result at its next hello (the result itself is read from the journal then).
 */
const V2 = `
CREATE TABLE payment_owners (
  reference_id TEXT PRIMARY KEY,
  client_id    TEXT NOT NULL REFERENCES clients (id),
  started_at   TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX payment_owners_by_client ON payment_owners (client_id, started_at);
`;

/**
 * Version 3: every wrong pairing code (and completion from another origin), from all origins, so
 * the daily budget survives a restart and the window can say where the guesses came from.
 */
const V3 = `
CREATE TABLE pairing_failures (
  at         TEXT NOT NULL,
  origin     TEXT,
  pairing_id TEXT NOT NULL
);
CREATE INDEX pairing_failures_by_at ON pairing_failures (at);
`;

/**
 * Version 4: who asked to pair — the connection and the program behind it (its group key, PID,
 * name and command line, as the POS server found them) — so that each connection and each program
 * has one request waiting at a time, a newer one withdrawing the older (state `withdrawn`); and
 * the programs the cashier blocked. SQLite cannot change a CHECK constraint in place: the pairing
 * requests move to a new table.
 */
const V4 = `
CREATE TABLE pairings_v4 (
  id            TEXT PRIMARY KEY,
  name          TEXT NOT NULL,
  origin        TEXT,
  code_hash     TEXT NOT NULL,
  created_at    TEXT NOT NULL,
  expires_at    TEXT NOT NULL,
  attempts      INTEGER NOT NULL DEFAULT 0,
  state         TEXT NOT NULL CHECK (state IN ('pending', 'completed', 'expired', 'failed', 'rejected', 'withdrawn')),
  client_id     TEXT REFERENCES clients (id),
  connection_id TEXT,
  peer_key      TEXT,
  peer_pid      INTEGER,
  peer_name     TEXT,
  peer_program  TEXT
);
INSERT INTO pairings_v4 (id, name, origin, code_hash, created_at, expires_at, attempts, state, client_id)
  SELECT id, name, origin, code_hash, created_at, expires_at, attempts, state, client_id FROM pairings;
DROP TABLE pairings;
ALTER TABLE pairings_v4 RENAME TO pairings;
CREATE INDEX pairings_pending ON pairings (origin, expires_at) WHERE state = 'pending';
CREATE INDEX pairings_by_created ON pairings (created_at);
CREATE INDEX pairings_pending_by_peer ON pairings (peer_key, created_at) WHERE state = 'pending';

CREATE TABLE blocked_programs (
  id         TEXT PRIMARY KEY,
  program    TEXT NOT NULL UNIQUE,
  name       TEXT NOT NULL,
  blocked_at TEXT NOT NULL
) WITHOUT ROWID;
`;

/** MIGRATIONS[i] takes the file from version i to version i + 1. */
export const CLIENTS_FILE_MIGRATIONS: readonly string[] = [V1, V2, V3, V4];
export const CLIENT_STORE_SCHEMA_VERSION = CLIENTS_FILE_MIGRATIONS.length;

/**
 * Opens (creating the folders, file and tables) the clients file; ':memory:' works. Failures are
 * the storage module's StorageErrors.
 */
export function openClientsFile(path: string, options: { readonly busyTimeoutMs?: number } = {}): SqliteDatabase {
  return openDatabase(path, {
    pragmas: {
      ...(options.busyTimeoutMs === undefined ? {} : { busy_timeout: options.busyTimeoutMs }),
      journal_mode: 'WAL',
      // Writes are rare (a pairing, a revocation, a last-seen time): each can afford an fsync, and a
      // revocation must not be lost to a power cut.
      synchronous: 'FULL',
      foreign_keys: true,
      // Deleted rows (old pairing requests with a POS's name and origin, unblocked origins) are
      // overwritten with zeros, not left readable in the file's free pages.
      secure_delete: true,
    },
    migrations: CLIENTS_FILE_MIGRATIONS,
    // The agent must start on a full disk (issue 33): paired POS clients can still log in.
    whenFull: 'hold',
  });
}
