import ReceiptPrinterEncoder from '@point-of-sale/receipt-printer-encoder';
import { describe, expect, it } from 'vitest';
import type { PaperColumns, PrintDocument } from '../../../drivers/printers/document.js';
import {
  encodeEscPos,
  EscPosError,
  escPosCodepage,
  ESC_POS_CODEPAGES,
  escPosPrinterModels,
  type EscPosOptions,
} from '../../../drivers/printers/escpos.js';
import { layout } from '../../../drivers/printers/layout.js';
import {
  decodeEscPos,
  EPSON_CODE_TABLES,
  EscPosDecodeError,
  HP_CODE_TABLES,
  POS5890_CODE_TABLES,
  type CodeTables,
  type DecodedCodepage,
  type DecodedEscPos,
} from '../../helpers/escpos-decode.js';
import { thrown } from '../../helpers/thrown.js';
import { BOLETO_BARCODE, PIX_PAYLOAD, SAMPLE_DOCUMENT } from './sample-document.js';

const ACCENTS = 'ç ã õ é ê á à â í ó ô ú ü Ç Ã Õ É Ê Á À Â Í Ó Ô Ú Ü ª º';

/** Every kind of block, nothing a Portuguese code page lacks, and codes that fit 58 mm paper. */
const RECEIPT: PrintDocument = {
  title: 'Comprovante de teste',
  blocks: [
    { kind: 'text', text: 'PADARIA PÃO DE AÇÚCAR', align: 'center', bold: true },
    { kind: 'text', text: 'Rua da Consolação, 1000 - São Paulo/SP', align: 'center' },
    { kind: 'rule', style: 'double' },
    { kind: 'text', text: 'R$ 19,90', align: 'center', bold: true, large: true },
    { kind: 'pair', label: 'Operação', value: 'Crédito à vista' },
    { kind: 'pair', label: 'Parcelas', value: '1x', bold: true },
    { kind: 'pair', label: 'Descrição do produto', value: 'Pão de queijo, café com leite e suco de maçã orgânica' },
    { kind: 'rule' },
    { kind: 'text', text: `Acentos: ${ACCENTS}` },
    { kind: 'text', text: 'Avó, você, órgão, não, pôr, útil, lingüiça, ação', align: 'right' },
    { kind: 'feed', lines: 2 },
    { kind: 'barcode', symbology: 'code128', data: 'PED-{2025}-0042', caption: 'Pedido PED-{2025}-0042' },
    { kind: 'qrcode', data: PIX_PAYLOAD, caption: 'Pague com Pix' },
    { kind: 'signature', label: 'Assinatura do cliente' },
  ],
};

const ACCENTS_DOCUMENT: PrintDocument = {
  title: 'Acentos',
  blocks: [
    { kind: 'text', text: ACCENTS },
    { kind: 'text', text: 'Ação, coração, maçã, avó, você, órgão, útil, lingüiça: AÇÃO, ÓRGÃO, ÉPOCA, ÚNICO, ÍNDIO' },
  ],
};

/** What a line of paper shows: text with its style, or a code with what it holds. */
type Printed =
  | { readonly kind: 'text'; readonly text: string; readonly bold: boolean; readonly large: boolean }
  | { readonly kind: 'barcode'; readonly symbology: string; readonly data: string }
  | { readonly kind: 'qrcode'; readonly data: string };

/** The paper `layout()` plans, with `printed` applied to the text (for characters a code page lacks). */
function plannedPaper(
  document: PrintDocument,
  columns: PaperColumns,
  printed: (text: string) => string = (t) => t,
): Printed[] {
  return layout(document, columns).lines.map((line): Printed => {
    if (line.kind !== 'text') return line;
    const text = printed(line.text).trimEnd();
    // A line without characters has no style to read back.
    return { kind: 'text', text, bold: text.length > 0 && line.bold, large: text.length > 0 && line.large };
  });
}

