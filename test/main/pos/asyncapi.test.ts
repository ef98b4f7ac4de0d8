/**
 * The AsyncAPI document of the POS API is built from the protocol's schemas, so it has every
 * method and event, its schemas are JSON Schema that a validator compiles, the copy in docs/ is
 * the generated one, and the frames a real agent sends match it.
 */
import { declineCategories, responseCodesOf } from '../../../main/core/declines.js';
import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ERROR_MESSAGE,
  notificationMessageName,
  posAsyncApi,
  requestMessageName,
  resultMessageName,
  type Json,
  type JsonObject,
  type PosAsyncApiDocument,
} from '../../../main/pos/asyncapi.js';
import {
  CLOSE_CODES,
  EVENTS,
  METHODS,
  POS_ERRORS,
  type EventName,
  type MethodName,
} from '../../../main/pos/protocol/index.js';
import { VERSION } from '../../../main/version.js';
import { posRig, type PosRig, type RpcClient } from './pos-rig.js';

// ajv-formats is CommonJS with a default export property.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;

const DOC_ID = 'pos-asyncapi.json';
const document = posAsyncApi();
const methodNames = Object.keys(METHODS) as MethodName[];
const eventNames = Object.keys(EVENTS) as EventName[];

/** One Ajv holding the whole document, so `#/components/schemas/…` references resolve as they do for any reader. */
function documentAjv(doc: PosAsyncApiDocument): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(doc, DOC_ID);
  return ajv;
}

const ajv = documentAjv(document);

function validatorAt(pointer: string): ValidateFunction {
  const validate = ajv.getSchema(`${DOC_ID}#${pointer}`);
  if (validate === undefined) throw new Error(`no schema at ${pointer}`);
  return validate;
}

const payloadOf = (message: string): ValidateFunction => validatorAt(`/components/messages/${message}/payload`);

