/**
 * The boleto as a one-page A4 PDF in Brazilian Portuguese: the payer's receipt ("Recibo do
 * Pagador"), the Pix QR code of a bolepix, and the "Ficha de Compensação" with the ITF barcode
 * the bank's scanners read. Every page says it is a sandbox document without value; a paid or
 * cancelled boleto carries a stamp.
 *
 * The barcode and the QR code are drawn as vectors from bwip-js's symbol data, so they stay
 * sharp at any print resolution. The ITF follows FEBRABAN's proportions: narrow element
 * 0.254 mm, wide = 3 × narrow, height 13 mm (≈ 103 mm long for 44 digits).
 */
import bwipjs from 'bwip-js';
import PDFDocument from 'pdfkit';
import { formatBrl, formatDateBr, formatTaxId, taxIdKind } from '../../locale/br-format.js';

export type BoletoPdfStatus = 'not_paid' | 'paid' | 'canceled';

export interface BoletoPdfParty {
  readonly name: string;
  /** CPF or CNPJ (numeric or alphanumeric), without punctuation (it is added). */
  readonly taxId?: string | null;
  readonly addressLines?: readonly string[];
}

export interface BoletoPdfInput {
  /** "341" */
  readonly bankCode: string;
  /** "Itaú" */
  readonly bankName: string;
  readonly barcode: string;
  readonly digitableLine: string;
  /** As printed, e.g. "109/00000042-3". */
  readonly nossoNumero: string;
  /** "0057 / 12345-7" */
  readonly agenciaCodigo: string;
  readonly carteira: string;
  /** The seller's document number (reference id). */
  readonly documentNumber: string;
  /** YYYY-MM-DD */
  readonly documentDate: string;
  /** YYYY-MM-DD */
  readonly dueDate: string;
  /** YYYY-MM-DD: last day payment is accepted. */
  readonly paymentLimitDate?: string | null;
  /** Integer centavos. */
  readonly amountCentavos: number;
  readonly beneficiary: BoletoPdfParty;
  readonly payer: BoletoPdfParty;
  readonly description?: string | null;
  /** Already worded instruction lines (late fee, interest, discounts, free text). */
  readonly instructions: readonly string[];
  readonly status: BoletoPdfStatus;
  /** ISO timestamp of the payment. */
  readonly paidAt?: string | null;
  /** Bolepix: the Pix payload and when it stops being payable (ISO timestamp). */
  readonly pix?: { readonly copyAndPaste: string; readonly expiresAt?: string | null } | null;
}

export interface RenderBoletoPdfOptions {
  /** Deflate the content streams (default true; tests read the text with false). */
  readonly compress?: boolean;
}

const MM = 72 / 25.4;
const PAGE_MARGIN = 28;
const LABEL_SIZE = 6.5;
const VALUE_SIZE = 9;
const RIGHT_COLUMN = 150;

type Doc = PDFKit.PDFDocument;

/** A labelled cell of the boleto grid. */
function cell(
  doc: Doc,
  x: number,
  y: number,
  w: number,
  h: number,
  label: string,
  value: string,
  options: { align?: 'left' | 'right'; bold?: boolean; size?: number } = {},
): void {
  doc.lineWidth(0.5).strokeColor('#000').rect(x, y, w, h).stroke();
  doc
    .font('Helvetica')
    .fontSize(LABEL_SIZE)
    .fillColor('#333')
    .text(label, x + 3, y + 2, { width: w - 6, lineBreak: false });
  doc
    .font(options.bold ? 'Helvetica-Bold' : 'Helvetica')
    .fontSize(options.size ?? VALUE_SIZE)
    .fillColor('#000')
    .text(value, x + 3, y + h - (options.size ?? VALUE_SIZE) - 3, {
      width: w - 6,
      align: options.align ?? 'left',
      lineBreak: false,
      ellipsis: true,
    });
}

