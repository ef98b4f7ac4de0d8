/**
 * `pinbridge doctor` in-process: the options of `pinbridge start`, one line per check (or one
 * JSON line), exit code 1 exactly when a check failed, 2 for bad usage, and never the API token.
 * The store around it is real: a simulated printer on TCP, the sandbox over HTTP, the in-process
 * simulated PINPAD, POS ports nobody else uses.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DoctorReport } from '../../../main/doctor/check.js';
import { startSandbox, type RunningSandbox } from '../../../main/sandbox/server.js';
import { runMain } from '../../helpers/cli.js';
import { PrinterSimulator } from '../../helpers/printer-sim.js';
import { freedPort } from '../../helpers/closed-port.js';

let printer: PrinterSimulator;
let sandbox: RunningSandbox;
let home: string;
let settingsPath: string;
let apiArgs: string[];

beforeAll(async () => {
  [printer, sandbox] = await Promise.all([PrinterSimulator.listen(), startSandbox()]);
  home = mkdtempSync(join(tmpdir(), 'pinbridge-doctor-cli-'));
  settingsPath = join(home, 'settings.json');
  writeFileSync(
    settingsPath,
    JSON.stringify({
      printers: { default: { address: printer.address } },
      pos: { ports: [await freedPort(), await freedPort()] },
    }),
  );
  apiArgs = [
    '--api',
    sandbox.url,
    '--token',
    sandbox.token,
    '--marketplace',
    sandbox.marketplaceId,
    '--seller',
    sandbox.sellerId,
  ];
});
afterAll(async () => {
  await Promise.all([printer.close(), sandbox.close()]);
});

describe('pinbridge doctor', () => {
  it('prints one JSON line with every check; the exit code follows `ok`; the token never shows', async () => {
    const result = await runMain(
      ['doctor', '--json', '--port', 'sim', '--settings', settingsPath, '--timeout', '3', ...apiArgs],
      { HOME: home },
    );
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    const report = JSON.parse(lines[0]!) as DoctorReport;
    expect(report.checks.map((check) => check.id)).toEqual([
      'serial-permissions',
      'pinpads',
      'printers',
      'payments-api',
      'client-certificate',
      'pos-ports',
      'disk',
      'remote-settings',
      'updates',
      'settings',
    ]);
    const status = Object.fromEntries(report.checks.map((check) => [check.id, check.status]));
    expect(status).toMatchObject({
      pinpads: 'ok',
      printers: 'ok',
      'payments-api': 'ok',
      'pos-ports': 'ok',
      settings: 'ok',
    });
    // The machine's own serial ports decide serial-permissions; whatever it says, ok and the exit code agree.
    expect(report.ok).toBe(report.checks.every((check) => check.status !== 'fail'));
    expect(result.code).toBe(report.ok ? 0 : 1);
    expect(result.stdout + result.stderr).not.toContain(sandbox.token);
    // The checks as they are, the window's Portuguese included.
    expect(report.checks.find((check) => check.id === 'pinpads')?.pt.summary).toMatch(/^O PINPAD em sim respondeu: /);
  });

  it('prints a line per check with its mark, the fix below a failure, and exits 1', async () => {
    printer.set({ paperOut: true });
    try {
      const result = await runMain(['doctor', '--port', 'sim', '--settings', settingsPath, '--timeout', '3'], {
        HOME: home,
      });
      expect(result.code).toBe(1);
      const lines = result.stdout.trimEnd().split('\n');
      const printerLine = lines.findIndex((line) => line.startsWith('✗ printers '));
      expect(printerLine).toBeGreaterThanOrEqual(0);
      expect(lines[printerLine]).toContain('out of paper');
      expect(lines[printerLine + 1]).toMatch(/^ {20,}fix: Load a new paper roll in printer "default"/);
      expect(lines).toContainEqual(expect.stringMatching(/^✓ pinpads +The PINPAD on sim answered/));
      expect(lines).toContainEqual(expect.stringMatching(/^- payments-api +Training mode/));
      expect(lines).toContainEqual(expect.stringMatching(/^✓ settings +Settings loaded from/));
      expect(lines.at(-1)).toMatch(/check\(s\) failed: .*printers/);
      // The terminal is for a technician: English only.
      expect(result.stdout).not.toContain('bobina');
      expect(result.stdout).not.toContain('Impressora');
    } finally {
      printer.set({ paperOut: false });
    }
  });

  it('fails the payments-api check on a wrong token without printing it', async () => {
    const wrong = 'sbx_not_the_right_one_4242424242';
    const args = apiArgs.map((arg) => (arg === sandbox.token ? wrong : arg));
    const result = await runMain(['doctor', '--settings', settingsPath, '--timeout', '3', ...args], { HOME: home });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /^✗ payments-api +The payments API at .* refused the credentials \(401: Invalid access token\)/m,
    );
    expect(result.stdout).toContain('fix: Get a valid API key');
    expect(result.stdout + result.stderr).not.toContain(wrong);
  });

  it('opens the PINPAD named by $PINBRIDGE_PINPAD when --port is left out, as `pinbridge start` does', async () => {
    const result = await runMain(['doctor', '--json', '--settings', settingsPath], {
      HOME: home,
      PINBRIDGE_PINPAD: 'sim',
    });
    const report = JSON.parse(result.stdout) as DoctorReport;
    expect(report.checks.find((check) => check.id === 'pinpads')).toMatchObject({
      status: 'ok',
      details: { address: 'sim' },
    });
  });

  it('checks the payments API the settings name, with the stored token, as `pinbridge start` would run; without a token it says so', async () => {
    const withApi = join(home, 'api-settings.json');
    writeFileSync(
      withApi,
      JSON.stringify({
        api: { base_url: sandbox.url, marketplace_id: sandbox.marketplaceId, seller_id: sandbox.sellerId },
      }),
    );
    const check = async (env: NodeJS.ProcessEnv): Promise<DoctorReport['checks'][number] | undefined> => {
      const result = await runMain(['doctor', '--json', '--settings', withApi, '--timeout', '3'], {
        HOME: home,
        ...env,
      });
      expect(result.stdout).not.toContain(sandbox.token);
      return (JSON.parse(result.stdout) as DoctorReport).checks.find((item) => item.id === 'payments-api');
    };
    expect(await check({ PINBRIDGE_API_TOKEN: sandbox.token })).toMatchObject({
      status: 'ok',
      details: { mode: 'live', url: sandbox.url },
    });
    const missing = await check({});
    expect(missing).toMatchObject({ status: 'fail', details: { mode: 'unusable' } });
    expect(missing?.summary).toMatch(
      /^The settings name a payments API, but it cannot be used: api is set, but no API token is stored/,
    );
    expect(missing?.fix).toContain('PINBRIDGE_API_TOKEN');
  });

  it('exits 1 with a settings file that does not load, showing the field', async () => {
    const bad = join(home, 'bad-settings.json');
    writeFileSync(bad, JSON.stringify({ printers: { default: { address: 'tcp://127.0.0.1:9100', columns: 40 } } }));
    const result = await runMain(['doctor', '--json', '--settings', bad, '--timeout', '1'], { HOME: home });
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as DoctorReport;
    expect(report.ok).toBe(false);
    expect(report.checks.find((check) => check.id === 'settings')).toMatchObject({
      status: 'fail',
      summary: expect.stringContaining('printers.default.columns') as unknown,
    });
  });

  it('probes the API for its capabilities only with --probe-capabilities, and says what the settings should be', async () => {
    const result = await runMain(
      ['doctor', '--json', '--settings', settingsPath, '--timeout', '3', '--probe-capabilities', ...apiArgs],
      { HOME: home },
    );
    const report = JSON.parse(result.stdout) as DoctorReport;
    const check = report.checks.find((c) => c.id === 'payments-api');
    // The sandbox honours both; settings that name no capabilities rely on neither.
    expect(check).toMatchObject({
      status: 'warn',
      details: {
        capabilities: {
          idempotency_key: { honoured: true, declared: false },
          find_by_reference: { honoured: true, declared: false },
          left_pending: [],
        },
      },
    });
    expect(check?.summary).toContain('set api.capabilities.idempotency_key = true');
    expect(check?.summary).toContain('set api.capabilities.find_by_reference = true');
    expect(result.stdout).not.toContain(sandbox.token);
    const training = await runMain(['doctor', '--training', '--probe-capabilities'], { HOME: home });
    expect(training.code).toBe(2);
    expect(training.stderr).toContain('--probe-capabilities tries a payments API');
  });

  it('refuses a partial set of API options and a bad --timeout (exit 2)', async () => {
    const partial = await runMain(['doctor', '--api', sandbox.url, '--token', sandbox.token], { HOME: home });
    expect(partial.code).toBe(2);
    expect(partial.stderr).toContain('go together');
    expect(partial.stderr).not.toContain(sandbox.token);
    const timeout = await runMain(['doctor', '--timeout', 'soon'], { HOME: home });
    expect(timeout.code).toBe(2);
    expect(timeout.stderr).toContain('"soon" is not a number of seconds');
  });

  it("takes `pinbridge start`'s line as it is: --config, --pos-port, --training and --headless; the port checked is the one given", async () => {
    const port = await freedPort();
    const result = await runMain(
      [
        'doctor',
        '--json',
        '--port',
        'sim',
        '--config',
        settingsPath,
        '--pos-port',
        String(port),
        '--training',
        '--headless',
        '--timeout',
        '3',
      ],
      { HOME: home },
    );
    expect(result.stderr).toBe('');
    const report = JSON.parse(result.stdout) as DoctorReport;
    expect(report.checks.find((check) => check.id === 'pos-ports')).toMatchObject({
      status: 'ok',
      details: { source: 'option', ports: [{ port, state: 'free' }] },
    });
    expect(report.checks.find((check) => check.id === 'pos-ports')?.summary).toBe(
      `\`pinbridge start\` will listen on port ${port}: ${port} free`,
    );
    expect(report.checks.find((check) => check.id === 'payments-api')?.status).toBe('skip');
    expect(report.checks.find((check) => check.id === 'settings')).toMatchObject({
      status: 'ok',
      details: { path: settingsPath },
    });
    const bad = await runMain(['doctor', '--pos-port', 'seventeen'], { HOME: home });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('pinbridge: "seventeen" is not a TCP port (0–65535)\n');
  });

  it('fails on a mistyped PINPAD address in the settings: the settings check names it, and the pinpads check tries it and says where to correct it', async () => {
    const typo = join(home, 'typo-settings.json');
    writeFileSync(typo, JSON.stringify({ pinpad: { address: 'pinpad da loja' } }));
    const result = await runMain(['doctor', '--settings', typo, '--timeout', '1'], { HOME: home });
    expect(result.code).toBe(1);
    const why =
      '"pinpad da loja" is not a valid PINPAD address (not a serial port, a network or a Bluetooth address); use a serial device (/dev/ttyACM0, COM3), tcp://host:port (IPv6 as tcp://[::1]:4000) or ble:<device id>';
    expect(result.stdout).toMatch(
      new RegExp(`^✗ settings +The settings file ${typo} is invalid: pinpad\\.address: `, 'm'),
    );
    expect(result.stdout).toContain(
      `fix: Edit ${typo} and correct \`pinpad.address\` (${why}, or "sim" for the simulated PINPAD.) (the PINPAD address is also set in the window`,
    );
    expect(result.stdout).toMatch(/^✗ pinpads +"pinpad da loja" is not a valid PINPAD address/m);
    expect(result.stdout).toContain(`fix: Correct pinpad.address in ${typo} (in the window: Configurações → PINPAD)`);
    expect(result.stdout).not.toContain('no PINPAD address given');
  });

  it("says in its help what it takes, start's options among them, and the settings file for what it is", async () => {
    const help = await runMain(['doctor', '--help'], { HOME: home });
    expect(help.code).toBe(0);
    const text = help.stdout.replace(/\s+/g, ' ');
    for (const option of [
      '--port <address>',
      '--config <file>',
      '--pos-port <port>',
      '--training',
      '--headless',
      '--journal <path>',
      '--settings <file>',
    ])
      expect(text).toContain(option);
    expect(text).toContain(
      '--settings <file> the settings file the window writes (payments, API, PINPAD, receipts, printers, POS ports: docs/settings.schema.json)',
    );
    expect(text).not.toContain('payment settings (JSON: confirmation, installments, timeouts, pending_poll_ms)');
  });
});
