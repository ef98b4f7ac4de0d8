/**
 * The receipt of a Pix received at the counter ("COMPROVANTE DE PAGAMENTO PIX"): what the
 * customer reads on it, on the store's clock, and how the receipt service prints it by itself —
 * over TCP to a simulated ESC/POS printer, read back off the paper — once per transaction, also
 * across a restart, following the auto-print setting, never throwing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PaperColumns } from '../../../drivers/printers/document.js';
import { encodeEscPos } from '../../../drivers/printers/escpos.js';
import { Journal } from '../../../main/core/journal/journal.js';
import type { ReceiptCopy } from '../../../main/receipts/card-receipt.js';
import { PrintJournal, type PrintJob } from '../../../main/receipts/print-jobs.js';
import { PrintQueue } from '../../../main/receipts/print-queue.js';
import { SettingsPrinter } from '../../../main/receipts/printers.js';
import { pixReceiptDocument, type PixPaidReceipt } from '../../../main/receipts/pix-receipt.js';
import { pixPaidSubject, ReceiptService } from '../../../main/receipts/service.js';
import type { ReceiptSettings } from '../../../main/receipts/settings.js';
import { decodeEscPos, EPSON_CODE_TABLES } from '../../helpers/escpos-decode.js';
import { PrinterSimulator } from '../../helpers/printer-sim.js';

// Manaus keeps UTC-4 all year.
const settings: ReceiptSettings = {
  merchant: { name: 'PADARIA PÃO DOURADO LTDA', cnpj: '11222333000181', address: ['Av. Djalma Batista, 100'] },
  time_zone: 'America/Manaus',
  footer: 'Obrigado pela preferência!',
};

const E2E = 'E18236120202611291503s0a1b2c3d4e';
const paidByPix: PixPaidReceipt = {
  transactionId: '0123456789abcdef0123456789abcdef',
  terminal: 'PB-CAIXA-1',
  amount: 15_000,
  via: 'pix',
  paidAt: '2026-11-29T15:03:27-03:00',
  endToEndId: E2E,
};
const learnedAt = new Date('2026-11-29T18:04:10Z');

/** The lines of paper, trimmed, without blank lines and rules. */
function paperLines(bytes: Uint8Array): string[] {
  return decodeEscPos(bytes, { codeTables: EPSON_CODE_TABLES })
    .lines.map((line) => line.text.trim())
    .filter((text) => text !== '' && !/^[-=]+$/.test(text));
}
const printed = (paid: PixPaidReceipt, columns: PaperColumns, training = false): string[] =>
  paperLines(encodeEscPos(pixReceiptDocument(paid, { settings, learnedAt, training }), { columns }));

describe('the receipt of a Pix received', () => {
  it("says the store received a Pix, how much, when (the provider's time on the store's clock) and its ids, whole on 58 mm paper", () => {
    const lines = printed(paidByPix, 32);
    expect(lines.slice(0, 5)).toEqual([
      'PADARIA PÃO DOURADO LTDA',
      'CNPJ 11.222.333/0001-81',
      'Av. Djalma Batista, 100',
      'COMPROVANTE DE PAGAMENTO PIX',
      'VIA DO CLIENTE',
    ]);
    expect(lines).toContain(`FORMA${' '.repeat(24)}PIX`);
    // 15:03:27 in São Paulo (UTC-3) is 14:03:27 in Manaus.
    expect(lines).toContain(`PAGO EM${' '.repeat(6)}29/11/2026 14:03:27`);
    expect(lines.join('\n')).not.toContain('CONFIRMADO EM');
    // The ids are read out over the phone: each whole on a line of its own.
    expect(lines.slice(lines.indexOf('ID PIX (END TO END)'), lines.indexOf('ID PIX (END TO END)') + 2)).toEqual([
      'ID PIX (END TO END)',
      E2E,
    ]);
    expect(lines.slice(lines.indexOf('ID DA TRANSAÇÃO'), lines.indexOf('ID DA TRANSAÇÃO') + 2)).toEqual([
      'ID DA TRANSAÇÃO',
      paidByPix.transactionId,
    ]);
    expect(lines).toContain('VALOR                  R$ 150,00');
    expect(lines).toContain('PIX RECEBIDO');
    expect(lines.at(-1)).toBe('Obrigado pela preferência!');
  });

  it('says when Pinbridge learned of it when the provider gave no time, as "confirmed at", not "paid at"', () => {
    const lines = printed({ ...paidByPix, paidAt: null }, 48);
    expect(lines.join('\n')).not.toContain('PAGO EM');
    expect(lines.find((line) => line.startsWith('CONFIRMADO EM'))).toMatch(/^CONFIRMADO EM +29\/11\/2026 14:04:10$/);
  });

  it('names a bolepix paid as a boleto for what it is: a payment received, by boleto, without a Pix id', () => {
    const lines = printed({ ...paidByPix, via: 'boleto', endToEndId: null, paidAt: '2026-11-29T12:00:00-03:00' }, 48);
    expect(lines).toContain('COMPROVANTE DE PAGAMENTO');
    expect(lines.join('\n')).not.toMatch(/PIX/);
    expect(lines.find((line) => line.startsWith('FORMA'))).toMatch(/BOLETO$/);
    expect(lines).toContain('PAGAMENTO RECEBIDO');
  });

  it('is marked as training at its top and bottom in training mode', () => {
    const lines = printed(paidByPix, 32, true);
    expect(lines[0]).toBe('TREINAMENTO - SEM VALOR');
    expect(lines.at(-1)).toBe('TREINAMENTO - SEM VALOR');
  });
});