/** Bank header: name | code-DV | right-hand text (the digitable line or a title). */
function bankHeader(doc: Doc, input: BoletoPdfInput, y: number, right: string, rightSize: number): number {
  const x = PAGE_MARGIN;
  const width = doc.page.width - 2 * PAGE_MARGIN;
  doc
    .font('Helvetica-Bold')
    .fontSize(14)
    .fillColor('#000')
    .text(input.bankName, x, y + 4, { width: 110, lineBreak: false });
  doc
    .moveTo(x + 112, y)
    .lineTo(x + 112, y + 22)
    .lineWidth(1)
    .stroke();
  doc
    .font('Helvetica-Bold')
    .fontSize(14)
    .text(`${input.bankCode}-${bankCodeDigit(input.bankCode)}`, x + 116, y + 4, {
      width: 50,
      lineBreak: false,
    });
  doc
    .moveTo(x + 168, y)
    .lineTo(x + 168, y + 22)
    .stroke();
  doc
    .font('Helvetica-Bold')
    .fontSize(rightSize)
    .text(right, x + 172, y + 22 - rightSize - 4, {
      width: width - 172,
      align: 'right',
      lineBreak: false,
    });
  doc
    .moveTo(x, y + 22)
    .lineTo(x + width, y + 22)
    .lineWidth(1)
    .stroke();
  return y + 24;
}

/** The bank code's check digit as banks print it ("341-7"): modulo 11, weights 2..9 from the right. */
function bankCodeDigit(bankCode: string): string {
  let sum = 0;
  let weight = 2;
  for (let i = bankCode.length - 1; i >= 0; i--) {
    sum += Number(bankCode[i]) * weight;
    weight = weight === 9 ? 2 : weight + 1;
  }
  const dv = 11 - (sum % 11);
  return dv >= 10 ? '0' : String(dv);
}

function partyText(party: BoletoPdfParty): string {
  const taxId = party.taxId ? ` — ${taxIdKind(party.taxId)} ${formatTaxId(party.taxId)}` : '';
  return `${party.name}${taxId}`;
}

/** The ITF (interleaved 2 of 5) barcode, drawn bar by bar. */
function drawItf(doc: Doc, barcode: string, x: number, y: number): void {
  const symbol = bwipjs.raw({ bcid: 'interleaved2of5', text: barcode })[0];
  if (!symbol || !('sbs' in symbol)) throw new Error('bwip-js returned no ITF bars');
  const narrow = 0.254 * MM;
  const height = 13 * MM;
  let at = x;
  doc.fillColor('#000');
  symbol.sbs.forEach((modules, index) => {
    // bwip-js marks narrow elements 1 and wide ones 2; FEBRABAN wants wide = 3 × narrow.
    const width = (modules === 1 ? 1 : 3) * narrow;
    if (index % 2 === 0 && modules > 0) doc.rect(at, y, width, height).fill();
    at += width;
  });
}

/** A QR code of `text` drawn as filled modules, `size` points wide. */
function drawQr(doc: Doc, text: string, x: number, y: number, size: number): void {
  const symbol = bwipjs.raw('qrcode', text, 'eclevel=M')[0];
  if (!symbol || !('pixs' in symbol)) throw new Error('bwip-js returned no QR modules');
  const module = size / symbol.pixx;
  doc.fillColor('#000');
  for (let row = 0; row < symbol.pixy; row++) {
    let run = -1;
    for (let col = 0; col <= symbol.pixx; col++) {
      const dark = col < symbol.pixx && symbol.pixs[row * symbol.pixx + col] === 1;
      if (dark && run < 0) run = col;
      if (!dark && run >= 0) {
        doc.rect(x + run * module, y + row * module, (col - run) * module, module).fill();
        run = -1;
      }
    }
  }
}

function sandboxMark(doc: Doc): void {
  doc.save();
  doc.rotate(-35, { origin: [doc.page.width / 2, doc.page.height / 2] });
  doc
    .font('Helvetica-Bold')
    .fontSize(56)
    .fillColor('#d0d0d0')
    .fillOpacity(0.45)
    .text('SANDBOX — SEM VALOR', -150, doc.page.height / 2 - 28, {
      width: doc.page.width + 300,
      align: 'center',
      lineBreak: false,
    });
  doc.restore();
  doc.fillOpacity(1);
}

