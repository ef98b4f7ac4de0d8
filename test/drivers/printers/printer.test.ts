import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createPtyPair } from '../../../drivers/simulator/socat.js';
import { PrinterError } from '../../../drivers/printers/errors.js';
import { ReceiptPrinter, printRefusal, type ReceiptPrinterOptions } from '../../../drivers/printers/printer.js';
import type { PrinterStatus } from '../../../drivers/printers/status.js';
import { createTransport } from '../../../drivers/printers/transport.js';
import { PrinterSimulator } from '../../helpers/printer-sim.js';

const cleanups: (() => Promise<unknown> | void)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const JOB = Buffer.from('\x1b@RECIBO DE TESTE\n\n\n\x1dV\x00', 'latin1');

const READY: PrinterStatus = {
  online: true,
  coverOpen: false,
  paperOut: false,
  paperNearEnd: false,
  drawerOpen: false,
  error: null,
};

async function simulator(): Promise<PrinterSimulator> {
  const sim = await PrinterSimulator.listen();
  cleanups.push(() => sim.close());
  return sim;
}

async function printerFor(address: string, options: ReceiptPrinterOptions = {}): Promise<ReceiptPrinter> {
  const printer = new ReceiptPrinter(createTransport(address), { statusTimeoutMs: 2000, ...options });
  cleanups.push(() => printer.close());
  await printer.open();
  return printer;
}

function next(printer: ReceiptPrinter, event: 'connected' | 'disconnected' | 'status'): Promise<unknown[]> {
  return new Promise((resolve) => printer.once(event, (...args: unknown[]) => resolve(args)));
}

