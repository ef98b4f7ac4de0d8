/**
 * Tap to pay: a charge pushed to the seller's phone (contactless on the phone's NFC). It is
 * created pending and finishes when the payer taps a card on the phone; `waitForCompletion`
 * polls until then.
 */
import type { Transaction } from '../normalize.js';
import type { CreateOptions } from './context.js';
import type { TapToPayParams, TransactionsResource, WaitOptions } from './transactions.js';

/** A tap-to-pay request without payment_locale (this module sets it). */
export type TapToPayCreateParams = Omit<TapToPayParams, 'payment_locale'>;

export class TapToPayResource {
  readonly #transactions: TransactionsResource;

  constructor(transactions: TransactionsResource) {
    this.#transactions = transactions;
  }

  async create(params: TapToPayCreateParams, options?: CreateOptions): Promise<Transaction> {
    return this.#transactions.create({ ...params, payment_locale: 'tap_to_pay' }, options);
  }

  /** Resolves with the transaction once the phone has approved or declined it. */
  async waitForCompletion(transactionId: string, options?: WaitOptions): Promise<Transaction> {
    return this.#transactions.waitForCompletion(transactionId, options);
  }
}
