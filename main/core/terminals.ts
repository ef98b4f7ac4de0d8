/**
 * The one rule for a PINPAD a caller leaves unnamed (a POS without "terminal", a one-PINPAD
 * store): the only one there is; among several the caller must say which (PINPAD_REQUIRED);
 * none is PINPAD_NOT_FOUND. The engine applies it to the PINPADs attached to it, the
 * PinpadRegistry to those it knows when none is attached (to say "unplugged", not "unknown").
 */
import { EngineError } from './errors.js';

/** `counted` names what `serials` are in the messages: "attached", "connected"… */
export function onlyTerminal(serials: readonly string[], counted: string): string {
  if (serials.length === 0) throw new EngineError('PINPAD_NOT_FOUND', `No PINPAD is ${counted}`);
  if (serials.length > 1) {
    throw new EngineError(
      'PINPAD_REQUIRED',
      `Several PINPADs are ${counted} (${serials.join(', ')}); say which with "terminal"`,
    );
  }
  return serials[0]!;
}
