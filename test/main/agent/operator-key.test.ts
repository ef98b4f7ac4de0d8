/**
 * The window's key: made once, private to its user, the same at every start, and made again
 * when the file holds something else.
 */
import { chmodSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadOperatorKey } from '../../../main/agent/operator-key.js';

const fresh = (): string => join(mkdtempSync(join(tmpdir(), 'pinbridge-key-')), '.pinbridge', 'operator.key');

describe('loadOperatorKey', () => {
  it('makes a 256-bit key in a file only its user can read, with its folder', () => {
    const path = fresh();
    const key = loadOperatorKey(path);
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(readFileSync(path, 'utf8')).toBe(`${key}\n`);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('gives the same key at the next start, and takes a loosened file back to 0600', () => {
    const path = fresh();
    const key = loadOperatorKey(path);
    chmodSync(path, 0o644);
    expect(loadOperatorKey(path)).toBe(key);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('makes a new key when the file holds something that is not one', () => {
    const path = fresh();
    loadOperatorKey(path);
    writeFileSync(path, 'password123\n');
    const key = loadOperatorKey(path);
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(key).not.toBe('password123');
  });
});
