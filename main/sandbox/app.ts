/**
 * The sandbox's Fastify application: JSON bodies validated by the contract's TypeBox schemas
 * (through Ajv, without type coercion for bodies), the contract's error shapes, bearer
 * authentication with marketplace isolation, and the OpenAPI document generated from the same
 * schemas. Route families live in `routes/*.ts`.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type * as AjvModule from 'ajv';
import type { Ajv, Options as AjvOptions } from 'ajv';
import type * as AjvFormatsModule from 'ajv-formats';
import { createRequire } from 'node:module';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { violationsFromSchemaErrors, type SchemaErrorLike } from '../contract/index.js';
import { authenticate } from './auth.js';
import { fastifyResponseSerializer, serializerOnFirstUse, validatorOnFirstUse } from './lazy-schemas.js';
import { DOCUMENT_LICENSE, hoistNamedSchemas, SANDBOX_SERVER } from './openapi.js';
import type { SandboxContext, SandboxTls } from './context.js';
import { errorBody, SandboxHttpError, type ErrorShape } from './errors.js';
import { VERSION } from '../version.js';
import { nodeHttps } from '../../lib/net-builtins.js';

/** Per-route settings: which error shape the route answers with and whether it needs a token. */
export interface SandboxRouteConfig {
  errorShape?: ErrorShape;
  /** Default true for every /v1 route; false for sandbox helpers that mint tokens and public documents. */
  auth?: boolean;
}

declare module 'fastify' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging adds the fields
  interface FastifyContextConfig extends SandboxRouteConfig {}
  interface FastifyRequest {
    /** The marketplace the bearer token belongs to (set by the auth hook). */
    marketplaceId: string;
  }
}

export type SandboxApp = FastifyInstance<
  Server,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

export type RouteRegistrar = (app: SandboxApp, ctx: SandboxContext) => void;

/**
 * An Ajv with its formats (CommonJS, required here), made with the first schema compiled
 * (lazy-schemas.ts): a sandbox that takes no request never builds one.
 */
function makeAjv(options: AjvOptions): Ajv {
  const require = createRequire(import.meta.url);
  const { Ajv: AjvClass } = require('ajv') as typeof AjvModule;
  // ajv-formats is CommonJS with a default export property.
  const formats = require('ajv-formats') as typeof AjvFormatsModule & { default?: unknown };
  const addFormats = (formats.default ?? formats) as unknown as (ajv: Ajv) => Ajv;
  const ajv = new AjvClass({ allErrors: true, strict: false, useDefaults: true, removeAdditional: false, ...options });
  addFormats(ajv);
  return ajv;
}

/**
 * The app over HTTP, or over HTTPS with `tls` (the handlers are the same; a client certificate is
 * asked for, and judged by auth.ts so a refusal is a 401/403 the client can read, not a failed
 * handshake). Its schemas are compiled on first use (lazy-schemas.ts): the validators by Ajv, the
 * answers by fastify's own serializer compiler.
 */
