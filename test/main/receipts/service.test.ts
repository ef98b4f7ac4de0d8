/**
 * Receipts end to end with real parts: a payment on the simulated PINPAD against the sandbox,
 * its receipts built from the journal, queued in the print journal and printed over TCP to a
 * simulated ESC/POS printer, whose bytes are decoded back to the lines of paper.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { layout, renderText } from '../../../drivers/printers/layout.js';
import { PrintJournal, type PrintJob, type PrintJobState } from '../../../main/receipts/print-jobs.js';
import { PrintQueue } from '../../../main/receipts/print-queue.js';
import { SettingsPrinter } from '../../../main/receipts/printers.js';
import { ReceiptService } from '../../../main/receipts/service.js';
import type { ReceiptSettings } from '../../../main/receipts/settings.js';
import { decodeEscPos, EPSON_CODE_TABLES, type DecodedEscPos } from '../../helpers/escpos-decode.js';
import { PrinterSimulator } from '../../helpers/printer-sim.js';
import { engineRig, saleParams, type EngineRig } from '../core/engine-rig.js';
import type { EngineConfig } from '../../../main/core/engine.js';

const settings: ReceiptSettings = {
  merchant: { name: 'PADARIA PÃO DOURADO LTDA', cnpj: '11222333000181', address: ['Av. São João, 1000 - Centro'] },
};

interface Rig {
  readonly engine: EngineRig;
  readonly sim: PrinterSimulator;
  readonly queue: PrintQueue;
  readonly service: ReceiptService;
  readonly printed: (id: string) => Promise<PrintJob>;
}

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function open(config: Partial<EngineConfig> = {}): Promise<Rig> {
  const engine = await engineRig({
    simulator: { timeScale: 0.05, autoCustomer: { delayMs: 5, card: 'visaCredit' } },
    config,
  });
  await engine.addPinpad('PB-RECEIPT-1');
  const sim = await PrinterSimulator.listen();
  const printer = new SettingsPrinter({ address: sim.address, model: 'epson-tm-t20iii', columns: 42 });
  const prints = PrintJournal.open(join(engine.journalPath, '..', 'print-jobs.db'));
  const queue = new PrintQueue({
    journal: prints,
    printer: (name) => (name === 'default' ? printer : undefined),
    retryBaseMs: 10,
    retryMaxMs: 50,
    maxAttempts: 1000,
  });
  const service = new ReceiptService({ journal: engine.journal, settings, training: false, queue });
  engine.engine.on('progress', (event) => service.onProgress(event));
  close = async () => {
    await queue.close();
    await printer.close();
    prints.close();
    await sim.close();
    await engine.close();
  };
  const printed = (id: string): Promise<PrintJob> =>
    new Promise((resolve) => {
      const check = (job: PrintJob): void => {
        if (job.id === id && job.state === 'printed') {
          queue.off('job', check);
          resolve(job);
        }
      };
      const now = prints.get(id);
      if (now?.state === 'printed') resolve(now);
      else queue.on('job', check);
    });
  return { engine, sim, queue, service, printed };
}

/** The jobs of a reference, oldest first, once `count` of them reached `state`. */
async function jobsOf(rig: Rig, reference: string, count: number, state: PrintJobState): Promise<PrintJob[]> {
  for (;;) {
    const jobs = rig.queue.journal
      .list({})
      .filter((job) => job.subject.startsWith(`payment:${reference}:`))
      .reverse();
    if (jobs.filter((job) => job.state === state).length >= count) return jobs;
    await new Promise((resolve) => rig.queue.once('job', resolve));
  }
}

/** The decoded paper, one entry per cut (without the blank lines fed to reach the cutter). */
function receiptsOnPaper(bytes: Uint8Array): string[][] {
  const decoded: DecodedEscPos = decodeEscPos(bytes, { codeTables: EPSON_CODE_TABLES });
  const cuts = decoded.events.filter((e) => e.kind === 'cut').map((e) => e.afterLines);
  const texts = decoded.lines.map((line) => line.text.trimEnd());
  return cuts.map((end, i) => {
    const receipt = texts.slice(i === 0 ? 0 : cuts[i - 1], end);
    while (receipt.at(-1) === '') receipt.pop();
    return receipt;
  });
}

/**
 * The receipts on the simulated printer's paper from byte `from` on, once `count` are there: a
 * job is `printed` when its bytes are written to the socket, a moment before the printer has them.
 */
