/**
 * Turns whatever a handler throws into the POS API's error: the engine's, the receipts', the
 * PINPAD driver's, the payments API client's and the client store's errors each map to a stable
 * code; a write any store or file had no room for is DISK_FULL. Anything else is INTERNAL_ERROR
 * with a generic sentence — its message (which could name paths or internals) goes to the log, not
 * to the POS.
 */
import { DriverError } from '../../../drivers/errors.js';
import { CodedError } from '../../../lib/errors.js';
import { ioFaultOf } from '../../../lib/io-faults.js';
import { InvalidRequestError, PaymentsApiError } from '../../api/index.js';
import { EngineError } from '../../core/errors.js';
import { JournalError } from '../../core/journal/journal.js';
import { ReceiptError } from '../../receipts/errors.js';
import { ClientStoreError } from '../clients/client-store.js';
import { POS_ERRORS, PosError, type ErrorData, type PosErrorCode } from '../protocol/index.js';

/** The JSON-RPC error object of a PosError. */
export function errorObject(error: PosError): { code: number; message: string; data: ErrorData } {
  return {
    code: POS_ERRORS[error.code].rpc,
    message: error.message,
    data: { code: error.code, cashier_message: error.cashierMessage, ...error.data },
  };
}

/**
 * The schema's sentences in the POS API's words: the shared validator speaks of an HTTP body
 * ("Body must …", "Field x must …", "Unexpected fields in request [x]"); a POS sent `params`.
 */
export function paramsViolation(violation: { field: string; message: string }): { field: string; message: string } {
  const { field } = violation;
  let message = violation.message;
  const unexpected = /^Unexpected fields in request \[(.*)\]$/.exec(message);
  if (unexpected !== null) {
    const names = unexpected[1]!.split(', ').map((name) => `params.${name}`);
    message = `${names.join(', ')} ${names.length === 1 ? 'is' : 'are'} not a parameter of this method`;
  } else if (message.startsWith('Body ')) {
    message = `params ${message.slice('Body '.length)}`;
  } else if (field !== '' && message.startsWith(`Field ${field} `)) {
    message = `params.${field} ${message.slice(`Field ${field} `.length)}`;
  } else if (message.startsWith('Field ')) {
    message = `params.${message.slice('Field '.length)}`;
  }
  return { field, message };
}

/** An API field and the POS parameter it comes from, e.g. ['installment_plan.number_installments', 'installments']. */
export type FieldRename = readonly [api: string, pos: string];

/**
 * The API client refused a relayed request before sending it (a rule the method's schema does not
 * hold, e.g. a CPF's check digits). Its violations name the API's fields in the service's words;
 * the POS gets its own parameters' names (`renames`, longest API prefix first) in the API's words.
 * No `api` block: the payments API was not asked.
 */
export function invalidParamsFromApiClient(error: InvalidRequestError, renames: readonly FieldRename[] = []): PosError {
  const ordered = [...renames].sort(([a], [b]) => b.length - a.length);
  const rename = (field: string): string => {
    for (const [api, pos] of ordered) {
      // '' stands for the whole API body: every field moves under `pos`.
      if (api === '') return field === '' ? pos : `${pos}.${field}`;
      if (field === api) return pos;
      if (field.startsWith(`${api}.`))
        return pos === '' ? field.slice(api.length + 1) : `${pos}${field.slice(api.length)}`;
    }
    return field;
  };
  const violations = error.violations.map(({ field, message }) => {
    const posField = rename(field);
    const reworded = field === '' || field === posField ? message : message.split(field).join(posField);
    return paramsViolation({ field: posField, message: reworded });
  });
  return new PosError('INVALID_PARAMS', violations.map((v) => v.message).join('; '), { violations });
}

/**
 * How one error class's codes reach the POS: `codes` translates a code (a code it does not list
 * goes to `otherwise`, by default a bug: null). Every error below the handlers is a CodedError, so
 * one table per class replaces a branch per class.
 */
interface CodeTable<E extends CodedError> {
  readonly of: abstract new (...args: never[]) => E;
  readonly codes?: { readonly [C in E['code']]?: (error: E) => PosError | null };
  readonly otherwise?: (error: E) => PosError | null;
}

/** The table's translation of `error`; undefined when the error is not of the table's class. */
type Translate = (error: unknown) => PosError | null | undefined;

function table<E extends CodedError>({ of, codes = {}, otherwise = () => null }: CodeTable<E>): Translate {
  return (error) => {
    if (!(error instanceof of)) return undefined;
    const byCode = (codes as Partial<Record<string, (error: E) => PosError | null>>)[error.code];
    return (byCode ?? otherwise)(error);
  };
}

const PINPAD_CANCELLED = new Set(['ST_CANCEL', 'CANCELLED']);
const PINPAD_TIMEOUT = new Set(['ST_TIMEOUT', 'TIMEOUT']);