describe('ReceiptPrinter.print', () => {
  it('asks DLE EOT 1-4 first, then sends the exact bytes', async () => {
    const sim = await simulator();
    const printer = await printerFor(sim.address);
    await printer.print(JOB);
    expect((await sim.waitForPrinted(JOB.length)).equals(JOB)).toBe(true);
    expect(sim.requests).toEqual([1, 2, 3, 4]);
    // The status questions came before the job, never inside it.
    expect(sim.raw.subarray(12).equals(JOB)).toBe(true);
  });

  it('refuses with PAPER_OUT and sends nothing when the printer is out of paper', async () => {
    const sim = await simulator();
    sim.set({ paperOut: true });
    const printer = await printerFor(sim.address);
    const error = await printer.print(JOB).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PrinterError);
    expect(error).toMatchObject({ code: 'PAPER_OUT' });
    expect((error as PrinterError).status).toMatchObject({ paperOut: true, online: false });
    expect(sim.requests).toEqual([1, 2, 3, 4]);
    expect(sim.printed.length).toBe(0);
  });

  it('refuses with COVER_OPEN and sends nothing when the cover is open', async () => {
    const sim = await simulator();
    sim.set({ coverOpen: true });
    const printer = await printerFor(sim.address);
    await expect(printer.print(JOB)).rejects.toMatchObject({ code: 'COVER_OPEN' });
    expect(sim.printed.length).toBe(0);
  });

  it('refuses with PRINTER_ERROR on an autocutter, mechanical or unrecoverable error', async () => {
    const sim = await simulator();
    const printer = await printerFor(sim.address);
    for (const fault of ['autocutter', 'mechanical', 'unrecoverable'] as const) {
      sim.set({ faults: [fault] });
      const error = await printer.print(JOB).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'PRINTER_ERROR' });
      expect((error as PrinterError).status?.error).toBe(fault.toUpperCase());
    }
    expect(sim.printed.length).toBe(0);
  });

  it('prints when the paper is only near its end, or the head is cooling down (auto-recoverable)', async () => {
    const sim = await simulator();
    const printer = await printerFor(sim.address);
    sim.set({ paperNearEnd: true });
    await printer.print(JOB);
    sim.set({ paperNearEnd: false, faults: ['auto-recoverable'] });
    await printer.print(JOB);
    expect((await sim.waitForPrinted(2 * JOB.length)).equals(Buffer.concat([JOB, JOB]))).toBe(true);
  });

  it('rejects with TIMEOUT, sends nothing and reports the printer gone when it never answers the status', async () => {
    const sim = await simulator();
    sim.answering = false;
    const printer = await printerFor(sim.address, { statusTimeoutMs: 200 });
    const disconnected = next(printer, 'disconnected');
    await expect(printer.print(JOB)).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect((await disconnected)[0]).toMatchObject({ code: 'TIMEOUT' });
    expect(sim.printed.length).toBe(0);
  });

  it('rejects with INVALID_STATUS and sends nothing when the answer is not a status byte', async () => {
    const sim = await simulator();
    sim.answerOverride = 0xff;
    const printer = await printerFor(sim.address);
    await expect(printer.print(JOB)).rejects.toMatchObject({ code: 'INVALID_STATUS' });
    expect(sim.printed.length).toBe(0);
  });

  it('skips the status check when told to (printers that do not answer DLE EOT)', async () => {
    const sim = await simulator();
    sim.answering = false;
    const printer = await printerFor(sim.address, { checkStatusBeforePrint: false });
    await printer.print(JOB);
    expect((await sim.waitForPrinted(JOB.length)).equals(JOB)).toBe(true);
    expect(sim.requests).toEqual([]);
  });

  it('reports a dropped TCP connection as DISCONNECTED, then reconnects on the next print', async () => {
    const sim = await simulator();
    const printer = await printerFor(sim.address);
    await printer.print(JOB);
    await sim.waitForPrinted(JOB.length);

    const disconnected = next(printer, 'disconnected');
    sim.dropConnections();
    const [error] = await disconnected;
    expect(error).toBeInstanceOf(PrinterError);
    expect(error).toMatchObject({ code: 'DISCONNECTED' });
    expect(printer.connected).toBe(false);

    const connected = next(printer, 'connected');
    await printer.print(JOB);
    await connected;
    expect(printer.connected).toBe(true);
    expect((await sim.waitForPrinted(2 * JOB.length)).equals(Buffer.concat([JOB, JOB]))).toBe(true);
    expect(sim.connections).toBe(2);
  });

  it('fails the job with DISCONNECTED when the connection drops during the status check, and prints the next one', async () => {
    const sim = await simulator();
    const printer = await printerFor(sim.address);
    sim.dropOnNextRequest();
    await expect(printer.print(JOB)).rejects.toMatchObject({ code: 'DISCONNECTED' });
    expect(sim.printed.length).toBe(0);
    await printer.print(JOB);
    expect((await sim.waitForPrinted(JOB.length)).equals(JOB)).toBe(true);
  });

  it('never puts a status request inside a job while polling', async () => {
    const sim = await simulator();
    const printer = await printerFor(sim.address, { pollMs: 1 });
    const jobs = [randomBytes(200 * 1024), randomBytes(200 * 1024), randomBytes(200 * 1024)];
    for (const job of jobs) {
      // Keep the DLE EOT pattern out of the job so the simulator's printed bytes are the job's.
      for (let i = 0; i < job.length; i++) if (job[i] === 0x10) job[i] = 0x11;
      await printer.print(job);
    }
    await sim.waitForPrinted(jobs.length * 200 * 1024);
    const raw = sim.raw;
    for (const job of jobs) expect(raw.indexOf(job)).toBeGreaterThanOrEqual(0);
    expect(sim.printed.equals(Buffer.concat(jobs))).toBe(true);
  });
});

