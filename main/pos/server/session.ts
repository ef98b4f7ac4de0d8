/**
 * One WebSocket connection of a POS: where it comes from (its Origin, null for a non-browser
 * client; the program behind it, looked up when needed), which paired client it is once it said
 * hello, and its rate budget. Sending never throws: a socket that closed meanwhile just drops the
 * message (the POS recovers by payment.status, which is the documented way).
 */
import { randomUUID } from 'node:crypto';
import { WebSocket } from 'ws';
import type { PairedClient } from '../clients/client-store.js';
import { CLOSE_CODES, type CloseReason } from '../protocol/index.js';
import { UNKNOWN_PEER, type LoopbackPeer, type PeerFinder, type PeerInfo } from './peer/peer.js';
import { TokenBucket, type RateLimitOptions } from './rate-limit.js';

/** How the requests and connections of a peer are grouped: by process, else by user, else all unknown together. */
export interface PeerGroup {
  /** "pid:1234", "uid:1001" or "unknown". */
  readonly key: string;
  /** The key names one process. */
  readonly exact: boolean;
}

export function peerGroup(info: PeerInfo): PeerGroup {
  if (info.process !== null) return { key: `pid:${info.process.pid}`, exact: true };
  return { key: info.uid === null ? 'unknown' : `uid:${info.uid}`, exact: false };
}

export class Session {
  readonly id = randomUUID();
  readonly origin: string | null;
  readonly #socket: WebSocket;
  readonly #remote: LoopbackPeer | undefined;
  readonly #finder: PeerFinder | undefined;
  #peer: Promise<PeerInfo> | undefined;
  /** The program behind the connection, once looked up (undefined until then). */
  peerInfo: PeerInfo | undefined;
  /** The paired client, once it said hello (or confirmed a pairing). */
  client: PairedClient | undefined;
  /** Pinbridge's own window (session.operator with the agent's key): sees everything, pairs nothing. */
  operator = false;
  /** The budget before hello; a paired client's budget is shared by its sessions (see Hub). */
  readonly anonymousBucket: TokenBucket;
  /** Requests answered not yet. */
  inFlight = 0;
  /** When it connected (ms, performance.now). */
  readonly connectedAt = performance.now();
  /**
   * Since when its requests are read (ms, performance.now): one that has not logged in is closed a
   * fixed time after (waiting-room.ts). Undefined while they wait for a check (holdUntil).
   */
  readingSince: number | undefined = this.connectedAt;
  /** Its pairing request waiting for a code, and until when (ms since epoch): it may stay that long. */
  pairingId: string | undefined;
  pairingUntil = 0;
  /**
   * Counted among the connections that have not logged in: false for a newcomer that came when they
   * were too many, until its program is looked up and it is given room (waiting-room.ts).
   */
  admitted = true;
  /** What requests wait for before they are read (the check of a blocked program, and of room); undefined once done. */
  #pending: Promise<void> | undefined;
  readonly #ended = new AbortController();

  constructor(
    socket: WebSocket,
    origin: string | null,
    rateLimit: RateLimitOptions,
    peer: { readonly remote: LoopbackPeer; readonly finder: PeerFinder } | undefined = undefined,
  ) {
    this.#socket = socket;
    this.origin = origin;
    this.anonymousBucket = new TokenBucket(rateLimit);
    this.#remote = peer?.remote;
    this.#finder = peer?.finder;
  }

  /** The check requests wait for before they are read, while it runs (Dispatcher.handle); undefined: none. */
  get pending(): Promise<void> | undefined {
    return this.#pending;
  }

  /**
   * Requests wait for `check` before they are read, in the order they came. Most connections have
   * nothing to wait for: their requests are then read at once, not after a promise (a microtask).
   */
  holdUntil(check: Promise<void>): void {
    const done = (): void => {
      if (this.#pending !== pending) return;
      this.#pending = undefined;
      this.readingSince = performance.now();
    };
    this.readingSince = undefined;
    const pending: Promise<void> = check.then(done, done);
    this.#pending = pending;
  }

  /** The program behind the connection (looked up once; unknown when it cannot be told). */
  lookUpPeer(): Promise<PeerInfo> {
    if (this.#peer === undefined) {
      const found =
        this.#remote === undefined || this.#finder === undefined
          ? Promise.resolve(UNKNOWN_PEER)
          : this.#finder.find(this.#remote).catch(() => UNKNOWN_PEER);
      this.#peer = found.then((info) => (this.peerInfo = info));
    }
    return this.#peer;
  }

  /** The group its peer counts in, once looked up. */
  get group(): PeerGroup | undefined {
    return this.peerInfo === undefined ? undefined : peerGroup(this.peerInfo);
  }

  /** A few words for the log's samples: the origin, else the program, else the port. */
  describe(): string {
    const process = this.peerInfo?.process;
    const who = process ? `${process.name} (PID ${process.pid})` : `port ${this.#remote?.port ?? '?'}`;
    return this.origin === null ? who : `${this.origin} via ${who}`;
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

  /** Sends a message already serialized (an answer, or an event serialized once for many sessions). */
  sendRaw(text: string): void {
    if (this.open) this.#socket.send(text);
  }

  close(reason: CloseReason, detail?: string): void {
    this.#socket.close(CLOSE_CODES[reason], detail === undefined ? reason : `${reason}: ${detail}`.slice(0, 123));
  }
}
