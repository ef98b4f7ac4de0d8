/**
 * The sandbox compiles a route's schemas when the route is first used, not when it starts (issue
 * 35: ~400 validators and serializers made it start in ~1 s and held ~15 MB), and compiles them
 * with the compilers fastify would have used, so what it accepts and answers is unchanged.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import { describe, expect, it } from 'vitest';
import {
  fastifyResponseSerializer,
  serializerOnFirstUse,
  validatorOnFirstUse,
  type ResponseSerializerCompiler,
} from '../../../main/sandbox/lazy-schemas.js';

const BODY = {
  type: 'object',
  properties: { amount: { type: 'integer', minimum: 1 }, currency: { type: 'string' } },
  required: ['amount'],
};

describe('a validator compiled on first use', () => {
  it('compiles its schema at its first call, and only once', () => {
    const ajv = new Ajv({ allErrors: true });
    let compiled = 0;
    const validate = validatorOnFirstUse(() => {
      compiled += 1;
      return ajv.compile(BODY);
    });
    expect(compiled).toBe(0);
    expect(validate({ amount: 100 })).toBe(true);
    expect(validate({ amount: 0 })).toBe(false);
    expect(compiled).toBe(1);
  });

  it("shows the errors of its last call where fastify reads them, as Ajv's own function does", () => {
    const ajv = new Ajv({ allErrors: true });
    const own: ValidateFunction = ajv.compile(BODY);
    const lazy = validatorOnFirstUse(() => ajv.compile(BODY));
    for (const body of [{ amount: 'cem' }, { amount: 100 }, { currency: 'BRL' }]) {
      expect(lazy(body)).toBe(own(body));
      expect(lazy.errors).toEqual(own.errors);
    }
    expect(lazy.errors).toEqual([expect.objectContaining({ keyword: 'required' })]);
  });
});

describe('a response serializer compiled on first use', () => {
  const route = (schema: object, url = '/v1/x'): Parameters<ResponseSerializerCompiler>[0] => ({
    schema,
    method: 'GET',
    url,
    httpStatus: '200',
  });

  it('compiles nothing when the routes are set up, then once per schema, shared by the routes that use it', () => {
    const fastify = fastifyResponseSerializer();
    let compiled = 0;
    const counting: ResponseSerializerCompiler = (args) => {
      compiled += 1;
      return fastify(args);
    };
    const onFirstUse = serializerOnFirstUse(counting);
    const shared = { type: 'object', properties: { status: { type: 'integer' } } };
    const first = onFirstUse(route(shared, '/v1/a'));
    const second = onFirstUse(route(shared, '/v1/b'));
    // A route that never answers with its schema never has it compiled.
    onFirstUse(route(BODY, '/v1/c'));
    expect(compiled).toBe(0);
    expect(first({ status: 404 })).toBe('{"status":404}');
    expect(second({ status: 401 })).toBe('{"status":401}');
    expect(compiled).toBe(1);
  });

  it("writes what fastify's own serializer writes: the schema's fields in its order, nothing else", () => {
    const fastify = fastifyResponseSerializer();
    const onFirstUse = serializerOnFirstUse(fastify);
    const answer = { currency: 'BRL', internal_note: 'never sent', amount: 1990 };
    const written = onFirstUse(route(BODY))(answer);
    expect(written).toBe(fastify(route(BODY))(answer));
    expect(written).toBe('{"amount":1990,"currency":"BRL"}');
  });
});
