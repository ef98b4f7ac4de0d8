/**
 * Issue 37's done-when for remote settings, on a running agent (training, simulated PINPAD) as
 * `pinbridge start` runs it: the chain signs a settings document with its Ed25519 key and serves
 * it over HTTPS; the agent follows the url by itself. A signed change applies without anyone
 * touching the checkout; a tampered document is refused and the agent keeps its settings; a
 * signed document that breaks the start is rolled back, the agent runs with the previous
 * settings and says why; a change waits while a sale runs, and applies after.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Agent } from '../../../main/agent/agent.js';
import type { AgentRunner } from '../../../main/agent/agent-runner.js';
import { startWithRemoteSettings } from '../../../main/agent/remote-follow.js';
import { centavos } from '../../../main/core/money.js';
import { createLogger } from '../../../main/log.js';
import { remoteSettingsKeyPath } from '../../../main/paths.js';
import { pinKey } from '../../../main/remote-settings/keys.js';
import { RemoteSettings } from '../../../main/remote-settings/remote-settings.js';
import { defaultSettingsPath } from '../../../main/settings/settings-file.js';
import { artifactsDir } from '../../helpers/card-data-scan.js';
import {
  generateKeyPair,
  signedDocument,
  startSettingsServer,
  tamperedDocument,
  type SettingsServer,
} from '../../helpers/remote-settings.js';
import { checkedCall as call, checkedFailure as refused, openSocket, RpcClient } from '../pos/pos-rig.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const keys = generateKeyPair();

interface Checkout {
  readonly home: string;
  readonly server: SettingsServer;
  readonly runner: AgentRunner;
  readonly remote: RemoteSettings;
  readonly restarts: Agent[];
}

/** A checkout of store loja-7 of the chain rede-sul, following its store's document. */
async function checkout(options: { customerDelayMs?: number } = {}): Promise<Checkout> {
  const home = mkdtempSync(join(artifactsDir(), 'remote-follow-'));
  const server = await startSettingsServer();
  cleanups.push(() => server.close());
  pinKey(remoteSettingsKeyPath(home), keys.publicKey);
  writeFileSync(
    defaultSettingsPath(home),
    JSON.stringify({
      fleet: { chain: 'rede-sul', store: 'loja-7' },
      remote_settings: {
        url: `${server.url}/pinbridge/{chain}/{store}.json`,
        ca: server.caFile,
      },
    }),
  );
  const logger = createLogger({ level: 'info', file: join(home, 'agent.log') });
  const remote = new RemoteSettings({ home, logger });
  const runner = await startWithRemoteSettings({
    remote,
    settingsPath: undefined,
    build: (settings) => ({
      settings,
      api: {},
      pinpadAddress: 'sim',
      home,
      posPorts: [0],
      logger,
      ...(options.customerDelayMs === undefined ? {} : { simulatedCustomerDelayMs: options.customerDelayMs }),
    }),
    logger,
    intervalMs: 200,
    firstCheckMs: 50,
    idlePollMs: 50,
    readyGraceMs: 15_000,
  });
  cleanups.push(async () => {
    remote.stop();
    await runner.stop();
  });
  const restarts: Agent[] = [];
  runner.on('restarted', (agent) => restarts.push(agent));
  await runner.agent.ready;
  return { home, server, runner, remote, restarts };
}

const BALCAO = (home: string, version: number) => ({
  printers: { balcao: { address: `file://${home}/printed-v${version}/`, format: 'escpos' } },
});

function printersOf(agent: Agent): string[] {
  return [...(agent.printing?.printers.keys() ?? [])];
}

async function windowOf(agent: Agent): Promise<RpcClient> {
  const client = new RpcClient(await openSocket(agent.pos.url, { Origin: `http://127.0.0.1:${agent.pos.port}` }));
  cleanups.push(() => client.socket.terminate());
  await call(client, 'session.operator', { key: agent.operatorKey });
  return client;
}

/** Version 1 (the balcao printer) applied and confirmed. */
async function runningVersion1(c: Checkout): Promise<Agent> {
  c.server.serve(signedDocument(keys, { version: 1, settings: BALCAO(c.home, 1) }));
  await expect.poll(() => c.remote.store.state.current?.version, { timeout: 20_000 }).toBe(1);
  const agent = c.runner.agent;
  expect(printersOf(agent)).toContain('balcao');
  return agent;
}

