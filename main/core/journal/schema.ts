/**
 * The journal's tables, versioned with PRAGMA user_version: the storage module applies each
 * missing step in its own write transaction (main/storage/sqlite.ts), so two processes opening a
 * fresh file at once cannot both apply it, and a crash mid-migration leaves the previous version
 * intact. Steps are only ever appended: a file written by any earlier Pinbridge opens.
 */

/**
 * Version 1. Nested objects (card, authorization, problem, pending undo) are JSON text: they are
 * read whole; only the search filters of `list` look inside (NSU, authorization code, last 4),
 * guarded against damaged text, on the rows the other conditions leave. `finished_at IS NULL` marks the payments recovery must
 * look at; the partial index over those rows keeps start-up reading only them, however long
 * the history grows.
 */
const V1 = `
CREATE TABLE payments (
  id                 TEXT PRIMARY KEY,
  reference_id       TEXT NOT NULL,
  source             TEXT NOT NULL,
  terminal           TEXT NOT NULL,
  amount             INTEGER NOT NULL,
  payment_type       TEXT NOT NULL,
  installments       INTEGER,
  description        TEXT NOT NULL,
  notification       TEXT,
  params_hash        TEXT NOT NULL,
  confirmation       TEXT NOT NULL,
  state              TEXT NOT NULL,
  transaction_id     TEXT,
  card_json          TEXT,
  authorization_json TEXT,
  problem_json       TEXT,
  customer_tax_id    TEXT,
  confirm_deadline   TEXT,
  pending_undo_json  TEXT,
  created_at         TEXT NOT NULL,
  updated_at         TEXT NOT NULL,
  finished_at        TEXT
);
CREATE UNIQUE INDEX payments_by_reference ON payments (reference_id);
CREATE INDEX payments_by_transaction ON payments (transaction_id);
CREATE INDEX payments_by_created ON payments (created_at);
CREATE INDEX payments_unfinished ON payments (created_at) WHERE finished_at IS NULL;

CREATE TABLE events (
  payment_id TEXT NOT NULL REFERENCES payments (id),
  seq        INTEGER NOT NULL,
  at         TEXT NOT NULL,
  from_state TEXT,
  to_state   TEXT NOT NULL,
  note       TEXT NOT NULL,
  PRIMARY KEY (payment_id, seq)
) WITHOUT ROWID;
`;

/**
 * Version 2: who started each payment (`owner`: the POS client's id; NULL for the window, the CLI
 * and pending transactions picked up from the API), so each POS sees and acts on its own only.
 */
const V2 = `
ALTER TABLE payments ADD COLUMN owner TEXT;
CREATE INDEX payments_by_owner ON payments (owner, created_at);
`;

/** MIGRATIONS[i] takes the file from version i to version i + 1. */
export const MIGRATIONS: readonly string[] = [V1, V2];

export const SCHEMA_VERSION = MIGRATIONS.length;
