/**
 * EMV tables from the payments provider (the terminal channel's `GET …/terminals/{serial}/
 * emv_tables`, docs/terminal-channel.md), for a store whose settings name no tables file.
 *
 * - Asked when the PINPAD is attached and again before a sale once `refreshMs` has passed (6 h
 *   by default, like a TEF's daily "inicialização" but sooner), with the version already held
 *   so an unchanged answer costs a few bytes. Never during a sale: a sale's tables are fixed
 *   before anything is asked of the customer.
 * - Kept in a cache file, so a PINPAD attached while the provider is unreachable (no internet
 *   at opening time) still gets the last tables; an unreachable provider is asked again after
 *   `retryMs` and the cached tables stay in use.
 * - Tables the provider sends but that cannot be used are not loaded; the previous ones stay,
 *   and with none held every sale ends with TABLES_UNAVAILABLE before anything is charged.
 * - A provider that serves no tables (404) leaves the PINPAD with its own.
 * - The cache is sealed (main/integrity.ts: an HMAC under the agent's key, bound to the PINPAD's
 *   serial). The tables decide what a PINPAD does offline and without a PIN (contactless and
 *   floor limits, CVM limits, TACs), and the version alone cannot tell an edited file from the
 *   provider's: an edit keeping the version would be loaded into the next PINPAD attached and
 *   never corrected (the provider answers "unchanged"). So a cache whose seal fails is refused,
 *   recorded as tampering (the log, the audit trail, the window: `cacheTampered`), and the tables
 *   are asked of the provider as if none were held. A cache with no seal at all (written before
 *   seals existed) is refused and fetched again too, logged as such.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { silentLogger, type DriverLogger } from '../../drivers/log.js';
import type { AuditLog } from '../audit-log.js';
import { canonicalJson } from '../contract/canonical-json.js';
import type { IntegrityKey } from '../integrity.js';
import { parseEmvTables, TablesFileError, type EmvTables } from './emv-tables.js';

/** The provider's answer, as the terminal channel gives it. */
export interface TablesAnswer {
  readonly version: string;
  readonly changed: boolean;
  /** The tables document (contract EmvTablesDocument), present when `changed`. */
  readonly tables?: unknown;
}

/** What this module needs from the payments provider (the API client's terminal channel fits). */
export interface TablesChannel {
  /** Null when the provider serves no tables for this PINPAD. */
  emvTables(
    serial: string,
    knownVersion: string | undefined,
    options?: { signal?: AbortSignal },
  ): Promise<TablesAnswer | null>;
}

/** Where a sale's tables come from: asked before each sale (prepare). */
export interface TablesSource {
  /** The tables to hold the PINPAD to; undefined: the PINPAD keeps its own. */
  current(): Promise<EmvTables | TablesFileError | undefined>;
  /** The tables cached on this computer failed their seal at this start (changed outside Pinbridge): refused. */
  readonly cacheTampered?: boolean;
}

export interface ProviderTablesOptions {
  readonly channel: TablesChannel;
  /** The PINPAD's serial number (the terminal the provider knows). */
  readonly serial: string;
  /** The cache file (the provider's last document, sealed). */
  readonly cacheFile: string;
  /** Seals the cache, so tables changed on disk are refused. */
  readonly integrity: IntegrityKey;
  /** Where a cache that fails its seal is recorded (the security audit trail). */
  readonly audit?: Pick<AuditLog, 'record'>;
  readonly refreshMs?: number;
  readonly retryMs?: number;
  /** Longest wait for the provider before a sale goes on with the cached tables. */
  readonly timeoutMs?: number;
  readonly logger?: DriverLogger;
  readonly now?: () => number;
}

export const PROVIDER_TABLES_DEFAULTS = Object.freeze({ refreshMs: 6 * 3600_000, retryMs: 60_000, timeoutMs: 5_000 });

const SOURCE = "the payments provider's EMV tables";

/** What the cache file holds: the provider's document and its seal. */
export const CACHE_FORMAT = 'pinbridge-emv-tables-cache';

interface SealedCache {
  readonly format: typeof CACHE_FORMAT;
  readonly serial: string;
  /** Which key sealed it (a hint for support: the desktop app's OS key or the headless key file); not trusted. */
  readonly sealed_by: string;
  readonly seal: string;
  readonly document: unknown;
}

function isSealedCache(value: unknown): value is SealedCache {
  if (typeof value !== 'object' || value === null) return false;
  const cache = value as Record<string, unknown>;
  return cache.format === CACHE_FORMAT && typeof cache.seal === 'string' && 'document' in cache;
}

/** The seal's purpose: one PINPAD's cache (a cache copied from another PINPAD's file does not fit). */
const purposeOf = (serial: string): string => `emv-tables-cache:${serial}`;

/** Where the agent keeps a PINPAD's last provider tables: `emv-tables/<serial>.json` beside the journal. */
export function providerTablesCacheFile(journalPath: string, serial: string): string {
  return join(dirname(journalPath), 'emv-tables', `${serial.replace(/[^A-Za-z0-9_-]/g, '_')}.json`);
}

/**
 * The cached provider tables of a file, for `pinbridge doctor`'s account of the key methods;
 * undefined when there are none or they cannot be used. The seal is not checked here (the doctor
 * may run where the agent's key cannot be opened, outside the desktop app): nothing read here is
 * ever loaded into a PINPAD, and the agent checks the seal before it uses the cache.
 */