function statusStamp(doc: Doc, input: BoletoPdfInput, centerY: number): void {
  if (input.status === 'not_paid') return;
  const paid = input.status === 'paid';
  const color = paid ? '#1a7f37' : '#c62828';
  const title = paid ? 'PAGO' : 'CANCELADO';
  const detail = paid && input.paidAt ? `em ${formatDateBr(input.paidAt)}` : paid ? '' : 'não pague este boleto';
  const width = 360;
  const x = (doc.page.width - width) / 2;
  doc.save();
  doc.rotate(-12, { origin: [doc.page.width / 2, centerY] });
  doc
    .lineWidth(4)
    .strokeColor(color)
    .strokeOpacity(0.85)
    .roundedRect(x, centerY - 45, width, 90, 10)
    .stroke();
  doc.font('Helvetica-Bold').fontSize(48).fillColor(color).fillOpacity(0.85);
  doc.text(title, x, centerY - 36, { width, align: 'center', lineBreak: false });
  if (detail) doc.fontSize(14).text(detail, x, centerY + 18, { width, align: 'center', lineBreak: false });
  doc.restore();
  doc.fillOpacity(1).strokeOpacity(1);
}

/** Payer's receipt: the top part the payer keeps. Returns the y below it. */
function payerReceipt(doc: Doc, input: BoletoPdfInput, top: number): number {
  const x = PAGE_MARGIN;
  const width = doc.page.width - 2 * PAGE_MARGIN;
  const left = width - RIGHT_COLUMN;
  let y = bankHeader(doc, input, top, 'Recibo do Pagador', 11);
  const row = 24;
  cell(doc, x, y, left, row, 'Beneficiário', partyText(input.beneficiary));
  cell(doc, x + left, y, RIGHT_COLUMN, row, 'Vencimento', formatDateBr(input.dueDate), { align: 'right', bold: true });
  y += row;
  cell(doc, x, y, left, row, 'Pagador', partyText(input.payer));
  cell(doc, x + left, y, RIGHT_COLUMN, row, 'Agência / Código do Beneficiário', input.agenciaCodigo, {
    align: 'right',
  });
  y += row;
  const third = left / 3;
  cell(doc, x, y, third, row, 'Número do documento', input.documentNumber);
  cell(doc, x + third, y, third, row, 'Data do documento', formatDateBr(input.documentDate));
  cell(doc, x + 2 * third, y, third, row, 'Nosso número', input.nossoNumero);
  cell(doc, x + left, y, RIGHT_COLUMN, row, 'Valor do documento', formatBrl(input.amountCentavos), {
    align: 'right',
    bold: true,
  });
  y += row;
  cell(doc, x, y, width, row, 'Linha digitável', input.digitableLine, { bold: true });
  y += row;
  if (input.description) {
    cell(doc, x, y, width, row, 'Descrição', input.description);
    y += row;
  }
  return y;
}

/** The Pix part of a bolepix. Returns the y below it. */
function pixSection(doc: Doc, pix: NonNullable<BoletoPdfInput['pix']>, top: number): number {
  const x = PAGE_MARGIN;
  const width = doc.page.width - 2 * PAGE_MARGIN;
  const qrSize = 110;
  const height = qrSize + 16;
  doc.lineWidth(0.5).strokeColor('#000').rect(x, top, width, height).stroke();
  drawQr(doc, pix.copyAndPaste, x + 8, top + 8, qrSize);
  const textX = x + qrSize + 20;
  const textWidth = width - qrSize - 28;
  doc
    .font('Helvetica-Bold')
    .fontSize(11)
    .fillColor('#000')
    .text('Pague com Pix', textX, top + 10, { width: textWidth });
  doc
    .font('Helvetica')
    .fontSize(8)
    .text('Aponte a câmera do app do seu banco para o QR Code ou use o Pix Copia e Cola:', textX, top + 26, {
      width: textWidth,
    });
  doc
    .font('Courier')
    .fontSize(6.5)
    .text(pix.copyAndPaste, textX, top + 40, { width: textWidth, lineBreak: true });
  if (pix.expiresAt) {
    doc
      .font('Helvetica')
      .fontSize(7)
      .text(
        `QR Code válido até ${formatDateBr(pix.expiresAt)} ${pix.expiresAt.slice(11, 16)} (UTC).`,
        textX,
        top + height - 16,
        {
          width: textWidth,
          lineBreak: false,
        },
      );
  }
  return top + height;
}

