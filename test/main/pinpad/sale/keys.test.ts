/**
 * The keys of a PINPAD's sales (main/pinpad/sale/keys.ts): the settings' DUKPT slots, and how
 * the PINPAD is asked whether a slot holds a key when it reports no key maps.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_KEY_SLOTS, keySlotsOf, SaleKeys } from '../../../../main/pinpad/sale/keys.js';
import { SaleTables } from '../../../../main/pinpad/sale/tables.js';
import { contextOn, fakePinpad, type Answer, type FakePinpad } from './fake-pinpad.js';

function keysOn(fake: FakePinpad, slots = DEFAULT_KEY_SLOTS): SaleKeys {
  const context = contextOn(fake.pinpad);
  return new SaleKeys(context, new SaleTables(context, undefined, undefined), slots);
}

const KSNS_OF_SLOT_1: Answer = () => ({ pin: { 1: 'FFFF9876543210E00001' }, data: { 1: 'FFFF9876543210E00002' } });

describe('the settings’ key slots', () => {
  it('are slot 01 for the PIN and the card data unless the settings say otherwise', () => {
    expect(keySlotsOf(undefined)).toEqual({ pin: 1, data: 1 });
    expect(keySlotsOf({ pin: 2 })).toEqual({ pin: 2, data: 1 });
  });

  it('are refused outside 00–99, naming the slot', () => {
    expect(() => keySlotsOf({ pin: 100 })).toThrow(/keySlots\.pin .* 0 to 99, got 100/);
    expect(() => keySlotsOf({ data: -1 })).toThrow(/keySlots\.data/);
    expect(() => keySlotsOf({ data: 1.5 })).toThrow(RangeError);
  });
});

describe('a PINPAD that reports no key maps', () => {
  it('is asked for a slot’s KSNs once; they do not change while it is attached', async () => {
    const fake = fakePinpad({ answers: { dukptKsns: KSNS_OF_SLOT_1 } });
    const keys = keysOn(fake);
    expect(await keys.check()).toEqual({ pin: true, data: true });
    expect(await keys.check()).toEqual({ pin: true, data: true });
    expect(fake.calls).toEqual([{ method: 'dukptKsns', request: { pin: 1, data: 1 } }]);
  });

  it('is asked again after a question that failed', async () => {
    const fake = fakePinpad({
      answers: {
        dukptKsns: [
          () => {
            throw new Error('no answer');
          },
          KSNS_OF_SLOT_1,
        ],
      },
    });
    const keys = keysOn(fake);
    await expect(keys.check()).rejects.toThrow('no answer');
    expect(await keys.check()).toEqual({ pin: true, data: true });
    expect(fake.methods()).toEqual(['dukptKsns', 'dukptKsns']);
  });

  it('says a slot without a KSN holds no key', async () => {
    const fake = fakePinpad({ answers: { dukptKsns: () => ({ pin: {}, data: { 2: 'FFFF9876543210E00002' } }) } });
    expect(await keysOn(fake).check({ pin: 2, data: 2 })).toEqual({ pin: false, data: true });
  });
});

describe('key maps and legacy PINPADs', () => {
  it('reads what the key maps say without asking the PINPAD', async () => {
    const fake = fakePinpad({ info: { keySlots: { dukptPin: [1], dukptData: [] } } });
    expect(await keysOn(fake).check()).toEqual({ pin: true, data: false });
    expect(fake.calls).toEqual([]);
  });

  it('asks a legacy PINPAD nothing (no GIX): no key is known to be held', async () => {
    const fake = fakePinpad({ info: { protocol: 'legacy' } });
    expect(await keysOn(fake).check()).toEqual({ pin: false, data: false });
    expect(fake.calls).toEqual([]);
  });
});
