/**
 * The client reads a pairing code as the agent does (main/pos/clients/pairing-code.ts): the
 * window's "422 105", the separators people type and wide digits give the same six digits.
 */
import { describe, expect, it } from 'vitest';
import { pairingCodeDigits, PAIRING_CODE_LENGTH } from '../../client/index.js';
import { normalizePairingCode } from '../../main/pos/clients/pairing-code.js';

const TYPED = [
  '422105',
  '422 105',
  ' 422 105 ',
  '422-105',
  '422.105',
  '422 – 105',
  '422\u00a0105',
  '４２２１０５',
  '４２２\u3000１０５',
  '٤٢٢١٠٥',
  '४२२१०५',
  '422\u200b105',
];
const NOT_CODES = ['', '42210', '4221050', '422 10a', '422+105', 'quatro', `422105${' '.repeat(64)}`];

describe('pairingCodeDigits', () => {
  it('gives the six ASCII digits of a code typed with spaces, hyphens, dots or wide and other scripts’ digits', () => {
    for (const typed of TYPED) expect(pairingCodeDigits(typed), typed).toBe('422105');
    expect(PAIRING_CODE_LENGTH).toBe(6);
  });

  it('gives null for what is not a six-digit code', () => {
    for (const typed of NOT_CODES) expect(pairingCodeDigits(typed), JSON.stringify(typed)).toBeNull();
  });

  it('agrees with the agent on every one of them', () => {
    for (const typed of [...TYPED, ...NOT_CODES])
      expect(pairingCodeDigits(typed), typed).toBe(normalizePairingCode(typed) ?? null);
  });
});
