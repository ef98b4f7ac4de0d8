/**
 * The simulated PINPAD's keys.
 *
 * DUKPT (`SimulatedDukptKeys`): one initial key per loaded slot and kind (PIN, data),
 * derived from the public ANSI X9.24 test BDK as an acquirer's key-loading device would, and a
 * transaction counter that every use advances — so PIN blocks and encrypted tracks are real
 * DUKPT cryptograms that a test host holding the test BDK can open, and nothing else can.
 *
 * Initial KSN of slot nn: FF + nn + the serial number's last 10 hex digits + E00000 (the counter
 * is the KSN's rightmost 21 bits, as in X9.24 Annex A's "FFFF9876543210E00000").
 * PP_KSNTDESPnn / PP_KSNTDESDnn report the KSN of the slot's next use (S220 §6.5.9 "KSN atual").
 *
 * A real PINPAD keeps each counter in non-volatile memory: a KSN is never used twice, across power
 * cycles too, and an acquirer's host refuses one that does not advance (the payments sandbox
 * does). The simulator keeps its counters in a `DukptCounterStore`: by default one shared by every
 * simulator of the process (the same serial number is the same device, powered on again), or a
 * file (`fileCounterStore`) for a simulator that must keep them across runs.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  dataKey,
  initialKey,
  KSN_COUNTER_MAX,
  pinKey,
  TEST_BDK,
  transactionKey,
  withCounter,
} from '../crypto/dukpt.js';
import { openWorkingKey as openUnderMasterKey, testMasterKey, type MasterKeyKind } from '../crypto/master-keys.js';

export type DukptKind = 'pin' | 'data';

/**
 * DUKPT:TDES:DAT#1 (S220 §5.1.2, SPE_MTHDDAT "30"): the "Message Authentication, request or both
 * ways" variant of X9.24-1:2009 — the transaction key XOR 00…00FF00 in each half, with none of
 * the extra TDES step DAT#3 takes.
 */
const DAT1_VARIANT = Buffer.from('000000000000FF00000000000000FF00', 'hex');

interface Slot {
  readonly ipek: Buffer;
  readonly initialKsn: Buffer;
  /** The initial KSN in upper-case hex: the store's key. */
  readonly name: string;
  counter: number;
}

/** Where a simulated PINPAD keeps the last DUKPT counter used under each initial KSN. */
export interface DukptCounterStore {
  /** The last counter used under this initial KSN (upper-case hex), 0 when it was never used. */
  last(initialKsn: string): number;
  /** Records the counter just used. */
  used(initialKsn: string, counter: number): void;
}

/** Counters kept in memory, for as long as the store lives. */
export function memoryCounterStore(): DukptCounterStore {
  const counters = new Map<string, number>();
  return {
    last: (initialKsn) => counters.get(initialKsn) ?? 0,
    used: (initialKsn, counter) => void counters.set(initialKsn, counter),
  };
}

/** The default: every simulator of this process with the same serial number continues its counters. */
export const PROCESS_COUNTERS: DukptCounterStore = memoryCounterStore();

/**
 * Counters kept in a JSON file (`{"<initial KSN>": counter}`), written whole after each use
 * through a temporary file and a rename, so a crash leaves the old file or the new one. A file
 * that cannot be read starts empty; a write that fails (disk full, read-only) is reported to
 * `onError` once and the counters go on in memory — a sale is never stopped for it.
 */
export function fileCounterStore(path: string, onError?: (error: Error) => void): DukptCounterStore {
  const counters = new Map<string, number>();
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (typeof parsed === 'object' && parsed !== null) {
      for (const [name, value] of Object.entries(parsed)) {
        if (/^[0-9A-F]{20}$/.test(name) && Number.isSafeInteger(value) && (value as number) > 0) {
          counters.set(name, value as number);
        }
      }
    }
  } catch {
    // No file yet, or one that does not parse: the counters start from the process's memory.
  }
  let failing = false;
  return {
    last: (initialKsn) => Math.max(counters.get(initialKsn) ?? 0, PROCESS_COUNTERS.last(initialKsn)),
    used(initialKsn, counter) {
      counters.set(initialKsn, counter);
      PROCESS_COUNTERS.used(initialKsn, counter);
      try {
        mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
        const temporary = `${path}.${process.pid}.tmp`;
        writeFileSync(temporary, `${JSON.stringify(Object.fromEntries(counters))}\n`, { mode: 0o600 });
        renameSync(temporary, path);
        failing = false;
      } catch (error) {
        if (!failing) onError?.(error instanceof Error ? error : new Error(String(error)));
        failing = true;
      }
    },
  };
}

