/**
 * PinpadSale.prepare: what a sale checks on the PINPAD before it asks the customer or the API
 * anything — the acquirer's DUKPT keys are in the configured slots (where the PINPAD can say so:
 * not on a legacy one). Against the simulated PINPAD over an in-memory link.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Pinpad } from '../../../drivers/abecs/pinpad.js';
import {
  PinpadSimulator,
  startMemorySimulator,
  type PinpadSimulatorOptions,
} from '../../../drivers/simulator/index.js';
import { SaleStepError } from '../../../main/core/sale-failure.js';
import { PinpadSale, type KeySlots } from '../../../main/pinpad/sale-session.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function saleOn(
  options: PinpadSimulatorOptions,
  keySlots?: Partial<KeySlots>,
  requireSealedCardData?: boolean,
): Promise<PinpadSale> {
  const sim = new PinpadSimulator({ timeScale: 0.05, ...options });
  const served = await startMemorySimulator(sim);
  const pinpad = new Pinpad(served.link.host);
  await pinpad.open();
  cleanups.push(async () => {
    await pinpad.close(null).catch(() => {});
    await served.close();
  });
  return new PinpadSale(pinpad, {
    ...(keySlots ? { keySlots } : {}),
    ...(requireSealedCardData !== undefined ? { requireSealedCardData } : {}),
  });
}

async function refusal(sale: PinpadSale): Promise<SaleStepError> {
  const error: unknown = await sale.prepare().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SaleStepError);
  return error as SaleStepError;
}

describe('PinpadSale.prepare', () => {
  it('lets a sale go on when both DUKPT slots hold keys', async () => {
    const sale = await saleOn({ profile: 'strict' });
    await expect(sale.prepare()).resolves.toBeUndefined();
    expect(await sale.checkKeys()).toEqual({ pin: true, data: true });
  });

  it('refuses with KEYS_MISSING, naming the empty slot, when the PIN key is elsewhere', async () => {
    const sale = await saleOn({ profile: 'strict', keySlots: { dukptPin: [2], dukptData: [1] } });
    const error = await refusal(sale);
    expect(error).toMatchObject({ code: 'KEYS_MISSING', step: 'prepare' });
    expect(error.message).toContain('PIN slot 01');
    expect(error.message).not.toContain('data slot');
    expect(error.cashierMessage).toBe('O PINPAD não tem as chaves de segurança desta loja. Chame o suporte técnico.');
  });

  it('checks the slots the settings name instead of 01', async () => {
    const keys = { dukptPin: [2], dukptData: [3] };
    await expect(
      (await saleOn({ profile: 'strict', keySlots: keys }, { pin: 2, data: 3 })).prepare(),
    ).resolves.toBeUndefined();
    const error = await refusal(await saleOn({ profile: 'strict', keySlots: keys }, { pin: 2, data: 2 }));
    expect(error.message).toContain('data slot 02');
  });

  it('lets a sale go on on a PINPAD that knows only the legacy commands (GCR/GOC/FNC) for a v1 provider, without a key check it cannot make', async () => {
    // BibComp 1.08 has no GIX key maps: even an empty PIN slot is found only at the PIN step (ST_ERRKEY).
    await expect(
      (await saleOn({ profile: 'legacy', keySlots: { dukptPin: [2], dukptData: [2] } }, undefined, false)).prepare(),
    ).resolves.toBeUndefined();
  });

  it('refuses every sale on a legacy PINPAD where the provider authorizes only sealed card data (terminal channel v2, the default)', async () => {
    const sale = await saleOn({ profile: 'legacy' });
    const error = await sale.prepare().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SaleStepError);
    expect(error).toMatchObject({ code: 'PINPAD_UNSUPPORTED', step: 'prepare' });
    expect((error as SaleStepError).message).toContain('cannot encrypt the card data');
    expect((error as SaleStepError).cashierMessage).toMatch(/não protege os dados do cartão.*nada foi cobrado/);
  });

  it('refuses slots outside 00–99 when it is built', () => {
    const pinpad = {} as Pinpad;
    expect(() => new PinpadSale(pinpad, { keySlots: { pin: 100 } })).toThrow(RangeError);
  });
});