/** What a validator says about a value: [] when it passes. */
function problems(validate: ValidateFunction, value: unknown): string[] {
  return validate(value)
    ? []
    : (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? ''}`);
}

/** Every `$ref` in the document, with where it is. */
function refs(value: Json, path = ''): Array<[string, string]> {
  if (Array.isArray(value)) return value.flatMap((item, index) => refs(item, `${path}/${index}`));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, item]): Array<[string, string]> =>
    key === '$ref' && typeof item === 'string' ? [[path, item]] : refs(item, `${path}/${key}`),
  );
}

function resolvePointer(doc: Json, ref: string): Json | undefined {
  if (!ref.startsWith('#/')) return undefined;
  let node: Json | undefined = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (typeof node !== 'object' || node === null || Array.isArray(node) || !Object.hasOwn(node, key)) return undefined;
    node = node[key];
  }
  return node;
}

const startRequest = (params: unknown): JsonObject => ({
  jsonrpc: '2.0',
  id: 'sale-1',
  method: 'payment.start',
  params: params as Json,
});
const validSale = {
  reference_id: 'venda-000123',
  amount: 15990,
  payment_type: 'credit',
  installments: 3,
  description: 'Pedido 123',
};

describe('the POS AsyncAPI document', () => {
  it('is AsyncAPI 3.0 with the agent on ws://127.0.0.1:17301/pos and one channel', () => {
    expect(document.asyncapi).toBe('3.0.0');
    expect(document.servers.local).toMatchObject({
      host: '127.0.0.1:17301',
      pathname: '/pos',
      protocol: 'ws',
      'x-fallback-ports': [17302, 17303],
    });
    expect(Object.keys(document.channels)).toEqual(['pos']);
    expect(document.info.version).toBe(VERSION);
    expect(posAsyncApi({ version: '9.9.9' }).info.version).toBe('9.9.9');
  });

  it('has, for every method, a send operation with its request, a reply of its result or an error, and its access and cost', () => {
    for (const name of methodNames) {
      const operation = document.operations[name];
      expect(operation, name).toMatchObject({
        action: 'send',
        channel: { $ref: '#/channels/pos' },
        summary: METHODS[name].summary,
        messages: [{ $ref: `#/channels/pos/messages/${requestMessageName(name)}` }],
        reply: {
          messages: [
            { $ref: `#/channels/pos/messages/${resultMessageName(name)}` },
            { $ref: `#/channels/pos/messages/${ERROR_MESSAGE}` },
          ],
        },
        'x-access': METHODS[name].access,
        'x-cost': METHODS[name].cost,
      });
    }
    expect(document.operations['agent.info']?.['x-access']).toBe('public');
    expect(document.operations['payment.start']?.['x-access']).toBe('client');
  });

  it('has, for every event, a receive operation of its notification, with its audience', () => {
    for (const name of eventNames) {
      expect(document.operations[name], name).toMatchObject({
        action: 'receive',
        messages: [{ $ref: `#/channels/pos/messages/${notificationMessageName(name)}` }],
        'x-audience': EVENTS[name].audience,
      });
    }
    expect(Object.keys(document.operations).sort()).toEqual([...methodNames, ...eventNames].sort());
  });

  it('points every reference at something in the document', () => {
    const all = refs(document);
    expect(all.length).toBeGreaterThan(100);
    const broken = all.filter(([, ref]) => resolvePointer(document, ref) === undefined);
    expect(broken).toEqual([]);
  });

  it('keeps the shared records as named schemas with their titles and descriptions, and no TypeBox bookkeeping', () => {
    const { schemas } = document.components;
    for (const name of [
      'PaymentOutcome',
      'PaymentProgress',
      'PaymentStatus',
      'PaymentStartParams',
      'Pinpad',
      'Printer',
      'PrintJob',
      'ApiHealth',
      'ErrorData',
    ]) {
      expect(schemas[name]?.title, name).toBe(name);
    }
    expect(schemas.PaymentOutcome?.description).toBe(
      'What the POS learns about a payment; the same before and after a restart.',
    );
    expect(document.components.messages['session.hello.result']?.payload).toMatchObject({
      properties: {
        result: { properties: { missed_results: { items: { $ref: '#/components/schemas/PaymentOutcome' } } } },
      },
    });
    expect(JSON.stringify(document)).not.toContain('~kind');
  });

  it('compiles every schema in it with Ajv (JSON Schema 2020-12)', () => {
    const pointers = [
      ...Object.keys(document.components.schemas).map((name) => `/components/schemas/${name}`),
      ...Object.keys(document.components.messages).map((name) => `/components/messages/${name}/payload`),
      '/channels/pos/bindings/ws/headers',
    ];
    for (const pointer of pointers) {
      const schema = resolvePointer(document, `#${pointer}`);
      expect(ajv.validateSchema(schema as JsonObject), pointer).toBe(true);
      expect(() => validatorAt(pointer), pointer).not.toThrow();
    }
    expect(Object.keys(document.components.messages)).toHaveLength(methodNames.length * 2 + eventNames.length + 1);
  });

  it('validates a correct payment.start request and refuses broken ones', () => {
    const request = payloadOf(requestMessageName('payment.start'));
    const params = validatorAt('/components/schemas/PaymentStartParams');
    expect(problems(request, startRequest(validSale))).toEqual([]);
    expect(problems(params, { reference_id: 'v-1', amount: 100, payment_type: 'debit', description: 'Café' })).toEqual(
      [],
    );

    const broken: Array<[string, unknown]> = [
      ['centavos as a fraction', { ...validSale, amount: 159.9 }],
      ['a zero amount', { ...validSale, amount: 0 }],
      ['pix', { ...validSale, payment_type: 'pix' }],
      ['no description', { reference_id: 'v-1', amount: 100, payment_type: 'debit' }],
      ['a misspelt field', { ...validSale, valor: 100 }],
      ['a notification over 32 characters', { ...validSale, notification: 'x'.repeat(33) }],
      ['13 installments', { ...validSale, installments: 13 }],
    ];
    for (const [what, value] of broken) {
      expect(problems(request, startRequest(value)), what).not.toEqual([]);
      expect(problems(params, value), what).not.toEqual([]);
    }
    const { params: _params, ...withoutParams } = startRequest(validSale);
    expect(problems(request, withoutParams)).not.toEqual([]);
    expect(problems(request, { ...startRequest(validSale), method: 'payment.status' })).not.toEqual([]);
  });

  it('has examples that match their messages', () => {
    let checked = 0;
    for (const [name, message] of Object.entries(document.components.messages)) {
      const examples = (message.examples ?? []) as Array<{ payload: Json }>;
      for (const example of examples) {
        expect(problems(payloadOf(name), example.payload), name).toEqual([]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(10);
  });

  it('lists every error code with its JSON-RPC number and pt-BR text, and the close codes', () => {
    const error = document.components.messages[ERROR_MESSAGE]!;
    expect(error['x-error-codes']).toEqual(
      Object.entries(POS_ERRORS).map(([code, entry]) => ({
        code,
        rpc: entry.rpc,
        message: entry.message,
        cashier_message: entry.cashier,
      })),
    );
    for (const [code, entry] of Object.entries(POS_ERRORS))
      expect(error.description, code).toContain(`| \`${code}\` | ${entry.rpc} |`);
    const envelope = payloadOf(ERROR_MESSAGE);
    const answer = (rpc: number, code: string) => ({
      jsonrpc: '2.0',
      id: 7,
      error: { code: rpc, message: 'm', data: { code, cashier_message: 'c' } },
    });
    expect(problems(envelope, answer(-32010, 'BUSY'))).toEqual([]);
    expect(problems(envelope, answer(-32010, 'NOT_A_CODE'))).not.toEqual([]);
    expect(problems(envelope, answer(-1, 'BUSY'))).not.toEqual([]);
    expect(document['x-close-codes']).toEqual({ ...CLOSE_CODES });
    for (const code of Object.values(CLOSE_CODES)) expect(document.info.description).toContain(`| ${code} |`);
  });

  it('is what docs/pos-asyncapi.json holds (regenerate it: npx tsx scripts/pos-asyncapi.ts)', () => {
    const published = JSON.parse(
      readFileSync(new URL('../../../docs/pos-asyncapi.json', import.meta.url), 'utf8'),
    ) as unknown;
    expect(published).toEqual(posAsyncApi());
  });
});

describe('the guide docs/pos-api.md', () => {
  const guide = readFileSync(new URL('../../../docs/pos-api.md', import.meta.url), 'utf8');

  it('lists every method with its access and cost, every event with its audience, every error with its number', () => {
    for (const name of methodNames) {
      const { access, cost } = METHODS[name];
      const shown = access === 'public' ? 'public' : access === 'operator' ? "Pinbridge's window" : 'after hello';
      expect(guide, name).toContain(`| \`${name}\` | ${shown} | ${cost} |`);
    }
    for (const name of eventNames) {
      const audience = {
        owner: 'the client that started it',
        all: 'every client that said hello',
        operator: "Pinbridge's window",
      }[EVENTS[name].audience];
      expect(guide, name).toContain(`| \`${name}\` | ${audience} |`);
    }
    for (const [code, entry] of Object.entries(POS_ERRORS))
      expect(guide, code).toContain(`| \`${code}\` | ${entry.rpc} |`);
    for (const [reason, code] of Object.entries(CLOSE_CODES)) {
      expect(guide, reason).toContain(
        code === CLOSE_CODES.MESSAGE_TOO_BIG ? `| ${code} | (empty) |` : `| ${code} | \`${reason}\` |`,
      );
    }
  });

  it('lists every decline category with its issuer codes, retry advice and what the cashier and the PINPAD show', () => {
    for (const { category, retryable, cashier, pinpad } of declineCategories()) {
      const codes = responseCodesOf(category).join(', ') || '—';
      const shown = pinpad === '' ? 'NAO AUTORIZADA' : `NAO AUTORIZADA / ${pinpad}`;
      expect(guide, category).toContain(
        `| \`${category}\` | ${codes} | ${retryable ? 'yes' : 'no'} | ${cashier} | ${shown} |`,
      );
    }
  });
});

describe('the frames of a real agent', () => {
  let pos: PosRig;
  let client: RpcClient;
  beforeAll(async () => {
    pos = await posRig({ config: { confirmation: 'pos' } });
    client = await pos.paired('Caixa AsyncAPI');
  });
  afterAll(async () => {
    await client.close();
    await pos.close();
  });

  /** Sends a request that must match its request message, and checks the answer against the reply messages. */
  async function exchange(method: MethodName, params: JsonObject): Promise<{ result?: unknown; error?: unknown }> {
    expect(
      problems(payloadOf(requestMessageName(method)), { jsonrpc: '2.0', id: 1, method, params }),
      `${method} request`,
    ).toEqual([]);
    const answer = await client.request(method, params);
    const asResult = problems(payloadOf(resultMessageName(method)), answer);
    const asError = problems(payloadOf(ERROR_MESSAGE), answer);
    expect(
      asResult.length === 0 || asError.length === 0,
      `${method} answer ${JSON.stringify(answer)}: ${[...asResult, ...asError].join('; ')}`,
    ).toBe(true);
    return answer;
  }

  it('match the document: requests, results, errors and notifications', async () => {
    await exchange('agent.info', {});
    await exchange('pinpad.list', {});
    await exchange('agent.status', {});
    expect((await exchange('payment.status', { reference_id: 'aa-1' })).result).toEqual({ status: 'NotFound' });
    const started = await exchange('payment.start', {
      reference_id: 'aa-1',
      amount: 2500,
      payment_type: 'credit',
      description: 'Teste AsyncAPI',
    });
    expect(started.result).toMatchObject({ status: 'approved', confirmation: 'pending' });
    expect((await exchange('payment.status', { reference_id: 'aa-1' })).result).toMatchObject({ status: 'Processed' });
    await exchange('payment.confirm', { reference_id: 'aa-1' });
    await exchange('payment.list', { limit: 5 });
    await exchange('receipt.get', { reference_id: 'aa-1', copy: 'customer' });
    expect((await exchange('payment.confirm', { reference_id: 'no-such-sale' })).error).toMatchObject({
      data: { code: 'NOT_FOUND' },
    });
    expect((await exchange('pinpad.status', { terminal: 'NO-SUCH-PINPAD' })).error).toMatchObject({
      data: { code: 'PINPAD_NOT_FOUND' },
    });

    const seen = new Set<string>();
    for (const notification of client.notifications) {
      const name = notification.method as EventName;
      expect(eventNames, name).toContain(name);
      expect(problems(payloadOf(notificationMessageName(name)), notification), name).toEqual([]);
      seen.add(name);
    }
    expect([...seen]).toEqual(expect.arrayContaining(['payment.progress', 'pinpad.busy']));
  });
});
