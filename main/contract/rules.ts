/**
 * The contract's rules as code, shared by the client (checked before sending) and the sandbox
 * (checked on arrival), so both give the same verdict in the same words. Schema checks come from
 * the TypeBox schemas; the rules a schema cannot say (credit-only installments, CPF/CNPJ check
 * digits, exactly one tax id) are here.
 */
import type { TSchema } from 'typebox';
import type * as TypeBoxCompile from 'typebox/compile';
import type { Validator } from 'typebox/compile';
import { CNPJ_PATTERN, isValidCnpj, isValidCpf } from '../validation/taxpayer-id.js';
import { compiledCheck } from './compiled-checks.js';
import { schemaDigest } from './schema-digest.js';
import {
  INSTALLMENTS_MAX,
  INSTALLMENTS_MIN,
  BolepixTransactionRequest,
  BoletoTransactionRequest,
  PinpadTransactionRequest,
  TapToPayTransactionRequest,
  type TransactionRequest,
} from './transactions.js';

/** One broken rule: where, a stable code, and a sentence. */
export interface Violation {
  /** Dotted path of the field ("installment_plan.number_installments"), or "" for the whole body. */
  readonly field: string;
  readonly code: ViolationCode;
  readonly message: string;
}

export type ViolationCode =
  | 'required'
  | 'unexpected_field'
  | 'invalid_type'
  | 'invalid_format'
  | 'invalid_value'
  | 'too_long'
  | 'too_short'
  | 'out_of_range'
  | 'invalid_check_digits'
  | 'not_allowed';

/** The subset of an Ajv / TypeBox error object the wording needs. */
export interface SchemaErrorLike {
  readonly keyword: string;
  readonly instancePath: string;
  readonly params: Record<string, unknown>;
  readonly message?: string;
}

const validators = new WeakMap<TSchema, Validator>();
const checks = new WeakMap<TSchema, (value: unknown) => boolean>();
let typeboxCompile: typeof TypeBoxCompile | undefined;

/** The part of node:module used here. */
interface NodeModuleApi {
  createRequire(path: string): (id: string) => unknown;
}

/**
 * TypeBox's compiler — its schema engine, value and format checks, some 470 modules — loaded with
 * the first schema checked, so that a command that checks none as it starts (the sandbox checks
 * requests as they come) does not wait for it. Required, not imported: Node (22.12 and later)
 * loads an ES module without top-level await synchronously that way, and the checks stay
 * synchronous; it is the same module instance an import would give. node:module is reached
 * through process.getBuiltinModule: the window's type check reads this file without Node's types.
 */
function compile(schema: TSchema): Validator {
  if (typeboxCompile === undefined) {
    const { process } = globalThis as unknown as { process: { getBuiltinModule(id: string): NodeModuleApi } };
    const nodeModule = process.getBuiltinModule('node:module');
    typeboxCompile = nodeModule.createRequire(import.meta.url)('typebox/compile') as typeof TypeBoxCompile;
  }
  return typeboxCompile.Compile(schema);
}

function validatorFor(schema: TSchema): Validator {
  let validator = validators.get(schema);
  if (!validator) {
    validator = compile(schema);
    validators.set(schema, validator);
  }
  return validator;
}

const pathToField = (instancePath: string): string =>
  instancePath
    .split('/')
    .filter((part) => part !== '')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');

const join = (parent: string, child: string): string => (parent === '' ? child : `${parent}.${child}`);

