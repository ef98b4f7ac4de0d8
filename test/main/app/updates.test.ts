/**
 * Updates of the desktop app (main/app/updates.ts): off unless the settings turn them on; then a
 * generic feed checked at start and every few hours, on the store's channel, a staged release
 * reaching whole stores, downloaded when no sale is in progress, installed when the app quits or
 * inside the maintenance window at an idle moment — and what is pending handed to the window.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSettings } from '../../../main/settings/settings-file.js';
import { SettingsError } from '../../../main/core/settings.js';
import { LOOK_INTERVAL_MS, startUpdateChecks, type UpdateCheckerOptions } from '../../../main/app/updates.js';
import { UpdateStatus } from '../../../main/updates/status.js';
import type { SaleActivity } from '../../../main/updates/policy.js';
import { pino } from 'pino';
import type { Logger } from '../../../main/log.js';
import { thrown } from '../../helpers/thrown.js';
import { FakeUpdater } from './fake-updater.js';

/** A logger whose lines are kept, parsed. */
function recordingLogger(): { logger: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const stream = { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) };
  return { logger: pino({ level: 'info' }, stream), lines };
}

/** Manual timers: the check interval and the minute's look, fired by the test. */
function manualTimers(): {
  fire(ms: number): void;
  ms: number[];
  setInterval: (callback: () => void, ms: number) => { unref(): void };
  cleared: number;
  clearInterval: () => void;
} {
  const callbacks: [number, () => void][] = [];
  const state = {
    ms: [] as number[],
    cleared: 0,
    fire: (ms: number) => callbacks.filter(([every]) => every === ms).forEach(([, callback]) => callback()),
    setInterval: (callback: () => void, ms: number) => {
      callbacks.push([ms, callback]);
      state.ms.push(ms);
      return { unref: () => {} };
    },
    clearInterval: () => void state.cleared++,
  };
  return state;
}

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const FEED = 'https://updates.example/pinbridge/';
const IDLE: SaleActivity = { busyPinpads: [], awaitingConfirmation: 0 };
const SELLING: SaleActivity = { busyPinpads: ['8000151'], awaitingConfirmation: 0 };

/** A checker over a fake updater; `sale` is what the agent says of sales now. */
async function checker(
  settings: UpdateCheckerOptions['settings'],
  extra: Partial<UpdateCheckerOptions> = {},
): Promise<{
  updater: FakeUpdater;
  timers: ReturnType<typeof manualTimers>;
  status: UpdateStatus;
  lines: Record<string, unknown>[];
  sale: { now: SaleActivity };
  installs: number[];
  checker: Awaited<ReturnType<typeof startUpdateChecks>>;
}> {
  const updater = new FakeUpdater();
  const timers = manualTimers();
  const status = new UpdateStatus();
  const { logger, lines } = recordingLogger();
  const sale = { now: IDLE };
  const installs: number[] = [];
  const started = await startUpdateChecks({
    settings,
    load: () => Promise.resolve(updater),
    logger,
    status,
    activity: () => sale.now,
    timeZone: () => 'America/Sao_Paulo',
    installNow: () => void installs.push(1),
    setInterval: timers.setInterval,
    clearInterval: timers.clearInterval,
    ...extra,
  });
  await settle();
  return { updater, timers, status, lines, sale, installs, checker: started };
}

