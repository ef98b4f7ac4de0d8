/**
 * The decisions of a staged update, as pure functions (no Electron, no network, no clock of their
 * own), so they are tested headless and read the same in the shell and in the docs:
 *
 * - which rollout bucket a checkout is in: derived from the store's identity (the settings' fleet
 *   chain and store, the labels telemetry pushes too), so every checkout of a store decides alike
 *   and the store moves as one;
 * - whether a release published with `stagingPercentage: N` (the feed's yml, electron-builder's
 *   format) reaches that bucket: electron-updater's own arithmetic (AppUpdater.isStagingMatch),
 *   so a store's place in the rollout is the same whether we or electron-updater decide;
 * - when a downloaded update may be installed: at quit (always: the agent has stopped), or inside
 *   the configured maintenance window when no sale is in progress;
 * - the feed URL of a store, from a template with {chain}/{store}/{checkout} placeholders.
 */
import { createHash } from 'node:crypto';

/** The place of a checkout in the chain: the settings' fleet section, chain/store/checkout (docs/fleet.md). */
export interface StoreIdentity {
  readonly chain?: string | undefined;
  readonly store?: string | undefined;
  readonly checkout?: string | undefined;
}

/** What the rollout bucket is derived from: the store (default), or each checkout apart. */
export type StageBy = 'store' | 'checkout';

/**
 * The namespace of Pinbridge's staging ids (a fixed random UUID): the same store gets the same
 * id on every checkout and every release, and no other program's v5 ids collide with ours.
 */
const STAGING_NAMESPACE = '4f1d2c6e-8a57-4b0e-9c3d-7e2b5a9f1c40';

/** How a checkout's staging id was chosen: from its store, its checkout, or electron-updater's random per-install id. */
export interface StagingId {
  /** RFC 4122 version-5 UUID, the shape electron-updater keeps in `.updaterId`. */
  readonly id: string;
  readonly by: StageBy;
  /** The name hashed (`chain/store` or `chain/store/checkout`); not secret: the labels telemetry pushes. */
  readonly name: string;
}

/**
 * The staging id of a checkout: a UUID v5 of `chain/store` (or `chain/store/checkout` when staged
 * by checkout), or undefined when the identity lacks a part (electron-updater then keeps its own
 * random per-install id: the checkout is staged alone).
 */
export function stagingId(identity: StoreIdentity, by: StageBy = 'store'): StagingId | undefined {
  const parts = by === 'store' ? [identity.chain, identity.store] : [identity.chain, identity.store, identity.checkout];
  if (parts.some((part) => part === undefined || part === '')) return undefined;
  const name = parts.join('/');
  return { id: uuidV5(name, STAGING_NAMESPACE), by, name };
}

