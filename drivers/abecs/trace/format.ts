/**
 * The file format of a recorded ABECS session ("trace"): JSON lines, so a support desk can read
 * it with any text tool and a cut-off recording still parses up to its last whole line.
 *
 *   {"format":"pinbridge-abecs-trace","version":1,"address":"/dev/ttyACM0","started":"2025-…Z","pinpad":{…}}
 *   {"t":0,"dir":"host","kind":"can"}
 *   {"t":12,"dir":"pinpad","kind":"eot"}
 *   {"t":530,"dir":"host","kind":"packet","id":"OPN","length":6,"data":"4f504e303030"}
 *   {"t":541,"dir":"pinpad","kind":"ack"}
 *   {"t":548,"dir":"pinpad","kind":"packet","id":"OPN","status":"000","length":6,"data":"4f504e303030"}
 *
 * - `t`: milliseconds since `started`.
 * - `dir`: who sent it, the host (SPE) or the PINPAD.
 * - `kind`: a packet, or one of the control bytes ACK, NAK, EOT, CAN.
 * - packets: `id` (absent for an encrypted or unreadable packet), `status` (PINPAD packets: the
 *   RSP_STAT), `length` (of the original PKTDATA) and `data`, the hex of the packet *after
 *   masking* (trace/mask.ts). A packet the masking does not know how to clean has no `data`.
 *
 * Nothing here sees card data: by the time an event exists its packet has been masked.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { DriverError } from '../../errors.js';

export const TRACE_FORMAT = 'pinbridge-abecs-trace';
export const TRACE_VERSION = 1;

export type TraceDirection = 'host' | 'pinpad';
export type TraceEventKind = 'packet' | 'ack' | 'nak' | 'eot' | 'can';

export interface TraceEvent {
  /** Milliseconds since the recording started. */
  readonly t: number;
  readonly dir: TraceDirection;
  readonly kind: TraceEventKind;
  /** The packet's three-letter id (CMD_ID / RSP_ID), when readable. */
  readonly id?: string;
  /** RSP_STAT of a PINPAD packet, three digits. */
  readonly status?: string;
  /** Length of the packet's PKTDATA as it travelled (before masking). */
  readonly length?: number;
  /** Hex of the masked PKTDATA; absent when the packet could not be masked safely. */
  readonly data?: string;
}

/** What the identification said about the PINPAD, no card data (all optional: legacy PINPADs say less). */
export interface TracePinpad {
  readonly manufacturer?: string;
  readonly model?: string;
  readonly serial_number?: string;
  readonly firmware?: string;
  readonly spec_version?: string;
  readonly protocol?: string;
}

export interface TraceHeader {
  readonly format: typeof TRACE_FORMAT;
  readonly version: typeof TRACE_VERSION;
  /** The PINPAD's address in the `--port` syntax. */
  readonly address: string;
  /** ISO time the recording started; `t` counts from here. */
  readonly started: string;
  readonly pinpad?: TracePinpad;
  /** Events dropped, oldest first, by a recorder kept within a limit (the agent's own traces). */
  readonly events_dropped?: number;
}

export interface RecordedTrace {
  readonly header: TraceHeader;
  readonly events: readonly TraceEvent[];
}

export type TraceErrorCode = 'INVALID_TRACE' | 'TRACE_UNREADABLE';

/** A trace file that cannot be read or is not a trace; the message says which line and why. */
export class TraceFileError extends DriverError {
  declare readonly code: TraceErrorCode;

