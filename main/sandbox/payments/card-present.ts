/**
 * The sandbox as an acquirer's host for terminal channel v2: it opens what the PINPAD sealed and
 * checks every field of the authorization request as a host must before it can authorize —
 *
 * - `pos_entry_mode` agrees with `entry_mode`;
 * - chip and contactless chip carry the first GENERATE AC's data: an ARQC (9F27 = 80) for the
 *   transaction's amount (9F02) in reais (5F2A = 0986), with the tags an authorization needs and
 *   none that carry card data (5A, 57, 5F20); a magnetic read carries none;
 * - the encrypted track 2 (or PAN) opens by its method with the sandbox's published test keys
 *   (test-keys.ts) — under the DUKPT data key its KSN names (the ANSI X9.24 test BDK, the one test
 *   PINPADs are loaded from), under the working key the sandbox issued for its data master key
 *   slot (a working key it did not issue is refused), or under the random key its test RSA key
 *   opens from `encrypted_key` — and is the card the request names: first 6 / last 4 digits,
 *   length, expiry, service code, Luhn check digit;
 * - an online PIN comes as a PIN block (and only then), opens under the DUKPT PIN key of its KSN
 *   or the PIN working key the sandbox issued, as an ISO 9564 format 0 block for that PAN, and is
 *   compared with the issuer's PIN for the card.
 *
 * The DUKPT KSNs a request used are returned for the replay check (store/dukpt-counters.ts),
 * which the route makes once the authorization is really decided.
 *
 * A request that breaks a rule is a 400 naming the field (it is the terminal's mistake, not the
 * card's); a wrong PIN is the issuer's decline 55. The TLV reader here is the sandbox's own
 * (EMV Book 3 Annex B), not the PINPAD driver's: the host proves the terminal's encoding.
 */
import { dataKey, initialKey, pinKey, pinOfBlock, tdesDecrypt, TEST_BDK } from '../../../drivers/crypto/dukpt.js';
import { POS_ENTRY_MODES, type TerminalAuthorizationRequestV2 } from '../../contract/terminal-v2.js';
import { badRequest } from '../errors.js';
import { openIssuedWorkingKey, openRandomKey, TEST_RSA_KEY_ID } from './test-keys.js';

/** The issuer's PINs of the sandbox: every test card's is 1234 (docs/terminal-channel.md). */
export const SANDBOX_PIN = '1234';

/** Tags a chip authorization must carry (EMV Book 4 §6.5.5 and the acquirers' online message specs). */
export const REQUIRED_EMV_TAGS = [
  '9F26',
  '9F27',
  '9F10',
  '9F37',
  '9F36',
  '95',
  '9A',
  '9C',
  '9F02',
  '5F2A',
  '82',
  '9F1A',
] as const;
/** Tags that hold the PAN, track 2 equivalent or the cardholder name: never in the clear EMV data. */
const CARD_DATA_TAGS = ['5A', '57', '5F20', '9F1F', '9F20', '56', '9F6B'];

/** A DUKPT KSN a request used, for the replay check. */
export interface DukptUse {
  /** The request's field that carried it, for the 400's detail. */
  readonly field: string;
  readonly kind: 'pin' | 'data';
  readonly ksn: Buffer;
}

/** What the host learned from the sealed data: the whole PAN stays inside this module's caller only. */
export interface OpenedCard {
  readonly pan: string;
  /** "YYMM" from track 2. */
  readonly expiration: string | undefined;
  readonly serviceCode: string | undefined;
  /** The PIN typed matched the issuer's; null when no online PIN was asked. */
  readonly pinMatches: boolean | null;
  /** The DUKPT KSNs of the card data and the PIN block, to check they advance. */
  readonly dukpt: readonly DukptUse[];
}

const two = (n: number): string => String(n).padStart(2, '0');

/**
 * The TDES key that opens the sealed card data, by its method, and the KSN it used (DUKPT);
 * 400 naming the field when the sandbox cannot have issued the key.
 */
