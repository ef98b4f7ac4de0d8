/**
 * Schemas compiled on first use. Fastify compiles every route's schemas when the app starts —
 * some 400 validators and serializers in the sandbox — most of which a run of the sandbox (and
 * training mode's, idle all day) never uses: compiling them all made the sandbox start in ~1 s and
 * kept ~15 MB of compiled code. Each is compiled instead the first time its route takes a request
 * or answers with that status, by the same compiler with the same options, so requests and answers
 * are what they were; a schema object several routes use (the error shapes) is compiled once.
 */
import type { ValidateFunction } from 'ajv';
import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';

/** The compilers fastify takes when the app is made (fastify's own are loaded only when none is given). */
export type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
/** What fastify's response serializer compiler makes: the JSON text of a response body. */
export type ResponseSerializerCompiler = ReturnType<NonNullable<CompilersFactory['buildSerializer']>>;
type Serialize = ReturnType<ResponseSerializerCompiler>;

/**
 * Fastify's own response serializer compiler, loaded when first used: fastify's
 * @fastify/fast-json-stringify-compiler (with fast-json-stringify, and the Ajv it checks
 * conditional schemas with), required from fastify's own folder as fastify requires it, and set
 * up as fastify sets it up for an app without shared schemas or serializer options (the
 * sandbox's): `SerializerSelector()(schemas, serializerOpts)`. A sandbox that answers nothing yet
 * has loaded none of it.
 */
export function fastifyResponseSerializer(): ResponseSerializerCompiler {
  let compiler: ResponseSerializerCompiler | undefined;
  return (route) => {
    if (compiler === undefined) {
      const fastify = createRequire(import.meta.url).resolve('fastify');
      const selector = createRequire(fastify)('@fastify/fast-json-stringify-compiler') as () => (
        externalSchemas: Record<string, unknown>,
        serializerOpts: undefined,
      ) => ResponseSerializerCompiler;
      compiler = selector()({}, undefined);
    }
    return compiler(route);
  };
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
