/**
 * PinbridgeClient: the POS side of Pinbridge's local WebSocket API (JSON-RPC 2.0 at
 * ws://127.0.0.1:<port>/pos), for browsers and Node alike. It finds the agent on the default
 * ports, says hello with the client token, pairs, types every call and event from the protocol,
 * reconnects with backoff, and — the part a POS gets wrong most — recovers a payment whose
 * answer was lost with the connection (payment.status, then wait or start again: idempotent).
 * With `operatorKey` it is Pinbridge's own window instead of a POS: session.operator on every
 * connection, no pairing, no token.
 *
 * Protocol types come from `./protocol.ts` (generated from `main/pos/protocol`) with `import type`
 * only, so the compiled client needs nothing but a WebSocket.
 */
import {
  METHOD_WAITS,
  type EventName,
  type EventPayload,
  type MethodName,
  type ParamsOf,
  type PaymentOutcome,
  type ResultOf,
} from './protocol.js';
import { Backoff, type BackoffOptions } from './backoff.js';
import { CLOSE_CODES, defaultUrls } from './constants.js';
import { Emitter, type Listener } from './emitter.js';
import { pairingCodeDigits } from './pairing-code.js';
import { clientError, isPinbridgeError, PinbridgeError, errorFromRpc } from './errors.js';
import { globalWebSocket, READY_STATE, type WebSocketCtor, type WebSocketLike } from './websocket.js';

/**
 * - `idle`: built, `connect()` not called yet;
 * - `connecting`: looking for the agent (first time);
 * - `open`: connected, anonymous (no token: pair, or only public methods);
 * - `ready`: connected and authenticated (hello or pairing done);
 * - `reconnecting`: the connection dropped; retrying with backoff;
 * - `blocked`: the agent refused this page's origin or this program (close 4003/4001/4005): no retry until `connect()`;
 * - `closed`: `close()` was called, the first connection failed, or reconnect is off.
 */
export type ClientState = 'idle' | 'connecting' | 'open' | 'ready' | 'reconnecting' | 'blocked' | 'closed';

/** A WebSocket close, as the agent sent it (code and reason text). */
export interface ClosedEvent {
  readonly code: number;
  readonly reason: string;
}

/** The protocol's notifications plus the client's own `state` and `closed`. */
export type ClientEvents = { [E in EventName]: EventPayload<E> } & {
  state: ClientState;
  closed: ClosedEvent;
};
export type ClientEventName = keyof ClientEvents;

export type AgentInfo = ResultOf<'agent.info'>;
/** What session.operator answered: this connection is Pinbridge's own window. */
export type OperatorLogin = ResultOf<'session.operator'>;
export type PairingStarted = ResultOf<'session.pair'>;
export type PaymentStartParams = ParamsOf<'payment.start'>;

export interface PinbridgeClientOptions {
  /** One agent URL (e.g. `ws://${location.host}/pos` on a page the agent serves). Wins over `urls`. */
  readonly url?: string;
  /** URLs tried in order; default: ws://127.0.0.1:<port>/pos for each of DEFAULT_PORTS. */
  readonly urls?: readonly string[];
  /** With no `url`/`urls`: wss://localhost:<port>/pos, for an agent serving TLS (`pinbridge pos cert`). */
  readonly secure?: boolean;
  /** The client token from an earlier pairing; hello is said with it on every connection. */
  readonly token?: string | null;
  /** Called with the new token after pairing, and with null when it is revoked or rejected: store it. */
  readonly onToken?: (token: string | null) => void;
  /**
   * The agent's operator key: this client is Pinbridge's own window. On every connection it logs
   * in with `session.operator {key}` instead of `session.hello` (a token is then never sent). A
   * refused key (OPERATOR_ONLY) rejects `connect()` and leaves the connection `open`, anonymous.
   */
  readonly operatorKey?: string;
  /** The WebSocket class. Default `globalThis.WebSocket` (browsers, Node ≥ 22); in Node 20 pass `WebSocket` from `ws`. */
  readonly WebSocket?: WebSocketCtor;
  /** How long a call waits for its answer (default 30 s). payment.start waits without a limit. */
  readonly requestTimeoutMs?: number;
  /** Reconnect after a lost connection (default on, 0.5 s doubling up to 10 s, jittered); false: never. */
  readonly reconnect?: BackoffOptions | false;
}

