/**
 * What the POS server needs from the rest of the agent, in one place: the payment engine, the
 * PINPADs, receipts and printers, the payments API (for the relays, with the agent's own
 * credentials and seller) and the paired clients. `start` builds it from the running parts;
 * tests build it from the engine rig and the sandbox.
 */
import type { ReceiptPrinter } from '../../../drivers/printers/printer.js';
import { CodedError } from '../../../lib/errors.js';
import type { PaymentsClient } from '../../api/index.js';
import type { ApiHealthMonitor } from '../../api/health.js';
import type { PaymentEngine } from '../../core/engine.js';
import type { PinpadLink } from '../../pinpad/link-status.js';
import type { PinpadRegistry } from '../../pinpad/registry.js';
import type { PrintQueue } from '../../receipts/print-queue.js';
import type { ReceiptService } from '../../receipts/service.js';
import type { ClientStore } from '../clients/client-store.js';
import type { SupervisorGuard } from './supervisor-guard.js';
import type { SettingsViolationCode } from '../../core/settings-violations.js';

export interface PosAgent {
  readonly version: string;
  readonly mode: 'training' | 'live';
  /** The store's IANA time zone (main/locale/store-time.ts); absent: the default for this computer. */
  readonly timeZone?: string;
  readonly engine: PaymentEngine;
  readonly pinpads: PinpadRegistry;
  /** The link to the PINPAD the agent keeps (its state while there is none); absent where nothing keeps one. */
  readonly pinpadLink?: PinpadLink;
  /** Absent when receipts cannot be built (no store data outside training mode). */
  readonly receipts: ReceiptService | undefined;
  /** The receipt printers by name, for their status. */
  readonly printers: ReadonlyMap<string, { readonly device: ReceiptPrinter }>;
  readonly printQueue: PrintQueue | undefined;
  readonly api: PaymentsClient;
  /** The seller every relayed charge is made for (`on_behalf_of`). */
  readonly sellerId: string;
  readonly apiHealth: ApiHealthMonitor;
  readonly clients: ClientStore;
  /**
   * Every POS client sees and acts on every payment (settings `pos.share_payments`); off by
   * default: each sees its own (payment-access.ts).
   */
  readonly sharePayments?: boolean;
  /** When a void needs the supervisor's PIN, and its keeper (supervisor.ts); absent: never. */
  readonly supervisor?: SupervisorGuard;
  /** What the window manages beyond the POS API (settings, the API token, diagnostics); absent in tests that need none. */
  readonly operator?: OperatorServices;
  /** Whether the disk takes the agent's writes (agent.status, event agent.disk); absent: not watched. */
  readonly disk?: DiskWatcher;
  /** The desktop app's updates as its shell reports them (operator.updates, event agent.update); absent: none here. */
  readonly updates?: UpdateWatcher;
  /** What the idle PINPAD shows (after a Pix QR); absent: the mode's own (idleText). */
  readonly idleText?: () => string;
  /** Training mode's practice Pix (operator.trainingPix); absent in live mode. */
  readonly trainingPix?: TrainingPix;
}

/**
 * A Pix to practise with, in training mode: a bolepix made for a training buyer, and its payment
 * played by the training sandbox as the customer's bank would (main/agent/training-pix.ts).
 */
export interface TrainingPix {
  /** A bolepix of `amount` centavos: its transaction id. */
  createBolepix(amount: number): Promise<string>;
  /** Pays it as the bank would: by its QR (`pix`) or its barcode (`boleto`); TrainingPixError when refused. */
  pay(transactionId: string, via: 'pix' | 'boleto'): Promise<void>;
}

/**
 * A practice Pix refused: TOO_SMALL (below the training sandbox's smallest boleto, `minimum`
 * centavos), NOT_FOUND (no such transaction), REFUSED (paid, cancelled, expired).
 */
export class TrainingPixError extends CodedError<'TOO_SMALL' | 'NOT_FOUND' | 'REFUSED'> {
  constructor(
    code: 'TOO_SMALL' | 'NOT_FOUND' | 'REFUSED',
    message: string,
    /** TOO_SMALL: the smallest amount, in centavos. */
    readonly minimum?: number,
  ) {
    super(code, message);
  }
}

/**
 * The desktop app's updates (issue 37): whether they are checked, the version downloaded and when
 * it applies. The shell (Electron) writes it through main/updates/status.ts; the agent only shows it.
 */
