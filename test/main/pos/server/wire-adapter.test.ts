/**
 * The core's lists and the POS wire's are kept apart (protocol/enums.ts, issue 36), and
 * main/pos/server/wire-adapter.ts is the one table between them: every core value has its wire
 * value (tsc says so for the types; this says so for the values the core lists at run time), no two
 * core values share one, and every wire value is one a core value becomes — a one-to-one map onto
 * the wire's whole list, so the documents promise no value the agent never sends and payment.list
 * can read a filter back into the core's states.
 */
import { describe, expect, it } from 'vitest';
import { DECLINE_CATEGORIES as CORE_DECLINE_CATEGORIES } from '../../../../main/core/declines.js';
import { PROGRESS_STEPS as CORE_PROGRESS_STEPS } from '../../../../main/core/events.js';
import { SETTINGS_VIOLATION_CODES as CORE_SETTINGS_VIOLATION_CODES } from '../../../../main/core/settings-violations.js';
import { PAYMENT_STATES as CORE_PAYMENT_STATES } from '../../../../main/core/states.js';
import {
  DECLINE_CATEGORIES,
  METHODS,
  PAYMENT_STATES,
  PaymentOutcome,
  PosError,
  type ParamsOf,
  PROGRESS_STEPS,
  SETTINGS_VIOLATION_CODES,
} from '../../../../main/pos/protocol/index.js';
import {
  checkedSaleRequest,
  corePaymentStates,
  saleRequestFrom,
  WIRE_CONFIRMATIONS,
  WIRE_DECLINE_CATEGORIES,
  WIRE_PAYMENT_STATES,
  WIRE_PROGRESS_STEPS,
  WIRE_RESULT_STATUSES,
  WIRE_SETTINGS_VIOLATION_CODES,
  wireConfirmation,
  wirePaymentState,
} from '../../../../main/pos/server/wire-adapter.js';

/** The values a union of literals allows, read from its JSON schema (`anyOf` of `const`s, nullable or not). */
function literalsOf(schema: unknown): string[] {
  const { anyOf } = schema as { anyOf: { const?: unknown; type?: string; anyOf?: unknown }[] };
  return anyOf.flatMap((member) =>
    member.anyOf !== undefined ? literalsOf(member) : member.type === 'null' ? [] : [String(member.const)],
  );
}

const sorted = (values: Iterable<string>): string[] => [...values].sort();

const tables = [
  {
    name: 'payment states',
    table: WIRE_PAYMENT_STATES,
    core: CORE_PAYMENT_STATES,
    wire: PAYMENT_STATES,
  },
  {
    name: 'decline categories',
    table: WIRE_DECLINE_CATEGORIES,
    core: CORE_DECLINE_CATEGORIES,
    wire: DECLINE_CATEGORIES,
  },
  {
    name: 'progress steps',
    table: WIRE_PROGRESS_STEPS,
    core: Object.keys(CORE_PROGRESS_STEPS),
    wire: PROGRESS_STEPS,
  },
  {
    name: 'settings mistake codes',
    table: WIRE_SETTINGS_VIOLATION_CODES,
    core: CORE_SETTINGS_VIOLATION_CODES,
    wire: SETTINGS_VIOLATION_CODES,
  },
  {
    name: 'result statuses',
    table: WIRE_RESULT_STATUSES,
    // The core lists its result statuses as a type only: the table's own keys stand for the list.
    core: Object.keys(WIRE_RESULT_STATUSES),
    wire: literalsOf(PaymentOutcome.properties.status),
  },
  {
    name: 'confirmations',
    table: WIRE_CONFIRMATIONS,
    core: Object.keys(WIRE_CONFIRMATIONS),
    wire: literalsOf(PaymentOutcome.properties.confirmation),
  },
] as const;