export interface CallOptions {
  /** Overrides the request timeout for this call; 0 waits forever. */
  readonly timeoutMs?: number;
}

export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** How often `pay` asks payment.status while a recovered payment is still running. */
export const STATUS_POLL_INTERVAL_MS = 2_000;

/** The customer's time when a method waiting for them (METHOD_WAITS `customer`) gives no `timeout_s`. */
const CUSTOMER_DEFAULT_TIMEOUT_S = 60;
/** Room for the agent to answer after the customer's time is up. */
const CUSTOMER_TIMEOUT_MARGIN_MS = 15_000;
/** How long `pay` waits before asking again when the agent said it is shutting down. */
const AGENT_CLOSING_PAUSE_MS = 1_000;

interface PendingRequest {
  readonly resolve: (result: unknown) => void;
  readonly reject: (error: PinbridgeError) => void;
  readonly timer: ReturnType<typeof setTimeout> | undefined;
}

/** How long a failed handshake waits for the close frame that tells why. */
const CLOSE_REASON_WAIT_MS = 1_000;

interface OpenedSocket {
  readonly socket: WebSocketLike;
  readonly closed: Promise<ClosedEvent>;
}

/** What `#recoverPayment` concluded. */
type Recovery =
  | { readonly kind: 'outcome'; readonly outcome: PaymentOutcome }
  | { readonly kind: 'start' }
  | { readonly kind: 'lost' };

export class PinbridgeClient {
  readonly #urls: readonly string[];
  readonly #WebSocket: WebSocketCtor;
  readonly #requestTimeoutMs: number;
  readonly #backoff: Backoff | null;
  readonly #onToken: ((token: string | null) => void) | undefined;
  readonly #events = new Emitter<ClientEvents>();
  readonly #pending = new Map<number, PendingRequest>();

  #token: string | null;
  /** Why the token went away (revoked, rejected at hello), for the payments that were waiting on it. */
  #tokenLoss: PinbridgeError | null = null;
  #state: ClientState = 'idle';
  /** Why the client is blocked or closed, for the calls and payments waiting on it. */
  #failure: PinbridgeError | null = null;
  #socket: WebSocketLike | null = null;
  /** The socket finished its handshake (agent.info, hello): losing it now means reconnecting. */
  #live = false;
  /** The index in #urls that answered last: tried first next time. */
  #urlIndex = 0;
  #nextRequestId = 1;
  /** Raised by close(): connection work started before it stops at its next step. */
  #epoch = 0;
  #connecting: Promise<void> | null = null;
  #reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  #pairingId: string | null = null;
  #agentInfo: AgentInfo | null = null;
  #clientId: string | null = null;
  #clientName: string | null = null;
  readonly #operatorKey: string | null;
  /** session.operator's answer on the current connection; null when not logged in as the window. */
  #operatorLogin: OperatorLogin | null = null;
  /** Why the operator key was refused on the last connection (for the payments waiting on it). */
  #operatorRefusal: PinbridgeError | null = null;

  constructor(options: PinbridgeClientOptions = {}) {
    const urls =
      options.url !== undefined ? [options.url] : [...(options.urls ?? defaultUrls(options.secure === true))];
    if (urls.length === 0) throw new TypeError('PinbridgeClient: `urls` is empty');
    this.#urls = urls;
    const WebSocketClass = options.WebSocket ?? globalWebSocket();
    if (WebSocketClass === undefined) {
      throw new TypeError('PinbridgeClient: this runtime has no WebSocket; pass { WebSocket } from the "ws" package');
    }
    this.#WebSocket = WebSocketClass;
    this.#requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.#backoff = options.reconnect === false ? null : new Backoff(options.reconnect ?? {});
    this.#onToken = options.onToken;
    this.#token = options.token ?? null;
    this.#operatorKey = options.operatorKey ?? null;
  }

  // ------------------------------------------------------------------------------------------
  // What the client knows

  get state(): ClientState {
    return this.#state;
  }

  /** The client token (null before pairing or after it was revoked). */
  get token(): string | null {
    return this.#token;
  }

  get paired(): boolean {
    return this.#token !== null;
  }

  /** With `operatorKey`: session.operator's answer (name, version, mode) while logged in as the window, else null. */
  get operator(): OperatorLogin | null {
    return this.#operatorLogin;
  }

