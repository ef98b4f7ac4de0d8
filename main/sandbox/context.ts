/**
 * What every part of the sandbox shares: the database, the settings, the clock and the
 * webhook emitter. Built once by `startSandbox` and handed to each route module.
 */
import type { Logger } from 'pino';
import type { WebhookEvent } from '../contract/index.js';
import type { SandboxDatabase } from './store/database.js';

export type AmountFormat = 'integer' | 'decimal';

/** HTTPS for the sandbox: its server certificate and key (PEM), and the CA of the client certificates (mutual TLS). */
export interface SandboxTls {
  readonly cert: string | Buffer;
  readonly key: string | Buffer;
  /** PEM of the CA(s) that issue the client certificates; absent: HTTPS without client certificates. */
  readonly ca?: string | Buffer;
}

export interface SandboxSettings {
  /** How transaction amounts are written in responses: integer centavos (the contract) or decimal reais strings (as the service family's responses do). */
  readonly amountFormat: AmountFormat;
  /** Delay before a requested boleto cancellation takes effect (contract: "applied with a processing delay"). */
  readonly boletoCancellationDelayMs: number;
  /** How long the authorization of the "slow" test amount holds its answer (the outcome is decided at once). */
  readonly slowAuthorizationDelayMs: number;
  /** Webhook delivery: attempts in all, first retry delay (doubling), per-attempt timeout. */
  readonly webhookAttempts: number;
  readonly webhookRetryBaseMs: number;
  readonly webhookTimeoutMs: number;
  /** Largest request body accepted (larger → 413). */
  readonly bodyLimitBytes: number;
  /**
   * How the key may arrive: `bearer` as the contract says (the default), `basic` as the Zoop API
   * takes it (the key as the user name), or `any` of the two.
   */
  readonly authScheme: 'bearer' | 'basic' | 'any';
  /**
   * The features beyond what GoPag documents, on by default. Off, the sandbox behaves as a
   * provider without them, so a client is proven not to lean on them: `idempotencyKeys` false
   * ignores Idempotency-Key (a repeated POST does it again); `marketplaceTransactionList` false
   * answers 404 to `GET /v1/marketplaces/{mid}/transactions` (only the seller's list is there).
   */
  readonly idempotencyKeys: boolean;
  readonly marketplaceTransactionList: boolean;
  /**
   * Refuse (400) a DUKPT KSN whose counter is not above the last one accepted for its key, as a
   * host does (store/dukpt-counters.ts). On by default, training included: the simulated PINPAD
   * keeps its counters across runs (drivers/simulator/keys.ts), as a real one does.
   */
  readonly refuseReplayedKsn: boolean;
}

export const DEFAULT_SANDBOX_SETTINGS: SandboxSettings = {
  amountFormat: 'integer',
  boletoCancellationDelayMs: 2_000,
  slowAuthorizationDelayMs: 30_000,
  webhookAttempts: 6,
  webhookRetryBaseMs: 1_000,
  webhookTimeoutMs: 5_000,
  bodyLimitBytes: 1_048_576,
  authScheme: 'bearer',
  idempotencyKeys: true,
  marketplaceTransactionList: true,
  refuseReplayedKsn: true,
};

/** Queues an event for every webhook of the marketplace subscribed to it. The emitter adds the event id. */
export type WebhookEventInput = WebhookEvent extends infer E ? (E extends WebhookEvent ? Omit<E, 'id'> : never) : never;

export interface WebhookEmitter {
  /** Writes a delivery row for every subscribed webhook at once and schedules sending; never throws. */
  emit(marketplaceId: string, event: WebhookEventInput): void;
  /** Puts a failed delivery back in the queue, due now (the manual retry endpoint); false if it was not failed. */
  retry(deliveryId: string): boolean;
  /** Resolves once no delivery is pending or in flight (every one succeeded or failed). For tests. */
  flush(): Promise<void>;
}

export interface SandboxContext {
  readonly db: SandboxDatabase;
  readonly settings: SandboxSettings;
  readonly log: Logger;
  readonly webhooks: WebhookEmitter;
  /** The clock (tests may move it). */
  now(): Date;
  /** Served over TLS with a client CA: every call must present a certificate it issued (auth.ts). */
  readonly clientCertificates: boolean;
  /** "http://127.0.0.1:PORT" once listening (used for boleto PDF and QR code URLs). */
  baseUrl(): string;
  /** Runs when the sandbox closes (timers, pending deliveries). */
  onClose(hook: () => void | Promise<void>): void;
}
