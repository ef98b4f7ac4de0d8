import type { SandboxContext, WebhookEmitter } from '../context.js';

export function createWebhookDispatcher(_ctx: Omit<SandboxContext, 'webhooks'>): WebhookEmitter {
  return { emit: () => {} };
}
