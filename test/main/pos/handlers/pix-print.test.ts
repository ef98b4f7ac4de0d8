/**
 * Pix at the counter on paper (issue 38), through the POS API: pix.print puts a pending bolepix's
 * QR on the receipt printer, and a bolepix paid while shown (pix.show) prints the customer's
 * "COMPROVANTE DE PAGAMENTO PIX" by itself — once, whatever happens around it: a second pix.paid,
 * a card sale that took the PINPAD, a printer that is off (which never holds the Pix up). The
 * paper is read back from the bytes the printer got.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOSED_PORT } from '../../../helpers/closed-port.js';
import { decodeEscPos, type DecodedEscPos } from '../../../helpers/escpos-decode.js';
import { displayed } from '../../core/engine-rig.js';
import {
  AUTO_CUSTOMER,
  checkedCall as call,
  checkedEvent,
  checkedFailure as refused,
  posRig,
  type PosRig,
  type RpcClient,
} from '../pos-rig.js';
import { createBolepix, newBuyer, payByPix } from '../bolepix-rig.js';

let counter = 0;
const reference = (prefix: string): string => `${prefix}-${++counter}-${Date.now()}`;

/** Every paper the folder printer took that mentions `text` (each job is a file of its own). */
function papersWith(pos: PosRig, text: string): DecodedEscPos[] {
  return pos
    .printedJobs()
    .filter((file) => file.endsWith('.bin'))
    .map((file) => decodeEscPos(readFileSync(file)))
    .filter((paper) => paper.lines.some((line) => line.text.includes(text)));
}

const linesOf = (paper: DecodedEscPos): string[] =>
  paper.lines.map((line) => line.text.trim()).filter((text) => text !== '' && !/^-+$/.test(text));

/** Waits for the job's printer.job event in `state`. */
const jobReaches = (client: RpcClient, id: string, state: string): Promise<Record<string, unknown>> =>
  checkedEvent(client, 'printer.job', (job) => job.id === id && job.state === state);

describe('pix.print', () => {
  let pos: PosRig;
  let client: RpcClient;
  let buyerId: string;

  beforeAll(async () => {
    pos = await posRig();
    client = await pos.paired('Caixa Pix papel');
    buyerId = await newBuyer(pos);
  });
  afterAll(async () => pos.close());

  it("prints the bolepix's QR on a slip to pay from, without touching the PINPAD", async () => {
    const bolepix = await createBolepix(client, buyerId, 4_990);
    const idle = [...pos.pinpads[0]!.sim.display.lines];
    const { print_jobs } = await call(client, 'pix.print', { transaction_id: bolepix.id.toUpperCase() });
    expect(print_jobs).toMatchObject([{ subject: `pix:${bolepix.id}:qr`, printer: 'default' }]);
    await jobReaches(client, print_jobs[0]!.id, 'printed');
    const papers = papersWith(pos, bolepix.id);
    expect(papers).toHaveLength(1);
    const paper = papers[0]!;
    const lines = linesOf(paper);
    // The rig is a training agent: the slip says it is worth nothing, top and bottom.
    expect(lines[0]).toBe('TREINAMENTO - SEM VALOR');
    expect(lines.at(-1)).toBe('TREINAMENTO - SEM VALOR');
    expect(lines).toEqual(
      expect.arrayContaining([
        'LOJA DE TREINAMENTO',
        'PAGUE COM PIX',
        'R$ 49,90',
        'Aponte a câmera do app do seu banco',
        'ID DA TRANSAÇÃO',
        bolepix.id,
      ]),
    );
    expect(lines.find((line) => line.startsWith('Pix válido até'))).toMatch(
      /^Pix válido até \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/,
    );
    // What a phone reads off the paper is exactly the bolepix's BR Code, as the printer's QR.
    const qrs = paper.events.filter((event) => event.kind === 'qrcode');
    expect(qrs).toEqual([expect.objectContaining({ data: bolepix.pix.qr_code, model: 2, errorLevel: 'M' })]);
    expect(pos.pinpads[0]!.sim.display.lines).toEqual(idle);
  });

  it("tells the print's progress to the POS that asked (and the window), not to another POS", async () => {
    const other = await pos.paired('Outro caixa');
    const window = await pos.operator();
    const bolepix = await createBolepix(client, buyerId);
    const { print_jobs } = await call(client, 'pix.print', { transaction_id: bolepix.id });
    const id = print_jobs[0]!.id;
    await jobReaches(client, id, 'printed');
    await jobReaches(window, id, 'printed');
    // A marker after the job's last event: anything of the job for the other POS came before it.
    await call(other, 'agent.status', {});
    expect(other.events('printer.job').filter((job) => (job as { id: string }).id === id)).toEqual([]);
    await other.close();
    await window.close();
  });

  it('refuses what pix.show refuses: a paid bolepix, a plain boleto, an unknown transaction', async () => {
    const paid = await createBolepix(client, buyerId);
    await payByPix(pos, paid.id);
    expect(await refused(client, 'pix.print', { transaction_id: paid.id })).toMatchObject({
      code: 'INVALID_STATE',
      reason: 'NOT_PENDING',
    });
    const { transaction: boleto } = await call(client, 'boleto.create', {
      customer: buyerId,
      amount: 15_000,
      description: 'Pedido 43',
      reference_id: reference('boleto'),
    });
    expect(await refused(client, 'pix.print', { transaction_id: boleto.id })).toMatchObject({
      code: 'INVALID_STATE',
      reason: 'NOT_BOLEPIX',
    });
    // The payments API does not know it (as pix.show answers).
    expect(await refused(client, 'pix.print', { transaction_id: '0'.repeat(32) })).toMatchObject({
      code: 'API_NOT_FOUND',
    });
    expect(papersWith(pos, paid.id)).toEqual([]);
  });

  it('refuses a printer the settings do not name (INVALID_PARAMS on printer)', async () => {
    const bolepix = await createBolepix(client, buyerId);
    const error = await refused(client, 'pix.print', { transaction_id: bolepix.id, printer: 'cozinha' });
    expect(error).toMatchObject({ code: 'INVALID_PARAMS' });
    expect(error.violations?.map((v) => v.field)).toEqual(['printer']);
  });
});

