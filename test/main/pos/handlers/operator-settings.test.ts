/**
 * The window's settings, token and diagnostics through the real agent (training mode, its own
 * home): read the file and how the token is kept, save a good file, refuse a bad one naming each
 * field (the file untouched), keep a token without ever sending it back, run the doctor, list
 * the serial ports. A POS gets none of it.
 */
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent } from '../../../../main/agent/agent.js';
import { loadSettings, parseSettings } from '../../../../main/settings/settings-file.js';
import { CERTIFICATE_PASSPHRASE, headlessTokenStore } from '../../../../main/agent/token-store.js';
import type { SettingsError } from '../../../../main/core/settings.js';
import { createLogger } from '../../../../main/log.js';
import { artifactsDir } from '../../../helpers/card-data-scan.js';
import { PINPAD, setup } from '../../../helpers/noble-double.js';
import { checkedCall as call, checkedFailure as refused, openSocket, RpcClient } from '../pos-rig.js';

let home: string;
let agent: Agent;
let window: RpcClient;

async function connect(origin?: string): Promise<RpcClient> {
  return new RpcClient(await openSocket(agent.pos.url, origin === undefined ? {} : { Origin: origin }));
}

beforeAll(async () => {
  home = mkdtempSync(join(artifactsDir(), 'operator-settings-'));
  const logFile = join(home, 'agent.log');
  agent = await Agent.start({
    settings: loadSettings(undefined, home),
    api: {},
    pinpadAddress: 'sim',
    home,
    posPorts: [0],
    logger: createLogger({ level: 'info', file: logFile }),
    logFile,
    // A radio with a BLE PINPAD and a heart-rate belt (no Bluetooth hardware here: noble's own core over fake bindings).
    noble: () =>
      setup([
        { ...PINPAD },
        { id: 'feed00000002', address: 'fe:ed:00:00:00:02', name: 'Heart', rssi: -40, services: ['180d'] },
      ]).noble,
    listSystemPrinters: () => Promise.resolve([{ name: 'Recibos_80mm', isDefault: true }]),
  });
  window = await connect(`http://127.0.0.1:${agent.pos.port}`);
  await call(window, 'session.operator', { key: agent.operatorKey });
}, 30_000);
afterAll(async () => {
  window?.socket.terminate();
  await agent?.stop();
});