function cardDataKey(sealed: TerminalAuthorizationRequestV2['encrypted_card_data']): {
  key: Buffer;
  dukpt?: DukptUse;
} {
  switch (sealed.method) {
    case 'dukpt_tdes_ecb': {
      const ksn = Buffer.from(sealed.ksn, 'hex');
      return {
        key: dataKey(initialKey(TEST_BDK, ksn), ksn),
        dukpt: { field: 'encrypted_card_data.ksn', kind: 'data', ksn },
      };
    }
    case 'mkwk_tdes_ecb': {
      const key = openIssuedWorkingKey('data', sealed.key_slot, sealed.working_key);
      if (key === undefined) {
        throw badRequest(
          `Field encrypted_card_data.working_key is not a working key the sandbox issued for data master key slot ${two(sealed.key_slot)} (its EMV tables' keys)`,
        );
      }
      return { key };
    }
    default: {
      if (sealed.key_id !== TEST_RSA_KEY_ID) {
        throw badRequest(
          `Field encrypted_card_data.key_id names an RSA key the sandbox does not hold (it holds ${TEST_RSA_KEY_ID})`,
        );
      }
      const key = openRandomKey(Buffer.from(sealed.encrypted_key, 'hex'));
      if (key === undefined) {
        throw badRequest(
          "Field encrypted_card_data.encrypted_key does not open to a PKCS #1 v1.5 type 2 block holding a TDES key under the sandbox's RSA key",
        );
      }
      return { key };
    }
  }
}

/** BER-TLV objects of the first level (constructed ones are kept whole), by tag in upper-case hex. */
export function readTlv(data: Buffer, field: string): Map<string, Buffer> {
  const items = new Map<string, Buffer>();
  let at = 0;
  const fail = (why: string): never => {
    throw badRequest(`Field ${field} is not BER-TLV: ${why} at byte ${at}`);
  };
  while (at < data.length) {
    // Padding between objects (00 or FF) is allowed (Book 3 Annex B).
    if (data[at] === 0x00 || data[at] === 0xff) {
      at++;
      continue;
    }
    const start = at;
    if ((data[at++]! & 0x1f) === 0x1f) {
      do {
        if (at >= data.length) fail('a tag runs past the end');
      } while ((data[at++]! & 0x80) !== 0);
    }
    const tag = data.subarray(start, at).toString('hex').toUpperCase();
    if (at >= data.length) fail(`tag ${tag} has no length`);
    let length = data[at++]!;
    if (length & 0x80) {
      const bytes = length & 0x7f;
      if (bytes === 0 || bytes > 3 || at + bytes > data.length) fail(`tag ${tag} has a bad length`);
      length = data.subarray(at, at + bytes).reduce((sum, byte) => sum * 256 + byte, 0);
      at += bytes;
    }
    if (at + length > data.length) fail(`tag ${tag} is longer than the data`);
    items.set(tag, data.subarray(at, at + length));
    at += length;
  }
  return items;
}

/** Digits of a field packed two a byte, up to the first F nibble (ABECS S220 §5.4.2.2). */
function unpackDigits(packed: Buffer): string {
  const hex = packed.toString('hex').toUpperCase();
  const end = hex.indexOf('F');
  return end === -1 ? hex : hex.slice(0, end);
}

