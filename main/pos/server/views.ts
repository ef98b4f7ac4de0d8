/**
 * The agent's own records as the POS API shows them (protocol/models.ts): snake_case, amounts
 * in centavos, nothing beyond what the schema lists — so a field added inside the agent never
 * leaks to a POS by accident. Every value of a core list in them (a state, a step, a decline
 * category…) crosses through wire-adapter.ts's tables.
 */
import type { PrinterStatus } from '../../../drivers/printers/status.js';
import type { Transaction } from '../../api/index.js';
import type { ApiHealthSnapshot } from '../../api/health.js';
import type { PaymentProgress as CoreProgress } from '../../core/events.js';
import type { PaymentOutcome as CoreOutcome } from '../../core/outcome.js';
import { phaseOf } from '../../core/states.js';
import { pinpadLinkSentence, type PinpadLinkStatus } from '../../pinpad/link-status.js';
import type { PinpadEntry } from '../../pinpad/registry.js';
import type { PrintJob } from '../../receipts/print-jobs.js';
import type { BlockedProgram, PairedClient, PairingGuard } from '../clients/client-store.js';
import type {
  ApiHealth,
  BlockedProgramView,
  PeerProgramView,
  ClientRecordView,
  DiskView,
  PairingGuardView,
  PairingRequestView,
  PaymentOutcome,
  PaymentProgress,
  PinpadLinkView,
  PinpadView,
  PrinterView,
  PrintJobView,
  RelayTransaction,
  UpdateView,
  EventPayload,
  ResultOf,
} from '../protocol/index.js';
import type { PixEnded, PixPaid, PixShown, PixShowResult } from '../../pinpad/pix-counter.js';
import { renderPixQrSvg } from '../../pix/index.js';
import type { PairingAnnouncement } from '../protocol/pairing.js';
import type { DiskState, UpdateState } from './agent.js';
import {
  wireConfirmation,
  wireDeclineCategory,
  wirePaymentState,
  wireProgressStep,
  wireResultStatus,
} from './wire-adapter.js';

/**
 * A PINPAD as a session sees it: the reference of the sale it runs only for a session that may
 * know it (the sale's owner, the window, or everyone with share_payments; Hub.mayKnowReference),
 * null for the others — another till's reference_id is that till's business.
 */
export const pinpadView = (entry: PinpadEntry, showReference = true): PinpadView => ({
  serial_number: entry.serialNumber,
  manufacturer: entry.manufacturer,
  model: entry.model,
  firmware: entry.firmware,
  address: entry.address,
  connected: entry.connected,
  busy: entry.busy,
  payment_reference: showReference ? entry.paymentReference : null,
  tables:
    entry.tables === null
      ? null
      : {
          state: entry.tables.state,
          version: entry.tables.version,
          acquirers: [...entry.tables.acquirers],
          error: entry.tables.error,
          cache_tampered: entry.tables.cacheTampered === true,
        },
});

export const pinpadLinkView = (status: PinpadLinkStatus): PinpadLinkView => ({
  address: status.address,
  state: status.state,
  code: status.code,
  error: status.error,
  ...pinpadLinkSentence(status),
  since: status.since.toISOString(),
});

export const progressView = (event: CoreProgress): PaymentProgress => ({
  payment_id: event.paymentId,
  reference_id: event.referenceId,
  terminal: event.terminal,
  step: wireProgressStep(event.step),
  state: wirePaymentState(event.state),
  phase: phaseOf(event.state),
  message: event.message,
  cashier_message: event.cashierMessage,
  at: event.at,
});

/** What a printer's view reads of its device (drivers/printers ReceiptPrinter). */
interface PrinterDevice {
  readonly transport: { readonly address: string };
  readonly connected: boolean | undefined;
  readonly lastStatus: PrinterStatus | undefined;
}

export const printerView = (name: string, device: PrinterDevice): PrinterView => ({
  name,
  address: device.transport.address,
  connected: device.connected ?? null,
  paper_out: device.lastStatus?.paperOut ?? false,
  paper_low: device.lastStatus?.paperNearEnd ?? false,
  cover_open: device.lastStatus?.coverOpen ?? false,
  error: device.lastStatus?.error ?? null,
});

export const printJobView = (job: PrintJob): PrintJobView => ({
  id: job.id,
  printer: job.printer,
  subject: job.subject,
  state: job.state,
  attempts: job.attempts,
  error: job.lastError === null ? null : { code: job.lastError.code, message: job.lastError.message },
});