describe('settings from the window', () => {
  const settingsPath = (): string => join(home, '.pinbridge', 'settings.json');

  it('reads no file as the defaults, and says how the token is kept', async () => {
    expect(await call(window, 'operator.settings')).toEqual({
      path: settingsPath(),
      settings: null,
      problem: null,
      api_token: { kind: 'file', stored: false },
      certificate_passphrase: { kind: 'file', stored: false },
      supervisor_pin: { stored: false, tampered: false },
      not_applied: null,
      // No remote_settings section: no chain's document governs anything.
      remote: null,
    });
  });

  it('saves a good file, privately, to apply when the agent restarts', async () => {
    const settings = {
      confirmation: 'pos',
      pinpad: { address: 'sim' },
      api: { base_url: 'https://api.example.com', marketplace_id: 'm', seller_id: 's' },
    };
    expect(await call(window, 'operator.saveSettings', { settings })).toEqual({ saved: true, restart_required: true });
    expect(JSON.parse(readFileSync(settingsPath(), 'utf8'))).toEqual(settings);
    expect(statSync(settingsPath()).mode & 0o777).toBe(0o600);
    expect((await call(window, 'operator.settings')).settings).toEqual(settings);
  });

  it('refuses a bad file naming each field, and leaves the saved one', async () => {
    const before = readFileSync(settingsPath(), 'utf8');
    const error = await refused(window, 'operator.saveSettings', {
      settings: { confirmation: 'sometimes', api: { base_url: 'nope' } },
    });
    expect(error.code).toBe('INVALID_PARAMS');
    const fields = (error.violations as { field: string }[]).map((v) => v.field);
    expect(fields).toEqual(
      expect.arrayContaining(['settings.confirmation', 'settings.api.base_url', 'settings.api.marketplace_id']),
    );
    expect(readFileSync(settingsPath(), 'utf8')).toBe(before);
  });

  it('saves a store with an alphanumeric CNPJ, and refuses one whose check digits do not match, naming the field', async () => {
    const earlier = (await call(window, 'operator.settings')).settings;
    const settings = { receipts: { merchant: { name: 'Mercadinho Nova Era', cnpj: '12ABC34501DE35' } } };
    expect(await call(window, 'operator.saveSettings', { settings })).toEqual({ saved: true, restart_required: true });
    expect((await call(window, 'operator.settings')).settings).toEqual(settings);
    const before = readFileSync(settingsPath(), 'utf8');
    const error = await refused(window, 'operator.saveSettings', {
      settings: { receipts: { merchant: { name: 'Mercadinho Nova Era', cnpj: '12ABC34501DE36' } } },
    });
    expect(error.code).toBe('INVALID_PARAMS');
    expect(error.violations).toEqual([
      {
        field: 'settings.receipts.merchant.cnpj',
        code: 'INVALID_CNPJ_CHECK_DIGITS',
        message: 'is not a valid CNPJ (check digits do not match)',
        cashier_message: 'Os dígitos verificadores não conferem: confira o CNPJ.',
      },
    ]);
    expect(readFileSync(settingsPath(), 'utf8')).toBe(before);
    // The file as the other specs left it.
    expect(await call(window, 'operator.saveSettings', { settings: earlier })).toMatchObject({ saved: true });
  });

  it("refuses a file still giving the checkout's place in telemetry with MOVED, saying in Portuguese where it went", async () => {
    const before = readFileSync(settingsPath(), 'utf8');
    const error = await refused(window, 'operator.saveSettings', {
      settings: { telemetry: { store: 'loja-042' } },
    });
    expect(error.code).toBe('INVALID_PARAMS');
    expect(error.violations).toEqual([
      expect.objectContaining({
        field: 'settings.telemetry.store',
        code: 'MOVED',
        message: expect.stringMatching(/^has moved to fleet\.store: /) as unknown,
        cashier_message: expect.stringContaining('agora é fleet.store') as unknown,
      }),
    ]);
    expect(readFileSync(settingsPath(), 'utf8')).toBe(before);
  });

  it('refuses a PINPAD address the CLI refuses, with the same sentence, and leaves the saved file', async () => {
    const before = readFileSync(settingsPath(), 'utf8');
    for (const address of ['pinpad da loja', 'COM', 'tcp://10.0.0.5']) {
      const error = await refused(window, 'operator.saveSettings', { settings: { pinpad: { address } } });
      expect(error.code).toBe('INVALID_PARAMS');
      const violations = error.violations as { field: string; message: string }[];
      expect(
        violations.map((v) => v.field),
        address,
      ).toEqual(['settings.pinpad.address']);
      expect(violations[0]?.message).toMatch(
        new RegExp(`^"${address.replace(/[.]/g, '\\.')}" is not a valid PINPAD address \\(`),
      );
    }
    expect(readFileSync(settingsPath(), 'utf8')).toBe(before);
  });

  it('keeps the API token in a private file and never sends it back', async () => {
    expect(await call(window, 'operator.setApiToken', { token: 'zpk_test_0123456789' })).toEqual({ stored: true });
    expect(readFileSync(join(home, '.pinbridge', 'api-token'), 'utf8').trim()).toBe('zpk_test_0123456789');
    const read = await call(window, 'operator.settings');
    expect(read.api_token).toEqual({ kind: 'file', stored: true });
    expect(JSON.stringify(read)).not.toContain('zpk_test_0123456789');
  });

  it('keeps the client certificate’s passphrase in a private file, exactly as typed, and never sends it back', async () => {
    expect(await call(window, 'operator.setCertificatePassphrase', { passphrase: ' senha do A1 ' })).toEqual({
      stored: true,
    });
    const file = join(home, '.pinbridge', 'cert-passphrase');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const read = await call(window, 'operator.settings');
    expect(read.certificate_passphrase).toEqual({ kind: 'file', stored: true });
    expect(JSON.stringify(read)).not.toContain('senha do A1');
    // A passphrase's spaces are part of it: only the line's end goes when it is read back.
    expect(headlessTokenStore(file, {}, CERTIFICATE_PASSPHRASE).read()).toBe(' senha do A1 ');
  });

  it("keeps the supervisor's PIN as a salted hash in a private file, in use at once, never sent back nor logged", async () => {
    expect(await call(window, 'operator.supervisor')).toEqual({
      required_for: 'none',
      min_amount_centavos: 0,
      entry: 'window',
      pos_voids: 'trusted',
      pin_set: false,
      training_pin: true,
      locked_until: null,
      pos_locked_until: null,
      tampered: false,
    });
    expect(await call(window, 'operator.setSupervisorPin', { pin: '73915846' })).toEqual({ stored: true });
    const file = join(home, '.pinbridge', 'supervisor-pin');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).not.toContain('73915846');
    const read = await call(window, 'operator.settings');
    expect(read.supervisor_pin).toEqual({ stored: true, tampered: false });
    expect(JSON.stringify(read)).not.toContain('73915846');
    expect((await call(window, 'operator.supervisor')).pin_set).toBe(true);
    const log = readFileSync(join(home, 'agent.log'), 'utf8');
    expect(log).toContain('supervisor PIN stored from the window');
    expect(log).not.toContain('73915846');
  });

  it('runs the doctor with each check and its fix, in English and Portuguese, and lists the serial ports', async () => {
    const report = await call(window, 'operator.doctor');
    expect(report.checks.map((check) => check.id)).toEqual(
      expect.arrayContaining(['settings', 'pinpads', 'printers', 'payments-api', 'pos-ports']),
    );
    expect(report.checks.find((check) => check.id === 'settings')).toMatchObject({ status: 'ok' });
    // Each check also in Brazilian Portuguese, for the window, with a fix exactly when there is one in English.
    for (const check of report.checks) {
      expect(check.pt.summary, check.id).not.toBe('');
      expect(check.pt.fix === undefined, check.id).toBe(check.fix === undefined);
    }
    expect(report.checks.find((check) => check.id === 'settings')?.pt).toEqual({
      summary: `Configurações carregadas de ${settingsPath()} (0 impressora(s), comprovantes sem o nome e o CNPJ da loja)`,
    });
    expect(report.checks.find((check) => check.id === 'printers')?.pt).toEqual({
      summary: `Nenhuma impressora nas configurações (${settingsPath()}, seção \`printers\`): os comprovantes não são impressos`,
    });
    expect(Array.isArray((await call(window, 'operator.detectPinpads')).ports)).toBe(true);
  }, 30_000);

  it("checks the POS port this agent listens on, not the default ones, and reports its own PINPAD's link instead of opening it", async () => {
    const report = await call(window, 'operator.doctor');
    const ports = report.checks.find((check) => check.id === 'pos-ports');
    expect(ports?.details).toMatchObject({ source: 'in-use', ports: [{ port: agent.pos.port, state: 'pinbridge' }] });
    expect(ports?.summary).toMatch(
      new RegExp(`^Pinbridge is running on port ${agent.pos.port}: ${agent.pos.port} Pinbridge `),
    );
    const pinpads = report.checks.find((check) => check.id === 'pinpads');
    expect(pinpads).toMatchObject({
      status: 'ok',
      summary: 'PINPAD ready at sim (in use by this Pinbridge)',
      details: { address: 'sim', link: { state: 'ready' } },
    });
    expect(pinpads?.pt.summary).toBe('PINPAD pronto em sim (em uso por este Pinbridge)');
  }, 30_000);

  it("exports the agent's recent log lines for support", async () => {
    await agent.ready;
    const exported = await call(window, 'operator.exportLogs', { max_lines: 50 });
    expect(exported.file).toBe(join(home, 'agent.log'));
    expect(exported.lines).toBeGreaterThan(0);
    expect(exported.text).toContain('"msg":"POS API listening"');
    expect(exported.masked).toBe(0);
  });

  it('scans Bluetooth LE for PINPADs, giving addresses ready for the PINPAD setting', async () => {
    expect(await call(window, 'operator.scanBle', { seconds: 1 })).toEqual({
      devices: [{ address: `ble:${PINPAD.id}`, name: 'PINPAD-BLE', rssi: -60 }],
    });
  });

  it("lists the system's printers as lp:// addresses for the printer setting", async () => {
    expect(await call(window, 'operator.systemPrinters')).toEqual({
      printers: [{ address: 'lp://Recibos_80mm', name: 'Recibos_80mm', is_default: true }],
    });
  });

  it('cannot restart an agent whose starter cannot (INVALID_STATE, NO_RESTART): the window says to restart by hand', async () => {
    expect(await refused(window, 'operator.restart')).toMatchObject({ code: 'INVALID_STATE', reason: 'NO_RESTART' });
  });

  it('keeps all of it from a paired POS', async () => {
    const posClient = await connect();
    for (const method of [
      'operator.settings',
      'operator.doctor',
      'operator.detectPinpads',
      'operator.exportLogs',
      'operator.restart',
    ] as const) {
      expect(await refused(posClient, method)).toMatchObject({ code: 'OPERATOR_ONLY' });
    }
    expect(await refused(posClient, 'operator.setApiToken', { token: 'zpk_stolen_token' })).toMatchObject({
      code: 'OPERATOR_ONLY',
    });
    expect(await refused(posClient, 'operator.setCertificatePassphrase', { passphrase: 'x' })).toMatchObject({
      code: 'OPERATOR_ONLY',
    });
    posClient.socket.terminate();
  });
});

