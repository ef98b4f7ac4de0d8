import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseBrCode, parseTlv, pixCopyAndPaste } from '../../../../main/sandbox/pix/brcode.js';
import { crc16Ccitt } from '../../../../main/sandbox/pix/crc16.js';
import { thrown } from '../../../helpers/thrown.js';

/** BCB "Manual de Padrões para Iniciação do Pix", static QR example (random key). */
const BCB_STATIC =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D';
/** Same manual, dynamic QR example (PSP location). */
const BCB_DYNAMIC =
  '00020101021226700014br.gov.bcb.pix2548pix.example.com/8b3da2f39a4140d1a91abd93113bd4415204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***630464E4';
/** BCB "Manual do BR Code" §2.2 example, carrying a second arrangement and field 61. */
const BR_CODE_MANUAL =
  '00020104141234567890123426580014BR.GOV.BCB.PIX0136123e4567-e12b-12d1-a456-42665544000027300012BR.COM.OUTRO011001234567895204000053039865406123.455802BR5917NOME DO RECEBEDOR6008BRASILIA61087007490062190515RP12345678-201980390012BR.COM.OUTRO01190123.ABCD.3456.WXYZ6304AD38';

describe('CRC-16/CCITT-FALSE', () => {
  it('gives the standard check value 29B1 for "123456789"', () => {
    expect(crc16Ccitt('123456789')).toBe('29B1');
  });

  it('reproduces the CRC of the BCB examples', () => {
    expect(crc16Ccitt(BCB_STATIC.slice(0, -4))).toBe('1D3D');
    expect(crc16Ccitt(BCB_DYNAMIC.slice(0, -4))).toBe('64E4');
    expect(crc16Ccitt(BR_CODE_MANUAL.slice(0, -4))).toBe('AD38');
  });

  it('is computed over UTF-8 bytes and always has 4 uppercase hex digits', () => {
    expect(crc16Ccitt('')).toBe('FFFF');
    // Python's binascii.crc_hqx('ã'.encode(), 0xFFFF) == 0xDB81 (the bytes C3 A3).
    expect(crc16Ccitt('ã')).toBe('DB81');
    expect(crc16Ccitt('\u0001')).toMatch(/^[0-9A-F]{4}$/);
  });
});

describe('Pix copia e cola', () => {
  it('reproduces the BCB static example byte for byte', () => {
    expect(
      pixCopyAndPaste({
        key: '123e4567-e12b-12d1-a456-426655440000',
        merchantName: 'Fulano de Tal',
        merchantCity: 'BRASILIA',
      }),
    ).toBe(BCB_STATIC);
  });

  it('reproduces the BCB dynamic example byte for byte (point of initiation 12, location in 26/25)', () => {
    expect(
      pixCopyAndPaste({
        locationUrl: 'pix.example.com/8b3da2f39a4140d1a91abd93113bd441',
        merchantName: 'Fulano de Tal',
        merchantCity: 'BRASILIA',
      }),
    ).toBe(BCB_DYNAMIC);
  });

  it('writes the amount in reais with two decimals, the txid and the description', () => {
    const payload = pixCopyAndPaste({
      key: 'fulano@example.com',
      merchantName: 'Fulano de Tal',
      merchantCity: 'BRASILIA',
      amountCentavos: 12_345,
      txid: 'PEDIDO42',
      description: 'Pedido 42',
    });
    const { fields, crcValid } = parseBrCode(payload);
    expect(crcValid).toBe(true);
    expect(fields['54']).toBe('123.45');
    expect(fields['62']).toBe('0508PEDIDO42');
    expect(parseTlv(fields['26'] ?? '')).toEqual({
      '00': 'br.gov.bcb.pix',
      '01': 'fulano@example.com',
      '02': 'Pedido 42',
    });
    expect(fields['01']).toBeUndefined();
    expect(
      parseBrCode(pixCopyAndPaste({ key: 'k', merchantName: 'A', merchantCity: 'B', amountCentavos: 5 })).fields['54'],
    ).toBe('0.05');
    expect(
      parseBrCode(pixCopyAndPaste({ key: 'k', merchantName: 'A', merchantCity: 'B', amountCentavos: 100 })).fields[
        '54'
      ],
    ).toBe('1.00');
  });

  it('removes accents and truncates the name to 25 and the city to 15 characters', () => {
    const { fields } = parseBrCode(
      pixCopyAndPaste({
        key: 'k',
        merchantName: 'Padaria e Confeitaria São João Ltda',
        merchantCity: 'São José dos Campos',
      }),
    );
    expect(fields['59']).toBe('Padaria e Confeitaria Sao');
    expect(fields['60']).toBe('Sao Jose dos Ca');
  });

  it('refuses a bad txid, a missing or double account and an empty name', () => {
    const base = { key: 'k', merchantName: 'A', merchantCity: 'B' };
    expect((thrown(() => pixCopyAndPaste({ ...base, txid: 'with-dash' })) as Error).message).toMatch(/txid/);
    expect((thrown(() => pixCopyAndPaste({ ...base, txid: 'A'.repeat(26) })) as Error).message).toMatch(/txid/);
    expect((thrown(() => pixCopyAndPaste({ merchantName: 'A', merchantCity: 'B' })) as Error).message).toMatch(
      /exactly one/,
    );
    expect((thrown(() => pixCopyAndPaste({ ...base, locationUrl: 'x.y/z' })) as Error).message).toMatch(/exactly one/);
    expect(
      (thrown(() => pixCopyAndPaste({ locationUrl: 'https://x.y/z', merchantName: 'A', merchantCity: 'B' })) as Error)
        .message,
    ).toMatch(/without a scheme/);
    expect((thrown(() => pixCopyAndPaste({ ...base, merchantName: '  ' })) as Error).message).toMatch(/name is empty/);
    expect((thrown(() => pixCopyAndPaste({ ...base, amountCentavos: 0 })) as Error).message).toMatch(
      /positive integer/,
    );
  });
});

