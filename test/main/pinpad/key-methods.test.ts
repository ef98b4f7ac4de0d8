/**
 * The choice of a key method (key-methods.ts): the provider's order, the PINPAD's key maps, keys
 * it cannot report, and the sentence that names the fix when nothing can be used.
 */
import { describe, expect, it } from 'vitest';
import type { PinpadKeySlots } from '../../../drivers/abecs/pinpad.js';
import {
  chooseMethod,
  describeMethod,
  dukptOffer,
  missingKeyProblem,
  neededKey,
  statusFromMaps,
  type CardDataKeyMethod,
  type KeyUse,
  type PinKeyMethod,
} from '../../../main/pinpad/key-methods.js';

const WK = 'AB'.repeat(16);
const DUKPT_01: CardDataKeyMethod = { method: 'dukpt', slot: 1 };
const MKWK_02: CardDataKeyMethod = { method: 'mkwk', slot: 2, working_key: WK };
const RANDOM: CardDataKeyMethod = { method: 'random_key', key_id: 'k1', modulus: 'C1'.repeat(256), exponent: '010001' };

const fromMaps =
  (maps: PinpadKeySlots | undefined) =>
  <M extends CardDataKeyMethod | PinKeyMethod>(offered: readonly M[], use: KeyUse): M | undefined =>
    chooseMethod(offered, use, (key) => statusFromMaps(maps, key));

describe('choosing a key method', () => {
  it('takes the provider’s first method whose key the PINPAD holds', () => {
    const choose = fromMaps({ dukptData: [], masterKeyData: [2], dukptPin: [1], masterKeyPin: [] });
    expect(choose([DUKPT_01, MKWK_02, RANDOM], 'data')).toBe(MKWK_02);
    expect(choose([MKWK_02, DUKPT_01], 'data')).toBe(MKWK_02);
    expect(choose([{ method: 'mkwk', slot: 2, working_key: WK }, DUKPT_01] as PinKeyMethod[], 'pin')).toEqual(DUKPT_01);
  });

  it('counts the random-key method as always usable: the PINPAD makes that key itself', () => {
    expect(fromMaps({ dukptData: [], masterKeyData: [] })([DUKPT_01, MKWK_02, RANDOM], 'data')).toBe(RANDOM);
  });

  it('looks in the map of the use: a DUKPT PIN key is no data key', () => {
    const choose = fromMaps({ dukptPin: [1], dukptData: [], masterKeyData: [] });
    expect(choose([DUKPT_01], 'data')).toBeUndefined();
    expect(choose([DUKPT_01], 'pin')).toBe(DUKPT_01);
  });

  it('takes a method whose key the PINPAD cannot report only when none is known to be held', () => {
    // No master key maps: MK/WK is unknown; a held DUKPT key still wins, an empty one loses to it.
    expect(fromMaps({ dukptData: [1] })([MKWK_02, DUKPT_01], 'data')).toBe(DUKPT_01);
    expect(fromMaps({ dukptData: [] })([DUKPT_01, MKWK_02], 'data')).toBe(MKWK_02);
    expect(fromMaps(undefined)([DUKPT_01, MKWK_02], 'data')).toBe(DUKPT_01);
  });

  it('finds nothing when every key the provider offers is known to be missing', () => {
    expect(fromMaps({ dukptData: [3], masterKeyData: [3] })([DUKPT_01, MKWK_02], 'data')).toBeUndefined();
  });

  it('without a list: DUKPT in the given slots', () => {
    expect(dukptOffer({ pin: 2, data: 1 })).toEqual({
      cardData: [{ method: 'dukpt', slot: 1 }],
      pin: [{ method: 'dukpt', slot: 2 }],
    });
  });

  it('knows which key each method needs, by use', () => {
    expect(neededKey(DUKPT_01, 'pin')).toEqual({ kind: 'dukptPin', slot: 1 });
    expect(neededKey(MKWK_02, 'data')).toEqual({ kind: 'masterKeyData', slot: 2 });
    expect(neededKey(RANDOM, 'data')).toBeUndefined();
    expect(describeMethod(MKWK_02, 'pin')).toBe('MK/WK with PIN master key slot 02');
    expect(describeMethod(RANDOM, 'data')).toBe('the random-key method (RSA key k1)');
  });
});

describe('the sentence that names the fix', () => {
  it('says what to load and what the provider could offer instead of what the PINPAD holds', () => {
    expect(
      missingKeyProblem([DUKPT_01], 'data', { dukptData: [], masterKeyData: [2, 3] }, { fromSettings: false }),
    ).toBe(
      'DUKPT data slot 01 is empty — load a DUKPT data key in slot 01, or have the provider offer MK/WK for data master key slot 02, 03 or the random-key method',
    );
  });

  it('points at the settings when the slot came from them', () => {
    expect(missingKeyProblem([DUKPT_01], 'pin', { dukptPin: [2], masterKeyPin: [] }, { fromSettings: true })).toBe(
      'DUKPT PIN slot 01 is empty — load a DUKPT PIN key in slot 01, or name a slot that holds one in pinpad.key_slots.pin (DUKPT PIN keys are in slot 02)',
    );
  });

  it('offers only what would help: nothing the provider already lists, no random key for the PIN', () => {
    expect(
      missingKeyProblem([DUKPT_01, MKWK_02], 'pin', { dukptPin: [], masterKeyPin: [2] }, { fromSettings: false }),
    ).toBe(
      'DUKPT PIN slot 01 and MK/WK with PIN master key slot 02 are empty — load a DUKPT PIN key in slot 01 or a PIN master key in slot 02',
    );
  });
});
