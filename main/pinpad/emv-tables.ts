/**
 * EMV tables as data: the AID and CAPK tables the store's acquirer gives its PINPADs (abecs.md
 * §3.13, S220 §4.1), read from a tables file, versioned, and loaded into a PINPAD with
 * TLI/TLR/TLE whenever the PINPAD's own version (PP_TABVERnn) differs.
 *
 * The file (docs/pinpads.md, docs/emv-tables.sample.json):
 *
 * ```json
 * { "format": "pinbridge-emv-tables", "version": "2611260001", "source": "…",
 *   "payment_types": { "credit": [1], "debit": [2] },
 *   "entries": [ { "table": "aid", "acquirer": 2, "record": "01", "aid": "A0000000031010", … } ] }
 * ```
 *
 * - `version` (1–10 printable characters) is what the PINPAD stores per acquirer; a PINPAD whose
 *   PP_TABVERnn equals it is not loaded again.
 * - `payment_types` says which AID application types (T1_APPTYPE) a credit and a debit sale may
 *   select: GCX's SPE_APPTYPE. Each acquirer's tables define them (S220 §3.7.1); 01 credit and
 *   02 debit when the file does not say.
 * - `acquirers` names, per acquirer index, the key methods its host opens (`keys`: DUKPT slots,
 *   MK/WK master key slots with the working keys it issues, the random-key method's RSA public
 *   key, in its order of preference — key-methods.ts chooses) or just its DUKPT key slots
 *   (`key_slots`).
 * - `entries` are typed table records (drivers/abecs/tables/records.ts); each is encoded at load
 *   time, so a mistake is found when the file is read, not halfway through a load.
 *
 * The document's schema is the contract's (main/contract/emv-tables.ts): the same document comes
 * from a file or from the payments provider's terminal channel (provider-tables.ts).
 *
 * A file that cannot be used is reported as a TablesFileError with every mistake; the agent keeps
 * running and sales on a PINPAD that needs the tables end before anything is charged.
 */
import { readFileSync } from 'node:fs';
import { CodedError } from '../../lib/errors.js';
import type { TableRecord } from '../../drivers/abecs/commands/tlr.js';
import { encodeTableEntry } from '../../drivers/abecs/tables/records.js';
import { Type } from 'typebox';
import {
  AidTableEntry,
  CapkTableEntry,
  EMV_TABLES_FORMAT,
  EmvTablesDocument,
  RevokedCertificateTableEntry,
} from '../contract/emv-tables.js';
import { schemaViolations } from '../contract/rules.js';
import type { CardDataKeyMethod, PinKeyMethod } from '../contract/emv-tables.js';

export const TABLES_FORMAT = EMV_TABLES_FORMAT;

/** The document without its entries' details, which are checked one by one against their table's schema. */
const DocumentShape = Type.Object(
  {
    ...EmvTablesDocument.properties,
    entries: Type.Array(
      Type.Object({
        table: Type.Union([Type.Literal('aid'), Type.Literal('capk'), Type.Literal('revokedCertificate')]),
      }),
      {
        minItems: 1,
        maxItems: 2000,
      },
    ),
  },
  { additionalProperties: false },
);

const ENTRY_SCHEMAS = {
  aid: AidTableEntry,
  capk: CapkTableEntry,
  revokedCertificate: RevokedCertificateTableEntry,
} as const;

/** The application types of each payment type. */
export interface PaymentApplicationTypes {
  readonly credit: readonly number[];
  readonly debit: readonly number[];
}

export const DEFAULT_APPLICATION_TYPES: PaymentApplicationTypes = Object.freeze({ credit: [1], debit: [2] });

/** Tables ready to load: the version, and each acquirer's records in file order. */
export interface EmvTables {
  readonly version: string;
  readonly source: string | undefined;
  readonly applicationTypes: PaymentApplicationTypes;
  /** Acquirer index (1–99) → its TLR records. */
  readonly records: ReadonlyMap<number, readonly TableRecord[]>;
  /** Acquirer index → the DUKPT slots the document names for it (the rest come from the settings). */
  readonly keySlots: ReadonlyMap<number, { readonly pin?: number; readonly data?: number }>;
  /** Acquirer index → the key methods its host opens (`keys`), hex in upper case; a use it leaves out is not here. */
  readonly keyMethods: ReadonlyMap<
    number,
    { readonly cardData?: readonly CardDataKeyMethod[]; readonly pin?: readonly PinKeyMethod[] }
  >;
}

export class TablesFileError extends CodedError<'INVALID_TABLES'> {
  readonly violations: readonly { readonly field: string; readonly message: string }[];

  constructor(source: string, violations: readonly { field: string; message: string }[]) {
    super(
      'INVALID_TABLES',
      `The EMV tables file ${source} cannot be used: ${violations.map((v) => `${v.field}: ${v.message}`).join('; ')}`,
    );
    this.violations = violations;
  }
}

