/**
 * Updates of the desktop app (main/app/updates.ts): off unless the settings turn them on; then a
 * generic feed checked at start and every few hours, downloaded in the background, installed when
 * the app quits — and a feed that keeps failing logged once, not every time.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { parseSettings } from '../../../main/settings/settings-file.js';
import { SettingsError } from '../../../main/core/settings.js';
import { startUpdateChecks, type UpdaterLike } from '../../../main/app/updates.js';
import { pino } from 'pino';
import type { Logger } from '../../../main/log.js';
import { thrown } from '../../helpers/thrown.js';

/** electron-updater's autoUpdater as far as Pinbridge uses it; a check answers what the test says. */
class FakeUpdater extends EventEmitter implements UpdaterLike {
  autoDownload = false;
  autoInstallOnAppQuit = false;
  feeds: { provider: 'generic'; url: string }[] = [];
  checks = 0;
  installs: [boolean | undefined, boolean | undefined][] = [];
  next: () => void = () => {};
  setFeedURL(options: { provider: 'generic'; url: string }): void {
    this.feeds.push(options);
  }
  checkForUpdates(): Promise<unknown> {
    this.checks++;
    try {
      this.next();
      return Promise.resolve(null);
    } catch (thrown) {
      const error = thrown instanceof Error ? thrown : new Error(String(thrown));
      this.emit('error', error);
      return Promise.reject(error);
    }
  }
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void {
    this.installs.push([isSilent, isForceRunAfter]);
  }
}

/** A logger whose lines are kept, parsed. */
function recordingLogger(): { logger: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const stream = { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) };
  return { logger: pino({ level: 'info' }, stream), lines };
}

/** A manual clock for the check interval. */
function manualInterval(): {
  fire(): void;
  ms: number[];
  setInterval: (callback: () => void, ms: number) => { unref(): void };
  cleared: number;
} {
  const callbacks: (() => void)[] = [];
  const state = {
    ms: [] as number[],
    cleared: 0,
    fire: () => callbacks.forEach((callback) => callback()),
    setInterval: (callback: () => void, ms: number) => {
      callbacks.push(callback);
      state.ms.push(ms);
      return { unref: () => {} };
    },
  };
  return state;
}

describe('updates of the desktop app', () => {
  it('are off by default: nothing is loaded and nothing is asked of the network', async () => {
    let loads = 0;
    const load = (): Promise<UpdaterLike> => {
      loads++;
      return Promise.resolve(new FakeUpdater());
    };
    const { logger } = recordingLogger();
    expect(await startUpdateChecks({ settings: parseSettings({}, null).updates, load, logger })).toBeUndefined();
    expect(
      await startUpdateChecks({
        settings: { enabled: false, feed_url: 'https://updates.example/pinbridge' },
        load,
        logger,
      }),
    ).toBeUndefined();
    expect(loads).toBe(0);
  });

  it('check the generic feed at start and every interval, download by themselves and install at quit without a restart', async () => {
    const updater = new FakeUpdater();
    const clock = manualInterval();
    const { logger, lines } = recordingLogger();
    const checker = await startUpdateChecks({
      settings: { enabled: true, feed_url: 'https://updates.example/pinbridge/', check_interval_hours: 2 },
      load: () => Promise.resolve(updater),
      logger,
      setInterval: clock.setInterval,
    });
    expect(updater.feeds).toEqual([{ provider: 'generic', url: 'https://updates.example/pinbridge/' }]);
    expect(updater).toMatchObject({ autoDownload: true, autoInstallOnAppQuit: true, checks: 1 });
    expect(clock.ms).toEqual([2 * 3_600_000]);
    expect(checker!.installOnQuit()).toBe(false);

    updater.next = () => {
      updater.emit('update-available', { version: '0.2.0' });
      updater.emit('update-downloaded', { version: '0.2.0' });
    };
    clock.fire();
    expect(updater.checks).toBe(2);
    expect(checker!.pending).toBe('0.2.0');
    expect(lines.map((line) => line.msg)).toContain('update downloaded; it is installed when Pinbridge next quits');
    expect(checker!.installOnQuit()).toBe(true);
    expect(updater.installs).toEqual([[true, false]]);
  });

  it('log a feed that keeps failing once, and again only when the failure changes', async () => {
    const updater = new FakeUpdater();
    const clock = manualInterval();
    const { logger, lines } = recordingLogger();
    updater.next = () => {
      throw new Error('net::ERR_NAME_NOT_RESOLVED');
    };
    await startUpdateChecks({
      settings: { enabled: true, feed_url: 'https://updates.example/p' },
      load: () => Promise.resolve(updater),
      logger,
      setInterval: clock.setInterval,
    });
    clock.fire();
    clock.fire();
    updater.next = () => {
      throw new Error('HttpError: 404');
    };
    clock.fire();
    await new Promise((resolve) => setImmediate(resolve));
    const failures = lines
      .filter((line) => line.msg === 'update check failed; trying again later')
      .map((line) => line.err);
    expect(updater.checks).toBe(4);
    expect(failures).toEqual(['net::ERR_NAME_NOT_RESOLVED', 'HttpError: 404']);
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
});
