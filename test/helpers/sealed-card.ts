/**
 * Terminal channel v2 requests sealed the way a test PINPAD loaded from the ANSI X9.24 test BDK
 * seals them (track 2 packed two digits a byte, F-padded, TDES ECB under the DUKPT data key; an
 * ISO 9564 format 0 PIN block under the PIN key), with the published key derivation — never
 * with Pinbridge's own request builder, so a host test proves what a real PINPAD would send.
 */
import { dataKey, initialKey, pinBlockFormat0, pinKey, tdesEncrypt, TEST_BDK } from '../../drivers/crypto/dukpt.js';
import type { TerminalAuthorizationRequestV2 } from '../../main/contract/index.js';

export const TERMINAL = 'PB0000012345';
/** A Visa test card with a valid check digit; its issuer PIN in the sandbox is 1234. */
export const PAN = '4761739001010010';
export const TRACK2 = `${PAN}=28122011234567890`;
export const DATA_KSN = 'FF81000012345E000001';
export const PIN_KSN = 'FF01000012345E000001';

/** Digits two a byte ("=" is the D nibble), F-padded to whole 8-byte blocks, encrypted under the data key of `ksn`. */
export function sealTrack(text: string, ksn: string, bdk = TEST_BDK): string {
  let hex = [...text].map((ch) => (ch === '=' ? 'D' : ch)).join('');
  while (hex.length % 16 !== 0) hex += 'F';
  const k = Buffer.from(ksn, 'hex');
  return tdesEncrypt(dataKey(initialKey(bdk, k), k), Buffer.from(hex, 'hex'))
    .toString('hex')
    .toUpperCase();
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

/** A chip read of the test card with the right online PIN, for `amount` centavos, on PINPAD `serial`. */
export function chipRequest(
  amount: number,
  overrides: Partial<TerminalAuthorizationRequestV2> = {},
  serial = TERMINAL,
): TerminalAuthorizationRequestV2 {
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
      ksn: DATA_KSN,
      payload: sealTrack(TRACK2, DATA_KSN),
    },
    pin_block: { format: 'iso_0', key_slot: 1, ksn: PIN_KSN, block: sealPin('1234', PAN, PIN_KSN) },
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
