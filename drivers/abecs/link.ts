/**
 * The host (SPE) side of the ABECS link layer (abecs.md §1.6, §1.7): sends one command packet,
 * waits for ACK/NAK with retransmission, receives the response with NAK-based recovery, surfaces
 * NTM notifications, and cancels with CAN/EOT. It moves PKTDATA only; envelopes and command
 * semantics live above it.
 *
 * Every decision is the pure state machine of link-machine.ts; this class is its shell. It owns
 * the transport, the frame decoder, one real timer per named wait and the promises of the
 * callers, feeds the machine what happens (decoded bytes, timer expiries, writes taken or
 * refused, the transport closing) and performs the actions it returns, in order. Every wait is a
 * timer the machine started and stops, so `dispose()` can leave no handle behind.
 */
import { EventEmitter } from 'node:events';
import { DriverError } from '../errors.js';
import { silentLogger, type DriverLogger } from '../log.js';
import type { ByteTransport, TransportCloseInfo } from '../transports/transport.js';
import { FrameDecoder } from './frame.js';
import {
  DEFAULT_LINK_TIMINGS,
  initialLinkState,
  isBusy,
  step,
  type LinkAction,
  type LinkErrorCode,
  type LinkFailure,
  type LinkInput,
  type LinkNotification,
  type LinkState,
  type LinkTimer,
  type LinkTimings,
  type LinkTrace,
  type ResetResult,
} from './link-machine.js';

export {
  DEFAULT_LINK_TIMINGS,
  LINK_ERROR_CODES,
  describeCommand,
  type LinkErrorCode,
  type LinkNotification,
  type LinkTimings,
  type LinkTrace,
  type ResetResult,
} from './link-machine.js';

export class LinkError extends DriverError {
  declare readonly code: LinkErrorCode;

  constructor(code: LinkErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}

export interface HostLinkEvents {
  notification: [notification: LinkNotification];
  trace: [trace: LinkTrace];
}

export interface HostLinkOptions {
  readonly timings?: Partial<LinkTimings>;
  readonly logger?: DriverLogger;
}

export interface ExchangeOptions {
  /** Blocking commands (abecs.md §3.1) wait for the cardholder without the 10 s limit. */
  readonly blocking?: boolean;
  /** Overall limit for the whole exchange; on expiry the command is cancelled (CAN). */
  readonly timeoutMs?: number;
  /** Aborting cancels the command (CAN) and rejects with CANCELLED. */
  readonly signal?: AbortSignal;
  /** Called for every NTM packet received while waiting for the response. */
  readonly onNotification?: (notification: LinkNotification) => void;
  /** Name of the command in errors and logs; defaults to the packet's 3-letter id. */
  readonly label?: string;
}

/** A caller waiting on one command. */
interface PendingCommand {
  readonly resolve: (response: Buffer) => void;
  readonly reject: (error: Error) => void;
  readonly onNotification: ((notification: LinkNotification) => void) | undefined;
  /** Detaches the caller's signal. */
  readonly release: () => void;
}

interface CancelWaiter {
  readonly resolve: (result: ResetResult) => void;
  readonly reject: (error: Error) => void;
}

function toError(failure: LinkFailure): LinkError {
  return 'cause' in failure
    ? new LinkError(failure.code, failure.message, { cause: failure.cause })
    : new LinkError(failure.code, failure.message);
}

export class HostLink extends EventEmitter<HostLinkEvents> {
  readonly timings: LinkTimings;
  readonly #transport: ByteTransport;
  readonly #logger: DriverLogger;
  readonly #decoder = new FrameDecoder();
  readonly #timers = new Map<LinkTimer, NodeJS.Timeout>();
  /** Commands and cancels by the request number given to the machine. */
  readonly #commands = new Map<number, PendingCommand>();
  readonly #cancels = new Map<number, CancelWaiter[]>();
  #state: LinkState;
  #requests = 0;
  /** Actions not yet performed, in the order the machine returned them. */
  readonly #pending: LinkAction[] = [];
  #performing = false;

