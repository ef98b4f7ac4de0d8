/**
 * The host (SPE) side of the ABECS link layer (abecs.md §1.6, §1.7): sends one command packet,
 * waits for ACK/NAK with retransmission, receives the response with NAK-based recovery, surfaces
 * NTM notifications, and cancels with CAN/EOT. It moves PKTDATA only; envelopes and command
 * semantics live above it.
 *
 * One byte listener feeds one FrameDecoder; a small state machine (`mode`) decides what each
 * decoded item means. Every wait is an explicit timer owned by the link, so `dispose()` can
 * leave no handle behind.
 */
import { EventEmitter } from 'node:events';
import { DriverError } from '../errors.js';
import { silentLogger, type DriverLogger } from '../log.js';
import type { ByteTransport, TransportCloseInfo } from '../transports/transport.js';
import { ACK, CAN, DC2, EOT, NAK, FrameDecoder, encodeFrame, type DecodedItem } from './frame.js';

export interface LinkTimings {
  /** Wait for ACK/NAK after sending a command (S220 §2.2.2.1: 2 s). */
  readonly ackTimeoutMs: number;
  /** Sends of one command packet in total, the first included (S220: 3). */
  readonly maxSends: number;
  /** Longest gap between two bytes of one incoming packet (S220 §2.2.2.2: 2 s). */
  readonly interByteTimeoutMs: number;
  /** Silence awaited after a bad packet before sending NAK, and after EOT (S220: 500 ms). */
  readonly silenceMs: number;
  /** Bad response packets tolerated; the last one ends the exchange (S220: 3). */
  readonly maxReceiveAttempts: number;
  /** Response limit for non-blocking commands, counted from the ACK (S220 §2.2.2: 10 s). */
  readonly responseTimeoutMs: number;
  /** Wait for EOT after each CAN (S220 §2.2.2.3: 2 s). */
  readonly eotTimeoutMs: number;
  /** CAN bytes sent before giving up on EOT (S220: 3). */
  readonly maxCancelTries: number;
  /**
   * Stray bytes tolerated while one command waits for its ACK and response, beyond which the line
   * is declared unusable (LINE_NOISE). Not in S220: without it a device or cable that babbles
   * holds a blocking command until the customer's time is up, and reads as a card timeout.
   */
  readonly maxNoiseBytes: number;
  /** Longest wait for the silence S220 asks before a NAK; a line that never falls silent is LINE_NOISE. */
  readonly maxPurgeMs: number;
}

export const DEFAULT_LINK_TIMINGS: LinkTimings = Object.freeze({
  ackTimeoutMs: 2000,
  maxSends: 3,
  interByteTimeoutMs: 2000,
  silenceMs: 500,
  maxReceiveAttempts: 3,
  responseTimeoutMs: 10_000,
  eotTimeoutMs: 2000,
  maxCancelTries: 3,
  maxNoiseBytes: 4096,
  maxPurgeMs: 5000,
});

/** Every code the link fails with (a list, so the layers above can prove they name each one). */
export const LINK_ERROR_CODES = [
  'ACK_TIMEOUT',
  'NAK_LIMIT',
  'RESPONSE_TIMEOUT',
  'BAD_RESPONSE',
  'CANCELLED',
  'CANCEL_UNANSWERED',
  'TIMEOUT',
  'BUSY',
  'DISCONNECTED',
  /** The device or the cable sends bytes that are not the protocol, without end. */
  'LINE_NOISE',
] as const;
export type LinkErrorCode = (typeof LINK_ERROR_CODES)[number];

export class LinkError extends DriverError {
  declare readonly code: LinkErrorCode;

  constructor(code: LinkErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}

export interface LinkNotification {
  /** The NTM_MSG text (two 16-column lines, no separator), decoded as Latin-1. */
  readonly text: string;
}

export interface LinkTrace {
  readonly direction: 'out' | 'in';
  readonly kind: 'packet' | 'ack' | 'nak' | 'can' | 'eot';
  /** The packet's 3-letter id when it has a readable one (never the packet's contents). */
  readonly command?: string;
  /** PKTDATA length for packets. */
  readonly length?: number;
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

export interface ResetResult {
  /** True when the PINPAD answered the start-up CAN with EOT. */
  readonly eot: boolean;
}

const NTM_ID = 'NTM';
const ERR_ID = 'ERR';

/** A restartable one-shot timer, so every wait can be cleared from one place. */
class Timer {
  private handle: NodeJS.Timeout | undefined;

