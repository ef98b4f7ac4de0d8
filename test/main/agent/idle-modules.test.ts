/**
 * The agent loads what it uses when it uses it (issue 35): started and idle, it holds none of the
 * libraries of what it was not asked to do — read from a trace of the modules the real bin loads
 * (`pinbridge start` until its ready line, then stopped), not from its memory or timings.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { moduleGroup, modulesLoadedBy } from '../../helpers/module-trace.js';

const BIN = fileURLToPath(new URL('../../../bin/pinbridge.js', import.meta.url));

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'pinbridge-idle-modules-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

/** `pinbridge start <args>` until its ready line: the groups (moduleGroup) and URLs of what it loaded. */
async function agentLoads(
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ groups: Set<string>; urls: string[] }> {
  const urls = await modulesLoadedBy([BIN, 'start', '--headless', '--pos-port', '0', ...args], {
    untilReady: true,
    env: { HOME: home, PINBRIDGE_LOG_LEVEL: 'warn', ...env },
  });
  return { groups: new Set(urls.map(moduleGroup)), urls };
}

/** Packages each used by one thing an agent may never be asked to do, and that thing. */
const ON_FIRST_USE: Readonly<Record<string, string>> = {
  pdfkit: 'a PDF',
  qrcode: 'a QR code',
  'bwip-js': 'a barcode',
  'prom-client': 'metrics, when the settings turn them on',
  'electron-updater': 'updates (the desktop app)',
  usb: 'the USB device events',
  '@stoprocent/noble': 'a Bluetooth PINPAD or scan',
  'node-forge': 'a legacy PKCS#12 certificate',
  'pino-pretty': 'a log read at a terminal',
  '@point-of-sale/receipt-printer-encoder': 'an ESC/POS printer',
  '@fastify/swagger': "the sandbox's OpenAPI document",
  yaml: "the sandbox's OpenAPI document",
};

/** "pdfkit, for a PDF": each package of ON_FIRST_USE the agent loaded. */
const loadedForNothing = (groups: ReadonlySet<string>): string[] =>
  Object.entries(ON_FIRST_USE)
    .filter(([pkg]) => groups.has(pkg))
    .map(([pkg, use]) => `${pkg}, for ${use}`);

describe('an idle agent', () => {
  it('in training (embedded sandbox, simulated PINPAD, receipts as PDF files) loads none of the libraries of what it was not asked to do', async () => {
    const { groups, urls } = await agentLoads([]);
    expect(groups).toContain('main/sandbox');
    expect(groups).toContain('drivers/simulator');
    expect(loadedForNothing(groups)).toEqual([]);
    // The support checks the window may ask for: only the disk's, which the disk watch runs.
    expect(urls.filter((url) => /\/main\/doctor\/(?!disk|check)/.test(url))).toEqual([]);
  });

  it('on a real PINPAD and a payments API loads neither the sandbox nor the simulated PINPAD', async () => {
    const { groups, urls } = await agentLoads(
      ['--api', 'http://127.0.0.1:9', '--marketplace', 'm', '--seller', 's', '--port', '/dev/ttyPINBRIDGE-TEST-NONE'],
      { PINBRIDGE_API_TOKEN: 'test-token' },
    );
    expect(groups).toContain('main/pos');
    expect(groups.has('main/sandbox')).toBe(false);
    // Only the names of the simulator's profiles (to read an address) and its counter store.
    expect(urls.filter((url) => url.includes('/drivers/simulator/') && !/\/(profiles|keys)\.js$/.test(url))).toEqual(
      [],
    );
    expect(loadedForNothing(groups)).toEqual([]);
  });
});
