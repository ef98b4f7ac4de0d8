/**
 * The PINPAD side of one card sale: amount on the display, installments and CPF on the keypad,
 * the card read (GCX), chip and PIN (GOX, or GPN for a swiped card), the chip's final word after
 * the host answered (FCX), card removal (RMC) and the result on the display.
 *
 * Each step is cancellable with an AbortSignal (the command in flight is cancelled on the PINPAD
 * with CAN) and has its own time limit; every failure is one SaleStepError (see sale-errors.ts).
 * The PINPAD is also given the limit itself (SPE_TIMEOUT) where the command takes one, so it
 * normally ends the wait on its own with its own screen; the host's limit is that plus
 * HOST_GRACE_MS, a backstop for a PINPAD that ignores it.
 *
 * Card data: the PAN is asked for masked (6/4) and what the PINPAD returns is reduced at once to
 * the masked card and the authorization request (card-data.ts); the raw answers are not kept.
 *
 * Abecs 2.x PINPADs use GCX/GOX/FCX, MNU and GCD; a legacy (BibComp 1.08) PINPAD, which knows
 * none of them, gets GCR/GOC/FNC and DSP + GKY instead (legacy-sale.ts, abecs.md §6.1): the
 * session asks `pinpad.info()` which one it drives and dispatches step by step.
 */
import type { CexResult } from '../../drivers/abecs/commands/cex.js';
import type { FcxRequest } from '../../drivers/abecs/commands/fcx.js';
import type { GcxRequest, GcxResult } from '../../drivers/abecs/commands/gcx.js';
import type { GoxResult } from '../../drivers/abecs/commands/gox.js';
import type { GtkEncryption } from '../../drivers/abecs/commands/gtk.js';
import type { DukptKsns, Pinpad, WaitOptions } from '../../drivers/abecs/pinpad.js';
import { AbecsStatusError } from '../../drivers/abecs/status.js';
import { silentLogger, type DriverLogger } from '../../drivers/log.js';
import { isValidCpf } from '../validation/taxpayer-id.js';
import {
  DEFAULT_SALE_TIMEOUTS,
  type CardRead,
  type ChipDecision,
  type ChipFinish,
  type SaleTimeouts,
} from '../core/ports.js';
import {
  AUTHORIZATION_TAGS,
  CardDataError,
  COMPLETION_TAGS,
  cardSaleData,
  emvDataHex,
  pinTryLimitExceeded,
  serviceCodeOf,
  summarizeCardRead,
  type CardReadSummary,
  type EncryptedCardData,
  type SwipedCardPin,
  type TerminalDescription,
} from './card-data.js';
import { CHIP_CARD_SWIPED, cardReadRetryFor, UNREADABLE_SWIPE } from './card-read-retry.js';
import { DEFAULT_APPLICATION_TYPES, TablesFileError, type EmvTables } from './emv-tables.js';
import {
  chooseMethod,
  missingKeyProblem,
  neededKey,
  offerOf,
  offersInUse,
  onlyAcquirer,
  statusFromMaps,
  type AcquirerOffer,
  type CardDataKeyMethod,
  type ChosenMethods,
  type KeyStatus,
  type KeyUse,
  type NeededKey,
  type PinKeyMethod,
} from './key-methods.js';
import type { TablesSource } from './provider-tables.js';
import { syncTables } from './table-loader.js';
import {
  amountLine,
  amountScreen,
  cardPromptScreen,
  fitLine,
  fitMessage,
  installmentChoices,
  rotatingCardScreens,
  type DisplaySize,
} from './display-text.js';
import { SaleStepError, saleStepErrorOf, type SaleStep } from './sale-errors.js';
import {
  ALL_ACQUIRERS,
  ANY_APPLICATION_TYPE,
  chooseInstallmentsGky,
  DEFAULT_LEGACY_NOTICE_MS,
  finishChipFnc,
  gcrTableVersion,
  goOnChipGoc,
  readCardGcr,
  showNotice,
  taxIdUnsupported,
  type LegacySaleContext,
} from './legacy-sale.js';

export { SaleStepError, saleStepErrorOf, type SaleStep, type SaleStepErrorCode } from './sale-errors.js';
export { DEFAULT_SALE_TIMEOUTS, type CardRead, type ChipDecision, type SaleTimeouts } from '../core/ports.js';

export interface KeySlots {
  /** DUKPT TDES slot of the PIN key (00–99). */
  readonly pin: number;
  /** DUKPT TDES slot of the card data key (00–99). */
  readonly data: number;
}

export const DEFAULT_KEY_SLOTS: KeySlots = Object.freeze({ pin: 1, data: 1 });

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

/** Whether each configured slot holds a key. */
export interface KeyCheck {
  readonly pin: boolean;
  readonly data: boolean;
}

const two = (n: number): string => String(n).padStart(2, '0');

/** Seconds each screen stays while a small display takes turns showing notification and amount. */
export const ROTATION_SECONDS = 3;

/**
 * Why a read the PINPAD answered with ST_OK cannot be the sale's card: a swipe with no track
 * (S220: ST_OK and no track fields), or a chip card's stripe read outside a fallback (service
 * code 2xx / 6xx, or the PINPAD's PP_ICCSTAT saying the chip was not tried). Undefined when the
 * read is usable.
 */
function refusedRead(
  read: GcxResult,
  afterChipError: boolean,
): { code: string; cashierMessage: string; cause: unknown } | undefined {
  if (read.cardType !== 'magstripe') return undefined;
  if (read.track1 === undefined && read.track2 === undefined) {
    return {
      code: UNREADABLE_SWIPE,
      cashierMessage: 'Não foi possível ler a tarja. Passe o cartão novamente.',
      cause: new SaleStepError('CARD_ERROR', 'read_card', {
        message: 'the PINPAD read no track of the swiped card.',
        cashierMessage: 'Não foi possível ler a tarja do cartão.',
      }),
    };
  }
  const fallback = afterChipError || read.iccStatus === 1;
  const serviceCode = serviceCodeOf(read);
  if (!fallback && serviceCode !== undefined && (serviceCode.startsWith('2') || serviceCode.startsWith('6'))) {
    return {
      code: CHIP_CARD_SWIPED,
      cashierMessage: 'Cartão com chip: peça para o cliente inserir o cartão.',
      cause: new SaleStepError('CARD_ERROR', 'read_card', {
        message: 'a chip card was swiped, and card schemes allow its stripe only after a chip failure.',
        cashierMessage: 'Cartão com chip: insira o cartão no PINPAD.',
      }),
    };
  }
  return undefined;
}

/** The DSP display every PINPAD has: 2 lines of 16 columns. */
const CLASSIC_DISPLAY: DisplaySize = Object.freeze({ lines: 2, columns: 16 });

/** Added to the host's limit where the PINPAD enforces the step's limit itself (SPE_TIMEOUT). */
export const HOST_GRACE_MS = 5_000;

