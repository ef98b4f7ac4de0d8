/**
 * The schema checks compiled at build time (scripts/compile-checks.ts → main/contract/compiled-checks.ts,
 * issue 35): the file is current, each check gives the verdict TypeBox's own compiler gives, a
 * schema changed since is checked by the compiler instead, and a failing value still gets the
 * compiler's errors in the contract's words.
 */
import { readFileSync } from 'node:fs';
import { Type, type TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { compiledCheck } from '../../main/contract/compiled-checks.js';
import { schemaViolations } from '../../main/contract/rules.js';
import { schemaDigest } from '../../main/contract/schema-digest.js';
import { PaymentSettings } from '../../main/core/settings.js';
import {
  COMPILED_CHECKS_FILE,
  compiledChecksSource,
  compiledSchemas,
  notCompilable,
} from '../../scripts/compile-checks.js';

const schemas = [...compiledSchemas()];

/** Values for a verdict: the schema's own default value, it with one field too many, and odd shapes. */
function samples(schema: TSchema): unknown[] {
  const odd: unknown[] = [null, undefined, 0, 'x', [], {}, { unknown_field: 1 }];
  try {
    const created: unknown = Value.Create(schema);
    return typeof created === 'object' && created !== null && !Array.isArray(created)
      ? [created, { ...created, unknown_field: 1 }, ...odd]
      : [created, ...odd];
  } catch {
    return odd; // a schema TypeBox cannot make a value of (a pattern): the odd shapes alone
  }
}

describe('main/contract/compiled-checks.ts', () => {
  it('is what scripts/compile-checks.ts makes of the schemas today (regenerate it: npm run checks:compile)', () => {
    expect(readFileSync(COMPILED_CHECKS_FILE, 'utf8')).toBe(compiledChecksSource());
  });

  it('holds a check for the settings, the sale and every POS method that TypeBox can compile into standalone code', () => {
    const missing = schemas
      .filter(([, schema]) => notCompilable(schema) === undefined)
      .filter(([, schema]) => compiledCheck(schemaDigest(schema)) === undefined)
      .map(([name]) => name);
    expect(missing).toEqual([]);
    expect(schemas.some(([name]) => name === 'settings: payment')).toBe(true);
    expect(schemas.some(([name]) => name === 'POS payment.start')).toBe(true);
  });

  it.each(schemas.filter(([, schema]) => notCompilable(schema) === undefined))(
    'gives TypeBox’s compiler’s verdict for %s',
    (_name, schema) => {
      const compiled = compiledCheck(schemaDigest(schema))!;
      const runtime = Compile(schema);
      const values = samples(schema);
      expect(values.map((value) => compiled(value))).toEqual(values.map((value) => runtime.Check(value)));
      // At least one value each way, so the comparison says something about both verdicts.
      expect(values.map((value) => runtime.Check(value))).toContain(false);
    },
  );
});

describe('a schema fingerprint', () => {
  it('changes with any edit of the schema, a refinement’s code included', () => {
    const name = Type.String({ maxLength: 8 });
    expect(schemaDigest(Type.String({ maxLength: 8 }))).toBe(schemaDigest(name));
    expect(schemaDigest(Type.String({ maxLength: 9 }))).not.toBe(schemaDigest(name));
    const refine = (check: (value: string) => boolean): object => ({ ...name, refine: check });
    expect(schemaDigest(refine((value) => value !== 'a'))).not.toBe(schemaDigest(refine((value) => value !== 'b')));
  });
});

describe('schemaViolations', () => {
  it('checks a schema with no compiled check (one edited since) with TypeBox’s compiler', () => {
    const edited = Type.Object(
      { ...PaymentSettings.properties, extra: Type.Optional(Type.Boolean()) },
      {
        additionalProperties: false,
      },
    );
    expect(compiledCheck(schemaDigest(edited))).toBeUndefined();
    expect(schemaViolations(edited, { extra: true })).toEqual([]);
    expect(schemaViolations(edited, { extra: 'yes' })).toEqual([
      expect.objectContaining({ field: 'extra', code: 'invalid_type' }),
    ]);
  });

  it('names a failing value’s violations in the contract’s words, for a schema checked by its compiled check', () => {
    expect(compiledCheck(schemaDigest(PaymentSettings))).toBeDefined();
    expect(schemaViolations(PaymentSettings, {})).toEqual([]);
    expect(schemaViolations(PaymentSettings, { pending_poll_ms: -1, nonsense: true })).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'pending_poll_ms', code: 'out_of_range' }),
        expect.objectContaining({ field: 'nonsense', code: 'unexpected_field' }),
      ]),
    );
  });
});
