/**
 * Updates of the desktop app: electron-updater with a generic feed (a folder of the installers and
 * their latest.yml / latest-linux.yml / latest-mac.yml, as electron-builder publishes them, served
 * over HTTPS by the store's own server or the vendor's). Off by default: most stores deploy by hand,
 * and an update is a change to the checkout. When on, it checks at start and then every few hours,
 * downloads in the background and installs when the app next quits (after the agent stopped:
 * never in the middle of a sale), without restarting it.
 */
import { DEFAULT_CHECK_INTERVAL_HOURS, type UpdateSettings } from '../settings/update-settings.js';
import type { Logger } from '../log.js';

/** The part of electron-updater's autoUpdater used here. */
export interface UpdaterLike {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  setFeedURL(options: { provider: 'generic'; url: string }): void;
  checkForUpdates(): Promise<unknown>;
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void;
  on(event: 'update-available' | 'update-downloaded', listener: (info: { version: string }) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

export interface UpdateCheckerOptions {
  readonly settings: UpdateSettings | undefined;
  /** Loads electron-updater's autoUpdater (it needs Electron, so only when updates are on). */
  readonly load: () => Promise<UpdaterLike>;
  readonly logger: Logger;
  readonly setInterval?: (callback: () => void, ms: number) => { unref?(): unknown };
  readonly clearInterval?: (timer: { unref?(): unknown }) => void;
}

/** A running update check; `stop()` ends its timer. */
export interface UpdateChecker {
  /** The version downloaded and waiting for the next quit, if any. */
  readonly pending: string | undefined;
  /**
   * Quitting: installs the downloaded update (silently; the app is not started again) and returns
   * true, or returns false when none is waiting. The shell quits with app.exit, which skips the
   * quit events electron-updater installs on, so it asks here.
   */
  installOnQuit(): boolean;
  stop(): void;
}

/**
 * Starts checking for updates when the settings turn them on; undefined when they are off (nothing
 * is loaded and nothing is asked of the network). A failed check is logged once per kind of error
 * and retried at the next interval.
 */
export async function startUpdateChecks(options: UpdateCheckerOptions): Promise<UpdateChecker | undefined> {
  const settings = options.settings;
  if (settings?.enabled !== true) return undefined;
  const { logger } = options;
  if (settings.feed_url === undefined) {
    logger.warn('updates.enabled is set without updates.feed_url; no updates are checked');
    return undefined;
  }
  const updater = await options.load();
  updater.autoDownload = true;
  updater.autoInstallOnAppQuit = true;
  updater.setFeedURL({ provider: 'generic', url: settings.feed_url });
  let pending: string | undefined;
  let lastError: string | undefined;
  updater.on('update-available', (info) =>
    logger.info({ version: info.version }, 'an update is available; downloading it'),
  );
  updater.on('update-downloaded', (info) => {
    pending = info.version;
    logger.info({ version: info.version }, 'update downloaded; it is installed when Pinbridge next quits');
  });
  updater.on('error', (error) => {
    // The same failure every few hours (a feed down, no network) is logged once.
    if (error.message === lastError) return;
    lastError = error.message;
    logger.warn({ err: error.message, feed: settings.feed_url }, 'update check failed; trying again later');
  });
  const check = (): void => {
    updater.checkForUpdates().then(
      () => (lastError = undefined),
      () => undefined, // reported through 'error'
    );
  };
  check();
  const hours = settings.check_interval_hours ?? DEFAULT_CHECK_INTERVAL_HOURS;
  const every = options.setInterval ?? ((callback, ms) => setInterval(callback, ms));
  const timer = every(check, hours * 3_600_000);
  timer.unref?.();
  logger.info({ feed: settings.feed_url, every_hours: hours }, 'checking for updates');
  return {
    get pending() {
      return pending;
    },
    installOnQuit: () => {
      if (pending === undefined) return false;
      logger.info({ version: pending }, 'installing the update and quitting');
      updater.quitAndInstall(true, false);
      return true;
    },
    stop: () => (options.clearInterval ?? ((t) => clearInterval(t as NodeJS.Timeout)))(timer),
  };
}
