/**
 * Records an ABECS session as it crosses a byte transport: `RecordingTransport` wraps the
 * host's transport, passes every byte through unchanged, and hands both directions to a
 * `TraceRecorder`, which frames them (one FrameDecoder per direction) and keeps one event per
 * packet or control byte, the packet masked at once (mask.ts): the raw bytes are never stored.
 *
 * Bytes outside packets other than ACK, NAK, EOT and CAN are line noise and are not recorded,
 * nor are packets whose CRC failed (the link layer NAKs them; the resend is recorded).
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

export class TraceRecorder {
  readonly started: Date;
  /** What the identification said, for the header (set by whoever ran it). */
  pinpad: TracePinpad | undefined;
  readonly #origin: number;
  readonly #events: TraceEvent[] = [];
  readonly #decoders: Record<TraceDirection, FrameDecoder> = {
    host: new FrameDecoder(),
    pinpad: new FrameDecoder(),
  };

  constructor(readonly address: string) {
    this.started = new Date();
    this.#origin = performance.now();
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
        this.#events.push({
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
        if (kind !== undefined) this.#events.push({ t, dir, kind });
      }
    }
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
