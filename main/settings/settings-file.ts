/**
 * The agent's settings file: `--settings FILE` / `--config FILE`, or `~/.pinbridge/settings.json`
 * when it exists; the window writes the same file. JSON, described by one schema
 * (`SettingsFile`, published as docs/settings.schema.json):
 * - the payment settings (PaymentSettings, main/core/settings.ts) at the top level;
 * - `api`: the payments API this checkout uses (its token is never in this file: see
 *   main/app/token-store.ts); `training`: training mode even with an API; `pinpad`: its address;
 * - `receipts`: the store as receipts print it (ReceiptSettings) and which copies print alone;
 * - `printers` (main/receipts/printers.ts), `pos` (main/pos/settings.ts), `metrics`
 *   (main/metrics/settings.ts), `telemetry` (pushed by remote write: main/telemetry/settings.ts), `updates` (update-settings.ts), `support` (support-settings.ts), `supervisor` (when a void needs
 *   the supervisor's PIN: supervisor-settings.ts; the PIN's hash is kept apart, supervisor-pin.ts),
 *   `remote_settings` (the signed document this agent follows: remote-settings-section.ts, main/remote-settings),
 *   `fleet` (this checkout's chain, store and checkout ids, read by telemetry, remote settings and
 *   updates alike: fleet-settings.ts).
 * The settings the window shows are declared in main/core/settings-fields.ts (schema, default,
 * the window's texts); each section's schema here names those declarations.
 * Anything wrong in it is reported with the file, the field and a sentence: the command line
 * stops before any payment starts; the desktop app starts with the defaults and shows it.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Type, type Static } from 'typebox';
import { readEmvTables, TablesFileError, type EmvTables } from '../pinpad/emv-tables.js';
import { schemaViolations } from '../contract/index.js';
import {
  PaymentSettings,
  resolveSettings,
  SettingsError,
  type ResolvedSettings,
  type SettingsViolation,
} from '../core/settings.js';
import { SETTINGS_FIELDS } from '../core/settings-fields.js';
import { fromSchemaViolation, settingsViolation } from '../core/settings-violations.js';
import { pinpadAddressProblem } from '../pinpad/connection.js';
import { MetricsSettings } from '../metrics/settings.js';
import { TelemetrySettings, telemetryViolations } from '../telemetry/settings.js';
import { UpdateSettings, updateViolations } from './update-settings.js';
import { SupportSettings, uploadUrlProblem } from './support-settings.js';
import { RemoteSettingsSection, remoteSectionProblems } from './remote-settings-section.js';
import { FleetSettings, movedPlaceIds } from './fleet-settings.js';
import { resolveSupervisorSettings, SupervisorSettings } from './supervisor-settings.js';
import type { SupervisorPolicy } from '../pos/server/supervisor.js';
import { PosSettings } from '../pos/settings.js';
import { RECEIPT_COPIES, type ReceiptCopy } from '../receipts/card-receipt.js';
import { printerViolations, PrintersSettings } from '../receipts/printers.js';
import { receiptSettingsViolations, ReceiptSettings } from '../receipts/settings.js';
import { defaultDataDir } from '../paths.js';

export const ApiSettings = Type.Object(
  {
    base_url: SETTINGS_FIELDS['api.base_url'].schema,
    marketplace_id: SETTINGS_FIELDS['api.marketplace_id'].schema,
    seller_id: SETTINGS_FIELDS['api.seller_id'].schema,
    auth_scheme: Type.Optional(
      Type.Union([Type.Literal('bearer'), Type.Literal('basic')], {
        description:
          'How the key is sent: "bearer" (the contract; GoPag) or "basic" (the Zoop API: the key as the HTTP Basic user name, an empty password). Default bearer.',
      }),
    ),
    client_certificate: Type.Optional(
      Type.Object(
        {
          cert: Type.Optional(
            Type.String({ minLength: 1, maxLength: 1000, description: 'PEM certificate file, with key.' }),
          ),
          key: Type.Optional(
            Type.String({ minLength: 1, maxLength: 1000, description: 'PEM private key file (unencrypted) of cert.' }),
          ),
          pfx: Type.Optional(
            Type.String({
              minLength: 1,
              maxLength: 1000,
              description:
                'PKCS#12 file (.pfx/.p12, as ICP-Brasil A1 certificates come) instead of cert and key; its passphrase is entered in the window (kept encrypted by the OS), or headless comes from PINBRIDGE_CERT_PASSPHRASE or ~/.pinbridge/cert-passphrase.',
            }),
          ),
        },
        {
          additionalProperties: false,
          description:
            "The client certificate every call presents (mutual TLS; GoPag requires an ICP-Brasil certificate whose serial number is the marketplace id). Paths relative to this settings file's folder. `pinbridge doctor` checks it.",
        },
      ),
    ),
    ca: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1000,
        description:
          "PEM file of CA certificates to trust for the API's server beside the public ones (a homologation server, a sandbox on HTTPS).",
      }),
    ),
    capabilities: Type.Optional(
      Type.Object(
        {
          idempotency_key: Type.Optional(
            Type.Boolean({
              description:
                'The provider answers a repeated POST carrying the same Idempotency-Key with the first result (default false: neither GoPag nor Zoop documents it). False: no key is sent and a creation whose outcome is unknown is never sent again; it is looked up instead. Set true only for a provider that documents it (`pinbridge doctor --probe-capabilities` tries it on a sandbox or homologation API).',
            }),
          ),
          find_by_reference: Type.Optional(
            Type.Boolean({
              description:
                "The provider's marketplace transaction list filters by reference_id (default false: undocumented). False: a creation whose outcome is unknown is found in the seller's list (GET …/sellers/{id}/transactions, the listing GoPag documents) by reference_id or metadata. Set true only for a provider that documents it (`pinbridge doctor --probe-capabilities` tries it).",
            }),
          ),
          terminal_channel: Type.Optional(
            Type.Union([Type.Literal(1), Type.Literal(2)], {
              description:
                "The terminal channel version the provider serves (docs/terminal-channel.md; default 2). 1 only for a provider that has not moved on from the deprecated version: the card then travels without its formats, key slots and the terminal's identity. With 2, a legacy (BibComp 1.08) PINPAD cannot sell: it cannot seal the card's data.",
            }),
          ),
        },
        {
          additionalProperties: false,
          description:
            'What the provider offers beyond the calls GoPag documents (both default to false: nothing undocumented is assumed; each is used only when set true here), and the terminal channel it serves.',
        },
      ),
    ),
  },
  {
    additionalProperties: false,
    description:
      'The payments API. Its token is not kept here: the desktop app keeps it encrypted (safeStorage); headless it is PINBRIDGE_API_TOKEN or ~/.pinbridge/api-token (readable by its user only). Without this section: training mode.',
  },
);
export type ApiSettings = Static<typeof ApiSettings>;

export const PinpadSettings = Type.Object(
  {
    address: SETTINGS_FIELDS['pinpad.address'].schema,
    tables: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1000,
        description:
          "The EMV tables (AID and CAPK records, key slots of the store's acquirers, docs/pinpads.md): a tables file, relative to this settings file's folder, or \"provider\" to ask the payments provider's terminal channel (at attach and every 6 hours, cached beside the journal). Loaded into the PINPAD when its version differs; absent: the PINPAD keeps its own tables.",
      }),
    ),
    key_slots: Type.Optional(
      Type.Object(
        {
          pin: Type.Optional(
            Type.Integer({
              minimum: 0,
              maximum: 99,
              description: 'DUKPT slot of the PIN key (SPE_KEYIDX), 1 by default.',
            }),
          ),
          data: Type.Optional(
            Type.Integer({ minimum: 0, maximum: 99, description: 'DUKPT slot of the card data key, 1 by default.' }),
          ),
        },
        {
          additionalProperties: false,
          description:
            "The PINPAD key slots where the store's acquirer loaded its DUKPT keys, for the acquirers whose EMV tables name no key method (docs/pinpads.md, Keys). A PINPAD that holds no usable key refuses sales before anything is charged.",
        },
      ),
    ),
  },
  { additionalProperties: false },
);
export type PinpadSettings = Static<typeof PinpadSettings>;

/** The DUKPT key slots the settings name (camelCase, for attachPinpad); undefined when they name none. */
export function keySlotsOf(pinpad: PinpadSettings | null | undefined): { pin?: number; data?: number } | undefined {
  const slots = pinpad?.key_slots;
  if (slots === undefined) return undefined;
  return {
    ...(slots.pin === undefined ? {} : { pin: slots.pin }),
    ...(slots.data === undefined ? {} : { data: slots.data }),
  };
}

