/**
 * A sealing key for specs (main/integrity.ts): random, kept in memory, as an agent's own key file
 * would give it.
 */
import { randomBytes } from 'node:crypto';
import { INTEGRITY_KEY_BYTES, IntegrityKey, type IntegrityKeyOptions } from '../../main/integrity.js';

export function testIntegrityKey(options: Partial<IntegrityKeyOptions> = {}): IntegrityKey {
  return new IntegrityKey(randomBytes(INTEGRITY_KEY_BYTES), { source: 'file', ...options });
}