function luhnValid(pan: string): boolean {
  let sum = 0;
  for (let i = 0; i < pan.length; i++) {
    let digit = Number(pan[pan.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

function checkEmvData(body: TerminalAuthorizationRequestV2, amountCentavos: number): void {
  const chip = body.entry_mode === 'chip' || body.entry_mode === 'contactless_chip';
  if (!chip) {
    if (body.emv_data !== undefined)
      throw badRequest(`Field emv_data must be absent for entry_mode ${body.entry_mode}`);
    return;
  }
  if (body.emv_data === undefined) throw badRequest(`Field emv_data is required for entry_mode ${body.entry_mode}`);
  const tags = readTlv(Buffer.from(body.emv_data, 'hex'), 'emv_data');
  const missing = REQUIRED_EMV_TAGS.filter((tag) => !tags.has(tag));
  if (missing.length > 0) throw badRequest(`Field emv_data lacks tag ${missing.join(', ')}`);
  const leaked = CARD_DATA_TAGS.find((tag) => tags.has(tag));
  if (leaked !== undefined) throw badRequest(`Field emv_data must not carry card data in clear (tag ${leaked})`);
  if (tags.get('9F27')!.toString('hex') !== '80')
    throw badRequest('Field emv_data: 9F27 must be 80 (an ARQC) for an online authorization');
  const amount = tags.get('9F02')!.toString('hex');
  if (!/^[0-9]{12}$/.test(amount) || Number(amount) !== amountCentavos) {
    throw badRequest(
      `Field emv_data: 9F02 (amount) ${amount} does not match the transaction's amount ${amountCentavos}`,
    );
  }
  if (tags.get('5F2A')!.toString('hex') !== '0986')
    throw badRequest('Field emv_data: 5F2A (currency) must be 0986 (BRL)');
}

/** Opens the sealed track 2 or PAN and checks it is the card the request names. */
function openCardData(body: TerminalAuthorizationRequestV2): {
  pan: string;
  expiration: string | undefined;
  serviceCode: string | undefined;
  dukpt: DukptUse | undefined;
} {
  const sealed = body.encrypted_card_data;
  const payload = Buffer.from(sealed.payload, 'hex');
  if (payload.length === 0 || payload.length % 8 !== 0)
    throw badRequest('Field encrypted_card_data.payload must be whole 8-byte TDES blocks');
  const { key, dukpt } = cardDataKey(sealed);
  const clear = unpackDigits(tdesDecrypt(key, payload));
  const track2 = /^([0-9]{12,19})D([0-9]{4})([0-9]{3})[0-9D]*$/.exec(clear);
  const pan = sealed.format === 'track2' ? track2?.[1] : /^[0-9]{12,19}$/.test(clear) ? clear : undefined;
  if (pan === undefined) {
    const under =
      sealed.method === 'dukpt_tdes_ecb'
        ? 'under its KSN (another BDK, or another key slot?)'
        : sealed.method === 'mkwk_tdes_ecb'
          ? 'under its working key'
          : 'under its random key';
    throw badRequest(
      `Field encrypted_card_data does not open to a ${sealed.format === 'track2' ? 'track 2' : 'PAN'} ${under}`,
    );
  }
  const { card } = body;
  if (pan.slice(0, 6) !== card.first6_digits || pan.slice(-4) !== card.last4_digits || pan.length !== card.pan_length) {
    throw badRequest('Field encrypted_card_data is another card than card.first6_digits / last4_digits / pan_length');
  }
  if (!luhnValid(pan)) throw badRequest('Field encrypted_card_data holds a PAN whose check digit is wrong');
  const expiration = track2?.[2];
  const serviceCode = track2?.[3];
  if (card.expiration !== undefined && expiration !== undefined && card.expiration !== expiration) {
    throw badRequest(`Field card.expiration ${card.expiration} is not the card's (${expiration} on track 2)`);
  }
  if (card.service_code !== undefined && serviceCode !== undefined && card.service_code !== serviceCode) {
    throw badRequest("Field card.service_code is not the card's");
  }
  return { pan, expiration, serviceCode, dukpt };
}

/** Whether the online PIN is the issuer's (null when none was asked), and the KSN of a DUKPT PIN block. */
function checkPin(body: TerminalAuthorizationRequestV2, pan: string): { matches: boolean | null; dukpt?: DukptUse } {
  const online = body.cardholder_verification === 'online_pin';
  const block = body.pin_block;
  if (!online) {
    if (block !== undefined)
      throw badRequest(
        `Field pin_block must be absent when cardholder_verification is ${body.cardholder_verification}`,
      );
    return { matches: null };
  }
  if (block === undefined) throw badRequest('Field pin_block is required when cardholder_verification is online_pin');
  let key: Buffer;
  let dukpt: DukptUse | undefined;
  if (block.method === 'mkwk') {
    const workingKey = openIssuedWorkingKey('pin', block.key_slot, block.working_key);
    if (workingKey === undefined) {
      throw badRequest(
        `Field pin_block.working_key is not a working key the sandbox issued for PIN master key slot ${two(block.key_slot)} (its EMV tables' keys)`,
      );
    }
    key = workingKey;
  } else {
    // Without `method` (older agents) the block is DUKPT.
    const ksn = Buffer.from(block.ksn, 'hex');
    key = pinKey(initialKey(TEST_BDK, ksn), ksn);
    dukpt = { field: 'pin_block.ksn', kind: 'pin', ksn };
  }
  const pin = pinOfBlock(tdesDecrypt(key, Buffer.from(block.block, 'hex')), pan);
  if (pin === undefined) {
    throw badRequest(
      `Field pin_block does not open to an ISO format 0 PIN block for this card under ${block.method === 'mkwk' ? 'its working key' : 'its KSN'}`,
    );
  }
  return { matches: pin === SANDBOX_PIN, ...(dukpt !== undefined ? { dukpt } : {}) };
}

/** Checks the request against the transaction's amount and opens its card; throws 400 naming the field. */
export function openCardPresent(body: TerminalAuthorizationRequestV2, amountCentavos: number): OpenedCard {
  const expected = POS_ENTRY_MODES[body.entry_mode];
  if (body.pos_entry_mode !== expected) {
    throw badRequest(
      `Field pos_entry_mode must be ${expected} for entry_mode ${body.entry_mode}, not ${body.pos_entry_mode}`,
    );
  }
  checkEmvData(body, amountCentavos);
  const { dukpt, ...card } = openCardData(body);
  const pin = checkPin(body, card.pan);
  return {
    ...card,
    pinMatches: pin.matches,
    dukpt: [...(dukpt !== undefined ? [dukpt] : []), ...(pin.dukpt !== undefined ? [pin.dukpt] : [])],
  };
}
