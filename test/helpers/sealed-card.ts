/**
 * Terminal channel v2 requests sealed the way a test PINPAD seals them (track 2 packed two digits
 * a byte, F-padded, TDES ECB; an ISO 9564 format 0 PIN block), by each method ABECS defines and
 * with the published test keys: DUKPT keys derived from the ANSI X9.24 test BDK, MK/WK working
 * keys opened under the published test master keys, a random TDES key sent RSA-encrypted (PKCS #1
 * v1.5 type 2) under the public key the sandbox's EMV tables offer — never with Pinbridge's own
 * request builder, so a host test proves what a real PINPAD would send.
 *
 * Like a PINPAD, the helper advances its DUKPT counters on every request it builds (nextKsn): a
 * host refuses a KSN it has seen.
 */
import { constants, createPublicKey, publicEncrypt, randomBytes } from 'node:crypto';
import {
  dataKey,
  initialKey,
  pinBlockFormat0,
  pinKey,
  tdesEncrypt,
  TEST_BDK,
  withCounter,
} from '../../drivers/crypto/dukpt.js';
import { openWorkingKey, testMasterKey, type MasterKeyKind } from '../../drivers/crypto/master-keys.js';
import type { CardDataKeyMethod, TerminalAuthorizationRequestV2 } from '../../main/contract/index.js';
import { TEST_EMV_TABLES } from '../../main/sandbox/payments/test-emv-tables.js';

export const TERMINAL = 'PB0000012345';
/** A Visa test card with a valid check digit; its issuer PIN in the sandbox is 1234. */
export const PAN = '4761739001010010';
export const TRACK2 = `${PAN}=28122011234567890`;
/** The test PINPAD's DUKPT keys: these KSNs with counter 1 (nextKsn gives the next ones). */
export const DATA_KSN = 'FF81000012345E000001';
export const PIN_KSN = 'FF01000012345E000001';

const counters = { pin: 1, data: 1 };
/** The next KSN of the test PINPAD's DUKPT `kind` key: its counter advances on every call, as a PINPAD's does. */
export function nextKsn(kind: 'pin' | 'data'): string {
  counters[kind] += 1;
  return withCounter(Buffer.from(kind === 'pin' ? PIN_KSN : DATA_KSN, 'hex'), counters[kind])
    .toString('hex')
    .toUpperCase();
}

const hex = (bytes: Buffer): string => bytes.toString('hex').toUpperCase();

/** Digits two a byte ("=" is the D nibble), F-padded to whole 8-byte blocks. */
function packed(text: string): Buffer {
  let digits = [...text].map((ch) => (ch === '=' ? 'D' : ch)).join('');
  while (digits.length % 16 !== 0) digits += 'F';
  return Buffer.from(digits, 'hex');
}

/** What the sandbox's tables offer acquirer 02 (what a PINPAD is handed by its host). */
function offered<M extends CardDataKeyMethod['method']>(
  use: 'card_data' | 'pin',
  method: M,
): Extract<CardDataKeyMethod, { method: M }> {
  const list = (TEST_EMV_TABLES.acquirers?.['02']?.keys?.[use] ?? []) as readonly CardDataKeyMethod[];
  const found = list.find((entry) => entry.method === method);
  if (found === undefined) throw new Error(`the sandbox's tables offer no ${method} for ${use}`);
  return found as Extract<CardDataKeyMethod, { method: M }>;
}

/** The working key a PINPAD opens from SPE_WKENC under its master key of `slot`. */
function workingKeyOf(kind: MasterKeyKind, slot: number, workingKey: string): Buffer {
  return openWorkingKey(testMasterKey(kind, slot), Buffer.from(workingKey, 'hex'));
}

/** The MK/WK working key the sandbox's tables issue for `kind`, with its master key slot. */
export function issuedMkwk(kind: MasterKeyKind): { slot: number; working_key: string } {
  const method = offered(kind === 'pin' ? 'pin' : 'card_data', 'mkwk');
  return { slot: method.slot, working_key: method.working_key };
}

/** Track 2 sealed by MK/WK under the data working key the sandbox issued (GTK "10"). */
export function sealTrackMkwk(text: string, issued = issuedMkwk('data')): string {
  return hex(tdesEncrypt(workingKeyOf('data', issued.slot, issued.working_key), packed(text)));
}

/**
 * Track 2 sealed by the random-key method (GTK "90"): a fresh TDES key, the data under it, and the
 * key as PP_ENCKRAND — RSA with PKCS #1 v1.5 type 2 padding under the tables' public key.
 */
