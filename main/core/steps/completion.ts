/**
 * After the chip accepted: the completion report, the approval journaled with its receipts for
 * the POS to confirm (or confirmed at once under the `auto` policy), and the confirmation.
 */
import type { StepText } from '../events.js';
import type { JournalMove } from '../journal/journal.js';
import type { PaymentRecord } from '../journal/record.js';
import { errorText, move, type StepsDeps } from './context.js';

/** The `awaiting_confirmation` step of a payment the `auto` policy confirms in the same commit. */
const AUTO_CONFIRMED_TEXT: StepText = ['Approved; confirmed automatically', 'Aprovada'];

/** The completion report after the chip accepted (informational: the API already approved). */
export async function reportCompletion(deps: StepsDeps, record: PaymentRecord, emvData?: string): Promise<void> {
  if (record.transactionId === null) return;
  try {
    await deps.payments.terminal.complete(
      record.transactionId,
      { terminal: record.terminal, chip_result: 'accepted', ...(emvData ? { emv_data: emvData } : {}) },
      { timeoutMs: deps.config.apiTimeoutMs },
    );
  } catch (error) {
    deps.logger.warn(
      { payment: record.id, error: errorText(error) },
      'completion report not sent; the approval stands',
    );
  }
}

/**
 * `completing` → `awaiting_confirmation`: with the `pos` deadline, or — under `auto` — straight
 * on to `confirmed` in the same commit (nothing happens between the two). The commit's fsync
 * runs off the event loop while `meanwhile` (the customer taking the card out) goes on; the
 * progress events, the first thing anyone outside hears of it, wait for both.
 */
export async function awaitConfirmation(
  deps: StepsDeps,
  record: PaymentRecord,
  meanwhile: () => Promise<void> = () => Promise.resolve(),
): Promise<PaymentRecord> {
  const ready = 'approved; receipts ready';
  const moves: JournalMove[] =
    record.confirmation === 'auto'
      ? [
          { to: 'awaiting_confirmation', patch: { confirmDeadline: null }, note: ready },
          { to: 'confirmed', note: 'confirmed by the auto policy' },
        ]
      : [
          {
            to: 'awaiting_confirmation',
            patch: {
              confirmDeadline: new Date(deps.now().getTime() + deps.config.confirmationDeadlineMs).toISOString(),
            },
            note: ready,
          },
        ];
  const { records, onDisk } = deps.journal.transitionsSyncedLater(record.id, moves);
  // Both settle before either can throw: a failed fsync must not leave the PINPAD mid-command.
  const [synced, done] = await Promise.allSettled([onDisk, meanwhile()]);
  if (synced.status === 'rejected') throw synced.reason;
  if (done.status === 'rejected') throw done.reason;
  // Under `auto` nobody is waited for: "aguardando confirmação" would be untrue the moment it shows.
  deps.emit(records[0]!, 'awaiting_confirmation', records[1] ? AUTO_CONFIRMED_TEXT : undefined);
  if (records[1]) deps.emit(records[1], 'confirmed');
  return records.at(-1)!;
}

export function confirm(deps: StepsDeps, record: PaymentRecord, note: string): PaymentRecord {
  const confirmed = move(deps, record, 'confirmed', {}, note);
  deps.emit(confirmed, 'confirmed');
  return confirmed;
}
