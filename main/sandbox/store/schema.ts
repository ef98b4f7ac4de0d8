/**
 * The sandbox's SQLite schema, versioned with PRAGMA user_version (main/storage/sqlite.ts).
 * Records are JSON documents (`data`) beside the columns they are looked up by. Money inside
 * `data` is always integer centavos; the HTTP layer decides how to show it.
 *
 * Before user_version, a data directory's version was the `schema_version` row of `meta` ('1'),
 * at user_version 0. Version 1's statements say IF NOT EXISTS, so on such a file the step only
 * records the version; the meta row is still written, for a sandbox of that time opening the file.
 */
import type { Connection, Migration } from '../../storage/sqlite.js';

/**
 * Version 1: the tables as the sandbox first had them. On a file of the time before user_version
 * it checks that file's own version first: anything but 1 is a file this code does not know.
 */
function v1(db: Connection): void {
  const hasMeta = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").get() !== undefined;
  if (hasMeta) {
    const row = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get() as
      { value: string } | undefined;
    if (row !== undefined && row.value !== '1')
      throw new Error(`the sandbox data directory has schema version ${row.value}; this sandbox understands 1`);
  }
  db.exec(V1);
  db.prepare("INSERT INTO meta (key, value) VALUES ('schema_version', '1') ON CONFLICT(key) DO NOTHING").run();
}

/**
 * Version 2: the last transaction counter the sandbox accepted per DUKPT key (the KSN with its
 * 21-bit counter cleared, per kind: pin or data), so a replayed KSN is refused as a host refuses
 * it (store/dukpt-counters.ts). The KSN's key part is what a host keeps; no card data is stored.
 */
const V2 = `
CREATE TABLE dukpt_counters (
  kind           TEXT NOT NULL,      -- pin | data
  key_serial     TEXT NOT NULL,      -- the KSN with its counter bits zero, upper-case hex
  counter        INTEGER NOT NULL,   -- the last counter accepted
  transaction_id TEXT NOT NULL,      -- the transaction that used it
  updated_at     TEXT NOT NULL,
  PRIMARY KEY (kind, key_serial)
);
`;

/** MIGRATIONS[i] takes the file from version i to version i + 1. */
export const SANDBOX_MIGRATIONS: readonly Migration[] = [v1, V2];

export const SCHEMA_VERSION = SANDBOX_MIGRATIONS.length;

const V1 = `
CREATE TABLE IF NOT EXISTS meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS marketplaces (
  id         TEXT PRIMARY KEY,
  name       TEXT NOT NULL,
  created_at TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS sellers (
  id             TEXT PRIMARY KEY,
  marketplace_id TEXT NOT NULL REFERENCES marketplaces(id),
  data           TEXT NOT NULL,
  created_at     TEXT NOT NULL
);

-- Sandbox tokens are kept in clear: they are test credentials printed on start.
CREATE TABLE IF NOT EXISTS tokens (
  token          TEXT PRIMARY KEY,
  marketplace_id TEXT NOT NULL,
  expires_at_ms  INTEGER,            -- NULL: never expires
  created_at     TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS buyers (
  id             TEXT PRIMARY KEY,
  marketplace_id TEXT NOT NULL,
  taxpayer_id    TEXT,
  ein            TEXT,
  data           TEXT NOT NULL,
  created_at     TEXT NOT NULL,
  deleted_at     TEXT
);
CREATE INDEX IF NOT EXISTS buyers_by_cpf  ON buyers (marketplace_id, taxpayer_id) WHERE deleted_at IS NULL;
CREATE INDEX IF NOT EXISTS buyers_by_cnpj ON buyers (marketplace_id, ein) WHERE deleted_at IS NULL;

CREATE TABLE IF NOT EXISTS bank_accounts (
  id             TEXT PRIMARY KEY,
  marketplace_id TEXT NOT NULL,
  seller_id      TEXT NOT NULL,
  data           TEXT NOT NULL,
  created_at     TEXT NOT NULL,
  deleted_at     TEXT
);
CREATE INDEX IF NOT EXISTS bank_accounts_by_seller ON bank_accounts (marketplace_id, seller_id, created_at);

CREATE TABLE IF NOT EXISTS transactions (
  id             TEXT PRIMARY KEY,
  marketplace_id TEXT NOT NULL,
  seller_id      TEXT NOT NULL,
  reference_id   TEXT,
  terminal       TEXT,
  payment_type   TEXT NOT NULL,
  payment_locale TEXT NOT NULL,
  status         TEXT NOT NULL,
  data           TEXT NOT NULL,
  created_at     TEXT NOT NULL,
  updated_at     TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS transactions_by_reference ON transactions (marketplace_id, reference_id);
CREATE INDEX IF NOT EXISTS transactions_by_terminal  ON transactions (marketplace_id, terminal, status);
CREATE INDEX IF NOT EXISTS transactions_by_created   ON transactions (marketplace_id, created_at);

-- Replays of POSTs that carried an Idempotency-Key (per marketplace).
CREATE TABLE IF NOT EXISTS idempotency_keys (
  marketplace_id TEXT NOT NULL,
  key            TEXT NOT NULL,
  request_hash   TEXT NOT NULL,
  status_code    INTEGER NOT NULL,
  response       TEXT NOT NULL,
  created_at     TEXT NOT NULL,
  PRIMARY KEY (marketplace_id, key)
);

-- Boleto cancellations are applied after a processing delay (contract, cancellation rule 3).
CREATE TABLE IF NOT EXISTS boleto_cancellations (
  transaction_id TEXT PRIMARY KEY,
  marketplace_id TEXT NOT NULL,
  requested_at   TEXT NOT NULL,
  apply_at_ms    INTEGER NOT NULL,
  applied_at     TEXT,
  outcome        TEXT               -- NULL until applied: canceled | ignored
);
CREATE INDEX IF NOT EXISTS boleto_cancellations_due ON boleto_cancellations (applied_at, apply_at_ms);

CREATE TABLE IF NOT EXISTS webhooks (
  id             TEXT PRIMARY KEY,
  marketplace_id TEXT NOT NULL,
  secret         TEXT NOT NULL,
  data           TEXT NOT NULL,
  created_at     TEXT NOT NULL,
  deleted_at     TEXT
);

CREATE TABLE IF NOT EXISTS webhook_deliveries (
  id                   TEXT PRIMARY KEY,
  webhook_id           TEXT NOT NULL,
  marketplace_id       TEXT NOT NULL,
  event_id             TEXT NOT NULL,
  event                TEXT NOT NULL,
  body                 TEXT NOT NULL,
  status               TEXT NOT NULL,   -- pending | succeeded | failed
  attempts             INTEGER NOT NULL DEFAULT 0,
  last_response_status INTEGER,
  last_error           TEXT,
  next_attempt_at_ms   INTEGER,
  created_at           TEXT NOT NULL,
  delivered_at         TEXT
);
CREATE INDEX IF NOT EXISTS webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at_ms);
CREATE INDEX IF NOT EXISTS webhook_deliveries_by_webhook ON webhook_deliveries (webhook_id, created_at);
`;
