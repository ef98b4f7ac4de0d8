/**
 * The JSON-RPC 2.0 envelope at its edges, as the specification (jsonrpc.org/specification) has
 * them: a null id is a request like any other, params that are not structured make an Invalid
 * Request, and the POS reads every refusal in the API's own words — `params`, never the shared
 * schema validator's "Body" or "Field".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorData } from '../../../../main/pos/protocol/index.js';
import { schemaViolations } from '../../../../main/contract/index.js';
import { paramsViolation } from '../../../../main/pos/server/errors.js';
import { posRig, type PosRig, type RpcClient, type RpcMessage } from '../pos-rig.js';

let pos: PosRig;
let client: RpcClient;

beforeAll(async () => {
  pos = await posRig({ rateLimit: { capacity: 1_000, refillPerSecond: 1_000 } });
  client = await pos.paired('JSON-RPC');
});
afterAll(async () => pos.close());

/** Sends raw text and waits for the next answer whose id is null. */
async function anonymous(text: string): Promise<RpcMessage> {
  const before = client.anonymousAnswers.length;
  client.socket.send(text);
  const deadline = Date.now() + 5_000;
  while (client.anonymousAnswers.length === before) {
    if (Date.now() > deadline) throw new Error(`no answer to ${text}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return client.anonymousAnswers[before]!;
}

/** Sends raw text carrying `id` and waits for the answer with that id. */
function answerTo(id: number, message: Record<string, unknown>): Promise<RpcMessage> {
  return new Promise((resolve) => {
    const onMessage = (data: Buffer): void => {
      const answer = JSON.parse(data.toString('utf8')) as RpcMessage;
      if (answer.id !== id) return;
      client.socket.off('message', onMessage);
      resolve(answer);
    };
    client.socket.on('message', onMessage);
    client.socket.send(JSON.stringify({ jsonrpc: '2.0', id, ...message }));
  });
}

describe('a request whose id is null', () => {
  it('is answered, with id null, like any other request', async () => {
    const answer = await anonymous(JSON.stringify({ jsonrpc: '2.0', id: null, method: 'pinpad.list' }));
    expect(answer).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      result: { pinpads: [expect.objectContaining({ connected: true })] },
    });
    expect(answer.error).toBeUndefined();
  });

  it('gets its error with id null too (an unknown method)', async () => {
    const answer = await anonymous(JSON.stringify({ jsonrpc: '2.0', id: null, method: 'payment.teleport' }));
    expect(answer).toMatchObject({ id: null, error: { code: -32601, data: { code: 'METHOD_NOT_FOUND' } } });
  });
});

describe('params that are not an object', () => {
  it.each([
    ['a string', 'x'],
    ['a number', 7],
    ['a boolean', true],
    ['null', null],
  ])('%s is an Invalid Request (-32600), answered with the request id', async (_what, params) => {
    const answer = await answerTo(101, { method: 'pinpad.list', params });
    expect(answer.error).toMatchObject({ code: -32600, data: { code: 'INVALID_REQUEST' } });
    expect(answer.error?.message).toMatch(/^params must be an object/);
    expect(schemaViolations(ErrorData, answer.error?.data)).toEqual([]);
  });

  it('an array (positional params) is -32602 with a sentence of the API, not the validator’s', async () => {
    const answer = await answerTo(102, { method: 'payment.status', params: ['venda-1'] });
    expect(answer.error).toMatchObject({ code: -32602, data: { code: 'INVALID_PARAMS', violations: [{ field: '' }] } });
    expect(answer.error?.message).toMatch(/^params must be an object with named members/);
    expect(JSON.stringify(answer.error)).not.toMatch(/Body|must be of type/);
  });

  it('an empty array is positional params as well, even for a method without parameters', async () => {
    const answer = await answerTo(103, { method: 'pinpad.list', params: [] });
    expect(answer.error).toMatchObject({ code: -32602, data: { code: 'INVALID_PARAMS' } });
  });

  it('left out is the same as {}', async () => {
    const answer = await answerTo(104, { method: 'pinpad.list' });
    expect(answer.error).toBeUndefined();
    expect(Array.isArray((answer.result as { pinpads?: unknown }).pinpads)).toBe(true);
  });
});

describe('the wording of a parameter refusal', () => {
  it('names params and its members, never the validator’s "Body" or "Field"', async () => {
    const answer = await answerTo(201, {
      method: 'payment.start',
      params: { reference_id: 'w-1', amount: 12.5, payment_type: 'pix', description: 'x', colour: 'red' },
    });
    expect(answer.error?.code).toBe(-32602);
    const { violations } = answer.error!.data as unknown as { violations: { field: string; message: string }[] };
    expect(violations.map((v) => v.field)).toEqual(expect.arrayContaining(['amount', 'payment_type', 'colour']));
    for (const { message } of violations) {
      expect(message).toMatch(/^params[. ]/);
      expect(message).not.toMatch(/\bBody\b|\bField\b|in request/);
    }
    expect(violations.find((v) => v.field === 'colour')?.message).toBe(
      'params.colour is not a parameter of this method',
    );
    expect(answer.error?.message).not.toMatch(/\bBody\b|\bField\b/);
  });

  it('rewrites each of the validator’s shapes of sentence', () => {
    expect(paramsViolation({ field: '', message: 'Body must be of type object' })).toEqual({
      field: '',
      message: 'params must be of type object',
    });
    expect(paramsViolation({ field: 'amount', message: 'Field amount must be of type integer' })).toEqual({
      field: 'amount',
      message: 'params.amount must be of type integer',
    });
    expect(paramsViolation({ field: 'a', message: 'Unexpected fields in request [a, b]' })).toEqual({
      field: 'a',
      message: 'params.a, params.b are not a parameter of this method',
    });
    expect(paramsViolation({ field: 'installments', message: 'Installments are for credit only' })).toEqual({
      field: 'installments',
      message: 'Installments are for credit only',
    });
  });

  it('the engine’s own rules (after the schema) read the same way', async () => {
    const answer = await answerTo(202, {
      method: 'payment.start',
      params: { reference_id: 'w-2', amount: 1_000, payment_type: 'debit', description: 'x', notification: 'one\ntwo' },
    });
    expect(answer.error).toMatchObject({ code: -32602, data: { code: 'INVALID_PARAMS' } });
    const { violations } = answer.error!.data as unknown as { violations: { field: string; message: string }[] };
    expect(violations).toContainEqual({ field: 'notification', message: 'params.notification must be one line' });
  });
});
