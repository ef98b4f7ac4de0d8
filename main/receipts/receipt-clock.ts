/**
 * A time as a receipt prints it: "29/11/2026" and "14:03:27" on the store's clock (the receipts'
 * time_zone), the same on every paper the agent prints. A zone that is no IANA time zone is the
 * settings' mistake (INVALID_SETTINGS); the caller checks the time itself, as only it knows whose
 * mistake a bad time is.
 */
import { wallClock, type WallClock } from '../locale/store-time.js';
import { ReceiptError } from './errors.js';

export interface ReceiptClock {
  /** dd/mm/aaaa */
  readonly date: string;
  /** hh:mm:ss */
  readonly time: string;
}

export function receiptClock(at: Date, timeZone: string): ReceiptClock {
  let wall: WallClock;
  try {
    wall = wallClock(at, timeZone);
  } catch (error) {
    throw new ReceiptError('INVALID_SETTINGS', `The receipts' time zone "${timeZone}" is not an IANA time zone.`, {
      cause: error,
    });
  }
  const two = (value: number): string => String(value).padStart(2, '0');
  return {
    date: `${two(wall.day)}/${two(wall.month)}/${wall.year}`,
    time: `${two(wall.hour)}:${two(wall.minute)}:${two(wall.second)}`,
  };
}
