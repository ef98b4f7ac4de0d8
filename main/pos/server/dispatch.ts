/**
 * One incoming message, from raw bytes to an answer: JSON, the JSON-RPC 2.0 envelope, the rate
 * budget, the method, whether the session may call it, its parameters against the method's
 * schema, the handler, and the handler's error turned into the API's. Every refusal is an answer
 * on a healthy connection — only the size limit (ws) and the agent's own policies close one.
 *
 * It runs on every request, so it is written for the common case: a request whose handler answers
 * at once (a status, a list) is answered before `handle` returns, with no promise in between; the
 * call context is made once per session; nothing is logged unless refused (and refusals are
 * counted: refusals.ts). Each stage can be timed (stage-clock.ts) for the benchmark.
 */
import type { Logger } from 'pino';
import { schemaViolations } from '../../contract/index.js';
import {
  METHODS,
  PosError,
  type MethodName,
  type PairingAnnouncement,
  type ParamsOf,
  type RequestId,
  type ResultOf,
} from '../protocol/index.js';
import type { PosAgent } from './agent.js';
import { cardDataIn } from '../../../drivers/card-number.js';
import { findPosCardData, type PosCardDataOptions } from './card-data-guard.js';
import { errorObject, paramsViolation, toPosError } from './errors.js';
import type { Hub } from './hub.js';
import type { RefusalReason } from './refusals.js';
import type { Session } from './session.js';
import type { RequestLaps, StageClock } from './stage-clock.js';

export interface CallContext {
  readonly session: Session;
  readonly agent: PosAgent;
  readonly hub: Hub;
  readonly log: Logger;
  /** Shows a pairing code to the cashier; `session` asked for it (and may wait for it). */
  readonly announcePairing: (pairing: PairingAnnouncement, session: Session) => void;
  /** Counts a refusal for the log's summary (refusals.ts) rather than logging it alone. */
  readonly refused: (reason: RefusalReason, session: Session) => void;
  /** The key of session.operator; undefined: this agent has no window, nobody is the operator. */
  readonly operatorKey: string | undefined;
  /** The origins of pages the agent itself serves (the window's), normalized. */
  readonly ownOrigins: ReadonlySet<string>;
}

export type Handler<M extends MethodName> = (
  params: ParamsOf<M>,
  context: CallContext,
) => Promise<ResultOf<M>> | ResultOf<M>;
export type Handlers<K extends MethodName = MethodName> = { readonly [M in K]: Handler<M> };

/** Requests one session may have unanswered at once (payment.start waits long; a flood should not pile up). */
export const MAX_IN_FLIGHT = 32;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
/** JSON-RPC 2.0 allows a null id (discouraged, but a request all the same): it is answered with id null. */
const isId = (value: unknown): value is RequestId =>
  value === null ||
  (typeof value === 'string' && value.length <= 200) ||
  (typeof value === 'number' && Number.isFinite(value));

/** The sentence for params sent by position: the schema validator's own ("Body must be of type object") means nothing to a POS. */
export const POSITIONAL_PARAMS =
  'params must be an object with named members (e.g. {"reference_id": "…"}), not an array: this API has no positional parameters.';

/** What a request is answered with, before it is written as JSON text. */
type Answer =
  | { readonly id: RequestId; readonly result: unknown; readonly error?: undefined }
  | { readonly id: RequestId | null; readonly error: PosError };

const failure = (id: RequestId | null, error: PosError): Answer => ({ id, error });

/** The refusals that a flood produces by the thousand: counted, not logged one by one. */
const REFUSALS: Readonly<Partial<Record<string, RefusalReason>>> = {
  PARSE_ERROR: 'MALFORMED',
  INVALID_REQUEST: 'MALFORMED',
  METHOD_NOT_FOUND: 'MALFORMED',
  RATE_LIMITED: 'RATE_LIMITED',
};

/** Whether `value` is awaited as a promise would be (a handler that is async). */
const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';

/**
 * A bug on the path (what is not a request's own failure): told to the process's fault guard
 * (agent/fault-guard.ts) as a rejected promise nobody waits for, never thrown into the socket's reader.
 */
function unhandled(error: unknown): void {
  void Promise.reject(error instanceof Error ? error : new Error(String(error)));
}

/** What a POS is told of a PINPAD busy with a sale that is not its own: that it is busy, not with which sale. */
const BUSY_WITH_ANOTHER_SALE = 'The PINPAD is busy with a payment; try again when it is free (pinpad.busy tells when).';

