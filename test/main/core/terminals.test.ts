/**
 * The one rule for a PINPAD a caller leaves unnamed, shared by the engine (over the PINPADs
 * attached to it) and the PinpadRegistry (over those it knows).
 */
import { describe, expect, it } from 'vitest';
import { EngineError } from '../../../main/core/errors.js';
import { onlyTerminal } from '../../../main/core/terminals.js';

function refusal(serials: readonly string[]): EngineError {
  try {
    onlyTerminal(serials, 'attached');
  } catch (error) {
    if (error instanceof EngineError) return error;
    throw error;
  }
  throw new Error('onlyTerminal chose one');
}

describe('onlyTerminal', () => {
  it('is the only PINPAD there is', () => {
    expect(onlyTerminal(['PB-1'], 'attached')).toBe('PB-1');
  });

  it('is PINPAD_REQUIRED among several, naming them', () => {
    const error = refusal(['PB-1', 'PB-2']);
    expect(error.code).toBe('PINPAD_REQUIRED');
    expect(error.message).toBe('Several PINPADs are attached (PB-1, PB-2); say which with "terminal"');
  });

  it('is PINPAD_NOT_FOUND when there is none', () => {
    const error = refusal([]);
    expect(error.code).toBe('PINPAD_NOT_FOUND');
    expect(error.message).toBe('No PINPAD is attached');
  });
});
