/**
 * The Pix slip (pix.print) from a real bolepix (the sandbox over HTTP), printed as ESC/POS and
 * read back as a printer would: what the customer reads, and the printer's own QR code holding
 * exactly the bolepix's BR Code, sized to fit 58 mm paper as well as 80 mm.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layout } from '../../../drivers/printers/layout.js';
import { encodeEscPos } from '../../../drivers/printers/escpos.js';
import type { PaperColumns } from '../../../drivers/printers/document.js';
import { PaymentsClient, type Transaction } from '../../../main/api/index.js';
import { boletoSlipDocument } from '../../../main/receipts/boleto-slip.js';
import { pixSlipDocument } from '../../../main/receipts/pix-slip.js';
import type { ReceiptSettings } from '../../../main/receipts/settings.js';
import { startSandbox, type RunningSandbox } from '../../../main/sandbox/server.js';
import { decodeEscPos, type DecodedEscPos } from '../../helpers/escpos-decode.js';
import { thrown } from '../../helpers/thrown.js';

// Manaus keeps UTC-4 all year: the slip's times are checked against that, not the machine's zone.
const settings: ReceiptSettings = {
  merchant: { name: 'MERCADINHO NOVA ERA', cnpj: '12ABC34501DE35' },
  time_zone: 'America/Manaus',
};

/** Bytes a version's QR holds in byte mode at level M (ISO/IEC 18004 table 7), versions 1 to 14. */
const BYTE_CAPACITY_M = [14, 26, 42, 62, 84, 106, 122, 152, 180, 213, 251, 287, 331, 362];
/** Modules across of the smallest version at level M that holds `bytes` in byte mode (the printer's worst case). */
function qrModules(bytes: number): number {
  const version = BYTE_CAPACITY_M.findIndex((capacity) => capacity >= bytes) + 1;
  if (version === 0) throw new Error(`${bytes} bytes need a QR version past this table`);
  return 17 + 4 * version;
}
/** Dots across the paper: 58 mm paper prints 384 (48 mm at 8 dots/mm), 80 mm prints 576 (72 mm). */
const PRINTABLE_DOTS: Record<PaperColumns, number> = { 32: 384, 42: 576, 48: 576 };

