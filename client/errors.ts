/**
 * The one error type the client rejects with. `code` is the server's `error.data.code` when the
 * agent answered, or one of the client's own codes when it could not (connection lost, timeout,
 * agent not found, origin or program refused, token revoked); a POS branches on `code` and shows
 * `cashierMessage` (pt-BR) to the cashier.
 */
import type { ErrorData, PosErrorCode } from './protocol.js';

export type ClientErrorCode =
  /** The connection dropped (or was never up) before the answer came. */
  | 'CONNECTION_LOST'
  /** The agent did not answer within the request timeout. */
  | 'TIMEOUT'
  /** No Pinbridge answered on any of the URLs: not running, or not installed. */
  | 'AGENT_UNREACHABLE'
  /** The agent closed the connection with 4003: this page's origin is blocked there. */
  | 'ORIGIN_BLOCKED'
  /** The agent closed the connection with 4001: this page's origin cannot pair at all (file:, sandboxed frame). */
  | 'ORIGIN_NOT_ALLOWED'
  /** The agent closed the connection with 4004: the token was revoked; pair again. */
  | 'TOKEN_REVOKED'
  /** The agent closed the connection with 4005: the cashier blocked this program. */
  | 'PROGRAM_BLOCKED';

export type PinbridgeErrorCode = PosErrorCode | ClientErrorCode;

const CLIENT_CASHIER_MESSAGES: Record<ClientErrorCode, string> = {
  CONNECTION_LOST: 'Conexão com o Pinbridge perdida.',
  TIMEOUT: 'O Pinbridge não respondeu a tempo.',
  AGENT_UNREACHABLE: 'Pinbridge não encontrado. Verifique se ele está aberto neste computador.',
  ORIGIN_BLOCKED: 'Este sistema foi bloqueado no Pinbridge.',
  ORIGIN_NOT_ALLOWED: 'Esta página não pode se conectar ao Pinbridge (abra-a por um endereço http ou https).',
  TOKEN_REVOKED: 'A autorização deste sistema foi revogada no Pinbridge; pareie de novo.',
  PROGRAM_BLOCKED: 'Este programa foi bloqueado no Pinbridge.',
};

/** What the agent's cashier text is replaced with when an error arrives without one. */
const UNKNOWN_SERVER_ERROR_CASHIER_MESSAGE = 'Erro no Pinbridge.';

export interface PinbridgeErrorOptions {
  readonly rpcCode?: number;
  readonly data?: ErrorData;
  readonly cashierMessage?: string;
  readonly cause?: unknown;
}

export class PinbridgeError extends Error {
  readonly code: PinbridgeErrorCode;
  /** The JSON-RPC error number, when the agent answered. */
  readonly rpcCode?: number;
  /** The agent's `error.data` (violations, retry_after_ms, attempts_left, reason, api…). */
  readonly data?: ErrorData;
  /** pt-BR, for the cashier. */
  readonly cashierMessage: string;

  constructor(code: PinbridgeErrorCode, message: string, options: PinbridgeErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'PinbridgeError';
    this.code = code;
    if (options.rpcCode !== undefined) this.rpcCode = options.rpcCode;
    if (options.data !== undefined) this.data = options.data;
    this.cashierMessage =
      options.cashierMessage ??
      options.data?.cashier_message ??
      (isClientErrorCode(code) ? CLIENT_CASHIER_MESSAGES[code] : UNKNOWN_SERVER_ERROR_CASHIER_MESSAGE);
  }
}

function isClientErrorCode(code: string): code is ClientErrorCode {
  return Object.hasOwn(CLIENT_CASHIER_MESSAGES, code);
}

/** An error raised by the client itself (no answer from the agent). */
export function clientError(code: ClientErrorCode, message: string, cause?: unknown): PinbridgeError {
  return new PinbridgeError(code, message, { cashierMessage: CLIENT_CASHIER_MESSAGES[code], cause });
}

/** The JSON-RPC error object of an answer, as a PinbridgeError. */
export function errorFromRpc(error: unknown): PinbridgeError {
  const rpc = (typeof error === 'object' && error !== null ? error : {}) as {
    code?: unknown;
    message?: unknown;
    data?: unknown;
  };
  const rpcCode = typeof rpc.code === 'number' ? rpc.code : undefined;
  const message = typeof rpc.message === 'string' ? rpc.message : 'Pinbridge answered with an error';
  const data = isErrorData(rpc.data) ? rpc.data : undefined;
  // An error without data.code breaks the contract; INTERNAL_ERROR keeps `code` a known value.
  return new PinbridgeError(data?.code ?? 'INTERNAL_ERROR', message, { rpcCode, data });
}

function isErrorData(value: unknown): value is ErrorData {
  if (typeof value !== 'object' || value === null) return false;
  const { code, cashier_message: cashierMessage } = value as { code?: unknown; cashier_message?: unknown };
  return typeof code === 'string' && typeof cashierMessage === 'string';
}

/** Whether `error` is a PinbridgeError, optionally with one of `codes`. */
export function isPinbridgeError(error: unknown, ...codes: PinbridgeErrorCode[]): error is PinbridgeError {
  return error instanceof PinbridgeError && (codes.length === 0 || codes.includes(error.code));
}