/** Turns one schema error into a violation worded like the service's details ("Field x must …"). */
export function violationFromSchemaError(error: SchemaErrorLike): Violation | undefined {
  const field = pathToField(error.instancePath);
  const params = error.params;
  const name = field === '' ? 'Body' : `Field ${field}`;
  switch (error.keyword) {
    case 'required': {
      const missing = (params.requiredProperties ?? params.missingProperty ?? []) as string | string[];
      const first = Array.isArray(missing) ? missing[0] : missing;
      const target = join(field, String(first ?? ''));
      return { field: target, code: 'required', message: `Field ${target} is required` };
    }
    case 'additionalProperties': {
      const extra = (params.additionalProperties ?? params.additionalProperty ?? []) as string | string[];
      const names = Array.isArray(extra) ? extra : [extra];
      return {
        field: join(field, String(names[0] ?? '')),
        code: 'unexpected_field',
        message: `Unexpected fields in request [${names.map((n) => join(field, String(n))).join(', ')}]`,
      };
    }
    case 'boolean':
      // TypeBox reports each extra property as "schema is false" too; additionalProperties says it better.
      return undefined;
    case 'type': {
      // Ajv gives "string,null" for a nullable field; say "string or null".
      const types = Array.isArray(params.type) ? params.type.map(String) : String(params.type).split(',');
      return { field, code: 'invalid_type', message: `${name} must be of type ${types.join(' or ')}` };
    }
    case 'const':
      return { field, code: 'invalid_value', message: `${name} must be ${JSON.stringify(params.allowedValue)}` };
    case 'enum':
      return { field, code: 'invalid_value', message: `${name} has a value that is not allowed` };
    case 'anyOf':
    case 'oneOf':
      return { field, code: 'invalid_value', message: `${name} has a value that is not allowed` };
    case 'pattern':
    case 'format':
      return { field, code: 'invalid_format', message: `${name} has an invalid format` };
    case 'maxLength':
      return { field, code: 'too_long', message: `${name} must be at most ${String(params.limit)} characters` };
    case 'minLength':
      return {
        field,
        code: params.limit === 1 ? 'required' : 'too_short',
        message:
          params.limit === 1
            ? `${name} must not be empty`
            : `${name} must be at least ${String(params.limit)} characters`,
      };
    case 'minimum':
    case 'exclusiveMinimum':
    case 'maximum':
    case 'exclusiveMaximum':
      return { field, code: 'out_of_range', message: `${name} ${error.message ?? 'is out of range'}` };
    case 'maxItems':
      return { field, code: 'too_long', message: `${name} must have at most ${String(params.limit)} items` };
    case 'minItems':
      return { field, code: 'too_short', message: `${name} must have at least ${String(params.limit)} items` };
    default:
      return { field, code: 'invalid_value', message: `${name} ${error.message ?? 'is invalid'}` };
  }
}

/**
 * Schema errors as violations, without repeats. A value that matches none of a union of
 * literals yields one `const` error per alternative; they become one sentence naming them all
 * ("Field outcome must be one of "approved", "declined"").
 */
export function violationsFromSchemaErrors(errors: readonly SchemaErrorLike[]): Violation[] {
  const alternatives = new Map<string, unknown[]>();
  for (const error of errors) {
    if (error.keyword !== 'const') continue;
    const list = alternatives.get(error.instancePath) ?? [];
    list.push(error.params.allowedValue);
    alternatives.set(error.instancePath, list);
  }
  const violations: Violation[] = [];
  for (const error of errors) {
    const choices = alternatives.get(error.instancePath);
    if (
      choices &&
      choices.length > 1 &&
      (error.keyword === 'const' || error.keyword === 'anyOf' || error.keyword === 'type')
    ) {
      const field = pathToField(error.instancePath);
      violations.push({
        field,
        code: 'invalid_value',
        message: `${field === '' ? 'Body' : `Field ${field}`} must be one of ${choices.map((c) => JSON.stringify(c)).join(', ')}`,
      });
      continue;
    }
    const violation = violationFromSchemaError(error);
    if (violation) violations.push(violation);
  }
  return dedupeViolations(violations);
}

/**
 * Whether `value` matches `schema`: by the check compiled at build time (compiled-checks.ts,
 * found by the schema's fingerprint) where the schema has one, else by TypeBox's compiler.
 */
function checkFor(schema: TSchema): (value: unknown) => boolean {
  let check = checks.get(schema);
  if (check === undefined) {
    const compiled = compiledCheck(schemaDigest(schema));
    check = compiled ?? ((value: unknown) => validatorFor(schema).Check(value));
    checks.set(schema, check);
  }
  return check;
}

