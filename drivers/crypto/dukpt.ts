/**
 * TDES DUKPT (ANSI X9.24-1:2009, "Derived Unique Key Per Transaction"): the key management of
 * the PINPAD keys ABECS names PP_DKPTTDESP / PP_DKPTTDESD (abecs.md §2.5). A PINPAD holds an
 * initial key (IPEK) derived from the acquirer's base derivation key (BDK) and its initial key
 * serial number (KSN); each transaction uses a fresh key derived from the IPEK and the KSN's
 * 21-bit counter, which the PINPAD sends beside the PIN block or the encrypted data. The host
 * that holds the BDK derives the same key from the KSN alone.
 *
 * Pinbridge itself never holds a production BDK: this module is what the simulated PINPAD
 * encrypts with, and what a test host decrypts with, under the published test BDK. Node's
 * OpenSSL 3 has no single DES; DES(K) is computed as 3DES with K1 = K2 = K3, which is the same
 * function.
 */
import { createCipheriv, createDecipheriv } from 'node:crypto';

/** The test BDK of ANSI X9.24-1 Annex A (public: test data only). */
export const TEST_BDK = Buffer.from('0123456789ABCDEFFEDCBA9876543210', 'hex');

const KEY_MASK = Buffer.from('C0C0C0C000000000C0C0C0C000000000', 'hex');
const PIN_VARIANT = Buffer.from('00000000000000FF00000000000000FF', 'hex');
const DATA_VARIANT = Buffer.from('0000000000FF00000000000000FF0000', 'hex');
/** The KSN's transaction counter: its rightmost 21 bits. */
export const KSN_COUNTER_MAX = 0x1fffff;

function xor(a: Buffer, b: Buffer): Buffer {
  const out = Buffer.alloc(a.length);
  for (let i = 0; i < a.length; i++) out[i] = a[i]! ^ b[i % b.length]!;
  return out;
}

function ecb(algorithm: 'des-ede3-ecb', key: Buffer, block: Buffer, decrypt = false): Buffer {
  const cipher = decrypt ? createDecipheriv(algorithm, key, null) : createCipheriv(algorithm, key, null);
  cipher.setAutoPadding(false);
  return Buffer.concat([cipher.update(block), cipher.final()]);
}

/** Single DES of one 8-byte block. */
function des(key8: Buffer, block: Buffer): Buffer {
  return ecb('des-ede3-ecb', Buffer.concat([key8, key8, key8]), block);
}

/** Two-key triple DES (EDE, K1 K2 K1) of whole 8-byte blocks. */
export function tdesEncrypt(key16: Buffer, data: Buffer): Buffer {
  checkKey(key16);
  return ecb('des-ede3-ecb', Buffer.concat([key16, key16.subarray(0, 8)]), data);
}

export function tdesDecrypt(key16: Buffer, data: Buffer): Buffer {
  checkKey(key16);
  return ecb('des-ede3-ecb', Buffer.concat([key16, key16.subarray(0, 8)]), data, true);
}

/** Two-key triple DES in CBC mode (data blocks chained from `iv`, zeros by default). */
export function tdesCbcEncrypt(key16: Buffer, data: Buffer, iv: Buffer = Buffer.alloc(8)): Buffer {
  checkKey(key16);
  const cipher = createCipheriv('des-ede3-cbc', Buffer.concat([key16, key16.subarray(0, 8)]), iv);
  cipher.setAutoPadding(false);
  return Buffer.concat([cipher.update(data), cipher.final()]);
}

export function tdesCbcDecrypt(key16: Buffer, data: Buffer, iv: Buffer = Buffer.alloc(8)): Buffer {
  checkKey(key16);
  const decipher = createDecipheriv('des-ede3-cbc', Buffer.concat([key16, key16.subarray(0, 8)]), iv);
  decipher.setAutoPadding(false);
  return Buffer.concat([decipher.update(data), decipher.final()]);
}

function checkKey(key: Buffer): void {
  if (key.length !== 16) throw new RangeError(`A double-length TDES key has 16 bytes, got ${key.length}.`);
}

function checkKsn(ksn: Buffer): void {
  if (ksn.length !== 10) throw new RangeError(`A DUKPT KSN has 10 bytes, got ${ksn.length}.`);
}

/** The KSN's 21-bit transaction counter. */
export function ksnCounter(ksn: Buffer): number {
  checkKsn(ksn);
  return ((ksn[7]! & 0x1f) << 16) | (ksn[8]! << 8) | ksn[9]!;
}