/** The `pinpad.tables` value that asks the payments provider for the tables. */
export const TABLES_FROM_PROVIDER = 'provider';

/**
 * What the settings give every attached PINPAD's sales (attachPinpad's options): the key slots,
 * and the EMV tables read from `pinpad.tables` — or why that file cannot be used, which ends
 * each sale before anything is created instead of stopping the agent — or, for "provider",
 * that the tables come from the payments provider (the agent builds that source per PINPAD).
 */
export function pinpadSaleOptionsOf(settings: Pick<AgentSettings, 'pinpad' | 'path' | 'api'>): {
  keySlots?: { pin?: number; data?: number };
  tables?: EmvTables | TablesFileError;
  /** `pinpad.tables` is "provider": the tables come from the terminal channel. */
  tablesFromProvider?: true;
  /** False only for a provider on terminal channel v1 (legacy PINPADs may then sell). */
  requireSealedCardData?: false;
} {
  const keySlots = keySlotsOf(settings.pinpad);
  const file = settings.pinpad?.tables;
  let tables: EmvTables | TablesFileError | undefined;
  const channel = settings.api?.capabilities?.terminal_channel === 1 ? { requireSealedCardData: false as const } : {};
  if (file === TABLES_FROM_PROVIDER) return { ...(keySlots ? { keySlots } : {}), tablesFromProvider: true, ...channel };
  if (file !== undefined) {
    const path = resolve(settings.path === null ? process.cwd() : dirname(settings.path), file);
    try {
      tables = readEmvTables(path);
    } catch (error) {
      if (!(error instanceof TablesFileError)) throw error;
      tables = error;
    }
  }
  return { ...(keySlots ? { keySlots } : {}), ...(tables ? { tables } : {}), ...channel };
}

