import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorA, ListEnvelope, Webhook, WebhookDelivery } from '../../../main/contract/index.js';
import type { WebhookEventInput } from '../../../main/sandbox/context.js';
import { startSandbox, type RunningSandbox } from '../../../main/sandbox/server.js';
import type { WebhookDispatcher } from '../../../main/sandbox/webhooks/dispatcher.js';
import { verifyWebhook, WebhookVerificationError } from '../../../main/sandbox/webhooks/signature.js';
import { call, eventually, freshMarket, startReceiver, type Market, type Reply } from '../../helpers/sandbox.js';
import { thrown } from '../../helpers/thrown.js';

const SETTINGS = { webhookRetryBaseMs: 20, webhookAttempts: 3, webhookTimeoutMs: 300 };

// Small helpers -----------------------------------------------------------------------------------

const webhooksPath = (mp: Market): string => `/v1/marketplaces/${mp.id}/webhooks`;

async function register(mp: Market, url: string, event: string[] = ['all']): Promise<Webhook & { secret: string }> {
  const answer = await call<Webhook & { secret: string }>(mp, 'POST', webhooksPath(mp), { url, event });
  expect(answer.status).toBe(201);
  return answer.body;
}

async function deliveries(mp: Market, webhookId: string): Promise<WebhookDelivery[]> {
  const answer = await call<ListEnvelope<WebhookDelivery>>(mp, 'GET', `${webhooksPath(mp)}/${webhookId}/deliveries`);
  expect(answer.status).toBe(200);
  return answer.body.items;
}

async function settledDelivery(mp: Market, webhookId: string): Promise<WebhookDelivery> {
  return eventually(async () => {
    const [latest] = await deliveries(mp, webhookId);
    return latest !== undefined && latest.status !== 'pending' ? latest : undefined;
  }, 'the delivery to settle');
}

function dispatcherOf(sandbox: RunningSandbox): WebhookDispatcher {
  return sandbox.context.webhooks;
}

const transactionSucceeded = (reference = 'PEDIDO-1001'): WebhookEventInput => ({
  event: 'transaction.succeeded',
  transaction_id: '9f8e7d6c5b4a39281706f5e4d3c2b1a0',
  payment_locale: 'pinpad',
  payment_type: 'credit',
  status: 'succeeded',
  amount: 15_990,
  installment_plan: { number_installments: 3 },
  authorization_code: '123456',
  nsu: '000123',
  terminal: 'PDV-01',
  card: { brand: 'Visa', last4: '0010', entry_mode: 'chip' },
  reference_id: reference,
  approved_at: '2026-03-02T12:00:00+00:00',
});

const transactionFailed: WebhookEventInput = {
  event: 'transaction.failed',
  transaction_id: '0a1b2c3d4e5f60718293a4b5c6d7e8f9',
  payment_locale: 'tap_to_pay',
  payment_type: 'debit',
  status: 'failed',
  error_code: 'card_declined',
  error_message: 'Card declined by the issuer',
  reference_id: 'PEDIDO-1002',
  failed_at: '2026-03-02T12:01:00+00:00',
};

const transactionCanceled: WebhookEventInput = {
  event: 'transaction.canceled',
  transaction_id: '9f8e7d6c5b4a39281706f5e4d3c2b1a0',
  payment_locale: 'pinpad',
  payment_type: 'credit',
  status: 'canceled',
  amount: 15_990,
  reference_id: 'PEDIDO-1001',
  canceled_at: '2026-03-02T12:05:00+00:00',
};

const WEBHOOK_FIELDS = [
  'created_at',
  'description',
  'events',
  'events_sent',
  'id',
  'last_sent_at',
  'marketplace_id',
  'method',
  'resource',
  'status',
  'updated_at',
  'uri',
  'url',
];

const DELIVERY_FIELDS = [
  'attempts',
  'created_at',
  'delivered_at',
  'event',
  'event_id',
  'id',
  'last_error',
  'last_response_status',
  'next_attempt_at',
  'resource',
  'status',
  'webhook_id',
];

const sortedKeys = (value: object): string[] => Object.keys(value).sort();

function expectErrorA(answer: Reply<unknown>, status: number, detail: RegExp | string): void {
  expect(answer.status).toBe(status);
  const body = answer.body as ErrorA;
  expect(sortedKeys(body)).toEqual(['detail', 'status', 'trace_id']);
  expect(body.status).toBe(status);
  if (typeof detail === 'string') expect(body.detail).toBe(detail);
  else expect(body.detail).toMatch(detail);
}