  /** agent.info of the agent connected last (version, protocol, mode…). */
  get agentInfo(): AgentInfo | null {
    return this.#agentInfo;
  }

  /** This POS as the agent knows it, once authenticated. */
  get clientId(): string | null {
    return this.#clientId;
  }

  get clientName(): string | null {
    return this.#clientName;
  }

  /** The URL of the agent connected last. */
  get url(): string {
    return this.#urls[this.#urlIndex] ?? this.#urls[0] ?? '';
  }

  // ------------------------------------------------------------------------------------------
  // Events

  /** Listens to an agent notification, `state` or `closed`; returns the function that stops listening. */
  on<E extends ClientEventName>(event: E, listener: Listener<ClientEvents[E]>): () => void {
    this.#events.on(event, listener);
    return () => this.#events.off(event, listener);
  }

  off<E extends ClientEventName>(event: E, listener: Listener<ClientEvents[E]>): void {
    this.#events.off(event, listener);
  }

  // ------------------------------------------------------------------------------------------
  // Connection

  /**
   * Finds the agent (the URLs in order), checks it is Pinbridge (agent.info) and, with a token,
   * says hello. Resolves in state `open` (no token) or `ready`. Rejects with a PinbridgeError:
   * AGENT_UNREACHABLE (nothing answered), ORIGIN_BLOCKED / ORIGIN_NOT_ALLOWED (state `blocked`),
   * TOKEN_INVALID (the token is forgotten, onToken(null); the connection stays `open` to pair
   * again), OPERATOR_ONLY (with `operatorKey`: the key is refused; the connection stays `open`),
   * or the agent's error at hello. Called while reconnecting, it retries at once.
   */
  connect(): Promise<void> {
    if (this.#state === 'open' || this.#state === 'ready') return Promise.resolve();
    if (this.#connecting !== null) return this.#connecting;
    this.#cancelReconnectTimer();
    const automatic = this.#state === 'reconnecting';
    if (!automatic) this.#setState('connecting');
    return this.#startConnecting(automatic);
  }

  /** Closes the connection and stops reconnecting; waiting calls and payments reject with CONNECTION_LOST. */
  close(): void {
    this.#epoch += 1;
    this.#cancelReconnectTimer();
    this.#connecting = null;
    const socket = this.#socket;
    this.#socket = null;
    this.#live = false;
    this.#operatorLogin = null;
    const error = clientError('CONNECTION_LOST', 'The client was closed');
    this.#failure = error;
    this.#rejectPending(error);
    if (socket !== null) {
      closeQuietly(socket, 1000, 'client closed');
      this.#events.emit('closed', { code: 1000, reason: 'client closed' });
    }
    this.#setState('closed');
  }

  // ------------------------------------------------------------------------------------------
  // Calls

  /**
   * Calls a method, typed from the protocol. Rejects with a PinbridgeError: the agent's code
   * (INVALID_PARAMS with data.violations, UNAUTHENTICATED, BUSY…), TIMEOUT, or CONNECTION_LOST
   * when the connection is down or drops before the answer (use `pay` for payments: it recovers).
   */
  call<M extends MethodName>(method: M, params: ParamsOf<M>, options: CallOptions = {}): Promise<ResultOf<M>> {
    if (!this.#live) {
      return Promise.reject(
        this.#failure ??
          clientError('CONNECTION_LOST', `Not connected to Pinbridge (state ${this.#state}); cannot call ${method}`),
      );
    }
    return this.#request(method, params, options.timeoutMs ?? this.#timeoutFor(method, params));
  }

  /** Asks to pair this POS; the cashier reads the code in the Pinbridge window. */
  async pair(name: string): Promise<PairingStarted> {
    const started = await this.call('session.pair', { name });
    this.#pairingId = started.pairing_id;
    return started;
  }

  /**
   * Sends the code the cashier read. On success the token is kept (and given to onToken) and this
   * connection is `ready`. WRONG_CODE (data.attempts_left) keeps the pairing open for another try.
   */
  async confirmPairing(code: string): Promise<{ clientId: string; name: string }> {
    const pairingId = this.#pairingId;
    if (pairingId === null) {
      throw new PinbridgeError('PAIRING_INVALID', 'Call pair() before confirmPairing()', {
        cashierMessage: 'Inicie o pareamento antes de digitar o código.',
      });
    }
    let paired: ResultOf<'session.confirmPairing'>;
    try {
      // Cashiers type "123 456" (as the window shows it), "123-456" or wide digits as often as
      // "123456". What is no code at all goes as typed: the agent's INVALID_PARAMS says why.
      paired = await this.call('session.confirmPairing', {
        pairing_id: pairingId,
        code: pairingCodeDigits(code) ?? code.trim(),
      });
    } catch (error) {
      if (isPinbridgeError(error, 'PAIRING_INVALID')) this.#pairingId = null;
      throw error;
    }
    this.#pairingId = null;
    this.#clientId = paired.client_id;
    this.#clientName = paired.name;
    this.#setToken(paired.token);
    if (this.#live) this.#setState('ready');
    return { clientId: paired.client_id, name: paired.name };
  }

  /**
   * Forgets the token here (onToken(null)); the agent keeps the pairing until it is revoked in
   * its window. A connected client reconnects anonymously (state `open`).
   */
  async unpair(): Promise<void> {
    this.#pairingId = null;
    this.#tokenLoss = null;
    this.#forgetToken();
    if (this.#state === 'ready') {
      this.close();
      await this.connect();
    }
  }

  /**
   * Runs a PINPAD payment to its outcome (payment.start, no timeout). If the connection is lost
   * before the answer, it waits for the reconnection (and hello), asks payment.status and:
   * Processed → resolves with that result; InProgress → waits for the payment.result event (or
   * asks again every 2 s) while the sale runs, and resolves with the `in_progress` outcome the
   * agent gives once nothing drives it (status `in_progress`, problem RESULT_PENDING: do not
   * charge again; payment.result follows); NotFound → the start never reached the agent: starts it again with the
   * same params (payment.start is idempotent by reference_id). Rejects with the agent's error
   * (INVALID_PARAMS, BUSY, REFERENCE_CONFLICT…), with CONNECTION_LOST if the client is closed,
   * or with TOKEN_REVOKED / TOKEN_INVALID / ORIGIN_BLOCKED when recovery became impossible.
   * Call it when `ready`: while disconnected it rejects at once (nothing was sent).
   */
  async pay(params: PaymentStartParams): Promise<PaymentOutcome> {
    if (!this.#live) {
      throw (
        this.#failure ??
        clientError('CONNECTION_LOST', `Not connected to Pinbridge (state ${this.#state}); the payment was not started`)
      );
    }
    const referenceId = params.reference_id;
    const announcement: Announcement = { outcome: null, wake: null };
    const stopListening = this.on('payment.result', (outcome) => {
      if (outcome.reference_id !== referenceId) return;
      announcement.outcome = outcome;
      announcement.wake?.();
    });
    try {
      let recovering = false;
      for (;;) {
        if (recovering) {
          await this.#waitUntilReady();
          if (announcement.outcome !== null) return announcement.outcome;
          const recovery = await this.#recoverPayment(referenceId, announcement);
          if (recovery.kind === 'outcome') return recovery.outcome;
          if (recovery.kind === 'lost') continue;
        }
        try {
          return await this.call('payment.start', params);
        } catch (error) {
          // Anything else is the agent's verdict on the start itself.
          if (!isPinbridgeError(error, 'CONNECTION_LOST', 'CLOSED')) throw error;
          recovering = true;
          await pauseAfter(error);
        }
      }
    } finally {
      stopListening();
    }
  }

  // ------------------------------------------------------------------------------------------
  // Payment recovery

  /** One round of payment.status after a doubt; polls while the payment runs. */
  async #recoverPayment(referenceId: string, announcement: Announcement): Promise<Recovery> {
    for (;;) {
      let status: ResultOf<'payment.status'>;
      try {
        status = await this.call('payment.status', { reference_id: referenceId });
      } catch (error) {
        if (!isPinbridgeError(error, 'CONNECTION_LOST', 'TIMEOUT', 'CLOSED', 'RATE_LIMITED')) throw error;
        await pauseAfter(error);
        return { kind: 'lost' };
      }
      if (status.status === 'Processed') return { kind: 'outcome', outcome: status.result };
      if (status.status === 'NotFound') return { kind: 'start' };
      // The sale stopped before its result and nothing drives it now: the agent confirms it on
      // its own timer and sends payment.result. Waiting on would hold the checkout for as long
      // as the API or the disk is down; the caller shows "do not charge again" instead.
      if (status.result !== undefined) return { kind: 'outcome', outcome: status.result };
      await waitForAnnouncement(announcement, STATUS_POLL_INTERVAL_MS);
      if (announcement.outcome !== null) return { kind: 'outcome', outcome: announcement.outcome };
    }
  }

  /** Resolves when `ready`; rejects as soon as that cannot happen by itself (token gone, blocked, closed). */
  #waitUntilReady(): Promise<void> {
    return new Promise((resolve, reject) => {
      const settle = (): boolean => {
        if (this.#state === 'ready') {
          resolve();
          return true;
        }
        if (this.#operatorKey !== null) {
          // The window logs in with its key, not a token: only a refused key ends the wait.
          if (this.#operatorRefusal !== null && this.#state === 'open') {
            reject(this.#operatorRefusal);
            return true;
          }
        } else if (this.#token === null) {
          reject(this.#tokenLoss ?? new PinbridgeError('UNAUTHENTICATED', 'This client has no token any more'));
          return true;
        }
        if (this.#state === 'blocked' || this.#state === 'closed' || this.#state === 'idle') {
          reject(this.#failure ?? clientError('CONNECTION_LOST', `The client is ${this.#state}`));
          return true;
        }
        return false;
      };
      if (settle()) return;
      const stopListening = this.on('state', () => {
        if (settle()) stopListening();
      });
    });
  }

  // ------------------------------------------------------------------------------------------
  // Connection machinery

  #startConnecting(automatic: boolean): Promise<void> {
    const epoch = this.#epoch;
    const attempt: Promise<void> = this.#establish(epoch)
      .catch((error: unknown) => {
        const failure =
          error instanceof PinbridgeError ? error : clientError('AGENT_UNREACHABLE', 'Connecting failed', error);
        if (epoch === this.#epoch) this.#afterFailedConnect(failure, automatic);
        throw failure;
      })
      .finally(() => {
        if (this.#connecting === attempt) this.#connecting = null;
      });
    this.#connecting = attempt;
    return attempt;
  }

  async #establish(epoch: number): Promise<void> {
    const order = this.#urls.map((_, offset) => (this.#urlIndex + offset) % this.#urls.length);
    let lastError: PinbridgeError | undefined;
    for (const index of order) {
      const url = this.#urls[index] ?? '';
      let socket: WebSocketLike;
      let closed: Promise<ClosedEvent>;
      try {
        ({ socket, closed } = await this.#open(url));
      } catch (error) {
        if (isRefusal(error)) throw error;
        lastError = error instanceof PinbridgeError ? error : undefined;
        continue;
      }
      if (epoch !== this.#epoch) {
        closeQuietly(socket, 1000, 'client closed');
        throw clientError('CONNECTION_LOST', 'The client was closed while connecting');
      }
      this.#adopt(socket);
      try {
        const info = await this.#handshakeRequest(socket, closed, 'agent.info', {});
        // Another program may listen on a default port: only Pinbridge says its name.
        if ((info as { name: unknown }).name !== 'Pinbridge')
          throw clientError('AGENT_UNREACHABLE', `${url} is not Pinbridge`);
        this.#agentInfo = info;
        this.#urlIndex = index;
      } catch (error) {
        this.#drop(socket);
        if (isRefusal(error) || epoch !== this.#epoch) throw error;
        lastError = error instanceof PinbridgeError ? error : undefined;
        continue;
      }
      // Pinbridge answered: from here its answers count, no other URL is tried.
      await this.#logIn(socket, closed, epoch);
      return;
    }
    throw clientError('AGENT_UNREACHABLE', `No Pinbridge answered on ${this.#urls.join(', ')}`, lastError);
  }

  /** Says hello when there is a token, then goes live (`ready` or `open`). */
  async #logIn(socket: WebSocketLike, closed: Promise<ClosedEvent>, epoch: number): Promise<void> {
    if (this.#operatorKey !== null) return this.#logInAsOperator(socket, closed, epoch, this.#operatorKey);
    const token = this.#token;
    let missedResults: PaymentOutcome[] = [];
    if (token !== null) {
      try {
        const hello = await this.#handshakeRequest(socket, closed, 'session.hello', { token });
        this.#clientId = hello.client_id;
        this.#clientName = hello.name;
        missedResults = hello.missed_results;
      } catch (error) {
        if (epoch === this.#epoch && this.#socket === socket && isPinbridgeError(error, 'TOKEN_INVALID')) {
          // The connection is fine; only the token is not. Stay connected so the POS can pair again.
          this.#tokenLoss = error;
          this.#forgetToken();
          this.#goLive('open');
          throw error;
        }
        this.#drop(socket);
        throw error;
      }
    }
    this.#failure = null;
    this.#backoff?.reset();
    this.#goLive(token === null ? 'open' : 'ready');
    for (const outcome of missedResults) this.#events.emit('payment.result', outcome);
  }

  /** The window's login (session.operator with the key), then live: `ready`, or `open` when the key is refused. */
  async #logInAsOperator(
    socket: WebSocketLike,
    closed: Promise<ClosedEvent>,
    epoch: number,
    key: string,
  ): Promise<void> {
    this.#operatorLogin = null;
    let login: OperatorLogin;
    try {
      login = await this.#handshakeRequest(socket, closed, 'session.operator', { key });
    } catch (error) {
      if (epoch === this.#epoch && this.#socket === socket && isPinbridgeError(error, 'OPERATOR_ONLY')) {
        // The connection is fine; only the key is not (the agent has a new key, or the page is not its own).
        this.#operatorRefusal = error;
        this.#goLive('open');
        throw error;
      }
      this.#drop(socket);
      throw error;
    }
    this.#operatorLogin = login;
    this.#operatorRefusal = null;
    this.#failure = null;
    this.#backoff?.reset();
    this.#goLive('ready');
  }

  /**
   * A request of the handshake. An agent that refuses the origin closes right after the upgrade,
   * often before the request leaves: then the close code, not "connection lost", is the answer.
   */
  async #handshakeRequest<M extends MethodName>(
    socket: WebSocketLike,
    closed: Promise<ClosedEvent>,
    method: M,
    params: ParamsOf<M>,
  ): Promise<ResultOf<M>> {
    try {
      return await this.#request(method, params, this.#requestTimeoutMs);
    } catch (error) {
      if (!isPinbridgeError(error, 'CONNECTION_LOST') || socket.readyState === READY_STATE.OPEN) throw error;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const close = await Promise.race([
        closed,
        new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), CLOSE_REASON_WAIT_MS))),
      ]);
      clearTimeout(timer);
      throw close === null ? error : errorForClose(close.code, close.reason);
    }
  }