/** The disk as the agent watches it (absent where nothing does: taken as ok). */
export const diskView = (status: DiskState | undefined): DiskView =>
  status === undefined
    ? {
        state: 'ok',
        since: new Date(0).toISOString(),
        sources: [],
        code: null,
        sales_refused: false,
        message: 'the disk is not watched here',
        cashier_message: '',
      }
    : {
        state: status.state,
        since: status.since,
        sources: [...status.sources],
        code: status.code,
        sales_refused: status.salesRefused,
        message: status.message,
        cashier_message: status.cashierMessage,
      };

export const apiHealthView = (health: ApiHealthSnapshot): ApiHealth => ({
  state: health.state,
  since: health.since,
  last_error: health.lastError === null ? null : { code: health.lastError.code, message: health.lastError.message },
});

const installmentPlanView = (
  plan: Transaction['installment_plan'] | undefined,
): RelayTransaction['installment_plan'] =>
  plan === null || plan === undefined
    ? null
    : { number_installments: plan.number_installments, ...(plan.mode === undefined ? {} : { mode: plan.mode }) };

/**
 * Only the masked fields, picked one by one: the API's card object also carries the holder's
 * name, expiry, fingerprint… none of which a POS may receive. A first-6 that is not 6 digits is
 * dropped rather than passed on.
 */
function cardView(transaction: Transaction): RelayTransaction['card'] {
  const card = transaction.payment_method;
  if (card === null || card === undefined || card.resource !== 'card') return null;
  const first6 =
    typeof card.first6_digits === 'string' && /^[0-9]{6}$/.test(card.first6_digits) ? card.first6_digits : null;
  const last4 =
    typeof card.last4_digits === 'string' && /^[0-9]{4}$/.test(card.last4_digits) ? card.last4_digits : null;
  if (last4 === null) return null;
  return {
    brand: card.card_brand,
    first6_digits: first6,
    last4_digits: last4,
    entry_mode: transaction.point_of_sale?.entry_mode ?? null,
  };
}

export const relayTransactionView = (transaction: Transaction): RelayTransaction => ({
  id: transaction.id,
  status: transaction.status,
  amount: transaction.amount,
  payment_type: transaction.payment_type,
  payment_locale: transaction.payment_locale ?? null,
  reference_id: transaction.reference_id ?? null,
  description: transaction.description ?? null,
  customer: transaction.customer ?? null,
  terminal: transaction.terminal ?? null,
  notification: transaction.notification ?? null,
  installment_plan: installmentPlanView(transaction.installment_plan),
  authorization_code: transaction.payment_authorization?.authorization_code ?? null,
  nsu: transaction.payment_authorization?.authorization_nsu ?? null,
  card: cardView(transaction),
  boleto: transaction.boleto ?? null,
  pix: transaction.pix ?? null,
  error: transaction.error ?? null,
  created_at: transaction.created_at,
  updated_at: transaction.updated_at,
});

/**
 * A payment's outcome on the wire, field by field: the core speaks camelCase domain words
 * (core/outcome.ts) and this is the one place that names them as the POS protocol does
 * (protocol/models.ts), its values through wire-adapter.ts. `phase` is the engine's own reading of
 * the state (core/states.ts), so no client keeps its own list of decided states.
 */
export const outcomeView = (outcome: CoreOutcome): PaymentOutcome => ({
  status: wireResultStatus(outcome.status),
  reference_id: outcome.referenceId,
  payment_id: outcome.paymentId,
  transaction_id: outcome.transactionId,
  terminal: outcome.terminal,
  amount: outcome.amount,
  payment_type: outcome.paymentType,
  installments: outcome.installments,
  authorization_code: outcome.authorizationCode,
  nsu: outcome.nsu,
  card:
    outcome.card === null
      ? null
      : { brand: outcome.card.brand, masked_pan: outcome.card.maskedPan, entry_mode: outcome.card.entryMode },
  confirmation: wireConfirmation(outcome.confirmation),
  state: wirePaymentState(outcome.state),
  phase: phaseOf(outcome.state),
  problem:
    outcome.problem === null
      ? null
      : {
          code: outcome.problem.code,
          message: outcome.problem.message,
          cashier_message: outcome.problem.cashierMessage,
        },
  decline_code: outcome.declineCode === null ? null : wireDeclineCategory(outcome.declineCode),
  issuer_response_code: outcome.issuerResponseCode,
  customer_tax_id: outcome.customerTaxId,
  created_at: outcome.createdAt,
  finished_at: outcome.finishedAt,
});