describe('updates of the desktop app', () => {
  it('are off by default: nothing is loaded and nothing is asked of the network', async () => {
    let loads = 0;
    const load = (): Promise<FakeUpdater> => {
      loads++;
      return Promise.resolve(new FakeUpdater());
    };
    const { logger } = recordingLogger();
    expect(await startUpdateChecks({ settings: parseSettings({}, null).updates, load, logger })).toBeUndefined();
    expect(await startUpdateChecks({ settings: { enabled: false, feed_url: FEED }, load, logger })).toBeUndefined();
    expect(loads).toBe(0);
  });

  it('check the generic feed at start and every interval, download by themselves and install at quit without a restart', async () => {
    const {
      updater,
      timers,
      status,
      lines,
      checker: running,
    } = await checker({
      enabled: true,
      feed_url: FEED,
      check_interval_hours: 2,
    });
    // The stable channel: latest.yml, no downgrade; downloads are ours to time.
    expect(updater.feeds).toEqual([{ provider: 'generic', url: FEED }]);
    expect(updater).toMatchObject({
      autoDownload: false,
      allowDowngrade: false,
      autoInstallOnAppQuit: true,
      checks: 1,
    });
    expect(timers.ms).toEqual([2 * 3_600_000, LOOK_INTERVAL_MS]);
    // electron-updater's own lines go to the agent's log, not the console.
    updater.logger!.warn('Staging percentage is NaN: soon');
    expect(lines.at(-1)).toMatchObject({
      level: 40,
      msg: 'electron-updater',
      updater: 'Staging percentage is NaN: soon',
    });
    expect(running!.installOnQuit()).toBe(false);
    expect(status.state).toMatchObject({ enabled: true, channel: 'latest', state: 'none', version: null });

    updater.feed = { version: '0.2.0' };
    timers.fire(2 * 3_600_000);
    await settle();
    expect(updater.checks).toBe(2);
    expect(status.state).toMatchObject({ state: 'downloading', version: '0.2.0' });
    updater.finishDownload();
    await settle();
    expect(running!.pending).toBe('0.2.0');
    expect(status.state).toMatchObject({ state: 'downloaded', version: '0.2.0', installWindow: null });
    expect(lines.map((line) => line.msg)).toContain('update downloaded; it is installed when Pinbridge next quits');
    expect(running!.installOnQuit()).toBe(true);
    expect(updater.installs).toEqual([[true, false]]);
    running!.stop();
    expect(timers.cleared).toBe(2);
  });

  it('read the channel the settings name (its own CHANNEL.yml), without allowing a downgrade', async () => {
    const { updater, status } = await checker({ enabled: true, feed_url: FEED, channel: 'beta' });
    expect(updater.feeds).toEqual([{ provider: 'generic', url: FEED, channel: 'beta' }]);
    expect(updater.allowDowngrade).toBe(false);
    expect(status.state.channel).toBe('beta');
  });

  it('stage by store: every checkout of a store is in or out of a release together, and raising the percentage brings the rest', async () => {
    const store = (name: string, checkout: string) =>
      checker({ enabled: true, feed_url: FEED }, { identity: { chain: 'acme', store: name, checkout } });
    const stores = await Promise.all(
      Array.from({ length: 12 }, (_, n) => Promise.all([store(`loja-${n}`, 'pdv-01'), store(`loja-${n}`, 'pdv-02')])),
    );
    const reached = async (percentage: number): Promise<boolean[]> => {
      const answers: boolean[] = [];
      for (const [first, second] of stores) {
        for (const { updater, timers } of [first, second]) {
          updater.feed = { version: '0.2.0', stagingPercentage: percentage };
          timers.fire(6 * 3_600_000);
        }
        await settle();
        // Both checkouts of the store decided alike.
        expect(first.updater.downloads).toBe(second.updater.downloads);
        expect(first.updater.requestHeaders).toEqual(second.updater.requestHeaders);
        answers.push(first.updater.downloads > 0);
      }
      return answers;
    };
    const at30 = await reached(30);
    expect(at30.filter(Boolean).length).toBeGreaterThan(0);
    expect(at30.filter(Boolean).length).toBeLessThan(12);
    const at100 = await reached(100);
    expect(at100.every(Boolean)).toBe(true);
    // The position the window and doctor show: a release staged above it reaches this store.
    const one = stores[0]![0];
    expect(one.status.state.stagedBy).toBe('store');
    expect(one.status.state.rolloutPosition).toBeGreaterThanOrEqual(0);
    expect(one.status.state.rolloutPosition).toBeLessThan(100);
    expect(one.updater.requestHeaders!['x-user-staging-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("without the store's fleet ids leave the staging to electron-updater's per-installation id", async () => {
    const { updater, status, lines } = await checker(
      { enabled: true, feed_url: FEED, stage_by: 'checkout' },
      { identity: { chain: 'acme', store: 'loja-042' } },
    );
    expect(updater.isUserWithinRollout).toBe(updater.ownRollout);
    expect(lines.find((line) => line.level === 40)?.msg).toMatch(
      /a staged release picks this installation on its own$/,
    );
    expect(updater.requestHeaders).toBeNull();
    expect(status.state).toMatchObject({ stagedBy: 'install', rolloutPosition: null });
  });

  it("fill the feed URL from the store's fleet ids, and check nothing when one is missing", async () => {
    const { updater } = await checker(
      { enabled: true, feed_url: 'https://updates.acme.example/{chain}/{store}/' },
      { identity: { chain: 'acme', store: 'loja-042' } },
    );
    expect(updater.feeds.map((feed) => feed.url)).toEqual(['https://updates.acme.example/acme/loja-042/']);
    const { checker: none, lines } = await checker(
      { enabled: true, feed_url: 'https://updates.acme.example/{store}/' },
      { identity: {} },
    );
    expect(none).toBeUndefined();
    expect(lines.map((line) => line.msg)).toContain(
      'updates.feed_url names fleet ids that are not set; no updates are checked',
    );
  });

  it('wait for the sale to end before downloading', async () => {
    const { updater, timers, sale, status } = await checker({ enabled: true, feed_url: FEED });
    sale.now = SELLING;
    updater.feed = { version: '0.2.0' };
    timers.fire(6 * 3_600_000);
    await settle();
    expect(updater.downloads).toBe(0);
    expect(status.state.state).toBe('none');
    timers.fire(LOOK_INTERVAL_MS);
    expect(updater.downloads).toBe(0);
    sale.now = IDLE;
    timers.fire(LOOK_INTERVAL_MS);
    expect(updater.downloads).toBe(1);
    // Not twice while it runs.
    timers.fire(LOOK_INTERVAL_MS);
    expect(updater.downloads).toBe(1);
  });

  it('install inside the maintenance window only when no sale is in progress, and never outside it', async () => {
    // 03:00 in São Paulo (UTC−3).
    const clock = { now: new Date('2026-11-30T06:00:00Z') };
    const { updater, timers, sale, status, installs, lines } = await checker(
      { enabled: true, feed_url: FEED, install_window: '02:00-05:00' },
      { now: () => clock.now },
    );
    updater.feed = { version: '0.2.0' };
    timers.fire(6 * 3_600_000);
    await settle();
    sale.now = SELLING;
    updater.finishDownload();
    await settle();
    expect(status.state).toMatchObject({
      state: 'downloaded',
      version: '0.2.0',
      installWindow: '02:00-05:00',
      waitingForSale: true,
    });
    expect(installs).toEqual([]);
    timers.fire(LOOK_INTERVAL_MS);
    expect(installs).toEqual([]);

    sale.now = IDLE;
    timers.fire(LOOK_INTERVAL_MS);
    expect(installs).toEqual([1]);
    expect(status.state).toMatchObject({ state: 'installing', version: '0.2.0', waitingForSale: false });
    expect(lines.map((line) => line.msg)).toContain(
      'installing the update in the maintenance window; Pinbridge starts again',
    );
    // Once.
    timers.fire(LOOK_INTERVAL_MS);
    expect(installs).toEqual([1]);
  });

  it('outside the window wait, idle or not, for the window or the next quit', async () => {
    // 14:00 in São Paulo.
    const {
      updater,
      timers,
      status,
      installs,
      checker: running,
    } = await checker(
      { enabled: true, feed_url: FEED, install_window: '02:00-05:00' },
      { now: () => new Date('2026-11-30T17:00:00Z') },
    );
    updater.feed = { version: '0.2.0' };
    timers.fire(6 * 3_600_000);
    await settle();
    updater.finishDownload();
    await settle();
    timers.fire(LOOK_INTERVAL_MS);
    expect(installs).toEqual([]);
    expect(status.state).toMatchObject({ state: 'downloaded', waitingForSale: false });
    // The shell's install in the window restarts Pinbridge; a quit does not.
    expect(running!.install(true)).toBe(true);
    expect(updater.installs).toEqual([[true, true]]);
  });

  it('after an install in the window failed, start again with the version they have and try it only at quit', async () => {
    const failureFile = join(mkdtempSync(join(tmpdir(), 'pinbridge-updates-')), 'update-install-failed.json');
    const at3 = (): Date => new Date('2026-11-30T06:00:00Z');
    const first = await checker(
      { enabled: true, feed_url: FEED, install_window: '02:00-05:00' },
      { now: at3, failureFile, installNow: () => void first.checker!.install(true) },
    );
    first.updater.installFails = new Error('EACCES: permission denied, rename Pinbridge.AppImage');
    first.updater.feed = { version: '0.2.0' };
    first.timers.fire(6 * 3_600_000);
    await settle();
    first.updater.finishDownload();
    await settle();
    expect(first.updater.installs).toEqual([[true, true]]);
    expect(first.status.state).toMatchObject({ state: 'downloaded', version: '0.2.0' });
    expect(first.lines.map((line) => line.msg)).toContain(
      'the update could not be installed; Pinbridge keeps its version',
    );
    // The app started again (the shell's fallback): the window does not try 0.2.0 again…
    const again = await checker(
      { enabled: true, feed_url: FEED, install_window: '02:00-05:00' },
      { now: at3, failureFile },
    );
    again.updater.feed = { version: '0.2.0' };
    again.timers.fire(6 * 3_600_000);
    await settle();
    again.updater.finishDownload();
    await settle();
    again.timers.fire(LOOK_INTERVAL_MS);
    expect(again.installs).toEqual([]);
    expect(again.status.state).toMatchObject({ state: 'downloaded', version: '0.2.0' });
    // …but a quit still installs it.
    expect(again.checker!.installOnQuit()).toBe(true);
    expect(again.updater.installs).toEqual([[true, false]]);
  });

  it('log a feed that keeps failing once, and again only when the failure changes', async () => {
    const { updater, timers, lines, status } = await checker({ enabled: true, feed_url: 'https://updates.example/p' });
    updater.failure = new Error('net::ERR_NAME_NOT_RESOLVED');
    timers.fire(6 * 3_600_000);
    timers.fire(6 * 3_600_000);
    updater.failure = new Error('HttpError: 404');
    timers.fire(6 * 3_600_000);
    await settle();
    const failures = lines
      .filter((line) => line.msg === 'update check failed; trying again later')
      .map((line) => line.err);
    expect(updater.checks).toBe(4);
    expect(failures).toEqual(['net::ERR_NAME_NOT_RESOLVED', 'HttpError: 404']);
    expect(status.state.lastCheck).toMatchObject({ error: 'HttpError: 404' });
  });

  it('need an https feed in the settings file when enabled', () => {
    const missing = thrown(() => parseSettings({ updates: { enabled: true } }, 'settings.json'));
    expect(missing).toBeInstanceOf(SettingsError);
    expect((missing as SettingsError).violations).toEqual([
      {
        field: 'updates.feed_url',
        code: 'REQUIRED',
        message: 'is required when updates are enabled',
        cashier_message: 'Preencha este campo.',
      },
    ]);
    const plain = thrown(() =>
      parseSettings({ updates: { enabled: true, feed_url: 'http://updates.example/p' } }, 'settings.json'),
    );
    expect((plain as SettingsError).violations.map((v) => v.field)).toEqual(['updates.feed_url']);
    expect(parseSettings({ updates: { enabled: true, feed_url: 'https://updates.example/p' } }, null).updates).toEqual({
      enabled: true,
      feed_url: 'https://updates.example/p',
    });
  });

  it('refuse a feed naming a store id the fleet section lacks, a channel that is not a name, and an empty window', () => {
    const refused = (updates: Record<string, unknown>, fleet: Record<string, unknown> = {}): string[] =>
      (thrown(() => parseSettings({ updates, fleet }, 'settings.json')) as SettingsError).violations.map(
        (v) => `${v.field} ${v.code}`,
      );
    expect(refused({ feed_url: 'https://u.example/{chain}/{store}/' }, { chain: 'acme' })).toEqual([
      'fleet.store REQUIRED',
    ]);
    expect(refused({ channel: 'Beta 2' })).toEqual(['updates.channel INVALID_FORMAT']);
    expect(refused({ install_window: '02:00-02:00' })).toEqual(['updates.install_window INVALID_VALUE']);
    expect(refused({ install_window: '2h-5h' })).toEqual(['updates.install_window INVALID_FORMAT']);
    expect(
      parseSettings(
        {
          updates: {
            enabled: true,
            feed_url: 'https://u.example/{store}/',
            channel: 'beta',
            install_window: '22:00-02:00',
          },
          fleet: { store: 'loja-042' },
        },
        null,
      ).updates,
    ).toMatchObject({ channel: 'beta', install_window: '22:00-02:00' });
  });
});