/** ISO 4217 numeric code of the real (BRL). */
const CURRENCY_BRL = 986;
/** SPE_TRNTYPE / tag 9C: goods and services. */
const TRANSACTION_PURCHASE = 0;
const PIN_MIN_DIGITS = 4;
const PIN_MAX_DIGITS = 12;

/** What the host (the terminal channel's authorization) answered, for the card's second GENERATE AC. */
export interface HostAnswer {
  readonly approved: boolean;
  /** Two-character response code ("00" approves): the ARC (tag 8A). */
  readonly responseCode: string;
  /** The authorization's issuer_emv_data (hex BER-TLV: 91, 71, 72…), or null. */
  readonly issuerEmvData: string | null;
}

export interface PinpadSaleOptions {
  readonly timeouts?: Partial<SaleTimeouts>;
  /** NTM notifications from the PINPAD during the card steps, one line (pt-BR), for progress events. */
  readonly onMessage?: (text: string) => void;
  /**
   * The DUKPT key slots the store's acquirer loaded into its PINPADs: `pin` for online PINs
   * (SPE_KEYIDX / GPN_KEYIDX), `data` for card data. Slot 01 each unless the settings say
   * otherwise (the real PPC-930 trace uses 02). Used where the tables name no key method for an
   * acquirer (key-methods.ts). Sales are refused before anything is created when the PINPAD
   * holds no usable key (see prepare).
   */
  readonly keySlots?: Partial<KeySlots>;
  /**
   * The store's EMV tables (emv-tables.ts), loaded into the PINPAD when its version differs —
   * or why the tables file could not be read (every sale then ends before anything is created) —
   * or where to ask for them before each sale (provider-tables.ts). Absent: the PINPAD keeps
   * whatever tables it holds. The key methods (or DUKPT slots) the tables give an acquirer are
   * used for it instead of `keySlots`.
   */
  readonly tables?: EmvTables | TablesFileError | TablesSource;
  /**
   * Legacy (BibComp 1.08) PINPADs only: how long the POS's notification is shown before GCR,
   * which has no custom prompt, takes the display over (2 s by default).
   */
  readonly legacyNoticeMs?: number;
  /** Hears each change of the tables' state (a load starting, done, failing). */
  readonly onTablesStatus?: (status: TablesStatus) => void;
  /**
   * The provider authorizes only from card data the PINPAD sealed (terminal channel v2, the
   * default): a legacy (BibComp 1.08) PINPAD, which has no GTK to seal it, refuses every sale in
   * prepare (PINPAD_UNSUPPORTED) instead of reading a card no host could authorize. False only for
   * a provider that still serves v1.
   */
  readonly requireSealedCardData?: boolean;
  readonly logger?: DriverLogger;
}

/** One card read of the retry loop (readCardWithRetries): GCX on Abecs 2.x, GCR on legacy PINPADs. */
type CardReader = (attempt: {
  readonly reads: number;
  readonly contactless: boolean;
  /** The retry rules' prompt for this read, if any. */
  readonly prompt: string | undefined;
  /** After a 020 (ST_TABVERDIF) and a table load: GCR resumes (bare GCR); GCX just reads again. */
  readonly resume: boolean;
  readonly deadline: number;
}) => Promise<GcxResult>;

export interface ReadCardRequest {
  /** Integer centavos > 0. */
  readonly amount: number;
  readonly paymentType: 'credit' | 'debit';
  /**
   * The POS's notification (≤ 32 characters): shown whole, with the amount, as the card prompt
   * (GCX SPE_DSPMSG laid out for the display, see cardPromptScreen) where the display has room.
   */
  readonly notification?: string | null;
  readonly signal?: AbortSignal;
}

const CHIP_DECISIONS: Readonly<Record<GoxResult['decision'], ChipDecision>> = {
  goOnline: 'online',
  approvedOffline: 'offlineApproved',
  declined: 'offlineDeclined',
};

/** Whole seconds for SPE_TIMEOUT (X1: 1–255). */
function pinpadSeconds(ms: number): number {
  return Math.min(255, Math.max(1, Math.ceil(ms / 1000)));
}

function checkTimeouts(timeouts: SaleTimeouts): SaleTimeouts {
  for (const [name, value] of Object.entries(timeouts)) {
    if (!Number.isFinite(value) || value <= 0)
      throw new RangeError(`timeouts.${name} must be a positive number of ms, got ${String(value)}.`);
  }
  return timeouts;
}

function checkAmount(amount: number): void {
  // GCX/GOX carry the amount as N12.
  if (!Number.isSafeInteger(amount) || amount <= 0 || amount > 999_999_999_999) {
    throw new RangeError(
      `The amount must be a positive integer number of centavos (at most 12 digits), got ${amount}.`,
    );
  }
}

/** A swiped card asks for a PIN on a debit sale, or when its service code says so (digit 3: 0, 3, 5, 6, 7). */
function swipeNeedsPin(read: CardReadSummary, paymentType: 'credit' | 'debit'): boolean {
  if (paymentType === 'debit') return true;
  return read.serviceCode !== undefined && '03567'.includes(read.serviceCode[2]!);
}

export class PinpadSale {
  readonly #pinpad: Pinpad;
  readonly #timeouts: SaleTimeouts;
  readonly #onMessage: ((text: string) => void) | undefined;
  readonly #keySlots: KeySlots;
  readonly #tablesSource: TablesSource | undefined;
  /** The tables of the coming sale (asked of tablesSource in prepare, never during a sale). */
  #tables: EmvTables | TablesFileError | undefined;
  /** The DUKPT KSNs of a slot (PIN and data), once asked of a PINPAD without key maps (they do not change while attached). */
  readonly #ksnsAsked = new Map<number, Promise<DukptKsns>>();
  readonly #legacyNoticeMs: number;
  readonly #onTablesStatus: ((status: TablesStatus) => void) | undefined;
  #lastTablesStatus: string | undefined;
  /** Table versions this session loaded, by acquirer (the identification read at attach predates them). */
  readonly #loadedTableVersions = new Map<number, string>();
  readonly #requireSealedCardData: boolean;
  readonly #logger: DriverLogger;