/** "2026-12-10T23:59:59-03:00" → "10/12/2026 22:59" in Manaus (UTC-4), written out by hand. */
function manaus(iso: string): string {
  const at = new Date(Date.parse(iso) - 4 * 3_600_000);
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${two(at.getUTCDate())}/${two(at.getUTCMonth() + 1)}/${at.getUTCFullYear()} ${two(at.getUTCHours())}:${two(at.getUTCMinutes())}`;
}

let sandbox: RunningSandbox;
let bolepix: Transaction;
let boleto: Transaction;

beforeAll(async () => {
  sandbox = await startSandbox({});
  const client = new PaymentsClient({
    baseUrl: sandbox.url,
    token: sandbox.token,
    marketplaceId: sandbox.marketplaceId,
  });
  const payer = await client.buyers.create({ first_name: 'Bruno', taxpayer_id: '86288366757' });
  const common = { on_behalf_of: sandbox.sellerId, customer: payer.id, amount: 123_456, description: 'Pedido 7' };
  bolepix = await client.boletos.createBolepix({ ...common, reference_id: 'pix-slip-bolepix' });
  boleto = await client.boletos.create({ ...common, reference_id: 'pix-slip-boleto' });
});
afterAll(async () => {
  await sandbox.close();
});

const paper = (columns: PaperColumns, training = false): DecodedEscPos =>
  decodeEscPos(encodeEscPos(pixSlipDocument(bolepix, { settings, columns, training }), { columns }));
const texts = (decoded: DecodedEscPos): string[] => decoded.lines.map((line) => line.text.trim());

describe('the Pix slip', () => {
  for (const columns of [32, 48] as const) {
    it(`on ${columns === 32 ? '58' : '80'} mm paper tells the customer what to pay and how, around a QR of the bolepix's BR Code`, () => {
      const decoded = paper(columns);
      const lines = texts(decoded).filter((text) => text !== '' && !/^-+$/.test(text));
      // Read as one text: on 58 mm paper the instruction wraps onto two lines.
      expect(lines.join(' ')).toBe(
        [
          'MERCADINHO NOVA ERA',
          'CNPJ 12.ABC.345/01DE-35',
          'PAGUE COM PIX',
          'R$ 1.234,56',
          'Aponte a câmera do app do seu banco',
          `Pix válido até ${manaus(bolepix.pix!.expiration_date_time)}`,
          'ID DA TRANSAÇÃO',
          bolepix.id,
        ].join(' '),
      );
      // The id is whole on one line, as a support call reads it out.
      expect(lines).toContain(bolepix.id);
      // The amount is what the eye finds first: double width and height, bold, centred.
      const amount = decoded.lines.find((line) => line.text.trim() === 'R$ 1.234,56')!;
      expect(amount).toMatchObject({ bold: true, width: 2, height: 2 });
      const room = columns / 2;
      expect(Math.abs(amount.text.indexOf('R') - (room - amount.text.trimEnd().length))).toBeLessThanOrEqual(1);
      const qrs = decoded.events.filter((event) => event.kind === 'qrcode');
      expect(qrs).toHaveLength(1);
      const qr = qrs[0]!;
      if (qr.kind !== 'qrcode') throw new Error('not a QR code');
      // Exactly the bolepix's "copia e cola", as model 2 at level M, under the instruction, centred.
      expect(qr).toMatchObject({ data: bolepix.pix!.qr_code, model: 2, errorLevel: 'M', align: 'center' });
      expect(qr.afterLines).toBe(decoded.lines.findIndex((line) => line.text.includes('Pix válido até')));
      expect(decoded.lines[qr.afterLines - 1]?.text).toMatch(/banco\s*$/);
      // It fits the paper with its quiet zones, in modules a phone camera reads (≥ 3 dots).
      const modules = qrModules(Buffer.byteLength(bolepix.pix!.qr_code));
      expect(qr.moduleSize * (modules + 8)).toBeLessThanOrEqual(PRINTABLE_DOTS[columns]);
      expect(qr.moduleSize).toBeGreaterThanOrEqual(3);
      expect(decoded.events.at(-1)).toMatchObject({ kind: 'cut' });
    });
  }

  it('is marked as training at its top and bottom in training mode', () => {
    const lines = texts(paper(32, true)).filter((text) => text !== '');
    expect(lines[0]).toBe('TREINAMENTO - SEM VALOR');
    expect(lines.at(-1)).toBe('TREINAMENTO - SEM VALOR');
  });

  it('is titled with its amount for the print queue and the window', () => {
    expect(pixSlipDocument(bolepix, { settings }).title).toBe('Pix de R$ 1.234,56');
  });

  it('says the same about the Pix as the bolepix slip does (one builder for both)', () => {
    const pixPart = (blocks: ReturnType<typeof layout>['lines']): unknown[] => {
      const start = blocks.findIndex((line) => line.kind === 'text' && line.text.includes('PAGUE COM PIX'));
      const end = blocks.findIndex((line) => line.kind === 'text' && line.text.includes('Pix válido até'));
      return blocks.slice(start, end + 1).filter((line) => !(line.kind === 'text' && line.text.includes('R$')));
    };
    const slip = pixPart(layout(pixSlipDocument(bolepix, { settings }), 48).lines);
    const boletoSlip = pixPart(layout(boletoSlipDocument(bolepix, { settings }), 48).lines);
    expect(slip.length).toBeGreaterThan(3);
    expect(slip).toEqual(boletoSlip);
  });

  it('refuses a plain boleto, which has no Pix to print (INVALID_INPUT)', () => {
    expect(thrown(() => pixSlipDocument(boleto, { settings }))).toMatchObject({ code: 'INVALID_INPUT' });
  });
});
