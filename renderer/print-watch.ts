/**
 * What became of a print, in the cashier's words and in the tone it deserves — the same on every
 * page that prints (a sale's receipt, "Reimprimir último comprovante", the settings' test page):
 * printed is a success; queued or printing is on its way; anything not printed is a failure,
 * said with its reason (Pinbridge keeps trying by itself while it can). A job still waiting its
 * turn for a printer the agent knows is off, out of paper or open is said not printed at once,
 * with that reason: the agent's queue tries jobs in order, so its own first attempt may come only
 * after an older job's next retry.
 */
import type { EventPayload } from '../client/index.js';
import type { WindowContext } from './context.js';
import { t, type MessageKey } from './i18n.js';
import { printErrorText } from './labels.js';

export type PrintJob = EventPayload<'printer.job'>;
export type PrinterStatus = EventPayload<'printer.status'>;

/** ok: printed; pending: on its way; bad: not printed (a failure, styled as one). */
export type PrintTone = 'ok' | 'pending' | 'bad';

export interface PrintWords {
  readonly tone: PrintTone;
  readonly text: string;
}

/** The texts of one kind of print; `notYet` and `failed` take {error}. */
export interface PrintTexts {
  readonly queued: MessageKey;
  readonly printing: MessageKey;
  readonly printed: MessageKey;
  /** Not printed yet; the agent tries again by itself. */
  readonly notYet: MessageKey;
  /** Not printed, and the agent stopped trying. */
  readonly failed: MessageKey;
  readonly cancelled: MessageKey;
}

export const RECEIPT_TEXTS: PrintTexts = {
  queued: 'sale.printQueued',
  printing: 'sale.printPrinting',
  printed: 'sale.printPrinted',
  notYet: 'sale.printRetrying',
  failed: 'sale.printFailed',
  cancelled: 'sale.printCancelled',
};

/**
 * Why a printer cannot print now, as a print error code (printError.* in the catalogs), or null
 * when nothing is known against it (never contacted yet counts as nothing known).
 */
export function printerTrouble(printer: PrinterStatus | undefined): string | null {
  if (printer === undefined) return null;
  if (printer.connected === false) return 'UNREACHABLE';
  if (printer.paper_out) return 'PAPER_OUT';
  if (printer.cover_open) return 'COVER_OPEN';
  return printer.error;
}

/** A job's state in words and tone, knowing what the agent last said of its printer. */
export function printWords(
  job: Pick<PrintJob, 'state' | 'error'>,
  printer: PrinterStatus | undefined,
  texts: PrintTexts = RECEIPT_TEXTS,
): PrintWords {
  switch (job.state) {
    case 'printed':
      return { tone: 'ok', text: t(texts.printed) };
    case 'printing':
      return { tone: 'pending', text: t(texts.printing) };
    case 'failed':
      return { tone: 'bad', text: t(texts.failed, { error: printErrorText(job.error?.code ?? 'PRINTER_ERROR') }) };
    case 'cancelled':
      return { tone: 'bad', text: t(texts.cancelled) };
    case 'queued': {
      // Its own failed attempt says why; else the printer's known trouble does.
      const code = job.error?.code ?? printerTrouble(printer);
      return code === null
        ? { tone: 'pending', text: t(texts.queued) }
        : { tone: 'bad', text: t(texts.notYet, { error: printErrorText(code) }) };
    }
  }
}

/** A job in one of these states will not change again. */
const FINAL_STATES: ReadonlySet<PrintJob['state']> = new Set(['printed', 'failed', 'cancelled']);

/**
 * Follows one print job to its end (printer.job), and its printer (printer.status), and calls
 * `onChange` with its words each time they may have changed. Events that come while the print's
 * call is in flight are kept: the job may change before its answer arrives, and the answer must
 * not take it back to "queued".
 */
export class PrintWatch {
  readonly #context: WindowContext;
  readonly #texts: PrintTexts;
  readonly #onChange: () => void;
  #job: PrintJob | null = null;
  /** What the agent last said of the job's printer (its events, or the status page's copy). */
  #printer: PrinterStatus | undefined;
  #sending = false;
  readonly #early = new Map<string, PrintJob>();

  constructor(context: WindowContext, onChange: () => void, texts: PrintTexts = RECEIPT_TEXTS) {
    this.#context = context;
    this.#texts = texts;
    this.#onChange = onChange;
    context.client.on('printer.job', (job) => {
      if (this.#sending) {
        this.#early.set(job.id, job);
        return;
      }
      const followed = this.#job;
      if (followed === null || followed.id !== job.id || FINAL_STATES.has(followed.state)) return;
      this.#job = job;
      this.#onChange();
    });
    context.client.on('printer.status', (printer) => {
      const followed = this.#job;
      if (followed === null || followed.printer !== printer.name) return;
      this.#printer = printer;
      if (followed.state === 'queued') this.#onChange();
    });
  }

  /** A print is being asked for: nothing is followed until its answer (`follow`). */
  sending(): void {
    this.#sending = true;
    this.#early.clear();
    this.#job = null;
  }

  /** The job the agent answered with (undefined: none, or the call failed); followed from now on. */
  follow(job: PrintJob | undefined): void {
    this.#sending = false;
    this.#job = job === undefined ? null : (this.#early.get(job.id) ?? job);
    this.#early.clear();
    this.#printer = this.#job === null ? undefined : this.#context.printer(this.#job.printer);
    this.#onChange();
  }

  /** Stops following (another sale shown, the message cleared). */
  stop(): void {
    this.#sending = false;
    this.#early.clear();
    this.#job = null;
  }

  /** The job followed, as the agent last told. */
  get job(): PrintJob | null {
    return this.#job;
  }

  /** The followed job in the current language; null when none is followed. */
  words(): PrintWords | null {
    return this.#job === null ? null : printWords(this.#job, this.#printer, this.#texts);
  }
}