  constructor(pinpad: Pinpad, options: PinpadSaleOptions = {}) {
    this.#pinpad = pinpad;
    this.#timeouts = checkTimeouts({ ...DEFAULT_SALE_TIMEOUTS, ...options.timeouts });
    this.#onMessage = options.onMessage;
    this.#keySlots = { ...DEFAULT_KEY_SLOTS, ...options.keySlots };
    if (options.tables !== undefined && 'current' in options.tables) this.#tablesSource = options.tables;
    else this.#tables = options.tables;
    for (const [name, slot] of Object.entries(this.#keySlots)) {
      if (!Number.isInteger(slot) || slot < 0 || slot > 99)
        throw new RangeError(`keySlots.${name} must be an integer from 0 to 99, got ${slot}.`);
    }
    this.#legacyNoticeMs = Math.max(0, options.legacyNoticeMs ?? DEFAULT_LEGACY_NOTICE_MS);
    this.#onTablesStatus = options.onTablesStatus;
    this.#requireSealedCardData = options.requireSealedCardData ?? true;
    this.#logger = options.logger ?? silentLogger;
  }

  /**
   * Refuses, before the customer or the API is asked anything, a sale this PINPAD cannot run:
   *
   * - tables the file cannot give or the PINPAD refuses to load: TABLES_UNAVAILABLE;
   * - an acquirer (every acquirer of the tables, or the settings' slots without tables) for whose
   *   card data or PIN the PINPAD holds the key of no method the provider offers (key-methods.ts:
   *   the key maps PP_MKTDESP/D and PP_DKPTTDESP/D, else the DUKPT slots' PP_KSNTDESPnn/Dnn):
   *   KEYS_MISSING, naming the fix — a PIN would fail with ST_ERRKEY mid-sale, or card data would
   *   be encrypted under another acquirer's key.
   *
   * A legacy (BibComp 1.08) PINPAD has no key maps to ask (GIX is 2.x, abecs.md §3.3): its keys
   * are not checked, and GOC/GPN answer ST_ERRKEY (042) at the PIN step when the PIN key is
   * missing. Its tables are loaded all the same (GTS/TLI/TLR/TLE). It cannot seal card data (no
   * GTK): where the provider needs sealed data (`requireSealedCardData`), PINPAD_UNSUPPORTED — the
   * agent does not seal GCR's clear tracks itself, which would put the PC in PCI scope and prove
   * nothing to the host (docs/terminal-channel.md, "Legacy PINPADs are not sealed by the agent").
   */
  async prepare(_request?: { paymentType: 'credit' | 'debit'; signal?: AbortSignal }): Promise<void> {
    await this.#step('prepare', async () => {
      if (this.#requireSealedCardData && (await this.#isLegacy())) {
        throw new SaleStepError('PINPAD_UNSUPPORTED', 'prepare', {
          message:
            'this legacy (BibComp 1.08) PINPAD cannot encrypt the card data (it has no GTK), and terminal channel v2 authorizes only from encrypted card data; use an ABECS 2.x PINPAD, or set api.capabilities.terminal_channel to 1 if the provider still serves v1.',
          cashierMessage:
            'Este PINPAD é de um modelo antigo que não protege os dados do cartão como o sistema de pagamentos exige; nada foi cobrado. Chame o suporte técnico.',
        });
      }
      if (this.#tablesSource !== undefined) this.#tables = await this.#tablesSource.current();
      await this.ensureTables();
      if (await this.#isLegacy()) return;
      const problems = new Set<string>();
      for (const offer of offersInUse(this.#usableTables(), this.#keySlots))
        for (const problem of await this.#keyProblems(offer)) problems.add(problem);
      if (problems.size > 0) throw keysMissing([...problems]);
    });
  }

  /**
   * Brings the PINPAD's EMV tables to the tables file's version (table-loader.ts): at attach and
   * before each sale, so never while a card is being read. TABLES_UNAVAILABLE when the file could
   * not be read or the load failed.
   */
  async ensureTables(): Promise<void> {
    const tables = this.#tables;
    if (tables === undefined) return;
    if (tables instanceof TablesFileError) {
      this.#tablesStatus({ state: 'failed', version: null, acquirers: [], error: tables.message });
      throw new SaleStepError('TABLES_UNAVAILABLE', 'prepare', { message: tables.message });
    }
    const loading: number[] = [];
    try {
      const sync = await syncTables(this.#pinpad, tables, {
        logger: this.#logger,
        onProgress: (acquirer) => {
          loading.push(acquirer);
          this.#tablesStatus({ state: 'loading', version: tables.version, acquirers: [...loading], error: null });
          this.#message('Atualizando as tabelas do PINPAD…');
        },
      });
      for (const acquirer of [...sync.current, ...sync.loaded]) this.#loadedTableVersions.set(acquirer, tables.version);
      this.#tablesStatus({
        state: 'current',
        version: tables.version,
        acquirers: [...sync.current, ...sync.loaded].sort((a, b) => a - b),
        error: null,
      });
    } catch (error) {
      const failure = saleStepErrorOf(error, 'prepare');
      const message = `loading the EMV tables failed: ${failure.message}`;
      this.#tablesStatus({ state: 'failed', version: tables.version, acquirers: [...loading], error: message });
      throw new SaleStepError('TABLES_UNAVAILABLE', 'prepare', { message, cause: error });
    }
  }

  /** The coming sale's tables, unless they could not be read. */
  #usableTables(): EmvTables | undefined {
    return this.#tables instanceof TablesFileError ? undefined : this.#tables;
  }

  /** Tells onTablesStatus of a change (the same state again is not news). */
  #tablesStatus(reported: TablesStatus): void {
    const status = this.#tablesSource?.cacheTampered === true ? { ...reported, cacheTampered: true } : reported;
    const key = JSON.stringify(status);
    if (this.#onTablesStatus === undefined || key === this.#lastTablesStatus) return;
    this.#lastTablesStatus = key;
    try {
      this.#onTablesStatus(status);
    } catch (error) {
      this.#logger.warn({ error: error instanceof Error ? error.name : typeof error }, 'onTablesStatus listener threw');
    }
  }

  /** The key methods an acquirer's host opens, in the provider's order (key-methods.ts offerOf). */
  #offerOf(acquirer: number | undefined): AcquirerOffer {
    return offerOf(this.#usableTables(), this.#keySlots, acquirer);
  }

  /** The methods of an acquirer's card data and PIN this PINPAD can use; KEYS_MISSING naming the fix when there is none. */
  async #methodsFor(acquirer: number | undefined): Promise<ChosenMethods> {
    const offer = this.#offerOf(acquirer);
    const cardData = await this.#choose(offer.cardData, 'data');
    const pin = await this.#choose(offer.pin, 'pin');
    if (cardData !== undefined && pin !== undefined) return { cardData, pin };
    throw keysMissing(await this.#keyProblems(offer));
  }