export function buildSandboxApp(
  ctx: SandboxContext,
  registrars: readonly RouteRegistrar[],
  options: {
    readonly tls?: SandboxTls | undefined;
    /** Collect the routes for the OpenAPI document (`app.swagger()`): @fastify/swagger is loaded only then. */
    readonly openapi?: boolean | undefined;
  },
): SandboxApp {
  const { tls } = options;
  const serverFactory =
    tls === undefined
      ? undefined
      : (handler: (request: IncomingMessage, response: ServerResponse) => void): Server =>
          // https.Server is an http.Server serving the same IncomingMessage/ServerResponse.
          nodeHttps().createServer(
            {
              cert: tls.cert,
              key: tls.key,
              ...(tls.ca === undefined ? {} : { ca: tls.ca, requestCert: true, rejectUnauthorized: false }),
            },
            handler,
          );
  // Bodies are checked strictly (an amount of "100" is not an integer); query strings and
  // path parameters arrive as text and are coerced.
  let strictAjv: Ajv | undefined;
  let coercingAjv: Ajv | undefined;
  const ajvFor = (httpPart: string | undefined): Ajv =>
    httpPart === 'body'
      ? (strictAjv ??= makeAjv({ coerceTypes: false }))
      : (coercingAjv ??= makeAjv({ coerceTypes: 'array' }));
  const app = Fastify({
    ...(serverFactory === undefined ? {} : { serverFactory }),
    // The compilers given here, not set after: fastify loads its own (another Ajv) only when none is given.
    schemaController: {
      compilersFactory: {
        buildValidator:
          () =>
          ({ schema, httpPart }) =>
            validatorOnFirstUse(() => ajvFor(httpPart).compile(schema as object)),
        buildSerializer: () => serializerOnFirstUse(fastifyResponseSerializer()),
      },
    },
    logger: false,
    bodyLimit: ctx.settings.bodyLimitBytes,
    // Trailing slashes and case are the client's business; ids are matched as given.
    routerOptions: { ignoreTrailingSlash: true },
    return503OnClosing: true,
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorateRequest('marketplaceId', '');
  if (options.openapi === true) registerOpenApi(app);

  app.addHook('onRequest', async (request, reply) => authenticate(ctx, request, reply));
  app.setErrorHandler((error, request, reply) => sendError(ctx, error, request, reply));
  app.setNotFoundHandler((request, reply) => {
    void reply
      .code(404)
      .send(errorBody('A', 404, `Route not found: ${request.method} ${request.url.split('?')[0] ?? ''}`));
  });

  // Only JSON is spoken; a text/plain body is 415, not a string handed to the routes.
  app.removeContentTypeParser('text/plain');
  // Registered as a plugin so the routes load after @fastify/swagger and appear in its document.
  void app.register(async (scope) => {
    for (const register of registrars) register(scope, ctx);
    await Promise.resolve();
  });
  return app;
}

/**
 * @fastify/swagger, collecting every route registered after it for the document (`app.swagger()`).
 * Loaded as the app boots, and only for a sandbox asked for its document: with its YAML library it
 * is some 90 modules that serving the API never uses.
 */
function registerOpenApi(app: SandboxApp): void {
  void app.register(import('@fastify/swagger'), {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Pinbridge payments API sandbox',
        version: VERSION,
        license: DOCUMENT_LICENSE,
        description:
          'The marketplace payments API contract (shared/payments-api.md) served on this machine, plus the terminal channel ' +
          '(docs/terminal-channel.md), webhooks and sandbox helpers. Switch to the real service by changing the base URL and token.',
      },
      servers: [SANDBOX_SERVER],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    transformObject: (documents) =>
      'openapiObject' in documents ? hoistNamedSchemas(documents.openapiObject) : documents.swaggerObject,
  });
}

function routeShape(request: FastifyRequest): ErrorShape {
  return request.routeOptions.config?.errorShape ?? 'A';
}

function sendError(ctx: SandboxContext, error: unknown, request: FastifyRequest, reply: FastifyReply): void {
  if (error instanceof SandboxHttpError) {
    void reply
      .code(error.statusCode)
      .send(errorBody(error.shape ?? routeShape(request), error.statusCode, error.message));
    return;
  }
  const fastifyError = error as Partial<FastifyError> & { validation?: SchemaErrorLike[] };
  if (Array.isArray(fastifyError.validation)) {
    const [first] = violationsFromSchemaErrors(fastifyError.validation);
    const part = fastifyError.validationContext ?? 'body';
    const message = first
      ? part === 'body'
        ? first.message
        : first.message.replace(/^Field /, part === 'querystring' ? 'Query parameter ' : 'Path parameter ')
      : 'Invalid request';
    void reply.code(400).send(errorBody(routeShape(request), 400, message));
    return;
  }
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    void reply.code(status).send(errorBody(routeShape(request), status, clientErrorMessage(fastifyError, status)));
    return;
  }
  ctx.log.error({ err: error, method: request.method, url: request.url }, 'sandbox request failed');
  void reply.code(500).send(errorBody(routeShape(request), 500, 'Internal error in the sandbox; see its log.'));
}

/** Fastify's own client errors, in the sandbox's words (never a stack trace). */
function clientErrorMessage(error: Partial<FastifyError>, status: number): string {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'Request body is too large';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Content-Type must be application/json';
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'Body must be a JSON object; it was empty';
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return 'Body is not valid JSON';
    default:
      if (status === 400 && error instanceof SyntaxError) return 'Body is not valid JSON';
      return error.message ?? 'Bad request';
  }
}
