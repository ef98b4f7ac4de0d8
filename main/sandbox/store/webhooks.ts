/**
 * Webhook registrations and their delivery log, over the `webhooks` and `webhook_deliveries`
 * tables. A registration's `data` holds what was asked for (url, events, description) and its
 * status; how many events were sent, and when last, is counted from the delivery log so the two
 * can never disagree. Deliveries keep the exact body that is signed and sent, so a retry (or a
 * restart) sends the same bytes. The rowid of a delivery is its creation order.
 */
import type { SandboxDatabase } from './database.js';

export type WebhookStatus = 'active' | 'deleted';
export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

/** The `data` document of a registration. */
export interface WebhookData {
  url: string;
  description: string | null;
  events: string[];
  status: WebhookStatus;
  created_at: string;
  updated_at: string;
}

export interface WebhookRecord extends WebhookData {
  id: string;
  marketplace_id: string;
  secret: string;
  /** Successful deliveries. */
  events_sent: number;
  /** delivered_at of the last successful delivery. */
  last_sent_at: string | null;
}

export interface DeliveryRecord {
  id: string;
  webhook_id: string;
  marketplace_id: string;
  event_id: string;
  event: string;
  body: string;
  status: DeliveryStatus;
  attempts: number;
  last_response_status: number | null;
  last_error: string | null;
  next_attempt_at_ms: number | null;
  created_at: string;
  delivered_at: string | null;
}

interface WebhookRow {
  id: string;
  marketplace_id: string;
  secret: string;
  data: string;
  events_sent: number;
  last_sent_at: string | null;
}

const WEBHOOK_SELECT = `
  SELECT w.id, w.marketplace_id, w.secret, w.data,
         (SELECT COUNT(*) FROM webhook_deliveries d WHERE d.webhook_id = w.id AND d.status = 'succeeded') AS events_sent,
         (SELECT MAX(d.delivered_at) FROM webhook_deliveries d WHERE d.webhook_id = w.id AND d.status = 'succeeded') AS last_sent_at
  FROM webhooks w`;

const toWebhook = (row: WebhookRow): WebhookRecord => ({
  ...(JSON.parse(row.data) as WebhookData),
  id: row.id,
  marketplace_id: row.marketplace_id,
  secret: row.secret,
  events_sent: row.events_sent,
  last_sent_at: row.last_sent_at,
});

export function insertWebhook(
  db: SandboxDatabase,
  record: { id: string; marketplaceId: string; secret: string; data: WebhookData },
): void {
  db.statement('INSERT INTO webhooks (id, marketplace_id, secret, data, created_at) VALUES (?, ?, ?, ?, ?)').run(
    record.id,
    record.marketplaceId,
    record.secret,
    JSON.stringify(record.data),
    record.data.created_at,
  );
}

/** A registration of the marketplace, deleted ones included (their log stays readable). */
export function findWebhook(db: SandboxDatabase, marketplaceId: string, id: string): WebhookRecord | undefined {
  const row = db.statement(`${WEBHOOK_SELECT} WHERE w.id = ? AND w.marketplace_id = ?`).get(id, marketplaceId) as
    WebhookRow | undefined;
  return row ? toWebhook(row) : undefined;
}

export function findWebhookById(db: SandboxDatabase, id: string): WebhookRecord | undefined {
  const row = db.statement(`${WEBHOOK_SELECT} WHERE w.id = ?`).get(id) as WebhookRow | undefined;
  return row ? toWebhook(row) : undefined;
}

/** Active registrations of the marketplace, oldest first. */
export function listWebhooks(
  db: SandboxDatabase,
  marketplaceId: string,
  limit: number,
  offset: number,
): { items: WebhookRecord[]; total: number } {
  const rows = db
    .statement(
      `${WEBHOOK_SELECT} WHERE w.marketplace_id = ? AND w.deleted_at IS NULL ORDER BY w.rowid LIMIT ? OFFSET ?`,
    )
    .all(marketplaceId, limit, offset) as WebhookRow[];
  const { total } = db
    .statement('SELECT COUNT(*) AS total FROM webhooks WHERE marketplace_id = ? AND deleted_at IS NULL')
    .get(marketplaceId) as { total: number };
  return { items: rows.map(toWebhook), total };
}

/** Active registrations of the marketplace that take this event (by name or through "all"). */
export function subscribedWebhooks(db: SandboxDatabase, marketplaceId: string, event: string): WebhookRecord[] {
  const rows = db
    .statement(`${WEBHOOK_SELECT} WHERE w.marketplace_id = ? AND w.deleted_at IS NULL ORDER BY w.rowid`)
    .all(marketplaceId) as WebhookRow[];
  return rows.map(toWebhook).filter((hook) => hook.events.includes(event) || hook.events.includes('all'));
}

/**
 * Marks a registration deleted; its deliveries still waiting are given up (failed, with the
 * reason), so a deleted webhook is never called again.
 */
export function softDeleteWebhook(db: SandboxDatabase, webhook: WebhookRecord, at: string): void {
  const data: WebhookData = {
    url: webhook.url,
    description: webhook.description,
    events: webhook.events,
    status: 'deleted',
    created_at: webhook.created_at,
    updated_at: at,
  };
  db.transaction(() => {
    db.statement('UPDATE webhooks SET data = ?, deleted_at = ? WHERE id = ?').run(JSON.stringify(data), at, webhook.id);
    db.statement(
      `UPDATE webhook_deliveries SET status = 'failed', last_error = 'webhook deleted', next_attempt_at_ms = NULL
       WHERE webhook_id = ? AND status = 'pending'`,
    ).run(webhook.id);
  })();
}

