/**
 * `runDoctor`: every support check of `pinbridge doctor`, in plain Node (the CLI only parses
 * options and prints). The settings are loaded first — the printers and the POS ports come from
 * them — then the other checks run side by side, each within its own time limit, so the whole
 * report takes about one time limit, not seven.
 */
import { userInfo } from 'node:os';
import type { DriverLogger } from '../../drivers/log.js';
import type { ListPorts } from '../../drivers/transports/discovery.js';
import {
  bilingual,
  CHECK_IDS,
  checkResult,
  messageOf,
  type CheckId,
  type CheckResult,
  type DoctorReport,
} from './check.js';
import { checkClientCertificate } from './client-certificate.js';
import { checkDisk, type RunningDiskReport } from './disk.js';
import { checkPaymentsApi, type PaymentsApiTarget } from './payments-api.js';
import { checkPinpads, type PinpadLinkReport } from './pinpads.js';
import { checkPosPorts } from './pos-ports.js';
import { checkPrinters } from './printers.js';
import { checkSerialPermissions, type UserIdentity } from './serial-permissions.js';
import { checkSettings } from './settings.js';
import { checkRemoteSettings } from './remote-settings.js';
import { checkUpdates } from './updates.js';
import type { UpdateState } from '../pos/server/agent.js';
import { pinpadSaleOptionsOf, readSettingsJson, type AgentSettings } from '../settings/settings-file.js';
import { defaultDataDir, defaultJournalPath, trainingJournalPath } from '../paths.js';
import { providerTablesCacheFile, readCachedTables } from '../pinpad/provider-tables.js';
import type { PinpadKeysSource } from './pinpad-keys.js';

export const DEFAULT_CHECK_TIMEOUT_MS = 5000;

export interface DoctorOptions {
  /** Time limit of each check's device and network work (default 5 s). */
  readonly timeoutMs?: number;
  /** The PINPAD to open and identify (`--port` syntax, or "sim"); without it the serial ports are only listed. */
  readonly pinpadAddress?: string;
  /**
   * Where `pinpadAddress` came from when not from `--port` (e.g. "PINBRIDGE_PINPAD"). Without an
   * address, the settings' `pinpad.address` is opened — even when the settings refuse it, so the
   * pinpads check says what is wrong with it too.
   */
  readonly pinpadAddressFrom?: string;
  /** A running agent's link to its own PINPAD (the window's doctor): reported instead of opening the port it holds. */
  readonly pinpadLink?: PinpadLinkReport;
  /** A running agent's disk and log file as it sees them (the window's doctor). */
  readonly disk?: RunningDiskReport;
  /** What the running desktop app reports of its updates (the window's doctor). */
  readonly updates?: UpdateState;
  /** The POS API ports to check instead of the settings' (`--pos-port`; the window's doctor: the port the agent listens on). */
  readonly posPorts?: readonly number[];
  /** Where `posPorts` came from (default "option"). */
  readonly posPortsSource?: 'option' | 'in-use';
  /** `--settings`; default ~/.pinbridge/settings.json when it exists. */
  readonly settingsPath?: string;
  /** Home folder of the default settings file (default the user's). */
  readonly home?: string;
  /** The real payments API; undefined: training mode (the check is skipped). */
  readonly api?: PaymentsApiTarget;
  /** Why the API the settings name cannot be used (no token stored…): the payments check fails with it. */
  readonly apiProblem?: string;
  /**
   * Probe the API for Idempotency-Key and the reference_id filter (creates and cancels test
   * transactions: a sandbox or homologation API only; never by default).
   */
  readonly probeCapabilities?: boolean;
  /** Default process.platform. */
  readonly platform?: NodeJS.Platform;
  /** Root the serial-permissions check reads /etc and /dev under (default "/"). */
  readonly rootDir?: string;
  /** The user the serial-permissions check judges (default the running process). */
  readonly identity?: UserIdentity;
  /** Lists the serial ports (default serialport's list). */
  readonly listPorts?: ListPorts;
  readonly logger?: DriverLogger;
}

function currentUsername(): string {
  try {
    return userInfo().username;
  } catch {
    return '$USER';
  }
}

/** A check that threw instead of reporting is a failure of its own, not of the whole run. */
async function guarded(id: CheckId, run: () => Promise<CheckResult>): Promise<CheckResult> {
  try {
    return await run();
  } catch (error) {
    return checkResult({
      id,
      status: 'fail',
      summary: bilingual(
        `The check itself failed: ${messageOf(error)}`,
        `A própria verificação falhou: ${messageOf(error)}`,
      ),
      details: { error: messageOf(error) },
      fix: bilingual(
        'Run `pinbridge doctor --json` and send its output to Pinbridge support.',
        'Execute `pinbridge doctor --json` e envie o que ele mostrar ao suporte do Pinbridge.',
      ),
    });
  }
}

