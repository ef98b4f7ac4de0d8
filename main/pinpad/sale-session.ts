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
 * Abecs 2.x PINPADs only (GCX/GOX/FCX); a legacy PINPAD answers GCX with ST_INVCALL (PINPAD_ERROR).
 */
import type { FcxRequest } from '../../drivers/abecs/commands/fcx.js';
import { fcxCommand } from '../../drivers/abecs/commands/fcx.js';
import { dspCommand } from '../../drivers/abecs/commands/dsp.js';
import { gcdCommand, gcdRequestFor } from '../../drivers/abecs/commands/gcd.js';
import { gcxCommand, type GcxRequest } from '../../drivers/abecs/commands/gcx.js';
import { goxCommand, type GoxResult } from '../../drivers/abecs/commands/gox.js';
import { gpnCommand } from '../../drivers/abecs/commands/gpn.js';
import { mnuCommand } from '../../drivers/abecs/commands/mnu.js';
import { rmcCommand } from '../../drivers/abecs/commands/rmc.js';
import { localDateTime, type Pinpad, type PinpadNotification, type WaitOptions } from '../../drivers/abecs/pinpad.js';
import { AbecsStatusError } from '../../drivers/abecs/status.js';
import { silentLogger, type DriverLogger } from '../../drivers/log.js';
import { isValidCpf } from '../validation/taxpayer-id.js';
import { DEFAULT_SALE_TIMEOUTS, type CardRead, type ChipDecision, type ChipFinish, type SaleTimeouts } from '../core/ports.js';
import {
  AUTHORIZATION_TAGS,
  CardDataError,
  COMPLETION_TAGS,
  cardSaleData,
  emvDataHex,
  summarizeCardRead,
  type CardReadSummary,
  type SwipedCardPin,
} from './card-data.js';
import { cardReadRetryFor } from './card-read-retry.js';
import { amountLine, amountScreen, fitMessage, installmentChoices } from './display-text.js';
import { SaleStepError, saleStepErrorOf, type SaleStep } from './sale-errors.js';

export { SaleStepError, saleStepErrorOf, type SaleStep, type SaleStepErrorCode } from './sale-errors.js';
export { DEFAULT_SALE_TIMEOUTS, type CardRead, type ChipDecision, type SaleTimeouts } from '../core/ports.js';

/** Added to the host's limit where the PINPAD enforces the step's limit itself (SPE_TIMEOUT). */
export const HOST_GRACE_MS = 5_000;

/** T1_APPTYPE of the AID tables: which applications a GCX may select (abecs.md §3.13). */
export const APPLICATION_TYPES = Object.freeze({ credit: 1, debit: 2 } as const);

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
  /** The DUKPT key slot for online PINs (SPE_KEYIDX / GPN_KEYIDX): 1 unless the acquirer's key lives elsewhere. */
  readonly pinKeyIndex?: number;
  readonly logger?: DriverLogger;
}

export interface ReadCardRequest {
  /** Integer centavos > 0. */
  readonly amount: number;
  readonly paymentType: 'credit' | 'debit';
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
    if (!Number.isFinite(value) || value <= 0) throw new RangeError(`timeouts.${name} must be a positive number of ms, got ${String(value)}.`);
  }
  return timeouts;
}

function checkAmount(amount: number): void {
  // GCX/GOX carry the amount as N12.
  if (!Number.isSafeInteger(amount) || amount <= 0 || amount > 999_999_999_999) {
    throw new RangeError(`The amount must be a positive integer number of centavos (at most 12 digits), got ${amount}.`);
  }
}

/** A swiped card asks for a PIN on a debit sale, or when its service code says so (digit 3: 0, 3, 5, 6, 7). */
function swipeNeedsPin(read: CardReadSummary, paymentType: 'credit' | 'debit'): boolean {
  if (paymentType === 'debit') return true;
  return read.serviceCode !== undefined && '03567'.includes(read.serviceCode[2]!);
}

export class PinpadSale {
  private readonly pinpad: Pinpad;
  private readonly timeouts: SaleTimeouts;
  private readonly onMessage: ((text: string) => void) | undefined;
  private readonly pinKeyIndex: number;
  private readonly logger: DriverLogger;

