/**
 * The states of one PINPAD payment and the only moves between them. Every state is written to the
 * journal *before* the side effect it announces (architecture §6: nothing lost, exactly once), so
 * after a crash the state says what may have happened and what recovery must do:
 *
 *   intent                 journaled; no API transaction may exist yet — or one created just
 *                          before the crash: recovery looks it up by reference_id
 *   created                the pending API transaction exists (transaction id known); the PINPAD
 *                          shows the amount and waits for the card
 *   card_read              a card was read (masked PAN, brand, entry mode); PIN / chip next
 *   authorizing            the authorization is being sent: its outcome is unknown until answered
 *   unknown                the answer was lost (timeout, reset, crash): resolved against the API,
 *                          never by authorizing again
 *   approved               the issuer approved; the chip has not given its final word yet
 *   completing             the chip accepted; the completion is being reported to the API
 *   awaiting_confirmation  approved and complete; receipts ready; the POS (or the policy) confirms
 *   confirmed              final: the sale stands (it can still be voided: → undoing)
 *   declined               final: the issuer or the card declined; nothing was charged
 *   reversing              the chip refused after approval, or the outcome was approved too late:
 *                          a reversal is being sent (retried until the API takes it)
 *   reversed               final: approved, then reversed; nothing was charged
 *   aborting               cancelled, failed or declined by the card before any online approval:
 *                          the pending API transaction is being cancelled (retried until it lands)
 *   cancelled              final: cancelled by the POS, the cashier or the customer
 *   failed                 final: an error ended the payment before any approval
 *   undoing                the POS, the cashier or the policy undid an approved sale: a void is
 *                          being sent (retried until it lands)
 *   undone                 final: the approved sale was voided
 */

export const PAYMENT_STATES = [
  'intent',
  'created',
  'card_read',
  'authorizing',
  'unknown',
  'approved',
  'completing',
  'awaiting_confirmation',
  'confirmed',
  'declined',
  'reversing',
  'reversed',
  'aborting',
  'cancelled',
  'failed',
  'undoing',
  'undone',
] as const;

export type PaymentState = (typeof PAYMENT_STATES)[number];

export const FINAL_STATES: ReadonlySet<PaymentState> = new Set([
  'confirmed',
  'declined',
  'reversed',
  'cancelled',
  'failed',
  'undone',
]);

/** States whose pending API call (cancel, reverse, void) must be retried until it lands: the undo queue. */
export const UNDO_STATES: ReadonlySet<PaymentState> = new Set(['aborting', 'reversing', 'undoing']);

/**
 * States whose entry is on the disk itself (fsync) before anyone outside the process hears of it
 * (before the journal call returns, or — awaiting_confirmation and confirmed after an approval —
 * before the engine answers, the fsync overlapping the card's removal): those whose
 * loss to a power cut would leave the journal contradicting what the world outside was told or
 * asked for —
 * - `intent`: the anchor of the reference; without it an API transaction could exist that no
 *   record owns (and the pending poll would take it for someone else's);
 * - `awaiting_confirmation` and the final states: the POS is answered from them;
 * - `undoing`: the POS asked for a void of a sale it was told stands.
 *
 * Every other move (created, card_read, authorizing, unknown, approved, completing, aborting,
 * reversing, and field updates) reaches the write-ahead log at once, so a kill -9 cannot lose
 * it, and the disk with the next synced commit. A power cut in between takes the payment back to
 * its last synced state — at worst `intent`, with the POS not yet answered — and recovery then
 * reads the API and cancels or reverses whatever the lost moves did there: never a charge the
 * POS was not told of, never a second one.
 */
export const SYNCED_STATES: ReadonlySet<PaymentState> = new Set([
  'intent',
  'undoing',
  'awaiting_confirmation',
  ...FINAL_STATES,
]);

/** Where each state may go next. Anything else is a bug and is refused by the journal. */
export const TRANSITIONS: Readonly<Record<PaymentState, readonly PaymentState[]>> = {
  // intent → declined/cancelled/failed directly only when recovery proves no transaction exists.
  intent: ['created', 'aborting', 'cancelled', 'failed'],
  created: ['card_read', 'aborting'],
  card_read: ['authorizing', 'aborting'],
  authorizing: ['approved', 'declined', 'unknown'],
  unknown: ['approved', 'declined', 'reversing', 'aborting'],
  approved: ['completing', 'reversing'],
  completing: ['awaiting_confirmation'],
  awaiting_confirmation: ['confirmed', 'undoing'],
  // A confirmed sale can still be voided the same day (the cashier's "cancel" in the window).
  confirmed: ['undoing'],
  declined: [],
  reversing: ['reversed'],
  reversed: [],
  // An offline decline by the card also ends here: the pending transaction is cancelled first.
  aborting: ['cancelled', 'failed', 'declined'],
  cancelled: [],
  failed: [],
  undoing: ['undone'],
  undone: [],
};

export const isFinal = (state: PaymentState): boolean => FINAL_STATES.has(state);

/** States where the payment's result is known to the POS (an approval may still await confirmation). */
export const isProcessed = (state: PaymentState): boolean => isFinal(state) || state === 'awaiting_confirmation';

/** States whose result is decided, though an API call (cancel, reverse, void) may still be queued. */
export const isDecided = (state: PaymentState): boolean => isProcessed(state) || UNDO_STATES.has(state);

/**
 * Whether a payment's result is decided, as the POS and the window are told it beside the state
 * (so no client keeps its own copy of the list): `in_progress` at the PINPAD or waiting for
 * the authorization, `decided` from then on.
 */
export type PaymentPhase = 'in_progress' | 'decided';

export const phaseOf = (state: PaymentState): PaymentPhase => (isDecided(state) ? 'decided' : 'in_progress');

export const canMove = (from: PaymentState, to: PaymentState): boolean => TRANSITIONS[from].includes(to);
