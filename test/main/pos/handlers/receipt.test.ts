/**
 * Receipts through the POS API: receipt.get (text at each paper width, an HTML preview, ESC/POS
 * bytes for a POS that prints itself) and receipt.print (both copies queued on the agent's
 * printer — here a folder, one file per copy — with a copy printed before marked as a reprint),
 * the receipts payment.status hands a POS that lost its connection, and printer.job events.
 * Every answer and event is checked against its schema, and no receipt ever shows more of the
 * card than first 6 / last 4 digits.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaViolations } from '../../../../main/contract/index.js';
import { EVENTS, type ResultOf } from '../../../../main/pos/protocol/index.js';
import { scanText } from '../../../helpers/card-data-scan.js';
import { decodeEscPos } from '../../../helpers/escpos-decode.js';
import { checkedCall as call, checkedFailure as refused, posRig, type PosRig, type RpcClient } from '../pos-rig.js';

const RATE = { capacity: 1_000, refillPerSecond: 1_000 };
/** What main/receipts/card-receipt.ts prints on a copy that was printed before. */
const REPRINT_MARK = '*** REIMPRESSÃO ***';

type Outcome = ResultOf<'payment.start'>;

/** The text of a copy (utf8 content). */
async function receiptText(client: RpcClient, params: Record<string, unknown>): Promise<string> {
  const answer = await call(client, 'receipt.get', { format: 'text', ...params });
  expect(answer.encoding).toBe('utf8');
  return answer.content;
}

/** The lines an ESC/POS printer would print from these bytes. */
const printedText = (bytes: Uint8Array): string =>
  decodeEscPos(bytes)
    .lines.map((line) => line.text)
    .join('\n');

/** No full card number: neither a simulator test card nor any Luhn-valid 13–19 digit run. */
function expectNoCardNumber(text: string): void {
  expect(scanText(text, [])).toEqual([]);
}

/** The files the folder printer wrote (finished ones: written under a temporary name, then renamed). */
function printedFiles(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((name) => name.endsWith('.bin'))
      .sort();
  } catch {
    // The folder is made on the first job.
    return [];
  }
}