/** The paper the decoder saw: the text lines and the codes between them, in order. */
function printedPaper(decoded: DecodedEscPos): Printed[] {
  const paper: Printed[] = [];
  const codes = decoded.events.filter((e) => e.kind === 'barcode' || e.kind === 'qrcode');
  decoded.lines.forEach((line, index) => {
    for (const code of codes.filter((c) => c.afterLines === index)) {
      paper.push(
        code.kind === 'barcode'
          ? { kind: 'barcode', symbology: code.symbology, data: code.data }
          : { kind: 'qrcode', data: code.data },
      );
    }
    expect(line.uniform, `line ${index} "${line.text}" has one style`).toBe(true);
    expect(line.align, 'lines are positioned with spaces and printed left-aligned').toBe('left');
    expect(line.font, 'font A').toBe(0);
    const large = line.width === 2 && line.height === 2;
    if (!large) expect([line.width, line.height]).toEqual([1, 1]);
    paper.push({ kind: 'text', text: line.text.trimEnd(), bold: line.bold, large });
  });
  for (const code of codes.filter((c) => c.afterLines === decoded.lines.length)) {
    paper.push(
      code.kind === 'barcode'
        ? { kind: 'barcode', symbology: code.symbology, data: code.data }
        : { kind: 'qrcode', data: code.data },
    );
  }
  return paper;
}

/** Checks the bytes print exactly the planned paper, then only the blank lines fed before the cut. */
function expectPaper(decoded: DecodedEscPos, planned: readonly Printed[], feedBeforeCut: number): void {
  const paper = printedPaper(decoded);
  expect(paper.slice(0, planned.length)).toEqual(planned);
  expect(paper.slice(planned.length)).toEqual(
    Array.from({ length: feedBeforeCut }, () => ({ kind: 'text', text: '', bold: false, large: false })),
  );
  expect(decoded.unprinted).toBe('');
}

function textLineCount(document: PrintDocument, columns: PaperColumns): number {
  return layout(document, columns).lines.filter((l) => l.kind === 'text').length;
}

function escPosError(fn: () => unknown): EscPosError {
  const error = thrown(fn);
  expect(error).toBeInstanceOf(EscPosError);
  return error as EscPosError;
}

