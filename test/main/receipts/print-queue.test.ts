/**
 * The print queue over a real print journal file: jobs print in the background, in order, one at
 * a time per printer; a printer that refuses (paper out) gets the job again later; a job is never
 * lost — not to a failure, not to a crash mid-print, not to a full disk (a real small tmpfs).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PrintDocument } from '../../../drivers/printers/document.js';
import { PrintJournal, type PrintJob, type PrintJobState } from '../../../main/receipts/print-jobs.js';
import { PrintQueue, type DocumentPrinter } from '../../../main/receipts/print-queue.js';
import { mountSmallDisk, type SmallDisk } from '../../helpers/small-disk.js';

/** A printer that records what it printed and refuses with a code while told to. */
class RecordingPrinter implements DocumentPrinter {
  readonly printed: string[] = [];
  refusal: string | undefined;
  /** Set to hold each print until released. */
  hold: Promise<void> | undefined;

  async print(document: PrintDocument): Promise<void> {
    if (this.hold) await this.hold;
    if (this.refusal !== undefined)
      throw Object.assign(new Error(`the printer says ${this.refusal}`), { code: this.refusal });
    this.printed.push(document.title);
  }
}

const doc = (title: string): PrintDocument => ({ title, blocks: [{ kind: 'text', text: title }] });

let dir: string;
let journals: PrintJournal[];
let queues: PrintQueue[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pinbridge-print-'));
  journals = [];
  queues = [];
});
afterEach(async () => {
  for (const queue of queues) await queue.close();
  for (const journal of journals) journal.close();
  rmSync(dir, { recursive: true, force: true });
});

function openQueue(
  printer: DocumentPrinter | undefined,
  options: { maxAttempts?: number } = {},
): { journal: PrintJournal; queue: PrintQueue } {
  const journal = PrintJournal.open(join(dir, 'print-jobs.db'));
  const queue = new PrintQueue({
    journal,
    printer: (name) => (name === 'default' ? printer : undefined),
    retryBaseMs: 5,
    retryMaxMs: 20,
    ...options,
  });
  journals.push(journal);
  queues.push(queue);
  return { journal, queue };
}

/** Resolves with the job once it reaches `state`. */
function reaches(queue: PrintQueue, id: string, state: PrintJobState): Promise<PrintJob> {
  return new Promise((resolve) => {
    const listener = (job: PrintJob): void => {
      if (job.id === id && job.state === state) {
        queue.off('job', listener);
        resolve(job);
      }
    };
    queue.on('job', listener);
  });
}