// -------------------------------------------------------------------------------------------------

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ settings: SETTINGS });
});

afterAll(async () => {
  await sandbox.close();
});

describe('webhook registration', () => {
  it('registers a webhook and shows its signing secret only in the answer to the creation', async () => {
    const mp = await freshMarket(sandbox);
    const created = await call<Webhook>(mp, 'POST', webhooksPath(mp), {
      url: 'https://pos.example.com/hooks/payments',
      event: ['transaction.succeeded', 'transaction.failed', 'transaction.succeeded'],
      description: 'POS back end',
      method: 'POST',
    });
    expect(created.status).toBe(201);
    expect(sortedKeys(created.body)).toEqual([...WEBHOOK_FIELDS, 'secret'].sort());
    const { secret, ...view } = created.body;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from((secret ?? '').slice('whsec_'.length), 'base64')).toHaveLength(24);
    expect(view).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{32}$/) as unknown,
      resource: 'webhook',
      uri: `${webhooksPath(mp)}/${view.id}`,
      method: 'POST',
      url: 'https://pos.example.com/hooks/payments',
      description: 'POS back end',
      events: ['transaction.succeeded', 'transaction.failed'],
      status: 'active',
      events_sent: 0,
      last_sent_at: null,
      marketplace_id: mp.id,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/) as unknown,
      updated_at: view.created_at,
    });

    const fetched = await call<Webhook>(mp, 'GET', `${webhooksPath(mp)}/${view.id}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(view);

    const listed = await call<ListEnvelope<Webhook>>(mp, 'GET', webhooksPath(mp));
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({
      resource: 'list',
      uri: webhooksPath(mp),
      items: [view],
      has_more: false,
      limit: 100,
      offset: 0,
      total: 1,
    });
  });

  it('gives a registration without description a null one, and a different secret to each webhook', async () => {
    const mp = await freshMarket(sandbox);
    const a = await register(mp, 'http://127.0.0.1:9/a');
    const b = await register(mp, 'http://127.0.0.1:9/b', ['transaction.canceled']);
    expect(a.description).toBeNull();
    expect(a.events).toEqual(['all']);
    expect(a.secret).not.toBe(b.secret);
  });

  it('lists webhooks oldest first, pages with limit and offset, and refuses a limit above 100', async () => {
    const mp = await freshMarket(sandbox);
    const ids: string[] = [];
    for (const path of ['one', 'two', 'three']) ids.push((await register(mp, `https://example.com/${path}`)).id);

    const first = await call<ListEnvelope<Webhook>>(mp, 'GET', `${webhooksPath(mp)}?limit=2`);
    expect(first.body.items.map((w) => w.id)).toEqual(ids.slice(0, 2));
    expect(first.body).toMatchObject({ has_more: true, limit: 2, offset: 0, total: 3, uri: webhooksPath(mp) });
    for (const item of first.body.items) expect(item).not.toHaveProperty('secret');

    const rest = await call<ListEnvelope<Webhook>>(mp, 'GET', `${webhooksPath(mp)}?limit=2&offset=2`);
    expect(rest.body.items.map((w) => w.id)).toEqual(ids.slice(2));
    expect(rest.body).toMatchObject({ has_more: false, limit: 2, offset: 2, total: 3 });

    expectErrorA(await call(mp, 'GET', `${webhooksPath(mp)}?limit=101`), 400, /limit/);
  });

  it('refuses a bad URL, an unknown event name and malformed bodies with 400 (shape A)', async () => {
    const mp = await freshMarket(sandbox);
    const post = (body: unknown) => call(mp, 'POST', webhooksPath(mp), body);
    expectErrorA(
      await post({ url: 'ftp://example.com/hook', event: ['all'] }),
      400,
      'Field url must be an http or https URL',
    );
    expectErrorA(
      await post({ url: 'mailto:ops@example.com', event: ['all'] }),
      400,
      'Field url must be an http or https URL',
    );
    expectErrorA(await post({ url: 'not a url', event: ['all'] }), 400, /url/);
    expectErrorA(await post({ url: 'https://example.com/h', event: ['transaction.paid'] }), 400, /event/);
    expectErrorA(await post({ url: 'https://example.com/h', event: [] }), 400, /event/);
    expectErrorA(await post({ url: 'https://example.com/h', event: 'all' }), 400, /event/);
    expectErrorA(await post({ url: 'https://example.com/h', event: ['all', 'transaction.failed'] }), 400, /\["all"\]/);
    expectErrorA(await post({ event: ['all'] }), 400, 'Field url is required');
    expectErrorA(await post({ url: 'https://example.com/h' }), 400, 'Field event is required');
    expectErrorA(await post({ url: 'https://example.com/h', event: ['all'], method: 'GET' }), 400, /method/);
    expectErrorA(await post({ url: 'https://example.com/h', event: ['all'], secret: 'whsec_mine' }), 400, /secret/);

    const listed = await call<ListEnvelope<Webhook>>(mp, 'GET', webhooksPath(mp));
    expect(listed.body.total).toBe(0);
  });

  it('deletes a webhook softly: gone from the list, still readable with status "deleted"', async () => {
    const mp = await freshMarket(sandbox);
    const webhook = await register(mp, 'https://example.com/hook');
    const deleted = await call(mp, 'DELETE', `${webhooksPath(mp)}/${webhook.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ id: webhook.id, resource: 'webhook', deleted: true });

    const fetched = await call<Webhook>(mp, 'GET', `${webhooksPath(mp)}/${webhook.id}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body.status).toBe('deleted');
    expect(fetched.body).not.toHaveProperty('secret');

    const listed = await call<ListEnvelope<Webhook>>(mp, 'GET', webhooksPath(mp));
    expect(listed.body.items).toEqual([]);
    expect(await call(mp, 'DELETE', `${webhooksPath(mp)}/${webhook.id}`)).toEqual(deleted);
  });

  it("answers 404 for unknown ids and keeps each marketplace's webhooks to itself", async () => {
    const mine = await freshMarket(sandbox);
    const theirs = await freshMarket(sandbox);
    const webhook = await register(mine, 'https://example.com/hook');
    const unknown = '0123456789abcdef0123456789abcdef';

    expectErrorA(await call(mine, 'GET', `${webhooksPath(mine)}/${unknown}`), 404, `Webhook not found: ${unknown}`);
    expectErrorA(await call(mine, 'GET', `${webhooksPath(mine)}/not-an-id`), 404, 'Webhook not found: not-an-id');
    expectErrorA(await call(mine, 'DELETE', `${webhooksPath(mine)}/${unknown}`), 404, /Webhook not found/);
    expectErrorA(await call(mine, 'GET', `${webhooksPath(mine)}/${unknown}/deliveries`), 404, /Webhook not found/);
    expectErrorA(
      await call(mine, 'POST', `${webhooksPath(mine)}/${webhook.id}/deliveries/${unknown}/retry`),
      404,
      `Webhook delivery not found: ${unknown}`,
    );

    // Another marketplace's token, on its own path: the webhook does not exist there.
    for (const [method, suffix] of [
      ['GET', ''],
      ['DELETE', ''],
      ['GET', '/deliveries'],
    ] as const) {
      expectErrorA(
        await call(theirs, method, `${webhooksPath(theirs)}/${webhook.id}${suffix}`),
        404,
        /Webhook not found/,
      );
    }
    const theirList = await call<ListEnvelope<Webhook>>(theirs, 'GET', webhooksPath(theirs));
    expect(theirList.body.total).toBe(0);
    // …and on the owner's path, the marketplace itself is not found.
    expectErrorA(
      await call(theirs, 'GET', `${webhooksPath(mine)}/${webhook.id}`),
      404,
      `Marketplace not found: ${mine.id}`,
    );

    const stillThere = await call<Webhook>(mine, 'GET', `${webhooksPath(mine)}/${webhook.id}`);
    expect(stillThere.body.status).toBe('active');
  });

  it('needs a bearer token', async () => {
    const mp = await freshMarket(sandbox);
    const response = await fetch(`${sandbox.url}${webhooksPath(mp)}`);
    expect(response.status).toBe(401);
  });
});

