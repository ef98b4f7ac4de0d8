/**
 * Remote settings for one agent process (docs/remote-settings.md): which settings a start uses (the
 * local file, with the current document or the one on trial merged over it), what becomes of a
 * trial (confirmed once the agent reaches ready with it, refused and rolled back when it does not),
 * and the follower that fetches the url on its interval and asks for a restart at an idle moment.
 *
 * Electron-free and agent-free: the host (`pinbridge start`, the desktop shell) says when the
 * agent is idle, how to restart it and when it reached ready (main/agent/remote-follow.ts).
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { messageOf } from '../../lib/errors.js';
import type { Logger } from '../log.js';
import { remoteSettingsKeyPath, remoteSettingsStatePath } from '../paths.js';
import { loadSettings, parseSettings, readSettingsJson, type AgentSettings } from '../settings/settings-file.js';
import {
  DEFAULT_REMOTE_INTERVAL_MINUTES,
  remoteUrlOf,
  type RemoteSettingsSection,
} from '../settings/remote-settings-section.js';
import type { FleetSettings } from '../settings/fleet-settings.js';
import { checkDocument, mergedSettings, scopeProblem, type Identity } from './check.js';
import { openEnvelope } from './document.js';
import { fetchDocument, type FetchDocument } from './fetch.js';
import { readPinnedKey } from './keys.js';
import { governedPaths, type Json } from './merge.js';
import { RemoteDocumentRefused, type Refusal } from './refusal.js';
import { RemoteStateStore, type CheckOutcome, type LastCheck } from './state.js';

/** The document a start used: what it governs, for the window and operator.saveSettings. */
export interface RunningDocument {
  readonly version: number;
  readonly url: string;
  readonly fetched_at: string;
  /** The document's partial settings (merged over the local file). */
  readonly settings: Json;
  /** The leaf fields it sets (dotted paths). */
  readonly governed: readonly string[];
  /** Started on trial (not confirmed yet). */
  readonly trial: boolean;
  /** On trial: the PINPAD answered before the restart that tries it (noteBeforeRestart), so it must again. */
  readonly pinpadWasReady: boolean;
}

/** What doctor, `pinbridge remote-settings status` and the window show. */
export interface RemoteStatus {
  /** The settings name a url to follow. */
  readonly configured: boolean;
  /** The url with its placeholders filled; null when not configured. */
  readonly url: string | null;
  readonly key: 'pinned' | 'missing' | 'unusable';
  readonly key_problem: string | null;
  /** The document the running agent uses; null: the local file alone. */
  readonly running: { readonly version: number; readonly url: string; readonly fetched_at: string } | null;
  /** A document fetched and checked, waiting for an idle moment (or being tried). */
  readonly pending: { readonly version: number; readonly url: string } | null;
  readonly last_check: LastCheck | null;
  readonly last_refusal: Refusal | null;
}

/** What an agent is given of the remote settings it runs with (AgentOptions.remote). */
export interface RemoteSettingsInUse {
  /** The document its start used; null: the local file alone. */
  readonly document: RunningDocument | null;
  /** The follower's state now (last check, last refusal, pending version). */
  readonly status: () => RemoteStatus;
}

export interface RemoteSettingsOptions {
  /** Where ~/.pinbridge is (tests move it). */
  readonly home?: string;
  readonly logger: Logger;
  /** Default: fetch.ts over HTTPS. */
  readonly fetch?: FetchDocument;
  readonly now?: () => Date;
}

export interface FollowOptions {
  /** No payment running, no PINPAD prompt: a restart cuts nothing. */
  readonly idle: () => boolean;
  /** Restarts the agent so that it starts with the trial (AgentRunner headless, a relaunch in the desktop app). */
  readonly restart: () => void;
  /** Between two checks (default: the section's interval_minutes). */
  readonly intervalMs?: number;
  /** The first check after follow() (default 10 s: the agent's start is not slowed). */
  readonly firstCheckMs?: number;
  /** How often an idle moment is looked for while a document waits (default 2 s). */
  readonly idlePollMs?: number;
}

/** Who this checkout is, as a document's scope must name it: the settings' fleet section. */
function identityOf(fleet: FleetSettings): Identity {
  return {
    // Never '' once the settings loaded: a remote_settings section without fleet.chain is refused.
    chain: fleet.chain ?? '',
    ...(fleet.store === undefined ? {} : { store: fleet.store }),
    ...(fleet.checkout === undefined ? {} : { checkout: fleet.checkout }),
  };
}

