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
 *
 * PinpadSale is the engine's SaleDevice and only composes the steps of sale/, in the order a sale
 * runs them:
 *
 * - sale/prepare.ts — can this PINPAD run the sale (sealing, tables, keys), before anything is asked;
 * - sale/display.ts — what the display shows and when (amount, card prompt, PIN prompt, result);
 * - sale/keypad.ts — installments and CPF typed by the customer;
 * - sale/read-card.ts (with sale/gcx-read.ts) — the card read and its retries;
 * - sale/seal.ts — PIN, first GENERATE AC and sealed card data: what goes to the authorizer;
 * - sale/finish-chip.ts — the chip's final word and the card out of the slot.
 *
 * What they share passes explicitly: the context (sale/context.ts: PINPAD, limits, logger, the
 * cashier's messages), the tables (sale/tables.ts) and the keys (sale/keys.ts) of this PINPAD.
 */
import type { Pinpad } from '../../drivers/abecs/pinpad.js';
import { silentLogger, type DriverLogger } from '../../drivers/log.js';
import type { Centavos } from '../core/money.js';
import { DEFAULT_SALE_TIMEOUTS, type CardRead, type ChipFinish, type SaleTimeouts } from '../core/ports.js';
import type { EmvTables, TablesFileError } from './emv-tables.js';
import { DEFAULT_LEGACY_NOTICE_MS } from './legacy-sale.js';
import type { TablesSource } from './provider-tables.js';
import { SaleContext } from './sale/context.js';
import { showAmount, showResult } from './sale/display.js';
import { finishChip, removeCard, type HostAnswer } from './sale/finish-chip.js';
import { chooseInstallments, readTaxId } from './sale/keypad.js';
import { keySlotsOf, SaleKeys, type KeyCheck, type KeySlots } from './sale/keys.js';
import { prepareSale } from './sale/prepare.js';
import { readCardAbecs, readCardLegacy } from './sale/read-card.js';
import { sealChipCard, sealSwipedCard } from './sale/seal.js';
import { SaleTables, type TablesStatus } from './sale/tables.js';

export { SaleStepError, saleStepErrorOf, type SaleStep, type SaleStepErrorCode } from './sale-errors.js';
export { DEFAULT_SALE_TIMEOUTS, type CardRead, type ChipDecision, type SaleTimeouts } from '../core/ports.js';
export { HOST_GRACE_MS } from './sale/context.js';
export { ROTATION_SECONDS } from './sale/display.js';
export type { HostAnswer } from './sale/finish-chip.js';
export { DEFAULT_KEY_SLOTS, type KeyCheck, type KeySlots } from './sale/keys.js';
export type { TablesStatus } from './sale/tables.js';

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

export interface ReadCardRequest {
  /** Checked where the sale came in: 1 to 12 digits, what GCX/GOX carry (N12). */
  readonly amount: Centavos;
  readonly paymentType: 'credit' | 'debit';
  /**
   * The POS's notification (≤ 32 characters): shown whole, with the amount, as the card prompt
   * (GCX SPE_DSPMSG laid out for the display, see cardPromptScreen) where the display has room.
   */
  readonly notification?: string | null;
  readonly signal?: AbortSignal;
}

function checkTimeouts(timeouts: SaleTimeouts): SaleTimeouts {
  for (const [name, value] of Object.entries(timeouts)) {
    if (!Number.isFinite(value) || value <= 0)
      throw new RangeError(`timeouts.${name} must be a positive number of ms, got ${String(value)}.`);
  }
  return timeouts;
}

export class PinpadSale {
  readonly #context: SaleContext;
  readonly #tables: SaleTables;
  readonly #keys: SaleKeys;
  readonly #legacyNoticeMs: number;
  readonly #requireSealedCardData: boolean;

  constructor(pinpad: Pinpad, options: PinpadSaleOptions = {}) {
    const timeouts = checkTimeouts({ ...DEFAULT_SALE_TIMEOUTS, ...options.timeouts });
    this.#context = new SaleContext(pinpad, {
      timeouts,
      onMessage: options.onMessage,
      logger: options.logger ?? silentLogger,
    });
    this.#tables = new SaleTables(this.#context, options.tables, options.onTablesStatus);
    this.#keys = new SaleKeys(this.#context, this.#tables, keySlotsOf(options.keySlots));
    this.#legacyNoticeMs = Math.max(0, options.legacyNoticeMs ?? DEFAULT_LEGACY_NOTICE_MS);
    this.#requireSealedCardData = options.requireSealedCardData ?? true;
  }

  /** Refuses, before the customer or the API is asked anything, a sale this PINPAD cannot run (sale/prepare.ts). */
  async prepare(_request?: { paymentType: 'credit' | 'debit'; signal?: AbortSignal }): Promise<void> {
    await prepareSale(this.#context, this.#tables, this.#keys, {
      requireSealedCardData: this.#requireSealedCardData,
    });
  }

  /**
   * Brings the PINPAD's EMV tables to the tables file's version (sale/tables.ts): at attach and
   * before each sale, so never while a card is being read. TABLES_UNAVAILABLE when the file could
   * not be read or the load failed.
   */
  async ensureTables(): Promise<void> {
    await this.#tables.ensure();
  }

  /**
   * Whether the DUKPT slots hold keys (`keySlots` unless said): from the key maps read at attach
   * (PP_DKPTTDESP / PP_DKPTTDESD), else by asking GIX for the slots' KSNs.
   */
  async checkKeys(slots?: KeySlots): Promise<KeyCheck> {
    return this.#keys.check(slots);
  }

  /** The amount and the notification before the card is asked for (sale/display.ts). */
  async showAmount(amount: Centavos, notification: string | null): Promise<void> {
    await showAmount(this.#context, amount, notification);
  }

  /** How many installments, chosen on the keypad (sale/keypad.ts); 1 without asking when only "A VISTA" qualifies. */
  async chooseInstallments(
    amount: number,
    options: { max: number; minInstallmentAmount: number },
    signal?: AbortSignal,
  ): Promise<number> {
    return chooseInstallments(this.#context, amount, options, signal);
  }

  /** The customer's CPF typed on the keypad, asked again until valid (sale/keypad.ts). */
  async readTaxId(signal?: AbortSignal): Promise<string> {
    return readTaxId(this.#context, signal);
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
    const { amount, paymentType, signal } = request;
    const notification = request.notification?.trim() ? request.notification.trim() : null;
    const legacy = await this.#context.step('read_card', () => this.#context.isLegacy());
    // The raw GCX/GCR answer (maybe a clear PAN, tracks, the name) is reduced at once and
    // dropped; an unusable card fails here, before the customer is asked for a PIN.
    const read = legacy
      ? await readCardLegacy(this.#context, this.#tables, {
          amount,
          paymentType,
          notification,
          signal,
          noticeMs: this.#legacyNoticeMs,
        })
      : await readCardAbecs(this.#context, this.#tables, { amount, paymentType, notification, signal });
    const session = { context: this.#context, tables: this.#tables, keys: this.#keys };
    const seal = { amount, paymentType, legacy, signal };
    return read.entryMode === 'chip' || read.entryMode === 'contactless_chip'
      ? sealChipCard(session, read, seal)
      : sealSwipedCard(session, read, seal);
  }

  /**
   * Gives the card the host's answer (FCX, or FNC) and returns the card's final word: 'accepted'
   * when the card approved, 'refused' when it declined (sale/finish-chip.ts). Only for a CardRead
   * with needsChipCompletion.
   */
  async finishChip(answer: HostAnswer | null, signal?: AbortSignal): Promise<ChipFinish> {
    return finishChip(this.#context, answer, signal);
  }

  /**
   * Shows `message` (2 × 16, cut to fit) and waits until the card leaves the slot (RMC), for at
   * most removalMs. With no card in the slot (contactless, swipe, or already pulled) the PINPAD
   * answers at once, so this is also safe after a failed read.
   */
  async removeCard(message: string, signal?: AbortSignal): Promise<void> {
    await removeCard(this.#context, message, signal);
  }

  /**
   * Shows `text` (2 × 16, cut to fit) on the display, best effort: a display that fails must not
   * break a sale that is already decided, so this never throws; failures are logged.
   */
  async showResult(text: string): Promise<void> {
    await showResult(this.#context, text);
  }
}