  #afterFailedConnect(error: PinbridgeError, automatic: boolean): void {
    if (isRefusal(error)) {
      this.#failure = error;
      this.#setState('blocked');
    } else if (this.#live) {
      // TOKEN_INVALID at hello: connected and anonymous, nothing to retry.
    } else if (automatic && this.#backoff !== null) {
      this.#scheduleReconnect();
    } else {
      this.#failure = error;
      this.#setState('closed');
    }
  }

  /** Opens a socket; `closed` settles with its close event whenever that comes. */
  #open(url: string): Promise<OpenedSocket> {
    return new Promise((resolve, reject) => {
      let socket: WebSocketLike;
      try {
        socket = new this.#WebSocket(url);
      } catch (error) {
        reject(clientError('AGENT_UNREACHABLE', `Cannot open ${url}`, error));
        return;
      }
      let settled = false;
      const timer = setTimeout(() => {
        if (settled) return;
        settled = true;
        closeQuietly(socket, 1000, 'open timeout');
        reject(clientError('AGENT_UNREACHABLE', `${url} did not open within ${this.#requestTimeoutMs} ms`));
      }, this.#requestTimeoutMs);
      let onClosed: (event: ClosedEvent) => void = () => undefined;
      const closed = new Promise<ClosedEvent>((resolveClosed) => (onClosed = resolveClosed));
      socket.addEventListener('open', () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ socket, closed });
      });
      socket.addEventListener('close', (event) => {
        onClosed({ code: event.code, reason: event.reason });
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        const error = errorForClose(event.code, event.reason);
        reject(
          isRefusal(error) ? error : clientError('AGENT_UNREACHABLE', `${url} refused the connection (${event.code})`),
        );
      });
      // Errors are always followed by a close event, which settles; the listener keeps `ws` from throwing.
      socket.addEventListener('error', () => undefined);
    });
  }

  #adopt(socket: WebSocketLike): void {
    this.#socket = socket;
    socket.addEventListener('message', (event) => {
      if (socket === this.#socket) this.#onMessage(event.data);
    });
    socket.addEventListener('close', (event) => {
      if (socket === this.#socket) this.#onClose(event.code, event.reason);
    });
  }

  /** Leaves a socket (failed handshake): closes it, fails its requests. */
  #drop(socket: WebSocketLike): void {
    if (this.#socket !== socket) return;
    this.#socket = null;
    this.#live = false;
    this.#rejectPending(clientError('CONNECTION_LOST', 'The connection was dropped during the handshake'));
    closeQuietly(socket, 1000, 'handshake failed');
  }

  #goLive(state: 'open' | 'ready'): void {
    this.#live = true;
    this.#setState(state);
  }

  #onClose(code: number, reason: string): void {
    this.#socket = null;
    this.#operatorLogin = null;
    const wasLive = this.#live;
    this.#live = false;
    const error = errorForClose(code, reason);
    this.#rejectPending(error);
    this.#events.emit('closed', { code, reason });
    // During the handshake the request in flight has just failed: #establish decides.
    if (!wasLive) return;
    if (isRefusal(error)) {
      this.#failure = error;
      this.#setState('blocked');
      return;
    }
    if (code === CLOSE_CODES.TOKEN_REVOKED) {
      this.#tokenLoss = error;
      this.#forgetToken();
    }
    if (this.#backoff !== null) {
      this.#scheduleReconnect();
    } else {
      this.#failure = error;
      this.#setState('closed');
    }
  }

  #scheduleReconnect(): void {
    this.#cancelReconnectTimer();
    this.#setState('reconnecting');
    const delay = this.#backoff?.next() ?? 0;
    this.#reconnectTimer = setTimeout(() => {
      this.#reconnectTimer = null;
      // Failures are handled in #afterFailedConnect (another attempt, blocked…).
      this.#startConnecting(true).catch(() => undefined);
    }, delay);
  }

  #cancelReconnectTimer(): void {
    if (this.#reconnectTimer !== null) clearTimeout(this.#reconnectTimer);
    this.#reconnectTimer = null;
  }

  #setState(state: ClientState): void {
    if (this.#state === state) return;
    this.#state = state;
    this.#events.emit('state', state);
  }

  #setToken(token: string): void {
    this.#token = token;
    this.#tokenLoss = null;
    this.#notifyToken(token);
  }

  #forgetToken(): void {
    if (this.#token === null) return;
    this.#token = null;
    this.#clientId = null;
    this.#clientName = null;
    this.#notifyToken(null);
  }

  #notifyToken(token: string | null): void {
    try {
      this.#onToken?.(token);
    } catch (error) {
      // The caller's storage failing must not break the connection; report it like a listener error.
      setTimeout(() => {
        throw error;
      }, 0);
    }
  }

  // ------------------------------------------------------------------------------------------
  // JSON-RPC

  #request<M extends MethodName>(method: M, params: ParamsOf<M>, timeoutMs: number): Promise<ResultOf<M>> {
    const socket = this.#socket;
    if (socket === null || socket.readyState !== READY_STATE.OPEN) {
      return Promise.reject(clientError('CONNECTION_LOST', `Not connected to Pinbridge; cannot call ${method}`));
    }
    const id = this.#nextRequestId++;
    return new Promise<ResultOf<M>>((resolve, reject) => {
      const timer =
        timeoutMs > 0
          ? setTimeout(() => {
              this.#pending.delete(id);
              reject(clientError('TIMEOUT', `${method} got no answer within ${timeoutMs} ms`));
            }, timeoutMs)
          : undefined;
      this.#pending.set(id, { resolve: resolve as (result: unknown) => void, reject, timer });
      try {
        socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
      } catch (error) {
        this.#pending.delete(id);
        clearTimeout(timer);
        reject(clientError('CONNECTION_LOST', `Could not send ${method}`, error));
      }
    });
  }

  #timeoutFor(method: MethodName, params: unknown): number {
    // Declared with each method in the protocol (main/pos/protocol's `waits`), generated into protocol.ts.
    const waits = METHOD_WAITS[method];
    if (waits === 'outcome') return 0;
    if (waits === 'customer') {
      const seconds = (params as { timeout_s?: unknown } | undefined)?.timeout_s;
      const customerMs = (typeof seconds === 'number' ? seconds : CUSTOMER_DEFAULT_TIMEOUT_S) * 1000;
      return Math.max(this.#requestTimeoutMs, customerMs + CUSTOMER_TIMEOUT_MARGIN_MS);
    }
    return this.#requestTimeoutMs;
  }

  #onMessage(data: unknown): void {
    let message: unknown;
    try {
      // Text frames are strings in browsers and in `ws`; String() covers a Buffer all the same.
      message = JSON.parse(typeof data === 'string' ? data : String(data));
    } catch {
      return; // The agent sends only JSON; there is nobody to answer a broken frame.
    }
    if (typeof message !== 'object' || message === null) return;
    const { id, method, params, result, error } = message as {
      id?: unknown;
      method?: unknown;
      params?: unknown;
      result?: unknown;
      error?: unknown;
    };
    if (typeof method === 'string') {
      // A notification. `state` and `closed` are the client's own events, never the agent's.
      if (id === undefined && method !== 'state' && method !== 'closed') {
        this.#events.emit(method as EventName, params as EventPayload<EventName>);
      }
      return;
    }
    if (typeof id !== 'number') return;
    const pending = this.#pending.get(id);
    if (pending === undefined) return; // Timed out already.
    this.#pending.delete(id);
    clearTimeout(pending.timer);
    if (error !== undefined) pending.reject(errorFromRpc(error));
    else pending.resolve(result);
  }

  #rejectPending(error: PinbridgeError): void {
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const request of pending) {
      clearTimeout(request.timer);
      request.reject(error);
    }
  }
}