  constructor(code: TraceErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}

const DIRECTIONS: ReadonlySet<string> = new Set<TraceDirection>(['host', 'pinpad']);
const KINDS: ReadonlySet<string> = new Set<TraceEventKind>(['packet', 'ack', 'nak', 'eot', 'can']);
const PINPAD_KEYS: readonly (keyof TracePinpad)[] = [
  'manufacturer',
  'model',
  'serial_number',
  'firmware',
  'spec_version',
  'protocol',
];

export function serializeTrace(trace: RecordedTrace): string {
  return [trace.header, ...trace.events].map((line) => JSON.stringify(line)).join('\n') + '\n';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseHeader(value: unknown, where: string): TraceHeader {
  if (!isRecord(value) || value.format !== TRACE_FORMAT) {
    throw new TraceFileError(
      'INVALID_TRACE',
      `${where} is not a Pinbridge ABECS trace header (format "${TRACE_FORMAT}").`,
    );
  }
  if (value.version !== TRACE_VERSION) {
    throw new TraceFileError(
      'INVALID_TRACE',
      `${where}: trace version ${String(value.version)} is not supported (this Pinbridge reads version ${TRACE_VERSION}).`,
    );
  }
  if (
    typeof value.address !== 'string' ||
    typeof value.started !== 'string' ||
    Number.isNaN(Date.parse(value.started))
  ) {
    throw new TraceFileError('INVALID_TRACE', `${where}: the header needs "address" and an ISO "started" time.`);
  }
  let pinpad: TracePinpad | undefined;
  if (value.pinpad !== undefined) {
    if (!isRecord(value.pinpad)) throw new TraceFileError('INVALID_TRACE', `${where}: "pinpad" must be an object.`);
    const source = value.pinpad;
    const picked: Record<string, string> = {};
    for (const key of PINPAD_KEYS) {
      const item = source[key];
      if (item === undefined) continue;
      if (typeof item !== 'string')
        throw new TraceFileError('INVALID_TRACE', `${where}: "pinpad.${key}" must be text.`);
      picked[key] = item;
    }
    pinpad = picked;
  }
  const dropped = value.events_dropped;
  if (dropped !== undefined && (typeof dropped !== 'number' || !Number.isInteger(dropped) || dropped < 0))
    throw new TraceFileError('INVALID_TRACE', `${where}: "events_dropped" must be a whole number.`);
  return {
    format: TRACE_FORMAT,
    version: TRACE_VERSION,
    address: value.address,
    started: value.started,
    ...(pinpad ? { pinpad } : {}),
    ...(dropped !== undefined ? { events_dropped: dropped } : {}),
  };
}

function parseEvent(value: unknown, where: string): TraceEvent {
  const bad = (what: string): TraceFileError => new TraceFileError('INVALID_TRACE', `${where}: ${what}.`);
  if (!isRecord(value)) throw bad('an event must be a JSON object');
  const { t, dir, kind, id, status, length, data } = value;
  if (typeof t !== 'number' || !Number.isFinite(t) || t < 0) throw bad('"t" must be a number of milliseconds ≥ 0');
  if (typeof dir !== 'string' || !DIRECTIONS.has(dir)) throw bad('"dir" must be "host" or "pinpad"');
  if (typeof kind !== 'string' || !KINDS.has(kind)) throw bad('"kind" must be packet, ack, nak, eot or can');
  if (id !== undefined && (typeof id !== 'string' || !/^[A-Z]{3}$/.test(id)))
    throw bad('"id" must be three capital letters');
  if (status !== undefined && (typeof status !== 'string' || !/^[0-9]{3}$/.test(status)))
    throw bad('"status" must be three digits');
  if (length !== undefined && (typeof length !== 'number' || !Number.isInteger(length) || length < 0))
    throw bad('"length" must be a whole number');
  if (data !== undefined && (typeof data !== 'string' || !/^(?:[0-9a-fA-F]{2})+$/.test(data)))
    throw bad('"data" must be hex bytes');
  if (kind !== 'packet' && (id !== undefined || data !== undefined)) throw bad(`a ${kind} event carries no packet`);
  return {
    t,
    dir: dir as TraceDirection,
    kind: kind as TraceEventKind,
    ...(id !== undefined ? { id } : {}),
    ...(status !== undefined ? { status } : {}),
    ...(length !== undefined ? { length } : {}),
    ...(data !== undefined ? { data: data.toLowerCase() } : {}),
  };
}

/** Parses a trace; throws TraceFileError naming the first bad line. `name` is used in messages. */
export function parseTrace(text: string, name = 'the trace'): RecordedTrace {
  const lines = text.split(/\r?\n/);
  while (lines.length > 0 && lines[lines.length - 1]!.trim() === '') lines.pop();
  if (lines.length === 0)
    throw new TraceFileError('INVALID_TRACE', `${name} is empty; a trace starts with its header line.`);
  const json = (line: string, number: number): unknown => {
    try {
      return JSON.parse(line) as unknown;
    } catch {
      throw new TraceFileError('INVALID_TRACE', `${name}, line ${number}, is not JSON.`);
    }
  };
  const header = parseHeader(json(lines[0]!, 1), `${name}, line 1,`);
  const events = lines.slice(1).map((line, index) => parseEvent(json(line, index + 2), `${name}, line ${index + 2}`));
  return { header, events };
}

export async function readTraceFile(path: string): Promise<RecordedTrace> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'there is no such file' : (error as Error).message;
    throw new TraceFileError('TRACE_UNREADABLE', `Cannot read the trace ${path}: ${reason}.`, { cause: error });
  }
  return parseTrace(text, `The trace ${path}`);
}

export async function writeTraceFile(path: string, trace: RecordedTrace): Promise<void> {
  // The trace is masked already; the mode only keeps a store's session details to its user.
  await writeFile(path, serializeTrace(trace), { encoding: 'utf8', mode: 0o600 });
}
