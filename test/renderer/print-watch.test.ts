/**
 * What the window says of a print (renderer/print-watch.ts): printed is a success; queued or
 * printing is on its way; a print that has not printed is a failure with its reason in
 * Portuguese — its own failed attempt's, or, while it waits its turn behind older jobs, the
 * printer's known trouble — never "Na fila…" for a printer the agent knows is off.
 * (Read from the compiled window: `npm run build` first, which `npm test` runs.)
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { PrinterView } from '../../main/pos/protocol/index.js';
import { PACKAGE_ROOT } from '../../main/version.js';

type PrinterStatus = PrinterView;
interface Job {
  readonly state: 'queued' | 'printing' | 'printed' | 'failed' | 'cancelled';
  readonly error: { readonly code: string; readonly message: string } | null;
}

/** The compiled window's module (its scripts use the DOM, which the agent's own compilation leaves out). */
const { printWords, printerTrouble } = (await import(
  pathToFileURL(join(PACKAGE_ROOT, 'dist', 'renderer', 'print-watch.js')).href
)) as {
  printWords: (
    job: Job,
    printer: PrinterStatus | undefined,
    texts?: Readonly<Record<string, string>>,
  ) => { tone: 'ok' | 'pending' | 'bad'; text: string };
  printerTrouble: (printer: PrinterStatus | undefined) => string | null;
};

const READY: PrinterStatus = {
  name: 'default',
  address: 'tcp://192.168.0.50:9100',
  connected: true,
  paper_out: false,
  paper_low: false,
  cover_open: false,
  error: null,
};

describe('a print in words', () => {
  it('says printed as a success, and queued or printing as on its way', () => {
    expect(printWords({ state: 'printed', error: null }, READY)).toEqual({ tone: 'ok', text: 'Impresso.' });
    expect(printWords({ state: 'queued', error: null }, READY)).toEqual({
      tone: 'pending',
      text: 'Na fila da impressora…',
    });
    expect(printWords({ state: 'printing', error: null }, undefined)).toEqual({ tone: 'pending', text: 'Imprimindo…' });
  });

  it('says a job whose attempt failed is not printed yet, as a failure, with the reason and that Pinbridge tries again', () => {
    expect(printWords({ state: 'queued', error: { code: 'UNREACHABLE', message: 'ECONNREFUSED' } }, undefined)).toEqual(
      {
        tone: 'bad',
        text: 'Ainda não impresso: a impressora não foi encontrada: veja se está ligada e com o cabo (ou a rede) conectado. O Pinbridge tenta de novo sozinho.',
      },
    );
  });

  it('says a job still waiting its turn is not printed when the printer is known to be off, out of paper or open', () => {
    const waiting = { state: 'queued', error: null } as const;
    expect(printWords(waiting, { ...READY, connected: false })).toMatchObject({
      tone: 'bad',
      text: expect.stringMatching(/^Ainda não impresso: a impressora não foi encontrada/) as unknown,
    });
    expect(printWords(waiting, { ...READY, paper_out: true }).text).toBe(
      'Ainda não impresso: a impressora está sem papel. O Pinbridge tenta de novo sozinho.',
    );
    expect(printWords(waiting, { ...READY, cover_open: true }).tone).toBe('bad');
    // Never contacted yet: nothing is known against it.
    expect(printWords(waiting, { ...READY, connected: null }).tone).toBe('pending');
  });

  it('says a print that failed for good or was cancelled as a failure', () => {
    expect(printWords({ state: 'failed', error: { code: 'PAPER_OUT', message: 'paper' } }, READY)).toEqual({
      tone: 'bad',
      text: 'A impressão falhou: a impressora está sem papel',
    });
    expect(printWords({ state: 'cancelled', error: null }, READY)).toEqual({
      tone: 'bad',
      text: 'A impressão foi cancelada.',
    });
  });

  it("says the settings' test page in its own words", () => {
    const texts = {
      queued: 'settings.testPrintQueued',
      printing: 'settings.testPrintPrinting',
      printed: 'settings.testPrintPrinted',
      notYet: 'settings.testPrintRetrying',
      failed: 'settings.testPrintFailed',
      cancelled: 'settings.testPrintCancelled',
    } as const;
    expect(printWords({ state: 'queued', error: null }, { ...READY, connected: false }, texts)).toEqual({
      tone: 'bad',
      text: 'Teste ainda não impresso: a impressora não foi encontrada: veja se está ligada e com o cabo (ou a rede) conectado. O Pinbridge tenta de novo sozinho.',
    });
  });
});

describe("a printer's trouble", () => {
  it('is the first thing that keeps it from printing, or none', () => {
    expect(printerTrouble(undefined)).toBeNull();
    expect(printerTrouble(READY)).toBeNull();
    expect(printerTrouble({ ...READY, connected: false, paper_out: true })).toBe('UNREACHABLE');
    expect(printerTrouble({ ...READY, error: 'AUTOCUTTER' })).toBe('AUTOCUTTER');
  });
});