describe('the receipt of a Pix received (auto_print on)', () => {
  let pos: PosRig;
  let client: RpcClient;
  let buyerId: string;

  beforeAll(async () => {
    pos = await posRig({ autoPrint: ['customer', 'merchant'], simulator: { ...AUTO_CUSTOMER } });
    await pos.addPinpad('PB-PIX-2');
    client = await pos.paired('Caixa comprovante');
    buyerId = await newBuyer(pos);
  });
  afterAll(async () => pos.close());

  /** The one receipt of `id` on the paper, once printed. */
  async function theReceipt(id: string): Promise<string[]> {
    await expect.poll(() => papersWith(pos, id).length).toBeGreaterThan(0);
    const papers = papersWith(pos, id);
    expect(papers).toHaveLength(1);
    return linesOf(papers[0]!);
  }

  it('prints the customer\'s "COMPROVANTE DE PAGAMENTO PIX" by itself, and pix.paid names its job', async () => {
    const bolepix = await createBolepix(client, buyerId);
    await call(client, 'pix.show', { transaction_id: bolepix.id, terminal: pos.pinpads[0]!.serial });
    await payByPix(pos, bolepix.id);
    const paid = await checkedEvent(client, 'pix.paid', (p) => p.transaction_id === bolepix.id);
    expect(paid.print_job).toMatchObject({ subject: `pix:${bolepix.id}:paid`, printer: 'default' });
    await jobReaches(client, (paid.print_job as { id: string }).id, 'printed');
    const stored = await pos.rig.client.transactions.retrieve(bolepix.id);
    const lines = await theReceipt(bolepix.id);
    expect(lines[0]).toBe('TREINAMENTO - SEM VALOR');
    expect(lines).toEqual(
      expect.arrayContaining([
        'LOJA DE TREINAMENTO',
        'CNPJ 11.222.333/0001-81',
        'COMPROVANTE DE PAGAMENTO PIX',
        'VIA DO CLIENTE',
        'ID PIX (END TO END)',
        stored.pix!.end_to_end_id!,
        'ID DA TRANSAÇÃO',
        bolepix.id,
        'PIX RECEBIDO',
      ]),
    );
    expect(lines.find((line) => line.startsWith('VALOR'))).toMatch(/R\$ 150,00$/);
    expect(lines.find((line) => line.startsWith('FORMA'))).toMatch(/PIX$/);
    // The provider gave the time it was paid: that is the one printed.
    expect(lines.find((line) => line.startsWith('PAGO EM'))).toMatch(/\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/);
    expect(lines.at(-1)).toBe('TREINAMENTO - SEM VALOR');
  });

  it('prints it once when pix.paid comes twice (the bolepix shown on two PINPADs)', async () => {
    const bolepix = await createBolepix(client, buyerId);
    for (const pinpad of pos.pinpads)
      await call(client, 'pix.show', { transaction_id: bolepix.id, terminal: pinpad.serial });
    await payByPix(pos, bolepix.id);
    await expect.poll(() => client.events('pix.paid').filter((p) => isFor(p, bolepix.id)).length).toBe(2);
    const jobs = client
      .events('pix.paid')
      .filter((p) => isFor(p, bolepix.id))
      .map((p) => (p as { print_job: { id: string } | null }).print_job);
    expect(jobs.filter((job) => job !== null)).toHaveLength(1);
    await jobReaches(client, jobs.find((job) => job !== null)!.id, 'printed');
    await theReceipt(bolepix.id);
    expect(pos.printing.queue!.journal.list({ subject: `pix:${bolepix.id}:paid` })).toHaveLength(1);
  });

  it('prints it once when a card sale took the PINPAD from the QR before the Pix came', async () => {
    const bolepix = await createBolepix(client, buyerId);
    const terminal = pos.pinpads[0]!.serial;
    await call(client, 'pix.show', { transaction_id: bolepix.id, terminal });
    const outcome = await call(client, 'payment.start', {
      reference_id: reference('card'),
      amount: 1234,
      payment_type: 'credit',
      installments: 1,
      description: 'Pedido',
      terminal,
    });
    expect(outcome).toMatchObject({ status: 'approved' });
    await checkedEvent(client, 'pix.ended', (p) => p.transaction_id === bolepix.id && p.reason === 'pinpad_taken');
    await payByPix(pos, bolepix.id);
    const paid = await checkedEvent(client, 'pix.paid', (p) => p.transaction_id === bolepix.id);
    await jobReaches(client, (paid.print_job as { id: string }).id, 'printed');
    const lines = await theReceipt(bolepix.id);
    expect(lines).toContain('PIX RECEBIDO');
    expect(lines.find((line) => line.startsWith('VALOR'))).toMatch(/R\$ 150,00$/);
  }, 30_000);
});