export function clientRecordView(client: PairedClient, connected: number): ClientRecordView {
  return {
    client_id: client.id,
    name: client.name,
    origin: client.origin,
    created_at: client.createdAt,
    last_seen_at: client.lastSeenAt,
    revoked_at: client.revokedAt,
    connected,
  };
}

export function pairingGuardView(guard: PairingGuard): PairingGuardView {
  return {
    wrong_codes: guard.wrongCodes,
    budget: guard.budget,
    locked: guard.locked,
    unlocks_at: guard.unlocksAt,
    origins: guard.origins.map((entry) => ({ origin: entry.origin, wrong_codes: entry.wrongCodes })),
  };
}

export function pairingRequestView(pairing: PairingAnnouncement): PairingRequestView {
  return {
    pairing_id: pairing.pairingId,
    name: pairing.name,
    origin: pairing.origin,
    code: pairing.code,
    expires_at: pairing.expiresAt,
    program: pairing.program === null ? null : peerProgramView(pairing.program),
  };
}

export function peerProgramView(program: { pid: number; name: string; program: string }): PeerProgramView {
  return { pid: program.pid, name: program.name, command: program.program };
}

export function blockedProgramView(blocked: BlockedProgram): BlockedProgramView {
  return { program_id: blocked.id, name: blocked.name, command: blocked.program, blocked_at: blocked.blockedAt };
}

/** The desktop app's updates (headless: off). */
export const updateView = (state: UpdateState | undefined): UpdateView =>
  state === undefined
    ? {
        enabled: false,
        channel: null,
        state: 'none',
        version: null,
        install_window: null,
        waiting_for_sale: false,
        staged_by: null,
        rollout_position: null,
        last_check: null,
      }
    : {
        enabled: state.enabled,
        channel: state.channel,
        state: state.state,
        version: state.version,
        install_window: state.installWindow,
        waiting_for_sale: state.waitingForSale,
        staged_by: state.stagedBy,
        rollout_position: state.rolloutPosition,
        last_check: state.lastCheck === null ? null : { at: state.lastCheck.at, error: state.lastCheck.error },
      };

/** A bolepix shown with pix.show was paid (pix.paid). */
export function pixPaidView(paid: PixPaid, receipt: PrintJob | null = null): EventPayload<'pix.paid'> {
  return {
    transaction_id: paid.transactionId,
    terminal: paid.terminal,
    amount: paid.amount,
    via: paid.via,
    paid_at: paid.paidAt,
    end_to_end_id: paid.endToEndId,
    pinpad_lines: paid.pinpadLines === null ? null : [...paid.pinpadLines],
    print_job: receipt === null ? null : printJobView(receipt),
  };
}

/** What pix.show answers and pix.shown says alike: the bolepix, and its QR drawn for a screen. */
export function pixQrView(shown: PixShowResult): Omit<EventPayload<'pix.shown'>, 'pinpad' | 'pinpad_screen'> {
  const qr = renderPixQrSvg(shown.brCode);
  return {
    transaction_id: shown.transactionId,
    terminal: shown.terminal,
    amount: shown.amount,
    br_code: shown.brCode,
    expires_at: shown.expiresAt,
    qr_svg: qr.svg,
    qr_data_url: qr.dataUrl,
  };
}

/** What pix.show (and operator.trainingPix) answers: the bolepix, its QR, and how it went onto the PINPAD. */
export function pixShowAnswerView(shown: PixShowResult): ResultOf<'pix.show'> {
  return { ...pixQrView(shown), pinpad: shown.pinpad.kind };
}

/** A bolepix's QR on a PINPAD (pix.shown, pix.list): the QR for a screen, and what the PINPAD shows. */
export function pixShowView(shown: PixShown): EventPayload<'pix.shown'> {
  const screen = shown.pinpad;
  return {
    ...pixQrView(shown),
    pinpad: screen.kind,
    pinpad_screen:
      screen.kind === 'image'
        ? {
            kind: 'image',
            format: screen.format,
            width: screen.width,
            height: screen.height,
            data_url: `data:image/${screen.format};base64,${Buffer.from(screen.file).toString('base64')}`,
          }
        : { kind: 'text', lines: [...screen.lines] },
  };
}

/** A bolepix's QR is no longer shown (pix.ended). */
export function pixEndedView(ended: PixEnded): EventPayload<'pix.ended'> {
  return {
    transaction_id: ended.transactionId,
    terminal: ended.terminal,
    reason: ended.reason,
    watching: ended.watching,
  };
}
