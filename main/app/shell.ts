/**
 * The Electron shell, kept thin: one instance per user, the agent (main/agent, plain Node) run
 * inside it, a locked-down window showing the agent's own page (the cashier's window, logged in
 * with the operator key), a tray icon whose colour follows the checkout's health, start on login,
 * and a shutdown that lets the agent finish or journal what is in flight before the app exits.
 *
 * Everything Electron is reached through `ShellElectron`, so the specs drive this with a test
 * double; electron-main.ts passes the real module.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Agent, type AgentOptions } from '../agent/agent.js';
import { defaultDataDir, integrityKeyPath, sealedIntegrityKeyPath } from '../paths.js';
import { fileIntegrityKey, osIntegrityKey } from '../agent/integrity-key.js';
import { SIMULATOR_ADDRESS } from '../pinpad/connection.js';
import { storeTimeZone } from '../locale/store-time.js';
import type { ApiOptions } from '../agent/payment-stack.js';
import { chooseApi } from '../agent/api-choice.js';
import { defaultSettings, defaultSettingsPath, type AgentSettings } from '../settings/settings-file.js';
import { agentIdle, reachedReady } from '../agent/remote-follow.js';
import { RemoteSettings, type RunningDocument } from '../remote-settings/remote-settings.js';
import { SettingsError } from '../core/settings.js';
import { settingsViolation } from '../core/settings-violations.js';
import type { Logger } from '../log.js';
import { AUTOSTART_ARG, linuxAutostart, loginItemAutostart, type Autostart } from './autostart.js';
import type { ShellElectron, ShellTray, ShellWindow } from './electron-api.js';
import { CERTIFICATE_PASSPHRASE, encryptedTokenStore, TokenStoreError } from '../agent/token-store.js';
import { ClientCertificateError } from '../api/client-certificate.js';
import { ElectronSystemPrinter } from './system-printer.js';
import { startUpdateChecks, type UpdateChecker, type UpdaterLike } from './updates.js';
import { trayBitmap, trayMenu, trayState, type TrayFacts } from './tray.js';
import { denyPermissions, guardContents, originOf, windowOptions } from './window-security.js';

/** How long electron-updater has to quit the app once its installer started, before the shell does. */
export const INSTALL_QUIT_GRACE_MS = 30_000;

/** IPC channels of the preload's small API (main/app/preload.cts). */
export const IPC = {
  info: 'pinbridge:info',
  setStartOnLogin: 'pinbridge:set-start-on-login',
} as const;

export interface ShellOptions {
  readonly argv: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  readonly home: string;
  readonly platform: NodeJS.Platform;
  /** The compiled preload script (dist/main/app/preload.cjs). */
  readonly preload: string;
  readonly logger: Logger;
  /** Starts the agent (tests give a rig's); default Agent.start. */
  readonly startAgent?: (options: AgentOptions) => Promise<Agent>;
  /** The file the logger also writes, for the window's log export. */
  readonly logFile?: string;
  /** The command that starts this app, for Linux autostart (the AppImage path or the installed binary). */
  readonly exec?: string;
  /** The app's command-line words after the executable (process.argv.slice(1)), for a relaunch. */
  readonly relaunchArgs?: readonly string[];
  /** electron-updater's autoUpdater, loaded only when the settings turn updates on. */
  readonly updater?: () => Promise<UpdaterLike>;
  /** The remote settings follower's timing (tests shorten it; default the settings' interval). */
  readonly remoteTiming?: {
    readonly intervalMs?: number;
    readonly firstCheckMs?: number;
    readonly idlePollMs?: number;
    /** How long a relaunched app's PINPAD has to answer again (default READY_GRACE_MS). */
    readonly readyGraceMs?: number;
  };
}

/** What the shell was started with: the same words as `pinbridge start`, for a desktop shortcut. */
export interface ShellArguments {
  readonly training: boolean;
  readonly config: string | undefined;
  readonly pinpad: string | undefined;
  readonly api: ApiOptions;
  /** Started by the OS at login: stay in the tray. */
  readonly autostart: boolean;
}

/**
 * A start failure the window can fix, as a settings mistake naming the field: the API token or
 * the certificate's passphrase not stored (or not readable), a certificate file that cannot be
 * used. Undefined for anything else.
 */
