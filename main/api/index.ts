/** The payments API client: the public surface. */
export { PaymentsClient, type PaymentsClientOptions } from './client.js';
export {
  AUTHENTICATION_FAILED_MESSAGE,
  AuthenticationError,
  ConflictError,
  ConnectionError,
  InvalidRequestError,
  InvalidResponseError,
  NotFoundError,
  NotEnabledError,
  PAYMENTS_ERROR_CODES,
  PaymentsApiError,
  type PaymentsErrorCode,
  PermissionError,
  RateLimitError,
  RequestTimeoutError,
  ServerError,
  TimeoutError,
  ValidationError,
} from './errors.js';
export {
  certificateInfo,
  ClientCertificateError,
  daysToExpiry,
  loadClientTls,
  serialMatchesMarketplace,
  type CertificateInfo,
  type ClientCertificateErrorCode,
  type ClientCertificateFiles,
  type ClientTls,
} from './client-certificate.js';
export { parseErrorBody, type ErrorBodyShape, type ParsedErrorBody } from './error-body.js';
export {
  backoffDelay,
  type CallOptions,
  HttpCore,
  type AttemptReport,
  type AuthScheme,
  type HttpCoreOptions,
  type HttpMethod,
  type HttpRequest,
  parseRetryAfter,
  type PaymentsLogger,
  RETRYABLE_STATUSES,
} from './http.js';
export {
  bodyIdempotencyKey,
  cancellationIdempotencyKey,
  terminalIdempotencyKey,
  transactionIdempotencyKey,
  type TerminalOperation,
  type TransactionKind,
} from './idempotency.js';
export { toCentavos } from './money.js';
export {
  type BoletoCancellation,
  type InstallmentPlan,
  type List,
  normalizeTransaction,
  type TerminalAuthorizationResult,
  type Transaction,
  type TransactionHistoryEntry,
  type TransactionStatus,
} from './normalize.js';
export type { ApiContext, CreateOptions } from './resources/context.js';
export type {
  BankAccount,
  BankAccountCreateParams,
  BankAccountDeleted,
  BankAccountListItem,
  ListParams,
} from './resources/bank-accounts.js';
export type { BolepixCreateParams, BoletoCreateParams } from './resources/boletos.js';
export type {
  Buyer,
  BuyerCreateParams,
  BuyerDeleted,
  BuyerSearchParams,
  BuyerUpdateParams,
} from './resources/buyers.js';
export type { TapToPayCreateParams } from './resources/tap-to-pay.js';
export {
  isPending,
  SELLER_SCAN_PAGES,
  type ProviderCapabilities,
  type ReferenceLookupOptions,
  type SellerTransactionListParams,
  type BolepixParams,
  type BoletoParams,
  type PinpadParams,
  type TapToPayParams,
  type TransactionCreateParams,
  type TransactionListParams,
  type VoidOptions,
  type VoidParams,
  type WaitOptions,
} from './resources/transactions.js';
export type { Webhook, WebhookCreateParams, WebhookDeleted, WebhookDelivery } from './resources/webhooks.js';
export type { TerminalCallOptions, TerminalGateway } from './terminal/gateway.js';
export { HttpTerminalGateway } from './terminal/http-terminal-gateway.js';
