import { describe, expect, it } from 'vitest';
import { canMove, FINAL_STATES, PAYMENT_STATES, SYNCED_STATES, TRANSITIONS } from '../../../main/core/states.js';

describe('payment states', () => {
  it('end in final states that go nowhere, and every other state has a way out', () => {
    for (const state of PAYMENT_STATES) {
      if (FINAL_STATES.has(state) && state !== 'confirmed') expect(TRANSITIONS[state], state).toEqual([]);
      else expect(TRANSITIONS[state].length, state).toBeGreaterThan(0);
    }
    // A confirmed sale can still be voided by the POS.
    expect(TRANSITIONS.confirmed).toEqual(['undoing']);
    expect(canMove('authorizing', 'approved')).toBe(true);
    expect(canMove('approved', 'authorizing')).toBe(false);
  });

  describe('synced to the disk before the journal call returns', () => {
    it('are the intent, the states the POS is answered from, and the void the POS asked for', () => {
      for (const state of ['intent', 'awaiting_confirmation', 'undoing', ...FINAL_STATES] as const) {
        expect(SYNCED_STATES.has(state), state).toBe(true);
      }
    });

    it('leave out the steps whose loss recovery repairs from the API (it cancels or reverses what they did there)', () => {
      expect(PAYMENT_STATES.filter((state) => !SYNCED_STATES.has(state))).toEqual([
        'created',
        'card_read',
        'authorizing',
        'unknown',
        'approved',
        'completing',
        'reversing',
        'aborting',
      ]);
    });
  });
});
