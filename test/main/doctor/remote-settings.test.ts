/**
 * The doctor's remote-settings check: skipped without the section, failed when no key is pinned
 * (nothing is then followed), and otherwise the version running, from where, the last check and
 * the last refusal, in English and Portuguese.
 */
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkRemoteSettings } from '../../../main/doctor/remote-settings.js';
import { remoteSettingsKeyPath, remoteSettingsStatePath } from '../../../main/paths.js';
import { generateKeyPair, pinKey } from '../../../main/remote-settings/keys.js';
import { RemoteStateStore } from '../../../main/remote-settings/state.js';
import { artifactsDir } from '../../helpers/card-data-scan.js';

const section = { url: 'https://config.rede.example/{chain}/{store}.json' };
const fleet = { chain: 'rede-sul', store: 'loja-7' };
const home = (): string => mkdtempSync(join(artifactsDir(), 'doctor-remote-'));

describe('the remote-settings check', () => {
  it('is skipped when the settings follow no document', () => {
    expect(checkRemoteSettings({ section: null, home: home() })).toMatchObject({ status: 'skip' });
  });

  it('fails when a url is followed but no key is pinned, with the command that pins one', () => {
    const result = checkRemoteSettings({ section, home: home() });
    expect(result).toMatchObject({
      status: 'fail',
      fix: expect.stringContaining('pinbridge remote-settings pin') as unknown,
    });
    expect(result.pt.summary).toContain('nenhuma chave fixada');
  });

  it('says which version runs, from where, and the last refusal', () => {
    const dir = home();
    pinKey(remoteSettingsKeyPath(dir), generateKeyPair().publicKey);
    const store = new RemoteStateStore(remoteSettingsStatePath(dir));
    store.offer({
      version: 4,
      url: 'https://config.rede.example/rede-sul/loja-7.json',
      envelope: '{}',
      fetched_at: '2026-11-29T09:00:00.000Z',
    });
    store.attempt();
    store.confirm(4);
    store.refuse('NOT_READY', 'the agent did not start with it', 5, new Date('2026-11-29T09:30:00Z'));
    store.recordCheck({
      at: '2026-11-29T09:45:00.000Z',
      url: 'u',
      outcome: 'refused',
      message: 'REFUSED_BEFORE: version 5 was refused before',
    });
    const result = checkRemoteSettings({ section, fleet, home: dir });
    expect(result.status).toBe('warn');
    expect(result.summary).toContain('version 4 runs (from https://config.rede.example/rede-sul/loja-7.json');
    expect(result.summary).toContain('NOT_READY (version 5)');
    expect(result.pt.summary).toContain('versão 4 em uso');
    expect(result.details).toMatchObject({ running: { version: 4 }, last_refusal: { code: 'NOT_READY', version: 5 } });
  });
});
