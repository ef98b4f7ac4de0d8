/**
 * The EMV tables of a PINPAD's sales: which tables the coming sale uses (the store's file, or
 * what the provider gives before each sale), bringing the PINPAD to their version (table-loader.ts)
 * — at attach and before each sale, never while a card is read, except once when the PINPAD itself
 * calls its tables outdated mid-read (read-card.ts) — and the reports of their state for the window
 * and the logs. What the sale takes from them: the application types (SPE_APPTYPE), the one
 * acquirer (SPE_ACQREF) and the versions loaded since attach (for the authorization, seal.ts).
 */
import { SaleStepError, saleStepErrorOf } from '../sale-errors.js';
import { DEFAULT_APPLICATION_TYPES, TablesFileError, type EmvTables } from '../emv-tables.js';
import { onlyAcquirer } from '../key-methods.js';
import type { TablesSource } from '../provider-tables.js';
import { syncTables } from '../table-loader.js';
import type { SaleContext } from './context.js';

/** Where the PINPAD's EMV tables stand, for the window and the logs. */
export interface TablesStatus {
  /** loading: TLI/TLR/TLE in progress; current: the PINPAD holds `version`; failed: see `error`. */
  readonly state: 'loading' | 'current' | 'failed';
  /** The version the PINPAD is (being) brought to; null when no tables could be read. */
  readonly version: string | null;
  /** Acquirers being loaded (loading) or held (current). */
  readonly acquirers: readonly number[];
  /** Why the tables cannot be used or loaded (English). */
  readonly error: string | null;
  /** The tables cached on this computer failed their seal at this start: refused, and asked of the provider again. */
  readonly cacheTampered?: boolean;
}

export class SaleTables {
  readonly #context: SaleContext;
  readonly #source: TablesSource | undefined;
  /** The tables of the coming sale (asked of the source in refresh, never during a sale). */
  #tables: EmvTables | TablesFileError | undefined;
  readonly #onStatus: ((status: TablesStatus) => void) | undefined;
  #lastStatus: string | undefined;
  /** Table versions this session loaded, by acquirer (the identification read at attach predates them). */
  readonly #loadedVersions = new Map<number, string>();

  constructor(
    context: SaleContext,
    tables: EmvTables | TablesFileError | TablesSource | undefined,
    onStatus: ((status: TablesStatus) => void) | undefined,
  ) {
    this.#context = context;
    if (tables !== undefined && 'current' in tables) this.#source = tables;
    else this.#tables = tables;
    this.#onStatus = onStatus;
  }

  /** Whether the sale has tables at all (a file that could not be read counts: it ends the sale). */
  get configured(): boolean {
    return this.#tables !== undefined;
  }

  /** Asks the provider (when the tables come from one) for the coming sale's tables. */
  async refresh(): Promise<void> {
    if (this.#source !== undefined) this.#tables = await this.#source.current();
  }

  /**
   * Brings the PINPAD's EMV tables to the tables file's version (table-loader.ts): at attach and
   * before each sale, so never while a card is being read. TABLES_UNAVAILABLE when the file could
   * not be read or the load failed.
   */
  async ensure(): Promise<void> {
    const tables = this.#tables;
    if (tables === undefined) return;
    if (tables instanceof TablesFileError) {
      this.#status({ state: 'failed', version: null, acquirers: [], error: tables.message });
      throw new SaleStepError('TABLES_UNAVAILABLE', 'prepare', { message: tables.message });
    }
    const loading: number[] = [];
    try {
      const sync = await syncTables(this.#context.pinpad, tables, {
        logger: this.#context.logger,
        onProgress: (acquirer) => {
          loading.push(acquirer);
          this.#status({ state: 'loading', version: tables.version, acquirers: [...loading], error: null });
          this.#context.message('Atualizando as tabelas do PINPAD…');
        },
      });
      for (const acquirer of [...sync.current, ...sync.loaded]) this.#loadedVersions.set(acquirer, tables.version);
      this.#status({
        state: 'current',
        version: tables.version,
        acquirers: [...sync.current, ...sync.loaded].sort((a, b) => a - b),
        error: null,
      });
    } catch (error) {
      const failure = saleStepErrorOf(error, 'prepare');
      const message = `loading the EMV tables failed: ${failure.message}`;
      this.#status({ state: 'failed', version: tables.version, acquirers: [...loading], error: message });
      throw new SaleStepError('TABLES_UNAVAILABLE', 'prepare', { message, cause: error });
    }
  }

  /** The coming sale's tables, unless they could not be read. */
  usable(): EmvTables | undefined {
    return this.#tables instanceof TablesFileError ? undefined : this.#tables;
  }

  /** SPE_APPTYPE of a sale: what the tables file says, else 01 credit / 02 debit. */
  applicationTypes(paymentType: 'credit' | 'debit'): number[] {
    const tables = this.usable();
    return [...(tables?.applicationTypes ?? DEFAULT_APPLICATION_TYPES)[paymentType]];
  }

  /** SPE_ACQREF: the one acquirer of the tables file, when it has exactly one. */
  acquirer(): number | undefined {
    return onlyAcquirer(this.usable());
  }

  /** The versions this session loaded, by acquirer. */
  loadedVersions(): ReadonlyMap<number, string> {
    return this.#loadedVersions;
  }

  /** Tells onTablesStatus of a change (the same state again is not news). */
  #status(reported: TablesStatus): void {
    const status = this.#source?.cacheTampered === true ? { ...reported, cacheTampered: true } : reported;
    const key = JSON.stringify(status);
    if (this.#onStatus === undefined || key === this.#lastStatus) return;
    this.#lastStatus = key;
    try {
      this.#onStatus(status);
    } catch (error) {
      this.#context.logger.warn(
        { error: error instanceof Error ? error.name : typeof error },
        'onTablesStatus listener threw',
      );
    }
  }
}
