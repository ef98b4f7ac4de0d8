/**
 * Where the payments API token rests: encrypted with safeStorage in the desktop app; headless,
 * the environment variable, else a file only its user may read — a file others can read is
 * refused with the command that fixes it.
 */
import { chmodSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { encryptedTokenStore, headlessTokenStore, TokenStoreError } from '../../../main/agent/token-store.js';
import { thrown } from '../../helpers/thrown.js';
import { electronDouble } from '../app/electron-double.js';

const file = (name: string): string => join(mkdtempSync(join(tmpdir(), 'pinbridge-token-')), '.pinbridge', name);

describe('the desktop token store', () => {
  it('keeps the token encrypted in a private file and reads it back', () => {
    const double = electronDouble();
    const path = file('api-token.enc');
    const store = encryptedTokenStore(double.electron.safeStorage, path);
    expect(store.read()).toBeUndefined();
    store.write('zpk_live_abc');
    expect(readFileSync(path).toString('utf8')).not.toContain('zpk_live_abc');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(store.read()).toBe('zpk_live_abc');
    store.clear();
    expect(store.read()).toBeUndefined();
  });

  it('refuses to keep a token where the system has no key to encrypt it, saying what to do', () => {
    const double = electronDouble();
    double.keyring.available = false;
    const error = thrown(() => encryptedTokenStore(double.electron.safeStorage, file('api-token.enc')).write('zpk'));
    expect(error).toBeInstanceOf(TokenStoreError);
    expect(error).toMatchObject({ code: 'ENCRYPTION_UNAVAILABLE' });
    expect((error as Error).message).toContain('PINBRIDGE_API_TOKEN');
  });

  it('refuses the fixed fallback key of a Linux desktop without a keyring, saying what to install', () => {
    const double = electronDouble();
    double.keyring.backend = 'basic_text';
    const path = file('api-token.enc');
    const error = thrown(() => encryptedTokenStore(double.electron.safeStorage, path).write('zpk'));
    expect(error).toMatchObject({ code: 'WEAK_ENCRYPTION' });
    expect((error as Error).message).toMatch(/gnome-keyring.*KWallet.*PINBRIDGE_API_TOKEN/);
    expect(() => readFileSync(path)).toThrow(/ENOENT/);
    double.keyring.backend = 'kwallet6';
    encryptedTokenStore(double.electron.safeStorage, path).write('zpk');
    expect(readFileSync(path).toString('utf8')).not.toContain('zpk');
  });
});

describe('the headless token store', () => {
  it('takes PINBRIDGE_API_TOKEN first', () => {
    const store = headlessTokenStore(file('api-token'), { PINBRIDGE_API_TOKEN: 'from-env' });
    expect(store).toMatchObject({ kind: 'environment' });
    expect(store.read()).toBe('from-env');
  });

  it('refuses to write over a token from the environment with FROM_ENVIRONMENT, naming the variable', () => {
    const path = file('api-token');
    const store = headlessTokenStore(path, { PINBRIDGE_API_TOKEN: 'from-env' });
    const error = thrown(() => store.write('zpk_window'));
    expect(error).toBeInstanceOf(TokenStoreError);
    expect(error).toMatchObject({ code: 'FROM_ENVIRONMENT' });
    expect((error as Error).message).toContain('PINBRIDGE_API_TOKEN');
    expect(() => readFileSync(path)).toThrow(/ENOENT/);
  });

  it('else keeps it in a file only its user may read, and refuses one others can read', () => {
    const path = file('api-token');
    const store = headlessTokenStore(path, {});
    store.write('zpk_file');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(store.read()).toBe('zpk_file');
    chmodSync(path, 0o644);
    const error = thrown(() => store.read());
    expect(error).toMatchObject({ code: 'TOO_OPEN' });
    expect((error as Error).message).toContain(`chmod 600 '${path}'`);
  });
});
