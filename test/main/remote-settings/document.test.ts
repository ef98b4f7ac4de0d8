/**
 * The envelope: Ed25519 over exactly the payload's bytes, verified with the pinned key before the
 * payload is read; whatever was changed after signing, or signed with another key, is TAMPERED.
 */
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  checkPayload,
  DOCUMENT_FORMAT,
  openEnvelope,
  publicKeyOf,
  signPayload,
} from '../../../main/remote-settings/document.js';
import { generateKeyPair } from '../../../main/remote-settings/keys.js';
import { RemoteDocumentRefused } from '../../../main/remote-settings/refusal.js';
import { signedDocument, tamperedDocument } from '../../helpers/remote-settings.js';

const keys = generateKeyPair();
const pinned = publicKeyOf(keys.publicKey);

function refusalOf(run: () => unknown): { code: string; message: string; version: number | null } {
  try {
    run();
  } catch (error) {
    if (error instanceof RemoteDocumentRefused)
      return { code: error.code, message: error.message, version: error.version };
    throw error;
  }
  throw new Error('not refused');
}

describe('a signed document', () => {
  it('opens with the pinned key, giving the payload the chain signed', () => {
    const text = signedDocument(keys, { version: 4, settings: { confirmation: 'pos' } });
    const { payload } = openEnvelope(text, pinned);
    expect(payload).toMatchObject({
      format: DOCUMENT_FORMAT,
      version: 4,
      scope: { chain: 'rede-sul', store: 'loja-7' },
      settings: { confirmation: 'pos' },
    });
  });

  it('is TAMPERED when its payload changed after signing', () => {
    const text = tamperedDocument(signedDocument(keys, { version: 4, settings: {} }), { training: true });
    expect(refusalOf(() => openEnvelope(text, pinned))).toMatchObject({ code: 'TAMPERED', version: null });
  });

  it('is TAMPERED when signed with another key than the pinned one', () => {
    const other = generateKeyPair();
    expect(refusalOf(() => openEnvelope(signedDocument(other, { version: 1, settings: {} }), pinned)).code).toBe(
      'TAMPERED',
    );
  });

  it('is MALFORMED when it is not an envelope of base64 payload and signature', () => {
    for (const text of ['not json', '{}', '{"payload": "%%", "signature": "AA=="}', '[1]'])
      expect(refusalOf(() => openEnvelope(text, pinned)).code).toBe('MALFORMED');
  });

  it('takes the pinned key as PEM or as its 32 bytes in base64, and nothing else', () => {
    const raw = Buffer.from(
      (publicKeyOf(keys.publicKey).export({ format: 'jwk' }) as { x: string }).x,
      'base64url',
    ).toString('base64');
    const text = signedDocument(keys, { version: 1, settings: {} });
    expect(openEnvelope(text, publicKeyOf(raw)).payload.version).toBe(1);
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'pem' });
    expect(() => publicKeyOf(rsa.toString())).toThrow(/Ed25519/);
    expect(() => publicKeyOf('hello')).toThrow(/Ed25519/);
  });

  it('signs exactly the bytes given: the signature covers them, not a re-serialisation', () => {
    const bytes = Buffer.from('{"format":"pinbridge-remote-settings/1" , "version":1}');
    const envelope = signPayload(bytes, keys.privateKey);
    expect(Buffer.from(envelope.payload, 'base64').equals(bytes)).toBe(true);
  });
});

describe('the payload', () => {
  const good = {
    format: DOCUMENT_FORMAT,
    version: 2,
    scope: { chain: 'rede-sul' },
    issued_at: '2026-11-29T10:00:00Z',
    settings: {},
  };

  it('names an unknown format as such', () => {
    expect(refusalOf(() => checkPayload({ ...good, format: 'pinbridge-remote-settings/9' })).code).toBe(
      'UNKNOWN_FORMAT',
    );
  });

  it.each([
    ['a version that is not a positive integer', { version: 0 }],
    ['a fractional version', { version: 1.5 }],
    ['a scope without its chain', { scope: { store: 'loja-7' } }],
    ['a checkout without its store', { scope: { chain: 'rede-sul', checkout: 'caixa-1' } }],
    ['no issued_at date', { issued_at: 'yesterday' }],
    ['settings that are not an object', { settings: [] }],
  ])('is MALFORMED with %s', (_what, change) => {
    expect(refusalOf(() => checkPayload({ ...good, ...change })).code).toBe('MALFORMED');
  });
});
