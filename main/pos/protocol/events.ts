/**
 * The notifications Pinbridge pushes to POS clients (JSON-RPC requests without an id), each
 * with its payload schema, and who receives it:
 * - "owner": the client that started the payment (all of its sessions); a payment nobody here
 *   started (created by a back end as a pending transaction, or before a restart) goes to every
 *   authenticated client;
 * - "all": every authenticated session;
 * - "operator": Pinbridge's own window only (pairing codes, the POS connections).
 * The window also receives every "owner" event. Sessions that have not said hello receive nothing.
 */
import type { Static, TSchema } from 'typebox';
import { Type } from 'typebox';
import { Literals } from './literals.js';
import {
  ApiHealth,
  ClientRecordView,
  DiskView,
  PairingGuardView,
  PairingRequestView,
  PaymentOutcome,
  PaymentProgress,
  PinpadLinkView,
  PinpadView,
  PixShowView,
  PrinterView,
  PrintJobView,
  RelayTransaction,
  UpdateView,
} from './models.js';

/** Why a bolepix's QR stopped being shown (event pix.ended). */
export const PIX_END_REASONS = [
  'paid',
  'cancelled',
  'expired',
  'replaced',
  'pinpad_taken',
  'not_found',
  'stopped',
] as const;

export interface EventSpec<P extends TSchema = TSchema> {
  readonly summary: string;
  readonly payload: P;
  readonly audience: 'owner' | 'all' | 'operator';
}

const event = <P extends TSchema>(spec: EventSpec<P>): EventSpec<P> => spec;