/** Polls until the folder holds more than `count` files; returns the new ones, in order. */
async function newFiles(dir: string, count: number, expected: number): Promise<string[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const files = printedFiles(dir);
    if (files.length >= count + expected) return files.slice(count).map((name) => join(dir, name));
    if (Date.now() > deadline)
      throw new Error(`the printer folder got ${files.length - count} of ${expected} new files`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

let counter = 0;
const sale = (amount: number): Record<string, unknown> & { reference_id: string } => ({
  reference_id: `receipt-${++counter}-${Date.now()}`,
  amount,
  payment_type: 'credit',
  installments: 1,
  description: 'Venda de teste',
});

let pos: PosRig;
let client: RpcClient;
/** R$ 12,34 approved: read with receipt.get, never printed. */
let shown: Outcome;
/** R$ 12,34 approved: printed with receipt.print. */
let printed: Outcome;
/** R$ 10,51 declined (the sandbox's insufficient funds). */
let declined: Outcome;

beforeAll(async () => {
  pos = await posRig({ rateLimit: RATE });
  client = await pos.paired('Caixa comprovantes');
  shown = await call(client, 'payment.start', sale(1234));
  printed = await call(client, 'payment.start', sale(1234));
  declined = await call(client, 'payment.start', sale(1051));
});
afterAll(async () => pos.close());

it('runs the payments the receipts are made of', () => {
  expect(shown).toMatchObject({
    status: 'approved',
    amount: 1234,
    installments: 1,
    card: { masked_pan: '411111******1111' },
  });
  expect(printed).toMatchObject({ status: 'approved' });
  expect(declined).toMatchObject({ status: 'declined', amount: 1051 });
});

describe('receipt.get', () => {
  it('gives the customer copy as text: the copy, the masked card, the amount, and never the card number', async () => {
    const answer = await call(client, 'receipt.get', { reference_id: shown.reference_id, copy: 'customer' });
    expect(answer).toMatchObject({
      reference_id: shown.reference_id,
      copy: 'customer',
      kind: 'sale',
      format: 'text',
      encoding: 'utf8',
    });
    const text = answer.content;
    expect(text).toContain('VIA DO CLIENTE');
    expect(text).toContain('411111******1111');
    expect(text).toContain('R$ 12,34');
    expect(text).toContain('TREINAMENTO - SEM VALOR');
    expect(text).toContain(shown.authorization_code!);
    expect(text).not.toContain(REPRINT_MARK);
    expectNoCardNumber(text);
  });

  it('gives the merchant copy, with the PIN statement the customer copy does not carry', async () => {
    const merchant = await receiptText(client, { reference_id: shown.reference_id, copy: 'merchant' });
    const customer = await receiptText(client, { reference_id: shown.reference_id, copy: 'customer' });
    expect(merchant).toContain('VIA DO ESTABELECIMENTO');
    expect(merchant).not.toContain('VIA DO CLIENTE');
    expect(merchant).toContain('R$ 12,34');
    expect(merchant).toContain('411111******1111');
    expect(merchant).toMatch(/SENHA\s+PESSOAL/);
    expect(customer).not.toMatch(/SENHA\s+PESSOAL/);
    expectNoCardNumber(merchant);
  });

  it.each([32, 42, 48] as const)('lays the text out at %i columns', async (columns) => {
    const text = await receiptText(client, { reference_id: shown.reference_id, copy: 'customer', columns });
    const lines = text.split('\n');
    expect(Math.max(...lines.map((line) => [...line].length))).toBeLessThanOrEqual(columns);
    // Rules run the whole width: the width was really used, not just respected.
    expect(lines.some((line) => [...line].length === columns)).toBe(true);
    expect(text).toContain('R$ 12,34');
  });

  it('gives an HTML document for a preview', async () => {
    const answer = await call(client, 'receipt.get', {
      reference_id: shown.reference_id,
      copy: 'customer',
      format: 'html',
    });
    expect(answer).toMatchObject({ format: 'html', encoding: 'utf8' });
    expect(answer.content).toMatch(/^<!DOCTYPE html>/i);
    expect(answer.content).toMatch(/<\/html>\s*$/);
    expect(answer.content).toContain('VIA DO CLIENTE');
    expect(answer.content).toContain('411111******1111');
    expectNoCardNumber(answer.content);
  });

  it('gives ESC/POS bytes in base64, starting with ESC @, that print the receipt', async () => {
    const answer = await call(client, 'receipt.get', {
      reference_id: shown.reference_id,
      copy: 'customer',
      format: 'escpos',
      columns: 42,
    });
    expect(answer).toMatchObject({ format: 'escpos', encoding: 'base64' });
    const bytes = Buffer.from(answer.content, 'base64');
    expect([...bytes.subarray(0, 2)]).toEqual([0x1b, 0x40]);
    const text = printedText(bytes);
    expect(text).toContain('VIA DO CLIENTE');
    expect(text).toContain('R$ 12,34');
    expect(text).toContain('APROVADA');
    expect(decodeEscPos(bytes).events.map((e) => e.kind)).toContain('cut');
    expectNoCardNumber(bytes.toString('latin1'));
  });

  it('marks a reprint when asked, and only then (the copy was never printed)', async () => {
    const marked = await receiptText(client, { reference_id: shown.reference_id, copy: 'customer', reprint: true });
    expect(marked).toContain(REPRINT_MARK);
    expect(await receiptText(client, { reference_id: shown.reference_id, copy: 'customer' })).not.toContain(
      REPRINT_MARK,
    );
  });

  it('gives a declined payment its receipt, NEGADA with the reason', async () => {
    const answer = await call(client, 'receipt.get', {
      reference_id: declined.reference_id,
      copy: 'customer',
      format: 'escpos',
    });
    const text = printedText(Buffer.from(answer.content, 'base64'));
    expect(text).toContain('NEGADA');
    expect(text).not.toContain('APROVADA');
    expect(text).toContain('R$ 10,51');
    expect(text).toContain(declined.problem!.cashier_message);
    expect(declined.problem!.cashier_message).toBe('Saldo insuficiente');
    expect(text).toMatch(/CÓD\. RESPOSTA +51/);
    // The text format spreads the large status line out ("N E G A D A").
    expect(await receiptText(client, { reference_id: declined.reference_id, copy: 'merchant' })).toMatch(
      /N ?E ?G ?A ?D ?A/,
    );
  });

  it('is NOT_FOUND for a reference no payment has, and the connection goes on', async () => {
    expect(await refused(client, 'receipt.get', { reference_id: 'no-such-sale', copy: 'customer' })).toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(await refused(client, 'receipt.print', { reference_id: 'no-such-sale' })).toMatchObject({
      code: 'NOT_FOUND',
    });
    await call(client, 'receipt.get', { reference_id: shown.reference_id, copy: 'merchant' });
  });

  it.each([
    ['an unknown copy', { copy: 'cashier' }, 'copy'],
    ['a paper width no printer has', { copy: 'customer', columns: 40 }, 'columns'],
    ['PDF (not offered to a POS)', { copy: 'customer', format: 'pdf' }, 'format'],
  ])('refuses %s by the schema', async (_case, params, field) => {
    const error = await refused(client, 'receipt.get', { reference_id: shown.reference_id, ...params });
    expect(error.code).toBe('INVALID_PARAMS');
    expect(error.violations?.map((v) => v.field)).toContain(field);
  });
});

describe('payment.status', () => {
  it('hands a Processed payment back with both receipt texts', async () => {
    const status = await call(client, 'payment.status', { reference_id: shown.reference_id });
    expect(status).toMatchObject({
      status: 'Processed',
      result: { reference_id: shown.reference_id, status: 'approved' },
    });
    if (status.status !== 'Processed') throw new Error('not processed');
    expect(status.receipts).not.toBeNull();
    expect(status.receipts!.customer).toContain('VIA DO CLIENTE');
    expect(status.receipts!.merchant).toContain('VIA DO ESTABELECIMENTO');
    for (const copy of [status.receipts!.customer, status.receipts!.merchant]) {
      expect(copy).toContain('R$ 12,34');
      expect(copy).toContain('411111******1111');
      expectNoCardNumber(copy);
    }
  });

  it('hands the declined payment back with its receipts too', async () => {
    const status = await call(client, 'payment.status', { reference_id: declined.reference_id });
    if (status.status !== 'Processed') throw new Error(`expected Processed, got ${status.status}`);
    expect(status.result.status).toBe('declined');
    expect(status.receipts?.customer).toContain('R$ 10,51');
  });
});

describe('receipt.print', () => {
  it("queues both copies, writes a file per copy to the printer, and tells the sale's client (only) with printer.job", async () => {
    const watcher = await pos.paired('Caixa observador');
    const before = printedFiles(pos.printDir).length;
    const { jobs } = await call(client, 'receipt.print', { reference_id: printed.reference_id });
    expect(jobs.map((job) => job.subject)).toEqual([
      `payment:${printed.reference_id}:sale:customer`,
      `payment:${printed.reference_id}:sale:merchant`,
    ]);
    for (const job of jobs) expect(job).toMatchObject({ printer: 'default', error: null });
    const files = await newFiles(pos.printDir, before, 2);
    const texts = files.map((file) => {
      const bytes = readFileSync(file);
      expect([...bytes.subarray(0, 2)]).toEqual([0x1b, 0x40]);
      expectNoCardNumber(bytes.toString('latin1'));
      return printedText(bytes);
    });
    expect(texts.some((text) => text.includes('VIA DO CLIENTE'))).toBe(true);
    expect(texts.some((text) => text.includes('VIA DO ESTABELECIMENTO'))).toBe(true);
    for (const text of texts) {
      expect(text).toContain('R$ 12,34');
      expect(text).not.toContain(REPRINT_MARK);
    }
    for (const job of jobs) {
      const done = await client.next('printer.job', (p) => p.id === job.id && p.state === 'printed');
      expect(schemaViolations(EVENTS['printer.job'].payload, done)).toEqual([]);
      expect(done).toMatchObject({ subject: job.subject, printer: 'default', attempts: 1, error: null });
    }
    // Another till does not learn of this sale's receipts (they name its reference).
    expect(watcher.events('printer.job')).toEqual([]);
    await watcher.close();
  });

  it('prints a copy printed before as a reprint, and receipt.get now marks it too', async () => {
    // The first print is done (previous test): its jobs are in the print journal as printed.
    const before = printedFiles(pos.printDir).length;
    const { jobs } = await call(client, 'receipt.print', { reference_id: printed.reference_id, copies: ['customer'] });
    expect(jobs).toHaveLength(1);
    const [file] = await newFiles(pos.printDir, before, 1);
    const text = printedText(readFileSync(file!));
    expect(text).toContain('VIA DO CLIENTE');
    expect(text).toContain(REPRINT_MARK);
    await client.next('printer.job', (p) => p.id === jobs[0]!.id && p.state === 'printed');
    expect(await receiptText(client, { reference_id: printed.reference_id, copy: 'customer' })).toContain(REPRINT_MARK);
    expect(
      await receiptText(client, { reference_id: printed.reference_id, copy: 'customer', reprint: false }),
    ).not.toContain(REPRINT_MARK);
  });

  it('refuses a repeated copy and an empty list of copies', async () => {
    for (const copies of [['customer', 'customer'], []]) {
      const error = await refused(client, 'receipt.print', { reference_id: printed.reference_id, copies });
      expect(error).toMatchObject({ code: 'INVALID_PARAMS' });
      expect(error.violations?.map((v) => v.field)).toContain('copies');
    }
  });

  it('names each printer with its address in agent.status, the first thing a technician checks', async () => {
    const { printers } = await call(client, 'agent.status', {});
    expect(printers).toEqual([expect.objectContaining({ name: 'default', address: `file://${pos.printDir}/` })]);
  });

  it('refuses a printer that is not configured, naming the field, and queues nothing', async () => {
    const error = await client.failure('receipt.print', {
      reference_id: printed.reference_id,
      copies: ['merchant'],
      printer: 'cozinha',
    });
    expect(error.data).toMatchObject({ code: 'INVALID_PARAMS', violations: [{ field: 'printer' }] });
    expect(pos.printing.queue!.journal.list({ limit: 1000 }).some((job) => job.printer === 'cozinha')).toBe(false);
  });
});

describe('a payment without a receipt yet, or at all', () => {
  it('is INVALID_STATE (NOT_READY) while the card is awaited, and NO_RECEIPT once cancelled before any card', async () => {
    // A second PINPAD with nobody at it: the sale waits for a card.
    const idle = await pos.addPinpad('POS0000000000002', {});
    const params = { ...sale(2000), terminal: idle.serial };
    const running = call(client, 'payment.start', params);
    await client.next('payment.progress', (p) => p.reference_id === params.reference_id && p.step === 'waiting_card');
    expect(await refused(client, 'receipt.get', { reference_id: params.reference_id, copy: 'customer' })).toMatchObject(
      {
        code: 'INVALID_STATE',
        reason: 'NOT_READY',
      },
    );
    const status = await call(client, 'payment.status', { reference_id: params.reference_id });
    expect(status.status).toBe('InProgress');
    await call(client, 'payment.cancel', { reference_id: params.reference_id });
    expect(await running).toMatchObject({ status: 'cancelled', card: null });
    expect(await refused(client, 'receipt.get', { reference_id: params.reference_id, copy: 'customer' })).toMatchObject(
      { code: 'NO_RECEIPT' },
    );
    expect(await refused(client, 'receipt.print', { reference_id: params.reference_id })).toMatchObject({
      code: 'NO_RECEIPT',
    });
    expect(await call(client, 'payment.status', { reference_id: params.reference_id })).toMatchObject({
      status: 'Processed',
      receipts: null,
    });
  });
});

describe('an approval undone', () => {
  it('has the cancellation receipt (kind "cancellation", CANCELADA)', async () => {
    // On the PINPAD with the customer at it (a second one may be attached by now).
    const approved = await call(client, 'payment.start', { ...sale(1500), terminal: shown.terminal });
    expect(await call(client, 'payment.undo', { reference_id: approved.reference_id })).toMatchObject({
      confirmation: 'undone',
    });
    const answer = await call(client, 'receipt.get', {
      reference_id: approved.reference_id,
      copy: 'customer',
      format: 'html',
    });
    expect(answer.kind).toBe('cancellation');
    expect(answer.content).toContain('COMPROVANTE DE CANCELAMENTO');
    expect(answer.content).toContain('CANCELADA');
    expect(answer.content).toContain('R$ 15,00');
    expectNoCardNumber(answer.content);
  });
});
