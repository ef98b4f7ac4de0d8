/**
 * Remote settings in the desktop app, against the Electron double and the real agent (training,
 * simulated PINPAD): a new signed document makes the app relaunch itself at an idle moment, as the
 * window's "restart now" does; the relaunched app starts with it on trial and confirms it once
 * ready. A trial the agent cannot start with is refused and the app starts as it was, and a trial
 * found unconfirmed at a start (the app crashed or was killed with it) is refused the same way.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Agent, type AgentOptions } from '../../../main/agent/agent.js';
import { Shell } from '../../../main/app/shell.js';
import { createLogger } from '../../../main/log.js';
import { remoteSettingsKeyPath, remoteSettingsStatePath } from '../../../main/paths.js';
import { pinKey } from '../../../main/remote-settings/keys.js';
import { RemoteStateStore } from '../../../main/remote-settings/state.js';
import { defaultSettingsPath } from '../../../main/settings/settings-file.js';
import { artifactsDir } from '../../helpers/card-data-scan.js';
import { CLOSED_PORT } from '../../helpers/closed-port.js';
import {
  generateKeyPair,
  signedDocument,
  startSettingsServer,
  type SettingsServer,
} from '../../helpers/remote-settings.js';
import { electronDouble } from './electron-double.js';

const logger = createLogger({ level: 'silent' });
const keys = generateKeyPair();
let home: string;
let server: SettingsServer;
const shells: Shell[] = [];

const startAgent = (options: AgentOptions): Promise<Agent> => Agent.start({ ...options, api: {}, posPorts: [0] });

beforeEach(async () => {
  home = mkdtempSync(join(artifactsDir(), 'shell-remote-'));
  server = await startSettingsServer();
  pinKey(remoteSettingsKeyPath(home), keys.publicKey);
  mkdirSync(dirname(defaultSettingsPath(home)), { recursive: true });
  writeFileSync(
    defaultSettingsPath(home),
    JSON.stringify({
      fleet: { chain: 'rede-sul', store: 'loja-7' },
      remote_settings: {
        url: `${server.url}/{chain}/{store}.json`,
        ca: server.caFile,
      },
    }),
  );
});
afterEach(async () => {
  for (const shell of shells.splice(0)) await shell.quit();
  await server.close();
});

/** One launch of the app (a relaunch is another call, with a fresh Electron). */
async function launch(readyGraceMs?: number): Promise<{ shell: Shell; relaunches: () => number }> {
  const double = electronDouble();
  const shell = await Shell.run(double.electron, {
    argv: [],
    env: {},
    home,
    platform: 'linux',
    preload: '/app/preload.cjs',
    logger,
    startAgent,
    remoteTiming: {
      firstCheckMs: 20,
      intervalMs: 200,
      idlePollMs: 20,
      ...(readyGraceMs === undefined ? {} : { readyGraceMs }),
    },
  });
  if (shell === undefined) throw new Error('the shell did not start');
  shells.push(shell);
  return { shell, relaunches: () => double.app.relaunches.length };
}

const BALCAO = { printers: { balcao: { address: 'file:///tmp/pinbridge-balcao/', format: 'escpos' } } };
const state = () => new RemoteStateStore(remoteSettingsStatePath(home)).state;

describe('remote settings in the desktop app', () => {
  it('relaunches at an idle moment for a new document, and the relaunched app runs it and confirms it', async () => {
    server.serve(signedDocument(keys, { version: 1, settings: BALCAO }));
    const first = await launch();
    await expect.poll(() => first.relaunches(), { timeout: 10_000 }).toBe(1);
    expect(state().trial).toMatchObject({ version: 1, attempts: 0 });
    await first.shell.quit();

    const second = await launch();
    expect([...(second.shell.agent.printing?.printers.keys() ?? [])]).toContain('balcao');
    await expect.poll(() => state().current?.version, { timeout: 15_000 }).toBe(1);
    expect(second.shell.remote.status().running).toMatchObject({ version: 1 });
    expect(second.relaunches()).toBe(0);
  });

  it('refuses a trial the agent cannot start with, and starts as it was', async () => {
    const store = new RemoteStateStore(remoteSettingsStatePath(home));
    const broken = signedDocument(keys, {
      version: 2,
      settings: { pos: { tls: { cert_file: join(home, 'none.pem'), key_file: join(home, 'none.key') } } },
    });
    store.offer({
      version: 2,
      url: `${server.url}/rede-sul/loja-7.json`,
      envelope: broken,
      fetched_at: new Date().toISOString(),
    });
    server.serve(broken);

    const { shell } = await launch();
    expect(shell.agent.pos.url).toMatch(/^ws:/);
    expect(state()).toMatchObject({ trial: null, refused_versions: [2] });
    expect(state().refusals.at(-1)).toMatchObject({ code: 'NOT_READY', version: 2 });
    expect(state().refusals.at(-1)?.message).toContain('pos.tls.cert_file');
  });

  it('refuses a trial found unconfirmed at a start: the last launch with it never reached ready', async () => {
    const store = new RemoteStateStore(remoteSettingsStatePath(home));
    const text = signedDocument(keys, { version: 3, settings: BALCAO });
    store.offer({
      version: 3,
      url: `${server.url}/rede-sul/loja-7.json`,
      envelope: text,
      fetched_at: new Date().toISOString(),
    });
    store.attempt(); // that launch crashed before it confirmed

    const { shell } = await launch();
    expect([...(shell.agent.printing?.printers.keys() ?? [])]).not.toContain('balcao');
    expect(state()).toMatchObject({ trial: null, refused_versions: [3] });
    expect(state().refusals.at(-1)).toMatchObject({ code: 'NOT_READY', version: 3 });
  });

  it('rolls back a trial with which the PINPAD that answered before the relaunch does not answer again', async () => {
    const first = await launch();
    await first.shell.agent.ready;
    server.serve(
      signedDocument(keys, { version: 5, settings: { pinpad: { address: `tcp://127.0.0.1:${CLOSED_PORT}` } } }),
    );
    await expect.poll(() => first.relaunches(), { timeout: 10_000 }).toBe(1);
    expect(state().trial).toMatchObject({ version: 5, pinpad_was_ready: true });
    await first.shell.quit();

    // The relaunched app starts with the trial (the window and the POS API serve), but its PINPAD never answers.
    const second = await launch(1_000);
    expect(second.shell.agent.pinpadLink.status.address).toBe(`tcp://127.0.0.1:${CLOSED_PORT}`);
    await expect.poll(() => state().refusals.at(-1)?.code, { timeout: 15_000 }).toBe('NOT_READY');
    expect(state().refusals.at(-1)?.message).toContain('the PINPAD did not answer within 1 s');
    // Rolled back by the same relaunch: the next app starts with the previous settings (none from the chain).
    await expect.poll(() => second.relaunches(), { timeout: 10_000 }).toBe(1);
    await second.shell.quit();
    const third = await launch();
    expect(third.shell.agent.pinpadLink.status.address).toBe('sim');
    expect(state()).toMatchObject({ current: null, trial: null, refused_versions: [5] });
  });
});
