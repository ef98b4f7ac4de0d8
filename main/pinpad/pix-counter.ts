/**
 * Pix at the counter (issue 38): a bolepix's QR shown on a PINPAD while the agent watches for its
 * payment. One show per PINPAD: a new one replaces it. What it tells (events, for the POS and the
 * window):
 * - `paid`: the bolepix was paid — also when a card sale took the PINPAD meanwhile;
 * - `ended`: the QR is no longer shown: `reason` says why; `watching` is true only for
 *   `pinpad_taken` (a sale took the PINPAD; the watch goes on and ends with a second `ended`).
 *
 * The PINPAD: "PIX RECEBIDO" and the amount once paid, then after PAID_SHOWN_MS its idle text;
 * the idle text at once when the show is cancelled or expires — unless a sale or another show
 * has the PINPAD by then. The agent's QR file is deleted once its show is over.
 *
 * The payments API is read through `transactions` (PaymentsClient.transactions); time through a
 * Scheduler, so specs may move a fake clock.
 */
import { EventEmitter } from 'node:events';
import { DriverError } from '../../drivers/errors.js';
import { CodedError, messageOf } from '../../lib/errors.js';
import type { Transaction } from '../api/normalize.js';
import { centavos, type Centavos } from '../core/money.js';
import type { Scheduler } from '../core/scheduler.js';
import type { Logger } from '../log.js';
import {
  BrCodeError,
  checkBrCode,
  watchBolepix,
  type BolepixSource,
  type PaidVia,
  type PixWatch,
} from '../pix/index.js';
import { forgetPixImage, pixPaidText, showPixOnPinpad, type PixOnPinpad } from './pix-display.js';
import type { PinpadRegistry } from './registry.js';

/** How long "PIX RECEBIDO" stays before the idle text. */
export const PAID_SHOWN_MS = 4_000;

export type PixEndReason =
  /** Paid (pix.paid told how). */
  | 'paid'
  /** pix.cancel, or the bolepix was cancelled (or failed) at the provider. */
  | 'cancelled'
  /** The Pix code expired unpaid. */
  | 'expired'
  /** Another pix.show on the same PINPAD. */
  | 'replaced'
  /** A card sale took the PINPAD: the bolepix is still watched. */
  | 'pinpad_taken'
  /** The provider no longer knows the transaction. */
  | 'not_found'
  /** The agent is stopping. */
  | 'stopped';

export interface PixPaid {
  readonly transactionId: string;
  readonly terminal: string;
  readonly amount: Centavos;
  readonly via: PaidVia;
  readonly paidAt: string | null;
  readonly endToEndId: string | null;
  /** Who asked for the show (the POS client's id); null: the window. */
  readonly owner: string | null;
  /** What the PINPAD shows now ("PIX RECEBIDO" and the amount); null when a sale had taken it. */
  readonly pinpadLines: readonly string[] | null;
}

export interface PixEnded {
  readonly transactionId: string;
  readonly terminal: string;
  readonly reason: PixEndReason;
  /** The bolepix is still watched (pinpad_taken): a pix.paid, then another ended, may follow. */
  readonly watching: boolean;
  readonly owner: string | null;
}

/** A QR on a PINPAD (the `shown` event, and `list()`). */
export interface PixShown extends PixShowResult {
  readonly pinpad: PixOnPinpad;
  /** Who asked for the show (the POS client's id); null: the window. */
  readonly owner: string | null;
}

export interface PixCounterEvents {
  shown: [shown: PixShown];
  paid: [paid: PixPaid];
  ended: [ended: PixEnded];
}

export type PixShowErrorCode =
  /** The transaction is not a bolepix with a Pix code. */
  | 'NOT_BOLEPIX'
  /** Paid, cancelled or failed already: nothing to pay. */
  | 'NOT_PENDING'
  /** Its Pix code is no BR Code a bank app accepts (`reason`: the check's code). */
  | 'BR_CODE_INVALID';

export class PixShowError extends CodedError<PixShowErrorCode> {}

export interface PixShowResult {
  readonly transactionId: string;
  readonly terminal: string;
  readonly amount: Centavos;
  readonly brCode: string;
  readonly expiresAt: string | null;
  /** How it went onto the PINPAD; `taken`: a sale took the PINPAD before it was shown. */
  readonly pinpad: PixOnPinpad | { readonly kind: 'taken' };
}

export interface PixCounterOptions {
  readonly pinpads: PinpadRegistry;
  /** Transactions by id (PaymentsClient.transactions). */
  readonly transactions: BolepixSource & {
    retrieve(transactionId: string, options?: { readonly signal?: AbortSignal }): Promise<Transaction>;
  };
  readonly scheduler: Scheduler;
  readonly now?: () => Date;
  /** What the idle PINPAD shows (the agent's: training, disk full…). */
  readonly idleText: () => string;
  readonly logger?: Logger;
  readonly paidShownMs?: number;
}