describe('the wire adapter', () => {
  it.each(tables)(
    'maps every core value of the $name to a wire value, one to one, onto the whole wire list',
    ({ table, core, wire }) => {
      const entries: [string, string][] = Object.entries(table);
      // Every core value has an entry, and the table holds nothing else.
      expect(sorted(entries.map(([from]) => from))).toEqual(sorted(core));
      // No two core values share a wire value …
      const images = entries.map(([, to]) => to);
      expect(new Set(images).size).toBe(images.length);
      // … and every wire value is one some core value becomes.
      expect(sorted(images)).toEqual(sorted(wire));
    },
  );

  it("publishes the wire's own lists in the documents' schemas", () => {
    expect(literalsOf(PaymentOutcome.properties.state)).toEqual([...PAYMENT_STATES]);
    expect(literalsOf(PaymentOutcome.properties.decline_code)).toEqual([...DECLINE_CATEGORIES]);
    const listStates = (METHODS['payment.list'].params.properties.states as unknown as { items: unknown }).items;
    expect(literalsOf(listStates)).toEqual([...PAYMENT_STATES]);
  });

  it("reads a payment.list filter back into the core's states, each to the state it came from", () => {
    for (const state of CORE_PAYMENT_STATES) expect(corePaymentStates([wirePaymentState(state)])).toEqual([state]);
    expect(corePaymentStates([...PAYMENT_STATES])).toHaveLength(CORE_PAYMENT_STATES.length);
    expect(corePaymentStates([])).toEqual([]);
  });

  it('keeps a confirmation that is not there null', () => {
    expect(wireConfirmation(null)).toBeNull();
    expect(wireConfirmation('pending')).toBe('pending');
  });
});

describe("a payment.start's parameters become the core's sale", () => {
  it('in camelCase, with every parameter the POS sent and none it left out', () => {
    expect(
      saleRequestFrom({
        reference_id: 'venda-1',
        amount: 1990,
        payment_type: 'credit',
        installments: 3,
        description: 'Venda',
        notification: 'Loja',
        terminal: 'PP1',
        ask_tax_id: false,
      }),
    ).toEqual({
      referenceId: 'venda-1',
      amount: 1990,
      paymentType: 'credit',
      installments: 3,
      description: 'Venda',
      notification: 'Loja',
      terminal: 'PP1',
      askTaxId: false,
    });
    const sale = saleRequestFrom({ reference_id: 'v2', amount: 500, payment_type: 'debit', description: 'Café' });
    expect(Object.keys(sale).sort()).toEqual(['amount', 'description', 'paymentType', 'referenceId']);
  });

  it('refuses a notification of two lines (the PINPAD shows one) as INVALID_PARAMS naming the field', () => {
    for (const notification of ['Loja\nTeste', 'Loja\rTeste']) {
      const error = (() => {
        try {
          saleRequestFrom({ reference_id: 'v', amount: 1, payment_type: 'debit', description: 'x', notification });
        } catch (caught) {
          return caught;
        }
      })();
      expect(error).toBeInstanceOf(PosError);
      expect(error).toMatchObject({
        code: 'INVALID_PARAMS',
        data: { violations: [{ field: 'notification', message: 'params.notification must be one line' }] },
      });
    }
  });

  it('takes only the amounts the schema lets through (1 to 12 digits): a wider one is a bug, not a sale', () => {
    const schema = METHODS['payment.start'].params as unknown as { properties: { amount: object } };
    expect(schema.properties.amount).toMatchObject({ minimum: 1, maximum: 999_999_999_999 });
    const params = { reference_id: 'v', payment_type: 'debit', description: 'x' } as const;
    expect(saleRequestFrom({ ...params, amount: 999_999_999_999 }).amount).toBe(999_999_999_999);
    expect(() => saleRequestFrom({ ...params, amount: 1_000_000_000_000 })).toThrow(RangeError);
  });
});

describe('a sale from outside the dispatcher (pinbridge pay) is checked as payment.start is', () => {
  const good = { reference_id: 'v', amount: 1990, payment_type: 'credit', description: 'Venda' };

  it.each<[string, unknown, string]>([
    ['no amount', { ...good, amount: 0 }, 'amount'],
    ['a fraction of a centavo', { ...good, amount: 19.9 }, 'amount'],
    ['an amount of 13 digits', { ...good, amount: 1_000_000_000_000 }, 'amount'],
    [
      'a notification the PINPAD cannot show (33 characters)',
      { ...good, notification: 'x'.repeat(33) },
      'notification',
    ],
    ['an empty description', { ...good, description: '' }, 'description'],
    ['a parameter payment.start does not have', { ...good, extra: true }, 'extra'],
    ['something that is not an object', 'not an object', ''],
  ])('refuses %s as INVALID_PARAMS naming the field, in the POS API words', (_, input, field) => {
    let error: unknown;
    try {
      checkedSaleRequest(input);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(PosError);
    const { code, data } = error as PosError;
    expect(code).toBe('INVALID_PARAMS');
    expect(data.violations?.map((v) => v.field)).toContain(field);
    for (const { message } of data.violations ?? []) expect(message).toMatch(/^params\b/);
  });

  it('builds the same sale as saleRequestFrom when the parameters are good', () => {
    expect(checkedSaleRequest(good)).toEqual(saleRequestFrom(good as ParamsOf<'payment.start'>));
  });
});
