/**
 * The key that seals the EMV tables cache and the supervisor PIN file: headless, 32 random bytes
 * in a file only its user may read, made at first use and the same at every start; in the desktop
 * app, encrypted by the OS (safeStorage, here the Electron double) — or the headless file where
 * the OS has no real key. A key that cannot be kept is made in memory for one start, said.
 */
import { chmodSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileIntegrityKey, osIntegrityKey } from '../../../main/agent/integrity-key.js';
import type { IntegrityKey } from '../../../main/integrity.js';
import { electronDouble } from '../app/electron-double.js';

const folder = (): string => join(mkdtempSync(join(tmpdir(), 'pinbridge-integrity-')), '.pinbridge');

/** Whether two keys are the same key: one seals what the other verifies. */
const same = (a: IntegrityKey, b: IntegrityKey): boolean => b.verify('spec', 'text', a.seal('spec', 'text'));

describe('the headless key file', () => {
  it('is made at first use, private, and is the same key at every start after', () => {
    const path = join(folder(), 'integrity.key');
    const first = fileIntegrityKey(path);
    expect(first).toMatchObject({ source: 'file', fresh: true });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(path, 'utf8')).toMatch(/^[A-Za-z0-9_-]{43}\n$/);
    const again = fileIntegrityKey(path);
    expect(again).toMatchObject({ source: 'file', fresh: false });
    expect(same(first, again)).toBe(true);
    expect(same(first, fileIntegrityKey(join(folder(), 'integrity.key')))).toBe(false);
  });

  it('takes back a mode someone loosened', () => {
    const path = join(folder(), 'integrity.key');
    fileIntegrityKey(path);
    chmodSync(path, 0o644);
    fileIntegrityKey(path);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('replaces a damaged key, saying that what the old one sealed is refused (and is not a first start)', () => {
    const path = join(folder(), 'integrity.key');
    const old = fileIntegrityKey(path);
    writeFileSync(path, 'not a key\n');
    const problems: string[] = [];
    const replaced = fileIntegrityKey(path, (problem) => problems.push(problem));
    expect(replaced).toMatchObject({ source: 'file', fresh: false });
    expect(same(old, replaced)).toBe(false);
    expect(problems).toEqual([expect.stringContaining('damaged and is replaced')]);
    expect(same(replaced, fileIntegrityKey(path))).toBe(true);
  });

  it('that cannot be kept gives a key in memory for this start, said, never an exit', () => {
    const notAFolder = join(mkdtempSync(join(tmpdir(), 'pinbridge-integrity-')), 'file');
    writeFileSync(notAFolder, '');
    const problems: string[] = [];
    const key = fileIntegrityKey(join(notAFolder, 'integrity.key'), (problem) => problems.push(problem));
    expect(key).toMatchObject({ source: 'memory', fresh: false });
    expect(problems).toEqual([expect.stringContaining('kept in memory for this start only')]);
  });
});

describe("the desktop app's key", () => {
  it('is kept encrypted by the OS in a private file, never in clear, and is the same key at the next start', () => {
    const double = electronDouble();
    const dir = folder();
    const sealed = join(dir, 'integrity-key.enc');
    const fallback = (): IntegrityKey => fileIntegrityKey(join(dir, 'integrity.key'));
    const first = osIntegrityKey(double.electron.safeStorage, sealed, fallback);
    expect(first).toMatchObject({ source: 'os', fresh: true });
    expect(statSync(sealed).mode & 0o777).toBe(0o600);
    expect(readFileSync(sealed, 'utf8')).not.toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The OS key opens it: the clear key is what the double decrypts.
    expect(double.electron.safeStorage.decryptString(readFileSync(sealed))).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const again = osIntegrityKey(double.electron.safeStorage, sealed, fallback);
    expect(again).toMatchObject({ source: 'os', fresh: false });
    expect(same(first, again)).toBe(true);
    // No plain key file was made beside it.
    expect(() => readFileSync(join(dir, 'integrity.key'))).toThrow(/ENOENT/);
  });

  it("uses the headless key file where the OS has no real key (no keyring, or Chromium's public basic_text key), saying so", () => {
    for (const keyring of [
      { available: false, backend: 'gnome_libsecret' },
      { available: true, backend: 'basic_text' },
    ]) {
      const double = electronDouble();
      Object.assign(double.keyring, keyring);
      const dir = folder();
      const problems: string[] = [];
      const key = osIntegrityKey(
        double.electron.safeStorage,
        join(dir, 'integrity-key.enc'),
        () => fileIntegrityKey(join(dir, 'integrity.key')),
        (problem) => problems.push(problem),
      );
      expect(key.source, JSON.stringify(keyring)).toBe('file');
      expect(problems).toEqual([expect.stringContaining('using the private key file instead')]);
      expect(() => readFileSync(join(dir, 'integrity-key.enc'))).toThrow(/ENOENT/);
    }
  });

  it('replaces a key the OS no longer opens, saying that what the old one sealed is refused', () => {
    const double = electronDouble();
    const dir = folder();
    const sealed = join(dir, 'integrity-key.enc');
    const fallback = (): IntegrityKey => fileIntegrityKey(join(dir, 'integrity.key'));
    const old = osIntegrityKey(double.electron.safeStorage, sealed, fallback);
    writeFileSync(sealed, Buffer.from('sealed by another profile'));
    const problems: string[] = [];
    const replaced = osIntegrityKey(double.electron.safeStorage, sealed, fallback, (problem) => problems.push(problem));
    expect(replaced).toMatchObject({ source: 'os', fresh: false });
    expect(same(old, replaced)).toBe(false);
    expect(problems).toEqual([expect.stringContaining('cannot be opened')]);
  });
});
