/**
 * Which fetched documents may be tried: each rule a document can break refuses it with its own
 * code, and a document the agent already runs (or already waits to try) is no news.
 */
import { describe, expect, it } from 'vitest';
import { checkDocument, type CheckContext } from '../../../main/remote-settings/check.js';
import { publicKeyOf } from '../../../main/remote-settings/document.js';
import { generateKeyPair } from '../../../main/remote-settings/keys.js';
import { RemoteDocumentRefused } from '../../../main/remote-settings/refusal.js';
import type { RemoteState } from '../../../main/remote-settings/state.js';
import { signedDocument, type DocumentFields } from '../../helpers/remote-settings.js';

const keys = generateKeyPair();
const EMPTY: RemoteState = { current: null, trial: null, refused_versions: [], refusals: [], last_check: null };
const context = (state: Partial<RemoteState> = {}): CheckContext => ({
  key: publicKeyOf(keys.publicKey),
  identity: { chain: 'rede-sul', store: 'loja-7', checkout: 'caixa-2' },
  state: { ...EMPTY, ...state },
  local: {},
  settingsPath: null,
  now: new Date('2026-11-29T12:00:00Z'),
});
const doc = (fields: Partial<DocumentFields> = {}): string =>
  signedDocument(keys, { version: 5, settings: { confirmation: 'pos' }, ...fields });
const stored = (text: string, version: number) => ({ version, url: 'https://x/', envelope: text, fetched_at: 'then' });

function codeOf(text: string, ctx: CheckContext): string {
  try {
    checkDocument(text, ctx);
  } catch (error) {
    if (error instanceof RemoteDocumentRefused) return error.code;
    throw error;
  }
  return 'accepted';
}

describe('checking a fetched document', () => {
  it('accepts a newer document for this chain, store or checkout', () => {
    for (const scope of [
      { chain: 'rede-sul' },
      { chain: 'rede-sul', store: 'loja-7' },
      { chain: 'rede-sul', store: 'loja-7', checkout: 'caixa-2' },
    ])
      expect(checkDocument(doc({ scope }), context())).toMatchObject({ kind: 'new', payload: { version: 5 } });
  });

  it('refuses a document for another chain, store or checkout (WRONG_SCOPE)', () => {
    for (const scope of [
      { chain: 'rede-norte' },
      { chain: 'rede-sul', store: 'loja-8' },
      { chain: 'rede-sul', store: 'loja-7', checkout: 'caixa-3' },
    ])
      expect(codeOf(doc({ scope }), context())).toBe('WRONG_SCOPE');
  });

  it('refuses an older version than the one running (DOWNGRADE), and another content under its version (VERSION_REUSED)', () => {
    const running = doc({ version: 5 });
    expect(codeOf(doc({ version: 4 }), context({ current: stored(running, 5) }))).toBe('DOWNGRADE');
    expect(
      codeOf(doc({ version: 5, settings: { confirmation: 'auto' } }), context({ current: stored(running, 5) })),
    ).toBe('VERSION_REUSED');
    expect(checkDocument(running, context({ current: stored(running, 5) }))).toEqual({ kind: 'unchanged', version: 5 });
  });

  it('refuses a version refused before, an expired document, and one setting a forbidden field', () => {
    expect(codeOf(doc(), context({ refused_versions: [5] }))).toBe('REFUSED_BEFORE');
    expect(codeOf(doc({ expires_at: '2026-11-29T11:59:59Z' }), context())).toBe('EXPIRED');
    expect(codeOf(doc({ settings: { remote_settings: { url: 'https://evil/' } } }), context())).toBe('FORBIDDEN_FIELD');
    expect(codeOf(doc({ settings: { telemetry: { bearer_token: 'x' } } }), context())).toBe('FORBIDDEN_FIELD');
  });

  it('refuses a document that would move the checkout to another place in the chain (fleet), even within its scope', () => {
    // Scoped to this very store, it would re-scope the checkout (and its labels, its rollout place) to another.
    const text = doc({
      scope: { chain: 'rede-sul', store: 'loja-7' },
      settings: { fleet: { store: 'loja-8' }, confirmation: 'pos' },
    });
    try {
      checkDocument(text, context());
      throw new Error('accepted');
    } catch (error) {
      expect(error).toBeInstanceOf(RemoteDocumentRefused);
      expect((error as RemoteDocumentRefused).code).toBe('FORBIDDEN_FIELD');
      expect((error as RemoteDocumentRefused).message).toContain('fleet.store');
    }
    expect(codeOf(doc({ settings: { fleet: {} } }), context())).toBe('FORBIDDEN_FIELD');
  });

  it('refuses a document still labelling telemetry in its former place, naming MOVED (INVALID_SETTINGS)', () => {
    try {
      checkDocument(doc({ settings: { telemetry: { chain: 'rede-sul' } } }), context());
      throw new Error('accepted');
    } catch (error) {
      expect(error).toBeInstanceOf(RemoteDocumentRefused);
      expect((error as RemoteDocumentRefused).code).toBe('INVALID_SETTINGS');
      expect((error as RemoteDocumentRefused).message).toContain('telemetry.chain (MOVED): has moved to fleet.chain');
    }
  });

  it('refuses settings that are invalid once merged over the local file, naming every violation', () => {
    try {
      checkDocument(doc({ settings: { confirmation: 'sometimes', pos: { ports: ['x'] } } }), context());
      throw new Error('accepted');
    } catch (error) {
      expect(error).toBeInstanceOf(RemoteDocumentRefused);
      expect((error as RemoteDocumentRefused).code).toBe('INVALID_SETTINGS');
      expect((error as RemoteDocumentRefused).message).toMatch(/confirmation.*pos\.ports|pos\.ports.*confirmation/);
    }
  });
});
