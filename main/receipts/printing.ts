/**
 * The agent's receipt printing, assembled from settings: the print journal beside the payment
 * journal, one printer per configured name, the queue, and the receipt service that prints by
 * itself when a payment ends. Without a printer configured, receipts are still built (for the
 * screen and the POS) and nothing is queued.
 */
import { dirname, join } from 'node:path';
import type { Journal } from '../core/journal/journal.js';
import type { ReceiptCopy } from './card-receipt.js';
import { PrintJournal } from './print-jobs.js';
import { PrintQueue } from './print-queue.js';
import type { PaperColumns } from '../../drivers/printers/document.js';
import { parsePrinterAddress } from '../../drivers/printers/transport.js';
import type { DocumentPrinter } from './print-queue.js';
import { printerColumns, SettingsPrinter, type PrintersSettings } from './printers.js';
import { ReceiptService } from './service.js';
import type { ReceiptSettings } from './settings.js';

export interface ReceiptPrintingOptions {
  readonly journal: Journal;
  readonly store: ReceiptSettings;
  readonly training: boolean;
  readonly printers: PrintersSettings;
  readonly autoPrint: readonly ReceiptCopy[];
  /**
   * Read each printer's status this often and report changes (0: only around jobs); a printer out
   * of reach at start is looked for again as often.
   */
  readonly pollMs?: number;
  /**
   * Who prints a system printer's jobs (an `lp://NAME` address) instead of the `lp` command: the
   * desktop app gives Electron's printing, at the receipt's own paper size, which also works where
   * there is no `lp` (Windows). `deviceName` is NAME, undefined for the default printer.
   */
  readonly systemPrinter?: (deviceName: string | undefined, columns: PaperColumns) => DocumentPrinter;
}

export interface ReceiptPrinting {
  readonly service: ReceiptService;
  /** Absent when no printer is configured. */
  readonly queue: PrintQueue | undefined;
  readonly printers: ReadonlyMap<string, SettingsPrinter>;
  close(): Promise<void>;
}

/** `print-jobs.db` beside the payment journal. */
export const printJournalPath = (journalPath: string): string => join(dirname(journalPath), 'print-jobs.db');

export function openReceiptPrinting(options: ReceiptPrintingOptions): ReceiptPrinting {
  const printers = new Map(
    Object.entries(options.printers).map(([name, settings]) => [
      name,
      new SettingsPrinter(settings, { pollMs: options.pollMs ?? 0 }),
    ]),
  );
  const prints = printers.size > 0 ? PrintJournal.open(printJournalPath(options.journal.path)) : undefined;
  const system = new Map<string, DocumentPrinter>();
  if (options.systemPrinter !== undefined) {
    for (const [name, settings] of Object.entries(options.printers)) {
      const address = parsePrinterAddress(settings.address);
      if (address.kind === 'system')
        system.set(name, options.systemPrinter(address.printer ?? undefined, printerColumns(settings)));
    }
  }
  const queue =
    prints === undefined
      ? undefined
      : new PrintQueue({ journal: prints, printer: (name) => system.get(name) ?? printers.get(name) });
  // A printer that comes back (status readable again, paper in) gets its waiting jobs at once.
  for (const [name, printer] of printers) {
    printer.device.on('status', (status) => {
      if (!status.paperOut && !status.coverOpen) queue?.nudge(name);
    });
    printer.device.on('connected', () => queue?.nudge(name));
  }
  const service = new ReceiptService({
    journal: options.journal,
    settings: options.store,
    training: options.training,
    ...(queue === undefined ? {} : { queue }),
    autoPrint: options.autoPrint,
    columnsOf: (name) => {
      const printer = options.printers[name];
      return printer === undefined ? undefined : printerColumns(printer);
    },
  });
  queue?.start();
  // Each printer's first check, now: the window says whether it can print within seconds of start.
  for (const printer of printers.values()) void printer.check();
  return {
    service,
    queue,
    printers,
    async close() {
      await queue?.close();
      for (const printer of printers.values()) await printer.close().catch(() => undefined);
      prints?.close();
    },
  };
}
