/**
 * One agent process's remote settings, without an agent: which document a start uses, what
 * becomes of a trial (confirmed once ready; refused and rolled back when not), and the follower
 * (a check's outcome, the wait for an idle moment). The document is fetched by a double here;
 * HTTPS is fetch.test.ts's, the agent remote-follow.test.ts's.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../main/log.js';
import { remoteSettingsKeyPath } from '../../../main/paths.js';
import { generateKeyPair, pinKey } from '../../../main/remote-settings/keys.js';
import { RemoteSettings } from '../../../main/remote-settings/remote-settings.js';
import { defaultSettingsPath } from '../../../main/settings/settings-file.js';
import { artifactsDir } from '../../helpers/card-data-scan.js';
import { signedDocument, type DocumentFields } from '../../helpers/remote-settings.js';

const keys = generateKeyPair();
const URL_TEMPLATE = 'https://config.rede.example/{chain}/{store}.json';
const URL_FILLED = 'https://config.rede.example/rede-sul/loja-7.json';

function checkout(options: { pin?: boolean } = {}): {
  home: string;
  served: { text: string | Error };
  remote: RemoteSettings;
} {
  const home = mkdtempSync(join(artifactsDir(), 'remote-unit-'));
  if (options.pin !== false) pinKey(remoteSettingsKeyPath(home), keys.publicKey);
  mkdirSync(dirname(defaultSettingsPath(home)), { recursive: true });
  writeFileSync(
    defaultSettingsPath(home),
    JSON.stringify({
      confirmation: 'auto',
      fleet: { chain: 'rede-sul', store: 'loja-7' },
      remote_settings: { url: URL_TEMPLATE },
    }),
  );
  const served: { text: string | Error } = { text: new Error('nothing served') };
  const remote = new RemoteSettings({
    home,
    logger: createLogger({ level: 'silent' }),
    fetch: (url) => {
      expect(url).toBe(URL_FILLED);
      return typeof served.text === 'string' ? Promise.resolve(served.text) : Promise.reject(served.text);
    },
  });
  return { home, served, remote };
}

const doc = (fields: Partial<DocumentFields> = {}): string =>
  signedDocument(keys, { version: 1, settings: { confirmation: 'pos' }, ...fields });

describe('a start with remote settings', () => {
  it('uses the local file alone until a document was accepted', () => {
    const { remote } = checkout();
    const { settings, document } = remote.load(undefined);
    expect(document).toBeNull();
    expect(settings.engine.confirmation).toBe('auto');
  });

  it('tries an accepted document, confirms it once ready, and keeps using it', async () => {
    const { remote, served } = checkout();
    remote.load(undefined);
    served.text = doc();
    expect(await remote.checkNow()).toBe('new');
    const tried = remote.load(undefined);
    expect(tried.document).toMatchObject({ version: 1, trial: true, governed: ['confirmation'] });
    expect(tried.settings.engine.confirmation).toBe('pos');
    expect(remote.store.state.trial).toMatchObject({ attempts: 1 });
    remote.started(Promise.resolve());
    await expect.poll(() => remote.store.state.current?.version).toBe(1);
    expect(remote.status()).toMatchObject({ running: { version: 1, url: URL_FILLED }, pending: null });
    // A later start that fails (a port taken this time) is not the confirmed document's fault.
    expect(remote.startFailed(new Error('EADDRINUSE'))).toBe(false);
    expect(remote.load(undefined).document).toMatchObject({ version: 1, trial: false });
    expect(remote.store.state.refused_versions).toEqual([]);
  });

  it('sets aside the running document while it does not fit the local file, and uses it again once it does', async () => {
    const { home, remote, served } = checkout();
    remote.load(undefined);
    served.text = doc({ settings: { updates: { enabled: true } } });
    const local = (extra: Record<string, unknown>): void =>
      writeFileSync(
        defaultSettingsPath(home),
        JSON.stringify({
          fleet: { chain: 'rede-sul', store: 'loja-7' },
          ...extra,
          remote_settings: { url: URL_TEMPLATE },
        }),
      );
    local({ updates: { feed_url: 'https://updates.rede.example/' } });
    remote.load(undefined);
    expect(await remote.checkNow()).toBe('new');
    remote.load(undefined);
    remote.started(Promise.resolve());
    await expect.poll(() => remote.store.state.current?.version).toBe(1);
    // Edited by hand: without a feed_url, the document's updates.enabled makes invalid settings.
    local({});
    expect(remote.load(undefined).document).toBeNull();
    expect(remote.status().last_refusal).toMatchObject({ code: 'INVALID_SETTINGS', version: 1 });
    local({ updates: { feed_url: 'https://updates.rede.example/' } });
    expect(remote.load(undefined).document).toMatchObject({ version: 1, trial: false });
  });

  it("sets aside the running document once the checkout's fleet place no longer fits its scope", async () => {
    const { home, remote, served } = checkout();
    remote.load(undefined);
    served.text = doc();
    expect(await remote.checkNow()).toBe('new');
    remote.load(undefined);
    remote.started(Promise.resolve());
    await expect.poll(() => remote.store.state.current?.version).toBe(1);
    // The checkout moved to another store: the one declaration of its place changes, the document is loja-7's.
    const move = (store: string): void =>
      writeFileSync(
        defaultSettingsPath(home),
        JSON.stringify({ fleet: { chain: 'rede-sul', store }, remote_settings: { url: URL_TEMPLATE } }),
      );
    move('loja-8');
    const moved = new RemoteSettings({ home, logger: createLogger({ level: 'silent' }) });
    expect(moved.load(undefined).document).toBeNull();
    expect(moved.status()).toMatchObject({
      url: 'https://config.rede.example/rede-sul/loja-8.json',
      last_refusal: { code: 'WRONG_SCOPE', version: 1 },
    });
    move('loja-7');
    expect(moved.load(undefined).document).toMatchObject({ version: 1, trial: false });
  });

  it('refuses a trial the agent did not reach ready with, and restarts without it', async () => {
    const { remote, served } = checkout();
    const restarts: number[] = [];
    remote.follow({ idle: () => false, restart: () => restarts.push(1), firstCheckMs: 60_000 });
    remote.load(undefined);
    served.text = doc({ version: 2 });
    await remote.checkNow();
    remote.load(undefined);
    remote.started(Promise.reject(new Error('the PINPAD did not answer within 60 s')));
    await expect.poll(() => remote.status().last_refusal?.code).toBe('NOT_READY');
    expect(remote.status().last_refusal?.message).toContain('the PINPAD did not answer');
    expect(restarts).toEqual([1]);
    expect(remote.load(undefined).document).toBeNull();
    remote.stop();
  });

  it('refuses a trial found already tried: the start that tried it never confirmed it', async () => {
    const { home, remote, served } = checkout();
    remote.load(undefined);
    served.text = doc({ version: 3 });
    await remote.checkNow();
    remote.load(undefined); // the process crashed during this start
    const next = new RemoteSettings({ home, logger: createLogger({ level: 'silent' }) });
    expect(next.load(undefined).document).toBeNull();
    expect(next.store.state.refusals.at(-1)).toMatchObject({ code: 'NOT_READY', version: 3 });
  });
});

describe('the follower', () => {
  it('records each check: unreachable, refused, no key', async () => {
    const { remote, served } = checkout();
    remote.load(undefined);
    expect(await remote.checkNow()).toBe('unreachable');
    expect(remote.status().last_check).toMatchObject({
      outcome: 'unreachable',
      message: 'nothing served',
      url: URL_FILLED,
    });
    served.text = doc({ scope: { chain: 'rede-sul', store: 'loja-8' } });
    expect(await remote.checkNow()).toBe('refused');
    expect(remote.status().last_refusal).toMatchObject({ code: 'WRONG_SCOPE', version: 1 });

    const unpinned = checkout({ pin: false });
    unpinned.remote.load(undefined);
    unpinned.served.text = doc();
    expect(await unpinned.remote.checkNow()).toBe('no_key');
    expect(unpinned.remote.status()).toMatchObject({ key: 'missing', pending: null });
  });

  it('waits for an idle moment before it restarts', async () => {
    const { remote, served } = checkout();
    let idle = false;
    let restarts = 0;
    remote.load(undefined);
    remote.follow({
      idle: () => idle,
      restart: () => (restarts += 1),
      firstCheckMs: 0,
      intervalMs: 60_000,
      idlePollMs: 10,
    });
    served.text = doc({ version: 4 });
    await expect.poll(() => remote.status().pending?.version).toBe(4);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(restarts).toBe(0);
    idle = true;
    await expect.poll(() => restarts).toBe(1);
    remote.stop();
  });
});
