/**
 * `pinbridge updates` in-process: `show` says how a checkout's settings set its updates (the feed
 * with its placeholders filled, the channel, its store's place in a staged rollout, the
 * maintenance window); `rollout` plans a chain's release — each store's place, lowest first, and
 * which stores a release staged at a percentage reaches — as the app itself decides it.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { rolloutPercent, stagingId, withinRollout } from '../../../main/updates/policy.js';
import { runMain } from '../../helpers/cli.js';

let home: string;

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'pinbridge-updates-cli-'));
});

function settingsFile(json: unknown): string {
  const path = join(mkdtempSync(join(home, 's-')), 'settings.json');
  writeFileSync(path, JSON.stringify(json));
  return path;
}

describe('pinbridge updates show', () => {
  it("says the feed of this store, its channel, its store's place in a staged rollout and when an update installs", async () => {
    const path = settingsFile({
      fleet: { chain: 'acme', store: 'loja-042', checkout: 'pdv-01' },
      updates: {
        enabled: true,
        feed_url: 'https://updates.acme.example/{chain}/{store}/',
        channel: 'beta',
        install_window: '02:00-05:00',
      },
    });
    const result = await runMain(['updates', 'show', '--settings', path, '--json'], { HOME: home });
    expect(result.code).toBe(0);
    const id = stagingId({ chain: 'acme', store: 'loja-042' })!.id;
    expect(JSON.parse(result.stdout)).toEqual({
      enabled: true,
      feed_url: 'https://updates.acme.example/acme/loja-042/',
      channel: 'beta',
      staged_by: 'store',
      staging_name: 'acme/loja-042',
      staging_id: id,
      rollout_position: rolloutPercent(id),
      install_window: '02:00-05:00',
      check_interval_hours: 6,
    });
    const human = await runMain(['updates', 'show', '--settings', path], { HOME: home });
    expect(human.stdout).toContain('staged by         store acme/loja-042');
    expect(human.stdout).toContain('installs          when Pinbridge quits, or 02:00-05:00 outside a sale');
  });

  it('says an installation without a store in its fleet section is staged on its own, and updates off by default', async () => {
    const result = await runMain(['updates', 'show', '--settings', settingsFile({}), '--json'], { HOME: home });
    expect(JSON.parse(result.stdout)).toMatchObject({
      enabled: false,
      feed_url: null,
      channel: 'latest',
      staged_by: 'install',
      rollout_position: null,
      install_window: null,
    });
  });
});

describe('pinbridge updates rollout', () => {
  const stores = Array.from({ length: 30 }, (_, n) => `loja-${String(n + 1).padStart(3, '0')}`);

  it("lists a chain's stores by their place, lowest first, and which a release staged at a percentage reaches — as the app decides", async () => {
    const list = join(home, 'stores.txt');
    writeFileSync(list, `# the chain's stores\n${stores.slice(10).join('\n')}\n\n`);
    const args = ['updates', 'rollout', '--chain', 'acme', '--stores', list, '--percentage', '25', '--json'];
    for (const store of stores.slice(0, 10)) args.push('--store', store);
    const result = await runMain(args, { HOME: home });
    expect(result.code).toBe(0);
    const plan = JSON.parse(result.stdout) as {
      chain: string;
      percentage: number;
      reached: number;
      stores: { store: string; position: number; reached: boolean }[];
    };
    expect(plan).toMatchObject({ chain: 'acme', percentage: 25 });
    expect(plan.stores.map((s) => s.store).sort()).toEqual(stores);
    const positions = plan.stores.map((s) => s.position);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    for (const { store, position, reached } of plan.stores) {
      const id = stagingId({ chain: 'acme', store })!.id;
      expect(position).toBe(rolloutPercent(id));
      expect(reached).toBe(withinRollout(25, id));
    }
    expect(plan.reached).toBe(plan.stores.filter((s) => s.reached).length);
    // The stores reached are the first ones of the list.
    expect(plan.stores.slice(0, plan.reached).every((s) => s.reached)).toBe(true);

    const human = await runMain(
      args.filter((arg) => arg !== '--json'),
      { HOME: home },
    );
    expect(human.stdout.trim().split('\n').at(-1)).toBe(`${plan.reached} of 30 stores reached at stagingPercentage 25`);
  });

  it('refuses a store id that is not one, a percentage out of range, and no store at all (exit 2)', async () => {
    const bad = await runMain(['updates', 'rollout', '--chain', 'acme', '--store', 'loja 1'], { HOME: home });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('letters, digits or . _ : -');
    const over = await runMain(['updates', 'rollout', '--chain', 'acme', '--store', 'a', '--percentage', '120'], {
      HOME: home,
    });
    expect(over.code).toBe(2);
    const none = await runMain(['updates', 'rollout', '--chain', 'acme'], { HOME: home });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('name the stores');
  });
});
