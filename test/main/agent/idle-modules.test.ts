/**
 * The agent loads what it uses when it uses it (issue 35): started and idle, it holds none of the
 * libraries of what it was not asked to do — read from a trace of the modules the real bin loads
 * (`pinbridge start` until its ready line, then stopped), not from its memory or timings.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
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
  ajv: "a request to the sandbox (its schemas compile with the first; the POS page's routes have none)",
  '@fastify/ajv-compiler': 'a request with a schema',
  '@fastify/fast-json-stringify-compiler': 'an answer with a schema',
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
    // The settings are checked by the checks compiled at build time (main/contract/compiled-checks.ts).
    expect(urls.filter((url) => url.includes('/typebox/build/compile/'))).toEqual([]);
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

/**
 * Loaded into the agent first: counts the Intl.DateTimeFormat objects made (the first loads ICU's
 * zone and locale data) and, as the process ends, writes that count and Node's own internal
 * modules loaded (process.moduleLoadList) to $PINBRIDGE_PROBE.
 */
const PROBE = `
import { writeFileSync } from 'node:fs';
let made = 0;
const DateTimeFormat = Intl.DateTimeFormat;
Intl.DateTimeFormat = new Proxy(DateTimeFormat, {
  construct: (target, args, newTarget) => ((made += 1), Reflect.construct(target, args, newTarget)),
  apply: (target, self, args) => ((made += 1), Reflect.apply(target, self, args)),
});
process.on('exit', () =>
  writeFileSync(process.env.PINBRIDGE_PROBE, JSON.stringify({ dateTimeFormats: made, internal: process.moduleLoadList })),
);
`;

/** `pinbridge start` (training) until its ready line, then stopped: what the probe saw. */
async function probedStart(): Promise<{ dateTimeFormats: number; internal: string[] }> {
  const file = join(home, 'probe.json');
  const child = spawn(
    process.execPath,
    ['--import', `data:text/javascript,${encodeURIComponent(PROBE)}`, BIN, 'start', '--headless', '--pos-port', '0'],
    {
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { ...process.env, HOME: home, PINBRIDGE_LOG_LEVEL: 'warn', PINBRIDGE_PROBE: file },
    },
  );
  const exited = once(child, 'exit');
  for await (const line of createInterface({ input: child.stdout })) if (line.startsWith('{')) break;
  child.kill('SIGTERM');
  await exited;
  return JSON.parse(readFileSync(file, 'utf8')) as { dateTimeFormats: number; internal: string[] };
}

describe('an idle agent, of what Node itself holds', () => {
  it("has not read the computer's time zone (ICU's zone data), nor loaded Node's own fetch (an ES import of node:http would)", async () => {
    const { dateTimeFormats, internal } = await probedStart();
    expect(dateTimeFormats).toBe(0);
    expect(internal.filter((name) => name.includes('internal/deps/undici'))).toEqual([]);
    // The probe itself sees something: Node's modules the agent does load.
    expect(internal).toContain('NativeModule net');
  });
});
