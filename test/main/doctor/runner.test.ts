/**
 * runDoctor end to end, in plain Node: a store with a simulated PINPAD on a pty, a simulated
 * printer on TCP, the sandbox as its payments API, its POS ports in the settings and a fake /etc
 * and /dev; every check reports, in a fixed order, and `ok` is false exactly when one failed.
 * Every check also says it in Brazilian Portuguese for the window, with the same commands,
 * options, paths and numbers, and a Portuguese fix exactly when there is an English one.
 */
import { chmodSync, mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PinpadSimulator, startPtySimulator, type PtySimulator } from '../../../drivers/simulator/index.js';
import { CHECK_IDS, type CheckResult, type DoctorReport } from '../../../main/doctor/check.js';
import { UPDATES_OFF } from '../../../main/updates/status.js';
import { runDoctor, type DoctorOptions } from '../../../main/doctor/runner.js';
import { TEST_EMV_TABLES } from '../../../main/sandbox/payments/test-emv-tables.js';
import { startSandbox, type RunningSandbox } from '../../../main/sandbox/server.js';
import { PrinterSimulator } from '../../helpers/printer-sim.js';
import { freedPort } from '../../helpers/closed-port.js';

let pty: PtySimulator;
let printer: PrinterSimulator;
let sandbox: RunningSandbox;
let store: DoctorOptions;

beforeAll(async () => {
  [pty, printer, sandbox] = await Promise.all([
    startPtySimulator(new PinpadSimulator()),
    PrinterSimulator.listen(),
    startSandbox(),
  ]);
  const dir = mkdtempSync(join(tmpdir(), 'pinbridge-doctor-run-'));
  const root = join(dir, 'root');
  mkdirSync(join(root, 'etc'), { recursive: true });
  mkdirSync(join(root, 'dev'));
  writeFileSync(join(root, 'dev', 'ttyACM0'), '');
  chmodSync(join(root, 'dev', 'ttyACM0'), 0o660);
  const gid = statSync(join(root, 'dev', 'ttyACM0')).gid;
  writeFileSync(join(root, 'etc', 'group'), `dialout:x:${gid}:maria\n`);
  const settingsPath = join(dir, 'settings.json');
  writeFileSync(
    settingsPath,
    JSON.stringify({
      printers: { default: { address: printer.address } },
      pos: { ports: [await freedPort(), await freedPort()] },
    }),
  );
  store = {
    timeoutMs: 3000,
    pinpadAddress: pty.path,
    settingsPath,
    api: {
      baseUrl: sandbox.url,
      token: sandbox.token,
      marketplaceId: sandbox.marketplaceId,
      sellerId: sandbox.sellerId,
    },
    platform: 'linux',
    rootDir: root,
    identity: {
      username: 'maria',
      uid: statSync(join(root, 'dev', 'ttyACM0')).uid + 1000,
      gid: gid + 1000,
      groups: [gid],
    },
    listPorts: () => Promise.resolve([{ path: pty.path }]),
  };
});
afterAll(async () => {
  await Promise.all([pty.close(), printer.close(), sandbox.close()]);
});

/**
 * What must read the same in both languages: commands and settings in backticks, command-line
 * options, paths and addresses, and numbers of three digits or more (ports, HTTP codes, ids).
 */
