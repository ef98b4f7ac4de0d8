/**
 * The store's receipt printers, as settings (one TypeBox schema: validation, type, documentation)
 * and as DocumentPrinters for the print queue: each printer is an address (tcp://, serial:,
 * file:, lp://), the language it speaks (ESC/POS, or PDF for a system printer without it), its
 * paper width and, for ESC/POS, its model — which picks the code page that prints "ç" and "ã".
 */
import { Type, type Static } from 'typebox';
import type { PaperColumns, PrintDocument } from '../../drivers/printers/document.js';
import { encodeEscPos, ESC_POS_CODEPAGES, escPosPrinterModels } from '../../drivers/printers/escpos.js';
import { ReceiptPrinter } from '../../drivers/printers/printer.js';
import {
  createTransport,
  parsePrinterAddress,
  type PrinterTransportOptions,
} from '../../drivers/printers/transport.js';
import type { DocumentPrinter } from './print-queue.js';
import { SETTINGS_FIELDS } from '../core/settings-fields.js';
import { settingsViolation, type SettingsViolation } from '../core/settings-violations.js';

export const DEFAULT_PRINTER = 'default';

export const PrinterSettings = Type.Object(
  {
    // The window sets the default printer's: declared, with its texts, in main/core/settings-fields.ts.
    address: SETTINGS_FIELDS['printers.default.address'].schema,
    format: Type.Optional(
      Type.Union([Type.Literal('escpos'), Type.Literal('pdf')], {
        description: '"escpos" (default) for receipt printers; "pdf" for a system printer that does not speak ESC/POS.',
      }),
    ),
    model: Type.Optional(
      Type.String({
        minLength: 1,
        description:
          'ESC/POS printer model id (pinbridge printer models lists them; it picks the code page); leave it out for an Epson-compatible printer.',
      }),
    ),
    codepage: Type.Optional(
      Type.String({
        minLength: 1,
        description: `Forces the code page of a printer whose model is not listed: ${ESC_POS_CODEPAGES.join(', ')}.`,
      }),
    ),
    columns: Type.Optional(
      Type.Union([Type.Literal(32), Type.Literal(42), Type.Literal(48)], {
        description: 'Characters per line: 32 on 58 mm paper, 42 or 48 on 80 mm (default 48).',
      }),
    ),
    check_status: Type.Optional(
      Type.Boolean({
        description: 'Ask the printer for paper and cover status before each job (default true where the link can).',
      }),
    ),
  },
  { additionalProperties: false, title: 'PrinterSettings' },
);
export type PrinterSettings = Static<typeof PrinterSettings>;

/** Printers by name; receipts go to "default". */
export const PrintersSettings = Type.Record(Type.String({ pattern: '^[A-Za-z0-9_-]{1,32}$' }), PrinterSettings, {
  description: 'Receipt printers by name; receipts go to "default".',
});
export type PrintersSettings = Static<typeof PrintersSettings>;

/** Violations the schema cannot see: an address that does not parse, an unknown model or code page. */
export function printerViolations(printers: PrintersSettings): SettingsViolation[] {
  const violations: SettingsViolation[] = [];
  for (const [name, printer] of Object.entries(printers)) {
    try {
      parsePrinterAddress(printer.address);
    } catch (error) {
      violations.push(
        settingsViolation(
          `printers.${name}.address`,
          'INVALID_PRINTER_ADDRESS',
          error instanceof Error ? error.message : String(error),
        ),
      );
    }
    if (printer.model !== undefined && !escPosPrinterModels().some((model) => model.id === printer.model)) {
      violations.push(
        settingsViolation(
          `printers.${name}.model`,
          'UNKNOWN_PRINTER_MODEL',
          `"${printer.model}" is not a known printer model (${escPosPrinterModels()
            .map((m) => m.id)
            .join(', ')})`,
        ),
      );
    }
    if (printer.codepage !== undefined && !(ESC_POS_CODEPAGES as readonly string[]).includes(printer.codepage)) {
      violations.push(
        settingsViolation(
          `printers.${name}.codepage`,
          'INVALID_CODEPAGE',
          `must be one of ${ESC_POS_CODEPAGES.join(', ')}`,
        ),
      );
    }
  }
  return violations;
}

