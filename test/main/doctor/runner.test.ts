/**
 * runDoctor end to end, in plain Node: a store with a simulated PINPAD on a pty, a simulated
 * printer on TCP, the sandbox as its payments API, its POS ports in the settings and a fake /etc
 * and /dev; every check reports, in a fixed order, and `ok` is false exactly when one failed.
 */
import { chmodSync, mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PinpadSimulator, startPtySimulator, type PtySimulator } from '../../../drivers/simulator/index.js';
import { CHECK_IDS } from '../../../main/doctor/check.js';
import { runDoctor, type DoctorOptions } from '../../../main/doctor/runner.js';
import { startSandbox, type RunningSandbox } from '../../../main/sandbox/server.js';
import { PrinterSimulator } from '../../helpers/printer-sim.js';

let pty: PtySimulator;
let printer: PrinterSimulator;
let sandbox: RunningSandbox;
let store: DoctorOptions;

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  [pty, printer, sandbox] = await Promise.all([startPtySimulator(new PinpadSimulator()), PrinterSimulator.listen(), startSandbox()]);
  const dir = mkdtempSync(join(tmpdir(), 'pinbridge-doctor-run-'));
  const root = join(dir, 'root');
  mkdirSync(join(root, 'etc'), { recursive: true });
  mkdirSync(join(root, 'dev'));
  writeFileSync(join(root, 'dev', 'ttyACM0'), '');
  chmodSync(join(root, 'dev', 'ttyACM0'), 0o660);
  const gid = statSync(join(root, 'dev', 'ttyACM0')).gid;
  writeFileSync(join(root, 'etc', 'group'), `dialout:x:${gid}:maria\n`);
  const settingsPath = join(dir, 'settings.json');
  writeFileSync(settingsPath, JSON.stringify({ printers: { default: { address: printer.address } }, pos: { ports: [await freePort(), await freePort()] } }));
  store = {
    timeoutMs: 3000,
    pinpadAddress: pty.path,
    settingsPath,
    api: { baseUrl: sandbox.url, token: sandbox.token, marketplaceId: sandbox.marketplaceId, sellerId: sandbox.sellerId },
    platform: 'linux',
    rootDir: root,
    identity: { username: 'maria', uid: statSync(join(root, 'dev', 'ttyACM0')).uid + 1000, gid: gid + 1000, groups: [gid] },
    listPorts: () => Promise.resolve([{ path: pty.path }]),
  };
});
afterAll(async () => {
  await Promise.all([pty.close(), printer.close(), sandbox.close()]);
});

describe('runDoctor', () => {
  it('runs every check in order; all working means ok', async () => {
    const report = await runDoctor(store);
    expect(report.checks.map((check) => check.id)).toEqual([...CHECK_IDS]);
    expect(report.checks.map((check) => [check.id, check.status])).toEqual([
      ['serial-permissions', 'ok'],
      ['pinpads', 'ok'],
      ['printers', 'ok'],
      ['payments-api', 'ok'],
      ['pos-ports', 'ok'],
      ['settings', 'ok'],
    ]);
    expect(report.ok).toBe(true);
    expect(JSON.stringify(report)).not.toContain(sandbox.token);
  });

  it('is not ok when one check fails, and the others still report', async () => {
    printer.set({ paperOut: true });
    try {
      const report = await runDoctor({ ...store, api: undefined });
      expect(report.ok).toBe(false);
      expect(report.checks.find((check) => check.id === 'printers')).toMatchObject({ status: 'fail' });
      expect(report.checks.find((check) => check.id === 'payments-api')).toMatchObject({ status: 'skip' });
      expect(report.checks.find((check) => check.id === 'pinpads')).toMatchObject({ status: 'ok' });
    } finally {
      printer.set({ paperOut: false });
    }
  });

  it('skips the printers when the settings do not load, and checks the default POS ports', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pinbridge-doctor-bad-'));
    const settingsPath = join(dir, 'settings.json');
    writeFileSync(settingsPath, JSON.stringify({ pos: { ports: ['17301'] } }));
    const report = await runDoctor({ ...store, settingsPath, pinpadAddress: undefined, api: undefined });
    expect(report.ok).toBe(false);
    expect(report.checks.find((check) => check.id === 'settings')).toMatchObject({ status: 'fail', summary: expect.stringContaining('pos.ports') as unknown });
    expect(report.checks.find((check) => check.id === 'printers')).toMatchObject({ status: 'skip' });
    expect(report.checks.find((check) => check.id === 'pos-ports')?.details).toMatchObject({ source: 'default' });
  });
});