describe('encodeEscPos', () => {
  describe('prints exactly the lines of layout()', () => {
    it.each([32, 42, 48] as const)(
      'at %i columns: every text line, bold and double size as laid out, the codes in their place',
      (columns) => {
        const decoded = decodeEscPos(encodeEscPos(RECEIPT, { columns }));
        expectPaper(decoded, plannedPaper(RECEIPT, columns), 4);
        expect(decoded.events[0]).toEqual({ kind: 'initialize', afterLines: 0 });
      },
    );

    it.each([42, 48] as const)(
      'at %i columns: the shared sample receipt with its boleto barcode and Pix QR code',
      (columns) => {
        const decoded = decodeEscPos(encodeEscPos(SAMPLE_DOCUMENT, { columns }));
        // The em dash is in none of the Portuguese code pages but Windows-1252: it prints as a hyphen.
        expectPaper(
          decoded,
          plannedPaper(SAMPLE_DOCUMENT, columns, (t) => t.replaceAll('—', '-')),
          4,
        );
      },
    );

    it('prints a large bold line in double width and height, and the next line back in normal size', () => {
      const decoded = decodeEscPos(
        encodeEscPos(
          {
            title: 't',
            blocks: [
              { kind: 'text', text: 'TOTAL R$ 5,00', bold: true, large: true },
              { kind: 'text', text: 'obrigado' },
            ],
          },
          { columns: 32 },
        ),
      );
      expect(decoded.lines[0]).toMatchObject({ text: 'TOTAL R$ 5,00', bold: true, width: 2, height: 2 });
      expect(decoded.lines[1]).toMatchObject({ text: 'obrigado', bold: false, width: 1, height: 1 });
    });
  });

  describe('Portuguese characters', () => {
    const printers: ReadonlyArray<{
      readonly printer: string;
      readonly options: Omit<EscPosOptions, 'columns'>;
      readonly columns: PaperColumns;
      readonly tables: CodeTables;
      readonly table: number;
      readonly codepage: DecodedCodepage;
    }> = [
      {
        printer: 'no model (an Epson-compatible printer)',
        options: {},
        columns: 48,
        tables: EPSON_CODE_TABLES,
        table: 2,
        codepage: 'cp850',
      },
      {
        printer: 'Epson TM-T20III',
        options: { printerModel: 'epson-tm-t20iii' },
        columns: 48,
        tables: EPSON_CODE_TABLES,
        table: 2,
        codepage: 'cp850',
      },
      {
        printer: 'Epson TM-T88V',
        options: { printerModel: 'epson-tm-t88v' },
        columns: 42,
        tables: EPSON_CODE_TABLES,
        table: 2,
        codepage: 'cp850',
      },
      {
        printer: 'Star TSP100IV in ESC/POS emulation',
        options: { printerModel: 'star-tsp100iv' },
        columns: 48,
        tables: EPSON_CODE_TABLES,
        table: 2,
        codepage: 'cp850',
      },
      {
        printer: 'generic POS-5890 (58 mm)',
        options: { printerModel: 'pos-5890' },
        columns: 32,
        tables: POS5890_CODE_TABLES,
        table: 2,
        codepage: 'cp850',
      },
      {
        printer: 'HP A779 (its own numbering)',
        options: { printerModel: 'hp-a779' },
        columns: 42,
        tables: HP_CODE_TABLES,
        table: 1,
        codepage: 'cp850',
      },
      {
        printer: 'no model, CP860 forced',
        options: { codepage: 'cp860' },
        columns: 48,
        tables: EPSON_CODE_TABLES,
        table: 3,
        codepage: 'cp860',
      },
      {
        printer: 'no model, Windows-1252 forced',
        options: { codepage: 'windows1252' },
        columns: 42,
        tables: EPSON_CODE_TABLES,
        table: 16,
        codepage: 'windows1252',
      },
      {
        printer: 'no model, ISO-8859-15 forced',
        options: { codepage: 'iso8859-15' },
        columns: 42,
        tables: EPSON_CODE_TABLES,
        table: 40,
        codepage: 'iso8859-15',
      },
      {
        printer: 'Epson TM-m30III, CP858 forced',
        options: { printerModel: 'epson-tm-m30iii', codepage: 'cp858' },
        columns: 48,
        tables: EPSON_CODE_TABLES,
        table: 19,
        codepage: 'cp858',
      },
      {
        printer: 'POS-5890, ISO-8859-1 forced',
        options: { printerModel: 'pos-5890', codepage: 'iso8859-1' },
        columns: 32,
        tables: POS5890_CODE_TABLES,
        table: 6,
        codepage: 'iso8859-1',
      },
      {
        printer: 'HP A779, CP860 forced',
        options: { printerModel: 'hp-a779', codepage: 'cp860' },
        columns: 42,
        tables: HP_CODE_TABLES,
        table: 3,
        codepage: 'cp860',
      },
    ];

    it.each(printers)(
      'come out right on $printer: $codepage, selected as ESC t $table',
      ({ options, columns, tables, table, codepage }) => {
        const decoded = decodeEscPos(encodeEscPos(ACCENTS_DOCUMENT, { ...options, columns }), { codeTables: tables });
        expectPaper(
          decoded,
          plannedPaper(ACCENTS_DOCUMENT, columns),
          decoded.lines.length - textLineCount(ACCENTS_DOCUMENT, columns),
        );
        const selections = decoded.events.filter((e) => e.kind === 'codepage');
        expect(selections.length).toBeGreaterThan(0);
        expect(selections[0]?.afterLines).toBe(0);
        for (const selection of selections) expect(selection).toMatchObject({ table, codepage });
        expect(escPosCodepage({ ...options, columns })).toBe(codepage);
      },
    );

    it('are printed by every model in a code page that has them', () => {
      for (const model of escPosPrinterModels()) {
        const options = { columns: 32, printerModel: model.id } as const;
        expect(ESC_POS_CODEPAGES, model.id).toContain(escPosCodepage(options));
        expect(encodeEscPos(ACCENTS_DOCUMENT, options).length).toBeGreaterThan(0);
      }
    });

    it('print a letter typed as a base letter and a combining accent as the composed letter', () => {
      const decoded = decodeEscPos(
        encodeEscPos({ title: 't', blocks: [{ kind: 'text', text: 'Promoc\u0327a\u0303o' }] }, { columns: 32 }),
      );
      expect(decoded.lines[0]?.text).toBe('Promoção');
    });

    it('print typographic dashes and quotes as their ASCII look-alikes, and what no page has as "?", one for one', () => {
      const text = 'Café “Bom” — 5€ ✓';
      const decoded = decodeEscPos(encodeEscPos({ title: 't', blocks: [{ kind: 'text', text }] }, { columns: 32 }));
      expect(decoded.lines[0]?.text).toBe('Café "Bom" - 5? ?');
      expect(decoded.lines[0]?.text).toHaveLength(text.length);
    });

    it('never send a control character of the text to the printer as a command', () => {
      const text = 'Cliente\u001bp\u0000\u0019\u00fa\u001dV\u0001 fim';
      const decoded = decodeEscPos(
        encodeEscPos({ title: 't', blocks: [{ kind: 'text', text }], cut: false }, { columns: 32 }),
      );
      expect(decoded.lines.map((l) => l.text)).toEqual(['Cliente?p??ú?V? fim']);
      expect(decoded.events.map((e) => e.kind)).toEqual(['initialize', 'codepage']);
    });
  });

  describe('the cut and the cash drawer', () => {
    it('cuts last, after feeding the paper past the cutter, and sends nothing after the cut', () => {
      const bytes = encodeEscPos(RECEIPT, { columns: 48 });
      const decoded = decodeEscPos(bytes);
      const last = decoded.events.at(-1);
      expect(last).toEqual({ kind: 'cut', mode: 'partial', feedUnits: 0, afterLines: decoded.lines.length });
      expect(decoded.lines.length - textLineCount(RECEIPT, 48)).toBe(4);
      expect(decoded.lines.slice(textLineCount(RECEIPT, 48)).every((l) => l.text === '')).toBe(true);
      expect([...bytes.slice(-3)]).toEqual([0x1d, 0x56, 0x01]);
    });

    it("feeds as many lines before the cut as the printer model's cutter needs", () => {
      const decoded = decodeEscPos(encodeEscPos(RECEIPT, { columns: 48, printerModel: 'star-tsp100iv' }));
      expect(decoded.lines.length - textLineCount(RECEIPT, 48)).toBe(3);
      expect(decoded.events.at(-1)?.kind).toBe('cut');
    });

    it('neither feeds nor cuts when the document says not to cut', () => {
      const decoded = decodeEscPos(encodeEscPos({ ...RECEIPT, cut: false }, { columns: 42 }));
      expect(decoded.events.some((e) => e.kind === 'cut')).toBe(false);
      expect(decoded.lines).toHaveLength(textLineCount(RECEIPT, 42));
    });

    it('pulses the drawer (pin 2, 100 ms) after the last line and before the cut, only when asked', () => {
      const opened = decodeEscPos(encodeEscPos({ ...RECEIPT, openDrawer: true }, { columns: 42 }));
      const pulses = opened.events.filter((e) => e.kind === 'pulse');
      expect(pulses).toEqual([
        { kind: 'pulse', pin: 2, onMs: 100, offMs: 500, afterLines: textLineCount(RECEIPT, 42) },
      ]);
      expect(opened.events.at(-1)?.kind).toBe('cut');
      expect(opened.lines.length - textLineCount(RECEIPT, 42)).toBe(4);

      const closed = decodeEscPos(encodeEscPos(RECEIPT, { columns: 42 }));
      expect(closed.events.some((e) => e.kind === 'pulse')).toBe(false);

      const uncut = decodeEscPos(encodeEscPos({ ...RECEIPT, openDrawer: true, cut: false }, { columns: 42 }));
      expect(uncut.events.at(-1)?.kind).toBe('pulse');
      expect(uncut.lines).toHaveLength(textLineCount(RECEIPT, 42));
    });
  });

  describe('barcodes', () => {
    const boleto: PrintDocument = {
      title: 'Boleto',
      blocks: [
        {
          kind: 'barcode',
          symbology: 'itf',
          data: BOLETO_BARCODE,
          caption: '23793.38128 60000.000004 30000.000049 1 84630000012345',
        },
      ],
    };

    it.each([42, 48] as const)(
      'prints the 44 digits of a boleto as an ITF barcode that fits %i-column paper',
      (columns) => {
        expect(BOLETO_BARCODE).toMatch(/^\d{44}$/);
        const decoded = decodeEscPos(encodeEscPos(boleto, { columns }));
        const barcodes = decoded.events.filter((e) => e.kind === 'barcode');
        expect(barcodes).toHaveLength(1);
        expect(barcodes[0]).toMatchObject({
          symbology: 'itf',
          data: BOLETO_BARCODE,
          align: 'center',
          hri: 0,
          moduleWidth: 1,
        });
        // FEBRABAN's 13 mm, about 100 dots at 180–203 dpi.
        expect(barcodes[0]?.height).toBeGreaterThanOrEqual(90);
        expect(barcodes[0]?.height).toBeLessThanOrEqual(120);
        // The caption is the layout's, not the printer's digits (hri 0): it is the line after the bars.
        expect(barcodes[0]?.afterLines).toBe(0);
        expect(decoded.lines[0]?.text.trim()).toBe('23793.38128 60000.000004 30000.000049 1');
      },
    );

    it('refuses a 44-digit ITF barcode on 58 mm paper, where even the thinnest bars do not fit', () => {
      expect(escPosError(() => encodeEscPos(boleto, { columns: 32 })).code).toBe('BARCODE_TOO_WIDE');
    });

    it('prints CODE128 data with a "{" in it, and with wider bars when the paper has room', () => {
      const document: PrintDocument = { title: 't', blocks: [{ kind: 'barcode', symbology: 'code128', data: 'A{1}' }] };
      const [barcode] = decodeEscPos(encodeEscPos(document, { columns: 32 })).events.filter(
        (e) => e.kind === 'barcode',
      );
      expect(barcode).toMatchObject({ symbology: 'code128', data: 'A{1}', hri: 0 });
      expect(barcode?.kind === 'barcode' && barcode.moduleWidth).toBeGreaterThanOrEqual(2);
    });

    it('refuses data the symbology cannot hold', () => {
      const itf = (data: string): PrintDocument => ({
        title: 't',
        blocks: [{ kind: 'barcode', symbology: 'itf', data }],
      });
      expect(escPosError(() => encodeEscPos(itf('12345'), { columns: 48 })).code).toBe('INVALID_CODE_DATA');
      expect(escPosError(() => encodeEscPos(itf('12a4'), { columns: 48 })).code).toBe('INVALID_CODE_DATA');
      const code128: PrintDocument = { title: 't', blocks: [{ kind: 'barcode', symbology: 'code128', data: 'Pão' }] };
      expect(escPosError(() => encodeEscPos(code128, { columns: 48 })).code).toBe('INVALID_CODE_DATA');
    });
  });

  describe('QR codes', () => {
    it('prints a Pix payload as a model 2, level M QR code that fits 58 mm paper', () => {
      const document: PrintDocument = { title: 'Pix', blocks: [{ kind: 'qrcode', data: PIX_PAYLOAD, caption: 'Pix' }] };
      const decoded = decodeEscPos(encodeEscPos(document, { columns: 32 }));
      const codes = decoded.events.filter((e) => e.kind === 'qrcode');
      expect(codes).toHaveLength(1);
      const [qr] = codes;
      expect(qr).toMatchObject({ data: PIX_PAYLOAD, model: 2, errorLevel: 'M', align: 'center', afterLines: 0 });
      // The printer may encode the payload's 137 bytes in byte mode: at level M that takes version 8
      // (up to 152 bytes, ISO/IEC 18004 table 7), 17 + 4 × 8 = 49 modules across.
      expect(PIX_PAYLOAD).toHaveLength(137);
      const modules = 49;
      const moduleSize = qr?.kind === 'qrcode' ? qr.moduleSize : 0;
      // 58 mm paper prints 384 dots; the symbol and its 4-module quiet zones fit, with modules a phone reads (≥ 3 dots).
      expect(moduleSize * (modules + 8)).toBeLessThanOrEqual(384);
      expect(moduleSize).toBeGreaterThanOrEqual(3);
      expect(decoded.lines[0]?.text.trim()).toBe('Pix');
    });

    it('refuses a QR code on a printer that cannot print one, and data that is not ASCII', () => {
      const pix: PrintDocument = { title: 'Pix', blocks: [{ kind: 'qrcode', data: PIX_PAYLOAD }] };
      expect(escPosError(() => encodeEscPos(pix, { columns: 42, printerModel: 'epson-tm-t88ii' })).code).toBe(
        'UNSUPPORTED_CODE',
      );
      const accented: PrintDocument = { title: 'Pix', blocks: [{ kind: 'qrcode', data: 'São Paulo' }] };
      expect(escPosError(() => encodeEscPos(accented, { columns: 42 })).code).toBe('INVALID_CODE_DATA');
    });
  });

  describe('options', () => {
    it('refuses an unknown printer model, naming the known ones', () => {
      const error = escPosError(() => encodeEscPos(RECEIPT, { columns: 48, printerModel: 'epson-tm-t1000' }));
      expect(error.code).toBe('UNKNOWN_PRINTER_MODEL');
      expect(error.message).toContain('epson-tm-t1000');
      expect(error.message).toContain('epson-tm-t20iii');
      expect(error.message).toContain('pos-5890');
    });

    it('refuses a code page without the Portuguese letters, naming the ones to use', () => {
      const error = escPosError(() => encodeEscPos(RECEIPT, { columns: 48, codepage: 'cp437' }));
      expect(error.code).toBe('UNKNOWN_CODEPAGE');
      for (const codepage of ESC_POS_CODEPAGES) expect(error.message).toContain(codepage);
    });

    it("refuses a code page the printer's table does not have", () => {
      const error = escPosError(() => encodeEscPos(RECEIPT, { columns: 48, codepage: 'iso8859-1' }));
      expect(error.code).toBe('UNSUPPORTED_CODEPAGE');
      expect(error.message).toContain('cp850');
    });

    it('refuses a paper wider than the printer prints, and a column count no paper has', () => {
      expect(escPosError(() => encodeEscPos(RECEIPT, { columns: 48, printerModel: 'pos-5890' })).code).toBe(
        'UNSUPPORTED_COLUMNS',
      );
      expect(escPosError(() => encodeEscPos(RECEIPT, { columns: 40 as PaperColumns })).code).toBe(
        'UNSUPPORTED_COLUMNS',
      );
    });
  });

  describe('escPosPrinterModels', () => {
    it("lists the encoder's printer models, the Star ones for their ESC/POS emulation", () => {
      expect(escPosPrinterModels().map((m) => m.id)).toEqual(ReceiptPrinterEncoder.printerModels.map((m) => m.id));
      for (const model of escPosPrinterModels()) {
        expect(model.name).toBe(model.name.trim());
        expect(model.name.length).toBeGreaterThan(0);
        expect(model.name.endsWith('(ESC/POS emulation)')).toBe(model.id.startsWith('star-'));
      }
    });
  });
});