export interface UpdateState {
  /** Updates are checked (settings updates.enabled with a feed). */
  readonly enabled: boolean;
  /** The release channel read (CHANNEL.yml); null when updates are off. */
  readonly channel: string | null;
  /** none: nothing pending; downloading; downloaded: waiting to be installed; installing: Pinbridge is quitting to install it. */
  readonly state: 'none' | 'downloading' | 'downloaded' | 'installing';
  /** The version downloading, downloaded or installing; null when none. */
  readonly version: string | null;
  /** The daily maintenance window (HH:MM-HH:MM, store's clock) it also installs in; null: only when Pinbridge quits. */
  readonly installWindow: string | null;
  /** Inside the window, but a sale in progress keeps the install waiting. */
  readonly waitingForSale: boolean;
  /** What picks this checkout in a staged release: its store, itself, or its installation's random id. */
  readonly stagedBy: 'store' | 'checkout' | 'install' | null;
  /** 0–100: a release staged above this percentage reaches this checkout; null when not known (staged by installation). */
  readonly rolloutPosition: number | null;
  /** The last check: when, and its error (null when it worked). */
  readonly lastCheck: { readonly at: string; readonly error: string | null } | null;
}

export interface UpdateWatcher {
  readonly state: UpdateState;
  on(event: 'change', listener: (state: UpdateState) => void): unknown;
  off(event: 'change', listener: (state: UpdateState) => void): unknown;
}

/** What the disk refuses, as the agent watches it (main/agent/disk-watch.ts). */
export type DiskSource = 'journal' | 'logs' | 'print_journal' | 'other';

/** The computer's disk as the agent sees it (issue 33). */
export interface DiskState {
  readonly state: 'ok' | 'full';
  /** ISO time of the last change of state. */
  readonly since: string;
  /** The writers the disk refuses (the journal: no room for a new sale); empty when ok. */
  readonly sources: readonly DiskSource[];
  /** The first failure's code (ENOSPC, DISK_FULL, EROFS…); null when ok. */
  readonly code: string | null;
  /** Whether new sales are refused (DISK_FULL): the journal has no room for one. */
  readonly salesRefused: boolean;
  readonly message: string;
  /** For the cashier (pt-BR): the window's banner; empty when ok. */
  readonly cashierMessage: string;
}

export interface DiskWatcher {
  readonly status: DiskState;
  /** Looks at the disk now (a sale was just refused for want of room). */
  check(): void;
  on(event: 'change', listener: (status: DiskState) => void): unknown;
  off(event: 'change', listener: (status: DiskState) => void): unknown;
}

/** One mistake of a settings file, naming its field: its stable code, English and pt-BR. */
export interface SettingsViolation {
  readonly field: string;
  readonly code: SettingsViolationCode;
  readonly message: string;
  readonly cashier_message: string;
}

/** The remote settings document an agent follows, as its window shows it (docs/remote-settings.md). */
export interface RemoteSettingsView {
  /** The url followed (placeholders filled). */
  readonly url: string;
  /** Whether the chain's public key is pinned (without one, nothing is followed). */
  readonly key: 'pinned' | 'missing' | 'unusable';
  /** The version the agent runs; null: the local file alone. */
  readonly version: number | null;
  readonly document_url: string | null;
  /** Started on trial, not confirmed yet. */
  readonly trial: boolean;
  /** Each field the document sets (dotted path) and its value: locked in the window. */
  readonly governed: Readonly<Record<string, unknown>>;
  /** A newer version fetched and waiting for an idle moment. */
  readonly pending_version: number | null;
  readonly last_check: { readonly at: string; readonly outcome: string; readonly message: string | null } | null;
  readonly last_refusal: {
    readonly code: string;
    readonly message: string;
    readonly version: number | null;
    readonly at: string;
  } | null;
}

/** A secret kept, or not: it comes from this environment variable, which wins over anything stored. */
export type SecretStored = { readonly stored: true } | { readonly stored: false; readonly fromEnvironment: string };

/**
 * The agent's services for its window, behind an interface so the POS server knows nothing of
 * files, keychains or the doctor's checks.
 */
