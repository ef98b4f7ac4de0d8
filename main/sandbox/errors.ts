/**
 * Errors the sandbox answers with. Each route family uses one body shape, the contract's:
 * shape A (status/detail/trace_id) for buyers, transactions, the terminal channel, webhooks and
 * sandbox helpers; shape B (status_code/type/message) for bank accounts. A 401 keeps its family's
 * shape and carries the contract's `type: "unauthorized"` (shape B's own field; shape A gains a
 * `type` beside its three fields, see ErrorAUnauthorized).
 */
import { ErrorA, ErrorAUnauthorized, ErrorB } from '../contract/index.js';
import { newTraceId } from './time.js';

export type ErrorShape = 'A' | 'B';
export type ErrorBType = ErrorB['type'];

export class SandboxHttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    /** Forces a shape; otherwise the route's shape is used. */
    readonly shape?: ErrorShape,
  ) {
    super(message);
    this.name = 'SandboxHttpError';
  }
}

const TYPE_BY_STATUS: Record<number, ErrorBType> = {
  400: 'validation_error',
  401: 'unauthorized',
  // The contract's shape B has three types; a refused client certificate is the nearest to
  // "unauthorized" (the status, 403, tells it from a bad token).
  403: 'unauthorized',
  404: 'not_found',
  409: 'conflict',
  413: 'payload_too_large',
  422: 'validation_error',
  429: 'rate_limited',
};

export function errorBody(
  shape: ErrorShape,
  statusCode: number,
  message: string,
): ErrorA | ErrorAUnauthorized | ErrorB {
  if (shape === 'B') {
    const type = TYPE_BY_STATUS[statusCode] ?? (statusCode >= 500 ? 'server_error' : 'validation_error');
    return { status_code: statusCode, type, message };
  }
  if (statusCode === 401) return { status: 401, type: 'unauthorized', detail: message, trace_id: newTraceId() };
  return { status: statusCode, detail: message, trace_id: newTraceId() };
}

export const badRequest = (message: string): SandboxHttpError => new SandboxHttpError(400, message);
export const notFound = (message: string): SandboxHttpError => new SandboxHttpError(404, message);
export const conflict = (message: string): SandboxHttpError => new SandboxHttpError(409, message);
export const unauthorized = (message: string): SandboxHttpError => new SandboxHttpError(401, message);

/**
 * The answers every authenticated route may give before its handler runs, for its response
 * schemas (and so the OpenAPI document): 401 for a missing, invalid or expired token, and 403
 * when mutual TLS is on and the client certificate names another marketplace — each in the
 * route family's shape.
 */
export const AUTH_ERRORS = {
  A: { 401: ErrorAUnauthorized, 403: ErrorA },
  B: { 401: ErrorB, 403: ErrorB },
} as const;