  constructor(pinpad: Pinpad, options: PinpadSaleOptions = {}) {
    this.pinpad = pinpad;
    this.timeouts = checkTimeouts({ ...DEFAULT_SALE_TIMEOUTS, ...options.timeouts });
    this.onMessage = options.onMessage;
    this.pinKeyIndex = options.pinKeyIndex ?? 1;
    if (!Number.isInteger(this.pinKeyIndex) || this.pinKeyIndex < 0 || this.pinKeyIndex > 99) {
      throw new RangeError(`pinKeyIndex must be an integer from 0 to 99, got ${this.pinKeyIndex}.`);
    }
    this.logger = options.logger ?? silentLogger;
  }

  /** Line 1 "R$ 1.234,56", line 2 the notification's first 16 columns (DSP). */
  async showAmount(amount: number, notification: string | null): Promise<void> {
    checkAmount(amount);
    await this.step('show_amount', () => this.pinpad.execute(dspCommand, { message: amountScreen(amount, notification) }));
  }

  /**
   * Asks the customer how many installments (MNU): "A VISTA", "2X R$ 50,00"… up to `max`, only
   * while each installment is at least `minInstallmentAmount`. Returns 1…max. When only "A VISTA"
   * qualifies the PINPAD is not asked and 1 comes back at once.
   */
  async chooseInstallments(
    amount: number,
    options: { max: number; minInstallmentAmount: number },
    signal?: AbortSignal,
  ): Promise<number> {
    const choices = installmentChoices(amount, options);
    if (choices.length === 1) return 1;
    return this.step('installments', async () => {
      const { index } = await this.pinpad.execute(
        mnuCommand,
        {
          title: 'EM QUANTAS VEZES',
          options: choices.map((choice) => choice.label),
          timeoutSeconds: pinpadSeconds(this.timeouts.menuMs),
        },
        this.wait(signal, this.timeouts.menuMs + HOST_GRACE_MS),
      );
      const chosen = choices[index - 1];
      if (!chosen) throw new SaleStepError('PINPAD_ERROR', 'installments', { message: `the PINPAD answered option ${index} of ${choices.length}.` });
      return chosen.installments;
    });
  }