describe('an agent following signed remote settings', () => {
  it('applies a signed change by itself, shows its version and url, and locks the fields it sets', async () => {
    const c = await checkout();
    const before = c.runner.agent;
    expect(printersOf(before)).not.toContain('balcao');

    const agent = await runningVersion1(c);
    expect(agent).not.toBe(before);
    expect(c.restarts).toHaveLength(1);
    expect(c.server.requests[0]).toBe('/pinbridge/rede-sul/loja-7.json');

    const window = await windowOf(agent);
    const shown = await call(window, 'operator.settings');
    expect(shown.remote).toMatchObject({
      url: `${c.server.url}/pinbridge/rede-sul/loja-7.json`,
      key: 'pinned',
      version: 1,
      document_url: `${c.server.url}/pinbridge/rede-sul/loja-7.json`,
      governed: {
        'printers.balcao.address': `file://${c.home}/printed-v1/`,
        'printers.balcao.format': 'escpos',
      },
      last_refusal: null,
    });
    // The local file keeps its own settings: the document is merged over it, never written into it.
    expect(shown.settings).not.toHaveProperty('printers');

    // The window cannot change a field the chain's document sets…
    const local = shown.settings as Record<string, unknown>;
    const changed = { ...local, printers: { balcao: { address: 'tcp://10.0.0.9:9100', format: 'escpos' } } };
    expect(await refused(window, 'operator.saveSettings', { settings: changed })).toMatchObject({
      code: 'INVALID_PARAMS',
      violations: [
        expect.objectContaining({
          field: 'settings.printers.balcao.address',
          code: 'GOVERNED_REMOTELY',
          cashier_message: expect.stringContaining('configuração da rede (versão 1)') as unknown,
        }),
      ],
    });
    // …and saving the form as shown (the governed values included) keeps the local file as it was there.
    const asShown = { ...local, ...BALCAO(c.home, 1), confirmation: 'auto' };
    expect(await call(window, 'operator.saveSettings', { settings: asShown })).toMatchObject({ saved: true });
    expect((await call(window, 'operator.settings')).settings).toEqual({ ...local, confirmation: 'auto' });
  });

  it('refuses a tampered document: the agent keeps running as it was, and says why', async () => {
    const c = await checkout();
    const agent = await runningVersion1(c);
    const signed = signedDocument(keys, { version: 2, settings: BALCAO(c.home, 2) });
    c.server.serve(tamperedDocument(signed, { pos: { share_payments: true } }));

    await expect.poll(() => c.remote.status().last_refusal?.code, { timeout: 10_000 }).toBe('TAMPERED');
    expect(c.remote.status().last_check).toMatchObject({ outcome: 'refused' });
    expect(c.runner.agent).toBe(agent);
    expect(c.restarts).toHaveLength(1);
    expect(c.remote.store.state.current?.version).toBe(1);
    const shown = await call(await windowOf(agent), 'operator.settings');
    expect(shown.remote).toMatchObject({ version: 1, last_refusal: { code: 'TAMPERED', version: null } });

    // The same document, untampered, applies: what was refused was the change, not the chain.
    c.server.serve(signed);
    await expect.poll(() => c.remote.store.state.current?.version, { timeout: 20_000 }).toBe(2);
  });

  it('rolls back a signed document the agent cannot start with, and never tries it again', async () => {
    const c = await checkout();
    await runningVersion1(c);
    // Valid settings (the file's checks pass), but no such certificate: Agent.start refuses it.
    const broken = signedDocument(keys, {
      version: 3,
      settings: { pos: { tls: { cert_file: join(c.home, 'missing.pem'), key_file: join(c.home, 'missing.key') } } },
    });
    c.server.serve(broken);

    await expect.poll(() => c.remote.status().last_refusal?.code, { timeout: 20_000 }).toBe('NOT_READY');
    expect(c.remote.status().last_refusal).toMatchObject({ version: 3 });
    expect(c.remote.status().last_refusal?.message).toContain('pos.tls.cert_file');
    expect(c.remote.store.state).toMatchObject({ current: { version: 1 }, trial: null });
    expect(c.remote.store.state.refused_versions).toContain(3);
    // The agent runs with version 1 again, plain WebSocket (no TLS), at the same address.
    const agent = c.runner.agent;
    expect(agent.pos.url).toMatch(/^ws:/);
    expect(printersOf(agent)).toContain('balcao');
    const shown = await call(await windowOf(agent), 'operator.settings');
    expect(shown.remote).toMatchObject({ version: 1, last_refusal: { code: 'NOT_READY', version: 3 } });
    // The checkout's own saved settings are in use (with version 1): the window is not told otherwise.
    expect(shown.not_applied).toBeNull();

    // Served again, the same version is refused at once, without another restart; the refusal that
    // says why stays the one shown.
    const restarts = c.restarts.length;
    await expect
      .poll(() => c.remote.status().last_check?.message ?? '', { timeout: 10_000 })
      .toMatch(/^REFUSED_BEFORE: version 3 /);
    expect(c.remote.status().last_check?.outcome).toBe('refused');
    expect(c.remote.status().last_refusal).toMatchObject({ code: 'NOT_READY', version: 3 });
    expect(c.restarts.length).toBe(restarts);
  });

  it('waits while a sale runs, and applies the change once it ended', async () => {
    const c = await checkout({ customerDelayMs: 1_500 });
    const agent = c.runner.agent;
    const sale = agent.stack.engine.start({
      referenceId: 'remote-sale-1',
      amount: centavos(1234),
      paymentType: 'credit',
      installments: 1,
      description: 'Venda durante a configuração',
    });
    await expect.poll(() => agent.pinpads.list().some((pinpad) => pinpad.busy)).toBe(true);
    c.server.serve(signedDocument(keys, { version: 1, settings: BALCAO(c.home, 1) }));

    // Fetched and kept as the trial, it waits: the agent is the same while the customer is at the PINPAD.
    await expect.poll(() => c.remote.store.state.trial?.version, { timeout: 10_000 }).toBe(1);
    expect(c.runner.agent).toBe(agent);
    expect(c.remote.status().pending).toMatchObject({ version: 1 });
    expect(await sale).toMatchObject({ status: 'approved' });

    await expect.poll(() => c.remote.store.state.current?.version, { timeout: 20_000 }).toBe(1);
    expect(c.runner.agent).not.toBe(agent);
    expect(printersOf(c.runner.agent)).toContain('balcao');
  });
});
