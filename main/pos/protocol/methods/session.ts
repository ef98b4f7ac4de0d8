/**
 * The POS API's session methods (handlers in main/pos/server/handlers/session.ts): finding the
 * agent, pairing a POS and logging in (`session.hello`).
 * Assembled with the others into METHODS by ../methods.ts (see there for `access` and `cost`).
 */
import { Type } from 'typebox';
import { PaymentOutcome } from '../models.js';
import { method, NoParams } from '../method-spec.js';

export const SESSION_METHODS = {
  'agent.info': method({
    tag: 'agent',
    access: 'public',
    cost: 1,
    summary: 'Who answers: Pinbridge, its version, the protocol, the mode; the lists of methods and events.',
    description: 'Works before pairing: a page uses it to tell "Pinbridge is running" from "not installed".',
    params: NoParams,
    result: Type.Object(
      {
        name: Type.Literal('Pinbridge'),
        version: Type.String(),
        protocol: Type.Integer({ description: 'The POS API version; additions keep it, breaking changes raise it.' }),
        mode: Type.Union([Type.Literal('training'), Type.Literal('live')]),
        authenticated: Type.Boolean({ description: 'Whether this session said hello with a valid token.' }),
        methods: Type.Array(Type.String()),
        events: Type.Array(Type.String()),
      },
      { additionalProperties: false },
    ),
  }),
  'session.pair': method({
    tag: 'session',
    access: 'public',
    cost: 20,
    summary:
      'Asks to pair this POS. Pinbridge shows a 6-digit code to the cashier; send it back with session.confirmPairing.',
    description:
      "The origin is the page's (from the WebSocket upgrade), never a parameter. Codes live 2 minutes and allow 3 attempts. " +
      'One request waits per connection and per program (and origin): asking again withdraws the previous request (PAIRING_INVALID, reason PAIRING_WITHDRAWN, for its code). ' +
      'Blocked origins get ORIGIN_BLOCKED; a program with 3 requests waiting, or a full list, RATE_LIMITED.',
    params: Type.Object(
      {
        name: Type.String({
          minLength: 1,
          maxLength: 64,
          description: 'How the cashier will see this POS ("Caixa 3 — Loja Centro").',
        }),
      },
      { additionalProperties: false },
    ),
    result: Type.Object(
      {
        pairing_id: Type.String(),
        expires_at: Type.String(),
        code_length: Type.Integer(),
        message: Type.String({ description: 'pt-BR, to show the cashier: where to read the code.' }),
      },
      { additionalProperties: false },
    ),
  }),
  'session.confirmPairing': method({
    tag: 'session',
    access: 'public',
    cost: 20,
    summary: 'Sends back the code the cashier read; returns the long-lived client token and logs this session in.',
    description: 'Keep the token (it is shown only once). A replayed code is PAIRING_INVALID (reason PAIRING_USED).',
    params: Type.Object(
      {
        pairing_id: Type.String({ minLength: 1, maxLength: 64 }),
        code: Type.String({
          minLength: 1,
          maxLength: 64,
          description:
            'The 6 digits, as the cashier typed them: the spaces, hyphens or dots a person adds ("422 105", "422-105") and full-width digits are read past.',
        }),
      },
      { additionalProperties: false },
    ),
    result: Type.Object(
      {
        client_id: Type.String(),
        name: Type.String(),
        token: Type.String({ description: 'Send it in session.hello on every connection.' }),
      },
      { additionalProperties: false },
    ),
  }),
  'session.hello': method({
    tag: 'session',
    access: 'public',
    cost: 5,
    summary: 'Logs the session in with the client token; returns the results of payments that ended while it was away.',
    params: Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false }),
    result: Type.Object(
      {
        client_id: Type.String(),
        name: Type.String(),
        missed_results: Type.Array(PaymentOutcome, {
          description: 'Final results of this client’s payments that ended while no session of it was connected.',
        }),
      },
      { additionalProperties: false },
    ),
  }),
} as const;