  /** Why an acquirer's card data or PIN has no usable method (none when both have one). */
  async #keyProblems(offer: AcquirerOffer): Promise<string[]> {
    const problems: string[] = [];
    const whose = offer.acquirer === undefined ? '' : ` of acquirer ${two(offer.acquirer)}`;
    for (const use of ['data', 'pin'] as const) {
      const offered = use === 'data' ? offer.cardData : offer.pin;
      if ((await this.#choose(offered, use)) !== undefined) continue;
      const maps = (await this.#pinpad.info()).keySlots;
      const what = use === 'pin' ? 'the PIN' : 'card data';
      problems.push(`${what}${whose}: ${missingKeyProblem(offered, use, maps, { fromSettings: offer.settings[use] })}`);
    }
    return problems;
  }

  /** The first method of `offered` whose key the PINPAD holds (key-methods.ts chooseMethod). */
  async #choose<M extends CardDataKeyMethod | PinKeyMethod>(
    offered: readonly M[],
    use: KeyUse,
  ): Promise<M | undefined> {
    const statuses = new Map<string, KeyStatus>();
    for (const method of offered) {
      const key = neededKey(method, use);
      if (key !== undefined) statuses.set(`${key.kind}:${key.slot}`, await this.#keyStatus(key));
    }
    return chooseMethod(offered, use, (key) => statuses.get(`${key.kind}:${key.slot}`) ?? 'unknown');
  }

  /**
   * Whether the PINPAD holds a key: from the key maps read at attach (PP_MKTDESP/D,
   * PP_DKPTTDESP/D); for DUKPT without a map, by asking GIX for the slot's KSNs (PP_KSNTDESPnn /
   * PP_KSNTDESDnn), which a PINPAD returns only for loaded slots; unknown for a master key
   * without a map, and for everything on a legacy PINPAD (no GIX).
   */
  async #keyStatus(key: NeededKey): Promise<KeyStatus> {
    if (await this.#isLegacy()) return 'unknown';
    const fromMaps = statusFromMaps((await this.#pinpad.info()).keySlots, key);
    if (fromMaps !== 'unknown' || (key.kind !== 'dukptPin' && key.kind !== 'dukptData')) return fromMaps;
    let asked = this.#ksnsAsked.get(key.slot);
    if (asked === undefined) {
      asked = this.#pinpad.dukptKsns({ pin: key.slot, data: key.slot });
      this.#ksnsAsked.set(key.slot, asked);
      // A failed question is asked again next time.
      asked.catch(() => this.#ksnsAsked.delete(key.slot));
    }
    const ksns = await asked;
    return (key.kind === 'dukptPin' ? ksns.pin : ksns.data)[key.slot] !== undefined ? 'held' : 'empty';
  }

  /**
   * Whether the DUKPT slots hold keys (`keySlots` unless said): from the key maps read at attach
   * (PP_DKPTTDESP / PP_DKPTTDESD), else by asking GIX for the slots' KSNs.
   */
  async checkKeys(slots: KeySlots = this.#keySlots): Promise<KeyCheck> {
    const pin = await this.#keyStatus({ kind: 'dukptPin', slot: slots.pin });
    const data = await this.#keyStatus({ kind: 'dukptData', slot: slots.data });
    return { pin: pin === 'held', data: data === 'held' };
  }

  /**
   * The amount and the notification before the card is asked for. Where the display holds the
   * card prompt's layout (cardPromptScreen), that same screen (DEX), so nothing changes when GCX
   * takes over; else line 1 "R$ 1.234,56" and line 2 the notification's first 16 columns (DSP),
   * until readCard shows it whole in turns.
   */
  async showAmount(amount: number, notification: string | null): Promise<void> {
    checkAmount(amount);
    const text = notification?.trim() ?? '';
    const screen =
      text === '' ? undefined : cardPromptScreen(await this.#displaySize(), amount, text, { contactless: true });
    await this.#step('show_amount', () =>
      screen === undefined
        ? this.#pinpad.display(amountScreen(amount, notification))
        : this.#pinpad.displayExtended(screen.replaceAll('\r', '\n')),
    );
  }

  /**
   * Asks the customer how many installments (MNU): "A VISTA", "2X R$ 50,00"… up to `max`, only
   * while each installment is at least `minInstallmentAmount`. Returns 1…max. When only "A VISTA"
   * qualifies the PINPAD is not asked and 1 comes back at once. A legacy PINPAD has no MNU: one
   * option at a time with DSP + GKY (chooseInstallmentsGky).
   */
  async chooseInstallments(
    amount: number,
    options: { max: number; minInstallmentAmount: number },
    signal?: AbortSignal,
  ): Promise<number> {
    const choices = installmentChoices(amount, options);
    if (choices.length === 1) return 1;
    if (await this.#step('installments', () => this.#isLegacy())) {
      return this.#step('installments', () => chooseInstallmentsGky(this.#legacyContext(), choices, signal));
    }
    return this.#step('installments', async () => {
      const index = await this.#pinpad.menu(
        'EM QUANTAS VEZES',
        choices.map((choice) => choice.label),
        {
          timeoutSeconds: pinpadSeconds(this.#timeouts.menuMs),
          ...this.#wait(signal, this.#timeouts.menuMs + HOST_GRACE_MS),
        },
      );
      const chosen = choices[index];
      if (!chosen)
        throw new SaleStepError('PINPAD_ERROR', 'installments', {
          message: `the PINPAD answered option ${index + 1} of ${choices.length}.`,
        });
      return chosen.installments;
    });
  }

  /**
   * The customer's CPF typed on the keypad (GCD "DIGITE O CPF", 11 digits). A CPF whose check
   * digits are wrong is asked again ("REDIGITE O CPF") until a valid one comes, the customer
   * cancels, or menuMs — the limit of the whole step, not of each attempt — runs out (TIMEOUT,
   * saying the CPF was invalid). Returns the 11 digits. A legacy PINPAD has no GCD: refused with
   * PINPAD_UNSUPPORTED (the engine asks before it creates the transaction).
   */
  async readTaxId(signal?: AbortSignal): Promise<string> {
    return this.#step('tax_id', async () => {
      if (await this.#isLegacy()) throw taxIdUnsupported();
      const deadline = performance.now() + this.#timeouts.menuMs;
      for (let attempt = 1; ; attempt++) {
        const remaining = deadline - performance.now();
        if (remaining <= 0) {
          throw new SaleStepError('TIMEOUT', 'tax_id', {
            message: `no valid CPF within ${this.#timeouts.menuMs} ms (${attempt - 1} invalid).`,
            cashierMessage: 'CPF inválido digitado no PINPAD. Tempo esgotado.',
          });
        }
        const value = await this.#pinpad.readCustomerData(attempt === 1 ? 'cpf' : 'cpfAgain', {
          timeoutSeconds: pinpadSeconds(remaining),
          ...this.#wait(signal, remaining + HOST_GRACE_MS),
        });
        if (/^[0-9]{11}$/.test(value) && isValidCpf(value)) return value;
        this.#logger.info({ step: 'tax_id', attempt }, 'invalid CPF typed; asking again');
      }
    });
  }