// Deliveries -----------------------------------------------------------------------------------

export function insertDelivery(
  db: SandboxDatabase,
  delivery: Pick<
    DeliveryRecord,
    'id' | 'webhook_id' | 'marketplace_id' | 'event_id' | 'event' | 'body' | 'created_at'
  > & {
    next_attempt_at_ms: number;
  },
): void {
  db.statement(
    `INSERT INTO webhook_deliveries (id, webhook_id, marketplace_id, event_id, event, body, status, attempts, next_attempt_at_ms, created_at)
     VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?)`,
  ).run(
    delivery.id,
    delivery.webhook_id,
    delivery.marketplace_id,
    delivery.event_id,
    delivery.event,
    delivery.body,
    delivery.next_attempt_at_ms,
    delivery.created_at,
  );
}

export function findDelivery(db: SandboxDatabase, webhookId: string, id: string): DeliveryRecord | undefined {
  return db.statement('SELECT * FROM webhook_deliveries WHERE id = ? AND webhook_id = ?').get(id, webhookId) as
    DeliveryRecord | undefined;
}

/** A webhook's delivery log, newest first. */
export function listDeliveries(
  db: SandboxDatabase,
  webhookId: string,
  limit: number,
  offset: number,
): { items: DeliveryRecord[]; total: number } {
  const items = db
    .statement('SELECT * FROM webhook_deliveries WHERE webhook_id = ? ORDER BY rowid DESC LIMIT ? OFFSET ?')
    .all(webhookId, limit, offset) as DeliveryRecord[];
  const { total } = db
    .statement('SELECT COUNT(*) AS total FROM webhook_deliveries WHERE webhook_id = ?')
    .get(webhookId) as {
    total: number;
  };
  return { items, total };
}

/**
 * For each webhook not in `busy`, its oldest pending delivery that is due by `dueBy` (ms): the
 * next one to send. One per webhook keeps a webhook's deliveries one at a time, in creation order.
 */
export function nextDueDeliveries(db: SandboxDatabase, dueBy: number, busy: readonly string[]): DeliveryRecord[] {
  const rows = db
    .statement(
      `SELECT * FROM webhook_deliveries
       WHERE status = 'pending' AND next_attempt_at_ms <= ? AND webhook_id NOT IN (SELECT value FROM json_each(?))
       ORDER BY rowid`,
    )
    .all(dueBy, JSON.stringify(busy)) as DeliveryRecord[];
  const seen = new Set<string>();
  return rows.filter((row) => !seen.has(row.webhook_id) && Boolean(seen.add(row.webhook_id)));
}

/** The earliest next attempt (ms) among pending deliveries of webhooks not in `busy`. */
export function earliestPendingAttempt(db: SandboxDatabase, busy: readonly string[]): number | undefined {
  const row = db
    .statement(
      `SELECT MIN(next_attempt_at_ms) AS at FROM webhook_deliveries
       WHERE status = 'pending' AND webhook_id NOT IN (SELECT value FROM json_each(?))`,
    )
    .get(JSON.stringify(busy)) as { at: number | null };
  return row.at ?? undefined;
}

export function countPendingDeliveries(db: SandboxDatabase): number {
  return (db.statement("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status = 'pending'").get() as { n: number })
    .n;
}

/** The outcome of one attempt. */
export type AttemptOutcome =
  | { readonly kind: 'succeeded'; readonly responseStatus: number; readonly deliveredAt: string }
  | {
      readonly kind: 'retry' | 'failed';
      readonly responseStatus: number | null;
      readonly error: string;
      /** When to try again (retry only). */
      readonly nextAttemptAtMs?: number;
    };

export function recordAttempt(db: SandboxDatabase, id: string, attempts: number, outcome: AttemptOutcome): void {
  if (outcome.kind === 'succeeded') {
    db.statement(
      `UPDATE webhook_deliveries SET status = 'succeeded', attempts = ?, last_response_status = ?, last_error = NULL,
         next_attempt_at_ms = NULL, delivered_at = ? WHERE id = ?`,
    ).run(attempts, outcome.responseStatus, outcome.deliveredAt, id);
    return;
  }
  db.statement(
    `UPDATE webhook_deliveries SET status = ?, attempts = ?, last_response_status = ?, last_error = ?, next_attempt_at_ms = ?
     WHERE id = ?`,
  ).run(
    outcome.kind === 'retry' ? 'pending' : 'failed',
    attempts,
    outcome.responseStatus,
    outcome.error,
    outcome.kind === 'retry' ? (outcome.nextAttemptAtMs ?? null) : null,
    id,
  );
}

/** Gives up a delivery without an attempt (its webhook was deleted meanwhile). */
export function abandonDelivery(db: SandboxDatabase, id: string, reason: string): void {
  db.statement(
    "UPDATE webhook_deliveries SET status = 'failed', last_error = ?, next_attempt_at_ms = NULL WHERE id = ? AND status = 'pending'",
  ).run(reason, id);
}

/** Puts a failed delivery back in the queue, due at `atMs`; false if it was not failed. */
export function requeueDelivery(db: SandboxDatabase, id: string, atMs: number): boolean {
  const result = db
    .statement(
      "UPDATE webhook_deliveries SET status = 'pending', next_attempt_at_ms = ? WHERE id = ? AND status = 'failed'",
    )
    .run(atMs, id);
  return result.changes > 0;
}