describe('decodeEscPos (test helper)', () => {
  const ESC = 0x1b;
  const GS = 0x1d;
  const LF = 0x0a;

  it('throws on a command it does not understand, with its offset', () => {
    const bytes = Uint8Array.of(ESC, 0x40, 0x4f, 0x4b, LF, ESC, 0x69);
    const error = thrown(() => decodeEscPos(bytes));
    expect(error).toBeInstanceOf(EscPosDecodeError);
    expect((error as EscPosDecodeError).offset).toBe(5);
  });

  it('throws on a command cut short, a code page the table lacks, and a barcode after text in the line', () => {
    expect(thrown(() => decodeEscPos(Uint8Array.of(ESC, 0x74)))).toBeInstanceOf(EscPosDecodeError);
    expect(thrown(() => decodeEscPos(Uint8Array.of(ESC, 0x74, 5)))).toBeInstanceOf(EscPosDecodeError);
    expect(thrown(() => decodeEscPos(Uint8Array.of(0x41, GS, 0x6b, 5, 0x31, 0x32, 0)))).toBeInstanceOf(
      EscPosDecodeError,
    );
    // A hole of Windows-1252 is no character.
    expect(thrown(() => decodeEscPos(Uint8Array.of(ESC, 0x74, 16, 0x81, LF)))).toBeInstanceOf(EscPosDecodeError);
  });

  it('reads text through CP437 at power-on and through each code page selected', () => {
    const bytes = Uint8Array.of(
      ...[ESC, 0x40, 0x87, 0x84, LF],
      ...[ESC, 0x74, 2, 0xc6, 0xe4, 0xb7, LF],
      ...[ESC, 0x74, 3, 0x84, 0x8e, 0x8c, LF],
      ...[ESC, 0x74, 16, 0xe3, 0xc3, 0x97, LF],
      ...[ESC, 0x74, 19, 0xd5, 0xe5, LF],
      ...[ESC, 0x74, 40, 0xa4, 0xd5, LF],
    );
    expect(decodeEscPos(bytes).lines.map((l) => l.text)).toEqual(['çä', 'ãõÀ', 'ãÃÔ', 'ãÃ—', '€Õ', '€Õ']);
    expect(
      decodeEscPos(Uint8Array.of(ESC, 0x74, 6, 0xe3, LF), { codeTables: POS5890_CODE_TABLES }).lines[0]?.text,
    ).toBe('ã');
  });

  it('reads styles, feeds, barcodes, QR codes, the pulse and the cut in order', () => {
    const bytes = Uint8Array.of(
      ...[ESC, 0x40, ESC, 0x45, 1, GS, 0x21, 0x11, 0x41, LF, ESC, 0x45, 0, GS, 0x21, 0, 0x42, LF],
      ...[GS, 0x6b, 73, 4, 0x7b, 0x42, 0x7b, 0x7b, ESC, 0x4a, 10],
      ...[GS, 0x28, 0x6b, 4, 0, 0x31, 0x41, 0x32, 0, GS, 0x28, 0x6b, 3, 0, 0x31, 0x45, 0x31],
      ...[GS, 0x28, 0x6b, 5, 0, 0x31, 0x50, 0x30, 0x68, 0x69, GS, 0x28, 0x6b, 3, 0, 0x31, 0x51, 0x30],
      ...[ESC, 0x70, 0, 50, 250, ESC, 0x64, 2, GS, 0x56, 66, 0],
    );
    const decoded = decodeEscPos(bytes);
    expect(decoded.lines).toEqual([
      { text: 'A', bold: true, width: 2, height: 2, uniform: true, align: 'left', font: 0 },
      { text: 'B', bold: false, width: 1, height: 1, uniform: true, align: 'left', font: 0 },
    ]);
    expect(decoded.events.map((e) => e.kind)).toEqual([
      'initialize',
      'barcode',
      'feed',
      'qrcode',
      'pulse',
      'feed',
      'cut',
    ]);
    expect(decoded.events[1]).toMatchObject({ symbology: 'code128', data: '{' });
    expect(decoded.events[3]).toMatchObject({ data: 'hi', model: 2, errorLevel: 'M', moduleSize: 3 });
    expect(decoded.events[6]).toEqual({ kind: 'cut', mode: 'partial', feedUnits: 0, afterLines: 2 });
  });
});