export const ReceiptsSection = Type.Object(
  {
    ...ReceiptSettings.properties,
    auto_print: Type.Optional(
      Type.Array(Type.Union([Type.Literal('customer'), Type.Literal('merchant')]), {
        maxItems: 2,
        description:
          'The copies printed by themselves when a sale is approved or voided (default both; [] prints nothing by itself); with "customer", also the receipt of a Pix received at the counter.',
      }),
    ),
  },
  { additionalProperties: false },
);

/** The whole file, for the documents and the window's form (each section is also checked on its own below). */
export const SettingsFile = Type.Object(
  {
    ...PaymentSettings.properties,
    training: SETTINGS_FIELDS.training.schema,
    api: Type.Optional(ApiSettings),
    pinpad: Type.Optional(PinpadSettings),
    receipts: Type.Optional(ReceiptsSection),
    printers: Type.Optional(PrintersSettings),
    pos: Type.Optional(PosSettings),
    metrics: Type.Optional(MetricsSettings),
    fleet: Type.Optional(FleetSettings),
    telemetry: Type.Optional(TelemetrySettings),
    updates: Type.Optional(UpdateSettings),
    supervisor: Type.Optional(SupervisorSettings),
    support: Type.Optional(SupportSettings),
    remote_settings: Type.Optional(RemoteSettingsSection),
  },
  {
    additionalProperties: false,
    title: 'Pinbridge settings',
    description: 'The agent settings file (~/.pinbridge/settings.json).',
  },
);

export interface AgentSettings extends ResolvedSettings {
  /** The file read, or null when there was none (defaults). */
  readonly path: string | null;
  readonly training: boolean;
  /** The payments API; null: training mode (unless the command line names one). */
  readonly api: ApiSettings | null;
  readonly pinpad: PinpadSettings | null;
  /** The store as receipts print it; null when not set (receipts cannot be made outside training mode). */
  readonly receipts: ReceiptSettings | null;
  /** The copies printed by themselves when a sale is approved or voided (default both). */
  readonly autoPrint: readonly ReceiptCopy[];
  readonly printers: PrintersSettings;
  /** Where the POS API listens (and its TLS certificate). */
  readonly pos: PosSettings;
  /** The Prometheus endpoint (off unless enabled). */
  readonly metrics: MetricsSettings;
  /** Metrics pushed by Prometheus remote write (off unless enabled). */
  readonly telemetry: TelemetrySettings;
  /** Updates of the desktop app (off unless enabled). */
  readonly updates: UpdateSettings;
  /** When a void needs the supervisor's PIN, and where it is typed (defaults: never). */
  readonly supervisor: SupervisorPolicy;
  /** Where support bundles are uploaded (main/support). */
  readonly support: SupportSettings;
  /** The signed settings document this agent follows (main/remote-settings); null: none. */
  readonly remoteSettings: RemoteSettingsSection | null;
  /** This checkout's place in the chain ({} when the file names none). */
  readonly fleet: FleetSettings;
}

