/**
 * What every POS API method is described by (MethodSpec), and the schema pieces several features'
 * methods share. The methods themselves are described feature by feature in methods/<feature>.ts
 * and assembled in methods.ts.
 */
import { Type, type TSchema } from 'typebox';
import { REFERENCE_ID_MAX } from '../../contract/index.js';

export type MethodAccess = 'public' | 'client' | 'operator';

/**
 * How long a caller waits for a method's answer: `request`, an ordinary request's time; `customer`,
 * as long as the person at the PINPAD has — the customer's `timeout_s`, or the supervisor's 60 s
 * to type a PIN on it (`supervisor_entry: "pinpad"`), 60 s by default — and a margin;
 * `outcome`, until what it started ends (a sale: however long the customer takes), no timeout.
 * The client package reads it from its generated protocol (METHOD_WAITS).
 */
export type MethodWaits = 'request' | 'customer' | 'outcome';

export interface MethodSpec<P extends TSchema = TSchema, R extends TSchema = TSchema> {
  readonly summary: string;
  readonly description?: string;
  readonly params: P;
  readonly result: R;
  readonly access: MethodAccess;
  readonly cost: number;
  /** How long a caller waits for the answer (default `request`). */
  readonly waits?: MethodWaits;
  /** Groups the methods in the documents. */
  readonly tag: 'session' | 'agent' | 'pinpad' | 'payment' | 'receipt' | 'relay' | 'pix' | 'operator';
}

export const method = <P extends TSchema, R extends TSchema>(spec: MethodSpec<P, R>): MethodSpec<P, R> => spec;

export const NoParams = Type.Object({}, { additionalProperties: false });

export const Empty = Type.Object({}, { additionalProperties: false });

export const Terminal = Type.Optional(
  Type.String({
    minLength: 1,
    maxLength: 64,
    description: 'Serial number of the PINPAD; needed only when several are connected.',
  }),
);

export const Reference = Type.Object(
  {
    reference_id: Type.String({ minLength: 1, maxLength: REFERENCE_ID_MAX, description: "The POS's id of the sale." }),
  },
  { additionalProperties: false },
);

export const Seconds = Type.Optional(
  Type.Integer({ minimum: 1, maximum: 255, description: 'How long the customer has, in seconds (default 60).' }),
);