function startProblem(error: unknown, source: string): SettingsError | undefined {
  if (error instanceof SettingsError) return error;
  if (error instanceof ClientCertificateError) {
    return new SettingsError(
      [
        settingsViolation(
          'api.client_certificate',
          error.code === 'PFX_PASSPHRASE' ? 'CERTIFICATE_PASSPHRASE' : 'CERTIFICATE_UNUSABLE',
          error.message,
        ),
      ],
      source,
    );
  }
  if (error instanceof TokenStoreError)
    return new SettingsError([settingsViolation('api', 'NO_API_TOKEN', error.message)], source);
  return undefined;
}

export function parseShellArguments(argv: readonly string[]): ShellArguments {
  const { values } = parseArgs({
    args: [...argv],
    strict: false,
    options: {
      training: { type: 'boolean' },
      config: { type: 'string' },
      settings: { type: 'string' },
      port: { type: 'string' },
      api: { type: 'string' },
      token: { type: 'string' },
      marketplace: { type: 'string' },
      seller: { type: 'string' },
      autostart: { type: 'boolean' },
    },
  });
  const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
  const api: ApiOptions = {};
  for (const key of ['api', 'token', 'marketplace', 'seller'] as const) {
    const value = text(values[key]);
    if (value !== undefined) api[key] = value;
  }
  return {
    training: values.training === true,
    config: text(values.config) ?? text(values.settings),
    pinpad: text(values.port),
    api,
    autostart: values.autostart === true || argv.includes(AUTOSTART_ARG),
  };
}

export class Shell {
  readonly agent: Agent;
  readonly window: ShellWindow;
  readonly tray: ShellTray;
  readonly autostart: Autostart;
  /** The settings file's mistake the app started despite (with the defaults), for the window. */
  settingsProblem: SettingsError | undefined;
  readonly #electron: ShellElectron;
  #quitting = false;
  readonly #relaunchArgs: readonly string[] | undefined;
  #stopped: Promise<void> | undefined;
  #updates: UpdateChecker | undefined;
  /** The remote settings this app follows (stopped with the agent). */
  readonly remote: RemoteSettings;

  private constructor(
    electron: ShellElectron,
    agent: Agent,
    window: ShellWindow,
    tray: ShellTray,
    autostart: Autostart,
    relaunchArgs: readonly string[] | undefined,
    remote: RemoteSettings,
  ) {
    this.remote = remote;
    this.#electron = electron;
    this.#relaunchArgs = relaunchArgs;
    this.agent = agent;
    this.window = window;
    this.tray = tray;
    this.autostart = autostart;
  }