type Violation = SettingsViolation;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Checks one section against its schema; violations are named from the top of the file. */
function section<T>(
  name: string,
  value: unknown,
  schema: Parameters<typeof schemaViolations>[0],
  violations: Violation[],
): T | undefined {
  if (value === undefined) return undefined;
  const found = schemaViolations(schema, value);
  violations.push(...found.map((v) => fromSchemaViolation(v.field === '' ? name : `${name}.${v.field}`, v)));
  return found.length === 0 ? (value as T) : undefined;
}

/** The settings a JSON value holds, checked as a whole: every violation at once, each naming its field. */
export function parseSettings(file: unknown, path: string | null): AgentSettings {
  const label = path ?? '(settings)';
  if (!isObject(file))
    throw new SettingsError([settingsViolation('(file)', 'FILE_INVALID', 'must be a JSON object')], label);
  // The ids that moved to `fleet` are named as moved, then checked no further where they were.
  const { violations: moved, json } = movedPlaceIds(file);
  const {
    receipts,
    printers,
    pos,
    metrics,
    telemetry,
    updates,
    supervisor,
    support,
    remote_settings: remote,
    fleet,
    api,
    pinpad,
    training,
    ...payment
  } = json;
  const violations: Violation[] = [...moved];
  const fleetSettings = section<FleetSettings>('fleet', fleet, FleetSettings, violations) ?? {};
  const receiptsSection = section<Static<typeof ReceiptsSection>>('receipts', receipts, ReceiptsSection, violations);
  // "has an invalid format" does not say what a CNPJ should look like in this file (the window removes the mask itself).
  violations.forEach((v, index) => {
    if (/^receipts\.(merchant|acquirer)\.cnpj$/.test(v.field) && /invalid format/.test(v.message)) {
      violations[index] = settingsViolation(
        v.field,
        'INVALID_CNPJ',
        "must be the CNPJ's 14 characters without dots, slash or dash, uppercase, e.g. 11222333000181 (printed 11.222.333/0001-81)",
      );
    }
  });
  if (receiptsSection !== undefined)
    violations.push(...receiptSettingsViolations(receiptsSection).map((v) => ({ ...v, field: `receipts.${v.field}` })));
  const printerSettings = section<PrintersSettings>('printers', printers, PrintersSettings, violations) ?? {};
  if (printers !== undefined && violations.every((v) => !v.field.startsWith('printers')))
    violations.push(...printerViolations(printerSettings));
  const posSettings = section<PosSettings>('pos', pos, PosSettings, violations) ?? {};
  const metricsSettings = section<MetricsSettings>('metrics', metrics, MetricsSettings, violations) ?? {};
  const telemetrySettings = section<TelemetrySettings>('telemetry', telemetry, TelemetrySettings, violations) ?? {};
  for (const problem of telemetryViolations(telemetrySettings, fleetSettings))
    violations.push(settingsViolation(problem.field, problem.code, problem.message));
  const supportSettings = section<SupportSettings>('support', support, SupportSettings, violations) ?? {};
  const uploadProblem =
    supportSettings.upload_url === undefined ? undefined : uploadUrlProblem(supportSettings.upload_url);
  if (uploadProblem !== undefined)
    violations.push(settingsViolation('support.upload_url', 'INVALID_URL', uploadProblem));
  const remoteSection =
    section<RemoteSettingsSection>('remote_settings', remote, RemoteSettingsSection, violations) ?? null;
  for (const problem of remoteSection === null ? [] : remoteSectionProblems(remoteSection, fleetSettings))
    violations.push(settingsViolation(problem.field, problem.code, problem.message));
  const updateSettings = section<UpdateSettings>('updates', updates, UpdateSettings, violations) ?? {};
  for (const problem of updateViolations(updateSettings, fleetSettings))
    violations.push(settingsViolation(problem.field, problem.code, problem.message));
  const supervisorSettings = section<SupervisorSettings>('supervisor', supervisor, SupervisorSettings, violations);
  const apiSettings = section<ApiSettings>('api', api, ApiSettings, violations) ?? null;
  const pinpadSettings = section<PinpadSettings>('pinpad', pinpad, PinpadSettings, violations) ?? null;
  // The schema only says "a string": the address is checked as `--port` is, so a mistyped one is
  // refused on save instead of leaving the agent looking for a PINPAD that cannot be there.
  const addressProblem = pinpadSettings === null ? undefined : pinpadAddressProblem(pinpadSettings.address);
  if (addressProblem !== undefined)
    violations.push(
      settingsViolation('pinpad.address', addressProblem.code, addressProblem.message, addressProblem.cashier_message),
    );
  if (training !== undefined && typeof training !== 'boolean')
    violations.push(settingsViolation('training', 'INVALID_TYPE', 'must be true or false'));
  let resolved: ResolvedSettings | undefined;
  try {
    resolved = resolveSettings(payment, label);
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    violations.push(...error.violations);
  }
  if (violations.length > 0 || resolved === undefined) throw new SettingsError(violations, label);
  const { auto_print: autoPrint, ...store } = receiptsSection ?? {};
  return {
    ...resolved,
    path,
    training: typeof training === 'boolean' ? training : SETTINGS_FIELDS.training.default,
    api: apiSettings,
    pinpad: pinpadSettings,
    receipts: receiptsSection === undefined ? null : (store as ReceiptSettings),
    autoPrint: autoPrint ?? RECEIPT_COPIES,
    printers: printerSettings,
    pos: posSettings,
    metrics: metricsSettings,
    telemetry: telemetrySettings,
    updates: updateSettings,
    supervisor: resolveSupervisorSettings(supervisorSettings),
    support: supportSettings,
    remoteSettings: remoteSection,
    fleet: fleetSettings,
  };
}

