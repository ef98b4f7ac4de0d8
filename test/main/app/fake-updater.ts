/**
 * electron-updater's autoUpdater as far as Pinbridge uses it (main/app/updates.ts's UpdaterLike),
 * over a feed the test publishes: a check finds `feed` when it is newer than `current` and the
 * rollout hook (isUserWithinRollout, as electron-updater asks it) lets this checkout in; a
 * download completes when the test says so. The real electron-updater runs against a real
 * feed in test/main/updates/feed-server.test.ts.
 */
import { EventEmitter } from 'node:events';
import type { OutgoingHttpHeaders } from 'node:http';
import type { Logger as UpdaterLogger, UpdateInfo } from 'electron-updater';
import type { UpdaterLike } from '../../../main/app/updates.js';

export type Release = Pick<UpdateInfo, 'version' | 'stagingPercentage'>;

export class FakeUpdater extends EventEmitter implements UpdaterLike {
  logger: UpdaterLogger | null = console;
  autoDownload = true;
  autoInstallOnAppQuit = false;
  allowDowngrade = true;
  requestHeaders: OutgoingHttpHeaders | null = null;
  /** electron-updater's own rollout test (its random per-installation .updaterId), here: everyone. */
  readonly ownRollout = (): boolean => true;
  isUserWithinRollout: (info: UpdateInfo) => boolean | Promise<boolean> = this.ownRollout;
  feeds: { provider: 'generic'; url: string; channel?: string }[] = [];
  current = '0.1.0';
  /** What the feed publishes now; undefined: nothing newer. */
  feed: Release | undefined;
  /** Thrown by the next checks (a feed down). */
  failure: Error | undefined;
  checks = 0;
  downloads = 0;
  installs: [boolean | undefined, boolean | undefined][] = [];
  #finish: (() => void) | undefined;

  setFeedURL(options: { provider: 'generic'; url: string; channel?: string }): void {
    this.feeds.push(options);
  }

  async checkForUpdates(): Promise<unknown> {
    this.checks++;
    if (this.failure !== undefined) {
      this.emit('error', this.failure);
      throw this.failure;
    }
    const release = this.feed;
    if (release === undefined || release.version === this.current) return null;
    const info = { ...release, files: [], path: '', sha512: '', releaseDate: '' } as UpdateInfo;
    if (!(await this.isUserWithinRollout(info))) return null;
    this.emit('update-available', info);
    return { updateInfo: info };
  }

  downloadUpdate(): Promise<unknown> {
    this.downloads++;
    const version = this.feed!.version;
    return new Promise((resolve) => {
      this.#finish = () => {
        this.emit('update-downloaded', { version });
        resolve([`/cache/pinbridge-${version}.AppImage`]);
      };
    });
  }

  /** The download in progress ends. */
  finishDownload(): void {
    this.#finish?.();
    this.#finish = undefined;
  }

  /** The installer cannot run (electron-updater then reports an error and does not quit). */
  installFails: Error | undefined;

  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void {
    this.installs.push([isSilent, isForceRunAfter]);
    if (this.installFails !== undefined) this.emit('error', this.installFails);
  }
}