  readonly #onData = (chunk: Buffer): void => {
    const items = this.#decoder.push(chunk);
    this.#run({ type: 'bytes', items, receiving: this.#decoder.receiving });
  };
  readonly #onClose = (info: TransportCloseInfo): void => {
    this.#run({ type: 'closed', expected: info.expected });
  };

  constructor(transport: ByteTransport, options: HostLinkOptions = {}) {
    super();
    this.#transport = transport;
    this.timings = { ...DEFAULT_LINK_TIMINGS, ...options.timings };
    this.#logger = options.logger ?? silentLogger;
    this.#state = initialLinkState(this.timings);
    transport.on('data', this.#onData);
    transport.on('close', this.#onClose);
  }

  /** True while an exchange, cancel or reset is running. */
  get busy(): boolean {
    return isBusy(this.#state);
  }

  /**
   * Sends one command packet and resolves with the response's PKTDATA. NTM packets received
   * meanwhile go to `onNotification` and the `notification` event.
   */
  exchange(pktdata: Buffer, options: ExchangeOptions = {}): Promise<Buffer> {
    const op = ++this.#requests;
    const signal = options.signal;
    // Throws FrameError for empty or oversized packets before the link becomes busy.
    const actions = this.#step({
      type: 'send',
      op,
      pktdata,
      label: options.label,
      blocking: options.blocking ?? false,
      timeoutMs: options.timeoutMs,
      lineUp: this.#transport.isOpen,
      aborted: signal?.aborted ?? false,
    });
    const refusal = refusalIn(actions);
    if (refusal) return Promise.reject(toError(refusal));
    return new Promise<Buffer>((resolve, reject) => {
      const onAbort = (): void => this.#run({ type: 'abort', op });
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#commands.set(op, {
        resolve,
        reject,
        onNotification: options.onNotification,
        release: () => signal?.removeEventListener('abort', onAbort),
      });
      this.#perform();
    });
  }

  /**
   * Sends CAN until the PINPAD answers EOT (at most `maxCancelTries`); a command in flight is
   * rejected with CANCELLED. Rejects with CANCEL_UNANSWERED when no EOT comes.
   */
  async cancel(): Promise<void> {
    const op = ++this.#requests;
    const actions = this.#step({ type: 'cancel', op, lineUp: this.#transport.isOpen });
    const refusal = refusalIn(actions);
    if (refusal) throw toError(refusal);
    // A cancel already running is joined: its outcome is this one's.
    const join = actions.find((action): action is Extract<LinkAction, { type: 'join' }> => action.type === 'join');
    const done = this.#waitForCancel(join ? join.op : op);
    this.#perform();
    await done;
  }

  /**
   * The start-up CAN (S220 §2.2.2.3): kills any blocking command a previous session left
   * running. A PINPAD that stays silent is acceptable here; the result says whether EOT came.
   */
  reset(): Promise<ResetResult> {
    const op = ++this.#requests;
    const refusal = refusalIn(this.#step({ type: 'reset', op, lineUp: this.#transport.isOpen }));
    if (refusal) return Promise.reject(toError(refusal));
    const done = this.#waitForCancel(op);
    this.#perform();
    return done;
  }

  /** Detaches from the transport, clears every timer and rejects whatever is in flight. */
  dispose(): void {
    if (this.#state.disposed) return;
    this.#step({ type: 'dispose' });
    this.#transport.off('data', this.#onData);
    this.#transport.off('close', this.#onClose);
    this.#perform();
  }

  // ---------------------------------------------------------------------------------------------
  // Feeding the machine

  /**
   * Steps the machine and queues its actions. The state changes at once, so a request made from
   * inside an action (a listener, a callback) sees it; the actions run in order, after those
   * already queued.
   */
  #step(input: LinkInput): readonly LinkAction[] {
    const next = step(this.#state, input);
    this.#state = next.state;
    for (const action of next.actions) {
      // A refusal or a join answers the request being made; the caller reads it from the result.
      if (action.type !== 'refuse' && action.type !== 'join') this.#pending.push(action);
    }
    return next.actions;
  }

  #run(input: LinkInput): void {
    this.#step(input);
    this.#perform();
  }

  /** Performs the queued actions; a listener that throws does not stop the ones after it. */
  #perform(): void {
    if (this.#performing) return;
    this.#performing = true;
    const errors: unknown[] = [];
    try {
      for (let action = this.#pending.shift(); action; action = this.#pending.shift()) {
        try {
          this.#act(action);
        } catch (error) {
          errors.push(error);
        }
      }
    } finally {
      this.#performing = false;
    }
    if (errors.length > 0) throw errors[0];
  }

  #act(action: LinkAction): void {
    switch (action.type) {
      case 'refuse':
      case 'join':
        return; // never queued (see #step)
      case 'write':
        return this.#write(action);
      case 'startTimer': {
        this.#stopTimer(action.timer);
        const timer = action.timer;
        this.#timers.set(
          timer,
          setTimeout(() => {
            this.#timers.delete(timer);
            this.#run({ type: 'timeout', timer });
          }, action.ms),
        );
        return;
      }
      case 'stopTimer':
        return this.#stopTimer(action.timer);
      case 'resetDecoder':
        return this.#decoder.reset();
      case 'resolveCommand': {
        const command = this.#takeCommand(action.op);
        return command?.resolve(action.response);
      }
      case 'rejectCommand': {
        const command = this.#takeCommand(action.op);
        return command?.reject(toError(action.failure));
      }
      case 'resolveCancel':
        for (const waiter of this.#takeCancel(action.op)) waiter.resolve(action.result);
        return;
      case 'rejectCancel':
        for (const waiter of this.#takeCancel(action.op)) waiter.reject(toError(action.failure));
        return;
      case 'notify':
        this.#commands.get(action.op)?.onNotification?.(action.notification);
        this.emit('notification', action.notification);
        return;
      case 'trace':
        this.emit('trace', action.trace);
        return;
      case 'log':
        return this.#logger[action.level](action.fields, action.message);
    }
  }

  /** Hands bytes to the transport and reports back when it took them, or failed to. */
  #write(action: Extract<LinkAction, { type: 'write' }>): void {
    const { op, carries } = action;
    if (!this.#transport.isOpen) {
      this.#step({ type: 'lineDown' });
      return;
    }
    this.#transport.write(action.bytes).then(
      () => this.#run({ type: 'written', op, carries }),
      (cause: unknown) => this.#run({ type: 'writeFailed', op, carries, cause }),
    );
  }

  #stopTimer(timer: LinkTimer): void {
    const handle = this.#timers.get(timer);
    if (handle !== undefined) {
      clearTimeout(handle);
      this.#timers.delete(timer);
    }
  }

  #takeCommand(op: number): PendingCommand | undefined {
    const command = this.#commands.get(op);
    this.#commands.delete(op);
    command?.release();
    return command;
  }

  #waitForCancel(op: number): Promise<ResetResult> {
    return new Promise<ResetResult>((resolve, reject) => {
      const waiters = this.#cancels.get(op) ?? [];
      waiters.push({ resolve, reject });
      this.#cancels.set(op, waiters);
    });
  }

  #takeCancel(op: number): CancelWaiter[] {
    const waiters = this.#cancels.get(op) ?? [];
    this.#cancels.delete(op);
    return waiters;
  }
}

function refusalIn(actions: readonly LinkAction[]): LinkFailure | undefined {
  for (const action of actions) if (action.type === 'refuse') return action.failure;
  return undefined;
}
