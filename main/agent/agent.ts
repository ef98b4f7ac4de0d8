/**
 * The whole agent in plain Node, as `pinbridge start` (headless) and the Electron shell both run
 * it: the payments API (or training mode's embedded sandbox), the journal and the payment
 * engine; the PINPAD, kept connected and attached; receipts and their printers; the POS API.
 *
 * `Agent.start` recovers the journal and listens; the PINPAD is opened in the background
 * (reopened when it comes back after an unplug, at once when the hot-plug watcher sees its port),
 * and `ready` settles the first time it answers. `started` — what `pinbridge start` prints — does
 * not wait for a PINPAD that is not there: it settles at the PINPAD's first answer or first
 * failure (or after STARTED_GRACE_MS), saying which, so the window and the POS API are reachable
 * to fix a wrong address from. `stop` closes everything in reverse order, the PINPAD last showing
 * that the agent is off.
 */
import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CodedError, messageOf } from '../../lib/errors.js';
import type { PinpadInfo } from '../../drivers/abecs/pinpad.js';
import { HotplugWatcher, isPortOf, type HotplugWatcherOptions } from '../../drivers/transports/discovery.js';
import { ApiHealthMonitor } from '../api/health.js';
import type { AttemptReport } from '../api/index.js';
import type { Journal } from '../core/journal/journal.js';
import { PinpadRegistry } from '../pinpad/registry.js';
import { ProviderTables, providerTablesCacheFile } from '../pinpad/provider-tables.js';
import { SettingsError } from '../core/settings.js';
import { settingsViolation } from '../core/settings-violations.js';
import { LoggedCondition, logFileOf, type Logger } from '../log.js';
import { AuditLog } from '../audit-log.js';
import {
  pinpadLinkSentence,
  type PinpadLink,
  type PinpadLinkState,
  type PinpadLinkStatus,
} from '../pinpad/link-status.js';
import { ClientStore } from '../pos/clients/client-store.js';
import type { PairingAnnouncement } from '../pos/protocol/pairing.js';
import { PosServer, type PixOnScreen } from '../pos/server/server.js';
import { DEFAULT_PORTS } from '../pos/protocol/index.js';
import { openReceiptPrinting, type ReceiptPrinting, type ReceiptPrintingOptions } from '../receipts/printing.js';
import { TRAINING_RECEIPT_SETTINGS } from '../receipts/settings.js';
import { DEFAULT_PRINTER, type PrintersSettings } from '../receipts/printers.js';
import { formatFileAddress } from '../../drivers/printers/transports/device.js';
import { VERSION } from '../version.js';
import type { AgentMetrics } from '../metrics/metrics.js';
import type { MetricsServer } from '../metrics/server.js';
import { resolveMetricsSettings } from '../metrics/settings.js';
import type { AgentTelemetry } from './telemetry-start.js';
import { resolveTelemetrySettings } from '../telemetry/settings.js';
import { loadOperatorKey } from './operator-key.js';
import { fileCounterStore } from '../../drivers/simulator/keys.js';
import {
  auditLogPath,
  apiTokenPath,
  certificatePassphrasePath,
  clientsPath,
  integrityKeyPath,
  operatorKeyPath,
  simulatorCountersPath,
  supervisorPinPath,
  supportBundlesDir,
  tracesDir,
} from '../paths.js';
import { SupervisorPin, supervisorGuard } from './supervisor-pin.js';
import type { SupervisorGuard } from '../pos/server/supervisor.js';
import {
  defaultSettingsPath,
  parseSettings,
  pinpadSaleOptionsOf,
  readSettingsJson,
  saveSettings,
} from '../settings/settings-file.js';
import {
  API_TOKEN,
  CERTIFICATE_PASSPHRASE,
  headlessTokenStore,
  type SecretKind,
  type TokenStore,
} from './token-store.js';
import { fileIntegrityKey } from './integrity-key.js';
import type { IntegrityKey } from '../integrity.js';
import { exportLogs } from './log-export.js';
import {
  notSaved,
  PASSPHRASE_NOT_SAVED,
  savedOrSaid,
  SETTINGS_NOT_SAVED,
  TOKEN_NOT_SAVED,
  type NotSaved,
} from './not-saved.js';
import type { OperatorServices, RemoteSettingsView, SecretStored, UpdateState } from '../pos/server/agent.js';
import { listSerialPinpads } from '../../drivers/transports/discovery.js';
import { createNoble, scanBlePinpads, type NobleLike } from '../../drivers/transports/ble.js';
import { listSystemPrinters, type SystemPrinter } from '../../drivers/printers/system-printers.js';
import { openPaymentStack, type ApiOptions, type PaymentStack } from './payment-stack.js';
import { idleText, PinpadKeeper, type KeeperOptions } from './pinpad-keeper.js';
import { DiskWatch, runningDiskReport, type DiskStatus } from './disk-watch.js';
import { UpdateStatus } from '../updates/status.js';
import type { SaleActivity } from '../updates/policy.js';
import { heldCertificates } from './held-certificates.js';
import type { SupportBundleRefusal, SupportBundles, SupportBundlesOptions } from './support-bundles.js';
import { TraceFolder } from '../support/trace-folder.js';
import { PosError } from '../pos/protocol/index.js';
import type { AgentSettings } from '../settings/settings-file.js';
import type { RemoteSettingsInUse } from '../remote-settings/remote-settings.js';
import { guardGoverned, mergeSettings, type Json } from '../remote-settings/merge.js';
import { storeTimeZone } from '../locale/store-time.js';

