/**
 * The EMV data objects the simulated chip "produces" (PP_EMVDATA, GOC_EMVDAT, FNC_EMVDAT). Values
 * that a real card computes with its keys (cryptogram 9F26, issuer application data 9F10,
 * unpredictable number 9F37) are random bytes: this is test data and proves nothing. Track and
 * PAN objects (5A, 57, 56, 5F20, 9F6B) are never returned, as S220 requires for GOC.
 */
import { randomBytes } from 'node:crypto';
import { applicationTypeOf, type SimCard } from './cards.js';
import { encodeEmvObjects, type EmvObject } from './wire/emv.js';

/** Cryptogram Information Data (9F27) per decision: ARQC, TC, AAC. */
export type Cryptogram = 'ARQC' | 'TC' | 'AAC';
const CID: Readonly<Record<Cryptogram, number>> = { ARQC: 0x80, TC: 0x40, AAC: 0x00 };

const AIDS: Readonly<Record<SimCard['brand'], { credit: string; debit: string }>> = {
  visa: { credit: 'A0000000031010', debit: 'A0000000032010' },
  mastercard: { credit: 'A0000000041010', debit: 'A0000000043060' },
  elo: { credit: 'A0000004941010', debit: 'A0000004942010' },
};

/** The credit and debit AIDs of a brand. */
export function aidsOf(brand: SimCard['brand']): { readonly credit: string; readonly debit: string } {
  return AIDS[brand];
}

export function aidOf(card: SimCard): string {
  const aids = AIDS[card.brand];
  return applicationTypeOf(card) === '02' ? aids.debit : aids.credit;
}

const NEVER_RETURNED = new Set(['5A', '57', '56', '5F20', '9F6B', '9F1F', '9F20']);

/** The default tags when the host sends no list. */
export const DEFAULT_TAGS: readonly string[] = [
  '82',
  '84',
  '95',
  '9A',
  '9C',
  '5F2A',
  '5F34',
  '9F02',
  '9F03',
  '9F10',
  '9F1A',
  '9F26',
  '9F27',
  '9F33',
  '9F34',
  '9F36',
  '9F37',
];

export interface EmvContext {
  readonly card: SimCard;
  readonly amount: number;
  readonly cashback: number;
  readonly transactionType: number;
  readonly cryptogram: Cryptogram;
  /** "YYMMDD" of the transaction. */
  readonly date: string;
  /** Application transaction counter; the state keeps it per card read. */
  readonly atc: number;
  /** Authorisation response code (8A) after FNC/FCX. */
  readonly arc?: string;
  /** The offline PIN verification, when the card's CVM is offline PIN (TVR 95, CVM results 9F34). */
  readonly offlinePin?: 'verified' | 'blocked';
}

function bcd(value: number | string, bytes: number): Buffer {
  return Buffer.from(
    String(value)
      .padStart(bytes * 2, '0')
      .slice(-bytes * 2),
    'hex',
  );
}

function valueOf(tag: string, ctx: EmvContext): Buffer | undefined {
  const { card } = ctx;
  switch (tag) {
    case '4F':
    case '84':
    case '9F06':
      return Buffer.from(aidOf(card), 'hex');
    case '50':
      return Buffer.from(card.label, 'latin1');
    case '5F24':
      return bcd(card.expiry, 3);
    case '5F25':
      return bcd('200101', 3);
    case '5F28':
      return bcd(card.issuerCountry ?? '076', 2);
    case '5F2A':
      return bcd('0986', 2);
    case '5F34':
      return bcd(card.panSequenceNumber ?? '00', 1);
    case '82':
      // AIP: SDA/DDA, cardholder verification, terminal risk management, issuer authentication.
      return Buffer.from(card.entry === 'contactless' ? '2000' : '5C00', 'hex');
    case '8A':
      return ctx.arc === undefined ? undefined : Buffer.from(ctx.arc, 'latin1');
    case '95':
      // Byte 3: 80h cardholder verification not successful, 20h PIN try limit exceeded.
      return ctx.offlinePin === 'blocked' ? Buffer.from('0000A00000', 'hex') : Buffer.alloc(5);
    case '9A':
      return bcd(ctx.date, 3);
    case '9B':
      return Buffer.from('E800', 'hex');
    case '9C':
      return bcd(ctx.transactionType, 1);
    case '9F02':
      return bcd(ctx.amount, 6);
    case '9F03':
      return bcd(ctx.cashback, 6);
    case '9F07':
      return Buffer.from('FF00', 'hex');
    case '9F09':
      return Buffer.from('0002', 'hex');
    case '9F10':
      return Buffer.concat([Buffer.from('06010A03', 'hex'), randomBytes(3)]);
    case '9F1A':
      return bcd('0076', 2);
    case '9F26':
      return randomBytes(8);
    case '9F27':
      return Buffer.of(CID[ctx.cryptogram]);
    case '9F33':
      return Buffer.from('E0F8C8', 'hex');
    case '9F34':
      // CVM results: online PIN (02) or no CVM (1F), condition 03, result 02/00.
      // Offline enciphered PIN: 44 (04 + apply succeeding), result 02 successful / 01 failed.
      if (ctx.offlinePin !== undefined) return Buffer.from(ctx.offlinePin === 'verified' ? '440302' : '440301', 'hex');
      return Buffer.from(card.requiresPin ? '420302' : '1F0302', 'hex');
    case '9F35':
      return Buffer.of(0x22);
    case '9F36': {
      const atc = Buffer.alloc(2);
      atc.writeUInt16BE(ctx.atc & 0xffff, 0);
      return atc;
    }
    case '9F37':
      return randomBytes(4);
    case '9F39':
      return Buffer.of(card.entry === 'contactless' ? 0x07 : card.entry === 'chip' ? 0x05 : 0x90);
    case '9F41':
      return bcd(ctx.atc, 4);
    case '9F53':
      return Buffer.of(0x52);
    case '9F66':
      // Terminal transaction qualifiers (Visa contactless): EMV mode, online PIN and signature supported.
      return card.entry === 'contactless' ? Buffer.from('36204000', 'hex') : undefined;
    case '9F6E':
      return card.entry === 'contactless' ? Buffer.from('20700000', 'hex') : undefined;
    default:
      return undefined;
  }
}

/** The objects for `tags` (or the defaults) that this simulated card knows, in request order. */
export function emvDataFor(ctx: EmvContext, tags: readonly string[] | undefined): Buffer {
  const items: EmvObject[] = [];
  for (const tag of tags ?? DEFAULT_TAGS) {
    const upper = tag.toUpperCase();
    if (NEVER_RETURNED.has(upper)) continue;
    const value = valueOf(upper, ctx);
    if (value) items.push({ tag: upper, value });
  }
  return encodeEmvObjects(items);
}
