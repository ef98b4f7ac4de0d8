/**
 * The decisions of the host (SPE) side of the ABECS link layer (abecs.md §1.6, §1.7), as a pure
 * state machine: `step(state, input)` returns the next state and the actions that carry it out.
 *
 * Inputs are what happens to the link: a request of the caller (send a command, cancel, reset),
 * the items the frame decoder recognised in a chunk of bytes (a packet with a good CRC, a bad
 * packet, ACK, NAK, EOT, noise), the transport handing bytes over, failing or closing, and one of
 * the link's timers expiring. Actions are data: write bytes, start or stop a named timer, reset the
 * frame decoder, settle the command or the cancel in flight, emit a notification, trace or log.
 *
 * Nothing here does I/O, reads a clock or holds a promise: `HostLink` (link.ts) owns the transport,
 * the real timers, the decoder and the promises, feeds events in and performs the actions. The
 * machine keeps the set of timers it believes running, so an expiry it did not ask for is ignored
 * and a timer is only stopped when it runs. In the manner of zwave-js's serial API command
 * machine, fed with "ACK"/"NAK"/"timeout", so every rule below is specified without real time.
 */
import { ACK, CAN, DC2, EOT, NAK, encodeFrame, type DecodedItem } from './frame.js';
import { ABECS_COMMANDS } from './command-table.js';

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

