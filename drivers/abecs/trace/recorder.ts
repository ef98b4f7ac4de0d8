/**
 * Records an ABECS session as it crosses a byte transport: `RecordingTransport` wraps the
 * host's transport, passes every byte through unchanged, and hands both directions to a
 * `TraceRecorder`, which frames them (one FrameDecoder per direction) and keeps one event per
 * packet or control byte, the packet masked at once (mask.ts): the raw bytes are never stored.
 *
 * Bytes outside packets other than ACK, NAK, EOT and CAN are line noise and are not recorded,
 * nor are packets whose CRC failed (the link layer NAKs them; the resend is recorded).
 *
 * A recorder that runs for as long as the agent does (main/support/trace-folder.ts) is bounded
 * (`limit`): past it the oldest events go first, and the header counts them (`events_dropped`).
 */
import { EventEmitter } from 'node:events';
import type { ByteTransport, TransportEvents, TransportKind } from '../../transports/transport.js';
import { ACK, CAN, EOT, FrameDecoder, NAK } from '../frame.js';
import {
  TRACE_FORMAT,
  TRACE_VERSION,
  type RecordedTrace,
  type TraceDirection,
  type TraceEvent,
  type TraceEventKind,
  type TracePinpad,
} from './format.js';
import { maskPacket } from './mask.js';

const CONTROL_KINDS: ReadonlyMap<number, TraceEventKind> = new Map([
  [ACK, 'ack'],
  [NAK, 'nak'],
  [EOT, 'eot'],
  [CAN, 'can'],
]);

/** The most a recorder keeps; past either, the oldest events are dropped. */
export interface TraceLimit {
  readonly events?: number;
  /** Roughly the bytes the events take in a trace file (their hex data and ~60 bytes each). */
  readonly bytes?: number;
}

export interface TraceRecorderOptions {
  readonly limit?: TraceLimit;
  /** Told after each event is kept (e.g. to write the trace to disk soon). */
  readonly onEvent?: () => void;
}

/** What an event adds to a trace file, roughly: its JSON line without the data, and the data. */
const eventBytes = (event: TraceEvent): number => 60 + (event.data?.length ?? 0);

export class TraceRecorder {
  readonly started: Date;
  /** What the identification said, for the header (set by whoever ran it). */
  pinpad: TracePinpad | undefined;
  readonly #origin: number;
  #events: TraceEvent[] = [];
  #bytes = 0;
  #dropped = 0;
  readonly #limit: TraceLimit;
  readonly #onEvent: (() => void) | undefined;
  readonly #decoders: Record<TraceDirection, FrameDecoder> = {
    host: new FrameDecoder(),
    pinpad: new FrameDecoder(),
  };

  constructor(
    readonly address: string,
    options: TraceRecorderOptions = {},
  ) {
    this.started = new Date();
    this.#origin = performance.now();
    this.#limit = options.limit ?? {};
    this.#onEvent = options.onEvent;
  }

  /** Events kept now (packets and control bytes). */
  get eventCount(): number {
    return this.#events.length;
  }

  /** Events dropped, oldest first, to stay within the limit. */
  get dropped(): number {
    return this.#dropped;
  }

  /** Packets recorded so far, both directions. */
  get packetCount(): number {
    return this.#events.filter((event) => event.kind === 'packet').length;
  }

  /** Feeds bytes that went one way. */
  observe(dir: TraceDirection, bytes: Uint8Array): void {
    const t = Math.round(performance.now() - this.#origin);
    for (const item of this.#decoders[dir].push(bytes)) {
      if (item.kind === 'packet') {
        const { id, status, data } = maskPacket(dir, item.data);
        this.#keep({
          t,
          dir,
          kind: 'packet',
          ...(id !== undefined ? { id } : {}),
          ...(status !== undefined ? { status } : {}),
          length: item.data.length,
          ...(data !== undefined ? { data: data.toString('hex') } : {}),
        });
      } else if (item.kind === 'byte') {
        const kind = CONTROL_KINDS.get(item.byte);
        if (kind !== undefined) this.#keep({ t, dir, kind });
      }
    }
  }

  #keep(event: TraceEvent): void {
    this.#events.push(event);
    this.#bytes += eventBytes(event);
    const maxEvents = this.#limit.events ?? Infinity;
    const maxBytes = this.#limit.bytes ?? Infinity;
    if (this.#events.length > maxEvents || this.#bytes > maxBytes) {
      // A tenth at once (at least what the limit needs): the array is not shifted at every packet.
      let drop = Math.max(1, Math.ceil(this.#events.length / 10), this.#events.length - maxEvents);
      let freed = 0;
      for (let i = 0; i < drop; i++) freed += eventBytes(this.#events[i]!);
      while (this.#bytes - freed > maxBytes && drop < this.#events.length - 1)
        freed += eventBytes(this.#events[drop++]!);
      this.#events = this.#events.slice(drop);
      this.#bytes -= freed;
      this.#dropped += drop;
    }
    this.#onEvent?.();
  }

  /** The recording so far, ready for writeTraceFile. */
  trace(): RecordedTrace {
    return {
      header: {
        format: TRACE_FORMAT,
        version: TRACE_VERSION,
        address: this.address,
        started: this.started.toISOString(),
        ...(this.pinpad ? { pinpad: this.pinpad } : {}),
        ...(this.#dropped > 0 ? { events_dropped: this.#dropped } : {}),
      },
      events: [...this.#events],
    };
  }
}

/** A transport that records what crosses it (host writes = 'host', received bytes = 'pinpad'). */
export class RecordingTransport extends EventEmitter<TransportEvents> implements ByteTransport {
  readonly recorder: TraceRecorder;
  readonly #inner: ByteTransport;

  constructor(inner: ByteTransport, recorder?: TraceRecorder) {
    super();
    this.#inner = inner;
    this.recorder = recorder ?? new TraceRecorder(inner.address);
    inner.on('open', () => this.emit('open'));
    inner.on('data', (chunk) => {
      this.recorder.observe('pinpad', chunk);
      this.emit('data', chunk);
    });
    inner.on('close', (info) => this.emit('close', info));
  }

  get kind(): TransportKind {
    return this.#inner.kind;
  }

  get address(): string {
    return this.#inner.address;
  }

  get isOpen(): boolean {
    return this.#inner.isOpen;
  }

  open(): Promise<void> {
    return this.#inner.open();
  }

  write(data: Uint8Array): Promise<void> {
    // Recorded when handed over, whether or not the write then succeeds: that is what the host sent.
    if (this.#inner.isOpen) this.recorder.observe('host', data);
    return this.#inner.write(data);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }
}
