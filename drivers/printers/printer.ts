/**
 * A receipt printer as the agent sees it: bytes in, status out. Before each job it asks the printer
 * (where the transport can carry the question) whether it can print, so a receipt is not sent into a
 * printer with no paper or an open cover, where it would be lost or come out minutes later. It can
 * also watch the printer and tell the UI when its status or its connection changes.
 *
 * Every wait ends: status answers, writes, connections and commands all have time limits in the
 * transports, so `print()` and `status()` always settle.
 */
import { EventEmitter } from 'node:events';
import { PrinterError, isLinkFailure } from './errors.js';
import {
  parseStatusAnswers,
  sameStatus,
  statusRequestBytes,
  StatusRequest,
  type PrinterStatus,
  type StatusParseOptions,
} from './status.js';
import type { PrinterTransport } from './transport.js';
import { Exclusive } from './transports/exclusive.js';

export interface ReceiptPrinterEvents {
  /** The status differs from the last one read (the first read always counts as a change). */
  status: [status: PrinterStatus, previous: PrinterStatus | undefined];
  /** The printer became reachable (first contact, or back after a drop). */
  connected: [];
  /** The printer stopped being reachable; `error` says how. */
  disconnected: [error: PrinterError];
  /** A poll got an answer that is not a valid status (the printer stays "connected"). */
  statusError: [error: PrinterError];
}

export interface ReceiptPrinterOptions extends StatusParseOptions {
  /** How long to wait for each status answer byte. Default 2000 ms. */
  readonly statusTimeoutMs?: number;
  /** Read the status every this many ms and report changes; 0 or absent: no polling. */
  readonly pollMs?: number;
  /**
   * Ask the printer before each job (default true, when the transport can). Off for printers that
   * print ESC/POS but do not answer DLE EOT on this link.
   */
  readonly checkStatusBeforePrint?: boolean;
}

const REQUESTS = [
  StatusRequest.printer,
  StatusRequest.offlineCause,
  StatusRequest.errorCause,
  StatusRequest.rollPaper,
] as const;

/** Why a printer in this state cannot take a job, or undefined when it can. */
export function printRefusal(status: PrinterStatus): PrinterError | undefined {
  if (status.paperOut) {
    return new PrinterError('PAPER_OUT', 'The printer is out of paper; load a new roll and print again.', { status });
  }
  if (status.coverOpen) {
    return new PrinterError('COVER_OPEN', "The printer's cover is open; close it and print again.", { status });
  }
  // An auto-recoverable error (print head cooling down) clears by itself; the printer prints the job then.
  if (status.error !== null && status.error !== 'AUTO_RECOVERABLE') {
    return new PrinterError(
      'PRINTER_ERROR',
      `The printer reports an error (${status.error}); check it (paper jam, cutter) and switch it off and on if it persists.`,
      { status },
    );
  }
  return undefined;
}

export class ReceiptPrinter extends EventEmitter<ReceiptPrinterEvents> {
  readonly #statusTimeoutMs: number;
  readonly #pollMs: number;
  readonly #checkStatusBeforePrint: boolean;
  readonly #parseOptions: StatusParseOptions;
  readonly #exclusive = new Exclusive();
  #last: PrinterStatus | undefined;
  /** undefined until the first contact (or failure) says which. */
  #reachable: boolean | undefined;
  #pollTimer: NodeJS.Timeout | undefined;
  #closed = false;
  readonly #onTransportConnected = (): void => this.#setReachable(true);
  readonly #onTransportDisconnected = (error: PrinterError): void => this.#setReachable(false, error);