describe('ReceiptPrinter.status', () => {
  it('reads the four answers into one PrinterStatus', async () => {
    const sim = await simulator();
    sim.set({ paperNearEnd: true, drawerPin3High: true });
    const printer = await printerFor(sim.address);
    expect(await printer.status()).toEqual({ ...READY, paperNearEnd: true, drawerOpen: true });
    expect(printer.lastStatus).toEqual({ ...READY, paperNearEnd: true, drawerOpen: true });
  });

  it('reads the drawer the other way round when the drawer is wired that way', async () => {
    const sim = await simulator();
    const printer = await printerFor(sim.address, { drawerOpenLevel: 'low' });
    expect((await printer.status()).drawerOpen).toBe(true);
  });

  it('works over a serial line (socat pty pair)', async () => {
    const pty = await createPtyPair();
    cleanups.push(() => pty.close());
    const sim = await PrinterSimulator.onPty(pty.b);
    cleanups.push(() => sim.close());
    const printer = await printerFor(`serial://${pty.a}?baud=9600`);
    sim.set({ coverOpen: true });
    expect(await printer.status()).toEqual({ ...READY, online: false, coverOpen: true });
    await expect(printer.print(JOB)).rejects.toMatchObject({ code: 'COVER_OPEN' });
    sim.set({ coverOpen: false });
    await printer.print(JOB);
    expect((await sim.waitForPrinted(JOB.length)).equals(JOB)).toBe(true);
  });

  it('is unavailable on a device file, which still prints', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pinbridge-printer-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const path = join(dir, 'lp0');
    const printer = await printerFor(`file://${path}`);
    expect(printer.canReportStatus).toBe(false);
    await expect(printer.status()).rejects.toMatchObject({ code: 'STATUS_UNAVAILABLE' });
    await printer.print(JOB);
    expect((await readFile(path)).equals(JOB)).toBe(true);
  });
});

describe('ReceiptPrinter polling', () => {
  it('emits status only when it changes', async () => {
    const sim = await simulator();
    const printer = await printerFor(sim.address, { pollMs: 5 });
    const events: [PrinterStatus, PrinterStatus | undefined][] = [];
    printer.on('status', (status, previous) => events.push([status, previous]));

    // Several polls of an unchanged printer: one event.
    await sim.waitForRequests(4 * 5);
    expect(events).toEqual([[READY, undefined]]);

    const changed = next(printer, 'status');
    sim.set({ paperNearEnd: true });
    await changed;
    expect(events).toEqual([
      [READY, undefined],
      [{ ...READY, paperNearEnd: true }, READY],
    ]);

    await sim.waitForRequests(sim.requests.length + 4 * 5);
    expect(events).toHaveLength(2);
  });

  it('emits disconnected when the printer stops answering and connected when it is back', async () => {
    const sim = await simulator();
    const printer = await printerFor(sim.address, { pollMs: 5, statusTimeoutMs: 100 });
    await sim.waitForRequests(4);
    const disconnected = next(printer, 'disconnected');
    sim.answering = false;
    expect((await disconnected)[0]).toMatchObject({ code: 'TIMEOUT' });

    const connected = next(printer, 'connected');
    sim.answering = true;
    await connected;
    expect(printer.connected).toBe(true);
  });

  it('reconnects by itself after a drop and says so', async () => {
    const sim = await simulator();
    const printer = await printerFor(sim.address, { pollMs: 5 });
    await sim.waitForRequests(4);
    const disconnected = next(printer, 'disconnected');
    sim.dropConnections();
    expect((await disconnected)[0]).toMatchObject({ code: 'DISCONNECTED' });
    const connected = next(printer, 'connected');
    await connected;
    expect(sim.connections).toBeGreaterThanOrEqual(2);
  });

  it('reports a bad answer as statusError and keeps polling', async () => {
    const sim = await simulator();
    const printer = await printerFor(sim.address, { pollMs: 5 });
    const bad = new Promise<unknown>((resolve) => printer.once('statusError', resolve));
    sim.answerOverride = 0x00;
    expect(await bad).toMatchObject({ code: 'INVALID_STATUS' });
    const status = next(printer, 'status');
    sim.answerOverride = undefined;
    sim.set({ coverOpen: true });
    expect((await status)[0]).toMatchObject({ coverOpen: true });
  });
});

describe('printRefusal', () => {
  it('lets a ready printer print and names what stops one that is not', () => {
    expect(printRefusal(READY)).toBeUndefined();
    expect(printRefusal({ ...READY, online: false })).toBeUndefined();
    expect(printRefusal({ ...READY, paperNearEnd: true })).toBeUndefined();
    expect(printRefusal({ ...READY, error: 'AUTO_RECOVERABLE' })).toBeUndefined();
    expect(printRefusal({ ...READY, paperOut: true })?.code).toBe('PAPER_OUT');
    expect(printRefusal({ ...READY, coverOpen: true })?.code).toBe('COVER_OPEN');
    expect(printRefusal({ ...READY, error: 'UNKNOWN' })?.code).toBe('PRINTER_ERROR');
  });
});
