/**
 * The published test master keys (MK/WK): one key per slot and kind, a working key that travels
 * only under a master key and opens back to itself under the same slot's key — and to something
 * else under any other slot's.
 */
import { createCipheriv } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  encryptWorkingKey,
  openWorkingKey,
  TEST_MASTER_KEY_DATA,
  TEST_MASTER_KEY_PIN,
  testMasterKey,
  testWorkingKey,
} from '../../../drivers/crypto/master-keys.js';

/** Two-key TDES ECB through OpenSSL directly, not through drivers/crypto. */
function openssl3des(key16: Buffer, block: Buffer): Buffer {
  const cipher = createCipheriv('des-ede3-ecb', Buffer.concat([key16, key16.subarray(0, 8)]), null);
  cipher.setAutoPadding(false);
  return Buffer.concat([cipher.update(block), cipher.final()]);
}

describe('test master keys (MK/WK)', () => {
  it('slot 00 holds the base key itself; slot nn flips the last byte by 2 × nn', () => {
    expect(testMasterKey('pin', 0)).toEqual(TEST_MASTER_KEY_PIN);
    expect(testMasterKey('data', 0)).toEqual(TEST_MASTER_KEY_DATA);
    expect(testMasterKey('data', 2).toString('hex').toUpperCase()).toBe('BA1755D56C3C919AFA8697442C8282F9');
    expect(testMasterKey('pin', 99).subarray(0, 15)).toEqual(TEST_MASTER_KEY_PIN.subarray(0, 15));
  });

  it('gives every slot of a kind a different effective DES key (parity bits ignored)', () => {
    const block = Buffer.from('0123456789ABCDEF', 'hex');
    for (const kind of ['pin', 'data'] as const) {
      const seen = new Set<string>();
      for (let slot = 0; slot <= 99; slot++) seen.add(openssl3des(testMasterKey(kind, slot), block).toString('hex'));
      expect(seen.size).toBe(100);
    }
  });

  it('a working key encrypted under a slot opens under that slot only', () => {
    const wk = testWorkingKey('data');
    const sealed = encryptWorkingKey(testMasterKey('data', 2), wk);
    expect(sealed).toEqual(openssl3des(testMasterKey('data', 2), wk));
    expect(openWorkingKey(testMasterKey('data', 2), sealed)).toEqual(wk);
    expect(openWorkingKey(testMasterKey('data', 3), sealed)).not.toEqual(wk);
    expect(openWorkingKey(testMasterKey('pin', 2), sealed)).not.toEqual(wk);
  });

  it('refuses slots outside 00–99 and keys that are not 16 bytes', () => {
    expect(() => testMasterKey('pin', 100)).toThrow(RangeError);
    expect(() => testMasterKey('pin', -1)).toThrow(RangeError);
    expect(() => encryptWorkingKey(TEST_MASTER_KEY_PIN, Buffer.alloc(8))).toThrow(RangeError);
    expect(() => openWorkingKey(TEST_MASTER_KEY_PIN, Buffer.alloc(24))).toThrow(RangeError);
  });
});
