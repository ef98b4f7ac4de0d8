/**
 * The smallest WebSocket shape the client needs, so one client runs on the browser's WebSocket
 * and on the `ws` package's (Node 20 has no usable global WebSocket without a flag). The project
 * compiles without the DOM library, so the shape is written out here instead of borrowed.
 */

/** `readyState` values shared by the browser and `ws`. */
export const READY_STATE = { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 } as const;

export interface WebSocketMessageEventLike {
  /** A string for text frames in both runtimes (the API sends only text). */
  readonly data: unknown;
}

export interface WebSocketCloseEventLike {
  readonly code: number;
  readonly reason: string;
}

export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'open', listener: () => void): void;
  addEventListener(type: 'message', listener: (event: WebSocketMessageEventLike) => void): void;
  addEventListener(type: 'close', listener: (event: WebSocketCloseEventLike) => void): void;
  addEventListener(type: 'error', listener: (event: unknown) => void): void;
}

/** `globalThis.WebSocket` in a browser; `import { WebSocket } from 'ws'` in Node. */
export type WebSocketCtor = new (url: string) => WebSocketLike;

/** The runtime's own WebSocket, when it has one (browsers, Node ≥ 22). */
export function globalWebSocket(): WebSocketCtor | undefined {
  return (globalThis as { WebSocket?: WebSocketCtor }).WebSocket;
}
