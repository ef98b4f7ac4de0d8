/**
 * The keys the sandbox opens sealed card data and PIN blocks with, all public test keys
 * (docs/terminal-channel.md, "Published test keys"):
 *
 * - DUKPT: the ANSI X9.24 test BDK (drivers/crypto/dukpt.ts).
 * - MK/WK: the published test master keys of drivers/crypto/master-keys.ts. The sandbox issues,
 *   per master key slot and kind, the test working key encrypted under that slot's master key
 *   (what its EMV tables offer as `working_key`), and opens only a working key it issued.
 * - The random-key method: the test RSA-2048 key pair of test-rsa-key.ts.
 */
import { constants, createPrivateKey, createPublicKey, privateDecrypt, type KeyObject } from 'node:crypto';
import {
  encryptWorkingKey,
  openWorkingKey,
  testMasterKey,
  testWorkingKey,
  type MasterKeyKind,
} from '../../../drivers/crypto/master-keys.js';
import type { CardDataKeyMethod, PinKeyMethod } from '../../contract/emv-tables.js';
import { TEST_RSA_KEY_ID, TEST_RSA_PRIVATE_KEY_PEM } from './test-rsa-key.js';

export { TEST_RSA_KEY_ID };

/** The MK/WK slot and the DUKPT slot of the sandbox's default tables (acquirer 02). */
export const SANDBOX_DUKPT_SLOT = 1;
export const SANDBOX_MASTER_KEY_SLOT = 2;

/** SPE_WKENC as the sandbox issues it for `kind` in master key `slot`: upper-case hex. */
export function issuedWorkingKey(kind: MasterKeyKind, slot: number): string {
  return encryptWorkingKey(testMasterKey(kind, slot), testWorkingKey(kind)).toString('hex').toUpperCase();
}

/**
 * The working key in clear, when `workingKey` is one the sandbox issued for `kind` in `slot`;
 * undefined otherwise (another slot's, or another host's).
 */
export function openIssuedWorkingKey(kind: MasterKeyKind, slot: number, workingKey: string): Buffer | undefined {
  if (workingKey.toUpperCase() !== issuedWorkingKey(kind, slot)) return undefined;
  return openWorkingKey(testMasterKey(kind, slot), Buffer.from(workingKey, 'hex'));
}

let privateKey: KeyObject | undefined;
function rsaPrivateKey(): KeyObject {
  privateKey ??= createPrivateKey(TEST_RSA_PRIVATE_KEY_PEM);
  return privateKey;
}

/** The test RSA public key as the tables offer it: modulus and exponent, upper-case hex. */
export function testRsaPublicKey(): { readonly modulus: string; readonly exponent: string } {
  const jwk = createPublicKey(rsaPrivateKey()).export({ format: 'jwk' });
  const hex = (base64url: string | undefined): string =>
    Buffer.from(base64url ?? '', 'base64url')
      .toString('hex')
      .toUpperCase();
  return { modulus: hex(jwk.n), exponent: hex(jwk.e) };
}

/** Lengths of a TDES key the random-key method may carry: double (the spec's B16) or triple length. */
const TDES_KEY_LENGTHS = [16, 24];
/** PKCS #1 v1.5 wants at least 8 bytes of non-zero padding. */
const MIN_PADDING = 8;

/**
 * KRAND from PP_ENCKRAND: RSA under the test private key, then the PKCS #1 v1.5 type 2 block
 * checked by hand (00 02, at least 8 non-zero bytes, 00, the key) — S220 §5.2.1's layout.
 * Undefined when the block is not one. The raw RSA operation (no padding) is used on purpose:
 * Node 24's RSA_PKCS1_PADDING decryption answers random bytes instead of an error for a bad block
 * (implicit rejection, against Bleichenbacher-style oracles), and a test host must say "this is
 * not a PKCS #1 block" rather than open garbage.
 */
export function openRandomKey(encryptedKey: Buffer): Buffer | undefined {
  let block: Buffer;
  try {
    block = privateDecrypt({ key: rsaPrivateKey(), padding: constants.RSA_NO_PADDING }, encryptedKey);
  } catch {
    return undefined;
  }
  if (block.length !== 256 || block[0] !== 0x00 || block[1] !== 0x02) return undefined;
  const separator = block.indexOf(0x00, 2);
  if (separator < 2 + MIN_PADDING) return undefined;
  const key = block.subarray(separator + 1);
  return TDES_KEY_LENGTHS.includes(key.length) ? Buffer.from(key) : undefined;
}

/**
 * What the sandbox's tables offer its acquirer, in this order: card data by DUKPT (slot 01),
 * MK/WK (data master key slot 02) or the random-key method; the PIN by DUKPT (slot 01) or MK/WK
 * (PIN master key slot 02) — so every key loadout the spec defines sells in training.
 */
export function sandboxKeyMethods(): { card_data: CardDataKeyMethod[]; pin: PinKeyMethod[] } {
  return {
    card_data: [
      { method: 'dukpt', slot: SANDBOX_DUKPT_SLOT },
      { method: 'mkwk', slot: SANDBOX_MASTER_KEY_SLOT, working_key: issuedWorkingKey('data', SANDBOX_MASTER_KEY_SLOT) },
      { method: 'random_key', key_id: TEST_RSA_KEY_ID, ...testRsaPublicKey() },
    ],
    pin: [
      { method: 'dukpt', slot: SANDBOX_DUKPT_SLOT },
      { method: 'mkwk', slot: SANDBOX_MASTER_KEY_SLOT, working_key: issuedWorkingKey('pin', SANDBOX_MASTER_KEY_SLOT) },
    ],
  };
}
