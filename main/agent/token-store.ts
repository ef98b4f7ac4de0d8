/**
 * Where the payments API token rests between starts. The desktop app encrypts it with
 * Electron's safeStorage (the OS keychain / DPAPI / libsecret key) into a file; headless, the
 * environment variable PINBRIDGE_API_TOKEN wins, else a plain file readable by this user only —
 * and one readable by others is refused with the command that fixes it, never used.
 */
import { chmodSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** What the desktop app's safeStorage offers (Electron's `safeStorage` has this shape). */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
}

export type TokenStoreErrorCode = 'ENCRYPTION_UNAVAILABLE' | 'UNREADABLE' | 'TOO_OPEN';

export class TokenStoreError extends Error {
  constructor(
    readonly code: TokenStoreErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'TokenStoreError';
  }
}

export interface TokenStore {
  /** How the token is kept (for the diagnostics page). */
  readonly kind: 'safeStorage' | 'file' | 'environment';
  read(): string | undefined;
  write(token: string): void;
  clear(): void;
}

function readOptional(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new TokenStoreError('UNREADABLE', `The API token file ${path} cannot be read: ${(error as Error).message}`);
  }
}

function writePrivate(path: string, data: Buffer | string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, data, { mode: 0o600 });
  chmodSync(path, 0o600);
}

/** The desktop app's store: the token encrypted by the OS-bound key of safeStorage. */
export function encryptedTokenStore(safeStorage: SafeStorageLike, path: string): TokenStore {
  const available = (): void => {
    if (!safeStorage.isEncryptionAvailable()) {
      throw new TokenStoreError(
        'ENCRYPTION_UNAVAILABLE',
        'This system offers no key to encrypt the API token (on Linux: a keyring such as gnome-keyring or kwallet); run headless with PINBRIDGE_API_TOKEN instead.',
      );
    }
  };
  return {
    kind: 'safeStorage',
    read() {
      const sealed = readOptional(path);
      if (sealed === undefined) return undefined;
      available();
      return safeStorage.decryptString(sealed);
    },
    write(token) {
      available();
      writePrivate(path, safeStorage.encryptString(token));
    },
    clear() {
      rmSync(path, { force: true });
    },
  };
}

/** Headless: PINBRIDGE_API_TOKEN, else a file only its user may read. */
export function headlessTokenStore(path: string, env: NodeJS.ProcessEnv): TokenStore {
  const fromEnv = env.PINBRIDGE_API_TOKEN;
  if (fromEnv !== undefined && fromEnv !== '') {
    return {
      kind: 'environment',
      read: () => fromEnv,
      write: () => {
        throw new TokenStoreError('UNREADABLE', 'The API token comes from PINBRIDGE_API_TOKEN: change it there.');
      },
      clear: () => {},
    };
  }
  return {
    kind: 'file',
    read() {
      const text = readOptional(path);
      if (text === undefined) return undefined;
      if (process.platform !== 'win32' && (statSync(path).mode & 0o077) !== 0) {
        throw new TokenStoreError('TOO_OPEN', `The API token file ${path} can be read by other users; make it private with: chmod 600 '${path}'`);
      }
      return text.toString('utf8').trim();
    },
    write(token) {
      writePrivate(path, `${token}\n`);
    },
    clear() {
      rmSync(path, { force: true });
    },
  };
}
