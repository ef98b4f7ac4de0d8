/**
 * Starting a payment, idempotent by its reference: the same reference with the same parameters
 * returns the same payment (the running one, or its stored result); with other parameters it is
 * REFERENCE_CONFLICT. A new one needs room on the journal's disk and a free PINPAD, reserved
 * before anything is awaited, and runs after recovery has had its chance at what came before.
 */
import { EngineError } from '../errors.js';
import { JournalError } from '../journal/journal.js';
import type { PaymentRecord } from '../journal/record.js';
import { outcomeOf, type PaymentOutcome } from '../outcome.js';
import { installmentViolations, saleRequestHash, type SaleRequest } from '../sale-request.js';
import type { AttachedTerminals } from './attached-terminals.js';
import { assertOpen, type EngineContext } from './context.js';
import type { LiveRuns } from './live-runs.js';
import type { Recovery } from './recovery.js';
import { busyError, newRun } from './run.js';
import type { StartOptions } from './types.js';

export interface StartDeps {
  readonly terminals: AttachedTerminals;
  readonly runs: LiveRuns;
  readonly recovery: Recovery;
}

export async function startPayment(
  ctx: EngineContext,
  deps: StartDeps,
  request: SaleRequest,
  options: StartOptions,
): Promise<PaymentOutcome> {
  assertOpen(ctx);
  const { journal, config } = ctx;
  const { terminals, runs, recovery } = deps;
  // The request's shape was checked where it came in (its amount is Centavos); what is left
  // depends on this store's settings.
  const violations = installmentViolations(request, config.installments);
  if (violations.length > 0) {
    throw new EngineError('INVALID_PARAMS', violations.map((v) => v.message).join('; '), { violations });
  }
  const hash = saleRequestHash(request);
  const existing = journal.findByReference(request.referenceId);
  if (existing) return repeat(deps, existing, hash);

  const terminal = terminals.pick(request.terminal);
  // Room first: on a full disk the POS is told the lasting reason (DISK_FULL), not that the
  // PINPAD is still finishing the sale the disk interrupted (BUSY, which would soon pass).
  assertRoom(ctx);
  const brief = terminal.busy?.brief;
  if (brief !== undefined) {
    // A message on the display (the agent redrawing the idle screen as the disk frees, a POS's
    // text) is one command: the sale waits for it, then starts over from the checks above. One
    // that yields to a payment (a Pix QR's media load) is told to stop first, then waited for.
    // A PINPAD slow to answer (a second per command) takes longer than a message to stop a load;
    // that wait is the load's own, so it must not turn into BUSY.
    const yields = brief.yieldsToPayment === true;
    if (yields) terminal.busy?.abort.abort(new Error('a payment takes the PINPAD'));
    if (await settlesWithin(ctx, brief.settled, yields ? YIELDING_OPERATION_WAIT_MS : BRIEF_OPERATION_WAIT_MS))
      return startPayment(ctx, deps, request, options);
  }
  if (terminal.busy) throw busyError(terminal.serial, terminal.busy);
  // Reserve the PINPAD before any await, so two starts cannot both get it.
  const reservation = newRun(terminal.serial, request.askTaxId === true, request.referenceId);
  terminals.setBusy(terminal, reservation);
  let record: PaymentRecord;
  try {
    // Recovery before each new sale: nothing from before is left undecided. Bounded, so a slow
    // API cannot hold the checkout: what is not done by then goes on in the background.
    await recovery.recoverWithin(config.apiTimeoutMs);
    record = journal.createIntent({
      referenceId: request.referenceId,
      source: 'pos',
      terminal: terminal.serial,
      amount: request.amount,
      paymentType: request.paymentType,
      installments: request.paymentType === 'credit' ? (request.installments ?? null) : null,
      description: request.description,
      notification: request.notification ?? null,
      paramsHash: hash,
      confirmation: config.confirmation,
      owner: options.owner ?? null,
    });
  } catch (error) {
    terminals.setBusy(terminal, undefined);
    // A concurrent start with the same reference won the race: answer like a repeat.
    const raced = journal.findByReference(request.referenceId);
    if (raced) return repeat(deps, raced, hash);
    if (error instanceof JournalError && error.code === 'DISK_FULL') throw diskFull(error.message, error);
    throw error;
  }
  return runs.launch(record, terminal, reservation);
}

/** The longest a start waits out a brief operation (a display command) before it is BUSY. */
export const BRIEF_OPERATION_WAIT_MS = 3_000;

/**
 * The longest a start waits for a brief operation that yields to it (a Pix QR's load) to stop.
 * Once told, a load ends after the command in flight and its clean-up (MLE, DMF): three commands,
 * each bounded by the driver's link (2 s for the ACK, 10 s for the answer). So the sale waits as
 * long as the load takes to stop, however slow the PINPAD; this is only the guard against one
 * that never settles.
 */
export const YIELDING_OPERATION_WAIT_MS = 45_000;

/** Whether `settled` resolves within `ms` on the engine's clock. */
function settlesWithin(ctx: EngineContext, settled: Promise<void>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = ctx.scheduler.after(ms, () => resolve(false));
    void settled.then(() => {
      timer.cancel();
      resolve(true);
    });
  });
}

/** A start repeated: the same payment's run or result, or REFERENCE_CONFLICT for other parameters. */
async function repeat(deps: StartDeps, existing: PaymentRecord, hash: string): Promise<PaymentOutcome> {
  if (existing.paramsHash !== hash) {
    throw new EngineError(
      'REFERENCE_CONFLICT',
      `Reference ${existing.referenceId} was used for another payment (other parameters)`,
    );
  }
  const run = deps.runs.get(existing.id);
  if (run) return run.promise;
  return outcomeOf(await deps.recovery.settleOutsideRun(existing));
}

/** DISK_FULL before anything happens when the journal could not carry a sale to its end. */
function assertRoom(ctx: EngineContext): void {
  const room = ctx.journal.room();
  if (room.enough) return;
  const free = `${Math.floor(room.freeBytes / (1024 * 1024))} MiB free`;
  throw diskFull(
    room.reserveHeld
      ? `The journal's disk is nearly full (${free})`
      : `The journal's disk is full (${free}; its reserve cannot be held)`,
  );
}

function diskFull(message: string, cause?: unknown): EngineError {
  return new EngineError(
    'DISK_FULL',
    `${message}: no sale starts until there is room; nothing was done`,
    cause === undefined ? {} : { cause },
  );
}
