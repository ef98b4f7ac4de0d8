/**
 * The chain's keys: an Ed25519 pair made by `pinbridge remote-settings keygen` (the private half
 * stays with the chain, the public half is pinned on every checkout at install), and the pinned
 * public key, read from ~/.pinbridge/remote-settings.pub. Pinning refuses to replace a key already
 * pinned unless told to: a new key is a decision, never a side effect.
 */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { publicKeyOf } from './document.js';

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

export class PinRefused extends Error {
  constructor(
    readonly code: 'ALREADY_PINNED' | 'NOT_A_KEY',
    message: string,
  ) {
    super(message);
    this.name = 'PinRefused';
  }
}

/** Pins the public key of `text` at `path` (PEM SPKI written, read-only to others); the key pinned. */
export function pinKey(path: string, text: string, options: { readonly replace?: boolean } = {}): KeyObject {
  let key: KeyObject;
  try {
    key = publicKeyOf(text);
  } catch (error) {
    throw new PinRefused('NOT_A_KEY', (error as Error).message);
  }
  if (options.replace !== true && readPinnedKey(path).state !== 'missing')
    throw new PinRefused(
      'ALREADY_PINNED',
      `a key is already pinned at ${path}: replacing it changes who may set this checkout's settings; use --replace to do so`,
    );
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, key.export({ type: 'spki', format: 'pem' }).toString(), { mode: 0o644 });
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  return key;
}
