/**
 * The chain's keys: an Ed25519 pair made by `pinbridge remote-settings keygen` (the private half
 * stays with the chain, the public half is pinned on every checkout at install), and the pinned
 * public key, read from ~/.pinbridge/remote-settings.pub. Pinning refuses to replace a key already
 * pinned unless told to: a new key is a decision, never a side effect.
 */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CodedError } from '../../lib/errors.js';
import { publicKeyOf } from './document.js';

/** Removes a temporary file left by a failed write; its folder may be what failed (ENOTDIR, EROFS). */
function removeQuietly(path: string): void {
  try {
    rmSync(path, { force: true });
  } catch {
    // Nothing was written there, or nothing can be: there is nothing to clean.
  }
}

export interface KeyPairPem {
  readonly privateKey: string;
  readonly publicKey: string;
}

export function generateKeyPair(): KeyPairPem {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

export type PinnedKey =
  | { readonly state: 'pinned'; readonly key: KeyObject }
  | { readonly state: 'missing' }
  | { readonly state: 'unusable'; readonly message: string };

export function readPinnedKey(path: string): PinnedKey {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { state: 'missing' };
    return { state: 'unusable', message: `${path} cannot be read (${(error as Error).message})` };
  }
  try {
    return { state: 'pinned', key: publicKeyOf(text) };
  } catch (error) {
    return { state: 'unusable', message: `${path}: ${(error as Error).message}` };
  }
}

/** A key or document command refused (`pinbridge remote-settings …`): a stable code and a sentence. */
export class RemoteSettingsError extends CodedError<
  'ALREADY_PINNED' | 'NOT_A_KEY' | 'KEY_EXISTS' | 'FILE_UNREADABLE' | 'INVALID_DOCUMENT' | 'WRITE_FAILED'
> {}

/** Writes `text` to `path` through a temporary file renamed over it (a crash leaves the old file or none). */
function writeAtomically(path: string, text: string, mode: number): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, text, { mode });
    renameSync(temporary, path);
  } catch (error) {
    removeQuietly(temporary);
    throw new RemoteSettingsError('WRITE_FAILED', `cannot write ${path}: ${(error as Error).message}`);
  }
}

/** Writes a new key pair into `dir` (remote-settings.key, private to its user; remote-settings.pub); never over an existing one. */
export function writeKeyPair(dir: string): { privateKey: string; publicKey: string } {
  const files = { privateKey: join(dir, 'remote-settings.key'), publicKey: join(dir, 'remote-settings.pub') };
  for (const file of Object.values(files))
    if (existsSync(file))
      throw new RemoteSettingsError(
        'KEY_EXISTS',
        `${file} exists: a chain's key is made once (remove it first to make another, and pin the new public key on every checkout)`,
      );
  const pair = generateKeyPair();
  writeAtomically(files.privateKey, pair.privateKey, 0o600);
  writeAtomically(files.publicKey, pair.publicKey, 0o644);
  return files;
}

/** Pins the public key of `text` at `path` (PEM SPKI written, read-only to others); the key pinned. */
export function pinKey(path: string, text: string, options: { readonly replace?: boolean } = {}): KeyObject {
  let key: KeyObject;
  try {
    key = publicKeyOf(text);
  } catch (error) {
    throw new RemoteSettingsError('NOT_A_KEY', (error as Error).message);
  }
  if (options.replace !== true && readPinnedKey(path).state !== 'missing')
    throw new RemoteSettingsError(
      'ALREADY_PINNED',
      `a key is already pinned at ${path}: replacing it changes who may set this checkout's settings; use --replace to do so`,
    );
  writeAtomically(path, key.export({ type: 'spki', format: 'pem' }).toString(), 0o644);
  return key;
}