export interface AgentOptions {
  readonly settings: AgentSettings;
  /** The payments API; none of it: training mode. */
  readonly api: ApiOptions;
  /** The PINPAD's address (serial port, tcp://…, ble:…, or "sim"). */
  readonly pinpadAddress: string;
  readonly journalPath?: string;
  /** Where ~/.pinbridge is (tests move it). */
  readonly home?: string;
  /** The POS API's ports (default: settings, else 17301–17303). */
  readonly posPorts?: readonly number[];
  readonly logger: Logger;
  /** Told about every payments API attempt, beside the health monitor (e.g. metrics). */
  readonly onApiAttempt?: (attempt: AttemptReport) => void;
  /** Where the window keeps the API token (headless: PINBRIDGE_API_TOKEN or a private file). */
  readonly tokens?: TokenStore;
  /** Where the window keeps the PKCS#12 certificate's passphrase (headless: PINBRIDGE_CERT_PASSPHRASE or a private file). */
  readonly passphrases?: TokenStore;
  /** The settings file's mistake the agent was started despite (with the defaults), for the window. */
  readonly settingsProblem?: SettingsError;
  /** The file the logger also writes (see createLogger's copyTo), for the window's log export. */
  readonly logFile?: string;
  /** The security audit trail (default `~/.pinbridge/logs/audit.log`, see auditLogPath). */
  readonly audit?: AuditLog;
  /**
   * The key that seals the EMV tables cache and the supervisor PIN file (the desktop app: encrypted
   * by the OS; default, headless: `~/.pinbridge/integrity.key`, see main/agent/integrity-key.ts).
   */
  readonly integrity?: IntegrityKey;
  /** The system's printers (the desktop app: Chromium's list; headless: CUPS's lpstat). */
  readonly listSystemPrinters?: () => Promise<readonly SystemPrinter[]>;
  /** The Bluetooth LE stack for the window's scan (default noble, loaded on first use; tests give a double). */
  readonly noble?: () => NobleLike;
  /** Prints `lp://NAME` printers' jobs (the desktop app: Electron's printing); headless: the `lp` command. */
  readonly systemPrinter?: ReceiptPrintingOptions['systemPrinter'];
  /**
   * Restarts the agent with the settings file as it is now (AgentRunner headless, a relaunch in the
   * desktop app); the window's operator.restart calls it. Without it the window is told to restart by hand.
   */
  readonly restart?: () => void;
  /** Why this agent runs without the saved settings: a restart could not start with them (AgentRunner). */
  readonly notApplied?: string;
  /** The remote settings document this start used, and the follower's state (main/agent/remote-follow.ts). */
  readonly remote?: RemoteSettingsInUse;
  /** The hot-plug watcher's options (default: this platform's device events; tests give a temp folder for /dev). */
  readonly hotplug?: HotplugWatcherOptions;
  /** The PINPAD's reconnection delays (default 1 s doubling to 60 s). */
  readonly reconnect?: Pick<KeeperOptions, 'reconnectDelayMs' | 'maxReconnectDelayMs'>;
  /** With the simulated PINPAD (`sim`): its customer's time at each prompt (default 1.5 s). */
  readonly simulatedCustomerDelayMs?: number;
  /** How long `started` waits for the PINPAD's first answer or failure (default STARTED_GRACE_MS). */
  readonly startedGraceMs?: number;
}

/** What the agent says once its PINPAD answered the first time. */
export interface AgentReady {
  readonly mode: 'training' | 'live';
  readonly pinpad: {
    readonly port: string;
    readonly state: 'ready';
    readonly manufacturer: string;
    readonly model: string;
    readonly serial_number: string;
  };
  readonly journal: string;
  readonly recovered: Awaited<ReturnType<PaymentStack['engine']['recover']>>;
  readonly printers: string[];
  readonly pos: { readonly ws: string; readonly demo: string };
  /** Pinbridge's window in a browser, with the operator key in the fragment (never sent over the network by the browser). */
  readonly ui: string;
  /** The window's page of POS clients, where pairing codes appear (same key). */
  readonly pairing: string;
  /** The Prometheus endpoint, when enabled in the settings. */
  readonly metrics?: string;
  readonly sandbox?: {
    readonly url: string;
    readonly marketplace_id: string;
    readonly seller_id: string;
    readonly token: string;
  };
}

/** The PINPAD as `started` reports it when it has not answered: where, what state, why (English and pt-BR). */
export interface PinpadLinkReport {
  readonly port: string;
  readonly state: Exclude<PinpadLinkState, 'ready'>;
  readonly code: string | null;
  readonly error: string | null;
  readonly message: string;
  readonly cashier_message: string;
}

/** What the agent says once it serves: as AgentReady, or with the PINPAD's link state when it has not answered yet. */
export interface AgentStarted extends Omit<AgentReady, 'pinpad'> {
  readonly pinpad: AgentReady['pinpad'] | PinpadLinkReport;
}

/**
 * How long `started` waits for the PINPAD's first answer or failure: a PINPAD that is there
 * answers in well under a second, one that is not fails at once (no such port) or within the
 * transport's connect timeout; past this the ready line says "connecting".
 */
export const STARTED_GRACE_MS = 10_000;

export interface AgentEvents {
  /** A POS asked to pair: the code is for the cashier's eyes only (window, or terminal headless). */
  pairing: [PairingAnnouncement];
  /** A Pix QR the customer scans from the window (a text-only PINPAD): the window must be in front. */
  pixOnScreen: [PixOnScreen];
}

/** How long a restart waits after the window was answered. */
const RESTART_DELAY_MS = 100;
/** How long a sale's result stays on the PINPAD before the disk-full text comes back. */
const RESULT_SHOWN_MS = 3_000;

function codeOf(error: unknown): string | undefined {
  return error && typeof error === 'object' && 'code' in error ? String(error.code) : undefined;
}

/**
 * Training with no printer in the settings still prints, so reprinting can be practised: the
 * default printer is a folder beside the training journal, each receipt a PDF there (a real
 * printer in the settings takes its place).
 */
function trainingPaper(journalPath: string): PrintersSettings {
  return {
    [DEFAULT_PRINTER]: {
      address: formatFileAddress(`${join(dirname(journalPath), 'receipts').replaceAll('\\', '/')}/`),
      format: 'pdf',
    },
  };
}

