/**
 * Webhook registration (the service family's `/webhooks` resource) and, beyond it, the delivery
 * log and a manual retry, so an integrator can see what was sent and what their server answered.
 * The signing secret is shown once, in the answer to the creation.
 */
import { Type } from 'typebox';
import {
  Deleted,
  ErrorA,
  ListEnvelope,
  ListQuery,
  LIST_LIMIT_MAX,
  Webhook,
  WebhookCreateRequest,
  WebhookDelivery,
} from '../../contract/index.js';
import type { RouteRegistrar } from '../app.js';
import type { SandboxContext } from '../context.js';
import { AUTH_ERRORS, badRequest, conflict, notFound, SandboxHttpError } from '../errors.js';
import {
  findDelivery,
  findWebhook,
  insertWebhook,
  listDeliveries,
  listWebhooks,
  softDeleteWebhook,
  type DeliveryRecord,
  type WebhookRecord,
} from '../store/webhooks.js';
import { newId, offsetTimestamp } from '../time.js';
import { newWebhookSecret } from '../webhooks/signature.js';
import { idempotent, markReplay } from '../idempotency.js';

const WEBHOOK_LIST_DESCRIPTION = "The marketplace's active webhooks, oldest first.";
const WebhookList = Type.Object(ListEnvelope(Webhook, WEBHOOK_LIST_DESCRIPTION).properties, {
  title: 'WebhookList',
  description: WEBHOOK_LIST_DESCRIPTION,
});
const DELIVERY_LIST_DESCRIPTION = "A webhook's deliveries, newest first.";
const WebhookDeliveryList = Type.Object(ListEnvelope(WebhookDelivery, DELIVERY_LIST_DESCRIPTION).properties, {
  title: 'WebhookDeliveryList',
  description: DELIVERY_LIST_DESCRIPTION,
});
const WebhookDeleted = Type.Object(Deleted('webhook').properties, { title: 'WebhookDeleted' });

const MarketplaceParams = Type.Object({ marketplace_id: Type.String() });
const WebhookParams = Type.Object({ marketplace_id: Type.String(), webhook_id: Type.String() });
const DeliveryParams = Type.Object({
  marketplace_id: Type.String(),
  webhook_id: Type.String(),
  delivery_id: Type.String(),
});

const TAGS = ['webhooks'];
const BASE = '/v1/marketplaces/:marketplace_id/webhooks';