  constructor(
    readonly transport: PrinterTransport,
    options: ReceiptPrinterOptions = {},
  ) {
    super();
    this.#statusTimeoutMs = options.statusTimeoutMs ?? 2000;
    this.#pollMs = options.pollMs ?? 0;
    this.#checkStatusBeforePrint = options.checkStatusBeforePrint ?? true;
    this.#parseOptions = options.drawerOpenLevel ? { drawerOpenLevel: options.drawerOpenLevel } : {};
    transport.on('connected', this.#onTransportConnected);
    transport.on('disconnected', this.#onTransportDisconnected);
  }

  /** Whether status() can work on this transport (not on device files and print commands). */
  get canReportStatus(): boolean {
    return typeof this.transport.request === 'function';
  }

  /** The last status read, if any. */
  get lastStatus(): PrinterStatus | undefined {
    return this.#last;
  }

  /** Whether the printer was reachable at the last contact (undefined before any). */
  get connected(): boolean | undefined {
    return this.#reachable;
  }

  /** Opens the transport and starts polling when asked to; rejects with the transport's PrinterError. */
  async open(): Promise<void> {
    this.#closed = false;
    try {
      await this.transport.open();
    } catch (error) {
      if (isLinkFailure(error)) this.#setReachable(false, error);
      throw error;
    }
    this.#setReachable(true);
    this.#schedulePoll();
  }

  /**
   * Prints `bytes`: checks the status first where the transport can report it and refuses with
   * PAPER_OUT, COVER_OPEN or PRINTER_ERROR (nothing sent), then sends the bytes.
   */
  print(bytes: Uint8Array): Promise<void> {
    return this.#exclusive.run(async () => {
      if (this.#checkStatusBeforePrint && this.canReportStatus) {
        const refusal = printRefusal(await this.#readStatus());
        if (refusal) throw refusal;
      }
      try {
        await this.transport.write(bytes);
      } catch (error) {
        if (isLinkFailure(error)) this.#setReachable(false, error);
        throw error;
      }
      this.#setReachable(true);
    });
  }

  /** Reads the printer's status now; PrinterError('STATUS_UNAVAILABLE') on write-only transports. */
  status(): Promise<PrinterStatus> {
    return this.#exclusive.run(() => this.#readStatus());
  }

  /** Stops polling and closes the transport. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#pollTimer) clearTimeout(this.#pollTimer);
    this.#pollTimer = undefined;
    await this.transport.close();
  }

  /** Stops listening to the transport (for a printer object that is being replaced). */
  dispose(): void {
    this.transport.off('connected', this.#onTransportConnected);
    this.transport.off('disconnected', this.#onTransportDisconnected);
  }

  async #readStatus(): Promise<PrinterStatus> {
    const request = this.transport.request?.bind(this.transport);
    if (!request) {
      throw new PrinterError(
        'STATUS_UNAVAILABLE',
        `The printer at ${this.transport.address} is reached through a ${this.transport.kind === 'file' ? 'device file' : 'print command'}, which cannot report its status.`,
      );
    }
    const answers: number[] = [];
    try {
      for (const n of REQUESTS) {
        const answer = await request(statusRequestBytes(n), 1, this.#statusTimeoutMs);
        answers.push(answer[0] ?? -1);
      }
    } catch (error) {
      if (isLinkFailure(error)) this.#setReachable(false, error);
      throw error;
    }
    this.#setReachable(true);
    const [printer = -1, offlineCause = -1, errorCause = -1, rollPaper = -1] = answers;
    const status = parseStatusAnswers({ printer, offlineCause, errorCause, rollPaper }, this.#parseOptions);
    const previous = this.#last;
    this.#last = status;
    if (!previous || !sameStatus(previous, status)) this.emit('status', status, previous);
    return status;
  }

  #setReachable(value: boolean, error?: PrinterError): void {
    // After close() the link goes away on purpose; that is not news.
    if (this.#closed || this.#reachable === value) return;
    this.#reachable = value;
    if (value) this.emit('connected');
    else
      this.emit(
        'disconnected',
        error ?? new PrinterError('DISCONNECTED', `The printer at ${this.transport.address} cannot be reached.`),
      );
  }

  #schedulePoll(): void {
    if (this.#closed || this.#pollMs <= 0 || !this.canReportStatus || this.#pollTimer) return;
    this.#pollTimer = setTimeout(() => {
      void this.#pollOnce().finally(() => {
        this.#pollTimer = undefined;
        this.#schedulePoll();
      });
    }, this.#pollMs);
    // Polling alone must not keep the process alive.
    this.#pollTimer.unref();
  }

  async #pollOnce(): Promise<void> {
    // A job or a status read in progress already tells us what a poll would; skip this round.
    if (this.#exclusive.busy) return;
    try {
      await this.status();
    } catch (error) {
      // Link failures were reported as `disconnected`; anything else is a bad answer.
      if (error instanceof PrinterError && !isLinkFailure(error)) this.emit('statusError', error);
    }
  }
}
