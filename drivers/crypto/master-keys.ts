/**
 * Master key / working key (MK/WK) TDES, the other key management ABECS defines beside DUKPT
 * (PP_MKTDESP / PP_MKTDESD, S220 §6.1.2, §6.3.1): an acquirer's key-loading device puts a master
 * key (MK) into a slot of the PINPAD, and its host later hands the terminal a working key (WK)
 * encrypted under that MK — SPE_WKENC of GOX, GPN and GTK. The PINPAD opens it (TDES ECB
 * decryption under the slot's MK, S220 §5.3 "Modalidade 1") and encrypts the PIN block or the card
 * data under the WK; the host, which holds the same MK, opens the WK and then the data.
 *
 * Pinbridge never holds a production master key. These are the **published test master keys**
 * the simulated PINPAD is loaded with and the payments sandbox opens with — test data only, as
 * the ANSI test BDK is (docs/terminal-channel.md lists them):
 *
 * - the PIN master key of slot nn is TEST_MASTER_KEY_PIN, the data master key of slot nn is
 *   TEST_MASTER_KEY_DATA, each with the last byte of its second half XORed with 2 × nn — so
 *   every slot's key differs (DES ignores each byte's lowest bit, hence 2 × nn) and a host that
 *   opens a working key under the wrong slot gets garbage;
 * - the working keys the sandbox issues are TEST_WORKING_KEY_PIN and TEST_WORKING_KEY_DATA,
 *   sent encrypted under the slot's master key (`encryptWorkingKey`).
 */
import { tdesDecrypt, tdesEncrypt } from './dukpt.js';

export type MasterKeyKind = 'pin' | 'data';

/** Base of every test PIN master key (MK:TDES:PIN). */
export const TEST_MASTER_KEY_PIN = Buffer.from('CD9A99A00357215237545B18A2940D5B', 'hex');
/** Base of every test data master key (MK:TDES:DAT). */
export const TEST_MASTER_KEY_DATA = Buffer.from('BA1755D56C3C919AFA8697442C8282FD', 'hex');
/** The working key the test host issues for PINs, in clear (it travels only under an MK). */
export const TEST_WORKING_KEY_PIN = Buffer.from('ADC0ECA70087D6F4DAC4D1C840C0B6B1', 'hex');
/** The working key the test host issues for card data, in clear. */
export const TEST_WORKING_KEY_DATA = Buffer.from('CE23649CB9E9F059A80FA6A16E6882E8', 'hex');

function checkSlot(slot: number): void {
  if (!Number.isInteger(slot) || slot < 0 || slot > 99) {
    throw new RangeError(`A key slot is an integer from 0 to 99, got ${String(slot)}.`);
  }
}

/** The test master key loaded in `slot` for `kind`. */
export function testMasterKey(kind: MasterKeyKind, slot: number): Buffer {
  checkSlot(slot);
  const key = Buffer.from(kind === 'pin' ? TEST_MASTER_KEY_PIN : TEST_MASTER_KEY_DATA);
  key[15] = key[15]! ^ (2 * slot);
  return key;
}

/** The test working key of `kind`, in clear. */
export function testWorkingKey(kind: MasterKeyKind): Buffer {
  return Buffer.from(kind === 'pin' ? TEST_WORKING_KEY_PIN : TEST_WORKING_KEY_DATA);
}

/** SPE_WKENC: a 16-byte working key encrypted (TDES ECB) under a master key. */
export function encryptWorkingKey(masterKey: Buffer, workingKey: Buffer): Buffer {
  if (workingKey.length !== 16) throw new RangeError('A TDES working key is 16 bytes.');
  return tdesEncrypt(masterKey, workingKey);
}

/** The working key in clear from SPE_WKENC, as the PINPAD (and the host) open it. */
export function openWorkingKey(masterKey: Buffer, encrypted: Buffer): Buffer {
  if (encrypted.length !== 16) throw new RangeError('An encrypted TDES working key is 16 bytes.');
  return tdesDecrypt(masterKey, encrypted);
}
