/**
 * The POS API's protocol: JSON-RPC 2.0 over a WebSocket, its methods, events, records and
 * errors. Everything here is schemas and types — no Node APIs — so the browser client can
 * import its types from this one source.
 */
import type { ErrorData } from './errors.js';

export * from './enums.js';
export * from './errors.js';
export * from './events.js';
export * from './methods.js';
export * from './models.js';
export type * from './pairing.js';

/** The POS API version (`agent.info.protocol`): additions keep it, breaking changes raise it. */
export const PROTOCOL_VERSION = 1;

/** The WebSocket path of the API on the agent's loopback port. */
export const WS_PATH = '/pos';

/** Ports tried in order by clients when none is configured (QZ Tray's lesson: a short fixed list). */
export const DEFAULT_PORTS = [17_301, 17_302, 17_303] as const;

/** Largest message the agent reads (bigger ones close the connection with 1009). */
export const MAX_MESSAGE_BYTES = 64 * 1024;

/** A request's id; null is allowed (JSON-RPC 2.0 §4) and answered with id null. */
export type RequestId = string | number | null;

export interface RpcRequest {
  readonly jsonrpc: '2.0';
  readonly id: RequestId;
  readonly method: string;
  readonly params?: unknown;
}

export interface RpcSuccess<R = unknown> {
  readonly jsonrpc: '2.0';
  readonly id: RequestId;
  readonly result: R;
}

export interface RpcFailure {
  readonly jsonrpc: '2.0';
  readonly id: RequestId;
  readonly error: {
    readonly code: number;
    readonly message: string;
    readonly data: ErrorData;
  };
}

export type RpcResponse<R = unknown> = RpcSuccess<R> | RpcFailure;