export interface OperatorServices {
  /** The settings file as it is (null when there is none), and the mistake the agent started despite. */
  readSettings(): {
    path: string;
    json: unknown;
    problem: { message: string; violations: readonly SettingsViolation[] } | null;
    /** Why the saved settings are not in use (a restart could not start with them); null when they are. */
    notApplied: string | null;
    /** The chain's signed settings this agent follows; null when it follows none. */
    remote: RemoteSettingsView | null;
  };
  /** Checks and writes the whole file; the violations when refused (the file is then untouched). */
  saveSettings(json: unknown): { saved: true } | { saved: false; violations: readonly SettingsViolation[] };
  /** How the API token is kept, and whether one is. */
  apiToken(): { kind: 'safeStorage' | 'file' | 'environment'; stored: boolean };
  /** Keeps the token; not where it comes from an environment variable (named), which the window cannot change. */
  setApiToken(token: string): SecretStored;
  /** How the PKCS#12 certificate's passphrase is kept, and whether one is. */
  certificatePassphrase(): { kind: 'safeStorage' | 'file' | 'environment'; stored: boolean };
  setCertificatePassphrase(passphrase: string): SecretStored;
  /**
   * Restarts the agent with the settings file as it is now, shortly after the caller's answer went
   * out; absent where whatever started the agent cannot restart it.
   */
  readonly restart?: () => void;
  /** `pinbridge doctor` from the window (the PINPAD in use is listed, not opened). */
  doctor(): Promise<{
    ok: boolean;
    checks: readonly {
      id: string;
      status: 'ok' | 'warn' | 'fail' | 'skip';
      summary: string;
      details: Readonly<Record<string, unknown>>;
      fix?: string;
      /** The summary and the fix in Brazilian Portuguese, for the window. */
      pt: { summary: string; fix?: string };
    }[];
  }>;
  /**
   * The recent log lines, with anything card-like masked, for a support technician; when the log
   * file is not being written (a full disk), why, and the lines it missed from memory.
   */
  exportLogs(maxLines: number): {
    file: string | null;
    text: string;
    lines: number;
    masked: number;
    not_written: { code: string; message: string; since: string; unwritten: number } | null;
  };
  /** Bluetooth LE devices advertising the serial (Nordic UART) service, strongest first. */
  scanBle(seconds: number): Promise<readonly { address: string; name: string | null; rssi: number }[]>;
  /** The operating system's printers, each as the `lp://NAME` address the printer setting takes. */
  systemPrinters(): Promise<readonly { address: string; name: string; is_default: boolean }[]>;
  /** Serial ports that look like PINPADs (USB ids, maker names). */
  detectPinpads(): Promise<
    readonly {
      address: string;
      maker: string | null;
      model: string | null;
      manufacturer: string | null;
      likely_pinpad: boolean;
    }[]
  >;
  /**
   * Makes the support bundle with this agent's doctor, logs, last PINPAD trace, settings without
   * secrets and versions (main/agent/support-bundles.ts); refusals are PosErrors with a pt-BR message.
   */
  supportBundle(): Promise<SupportBundleMade>;
  /** Sends the last bundle made to support.upload_url; a failed send is an answer (sent: false), with the pt-BR reason. */
  sendSupportBundle(id: string): Promise<SupportBundleSent>;
}

/** A support bundle the agent made for the window. */
export interface SupportBundleMade {
  /** The archive's name (pinbridge-support-<time>.tar.gz): what operator.sendSupportBundle sends. */
  readonly id: string;
  readonly created_at: string;
  /** Where it was saved; null when the disk did not take it (`not_saved` says why). */
  readonly file: string | null;
  /** Why the archive is not on disk: the code, the English and the pt-BR. */
  readonly not_saved: { readonly code: string; readonly message: string; readonly cashier_message: string } | null;
  readonly bytes: number;
  readonly sha256: string;
  readonly files: readonly { readonly name: string; readonly size: number }[];
  /** The archive itself, for the window to offer as a download. */
  readonly archive: Buffer;
  /** Where a send goes (the URL's origin), or null when support.upload_url is not set. */
  readonly upload_to: string | null;
}

/** A send's outcome: a failed send is an answer, with the pt-BR reason. */
export type SupportBundleSent =
  | { readonly sent: true; readonly to: string; readonly status: number }
  | {
      readonly sent: false;
      readonly to: string;
      readonly code: 'UPLOAD_FAILED';
      readonly reason: 'bad_url' | 'unreachable' | 'timeout' | 'refused';
      readonly message: string;
      readonly cashier_message: string;
    };