/** `ksn` with its counter set to `counter` (0 … 2²¹ − 1). */
export function withCounter(ksn: Buffer, counter: number): Buffer {
  checkKsn(ksn);
  if (!Number.isInteger(counter) || counter < 0 || counter > KSN_COUNTER_MAX) {
    throw new RangeError(`A KSN counter is an integer from 0 to ${KSN_COUNTER_MAX}, got ${counter}.`);
  }
  const out = Buffer.from(ksn);
  out[7] = (out[7]! & 0xe0) | ((counter >> 16) & 0x1f);
  out[8] = (counter >> 8) & 0xff;
  out[9] = counter & 0xff;
  return out;
}

/** The initial PIN encryption key a PINPAD is loaded with, from the BDK and its initial KSN. */
export function initialKey(bdk: Buffer, ksn: Buffer): Buffer {
  checkKey(bdk);
  const reg = withCounter(ksn, 0).subarray(0, 8);
  return Buffer.concat([tdesEncrypt(bdk, reg), tdesEncrypt(xor(bdk, KEY_MASK), reg)]);
}

/** The non-reversible key generation process (X9.24-1 A.2). */
function nextKey(key: Buffer, register: Buffer): Buffer {
  const half = (k: Buffer): Buffer => {
    const right = k.subarray(8, 16);
    return xor(des(k.subarray(0, 8), xor(register, right)), right);
  };
  return Buffer.concat([half(xor(key, KEY_MASK)), half(key)]);
}

/** The transaction key of `ksn` (its counter's bits applied to the IPEK one by one, high to low). */
export function transactionKey(ipek: Buffer, ksn: Buffer): Buffer {
  checkKey(ipek);
  const counter = ksnCounter(ksn);
  // The rightmost 64 bits of the KSN, counter cleared, then set bit by bit.
  const register = withCounter(ksn, 0).subarray(2, 10);
  let key: Buffer = Buffer.from(ipek);
  let low = 0;
  for (let bit = 0x100000; bit > 0; bit >>= 1) {
    if ((counter & bit) === 0) continue;
    low |= bit;
    const current = Buffer.from(register);
    current[5] = (current[5]! & 0xe0) | ((low >> 16) & 0x1f);
    current[6] = (low >> 8) & 0xff;
    current[7] = low & 0xff;
    key = nextKey(key, current);
  }
  return key;
}

/** The PIN encryption key of a transaction (the PIN variant of its key). */
export function pinKey(ipek: Buffer, ksn: Buffer): Buffer {
  return xor(transactionKey(ipek, ksn), PIN_VARIANT);
}

/**
 * The data encryption key of a transaction (request direction): the data variant of its key,
 * then each half encrypted under the whole variant (the one-way step of X9.24-1:2009).
 */
export function dataKey(ipek: Buffer, ksn: Buffer): Buffer {
  const variant = xor(transactionKey(ipek, ksn), DATA_VARIANT);
  return Buffer.concat([tdesEncrypt(variant, variant.subarray(0, 8)), tdesEncrypt(variant, variant.subarray(8, 16))]);
}

/**
 * An ISO 9564-1 format 0 PIN block: "0" + PIN length + PIN + F padding, XOR "0000" + the 12
 * rightmost PAN digits without the check digit. PAN shorter than 13 digits is left-padded with
 * zeros (abecs.md §3.10).
 */
export function pinBlockFormat0(pin: string, pan: string): Buffer {
  if (!/^[0-9]{4,12}$/.test(pin)) throw new RangeError('A PIN has 4 to 12 digits.');
  if (!/^[0-9]{2,19}$/.test(pan)) throw new RangeError('A PAN has 2 to 19 digits.');
  const pinField = Buffer.from(`0${pin.length.toString(16).toUpperCase()}${pin}`.padEnd(16, 'F'), 'hex');
  const digits = pan.padStart(13, '0').slice(0, -1).slice(-12);
  const panField = Buffer.from(`0000${digits}`, 'hex');
  return xor(pinField, panField);
}

/** The PIN of a format 0 block, given the PAN; undefined when the block is not format 0. */
export function pinOfBlock(block: Buffer, pan: string): string | undefined {
  const digits = pan.padStart(13, '0').slice(0, -1).slice(-12);
  const clear = xor(block, Buffer.from(`0000${digits}`, 'hex'))
    .toString('hex')
    .toUpperCase();
  if (clear[0] !== '0') return undefined;
  const length = parseInt(clear[1]!, 16);
  const pin = clear.slice(2, 2 + length);
  if (length < 4 || length > 12 || !/^[0-9]+$/.test(pin) || !/^F*$/.test(clear.slice(2 + length))) return undefined;
  return pin;
}
