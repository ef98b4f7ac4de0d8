/**
 * Receipts on a system printer from the Electron shell: the receipt's HTML in a hidden, locked
 * down window, printed silently on the named printer at the paper's own size. Electron prints on
 * the driver's default sheet (A4 / Letter) unless `pageSize` is given — in microns, at least 353
 * each way — and with margins left to the driver a thermal printer gets a tiny or blank slip
 * (electron/electron#31705, #49374; anchors §6.2). So the page is exactly the strip of paper the
 * SVG renderer plans: the paper's width, and the receipt's own height.
 */
import type { BrowserWindowConstructorOptions, WebContentsPrintOptions } from 'electron';
import type { PaperColumns, PrintDocument } from '../../drivers/printers/document.js';
import { PrinterError } from '../../drivers/printers/errors.js';
import { renderHtml } from '../../drivers/printers/html.js';
import { planPaper } from '../../drivers/printers/svg.js';
import type { DocumentPrinter } from '../receipts/print-queue.js';

/** The part of a BrowserWindow this printer uses (a test double provides the same). */
export interface PrintWindow {
  loadURL(url: string): Promise<void>;
  readonly webContents: {
    print(options: WebContentsPrintOptions, callback: (success: boolean, failureReason: string) => void): void;
  };
  destroy(): void;
}

export type PrintWindowFactory = (options: BrowserWindowConstructorOptions) => PrintWindow;

export interface SystemPrinterOptions {
  /** The system's printer name (webContents.getPrintersAsync); absent: the default printer. */
  readonly deviceName?: string;
  readonly columns: PaperColumns;
}

/** Chromium refuses a page under 353 microns either way. */
const MIN_MICRONS = 353;

/** The hidden window: nothing to run, nothing to reach, only a page to print. */
export const PRINT_WINDOW_OPTIONS: BrowserWindowConstructorOptions = {
  show: false,
  webPreferences: {
    sandbox: true,
    contextIsolation: true,
    nodeIntegration: false,
    javascript: false,
    spellcheck: false,
  },
};

export class ElectronSystemPrinter implements DocumentPrinter {
  readonly #createWindow: PrintWindowFactory;
  readonly #options: SystemPrinterOptions;

  constructor(createWindow: PrintWindowFactory, options: SystemPrinterOptions) {
    this.#createWindow = createWindow;
    this.#options = options;
  }

  /** The print options for a document: silent, on the named printer, the page the size of the slip. */
  printOptions(document: PrintDocument): WebContentsPrintOptions {
    const plan = planPaper(document, this.#options.columns);
    return {
      silent: true,
      printBackground: true,
      ...(this.#options.deviceName !== undefined ? { deviceName: this.#options.deviceName } : {}),
      margins: { marginType: 'none' },
      pageSize: {
        width: Math.max(MIN_MICRONS, Math.round(plan.geometry.widthMm * 1000)),
        height: Math.max(MIN_MICRONS, Math.ceil(plan.heightMm * 1000)),
      },
    };
  }

  async print(document: PrintDocument): Promise<void> {
    const html = renderHtml(document, this.#options.columns, { title: document.title });
    const window = this.#createWindow(PRINT_WINDOW_OPTIONS);
    try {
      await window.loadURL(`data:text/html;charset=utf-8,${encodeURIComponent(html)}`);
      await new Promise<void>((resolve, reject) => {
        window.webContents.print(this.printOptions(document), (success, failureReason) => {
          if (success) resolve();
          else {
            const printer = this.#options.deviceName ?? 'the default printer';
            reject(
              new PrinterError(
                'PRINTER_ERROR',
                `The system printer (${printer}) did not print "${document.title}": ${failureReason || 'no reason given'}.`,
              ),
            );
          }
        });
      });
    } finally {
      window.destroy();
    }
  }
}