  /**
   * Runs the app. Resolves with the shell, or undefined when another instance already runs
   * (that one shows its window; this one quits).
   */
  static async run(electron: ShellElectron, options: ShellOptions): Promise<Shell | undefined> {
    const { app } = electron;
    if (!app.requestSingleInstanceLock()) {
      app.quit();
      return undefined;
    }
    const args = parseShellArguments(options.argv);
    // The agent's origin is known once it listens; guards installed before read it then.
    const agentPage: { origin?: string | undefined } = {};
    app.on('web-contents-created', (_event, contents) => guardContents(contents, () => agentPage.origin));
    await app.whenReady();
    denyPermissions(electron.session.defaultSession);

    // A settings file with a mistake does not keep the checkout closed: the app starts with the
    // defaults (training mode) and the window shows the mistake, naming the field.
    const shellWindow: { current?: ShellWindow; shell?: Shell } = {};
    // The local file, with the chain's signed document merged over it when it follows one
    // (docs/remote-settings.md): a document on trial is tried by this start, and rolled back when
    // the agent does not reach ready with it.
    const remote = new RemoteSettings({ home: options.home, logger: options.logger });
    let settings: AgentSettings = defaultSettings();
    let document: RunningDocument | null = null;
    let settingsProblem: SettingsError | undefined;
    const load = (): void => {
      try {
        ({ settings, document } = remote.load(args.config));
      } catch (error) {
        if (!(error instanceof SettingsError)) throw error;
        options.logger.error({ err: error.message }, 'settings refused; starting with the defaults');
        settingsProblem = error;
        // The defaults, but the window still edits (and saves over) the file at fault.
        settings = { ...defaultSettings(), path: args.config ?? defaultSettingsPath(options.home) };
        document = null;
      }
    };
    load();
    const tokens = encryptedTokenStore(electron.safeStorage, join(defaultDataDir(options.home), 'api-token.enc'));
    const passphrases = encryptedTokenStore(
      electron.safeStorage,
      join(defaultDataDir(options.home), 'cert-passphrase.enc'),
      CERTIFICATE_PASSPHRASE,
    );
    // The token from a shortcut's --token is kept encrypted, so the next start needs only the settings' `api`.
    if (args.api.token !== undefined) tokens.write(args.api.token);
    // The key that seals the EMV tables cache and the supervisor PIN file, encrypted by the OS like the token
    // (the headless key file where the OS has no real key); once per run, for every agent it starts.
    const keyProblem = (problem: string): void => options.logger.warn({ problem }, 'integrity key');
    const integrity = osIntegrityKey(
      electron.safeStorage,
      sealedIntegrityKeyPath(options.home),
      () => fileIntegrityKey(integrityKeyPath(options.home), keyProblem),
      keyProblem,
    );
    const startAgent = options.startAgent ?? ((agentOptions: AgentOptions) => Agent.start(agentOptions));
    const start = (api: ApiOptions, problem: SettingsError | undefined): Promise<Agent> =>
      startAgent({
        settings,
        api,
        pinpadAddress: args.pinpad ?? options.env.PINBRIDGE_PINPAD ?? settings.pinpad?.address ?? SIMULATOR_ADDRESS,
        tokens,
        passphrases,
        integrity,
        ...(problem === undefined ? {} : { settingsProblem: problem }),
        ...(options.logFile === undefined ? {} : { logFile: options.logFile }),
        // Chromium knows every platform's printers (Windows has no lpstat), though not which is the default.
        listSystemPrinters: async () =>
          (await (shellWindow.current?.webContents.getPrintersAsync() ?? Promise.resolve([]))).map((printer) => ({
            name: printer.name,
            isDefault: false,
          })),
        // lp://NAME printers print through Chromium at the receipt's own paper size (also on Windows).
        systemPrinter: (deviceName, columns) =>
          new ElectronSystemPrinter((windowOptions) => new electron.BrowserWindow(windowOptions), {
            ...(deviceName === undefined ? {} : { deviceName }),
            columns,
          }),
        home: options.home,
        logger: options.logger,
        // The window's "restart now" (operator.restart): the whole app starts again from the settings file.
        restart: () => void shellWindow.shell?.restart(),
        remote: { document, status: () => remote.status() },
      });
    // What only the window can fix — the API token or the certificate's passphrase not stored yet,
    // a certificate file that cannot be used — does not keep the window closed: the app starts in
    // training mode and the window shows the mistake, where the token and passphrase are entered.
    const startOrTraining = async (): Promise<Agent> => {
      try {
        return await start(
          chooseApi({
            flags: args.api,
            trainingFlag: args.training,
            settings,
            storedToken: () => tokens.read(),
            storedPassphrase: () => passphrases.read(),
          }),
          settingsProblem,
        );
      } catch (error) {
        // A remote document on trial that does not start is refused, and the app starts as it did before it.
        if (remote.startFailed(error)) {
          options.logger.error(
            { err: error instanceof Error ? error.message : String(error) },
            'the agent did not start with the remote settings on trial; starting without them',
          );
          load();
          return startOrTraining();
        }
        const problem = startProblem(error, settings.path ?? defaultSettingsPath(options.home));
        if (problem === undefined) throw error;
        options.logger.error(
          { err: problem.message },
          'the payments API settings cannot be used; starting in training mode',
        );
        settingsProblem = problem;
        return start({}, problem);
      }
    };
    const agent = await startOrTraining();
    // The document this start used (load() sets it; read through a function, as TypeScript does not follow closures).
    const startedWith = (): RunningDocument | null => document;
    const { readyGraceMs, ...followTiming } = options.remoteTiming ?? {};
    // Ready (docs/remote-settings.md): Agent.start, the PINPAD's first answer or failure, and its
    // answer again when it answered before the relaunch (kept with the trial by the process before).
    remote.started(reachedReady(agent, { pinpadWasReady: startedWith()?.pinpadWasReady === true }, readyGraceMs));
    const uiUrl = agent.pos.uiUrl(agent.operatorKey);
    agentPage.origin = originOf(uiUrl);

    const autostart =
      options.platform === 'linux'
        ? linuxAutostart(
            options.env.XDG_CONFIG_HOME ?? join(options.home, '.config'),
            options.exec ?? options.env.APPIMAGE ?? 'pinbridge',
          )
        : loginItemAutostart(app);

    const window = new electron.BrowserWindow(windowOptions(options.preload));
    shellWindow.current = window;
    const tray = new electron.Tray(
      electron.nativeImage.createFromBitmap(trayBitmap('error', 32), { width: 32, height: 32, scaleFactor: 2 }),
    );
    const shell = new Shell(electron, agent, window, tray, autostart, options.relaunchArgs, remote);
    shellWindow.shell = shell;
    // A new document applies by the same relaunch as the window's "restart now", at an idle moment.
    remote.follow({
      idle: () => agentIdle(agent),
      restart: () => {
        remote.noteBeforeRestart({ pinpadWasReady: agent.pinpadLink.status.state === 'ready' });
        void shell.restart();
      },
      ...followTiming,
    });
    shell.settingsProblem = settingsProblem;

    // Only the agent's own page may use the preload's API.
    const fromWindow = (event: { senderFrame: { url: string } | null }): boolean =>
      event.senderFrame !== null && originOf(event.senderFrame.url) === agentPage.origin;
    electron.ipcMain.handle(IPC.info, (event) => {
      if (!fromWindow(event)) throw new Error('not the Pinbridge window');
      return { version: app.getVersion(), platform: options.platform, startOnLogin: autostart.get() };
    });
    electron.ipcMain.handle(IPC.setStartOnLogin, (event, enabled) => {
      if (!fromWindow(event) || typeof enabled !== 'boolean')
        throw new Error('not the Pinbridge window, or not a boolean');
      shell.setStartOnLogin(enabled);
      return autostart.get();
    });

    // Closing the window keeps the agent running in the tray: the POS still needs it.
    window.on('close', (event) => {
      if (shell.#quitting) return;
      event.preventDefault();
      window.hide();
    });
    app.on('window-all-closed', () => {});
    app.on('second-instance', () => shell.show());
    app.on('before-quit', (event) => {
      if (shell.#stopped !== undefined && shell.#quitting) return;
      event.preventDefault();
      void shell.quit();
    });
    tray.on('click', () => shell.show());
    // A POS asking to pair: the cashier must see the code, so the window comes forward.
    agent.on('pairing', () => shell.show());
    // A Pix QR on a text-only PINPAD ("QR NA TELA"): the customer scans it from the window.
    agent.on('pixOnScreen', () => shell.show());
    const refresh = (): void => shell.refreshTray();
    agent.pinpads.on('connected', refresh).on('disconnected', refresh);
    agent.apiHealth.on('change', refresh);
    for (const printer of agent.printing?.printers.values() ?? []) {
      printer.device.on('status', refresh).on('connected', refresh).on('disconnected', refresh);
    }
    shell.refreshTray();

    await window.loadURL(uiUrl);
    if (!args.autostart) window.show();
    try {
      shell.#updates = await startUpdateChecks({
        settings: settings.updates,
        // One identity for the fleet: the store Grafana shows is the store the rollout moves.
        identity: settings.fleet,
        load: options.updater ?? (async () => (await import('electron-updater')).default.autoUpdater),
        logger: options.logger,
        status: agent.updates,
        activity: () => agent.saleActivity(),
        // The store's clock, as the receipts and the window read it.
        timeZone: () => storeTimeZone(settings.receipts?.time_zone),
        installNow: () => void shell.installUpdate(),
        failureFile: join(defaultDataDir(options.home), 'update-install-failed.json'),
      });
    } catch (error) {
      // Updates never keep the checkout from working.
      options.logger.error(
        { err: error instanceof Error ? error.message : String(error) },
        'updates could not be set up',
      );
    }
    return shell;
  }