  set(ms: number, fn: () => void): void {
    this.clear();
    this.handle = setTimeout(() => {
      this.handle = undefined;
      fn();
    }, ms);
  }

  clear(): void {
    if (this.handle !== undefined) {
      clearTimeout(this.handle);
      this.handle = undefined;
    }
  }
}

/** The readable 3-letter id at the start of a packet, or undefined (encrypted or binary). */
function packetId(data: Uint8Array): string | undefined {
  if (data.length < 3 || data[0] === DC2) return undefined;
  for (let i = 0; i < 3; i++) {
    const byte = data[i]!;
    if (byte < 0x20 || byte > 0x7e) return undefined;
  }
  return Buffer.from(data.subarray(0, 3)).toString('latin1');
}

/** `NTM` + `000` + N3 length + text; tolerant of a length that disagrees with the bytes. */
function parseNotification(data: Buffer): LinkNotification {
  const body = data.subarray(9);
  const declared = /^\d{3}$/.test(data.subarray(6, 9).toString('latin1'))
    ? Number(data.subarray(6, 9).toString('latin1'))
    : body.length;
  return { text: body.subarray(0, Math.min(declared, body.length)).toString('latin1') };
}

type Settle<T> = { resolve: (value: T) => void; reject: (error: Error) => void };

interface ExchangeOp {
  readonly label: string;
  /** Id a response must carry; undefined when the command is encrypted (no check possible). */
  readonly id: string | undefined;
  readonly frame: Buffer;
  readonly length: number;
  readonly blocking: boolean;
  readonly onNotification: ((notification: LinkNotification) => void) | undefined;
  readonly settle: Settle<Buffer>;
  /** 'ack': waiting for ACK/NAK; 'response': waiting for the response; 'purge': discarding until silence. */
  step: 'ack' | 'response' | 'purge';
  sends: number;
  failures: number;
  /** Stray bytes received so far (see LinkTimings.maxNoiseBytes). */
  noise: number;
  /** When the current purge began (performance.now()). */
  purgeSince: number;
  /** Detaches the caller's signal and overall timer. */
  detach: () => void;
}

interface CancelOp {
  readonly purpose: 'cancel' | 'reset';
  /** The exchange being cancelled, rejected with `victimError` once the cancel is over. */
  readonly victim: ExchangeOp | undefined;
  readonly victimError: LinkError | undefined;
  readonly settle: Settle<ResetResult>;
  readonly promise: Promise<ResetResult>;
  /** 'eot': waiting for EOT; 'settle': EOT seen, discarding late bytes until silence. */
  step: 'eot' | 'settle';
  tries: number;
}

type Mode =
  | { readonly kind: 'idle' }
  | { readonly kind: 'exchange'; readonly op: ExchangeOp }
  | { readonly kind: 'cancel'; readonly op: CancelOp };

const IDLE: Mode = { kind: 'idle' };

/**
 * What each ABECS command does, for error sentences a technician reads: "the open-session
 * command (OPN)" says what failed and still gives support the command's name.
 */
const COMMAND_NAMES: Readonly<Record<string, string>> = {
  OPN: 'open-session',
  CLO: 'close-session',
  CAN: 'cancel',
  GIX: 'identification',
  GIN: 'identification',
  DSP: 'display',
  DEX: 'display',
  GKY: 'key-press',
  RMC: 'remove-card',
  GCX: 'read-card',
  GCD: 'read-card',
  GOX: 'chip-processing',
  FCX: 'finish-chip',
  GPN: 'PIN-entry',
  GED: 'keypad-entry',
  MNU: 'menu',
  CEX: 'check-event',
  CKE: 'check-event',
  GTK: 'card-data',
  TLI: 'table-load start',
  TLR: 'table-load',
  TLE: 'table-load end',
};

/** "OPN" → "the open-session command (OPN)"; a label that is not a known command stays as it is. */
export function describeCommand(label: string): string {
  const name = COMMAND_NAMES[label];
  return name === undefined ? label : `the ${name} command (${label})`;
}

/** 2000 → "2 s", 1500 → "1.5 s", 300 → "300 ms". */
function duration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Number((ms / 1000).toFixed(1))} s`;
}

export class HostLink extends EventEmitter<HostLinkEvents> {
  readonly timings: LinkTimings;
  private readonly logger: DriverLogger;
  private readonly decoder = new FrameDecoder();
  private mode: Mode = IDLE;
  private disposed = false;
  /** ACK wait, purge silence, EOT wait, post-EOT silence: one at a time. */
  private readonly stepTimer = new Timer();
  /** Non-blocking response limit; runs across response and purge steps. */
  private readonly responseTimer = new Timer();
  /** Caps the post-EOT silence wait when the line never goes quiet. */
  private readonly settleCapTimer = new Timer();
  private readonly interByteTimer = new Timer();

  private readonly onData = (chunk: Buffer): void => this.handleData(chunk);
  private readonly onClose = (info: TransportCloseInfo): void => {
    this.logger.warn({ expected: info.expected }, 'PINPAD link closed');
    this.failAll(
      () =>
        new LinkError(
          'DISCONNECTED',
          `The connection to the PINPAD was lost during ${describeCommand(this.currentLabel())}: check the cable (or the network) and that the PINPAD is switched on.`,
        ),
    );
  };

  constructor(
    private readonly transport: ByteTransport,
    options: HostLinkOptions = {},
  ) {
    super();
    this.timings = { ...DEFAULT_LINK_TIMINGS, ...options.timings };
    this.logger = options.logger ?? silentLogger;
    transport.on('data', this.onData);
    transport.on('close', this.onClose);
  }

  /** True while an exchange, cancel or reset is running. */
  get busy(): boolean {
    return this.mode.kind !== 'idle';
  }

  /**
   * Sends one command packet and resolves with the response's PKTDATA. NTM packets received
   * meanwhile go to `onNotification` and the `notification` event.
   */
  exchange(pktdata: Buffer, options: ExchangeOptions = {}): Promise<Buffer> {
    const id = packetId(pktdata);
    const label = options.label ?? id ?? 'the command';
    if (this.disposed) {
      return Promise.reject(new LinkError('DISCONNECTED', `Cannot send ${label}: the PINPAD link was closed.`));
    }
    if (this.mode.kind !== 'idle') {
      return Promise.reject(
        new LinkError('BUSY', `The PINPAD is busy with ${this.currentLabel()}; one command at a time.`),
      );
    }
    if (!this.transport.isOpen) {
      return Promise.reject(new LinkError('DISCONNECTED', `Cannot send ${label}: the link to the PINPAD is down.`));
    }
    if (options.signal?.aborted) {
      return Promise.reject(new LinkError('CANCELLED', `${label} was cancelled before it was sent.`));
    }
    // Throws FrameError for empty or oversized packets before the link becomes busy.
    const frame = encodeFrame(pktdata);

    return new Promise<Buffer>((resolve, reject) => {
      const op: ExchangeOp = {
        label,
        id: pktdata[0] === DC2 ? undefined : id,
        frame,
        length: pktdata.length,
        blocking: options.blocking ?? false,
        onNotification: options.onNotification,
        settle: { resolve, reject },
        step: 'ack',
        sends: 0,
        failures: 0,
        noise: 0,
        purgeSince: 0,
        detach: () => {},
      };
      this.mode = { kind: 'exchange', op };
      this.attachCallerLimits(op, options);
      this.sendCommand(op);
    });
  }

  /**
   * Sends CAN until the PINPAD answers EOT (at most `maxCancelTries`); a command in flight is
   * rejected with CANCELLED. Rejects with CANCEL_UNANSWERED when no EOT comes.
   */
  async cancel(): Promise<void> {
    const mode = this.mode;
    if (this.disposed) throw new LinkError('DISCONNECTED', 'Cannot cancel: the PINPAD link was closed.');
    if (mode.kind === 'cancel') {
      if (mode.op.purpose === 'reset') {
        throw new LinkError('BUSY', 'The PINPAD is busy with the start-up reset; one command at a time.');
      }
      await mode.op.promise;
      return;
    }
    if (!this.transport.isOpen) throw new LinkError('DISCONNECTED', 'Cannot cancel: the link to the PINPAD is down.');
    const victim = mode.kind === 'exchange' ? mode.op : undefined;
    await this.startCancel(
      'cancel',
      victim,
      victim ? new LinkError('CANCELLED', `${victim.label} was cancelled.`) : undefined,
    );
  }

  /**
   * The start-up CAN (S220 §2.2.2.3): kills any blocking command a previous session left
   * running. A PINPAD that stays silent is acceptable here; the result says whether EOT came.
   */
  reset(): Promise<ResetResult> {
    if (this.disposed) {
      return Promise.reject(new LinkError('DISCONNECTED', 'Cannot reset: the PINPAD link was closed.'));
    }
    if (this.mode.kind !== 'idle') {
      return Promise.reject(
        new LinkError('BUSY', `The PINPAD is busy with ${this.currentLabel()}; one command at a time.`),
      );
    }
    if (!this.transport.isOpen) {
      return Promise.reject(new LinkError('DISCONNECTED', 'Cannot reset: the link to the PINPAD is down.'));
    }
    return this.startCancel('reset', undefined, undefined);
  }

  /** Detaches from the transport, clears every timer and rejects whatever is in flight. */
  dispose(): void {
    if (this.disposed) return;
    this.failAll(() => new LinkError('DISCONNECTED', `The PINPAD link was closed during ${this.currentLabel()}.`));
    this.disposed = true;
    this.transport.off('data', this.onData);
    this.transport.off('close', this.onClose);
    this.clearTimers();
  }

  // ---------------------------------------------------------------------------------------------
  // Exchange

  private attachCallerLimits(op: ExchangeOp, options: ExchangeOptions): void {
    const overall = new Timer();
    const signal = options.signal;
    const onAbort = (): void => {
      if (this.isCurrent(op)) {
        this.logger.info({ command: op.label }, 'command aborted by caller');
        this.cancelFor(op, new LinkError('CANCELLED', `${op.label} was cancelled.`));
      }
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    if (options.timeoutMs !== undefined) {
      const limit = options.timeoutMs;
      overall.set(limit, () => {
        if (this.isCurrent(op)) {
          this.logger.warn({ command: op.label, timeoutMs: limit }, 'command exceeded its time limit');
          const message = `${describeCommand(op.label)} did not finish within ${duration(limit)} and was cancelled.`;
          this.cancelFor(op, new LinkError('TIMEOUT', message));
        }
      });
    }
    op.detach = () => {
      overall.clear();
      signal?.removeEventListener('abort', onAbort);
    };
  }

  /** Cancels `op` on the link's own initiative (caller abort, overall timeout). */
  private cancelFor(op: ExchangeOp, error: LinkError): void {
    this.startCancel('cancel', op, error).catch((failure: unknown) => {
      // The victim already carries the caller-facing error; an unanswered CAN is only logged.
      this.logger.warn({ command: op.label, code: (failure as DriverError).code }, 'cancel after abort failed');
    });
  }

  private sendCommand(op: ExchangeOp): void {
    op.step = 'ack';
    op.sends++;
    this.trace({ direction: 'out', kind: 'packet', command: op.id ?? op.label, length: op.length });
    this.logger.debug({ command: op.label, length: op.length, send: op.sends }, 'sending command');
    this.write(op.frame, op, () => {
      if (this.isCurrent(op) && op.step === 'ack') {
        this.stepTimer.set(this.timings.ackTimeoutMs, () => {
          if (!this.isCurrent(op)) return;
          this.finishExchange(
            op,
            new LinkError(
              'ACK_TIMEOUT',
              `The PINPAD did not answer ${describeCommand(op.label)} within ${duration(this.timings.ackTimeoutMs)}: check the cable and that nothing else uses the port.`,
            ),
          );
        });
      }
    });
  }

  private exchangeItem(op: ExchangeOp, item: DecodedItem): void {
    if (op.step === 'ack') {
      if (item.kind !== 'byte') return; // a packet before the ACK is stale; its late bytes are not ours
      if (item.byte === ACK) {
        this.trace({ direction: 'in', kind: 'ack', command: op.id ?? op.label });
        this.stepTimer.clear();
        op.step = 'response';
        if (!op.blocking) {
          this.responseTimer.set(this.timings.responseTimeoutMs, () => {
            if (!this.isCurrent(op)) return;
            this.finishExchange(
              op,
              new LinkError(
                'RESPONSE_TIMEOUT',
                `The PINPAD received ${describeCommand(op.label)} but sent no result within ${duration(this.timings.responseTimeoutMs)}: switch it off and on if this keeps happening.`,
              ),
            );
          });
        }
      } else if (item.byte === NAK) {
        this.trace({ direction: 'in', kind: 'nak', command: op.id ?? op.label });
        this.stepTimer.clear();
        if (op.sends >= this.timings.maxSends) {
          this.finishExchange(
            op,
            new LinkError(
              'NAK_LIMIT',
              `The PINPAD received ${describeCommand(op.label)} garbled ${op.sends} times in a row: check the cable (a damaged or too long one garbles bytes).`,
            ),
          );
        } else {
          this.logger.info({ command: op.label, send: op.sends }, 'command NAKed; resending');
          this.sendCommand(op);
        }
      } else {
        this.strayByte(op);
      }
      return;
    }
    // step === 'response'
    if (item.kind === 'error') {
      this.receiveFailure(op, item.reason);
      return;
    }
    if (item.kind === 'byte') {
      // Stray control bytes or noise between packets: a few happen, a torrent is a broken line.
      this.strayByte(op);
      return;
    }
    const data = item.data;
    const id = packetId(data);
    this.trace({ direction: 'in', kind: 'packet', command: id, length: data.length });
    if (id === NTM_ID) {
      const notification = parseNotification(data);
      this.logger.debug({ command: op.label }, 'notification received');
      op.onNotification?.(notification);
      this.emit('notification', notification);
      return;
    }
    const encrypted = data[0] === DC2;
    if (!encrypted && op.id !== undefined && id !== op.id && id !== ERR_ID) {
      this.logger.warn(
        { command: op.label, received: id ?? 'unreadable', length: data.length },
        'discarding a response to another command',
      );
      return;
    }
    this.logger.debug({ command: op.label, length: data.length }, 'response received');
    this.finishExchange(op, data);
  }

  private strayByte(op: ExchangeOp): void {
    op.noise++;
    if (op.noise <= this.timings.maxNoiseBytes) return;
    this.lineNoise(op, `${op.noise} bytes that are not the protocol`);
  }

  private lineNoise(op: ExchangeOp, what: string): void {
    this.logger.warn(
      { command: op.label, noise: op.noise },
      'the PINPAD line carries noise, not the protocol; giving up on the command',
    );
    this.finishExchange(
      op,
      new LinkError(
        'LINE_NOISE',
        `The PINPAD's line carried ${what} while waiting for ${op.label}: a faulty device or cable.`,
      ),
    );
  }

  /** A bad response packet: purge until silence, then NAK (S220 §2.2.3), or give up. */
  private receiveFailure(op: ExchangeOp, reason: string): void {
    op.failures++;
    this.decoder.reset();
    this.interByteTimer.clear();
    if (op.failures >= this.timings.maxReceiveAttempts) {
      this.finishExchange(
        op,
        new LinkError('BAD_RESPONSE', `The response to ${op.label} arrived corrupted ${op.failures} times in a row.`),
      );
      return;
    }
    this.logger.info({ command: op.label, reason, failures: op.failures }, 'bad response packet; will NAK');
    op.step = 'purge';
    op.purgeSince = performance.now();
    this.armPurgeSilence(op);
  }

  private armPurgeSilence(op: ExchangeOp): void {
    this.stepTimer.set(this.timings.silenceMs, () => {
      if (!this.isCurrent(op) || op.step !== 'purge') return;
      op.step = 'response';
      this.trace({ direction: 'out', kind: 'nak', command: op.id ?? op.label });
      this.write(Buffer.of(NAK), op);
    });
  }

  private finishExchange(op: ExchangeOp, outcome: Buffer | LinkError): void {
    if (!this.isCurrent(op)) return;
    this.clearTimers();
    op.detach();
    this.mode = IDLE;
    if (outcome instanceof LinkError) {
      this.logger.warn({ command: op.label, code: outcome.code }, 'command failed');
      op.settle.reject(outcome);
    } else {
      op.settle.resolve(outcome);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Cancel / reset

  private startCancel(
    purpose: 'cancel' | 'reset',
    victim: ExchangeOp | undefined,
    victimError: LinkError | undefined,
  ): Promise<ResetResult> {
    this.stepTimer.clear();
    this.responseTimer.clear();
    victim?.detach();
    let settle!: Settle<ResetResult>;
    const promise = new Promise<ResetResult>((resolve, reject) => {
      settle = { resolve, reject };
    });
    const op: CancelOp = { purpose, victim, victimError, settle, promise, step: 'eot', tries: 0 };
    this.mode = { kind: 'cancel', op };
    this.sendCan(op);
    return promise;
  }

  private sendCan(op: CancelOp): void {
    op.tries++;
    this.trace({ direction: 'out', kind: 'can', command: op.victim?.id ?? op.victim?.label });
    this.logger.debug({ command: op.victim?.label, try: op.tries, purpose: op.purpose }, 'sending CAN');
    this.write(Buffer.of(CAN), op, () => {
      if (!this.isCurrent(op) || op.step !== 'eot') return;
      this.stepTimer.set(this.timings.eotTimeoutMs, () => {
        if (!this.isCurrent(op)) return;
        if (op.tries >= this.timings.maxCancelTries) {
          this.finishCancel(op, false);
        } else {
          // A packet cut short would swallow the EOT as data; start the next try clean.
          this.decoder.reset();
          this.sendCan(op);
        }
      });
    });
  }

  private cancelItem(op: CancelOp, item: DecodedItem): void {
    // Responses and NTMs already in flight are decoded (so their bytes cannot pass for EOT) and dropped.
    if (item.kind !== 'byte' || item.byte !== EOT) return;
    this.trace({ direction: 'in', kind: 'eot', command: op.victim?.id ?? op.victim?.label });
    op.step = 'settle';
    this.decoder.reset();
    this.interByteTimer.clear();
    this.armSettleSilence(op);
    this.settleCapTimer.set(this.timings.eotTimeoutMs, () => this.finishCancel(op, true));
  }

  private armSettleSilence(op: CancelOp): void {
    this.stepTimer.set(this.timings.silenceMs, () => this.finishCancel(op, true));
  }

  private finishCancel(op: CancelOp, eot: boolean): void {
    if (!this.isCurrent(op)) return;
    this.clearTimers();
    this.decoder.reset();
    this.mode = IDLE;
    const label = op.victim?.label;
    if (op.victim && op.victimError) op.victim.settle.reject(op.victimError);
    if (eot) {
      this.logger.info({ command: label, purpose: op.purpose }, 'PINPAD confirmed CAN with EOT');
      op.settle.resolve({ eot: true });
    } else if (op.purpose === 'reset') {
      this.logger.info({ tries: op.tries }, 'no EOT to the start-up CAN; assuming the PINPAD was idle');
      op.settle.resolve({ eot: false });
    } else {
      const what = label === undefined ? 'the cancellation' : `the cancellation of ${label}`;
      const message = `The PINPAD did not confirm ${what} after ${op.tries} CAN bytes.`;
      const error = new LinkError('CANCEL_UNANSWERED', message);
      this.logger.warn({ command: label, code: error.code }, 'CAN unanswered');
      op.settle.reject(error);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Bytes in and out

  private handleData(chunk: Buffer): void {
    const mode = this.mode;
    // While purging (bad packet) or settling (after EOT), any byte just proves the line is busy.
    if (mode.kind === 'exchange' && mode.op.step === 'purge') {
      if (performance.now() - mode.op.purgeSince > this.timings.maxPurgeMs) {
        this.lineNoise(mode.op, `no silence for ${this.timings.maxPurgeMs} ms after a bad packet`);
        return;
      }
      this.armPurgeSilence(mode.op);
      return;
    }
    if (mode.kind === 'cancel' && mode.op.step === 'settle') {
      this.armSettleSilence(mode.op);
      return;
    }
    for (const item of this.decoder.push(chunk)) {
      const current = this.mode;
      if (current.kind === 'exchange') {
        if (current.op.step === 'purge') break; // the rest of the chunk is being discarded
        this.exchangeItem(current.op, item);
      } else if (current.kind === 'cancel') {
        if (current.op.step === 'settle') break;
        this.cancelItem(current.op, item);
      } else if (item.kind === 'packet') {
        this.trace({ direction: 'in', kind: 'packet', command: packetId(item.data), length: item.data.length });
        this.logger.warn(
          { received: packetId(item.data) ?? 'unreadable', length: item.data.length },
          'discarding an unsolicited packet',
        );
      }
    }
    const after = this.mode;
    const discarding =
      (after.kind === 'exchange' && after.op.step === 'purge') ||
      (after.kind === 'cancel' && after.op.step === 'settle');
    if (discarding) {
      this.decoder.reset();
      // The bytes after the failure in this chunk count as line activity for the silence wait.
      return;
    }
    if (this.decoder.receiving) {
      this.interByteTimer.set(this.timings.interByteTimeoutMs, () => this.interByteTimeout());
    } else {
      this.interByteTimer.clear();
    }
  }

  private interByteTimeout(): void {
    const mode = this.mode;
    if (mode.kind === 'exchange' && mode.op.step === 'response') {
      this.receiveFailure(mode.op, 'inter-byte timeout');
    } else {
      this.decoder.reset();
    }
  }

  /**
   * Writes bytes for `op`; `then` runs once they are handed over. A failed write means the link
   * is gone, which fails everything in flight.
   */
  private write(bytes: Buffer, op: ExchangeOp | CancelOp, then?: () => void): void {
    if (!this.transport.isOpen) {
      this.failAll(
        () => new LinkError('DISCONNECTED', `Cannot send ${this.currentLabel()}: the link to the PINPAD is down.`),
      );
      return;
    }
    this.transport.write(bytes).then(
      () => {
        if (this.isCurrent(op)) then?.();
      },
      (error: unknown) => {
        if (!this.isCurrent(op)) return;
        this.failAll(
          () =>
            new LinkError('DISCONNECTED', `Sending ${this.currentLabel()} failed: the link to the PINPAD is down.`, {
              cause: error,
            }),
        );
      },
    );
  }

  private failAll(makeError: () => LinkError): void {
    const mode = this.mode;
    if (mode.kind === 'idle') return;
    const error = makeError();
    this.clearTimers();
    this.decoder.reset();
    this.mode = IDLE;
    if (mode.kind === 'exchange') {
      mode.op.detach();
      mode.op.settle.reject(error);
    } else {
      mode.op.victim?.settle.reject(error);
      mode.op.settle.reject(error);
    }
  }

  private isCurrent(op: ExchangeOp | CancelOp): boolean {
    return this.mode.kind !== 'idle' && this.mode.op === op;
  }

  private currentLabel(): string {
    const mode = this.mode;
    if (mode.kind === 'exchange') return mode.op.label;
    if (mode.kind === 'cancel') return mode.op.victim ? `cancelling ${mode.op.victim.label}` : 'CAN';
    return 'the command';
  }

  private clearTimers(): void {
    this.stepTimer.clear();
    this.responseTimer.clear();
    this.settleCapTimer.clear();
    this.interByteTimer.clear();
  }

  private trace(trace: LinkTrace): void {
    this.emit('trace', trace);
  }
}
