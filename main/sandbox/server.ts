/**
 * Starts the payments API sandbox: opens (or creates) its database, seeds it on first start,
 * builds the Fastify app and listens on loopback.
 */
import type { Logger } from 'pino';
import { pino } from 'pino';
import { buildSandboxApp, type RouteRegistrar, type SandboxApp } from './app.js';
import { trackConnections } from './connections.js';
import {
  DEFAULT_SANDBOX_SETTINGS,
  type SandboxContext,
  type SandboxSettings,
  type SandboxTls,
  type WebhookEmitter,
} from './context.js';

export type { SandboxTls };
import type { MarketplaceInfo } from './marketplaces.js';
import { registerBankAccountRoutes } from './routes/bank-accounts.js';
import { registerBuyerRoutes } from './routes/buyers.js';
import { registerCancellationRoutes } from './routes/cancellations.js';
import { registerDocumentRoutes } from './routes/documents.js';
import { registerSandboxHelperRoutes } from './routes/sandbox-helpers.js';
import { registerSandboxPaymentRoutes } from './routes/sandbox-payments.js';
import { registerTerminalRoutes } from './routes/terminal.js';
import { registerTransactionRoutes } from './routes/transactions.js';
import { registerWebhookRoutes } from './routes/webhooks.js';
import { ensureSeed } from './seed.js';
import { openSandboxDatabase } from './store/database.js';
import { createWebhookDispatcher } from './webhooks/dispatcher.js';

export interface SandboxOptions {
  /** Loopback address to listen on (default 127.0.0.1). */
  readonly host?: string;
  /** TCP port; 0 (default) picks a free one. */
  readonly port?: number;
  /** Directory of the SQLite file; without it the data lives in memory and dies with the process. */
  readonly dataDir?: string;
  readonly settings?: Partial<SandboxSettings>;
  readonly logger?: Logger;
  /** The clock; tests may pass their own. */
  readonly now?: () => Date;
  /**
   * Serve HTTPS with this server certificate and key (PEM). With `ca`, mutual TLS: every request
   * must present a client certificate that CA issued (judged before routing), and every call's
   * serial number must be the marketplace id (auth.ts), as the GoPag front of this API family requires.
   */
  readonly tls?: SandboxTls;
  /** Collect the routes for the OpenAPI document, openapi() (`pinbridge sandbox --openapi`, the docs' specs). */
  readonly openapi?: boolean;
}

export interface RunningSandbox extends MarketplaceInfo {
  /** "http://127.0.0.1:PORT" ("https://…" with `tls`) */
  readonly url: string;
  readonly app: SandboxApp;
  readonly context: SandboxContext;
  /** The OpenAPI 3.1 document of every route, generated from the route schemas (started with `openapi: true`). */
  openapi(): Record<string, unknown>;
  close(): Promise<void>;
}

export const SANDBOX_ROUTES: readonly RouteRegistrar[] = [
  registerBuyerRoutes,
  registerBankAccountRoutes,
  registerTransactionRoutes,
  registerTerminalRoutes,
  registerCancellationRoutes,
  registerWebhookRoutes,
  registerSandboxPaymentRoutes,
  registerSandboxHelperRoutes,
  registerDocumentRoutes,
];

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const host = options.host ?? '127.0.0.1';
  const db = openSandboxDatabase(options.dataDir);
  const closeHooks: Array<() => void | Promise<void>> = [];
  let baseUrl = '';
  const base: Omit<SandboxContext, 'webhooks'> = {
    db,
    settings: { ...DEFAULT_SANDBOX_SETTINGS, ...options.settings },
    log: options.logger ?? pino({ level: 'silent' }),
    now: options.now ?? (() => new Date()),
    baseUrl: () => baseUrl,
    onClose: (hook) => closeHooks.push(hook),
    clientCertificates: options.tls?.ca !== undefined,
  };
  const webhooks: WebhookEmitter = createWebhookDispatcher(base);
  const context: SandboxContext = { ...base, webhooks };

  const shutDown = async (): Promise<void> => {
    for (const hook of closeHooks.reverse()) await hook();
    db.close();
  };
  const seed = ensureSeed(context);
  const app = buildSandboxApp(context, SANDBOX_ROUTES, { tls: options.tls, openapi: options.openapi });
  const connections = trackConnections(app.server);
  try {
    await app.listen({ host, port: options.port ?? 0 });
  } catch (error) {
    // e.g. the port is taken: stop the timers the parts started before closing their database.
    await app.close();
    await shutDown();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : (options.port ?? 0);
  baseUrl = `${options.tls === undefined ? 'http' : 'https'}://${host.includes(':') ? `[${host}]` : host}:${port}`;

  let closed: Promise<void> | undefined;
  return {
    ...seed,
    url: baseUrl,
    app,
    context,
    openapi: () => {
      if (options.openapi !== true)
        throw new Error('this sandbox was started without its OpenAPI document (openapi: true)');
      return app.swagger() as unknown as Record<string, unknown>;
    },
    close: () =>
      (closed ??= (async () => {
        // Answered requests end their connections: no client's unused connection holds the close.
        connections.closing();
        await app.close();
        await shutDown();
      })()),
  };
}