function fromApi(error: PaymentsApiError): PosError {
  const api = { status: error.status ?? null, code: error.code, message: error.message };
  if (error instanceof InvalidRequestError) return invalidParamsFromApiClient(error);
  switch (error.code) {
    case 'connection_error':
    case 'timeout':
    case 'request_timeout':
    case 'server_error':
    case 'rate_limited':
      return new PosError('API_UNAVAILABLE', error.message, { api });
    case 'not_found':
      return new PosError('API_NOT_FOUND', error.message, { api });
    default:
      return new PosError('API_REJECTED', error.message, { api });
  }
}

function fromEngine(error: EngineError): PosError {
  if (error.violations.length > 0) {
    const violations = error.violations.map(paramsViolation);
    return new PosError(error.code, violations.map((v) => v.message).join('; '), { violations }, error.cashierMessage);
  }
  return new PosError(
    error.code,
    error.message,
    error.busyWith === undefined ? {} : { reference_id: error.busyWith },
    error.cashierMessage,
  );
}

const CLIENT_STORE_CODES: Record<string, PosErrorCode> = {
  ORIGIN_BLOCKED: 'ORIGIN_BLOCKED',
  TOO_MANY_PENDING: 'RATE_LIMITED',
  INVALID_INPUT: 'INVALID_PARAMS',
  WRONG_CODE: 'WRONG_CODE',
  PAIRING_NOT_FOUND: 'PAIRING_INVALID',
  PAIRING_EXPIRED: 'PAIRING_INVALID',
  PAIRING_USED: 'PAIRING_INVALID',
  PAIRING_FAILED: 'PAIRING_INVALID',
  PAIRING_REJECTED: 'PAIRING_INVALID',
  PAIRING_WITHDRAWN: 'PAIRING_INVALID',
  PROGRAM_BLOCKED: 'INVALID_STATE',
  TOKEN_INVALID: 'TOKEN_INVALID',
  TOKEN_REVOKED: 'TOKEN_INVALID',
  ORIGIN_MISMATCH: 'TOKEN_INVALID',
  NOT_FOUND: 'NOT_FOUND',
  PAIRING_LOCKED: 'PAIRING_LOCKED',
};

function fromClientStore(error: ClientStoreError): PosError {
  const code = CLIENT_STORE_CODES[error.code] ?? 'INTERNAL_ERROR';
  // The store's sentence for a mismatch names the paired origin: not echoed, so a page learns
  // nothing about which other origins are paired.
  const message = error.code === 'ORIGIN_MISMATCH' ? 'This token was paired from another origin.' : error.message;
  return new PosError(code, message, {
    reason: error.code,
    ...(error.attemptsLeft === undefined ? {} : { attempts_left: error.attemptsLeft }),
    ...(error.retryAfterMs === undefined ? {} : { retry_after_ms: error.retryAfterMs }),
  });
}

function fromDriver(error: DriverError): PosError {
  if (PINPAD_CANCELLED.has(error.code)) return new PosError('PINPAD_CANCELLED', error.message, { reason: error.code });
  if (PINPAD_TIMEOUT.has(error.code)) return new PosError('PINPAD_TIMEOUT', error.message, { reason: error.code });
  return new PosError('PINPAD_ERROR', error.message, { reason: error.code });
}

/** Each layer's errors in the POS API's words; the classes are unrelated, so the order does not matter. */
const TABLES: readonly Translate[] = [
  table({ of: EngineError, otherwise: fromEngine }),
  table({
    of: ReceiptError,
    codes: {
      NOT_FOUND: (error) => new PosError('NOT_FOUND', error.message),
      NO_RECEIPT: (error) => new PosError('NO_RECEIPT', error.message),
      NOT_READY: (error) => new PosError('INVALID_STATE', error.message, { reason: 'NOT_READY' }),
      INVALID_SETTINGS: (error) => new PosError('PRINTING_OFF', error.message),
    },
  }),
  // Its sentences name the journal's path: the POS gets the code's own.
  table({
    of: JournalError,
    codes: {
      DISK_FULL: () => new PosError('DISK_FULL'),
      CARD_DATA: () => new PosError('CARD_DATA_REFUSED', undefined, { reason: 'CARD_NUMBER' }),
    },
  }),
  table({ of: PaymentsApiError, otherwise: fromApi }),
  table({ of: ClientStoreError, otherwise: fromClientStore }),
  table({ of: DriverError, otherwise: fromDriver }),
];

/** Null for an unexpected error (a bug): the caller logs it and answers INTERNAL_ERROR. */
export function toPosError(error: unknown): PosError | null {
  if (error instanceof PosError) return error;
  if (error instanceof CodedError) {
    for (const translate of TABLES) {
      const translated = translate(error);
      if (translated !== undefined) return translated;
    }
  }
  // A write the disk had no room for, from any store or file (issue 33): not a bug, and said so.
  if (ioFaultOf(error)?.kind === 'full')
    return new PosError(
      'DISK_FULL',
      "The computer's disk is full: this could not be saved. Free some space and try again.",
      {},
      'Disco do computador cheio: nada foi gravado. Libere espaço e tente de novo.',
    );
  return null;
}