export class RemoteSettings {
  readonly store: RemoteStateStore;
  readonly #home: string | undefined;
  readonly #logger: Logger;
  readonly #fetch: FetchDocument;
  readonly #now: () => Date;
  /** The settings file of the last load, and its section. */
  #settingsPath: string | null = null;
  #section: RemoteSettingsSection | null = null;
  /** This checkout's place in the chain, of the last load. */
  #fleet: FleetSettings = {};
  /** The document of the last load (the start under way or done). */
  #loaded: RunningDocument | null = null;
  /** The document of the agent known to run (a failed start leaves the previous one running). */
  #inUse: RunningDocument | null = null;
  #follow: FollowOptions | undefined;
  #timer: NodeJS.Timeout | undefined;
  #idleTimer: NodeJS.Timeout | undefined;
  #checking: Promise<CheckOutcome> | undefined;
  #stopped = false;

  constructor(options: RemoteSettingsOptions) {
    this.#home = options.home;
    this.#logger = options.logger;
    this.#fetch = options.fetch ?? fetchDocument;
    this.#now = options.now ?? (() => new Date());
    this.store = new RemoteStateStore(remoteSettingsStatePath(options.home), options.logger);
  }

  get keyPath(): string {
    return remoteSettingsKeyPath(this.#home);
  }

  /**
   * The settings a start uses: the local file (its mistakes throw as loadSettings's do), with the
   * trial merged over it when there is one not tried yet, else the current document. A trial
   * found already tried — the start that tried it never confirmed it: it crashed or was stopped —
   * is refused (NOT_READY) and the current document is used: the crash-loop's way out.
   */
  load(explicitPath: string | undefined): { settings: AgentSettings; document: RunningDocument | null } {
    this.#loaded = null;
    const local = loadSettings(explicitPath, this.#home);
    this.#settingsPath = local.path;
    this.#section = local.remoteSettings;
    this.#fleet = local.fleet;
    const section = local.remoteSettings;
    if (section === null) return { settings: local, document: null };
    const pinned = readPinnedKey(this.keyPath);
    if (pinned.state !== 'pinned') {
      this.#logger.warn(
        { key: this.keyPath, problem: pinned.state === 'unusable' ? pinned.message : 'no key pinned' },
        'remote settings are configured but no usable key is pinned: the local settings alone apply (pinbridge remote-settings pin)',
      );
      return { settings: local, document: null };
    }
    const state = this.store.state;
    if (state.trial !== null && state.trial.attempts >= 1) {
      const version = state.trial.version;
      this.store.refuse(
        'NOT_READY',
        `the agent did not reach ready with version ${version} at its last start (it stopped or crashed first); the previous settings run again`,
        version,
        this.#now(),
      );
      this.#logger.error({ version }, 'remote settings rolled back: the last start with them did not reach ready');
    }
    const json = ((local.path === null ? undefined : readSettingsJson(local.path)) ?? {}) as Json;
    const candidates = [
      { document: this.store.state.trial, trial: true },
      { document: this.store.state.current, trial: false },
    ];
    for (const { document, trial } of candidates) {
      if (document === null || (!trial && this.store.state.refused_versions.includes(document.version))) continue;
      try {
        const { payload } = openEnvelope(document.envelope, pinned.key);
        const scope = scopeProblem(payload.scope, identityOf(local.fleet));
        if (scope !== undefined) throw new RemoteDocumentRefused('WRONG_SCOPE', scope, payload.version);
        const merged = mergedSettings(payload, json, local.path);
        if (trial) this.store.attempt();
        this.#loaded = {
          version: payload.version,
          url: document.url,
          fetched_at: document.fetched_at,
          settings: payload.settings,
          governed: governedPaths(payload.settings),
          trial,
          pinpadWasReady: trial && 'pinpad_was_ready' in document && document.pinpad_was_ready === true,
        };
        this.#logger.info(
          { version: payload.version, url: document.url, trial },
          trial ? 'starting with remote settings on trial' : 'starting with remote settings',
        );
        return { settings: parseSettings(merged, local.path), document: this.#loaded };
      } catch (error) {
        if (!(error instanceof RemoteDocumentRefused)) throw error;
        // The running document that no longer fits (the local file or the identity changed since) is
        // not marked for good: it applies again once they fit again.
        this.store.refuse(error.code, error.message, document.version, this.#now(), trial ? {} : { permanent: false });
        this.#logger.error(
          { version: document.version, code: error.code, err: error.message },
          trial
            ? 'remote settings on trial refused at start; the previous ones apply'
            : 'the running remote settings no longer apply to this checkout; the local settings alone apply',
        );
      }
    }
    return { settings: local, document: null };
  }

