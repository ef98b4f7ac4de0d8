/**
 * ESC/POS real-time status: the four `DLE EOT n` requests and their one-byte answers.
 *
 * Source: Epson ESC/POS Command Reference, "DLE EOT n — Transmit real-time status"
 * (https://download4.epson.biz/sec_pubs/pos/reference_en/escpos/dle_eot.html), with the same tables in
 * the TM-T88III specification and the Bixolon/Sewoo/Citizen ESC/POS manuals. Every answer byte has
 * the fixed pattern 0xx1xx10: bit 0 off, bit 1 on, bit 4 on, bit 7 off (the reference's "Not used.
 * Fixed to Off/On"). That pattern is what tells a DLE EOT answer from other printer output (Automatic
 * Status Back, XON/XOFF), so a byte without it is refused rather than read as a status.
 *
 *   n = 1 printer status      bit 2 drawer kick-out connector pin 3 HIGH; bit 3 offline;
 *                             bit 5 waiting for online recovery; bit 6 paper feed button pressed
 *                             (bits 5 and 6 are "undefined" on older models)
 *   n = 2 offline cause       bit 2 cover open; bit 3 paper being fed by the FEED button;
 *                             bit 5 printing stopped by paper end; bit 6 error occurred
 *   n = 3 error cause         bit 2 mechanical error (impact models: home position, carriage sensor;
 *                             undefined elsewhere); bit 3 autocutter error; bit 5 unrecoverable error;
 *                             bit 6 automatically recoverable error (head overheat, cover opened while
 *                             printing)
 *   n = 4 roll paper sensor   bits 2–3 near-end sensor: paper near end (both on, 0x0C);
 *                             bits 5–6 roll end sensor: paper not present (both on, 0x60)
 *
 * Printers with two near-end sensors (Citizen) report them in bits 2 and 3 separately, so one bit of a
 * pair is enough.
 */
import { PrinterError } from './errors.js';
import type { PrinterFault, PrinterStatus } from './printer-status.js';

// The status model itself lives in printer-status.ts, which errors.ts can name without a loop.
export type { PrinterFault, PrinterStatus } from './printer-status.js';

export const DLE = 0x10;
export const EOT = 0x04;

/** The `n` of `DLE EOT n` for each of the four statuses every ESC/POS receipt printer answers. */
export const StatusRequest = {
  printer: 1,
  offlineCause: 2,
  errorCause: 3,
  rollPaper: 4,
} as const;
export type StatusRequest = (typeof StatusRequest)[keyof typeof StatusRequest];

/** The bytes of `DLE EOT n`. */
export function statusRequestBytes(n: StatusRequest): Uint8Array {
  return Uint8Array.of(DLE, EOT, n);
}

/** Bits 0, 1, 4 and 7, fixed in every DLE EOT answer. */
const FIXED_MASK = 0b1001_0011;
/** Their required values: bit 1 and bit 4 on, bit 0 and bit 7 off. */
const FIXED_VALUE = 0b0001_0010;

const bit = (byte: number, index: number): boolean => (byte & (1 << index)) !== 0;

const REQUEST_NAMES: Record<StatusRequest, string> = {
  1: 'printer status (DLE EOT 1)',
  2: 'offline cause (DLE EOT 2)',
  3: 'error cause (DLE EOT 3)',
  4: 'roll paper sensor (DLE EOT 4)',
};

function hex(byte: number): string {
  return `0x${byte.toString(16).padStart(2, '0')}`;
}

/** Throws PrinterError('INVALID_STATUS') unless `byte` is one byte with the fixed DLE EOT bit pattern. */
export function checkStatusByte(n: StatusRequest, byte: number): void {
  if (!Number.isInteger(byte) || byte < 0 || byte > 0xff) {
    throw new PrinterError(
      'INVALID_STATUS',
      `The printer's answer to the ${REQUEST_NAMES[n]} is not a byte (${byte}).`,
    );
  }
  if ((byte & FIXED_MASK) !== FIXED_VALUE) {
    throw new PrinterError(
      'INVALID_STATUS',
      `The printer's answer to the ${REQUEST_NAMES[n]} is ${hex(byte)}, which lacks the fixed bits of an ESC/POS status byte (0xx1xx10); the printer may not speak ESC/POS or the line carries other data.`,
    );
  }
}

export interface PrinterStatusBits {
  /** Bit 2: the drawer kick-out connector's pin 3 (the drawer switch) reads HIGH. */
  readonly drawerPin3High: boolean;
  /** Bit 3. */
  readonly offline: boolean;
  /** Bit 5 (newer models). */
  readonly waitingForOnlineRecovery: boolean;
  /** Bit 6 (newer models). */
  readonly feedButtonPressed: boolean;
}