  show(): void {
    if (this.window.isMinimized()) this.window.restore();
    this.window.show();
    this.window.focus();
  }

  setStartOnLogin(enabled: boolean): void {
    this.autostart.set(enabled);
    this.refreshTray();
  }

  /** What the tray shows, from the agent's state now. */
  facts(): TrayFacts {
    const pinpads = this.agent.pinpads.list();
    const printers = [...(this.agent.printing?.printers.values() ?? [])];
    return {
      training: this.agent.training,
      pinpadsConnected: pinpads.filter((pinpad) => pinpad.connected).length,
      pinpadsKnown: pinpads.length,
      api: this.agent.apiHealth.snapshot().state,
      printersInTrouble: printers.filter(({ device }) => {
        // Not known yet (no status read) is not trouble.
        const status = device.lastStatus;
        return device.connected === false || status?.paperOut === true || status?.coverOpen === true;
      }).length,
    };
  }

  refreshTray(): void {
    const state = trayState(this.facts());
    const { nativeImage, Menu } = this.#electron;
    this.tray.setImage(
      nativeImage.createFromBitmap(trayBitmap(state.level, 32), { width: 32, height: 32, scaleFactor: 2 }),
    );
    this.tray.setToolTip(state.tooltip);
    this.tray.setContextMenu(
      Menu.buildFromTemplate(
        trayMenu(state, this.autostart.get(), {
          open: () => this.show(),
          setStartOnLogin: (enabled) => this.setStartOnLogin(enabled),
          quit: () => void this.quit(),
        }),
      ),
    );
  }

