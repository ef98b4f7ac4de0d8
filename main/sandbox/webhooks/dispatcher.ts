/**
 * Webhook delivery. `emit` writes one delivery row per subscribed webhook at once (so an event is
 * never lost, even if the sandbox stops right after) and leaves the sending to a queue:
 *
 * - a delivery is a signed POST of its stored body (Standard Webhooks headers, see signature.ts);
 *   any 2xx within `webhookTimeoutMs` is success, anything else (other status, timeout,
 *   connection error) is retried after `webhookRetryBaseMs × 2^(attempt-1)` plus up to 10% jitter,
 *   `webhookAttempts` attempts in all, then the delivery is `failed`;
 * - a webhook gets one request at a time, its due deliveries oldest first (a delivery waiting for
 *   a retry does not hold back the ones behind it); different webhooks are served concurrently;
 * - due deliveries are found by one timer armed for the earliest `next_attempt_at_ms` (no polling).
 *   When it fires, everything due by the time it was armed for counts as due, so retries still
 *   happen under a test clock that does not move;
 * - pending deliveries left by a previous run are resumed on start; `close()` stops the timer and
 *   aborts requests in flight, leaving those deliveries pending for the next run.
 *
 * Times (next attempt, timestamps, the signature's timestamp) come from the sandbox clock.
 */
import { backoffDelay } from '../../../lib/backoff.js';
import type { SandboxContext, WebhookEmitter, WebhookEventInput } from '../context.js';
import {
  abandonDelivery,
  countPendingDeliveries,
  earliestPendingAttempt,
  findWebhookById,
  insertDelivery,
  nextDueDeliveries,
  recordAttempt,
  requeueDelivery,
  subscribedWebhooks,
  type AttemptOutcome,
  type DeliveryRecord,
} from '../store/webhooks.js';
import { newId, offsetTimestamp } from '../time.js';
import { WEBHOOK_HEADERS } from '../../contract/index.js';
import { signWebhook } from './signature.js';

export const WEBHOOK_USER_AGENT = 'pinbridge-sandbox-webhooks/1';
/** Share of the backoff added at random, so receivers that fail together are not retried together. */
const JITTER = 0.1;
const MAX_ERROR_LENGTH = 200;
/** setTimeout's largest delay (a longer one would fire at once); the round then re-arms. */
const MAX_TIMER_MS = 2_147_483_647;

/** The sandbox's webhook emitter. */
export type WebhookDispatcher = WebhookEmitter;

type Ctx = Omit<SandboxContext, 'webhooks'>;

/** The next attempt's delay after `attempt` (1-based) failed. */
export function retryDelayMs(baseMs: number, attempt: number, random: () => number = Math.random): number {
  return Math.round(backoffDelay(attempt, { baseMs, jitter: { kind: 'added', ratio: JITTER } }, random));
}

