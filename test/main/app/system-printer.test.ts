/**
 * The Electron shell's system-printer printing, against a test double of a BrowserWindow: what
 * window it opens, what it loads, the print options Electron gets (silent, the printer, the
 * slip's own page size in microns, no margins), and what a failed print becomes.
 */
import type { BrowserWindowConstructorOptions, WebContentsPrintOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import type { PrintDocument } from '../../../drivers/printers/document.js';
import { renderHtml } from '../../../drivers/printers/html.js';
import { planPaper } from '../../../drivers/printers/svg.js';
import { ElectronSystemPrinter, type PrintWindow } from '../../../main/app/system-printer.js';

class WindowDouble implements PrintWindow {
  loaded: string | undefined;
  printed: WebContentsPrintOptions | undefined;
  destroyed = false;
  readonly #answer: [boolean, string];

  constructor(
    readonly options: BrowserWindowConstructorOptions,
    answer: [boolean, string],
  ) {
    this.#answer = answer;
  }
  loadURL(url: string): Promise<void> {
    this.loaded = url;
    return Promise.resolve();
  }
  readonly webContents = {
    print: (options: WebContentsPrintOptions, callback: (success: boolean, failureReason: string) => void): void => {
      this.printed = options;
      setImmediate(() => callback(...this.#answer));
    },
  };
  destroy(): void {
    this.destroyed = true;
  }
}

const document: PrintDocument = {
  title: 'Comprovante de venda — via do cliente',
  blocks: [
    { kind: 'text', text: 'PADARIA PÃO DOURADO', align: 'center', bold: true },
    { kind: 'pair', label: 'VALOR', value: 'R$ 450,00' },
    { kind: 'text', text: 'APROVADA', align: 'center', large: true },
  ],
};

function printer(
  answer: [boolean, string] = [true, ''],
  deviceName?: string,
): { printer: ElectronSystemPrinter; windows: WindowDouble[] } {
  const windows: WindowDouble[] = [];
  const make = (options: BrowserWindowConstructorOptions): WindowDouble => {
    const window = new WindowDouble(options, answer);
    windows.push(window);
    return window;
  };
  return { printer: new ElectronSystemPrinter(make, { columns: 48, ...(deviceName ? { deviceName } : {}) }), windows };
}

describe('printing a receipt on a system printer from the Electron shell', () => {
  it('loads the receipt HTML in a hidden, sandboxed window without scripts, prints it silently, and closes the window', async () => {
    const { printer: system, windows } = printer([true, ''], 'EPSON_TM_T20');
    await system.print(document);
    const [window] = windows;
    expect(window!.options).toMatchObject({
      show: false,
      webPreferences: { sandbox: true, contextIsolation: true, nodeIntegration: false, javascript: false },
    });
    expect(decodeURIComponent(window!.loaded!.replace(/^data:text\/html;charset=utf-8,/, ''))).toBe(
      renderHtml(document, 48, { title: document.title }),
    );
    expect(window!.printed).toMatchObject({
      silent: true,
      deviceName: 'EPSON_TM_T20',
      printBackground: true,
      margins: { marginType: 'none' },
    });
    expect(window!.destroyed).toBe(true);
  });

  it("sets the page to the slip itself, in microns: the paper's width and the receipt's height (not the driver's A4)", async () => {
    const { printer: system, windows } = printer();
    await system.print(document);
    const plan = planPaper(document, 48);
    expect(windows[0]!.printed!.pageSize).toEqual({ width: 80_000, height: Math.ceil(plan.heightMm * 1000) });
    expect(windows[0]!.printed).not.toHaveProperty('deviceName');
    const narrow = new ElectronSystemPrinter(() => new WindowDouble({}, [true, '']), { columns: 32 }).printOptions(
      document,
    );
    expect(narrow.pageSize).toMatchObject({ width: 58_000 });
  });

  it('turns a failed print into PRINTER_ERROR with the reason, and still closes the window', async () => {
    const { printer: system, windows } = printer([false, 'Print job failed'], 'BALCAO');
    const error = await system.print(document).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'PRINTER_ERROR',
      message: expect.stringContaining('Print job failed') as unknown,
    });
    expect((error as Error).message).toContain('BALCAO');
    expect(windows[0]!.destroyed).toBe(true);
  });
});