/** Checks and encodes a tables file's JSON; throws TablesFileError naming every mistake. */
export function parseEmvTables(json: unknown, source = 'the tables file'): EmvTables {
  const violations = schemaViolations(DocumentShape, json).map(({ field, message }) => ({ field, message }));
  if (violations.length > 0) throw new TablesFileError(source, violations);
  const file = json as EmvTablesDocument;
  const records = new Map<number, TableRecord[]>();
  const seen = new Set<string>();
  file.entries.forEach((entry, index) => {
    // Each entry against its own table's schema: a mistake is named in that table's terms.
    const problems = schemaViolations(ENTRY_SCHEMAS[entry.table], entry);
    if (problems.length > 0) {
      violations.push(
        ...problems.map(({ field, message }) => ({
          field: field === '' ? `entries.${index}` : `entries.${index}.${field}`,
          message,
        })),
      );
      return;
    }
    let record: TableRecord;
    try {
      record = encodeTableEntry(entry);
    } catch (error) {
      violations.push({ field: `entries.${index}`, message: error instanceof Error ? error.message : String(error) });
      return;
    }
    const key = `${record.table}:${record.acquirer}:${record.record}`;
    if (seen.has(key))
      violations.push({
        field: `entries.${index}`,
        message: `repeats ${record.table} record ${record.record} of acquirer ${record.acquirer}`,
      });
    seen.add(key);
    if (record.acquirer < 1 || record.acquirer > 99)
      violations.push({ field: `entries.${index}.acquirer`, message: 'must be an acquirer index from 1 to 99' });
    records.set(record.acquirer, [...(records.get(record.acquirer) ?? []), record]);
  });
  const keySlots = new Map<number, { pin?: number; data?: number }>();
  const keyMethods = new Map<number, { cardData?: CardDataKeyMethod[]; pin?: PinKeyMethod[] }>();
  for (const [index, acquirer] of Object.entries(file.acquirers ?? {})) {
    const number = Number(index);
    if (number < 1 || number > 99)
      violations.push({ field: `acquirers.${index}`, message: 'must be an acquirer index from 1 to 99' });
    else if (!records.has(number))
      violations.push({ field: `acquirers.${index}`, message: 'names an acquirer with no table records' });
    if (acquirer.key_slots !== undefined) keySlots.set(number, { ...acquirer.key_slots });
    const { keys } = acquirer;
    if (keys === undefined) continue;
    // One place per use: a slot in key_slots beside a list in keys would leave the reader guessing.
    if (keys.card_data !== undefined && acquirer.key_slots?.data !== undefined)
      violations.push({
        field: `acquirers.${index}.keys.card_data`,
        message: 'gives the card data key twice (key_slots.data and keys.card_data): keep one',
      });
    if (keys.pin !== undefined && acquirer.key_slots?.pin !== undefined)
      violations.push({
        field: `acquirers.${index}.keys.pin`,
        message: 'gives the PIN key twice (key_slots.pin and keys.pin): keep one',
      });
    keys.card_data?.forEach((method, at) => {
      if (method.method !== 'random_key') return;
      const problem = rsaKeyProblem(method.modulus, method.exponent);
      if (problem !== undefined)
        violations.push({ field: `acquirers.${index}.keys.card_data.${at}`, message: problem });
    });
    keyMethods.set(number, {
      ...(keys.card_data !== undefined ? { cardData: keys.card_data.map(upperCaseHex) } : {}),
      ...(keys.pin !== undefined ? { pin: keys.pin.map(upperCaseHex) } : {}),
    });
  }
  if (violations.length > 0) throw new TablesFileError(source, violations);
  return {
    version: file.version,
    source: file.source,
    applicationTypes: {
      credit: file.payment_types?.credit ?? DEFAULT_APPLICATION_TYPES.credit,
      debit: file.payment_types?.debit ?? DEFAULT_APPLICATION_TYPES.debit,
    },
    records,
    keySlots,
    keyMethods,
  };
}

/** A method with its hex fields in upper case, as the terminal channel carries them. */
function upperCaseHex<M extends CardDataKeyMethod>(method: M): M {
  switch (method.method) {
    case 'mkwk':
      return { ...method, working_key: method.working_key.toUpperCase() };
    case 'random_key':
      return { ...method, modulus: method.modulus.toUpperCase(), exponent: method.exponent.toUpperCase() };
    default:
      return method;
  }
}

/** Why an RSA public key cannot be an RSA-2048 key a PINPAD encrypts under; undefined when it can be. */
function rsaKeyProblem(modulus: string, exponent: string): string | undefined {
  const n = Buffer.from(modulus, 'hex');
  if ((n[0]! & 0x80) === 0) return 'modulus is not 2048 bits (its first byte must have the top bit set)';
  if ((n[n.length - 1]! & 1) === 0) return 'modulus is even: not an RSA modulus';
  const e = Number.parseInt(exponent, 16);
  if (e < 3 || e % 2 === 0) return 'exponent must be odd and at least 3 (010001 for 65537)';
  return undefined;
}

/** Reads and checks a tables file. */
export function readEmvTables(path: string): EmvTables {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    const reason =
      error instanceof SyntaxError
        ? `it is not JSON (${error.message})`
        : error instanceof Error
          ? error.message
          : String(error);
    throw new TablesFileError(path, [{ field: '(file)', message: reason }]);
  }
  return parseEmvTables(json, path);
}