export function createWebhookDispatcher(ctx: Ctx): WebhookDispatcher {
  const { db, settings, log } = ctx;
  let closed = false;
  let kick: NodeJS.Immediate | undefined;
  let timer: NodeJS.Timeout | undefined;
  /** Webhooks with a request in flight, and those requests. */
  const inFlight = new Map<string, { controller: AbortController; done: Promise<void> }>();
  let flushWaiters: Array<() => void> = [];

  /** Runs a processing round soon (coalesced). */
  function schedule(): void {
    if (closed || kick !== undefined) return;
    kick = setImmediate(() => {
      kick = undefined;
      processDue();
    });
  }

  /** One round: send what is due, then arm the timer for the earliest attempt still waiting. */
  function processDue(firedFor?: number): void {
    if (closed) return;
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    try {
      const now = ctx.now().getTime();
      // The timer's own target counts as due when it fires, whatever the (test) clock says.
      const dueBy = Math.max(now, firedFor ?? now);
      for (const delivery of nextDueDeliveries(db, dueBy, [...inFlight.keys()])) start(delivery);
      const next = earliestPendingAttempt(db, [...inFlight.keys()]);
      if (next !== undefined) {
        timer = setTimeout(() => processDue(next), Math.min(MAX_TIMER_MS, Math.max(0, next - now)));
        timer.unref();
      }
      settleFlushWaiters();
    } catch (error) {
      log.error({ err: error }, 'webhook queue processing failed');
    }
  }

  function start(delivery: DeliveryRecord): void {
    const controller = new AbortController();
    const done = attempt(delivery, controller.signal)
      .catch((error: unknown) => log.error({ err: error, delivery: delivery.id }, 'webhook delivery attempt failed'))
      .finally(() => {
        inFlight.delete(delivery.webhook_id);
        schedule();
      });
    inFlight.set(delivery.webhook_id, { controller, done });
  }

  async function attempt(delivery: DeliveryRecord, closing: AbortSignal): Promise<void> {
    const webhook = findWebhookById(db, delivery.webhook_id);
    if (webhook === undefined || webhook.status !== 'active') {
      abandonDelivery(db, delivery.id, 'webhook deleted');
      return;
    }
    const attempts = delivery.attempts + 1;
    const timestamp = Math.floor(ctx.now().getTime() / 1000);
    const headers = {
      'content-type': 'application/json',
      'user-agent': WEBHOOK_USER_AGENT,
      [WEBHOOK_HEADERS.id]: delivery.event_id,
      [WEBHOOK_HEADERS.timestamp]: String(timestamp),
      [WEBHOOK_HEADERS.signature]: signWebhook({
        secret: webhook.secret,
        id: delivery.event_id,
        timestamp,
        body: delivery.body,
      }),
    };
    const timeout = AbortSignal.timeout(settings.webhookTimeoutMs);
    let responseStatus: number | null = null;
    let error: string | undefined;
    try {
      // Only the registered URL, and no redirects: a 3xx is a failure (Standard Webhooks,
      // "Delivery success and failure"), never a request to somewhere else.
      const response = await fetch(webhook.url, {
        method: 'POST',
        headers,
        body: delivery.body,
        redirect: 'manual',
        signal: AbortSignal.any([closing, timeout]),
      });
      responseStatus = response.status;
      // The answer's body is not read; cancelling it frees the connection.
      await response.body?.cancel().catch(() => undefined);
      if (response.status < 200 || response.status > 299) error = `HTTP ${response.status}`;
    } catch (caught) {
      if (closing.aborted) return; // closing: left pending, the next run sends it again
      error = timeout.aborted ? `timeout after ${settings.webhookTimeoutMs} ms` : describeFetchError(caught);
    }
    if (closed) return;

    let outcome: AttemptOutcome;
    if (error === undefined) {
      outcome = { kind: 'succeeded', responseStatus: responseStatus ?? 0, deliveredAt: offsetTimestamp(ctx.now()) };
    } else if (attempts < settings.webhookAttempts) {
      const nextAttemptAtMs = ctx.now().getTime() + retryDelayMs(settings.webhookRetryBaseMs, attempts);
      outcome = { kind: 'retry', responseStatus, error, nextAttemptAtMs };
    } else {
      outcome = { kind: 'failed', responseStatus, error };
    }
    recordAttempt(db, delivery.id, attempts, outcome);
    log.debug(
      { delivery: delivery.id, webhook: webhook.id, attempts, outcome: outcome.kind, error },
      'webhook delivery attempt',
    );
  }

  function settleFlushWaiters(): void {
    if (flushWaiters.length === 0 || inFlight.size > 0 || kick !== undefined) return;
    if (!closed && countPendingDeliveries(db) > 0) return;
    const waiters = flushWaiters;
    flushWaiters = [];
    for (const resolve of waiters) resolve();
  }

  ctx.onClose(async () => {
    closed = true;
    if (kick !== undefined) clearImmediate(kick);
    if (timer !== undefined) clearTimeout(timer);
    kick = undefined;
    timer = undefined;
    const running = [...inFlight.values()];
    for (const { controller } of running) controller.abort();
    await Promise.all(running.map(({ done }) => done));
    settleFlushWaiters();
  });

  // Deliveries a previous run left pending.
  schedule();

  return {
    emit(marketplaceId: string, event: WebhookEventInput): void {
      if (closed) {
        log.warn({ event: event.event }, 'webhook event emitted after the sandbox closed; dropped');
        return;
      }
      try {
        const eventId = `evt_${newId()}`;
        const body = JSON.stringify({ id: eventId, ...event });
        const now = ctx.now();
        const webhooks = subscribedWebhooks(db, marketplaceId, event.event);
        if (webhooks.length === 0) return;
        db.transaction(() => {
          for (const webhook of webhooks) {
            insertDelivery(db, {
              id: newId(),
              webhook_id: webhook.id,
              marketplace_id: marketplaceId,
              event_id: eventId,
              event: event.event,
              body,
              created_at: offsetTimestamp(now),
              next_attempt_at_ms: now.getTime(),
            });
          }
        })();
        schedule();
      } catch (error) {
        // The caller (a payment that just changed state) must not fail because of its webhook.
        log.error({ err: error, marketplaceId, event: event.event }, 'could not queue webhook deliveries');
      }
    },

    retry(deliveryId: string): boolean {
      if (closed || !requeueDelivery(db, deliveryId, ctx.now().getTime())) return false;
      schedule();
      return true;
    },

    flush: () =>
      new Promise<void>((resolve) => {
        flushWaiters.push(resolve);
        schedule();
        if (closed) settleFlushWaiters();
      }),
  };
}

/** A short reason for a request that got no answer ("connection refused", …). */
function describeFetchError(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = (cause as { code?: unknown } | null)?.code;
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return 'connection closed before an answer';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host not found';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'host unreachable';
    default: {
      const message = cause instanceof Error ? cause.message : String(cause);
      return message.slice(0, MAX_ERROR_LENGTH);
    }
  }
}