export const registerWebhookRoutes: RouteRegistrar = (app, ctx) => {
  app.post(
    BASE,
    {
      config: { errorShape: 'A' },
      schema: {
        tags: TAGS,
        operationId: 'createWebhook',
        summary: 'Register a webhook',
        description:
          'Deliveries are signed POSTs (Standard Webhooks headers webhook-id, webhook-timestamp, webhook-signature). ' +
          'The signing secret is returned only in this response.',
        params: MarketplaceParams,
        body: WebhookCreateRequest,
        response: { 201: Webhook, ...AUTH_ERRORS.A, 400: ErrorA, 404: ErrorA },
      },
    },
    async (request, reply) => {
      const { url, event, description } = request.body;
      if (!isHttpUrl(url)) throw badRequest('Field url must be an http or https URL');
      const events = [...new Set<string>(event)];
      if (events.includes('all') && events.length > 1) {
        throw badRequest('Field event must be either ["all"] or a list of event names, not both');
      }
      const result = idempotent(ctx, request, () => {
        const now = offsetTimestamp(ctx.now());
        const id = newId();
        const secret = newWebhookSecret();
        insertWebhook(ctx.db, {
          id,
          marketplaceId: request.marketplaceId,
          secret,
          data: { url, description: description ?? null, events, status: 'active', created_at: now, updated_at: now },
        });
        const created = findWebhook(ctx.db, request.marketplaceId, id);
        if (!created) throw new SandboxHttpError(500, 'Webhook vanished after it was created');
        return { statusCode: 201, body: { ...webhookView(created), secret } };
      });
      return markReplay(reply, result).code(201).send(result.body);
    },
  );

  app.get(
    BASE,
    {
      config: { errorShape: 'A' },
      schema: {
        tags: TAGS,
        operationId: 'listWebhooks',
        summary: 'List webhooks',
        params: MarketplaceParams,
        querystring: ListQuery,
        response: { 200: WebhookList, ...AUTH_ERRORS.A, 400: ErrorA, 404: ErrorA },
      },
    },
    (request) => {
      const { limit = LIST_LIMIT_MAX, offset = 0 } = request.query;
      const { items, total } = listWebhooks(ctx.db, request.marketplaceId, limit, offset);
      return listEnvelope(requestPath(request.url), items.map(webhookView), limit, offset, total);
    },
  );

  app.get(
    `${BASE}/:webhook_id`,
    {
      config: { errorShape: 'A' },
      schema: {
        tags: TAGS,
        operationId: 'getWebhook',
        summary: 'Get a webhook',
        description: 'A deleted webhook is still found, with status "deleted".',
        params: WebhookParams,
        response: { 200: Webhook, ...AUTH_ERRORS.A, 404: ErrorA },
      },
    },
    (request) => webhookView(requireWebhook(ctx, request.marketplaceId, request.params.webhook_id)),
  );

  app.delete(
    `${BASE}/:webhook_id`,
    {
      config: { errorShape: 'A' },
      schema: {
        tags: TAGS,
        operationId: 'deleteWebhook',
        summary: 'Delete a webhook',
        description:
          'No more deliveries are made to it; deliveries still waiting are given up. Its log stays readable.',
        params: WebhookParams,
        response: { 200: WebhookDeleted, ...AUTH_ERRORS.A, 404: ErrorA },
      },
    },
    (request) => {
      const webhook = requireWebhook(ctx, request.marketplaceId, request.params.webhook_id);
      if (webhook.status !== 'deleted') softDeleteWebhook(ctx.db, webhook, offsetTimestamp(ctx.now()));
      return { id: webhook.id, resource: 'webhook' as const, deleted: true as const };
    },
  );

  app.get(
    `${BASE}/:webhook_id/deliveries`,
    {
      config: { errorShape: 'A' },
      schema: {
        tags: TAGS,
        operationId: 'listWebhookDeliveries',
        summary: "List a webhook's deliveries (newest first)",
        description:
          'Each delivery: its event, status, attempts so far, the last HTTP status or error, and the next attempt.',
        params: WebhookParams,
        querystring: ListQuery,
        response: { 200: WebhookDeliveryList, ...AUTH_ERRORS.A, 400: ErrorA, 404: ErrorA },
      },
    },
    (request) => {
      const webhook = requireWebhook(ctx, request.marketplaceId, request.params.webhook_id);
      const { limit = LIST_LIMIT_MAX, offset = 0 } = request.query;
      const { items, total } = listDeliveries(ctx.db, webhook.id, limit, offset);
      return listEnvelope(requestPath(request.url), items.map(deliveryView), limit, offset, total);
    },
  );

  app.post(
    `${BASE}/:webhook_id/deliveries/:delivery_id/retry`,
    {
      config: { errorShape: 'A' },
      schema: {
        tags: TAGS,
        operationId: 'retryWebhookDelivery',
        summary: 'Retry a failed delivery now',
        description:
          'The delivery goes back to pending and is sent at once. It gets one more attempt (its attempts keep counting), ' +
          'more only if it had not used all of them.',
        params: DeliveryParams,
        response: { 202: WebhookDelivery, ...AUTH_ERRORS.A, 404: ErrorA, 409: ErrorA, 503: ErrorA },
      },
    },
    async (request, reply) => {
      const { webhook_id: webhookId, delivery_id: deliveryId } = request.params;
      const webhook = requireWebhook(ctx, request.marketplaceId, webhookId);
      const delivery = findDelivery(ctx.db, webhook.id, deliveryId);
      if (!delivery) throw notFound(`Webhook delivery not found: ${deliveryId}`);
      if (webhook.status === 'deleted')
        throw conflict(`Webhook ${webhook.id} is deleted; its deliveries cannot be retried`);
      if (delivery.status !== 'failed') {
        throw conflict(`Only a failed delivery can be retried; this one is ${delivery.status}`);
      }
      if (!ctx.webhooks.retry(delivery.id)) {
        throw new SandboxHttpError(503, 'Webhook deliveries are not running');
      }
      const requeued = findDelivery(ctx.db, webhook.id, deliveryId) ?? delivery;
      return reply.code(202).send(deliveryView(requeued));
    },
  );
};

function isHttpUrl(value: string): boolean {
  try {
    const { protocol, hostname } = new URL(value);
    return (protocol === 'http:' || protocol === 'https:') && hostname !== '';
  } catch {
    return false;
  }
}

function requireWebhook(ctx: SandboxContext, marketplaceId: string, id: string): WebhookRecord {
  const webhook = findWebhook(ctx.db, marketplaceId, id);
  if (!webhook) throw notFound(`Webhook not found: ${id}`);
  return webhook;
}

const requestPath = (url: string): string => url.split('?')[0] ?? url;

function listEnvelope<T>(uri: string, items: T[], limit: number, offset: number, total: number) {
  return { resource: 'list' as const, uri, items, has_more: offset + items.length < total, limit, offset, total };
}

/** The public view: everything but the secret. */
function webhookView(webhook: WebhookRecord): Webhook {
  return {
    id: webhook.id,
    resource: 'webhook',
    uri: `/v1/marketplaces/${webhook.marketplace_id}/webhooks/${webhook.id}`,
    method: 'POST',
    url: webhook.url,
    description: webhook.description,
    events: webhook.events,
    status: webhook.status,
    events_sent: webhook.events_sent,
    last_sent_at: webhook.last_sent_at,
    marketplace_id: webhook.marketplace_id,
    created_at: webhook.created_at,
    updated_at: webhook.updated_at,
  };
}

function deliveryView(delivery: DeliveryRecord): WebhookDelivery {
  return {
    id: delivery.id,
    resource: 'webhook_delivery',
    webhook_id: delivery.webhook_id,
    event_id: delivery.event_id,
    event: delivery.event,
    status: delivery.status,
    attempts: delivery.attempts,
    last_response_status: delivery.last_response_status,
    last_error: delivery.last_error,
    next_attempt_at:
      delivery.status === 'pending' && delivery.next_attempt_at_ms !== null
        ? offsetTimestamp(new Date(delivery.next_attempt_at_ms))
        : null,
    created_at: delivery.created_at,
    delivered_at: delivery.delivered_at,
  };
}
