/**
 * The doctor's `updates` check: off is not a fault (skip); on, it says the channel, this store's
 * place in a staged rollout and when an update installs — and, from the window, the version the app
 * downloaded and a last check that failed (warn, with what to open). A checkout the fleet
 * section does not place in a store is told to set its ids. English and Portuguese alike.
 */
import { describe, expect, it } from 'vitest';
import { checkUpdates } from '../../../main/doctor/updates.js';
import { parseSettings } from '../../../main/settings/settings-file.js';
import { rolloutPercent, stagingId } from '../../../main/updates/policy.js';
import { UPDATES_OFF } from '../../../main/updates/status.js';

const STORE = { fleet: { chain: 'acme', store: 'loja-042', checkout: 'pdv-01' } };
const ON = { enabled: true, feed_url: 'https://updates.acme.example/{store}/', install_window: '02:00-05:00' };

describe('the updates check', () => {
  it('skips when updates are off: the store installs by hand', () => {
    const result = checkUpdates({ settings: parseSettings({}, null) });
    expect(result).toMatchObject({ id: 'updates', status: 'skip', details: { enabled: false } });
    expect(result.pt.summary).toBe(
      'As atualizações do aplicativo estão desligadas (updates.enabled nos ajustes): são instaladas à mão',
    );
    expect(checkUpdates({ settings: undefined }).status).toBe('skip');
  });

  it("says the channel, the store's place in a staged rollout and when an update installs", () => {
    const position = rolloutPercent(stagingId({ chain: 'acme', store: 'loja-042' })!.id);
    const result = checkUpdates({ settings: parseSettings({ ...STORE, updates: ON }, null) });
    expect(result).toMatchObject({
      status: 'ok',
      summary: `Channel latest, store acme/loja-042 at ${position} in a staged rollout; installs when Pinbridge quits or 02:00-05:00 outside a sale`,
      details: {
        feed_url: 'https://updates.acme.example/loja-042/',
        channel: 'latest',
        staged_by: 'store',
        rollout_position: position,
        install_window: '02:00-05:00',
      },
    });
    expect(result.pt.summary).toBe(
      `Canal latest, loja acme/loja-042 na posição ${position} do lançamento escalonado; instala ao fechar o Pinbridge ou em 02:00-05:00, fora de uma venda`,
    );
  });

  it('adds, from the window, the version the app downloaded; a failed last check is a warning with what to open', () => {
    const settings = parseSettings({ ...STORE, updates: ON }, null);
    const downloaded = checkUpdates({
      settings,
      running: { ...UPDATES_OFF, enabled: true, state: 'downloaded', version: '1.4.0' },
    });
    expect(downloaded.status).toBe('ok');
    expect(downloaded.summary).toMatch(/; 1\.4\.0 downloaded$/);
    expect(downloaded.pt.summary).toMatch(/; 1\.4\.0: baixada$/);
    const failing = checkUpdates({
      settings,
      running: {
        ...UPDATES_OFF,
        enabled: true,
        lastCheck: { at: '2026-11-29T09:00:00.000Z', error: 'HttpError: 404' },
      },
    });
    expect(failing).toMatchObject({
      status: 'warn',
      details: { last_check: { error: 'HttpError: 404' } },
      fix: 'Open https://updates.acme.example/loja-042/ from this computer: it must answer with the latest*.yml files; Pinbridge tries again by itself.',
    });
    expect(failing.pt.fix).toContain('https://updates.acme.example/loja-042/');
  });

  it('warns a checkout the fleet section places in no store: a staged release would pick it alone', () => {
    const result = checkUpdates({
      settings: parseSettings({ updates: { enabled: true, feed_url: 'https://updates.acme.example/' } }, null),
    });
    expect(result).toMatchObject({ status: 'warn', details: { staged_by: 'install', rollout_position: null } });
    expect(result.fix).toMatch(/^Set fleet\.chain and fleet\.store/);
    expect(result.pt.fix).toMatch(/^Preencha fleet\.chain e fleet\.store/);
  });
});
