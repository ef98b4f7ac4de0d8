/**
 * Where the agent's secrets rest between starts: the payments API token and the passphrase of a
 * PKCS#12 client certificate. The desktop app encrypts each with Electron's safeStorage (the OS
 * keychain / DPAPI / libsecret key) into a file; headless, its environment variable
 * (PINBRIDGE_API_TOKEN, PINBRIDGE_CERT_PASSPHRASE) wins, else a plain file readable by this user
 * only — and one readable by others is refused with the command that fixes it, never used.
 */
import { CodedError } from '../../lib/errors.js';
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** What the desktop app's safeStorage offers (Electron's `safeStorage` has this shape). */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  /** Linux only: the keyring behind it; `basic_text` is Chromium's fixed, public fallback key. */
  getSelectedStorageBackend?(): string;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
}

export type TokenStoreErrorCode =
  | 'ENCRYPTION_UNAVAILABLE'
  | 'WEAK_ENCRYPTION'
  | 'UNREADABLE'
  | 'TOO_OPEN'
  /** The secret comes from its environment variable: there is nothing to write. */
  | 'FROM_ENVIRONMENT'
  /** The file could not be written (a full or read-only disk): the secret kept before is untouched. */
  | 'UNWRITABLE';

export class TokenStoreError extends CodedError<TokenStoreErrorCode> {
  constructor(code: TokenStoreErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(code, message, options);
  }
}

/** One secret: how messages name it, the variable that gives it headless, whether spaces around it are noise. */
export interface SecretKind {
  readonly name: string;
  readonly envVar: string;
  /** A token has no meaningful spaces (trimmed); a passphrase keeps them (only a final newline goes). */
  readonly trim: boolean;
}

export const API_TOKEN: SecretKind = { name: 'API token', envVar: 'PINBRIDGE_API_TOKEN', trim: true };
export const CERTIFICATE_PASSPHRASE: SecretKind = {
  name: 'client certificate passphrase',
  envVar: 'PINBRIDGE_CERT_PASSPHRASE',
  trim: false,
};

export interface TokenStore {
  /** How the secret is kept (for the diagnostics page). */
  readonly kind: 'safeStorage' | 'file' | 'environment';
  read(): string | undefined;
  write(token: string): void;
  clear(): void;
}

function readOptional(path: string, secret: SecretKind): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new TokenStoreError(
      'UNREADABLE',
      `The ${secret.name} file ${path} cannot be read: ${(error as Error).message}`,
    );
  }
}

/**
 * Through a temporary file and a rename: a disk that fills mid-write (issue 33) must not leave half
 * a token where the whole one was. UNWRITABLE when it cannot be written, the old file untouched.
 */
function writePrivate(path: string, data: Buffer | string, secret: SecretKind): void {
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    writeFileSync(temporary, data, { mode: 0o600 });
    chmodSync(temporary, 0o600);
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new TokenStoreError(
      'UNWRITABLE',
      `The ${secret.name} could not be saved in ${path}: ${(error as Error).message}`,
      { cause: error },
    );
  }
}

/** safeStorage's Linux keyring backend; undefined elsewhere (Electron offers it on Linux only). */
function storageBackend(safeStorage: SafeStorageLike): string | undefined {
  try {
    return safeStorage.getSelectedStorageBackend?.();
  } catch {
    return undefined;
  }
}

/** The desktop app's store: the secret encrypted by the OS-bound key of safeStorage. */
export function encryptedTokenStore(
  safeStorage: SafeStorageLike,
  path: string,
  secret: SecretKind = API_TOKEN,
): TokenStore {
  const available = (): void => {
    if (!safeStorage.isEncryptionAvailable()) {
      throw new TokenStoreError(
        'ENCRYPTION_UNAVAILABLE',
        `This system offers no key to encrypt the ${secret.name} (on Linux: a keyring such as gnome-keyring or kwallet); run headless with ${secret.envVar} instead.`,
      );
    }
    // On a Linux desktop without a keyring, safeStorage says it is available and encrypts with a
    // key written in Chromium's source: as good as plain text, so the secret is not kept that way.
    if (storageBackend(safeStorage) === 'basic_text') {
      throw new TokenStoreError(
        'WEAK_ENCRYPTION',
        `This desktop has no keyring, so the ${secret.name} would be encrypted with a fixed, public key (safeStorage backend basic_text); ` +
          `install and unlock one (gnome-keyring: apt-get install gnome-keyring, or KWallet on KDE) and log in again, or run headless with ${secret.envVar}.`,
      );
    }
  };
  return {
    kind: 'safeStorage',
    read() {
      const sealed = readOptional(path, secret);
      if (sealed === undefined) return undefined;
      available();
      return safeStorage.decryptString(sealed);
    },
    write(token) {
      available();
      writePrivate(path, safeStorage.encryptString(token), secret);
    },
    clear() {
      rmSync(path, { force: true });
    },
  };
}

/** Headless: the secret's environment variable, else a file only its user may read. */
export function headlessTokenStore(path: string, env: NodeJS.ProcessEnv, secret: SecretKind = API_TOKEN): TokenStore {
  const fromEnv = env[secret.envVar];
  if (fromEnv !== undefined && fromEnv !== '') {
    return {
      kind: 'environment',
      read: () => fromEnv,
      write: () => {
        throw new TokenStoreError(
          'FROM_ENVIRONMENT',
          `The ${secret.name} comes from ${secret.envVar}: change it there.`,
        );
      },
      clear: () => {},
    };
  }
  return {
    kind: 'file',
    read() {
      const text = readOptional(path, secret);
      if (text === undefined) return undefined;
      if (process.platform !== 'win32' && (statSync(path).mode & 0o077) !== 0) {
        throw new TokenStoreError(
          'TOO_OPEN',
          `The ${secret.name} file ${path} can be read by other users; make it private with: chmod 600 '${path}'`,
        );
      }
      const value = text.toString('utf8');
      return secret.trim ? value.trim() : value.replace(/\r?\n$/, '');
    },
    write(token) {
      writePrivate(path, `${token}\n`, secret);
    },
    clear() {
      rmSync(path, { force: true });
    },
  };
}