export const printerColumns = (settings: PrinterSettings): PaperColumns => settings.columns ?? 48;

/** The bytes a printer of these settings takes for a document. */
export async function printerBytes(settings: PrinterSettings, document: PrintDocument): Promise<Uint8Array> {
  const columns = printerColumns(settings);
  // pdfkit is loaded only by a PDF printer's first job, not at every start.
  if (settings.format === 'pdf') return (await import('../../drivers/printers/pdf.js')).renderPdf(document, columns);
  return encodeEscPos(document, {
    columns,
    ...(settings.model !== undefined ? { printerModel: settings.model } : {}),
    ...(settings.codepage !== undefined ? { codepage: settings.codepage } : {}),
  });
}

/**
 * A DocumentPrinter over a ReceiptPrinter: opened on first use, kept open between jobs (the
 * transport reconnects after a drop), status checked before each job where the link can.
 * `check()` is its first look, at start, so the window knows at once whether it can print.
 */
export class SettingsPrinter implements DocumentPrinter {
  readonly device: ReceiptPrinter;
  readonly #statusChecks: boolean;
  readonly #retryMs: number;
  #opened: Promise<void> | undefined;
  #retryTimer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(
    readonly settings: PrinterSettings,
    options: { transport?: PrinterTransportOptions; pollMs?: number; retryMs?: number } = {},
  ) {
    // A PDF goes to a system printer as a file: there is no status to ask for on that link.
    this.#statusChecks = settings.format !== 'pdf' && settings.check_status !== false;
    this.#retryMs = options.retryMs ?? options.pollMs ?? 0;
    this.device = new ReceiptPrinter(createTransport(settings.address, options.transport ?? {}), {
      checkStatusBeforePrint: this.#statusChecks,
      ...(options.pollMs !== undefined ? { pollMs: options.pollMs } : {}),
    });
  }

  /**
   * The printer's first check, at start: opens its link (a connection within the transport's time
   * limit, 5 s for a network printer) and, where the link can say, reads its status. Until then
   * the printer is "not checked yet"; after it, connected or not, within seconds of start rather
   * than at the first receipt. A printer out of reach is tried again every `retryMs` (the polling
   * period by default) until it answers; from then on the device's polling watches it. A system
   * printer (lp://) is not looked at: its spooler takes every job whatever the printer's state.
   * Never rejects: what it found is the device's state and events.
   */
  async check(): Promise<void> {
    if (this.#closed || this.device.transport.kind === 'command') return;
    try {
      await this.#open();
    } catch {
      this.#retryLater();
      return;
    }
    // A link failure here is reported by the device (disconnected); its polling tries again.
    if (this.#statusChecks && this.device.canReportStatus) await this.device.status().catch(() => undefined);
  }

  async print(document: PrintDocument): Promise<void> {
    const bytes = await printerBytes(this.settings, document);
    await this.#open();
    await this.device.print(bytes);
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#retryTimer !== undefined) clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    this.#opened = undefined;
    await this.device.close();
  }

  /** One open shared by the first check and the first job; a failed one is tried again next time. */
  #open(): Promise<void> {
    this.#opened ??= this.device.open().catch((error: unknown) => {
      this.#opened = undefined;
      throw error;
    });
    return this.#opened;
  }

  #retryLater(): void {
    if (this.#closed || this.#retryMs <= 0 || this.#retryTimer !== undefined) return;
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = undefined;
      void this.check();
    }, this.#retryMs);
    // Watching a printer must not keep the process alive.
    this.#retryTimer.unref();
  }
}
