import { describe, expect, it } from 'vitest';
import { BrCodeError, checkBrCode, crc16Ccitt } from '../../../main/contract/brcode.js';
import { pixCopyAndPaste } from '../../../main/sandbox/pix/brcode.js';
import { thrown } from '../../helpers/thrown.js';

/** A payload with its CRC recomputed, so only the field under test is wrong. */
const withCrc = (body: string): string => `${body}6304${crc16Ccitt(`${body}6304`)}`;
/** A valid payload's fields before the CRC, each replaceable (whole field text, '' to drop it). */
function body(replace: Readonly<Record<string, string>>): string {
  const fields: Record<string, string> = {
    '00': '000201',
    '26': '26260014br.gov.bcb.pix0104k@ex',
    '52': '52040000',
    '53': '5303986',
    '54': '',
    '58': '5802BR',
    '59': '5901A',
    '60': '6001B',
  };
  return Object.entries({ ...fields, ...replace })
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([, text]) => text)
    .join('');
}
const codeOf = (error: unknown): string | undefined => (error instanceof BrCodeError ? error.code : undefined);

describe('a Pix BR Code, checked before it is shown', () => {
  it("reads what a bolepix's code says: amount, merchant, key, txid", () => {
    const payload = pixCopyAndPaste({
      key: '4f0b8c1e-7a3d-4e92-b5c6-2d9e8f1a7b30',
      merchantName: 'Loja Centro',
      merchantCity: 'SAO PAULO',
      amountCentavos: 15_050,
      txid: 'abc123',
    });
    expect(checkBrCode(payload)).toEqual({
      payload,
      amountCentavos: 15_050,
      merchantName: 'Loja Centro',
      merchantCity: 'SAO PAULO',
      key: '4f0b8c1e-7a3d-4e92-b5c6-2d9e8f1a7b30',
      locationUrl: undefined,
      txid: 'abc123',
    });
  });

  it('takes a dynamic code (a location URL) and one without an amount', () => {
    const dynamic = pixCopyAndPaste({ locationUrl: 'psp.example/qr/v2/x1', merchantName: 'A', merchantCity: 'B' });
    expect(checkBrCode(dynamic).locationUrl).toBe('psp.example/qr/v2/x1');
    expect(checkBrCode(dynamic).amountCentavos).toBeUndefined();
  });

  it('takes the CRC in lower case too (the manual writes upper case; readers compare the value)', () => {
    const payload = pixCopyAndPaste({ key: 'k@example.com', merchantName: 'A', merchantCity: 'B' });
    expect(checkBrCode(payload.slice(0, -4) + payload.slice(-4).toLowerCase()).payload).toMatch(/6304/);
  });

  it.each([
    ['empty', '', 'BR_CODE_MALFORMED'],
    ['a character outside ASCII', withCrc(body({ '59': '5901é' })), 'BR_CODE_MALFORMED'],
    ['fields that do not add up', '0002012699', 'BR_CODE_BAD_FIELDS'],
    ['a field twice', withCrc(body({ '60': '6001B6001C' })), 'BR_CODE_BAD_FIELDS'],
    ['not starting with 00 = 01', withCrc(body({ '00': '' })), 'BR_CODE_BAD_FIELD'],
    ['no CRC field', body({}), 'BR_CODE_BAD_CRC'],
    ['another arrangement (no Pix GUI)', withCrc(body({ '26': '26260014br.gov.bcb.xyz0104k@ex' })), 'BR_CODE_NOT_PIX'],
    [
      'both a key and a location',
      withCrc(body({ '26': '26340014br.gov.bcb.pix0104k@ex2504a.bc' })),
      'BR_CODE_BAD_FIELD',
    ],
    ['a currency other than BRL', withCrc(body({ '53': '5303840' })), 'BR_CODE_BAD_FIELD'],
    ['an amount with three decimals', withCrc(body({ '54': '540610.505' })), 'BR_CODE_BAD_FIELD'],
    ['a merchant name longer than 25', withCrc(body({ '59': `5926${'A'.repeat(26)}` })), 'BR_CODE_BAD_FIELD'],
  ])('refuses %s', (_name, payload, code) => {
    expect(codeOf(thrown(() => checkBrCode(payload)))).toBe(code);
  });

  it('takes the hand-made base payload itself', () => {
    expect(checkBrCode(withCrc(body({}))).merchantName).toBe('A');
  });

  it('refuses a payload whose CRC does not match, naming the right one', () => {
    const payload = pixCopyAndPaste({ key: 'k@example.com', merchantName: 'A', merchantCity: 'B' });
    const tampered = payload.replace('5901A', '5901Z');
    const error = thrown(() => checkBrCode(tampered));
    expect(codeOf(error)).toBe('BR_CODE_BAD_CRC');
    expect((error as Error).message).toContain(crc16Ccitt(tampered.slice(0, -4)));
  });
});
