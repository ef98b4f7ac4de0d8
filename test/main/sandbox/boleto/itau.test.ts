import { describe, expect, it } from 'vitest';
import { parseBoletoBarcode } from '../../../../main/sandbox/boleto/barcode.js';
import { barcodeFromDigitableLine } from '../../../../main/sandbox/boleto/digitable-line.js';
import {
  formatSandboxNossoNumero,
  issueBoletoNumbers,
  SANDBOX_AGENCIA_CODIGO,
} from '../../../../main/sandbox/boleto/index.js';
import { itauAccountDac, itauFreeField, itauNossoNumeroDac } from '../../../../main/sandbox/boleto/itau.js';
import { thrown } from '../../../helpers/thrown.js';

describe('Itaú free field', () => {
  it('matches the published carteira 109 example (agência 0057, conta 12345)', () => {
    // tomas-stefano/boleto_bancario spec/boleto_bancario/core/itau_spec.rb "#codigo_de_barras_do_banco".
    expect(itauFreeField({ carteira: '109', nossoNumero: '12345678', agencia: '0057', conta: '12345' })).toBe(
      '1091234567800057123457000',
    );
  });

  it('matches the free fields inside the published brcobranca barcodes', () => {
    // kivanio/brcobranca spec/brcobranca/boleto/itau_spec.rb.
    expect(itauFreeField({ carteira: '109', nossoNumero: '00010152', agencia: '1248', conta: '02124' })).toBe(
      '1090001015271248021246000',
    );
    expect(itauFreeField({ carteira: '175', nossoNumero: '12345678', agencia: '0810', conta: '53678' })).toBe(
      '1751234567840810536789000',
    );
    expect(itauFreeField({ carteira: '175', nossoNumero: '00258281', agencia: '0810', conta: '53678' })).toBe(
      '1750025828170810536789000',
    );
  });

  it('computes the nosso-número DAC over agência/conta/carteira/nosso número, or carteira/nosso número for the exception portfolios', () => {
    // tomas-stefano/boleto_bancario itau_spec "#nosso_numero" (110/12345678-8 with 0057/12345;
    // 198/98712345-1 with 0057/72192; 126/00012345-8, 131/00006789-5, 146/00147890-9,
    // 150/18765476-2, 168/12784698-3 without agência/conta).
    expect(itauNossoNumeroDac({ carteira: '110', nossoNumero: '12345678', agencia: '0057', conta: '12345' })).toBe(8);
    expect(itauNossoNumeroDac({ carteira: '198', nossoNumero: '98712345', agencia: '0057', conta: '72192' })).toBe(1);
    for (const [carteira, nossoNumero, dac] of [
      ['126', '00012345', 8],
      ['131', '00006789', 5],
      ['146', '00147890', 9],
      ['150', '18765476', 2],
      ['168', '12784698', 3],
    ] as const) {
      expect(itauNossoNumeroDac({ carteira, nossoNumero, agencia: '9999', conta: '99999' })).toBe(dac);
    }
  });

  it('computes the account DAC over agência + conta', () => {
    // kivanio/brcobranca itau_spec "Montar agencia_conta_corrente_dv".
    expect(itauAccountDac('0607', '15255')).toBe(0);
    expect(itauAccountDac('1547', '85547')).toBe(6);
    expect(itauAccountDac('1547', '10207')).toBe(7);
    expect(itauAccountDac('0811', '53678')).toBe(8);
  });

  it('refuses wrong lengths and the 15-position portfolios', () => {
    const base = { carteira: '109', nossoNumero: '12345678', agencia: '0057', conta: '12345' };
    expect((thrown(() => itauFreeField({ ...base, nossoNumero: '123' })) as Error).message).toMatch(
      /nosso número must be 8 digits/,
    );
    expect((thrown(() => itauFreeField({ ...base, agencia: '57' })) as Error).message).toMatch(
      /agência must be 4 digits/,
    );
    expect((thrown(() => itauFreeField({ ...base, conta: '1234' })) as Error).message).toMatch(
      /conta must be 5 digits/,
    );
    expect((thrown(() => itauFreeField({ ...base, carteira: '198' })) as Error).message).toMatch(/15-position layout/);
  });
});

describe('sandbox boleto numbers', () => {
  it('issues an Itaú 341 / carteira 109 barcode with the sequence as nosso número', () => {
    const issued = issueBoletoNumbers({ amountCentavos: 12_345, dueDate: '2026-12-01', sequence: 42 });
    expect(issued.nossoNumero).toBe('00000042');
    const parsed = parseBoletoBarcode(issued.barcode);
    expect(parsed).toMatchObject({ bankCode: '341', currency: '9', amountCentavos: 12_345, valid: true });
    expect(parsed.freeField).toBe(
      itauFreeField({ carteira: '109', nossoNumero: '00000042', agencia: '0057', conta: '12345' }),
    );
    expect(barcodeFromDigitableLine(issued.digitableLine)).toBe(issued.barcode);
  });

  it('wraps the nosso número modulo 10^8 and refuses a non-positive sequence', () => {
    expect(issueBoletoNumbers({ amountCentavos: 300, dueDate: '2026-01-05', sequence: 100_000_007 }).nossoNumero).toBe(
      '00000007',
    );
    expect(
      (thrown(() => issueBoletoNumbers({ amountCentavos: 300, dueDate: '2026-01-05', sequence: 0 })) as Error).message,
    ).toMatch(/positive integer/);
  });

  it('prints the nosso número and agência/código as Itaú does', () => {
    // The DAC is the digit after the nosso número in the published free field 109 12345678 0 0057 12345 7 000.
    expect(formatSandboxNossoNumero('12345678')).toBe('109/12345678-0');
    expect(SANDBOX_AGENCIA_CODIGO).toBe('0057 / 12345-7');
  });
});