async function paper(sim: PrinterSimulator, count: number, from = 0): Promise<string[][]> {
  for (let waited = 0; ; waited += 10) {
    const receipts = receiptsOnPaper(sim.printed.subarray(from));
    if (receipts.length >= count || waited > 10_000) return receipts;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const paperLines = (rig: Rig, reference: string, copy: 'customer' | 'merchant', reprint = false): string[] =>
  layout(rig.service.document(reference, copy, { reprint }), 42).lines.flatMap((line) =>
    line.kind === 'text' ? [line.text] : [],
  );

describe('receipts printed when a payment ends', () => {
  it('prints both copies of an approved sale by itself, the customer copy first, exactly as laid out', async () => {
    const rig = await open();
    const params = saleParams('receipt');
    const outcome = await rig.engine.engine.start(params);
    expect(outcome.status).toBe('approved');
    const jobs = await jobsOf(rig, params.referenceId, 2, 'printed');
    expect(jobs.map((job) => job.subject)).toEqual([
      `payment:${params.referenceId}:sale:customer`,
      `payment:${params.referenceId}:sale:merchant`,
    ]);
    const [customer, merchant] = await paper(rig.sim, 2);
    expect(customer).toEqual(paperLines(rig, params.referenceId, 'customer'));
    expect(merchant).toEqual(paperLines(rig, params.referenceId, 'merchant'));
    expect(customer).toContain('         PADARIA PÃO DOURADO LTDA');
    expect(customer!.join('\n')).toMatch(/VIA DO CLIENTE[\s\S]*411111\*{6}1111[\s\S]*APROVADA/);
    expect(merchant!.join('\n')).toContain('VIA DO ESTABELECIMENTO');
  });

  it('keeps the receipts while the printer is out of paper, without holding the payment, and prints them once the roll is in', async () => {
    const rig = await open();
    rig.sim.set({ paperOut: true });
    const params = saleParams('paper-out');
    expect((await rig.engine.engine.start(params)).status).toBe('approved');
    const waiting = await jobsOf(rig, params.referenceId, 0, 'queued');
    await new Promise<void>((resolve) => {
      const check = (job: PrintJob): void => {
        if (job.lastError?.code === 'PAPER_OUT') {
          rig.queue.off('job', check);
          resolve();
        }
      };
      rig.queue.on('job', check);
    });
    expect(rig.sim.printed.length).toBe(0);
    rig.sim.set({ paperOut: false });
    await Promise.all(waiting.map((job) => rig.printed(job.id)));
    expect(await paper(rig.sim, 2)).toHaveLength(2);
  });

  it('marks a copy printed again as a reprint', async () => {
    const rig = await open();
    const params = saleParams('reprint');
    await rig.engine.engine.start(params);
    await jobsOf(rig, params.referenceId, 2, 'printed');
    await paper(rig.sim, 2);
    const before = rig.sim.printed.length;
    const [again] = rig.service.print(params.referenceId, { copies: ['customer'] });
    await rig.printed(again!.id);
    const [reprinted] = await paper(rig.sim, 1, before);
    expect(reprinted).toContain('           *** REIMPRESSÃO ***');
    expect(reprinted).toEqual(paperLines(rig, params.referenceId, 'customer', true));
  });

  it('prints the first paper of a sale and of its cancellation unmarked, and marks only a second print of the same copy', async () => {
    const rig = await open({ confirmation: 'pos' });
    const params = saleParams('first-paper');
    await rig.engine.engine.start(params);
    await jobsOf(rig, params.referenceId, 2, 'printed');
    const sale = await paper(rig.sim, 2);
    expect(sale.map((receipt) => receipt.join('\n'))).toEqual([
      expect.stringContaining('VIA DO CLIENTE'),
      expect.stringContaining('VIA DO ESTABELECIMENTO'),
    ]);
    for (const receipt of sale) expect(receipt.join('\n')).not.toContain('REIMPRESSÃO');

    let from = rig.sim.printed.length;
    expect((await rig.engine.engine.undo(params.referenceId)).state).toBe('undone');
    await jobsOf(rig, params.referenceId, 4, 'printed');
    const cancellation = await paper(rig.sim, 2, from);
    expect(cancellation.map((receipt) => receipt.join('\n'))).toEqual([
      expect.stringMatching(/COMPROVANTE DE CANCELAMENTO[\s\S]*VIA DO CLIENTE/),
      expect.stringMatching(/COMPROVANTE DE CANCELAMENTO[\s\S]*VIA DO ESTABELECIMENTO/),
    ]);
    for (const receipt of cancellation) expect(receipt.join('\n')).not.toContain('REIMPRESSÃO');

    // The cashier prints the customer's cancellation copy again: that paper, and only it, is a reprint.
    from = rig.sim.printed.length;
    const [again] = rig.service.print(params.referenceId, { copies: ['customer'] });
    await rig.printed(again!.id);
    const [reprinted] = await paper(rig.sim, 1, from);
    expect(reprinted!.join('\n')).toMatch(/COMPROVANTE DE CANCELAMENTO\s+VIA DO CLIENTE\s+\*\*\* REIMPRESSÃO \*\*\*/);
  });

  it('prints the cancellation receipt when an approved sale is voided', async () => {
    const rig = await open({ confirmation: 'pos' });
    const params = saleParams('void');
    await rig.engine.engine.start(params);
    await jobsOf(rig, params.referenceId, 2, 'printed');
    await paper(rig.sim, 2);
    const before = rig.sim.printed.length;
    expect((await rig.engine.engine.undo(params.referenceId)).state).toBe('undone');
    const jobs = await jobsOf(rig, params.referenceId, 4, 'printed');
    expect(jobs.slice(2).map((job) => job.subject.split(':').slice(2).join(':'))).toEqual([
      'cancellation:customer',
      'cancellation:merchant',
    ]);
    const [customer] = await paper(rig.sim, 1, before);
    expect(customer!.join('\n')).toMatch(/COMPROVANTE DE CANCELAMENTO[\s\S]*CANCELADA EM/);
  });
});

describe('receipts as text', () => {
  it('gives a copy laid out as plain text as wide as asked (what payment.status returns to a POS), marked as a reprint once printed', async () => {
    const rig = await open();
    const params = saleParams('text');
    await rig.engine.engine.start(params);
    await jobsOf(rig, params.referenceId, 2, 'printed');
    const text = rig.service.text(params.referenceId, 'customer', 48);
    expect(text).toBe(renderText(rig.service.document(params.referenceId, 'customer'), 48));
    expect(text).toContain('VIA DO CLIENTE');
    expect(text).toContain('*** REIMPRESSÃO ***');
    expect(rig.service.text(params.referenceId, 'merchant', 48, { reprint: false })).not.toContain('REIMPRESSÃO');
  });
});
