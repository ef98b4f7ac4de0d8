/**
 * The PINPAD side of the ABECS link layer (abecs.md §1.6 "PINPAD side", S220 §6.2.1), for the
 * simulator and for tests: receives command packets (ACK or NAK), sends responses and NTM
 * notifications, resends the last packet on NAK and answers every CAN with EOT. It moves packets
 * only; what a command means is decided by whoever listens to `command`.
 *
 * `faults` lets the simulator and tests make the device misbehave in the ways real PINPADs and
 * cables do (NAKs, corrupted or late responses, lost ACKs, slow lines, a dead device).
 */
import { EventEmitter } from 'node:events';
import { InvalidArgumentError } from '../errors.js';
import { silentLogger, type DriverLogger } from '../log.js';
import { LinePacer } from '../transports/pacer.js';
import type { ByteTransport } from '../transports/transport.js';
import { ACK, CAN, DC2, EOT, NAK, FrameReceiver, encodeFrame, type ReceivedItem } from './wire/frame.js';
import { encodeNotification, MAX_NOTIFICATION, readCommandId } from './wire/packet.js';

export interface DeviceLinkTimings {
  /** Longest gap between two bytes of one incoming packet (S220 §6.2.1: 1.5 s). */
  readonly interByteTimeoutMs: number;
  /** Silence awaited after a bad packet before answering NAK (500 ms). */
  readonly silenceMs: number;
}

export const DEFAULT_DEVICE_LINK_TIMINGS: DeviceLinkTimings = Object.freeze({
  interByteTimeoutMs: 1500,
  silenceMs: 500,
});

export interface DeviceLinkTrace {
  readonly direction: 'out' | 'in';
  readonly kind: 'packet' | 'ack' | 'nak' | 'can' | 'eot';
  /** The packet's 3-letter id when readable (never its contents). */
  readonly command?: string;
  readonly length?: number;
}

export interface CommandInfo {
  /**
   * True when this packet arrived while the previous command was still unanswered: per S220
   * §6.2.1 / §7.4 a valid new packet aborts a blocking command in progress.
   */
  readonly abortsPending: boolean;
}

export interface DeviceLinkEvents {
  /** A valid command packet arrived (and was ACKed, unless a fault dropped the ACK). */
  command: [pktdata: Buffer, info: CommandInfo];
  /** The host sent CAN; EOT has been sent. Abort any blocking command, send no response. */
  cancel: [];
  trace: [trace: DeviceLinkTrace];
}

export interface DeviceLinkOptions {
  readonly timings?: Partial<DeviceLinkTimings>;
  readonly logger?: DriverLogger;
}

/** Largest NTM_MSG (two 16-column lines). */
export const MAX_NOTIFICATION_LENGTH = MAX_NOTIFICATION;

/** Fault injection, driven by the simulator's UI and by tests. Counters count down as used. */
export class DeviceLinkFaults {
  /** Delay before each `respond()` transmission, in milliseconds. */
  responseDelayMs = 0;
  /** When set, every byte the device sends is paced like a serial line at this baud rate (8N1). */
  paceBaud: number | undefined = undefined;
  readonly #counts = { nak: 0, corrupt: 0, dropAck: 0, late: 0 };
  #mute = false;

  /** Answer the next `n` command packets with NAK, even when they are intact. */
  nakNext(n = 1): void {
    this.#counts.nak = checkCount(n);
  }

  /** Flip a CRC byte in the next `n` packet transmissions (responses, NTMs, retransmissions). */
  corruptNextResponses(n = 1): void {
    this.#counts.corrupt = checkCount(n);
  }

  /** Send nothing instead of the ACK for the next `n` command packets (they are still processed). */
  dropAcks(n = 1): void {
    this.#counts.dropAck = checkCount(n);
  }

  /**
   * For the next `n` CANs that abort a command: right after the EOT, send a response to the
   * aborted command anyway, as a PINPAD that finished just as the CAN arrived would. The host
   * must not take it for the answer to its next command.
   */
  lateResponseAfterCancel(n = 1): void {
    this.#counts.late = checkCount(n);
  }

  /** Stop answering anything, even CAN, and send nothing, as a hung device would. */
  silence(): void {
    this.#mute = true;
  }

  unsilence(): void {
    this.#mute = false;
  }

  get silenced(): boolean {
    return this.#mute;
  }

  /** Back to a well-behaved device. */
  clear(): void {
    this.#counts.nak = 0;
    this.#counts.corrupt = 0;
    this.#counts.dropAck = 0;
    this.#counts.late = 0;
    this.#mute = false;
    this.responseDelayMs = 0;
    this.paceBaud = undefined;
  }