export class Dispatcher {
  readonly #handlers: Handlers;
  readonly #context: Omit<CallContext, 'session'>;
  /** Each session's call context, made once (not per request). */
  readonly #contexts = new WeakMap<Session, CallContext>();
  /** A `terminal` naming a PINPAD this agent has is not searched for card data (card-data-guard.ts). */
  readonly #cardDataOptions: PosCardDataOptions;
  /** Times each request's stages while set (the benchmark's breakdown: PosServer.timeStages). */
  clock: StageClock | undefined;

  constructor(handlers: Handlers, context: Omit<CallContext, 'session'>) {
    this.#handlers = handlers;
    this.#context = context;
    this.#cardDataOptions = { knownTerminal: (serial) => context.agent.engine.terminal(serial) !== undefined };
  }

  /**
   * Answers one message on `session` (never throws). A request whose handler answers at once is
   * answered before this returns; one that waits, when it settles. Until the session's own checks
   * are done (a blocked program, room: Session.pending) its messages wait for them, in order.
   */
  handle(session: Session, data: Buffer | string, isBinary: boolean): void {
    const pending = session.pending;
    if (pending === undefined) this.#handleNow(session, data, isBinary);
    else void pending.then(() => this.#handleNow(session, data, isBinary));
  }

  #handleNow(session: Session, data: Buffer | string, isBinary: boolean): void {
    // A blocked program's connection is closed before anything it sent is read.
    if (!session.open) return;
    const laps = this.clock?.start();
    try {
      const answer = this.#answer(session, data, isBinary, laps);
      if (isThenable(answer)) {
        answer.then(
          (settled) => this.#reply(session, settled, laps),
          (error: unknown) => unhandled(error),
        );
      } else {
        this.#reply(session, answer, laps);
      }
    } catch (error) {
      unhandled(error);
    }
  }