/** A payment.result seen for the payment being recovered, and how to wake its waiter. */
interface Announcement {
  outcome: PaymentOutcome | null;
  wake: (() => void) | null;
}

function waitForAnnouncement(announcement: Announcement, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      announcement.wake = null;
      resolve();
    };
    const timer = setTimeout(done, ms);
    announcement.wake = done;
  });
}

/** A short wait before asking again, when the error says "not now". */
function pauseAfter(error: PinbridgeError): Promise<void> {
  const ms =
    error.code === 'RATE_LIMITED'
      ? (error.data?.retry_after_ms ?? AGENT_CLOSING_PAUSE_MS)
      : error.code === 'CLOSED'
        ? AGENT_CLOSING_PAUSE_MS
        : 0;
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}

/** The agent refused this page's origin or this program: retrying cannot help. */
function isRefusal(error: unknown): error is PinbridgeError {
  return isPinbridgeError(error, 'ORIGIN_BLOCKED', 'ORIGIN_NOT_ALLOWED', 'PROGRAM_BLOCKED');
}

function errorForClose(code: number, reason: string): PinbridgeError {
  const detail = `closed by Pinbridge (${code}${reason === '' ? '' : `: ${reason}`})`;
  switch (code) {
    case CLOSE_CODES.ORIGIN_BLOCKED:
      return clientError('ORIGIN_BLOCKED', `This origin is blocked in Pinbridge; ${detail}`);
    case CLOSE_CODES.ORIGIN_NOT_ALLOWED:
      return clientError('ORIGIN_NOT_ALLOWED', `This origin cannot pair with Pinbridge; ${detail}`);
    case CLOSE_CODES.TOKEN_REVOKED:
      return clientError('TOKEN_REVOKED', `The client token was revoked; ${detail}`);
    case CLOSE_CODES.PROGRAM_BLOCKED:
      return clientError('PROGRAM_BLOCKED', `This program is blocked in Pinbridge; ${detail}`);
    default:
      return clientError('CONNECTION_LOST', `Connection lost; ${detail}`);
  }
}

function closeQuietly(socket: WebSocketLike, code: number, reason: string): void {
  try {
    if (socket.readyState === READY_STATE.CONNECTING || socket.readyState === READY_STATE.OPEN)
      socket.close(code, reason);
  } catch {
    // Closing a socket that is failing anyway: nothing to do.
  }
}