export class SimulatedDukptKeys {
  readonly #slots = new Map<string, Slot>();
  readonly #serialNumber: string;
  readonly #counters: DukptCounterStore;

  constructor(serialNumber: string, counters: DukptCounterStore = PROCESS_COUNTERS) {
    this.#serialNumber = serialNumber;
    this.#counters = counters;
  }

  /** The KSN the slot's next use will carry. */
  currentKsn(kind: DukptKind, slot: number): Buffer {
    const state = this.#slot(kind, slot);
    const last = this.#lastUsed(state);
    return withCounter(state.initialKsn, last >= KSN_COUNTER_MAX ? 1 : last + 1);
  }

  /**
   * Advances the slot's counter and returns the new KSN with its PIN or data key: DUKPT:TDES:PIN,
   * or for data DUKPT:TDES:DAT#3 (SPE_MTHDDAT "5x") or, with `variant` 'dat1', DAT#1 ("30").
   */
  use(kind: DukptKind, slot: number, variant: 'dat3' | 'dat1' = 'dat3'): { ksn: Buffer; key: Buffer } {
    const state = this.#slot(kind, slot);
    // A real PINPAD stops at the counter's end (its key is exhausted); the simulator wraps round.
    const last = this.#lastUsed(state);
    state.counter = last >= KSN_COUNTER_MAX ? 1 : last + 1;
    this.#counters.used(state.name, state.counter);
    const ksn = withCounter(state.initialKsn, state.counter);
    if (kind === 'pin') return { ksn, key: pinKey(state.ipek, ksn) };
    if (variant === 'dat1') {
      const key = transactionKey(state.ipek, ksn);
      return { ksn, key: Buffer.from(key.map((byte, i) => byte ^ DAT1_VARIANT[i]!)) };
    }
    return { ksn, key: dataKey(state.ipek, ksn) };
  }

  /** The last counter used: this device's own, or the store's when another simulator of the serial went further. */
  #lastUsed(state: Slot): number {
    return Math.max(state.counter, this.#counters.last(state.name));
  }

  #slot(kind: DukptKind, slot: number): Slot {
    const name = `${kind}:${slot}`;
    let state = this.#slots.get(name);
    if (state === undefined) {
      const serial = this.#serialNumber
        .replace(/[^0-9A-Fa-f]/g, '')
        .toUpperCase()
        .slice(-10)
        .padStart(10, '0');
      // Data slots differ from PIN slots in the second byte's high bit, so their keys differ.
      const slotByte = (slot & 0x7f) | (kind === 'data' ? 0x80 : 0);
      const initialKsn = Buffer.from(`FF${slotByte.toString(16).padStart(2, '0')}${serial}E00000`, 'hex');
      const key = initialKsn.toString('hex').toUpperCase();
      state = { ipek: initialKey(TEST_BDK, initialKsn), initialKsn, name: key, counter: this.#counters.last(key) };
      this.#slots.set(name, state);
    }
    return state;
  }
}

/**
 * MK/WK (S220 §5.3 "Modalidade 1", §6.3.1): each MK slot holds the published test master key of
 * its slot and kind (drivers/crypto/master-keys.ts), as a key-loading device would have put it
 * there. A working key arrives encrypted under it (SPE_WKENC, GPN_WKENC, GOC_WKENC) and is opened
 * by TDES ECB decryption; the PIN or data is then encrypted under the working key. The caller
 * checks the slot is loaded (ST_ERRKEY) first.
 */
export function openWorkingKey(kind: MasterKeyKind, slot: number, encrypted: Buffer): Buffer {
  return openUnderMasterKey(testMasterKey(kind, slot), encrypted);
}
