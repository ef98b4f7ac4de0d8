/**
 * The AsyncAPI 3.0 document of the POS API, built from the protocol's one source — METHODS,
 * EVENTS, POS_ERRORS, CLOSE_CODES, the limits — so the published reference cannot drift from
 * what the server validates. `scripts/pos-asyncapi.ts` writes it to docs/pos-asyncapi.json.
 *
 * It is written from the POS's side of the connection: the POS *sends* a request for each
 * method (and gets its result or an error as the reply) and *receives* the notifications.
 * Everything travels on one WebSocket, so there is one channel (`pos`) and JSON-RPC 2.0
 * envelopes tell the messages apart (`method`, and `id` to match a reply to its request).
 *
 * Records with a `title` in the protocol (PaymentOutcome, Pinpad, ErrorData…) become
 * components.schemas and are referenced wherever they appear, so a code generator makes one
 * type of each. TypeBox schemas are plain JSON Schema once its non-enumerable bookkeeping keys
 * are dropped (a JSON round trip does it).
 */
import { isDeepStrictEqual } from 'node:util';
import type { TSchema } from 'typebox';
import {
  CLOSE_CODES,
  DEFAULT_PORTS,
  ErrorData,
  EVENTS,
  MAX_MESSAGE_BYTES,
  METHODS,
  POS_ERRORS,
  PROTOCOL_VERSION,
  UPGRADE_REFUSALS,
  WS_PATH,
  type EventName,
  type MethodName,
  type MethodSpec,
} from './protocol/index.js';
import { MAX_IN_FLIGHT } from './server/dispatch.js';
import { DEFAULT_RATE_LIMIT } from './server/rate-limit.js';
import { VERSION } from '../version.js';

export type Json = null | boolean | number | string | Json[] | JsonObject;
export interface JsonObject {
  [key: string]: Json;
}

/** The parts of the document its readers (the tests, the docs) look into; the rest is plain JSON. */
export interface PosAsyncApiDocument extends JsonObject {
  asyncapi: '3.0.0';
  info: JsonObject;
  servers: JsonObject;
  channels: { pos: JsonObject & { messages: Record<string, JsonObject> } };
  operations: Record<string, JsonObject>;
  components: JsonObject & { schemas: Record<string, JsonObject>; messages: Record<string, JsonObject> };
}

export interface PosAsyncApiOptions {
  /** `info.version`; default the package's version. */
  readonly version?: string;
}

/** The channel every message travels on, and where its messages and components are referenced from. */
const CHANNEL = 'pos';
const CHANNEL_REF = { $ref: `#/channels/${CHANNEL}` };
/** The one error message every request may get as its reply. */
export const ERROR_MESSAGE = 'rpc.error';

const TAGS: Record<MethodSpec['tag'] | 'events', string> = {
  session: 'Finding the agent, pairing and logging in: the only methods a session may call before session.hello.',
  agent: 'The agent as a whole.',
  pinpad: 'The PINPADs outside a payment: messages, keys, data the customer types.',
  payment: 'PINPAD payments: start, progress, result, recovery, confirmation.',
  receipt: 'Receipts of payments: get them as text, HTML or ESC/POS, or print them.',
  relay: "The payments API, relayed with Pinbridge's credentials: the POS never holds them.",
  pix: "Pix at the counter: a bolepix's QR on the PINPAD, watched until it is paid.",
  operator: "Pinbridge's own window (the cashier's): pairing codes and paired clients. A POS gets OPERATOR_ONLY.",
  events: 'Notifications pushed by the agent.',
};

/** The message keys of a method's request and result, and of an event's notification. */
export const requestMessageName = (method: MethodName): string => `${method}.request`;
export const resultMessageName = (method: MethodName): string => `${method}.result`;
export const notificationMessageName = (event: EventName): string => event;

const plain = (schema: TSchema): JsonObject => JSON.parse(JSON.stringify(schema)) as JsonObject;