/** RFC 4122 §4.3: SHA-1 of the namespace's bytes and the name, with the version and variant bits set. */
function uuidV5(name: string, namespace: string): string {
  const bytes = createHash('sha1')
    .update(Buffer.from(namespace.replaceAll('-', ''), 'hex'))
    .update(name, 'utf8')
    .digest()
    .subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Where a staging id falls in [0, 1): its last four bytes over 0xffffffff, as electron-updater
 * reads `.updaterId` (UUID.parse(id).readUInt32BE(12) / 0xffffffff). A release whose
 * stagingPercentage is above 100 × this reaches it.
 */
export function rolloutPosition(id: string): number {
  const hex = id.replaceAll('-', '');
  if (!/^[0-9a-f]{32}$/i.test(hex)) throw new RangeError(`not a UUID: ${id}`);
  return Number.parseInt(hex.slice(24, 32), 16) / 0xffffffff;
}

/**
 * The same position in percent, two decimals, rounded down: a release whose stagingPercentage is
 * above it reaches the checkout (what the window, the log and `pinbridge updates` show).
 */
export function rolloutPercent(id: string): number {
  return Math.floor(rolloutPosition(id) * 10_000) / 100;
}

/**
 * Whether a release reaches the checkout with this staging id: electron-updater's isStagingMatch,
 * step by step — no percentage (or one that is not a number) reaches everyone; else the id's
 * position must be below percentage / 100 (so 0 reaches no one, 100 everyone, and raising the
 * percentage only ever adds stores).
 */
export function withinRollout(stagingPercentage: number | string | null | undefined, id: string): boolean {
  if (stagingPercentage === undefined || stagingPercentage === null) return true;
  const percentage = Number.parseInt(String(stagingPercentage), 10);
  if (Number.isNaN(percentage)) return true;
  return rolloutPosition(id) < percentage / 100;
}

/** A daily maintenance window on the store's clock, in minutes after midnight; `end` before `start` crosses midnight. */
export interface InstallWindow {
  readonly start: number;
  readonly end: number;
  /** As written: "02:00-05:00". */
  readonly text: string;
}

const WINDOW = /^([01]\d|2[0-3]):([0-5]\d)-([01]\d|2[0-3]):([0-5]\d)$/;

/** "HH:MM-HH:MM" (24-hour; "22:00-02:00" crosses midnight), or undefined when it is not one or is empty (start = end). */
export function parseInstallWindow(text: string): InstallWindow | undefined {
  const match = WINDOW.exec(text);
  if (match === null) return undefined;
  const [, h1, m1, h2, m2] = match.map(Number) as [number, number, number, number, number];
  const start = h1 * 60 + m1;
  const end = h2 * 60 + m2;
  if (start === end) return undefined;
  return { start, end, text };
}

/** Whether `minute` (minutes after midnight on the store's clock) falls in the window: start included, end not. */
export function insideWindow(window: InstallWindow, minute: number): boolean {
  return window.start < window.end
    ? minute >= window.start && minute < window.end
    : minute >= window.start || minute < window.end;
}

/** "HH:MM" of minutes after midnight. */
export function clockText(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/** What keeps a sale going: PINPADs running a payment or waiting for the customer, approvals the POS has yet to confirm. */
export interface SaleActivity {
  /** Serial numbers of the busy PINPADs. */
  readonly busyPinpads: readonly string[];
  /** Approvals waiting for the POS's confirm/undo (settings confirmation: pos). */
  readonly awaitingConfirmation: number;
}

/** No sale in progress: no PINPAD busy and no approval waiting for the POS. */
export function idle(activity: SaleActivity): boolean {
  return activity.busyPinpads.length === 0 && activity.awaitingConfirmation === 0;
}

export type InstallDecision =
  | { readonly install: true }
  | {
      readonly install: false;
      /**
       * NOTHING_PENDING, NO_WINDOW (installs only at quit), OUTSIDE_WINDOW, SALE_IN_PROGRESS,
       * FAILED_BEFORE (installing this version in the window failed once: only at quit now, so a
       * broken installer does not restart the checkout over and over).
       */
      readonly reason: 'NOTHING_PENDING' | 'NO_WINDOW' | 'OUTSIDE_WINDOW' | 'SALE_IN_PROGRESS' | 'FAILED_BEFORE';
    };

/**
 * Whether a downloaded update is installed now, while the app runs (it always is at quit, after the
 * agent stopped): only inside the maintenance window and only while no sale is in progress; else it
 * waits for the next look (or the next quit).
 */
export function decideInstall(facts: {
  readonly pending: string | undefined;
  readonly window: InstallWindow | undefined;
  /** Minutes after midnight on the store's clock. */
  readonly minute: number;
  readonly activity: SaleActivity;
  /** The version whose install in the window failed before, if any. */
  readonly failed?: string | undefined;
}): InstallDecision {
  if (facts.pending === undefined) return { install: false, reason: 'NOTHING_PENDING' };
  if (facts.window === undefined) return { install: false, reason: 'NO_WINDOW' };
  if (facts.failed === facts.pending) return { install: false, reason: 'FAILED_BEFORE' };
  if (!insideWindow(facts.window, facts.minute)) return { install: false, reason: 'OUTSIDE_WINDOW' };
  if (!idle(facts.activity)) return { install: false, reason: 'SALE_IN_PROGRESS' };
  return { install: true };
}

/**
 * Whether an available update starts downloading now: not while a sale is in progress (the
 * installer shares the store's link with the authorization), and not twice.
 */
export function shouldDownload(facts: {
  readonly available: string | undefined;
  readonly downloading: boolean;
  readonly downloaded: string | undefined;
  readonly activity: SaleActivity;
}): boolean {
  if (facts.available === undefined || facts.downloading) return false;
  if (facts.downloaded === facts.available) return false;
  return idle(facts.activity);
}

/** The placeholders a feed URL may hold. */
export const FEED_PLACEHOLDERS = ['chain', 'store', 'checkout'] as const;

/**
 * The feed of this checkout: `{chain}`, `{store}` and `{checkout}` replaced by the identity's
 * fleet ids (URL-encoded), so a chain can serve a folder per store; the placeholders it lacks when
 * one is used without its id (the settings refuse that, see update-settings.ts).
 */
export function feedUrl(
  template: string,
  identity: StoreIdentity,
): { readonly url: string } | { readonly missing: readonly string[] } {
  const missing: string[] = [];
  const url = template.replace(/\{(chain|store|checkout)\}/g, (_all, name: (typeof FEED_PLACEHOLDERS)[number]) => {
    const value = identity[name];
    if (value === undefined || value === '') {
      missing.push(name);
      return '';
    }
    return encodeURIComponent(value);
  });
  return missing.length > 0 ? { missing } : { url };
}
