/**
 * PinpadSale with every key loadout ABECS defines: the acquirer's key methods come from the
 * provider's tables (the sandbox's default set: card data by DUKPT 01, MK/WK 02 or the random-key
 * method; the PIN by DUKPT 01 or MK/WK 02), the PINPAD's key maps say which it can use, and the
 * authorization carries what the host needs — proved by the sandbox's own host code opening it.
 *
 * The simulated PINPAD reads the card, runs the chip and takes the PIN; its DUKPT keys seal what
 * it seals itself. The MK/WK and random-key methods are sealed by a PINPAD half in this spec
 * (keyedPinpad), as a PINPAD does it — GTK's clear tracks and the PIN block opened from the
 * simulator's DUKPT, then sealed with drivers/crypto and node:crypto under the working key the
 * request carried or a fresh random key sent under the request's RSA key — so the host side is
 * proved without the simulator implementing those methods.
 */
import { constants, createPublicKey, publicEncrypt, randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { GocRequest, GocResult } from '../../../drivers/abecs/commands/goc.js';
import type { GoxRequest, GoxResult } from '../../../drivers/abecs/commands/gox.js';
import type { GpnRequest, GpnResult } from '../../../drivers/abecs/commands/gpn.js';
import type { GtkRequest, GtkResult } from '../../../drivers/abecs/commands/gtk.js';
import { Pinpad, type WaitOptions } from '../../../drivers/abecs/pinpad.js';
import { initialKey, pinKey, tdesDecrypt, tdesEncrypt, TEST_BDK } from '../../../drivers/crypto/dukpt.js';
import { openWorkingKey, testMasterKey } from '../../../drivers/crypto/master-keys.js';
import {
  PinpadSimulator,
  startMemorySimulator,
  type PinpadSimulatorOptions,
  type SimulatorKeySlots,
} from '../../../drivers/simulator/index.js';
import type { EmvTablesDocument, TerminalAuthorizationRequestV2 } from '../../../main/contract/index.js';
import { parseEmvTables } from '../../../main/pinpad/emv-tables.js';
import { PinpadSale, SaleStepError, type CardRead } from '../../../main/pinpad/sale-session.js';
import { openCardPresent } from '../../../main/sandbox/payments/card-present.js';
import { issuedWorkingKey, testRsaPublicKey, TEST_RSA_KEY_ID } from '../../../main/sandbox/payments/test-keys.js';
import { TEST_EMV_TABLES } from '../../../main/sandbox/payments/test-emv-tables.js';
import { centavos } from '../../../main/core/money.js';

const HOST_TIMINGS = { ackTimeoutMs: 1500, silenceMs: 40, eotTimeoutMs: 1000, interByteTimeoutMs: 1500 };
const DEVICE_LINK = { timings: { silenceMs: 40, interByteTimeoutMs: 1500 } };
const SERIAL = 'SN-KEYS';
/** The DUKPT PIN slot the simulator takes a PIN under before the PINPAD half seals it by MK/WK. */
const SIM_PIN_SLOT = 1;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** What the sale asked the PINPAD for. */
interface Asked {
  readonly gtk: GtkRequest[];
  readonly gox: GoxRequest[];
  readonly gpn: GpnRequest[];
  readonly goc: GocRequest[];
}

const hex = (bytes: Buffer): string => bytes.toString('hex').toUpperCase();

/** A field GTK returned in clear (packed digits), F-padded to whole 8-byte blocks as §5.4.2.2 has it. */
function blocks(packed: Buffer): Buffer {
  const filler = Buffer.alloc((8 - (packed.length % 8)) % 8, 0xff);
  return Buffer.concat([packed, filler]);
}

/** The clear ISO 9564 block of a PIN the simulator sealed under its DUKPT PIN key. */
function clearPinBlock(pinBlock: string, ksn: string): Buffer {
  const k = Buffer.from(ksn, 'hex');
  return tdesDecrypt(pinKey(initialKey(TEST_BDK, k), k), Buffer.from(pinBlock, 'hex'));
}

/** The PIN working key a PINPAD opens from SPE_WKENC under its PIN master key of `slot`. */
const pinWorkingKey = (slot: number, wkenc: string | Buffer): Buffer =>
  openWorkingKey(testMasterKey('pin', slot), typeof wkenc === 'string' ? Buffer.from(wkenc, 'hex') : wkenc);

/**
 * The PINPAD half of the MK/WK and random-key methods over the simulated PINPAD (see the file's
 * comment); DUKPT requests go to the simulator untouched.
 */
function keyedPinpad(inner: Pinpad, asked: Asked): Pinpad {
  const readEncryptedTracks = async (request: GtkRequest): Promise<GtkResult> => {
    asked.gtk.push(request);
    const encryption = request.encryption;
    if (encryption === undefined || encryption.method.startsWith('dukpt')) return inner.readEncryptedTracks(request);
    const clear = await inner.readEncryptedTracks({ tracks: request.tracks });
    let key: Buffer;
    let encryptedKey: Buffer | undefined;
    if (encryption.method === 'mkwkEcb' || encryption.method === 'mkwkCbc') {
      key = openWorkingKey(testMasterKey('data', encryption.keyIndex), encryption.workingKey);
    } else if (encryption.method === 'randomEcb' || encryption.method === 'randomCbc') {
      key = randomBytes(16);
      const publicKey = createPublicKey({
        key: {
          kty: 'RSA',
          n: encryption.publicKey.modulus.toString('base64url'),
          e: encryption.publicKey.exponent.toString('base64url'),
        },
        format: 'jwk',
      });
      encryptedKey = publicEncrypt({ key: publicKey, padding: constants.RSA_PKCS1_PADDING }, key);
    } else {
      throw new Error(`unexpected GTK method ${encryption.method}`);
    }
    return {
      ...(clear.pan ? { pan: tdesEncrypt(key, blocks(clear.pan)) } : {}),
      ...(clear.track2 ? { track2: tdesEncrypt(key, blocks(clear.track2)) } : {}),
      ...(encryptedKey ? { encryptedKey } : {}),
    };
  };
  const goOnChip = async (request: GoxRequest, options?: WaitOptions): Promise<GoxResult> => {
    asked.gox.push(request);
    if (request.pinMethod !== 'mkwk') return inner.goOnChip(request, options);
    const { workingKey, ...rest } = request;
    const result = await inner.goOnChip({ ...rest, pinMethod: 'dukpt', keyIndex: SIM_PIN_SLOT }, options);
    if (result.pinBlock === undefined || result.ksn === undefined) return result;
    const { ksn, pinBlock, ...kept } = result;
    const block = tdesEncrypt(pinWorkingKey(request.keyIndex, workingKey!), clearPinBlock(pinBlock, ksn));
    return { ...kept, pinBlock: hex(block) };
  };
  const readPin = async (request: GpnRequest, options?: WaitOptions): Promise<GpnResult> => {
    asked.gpn.push(request);
    if (request.method !== 'mkwk') return inner.readPin(request, options);
    const { workingKey, ...rest } = request;
    const result = await inner.readPin({ ...rest, method: 'dukpt', keyIndex: SIM_PIN_SLOT }, options);
    const block = tdesEncrypt(pinWorkingKey(request.keyIndex, workingKey!), clearPinBlock(result.pinBlock, result.ksn));
    // GPN returns the KSN zeroed for MK/WK (S220 §3.3.11).
    return { pinBlock: hex(block), ksn: '0'.repeat(20) };
  };
  const goOnChipLegacy = (request: GocRequest, options?: WaitOptions): Promise<GocResult> => {
    asked.goc.push(request);
    return inner.goOnChipLegacy(request, options);
  };
  const own: Record<string, unknown> = { readEncryptedTracks, goOnChip, readPin, goOnChipLegacy };
  return new Proxy(inner, {
    get(target, property, receiver) {
      if (typeof property === 'string' && property in own) return own[property];
      const value: unknown = Reflect.get(target, property, receiver);
      // Pinpad keeps #private state: its methods run on the real object.
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

interface Rig {
  readonly sim: PinpadSimulator;
  readonly sale: PinpadSale;
  readonly asked: Asked;
}

/** The sandbox's tables with acquirer 02's key methods replaced (undefined: as the sandbox serves them). */
function tablesWith(
  keys?: NonNullable<NonNullable<EmvTablesDocument['acquirers']>[string]['keys']>,
): EmvTablesDocument {
  if (keys === undefined) return TEST_EMV_TABLES;
  return { ...TEST_EMV_TABLES, acquirers: { '02': { name: 'ADQUIRENTE DE TESTE', keys } } };
}

async function rig(
  keySlots: SimulatorKeySlots,
  tables: EmvTablesDocument = TEST_EMV_TABLES,
  options: PinpadSimulatorOptions = {},
): Promise<Rig> {
  const sim = new PinpadSimulator({
    serialNumber: SERIAL,
    timeScale: 0.05,
    link: DEVICE_LINK,
    profile: 'strict',
    keySlots,
    ...options,
  });
  const served = await startMemorySimulator(sim);
  const inner = new Pinpad(served.link.host, { timings: HOST_TIMINGS });
  await inner.open();
  cleanups.push(async () => {
    await inner.close(null).catch(() => {});
    await served.close();
  });
  const asked: Asked = { gtk: [], gox: [], gpn: [], goc: [] };
  const sale = new PinpadSale(keyedPinpad(inner, asked), {
    tables: parseEmvTables(tables),
    ...(options.profile === 'legacy' ? { requireSealedCardData: false, legacyNoticeMs: 50 } : {}),
  });
  return { sim, sale, asked };
}

/** A chip sale of the test Visa with PIN 1234, typed ahead. */
async function chipSale({ sim, sale }: Rig, amount = centavos(1990)): Promise<CardRead> {
  await sale.prepare({ paymentType: 'credit' });
  sim.insertCard('visaCredit');
  sim.keypad.type('1234');
  sim.keypad.press('enter');
  return sale.readCard({ amount, paymentType: 'credit' });
}

/** What the acquirer's host (the sandbox's code) makes of the authorization. */
function hostOpens(read: CardRead, amount: number): ReturnType<typeof openCardPresent> {
  const { terminal, ...rest } = read.authorization;
  const request = { ...rest, terminal: { serial_number: SERIAL, ...terminal } } as TerminalAuthorizationRequestV2;
  return openCardPresent(request, amount);
}

const DATA_WK = issuedWorkingKey('data', 2);
const PIN_WK = issuedWorkingKey('pin', 2);

describe('PinpadSale: the key method of each acquirer, from the provider’s list and the PINPAD’s key maps', () => {
  it('seals card data by MK/WK when the PINPAD has no DUKPT data key (the real PPC-930 loadout: DUKPT PIN 01, data master key 02)', async () => {
    const setup = await rig({ dukptPin: [1], dukptData: [], mkPin: [], mkData: [2] });
    const read = await chipSale(setup);
    expect(setup.asked.gtk[0]!.encryption).toEqual({
      method: 'mkwkEcb',
      keyIndex: 2,
      workingKey: Buffer.from(DATA_WK, 'hex'),
    });
    expect(read.authorization.encrypted_card_data).toMatchObject({
      format: 'track2',
      method: 'mkwk_tdes_ecb',
      key_slot: 2,
      working_key: DATA_WK,
    });
    expect(read.authorization.pin_block).toMatchObject({ method: 'dukpt', key_slot: 1 });
    expect(hostOpens(read, 1990)).toMatchObject({ pan: '4111111111111111', pinMatches: true });
  });

  it('uses the random-key method when the PINPAD holds no data key at all: GTK "90" with the tables’ RSA key, PP_ENCKRAND in the request', async () => {
    const setup = await rig({ dukptPin: [1], dukptData: [], mkPin: [], mkData: [] });
    const read = await chipSale(setup);
    const { modulus, exponent } = testRsaPublicKey();
    expect(setup.asked.gtk[0]!.encryption).toEqual({
      method: 'randomEcb',
      publicKey: { modulus: Buffer.from(modulus, 'hex'), exponent: Buffer.from(exponent, 'hex') },
    });
    expect(read.authorization.encrypted_card_data).toMatchObject({
      method: 'random_key_tdes_ecb',
      key_id: TEST_RSA_KEY_ID,
      encrypted_key: expect.stringMatching(/^[0-9A-F]{512}$/) as unknown,
    });
    expect(hostOpens(read, 1990)).toMatchObject({ pan: '4111111111111111', pinMatches: true });
  });

  it('takes the PIN by MK/WK with the issued working key (GOX method 1) where the provider prefers it and the PINPAD holds the PIN master key', async () => {
    const keys = {
      card_data: [{ method: 'dukpt' as const, slot: 1 }],
      pin: [
        { method: 'mkwk' as const, slot: 2, working_key: PIN_WK },
        { method: 'dukpt' as const, slot: 1 },
      ],
    };
    const setup = await rig({ dukptPin: [1], dukptData: [1], mkPin: [2], mkData: [] }, tablesWith(keys));
    const read = await chipSale(setup);
    expect(setup.asked.gox[0]).toMatchObject({
      pinMethod: 'mkwk',
      keyIndex: 2,
      workingKey: Buffer.from(PIN_WK, 'hex'),
    });
    expect(read.authorization.pin_block).toEqual({
      format: 'iso_0',
      method: 'mkwk',
      key_slot: 2,
      working_key: PIN_WK,
      block: expect.stringMatching(/^[0-9A-F]{16}$/) as unknown,
    });
    expect(read.authorization.encrypted_card_data).toMatchObject({ method: 'dukpt_tdes_ecb', key_slot: 1 });
    expect(hostOpens(read, 1990)).toMatchObject({ pinMatches: true });
  });

  it('keeps DUKPT, the provider’s first choice, on a PINPAD that holds every key', async () => {
    const setup = await rig({ dukptPin: [1], dukptData: [1], mkPin: [2], mkData: [2] });
    const read = await chipSale(setup);
    expect(read.authorization.encrypted_card_data).toMatchObject({ method: 'dukpt_tdes_ecb', key_slot: 1 });
    expect(read.authorization.pin_block).toMatchObject({ method: 'dukpt', key_slot: 1 });
    expect(hostOpens(read, 1990).pinMatches).toBe(true);
  });

  it('seals a swiped card by the random-key method and takes its PIN by MK/WK (GPN method 1, KSN zeroed)', async () => {
    const keys = {
      card_data: [{ method: 'random_key' as const, key_id: TEST_RSA_KEY_ID, ...testRsaPublicKey() }],
      pin: [{ method: 'mkwk' as const, slot: 2, working_key: PIN_WK }],
    };
    const setup = await rig({ dukptPin: [1], dukptData: [], mkPin: [2], mkData: [] }, tablesWith(keys));
    await setup.sale.prepare({ paymentType: 'debit' });
    setup.sim.swipeCard('visaMagstripe');
    setup.sim.keypad.type('1234');
    setup.sim.keypad.press('enter');
    const read = await setup.sale.readCard({ amount: centavos(2500), paymentType: 'debit' });
    expect(setup.asked.gpn[0]).toMatchObject({ method: 'mkwk', keyIndex: 2, workingKey: PIN_WK });
    expect(read.authorization.pin_block).toMatchObject({ method: 'mkwk', key_slot: 2, working_key: PIN_WK });
    expect(read.authorization.encrypted_card_data).toMatchObject({ method: 'random_key_tdes_ecb' });
    expect(hostOpens(read, 2500)).toMatchObject({ pinMatches: true });
  });

  it('refuses in prepare a PINPAD with no usable card data method, naming the fix, before anything is asked of the customer', async () => {
    const keys = {
      card_data: [
        { method: 'dukpt' as const, slot: 1 },
        { method: 'mkwk' as const, slot: 2, working_key: DATA_WK },
      ],
      pin: [{ method: 'dukpt' as const, slot: 1 }],
    };
    const setup = await rig({ dukptPin: [1], dukptData: [], mkPin: [], mkData: [3] }, tablesWith(keys));
    const error = await setup.sale.prepare({ paymentType: 'credit' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SaleStepError);
    expect(error).toMatchObject({ code: 'KEYS_MISSING', step: 'prepare' });
    expect((error as Error).message).toContain(
      'card data of acquirer 02: DUKPT data slot 01 and MK/WK with data master key slot 02 are empty — load a DUKPT data key in slot 01 or a data master key in slot 02, or have the provider offer MK/WK for data master key slot 03 or the random-key method',
    );
    expect((error as Error).message).not.toContain('the PIN of');
    expect(setup.asked.gtk).toEqual([]);
  });

  it('names what the PINPAD holds when the provider offers no PIN method it can use', async () => {
    const setup = await rig({ dukptPin: [4], dukptData: [1], mkPin: [5], mkData: [] });
    const error = await setup.sale.prepare({ paymentType: 'credit' }).catch((e: unknown) => e);
    expect((error as Error).message).toContain(
      'the PIN of acquirer 02: DUKPT PIN slot 01 and MK/WK with PIN master key slot 02 are empty — load a DUKPT PIN key in slot 01 or a PIN master key in slot 02, or have the provider offer DUKPT for PIN slot 04 or MK/WK for PIN master key slot 05',
    );
  });

  it('gives a legacy PINPAD’s GOC the provider’s first PIN method with its working key (no key maps to choose by)', async () => {
    const keys = {
      card_data: [{ method: 'dukpt' as const, slot: 1 }],
      pin: [{ method: 'mkwk' as const, slot: 2, working_key: PIN_WK }],
    };
    const setup = await rig({}, tablesWith(keys), { profile: 'legacy' });
    const read = await chipSale(setup);
    expect(setup.asked.goc[0]).toMatchObject({ pinMethod: 'mkwk', keyIndex: 2, workingKey: PIN_WK });
    expect(read.authorization.pin_block).toMatchObject({ method: 'mkwk', key_slot: 2, working_key: PIN_WK });
  });
});
