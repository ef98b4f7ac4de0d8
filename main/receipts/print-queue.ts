/**
 * The print queue: jobs are journaled (PrintJournal) and printed in order, one at a time per
 * printer, in the background — `submit` returns at once, so printing never blocks or fails a
 * payment. A job the printer refuses (paper out, cover open, printer off, unreachable) waits with
 * a growing delay and is tried again; after `maxAttempts` it stays `failed`, visible, until the
 * cashier asks for it again (`retryNow`) or reprints it. `nudge(printer)` tries at once, for
 * when the printer reports it is ready again.
 *
 * A print journal that cannot be written (a full disk) stops nothing (issue 33): a job it cannot
 * take waits in memory (returned queued, its last error saying why) and an outcome it cannot
 * record is owed to it; both are written — and the held jobs printed — once it takes writes
 * again (`retryWrites`, and a back-off of its own). Nothing of the background work ever rejects
 * unhandled: a fault is emitted (`fault`) and the printer tried again later.
 */
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { backoffDelay } from '../../lib/backoff.js';
import { ioFaultOf, isIoFault } from '../../lib/io-faults.js';
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

/** Why the print journal cannot be written now; the jobs meanwhile wait in memory. */
export interface PrintJournalFailure {
  /** DISK_FULL, or the disk's own code (EROFS, SQLITE_IOERR…) when it fails otherwise. */
  readonly code: string;
  readonly message: string;
  /** ISO time of the first write that failed. */
  readonly since: string;
  /** Jobs in memory only, not journaled yet (not printed until they are). */
  readonly heldJobs: number;
}

interface QueueEvents {
  /** Every change of a job (queued, printing, printed, waiting again, failed, cancelled). */
  job: [PrintJob];
  /** The print journal stopped taking writes (the disk is full): jobs wait in memory; undefined once it takes them again. */
  journal: [failure: PrintJournalFailure | undefined];
  /** Something went wrong in the background work on a printer (not the printer's own refusal): tried again later. */
  fault: [error: unknown, printer: string];
}

function errorOf(error: unknown): PrintJobError {
  const code =
    typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string'
      ? (error as { code: string }).code
      : 'PRINTER_ERROR';
  return { code, message: error instanceof Error ? error.message : String(error) };
}

/** A job submitted while the print journal could not take it: in memory until it can. */
interface HeldJob {
  readonly job: PrintJob;
  readonly document: PrintDocument;
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
  /** Jobs submitted while the journal could not take them, oldest first. */
  readonly #held = new Map<string, HeldJob>();
  /** What the journal still has to be told about jobs already handled (printed, or an attempt failed), by job id. */
  readonly #owed = new Map<string, () => PrintJob>();
  #failure: PrintJournalFailure | undefined;
  #retryTimer: NodeJS.Timeout | undefined;
  #retries = 0;
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

  /** Why the print journal cannot be written now (jobs wait in memory), or undefined. */
  get journalFailure(): PrintJournalFailure | undefined {
    return this.#failure;
  }