/**
 * The violations of `value` against `schema`, the most useful first, without repeats. TypeBox's
 * compiler is loaded for the errors of a value that fails, or for a schema with no compiled check.
 */
export function schemaViolations(schema: TSchema, value: unknown): Violation[] {
  if (checkFor(schema)(value)) return [];
  return violationsFromSchemaErrors(validatorFor(schema).Errors(value));
}

/** The service family's wording where it is known (payments-api-notes §6). */
function inServiceWording(violation: Violation): Violation {
  if (violation.field === 'installment_plan.number_installments' && violation.code === 'out_of_range') {
    return {
      ...violation,
      message: `Field installment_plan.number_installments must be between ${INSTALLMENTS_MIN} and ${INSTALLMENTS_MAX}`,
    };
  }
  if (violation.field === 'on_behalf_of' && violation.code === 'invalid_format') {
    return { ...violation, message: 'Invalid on_behalf_of (seller_id) format' };
  }
  return violation;
}

/** The violations without repeats of the same field and code (the first one of each is kept). */
export function dedupeViolations(violations: readonly Violation[]): Violation[] {
  const seen = new Set<string>();
  return violations.filter((v) => {
    const key = `${v.field}\u0000${v.code}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The canonical CNPJ: 12 digits or uppercase letters, then 2 digits (taxpayer-id.ts). */
const CNPJ_SHAPE = new RegExp(CNPJ_PATTERN);

/**
 * Check digits of a CPF (11 digits) or CNPJ (14 characters, numeric or alphanumeric) already
 * known to have the right shape; a value of another shape is the schema's to refuse.
 */
export function taxIdViolation(field: string, value: unknown): Violation | undefined {
  if (typeof value !== 'string') return undefined;
  if (value.length === 11 && /^[0-9]{11}$/.test(value) && !isValidCpf(value)) {
    return {
      field,
      code: 'invalid_check_digits',
      message: `Field ${field} is not a valid CPF (check digits do not match)`,
    };
  }
  if (CNPJ_SHAPE.test(value) && !isValidCnpj(value)) {
    return {
      field,
      code: 'invalid_check_digits',
      message: `Field ${field} is not a valid CNPJ (check digits do not match)`,
    };
  }
  return undefined;
}

/** Exactly one of taxpayer_id (CPF) and ein (CNPJ), with valid check digits. */
export function taxpayerViolations(body: { taxpayer_id?: unknown; ein?: unknown }, prefix = ''): Violation[] {
  const cpfField = join(prefix, 'taxpayer_id');
  const cnpjField = join(prefix, 'ein');
  const hasCpf = body.taxpayer_id !== undefined;
  const hasCnpj = body.ein !== undefined;
  if (hasCpf && hasCnpj) {
    return [{ field: cnpjField, code: 'not_allowed', message: `Send either ${cpfField} or ${cnpjField}, not both` }];
  }
  if (!hasCpf && !hasCnpj) {
    return [
      { field: cpfField, code: 'required', message: `Field ${cpfField} (CPF) or ${cnpjField} (CNPJ) is required` },
    ];
  }
  const violation = hasCpf ? taxIdViolation(cpfField, body.taxpayer_id) : taxIdViolation(cnpjField, body.ein);
  return violation ? [violation] : [];
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Which of the four creation schemas a body means, by payment_type and payment_locale. */
export function transactionRequestSchema(body: unknown): TSchema | undefined {
  if (!isRecord(body)) return undefined;
  if (body.payment_locale === 'pinpad') return PinpadTransactionRequest;
  if (body.payment_locale === 'tap_to_pay') return TapToPayTransactionRequest;
  if (body.payment_locale !== undefined && body.payment_locale !== 'api') return undefined;
  if (body.payment_type === 'boleto') return BoletoTransactionRequest;
  if (body.payment_type === 'bolepix') return BolepixTransactionRequest;
  return undefined;
}

/**
 * Every broken rule of a transaction creation body: the schema of its kind, then the rules a
 * schema cannot say. An empty array means the body can be sent.
 */
export function transactionRequestViolations(body: unknown): Violation[] {
  if (!isRecord(body)) return [{ field: '', code: 'invalid_type', message: 'Body must be a JSON object' }];
  const schema = transactionRequestSchema(body);
  if (!schema) {
    if (body.payment_locale !== undefined && body.payment_locale !== 'api') {
      return [
        {
          field: 'payment_locale',
          code: 'invalid_value',
          message: 'Invalid payment_locale. Allowed values: pinpad, tap_to_pay',
        },
      ];
    }
    if (body.payment_type === 'credit' || body.payment_type === 'debit') {
      return [
        {
          field: 'payment_locale',
          code: 'required',
          message: 'Field payment_locale is required for card payments (pinpad or tap_to_pay)',
        },
      ];
    }
    return [
      {
        field: 'payment_type',
        code: body.payment_type === undefined ? 'required' : 'invalid_value',
        message:
          body.payment_type === undefined
            ? 'Field payment_type is required'
            : 'Invalid payment_type. Allowed values: credit, debit, boleto, bolepix',
      },
    ];
  }
  const violations = schemaViolations(schema, body).map(inServiceWording);
  if (body.installment_plan !== undefined && body.payment_type !== 'credit') {
    violations.push({
      field: 'installment_plan',
      code: 'not_allowed',
      message: 'Field installment_plan is allowed for credit payments only',
    });
  }
  const payer = isRecord(body.payment_method) ? body.payment_method.buyer : undefined;
  if (isRecord(payer)) {
    const taxId =
      payer.taxpayer_id !== undefined
        ? taxIdViolation('payment_method.buyer.taxpayer_id', payer.taxpayer_id)
        : payer.ein !== undefined
          ? taxIdViolation('payment_method.buyer.ein', payer.ein)
          : undefined;
    if (taxId) violations.push(taxId);
  }
  return violations;
}

/** Narrowing helper for callers that checked `transactionRequestViolations(body)` is empty. */
export function isValidTransactionRequest(body: unknown): body is TransactionRequest {
  return transactionRequestViolations(body).length === 0;
}

/**
 * Search by tax id: exactly one parameter, a CPF of 11 digits or a CNPJ of 14 characters (the
 * contract's 14 digits, or the alphanumeric CNPJ: uppercase, no punctuation). The check digits
 * are not checked here: a CNPJ nobody has is simply not found.
 */
export function buyerSearchViolation(query: { taxpayer_id?: unknown; ein?: unknown }): Violation | undefined {
  const { taxpayer_id: cpf, ein: cnpj } = query;
  if (cpf !== undefined && cnpj !== undefined) {
    return { field: 'ein', code: 'not_allowed', message: 'Send either taxpayer_id or ein, not both' };
  }
  if (cpf === undefined && cnpj === undefined) {
    return {
      field: 'taxpayer_id',
      code: 'required',
      message: 'Query parameter taxpayer_id (CPF) or ein (CNPJ) is required',
    };
  }
  if (cpf !== undefined && (typeof cpf !== 'string' || !/^[0-9]{11}$/.test(cpf))) {
    return {
      field: 'taxpayer_id',
      code: 'invalid_format',
      message: 'Invalid taxpayer_id: expected 11 digits (CPF), digits only',
    };
  }
  if (cnpj !== undefined && (typeof cnpj !== 'string' || !CNPJ_SHAPE.test(cnpj))) {
    return {
      field: 'ein',
      code: 'invalid_format',
      message:
        'Invalid ein: expected 14 characters (CNPJ): 12 digits or uppercase letters, then 2 digits, no punctuation',
    };
  }
  return undefined;
}

/** 32 hexadecimal characters. */
export const isId = (value: unknown): value is string => typeof value === 'string' && /^[0-9a-fA-F]{32}$/.test(value);