/**
 * Receipts printed by themselves when payments end, on the settings' printers. Without the store
 * (receipts.merchant) outside training mode there is nothing lawful to print: said once, at start.
 */
function startReceiptPrinting(
  journal: Journal,
  settings: AgentSettings,
  training: boolean,
  logger: Logger,
  systemPrinter: ReceiptPrintingOptions['systemPrinter'],
): ReceiptPrinting | undefined {
  const store = settings.receipts ?? (training ? TRAINING_RECEIPT_SETTINGS : undefined);
  if (store === undefined) {
    logger.warn(
      { settings: settings.path },
      'no "receipts": {"merchant": …} in the settings: receipts are not printed (they must show the store name and CNPJ)',
    );
    return undefined;
  }
  const printers =
    training && Object.keys(settings.printers).length === 0 ? trainingPaper(journal.path) : settings.printers;
  if (printers !== settings.printers)
    logger.info(
      { folder: printers[DEFAULT_PRINTER]?.address },
      'training without a printer: receipts are printed as PDF files in this folder',
    );
  const printing = openReceiptPrinting({
    journal,
    store,
    training,
    printers,
    autoPrint: settings.autoPrint,
    pollMs: 10_000,
    ...(systemPrinter === undefined ? {} : { systemPrinter }),
  });
  for (const [name, printer] of printing.printers) {
    printer.device.on('status', (status) => {
      const trouble =
        status.paperOut || status.coverOpen || (status.error !== null && status.error !== 'AUTO_RECOVERABLE');
      (trouble ? logger.warn.bind(logger) : logger.info.bind(logger))({ printer: name, status }, 'printer status');
    });
    printer.device.on('disconnected', (error) =>
      logger.warn({ printer: name, code: error.code, err: error.message }, 'printer unreachable'),
    );
    printer.device.on('connected', () => logger.info({ printer: name }, 'printer connected'));
  }
  printing.queue?.on('fault', (error, printer) =>
    logger.warn({ printer, err: messageOf(error) }, 'the print queue met an error; it tries again'),
  );
  printing.queue?.on('job', (job) => {
    const fields = { job: job.id, subject: job.subject, printer: job.printer, attempts: job.attempts };
    if (job.state === 'printed') logger.info(fields, 'receipt printed');
    else if (job.state === 'failed')
      logger.error({ ...fields, error: job.lastError }, 'receipt not printed; reprint it when the printer is back');
    else if (job.state === 'queued' && job.lastError !== null)
      logger.warn({ ...fields, error: job.lastError, next: job.nextAttemptAt }, 'receipt waiting for the printer');
  });
  return printing;
}

/** The certificate and key of `pos.tls`, read at start (a missing file stops the start with its name). */
function readTls(settings: AgentSettings): { key: Buffer; cert: Buffer } | undefined {
  const tls = settings.pos.tls;
  if (tls === undefined) return undefined;
  const read = (field: 'cert_file' | 'key_file'): Buffer => {
    try {
      return readFileSync(tls[field]);
    } catch (error) {
      throw new SettingsError(
        [
          settingsViolation(
            `pos.tls.${field}`,
            'FILE_UNREADABLE',
            `cannot be read (${(error as Error).message})`,
            'O arquivo do certificado TLS do Pinbridge não pôde ser lido. Chame o suporte técnico.',
          ),
        ],
        settings.path ?? '(settings)',
      );
    }
  };
  return { cert: read('cert_file'), key: read('key_file') };
}

/** How a secret is kept, and whether one is: an unreadable or too open file is not usable, so not "stored" (the doctor says why). */
function secretState(store: TokenStore): { kind: TokenStore['kind']; stored: boolean } {
  let stored: boolean;
  try {
    stored = store.read() !== undefined;
  } catch {
    stored = false;
  }
  return { kind: store.kind, stored };
}

/**
 * Keeps a secret from the window, unless its environment variable gives it: that one wins at every
 * start, so storing another would change nothing (the window is told which variable to change).
 */
function keepSecret(store: TokenStore, secret: SecretKind, value: string, what: NotSaved): SecretStored {
  if (store.kind === 'environment') return { stored: false, fromEnvironment: secret.envVar };
  savedOrSaid(() => store.write(value), what);
  return { stored: true };
}

/** The supervisor's PIN (its sealed hash file) under the settings' policy; training also takes its own PIN. */
function storeSupervisor(
  settings: AgentSettings,
  options: Pick<AgentOptions, 'home' | 'logger'>,
  training: boolean,
  integrity: IntegrityKey,
  audit: AuditLog,
): SupervisorGuard {
  const pin = new SupervisorPin(supervisorPinPath(options.home), {
    training,
    integrity,
    audit,
    logger: options.logger,
  });
  // Read once now, not at the first void: a file from before seals is sealed at the start that made
  // the key (later it would be taken for tampering), and a tampered file is reported at start.
  try {
    pin.tampered();
  } catch (error) {
    options.logger.warn({ err: messageOf(error) }, 'the supervisor PIN file cannot be read');
  }
  return supervisorGuard(pin, settings.supervisor);
}

/** A support bundle refused as the window is told: the reason, the English and the pt-BR. */
function bundleRefusal(error: unknown, refusal: typeof SupportBundleRefusal): unknown {
  if (!(error instanceof refusal)) return error;
  return new PosError(
    error.reason === 'BUNDLE_UNKNOWN' ? 'NOT_FOUND' : 'INVALID_STATE',
    error.message,
    { reason: error.reason },
    error.cashierMessage,
  );
}

const isJsonObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The remote settings as the window shows them (operator.settings' remote); null when none are configured. */
function remoteView(remote: RemoteSettingsInUse | undefined): RemoteSettingsView | null {
  if (remote === undefined) return null;
  const status = remote.status();
  if (!status.configured) return null;
  const document = remote.document;
  return {
    url: status.url ?? '',
    key: status.key,
    version: document?.version ?? null,
    document_url: document?.url ?? null,
    trial: document?.trial ?? false,
    governed:
      document === null
        ? {}
        : Object.fromEntries(document.governed.map((field) => [field, valueAt(document.settings, field)])),
    pending_version: status.pending?.version ?? null,
    last_check:
      status.last_check === null
        ? null
        : { at: status.last_check.at, outcome: status.last_check.outcome, message: status.last_check.message },
    last_refusal: status.last_refusal,
  };
}

function valueAt(json: Json, path: string): unknown {
  let value: unknown = json;
  for (const key of path.split('.')) value = isJsonObject(value) ? value[key] : undefined;
  return value;
}

/** The window's settings, token and diagnostics, over the files this agent was started with. */
function operatorServices(
  options: AgentOptions,
  running: {
    readonly pinpadLink: PinpadLink;
    readonly posPort: () => number | undefined;
    readonly disk: () => DiskStatus | undefined;
    readonly traces: TraceFolder;
    /** The desktop app's updates as its shell reports them; undefined headless (updates off). */
    readonly updates: () => UpdateState | undefined;
  },
): OperatorServices {
  const path = options.settings.path ?? defaultSettingsPath(options.home);
  const tokens = options.tokens ?? headlessTokenStore(apiTokenPath(options.home), process.env);
  const passphrases =
    options.passphrases ??
    headlessTokenStore(certificatePassphrasePath(options.home), process.env, CERTIFICATE_PASSPHRASE);
  const problem = options.settingsProblem;
  const restart = options.restart;
  const doctor: OperatorServices['doctor'] = async () => {
    // The support checks are the window's to ask for, now and then: loaded when asked.
    const [{ doctorTarget }, { runDoctor }] = await Promise.all([
      import('../doctor/payments-api.js'),
      import('../doctor/runner.js'),
    ]);
    const target = doctorTarget(options.api);
    // The doctor of a running agent: the port it listens on (not the settings' or the default
    // one) and its own PINPAD's link (the port is held by this agent: opening it again would fail).
    const posPort = running.posPort();
    const link = running.pinpadLink.status;
    // Only what a shell reported: an agent nobody updates has nothing to add to its settings.
    const reported = running.updates();
    const updateState = reported?.enabled === true ? reported : undefined;
    const report = await runDoctor({
      // No file yet: the doctor looks for the default one (the defaults apply), as the agent did at start.
      ...(options.settings.path === null ? {} : { settingsPath: path }),
      ...(posPort === undefined ? {} : { posPorts: [posPort], posPortsSource: 'in-use' as const }),
      pinpadLink: {
        address: link.address,
        state: link.state,
        code: link.code,
        error: link.error,
        ...pinpadLinkSentence(link),
      },
      ...(options.home === undefined ? {} : { home: options.home }),
      ...(target === undefined ? {} : { api: target }),
      disk: runningDiskReport(running.disk(), logFileOf(options.logger)),
      ...(updateState === undefined ? {} : { updates: updateState }),
    });
    return { ok: report.ok, checks: report.checks.map((check) => ({ ...check, details: { ...check.details } })) };
  };
  const bundleOptions: SupportBundlesOptions = {
    dir: supportBundlesDir(options.home),
    ...(options.home === undefined ? {} : { home: options.home }),
    settingsPath: path,
    // The agent's own log, its rotated half and the audit trail: never a whole folder, which a
    // log file placed elsewhere (a test's home) would make anything.
    logFiles: () =>
      options.logFile === undefined
        ? [auditLogPath(options.home)]
        : [options.logFile, `${options.logFile}.1`, auditLogPath(options.home)],
    unwrittenLogLines: () =>
      logFileOf(options.logger)?.failure === undefined ? [] : logFileOf(options.logger)!.unwritten(),
    traces: running.traces,
    doctor,
    uploadUrl: options.settings.support.upload_url,
    logger: options.logger,
  };
  // The bundle's modules (the masking, the scanner and its test cards, tar, upload) load when the
  // window first asks, as the doctor's do: an idle agent holds none of them.
  let bundles: SupportBundles | undefined;
  const support = async (): Promise<{ bundles: SupportBundles; refusal: (error: unknown) => unknown }> => {
    const { SupportBundles, SupportBundleRefusal } = await import('./support-bundles.js');
    bundles ??= new SupportBundles(bundleOptions);
    return { bundles, refusal: (error) => bundleRefusal(error, SupportBundleRefusal) };
  };
  return {
    readSettings: () => ({
      path,
      json: readSettingsJson(path) ?? null,
      problem: problem === undefined ? null : { message: problem.message, violations: problem.violations },
      notApplied: options.notApplied ?? null,
      remote: remoteView(options.remote),
    }),
    saveSettings: (submitted) => {
      try {
        let json = submitted;
        const governing = options.remote?.document;
        // A field the chain's document sets stays as the local file has it: the window cannot change it.
        if (governing != null && isJsonObject(submitted)) {
          const local = readSettingsJson(path);
          const guarded = guardGoverned(submitted, isJsonObject(local) ? local : {}, governing);
          if (guarded.violations.length > 0) return { saved: false, violations: guarded.violations };
          json = guarded.json;
          // The file must also make valid settings with the document over it, as the next start reads them.
          parseSettings(mergeSettings(guarded.json, governing.settings), path);
        }
        saveSettings(path, json);
        return { saved: true };
      } catch (error) {
        if (error instanceof SettingsError) return { saved: false, violations: error.violations };
        throw notSaved(error, SETTINGS_NOT_SAVED);
      }
    },
    apiToken: () => secretState(tokens),
    setApiToken: (token) => keepSecret(tokens, API_TOKEN, token, TOKEN_NOT_SAVED),
    certificatePassphrase: () => secretState(passphrases),
    setCertificatePassphrase: (passphrase) =>
      keepSecret(passphrases, CERTIFICATE_PASSPHRASE, passphrase, PASSPHRASE_NOT_SAVED),
    // Shortly after: the window's answer goes out before its connection closes with the agent.
    ...(restart === undefined ? {} : { restart: () => void setTimeout(restart, RESTART_DELAY_MS) }),
    doctor,
    supportBundle: async () => {
      const { bundles, refusal } = await support();
      try {
        return await bundles.make();
      } catch (error) {
        throw refusal(error);
      }
    },
    sendSupportBundle: async (id) => {
      const { bundles, refusal } = await support();
      try {
        return await bundles.send(id);
      } catch (error) {
        throw refusal(error);
      }
    },
    exportLogs: (maxLines) => {
      if (options.logFile === undefined) return { file: null, text: '', lines: 0, masked: 0, not_written: null };
      const health = logFileOf(options.logger);
      const failure = health?.failure;
      if (failure === undefined) return { ...exportLogs(options.logFile, maxLines), not_written: null };
      // The file has stopped taking lines (a full disk): the ones it missed come from memory, after it.
      const missed = health!.unwritten();
      return {
        ...exportLogs(options.logFile, maxLines, missed),
        not_written: {
          code: failure.code,
          message: failure.message,
          since: failure.since,
          unwritten: failure.unwritten,
        },
      };
    },
    scanBle: async (seconds) =>
      (
        await scanBlePinpads({
          noble: (options.noble ?? (() => createNoble()))(),
          ownsNoble: true,
          durationMs: seconds * 1000,
        })
      ).map((device) => ({
        address: `ble:${device.id}`,
        name: device.name ?? null,
        rssi: device.rssi,
      })),
    systemPrinters: async () =>
      (await (options.listSystemPrinters ?? (() => listSystemPrinters()))()).map((printer) => ({
        address: `lp://${printer.name}`,
        name: printer.name,
        is_default: printer.isDefault,
      })),
    detectPinpads: async () =>
      (await listSerialPinpads()).map((port) => ({
        address: port.address,
        maker: port.maker ?? null,
        model: port.model ?? null,
        manufacturer: port.manufacturer ?? null,
        likely_pinpad: port.likelyPinpad,
      })),
  };
}

/** The POS API's ports are all taken: a sentence for the person who started it, with the fix. */
export class PosPortInUseError extends CodedError<'POS_PORT_IN_USE'> {
  constructor(
    readonly ports: readonly number[],
    options: { cause?: unknown } = {},
  ) {
    const which = ports.length === 1 ? `port ${ports[0]}` : `ports ${ports.join(', ')}`;
    super(
      'POS_PORT_IN_USE',
      `another Pinbridge (or another program) is already using ${which} for the POS API: stop it, or give this one another port with --pos-port <port> (or the settings' pos.ports, the same the POS connects to); ` +
        `\`pinbridge doctor --pos-port ${ports[0] ?? 0}\` tells whether it is a Pinbridge`,
      options,
    );
  }
}

/** PosServer.start, with "address already in use" on every port said as PosPortInUseError. */
async function startPosServer(
  ports: readonly number[] | undefined,
  options: Parameters<typeof PosServer.start>[0],
): Promise<PosServer> {
  try {
    return await PosServer.start(options);
  } catch (error) {
    const cause = error instanceof Error ? (error.cause as NodeJS.ErrnoException | undefined) : undefined;
    if (cause?.code === 'EADDRINUSE') throw new PosPortInUseError(ports ?? DEFAULT_PORTS, { cause: error });
    throw error;
  }
}

export class Agent extends EventEmitter<AgentEvents> {
  readonly stack: PaymentStack;
  readonly pinpads: PinpadRegistry;
  readonly apiHealth: ApiHealthMonitor;
  readonly printing: ReceiptPrinting | undefined;
  readonly clients: ClientStore;
  readonly pos: PosServer;
  /** Security events (pairing, blocks, supervisor, tampering, disk), apart from the log. */
  readonly audit: AuditLog;
  /** Whether the disk takes the agent's writes (issue 33): the window's banner, the PINPAD's idle text. */
  readonly disk: DiskWatch;
  /**
   * The desktop app's updates, as the shell reports them (main/app/updates.ts): the window shows
   * what is pending. Stays "off" where no shell checks (headless).
   */
  readonly updates: UpdateStatus;
  /** The key of Pinbridge's own window (session.operator). */
  readonly operatorKey: string;
  readonly metrics: AgentMetrics | undefined;
  readonly #metricsServer: MetricsServer | undefined;
  readonly #telemetry: AgentTelemetry | undefined;
  /** Settles when the PINPAD first answers; rejects if the agent stops before. */
  readonly ready: Promise<AgentReady>;
  /**
   * Settles once the agent serves and its PINPAD answered or failed the first time (at most
   * STARTED_GRACE_MS after the start): the ready line. Rejects if the agent stops before.
   */
  readonly started: Promise<AgentStarted>;
  readonly #logger: Logger;
  readonly #stop = new AbortController();
  readonly #watcher: HotplugWatcher;
  readonly #keeper: PinpadKeeper;
  readonly #pinpadLoop: Promise<void>;
  #stopped: Promise<void> | undefined;
  /** The PINPAD's disk-full text, shown again after a sale's result. */
  #diskText: NodeJS.Timeout | undefined;

  /** The link to the PINPAD: its state while there is none, followed by the window and the POS API (the registry's). */
  get pinpadLink(): PinpadLink {
    return this.pinpads.link;
  }

  /**
   * What keeps a sale going now: the PINPADs running a payment or waiting for the customer (what
   * operator.restart refuses on), and approvals the POS has yet to confirm. An update installs in
   * its maintenance window only when there is none (main/updates/policy.ts).
   */
  saleActivity(): SaleActivity {
    return {
      busyPinpads: this.pinpads
        .list()
        .filter((pinpad) => pinpad.busy)
        .map((pinpad) => pinpad.serialNumber),
      awaitingConfirmation: this.stack.engine.pending().confirmations.length,
    };
  }

  private constructor(parts: {
    options: AgentOptions;
    stack: PaymentStack;
    apiHealth: ApiHealthMonitor;
    printing: ReceiptPrinting | undefined;
    pinpads: PinpadRegistry;
    clients: ClientStore;
    pos: PosServer;
    audit: AuditLog;
    integrity: IntegrityKey;
    disk: DiskWatch;
    updates: UpdateStatus;
    watcher: HotplugWatcher;
    recovered: AgentReady['recovered'];
    operatorKey: string;
    metrics: AgentMetrics | undefined;
    metricsServer: MetricsServer | undefined;
    telemetry: AgentTelemetry | undefined;
    traces: TraceFolder;
  }) {
    super();
    const { options, stack, printing, pos } = parts;
    this.stack = stack;
    this.apiHealth = parts.apiHealth;
    this.printing = printing;
    this.pinpads = parts.pinpads;
    this.clients = parts.clients;
    this.pos = pos;
    this.audit = parts.audit;
    this.disk = parts.disk;
    this.updates = parts.updates;
    this.#watcher = parts.watcher;
    this.#logger = options.logger;
    this.operatorKey = parts.operatorKey;
    this.metrics = parts.metrics;
    this.#metricsServer = parts.metricsServer;
    this.#telemetry = parts.telemetry;
    const address = options.pinpadAddress;
    const report = (): Omit<AgentReady, 'pinpad'> => ({
      mode: stack.training ? 'training' : 'live',
      journal: stack.journalPath,
      recovered: parts.recovered,
      printers: printing ? [...printing.printers.keys()] : [],
      pos: { ws: pos.url, demo: pos.demoUrl },
      ui: pos.uiUrl(parts.operatorKey),
      pairing: pos.pairingUrl(parts.operatorKey),
      ...(parts.metricsServer ? { metrics: parts.metricsServer.url } : {}),
      ...(stack.sandbox
        ? {
            sandbox: {
              url: stack.sandbox.url,
              marketplace_id: stack.sandbox.marketplaceId,
              seller_id: stack.sandbox.sellerId,
              token: stack.sandbox.token,
            },
          }
        : {}),
    });
    let resolveReady: (ready: AgentReady) => void = () => {};
    let resolveStarted: (started: AgentStarted) => void = () => {};
    let abandon: (error: Error) => void = () => {};
    let abandonStarted: (error: Error) => void = () => {};
    this.ready = new Promise<AgentReady>((resolve, reject) => {
      resolveReady = resolve;
      abandon = reject;
    });
    this.started = new Promise<AgentStarted>((resolve, reject) => {
      resolveStarted = resolve;
      abandonStarted = reject;
    });
    // A stop before the PINPAD answered is not an error anyone must handle.
    this.ready.catch(() => {});
    this.started.catch(() => {});
    const announce = (info: PinpadInfo): void => {
      const ready: AgentReady = {
        ...report(),
        pinpad: {
          port: address,
          state: 'ready',
          manufacturer: info.manufacturer,
          model: info.model,
          serial_number: info.serialNumber,
        },
      };
      resolveReady(ready);
      clearTimeout(grace);
      resolveStarted(ready);
    };
    const startedWithout = (status: PinpadLinkStatus): void => {
      if (status.state === 'ready') return;
      clearTimeout(grace);
      resolveStarted({
        ...report(),
        pinpad: {
          port: address,
          state: status.state,
          code: status.code,
          error: status.error,
          ...pinpadLinkSentence(status),
        },
      });
    };
    const grace = setTimeout(() => startedWithout(this.pinpadLink.status), options.startedGraceMs ?? STARTED_GRACE_MS);
    grace.unref();
    // The tables file is read once per start (a restart from the window reads it again).
    const { tablesFromProvider, ...saleOptions } = pinpadSaleOptionsOf(options.settings);
    if (saleOptions.tables instanceof Error)
      options.logger.error(
        { code: saleOptions.tables.code, reason: saleOptions.tables.message },
        'the EMV tables file cannot be used; sales will be refused',
      );
    // One cache per PINPAD beside the journal (so training keeps its own).
    const tablesFrom = tablesFromProvider
      ? (serial: string) =>
          new ProviderTables({
            channel: stack.client.terminal,
            serial,
            cacheFile: providerTablesCacheFile(stack.journalPath, serial),
            integrity: parts.integrity,
            audit: parts.audit,
            logger: options.logger,
          })
      : undefined;
    this.#keeper = new PinpadKeeper(
      address,
      stack.training,
      options.logger,
      {
        connected: async (connection) => {
          await this.pinpads.attach(connection.pinpad, address, {
            timeouts: options.settings.sale,
            ...saleOptions,
            ...(tablesFrom ? { tablesFrom } : {}),
            logger: options.logger,
          });
        },
        lost: (info) => this.pinpads.detach(info.serialNumber),
        ready: announce,
        // The keeper writes the link into the registry (pinpadLink) before telling.
        status: startedWithout,
      },
      {
        ...options.reconnect,
        ...(options.simulatedCustomerDelayMs === undefined
          ? {}
          : { simulatedCustomerDelayMs: options.simulatedCustomerDelayMs }),
        link: this.pinpadLink,
        idleText: () => idleText(stack.training, this.disk.status.salesRefused),
        traces: parts.traces,
        simulatorCounters: fileCounterStore(simulatorCountersPath(options.home), (error) =>
          options.logger.warn(
            { error: error.message },
            "cannot keep the simulated PINPAD's DUKPT counters on disk; they go on in memory",
          ),
        ),
      },
    );
    this.#pinpadLoop = this.#keeper.run(this.#stop.signal).finally(() => {
      clearTimeout(grace);
      abandon(new Error('the agent stopped before its PINPAD answered'));
      abandonStarted(new Error('the agent stopped before it was ready'));
    });
    this.#watchPorts(options.logger, address);
    this.#showDiskOnPinpad(stack.training);
  }

  /**
   * The idle PINPAD says why no sale starts while the journal's disk has no room for one, and that
   * the checkout is free again once it has (issue 33): at each change, and after a sale that ran
   * meanwhile, once its result has been seen. The keeper shows the same when the PINPAD (re)opens.
   */
  #showDiskOnPinpad(training: boolean): void {
    let shown = this.disk.status.salesRefused;
    const show = (): void => {
      try {
        void this.pinpads.display(undefined, idleText(training, this.disk.status.salesRefused)).catch(() => undefined);
      } catch {
        // No PINPAD attached now: the keeper shows the text when one is.
      }
    };
    this.disk.on('change', (status) => {
      if (status.salesRefused === shown) return;
      shown = status.salesRefused;
      show();
    });
    this.pinpads.on('busy', (entry) => {
      if (entry.busy || !this.disk.status.salesRefused) return;
      clearTimeout(this.#diskText);
      this.#diskText = setTimeout(() => {
        if (this.disk.status.salesRefused) show();
      }, RESULT_SHOWN_MS);
      this.#diskText.unref();
    });
  }

  /**
   * What the hot-plug watcher sees: ports coming and going (logged), the PINPAD's port appearing
   * (tried at once), listing failing (logged once until it works again; the PINPAD is tried then,
   * since what changed is not known), no device events here (logged once).
   */
  #watchPorts(logger: Logger, address: string): void {
    const watcher = this.#watcher;
    // A serial port (not sim, tcp://, ble:): what hot-plug can tell about.
    const serial = isPortOf(address, address);
    const listing = new LoggedCondition(logger);
    watcher.on('attached', (port) => {
      logger.info({ port }, 'serial port attached');
      if (serial && isPortOf(address, port.address)) this.#keeper.retryNow();
    });
    watcher.on('detached', (port) => logger.info({ port }, 'serial port detached'));
    watcher.on('error', (error) => {
      listing.holds(
        codeOf(error) ?? error.message,
        { err: messageOf(error) },
        'cannot list serial ports; trying again when a device comes or goes',
      );
      if (serial) this.#keeper.retryNow();
    });
    watcher.on('listed', (ports) => {
      if (listing.ended({}, 'serial ports listed again') && serial) this.#keeper.retryNow();
      // A PINPAD pulled and plugged back faster than one listing shows no `detached`/`attached`
      // pair: its port is simply still there. Seen in a listing while the keeper has no PINPAD, it
      // is tried at once (retryNow does nothing while it is ready) instead of at the end of the
      // backoff, which after a disconnection may be a minute away.
      else if (serial && ports.some((port) => isPortOf(address, port.address))) this.#keeper.retryNow();
    });
    watcher.on('fallback', (error, pollMs) =>
      logger.warn(
        { err: error.message, pollMs },
        'no device events on this system: the serial ports are listed on a timer instead',
      ),
    );
  }

  get training(): boolean {
    return this.stack.training;
  }

  static async start(options: AgentOptions): Promise<Agent> {
    const { settings, logger } = options;
    const tls = readTls(settings);
    const audit = options.audit ?? new AuditLog(auditLogPath(options.home));
    const integrity =
      options.integrity ??
      fileIntegrityKey(integrityKeyPath(options.home), (problem) => logger.warn({ problem }, 'integrity key'));
    const metricsSettings = resolveMetricsSettings(settings.metrics);
    const telemetrySettings = resolveTelemetrySettings(settings.telemetry, settings.fleet);
    const apiHealth = new ApiHealthMonitor();
    // Made before the engine it watches: API attempts reach it once it exists.
    let metrics: AgentMetrics | undefined;
    const stack = await openPaymentStack({
      api: options.api,
      ...(options.journalPath === undefined ? {} : { journalPath: options.journalPath }),
      ...(options.home === undefined ? {} : { home: options.home }),
      config: settings.engine,
      logger,
      onAttempt: (attempt) => {
        apiHealth.record(attempt);
        metrics?.recordApiAttempt(attempt);
        options.onApiAttempt?.(attempt);
      },
    });
    const { engine, training } = stack;
    apiHealth.on('change', (health) =>
      (health.state === 'down' ? logger.warn.bind(logger) : logger.info.bind(logger))(
        { state: health.state, error: health.lastError },
        'payments API health',
      ),
    );
    logger.info(
      {
        mode: training ? 'training' : 'live',
        port: options.pinpadAddress,
        journal: stack.journalPath,
        settings: settings.path,
      },
      'Pinbridge starting',
    );
    audit.record({ kind: 'agent.started', mode: training ? 'training' : 'live', version: VERSION });
    let printing: ReceiptPrinting | undefined;
    let clients: ClientStore | undefined;
    let pos: PosServer | undefined;
    let metricsServer: MetricsServer | undefined;
    let telemetry: AgentTelemetry | undefined;
    let disk: DiskWatch | undefined;
    const watcher = new HotplugWatcher(options.hotplug);
    // The one owner of PINPAD state, the link to the agent's PINPAD included (see registry.ts).
    const pinpads = new PinpadRegistry(engine, { address: options.pinpadAddress });
    const pinpadLink = pinpads.link;
    // The PINPAD's exchanges, masked, for support bundles; never written while the journal needs the disk.
    const traces = new TraceFolder(tracesDir(options.home), {
      writable: () => disk?.status.salesRefused !== true,
      problem: (error) =>
        error === null
          ? logger.info({}, 'PINPAD traces are written again')
          : logger.warn(
              { code: error.code, err: error.message },
              'the PINPAD trace could not be written; it is kept in memory and tried again',
            ),
    });
    try {
      printing = startReceiptPrinting(stack.journal, settings, training, logger, options.systemPrinter);
      // Before recovery: a start on a full disk is recorded and shown as one (issue 33).
      disk = new DiskWatch({
        journal: stack.journal,
        audit,
        logger,
        logFile: logFileOf(logger),
        printQueue: printing?.queue,
      });
      disk.start();
      const watching = disk;
      if (stack.journal.held)
        logger.error(
          { journal: stack.journal.path },
          'the journal was opened on a full disk: it is read, not written, until there is room; new sales are refused (DISK_FULL)',
        );
      const receipts = printing?.service;
      engine.on('progress', (event) =>
        receipts?.onProgress(event, (error) =>
          logger.warn({ payment: event.paymentId, err: messageOf(error) }, 'receipt not printed'),
        ),
      );
      // Whatever a crash left in flight is finished or undone before the first sale.
      const recovered = await engine.recover();
      logger.info({ ...recovered }, 'journal recovered');
      clients = ClientStore.open(clientsPath(options.home));
      const operatorKey = loadOperatorKey(operatorKeyPath(options.home), (error) => {
        logger.warn(
          { err: error.message },
          "the window's key could not be saved: it works until Pinbridge stops, then a new one is made",
        );
        watching.report(error, 'other', operatorKeyPath(options.home));
      });
      const updates = new UpdateStatus();
      // Training's embedded sandbox plays the customer's bank for a practice Pix. Imported here,
      // as the sandbox is: a live agent loads none of it (idle-modules.test.ts).
      const practicePix =
        stack.sandbox === undefined
          ? undefined
          : (await import('./training-pix.js')).trainingPix({
              api: stack.client,
              sandbox: stack.sandbox,
              sellerId: stack.sellerId,
            });
      const emitter: { agent?: Agent } = {};
      let timeZone: string | undefined;
      const posPorts = options.posPorts ?? settings.pos.ports;
      pos = await startPosServer(posPorts, {
        agent: {
          version: VERSION,
          mode: training ? 'training' : 'live',
          // Read when the window first asks (operator.session): resolving the computer's zone loads
          // ICU's zone data, which an idle agent does without (store-time.ts).
          get timeZone() {
            return (timeZone ??= storeTimeZone(settings.receipts?.time_zone));
          },
          engine,
          pinpads,
          pinpadLink,
          receipts,
          printers: printing?.printers ?? new Map(),
          printQueue: printing?.queue,
          api: stack.client,
          sellerId: stack.sellerId,
          ...(practicePix === undefined ? {} : { trainingPix: practicePix }),
          apiHealth,
          clients,
          sharePayments: settings.pos.share_payments === true,
          supervisor: storeSupervisor(settings, options, training, integrity, audit),
          disk: watching,
          updates,
          operator: operatorServices(options, {
            pinpadLink,
            posPort: () => pos?.port,
            disk: () => disk?.status,
            traces,
            updates: () => updates.state,
          }),
        },
        logger,
        audit,
        ...(posPorts === undefined ? {} : { ports: posPorts }),
        ...(tls === undefined ? {} : { tls }),
        announcePairing: (pairing) => emitter.agent?.emit('pairing', pairing),
        announcePixOnScreen: (shown) => emitter.agent?.emit('pixOnScreen', shown),
        operatorKey,
      });
      if (metricsSettings.enabled || telemetrySettings.enabled) {
        // prom-client loads only where metrics are served or pushed.
        const { AgentMetrics } = await import('../metrics/metrics.js');
        const server = pos;
        metrics = new AgentMetrics({
          engine,
          pinpads,
          apiHealth,
          printQueue: printing?.queue,
          posSessions: () => server.sessions,
          disk: () => stack.journal.room(),
          certificates: heldCertificates(stack.clientCertificate, tls?.cert, logger),
          mode: training ? 'training' : 'live',
          version: VERSION,
          logger,
        });
        if (metricsSettings.enabled) {
          const { MetricsServer } = await import('../metrics/server.js');
          metricsServer = await MetricsServer.start({
            metrics,
            host: metricsSettings.host,
            port: metricsSettings.port,
            logger,
          });
        }
        if (telemetrySettings.enabled) {
          // Metrics by remote write, traces and logs by OTLP: beside the payments, never in their way.
          const { startAgentTelemetry } = await import('./telemetry-start.js');
          telemetry = await startAgentTelemetry({
            settings: telemetrySettings,
            registry: metrics.registry,
            engine,
            logger,
            training,
            home: options.home,
          });
        }
      }
      const agent = new Agent({
        options,
        stack,
        apiHealth,
        printing,
        pinpads,
        clients,
        pos,
        audit,
        integrity,
        disk,
        updates,
        watcher,
        recovered,
        operatorKey,
        metrics,
        metricsServer,
        telemetry,
        traces,
      });
      emitter.agent = agent;
      // The first listing failing is reported through the watcher's `error` event.
      void watcher.start().then(() => {
        if (watcher.isRunning) logger.info({ events: watcher.mode }, 'watching for serial ports coming and going');
      });
      return agent;
    } catch (error) {
      watcher.stop();
      disk?.stop();
      await telemetry?.stop();
      await metricsServer?.close();
      metrics?.close();
      await pos?.close();
      clients?.close();
      await printing?.close();
      await stack.close();
      if (options.audit === undefined) audit.close();
      throw error;
    }
  }

  /** Stops everything (idempotent): the POS API first, so no new sale starts, the PINPAD last. */
  stop(): Promise<void> {
    this.#stopped ??= this.#shutdown();
    return this.#stopped;
  }

  async #shutdown(): Promise<void> {
    this.#watcher.stop();
    this.disk.stop();
    clearTimeout(this.#diskText);
    await this.pos.close();
    await this.#telemetry?.stop();
    await this.#metricsServer?.close();
    this.metrics?.close();
    this.#stop.abort();
    await this.#pinpadLoop;
    this.clients.close();
    await this.printing?.close();
    await this.stack.close();
    this.audit.close();
    this.#logger.info({}, 'Pinbridge stopped');
  }
}