describe('webhook deliveries', () => {
  it('queues the delivery synchronously and sends the exact body, signed, to the registered URL', async () => {
    const receiver = await startReceiver();
    try {
      const mp = await freshMarket(sandbox);
      const webhook = await register(mp, `${receiver.url}/hooks/pinbridge?store=1`, ['transaction.succeeded']);
      const event = transactionSucceeded();

      sandbox.context.webhooks.emit(mp.id, event);
      // Written before emit returned, before any delivery could run.
      const rows = sandbox.context.db
        .statement('SELECT status, attempts, body FROM webhook_deliveries WHERE webhook_id = ?')
        .all(webhook.id) as Array<{ status: string; attempts: number; body: string }>;
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ status: 'pending', attempts: 0 });

      const [got] = await eventually(
        () => (receiver.received.length > 0 ? receiver.received : undefined),
        'the delivery',
      );
      if (got === undefined) throw new Error('no delivery');
      expect(got.path).toBe('/hooks/pinbridge?store=1');
      expect(got.body).toBe(rows[0]?.body);
      const parsed = JSON.parse(got.body) as Record<string, unknown>;
      expect(parsed).toEqual({ id: expect.stringMatching(/^evt_[0-9a-f]{32}$/) as unknown, ...event });
      expect(got.headers['content-type']).toBe('application/json');
      expect(got.headers['user-agent']).toBe('pinbridge-sandbox-webhooks/1');
      expect(got.headers['webhook-id']).toBe(parsed.id);
      expect(got.headers['webhook-timestamp']).toMatch(/^\d{10}$/);
      expect(got.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);

      expect(verifyWebhook({ secret: webhook.secret, headers: got.headers, body: got.body })).toBe(true);
      const otherSecret = (await register(mp, 'https://example.com/other')).secret;
      for (const attempt of [
        () => verifyWebhook({ secret: otherSecret, headers: got.headers, body: got.body }),
        () => verifyWebhook({ secret: webhook.secret, headers: got.headers, body: got.body.replace('15990', '1599') }),
        () =>
          verifyWebhook({
            secret: webhook.secret,
            headers: got.headers,
            body: got.body,
            now: new Date(Date.now() + 10 * 60_000),
          }),
      ]) {
        expect(thrown(attempt)).toBeInstanceOf(WebhookVerificationError);
      }

      const delivery = await settledDelivery(mp, webhook.id);
      expect(sortedKeys(delivery)).toEqual(DELIVERY_FIELDS);
      expect(delivery).toMatchObject({
        resource: 'webhook_delivery',
        webhook_id: webhook.id,
        event_id: parsed.id,
        event: 'transaction.succeeded',
        status: 'succeeded',
        attempts: 1,
        last_response_status: 200,
        last_error: null,
        next_attempt_at: null,
      });
      expect(delivery.delivered_at).toMatch(/\+00:00$/);

      const after = await call<Webhook>(mp, 'GET', `${webhooksPath(mp)}/${webhook.id}`);
      expect(after.body).toMatchObject({ events_sent: 1, last_sent_at: delivery.delivered_at });
    } finally {
      await receiver.close();
    }
  });

  it('retries a failing receiver with backoff: 500, 500, then 200 succeeds on the third attempt', async () => {
    const receiver = await startReceiver((index) => (index < 2 ? 500 : 200));
    try {
      const mp = await freshMarket(sandbox);
      const webhook = await register(mp, `${receiver.url}/hook`, ['transaction.succeeded']);
      sandbox.context.webhooks.emit(mp.id, transactionSucceeded());

      const delivery = await settledDelivery(mp, webhook.id);
      expect(delivery).toMatchObject({ status: 'succeeded', attempts: 3, last_response_status: 200, last_error: null });
      expect(receiver.received).toHaveLength(3);
      // Every attempt carries the same event id and body, freshly signed.
      const ids = new Set(receiver.received.map((r) => r.headers['webhook-id']));
      expect([...ids]).toEqual([delivery.event_id]);
      for (const request of receiver.received) {
        expect(request.body).toBe(receiver.received[0]?.body);
        expect(verifyWebhook({ secret: webhook.secret, headers: request.headers, body: request.body })).toBe(true);
      }
      const after = await call<Webhook>(mp, 'GET', `${webhooksPath(mp)}/${webhook.id}`);
      expect(after.body.events_sent).toBe(1);
    } finally {
      await receiver.close();
    }
  });

  it('gives up after webhookAttempts attempts when the receiver keeps answering 500', async () => {
    const receiver = await startReceiver(() => 500);
    try {
      const mp = await freshMarket(sandbox);
      const webhook = await register(mp, `${receiver.url}/hook`);
      sandbox.context.webhooks.emit(mp.id, transactionFailed);

      const delivery = await settledDelivery(mp, webhook.id);
      expect(delivery).toMatchObject({
        status: 'failed',
        attempts: 3,
        last_response_status: 500,
        last_error: 'HTTP 500',
        next_attempt_at: null,
        delivered_at: null,
      });
      await dispatcherOf(sandbox).flush();
      expect(receiver.received).toHaveLength(3);
      const after = await call<Webhook>(mp, 'GET', `${webhooksPath(mp)}/${webhook.id}`);
      expect(after.body).toMatchObject({ events_sent: 0, last_sent_at: null });
    } finally {
      await receiver.close();
    }
  });

  it('records a timeout when the receiver does not answer in time', async () => {
    const receiver = await startReceiver(() => 'hang');
    try {
      const mp = await freshMarket(sandbox);
      const webhook = await register(mp, `${receiver.url}/slow`);
      sandbox.context.webhooks.emit(mp.id, transactionFailed);

      const delivery = await settledDelivery(mp, webhook.id);
      expect(delivery).toMatchObject({
        status: 'failed',
        attempts: 3,
        last_response_status: null,
        last_error: 'timeout after 300 ms',
      });
      expect(receiver.received).toHaveLength(3);
    } finally {
      await receiver.close();
    }
  });

  it('sends each webhook only the events it subscribed to ("all" gets everything), in order', async () => {
    const receiver = await startReceiver();
    try {
      const mp = await freshMarket(sandbox);
      await register(mp, `${receiver.url}/failed-only`, ['transaction.failed']);
      await register(mp, `${receiver.url}/all`, ['all']);
      await register(mp, `${receiver.url}/outcomes`, ['transaction.succeeded', 'transaction.canceled']);

      for (const event of [transactionSucceeded(), transactionFailed, transactionCanceled])
        sandbox.context.webhooks.emit(mp.id, event);
      await dispatcherOf(sandbox).flush();

      const eventsAt = (path: string) =>
        receiver.received.filter((r) => r.path === path).map((r) => (JSON.parse(r.body) as { event: string }).event);
      expect(eventsAt('/failed-only')).toEqual(['transaction.failed']);
      expect(eventsAt('/all')).toEqual(['transaction.succeeded', 'transaction.failed', 'transaction.canceled']);
      expect(eventsAt('/outcomes')).toEqual(['transaction.succeeded', 'transaction.canceled']);
      // One event, one id, whichever webhook it went to.
      const succeededIds = new Set(
        receiver.received.filter((r) => r.body.includes('"transaction.succeeded"')).map((r) => r.headers['webhook-id']),
      );
      expect(succeededIds.size).toBe(1);
    } finally {
      await receiver.close();
    }
  });

  it("does not send one marketplace's events to another marketplace's webhooks", async () => {
    const receiver = await startReceiver();
    try {
      const emitting = await freshMarket(sandbox);
      const other = await freshMarket(sandbox);
      await register(emitting, `${receiver.url}/emitting`);
      const otherHook = await register(other, `${receiver.url}/other`);

      sandbox.context.webhooks.emit(emitting.id, transactionSucceeded());
      await dispatcherOf(sandbox).flush();
      expect(receiver.received.map((r) => r.path)).toEqual(['/emitting']);
      expect(await deliveries(other, otherHook.id)).toEqual([]);
    } finally {
      await receiver.close();
    }
  });

  it('sends nothing to a deleted webhook', async () => {
    const receiver = await startReceiver();
    try {
      const mp = await freshMarket(sandbox);
      const webhook = await register(mp, `${receiver.url}/deleted`);
      expect((await call(mp, 'DELETE', `${webhooksPath(mp)}/${webhook.id}`)).status).toBe(200);

      sandbox.context.webhooks.emit(mp.id, transactionSucceeded());
      await dispatcherOf(sandbox).flush();
      expect(receiver.received).toEqual([]);
      expect(await deliveries(mp, webhook.id)).toEqual([]);
    } finally {
      await receiver.close();
    }
  });

  it('retries a failed delivery on request: one more attempt each time, until it succeeds', async () => {
    const receiver = await startReceiver(() => 503);
    try {
      const mp = await freshMarket(sandbox);
      const webhook = await register(mp, `${receiver.url}/hook`);
      sandbox.context.webhooks.emit(mp.id, transactionCanceled);
      const failed = await settledDelivery(mp, webhook.id);
      expect(failed).toMatchObject({ status: 'failed', attempts: 3, last_error: 'HTTP 503' });
      const retryPath = `${webhooksPath(mp)}/${webhook.id}/deliveries/${failed.id}/retry`;

      const requeued = await call<WebhookDelivery>(mp, 'POST', retryPath);
      expect(requeued.status).toBe(202);
      expect(sortedKeys(requeued.body)).toEqual(DELIVERY_FIELDS);
      expect(requeued.body).toMatchObject({ id: failed.id, status: 'pending', attempts: 3 });
      expect(requeued.body.next_attempt_at).toMatch(/\+00:00$/);
      expect(await settledDelivery(mp, webhook.id)).toMatchObject({
        status: 'failed',
        attempts: 4,
        last_error: 'HTTP 503',
      });

      receiver.answer = () => 204;
      expect((await call(mp, 'POST', retryPath)).status).toBe(202);
      const delivered = await settledDelivery(mp, webhook.id);
      expect(delivered).toMatchObject({
        status: 'succeeded',
        attempts: 5,
        last_response_status: 204,
        last_error: null,
      });
      expect(receiver.received).toHaveLength(5);
      expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);

      expectErrorA(
        await call(mp, 'POST', retryPath),
        409,
        'Only a failed delivery can be retried; this one is succeeded',
      );
    } finally {
      await receiver.close();
    }
  });

  it('keeps a delivery pending with the error and the time of its next attempt, while other webhooks carry on', async () => {
    // A long backoff holds the failing delivery between its first and second attempt.
    const slow = await startSandbox({ settings: { ...SETTINGS, webhookRetryBaseMs: 60_000 } });
    const gone = await startReceiver();
    await gone.close(); // nothing listens on its port now: connection refused
    const healthy = await startReceiver();
    try {
      const mp = await freshMarket(slow);
      const failing = await register(mp, `${gone.url}/hook`);
      await register(mp, `${healthy.url}/hook`);
      slow.context.webhooks.emit(mp.id, transactionSucceeded());
      const pending = await eventually(async () => {
        const [latest] = await deliveries(mp, failing.id);
        return latest !== undefined && latest.attempts === 1 ? latest : undefined;
      }, 'the first attempt');
      expect(pending).toMatchObject({
        status: 'pending',
        attempts: 1,
        last_response_status: null,
        last_error: 'connection refused',
        delivered_at: null,
      });
      const next = Date.parse(pending.next_attempt_at ?? '');
      expect(next).toBeGreaterThan(Date.parse(pending.created_at) + 50_000);

      // The healthy webhook gets this event and the next one; the failing one waits its turn.
      slow.context.webhooks.emit(mp.id, transactionFailed);
      await eventually(() => (healthy.received.length === 2 ? true : undefined), 'both events at the healthy receiver');
      const failingLog = await eventually(async () => {
        const log = await deliveries(mp, failing.id);
        return log.length === 2 && log.every((d) => d.attempts === 1) ? log : undefined;
      }, "the second event's first attempt");
      expect(failingLog.map((d) => [d.event, d.status, d.attempts])).toEqual([
        ['transaction.failed', 'pending', 1],
        ['transaction.succeeded', 'pending', 1],
      ]);
    } finally {
      await slow.close();
      await healthy.close();
    }
  });
});