describe('parseBrCode', () => {
  it('splits the BCB examples into their top-level fields and validates their CRC', () => {
    expect(parseBrCode(BCB_STATIC)).toEqual({
      fields: {
        '00': '01',
        '26': '0014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-426655440000',
        '52': '0000',
        '53': '986',
        '58': 'BR',
        '59': 'Fulano de Tal',
        '60': 'BRASILIA',
        '62': '0503***',
        '63': '1D3D',
      },
      crcValid: true,
    });
    const manual = parseBrCode(BR_CODE_MANUAL);
    expect(manual.crcValid).toBe(true);
    expect(manual.fields['54']).toBe('123.45');
    expect(manual.fields['61']).toBe('70074900');
  });

  it('reports a tampered payload as crcValid false and throws on a truncated one', () => {
    expect(parseBrCode(BCB_STATIC.replace('Fulano', 'Fulana')).crcValid).toBe(false);
    expect(parseBrCode(BCB_STATIC.replace(/1D3D$/, '1D3E')).crcValid).toBe(false);
    expect((thrown(() => parseBrCode(BCB_STATIC.slice(0, 40))) as Error).message).toMatch(/truncated/);
  });

  it('round-trips any well-formed input', () => {
    fc.assert(
      fc.property(
        fc.record({
          key: fc.stringMatching(/^[a-z0-9@.+-]{1,77}$/),
          merchantName: fc.stringMatching(/^[A-Za-z][A-Za-z ]{0,39}$/),
          merchantCity: fc.stringMatching(/^[A-Za-z][A-Za-z ]{0,29}$/),
          amountCentavos: fc.option(fc.integer({ min: 1, max: 99_999_999_999 }), { nil: undefined }),
          txid: fc.option(fc.stringMatching(/^[A-Za-z0-9]{1,25}$/), { nil: undefined }),
        }),
        (input) => {
          const { fields, crcValid } = parseBrCode(pixCopyAndPaste(input));
          expect(crcValid).toBe(true);
          expect(parseTlv(fields['26'] ?? '')['01']).toBe(input.key);
          expect(fields['62']).toBe(`05${String((input.txid ?? '***').length).padStart(2, '0')}${input.txid ?? '***'}`);
          if (input.amountCentavos !== undefined)
            expect(Math.round(Number(fields['54']) * 100)).toBe(input.amountCentavos);
          expect((fields['59'] ?? '').length).toBeLessThanOrEqual(25);
          expect((fields['60'] ?? '').length).toBeLessThanOrEqual(15);
        },
      ),
    );
  });
});