  /** @internal Consumes one unit of a counted fault; true when the fault applies now. */
  take(fault: 'nak' | 'corrupt' | 'dropAck' | 'late'): boolean {
    if (this.#counts[fault] <= 0) return false;
    this.#counts[fault]--;
    return true;
  }
}

function checkCount(n: number): number {
  if (!Number.isInteger(n) || n < 0) {
    throw new InvalidArgumentError(`A fault count must be a whole number ≥ 0, got ${n}.`);
  }
  return n;
}

function packetId(data: Uint8Array): string | undefined {
  return data[0] === DC2 ? undefined : readCommandId(data);
}

export class DeviceLink extends EventEmitter<DeviceLinkEvents> {
  readonly faults = new DeviceLinkFaults();
  readonly timings: DeviceLinkTimings;
  readonly #logger: DriverLogger;
  readonly #decoder = new FrameReceiver();
  /** PKTDATA of the last packet sent, resent when the host answers NAK. */
  #lastPacket: Buffer | undefined;
  /** A command was ACKed and has not been answered (or cancelled) yet. */
  #pending = false;
  /** Id of the last command received (for the late-response fault). */
  #pendingId = '';
  /** After a bad packet: discarding input until the line is quiet, then NAK. */
  #purging = false;
  #silenceTimer: NodeJS.Timeout | undefined;
  #interByteTimer: NodeJS.Timeout | undefined;
  /** Responses waiting out `responseDelayMs`; a CAN drops them (the command was aborted). */
  readonly #delayed = new Set<{ timer: NodeJS.Timeout; done: () => void }>();
  #pacer: LinePacer | undefined;
  #disposed = false;

  readonly #onData = (chunk: Buffer): void => this.#handleData(chunk);
  readonly #transport: ByteTransport;

  constructor(transport: ByteTransport, options: DeviceLinkOptions = {}) {
    super();
    this.#transport = transport;
    this.timings = { ...DEFAULT_DEVICE_LINK_TIMINGS, ...options.timings };
    this.#logger = options.logger ?? silentLogger;
    transport.on('data', this.#onData);
  }

  /** True between a command's ACK and its response (or a CAN). */
  get awaitingResponse(): boolean {
    return this.#pending;
  }

  /** Sends the response packet (after `faults.responseDelayMs`) and keeps it for NAK resends. */
  respond(pktdata: Buffer): Promise<void> {
    const data = Buffer.from(pktdata);
    encodeFrame(data); // validates now, so the caller sees a bad packet at once
    this.#pending = false;
    const delay = this.faults.responseDelayMs;
    if (delay <= 0) return this.#sendPacket(data);
    return new Promise<void>((resolve) => {
      const entry = {
        timer: setTimeout(() => {
          this.#delayed.delete(entry);
          this.#sendPacket(data).then(resolve, resolve);
        }, delay),
        done: resolve,
      };
      this.#delayed.add(entry);
    });
  }

  /** Sends an NTM notification (`NTM000` + N3 length + text, Latin-1, at most 32 characters). */
  notify(text: string): Promise<void> {
    const length = Buffer.byteLength(text, 'latin1');
    if (length > MAX_NOTIFICATION_LENGTH) {
      throw new InvalidArgumentError(
        `A notification holds at most ${MAX_NOTIFICATION_LENGTH} characters; this one has ${length}.`,
      );
    }
    return this.notifyPacket(encodeNotification(text));
  }

  /** Sends an NTM packet already built (an encrypted one in secure communication). */
  notifyPacket(pktdata: Buffer): Promise<void> {
    return this.#sendPacket(pktdata);
  }

  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#transport.off('data', this.#onData);
    this.#clearTimers();
    this.#dropDelayed();
  }

  // ---------------------------------------------------------------------------------------------

  #handleData(chunk: Buffer): void {
    if (this.#disposed) return;
    if (this.faults.silenced) {
      this.#decoder.reset();
      return;
    }
    if (this.#purging) {
      // The rest of a bad packet (or noise) is still arriving: wait for the line to go quiet.
      this.#armSilence();
      return;
    }
    for (const item of this.#decoder.push(chunk)) {
      this.#handleItem(item);
      if (this.#purging) {
        this.#decoder.reset();
        return;
      }
    }
    clearTimeout(this.#interByteTimer);
    this.#interByteTimer = undefined;
    if (this.#decoder.receiving) {
      this.#interByteTimer = setTimeout(() => {
        this.#interByteTimer = undefined;
        this.#badPacket('inter-byte timeout');
      }, this.timings.interByteTimeoutMs);
    }
  }