interface Show {
  readonly transactionId: string;
  readonly terminal: string;
  readonly amount: Centavos;
  readonly owner: string | null;
  /** The image file of this show, to delete when it is over. */
  image: string | undefined;
  /** The QR (or its text) is what the PINPAD shows. */
  onPinpad: boolean;
  watch: PixWatch | undefined;
  over: boolean;
  /** Once on the PINPAD: what `list()` says of it. */
  shown: PixShown | undefined;
}

/** The bolepix's Pix code, checked as a bank app would read it, for the transaction's own amount. */
function checkedBrCode(payload: string, amount: number, transactionId: string): string {
  try {
    const checked = checkBrCode(payload);
    if (checked.amountCentavos !== undefined && checked.amountCentavos !== amount) {
      throw new PixShowError(
        'BR_CODE_INVALID',
        `The Pix code of ${transactionId} asks for ${checked.amountCentavos} centavos; the bolepix is of ${amount}.`,
      );
    }
    return checked.payload;
  } catch (error) {
    if (!(error instanceof BrCodeError)) throw error;
    throw new PixShowError(
      'BR_CODE_INVALID',
      `The Pix code of ${transactionId} is not a valid BR Code: ${error.message}`,
      {
        cause: error,
      },
    );
  }
}

/**
 * A bolepix with something left to pay, its Pix code checked: what pix.show shows and pix.print
 * prints. PixShowError NOT_BOLEPIX, NOT_PENDING or BR_CODE_INVALID otherwise.
 */
export function pendingBolepix(
  transaction: Transaction,
  transactionId: string = transaction.id,
): { readonly pix: NonNullable<Transaction['pix']>; readonly amount: Centavos; readonly brCode: string } {
  const pix = transaction.pix;
  if (transaction.payment_type !== 'bolepix' || pix?.qr_code === undefined || pix.qr_code === '') {
    throw new PixShowError('NOT_BOLEPIX', `Transaction ${transactionId} is not a bolepix with a Pix code.`);
  }
  if (
    transaction.status !== 'pending' ||
    transaction.boleto?.status === 'canceled' ||
    transaction.boleto?.status === 'paid'
  ) {
    throw new PixShowError('NOT_PENDING', `Bolepix ${transactionId} is ${transaction.status}: nothing to pay.`);
  }
  // The API client's contract check already holds the amount to whole centavos: a RangeError here is a bug.
  const amount = centavos(transaction.amount);
  return { pix, amount, brCode: checkedBrCode(pix.qr_code, amount, transactionId) };
}

export class PixCounter extends EventEmitter<PixCounterEvents> {
  readonly #options: PixCounterOptions;
  /** The show of each PINPAD, by serial. */
  readonly #shows = new Map<string, Show>();
  /** Shows a sale took, still watched, by transaction id. */
  readonly #watched = new Map<string, Show>();

  constructor(options: PixCounterOptions) {
    super();
    this.#options = options;
    // A sale on a PINPAD showing a QR takes it: the image goes, the watch stays.
    options.pinpads.on('busy', (entry) => {
      const show = this.#shows.get(entry.serialNumber);
      if (show === undefined || entry.paymentReference === null) return;
      this.#pinpadTaken(show);
    });
  }