  /**
   * Reads the card and runs its verification:
   *
   * 1. GCX (step read_card, limit cardMs): contactless allowed, the amount shown, only the
   *    applications of `paymentType` (SPE_APPTYPE 1 credit / 2 debit), PAN masked 6/4, the EMV
   *    tags of the authorization. Contactless and fallback failures are read again as the spec
   *    says (card-read-retry.ts) within the same limit. A chip card whose matching AID tables
   *    (PP_AIDTABINFO) hold no application of the wanted type fails with UNSUPPORTED_CARD.
   * 2. Chip and contactless chip: GTK seals track 2 by the acquirer's card data method, then GOX
   *    (step chip, limit pinMs): force online, online PIN by the acquirer's PIN method (DUKPT or
   *    MK/WK, key-methods.ts), PIN bypass not allowed. A swiped card: GPN (step chip) for the PIN
   *    on a debit sale or when its service code asks for one; nothing otherwise; then GTK.
   *
   * A chip card stays in the slot whatever happens: call removeCard afterwards, on failure too.
   *
   * On a legacy PINPAD: GCR instead of GCX (the notification shown before it, since GCR has no
   * custom prompt), GOC instead of GOX, and no GTK for a swiped card (legacy-sale.ts).
   */
  async readCard(request: ReadCardRequest): Promise<CardRead> {
    checkAmount(request.amount);
    const { amount, paymentType, signal } = request;
    const notification = request.notification?.trim() ? request.notification.trim() : null;
    const legacy = await this.#step('read_card', () => this.#isLegacy());
    // The raw GCX/GCR answer (maybe a clear PAN, tracks, the name) is reduced at once and
    // dropped; an unusable card fails here, before the customer is asked for a PIN.
    const read = legacy
      ? await this.#readCardLegacy(amount, paymentType, notification, signal)
      : await this.#readCardAbecs(amount, paymentType, notification, signal);
    const chipCard = read.entryMode === 'chip' || read.entryMode === 'contactless_chip';
    if (chipCard) {
      const acquirer = await this.#step('read_card', () =>
        acquirerFor(read, paymentType, this.#applicationTypes(paymentType)),
      );
      const methods = await this.#step('read_card', () => this.#methodsFor(acquirer));
      // The track 2 equivalent sealed for the acquirer's host, before the PIN (S220 §3.7.5: GCX,
      // then GTK, then GOX; a Gertec PPC-930 session does the same, abecs.md §6.3). GTK is 2.x.
      const encryptedCardData = legacy
        ? null
        : await this.#step('read_card', () => this.#encryptedTracks(methods.cardData));
      const chip = await this.#step('chip', () =>
        legacy
          ? goOnChipGoc(this.#legacyContext(methods.pin), { amount, acquirer, signal })
          : this.#pinpad.goOnChip(
              {
                acquirer,
                transactionType: TRANSACTION_PURCHASE,
                amount,
                currency: CURRENCY_BRL,
                options: { exceptionList: false, forceOnline: true, noPinBypass: true },
                pinMethod: methods.pin.method,
                keyIndex: methods.pin.slot,
                ...(methods.pin.method === 'mkwk' ? { workingKey: Buffer.from(methods.pin.working_key, 'hex') } : {}),
                tagList: AUTHORIZATION_TAGS,
                timeout: pinpadSeconds(this.#timeouts.pinMs),
              },
              this.#wait(signal, this.#timeouts.pinMs + HOST_GRACE_MS),
            ),
      );
      if (chip.decision === 'declined' && pinTryLimitExceeded(chip)) {
        // The wrong PINs were typed on the PINPAD ("SENHA INVALIDA"…); the chip now refuses.
        throw new SaleStepError('PIN_BLOCKED', 'chip', {
          message: 'the card blocked its PIN after too many wrong PINs (TVR: PIN try limit exceeded).',
        });
      }
      const terminal = await this.#step('chip', () => this.#terminalDescription());
      const data = await this.#step('chip', () =>
        cardSaleData(read, { chip, encryptedCardData, pinMethod: methods.pin, acquirer }, terminal),
      );
      const chipDecision = CHIP_DECISIONS[chip.decision];
      return { ...data, chipDecision, needsChipCompletion: chipDecision === 'online' };
    }
    const acquirer = this.#tableAcquirer();
    const methods = await this.#step('read_card', () => this.#methodsFor(acquirer));
    let swipedPin: SwipedCardPin | null = null;
    if (swipeNeedsPin(read, paymentType)) {
      swipedPin = await this.#step('chip', () =>
        this.#pinpad.readPin(
          {
            ...(methods.pin.method === 'mkwk'
              ? { method: 'mkwk', workingKey: methods.pin.working_key }
              : { method: 'dukpt' }),
            keyIndex: methods.pin.slot,
            minDigits: PIN_MIN_DIGITS,
            maxDigits: PIN_MAX_DIGITS,
            message: `${amountLine(amount, 'VALOR: ')}\nSENHA:`,
          },
          this.#wait(signal, this.#timeouts.pinMs + HOST_GRACE_MS),
        ),
      );
    }
    // The tracks for the authorizer, encrypted on the PINPAD; after the PIN, because GTK takes the
    // card out of the PINPAD's memory and GPN "00" needs it there (S220 §6.5.11). GTK is 2.x: a
    // legacy PINPAD's magstripe authorization goes without encrypted card data.
    const encryptedCardData = legacy
      ? null
      : await this.#step('read_card', () => this.#encryptedTracks(methods.cardData));
    const terminal = await this.#step('chip', () => this.#terminalDescription());
    const data = await this.#step('chip', () =>
      cardSaleData(
        read,
        {
          swipedPin,
          encryptedCardData,
          pinMethod: methods.pin,
          ...(acquirer !== undefined ? { acquirer } : {}),
        },
        terminal,
      ),
    );
    return { ...data, chipDecision: 'online', needsChipCompletion: false };
  }

  /**
   * GTK: the PAN and track 2 of the card just read, encrypted by the PINPAD for the acquirer's host
   * by its card data method (TDES ECB): under the DUKPT data key of a slot (DAT#3: one KSN for
   * both, S220 §6.3.4.2), under the working key the host issued for a data master key slot, or
   * under a random key the PINPAD makes for this card and returns under the host's RSA public key
   * (PP_ENCKRAND) — what every card-present authorization carries instead of the clear PAN and
   * tracks (a chip card's track 2 equivalent included). Track 2 when the PINPAD gave it, else the
   * PAN. Only ECB: the host needs nothing CBC would add.
   */
  async #encryptedTracks(method: CardDataKeyMethod): Promise<EncryptedCardData> {
    const encryption: GtkEncryption =
      method.method === 'dukpt'
        ? { method: 'dukptEcb', keyIndex: method.slot }
        : method.method === 'mkwk'
          ? { method: 'mkwkEcb', keyIndex: method.slot, workingKey: Buffer.from(method.working_key, 'hex') }
          : {
              method: 'randomEcb',
              publicKey: { modulus: Buffer.from(method.modulus, 'hex'), exponent: Buffer.from(method.exponent, 'hex') },
            };
    const result = await this.#pinpad.readEncryptedTracks({ tracks: { pan: true, track2: true }, encryption });
    const format = result.track2 !== undefined ? 'track2' : 'pan';
    const sealed = result.track2 ?? result.pan;
    if (sealed === undefined) {
      throw new CardDataError('UNREADABLE_CARD', 'The PINPAD returned no encrypted track or PAN (GTK).');
    }
    const payload = sealed.toString('hex').toUpperCase();
    switch (method.method) {
      case 'dukpt': {
        const ksn = result.track2 !== undefined ? result.ksns?.track2 : result.ksns?.pan;
        if (ksn === undefined) {
          throw new CardDataError(
            'UNREADABLE_CARD',
            'The PINPAD returned no encrypted track or PAN, or no KSN for it (GTK).',
          );
        }
        return {
          format,
          method: 'dukpt_tdes_ecb',
          key_slot: method.slot,
          ksn: ksn.toString('hex').toUpperCase(),
          payload,
        };
      }
      case 'mkwk':
        return { format, method: 'mkwk_tdes_ecb', key_slot: method.slot, working_key: method.working_key, payload };
      default:
        if (result.encryptedKey === undefined) {
          throw new CardDataError(
            'UNREADABLE_CARD',
            'The PINPAD returned no encrypted random key (PP_ENCKRAND) with the tracks it sealed under it (GTK "90").',
          );
        }
        return {
          format,
          method: 'random_key_tdes_ecb',
          encrypted_key: result.encryptedKey.toString('hex').toUpperCase(),
          key_id: method.key_id,
          payload,
        };
    }
  }

  /**
   * The PINPAD as the authorization names it: manufacturer and model, and the EMV table version
   * of each acquirer — as the identification read at attach gave them (GIX PP_TABVERnn), with
   * the versions this session loaded since. Versions that are not the spec's ten digits are left out.
   */
  async #terminalDescription(): Promise<TerminalDescription> {
    const info = await this.#pinpad.info();
    const versions: Record<string, string> = {};
    for (const [acquirer, version] of [...Object.entries(info.tableVersions ?? {}), ...this.#loadedTableVersions]) {
      if (/^[0-9]{10}$/.test(version)) versions[String(acquirer).padStart(2, '0')] = version;
    }
    const model = `${info.manufacturer} ${info.model}`.trim().slice(0, 64);
    return { ...(model !== '' ? { model } : {}), table_versions: versions };
  }

  /**
   * Gives the card the host's answer (FCX) and returns the card's final word: 'accepted' when
   * the card approved, 'refused' when it declined. Only for a CardRead with needsChipCompletion.
   *
   * - `answer` approved and 'refused': the card refused after an online approval — the sale
   *   must be reversed.
   * - `answer` declined: the card always ends declined too; 'refused' then only means the chip
   *   transaction is closed.
   * - `answer` null: the host could not be reached or its answer was lost (FCX "no host
   *   response"); the card declines, 'refused' comes back, and what happened at the host is for
   *   the caller to find out (never by authorizing again).
   *
   * Issuer data that is not hex is left out (and logged): the card then decides without it.
   */
  async finishChip(answer: HostAnswer | null, signal?: AbortSignal): Promise<ChipFinish> {
    const result = (await this.#step('finish_chip', () => this.#isLegacy()))
      ? await this.#step('finish_chip', () =>
          finishChipFnc(this.#legacyContext(), answer && { ...answer, issuerData: this.#issuerData(answer) }, signal),
        )
      : await this.#fcx(answer, signal);
    // Chip data the PINPAD returns malformed must not turn an accepted card into a failed sale.
    let emvData: string | null = null;
    try {
      emvData = emvDataHex(result.emvData) ?? null;
    } catch (error) {
      this.#logger.warn(
        { code: error instanceof CardDataError ? error.code : 'UNKNOWN' },
        'completion EMV data unreadable; reported without it',
      );
    }
    return { decision: result.approved ? 'accepted' : 'refused', emvData };
  }

  /** The issuer's EMV data as bytes; data that is not hex is left out (and logged). */
  #issuerData(answer: HostAnswer): Buffer {
    const issuerData = answer.issuerEmvData ?? '';
    if (/^(?:[0-9A-Fa-f]{2})*$/.test(issuerData)) return Buffer.from(issuerData, 'hex');
    this.#logger.warn({ length: issuerData.length }, 'issuer EMV data is not hex; finishing the chip without it');
    return Buffer.alloc(0);
  }

  /** FCX: the host's answer to an Abecs 2.x PINPAD. */
  async #fcx(
    answer: HostAnswer | null,
    signal: AbortSignal | undefined,
  ): Promise<{ approved: boolean; emvData: Buffer | undefined }> {
    let request: FcxRequest;
    if (answer === null) {
      request = { outcome: 'noHostResponse', tagList: COMPLETION_TAGS, timeout: pinpadSeconds(this.#timeouts.cardMs) };
    } else {
      const issuerData = this.#issuerData(answer);
      request = {
        outcome: answer.approved ? 'approved' : 'declined',
        arc: answer.responseCode,
        ...(issuerData.length > 0 ? { emvData: issuerData } : {}),
        tagList: COMPLETION_TAGS,
        timeout: pinpadSeconds(this.#timeouts.cardMs),
      };
    }
    const result = await this.#step('finish_chip', () =>
      this.#pinpad.finishChip(request, this.#wait(signal, this.#timeouts.cardMs + HOST_GRACE_MS)),
    );
    return { approved: result.decision === 'approved', emvData: result.emvData };
  }

  /**
   * Shows `message` (2 × 16, cut to fit) and waits until the card leaves the slot (RMC), for at
   * most removalMs. With no card in the slot (contactless, swipe, or already pulled) the PINPAD
   * answers at once, so this is also safe after a failed read.
   */
  async removeCard(message: string, signal?: AbortSignal): Promise<void> {
    await this.#step('remove_card', () =>
      this.#pinpad.removeCard(fitMessage(message), this.#wait(signal, this.#timeouts.removalMs)),
    );
  }

  /**
   * Shows `text` (2 × 16, cut to fit) on the display, best effort: a display that fails must not
   * break a sale that is already decided, so this never throws; failures are logged.
   */
  async showResult(text: string): Promise<void> {
    try {
      await this.#pinpad.display(fitMessage(text));
    } catch (error) {
      const failure = saleStepErrorOf(error, 'show_result');
      this.#logger.warn({ step: 'show_result', code: failure.code }, 'the PINPAD did not show the result');
    }
  }

  // ---------------------------------------------------------------------------------------------

  /**
   * GCX, read again while the failure is one the customer can fix and time is left
   * (card-read-retry.ts): contactless and chip failures as the spec says, a chip card swiped
   * outside a fallback, a swipe with no readable track. Each new read tells the customer why on
   * the PINPAD (its prompt) and the cashier (onMessage).
   *
   * `readOnce` is one read: GCX (readCardAbecs) or GCR (readCardLegacy). A 020 (ST_TABVERDIF)
   * loads the tables once and reads again — on GCR with the bare GCR that resumes with the card
   * already inserted (abecs.md §3.13).
   */
  async #readCardWithRetries(
    signal: AbortSignal | undefined,
    promptFor: (contactless: boolean) => string | undefined,
    readOnce: CardReader,
  ): Promise<CardReadSummary> {
    const deadline = performance.now() + this.#timeouts.cardMs;
    let contactless = true;
    let prompt = promptFor(contactless);
    let afterChipError = false;
    let contactlessCommErrors = 0;
    let tablesReloaded = false;
    let resume = false;
    for (let reads = 1; ; reads++) {
      let why: { code: string; cashierMessage: string; cause: unknown };
      try {
        const attempt = { reads, contactless, prompt, resume, deadline };
        resume = false;
        const read = await readOnce(attempt);
        const refusal = refusedRead(read, afterChipError);
        if (refusal === undefined) return summarizeCardRead(read, { afterChipError });
        why = refusal;
      } catch (error) {
        if (!(error instanceof AbecsStatusError)) throw this.#failure(error, 'read_card');
        if (error.code === 'ST_TABVERDIF') {
          // Tables the PINPAD calls outdated: loaded (once) and the card read again, else a clear TABLES error.
          if (tablesReloaded || this.#tables === undefined) {
            throw new SaleStepError('TABLES_UNAVAILABLE', 'read_card', {
              message: 'the PINPAD says its EMV tables are outdated.',
              cause: error,
            });
          }
          tablesReloaded = true;
          await this.#step('read_card', () => this.ensureTables());
          resume = true;
          continue;
        }
        why = { code: error.code, cashierMessage: error.cashierMessage, cause: error };
      }
      contactlessCommErrors = why.code === 'ST_CTLSCOMMERR' ? contactlessCommErrors + 1 : 0;
      const next = cardReadRetryFor(why.code, { reads, contactless, contactlessCommErrors });
      if (!next.retry || deadline - performance.now() <= 0 || signal?.aborted)
        throw this.#failure(why.cause, 'read_card');
      this.#logger.info({ step: 'read_card', code: why.code, contactless: next.contactless }, 'reading the card again');
      this.#message(why.cashierMessage);
      if (next.removeCardFirst) await this.removeCard('FALHA NO CHIP\nRETIRE O CARTAO', signal);
      contactless = next.contactless;
      prompt = next.prompt ?? promptFor(contactless);
      afterChipError ||= next.fallback;
    }
  }

  /**
   * The card read of an Abecs 2.x PINPAD: GCX with the notification's screen as its prompt where
   * the display can hold it (else the PINPAD's own prompt; the amount was shown by showAmount);
   * a display too small for all of it (2 × 16) shows notification and amount in turns while the
   * first read waits (CEX).
   */
  async #readCardAbecs(
    amount: number,
    paymentType: 'credit' | 'debit',
    notification: string | null,
    signal: AbortSignal | undefined,
  ): Promise<CardReadSummary> {
    const display = notification === null ? undefined : await this.#displaySize();
    const promptFor = (contactless: boolean): string | undefined =>
      notification === null || display === undefined
        ? undefined
        : cardPromptScreen(display, amount, notification, { contactless });
    const rotation =
      notification !== null && display !== undefined && promptFor(true) === undefined
        ? rotatingCardScreens(notification)
        : undefined;
    return this.#readCardWithRetries(signal, promptFor, ({ reads, contactless, prompt, deadline }) =>
      reads === 1 && rotation !== undefined
        ? this.#readCardShowing(rotation, amount, paymentType, deadline, signal)
        : this.#gcx(amount, paymentType, { contactless, prompt, deadline, signal }),
    );
  }

  /**
   * The card read of a legacy PINPAD (abecs.md §3.14, §6.1): the notification, whole, for a moment
   * before GCR (which has no custom prompt; there is no CEX on 1.08 to wait beside it), then GCR
   * with the tables file's acquirer (when it has one), the sale's first application type (the
   * field takes one; "99" without a file) and the version of gcrTableVersion. A retry's prompt
   * ("FALHA NO CHIP…") is shown the same way before the next GCR.
   */
  async #readCardLegacy(
    amount: number,
    paymentType: 'credit' | 'debit',
    notification: string | null,
    signal: AbortSignal | undefined,
  ): Promise<CardReadSummary> {
    if (notification !== null) {
      // With the amount when the notification fits one line (as showAmount laid it out), else whole on both lines.
      const screen =
        fitLine(notification) === notification
          ? amountScreen(amount, notification)
          : rotatingCardScreens(notification)[0];
      await this.#step('read_card', () => showNotice(this.#pinpad, screen, this.#legacyNoticeMs, signal));
    }
    const tables = this.#usableTables();
    const context = this.#legacyContext();
    const acquirer = this.#tableAcquirer() ?? ALL_ACQUIRERS;
    const tableVersion = await this.#step('read_card', () => gcrTableVersion(this.#pinpad, tables?.version, acquirer));
    return this.#readCardWithRetries(
      signal,
      () => undefined,
      async ({ contactless, prompt, resume, deadline }) => {
        if (prompt !== undefined && !resume)
          await this.#step('read_card', () => showNotice(this.#pinpad, prompt, this.#legacyNoticeMs, signal));
        return readCardGcr(context, {
          amount,
          acquirer,
          appType:
            tables === undefined
              ? ANY_APPLICATION_TYPE
              : (this.#applicationTypes(paymentType)[0] ?? ANY_APPLICATION_TYPE),
          tableVersion,
          contactless,
          resume,
          deadline,
          signal,
        });
      },
    );
  }

  /**
   * What the legacy steps (legacy-sale.ts) use of this session. The PIN's method is the one
   * chosen for the card's acquirer; for steps without a PIN, the settings' (unused).
   */
  #legacyContext(pinKey?: PinKeyMethod): LegacySaleContext {
    return {
      pinpad: this.#pinpad,
      timeouts: this.#timeouts,
      pinKey: pinKey ?? this.#offerOf(undefined).pin[0]!,
      wait: (signal, timeoutMs) => this.#wait(signal, timeoutMs),
    };
  }

  /** Whether the PINPAD knows only the legacy (BibComp 1.08) commands, from the identification read at attach. */
  async #isLegacy(): Promise<boolean> {
    return (await this.#pinpad.info()).protocol === 'legacy';
  }

  /** One GCX with what the sale asks for, limited by the card step's deadline. */
  async #gcx(
    amount: number,
    paymentType: 'credit' | 'debit',
    read: {
      contactless: boolean;
      prompt: string | undefined;
      deadline: number;
      signal: AbortSignal | undefined;
      /** SPE_TIMEOUT when shorter than what is left of the deadline (the PINPAD's idle wait). */
      idleSeconds?: number;
    },
  ): Promise<GcxResult> {
    const remaining = Math.max(1, read.deadline - performance.now());
    const request: Omit<GcxRequest, 'date' | 'time'> = {
      transactionType: TRANSACTION_PURCHASE,
      appTypes: this.#applicationTypes(paymentType),
      ...(this.#tableAcquirer() !== undefined ? { acquirer: this.#tableAcquirer()! } : {}),
      amount,
      currency: CURRENCY_BRL,
      options: { contactless: read.contactless, hideAmount: false },
      panMask: { left: 6, right: 4 },
      tagList: AUTHORIZATION_TAGS,
      timeout: Math.min(read.idleSeconds ?? 255, pinpadSeconds(remaining)),
      ...(read.prompt !== undefined ? { prompt: read.prompt } : {}),
    };
    // The host waits for the whole card step: a card presented late in an idle wait still needs
    // the time to be read.
    return this.#pinpad.readCard(request, this.#wait(read.signal, remaining + HOST_GRACE_MS));
  }

  /**
   * The first read on a display too small for amount, notification and request at once: the
   * notification (DSP) while CEX waits for a card or the CANCEL key, then the PINPAD's own card
   * prompt with the amount (GCX), ROTATION_SECONDS each, in turns until a card comes — as the
   * Scope TEF in the real trace shows its own screen (DEX) and waits with CEX before GCX.
   *
   * A card inserted or tapped during CEX is then read by GCX at once; a swipe caught by CEX is
   * the read itself (its truncated tracks, PAN masked 6/4, as a magstripe read). A GCX status
   * other than its own time limit is thrown for the caller's retry rules.
   */
  async #readCardShowing(
    screens: readonly string[],
    amount: number,
    paymentType: 'credit' | 'debit',
    deadline: number,
    signal: AbortSignal | undefined,
  ): Promise<GcxResult> {
    for (let turn = 0; ; turn++) {
      const remaining = deadline - performance.now();
      if (remaining <= 0)
        throw new SaleStepError('TIMEOUT', 'read_card', { message: `no card within ${this.#timeouts.cardMs} ms.` });
      const seconds = Math.min(ROTATION_SECONDS, pinpadSeconds(remaining));
      if (turn % 2 === 1) {
        try {
          return await this.#gcx(amount, paymentType, {
            contactless: true,
            prompt: undefined,
            deadline,
            signal,
            idleSeconds: seconds,
          });
        } catch (error) {
          if (error instanceof AbecsStatusError && error.code === 'ST_TIMEOUT' && deadline > performance.now())
            continue;
          throw error;
        }
      }
      await this.#step('read_card', () => this.#pinpad.display(screens[(turn / 2) % screens.length]!));
      let event: CexResult;
      try {
        event = await this.#pinpad.waitForEvent(
          {
            key: true,
            magstripe: true,
            icc: 'insertion',
            contactless: true,
            timeoutSeconds: seconds,
            panMask: { left: 6, right: 4 },
          },
          this.#wait(signal, seconds * 1000 + HOST_GRACE_MS),
        );
      } catch (error) {
        if (error instanceof AbecsStatusError && error.code === 'ST_TIMEOUT') continue;
        throw this.#failure(error, 'read_card');
      }
      switch (event.event) {
        case 'iccInserted':
        case 'contactlessDetected':
          return this.#gcx(amount, paymentType, { contactless: true, prompt: undefined, deadline, signal });
        case 'cardSwiped':
          return { cardType: 'magstripe', cardTypeCode: '00', ...event.tracks };
        case 'cancel':
          throw new SaleStepError('CUSTOMER_CANCELLED', 'read_card', {
            message: 'the customer pressed CANCEL while the card was asked for.',
          });
        default:
          // Another key, or the antenna's own 2-minute limit: the next turn.
          continue;
      }
    }
  }

  /** SPE_APPTYPE of a sale: what the tables file says, else 01 credit / 02 debit. */
  #applicationTypes(paymentType: 'credit' | 'debit'): number[] {
    const tables = this.#usableTables();
    return [...(tables?.applicationTypes ?? DEFAULT_APPLICATION_TYPES)[paymentType]];
  }

  /** SPE_ACQREF: the one acquirer of the tables file, when it has exactly one. */
  #tableAcquirer(): number | undefined {
    return onlyAcquirer(this.#usableTables());
  }

  /** The text display's size (PP_DSPTXTSZ), from the identification read at attach; 2 × 16 when unknown. */
  async #displaySize(): Promise<DisplaySize> {
    try {
      return (await this.#pinpad.info()).display ?? CLASSIC_DISPLAY;
    } catch {
      return CLASSIC_DISPLAY;
    }
  }

  /** Runs one step, turning whatever it throws into a SaleStepError of that step. */
  async #step<T>(step: SaleStep, run: () => T | Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw this.#failure(error, step);
    }
  }

  /** The SaleStepError for `error`, logged (code and step only: never card data). */
  #failure(error: unknown, step: SaleStep): SaleStepError {
    const failure = saleStepErrorOf(error, step);
    this.#logger.info({ step, code: failure.code }, 'PINPAD sale step failed');
    return failure;
  }

  #wait(signal: AbortSignal | undefined, timeoutMs: number): WaitOptions {
    return {
      ...(signal ? { signal } : {}),
      timeoutMs,
      onNotification: (notification) => this.#message(notification.lines.filter((line) => line.length > 0).join(' ')),
    };
  }

  #message(text: string): void {
    if (!this.#onMessage || text.length === 0) return;
    try {
      this.#onMessage(text);
    } catch (error) {
      // A listener's bug must not break the PINPAD exchange in flight.
      this.#logger.warn({ error: error instanceof Error ? error.name : typeof error }, 'onMessage listener threw');
    }
  }
}

/** KEYS_MISSING for the problems of missingKeyProblem, each naming its fix. */
function keysMissing(problems: readonly string[]): SaleStepError {
  return new SaleStepError('KEYS_MISSING', 'prepare', {
    message: `the PINPAD holds no usable key for ${problems.join('; ')}.`,
  });
}

/** The acquirer whose AID table matched the card with an application of the sale's type. */
function acquirerFor(read: CardReadSummary, paymentType: 'credit' | 'debit', wanted: readonly number[]): number {
  const entries = read.aidTableInfo;
  if (entries === undefined) {
    throw new SaleStepError('PINPAD_ERROR', 'read_card', {
      message: 'the PINPAD read a chip card without saying which AID table matched.',
    });
  }
  const match = entries.find((entry) => wanted.includes(entry.appType));
  if (!match) {
    throw new SaleStepError('UNSUPPORTED_CARD', 'read_card', {
      message: `the card has no ${paymentType} application.`,
      cashierMessage:
        paymentType === 'debit'
          ? 'Este cartão não tem a função débito. Use outro cartão ou pague no crédito.'
          : 'Este cartão não tem a função crédito. Use outro cartão ou pague no débito.',
    });
  }
  return match.acquirer;
}