function cutLine(doc: Doc, y: number): void {
  const width = doc.page.width - 2 * PAGE_MARGIN;
  doc
    .lineWidth(0.5)
    .dash(3, { space: 3 })
    .moveTo(PAGE_MARGIN, y)
    .lineTo(PAGE_MARGIN + width, y)
    .stroke()
    .undash();
  doc
    .font('Helvetica')
    .fontSize(6)
    .fillColor('#555')
    .text('Corte na linha pontilhada', PAGE_MARGIN, y + 2, {
      width,
      align: 'right',
      lineBreak: false,
    });
}

/** The compensation slip the bank processes. Returns the y below it. */
function compensationSlip(doc: Doc, input: BoletoPdfInput, top: number): number {
  const x = PAGE_MARGIN;
  const width = doc.page.width - 2 * PAGE_MARGIN;
  const left = width - RIGHT_COLUMN;
  const right = x + left;
  const row = 24;
  let y = bankHeader(doc, input, top, input.digitableLine, 10.5);

  const until = input.paymentLimitDate ? formatDateBr(input.paymentLimitDate) : formatDateBr(input.dueDate);
  cell(doc, x, y, left, row, 'Local de pagamento', `Pagável em qualquer banco até ${until}.`);
  cell(doc, right, y, RIGHT_COLUMN, row, 'Vencimento', formatDateBr(input.dueDate), { align: 'right', bold: true });
  y += row;
  cell(doc, x, y, left, row, 'Beneficiário', partyText(input.beneficiary));
  cell(doc, right, y, RIGHT_COLUMN, row, 'Agência / Código do Beneficiário', input.agenciaCodigo, { align: 'right' });
  y += row;
  const five = [0.2, 0.24, 0.14, 0.12, 0.3].map((share) => share * left);
  const row3: Array<[string, string]> = [
    ['Data do documento', formatDateBr(input.documentDate)],
    ['Nº do documento', input.documentNumber],
    ['Espécie doc.', 'DM'],
    ['Aceite', 'N'],
    ['Data do processamento', formatDateBr(input.documentDate)],
  ];
  let cx = x;
  row3.forEach(([label, value], i) => {
    cell(doc, cx, y, five[i] ?? 0, row, label, value);
    cx += five[i] ?? 0;
  });
  cell(doc, right, y, RIGHT_COLUMN, row, 'Nosso número', input.nossoNumero, { align: 'right' });
  y += row;
  const row4: Array<[string, string]> = [
    ['Uso do banco', ''],
    ['Carteira', input.carteira],
    ['Espécie', 'R$'],
    ['Quantidade', ''],
    ['Valor', ''],
  ];
  cx = x;
  row4.forEach(([label, value], i) => {
    cell(doc, cx, y, five[i] ?? 0, row, label, value);
    cx += five[i] ?? 0;
  });
  cell(doc, right, y, RIGHT_COLUMN, row, '(=) Valor do documento', formatBrl(input.amountCentavos), {
    align: 'right',
    bold: true,
  });
  y += row;

  // Instructions (left, tall) beside the deduction / addition boxes (right).
  const boxes = [
    '(-) Desconto / Abatimento',
    '(-) Outras deduções',
    '(+) Mora / Multa',
    '(+) Outros acréscimos',
    '(=) Valor cobrado',
  ];
  const instructionsHeight = boxes.length * row;
  doc.lineWidth(0.5).rect(x, y, left, instructionsHeight).stroke();
  doc
    .font('Helvetica')
    .fontSize(LABEL_SIZE)
    .fillColor('#333')
    .text('Instruções (texto de responsabilidade do beneficiário)', x + 3, y + 2, {
      width: left - 6,
      lineBreak: false,
    });
  const lines = input.instructions.length > 0 ? input.instructions : ['Não receber após a data limite de pagamento.'];
  doc
    .font('Helvetica')
    .fontSize(8)
    .fillColor('#000')
    .text(lines.join('\n'), x + 3, y + 12, { width: left - 6, height: instructionsHeight - 14, ellipsis: true });
  boxes.forEach((label, i) => cell(doc, right, y + i * row, RIGHT_COLUMN, row, label, ''));
  y += instructionsHeight;

  // Payer: name + tax id, then the address.
  const address = input.payer.addressLines ?? [];
  const payerHeight = 26 + 10 * Math.max(address.length, 1);
  doc.lineWidth(0.5).rect(x, y, width, payerHeight).stroke();
  doc
    .font('Helvetica')
    .fontSize(LABEL_SIZE)
    .fillColor('#333')
    .text('Pagador', x + 3, y + 2, { lineBreak: false });
  doc
    .font('Helvetica')
    .fontSize(VALUE_SIZE)
    .fillColor('#000')
    .text(partyText(input.payer), x + 3, y + 12, {
      width: width - 6,
      lineBreak: false,
      ellipsis: true,
    });
  doc
    .fontSize(8)
    .text(address.length > 0 ? address.join('\n') : 'Endereço não informado', x + 3, y + 24, { width: width - 6 });
  y += payerHeight;

  doc
    .font('Helvetica')
    .fontSize(LABEL_SIZE)
    .fillColor('#333')
    .text('Autenticação mecânica — Ficha de Compensação', x, y + 3, {
      width,
      align: 'right',
      lineBreak: false,
    });
  drawItf(doc, input.barcode, x + 4, y + 14);
  return y + 14 + 13 * MM;
}

