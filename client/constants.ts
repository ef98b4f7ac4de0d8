/**
 * The protocol constants the client needs at run time, copied from `main/pos/protocol` because
 * the client ships without the protocol module (it pulls in TypeBox).
 * test/client/protocol-types.test.ts fails the type check the day a copy drifts from the protocol.
 */
export const WS_PATH = '/pos';

export const DEFAULT_PORTS = [17_301, 17_302, 17_303] as const;

export const CLOSE_CODES = {
  ORIGIN_NOT_ALLOWED: 4001,
  ORIGIN_BLOCKED: 4003,
  TOKEN_REVOKED: 4004,
  PROGRAM_BLOCKED: 4005,
  IDLE: 4008,
  TOO_MANY_CONNECTIONS: 4009,
  AGENT_STOPPING: 1001,
  MESSAGE_TOO_BIG: 1009,
} as const;

/**
 * The URLs tried when the caller gives none: every default port on loopback, in order.
 * `secure`: wss://localhost (the name the agent's certificate from `pinbridge pos cert` is for).
 */
export function defaultUrls(secure = false): string[] {
  return DEFAULT_PORTS.map((port) =>
    secure ? `wss://localhost:${port}${WS_PATH}` : `ws://127.0.0.1:${port}${WS_PATH}`,
  );
}
