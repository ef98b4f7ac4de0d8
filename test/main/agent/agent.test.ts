/**
 * The agent in plain Node, as the headless command and the desktop shell run it: in training
 * mode with the simulated PINPAD it recovers, listens, attaches the PINPAD, takes a sale, and
 * stops cleanly; a stop before the PINPAD answered settles `ready` instead of leaving it hanging;
 * a certificate that cannot be read stops the start with the setting at fault and leaves nothing
 * open. Without its PINPAD (issue 19) it says so at once (`started`) and takes the PINPAD the moment
 * its device node appears — a socat pty linked into a temp folder standing for /dev — however far
 * its reconnection backoff has gone, logging the absence once.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { extractText } from 'unpdf';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PinpadSimulator, startPtySimulator, type PtySimulator } from '../../../drivers/simulator/index.js';
import { SERIAL_DEVICE_NAME, watchDeviceDirectory } from '../../../drivers/transports/device-events.js';
import { Agent, type AgentOptions } from '../../../main/agent/agent.js';
import { SupervisorPin } from '../../../main/agent/supervisor-pin.js';
import { supervisorPinPath } from '../../../main/paths.js';
import { testIntegrityKey } from '../../helpers/integrity-key.js';
import { loadSettings } from '../../../main/settings/settings-file.js';
import { SettingsError } from '../../../main/core/settings.js';
import { TEST_EMV_TABLES } from '../../../main/sandbox/payments/test-emv-tables.js';
import { createLogger } from '../../../main/log.js';
import { artifactsDir } from '../../helpers/card-data-scan.js';
import { centavos } from '../../../main/core/money.js';
import { createTestPki } from '../../helpers/test-pki.js';
import { X509Certificate } from 'node:crypto';

let home: string;
const logger = createLogger({ level: 'silent' });

/** The agent in training (on the simulated PINPAD unless told), its POS API on any free port, in this spec's home. */
const startAgent = (options: Partial<AgentOptions> = {}): Promise<Agent> =>
  Agent.start({
    settings: loadSettings(undefined, home),
    api: {},
    pinpadAddress: 'sim',
    home,
    posPorts: [0],
    logger,
    ...options,
  });

beforeEach(() => {
  home = mkdtempSync(join(artifactsDir(), 'agent-'));
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
});

