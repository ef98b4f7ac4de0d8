/**
 * Schemas compiled on first use. Fastify compiles every route's schemas when the app starts —
 * some 400 validators and serializers in the sandbox — most of which a run of the sandbox (and
 * training mode's, idle all day) never uses: compiling them all made the sandbox start in ~1 s and
 * kept ~15 MB of compiled code. Each is compiled instead the first time its route takes a request
 * or answers with that status, by the same compiler with the same options, so requests and answers
 * are what they were; a schema object several routes use (the error shapes) is compiled once.
 */
import type { ValidateFunction } from 'ajv';
import Fastify, { type FastifyServerOptions } from 'fastify';

/** The compilers fastify takes when the app is made (fastify's own are loaded only when none is given). */
export type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
/** What fastify's response serializer compiler makes: the JSON text of a response body. */
export type ResponseSerializerCompiler = ReturnType<NonNullable<CompilersFactory['buildSerializer']>>;
type Serialize = ReturnType<ResponseSerializerCompiler>;

/**
 * Fastify's own response serializer compiler (fast-json-stringify, set up as fastify sets it up for
 * an app without shared schemas or serializer options, as this one is), taken from a throwaway
 * instance: fastify hands it out only once one of its routes has a response schema.
 */
export async function fastifyResponseSerializer(): Promise<ResponseSerializerCompiler> {
  // A validator compiler of its own (the probe has nothing to check), so that fastify does not load its Ajv for it.
  const unused = validatorOnFirstUse(() => {
    throw new Error('the probe checks no request');
  });
  const probe = Fastify({
    logger: false,
    schemaController: { compilersFactory: { buildValidator: () => () => unused } },
  });
  probe.get('/', { schema: { response: { 200: { type: 'null' } } } }, () => null);
  await probe.ready();
  const compiler = probe.serializerCompiler as ResponseSerializerCompiler | undefined;
  await probe.close();
  if (compiler === undefined) throw new Error('fastify set up no response serializer compiler');
  return compiler;
}

/** A validator that compiles its schema on its first call, and shows Ajv's errors as fastify reads them. */
export function validatorOnFirstUse(compile: () => ValidateFunction): ValidateFunction {
  let validate: ValidateFunction | undefined;
  const onFirstUse = ((data: unknown) => {
    validate ??= compile();
    const valid = validate(data);
    onFirstUse.errors = validate.errors;
    return valid;
  }) as ValidateFunction;
  return onFirstUse;
}

/** Fastify's serializer compiler, compiling each response schema when a route first answers with it. */
export function serializerOnFirstUse(compiler: ResponseSerializerCompiler): ResponseSerializerCompiler {
  const compiled = new WeakMap<object, Serialize>();
  return (route) => {
    let serialize: Serialize | undefined;
    return (data) => {
      if (serialize === undefined) {
        serialize = compiled.get(route.schema as object) ?? compiler(route);
        compiled.set(route.schema as object, serialize);
      }
      return serialize(data);
    };
  };
}
