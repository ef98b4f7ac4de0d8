/**
 * Seals of the agent's payment files (HMAC-SHA256 under the agent's key): a seal fits only the
 * text, the purpose and the key it was made with; anything else — another key, another purpose,
 * one character changed, a seal cut short or not a text at all — is refused.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { INTEGRITY_KEY_BYTES, IntegrityKey } from '../../main/integrity.js';

const key = (): IntegrityKey => new IntegrityKey(randomBytes(INTEGRITY_KEY_BYTES), { source: 'file' });

describe('IntegrityKey', () => {
  it('verifies its own seal of a text for a purpose', () => {
    const k = key();
    const seal = k.seal('supervisor-pin', '{"a":1}');
    expect(seal).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(k.verify('supervisor-pin', '{"a":1}', seal)).toBe(true);
  });

  it('refuses the seal for another text, another purpose or under another key', () => {
    const k = key();
    const seal = k.seal('emv-tables-cache:PB01', '{"limit":20000}');
    expect(k.verify('emv-tables-cache:PB01', '{"limit":999999}', seal)).toBe(false);
    expect(k.verify('emv-tables-cache:PB02', '{"limit":20000}', seal)).toBe(false);
    expect(k.verify('supervisor-pin', '{"limit":20000}', seal)).toBe(false);
    expect(key().verify('emv-tables-cache:PB01', '{"limit":20000}', seal)).toBe(false);
  });

  it('refuses what is not a seal at all', () => {
    const k = key();
    const seal = k.seal('p', 't');
    for (const bad of [undefined, null, 42, '', seal.slice(0, 20), `${seal}AA`])
      expect(k.verify('p', 't', bad), String(bad)).toBe(false);
  });

  it('is a 32-byte key, no other length', () => {
    expect(() => new IntegrityKey(randomBytes(16), { source: 'memory' })).toThrow(RangeError);
  });
});
