/**
 * The protocol constants the client needs at run time, copied from `main/pos/protocol` because
 * the browser must not load the protocol module (it pulls in TypeBox). The `Same` checks below
 * fail the build the day a copy drifts from the protocol.
 */
import type {
  CLOSE_CODES as PROTOCOL_CLOSE_CODES,
  DEFAULT_PORTS as PROTOCOL_DEFAULT_PORTS,
  WS_PATH as PROTOCOL_WS_PATH,
} from '../main/pos/protocol/index.js';

export const WS_PATH = '/pos';

export const DEFAULT_PORTS = [17_301, 17_302, 17_303] as const;

export const CLOSE_CODES = {
  ORIGIN_NOT_ALLOWED: 4001,
  ORIGIN_BLOCKED: 4003,
  TOKEN_REVOKED: 4004,
  IDLE: 4008,
  TOO_MANY_CONNECTIONS: 4009,
  AGENT_STOPPING: 1001,
  MESSAGE_TOO_BIG: 1009,
} as const;

/** Exact type equality (not mere assignability), so extra or missing keys fail too. */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

const _wsPathMatches: Same<typeof WS_PATH, typeof PROTOCOL_WS_PATH> = true;
const _defaultPortsMatch: Same<typeof DEFAULT_PORTS, typeof PROTOCOL_DEFAULT_PORTS> = true;
const _closeCodesMatch: Same<typeof CLOSE_CODES, typeof PROTOCOL_CLOSE_CODES> = true;

/**
 * The URLs tried when the caller gives none: every default port on loopback, in order.
 * `secure`: wss://localhost (the name the agent's certificate from `pinbridge pos cert` is for).
 */
export function defaultUrls(secure = false): string[] {
  return DEFAULT_PORTS.map((port) => (secure ? `wss://localhost:${port}${WS_PATH}` : `ws://127.0.0.1:${port}${WS_PATH}`));
}