  /** Shows a pending bolepix's QR on a PINPAD (`terminal`: its serial, unless only one), replacing its show. */
  async show(transactionId: string, terminal: string | undefined, owner: string | null): Promise<PixShowResult> {
    const { pinpads, transactions } = this.#options;
    const serial = pinpads.get(terminal).serialNumber;
    const transaction = await transactions.retrieve(transactionId);
    const { pix, amount, brCode } = pendingBolepix(transaction, transactionId);
    const previous = this.#shows.get(serial);
    if (previous !== undefined) this.#end(previous, 'replaced', { idle: false });
    for (const [id, watched] of this.#watched)
      if (id === transactionId) this.#end(watched, 'replaced', { idle: false });
    const show: Show = {
      transactionId,
      terminal: serial,
      amount,
      owner,
      image: undefined,
      onPinpad: true,
      watch: undefined,
      over: false,
      shown: undefined,
    };
    this.#shows.set(serial, show);
    let onPinpad: PixShowResult['pinpad'];
    try {
      const shown = await showPixOnPinpad(pinpads, serial, brCode, amount);
      if (shown.kind === 'image') show.image = shown.name;
      onPinpad = show.onPinpad ? shown : { kind: 'taken' };
    } catch (error) {
      // A sale's start aborts a load in flight (the driver's CANCELLED) before its payment is named.
      if (error instanceof DriverError && error.code === 'CANCELLED') this.#pinpadTaken(show);
      if (!show.onPinpad) {
        // A sale took the PINPAD mid-load: the QR is not shown, the bolepix is still watched.
        onPinpad = { kind: 'taken' };
      } else {
        this.#shows.delete(serial);
        show.over = true;
        throw error;
      }
    }
    const result: PixShowResult = {
      transactionId,
      terminal: serial,
      amount,
      brCode,
      expiresAt: pix.expiration_date_time ?? null,
      pinpad: onPinpad,
    };
    if (show.over) return result;
    // Taken mid-load: the POS and the window heard pix.ended pinpad_taken; nothing is on the PINPAD.
    if (onPinpad.kind !== 'taken') {
      show.shown = { ...result, pinpad: onPinpad, owner };
      this.emit('shown', show.shown);
    }
    show.watch = watchBolepix(transactions, transactionId, {
      scheduler: this.#options.scheduler,
      now: this.#options.now ?? (() => new Date()),
    });
    void show.watch.done.then((outcome) => {
      if (show.over) return;
      if (outcome.state === 'paid') {
        this.emit('paid', {
          transactionId,
          terminal: serial,
          amount: outcome.amount,
          via: outcome.via,
          paidAt: outcome.paidAt,
          endToEndId: outcome.endToEndId,
          owner,
          pinpadLines: show.onPinpad ? pixPaidText(outcome.amount).split('\n') : null,
        });
        this.#end(show, 'paid', { idle: true, paid: outcome.amount });
      } else if (outcome.state === 'expired') this.#end(show, 'expired', { idle: true });
      else if (outcome.state === 'not_found') this.#end(show, 'not_found', { idle: true });
      else if (outcome.state === 'cancelled' || outcome.state === 'not_bolepix')
        this.#end(show, 'cancelled', { idle: true });
    });
    return result;
  }

  /** The QRs on the PINPADs now (a window that opens mid-show draws them from here). */
  list(): PixShown[] {
    return [...this.#shows.values()].flatMap((show) => (show.shown === undefined ? [] : [show.shown]));
  }

  /** Reads a bolepix shown (or still watched) now, not at the next poll: someone says it was just paid. */
  checkNow(transactionId: string): void {
    this.#showOf(transactionId)?.watch?.checkNow();
  }

  /** Ends the show of a bolepix (the PINPAD back to idle); false when none is on. */
  cancel(transactionId: string): boolean {
    const show = this.#showOf(transactionId);
    if (show === undefined) return false;
    this.#end(show, 'cancelled', { idle: true });
    return true;
  }

  /** The agent stops: every watch ends (`stopped`); the PINPADs are left as they are. */
  close(): void {
    for (const show of this.#all()) this.#end(show, 'stopped', { idle: false });
  }

  /** Every show on: on a PINPAD, or taken by a sale and still watched. */
  #all(): Show[] {
    return [...this.#shows.values(), ...this.#watched.values()];
  }

  #showOf(transactionId: string): Show | undefined {
    return this.#all().find((show) => show.transactionId === transactionId);
  }

  #pinpadTaken(show: Show): void {
    if (!show.onPinpad) return;
    show.onPinpad = false;
    this.#shows.delete(show.terminal);
    this.#watched.set(show.transactionId, show);
    this.emit('ended', {
      transactionId: show.transactionId,
      terminal: show.terminal,
      reason: 'pinpad_taken',
      watching: true,
      owner: show.owner,
    });
  }

  #end(show: Show, reason: PixEndReason, after: { readonly idle: boolean; readonly paid?: Centavos }): void {
    if (show.over) return;
    show.over = true;
    show.watch?.stop();
    if (this.#shows.get(show.terminal) === show) this.#shows.delete(show.terminal);
    this.#watched.delete(show.transactionId);
    this.emit('ended', {
      transactionId: show.transactionId,
      terminal: show.terminal,
      reason,
      watching: false,
      owner: show.owner,
    });
    if (show.onPinpad && after.idle) void this.#backToIdle(show, after.paid);
  }

  /** "PIX RECEBIDO" for a while when paid, then the idle text, unless the PINPAD went on to something else. */
  async #backToIdle(show: Show, paid: Centavos | undefined): Promise<void> {
    const { pinpads, scheduler, idleText, logger } = this.#options;
    // A sale meanwhile (even one already over) drew its own screens: the idle text is no longer ours to show.
    let taken = false;
    const onBusy = (entry: { serialNumber: string; busy: boolean }): void => {
      if (entry.serialNumber === show.terminal && entry.busy) taken = true;
    };
    const free = (): boolean => !taken && !this.#shows.has(show.terminal) && !pinpads.get(show.terminal).busy;
    try {
      if (paid !== undefined) {
        await pinpads.display(show.terminal, pixPaidText(paid));
        pinpads.on('busy', onBusy);
        await new Promise<void>((resolve) => scheduler.after(this.#options.paidShownMs ?? PAID_SHOWN_MS, resolve));
        // From here the PINPAD is busy with this show's own commands.
        pinpads.off('busy', onBusy);
      }
      if (free()) await pinpads.display(show.terminal, idleText());
      if (show.image !== undefined && free()) await forgetPixImage(pinpads, show.terminal, show.image);
    } catch (error) {
      // A sale or an unplug took the PINPAD: what it shows is theirs now.
      logger?.debug(
        { terminal: show.terminal, err: messageOf(error) },
        'the PINPAD was not returned to idle after a Pix',
      );
    } finally {
      pinpads.off('busy', onBusy);
    }
  }
}