const isObject = (value: Json | undefined): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Keywords whose value is a schema, a list of schemas, or a map of name → schema: where titled records may nest. */
const SCHEMA_KEYWORDS = [
  'additionalProperties',
  'items',
  'not',
  'contains',
  'propertyNames',
  'if',
  'then',
  'else',
  'unevaluatedProperties',
  'unevaluatedItems',
];
const SCHEMA_LIST_KEYWORDS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const SCHEMA_MAP_KEYWORDS = ['properties', 'patternProperties', '$defs', 'dependentSchemas'];

/**
 * Collects the titled records into components.schemas and replaces each occurrence with a
 * `$ref`. Two different schemas under one title would make one of them lie: that stops the build.
 */
class SchemaComponents {
  readonly #components = new Map<string, JsonObject>();
  /** The plain schema each title was first seen with, to tell a repeat from a clash. */
  readonly #originals = new Map<string, JsonObject>();

  /** `schema` with its titled parts (and itself, when titled) replaced by references. */
  use(schema: TSchema): JsonObject {
    return this.#replace(plain(schema));
  }

  /** The collected schemas, sorted by name. */
  get schemas(): Record<string, JsonObject> {
    return Object.fromEntries([...this.#components.entries()].sort(([a], [b]) => a.localeCompare(b)));
  }

  #replace(schema: JsonObject): JsonObject {
    const title = schema.title;
    if (typeof title !== 'string') return this.#inner(schema);
    const seen = this.#originals.get(title);
    if (seen === undefined) {
      this.#originals.set(title, schema);
      // Set before descending, so a record that contains itself still ends.
      this.#components.set(title, {});
      this.#components.set(title, this.#inner(schema));
    } else if (!isDeepStrictEqual(seen, schema)) {
      throw new Error(`Two different schemas are titled "${title}": give one of them another title`);
    }
    return { $ref: `#/components/schemas/${title}` };
  }

  /** Replaces the titled records nested in `schema`, leaving its own keywords as they are. */
  #inner(schema: JsonObject): JsonObject {
    const out: JsonObject = {};
    for (const [key, value] of Object.entries(schema)) {
      if (SCHEMA_KEYWORDS.includes(key) && isObject(value)) out[key] = this.#replace(value);
      else if (SCHEMA_LIST_KEYWORDS.includes(key) && Array.isArray(value))
        out[key] = value.map((item) => (isObject(item) ? this.#replace(item) : item));
      else if (SCHEMA_MAP_KEYWORDS.includes(key) && isObject(value)) {
        out[key] = Object.fromEntries(
          Object.entries(value).map(([name, item]) => [name, isObject(item) ? this.#replace(item) : item]),
        );
      } else out[key] = value;
    }
    return out;
  }
}

const AUDIENCE = {
  owner:
    'Sent to the client that started the payment or charge (every connection of it that said hello); ' +
    'one nobody here started goes to every authenticated connection.',
  all: 'Sent to every connection that said hello.',
  operator: "Sent only to Pinbridge's own window (a session.operator connection).",
} as const;

const JSONRPC = { type: 'string', const: '2.0' } as const;
const REQUEST_ID_REF = { $ref: '#/components/schemas/RequestId' };
const CORRELATION = { $ref: '#/components/correlationIds/requestId' };

/** Whether a request must carry `params`: the server reads a missing one as `{}`. */
function paramsRequired(schema: TSchema): boolean {
  const required = plain(schema).required;
  return Array.isArray(required) && required.length > 0;
}

function markdownCell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}

function errorTable(): string {
  const rows = Object.entries(POS_ERRORS).map(
    ([code, entry]) =>
      `| \`${code}\` | ${entry.rpc} | ${markdownCell(entry.message)} | ${markdownCell(entry.cashier)} |`,
  );
  return ['| data.code | error.code | Meaning | cashier_message (pt-BR) |', '| --- | --- | --- | --- |', ...rows].join(
    '\n',
  );
}

function closeCodeTable(): string {
  const meaning: Record<keyof typeof CLOSE_CODES, string> = {
    ORIGIN_NOT_ALLOWED:
      'The page\'s Origin cannot be paired at all ("null" from a file or a sandboxed frame; not http/https). Sent right after the upgrade.',
    ORIGIN_BLOCKED:
      "The page's origin is blocked in Pinbridge. Sent right after the upgrade: tell the cashier, do not retry.",
    TOKEN_REVOKED:
      'The client was revoked while connected (in the Pinbridge window, or with `pinbridge clients revoke` — then at its next request, ' +
      'which is answered TOKEN_INVALID first). Pair again.',
    PROGRAM_BLOCKED:
      'The cashier blocked the program behind this connection (Pinbridge tells it by its TCP port; see "Security model"). ' +
      'Sent right after the upgrade, and to its open connections when it is blocked. Tell the cashier; do not retry.',
    IDLE:
      'The connection had not logged in (session.hello, a pairing, the window) 30 s after it connected, whatever it sent meanwhile — ' +
      'or, with a pairing request waiting for its code, when that request ended. Log in right after connecting; reconnect when you need the agent.',
    TOO_MANY_CONNECTIONS:
      'Room for a newer connection: 32 connections that have not logged in were open and this program held the most of them, so its oldest went. ' +
      'A newcomer is never turned away. Log in right after connecting.',
    AGENT_STOPPING: 'Pinbridge is stopping. Reconnect with backoff; recover payments with payment.status.',
    MESSAGE_TOO_BIG: `A message over ${MAX_MESSAGE_BYTES} bytes. The WebSocket library closes it by itself: the reason text is empty.`,
  };
  const rows = Object.entries(CLOSE_CODES).map(
    ([reason, code]) => `| ${code} | \`${reason}\` | ${meaning[reason as keyof typeof CLOSE_CODES]} |`,
  );
  return ['| Close code | Reason text | When |', '| --- | --- | --- |', ...rows].join('\n');
}

function infoDescription(): string {
  const { capacity, refillPerSecond } = DEFAULT_RATE_LIMIT;
  return [
    "Pinbridge's local API for POS software: JSON-RPC 2.0 over a WebSocket on this computer's loopback " +
      `(ws://127.0.0.1:${DEFAULT_PORTS[0]}${WS_PATH}; ports ${DEFAULT_PORTS.join(', ')} are tried in that order). ` +
      'The guide is docs/pos-api.md; this document is the reference of every message.',
    '',
    '**Messages.** One JSON-RPC request per text frame (no batches, no binary frames); `id` is a string (≤ 200 characters) or a number. ' +
      'A request without an `id` is a notification and gets no answer — the API has no such methods, so it is dropped. ' +
      'The agent pushes notifications (no `id`) for the events below. The document is written from the POS side: it *sends* the requests ' +
      'and *receives* the notifications.',
    '',
    '**Access.** Each operation says `x-access`: `public` methods work on any connection (finding the agent, pairing, logging in); ' +
      '`client` methods need a session that said `session.hello` with its client token (or just confirmed a pairing), else they answer `UNAUTHENTICATED`; ' +
      "`operator` methods are Pinbridge's own window's (`session.operator` with the agent's key), else they answer `OPERATOR_ONLY`.",
    '',
    `**Rate limit.** A token bucket per paired client (shared by its connections; per connection before hello): ${capacity} tokens, refilled at ${refillPerSecond} per second. ` +
      'Each method takes its `x-cost`. Over budget the answer is `RATE_LIMITED` with `data.retry_after_ms`; the connection stays open. ' +
      `At most ${MAX_IN_FLIGHT} requests of one connection may wait for their answers at once.`,
    '',
    `**Size.** Messages over ${MAX_MESSAGE_BYTES} bytes close the connection with 1009.`,
    '',
    '**Close codes** (`x-close-codes`): how the agent ends a connection, readable by a page in the close event.',
    '',
    closeCodeTable(),
    '',
    '**HTTP refusals of the upgrade** (`x-upgrade-refusals`; body `{"error": {"code", "message"}}`): 403 `HOST_NOT_ALLOWED` when the Host header is not ' +
      '127.0.0.1, localhost or [::1] with the port (DNS rebinding); 404 `NOT_FOUND` for another path. A browser page cannot read these; only programs see them.',
  ].join('\n');
}

function errorMessage(): JsonObject {
  const rpcCodes = [...new Set(Object.values(POS_ERRORS).map((entry) => entry.rpc))].sort((a, b) => b - a);
  return {
    name: ERROR_MESSAGE,
    title: 'Error',
    summary:
      'The reply to any request that failed. Branch on error.data.code; show error.data.cashier_message to the cashier.',
    description:
      '`error.code` is the JSON-RPC number (it only groups the codes); `error.data.code` is the stable code to branch on. ' +
      "`id` is null when the request's id could not be read (not JSON, not a request) or was null.\n\n" +
      errorTable(),
    contentType: 'application/json',
    correlationId: CORRELATION,
    payload: {
      type: 'object',
      required: ['jsonrpc', 'id', 'error'],
      properties: {
        jsonrpc: JSONRPC,
        id: REQUEST_ID_REF,
        error: {
          type: 'object',
          required: ['code', 'message', 'data'],
          properties: {
            code: { type: 'integer', enum: rpcCodes },
            message: { type: 'string', description: 'English, for the POS developer and the log.' },
            data: { $ref: '#/components/schemas/ErrorData' },
          },
          additionalProperties: false,
        },
      },
      additionalProperties: false,
    },
    'x-error-codes': Object.entries(POS_ERRORS).map(([code, entry]) => ({
      code,
      rpc: entry.rpc,
      message: entry.message,
      cashier_message: entry.cashier,
    })),
    examples: [
      {
        name: 'invalid-params',
        summary: 'payment.start with a non-integer amount',
        payload: {
          jsonrpc: '2.0',
          id: 3,
          error: {
            code: -32602,
            message: 'params.amount must be of type integer',
            data: {
              code: 'INVALID_PARAMS',
              cashier_message: 'Dados inválidos.',
              violations: [{ field: 'amount', message: 'params.amount must be of type integer' }],
            },
          },
        },
      },
      {
        name: 'rate-limited',
        summary: 'Over the rate budget',
        payload: {
          jsonrpc: '2.0',
          id: 42,
          error: {
            code: -32006,
            message: POS_ERRORS.RATE_LIMITED.message,
            data: { code: 'RATE_LIMITED', cashier_message: POS_ERRORS.RATE_LIMITED.cashier, retry_after_ms: 150 },
          },
        },
      },
      {
        name: 'unauthenticated',
        summary: 'A client method before session.hello',
        payload: {
          jsonrpc: '2.0',
          id: 1,
          error: {
            code: -32001,
            message: POS_ERRORS.UNAUTHENTICATED.message,
            data: { code: 'UNAUTHENTICATED', cashier_message: POS_ERRORS.UNAUTHENTICATED.cashier },
          },
        },
      },
    ],
  };
}

/** A payment's outcome as the agent sends it (taken from a training-mode run). */
const OUTCOME_EXAMPLE: JsonObject = {
  status: 'approved',
  reference_id: 'venda-000123',
  payment_id: '09a3c2b054c750f040ec8e77e74327dc',
  transaction_id: '7a6a60e774baebadef7a66390ca6e104',
  terminal: 'POS0000000000001',
  amount: 15990,
  payment_type: 'credit',
  installments: 3,
  authorization_code: '208614',
  nsu: '100000',
  card: { brand: 'visa', masked_pan: '411111******1111', entry_mode: 'chip' },
  confirmation: 'pending',
  state: 'awaiting_confirmation',
  phase: 'decided',
  problem: null,
  decline_code: null,
  issuer_response_code: '00',
  customer_tax_id: null,
  created_at: '2026-11-21T07:06:10.257Z',
  finished_at: null,
};

/** Example `params` of requests and `result`s of replies, by method: each is checked against its schema by the tests. */
const METHOD_EXAMPLES: Partial<Record<MethodName, { params?: JsonObject; result?: JsonObject }>> = {
  'agent.info': {
    params: {},
    result: {
      name: 'Pinbridge',
      version: '0.1.0',
      protocol: PROTOCOL_VERSION,
      mode: 'training',
      authenticated: false,
      methods: Object.keys(METHODS),
      events: Object.keys(EVENTS),
    },
  },
  'session.pair': {
    params: { name: 'Caixa 3 — Loja Centro' },
    result: {
      pairing_id: 'pair_5c451bd08b0055fca3e6e9c13d3ed53e',
      expires_at: '2026-11-21T07:08:10.224Z',
      code_length: 6,
      message: 'Digite aqui o código de 6 dígitos mostrado na janela do Pinbridge.',
    },
  },
  'session.confirmPairing': {
    params: { pairing_id: 'pair_5c451bd08b0055fca3e6e9c13d3ed53e', code: '894966' },
    result: {
      client_id: 'cli_54c1e0935f354485',
      name: 'Caixa 3 — Loja Centro',
      token: 'pbt_Dc_-JB45SVUev3ldo6pj6wfiYWlBt3HJLBumeiyNLCA',
    },
  },
  'session.hello': {
    params: { token: 'pbt_Dc_-JB45SVUev3ldo6pj6wfiYWlBt3HJLBumeiyNLCA' },
    result: { client_id: 'cli_54c1e0935f354485', name: 'Caixa 3 — Loja Centro', missed_results: [] },
  },
  'payment.start': {
    params: {
      reference_id: 'venda-000123',
      amount: 15990,
      payment_type: 'credit',
      installments: 3,
      description: 'Pedido 123',
    },
    result: OUTCOME_EXAMPLE,
  },
  'payment.status': {
    params: { reference_id: 'venda-000123' },
    result: { status: 'InProgress', payment_id: '09a3c2b054c750f040ec8e77e74327dc', state: 'authorizing' },
  },
  'payment.confirm': {
    params: { reference_id: 'venda-000123' },
    result: {
      ...OUTCOME_EXAMPLE,
      confirmation: 'confirmed',
      state: 'confirmed',
      finished_at: '2026-11-21T07:06:10.795Z',
    },
  },
};

/** The simulated PINPAD of the examples. */
const EXAMPLE_PINPAD = {
  serial_number: 'POS0000000000001',
  manufacturer: 'PINBRIDGE SIM',
  model: 'PBSIM-1',
  firmware: 'SIMOS 1.0',
  address: 'sim:POS0000000000001',
  connected: true,
} as const;

const EVENT_EXAMPLES: Partial<Record<EventName, JsonObject>> = {
  'payment.progress': {
    payment_id: '09a3c2b054c750f040ec8e77e74327dc',
    reference_id: 'venda-000123',
    terminal: 'POS0000000000001',
    step: 'waiting_card',
    state: 'created',
    phase: 'in_progress',
    message: 'Waiting for the card',
    cashier_message: 'Aguardando o cartão',
    at: '2026-11-21T07:06:10.348Z',
  },
  'pinpad.busy': {
    ...EXAMPLE_PINPAD,
    busy: true,
    payment_reference: 'venda-000123',
    tables: { state: 'current', version: '2611260001', acquirers: [2], error: null, cache_tampered: false },
  },
  'pinpad.tables': {
    ...EXAMPLE_PINPAD,
    busy: false,
    payment_reference: null,
    tables: { state: 'loading', version: '2612010001', acquirers: [2], error: null, cache_tampered: false },
  },
};

function requestMessage(name: MethodName, spec: MethodSpec, schemas: SchemaComponents): JsonObject {
  const example = METHOD_EXAMPLES[name]?.params;
  return {
    name: requestMessageName(name),
    title: `${name} request`,
    summary: spec.summary,
    ...(spec.description === undefined ? {} : { description: spec.description }),
    contentType: 'application/json',
    correlationId: CORRELATION,
    tags: [{ name: spec.tag }],
    payload: {
      type: 'object',
      required: ['jsonrpc', 'id', 'method', ...(paramsRequired(spec.params) ? ['params'] : [])],
      properties: {
        jsonrpc: JSONRPC,
        id: REQUEST_ID_REF,
        method: { type: 'string', const: name },
        params: schemas.use(spec.params),
      },
      additionalProperties: false,
    },
    ...(example === undefined
      ? {}
      : { examples: [{ name: 'example', payload: { jsonrpc: '2.0', id: 1, method: name, params: example } }] }),
  };
}

function resultMessage(name: MethodName, spec: MethodSpec, schemas: SchemaComponents): JsonObject {
  const example = METHOD_EXAMPLES[name]?.result;
  return {
    name: resultMessageName(name),
    title: `${name} result`,
    summary: `The successful answer of ${name}.`,
    contentType: 'application/json',
    correlationId: CORRELATION,
    tags: [{ name: spec.tag }],
    payload: {
      type: 'object',
      required: ['jsonrpc', 'id', 'result'],
      properties: { jsonrpc: JSONRPC, id: REQUEST_ID_REF, result: schemas.use(spec.result) },
      additionalProperties: false,
    },
    ...(example === undefined
      ? {}
      : { examples: [{ name: 'example', payload: { jsonrpc: '2.0', id: 1, result: example } }] }),
  };
}

function notificationMessage(name: EventName, schemas: SchemaComponents): JsonObject {
  const spec = EVENTS[name];
  const example = EVENT_EXAMPLES[name];
  return {
    name: notificationMessageName(name),
    title: `${name} notification`,
    summary: spec.summary,
    description: AUDIENCE[spec.audience],
    contentType: 'application/json',
    tags: [{ name: 'events' }],
    payload: {
      type: 'object',
      required: ['jsonrpc', 'method', 'params'],
      properties: { jsonrpc: JSONRPC, method: { type: 'string', const: name }, params: schemas.use(spec.payload) },
      additionalProperties: false,
    },
    'x-audience': spec.audience,
    ...(example === undefined
      ? {}
      : { examples: [{ name: 'example', payload: { jsonrpc: '2.0', method: name, params: example } }] }),
  };
}

const messageRef = (name: string): JsonObject => ({ $ref: `#/channels/${CHANNEL}/messages/${name}` });

/** Builds the AsyncAPI 3.0 document of the POS API. */
export function posAsyncApi(options: PosAsyncApiOptions = {}): PosAsyncApiDocument {
  const schemas = new SchemaComponents();
  const messages: Record<string, JsonObject> = {};
  const operations: Record<string, JsonObject> = {};
  const addMessage = (name: string, message: JsonObject): void => {
    if (Object.hasOwn(messages, name)) throw new Error(`Two messages are named "${name}"`);
    messages[name] = message;
  };
  const addOperation = (name: string, operation: JsonObject): void => {
    if (Object.hasOwn(operations, name)) throw new Error(`Two operations are named "${name}"`);
    operations[name] = operation;
  };

  // ErrorData first, so the error message's reference has its component whatever the methods use.
  schemas.use(ErrorData);
  addMessage(ERROR_MESSAGE, errorMessage());

  for (const name of Object.keys(METHODS) as MethodName[]) {
    const spec: MethodSpec = METHODS[name];
    addMessage(requestMessageName(name), requestMessage(name, spec, schemas));
    addMessage(resultMessageName(name), resultMessage(name, spec, schemas));
    addOperation(name, {
      action: 'send',
      channel: CHANNEL_REF,
      title: name,
      summary: spec.summary,
      ...(spec.description === undefined ? {} : { description: spec.description }),
      tags: [{ name: spec.tag }],
      messages: [messageRef(requestMessageName(name))],
      reply: { channel: CHANNEL_REF, messages: [messageRef(resultMessageName(name)), messageRef(ERROR_MESSAGE)] },
      'x-access': spec.access,
      'x-cost': spec.cost,
    });
  }
  for (const name of Object.keys(EVENTS) as EventName[]) {
    const spec = EVENTS[name];
    addMessage(notificationMessageName(name), notificationMessage(name, schemas));
    addOperation(name, {
      action: 'receive',
      channel: CHANNEL_REF,
      title: name,
      summary: spec.summary,
      description: AUDIENCE[spec.audience],
      tags: [{ name: 'events' }],
      messages: [messageRef(notificationMessageName(name))],
      'x-audience': spec.audience,
    });
  }

  const [port, ...fallbackPorts] = DEFAULT_PORTS;
  const server = (protocol: 'ws' | 'wss', description: string): JsonObject => ({
    host: `127.0.0.1:${port}`,
    pathname: WS_PATH,
    protocol,
    description,
    'x-fallback-ports': [...fallbackPorts],
  });

  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Pinbridge POS API',
      version: options.version ?? VERSION,
      description: infoDescription(),
      tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
      'x-protocol-version': PROTOCOL_VERSION,
    },
    defaultContentType: 'application/json',
    servers: {
      local: server(
        'ws',
        `The agent on this computer, loopback only. When port ${port} is taken it listens on the next free one of ${fallbackPorts.join(', ')} ` +
          '(settings `pos.ports` changes the list); localhost and [::1] work too.',
      ),
      'local-tls': server(
        'wss',
        'The same, when the settings `pos.tls` name a certificate and its key: then only wss:// (and https:// for the demo page).',
      ),
    },
    channels: {
      [CHANNEL]: {
        title: 'The POS connection',
        description:
          `The one WebSocket connection at the server's pathname (${WS_PATH}): every request, reply and notification travels on it. ` +
          "A browser's Origin is checked when it opens (close 4001/4003); a Host other than this agent's is refused (HTTP 403).",
        messages: Object.fromEntries(
          Object.keys(messages).map((name) => [name, { $ref: `#/components/messages/${name}` }]),
        ),
        bindings: {
          ws: {
            method: 'GET',
            headers: {
              type: 'object',
              properties: {
                Host: {
                  type: 'string',
                  description:
                    '127.0.0.1, localhost or [::1] with the port; anything else is refused with 403 HOST_NOT_ALLOWED.',
                },
                Origin: {
                  type: 'string',
                  description:
                    'Sent by browsers: an http(s) origin, which pairing binds the client token to. Programs send none.',
                },
              },
            },
            bindingVersion: '0.1.0',
          },
        },
      },
    },
    operations,
    components: {
      schemas: {
        RequestId: {
          title: 'RequestId',
          description:
            'The JSON-RPC id of a request, echoed by its reply. null is allowed (JSON-RPC 2.0 discourages it): the reply then has id null too, like an answer to a message whose id could not be read.',
          anyOf: [{ type: 'string', maxLength: 200 }, { type: 'number' }, { type: 'null' }],
        },
        ...schemas.schemas,
      },
      messages,
      correlationIds: {
        requestId: { description: 'A reply carries the id of its request.', location: '$message.payload#/id' },
      },
    },
    'x-close-codes': Object.fromEntries(Object.entries(CLOSE_CODES)),
    'x-upgrade-refusals': Object.fromEntries(Object.entries(UPGRADE_REFUSALS)),
    'x-limits': {
      max_message_bytes: MAX_MESSAGE_BYTES,
      max_requests_in_flight: MAX_IN_FLIGHT,
      rate_limit: { capacity: DEFAULT_RATE_LIMIT.capacity, refill_per_second: DEFAULT_RATE_LIMIT.refillPerSecond },
    },
  };
}
