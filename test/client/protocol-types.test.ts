/**
 * The client package carries the POS API's types written out (client/protocol.ts, generated from
 * the TypeBox schemas) and copies of the protocol's constants, so it needs nothing outside
 * client/. Both must stay the protocol's: the file must be what the generator writes today, and
 * — checked by the type checker (`npm run typecheck`) — every method's params and result, every
 * event's payload, the error data and the copied constants must be exactly the protocol's types.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type * as client from '../../client/index.js';
import type { Events, Methods } from '../../client/protocol.js';
import type * as clientConstants from '../../client/constants.js';
import type * as protocol from '../../main/pos/protocol/index.js';
import { CLIENT_PROTOCOL_FILE, clientProtocolSource } from '../../scripts/client-protocol.js';

/** Exact type equality (not mere assignability), so extra, missing or optional-vs-required keys fail too. */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** The methods whose params or result differ between the client and the protocol (never: none). */
type MismatchedMethods = {
  [M in protocol.MethodName]: M extends keyof Methods
    ? Same<Methods[M]['params'], protocol.ParamsOf<M>> extends true
      ? Same<Methods[M]['result'], protocol.ResultOf<M>> extends true
        ? never
        : M
      : M
    : M;
}[protocol.MethodName];

type MismatchedEvents = {
  [E in protocol.EventName]: E extends keyof Events
    ? Same<Events[E], protocol.EventPayload<E>> extends true
      ? never
      : E
    : E;
}[protocol.EventName];

// Each line fails to compile (naming the culprits) the day the client's copy drifts.
const methodNames: Same<client.MethodName, protocol.MethodName> = true;
const eventNames: Same<client.EventName, protocol.EventName> = true;
const methods: [MismatchedMethods] extends [never] ? true : MismatchedMethods = true;
const events: [MismatchedEvents] extends [never] ? true : MismatchedEvents = true;
const errorData: Same<client.ErrorData, protocol.ErrorData> = true;
const errorCodes: Same<client.PosErrorCode, protocol.PosErrorCode> = true;
const outcome: Same<client.PaymentOutcome, protocol.PaymentOutcome> = true;
const progress: Same<client.PaymentProgress, protocol.PaymentProgress> = true;
const wsPath: Same<typeof clientConstants.WS_PATH, typeof protocol.WS_PATH> = true;
const defaultPorts: Same<typeof clientConstants.DEFAULT_PORTS, typeof protocol.DEFAULT_PORTS> = true;
const closeCodes: Same<typeof clientConstants.CLOSE_CODES, typeof protocol.CLOSE_CODES> = true;

describe("the client's copy of the protocol's types", () => {
  it('is what scripts/client-protocol.ts writes from the schemas today (run it after changing the protocol)', () => {
    expect(readFileSync(CLIENT_PROTOCOL_FILE, 'utf8')).toBe(clientProtocolSource());
  });

  it('equals the protocol, type for type (checked when this file compiles)', () => {
    expect([
      methodNames,
      eventNames,
      methods,
      events,
      errorData,
      errorCodes,
      outcome,
      progress,
      wsPath,
      defaultPorts,
      closeCodes,
    ]).not.toContain(false);
  });
});