describe('Agent', () => {
  it('starts in training mode with the simulated PINPAD, takes a credit and a debit sale, and stops', async () => {
    const agent = await startAgent();
    try {
      const ready = await agent.ready;
      expect(ready).toMatchObject({
        mode: 'training',
        pinpad: { port: 'sim' },
        printers: ['default'],
        recovered: expect.any(Object) as unknown,
      });
      expect(ready.pos.ws).toBe(agent.pos.url);
      // The window's address carries the operator key in its fragment, which a browser never sends.
      expect(ready.ui).toBe(`http://127.0.0.1:${agent.pos.port}/#key=${agent.operatorKey}`);
      expect(ready.pairing).toBe(`${ready.ui}&page=clients`);
      expect(readFileSync(join(home, '.pinbridge', 'operator.key'), 'utf8').trim()).toBe(agent.operatorKey);
      expect(ready.metrics).toBeUndefined();
      expect(ready.sandbox?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+/);
      expect(agent.pinpads.list()).toEqual([
        expect.objectContaining({ serialNumber: ready.pinpad.serial_number, connected: true }),
      ]);
      // The training customer inserts a Visa credit card by itself.
      const outcome = await agent.stack.engine.start({
        referenceId: 'agent-1',
        amount: centavos(1050),
        paymentType: 'credit',
        installments: 1,
        description: 'Teste',
      });
      expect(outcome).toMatchObject({ status: 'approved', amount: 1050 });
      // And a debit card for a debit sale.
      const debit = await agent.stack.engine.start({
        referenceId: 'agent-2',
        amount: centavos(2050),
        paymentType: 'debit',
        description: 'Débito',
      });
      expect(debit).toMatchObject({
        status: 'approved',
        paymentType: 'debit',
        card: { maskedPan: '400005******5556' },
      });
    } finally {
      await agent.stop();
    }
    // Idempotent, and the journal is closed: a second stop is the same promise.
    await agent.stop();
    expect(agent.pos.sessions).toBe(0);
  }, 30_000);

  it('says when a sale is in progress — a PINPAD busy with it, an approval waiting for the POS — which a staged update waits out', async () => {
    mkdirSync(join(home, '.pinbridge'), { recursive: true });
    writeFileSync(join(home, '.pinbridge', 'settings.json'), JSON.stringify({ confirmation: 'pos' }));
    const agent = await startAgent({ simulatedCustomerDelayMs: 300 });
    try {
      const ready = await agent.ready;
      const serial = ready.pinpad.serial_number;
      expect(agent.saleActivity()).toEqual({ busyPinpads: [], awaitingConfirmation: 0 });
      const sale = agent.stack.engine.start({
        referenceId: 'agent-busy',
        amount: centavos(1050),
        paymentType: 'credit',
        installments: 1,
        description: 'Teste',
      });
      await expect.poll(() => agent.saleActivity().busyPinpads).toEqual([serial]);
      expect(await sale).toMatchObject({ status: 'approved' });
      // Approved, the PINPAD free, but the POS has yet to confirm: the sale is not over.
      expect(agent.saleActivity()).toEqual({ busyPinpads: [], awaitingConfirmation: 1 });
      await agent.stack.engine.confirm('agent-busy');
      expect(agent.saleActivity()).toEqual({ busyPinpads: [], awaitingConfirmation: 0 });
    } finally {
      await agent.stop();
    }
  }, 30_000);

  it('in training with no printer in the settings, prints each receipt as a PDF in a folder beside the training journal, so reprinting can be practised', async () => {
    const agent = await startAgent();
    const folder = join(home, '.pinbridge', 'training', 'receipts');
    const printed = (): string[] =>
      existsSync(folder)
        ? readdirSync(folder)
            .filter((name) => name.endsWith('.pdf'))
            .sort()
        : [];
    try {
      await agent.ready;
      await agent.stack.engine.start({
        referenceId: 'paper-1',
        amount: centavos(4_321),
        paymentType: 'credit',
        installments: 1,
        description: 'Teste',
      });
      // Both copies print by themselves when the sale ends, as on a store's printer.
      await vi.waitFor(() => expect(printed()).toHaveLength(2), { timeout: 10_000 });
      const service = agent.printing?.service;
      if (service === undefined) throw new Error('training prints receipts');
      const [job] = service.print('paper-1', { copies: ['customer'] });
      expect(job).toMatchObject({ printer: 'default' });
      await vi.waitFor(() => expect(printed()).toHaveLength(3), { timeout: 10_000 });
      const reprint =
        printed()
          .map((name) => readFileSync(join(folder, name)))
          .at(-1) ?? Buffer.alloc(0);
      expect(reprint.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      const { text } = await extractText(new Uint8Array(reprint), { mergePages: true });
      expect(text).toContain('TREINAMENTO');
      expect(text).toContain('43,21');
      expect(text).toContain('REIMPRESSÃO');
    } finally {
      await agent.stop();
    }
  }, 30_000);

  it('loads the payments provider’s EMV tables into the PINPAD when the settings say "provider", caches them and shows them', async () => {
    const settings = { ...loadSettings(undefined, home), pinpad: { address: 'sim', tables: 'provider' } };
    const agent = await startAgent({ settings });
    try {
      const ready = await agent.ready;
      const serial = ready.pinpad.serial_number;
      // The training sandbox serves its test set; the PINPAD got it at attach.
      expect(agent.pinpads.get(serial).tables).toEqual({
        state: 'current',
        version: TEST_EMV_TABLES.version,
        acquirers: [2],
        error: null,
      });
      const cached = join(home, '.pinbridge', 'training', 'emv-tables', `${serial}.json`);
      expect(JSON.parse(readFileSync(cached, 'utf8'))).toMatchObject({
        serial,
        document: { version: TEST_EMV_TABLES.version },
      });
      const outcome = await agent.stack.engine.start({
        referenceId: 'tables-1',
        amount: centavos(1050),
        paymentType: 'credit',
        installments: 1,
        description: 'Tabelas',
      });
      expect(outcome).toMatchObject({ status: 'approved' });
    } finally {
      await agent.stop();
    }
  }, 30_000);

  it('refuses at the next start a tables cache changed on disk (limits raised, version kept): fetched again, in the audit trail, flagged for the window', async () => {
    const settings = { ...loadSettings(undefined, home), pinpad: { address: 'sim', tables: 'provider' } };
    const first = await startAgent({ settings });
    let serial: string;
    try {
      serial = (await first.ready).pinpad.serial_number;
    } finally {
      await first.stop();
    }
    const cached = join(home, '.pinbridge', 'training', 'emv-tables', `${serial}.json`);
    const cache = JSON.parse(readFileSync(cached, 'utf8')) as { document: { entries: Record<string, unknown>[] } };
    for (const entry of cache.document.entries)
      if ('contactlessTransactionLimit' in entry) entry.contactlessTransactionLimit = 999_999;
    writeFileSync(cached, JSON.stringify(cache));

    const next = await startAgent({ settings });
    try {
      await next.ready;
      expect(next.pinpads.get(serial).tables).toMatchObject({
        state: 'current',
        version: TEST_EMV_TABLES.version,
        cacheTampered: true,
      });
      expect(next.audit.recent).toContainEqual(
        expect.objectContaining({ kind: 'tamper.detected', what: 'emv_tables_cache', serial }),
      );
      // The provider's own tables are cached again, under a good seal.
      expect((JSON.parse(readFileSync(cached, 'utf8')) as { document: unknown }).document).toEqual(TEST_EMV_TABLES);
    } finally {
      await next.stop();
    }
    expect(readFileSync(join(home, '.pinbridge', 'logs', 'audit.log'), 'utf8')).toContain('"kind":"tamper.detected"');
  }, 30_000);

  it('seals a supervisor PIN file from before seals at the first start, so the next start takes it and its lock', async () => {
    // As an earlier Pinbridge left it: the hash at the top, one count, a lock in force, no seal (and no key yet).
    const file = supervisorPinPath(home);
    const made = join(mkdtempSync(join(artifactsDir(), 'agent-pin-')), 'pin');
    new SupervisorPin(made, { integrity: testIntegrityKey() }).set('482193');
    const { pin } = JSON.parse(readFileSync(made, 'utf8')) as { pin: object };
    const until = new Date(Date.now() + 60_000).toISOString();
    mkdirSync(join(home, '.pinbridge'), { recursive: true });
    writeFileSync(file, JSON.stringify({ version: 1, ...pin, failures: 0, locked_until: until }));
    for (let start = 0; start < 2; start++) {
      const agent = await startAgent();
      await agent.stop();
      expect(JSON.parse(readFileSync(file, 'utf8')), `start ${start + 1}`).toMatchObject({
        version: 2,
        lockouts: { window: { locked_until: until } },
        seal: expect.any(String) as unknown,
      });
      expect(agent.audit.recent.filter((line) => line.kind === 'tamper.detected')).toEqual([]);
    }
  }, 30_000);

  it('serves Prometheus metrics when the settings enable them, counting the sales it takes', async () => {
    const pki = createTestPki();
    const loaded = loadSettings(undefined, home);
    const settings = {
      ...loaded,
      metrics: { enabled: true, port: 0 },
      // A POS TLS certificate (as `pinbridge pos cert` would leave): its expiry is a metric.
      pos: { ...loaded.pos, tls: { cert_file: pki.server.cert, key_file: pki.server.key } },
    };
    const agent = await startAgent({ settings }).catch((error: unknown) => {
      pki.remove();
      throw error;
    });
    try {
      const ready = await agent.ready;
      expect(ready.metrics).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      await agent.stack.engine.start({
        referenceId: 'metrics-1',
        amount: centavos(700),
        paymentType: 'credit',
        installments: 1,
        description: 'Métrica',
      });
      const text = await (await fetch(ready.metrics!)).text();
      expect(text).toMatch(/^pinbridge_payments_total\{outcome="approved",payment_type="credit"\} 1$/m);
      expect(text).toMatch(/^pinbridge_info\{version="[^"]+",mode="training"\} 1$/m);
      // The fleet's series, from the agent's own sources: the journal, its disk, the certificates.
      expect(text).toMatch(/^pinbridge_payment_step_duration_seconds_count\{step="authorize"\} 1$/m);
      expect(text).toMatch(/^pinbridge_payment_declines_total\{category="insufficient_funds"\} 0$/m);
      expect(text).toMatch(/^pinbridge_payments_undecided 0$/m);
      expect(text).toMatch(/^pinbridge_payment_undecided_oldest_age_seconds 0$/m);
      expect(text).toMatch(/^pinbridge_journal_reserve_bytes 8388608$/m);
      expect(Number(/^pinbridge_disk_free_bytes (\d+)$/m.exec(text)?.[1])).toBeGreaterThan(0);
      const notAfter = Date.parse(new X509Certificate(readFileSync(pki.server.cert)).validTo) / 1000;
      expect(text).toMatch(
        new RegExp(`^pinbridge_certificate_expiry_timestamp_seconds\\{certificate="pos_tls"\\} ${notAfter}$`, 'm'),
      );
      // Training presents no client certificate to its sandbox.
      expect(text).not.toContain('certificate="api_client"');
    } finally {
      await agent.stop();
      pki.remove();
    }
  }, 30_000);

  it('settles `ready` with an error when stopped before the PINPAD answered', async () => {
    // Nothing listens on this port: the PINPAD never answers.
    const agent = await startAgent({ pinpadAddress: 'tcp://127.0.0.1:9' });
    await agent.stop();
    await expect(agent.ready).rejects.toThrow('the agent stopped before its PINPAD answered');
  });

  it('stops at once while its PINPAD is still opening', async () => {
    const agent = await startAgent();
    await agent.stop();
    // ready either came just in time or reports the stop; the stop itself did not hang.
    await agent.ready.catch((error: unknown) => expect(String(error)).toContain('stopped before'));
  });

  it('refuses a certificate it cannot read, naming the setting, before opening anything', async () => {
    const settings = {
      ...loadSettings(undefined, home),
      pos: { tls: { cert_file: join(home, 'missing.pem'), key_file: join(home, 'missing-key.pem') } },
    };
    const error = await startAgent({ settings }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SettingsError);
    expect((error as SettingsError).message).toContain('pos.tls.cert_file');
    // Nothing was opened: not even the training journal's folder.
    expect(existsSync(join(home, '.pinbridge'))).toBe(false);
  });
});

describe('Agent without its PINPAD', () => {
  let pty: PtySimulator | undefined;
  afterEach(async () => {
    await pty?.close();
    pty = undefined;
  });

  it('says at once that the PINPAD is not found, takes it the moment its port appears, and logs its absence once', async () => {
    const dev = join(home, 'dev');
    mkdirSync(dev);
    const address = join(dev, 'ttyACM0');
    const logFile = join(home, 'agent.log');
    let listings = 0;
    const agent = await startAgent({
      pinpadAddress: address,
      logger: createLogger({ level: 'info', file: logFile }),
      // A folder standing for /dev, listed as serialport would list it.
      hotplug: {
        events: watchDeviceDirectory({ dir: dev }),
        list: () => {
          listings++;
          return Promise.resolve(
            readdirSync(dev)
              .filter((name) => SERIAL_DEVICE_NAME.test(name))
              .map((name) => ({ path: join(dev, name) })),
          );
        },
        settleMs: 10,
        recheckMs: [],
      },
      // Only the hot-plug event can bring the PINPAD in within the test: the next attempt would be in an hour.
      reconnect: { reconnectDelayMs: 60 * 60 * 1000 },
    });
    try {
      const started = await agent.started;
      expect(started.pinpad).toEqual({
        port: address,
        state: 'not_found',
        code: 'PORT_NOT_FOUND',
        error: expect.any(String) as unknown,
        message: `PINPAD not found at ${address}`,
        cashier_message: `PINPAD não encontrado em ${address}. Verifique o cabo e se ele está ligado.`,
      });
      expect(started.pos.ws).toBe(agent.pos.url);
      expect(agent.pinpadLink.status).toMatchObject({ state: 'not_found', code: 'PORT_NOT_FOUND' });

      // Plugged in: the kernel makes the device node (here socat's link to a pty with the simulator behind).
      pty = await startPtySimulator(new PinpadSimulator(), { linkB: address });
      const ready = await agent.ready;
      expect(ready.pinpad).toMatchObject({ port: address, state: 'ready', manufacturer: 'PINBRIDGE SIM' });
      expect(agent.pinpadLink.status.state).toBe('ready');
      expect(agent.pinpads.list()).toEqual([expect.objectContaining({ address, connected: true })]);

      // Pulled, and plugged in again.
      await pty.close();
      await vi.waitFor(() => expect(agent.pinpads.list()[0]?.connected).toBe(false), { timeout: 10_000 });
      pty = await startPtySimulator(new PinpadSimulator(), { linkB: address });
      await vi.waitFor(() => expect(agent.pinpads.list()[0]?.connected).toBe(true), { timeout: 10_000 });
    } finally {
      await agent.stop();
    }
    const lines = readFileSync(logFile, 'utf8')
      .split('\n')
      .filter((line) => line.length > 0)
      .map((line) => JSON.parse(line) as { level: number; msg: string });
    // The keeper's lines (the driver adds its own about the link it lost).
    const pinpadLines = lines.filter((line) =>
      /^PINPAD (not available|did not answer|ready|disconnected;)/.test(line.msg),
    );
    expect(pinpadLines.map((line) => [line.level, line.msg])).toEqual([
      [40, 'PINPAD not available; trying again with backoff'],
      [30, 'PINPAD ready'],
      [40, 'PINPAD disconnected; trying again with backoff until it is back'],
      // The first attempt after the pull, if it came before the device node went, finds nothing there.
      ...(pinpadLines.length === 5 ? [[40, 'PINPAD not available; trying again with backoff']] : []),
      [30, 'PINPAD ready'],
    ]);
    // Listed at start and once per plug or pull, not on a timer.
    expect(listings).toBeLessThanOrEqual(1 + 3);
  }, 30_000);

  it('logs once that the serial ports cannot be listed, however many devices come and go, and once that they can again', async () => {
    const dev = join(home, 'dev');
    mkdirSync(dev);
    const logFile = join(home, 'agent.log');
    let broken = true;
    let failures = 0;
    const agent = await startAgent({
      logger: createLogger({ level: 'info', file: logFile }),
      hotplug: {
        events: watchDeviceDirectory({ dir: dev }),
        // As serialport's list on a Linux without udevadm, until it is installed.
        list: () => {
          if (!broken) return Promise.resolve(readdirSync(dev).map((name) => ({ path: join(dev, name) })));
          failures++;
          return Promise.reject(Object.assign(new Error('spawn udevadm ENOENT'), { code: 'ENOENT' }));
        },
        settleMs: 10,
        recheckMs: [],
      },
    });
    try {
      await vi.waitFor(() => expect(failures).toBe(1), { timeout: 10_000 });
      for (const name of ['ttyUSB0', 'ttyUSB1', 'ttyUSB2']) {
        const before = failures;
        writeFileSync(join(dev, name), '');
        await vi.waitFor(() => expect(failures).toBe(before + 1), { timeout: 10_000 });
      }
      broken = false;
      writeFileSync(join(dev, 'ttyACM0'), '');
      await vi.waitFor(() => expect(readFileSync(logFile, 'utf8')).toContain('serial ports listed again'), {
        timeout: 10_000,
      });
    } finally {
      await agent.stop();
    }
    const about = readFileSync(logFile, 'utf8')
      .split('\n')
      .filter((line) => line.length > 0)
      .map((line) => JSON.parse(line) as { level: number; msg: string; attempts?: number })
      .filter((line) => line.msg.startsWith('cannot list serial ports') || line.msg === 'serial ports listed again');
    expect(about.map((line) => [line.level, line.msg])).toEqual([
      [40, 'cannot list serial ports; trying again when a device comes or goes'],
      [30, 'serial ports listed again'],
    ]);
    expect(about[1]).toMatchObject({ attempts: 4 });
  }, 30_000);
});