  /**
   * The customer's CPF typed on the keypad (GCD "DIGITE O CPF", 11 digits). A CPF whose check
   * digits are wrong is asked again ("REDIGITE O CPF") until a valid one comes, the customer
   * cancels, or menuMs — the limit of the whole step, not of each attempt — runs out (TIMEOUT,
   * saying the CPF was invalid). Returns the 11 digits.
   */
  async readTaxId(signal?: AbortSignal): Promise<string> {
    return this.step('tax_id', async () => {
      const deadline = performance.now() + this.timeouts.menuMs;
      for (let attempt = 1; ; attempt++) {
        const remaining = deadline - performance.now();
        if (remaining <= 0) {
          throw new SaleStepError('TIMEOUT', 'tax_id', {
            message: `no valid CPF within ${this.timeouts.menuMs} ms (${attempt - 1} invalid).`,
            cashierMessage: 'CPF inválido digitado no PINPAD. Tempo esgotado.',
          });
        }
        const { value } = await this.pinpad.execute(
          gcdCommand,
          gcdRequestFor(attempt === 1 ? 'cpf' : 'cpfAgain', pinpadSeconds(remaining)),
          this.wait(signal, remaining + HOST_GRACE_MS),
        );
        if (/^[0-9]{11}$/.test(value) && isValidCpf(value)) return value;
        this.logger.info({ step: 'tax_id', attempt }, 'invalid CPF typed; asking again');
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
   * 2. Chip and contactless chip: GOX (step chip, limit pinMs): force online, DUKPT online PIN in
   *    slot `pinKeyIndex`, PIN bypass not allowed. A swiped card: GPN (step chip) for the PIN on a
   *    debit sale or when its service code asks for one; nothing otherwise.
   *
   * A chip card stays in the slot whatever happens: call removeCard afterwards, on failure too.
   */
  async readCard(request: ReadCardRequest): Promise<CardRead> {
    checkAmount(request.amount);
    const { amount, paymentType, signal } = request;
    // The raw GCX answer (maybe a clear PAN, tracks, the name) is reduced at once and dropped;
    // an unusable card fails here, before the customer is asked for a PIN.
    const read = await this.readCardWithRetries(amount, paymentType, signal);
    const chipCard = read.entryMode === 'chip' || read.entryMode === 'contactless_chip';
    if (chipCard) {
      const acquirer = await this.step('read_card', () => acquirerFor(read, paymentType));
      const chip = await this.step('chip', () =>
        this.pinpad.execute(
          goxCommand,
          {
            acquirer,
            transactionType: TRANSACTION_PURCHASE,
            amount,
            currency: CURRENCY_BRL,
            options: { exceptionList: false, forceOnline: true, noPinBypass: true },
            pinMethod: 'dukpt',
            keyIndex: this.pinKeyIndex,
            tagList: AUTHORIZATION_TAGS,
            timeout: pinpadSeconds(this.timeouts.pinMs),
          },
          this.wait(signal, this.timeouts.pinMs + HOST_GRACE_MS),
        ),
      );
      const data = await this.step('chip', () => cardSaleData(read, { chip }));
      const chipDecision = CHIP_DECISIONS[chip.decision];
      return { ...data, chipDecision, needsChipCompletion: chipDecision === 'online' };
    }
    let swipedPin: SwipedCardPin | null = null;
    if (swipeNeedsPin(read, paymentType)) {
      swipedPin = await this.step('chip', () =>
        this.pinpad.execute(
          gpnCommand,
          {
            method: 'dukpt',
            keyIndex: this.pinKeyIndex,
            minDigits: PIN_MIN_DIGITS,
            maxDigits: PIN_MAX_DIGITS,
            message: `${amountLine(amount, 'VALOR: ')}\nSENHA:`,
          },
          this.wait(signal, this.timeouts.pinMs + HOST_GRACE_MS),
        ),
      );
    }
    const data = await this.step('chip', () => cardSaleData(read, { swipedPin }));
    return { ...data, chipDecision: 'online', needsChipCompletion: false };
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
    let request: FcxRequest;
    if (answer === null) {
      request = { outcome: 'noHostResponse', tagList: COMPLETION_TAGS, timeout: pinpadSeconds(this.timeouts.cardMs) };
    } else {
      const issuerData = answer.issuerEmvData ?? '';
      const validHex = /^(?:[0-9A-Fa-f]{2})*$/.test(issuerData);
      if (!validHex) this.logger.warn({ length: issuerData.length }, 'issuer EMV data is not hex; finishing the chip without it');
      request = {
        outcome: answer.approved ? 'approved' : 'declined',
        arc: answer.responseCode,
        ...(validHex && issuerData.length > 0 ? { emvData: Buffer.from(issuerData, 'hex') } : {}),
        tagList: COMPLETION_TAGS,
        timeout: pinpadSeconds(this.timeouts.cardMs),
      };
    }
    const result = await this.step('finish_chip', () =>
      this.pinpad.execute(fcxCommand, request, this.wait(signal, this.timeouts.cardMs + HOST_GRACE_MS)),
    );
    // Chip data the PINPAD returns malformed must not turn an accepted card into a failed sale.
    let emvData: string | null = null;
    try {
      emvData = emvDataHex(result.emvData) ?? null;
    } catch (error) {
      this.logger.warn({ code: error instanceof CardDataError ? error.code : 'UNKNOWN' }, 'completion EMV data unreadable; reported without it');
    }
    return { decision: result.decision === 'approved' ? 'accepted' : 'refused', emvData };
  }

  /**
   * Shows `message` (2 × 16, cut to fit) and waits until the card leaves the slot (RMC), for at
   * most removalMs. With no card in the slot (contactless, swipe, or already pulled) the PINPAD
   * answers at once, so this is also safe after a failed read.
   */
  async removeCard(message: string, signal?: AbortSignal): Promise<void> {
    await this.step('remove_card', () =>
      this.pinpad.execute(rmcCommand, { message: fitMessage(message) }, this.wait(signal, this.timeouts.removalMs)),
    );
  }

  /**
   * Shows `text` (2 × 16, cut to fit) on the display, best effort: a display that fails must not
   * break a sale that is already decided, so this never throws; failures are logged.
   */
  async showResult(text: string): Promise<void> {
    try {
      await this.pinpad.execute(dspCommand, { message: fitMessage(text) });
    } catch (error) {
      const failure = saleStepErrorOf(error, 'show_result');
      this.logger.warn({ step: 'show_result', code: failure.code }, 'the PINPAD did not show the result');
    }
  }

  // ---------------------------------------------------------------------------------------------

  /** GCX, read again while the failure is one the customer can fix and time is left. */
  private async readCardWithRetries(
    amount: number,
    paymentType: 'credit' | 'debit',
    signal: AbortSignal | undefined,
  ): Promise<CardReadSummary> {
    const deadline = performance.now() + this.timeouts.cardMs;
    let contactless = true;
    let prompt: string | undefined;
    let afterChipError = false;
    let contactlessCommErrors = 0;
    for (let reads = 1; ; reads++) {
      const remaining = Math.max(1, deadline - performance.now());
      const request: Omit<GcxRequest, 'date' | 'time'> = {
        transactionType: TRANSACTION_PURCHASE,
        appTypes: [APPLICATION_TYPES[paymentType]],
        amount,
        currency: CURRENCY_BRL,
        options: { contactless, hideAmount: false },
        panMask: { left: 6, right: 4 },
        tagList: AUTHORIZATION_TAGS,
        timeout: pinpadSeconds(remaining),
        ...(prompt !== undefined ? { prompt } : {}),
      };
      try {
        const read = await this.pinpad.execute(
          gcxCommand,
          { ...localDateTime(new Date()), ...request },
          this.wait(signal, remaining + HOST_GRACE_MS),
        );
        return summarizeCardRead(read, { afterChipError });
      } catch (error) {
        if (!(error instanceof AbecsStatusError)) throw this.failure(error, 'read_card');
        contactlessCommErrors = error.code === 'ST_CTLSCOMMERR' ? contactlessCommErrors + 1 : 0;
        const next = cardReadRetryFor(error.code, { reads, contactless, contactlessCommErrors });
        if (!next.retry || deadline - performance.now() <= 0 || signal?.aborted) throw this.failure(error, 'read_card');
        this.logger.info({ step: 'read_card', code: error.code, contactless: next.contactless }, 'reading the card again');
        this.message(error.cashierMessage);
        contactless = next.contactless;
        prompt = next.prompt;
        afterChipError ||= next.fallback;
      }
    }
  }

  /** Runs one step, turning whatever it throws into a SaleStepError of that step. */
  private async step<T>(step: SaleStep, run: () => T | Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw this.failure(error, step);
    }
  }

  /** The SaleStepError for `error`, logged (code and step only: never card data). */
  private failure(error: unknown, step: SaleStep): SaleStepError {
    const failure = saleStepErrorOf(error, step);
    this.logger.info({ step, code: failure.code }, 'PINPAD sale step failed');
    return failure;
  }

  private wait(
    signal: AbortSignal | undefined,
    timeoutMs: number,
  ): WaitOptions & { onNotification: (notification: PinpadNotification) => void } {
    return {
      ...(signal ? { signal } : {}),
      timeoutMs,
      onNotification: (notification) => this.message(notification.lines.filter((line) => line.length > 0).join(' ')),
    };
  }

  private message(text: string): void {
    if (!this.onMessage || text.length === 0) return;
    try {
      this.onMessage(text);
    } catch (error) {
      // A listener's bug must not break the PINPAD exchange in flight.
      this.logger.warn({ error: error instanceof Error ? error.name : typeof error }, 'onMessage listener threw');
    }
  }
}

/** The acquirer whose AID table matched the card with an application of the sale's type. */
function acquirerFor(read: CardReadSummary, paymentType: 'credit' | 'debit'): number {
  const entries = read.aidTableInfo;
  if (entries === undefined) {
    throw new SaleStepError('PINPAD_ERROR', 'read_card', { message: 'the PINPAD read a chip card without saying which AID table matched.' });
  }
  const wanted = APPLICATION_TYPES[paymentType];
  const match = entries.find((entry) => entry.appType === wanted);
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