describe('the print queue', () => {
  it('journals a job and returns at once; it prints in the background', async () => {
    const printer = new RecordingPrinter();
    const { queue, journal } = openQueue(printer);
    const states: PrintJobState[] = [];
    queue.on('job', (job) => states.push(job.state));
    const job = queue.submit('default', 'payment:pedido-1:customer', doc('via do cliente'));
    expect(job).toMatchObject({
      state: 'queued',
      attempts: 0,
      subject: 'payment:pedido-1:customer',
      title: 'via do cliente',
    });
    expect(printer.printed).toEqual([]);
    const printed = await reaches(queue, job.id, 'printed');
    expect(printed).toMatchObject({ attempts: 1, lastError: null });
    expect(printed.printedAt).toEqual(expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/));
    expect(printer.printed).toEqual(['via do cliente']);
    expect(states).toEqual(['queued', 'printing', 'printed']);
    // On paper now: the journal keeps the job, not the document (see "what a printed receipt leaves behind").
    expect(journal.get(job.id)).toMatchObject({ title: 'via do cliente', document: { blocks: [] } });
  });

  it('prints one job at a time per printer, in the order they came', async () => {
    const printer = new RecordingPrinter();
    let release!: () => void;
    printer.hold = new Promise((resolve) => (release = resolve));
    const { queue, journal } = openQueue(printer);
    const first = queue.submit('default', 's', doc('cliente'));
    const second = queue.submit('default', 's', doc('estabelecimento'));
    await reaches(queue, first.id, 'printing');
    expect(journal.get(second.id)?.state).toBe('queued');
    release();
    await reaches(queue, second.id, 'printed');
    expect(printer.printed).toEqual(['cliente', 'estabelecimento']);
  });

  it('keeps a job the printer refused (paper out) and prints it once the printer can', async () => {
    const printer = new RecordingPrinter();
    printer.refusal = 'PAPER_OUT';
    const { queue } = openQueue(printer, { maxAttempts: 100 });
    const job = queue.submit('default', 's', doc('via do cliente'));
    const waiting = await reaches(queue, job.id, 'queued');
    expect(waiting).toMatchObject({ attempts: 1, lastError: { code: 'PAPER_OUT' } });
    expect(waiting.nextAttemptAt).not.toBeNull();
    await reaches(queue, job.id, 'queued'); // tried again, still no paper
    printer.refusal = undefined;
    const printed = await reaches(queue, job.id, 'printed');
    expect(printed.attempts).toBeGreaterThanOrEqual(3);
    expect(printed.lastError).toBeNull();
    expect(printer.printed).toEqual(['via do cliente']);
  });

  it('leaves a job failed, visible, after its attempts; the cashier tries it again or reprints it', async () => {
    const printer = new RecordingPrinter();
    printer.refusal = 'UNREACHABLE';
    const { queue, journal } = openQueue(printer, { maxAttempts: 2 });
    const job = queue.submit('default', 'payment:pedido-2:customer', doc('via do cliente'));
    const failed = await reaches(queue, job.id, 'failed');
    expect(failed).toMatchObject({ attempts: 2, lastError: { code: 'UNREACHABLE' }, nextAttemptAt: null });
    expect(journal.list({ states: ['failed'] }).map((j) => j.id)).toEqual([job.id]);
    printer.refusal = undefined;
    queue.retryNow(job.id);
    await reaches(queue, job.id, 'printed');
    const again = queue.reprint(job.id, doc('via do cliente (reimpressão)'));
    expect(again).toMatchObject({ reprintOf: job.id, subject: 'payment:pedido-2:customer' });
    await reaches(queue, again.id, 'printed');
    expect(printer.printed).toEqual(['via do cliente', 'via do cliente (reimpressão)']);
  });

  it('waits with NO_PRINTER when no printer of that name is configured', async () => {
    const { queue } = openQueue(new RecordingPrinter());
    const job = queue.submit('balcao', 's', doc('x'));
    expect(await reaches(queue, job.id, 'queued')).toMatchObject({ lastError: { code: 'NO_PRINTER' } });
  });

  it('gets a job a crash left printing back into the queue at the next start, and prints it', async () => {
    const first = PrintJournal.open(join(dir, 'print-jobs.db'));
    const job = first.enqueue({ printer: 'default', subject: 's', document: doc('interrompido') });
    first.markPrinting(job.id);
    first.close(); // the agent dies mid-print
    const printer = new RecordingPrinter();
    const { queue, journal } = openQueue(printer);
    expect(journal.get(job.id)).toMatchObject({ state: 'queued', lastError: { code: 'INTERRUPTED' } });
    const printed = reaches(queue, job.id, 'printed');
    queue.start();
    await printed;
    expect(printer.printed).toEqual(['interrompido']);
  });

  it('refuses to change an ended job, naming it', () => {
    const { journal } = openQueue(new RecordingPrinter());
    const job = journal.enqueue({ printer: 'default', subject: 's', document: doc('x') });
    journal.cancel(job.id);
    expect(() => journal.retryNow(job.id)).toThrow(/cancelled/);
    expect(() => journal.retryNow('0'.repeat(32))).toThrow(/no print job/);
  });
});

describe('what a printed receipt leaves behind', () => {
  it('keeps a copy of the document only until it is on paper: printed or cancelled, it is blanked in the file and its log', async () => {
    const printer = new RecordingPrinter();
    // One attempt a job: the refused one waits as `failed` until the cashier acts. (With retries
    // it goes back and forth between queued and printing every few milliseconds, and a cancel
    // that lands on `printing` is refused: it is on its way to paper.)
    const { journal, queue } = openQueue(printer, { maxAttempts: 1 });
    const withCpf = (title: string): PrintDocument => ({
      title,
      blocks: [{ kind: 'text', text: 'CPF/CNPJ 123.456.789-09' }],
    });
    const job = queue.submit('default', 'payment:venda-cpf:sale:customer', withCpf('Via do cliente'));
    await reaches(queue, job.id, 'printed');
    printer.refusal = 'PAPER_OUT';
    const waiting = queue.submit('default', 'payment:venda-cpf-2:sale:customer', withCpf('Via do cliente'));
    await reaches(queue, waiting.id, 'failed');
    queue.cancel(waiting.id);

    const bytes = (): string =>
      readdirSync(dir)
        .filter((name) => name.startsWith('print-jobs.db'))
        .map((name) => readFileSync(join(dir, name)).toString('latin1'))
        .join('');
    expect(bytes()).not.toContain('123.456.789-09');
    expect(journal.get(job.id)).toMatchObject({ state: 'printed', document: { blocks: [] } });
  });
});