describe('webhook deliveries across a restart', () => {
  it('closes promptly with a request in flight and sends the still pending delivery after the restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pinbridge-webhooks-'));
    // A long timeout: only close() can end the hanging request.
    const settings = { ...SETTINGS, webhookTimeoutMs: 60_000 };
    let receiver = await startReceiver(() => 'hang');
    try {
      const first = await startSandbox({ dataDir, settings });
      const mp = await freshMarket(first);
      const webhook = await register(mp, `${receiver.url}/hook`);
      first.context.webhooks.emit(mp.id, transactionSucceeded('PEDIDO-RESTART'));
      await eventually(() => (receiver.received.length > 0 ? true : undefined), 'the request to arrive');
      await first.close();

      const port = receiver.port;
      await receiver.close();
      receiver = await startReceiver(() => 200, port);
      const second = await startSandbox({ dataDir, settings });
      try {
        const delivery = await settledDelivery({ ...mp, sandbox: second }, webhook.id);
        expect(delivery).toMatchObject({ status: 'succeeded', attempts: 1, last_response_status: 200 });
        expect(receiver.received).toHaveLength(1);
        const [got] = receiver.received;
        expect(got?.headers['webhook-id']).toBe(delivery.event_id);
        expect(JSON.parse(got?.body ?? '{}')).toMatchObject({ reference_id: 'PEDIDO-RESTART' });
        expect(verifyWebhook({ secret: webhook.secret, headers: got?.headers ?? {}, body: got?.body ?? '' })).toBe(
          true,
        );
      } finally {
        await second.close();
      }
    } finally {
      await receiver.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
