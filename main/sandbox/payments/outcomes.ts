/**
 * The sandbox's deterministic test outcomes for card payments. A test card (first 6 + last 4
 * digits) decides first; otherwise the last two digits of the amount in centavos do. Anything
 * else is approved. The table is documented in docs/terminal-channel.md; keep them in step.
 */

/** Why an issuer declined, with the two-character response code it answers. */
export interface Decline {
  readonly code: string;
  /** Null when no issuer was asked (the card was never read). */
  readonly responseCode: string | null;
  readonly message: string;
}

export type Outcome =
  | { readonly kind: 'approved' }
  /** Approved at once, but the HTTP answer is held back (the lost-response scenario). */
  | { readonly kind: 'approved_slow' }
  | { readonly kind: 'declined'; readonly decline: Decline };

export const DECLINES = {
  insufficient_funds: { code: 'insufficient_funds', responseCode: '51', message: 'Insufficient funds' },
  do_not_honor: { code: 'do_not_honor', responseCode: '05', message: 'Do not honor' },
  expired_card: { code: 'expired_card', responseCode: '54', message: 'Expired card' },
  incorrect_pin: { code: 'incorrect_pin', responseCode: '55', message: 'Incorrect PIN' },
  transaction_not_allowed: {
    code: 'transaction_not_allowed',
    responseCode: '57',
    message: 'Transaction not permitted to cardholder',
  },
  suspected_fraud: { code: 'suspected_fraud', responseCode: '59', message: 'Suspected fraud' },
  issuer_unavailable: { code: 'issuer_unavailable', responseCode: '91', message: 'Issuer or switch inoperative' },
  /** The tap-to-pay phone's explicit "declined" (the service family's mPOS failure code). */
  card_declined: { code: 'card_declined', responseCode: '05', message: 'Card declined' },
  /** The phone could not read the card: no issuer was asked, so there is no response code. */
  nfc_read_error: { code: 'nfc_read_error', responseCode: null, message: 'The card could not be read by NFC' },
} as const satisfies Record<string, Decline>;

/** Test cards, keyed by first 6 + last 4 digits (the only card digits the API ever sees). */
export const TEST_CARDS: ReadonlyMap<string, Decline> = new Map<string, Decline>([
  // The service family's sandbox "declined" card 6011457819940087.
  ['6011450087', DECLINES.insufficient_funds],
  ['4000009995', DECLINES.insufficient_funds],
  ['4000000069', DECLINES.expired_card],
  ['4000000002', DECLINES.do_not_honor],
]);

/** The last two digits of the amount (centavos) that decline, or hold the answer. */
export const AMOUNT_ENDINGS: ReadonlyMap<number, Outcome> = new Map<number, Outcome>([
  [51, { kind: 'declined', decline: DECLINES.insufficient_funds }],
  [5, { kind: 'declined', decline: DECLINES.do_not_honor }],
  [54, { kind: 'declined', decline: DECLINES.expired_card }],
  [55, { kind: 'declined', decline: DECLINES.incorrect_pin }],
  [57, { kind: 'declined', decline: DECLINES.transaction_not_allowed }],
  [59, { kind: 'declined', decline: DECLINES.suspected_fraud }],
  [91, { kind: 'declined', decline: DECLINES.issuer_unavailable }],
  [96, { kind: 'approved_slow' }],
]);

export function decideOutcome(input: {
  amountCentavos: number;
  first6?: string | undefined;
  last4?: string | undefined;
}): Outcome {
  if (input.first6 !== undefined && input.last4 !== undefined) {
    const card = TEST_CARDS.get(`${input.first6}${input.last4}`);
    if (card) return { kind: 'declined', decline: card };
  }
  return AMOUNT_ENDINGS.get(input.amountCentavos % 100) ?? { kind: 'approved' };
}