export function sealTrackRandom(text: string): { key_id: string; encrypted_key: string; payload: string } {
  const { key_id: keyId, modulus, exponent } = offered('card_data', 'random_key');
  const publicKey = createPublicKey({
    key: {
      kty: 'RSA',
      n: Buffer.from(modulus, 'hex').toString('base64url'),
      e: Buffer.from(exponent, 'hex').toString('base64url'),
    },
    format: 'jwk',
  });
  const krand = randomBytes(16);
  return {
    key_id: keyId,
    encrypted_key: hex(publicEncrypt({ key: publicKey, padding: constants.RSA_PKCS1_PADDING }, krand)),
    payload: hex(tdesEncrypt(krand, packed(text))),
  };
}

/** An ISO 9564 format 0 PIN block under the PIN working key the sandbox issued (GOX/GPN method 1). */
export function sealPinMkwk(pin: string, pan: string, issued = issuedMkwk('pin')): string {
  return hex(tdesEncrypt(workingKeyOf('pin', issued.slot, issued.working_key), pinBlockFormat0(pin, pan)));
}

/** Digits two a byte ("=" is the D nibble), F-padded to whole 8-byte blocks, encrypted under the data key of `ksn`. */
export function sealTrack(text: string, ksn: string, bdk = TEST_BDK): string {
  const k = Buffer.from(ksn, 'hex');
  return hex(tdesEncrypt(dataKey(initialKey(bdk, k), k), packed(text)));
}

export function sealPin(pin: string, pan: string, ksn: string): string {
  const k = Buffer.from(ksn, 'hex');
  return tdesEncrypt(pinKey(initialKey(TEST_BDK, k), k), pinBlockFormat0(pin, pan))
    .toString('hex')
    .toUpperCase();
}

export const tlv = (tag: string, value: string): string =>
  `${tag}${(value.length / 2).toString(16).padStart(2, '0').toUpperCase()}${value}`;

/** The first GENERATE AC of a chip read for `amount` centavos, with `changes` to its tags (null removes one). */
export function arqc(amount: number, changes: Record<string, string | null> = {}): string {
  const tags: Record<string, string | null> = {
    '9F26': 'A1B2C3D4E5F60718',
    '9F27': '80',
    '9F10': '06010A03A0B800',
    '9F37': '1A2B3C4D',
    '9F36': '0042',
    '95': '0000008000',
    '9A': '261126',
    '9C': '00',
    '9F02': String(amount).padStart(12, '0'),
    '5F2A': '0986',
    '82': '3C00',
    '9F1A': '0076',
    ...changes,
  };
  return Object.entries(tags)
    .filter((entry): entry is [string, string] => entry[1] !== null)
    .map(([tag, value]) => tlv(tag, value))
    .join('');
}

/** A chip read of the test card with the right online PIN, for `amount` centavos, on PINPAD `serial` (fresh KSNs). */
export function chipRequest(
  amount: number,
  overrides: Partial<TerminalAuthorizationRequestV2> = {},
  serial = TERMINAL,
): TerminalAuthorizationRequestV2 {
  const dataKsn = nextKsn('data');
  const pinKsn = nextKsn('pin');
  return {
    terminal: { serial_number: serial, model: 'GERTEC PPC930', table_versions: { '02': '2611260001' } },
    entry_mode: 'chip',
    pos_entry_mode: '051',
    acquirer: '02',
    card: {
      brand: 'visa',
      first6_digits: '476173',
      last4_digits: '0010',
      pan_length: 16,
      expiration: '2812',
      pan_sequence_number: '1',
    },
    cardholder_verification: 'online_pin',
    encrypted_card_data: {
      format: 'track2',
      method: 'dukpt_tdes_ecb',
      key_slot: 1,
      ksn: dataKsn,
      payload: sealTrack(TRACK2, dataKsn),
    },
    pin_block: { format: 'iso_0', method: 'dukpt', key_slot: 1, ksn: pinKsn, block: sealPin('1234', PAN, pinKsn) },
    emv_data: arqc(amount),
    ...overrides,
  };
}

/** The same card swiped (or tapped as a magnetic stripe): its sealed track 2 alone, no PIN. */
export function swipeRequest(
  entry: 'magstripe' | 'magstripe_fallback' | 'contactless_magstripe',
  posEntryMode: string,
  serial = TERMINAL,
): TerminalAuthorizationRequestV2 {
  const { emv_data: _, pin_block: __, ...chip } = chipRequest(0, {}, serial);
  return {
    ...chip,
    entry_mode: entry,
    pos_entry_mode: posEntryMode,
    cardholder_verification: 'none',
    card: { ...chip.card, service_code: '201' },
  };
}
