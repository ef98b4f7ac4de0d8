/**
 * The agent in plain Node, as the headless command and the desktop shell run it: in training
 * mode with the simulated PINPAD it recovers, listens, attaches the PINPAD, takes a sale, and
 * stops cleanly; a stop before the PINPAD answered settles `ready` instead of leaving it hanging;
 * a certificate that cannot be read stops the start with the setting at fault and leaves nothing
 * open.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Agent } from '../../../main/agent/agent.js';
import { loadSettings } from '../../../main/agent/settings-file.js';
import { SettingsError } from '../../../main/core/settings.js';
import { TEST_EMV_TABLES } from '../../../main/sandbox/payments/test-emv-tables.js';
import { createLogger } from '../../../main/log.js';
import { artifactsDir } from '../../helpers/card-data-scan.js';

let home: string;
const logger = createLogger({ level: 'silent' });

beforeEach(() => {
  home = mkdtempSync(join(artifactsDir(), 'agent-'));
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
});

describe('Agent', () => {
  it('starts in training mode with the simulated PINPAD, takes a credit and a debit sale, and stops', async () => {
    const agent = await Agent.start({ settings: loadSettings(undefined, home), api: {}, pinpadAddress: 'sim', home, posPorts: [0], logger });
    try {
      const ready = await agent.ready;
      expect(ready).toMatchObject({ mode: 'training', pinpad: { port: 'sim' }, printers: [], recovered: expect.any(Object) as unknown });
      expect(ready.pos.ws).toBe(agent.pos.url);
      // The window's address carries the operator key in its fragment, which a browser never sends.
      expect(ready.ui).toBe(`http://127.0.0.1:${agent.pos.port}/#key=${agent.operatorKey}`);
      expect(ready.pairing).toBe(`${ready.ui}&page=clients`);
      expect(readFileSync(join(home, '.pinbridge', 'operator.key'), 'utf8').trim()).toBe(agent.operatorKey);
      expect(ready.metrics).toBeUndefined();
      expect(ready.sandbox?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+/);
      expect(agent.pinpads.list()).toEqual([expect.objectContaining({ serialNumber: ready.pinpad.serial_number, connected: true })]);
      // The training customer inserts a Visa credit card by itself.
      const outcome = await agent.stack.engine.start({ reference_id: 'agent-1', amount: 1050, payment_type: 'credit', installments: 1, description: 'Teste' });
      expect(outcome).toMatchObject({ status: 'approved', amount: 1050 });
      // And a debit card for a debit sale.
      const debit = await agent.stack.engine.start({ reference_id: 'agent-2', amount: 2050, payment_type: 'debit', description: 'Débito' });
      expect(debit).toMatchObject({ status: 'approved', payment_type: 'debit', card: { masked_pan: '400005******5556' } });
    } finally {
      await agent.stop();
    }
    // Idempotent, and the journal is closed: a second stop is the same promise.
    await agent.stop();
    expect(agent.pos.sessions).toBe(0);
  }, 30_000);

  it('loads the payments provider’s EMV tables into the PINPAD when the settings say "provider", caches them and shows them', async () => {
    const settings = { ...loadSettings(undefined, home), pinpad: { address: 'sim', tables: 'provider' } };
    const agent = await Agent.start({ settings, api: {}, pinpadAddress: 'sim', home, posPorts: [0], logger });
    try {
      const ready = await agent.ready;
      const serial = ready.pinpad.serial_number;
      // The training sandbox serves its test set; the PINPAD got it at attach.
      expect(agent.pinpads.get(serial).tables).toEqual({ state: 'current', version: TEST_EMV_TABLES.version, acquirers: [2], error: null });
      const cached = join(home, '.pinbridge', 'training', 'emv-tables', `${serial}.json`);
      expect(JSON.parse(readFileSync(cached, 'utf8'))).toMatchObject({ version: TEST_EMV_TABLES.version });
      const outcome = await agent.stack.engine.start({ reference_id: 'tables-1', amount: 1050, payment_type: 'credit', installments: 1, description: 'Tabelas' });
      expect(outcome).toMatchObject({ status: 'approved' });
    } finally {
      await agent.stop();
    }
  }, 30_000);

  it('serves Prometheus metrics when the settings enable them, counting the sales it takes', async () => {
    const settings = { ...loadSettings(undefined, home), metrics: { enabled: true, port: 0 } };
    const agent = await Agent.start({ settings, api: {}, pinpadAddress: 'sim', home, posPorts: [0], logger });
    try {
      const ready = await agent.ready;
      expect(ready.metrics).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      await agent.stack.engine.start({ reference_id: 'metrics-1', amount: 700, payment_type: 'credit', installments: 1, description: 'Métrica' });
      const text = await (await fetch(ready.metrics!)).text();
      expect(text).toMatch(/^pinbridge_payments_total\{outcome="approved",payment_type="credit"\} 1$/m);
      expect(text).toMatch(/^pinbridge_info\{version="[^"]+",mode="training"\} 1$/m);
    } finally {
      await agent.stop();
    }
  }, 30_000);

  it('settles `ready` with an error when stopped before the PINPAD answered', async () => {
    // Nothing listens on this port: the PINPAD never answers.
    const agent = await Agent.start({ settings: loadSettings(undefined, home), api: {}, pinpadAddress: 'tcp://127.0.0.1:9', home, posPorts: [0], logger });
    await agent.stop();
    await expect(agent.ready).rejects.toThrow('the agent stopped before its PINPAD answered');
  });

  it('stops at once while its PINPAD is still opening', async () => {
    const agent = await Agent.start({ settings: loadSettings(undefined, home), api: {}, pinpadAddress: 'sim', home, posPorts: [0], logger });
    await agent.stop();
    // ready either came just in time or reports the stop; the stop itself did not hang.
    await agent.ready.catch((error: unknown) => expect(String(error)).toContain('stopped before'));
  });

  it('refuses a certificate it cannot read, naming the setting, before opening anything', async () => {
    const settings = { ...loadSettings(undefined, home), pos: { tls: { cert_file: join(home, 'missing.pem'), key_file: join(home, 'missing-key.pem') } } };
    const error = await Agent.start({ settings, api: {}, pinpadAddress: 'sim', home, posPorts: [0], logger }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SettingsError);
    expect((error as SettingsError).message).toContain('pos.tls.cert_file');
    // Nothing was opened: not even the training journal's folder.
    expect(existsSync(join(home, '.pinbridge'))).toBe(false);
  });
});