  /** Works off what an earlier run left queued. */
  start(): void {
    for (const printer of this.#journal.printersWaiting()) this.nudge(printer);
  }

  /**
   * Journals the job and returns it at once; it prints in the background. When the journal cannot
   * take it (a full disk) the job is held in memory — returned queued, with the reason as its
   * last error — and journaled, then printed, once the journal takes writes again: never lost
   * silently, never printed unjournaled, never thrown at a sale.
   */
  submit(printer: string, subject: string, document: PrintDocument, reprintOf: string | null = null): PrintJob {
    // Jobs held before it go first: the paper keeps their order.
    if (this.#held.size > 0 || this.#owed.size > 0) this.#flush();
    if (this.#held.size === 0) {
      try {
        const job = this.#journal.enqueue({ printer, subject, document, reprintOf });
        this.#recovered();
        this.emit('job', job);
        this.nudge(printer);
        return job;
      } catch (error) {
        if (!isIoFault(error)) throw error;
        this.#fail(error);
      }
    }
    const at = this.#now().toISOString();
    const job: PrintJob = {
      id: randomBytes(16).toString('hex'),
      printer,
      subject,
      title: document.title,
      document,
      state: 'queued',
      attempts: 0,
      lastError: this.#failureError(),
      nextAttemptAt: null,
      reprintOf,
      createdAt: at,
      updatedAt: at,
      printedAt: null,
    };
    this.#held.set(job.id, { job, document });
    this.#fail(undefined);
    this.emit('job', job);
    return job;
  }

  /** A new job printing `document` again (built by the caller with its reprint mark). */
  reprint(jobId: string, document: PrintDocument): PrintJob {
    const original = this.#held.get(jobId)?.job ?? this.#journal.get(jobId);
    if (original === undefined) throw new ReceiptError('NOT_FOUND', `There is no print job ${jobId}.`);
    return this.submit(original.printer, original.subject, document, original.id);
  }

  /** A failed or waiting job, due now. */
  retryNow(jobId: string): PrintJob {
    const held = this.#held.get(jobId);
    if (held !== undefined) {
      this.retryWrites();
      return this.#held.has(jobId) ? held.job : (this.#journal.get(jobId) ?? held.job);
    }
    const job = this.#journal.retryNow(jobId);
    this.emit('job', job);
    this.nudge(job.printer);
    return job;
  }

  cancel(jobId: string): PrintJob {
    const held = this.#held.get(jobId);
    if (held !== undefined) {
      this.#held.delete(jobId);
      const job: PrintJob = { ...held.job, state: 'cancelled', updatedAt: this.#now().toISOString() };
      this.emit('job', job);
      return job;
    }
    const job = this.#journal.cancel(jobId);
    this.emit('job', job);
    return job;
  }

  /**
   * Writes to the journal what waits in memory (held jobs, outcomes it was not told) and prints
   * on: for when the disk has room again. Also tried on its own, with a back-off.
   */
  retryWrites(): void {
    if (this.#closed || !this.#flush()) return;
    for (const printer of this.#journal.printersWaiting()) this.nudge(printer);
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
    const work = this.#work(printer)
      // Never an unhandled rejection (issue 33): said, and the printer tried again later.
      .catch((error: unknown) => {
        this.emit('fault', error, printer);
        if (isIoFault(error)) this.#fail(error);
        else this.#later(printer, this.#maxMs);
      })
      .finally(() => {
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
    clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    await this.idle();
  }

  async #work(printer: string): Promise<void> {
    // Yield first, so `submit` returns before any printing starts.
    await Promise.resolve();
    for (;;) {
      if (this.#closed) return;
      // What the journal was not told comes first; while it cannot be, nothing prints.
      if ((this.#held.size > 0 || this.#owed.size > 0) && !this.#flush()) return;
      const [next] = this.#journal.waiting(printer);
      if (next === undefined) return;
      const due = next.nextAttemptAt === null ? 0 : Date.parse(next.nextAttemptAt) - this.#now().getTime();
      if (due > 0) {
        // In order: a later job never overtakes one waiting for its retry.
        this.#later(printer, due);
        return;
      }
      let job: PrintJob;
      try {
        job = this.#journal.markPrinting(next.id);
        this.#recovered();
      } catch (error) {
        if (!isIoFault(error)) throw error;
        // Not printed: a receipt is printed only once its attempt is journaled.
        this.#fail(error);
        return;
      }
      this.emit('job', job);
      const device = this.#printer(printer);
      let write: () => PrintJob;
      let unwritten: PrintJob;
      try {
        if (device === undefined)
          throw Object.assign(new Error(`No printer named "${printer}" is configured.`), { code: 'NO_PRINTER' });
        await device.print(job.document);
        write = () => this.#journal.markPrinted(job.id);
        const at = this.#now().toISOString();
        unwritten = { ...job, state: 'printed', printedAt: at, updatedAt: at, lastError: null };
      } catch (error) {
        const attempts = job.attempts;
        const wait = backoffDelay(attempts, { baseMs: this.#baseMs, capMs: this.#maxMs });
        const nextAt = attempts >= this.#maxAttempts ? null : new Date(this.#now().getTime() + wait).toISOString();
        const failure = errorOf(error);
        write = () => this.#journal.markFailed(job.id, failure, nextAt);
        unwritten = {
          ...job,
          state: nextAt === null ? 'failed' : 'queued',
          lastError: failure,
          nextAttemptAt: nextAt,
          updatedAt: this.#now().toISOString(),
        };
      }
      try {
        this.emit('job', write());
        this.#recovered();
      } catch (error) {
        if (!isIoFault(error)) throw error;
        // On paper (or not) all the same: the journal is told once it takes writes again.
        this.#owed.set(job.id, write);
        this.#fail(error);
        this.emit('job', unwritten);
        return;
      }
    }
  }

  /** The printer's next look at its jobs in `ms`. */
  #later(printer: string, ms: number): void {
    if (this.#closed) return;
    clearTimeout(this.#timers.get(printer));
    this.#timers.set(
      printer,
      setTimeout(() => this.nudge(printer), ms),
    );
  }

  /**
   * Tells the journal what waits in memory, oldest first; false (and a retry later) when it still
   * cannot take it. A write the journal refuses for another reason (the job was cancelled since)
   * is dropped and said.
   */
  #flush(): boolean {
    let wrote = false;
    try {
      for (const [id, write] of this.#owed) {
        try {
          this.emit('job', write());
          wrote = true;
        } catch (error) {
          if (isIoFault(error)) throw error;
          this.emit('fault', error, '');
        }
        this.#owed.delete(id);
      }
      for (const [id, held] of this.#held) {
        const { job } = held;
        const journaled = this.#journal.enqueue({
          id,
          printer: job.printer,
          subject: job.subject,
          document: held.document,
          reprintOf: job.reprintOf,
        });
        this.#held.delete(id);
        wrote = true;
        this.emit('job', journaled);
        this.nudge(job.printer);
      }
    } catch (error) {
      if (!isIoFault(error)) throw error;
      this.#fail(error);
      return false;
    }
    if (wrote) this.#recovered();
    return true;
  }

  /** A write went through: the failure is over once nothing waits in memory. */
  #recovered(): void {
    if (this.#failure === undefined || this.#held.size > 0 || this.#owed.size > 0) return;
    this.#failure = undefined;
    this.#retries = 0;
    clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    this.emit('journal', undefined);
  }

  /** The journal refused a write (`error`; undefined: only the count of held jobs changed): said once, retried with a back-off. */
  #fail(error: unknown): void {
    const first = this.#failure === undefined;
    if (first && error !== undefined) {
      const fault = ioFaultOf(error);
      this.#failure = {
        code: fault?.kind === 'full' ? 'DISK_FULL' : (fault?.code ?? 'DISK_ERROR'),
        message: `the print journal cannot be written (${fault?.code ?? (error instanceof Error ? error.message : 'an error')}): jobs wait in memory and print once it can`,
        since: this.#now().toISOString(),
        heldJobs: this.#held.size,
      };
    } else if (this.#failure !== undefined) {
      this.#failure = { ...this.#failure, heldJobs: this.#held.size };
    }
    if (this.#failure === undefined) return;
    if (first) this.emit('journal', this.#failure);
    if (this.#retryTimer === undefined && !this.#closed) {
      this.#retries += 1;
      this.#retryTimer = setTimeout(
        () => {
          this.#retryTimer = undefined;
          this.retryWrites();
        },
        backoffDelay(this.#retries, { baseMs: this.#baseMs, capMs: this.#maxMs }),
      );
      this.#retryTimer.unref();
    }
  }

  /** A held job's last error: why it waits. */
  #failureError(): PrintJobError {
    return {
      code: this.#failure?.code ?? 'DISK_FULL',
      message: this.#failure?.message ?? 'the print journal cannot be written: the job waits in memory',
    };
  }
}