/** The settings with no file at all. */
export function defaultSettings(): AgentSettings {
  return parseSettings({}, null);
}

export function defaultSettingsPath(home?: string): string {
  return join(defaultDataDir(home), 'settings.json');
}

/** The file's JSON as it is (for the window's form), or undefined when there is none. */
export function readSettingsJson(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new SettingsError(
      [settingsViolation('(file)', 'FILE_UNREADABLE', `cannot be read (${(error as Error).message})`)],
      path,
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new SettingsError(
      [settingsViolation('(file)', 'FILE_INVALID', `is not valid JSON (${(error as Error).message})`)],
      path,
    );
  }
}

/** Reads and validates the settings; a missing default file means the defaults. */
export function loadSettings(explicitPath: string | undefined, home?: string): AgentSettings {
  const path = explicitPath ?? defaultSettingsPath(home);
  const json = readSettingsJson(path);
  if (json === undefined) {
    if (explicitPath === undefined) return defaultSettings();
    throw new SettingsError(
      [
        settingsViolation(
          '(file)',
          'FILE_UNREADABLE',
          'the file does not exist',
          'O arquivo de configurações indicado não existe. Chame o suporte técnico.',
        ),
      ],
      path,
    );
  }
  return parseSettings(json, path);
}

/**
 * Checks `json` as a whole and writes it (two-space JSON) in place of the file, atomically: a
 * crash mid-write leaves the old file, never half a new one. Refused with every violation, the
 * file untouched; a disk that refuses the write throws its error (ENOSPC…), the file untouched too.
 */
export function saveSettings(path: string, json: unknown): AgentSettings {
  const settings = parseSettings(json, path);
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, `${JSON.stringify(json, null, 2)}\n`, { mode: 0o600 });
    renameSync(temporary, path);
  } catch (error) {
    // A full disk (issue 33): the file stays as it was, and no half-written copy is left beside it.
    rmSync(temporary, { force: true });
    throw error;
  }
  return settings;
}