/** The PINPAD the pinpads check opens (or the running agent's link it reports), and where its address came from. */
function pinpadToOpen(
  options: DoctorOptions,
  fromSettings: string | undefined,
  settingsPath: string,
): { address?: string; addressFrom?: string; link?: PinpadLinkReport } {
  if (options.pinpadAddress !== undefined) {
    return {
      address: options.pinpadAddress,
      ...(options.pinpadAddressFrom === undefined ? {} : { addressFrom: options.pinpadAddressFrom }),
    };
  }
  if (options.pinpadLink !== undefined) return { link: options.pinpadLink };
  return fromSettings === undefined ? {} : { address: fromSettings, addressFrom: `pinpad.address in ${settingsPath}` };
}

/** `pinpad.address` as the file has it, when the file does not load (a refused address is then still named and checked). */
function rawPinpadAddress(path: string): string | undefined {
  try {
    const json = readSettingsJson(path);
    const pinpad = (json as { pinpad?: { address?: unknown } } | undefined)?.pinpad;
    return typeof pinpad?.address === 'string' ? pinpad.address : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Where the sales' key methods come from, as `pinbridge start` would read them: the tables file,
 * or the provider's tables cached beside the journal (training's when there is no API), and the
 * settings' DUKPT slots.
 */
function keysSource(settings: AgentSettings | undefined, options: DoctorOptions): PinpadKeysSource {
  if (settings === undefined) return {};
  const { tables, keySlots, tablesFromProvider } = pinpadSaleOptionsOf(settings);
  const journalPath = options.api === undefined ? trainingJournalPath(options.home) : defaultJournalPath(options.home);
  return {
    ...(tables !== undefined ? { tables } : {}),
    ...(keySlots !== undefined ? { keySlots } : {}),
    ...(tablesFromProvider
      ? { providerTables: (serial: string) => readCachedTables(providerTablesCacheFile(journalPath, serial)) }
      : {}),
  };
}

export async function runDoctor(options: DoctorOptions = {}): Promise<DoctorReport> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS;
  const username = options.identity?.username ?? currentUsername();
  const loaded = checkSettings({
    ...(options.settingsPath === undefined ? {} : { settingsPath: options.settingsPath }),
    ...(options.home === undefined ? {} : { home: options.home }),
  });
  const { settings } = loaded;
  const pinpad = pinpadToOpen(options, settings?.pinpad?.address ?? rawPinpadAddress(loaded.path), loaded.path);
  const posPorts = options.posPorts ?? settings?.pos.ports;
  const results = await Promise.all([
    guarded('serial-permissions', () =>
      checkSerialPermissions({
        ...(options.platform === undefined ? {} : { platform: options.platform }),
        ...(options.rootDir === undefined ? {} : { rootDir: options.rootDir }),
        ...(options.identity === undefined ? {} : { identity: options.identity }),
      }),
    ),
    guarded('pinpads', () =>
      checkPinpads({
        timeoutMs,
        username,
        ...pinpad,
        ...(options.listPorts === undefined ? {} : { listPorts: options.listPorts }),
        ...(options.logger === undefined ? {} : { logger: options.logger }),
        ...(settings?.api?.capabilities?.terminal_channel === undefined
          ? {}
          : { terminalChannel: settings.api.capabilities.terminal_channel }),
        keys: keysSource(settings, options),
      }),
    ),
    guarded('printers', () =>
      checkPrinters({ printers: settings?.printers, settingsPath: loaded.path, timeoutMs, username }),
    ),
    guarded('payments-api', () =>
      checkPaymentsApi({
        api: options.api,
        timeoutMs,
        ...(options.apiProblem === undefined ? {} : { unusable: options.apiProblem }),
        ...(options.probeCapabilities === true ? { probeCapabilities: true } : {}),
      }),
    ),
    guarded('client-certificate', () =>
      Promise.resolve(
        checkClientCertificate({ certificate: options.api?.certificate, marketplaceId: options.api?.marketplaceId }),
      ),
    ),
    guarded('pos-ports', () =>
      checkPosPorts({
        ...(posPorts === undefined
          ? {}
          : {
              ports: posPorts,
              portsSource:
                options.posPorts === undefined ? ('settings' as const) : (options.posPortsSource ?? 'option'),
            }),
        tls: settings?.pos.tls !== undefined,
        settingsPath: loaded.path,
        timeoutMs,
        ...(options.platform === undefined ? {} : { platform: options.platform }),
      }),
    ),
    guarded('disk', () =>
      Promise.resolve(
        checkDisk({
          dataDir: defaultDataDir(options.home),
          ...(options.disk === undefined ? {} : { running: options.disk }),
        }),
      ),
    ),
    guarded('remote-settings', () =>
      Promise.resolve(
        checkRemoteSettings({
          section: settings === undefined ? undefined : settings.remoteSettings,
          ...(settings === undefined ? {} : { fleet: settings.fleet }),
          ...(options.home === undefined ? {} : { home: options.home }),
        }),
      ),
    ),
    guarded('updates', () =>
      Promise.resolve(
        checkUpdates({ settings, ...(options.updates === undefined ? {} : { running: options.updates }) }),
      ),
    ),
    Promise.resolve(loaded.result),
  ]);
  const checks = CHECK_IDS.map((id) => results.find((result) => result.id === id)!);
  return { checks, ok: checks.every((check) => check.status !== 'fail') };
}