export function readCachedTables(file: string): EmvTables | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const parsed: unknown = JSON.parse(text);
    return parseEmvTables(isSealedCache(parsed) ? parsed.document : parsed, file);
  } catch {
    return undefined;
  }
}

export class ProviderTables implements TablesSource {
  readonly #options: ProviderTablesOptions;
  readonly #logger: DriverLogger;
  readonly #now: () => number;
  #held: EmvTables | TablesFileError | undefined;
  /** Time of the next question to the provider. */
  #nextCheck = 0;
  #asking: Promise<void> | undefined;
  #cacheTampered = false;

  constructor(options: ProviderTablesOptions) {
    this.#options = options;
    this.#logger = options.logger ?? silentLogger;
    this.#now = options.now ?? Date.now;
    this.#held = this.#readCache();
  }

  get cacheTampered(): boolean {
    return this.#cacheTampered;
  }

  async current(): Promise<EmvTables | TablesFileError | undefined> {
    if (this.#now() >= this.#nextCheck) {
      this.#asking ??= this.#ask().finally(() => (this.#asking = undefined));
      await this.#asking;
    }
    return this.#held;
  }

  async #ask(): Promise<void> {
    const { channel, serial } = this.#options;
    const held = this.#held instanceof TablesFileError ? undefined : this.#held;
    const timeoutMs = this.#options.timeoutMs ?? PROVIDER_TABLES_DEFAULTS.timeoutMs;
    let answer: TablesAnswer | null;
    try {
      answer = await channel.emvTables(serial, held?.version, { signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      this.#nextCheck = this.#now() + (this.#options.retryMs ?? PROVIDER_TABLES_DEFAULTS.retryMs);
      this.#logger.warn(
        { serial, held: held?.version ?? null, reason: error instanceof Error ? error.message : String(error) },
        'the payments provider did not give the EMV tables; the ones held stay in use',
      );
      return;
    }
    this.#nextCheck = this.#now() + (this.#options.refreshMs ?? PROVIDER_TABLES_DEFAULTS.refreshMs);
    if (answer === null) {
      if (this.#held !== undefined)
        this.#logger.info({ serial }, 'the payments provider serves no EMV tables for this PINPAD; it keeps its own');
      this.#held = undefined;
      rmSync(this.#options.cacheFile, { force: true });
      return;
    }
    if (!answer.changed) return;
    try {
      const tables = parseEmvTables(answer.tables, SOURCE);
      this.#held = tables;
      this.#writeCache(answer.tables);
      this.#logger.info(
        { serial, version: tables.version, previous: held?.version ?? null },
        'new EMV tables from the payments provider',
      );
    } catch (error) {
      if (!(error instanceof TablesFileError)) throw error;
      this.#logger.error(
        { serial, version: answer.version, code: error.code, reason: error.message },
        'the payments provider sent EMV tables that cannot be used; not loaded',
      );
      // The last good tables stay; without any, sales end with TABLES_UNAVAILABLE.
      this.#held = held ?? error;
    }
  }

  #readCache(): EmvTables | undefined {
    const { cacheFile: file, serial, integrity } = this.#options;
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      return undefined;
    }
    let cached: unknown;
    try {
      cached = JSON.parse(text);
    } catch (error) {
      this.#logger.warn(
        { file, reason: error instanceof Error ? error.message : String(error) },
        'the cached EMV tables cannot be used; asking the provider',
      );
      return undefined;
    }
    if (!isSealedCache(cached)) {
      this.#logger.warn(
        { file, serial },
        'the cached EMV tables have no seal (written by a Pinbridge from before seals, or by something else); not used, asking the provider',
      );
      return undefined;
    }
    if (cached.serial !== serial || !integrity.verify(purposeOf(serial), canonicalJson(cached.document), cached.seal)) {
      this.#cacheTampered = true;
      const claimed = (cached.document as { version?: unknown } | null)?.version;
      this.#logger.error(
        {
          file,
          serial,
          claimedVersion: typeof claimed === 'string' ? claimed : null,
          sealedBy: String(cached.sealed_by),
          key: integrity.source,
        },
        'the cached EMV tables fail their seal: changed outside Pinbridge (or sealed with another key); refused, asking the provider for its tables',
      );
      this.#options.audit?.record({
        kind: 'tamper.detected',
        what: 'emv_tables_cache',
        file: `emv-tables/${basename(file)}`,
        serial,
        action: 'refused; fetched again from the payments provider',
      });
      return undefined;
    }
    try {
      return parseEmvTables(cached.document, file);
    } catch (error) {
      this.#logger.warn(
        { file, reason: error instanceof Error ? error.message : String(error) },
        'the cached EMV tables cannot be used; asking the provider',
      );
      return undefined;
    }
  }

  /** Written whole or not at all (a crash mid-write leaves the previous file), with its seal. */
  #writeCache(document: unknown): void {
    const { cacheFile: file, serial, integrity } = this.#options;
    const cache: SealedCache = {
      format: CACHE_FORMAT,
      serial,
      sealed_by: integrity.source,
      seal: integrity.seal(purposeOf(serial), canonicalJson(document)),
      document,
    };
    try {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(`${file}.tmp`, JSON.stringify(cache), { mode: 0o600 });
      renameSync(`${file}.tmp`, file);
    } catch (error) {
      // A full disk leaves half a document behind: not kept (issue 33).
      rmSync(`${file}.tmp`, { force: true });
      this.#logger.warn(
        { file, reason: error instanceof Error ? error.message : String(error) },
        'the EMV tables could not be cached; they are asked again at the next start',
      );
    }
  }
}
