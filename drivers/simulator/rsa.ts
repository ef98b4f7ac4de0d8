/**
 * The one RSA operation an ABECS PINPAD performs (S220 §5.2.1, §5.4.2): it hands the host a
 * random key it made — KSEC for secure communication (OPN), KRAND for random-key track encryption
 * (GTK "9x", PP_ENCKRAND) — encrypted under the host's public key, as the PKCS #1 block
 *
 *   00h 02h | random bytes, none 00h | 00h | key        (as long as the modulus, KMOD)
 *
 * raised to the public exponent modulo the modulus. Written from the spec with BigInt, so it
 * accepts whatever key the spec allows (a 256-byte modulus, an exponent of 1 to 3 bytes such as
 * the spec's own 0Dh) and nothing in it depends on a library's padding choices.
 */
import { randomBytes } from 'node:crypto';

export interface RsaPublicKey {
  /** KMOD, big-endian. */
  readonly modulus: Buffer;
  /** KPUB, big-endian. */
  readonly exponent: Buffer;
}

/** PKCS #1 asks for at least 8 random padding bytes. */
const MIN_PADDING = 8;

const toBigInt = (bytes: Buffer): bigint => (bytes.length === 0 ? 0n : BigInt(`0x${bytes.toString('hex')}`));

function toBytes(value: bigint, length: number): Buffer {
  return Buffer.from(value.toString(16).padStart(length * 2, '0'), 'hex');
}

function modPow(base: bigint, exponent: bigint, modulus: bigint): bigint {
  let result = 1n;
  let b = base % modulus;
  for (let e = exponent; e > 0n; e >>= 1n) {
    if (e & 1n) result = (result * b) % modulus;
    b = (b * b) % modulus;
  }
  return result;
}

/**
 * Whether a PINPAD can encrypt a `keyLength`-byte key under this public key: a modulus whose
 * first byte is not zero (its length is KMOD's), long enough for the block, odd (an RSA modulus
 * is a product of two odd primes), and an odd exponent above 1.
 */
export function usablePublicKey(key: RsaPublicKey, keyLength: number): boolean {
  const { modulus, exponent } = key;
  if (modulus.length < 3 + MIN_PADDING + keyLength || modulus[0] === 0) return false;
  if ((modulus[modulus.length - 1]! & 1) === 0) return false;
  const e = toBigInt(exponent);
  return e > 1n && (e & 1n) === 1n;
}

/** The PKCS #1 block of S220 §5.2.1 holding `key`, `size` bytes long. */
export function pkcs1Block(key: Buffer, size: number): Buffer {
  const padding = size - 3 - key.length;
  if (padding < MIN_PADDING) throw new RangeError(`A ${size}-byte block cannot hold a ${key.length}-byte key.`);
  const random = randomBytes(padding);
  // "Bytes aleatórios diferentes de 00h": redraw each zero.
  for (let i = 0; i < random.length; i++) {
    while (random[i] === 0) random[i] = randomBytes(1)[0]!;
  }
  return Buffer.concat([Buffer.from([0x00, 0x02]), random, Buffer.from([0x00]), key]);
}

/** Raw RSA: `block` (as long as the modulus, below it) to the public exponent, modulo the modulus. */
export function rsaEncrypt(block: Buffer, key: RsaPublicKey): Buffer {
  const n = toBigInt(key.modulus);
  const m = toBigInt(block);
  if (m >= n) throw new RangeError('The block is not below the modulus.');
  return toBytes(modPow(m, toBigInt(key.exponent), n), key.modulus.length);
}

/** CRKSEC / PP_ENCKRAND: `key` in a fresh PKCS #1 block under the host's public key. */
export function encryptKeyForHost(key: Buffer, publicKey: RsaPublicKey): Buffer {
  return rsaEncrypt(pkcs1Block(key, publicKey.modulus.length), publicKey);
}