  /**
   * The start of the last load failed (Agent.start threw): a trial is refused for good; whatever
   * ran before runs again (the host starts it).
   */
  startFailed(error: unknown): boolean {
    const loaded = this.#loaded;
    this.#loaded = this.#inUse;
    // Only a trial still unconfirmed on disk is refused: a confirmed document that fails to start
    // again (a port taken this time) is not the document's fault.
    if (loaded === null || !loaded.trial || this.store.state.trial?.version !== loaded.version) return false;
    this.#refuseTrial(loaded.version, `the agent did not start with it: ${messageOf(error)}`);
    return true;
  }

  /**
   * The agent of the last load started; `ready` settles when it reached ready (remote-follow.ts
   * says what that means). A trial is confirmed then, or refused and rolled back (a restart) when
   * it rejects.
   */
  started(ready: Promise<unknown>): void {
    const loaded = this.#loaded;
    this.#inUse = loaded;
    // An agent stopped before it was ready rejects `ready`: nobody else waits for it.
    ready.catch(() => undefined);
    if (loaded === null || !loaded.trial) return;
    ready.then(
      () => {
        if (this.#inUse !== loaded) return;
        this.store.confirm(loaded.version);
        this.#inUse = { ...loaded, trial: false };
        if (this.#loaded === loaded) this.#loaded = this.#inUse;
        this.#logger.info({ version: loaded.version, url: loaded.url }, 'remote settings applied');
      },
      (error: unknown) => {
        if (this.#inUse !== loaded) return;
        this.#refuseTrial(loaded.version, `the agent did not reach ready with it: ${messageOf(error)}`);
        // The agent runs with the refused document: a restart brings the previous one back.
        if (!this.#stopped) this.#follow?.restart();
      },
    );
  }

  #refuseTrial(version: number, message: string): void {
    this.store.refuse('NOT_READY', message, version, this.#now());
    this.#logger.error({ version, err: message }, 'remote settings rolled back');
  }

  /**
   * Before the host restarts for a trial: what worked then, kept with the trial so the start that
   * tries it (maybe another process: the desktop app relaunches) knows what must work again.
   */
  noteBeforeRestart(facts: { readonly pinpadWasReady: boolean }): void {
    this.store.noteBeforeRestart(facts);
  }

  /** The document the running agent uses (null: the local file alone). */
  get running(): RunningDocument | null {
    return this.#inUse;
  }

  status(): RemoteStatus {
    const section = this.#section;
    const pinned = readPinnedKey(this.keyPath);
    const state = this.store.state;
    const running = this.#inUse;
    return {
      configured: section !== null,
      url: section === null ? null : remoteUrlOf(section, this.#fleet),
      key: pinned.state,
      key_problem: pinned.state === 'unusable' ? pinned.message : null,
      running: running === null ? null : { version: running.version, url: running.url, fetched_at: running.fetched_at },
      pending:
        state.trial === null || state.trial.version === running?.version
          ? null
          : { version: state.trial.version, url: state.trial.url },
      last_check: state.last_check,
      last_refusal: state.refusals.at(-1) ?? null,
    };
  }

  /** Fetches and checks the url once; a new document becomes the trial and waits for an idle moment. */
  checkNow(): Promise<CheckOutcome> {
    this.#checking ??= this.#check().finally(() => {
      this.#checking = undefined;
    });
    return this.#checking;
  }

  async #check(): Promise<CheckOutcome> {
    const section = this.#section;
    if (section === null) return 'unchanged';
    const fleet = this.#fleet;
    const url = remoteUrlOf(section, fleet);
    const at = this.#now();
    const record = (outcome: CheckOutcome, message: string | null): CheckOutcome => {
      this.store.recordCheck({ at: at.toISOString(), url, outcome, message });
      return outcome;
    };
    const pinned = readPinnedKey(this.keyPath);
    if (pinned.state !== 'pinned') {
      const message =
        pinned.state === 'missing'
          ? `no key is pinned at ${this.keyPath}: remote settings are not followed (pinbridge remote-settings pin)`
          : pinned.message;
      this.#logger.warn({ url }, message);
      return record('no_key', message);
    }
    let text: string;
    try {
      const caPem =
        section.ca === undefined
          ? undefined
          : readFileSync(
              resolve(this.#settingsPath === null ? process.cwd() : dirname(this.#settingsPath), section.ca),
              'utf8',
            );
      text = await this.#fetch(url, caPem === undefined ? {} : { caPem });
    } catch (error) {
      this.#logger.warn({ url, err: messageOf(error) }, 'remote settings could not be fetched; trying again later');
      return record('unreachable', messageOf(error));
    }
    const local = ((this.#settingsPath === null ? undefined : readSettingsJson(this.#settingsPath)) ?? {}) as Json;
    try {
      const result = checkDocument(text, {
        key: pinned.key,
        identity: identityOf(fleet),
        state: this.store.state,
        local,
        settingsPath: this.#settingsPath,
        now: at,
      });
      if (result.kind === 'unchanged') {
        this.#waitForIdle();
        return record('unchanged', null);
      }
      const version = result.payload.version;
      if (!this.store.offer({ version, url, envelope: text, fetched_at: at.toISOString() })) {
        return record(
          'not_saved',
          `version ${version} could not be kept on disk; it is fetched again at the next check`,
        );
      }
      this.#logger.info({ version, url }, 'new remote settings; they apply at the next idle moment');
      this.#waitForIdle();
      return record('new', `version ${version}`);
    } catch (error) {
      if (!(error instanceof RemoteDocumentRefused)) throw error;
      if (error.code === 'REFUSED_BEFORE') {
        // The url still serves a version refused here before: the refusal that says why (NOT_READY,
        // INVALID_SETTINGS…) stays the last one shown; only this check records that it came again.
        this.#logger.debug({ url, version: error.version }, 'remote settings: a version refused before, served again');
        return record('refused', `${error.code}: ${error.message}`);
      }
      const refusal = this.store.refuse(error.code, error.message, error.version, at);
      this.#logger.warn(
        { url, version: refusal.version, code: refusal.code, err: refusal.message },
        'remote settings refused',
      );
      return record('refused', `${refusal.code}: ${refusal.message}`);
    }
  }

  /** A trial not yet tried by a start waits for an idle moment, then the agent restarts with it. */
  #waitForIdle(): void {
    const follow = this.#follow;
    if (follow === undefined || this.#idleTimer !== undefined || this.#stopped) return;
    const poll = (): void => {
      this.#idleTimer = undefined;
      const trial = this.store.state.trial;
      if (this.#stopped || trial === null || trial.attempts > 0) return;
      if (!follow.idle()) {
        this.#idleTimer = setTimeout(poll, follow.idlePollMs ?? 2_000);
        this.#idleTimer.unref();
        return;
      }
      this.#logger.info({ version: trial.version }, 'idle: restarting with the new remote settings');
      follow.restart();
    };
    poll();
  }

  /** Checks the url now and then, while the agent runs (until stop). */
  follow(options: FollowOptions): void {
    this.#follow = options;
    const schedule = (ms: number): void => {
      clearTimeout(this.#timer);
      if (this.#stopped) return;
      this.#timer = setTimeout(() => {
        void this.checkNow()
          .catch((error: unknown) =>
            this.#logger.error({ err: messageOf(error) }, 'checking the remote settings failed; trying again later'),
          )
          .finally(() => schedule(this.#intervalMs(options)));
      }, ms);
      this.#timer.unref();
    };
    schedule(options.firstCheckMs ?? 10_000);
  }

  #intervalMs(options: FollowOptions): number {
    return options.intervalMs ?? (this.#section?.interval_minutes ?? DEFAULT_REMOTE_INTERVAL_MINUTES) * 60_000;
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    clearTimeout(this.#idleTimer);
  }
}

/**
 * The status as the files say it, for another process than the agent (`pinbridge doctor`,
 * `pinbridge remote-settings status`): the document running is the state's current one.
 */
export function remoteStatusOnDisk(
  section: RemoteSettingsSection | null,
  fleet: FleetSettings,
  home?: string,
): RemoteStatus {
  const pinned = readPinnedKey(remoteSettingsKeyPath(home));
  const state = new RemoteStateStore(remoteSettingsStatePath(home)).state;
  const current = state.current;
  return {
    configured: section !== null,
    url: section === null ? null : remoteUrlOf(section, fleet),
    key: pinned.state,
    key_problem: pinned.state === 'unusable' ? pinned.message : null,
    running:
      current === null || state.refused_versions.includes(current.version)
        ? null
        : { version: current.version, url: current.url, fetched_at: current.fetched_at },
    pending: state.trial === null ? null : { version: state.trial.version, url: state.trial.url },
    last_check: state.last_check,
    last_refusal: state.refusals.at(-1) ?? null,
  };
}