/** Characters the standard PDF fonts can show (WinAnsiEncoding = Windows-1252). */
const CP1252_EXTRAS = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
const isWinAnsi = (ch: string): boolean => {
  const code = ch.codePointAt(0) ?? 0;
  return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || CP1252_EXTRAS.has(ch);
};

/**
 * Text from buyers and sellers as the standard fonts can draw it: accents kept where
 * Windows-1252 has them, stripped where it does not (ő → o), anything else as "?". Without
 * this pdfkit would write wrong glyphs for, say, CJK names.
 */
export function toWinAnsi(text: string): string {
  let out = '';
  for (const ch of text.replace(/[\r\n\t]+/g, ' ')) {
    if (isWinAnsi(ch)) out += ch;
    else {
      const base = ch.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
      out += base.length > 0 && [...base].every(isWinAnsi) ? base : '?';
    }
  }
  return out;
}

const safeParty = (party: BoletoPdfParty): BoletoPdfParty => ({
  name: toWinAnsi(party.name),
  taxId: party.taxId ?? null,
  addressLines: (party.addressLines ?? []).map(toWinAnsi),
});

/** Renders the boleto; resolves with the PDF bytes. */
export function renderBoletoPdf(raw: BoletoPdfInput, options: RenderBoletoPdfOptions = {}): Promise<Buffer> {
  const input: BoletoPdfInput = {
    ...raw,
    documentNumber: toWinAnsi(raw.documentNumber),
    beneficiary: safeParty(raw.beneficiary),
    payer: safeParty(raw.payer),
    description: raw.description ? toWinAnsi(raw.description) : null,
    instructions: raw.instructions.map(toWinAnsi),
  };
  return new Promise<Buffer>((resolve, reject) => {
    const doc = new PDFDocument({
      size: 'A4',
      margin: PAGE_MARGIN,
      compress: options.compress ?? true,
      info: {
        Title: `Boleto ${input.nossoNumero} — SANDBOX, sem valor`,
        Subject: `Boleto de ${formatBrl(input.amountCentavos)} com vencimento em ${formatDateBr(input.dueDate)}`,
        Author: input.beneficiary.name,
        Producer: 'Pinbridge payments sandbox',
      },
    });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    try {
      sandboxMark(doc);
      doc
        .font('Helvetica-Bold')
        .fontSize(9)
        .fillColor('#c62828')
        .text(
          'SANDBOX — SEM VALOR. Documento de teste: não pague, não é um boleto registrado.',
          PAGE_MARGIN,
          PAGE_MARGIN - 14,
          {
            width: doc.page.width - 2 * PAGE_MARGIN,
            align: 'center',
            lineBreak: false,
          },
        );
      let y = payerReceipt(doc, input, PAGE_MARGIN + 4);
      const receiptBottom = y;
      if (input.pix) y = pixSection(doc, input.pix, y + 10);
      y += 16;
      cutLine(doc, y);
      y = compensationSlip(doc, input, y + 18);
      statusStamp(doc, input, (PAGE_MARGIN + receiptBottom) / 2 + 10);
      statusStamp(doc, input, y - 150);
      doc.end();
    } catch (error) {
      reject(error instanceof Error ? error : new Error(String(error)));
    }
  });
}
