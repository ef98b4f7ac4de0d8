/**
 * Money in the core: integer centavos, checked once where an amount enters Pinbridge (the POS
 * protocol's adapter, a provider's record taken into the journal) and typed from there on, so that
 * the engine, the journal and the PINPAD take it without checking it again. The payments API
 * client keeps its own contract check, the last guard on the wire.
 */
import { PINPAD_AMOUNT_MAX } from '../contract/index.js';

declare const CENTAVOS: unique symbol;

/** A sale's amount: a whole number of centavos from 1 to PINPAD_AMOUNT_MAX (12 digits). */
export type Centavos = number & { readonly [CENTAVOS]: true };

export function isCentavos(value: unknown): value is Centavos {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 && value <= PINPAD_AMOUNT_MAX;
}

/** The amount as Centavos; a RangeError when it is not one (a bug where it entered). */
export function centavos(value: number): Centavos {
  if (!isCentavos(value)) {
    throw new RangeError(
      `An amount must be a whole number of centavos from 1 to ${PINPAD_AMOUNT_MAX} (12 digits), got ${value}.`,
    );
  }
  return value;
}