  /** Writes the answer, counts a refusal, sends it. */
  #reply(session: Session, answer: Answer | undefined, laps: RequestLaps | undefined): void {
    if (answer === undefined) return;
    const text =
      answer.error === undefined
        ? JSON.stringify({ jsonrpc: '2.0', id: answer.id, result: answer.result })
        : JSON.stringify({ jsonrpc: '2.0', id: answer.id, error: errorObject(answer.error) });
    laps?.lap('serialise');
    const refusal = answer.error === undefined ? undefined : REFUSALS[answer.error.code];
    if (refusal !== undefined) this.#context.refused(refusal, session);
    laps?.lap('log');
    session.sendRaw(text);
    laps?.lap('send');
  }

  /** The error as `session` may see it: the reference of another POS's sale is not named (BUSY). */
  #forSession(session: Session, error: PosError): PosError {
    const reference = error.data.reference_id;
    if (error.code !== 'BUSY' || typeof reference !== 'string') return error;
    if (this.#context.hub.mayKnowReference(session, reference)) return error;
    const { reference_id: _hidden, ...data } = error.data;
    return new PosError('BUSY', BUSY_WITH_ANOTHER_SALE, data, error.cashierMessage);
  }

  #contextFor(session: Session): CallContext {
    let context = this.#contexts.get(session);
    if (context === undefined) {
      context = { ...this.#context, session };
      this.#contexts.set(session, context);
    }
    return context;
  }

  #answer(
    session: Session,
    data: Buffer | string,
    isBinary: boolean,
    laps: RequestLaps | undefined,
  ): Answer | undefined | Promise<Answer> {
    if (isBinary) return failure(null, new PosError('INVALID_REQUEST', 'Send JSON text frames, not binary ones.'));
    let message: unknown;
    try {
      message = JSON.parse(typeof data === 'string' ? data : data.toString('utf8'));
    } catch {
      return failure(null, new PosError('PARSE_ERROR'));
    }
    laps?.lap('parse');
    if (Array.isArray(message))
      return failure(null, new PosError('INVALID_REQUEST', 'Batches are not supported: send one request per message.'));
    if (!isRecord(message) || message.jsonrpc !== '2.0' || typeof message.method !== 'string') {
      return failure(isRecord(message) && isId(message.id) ? message.id : null, new PosError('INVALID_REQUEST'));
    }
    // A notification (no id) expects no answer; the API has no notification methods, so it is dropped.
    if (!('id' in message)) return undefined;
    if (!isId(message.id))
      return failure(
        null,
        new PosError('INVALID_REQUEST', 'The id must be a string (≤ 200 characters), a number or null.'),
      );
    const id = message.id;
    // JSON-RPC 2.0 §4.2: params, when present, is a structured value. Anything else (a string, a
    // number, null) makes the message no valid request (answered before the method is even looked up); an array is one, but not for this API.
    if ('params' in message && (typeof message.params !== 'object' || message.params === null)) {
      return failure(
        id,
        new PosError(
          'INVALID_REQUEST',
          'params must be an object (or left out), not a string, number, boolean or null.',
        ),
      );
    }
    const name = message.method;
    const spec = Object.hasOwn(METHODS, name) ? METHODS[name as MethodName] : undefined;
    laps?.lap('envelope');

    const wait = this.#context.hub.bucketFor(session).take(spec?.cost ?? 1);
    if (wait > 0) return failure(id, new PosError('RATE_LIMITED', undefined, { retry_after_ms: wait }));
    laps?.lap('rateLimit');
    if (spec === undefined) {
      // A name that holds card data is not repeated back.
      const shown = cardDataIn(name) === undefined ? `"${name.slice(0, 64)}"` : 'by that name';
      return failure(id, new PosError('METHOD_NOT_FOUND', `There is no method ${shown}.`));
    }
    if (spec.access === 'operator' && !session.operator) return failure(id, new PosError('OPERATOR_ONLY'));
    if (spec.access === 'client' && !session.operator) {
      const client = session.client;
      if (client === undefined) return failure(id, new PosError('UNAUTHENTICATED'));
      // Checked per request: a revocation (from the window or another process) takes effect at once.
      if (!this.#context.agent.clients.isActive(client.id)) {
        session.sendRaw(
          JSON.stringify({
            jsonrpc: '2.0',
            id,
            error: errorObject(new PosError('TOKEN_INVALID', 'This client was revoked.', { reason: 'TOKEN_REVOKED' })),
          }),
        );
        session.close('TOKEN_REVOKED');
        return undefined;
      }
    }
    laps?.lap('auth');
    if (Array.isArray(message.params)) {
      return failure(
        id,
        new PosError('INVALID_PARAMS', POSITIONAL_PARAMS, { violations: [{ field: '', message: POSITIONAL_PARAMS }] }),
      );
    }
    const params = message.params ?? {};
    // Before anything is stored, logged or sent on — and before the schema, whose messages name
    // unexpected keys: a POS never sends card data (card-data-guard.ts).
    const cardData = session.operator ? undefined : findPosCardData(params, this.#cardDataOptions);
    if (cardData !== undefined) {
      this.#context.log.warn(
        { method: name, field: cardData.field, kind: cardData.kind },
        'request refused: a parameter looks like card data',
      );
      const what = cardData.kind === 'track' ? 'a magnetic track' : 'a card number';
      // A number split between fields is named by all of them ("reference_id + description").
      const fields = cardData.field.split(' + ').map((field) => `params.${field}`);
      const subject = fields.length === 1 ? `${fields[0]} looks` : `${fields.join(' and ')} together look`;
      return failure(
        id,
        new PosError(
          'CARD_DATA_REFUSED',
          `${subject} like ${what}; card data must never be sent to Pinbridge (the PINPAD reads the card).`,
          {
            reason: cardData.kind === 'track' ? 'TRACK' : 'CARD_NUMBER',
            violations: [{ field: cardData.field, message: `looks like ${what}` }],
          },
        ),
      );
    }
    laps?.lap('cardData');
    const violations = schemaViolations(spec.params, params).map(paramsViolation);
    if (violations.length > 0) {
      return failure(id, new PosError('INVALID_PARAMS', violations.map((v) => v.message).join('; '), { violations }));
    }
    laps?.lap('validate');
    if (session.inFlight >= MAX_IN_FLIGHT) {
      return failure(
        id,
        new PosError('RATE_LIMITED', `At most ${MAX_IN_FLIGHT} requests may wait for an answer at once.`, {
          retry_after_ms: 100,
        }),
      );
    }
    const handler = this.#handlers[name as MethodName] as Handler<MethodName>;
    session.inFlight++;
    let result: unknown;
    try {
      result = handler(params, this.#contextFor(session));
    } catch (error) {
      session.inFlight--;
      return this.#failed(session, id, name, error, laps);
    }
    if (!isThenable(result)) {
      session.inFlight--;
      laps?.lap('handler');
      return { id, result };
    }
    // An async handler: answered when it settles (and counted in flight until then).
    return Promise.resolve(result).then(
      (settled): Answer => {
        session.inFlight--;
        laps?.lap('handler');
        return { id, result: settled };
      },
      (error: unknown): Answer => {
        session.inFlight--;
        return this.#failed(session, id, name, error, laps);
      },
    );
  }

  /** A handler's error as the POS sees it; one the API does not know is logged, and INTERNAL_ERROR. */
  #failed(session: Session, id: RequestId, method: string, error: unknown, laps: RequestLaps | undefined): Answer {
    laps?.lap('handler');
    const known = toPosError(error);
    if (known !== null) return failure(id, this.#forSession(session, known));
    this.#context.log.error(
      { method, err: error instanceof Error ? error.message : String(error) },
      'POS request failed',
    );
    return failure(id, new PosError('INTERNAL_ERROR'));
  }
}
