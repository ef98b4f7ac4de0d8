/**
 * Authorizing a pending card transaction: the outcome (from ./outcomes.ts) applied to the stored
 * record — approval codes, NSU, card as a receipt may show it — and the answer to the terminal,
 * which can be rebuilt from the stored record alone. That is what makes a repeated authorization
 * return the same result instead of deciding again.
 *
 * Only the brand, first 6 / last 4 digits, holder name and entry mode are kept. The opaque blobs
 * a PINPAD sends (encrypted card data, PIN block, EMV data) never reach this module.
 */
import { createHash, randomInt } from 'node:crypto';
import type { AuthorizationDecision, CardDetails, EntryMode } from '../../contract/index.js';
import type { SandboxDatabase } from '../store/database.js';
import { nextCounter, type HistoryRecord, type TransactionRecord } from '../store/transactions.js';
import { approvedEvent, failedEvent } from './events.js';
import type { Decline, Outcome } from './outcomes.js';
import { withChange, type Transition } from './transitions.js';

export interface CardInput {
  readonly brand: string;
  readonly first6?: string | undefined;
  /** Needed when first6 is unknown (the phone reports only the last 4 digits). */
  readonly first4?: string | undefined;
  readonly last4: string;
  readonly holderName?: string | undefined;
}

export interface AuthorizationInput {
  /** Undefined when the card could not be read at all. */
  readonly card: CardInput | undefined;
  readonly entryMode: EntryMode;
  readonly outcome: Outcome;
}

/** What the terminal is told (TerminalAuthorizationResult without the transaction). */
export interface AuthorizationAnswer {
  readonly decision: AuthorizationDecision;
  readonly response_code: string;
  readonly response_message: string;
  readonly decline_code: string | null;
  readonly authorization_code: string | null;
  readonly nsu: string | null;
  readonly issuer_emv_data: string | null;
}

const BRANDS: Readonly<Record<string, string>> = {
  visa: 'Visa',
  mastercard: 'MasterCard',
  master: 'MasterCard',
  maestro: 'Maestro',
  elo: 'Elo',
  amex: 'American Express',
  americanexpress: 'American Express',
  hipercard: 'Hipercard',
  hiper: 'Hiper',
  diners: 'Diners Club',
  dinersclub: 'Diners Club',
  discover: 'Discover',
  jcb: 'JCB',
  cabal: 'Cabal',
  banescard: 'Banescard',
  sorocred: 'Sorocred',
};

/** "visa" → "Visa", "MASTERCARD" → "MasterCard" (the service family's spelling); unknown brands title-cased. */
export function cardBrand(raw: string): string {
  const key = raw.toLowerCase().replace(/[^a-z]/g, '');
  const known = BRANDS[key];
  if (known !== undefined) return known;
  const trimmed = raw.trim();
  return trimmed.charAt(0).toUpperCase() + trimmed.slice(1).toLowerCase();
}

export function cardDetails(card: CardInput): CardDetails {
  return {
    resource: 'card',
    card_brand: cardBrand(card.brand),
    first4_digits: card.first6?.slice(0, 4) ?? card.first4 ?? '',
    ...(card.first6 !== undefined ? { first6_digits: card.first6 } : {}),
    last4_digits: card.last4,
    holder_name: card.holderName?.trim() || null,
  };
}

const digits = (count: number): string => String(randomInt(0, 10 ** count)).padStart(count, '0');

/**
 * Applies the outcome to a pending card transaction. NSUs come from a counter in the same
 * database transaction as the update, so they are unique for the life of the data directory.
 */
export function authorize(
  db: SandboxDatabase,
  record: TransactionRecord,
  input: AuthorizationInput,
  at: Date,
): Transition {
  const card = input.card ? cardDetails(input.card) : null;
  const pointOfSale = { entry_mode: input.entryMode, identification_number: record.terminal };
  if (input.outcome.kind === 'declined') return decline(record, input.outcome.decline, { card, pointOfSale }, at);
  if (!card) throw new Error('an approved authorization needs the card');

  const nsu = String(nextCounter(db, 'authorization_nsu', 100_000));
  const authorizationCode = digits(6);
  const next = withChange(
    record,
    at,
    {
      status: 'succeeded',
      captured: true,
      payment_authorization: {
        authorizer_id: 'sandbox',
        authorization_code: authorizationCode,
        authorization_nsu: nsu,
      },
      transaction_number: `Z${digits(6)}-${nsu.padStart(9, '0')}`,
      gateway_authorizer: 'sandbox',
      point_of_sale: pointOfSale,
      payment_method: card,
      error: null,
    },
    {
      operation_type: 'authorization',
      status: 'succeeded',
      response_code: '00',
      response_message: 'Approved',
      authorization_code: authorizationCode,
      authorization_nsu: nsu,
    },
  );
  return { record: next, changed: true, event: approvedEvent(next, at) };
}

function decline(
  record: TransactionRecord,
  reason: Decline,
  details: { card: CardDetails | null; pointOfSale: TransactionRecord['point_of_sale'] },
  at: Date,
): Transition {
  const next = withChange(
    record,
    at,
    {
      status: 'failed',
      captured: false,
      gateway_authorizer: 'sandbox',
      point_of_sale: details.pointOfSale,
      payment_method: details.card,
      error: { code: reason.code, message: reason.message, response_code: reason.responseCode },
    },
    {
      operation_type: 'authorization',
      status: 'failed',
      response_code: reason.responseCode,
      response_message: reason.message,
    },
  );
  return { record: next, changed: true, event: failedEvent(next, at) };
}

/** The authorization entry of the history, once the issuer has answered. */
export const authorizationEntry = (record: TransactionRecord): HistoryRecord | undefined =>
  record.history.find((entry) => entry.operation_type === 'authorization');

const asciiHex = (text: string): string => Buffer.from(text, 'ascii').toString('hex').toUpperCase();

/**
 * Issuer data for the chip's second GENERATE AC, as BER-TLV: 8A (authorization response code)
 * and, when approved, 91 (16 bytes of issuer authentication data). The 16 bytes look random but
 * are derived from the transaction and its NSU, so a repeated authorization gets the same bytes.
 */
export function issuerEmvData(record: TransactionRecord, entry: HistoryRecord): string {
  const responseCode = entry.response_code ?? '05';
  const tag8a = `8A02${asciiHex(responseCode)}`;
  if (entry.status !== 'succeeded') return tag8a;
  const arpc = createHash('sha256')
    .update(`${record.id}:${entry.authorization_nsu ?? ''}`)
    .digest('hex')
    .slice(0, 32)
    .toUpperCase();
  return `${tag8a}9110${arpc}`;
}

/** The terminal's answer, rebuilt from the stored record; undefined while nothing was decided. */
export function authorizationAnswer(record: TransactionRecord): AuthorizationAnswer | undefined {
  const entry = authorizationEntry(record);
  if (!entry) return undefined;
  const approved = entry.status === 'succeeded';
  return {
    decision: approved ? 'approved' : 'declined',
    response_code: entry.response_code ?? '05',
    response_message: entry.response_message ?? (approved ? 'Approved' : 'Declined'),
    decline_code: approved ? null : (record.error?.code ?? 'do_not_honor'),
    authorization_code: entry.authorization_code,
    nsu: entry.authorization_nsu,
    issuer_emv_data: issuerEmvData(record, entry),
  };
}
