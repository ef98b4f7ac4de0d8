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
 */
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
  counter: number;
}

export class SimulatedDukptKeys {
  readonly #slots = new Map<string, Slot>();
  readonly #serialNumber: string;

  constructor(serialNumber: string) {
    this.#serialNumber = serialNumber;
  }

  /** The KSN the slot's next use will carry. */
  currentKsn(kind: DukptKind, slot: number): Buffer {
    const state = this.#slot(kind, slot);
    return withCounter(state.initialKsn, state.counter >= KSN_COUNTER_MAX ? 1 : state.counter + 1);
  }

  /**
   * Advances the slot's counter and returns the new KSN with its PIN or data key: DUKPT:TDES:PIN,
   * or for data DUKPT:TDES:DAT#3 (SPE_MTHDDAT "5x") or, with `variant` 'dat1', DAT#1 ("30").
   */
  use(kind: DukptKind, slot: number, variant: 'dat3' | 'dat1' = 'dat3'): { ksn: Buffer; key: Buffer } {
    const state = this.#slot(kind, slot);
    // A real PINPAD stops at the counter's end (its key is exhausted); the simulator wraps round.
    state.counter = state.counter >= KSN_COUNTER_MAX ? 1 : state.counter + 1;
    const ksn = withCounter(state.initialKsn, state.counter);
    if (kind === 'pin') return { ksn, key: pinKey(state.ipek, ksn) };
    if (variant === 'dat1') {
      const key = transactionKey(state.ipek, ksn);
      return { ksn, key: Buffer.from(key.map((byte, i) => byte ^ DAT1_VARIANT[i]!)) };
    }
    return { ksn, key: dataKey(state.ipek, ksn) };
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
      state = { ipek: initialKey(TEST_BDK, initialKsn), initialKsn, counter: 0 };
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
