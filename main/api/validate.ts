/**
 * Checks before sending. The contract's rules (main/contract/rules.ts, the same code the sandbox
 * runs on arrival) are applied to every body, query and path id; a broken rule throws
 * `InvalidRequestError` with every violation and nothing reaches the network. The service stays
 * the judge of what only it can know (an unknown seller, a duplicate CPF).
 */
import {
  BankAccountCreateRequest,
  BUYER_IMMUTABLE_FIELDS,
  BUYER_UPDATABLE_FIELDS,
  BuyerCreateRequest,
  buyerSearchViolation,
  dedupeViolations,
  BuyerUpdateRequest,
  LIST_LIMIT_MAX,
  schemaViolations,
  taxIdViolation,
  taxpayerViolations,
  TerminalAuthorizationRequest,
  TerminalAuthorizationRequestV2,
  TerminalCompletionRequest,
  TerminalReversalRequest,
  transactionRequestViolations,
  VoidRequest,
  WebhookCreateRequest,
  type Violation,
} from '../contract/index.js';
import { InvalidRequestError } from './errors.js';

export interface RequestContext {
  readonly method: string;
  readonly path: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Throws `InvalidRequestError` when there is any violation. */
export function assertNoViolations(violations: readonly (Violation | undefined)[], context?: RequestContext): void {
  if (violations.every((v) => v === undefined)) return;
  const found = dedupeViolations(violations.filter((v): v is Violation => v !== undefined));
  if (found.length > 0) throw new InvalidRequestError(found, context);
}

/** An id that goes into a path: 32 hexadecimal characters. */
export function idViolation(field: string, value: unknown): Violation | undefined {
  if (typeof value === 'string' && /^[0-9a-fA-F]{32}$/.test(value)) return undefined;
  return {
    field,
    code: value === undefined || value === '' ? 'required' : 'invalid_format',
    message: `Invalid ${field}: expected 32 hexadecimal characters`,
  };
}

/** A PINPAD serial number in a path: 1–64 printable characters. */
export function serialViolation(field: string, value: unknown): Violation | undefined {
  if (typeof value === 'string' && /^[\x21-\x7e]{1,64}$/.test(value)) return undefined;
  return {
    field,
    code: value === undefined || value === '' ? 'required' : 'invalid_format',
    message: `Invalid ${field}: expected 1 to 64 printable characters without spaces`,
  };
}

export function listQueryViolations(query: { limit?: unknown; offset?: unknown }): Violation[] {
  const violations: Violation[] = [];
  const { limit, offset } = query;
  if (
    limit !== undefined &&
    !(Number.isSafeInteger(limit) && (limit as number) >= 1 && (limit as number) <= LIST_LIMIT_MAX)
  ) {
    violations.push({
      field: 'limit',
      code: 'out_of_range',
      message: `Query parameter limit must be an integer from 1 to ${LIST_LIMIT_MAX}`,
    });
  }
  if (offset !== undefined && !(Number.isSafeInteger(offset) && (offset as number) >= 0)) {
    violations.push({
      field: 'offset',
      code: 'out_of_range',
      message: 'Query parameter offset must be an integer ≥ 0',
    });
  }
  return violations;
}

/** Transaction creation: schema of its kind, credit-only installments, payer check digits. */
export const transactionViolations = (body: unknown): Violation[] => transactionRequestViolations(body);

export function buyerCreateViolations(body: unknown): Violation[] {
  if (!isRecord(body)) return [{ field: '', code: 'invalid_type', message: 'Body must be a JSON object' }];
  return dedupeViolations([...schemaViolations(BuyerCreateRequest, body), ...taxpayerViolations(body)]);
}

export function buyerUpdateViolations(body: unknown): Violation[] {
  if (!isRecord(body)) return [{ field: '', code: 'invalid_type', message: 'Body must be a JSON object' }];
  const violations: Violation[] = [];
  const immutable: readonly string[] = BUYER_IMMUTABLE_FIELDS;
  const updatable: readonly string[] = BUYER_UPDATABLE_FIELDS;
  for (const field of Object.keys(body)) {
    if (body[field] === undefined) continue;
    if (immutable.includes(field)) {
      violations.push({ field, code: 'not_allowed', message: `Field ${field} cannot be modified` });
    } else if (!updatable.includes(field)) {
      violations.push({ field, code: 'unexpected_field', message: `Unexpected fields in request [${field}]` });
    }
  }
  return dedupeViolations([...violations, ...schemaViolations(BuyerUpdateRequest, body)]);
}

/** Search by tax id: exactly one of taxpayer_id / ein (11 digits / 14 characters, numeric or alphanumeric) with valid check digits. */
export function buyerSearchViolations(query: { taxpayer_id?: unknown; ein?: unknown }): Violation[] {
  const format = buyerSearchViolation(query);
  if (format) return [format];
  const digits =
    query.taxpayer_id !== undefined
      ? taxIdViolation('taxpayer_id', query.taxpayer_id)
      : taxIdViolation('ein', query.ein);
  return digits ? [digits] : [];
}

export function bankAccountCreateViolations(body: unknown): Violation[] {
  if (!isRecord(body)) return [{ field: '', code: 'invalid_type', message: 'Body must be a JSON object' }];
  return dedupeViolations([...schemaViolations(BankAccountCreateRequest, body), ...taxpayerViolations(body)]);
}

export const webhookCreateViolations = (body: unknown): Violation[] => schemaViolations(WebhookCreateRequest, body);
export const voidViolations = (body: unknown): Violation[] => schemaViolations(VoidRequest, body);
export const authorizationViolations = (body: unknown): Violation[] =>
  schemaViolations(TerminalAuthorizationRequest, body);
export const authorizationV2Violations = (body: unknown): Violation[] =>
  schemaViolations(TerminalAuthorizationRequestV2, body);
export const completionViolations = (body: unknown): Violation[] => schemaViolations(TerminalCompletionRequest, body);
export const reversalViolations = (body: unknown): Violation[] => schemaViolations(TerminalReversalRequest, body);
