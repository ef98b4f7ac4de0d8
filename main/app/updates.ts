/**
 * Updates of the desktop app: electron-updater with a generic feed (a folder of the installers and
 * their CHANNEL.yml / CHANNEL-linux.yml / CHANNEL-mac.yml, as electron-builder publishes them,
 * served over HTTPS by the chain's own server or the vendor's). Off by default: most stores deploy
 * by hand, and an update is a change to the checkout.
 *
 * When on, it checks at start and then every few hours. A staged release (the yml's
 * `stagingPercentage`) reaches a checkout by its store's place in the rollout, not by a random id
 * of each PC, so a store's checkouts move together (main/updates/policy.ts). An available update is
 * downloaded when no sale is in progress, and installed when the app quits (after the agent
 * stopped: never in the middle of a sale) or, when the settings give a maintenance window, at an
 * idle moment inside it, Pinbridge then starting again. What is pending is handed to the agent
 * (main/updates/status.ts), whose window shows it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { OutgoingHttpHeaders } from 'node:http';
import type { Logger as UpdaterLogger, UpdateInfo } from 'electron-updater';
import { DEFAULT_CHANNEL, DEFAULT_CHECK_INTERVAL_HOURS, type UpdateSettings } from '../settings/update-settings.js';
import {
  decideInstall,
  feedUrl,
  parseInstallWindow,
  rolloutPercent,
  shouldDownload,
  stagingId,
  withinRollout,
  type SaleActivity,
  type StoreIdentity,
} from '../updates/policy.js';
import type { UpdateStatus } from '../updates/status.js';
import { DEFAULT_STORE_TIME_ZONE, wallClock } from '../locale/store-time.js';
import { messageOf } from '../../lib/errors.js';
import type { Logger } from '../log.js';

/** The part of electron-updater's autoUpdater used here. */
export interface UpdaterLike {
  logger: UpdaterLogger | null;
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  allowDowngrade: boolean;
  requestHeaders: OutgoingHttpHeaders | null;
  isUserWithinRollout: (info: UpdateInfo) => boolean | Promise<boolean>;
  setFeedURL(options: { provider: 'generic'; url: string; channel?: string }): void;
  checkForUpdates(): Promise<unknown>;
  downloadUpdate(): Promise<unknown>;
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void;
  on(event: 'update-available' | 'update-downloaded', listener: (info: UpdateInfo) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** How often a waiting update looks whether it may download or install now. */
export const LOOK_INTERVAL_MS = 60_000;

export interface UpdateCheckerOptions {
  readonly settings: UpdateSettings | undefined;
  /** The store's identity: the settings' fleet section, chain/store/checkout (none: each installation is staged alone). */
  readonly identity?: StoreIdentity;
  /** Loads electron-updater's autoUpdater (it needs Electron, so only when updates are on). */
  readonly load: () => Promise<UpdaterLike>;
  readonly logger: Logger;
  /** The agent's port: what the window shows. */
  readonly status?: UpdateStatus;
  /** What keeps a sale going now (the agent's PINPADs and confirmations); default: nothing. */
  readonly activity?: () => SaleActivity;
  /** The store's IANA time zone, the maintenance window's clock. */
  readonly timeZone?: () => string;
  /**
   * Inside the maintenance window at an idle moment: stop the agent, then call `install(true)`
   * (the shell's graceful stop). Without it the update waits for the next quit.
   */
  readonly installNow?: () => void;
  /**
   * Where the version whose install failed is kept (a JSON file), so that the start after a
   * failed install in the window does not try it in the window again (only at quit).
   */
  readonly failureFile?: string;
  readonly now?: () => Date;
  readonly setInterval?: (callback: () => void, ms: number) => { unref?(): unknown };
  readonly clearInterval?: (timer: { unref?(): unknown }) => void;
}

/** A running update check; `stop()` ends its timers. */
export interface UpdateChecker {
  /** The version downloaded and waiting, if any. */
  readonly pending: string | undefined;
  /**
   * Installs the downloaded update (silently) and returns true, or returns false when none is
   * waiting. `restart`: start Pinbridge again afterwards (an install in the maintenance window);
   * else the app is not started again (the cashier quit). The shell quits with app.exit, which
   * skips the quit events electron-updater installs on, so it asks here.
   */
  install(restart: boolean): boolean;
  /** Quitting: install(false). */
  installOnQuit(): boolean;
  /** Looks now whether a waiting update may download or install (the timer does it every minute). */
  look(): void;
  stop(): void;
}

const NO_SALE: SaleActivity = { busyPinpads: [], awaitingConfirmation: 0 };

/**
 * Starts checking for updates when the settings turn them on; undefined when they are off (nothing
 * is loaded and nothing is asked of the network). A failed check is logged once per kind of error
 * and retried at the next interval.
 */
export async function startUpdateChecks(options: UpdateCheckerOptions): Promise<UpdateChecker | undefined> {
  const settings = options.settings;
  if (settings?.enabled !== true) return undefined;
  const { logger, status } = options;
  const identity = options.identity ?? {};
  if (settings.feed_url === undefined) {
    logger.warn('updates.enabled is set without updates.feed_url; no updates are checked');
    return undefined;
  }
  const feed = feedUrl(settings.feed_url, identity);
  if ('missing' in feed) {
    logger.warn({ missing: feed.missing }, 'updates.feed_url names fleet ids that are not set; no updates are checked');
    return undefined;
  }
  const channel = settings.channel ?? DEFAULT_CHANNEL;
  const window = settings.install_window === undefined ? undefined : parseInstallWindow(settings.install_window);
  const staging = stagingId(identity, settings.stage_by ?? 'store');
  if (staging === undefined)
    logger.warn(
      { stage_by: settings.stage_by ?? 'store' },
      "the fleet section does not name this checkout's store (fleet.chain, fleet.store, and fleet.checkout when staged by checkout): a staged release picks this installation on its own",
    );
  // In percent, two decimals: a release staged above it reaches this checkout.
  const position = staging === undefined ? null : rolloutPercent(staging.id);
  const activity = options.activity ?? (() => NO_SALE);
  const now = options.now ?? (() => new Date());

  const updater = await options.load();
  // electron-updater's own lines (each check, its staging arithmetic, where it downloads) go to the
  // agent's log, not the console; its errors reach the log through 'error' below, once per kind.
  updater.logger = {
    info: (message: unknown) => logger.debug({ updater: messageOf(message) }, 'electron-updater'),
    warn: (message: unknown) => logger.warn({ updater: messageOf(message) }, 'electron-updater'),
    error: (message: unknown) => logger.debug({ updater: messageOf(message) }, 'electron-updater'),
  };
  // Downloads wait for a moment without a sale (look()); installs are ours to time.
  updater.autoDownload = false;
  updater.autoInstallOnAppQuit = true;
  // Back from beta to latest, a checkout keeps its newer beta until latest passes it: a downgrade
  // could meet files (journal, settings) a newer version already wrote.
  updater.allowDowngrade = false;
  if (staging !== undefined) {
    // The store's id instead of each PC's random .updaterId, by electron-updater's own arithmetic;
    // the server sees it too (x-user-staging-id), e.g. to log which stores fetched the release.
    updater.isUserWithinRollout = (info) => withinRollout(info.stagingPercentage, staging.id);
    updater.requestHeaders = { ...updater.requestHeaders, 'x-user-staging-id': staging.id };
  }
  // The channel goes in the provider's options, not updater.channel (which would allow downgrades).
  updater.setFeedURL({
    provider: 'generic',
    url: feed.url,
    ...(channel === DEFAULT_CHANNEL ? {} : { channel }),
  });

  let available: string | undefined;
  let downloading = false;
  let pending: string | undefined;
  let installing = false;
  let lastError: string | undefined;
  /** An install being attempted now (quitAndInstall reports its failure through 'error', at once). */
  let attempting = false;
  let installFailure: string | undefined;
  let failed = readFailedInstall(options.failureFile);
  status?.update({
    enabled: true,
    channel,
    installWindow: window?.text ?? null,
    stagedBy: staging?.by ?? 'install',
    rolloutPosition: position,
  });

  const download = (): void => {
    const version = available;
    if (!shouldDownload({ available: version, downloading, downloaded: pending, activity: activity() })) return;
    downloading = true;
    status?.update({ state: 'downloading', version: version ?? null });
    logger.info({ version }, 'downloading the update');
    updater.downloadUpdate().then(
      () => (downloading = false),
      () => {
        // Reported through 'error'; tried again at the next look.
        downloading = false;
        status?.update(
          pending === undefined ? { state: 'none', version: null } : { state: 'downloaded', version: pending },
        );
      },
    );
  };

  const installInWindow = (): void => {
    if (installing || options.installNow === undefined) return;
    const clock = wallClock(now(), options.timeZone?.() ?? DEFAULT_STORE_TIME_ZONE);
    const decision = decideInstall({
      pending,
      window,
      minute: clock.hour * 60 + clock.minute,
      activity: activity(),
      failed,
    });
    status?.update({ waitingForSale: !decision.install && decision.reason === 'SALE_IN_PROGRESS' });
    if (!decision.install) return;
    installing = true;
    status?.update({ state: 'installing', version: pending ?? null });
    logger.info(
      { version: pending, window: window?.text },
      'installing the update in the maintenance window; Pinbridge starts again',
    );
    options.installNow();
  };

  updater.on('update-available', (info) => {
    available = info.version;
    logger.info(
      { version: info.version, staging_percentage: info.stagingPercentage ?? null },
      'an update is available',
    );
    download();
  });
  updater.on('update-downloaded', (info) => {
    pending = info.version;
    downloading = false;
    status?.update({ state: 'downloaded', version: info.version });
    logger.info(
      { version: info.version, window: window?.text ?? null },
      window === undefined
        ? 'update downloaded; it is installed when Pinbridge next quits'
        : 'update downloaded; it is installed in the maintenance window when no sale is in progress, or when Pinbridge next quits',
    );
    installInWindow();
  });
  updater.on('error', (error) => {
    if (attempting) {
      installFailure = error.message;
      return;
    }
    status?.update({ lastCheck: { at: now().toISOString(), error: error.message } });
    // The same failure every few hours (a feed down, no network) is logged once.
    if (error.message === lastError) return;
    lastError = error.message;
    logger.warn({ err: error.message, feed: feed.url }, 'update check failed; trying again later');
  });
  const check = (): void => {
    updater.checkForUpdates().then(
      () => {
        lastError = undefined;
        status?.update({ lastCheck: { at: now().toISOString(), error: null } });
      },
      () => undefined, // reported through 'error'
    );
  };
  const look = (): void => {
    try {
      download();
      installInWindow();
    } catch (error) {
      // Never let a look break the app: it is tried again in a minute.
      logger.warn({ err: messageOf(error) }, 'update look failed');
    }
  };
  check();
  const hours = settings.check_interval_hours ?? DEFAULT_CHECK_INTERVAL_HOURS;
  const every = options.setInterval ?? ((callback, ms) => setInterval(callback, ms));
  const timers = [every(check, hours * 3_600_000), every(look, LOOK_INTERVAL_MS)];
  for (const timer of timers) timer.unref?.();
  logger.info(
    {
      feed: feed.url,
      channel,
      every_hours: hours,
      staged_by: staging?.by ?? 'install',
      ...(staging === undefined ? {} : { staging_name: staging.name, rollout_position: position }),
      install_window: window?.text ?? null,
    },
    'checking for updates',
  );
  const install = (restart: boolean): boolean => {
    const version = pending;
    if (version === undefined) return false;
    logger.info({ version, restart }, 'installing the update and quitting');
    attempting = true;
    installFailure = undefined;
    try {
      updater.quitAndInstall(true, restart);
    } catch (error) {
      installFailure = messageOf(error);
    } finally {
      attempting = false;
    }
    if (installFailure === undefined) return true;
    // electron-updater then does not quit: the shell goes on (or starts again) with this version.
    logger.error({ version, err: installFailure }, 'the update could not be installed; Pinbridge keeps its version');
    failed = version;
    installing = false;
    status?.update({ state: 'downloaded', version, waitingForSale: false });
    if (restart) keepFailedInstall(options.failureFile, version, logger);
    return false;
  };
  return {
    get pending() {
      return pending;
    },
    install,
    installOnQuit: () => install(false),
    look,
    stop: () => {
      const clear = options.clearInterval ?? ((t) => clearInterval(t as NodeJS.Timeout));
      for (const timer of timers) clear(timer);
    },
  };
}

/** The version a failed install left in `file`; undefined when none (or the file cannot be read). */
function readFailedInstall(file: string | undefined): string | undefined {
  if (file === undefined) return undefined;
  try {
    const kept = JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown };
    return typeof kept.version === 'string' ? kept.version : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps the version whose install failed; a write that fails is logged, never thrown (the window may try it once more). */
function keepFailedInstall(file: string | undefined, version: string, logger: Logger): void {
  if (file === undefined) return;
  try {
    writeFileSync(file, `${JSON.stringify({ version, at: new Date().toISOString() })}\n`, { mode: 0o600 });
  } catch (error) {
    logger.warn({ file, err: messageOf(error) }, 'cannot keep which update failed to install');
  }
}