  #handleItem(item: ReceivedItem): void {
    switch (item.kind) {
      case 'packet':
        this.#commandPacket(item.data);
        return;
      case 'error':
        this.#badPacket(item.reason);
        return;
      case 'byte':
        if (item.byte === CAN) this.#cancel();
        else if (item.byte === NAK) this.#resend();
        // Anything else outside a packet is noise and is ignored (S220 §6.2.1 idle loop).
        return;
    }
  }

  #commandPacket(data: Buffer): void {
    const command = packetId(data);
    this.#trace({ direction: 'in', kind: 'packet', command, length: data.length });
    if (this.faults.take('nak')) {
      this.#logger.info({ command }, 'fault: NAK for an intact command');
      this.#sendControl(NAK, 'nak');
      return;
    }
    if (this.faults.take('dropAck')) {
      this.#logger.info({ command }, 'fault: ACK dropped');
    } else {
      this.#sendControl(ACK, 'ack');
    }
    const abortsPending = this.#pending;
    this.#pending = true;
    this.#pendingId = data.subarray(0, 3).toString('latin1');
    // A new command supersedes any response still waiting out its delay.
    if (abortsPending) this.#dropDelayed();
    this.emit('command', data, { abortsPending });
  }

  #badPacket(reason: string): void {
    this.#logger.info({ reason }, 'bad command packet; will NAK');
    this.#decoder.reset();
    clearTimeout(this.#interByteTimer);
    this.#interByteTimer = undefined;
    this.#purging = true;
    this.#armSilence();
  }

  #armSilence(): void {
    clearTimeout(this.#silenceTimer);
    this.#silenceTimer = setTimeout(() => {
      this.#silenceTimer = undefined;
      this.#purging = false;
      if (!this.faults.silenced) this.#sendControl(NAK, 'nak');
    }, this.timings.silenceMs);
  }

  #cancel(): void {
    this.#trace({ direction: 'in', kind: 'can' });
    this.#sendControl(EOT, 'eot');
    if (this.#pending && this.faults.take('late')) {
      void this.#sendPacket(Buffer.from(`${this.#pendingId}000`, 'latin1'));
    }
    this.#pending = false;
    this.#dropDelayed();
    this.emit('cancel');
  }

  #resend(): void {
    this.#trace({ direction: 'in', kind: 'nak' });
    if (!this.#lastPacket) {
      this.#logger.debug({}, 'NAK with nothing to resend; ignored');
      return;
    }
    this.#sendPacket(this.#lastPacket).catch(() => {});
  }

  #sendPacket(data: Buffer): Promise<void> {
    if (this.faults.silenced || this.#disposed) return Promise.resolve();
    this.#lastPacket = data;
    const frame = encodeFrame(data);
    if (this.faults.take('corrupt')) {
      // The last CRC byte: flipping it can never create a control byte the host would parse
      // differently, because the receiver reads the two CRC bytes raw.
      frame[frame.length - 1] = frame[frame.length - 1]! ^ 0xff;
      this.#logger.info({ command: packetId(data) }, 'fault: corrupted CRC');
    }
    this.#trace({ direction: 'out', kind: 'packet', command: packetId(data), length: data.length });
    return this.#write(frame);
  }

  #sendControl(byte: number, kind: DeviceLinkTrace['kind']): void {
    if (this.faults.silenced) return;
    this.#trace({ direction: 'out', kind });
    this.#write(Buffer.of(byte)).catch(() => {});
  }

  #write(bytes: Buffer): Promise<void> {
    if (this.#disposed) return Promise.resolve();
    const baud = this.faults.paceBaud;
    const onError = (error: unknown): void => {
      this.#logger.warn({ error: (error as Error).message }, 'device write failed');
    };
    if (baud === undefined) return this.#transport.write(bytes).catch(onError);
    if (this.#pacer?.baud !== baud) this.#pacer = new LinePacer(baud);
    return this.#pacer.send(bytes, (slice) => {
      if (!this.#disposed) this.#transport.write(slice).catch(onError);
    });
  }

  #dropDelayed(): void {
    for (const entry of this.#delayed) {
      clearTimeout(entry.timer);
      entry.done();
    }
    this.#delayed.clear();
  }

  #clearTimers(): void {
    clearTimeout(this.#silenceTimer);
    clearTimeout(this.#interByteTimer);
    this.#silenceTimer = undefined;
    this.#interByteTimer = undefined;
  }

  #trace(trace: DeviceLinkTrace): void {
    this.emit('trace', trace);
  }
}
