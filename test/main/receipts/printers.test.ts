/**
 * A printer of the settings (main/receipts/printers.ts) is looked at when the agent starts, not at
 * its first receipt: within a second or so it is known to be ready, out of paper or out of reach
 * — what the window's status line and the Situação page say — and one out of reach is looked for
 * again until it answers. A system printer (lp://) is left to its spooler.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SettingsPrinter } from '../../../main/receipts/printers.js';
import { openReceiptPrinting } from '../../../main/receipts/printing.js';
import { TRAINING_RECEIPT_SETTINGS } from '../../../main/receipts/settings.js';
import { Journal } from '../../../main/core/journal/journal.js';
import { artifactsDir } from '../../helpers/card-data-scan.js';
import { PrinterSimulator } from '../../helpers/printer-sim.js';
import { CLOSED_PORT, freedPort } from '../../helpers/closed-port.js';

const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function printer(address: string, options: { retryMs?: number; pollMs?: number } = {}): SettingsPrinter {
  const made = new SettingsPrinter({ address, format: 'escpos' }, options);
  cleanups.push(() => made.close());
  return made;
}

async function simulator(port?: number): Promise<PrinterSimulator> {
  const sim = await PrinterSimulator.listen(port);
  cleanups.push(() => sim.close());
  return sim;
}

describe('the first check of a printer', () => {
  it('says a network printer nothing answers is out of reach at once, and says it once', async () => {
    const made = printer(`tcp://127.0.0.1:${CLOSED_PORT}`);
    const disconnected = vi.fn();
    made.device.on('disconnected', disconnected);
    expect(made.device.connected).toBeUndefined();
    const started = Date.now();
    await made.check();
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(made.device.connected).toBe(false);
    expect(disconnected).toHaveBeenCalledTimes(1);
    expect(disconnected.mock.calls[0]?.[0]).toMatchObject({ code: 'UNREACHABLE' });
  });

  it('reads the status of a printer that answers: ready, or out of paper, before any receipt', async () => {
    const ready = await simulator();
    const readyPrinter = printer(ready.address);
    await readyPrinter.check();
    expect(readyPrinter.device.connected).toBe(true);
    expect(readyPrinter.device.lastStatus).toMatchObject({ paperOut: false, coverOpen: false, error: null });
    expect(ready.requests).toEqual([1, 2, 3, 4]);
    expect(ready.printed.length).toBe(0);

    const empty = await simulator();
    empty.set({ paperOut: true });
    const emptyPrinter = printer(empty.address);
    await emptyPrinter.check();
    expect(emptyPrinter.device.connected).toBe(true);
    expect(emptyPrinter.device.lastStatus).toMatchObject({ paperOut: true });
    expect(empty.printed.length).toBe(0);
  });

  it('does not ask for the status when the settings say the printer does not answer it', async () => {
    const sim = await simulator();
    const made = new SettingsPrinter({ address: sim.address, format: 'escpos', check_status: false });
    cleanups.push(() => made.close());
    await made.check();
    expect(made.device.connected).toBe(true);
    expect(sim.requests).toEqual([]);
  });

  it('looks again for a printer out of reach, and says it is connected once it answers', async () => {
    const port = await freedPort();
    const made = printer(`tcp://127.0.0.1:${port}`, { retryMs: 100 });
    await made.check();
    expect(made.device.connected).toBe(false);
    const connected = new Promise<void>((resolve) => made.device.once('connected', () => resolve()));
    const sim = await simulator(port);
    await connected;
    expect(made.device.connected).toBe(true);
    await vi.waitFor(() => expect(made.device.lastStatus).toMatchObject({ paperOut: false }));
    expect(sim.connections).toBe(1);
  });

  it('stops looking once the printer is closed', async () => {
    const port = await freedPort();
    const made = printer(`tcp://127.0.0.1:${port}`, { retryMs: 50 });
    await made.check();
    await made.close();
    const sim = await simulator(port);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sim.connections).toBe(0);
  });

  it('shares one connection between the first check and a receipt printed at the same time', async () => {
    const sim = await simulator();
    const made = printer(sim.address);
    await Promise.all([
      made.check(),
      made.print({ title: 'Teste', blocks: [{ kind: 'text', text: 'PRIMEIRO' }], cut: true }),
    ]);
    expect(sim.connections).toBe(1);
    await sim.waitForPrinted(8);
    expect(sim.printed.toString('latin1')).toContain('PRIMEIRO');
  });

  it('leaves a system printer (lp://) to its spooler: nothing is looked at, so nothing is said', async () => {
    const made = printer('lp://Recibos_80mm');
    await made.check();
    expect(made.device.connected).toBeUndefined();
  });
});

describe('receipt printing at start', () => {
  it('checks each printer of the settings as it opens: a folder printer is ready at once, a network printer nothing answers is out of reach', async () => {
    const dir = mkdtempSync(join(artifactsDir(), 'printers-'));
    const journal = Journal.open(join(dir, 'journal.db'));
    const printing = openReceiptPrinting({
      journal,
      store: TRAINING_RECEIPT_SETTINGS,
      training: true,
      printers: {
        default: { address: `file://${join(dir, 'receipts')}/`, format: 'pdf' },
        kitchen: { address: `tcp://127.0.0.1:${CLOSED_PORT}`, format: 'escpos' },
      },
      autoPrint: [],
    });
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    cleanups.push(() => journal.close());
    cleanups.push(() => printing.close());
    await vi.waitFor(() => {
      expect(printing.printers.get('default')?.device.connected).toBe(true);
      expect(printing.printers.get('kitchen')?.device.connected).toBe(false);
    });
    // The folder is there before the first receipt.
    expect(statSync(join(dir, 'receipts')).isDirectory()).toBe(true);
  });
});
