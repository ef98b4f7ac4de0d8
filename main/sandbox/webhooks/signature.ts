/**
 * Webhook signatures, Standard Webhooks style (spec: github.com/standard-webhooks/standard-webhooks,
 * `spec/standard-webhooks.md`, "Signature scheme" and "Webhook headers"):
 *
 * - the secret is shown as `whsec_` + base64 of random bytes (the spec asks for at least 24); the HMAC
 *   key is the base64-decoded part after the prefix;
 * - the signed content is `{webhook-id}.{webhook-timestamp}.{raw body}`, the timestamp in integer
 *   Unix seconds;
 * - `webhook-signature` is a space-delimited list of `v1,<base64 HMAC-SHA256>` entries (several
 *   during a secret rotation); one match is enough;
 * - receivers reject timestamps too far from their clock (the reference libraries allow 5 minutes)
 *   to stop replays, and compare in constant time.
 *
 * The sandbox signs with it; a receiver (the tests, a POS back end) verifies with it.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { WEBHOOK_HEADERS } from '../../contract/index.js';

export const WEBHOOK_SECRET_PREFIX = 'whsec_';
/** Bytes of a new secret: the spec's minimum for symmetric keys. */
const SECRET_BYTES = 24;
const SIGNATURE_VERSION = 'v1';

export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

/** A new signing secret: "whsec_" + base64 of 24 random bytes. */
export function newWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;
}

/** The HMAC key of a secret; the `whsec_` prefix is optional, as in the reference libraries. */
function secretKey(secret: string): Buffer {
  const encoded = secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret;
  const key = Buffer.from(encoded, 'base64');
  if (key.length === 0) throw new WebhookVerificationError('Webhook secret is empty or not base64');
  return key;
}

const toSeconds = (timestamp: number | Date): number =>
  timestamp instanceof Date ? Math.floor(timestamp.getTime() / 1000) : Math.floor(timestamp);

export interface SignWebhookInput {
  /** "whsec_…" (or the bare base64 key). */
  readonly secret: string;
  /** The message id (our event id, sent as `webhook-id`). */
  readonly id: string;
  /** Unix seconds, or a Date (truncated to seconds). */
  readonly timestamp: number | Date;
  /** The exact bytes sent as the body. */
  readonly body: string | Uint8Array;
}

/** The `webhook-signature` value for one secret: "v1," + base64(HMAC-SHA256(key, "id.timestamp.body")). */
export function signWebhook({ secret, id, timestamp, body }: SignWebhookInput): string {
  const hmac = createHmac('sha256', secretKey(secret));
  hmac.update(`${id}.${toSeconds(timestamp)}.`);
  hmac.update(body);
  return `${SIGNATURE_VERSION},${hmac.digest('base64')}`;
}

/** Node's IncomingHttpHeaders, a plain record, or a fetch `Headers`. */
export type WebhookHeaders = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : headers[key];
  return typeof value === 'string' ? value : value?.join(' ');
}

export interface VerifyWebhookInput {
  readonly secret: string;
  readonly headers: WebhookHeaders;
  /** The raw body as received (not parsed and re-serialized JSON: a stray space breaks the signature). */
  readonly body: string | Uint8Array;
  /** How far the timestamp may be from `now`, either way (default 300 s). */
  readonly toleranceSeconds?: number;
  readonly now?: Date;
}

/**
 * Checks a delivery's headers and body against the secret. Returns true when authentic; otherwise
 * throws WebhookVerificationError saying which check failed.
 */
export function verifyWebhook({
  secret,
  headers,
  body,
  toleranceSeconds = 300,
  now = new Date(),
}: VerifyWebhookInput): true {
  const id = header(headers, WEBHOOK_HEADERS.id);
  const timestampText = header(headers, WEBHOOK_HEADERS.timestamp);
  const signatures = header(headers, WEBHOOK_HEADERS.signature);
  if (!id) throw new WebhookVerificationError(`Missing ${WEBHOOK_HEADERS.id} header`);
  if (!timestampText) throw new WebhookVerificationError(`Missing ${WEBHOOK_HEADERS.timestamp} header`);
  if (!signatures) throw new WebhookVerificationError(`Missing ${WEBHOOK_HEADERS.signature} header`);

  if (!/^[0-9]{1,12}$/.test(timestampText)) {
    throw new WebhookVerificationError(`${WEBHOOK_HEADERS.timestamp} must be integer Unix seconds: ${timestampText}`);
  }
  const timestamp = Number(timestampText);
  const nowSeconds = toSeconds(now);
  if (nowSeconds - timestamp > toleranceSeconds) {
    throw new WebhookVerificationError(
      `Timestamp too old: ${nowSeconds - timestamp} s before now (tolerance ${toleranceSeconds} s)`,
    );
  }
  if (timestamp - nowSeconds > toleranceSeconds) {
    throw new WebhookVerificationError(
      `Timestamp too new: ${timestamp - nowSeconds} s after now (tolerance ${toleranceSeconds} s)`,
    );
  }

  const expected = Buffer.from(signWebhook({ secret, id, timestamp, body }));
  const matched = signatures
    .split(' ')
    .filter((entry) => entry.startsWith(`${SIGNATURE_VERSION},`))
    .some((entry) => {
      const candidate = Buffer.from(entry);
      return candidate.length === expected.length && timingSafeEqual(candidate, expected);
    });
  if (!matched)
    throw new WebhookVerificationError('No matching signature: wrong secret, or the body, id or timestamp was changed');
  return true;
}
