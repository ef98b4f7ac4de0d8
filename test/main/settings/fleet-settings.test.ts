/**
 * The `fleet` section: a checkout's place in the chain (chain, store, checkout) declared once, and
 * read by every feature that needs it — telemetry's labels, the remote document's scope and url,
 * the staged rollout's place and feed — so they can never disagree. The ids' former homes
 * (telemetry.*, remote_settings.*) are refused with MOVED, naming where each went; each feature
 * still requires the ids it cannot work without, now named as fleet's.
 */
import { describe, expect, it } from 'vitest';
import { SettingsError } from '../../../main/core/settings.js';
import { SETTINGS_CASHIER_MESSAGES } from '../../../main/core/settings-violations.js';
import { placeIdProblem } from '../../../main/settings/fleet-settings.js';
import { remoteUrlOf } from '../../../main/settings/remote-settings-section.js';
import { parseSettings, type AgentSettings } from '../../../main/settings/settings-file.js';
import { resolveTelemetrySettings } from '../../../main/telemetry/settings.js';
import { feedUrl, stagingId } from '../../../main/updates/policy.js';

const FLEET = { chain: 'rede-sul', store: 'loja-042', checkout: 'caixa-3' } as const;

/** The violations a file is refused with, as {field, code}, or [] when it is accepted. */
function refused(json: Record<string, unknown>): Array<{ field: string; code: string }> {
  try {
    parseSettings(json, null);
    return [];
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    return error.violations.map(({ field, code }) => ({ field, code }));
  }
}

function violationsOf(json: Record<string, unknown>): SettingsError['violations'] {
  try {
    parseSettings(json, null);
  } catch (error) {
    if (error instanceof SettingsError) return error.violations;
    throw error;
  }
  return [];
}

describe("a checkout's place in the chain, declared once", () => {
  it('is read by telemetry, remote settings and staged updates alike: the store the dashboards show is the one the document and the rollout address', () => {
    const settings: AgentSettings = parseSettings(
      {
        fleet: FLEET,
        telemetry: { enabled: true, endpoint: 'https://prometheus.rede.example/api/v1/write' },
        remote_settings: { url: 'https://config.rede.example/{chain}/{store}/{checkout}.json' },
        updates: { enabled: true, feed_url: 'https://updates.rede.example/{chain}/{store}/' },
      },
      null,
    );
    expect(settings.fleet).toEqual(FLEET);
    expect(resolveTelemetrySettings(settings.telemetry, settings.fleet)).toMatchObject(FLEET);
    expect(remoteUrlOf(settings.remoteSettings!, settings.fleet)).toBe(
      'https://config.rede.example/rede-sul/loja-042/caixa-3.json',
    );
    expect(feedUrl(settings.updates.feed_url!, settings.fleet)).toEqual({
      url: 'https://updates.rede.example/rede-sul/loja-042/',
    });
    expect(stagingId(settings.fleet)).toMatchObject({ by: 'store', name: 'rede-sul/loja-042' });
  });

  it('is empty without a section, and nothing requires it while no feature uses it', () => {
    expect(parseSettings({}, null).fleet).toEqual({});
    expect(refused({ fleet: { chain: 'rede-sul' }, telemetry: { endpoint: 'https://p.example/write' } })).toEqual([]);
  });

  it('takes codes only — letters, digits, . _ : - — never a name, an e-mail or a sentence', () => {
    for (const id of ['Loja 42', 'maria@rede.example', '-loja', '', 'x'.repeat(65)])
      expect(new Set(refused({ fleet: { store: id } }).map((v) => v.field))).toEqual(new Set(['fleet.store']));
    expect(refused({ fleet: { chain: 'rede.sul:2', store: 'LOJA_042', checkout: 'caixa-3' } })).toEqual([]);
    expect(refused({ fleet: { region: 'sul' } })).toEqual([{ field: 'fleet.region', code: 'UNKNOWN_FIELD' }]);
    expect(placeIdProblem('loja-042')).toBeUndefined();
    expect(placeIdProblem('loja 42')).toMatch(/letters, digits or \. _ : -/);
  });
});

describe('each feature still requires the ids it works with, named as fleet', () => {
  it('telemetry enabled needs all three: every pushed series carries them', () => {
    expect(refused({ telemetry: { enabled: true, endpoint: 'https://p.example/write' } })).toEqual([
      { field: 'fleet.chain', code: 'REQUIRED' },
      { field: 'fleet.store', code: 'REQUIRED' },
      { field: 'fleet.checkout', code: 'REQUIRED' },
    ]);
    expect(
      refused({
        fleet: { chain: 'rede-sul', store: 'loja-042' },
        telemetry: { enabled: true, endpoint: 'https://p.example/write' },
      }),
    ).toEqual([{ field: 'fleet.checkout', code: 'REQUIRED' }]);
  });

  it("remote settings need the chain (every document's scope names one) and each id their url names", () => {
    expect(refused({ remote_settings: { url: 'https://config.rede.example/all.json' } })).toEqual([
      { field: 'fleet.chain', code: 'REQUIRED' },
    ]);
    const storeless = violationsOf({
      fleet: { chain: 'rede-sul' },
      remote_settings: { url: 'https://config.rede.example/{chain}/{store}.json' },
    });
    expect(storeless).toEqual([
      expect.objectContaining({
        field: 'fleet.store',
        code: 'REQUIRED',
        message: 'is required: remote_settings.url names {store}',
      }),
    ]);
  });

  it('staged updates need the ids a feed_url names (and otherwise stage the installation alone)', () => {
    expect(
      refused({
        fleet: { chain: 'rede-sul' },
        updates: { enabled: true, feed_url: 'https://updates.rede.example/{chain}/{store}/' },
      }),
    ).toEqual([{ field: 'fleet.store', code: 'REQUIRED' }]);
    const alone = parseSettings({ updates: { enabled: true, feed_url: 'https://updates.rede.example/' } }, null);
    expect(stagingId(alone.fleet)).toBeUndefined();
  });
});

describe('the ids left in their former sections', () => {
  it('are refused with MOVED, each naming its new field in English and Portuguese, and nothing vaguer beside', () => {
    const violations = violationsOf({
      telemetry: { enabled: false, chain: 'rede-sul', store: 'loja-042', checkout: 'caixa-3' },
      remote_settings: { url: 'https://config.rede.example/{chain}.json', chain: 'rede-sul', store: 'loja-042' },
    });
    expect(violations.map(({ field, code }) => [field, code])).toEqual([
      ['telemetry.chain', 'MOVED'],
      ['telemetry.store', 'MOVED'],
      ['telemetry.checkout', 'MOVED'],
      ['remote_settings.chain', 'MOVED'],
      ['remote_settings.store', 'MOVED'],
      // The url's {chain} still needs its id: where it now lives.
      ['fleet.chain', 'REQUIRED'],
    ]);
    expect(violations[1]!.message).toMatch(/^has moved to fleet\.store: .*declared once, in the fleet section/);
    expect(violations[1]!.cashier_message).toContain('fleet.store');
    expect(violations[3]!.message).toContain('fleet.chain');
    expect(violations[3]!.cashier_message).toContain('fleet.chain');
  });

  it('are refused even beside the same ids in fleet: one declaration, never two that could disagree', () => {
    expect(refused({ fleet: FLEET, telemetry: { store: 'loja-043' } })).toEqual([
      { field: 'telemetry.store', code: 'MOVED' },
    ]);
  });

  it('MOVED has its own pt-BR sentence for the window', () => {
    expect(SETTINGS_CASHIER_MESSAGES.MOVED).toMatch(/mudou de lugar/);
  });
});
