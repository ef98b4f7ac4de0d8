/**
 * One WebSocket connection of a POS: where it comes from (its Origin, null for a non-browser
 * client), which paired client it is once it said hello, and its rate budget. Sending never
 * throws: a socket that closed meanwhile just drops the message (the POS recovers by
 * payment.status, which is the documented way).
 */
import { randomUUID } from 'node:crypto';
import { WebSocket } from 'ws';
import type { PairedClient } from '../clients/client-store.js';
import { CLOSE_CODES, type CloseReason } from '../protocol/index.js';
import { TokenBucket, type RateLimitOptions } from './rate-limit.js';

export class Session {
  readonly id = randomUUID();
  readonly origin: string | null;
  readonly #socket: WebSocket;
  /** The paired client, once it said hello (or confirmed a pairing). */
  client: PairedClient | undefined;
  /** Pinbridge's own window (session.operator with the agent's key): sees everything, pairs nothing. */
  operator = false;
  /** The budget before hello; a paired client's budget is shared by its sessions (see Hub). */
  readonly anonymousBucket: TokenBucket;
  /** Requests answered not yet. */
  inFlight = 0;
  /** When the POS last sent something (ms, performance.now): a silent unauthenticated session is closed. */
  lastHeardAt = performance.now();
  /** A pairing request of this session waits for its code until then (ms since epoch): it may stay silent meanwhile. */
  pairingUntil = 0;
  readonly #ended = new AbortController();

  constructor(socket: WebSocket, origin: string | null, rateLimit: RateLimitOptions) {
    this.#socket = socket;
    this.origin = origin;
    this.anonymousBucket = new TokenBucket(rateLimit);
  }

  get open(): boolean {
    return this.#socket.readyState === WebSocket.OPEN;
  }

  /**
   * Fired when the connection closes: what the session asked of a PINPAD (a key, a CPF) stops
   * then, rather than holding the PINPAD until the prompt's timeout for an answer nobody reads.
   */
  get ended(): AbortSignal {
    return this.#ended.signal;
  }

  /** The connection closed (called by the server). */
  end(): void {
    this.#ended.abort(new Error('the POS disconnected'));
  }

  get authenticated(): boolean {
    return this.client !== undefined || this.operator;
  }

  send(message: object): void {
    if (!this.open) return;
    this.#socket.send(JSON.stringify(message));
  }

  /** Sends a serialized message (events go to many sessions: serialized once). */
  sendRaw(text: string): void {
    if (this.open) this.#socket.send(text);
  }

  close(reason: CloseReason, detail?: string): void {
    this.#socket.close(CLOSE_CODES[reason], detail === undefined ? reason : `${reason}: ${detail}`.slice(0, 123));
  }
}
