/**
 * Webhook registrations: create (the answer carries the signing secret, once), list, retrieve,
 * delete, and the delivery log of one webhook. Verifying a delivery's signature is the
 * receiver's business and lives with the receiver, not in this client.
 */
import type { Webhook, WebhookCreateRequest, WebhookDelivery, WebhookEventName } from '../../contract/index.js';
import type { CallOptions } from '../http.js';
import { bodyIdempotencyKey } from '../idempotency.js';
import { type List, normalizeDeleted, normalizeList, normalizeRecord } from '../normalize.js';
import { assertNoViolations, idViolation, listQueryViolations, webhookCreateViolations } from '../validate.js';
import type { ListParams } from './bank-accounts.js';
import { type ApiContext, callOptions, type CreateOptions } from './context.js';

export type { Webhook, WebhookDelivery };
/** `event`: event names, or ["all"] (typed from the names list: the schema's union loses its literals). */
export type WebhookCreateParams = Omit<WebhookCreateRequest, 'event'> & {
  readonly event: ReadonlyArray<WebhookEventName | 'all'>;
};

export interface WebhookDeleted {
  readonly id: string;
  readonly resource: 'webhook';
  readonly deleted: true;
}

export class WebhooksResource {
  readonly #ctx: ApiContext;

  constructor(ctx: ApiContext) {
    this.#ctx = ctx;
  }

  async create(params: WebhookCreateParams, options?: CreateOptions): Promise<Webhook> {
    const path = this.#ctx.path('webhooks');
    assertNoViolations(webhookCreateViolations(params), { method: 'POST', path });
    return this.#ctx.send(
      {
        method: 'POST',
        path,
        body: params,
        idempotencyKey: options?.idempotencyKey ?? bodyIdempotencyKey(this.#ctx.marketplaceId, 'webhook', params),
        ...callOptions(options),
      },
      (body, origin) => normalizeRecord<Webhook>(body, 'webhook', origin),
    );
  }

  async list(params: ListParams = {}, options?: CallOptions): Promise<List<Webhook>> {
    const path = this.#ctx.path('webhooks');
    assertNoViolations(listQueryViolations(params), { method: 'GET', path });
    return this.#ctx.send(
      { method: 'GET', path, query: { limit: params.limit, offset: params.offset }, ...callOptions(options) },
      (body, origin) => normalizeList(body, (item) => normalizeRecord<Webhook>(item, 'webhook', origin), origin),
    );
  }

  async retrieve(webhookId: string, options?: CallOptions): Promise<Webhook> {
    const path = this.#ctx.path('webhooks', String(webhookId));
    assertNoViolations([idViolation('webhook_id', webhookId)], { method: 'GET', path });
    return this.#ctx.send({ method: 'GET', path, ...callOptions(options) }, (body, origin) =>
      normalizeRecord<Webhook>(body, 'webhook', origin),
    );
  }

  async delete(webhookId: string, options?: CallOptions): Promise<WebhookDeleted> {
    const path = this.#ctx.path('webhooks', String(webhookId));
    assertNoViolations([idViolation('webhook_id', webhookId)], { method: 'DELETE', path });
    return this.#ctx.send({ method: 'DELETE', path, ...callOptions(options) }, (body, origin) =>
      normalizeDeleted<WebhookDeleted>(body, 'webhook', origin),
    );
  }

  /** The delivery attempts of one webhook, newest first as the service orders them. */
  async deliveries(webhookId: string, params: ListParams = {}, options?: CallOptions): Promise<List<WebhookDelivery>> {
    const path = this.#ctx.path('webhooks', String(webhookId), 'deliveries');
    assertNoViolations([idViolation('webhook_id', webhookId), ...listQueryViolations(params)], { method: 'GET', path });
    return this.#ctx.send(
      { method: 'GET', path, query: { limit: params.limit, offset: params.offset }, ...callOptions(options) },
      (body, origin) =>
        normalizeList(body, (item) => normalizeRecord<WebhookDelivery>(item, 'webhook_delivery', origin), origin),
    );
  }
}
