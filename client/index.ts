/**
 * The Pinbridge POS client (@pinbridge/client): what a POS imports. Runs in browsers (bundled, or
 * `import { PinbridgeClient } from '/client/index.js'` on a page the agent serves) and in Node ≥ 22
 * (its global WebSocket; elsewhere pass one, e.g. the `ws` package's). The protocol's types
 * (protocol.ts) are re-exported type-only: no run-time dependency.
 */
export {
  PinbridgeClient,
  DEFAULT_REQUEST_TIMEOUT_MS,
  STATUS_POLL_INTERVAL_MS,
  type AgentInfo,
  type CallOptions,
  type ClientEventName,
  type ClientEvents,
  type ClientState,
  type ClosedEvent,
  type OperatorLogin,
  type PairingStarted,
  type PaymentStartParams,
  type PinbridgeClientOptions,
} from './client.js';
export { PinbridgeError, isPinbridgeError, type ClientErrorCode, type PinbridgeErrorCode } from './errors.js';
export { PAIRING_CODE_LENGTH, pairingCodeDigits } from './pairing-code.js';
export { CLOSE_CODES, DEFAULT_PORTS, WS_PATH, defaultUrls } from './constants.js';
export { type BackoffOptions } from './backoff.js';
export type { WebSocketCtor, WebSocketLike } from './websocket.js';
export type {
  ErrorData,
  EventName,
  EventPayload,
  MethodName,
  ParamsOf,
  PaymentOutcome,
  PaymentProgress,
  PosErrorCode,
  ResultOf,
} from './protocol.js';
