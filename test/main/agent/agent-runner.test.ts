/**
 * The agent restarted from the window (operator.restart), as `pinbridge start` runs it: the saved
 * settings apply without anyone quitting, at the same address; a sale in progress is never cut;
 * settings that do not load or do not start leave the checkout with a running agent.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Agent, AgentOptions } from '../../../main/agent/agent.js';
import { Agent as RealAgent } from '../../../main/agent/agent.js';
import { AgentRunner } from '../../../main/agent/agent-runner.js';
import { defaultSettingsPath, loadSettings } from '../../../main/settings/settings-file.js';
import { createLogger } from '../../../main/log.js';
import { artifactsDir } from '../../helpers/card-data-scan.js';
import { checkedCall as call, checkedFailure as refused, openSocket, RpcClient } from '../pos/pos-rig.js';

const runners: AgentRunner[] = [];
const sockets: RpcClient[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.socket.terminate();
  for (const runner of runners.splice(0)) await runner.stop();
});

function newHome(): string {
  return mkdtempSync(join(artifactsDir(), 'agent-runner-'));
}

/** Options as `pinbridge start` builds them: the settings file read at every (re)start. */
function buildFrom(home: string): () => AgentOptions {
  const logger = createLogger({ level: 'info', file: join(home, 'agent.log') });
  return () => ({
    settings: loadSettings(undefined, home),
    api: {},
    pinpadAddress: 'sim',
    home,
    posPorts: [0],
    logger,
  });
}

async function startRunner(home: string, start?: (options: AgentOptions) => Promise<Agent>): Promise<AgentRunner> {
  const runner = await AgentRunner.start({
    build: buildFrom(home),
    logger: createLogger({ level: 'silent' }),
    ...(start === undefined ? {} : { start }),
  });
  runners.push(runner);
  await runner.agent.ready;
  return runner;
}

/** Pinbridge's window, logged in with the agent's key. */
async function windowOf(agent: Agent): Promise<RpcClient> {
  const client = new RpcClient(await openSocket(agent.pos.url, { Origin: `http://127.0.0.1:${agent.pos.port}` }));
  sockets.push(client);
  await call(client, 'session.operator', { key: agent.operatorKey });
  return client;
}

function printersOf(agent: Agent): string[] {
  return [...(agent.printing?.printers.keys() ?? [])];
}

const BALCAO = (home: string): Record<string, unknown> => ({
  printers: { balcao: { address: `file://${home}/printed/`, format: 'escpos' } },
});

describe('a restart from the window', () => {
  it('applies the saved settings in a new agent at the same address, where the window logs in again', async () => {
    const home = newHome();
    const runner = await startRunner(home);
    const first = runner.agent;
    expect(printersOf(first)).not.toContain('balcao');
    const window = await windowOf(first);

    expect(await call(window, 'operator.saveSettings', { settings: BALCAO(home) })).toEqual({
      saved: true,
      restart_required: true,
    });
    const restarted = new Promise<Agent>((resolve) => runner.once('restarted', resolve));
    expect(await call(window, 'operator.restart')).toEqual({ restarting: true });

    expect((await window.closed).code).toBe(1001);
    const second = await restarted;
    expect(second).not.toBe(first);
    expect(runner.agent).toBe(second);
    expect(second.pos.port).toBe(first.pos.port);
    expect(printersOf(second)).toContain('balcao');
    await second.ready;
    const again = await windowOf(second);
    expect(await call(again, 'operator.settings')).toMatchObject({ settings: BALCAO(home) });
  });

  it('is refused while the PINPAD waits for the customer, and the prompt goes on', async () => {
    const runner = await startRunner(newHome());
    const window = await windowOf(runner.agent);
    const restarted: Agent[] = [];
    runner.on('restarted', (agent) => restarted.push(agent));

    const prompt = window.call('pinpad.readKey', { prompt: 'APERTE UMA TECLA', timeout_s: 5 });
    await expect.poll(() => runner.agent.pinpads.list().some((pinpad) => pinpad.busy)).toBe(true);
    expect(await refused(window, 'operator.restart')).toMatchObject({ code: 'BUSY', reason: 'PAYMENT_IN_PROGRESS' });
    expect(window.socket.readyState).toBe(window.socket.OPEN);
    await prompt.catch(() => undefined);
    expect(restarted).toEqual([]);
  });

  it('keeps the running agent when the settings file no longer loads (edited by hand)', async () => {
    const home = newHome();
    const runner = await startRunner(home);
    const agent = runner.agent;
    writeFileSync(defaultSettingsPath(home), JSON.stringify({ confirmation: 'sometimes' }));
    const failed = new Promise<[Error, Agent]>((resolve) =>
      runner.once('restartFailed', (error, running) => resolve([error, running])),
    );

    expect(await runner.restart()).toBe(agent);
    const [error, running] = await failed;
    expect(error.message).toContain('confirmation');
    expect(running).toBe(agent);
    expect(await call(await windowOf(agent), 'agent.info')).toMatchObject({ mode: 'training' });
  });

  it('starts the previous settings again, at the same address, when the saved ones do not start', async () => {
    const home = newHome();
    // A start that fails with the new printer (as a port taken or a journal locked would).
    const start = (options: AgentOptions): Promise<Agent> =>
      'balcao' in options.settings.printers
        ? Promise.reject(new Error('the balcao printer broke the start'))
        : RealAgent.start(options);
    const runner = await startRunner(home, start);
    const first = runner.agent;
    const window = await windowOf(first);
    await call(window, 'operator.saveSettings', { settings: BALCAO(home) });
    const failed = new Promise<[Error, Agent]>((resolve) =>
      runner.once('restartFailed', (error, running) => resolve([error, running])),
    );

    await call(window, 'operator.restart');
    const [error, running] = await failed;
    expect(error.message).toBe('the balcao printer broke the start');
    expect(running).toBe(runner.agent);
    expect(running).not.toBe(first);
    expect(running.pos.port).toBe(first.pos.port);
    expect(printersOf(running)).not.toContain('balcao');
    await running.ready;
    // The window is told its saved settings are not the ones running, and why.
    expect(await call(await windowOf(running), 'operator.settings')).toMatchObject({
      settings: BALCAO(home),
      not_applied: 'the balcao printer broke the start',
    });
  });

  it('does one restart for two asked at once, and none once stopped', async () => {
    const runner = await startRunner(newHome());
    const first = runner.agent;
    const [a, b] = await Promise.all([runner.restart(), runner.restart()]);
    expect(a).toBe(b);
    expect(a).not.toBe(first);
    await runner.stop();
    expect(await runner.restart()).toBe(a);
  });
});