/** A failure as data; the shell turns it into a `LinkError`. */
export interface LinkFailure {
  readonly code: LinkErrorCode;
  readonly message: string;
  /** The transport's own error, when a write failed. */
  readonly cause?: unknown;
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

export interface ResetResult {
  /** True when the PINPAD answered the start-up CAN with EOT. */
  readonly eot: boolean;
}

/**
 * The link's waits, each a timer of its own:
 * - `ack`: ACK/NAK after a command packet was handed over (S220 §2.2.2.1);
 * - `response`: the non-blocking response limit, counted from the ACK (S220 §2.2.2);
 * - `interByte`: the gap between two bytes of one packet (S220 §2.2.2.2);
 * - `silence`: the quiet line awaited after a bad packet before the NAK (S220 §2.2.3), and after EOT;
 * - `purgeLimit`: how long that silence may take in coming (maxPurgeMs, not in S220);
 * - `eot`: EOT after a CAN (S220 §2.2.2.3);
 * - `settleLimit`: how long the quiet after EOT may take in coming;
 * - `deadline`: the caller's own limit for the whole exchange (`timeoutMs`).
 */
export type LinkTimer =
  'ack' | 'response' | 'interByte' | 'silence' | 'purgeLimit' | 'eot' | 'settleLimit' | 'deadline';

/** The order in which "stop every timer" lists them. */
const TIMERS: readonly LinkTimer[] = [
  'ack',
  'response',
  'interByte',
  'silence',
  'purgeLimit',
  'eot',
  'settleLimit',
  'deadline',
];

/** What a write carries, echoed back when the transport reports on it. */
export type LinkWriteKind = 'command' | 'nak' | 'can';

export type LinkInput =
  /** The caller sends a command packet (its PKTDATA). `op` names the request in the actions. */
  | {
      readonly type: 'send';
      readonly op: number;
      readonly pktdata: Uint8Array;
      /** Name of the command in errors and logs; defaults to the packet's 3-letter id. */
      readonly label?: string;
      /** Blocking commands (abecs.md §3.1) wait for the cardholder without the 10 s limit. */
      readonly blocking?: boolean;
      /** The caller's limit for the whole exchange; on expiry the command is cancelled (CAN). */
      readonly timeoutMs?: number;
      /** Whether the transport was open when the caller asked. */
      readonly lineUp: boolean;
      /** Whether the caller's signal was already aborted. */
      readonly aborted?: boolean;
    }
  /** The caller cancels whatever runs (CAN until EOT). */
  | { readonly type: 'cancel'; readonly op: number; readonly lineUp: boolean }
  /** The start-up CAN (S220 §2.2.2.3). */
  | { readonly type: 'reset'; readonly op: number; readonly lineUp: boolean }
  /** The signal of command `op` was aborted. */
  | { readonly type: 'abort'; readonly op: number }
  /** One chunk of bytes, as the frame decoder recognised it; `receiving` is true when it ends inside a packet. */
  | { readonly type: 'bytes'; readonly items: readonly DecodedItem[]; readonly receiving: boolean }
  /** The transport took the bytes of a `write` action. */
  | { readonly type: 'written'; readonly op: number; readonly carries: LinkWriteKind }
  /** The transport rejected the bytes of a `write` action. */
  | { readonly type: 'writeFailed'; readonly op: number; readonly carries: LinkWriteKind; readonly cause: unknown }
  /** The transport was found closed when a `write` action was due. */
  | { readonly type: 'lineDown' }
  /** The transport closed. */
  | { readonly type: 'closed'; readonly expected: boolean }
  /** A timer the machine started has expired. */
  | { readonly type: 'timeout'; readonly timer: LinkTimer }
  /** The owner lets go of the link for good. */
  | { readonly type: 'dispose' };

export type LogLevel = 'debug' | 'info' | 'warn';

export type LinkAction =
  /** The request just made is refused; nothing else changes. */
  | { readonly type: 'refuse'; readonly failure: LinkFailure }
  /** The cancel just asked for joins the cancel `op` that is already running. */
  | { readonly type: 'join'; readonly op: number }
  | { readonly type: 'write'; readonly op: number; readonly carries: LinkWriteKind; readonly bytes: Buffer }
  | { readonly type: 'startTimer'; readonly timer: LinkTimer; readonly ms: number }
  | { readonly type: 'stopTimer'; readonly timer: LinkTimer }
  /** Drop any partial packet in the frame decoder. */
  | { readonly type: 'resetDecoder' }
  | { readonly type: 'resolveCommand'; readonly op: number; readonly response: Buffer }
  | { readonly type: 'rejectCommand'; readonly op: number; readonly failure: LinkFailure }
  | { readonly type: 'resolveCancel'; readonly op: number; readonly result: ResetResult }
  | { readonly type: 'rejectCancel'; readonly op: number; readonly failure: LinkFailure }
  /** An NTM packet arrived for command `op` (abecs.md §1.7). */
  | { readonly type: 'notify'; readonly op: number; readonly notification: LinkNotification }
  | { readonly type: 'trace'; readonly trace: LinkTrace }
  | {
      readonly type: 'log';
      readonly level: LogLevel;
      readonly fields: Readonly<Record<string, unknown>>;
      readonly message: string;
    };

/** One command in flight. */
export interface ExchangeState {
  readonly kind: 'exchange';
  readonly op: number;
  readonly label: string;
  /** Id a response must carry; undefined when the command is encrypted (no check possible). */
  readonly id: string | undefined;
  readonly frame: Buffer;
  /** PKTDATA length, for traces and logs. */
  readonly length: number;
  readonly blocking: boolean;
  /** The caller's limit, for the message when it expires. */
  readonly timeoutMs: number | undefined;
  /** 'ack': waiting for ACK/NAK; 'response': waiting for the response; 'purge': discarding until silence. */
  readonly step: 'ack' | 'response' | 'purge';
  readonly sends: number;
  readonly failures: number;
  /** Stray bytes received so far (see LinkTimings.maxNoiseBytes). */
  readonly noise: number;
  /** The current purge has outlasted maxPurgeMs: the next byte makes it LINE_NOISE. */
  readonly overdue: boolean;
}

/** A CAN in flight, for the caller's cancel, the start-up reset or the link's own (abort, deadline). */
export interface CancelState {
  readonly kind: 'cancel';
  readonly op: number;
  readonly purpose: 'cancel' | 'reset';
  /** 'link' when the link cancels on its own (caller's signal, caller's deadline); its failure is only logged. */
  readonly initiative: 'caller' | 'link';
  /** The exchange being cancelled, rejected with `victimFailure` once the cancel is over. */
  readonly victim: ExchangeState | undefined;
  readonly victimFailure: LinkFailure | undefined;
  /** 'eot': waiting for EOT; 'settle': EOT seen, discarding late bytes until silence. */
  readonly step: 'eot' | 'settle';
  readonly tries: number;
}

export type LinkMode = { readonly kind: 'idle' } | ExchangeState | CancelState;

export interface LinkState {
  readonly timings: LinkTimings;
  readonly mode: LinkMode;
  /** The timers the machine started and has not seen expire or stopped. */
  readonly timers: readonly LinkTimer[];
  readonly disposed: boolean;
}

export interface LinkStep {
  readonly state: LinkState;
  readonly actions: readonly LinkAction[];
}

const IDLE = Object.freeze({ kind: 'idle' as const });
const NTM_ID = 'NTM';
const ERR_ID = 'ERR';

export function initialLinkState(timings: LinkTimings = DEFAULT_LINK_TIMINGS): LinkState {
  return { timings, mode: IDLE, timers: [], disposed: false };
}

/** True while an exchange, cancel or reset is running. */
export function isBusy(state: LinkState): boolean {
  return state.mode.kind !== 'idle';
}

/**
 * The next state and what to do. Pure: the given state is not changed. Throws FrameError (and
 * changes nothing) when a `send` carries a packet the framing refuses, empty or oversized.
 */
export function step(state: LinkState, input: LinkInput): LinkStep {
  const transition = new Transition(state);
  transition.handle(input);
  return transition.result();
}

/** The readable 3-letter id at the start of a packet, or undefined (encrypted or binary). */
export function packetId(data: Uint8Array): string | undefined {
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

/**
 * What each ABECS command does, for error sentences a technician reads: "the open-session
 * command (OPN)" says what failed and still gives support the command's name.
 */
const COMMAND_NAMES: Readonly<Record<string, string>> = {
  ...Object.fromEntries(Object.entries(ABECS_COMMANDS).map(([id, declaration]) => [id, declaration.name])),
  // Not a packet: the control byte that aborts a blocking command.
  CAN: 'cancel',
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

type Draft<T> = { -readonly [K in keyof T]: T[K] };
type ExchangeDraft = Draft<ExchangeState>;
type CancelDraft = Draft<CancelState>;
type ModeDraft = { readonly kind: 'idle' } | ExchangeDraft | CancelDraft;

/**
 * One step's working copy: the mode is copied on entry, so the methods below may change it in
 * place (they read as the rules they implement) without touching the state they were given.
 */
class Transition {
  readonly #timings: LinkTimings;
  readonly #timers: Set<LinkTimer>;
  readonly #actions: LinkAction[] = [];
  #mode: ModeDraft;
  #disposed: boolean;
  /** The decoder was reset in this step: whatever it held at the end of the chunk is gone. */
  #decoderReset = false;

  constructor(state: LinkState) {
    this.#timings = state.timings;
    this.#timers = new Set(state.timers);
    this.#mode = state.mode.kind === 'idle' ? IDLE : { ...state.mode };
    this.#disposed = state.disposed;
  }

  result(): LinkStep {
    return {
      state: {
        timings: this.#timings,
        mode: this.#mode,
        timers: TIMERS.filter((timer) => this.#timers.has(timer)),
        disposed: this.#disposed,
      },
      actions: this.#actions,
    };
  }

  handle(input: LinkInput): void {
    switch (input.type) {
      case 'send':
        return this.#send(input);
      case 'cancel':
        return this.#cancelRequest(input.op, input.lineUp);
      case 'reset':
        return this.#resetRequest(input.op, input.lineUp);
      case 'abort':
        return this.#abort(input.op);
      case 'bytes':
        return this.#bytes(input.items, input.receiving);
      case 'written':
        return this.#written(input.op, input.carries);
      case 'writeFailed':
        return this.#writeFailed(input.op, input.carries, input.cause);
      case 'lineDown':
        return this.#failAll({
          code: 'DISCONNECTED',
          message: `Cannot send ${this.#currentLabel()}: the link to the PINPAD is down.`,
        });
      case 'closed':
        return this.#closed(input.expected);
      case 'timeout':
        return this.#timeout(input.timer);
      case 'dispose':
        return this.#dispose();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Requests

  #send(input: Extract<LinkInput, { type: 'send' }>): void {
    const id = packetId(input.pktdata);
    const label = input.label ?? id ?? 'the command';
    if (this.#disposed) {
      return this.#refuse('DISCONNECTED', `Cannot send ${label}: the PINPAD link was closed.`);
    }
    if (this.#mode.kind !== 'idle') {
      // One command at a time: the PINPAD would take a second packet as aborting the first (S220 §6.2.1).
      return this.#refuse('BUSY', `The PINPAD is busy with ${this.#currentLabel()}; one command at a time.`);
    }
    if (!input.lineUp) {
      return this.#refuse('DISCONNECTED', `Cannot send ${label}: the link to the PINPAD is down.`);
    }
    if (input.aborted === true) {
      return this.#refuse('CANCELLED', `${label} was cancelled before it was sent.`);
    }
    // Throws FrameError for empty or oversized packets before the link becomes busy.
    const frame = encodeFrame(input.pktdata);
    const op: ExchangeDraft = {
      kind: 'exchange',
      op: input.op,
      label,
      id: input.pktdata[0] === DC2 ? undefined : id,
      frame,
      length: input.pktdata.length,
      blocking: input.blocking ?? false,
      timeoutMs: input.timeoutMs,
      step: 'ack',
      sends: 0,
      failures: 0,
      noise: 0,
      overdue: false,
    };
    this.#mode = op;
    if (input.timeoutMs !== undefined) this.#startTimer('deadline', input.timeoutMs);
    this.#sendCommand(op);
  }

  #cancelRequest(op: number, lineUp: boolean): void {
    const mode = this.#mode;
    if (this.#disposed) return this.#refuse('DISCONNECTED', 'Cannot cancel: the PINPAD link was closed.');
    if (mode.kind === 'cancel') {
      if (mode.purpose === 'reset') {
        return this.#refuse('BUSY', 'The PINPAD is busy with the start-up reset; one command at a time.');
      }
      this.#actions.push({ type: 'join', op: mode.op });
      return;
    }
    if (!lineUp) return this.#refuse('DISCONNECTED', 'Cannot cancel: the link to the PINPAD is down.');
    const victim = mode.kind === 'exchange' ? mode : undefined;
    this.#startCancel(
      op,
      'cancel',
      'caller',
      victim,
      victim ? { code: 'CANCELLED', message: `${victim.label} was cancelled.` } : undefined,
    );
  }

  /** The start-up CAN: kills any blocking command a previous session left running (S220 §2.2.2.3). */
  #resetRequest(op: number, lineUp: boolean): void {
    if (this.#disposed) return this.#refuse('DISCONNECTED', 'Cannot reset: the PINPAD link was closed.');
    if (this.#mode.kind !== 'idle') {
      return this.#refuse('BUSY', `The PINPAD is busy with ${this.#currentLabel()}; one command at a time.`);
    }
    if (!lineUp) return this.#refuse('DISCONNECTED', 'Cannot reset: the link to the PINPAD is down.');
    this.#startCancel(op, 'reset', 'caller', undefined, undefined);
  }

  #abort(op: number): void {
    const mode = this.#mode;
    if (mode.kind !== 'exchange' || mode.op !== op) return;
    this.#log('info', { command: mode.label }, 'command aborted by caller');
    this.#cancelFor(mode, { code: 'CANCELLED', message: `${mode.label} was cancelled.` });
  }

  #refuse(code: LinkErrorCode, message: string): void {
    this.#actions.push({ type: 'refuse', failure: { code, message } });
  }