export const EVENTS = {
  'payment.progress': event({
    audience: 'owner',
    summary:
      'A payment moved a step: the same texts the PINPAD and the cashier’s window show (pt-BR in cashier_message).',
    payload: PaymentProgress,
  }),
  'payment.result': event({
    audience: 'owner',
    summary:
      'A payment reached its result (also the answer of payment.start; sent to the other sessions of the client too) — ' +
      'also for a payment payment.start answered in_progress (RESULT_PENDING), once Pinbridge has confirmed it.',
    payload: PaymentOutcome,
  }),
  'pinpad.connected': event({
    audience: 'all',
    summary: 'A PINPAD answered and is ready for payments.',
    payload: PinpadView,
  }),
  'pinpad.disconnected': event({
    audience: 'all',
    summary: 'A PINPAD went away (unplugged, powered off, link lost).',
    payload: PinpadView,
  }),
  'pinpad.link': event({
    audience: 'all',
    summary:
      'The link to the PINPAD Pinbridge is set to use changed state: not found at its address, unreachable, not answering, disconnected, ready again (not repeated while Pinbridge keeps trying).',
    payload: PinpadLinkView,
  }),
  'pinpad.busy': event({
    audience: 'all',
    summary:
      'A PINPAD became busy (a payment or another operation) or free again; payment_reference only for the client whose sale it runs.',
    payload: PinpadView,
  }),
  'pinpad.tables': event({
    audience: 'all',
    summary: "A PINPAD's EMV tables started loading, were loaded, or cannot be used (its `tables`).",
    payload: PinpadView,
  }),
  'printer.status': event({
    audience: 'all',
    summary: 'A receipt printer changed: paper, cover, connection.',
    payload: PrinterView,
  }),
  'printer.job': event({
    audience: 'owner',
    summary:
      "A print job changed state (printed, waiting for the printer, failed): a payment's receipts to the client that started the payment.",
    payload: PrintJobView,
  }),
  'api.health': event({
    audience: 'all',
    summary: 'The payments API became reachable or unreachable.',
    payload: ApiHealth,
  }),
  'agent.disk': event({
    audience: 'all',
    summary:
      'The computer’s disk filled (or refuses writes) or has room again: while sales_refused, payment.start answers DISK_FULL; nothing else stops.',
    payload: DiskView,
  }),
  'agent.update': event({
    audience: 'operator',
    summary:
      "The desktop app's update changed: one started or finished downloading, waits for a sale to end, or is being installed (operator.updates reads it).",
    payload: UpdateView,
  }),
  'tapToPay.updated': event({
    audience: 'owner',
    summary: 'A tap-to-pay charge this client created finished on the phone (succeeded, failed or canceled).',
    payload: RelayTransaction,
  }),
  'pix.shown': event({
    audience: 'owner',
    summary:
      "A bolepix's QR went onto a PINPAD (pix.show): as an image, or as text pointing the customer at the screen — the window's Pix panel " +
      'then shows the QR to the customer, and its PINPAD mirror what the PINPAD shows. Not sent when a card sale took the PINPAD first.',
    payload: PixShowView,
  }),
  'pix.paid': event({
    audience: 'owner',
    summary:
      'A bolepix shown with pix.show was paid (also when a card sale took the PINPAD meanwhile): the PINPAD shows "PIX RECEBIDO" and the amount.',
    payload: Type.Object(
      {
        transaction_id: Type.String(),
        terminal: Type.String(),
        amount: Type.Integer({ minimum: 0, description: 'Centavos.' }),
        via: Type.Union([Type.Literal('pix'), Type.Literal('boleto'), Type.Literal('unknown')]),
        paid_at: Type.Union([Type.String(), Type.Null()]),
        end_to_end_id: Type.Union([Type.String(), Type.Null()], { description: 'The Pix end-to-end id, when given.' }),
        pinpad_lines: Type.Union([Type.Array(Type.String(), { maxItems: 2 }), Type.Null()], {
          description: 'What the PINPAD shows now ("PIX RECEBIDO" and the amount); null when a card sale had taken it.',
        }),
        print_job: Type.Union([PrintJobView, Type.Null()], {
          description:
            'The customer\'s receipt ("COMPROVANTE DE PAGAMENTO PIX"), printed by itself: its job (printer.job follows it). ' +
            'null: not printed now — auto_print without "customer", no printer, printed before for this transaction, or it could not be queued (logged).',
        }),
      },
      { additionalProperties: false },
    ),
  }),
  'pix.ended': event({
    audience: 'owner',
    summary:
      "A bolepix's QR is no longer shown: paid, cancelled (pix.cancel, or at the provider), expired, replaced (another pix.show on the PINPAD), " +
      'pinpad_taken (a card sale took the PINPAD: `watching` true, pix.paid and a last pix.ended may follow), not_found, stopped (Pinbridge stopping).',
    payload: Type.Object(
      {
        transaction_id: Type.String(),
        terminal: Type.String(),
        reason: Literals(PIX_END_REASONS),
        watching: Type.Boolean({ description: 'Pinbridge still watches the bolepix for its payment.' }),
      },
      { additionalProperties: false },
    ),
  }),
  'pairing.requested': event({
    audience: 'operator',
    summary: 'A POS asks to pair: show the cashier its name, origin and code.',
    payload: PairingRequestView,
  }),
  'pairing.ended': event({
    audience: 'operator',
    summary:
      'A pairing request is over: completed (the POS sent the code back), rejected by the cashier (or by blocking its origin or program), or withdrawn (the same connection or program asked again: the newer request took its place).',
    payload: Type.Object(
      {
        pairing_id: Type.String(),
        state: Type.Union([Type.Literal('completed'), Type.Literal('rejected'), Type.Literal('withdrawn')]),
        client: Type.Union([ClientRecordView, Type.Null()]),
      },
      { additionalProperties: false },
    ),
  }),
  'pairing.failed': event({
    audience: 'operator',
    summary:
      'A wrong pairing code was sent (or a code from another origin than the one that asked): who, and the 24-hour count that locks pairing.',
    payload: Type.Object(
      {
        pairing_id: Type.String(),
        name: Type.String({ description: 'The name of the request guessed at.' }),
        origin: Type.Union([Type.String(), Type.Null()], {
          description: 'Where the wrong code came from; null for a program.',
        }),
        attempts_left: Type.Integer({ minimum: 0, description: 'Before this request dies.' }),
        guard: PairingGuardView,
      },
      { additionalProperties: false },
    ),
  }),
  'pos.clients': event({
    audience: 'operator',
    summary: 'A POS connected, logged in, disconnected or was revoked: the paired clients with their open sessions.',
    payload: Type.Object(
      { clients: Type.Array(ClientRecordView), anonymous_sessions: Type.Integer({ minimum: 0 }) },
      { additionalProperties: false },
    ),
  }),
} as const;

export type EventName = keyof typeof EVENTS;
export const EVENT_NAMES = Object.keys(EVENTS) as EventName[];
export type EventPayload<E extends EventName> = Static<(typeof EVENTS)[E]['payload']>;

/** A notification as it travels. */
export interface Notification<E extends EventName = EventName> {
  readonly jsonrpc: '2.0';
  readonly method: E;
  readonly params: EventPayload<E>;
}
