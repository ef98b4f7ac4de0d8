/**
 * Every method of the POS API, once: its parameters and result as TypeBox schemas, who may call
 * it, and its documentation. The server validates with these schemas, the client's types are
 * their `Static`, and `asyncapi.ts` publishes them — one source, three uses.
 *
 * `access`: "public" methods work before `session.hello` (to find the agent, pair and log in);
 * "client" methods need an authenticated session (a paired POS, or the window); "operator"
 * methods are the cashier's window's alone (`session.operator` with the agent's key): pairing
 * codes, paired clients. `cost` is what a call takes from the
 * client's rate budget (see server/rate-limit.ts): cheap reads 1, anything that moves the PINPAD
 * or money more.
 */
import type { Static } from 'typebox';
import { SESSION_METHODS } from './methods/session.js';
import { OPERATOR_METHODS } from './methods/operator.js';
import { AGENT_METHODS } from './methods/agent.js';
import { PINPAD_METHODS } from './methods/pinpad.js';
import { PAYMENT_METHODS } from './methods/payment.js';
import { RECEIPT_METHODS } from './methods/receipt.js';
import { RELAY_METHODS } from './methods/relay.js';
import { PIX_METHODS } from './methods/pix.js';
import { PaymentState } from './models.js';

export type { MethodAccess, MethodSpec } from './method-spec.js';
export { CUSTOMER_DATA_FOR_POS, PINPAD_KEYS, type CustomerDataForPos } from './methods/pinpad.js';
export { RECEIPT_FORMATS_FOR_POS } from './methods/receipt.js';

/**
 * Every method, feature by feature: each feature's methods are described in methods/<feature>.ts
 * (its handlers, main/pos/server/handlers/<feature>.ts, import their types from here, never the
 * reverse).
 * The order is the documents' (docs/pos-asyncapi.json, client/protocol.ts): keep it.
 */
export const METHODS = {
  ...SESSION_METHODS,
  ...OPERATOR_METHODS,
  ...AGENT_METHODS,
  ...PINPAD_METHODS,
  ...PAYMENT_METHODS,
  ...RECEIPT_METHODS,
  ...RELAY_METHODS,
  ...PIX_METHODS,
} as const;

export type MethodName = keyof typeof METHODS;
export const METHOD_NAMES = Object.keys(METHODS) as MethodName[];
export type ParamsOf<M extends MethodName> = Static<(typeof METHODS)[M]['params']>;
export type ResultOf<M extends MethodName> = Static<(typeof METHODS)[M]['result']>;

export { PaymentState };