describe('the print queue on a full disk (issue 33)', () => {
  let disk: SmallDisk | undefined;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
  beforeEach(() => {
    unhandled.length = 0;
    process.on('unhandledRejection', onUnhandled);
  });
  afterEach(async () => {
    for (const queue of queues.splice(0)) await queue.close();
    for (const journal of journals.splice(0)) journal.close();
    disk?.unmount();
    disk = undefined;
    process.off('unhandledRejection', onUnhandled);
  });

  function onSmallDisk(printer: DocumentPrinter): { journal: PrintJournal; queue: PrintQueue; disk: SmallDisk } {
    disk = mountSmallDisk(2 * 1024 * 1024);
    const journal = PrintJournal.open(join(disk.dir, 'print-jobs.db'));
    const queue = new PrintQueue({ journal, printer: () => printer, retryBaseMs: 5, retryMaxMs: 50 });
    journals.push(journal);
    queues.push(queue);
    return { journal, queue, disk };
  }

  it('holds a job the journal cannot take in memory, unprinted and saying why, then journals and prints it once there is room', async () => {
    const printer = new RecordingPrinter();
    const { queue, journal, disk } = onSmallDisk(printer);
    const failures: (string | undefined)[] = [];
    queue.on('journal', (failure) => failures.push(failure?.code));
    await reaches(queue, queue.submit('default', 's', doc('antes')).id, 'printed');
    disk.fill();
    // The write-ahead log's last page may take one more row; the next cannot be journaled.
    let held: PrintJob | undefined;
    for (let n = 0; n < 20 && held === undefined; n++) {
      const job = queue.submit('default', 's', doc(`cheio ${n}`));
      if (job.lastError?.code === 'DISK_FULL') held = job;
    }
    expect(held).toMatchObject({ state: 'queued', lastError: { code: 'DISK_FULL' } });
    expect(queue.journalFailure).toMatchObject({ code: 'DISK_FULL', heldJobs: 1 });
    expect(failures).toEqual(['DISK_FULL']);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(printer.printed).not.toContain(held!.title);
    expect(journal.get(held!.id)).toBeUndefined();

    disk.free();
    // Its own back-off finds the room (retryWrites: at once, when the agent sees it first).
    await reaches(queue, held!.id, 'printed');
    expect(printer.printed.at(-1)).toBe(held!.title);
    expect(journal.get(held!.id)?.state).toBe('printed');
    expect(queue.journalFailure).toBeUndefined();
    expect(failures).toEqual(['DISK_FULL', undefined]);
    expect(unhandled).toEqual([]);
  });

  it('owes the journal an outcome it could not take (the disk filled while printing), writes it once there is room, and nothing rejects unhandled', async () => {
    const printer = new RecordingPrinter();
    let release!: () => void;
    printer.hold = new Promise((resolve) => (release = resolve));
    const { queue, journal, disk } = onSmallDisk(printer);
    const job = queue.submit('default', 's', doc('via do cliente'));
    await reaches(queue, job.id, 'printing');
    disk.fill();
    const told = reaches(queue, job.id, 'printed');
    release();
    // On paper: said at once, from memory.
    expect(await told).toMatchObject({ state: 'printed' });
    expect(printer.printed).toEqual(['via do cliente']);
    await new Promise((resolve) => setTimeout(resolve, 100));
    // The journal still says printing (a restart would print it again: twice beats never).
    expect(journal.get(job.id)?.state).toBe('printing');
    expect(queue.journalFailure?.code).toBe('DISK_FULL');
    disk.free();
    queue.retryWrites();
    expect(journal.get(job.id)?.state).toBe('printed');
    expect(queue.journalFailure).toBeUndefined();
    expect(printer.printed).toEqual(['via do cliente']);
    expect(unhandled).toEqual([]);
  });
});
