/**
 * Errors the sandbox answers with. Each route family uses one body shape: shape A
 * (status/detail/trace_id) for buyers, transactions, the terminal channel, webhooks and sandbox
 * helpers; shape B (status_code/type/message) for bank accounts — and every 401 is shape B with
 * `type: "unauthorized"`, as the contract's Authentication section says.
 */
import type { ErrorA, ErrorB } from '../contract/index.js';
import { newTraceId } from './time.js';

export type ErrorShape = 'A' | 'B';
export type ErrorBType = ErrorB['type'];

export class SandboxHttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    /** Forces a shape (401 is always B); otherwise the route's shape is used. */
    readonly shape?: ErrorShape,
  ) {
    super(message);
    this.name = 'SandboxHttpError';
  }
}

const TYPE_BY_STATUS: Record<number, ErrorBType> = {
  400: 'validation_error',
  401: 'unauthorized',
  404: 'not_found',
  409: 'conflict',
  413: 'payload_too_large',
  422: 'validation_error',
  429: 'rate_limited',
};

export function errorBody(shape: ErrorShape, statusCode: number, message: string): ErrorA | ErrorB {
  if (shape === 'B' || statusCode === 401) {
    const type = TYPE_BY_STATUS[statusCode] ?? (statusCode >= 500 ? 'server_error' : 'validation_error');
    return { status_code: statusCode, type, message };
  }
  return { status: statusCode, detail: message, trace_id: newTraceId() };
}

export const badRequest = (message: string): SandboxHttpError => new SandboxHttpError(400, message);
export const notFound = (message: string): SandboxHttpError => new SandboxHttpError(404, message);
export const conflict = (message: string): SandboxHttpError => new SandboxHttpError(409, message);
export const unauthorized = (message: string): SandboxHttpError => new SandboxHttpError(401, message, 'B');