/** The answer to DLE EOT 1. */
export function parsePrinterStatusByte(byte: number): PrinterStatusBits {
  checkStatusByte(StatusRequest.printer, byte);
  return {
    drawerPin3High: bit(byte, 2),
    offline: bit(byte, 3),
    waitingForOnlineRecovery: bit(byte, 5),
    feedButtonPressed: bit(byte, 6),
  };
}

export interface OfflineCauseBits {
  /** Bit 2. */
  readonly coverOpen: boolean;
  /** Bit 3: paper is being fed with the FEED button. */
  readonly feedingByButton: boolean;
  /** Bit 5: printing stopped because the paper ran out. */
  readonly stoppedByPaperEnd: boolean;
  /** Bit 6: an error occurred (DLE EOT 3 says which). */
  readonly errorOccurred: boolean;
}

/** The answer to DLE EOT 2. */
export function parseOfflineCauseByte(byte: number): OfflineCauseBits {
  checkStatusByte(StatusRequest.offlineCause, byte);
  return {
    coverOpen: bit(byte, 2),
    feedingByButton: bit(byte, 3),
    stoppedByPaperEnd: bit(byte, 5),
    errorOccurred: bit(byte, 6),
  };
}

export interface ErrorCauseBits {
  /** Bit 2. */
  readonly mechanical: boolean;
  /** Bit 3: recoverable with DLE ENQ once the jam is cleared. */
  readonly autocutter: boolean;
  /** Bit 5: needs service (e.g. a circuit failure). */
  readonly unrecoverable: boolean;
  /** Bit 6: clears by itself (head cooled down, cover closed). */
  readonly autoRecoverable: boolean;
}

/** The answer to DLE EOT 3. */
export function parseErrorCauseByte(byte: number): ErrorCauseBits {
  checkStatusByte(StatusRequest.errorCause, byte);
  return {
    mechanical: bit(byte, 2),
    autocutter: bit(byte, 3),
    unrecoverable: bit(byte, 5),
    autoRecoverable: bit(byte, 6),
  };
}

export interface RollPaperBits {
  /** Bits 2–3: the near-end sensor sees the roll running low. */
  readonly nearEnd: boolean;
  /** Bits 5–6: the roll end sensor sees no paper. */
  readonly paperOut: boolean;
}

/** The answer to DLE EOT 4. */
export function parseRollPaperByte(byte: number): RollPaperBits {
  checkStatusByte(StatusRequest.rollPaper, byte);
  return {
    nearEnd: (byte & 0b0000_1100) !== 0,
    paperOut: (byte & 0b0110_0000) !== 0,
  };
}

/** The four answer bytes, in request order. */
export interface StatusAnswers {
  readonly printer: number;
  readonly offlineCause: number;
  readonly errorCause: number;
  readonly rollPaper: number;
}

export interface StatusParseOptions {
  /**
   * The pin 3 level that means the drawer is open. The reference only reports the pin's level and
   * drawers wire their switch either way, so this is a setting; HIGH = open by default.
   */
  readonly drawerOpenLevel?: 'high' | 'low';
}

/** Combines the four answers into one status; throws PrinterError('INVALID_STATUS') for a malformed byte. */
export function parseStatusAnswers(answers: StatusAnswers, options: StatusParseOptions = {}): PrinterStatus {
  const printer = parsePrinterStatusByte(answers.printer);
  const offline = parseOfflineCauseByte(answers.offlineCause);
  const errors = parseErrorCauseByte(answers.errorCause);
  const paper = parseRollPaperByte(answers.rollPaper);
  return {
    online: !printer.offline,
    coverOpen: offline.coverOpen,
    paperOut: paper.paperOut || offline.stoppedByPaperEnd,
    paperNearEnd: paper.nearEnd,
    drawerOpen: (options.drawerOpenLevel ?? 'high') === 'high' ? printer.drawerPin3High : !printer.drawerPin3High,
    error: faultOf(errors, offline.errorOccurred),
  };
}

function faultOf(errors: ErrorCauseBits, errorOccurred: boolean): PrinterFault | null {
  if (errors.unrecoverable) return 'UNRECOVERABLE';
  if (errors.mechanical) return 'MECHANICAL';
  if (errors.autocutter) return 'AUTOCUTTER';
  if (errors.autoRecoverable) return 'AUTO_RECOVERABLE';
  return errorOccurred ? 'UNKNOWN' : null;
}

/** True when two statuses say the same thing (for "status changed" events). */
export function sameStatus(a: PrinterStatus, b: PrinterStatus): boolean {
  return (
    a.online === b.online &&
    a.coverOpen === b.coverOpen &&
    a.paperOut === b.paperOut &&
    a.paperNearEnd === b.paperNearEnd &&
    a.drawerOpen === b.drawerOpen &&
    a.error === b.error
  );
}