describe('printed by itself when a Pix is received', () => {
  let dir: string;
  let sim: PrinterSimulator;
  let closers: (() => Promise<void> | void)[];

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pinbridge-pix-receipt-'));
    sim = await PrinterSimulator.listen();
    closers = [];
  });
  afterEach(async () => {
    for (const close of closers.reverse()) await close();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The agent's printing, opened on the same print journal each time (a restart opens it again). */
  function start(options: { autoPrint?: readonly ReceiptCopy[]; queue?: false; time_zone?: string } = {}): {
    service: ReceiptService;
    queue: PrintQueue;
  } {
    const payments = Journal.open(':memory:');
    const printer = new SettingsPrinter({ address: sim.address, model: 'epson-tm-t20iii', columns: 42 });
    const prints = PrintJournal.open(join(dir, 'print-jobs.db'));
    const queue = new PrintQueue({ journal: prints, printer: (name) => (name === 'default' ? printer : undefined) });
    queue.start();
    closers.push(
      () => payments.close(),
      () => prints.close(),
      () => printer.close(),
      () => queue.close(),
    );
    const service = new ReceiptService({
      journal: payments,
      settings: options.time_zone === undefined ? settings : { ...settings, time_zone: options.time_zone },
      training: false,
      ...(options.queue === false ? {} : { queue }),
      ...(options.autoPrint === undefined ? {} : { autoPrint: options.autoPrint }),
      now: () => learnedAt,
    });
    return { service, queue };
  }

  const printedJob = (queue: PrintQueue, job: PrintJob): Promise<void> =>
    new Promise((resolve) => {
      if (queue.journal.get(job.id)?.state === 'printed') return resolve();
      const check = (changed: PrintJob): void => {
        if (changed.id !== job.id || changed.state !== 'printed') return;
        queue.off('job', check);
        resolve();
      };
      queue.on('job', check);
    });

  it("prints the customer's receipt once per transaction: not for a second 'paid', not after a restart", async () => {
    const first = start();
    const job = first.service.printPixPaid(paidByPix);
    expect(job).toMatchObject({ subject: pixPaidSubject(paidByPix.transactionId), printer: 'default' });
    expect(first.service.printPixPaid(paidByPix)).toBeNull();
    await printedJob(first.queue, job!);
    await sim.waitForPrinted(1);
    const again = start();
    expect(again.service.printPixPaid(paidByPix)).toBeNull();
    // One receipt on the paper, the customer's, as the document lays it out for this printer.
    const decoded = decodeEscPos(sim.printed, { codeTables: EPSON_CODE_TABLES });
    expect(decoded.events.filter((event) => event.kind === 'cut')).toHaveLength(1);
    const lines = paperLines(sim.printed);
    expect(lines.filter((line) => line === 'COMPROVANTE DE PAGAMENTO PIX')).toHaveLength(1);
    expect(lines).toEqual(
      paperLines(encodeEscPos(pixReceiptDocument(paidByPix, { settings, learnedAt }), { columns: 42 })),
    );
    expect(first.queue.journal.list({ subject: pixPaidSubject(paidByPix.transactionId) })).toHaveLength(1);
  });

  it('prints nothing by itself when auto_print leaves out the customer, or there is no printer', () => {
    expect(start({ autoPrint: [] }).service.printPixPaid(paidByPix)).toBeNull();
    expect(start({ autoPrint: ['merchant'] }).service.printPixPaid(paidByPix)).toBeNull();
    expect(start({ queue: false }).service.printPixPaid(paidByPix)).toBeNull();
    const { queue, service } = start({ autoPrint: ['customer'] });
    expect(queue.journal.list({})).toEqual([]);
    expect(service.printPixPaid(paidByPix)).not.toBeNull();
  });

  it('never throws: a receipt that cannot be built goes to onError and nothing is queued', () => {
    const { queue, service } = start({ time_zone: 'Mars/Olympus_Mons' });
    const errors: unknown[] = [];
    expect(service.printPixPaid(paidByPix, (error) => errors.push(error))).toBeNull();
    expect(errors).toEqual([expect.objectContaining({ code: 'INVALID_SETTINGS' })]);
    expect(queue.journal.list({})).toEqual([]);
  });
});
