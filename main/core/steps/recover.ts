/**
 * Recovery of one payment no run is driving (found at start-up, or before a new sale): brought
 * to a defined state from the journal and the API. The PINPAD part cannot resume: whatever had
 * not reached an approval is cancelled.
 */
import type { PaymentProblem, PaymentRecord } from '../journal/record.js';
import type { ProviderTransaction } from '../ports.js';
import { problem } from '../problems.js';
import { resolveUnknown } from './authorization.js';
import { awaitConfirmation, reportCompletion } from './completion.js';
import { errorText, land, move, type StepsDeps } from './context.js';
import { findOwn } from './provider-transactions.js';
import { abort, reverse, settle } from './undo.js';

/**
 * Brings a payment no run is driving (found at start-up, or before a new sale) to a defined
 * state. The PINPAD part cannot resume: whatever had not reached an approval is cancelled.
 */
export async function recover(
  deps: StepsDeps,
  record: PaymentRecord,
  interrupted: PaymentProblem = problem('INTERRUPTED'),
): Promise<PaymentRecord> {
  switch (record.state) {
    case 'intent':
      return recoverIntent(deps, record, interrupted);
    case 'created':
    case 'card_read':
      return abort(deps, record, interrupted, 'failed');
    case 'authorizing': {
      const unknown = move(deps, record, 'unknown', {}, 'interrupted while authorizing');
      return resolveUnknown(deps, unknown, false, interrupted);
    }
    case 'unknown':
      return resolveUnknown(deps, record, false, interrupted);
    case 'approved':
      return reverse(
        deps,
        record,
        interrupted.code === 'INTERRUPTED' ? problem('INTERRUPTED', 'the chip never gave its final word') : interrupted,
        'unknown_outcome',
      );
    case 'completing':
      await reportCompletion(deps, record);
      return await awaitConfirmation(deps, record);
    case 'aborting':
    case 'reversing':
    case 'undoing':
      return settle(deps, record);
    default:
      return record;
  }
}

/** An intent: its transaction, if the creation reached the API, is found by reference and cancelled. */
async function recoverIntent(
  deps: StepsDeps,
  record: PaymentRecord,
  interrupted: PaymentProblem,
): Promise<PaymentRecord> {
  let found: ProviderTransaction | undefined;
  try {
    found = await findOwn(deps, record);
  } catch (error) {
    deps.logger.warn(
      { payment: record.id, error: errorText(error) },
      'recovery: could not look the reference up; will retry',
    );
    return record;
  }
  if (!found)
    return land(
      deps,
      deps.journal.update(record.id, { problem: interrupted }, 'no transaction at the API'),
      'failed',
      'interrupted before any transaction',
    );
  const adopted = deps.journal.update(
    record.id,
    { transactionId: found.id },
    'transaction found by reference at recovery',
  );
  return abort(deps, adopted, interrupted, 'failed');
}
