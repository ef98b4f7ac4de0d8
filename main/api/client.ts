/**
 * The typed client of the payments API, one property per resource (in the manner of
 * stripe-node):
 *
 *   const client = new PaymentsClient({ baseUrl, token, marketplaceId });
 *   const sale = await client.transactions.create({ payment_locale: 'pinpad', … , reference_id });
 *   const result = await client.terminal.authorize(sale.id, { terminal, entry_mode, card });
 *
 * Amounts are integer centavos in and out. Failures are `PaymentsApiError` subclasses (errors.ts);
 * inputs that break the contract are refused before sending (`InvalidRequestError`). Retries,
 * timeouts and the 401 cool-down are in http.ts; Idempotency-Key derivation in idempotency.ts.
 * The terminal channel is behind the `TerminalGateway` interface: pass `terminalGateway` to
 * replace the HTTP one.
 */
import { HttpCore, type HttpCoreOptions, type PaymentsLogger } from './http.js';
import { BankAccountsResource } from './resources/bank-accounts.js';
import { BoletosResource } from './resources/boletos.js';
import { BuyersResource } from './resources/buyers.js';
import { ApiContext } from './resources/context.js';
import { TapToPayResource } from './resources/tap-to-pay.js';
import { TransactionsResource, type ProviderCapabilities } from './resources/transactions.js';
import { WebhooksResource } from './resources/webhooks.js';
import type { TerminalGateway } from './terminal/gateway.js';
import { HttpTerminalGateway } from './terminal/http-terminal-gateway.js';

export interface PaymentsClientOptions extends Omit<HttpCoreOptions, 'idempotencyKeys'> {
  /** The marketplace every path names (`/v1/marketplaces/{marketplaceId}/…`). */
  readonly marketplaceId: string;
  readonly logger?: PaymentsLogger;
  /** A terminal channel to use instead of the HTTP one (built from the client's context). */
  readonly terminalGateway?: (context: ApiContext) => TerminalGateway;
  /** What the provider offers beyond its documented calls, and its terminal channel's version (see ProviderCapabilities). */
  readonly capabilities?: Partial<ProviderCapabilities>;
}

export class PaymentsClient {
  readonly marketplaceId: string;
  /** What the client was told the provider offers (undeclared: off), for callers that add what it lacks. */
  readonly capabilities: ProviderCapabilities;
  readonly buyers: BuyersResource;
  readonly bankAccounts: BankAccountsResource;
  readonly transactions: TransactionsResource;
  readonly boletos: BoletosResource;
  readonly tapToPay: TapToPayResource;
  readonly webhooks: WebhooksResource;
  readonly terminal: TerminalGateway;
  readonly #http: HttpCore;

  constructor(options: PaymentsClientOptions) {
    if (typeof options.marketplaceId !== 'string' || options.marketplaceId.trim() === '') {
      throw new TypeError('PaymentsClient: marketplaceId is required');
    }
    this.marketplaceId = options.marketplaceId;
    // Off unless the settings say the provider has it: nothing undocumented is assumed.
    this.capabilities = {
      idempotencyKey: options.capabilities?.idempotencyKey ?? false,
      findByReference: options.capabilities?.findByReference ?? false,
      terminalChannel: options.capabilities?.terminalChannel ?? 2,
    };
    // One knob for the client's user: the provider's capability decides whether keys are sent.
    this.#http = new HttpCore({ ...options, idempotencyKeys: this.capabilities.idempotencyKey });
    const context = new ApiContext(this.#http, options.marketplaceId);
    this.buyers = new BuyersResource(context);
    this.bankAccounts = new BankAccountsResource(context);
    this.transactions = new TransactionsResource(context, this.capabilities);
    this.boletos = new BoletosResource(context, this.transactions);
    this.tapToPay = new TapToPayResource(this.transactions);
    this.webhooks = new WebhooksResource(context);
    this.terminal = options.terminalGateway
      ? options.terminalGateway(context)
      : new HttpTerminalGateway(context, { version: this.capabilities.terminalChannel });
  }

  /**
   * Closes the client's connections to the provider (the agent stops): requests under way are
   * answered first, each within its deadline. A `dispatcher` the caller gave is left open.
   */
  close(): Promise<void> {
    return this.#http.close();
  }
}