const isFor = (params: unknown, id: string): boolean => (params as { transaction_id?: string }).transaction_id === id;

describe('the receipt of a Pix received, on a printer that is off', () => {
  let pos: PosRig;

  beforeAll(async () => {
    pos = await posRig({ autoPrint: ['customer'], printerAddress: `tcp://127.0.0.1:${CLOSED_PORT}` });
  });
  afterAll(async () => pos.close());

  it('does not hold the Pix up: pix.paid and PIX RECEBIDO come all the same, the receipt waits for the printer', async () => {
    const client = await pos.paired('Caixa sem impressora');
    const bolepix = await createBolepix(client, await newBuyer(pos));
    await call(client, 'pix.show', { transaction_id: bolepix.id });
    await payByPix(pos, bolepix.id);
    const paid = await checkedEvent(client, 'pix.paid', (p) => p.transaction_id === bolepix.id);
    expect(paid).toMatchObject({ amount: 15_000, via: 'pix', print_job: { subject: `pix:${bolepix.id}:paid` } });
    await displayed(pos.pinpads[0]!.sim, /PIX RECEBIDO/);
    expect(await checkedEvent(client, 'pix.ended', (p) => p.transaction_id === bolepix.id)).toMatchObject({
      reason: 'paid',
    });
    // The printer refused the connection: the job is kept for a later attempt, not lost.
    const tried = await checkedEvent(
      client,
      'printer.job',
      (job) => job.id === (paid.print_job as { id: string }).id && job.error !== null,
    );
    expect(['queued', 'failed']).toContain(tried.state);
  });
});

describe('Pix on paper without a receipt printer', () => {
  let pos: PosRig;

  beforeAll(async () => {
    pos = await posRig({ autoPrint: ['customer'], printerAddress: null });
  });
  afterAll(async () => pos.close());

  it('pix.print answers PRINTING_OFF, and a Pix received is told with no receipt (print_job null)', async () => {
    const client = await pos.paired('Caixa sem papel');
    const bolepix = await createBolepix(client, await newBuyer(pos));
    expect(await refused(client, 'pix.print', { transaction_id: bolepix.id })).toMatchObject({ code: 'PRINTING_OFF' });
    await call(client, 'pix.show', { transaction_id: bolepix.id });
    await payByPix(pos, bolepix.id);
    expect(await checkedEvent(client, 'pix.paid', (p) => p.transaction_id === bolepix.id)).toMatchObject({
      amount: 15_000,
      print_job: null,
    });
    await displayed(pos.pinpads[0]!.sim, /PIX RECEBIDO/);
  });
});
