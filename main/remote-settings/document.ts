/**
 * The signed settings document (docs/remote-settings.md, Format): an envelope
 * `{"payload": base64, "signature": base64}` whose signature is Ed25519 over exactly the payload's
 * bytes (so no JSON canonicalisation is needed: the bytes signed are the bytes read), and a payload
 * `{"format": "pinbridge-remote-settings/1", "version", "scope", "issued_at", "expires_at"?, "settings"}`.
 * Verified with node:crypto against the key pinned at install.
 */
import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { RemoteDocumentRefused } from './refusal.js';

export const DOCUMENT_FORMAT = 'pinbridge-remote-settings/1';
/** A document larger than this is not read (a settings file is a few KiB). */
export const MAX_DOCUMENT_BYTES = 256 * 1024;

export interface Scope {
  readonly chain: string;
  readonly store?: string;
  readonly checkout?: string;
}

export interface RemotePayload {
  readonly format: typeof DOCUMENT_FORMAT;
  /** Positive integer; each new document of a scope has a higher one. */
  readonly version: number;
  readonly scope: Scope;
  readonly issued_at: string;
  readonly expires_at?: string;
  /** A partial settings file, deep-merged over the checkout's own (main/remote-settings/merge.ts). */
  readonly settings: Record<string, unknown>;
}

export interface Envelope {
  readonly payload: string;
  readonly signature: string;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The public key of a pinned file's text: PEM (SPKI) or the raw 32 bytes in base64. */
export function publicKeyOf(text: string): KeyObject {
  const trimmed = text.trim();
  const key = trimmed.startsWith('-----BEGIN')
    ? createPublicKey(trimmed)
    : BASE64.test(trimmed) && Buffer.from(trimmed, 'base64').length === 32
      ? createPublicKey({
          key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(trimmed, 'base64').toString('base64url') },
          format: 'jwk',
        })
      : undefined;
  if (key?.asymmetricKeyType !== 'ed25519')
    throw new Error('not an Ed25519 public key (PEM "BEGIN PUBLIC KEY", or its 32 bytes in base64)');
  return key;
}

/** Signs a payload's bytes as they are: the envelope a chain serves. */
export function signPayload(payloadBytes: Buffer, privateKeyPem: string): Envelope {
  const key = createPrivateKey(privateKeyPem);
  if (key.asymmetricKeyType !== 'ed25519') throw new Error('the private key is not an Ed25519 key');
  return {
    payload: payloadBytes.toString('base64'),
    signature: sign(null, payloadBytes, key).toString('base64'),
  };
}

function refused(code: 'MALFORMED' | 'UNKNOWN_FORMAT', message: string, version: number | null = null): never {
  throw new RemoteDocumentRefused(code, message, version);
}

/** The payload's shape checked field by field (its settings are checked later, merged over the local file). */
export function checkPayload(json: unknown): RemotePayload {
  if (!isObject(json)) return refused('MALFORMED', 'the payload is not a JSON object');
  if (json.format !== DOCUMENT_FORMAT)
    return refused(
      'UNKNOWN_FORMAT',
      `the payload's format is ${JSON.stringify(json.format)}, not "${DOCUMENT_FORMAT}"`,
    );
  const version = json.version;
  if (typeof version !== 'number' || !Number.isSafeInteger(version) || version < 1)
    return refused('MALFORMED', "the payload's version must be a positive integer");
  const scope = json.scope;
  const id = (value: unknown): boolean => value === undefined || (typeof value === 'string' && value.length > 0);
  if (
    !isObject(scope) ||
    typeof scope.chain !== 'string' ||
    scope.chain === '' ||
    !id(scope.store) ||
    !id(scope.checkout)
  )
    return refused(
      'MALFORMED',
      "the payload's scope must name its chain (and may name a store and a checkout)",
      version,
    );
  if (scope.checkout !== undefined && scope.store === undefined)
    return refused('MALFORMED', 'a scope that names a checkout must name its store', version);
  const date = (value: unknown): boolean => typeof value === 'string' && !Number.isNaN(Date.parse(value));
  if (!date(json.issued_at)) return refused('MALFORMED', "the payload's issued_at must be an ISO 8601 date", version);
  if (json.expires_at !== undefined && !date(json.expires_at))
    return refused('MALFORMED', "the payload's expires_at must be an ISO 8601 date", version);
  if (!isObject(json.settings)) return refused('MALFORMED', "the payload's settings must be a JSON object", version);
  return json as unknown as RemotePayload;
}

/**
 * The payload of an envelope whose signature verifies with `key`: the envelope's text as served,
 * refused with MALFORMED (not an envelope), TAMPERED (the signature does not verify) or the
 * payload's own problems.
 */
export function openEnvelope(text: string, key: KeyObject): { payload: RemotePayload; bytes: Buffer } {
  let envelope: unknown;
  try {
    envelope = JSON.parse(text);
  } catch {
    return refused('MALFORMED', 'the document is not JSON');
  }
  if (
    !isObject(envelope) ||
    typeof envelope.payload !== 'string' ||
    typeof envelope.signature !== 'string' ||
    !BASE64.test(envelope.payload) ||
    !BASE64.test(envelope.signature)
  )
    return refused('MALFORMED', 'the document is not an envelope {"payload": base64, "signature": base64}');
  const bytes = Buffer.from(envelope.payload, 'base64');
  const signature = Buffer.from(envelope.signature, 'base64');
  // Verified before the payload is even parsed: nothing unsigned is looked at.
  if (signature.length !== 64 || !verify(null, bytes, key, signature))
    throw new RemoteDocumentRefused(
      'TAMPERED',
      'the signature does not verify with the pinned key: the document was changed after it was signed, or signed with another key',
    );
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    return refused('MALFORMED', 'the signed payload is not JSON');
  }
  return { payload: checkPayload(json), bytes };
}