describe('an agent started despite a bad settings file', () => {
  it('shows the window the mistake, naming the field', async () => {
    const badHome = mkdtempSync(join(artifactsDir(), 'operator-bad-'));
    const path = join(badHome, 'settings.json');
    writeFileSync(path, JSON.stringify({ confirmation: 'sometimes' }));
    let problem: SettingsError | undefined;
    try {
      parseSettings({ confirmation: 'sometimes' }, path);
    } catch (error) {
      problem = error as SettingsError;
    }
    const started = await Agent.start({
      settings: { ...loadSettings(undefined, badHome), path },
      api: {},
      pinpadAddress: 'sim',
      home: badHome,
      posPorts: [0],
      logger: createLogger({ level: 'silent' }),
      settingsProblem: problem!,
    });
    try {
      const own = new RpcClient(await openSocket(started.pos.url));
      await call(own, 'session.operator', { key: started.operatorKey });
      const read = await call(own, 'operator.settings');
      expect(read.settings).toEqual({ confirmation: 'sometimes' });
      expect(read.problem?.violations.map((v) => v.field)).toEqual(['confirmation']);
      own.socket.terminate();
    } finally {
      await started.stop();
    }
  }, 30_000);
});

describe('an agent whose secrets come from the environment (headless)', () => {
  it('refuses a token or passphrase from the window with INVALID_STATE, SET_BY_ENVIRONMENT, naming the variable, in Portuguese too', async () => {
    const envHome = mkdtempSync(join(artifactsDir(), 'operator-env-'));
    const env = { PINBRIDGE_API_TOKEN: 'zpk_from_env_123', PINBRIDGE_CERT_PASSPHRASE: 'from env' };
    const started = await Agent.start({
      settings: loadSettings(undefined, envHome),
      api: {},
      pinpadAddress: 'sim',
      home: envHome,
      posPorts: [0],
      logger: createLogger({ level: 'silent' }),
      tokens: headlessTokenStore(join(envHome, '.pinbridge', 'api-token'), env),
      passphrases: headlessTokenStore(join(envHome, '.pinbridge', 'cert-passphrase'), env, CERTIFICATE_PASSPHRASE),
    });
    try {
      const own = new RpcClient(await openSocket(started.pos.url));
      await call(own, 'session.operator', { key: started.operatorKey });
      expect((await call(own, 'operator.settings')).api_token).toEqual({ kind: 'environment', stored: true });
      const token = await refused(own, 'operator.setApiToken', { token: 'zpk_window_0123' });
      expect(token).toMatchObject({
        code: 'INVALID_STATE',
        reason: 'SET_BY_ENVIRONMENT',
        cashier_message:
          'O token do serviço de pagamentos é definido pela variável de ambiente PINBRIDGE_API_TOKEN e não pode ser trocado pela janela: mude a variável e reinicie o Pinbridge.',
      });
      expect(token.message).toContain('PINBRIDGE_API_TOKEN');
      const passphrase = await refused(own, 'operator.setCertificatePassphrase', { passphrase: 'senha' });
      expect(passphrase).toMatchObject({
        code: 'INVALID_STATE',
        reason: 'SET_BY_ENVIRONMENT',
        cashier_message:
          'A senha do certificado digital é definida pela variável de ambiente PINBRIDGE_CERT_PASSPHRASE e não pode ser trocada pela janela: mude a variável e reinicie o Pinbridge.',
      });
      // Nothing written where the window would have kept them.
      expect(() => readFileSync(join(envHome, '.pinbridge', 'api-token'))).toThrow(/ENOENT/);
      own.socket.terminate();
    } finally {
      await started.stop();
    }
  }, 30_000);
});
