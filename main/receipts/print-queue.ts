/**
 * The print queue: jobs are journaled (PrintJournal) and printed in order, one at a time per
 * printer, in the background — `submit` returns at once, so printing never blocks or fails a
 * payment. A job the printer refuses (paper out, cover open, printer off, unreachable) waits with
 * a growing delay and is tried again; after `maxAttempts` it stays `failed`, visible, until the
 * cashier asks for it again (`retryNow`) or reprints it. `nudge(printer)` tries at once, for
 * when the printer reports it is ready again.
 */
import { EventEmitter } from 'node:events';
import { backoffDelay } from '../../lib/backoff.js';
import type { PrintDocument } from '../../drivers/printers/document.js';
import { ReceiptError } from './errors.js';
import type { PrintJob, PrintJobError, PrintJournal } from './print-jobs.js';

/** A printer as the queue sees it: a document in, or an error with a machine `code`. */
export interface DocumentPrinter {
  print(document: PrintDocument): Promise<void>;
}

export interface PrintQueueOptions {
  readonly journal: PrintJournal;
  /** The printer of a name, or undefined when none is configured (the job waits, NO_PRINTER). */
  readonly printer: (name: string) => DocumentPrinter | undefined;
  /** First wait after a failure, doubled each time up to maxDelayMs. Defaults: 2 s, 60 s. */
  readonly retryBaseMs?: number;
  readonly retryMaxMs?: number;
  /** Automatic attempts before a job is left `failed` (default 5). */
  readonly maxAttempts?: number;
  readonly now?: () => Date;
}

interface QueueEvents {
  /** Every change of a job (queued, printing, printed, waiting again, failed, cancelled). */
  job: [PrintJob];
}

function errorOf(error: unknown): PrintJobError {
  const code =
    typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string'
      ? (error as { code: string }).code
      : 'PRINTER_ERROR';
  return { code, message: error instanceof Error ? error.message : String(error) };
}

export class PrintQueue extends EventEmitter<QueueEvents> {
  readonly #journal: PrintJournal;
  readonly #printer: (name: string) => DocumentPrinter | undefined;
  readonly #baseMs: number;
  readonly #maxMs: number;
  readonly #maxAttempts: number;
  readonly #now: () => Date;
  /** The printers being worked on, and the timer of each printer's next due job. */
  readonly #running = new Map<string, Promise<void>>();
  readonly #timers = new Map<string, NodeJS.Timeout>();
  /** Printers nudged while being worked on: the worker may have looked for jobs already. */
  readonly #again = new Set<string>();
  #closed = false;

  constructor(options: PrintQueueOptions) {
    super();
    this.#journal = options.journal;
    this.#printer = options.printer;
    this.#baseMs = options.retryBaseMs ?? 2_000;
    this.#maxMs = options.retryMaxMs ?? 60_000;
    this.#maxAttempts = options.maxAttempts ?? 5;
    this.#now = options.now ?? (() => new Date());
  }

  /** The jobs, for lookups (what was printed, what failed). */
  get journal(): PrintJournal {
    return this.#journal;
  }

  /** Works off what an earlier run left queued. */
  start(): void {
    for (const printer of this.#journal.printersWaiting()) this.nudge(printer);
  }

  /** Journals the job and returns it at once; it prints in the background. */
  submit(printer: string, subject: string, document: PrintDocument, reprintOf: string | null = null): PrintJob {
    const job = this.#journal.enqueue({ printer, subject, document, reprintOf });
    this.emit('job', job);
    this.nudge(printer);
    return job;
  }

  /** A new job printing `document` again (built by the caller with its reprint mark). */
  reprint(jobId: string, document: PrintDocument): PrintJob {
    const original = this.#journal.get(jobId);
    if (original === undefined) throw new ReceiptError('NOT_FOUND', `There is no print job ${jobId}.`);
    return this.submit(original.printer, original.subject, document, original.id);
  }

  /** A failed or waiting job, due now. */
  retryNow(jobId: string): PrintJob {
    const job = this.#journal.retryNow(jobId);
    this.emit('job', job);
    this.nudge(job.printer);
    return job;
  }

  cancel(jobId: string): PrintJob {
    const job = this.#journal.cancel(jobId);
    this.emit('job', job);
    return job;
  }

  /** Tries the printer's due jobs now (a new job, the printer back online). */
  nudge(printer: string): void {
    if (this.#closed) return;
    if (this.#running.has(printer)) {
      this.#again.add(printer);
      return;
    }
    clearTimeout(this.#timers.get(printer));
    this.#timers.delete(printer);
    const work = this.#work(printer).finally(() => {
      this.#running.delete(printer);
      if (this.#again.delete(printer)) this.nudge(printer);
    });
    this.#running.set(printer, work);
  }

  /** Resolves when no printer is being worked on (jobs waiting for their time may remain). */
  async idle(): Promise<void> {
    while (this.#running.size > 0) await Promise.all(this.#running.values());
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const timer of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
    await this.idle();
  }

  async #work(printer: string): Promise<void> {
    // Yield first, so `submit` returns before any printing starts.
    await Promise.resolve();
    for (;;) {
      if (this.#closed) return;
      const [next] = this.#journal.waiting(printer);
      if (next === undefined) return;
      const due = next.nextAttemptAt === null ? 0 : Date.parse(next.nextAttemptAt) - this.#now().getTime();
      if (due > 0) {
        // In order: a later job never overtakes one waiting for its retry.
        this.#timers.set(
          printer,
          setTimeout(() => this.nudge(printer), due),
        );
        return;
      }
      const job = this.#journal.markPrinting(next.id);
      this.emit('job', job);
      const device = this.#printer(printer);
      let outcome: PrintJob;
      try {
        if (device === undefined)
          throw Object.assign(new Error(`No printer named "${printer}" is configured.`), { code: 'NO_PRINTER' });
        await device.print(job.document);
        outcome = this.#journal.markPrinted(job.id);
      } catch (error) {
        const attempts = job.attempts;
        const wait = backoffDelay(attempts, { baseMs: this.#baseMs, capMs: this.#maxMs });
        const nextAt = attempts >= this.#maxAttempts ? null : new Date(this.#now().getTime() + wait).toISOString();
        outcome = this.#journal.markFailed(job.id, errorOf(error), nextAt);
      }
      this.emit('job', outcome);
    }
  }
}