function verbatimParts(text: string): string[] {
  return [
    ...new Set([
      ...(text.match(/`[^`]+`/g) ?? []),
      ...(text.match(/--[a-z][a-z-]*/g) ?? []),
      ...(text.match(/(?:\/[\w.:-]+)+/g) ?? []),
      ...(text.match(/\b\d{3,}\b/g) ?? []),
    ]),
  ];
}

/** Each check in Portuguese too: a summary, a fix exactly when there is an English one, and the English's commands and numbers in both. */
function expectPortugueseOf(check: CheckResult): void {
  const where = `${check.id} (${check.status})`;
  expect(check.pt.summary.trim(), where).not.toBe('');
  expect(check.pt.summary, where).not.toBe(check.summary);
  for (const part of verbatimParts(check.summary)) expect(check.pt.summary, `${where}: ${part}`).toContain(part);
  if (check.fix === undefined) {
    expect(check.pt, where).not.toHaveProperty('fix');
    return;
  }
  expect(check.pt.fix?.trim(), where).not.toBe('');
  expect(check.pt.fix, where).not.toBe(check.fix);
  for (const part of verbatimParts(check.fix)) expect(check.pt.fix, `${where}: ${part}`).toContain(part);
}

function expectPortuguese(report: DoctorReport): void {
  for (const check of report.checks) expectPortugueseOf(check);
}

describe('runDoctor', () => {
  it('runs every check in order; all working means ok', async () => {
    const report = await runDoctor(store);
    expect(report.checks.map((check) => check.id)).toEqual([...CHECK_IDS]);
    expect(report.checks.map((check) => [check.id, check.status])).toEqual([
      ['serial-permissions', 'ok'],
      ['pinpads', 'ok'],
      ['printers', 'ok'],
      ['payments-api', 'ok'],
      ['client-certificate', 'skip'],
      ['pos-ports', 'ok'],
      ['disk', 'ok'],
      ['remote-settings', 'skip'],
      ['updates', 'skip'],
      ['settings', 'ok'],
    ]);
    expect(report.ok).toBe(true);
    expect(JSON.stringify(report)).not.toContain(sandbox.token);
    expectPortuguese(report);
  });

  it('is not ok when one check fails, and the others still report', async () => {
    printer.set({ paperOut: true });
    try {
      const report = await runDoctor({ ...store, api: undefined });
      expect(report.ok).toBe(false);
      expect(report.checks.find((check) => check.id === 'printers')).toMatchObject({ status: 'fail' });
      expect(report.checks.find((check) => check.id === 'payments-api')).toMatchObject({ status: 'skip' });
      expect(report.checks.find((check) => check.id === 'pinpads')).toMatchObject({ status: 'ok' });
      expectPortuguese(report);
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
    expect(report.checks.find((check) => check.id === 'settings')).toMatchObject({
      status: 'fail',
      summary: expect.stringContaining('pos.ports') as unknown,
    });
    expect(report.checks.find((check) => check.id === 'printers')).toMatchObject({ status: 'skip' });
    expect(report.checks.find((check) => check.id === 'pos-ports')?.details).toMatchObject({ source: 'default' });
    expectPortuguese(report);
  });

  it("reports the desktop app's updates as the running app knows them (the window's doctor)", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pinbridge-doctor-updates-'));
    const settingsPath = join(dir, 'settings.json');
    writeFileSync(
      settingsPath,
      JSON.stringify({
        fleet: { chain: 'acme', store: 'loja-042' },
        updates: { enabled: true, feed_url: 'https://updates.acme.example/' },
      }),
    );
    const report = await runDoctor({
      ...store,
      settingsPath,
      updates: { ...UPDATES_OFF, enabled: true, channel: 'latest', state: 'downloaded', version: '1.4.0' },
    });
    expect(report.checks.find((check) => check.id === 'updates')).toMatchObject({
      status: 'ok',
      details: { staged_by: 'store', state: 'downloaded', version: '1.4.0' },
    });
    expectPortuguese(report);
  });

  it('says what is wrong and how to fix it in Portuguese too, with the same commands, when everything is wrong', async () => {
    // maria is out of the dialout group, the PINPAD address is not one, the printer is out of
    // paper, the token is wrong and another program holds a POS port.
    const root = mkdtempSync(join(tmpdir(), 'pinbridge-doctor-troubled-'));
    mkdirSync(join(root, 'etc'));
    mkdirSync(join(root, 'dev'));
    writeFileSync(join(root, 'dev', 'ttyUSB0'), '');
    chmodSync(join(root, 'dev', 'ttyUSB0'), 0o660);
    const { uid, gid } = statSync(join(root, 'dev', 'ttyUSB0'));
    writeFileSync(join(root, 'etc', 'group'), `dialout:x:${gid}:joao\n`);
    const sockets = new Set<net.Socket>();
    const taken = net.createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.write('220 ftp ready\r\n');
    });
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const takenPort = (taken.address() as net.AddressInfo).port;
    const settingsPath = join(root, 'settings.json');
    writeFileSync(
      settingsPath,
      JSON.stringify({ printers: { default: { address: printer.address } }, pos: { ports: [takenPort] } }),
    );
    printer.set({ paperOut: true });
    try {
      const report = await runDoctor({
        ...store,
        settingsPath,
        rootDir: root,
        identity: { username: 'maria', uid: uid + 1000, gid: gid + 1000, groups: [] },
        pinpadAddress: 'COM',
        api: { ...store.api!, token: 'sbx_wrong_token_0123456789abcdef' },
      });
      expect(report.checks.map((check) => [check.id, check.status])).toEqual([
        ['serial-permissions', 'fail'],
        ['pinpads', 'fail'],
        ['printers', 'fail'],
        ['payments-api', 'fail'],
        ['client-certificate', 'skip'],
        ['pos-ports', 'fail'],
        ['disk', 'ok'],
        ['remote-settings', 'skip'],
        ['updates', 'skip'],
        ['settings', 'ok'],
      ]);
      expectPortuguese(report);
      const pt = Object.fromEntries(report.checks.map((check) => [check.id, check.pt]));
      expect(pt['serial-permissions']?.fix).toContain('`sudo usermod -aG dialout maria`');
      expect(pt['pinpads']?.fix).toContain('`pinbridge pinpad list`');
      expect(pt['printers']?.fix).toBe(
        `Coloque uma bobina de papel nova na impressora "default" (${printer.address}).`,
      );
      expect(pt['payments-api']?.fix).toContain('--token');
      expect(pt['pos-ports']?.fix).toContain(`\`sudo ss -ltnp 'sport = :${takenPort}'\``);
    } finally {
      printer.set({ paperOut: false });
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => taken.close(() => resolve()));
    }
  });

  it('says which key method each acquirer will use from the provider’s tables cached beside the journal ("tables": "provider")', async () => {
    const home = mkdtempSync(join(tmpdir(), 'pinbridge-doctor-keys-'));
    const settingsPath = join(home, 'settings.json');
    writeFileSync(settingsPath, JSON.stringify({ pinpad: { address: pty.path, tables: 'provider' } }));
    // What the agent keeps of the provider's answer for this PINPAD (serial SIM0000000000001).
    mkdirSync(join(home, '.pinbridge', 'emv-tables'), { recursive: true });
    const onlyMkwk = {
      ...TEST_EMV_TABLES,
      acquirers: {
        '02': {
          keys: {
            card_data: TEST_EMV_TABLES.acquirers!['02']!.keys!.card_data!.filter((m) => m.method === 'mkwk'),
            pin: [{ method: 'dukpt' as const, slot: 1 }],
          },
        },
      },
    };
    writeFileSync(join(home, '.pinbridge', 'emv-tables', 'SIM0000000000001.json'), JSON.stringify(onlyMkwk));
    const report = await runDoctor({ ...store, home, settingsPath });
    const pinpads = report.checks.find((check) => check.id === 'pinpads')!;
    expect(pinpads.status).toBe('ok');
    expect(pinpads.summary).toContain(
      'acquirer 02: card data by MK/WK with data master key slot 02, the PIN by DUKPT PIN slot 01',
    );
    expect(pinpads.summary).toContain('key maps: DUKPT PIN 00–99');
    expectPortugueseOf(pinpads);
  });

  it('reports a check that threw as a failure of its own, in both languages', async () => {
    const identity = {
      username: 'maria',
      get uid(): number {
        throw new Error('no uid for maria');
      },
      gid: 0,
      groups: [],
    };
    const report = await runDoctor({ ...store, identity, pinpadAddress: undefined, api: undefined });
    expect(report.checks.find((check) => check.id === 'serial-permissions')).toMatchObject({
      status: 'fail',
      summary: 'The check itself failed: no uid for maria',
      fix: 'Run `pinbridge doctor --json` and send its output to Pinbridge support.',
      pt: {
        summary: 'A própria verificação falhou: no uid for maria',
        fix: 'Execute `pinbridge doctor --json` e envie o que ele mostrar ao suporte do Pinbridge.',
      },
    });
    expectPortuguese(report);
  });
});