  // ---------------------------------------------------------------------------------------------
  // Exchange

  /** S220 §2.2.2.1: send the packet; the 2 s ACK wait starts once the transport took it. */
  #sendCommand(op: ExchangeDraft): void {
    op.step = 'ack';
    op.sends++;
    this.#trace({ direction: 'out', kind: 'packet', command: op.id ?? op.label, length: op.length });
    this.#log('debug', { command: op.label, length: op.length, send: op.sends }, 'sending command');
    this.#write(op.op, 'command', op.frame);
  }

  #exchangeItem(op: ExchangeDraft, item: DecodedItem): void {
    if (op.step === 'ack') {
      if (item.kind !== 'byte') return; // a packet before the ACK is stale; its late bytes are not ours
      if (item.byte === ACK) {
        this.#trace({ direction: 'in', kind: 'ack', command: op.id ?? op.label });
        this.#stopTimer('ack');
        op.step = 'response';
        // S220 §2.2.2: 10 s for a non-blocking response; a blocking one waits for the cardholder.
        if (!op.blocking) this.#startTimer('response', this.#timings.responseTimeoutMs);
      } else if (item.byte === NAK) {
        this.#trace({ direction: 'in', kind: 'nak', command: op.id ?? op.label });
        this.#stopTimer('ack');
        // S220 §2.2.2.1: at most 3 sends, abort after the 3rd NAK.
        if (op.sends >= this.#timings.maxSends) {
          this.#finishExchange(op, {
            code: 'NAK_LIMIT',
            message: `The PINPAD received ${describeCommand(op.label)} garbled ${op.sends} times in a row: check the cable (a damaged or too long one garbles bytes).`,
          });
        } else {
          this.#log('info', { command: op.label, send: op.sends }, 'command NAKed; resending');
          this.#sendCommand(op);
        }
      } else {
        this.#strayByte(op);
      }
      return;
    }
    // step === 'response' (a purge discards the rest of the chunk before it gets here)
    if (item.kind === 'error') {
      this.#receiveFailure(op, item.reason);
      return;
    }
    if (item.kind === 'byte') {
      // Stray control bytes or noise between packets: a few happen, a torrent is a broken line.
      this.#strayByte(op);
      return;
    }
    const data = item.data;
    const id = packetId(data);
    this.#trace({ direction: 'in', kind: 'packet', command: id, length: data.length });
    if (id === NTM_ID) {
      // abecs.md §1.7: an NTM is not the response; show it and keep waiting.
      this.#log('debug', { command: op.label }, 'notification received');
      this.#actions.push({ type: 'notify', op: op.op, notification: parseNotification(data) });
      return;
    }
    const encrypted = data[0] === DC2;
    if (!encrypted && op.id !== undefined && id !== op.id && id !== ERR_ID) {
      this.#log(
        'warn',
        { command: op.label, received: id ?? 'unreadable', length: data.length },
        'discarding a response to another command',
      );
      return;
    }
    // S220 §2.2.2.2: on success the SPE sends nothing (it never ACKs a response).
    this.#log('debug', { command: op.label, length: data.length }, 'response received');
    this.#finishExchange(op, data);
  }

  #strayByte(op: ExchangeDraft): void {
    op.noise++;
    if (op.noise <= this.#timings.maxNoiseBytes) return;
    this.#lineNoise(op, `${op.noise} bytes that are not the protocol`);
  }

  #lineNoise(op: ExchangeDraft, what: string): void {
    this.#log(
      'warn',
      { command: op.label, noise: op.noise },
      'the PINPAD line carries noise, not the protocol; giving up on the command',
    );
    this.#finishExchange(op, {
      code: 'LINE_NOISE',
      message: `The PINPAD's line carried ${what} while waiting for ${op.label}: a faulty device or cable.`,
    });
  }

  /** A bad response packet: purge until silence, then NAK (S220 §2.2.3), or give up on the 3rd. */
  #receiveFailure(op: ExchangeDraft, reason: string): void {
    op.failures++;
    this.#resetDecoder();
    this.#stopTimer('interByte');
    if (op.failures >= this.#timings.maxReceiveAttempts) {
      this.#finishExchange(op, {
        code: 'BAD_RESPONSE',
        message: `The response to ${op.label} arrived corrupted ${op.failures} times in a row.`,
      });
      return;
    }
    this.#log('info', { command: op.label, reason, failures: op.failures }, 'bad response packet; will NAK');
    op.step = 'purge';
    op.overdue = false;
    this.#startTimer('purgeLimit', this.#timings.maxPurgeMs);
    this.#startTimer('silence', this.#timings.silenceMs);
  }

  /** The line fell silent after a bad packet: ask for the response again (S220 §2.2.3). */
  #sendNak(op: ExchangeDraft): void {
    this.#stopTimer('purgeLimit');
    op.step = 'response';
    this.#trace({ direction: 'out', kind: 'nak', command: op.id ?? op.label });
    this.#write(op.op, 'nak', Buffer.of(NAK));
  }

  #finishExchange(op: ExchangeDraft, outcome: Buffer | LinkFailure): void {
    if (this.#mode !== op) return;
    this.#stopTimers();
    this.#mode = IDLE;
    if (Buffer.isBuffer(outcome)) {
      this.#actions.push({ type: 'resolveCommand', op: op.op, response: outcome });
    } else {
      this.#log('warn', { command: op.label, code: outcome.code }, 'command failed');
      this.#actions.push({ type: 'rejectCommand', op: op.op, failure: outcome });
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Cancel / reset

  /** Cancels `op` on the link's own initiative (caller's signal, caller's deadline). */
  #cancelFor(op: ExchangeDraft, failure: LinkFailure): void {
    this.#startCancel(op.op, 'cancel', 'link', op, failure);
  }

  /** S220 §2.2.2.3: the SPE may send one CAN at any time; the PINPAD aborts and answers EOT. */
  #startCancel(
    op: number,
    purpose: 'cancel' | 'reset',
    initiative: 'caller' | 'link',
    victim: ExchangeDraft | undefined,
    victimFailure: LinkFailure | undefined,
  ): void {
    this.#stopTimer('ack');
    this.#stopTimer('silence');
    this.#stopTimer('purgeLimit');
    this.#stopTimer('response');
    this.#stopTimer('deadline');
    const cancel: CancelDraft = {
      kind: 'cancel',
      op,
      purpose,
      initiative,
      victim,
      victimFailure,
      step: 'eot',
      tries: 0,
    };
    this.#mode = cancel;
    this.#sendCan(cancel);
  }

  #sendCan(op: CancelDraft): void {
    op.tries++;
    this.#trace({ direction: 'out', kind: 'can', command: op.victim?.id ?? op.victim?.label });
    this.#log('debug', { command: op.victim?.label, try: op.tries, purpose: op.purpose }, 'sending CAN');
    this.#write(op.op, 'can', Buffer.of(CAN));
  }

  #cancelItem(op: CancelDraft, item: DecodedItem): void {
    // S220 §2.2.2.3: ignore other bytes meanwhile. Responses and NTMs already in flight are
    // decoded (so their bytes cannot pass for EOT) and dropped.
    if (item.kind !== 'byte' || item.byte !== EOT) return;
    this.#trace({ direction: 'in', kind: 'eot', command: op.victim?.id ?? op.victim?.label });
    op.step = 'settle';
    this.#resetDecoder();
    this.#stopTimer('interByte');
    this.#stopTimer('eot');
    // abecs.md §8.9: late bytes may still arrive after EOT; purge until 500 ms of silence.
    this.#startTimer('silence', this.#timings.silenceMs);
    this.#startTimer('settleLimit', this.#timings.eotTimeoutMs);
  }

  #eotTimeout(op: CancelDraft): void {
    // S220 §2.2.2.3: CAN up to 3 times.
    if (op.tries >= this.#timings.maxCancelTries) {
      this.#finishCancel(op, false);
      return;
    }
    // A packet cut short would swallow the EOT as data; start the next try clean.
    this.#resetDecoder();
    this.#sendCan(op);
  }

  #finishCancel(op: CancelDraft, eot: boolean): void {
    if (this.#mode !== op) return;
    this.#stopTimers();
    this.#resetDecoder();
    this.#mode = IDLE;
    const label = op.victim?.label;
    if (op.victim && op.victimFailure) {
      this.#actions.push({ type: 'rejectCommand', op: op.victim.op, failure: op.victimFailure });
    }
    if (eot) {
      this.#log('info', { command: label, purpose: op.purpose }, 'PINPAD confirmed CAN with EOT');
      this.#actions.push({ type: 'resolveCancel', op: op.op, result: { eot: true } });
    } else if (op.purpose === 'reset') {
      // A PINPAD that stays silent at start-up is acceptable: it had nothing running.
      this.#log('info', { tries: op.tries }, 'no EOT to the start-up CAN; assuming the PINPAD was idle');
      this.#actions.push({ type: 'resolveCancel', op: op.op, result: { eot: false } });
    } else {
      const what = label === undefined ? 'the cancellation' : `the cancellation of ${label}`;
      const failure: LinkFailure = {
        code: 'CANCEL_UNANSWERED',
        message: `The PINPAD did not confirm ${what} after ${op.tries} CAN bytes.`,
      };
      this.#log('warn', { command: label, code: failure.code }, 'CAN unanswered');
      this.#rejectCancel(op, failure);
    }
  }

  #rejectCancel(op: CancelDraft, failure: LinkFailure): void {
    this.#actions.push({ type: 'rejectCancel', op: op.op, failure });
    if (op.initiative === 'link') {
      // The victim already carries the caller-facing error; a failed CAN of the link's own is only logged.
      this.#log('warn', { command: op.victim?.label, code: failure.code }, 'cancel after abort failed');
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Bytes in

  #bytes(items: readonly DecodedItem[], receiving: boolean): void {
    const mode = this.#mode;
    // While purging (bad packet) or settling (after EOT), any byte just proves the line is busy.
    if (mode.kind === 'exchange' && mode.step === 'purge') {
      this.#resetDecoder();
      if (mode.overdue) {
        this.#lineNoise(mode, `no silence for ${this.#timings.maxPurgeMs} ms after a bad packet`);
        return;
      }
      this.#startTimer('silence', this.#timings.silenceMs);
      return;
    }
    if (mode.kind === 'cancel' && mode.step === 'settle') {
      this.#resetDecoder();
      this.#startTimer('silence', this.#timings.silenceMs);
      return;
    }
    for (const item of items) {
      const current = this.#mode;
      if (current.kind === 'exchange') {
        if (current.step === 'purge') break; // the rest of the chunk is being discarded
        this.#exchangeItem(current, item);
      } else if (current.kind === 'cancel') {
        if (current.step === 'settle') break;
        this.#cancelItem(current, item);
      } else if (item.kind === 'packet') {
        // S220 §2.2.2: the PINPAD never sends unsolicited data; a late response is dropped.
        this.#trace({ direction: 'in', kind: 'packet', command: packetId(item.data), length: item.data.length });
        this.#log(
          'warn',
          { received: packetId(item.data) ?? 'unreadable', length: item.data.length },
          'discarding an unsolicited packet',
        );
      }
    }
    const after = this.#mode;
    const discarding =
      (after.kind === 'exchange' && after.step === 'purge') || (after.kind === 'cancel' && after.step === 'settle');
    if (discarding) {
      // The bytes after the failure in this chunk count as line activity for the silence wait.
      this.#resetDecoder();
      return;
    }
    // S220 §2.2.2.2: 2 s between two bytes of one packet.
    if (receiving && !this.#decoderReset) {
      this.#startTimer('interByte', this.#timings.interByteTimeoutMs);
    } else {
      this.#stopTimer('interByte');
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Timers

  #timeout(timer: LinkTimer): void {
    // A timer the machine does not believe running was stopped after it fired: nothing to do.
    if (!this.#timers.delete(timer)) return;
    const mode = this.#mode;
    switch (timer) {
      case 'ack':
        if (mode.kind !== 'exchange') return;
        return this.#finishExchange(mode, {
          code: 'ACK_TIMEOUT',
          message: `The PINPAD did not answer ${describeCommand(mode.label)} within ${duration(this.#timings.ackTimeoutMs)}: check the cable and that nothing else uses the port.`,
        });
      case 'response':
        if (mode.kind !== 'exchange') return;
        return this.#finishExchange(mode, {
          code: 'RESPONSE_TIMEOUT',
          message: `The PINPAD received ${describeCommand(mode.label)} but sent no result within ${duration(this.#timings.responseTimeoutMs)}: switch it off and on if this keeps happening.`,
        });
      case 'interByte':
        if (mode.kind === 'exchange' && mode.step === 'response') {
          return this.#receiveFailure(mode, 'inter-byte timeout');
        }
        return this.#resetDecoder();
      case 'silence':
        if (mode.kind === 'exchange' && mode.step === 'purge') return this.#sendNak(mode);
        if (mode.kind === 'cancel' && mode.step === 'settle') return this.#finishCancel(mode, true);
        return;
      case 'purgeLimit':
        if (mode.kind === 'exchange' && mode.step === 'purge') mode.overdue = true;
        return;
      case 'eot':
        if (mode.kind === 'cancel' && mode.step === 'eot') this.#eotTimeout(mode);
        return;
      case 'settleLimit':
        // A line that never falls quiet after EOT: the EOT came, so the cancel is done.
        if (mode.kind === 'cancel') this.#finishCancel(mode, true);
        return;
      case 'deadline': {
        if (mode.kind !== 'exchange') return;
        const limit = mode.timeoutMs ?? 0;
        this.#log('warn', { command: mode.label, timeoutMs: limit }, 'command exceeded its time limit');
        return this.#cancelFor(mode, {
          code: 'TIMEOUT',
          message: `${describeCommand(mode.label)} did not finish within ${duration(limit)} and was cancelled.`,
        });
      }
    }
  }

  #startTimer(timer: LinkTimer, ms: number): void {
    this.#timers.add(timer);
    this.#actions.push({ type: 'startTimer', timer, ms });
  }

  #stopTimer(timer: LinkTimer): void {
    if (this.#timers.delete(timer)) this.#actions.push({ type: 'stopTimer', timer });
  }

  #stopTimers(): void {
    for (const timer of TIMERS) this.#stopTimer(timer);
  }

  // ---------------------------------------------------------------------------------------------
  // Bytes out and the transport

  #write(op: number, carries: LinkWriteKind, bytes: Buffer): void {
    this.#actions.push({ type: 'write', op, carries, bytes });
  }

  /** The transport took the bytes: the waits that count from the send start now. */
  #written(op: number, carries: LinkWriteKind): void {
    const mode = this.#mode;
    if (carries === 'command' && mode.kind === 'exchange' && mode.op === op && mode.step === 'ack') {
      this.#startTimer('ack', this.#timings.ackTimeoutMs);
    } else if (carries === 'can' && mode.kind === 'cancel' && mode.op === op && mode.step === 'eot') {
      this.#startTimer('eot', this.#timings.eotTimeoutMs);
    }
  }

  /** A failed write means the link is gone, which fails everything in flight. */
  #writeFailed(op: number, carries: LinkWriteKind, cause: unknown): void {
    const mode = this.#mode;
    const current = carries === 'can' ? mode.kind === 'cancel' : mode.kind === 'exchange';
    if (!current || mode.kind === 'idle' || mode.op !== op) return;
    this.#failAll({
      code: 'DISCONNECTED',
      message: `Sending ${this.#currentLabel()} failed: the link to the PINPAD is down.`,
      cause,
    });
  }

  #closed(expected: boolean): void {
    this.#log('warn', { expected }, 'PINPAD link closed');
    this.#failAll({
      code: 'DISCONNECTED',
      message: `The connection to the PINPAD was lost during ${describeCommand(this.#currentLabel())}: check the cable (or the network) and that the PINPAD is switched on.`,
    });
  }

  #dispose(): void {
    if (this.#disposed) return;
    this.#failAll({ code: 'DISCONNECTED', message: `The PINPAD link was closed during ${this.#currentLabel()}.` });
    this.#disposed = true;
    this.#stopTimers();
  }

  #failAll(failure: LinkFailure): void {
    const mode = this.#mode;
    if (mode.kind === 'idle') return;
    this.#stopTimers();
    this.#resetDecoder();
    this.#mode = IDLE;
    if (mode.kind === 'exchange') {
      this.#actions.push({ type: 'rejectCommand', op: mode.op, failure });
    } else {
      if (mode.victim) this.#actions.push({ type: 'rejectCommand', op: mode.victim.op, failure });
      this.#rejectCancel(mode, failure);
    }
  }

  // ---------------------------------------------------------------------------------------------

  #currentLabel(): string {
    const mode = this.#mode;
    if (mode.kind === 'exchange') return mode.label;
    if (mode.kind === 'cancel') return mode.victim ? `cancelling ${mode.victim.label}` : 'CAN';
    return 'the command';
  }

  /** Idempotent within a step: no bytes reach the decoder between two actions of one step. */
  #resetDecoder(): void {
    if (this.#decoderReset) return;
    this.#decoderReset = true;
    this.#actions.push({ type: 'resetDecoder' });
  }

  #trace(trace: LinkTrace): void {
    this.#actions.push({ type: 'trace', trace });
  }

  #log(level: LogLevel, fields: Readonly<Record<string, unknown>>, message: string): void {
    this.#actions.push({ type: 'log', level, fields, message });
  }
}
