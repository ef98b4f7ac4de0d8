/**
 * `pinbridge remote-settings`, as a chain's technician and a checkout's installer use it: the key
 * made once, a document signed (and refused when agents would refuse it), the public key pinned
 * once (replaced only on purpose), and what the checkout follows.
 */
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { remoteSettingsKeyPath } from '../../../main/paths.js';
import { openEnvelope, publicKeyOf } from '../../../main/remote-settings/document.js';
import { RemoteStateStore } from '../../../main/remote-settings/state.js';
import { remoteSettingsStatePath } from '../../../main/paths.js';
import { defaultSettingsPath } from '../../../main/settings/settings-file.js';
import { artifactsDir } from '../../helpers/card-data-scan.js';
import { runMain } from '../../helpers/cli.js';

const folder = (): string => mkdtempSync(join(artifactsDir(), 'remote-cli-'));

describe('pinbridge remote-settings', () => {
  it('makes a key pair once, signs a document the pinned key verifies, and pins that key once', async () => {
    const chain = folder();
    const made = await runMain(['remote-settings', 'keygen', '--out', chain, '--json']);
    expect(made.code).toBe(0);
    const files = JSON.parse(made.stdout) as { private_key: string; public_key: string };
    expect(statSync(files.private_key).mode & 0o777).toBe(0o600);
    const twice = await runMain(['remote-settings', 'keygen', '--out', chain, '--json']);
    expect(twice.code).toBe(2);
    expect(JSON.parse(twice.stdout)).toMatchObject({ error: { code: 'KEY_EXISTS' } });
    // The key made first is still there: a second keygen never replaces it.
    expect(readFileSync(files.private_key, 'utf8')).toContain('BEGIN PRIVATE KEY');

    const input = join(chain, 'loja-7.json');
    writeFileSync(
      input,
      JSON.stringify({ version: 3, scope: { chain: 'rede-sul', store: 'loja-7' }, settings: { confirmation: 'pos' } }),
    );
    const out = join(chain, 'loja-7.signed.json');
    expect(
      (await runMain(['remote-settings', 'sign', '--key', files.private_key, '--in', input, '--out', out])).code,
    ).toBe(0);
    const { payload } = openEnvelope(readFileSync(out, 'utf8'), publicKeyOf(readFileSync(files.public_key, 'utf8')));
    expect(payload).toMatchObject({
      format: 'pinbridge-remote-settings/1',
      version: 3,
      settings: { confirmation: 'pos' },
    });
    expect(Date.parse(payload.issued_at)).not.toBeNaN();

    const home = folder();
    expect((await runMain(['remote-settings', 'pin', files.public_key], { HOME: home })).code).toBe(0);
    expect(readFileSync(remoteSettingsKeyPath(home), 'utf8')).toContain('BEGIN PUBLIC KEY');
    const again = await runMain(['remote-settings', 'pin', files.public_key], { HOME: home });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('a key is already pinned');
    expect((await runMain(['remote-settings', 'pin', files.public_key, '--replace'], { HOME: home })).code).toBe(0);
  });

  it('refuses to sign what agents would refuse, and a key that is not a key', async () => {
    const chain = folder();
    const files = JSON.parse((await runMain(['remote-settings', 'keygen', '--out', chain, '--json'])).stdout) as {
      private_key: string;
      public_key: string;
    };
    const input = join(chain, 'bad.json');
    writeFileSync(
      input,
      JSON.stringify({
        version: 1,
        scope: { chain: 'rede-sul' },
        settings: { telemetry: { bearer_token: 'segredo' } },
      }),
    );
    const signed = await runMain(['remote-settings', 'sign', '--key', files.private_key, '--in', input]);
    expect(signed.code).toBe(2);
    expect(signed.stderr).toContain('telemetry.bearer_token');
    // Nor the checkout's place in the chain: a document moving a store's checkouts elsewhere is refused before it is served.
    writeFileSync(
      input,
      JSON.stringify({ version: 1, scope: { chain: 'rede-sul' }, settings: { fleet: { store: 'loja-8' } } }),
    );
    const moving = await runMain(['remote-settings', 'sign', '--key', files.private_key, '--in', input]);
    expect(moving).toMatchObject({ code: 2, stderr: expect.stringContaining('fleet.store') as unknown });
    const home = folder();
    const pin = await runMain(['remote-settings', 'pin', input], { HOME: home });
    expect(pin).toMatchObject({ code: 2, stderr: expect.stringContaining('not an Ed25519 public key') as unknown });
  });

  it('shows what the checkout follows: url, key, version running, last refusal', async () => {
    const home = folder();
    const none = await runMain(['remote-settings', 'status', '--json'], { HOME: home });
    expect(JSON.parse(none.stdout)).toMatchObject({ configured: false, key: 'missing' });

    mkdirSync(dirname(defaultSettingsPath(home)), { recursive: true });
    writeFileSync(
      defaultSettingsPath(home),
      JSON.stringify({
        fleet: { chain: 'rede-sul', store: 'loja-7' },
        remote_settings: {
          url: 'https://config.rede.example/{chain}/{store}.json',
        },
      }),
    );
    const store = new RemoteStateStore(remoteSettingsStatePath(home));
    store.offer({
      version: 2,
      url: 'https://config.rede.example/rede-sul/loja-7.json',
      envelope: '{}',
      fetched_at: '2026-11-29T09:00:00.000Z',
    });
    store.attempt();
    store.confirm(2);
    store.refuse('TAMPERED', 'the signature does not verify', null, new Date('2026-11-29T09:15:00Z'));
    const shown = await runMain(['remote-settings', 'status'], { HOME: home });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('https://config.rede.example/rede-sul/loja-7.json');
    expect(shown.stdout).toMatch(/key\s+missing/);
    expect(shown.stdout).toMatch(/running\s+version 2/);
    expect(shown.stdout).toContain('TAMPERED: the signature does not verify');
  });
});