  /**
   * Starts the app again so the saved settings and token apply: a graceful quit, then the same
   * command. The cashier asked from the window, so the new one shows it (no --autostart).
   */
  restart(): Promise<void> {
    if (this.#stopped !== undefined) return this.#stopped;
    const args = this.#relaunchArgs?.filter((arg) => arg !== '--autostart');
    this.#electron.app.relaunch(args === undefined ? undefined : { args });
    // A downloaded update waits for a real quit: the installer and the relaunch would race.
    return this.#stopThen(() => this.#electron.app.exit(0));
  }

  /**
   * Installs the downloaded update in the maintenance window (main/app/updates.ts asks at an idle
   * moment): the agent stops as at a quit (no new sale, what is in flight finishes or is
   * journaled), then the installer runs and starts Pinbridge again. Should the install fail (or
   * the update be gone by then), the app starts again as it was: the checkout is never left with
   * its agent stopped.
   */
  installUpdate(): Promise<void> {
    const startAgain = (): void => {
      this.#electron.app.relaunch(this.#relaunchArgs === undefined ? undefined : { args: [...this.#relaunchArgs] });
      this.#electron.app.exit(0);
    };
    return this.#stopThen(() => {
      if (this.#updates?.install(true) === true) this.#unlessQuitSoon(startAgain);
      else startAgain();
    });
  }

  /**
   * electron-updater quits the app itself once its installer is started; should it not within
   * INSTALL_QUIT_GRACE_MS, `fallback` (exit, or start again) runs, so a stuck installer never
   * leaves the app open with its agent stopped.
   */
  #unlessQuitSoon(fallback: () => void): void {
    setTimeout(fallback, INSTALL_QUIT_GRACE_MS).unref();
  }

  /**
   * Quits after the agent stopped: the POS API closes first (no new sale), the payment engine
   * finishes or journals what is in flight, the PINPAD shows that Pinbridge is off.
   */
  quit(): Promise<void> {
    return this.#stopThen(() => {
      // A downloaded update is installed now, the agent stopped; else (or should it fail) the app simply exits.
      const exit = (): void => this.#electron.app.exit(0);
      if (this.#updates?.installOnQuit() === true) this.#unlessQuitSoon(exit);
      else exit();
    });
  }

  #stopThen(exit: () => void): Promise<void> {
    this.#quitting = true;
    this.#updates?.stop();
    this.remote.stop();
    this.#stopped ??= this.agent
      .stop()
      .catch(() => {})
      .finally(() => {
        this.tray.destroy();
        exit();
      });
    return this.#stopped;
  }
}
